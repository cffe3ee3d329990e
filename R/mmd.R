# The maximum mean discrepancy between groups: a metric of representations, and the fairness
# term of MbF-PCA (pca-mbfpca.R).

#' Median-heuristic bandwidth and MMD^2 between groups
#'
#' `mmd2()` is the biased (V-statistic) estimate of the squared maximum mean discrepancy between
#' the rows of `scores` in two groups, with the Gaussian kernel `exp(-|a - b|^2 / (2 sigma^2))`:
#' `mean(K(A, A)) + mean(K(B, B)) - 2 mean(K(A, B))`. With more than two groups it returns the
#' largest value over all pairs of groups. The estimate is defined for a group of one row, but
#' says nothing about it (its kernel mean within the group is 1 whatever the row, a bias as large
#' as the statistic): a warning of class `fairproj_small_group_warning` says so, as for
#' [group_errors()].
#'
#' `mmd_bandwidth()` is the median heuristic of Lee et al. (2022), used by Kleindessner et al.
#' (2023): `sigma = sqrt(median(d2) / 2)` with `d2` the squared distances between all pairs of
#' distinct rows. In their protocol it is computed once, on the standard-PCA scores of the
#' training data, and the same sigma is used for every method; pass it as `sigma`. When `sigma`
#' is `NULL`, `mmd2()` uses the median heuristic on `scores` themselves.
#'
#' @param scores An n x r numeric matrix (a representation of n rows), e.g. from
#'   [predict.fair_pca()].
#' @param group Group labels, one per row of `scores` (at least two groups).
#' @param sigma Kernel bandwidth (a positive number) or `NULL`.
#' @param max_rows `mmd_bandwidth()` uses a random subsample of this many rows (a whole number, at
#'   least 2) when `scores` has more (the pairwise distances take O(n^2) memory); `Inf` uses all
#'   rows.
#' @return `mmd2()`: a number (non-negative). `mmd_bandwidth()`: a positive number.
#' @references Lee, J., Kim, G., Olfat, M., Hasegawa-Johnson, M. and Yoo, C. D. (2022). Fast
#'   and efficient MMD-based fair PCA via optimization over Stiefel manifold. AAAI.
#' @seealso [variance_explained()], [downstream_metrics()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' fit <- fair_pca(pbc2[1:6], pbc2$sex, k = 2, scale. = TRUE)
#' s <- predict(fit)
#' sig <- mmd_bandwidth(s)
#' mmd2(s, pbc2$sex, sigma = sig)
#' @export
mmd2 <- function(scores, group, sigma = NULL) {
  fp_check_given(c("scores", "group"))
  s <- fp_as_scores(scores, "scores")
  g <- fp_as_group(group, nrow(s), "group", min_levels = 2L)
  if (is.null(sigma)) sigma <- mmd_bandwidth(s)
  fp_check_number(sigma, "sigma", lower = 0, open_lower = TRUE)
  if (!is.finite(sigma)) fp_abort("must be finite", "sigma")
  idx <- split(seq_len(nrow(s)), g)
  # the V-statistic is defined for a group of one row, but its within-group mean K(a, a) is 1
  # whatever the row: the bias (1 - E K) / n of that group is as large as the statistic, so the
  # value is large even for two samples of one distribution
  fp_warn_small_groups(lengths(idx), levels(g),
                       "the kernel mean within such a group is 1 whatever its row, so MMD^2 between it and another group is large even when both come from one distribution")
  # distances from the rows' differences (not |a|^2 + |b|^2 - 2 ab, which loses every digit under
  # a common offset), in units of the largest |score| so that no square over- or underflows; the
  # kernel's argument |a - b| / sigma is then a product of two finite numbers (Inf gives 0)
  scl <- max(abs(s))
  if (scl > 0) s <- s / scl
  ratio <- scl / sigma
  mean_k <- function(a, b) {
    d2 <- 0
    for (j in seq_len(ncol(a))) d2 <- d2 + outer(a[, j], b[, j], `-`)^2
    kv <- exp(-0.5 * (sqrt(d2) * ratio)^2)
    kv[d2 == 0] <- 1  # 0 * Inf (a bandwidth far below the scores' scale) is NaN, the kernel 1
    mean(kv)
  }
  self <- vapply(idx, function(i) mean_k(s[i, , drop = FALSE], s[i, , drop = FALSE]), numeric(1))
  out <- 0
  for (a in seq_along(idx)) for (b in seq_along(idx)) if (a < b) {
    v <- self[[a]] + self[[b]] - 2 * mean_k(s[idx[[a]], , drop = FALSE], s[idx[[b]], , drop = FALSE])
    out <- max(out, v)
  }
  max(out, 0)
}

#' @rdname mmd2
#' @export
mmd_bandwidth <- function(scores, max_rows = 5000) {
  fp_check_given("scores")
  s <- fp_as_scores(scores, "scores")
  if (nrow(s) < 2L) fp_abort("needs at least 2 rows", "scores")
  max_rows <- fp_check_count(max_rows, 2, Inf, "max_rows", integer = FALSE, infinite = TRUE)
  if (nrow(s) > max_rows) s <- s[sort(sample.int(nrow(s), max_rows)), , drop = FALSE]
  # in units of the largest |score|, so that squared distances neither over- nor underflow
  scl <- max(abs(s))
  if (scl > 0) s <- s / scl
  sig <- sqrt(stats::median(stats::dist(s)^2) / 2) * scl
  if (!(sig > 0)) fp_abort("has a median pairwise distance of zero; give `sigma` explicitly", "scores")
  if (!is.finite(sig)) fp_abort("has pairwise distances beyond double precision; rescale the scores", "scores")
  sig
}
