# Kernel identities of the research extraction, section 5 item 6.

centred_kernel <- function(fit, x) {
  z <- sweep(sweep(x, 2L, fit$center), 2L, fit$scale, `/`)
  K <- fairproj:::fp_kernel(z, z, fit$kernel)
  n <- nrow(K)
  J <- diag(n) - 1 / n
  J %*% K %*% J
}

test_that("alpha' K alpha = I, Z' K alpha = 0, equal group means of the training embedding", {
  skip_if_not_installed("MASS")
  dat <- make_groups(n = c(60, 50, 40), d = 4, seed = 31)
  for (ker in c("rbf", "polynomial", "sigmoid")) {
    fit <- fair_kpca(dat$x, dat$g, k = 3, kernel = ker, gamma = if (ker == "sigmoid") 0.01 else "scale")
    K <- centred_kernel(fit, dat$x)
    a <- fit$alpha
    expect_equal(crossprod(a, K %*% a), diag(3), tolerance = 1e-8, ignore_attr = TRUE)
    Z <- sapply(levels(dat$g), function(l) (dat$g == l) - mean(dat$g == l))
    expect_lt(max(abs(crossprod(Z, K %*% a))), 1e-8 * max(abs(K)))
    s <- predict(fit, dat$x)
    expect_equal(s, fit$x)
    expect_equal(unname(s), unname(K %*% a), tolerance = 1e-8)
    pm <- rowsum(s, dat$g) / as.vector(table(dat$g))
    expect_lt(max(abs(sweep(pm, 2L, pm[1, ]))), 1e-9 * max(abs(s)))
    expect_true(all(diff(fit$eigenvalues) <= 1e-10))
    # n = 150 uses the Lanczos path: its eigenvalues match a dense solve of the downdate
    Kt <- K - K %*% Z %*% MASS::ginv(crossprod(Z, K %*% Z)) %*% crossprod(Z, K)
    expect_equal(fit$eigenvalues, eigen(Kt, symmetric = TRUE, only.values = TRUE)$values[1:3], tolerance = 1e-8)
  }
})

test_that("the eigenvalues are those of the authors' generalised eigenproblem (brute force)", {
  dat <- make_groups(n = c(30, 25), d = 3, seed = 37)
  fit <- fair_kpca(dat$x, dat$g, k = 4)
  K <- centred_kernel(fit, dat$x)
  zc <- (dat$g == "a") - mean(dat$g == "a")
  s <- svd(matrix(crossprod(zc, K), 1), nu = 0, nv = nrow(K))
  R <- s$v[, -1]                                   # null space of z'K
  H1 <- crossprod(R, K %*% K %*% R)
  H2 <- crossprod(R, K %*% R)
  e2 <- eigen(H2, symmetric = TRUE)
  keep <- e2$values > 1e-10 * e2$values[1]
  Tm <- e2$vectors[, keep] %*% diag(1 / sqrt(e2$values[keep]))
  theta <- eigen(crossprod(Tm, H1 %*% Tm), symmetric = TRUE, only.values = TRUE)$values[1:4]
  expect_equal(fit$eigenvalues, theta, tolerance = 1e-8)
  # and no feasible alpha does better than the fitted one (random feasible directions)
  best <- sum(diag(crossprod(fit$alpha, K %*% K %*% fit$alpha)))
  for (i in 1:10) {
    b <- qr.Q(qr(matrix(rnorm(ncol(Tm) * 4), ncol(Tm), 4)))
    al <- R %*% Tm %*% b
    expect_lte(sum(diag(crossprod(al, K %*% K %*% al))), best + 1e-8)
  }
})

