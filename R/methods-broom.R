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
#' package's generics, used by broom and tidymodels, with broom's column names, and return
#' tibbles when the tibble package is installed (data.frames otherwise).
#'
#' **Rows of `augment()`.** `augment(fit, data = d)` returns one row for each row of `d`, in
#' its order, with the scores `predict(fit, d)` gives it: each row's scores are computed from its
#' own values, so any data frame class (data.frame, tibble, data.table), row order or subset
#' gets the right scores, and a row with a missing value in a column of the fit (a row that
#' `na.omit` or `na.exclude` left out) gets `NA` scores, never a neighbour's. Other rows the fit
#' did not use (a missing group, rows outside `subset`) are scored too: `d` may be any rows with
#' the fit's columns (other columns, such as the group, are kept and ignored). Without `data`,
#' the stored training scores (`fit$x`, which follow the fit's `na.action` as in
#' [stats::prcomp()]) with their row names. `newdata`, if given, is used in place of `data`, as
#' in broom.
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
#' @param data For `augment()`: a data.frame (or tibble, data.table, matrix) with the fit's
#'   columns, usually the training data; each row gets its scores ([predict.fair_pca()]) appended,
#'   `NA` for a row with a missing value. See "Rows of `augment()`".
#' @param newdata For `augment()`: new rows, scored as `data` is; used in place of `data` when
#'   both are given.
#' @param ... For `tidy(matrix = "plot")`: `type` and the plot type's arguments; otherwise
#'   unused.
#' @return A tibble (or data.frame). `glance()`: one row with `method`, `k`, `nobs`, `ncol`,
#'   `max_loss`, `loss_gap` (largest minus smallest marginal loss), the same two for standard
#'   PCA, `var_explained` (fraction of the total variance kept) and `converged`: the solver's
#'   own test for iterative methods (for `"robust"`, whether the descent was kept and its last
#'   iterate is within 1\% of the best visited; for `"rlace"`, whether the classifier reached
#'   the majority rate within `tol`, or all steps ran with `tol = NULL`; `TRUE` for `"inlp"`,
#'   which runs a fixed number of steps), `NA` for closed-form methods. `augment()`:
#'   `.rownames`, the data and columns `.fittedPC1`, `.fittedPC2`, ... (as broom's
#'   `augment.prcomp()`).
#' @seealso [broom::tidy.prcomp()], [predict.fair_pca()], [tidy.fair_css()],
#'   [plot.fair_pca()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' fit <- fair_pca(pbc2[1:6], pbc2$sex, k = 2, scale. = TRUE)
#' tidy(fit)
#' tidy(fit, "eigenvalues")
#' tidy(fit, "groups")
#' glance(fit)
#' head(augment(fit, data = pbc2))
#' # rows with missing values get NA scores; rows in any order keep their own
#' d <- pbc2
#' d$albumin[c(3, 7)] <- NA
#' fit2 <- fair_pca(~ ., data = d, group = sex, k = 2, scale. = TRUE)
#' augment(fit2, data = d[8:1, ])[, c(".rownames", "albumin", ".fittedPC1")]
#' @export
tidy.fair_pca <- function(x, matrix = "rotation", ...) {
  matrix <- fp_match_arg(matrix, c("rotation", "loadings", "v", "eigenvalues", "pcs", "d", "groups",
                                   "scores", "x", "u", "plot"), "matrix")
  if (matrix == "plot") return(fp_plot_tidy(x, ...))
  V <- x$rotation
  out <- if (matrix %in% c("rotation", "loadings", "v")) {
    data.frame(column = rep(rownames(V), ncol(V)), PC = rep(seq_len(ncol(V)), each = nrow(V)),
               value = as.vector(V), stringsAsFactors = FALSE)
  } else if (matrix %in% c("eigenvalues", "pcs", "d")) {
    v <- x$sdev^2 / x$totalvar
    data.frame(PC = seq_along(x$sdev), std.dev = x$sdev, percent = v, cumulative = cumsum(v))
  } else if (matrix == "groups") {
    summary(x)$groups
  } else {
    if (is.null(x[["x"]])) fp_abort("has no training scores: refit with retx = TRUE", "x")
    fp_scores_long(x[["x"]])
  }
  fp_tibble(out)
}

