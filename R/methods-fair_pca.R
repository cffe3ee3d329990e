#' @export
print.fair_pca <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
  cat(sprintf("Fair PCA (method \"%s\"): %d of %d dimensions, %d groups, %s rows\n", x$method,
              x$k, nrow(x$rotation), nrow(x$groups), format(sum(x$groups$n), big.mark = ",")))
  cat(fp_method_line(x), "\n", sep = "")
  if (!is.null(x$route)) cat(sprintf("route: %s (no d x d moments kept)\n", x$route))
  if (fp_has_map(x)) {
    cat(sprintf("The reconstruction is a linear map of rank %d (not an orthogonal projection); `rotation` spans its range.\n",
                ncol(x$rotation)))
  }
  cat("\nStandard deviations:\n")
  print(x$sdev, digits = digits)
  cat("\nPer-group average squared reconstruction error (each group about its own mean):\n")
  gs <- x$group_stats
  tab <- data.frame(group = gs$group, n = gs$n, error = gs$error, loss = gs$loss,
                    standard_error = x$group_stats_standard$error,
                    standard_loss = x$group_stats_standard$loss)
  print(tab, digits = digits, row.names = FALSE)
  if (!is.null(x$objective)) cat(sprintf("\nObjective: %s\n", format(x$objective, digits = digits)))
  invisible(x)
}

# One line: what the method optimises and whether the result is a rank-k projection.
fp_method_line <- function(x) {
  what <- switch(x$method,
    standard = "Maximises the total variance kept (ordinary PCA; no fairness criterion)",
    minmax = "Minimises the largest group marginal loss (error minus the group's own best rank-k error)",
    mean = "Maximises variance subject to equal projected group means (no linear function of the scores is correlated with the group)",
    pareto = "Trades total loss against the disparity of the groups' excess losses (a Pareto-stationary point)",
    robust = "Minimises a distributionally robust total error plus a gap between the groups' raw errors (raw errors, not marginal losses)",
    cfpca = "Maximises variance under convex constraints on the difference of projected group means and covariances",
    mbfpca = "Maximises variance under a bound on the MMD between the projected groups",
    inlp = "Removes the directions a linear classifier uses to predict the group, then keeps the top variance",
    rlace = "Removes the subspace, chosen by an adversarial game, whose removal leaves a linear classifier least able to predict the group, then keeps the top variance",
    sprintf("Method \"%s\"", x$method))
  shape <- if (fp_has_map(x)) {
    sprintf("the result is a linear map of rank %d, not a rank-%d orthogonal projection", ncol(x$rotation), x$k)
  } else if (ncol(x$rotation) == x$k) {
    sprintf("the result is a rank-%d orthogonal projection", x$k)
  } else {
    sprintf("the result has %d components", ncol(x$rotation))
  }
  sprintf("%s; %s.", what, shape)
}

#' Summarise a fair PCA fit
#'
#' @param object A `fair_pca` object.
#' @param ... Unused.
#' @return An object of class `summary.fair_pca`: `importance` (as in
#'   [stats::summary.prcomp()]: standard deviation, proportion of variance and cumulative
#'   proportion of each component) and `groups`, a data.frame with the per-group error, marginal
#'   loss and variance explained of this fit side by side with standard PCA at the same k, plus
#'   the largest loss and the loss gap (largest minus smallest) of both; `var_explained`, the
#'   fraction of the total variance the reconstruction keeps (1 - its squared error about the
#'   pooled mean / `totalvar`; the tables' errors are about each group's own mean), and
#'   `map_rank`, the rank of a min-max fit whose reconstruction is a linear map (else `NULL`).
#'   The standard deviations are those of the scores, as [stats::prcomp()]'s; for a projection
#'   the cumulative proportion at `k` is `var_explained`. A linear map (min-max's rounding above
#'   rank `k`, see [minmax]) shrinks the directions it keeps, so its reconstruction
#'   keeps more than its scores' variances add to; the print says both.
#' @seealso [fair_pca()], [tidy.fair_pca()], [plot.fair_pca()], [stats::summary.prcomp()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' fit <- fair_pca(pbc2[1:6], pbc2$sex, k = 2, scale. = TRUE)
#' summary(fit)
#' @export
summary.fair_pca <- function(object, ...) {
  imp <- rbind(`Standard deviation` = object$sdev,
               `Proportion of Variance` = object$sdev^2 / object$totalvar,
               `Cumulative Proportion` = cumsum(object$sdev^2) / object$totalvar)
  colnames(imp) <- colnames(object$rotation)
  gs <- object$group_stats
  st <- object$group_stats_standard
  groups <- data.frame(group = gs$group, n = gs$n, error = gs$error, error_standard = st$error,
                       loss = gs$loss, loss_standard = st$loss, var_explained = gs$var_explained,
                       var_explained_standard = st$var_explained, stringsAsFactors = FALSE)
  fairness <- data.frame(fit = c(object$method, "standard"),
                         max_loss = c(max(gs$loss), max(st$loss)),
                         loss_gap = c(diff(range(gs$loss)), diff(range(st$loss))),
                         error_gap = c(diff(range(gs$error)), diff(range(st$error))),
                         total_error = c(sum(gs$n * gs$error) / sum(gs$n), sum(st$n * st$error) / sum(st$n)))
  if (identical(object$method, "standard")) fairness <- fairness[1L, , drop = FALSE]  # one row, not the same twice
  structure(list(importance = imp, groups = groups, fairness = fairness, method = object$method,
                 k = object$k, call = object$call, var_explained = fp_var_explained(object),
                 map_rank = if (fp_has_map(object)) ncol(object$rotation)), class = "summary.fair_pca")
}

#' @export
print.summary.fair_pca <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\nImportance of components (method \"%s\", k = %d):\n", x$method, x$k))
  print(x$importance, digits = digits)
  if (!is.null(x$map_rank)) {
    cat(strwrap(sprintf(paste("The reconstruction is a linear map of rank %d, not a projection: it keeps %s%% of the variance",
                              "(1 - its error about the pooled mean / the total), more than its scores' variances above add to (%s%%), because",
                              "the map shrinks the directions it keeps."),
                        x$map_rank, format(100 * x$var_explained, digits = digits),
                        format(100 * x$importance[3L, ncol(x$importance)], digits = digits))), sep = "\n")
  }
  cat("\nPer-group reconstruction (average squared error about each group's mean):\n")
  print(x$groups, digits = digits, row.names = FALSE)
  cat("\nFairness summary:\n")
  print(x$fairness, digits = digits, row.names = FALSE)
  invisible(x)
}

# Kept for the callers in other files: the columns of new data for a fit (see R/newdata.R).
fp_newdata <- function(object, newdata, arg = "newdata", allow_na = FALSE) {
  fp_match_newdata(object, newdata, arg = arg, allow_na = allow_na)
}

