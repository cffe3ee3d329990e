# Methods of tune_fair_pca() results (class fairproj_tune).

#' @export
print.fairproj_tune <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
  cat(sprintf("Cross-validated tuning of fair_pca(method = \"%s\"): %d candidates, %d folds, criterion %s\n\n",
              x$method, nrow(x$table), max(x$folds), x$criterion))
  tab <- x$table
  tab$chosen <- ifelse(seq_len(nrow(tab)) == which.min(tab$criterion), "*", "")
  print(utils::head(tab, 20L), digits = digits, row.names = FALSE)
  if (nrow(tab) > 20L) cat(sprintf("... %d more candidates (see $table or tidy())\n", nrow(tab) - 20L))
  cat("\nChosen:", fp_tune_best_label(x$best), "\n")
  invisible(x)
}

fp_tune_best_label <- function(best) {
  paste(names(best), vapply(best, format, character(1)), sep = " = ", collapse = ", ")
}

#' Summarise, tidy and plot a cross-validated tuning
#'
#' `summary()` gives the chosen parameters, the best candidates by mean held-out criterion
#' (with its standard error over the folds), the fold sizes per group and the refitted
#' model's per-group table; `tidy()` returns one of the tables as a tibble (when tibble is
#' installed); `glance()` gives one row (method, k, criterion, number of candidates and folds, the
#' chosen parameters with their held-out criterion and its standard error); `predict()` gives the
#' scores of the refitted model ([predict.fair_pca()]) and `augment()` the rows with those scores
#' appended, as [augment()][augment.fair_pca] of the refitted model does; `plot()` (base graphics) and
#' `autoplot()` (ggplot2) draw, from the same data:
#' * `type = "criterion"` (the default): the mean held-out criterion of each candidate, with
#'   error bars of one standard error, against the first numeric parameter of the grid (a
#'   line per value of the other parameters); the chosen candidate is ringed;
#' * `type = "tradeoff"`: the mean held-out ARE against ABDiff of every candidate.
#'
#' @param object,x A `fairproj_tune` object.
#' @param newdata For `predict()`: new rows, as for [predict.fair_pca()]; without it, the scores
#'   of the training rows. For `augment()`: new rows, scored as `data` is; used in place of
#'   `data` when both are given.
#' @param data For `augment()`: a data.frame (or tibble, data.table, matrix) with the model's
#'   columns, usually the training data; each row gets the refitted model's scores appended
#'   ([augment.fair_pca()]).
#' @param matrix For `tidy()`: `"table"` (one row per candidate: parameters, mean held-out
#'   ARE, ABDiff, max_loss, criterion and its standard error `std.error`, broom's name for the
#'   `se` of `$table`, and `chosen`), `"cv"` (one
#'   row per fold and candidate) or `"plot"` (the data of a plot; give `type`).
#' @param type The plot type (see above).
#' @param n Number of candidates `summary()` shows.
#' @param ... For `tidy(matrix = "plot")`, `type`; for `predict()` and `augment()` an argument
#'   given here (a misspelt `newdata`, such as `new_data`) is an error naming `...`; otherwise
#'   unused.
#' @param main,xlab,ylab Replace the title and axis labels (also for `autoplot()`, through `...`).
#' @return `summary()`: an object of class `summary.fairproj_tune`. `tidy()` and `glance()`: a
#'   tibble (or data.frame). `augment()`: the tibble (or data.frame) of
#'   [augment.fair_pca()] for the refitted model (`.rownames`, the data, `.fittedPC1`, ...).
#'   `predict()`: the score matrix. `plot()`: invisibly, the data drawn. `autoplot()`: a `ggplot` object.
#' @seealso [tune_fair_pca()], [group_errors()] for ARE and ABDiff.
#' @family plots
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' tn <- tune_fair_pca(pbc2[1:6], pbc2$sex, k = 2, method = "robust", scale. = TRUE,
#'                     grid = list(alpha = c(0.05, 0.15), lambda = c(0, 0.5)),
#'                     iterations = 50, restarts = 1, iterate = "best", seed = 1)
#' summary(tn)
#' tidy(tn)
#' glance(tn)
#' head(predict(tn, pbc2[1:6]))
#' head(augment(tn, data = pbc2))
#' plot(tn)
#' plot(tn, "tradeoff")
#' @export
summary.fairproj_tune <- function(object, n = 5L, ...) {
  n <- fp_check_count(n, 1L, .Machine$integer.max, "n")
  tab <- object$table
  tab$chosen <- seq_len(nrow(tab)) == which.min(tab$criterion)
  top <- utils::head(tab[order(tab$criterion), , drop = FALSE], n)
  fold_sizes <- table(fold = object$folds, group = if (!is.null(object$model$train_group))
    object$model$train_group else rep("all", length(object$folds)))
  structure(list(method = object$method, criterion = object$criterion, best = object$best,
                 candidates = nrow(tab), folds = max(object$folds), top = top, fold_sizes = fold_sizes,
                 groups = object$model$group_stats),
            class = "summary.fairproj_tune")
}

