# Downstream-classifier metrics used by the Pareto fair PCA vignette (Kamani et al. 2022,
# section 6.3): per-group accuracy and true-positive rate, and the difference of equality of
# opportunity (DEO, Donini et al. 2018), which is the `eo_gap` of the shared fairness_gaps();
# and downstream_metrics(), the accuracy and fairness gaps of classifiers trained on a
# representation (the protocol of Lee et al. 2022 and Kleindessner et al. 2023).

# Per-group accuracy and true-positive rate of 0/1 predictions `pred` for 0/1 labels `y`;
# the DEO is the largest difference between the groups' TPRs (|TPR_1 - TPR_2| for two groups).
fp_downstream_metrics <- function(pred, y, group) {
  pred <- as.numeric(pred)
  y <- as.numeric(y)
  group <- as.factor(group)
  if (length(pred) != length(y) || length(y) != length(group)) {
    fp_abort("must have one prediction per label and group", "pred")
  }
  if (!all(pred %in% c(0, 1)) || !all(y %in% c(0, 1))) fp_abort("and `y` must be 0/1", "pred")
  lev <- levels(group)
  tab <- data.frame(
    group = c(lev, "all"),
    n = c(as.numeric(table(group)), length(y)),
    accuracy = c(vapply(lev, function(l) mean(pred[group == l] == y[group == l]), numeric(1)), mean(pred == y)),
    tpr = c(vapply(lev, function(l) {
      pos <- group == l & y == 1
      if (any(pos)) mean(pred[pos] == 1) else NA_real_
    }, numeric(1)), mean(pred[y == 1] == 1)),
    row.names = NULL, stringsAsFactors = FALSE)
  list(table = tab, deo = fairness_gaps(pred, y, group)[["eo_gap"]])
}

# Logistic regression on training features, 0/1 predictions (probability > 1/2) on test
# features; stats::glm.fit, no extra package.
fp_logistic_predict <- function(xtrain, ytrain, xtest) {
  Xtr <- cbind(1, as.matrix(xtrain))
  fit <- suppressWarnings(stats::glm.fit(Xtr, ytrain, family = stats::binomial()))
  beta <- fit$coefficients
  beta[is.na(beta)] <- 0
  eta <- drop(cbind(1, as.matrix(xtest)) %*% beta)
  as.numeric(eta > 0)
}

