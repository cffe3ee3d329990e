ns <- asNamespace("fairproj")

# The prepared problem as R's elementwise formulas build it, from the column weights and
# weighted means the prepared problem keeps (the reference for the compiled builder).
prepare_by_formula <- function(m, p) {
  w <- p$parts_second$w
  mu <- p$parts_second$mean
  cov <- lapply(seq_along(m$levels), function(i) (m$scatter[[i]] * tcrossprod(w)) / m$n[[i]])
  second <- lapply(seq_along(m$levels), function(i) cov[[i]] + tcrossprod(mu[, i]))
  C <- Reduce(`+`, lapply(seq_along(m$levels), function(i) second[[i]] * m$n[[i]])) / max(sum(m$n) - 1, 1)
  s <- sum(diag(C)) / length(w)
  C <- C / s
  dimnames(C) <- list(m$colnames, m$colnames)
  list(cov = stats::setNames(lapply(cov, function(a) a / s), m$levels), C = C, s = s,
       second = lapply(second, function(a) a / s))
}

test_that("the compiled builder of the prepared problem gives R's formulas to the last bit", {
  set.seed(11)
  x <- matrix(rnorm(240 * 12), 240, 12) %*% matrix(rnorm(144), 12)
  x[, 2] <- x[, 2] * 1e5
  colnames(x) <- paste0("v", 1:12)
  g <- sample(c("a", "b", "c"), 240, TRUE)
  m <- group_moments(x, g)
  for (args in list(list(TRUE, FALSE), list(TRUE, TRUE), list(FALSE, FALSE), list(colMeans(x) + 1, rep(3, 12)))) {
    p <- ns$fp_prepare_normalised(m, args[[1]], args[[2]])
    ref <- prepare_by_formula(m, p)
    expect_identical(p$cov, ref$cov)
    expect_identical(p$C, ref$C)
    expect_identical(p$parts_second$s, ref$s)
    expect_null(p[["second"]])  # second moments are built on demand, not held
    for (i in 1:3) expect_identical(ns$fp_prep_second(p, i), ref$second[[i]])
    # in the data's units they are held, as before
    pd <- ns$fp_prepare(m, args[[1]], args[[2]])
    expect_identical(pd$second, stats::setNames(lapply(ref$second, function(a) a * p$unit), m$levels))
  }
})

test_that("mean matching's complement gives R's formula to the last bit, and its dimnames", {
  set.seed(12)
  d <- 15
  S <- crossprod(matrix(rnorm(40 * d), 40, d))
  dimnames(S) <- list(paste0("r", 1:d), paste0("c", 1:d))
  for (r in 1:3) {
    Q <- qr.Q(qr(matrix(rnorm(d * r), d, r)))
    qrq <- qr(Q, LAPACK = TRUE)
    W <- qr.qty(qrq, t(qr.qty(qrq, S)))
    W <- W[-seq_len(r), -seq_len(r), drop = FALSE]
    expect_identical(ns$fp_mean_complement(Q)$to(S), (W + t(W)) / 2)
  }
})

test_that("a fit from moments holds few d x d matrices beyond them", {
  skip_on_cran()
  # gc()'s "max used" counts every vector allocated since the reset (garbage too): the fit's
  # peak. The prepared problem holds m + 1 = 3; before #48 these fits peaked at 14-20.
  set.seed(13)
  d <- 300
  x <- matrix(rnorm(600 * 20), 600, 20) %*% matrix(rnorm(20 * d), 20, d) + matrix(rnorm(600 * d, sd = 0.5), 600, d)
  m <- group_moments(x, rep(c("a", "b"), times = c(200, 400)))
  rm(x)
  for (method in c("standard", "mean", "minmax")) {
    fair_pca(m, k = 5, method = method)  # anything loaded once is not counted
    invisible(gc(reset = TRUE))
    v0 <- gc()["Vcells", "used"]
    fit <- fair_pca(m, k = 5, method = method)
    extra <- (gc()["Vcells", "max used"] - v0) * 8 / (d * d * 8)
    expect_lt(extra, 7)
    expect_s3_class(fit, "fair_pca")
  }
})
