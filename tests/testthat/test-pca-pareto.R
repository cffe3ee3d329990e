# Pareto fair PCA (Kamani et al.): checks from the research extraction (seed-001, section 7).

pareto_prep <- function(dat, center = TRUE) {
  fairproj:::fp_prepare(group_moments(dat$x, dat$g), center = center)
}

proj <- function(U) U %*% t(U)

test_that("the min-norm QP over the simplex is solved to optimality", {
  set.seed(11)
  mn <- function(M) fairproj:::.fp_pareto_min_norm(M, 1e-14, 1000L)
  for (rep in 1:25) {
    m <- sample(2:12, 1)
    p <- sample(c(2, 3, 5, 40), 1)  # p < m gives rank-deficient Gram matrices
    G <- matrix(rnorm(m * p), p, m)
    if (rep %% 3 == 0) G <- G + 2  # hull far from the origin
    if (rep %% 4 == 0) G <- sweep(G, 2, sqrt(colSums(G^2)), `/`)
    M <- crossprod(G)
    r <- mn(M)
    lam <- r$lambda
    expect_true(all(lam >= 0))
    expect_equal(sum(lam), 1, tolerance = 1e-12)
    g <- drop(M %*% lam)
    val <- sum(lam * g)
    # KKT: (M lam)_a >= lam'M lam for every a, i.e. <D, G_a> <= -||D||^2 with D = -G lam
    expect_true(all(g >= val - 1e-11 * max(diag(M))))
    # no point of a fine random sample of the simplex does better
    W <- matrix(rexp(m * 1000), m)
    W <- sweep(W, 2, colSums(W), `/`)
    expect_true(all(colSums(W * (M %*% W)) >= val - 1e-12))
  }
  # two points: the closed form; unit-norm points give the bisector (1/2, 1/2)
  g1 <- c(1, 0.2, -0.3)
  g2 <- c(-0.4, 0.9, 0.1)
  M <- crossprod(cbind(g1, g2))
  l1 <- min(max(sum((g2 - g1) * g2) / sum((g1 - g2)^2), 0), 1)
  expect_equal(mn(M)$lambda, c(l1, 1 - l1), tolerance = 1e-12)
  u <- cbind(g1 / sqrt(sum(g1^2)), g2 / sqrt(sum(g2^2)))
  expect_equal(mn(crossprod(u))$lambda, c(0.5, 0.5), tolerance = 1e-12)
  # degenerate sets: repeated, parallel and nearly identical points
  g <- c(1, 2, 0.5)
  for (G in list(cbind(g, g, g), cbind(g, 2 * g, 0.5 * g), cbind(c(1, 0), c(1, 1e-9), c(1, -1e-9)))) {
    M <- crossprod(G)
    r <- mn(M)
    expect_equal(sum(r$lambda), 1, tolerance = 1e-12)
    expect_equal(sum(r$lambda * (M %*% r$lambda)), min(colSums(G^2)), tolerance = 1e-10)
  }
  # the origin in the hull: zero norm
  M <- crossprod(cbind(c(1, 0), c(-1, 0), c(0, 1)))
  expect_lt(sum(mn(M)$lambda * (M %*% mn(M)$lambda)), 1e-14)
})

test_that("objectives and gradients are those of the trace forms", {
  dat <- make_groups(n = c(120, 90, 70), d = 5, seed = 3)
  prep <- pareto_prep(dat)
  k <- 2
  set.seed(4)
  U <- qr.Q(qr(matrix(rnorm(10), 5, 2)))
  best <- fairproj:::fp_group_best(prep, k)
  E <- function(U) vapply(seq_along(prep$cov), function(g) {
    sum(diag(prep$cov[[g]])) - sum(diag(t(U) %*% prep$cov[[g]] %*% U)) - best[g]
  }, numeric(1))
  tot <- function(U) sum(diag(prep$C)) - sum(diag(t(U) %*% prep$C %*% U))
  # the total loss is the average squared error of the globally centred data (prcomp's divisor)
  xc <- scale(dat$x, scale = FALSE)
  expect_equal(tot(U), sum((xc - xc %*% proj(U))^2) / (nrow(xc) - 1), tolerance = 1e-10)
  for (disp in c("pairwise", "single")) for (psi in c("square", "absolute")) {
    spec <- fairproj:::fp_pareto_spec(prep$levels, disp)
    expect_length(spec$type, if (disp == "pairwise") 4L else 4L)
    r <- fairproj:::fp_pareto_run(prep, k, U, spec, psi = psi, normalize = FALSE, iterations = 0L, trace = TRUE)
    ps <- if (psi == "square") function(z) z^2 / 2 else abs
    fobj <- function(U) {
      e <- E(U)
      c(tot(U), if (disp == "pairwise") ps(c(e[1] - e[2], e[1] - e[3], e[2] - e[3])) else ps(e))
    }
    expect_equal(unname(r$objectives), fobj(U), tolerance = 1e-10)
    expect_equal(unname(r$excess), E(U), tolerance = 1e-10)
    # central differences of the trace forms (valid off the manifold too)
    for (a in seq_along(spec$type)) {
      num <- matrix(0, 5, 2)
      for (i in 1:10) {
        h <- 1e-6
        Up <- U
        Up[i] <- Up[i] + h
        Um <- U
        Um[i] <- Um[i] - h
        num[i] <- (fobj(Up)[a] - fobj(Um)[a]) / (2 * h)
      }
      expect_equal(r$trace$G[[1]][[a]], num, tolerance = 1e-6)
    }
  }
})