# The two-hidden-layer network of Lee et al. (2022) and Kleindessner et al. (2023), who use
# scikit-learn's `MLPClassifier(hidden_layer_sizes = (10, 5), random_state = 999,
# max_iter = 10000)`, fitted with the suggested package RSNNS (the SNNS simulator; a maintained
# package supporting several hidden layers): hidden layers of `size` = c(10, 5) logistic units,
# one logistic output unit, the inputs as given (as scikit-learn), weights initialised
# uniformly in [-0.3, 0.3], trained by resilient backpropagation (Rprop, SNNS's defaults:
# initial step 0.1, largest step 50, weight decay 1e-4, one full-batch update per epoch). What
# differs from scikit-learn, which RSNNS cannot do: logistic instead of ReLU hidden units,
# squared error instead of log-loss, Rprop instead of Adam on mini-batches of 200 (both adapt
# a step size per weight, so neither depends much on the scale of the inputs; plain
# backpropagation stalls on the majority-class plateau for small-scale representations). The
# stopping rule is scikit-learn's, applied to RSNNS's per-epoch training error (mean squared
# error per row): stop after the first epoch at which the error has not fallen by more than
# `tol` = 1e-4 below the best so far for more than `n_iter_no_change` = 10 consecutive epochs,
# or after `max_iter` epochs. RSNNS trains a fixed number of epochs, so the network is trained
# once for `max_iter` epochs to find that epoch and then again, from the same seed (RSNNS draws
# its weights from R's stream), for exactly that many epochs. The seed is drawn from R's random
# stream (call set.seed() first). Returns 0/1 predictions for `ts` with the number of epochs as
# attribute "epochs".
fp_mlp2 <- function(s, y, ts, size = c(10, 5), max_iter = 2000,
                    tol = 1e-4, n_iter_no_change = 10) {
  if (!requireNamespace("RSNNS", quietly = TRUE)) {
    fp_abort("needs the suggested package 'RSNNS' for classifier \"mlp2\"; install it", "classifier")
  }
  size <- fp_check_mlp_size(size)
  max_iter <- fp_check_count(max_iter, 1L, 1e6, "max_iter")
  fp_check_number(tol, "tol", 0, Inf)
  n_iter_no_change <- fp_check_count(n_iter_no_change, 1L, 1e6, "n_iter_no_change")
  s <- as.matrix(s)
  ts <- as.matrix(ts)
  seed <- sample.int(.Machine$integer.max, 1L)
  train <- function(epochs) {
    restore <- fp_set_seed(seed)  # RSNNS draws from R's random stream
    on.exit(restore())
    RSNNS::mlp(s, as.numeric(y), size = size, maxit = epochs, initFunc = "Randomize_Weights",
               initFuncParams = c(-0.3, 0.3), learnFunc = "Rprop",
               learnFuncParams = c(0.1, 50, 4), hiddenActFunc = "Act_Logistic",
               shufflePatterns = TRUE, linOut = FALSE)
  }
  fit <- train(max_iter)
  err <- fit$IterativeFitError / nrow(s)
  best <- Inf
  no_improve <- 0L
  stop_at <- length(err)
  for (e in seq_along(err)) {
    no_improve <- if (err[e] > best - tol) no_improve + 1L else 0L
    if (err[e] < best) best <- err[e]
    if (no_improve > n_iter_no_change) {
      stop_at <- e
      break
    }
  }
  if (stop_at < length(err)) fit <- train(stop_at)
  p <- stats::predict(fit, ts)
  out <- as.integer(p[, 1] >= 0.5)
  attr(out, "epochs") <- stop_at
  out
}

fp_check_mlp_size <- function(size, arg = "size") {
  if (!is.numeric(size) || !length(size) || anyNA(size) || any(size < 1) || any(size %% 1 != 0)) {
    fp_abort("must be a vector of positive whole numbers (units per hidden layer)", arg)
  }
  as.integer(size)
}

# The arguments each classifier takes in `control` and the check of each value (called with the
# value and the name it is reported under, `control$svm_rbf$gamma`); "logistic" takes none.
fp_positive <- function(v, arg) fp_check_number(v, arg, 0, Inf, open_lower = TRUE, open_upper = TRUE)
fp_nonnegative <- function(v, arg) fp_check_number(v, arg, 0, Inf, open_upper = TRUE)
fp_iterations <- function(v, arg) fp_check_count(v, 1L, 1e6, arg)
fp_flag <- function(v, arg) fp_check_flag(v, arg)  # called at run time: validate.R collates later
fp_control_args <- list(
  logistic = list(),
  logistic_l2 = list(reg = fp_nonnegative, maxit = fp_iterations),
  svm_linear = list(cost = fp_positive, tolerance = fp_positive, scale = fp_flag),
  svm_rbf = list(gamma = fp_positive, cost = fp_positive, tolerance = fp_positive, scale = fp_flag),
  mlp = list(size = function(v, arg) fp_check_count(v, 1L, 1e4, arg), decay = fp_nonnegative,
             maxit = fp_iterations, trace = fp_flag),
  mlp2 = list(size = function(v, arg) fp_check_mlp_size(v, arg), max_iter = fp_iterations, tol = fp_nonnegative,
              n_iter_no_change = fp_iterations))

