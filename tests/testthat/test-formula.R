
test_that("fair_css, tune_fair_pca and pareto_front have formula interfaces", {
  set.seed(4)
  n <- 90
  df <- data.frame(a = rnorm(n), b = rnorm(n), c = rnorm(n), d = rnorm(n),
                   f = factor(sample(c("u", "v"), n, TRUE)), g = rep(c("x", "y", "y"), n / 3))
  cs <- fair_css(~ ., data = df, group = g, k = 2)
  mm <- model.matrix(~ . - 1, df[setdiff(names(df), "g")])
  cs_ref <- fair_css(mm, df$g, k = 2)
  expect_equal(cs$columns, cs_ref$columns)
  expect_equal(predict(cs, df[1:3, ]), mm[1:3, cs$columns, drop = FALSE], ignore_attr = TRUE)
  tn <- tune_fair_pca(~ a + b + c + d, data = df, group = g, k = 2, method = "robust",
                      grid = list(alpha = 0.1), iterations = 20, restarts = 1, seed = 1, iterate = "best")
  expect_s3_class(tn, "fairproj_tune")
  expect_equal(dim(predict(tn$model, df[1:2, ])), c(2L, 2L))
  pf <- suppressWarnings(pareto_front(~ a + b + c + d, data = df, group = g, k = 2, restarts = 1, iterations = 20),
                         classes = "fairproj_convergence_warning")
  expect_s3_class(pf, "fairproj_pareto_front")
  expect_equal(dim(predict(pf$fits[[1]], df[1:2, ])), c(2L, 2L))
})

test_that("the group column may be removed from a formula (prcomp's `~ . - group`) but not used", {
  fit <- fair_pca(~ . - Species, data = iris, group = Species, k = 2)
  ref <- fair_pca(~ ., data = iris, group = Species, k = 2)
  expect_equal(fit$rotation, ref$rotation)
  expect_identical(rownames(fit$rotation), names(iris)[1:4])
  fit2 <- fair_pca(~ . - Species - Petal.Width, data = iris, group = Species, k = 2)
  expect_identical(rownames(fit2$rotation), names(iris)[1:3])
  expect_error(fair_pca(~ Sepal.Length + Species, data = iris, group = Species, k = 1),
               class = "fairproj_input_error")
  expect_error(fair_pca(~ Sepal.Length:Species + Sepal.Width, data = iris, group = Species, k = 1),
               class = "fairproj_input_error")
  expect_error(fair_pca(~ . - Species - Sepal.Length - Sepal.Width - Petal.Length - Petal.Width,
                        data = iris, group = Species, k = 1), class = "fairproj_input_error")
  # predict() rebuilds the features of new data from the same terms
  expect_equal(predict(fit, iris[1:5, ]), predict(ref, iris[1:5, ]))
})

test_that("a misspelt group column is a classed error naming `group` and the columns of the data", {
  d <- data.frame(age = c(1, 4, 2, 8, 5, 7, 3, 6), bili = c(2, 1, 4, 3, 6, 5, 8, 7), sex = rep(c("f", "m"), 4))
  # every formula door, the data.frame doors and group_errors()
  calls <- list(
    quote(fair_pca(~ ., data = d, group = gender, k = 1)),
    quote(fair_css(~ ., data = d, group = gender, k = 1)),
    quote(fair_kpca(~ ., data = d, group = gender, k = 1)),
    quote(fair_audit(~ ., data = d, group = gender)),
    quote(tune_fair_pca(~ ., data = d, group = gender, k = 1)),
    quote(pareto_front(~ ., data = d, group = gender, k = 1)),
    quote(fair_pca(d, group = gender, k = 1)),
    quote(fair_css(d, group = gender, k = 1)),
    quote(fair_kpca(d, group = gender, k = 1)),
    quote(fair_audit(d, group = gender)),
    quote(tune_fair_pca(d, group = gender, k = 1)),
    quote(pareto_front(d, group = gender, k = 1)),
    quote(group_moments(d, gender)),
    quote(group_errors(fair_pca(d, "sex", k = 1), d, group = gender))
  )
  for (cl in calls) {
    expect_error(eval(cl), class = "fairproj_input_error", regexp = "^`group` .*gender.*age, bili, sex")
  }
  # a misspelt outcome of fair_audit() too
  expect_error(fair_audit(~ ., data = d, group = sex, outcome = outcom), class = "fairproj_input_error",
               regexp = "^`outcome` .*outcom.*age, bili")
  # a variable of the caller is still a group, and a bare column name of a data.frame `x` says to quote it
  gender <- d$sex
  expect_s3_class(fair_pca(~ age + bili, data = d, group = gender, k = 1, method = "standard"), "fair_pca")
  expect_snapshot(error = TRUE, {
    fair_pca(~ ., data = d, group = Sex, k = 1)
    fair_pca(~ ., data = d, group = "gendr", k = 1)
    fair_pca(~ ., data = d, group = paste(sex, gendr), k = 1)
    fair_pca(d, group = sex, k = 1)
  })
})

