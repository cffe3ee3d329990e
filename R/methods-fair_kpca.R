# The plot() method of fair_kpca() fits (R/kpca-mean.R holds the fit, print and predict).

#' Plot a fair kernel PCA fit
#'
#' `type = "scores"` draws the training scores of two components (`choices`) coloured by group;
#' `"scree"` each component's eigenvalue as a fraction of the total variance in feature space
#' (`x$totalvar`). `plot()` draws with base graphics, `autoplot()` with ggplot2, from the same
#' data (`tidy(x, matrix = "plot", type = )`), as for [plot.fair_pca()].
#'
#' @param x A `fair_kpca` object.
#' @param type `"scores"` (the default) or `"scree"`.
#' @param ... `choices` (two component numbers) for `"scores"`; for `plot()`, `legend = FALSE`
#'   drops the legend.
#' @param main,xlab,ylab Replace the title and axis labels (also for `autoplot()`, through `...`).
#' @return `plot()`: invisibly, the data drawn. `autoplot()`: a `ggplot` object.
#' @seealso [fair_kpca()], [tidy.fair_kpca()], [plot.fair_pca()].
#' @family plots
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' fit <- fair_kpca(pbc2[1:6], pbc2$sex, k = 3, scale. = TRUE)
#' plot(fit)
#' plot(fit, "scree")
#' @export
plot.fair_kpca <- function(x, type = NULL, ..., main = NULL, xlab = NULL, ylab = NULL) {
  fp_plot_base(x, type, ..., main = main, xlab = xlab, ylab = ylab)
}
