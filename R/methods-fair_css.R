#' @export
print.fair_css <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
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
  digits <- fp_print_digits(digits)
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
#'   matched by name when both are named (any order; other columns are ignored, missing ones
#'   are an error of class `fairproj_newdata_error`), by position otherwise; for a fit from the formula
#'   interface, a raw data.frame (see [predict.fair_pca()]). Missing values are kept where they
#'   are: `predict()` returns the selected values as they are (`NA` in the cells that are `NA`);
#'   `reconstruct()` gives an `NA` row for a row with a missing value in a selected column (the
#'   other columns are not read).
#' @param group For `reconstruct()`: optional group labels of the rows of `newdata` (levels
#'   of the training groups).
#' @param ... Unused by `nobs()` and `coef()`; for `predict()`, `reconstruct()`, `fitted()` and
#'   `residuals()` an argument given here (a misspelt `newdata`, such as `new_data`) is an error
#'   naming `...`.
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
  fp_check_no_dots(...names(), ...length(), "predict() of a fair_css fit", c("object", "newdata"))
  if (missing(newdata)) fp_abort("is missing", "newdata")
  x <- fp_css_newdata(object, newdata)
  x[, object$columns, drop = FALSE]
}

#' @rdname predict.fair_css
#' @return `nobs()`: the number of training rows.
#' @importFrom stats nobs
#' @export
nobs.fair_css <- function(object, ...) fp_count_value(sum(object$groups$n))

#' @rdname predict.fair_css
#' @return `fitted()`: the reconstruction of the rows `newdata` (as `reconstruct()`; a selection
#'   keeps no rows of its own); `residuals()`: `newdata` minus it. `coef()` is an error: a
#'   selection has no coefficients (its columns are `object$columns`).
#' @importFrom stats fitted residuals coef
#' @export
fitted.fair_css <- function(object, newdata, group = NULL, ...) {
  fp_check_no_dots(...names(), ...length(), "fitted() of a fair_css fit", c("object", "newdata", "group"))
  if (missing(newdata)) fp_abort("is missing: a column selection keeps no rows; give the rows to reconstruct", "newdata")
  reconstruct.fair_css(object, newdata, group = group)
}

#' @rdname predict.fair_css
#' @export
residuals.fair_css <- function(object, newdata, group = NULL, ...) {
  fp_check_no_dots(...names(), ...length(), "residuals() of a fair_css fit", c("object", "newdata", "group"))
  if (missing(newdata)) fp_abort("is missing: a column selection keeps no rows; give the rows", "newdata")
  x <- fp_css_newdata(object, newdata)
  x - reconstruct.fair_css(object, x, group = group)
}

#' @rdname predict.fair_css
#' @export
coef.fair_css <- function(object, ...) {
  fp_abort("is a column selection, which has no coefficients: its columns are `object$columns`; predict() gives them, reconstruct() the rest", "object")
}

fp_css_newdata <- function(object, newdata, arg = "newdata") {
  fp_match_newdata(object, newdata, arg = arg, allow_na = TRUE)
}

