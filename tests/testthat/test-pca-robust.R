ns <- asNamespace("fairproj")

robust_prep <- function(n = c(200, 150), d = 6, seed = 1, scale. = TRUE) {
  dat <- make_groups(n = n, d = d, seed = seed)
  ns$fp_prepare(group_moments(dat$x, dat$g), center = TRUE, scale. = scale.)
}

rand_stiefel <- function(d, r) qr.Q(qr(matrix(rnorm(d * r), d, r)))

# Direct evaluation of the robust objective from its definition: for each ordered pair of groups
# (a, a'), the worst case of sum_b c_b E_{Q_b}[loss] over the Gelbrich balls is, group by group,
# c_b (sqrt(L_b) + sign(c_b) sqrt(eps_b))^2 (Proposition 3.3, exact case), with c_b = p_b + lambda
# for b = a, p_b - lambda for b = a' and p_b otherwise; the objective is the largest over pairs.
direct_objective <- function(prep, V, eps, lambda) {
  p <- as.numeric(prep$n) / prep$n_total
  L <- vapply(prep$second, function(M) sum(diag(M)) - sum((M %*% V) * V), numeric(1))
  m <- length(p)
  vals <- c()
  for (a in seq_len(m)) for (a2 in seq_len(m)) if (a != a2) {
    cc <- p
    cc[a] <- cc[a] + lambda
    cc[a2] <- cc[a2] - lambda
    vals <- c(vals, sum(cc * (sqrt(L) + sign(cc) * sqrt(eps))^2))
  }
  max(vals)
}

test_that("lambda = 0 and alpha = 0 recover standard PCA", {
  dat <- make_groups(n = c(150, 100, 80), d = 7, seed = 3)
  std <- fair_pca(dat$x, dat$g, k = 2, scale. = TRUE, method = "standard")
  set.seed(1)
  fit <- fair_pca(dat$x, dat$g, k = 2, method = "robust", scale. = TRUE, alpha = 0, lambda = 0,
                  iterations = 300, restarts = 3)
  expect_lt(subspace_dist(fit$rotation, std$rotation), 1e-6)
  # the objective is then the average uncentred error of all rows: (n - 1)/n * (trace - top-k)
  n <- nrow(dat$x)
  ev <- eigen(cov(scale(dat$x)), symmetric = TRUE)$values
  expect_equal(fit$objective, (n - 1) / n * sum(ev[-(1:2)]), tolerance = 1e-8)
  # and Algorithm 1 reaches the PCA subspace from random starts, in both parameterisations
  prep <- robust_prep(d = 6, seed = 2)
  cons <- ns$robust_constants(prep, 2, c(0, 0), 0)
  pca <- eigen(prep$C, symmetric = TRUE)$vectors[, 1:2]
  set.seed(2)
  for (basis in c(TRUE, FALSE)) {
    X0 <- rand_stiefel(6, if (basis) 2 else 4)
    run <- ns$.fp_robust_run(unname(prep$second), cons$W, cons$R, cons$kappa, X0,
                             list(basis = basis, iterations = 3000L, step = 1 / sqrt(3001), polar = FALSE,
                                  keep_best = FALSE))
    V <- if (basis) run$X else ns$fp_complement(run$X, 2)
    expect_lt(subspace_dist(V, pca), 1e-4)
    expect_true(all(diff(run$history) <= 1e-10))  # smooth objective: monotone at this step
  }
})

