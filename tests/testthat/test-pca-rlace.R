rlace_data <- function(n = 400, d = 6, seed = 1) {
  set.seed(seed)
  g <- factor(rep(c("a", "b"), each = n / 2))
  x <- matrix(rnorm(n * d), n, d) %*% diag(seq(2, 1, length.out = d))
  # the groups differ along one direction mixing the first two axes
  v <- c(1, 1, rep(0, d - 2)) / sqrt(2)
  x[g == "b", ] <- x[g == "b", ] + 3 * matrix(v, n / 2, d, byrow = TRUE)
  list(x = x, g = g, v = v)
}

# training accuracy of a logistic regression of the group on a representation
group_accuracy <- function(s, g) {
  f <- suppressWarnings(glm(g ~ s, family = binomial()))
  mean((fitted(f) > 0.5) == (g == levels(g)[2]))
}

test_that("rlace removes the linearly decodable group information", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  dat <- rlace_data()
  before <- group_accuracy(dat$x, dat$g)
  expect_gt(before, 0.75)  # the group is easy to decode from the raw data
  fit <- fair_pca(dat$x, dat$g, k = 3, method = "rlace", rank = 1, n_iter = 1500, seed = 1)
  s <- predict(fit, dat$x)
  after <- group_accuracy(s, dat$g)
  expect_lt(after, 0.6)  # near chance (0.5) on the representation
  expect_lt(fit$accuracy, 0.6)
  expect_equal(fit$majority, 0.5)
  # the removed direction is the one separating the groups
  expect_gt(abs(sum(fit$removed[, 1] * dat$v)), 0.95)
  # standard PCA with the same k keeps the group information
  pca <- fair_pca(dat$x, dat$g, k = 3, method = "standard")
  expect_gt(group_accuracy(predict(pca, dat$x), dat$g), 0.7)
})

test_that("the removed subspace has the requested rank and is orthogonal to the components", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  dat <- rlace_data(d = 8, seed = 2)
  for (r in c(1L, 3L)) {
    fit <- fair_pca(dat$x, dat$g, k = 2, method = "rlace", rank = r, n_iter = 300, seed = 3)
    expect_equal(dim(fit$removed), c(8L, r))
    expect_equal(crossprod(fit$removed), diag(r), tolerance = 1e-8)
    expect_lt(max(abs(crossprod(fit$removed, fit$rotation))), 1e-8)
    expect_equal(fit$rank, r)
    # the relaxed P lies in the Fantope of rank r
    ev <- eigen(fit$P, symmetric = TRUE)$values
    expect_equal(sum(ev), r, tolerance = 1e-6)
    expect_true(all(ev > -1e-8 & ev < 1 + 1e-8))
  }
  # default rank: d - k, so the kept space is exactly the span of the components
  fit <- fair_pca(dat$x, dat$g, k = 2, method = "rlace", n_iter = 200, seed = 3)
  expect_equal(ncol(fit$removed), 6L)
  expect_equal(qr(cbind(fit$removed, fit$rotation))$rank, 8L)
})

test_that("the Fantope projection is the Euclidean projection", {
  set.seed(4)
  A <- crossprod(matrix(rnorm(25), 5)) / 3
  P <- fairproj:::fp_fantope_project(A, 2)
  e <- eigen(P, symmetric = TRUE)$values
  expect_equal(sum(e), 2, tolerance = 1e-9)
  expect_true(all(e > -1e-9 & e < 1 + 1e-9))
  # a Fantope member is its own projection
  Q <- qr.Q(qr(matrix(rnorm(10), 5)))
  expect_equal(fairproj:::fp_fantope_project(tcrossprod(Q), 2), tcrossprod(Q), tolerance = 1e-9)
  # no random Fantope point is closer to A than P
  for (i in 1:20) {
    R <- fairproj:::fp_fantope_project(crossprod(matrix(rnorm(25), 5)), 2)
    expect_gte(sum((A - R)^2), sum((A - P)^2) - 1e-9)
  }
})

test_that("rlace is reproducible with a seed and validates its arguments", {
  dat <- rlace_data(n = 200, seed = 5)
  f1 <- fair_pca(dat$x, dat$g, k = 2, method = "rlace", rank = 1, n_iter = 100, seed = 9)
  f2 <- fair_pca(dat$x, dat$g, k = 2, method = "rlace", rank = 1, n_iter = 100, seed = 9)
  expect_equal(f1$rotation, f2$rotation)
  expect_true("rlace" %in% fairproj_methods())
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "rlace", rank = 5), class = "fairproj_input_error")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "rlace", rank = 0), class = "fairproj_input_error")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "rlace", lr_P = -1), class = "fairproj_input_error")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "rlace", n_iter = 1.5), class = "fairproj_input_error")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "rlace", accuracy_tol = 2), class = "fairproj_input_error")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "rlace", clf_steps = 0), class = "fairproj_input_error")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "rlace", batch_size = 0), class = "fairproj_input_error")
  g3 <- factor(rep(c("a", "b", "c"), length.out = 200))
  expect_error(fair_pca(dat$x, g3, k = 2, method = "rlace"), class = "fairproj_input_error")
  m <- group_moments(dat$x, dat$g)
  expect_error(fair_pca(m, k = 2, method = "rlace"), class = "fairproj_input_error")
})

