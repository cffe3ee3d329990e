
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