test_that("the Euclidean gradient matches finite differences and the Riemannian one is tangent", {
  set.seed(4)
  for (m in c(2, 3)) {
    prep <- robust_prep(n = c(120, 90, 60)[seq_len(m)], d = 5, seed = 5)
    eps <- 0.3 / sqrt(as.numeric(prep$n))
    cons <- ns$robust_constants(prep, 2, eps, 0.4)
    M <- unname(prep$second)
    for (basis in c(TRUE, FALSE)) {
      X <- rand_stiefel(5, if (basis) 2 else 3)
      ev <- ns$.fp_robust_eval(M, cons$W, cons$R, cons$kappa, X, basis)
      f <- function(Y) {
        e <- ns$.fp_robust_eval(M, cons$W, cons$R, cons$kappa, Y, basis)
        e$pieces[ev$piece]  # the active piece, as a smooth function of X
      }
      h <- 1e-6
      fd <- X * 0
      for (i in seq_along(X)) {
        E <- X * 0
        E[i] <- h
        fd[i] <- (f(X + E) - f(X - E)) / (2 * h)
      }
      expect_equal(ev$gradient, fd, tolerance = 1e-6)
      rg <- ev$riemannian_gradient
      expect_lt(max(abs(crossprod(X, rg))), 1e-12)  # X'grad = 0: tangent
      expect_equal(rg, fd - X %*% crossprod(X, fd), tolerance = 1e-6)
    }
  }
})

test_that("iterates stay on the Stiefel manifold after every step", {
  dat <- make_groups(n = c(200, 150), d = 8, seed = 6)
  for (retr in c("qr", "polar")) for (pz in c("basis", "complement")) {
    set.seed(7)
    # the constant step may end above the best iterate (a convergence warning): not tested here
    fit <- suppressWarnings(fair_pca(dat$x, dat$g, k = 3, method = "robust", scale. = TRUE, iterations = 150,
                                     restarts = 2, retraction = retr, parameterization = pz),
                            classes = "fairproj_convergence_warning")
    expect_lt(fit$orthogonality_error, 1e-12)
    expect_equal(crossprod(fit$rotation), diag(3), tolerance = 1e-12, ignore_attr = TRUE)
    expect_equal(fit$history$objective[151], fit$restart_objectives[fit$best_start])
    expect_equal(fit$best_iterate, 150L)
    expect_equal(min(fit$restart_objectives), fit$restart_objectives[fit$best_start])
  }
})

test_that("the objective equals the direct worst-case computation (two and more groups)", {
  for (m in c(2, 3, 4)) {
    dat <- make_groups(n = c(150, 120, 90, 70)[seq_len(m)], d = 6, seed = 10 + m)
    set.seed(m)
    fit <- fair_pca(dat$x, dat$g, k = 2, method = "robust", scale. = TRUE, alpha = 0.5,
                    lambda = 0.3, iterations = 200, restarts = 2)
    prep <- ns$fp_prepare(group_moments(dat$x, dat$g), TRUE, TRUE)
    V <- unclass(fit$rotation)
    expect_equal(fit$objective, direct_objective(prep, V, fit$radius, fit$lambda), tolerance = 1e-10)
    expect_length(fit$pieces, m * (m - 1))
    # at a random subspace too (not only at the optimum)
    W <- rand_stiefel(6, 2)
    cons <- ns$robust_constants(prep, 2, fit$radius, 0.3)
    ev <- ns$.fp_robust_eval(unname(prep$second), cons$W, cons$R, cons$kappa, W, TRUE)
    expect_equal(ev$value, direct_objective(prep, W, fit$radius, 0.3), tolerance = 1e-10)
    if (m > 2) {
      # the printed Theorem B.2 (without sum_b p_b (L_b + eps_b)) is a different function of V
      p <- as.numeric(prep$n) / prep$n_total
      L <- ev$L
      printed <- max(ev$pieces - sum(p * (L + fit$radius)))
      expect_gt(abs(printed - ev$value), 0.1)
    }
  }
})