#' Scores, reconstructions and conversions of a fair PCA fit
#'
#' `predict()` returns the scores (coordinates in the reduced space) of new rows, as
#' [stats::predict.prcomp()] does; `reconstruct()` maps rows to their reconstruction in the
#' original units (`center + scale * (z %*% P)` with `P` the fitted projection, or the fitted
#' linear map for methods whose output is not a projection); `as.prcomp()` converts the fit so
#' that tools written for `prcomp` objects work.
#'
#' **Columns of new data.** A fit from the formula interface rebuilds its columns (indicator
#' columns of factors, transformations) from a raw data.frame with the stored terms (columns
#' in any order, others ignored; a factor level not seen in training is an error of class
#' `fairproj_new_level_error`). Otherwise, when both the fit and `newdata` have column names,
#' columns are matched by name, in any order (other columns are ignored, as by
#' [stats::predict.prcomp()]), and missing columns are named in an error of class
#' `fairproj_newdata_error`; when either has no names, columns are taken by
#' position, as [stats::predict.prcomp()] does. A row with a missing value gives a row of
#' `NA` scores (and reconstruction).
#'
#' **`as.prcomp()`** follows `prcomp(rank. = k)`: `rotation` and `x` keep the `k` components,
#' and `sdev` has `d` entries, the `k` components' standard deviations followed by those of the
#' principal directions of what the fit leaves out (the eigenvectors of the covariance
#' restricted to the orthogonal complement of the fitted subspace, largest first). Every
#' entry is the spread of the data along a real direction, the `d` directions are orthonormal
#' (the left-out ones are the columns of the extra field `residual_rotation`), and the squares
#' of `sdev` sum to the total variance `totalvar` (in the fit's centring and scaling), so
#' [stats::summary.prcomp()], [stats::screeplot()] and the scree plots and axis labels of
#' prcomp consumers (factoextra's `fviz_eig()`) show the true fractions of variance, the same
#' as [summary.fair_pca()]. For a fair fit the entries after `k` need not be smaller than the
#' last component's: a fair subspace can leave out a direction of larger variance than one it
#' keeps, and the scree plot then shows it. As on `prcomp(rank. = k)` objects, plots that
#' multiply each row of `rotation` by `sdev` (factoextra's variable plots) use the first `k`
#' entries and warn when `d` is not a multiple of `k`; they draw `rotation * sdev` as the
#' variables' correlations with the components, which they are for eigenvectors only: for a
#' fair fit they are not (they can exceed 1 in absolute value), and
#' `cor(data, predict(fit, data))` gives the correlations. `call` and `na.action` are the
#' fit's, as on a fit of [stats::prcomp()]'s formula method. `fitted_components` is `k`. A min-max
#' fit whose reconstruction is a linear map of rank above `k` (see [minmax]) keeps its rank's
#' components (`fitted_components` is that rank) and the map's scores, `sdev` their standard
#' deviations: with the left-out directions they add to less than `totalvar` (the map shrinks
#' what it keeps), so proportions computed from them are not the map's; a warning of class
#' `fairproj_prcomp_warning` says so and gives the variance the map keeps. A fit made
#' with `keep_moments = FALSE` cannot say which directions it left out: its `sdev` has the `k`
#' entries only, with a warning of class `fairproj_prcomp_warning`. So has a fit by the row
#' route (`fair_pca(route = "rows")`), which keeps no d x d moments, except standard PCA's,
#' whose `sdev` then has its leading `max(k + 3, 10)` entries (its own components beyond `k`),
#' with the same warning saying how much variance the others hold (`totalvar` is exact).
#'
#' @param object A `fair_pca` object.
#' @param newdata A numeric matrix or data.frame with the columns the model was fitted on (see
#'   Details); for a formula fit, a raw data.frame. Rows with `NA` give rows of `NA`; no rows
#'   give no rows. If missing, `predict()` returns the training scores when kept.
#' @param ... Unused by `as.prcomp()`; for `predict()` and `reconstruct()` an argument given here
#'   (a misspelt `newdata`, such as `new_data`) is an error naming `...`.
#' @return `predict()`: an n x r matrix of scores. `reconstruct()`: an n x d matrix.
#'   `as.prcomp()`: an object of class `prcomp`, with the extra fields `fitted_components` and
#'   `residual_rotation` (d x (d - k)).
#' @seealso [fair_pca()], [coef.fair_pca()], [tidy.fair_pca()], [stats::predict.prcomp()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' fit <- fair_pca(pbc2[1:6], pbc2$sex, k = 2, scale. = TRUE)
#' head(predict(fit, pbc2[1:5, 1:6]))
#' head(reconstruct(fit, pbc2[1:5, 1:6]))
#' p <- as.prcomp(fit)
#' summary(p)  # the same proportions of variance as summary(fit)
#' p$sdev      # the 2 components, then the directions the fit leaves out
#' # a formula fit rebuilds factor columns from raw data
#' d <- transform(pbc2, edema = factor(survival::pbc[rownames(pbc2), "edema"]))
#' fit3 <- fair_pca(~ ., data = d, group = sex, k = 2, scale. = TRUE, method = "standard")
#' predict(fit3, d[1:3, ])
#' @export
predict.fair_pca <- function(object, newdata, ...) {
  # a misspelt `newdata` (tidymodels' `new_data`) would otherwise be ignored: the training scores
  fp_check_no_dots(...names(), ...length(), "predict() of a fair_pca fit", c("object", "newdata"))
  if (missing(newdata)) {
    if (!is.null(object[["x"]])) return(object[["x"]])
    fp_abort("is missing and the fit kept no training scores", "newdata")
  }
  x <- fp_match_newdata(object, newdata)
  z <- fp_transform(object, x)
  s <- z %*% object$rotation
  dimnames(s) <- list(rownames(x), colnames(object$rotation))
  s
}

#' @rdname predict.fair_pca
#' @export
reconstruct <- function(object, ...) {
  if (!nargs()) fp_check_given("object")
  UseMethod("reconstruct")
}

#' @rdname predict.fair_pca
#' @export
reconstruct.fair_pca <- function(object, newdata, ...) {
  # reconstruct() is the package's own generic: a misspelt or foreign argument (a fair_css
  # fit's `group`) is not ignored silently
  fp_check_no_dots(...names(), ...length(), "reconstruct() of a fair_pca fit", c("object", "newdata"))
  if (missing(newdata)) fp_abort("is missing", "newdata")
  x <- fp_match_newdata(object, newdata)
  z <- fp_transform(object, x)
  zr <- if (!is.null(object$map)) z %*% object$map else if (fp_has_map(object)) t(fp_map_times(object, t(z))) else (z %*% object$rotation) %*% t(object$rotation)
  sc <- if (isFALSE(object$scale)) rep(1, ncol(x)) else object$scale
  ct <- if (isFALSE(object$center)) rep(0, ncol(x)) else object$center
  out <- sweep(sweep(zr, 2L, sc, `*`), 2L, ct, `+`)
  dimnames(out) <- dimnames(x)
  out
}

