#' Iterative nullspace projection (INLP; Ravfogel et al. 2020) as a fair PCA baseline
#'
#' `fair_pca(x, group, k, method = "inlp")` removes, one direction at a time, what a linear
#' classifier uses to predict the group: it fits the classifier on the data projected so far,
#' projects its weight vector `w` out (\eqn{P \leftarrow P - uu^\top}, \eqn{u = Pw/\|Pw\|}), and
#' repeats `n_iter` times (default `d - k`, as Kleindessner et al. 2023 run it). The components are
#' the top-k eigenvectors of the projected covariance \eqn{PCP}; after `d - k` steps they span the
#' range of `P`. With `stop_at_majority = TRUE` the loop stops early, before removing a direction,
#' once the classifier's training accuracy is no better than predicting the larger group.
#'
#' Classifiers are L2-regularised and fitted by Newton's method on the primal: `"logistic"`
#' (logistic loss) and `"svm"` (squared hinge loss, the default loss of scikit-learn's
#' `LinearSVC`, which Kleindessner et al. use with `fit_intercept = False`, `C = 1`); the
#' intercept, when fitted, is not penalised. **Needs the rows** (the classifiers are fitted on
#' them); the work is \eqn{O(n d^2)} per step, about `1.5e-9 n d^2` seconds (a few Newton
#' steps), so the default `d - k` steps take about `1.5e-9 n d^3` seconds (a minute at n = 4,000,
#' d = 200). A fit estimated to take longer than the time limit (`options(fairproj.time_limit =
#' )`, in seconds, default 60) is refused up front with an error of class `fairproj_cost_error`
#' that says which `n_iter` fits. In interactive sessions a progress bar counts the classifier
#' fits (turn it off with `options(fairproj.progress = FALSE)`).
#'
#' @param prep,data Supplied by [fair_pca()].
#' @param k Target dimension.
#' @param classifier `"logistic"` or `"svm"`.
#' @param C Inverse regularisation strength (> 0), as in scikit-learn.
#' @param intercept Logical: fit an intercept.
#' @param n_iter Number of directions to remove; `NULL` for `d - k`.
#' @param stop_at_majority Logical: stop once the classifier is at the majority rate.
#' @return The fields added to the [fair_pca()] result: `rotation`, `directions` (the removed unit vectors),
#'   `accuracy` (training accuracy of the classifier at each step), `accuracy_final` (of a
#'   classifier fitted on the k-dimensional representation), `majority` (the majority rate),
#'   `iterations`, `history`.
#' @references Ravfogel, S., Elazar, Y., Gonen, H., Twiton, M. and Goldberg, Y. (2020). Null it
#'   out: guarding protected attributes by iterative nullspace projection. ACL 2020, 7237-7256.
#' @seealso [fair_pca()], [rlace], [delta_f_lin()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' fit <- fair_pca(as.matrix(pbc2[1:6]), pbc2$sex, k = 2, method = "inlp", scale. = TRUE)
#' fit$accuracy
#' @name inlp
#' @aliases fair_pca_inlp
NULL

fit_pca_inlp <- function(prep, k, classifier = c("logistic", "svm"), C = 1, intercept = TRUE,
                         n_iter = NULL, stop_at_majority = FALSE, data = NULL) {
  if (is.null(data)) {
    fp_abort_needs_rows("inlp", "the classifiers are fitted on them")
  }
  if (length(prep$levels) != 2L) fp_abort("must have exactly 2 groups for method 'inlp'", "group")
  if (!is.character(classifier)) fp_abort("must be \"logistic\" or \"svm\"", "classifier")
  classifier <- fp_match_arg(classifier, c("logistic", "svm"), "classifier")
  fp_check_number(C, "C", 0, Inf, open_lower = TRUE)
  fp_check_flag(intercept, "intercept")
  fp_check_flag(stop_at_majority, "stop_at_majority")
  d <- prep$d
  n_iter <- if (is.null(n_iter)) d - k else fp_check_count(n_iter, 0L, d - k, "n_iter")
  fp_inlp_check_cost(NROW(data$x), d, n_iter)
  z <- fp_transform(prep, data$x)
  y <- ifelse(data$group == prep$levels[2], 1, -1)
  type <- if (classifier == "logistic") 0L else 1L
  pb <- fp_progress_bar(n_iter, "INLP classifier fits")
  res <- fp_cpp(.fp_inlp(z, y, as.integer(n_iter), type, C, intercept, stop_at_majority,
                         if (fp_progress_on()) function(i) pb$update(i) else NULL), "INLP")
  pb$done()
  P <- res$P
  cshift <- 1e-8 * max(1, sum(diag(prep$C)) / d)
  M <- P %*% (prep$C + cshift * diag(d)) %*% P
  V <- fp_eig_top((M + t(M)) / 2, k)$vectors
  fin <- fp_cpp(.fp_linear_classifier(z %*% V, y, type, C, intercept), "the linear classifier")
  hist <- data.frame(iteration = seq_along(res$accuracy), objective = res$accuracy,
                     accuracy = res$accuracy)
  list(rotation = V, directions = res$directions, accuracy = res$accuracy,
       accuracy_final = fin$accuracy, majority = res$majority, iterations = res$iterations,
       classifier = classifier, history = hist)
}

# Refuses up front a fit estimated to take longer than the time limit (fp_check_cost()): a step
# costs about 1.5e-9 n d^2 s (measured: 195 steps at n = 4,000, d = 200 in 65 s, the machine
# shared).
fp_inlp_check_cost <- function(n, d, n_iter) {
  per <- 1.5e-9 * n * d^2 + 1e-8 * d^2
  fits <- max(0, floor(min(fp_time_limit(), 1e9) / per))
  fp_check_cost(n_iter * per, sprintf("method \"inlp\" (%d classifier fits on %d rows and %d columns)", n_iter, n, d),
                sprintf("lower `n_iter` (n_iter = %d fits), or use method = \"mean\" (closed form)", fits))
}
