#' Linear-classifier unfairness of a projection (Delta F_Lin)
#'
#' The fairness criterion of Olfat and Aswani (2019), used by Vu et al. (2022, Table 4): how well
#' the best linear support-vector machine can tell the two groups apart from the projected data.
#' The rows of `x` are mapped to the fit's scores ([predict.fair_pca()]: centred and scaled with
#' the fit's statistics, projected), the scores are standardised with their own means and
#' standard deviations, and a soft-margin linear SVM (`e1071::svm()`, hinge loss, free bias)
#' predicting the group is fitted, its cost chosen among `cost` by `folds`-fold cross-validation
#' to **maximise** the held-out statistic. The statistic is the Kolmogorov-Smirnov distance
#' between the two groups' decision values, \eqn{\max_t |P(w^\top z > t | S = 1) - P(w^\top z > t | S = 0)|}
#' over all thresholds, i.e. the largest gap between true- and false-positive rates along the
#' ROC curve; it is evaluated on all rows with the model refitted at the chosen cost.
#' Lower is fairer (0: the groups' score distributions coincide for the best linear classifier;
#' 1: they are separable).
#'
#' Needs the suggested package \pkg{e1071}. The SVM costs grow quickly with the number of rows
#' and with large `cost`; subsample big test sets.
#'
#' @param object A `fair_pca` object.
#' @param x A numeric matrix or data.frame with the model's columns (for example test data).
#' @param group Group labels for the rows of `x`: exactly two groups.
#' @param cost Candidate SVM costs (the paper: \eqn{10^{-4}, 10^{-2}, 1, 10^2, 10^4}).
#' @param folds Number of cross-validation folds for the cost (the paper: 5).
#' @param seed Optional integer seed for the fold assignment (the global random-number state is
#'   restored afterwards).
#' @return A number (the statistic) with attributes `cost` (the chosen cost) and `cv` (a
#'   data.frame of the mean held-out statistic per cost). A progress bar over the SVM fits is
#'   shown in interactive sessions (`options(fairproj.progress = FALSE)` turns it off).
#' @references Olfat, M. and Aswani, A. (2019). Convex formulations for fair principal component
#'   analysis. *AAAI 2019*.
#'
#'   Vu, H., Tran, T., Yue, M.-C. and Nguyen, V. A. (2022). Distributionally robust fair
#'   principal components via geodesic descents. *ICLR 2022*.
#' @examples
#' if (requireNamespace("e1071", quietly = TRUE)) {
#'   grp <- iris$Species == "setosa"
#'   fit <- fair_pca(iris[, 1:4], grp, k = 2)
#'   delta_f_lin(fit, iris[, 1:4], grp, cost = c(0.01, 1), folds = 3, seed = 1)
#' }
#' @export
delta_f_lin <- function(object, x, group, cost = 10^c(-4, -2, 0, 2, 4), folds = 5, seed = NULL) {
  if (!inherits(object, "fair_pca")) fp_abort("must be a fair_pca object", "object")
  if (!requireNamespace("e1071", quietly = TRUE)) {
    stop(errorCondition("delta_f_lin() needs the package 'e1071': install.packages(\"e1071\")",
                        class = c("fairproj_missing_package", "fairproj_error")))
  }
  xm <- fp_newdata(object, x, "x")
  g <- fp_as_group(group, nrow(xm), "group", min_levels = 2L)
  if (nlevels(g) != 2L) fp_abort(sprintf("must have exactly 2 groups (has %d)", nlevels(g)), "group")
  if (!is.numeric(cost) || length(cost) < 1L || anyNA(cost) || any(cost <= 0)) {
    fp_abort("must be positive numbers", "cost")
  }
  folds <- fp_check_count(folds, 2L, min(tabulate(g)), "folds")
  restore_seed <- fp_set_seed(seed)
  on.exit(restore_seed(), add = TRUE)
  z <- predict(object, xm)
  mu <- colMeans(z)
  s <- sqrt(colSums(sweep(z, 2L, mu)^2) / max(nrow(z) - 1, 1))
  s[s <= 0] <- 1
  z <- sweep(sweep(z, 2L, mu), 2L, s, `/`)
  fold <- integer(nrow(z))
  for (lev in levels(g)) {
    idx <- which(g == lev)
    idx <- idx[sample.int(length(idx))]
    fold[idx] <- rep_len(seq_len(folds), length(idx))
  }
  score <- function(train, test, C) {
    fit <- e1071::svm(z[train, , drop = FALSE], g[train], type = "C-classification", kernel = "linear",
                      cost = C, scale = FALSE)
    dv <- attr(stats::predict(fit, z[test, , drop = FALSE], decision.values = TRUE), "decision.values")
    fp_ks_groups(as.numeric(dv), g[test])
  }
  pb <- fp_progress_bar(length(cost) * folds + 1, "delta_f_lin: SVM fits")
  step <- 0
  cv <- vapply(cost, function(C) {
    mean(vapply(seq_len(folds), function(f) {
      v <- score(fold != f, fold == f, C)
      step <<- step + 1
      pb$update(step)
      v
    }, numeric(1)))
  }, numeric(1))
  best <- cost[which.max(cv)]
  all <- rep(TRUE, nrow(z))
  val <- score(all, all, best)
  pb$update(step + 1)
  structure(val, cost = best, cv = data.frame(cost = cost, statistic = cv))
}

# Kolmogorov-Smirnov distance between the two groups' values of s.
fp_ks_groups <- function(s, g) {
  g <- droplevels(as.factor(g))
  if (nlevels(g) < 2L) return(0)
  s1 <- s[g == levels(g)[1]]
  s2 <- s[g == levels(g)[2]]
  u <- sort(unique(s))
  max(abs(stats::ecdf(s1)(u) - stats::ecdf(s2)(u)))
}
