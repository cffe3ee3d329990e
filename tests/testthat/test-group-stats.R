# Per-group diagnostics (R/group-stats.R): the loss error - best of a fit and of group_errors().

# k at the data's rank (a duplicated column): error and best are both about 0 and their rounding
# (about d eps of the total variance) can cross; seeds 3 and 4 gave losses near -1e-16 in both the
# fit's group_stats and group_errors()
test_that("losses at k equal to the data's rank are never below 0", {
  for (s in 3:4) {
    set.seed(s)
    x <- matrix(rnorm(200 * 5), 200)
    x[, 2] <- x[, 1]
    g <- rep(c("a", "b"), 100)
    fit <- fair_pca(x, g, 4, method = "standard")
    expect_true(all(fit$group_stats$loss >= 0))
    expect_true(all(fit$group_stats_standard$loss >= 0))
    ge <- group_errors(fit, x, g)
    expect_true(all(ge$table$loss >= 0))
    expect_gte(ge$max_loss, 0)
    rows <- fair_pca(x, g, 4, method = "standard", route = "rows")
    expect_true(all(rows$group_stats$loss >= 0))
  }
})

# only a negative within rounding of the magnitudes is clamped: a larger one (a map of rank above
# k, or a defect) is reported as computed, and NA stays NA
test_that("fp_group_loss() clamps rounding only", {
  tot <- c(2, 2, 2, 2)
  err <- c(1e-31, 0.5, 1, NA)
  best <- c(2e-16, 1, 1 - 1e-3, 1)
  expect_identical(fp_group_loss(err, best, tot, 5), c(0, -0.5, 1 - (1 - 1e-3), NA))
  expect_lt(fp_group_loss(0, 1e-10, 1, 5), 0)
})
