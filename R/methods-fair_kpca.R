# Methods of fair_kpca() fits (class fair_kpca; R/kpca-mean.R holds the fit): plot, autoplot,
# print, predict, and broom's tidy, glance and augment.

#' Plot a fair kernel PCA fit
#'
#' `type = "scores"` draws the training scores of two components (`choices`) coloured by group;
#' `"scree"` each component's eigenvalue as a fraction of the total variance in feature space
#' (`x$totalvar`). `plot()` draws with base graphics, `autoplot()` with ggplot2, from the same
#' data (`tidy(x, matrix = "plot", type = )`), as for [plot.fair_pca()].
#'
#' @param x A `fair_kpca` object.
#' @param type `"scores"` (the default) or `"scree"` (the default for a fit with one score
#'   column).
#' @param ... `choices` (two component numbers) for `"scores"`; for `plot()`, `legend = FALSE`
#'   drops the legend.
#' @param main,xlab,ylab Replace the title and axis labels (also for `autoplot()`, through `...`).
#' @return `plot()`: invisibly, the data drawn. `autoplot()`: a `ggplot` object.
#' @seealso [fair_kpca()], [tidy.fair_kpca()], [plot.fair_pca()].
#' @family plots
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' fit <- fair_kpca(pbc2[1:6], pbc2$sex, k = 3, scale. = TRUE)
#' plot(fit)
#' plot(fit, "scree")
#' @export
plot.fair_kpca <- function(x, type = NULL, ..., main = NULL, xlab = NULL, ylab = NULL) {
  fp_plot_base(x, type, ..., main = main, xlab = xlab, ylab = ylab)
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
#' @param ... For `tidy(matrix = "plot")`: `type` and the plot type's arguments; unused by
#'   `glance()`; for `augment()` an argument other than `data` and `newdata` (such as `new_data`)
#'   is an error naming `...`.
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
    fp_kpca_importance(x)
  } else if (matrix == "groups") {
    fp_kpca_group_table(x)
  } else {
    fp_scores_long(x[["x"]])
  }
  fp_tibble(out)
}

# Per component: the standard deviation of its training scores and the fraction and cumulative
# fraction of the total variance in feature space (tidy() and summary()).
fp_kpca_importance <- function(x) {
  v <- x$eigenvalues / x$totalvar
  data.frame(PC = seq_along(x$eigenvalues), std.dev = sqrt(x$eigenvalues / max(x$n_train - 1, 1)),
             percent = v, cumulative = cumsum(v))
}

# The largest difference between two groups' means of one of the k fair components' training
# scores, from fp_kpca_group_table() (glance() and summary()).
fp_kpca_mean_gap <- function(gt, k) {
  gt <- gt[gt$PC <= k, , drop = FALSE]
  max(vapply(split(gt$mean, gt$PC), function(m) diff(range(m)), numeric(1)))
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
  gap <- fp_kpca_mean_gap(fp_kpca_group_table(x), x$k)
  fp_tibble(data.frame(kernel = x$kernel$kernel, gamma = x$kernel$gamma, k = x$k, nobs = as.integer(x$n_train),
                       ngroups = nrow(x$groups), constraint = x$constraint,
                       var_explained = sum(x$eigenvalues) / x$totalvar, mean_gap = gap,
                       stringsAsFactors = FALSE))
}

#' @rdname tidy.fair_kpca
#' @export
augment.fair_kpca <- function(x, data = NULL, newdata = NULL, ...) {
  fp_check_no_dots(...names(), ...length(), "augment() of a fair_kpca fit", c("x", "data", "newdata"))
  fp_augment_scores(x, data, newdata)
}

