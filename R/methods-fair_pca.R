#' @export
print.fair_pca <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("Fair PCA (method \"%s\"): %d of %d dimensions, %d groups, %s rows\n", x$method,
              x$k, nrow(x$rotation), nrow(x$groups), format(sum(x$groups$n), big.mark = ",")))
  if (!is.null(x$map)) {
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

#' Summarise a fair PCA fit
#'
#' @param object A `fair_pca` object.
#' @param ... Unused.
#' @return An object of class `summary.fair_pca`: `importance` (as in
#'   [stats::summary.prcomp()]: standard deviation, proportion of variance and cumulative
#'   proportion of each component) and `groups`, a data.frame with the per-group error, marginal
#'   loss and variance explained of this fit side by side with standard PCA at the same k, plus
#'   the largest loss and the loss gap (largest minus smallest) of both.
#' @examples
#' fit <- fair_pca(iris[, 1:4], iris$Species, k = 2)
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
  structure(list(importance = imp, groups = groups, fairness = fairness, method = object$method,
                 k = object$k, call = object$call), class = "summary.fair_pca")
}

#' @export
print.summary.fair_pca <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\nImportance of components (method \"%s\", k = %d):\n", x$method, x$k))
  print(x$importance, digits = digits)
  cat("\nPer-group reconstruction (average squared error about each group's mean):\n")
  print(x$groups, digits = digits, row.names = FALSE)
  cat("\nFairness summary:\n")
  print(x$fairness, digits = digits, row.names = FALSE)
  invisible(x)
}

fp_newdata <- function(object, newdata, arg = "newdata") {
  nm <- rownames(object$rotation)
  if (is.data.frame(newdata) && !is.null(nm) && all(nm %in% names(newdata))) newdata <- newdata[nm]
  x <- fp_as_matrix(newdata, arg, min_cols = 1L)
  if (!is.null(colnames(newdata)) && all(nm %in% colnames(x))) x <- x[, nm, drop = FALSE]
  if (ncol(x) != length(nm)) fp_abort(sprintf("has %d columns but the model was fitted on %d", ncol(x), length(nm)), arg)
  x
}

#' Scores, reconstructions and conversions of a fair PCA fit
#'
#' `predict()` returns the scores (coordinates in the reduced space) of new rows, as
#' [stats::predict.prcomp()] does; `reconstruct()` maps rows to their reconstruction in the
#' original units (`center + scale * (z %*% P)` with `P` the fitted projection, or the fitted
#' linear map for methods whose output is not a projection); `as.prcomp()` converts the fit so
#' that tools written for `prcomp` objects work.
#'
#' @param object A `fair_pca` object.
#' @param newdata A numeric matrix or data.frame with the columns the model was fitted on
#'   (matched by name when named). If missing, the training scores are returned when kept.
#' @param ... Unused.
#' @return `predict()`: an n x r matrix of scores. `reconstruct()`: an n x d matrix.
#'   `as.prcomp()`: an object of class `prcomp`.
#' @examples
#' fit <- fair_pca(iris[, 1:4], iris$Species, k = 2)
#' head(predict(fit, iris[1:5, 1:4]))
#' head(reconstruct(fit, iris[1:5, 1:4]))
#' p <- as.prcomp(fit)
#' class(p)
#' @export
predict.fair_pca <- function(object, newdata, ...) {
  if (missing(newdata)) {
    if (!is.null(object$x)) return(object$x)
    fp_abort("is missing and the fit kept no training scores", "newdata")
  }
  x <- fp_newdata(object, newdata)
  z <- fp_transform(object, x)
  s <- z %*% object$rotation
  dimnames(s) <- list(rownames(x), colnames(object$rotation))
  s
}

#' @rdname predict.fair_pca
#' @export
reconstruct <- function(object, ...) UseMethod("reconstruct")

#' @rdname predict.fair_pca
#' @export
reconstruct.fair_pca <- function(object, newdata, ...) {
  if (missing(newdata)) fp_abort("is missing", "newdata")
  x <- fp_newdata(object, newdata)
  z <- fp_transform(object, x)
  zr <- if (!is.null(object$map)) z %*% object$map else (z %*% object$rotation) %*% t(object$rotation)
  sc <- if (isFALSE(object$scale)) rep(1, ncol(x)) else object$scale
  ct <- if (isFALSE(object$center)) rep(0, ncol(x)) else object$center
  out <- sweep(sweep(zr, 2L, sc, `*`), 2L, ct, `+`)
  dimnames(out) <- dimnames(x)
  out
}

#' @rdname predict.fair_pca
#' @param x A `fair_pca` object (for `as.prcomp()`).
#' @export
as.prcomp <- function(x, ...) UseMethod("as.prcomp")

#' @rdname predict.fair_pca
#' @export
as.prcomp.fair_pca <- function(x, ...) {
  structure(list(sdev = x$sdev, rotation = x$rotation, center = x$center, scale = x$scale,
                 x = x$x), class = "prcomp")
}