#' @rdname predict.fair_pca
#' @export
reconstruct.default <- function(object, ...) {
  fp_abort(sprintf("must be a fair_pca or fair_css fit, not an object of class '%s'", class(object)[1]), "object")
}

#' @rdname predict.fair_pca
#' @param x A `fair_pca` object (for `as.prcomp()`).
#' @export
as.prcomp <- function(x, ...) {
  if (!nargs()) fp_check_given("x")
  UseMethod("as.prcomp")
}

#' @rdname predict.fair_pca
#' @export
as.prcomp.default <- function(x, ...) {
  what <- if (inherits(x, "fair_css")) {
    "a fair_css result selects columns and has no components (use predict() for the selected columns)"
  } else {
    sprintf("an object of class '%s' has no components to convert", class(x)[1])
  }
  fp_abort(sprintf("must be a fair_pca fit: %s", what), "x")
}

#' @rdname predict.fair_pca
#' @export
as.prcomp.prcomp <- function(x, ...) x

#' @rdname predict.fair_pca
#' @export
as.prcomp.fair_pca <- function(x, ...) {
  res <- fp_residual_directions(x)
  if (fp_has_map(x)) {
    known <- length(res$sdev) || ncol(x$rotation) >= nrow(x$rotation)
    fp_warn(sprintf(paste("`x`'s reconstruction is a linear map of rank %d (min-max's rounding above k = %d), not a projection,",
                          "which a prcomp object cannot hold: `x` and `sdev` are the map's scores and their standard deviations,",
                          "and %s add to %.3g%% of the total variance, so proportions",
                          "computed from `sdev` (summary(), scree plots) are not what the map keeps (%.3g%%: glance(), summary() of the fit)"),
                    ncol(x$rotation), x$k, if (known) "with the directions it leaves out they" else "they (the directions it leaves out are not known)",
                    100 * sum(c(x$sdev, res$sdev)^2) / x$totalvar, 100 * fp_var_explained(x)),
            class = "fairproj_prcomp_warning")
  }
  out <- list(sdev = c(x$sdev, res$sdev), rotation = x$rotation, center = x$center, scale = x$scale,
              x = x[["x"]], totalvar = x$totalvar, fitted_components = ncol(x$rotation),
              residual_rotation = res$rotation)
  # as prcomp()'s formula method keeps them
  out$call <- x$call
  out$na.action <- x$na.action
  structure(out, class = "prcomp")
}

# The principal directions of what a fit leaves out, and the standard deviations along them
# (largest first): an orthonormal basis B of the complement of the fit's components, and the
# eigenvectors of B' C B, with C the covariance in the fit's centring and scaling. They are
# orthogonal to the components and to each other, and because tr(C) = tr(P C P) + tr(B' C B)
# (P the projection onto the components, P + B B' = I) the squares of the fit's sdev and of
# these sum to `totalvar`. Without the moments (keep_moments = FALSE, or the row route) the
# directions are unknown: none, and a classed warning; standard PCA by the row route keeps the
# leading ones (its own eigenvectors beyond k, fp_rows_residual_directions()).
fp_residual_directions <- function(x) {
  d <- nrow(x$rotation)
  r <- ncol(x$rotation)
  none <- list(sdev = numeric(0), rotation = x$rotation[, 0, drop = FALSE])
  if (r >= d) return(none)
  if (is.null(x$moments) && !is.null(x$spectra$residual)) return(fp_rows_residual_directions(x))
  if (is.null(x$moments)) {
    fp_warn(if (!is.null(x$route)) "`x` was fitted by the row route, which keeps no d x d moments, so the directions it leaves out are unknown (standard PCA by the row route keeps the leading ones): `sdev` holds only its components, and proportions of variance computed from it are too large; refit with route = \"moments\" (its d x d moments) for them" else "`x` has no moments (it was fitted with keep_moments = FALSE), so the directions it leaves out are unknown: `sdev` holds only its components, and proportions of variance computed from it are too large; refit with keep_moments = TRUE",
            class = "fairproj_prcomp_warning")
    return(none)
  }
  prep <- fp_prepare(x$moments, if (isFALSE(x$center)) FALSE else x$center,
                     if (isFALSE(x$scale)) FALSE else x$scale)
  B <- qr.Q(qr(x$rotation), complete = TRUE)[, -seq_len(r), drop = FALSE]
  A <- crossprod(B, prep$C %*% B)
  e <- eigen((A + t(A)) / 2, symmetric = TRUE)
  V <- B %*% e$vectors
  for (j in seq_len(ncol(V))) {
    i <- which.max(abs(V[, j]))
    if (V[i, j] < 0) V[, j] <- -V[, j]
  }
  dimnames(V) <- list(rownames(x$rotation), paste0("R", seq_len(ncol(V))))
  list(sdev = sqrt(pmax(e$values, 0)), rotation = V)
}

#' Coefficients, loadings, fitted values and residuals of a fair PCA fit
#'
#' The accessors of [stats::prcomp()] habits: `coef()` returns the d x k matrix of loadings
#' (`rotation`); [stats::loadings()] returns the same with class `"loadings"`; `fitted()` the
#' reconstruction of the training rows in the original units (from the kept scores, or of
#' `newdata`); `residuals()` data minus reconstruction (`newdata`, since the fit does not keep
#' the rows; pass the training data for the training residuals); `nobs()` the number of
#' training rows.
#'
#' @param object A `fair_pca` object.
#' @param newdata Data with the model's columns (see [predict.fair_pca()]).
#' @param ... Unused by `coef()` and `nobs()`; for `fitted()` and `residuals()` an argument given
#'   here (a misspelt `newdata`, such as `new_data`) is an error naming `...`.
#' @return `coef()`: a d x k matrix. `fitted()`, `residuals()`: n x d matrices. `nobs()`: an
#'   integer.
#' @seealso [predict.fair_pca()], [reconstruct()], [stats::prcomp()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' fit <- fair_pca(pbc2[1:6], pbc2$sex, k = 2, scale. = TRUE)
#' coef(fit)
#' loadings(fit)
#' nobs(fit)
#' head(fitted(fit))
#' head(residuals(fit, pbc2[1:6]))
#' @export
#' @importFrom stats coef fitted residuals nobs
coef.fair_pca <- function(object, ...) object$rotation

