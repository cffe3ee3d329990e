# MbF-PCA (Lee et al. 2022): MMD^2 and its gradient, MMD^2 decreasing with tau, reduction to PCA,
# subsampling, input checks.

mb_data <- function(seed = 1, n = c(110, 70), d = 5) {
  set.seed(seed)
  g <- factor(rep(c("a", "b"), n))
  x <- matrix(rnorm(sum(n) * d), sum(n), d) %*% matrix(rnorm(d * d), d)
  x[g == "b", 1:2] <- x[g == "b", 1:2] + 1.5
  x[g == "b", 3] <- x[g == "b", 3] * 2.5
  list(x = x, g = g)
}

# MMD^2 from its definition (biased V-statistic, Gaussian kernel)
mmd2_direct <- function(y1, y0, sigma) {
  k <- function(a, b) exp(-as.matrix(stats::dist(rbind(a, b)))^2 / (2 * sigma^2))
  K <- k(y1, y0)
  n1 <- nrow(y1); n0 <- nrow(y0)
  i1 <- seq_len(n1); i0 <- n1 + seq_len(n0)
  mean(K[i1, i1]) + mean(K[i0, i0]) - 2 * mean(K[i1, i0])
}

test_that("the MMD^2 kernel sum and its gradient match the definition and finite differences", {
  dd <- mb_data(n = c(30, 20), d = 4)
  z <- scale(dd$x, scale = FALSE)
  gi <- as.integer(dd$g == "b")
  V <- qr.Q(qr(matrix(rnorm(8), 4)))
  res <- fairproj:::.fp_mmd2(z, gi, V, 1.3, TRUE)
  expect_equal(res$value, mmd2_direct(z[gi == 1, ] %*% V, z[gi == 0, ] %*% V, 1.3), tolerance = 1e-12)
  h <- 1e-6
  num <- V * 0
  for (i in seq_along(V)) {
    Vp <- V; Vp[i] <- Vp[i] + h
    Vm <- V; Vm[i] <- Vm[i] - h
    num[i] <- (fairproj:::.fp_mmd2(z, gi, Vp, 1.3, FALSE)$value -
               fairproj:::.fp_mmd2(z, gi, Vm, 1.3, FALSE)$value) / (2 * h)
  }
  expect_equal(res$gradient, num, tolerance = 1e-6)
})

test_that("MMD^2 at the solution is below tau and decreases with tau", {
  dd <- mb_data()
  set.seed(1)
  f2 <- fair_pca(dd$x, dd$g, k = 2, method = "mbfpca", tau = 1e-2)
  f3 <- fair_pca(dd$x, dd$g, k = 2, method = "mbfpca", tau = 1e-3)
  expect_true(f2$converged)
  expect_true(f3$converged)
  expect_lte(f2$mmd2, 1e-2)
  expect_lte(f3$mmd2, 1e-3)
  expect_gt(f2$mmd2_standard, f2$mmd2)
  expect_lt(f3$mmd2, f2$mmd2)
  # the price: less variance kept than standard PCA
  std <- fair_pca(dd$x, dd$g, k = 2, method = "standard")
  expect_lt(sum(f3$sdev^2), sum(std$sdev^2))
  expect_lte(sum(f3$sdev^2), sum(f2$sdev^2) + 1e-8)
  # the reported MMD^2 is that of the returned subspace
  z <- fairproj:::fp_transform(list(center = std$center, scale = FALSE), dd$x)
  gi <- dd$g == "b"
  expect_equal(f3$mmd2, mmd2_direct(z[gi, ] %*% f3$rotation, z[!gi, ] %*% f3$rotation, f3$sigma),
               tolerance = 1e-8)
  # the history records the exact-penalty loop: rho doubles while MMD^2 > tau
  h <- f3$history
  expect_true(all(diff(h$rho) >= 0))
  expect_true(all(h$rho[-1][h$mmd2[-nrow(h)] > 1e-3] == 2 * h$rho[-nrow(h)][h$mmd2[-nrow(h)] > 1e-3]))
})

test_that("with the fairness term off (tau above the MMD^2 of PCA) the result is standard PCA", {
  dd <- mb_data(seed = 2)
  fit <- fair_pca(dd$x, dd$g, k = 2, method = "mbfpca", tau = 10)
  std <- fair_pca(dd$x, dd$g, k = 2, method = "standard")
  expect_lt(subspace_dist(fit$rotation, std$rotation), 1e-10)
  expect_equal(fit$outer_iterations, 0L)
})

