# Facts of Kleindessner et al. (2023), research extraction section 5.

proj_group_means <- function(s, g) rowsum(s, g) / as.vector(table(g))
null_basis <- function(B) {  # orthonormal basis of the complement of span(B), by SVD
  s <- svd(B, nu = nrow(B))
  r <- sum(s$d > 1e-10 * max(s$d))
  s$u[, -seq_len(r), drop = FALSE]
}

test_that("two groups: U'U = I, equal projected means, X z = (n0 n1 / n)(mu1 - mu0), zero covariance", {
  dat <- make_groups(n = c(160, 90), d = 8, seed = 2)
  fit <- fair_pca(dat$x, dat$g, k = 3, method = "mean")
  U <- fit$rotation
  expect_equal(crossprod(U), diag(3), tolerance = 1e-13, ignore_attr = TRUE)
  pm <- proj_group_means(predict(fit, dat$x), dat$g)
  expect_lt(max(abs(pm[1, ] - pm[2, ])), 1e-12 * max(abs(predict(fit, dat$x))))
  # the algebraic identity behind the constraint
  z <- as.numeric(dat$g == "b")
  zc <- z - mean(z)
  xz <- crossprod(dat$x, zc)
  mu <- rowsum(dat$x, dat$g) / as.vector(table(dat$g))
  expect_equal(drop(xz), (160 * 90 / 250) * (mu[2, ] - mu[1, ]), tolerance = 1e-12, ignore_attr = TRUE)
  expect_lt(max(abs(crossprod(U, xz))), 1e-10 * sqrt(sum(xz^2)))
  # Cov(w'U'x, z) = 0 for random w
  w <- rnorm(3)
  expect_lt(abs(cov(drop(dat$x %*% U %*% w), z)), 1e-12)
  expect_equal(fit$feasible_dim, 7)
  expect_equal(fit$constraint_rank, 1)
})

test_that("the solution is PCA in the complement of the mean difference (Algorithm 1 by brute force)", {
  dat <- make_groups(n = c(100, 120), d = 7, seed = 5)
  for (ce in c(TRUE, FALSE)) {
    fit <- fair_pca(dat$x, dat$g, k = 3, method = "mean", center = ce)
    xc <- if (ce) scale(dat$x, scale = FALSE) else dat$x
    zc <- as.numeric(dat$g == "a") - mean(dat$g == "a")
    R <- null_basis(crossprod(xc, zc))             # d x (d - 1)
    A <- eigen(crossprod(R, crossprod(xc) %*% R), symmetric = TRUE)$vectors[, 1:3]
    expect_lt(subspace_dist(fit$rotation, R %*% A), 1e-9)
    # retained variance at most PCA's
    p <- fair_pca(dat$x, dat$g, k = 3, center = ce, method = "standard")
    expect_lte(sum(fit$sdev^2), sum(p$sdev^2) + 1e-10)
    # no feasible projection does better (random feasible frames)
    C <- crossprod(xc) / (nrow(xc) - 1)
    best <- sum(diag(crossprod(fit$rotation, C %*% fit$rotation)))
    for (i in 1:20) {
      Ur <- R %*% qr.Q(qr(matrix(rnorm(6 * 3), 6, 3)))
      expect_lte(sum(diag(crossprod(Ur, C %*% Ur))), best + 1e-10)
    }
  }
})

test_that("equal group means: the result is standard PCA", {
  dat <- make_groups(n = c(100, 80, 60), d = 6, seed = 7)
  x <- dat$x
  for (l in levels(dat$g)) x[dat$g == l, ] <- scale(x[dat$g == l, ], scale = FALSE)
  x <- x + matrix(1:6, nrow(x), 6, byrow = TRUE)
  fit <- fair_pca(x, dat$g, k = 3, method = "mean")
  std <- fair_pca(x, dat$g, k = 3, method = "standard")
  expect_equal(fit$constraint_rank, 0)
  expect_lt(subspace_dist(fit$rotation, std$rotation), 1e-10)
  expect_equal(fit$sdev, std$sdev, tolerance = 1e-10)
  expect_equal(fit$feasible_dim, 6)
  expect_silent(fair_pca(x, dat$g, k = 6, method = "mean"))
})