test_that("a linear kernel on centred data gives linear mean-matching fair PCA", {
  dat <- make_groups(n = c(70, 60), d = 6, seed = 41)
  fk <- fair_kpca(dat$x, dat$g, k = 3, kernel = "linear")
  fl <- fair_pca(dat$x, dat$g, k = 3, method = "mean")
  # eigenvalues of R'X'XR (X centred) = the generalised eigenvalues; the scores span the same space
  expect_equal(fk$eigenvalues, fl$sdev^2 * (nrow(dat$x) - 1), tolerance = 1e-8)
  expect_equal(abs(unname(fk$x)), abs(unname(predict(fl, dat$x))), tolerance = 1e-6)
})

test_that("predict on new rows uses the training centring; trade-off; opportunity; size guard", {
  dat <- make_groups(n = c(60, 60), d = 5, seed = 43)
  tr <- c(1:45, 61:105)
  fit <- fair_kpca(dat$x[tr, ], dat$g[tr], k = 2)
  # new-row formula = the centred kernel block of the augmented matrix
  new <- dat$x[-tr, ]
  zt <- sweep(dat$x[tr, ], 2L, fit$center)
  zn <- sweep(new, 2L, fit$center)
  Ktr <- fairproj:::fp_kernel(zt, zt, fit$kernel)
  Kn <- fairproj:::fp_kernel(zn, zt, fit$kernel)
  n <- length(tr)
  one <- matrix(1 / n, nrow(new), n)
  Knc <- Kn - one %*% Ktr - Kn %*% matrix(1 / n, n, n) + one %*% Ktr %*% matrix(1 / n, n, n)
  expect_equal(unname(predict(fit, new)), unname(Knc %*% fit$alpha), tolerance = 1e-10)
  ft <- fair_kpca(dat$x, dat$g, k = 2, tradeoff = 0)
  expect_equal(ncol(ft$x), 4)
  expect_equal(unname(ft$x[, 3:4]), matrix(0, 120, 2))
  ft1 <- fair_kpca(dat$x, dat$g, k = 2, tradeoff = 0.5, tradeoff_power = 3)
  std <- fair_kpca(dat$x, dat$g, k = 2, tradeoff = 1)$x[, 3:4]
  expect_equal(ft1$x[, 3:4], 0.125 * std, tolerance = 1e-8)
  # kernel PCA block: the top eigenvectors of K scaled by sqrt(eigenvalue)
  K <- centred_kernel(ft1, dat$x)
  ev <- eigen(K, symmetric = TRUE)
  expect_equal(abs(unname(std)), abs(ev$vectors[, 1:2] %*% diag(sqrt(ev$values[1:2]))), tolerance = 1e-6)
  set.seed(44)
  y <- rbinom(120, 1, 0.5)
  fo <- fair_kpca(dat$x, dat$g, k = 2, constraint = "opportunity", y = y)
  fp <- fair_kpca(dat$x[y == 1, ], dat$g[y == 1], k = 2, center = fo$center)
  expect_equal(predict(fo, dat$x), predict(fp, dat$x), tolerance = 1e-8)
  expect_error(fair_kpca(dat$x, dat$g, k = 2, max_n = 100), class = "fairproj_too_large")
  expect_error(fair_kpca(dat$x, dat$g, k = 2, kernel = "cubic"), class = "fairproj_input_error")
  expect_error(fair_kpca(dat$x, dat$g, k = 2, gamma = -1), class = "fairproj_input_error")
  expect_error(fair_kpca(dat$x, dat$g, k = 5, kernel = "linear"), class = "fairproj_infeasible_k")
  expect_output(print(fit), "Fair kernel PCA")
})

