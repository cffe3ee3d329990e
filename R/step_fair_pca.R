# The recipes step of fair_pca() (recipes is in Suggests; the methods are registered when it is
# loaded) and the helpers it shares with step_fair_css() (R/step_fair_css.R).

#' Fair PCA as a recipes step
#'
#' `step_fair_pca()` creates a specification of a recipe step that replaces numeric columns by
#' their [fair_pca()] scores, the fairness computed with respect to a sensitive attribute (the
#' group) chosen by a selector. In the conventions of the recipes package: `prep()` fits the
#' projection on the training set, `bake()` applies it to new data (the same as
#' [predict.fair_pca()]), `tidy()` returns the loadings, and `num_comp` and `method` are
#' tunable.
#'
#' **The sensitive attribute is not a predictor.** A model fitted after the recipe would
#' otherwise use the raw attribute beside the fair components and undo them. The step keeps
#' the group column's data but gives it the role `group_role` (`"sensitive"`) when its role is
#' `"predictor"` (as after `recipe(y ~ ., data)`), as [recipes::update_role()] would: models and
#' workflows then leave it out, and `summary(prep(rec))` shows the role. A group column made by
#' an earlier step cannot have its role changed: `prep()` then stops unless it has a role other
#' than `"predictor"` or `keep_group = FALSE` drops it. Like every column with a role other than
#' `"predictor"` or `"outcome"`, it is needed by `bake()` on new data.
#'
#' **`num_comp`** behaves as in [recipes::step_pca()]: a whole number, 0 or more, checked at
#' `prep()` (so that it can be tuned); more components than columns are capped at the number of
#' columns, and `num_comp = 0` leaves the data unchanged. `Inf` is not a number of components:
#' `prep()` stops with an error naming `num_comp` (give the number of columns to keep them all).
#' A min-max fit whose reconstruction is a linear map of rank above `k` (Samadi et al.'s rounding,
#' see [minmax]) gives as many score columns as that rank (with the exact solver at most
#' `k + 1` for two to five groups), the map's scores of [predict.fair_pca()]: the reconstruction
#' needs them all.
#'
#' @param recipe A recipe object; the step is added to it.
#' @param ... One or more selector functions choosing the numeric columns to project (for
#'   example `recipes::all_numeric_predictors()`). The group column is never one of them.
#' @param group A selector (usually a bare column name) choosing the one column that holds
#'   the sensitive attribute (a factor, character, integer or logical column).
#' @param role The role of the new score columns.
#' @param trained A logical, whether the step has been trained.
#' @param num_comp The number of components `k` (see Details).
#' @param method The [fair_pca()] method (default `"minmax"`).
#' @param options A named list of further arguments of [fair_pca()] (e.g. `list(scale. = TRUE)`;
#'   `list(keep_moments = TRUE)` keeps the moments, for `plot()` of the fit in `res`), not the
#'   ones the step gives itself (`x`, `group`, `k`, which is `num_comp`, and `method`). Without
#'   `scale.` in `options`, columns in different units get one `fairproj_units_warning` at
#'   `prep()` (see "Columns in different units" in [fair_pca()]); `recipes::step_normalize()`
#'   before the step, or `scale.` in `options`, is the choice that silences it.
#' @param keep_group Keep the group column in the output (`TRUE`, default) or drop it.
#' @param group_role The role the group column gets when it is a predictor (default
#'   `"sensitive"`); `"predictor"` leaves it a predictor, which lets a model use the attribute.
#'   The role is given when the step is added to the recipe: a later `update()` of the step does
#'   not change it (use [recipes::update_role()]).
#' @param keep_original_cols Keep the projected columns in the output as well.
#' @param prefix Prefix of the score column names (one non-empty string). Score columns that
#'   would replace columns of the data are an error naming `prefix`.
#' @param res The fitted [fair_pca()] object (after `prep()`).
#' @param columns The names of the projected columns (after `prep()`).
#' @param group_col The name of the group column (after `prep()`).
#' @param skip `TRUE` or `FALSE`: whether to skip the step when baking new data.
#' @param id One string that is unique to this step (`NULL`: a random one, as
#'   [recipes::rand_id()] makes).
#' @return An updated recipe. `tidy()` of the step: a tibble with `terms` (column), `value`
#'   (loading), `component` (the names of the baked score columns) and `id`.
#' @seealso [recipes::step_pca()] for ordinary PCA, [step_fair_css()], [fair_pca()],
#'   `vignette("tidymodels", package = "fairproj")` for a workflow with a model.
#' @examples
#' if (requireNamespace("recipes", quietly = TRUE) && requireNamespace("survival", quietly = TRUE)) {
#'   library(recipes)
#'   d <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex",
#'                               "status")])
#'   d$died <- factor(d$status == 2)
#'   d$status <- NULL
#'   rec <- recipe(died ~ ., data = d) |>
#'     step_normalize(all_numeric_predictors()) |>
#'     step_fair_pca(all_numeric_predictors(), group = sex, num_comp = 2)
#'   prepped <- prep(rec, training = d)
#'   head(bake(prepped, new_data = NULL))
#'   summary(prepped)  # `sex` is kept, with the role "sensitive"
#'   tidy(prepped, number = 2)
#' }
#' @export
step_fair_pca <- function(recipe, ..., group, role = "predictor", trained = FALSE, num_comp = 2,
                          method = "minmax", options = list(), keep_group = TRUE, group_role = "sensitive",
                          keep_original_cols = FALSE, prefix = "FPC", res = NULL, columns = NULL,
                          group_col = NULL, skip = FALSE, id = NULL) {
  fp_need_recipes()
  if (missing(group)) fp_abort("is missing: select the column of the sensitive attribute", "group")
  if (is.null(id)) id <- recipes::rand_id("fair_pca")
  fp_step_check_args(list(role = role, keep_group = keep_group, keep_original_cols = keep_original_cols,
                          group_role = group_role, prefix = prefix, options = options, skip = skip, id = id), "step_fair_pca")
  gq <- rlang::enquo(group)
  recipe <- fp_step_group_role(recipe, gq, group_role)
  recipes::add_step(recipe, step_fair_pca_new(
    terms = rlang::enquos(...), group = list(gq), role = role, trained = trained,
    num_comp = num_comp, method = method, options = options, keep_group = keep_group,
    group_role = group_role, keep_original_cols = keep_original_cols, prefix = prefix, res = res,
    columns = columns, group_col = group_col, skip = skip, id = id))
}

