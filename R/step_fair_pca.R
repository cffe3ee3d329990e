# A recipes step (recipes is in Suggests; the methods are registered when it is loaded).

#' Fair PCA as a recipes step
#'
#' `step_fair_pca()` creates a specification of a recipe step that replaces numeric columns by
#' their [fair_pca()] scores, the fairness computed with respect to a sensitive attribute (the
#' group) chosen by a selector. In the conventions of the recipes package: `prep()` fits the
#' projection on the training set, `bake()` applies it to new data (the same as
#' [predict.fair_pca()]), `tidy()` returns the loadings, and `num_comp` is tunable.
#'
#' @param recipe A recipe object; the step is added to it.
#' @param ... One or more selector functions choosing the numeric columns to project (for
#'   example `recipes::all_numeric_predictors()`). The group column is never one of them.
#' @param group A selector (usually a bare column name) choosing the one column that holds
#'   the sensitive attribute (a factor, character, integer or logical column).
#' @param role The role of the new score columns.
#' @param trained A logical, whether the step has been trained.
#' @param num_comp The number of components `k`.
#' @param method The [fair_pca()] method (default `"minmax"`).
#' @param options A list of further arguments of [fair_pca()] (e.g. `list(scale. = TRUE)`).
#' @param keep_group Keep the group column in the output (`TRUE`, default) or drop it.
#' @param keep_original_cols Keep the projected columns in the output as well.
#' @param prefix Prefix of the score column names.
#' @param res The fitted [fair_pca()] object (after `prep()`).
#' @param columns The names of the projected columns (after `prep()`).
#' @param group_col The name of the group column (after `prep()`).
#' @param skip A logical, whether to skip the step when baking new data.
#' @param id A character string that is unique to this step.
#' @return An updated recipe. `tidy()` of the step: a data.frame with `terms` (column),
#'   `value` (loading), `component` and `id`.
#' @examples
#' if (requireNamespace("recipes", quietly = TRUE)) {
#'   library(recipes)
#'   rec <- recipe(Species ~ ., data = iris) |>
#'     step_fair_pca(all_numeric_predictors(), group = Species, num_comp = 2)
#'   prepped <- prep(rec, training = iris)
#'   head(bake(prepped, new_data = NULL))
#'   tidy(prepped, number = 1)
#' }
#' @export
step_fair_pca <- function(recipe, ..., group, role = "predictor", trained = FALSE, num_comp = 2,
                          method = "minmax", options = list(), keep_group = TRUE,
                          keep_original_cols = FALSE, prefix = "FPC", res = NULL, columns = NULL,
                          group_col = NULL, skip = FALSE, id = NULL) {
  fp_need_recipes()
  if (missing(group)) fp_abort("is missing: select the column of the sensitive attribute", "group")
  if (is.null(id)) id <- recipes::rand_id("fair_pca")
  fp_check_flag(keep_group, "keep_group")
  fp_check_flag(keep_original_cols, "keep_original_cols")
  if (!is.list(options)) fp_abort("must be a list of arguments of fair_pca()", "options")
  recipes::add_step(recipe, step_fair_pca_new(
    terms = rlang::enquos(...), group = list(rlang::enquo(group)), role = role, trained = trained,
    num_comp = num_comp, method = method, options = options, keep_group = keep_group,
    keep_original_cols = keep_original_cols, prefix = prefix, res = res, columns = columns,
    group_col = group_col, skip = skip, id = id))
}

step_fair_pca_new <- function(terms, group, role, trained, num_comp, method, options, keep_group,
                              keep_original_cols, prefix, res, columns, group_col, skip, id) {
  recipes::step(subclass = "fair_pca", terms = terms, group = group, role = role, trained = trained,
                num_comp = num_comp, method = method, options = options, keep_group = keep_group,
                keep_original_cols = keep_original_cols, prefix = prefix, res = res, columns = columns,
                group_col = group_col, skip = skip, id = id)
}

fp_need_recipes <- function() {
  if (!requireNamespace("recipes", quietly = TRUE) || !requireNamespace("rlang", quietly = TRUE)) {
    stop(errorCondition("step_fair_pca() needs the package 'recipes': install.packages(\"recipes\")",
                        class = c("fairproj_missing_package", "fairproj_error")))
  }
}

