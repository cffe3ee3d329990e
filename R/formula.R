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
