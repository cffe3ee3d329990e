# Metrics of fair representations: variance kept on new data, MMD^2 between projected groups,
# and the accuracy / demographic-parity / equal-opportunity gaps of classifiers trained on the
# representation (the protocol of Lee et al. 2022 and Kleindessner et al. 2023).

#' Variance of new data explained by a projection
#'
#' The share of the total variance of `newdata` kept by the projection onto the span of a
#' rotation: `trace(V' S V) / trace(S)` with `S = cov(newdata)` (centred sample covariance) and
#' `V` the d x r basis. This is the `%Var` column of Kleindessner et al. (2023) and Lee et al.
#' (2022) divided by 100 (they compute it on the test split).
#'
#' For a [fair_pca()] fit, `newdata` is first centred and scaled as the model was (`scale.`
#' matters; the centre does not, since `S` is centred). For a matrix `object`, `newdata` is used
#' as it is.
#'
#' @param object A `fair_pca` object or a d x r matrix whose columns span the subspace (they are
#'   orthonormalised if needed).
#' @param newdata A numeric matrix or data.frame with d columns.
#' @return A number in \[0, 1\].
#' @seealso [mmd2()], [downstream_metrics()].
#' @examples
#' train <- seq(1, 150, by = 2)
#' fit <- fair_pca(iris[train, 1:4], iris$Species[train], k = 2)
#' variance_explained(fit, iris[-train, 1:4])
#' @export
variance_explained <- function(object, newdata) {
  if (inherits(object, "fair_pca")) {
    x <- fp_transform(object, fp_newdata(object, newdata))
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
  tot <- sum(xc^2)
  if (tot <= 0) fp_abort("has zero variance", "newdata")
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

#' Median-heuristic bandwidth and MMD^2 between groups
#'
#' `mmd2()` is the biased (V-statistic) estimate of the squared maximum mean discrepancy between
#' the rows of `scores` in two groups, with the Gaussian kernel `exp(-|a - b|^2 / (2 sigma^2))`:
#' `mean(K(A, A)) + mean(K(B, B)) - 2 mean(K(A, B))`. With more than two groups it returns the
#' largest value over all pairs of groups.
#'
#' `mmd_bandwidth()` is the median heuristic of Lee et al. (2022), used by Kleindessner et al.
#' (2023): `sigma = sqrt(median(d2) / 2)` with `d2` the squared distances between all pairs of
#' distinct rows. In their protocol it is computed once, on the standard-PCA scores of the
#' training data, and the same sigma is used for every method; pass it as `sigma`. When `sigma`
#' is `NULL`, `mmd2()` uses the median heuristic on `scores` themselves.
#'
#' @param scores An n x r numeric matrix (a representation of n rows), e.g. from
#'   [predict.fair_pca()].
#' @param group Group labels, one per row of `scores` (at least two groups).
#' @param sigma Kernel bandwidth (a positive number) or `NULL`.
#' @param max_rows `mmd_bandwidth()` uses a random subsample of this many rows when `scores` has
#'   more (the pairwise distances take O(n^2) memory); `Inf` uses all rows.
#' @return `mmd2()`: a number (non-negative). `mmd_bandwidth()`: a positive number.
#' @references Lee, J., Kim, G., Olfat, M., Hasegawa-Johnson, M. and Yoo, C. D. (2022). Fast
#'   and efficient MMD-based fair PCA via optimization over Stiefel manifold. AAAI.
#' @seealso [variance_explained()], [downstream_metrics()].
#' @examples
#' fit <- fair_pca(iris[, 1:4], iris$Species == "setosa", k = 2)
#' s <- predict(fit)
#' sig <- mmd_bandwidth(s)
#' mmd2(s, iris$Species == "setosa", sigma = sig)
#' @export
mmd2 <- function(scores, group, sigma = NULL) {
  s <- fp_as_scores(scores, "scores")
  g <- fp_as_group(group, nrow(s), "group", min_levels = 2L)
  if (is.null(sigma)) sigma <- mmd_bandwidth(s)
  fp_check_number(sigma, "sigma", lower = 0, open_lower = TRUE)
  if (!is.finite(sigma)) fp_abort("must be finite", "sigma")
  idx <- split(seq_len(nrow(s)), g)
  mean_k <- function(a, b) {
    d2 <- pmax(outer(rowSums(a^2), rowSums(b^2), `+`) - 2 * tcrossprod(a, b), 0)
    mean(exp(-d2 / (2 * sigma^2)))
  }
  self <- vapply(idx, function(i) mean_k(s[i, , drop = FALSE], s[i, , drop = FALSE]), numeric(1))
  out <- 0
  for (a in seq_along(idx)) for (b in seq_along(idx)) if (a < b) {
    v <- self[[a]] + self[[b]] - 2 * mean_k(s[idx[[a]], , drop = FALSE], s[idx[[b]], , drop = FALSE])
    out <- max(out, v)
  }
  max(out, 0)
}

#' @rdname mmd2
#' @export
mmd_bandwidth <- function(scores, max_rows = 5000) {
  s <- fp_as_scores(scores, "scores")
  if (nrow(s) < 2L) fp_abort("needs at least 2 rows", "scores")
  fp_check_number(max_rows, "max_rows", lower = 2)
  if (nrow(s) > max_rows) s <- s[sort(sample.int(nrow(s), max_rows)), , drop = FALSE]
  d2 <- stats::dist(s)^2
  sig <- sqrt(stats::median(d2) / 2)
  if (!(sig > 0)) fp_abort("has a median pairwise distance of zero; give `sigma` explicitly", "scores")
  sig
}

fp_as_scores <- function(scores, arg) {
  if (is.data.frame(scores)) scores <- as.matrix(scores)
  if (is.numeric(scores) && is.null(dim(scores))) scores <- matrix(scores, ncol = 1L)
  if (!is.matrix(scores) || !is.numeric(scores)) fp_abort("must be a numeric matrix (one row per observation)", arg)
  if (anyNA(scores) || any(!is.finite(scores))) fp_abort("contains missing or infinite values", arg)
  if (nrow(scores) < 1L || ncol(scores) < 1L) fp_abort("is empty", arg)
  storage.mode(scores) <- "double"
  scores
}

# Binary labels as 0/1: logical, 0/1 numeric, or a factor / character with two values (the
# second level, in factor order, is the positive class).
fp_as_binary <- function(y, n, arg) {
  if (is.null(y)) fp_abort("is missing", arg)
  if (length(y) != n) fp_abort(sprintf("has length %d but there are %d rows", length(y), n), arg)
  if (anyNA(y)) fp_abort("contains missing values", arg)
  if (is.logical(y)) return(as.integer(y))
  if (is.numeric(y)) {
    if (!all(y %in% c(0, 1))) fp_abort("must be binary: logical, 0/1, or a factor with two levels", arg)
    return(as.integer(y))
  }
  f <- as.factor(y)
  if (nlevels(f) > 2L) fp_abort("must be binary: logical, 0/1, or a factor with two levels", arg)
  as.integer(as.integer(f) == nlevels(f) & nlevels(f) == 2L)
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
#'   the positive class).
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
  fp_fairness_gaps(pred, y, group, "`pred`")
}

fp_fairness_gaps <- function(pred, y, group, who) {
  n <- length(y)
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

#' Downstream classifiers trained on a representation
#'
#' Fits classifiers predicting a binary label from a representation (scores) and reports their
#' accuracy, demographic-parity gap and equal-opportunity gap ([fairness_gaps()]). With no
#' `newscores`, the classifiers are evaluated on the rows they were trained on: this is the
#' protocol of Lee et al. (2022) and Kleindessner et al. (2023), who train and evaluate the
#' classifiers on the test split's representation. Give `newscores`, `newy` and `newgroup` for
#' a held-out evaluation.
#'
#' Classifiers (`control` overrides the defaults shown, which follow the papers' protocol):
#' * `"logistic"`: logistic regression, [stats::glm()] with `binomial()`; predicts 1 when the
#'   fitted probability is at least 0.5.
#' * `"logistic_l2"`: L2-penalised logistic regression, minimising the mean log-loss plus
#'   `reg * |w|^2` (intercept not penalised; default `reg = 0.01`, which is scikit-learn's
#'   `LogisticRegression(C = 1 / (2 n 0.01))` used by Kleindessner et al. for the trade-off
#'   experiments), by BFGS ([stats::optim()]). A penalised model is what makes the trade-off
#'   representation of [fair_pca_mean] meaningful: an unpenalised one is invariant to rescaling
#'   the standard-PCA block.
#' * `"svm_linear"`: linear support vector machine, [e1071::svm()] with `cost = 1`,
#'   `scale = FALSE` (MATLAB `fitcsvm(..., 'linear')` defaults).
#' * `"svm_rbf"`: RBF-kernel SVM, `exp(-gamma |a - b|^2)` with `gamma = 1`, `cost = 1`,
#'   `scale = FALSE` (MATLAB `fitcsvm(..., 'KernelFunction', 'RBF')` defaults: kernel scale 1,
#'   box constraint 1).
#' * `"mlp"`: a one-hidden-layer neural network, [nnet::nnet()] with `size = 10`,
#'   `decay = 1e-4`, `maxit = 2000`, entropy loss. The papers use scikit-learn's
#'   `MLPClassifier(hidden_layer_sizes = (10, 5))` (two hidden layers, Adam); nnet has one hidden
#'   layer and fits by BFGS, so MLP numbers are comparable in spirit, not digit for digit. The
#'   initial weights are random: call [set.seed()] first for reproducible results.
#' * `"mlp2"`: the papers' two-hidden-layer network, sizes (10, 5) (scikit-learn's
#'   `MLPClassifier(hidden_layer_sizes = (10, 5))` there), with the suggested package RSNNS:
#'   logistic units, resilient backpropagation (Rprop, SNNS defaults) and scikit-learn's stopping rule
#'   on the training error (no decrease by more than 1e-4 for more than 10 epochs; at most 2000
#'   epochs). Not scikit-learn's ReLU, log-loss and Adam (RSNNS has none of them). `control =
#'   list(mlp2 = list(size = c(10, 5), max_iter = , tol = ,
#'   n_iter_no_change = ))`. Random initial weights and shuffles: call [set.seed()] first.
#'
#' e1071 is a suggested package: the SVM classifiers need it installed. nnet is a recommended
#' package shipped with R.
#'
#' @param scores An n x r numeric matrix: the representation of the training rows.
#' @param y Binary label of the training rows (logical, 0/1, or a two-level factor whose second
#'   level is the positive class).
#' @param group Group labels of the training rows.
#' @param classifier One or more of `"logistic"`, `"logistic_l2"`, `"svm_linear"`, `"svm_rbf"`, `"mlp"`,
#'   `"mlp2"`.
#' @param newscores,newy,newgroup Optional evaluation rows (all three or none).
#' @param control A named list of per-classifier argument lists overriding the defaults, e.g.
#'   `list(svm_rbf = list(gamma = 0.1), mlp = list(size = 5), logistic_l2 = list(reg = 0.1))`.
#' @return A data.frame with one row per classifier: `classifier`, `accuracy`, `dp_gap`,
#'   `eo_gap`, `n` (number of evaluation rows).
#' @seealso [fairness_gaps()], [variance_explained()], [mmd2()].
#' @examples
#' fit <- fair_pca(iris[, 1:4], iris$Species == "setosa", k = 2)
#' y <- iris$Species == "virginica"
#' downstream_metrics(predict(fit), y, iris$Species == "setosa", classifier = "logistic")
#' @export
downstream_metrics <- function(scores, y, group, classifier = c("logistic", "svm_linear", "svm_rbf", "mlp"),
                               newscores = NULL, newy = NULL, newgroup = NULL, control = list()) {
  s <- fp_as_scores(scores, "scores")
  n <- nrow(s)
  yb <- fp_as_binary(y, n, "y")
  g <- fp_as_group(group, n, "group", min_levels = 1L)
  if (!is.character(classifier) || length(classifier) < 1L || anyNA(classifier)) {
    fp_abort("must be a character vector of classifier names", "classifier")
  }
  known <- c("logistic", "logistic_l2", "svm_linear", "svm_rbf", "mlp", "mlp2")
  bad <- setdiff(classifier, known)
  if (length(bad)) {
    fp_abort(sprintf("has unknown name(s) %s; choose from %s", paste(bad, collapse = ", "),
                     paste(known, collapse = ", ")), "classifier")
  }
  if (!is.list(control) || (length(control) && (is.null(names(control)) || any(!names(control) %in% known)))) {
    fp_abort(sprintf("must be a named list with elements among %s", paste(known, collapse = ", ")), "control")
  }
  given <- c(!is.null(newscores), !is.null(newy), !is.null(newgroup))
  if (any(given) && !all(given)) fp_abort("`newy` and `newgroup` must be given together with it", "newscores")
  if (all(given)) {
    ts <- fp_as_scores(newscores, "newscores")
    if (ncol(ts) != ncol(s)) fp_abort(sprintf("has %d columns but `scores` has %d", ncol(ts), ncol(s)), "newscores")
    ty <- fp_as_binary(newy, nrow(ts), "newy")
    tg <- fp_as_group(newgroup, nrow(ts), "newgroup", min_levels = 1L)
  } else {
    ts <- s
    ty <- yb
    tg <- g
  }
  colnames(s) <- colnames(ts) <- paste0("s", seq_len(ncol(s)))
  rows <- lapply(classifier, function(cl) {
    pred <- fp_classify(cl, s, yb, ts, control[[cl]])
    gaps <- fp_fairness_gaps(pred, ty, tg, sprintf("classifier \"%s\"", cl))
    data.frame(classifier = cl, accuracy = gaps[["accuracy"]], dp_gap = gaps[["dp_gap"]],
               eo_gap = gaps[["eo_gap"]], n = nrow(ts), stringsAsFactors = FALSE)
  })
  do.call(rbind, rows)
}

# Train one classifier on (s, y) and predict 0/1 on ts.
fp_classify <- function(cl, s, y, ts, ctrl = NULL) {
  if (length(unique(y)) < 2L) return(rep(as.integer(y[1]), nrow(ts)))  # one class only
  merge_args <- function(def) {
    if (length(ctrl)) def[names(ctrl)] <- ctrl
    def
  }
  if (cl == "logistic") {
    df <- data.frame(y = y, s)
    fit <- suppressWarnings(stats::glm(y ~ ., data = df, family = stats::binomial()))
    p <- suppressWarnings(stats::predict(fit, newdata = data.frame(ts), type = "response"))
    return(as.integer(p >= 0.5))
  }
  if (cl == "logistic_l2") {
    args <- merge_args(list(reg = 0.01, maxit = 1000))
    b <- fp_logistic_l2(s, y, args$reg, args$maxit)
    return(as.integer(drop(cbind(1, ts) %*% b) >= 0))
  }
  if (cl %in% c("svm_linear", "svm_rbf")) {
    if (!requireNamespace("e1071", quietly = TRUE)) {
      fp_abort("needs the suggested package 'e1071' for the SVM classifiers; install it", "classifier")
    }
    def <- if (cl == "svm_linear") list(kernel = "linear", cost = 1, scale = FALSE)
           else list(kernel = "radial", gamma = 1, cost = 1, scale = FALSE)
    args <- merge_args(def)
    fit <- do.call(e1071::svm, c(list(x = s, y = factor(y, levels = c(0, 1)), type = "C-classification"), args))
    p <- stats::predict(fit, ts)
    return(as.integer(as.character(p)))
  }
  if (cl == "mlp") {
    if (!requireNamespace("nnet", quietly = TRUE)) fp_abort("needs the package 'nnet' for the MLP", "classifier")
    args <- merge_args(list(size = 10, decay = 1e-4, maxit = 2000, entropy = TRUE, trace = FALSE))
    fit <- do.call(nnet::nnet, c(list(x = s, y = y), args))
    p <- stats::predict(fit, ts, type = "raw")
    return(as.integer(p >= 0.5))
  }
  if (cl == "mlp2") return(do.call(fp_mlp2, c(list(s, y, ts), ctrl)))
  stop("internal error: unknown classifier")
}

# L2-penalised logistic regression: minimise mean log-loss + reg * |w|^2 (no penalty on the
# intercept). Returns c(intercept, w).
fp_logistic_l2 <- function(s, y, reg = 0.01, maxit = 1000) {
  X <- cbind(1, s)
  n <- nrow(X)
  pen <- c(0, rep(1, ncol(s)))
  f <- function(b) {
    eta <- drop(X %*% b)
    mean(pmax(eta, 0) + log1p(exp(-abs(eta))) - y * eta) + reg * sum(pen * b^2)
  }
  gr <- function(b) {
    pr <- stats::plogis(drop(X %*% b))
    drop(crossprod(X, pr - y)) / n + 2 * reg * pen * b
  }
  stats::optim(rep(0, ncol(X)), f, gr, method = "BFGS", control = list(maxit = maxit, reltol = 1e-12))$par
}
