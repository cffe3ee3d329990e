# A contract over every result class: print, summary (and its print), plot() and autoplot()
# with their defaults, and tidy() run without error or unasserted warning. The loop over
# fairproj_methods() catches a method nobody called.
contract_data <- function(groups = c("a", "b", "c")) {
  set.seed(11)
  n <- 90
  g <- rep(groups, length.out = n)
  x <- matrix(rnorm(n * 5), n, 5) %*% matrix(rnorm(25), 5)
  x[g == "b", 1] <- x[g == "b", 1] * 3 + 2
  colnames(x) <- paste0("v", 1:5)
  list(x = x, g = g)
}

contract_check <- function(obj) {
  expect_output(print(obj))
  s <- summary(obj)
  expect_output(print(s))
  pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  suppressMessages(plot(obj))
  expect_s3_class(generics::tidy(obj), "data.frame")
  if (requireNamespace("ggplot2", quietly = TRUE)) {
    expect_s3_class(suppressMessages(ggplot2::autoplot(obj)), "ggplot")
  }
}

test_that("every fair_pca method's fit prints, summarises, plots and tidies with the defaults", {
  skip_if_not_installed("generics")
  dat <- contract_data(c("a", "b"))  # cfpca, inlp and rlace take two groups
  extra <- list(rlace = list(n_iter = 200L, seed = 1), mbfpca = list(maxit_outer = 5L),
                robust = list(iterations = 50L, restarts = 0L), pareto = list(iterations = 200L))
  for (m in fairproj_methods()) {
    args <- c(list(dat$x, dat$g, k = 2, method = m), extra[[m]])
    # short runs of the iterative methods may stop before their tolerance: that warning is
    # the honest report of a shortened run, not what this contract checks
    # (the plots refit the same short runs at other k)
    withCallingHandlers({
      fit <- do.call(fair_pca, args)
      expect_s3_class(fit, "fair_pca")
      contract_check(fit)
      expect_s3_class(generics::glance(fit), "data.frame")
    }, fairproj_convergence_warning = function(w) invokeRestart("muffleWarning"))
  }
})

test_that("column selections, kernel fits, tuning results, Pareto fronts and audits honour the contract", {
  skip_if_not_installed("generics")
  dat <- contract_data()
  contract_check(fair_css(dat$x, dat$g, k = 2))
  contract_check(fair_kpca(dat$x, dat$g, k = 2))
  contract_check(tune_fair_pca(dat$x, dat$g, k = 2, method = "mean", folds = 3, seed = 1,
                               grid = list(zero_tol = c(1e-9, 1e-6))))
  contract_check(pareto_front(dat$x, dat$g, k = 2, restarts = 0))
  contract_check(fair_audit(dat$x, dat$g, k = 1:2))
})
