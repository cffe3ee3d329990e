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
  expect_equal(td$value[td$component == "PC1"], unname(fit$rotation[, 1]), tolerance = 1e-8)
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
  expect_equal(tn$name, "num_comp")
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
  expect_equal(generics::tunable(rec2$steps[[1]])$component, "step_fair_css")
})
