# The recipes step of fair_css() (recipes is in Suggests; the methods are registered when it is
# loaded). It shares the helpers of R/step_fair_pca.R (fp_step_prep(), fp_step_columns(), ...).

#' Fair column subset selection as a recipes step
#'
#' `step_fair_css()` keeps the columns that [fair_css()] selects among the chosen numeric
#' columns and removes the others, the fairness computed with respect to a sensitive attribute
#' chosen by a selector. `prep()` makes the selection on the training set, `bake()` keeps the
#' same columns of new data (the same as [predict.fair_css()]), `tidy()` lists the selected
#' columns in selection order, and `num_comp` (the target rank `k`) and `method` are tunable.
#' The group column keeps its data but not the role `"predictor"`, as in [step_fair_pca()].
#'
#' @inheritParams step_fair_pca
#' @param role Not used: the step keeps columns of the data (with their roles) and makes none, so
#'   there is no new column to give a role. One string or `NA` (recipes' role of steps that make
#'   no columns, such as `step_rm()`).
#' @param num_comp The target rank `k` of [fair_css()] (as many columns are kept unless the
#'   method or `options` say otherwise, e.g. `method = "sampler"`): a whole number, 0 or more,
#'   capped at the number of columns, and `0` leaves the data unchanged, as in
#'   [recipes::step_pca()]; `Inf` is an error at `prep()` naming `num_comp`.
#' @param method The [fair_css()] method (default `"greedy"`).
#' @param options A named list of further arguments of [fair_css()], not the ones the step gives
#'   itself (`x`, `group`, `k`, which is `num_comp`, and `method`); without `scale.`, the units
#'   warning of [step_fair_pca()].
#' @param res The fitted [fair_css()] object (after `prep()`).
#' @param columns The names of the candidate columns (after `prep()`).
#' @return An updated recipe. `tidy()` of the step: a tibble with `terms` (the selected
#'   columns, in selection order), `order` and `id`.
#' @seealso [step_fair_pca()], [recipes::step_pca()], [fair_css()].
#' @examples
#' if (requireNamespace("recipes", quietly = TRUE) && requireNamespace("MASS", quietly = TRUE)) {
#'   library(recipes)
#'   bw <- within(MASS::birthwt, race <- factor(race, 1:3, c("white", "black", "other")))
#'   bw <- bw[c("low", "age", "lwt", "ptl", "ftv", "race")]
#'   bw$low <- factor(bw$low)
#'   rec <- recipe(low ~ ., data = bw) |>
#'     step_normalize(all_numeric_predictors()) |>
#'     step_fair_css(all_numeric_predictors(), group = race, num_comp = 2)
#'   prepped <- prep(rec, training = bw)
#'   head(bake(prepped, new_data = NULL))
#'   tidy(prepped, number = 2)
#' }
#' @export
step_fair_css <- function(recipe, ..., group, role = "predictor", trained = FALSE, num_comp = 2,
                          method = "greedy", options = list(), keep_group = TRUE, group_role = "sensitive",
                          res = NULL, columns = NULL, group_col = NULL, skip = FALSE, id = NULL) {
  fp_need_recipes()
  if (missing(group)) fp_abort("is missing: select the column of the sensitive attribute", "group")
  if (is.null(id)) id <- recipes::rand_id("fair_css")
  fp_step_check_args(list(role = role, keep_group = keep_group, group_role = group_role, options = options,
                          skip = skip, id = id), "step_fair_css")
  gq <- rlang::enquo(group)
  recipe <- fp_step_group_role(recipe, gq, group_role)
  recipes::add_step(recipe, step_fair_css_new(
    terms = rlang::enquos(...), group = list(gq), role = role, trained = trained,
    num_comp = num_comp, method = method, options = options, keep_group = keep_group,
    group_role = group_role, res = res, columns = columns, group_col = group_col, skip = skip, id = id))
}

step_fair_css_new <- function(terms, group, role, trained, num_comp, method, options, keep_group, group_role,
                              res, columns, group_col, skip, id) {
  recipes::step(subclass = "fair_css", terms = terms, group = group, role = role, trained = trained,
                num_comp = num_comp, method = method, options = options, keep_group = keep_group,
                group_role = group_role, res = res, columns = columns, group_col = group_col, skip = skip,
                id = id)
}

#' @exportS3Method recipes::prep
prep.step_fair_css <- function(x, training, info = NULL, ...) {
  p <- fp_step_prep(x, training, info, fair_css, x$options)
  step_fair_css_new(terms = x$terms, group = x$group, role = x$role, trained = TRUE, num_comp = p$k,
                    method = x$method, options = x$options, keep_group = x$keep_group,
                    group_role = x$group_role, res = p$fit, columns = p$columns, group_col = p$group,
                    skip = x$skip, id = x$id)
}

#' @exportS3Method recipes::bake
bake.step_fair_css <- function(object, new_data, ...) {
  drop <- if (!object$keep_group) object$group_col else character(0)
  if (is.null(object$res)) return(new_data[setdiff(names(new_data), drop)])  # num_comp = 0
  keep <- object$res$column_names
  miss <- setdiff(keep, names(new_data))
  if (length(miss)) fp_abort(sprintf("lacks column(s) selected by step_fair_css(): %s", fp_name_list(miss)), "new_data")
  fp_step_check_columns(new_data, keep, "new_data", allow_na = TRUE)  # the checks of predict.fair_css(), no copy
  drop <- c(drop, setdiff(object$columns, keep))
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
  out <- if (isTRUE(x$trained) && !is.null(x$res)) {
    data.frame(terms = x$res$column_names, order = seq_along(x$res$column_names), id = x$id,
               stringsAsFactors = FALSE)
  } else {
    terms <- if (isTRUE(x$trained)) x$columns else fp_step_term_labels(x$terms)
    data.frame(terms = as.character(terms), order = rep(NA_integer_, length(terms)), id = rep(x$id, length(terms)),
               stringsAsFactors = FALSE)
  }
  fp_tibble(out)
}

#' @rdname step_fair_css
#' @export
tunable.step_fair_css <- function(x, ...) {
  fp_step_tunable(x, "step_fair_css", setdiff(fairproj_methods("css"), "exhaustive"))
}

#' @rdname step_fair_css
#' @export
required_pkgs.step_fair_css <- function(x, ...) "fairproj"
