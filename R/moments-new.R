#' Group moments from counts, means and centred scatter matrices
#'
#' Builds a [group_moments()] object from per-group sufficient statistics computed anywhere
#' else (another program, a database, a distributed engine, published summary tables), so that
#' every fitting function of the package ([fair_pca()], [fair_css()], the metrics) can use them.
#'
#' **Why the scatter must be centred.** The scatter of group g is
#' `sum_i (x_i - mean_g) (x_i - mean_g)'` over the group's rows: the cross-products of the rows
#' *about the group mean*. The uncentred sums `sum_i x_i x_i'` carry the same information in
#' exact arithmetic (`scatter = crossprod - n mean mean'`), but not in floating point: when a
#' column's offset is large relative to its spread, the subtraction cancels almost every digit.
#' With an offset 1e6 times the spread, the 16 digits of a double keep about 4 in the
#' covariance, and principal subspaces computed from it are essentially random (projector
#' distances of 0.36 to 1.0 measured against the exact subspace). So compute scatters about the
#' group means (two passes: means first, then products of centred values; or one pass about a
#' shift close to the mean with the correction `- n (mean - shift)(mean - shift)'`), and pass
#' those here.
#'
#' **Merging pieces.** Moments of disjoint row sets (chunks of a file, partitions of a table,
#' the workers of a cluster) combine exactly with `+` or [c()], by the pairwise update of Chan,
#' Golub and LeVeque: for the same group in two pieces a and b with `n = n_a + n_b` and
#' `delta = mean_b - mean_a`, `mean = mean_a + delta n_b / n` and
#' `scatter = scatter_a + scatter_b + delta delta' n_a n_b / n`. Groups present in only one
#' piece are carried over. Pieces must cover the same columns in the same order.
#'
#' @param n Group sizes: a numeric vector with one whole number of rows (at least 1) per group (names, when
#'   present, are the group levels).
#' @param mean Group means: a d x m matrix, one column per group (a vector when there is one
#'   group).
#' @param scatter Centred scatter matrices: a list of m symmetric positive semidefinite d x d
#'   matrices, a d x d x m array, or one matrix when there is one group.
#' @param levels Group labels (character, length m). Defaults to `names(n)`, then
#'   `colnames(mean)`, then `"1"`, ..., `"m"`.
#' @param colnames Column (variable) names (character, length d). Defaults to `rownames(mean)`,
#'   then the row names of the first scatter matrix, then `"V1"`, ..., `"Vd"`.
#' @param tol Relative tolerance of the symmetry and positive-semidefiniteness checks.
#' @return A `group_moments` object (see [group_moments()]).
#' @seealso [group_moments()] to compute moments from data, [moments_cov()] for derived
#'   quantities.
#' @examplesIf requireNamespace("MASS", quietly = TRUE)
#' # counts, means and scatters computed elsewhere (here, with base R)
#' bw <- within(MASS::birthwt, race <- factor(race, 1:3, c("white", "black", "other")))
#' x <- as.matrix(bw[c("age", "lwt", "ptl", "ftv", "bwt")])
#' g <- bw$race
#' n <- as.numeric(table(g))
#' mu <- sapply(levels(g), function(l) colMeans(x[g == l, ]))
#' sc <- lapply(levels(g), function(l) cov(x[g == l, ]) * (sum(g == l) - 1))
#' m <- new_group_moments(n, mu, sc, levels = levels(g))
#' all.equal(moments_cov(m), moments_cov(group_moments(x, g)))
#' fit <- fair_pca(m, k = 2, method = "mean", scale. = TRUE)
#'
#' # pieces merge exactly
#' a <- new_group_moments(50, colMeans(x[1:50, ]), cov(x[1:50, ]) * 49, levels = "white")
#' a + m
#' @export
new_group_moments <- function(n, mean, scatter, levels = NULL, colnames = NULL, tol = 1e-8) {
  fp_check_given(c("n", "mean", "scatter"))
  fp_check_number(tol, "tol", lower = 0, upper = 1)
  if (!is.numeric(n) || length(n) < 1L || anyNA(n) || any(!is.finite(n))) {
    fp_abort("must be a numeric vector of group sizes with no missing or infinite values", "n")
  }
  if (any(n < 1)) fp_abort("must be at least 1 for every group (a group with no rows has no moments)", "n")
  if (any(n != round(n))) fp_abort(sprintf("must be whole numbers of rows, not %s", format(n[n != round(n)][1L])), "n")
  m <- length(n)
  if (is.data.frame(mean)) mean <- as.matrix(mean)
  if (!is.numeric(mean) || anyNA(mean) || any(!is.finite(mean))) {
    fp_abort("must be a numeric matrix of group means with finite values", "mean")
  }
  if (!is.matrix(mean)) {
    if (m != 1L) fp_abort(sprintf("must be a d x %d matrix (one column per group), not a vector", m), "mean")
    mean <- matrix(mean, ncol = 1L, dimnames = list(names(mean), NULL))
  }
  if (ncol(mean) != m) {
    fp_abort(sprintf("has %d columns but `n` has %d groups: give one column of means per group", ncol(mean), m), "mean")
  }
  d <- nrow(mean)
  if (d < 1L) fp_abort("has no rows (variables)", "mean")
  if (is.array(scatter) && length(dim(scatter)) == 3L) {
    scatter <- lapply(seq_len(dim(scatter)[3L]), function(i) scatter[, , i])
  } else if (is.matrix(scatter) || is.data.frame(scatter)) {
    scatter <- list(as.matrix(scatter))
  }
  if (!is.list(scatter)) fp_abort("must be a list of d x d matrices, a d x d x m array or one matrix", "scatter")
  if (length(scatter) != m) {
    fp_abort(sprintf("has %d matrices but `n` has %d groups", length(scatter), m), "scatter")
  }
  if (is.null(levels)) levels <- names(n)
  if (is.null(levels)) levels <- base::colnames(mean)  # the argument `colnames` may be a function
  if (is.null(levels)) levels <- names(scatter)
  if (is.null(levels)) levels <- as.character(seq_len(m))
  if (!is.atomic(levels)) fp_abort(sprintf("must be %d distinct, non-missing, non-empty labels (one per group)", m), "levels")
  levels <- if (is.double(levels) && !is.object(levels)) fp_num_labels(levels) else as.character(levels)
  if (length(levels) != m || anyNA(levels) || anyDuplicated(levels) || any(levels == "")) {
    fp_abort(sprintf("must be %d distinct, non-missing, non-empty labels (one per group)", m), "levels")
  }
  if (is.null(colnames)) colnames <- rownames(mean)
  if (is.null(colnames)) colnames <- rownames(scatter[[1L]])
  if (is.null(colnames)) colnames <- paste0("V", seq_len(d))
  if (!is.atomic(colnames)) fp_abort(sprintf("must be %d distinct, non-missing names (one per variable)", d), "colnames")
  colnames <- as.character(colnames)
  if (length(colnames) != d || anyNA(colnames) || anyDuplicated(colnames)) {
    fp_abort(sprintf("must be %d distinct, non-missing names (one per variable)", d), "colnames")
  }
  for (i in seq_len(m)) {
    s <- scatter[[i]]
    if (is.data.frame(s)) s <- as.matrix(s)
    what <- sprintf("[[%d]] (group '%s')", i, levels[i])
    if (!is.matrix(s) || !is.numeric(s) || any(dim(s) != d)) {
      fp_abort(sprintf("%s must be a numeric %d x %d matrix", what, d, d), "scatter")
    }
    if (anyNA(s) || any(!is.finite(s))) fp_abort(sprintf("%s has missing or infinite values", what), "scatter")
    scale <- max(abs(diag(s)), .Machine$double.xmin)
    if (max(abs(s - t(s))) > tol * scale) fp_abort(sprintf("%s is not symmetric", what), "scatter")
    s <- (s + t(s)) / 2
    if (any(diag(s) < -tol * scale)) {
      fp_abort(sprintf("%s has negative diagonal entries: a scatter matrix is positive semidefinite", what), "scatter")
    }
    ev <- eigen(s, symmetric = TRUE, only.values = TRUE)$values
    if (ev[d] < -max(tol, d * .Machine$double.eps) * max(ev[1L], 0) * 10) {
      fp_abort(sprintf("%s is not positive semidefinite (smallest eigenvalue %.3g, largest %.3g); was it computed about the group mean?",
                       what, ev[d], ev[1L]), "scatter")
    }
    if (n[i] == 1 && any(diag(s) > tol * max(mean[, i]^2, .Machine$double.xmin))) {
      fp_abort(sprintf("%s is not zero, but group '%s' has 1 row (n = 1): one row has no spread about its mean",
                       what, levels[i]), "scatter")
    }
    scatter[[i]] <- s
  }
  fp_new_moments(as.numeric(n), mean, scatter, levels, colnames)
}
