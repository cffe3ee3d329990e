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

# A multilayer perceptron with scikit-learn's MLPClassifier defaults, the downstream classifier of
# Lee et al. (2022) and Kleindessner et al. (2023): `MLPClassifier(hidden_layer_sizes = (10, 5),
# random_state = 999, max_iter = 10000)`, i.e. ReLU hidden layers, Adam (learning rate 1e-3,
# beta = (0.9, 0.999)), mini-batches of min(200, n) rows reshuffled every epoch, L2 penalty
# alpha = 1e-4 on the batch-mean log-loss, and scikit-learn's stopping rule: stop when the epoch
# loss has not decreased by more than `tol` = 1e-4 below the best so far for more than
# `n_iter_no_change` = 10 consecutive epochs, or after `max_iter` epochs. The network is ANN2's
# (a maintained C++ implementation supporting several hidden layers, ReLU and Adam; suggested
# package), trained one epoch at a time so that the stopping rule is scikit-learn's; the epoch
# loss is the row-weighted mean of ANN2's per-batch losses, as scikit-learn accumulates it.
# ANN2 uses a two-unit softmax output (equivalent to scikit-learn's single logistic unit) and
# its own weight initialisation. Returns 0/1 predictions for `ts`, plus the number of epochs as
# attribute "epochs".
fp_mlp_sklearn <- function(s, y, ts, hidden = c(10, 5), learning_rate = 1e-3, alpha = 1e-4,
                           batch_size = 200, max_iter = 10000, tol = 1e-4, n_iter_no_change = 10) {
  if (!requireNamespace("ANN2", quietly = TRUE)) {
    fp_abort("needs the suggested package 'ANN2' for classifier \"mlp_sklearn\"; install it", "classifier")
  }
  hidden <- fp_check_mlp_hidden(hidden)
  for (a in c("learning_rate", "batch_size", "max_iter", "tol", "n_iter_no_change")) {
    v <- get(a)
    if (!is.numeric(v) || length(v) != 1L || !is.finite(v) || v < 0 || (a != "tol" && v <= 0)) {
      fp_abort("must be one positive number", a)
    }
  }
  if (!is.numeric(alpha) || length(alpha) != 1L || !is.finite(alpha) || alpha < 0) {
    fp_abort("must be one non-negative number", "alpha")
  }
  s <- as.matrix(s)
  n <- nrow(s)
  bs <- as.integer(min(batch_size, n))
  sizes <- c(rep(bs, n %/% bs), if (n %% bs) n %% bs)
  # ANN2 resets R's random-number stream from its `random.seed`: draw the seeds from the
  # caller's stream, so that set.seed() makes a fit reproducible and the stream moves on.
  seeds <- sample.int(.Machine$integer.max, 2L)
  old_seed <- seeds[2]
  lab <- factor(y, levels = c(0, 1))
  # sklearn's alpha penalises 0.5 * alpha * |W|^2 / batch rows; ANN2 adds L2 * W to the
  # gradient of the batch-mean loss (taken from its documentation of L2 as a weight penalty), so
  # the same penalty is L2 = alpha / batch rows (5e-7 here: negligible either way).
  nn <- ANN2::neuralnetwork(s, lab, hidden.layers = hidden, regression = FALSE, standardize = FALSE,
                            loss.type = "log", activ.functions = "relu", optim.type = "adam",
                            learn.rates = learning_rate, L2 = alpha / bs, adam.beta1 = 0.9,
                            adam.beta2 = 0.999, n.epochs = 1L, batch.size = bs, drop.last = FALSE,
                            val.prop = 0, verbose = FALSE, random.seed = seeds[1])
  # Per-epoch losses of the last `m` epochs: row-weighted means of ANN2's per-batch losses.
  epoch_losses <- function(m) {
    h <- utils::tail(nn$Rcpp_ANN$getTrainHistory()$train_loss, m * length(sizes))
    colSums(matrix(h, length(sizes)) * sizes) / n
  }
  best <- epoch_losses(1L)
  no_improve <- 0L
  epochs <- 1L
  # scikit-learn stops after the first epoch at which `no_improve` exceeds `n_iter_no_change`.
  # The count grows by at most one per epoch, so no stop can happen within the next
  # n_iter_no_change + 1 - no_improve epochs: train them in one call (ANN2's per-call overhead
  # dominates single epochs) and apply the rule epoch by epoch afterwards. This stops at
  # exactly scikit-learn's epoch.
  while (epochs < max_iter && no_improve <= n_iter_no_change) {
    m <- as.integer(min(n_iter_no_change + 1L - no_improve, max_iter - epochs))
    old_seed <- (old_seed %% 2147483646L) + 1L
    ANN2::train(nn, s, lab, n.epochs = m, batch.size = bs, drop.last = FALSE, val.prop = 0,
                random.seed = old_seed)
    epochs <- epochs + m
    for (l in epoch_losses(m)) {
      no_improve <- if (l > best - tol) no_improve + 1L else 0L
      if (l < best) best <- l
    }
  }
  p <- stats::predict(nn, as.matrix(ts))$probabilities
  out <- as.integer(p[, ncol(p)] >= 0.5)
  attr(out, "epochs") <- epochs
  out
}

fp_check_mlp_hidden <- function(hidden) {
  if (!is.numeric(hidden) || !length(hidden) || anyNA(hidden) || any(hidden < 1) || any(hidden %% 1 != 0)) {
    fp_abort("must be a vector of positive whole numbers (units per hidden layer)", "hidden")
  }
  as.integer(hidden)
}