test_that("two groups: the pieces are J_0 and J_1 of Theorem 3.2 with the constants (6c)", {
  prep <- robust_prep(n = c(300, 100), d = 6, seed = 8)
  p <- as.numeric(prep$n) / prep$n_total
  eps <- 0.15 / sqrt(as.numeric(prep$n))
  lam <- 0.5  # > p_1 = 0.25: a negative coefficient, absolute value in vartheta
  cons <- ns$robust_constants(prep, 2, eps, lam)
  expect_true(cons$exact)
  set.seed(9)
  V <- rand_stiefel(6, 2)
  P <- diag(6) - tcrossprod(V)
  M0 <- prep$second[[1]]
  M1 <- prep$second[[2]]
  L0 <- sum(P * M0)
  L1 <- sum(P * M1)
  J0 <- (p[1] + lam) * eps[1] + (p[2] - lam) * eps[2] + 2 * abs(p[1] + lam) * sqrt(eps[1]) * sqrt(L0) +
    2 * abs(p[2] - lam) * sqrt(eps[2]) * sqrt(L1) + sum(P * ((p[1] + lam) * M0 + (p[2] - lam) * M1))
  J1 <- (p[2] + lam) * eps[2] + (p[1] - lam) * eps[1] + 2 * abs(p[2] + lam) * sqrt(eps[2]) * sqrt(L1) +
    2 * abs(p[1] - lam) * sqrt(eps[1]) * sqrt(L0) + sum(P * ((p[2] + lam) * M1 + (p[1] - lam) * M0))
  ev <- ns$.fp_robust_eval(unname(prep$second), cons$W, cons$R, cons$kappa, V, TRUE)
  expect_equal(ev$pieces, c(J0, J1), tolerance = 1e-12)
  # with lambda = 0 the pieces coincide for any radius
  cons0 <- ns$robust_constants(prep, 2, eps, 0)
  ev0 <- ns$.fp_robust_eval(unname(prep$second), cons0$W, cons0$R, cons0$kappa, V, TRUE)
  expect_equal(ev0$pieces[1], ev0$pieces[2])
})

test_that("the exactness condition is checked and lambda falls back to min(p_a)", {
  set.seed(11)
  # nearly one-dimensional data: the d - k smallest eigenvalues of M_a are tiny
  n <- c(60, 20)
  z <- rnorm(sum(n))
  x <- cbind(z, z + 1e-4 * rnorm(sum(n)), z + 1e-4 * rnorm(sum(n)))
  g <- rep(1:2, n)
  # 20 steps with alpha = 5 end far above the standard-PCA start, which is returned: a convergence warning
  expect_warning(
    expect_warning(fit <- fair_pca(x, g, k = 1, method = "robust", scale. = TRUE, alpha = 5, lambda = 2,
                                   iterations = 20, restarts = 0),
                   class = "fairproj_robust_lambda"),
    class = "fairproj_convergence_warning")
  expect_false(fit$exact)
  expect_equal(fit$lambda, min(n) / sum(n))
  expect_equal(fit$lambda_requested, 2)
  # lambda below every p_a: always exact, no warning
  expect_no_warning(fit2 <- fair_pca(x, g, k = 1, method = "robust", scale. = TRUE, alpha = 5,
                                     lambda = 0.2, iterations = 20, restarts = 0, iterate = "best"))
  expect_true(fit2$exact)
})

test_that("both parameterisations follow the same path and reach the same objective", {
  dat <- make_groups(n = c(200, 80), d = 7, seed = 12)
  fits <- lapply(c("basis", "complement"), function(pz) {
    set.seed(13)
    fair_pca(dat$x, dat$g, k = 2, method = "robust", scale. = TRUE, iterations = 400, restarts = 3,
             parameterization = pz, iterate = "best")
  })
  expect_equal(fits[[1]]$objective, fits[[2]]$objective, tolerance = 1e-4)
  # from the standard-PCA start the iterates agree to first order in the step
  # (the last iterate may be above the best one, a convergence warning: the paths are tested here)
  h <- lapply(c("basis", "complement"), function(pz) {
    suppressWarnings(fair_pca(dat$x, dat$g, k = 2, method = "robust", scale. = TRUE, iterations = 5, restarts = 0,
                              parameterization = pz), classes = "fairproj_convergence_warning")$history$objective
  })
  expect_equal(h[[1]], h[[2]], tolerance = 1e-3)
  # the best iterate is never worse than the last one
  set.seed(13)
  last <- suppressWarnings(fair_pca(dat$x, dat$g, k = 2, method = "robust", scale. = TRUE, iterations = 400,
                                    restarts = 3), classes = "fairproj_convergence_warning")
  expect_lte(fits[[1]]$objective, last$objective + 1e-12)
})

