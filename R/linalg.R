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

# For symmetric matrices S_g (the list `covs`) and V (d x r): the column sums of (S_g V) * V as
# the columns of an r x m matrix `cs`, and `tot`, each group's sum((S_g V) * V). With `stack`,
# the row-stack of the S_g (fp_quad_stack()), one product instead of m small ones, whose R calls
# cost more than their arithmetic at small d (issue #47); each group's block is moved to its own
# slice, so the products, column sums and sums are the same numbers, in the same order, as group
# by group (without `stack`).
fp_quad_blocks <- function(covs, V, stack = fp_quad_stack(covs)) {
  m <- length(covs)
  d <- nrow(V)
  r <- ncol(V)
  if (is.null(stack)) {
    cs <- matrix(0, r, m)
    tot <- numeric(m)
    for (g in seq_len(m)) {
      P <- (covs[[g]] %*% V) * V
      cs[, g] <- colSums(P)
      tot[g] <- sum(P)
    }
    return(list(cs = cs, tot = tot))
  }
  P <- aperm(array((stack %*% V) * V[rep.int(seq_len(d), m), , drop = FALSE], c(d, m, r)), c(1L, 3L, 2L))
  list(cs = matrix(colSums(matrix(P, d)), r, m), tot = colSums(P, dims = 2L))
}

# The row-stack of the d x d matrices `covs` for fp_quad_blocks(), or NULL (group by group) when
# it would take more than 512 kB: it copies all of them, and the calls it saves matter only at
# small d (24 groups at d = 50 are stacked; a fit from moments at large d keeps its few d x d
# matrices, test-prepare.R).
fp_quad_stack <- function(covs) {
  d <- nrow(covs[[1L]])
  if (length(covs) * d * d <= 2^16) do.call(rbind, covs)
}

# The residual tr(S) - tr(V'SV) of a symmetric S outside span(V) (orthonormal V), given its
# value `e` from that difference, which loses the digits its two terms share: where it is below
# 1e-8 of tr(S) (so that fewer than about 7 digits are left: a column or direction that dwarfs
# the rest, or k at the group's rank) it is recomputed as tr(W'SW) over an orthonormal basis W of
# the complement of span(V), a sum of terms of one sign, accurate to the precision of W instead
# of the total's (at O(d^2 (d - k)), paid only then). A squared norm: never below 0, and 0 when V
# spans everything. `tr`: tr(S) when the caller has it.
fp_residual_trace <- function(S, V, e = sum(diag(S)) - sum((S %*% V) * V), tr = sum(diag(S))) {
  if (ncol(V) >= nrow(V)) return(0)
  if (e < fp_tol_cancel * tr) {
    W <- qr.Q(qr(V), complete = TRUE)[, -seq_len(ncol(V)), drop = FALSE]
    e <- sum((S %*% W) * W)
  }
  max(e, 0)
}