# `control` of downstream_metrics(): a named list with one entry per classifier, each a named list
# of arguments that classifier takes, each value of the right type and range.
fp_check_control <- function(control) {
  known <- names(fp_control_args)
  if (!is.list(control) || (length(control) && (is.null(names(control)) || any(!names(control) %in% known)))) {
    fp_abort(sprintf("must be a named list with elements among %s", paste(known, collapse = ", ")), "control")
  }
  for (cl in names(control)) {
    spec <- fp_control_args[[cl]]
    entry <- control[[cl]]
    takes <- if (length(spec)) sprintf("it takes %s", paste(names(spec), collapse = ", ")) else "it takes none"
    if (!is.list(entry) || (length(entry) && (is.null(names(entry)) || any(!nzchar(names(entry)))))) {
      fp_abort(sprintf("entry %s must be a named list of arguments of classifier \"%s\" (%s)", cl, cl, takes), "control")
    }
    bad <- setdiff(names(entry), names(spec))
    if (length(bad)) {
      fp_abort(sprintf("entry %s has argument(s) that classifier \"%s\" does not take: %s (%s)", cl, cl,
                       paste(bad, collapse = ", "), takes), "control")
    }
    for (a in names(entry)) spec[[a]](entry[[a]], sprintf("control$%s$%s", cl, a))
  }
  invisible(control)
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
#'   The arguments each classifier takes: `logistic_l2`: `reg` (0 or more), `maxit`;
#'   `svm_linear`: `cost`, `tolerance` (positive), `scale` (`TRUE`/`FALSE`); `svm_rbf`: the
#'   same and `gamma` (positive); `mlp`: `size`, `maxit` (whole numbers), `decay` (0 or more),
#'   `trace`; `mlp2`: `size`, `max_iter`, `tol`, `n_iter_no_change`; `logistic`: none.
#' @return A data.frame with one row per classifier: `classifier`, `accuracy`, `dp_gap`,
#'   `eo_gap`, `n` (number of evaluation rows).
#' @seealso [fairness_gaps()], [variance_explained()], [mmd2()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' d <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex",
#'                              "status")])
#' fit <- fair_pca(d[1:6], d$sex, k = 2, scale. = TRUE)
#' died <- d$status == 2
#' downstream_metrics(predict(fit), died, d$sex, classifier = "logistic")
#' @export
downstream_metrics <- function(scores, y, group, classifier = c("logistic", "svm_linear", "svm_rbf", "mlp"),
                               newscores = NULL, newy = NULL, newgroup = NULL, control = list()) {
  fp_check_given(c("scores", "y", "group"))
  s <- fp_as_scores(scores, "scores")
  n <- nrow(s)
  yb <- fp_as_binary(y, n, "y")
  g <- fp_as_group(group, n, "group", min_levels = 1L)
  if (!is.character(classifier) || length(classifier) < 1L || anyNA(classifier)) {
    fp_abort("must be a character vector of classifier names", "classifier")
  }
  known <- names(fp_control_args)
  bad <- setdiff(classifier, known)
  if (length(bad)) {
    fp_abort(sprintf("has unknown name(s) %s; choose from %s", paste(bad, collapse = ", "),
                     paste(known, collapse = ", ")), "classifier")
  }
  fp_check_control(control)
  given <- c(!is.null(newscores), !is.null(newy), !is.null(newgroup))
  if (any(given) && !all(given)) fp_abort("must be given together with `newy` and `newgroup` (the held-out rows' labels and groups)", "newscores")
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
    pred <- fp_classify_or_abort(cl, s, yb, ts, control[[cl]])
    gaps <- fp_fairness_gaps(pred, ty, tg, sprintf("classifier \"%s\"", cl))
    data.frame(classifier = cl, accuracy = gaps[["accuracy"]], dp_gap = gaps[["dp_gap"]],
               eo_gap = gaps[["eo_gap"]], n = nrow(ts), stringsAsFactors = FALSE)
  })
  do.call(rbind, rows)
}

# fp_classify() with the unclassed errors of the fitting packages (e1071's "Model is empty!" on
# scores of 1e300, nnet's) as a classed error naming `scores` and the classifier's `control` entry.
fp_classify_or_abort <- function(cl, s, y, ts, ctrl) {
  tryCatch(fp_classify(cl, s, y, ts, ctrl), error = function(e) {
    if (inherits(e, "fairproj_error")) stop(e)
    fp_abort(sprintf("cannot be fitted by classifier \"%s\" (%s); standardise the scores or change control$%s",
                     cl, conditionMessage(e), cl), "scores")
  })
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
    args$MaxNWts <- (ncol(s) + 2L) * args$size + 1L  # all the weights of the network asked for
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