test_that("a two-sided formula says that the group goes in `group =`", {
  d <- data.frame(age = c(1, 4, 2, 8, 5, 7, 3, 6), bili = c(2, 1, 4, 3, 6, 5, 8, 7), sex = rep(c("f", "m"), 4))
  for (door in list(fair_pca, fair_css, fair_kpca, tune_fair_pca, pareto_front)) {
    expect_error(door(sex ~ ., data = d, k = 1), class = "fairproj_input_error", regexp = "group = sex")
    expect_error(door(sex ~ age, data = d, group = sex, k = 1), class = "fairproj_input_error", regexp = "`~ age`")
  }
  expect_error(fair_audit(sex ~ ., data = d), class = "fairproj_input_error", regexp = "group = sex")
  expect_snapshot(error = TRUE, {
    fair_pca(sex ~ ., data = d, k = 1)
    fair_pca(log(sex) ~ age + bili, data = d, group = sex, k = 1)
    fair_audit(y ~ ., data = d, group = sex)
  })
})

test_that("every formula door takes `subset` from the data, then from the caller's frame, and needs `group`", {
  set.seed(7)
  df <- data.frame(a = rnorm(40), b = rnorm(40), c = rnorm(40), g = rep(c("x", "y"), 20))
  keep <- df$a > -1  # a variable of the caller's frame, combined with a column of the data
  rows <- keep & df$b < 1
  xs <- as.matrix(df[rows, 1:3])
  gs <- df$g[rows]
  pca <- fair_pca(~ a + b + c, data = df, group = g, k = 2, method = "standard", subset = keep & b < 1)
  expect_equal(nobs(pca), sum(rows))
  expect_equal(pca$rotation, fair_pca(xs, gs, k = 2, method = "standard")$rotation, ignore_attr = TRUE)
  css <- fair_css(~ a + b + c, data = df, group = g, k = 2, subset = keep & b < 1)
  expect_identical(css$columns, fair_css(xs, gs, k = 2)$columns)
  kp <- fair_kpca(~ a + b + c, data = df, group = g, k = 2, subset = keep & b < 1)
  expect_equal(kp$x, fair_kpca(xs, gs, k = 2)$x, ignore_attr = TRUE)
  for (door in list(fair_pca, fair_css, fair_kpca, tune_fair_pca, pareto_front)) {
    expect_error(door(~ a + b, data = df, k = 1), class = "fairproj_input_error")
  }
})

pbc2_data <- function() {
  data("pbc", package = "survival", envir = environment())
  vars <- c("age", "bili", "chol", "albumin", "copper", "alk.phos", "ast", "trig", "platelet", "protime")
  stats::na.omit(pbc[c(vars, "sex")])
}

