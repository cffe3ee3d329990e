#' Linear-classifier unfairness of a projection (Delta F_Lin)
#'
#' The fairness criterion of Olfat and Aswani (2019), used by Vu et al. (2022, Table 4): how well
#' the best linear support-vector machine can tell the two groups apart from the projected data.
#' The rows of `x` are mapped to the fit's scores ([predict.fair_pca()]: centred and scaled with
#' the fit's statistics, projected), the scores are standardised with their own means and
#' standard deviations, and a soft-margin linear SVM (hinge loss, free bias:
#' \eqn{\min \frac12 \|w\|^2 + C \sum_i \xi_i}{min ||w||^2 / 2 + C sum xi}) predicting the
#' group is fitted, its cost chosen among `cost` by `folds`-fold cross-validation
#' to **maximise** the held-out statistic. The statistic is the Kolmogorov-Smirnov distance
#' between the two groups' decision values, \eqn{\max_t |P(w^\top z > t | S = 1) - P(w^\top z > t | S = 0)|}
#' over all thresholds, i.e. the largest gap between true- and false-positive rates along the
#' ROC curve; it is evaluated on all rows with the model refitted at the chosen cost.
#' Lower is fairer (0: the groups' score distributions coincide for the best linear classifier;
#' 1: they are separable).
#'
#' The SVM is solved exactly as the quadratic program it is (the paper's code handed it to
#' MOSEK): with `solver = "ecos"` (the default) as a second-order cone program by the interior
#' point solver of \pkg{ECOSolveR}, in a few dozen sparse factorisations whatever the cost, so
#' the paper's largest cost (\eqn{10^4}) on tens of thousands of rows takes about a second.
#' `solver = "e1071"` uses libsvm's dual coordinate method (`e1071::svm()`), which at large costs
#' on overlapping groups reaches its iteration limit (minutes per fit, and not the optimum).
#' A solver that does not reach optimality warns (class `fairproj_convergence_warning`).
#'
#' @param object A `fair_pca` object.
#' @param x A numeric matrix or data.frame with the model's columns (for example test data).
#' @param group Group labels for the rows of `x`: exactly two groups, each of at least 2 rows.
#' @param cost Candidate SVM costs, finite and positive (the paper: \eqn{10^{-4}, 10^{-2}, 1, 10^2, 10^4}).
#' @param folds Number of cross-validation folds for the cost (the paper: 5), stratified by
#'   group: from 2 to the number of rows of the smallest group.
#' @param seed Optional integer seed for the fold assignment (the global random-number state is
#'   restored afterwards).
#' @param solver `"ecos"` (exact, needs the suggested package \pkg{ECOSolveR}) or `"e1071"`
#'   (needs \pkg{e1071}).
#' @return A number (the statistic) with attributes `cost` (the chosen cost) and `cv` (a
#'   data.frame of the mean held-out statistic per cost). A progress bar over the SVM fits is
#'   shown in interactive sessions (`options(fairproj.progress = FALSE)` turns it off).
#' @references Olfat, M. and Aswani, A. (2019). Convex formulations for fair principal component
#'   analysis. *AAAI 2019*.
#'
#'   Vu, H., Tran, T., Yue, M.-C. and Nguyen, V. A. (2022). Distributionally robust fair
#'   principal components via geodesic descents. *ICLR 2022*.
#' @seealso [fairness_gaps()], [group_errors()], [fair_pca()].
#' @examples
#' if (requireNamespace("ECOSolveR", quietly = TRUE) && requireNamespace("survival", quietly = TRUE)) {
#'   pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#'   fit <- fair_pca(pbc2[1:6], pbc2$sex, k = 2, scale. = TRUE)
#'   delta_f_lin(fit, pbc2[1:6], pbc2$sex, cost = c(0.01, 1), folds = 3, seed = 1)
#' }
#' @export
delta_f_lin <- function(object, x, group, cost = 10^c(-4, -2, 0, 2, 4), folds = 5, seed = NULL,
                        solver = c("ecos", "e1071")) {
  if (!missing(x)) fp_check_not_dataset(x, "x")
  fp_check_given(c("object", "x", "group"))
  if (!inherits(object, "fair_pca")) fp_abort("must be a fair_pca object", "object")
  solver <- fp_match_arg(solver, c("ecos", "e1071"), "solver")
  pkg <- if (solver == "ecos") "ECOSolveR" else "e1071"
  if (!requireNamespace(pkg, quietly = TRUE) || (solver == "ecos" && !requireNamespace("Matrix", quietly = TRUE))) {
    stop(errorCondition(sprintf("delta_f_lin(solver = \"%s\") needs the package '%s': install.packages(\"%s\")",
                                solver, pkg, pkg),
                        class = c("fairproj_missing_package", "fairproj_error")))
  }
  xm <- fp_newdata(object, x, "x")
  g <- fp_as_group(group, nrow(xm), "group", min_levels = 2L)
  if (nlevels(g) != 2L) fp_abort(sprintf("must have exactly 2 groups (has %d)", nlevels(g)), "group")
  folds <- fp_delta_check_cv(g, cost, folds, default = missing(folds))
  restore_seed <- fp_set_seed(seed)
  on.exit(restore_seed(), add = TRUE)
  z <- predict(object, xm)
  z <- sweep(z, 2L, colMeans(z))
  # each column divided by its largest deviation first, so that the squares of scores of any
  # magnitude (1e200) neither overflow nor underflow
  top <- apply(abs(z), 2L, max)
  top[!(top > 0)] <- 1
  z <- sweep(z, 2L, top, `/`)
  s <- sqrt(colSums(z^2) / max(nrow(z) - 1, 1))
  s[s <= 0] <- 1
  z <- sweep(z, 2L, s, `/`)
  fold <- integer(nrow(z))
  for (lev in levels(g)) {
    idx <- which(g == lev)
    idx <- idx[sample.int(length(idx))]
    fold[idx] <- rep_len(seq_len(folds), length(idx))
  }
  score <- function(train, test, C) {
    if (solver == "ecos") {
      wb <- fp_svm_linear_ecos(z[train, , drop = FALSE], g[train], C)
      dv <- drop(z[test, , drop = FALSE] %*% wb$w) + wb$b
    } else {
      fit <- e1071::svm(z[train, , drop = FALSE], g[train], type = "C-classification", kernel = "linear",
                        cost = C, scale = FALSE)
      dv <- attr(stats::predict(fit, z[test, , drop = FALSE], decision.values = TRUE), "decision.values")
    }
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

# The cross-validation arguments of delta_f_lin(): finite positive costs, and `folds` (returned as
# an integer) from 2 to the rows of the smallest group, which needs 2 rows for any (the folds are
# stratified: every fold holds a row of every group). `default`: `folds` is the default the user
# did not set, so a smallest group too small for it is the fault of the rows, named as `group`.
fp_delta_check_cv <- function(g, cost, folds, default = FALSE) {
  if (!is.numeric(cost) || length(cost) < 1L || anyNA(cost) || any(cost <= 0) || any(!is.finite(cost))) {
    fp_abort("must be finite positive numbers", "cost")
  }
  n <- tabulate(g)
  small <- which.min(n)
  if (min(n) < 2L) {
    fp_abort(sprintf("has a group ('%s') with %d row: cross-validating the cost needs at least 2 rows in each group",
                     levels(g)[small], min(n)), "group")
  }
  folds <- fp_check_count(folds, 2L, Inf, "folds", integer = FALSE)  # "a whole number >= 2", no bound
  if (folds > n[small]) {
    if (default) {
      fp_abort(sprintf("has a group ('%s') with %d rows, fewer than the %s cross-validation folds of the default: every fold needs a row of every group; give more rows of that group or set `folds` to at most %d",
                       levels(g)[small], n[small], format(folds), n[small]), "group")
    }
    fp_abort(sprintf("= %s is more than the %d rows of the smallest group ('%s'): the folds are stratified, so every fold needs a row of every group; use fewer folds (at most %d)",
                     format(folds), n[small], levels(g)[small], n[small]), "folds")
  }
  as.integer(folds)
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

# Soft-margin linear SVM, min ||w||^2 / 2 + C sum_i xi_i subject to y_i (z_i'w + b) >= 1 - xi_i,
# xi >= 0 (y = +1 for the second level of g), solved exactly as a second-order cone program by
# ECOS: variables (w, b, s, xi), objective s + C sum xi, the n margin and n sign constraints as
# linear cone rows and ||w||^2 <= 2 s as the cone (s + 1/2, w, s - 1/2). Returns list(w, b).
fp_svm_linear_ecos <- function(z, g, C) {
  n <- nrow(z); p <- ncol(z)
  y <- ifelse(g == levels(g)[2], 1, -1)
  iw <- seq_len(p); ib <- p + 1L; is <- p + 2L; ix <- p + 2L + seq_len(n)
  ri <- c(rep(seq_len(n), p), seq_len(n), seq_len(n), n + seq_len(n), 2L * n + 1L,
          2L * n + 1L + seq_len(p), 2L * n + p + 2L)
  ci <- c(rep(iw, each = n), rep(ib, n), ix, ix, is, iw, is)
  v <- c(-y * z, -y, rep(-1, 2L * n), -1, rep(-1, p), -1)
  G <- Matrix::sparseMatrix(i = ri, j = ci, x = v, dims = c(2L * n + p + 2L, p + 2L + n))
  h <- c(rep(-1, n), rep(0, n), 0.5, rep(0, p), -0.5)
  obj <- c(rep(0, p + 1L), 1, rep(C, n))
  r <- ECOSolveR::ECOS_csolve(c = obj, G = G, h = h, dims = list(l = 2L * n, q = p + 2L, e = 0L),
                              control = ECOSolveR::ecos.control(maxit = 200L))
  # exit flags 0 (optimal) and 10 (optimal to reduced accuracy)
  if (!r$retcodes[["exitFlag"]] %in% c(0L, 10L)) {
    fp_warn_convergence(sprintf("delta_f_lin: the SVM (cost %g) was not solved to optimality: %s", C, r$infostring))
  }
  list(w = r$x[iw], b = r$x[ib])
}