test_that("m groups: all projected means equal; feasible dimension d - rank; k beyond it errors", {
  dat <- make_groups(n = c(80, 70, 60, 50), d = 6, seed = 11)
  fit <- fair_pca(dat$x, dat$g, k = 3, method = "mean")
  pm <- proj_group_means(predict(fit, dat$x), dat$g)
  expect_lt(max(abs(sweep(pm, 2L, pm[1, ]))), 1e-12 * max(abs(pm)) + 1e-13)
  expect_equal(fit$constraint_rank, 3)
  expect_equal(fit$feasible_dim, 3)
  expect_error(fair_pca(dat$x, dat$g, k = 4, method = "mean"), class = "fairproj_infeasible_k")
  expect_error(fair_pca(dat$x, dat$g, k = 4, method = "mean"), "feasible dimension 3")
  # brute force: PCA in the complement of all mean differences
  mu <- rowsum(dat$x, dat$g) / as.vector(table(dat$g))
  R <- null_basis(t(sweep(mu, 2L, colMeans(dat$x))))
  C <- cov(dat$x)
  A <- eigen(crossprod(R, C %*% R), symmetric = TRUE)$vectors
  expect_lt(subspace_dist(fit$rotation, R %*% A), 1e-9)
  # fits from moments and from data agree
  fm <- fair_pca(group_moments(dat$x, dat$g), k = 3, method = "mean")
  expect_lt(subspace_dist(fm$rotation, fit$rotation), 1e-12)
})

test_that("several attributes at once and a continuous attribute", {
  dat <- make_groups(n = c(150, 150), d = 7, seed = 13)
  set.seed(14)
  race <- factor(sample(c("p", "q", "r"), 300, TRUE))
  x <- dat$x + outer(as.numeric(race), c(1, -1, 0.5, 0, 0, 2, 0))
  age <- x[, 1] + rnorm(300)
  fit <- fair_pca(x, dat$g, k = 3, method = "mean", attributes = data.frame(race = race, age = age))
  s <- predict(fit, x)
  tol <- 1e-12 * max(abs(s))
  pg <- proj_group_means(s, dat$g)
  pr <- proj_group_means(s, race)
  expect_lt(max(abs(pg[1, ] - pg[2, ])), tol)
  expect_lt(max(abs(sweep(pr, 2L, pr[1, ]))), tol)
  expect_lt(max(abs(cov(s, age))), 1e-10)
  expect_equal(fit$constraint_rank, 4)   # 1 (group) + 2 (race) + 1 (age)
  expect_equal(crossprod(fit$rotation), diag(3), tolerance = 1e-13, ignore_attr = TRUE)
  # the continuous attribute alone; a binary 0/1 numeric attribute is the group constraint
  fc <- fair_pca(x, dat$g, k = 3, method = "mean", attributes = list(age = age), use_group = FALSE)
  expect_equal(fc$constraint_rank, 1)
  expect_lt(max(abs(cor(predict(fc, x), age))), 1e-12)
  fb <- fair_pca(x, dat$g, k = 3, method = "mean", attributes = as.numeric(dat$g == "a"), use_group = FALSE)
  fg <- fair_pca(x, dat$g, k = 3, method = "mean")
  expect_lt(subspace_dist(fb$rotation, fg$rotation), 1e-10)
  expect_error(fair_pca(group_moments(x, dat$g), k = 2, method = "mean", attributes = age),
               class = "fairproj_input_error")
  expect_error(fair_pca(x, dat$g, k = 2, method = "mean", attributes = age[-1]), "attributes")
  expect_error(fair_pca(x, dat$g, k = 2, method = "mean", use_group = FALSE), class = "fairproj_input_error")
})

