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

test_that("tidy, glance and augment have the broom shapes", {
  dat <- make_groups(n = c(80, 70), d = 5)
  f <- fair_pca(dat$x, dat$g, k = 2)
  td <- tidy(f)
  expect_named(td, c("column", "PC", "value"))
  expect_equal(nrow(td), 10L)
  expect_equal(td$value[td$PC == 2], unname(f$rotation[, 2]))
  ev <- tidy(f, "eigenvalues")
  expect_equal(ev$percent, f$sdev^2 / f$totalvar)
  expect_equal(nrow(tidy(f, "groups")), 2L)
  expect_equal(nrow(tidy(f, "scores")), 2L * 150L)
  expect_error(tidy(f, "nonsense"), class = "fairproj_input_error")
  gl <- glance(f)
  expect_equal(nrow(gl), 1L)
  expect_equal(gl$max_loss, max(f$group_stats$loss))
  expect_equal(gl$method, "minmax")
  df <- data.frame(dat$x, grp = dat$g)
  au <- augment(f, data = df)
  expect_equal(names(au), c(names(df), ".fittedPC1", ".fittedPC2"))
  expect_equal(au$.fittedPC1, unname(f$x[, 1]))
  au2 <- augment(f, newdata = dat$x[1:3, ])
  expect_equal(nrow(au2), 3L)
  expect_error(augment(f, data = df[1:3, ]), "rows", class = "fairproj_input_error")
  skip_if_not_installed("broom")
  expect_equal(broom::tidy(f), td)
})

test_that("autoplot returns ggplots", {
  skip_if_not_installed("ggplot2")
  dat <- make_groups(n = c(80, 70), d = 5)
  f <- fair_pca(dat$x, dat$g, k = 2)
  p <- ggplot2::autoplot(f)
  expect_s3_class(p, "ggplot")
  expect_equal(nrow(p$data), 150L)
  expect_message(p2 <- ggplot2::autoplot(f, "loss", kmax = 3), "Refitting")
  expect_s3_class(p2, "ggplot")
  fp <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", iterations = 30)
  expect_s3_class(ggplot2::autoplot(fp, "convergence"), "ggplot")
  pf <- suppressWarnings(pareto_front(dat$x, dat$g, k = 2, restarts = 1, iterations = 30),
                         classes = "fairproj_convergence_warning")
  expect_output(print(pf), "of them converged")
  expect_s3_class(ggplot2::autoplot(pf), "ggplot")
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

test_that("pareto_front says how many fits did not converge", {
  dat <- make_groups(n = c(80, 70), d = 5)
  set.seed(1)
  expect_warning(pf <- pareto_front(dat$x, dat$g, k = 2, restarts = 2, iterations = 2),
                 "3 of 3 Pareto fits stopped", class = "fairproj_convergence_warning")
  expect_output(print(pf), "0 of them converged")
})