#' @rdname coef.fair_pca
#' @export
fitted.fair_pca <- function(object, newdata, ...) {
  fp_check_no_dots(...names(), ...length(), "fitted() of a fair_pca fit", c("object", "newdata"))
  if (!missing(newdata)) return(reconstruct(object, newdata))
  if (is.null(object[["x"]])) {
    fp_abort("kept no training scores (a fit from moments keeps none, retx = FALSE drops them): give `newdata`", "object")
  }
  # the scores are coordinates in span(rotation), which also holds the output of a linear map
  # (predict() applies it), so the reconstruction is scores %*% t(rotation)
  r <- ncol(object$rotation)
  zr <- object[["x"]][, seq_len(r), drop = FALSE] %*% t(object$rotation)
  d <- nrow(object$rotation)
  sc <- if (isFALSE(object$scale)) rep(1, d) else object$scale
  ct <- if (isFALSE(object$center)) rep(0, d) else object$center
  out <- sweep(sweep(zr, 2L, sc, `*`), 2L, ct, `+`)
  dimnames(out) <- list(rownames(object[["x"]]), rownames(object$rotation))
  out
}

#' @rdname coef.fair_pca
#' @export
residuals.fair_pca <- function(object, newdata, ...) {
  fp_check_no_dots(...names(), ...length(), "residuals() of a fair_pca fit", c("object", "newdata"))
  if (missing(newdata)) {
    fp_abort("is missing: the fit does not keep the rows; give the data (e.g. the training data)", "newdata")
  }
  x <- fp_match_newdata(object, newdata)
  x - reconstruct(object, x)
}

#' @rdname coef.fair_pca
#' @export
nobs.fair_pca <- function(object, ...) fp_count_value(sum(object$groups$n))

#' Biplot of a fair PCA fit
#'
#' Draws the scores of the training rows and the loadings as arrows, scaled as
#' [stats::biplot.prcomp()] (`scale = 1`); the scores must have been kept (`retx = TRUE`, the
#' default when rows were given). Points are coloured by group (colour-blind-safe Okabe-Ito
#' colours, the palette of [plot.fair_pca()]); row labels are drawn only up to `max_labels`
#' rows, points beyond.
#'
#' @param x A `fair_pca` object.
#' @param choices The two components to plot.
#' @param max_labels Largest number of rows drawn as their row names (a number >= 0, `Inf` for
#'   all); more rows are points.
#' @param cex Size of the points or row labels (a positive number; by default smaller for many
#'   rows).
#' @param ... Further graphical arguments passed to [graphics::plot()] for the scores; as in
#'   [stats::biplot.prcomp()], `xlim`, `ylim` (the loadings' axes follow them), `xlab`, `ylab`,
#'   `main` (the title) and `col` (colours of the points: one, or one per row; the group legend
#'   is then left out) replace the method's own.
#' @return Invisibly, `x`.
#' @seealso [plot.fair_pca()] for the other pictures of a fit, [stats::biplot.prcomp()].
#' @examples
#' fit <- fair_pca(USArrests, rep(c("a", "b"), 25), k = 2, scale. = TRUE)
#' biplot(fit)
#' biplot(fit, xlim = c(-0.4, 0.4), ylim = c(-0.4, 0.4), main = "USArrests")
#' @importFrom stats biplot
#' @export
biplot.fair_pca <- function(x, choices = 1:2, max_labels = 200, cex = NULL, ...) {
  if (is.null(x[["x"]])) fp_abort("has no training scores: refit with retx = TRUE from the rows", "x")
  if (ncol(x$rotation) < 2L) fp_abort("has fewer than 2 components", "x")
  if (!identical(max_labels, Inf)) {
    ok <- is.numeric(max_labels) && length(max_labels) == 1L && !is.na(max_labels) && is.finite(max_labels) &&
      max_labels == round(max_labels) && max_labels >= 0
    if (!ok) fp_abort("must be a whole number >= 0, or Inf for all", "max_labels")
  }
  if (!is.null(cex)) fp_check_number(cex, "cex", 0, Inf, open_lower = TRUE, open_upper = TRUE)
  sc <- fp_scores_by_group(x, choices)
  n <- nrow(sc)
  dots <- fp_biplot_dots(list(...), n)
  lam <- x$sdev[choices] * sqrt(n)
  lam[!(lam > 0)] <- 1  # a component without variance (to the fit's precision) is drawn unscaled
  S <- cbind(sc$x, sc$y) / rep(lam, each = n)
  L <- x$rotation[, choices, drop = FALSE] * rep(lam, each = nrow(x$rotation))
  lev <- levels(sc$group)
  pal <- fp_palette(length(lev))
  cols <- if (is.null(dots$col)) pal[as.integer(sc$group)] else rep_len(dots$col, n)
  op <- graphics::par(no.readonly = TRUE)
  on.exit(graphics::par(op), add = TRUE)
  blocks <- if (is.null(dots$col)) list(list(title = "group", labels = lev, col = pal, pch = rep(19L, length(lev)),
                                             lty = rep(0L, length(lev)), lwd = rep(1, length(lev))))
  # the legend's text shrinks (into more columns) until the panel keeps about half the figure's
  # height, as in plot()
  fin <- graphics::par("fin")
  for (cex_leg in c(0.8, 0.68, 0.58)) {
    lay <- fp_legend_layout(blocks, fin[1] - 0.3, cex_leg)
    if (fin[2] - (3.3 + 4.6) * graphics::par("csi") - lay$height_in >= min(2, 0.45 * fin[2])) break
  }
  graphics::par(mar = c(3.3 + lay$height_in / graphics::par("csi"), 4.1, 4.6, 2.6), mgp = c(2.3, 0.7, 0))
  # as stats::biplot.default: one range for both axes of the scores, the loadings' axes
  # rescaled by the largest ratio of the two ranges so that every arrow fits
  urange <- function(v) c(-abs(min(v, 0)), abs(max(v, 0)))
  r1 <- urange(S)
  r1 <- c(min(r1[1], -1e-12), max(r1[2], 1e-12))
  r2 <- urange(L)
  lim <- r1 * 1.08
  xlim <- if (is.null(dots$xlim)) lim else dots$xlim
  ylim <- if (is.null(dots$ylim)) lim else dots$ylim
  rn <- rownames(x[["x"]])
  labels <- n <= max_labels && !is.null(rn)
  if (is.null(cex)) cex <- if (n > 1000) 0.4 else 0.7
  # the method's defaults, replaced by the user's graphical arguments of the same name
  args <- list(type = if (labels) "n" else "p", pch = 19, cex = cex,
               col = grDevices::adjustcolor(cols, alpha.f = if (n > 1000) 0.5 else 0.9),
               xlab = sc$xlab[1], ylab = sc$ylab[1])
  plot_dots <- dots[setdiff(names(dots), c("col", "main", "xlim", "ylim"))]
  args <- c(list(S), args[setdiff(names(args), names(plot_dots))], list(xlim = xlim, ylim = ylim), plot_dots)
  do.call(graphics::plot, args)
  main <- if (is.null(dots$main)) sprintf("Biplot (%s)", fp_fit_label(x$method)) else dots$main
  graphics::mtext(main, side = 3, line = 2.6, font = 2, cex = 1.2)
  if (labels) graphics::text(S, labels = rn, col = cols, cex = cex)
  fp_base_legends(lay, cex_leg, top_line = 3.3)
  ratio <- max(r2 / r1)
  graphics::par(new = TRUE)
  graphics::plot(0, 0, type = "n", xlim = xlim * ratio, ylim = ylim * ratio, axes = FALSE, xlab = "", ylab = "")
  graphics::axis(3, col = "grey40", col.axis = "grey40")
  graphics::axis(4, col = "grey40", col.axis = "grey40")
  # arrows() warns on (and skips) an arrow shorter than 1/1000 inch, such as a constant column's:
  # those are left out quietly, their labels stay at the origin
  len <- sqrt(rowSums(L^2))
  long <- len > 5e-3 * max(len, 0)
  if (any(long)) graphics::arrows(0, 0, L[long, 1] * 0.92, L[long, 2] * 0.92, length = 0.08, col = "grey20")
  graphics::text(L, labels = rownames(L), col = "grey20", cex = 0.8, xpd = TRUE)
  invisible(x)
}