#' @exportS3Method recipes::prep
prep.step_fair_pca <- function(x, training, info = NULL, ...) {
  gcol <- recipes::recipes_eval_select(x$group, training, info)
  if (length(gcol) != 1L) fp_abort(sprintf("must select exactly one column (selects %d)", length(gcol)), "group")
  cols <- setdiff(recipes::recipes_eval_select(x$terms, training, info), gcol)
  if (!length(cols)) fp_abort("select no columns besides the group", "...")
  xm <- fp_as_matrix(as.data.frame(training[cols]), "training data", min_cols = 1L)
  fit <- do.call(fair_pca, c(list(xm, training[[gcol]], k = x$num_comp, method = x$method), x$options,
                             list(retx = FALSE, keep_moments = FALSE)))
  step_fair_pca_new(terms = x$terms, group = x$group, role = x$role, trained = TRUE, num_comp = x$num_comp,
                    method = x$method, options = x$options, keep_group = x$keep_group,
                    keep_original_cols = x$keep_original_cols, prefix = x$prefix, res = fit,
                    columns = cols, group_col = gcol, skip = x$skip, id = x$id)
}

#' @exportS3Method recipes::bake
bake.step_fair_pca <- function(object, new_data, ...) {
  miss <- setdiff(object$columns, names(new_data))
  if (length(miss)) fp_abort(sprintf("lacks column(s) used by step_fair_pca(): %s", fp_name_list(miss)), "new_data")
  s <- predict(object$res, as.matrix(as.data.frame(new_data[object$columns])))
  nms <- paste0(object$prefix, formatC(seq_len(ncol(s)), width = nchar(ncol(s)), flag = "0"))
  drop <- if (object$keep_original_cols) character(0) else object$columns
  if (!object$keep_group) drop <- c(drop, object$group_col)
  new_data <- new_data[setdiff(names(new_data), drop)]
  for (j in seq_len(ncol(s))) new_data[[nms[j]]] <- unname(s[, j])
  new_data
}

#' @export
print.step_fair_pca <- function(x, width = max(20, options()$width - 35), ...) {
  title <- sprintf("Fair PCA (%s) extraction with ", x$method)
  recipes::print_step(x$columns, x$terms, x$trained, title, width)
  invisible(x)
}

#' @rdname step_fair_pca
#' @param x A `step_fair_pca` object.
#' @export
tidy.step_fair_pca <- function(x, ...) {
  if (isTRUE(x$trained)) {
    V <- x$res$rotation
    data.frame(terms = rep(rownames(V), ncol(V)), value = as.vector(V),
               component = rep(colnames(V), each = nrow(V)), id = x$id, stringsAsFactors = FALSE)
  } else {
    data.frame(terms = vapply(x$terms, function(q) rlang::as_label(q), character(1)),
               value = NA_real_, component = NA_character_, id = x$id, stringsAsFactors = FALSE)
  }
}

#' @rdname step_fair_pca
#' @importFrom generics tunable
#' @export
tunable.step_fair_pca <- function(x, ...) {
  out <- data.frame(name = "num_comp", source = "recipe", component = "step_fair_pca", component_id = x$id,
                    stringsAsFactors = FALSE)
  out$call_info <- list(list(pkg = "dials", fun = "num_comp", range = c(1L, 4L)))
  out <- out[c("name", "call_info", "source", "component", "component_id")]
  if (requireNamespace("tibble", quietly = TRUE)) out <- tibble::as_tibble(out)
  out
}

#' @rdname step_fair_pca
#' @importFrom generics required_pkgs
#' @export
required_pkgs.step_fair_pca <- function(x, ...) "fairproj"