# A score matrix in long form (row, PC, value), rows named by row name or number.
fp_scores_long <- function(S) {
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
  fp_tibble(data.frame(method = x$method, k = x$k, nobs = as.integer(sum(x$groups$n)), ncol = nrow(x$rotation),
                       max_loss = max(gs$loss), loss_gap = diff(range(gs$loss)),
                       max_loss_standard = max(st$loss), loss_gap_standard = diff(range(st$loss)),
                       var_explained = sum(x$sdev[seq_len(x$k)]^2) / x$totalvar,
                       converged = fp_converged(x), stringsAsFactors = FALSE))
}

# Whether an iterative fit met its method's stopping test; NA for closed-form methods. Solvers
# that report `converged` are taken at their word; the others are judged by the test their
# documentation states.
fp_converged <- function(x) {
  if (!is.null(x$converged)) return(isTRUE(x$converged))
  switch(x$method,
    # robust: a fixed number of subgradient steps; the descent counts as converged when it was
    # kept (not the standard-PCA fallback) and its last iterate is within 1% of the best visited,
    # the test of its oscillation warning
    robust = identical(x$returned, "descent") &&
      isTRUE(x$objective <= x$best_visited + 0.01 * abs(x$best_visited) + 1e-12 * max(1, abs(x$objective))),
    # inlp: a fixed number of nullspace steps (or fewer, stopped at the majority rate): it
    # always completes
    inlp = TRUE,
    # rlace: stops when the refitted classifier is within `accuracy_tol` of the majority rate;
    # with accuracy_tol = NULL it plays all n_iter steps
    rlace = {
      tol <- x$args$accuracy_tol
      if ("accuracy_tol" %in% names(x$args) && is.null(tol)) TRUE else {
        if (is.null(tol)) tol <- formals(fit_pca_rlace)$accuracy_tol
        isTRUE(x$accuracy - x$majority <= tol)
      }
    },
    NA)
}

#' @rdname tidy.fair_pca
#' @export
augment.fair_pca <- function(x, data = NULL, newdata = NULL, ...) {
  fp_augment_scores(x, data, newdata)
}

# augment() of a fit with scores (fair_pca, fair_kpca). With rows (`newdata`, or `data`, which
# broom names the training data) each row gets the scores predict() gives it, computed from its
# own values: one output row per row of the data, in its order, whatever its class, order or
# subset, and `NA` scores for a row with a missing value (na.exclude semantics). Pairing rows
# with the stored training scores instead would need row identities that tibbles and
# data.tables do not carry. Without rows, the stored training scores with their row names.
fp_augment_scores <- function(x, data, newdata) {
  if (is.null(newdata) && is.null(data)) {
    s <- x[["x"]]
    if (is.null(s)) fp_abort("has no training scores: refit with retx = TRUE, or give the rows in `data`", "x")
    rn <- rownames(s)
    base <- data.frame(row.names = if (is.null(rn)) seq_len(nrow(s)) else rn)
  } else {
    arg <- if (is.null(newdata)) "data" else "newdata"
    rows <- if (is.null(newdata)) data else newdata
    if (!is.data.frame(rows) && !is.matrix(rows)) {
      fp_abort(sprintf("must be a data.frame or matrix with the columns of the fit, not an object of class '%s'",
                       class(rows)[1L]), arg)
    }
    # a plain data.frame (tibble, data.table: `[` means other things), a matrix as given (its
    # columns taken by position when it has no names, as predict() does)
    base <- as.data.frame(rows)
    s <- fp_augment_predict(x, if (is.matrix(rows)) rows else base, arg)
  }
  s <- as.data.frame(s)
  names(s) <- paste0(".fitted", names(s))
  rownames(s) <- NULL
  out <- cbind(data.frame(.rownames = rownames(base), stringsAsFactors = FALSE), base, s)
  rownames(out) <- NULL
  fp_tibble(out)
}

# predict(x, rows), its errors naming `data` when the rows came in `data`.
fp_augment_predict <- function(x, rows, arg) {
  s <- if (arg == "newdata") predict(x, rows) else withCallingHandlers(predict(x, rows), fairproj_error = function(e) {
    stop(errorCondition(sub("^`newdata`", "`data`", conditionMessage(e)), class = setdiff(class(e), c("error", "condition"))))
  })
  if (nrow(s) != nrow(rows)) stop("internal error: predict() returned a different number of rows")
  s
}