# The graphical arguments of biplot() (`...`, as a list; `n` rows), the ones it uses itself
# checked: named, `xlim` and `ylim` two finite numbers, `main`, `xlab`, `ylab` one string, `col`
# one colour or one per row; NULL ones left out (the method's own are drawn).
fp_biplot_dots <- function(dots, n) {
  nm <- names(dots)
  if (length(dots) && (is.null(nm) || any(nm == ""))) {
    fp_abort("must be named graphical arguments of plot() (such as xlim = c(-1, 1))", "...")
  }
  for (a in intersect(c("xlim", "ylim"), nm)) {
    v <- dots[[a]]
    if (!is.numeric(v) || length(v) != 2L || !all(is.finite(v)) || v[1L] == v[2L]) {
      fp_abort("must be two different finite numbers", a)
    }
  }
  for (a in intersect(c("main", "xlab", "ylab"), nm)) fp_check_label(dots[[a]], a)
  if ("col" %in% nm) {
    col <- dots$col
    ok <- (is.character(col) || is.numeric(col)) && length(col) %in% c(1L, n) && !anyNA(col) &&
      !inherits(tryCatch(grDevices::col2rgb(col), error = function(e) e), "error")
    if (!ok) fp_abort(sprintf("must be one colour or one per row (%d), as names, \"#RRGGBB\" codes or numbers", n), "col")
  }
  dots[!vapply(dots, is.null, logical(1))]  # NULL: the method's own
}

#' Plot a fair PCA fit
#'
#' `plot()` draws with base graphics and `autoplot()` with ggplot2 (when installed); both draw
#' the same data with the same colours (the colour-blind-safe Okabe-Ito palette), shapes and
#' labels, and `tidy(x, matrix = "plot", type = )` returns that data. Types:
#' * `"errors"` (the default): each group's average reconstruction error against the number of
#'   components k, for this method (solid) and standard PCA (dashed), refitting from the stored
#'   moments for k = 1, ..., `kmax` (methods that need the rows, such as `"inlp"` and
#'   `"mbfpca"`, cannot be refitted from moments: only the fitted k is shown); a message says
#'   which refits it runs. Colour and point shape mark the group; at each k the groups' (and
#'   methods') points are set a little apart, so that equal values (min-max equalises the
#'   marginal losses) all show, and a caption says so where values are equal;
#' * `"loss"`: the same for the marginal loss (error minus the group's best rank-k error);
#' * `"scores"`: the training scores on two components, coloured by group;
#' * `"scree"`: variances of the leading principal components of the data (bars), with the
#'   variances of this fit's components (points);
#'
#' A fit by the row route (`fair_pca(route = "rows")`, wide data) keeps no moments to refit
#' from, but keeps the leading `max(k + 3, 10)` eigenvalues of the covariance and of each
#' group's (at most the number of rows): its `"scree"` shows them, with the share of the
#' variance beyond them (exact, from the traces) in the caption, and `"errors"` and `"loss"`
#' show standard PCA at every k up to that number and the fitted method at its own k; a larger
#' `kmax` is an error that says so;
#' * `"convergence"`: the objective along the iterations (iterative methods); for Pareto fits
#'   every objective (with more than 8 disparities, their largest), each rescaled to \[0, 1\]
#'   over the run.
#'
#' @param x A `fair_pca` object.
#' @param type What to draw (see above); by default the first, `"errors"`.
#' @param ... Arguments of the plot type: `kmax` (largest number of components for `"errors"`,
#'   `"loss"` and `"scree"`), `choices` (the two components of `"scores"`); for `plot()`,
#'   `legend = FALSE` drops the legend.
#' @param main,xlab,ylab Replace the title and axis labels (also for `autoplot()`, through `...`).
#' @return `plot()`: invisibly, the data drawn (a data.frame with the drawing specification in
#'   an attribute). `autoplot()`: a `ggplot` object.
#' @seealso [tidy.fair_pca()] for the data of each plot, [biplot.fair_pca()],
#'   [as.prcomp()] for prcomp's plots (scree and biplot of factoextra), [pareto_front()].
#' @family plots
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' fit <- fair_pca(pbc2[1:6], pbc2$sex, k = 2, scale. = TRUE)
#' plot(fit, "scores")
#' plot(fit, "errors", kmax = 4)
#' plot(fit, "scree")
#' if (requireNamespace("ggplot2", quietly = TRUE)) {
#'   ggplot2::autoplot(fit, "loss", kmax = 3)
#' }
#' @export
plot.fair_pca <- function(x, type = NULL, ..., main = NULL, xlab = NULL, ylab = NULL) {
  fp_plot_base(x, type, ..., main = main, xlab = xlab, ylab = ylab)
}

