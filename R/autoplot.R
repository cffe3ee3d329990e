# ggplot2 methods (ggplot2 is in Suggests; the methods are registered when it is loaded).

#' ggplot2 plots of fair PCA fits and Pareto fronts
#'
#' `autoplot()` methods for [ggplot2::autoplot()], available when ggplot2 is installed:
#' * `type = "scores"` (the default): the training scores on two components, coloured by
#'   group (the fit must have kept them, `retx = TRUE`);
#' * `type = "errors"` / `"loss"`: each group's average reconstruction error / marginal loss
#'   against the number of components, for this method (solid) and standard PCA (dashed),
#'   refitting from the stored moments (see [plot.fair_pca()]);
#' * `type = "convergence"`: the objective along the iterations of an iterative method;
#' * for a [pareto_front()]: total loss against disparity of every fit, with standard PCA.
#'
#' Colours are the colour-blind-safe Okabe-Ito palette.
#'
#' @param object A `fair_pca` or `fairproj_pareto_front` object.
#' @param type What to draw (see above).
#' @param choices The two components of the score plot.
#' @param kmax Largest number of components for `"errors"` and `"loss"`.
#' @param ... Unused.
#' @return A `ggplot` object.
#' @examples
#' if (requireNamespace("ggplot2", quietly = TRUE)) {
#'   fit <- fair_pca(iris[, 1:4], iris$Species, k = 2)
#'   ggplot2::autoplot(fit)
#'   ggplot2::autoplot(fit, "loss", kmax = 3)
#' }
#' @exportS3Method ggplot2::autoplot
autoplot.fair_pca <- function(object, type = c("scores", "errors", "loss", "convergence"), choices = 1:2,
                              kmax = NULL, ...) {
  fp_need_ggplot2()
  fp_autoplot_fair_pca(object, type = type, choices = choices, kmax = kmax)
}

#' @rdname autoplot.fair_pca
#' @exportS3Method ggplot2::autoplot
autoplot.fairproj_pareto_front <- function(object, ...) {
  fp_need_ggplot2()
  fp_autoplot_front(object)
}

fp_need_ggplot2 <- function() {
  if (!requireNamespace("ggplot2", quietly = TRUE)) {
    stop(errorCondition("autoplot() needs the package 'ggplot2': install.packages(\"ggplot2\")",
                        class = c("fairproj_missing_package", "fairproj_error")))
  }
}

fp_autoplot_fair_pca <- function(object, type, choices, kmax) {
  type <- fp_match_arg(type, c("scores", "errors", "loss", "convergence"), "type")
  gg <- ggplot2::ggplot
  aes <- ggplot2::aes
  if (type == "scores") {
    sc <- fp_scores_by_group(object, choices)
    pal <- fp_palette(nlevels(sc$group))
    return(gg(sc, aes(x = .data$x, y = .data$y, colour = .data$group)) +
             ggplot2::geom_point(alpha = if (nrow(sc) > 1000) 0.4 else 0.8, size = 1.2) +
             ggplot2::scale_colour_manual(values = unname(pal), name = "group") +
             ggplot2::labs(x = sc$xlab[1], y = sc$ylab[1],
                           title = sprintf("Scores of fair PCA (%s), by group", object$method)) +
             ggplot2::theme_bw())
  }
  if (type == "convergence") {
    y <- fp_history_objective(object)
    return(gg(data.frame(iteration = seq_along(y), objective = y), aes(x = .data$iteration, y = .data$objective)) +
             ggplot2::geom_line() + ggplot2::labs(title = sprintf("Convergence (%s)", object$method)) +
             ggplot2::theme_bw())
  }
  tab <- fp_errors_by_k(object, type, kmax)
  long <- rbind(data.frame(k = tab$k, group = tab$group, value = tab$fair, fit = object$method),
                data.frame(k = tab$k, group = tab$group, value = tab$standard, fit = "standard PCA"))
  long$fit <- factor(long$fit, levels = unique(c(object$method, "standard PCA")))
  long$group <- factor(long$group, levels = unique(tab$group))
  pal <- fp_palette(nlevels(long$group))
  gg(long, aes(x = .data$k, y = .data$value, colour = .data$group, linetype = .data$fit)) +
    ggplot2::geom_line() + ggplot2::geom_point() +
    ggplot2::scale_colour_manual(values = unname(pal)) +
    ggplot2::labs(x = "number of components k",
                  y = if (type == "errors") "average reconstruction error" else "marginal loss",
                  title = sprintf("Per-group %s by k", if (type == "errors") "error" else "marginal loss")) +
    ggplot2::theme_bw()
}

