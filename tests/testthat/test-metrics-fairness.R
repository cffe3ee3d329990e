test_that("the KS distance between groups is computed over all thresholds", {
  ks <- asNamespace("fairproj")$fp_ks_groups
  expect_equal(ks(c(1, 2, 3, 4), c(0, 0, 1, 1)), 1)
  expect_equal(ks(c(1, 2, 1, 2), c(0, 0, 1, 1)), 0)
  expect_equal(ks(c(1, 3, 2, 4), c(0, 0, 1, 1)), 0.5)
})

test_that("delta_f_lin is near 1 when the projection keeps the group signal and small when not", {
  skip_if_not_installed("e1071")
  set.seed(31)
  n <- 300
  g <- rep(0:1, each = n / 2)
  x <- cbind(a = rnorm(n, sd = 5), b = rnorm(n, sd = 4), c = 0.3 * rnorm(n) + 2 * g)
  keep <- fair_pca(x, g, k = 3, method = "standard")   # keeps everything, including the group shift in c
  drop <- fair_pca(x, g, k = 2, method = "standard")   # the top-2 components are a and b: no group signal
  hi <- delta_f_lin(keep, x, g, cost = c(0.01, 1), folds = 3, seed = 1)
  lo <- delta_f_lin(drop, x, g, cost = c(0.01, 1), folds = 3, seed = 1)
  expect_gt(hi, 0.9)
  expect_lt(lo, 0.3)
  expect_true(attr(hi, "cost") %in% c(0.01, 1))
  expect_equal(nrow(attr(hi, "cv")), 2L)
  expect_error(delta_f_lin(keep, x, rep(1:3, 100)), class = "fairproj_input_error", regexp = "`group`")
  expect_error(delta_f_lin(keep, x, g, cost = -1), class = "fairproj_input_error", regexp = "`cost`")
})
