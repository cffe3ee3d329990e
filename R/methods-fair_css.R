#' @export
print.fair_css <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("Fair column subset selection (method \"%s\"): %d of %d columns, k = %d, %d groups, %s rows\n",
              x$method, x$c, length(x$colnames), x$k, nrow(x$groups),
              format(sum(x$groups$n), big.mark = ",")))
  shown <- utils::head(x$column_names, 20L)
  cat("Columns (in selection order): ", paste(shown, collapse = ", "),
      if (x$c > 20L) sprintf(", ... (%d more)", x$c - 20L) else "", "\n", sep = "")
  if (!is.null(x$sampler)) {
    cat(sprintf("Sampler: %d columns reach theta = %s for every group\n", x$sampler$c, format(x$sampler$theta)))
  }
  cat(sprintf("MinMaxLoss = %s\n\n", format(x$loss, digits = digits)))
  print(x$group_stats, digits = digits, row.names = FALSE)
  invisible(x)
}

#' Summarise a fair column subset selection
#'
#' @param object A `fair_css` object.
#' @param ... Unused.
#' @return An object of class `summary.fair_css`: `groups` (per-group error, best rank-k
#'   error and ratio), `loss` (MinMaxLoss), `columns`, `path` (MinMaxLoss of each prefix of the
#'   selection), the sampler's `c` and `theta` where a sampler was used, for greedy the
#'   denominators used, and, for the exhaustive method, the unfair optimum's per-group table and
#'   whether the branch and bound completed (`bnb`: `complete`, `lower`).
#' @seealso [fair_css()], [tidy.fair_css()], [plot.fair_css()].
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(100 * 6), 100, 6) %*% matrix(rnorm(36), 6)
#' summary(fair_css(x, rep(1:2, 50), k = 2))
#' @export
summary.fair_css <- function(object, ...) {
  structure(list(method = object$method, k = object$k, c = object$c, loss = object$loss,
                 columns = object$column_names, groups = object$group_stats, path = object$path,
                 sampler = if (!is.null(object$sampler)) object$sampler[c("c", "theta", "sums")],
                 random_mean = object$random_mean, unfair = object$unfair,
                 denominators = object$denominators, rule = object$rule,
                 bnb = if (identical(object$search, "bnb")) list(complete = object$complete, lower = object$lower),
                 call = object$call),
            class = "summary.fair_css")
}

#' @export
print.summary.fair_css <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\nMethod \"%s\", k = %d, %d columns: %s\n", x$method, x$k, x$c,
              paste(utils::head(x$columns, 30L), collapse = ", ")))
  cat("\nPer group: error ||X_g - C_g C_g^+ X_g||_F, best rank-k error, ratio\n")
  print(x$groups, digits = digits, row.names = FALSE)
  cat(sprintf("\nMinMaxLoss = %s\n", format(x$loss, digits = digits)))
  if (!is.null(x$sampler)) {
    cat(sprintf("Sampler: c = %d columns, theta = %s, score sums: %s\n", x$sampler$c, format(x$sampler$theta),
                paste(format(x$sampler$sums, digits = digits), collapse = ", ")))
  }
  if (!is.null(x$denominators)) {
    cat(sprintf("Greedy denominators: %s%s\n", x$denominators,
                if (identical(x$rule, "authors")) " (rule = \"authors\": the authors' code)" else ""))
  }
  if (!is.null(x$bnb)) {
    if (isTRUE(x$bnb$complete)) cat("Branch and bound: completed, the optimum is certified\n")
    else cat(sprintf("Branch and bound: stopped at max_nodes; the optimum is at least %s\n", format(x$bnb$lower, digits = digits)))
  }
  if (!is.null(x$random_mean)) cat(sprintf("Mean MinMaxLoss of the random draws: %s\n", format(x$random_mean, digits = digits)))
  if (!is.null(x$unfair)) {
    cat("\nUnfair optimum (smallest error of all rows together):", paste(x$unfair$column_names, collapse = ", "), "\n")
    print(x$unfair$group_stats, digits = digits, row.names = FALSE)
  }
  cat("\nMinMaxLoss of the first j selected columns:\n")
  p <- x$path$loss
  names(p) <- x$path$columns
  print(utils::head(p, 30L), digits = digits)
  invisible(x)
}

#' Selected columns and reconstructions of a fair column subset selection
#'
#' `predict()` returns the selected columns of new data (in selection order);
#' `reconstruct()` reconstructs all columns from the selected ones by least squares,
#' `X[, S] %*% W` with `W = G[S, S]^+ G[S, ]` from the training Gram matrices: each group's
#' own `W_g` when `group` is given (the reconstruction the loss measures), otherwise the
#' pooled one.
#'
#' @param object A `fair_css` object.
#' @param newdata A numeric matrix or data.frame with the columns of the training data:
#'   matched by name when both are named (any order; missing or extra columns are an error of
#'   class `fairproj_newdata_error`), by position otherwise; for a fit from the formula
#'   interface, a raw data.frame (see [predict.fair_pca()]). Rows with `NA` give `NA` rows.
#' @param group For `reconstruct()`: optional group labels of the rows of `newdata` (levels
#'   of the training groups).
#' @param ... Unused.
#' @return `predict()`: the n x c matrix of selected columns. `reconstruct()`: an n x d matrix.
#' @seealso [fair_css()], [tidy.fair_css()], [step_fair_css()].
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(100 * 6), 100, 6) %*% matrix(rnorm(36), 6)
#' g <- rep(1:2, 50)
#' fit <- fair_css(x, g, k = 3)
#' head(predict(fit, x))
#' nobs(fit)
#' r <- reconstruct(fit, x, group = g)
#' sqrt(sum((x - r)[g == 1, ]^2)) / fit$group_stats$error[1]
#' @export
predict.fair_css <- function(object, newdata, ...) {
  if (missing(newdata)) fp_abort("is missing", "newdata")
  x <- fp_css_newdata(object, newdata)
  x[, object$columns, drop = FALSE]
}

