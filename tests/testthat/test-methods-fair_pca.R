test_that("print, summary, predict, reconstruct, as.prcomp, biplot and plot work", {
  dat <- make_groups(n = c(100, 80), d = 5)
  f <- fair_pca(dat$x, dat$g, k = 2, scale. = TRUE, method = "standard")
  expect_output(print(f), "Per-group")
  s <- summary(f)
  expect_s3_class(s, "summary.fair_pca")
  expect_equal(dim(s$importance), c(3L, 2L))
  expect_output(print(s), "Fairness summary")
  p <- prcomp(dat$x, scale. = TRUE)
  sc <- predict(f, dat$x[1:10, ])
  expect_equal(abs(unname(sc)), abs(unname(predict(p, dat$x[1:10, ])[, 1:2])), tolerance = 1e-8)
  expect_equal(predict(f), f$x)
  # newdata columns matched by name
  expect_equal(predict(f, as.data.frame(dat$x[1:10, 5:1])), sc)
  expect_error(predict(f, dat$x[, 1:3]), class = "fairproj_input_error")
  r <- reconstruct(f, dat$x[1:10, ])
  ref <- sweep(sweep((predict(p, dat$x[1:10, ])[, 1:2] %*% t(p$rotation[, 1:2])), 2, p$scale, `*`), 2, p$center, `+`)
  expect_equal(unname(r), unname(ref), tolerance = 1e-8)
  # reconstruction of the reconstruction is itself (a projection)
  expect_equal(reconstruct(f, r), r, tolerance = 1e-8)
  ap <- as.prcomp(f)
  expect_s3_class(ap, "prcomp")
  # the true fractions of the total variance, as summary(f)
  expect_equal(unname(summary(ap)$importance[2, 1:2]), unname(s$importance[2, ]), tolerance = 1e-4)
  expect_equal(sum(ap$sdev^2), f$totalvar, tolerance = 1e-10)
  pdf(NULL)
  on.exit(dev.off())
  expect_silent(biplot(f))
  expect_message(tab <- plot(f, "errors", kmax = 4), "Refitting")
  expect_equal(nrow(tab), 8L)  # standard PCA: one fit, 4 k x 2 groups
  expect_message(plot(f, "loss", kmax = 3), "k = 1, 3")
  expect_silent(plot(f, "scree"))
  expect_error(plot(f, "convergence"), class = "fairproj_input_error")
})

test_that("group_errors reproduces group_stats on the training data and gives ABDiff/ARE", {
  dat <- make_groups(n = c(100, 80), d = 5)
  f <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  ge <- group_errors(f, dat$x, dat$g)
  expect_equal(ge$table, f$group_stats, tolerance = 1e-10)
  expect_equal(ge$ABDiff, abs(diff(f$group_stats$error)))
  # ARE: plain reconstruction error about the model centre, over all rows
  r <- reconstruct(f, dat$x)
  expect_equal(ge$ARE, sum((dat$x - r)^2) / nrow(dat$x), tolerance = 1e-10)
  gm <- group_errors(f, dat$x, dat$g, center = "model")
  expect_equal(sum(gm$table$error * gm$table$n) / sum(gm$table$n), ge$ARE, tolerance = 1e-10)
  expect_output(print(ge), "ABDiff")
  expect_error(group_errors(list(), dat$x, dat$g), class = "fairproj_input_error")
})

test_that("plot shows only the fitted k when the method cannot be refitted from moments", {
  dat <- make_groups(n = c(100, 80), d = 5)
  f <- fair_pca(dat$x, dat$g, k = 2, method = "inlp")
  pdf(NULL)
  on.exit(dev.off())
  expect_message(tab <- plot(f, "errors", kmax = 4), "Refitting")
  expect_equal(unique(tab$k), 2L)
})

test_that("as.prcomp reports the true fractions of variance", {
  dat <- make_groups(n = c(80, 70), d = 6)
  for (meth in c("standard", "minmax")) {
    f <- fair_pca(dat$x, dat$g, k = 2, method = meth)
    p <- as.prcomp(f)
    expect_s3_class(p, "prcomp")
    expect_equal(sum(p$sdev^2), f$totalvar, tolerance = 1e-10)
    imp <- summary(p)$importance
    expect_equal(unname(imp["Proportion of Variance", 1:2]),
                 unname(round(summary(f)$importance["Proportion of Variance", ], 5)))
    # without the moments the rest is one number
    f2 <- fair_pca(dat$x, dat$g, k = 2, method = meth, keep_moments = FALSE)
    expect_equal(sum(as.prcomp(f2)$sdev^2), f$totalvar, tolerance = 1e-10)
  }
  # for standard PCA the padding is prcomp's own spectrum
  f <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  expect_equal(as.prcomp(f)$sdev, stats::prcomp(dat$x)$sdev, tolerance = 1e-8)
})

