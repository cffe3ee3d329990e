# Columns of new data: by name, by position, rebuilt through formula terms; NA rows.

test_that("predict matches columns by name, in any order, ignores extra ones and names missing ones", {
  dat <- make_groups(n = c(60, 50), d = 4)
  x <- dat$x
  colnames(x) <- c("a", "b", "c", "d")
  f <- fair_pca(x, dat$g, k = 2, method = "standard")
  p <- predict(f, x[1:5, ])
  expect_equal(predict(f, x[1:5, 4:1]), p)
  expect_equal(predict(f, as.data.frame(x[1:5, c(3, 1, 4, 2)])), p)
  expect_equal(reconstruct(f, x[1:5, 4:1]), reconstruct(f, x[1:5, ]))
  e <- expect_error(predict(f, x[, 1:3]), class = "fairproj_newdata_error")
  expect_match(conditionMessage(e), "missing d")
  # extra columns are ignored, as predict.prcomp does
  x2 <- cbind(x, extra = 1)
  expect_equal(predict(f, x2[1:5, ]), p)
  df2 <- data.frame(sex = dat$g, x)[1:5, ]
  expect_equal(predict(f, df2), p, ignore_attr = TRUE)
  expect_equal(reconstruct(f, df2), reconstruct(f, x[1:5, ]), ignore_attr = TRUE)
  pc <- stats::prcomp(x)
  expect_equal(predict(pc, df2), predict(pc, x[1:5, ]), ignore_attr = TRUE)
  # by position when either has no names
  expect_equal(unname(predict(f, unname(x[1:5, ]))), unname(p))
  fu <- fair_pca(unname(x), dat$g, k = 2, method = "standard")
  expect_equal(predict(fu, x[1:5, ]), predict(fu, unname(x[1:5, ])), ignore_attr = TRUE)
  expect_error(predict(fu, x[, 1:3]), "3 columns", class = "fairproj_newdata_error")
})

test_that("a row with NA gives an NA row of scores and reconstruction", {
  dat <- make_groups(n = c(60, 50), d = 4)
  f <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  x <- dat$x[1:6, ]
  x[3, 2] <- NA
  s <- predict(f, x)
  expect_true(all(is.na(s[3, ])))
  expect_equal(s[-3, ], predict(f, dat$x[c(1, 2, 4, 5, 6), ]), ignore_attr = TRUE)
  r <- reconstruct(f, x)
  expect_true(all(is.na(r[3, ])))
  expect_false(anyNA(r[-3, ]))
  # prcomp does the same
  pc <- stats::prcomp(dat$x)
  expect_true(all(is.na(predict(pc, x)[3, ])))
  # metrics that need complete rows say so
  expect_error(group_errors(f, x, dat$g[1:6]), "missing", class = "fairproj_input_error")
  expect_error(variance_explained(f, x), "missing", class = "fairproj_input_error")
})

test_that("group_errors and variance_explained match columns by name", {
  dat <- make_groups(n = c(60, 50), d = 4)
  x <- dat$x
  colnames(x) <- c("a", "b", "c", "d")
  f <- fair_pca(x, dat$g, k = 2, method = "standard")
  expect_equal(group_errors(f, x[, 4:1], dat$g)$table, group_errors(f, x, dat$g)$table)
  expect_equal(variance_explained(f, x[, c(2, 1, 4, 3)]), variance_explained(f, x))
  expect_error(variance_explained(f, x[, 1:3]), class = "fairproj_newdata_error")
  df <- data.frame(x, grp = dat$g)
  expect_equal(group_errors(f, df, group = grp)$table, group_errors(f, x, dat$g)$table)
  expect_equal(group_errors(f, df, group = "grp")$table, group_errors(f, x, dat$g)$table)
})