test_that("results are reproducible with set.seed() and arguments are validated", {
  dat <- make_groups(n = c(100, 80), d = 5, seed = 14)
  set.seed(15)
  a <- fair_pca(dat$x, dat$g, k = 2, method = "robust", iterations = 50, restarts = 2)
  set.seed(15)
  b <- fair_pca(dat$x, dat$g, k = 2, method = "robust", iterations = 50, restarts = 2)
  expect_identical(a$rotation, b$rotation)
  expect_s3_class(a, "fair_pca_robust")
  expect_error(fair_pca(dat$x, dat$g, k = 5, method = "robust"), class = "fairproj_input_error", regexp = "`k`")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "robust", alpha = -1), class = "fairproj_input_error", regexp = "`alpha`")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "robust", lambda = NA), class = "fairproj_input_error", regexp = "`lambda`")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "robust", retraction = "exp"), class = "fairproj_input_error", regexp = "`retraction`")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "robust", parameterization = "x"), class = "fairproj_input_error", regexp = "`parameterization`")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "robust", radius = c(1, -1)), class = "fairproj_input_error", regexp = "`radius`")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "robust", iterations = 1.5), class = "fairproj_input_error", regexp = "`iterations`")
  # explicit radii, named by group
  set.seed(16)
  # 20 steps end above the standard-PCA start, which is returned with a convergence warning
  expect_warning(r <- fair_pca(dat$x, dat$g, k = 2, method = "robust", radius = c(b = 0.1, a = 0.2),
                               iterations = 20, restarts = 0),
                 class = "fairproj_convergence_warning")
  expect_equal(unname(r$radius), c(0.2, 0.1))
})

test_that("step_limit marks where the constant-step iteration becomes unstable", {
  set.seed(17)
  z <- matrix(rnorm(400 * 2), 400, 2)
  x <- cbind(z[, 1] + 0.1 * matrix(rnorm(400 * 8), 400, 8), z[, 2], rnorm(400))  # top eigenvalue ~ 8
  g <- rep(1:2, c(250, 150))
  base <- fair_pca(x, g, k = 2, method = "robust", scale. = TRUE, alpha = 0, lambda = 0,
                   iterations = 0, restarts = 0)
  lim <- base$step_limit
  expect_gt(lim, 0)
  ok <- fair_pca(x, g, k = 2, method = "robust", scale. = TRUE, alpha = 0, lambda = 0,
                 iterations = 200, restarts = 0, step = 0.5 * lim)
  # beyond the bound the iteration moves away from the optimum: with keep_start = FALSE the
  # diverged iterate is returned (with a warning), by default the start is returned instead
  # two warnings: the run ends above its start, and its last iterate far above its best one
  expect_warning(
    expect_warning(bad <- fair_pca(x, g, k = 2, method = "robust", scale. = TRUE, alpha = 0, lambda = 0,
                                   iterations = 200, restarts = 0, step = 3 * lim, keep_start = FALSE),
                   class = "fairproj_convergence_warning"),
    class = "fairproj_convergence_warning")
  expect_equal(ok$objective, base$objective, tolerance = 1e-8)
  expect_gt(bad$objective, base$objective + 0.1)
  expect_warning(safe <- fair_pca(x, g, k = 2, method = "robust", scale. = TRUE, alpha = 0, lambda = 0,
                                  iterations = 200, restarts = 0, step = 3 * lim),
                 class = "fairproj_convergence_warning")
  expect_equal(safe$returned, "start")
  expect_equal(safe$objective, base$objective, tolerance = 1e-8)
  # the default step is at most the stability bound, so the same data need no care
  dflt <- fair_pca(x, g, k = 2, method = "robust", scale. = TRUE, alpha = 0, lambda = 0,
                   iterations = 200, restarts = 0)
  expect_lte(dflt$step, dflt$step_limit)
  expect_equal(dflt$objective, base$objective, tolerance = 1e-8)
})

