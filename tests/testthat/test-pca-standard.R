# Standard PCA (R/pca-standard.R), the baseline of every comparison: prcomp's components.

test_that("method 'standard' gives prcomp's components, sdev and scores (up to sign), with and without scaling", {
  dat <- make_groups(n = c(150, 110), d = 7, seed = 11)
  for (sc in c(FALSE, TRUE)) {
    fit <- fair_pca(dat$x, dat$g, k = 3, method = "standard", scale. = sc)
    pc <- stats::prcomp(dat$x, scale. = sc)
    expect_s3_class(fit, "fair_pca_standard")
    expect_lt(subspace_dist(fit$rotation, pc$rotation[, 1:3]), 1e-10)
    expect_equal(fit$sdev[1:3], pc$sdev[1:3], tolerance = 1e-10)
    signs <- sign(colSums(fit$rotation * pc$rotation[, 1:3]))
    expect_equal(unname(predict(fit, dat$x)), unname(sweep(pc$x[, 1:3], 2L, signs, `*`)), tolerance = 1e-9)
  }
})

test_that("method 'standard' from moments equals the fit from rows", {
  dat <- make_groups(n = c(90, 130), d = 6, seed = 12)
  a <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  b <- fair_pca(group_moments(dat$x, dat$g), k = 2, method = "standard")
  expect_equal(unname(b$rotation), unname(a$rotation), tolerance = 1e-12)
  expect_equal(b$group_stats$error, a$group_stats$error, tolerance = 1e-12)
})

test_that("the help topic fair_pca_standard exists", {
  expect_true(length(utils::help("fair_pca_standard", package = "fairproj")) == 1L)
})
