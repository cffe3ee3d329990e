# make test-tidymodels: fairproj's recipe steps inside a parsnip/workflows model fit. parsnip
# and workflows are not dependencies of fairproj (CRAN-only here, and they need newer tidyverse
# foundations than some systems ship), so this runs outside R CMD check, with them installed in a
# private library by the make target.
library(testthat)
library(fairproj)

test_that("a workflow with a model uses the fair components and not the attribute", {
  set.seed(1)
  n <- 150
  x <- matrix(rnorm(n * 5), n) %*% diag(c(3, 2, 1.5, 1, 0.5))
  sex <- factor(rep(c("F", "M"), c(80, 70)))
  x[sex == "M", 1:2] <- x[sex == "M", 1:2] + 1
  df <- data.frame(x, sex = sex, y = factor(rep(c("no", "yes"), 75)))
  rec <- step_fair_pca(recipes::recipe(y ~ ., data = df), recipes::all_numeric_predictors(),
                       group = sex, num_comp = 2)
  expect_equal(summary(recipes::prep(rec))$role[summary(recipes::prep(rec))$variable == "sex"],
               "sensitive")
  wf <- workflows::add_model(workflows::add_recipe(workflows::workflow(), rec), parsnip::logistic_reg())
  fitted_wf <- parsnip::fit(wf, data = df)
  terms <- names(stats::coef(workflows::extract_fit_engine(fitted_wf)))
  expect_setequal(terms, c("(Intercept)", "FPC1", "FPC2"))
  expect_equal(nrow(stats::predict(fitted_wf, new_data = df)), nrow(df))
})