#' Tidy a fair kernel PCA fit (broom conventions)
#'
#' `tidy()` returns one of the fit's tables in long form; `glance()` one row summarising the
#' fit; `augment()` appends the scores to the data, as for [fair_pca()] fits
#' ([tidy.fair_pca()]), with the same column names, rows and row pairing (see "Rows of
#' `augment()`" there). Tibbles when the tibble package is installed (data.frames otherwise).
#'
#' @param x A `fair_kpca` object.
#' @param matrix What `tidy()` returns: `"eigenvalues"` (also `"pcs"`, `"d"`): one row per
#'   component with the standard deviation of its training scores and the fraction and
#'   cumulative fraction of the total variance in feature space (`PC`, `std.dev`, `percent`,
#'   `cumulative`; the total is `x$totalvar`, the trace of the centred kernel matrix);
#'   `"groups"`: one row per group and score column with the group's size, mean and standard
#'   deviation on the fitted rows (`group`, `n`, `PC`, `mean`, `std.dev`: the means agree
#'   across groups, which is the fairness constraint); `"scores"` (also `"x"`, `"u"`): the
#'   training scores in long form (`row`, `PC`, `value`); `"plot"`: the data of a plot of
#'   [plot.fair_kpca()] (give its `type` in `...`). `PC` numbers the columns of
#'   [predict()][predict.fair_kpca()] (with a trade-off, `k + 1` to `2k` are the scaled kernel
#'   PCA scores).
#' @param data,newdata For `augment()`: a data.frame (or tibble, data.table, matrix) with the
#'   fit's columns, usually the training data in `data`; each row gets its scores
#'   ([predict.fair_kpca()]) appended, `NA` for a row with a missing value. `newdata` is used in
#'   place of `data` when both are given.
#' @param ... For `tidy(matrix = "plot")`: `type` and the plot type's arguments; otherwise
#'   unused.
#' @return A tibble (or data.frame). `glance()`: one row with `kernel`, `gamma`, `k`, `nobs`
#'   (the fitted rows), `ngroups`, `constraint`, `var_explained` (the fraction of the total
#'   variance in feature space the k components hold) and `mean_gap` (the largest difference
#'   between two groups' means of a component's training scores; zero up to rounding when
#'   `group` is constrained). `augment()`: `.rownames`, the data and columns `.fittedKPC1`,
#'   `.fittedKPC2`, ... (`.fittedSTD1`, ... for a trade-off's kernel PCA scores).
#' @seealso [fair_kpca()], [tidy.fair_pca()], [plot.fair_kpca()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' fit <- fair_kpca(pbc2[1:6], pbc2$sex, k = 2, scale. = TRUE)
#' tidy(fit)
#' tidy(fit, "groups")
#' glance(fit)
#' head(augment(fit, data = pbc2))
#' @export
tidy.fair_kpca <- function(x, matrix = "eigenvalues", ...) {
  matrix <- fp_match_arg(matrix, c("eigenvalues", "pcs", "d", "groups", "scores", "x", "u", "plot"), "matrix")
  if (matrix == "plot") return(fp_plot_tidy(x, ...))
  out <- if (matrix %in% c("eigenvalues", "pcs", "d")) {
    v <- x$eigenvalues / x$totalvar
    data.frame(PC = seq_along(x$eigenvalues), std.dev = sqrt(x$eigenvalues / max(x$n_train - 1, 1)),
               percent = v, cumulative = cumsum(v))
  } else if (matrix == "groups") {
    fp_kpca_group_table(x)
  } else {
    fp_scores_long(x[["x"]])
  }
  fp_tibble(out)
}

# Per group and score column: size, mean and standard deviation of the training scores on the
# fitted rows (all rows, or those with a positive label under equal opportunity).
fp_kpca_group_table <- function(x) {
  S <- x[["x"]]
  S <- S[stats::complete.cases(S), , drop = FALSE]  # rows padded with NA by na.exclude
  rows <- if (is.null(x$fitted_rows)) seq_len(nrow(S)) else x$fitted_rows
  S <- S[rows, , drop = FALSE]
  g <- droplevels(x$train_group[rows])
  out <- lapply(seq_len(ncol(S)), function(j) {
    data.frame(group = levels(g), n = as.vector(table(g)), PC = j,
               mean = as.vector(tapply(S[, j], g, mean)),
               std.dev = as.vector(tapply(S[, j], g, function(v) if (length(v) > 1L) stats::sd(v) else NA_real_)),
               stringsAsFactors = FALSE)
  })
  do.call(rbind, out)
}