test_that("numbers stored as text stop every formula door, as the data.frame door; many levels warn (#45)", {
  skip_if_not_installed("survival")
  pbcc <- pbc2_data()
  pbcc$bili <- as.character(pbcc$bili)
  pbcc$chol <- format(pbcc$chol, big.mark = ",")
  te <- "fairproj_text_numbers_error"
  expect_error(fair_pca(~ ., data = pbcc, group = sex, k = 2, scale. = TRUE), class = te, regexp = "bili, chol")
  expect_error(fair_pca(~ ., data = pbcc, group = sex, k = 2, scale. = TRUE), regexp = "parse_number")
  expect_error(fair_css(~ ., data = pbcc, group = sex, k = 2, scale. = TRUE), class = te)
  expect_error(fair_kpca(~ ., data = pbcc, group = sex, k = 2, scale. = TRUE), class = te)
  expect_error(tune_fair_pca(~ ., data = pbcc, group = sex, k = 2, scale. = TRUE), class = te)
  expect_error(pareto_front(~ ., data = pbcc, group = sex, k = 2, scale. = TRUE), class = te)
  expect_error(fair_audit(~ ., data = pbcc, group = sex), class = te)
  # the data.frame door refuses them too, and now says why
  expect_error(fair_pca(pbcc[setdiff(names(pbcc), "sex")], pbcc$sex, k = 2), class = "fairproj_input_error",
               regexp = "numbers stored as text")
  # a factor column of numbers at the data.frame door: as.numeric() alone would give its codes
  pbcd <- pbc2_data()
  pbcd$chol <- factor(pbcd$chol)
  e <- expect_error(fair_pca(pbcd[setdiff(names(pbcd), "sex")], pbcd$sex, k = 2), class = "fairproj_input_error")
  expect_match(conditionMessage(e), "chol holds numbers stored as text: convert it with as.numeric(as.character())", fixed = TRUE)
  # the same values as factors (read.csv(stringsAsFactors = TRUE)): a warning naming the fix
  pbcf <- pbcc
  pbcf$chol <- factor(pbcf$chol)
  pbcf$bili <- as.numeric(pbcf$bili)
  iw <- "fairproj_indicators_warning"
  expect_warning(fair_pca(~ ., data = pbcf, group = sex, k = 2, scale. = TRUE, method = "standard"), class = iw,
                 regexp = "chol.*as.numeric\\(as.character\\(\\)\\)")
  # text that is not numbers but has more levels than the formula has columns: the other fix
  pbcf$chol <- paste0("id", seq_len(nrow(pbcf)))
  expect_warning(fair_pca(~ ., data = pbcf, group = sex, k = 2, scale. = TRUE, method = "standard"), class = iw,
                 regexp = "fct_lump")
  # a categorical column with a few levels, numbers or not, is a category: quiet
  pbcf$chol <- factor(sample(c("1", "2", "3"), nrow(pbcf), TRUE))
  pbcf$stage <- sample(c("low", "mid", "high"), nrow(pbcf), TRUE)
  n_iw <- 0L
  withCallingHandlers(fair_pca(~ ., data = pbcf, group = sex, k = 2, scale. = TRUE, method = "standard"),
                      warning = function(w) {
                        if (inherits(w, iw)) n_iw <<- n_iw + 1L
                        invokeRestart("muffleWarning")
                      })
  expect_identical(n_iw, 0L)
  expect_no_error(fair_pca(~ ., data = transform(mtcars, cyl = factor(cyl)), group = am, k = 2, scale. = TRUE))
})

test_that("what reads as numbers: readr's formats, not words or codes", {
  f <- fairproj:::fp_text_is_numbers
  expect_true(f(c("1.5", " 2", "-3e2", NA, "")))
  expect_true(f(c("1,234", "  12,345.6", "$1,000", "12%", "NA")))
  expect_true(f(factor(c("10", "20"))))
  expect_false(f(c("1.5", "a")))
  expect_false(f(c("1,5", "2,25")))          # a decimal comma is not read as a number
  expect_false(f(c(NA, "", "NA")))
  expect_false(f(c("a1", "b2")))
})

