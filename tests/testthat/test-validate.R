test_that("bad inputs give classed errors naming the argument", {
  dat <- make_groups()
  x <- dat$x
  g <- dat$g
  err <- function(expr, pattern) expect_error(expr, pattern, class = "fairproj_input_error")
  x_na <- x; x_na[3, 2] <- NA
  err(fair_pca(x_na, g, k = 2, method = "standard"), "`x` contains 1 missing")
  x_nan <- x; x_nan[1, 1] <- NaN
  err(fair_pca(x_nan, g, k = 2, method = "standard"), "`x` contains 1 missing")
  x_inf <- x; x_inf[5, 1] <- Inf
  err(fair_pca(x_inf, g, k = 2, method = "standard"), "`x` contains 1 infinite")
  err(fair_pca(x[, 1, drop = FALSE], g, k = 1, method = "standard"), "`x` must have at least 2 columns")
  err(fair_pca(x[, 1], g, k = 1, method = "standard"), "`x` must be a matrix")
  err(fair_pca(letters, g, k = 1, method = "standard"), "`x`")
  df <- as.data.frame(x); df$s <- "a"
  err(fair_pca(df, g, k = 2, method = "standard"), "`x` has non-numeric column")
  err(fair_pca(x, g[-1], k = 2, method = "standard"), "`group` has length")
  g_na <- g; g_na[4] <- NA
  err(fair_pca(x, g_na, k = 2, method = "standard"), "`group` contains 1 missing")
  err(fair_pca(x, rep("a", nrow(x)), k = 2), "`group` must have at least 2 groups")
  err(fair_pca(x, rnorm(nrow(x)), k = 2), "`group` is numeric with non-integer")
  err(fair_pca(x, g, method = "standard"), "`k` is missing")
  err(fair_pca(x, g, k = 0, method = "standard"), "`k` must be between 1 and 6")
  err(fair_pca(x, g, k = 7, method = "standard"), "`k` must be between 1 and 6")
  err(fair_pca(x, g, k = 1.5, method = "standard"), "`k` must be a single whole number")
  err(fair_pca(x, g, k = NA, method = "standard"), "`k` must be a single whole number")
  err(fair_pca(x, g, k = c(1, 2)), "`k` must be a single whole number")
  x_const <- x; x_const[, 3] <- 5
  err(fair_pca(x_const, g, k = 2, scale. = TRUE, method = "standard"), "`scale.` = TRUE cannot rescale constant")
  err(fair_pca(x, g, k = 2, center = 1:2, method = "standard"), "`center` must be")
  err(fair_pca(x, g, k = 2, method = "nope"), "`method` 'nope' is not available")
  err(fair_pca(x, g, k = 2, bogus = 1, method = "standard"), "does not take: bogus")
  err(group_moments(x, g, block = 0), "`block`")
})

test_that("groups of every supported type are accepted", {
  dat <- make_groups()
  ref <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  for (g in list(as.character(dat$g), as.integer(dat$g), dat$g == "a")) {
    f <- fair_pca(dat$x, g, k = 2, method = "standard")
    expect_equal(f$rotation, ref$rotation, ignore_attr = TRUE, tolerance = 1e-10)
  }
  # a constant column is fine without scaling (it has zero variance and carries no error)
  x <- dat$x; x[, 2] <- 3
  expect_silent(fair_pca(x, dat$g, k = 2, method = "standard"))
  # duplicate columns are fine: the covariance is singular, PCA is still defined
  x <- cbind(dat$x, dat$x[, 1])
  f <- fair_pca(x, dat$g, k = 3, method = "standard")
  expect_equal(crossprod(f$rotation), diag(3), tolerance = 1e-10, ignore_attr = TRUE)
})
