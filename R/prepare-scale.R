# Column standard deviations for scale. = TRUE (about the centre used, divisor n - 1, as
# prcomp); 1 for FALSE; the given vector otherwise. Constant (zero-variance) columns cannot be
# rescaled: a classed error naming them, as in fair_pca(). A column counts as constant when its
# scale is 0 or below 1e-12 of its mean's magnitude (relative, so that data of any magnitude
# are judged alike; with center = FALSE the scale is the root mean square, as in prcomp).
fp_column_scale <- function(m, ctr, scale.) {
  d <- length(m$colnames)
  if (isFALSE(scale.)) return(rep(1, d))
  if (is.numeric(scale.)) return(scale.)
  ntot <- sum(m$n)
  if (ntot < 2) fp_abort("= TRUE needs at least 2 rows", "scale.")
  mu <- moments_mean(m, pooled = TRUE)
  within <- Reduce(`+`, lapply(seq_along(m$levels), function(i) diag(m$scatter[[i]])))
  between <- Reduce(`+`, lapply(seq_along(m$levels), function(i) (m$mean[, i] - mu)^2 * m$n[[i]]))
  var_mu <- (within + between) / (ntot - 1)
  sc <- sqrt(var_mu + (mu - ctr)^2 * ntot / (ntot - 1))
  zero <- !(sc > fp_tol_constant * abs(mu))
  if (any(zero)) {
    fp_abort(sprintf("= TRUE cannot rescale constant (zero-variance) column(s): %s",
                     paste(utils::head(m$colnames[zero], 5), collapse = ", ")), "scale.")
  }
  sc
}
