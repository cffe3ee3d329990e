# Linear-algebra helpers shared by the layers above: top-k and all eigenvalues of symmetric
# matrices, with the same choice of Lanczos or dense path as src/linalg.h, and residual traces.

# Top-k eigenpairs of a symmetric matrix (Lanczos when k is small relative to d).
fp_eig_top <- function(A, k) {
  res <- fp_cpp(.fp_eig_top(A, as.integer(k)), "the eigensolver")
  list(values = res$values, vectors = res$vectors)
}

# All eigenvalues (decreasing) of a symmetric matrix. A graded diagonal (nonzero magnitudes
# spread over more than 2^20: a variable in units that dwarf the others') is first permuted to
# decrease, a similarity under which LAPACK's reduction keeps the small eigenvalues to their
# own precision rather than the largest's (as eig_sym_full does in linalg.cpp).
fp_sym_values <- function(S) {
  dg <- abs(diag(S))
  pos <- dg[dg > 0 & is.finite(dg)]
  if (length(pos) && max(pos) > 2^20 * min(pos)) {
    o <- order(dg, decreasing = TRUE)
    S <- S[o, o, drop = FALSE]
  }
  eigen(S, symmetric = TRUE, only.values = TRUE)$values
}

# Whether a double matrix is exactly symmetric (bit for bit), read in place without a copy.
fp_is_symmetric_exact <- function(S) {
  is.double(S) && is.matrix(S) && fp_cpp(.fp_is_symmetric_exact(S), "the symmetry check")
}

# Whether the top-k eigensolves of a d x d matrix take the Lanczos path (as linalg.h decides).
fp_lanczos_path <- function(d, k) d >= 120 && 3 * k < d

# The residual tr(S) - tr(V'SV) of a symmetric S outside span(V) (orthonormal V), given its
# value `e` from that difference, which loses the digits its two terms share: where it is below
# 1e-8 of tr(S) (so that fewer than about 7 digits are left: a column or direction that dwarfs
# the rest, or k at the group's rank) it is recomputed as tr(W'SW) over an orthonormal basis W of
# the complement of span(V), a sum of terms of one sign, accurate to the precision of W instead
# of the total's (at O(d^2 (d - k)), paid only then). A squared norm: never below 0, and 0 when V
# spans everything.
fp_residual_trace <- function(S, V, e = sum(diag(S)) - sum((S %*% V) * V)) {
  if (ncol(V) >= nrow(V)) return(0)
  if (e < fp_tol_cancel * sum(diag(S))) {
    W <- qr.Q(qr(V), complete = TRUE)[, -seq_len(ncol(V)), drop = FALSE]
    e <- sum((S %*% W) * W)
  }
  max(e, 0)
}
