# Methods of pareto_front() results (class fairproj_pareto_front).

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
#' the smallest total loss and disparity on the front. A front holds several fits and chooses
#' none, so `augment()` of a front is an error of class `fairproj_input_error` that says how to
#' augment one of its fits: `augment(x$fits[[i]], data)` ([augment.fair_pca()]), `i` from the
#' `fit` column of `tidy()`.
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
#' head(augment(pf$fits[[1]], data = pbc2))
#' @export
summary.fairproj_pareto_front <- function(object, ...) {
  tab <- object$table
  s_tot <- object$standard[["total"]]
  # a standard total of 0 (k = rank): a total of 0 is no excess, any other total an infinite one
  tab$total_vs_standard <- if (is.finite(s_tot) && s_tot > 0) tab$total / s_tot - 1 else if (identical(s_tot, 0)) {
    ifelse(tab$total == 0, 0, Inf)
  } else NA_real_
  front <- tab[!tab$dominated, c("start", "total", "total_vs_standard", "disparity", "max_excess", "converged")]
  front <- front[order(front$disparity), , drop = FALSE]
  rownames(front) <- NULL
  structure(list(k = object$k, fits = nrow(tab), converged = sum(tab$converged), dominated = sum(tab$dominated),
                 standard = object$standard, front = front),
            class = "summary.fairproj_pareto_front")
}

#' @export
print.summary.fairproj_pareto_front <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
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
  fp_tibble(data.frame(k = as.integer(x$k), fits = nrow(tab), converged = sum(tab$converged), dominated = sum(tab$dominated),
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

#' @rdname summary.fairproj_pareto_front
#' @export
augment.fairproj_pareto_front <- function(x, ...) {
  fp_abort(sprintf("is a front of %d fit(s) and chooses none, so it has no scores of its own: augment one fit, augment(x$fits[[i]], data) with i from the `fit` column of tidy(x) (summary(x) lists the non-dominated fits)",
                   length(x$fits)), "x")
}

#' @export
print.fairproj_pareto_front <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
  cat(sprintf("<fairproj_pareto_front> %d fits of Pareto fair PCA, k = %d; %d of them converged\n",
              length(x$fits), x$k, sum(x$table$converged)))
  cat(sprintf("standard PCA: total loss %s, disparity %s\n", format(x$standard[["total"]], digits = digits),
              format(x$standard[["disparity"]], digits = digits)))
  print(x$table[, c("start", "total", "disparity", "max_excess", "dominated", "converged")], digits = digits,
        row.names = FALSE)
  invisible(x)
}

#' @rdname plot.fairproj_pareto_front
#' @param object A `fairproj_pareto_front` object (for `autoplot()`).
#' @method autoplot fairproj_pareto_front
#' @exportS3Method ggplot2::autoplot fairproj_pareto_front
autoplot.fairproj_pareto_front <- function(object, type = NULL, ...) {
  fp_plot_gg(object, type, ...)  # `...`: the type's arguments and main, xlab, ylab
}

#' @exportS3Method fp_plot_data fairproj_pareto_front
fp_plot_data.fairproj_pareto_front <- function(x, type = NULL, ...) {
  type <- fp_plot_type(x, type)
  fp_plot_no_dots(list(...), type)
  tab <- x$table
  s_tot <- x$standard[["total"]]
  s_dis <- x$standard[["disparity"]]
  rel <- is.finite(s_tot) && s_tot > 0
  start <- ifelse(tab$start == "pca", "from standard PCA", "from a random start")
  d <- data.frame(fit = paste0("fit ", seq_len(nrow(tab))), start = start,
                  status = ifelse(tab$dominated, "dominated", "non-dominated"), k = x$k,
                  disparity = tab$disparity, total = tab$total,
                  value = if (rel) 100 * (tab$total / s_tot - 1) else tab$total,
                  converged = tab$converged, stringsAsFactors = FALSE)
  if (is.finite(s_dis) && (rel || is.finite(s_tot))) {
    d <- rbind(d, data.frame(fit = "standard PCA", start = "standard PCA", status = "standard PCA", k = x$k,
                             disparity = s_dis, total = s_tot, value = if (rel) 0 else s_tot,
                             converged = NA, stringsAsFactors = FALSE))
  }
  st <- c("from standard PCA", "from a random start", "standard PCA")
  ss <- c("non-dominated", "dominated", "standard PCA")
  d$start <- factor(d$start, levels = st)
  d$status <- factor(d$status, levels = ss)
  span <- diff(range(d$value[d$fit != "standard PCA"]))
  caption <- if (rel) sprintf("Total losses span %s%% of standard PCA's total loss (%s)",
                              format(signif(span, 2)), format(signif(s_tot, 4))) else if (identical(s_tot, 0)) {
    "Total loss of standard PCA is 0 (k at the data's rank): absolute totals"
  } else "Total loss of standard PCA not available: absolute totals"
  nconv <- sum(!tab$converged)
  if (nconv) caption <- paste0(caption, sprintf("; %d fit(s) did not converge", nconv))
  # fits that coincide (within 0.5% of each axis's range) hide each other's markers: each point
  # counts the fits drawn there, and the caption says how many coincide
  cell <- function(v) {
    r <- diff(range(v, finite = TRUE))
    if (!(r > 0)) r <- max(abs(v), 1, na.rm = TRUE)
    round(v / (0.005 * r))
  }
  key <- paste(cell(d$disparity), cell(d$value))
  d$overlap <- as.integer(stats::ave(seq_along(key), key, FUN = length))
  hidden <- sum(d$overlap > 1L & d$fit != "standard PCA")
  if (hidden) {
    caption <- paste0(caption, sprintf("; %d fits coincide at %d point(s), their markers drawn over each other (see the table)",
                                       hidden, length(unique(key[d$overlap > 1L]))))
  }
  spec <- fp_spec("disparity", "value", list(fp_layer("point", cex = 1.4)),
                  list(colour = fp_scale("start", st, c(fp_palette_methods(2), "black"), "fit", hide = "standard PCA"),
                       shape = fp_scale("status", ss, c(16L, 1L, 4L), "status")),
                  title = sprintf("Pareto fair PCA, k = %d", x$k),
                  subtitle = sprintf("%d fits; standard PCA for reference", nrow(tab)),
                  xlab = "disparity (largest |E_g - E_h|)",
                  ylab = if (rel) "total loss, % above standard PCA" else "total reconstruction loss",
                  caption = caption)
  fp_plot_frame(d, spec, type)
}
