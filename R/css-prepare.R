# The prepared problem of the CSS methods (the one place where their units end).
# For each group g, with z = (x - center) / scale, the Gram matrix G_g = t(Z_g) %*% Z_g is
#   G_g = S_g + n_g m_g t(m_g),
# S_g the scatter about the group mean (accurate: group_moments() accumulates it centred) and
# m_g the group mean of z. Everything is divided by one scalar `norm` = 4^Q (a power of two near
# the largest diagonal entry, the same for all groups, so that comparisons between groups are
# unchanged; found in logarithms, with the columns' exponents of fp_moments_ranged(), so finite
# data of any magnitude neither overflow nor underflow): the solvers never see the user's units,
# and column choices do not depend on a global scale of the data. `norm_sqrt` = 2^Q maps errors
# (Frobenius norms) back to the data's units.
# Each group also gets a factor Y_g with t(Y_g) %*% Y_g = G_g / norm, built without forming G_g:
#   Y_g = rbind(sqrt(n_g) t(m_g), R_g) / sqrt(norm), t(R_g) R_g = S_g (pivoted Cholesky),
# so errors of column sets are computed by Householder QR on Y_g (no cancellation between the
# offset and the residual, which a Gram-based tr G - tr(G_S' G_SS^+ G_S) suffers on uncentred data
# with large offsets), and each group's best rank-k error and leverage scores come from the SVD
# of Y_g (not from eigenvalues of G_g subtracted from its trace).
fp_css_prepare <- function(m, k, center = TRUE, scale. = FALSE) {
  d <- length(m$colnames)
  center <- fp_check_center_scale(center, d, "center")
  scale. <- fp_check_center_scale(scale., d, "scale.")
  if (missing(k)) fp_abort("is missing: give the target rank", "k")
  k <- fp_check_count(k, 1L, d, "k")
  e <- if (is.null(m$exponent)) rep(0, d) else m$exponent  # data column j = stored column j * 2^e[j]
  fp_check_moments_range(m)
  D <- 2^e
  ctr <- if (isTRUE(center)) fp_pooled_mean(m) else if (isFALSE(center)) rep(0, d) else center / D
  sc <- fp_column_scale(m, ctr, if (is.numeric(scale.)) scale. / D else scale.)
  # z = (x_s - ctr) / sc * 2^a per stored column x_s, the power of two apart so nothing overflows
  a <- if (isFALSE(scale.)) e else rep(0, d)
  dm <- lapply(seq_along(m$levels), function(i) (m$mean[, i] - ctr) / sc)
  # one scalar for all groups, norm = 4^Q: the largest diagonal entry of any G_g is at most 1
  lg <- vapply(seq_along(m$levels), function(i) {
    v <- 2 * a + log2(pmax(diag(m$scatter[[i]]) / sc^2, 0) + dm[[i]]^2 * m$n[[i]])
    if (any(is.finite(v))) max(v[is.finite(v)]) else -Inf
  }, numeric(1))
  if (!any(is.finite(lg))) fp_abort("has no non-zero column (after centring): nothing to select", "x")
  # a power of two: scaling by it is exact, so the normalised problem has the same digits as the
  # user's (decisions that rounding decides, e.g. pivots among one-hot columns, do not move)
  Q <- ceiling(max(lg) / 2)
  pw <- 2^(a - Q)
  # scatter, Gram matrix, factor and singular values of each group in one compiled call (the
  # same LAPACK routines as chol(pivot = TRUE) and svd(): see src/css_prep.cpp)
  core <- fp_css_prep_cpp(m$scatter, matrix(m$mean, d), m$n, center = ctr, scale = sc, power = pw)
  gram <- core$gram
  factor <- core$factor
  names(gram) <- names(factor) <- m$levels
  pooled <- core$pooled
  # singular values only (the leverage scores' vectors are computed where they are used)
  sv2 <- lapply(core$sv, function(s) s^2)
  best2 <- vapply(sv2, function(s) sum(s[-seq_len(k)]), numeric(1))
  tot <- vapply(sv2, sum, numeric(1))
  names(best2) <- m$levels
  names(tot) <- m$levels
  # k = d selects every column: the reconstruction is exact, as the best rank-d one is, and the
  # loss is 1 by convention (fp_css_ratio()); the solvers order the columns with each group's
  # total in place of its zero denominator
  full <- k == d
  low <- best2 <= 1e-24 * tot | best2 <= 0
  few <- low & m$n <= k
  if (any(few) && !full) {
    # the rank is capped by the rows (a group of n rows centred at the pooled mean has rank <= n):
    # neither scaling nor another magnitude helps
    below <- if (min(m$n[few]) > 1) sprintf("k below %d, ", min(m$n[few])) else ""
    fp_abort(sprintf(paste0("= %d is not below the rank of group(s) %s, which have only %s row(s) (a group of n rows ",
                            "has rank at most n), so the ratio is undefined; choose %sk = %d (every column), ",
                            "or merge small groups"),
                     k, paste(shQuote(m$levels[few]), collapse = ", "), paste(m$n[few], collapse = ", "),
                     below, d), "k")
  }
  if (any(low) && !full) {
    fp_abort(sprintf(paste0("= %d is not below the numerical rank of group(s) %s: the best rank-k error is 0 or below 1e-12 of ",
                            "the group's norm (as when columns differ in magnitude by more than that), so the ratio is ",
                            "undefined; choose a smaller k, k = %d (every column), or scale. = TRUE"),
                     k, paste(shQuote(m$levels[low]), collapse = ", "), d), "k")
  }
  list(d = d, k = k, levels = m$levels, n = m$n, colnames = m$colnames, center = ctr * D,
       centered = !isFALSE(center), scale = sc * D, scaled = !isFALSE(scale.), norm_sqrt = 2^Q,
       gram = gram, factor = factor, pooled = pooled, best2 = if (full) tot else best2,
       full = full, tot2 = tot, sv2 = sv2, moments = m)
}

# Singular values of a group factor (all of them: the best rank-k error is the sum of the
# squares beyond the k-th, without cancellation) and its top-k right singular vectors.
fp_css_svd <- function(Y, k) {
  d <- ncol(Y)
  if (nrow(Y) < d) Y <- rbind(Y, matrix(0, d - nrow(Y), d))
  if (k == 0L) return(list(d = svd(Y, nu = 0, nv = 0)$d))
  s <- svd(Y, nu = 0, nv = k)
  list(d = s$d, v = s$v[, seq_len(k), drop = FALSE])
}

# Top-k eigenpairs and squared best rank-k error of all rows together (the unfair problem);
# computed only by the methods that need them (from the stacked group factors).
fp_css_pooled <- function(prep) {
  Y <- do.call(rbind, unname(prep$factor))
  s <- fp_css_svd(Y, prep$k)
  b2 <- sum(s$d[-seq_len(prep$k)]^2)
  if (isTRUE(prep$full)) b2 <- sum(s$d^2)  # k = d: the total orders the columns (see fp_css_prepare())
  if (b2 <= 1e-24 * sum(s$d^2) || b2 <= 0) {
    fp_abort(sprintf("= %d is not below the rank of the whole matrix", prep$k), "k")
  }
  list(eig = list(values = s$d[seq_len(prep$k)]^2, vectors = s$v), best2 = b2, tot2 = sum(s$d^2), factor = Y)
}