test_that("fair_kpca with extra and continuous attributes", {
  dat <- make_groups(n = c(50, 50), d = 4, seed = 53)
  set.seed(54)
  race <- factor(sample(c("p", "q", "r"), 100, TRUE))
  age <- dat$x[, 1] + rnorm(100)
  fit <- fair_kpca(dat$x, dat$g, k = 3, attributes = data.frame(race = race, age = age))
  s <- fit$x
  tol <- 1e-9 * max(abs(s))
  pg <- rowsum(s, dat$g) / as.vector(table(dat$g))
  pr <- rowsum(s, race) / as.vector(table(race))
  expect_lt(max(abs(pg[1, ] - pg[2, ])), tol)
  expect_lt(max(abs(sweep(pr, 2L, pr[1, ]))), tol)
  expect_lt(max(abs(cov(s, age))), tol)
  fa <- fair_kpca(dat$x, dat$g, k = 3, attributes = list(age = age), use_group = FALSE)
  expect_lt(max(abs(cov(fa$x, age))), tol)
  expect_error(fair_kpca(dat$x, dat$g, k = 3, use_group = FALSE), class = "fairproj_input_error")
  expect_error(fair_kpca(dat$x, dat$g, k = 3, attributes = age[-1]), "attributes")
})

test_that("fair_kpca at extreme scales: same embedding or a classed error, never an overflow", {
  x <- as.matrix(iris[, 1:4])
  g <- iris$Species == "setosa"
  for (kern in c("rbf", "polynomial", "sigmoid", "linear")) {
    f1 <- fair_kpca(x, g, k = 2, kernel = kern)
    for (cc in c(1e-100, 1e60, 1e100)) {
      f <- fair_kpca(x * cc, g, k = 2, kernel = kern)
      s1 <- predict(f1, x)
      s <- predict(f, x * cc)
      # gamma = "scale" makes rbf, polynomial and sigmoid scale-free; linear scores scale with cc
      sc <- if (kern == "linear") cc else 1
      expect_equal(s / sc, s1, tolerance = 1e-6, info = paste(kern, cc))
    }
    # beyond about 1e+-120, where squares and inner products leave double precision, the
    # kernels that gamma = "scale" makes unit-free still give the same embedding
    if (kern != "linear") {
      for (cc in c(1e-300, 1e-200, 1e200, 1e300)) {
        f <- fair_kpca(x * cc, g, k = 2, kernel = kern)
        expect_equal(predict(f, x * cc), predict(f1, x), tolerance = 1e-6, info = paste(kern, cc))
        expect_equal(f$eigenvalues, f1$eigenvalues, tolerance = 1e-6, info = paste(kern, cc))
      }
    }
  }
  # a fixed gamma that makes the kernel constant on rows that differ: said so, not "constant data"
  e <- tryCatch(fair_kpca(x * 1e-200, g, k = 2, kernel = "polynomial", gamma = 1), error = function(e) e)
  expect_s3_class(e, "fairproj_input_error")
  expect_match(conditionMessage(e), "`kernel`.*constant to rounding.*rows differ")
  # fixed parameters that do not fit the data's scale: a classed error naming the kernel
  e <- tryCatch(fair_kpca(x * 1e60, g, k = 2, kernel = "polynomial", gamma = "auto"), error = function(e) e)
  expect_s3_class(e, "fairproj_input_error")
  expect_match(conditionMessage(e), "`kernel`.*non-finite")
})

test_that("the kernel parameters are checked up front, each error naming its argument", {
  dat <- make_groups(n = c(50, 50), d = 6, seed = 1)
  kp <- function(...) fair_kpca(dat$x, dat$g, k = 2, ...)
  expect_error(kp(kernel = "polynomial", degree = 1.5), "`degree` must be a single whole number",
               class = "fairproj_input_error")
  expect_error(kp(kernel = "polynomial", degree = 0), "`degree` must be between 1", class = "fairproj_input_error")
  expect_error(kp(kernel = "polynomial", degree = Inf), "`degree`", class = "fairproj_input_error")
  expect_error(kp(kernel = "polynomial", coef0 = Inf), "`coef0`", class = "fairproj_input_error")
  expect_error(kp(kernel = "sigmoid", coef0 = "a"), "`coef0` must be a single number", class = "fairproj_input_error")
  expect_error(kp(gamma = Inf), "`gamma`", class = "fairproj_input_error")
  expect_error(kp(gamma = -1), "`gamma`", class = "fairproj_input_error")
  expect_error(kp(tradeoff = 0.5, tradeoff_power = Inf), "`tradeoff_power`", class = "fairproj_input_error")
  # a vector of choices is an error, not its first element
  expect_error(kp(kernel = c("linear", "rbf")), class = "fairproj_input_error", regexp = "^`kernel`")
  expect_error(kp(kernel = NA_character_), class = "fairproj_input_error", regexp = "^`kernel`")
  expect_error(kp(constraint = c("opportunity", "parity")), class = "fairproj_input_error",
               regexp = "^`constraint`")
  expect_s3_class(kp(kernel = "polynomial", degree = 2L), "fair_kpca")
  # max_n is a count of rows: a fraction is refused, Inf is no limit
  for (bad in list(2.5, 5000.5, -Inf, NA)) {
    expect_error(kp(max_n = bad), "^`max_n` must be a single whole number", class = "fairproj_input_error")
  }
  expect_error(kp(max_n = 1), "^`max_n` must be a whole number >= 2", class = "fairproj_input_error")
  expect_s3_class(kp(max_n = Inf), "fair_kpca")
})

