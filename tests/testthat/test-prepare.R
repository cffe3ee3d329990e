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

test_that("a problem prepared with lazy covariances builds each one as the eager problem holds it", {
  set.seed(14)
  x <- matrix(rnorm(300 * 10), 300, 10) %*% matrix(rnorm(100), 10)
  x[, 3] <- x[, 3] * 1e4
  colnames(x) <- paste0("v", 1:10)
  g <- sample(c("a", "b", "c", "d"), 300, TRUE)
  m <- group_moments(x, g)
  for (args in list(list(TRUE, FALSE), list(TRUE, TRUE), list(FALSE, FALSE))) {
    pe <- ns$fp_prepare_normalised(m, args[[1]], args[[2]])
    pl <- ns$fp_prepare_normalised(m, args[[1]], args[[2]], lazy_cov = TRUE)
    expect_null(pl[["cov"]])
    expect_null(pl[["C"]])  # C too is built on demand
    expect_identical(pl$parts_second$s, pe$parts_second$s)
    expect_identical(pl$unit, pe$unit)
    expect_identical(ns$fp_prep_C(pl), pe$C)
    expect_identical(ns$fp_prep_C_trace(pl), sum(diag(pe$C)))
    # group after group into the one work matrix, C in between, then back to the first, and by
    # level
    for (i in c(1:2, 0L, 3:4, 1L)) {
      if (i == 0L) {
        expect_identical(ns$fp_prep_C(pl), pe$C)
        next
      }
      expect_identical(ns$fp_prep_cov(pl, i), pe$cov[[i]])
      expect_identical(ns$fp_prep_cov_trace(pl, i), sum(diag(pe$cov[[i]])))
    }
    expect_identical(ns$fp_prep_cov(pl, "c"), pe$cov[["c"]])
    expect_identical(ns$fp_prep_C(pl), pe$C)
    # C in the work matrix for the caller to overwrite, which then holds nothing
    sc <- ns$fp_prep_C_scratch(pl)
    expect_identical(sc, pe$C)
    expect_null(pl$cache[["cov_work_group"]])
    expect_null(ns$fp_prep_C_scratch(pe))  # a held C is not handed out
    pn <- pl
    pn$cache <- NULL  # without a cache: a new matrix each time
    expect_identical(ns$fp_prep_cov(pn, 2L), pe$cov[[2]])
    expect_identical(ns$fp_prep_C(pn), pe$C)
    # the diagnostics of a fit are those of the eager problem
    V <- ns$fp_prep_eig(pe, 2)$vectors
    expect_identical(ns$fp_group_stats(pl, V, 2), ns$fp_group_stats(pe, V, 2))
    expect_identical(ns$fp_group_best(pl, 2), ns$fp_group_best(pe, 2))
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
    # computed in the matrix itself (a work matrix of the caller's): the same values
    S2 <- S + 0
    expect_identical(ns$fp_mean_complement(Q)$to(S2, overwrite = TRUE), (W + t(W)) / 2)
  }
})

test_that("a fit from moments holds few d x d matrices beyond them", {
  skip_on_cran()
  # gc()'s "max used" counts every vector allocated since the reset (garbage too): the fit's
  # peak, plus about 1-2 matrices' worth of small vectors at this d. Before #48 these fits
  # peaked at 14-20; before its second part, standard and mean held the m group covariances
  # besides C (2 groups: 3.8 and 5.2 here; 5 groups: 7.6 and 9.3), now C, one group's
  # covariance at a time and mean matching's complement.
  # Min-max (exact and "mw") held the m group covariances and C in R, plus its weighted sum in
  # C++ (which gc() does not see): 4.4 and 4.8 here with 2 groups, 9.4 and 10.7 with 5. Now it
  # holds C and the one work matrix into which R and the compiled solver build each group's
  # covariance when they read it (so 3 d x d matrices in all with the solver's weighted sum:
  # bench/wide-memory.R's RSS, which counts it, reads 3.1); the rest is the small vectors, more
  # of them with more groups (d x r products per group and candidate).
  # None of them holds C any more: it is built on demand into that work matrix too (and mean
  # matching's complement computed in it), so standard PCA holds one d x d matrix, mean
  # matching two (the work matrix and the complement), min-max two (the work matrix and the
  # solver's weighted sum, or the rounded map). Here, with 2 groups: standard 1.7, mean 3.1,
  # minmax 2.3, "mw" 2.7; with 5: 2.4, 4.1, 4.0, 5.5 (2.7, 4.1, 3.3, 3.7 and 3.4, 5.1, 5.0, 6.5
  # with C held), under bounds that one more held matrix exceeds.
  set.seed(13)
  d <- 300
  x <- matrix(rnorm(600 * 20), 600, 20) %*% matrix(rnorm(20 * d), 20, d) + matrix(rnorm(600 * d, sd = 0.5), 600, d)
  groups <- list(rep(c("a", "b"), times = c(200, 400)), rep(letters[1:5], length.out = 600))
  bound <- list(c(standard = 2.4, mean = 3.7, minmax = 3.0, minmax_mw = 3.4),
                c(standard = 3.1, mean = 4.8, minmax = 4.7, minmax_mw = 6.2))
  for (j in seq_along(groups)) {
    m <- group_moments(x, groups[[j]])
    for (method in names(bound[[j]])) {
      args <- if (method == "minmax_mw") list(method = "minmax", solver = "mw") else list(method = method)
      fit1 <- function() suppressWarnings(do.call(fair_pca, c(list(m, k = 5), args)))
      fit1()  # anything loaded once is not counted
      invisible(gc(reset = TRUE))
      v0 <- gc()["Vcells", "used"]
      fit <- fit1()
      extra <- (gc()["Vcells", "max used"] - v0) * 8 / (d * d * 8)
      expect_lt(extra, bound[[j]][[method]], label = sprintf("%s, %d groups: %.2f", method, length(m$levels), extra))
      expect_s3_class(fit, "fair_pca")
    }
  }
})

