test_that("print, summary, predict, reconstruct, as.prcomp, biplot and plot work", {
  dat <- make_groups(n = c(100, 80), d = 5)
  f <- fair_pca(dat$x, dat$g, k = 2, scale. = TRUE, method = "standard")
  expect_output(print(f), "Per-group")
  s <- summary(f)
  expect_s3_class(s, "summary.fair_pca")
  expect_equal(dim(s$importance), c(3L, 2L))
  expect_output(print(s), "Fairness summary")
  # a standard fit is its own baseline: one row, not the same twice; a fair fit has both
  expect_identical(s$fairness$fit, "standard")
  expect_identical(summary(fair_pca(dat$x, dat$g, k = 2, scale. = TRUE, method = "mean"))$fairness$fit,
                   c("mean", "standard"))
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
  # a group of one row has error 0 about its own mean: said, not shown as a fair result
  g1 <- factor(c(rep("a", 179), "b"))
  expect_warning(ge1 <- group_errors(f, dat$x, g1), class = "fairproj_small_group_warning",
                 regexp = "'b' \\(1\\)")
  expect_identical(ge1$table$error[2], 0)
  expect_no_warning(group_errors(f, dat$x, g1, center = "model"))
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
    # without the moments the left-out directions are unknown: no entries for them, and a warning
    f2 <- fair_pca(dat$x, dat$g, k = 2, method = meth, keep_moments = FALSE)
    expect_warning(p2 <- as.prcomp(f2), class = "fairproj_prcomp_warning")
    expect_identical(p2$sdev, f2$sdev)
  }
  # for standard PCA the left-out spectrum is prcomp's own
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

test_that("as.prcomp: each sdev is the spread along its own orthogonal direction, and they sum to the total", {
  # d = 10, k = 3: the case of #45, whose sdev used to end in six equal padded entries
  for (d in c(6L, 10L)) {
    dat <- make_groups(n = c(80, 70), d = d)
    for (meth in c("minmax", "mean", "standard")) {
      for (sc in c(FALSE, TRUE)) {
        f <- fair_pca(dat$x, dat$g, k = 3, method = meth, scale. = sc)
        p <- as.prcomp(f)
        info <- sprintf("d = %d, %s, scale. = %s", d, meth, sc)
        # prcomp(rank. = k): every sdev, k columns of rotation and scores
        expect_length(p$sdev, d)
        expect_identical(dim(p$rotation), c(d, 3L), info = info)
        expect_identical(dim(p$x), c(nrow(dat$x), 3L), info = info)
        expect_identical(p$fitted_components, 3L)
        expect_equal(p$sdev[1:3], f$sdev, info = info)
        expect_equal(sum(p$sdev^2), f$totalvar, tolerance = 1e-10, info = info)
        # the k components and the left-out directions: d orthonormal directions
        W <- cbind(p$rotation, p$residual_rotation)
        expect_equal(unname(crossprod(W)), diag(d), tolerance = 1e-10, info = info)
        # each entry is the variance of the data along its direction, from the rows
        z <- scale(dat$x, center = TRUE, scale = sc)
        expect_equal(unname(apply(z %*% W, 2L, stats::var)), p$sdev^2, tolerance = 1e-8, info = info)
        # the left-out directions are the principal directions of what the fit leaves out:
        # uncorrelated, largest first
        cr <- stats::cov(z %*% p$residual_rotation)
        expect_equal(unname(cr), diag(diag(cr), d - 3L), tolerance = 1e-8 * max(diag(cr)), info = info)
        expect_true(all(diff(p$sdev[-(1:3)]) <= 1e-12 * p$sdev[1]), info = info)
      }
    }
  }
  # iris: min-max leaves out a direction of more variance than its second component's; sdev
  # says so rather than hiding it, and the proportions stay true
  f <- fair_pca(iris[, 1:4], iris$Species, k = 2)
  p <- as.prcomp(f)
  expect_gt(p$sdev[3], f$sdev[2])
  expect_equal(sum(p$sdev^2), f$totalvar, tolerance = 1e-10)
  imp <- summary(p)$importance
  expect_equal(unname(imp["Proportion of Variance", 1:2]), round(f$sdev^2 / f$totalvar, 5))
  # without the moments the left-out directions are unknown: only the k components, and a warning
  f0 <- fair_pca(iris[, 1:4], iris$Species, k = 2, keep_moments = FALSE)
  expect_warning(p0 <- as.prcomp(f0), class = "fairproj_prcomp_warning")
  expect_identical(p0$sdev, f0$sdev)
  # k = d: nothing left out
  p4 <- as.prcomp(fair_pca(iris[, 1:4], iris$Species, k = 4, method = "standard"))
  expect_length(p4$sdev, 4L)
  expect_identical(ncol(p4$residual_rotation), 0L)
  skip_if_not_installed("factoextra")
  eig <- factoextra::get_eigenvalue(p)
  expect_equal(eig$variance.percent[1:2], 100 * f$sdev^2 / f$totalvar)
  expect_equal(eig$cumulative.variance.percent[nrow(eig)], 100)
})

test_that("predict(), reconstruct(), fitted() and residuals() refuse a misspelt newdata instead of ignoring it", {
  X <- as.matrix(iris[1:4])
  G <- iris$Species
  for (m in c("minmax", "standard", "mean")) {
    f <- fair_pca(X, G, 2, method = m)
    for (fun in list(predict, reconstruct, fitted, residuals)) {
      e <- expect_error(fun(f, new_data = X[1:5, ]), "^`\\.\\.\\.` has argument\\(s\\) that .* does not take: new_data",
                        class = "fairproj_input_error")
      expect_match(conditionMessage(e), "for `new_data` give `newdata`", fixed = TRUE)
    }
    expect_error(predict(f, X[1:5, ], 3), "\\(unnamed\\)", class = "fairproj_input_error")
    expect_identical(dim(predict(f, X[1:5, ])), c(5L, 2L))
    expect_identical(dim(predict(f, newdata = X[1:5, ])), c(5L, 2L))
    expect_identical(dim(fitted(f, newdata = X[1:5, ])), c(5L, 4L))
  }
})

test_that("biplot: a legend of five long group names leaves the panel 40% of a 5 x 4 in device", {
  lev <- c("White", "Black or African American", "American Indian or Alaska Native", "Asian",
           "Other Pacific Islander")
  dat <- make_groups(n = rep(40, 5), d = 5)
  f <- fair_pca(dat$x, factor(rep(lev, length.out = nrow(dat$x))), k = 2)
  rec <- new.env()
  suppressMessages(trace(graphics::legend, tracer = bquote(assign("pin", graphics::par("pin"), .(rec))),
                         print = FALSE, where = asNamespace("graphics")))
  on.exit(suppressMessages(untrace(graphics::legend, where = asNamespace("graphics"))), add = TRUE)
  grDevices::pdf(NULL, width = 5, height = 4)
  biplot(f)
  grDevices::dev.off()
  expect_gte(rec$pin[2], 0.4 * 4)
})

test_that("print() describes every method of fair_pca() in its own words", {
  V <- diag(3)[, 1:2]
  for (m in fairproj_methods("pca")) {
    line <- fairproj:::fp_method_line(list(method = m, rotation = V, k = 2L))
    expect_false(startsWith(line, "Method \""), info = m)  # the fallback for a method it does not know
    expect_match(line, "rank-2 orthogonal projection", info = m)
  }
})