test_that("rows dropped for a missing group or features are said once, unless na.action is given (#45)", {
  d <- iris
  d$Species[c(3, 60, 130)] <- NA
  d$Sepal.Width[c(5, 60)] <- NA
  dm <- "fairproj_dropped_rows_message"
  expect_message(f <- fair_pca(~ ., data = d, group = Species, k = 2), class = dm,
                 regexp = "dropped 4 of 150 rows \\(3 with a missing group label and 1 with missing feature values\\)")
  expect_identical(nrow(f$x), 146L)
  n_messages <- function(expr) {
    n <- 0L
    withCallingHandlers(expr, message = function(m) {
      if (inherits(m, dm)) n <<- n + 1L
      invokeRestart("muffleMessage")
    })
    n
  }
  expect_identical(n_messages(fair_css(~ ., data = d, group = Species, k = 2)), 1L)
  expect_identical(n_messages(fair_kpca(~ ., data = d, group = Species, k = 2)), 1L)
  expect_identical(n_messages(tune_fair_pca(~ ., data = d, group = Species, k = 2, grid = list(alpha = 0.1, lambda = 0),
                                            iterations = 10, restarts = 0, folds = 2, seed = 1)), 1L)
  expect_identical(n_messages(fair_audit(~ ., data = d, group = Species, k = 1, methods = "standard",
                                         replicates = 0)), 1L)
  # the door records what it dropped (the audit's print reads it)
  fd <- fairproj:::fp_formula_data(~ ., d, quote(Species), environment())
  expect_identical(fd$dropped, list(total = 4L, group = 3L, features = 1L))
  expect_message(fairproj:::fp_formula_data(~ ., d, quote(Species), environment(), subset = 1:100),
                 class = dm, regexp = "dropped 3 of 100 rows \\(2 with a missing group label")
  # a chosen na.action is quiet; nothing dropped is quiet
  expect_identical(n_messages(fair_pca(~ ., data = d, group = Species, k = 2, na.action = na.omit)), 0L)
  expect_identical(n_messages(fair_pca(~ ., data = d, group = Species, k = 2, na.action = na.exclude)), 0L)
  expect_identical(n_messages(fair_pca(~ ., data = iris, group = Species, k = 2)), 0L)
  expect_error(fair_pca(~ ., data = d, group = Species, k = 2, na.action = na.fail))
})

test_that("an na.action that refuses missing values is a classed error naming `na.action`, not `formula`", {
  d <- data.frame(a = c(1, 2, NA, 4, 5, 6), b = c(2, 1, 4, 3, 6, 5), g = rep(c("u", "v"), 3))
  for (na in list(na.fail, "na.fail")) {
    e <- expect_error(fair_pca(~ a + b, data = d, group = g, k = 1, na.action = na),
                      "^`na\\.action` refused the 1 row\\(s\\) of 6 with missing values", class = "fairproj_input_error")
    expect_match(conditionMessage(e), "missing values in object", fixed = TRUE)  # na.fail's own message
  }
  expect_error(fair_css(~ a + b, data = d, group = g, k = 1, na.action = na.fail), "^`na\\.action` refused",
               class = "fairproj_input_error")
  # an na.action that fails for another reason is named too; a formula that cannot be evaluated is still `formula`
  boom <- function(object, ...) stop("not today")
  expect_error(fair_pca(~ a + b, data = d[-3, ], group = g, k = 1, na.action = boom),
               "^`na\\.action` failed on the model frame: not today", class = "fairproj_input_error")
  expect_error(fair_pca(~ a + log(zz), data = d, group = g, k = 1, na.action = na.fail), "^`formula` cannot be evaluated",
               class = "fairproj_input_error")
  # what na.omit and na.exclude drop is unchanged
  expect_identical(nobs(fair_pca(~ a + b, data = d, group = g, k = 1, na.action = na.omit)), 5L)
  expect_identical(nobs(fair_pca(~ a + b, data = d, group = g, k = 1, na.action = "na.exclude")), 5L)
  # R's option, when na.action is not given: named as the option
  withr::local_options(na.action = "na.fail")
  expect_error(fair_pca(~ a + b, data = d, group = g, k = 1), "^`na\\.action` \\(not given: the data's or R's option\\) refused the 1 row",
               class = "fairproj_input_error")
  withr::local_options(na.action = na.exclude)
  expect_message(f <- fair_pca(~ a + b, data = d, group = g, k = 1), class = "fairproj_dropped_rows_message")
  expect_identical(nrow(f$x), 6L)  # na.exclude pads the scores
  # the data's own na.action comes before the option, as in model.frame() (and lm())
  dd <- d[c("a", "b")]
  attr(dd, "na.action") <- "na.fail"
  expect_error(fair_pca(~ a + b, data = dd, group = d$g, k = 1), "^`na\\.action` \\(not given", class = "fairproj_input_error")
  expect_error(stats::model.frame(~ a + b, data = dd), "missing values")
})