#' @rdname tidy.fair_kpca
#' @export
glance.fair_kpca <- function(x, ...) {
  gt <- fp_kpca_group_table(x)
  gt <- gt[gt$PC <= x$k, , drop = FALSE]
  gap <- max(vapply(split(gt$mean, gt$PC), function(m) diff(range(m)), numeric(1)))
  fp_tibble(data.frame(kernel = x$kernel$kernel, gamma = x$kernel$gamma, k = x$k, nobs = as.integer(x$n_train),
                       ngroups = nrow(x$groups), constraint = x$constraint,
                       var_explained = sum(x$eigenvalues) / x$totalvar, mean_gap = gap,
                       stringsAsFactors = FALSE))
}

#' @rdname tidy.fair_kpca
#' @export
augment.fair_kpca <- function(x, data = NULL, newdata = NULL, ...) {
  fp_augment_scores(x, data, newdata)
}

#' Glance at and augment a fair column subset selection (broom conventions)
#'
#' `glance()` returns one row summarising the selection; `augment()` appends to each row of the
#' data its squared reconstruction error from the selected columns, the quantity whose sum over
#' a group's rows is that group's squared error in [summary()][summary.fair_css()]. See
#' [tidy.fair_css()] for `tidy()`.
#'
#' @param x A `fair_css` object.
#' @param data,newdata For `augment()`: the data whose rows are augmented (the training data in
#'   `data`, other rows in `newdata`; each row's error needs only its own values, so rows may be
#'   in any order and any subset). For a formula fit, a raw data.frame.
#' @param group For `augment()`: the group of each row, a vector or the name of a column of
#'   the data; by default the fit's group column when the data have it (formula fits). Each
#'   row is then reconstructed by its group's least-squares map, as the loss measures; without
#'   groups, by the pooled one (see [reconstruct()][reconstruct.fair_css()]).
#' @param ... Unused.
#' @return A tibble (or data.frame). `glance()`: one row with `method`, `k`, `c` (columns
#'   selected), `ncol`, `nobs`, `ngroups`, `max_loss` (MinMaxLoss, the largest group ratio),
#'   `min_loss` and `loss_gap` (largest minus smallest ratio). `augment()`: `.rownames`, the
#'   data and `.sq_error`, the row's squared reconstruction error in the units of the fit
#'   (after its centring and scaling), `NA` for a row with a missing value.
#' @seealso [fair_css()], [tidy.fair_css()], [reconstruct()][reconstruct.fair_css()].
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(100 * 6), 100, 6) %*% matrix(rnorm(36), 6)
#' g <- rep(1:2, 50)
#' fit <- fair_css(x, g, k = 2)
#' glance(fit)
#' a <- augment(fit, data = as.data.frame(x), group = g)
#' sqrt(tapply(a$.sq_error, g, sum))  # the groups' errors
#' fit$group_stats$error
#' @export
glance.fair_css <- function(x, ...) {
  r <- x$group_stats$ratio
  fp_tibble(data.frame(method = x$method, k = x$k, c = x$c, ncol = length(x$colnames),
                       nobs = as.integer(sum(x$groups$n)), ngroups = nrow(x$groups), max_loss = max(r),
                       min_loss = min(r), loss_gap = diff(range(r)), stringsAsFactors = FALSE))
}

#' @rdname glance.fair_css
#' @export
augment.fair_css <- function(x, data = NULL, newdata = NULL, group = NULL, ...) {
  if (is.null(newdata) && is.null(data)) {
    fp_abort("is missing: a column selection keeps no rows; give the rows in `data` or `newdata`", "data")
  }
  arg <- if (is.null(newdata)) "data" else "newdata"
  base <- if (is.null(newdata)) data else newdata
  if (!is.data.frame(base) && !is.matrix(base)) fp_abort("must be a data.frame or matrix", arg)
  base <- as.data.frame(base)
  if (is.null(group) && !is.null(x$group_name) && x$group_name %in% names(base)) group <- x$group_name
  if (is.character(group) && length(group) == 1L && nrow(base) != 1L) {
    if (!group %in% names(base)) fp_abort(sprintf("names column '%s', which `%s` does not have", group, arg), "group")
    feats <- if (is.null(x$terms)) base[setdiff(names(base), group)] else base
    group <- base[[group]]
  } else {
    feats <- base
  }
  xm <- fp_css_newdata(x, feats, arg)
  rec <- reconstruct.fair_css(x, xm, group = group)
  sc <- if (isFALSE(x$scale)) rep(1, ncol(xm)) else x$scale
  err <- rowSums(sweep(xm - rec, 2L, sc, `/`)^2)
  out <- cbind(data.frame(.rownames = rownames(base), stringsAsFactors = FALSE), base,
               data.frame(.sq_error = unname(err)))
  rownames(out) <- NULL
  fp_tibble(out)
}
