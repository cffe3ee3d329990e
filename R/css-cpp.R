# Per-prefix squared errors (c x m) of a column sequence (1-based) from the group factors
# (Householder QR; in the normalised units of the prepared problem).
fp_css_prefix <- function(factors, columns, target = integer(0)) {
  fp_cpp(.fp_css_prefix_err2(unname(factors), as.integer(columns) - 1L, as.integer(target) - 1L))
}

# Least-squares coefficients W (c x d) with Z ~ Z[, S] W (Z the centred, scaled data), from a
# group factor Y (t(Y) Y = t(Z) Z): Householder QR of Y[, S] in selection order, in one compiled
# call (src/css.cpp); a column whose residual is at most 1e-10 of its norm (dependent on
# earlier ones, or zero for the group: a category absent from it) gets 0.
fp_css_coef <- function(Y, S) {
  fp_cpp(.fp_css_coef(Y, as.integer(S)), "the coefficients of the selected columns")
}
