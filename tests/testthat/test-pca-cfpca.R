# Convex fair PCA (Olfat & Aswani 2019): constraint at the solution, duality certificates,
# brute force on d = 2, reductions to mean-matching fair PCA and to standard PCA.

cf_data <- function(seed = 3, n = c(150, 100), d = 5) {
  dd <- make_groups(n = n, d = d, seed = seed)
  x <- dd$x
  x[dd$g == "b", 1] <- x[dd$g == "b", 1] + 3
  list(x = x, g = dd$g)
}

# C (prcomp's matrix), the mean difference f and covariance difference D from the rows
cf_moments <- function(x, g) {
  z <- scale(x, center = TRUE, scale = FALSE)
  lv <- levels(g)
  za <- z[g == lv[1], , drop = FALSE]
  zb <- z[g == lv[2], , drop = FALSE]
  cv <- function(m) crossprod(sweep(m, 2, colMeans(m))) / nrow(m)
  list(C = crossprod(z) / (nrow(z) - 1), f = colMeans(zb) - colMeans(za), D = cv(zb) - cv(za))
}

test_that("the mean constraint holds at the solution and is active when binding", {
  dd <- cf_data()
  m <- cf_moments(dd$x, dd$g)
  for (delta in c(0, 0.2, 0.8)) {
    fit <- fair_pca(dd$x, dd$g, k = 2, method = "cfpca", delta = delta)
    expect_lte(fit$mean_gap, delta + 1e-6)
    expect_true(fit$converged)
  }
  # standard PCA violates delta = 0.2, so the constraint binds: ||V'f|| = delta
  std <- fair_pca(dd$x, dd$g, k = 2, method = "standard")
  expect_gt(sqrt(sum(crossprod(std$rotation, m$f)^2)), 0.2)
  fit <- fair_pca(dd$x, dd$g, k = 2, method = "cfpca", delta = 0.2)
  expect_lt(abs(fit$mean_gap - 0.2), 1e-3)
})

test_that("the solver's options cross as one named list; an unknown or misspelt one is refused (#46)", {
  dd <- cf_data(seed = 5)
  m <- cf_moments(dd$x, dd$g)
  d <- ncol(dd$x)
  opts <- list(k = 2L, mu = 0, tol = 1e-8, maxit = 50L, eta_rel = 1e-8, check_every = 10L, lowrank = TRUE)
  res <- fairproj:::.fp_cfpca(m$C, m$f, 0.01, diag(d), diag(d), opts)
  expect_equal(ncol(res$rotation), 2L)
  expect_null(res$eig_evals)  # a field that R does not read is not returned
  # the option of another solver (or a typo) is not ignored silently
  e <- expect_error(fairproj:::fp_cpp(fairproj:::.fp_cfpca(m$C, m$f, 0.01, diag(d), diag(d),
                                                            c(opts, list(max_backtrack = 5L))), "the convex fair PCA solver"),
                    class = "fairproj_numerical_error")
  expect_match(conditionMessage(e), "max_backtrack", fixed = TRUE)
  # a missing option takes the solver's default (RSpectra's opts)
  res2 <- fairproj:::.fp_cfpca(m$C, m$f, 0.01, diag(d), diag(d), opts[c("k", "mu", "tol", "maxit", "eta_rel")])
  expect_identical(res2$rotation, res$rotation)
})