test_that("training scores of a column of subnormal scale are predict()'s, for every method", {
  # a column near 1e-310: 1 / scale overflows, so the scores are taken from the centred, scaled
  # rows as predict() takes them (the fast product would give Inf and NaN)
  set.seed(1)
  x <- matrix(rnorm(200), 50, 4)
  x[, 2] <- x[, 2] * 1e-310
  g <- rep(c("a", "b"), 25)
  for (m in fairproj_methods()) {
    args <- list(x, g, k = 2, method = m, scale. = TRUE)
    if (m == "rlace") args$seed <- 1
    fit <- suppressWarnings(do.call(fair_pca, args))  # some solvers warn on 50 rows
    expect_true(all(is.finite(fit$x)), info = m)
    expect_equal(fit$x, predict(fit, x), tolerance = 1e-12, info = m)
  }
  # the scores of a fit whose output is a linear map (min-max's rounding above rank k) likewise
  fit <- fair_pca(x, g, k = 2, method = "standard", scale. = TRUE)
  fit$map <- tcrossprod(fit$rotation[, 1]) + 0.5 * tcrossprod(fit$rotation[, 2])
  s <- fp_map_scores(fit, x)
  expect_true(all(is.finite(s)))
  expect_equal(unname(s), unname(fp_transform(fit, x) %*% fit$map %*% fit$rotation), tolerance = 1e-12)
})

test_that("scale. = TRUE about a centre far from the data (1e300) is the root mean square", {
  set.seed(11)
  x <- matrix(rnorm(240), 60, 4)
  g <- rep(c("a", "b"), 30)
  ctr <- c(1e300, 0, 0, 0)
  # the root mean square about the centre, computed in units of 1e300 (no square overflows)
  want1 <- 1e300 * sqrt(sum((x[, 1] / 1e300 - 1)^2) / 59)
  # (the row route refuses it: its mean squares about the centre are formed unscaled, a
  # classed error naming `x`)
  expect_error(fair_pca(x, g, k = 2, center = ctr, scale. = TRUE, route = "rows"), class = "fairproj_input_error")
  for (route in "moments") {
    f <- fair_pca(x, g, k = 2, center = ctr, scale. = TRUE, route = route)
    expect_equal(unname(f$scale[1]), want1, tolerance = 1e-12, label = route)
    expect_equal(unname(f$scale[-1]), sqrt(colSums(x[, -1]^2) / 59), tolerance = 1e-12, label = route)
    # the same fit as with that scale given
    fs <- fair_pca(x, g, k = 2, center = ctr, scale. = f$scale, route = route)
    expect_lt(max(abs(abs(f$rotation) - abs(fs$rotation))), 1e-10)
  }
})

test_that("training and predicted scores keep rows of NA as NA and the other rows as the product gives them", {
  # rows with a missing value give NA scores; the complete rows are the fast product's, bit for
  # bit, whether or not other rows hold NA (before, one NA sent every row through a centred copy)
  set.seed(3)
  x <- matrix(rnorm(400), 100, 4) * rep(c(1, 10, 100, 1000), each = 100) + 50
  g <- rep(c("a", "b"), 50)
  fit <- fair_pca(x, g, k = 2, method = "minmax", scale. = TRUE)
  xn <- x
  xn[c(3, 70), c(1, 4)] <- NA
  s <- predict(fit, xn)
  s0 <- predict(fit, x)
  expect_true(all(is.na(s[c(3, 70), ])))
  expect_identical(s[-c(3, 70), ], s0[-c(3, 70), ])
  fit$map <- tcrossprod(fit$rotation[, 1]) + 0.5 * tcrossprod(fit$rotation[, 2])
  s <- fp_map_scores(fit, xn)
  expect_true(all(is.na(s[c(3, 70), ])))
  expect_identical(s[-c(3, 70), ], fp_map_scores(fit, x)[-c(3, 70), ])
})