test_that("Fair PCA-S: means still matched, covariance bound holds, L = d - 1 gives plain fair PCA", {
  dat <- make_groups(n = c(200, 150), d = 10, seed = 17)
  for (L in c(3, 5, 0.5)) {
    fit <- fair_pca(dat$x, dat$g, k = 2, method = "mean", equalize_cov = L)
    U <- fit$rotation
    expect_equal(fit$equalize_cov, if (L < 1) 5L else max(2L, L))
    expect_equal(crossprod(U), diag(2), tolerance = 1e-12, ignore_attr = TRUE)
    pm <- proj_group_means(predict(fit, dat$x), dat$g)
    expect_lt(max(abs(pm[1, ] - pm[2, ])), 1e-11)
    S <- lapply(levels(dat$g), function(l) cov(dat$x[dat$g == l, ]))
    dif <- crossprod(U, (S[[1]] - S[[2]]) %*% U)
    expect_lte(max(abs(eigen(dif, symmetric = TRUE)$values)), fit$cov_bound + 1e-10)
  }
  # smaller L: tighter covariance match, less variance
  f3 <- fair_pca(dat$x, dat$g, k = 2, method = "mean", equalize_cov = 3)
  f8 <- fair_pca(dat$x, dat$g, k = 2, method = "mean", equalize_cov = 8)
  expect_lte(f3$cov_bound, f8$cov_bound)
  expect_lte(sum(f3$sdev^2), sum(f8$sdev^2) + 1e-10)
  full <- fair_pca(dat$x, dat$g, k = 2, method = "mean", equalize_cov = 9)
  plain <- fair_pca(dat$x, dat$g, k = 2, method = "mean")
  expect_lt(subspace_dist(full$rotation, plain$rotation), 1e-8)
  # m groups: the per-group bound ||U'(S_g - S)U|| <= s / sqrt(w_g)
  d3 <- make_groups(n = c(100, 120, 140), d = 8, seed = 19)
  f <- fair_pca(d3$x, d3$g, k = 2, method = "mean", equalize_cov = 4)
  S <- lapply(levels(d3$g), function(l) cov(d3$x[d3$g == l, ]))
  w <- as.vector(table(d3$g)) / nrow(d3$x)
  Sbar <- Reduce(`+`, Map(`*`, S, w))
  for (i in 1:3) {
    dif <- crossprod(f$rotation, (S[[i]] - Sbar) %*% f$rotation)
    expect_lte(max(abs(eigen(dif, symmetric = TRUE)$values)), f$cov_bound[[i]] + 1e-10)
  }
  pm <- proj_group_means(predict(f, d3$x), d3$g)
  expect_lt(max(abs(sweep(pm, 2L, pm[1, ]))), 1e-11)
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "mean", equalize_cov = 2.5), class = "fairproj_input_error")
})

test_that("trade-off representation: [fair, lambda^p * standard] scores", {
  dat <- make_groups(n = c(100, 100), d = 6, seed = 23)
  std <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  f0 <- fair_pca(dat$x, dat$g, k = 2, method = "mean", tradeoff = 0)
  fair <- fair_pca(dat$x, dat$g, k = 2, method = "mean")
  s0 <- predict(f0, dat$x)
  expect_equal(ncol(s0), 4)
  expect_equal(unname(s0[, 3:4]), matrix(0, 200, 2))
  expect_equal(unname(s0[, 1:2]), unname(predict(fair, dat$x)))
  expect_equal(f0$x, s0)
  for (p in c(1, 3)) {
    f <- fair_pca(dat$x, dat$g, k = 2, method = "mean", tradeoff = 0.5, tradeoff_power = p)
    s <- predict(f, dat$x)
    expect_equal(abs(unname(s[, 3:4])), 0.5^p * abs(unname(predict(std, dat$x))), tolerance = 1e-8)
  }
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "mean", tradeoff = 2), class = "fairproj_input_error")
})