#' Embed new rows with a fair kernel PCA fit
#'
#' @param object A `fair_kpca` object.
#' @param newdata A numeric matrix or data.frame with the training columns (matched by name when
#'   named); for a formula fit, a raw data.frame. A row with a missing value gives a row of `NA`.
#'   If missing, the training scores.
#' @param ... Unused by `nobs()`, `fitted()`, `residuals()` and `coef()`; for `predict()` an
#'   argument given here (a misspelt `newdata`, such as `new_data`) is an error naming `...`.
#' @return An n x k matrix of scores (n x 2k with the trade-off).
#' @seealso [fair_kpca()], [predict.fair_pca()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' x <- as.matrix(pbc2[1:6])
#' fit <- fair_kpca(x[1:300, ], pbc2$sex[1:300], k = 2, scale. = TRUE)
#' predict(fit, x[301:305, ])
#' @export
predict.fair_kpca <- function(object, newdata, ...) {
  fp_check_no_dots(...names(), ...length(), "predict() of a fair_kpca fit", c("object", "newdata"))
  if (missing(newdata)) {
    if (!is.null(object$x)) return(object$x)
    fp_abort("is missing", "newdata")
  }
  nm <- object$colnames
  if (!is.null(object$terms) && is.data.frame(newdata)) {
    newdata <- fp_rebuild_model_matrix(object, newdata)  # a formula fit: its columns from raw data
  }
  if (is.data.frame(newdata)) newdata <- fp_flatten_df(newdata)
  # by name when the fit's columns had names (R/newdata.R's rule), by position otherwise
  given <- fp_fit_colnames(object)$given
  if (given && is.data.frame(newdata) && all(nm %in% names(newdata))) newdata <- newdata[nm]
  # no rows: no scores; no column names: columns by position (the names V1, ... are not set)
  xn <- fp_as_matrix(newdata, "newdata", min_cols = 1L, allow_nonfinite = TRUE, min_rows = 0L, set_names = FALSE)
  if (fp_any_infinite(xn)) fp_abort(sprintf("contains %d infinite value(s)", sum(is.infinite(xn))), "newdata")
  cn <- colnames(xn)
  if (!is.null(cn) && !all(cn == "", na.rm = TRUE) && (anyDuplicated(cn) || anyNA(cn) || any(cn == ""))) {
    colnames(xn) <- fp_colnames(xn)  # duplicated or empty names made unique as the fit's were
  }
  if (given && !is.null(colnames(newdata)) && all(nm %in% colnames(xn))) {
    xn <- xn[, nm, drop = FALSE]
  }
  newnm <- colnames(xn)
  if (given && !is.null(newnm) && !all(nm %in% newnm)) {
    # both sides have names that disagree: taking columns by position could pair the wrong ones
    fp_abort(sprintf("does not have the columns the model was fitted on: missing %s",
                     fp_name_list(setdiff(nm, newnm))), "newdata", class = "fairproj_newdata_error")
  }
  if (ncol(xn) != length(nm)) fp_abort(sprintf("has %d columns but the model was fitted on %d", ncol(xn), length(nm)), "newdata")
  fp_kpca_scores(object, xn)
}

#' @rdname predict.fair_kpca
#' @return `nobs()`: the number of training rows. `fitted()`, `residuals()` and `coef()` are
#'   errors: kernel components live in the kernel's feature space, so a fit has no reconstruction
#'   of the input columns and no loadings on them; `predict()` gives the scores.
#' @importFrom stats fitted residuals coef nobs
#' @export
nobs.fair_kpca <- function(object, ...) as.integer(object$n_train)

#' @rdname predict.fair_kpca
#' @export
fitted.fair_kpca <- function(object, ...) fp_kpca_no_input_space("fitted values")

#' @rdname predict.fair_kpca
#' @export
residuals.fair_kpca <- function(object, ...) fp_kpca_no_input_space("residuals")

#' @rdname predict.fair_kpca
#' @export
coef.fair_kpca <- function(object, ...) fp_kpca_no_input_space("coefficients on the input columns")

fp_kpca_no_input_space <- function(what) {
  fp_abort(sprintf("is a kernel PCA fit, which has no %s: its components live in the kernel's feature space; predict() gives the scores",
                   what), "object")
}

#' @export
print.fair_kpca <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
  kp <- x$kernel
  cat(sprintf("Fair kernel PCA (%s kernel, gamma = %s%s): %d components, %d training rows, %d groups\n",
              kp$kernel, format(kp$gamma, digits = digits),
              if (kp$kernel == "polynomial") sprintf(", degree = %g, coef0 = %g", kp$degree, kp$coef0)
              else if (kp$kernel == "sigmoid") sprintf(", coef0 = %g", kp$coef0) else "",
              x$k, x$n_train, nrow(x$groups)))
  if (identical(x$constraint, "opportunity")) cat("Fitted on the rows with a positive label (equal opportunity).\n")
  cat("\nEigenvalues (variance in feature space x n):\n")
  print(x$eigenvalues, digits = digits)
  if (!is.null(x$tradeoff)) {
    cat(sprintf("\nTrade-off representation: [fair scores, %g^%g x kernel PCA scores] (%d columns)\n",
                x$tradeoff, x$tradeoff_power, 2L * x$k))
  }
  invisible(x)
}