#' Tidy a fair PCA fit (broom conventions)
#'
#' `tidy()` returns one of the fit's tables in long form; `glance()` one row summarising the
#' fit; `augment()` appends the scores to the data. They are methods of the `generics`
#' package's generics, used by broom and tidymodels, with broom's column names, and return
#' tibbles when the tibble package is installed (data.frames otherwise).
#'
#' **Rows of `augment()`.** `augment(fit, data = d)` returns one row for each row of `d`, in
#' its order, with the scores `predict(fit, d)` gives it: each row's scores are computed from its
#' own values, so any data frame class (data.frame, tibble, data.table), row order or subset
#' gets the right scores, and a row with a missing value in a column of the fit (a row that
#' `na.omit` or `na.exclude` left out) gets `NA` scores, never a neighbour's. Other rows the fit
#' did not use (a missing group, rows outside `subset`) are scored too: `d` may be any rows with
#' the fit's columns (other columns, such as the group, are kept and ignored). Without `data`,
#' the stored training scores (`fit$x`, which follow the fit's `na.action` as in
#' [stats::prcomp()]) with their row names. `newdata`, if given, is used in place of `data`, as
#' in broom.
#'
#' @param x A `fair_pca` object.
#' @param matrix What `tidy()` returns: `"rotation"` (also `"loadings"`, `"v"`): one row per
#'   column and component with the loading (`column`, `PC`, `value`); `"eigenvalues"` (also
#'   `"pcs"`, `"d"`): one row per component with its standard deviation and the true fraction
#'   and cumulative fraction of the total variance (`PC`, `std.dev`, `percent`, `cumulative`;
#'   for a min-max fit whose reconstruction is a linear map, of its scores' variances, which add
#'   to less than what the map keeps: `glance()`'s `var_explained`, see [summary.fair_pca()]);
#'   `"groups"`: the per-group table of [summary.fair_pca()] (error, marginal loss and
#'   variance kept, with standard PCA's beside); `"scores"` (also `"x"`, `"u"`): the training
#'   scores in long form (`row`, `PC`, `value`); `"plot"`: the data of a plot of
#'   [plot.fair_pca()] (give its `type` and arguments in `...`, e.g. `type = "loss"`).
#' @param data For `augment()`: a data.frame (or tibble, data.table, matrix) with the fit's
#'   columns, usually the training data; each row gets its scores ([predict.fair_pca()]) appended,
#'   `NA` for a row with a missing value. See "Rows of `augment()`".
#' @param newdata For `augment()`: new rows, scored as `data` is; used in place of `data` when
#'   both are given.
#' @param ... For `tidy(matrix = "plot")`: `type` and the plot type's arguments; unused by
#'   `glance()`; for `augment()` an argument other than `data` and `newdata` (such as `new_data`)
#'   is an error naming `...`.
#' @return A tibble (or data.frame). `glance()`: one row with `method`, `k`, `nobs`, `ncol`,
#'   `max_loss`, `loss_gap` (largest minus smallest marginal loss), the same two for standard
#'   PCA, `var_explained` (fraction of the total variance the reconstruction keeps, 1 - its
#'   squared error about the pooled mean / `totalvar`) and `converged`: the solver's
#'   own test for iterative methods (for `"robust"`, whether the descent was kept and its last
#'   iterate is within 1\% of the best visited; for `"rlace"`, whether the classifier reached
#'   the majority rate within `tol`, or all steps ran with `tol = NULL`; `TRUE` for `"inlp"`,
#'   which runs a fixed number of steps), `NA` for closed-form methods. `augment()`:
#'   `.rownames`, the data and columns `.fittedPC1`, `.fittedPC2`, ... (as broom's
#'   `augment.prcomp()`).
#' @seealso [broom::tidy.prcomp()], [predict.fair_pca()], [tidy.fair_css()],
#'   [plot.fair_pca()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' fit <- fair_pca(pbc2[1:6], pbc2$sex, k = 2, scale. = TRUE)
#' tidy(fit)
#' tidy(fit, "eigenvalues")
#' tidy(fit, "groups")
#' glance(fit)
#' head(augment(fit, data = pbc2))
#' # rows with missing values get NA scores; rows in any order keep their own
#' d <- pbc2
#' d$albumin[c(3, 7)] <- NA
#' fit2 <- fair_pca(~ ., data = d, group = sex, k = 2, scale. = TRUE)
#' augment(fit2, data = d[8:1, ])[, c(".rownames", "albumin", ".fittedPC1")]
#' @export
tidy.fair_pca <- function(x, matrix = "rotation", ...) {
  matrix <- fp_match_arg(matrix, c("rotation", "loadings", "v", "eigenvalues", "pcs", "d", "groups",
                                   "scores", "x", "u", "plot"), "matrix")
  if (matrix == "plot") return(fp_plot_tidy(x, ...))
  V <- x$rotation
  out <- if (matrix %in% c("rotation", "loadings", "v")) {
    data.frame(column = rep(rownames(V), ncol(V)), PC = rep(seq_len(ncol(V)), each = nrow(V)),
               value = as.vector(V), stringsAsFactors = FALSE)
  } else if (matrix %in% c("eigenvalues", "pcs", "d")) {
    v <- x$sdev^2 / x$totalvar
    data.frame(PC = seq_along(x$sdev), std.dev = x$sdev, percent = v, cumulative = cumsum(v))
  } else if (matrix == "groups") {
    summary(x)$groups
  } else {
    # a fit from moments cannot take retx = TRUE: the advice is to refit from the rows
    if (is.null(x[["x"]])) fp_abort("has no training scores (a fit from moments keeps none, retx = FALSE drops them): refit from the rows with retx = TRUE, or score rows with predict(x, rows)", "x")
    fp_scores_long(x[["x"]])
  }
  fp_tibble(out)
}

#' @rdname tidy.fair_pca
#' @export
glance.fair_pca <- function(x, ...) {
  gs <- x$group_stats
  st <- x$group_stats_standard
  fp_tibble(data.frame(method = x$method, k = x$k, nobs = fp_count_value(sum(x$groups$n)), ncol = nrow(x$rotation),
                       max_loss = max(gs$loss), loss_gap = diff(range(gs$loss)),
                       max_loss_standard = max(st$loss), loss_gap_standard = diff(range(st$loss)),
                       var_explained = fp_var_explained(x),
                       converged = fp_converged(x), stringsAsFactors = FALSE))
}

# The fraction of the total variance a fit's reconstruction keeps (1 - its error / totalvar, in
# the pooled centring): a projection's components' variances; a linear map's (min-max above rank
# k) is its own field, more than its scores' variances (the map shrinks what it keeps).
fp_var_explained <- function(x) {
  if (!is.null(x$var_explained)) return(x$var_explained)
  if (!fp_has_map(x)) return(sum(x$sdev[seq_len(x$k)]^2) / x$totalvar)
  # a map fit saved by fairproj before it kept the field: from its moments, else unknown
  if (is.null(x$moments) || !(x$totalvar > 0)) return(NA_real_)
  prep <- fp_prepare(x$moments, if (isFALSE(x$center)) FALSE else x$center, if (isFALSE(x$scale)) FALSE else x$scale)
  R <- diag(nrow(prep$C)) - fp_map_times(x, diag(nrow(prep$C)))
  (sum(diag(prep$C)) - sum((R %*% prep$C) * R)) / x$totalvar
}

