# broom's tidiers (through the generics package) for fair PCA fits.

#' @importFrom generics tidy
#' @export
generics::tidy

#' @importFrom generics glance
#' @export
generics::glance

#' @importFrom generics augment
#' @export
generics::augment

#' Tidy a fair PCA fit (broom conventions)
#'
#' `tidy()` returns one of the fit's tables in long form; `glance()` one row summarising the
#' fit; `augment()` appends the scores to the data. They are methods of the `generics`
#' package's generics, used by broom and tidymodels.
#'
#' @param x A `fair_pca` object.
#' @param matrix What `tidy()` returns: `"rotation"` (also `"loadings"`, `"v"`): one row per
#'   column and component with the loading (`column`, `PC`, `value`); `"eigenvalues"` (also
#'   `"pcs"`, `"d"`): one row per component with its standard deviation and the true fraction
#'   and cumulative fraction of the total variance (`PC`, `std.dev`, `percent`, `cumulative`);
#'   `"groups"`: the per-group table of [summary.fair_pca()] (error, marginal loss and
#'   variance kept, with standard PCA's beside); `"scores"` (also `"x"`, `"u"`): the training
#'   scores in long form (`row`, `PC`, `value`); `"plot"`: the data of a plot of
#'   [plot.fair_pca()] (give its `type` and arguments in `...`, e.g. `type = "loss"`).
#' @param data For `augment()`: the training data (a data.frame with one row per training row)
#'   to append the training scores to.
#' @param newdata For `augment()`: new data; its scores ([predict.fair_pca()]) are appended.
#' @param ... For `tidy(matrix = "plot")`: `type` and the plot type's arguments; otherwise
#'   unused.
#' @return A data.frame. `glance()`: one row with `method`, `k`, `nobs`, `ncol`, `max_loss`,
#'   `loss_gap` (largest minus smallest marginal loss), the same two for standard PCA,
#'   `var_explained` (fraction of the total variance kept) and `converged` (`NA` for
#'   closed-form methods). `augment()`: the data with columns `.fittedPC1`, `.fittedPC2`, ...
#'   (as broom's `augment.prcomp()`).
#' @examples
#' fit <- fair_pca(iris[, 1:4], iris$Species, k = 2)
#' tidy(fit)
#' tidy(fit, "eigenvalues")
#' tidy(fit, "groups")
#' glance(fit)
#' head(augment(fit, data = iris))
#' @export
tidy.fair_pca <- function(x, matrix = "rotation", ...) {
  matrix <- fp_match_arg(matrix, c("rotation", "loadings", "v", "eigenvalues", "pcs", "d", "groups",
                                   "scores", "x", "u", "plot"), "matrix")
  if (matrix == "plot") return(fp_plot_tidy(x, ...))
  V <- x$rotation
  if (matrix %in% c("rotation", "loadings", "v")) {
    return(data.frame(column = rep(rownames(V), ncol(V)), PC = rep(seq_len(ncol(V)), each = nrow(V)),
                      value = as.vector(V), stringsAsFactors = FALSE))
  }
  if (matrix %in% c("eigenvalues", "pcs", "d")) {
    v <- x$sdev^2 / x$totalvar
    return(data.frame(PC = seq_along(x$sdev), std.dev = x$sdev, percent = v, cumulative = cumsum(v)))
  }
  if (matrix == "groups") {
    return(summary(x)$groups)
  }
  if (is.null(x$x)) fp_abort("has no training scores: refit with retx = TRUE", "x")
  S <- x$x
  rn <- rownames(S)
  if (is.null(rn)) rn <- as.character(seq_len(nrow(S)))
  data.frame(row = rep(rn, ncol(S)), PC = rep(seq_len(ncol(S)), each = nrow(S)), value = as.vector(S),
             stringsAsFactors = FALSE)
}

#' @rdname tidy.fair_pca
#' @export
glance.fair_pca <- function(x, ...) {
  gs <- x$group_stats
  st <- x$group_stats_standard
  data.frame(method = x$method, k = x$k, nobs = as.integer(sum(x$groups$n)), ncol = nrow(x$rotation),
             max_loss = max(gs$loss), loss_gap = diff(range(gs$loss)),
             max_loss_standard = max(st$loss), loss_gap_standard = diff(range(st$loss)),
             var_explained = sum(x$sdev[seq_len(x$k)]^2) / x$totalvar,
             converged = if (is.null(x$converged)) NA else isTRUE(x$converged),
             stringsAsFactors = FALSE)
}

#' @rdname tidy.fair_pca
#' @export
augment.fair_pca <- function(x, data = NULL, newdata = NULL, ...) {
  if (!is.null(newdata)) {
    s <- predict(x, newdata)
    base <- as.data.frame(newdata)
  } else {
    s <- x$x
    if (is.null(s)) fp_abort("has no training scores: refit with retx = TRUE, or give `newdata`", "x")
    if (is.null(data)) {
      rn <- rownames(s)
      base <- data.frame(.rownames = if (is.null(rn)) as.character(seq_len(nrow(s))) else rn,
                         stringsAsFactors = FALSE)
    } else {
      base <- as.data.frame(data)
      if (!is.null(x$na.action)) base <- base[-as.integer(x$na.action), , drop = FALSE]
      if (nrow(base) != nrow(s)) {
        fp_abort(sprintf("has %d rows but the fit has %d training rows", nrow(base), nrow(s)), "data")
      }
    }
  }
  s <- as.data.frame(s)
  names(s) <- paste0(".fitted", names(s))
  out <- cbind(base, s)
  rownames(out) <- NULL
  out
}