#' @export
print.summary.fairproj_tune <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
  cat(sprintf("Cross-validated tuning of fair_pca(method = \"%s\"): %d candidates, %d folds, criterion %s\n",
              x$method, x$candidates, x$folds, x$criterion))
  cat("Chosen:", fp_tune_best_label(x$best), "\n\n")
  cat(sprintf("Best %d candidates by mean held-out criterion (se: standard error over the folds):\n",
              nrow(x$top)))
  print(x$top, digits = digits, row.names = FALSE)
  cat("\nRows per fold and group:\n")
  print(x$fold_sizes)
  cat("\nRefitted model on all rows, per group:\n")
  print(x$groups, digits = digits, row.names = FALSE)
  invisible(x)
}

#' @rdname summary.fairproj_tune
#' @export
tidy.fairproj_tune <- function(x, matrix = "table", ...) {
  matrix <- fp_match_arg(matrix, c("table", "cv", "plot"), "matrix")
  if (matrix == "plot") return(fp_plot_tidy(x, ...))
  if (matrix == "cv") return(fp_tibble(x$cv))
  tab <- x$table
  tab$chosen <- seq_len(nrow(tab)) == which.min(tab$criterion)
  names(tab)[names(tab) == "se"] <- "std.error"  # broom's name for a standard error
  fp_tibble(tab)
}

#' @rdname summary.fairproj_tune
#' @export
glance.fairproj_tune <- function(x, ...) {
  j <- which.min(x$table$criterion)
  fp_tibble(data.frame(method = x$method, k = x$model$k, criterion = x$criterion, candidates = nrow(x$table),
                       folds = max(x$folds), chosen = fp_tune_best_label(x$best),
                       cv_criterion = x$table$criterion[j], cv_se = x$table$se[j],
                       nobs = fp_count_value(sum(x$model$groups$n)), ngroups = nrow(x$model$groups),
                       stringsAsFactors = FALSE))
}

#' @rdname summary.fairproj_tune
#' @export
augment.fairproj_tune <- function(x, data = NULL, newdata = NULL, ...) {
  fp_check_no_dots(...names(), ...length(), "augment() of a fairproj_tune result", c("x", "data", "newdata"))
  augment(fp_tune_model(x), data = data, newdata = newdata)
}

# The refitted fair_pca model of a tuning `x`, which augment() delegates to; a classed error
# saying how to get one when `x` holds none (an object edited or saved without it).
fp_tune_model <- function(x) {
  if (!inherits(x$model, "fair_pca")) {
    fp_abort("holds no refitted model (`$model`): run tune_fair_pca() again, or fit fair_pca() with the chosen parameters (`$best`) and use that fit",
             "x")
  }
  x$model
}

#' @rdname summary.fairproj_tune
#' @export
predict.fairproj_tune <- function(object, newdata, ...) {
  fp_check_no_dots(...names(), ...length(), "predict() of a fairproj_tune result", c("object", "newdata"))
  if (missing(newdata)) return(predict(object$model))
  predict(object$model, newdata)
}

#' @rdname summary.fairproj_tune
#' @export
plot.fairproj_tune <- function(x, type = NULL, ..., main = NULL, xlab = NULL, ylab = NULL) {
  fp_plot_base(x, type, ..., main = main, xlab = xlab, ylab = ylab)
}

#' @rdname summary.fairproj_tune
#' @method autoplot fairproj_tune
#' @exportS3Method ggplot2::autoplot fairproj_tune
autoplot.fairproj_tune <- function(object, type = NULL, ...) {
  fp_plot_gg(object, type, ...)  # `...`: the type's arguments and main, xlab, ylab
}

