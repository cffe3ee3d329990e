test_that("tidy, glance and augment have the broom shapes", {
  dat <- make_groups(n = c(80, 70), d = 5)
  f <- fair_pca(dat$x, dat$g, k = 2)
  td <- tidy(f)
  expect_named(td, c("column", "PC", "value"))
  expect_equal(nrow(td), 10L)
  expect_equal(td$value[td$PC == 2], unname(f$rotation[, 2]))
  ev <- tidy(f, "eigenvalues")
  expect_equal(ev$percent, f$sdev^2 / f$totalvar)
  expect_equal(nrow(tidy(f, "groups")), 2L)
  expect_equal(nrow(tidy(f, "scores")), 2L * 150L)
  expect_error(tidy(f, "nonsense"), class = "fairproj_input_error")
  gl <- glance(f)
  expect_equal(nrow(gl), 1L)
  expect_equal(gl$max_loss, max(f$group_stats$loss))
  expect_equal(gl$method, "minmax")
  df <- data.frame(dat$x, grp = dat$g)
  au <- augment(f, data = df)
  expect_equal(names(au), c(".rownames", names(df), ".fittedPC1", ".fittedPC2"))
  expect_equal(au$.fittedPC1, unname(f$x[, 1]))
  au2 <- augment(f, newdata = dat$x[1:3, ])
  expect_equal(nrow(au2), 3L)
  expect_equal(augment(f, data = df[1:3, ])$.fittedPC1, unname(f$x[1:3, 1]))
  skip_if_not_installed("broom")
  expect_equal(broom::tidy(f), td)
  # broom's own prcomp tidiers give the same column names
  p <- stats::prcomp(dat$x)
  expect_named(tidy(f, "eigenvalues"), names(broom::tidy(p, "d")))
  expect_named(tidy(f, "scores"), names(broom::tidy(p, "x")))
  expect_identical(names(augment(f, data = df)), names(broom::augment(p, data = df))[1:9])
})

test_that("tidy, glance and augment return tibbles", {
  skip_if_not_installed("tibble")
  dat <- make_groups(n = c(40, 30), d = 4)
  f <- fair_pca(dat$x, dat$g, k = 2)
  for (m in c("rotation", "eigenvalues", "groups", "scores")) expect_s3_class(tidy(f, m), "tbl_df")
  expect_s3_class(glance(f), "tbl_df")
  expect_s3_class(augment(f, data = as.data.frame(dat$x)), "tbl_df")
  expect_s3_class(augment(f, newdata = dat$x[1:2, ]), "tbl_df")
})

# Data with missing values in two columns, shuffled so that row names and positions differ.
na_data <- function() {
  dat <- make_groups(n = c(70, 60), d = 4, seed = 5)
  d <- data.frame(dat$x, sex = dat$g)
  d$x2[c(3, 17, 40, 99)] <- NA
  d$x4[c(17, 120)] <- NA
  set.seed(9)
  d[sample(nrow(d)), ]
}

test_that("na.exclude pads fit$x, predict() and fitted() with NA rows, as prcomp does", {
  d <- na_data()
  f <- fair_pca(~ x1 + x2 + x3 + x4, data = d, group = sex, k = 2, method = "standard", na.action = na.exclude)
  p <- stats::prcomp(~ x1 + x2 + x3 + x4, data = d, na.action = na.exclude)
  expect_equal(nrow(f$x), nrow(d))
  expect_identical(rownames(f$x), rownames(p$x))
  expect_identical(is.na(f$x[, 1]), is.na(p$x[, 1]))
  expect_equal(abs(unname(f$x)), abs(unname(p$x[, 1:2])), tolerance = 1e-8)
  expect_identical(predict(f), f$x)
  expect_equal(nrow(fitted(f)), nrow(d))
  expect_identical(is.na(fitted(f)[, 1]), is.na(p$x[, 1]))
  # na.omit (the default) drops those rows, as prcomp
  f2 <- fair_pca(~ x1 + x2 + x3 + x4, data = d, group = sex, k = 2, method = "standard")
  expect_equal(nrow(f2$x), nrow(d) - 5L)
  expect_identical(rownames(f2$x), rownames(stats::prcomp(~ x1 + x2 + x3 + x4, data = d)$x))
})