test_that("with the fairness objectives removed it converges to the PCA subspace", {
  dat <- make_groups(n = c(150, 100), d = 7, seed = 5)
  prep <- pareto_prep(dat)
  k <- 3
  V <- fairproj:::fp_eig_top(prep$C, k)$vectors
  spec <- fairproj:::fp_pareto_spec(prep$levels, "none")
  set.seed(6)
  U0 <- qr.Q(qr(matrix(rnorm(21), 7, 3)))
  expect_gt(subspace_dist(U0, V), 0.5)
  # the paper's iteration: normalised Euclidean gradient, 1/sqrt(t) steps (subspace iteration
  # with shrinking steps: slow but steady)
  r1 <- fairproj:::fp_pareto_run(prep, k, U0, spec, iterations = 3000L, tol = 1e-9)
  d1 <- vapply(c(100, 1000, 3000), function(it) {
    subspace_dist(fairproj:::fp_pareto_run(prep, k, U0, spec, iterations = it, tol = 1e-9)$U, V)
  }, numeric(1))
  expect_true(all(diff(d1) < 0))
  expect_lt(d1[3], 0.02)
  # Euclidean gradient with Armijo steps: stationary (the subspace no longer moves) at PCA
  r2 <- fairproj:::fp_pareto_run(prep, k, U0, spec, step = "armijo", iterations = 2000L, tol = 1e-9)
  expect_equal(r2$status, "stationary")
  expect_lt(subspace_dist(r2$U, V), 1e-7)
  # Riemannian gradient with Armijo steps: monotone, stops when no decrease is measurable
  r3 <- fairproj:::fp_pareto_run(prep, k, U0, spec, gradient = "riemannian", step = "armijo", iterations = 2000L,
                                 tol = 1e-9)
  expect_true(r3$converged)
  expect_lt(subspace_dist(r3$U, V), 1e-5)
  expect_true(all(diff(r3$history$objective) <= 1e-12))
  expect_equal(r3$objectives[["total"]], sum(eigen(prep$C)$values[-(1:k)]), tolerance = 1e-10)
})

test_that("every step is a common descent direction, iterates stay orthonormal", {
  for (ng in c(2, 3, 5)) {
    dat <- make_groups(n = seq(150, by = -20, length.out = ng), d = 6, seed = ng)
    prep <- pareto_prep(dat)
    for (grad in c("euclidean", "riemannian")) for (ret in c("polar", "qr")) {
      set.seed(ng)
      U0 <- if (grad == "euclidean") fairproj:::fp_eig_top(prep$C, 2)$vectors else qr.Q(qr(matrix(rnorm(12), 6, 2)))
      spec <- fairproj:::fp_pareto_spec(prep$levels, "pairwise")
      r <- fairproj:::fp_pareto_run(prep, 2, U0, spec, gradient = grad, retraction = ret, iterations = 60L,
                                    tol = 0, trace = TRUE,
                                    step = if (grad == "riemannian") "armijo" else "sqrt")
      expect_length(r$trace$G[[1]], 1 + ng * (ng - 1) / 2)
      viol <- vapply(seq_along(r$trace$D), function(t) {
        D <- r$trace$D[[t]]
        ip <- vapply(r$trace$G[[t]], function(G) if (sum(G^2) > 0) sum(D * G) else -Inf, numeric(1))
        max(ip) + sum(D^2)  # <D, G_a> <= -||D||^2 for every objective a
      }, numeric(1))
      expect_lt(max(viol), 1e-10)
      expect_equal(vapply(r$trace$lambda, sum, numeric(1)), rep(1, length(r$trace$lambda)), tolerance = 1e-12)
      orth <- vapply(r$trace$U, function(U) max(abs(crossprod(U) - diag(2))), numeric(1))
      expect_lt(max(orth), 1e-12)
      expect_gt(length(orth), 10)
      expect_lt(max(abs(crossprod(r$U) - diag(2))), 1e-12)
      expect_true(all(r$history$descent <= 1e-10, na.rm = TRUE))
      if (grad == "riemannian") {
        # Armijo on all objectives: every objective is non-increasing along the iterations
        fcols <- as.matrix(r$history[, c("objective", spec$names[-1])])
        expect_true(all(apply(fcols, 2, diff) <= 1e-10))
      }
    }
  }
})