test_that("a `formula` that is not a formula is a classed error naming it; one given after `data` works", {
  doors <- list(fair_pca, fair_css, fair_kpca, tune_fair_pca, pareto_front, fair_audit)
  for (door in doors) {
    expect_error(door(formula = NA, data = iris, group = "Species", k = 2), "^`formula` must be a formula",
                 class = "fairproj_input_error")
    expect_error(door(formula = "~ .", data = iris, group = "Species", k = 2), "^`formula` must be a formula",
                 class = "fairproj_input_error")
  }
  f1 <- fair_pca(data = iris, formula = ~ ., group = Species, k = 2, method = "standard")
  f2 <- fair_pca(~ ., data = iris, group = Species, k = 2, method = "standard")
  expect_equal(f1$rotation, f2$rotation)
  expect_identical(f1$call[["formula"]], quote(~ .))
  expect_identical(fair_css(data = iris, formula = ~ ., group = "Species", k = 2)$columns,
                   fair_css(~ ., data = iris, group = "Species", k = 2)$columns)
  pass <- function(...) fair_css(...)
  expect_error(pass(data = iris, formula = ~ ., group = "Species", k = 2), "^`formula` must be the first argument",
               class = "fairproj_input_error")
})

test_that("formula doors name `na.action`, `subset`, `data` or `formula` for what is wrong with each", {
  doors <- list(fair_pca, fair_css, fair_kpca, tune_fair_pca, pareto_front)
  for (door in c(doors, fair_audit)) {
    for (na in list(NA, "nonsense", 1)) {
      expect_error(door(~ ., data = iris, group = "Species", k = 2, na.action = na), "^`na\\.action` must be a function",
                   class = "fairproj_input_error")
    }
  }
  for (door in doors) {
    for (s in list(NA, 0, integer(0), FALSE)) {
      expect_error(door(~ ., data = iris, group = "Species", k = 2, subset = s), "^`subset` selects no rows",
                   class = "fairproj_input_error")
    }
    for (s in list("nonsense", list(1), factor("a"))) {
      expect_error(door(~ ., data = iris, group = "Species", k = 2, subset = s), "^`subset` must be a logical or numeric",
                   class = "fairproj_input_error")
    }
    expect_error(door(~ ., data = iris, group = "Species", k = 2, subset = nosuchvar > 1), "^`subset` cannot be evaluated",
                 class = "fairproj_input_error")
  }
  one <- data.frame(a = 1:10, b = rev(1:10) %% 3, g = rep(1:2, 5))
  for (door in list(fair_pca, tune_fair_pca, pareto_front, fair_audit)) {
    expect_error(door(~ ., data = one["a"], group = one$g, k = 1), "^`data` has 1 feature column; at least 2",
                 class = "fairproj_input_error")
    expect_error(door(~ ., data = one[c("a", "g")], group = g, k = 1), "^`data` has 1 feature column besides the group column",
                 class = "fairproj_input_error")
    expect_error(door(~ a, data = one, group = g, k = 1), "^`formula` selects 1 feature column; at least 2",
                 class = "fairproj_input_error")
  }
  expect_s3_class(fair_css(~ a, data = one, group = g, k = 1), "fair_css")
  expect_equal(nobs(fair_pca(~ ., data = iris, group = Species, k = 2, subset = 1:100, na.action = "na.omit")), 100L)
})

