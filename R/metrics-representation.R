# Metrics of fair representations: variance kept on new data, and the demographic-parity /
# equal-opportunity gaps of predictions (fairness_gaps()). MMD^2 between projected groups is in
# mmd.R (a solver uses it too), classifiers trained on the representation in metrics-downstream.R.

#' Variance of new data explained by a projection
#'
#' The share of the total variance of `newdata` kept by the projection onto the span of a
#' rotation: `trace(V' S V) / trace(S)` with `S = cov(newdata)` (centred sample covariance) and
#' `V` the d x r basis. This is the `%Var` column of Kleindessner et al. (2023) and Lee et al.
#' (2022) divided by 100 (they compute it on the test split).
#'
#' For a [fair_pca()] fit, `newdata` is first centred and scaled as the model was (`scale.`
#' matters; the centre does not, since `S` is centred). For a matrix `object`, `newdata` is used
#' as it is. A min-max fit whose reconstruction is a linear map `M` of rank above `k` (see
#' [minmax]) keeps `1 - trace((I - M) S (I - M)) / trace(S)`, what its reconstruction keeps (on
#' the training data, the fit's `var_explained`), not the share of the span of `rotation`.
#'
#' @param object A `fair_pca` object or a d x r matrix whose columns span the subspace (they are
#'   orthonormalised if needed).
#' @param newdata A numeric matrix or data.frame with d columns.
#' @return A number in \[0, 1\].
#' @seealso [mmd2()], [downstream_metrics()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' train <- seq(1, nrow(pbc2), by = 2)
#' fit <- fair_pca(pbc2[train, 1:6], pbc2$sex[train], k = 2, scale. = TRUE)
#' variance_explained(fit, pbc2[-train, 1:6])
#' @export
variance_explained <- function(object, newdata) {
  fp_check_given(c("object", "newdata"))
  if (inherits(object, "fair_pca")) {
    # scaled as the model was, but centred below on its own means: the fit's centre would cancel
    # the spread of data far smaller than it
    x <- fp_transform(list(center = FALSE, scale = object$scale), fp_newdata(object, newdata))
    V <- object$rotation
  } else {
    V <- fp_as_basis(object, "object")
    x <- fp_as_matrix(newdata, "newdata", min_cols = 1L)
    if (ncol(x) != nrow(V)) {
      fp_abort(sprintf("has %d columns but `object` has %d rows", ncol(x), nrow(V)), "newdata")
    }
  }
  if (nrow(x) < 2L) fp_abort("needs at least 2 rows", "newdata")
  xc <- sweep(x, 2L, colMeans(x), `-`)
  # the share is unit-free: divided by its largest entry, the squares of data of any magnitude
  # (1e200, 1e-200) neither overflow nor underflow
  top <- max(abs(xc))
  if (!(top > 0)) fp_abort("has zero variance", "newdata")
  xc <- xc / top
  tot <- sum(xc^2)
  if (inherits(object, "fair_pca") && fp_has_map(object)) return(1 - sum((xc - t(fp_map_times(object, t(xc))))^2) / tot)
  sum((xc %*% V)^2) / tot
}

# An orthonormal basis from a d x r matrix (kept as is when already orthonormal).
fp_as_basis <- function(V, arg) {
  if (!is.matrix(V) || !is.numeric(V) || anyNA(V) || any(!is.finite(V))) {
    fp_abort("must be a fair_pca object or a finite numeric matrix (d x r basis)", arg)
  }
  if (ncol(V) < 1L || ncol(V) > nrow(V)) fp_abort("must have between 1 and nrow columns", arg)
  if (max(abs(crossprod(V) - diag(ncol(V)))) > 1e-8) {
    q <- qr(V)
    if (q$rank < ncol(V)) fp_abort("has linearly dependent columns", arg)
    V <- qr.Q(q)
  }
  V
}

#' Accuracy and fairness gaps of binary predictions
#'
#' For binary predictions `pred` of a binary label `y` and a group attribute:
#' * `accuracy`: `mean(pred == y)`;
#' * `dp_gap` (demographic parity, Delta_DP): the difference between the largest and the
#'   smallest group rate `P(pred = 1 | group)` (for two groups, `|P(pred=1|Z=1) - P(pred=1|Z=0)|`);
#' * `eo_gap` (equal opportunity): the same difference for the true-positive rates
#'   `P(pred = 1 | group, y = 1)` (groups without positive rows are skipped).
#'
#' @param pred,y Binary vectors (logical, 0/1, or factors with two levels; the second level is
#'   the positive class). Labels of `pred` (a factor or character vector) that are levels of `y`
#'   are read in `y`'s levels, whatever their own order.
#' @param group Group labels.
#' When every prediction is the same class, the gaps are 0 whatever the groups: a warning of
#' class `fairproj_single_class_warning` says so (also from [downstream_metrics()], naming the
#' classifier). When `group` has one group only, the gaps are 0 by construction: a warning of
#' class `fairproj_single_group_warning` says so.
#'
#' @return A named numeric vector `c(accuracy, dp_gap, eo_gap)`.
#' @seealso [delta_f_lin()], [group_errors()], [step_fair_pca()] for fair features in a model.
#' @examples
#' fairness_gaps(pred = c(1, 0, 1, 1), y = c(1, 0, 0, 1), group = c("a", "a", "b", "b"))
#' @export
fairness_gaps <- function(pred, y, group) {
  fp_check_given(c("pred", "y", "group"))
  fp_fairness_gaps(pred, y, group, "`pred`")
}

fp_fairness_gaps <- function(pred, y, group, who) {
  n <- length(y)
  # labelled predictions are read in the labels of `y`, whose second level is the positive
  # class: a `pred` with the same labels in another level order (or only one of them) is not
  # encoded by its own levels, which would count matching labels as errors
  if ((is.factor(pred) || is.character(pred)) && (is.factor(y) || is.character(y))) {
    ly <- levels(as.factor(y))
    if (length(ly) == 2L && all(unique(as.character(pred)) %in% ly)) pred <- factor(as.character(pred), levels = ly)
  }
  yb <- fp_as_binary(y, n, "y")
  pb <- fp_as_binary(pred, n, "pred")
  if (n > 1L && length(unique(pb)) == 1L) {
    fp_warn(sprintf("%s predicts one class (%d) for all %d rows: the parity gaps are 0 by construction and say nothing about fairness",
                    who, pb[1], n), class = "fairproj_single_class_warning")
  }
  g <- fp_as_group(group, n, "group", min_levels = 1L)
  if (nlevels(g) < 2L) {
    fp_warn(sprintf("`group` has one group ('%s'): the gaps between groups are 0 by construction and say nothing about fairness",
                    levels(g)), class = "fairproj_single_group_warning")
  }
  rate <- tapply(pb, g, mean)
  tpr <- tapply(pb[yb == 1], g[yb == 1], mean)
  tpr <- tpr[!is.na(tpr)]
  c(accuracy = mean(pb == yb),
    dp_gap = if (length(rate) > 1L) max(rate) - min(rate) else 0,
    eo_gap = if (length(tpr) > 1L) max(tpr) - min(tpr) else 0)
}