#' @rdname predict.fair_css
#' @return `nobs()`: the number of training rows.
#' @importFrom stats nobs
#' @export
nobs.fair_css <- function(object, ...) as.integer(sum(object$groups$n))

fp_css_newdata <- function(object, newdata, arg = "newdata") {
  fp_match_newdata(object, newdata, arg = arg, allow_na = TRUE)
}

#' @rdname predict.fair_css
#' @export
reconstruct.fair_css <- function(object, newdata, group = NULL, ...) {
  if (missing(newdata)) fp_abort("is missing", "newdata")
  x <- fp_css_newdata(object, newdata)
  ct <- if (isFALSE(object$center)) rep(0, ncol(x)) else object$center
  sc <- if (is.null(object$scale) || isFALSE(object$scale)) rep(1, ncol(x)) else object$scale
  z <- sweep(sweep(x, 2L, ct, `-`), 2L, sc, `/`)
  C <- z[, object$columns, drop = FALSE]
  if (is.null(group)) {
    out <- C %*% object$coef$.pooled
  } else {
    g <- fp_as_group(group, nrow(x), "group", min_levels = 1L)
    bad <- setdiff(levels(g), object$groups$group)
    if (length(bad)) fp_abort(sprintf("has level(s) not seen in training: %s", paste(bad, collapse = ", ")), "group")
    out <- matrix(0, nrow(x), ncol(x))
    for (l in levels(g)) {
      rows <- which(g == l)
      out[rows, ] <- C[rows, , drop = FALSE] %*% object$coef[[l]]
    }
  }
  out <- sweep(sweep(out, 2L, sc, `*`), 2L, ct, `+`)
  dimnames(out) <- dimnames(x)
  out
}

#' Plot a fair column subset selection
#'
#' Draws each group's loss (its error over its best rank-k error) of the first `j` selected
#' columns against `j`, with MinMaxLoss (the largest of them) as a wide grey band behind; the
#' x axis names the column added at each step (up to 30 columns). A dotted line marks loss 1
#' (each group's best rank-k error) and another the target `k`. `plot()` draws with base
#' graphics, `autoplot()` with ggplot2, from the same data (`tidy(x, matrix = "plot")`), in the
#' colour-blind-safe Okabe-Ito palette.
#'
#' @param x A `fair_css` object.
#' @param type The plot type: `"path"` (the only one).
#' @param ... For `plot()`, `legend = FALSE` drops the legend.
#' @param main,xlab,ylab Replace the title and axis labels (also for `autoplot()`, through `...`).
#' @return `plot()`: invisibly, the data drawn (one row per group and number of columns).
#'   `autoplot()`: a `ggplot` object.
#' @seealso [fair_css()], [tidy.fair_css()], [plot.fair_pca()].
#' @family plots
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(100 * 8), 100, 8) %*% matrix(rnorm(64), 8)
#' plot(fair_css(x, rep(1:2, 50), k = 3, method = "sampler", theta = 2.9))
#' @export
plot.fair_css <- function(x, type = NULL, ..., main = NULL, xlab = NULL, ylab = NULL) {
  fp_plot_base(x, type, ..., main = main, xlab = xlab, ylab = ylab)
}

#' Tidy a fair column subset selection (broom conventions)
#'
#' @param x A `fair_css` object.
#' @param matrix What to return: `"columns"` (the selected columns in selection order:
#'   `order`, `column`, `index`, and `loss`, the MinMaxLoss of the first `order` columns),
#'   `"groups"` (the per-group table: error, best rank-k error, ratio), `"path"` (each group's
#'   loss of the first j columns, in long form: `columns`, `group`, `loss`) or `"plot"` (the
#'   data of [plot.fair_css()]).
#' @param ... Unused.
#' @return A tibble when tibble is installed, otherwise a data.frame.
#' @seealso [fair_css()], [summary.fair_css()], [plot.fair_css()].
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(100 * 6), 100, 6) %*% matrix(rnorm(36), 6)
#' fit <- fair_css(x, rep(1:2, 50), k = 2)
#' tidy(fit)
#' tidy(fit, "groups")
#' @export
tidy.fair_css <- function(x, matrix = "columns", ...) {
  matrix <- fp_match_arg(matrix, c("columns", "groups", "path", "plot"), "matrix")
  out <- switch(matrix,
    columns = data.frame(order = seq_along(x$columns), column = x$column_names, index = x$columns,
                         loss = x$path$loss[seq_along(x$columns)], stringsAsFactors = FALSE),
    groups = x$group_stats,
    path = {
      lev <- as.character(x$groups$group)
      p <- x$path
      data.frame(columns = rep(p$columns, length(lev)), group = rep(lev, each = nrow(p)),
                 loss = as.vector(as.matrix(p[, lev, drop = FALSE])), stringsAsFactors = FALSE)
    },
    plot = return(fp_plot_tidy(x, ...)))
  fp_tibble(out)
}