test_that("the formula doors refuse duplicated and empty column names they would read, naming `data`", {
  set.seed(36)
  df <- data.frame(a = rnorm(40), b = rnorm(40), c = rnorm(40), d = rnorm(40), s = rep(c("F", "M"), 20))
  dup <- df
  names(dup)[1:2] <- "a"  # model.frame() would read the first 'a' twice and drop 'b' unsaid
  for (door in list(function(f, data) fair_pca(f, data = data, group = s, k = 1, method = "mean"),
                    function(f, data) fair_css(f, data = data, group = s, k = 1))) {
    expect_error(door(~ ., dup), class = "fairproj_input_error", regexp = "^`data` has column name.*'a'")
    blank <- df
    names(blank)[1] <- ""  # was R's unclassed "undefined columns selected"
    expect_error(door(~ ., blank), class = "fairproj_input_error", regexp = "^`data` has 1 column\\(s\\) without a name")
  }
  # names the formula does not read stay allowed, and give the fit of the other columns
  ref <- fair_pca(~ c + d, data = df, group = s, k = 1, method = "mean")
  expect_equal(fair_pca(~ c + d, data = dup, group = s, k = 1, method = "mean")$rotation, ref$rotation)
  expect_equal(fair_pca(~ c + d, data = blank, group = s, k = 1, method = "mean")$rotation, ref$rotation)
  twice <- cbind(df, s = df$s)  # two group columns named 's'
  expect_error(fair_pca(~ a + b, data = twice, group = s, k = 1, method = "mean"),
               class = "fairproj_input_error", regexp = "^`data`.*'s'")
})

test_that("a formula door with no rows, or none left after na.action, names `data`", {
  df <- data.frame(a = rnorm(20), b = rnorm(20), c = rnorm(20), s = rep(c("F", "M"), 10))
  expect_error(fair_pca(~ ., data = df[0, ], group = s, k = 1), class = "fairproj_input_error", regexp = "^`data` has no rows")
  expect_error(fair_kpca(~ ., data = df[0, ], group = s, k = 1), class = "fairproj_input_error", regexp = "^`data` has no rows")
  df$a[] <- NA
  expect_error(suppressMessages(fair_css(~ ., data = df, group = s, k = 1)),
               class = "fairproj_input_error", regexp = "^`data` has no complete rows")
})

test_that("the formula doors take several attributes as a data.frame or list, as the default doors do", {
  set.seed(37)
  df <- data.frame(a = rnorm(48), b = rnorm(48), c = rnorm(48), d = rnorm(48), s = rep(c("F", "M"), 24))
  band <- rep(c("x", "y"), each = 24)
  ref <- fair_pca(df[1:4], data.frame(s = df$s, band), k = 1, method = "mean")
  fd <- fair_pca(~ a + b + c + d, data = df, group = data.frame(s, band), k = 1, method = "mean")
  expect_equal(fd$rotation, ref$rotation)
  expect_identical(fd$groups, ref$groups)
  fl <- fair_pca(~ a + b + c + d, data = df, group = list(s = s, band = band), k = 1, method = "mean")
  expect_equal(fl$rotation, ref$rotation)
  expect_equal(predict(fl, df[1:3, ]), predict(ref, df[1:3, 1:4]), ignore_attr = TRUE)
  # a missing label of one attribute drops its row through na.action, as a single group's would
  band_na <- replace(band, 5, NA)
  fn <- suppressMessages(fair_pca(~ a + b + c + d, data = df, group = data.frame(s, band_na), k = 1, method = "mean"))
  ref_na <- fair_pca(df[-5, 1:4], data.frame(s = df$s[-5], band_na = band[-5]), k = 1, method = "mean")
  expect_equal(fn$rotation, ref_na$rotation)
  expect_equal(sum(fn$groups$n), 47)
  expect_equal(fair_css(~ a + b + c + d, data = df, group = data.frame(s, band), k = 2)$columns,
               fair_css(df[1:4], data.frame(s = df$s, band), k = 2)$columns)
  # a list column of labels, or attributes of other lengths: errors naming `group`, not `formula`
  df$lst <- as.list(df$s)
  expect_error(fair_pca(~ a + b, data = df, group = lst, k = 1), class = "fairproj_input_error",
               regexp = "^`group` is a list of 48 single values")
  expect_error(fair_pca(~ a + b, data = df, group = list(s, band[-1]), k = 1), class = "fairproj_input_error",
               regexp = "^`group` is a list whose elements have lengths 48, 47")
})