step_fair_pca_new <- function(terms, group, role, trained, num_comp, method, options, keep_group, group_role,
                              keep_original_cols, prefix, res, columns, group_col, skip, id) {
  recipes::step(subclass = "fair_pca", terms = terms, group = group, role = role, trained = trained,
                num_comp = num_comp, method = method, options = options, keep_group = keep_group,
                group_role = group_role, keep_original_cols = keep_original_cols, prefix = prefix, res = res,
                columns = columns, group_col = group_col, skip = skip, id = id)
}

fp_need_recipes <- function() {
  if (!requireNamespace("recipes", quietly = TRUE) || !requireNamespace("rlang", quietly = TRUE)) {
    stop(errorCondition("step_fair_pca() needs the package 'recipes': install.packages(\"recipes\")",
                        class = c("fairproj_missing_package", "fairproj_error")))
  }
}

# `options` of a step: a list of named arguments of `fit` (fair_pca or fair_css), none of them one
# that the step gives itself (the data `x`, `group`, `k` from num_comp, `method`) or an argument
# of the step function `step`, which would reach `fit` twice or not at all.
fp_step_check_options <- function(options, step, fit) {
  if (!is.list(options) || (length(options) && (is.null(names(options)) || any(!nzchar(names(options)))))) {
    fp_abort(sprintf("must be a named list of arguments of %s()", fit), "options")
  }
  own <- c(x = "the columns the step selects", group = "`group`", k = "`num_comp`", method = "`method`")
  step_args <- setdiff(names(formals(get(step))), c("...", "options", names(own)))
  own[step_args] <- sprintf("`%s`", step_args)
  dup <- intersect(names(options), names(own))
  if (length(dup)) {
    fp_abort(sprintf("has argument(s) that %s() sets itself: %s; give them to %s(), not in `options`", step,
                     paste(sprintf("%s (from %s)", dup, own[dup]), collapse = ", "), step), "options")
  }
  invisible(options)
}