# Whether an iterative fit met its method's stopping test; NA for closed-form methods. Solvers
# that report `converged` are taken at their word; the others are judged by the test their
# documentation states.
fp_converged <- function(x) {
  if (!is.null(x$converged)) return(isTRUE(x$converged))
  switch(x$method,
    # robust: a fixed number of subgradient steps; the descent counts as converged when it was
    # kept (not the standard-PCA fallback) and its last iterate is within 1% of the best visited,
    # the test of its oscillation warning
    robust = identical(x$returned, "descent") &&
      isTRUE(x$objective <= x$best_visited + 0.01 * abs(x$best_visited) + fp_tol_tie * max(1, abs(x$objective))),
    # inlp: a fixed number of nullspace steps (or fewer, stopped at the majority rate): it
    # always completes
    inlp = TRUE,
    # rlace: stops when the refitted classifier is within `accuracy_tol` of the majority rate;
    # with accuracy_tol = NULL it plays all n_iter steps
    rlace = {
      tol <- x$args$accuracy_tol
      if ("accuracy_tol" %in% names(x$args) && is.null(tol)) TRUE else {
        if (is.null(tol)) tol <- formals(fit_pca_rlace)$accuracy_tol
        isTRUE(x$accuracy - x$majority <= tol)
      }
    },
    NA)
}

#' @rdname tidy.fair_pca
#' @export
augment.fair_pca <- function(x, data = NULL, newdata = NULL, ...) {
  fp_check_no_dots(...names(), ...length(), "augment() of a fair_pca fit", c("x", "data", "newdata"))
  fp_augment_scores(x, data, newdata)
}

#' @rdname plot.fair_pca
#' @param object A `fair_pca` object (for `autoplot()`).
#' @method autoplot fair_pca
#' @exportS3Method ggplot2::autoplot fair_pca
autoplot.fair_pca <- function(object, type = NULL, ...) {
  fp_plot_gg(object, type, ...)  # `...`: the type's arguments and main, xlab, ylab
}

#' @exportS3Method fp_plot_data fair_pca
fp_plot_data.fair_pca <- function(x, type = NULL, ..., kmax = NULL, choices = 1:2, quiet = FALSE) {
  type <- fp_plot_type(x, type)
  # an argument of another plot type is an error, as for fair_kpca() and fair_css() fits
  given <- c(kmax = !missing(kmax), choices = !missing(choices), quiet = !missing(quiet))
  takes <- switch(type, errors = , loss = c("kmax", "quiet"), scores = "choices", scree = "kmax", character(0))
  other <- setdiff(names(given)[given], takes)
  fp_plot_no_dots(c(list(...), stats::setNames(vector("list", length(other)), other)), type)
  quiet <- fp_check_flag(quiet, "quiet")
  switch(type,
         errors = , loss = fp_plot_errors(x, type, kmax, quiet),
         scores = fp_plot_scores(x, choices),
         scree = fp_plot_scree(x, kmax),
         convergence = fp_plot_convergence(x))
}

fp_plot_errors <- function(x, type, kmax, quiet = FALSE) {
  tab <- fp_errors_by_k(x, type, kmax, quiet = quiet)
  lab <- fp_fit_label(x$method)
  std <- identical(x$method, "standard")
  long <- data.frame(k = tab$k, group = tab$group, fit = lab, value = tab$fair, stringsAsFactors = FALSE)
  if (anyNA(long$value)) long <- long[!is.na(long$value), , drop = FALSE]  # a row-route fit's method: its own k only
  if (!std) {
    long <- rbind(long, data.frame(k = tab$k, group = tab$group, fit = "standard PCA", value = tab$standard,
                                   stringsAsFactors = FALSE))
  }
  long$group <- factor(long$group, levels = x$groups$group)
  errors <- type == "errors"
  fp_plot_by_k(long, type,
               title = if (errors) "Reconstruction error by group" else "Marginal loss by group",
               subtitle = if (std) "standard PCA" else if (is.null(x$moments) && !is.null(x$spectra)) {
                 sprintf("%s at the fitted k (points; row route) and standard PCA (dashed)", lab)
               } else sprintf("%s (solid) and standard PCA (dashed)", lab),
               ylab = if (errors) "average squared error" else "marginal loss",
               caption = if (!errors) "Marginal loss: a group's error minus its best rank-k error")
}

# Per-group error or loss for k = 1, ..., kmax, refitting from the stored moments; says so.
# Methods that need the rows (no refit from moments) give only the fitted k.
fp_errors_by_k <- function(x, type = "errors", kmax = NULL, quiet = FALSE) {
  if (is.null(x$moments) && is.null(x$route)) fp_abort(fp_no_moments_message(x), "x")
  d <- nrow(x$rotation)
  if (is.null(kmax)) kmax <- min(d, max(x$k + 3L, 10L))
  kmax <- fp_check_count(kmax, 1L, d, "kmax")
  ks <- seq_len(kmax)
  if (is.null(x$moments) && !is.null(x$spectra)) return(fp_rows_errors_by_k(x, type, kmax, quiet))
  if (is.null(x$moments)) {
    # a row-route fit of before keeps neither moments nor spectra: its own k only
    ks <- x$k
    if (!quiet) message("Showing the fitted k only: a row-route fit keeps no moments to refit other k from (refit with route = \"moments\" for them)")
  } else if (!quiet && kmax > 1L) {
    message(sprintf("Refitting method \"%s\" for k = %s from the stored moments (set kmax to refit fewer)",
                    x$method, paste(setdiff(ks, x$k), collapse = ", ")))
  }
  col <- if (type == "errors") "error" else "loss"
  warned <- list()
  rows <- lapply(ks, function(kk) {
    f <- if (kk == x$k) x else withCallingHandlers(tryCatch(
      do.call(fair_pca, c(list(x$moments, k = kk, method = x$method, center = x$center,
                               scale. = x$scale, keep_moments = FALSE), x$args)),
      fairproj_error = function(e) NULL),
      warning = function(w) {
        warned[[length(warned) + 1L]] <<- list(k = kk, w = w)
        invokeRestart("muffleWarning")
      })
    if (is.null(f)) return(NULL)
    data.frame(k = kk, group = f$group_stats$group, fair = f$group_stats[[col]],
               standard = f$group_stats_standard[[col]], stringsAsFactors = FALSE)
  })
  # the refits' warnings once per class (a plot over ten k would repeat each ten times), naming
  # the k they concern
  cls <- vapply(warned, function(v) class(v$w)[1L], "")
  for (cl in unique(cls)) {
    sel <- warned[cls == cl]
    w <- sel[[1L]]$w
    warning(warningCondition(sprintf("refits at k = %s: %s%s", paste(vapply(sel, `[[`, 0, "k"), collapse = ", "),
                                     conditionMessage(w), if (length(sel) > 1L) " [first shown]" else ""),
                             class = setdiff(class(w), c("warning", "condition"))))
  }
  do.call(rbind, rows)
}