fp_autoplot_front <- function(object) {
  tab <- object$table
  tab$status <- ifelse(tab$dominated, "dominated", "non-dominated")
  std <- data.frame(disparity = object$standard[["disparity"]], total = object$standard[["total"]])
  p <- ggplot2::ggplot(tab, ggplot2::aes(x = .data$disparity, y = .data$total)) +
    ggplot2::geom_point(ggplot2::aes(shape = .data$status, colour = .data$converged), size = 2.5) +
    ggplot2::scale_shape_manual(values = c(`non-dominated` = 19, dominated = 1), name = NULL) +
    ggplot2::scale_colour_manual(values = c(`TRUE` = "#0072B2", `FALSE` = "#D55E00"), name = "converged") +
    ggplot2::labs(x = "disparity  max |E_g - E_h|", y = "total reconstruction loss",
                  title = sprintf("Pareto fair PCA, k = %d", object$k)) +
    ggplot2::theme_bw()
  if (all(is.finite(unlist(std)))) {
    p <- p + ggplot2::geom_point(data = std, shape = 4, size = 4, colour = "black") +
      ggplot2::annotate("text", x = std$disparity, y = std$total, label = "standard PCA", hjust = 1.1, vjust = -0.8, size = 3)
  }
  p
}

# Colour-blind-safe colours for n groups: Okabe-Ito without black, then an HCL palette.
fp_palette <- function(n) {
  if (n <= 8L) return(unname(grDevices::palette.colors(n + 1L, "Okabe-Ito")[-1L]))
  grDevices::hcl.colors(n, "Dark 3")
}

# The training scores of two components with the group of each row.
fp_scores_by_group <- function(object, choices = 1:2) {
  if (is.null(object$x)) fp_abort("has no training scores: refit with retx = TRUE from the rows", "object")
  r <- ncol(object$x)
  if (length(choices) != 2L || !all(choices %in% seq_len(r))) {
    if (r < 2L) fp_abort("has one component: a score plot needs k >= 2", "object")
    fp_abort(sprintf("must be two component numbers between 1 and %d", r), "choices")
  }
  g <- object$train_group
  if (is.null(g)) g <- factor(rep("all", nrow(object$x)))
  pct <- 100 * object$sdev^2 / object$totalvar
  lab <- function(j) if (j <= length(pct)) sprintf("PC%d (%.1f%% of the variance)", j, pct[j]) else sprintf("component %d", j)
  data.frame(x = object$x[, choices[1]], y = object$x[, choices[2]], group = g,
             xlab = lab(choices[1]), ylab = lab(choices[2]))
}

fp_history_objective <- function(object) {
  h <- object$history
  if (is.null(h)) fp_abort(sprintf("has no convergence history (method \"%s\" is not iterative)", object$method), "x")
  if (is.data.frame(h) || is.matrix(h)) as.matrix(h)[, if ("objective" %in% colnames(h)) "objective" else 1L] else h
}

# Per-group error or loss for k = 1, ..., kmax, refitting from the stored moments; says so.
fp_errors_by_k <- function(x, type = "errors", kmax = NULL, quiet = FALSE) {
  if (is.null(x$moments)) fp_abort("kept no moments: refit with keep_moments = TRUE", "x")
  d <- nrow(x$rotation)
  if (is.null(kmax)) kmax <- min(d, max(x$k + 3L, 10L))
  kmax <- fp_check_count(kmax, 1L, d, "kmax")
  ks <- seq_len(kmax)
  if (!quiet && kmax > 1L) {
    message(sprintf("Refitting method \"%s\" for k = %s from the stored moments (set kmax to refit fewer)",
                    x$method, paste(setdiff(ks, x$k), collapse = ", ")))
  }
  col <- if (type == "errors") "error" else "loss"
  rows <- lapply(ks, function(kk) {
    f <- if (kk == x$k) x else tryCatch(
      do.call(fair_pca, c(list(x$moments, k = kk, method = x$method, center = x$center,
                           scale. = x$scale, keep_moments = FALSE), x$args)),
      fairproj_error = function(e) NULL)
    if (is.null(f)) return(NULL)
    data.frame(k = kk, group = f$group_stats$group, fair = f$group_stats[[col]],
               standard = f$group_stats_standard[[col]], stringsAsFactors = FALSE)
  })
  do.call(rbind, rows)
}

utils::globalVariables(".data")
