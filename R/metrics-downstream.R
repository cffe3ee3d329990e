# Downstream-classifier metrics used by the Pareto fair PCA vignette (Kamani et al. 2022,
# section 6.3): per-group accuracy and true-positive rate, and the difference of equality of
# opportunity (DEO, Donini et al. 2018), which is the `eo_gap` of the shared fairness_gaps().
# Internal helpers; the overall metrics are those of downstream_metrics().

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

fp_check_mlp_size <- function(size) {
  if (!is.numeric(size) || !length(size) || anyNA(size) || any(size < 1) || any(size %% 1 != 0)) {
    fp_abort("must be a vector of positive whole numbers (units per hidden layer)", "size")
  }
  as.integer(size)
}