test_that("predict.fair_css matches columns by name and passes NA rows", {
  dat <- make_groups(n = c(60, 50), d = 5)
  x <- dat$x
  colnames(x) <- letters[1:5]
  f <- fair_css(x, dat$g, k = 2)
  expect_equal(predict(f, x[, 5:1]), x[, f$columns, drop = FALSE])
  expect_error(predict(f, x[, -1]), "missing a", class = "fairproj_newdata_error")
  expect_equal(predict(f, cbind(x, z = 0)), x[, f$columns, drop = FALSE])
  x[2, ] <- NA
  expect_true(all(is.na(predict(f, x)[2, ])))
  expect_true(all(is.na(reconstruct(f, x)[2, ])))
  # names given as V1, V2, ... (those of read.table() without a header) are matched by name too
  colnames(x) <- paste0("V", 1:5)
  fv <- fair_css(x[-2, ], dat$g[-2], k = 2)
  expect_identical(predict(fv, x[3:5, 5:1]), x[3:5, fv$columns, drop = FALSE])
  expect_identical(predict(fv, cbind(x[3:5, ], z = 0)), x[3:5, fv$columns, drop = FALSE])
  expect_identical(reconstruct(fv, x[3:5, 5:1]), reconstruct(fv, x[3:5, ]))
  fu <- fair_css(unname(x[-2, ]), dat$g[-2], k = 2)
  # without names given, by position
  expect_identical(unname(predict(fu, x[3:5, 5:1])), unname(x[3:5, (5:1)[fu$columns], drop = FALSE]))
})

test_that("the formula interface expands factors and predict rebuilds them from raw data", {
  set.seed(3)
  n <- 120
  df <- data.frame(a = rnorm(n), b = rexp(n), colour = factor(sample(c("red", "green", "blue"), n, TRUE)),
                   size = sample(c("S", "L"), n, TRUE), sex = rep(c("f", "m"), n / 2))
  f <- fair_pca(~ a + log(b) + colour + size, data = df, group = sex, k = 2, method = "standard")
  mm <- model.matrix(~ a + log(b) + colour + size - 1, df)
  expect_equal(rownames(f$rotation), colnames(mm))
  ref <- fair_pca(mm, df$sex, k = 2, method = "standard")
  expect_equal(f$rotation, ref$rotation, ignore_attr = TRUE)
  expect_equal(f$xlevels$colour, levels(df$colour))
  # columns in any order, extra columns ignored, a subset of rows keeps all factor levels
  new <- df[c(5, 1, 9), c("sex", "size", "colour", "b", "a")]
  expect_equal(predict(f, new), predict(ref, mm[c(5, 1, 9), ]), ignore_attr = TRUE)
  one <- df[2, ]
  expect_equal(predict(f, one), predict(ref, mm[2, , drop = FALSE]), ignore_attr = TRUE)
  # unseen level, missing variable
  bad <- df[1:3, ]
  bad$size <- c("S", "XL", "L")
  e <- expect_error(predict(f, bad), class = "fairproj_new_level_error")
  expect_match(conditionMessage(e), "XL")
  expect_error(predict(f, df[, c("a", "b", "colour")]), "size", class = "fairproj_newdata_error")
  # NA in raw data gives an NA row
  df2 <- df[1:4, ]
  df2$a[2] <- NA
  expect_true(all(is.na(predict(f, df2)[2, ])))
  # the group column is found again by group_errors
  expect_equal(group_errors(f, df)$table, f$group_stats, tolerance = 1e-8)
})

test_that("reconstruct() of an object that is not a fit is a classed error naming `object`", {
  x <- matrix(rnorm(40), 10, 4)
  for (o in list(stats::prcomp(x), list(a = 1), NULL)) {
    expect_error(reconstruct(o, x), "^`object` must be a fair_pca or fair_css fit", class = "fairproj_input_error")
  }
})

test_that("other columns of newdata are ignored, as predict.prcomp ignores them (as documented)", {
  set.seed(2)
  x <- matrix(rnorm(200), 50, 4, dimnames = list(NULL, paste0("c", 1:4)))
  g <- rep(c("a", "b"), 25)
  f <- fair_pca(x, g, k = 2, method = "standard")
  expect_equal(predict(f, cbind(x, zz = 1)), predict(f, x))
  expect_equal(reconstruct(f, cbind(zz = 1, x)), reconstruct(f, x), ignore_attr = TRUE)
  cs <- fair_css(x, g, k = 2)
  expect_equal(predict(cs, cbind(x, zz = 1)), predict(cs, x))
})