test_that("rlace with Ravfogel et al.'s SGD game from a random start removes the group direction", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  dat <- rlace_data(n = 400, d = 6, seed = 6)
  fits <- lapply(c(1, 2), function(s) {
    fair_pca(dat$x, dat$g, k = 2, method = "rlace", rank = 3, n_iter = 1500, seed = s, optimizer = "sgd",
             init = "random", weight_decay = 1e-4, lr_P = 0.05, lr_clf = 0.05, clf_steps = 1L,
             batch_size = 128L, eval_every = 250L, accuracy_tol = NULL)
  })
  for (fit in fits) {
    # the group direction lies in the removed subspace and the group is no longer decodable
    expect_gt(sqrt(sum(crossprod(fit$removed, dat$v)^2)), 0.95)
    expect_lt(group_accuracy(predict(fit, dat$x), dat$g), 0.6)
    ev <- eigen(fit$P, symmetric = TRUE)$values
    expect_equal(sum(ev), 3, tolerance = 1e-6)
    expect_true(all(ev > -1e-8 & ev < 1 + 1e-8))
  }
  # the two removed directions the group does not need are set by the random start
  p1 <- tcrossprod(fits[[1]]$removed)
  p2 <- tcrossprod(fits[[2]]$removed)
  expect_gt(max(abs(p1 - p2)), 1e-3)
  # the default game (Adam from the centre of the Fantope) is unaffected by the new arguments
  a <- fair_pca(dat$x, dat$g, k = 2, method = "rlace", rank = 1, n_iter = 100, seed = 9)
  b <- fair_pca(dat$x, dat$g, k = 2, method = "rlace", rank = 1, n_iter = 100, seed = 9, optimizer = "adam",
                init = "centre", weight_decay = 0)
  expect_equal(a$rotation, b$rotation)
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "rlace", optimizer = "rmsprop"),
               class = "fairproj_input_error", regexp = "optimizer")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "rlace", init = 1), class = "fairproj_input_error",
               regexp = "init")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "rlace", weight_decay = -1),
               class = "fairproj_input_error", regexp = "weight_decay")
  for (a in c("weight_decay", "lr_P", "lr_clf", "lambda")) {
    expect_error(do.call(fair_pca, c(list(dat$x, dat$g, k = 2, method = "rlace"), stats::setNames(list(Inf), a))),
                 class = "fairproj_input_error", regexp = a)
  }
})

test_that("a diverging rlace game is an error, or a warning with the best projection evaluated before", {
  dat <- rlace_data(n = 200, d = 4, seed = 7)
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "rlace", n_iter = 50, optimizer = "sgd",
                        lr_P = 1e300, lr_clf = 1e300), class = "fairproj_numerical_error", regexp = "diverged")
  w <- NULL
  fit <- withCallingHandlers(
    fair_pca(dat$x, dat$g, k = 2, method = "rlace", n_iter = 50, optimizer = "sgd", lr_P = 1e6,
             lr_clf = 1e6, eval_every = 1L, seed = 1),
    fairproj_convergence_warning = function(cnd) {
      w <<- conditionMessage(cnd)
      invokeRestart("muffleWarning")
    })
  expect_match(w, "diverged")
  expect_true(all(is.finite(fit$rotation)))
  expect_equal(unname(crossprod(fit$rotation)), diag(2), tolerance = 1e-8)
  expect_lt(fit$iterations, 50L)
})

test_that("a fit estimated beyond the time limit is refused up front, saying which n_iter fits (#45)", {
  set.seed(1)
  x <- matrix(rnorm(300 * 30), 300)
  g <- rep(c("a", "b"), 150)
  old <- options(fairproj.time_limit = 0.01)
  on.exit(options(old))
  expect_refused_up_front(fair_pca(x, g, k = 2, method = "rlace"), "n_iter = ")
  options(fairproj.time_limit = 60)
  expect_silent(fairproj:::fp_rlace_check_cost(30, 2000L, 20L, 256L))
  expect_error(fairproj:::fp_rlace_check_cost(300, 2000L, 20L, 256L), class = "fairproj_cost_error")
})

test_that("the game reports each step to a progress bar, and closes it (#45)", {
  dat <- rlace_data(n = 200, seed = 5)
  rec <- local_progress_recorder()
  fit <- fair_pca(dat$x, dat$g, k = 2, method = "rlace", n_iter = 30L, eval_every = 10L, accuracy_tol = NULL, seed = 1)
  expect_equal(rec$total, 30L)
  expect_equal(rec$steps, seq_len(30L))
  expect_equal(rec$done, 1L)
})