test_that("mu = 0: weak duality certifies the SDP solution (independent check in R)", {
  dd <- cf_data(seed = 5)
  m <- cf_moments(dd$x, dd$g)
  d <- ncol(dd$x)
  for (k in 1:3) for (delta in c(0.1, 0.5)) {
    b <- delta^2
    res <- fairproj:::.fp_cfpca(m$C, m$f, b, diag(d), diag(d), list(k = k, mu = 0, tol = 1e-10, maxit = 10L,
                                                                    eta_rel = 1e-10, check_every = 10L, lowrank = TRUE))
    P <- res$P
    ev <- eigen(P, symmetric = TRUE, only.values = TRUE)$values
    expect_equal(sum(diag(P)), k, tolerance = 1e-10)                    # Fantope
    expect_true(all(ev > -1e-10 & ev < 1 + 1e-10))
    expect_lte(drop(t(m$f) %*% P %*% m$f), b + 1e-9)                    # feasible
    primal <- sum(m$C * P)
    topk <- function(A) sum(eigen(A, symmetric = TRUE, only.values = TRUE)$values[1:k])
    dual <- res$nu * b + topk(m$C - res$nu * tcrossprod(m$f))           # any nu >= 0 bounds opt
    expect_gte(dual - primal, -1e-9)
    expect_lt(dual - primal, 1e-7 * max(1, abs(primal)))
    # complementary slackness
    expect_lt(res$nu * abs(drop(t(m$f) %*% P %*% m$f) - b), 1e-7 * max(1, abs(primal)))
  }
})

test_that("brute force on d = 2, k = 1 (the Fantope is a disk) agrees with the solver", {
  set.seed(11)
  A <- matrix(rnorm(4), 2)
  C <- crossprod(A) + diag(2) * 0.1
  f <- c(0.8, -0.5)
  D <- matrix(c(0.6, 0.3, 0.3, -0.4), 2)
  phi <- max(abs(eigen(D)$values)) + 0.5
  Ap <- phi * diag(2) + D
  Am <- phi * diag(2) - D
  # P = (I + x sx + z sz)/2 with x^2 + z^2 <= 1 covers all 2 x 2 density matrices
  r <- sqrt(seq(0, 1, length.out = 300))
  a <- seq(0, 2 * pi, length.out = 721)
  grid <- expand.grid(r = r, a = a)
  px <- grid$r * cos(grid$a)
  pz <- grid$r * sin(grid$a)
  # objective and f'Pf at P = [[p11, p12], [p12, p22]] (vectorised, closed-form 2 x 2 eigenvalues)
  lmax2 <- function(a, b, c) (a + c) / 2 + sqrt(((a - c) / 2)^2 + b^2)
  pap_max <- function(p11, p12, p22, A) {
    # entries of P A P
    q11 <- p11 * A[1, 1] + p12 * A[2, 1]; q12 <- p11 * A[1, 2] + p12 * A[2, 2]
    q21 <- p12 * A[1, 1] + p22 * A[2, 1]; q22 <- p12 * A[1, 2] + p22 * A[2, 2]
    lmax2(q11 * p11 + q12 * p12, q11 * p12 + q12 * p22, q21 * p12 + q22 * p22)
  }
  obj_at <- function(x, z, mu) {
    p11 <- (1 + z) / 2; p22 <- (1 - z) / 2; p12 <- x / 2
    h <- pmax(pap_max(p11, p12, p22, Ap), pap_max(p11, p12, p22, Am))
    rbind(C[1, 1] * p11 + C[2, 2] * p22 + 2 * C[1, 2] * p12 - mu * h,
          f[1]^2 * p11 + f[2]^2 * p22 + 2 * f[1] * f[2] * p12)
  }
  for (cfg in list(c(mu = 0, b = 0.2), c(mu = 0.5, b = 0.2), c(mu = 0.5, b = 10), c(mu = 2, b = 0.05))) {
    vals <- obj_at(px, pz, cfg[["mu"]])
    feas <- vals[2, ] <= cfg[["b"]]
    best <- max(vals[1, feas])
    res <- fairproj:::.fp_cfpca(C, f, cfg[["b"]], Ap, Am, list(k = 1L, mu = cfg[["mu"]], tol = 1e-7, maxit = 20000L,
                                                               eta_rel = 5e-8, check_every = 10L, lowrank = TRUE))
    P <- res$P
    expect_lte(drop(t(f) %*% P %*% f), cfg[["b"]] + 1e-8)
    chk <- obj_at(P[1, 2] * 2, P[1, 1] * 2 - 1, cfg[["mu"]])[, 1]
    expect_equal(chk[1], res$objective, tolerance = 1e-8)
    expect_gte(res$objective, best - 1e-6)       # at least as good as the grid
    expect_lte(res$objective, best + 5e-3)       # and not better than the grid's resolution allows
    expect_lte(res$gap, 1e-6 * max(1, abs(res$objective)) + 1e-12)
  }
})

