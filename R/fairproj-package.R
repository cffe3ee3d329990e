#' fairproj: fair principal component analysis and fair column subset selection
#'
#' Fair dimensionality reduction and fair column subset selection behind one interface, for
#' reduced data that serve every demographic group about equally well. Every method depends on
#' the data only through per-group sufficient statistics (counts, means, centred
#' cross-products), computed in one pass over the rows by [group_moments()]; solvers then work
#' on d x d matrices and never touch the rows again.
#'
#' @section Main entry points:
#' * [fair_pca()]: fair PCA (min-max, mean-matching, Pareto, distributionally robust and the
#'   papers' baselines; `method = "standard"` is ordinary PCA), with `print()`, `summary()`,
#'   `predict()`, [plot()][plot.fair_pca], [biplot()][biplot.fair_pca],
#'   [as.prcomp()][predict.fair_pca] and broom's [tidy()][tidy.fair_pca].
#' * [fair_css()]: fair column subset selection.
#' * [tune_fair_pca()]: cross-validated tuning of a method's parameters; [pareto_front()]: the
#'   trade-off between total loss and disparity.
#' * [group_errors()], [fairness_gaps()]: per-group errors, marginal losses and downstream
#'   fairness metrics.
#' * [step_fair_pca()], [step_fair_css()]: recipes steps for tidymodels workflows.
#' * [group_moments()]: the one pass over the data; moments of chunks, files and databases
#'   combine with `c()` or `+`.
#' * [fairproj_methods()], [fairproj_backend()]: the methods available and the linear-algebra
#'   kernels used (an optimised BLAS such as OpenBLAS speeds every method up; see
#'   `sessionInfo()` for the BLAS your R uses).
#'
#' Start with `vignette("getting-started", package = "fairproj")`.
#'
#' @section Options:
#' * `fairproj.time_limit` (seconds, default 60; `Inf` turns it off): methods whose cost grows
#'   fast with the data (`fair_pca(method = "mbfpca")`, `O(n^2)` per evaluation;
#'   `fair_css(method = "exhaustive")`, exponential in k) estimate their time before they start
#'   and refuse what would take longer, with an error of class `fairproj_cost_error` that names
#'   a faster method or a smaller argument; their iterative searches also stop at the limit,
#'   with a warning of class `fairproj_convergence_warning`. Each method's help states its cost
#'   in n and d.
#' * `fairproj.progress` (`FALSE` turns them off): progress bars of long work, shown in
#'   interactive sessions.
#' * `fairproj.threads`: the threads of the row pass (see [group_moments()]).
#'
#' @seealso [fair_pca()], [fair_css()], [group_moments()].
#' @useDynLib fairproj, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom stats model.frame model.matrix terms setNames sd predict
#' @importFrom graphics plot lines points legend abline matplot par barplot arrows text axis
#' @importFrom grDevices palette
#' @importFrom utils head
"_PACKAGE"