# The smallest gap between distinct positions (1 when there is one position): series dodged
# by a small fraction of it keep apart and never reach the next position's.
fp_min_gap <- function(pos) {
  u <- sort(unique(pos))
  if (length(u) < 2L) 1 else min(diff(u))
}

#' @exportS3Method fp_plot_data fairproj_tune
fp_plot_data.fairproj_tune <- function(x, type = NULL, ...) {
  type <- fp_plot_type(x, type)
  fp_plot_no_dots(list(...), type)
  tab <- x$table
  pars <- setdiff(names(tab), c("ARE", "ABDiff", "max_loss", "criterion", "se"))
  best <- which.min(tab$criterion)
  # the x axis: the numeric parameter with the most values (the first on ties), so that the
  # fewest series share a position; the others name the series
  nval <- vapply(pars, function(p) if (is.numeric(tab[[p]])) length(unique(tab[[p]])) else 0L, integer(1))
  xpar <- if (any(nval > 1L)) pars[which.max(nval)] else NULL
  others <- setdiff(pars, xpar)
  others <- others[vapply(others, function(p) length(unique(tab[[p]])) > 1L, logical(1))]
  series <- if (length(others)) {
    do.call(paste, c(lapply(others, function(p) paste(p, "=", format(tab[[p]]))), sep = ", "))
  } else "all candidates"
  d <- data.frame(candidate = seq_len(nrow(tab)), tab[pars], check.names = FALSE, stringsAsFactors = FALSE)
  d$series <- factor(series, levels = unique(series))
  d$position <- if (is.null(xpar)) d$candidate else tab[[xpar]]
  d$fit <- x$method
  d$k <- x$model$k
  d$value <- tab$criterion
  d$std.error <- tab$se  # broom's name, as tidy() of the fit says
  d$lower <- tab$criterion - tab$se
  d$upper <- tab$criterion + tab$se
  d$ARE <- tab$ARE
  d$ABDiff <- tab$ABDiff
  d$chosen <- d$candidate == best
  ns <- nlevels(d$series)
  scales <- list(colour = fp_scale("series", levels(d$series), if (ns > 1L) fp_palette_methods(ns) else "black",
                                   paste(others, collapse = ", ")),
                 shape = fp_scale("series", levels(d$series), fp_shapes(ns), paste(others, collapse = ", ")))
  chosen <- sprintf("chosen: %s", paste(names(x$best), vapply(x$best, format, character(1)), sep = " = ",
                                        collapse = ", "))
  pos <- d$position
  logx <- if (!is.null(xpar) && all(pos > 0) && max(pos) / min(pos) >= 100) "x" else ""
  ring <- fp_layer("point", where = list(chosen = "TRUE"), colour = "black", shape = 1L, cex = 2.6)
  if (type == "criterion") {
    spec <- fp_spec("position", "value",
                    list(fp_layer("errorbar", ymin = "lower", ymax = "upper", alpha = 0.6),
                         fp_layer("line"), fp_layer("point", cex = 1.1), ring),
                    if (ns > 1L) scales else list(),
                    title = sprintf("Cross-validated tuning (%s)", fp_fit_label(x$method)),
                    subtitle = sprintf("%s; ring: %s", x$criterion, chosen),
                    xlab = if (is.null(xpar)) "candidate" else xpar,
                    ylab = sprintf("mean held-out %s (+/- 1 se)", x$criterion),
                    x_integer = is.null(xpar), log = logx, legend = ns > 1L,
                    # ticks at the values tried (up to 12 of them), and series set side by side
                    # by a small fraction of the grid's spacing, so that no point seems to
                    # stand at a value never tried
                    x_breaks = if (!is.null(xpar) && length(unique(pos)) <= 12L) sort(unique(pos)),
                    dodge = if (ns > 1L && logx == "") list(column = "series", width = min(0.4, 0.12 * ns) * fp_min_gap(pos)))
  } else {
    spec <- fp_spec("ABDiff", "ARE", list(fp_layer("point", cex = 1.2), ring), if (ns > 1L) scales else list(),
                    title = sprintf("Held-out trade-off (%s)", fp_fit_label(x$method)),
                    subtitle = sprintf("one point per candidate; ring: %s", chosen),
                    xlab = "ABDiff (gap between the groups' errors)", ylab = "ARE (average reconstruction error)",
                    legend = ns > 1L)
  }
  d$chosen <- as.character(d$chosen)
  fp_plot_frame(d, spec, type)
}