#' Summarise a fair kernel PCA fit
#'
#' The share of the variance in feature space that each component holds, and each group's mean
#' and spread of the training scores: equal means across groups are the fairness constraint.
#'
#' @param object A `fair_kpca` object.
#' @param x A `summary.fair_kpca` object.
#' @param digits Significant digits to print.
#' @param ... Unused.
#' @return An object of class `summary.fair_kpca`: `kernel` (its settings), `k`, `n_train`,
#'   `constraint`, `importance` (per component: `PC`, `std.dev`, `percent`, `cumulative`, as
#'   `tidy(object)`), `groups` (per group and score column: `group`, `n`, `PC`, `mean`,
#'   `std.dev`, as `tidy(object, "groups")`), `mean_gap` (as in [glance.fair_kpca()]) and
#'   `call`.
#' @seealso [fair_kpca()], [tidy.fair_kpca()], [plot.fair_kpca()].
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(80 * 4), 80, 4)
#' summary(fair_kpca(x, rep(1:2, 40), k = 2))
#' @export
summary.fair_kpca <- function(object, ...) {
  gt <- fp_kpca_group_table(object)
  structure(list(kernel = object$kernel, k = object$k, n_train = object$n_train,
                 constraint = object$constraint, importance = fp_kpca_importance(object),
                 groups = gt, mean_gap = fp_kpca_mean_gap(gt, object$k), call = object$call),
            class = "summary.fair_kpca")
}

#' @rdname summary.fair_kpca
#' @export
print.summary.fair_kpca <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
  cat("Call:\n")
  print(x$call)
  cat(sprintf("\nFair kernel PCA (%s kernel, gamma = %s, constraint \"%s\"): k = %d, %d training rows\n",
              x$kernel$kernel, format(x$kernel$gamma, digits = digits), x$constraint, x$k, x$n_train))
  cat("\nComponents: standard deviation of the scores, fraction of the variance in feature space\n")
  print(x$importance, digits = digits, row.names = FALSE)
  cat("\nPer group and component: mean and standard deviation of the training scores\n")
  print(x$groups, digits = digits, row.names = FALSE)
  cat(sprintf("\nLargest gap between two groups' means: %s\n", format(x$mean_gap, digits = digits)))
  invisible(x)
}

#' @rdname plot.fair_kpca
#' @param object A `fair_kpca` object (for `autoplot()`).
#' @method autoplot fair_kpca
#' @exportS3Method ggplot2::autoplot fair_kpca
autoplot.fair_kpca <- function(object, type = NULL, ...) {
  fp_plot_gg(object, type, ...)  # `...`: the type's arguments and main, xlab, ylab
}

#' @exportS3Method fp_plot_data fair_kpca
fp_plot_data.fair_kpca <- function(x, type = NULL, ..., choices = 1:2) {
  if (is.null(type) && NCOL(x[["x"]]) < 2L) type <- "scree"  # one score column: no score plot
  type <- fp_plot_type(x, type)
  # `choices` is the score plot's: an error for the scree plot, as any argument it does not take
  fp_plot_no_dots(c(list(...), if (type != "scores" && !missing(choices)) list(choices = NULL)), type)
  switch(type,
         scores = fp_plot_scores(x, choices, label = "fair kernel PCA"),
         scree = {
           tab <- data.frame(k = seq_along(x$eigenvalues), group = "all rows", fit = "fair kernel PCA",
                             value = x$eigenvalues / x$totalvar, stringsAsFactors = FALSE)
           spec <- fp_spec("k", "value", list(fp_layer("col", fill = "grey80", colour = "grey35")),
                           title = "Scree plot",
                           subtitle = sprintf("%s kernel: each component's fraction of the variance in feature space",
                                              x$kernel$kernel),
                           xlab = "component", ylab = "fraction of the variance", x_integer = TRUE, y_zero = TRUE,
                           legend = FALSE)
           fp_plot_frame(tab, spec, "scree")
         })
}