test_that("predict.fair_kpca() of no rows gives no rows, as predict.fair_pca() does", {
  set.seed(1)
  x <- matrix(rnorm(240), 60, 4, dimnames = list(NULL, paste0("c", 1:4)))
  g <- rep(c("a", "b"), 30)
  f <- fair_kpca(x, g, k = 2)
  expect_silent(s0 <- predict(f, x[0, , drop = FALSE]))
  expect_identical(dim(s0), c(0L, 2L))
  expect_identical(colnames(s0), colnames(predict(f, x[1:2, ])))
})

test_that("fair_kpca(scale. = TRUE) standardises a column of any finite magnitude alike", {
  set.seed(1)
  x <- matrix(rnorm(240), 60, 4)
  g <- rep(c("a", "b"), 30)
  f1 <- fair_kpca(x, g, k = 2, scale. = TRUE)
  # the column's squares would overflow (beyond about 1e154) or underflow (below about 1e-154);
  # standardised, it is the same column to rounding, so are the scores
  for (cc in c(1e-300, 1e-200, 1e-160, 1e-155, 1e155, 1e160, 1e200, 1e300)) {
    xs <- x
    xs[, 2] <- xs[, 2] * cc
    f <- fair_kpca(xs, g, k = 2, scale. = TRUE)
    expect_equal(f$x, f1$x, tolerance = 1e-12, info = format(cc))
    expect_equal(f$scale[[2]] / cc, f1$scale[[2]], tolerance = 1e-12, info = format(cc))
    expect_equal(predict(f, xs[1:5, ]), f1$x[1:5, ], tolerance = 1e-12, info = format(cc))
  }
  # every column near the largest double: the same embedding, with scale. = TRUE and without
  # (gamma = "scale" makes the rbf kernel unit-free)
  xm <- x / max(abs(x)) * 1.79e308
  expect_equal(fair_kpca(xm, g, k = 2, scale. = TRUE)$x, f1$x, tolerance = 1e-12)
  expect_equal(fair_kpca(xm, g, k = 2)$x, fair_kpca(x, g, k = 2)$x, tolerance = 1e-12)
  # deviations from the centre beyond double precision: a classed error without scale., a fit with
  xs <- x
  xs[, 1] <- c(rep(1.7e308, 59), -1.7e308)
  e <- tryCatch(suppressWarnings(fair_kpca(xs, g, k = 2)), error = identity)
  expect_s3_class(e, "fairproj_input_error")
  expect_match(conditionMessage(e), "^`x`.*scale. = TRUE")
  expect_true(all(is.finite(fair_kpca(xs, g, k = 2, scale. = TRUE)$x)))
  # a constant column, at any magnitude: the classed error naming it
  for (v in c(5, 5e300, 5e-300)) {
    xs <- x
    xs[, 3] <- v
    e <- tryCatch(fair_kpca(xs, g, k = 2, scale. = TRUE), error = identity)
    expect_s3_class(e, "fairproj_input_error")
    expect_match(conditionMessage(e), "^`scale.`.*constant.*V3")
  }
})