test_that("the median heuristic and subsampling follow their documentation", {
  dd <- mb_data(seed = 3, n = c(60, 40))
  std <- fair_pca(dd$x, dd$g, k = 2, method = "standard")
  fit <- fair_pca(dd$x, dd$g, k = 2, method = "mbfpca", tau = 10)
  y <- scale(dd$x, scale = FALSE) %*% std$rotation
  expect_equal(fit$sigma, sqrt(median(as.vector(dist(y))^2) / 2), tolerance = 1e-12)
  set.seed(5)
  a <- fair_pca(dd$x, dd$g, k = 2, method = "mbfpca", tau = 5e-3, max_rows = 50)
  set.seed(5)
  b <- fair_pca(dd$x, dd$g, k = 2, method = "mbfpca", tau = 5e-3, max_rows = 50)
  expect_equal(a$rows_used, 50L)
  expect_equal(a$rotation, b$rotation)
})

test_that("mbfpca needs the rows and validates its inputs", {
  dd <- mb_data(n = c(30, 20))
  m <- group_moments(dd$x, dd$g)
  expect_error(fair_pca(m, k = 2, method = "mbfpca"), class = "fairproj_input_error")
  expect_error(fair_pca(dd$x, dd$g, k = 2, method = "mbfpca", tau = 0), class = "fairproj_input_error")
  expect_error(fair_pca(dd$x, dd$g, k = 2, method = "mbfpca", sigma = -1), class = "fairproj_input_error")
  expect_error(fair_pca(dd$x, dd$g, k = 2, method = "mbfpca", init = "x"), class = "fairproj_input_error")
  g3 <- factor(rep(1:3, length.out = nrow(dd$x)))
  expect_error(fair_pca(dd$x, g3, k = 2, method = "mbfpca"), class = "fairproj_input_error")
})

test_that("the C++ loop reports each penalty update to a progress callback", {
  set.seed(1)
  x <- matrix(rnorm(400), 100)
  x[1:50, 1] <- x[1:50, 1] + 2
  gi <- rep(0:1, each = 50)
  z <- scale(x, scale = FALSE)
  C <- crossprod(z) / 99
  V0 <- eigen(C, symmetric = TRUE)$vectors[, 1:2]
  seen <- integer(0)
  opts <- list(sigma = 1, rho0 = 1, tau = 1e-6, maxit_outer = 4L, maxit_inner = 50L, fair_init = TRUE, solver = 0L)
  res <- fairproj:::.fp_mbfpca(z, gi, C, V0, opts, function(i) seen <<- c(seen, i))
  expect_gte(res$outer_iterations, 1)
  expect_equal(seen, seq_len(res$outer_iterations))
})

test_that("a fit estimated beyond the time limit is refused up front, naming max_rows; a fit past it stops (#45)", {
  dd <- mb_data(n = c(2500, 1500), d = 5)
  t0 <- proc.time()[["elapsed"]]
  # 4,000 rows of MMD: several minutes at the default limit of 60 s
  e <- expect_error(fair_pca(dd$x, dd$g, k = 2, method = "mbfpca"), class = "fairproj_cost_error")
  expect_match(conditionMessage(e), "max_rows", fixed = TRUE)
  expect_lt(proc.time()[["elapsed"]] - t0, 5)
  # the rows the message suggests fit in the limit
  rows <- fairproj:::mbf_rows_for(2)
  expect_silent(fairproj:::mbf_check_cost(rows, 5, 2, 100L))
  expect_error(fairproj:::mbf_check_cost(2 * rows, 5, 2, 100L), class = "fairproj_cost_error")
  old <- options(fairproj.time_limit = Inf)
  on.exit(options(old))
  expect_silent(fairproj:::mbf_check_cost(4000, 5, 2, 100L))
  # a fit that runs past the limit stops after the penalty update in progress
  small <- mb_data(n = c(60, 40), d = 5)
  z <- scale(small$x)
  gi <- as.integer(small$g == "b")
  V0 <- qr.Q(qr(matrix(rnorm(10), 5)))
  opts <- list(sigma = 1, rho0 = 1, tau = 1e-12, maxit_outer = 50L, maxit_inner = 50L, fair_init = TRUE, solver = 0L,
               max_seconds = 0)
  res <- fairproj:::.fp_mbfpca(z, gi, crossprod(z) / 100, V0, opts, NULL)
  expect_true(res$timed_out)
  expect_identical(res$outer_iterations, 1L)
  expect_false(res$converged)
})