test_that("equal opportunity: the fit on the positive rows only", {
  dat <- make_groups(n = c(150, 130), d = 6, seed = 29)
  set.seed(30)
  y <- rbinom(280, 1, 0.4)
  fit <- fair_pca(dat$x, dat$g, k = 3, method = "mean", constraint = "opportunity", y = y)
  pos <- y == 1
  ref <- fair_pca(dat$x[pos, ], dat$g[pos], k = 3, method = "mean")
  expect_lt(subspace_dist(fit$rotation, ref$rotation), 1e-10)
  pm <- proj_group_means(predict(fit, dat$x[pos, ]), dat$g[pos])
  expect_lt(max(abs(pm[1, ] - pm[2, ])), 1e-11)
  expect_error(fair_pca(dat$x, dat$g, k = 3, method = "mean", constraint = "opportunity"), "y")
  expect_error(fair_pca(dat$x, dat$g, k = 3, method = "mean", y = y), class = "fairproj_input_error")
  expect_error(fair_pca(group_moments(dat$x, dat$g), k = 3, method = "mean", constraint = "opportunity", y = y),
               class = "fairproj_input_error")
})

test_that("formula interface, print, and validation of the arguments", {
  dat <- make_groups(n = c(60, 50), d = 4, seed = 47)
  df <- data.frame(dat$x, grp = dat$g)
  f1 <- fair_pca(~ x1 + x2 + x3 + x4, data = df, group = grp, k = 2, method = "mean")
  f2 <- fair_pca(dat$x, dat$g, k = 2, method = "mean")
  expect_lt(subspace_dist(f1$rotation, f2$rotation), 1e-12)
  expect_output(print(fair_pca(dat$x, dat$g, k = 2, method = "mean", equalize_cov = 2, tradeoff = 0.3)),
                "Trade-off representation")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "mean", constraint = "odds"), class = "fairproj_input_error")
  # a vector of choices is an error, not its first element
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "mean",
                        constraint = c("opportunity", "parity")),
               class = "fairproj_input_error", regexp = "^`constraint`")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "mean", tradeoff_power = 0), class = "fairproj_input_error")
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "mean", foo = 1), class = "fairproj_input_error")
  expect_true("mean" %in% fairproj_methods())
})

test_that("retained variance equals PCA's exactly when the mean difference is orthogonal to the top-k PCA space", {
  set.seed(59)
  n <- 400
  g <- factor(rep(c("a", "b"), each = n / 2))
  x <- matrix(rnorm(n * 5), n, 5) %*% diag(c(5, 4, 3, 2, 1))
  x[, 5] <- x[, 5] + ifelse(g == "a", 1, -1)   # shift along the smallest-variance axis only
  std <- fair_pca(x, g, k = 2, method = "standard")
  expect_lt(max(abs(crossprod(std$rotation, c(0, 0, 0, 0, 1)))), 0.2)  # the shift is (nearly) outside
  # make the top-2 PCA space exactly orthogonal to the mean difference: project it out
  v <- colMeans(x[g == "a", ]) - colMeans(x[g == "b", ])
  fit <- fair_pca(x, g, k = 2, method = "mean")
  P <- diag(5) - tcrossprod(v) / sum(v^2)
  C <- cov(x)
  top <- eigen(P %*% C %*% P, symmetric = TRUE)$vectors[, 1:2]
  expect_lt(subspace_dist(fit$rotation, top), 1e-9)
  expect_lte(sum(fit$sdev^2), sum(std$sdev^2))
  # exact equality: equal group means in columns 1-4, a shift in column 5 uncorrelated with them
  xe <- x
  for (l in levels(g)) xe[g == l, 1:4] <- scale(xe[g == l, 1:4], scale = FALSE)
  xe[, 5] <- ifelse(g == "a", 1, -1) + residuals(lm(rnorm(n) ~ xe[, 1:4] - 1))
  fe <- fair_pca(xe, g, k = 2, method = "mean")
  se <- fair_pca(xe, g, k = 2, method = "standard")
  ve <- colMeans(xe[g == "a", ]) - colMeans(xe[g == "b", ])
  expect_lt(max(abs(crossprod(se$rotation, ve))), 1e-8 * sqrt(sum(ve^2)))  # v is orthogonal to the PCA space
  expect_equal(sum(fe$sdev^2), sum(se$sdev^2), tolerance = 1e-10)
  expect_lt(subspace_dist(fe$rotation, se$rotation), 1e-8)
})
