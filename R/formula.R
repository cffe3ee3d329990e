# Formula interfaces of fair_css(), tune_fair_pca() and pareto_front() (fair_pca()'s is in
# fair_pca.R); all go through fp_formula_data() (R/newdata.R).

#' @rdname fair_css
#' @param formula For the formula interface: a one-sided formula naming the feature columns of
#'   `data` (`~ .` for all but the group); factors and transformations are expanded by
#'   [stats::model.matrix()] without intercept, and `predict()` rebuilds them from raw data
#'   (see [fair_pca()]).
#' @param data A data.frame holding the variables of `formula` (and `group`).
#' @param subset,na.action As in [stats::model.frame()].
#' @export
fair_css.formula <- function(formula, data = NULL, group, k, method, ..., subset, na.action) {
  call <- match.call()
  fp_check_formula_door(formula, missing(group))
  fd <- fp_formula_data(formula, data, substitute(group), parent.frame(),
                        subset = if (!missing(subset)) eval(substitute(subset), data, parent.frame()),
                        na.action = if (!missing(na.action)) na.action)
  res <- if (missing(method)) fair_css.default(fd$x, fd$group, k, ...) else
    fair_css.default(fd$x, fd$group, k, method = method, ...)
  fp_formula_attach(res, fd, call)
}

#' @rdname tune_fair_pca
#' @param formula,data,subset,na.action The formula interface, as in [fair_pca()]: a one-sided
#'   formula on the columns of the data.frame `data`, with `group` a column of `data`.
#' @export
tune_fair_pca.formula <- function(formula, data = NULL, group, k, method = "robust", grid = NULL, ..., subset,
                                  na.action) {
  fp_check_formula_door(formula, missing(group))
  fd <- fp_formula_data(formula, data, substitute(group), parent.frame(),
                        subset = if (!missing(subset)) eval(substitute(subset), data, parent.frame()),
                        na.action = if (!missing(na.action)) na.action)
  res <- tune_fair_pca.default(fd$x, fd$group, k, method, grid, ...)
  res$model <- fp_formula_attach(res$model, fd, res$model$call)
  res
}

#' @rdname pareto_front
#' @param formula,data,subset,na.action The formula interface, as in [fair_pca()]: a one-sided
#'   formula on the columns of the data.frame `data`, with `group` a column of `data`.
#' @export
pareto_front.formula <- function(formula, data = NULL, group, k, restarts = 10L, ..., subset, na.action) {
  fp_check_formula_door(formula, missing(group))
  fd <- fp_formula_data(formula, data, substitute(group), parent.frame(),
                        subset = if (!missing(subset)) eval(substitute(subset), data, parent.frame()),
                        na.action = if (!missing(na.action)) na.action)
  res <- pareto_front.default(fd$x, fd$group, k, restarts = restarts, ...)
  res$fits <- lapply(res$fits, function(f) fp_formula_attach(f, fd, f$call))
  res
}
