# INLP (Ravfogel et al. 2020): the classifiers, accuracy down to the majority rate, geometry of
# the removed directions, reduction to PCA, input checks.

inlp_data <- function(seed = 1, n = c(300, 200), d = 6) {
  set.seed(seed)
  g <- factor(rep(c("a", "b"), n))
  x <- matrix(rnorm(sum(n) * d), sum(n), d) %*% diag(seq(3, 1, length.out = d))
  x[g == "b", 1] <- x[g == "b", 1] + 2.5   # the group is linearly visible in two directions
  x[g == "b", 4] <- x[g == "b", 4] - 2
  list(x = x, g = g)
}

test_that("the logistic regression solver matches glm when unregularised", {
  set.seed(3)
  X <- matrix(rnorm(400), 200)
  y <- ifelse(runif(200) < plogis(X %*% c(1, -0.5) + 0.3), 1, -1)
  fit <- fairproj:::.fp_linear_classifier(X, y, 0L, 1e8, TRUE)
  ref <- stats::glm.fit(cbind(X, 1), (y + 1) / 2, family = stats::binomial())$coefficients
  expect_equal(c(fit$w, fit$b), unname(ref), tolerance = 1e-5)
})

test_that("the squared-hinge SVM solver satisfies its optimality condition", {
  set.seed(4)
  X <- matrix(rnorm(600), 200)
  y <- ifelse(X %*% c(1, 1, 0) + rnorm(200, sd = 0.5) > 0, 1, -1)
  fit <- fairproj:::.fp_linear_classifier(X, y, 1L, 1, FALSE)
  m <- drop(y * (X %*% fit$w))
  grad <- fit$w - 2 * drop(t(X) %*% (y * pmax(0, 1 - m)))
  expect_lt(max(abs(grad)), 1e-7)
})

test_that("after d - k projections the attribute classifier is at the majority rate", {
  dd <- inlp_data()
  for (cl in c("logistic", "svm")) {
    fit <- fair_pca(dd$x, dd$g, k = 2, method = "inlp", classifier = cl)
    expect_gt(fit$accuracy[1], fit$majority + 0.1)          # the group is visible at first
    expect_equal(fit$iterations, 4L)
    expect_lte(fit$accuracy_final, fit$majority + 0.02)     # and not after
    expect_equal(fit$majority, 0.6)
    # removed directions are orthonormal and orthogonal to the components
    W <- fit$directions
    expect_equal(crossprod(W), diag(ncol(W)), tolerance = 1e-10)
    expect_lt(max(abs(crossprod(W, fit$rotation))), 1e-10)
  }
})

test_that("stop_at_majority stops early; n_iter = 0 is standard PCA", {
  dd <- inlp_data(seed = 2)
  fit <- fair_pca(dd$x, dd$g, k = 2, method = "inlp", stop_at_majority = TRUE)
  expect_lt(fit$iterations, 4L)
  expect_lte(utils::tail(fit$accuracy, 1), fit$majority + 1e-12)
  std <- fair_pca(dd$x, dd$g, k = 2, method = "standard")
  none <- fair_pca(dd$x, dd$g, k = 2, method = "inlp", n_iter = 0)
  expect_lt(subspace_dist(none$rotation, std$rotation), 1e-8)
})

test_that("inlp needs the rows and validates its inputs", {
  dd <- inlp_data(n = c(30, 20))
  m <- group_moments(dd$x, dd$g)
  expect_error(fair_pca(m, k = 2, method = "inlp"), class = "fairproj_needs_rows")
  expect_error(fair_pca(m, k = 2, method = "inlp"), class = "fairproj_input_error")
  expect_error(fair_pca(dd$x, dd$g, k = 2, method = "inlp", classifier = "tree"), class = "fairproj_input_error")
  expect_error(fair_pca(dd$x, dd$g, k = 2, method = "inlp", C = 0), class = "fairproj_input_error")
  expect_error(fair_pca(dd$x, dd$g, k = 2, method = "inlp", n_iter = 5), class = "fairproj_input_error")
})

test_that("a fit estimated beyond the time limit is refused up front, saying which n_iter fits (#45)", {
  set.seed(1)
  x <- matrix(rnorm(500 * 30), 500)
  g <- rep(c("a", "b"), 250)
  old <- options(fairproj.time_limit = 1e-3)
  on.exit(options(old))
  e <- expect_error(fair_pca(x, g, k = 2, method = "inlp"), class = "fairproj_cost_error")
  expect_match(conditionMessage(e), "n_iter = ", fixed = TRUE)
  options(fairproj.time_limit = 60)
  expect_silent(fairproj:::fp_inlp_check_cost(500, 30, 28L))
  expect_error(fairproj:::fp_inlp_check_cost(4e5, 400, 398L), class = "fairproj_cost_error")
})

test_that("the C++ loop reports each classifier fit to a progress bar (#45)", {
  set.seed(1)
  x <- matrix(rnorm(300 * 6), 300)
  g <- rep(c("a", "b"), 150)
  x[g == "a", 1:2] <- x[g == "a", 1:2] + 1
  rec <- local_progress_recorder()
  fit <- fair_pca(x, g, k = 2, method = "inlp")
  expect_equal(rec$total, 4L)
  expect_equal(rec$steps, seq_len(4L))
  expect_equal(rec$done, 1L)
})