#' @rdname predict.fair_css
#' @export
reconstruct.fair_css <- function(object, newdata, group = NULL, ...) {
  fp_check_no_dots(...names(), ...length(), "reconstruct() of a fair_css fit", c("object", "newdata", "group"))
  if (missing(newdata)) fp_abort("is missing", "newdata")
  x <- fp_css_newdata(object, newdata)
  ct <- if (isFALSE(object$center)) rep(0, ncol(x)) else object$center
  sc <- if (is.null(object$scale) || isFALSE(object$scale)) rep(1, ncol(x)) else object$scale
  z <- sweep(sweep(x, 2L, ct, `-`), 2L, sc, `/`)
  C <- z[, object$columns, drop = FALSE]
  if (is.null(group)) {
    out <- C %*% object$coef$.pooled
  } else {
    # no rows: a group of length 0 has no levels, and the reconstruction has no rows
    g <- fp_as_group(group, nrow(x), "group", min_levels = if (nrow(x)) 1L else 0L)
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
#' (each group's best rank-k error; labelled in the right margin, in `autoplot()` as a secondary
#' y axis, which a y scale added to the plot replaces) and another the target `k`. `plot()`
#' draws with base graphics, `autoplot()` with ggplot2, from the same data
#' (`tidy(x, matrix = "plot")`), in the
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

#' Glance at and augment a fair column subset selection (broom conventions)
#'
#' `glance()` returns one row summarising the selection; `augment()` appends to each row of the
#' data its squared reconstruction error from the selected columns, the quantity whose sum over
#' a group's rows is that group's squared error in [summary()][summary.fair_css()]. See
#' [tidy.fair_css()] for `tidy()`.
#'
#' @param x A `fair_css` object.
#' @param data,newdata For `augment()`: the data whose rows are augmented (the training data in
#'   `data`, other rows in `newdata`; each row's error needs only its own values, so rows may be
#'   in any order and any subset). For a formula fit, a raw data.frame.
#' @param group For `augment()`: the group of each row, a vector or the name of a column of
#'   the data; by default the fit's group column when the data have it (formula fits). Each
#'   row is then reconstructed by its group's least-squares map, as the loss measures; without
#'   groups, by the pooled one (see [reconstruct()][reconstruct.fair_css()]).
#' @param ... Unused by `glance()`; for `augment()` an argument given here (a misspelt `newdata`,
#'   such as `new_data`) is an error naming `...`.
#' @return A tibble (or data.frame). `glance()`: one row with `method`, `k`, `c` (columns
#'   selected), `ncol`, `nobs`, `ngroups`, `max_loss` (MinMaxLoss, the largest group ratio),
#'   `min_loss` and `loss_gap` (largest minus smallest ratio). `augment()`: `.rownames`, the
#'   data and `.sq_error`, the row's squared reconstruction error in the units of the fit
#'   (after its centring and scaling), `NA` for a row with a missing value.
#' @seealso [fair_css()], [tidy.fair_css()], [reconstruct()][reconstruct.fair_css()].
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(100 * 6), 100, 6) %*% matrix(rnorm(36), 6)
#' g <- rep(1:2, 50)
#' fit <- fair_css(x, g, k = 2)
#' glance(fit)
#' a <- augment(fit, data = as.data.frame(x), group = g)
#' sqrt(tapply(a$.sq_error, g, sum))  # the groups' errors
#' fit$group_stats$error
#' @export
glance.fair_css <- function(x, ...) {
  r <- x$group_stats$ratio
  fp_tibble(data.frame(method = x$method, k = x$k, c = x$c, ncol = length(x$colnames),
                       nobs = fp_count_value(sum(x$groups$n)), ngroups = nrow(x$groups), max_loss = max(r),
                       min_loss = min(r), loss_gap = diff(range(r)), stringsAsFactors = FALSE))
}

#' @rdname glance.fair_css
#' @export
augment.fair_css <- function(x, data = NULL, newdata = NULL, group = NULL, ...) {
  fp_check_no_dots(...names(), ...length(), "augment() of a fair_css fit", c("x", "data", "newdata", "group"))
  if (is.null(newdata) && is.null(data)) {
    fp_abort("is missing: a column selection keeps no rows; give the rows in `data` or `newdata`", "data")
  }
  arg <- if (is.null(newdata)) "data" else "newdata"
  base <- if (is.null(newdata)) data else newdata
  if (!is.data.frame(base) && !is.matrix(base)) fp_abort("must be a data.frame or matrix", arg)
  by_position <- is.matrix(base) && is.null(colnames(base))  # columns taken by position, as by predict()
  base <- as.data.frame(base)
  if (is.null(group) && !is.null(x$group_name) && x$group_name %in% names(base)) group <- x$group_name
  if (is.character(group) && length(group) == 1L && nrow(base) != 1L) {
    if (!group %in% names(base)) fp_abort(sprintf("names column '%s', which `%s` does not have", group, arg), "group")
    dropped <- fp_drop_column(base, group, "group", arg)  # a group column named twice: an error
    feats <- if (is.null(x$terms)) dropped else base
    group <- base[[group]]
  } else {
    feats <- base
  }
  if (by_position) feats <- unname(as.matrix(feats))
  xm <- fp_css_newdata(x, feats, arg)
  rec <- reconstruct.fair_css(x, xm, group = group)
  sc <- if (isFALSE(x$scale)) rep(1, ncol(xm)) else x$scale
  err <- rowSums(sweep(xm - rec, 2L, sc, `/`)^2)
  out <- cbind(data.frame(.rownames = rownames(base), stringsAsFactors = FALSE), fp_unique_names(base),
               data.frame(.sq_error = unname(err)))
  rownames(out) <- NULL
  fp_tibble(out)
}

#' @rdname plot.fair_css
#' @param object A `fair_css` object (for `autoplot()`).
#' @method autoplot fair_css
#' @exportS3Method ggplot2::autoplot fair_css
autoplot.fair_css <- function(object, type = NULL, ...) {
  fp_plot_gg(object, type, ...)  # `...`: the type's arguments and main, xlab, ylab
}

#' @exportS3Method fp_plot_data fair_css
fp_plot_data.fair_css <- function(x, type = NULL, ...) {
  type <- fp_plot_type(x, type)
  fp_plot_no_dots(list(...), type)
  p <- x$path
  lev <- as.character(x$groups$group)
  j <- p$columns
  top <- "MinMaxLoss (largest)"
  d <- rbind(data.frame(k = rep(j, length(lev)), group = rep(lev, each = length(j)),
                        value = as.vector(as.matrix(p[, lev, drop = FALSE])), stringsAsFactors = FALSE),
             data.frame(k = j, group = top, value = p$loss, stringsAsFactors = FALSE))
  d$group <- factor(d$group, levels = c(lev, top))
  d$fit <- x$method
  d$column <- x$column_names[d$k]
  ng <- length(lev)
  cols <- c(fp_palette(ng), "grey60")
  shapes <- c(fp_shapes(ng), 32L)  # pch 32 (a blank): the band has no points, in the legend too
  names_ok <- length(j) <= 30L
  spec <- fp_spec("k", "value",
                  list(fp_layer("line", where = list(group = top), lwd = 6, alpha = 0.5),
                       fp_layer("line", where = list(group = lev)), fp_layer("point", where = list(group = lev))),
                  list(colour = fp_scale("group", c(lev, top), cols), shape = fp_scale("group", c(lev, top), shapes)),
                  title = sprintf("Fair column selection (%s), k = %d", x$method, x$k),
                  subtitle = "loss of the first j selected columns, per group",
                  xlab = if (names_ok) "column added at each step" else "number of selected columns j",
                  ylab = "error / group's best rank-k error",
                  ref = list(fp_ref("h", 1, "best rank-k error"), fp_ref("v", x$k, sprintf("k = %d", x$k))),
                  x_breaks = if (names_ok) j, x_labels = if (names_ok) paste0(j, ": ", x$column_names[j]),
                  x_integer = TRUE, y_zero = TRUE)
  fp_plot_frame(d[c("k", "column", "group", "fit", "value")], spec, type)
}