test_that("augment(data =) gives each row of any data frame its own scores, NA where it has a missing value", {
  d <- na_data()
  miss <- !stats::complete.cases(d[c("x2", "x4")])
  for (na in list(stats::na.exclude, stats::na.omit)) {
    f <- fair_pca(~ x1 + x2 + x3 + x4, data = d, group = sex, k = 2, na.action = na)
    au <- augment(f, data = d)
    # every row of `data`, in its order, NA scores where a value is missing
    expect_equal(nrow(au), nrow(d))
    expect_identical(au$.rownames, rownames(d))
    expect_identical(is.na(au$.fittedPC1), miss)
    expect_equal(as.matrix(au[c(".fittedPC1", ".fittedPC2")]), unname(predict(f, d)), ignore_attr = TRUE)
    # the training scores on the rows the fit used
    tr <- stats::na.omit(f$x)
    expect_equal(unname(as.matrix(au[!miss, c(".fittedPC1", ".fittedPC2")])), unname(tr[rownames(d)[!miss], ]),
                 tolerance = 1e-10)
    # the same rows in another order, a subset, without row names: each row keeps its scores
    set.seed(2)
    i <- sample(nrow(d))
    for (rows in list(i, i[1:20], 20:1)) {
      ds <- d[rows, ]
      rownames(ds) <- NULL
      expect_equal(augment(f, data = ds)$.fittedPC2, au$.fittedPC2[rows])
    }
  }
  # rows the fit was not given are scored as new rows
  other <- d[1:3, ]
  rownames(other) <- c("p", "q", "r")
  expect_equal(augment(f, data = other)$.fittedPC1, au$.fittedPC1[1:3])
  # data without the fit's columns is a classed error that names `data`
  expect_error(augment(f, data = d[c("x1", "sex")]), class = "fairproj_newdata_error", regexp = "^`data`")
  expect_error(augment(f, data = 1:3), class = "fairproj_input_error", regexp = "^`data`")
})

test_that("augment(data =) on a shuffled tibble or data.table gives the scores of predict() on those rows", {
  skip_if_not_installed("tibble")
  d <- na_data()
  rownames(d) <- NULL
  miss <- !stats::complete.cases(d[c("x2", "x4")])
  f <- fair_pca(~ ., data = d, group = sex, k = 2, scale. = TRUE)
  fm <- fair_pca(stats::na.omit(d)[1:4], stats::na.omit(d)$sex, k = 2, scale. = TRUE)  # a matrix fit
  set.seed(1)
  i <- sample(nrow(d))
  tabs <- list(tibble = tibble::as_tibble(d)[i, ])
  if (requireNamespace("data.table", quietly = TRUE)) tabs$data.table <- data.table::as.data.table(d)[i, ]
  for (fit in list(f, fm)) {
    for (s in tabs) {
      a <- augment(fit, data = s)
      expect_equal(nrow(a), nrow(d))
      expect_identical(a$x3, d$x3[i])
      expect_identical(is.na(a$.fittedPC1), miss[i])
      expect_equal(as.matrix(a[c(".fittedPC1", ".fittedPC2")]), unname(predict(fit, as.data.frame(s))),
                   ignore_attr = TRUE)
      expect_equal(a$.fittedPC1[!miss[i]], unname(predict(fit, d)[i, 1][!miss[i]]))
    }
  }
  # a column selection's per-row errors too
  fc <- fair_css(~ ., data = d, group = sex, k = 2, scale. = TRUE)
  ac <- augment(fc, data = d)
  expect_identical(is.na(ac$.sq_error), miss)
  for (s in tabs) expect_equal(augment(fc, data = s)$.sq_error, ac$.sq_error[i])
})

test_that("augment(newdata =) keeps every row of newdata, NA rows with NA scores", {
  d <- na_data()
  f <- fair_pca(~ x1 + x2 + x3 + x4, data = d, group = sex, k = 2)
  an <- augment(f, newdata = d)
  expect_equal(nrow(an), nrow(d))
  expect_identical(is.na(an$.fittedPC1), !stats::complete.cases(d[c("x2", "x4")]))
})

test_that("glance()$converged is filled for every iterative method", {
  dat <- make_groups(n = c(60, 50), d = 4, seed = 3)
  conv <- function(method, ...) glance(fair_pca(dat$x, dat$g, k = 2, method = method, ...))$converged
  expect_true(is.na(conv("standard")))
  expect_true(is.na(conv("mean")))
  expect_true(conv("minmax"))
  set.seed(1)
  r <- conv("robust", scale. = TRUE, iterations = 200, restarts = 1, iterate = "best")
  expect_true(is.logical(r) && !is.na(r))
  expect_true(conv("inlp"))
  expect_false(is.na(conv("rlace", n_iter = 200, seed = 1)))
  expect_true(conv("rlace", n_iter = 50, accuracy_tol = NULL, seed = 1))
})