test_that("factoextra reports the same percentages as summary()", {
  skip_if_not_installed("factoextra")
  dat <- make_groups(n = c(80, 70), d = 6)
  f <- fair_pca(dat$x, dat$g, k = 2)
  eig <- factoextra::get_eigenvalue(as.prcomp(f))
  expect_equal(unname(eig[1:2, "variance.percent"]),
               unname(100 * summary(f)$importance["Proportion of Variance", ]), tolerance = 1e-8)
})

test_that("coef, loadings, fitted, residuals and nobs", {
  dat <- make_groups(n = c(80, 70), d = 5)
  f <- fair_pca(dat$x, dat$g, k = 2)
  expect_identical(coef(f), f$rotation)
  expect_s3_class(loadings(f), "loadings")
  expect_equal(unclass(loadings(f)), f$rotation, ignore_attr = TRUE)
  expect_identical(nobs(f), 150L)
  expect_equal(fitted(f), reconstruct(f, dat$x), tolerance = 1e-10)
  r <- residuals(f, dat$x)
  expect_equal(r + fitted(f), dat$x, tolerance = 1e-10, ignore_attr = TRUE)
  expect_error(residuals(f), class = "fairproj_input_error")
  # a minmax fit whose output is a linear map of higher rank
  three <- make_groups(n = c(60, 50, 40), d = 5, seed = 7)
  fm <- fair_pca(three$x, three$g, k = 1)
  expect_equal(fitted(fm), reconstruct(fm, three$x), tolerance = 1e-8)
})

test_that("print says what the method optimises and whether it is a projection", {
  dat <- make_groups(n = c(80, 70), d = 5)
  expect_output(print(fair_pca(dat$x, dat$g, k = 2)), "largest group marginal loss.*rank-2 orthogonal projection")
  expect_output(print(fair_pca(dat$x, dat$g, k = 2, method = "standard")), "ordinary PCA")
})

test_that("base plots: scores by group, refit message, biplot without labels for many rows", {
  dat <- make_groups(n = c(300, 250), d = 5)
  f <- fair_pca(dat$x, dat$g, k = 2)
  pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  sc <- plot(f, "scores")
  expect_equal(levels(sc$group), levels(dat$g))
  expect_equal(nrow(sc), 550L)
  expect_message(plot(f, "errors", kmax = 3), "Refitting method \"minmax\" for k = 1, 3")
  expect_silent(biplot(f))
  expect_error(plot(f, "scores", choices = c(1, 3)), class = "fairproj_input_error")
})

test_that("as.prcomp: sdev decreases, sums to the total variance, and the padding is labelled", {
  dat <- make_groups(n = c(80, 70), d = 6)
  for (meth in c("minmax", "mean", "standard")) {
    f <- fair_pca(dat$x, dat$g, k = 2, method = meth)
    p <- as.prcomp(f)
    expect_true(all(diff(p$sdev) <= 1e-12 * p$sdev[1]), info = meth)
    expect_equal(p$sdev[1:2], f$sdev)
    expect_equal(sum(p$sdev^2), f$totalvar, tolerance = 1e-10)
    expect_identical(p$fitted_components, 2L)
    # the true spectrum of what the fit leaves out
    Q <- diag(6) - tcrossprod(f$rotation)
    C <- stats::cov(dat$x)
    ev <- eigen(Q %*% C %*% Q, symmetric = TRUE)$values[1:4]
    expect_equal(p$residual_sdev, sqrt(pmax(ev, 0)), tolerance = 1e-6)
  }
  # iris: min-max leaves out more variance than two entries under its second component's
  # variance hold: the padding is flat (see test-exits.R), and the proportions stay true
  f <- fair_pca(iris[, 1:4], iris$Species, k = 2)
  p <- as.prcomp(f)
  expect_gt(p$residual_sdev[1], f$sdev[2])
  expect_length(p$sdev, 4L)
  expect_equal(p$sdev[3], p$sdev[4])
  expect_equal(sum(p$sdev^2), f$totalvar, tolerance = 1e-10)
  skip_if_not_installed("factoextra")
  eig <- factoextra::get_eigenvalue(p)
  expect_equal(eig$variance.percent[1:2], 100 * f$sdev^2 / f$totalvar)
  expect_equal(eig$cumulative.variance.percent[nrow(eig)], 100)
})