test_that("on the paper's Figure 1 toy data RFPCA moves from PCA (no penalty) to FairPCA (heavy penalty)", {
  rgauss <- function(n, S) matrix(stats::rnorm(n * 2), n, 2) %*% chol(S)
  set.seed(1)
  x <- rbind(rgauss(200, diag(c(4, 0.2))), rgauss(100, matrix(c(0.2, 0.4, 0.4, 3), 2)))
  g <- rep(0:1, c(200, 100))
  angle <- function(u, v) acos(min(1, abs(sum(u * v)))) * 180 / pi
  pca <- fair_pca(x, g, 1, method = "standard", center = FALSE)$rotation[, 1]
  mm <- fair_pca(x, g, 1, method = "minmax", center = FALSE)$rotation[, 1]
  expect_gt(angle(pca, mm), 20)  # the two ends are far apart
  r0 <- fair_pca(x, g, 1, method = "robust", lambda = 0, alpha = 0, center = FALSE)$rotation[, 1]
  expect_lt(angle(r0, pca), 1e-3)
  ang_fair <- vapply(c(0.5, 1, 2.5), function(l) {
    angle(fair_pca(x, g, 1, method = "robust", lambda = l, alpha = 0, center = FALSE,
                   iterate = "best")$rotation[, 1], mm)
  }, numeric(1))
  expect_true(all(ang_fair < 1))
  # in between, the direction lies between the two ends
  mid <- fair_pca(x, g, 1, method = "robust", lambda = 0.1, alpha = 0, center = FALSE, iterate = "best")$rotation[, 1]
  expect_gt(angle(mid, pca), 2)
  expect_gt(angle(mid, mm), 2)
  expect_equal(angle(mid, pca) + angle(mid, mm), angle(pca, mm), tolerance = 1e-6)
})

test_that("a last iterate far above the best iterate visited is returned with a warning", {
  rgauss <- function(n, S) matrix(stats::rnorm(n * 2), n, 2) %*% chol(S)
  set.seed(1)
  x <- rbind(rgauss(200, diag(c(4, 0.2))), rgauss(100, matrix(c(0.2, 0.4, 0.4, 3), 2)))
  g <- rep(0:1, c(200, 100))
  # lambda = 2.5: the constant step jumps across the kink J_0 = J_1 (the paper's last iterate)
  warned <- 0L
  for (s in 1:6) {
    set.seed(s)
    w <- NULL
    f <- withCallingHandlers(fair_pca(x, g, 1, method = "robust", lambda = 2.5, alpha = 0, center = FALSE),
                             fairproj_convergence_warning = function(cnd) {
                               w <<- conditionMessage(cnd)
                               invokeRestart("muffleWarning")
                             })
    expect_lte(f$best_visited, f$objective * (1 + 1e-10))
    far <- f$objective > f$best_visited * 1.01
    expect_identical(!is.null(w), far)
    if (far) expect_match(w, "best iterate visited")
    warned <- warned + far
    set.seed(s)
    fb <- expect_no_warning(fair_pca(x, g, 1, method = "robust", lambda = 2.5, alpha = 0, center = FALSE,
                                     iterate = "best"))
    expect_equal(fb$objective, fb$best_visited, tolerance = 1e-8)
    expect_lte(fb$objective, f$objective * (1 + 1e-10))
  }
  expect_gt(warned, 0L)  # the case occurs on these data
})

