#' fairproj: fair principal component analysis and fair column subset selection
#'
#' Every method of the package depends on the data only through per-group sufficient
#' statistics (counts, means, centred cross-products), computed in one pass over the rows by
#' [group_moments()]. Solvers then work on d x d matrices and never touch the rows again.
#'
#' * [fair_pca()]: fair dimensionality reduction (standard PCA and the fair methods).
#' * [group_moments()]: the one pass over the data; moments of chunks combine with `c()` or `+`.
#' * [group_errors()]: per-group reconstruction errors, marginal losses, ABDiff and ARE.
#' * [fairproj_backend()]: which linear-algebra kernels (R's BLAS or Eigen) are used.
#'
#' An optimised BLAS (OpenBLAS, MKL, Accelerate) speeds up every method; see
#' `sessionInfo()` for the BLAS your R uses.
#'
#' @keywords internal
#' @useDynLib fairproj, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom stats model.frame model.matrix terms setNames sd predict
#' @importFrom graphics plot lines points legend abline matplot par barplot arrows text axis
#' @importFrom grDevices palette
#' @importFrom utils head
"_PACKAGE"
