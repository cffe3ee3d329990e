test_that("step_fair_pca: prep/bake on new data equals predict of the same fit", {
  skip_if_not_installed("recipes")
  dat <- make_groups(n = c(80, 70), d = 5)
  df <- data.frame(dat$x, sex = dat$g, y = rep(c(0, 1), 75))
  train <- df[seq(1, 150, 2), ]
  test <- df[seq(2, 150, 2), ]
  rec <- recipes::recipe(y ~ ., data = train)
  rec <- step_fair_pca(rec, recipes::all_numeric_predictors(), group = sex, num_comp = 2)
  pr <- recipes::prep(rec, training = train)
  baked <- recipes::bake(pr, new_data = test)
  fit <- fair_pca(as.matrix(train[paste0("x", 1:5)]), train$sex, k = 2)
  ref <- predict(fit, as.matrix(test[paste0("x", 1:5)]))
  expect_equal(as.matrix(baked[c("FPC1", "FPC2")]), ref, ignore_attr = TRUE, tolerance = 1e-8)
  expect_true("sex" %in% names(baked))
  expect_false(any(paste0("x", 1:5) %in% names(baked)))
  # tidy: loadings after prep, the selectors before
  td <- recipes::tidy(pr, number = 1)
  expect_equal(nrow(td), 10L)
  expect_equal(td$value[td$component == "FPC1"], unname(fit$rotation[, 1]), tolerance = 1e-8)
  # the components are named as the baked columns, in a tibble
  expect_setequal(unique(td$component), grep("^FPC", names(baked), value = TRUE))
  if (requireNamespace("tibble", quietly = TRUE)) expect_s3_class(td, "tbl_df")
  expect_equal(nrow(recipes::tidy(rec, number = 1)), 1L)
  # drop the group, keep the originals, other method and options
  rec2 <- step_fair_pca(recipes::recipe(y ~ ., data = train), recipes::all_numeric_predictors(),
                        group = sex, num_comp = 3, method = "standard", options = list(scale. = TRUE),
                        keep_group = FALSE, keep_original_cols = TRUE)
  b2 <- recipes::bake(recipes::prep(rec2, training = train), new_data = test)
  expect_false("sex" %in% names(b2))
  expect_true(all(c(paste0("x", 1:5), "FPC1", "FPC3") %in% names(b2)))
  ref2 <- predict(fair_pca(as.matrix(train[paste0("x", 1:5)]), train$sex, k = 3, method = "standard",
                           scale. = TRUE), as.matrix(test[paste0("x", 1:5)]))
  expect_equal(as.matrix(b2[c("FPC1", "FPC2", "FPC3")]), ref2, ignore_attr = TRUE, tolerance = 1e-8)
  # tunable num_comp
  tn <- generics::tunable(rec2$steps[[1]])
  expect_equal(tn$name, c("num_comp", "method"))
  expect_true(all(tn$call_info[[2]]$values %in% fairproj_methods("pca")))
  expect_error(step_fair_pca(recipes::recipe(y ~ ., data = train), recipes::all_numeric_predictors()),
               class = "fairproj_input_error")
})

test_that("step_fair_css keeps the columns fair_css selects on the training set", {
  skip_if_not_installed("recipes")
  dat <- make_groups(n = c(80, 70), d = 6)
  df <- data.frame(dat$x, sex = dat$g, y = rep(c(0, 1), 75))
  train <- df[seq(1, 150, 2), ]
  test <- df[seq(2, 150, 2), ]
  rec <- step_fair_css(recipes::recipe(y ~ ., data = train), recipes::all_numeric_predictors(),
                       group = sex, num_comp = 2)
  pr <- recipes::prep(rec, training = train)
  fit <- fair_css(as.matrix(train[paste0("x", 1:6)]), train$sex, k = 2)
  baked <- recipes::bake(pr, new_data = test)
  expect_setequal(intersect(names(baked), paste0("x", 1:6)), fit$column_names)
  expect_equal(as.matrix(baked[fit$column_names]), predict(fit, as.matrix(test[paste0("x", 1:6)])),
               ignore_attr = TRUE)
  expect_true("sex" %in% names(baked))
  expect_equal(recipes::tidy(pr, number = 1)$terms, fit$column_names)
  rec2 <- step_fair_css(recipes::recipe(y ~ ., data = train), recipes::all_numeric_predictors(),
                        group = sex, num_comp = 3, keep_group = FALSE)
  b2 <- recipes::bake(recipes::prep(rec2, training = train), new_data = test)
  expect_false("sex" %in% names(b2))
  expect_equal(unique(generics::tunable(rec2$steps[[1]])$component), "step_fair_css")
})