test_that("delta = 0, mu = 0 is mean-matching fair PCA; a loose delta is standard PCA", {
  dd <- cf_data(seed = 7, d = 6)
  m <- cf_moments(dd$x, dd$g)
  Q <- diag(6) - tcrossprod(m$f) / sum(m$f^2)
  V_mean <- eigen(Q %*% m$C %*% Q, symmetric = TRUE)$vectors[, 1:3]
  fit <- fair_pca(dd$x, dd$g, k = 3, method = "cfpca", delta = 0, mu = 0)
  expect_lt(subspace_dist(fit$rotation, V_mean), 1e-8)
  expect_lt(fit$mean_gap, 1e-10)
  loose <- fair_pca(dd$x, dd$g, k = 3, method = "cfpca", delta = sqrt(sum(m$f^2)) + 1)
  std <- fair_pca(dd$x, dd$g, k = 3, method = "standard")
  expect_lt(subspace_dist(loose$rotation, std$rotation), 1e-8)
  expect_equal(loose$nu, 0)
})

test_that("mu > 0 lowers the projected covariance difference, certified to tolerance", {
  dd <- cf_data(seed = 9, d = 5)
  m <- cf_moments(dd$x, dd$g)
  covgap <- function(V) max(abs(eigen(t(V) %*% m$D %*% V, symmetric = TRUE, only.values = TRUE)$values))
  f0 <- fair_pca(dd$x, dd$g, k = 2, method = "cfpca", delta = 0, mu = 0)
  f1 <- fair_pca(dd$x, dd$g, k = 2, method = "cfpca", delta = 0, mu = 5)
  expect_true(f1$converged)
  expect_lte(f1$gap, 1e-5 * max(1, abs(f1$objective)))
  expect_lt(covgap(f1$rotation), covgap(f0$rotation))
  expect_lt(f1$mean_gap, 1e-8)
})

test_that("scaling = 'fairml' is the package problem with mu rescaled by n ||Z||_F / (n - 1)", {
  dd <- cf_data(seed = 4, d = 5)
  n <- nrow(dd$x)
  z <- scale(dd$x, scale = FALSE)
  nrm <- sqrt(sum(z^2))
  a <- fair_pca(dd$x, dd$g, k = 2, method = "cfpca", delta = 0, mu = 1e-3, scaling = "fairml", gap_tol = 1e-6)
  b <- fair_pca(dd$x, dd$g, k = 2, method = "cfpca", delta = 0, mu = 1e-3 * n * nrm / (n - 1), gap_tol = 1e-6)
  expect_lt(subspace_dist(a$rotation, b$rotation), 1e-3)
})

test_that("the Fantope projection is the projection (variational inequality)", {
  set.seed(2)
  X <- crossprod(matrix(rnorm(36), 6)) / 3 - diag(6)
  P <- fairproj:::.fp_fantope_project(X, 2L)
  ev <- eigen(P, symmetric = TRUE)$values
  expect_equal(sum(ev), 2, tolerance = 1e-10)
  expect_true(all(ev > -1e-12 & ev < 1 + 1e-12))
  # <X - P, S - P> <= 0 for every S in the Fantope (checked on random rank-2 projections)
  for (i in 1:50) {
    S <- tcrossprod(qr.Q(qr(matrix(rnorm(12), 6))))
    expect_lte(sum((X - P) * (S - P)), 1e-9)
  }
})