# The arguments of a step that are not selectors (`x`: the step, or a list of them), checked when
# the step is made and again at prep(), after any update(): the flags, the roles of the new
# columns and of the group (one non-empty string each, as recipes' steps take `role`), the
# prefix of the score columns, `options`, and `skip` and `id` as recipes' own steps take them
# (TRUE or FALSE; one string). num_comp is checked at prep() only (fp_step_num_comp()), where a
# tuning placeholder has been finalised.
fp_step_check_args <- function(x, step) {
  fp_check_flag(x$keep_group, "keep_group")
  if ("keep_original_cols" %in% names(x)) fp_check_flag(x$keep_original_cols, "keep_original_cols")
  fp_check_flag(x$skip, "skip")
  if (!(is.character(x$id) && length(x$id) == 1L && !is.na(x$id))) {
    fp_abort("must be one string that names the step (NULL gives a random one)", "id")
  }
  # step_fair_css() makes no columns: recipes' NA role of such steps (step_rm(), step_filter()) too
  if ("role" %in% names(x)) fp_step_check_role(x$role, "role", "predictor", na_ok = step == "step_fair_css")
  fp_step_check_role(x$group_role)
  if ("prefix" %in% names(x) && !(is.character(x$prefix) && length(x$prefix) == 1L && !is.na(x$prefix) &&
                                   nzchar(x$prefix))) {
    fp_abort("must be one non-empty string (the score columns are named prefix1, prefix2, ...)", "prefix")
  }
  fp_step_check_options(x$options, step, sub("^step_", "", step))
}

fp_step_check_role <- function(role, arg = "group_role", example = "sensitive", na_ok = FALSE) {
  if (na_ok && length(role) == 1L && (is.logical(role) || is.character(role)) && is.na(role)) return(invisible())
  if (!is.character(role) || length(role) != 1L || is.na(role) || !nzchar(role)) {
    fp_abort(sprintf("must be one string, a recipes role such as \"%s\"%s", example,
                     if (na_ok) ", or NA (the step makes no columns)" else ""), arg)
  }
}

# Give the group column the role `group_role` when it is an original column with the role
# "predictor" (as recipes::update_role(), which this calls), so that no model uses the sensitive
# attribute. Columns made by earlier steps are checked at prep() instead.
fp_step_group_role <- function(recipe, group, group_role) {
  if (identical(group_role, "predictor")) return(recipe)
  info <- recipe$var_info
  gcol <- tryCatch(recipes::recipes_eval_select(list(group), recipe$template, info),
                   error = function(e) character(0))
  if (length(gcol) != 1L || !any(info$variable == gcol & info$role %in% "predictor")) return(recipe)
  recipes::update_role(recipe, !!unname(gcol), new_role = group_role, old_role = "predictor")
}

# The group column and the projected columns of a step at prep(); the group must not stay a
# predictor unless the user asked for that (group_role = "predictor") or it is dropped.
fp_step_columns <- function(x, training, info) {
  gcol <- unname(recipes::recipes_eval_select(x$group, training, info))
  if (length(gcol) != 1L) fp_abort(sprintf("must select exactly one column (selects %d)", length(gcol)), "group")
  if (isTRUE(x$keep_group) && !identical(x$group_role, "predictor") &&
      any(info$variable == gcol & info$role %in% "predictor")) {
    fp_abort(sprintf("selects '%s', which has the role \"predictor\": a model would use the sensitive attribute beside the fair columns; give it another role first (recipes::update_role(rec, %s, new_role = \"sensitive\")) or drop it with keep_group = FALSE",
                     gcol, gcol), "group")
  }
  cols <- setdiff(unname(recipes::recipes_eval_select(x$terms, training, info)), gcol)
  if (!length(cols)) fp_abort("select no columns besides the group", "...")
  list(group = gcol, columns = cols)
}