test_that("the sensitive attribute is kept but is never a predictor by default", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  skip_if_not_installed("recipes")
  dat <- make_groups(n = c(80, 70), d = 5)
  df <- data.frame(dat$x, sex = dat$g, y = factor(rep(c("no", "yes"), 75)))
  rec <- step_fair_pca(recipes::recipe(y ~ ., data = df), recipes::all_numeric_predictors(), group = sex,
                       num_comp = 2)
  roles <- summary(recipes::prep(rec, training = df))
  expect_identical(roles$role[roles$variable == "sex"], "sensitive")
  expect_setequal(roles$variable[roles$role == "predictor"], c("FPC1", "FPC2"))
  expect_identical(roles$role[roles$variable == "y"], "outcome")
  baked <- recipes::bake(recipes::prep(rec, training = df), new_data = df)
  expect_identical(baked$sex, df$sex)
  # the predictors a model receives
  pred <- recipes::bake(recipes::prep(rec, training = df), new_data = df, recipes::all_predictors())
  expect_setequal(names(pred), c("FPC1", "FPC2"))
  # a role the user chose is kept; an outcome stays an outcome
  rec_own <- recipes::update_role(recipes::recipe(y ~ ., data = df), sex, new_role = "protected")
  r2 <- summary(recipes::prep(step_fair_pca(rec_own, recipes::all_numeric_predictors(), group = sex), df))
  expect_identical(r2$role[r2$variable == "sex"], "protected")
  r3 <- summary(recipes::prep(step_fair_pca(recipes::recipe(sex ~ ., data = df[names(df) != "y"]),
                                            recipes::all_numeric_predictors(), group = sex), df))
  expect_identical(r3$role[r3$variable == "sex"], "outcome")
  # asking for it as a predictor is possible, and explicit
  r4 <- summary(recipes::prep(step_fair_pca(recipes::recipe(y ~ ., data = df), recipes::all_numeric_predictors(),
                                            group = sex, group_role = "predictor"), df))
  expect_identical(r4$role[r4$variable == "sex"], "predictor")
  # the CSS step too
  r5 <- summary(recipes::prep(step_fair_css(recipes::recipe(y ~ ., data = df), recipes::all_numeric_predictors(),
                                            group = sex, num_comp = 2), df))
  expect_identical(r5$role[r5$variable == "sex"], "sensitive")
  expect_error(step_fair_pca(recipes::recipe(y ~ ., data = df), recipes::all_numeric_predictors(), group = sex,
                             group_role = NA), class = "fairproj_input_error")
})

test_that("a derived group column that is a predictor stops prep() unless dropped", {
  skip_if_not_installed("recipes")
  dat <- make_groups(n = c(80, 70), d = 4)
  df <- data.frame(dat$x, y = rep(c(0, 1), 75), s = as.integer(dat$g))
  rec <- recipes::recipe(y ~ ., data = df) |>
    recipes::step_mutate(grp = factor(s)) |>
    recipes::step_rm(s)
  bad <- step_fair_pca(rec, recipes::all_numeric_predictors(), group = grp)
  expect_error(recipes::prep(bad, training = df), class = "fairproj_input_error")
  ok <- step_fair_pca(rec, recipes::all_numeric_predictors(), group = grp, keep_group = FALSE)
  expect_false("grp" %in% names(recipes::bake(recipes::prep(ok, training = df), new_data = NULL)))
})

test_that("num_comp behaves as step_pca's: capped at the columns, 0 does nothing", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  skip_if_not_installed("recipes")
  dat <- make_groups(n = c(80, 70), d = 4)
  df <- data.frame(dat$x, sex = dat$g, y = rep(c(0, 1), 75))
  big <- recipes::prep(step_fair_pca(recipes::recipe(y ~ ., data = df), recipes::all_numeric_predictors(),
                                     group = sex, num_comp = 10, method = "standard"), df)
  expect_equal(big$steps[[1]]$num_comp, 4L)
  expect_setequal(grep("^FPC", names(recipes::bake(big, NULL)), value = TRUE), paste0("FPC", 1:4))
  ref <- recipes::prep(recipes::step_pca(recipes::recipe(y ~ ., data = df), recipes::all_numeric_predictors(),
                                         num_comp = 10), df)
  expect_equal(ref$steps[[1]]$num_comp, big$steps[[1]]$num_comp)
  zero <- recipes::prep(step_fair_pca(recipes::recipe(y ~ ., data = df), recipes::all_numeric_predictors(),
                                      group = sex, num_comp = 0), df)
  expect_identical(names(recipes::bake(zero, NULL)), names(recipes::bake(recipes::prep(recipes::recipe(y ~ ., df)), NULL)))
  expect_equal(nrow(recipes::tidy(zero, 1)), 4L)
  # an error of the method names the step's argument, not fair_pca()'s `k`
  e <- expect_error(recipes::prep(step_fair_pca(recipes::recipe(y ~ ., data = df), recipes::all_numeric_predictors(),
                                                group = sex, num_comp = 4, method = "robust"), df),
                    class = "fairproj_input_error")
  expect_match(conditionMessage(e), "`num_comp` must")
  expect_no_match(conditionMessage(e), "`k`")
  expect_error(recipes::prep(step_fair_pca(recipes::recipe(y ~ ., data = df), recipes::all_numeric_predictors(),
                                           group = sex, num_comp = -1), df), class = "fairproj_input_error")
  # CSS caps too (k = d itself may be undefined for the method: then the error names num_comp)
  css <- tryCatch(recipes::prep(step_fair_css(recipes::recipe(y ~ ., data = df), recipes::all_numeric_predictors(),
                                              group = sex, num_comp = 9), df),
                  error = function(e) e)
  if (inherits(css, "error")) expect_match(conditionMessage(css), "`num_comp`") else
    expect_equal(css$steps[[1]]$num_comp, 4L)
})