test_that("cfpca validates its inputs", {
  dd <- cf_data()
  expect_error(fair_pca(dd$x, dd$g, k = 2, method = "cfpca", delta = -1), class = "fairproj_input_error")
  expect_error(fair_pca(dd$x, dd$g, k = 2, method = "cfpca", mu = NA), class = "fairproj_input_error")
  expect_error(fair_pca(dd$x, dd$g, k = 5, method = "cfpca"), class = "fairproj_input_error")
  expect_error(fair_pca(dd$x, dd$g, k = 2, method = "cfpca", scaling = "x"), class = "fairproj_input_error")
  expect_error(fair_pca(dd$x, dd$g, k = 2, method = "cfpca", phi = 1e-6), class = "fairproj_input_error")
  # Inf is not a number these take (phi = Inf gave a degenerate rotation)
  for (a in c("phi", "delta")) {
    expect_error(do.call(fair_pca, c(list(dd$x, dd$g, k = 2, method = "cfpca"), stats::setNames(list(Inf), a))),
                 sprintf("^`%s` must be a finite number", a), class = "fairproj_input_error")
  }
  g3 <- factor(rep(1:3, length.out = nrow(dd$x)))
  expect_error(fair_pca(dd$x, g3, k = 2, method = "cfpca"), class = "fairproj_input_error")
  m <- group_moments(dd$x, dd$g)
  expect_s3_class(fair_pca(m, k = 2, method = "cfpca", delta = 0.1), "fair_pca_cfpca")
})

test_that("the low-rank evaluation of the covariance term agrees with the dense one", {
  dd <- cf_data(seed = 12, d = 7)
  m <- cf_moments(dd$x, dd$g)
  phi <- max(abs(eigen(m$D, symmetric = TRUE, only.values = TRUE)$values)) + 0.5
  Ap <- phi * diag(7) + m$D
  Am <- phi * diag(7) - m$D
  for (b in c(0.05, 0)) {
    opts <- list(k = 2L, mu = 3, tol = 1e-6, maxit = 3000L, eta_rel = 5e-7, check_every = 10L)
    lr <- fairproj:::.fp_cfpca(m$C, m$f, b, Ap, Am, c(opts, lowrank = TRUE))
    dn <- fairproj:::.fp_cfpca(m$C, m$f, b, Ap, Am, c(opts, lowrank = FALSE))
    # the certified gap is small (it can stall above a tight tol when the maximal eigenvalue of
    # the covariance term is multiple at the optimum), and the two code paths agree
    expect_lt(lr$gap, 1e-3 * abs(lr$objective))
    expect_lt(dn$gap, 1e-3 * abs(dn$objective))
    expect_equal(lr$objective, dn$objective, tolerance = 1e-7)
    # an independent check of the objective at the returned P
    P <- lr$P
    h <- max(eigen(P %*% Ap %*% P, symmetric = TRUE, only.values = TRUE)$values[1],
             eigen(P %*% Am %*% P, symmetric = TRUE, only.values = TRUE)$values[1])
    expect_equal(sum(m$C * P) - 3 * h, lr$objective, tolerance = 1e-10)
  }
})

test_that("the accelerated gradient reports each iteration, and stops at the time limit with the gap of what it returns (#45)", {
  set.seed(3)
  d <- 30
  x <- matrix(rnorm(600 * d), 600) %*% matrix(rnorm(d * d), d) / sqrt(d)
  g <- rep(c("a", "b"), 300)
  x[g == "a", 1] <- x[g == "a", 1] + 1
  rec <- local_progress_recorder()
  full <- fair_pca(x, g, k = 3, method = "cfpca", delta = 0, mu = 0.1)
  expect_true(is.na(rec$total))
  expect_equal(rec$steps, seq_len(full$iterations))
  expect_equal(rec$done, 1L)
  old <- options(fairproj.time_limit = 1e-9)
  on.exit(options(old), add = TRUE)
  w <- expect_warning(cut <- fair_pca(x, g, k = 3, method = "cfpca", delta = 0, mu = 0.1),
                      class = "fairproj_convergence_warning")
  expect_match(conditionMessage(w), "time limit", fixed = TRUE)
  expect_false(cut$converged)
  expect_equal(cut$iterations, 1L)
  # the gap is that of the returned iterate: objective + gap bounds the optimum from above
  expect_gt(cut$gap, full$gap)
  expect_gte(cut$objective + cut$gap, full$objective - 1e-8 * abs(full$objective))
  expect_gte(full$objective + full$gap, cut$objective - 1e-8 * abs(full$objective))
  expect_equal(cut$history$iteration[nrow(cut$history)], 1L)
})
