# Methods of pareto_front() results (class fairproj_pareto_front); print() is with
# the solver in R/pca-pareto.R.

#' Plot a Pareto front
#'
#' Total reconstruction loss against disparity (largest difference between the groups' excess
#' losses) of every fit of a [pareto_front()]. The total loss is drawn relative to standard
#' PCA (in percent above its total loss), so that the often tiny range of the front is stated
#' on the axis and in the caption; fits that no other fit dominates on the objective vector are
#' filled, dominated ones open, and standard PCA is a cross. `plot()` draws with base graphics,
#' `autoplot()` with ggplot2, from the same data (`tidy(x, matrix = "plot")`).
#'
#' @param x A `fairproj_pareto_front` object.
#' @param type The plot type: `"front"` (the only one).
#' @param ... For `plot()`, `legend = FALSE` drops the legend.
#' @param main,xlab,ylab Replace the title and axis labels (also for `autoplot()`, through `...`).
#' @return `plot()`: invisibly, the data drawn. `autoplot()`: a `ggplot` object.
#' @seealso [pareto_front()], [summary.fairproj_pareto_front()], [plot.fair_pca()].
#' @family plots
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' set.seed(2)
#' pf <- pareto_front(pbc2[1:6], pbc2$sex, k = 1, restarts = 4, scale. = TRUE)
#' plot(pf)
#' @export
plot.fairproj_pareto_front <- function(x, type = NULL, ..., main = NULL, xlab = NULL, ylab = NULL) {
  fp_plot_base(x, type, ..., main = main, xlab = xlab, ylab = ylab)
}

#' Summarise and tidy a Pareto front
#'
#' `summary()` gives the non-dominated fits ordered by disparity, with their total loss
#' relative to standard PCA, and counts of converged and dominated fits; `tidy()` returns the
#' table of fits (`matrix = "fits"`, the default) or the data of the plot
#' (`matrix = "plot"`), as a tibble when tibble is installed; `glance()` gives one row: k, the
#' numbers of fits, converged and dominated fits, standard PCA's total loss and disparity, and
#' the smallest total loss and disparity on the front.
#'
#' @param object,x A `fairproj_pareto_front` object.
#' @param matrix `"fits"` (one row per fit: start, total loss, disparity, objectives,
#'   dominated, converged) or `"plot"` (the data of [plot.fairproj_pareto_front()]).
#' @param ... Unused.
#' @return `summary()`: an object of class `summary.fairproj_pareto_front`. `tidy()` and
#'   `glance()`: a tibble (or data.frame).
#' @seealso [pareto_front()], [plot.fairproj_pareto_front()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' set.seed(2)
#' pf <- pareto_front(pbc2[1:6], pbc2$sex, k = 1, restarts = 4, scale. = TRUE)
#' summary(pf)
#' tidy(pf)
#' glance(pf)
#' @export
summary.fairproj_pareto_front <- function(object, ...) {
  tab <- object$table
  s_tot <- object$standard[["total"]]
  tab$total_vs_standard <- if (is.finite(s_tot) && s_tot > 0) tab$total / s_tot - 1 else NA_real_
  front <- tab[!tab$dominated, c("start", "total", "total_vs_standard", "disparity", "max_excess", "converged")]
  front <- front[order(front$disparity), , drop = FALSE]
  rownames(front) <- NULL
  structure(list(k = object$k, fits = nrow(tab), converged = sum(tab$converged), dominated = sum(tab$dominated),
                 standard = object$standard, front = front),
            class = "summary.fairproj_pareto_front")
}

#' @export
print.summary.fairproj_pareto_front <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("Pareto front of fair PCA, k = %d: %d fits, %d converged, %d dominated\n", x$k, x$fits,
              x$converged, x$dominated))
  cat(sprintf("Standard PCA: total loss %s, disparity %s\n", format(x$standard[["total"]], digits = digits),
              format(x$standard[["disparity"]], digits = digits)))
  cat("\nNon-dominated fits by disparity (total_vs_standard: relative excess of the total loss):\n")
  print(x$front, digits = digits, row.names = FALSE)
  invisible(x)
}

#' @rdname summary.fairproj_pareto_front
#' @export
glance.fairproj_pareto_front <- function(x, ...) {
  tab <- x$table
  front <- tab[!tab$dominated, , drop = FALSE]
  fp_tibble(data.frame(k = x$k, fits = nrow(tab), converged = sum(tab$converged), dominated = sum(tab$dominated),
                       standard_total = x$standard[["total"]], standard_disparity = x$standard[["disparity"]],
                       min_total = if (nrow(front)) min(front$total) else NA_real_,
                       min_disparity = if (nrow(front)) min(front$disparity) else NA_real_,
                       stringsAsFactors = FALSE))
}

#' @rdname summary.fairproj_pareto_front
#' @export
tidy.fairproj_pareto_front <- function(x, matrix = "fits", ...) {
  matrix <- fp_match_arg(matrix, c("fits", "plot"), "matrix")
  if (matrix == "plot") return(fp_plot_tidy(x, ...))
  fp_tibble(data.frame(fit = seq_len(nrow(x$table)), x$table, check.names = FALSE))
}
