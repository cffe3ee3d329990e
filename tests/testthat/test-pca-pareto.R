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

tangent_grads <- function(prep, U, k) {
  P <- diag(nrow(U)) - U %*% t(U)
  list(total = -2 * P %*% prep$C %*% U,
       group = lapply(prep$cov, function(A) -2 * P %*% A %*% U))
}

test_that("objectives and gradients are those of the eq. 19 trace forms (with alpha)", {
  dat <- make_groups(n = c(120, 90, 70), d = 5, seed = 3)
  prep <- pareto_prep(dat)
  k <- 2
  set.seed(4)
  U <- matrix(rnorm(10), 5, 2)  # off the manifold: the regulariser matters there
  best <- fairproj:::fp_group_best(prep, k)
  E <- function(U) vapply(seq_along(prep$cov), function(g) {
    sum(diag(prep$cov[[g]])) - sum(diag(t(U) %*% prep$cov[[g]] %*% U)) - best[g]
  }, numeric(1))
  tot <- function(U) sum(diag(prep$C)) - sum(diag(t(U) %*% prep$C %*% U))
  Uo <- qr.Q(qr(U))
  xc <- scale(dat$x, scale = FALSE)
  expect_equal(tot(Uo), sum((xc - xc %*% proj(Uo))^2) / (nrow(xc) - 1), tolerance = 1e-10)
  for (disp in c("pairwise", "single")) for (psi in c("square", "absolute")) for (alpha in c(0, 0.7)) {
    spec <- fairproj:::fp_pareto_spec(prep$levels, disp)
    r <- fairproj:::fp_pareto_run(prep, k, U, spec, psi = psi, step = "sqrt", gradient = "euclidean",
                                  normalize = FALSE, iterations = 0L, alpha = alpha, trace = TRUE)
    ps <- if (psi == "square") function(z) z^2 / 2 else abs
    fobj <- function(U) {
      e <- E(U)
      c(tot(U), if (disp == "pairwise") ps(c(e[1] - e[2], e[1] - e[3], e[2] - e[3])) else ps(e)) + alpha * sum(U^2)
    }
    expect_equal(unname(r$history[1, c("objective", spec$names[-1])]), as.list(fobj(U)), tolerance = 1e-10,
                 ignore_attr = TRUE)
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

test_that("the eq. 19 alpha rules: printed rule and the one that makes each pair objective convex", {
  dat <- make_groups(n = c(150, 100, 80), d = 6, seed = 8)
  prep <- pareto_prep(dat)
  spec <- fairproj:::fp_pareto_spec(prep$levels, "pairwise")
  ev <- lapply(prep$cov, function(s) eigen(s, symmetric = TRUE, only.values = TRUE)$values)
  a_s <- fairproj:::fp_pareto_alpha("convex", prep, spec)
  a_p <- fairproj:::fp_pareto_alpha("paper", prep, spec)
  expect_length(a_s, 4L)
  # with the "convex" alpha every E_g - E_h + alpha ||U||^2 has a PSD Hessian 2 (A_h - A_g + alpha I) (x) I,
  # and a smaller alpha does not do it for some pair
  mineig <- function(al) min(unlist(lapply(seq_along(ev), function(g) lapply(seq_along(ev), function(h) {
    if (g == h) return(Inf)
    min(eigen(prep$cov[[h]] - prep$cov[[g]] + al * diag(6), symmetric = TRUE, only.values = TRUE)$values)
  }))))
  expect_gte(mineig(a_s[1]), -1e-10)
  expect_lt(mineig(a_s[1] * (1 - 1e-6)), 0)
  # the printed rule (min minus max) is 0 here, too small to convexify anything
  expect_equal(a_p, rep(max(0, max(outer(sapply(ev, min), sapply(ev, max), `-`))), 4))
  expect_lt(mineig(a_p[1]), 0)
  # on the manifold ||U||^2 = k: the regulariser changes neither the converging iteration nor its
  # subspace, only the reported objectives (by alpha k); alpha is in the data's units
  f0 <- fair_pca(dat$x, dat$g, k = 2, method = "pareto")
  f1 <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", alpha = "convex")
  f2 <- fair_pca(dat$x * 10, dat$g, k = 2, method = "pareto", alpha = "convex")
  expect_lt(subspace_dist(f0$rotation, f1$rotation), 1e-10)
  expect_lt(subspace_dist(f1$rotation, f2$rotation), 1e-8)
  expect_equal(f2$settings$alpha / 100, f1$settings$alpha, tolerance = 1e-10)
  expect_equal(unname(f1$objectives[1] - f0$objectives[1]), 2 * f1$settings$alpha[1], tolerance = 1e-8)
  # with the paper's iteration (Euclidean gradients) alpha changes the directions
  g0 <- suppressWarnings(fair_pca(dat$x, dat$g, k = 2, method = "pareto", step = "sqrt", iterations = 30))
  g1 <- suppressWarnings(fair_pca(dat$x, dat$g, k = 2, method = "pareto", step = "sqrt", iterations = 30, alpha = 2))
  expect_gt(subspace_dist(g0$rotation, g1$rotation), 1e-6)
  expect_equal(g1$settings$alpha, rep(2, 4))
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
  # the paper's iteration: normalised Euclidean gradient, 1/sqrt(t) steps (slow but steady)
  d1 <- vapply(c(100, 1000), function(it) {
    subspace_dist(fairproj:::fp_pareto_run(prep, k, U0, spec, step = "sqrt", gradient = "euclidean",
                                           iterations = it, tol = 0)$U, V)
  }, numeric(1))
  expect_lt(d1[2], d1[1])
  # the converging iteration: monotone, stationary, at PCA
  r <- fairproj:::fp_pareto_run(prep, k, U0, spec, iterations = 5000L, tol = 1e-6)
  expect_true(r$converged)
  expect_equal(r$status, "stationary")
  expect_lte(tail(r$history$stationarity, 1), 1e-6)
  # a tolerance below what the objective values resolve ends honestly, unconverged
  r2 <- fairproj:::fp_pareto_run(prep, k, U0, spec, iterations = 5000L, tol = 1e-12)
  expect_false(r2$converged)
  expect_true(r2$status %in% c("rounding", "line_search"))
  expect_true(all(diff(r2$history$objective) <= 1e-12 * sum(diag(prep$C))))
  expect_lt(subspace_dist(r$U, V), 1e-4)
  expect_true(all(diff(r$history$objective) <= 1e-12 * sum(diag(prep$C))))
  expect_equal(r$objectives[["total"]], sum(eigen(prep$C)$values[-(1:k)]), tolerance = 1e-10)
})

test_that("the converging default reaches a stationary point: balanced, and no balanced direction lowers the total loss", {
  for (ng in c(2, 3)) {
    dat <- make_groups(n = seq(160, by = -30, length.out = ng), d = 7, seed = 70 + ng)
    prep <- pareto_prep(dat)
    for (k in c(1, 3)) {
      f <- fair_pca(dat$x, dat$g, k = k, method = "pareto")
      expect_true(f$converged)
      expect_equal(f$status, "stationary")
      expect_lte(f$stationarity, 1e-6)
      U <- f$rotation
      h <- f$history
      tr <- sum(diag(prep$C))
      e <- f$group_stats$loss / f$unit
      if (f$history$held[nrow(h)] == choose(ng, 2)) {
        # every pair balanced: the groups' excess losses are equal ...
        expect_lt(diff(range(f$group_stats$loss)), 1e-7 * sum(diag(cov(dat$x))))
        # ... and the tangent gradient of the total loss lies in the span of the gradients of
        # E_g - E_1 (the first-order condition of min total s.t. balance)
        g <- tangent_grads(prep, U, k)
        J <- sapply(2:ng, function(j) as.vector(g$group[[j]] - g$group[[1]]))
        res <- qr.resid(qr(J), as.vector(g$total))
        expect_lt(sqrt(sum(res^2)) / tr, 5e-6)
      }
      # phase 2 (after balancing) is monotone in the total loss
      ph2 <- h$phase == 2
      expect_true(all(diff(h$objective[ph2]) <= 1e-10 * tr))
      expect_true(all(h$descent <= 1e-10, na.rm = TRUE))
      # the disparity falls from standard PCA's
      expect_lt(diff(range(f$group_stats$loss)), diff(range(f$group_stats_standard$loss)))
      expect_equal(crossprod(U), diag(k), tolerance = 1e-12, ignore_attr = TRUE)
    }
  }
})

test_that("without balancing: PCA is Pareto stationary; from a random start no objective rises", {
  dat <- make_groups(n = c(150, 120, 90), d = 6, seed = 12)
  f <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", balance = FALSE)
  expect_true(f$converged)
  expect_equal(f$iterations, 0L)
  expect_lt(subspace_dist(f$rotation, fair_pca(dat$x, dat$g, k = 2, method = "standard")$rotation), 1e-10)
  set.seed(5)
  g <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", balance = FALSE, start = "random")
  expect_true(g$converged)
  start <- unlist(g$history[1, c("objective", names(g$objectives)[-1])])
  # psi(|z|) of the free objectives and the total loss never rise (Armijo on all of them)
  expect_true(all(g$objectives <= start + 1e-9 * abs(start)))
  expect_true(all(diff(g$history$objective) <= 1e-10 * g$totalvar))
})

test_that("every step is a common descent direction, iterates stay orthonormal", {
  for (ng in c(2, 3, 5)) {
    dat <- make_groups(n = seq(150, by = -20, length.out = ng), d = 6, seed = ng)
    prep <- pareto_prep(dat)
    spec <- fairproj:::fp_pareto_spec(prep$levels, "pairwise")
    U0 <- fairproj:::fp_eig_top(prep$C, 2)$vectors
    for (st in c("sqrt", "armijo")) for (ret in c("polar", "qr")) {
      r <- fairproj:::fp_pareto_run(prep, 2, U0, spec, step = st, gradient = if (st == "sqrt") "euclidean" else "riemannian",
                                    retraction = ret, iterations = 60L, tol = 0, trace = TRUE)
      expect_length(r$trace$G[[1]], 1 + ng * (ng - 1) / 2)
      viol <- vapply(seq_along(r$trace$D), function(t) {
        D <- r$trace$D[[t]]
        lam <- r$trace$lambda[[t]]
        ip <- vapply(seq_along(r$trace$G[[t]]), function(a) {
          G <- r$trace$G[[t]][[a]]
          if (st == "armijo" && lam[a] == 0) return(-Inf)  # held or unused objectives
          if (sum(G^2) > 0) sum(D * G) else -Inf
        }, numeric(1))
        max(ip) + sum(D^2)
      }, numeric(1))
      expect_lt(max(viol), 1e-10)
      orth <- vapply(r$trace$U, function(U) max(abs(crossprod(U) - diag(2))), numeric(1))
      expect_lt(max(orth), 1e-12)
      expect_true(all(r$history$descent <= 1e-10, na.rm = TRUE))
    }
  }
})

test_that("polar and QR retractions give the same subspace trajectory (different bases)", {
  dat <- make_groups(n = c(160, 120, 90), d = 8, seed = 9)
  prep <- pareto_prep(dat)
  spec <- fairproj:::fp_pareto_spec(prep$levels, "pairwise")
  U0 <- fairproj:::fp_eig_top(prep$C, 3)$vectors
  for (st in c("sqrt", "armijo")) {
    gr <- if (st == "sqrt") "euclidean" else "riemannian"
    rp <- fairproj:::fp_pareto_run(prep, 3, U0, spec, retraction = "polar", step = st, gradient = gr,
                                   iterations = 40L, tol = 0, trace = TRUE)
    rq <- fairproj:::fp_pareto_run(prep, 3, U0, spec, retraction = "qr", step = st, gradient = gr,
                                   iterations = 40L, tol = 0, trace = TRUE)
    n <- min(length(rp$trace$U), length(rq$trace$U))
    expect_gt(n, 10)
    d_sub <- mapply(function(a, b) subspace_dist(a, b), rp$trace$U[1:n], rq$trace$U[1:n])
    d_basis <- mapply(function(a, b) max(abs(a - b)), rp$trace$U[1:n], rq$trace$U[1:n])
    expect_lt(max(d_sub), 1e-6)
    expect_gt(max(d_basis), 1e-3)
    expect_equal(rp$history$objective[1:n], rq$history$objective[1:n], tolerance = 1e-8)
  }
})

test_that("psi changes the reported objectives, not the converged subspace; with the paper's step only its sign matters", {
  dat <- make_groups(n = c(120, 100, 80), d = 6, seed = 61)
  a <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", psi = "square")
  b <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", psi = "absolute")
  expect_lt(subspace_dist(a$rotation, b$rotation), 1e-8)
  expect_equal(unname(a$objectives[-1]), unname(b$objectives[-1]^2 / 2), tolerance = 1e-8)
  a <- suppressWarnings(fair_pca(dat$x, dat$g, k = 2, method = "pareto", step = "sqrt", psi = "square", iterations = 150))
  b <- suppressWarnings(fair_pca(dat$x, dat$g, k = 2, method = "pareto", step = "sqrt", psi = "absolute", iterations = 150))
  expect_lt(subspace_dist(a$rotation, b$rotation), 1e-10)
  c1 <- suppressWarnings(fair_pca(dat$x, dat$g, k = 2, method = "pareto", step = "sqrt", psi = "square",
                                  normalize = FALSE, iterations = 50, eta = 1e-3))
  c2 <- suppressWarnings(fair_pca(dat$x, dat$g, k = 2, method = "pareto", step = "sqrt", psi = "absolute",
                                  normalize = FALSE, iterations = 50, eta = 1e-3))
  expect_gt(subspace_dist(c1$rotation, c2$rotation), 1e-6)
})

test_that("the paper's step says when it does not converge; `converged` describes the returned fit", {
  dat <- make_groups(n = c(150, 100), d = 6, seed = 13)
  expect_warning(f <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", step = "sqrt", iterations = 20),
                 class = "fairproj_convergence_warning")
  expect_false(f$converged)
  expect_gt(f$stationarity, 1e-6)
  expect_equal(f$stationarity, tail(f$history$stationarity, 1))
  f <- fair_pca(dat$x, dat$g, k = 2, method = "pareto")
  expect_true(f$converged)
  expect_lte(f$stationarity, f$settings$stationarity_tol)
  expect_warning(fair_pca(dat$x, dat$g, k = 2, method = "pareto", iterations = 1), class = "fairproj_convergence_warning")
})

test_that("a fit that its start dominates says so", {
  dat <- make_groups(n = c(150, 100), d = 6, seed = 13)
  for (eta in c(5, 20)) {
    w <- character(0)
    f <- withCallingHandlers(
      fair_pca(dat$x, dat$g, k = 2, method = "pareto", step = "sqrt", iterations = 1, eta = eta),
      warning = function(x) {
        expect_s3_class(x, "fairproj_convergence_warning")
        w <<- c(w, conditionMessage(x))
        invokeRestart("muffleWarning")
      })
    start <- unlist(f$history[1, c("objective", names(f$objectives)[-1])])
    dominated <- all(start <= f$objectives) && any(start < f$objectives)
    expect_identical(any(grepl("dominates", w)), dominated)
    expect_true(dominated)  # a step of 5 or 20 radians from standard PCA lands far off the front
  }
  # the converging iteration never returns a point its start dominates
  g <- expect_silent(fair_pca(dat$x, dat$g, k = 2, method = "pareto"))
  start <- unlist(g$history[1, c("objective", names(g$objectives)[-1])])
  expect_false(all(start <= g$objectives) && any(start < g$objectives))
})

test_that("fair total loss >= PCA's, excess losses >= 0, disparity reduced for 2, 3 and 5 groups", {
  for (ng in c(2, 3, 5)) {
    dat <- make_groups(n = seq(200, by = -30, length.out = ng), d = 7, seed = 20 + ng)
    std <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
    pca_total <- sum(diag(crossprod(scale(dat$x, scale = FALSE)))) / (nrow(dat$x) - 1) - sum(std$sdev^2)
    for (disp in c("pairwise", "single")) {
      f <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", disparity = disp)
      expect_true(f$converged)
      expect_s3_class(f, c("fair_pca_pareto", "fair_pca"))
      expect_length(f$objectives, if (disp == "pairwise") 1 + ng * (ng - 1) / 2 else 1 + ng)
      expect_equal(f$history$objective[1], pca_total, tolerance = 1e-10)
      expect_gte(f$objectives[["total"]], pca_total - 1e-10)
      expect_true(all(f$group_stats$loss >= -1e-10))
      expect_equal(unname(f$excess), f$group_stats$loss, tolerance = 1e-8)
      if (disp == "pairwise") {
        expect_lt(diff(range(f$group_stats$loss)), 0.5 * diff(range(f$group_stats_standard$loss)))
      }
    }
  }
})

test_that("fits from moments equal fits from rows; restarts are reproducible", {
  dat <- make_groups(n = c(120, 90, 60), d = 6, seed = 31)
  f1 <- fair_pca(dat$x, dat$g, k = 2, method = "pareto")
  f2 <- fair_pca(group_moments(dat$x, dat$g), k = 2, method = "pareto")
  expect_lt(subspace_dist(f1$rotation, f2$rotation), 1e-10)
  set.seed(1)
  a <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", restarts = 3)
  set.seed(1)
  b <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", restarts = 3)
  expect_equal(a$rotation, b$rotation)
  expect_equal(nrow(a$front), 4L)
  expect_equal(sum(a$front$selected), 1L)
  expect_false(a$front$dominated[a$front$selected])
  expect_true(all(a$front$converged))
})

test_that("pareto_front returns converged fits; plots work", {
  dat <- make_groups(n = c(120, 90), d = 6, seed = 41)
  set.seed(3)
  pf <- pareto_front(dat$x, dat$g, k = 2, restarts = 3)
  expect_s3_class(pf, "fairproj_pareto_front")
  expect_length(pf$fits, 4L)
  expect_true(all(pf$table$converged))
  expect_true(all(pf$table$total >= pf$standard[["total"]] - 1e-10))
  expect_true(any(!pf$table$dominated))
  pdf(NULL)
  on.exit(dev.off())
  expect_silent(plot(pf))
  f <- pf$fits[[2]]
  expect_silent(plot(f, "convergence"))
  expect_output(print(pf), "4 of them converged")
  expect_output(print(f), "Objectives \\(pairwise disparity")
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
  err(stationarity_tol = -1)
  err(stationarity_tol = Inf)
  # eta = Inf ran all its iterations, then failed with R's unclassed error
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "pareto", eta = Inf), "^`eta` must be a finite number",
               class = "fairproj_input_error")
  err(normalize = NA)
  err(start = "zero")
  err(restarts = 1.5)
  err(beta = 1)
  err(eta = 0)
  err(init = matrix(1, 4, 2))
  err(alpha = -1)
  err(alpha = "large")
  err(alpha = c(1, 2, 3))
  err(balance = NA)
  err(tol_balance = 2)
  err(gradient = "euclidean")
  err(gamma = 1)
  expect_error(fair_pca(dat$x, dat$g, k = 4, method = "pareto"), "k")
  expect_error(pareto_front(dat$x, dat$g, k = 2, start = "pca"), class = "fairproj_input_error")
})

test_that("many groups: pairwise disparities are refused up front where their QP would not fit, single ones run", {
  # 1 + m (m - 1) / 2 objectives: with 800 groups the QP's matrix needed 800 GB (std::bad_alloc)
  mg <- many_groups(8000, 800, 3, seed = 4)
  e <- expect_refused_up_front(suppressWarnings(fair_pca(mg$x, mg$g, k = 1, method = "pareto")), "319,601 objectives")
  expect_match(conditionMessage(e), "^`disparity`")
  expect_match(conditionMessage(e), "disparity = \"single\"", fixed = TRUE)
  fit <- suppressWarnings(fair_pca(mg$x, mg$g, k = 1, method = "pareto", disparity = "single"))
  expect_s3_class(fit, "fair_pca")
  expect_lte(max(abs(crossprod(fit$rotation) - 1)), 1e-12)
  # 100 groups (4,951 objectives) stay within the default limit
  expect_lt(fairproj:::fp_pareto_check_cost(1 + 100 * 99 / 2, 0L, "pairwise"), 60)
})

test_that("pareto_front says how many fits did not converge", {
  dat <- make_groups(n = c(80, 70), d = 5)
  set.seed(1)
  expect_warning(pf <- pareto_front(dat$x, dat$g, k = 2, restarts = 2, iterations = 1),
                 "of 3 Pareto fits stopped", class = "fairproj_convergence_warning")
  expect_lt(sum(pf$table$converged), 3)
})

test_that("pareto_front with a constant column and column scales 1e-47 .. 1e65", {
  set.seed(4)
  x <- matrix(rnorm(200 * 6), 200) %*% matrix(rnorm(36), 6)
  x <- sweep(x, 2L, 10^seq(-47, 65, length.out = 6), `*`)
  x[, 3] <- 5
  pf <- suppressWarnings(pareto_front(x, rep(1:2, 100), k = 2, restarts = 2))
  tab <- pf$table
  expect_true(all(is.finite(as.matrix(tab[, c("total", "disparity", "max_excess")]))))
  expect_false(anyNA(tab$dominated))
})

test_that("method 'pareto' stops at the time limit with a warning, where it is (status time_limit)", {
  set.seed(1)
  n <- 300
  d <- 40
  g <- factor(sample(letters[1:3], n, TRUE))
  x <- matrix(rnorm(n * 5), n, 5) %*% matrix(rnorm(5 * d), 5, d) + matrix(rnorm(n * d), n, d) + outer(as.integer(g), rnorm(d))
  old <- options(fairproj.time_limit = 0.02)
  on.exit(options(old))
  expect_warning(f <- fair_pca(x, g, k = 10, method = "pareto", scale. = TRUE, stationarity_tol = 1e-12),
                 class = "fairproj_convergence_warning", regexp = "time limit of 0.02 s")
  expect_identical(f$status, "time_limit")
  expect_false(f$converged)
  expect_lt(f$iterations, 50000L)
  expect_equal(unname(crossprod(f$rotation)), diag(10), tolerance = 1e-10)
  # with restarts the starts share it, and the warning says so
  expect_warning(fair_pca(x, g, k = 10, method = "pareto", scale. = TRUE, stationarity_tol = 1e-12, restarts = 1),
                 class = "fairproj_convergence_warning", regexp = "shared by 2 starts")
})

test_that("print() shows a total loss within rounding of 0 (k at the data's rank) as 0", {
  set.seed(1)
  x <- matrix(rnorm(240), 60)
  x[, 2] <- x[, 1]  # rank 3
  f <- fair_pca(x, rep(c("a", "b"), 30), 3, method = "pareto")
  out <- capture.output(print(f))
  i <- grep("^Objectives", out)
  vals <- scan(text = out[i + 2L], quiet = TRUE)
  expect_gte(vals[1], 0)
})

# The point of conv{g_1, ..., g_p} nearest 0, by brute force over the supports: on each subset S,
# the nearest point of S's affine hull (a small linear system), kept when its weights are >= 0.
min_norm_hull <- function(G) {
  p <- ncol(G)
  best <- Inf
  for (s in seq_len(2^p - 1)) {
    S <- which(bitwAnd(s, 2^(seq_len(p) - 1)) > 0)
    if (length(S) == 1L) { best <- min(best, sqrt(sum(G[, S]^2))); next }
    # minimise |G_S w|^2 subject to sum(w) = 1 (KKT system)
    Q <- crossprod(G[, S, drop = FALSE])
    K <- rbind(cbind(2 * Q, 1), c(rep(1, length(S)), 0))
    w <- tryCatch(solve(K, c(rep(0, length(S)), 1))[seq_along(S)], error = function(e) NULL)
    if (is.null(w) || any(w < -1e-12)) next
    best <- min(best, sqrt(sum((G[, S, drop = FALSE] %*% w)^2)))
  }
  best
}

test_that("single disparities (eq. 9): a Pareto stationary point of the total and every group's loss, none worse than PCA's", {
  for (ng in c(2, 3)) for (k in c(1, 2)) {
    dat <- make_groups(n = seq(160, by = -30, length.out = ng), d = 6, seed = 70 + ng)
    prep <- pareto_prep(dat)
    f <- fair_pca(dat$x, dat$g, k = k, method = "pareto", disparity = "single")
    expect_true(f$converged)
    expect_equal(f$status, "stationary")
    h <- f$history
    expect_equal(h$held[nrow(h)], 0L)  # no group's loss is 0 here, so none is held
    # 0 lies in the convex hull of the tangent gradients of the total and of each E_g (relative
    # to tr(C)): no direction lowers them all (Definition 5, to first order)
    g <- tangent_grads(prep, f$rotation, k)
    G <- sapply(c(list(g$total), g$group), as.vector) / sum(diag(prep$C))
    expect_lt(min_norm_hull(G), 2e-6)
    # ... and the check can fail: standard PCA's subspace moved by 0.05 rad is not stationary
    set.seed(ng + k)
    U0 <- fair_pca(dat$x, dat$g, k = k, method = "standard")$rotation
    V <- qr.Q(qr(U0 + 0.05 * matrix(rnorm(6 * k), 6, k)))
    gv <- tangent_grads(prep, V, k)
    expect_gt(min_norm_hull(sapply(c(list(gv$total), gv$group), as.vector) / sum(diag(prep$C))), 1e-4)
    # phase 2 never raises an objective; the groups' losses end no higher than standard PCA's
    ph2 <- h[h$phase == 2, grep("^objective$|^psi", names(h)), drop = FALSE]
    expect_true(all(apply(ph2, 2, function(v) all(diff(v) <= 1e-10 * max(abs(v))))))
    expect_true(all(f$group_stats$loss <= f$group_stats_standard$loss * (1 + 1e-8)))
    expect_lt(max(f$group_stats$loss), max(f$group_stats_standard$loss))
  }
})