test_that("augment() refuses arguments it does not take, keeping broom's data and newdata", {
  X <- as.matrix(iris[1:4])
  f <- fair_pca(X, iris$Species, 2)
  e <- expect_error(augment(f, new_data = X[1:5, ]), "^`\\.\\.\\.` has argument\\(s\\) that augment\\(\\) of a fair_pca fit does not take: new_data",
                    class = "fairproj_input_error")
  expect_match(conditionMessage(e), "for `new_data` give `newdata`", fixed = TRUE)
  expect_error(augment(f, data = iris, type.predict = "x"), "does not take: type.predict", class = "fairproj_input_error")
  expect_identical(nrow(augment(f, data = iris)), 150L)
  expect_identical(nrow(augment(f, newdata = X[1:5, ])), 5L)
  expect_identical(nrow(augment(f)), 150L)
})

test_that("as.prcomp() keeps the call and na.action; counts beyond R's integers are doubles", {
  d <- data.frame(a = c(1, 3, NA, 2, 5, 4, 7, 6), b = c(2, 1, 4, 3, 3, 6, 5, 8), g = rep(c("u", "v"), 4))
  f <- fair_pca(~ a + b, data = d, group = g, k = 1, na.action = na.exclude, method = "standard")
  p <- as.prcomp(f)
  expect_identical(p$call, f$call)
  expect_identical(p$na.action, f$na.action)
  expect_identical(nrow(predict(p)), nrow(d))  # na.exclude pads the scores, as prcomp()'s formula method
  expect_identical(fairproj:::fp_count_value(5), 5L)
  expect_identical(fairproj:::fp_count_value(3e9), 3e9)
  big <- f
  big$groups$n <- c(2e9, 1e9)
  expect_identical(nobs(big), 3e9)
  expect_identical(glance(big)$nobs, 3e9)
})

test_that("group_errors(): tidy() is its table, glance() one row of its criteria", {
  dat <- make_groups(n = c(40, 30), d = 4)
  fit <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  ge <- group_errors(fit, dat$x, dat$g)
  td <- tidy(ge)
  expect_s3_class(td, "data.frame")
  expect_equal(as.data.frame(td), ge$table)
  gl <- glance(ge)
  expect_identical(nrow(gl), 1L)
  expect_identical(names(gl), c("ABDiff", "ARE", "max_loss", "ngroups", "nobs"))
  expect_equal(unlist(gl[c("ABDiff", "ARE", "max_loss")]), unlist(ge[c("ABDiff", "ARE", "max_loss")]))
  expect_identical(c(gl$ngroups, gl$nobs), c(2L, 70L))
  # generics' "no applicable method" before; a misspelt option is not ignored
  expect_error(tidy(ge, matrix = "table"), "^`...`", class = "fairproj_input_error")
  expect_error(glance(ge, extra = 1), "^`...`", class = "fairproj_input_error")
})

test_that("tidy(, \"scores\") of a fit without scores says to refit from the rows (a fit from moments cannot take retx)", {
  dat <- make_groups(n = c(40, 30), d = 4)
  fm <- fair_pca(group_moments(dat$x, dat$g), k = 2, method = "standard")
  # "refit with retx = TRUE" led to the error that a fit from moments cannot take `retx`
  expect_error(tidy(fm, "scores"), "^`x` has no training scores.*refit from the rows", class = "fairproj_input_error")
  expect_error(fair_pca(group_moments(dat$x, dat$g), k = 2, retx = TRUE), class = "fairproj_input_error")
  expect_error(tidy(fair_pca(dat$x, dat$g, k = 2, retx = FALSE), "scores"), "predict\\(x, rows\\)", class = "fairproj_input_error")
})

test_that("summary() of group_errors() is the result itself, not base R's Length/Class/Mode table", {
  dat <- make_groups(n = c(40, 30), d = 4)
  ge <- group_errors(fair_pca(dat$x, dat$g, k = 2, method = "standard"), dat$x, dat$g)
  s <- summary(ge)
  expect_s3_class(s, "fairproj_group_errors")
  expect_identical(s, ge)
  expect_identical(capture.output(print(s, digits = 4)), capture.output(print(ge, digits = 4)))
  expect_error(summary(ge, digits = 3), "^`...`", class = "fairproj_input_error")
})
