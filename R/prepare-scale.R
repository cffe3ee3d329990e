# Column standard deviations for scale. = TRUE (about the centre used, divisor n - 1, as
# prcomp); 1 for FALSE; the given vector otherwise. Constant (zero-variance) columns cannot be
# rescaled: a classed error naming them, as in fair_pca(). A column counts as constant when its
# scale is 0 or below 1e-12 of its mean's magnitude (relative, so that data of any magnitude
# are judged alike; with center = FALSE the scale is the root mean square, as in prcomp).
fp_column_scale <- function(m, ctr, scale.) {
  d <- length(m$colnames)
  if (isFALSE(scale.)) return(rep(1, d))
  if (is.numeric(scale.)) return(scale.)
  if (sum(m$n) < 2) fp_abort("= TRUE needs at least 2 rows", "scale.")
  r <- fp_moments_rms(m, ctr)
  sc <- r$sc
  zero <- !(sc > fp_tol_constant * abs(r$mu))
  if (any(zero)) {
    fp_abort(sprintf("= TRUE cannot rescale constant (zero-variance) column(s): %s",
                     paste(utils::head(m$colnames[zero], 5), collapse = ", ")), "scale.")
  }
  sc
}

# Each column's root mean square about `ctr` (the moments' stored units; NULL for the pooled
# mean, the sd) and its pooled mean `mu`, from the moments of at least 2 rows: the within-group
# sums of squares plus the between-group term, divisor n - 1.
fp_moments_rms <- function(m, ctr = NULL) {
  ntot <- sum(m$n)
  mu <- drop(m$mean %*% (m$n / ntot))
  within <- Reduce(`+`, lapply(seq_along(m$levels), function(i) diag(m$scatter[[i]])))
  between <- Reduce(`+`, lapply(seq_along(m$levels), function(i) (m$mean[, i] - mu)^2 * m$n[[i]]))
  list(sc = fp_rms_about((within + between) / (ntot - 1), if (is.null(ctr)) 0 else mu - ctr, ntot), mu = mu)
}

# The root mean square of a column about a centre, from its variance `v` (divisor n - 1) and
# its mean's distance from the centre `dev`: sqrt(v + dev^2 n / (n - 1)). Where the square
# overflows (a centre of 1e300 given for data near 1), the same value from the larger of the two
# terms, sqrt(v) and |dev|, factored out; elsewhere the direct formula, bit for bit.
fp_rms_about <- function(v, dev, ntot) {
  sc <- sqrt(v + dev^2 * ntot / (ntot - 1))
  far <- which(!is.finite(sc) & is.finite(v) & is.finite(dev))
  if (length(far)) {
    a <- sqrt(v[far])
    b <- abs(dev[far]) * sqrt(ntot / (ntot - 1))
    top <- pmax(a, b)
    sc[far] <- top * sqrt((a / top)^2 + (b / top)^2)
  }
  sc
}