#' Biplot of a fair PCA fit
#'
#' Draws the scores of the training rows and the loadings, as [stats::biplot.prcomp()]; the
#' scores must have been kept (`retx = TRUE`, the default when rows were given).
#'
#' @param x A `fair_pca` object.
#' @param choices The two components to plot.
#' @param ... Passed to [stats::biplot.prcomp()].
#' @return Invisibly, `x`.
#' @examples
#' fit <- fair_pca(USArrests, rep(c("a", "b"), 25), k = 2, scale. = TRUE)
#' biplot(fit)
#' @importFrom stats biplot
#' @export
biplot.fair_pca <- function(x, choices = 1:2, ...) {
  if (is.null(x$x)) fp_abort("has no training scores: refit with retx = TRUE from the rows", "x")
  if (ncol(x$rotation) < 2L) fp_abort("has fewer than 2 components", "x")
  stats::biplot(as.prcomp(x), choices = choices, ...)
  invisible(x)
}

#' Plot a fair PCA fit
#'
#' * `type = "errors"`: each group's average reconstruction error against the number of
#'   components, for this method (solid) and standard PCA (dashed), refitting from the stored
#'   moments for k = 1, ..., `kmax` (methods that need the rows, such as `"inlp"` and
#'   `"mbfpca"`, cannot be refitted from moments: only the fitted k is shown);
#' * `type = "loss"`: the same for the marginal loss (error minus the group's best rank-k error);
#' * `type = "scree"`: variances of the leading principal components of the data, with the
#'   variances of this fit's components;
#' * `type = "convergence"`: the objective along the iterations (iterative methods).
#'
#' @param x A `fair_pca` object.
#' @param type What to draw (see above).
#' @param kmax Largest number of components for `"errors"`, `"loss"` and `"scree"`.
#' @param ... Further graphical arguments passed to [graphics::matplot()] or
#'   [graphics::plot()].
#' @return Invisibly, the data plotted (a data.frame or vector).
#' @examples
#' fit <- fair_pca(iris[, 1:4], iris$Species, k = 2)
#' plot(fit, "errors")
#' plot(fit, "scree")
#' @export
plot.fair_pca <- function(x, type = c("errors", "loss", "scree", "convergence"), kmax = NULL, ...) {
  type <- fp_match_arg(type, c("errors", "loss", "scree", "convergence"), "type")
  d <- nrow(x$rotation)
  if (type == "convergence") {
    h <- x$history
    if (is.null(h)) fp_abort(sprintf("has no convergence history (method \"%s\" is not iterative)", x$method), "x")
    y <- if (is.data.frame(h) || is.matrix(h)) as.matrix(h)[, if ("objective" %in% colnames(h)) "objective" else 1L] else h
    plot(seq_along(y), y, type = "l", xlab = "iteration", ylab = "objective", main = sprintf("Convergence (%s)", x$method), ...)
    return(invisible(y))
  }
  if (is.null(x$moments)) fp_abort("kept no moments: refit with keep_moments = TRUE", "x")
  if (is.null(kmax)) kmax <- min(d, max(x$k + 3L, 10L))
  kmax <- fp_check_count(kmax, 1L, d, "kmax")
  prep <- fp_prepare(x$moments, if (isFALSE(x$center)) FALSE else x$center, if (isFALSE(x$scale)) FALSE else x$scale)
  if (type == "scree") {
    ev <- fp_eig_top(prep$C, kmax)$values
    graphics::barplot(ev, names.arg = paste0("PC", seq_len(kmax)), ylab = "variance",
                      main = "Scree plot (standard PCA)", ...)
    fitvar <- x$sdev[seq_len(min(length(x$sdev), kmax))]^2
    graphics::points(seq_along(fitvar) * 1.2 - 0.5, fitvar, pch = 19, col = 2)
    graphics::legend("topright", legend = c("standard PCA", sprintf("%s fit", x$method)),
                     fill = c("grey", NA), border = c("black", NA), pch = c(NA, 19), col = c(NA, 2), bty = "n")
    return(invisible(ev))
  }
  ks <- seq_len(kmax)
  rows <- lapply(ks, function(kk) {
    f <- if (kk == x$k) x else tryCatch(
      do.call(fair_pca, c(list(x$moments, k = kk, method = x$method, center = x$center, scale. = x$scale,
                               keep_moments = FALSE), x$args)),
      fairproj_error = function(e) NULL)
    if (is.null(f)) return(NULL)
    data.frame(k = kk, group = f$group_stats$group, fair = f$group_stats[[if (type == "errors") "error" else "loss"]],
               standard = f$group_stats_standard[[if (type == "errors") "error" else "loss"]])
  })
  tab <- do.call(rbind, rows)
  lev <- unique(tab$group)
  kk <- sort(unique(tab$k))
  fw <- matrix(sapply(lev, function(l) tab$fair[tab$group == l]), nrow = length(kk))
  sw <- matrix(sapply(lev, function(l) tab$standard[tab$group == l]), nrow = length(kk))
  cols <- seq_along(lev) + 1L
  what <- if (type == "errors") "error" else "loss"
  std <- identical(x$method, "standard")
  graphics::matplot(kk, if (std) fw else cbind(fw, sw), type = "b",
                    lty = rep(c(1, 2), each = length(lev))[seq_len(if (std) length(lev) else 2 * length(lev))],
                    pch = rep(c(19, 1), each = length(lev)), col = c(cols, cols), xlab = "number of components k",
                    ylab = if (type == "errors") "average reconstruction error" else "marginal loss",
                    main = if (std) sprintf("Per-group %s of standard PCA", what) else
                      sprintf("Per-group %s: %s (solid) vs standard PCA (dashed)", what, x$method), ...)
  graphics::legend("topright", legend = lev, col = cols, lty = 1, pch = 19, bty = "n")
  invisible(tab)
}