test_that("reconstruct() of a fair_pca fit refuses arguments it does not take", {
  set.seed(4)
  x <- matrix(rnorm(120), 30, 4)
  g <- rep(c("a", "b"), 15)
  f <- fair_pca(x, g, k = 2, method = "standard")
  expect_error(reconstruct(f, x, group = g), "^`...` has argument\\(s\\) that reconstruct\\(\\) of a fair_pca fit does not take: group",
               class = "fairproj_input_error")
  expect_error(reconstruct(f, x, 3), "unnamed", class = "fairproj_input_error")
  expect_equal(dim(reconstruct(f, x)), dim(x))
})

test_that("augment() of fair_css and predict()/augment() of fair_kpca take an unnamed matrix by position", {
  set.seed(5)
  x <- matrix(rnorm(240), 60, 4, dimnames = list(NULL, paste0("c", 1:4)))
  g <- rep(c("a", "b"), 30)
  cs <- fair_css(x, g, k = 2)
  expect_equal(augment(cs, data = unname(x), group = g)$.sq_error, augment(cs, data = x, group = g)$.sq_error)
  kp <- fair_kpca(x, g, k = 2)
  expect_equal(predict(kp, unname(x)), predict(kp, x))
  expect_equal(augment(kp, data = unname(x))$.fittedKPC1, augment(kp, data = x)$.fittedKPC1)
  expect_error(predict(kp, unname(x)[, 1:3]), "^`newdata` has 3 columns but the model was fitted on 4", class = "fairproj_input_error")
  # names given as V1, V2, ... are matched by name; a fit without names takes columns by position
  colnames(x) <- paste0("V", 1:4)
  kv <- fair_kpca(x, g, k = 2)
  expect_identical(predict(kv, x[, 4:1]), predict(kv, x))
  expect_error(predict(kv, setNames(as.data.frame(x), letters[1:4])), class = "fairproj_newdata_error",
               regexp = "^`newdata` does not have the columns .* missing V1")
  ku <- fair_kpca(unname(x), g, k = 2)
  expect_identical(unname(predict(ku, x[, 4:1])), unname(predict(ku, unname(x[, 4:1]))))
})

test_that("fitted(), residuals(), coef() and nobs() of fair_css and fair_kpca fits say what they are", {
  set.seed(6)
  x <- matrix(rnorm(240), 60, 4, dimnames = list(NULL, paste0("c", 1:4)))
  g <- rep(c("a", "b"), 30)
  cs <- fair_css(x, g, k = 2)
  expect_equal(fitted(cs, x, group = g), reconstruct(cs, x, group = g))
  expect_equal(residuals(cs, x, group = g), x - reconstruct(cs, x, group = g))
  expect_error(fitted(cs), "^`newdata` is missing: a column selection keeps no rows", class = "fairproj_input_error")
  expect_error(residuals(cs), "^`newdata` is missing", class = "fairproj_input_error")
  expect_error(coef(cs), "^`object` is a column selection, which has no coefficients", class = "fairproj_input_error")
  kp <- fair_kpca(x, g, k = 2)
  expect_identical(nobs(kp), 60L)
  for (f in list(fitted, residuals, coef)) {
    expect_error(f(kp), "^`object` is a kernel PCA fit, which has no", class = "fairproj_input_error")
  }
})

test_that("a fit from moments refuses retx, and its missing scores say why", {
  set.seed(7)
  x <- matrix(rnorm(240), 60, 4)
  g <- rep(c("a", "b"), 30)
  m <- group_moments(x, g)
  expect_error(fair_pca(m, k = 2, retx = TRUE), "^`retx` cannot be given for a fit from moments", class = "fairproj_input_error")
  f <- fair_pca(m, k = 2)
  expect_error(augment(f), "a fit from moments keeps none", class = "fairproj_input_error")
  expect_error(fitted(f), "a fit from moments keeps none", class = "fairproj_input_error")
})