# Why a fit has no moments, and what to do. A row-route fit keeps neither moments nor rows (the
# data would double the fit's size): its refits and scree values need a refit from the rows.
fp_no_moments_message <- function(x) {
  if (is.null(x$route)) return("kept no moments: refit with keep_moments = TRUE")
  "was fitted by the row route, which keeps no d x d moments (nor the rows): refit with route = \"moments\", or fit each k from the rows"
}

fp_plot_scree <- function(x, kmax) {
  rows <- is.null(x$moments) && !is.null(x$spectra)
  if (is.null(x$moments) && !rows) fp_abort(fp_no_moments_message(x), "x")
  d <- nrow(x$rotation)
  if (is.null(kmax)) kmax <- min(d, max(x$k + 3L, 10L))
  kmax <- fp_check_count(kmax, 1L, d, "kmax")
  ev <- if (rows) fp_rows_scree_values(x, kmax) else {
    prep <- fp_prepare(x$moments, if (isFALSE(x$center)) FALSE else x$center,
                       if (isFALSE(x$scale)) FALSE else x$scale)
    pmax(fp_eig_top(prep$C, kmax)$values, 0)
  }
  lab <- fp_fit_label(x$method)
  std <- identical(x$method, "standard")
  tab <- data.frame(k = seq_len(kmax), group = "all rows", fit = "standard PCA", value = ev,
                    percent = 100 * ev / x$totalvar, stringsAsFactors = FALSE)
  if (!std) {
    fv <- x$sdev[seq_len(min(length(x$sdev), kmax))]^2
    tab <- rbind(tab, data.frame(k = seq_along(fv), group = "all rows", fit = lab, value = fv,
                                 percent = 100 * fv / x$totalvar, stringsAsFactors = FALSE))
  }
  tab$fit <- factor(tab$fit, levels = unique(c("standard PCA", lab)))
  layers <- list(fp_layer("col", where = list(fit = "standard PCA"), fill = "grey80", colour = "grey35"))
  if (!std) layers <- c(layers, list(fp_layer("point", where = list(fit = lab), colour = fp_palette_methods(1),
                                              shape = 16L, cex = 1.3)))
  spec <- fp_spec("k", "value", layers, title = "Scree plot",
                  subtitle = if (std) "variance of each principal component" else
                    sprintf("bars: standard PCA; points: the %s fit's components", lab),
                  xlab = "component", ylab = "variance", x_integer = TRUE, y_zero = TRUE, legend = FALSE,
                  caption = fp_scree_caption(x, ev, rows))
  fp_plot_frame(tab, spec, "scree")
}

# The scree's caption: a row-route fit's share of the variance beyond the components shown; a
# min-max map's variance kept beside its scores' (the points).
fp_scree_caption <- function(x, ev, rows) {
  fp_join_captions(if (rows) fp_rows_scree_caption(x, ev),
                   if (fp_has_map(x)) sprintf(paste("the min-max fit is a linear map of rank %d: its reconstruction keeps %.1f%%",
                                                    "of the variance, its scores (the points) %.1f%%, as the map shrinks what it keeps"),
                                              ncol(x$rotation), 100 * fp_var_explained(x), 100 * sum(x$sdev^2) / x$totalvar))
}

fp_history_objective <- function(object) {
  h <- object$history
  if (is.null(h)) fp_abort(sprintf("has no convergence history (method \"%s\" is not iterative)", object$method), "x")
  if (!NROW(h)) {
    fp_abort(sprintf("has no convergence history (method \"%s\" took no iterations: it was solved directly)",
                     object$method), "x")
  }
  if (is.data.frame(h) || is.matrix(h)) as.matrix(h)[, if ("objective" %in% colnames(h)) "objective" else 1L] else h
}

# The objective along the iterations; for Pareto fits every objective (beyond 8 disparities,
# their largest), each rescaled to [0, 1] over the run (they have different units).
fp_plot_convergence <- function(x) {
  lab <- fp_fit_label(x$method)
  y <- fp_history_objective(x)
  # a line needs two iterations: a run of one is drawn as a point
  layers <- list(fp_layer("line", lwd = 1.5))
  if (length(y) < 2L) layers <- c(layers, list(fp_layer("point")))
  if (inherits(x, "fair_pca_pareto")) {
    h <- x$history
    cols <- c("objective", names(x$objectives)[-1L])
    Y <- as.matrix(h[, cols, drop = FALSE])
    series <- c("total loss", cols[-1L])
    if (length(cols) > 9L) {
      # m groups give m(m - 1)/2 disparities, too many lines (and legend entries) to tell apart:
      # their largest along the run
      Y <- cbind(Y[, 1L], apply(Y[, -1L, drop = FALSE], 1L, max))
      series <- c("total loss", "largest disparity")
    }
    lo <- apply(Y, 2L, min, na.rm = TRUE)
    rg <- apply(Y, 2L, max, na.rm = TRUE) - lo
    rg[!(rg > 0)] <- 1
    Ys <- sweep(sweep(Y, 2L, lo, `-`), 2L, rg, `/`)
    d <- data.frame(iteration = rep(h$iteration, length(series)), series = factor(rep(series, each = nrow(h)), levels = series),
                    fit = lab, value = as.vector(Ys), stringsAsFactors = FALSE)
    spec <- fp_spec("iteration", "value", layers,
                    list(colour = fp_scale("series", series, c("black", fp_palette_methods(length(series) - 1L)), "objective")),
                    title = "Convergence (Pareto fair PCA)", subtitle = "each objective rescaled to [0, 1] over the run",
                    xlab = "iteration", ylab = "objective, rescaled to [0, 1]", x_integer = TRUE)
    return(fp_plot_frame(d, spec, "convergence"))
  }
  h <- x$history
  it <- if (is.data.frame(h) && "iteration" %in% names(h)) h$iteration else seq_along(y)
  d <- data.frame(iteration = it, series = "objective", fit = lab, value = as.numeric(y), stringsAsFactors = FALSE)
  layers <- lapply(layers, function(l) replace(l, "colour", list("black")))
  spec <- fp_spec("iteration", "value", layers,
                  title = sprintf("Convergence (%s)", lab),
                  subtitle = if (!is.null(x$converged)) if (isTRUE(x$converged)) "converged" else "not converged",
                  xlab = "iteration", ylab = "objective", x_integer = TRUE, legend = FALSE)
  fp_plot_frame(d, spec, "convergence")
}
