# Standard PCA as a method of fair_pca(), the reference every fair method is compared with.

#' Standard PCA through fair_pca() (the baseline)
#'
#' `fair_pca(x, group, k, method = "standard")` is ordinary PCA: the top-k eigenvectors of the
#' covariance matrix in the fit's centring and scaling, the same components as
#' [stats::prcomp()] (up to sign, which fairproj fixes deterministically). It goes through the
#' same pipeline as the fair methods, from rows or from [group_moments()], and its result carries
#' the same per-group diagnostics, so it is the reference every fair method is compared with
#' (`summary()` of a fair fit shows it side by side). It takes no arguments of its own.
#'
#' @name fair_pca_standard
#' @aliases fit_pca_standard
#' @seealso [fair_pca()], [stats::prcomp()], [fairproj_methods()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' fit <- fair_pca(pbc2[1:6], pbc2$sex, k = 2, method = "standard", scale. = TRUE)
#' fit$group_stats
#' pc <- prcomp(pbc2[1:6], scale. = TRUE)
#' all.equal(abs(unname(fit$rotation)), abs(unname(pc$rotation[, 1:2])))
NULL

# Standard PCA: the top-k eigenvectors of the (centred, scaled) covariance matrix.
fit_pca_standard <- function(prep, k, data = NULL) {
  if (!is.null(prep$rows)) {
    # the row route: the leading eigenvectors its diagnostics keep (fp_rows_spectra_count()),
    # one eigensolve for both
    V <- fp_rows_eig(prep, fp_rows_spectra_count(prep, k))$vectors
    # (fewer than k columns only where the rows have fewer: completed by directions of variance 0)
    return(list(rotation = fp_pad_basis(V[, seq_len(min(k, ncol(V))), drop = FALSE], k)))
  }
  list(rotation = fp_prep_eig(prep, k)$vectors)
}