# num_comp as recipes::step_pca(): a finite whole number >= 0 (its current check refuses Inf too),
# capped at the number of columns.
fp_step_num_comp <- function(num_comp, ncols) {
  if (!is.numeric(num_comp) || length(num_comp) != 1L || is.na(num_comp) || !is.finite(num_comp) || num_comp < 0 ||
      num_comp != round(num_comp)) {
    fp_abort(sprintf(paste("must be a finite whole number, 0 or more (tuning placeholders must be finalised first);",
                           "a number above the %d selected columns keeps them all"), ncols), "num_comp")
  }
  as.integer(min(num_comp, ncols))
}

# Call a fitting function for a step, naming the step's arguments in errors: `k` is `num_comp`,
# the fit's `x` is the columns the step selects (`...`), its `...` the step's `options`. The
# condition keeps its class and fields.
fp_step_fit <- function(fun, args) {
  tryCatch(do.call(fun, args), fairproj_input_error = function(e) {
    msg <- conditionMessage(e)
    msg <- sub("^`k`", "`num_comp`", msg)
    msg <- sub("^`\\.\\.\\.`", "`options`", msg)
    msg <- sub("^`x`", "`...` (the columns the step selects)", msg)
    e$message <- msg
    e$call <- NULL
    stop(e)
  })
}

# The selected columns of `data` (prep()'s training data, `arg` "...", or bake()'s new_data) as
# a numeric matrix: a column that is not numeric, or holds an infinite value (or, at prep(), a
# missing one), is an error naming it and the step's argument.
fp_step_matrix <- function(data, cols, arg, allow_na) {
  df <- fp_step_check_columns(data, cols, arg, allow_na)
  fp_as_matrix(df, arg, min_cols = 1L, allow_nonfinite = allow_na, min_rows = 0L)
}

# The checks of fp_step_matrix() column by column, without the matrix (bake() of
# step_fair_css() passes the columns through): returns the columns as a data frame, which
# shares them with `data` (no copy).
fp_step_check_columns <- function(data, cols, arg, allow_na) {
  df <- as.data.frame(data[cols])
  bad <- cols[!vapply(df, function(v) is.numeric(v) || is.logical(v), logical(1))]
  if (length(bad)) {
    fp_abort(sprintf("%s non-numeric column(s) %s (%s): the step needs numbers; convert them or leave them out",
                     if (arg == "...") "selects" else "has", fp_name_list(sprintf("'%s'", bad)),
                     class(df[[bad[1L]]])[1L]), arg)
  }
  for (cl in cols) {
    v <- df[[cl]]
    if (any(is.infinite(v))) fp_abort(sprintf("has %d infinite value(s) in column '%s'", sum(is.infinite(v)), cl), arg)
    if (!allow_na && anyNA(v)) {
      fp_abort(sprintf("selects column '%s', which has %d missing value(s): impute them first (e.g. recipes::step_impute_median())",
                       cl, sum(is.na(v))), arg)
    }
  }
  df
}

# Names of the baked score columns: prefix and zero-padded number (FPC1 ... or FPC01 ...).
fp_step_names <- function(prefix, r) paste0(prefix, formatC(seq_len(r), width = nchar(r), flag = "0"))

#' @exportS3Method recipes::prep
prep.step_fair_pca <- function(x, training, info = NULL, ...) {
  # the step keeps no scores and, unless `options` asks for them, no moments
  p <- fp_step_prep(x, training, info, fair_pca,
                    utils::modifyList(list(retx = FALSE, keep_moments = FALSE), x$options))
  step_fair_pca_new(terms = x$terms, group = x$group, role = x$role, trained = TRUE, num_comp = p$k,
                    method = x$method, options = x$options, keep_group = x$keep_group,
                    group_role = x$group_role, keep_original_cols = x$keep_original_cols, prefix = x$prefix,
                    res = p$fit, columns = p$columns, group_col = p$group, skip = x$skip, id = x$id)
}

