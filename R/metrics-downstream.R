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