test_that("polar and QR retractions give the same subspace trajectory (different bases)", {
  # Every gradient is S(UU') U, so the weights, the step and the next subspace depend only on
  # span(U): in exact arithmetic the subspace trajectories coincide and only the bases differ.
  # In floating point they agree to rounding; only a stopping decision taken at rounding level
  # (Armijo's "no measurable decrease") may end one run a few steps earlier.
  dat <- make_groups(n = c(160, 120, 90), d = 8, seed = 9)
  prep <- pareto_prep(dat)
  spec <- fairproj:::fp_pareto_spec(prep$levels, "pairwise")
  U0 <- fairproj:::fp_eig_top(prep$C, 3)$vectors
  for (psi in c("square", "absolute")) for (st in c("sqrt", "armijo")) {
    rp <- fairproj:::fp_pareto_run(prep, 3, U0, spec, psi = psi, retraction = "polar", step = st,
                                   iterations = 80L, tol = 0, trace = TRUE)
    rq <- fairproj:::fp_pareto_run(prep, 3, U0, spec, psi = psi, retraction = "qr", step = st,
                                   iterations = 80L, tol = 0, trace = TRUE)
    n <- min(length(rp$trace$U), length(rq$trace$U))
    expect_lte(abs(length(rp$trace$U) - length(rq$trace$U)), 5)
    expect_gt(n, 20)
    d_sub <- mapply(function(a, b) subspace_dist(a, b), rp$trace$U[1:n], rq$trace$U[1:n])
    d_basis <- mapply(function(a, b) max(abs(a - b)), rp$trace$U[1:n], rq$trace$U[1:n])
    expect_lt(max(d_sub), 1e-8)
    expect_gt(max(d_basis), 1e-3)  # the bases themselves differ
    expect_equal(rp$history$objective[1:n], rq$history$objective[1:n], tolerance = 1e-10)
    expect_equal(rp$history$step[1:(n - 1)], rq$history$step[1:(n - 1)], tolerance = 1e-10)
  }
})

test_that("with normalised gradients and 1/sqrt(t) steps, psi enters only through its sign", {
  dat <- make_groups(n = c(120, 100, 80), d = 6, seed = 61)
  a <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", psi = "square", iterations = 150)
  b <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", psi = "absolute", iterations = 150)
  expect_lt(subspace_dist(a$rotation, b$rotation), 1e-10)
  expect_equal(a$history$objective, b$history$objective, tolerance = 1e-12)
  # the disparity objectives themselves are psi of the same differences
  expect_equal(unname(a$objectives[-1]), unname(b$objectives[-1]^2 / 2), tolerance = 1e-10)
  # without normalisation the penalties give different directions
  c1 <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", psi = "square", normalize = FALSE, iterations = 50, eta = 1e-3)
  c2 <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", psi = "absolute", normalize = FALSE, iterations = 50, eta = 1e-3)
  expect_gt(subspace_dist(c1$rotation, c2$rotation), 1e-6)
})