# The training part of a fairness step's prep(): its columns, num_comp as step_pca's, and the fit
# of `fun` (fair_pca or fair_css) with `opts`, NULL when num_comp is 0. Without `scale.` in
# `options`, columns in different units get the units warning of fair_pca(), in a recipe's words
# (the fit then runs with scale. = FALSE, its default, so that it does not warn again).
fp_step_prep <- function(x, training, info, fun, opts) {
  fp_step_check_args(x, class(x)[1])  # also after update()
  sel <- fp_step_columns(x, training, info)
  k <- fp_step_num_comp(x$num_comp, length(sel$columns))
  fit <- NULL
  if (k > 0L) {
    xm <- fp_step_matrix(training, sel$columns, "...", allow_na = FALSE)
    if (!"scale." %in% names(opts)) {
      fp_warn_units(fp_log2_colvar_rows(xm), colnames(xm),
                    fix = paste("normalise them first (recipes::step_normalize()) or give options = list(scale. = TRUE)",
                                "if the columns are in different units, or options = list(scale. = FALSE) to keep the",
                                "units (and this warning off)"))
      opts$scale. <- FALSE
    }
    fit <- fp_step_fit(fun, c(list(xm, training[[sel$group]], k = k, method = x$method), opts))
  }
  list(group = sel$group, columns = sel$columns, k = k, fit = fit)
}

#' @exportS3Method recipes::bake
bake.step_fair_pca <- function(object, new_data, ...) {
  drop <- if (!object$keep_group) object$group_col else character(0)
  if (is.null(object$res)) return(new_data[setdiff(names(new_data), drop)])  # num_comp = 0
  miss <- setdiff(object$columns, names(new_data))
  if (length(miss)) fp_abort(sprintf("lacks column(s) used by step_fair_pca(): %s", fp_name_list(miss)), "new_data")
  s <- predict(object$res, fp_step_matrix(new_data, object$columns, "new_data", allow_na = TRUE))
  nms <- fp_step_names(object$prefix, ncol(s))
  if (!object$keep_original_cols) drop <- c(drop, object$columns)
  new_data <- new_data[setdiff(names(new_data), drop)]
  clash <- intersect(nms, names(new_data))
  if (length(clash)) {
    # the scores would overwrite columns of the data (recipes::step_pca() stops here too)
    fp_abort(sprintf("gives score column(s) %s, which the data already have: choose another prefix",
                     fp_name_list(sprintf("'%s'", clash))), "prefix")
  }
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
  out <- if (isTRUE(x$trained) && !is.null(x$res)) {
    V <- x$res$rotation
    data.frame(terms = rep(rownames(V), ncol(V)), value = as.vector(V),
               component = rep(fp_step_names(x$prefix, ncol(V)), each = nrow(V)), id = x$id,
               stringsAsFactors = FALSE)
  } else {
    terms <- if (isTRUE(x$trained)) x$columns else fp_step_term_labels(x$terms)
    data.frame(terms = as.character(terms), value = rep(NA_real_, length(terms)),
               component = rep(NA_character_, length(terms)), id = rep(x$id, length(terms)), stringsAsFactors = FALSE)
  }
  fp_tibble(out)
}

fp_step_term_labels <- function(terms) unname(vapply(terms, function(q) rlang::as_label(q), character(1)))

#' @rdname step_fair_pca
#' @importFrom generics tunable
#' @export
tunable.step_fair_pca <- function(x, ...) {
  fp_step_tunable(x, "step_fair_pca", c("minmax", "mean", "pareto", "robust", "standard"))
}

# The tunable parameters of a fairness step: num_comp (dials::num_comp) and method (a
# qualitative dials parameter over `methods`).
fp_step_tunable <- function(x, component, methods) {
  out <- data.frame(name = c("num_comp", "method"), source = "recipe", component = component,
                    component_id = x$id, stringsAsFactors = FALSE)
  out$call_info <- list(list(pkg = "dials", fun = "num_comp", range = c(1L, 4L)),
                        list(pkg = "dials", fun = "new_qual_param", type = "character", values = methods,
                             label = c(method = "Fairness method")))
  fp_tibble(out[c("name", "call_info", "source", "component", "component_id")])
}

#' @rdname step_fair_pca
#' @importFrom generics required_pkgs
#' @export
required_pkgs.step_fair_pca <- function(x, ...) "fairproj"