#' Fair column subset selection as a recipes step
#'
#' `step_fair_css()` keeps the columns that [fair_css()] selects among the chosen numeric
#' columns and removes the others, the fairness computed with respect to a sensitive attribute
#' chosen by a selector. `prep()` makes the selection on the training set, `bake()` keeps the
#' same columns of new data (the same as [predict.fair_css()]), `tidy()` lists the selected
#' columns in selection order, and `num_comp` (the target rank `k`) is tunable.
#'
#' @inheritParams step_fair_pca
#' @param num_comp The target rank `k` of [fair_css()] (as many columns are kept unless the
#'   method or `options` say otherwise, e.g. `method = "sampler"`).
#' @param method The [fair_css()] method (default `"greedy"`).
#' @param options A list of further arguments of [fair_css()].
#' @param res The fitted [fair_css()] object (after `prep()`).
#' @param columns The names of the candidate columns (after `prep()`).
#' @return An updated recipe. `tidy()` of the step: a data.frame with `terms` (the selected
#'   columns, in selection order), `order` and `id`.
#' @examples
#' if (requireNamespace("recipes", quietly = TRUE)) {
#'   library(recipes)
#'   rec <- recipe(Species ~ ., data = iris) |>
#'     step_fair_css(all_numeric_predictors(), group = Species, num_comp = 2)
#'   prepped <- prep(rec, training = iris)
#'   head(bake(prepped, new_data = NULL))
#'   tidy(prepped, number = 1)
#' }
#' @export
step_fair_css <- function(recipe, ..., group, role = "predictor", trained = FALSE, num_comp = 2,
                          method = "greedy", options = list(), keep_group = TRUE, res = NULL,
                          columns = NULL, group_col = NULL, skip = FALSE, id = NULL) {
  fp_need_recipes()
  if (missing(group)) fp_abort("is missing: select the column of the sensitive attribute", "group")
  if (is.null(id)) id <- recipes::rand_id("fair_css")
  fp_check_flag(keep_group, "keep_group")
  if (!is.list(options)) fp_abort("must be a list of arguments of fair_css()", "options")
  recipes::add_step(recipe, step_fair_css_new(
    terms = rlang::enquos(...), group = list(rlang::enquo(group)), role = role, trained = trained,
    num_comp = num_comp, method = method, options = options, keep_group = keep_group, res = res,
    columns = columns, group_col = group_col, skip = skip, id = id))
}

step_fair_css_new <- function(terms, group, role, trained, num_comp, method, options, keep_group, res,
                              columns, group_col, skip, id) {
  recipes::step(subclass = "fair_css", terms = terms, group = group, role = role, trained = trained,
                num_comp = num_comp, method = method, options = options, keep_group = keep_group,
                res = res, columns = columns, group_col = group_col, skip = skip, id = id)
}

#' @exportS3Method recipes::prep
prep.step_fair_css <- function(x, training, info = NULL, ...) {
  gcol <- recipes::recipes_eval_select(x$group, training, info)
  if (length(gcol) != 1L) fp_abort(sprintf("must select exactly one column (selects %d)", length(gcol)), "group")
  cols <- setdiff(recipes::recipes_eval_select(x$terms, training, info), gcol)
  if (!length(cols)) fp_abort("select no columns besides the group", "...")
  xm <- fp_as_matrix(as.data.frame(training[cols]), "training data", min_cols = 1L)
  fit <- do.call(fair_css, c(list(xm, training[[gcol]], k = x$num_comp, method = x$method), x$options))
  step_fair_css_new(terms = x$terms, group = x$group, role = x$role, trained = TRUE, num_comp = x$num_comp,
                    method = x$method, options = x$options, keep_group = x$keep_group, res = fit,
                    columns = cols, group_col = gcol, skip = x$skip, id = x$id)
}

#' @exportS3Method recipes::bake
bake.step_fair_css <- function(object, new_data, ...) {
  keep <- object$res$column_names
  miss <- setdiff(keep, names(new_data))
  if (length(miss)) fp_abort(sprintf("lacks column(s) selected by step_fair_css(): %s", fp_name_list(miss)), "new_data")
  drop <- setdiff(object$columns, keep)
  if (!object$keep_group) drop <- c(drop, object$group_col)
  new_data[setdiff(names(new_data), drop)]
}

#' @export
print.step_fair_css <- function(x, width = max(20, options()$width - 35), ...) {
  title <- sprintf("Fair column subset selection (%s) among ", x$method)
  recipes::print_step(x$columns, x$terms, x$trained, title, width)
  invisible(x)
}

#' @rdname step_fair_css
#' @param x A `step_fair_css` object.
#' @export
tidy.step_fair_css <- function(x, ...) {
  if (isTRUE(x$trained)) {
    data.frame(terms = x$res$column_names, order = seq_along(x$res$column_names), id = x$id,
               stringsAsFactors = FALSE)
  } else {
    data.frame(terms = vapply(x$terms, function(q) rlang::as_label(q), character(1)), order = NA_integer_,
               id = x$id, stringsAsFactors = FALSE)
  }
}

#' @rdname step_fair_css
#' @export
tunable.step_fair_css <- function(x, ...) {
  out <- tunable.step_fair_pca(x)
  out$component <- "step_fair_css"
  out
}

#' @rdname step_fair_css
#' @export
required_pkgs.step_fair_css <- function(x, ...) "fairproj"