test_that("step_fair_pca and step_fair_css warn at prep() on columns in different units, unless scale. is given (#45)", {
  skip_if_not_installed("recipes")
  skip_if_not_installed("survival")
  data("pbc", package = "survival", envir = environment())
  vars <- c("age", "bili", "chol", "albumin", "copper", "alk.phos", "ast", "trig", "platelet", "protime")
  pbc2 <- stats::na.omit(pbc[c(vars, "sex", "status")])
  u <- "fairproj_units_warning"
  rec <- recipes::recipe(status ~ ., data = pbc2)
  st <- step_fair_pca(rec, recipes::all_numeric_predictors(), group = sex, num_comp = 2, method = "standard")
  expect_warning(recipes::prep(st, training = pbc2), class = u, regexp = "alk.phos.*step_normalize")
  sc <- step_fair_css(rec, recipes::all_numeric_predictors(), group = sex, num_comp = 2)
  expect_warning(recipes::prep(sc, training = pbc2), class = u)
  # a choice silences it: scale. in options, either way
  for (s in c(TRUE, FALSE)) {
    st2 <- step_fair_pca(rec, recipes::all_numeric_predictors(), group = sex, num_comp = 2, method = "standard",
                         options = list(scale. = s))
    expect_no_warning(recipes::prep(st2, training = pbc2))
  }
  # and the fit is the one of scale. = FALSE
  p <- suppressWarnings(recipes::prep(st, training = pbc2))
  ref <- fair_pca(as.matrix(pbc2[vars]), pbc2$sex, k = 2, method = "standard", scale. = FALSE)
  expect_equal(p$steps[[1]]$res$rotation, ref$rotation)
})

test_that("a min-max map of rank above num_comp gives a score column per dimension of its range", {
  skip_if_not_installed("recipes")
  set.seed(2)
  n <- 100
  A <- cbind(rnorm(n, sd = 3), rnorm(n, sd = 1), rnorm(n, sd = 0.3))
  B <- cbind(rnorm(n, sd = 1), rnorm(n, sd = 3), rnorm(n, sd = 0.3))
  X <- stats::setNames(as.data.frame(rbind(A, B)), c("a", "b", "c"))
  X$g <- factor(rep(c("A", "B"), each = n))
  rec <- step_fair_pca(recipes::recipe(~ ., data = X), a, b, c, group = g, num_comp = 1, method = "minmax",
                       options = list(lp = TRUE, solver = "mw"))
  p <- suppressWarnings(recipes::prep(rec, X))
  fit <- p$steps[[1]]$res
  r <- ncol(fit$rotation)
  expect_gt(r, 1L)
  out <- recipes::bake(p, X[1:5, ])
  expect_identical(grep("^FPC", names(out), value = TRUE), paste0("FPC", seq_len(r)))
  expect_equal(unname(as.matrix(out[paste0("FPC", seq_len(r))])), unname(predict(fit, X[1:5, 1:3])), tolerance = 1e-12)
})

# training data without rows reach the units check before the fit: its only condition is the
# fit's classed error, no base-R warning from max() of no values
test_that("step_fair_pca and step_fair_css on training data without rows: one classed error, no warning", {
  skip_if_not_installed("recipes")
  dat <- make_groups(n = c(20, 20), d = 4)
  df <- data.frame(dat$x, sex = dat$g)[0, ]
  for (step in list(step_fair_pca, step_fair_css)) {
    rec <- step(recipes::recipe(~ ., data = df), recipes::all_numeric_predictors(), group = sex)
    expect_no_warning(expect_error(recipes::prep(rec, training = df), class = "fairproj_input_error"))
  }
})