test_that("fair total loss >= PCA's, excess losses >= 0, disparity reduced for 2, 3 and 5 groups", {
  for (ng in c(2, 3, 5)) {
    dat <- make_groups(n = seq(200, by = -30, length.out = ng), d = 7, seed = 20 + ng)
    std <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
    pca_total <- sum(diag(crossprod(scale(dat$x, scale = FALSE)))) / (nrow(dat$x) - 1) - sum(std$sdev^2)
    for (disp in c("pairwise", "single")) {
      f <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", disparity = disp, iterations = 300)
      expect_s3_class(f, c("fair_pca_pareto", "fair_pca"))
      expect_length(f$objectives, if (disp == "pairwise") 1 + ng * (ng - 1) / 2 else 1 + ng)
      expect_equal(f$history$objective[1], pca_total, tolerance = 1e-10)
      expect_true(all(f$history$objective >= pca_total - 1e-10))
      expect_gte(f$objectives[["total"]], pca_total - 1e-10)
      expect_true(all(f$group_stats$loss >= -1e-10))
      expect_equal(unname(f$excess), f$group_stats$loss, tolerance = 1e-8)
      expect_equal(crossprod(f$rotation), diag(2), tolerance = 1e-12, ignore_attr = TRUE)
      if (disp == "pairwise") {
        expect_lt(diff(range(f$group_stats$loss)), 0.5 * diff(range(f$group_stats_standard$loss)))
      }
    }
  }
})

test_that("fits from moments equal fits from rows; restarts are reproducible", {
  dat <- make_groups(n = c(120, 90, 60), d = 6, seed = 31)
  f1 <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", iterations = 100)
  f2 <- fair_pca(group_moments(dat$x, dat$g), k = 2, method = "pareto", iterations = 100)
  expect_lt(subspace_dist(f1$rotation, f2$rotation), 1e-10)
  set.seed(1)
  a <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", restarts = 3, iterations = 50)
  set.seed(1)
  b <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", restarts = 3, iterations = 50)
  expect_equal(a$rotation, b$rotation)
  expect_equal(nrow(a$front), 4L)
  expect_equal(sum(a$front$selected), 1L)
  expect_false(a$front$dominated[a$front$selected])
  set.seed(2)
  c1 <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", start = "random", iterations = 20)
  expect_gt(subspace_dist(c1$rotation, a$rotation), 1e-6)
})

test_that("pareto_front returns the set of fits; plots work", {
  dat <- make_groups(n = c(120, 90), d = 6, seed = 41)
  set.seed(3)
  pf <- pareto_front(dat$x, dat$g, k = 2, restarts = 3, iterations = 80, gradient = "riemannian", step = "armijo")
  expect_s3_class(pf, "fairproj_pareto_front")
  expect_length(pf$fits, 4L)
  expect_equal(nrow(pf$table), 4L)
  expect_true(all(pf$table$total >= pf$standard[["total"]] - 1e-10))
  expect_true(any(!pf$table$dominated))
  pdf(NULL)
  on.exit(dev.off())
  expect_silent(plot(pf))
  f <- pf$fits[[2]]
  expect_silent(plot(f, "convergence"))
  h <- fairproj:::plot.fair_pca(f, "convergence")
  expect_equal(unname(h), f$history$objective)
  expect_output(print(pf), "Pareto")
  expect_output(print(f), "Objectives \\(pairwise disparity")
  expect_false(any(grepl("^Objective:", capture.output(print(f)))))
})

test_that("bad arguments give classed errors naming the argument", {
  dat <- make_groups(n = c(60, 50), d = 4, seed = 51)
  err <- function(...) expect_error(fair_pca(dat$x, dat$g, k = 2, method = "pareto", ...),
                                    class = "fairproj_input_error")
  err(disparity = "max")
  err(psi = "exp")
  err(step = 0.1)
  err(retraction = "svd")
  err(iterations = -1)
  err(tol = -1)
  err(normalize = NA)
  err(start = "zero")
  err(restarts = 1.5)
  err(beta = 1)
  err(eta = 0)
  err(init = matrix(1, 4, 2))
  err(alpha = 1)
  expect_error(fair_pca(dat$x, dat$g, k = 4, method = "pareto"), "k")
  expect_error(pareto_front(dat$x, dat$g, k = 2, start = "pca"), class = "fairproj_input_error")
})

test_that("pareto_front says how many fits did not converge", {
  dat <- make_groups(n = c(80, 70), d = 5)
  set.seed(1)
  expect_warning(pf <- pareto_front(dat$x, dat$g, k = 2, restarts = 2, iterations = 2),
                 "3 of 3 Pareto fits stopped", class = "fairproj_convergence_warning")
  expect_output(print(pf), "0 of them converged")
})