test_that("predict() and augment() of a fair_kpca fit refuse a misspelt newdata instead of ignoring it", {
  X <- as.matrix(iris[1:4])
  G <- iris$Species
  f <- fair_kpca(X, G, 2)
  for (fun in list(predict, augment)) {
    e <- expect_error(fun(f, new_data = X[1:5, ]), "^`\\.\\.\\.` has argument\\(s\\) that .* does not take: new_data",
                      class = "fairproj_input_error")
    expect_match(conditionMessage(e), "for `new_data` give `newdata`", fixed = TRUE)
  }
  expect_identical(dim(predict(f, newdata = X[1:5, ])), c(5L, 2L))
  expect_identical(nrow(augment(f, newdata = X[1:5, ])), 5L)
})

test_that("tol is checked to lie in [0, 1), the error naming `tol` rather than `k`", {
  X <- as.matrix(iris[1:4])
  G <- iris$Species
  for (t in list(1, 1.5, Inf, 1e10, -1, NA, "a")) {
    expect_error(fair_kpca(X, G, 2, tol = t), "^`tol` must be", class = "fairproj_input_error")
  }
  expect_s3_class(fair_kpca(X, G, 2, tol = 0), "fair_kpca")
  expect_s3_class(fair_kpca(X, G, 2, tol = 0.5), "fair_kpca")
})

test_that("summary() of a fair kernel PCA fit gives its components and its groups' score means", {
  dat <- make_groups(n = c(50, 40), d = 4, seed = 5)
  fit <- fair_kpca(dat$x, dat$g, k = 2)
  s <- summary(fit)
  expect_s3_class(s, "summary.fair_kpca")
  expect_equal(s$importance, as.data.frame(tidy(fit)), ignore_attr = TRUE)
  expect_equal(s$groups, as.data.frame(tidy(fit, "groups")), ignore_attr = TRUE)
  expect_identical(s$mean_gap, glance(fit)$mean_gap)
  # the fairness constraint: the groups' score means agree to rounding (scores are about 1)
  expect_lt(s$mean_gap, 1e-10)
  expect_output(print(s), "Per group and component")
  expect_output(print(summary(fair_kpca(dat$x, dat$g, k = 1)), digits = 3), "k = 1")
  expect_error(print(s, digits = NA), class = "fairproj_input_error", regexp = "^`digits`")
})

test_that("plot(), autoplot() and tidy(, \"plot\") of a one-component fit draw the scree plot", {
  dat <- make_groups(n = c(50, 40), d = 4, seed = 6)
  f1 <- fair_kpca(dat$x, dat$g, k = 1)
  pdf(NULL)
  on.exit(grDevices::dev.off())
  pd <- plot(f1)
  expect_equal(pd$value, f1$eigenvalues / f1$totalvar)
  expect_equal(tidy(f1, "plot")$value, pd$value)
  expect_error(plot(f1, "scores"), class = "fairproj_input_error", regexp = "^`x` has one component")
  skip_if_not_installed("ggplot2")
  expect_s3_class(ggplot2::autoplot(f1), "ggplot")
})

test_that("a sigmoid kernel whose components hold more than its trace says so", {
  set.seed(1)
  dat <- list(x = matrix(rnorm(300), 60, 5), g = rep(c("a", "b"), each = 30))
  expect_warning(f <- fair_kpca(dat$x, dat$g, k = 20, kernel = "sigmoid", gamma = 1, coef0 = 1),
                 class = "fairproj_indefinite_kernel_warning", regexp = "indefinite")
  # the fraction of variance it would report exceeds 1: not a share
  expect_gt(glance(f)$var_explained, 1)
  expect_no_warning(fair_kpca(dat$x, dat$g, k = 3, kernel = "sigmoid", gamma = 0.01))
  expect_no_warning(fair_kpca(dat$x, dat$g, k = 50))
})