test_that("on data standardised beforehand as the authors' code does, the radii and F are the paper's", {
  dat <- make_groups(n = c(160, 90), d = 6, seed = 31)
  x <- dat$x
  n <- nrow(x)
  # the authors' standardisation: population standard deviations (divisor N)
  z <- scale(x, scale = sqrt(colSums(sweep(x, 2L, colMeans(x))^2) / n))
  set.seed(2)
  # the best iterate (the constant step oscillates around the kink; F is that of any V)
  f <- fair_pca(z, dat$g, k = 2, method = "robust", iterations = 100, restarts = 0, iterate = "best")
  N <- as.numeric(table(dat$g))
  expect_equal(unname(f$radius), 0.15 / sqrt(N), tolerance = 1e-12)
  # Theorem 3.2's max(J_0, J_1) with the constants (6c), on the moments of z
  M <- lapply(split(as.data.frame(z), dat$g), function(a) crossprod(as.matrix(a)) / nrow(a))
  V <- f$rotation
  L <- vapply(M, function(s) sum(diag(s)) - sum((s %*% V) * V), 0)
  p <- N / n
  eps <- 0.15 / sqrt(N)
  lam <- f$lambda
  J <- function(a, b) (p[a] + lam) * (L[a] + eps[a]) + (p[b] - lam) * (L[b] + eps[b]) +
    2 * (p[a] + lam) * sqrt(eps[a] * L[a]) + 2 * abs(p[b] - lam) * sqrt(eps[b] * L[b])
  expect_equal(f$objective, max(J(1, 2), J(2, 1)), tolerance = 1e-10)
})

test_that("a fit estimated beyond the time limit is refused up front, saying how many restarts fit (#45)", {
  set.seed(1)
  x <- matrix(rnorm(200 * 60), 200)
  g <- rep(c("a", "b"), 100)
  old <- options(fairproj.time_limit = 0.5)
  on.exit(options(old))
  # 21 starts of 1,000 iterations over 60 columns, k = 5: about 1.2 s estimated
  e <- expect_refused_up_front(fair_pca(x, g, k = 5, method = "robust"), "restarts = ")
  n_fit <- as.integer(sub(".*restarts = ([0-9]+).*", "\\1", conditionMessage(e)))
  expect_silent(fairproj:::fp_robust_check_cost(60, 5, n_fit, 1000L, TRUE))
  options(fairproj.time_limit = 60)
  expect_silent(fairproj:::fp_robust_check_cost(60, 5, 20L, 1000L, TRUE))
})

test_that("many groups: the m (m - 1) pieces count in the estimate; 300 groups are refused up front", {
  # (a continuous attribute passed as the group: 200 groups took 8 minutes before)
  mg <- many_groups(6000, 300, 4, seed = 2)
  e <- expect_refused_up_front(suppressWarnings(fair_pca(mg$x, mg$g, k = 1, method = "robust")), "300 groups")
  expect_match(conditionMessage(e), "merge small groups", fixed = TRUE)
  # the estimate grows as m^3: 100 groups fit within the default limit, 300 not, whatever d
  expect_lt(fairproj:::fp_robust_check_cost(4, 1, 20L, 1000L, TRUE, 100L), 60)
  expect_error(fairproj:::fp_robust_check_cost(4, 1, 0L, 1000L, TRUE, 300L), class = "fairproj_cost_error")
})

test_that("a step far longer than the iterate keeps it orthonormal (fuzz seed 930410: rank 1, k = 2, scale 2e71)", {
  # duplicated and constant columns: a group's discarded moment L_b near 0 makes the sqrt(L_b)
  # term's gradient, and the step, huge; Gram-Schmidt then returned two parallel columns
  cs <- fz_case(930410)
  for (ret in c("qr", "polar")) for (par in c("basis", "complement")) {
    f <- suppressWarnings(fair_pca(cs$x * cs$scale, cs$g, k = 2, method = "robust", iterations = 60L, restarts = 1L,
                                   retraction = ret, parameterization = par))
    expect_lte(max(abs(crossprod(f$rotation) - diag(2))), 1e-12)
    expect_lte(f$orthogonality_error, 1e-12)
  }
})
