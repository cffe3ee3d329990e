#' Per-group reconstruction errors of a fit on any data
#'
#' Evaluates a [fair_pca()] fit on data (for instance a test split): each group's average
#' squared reconstruction error, its own best rank-k error on these data, the marginal loss,
#' the fraction of variance kept, and the summary criteria of Vu et al. (2022):
#' * `ABDiff`: the absolute difference between the groups' average errors (for more than two
#'   groups, the largest minus the smallest);
#' * `ARE`: the average reconstruction error over all rows, measured about the model's centre
#'   (no re-centring of the data, as in Vu et al.'s code).
#'
#' With `center = "group"` (default) each group's rows are centred at the group's own mean in
#' `x`, as in [fair_pca()]'s `group_stats` (so on the training data the table is the same);
#' with `center = "model"` they are centred at the model's centre, i.e. the error of
#' [reconstruct()]. With `center = "group"`, a group of one row has error 0 about its own mean
#' and says nothing: a warning of class `fairproj_small_group_warning` says so.
#'
#' @param object A `fair_pca` object; for `summary()`, a `fairproj_group_errors` result.
#' @param x A numeric matrix or data.frame with the model's columns, matched as in
#'   [predict.fair_pca()] (by name, or rebuilt through the terms of a formula fit from a raw
#'   data.frame). Rows with missing values are an error. For `tidy()` and `glance()`: a
#'   `fairproj_group_errors` result.
#' @param group Group labels for the rows of `x`; when `x` is a data.frame, also an unquoted
#'   name or a string naming a column of `x` (that column is then not a feature). For a fit
#'   from the formula interface it defaults to the group column used in training.
#' @param center `"group"` or `"model"` (see Details).
#' @param ... For `tidy()` and `glance()` of the result: not used; an argument given here (a
#'   misspelt option) is an error of class `fairproj_input_error`.
#' @return A list of class `fairproj_group_errors` with `table` (data.frame: `group`, `n`,
#'   `error`, `best`, `loss`, `var_explained`), `ABDiff`, `ARE` and `max_loss`. Its `tidy()` is
#'   `table` as a tibble (a data.frame when tibble is not installed), its `glance()` one row with
#'   `ABDiff`, `ARE`, `max_loss`, `ngroups` and `nobs` (the rows measured). Its `summary()` is
#'   the result itself (a summary already), printed as `print()` prints it.
#' @seealso [fair_pca()], [tune_fair_pca()] (which minimises ARE + ABDiff), [fairness_gaps()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' train <- seq(1, nrow(pbc2), by = 2)
#' fit <- fair_pca(pbc2[train, 1:6], pbc2$sex[train], k = 2, scale. = TRUE)
#' group_errors(fit, pbc2[-train, 1:6], pbc2$sex[-train])
#' # a data.frame with the group as a column
#' group_errors(fit, pbc2[-train, ], group = sex)
#' glance(group_errors(fit, pbc2[-train, ], group = sex))
#' @export
group_errors <- function(object, x, group, center = c("group", "model")) {
  fp_check_given("object")
  if (!inherits(object, "fair_pca")) fp_abort("must be a fair_pca object", "object")
  center <- fp_match_arg(center, c("group", "model"), "center")
  if (missing(x)) fp_abort("is missing: give the rows to measure the errors on (e.g. the training data)", "x")
  fp_check_not_dataset(x, "x")
  fp_needs_rows(x, "group_errors() (the errors of new rows; the fit's own are in `object$group_stats`)")
  gname <- NULL
  if (is.data.frame(x)) {
    if (missing(group)) {
      gname <- object$group_name
      if (is.null(gname) || !gname %in% names(x)) fp_abort("is missing: give one label per row or a column of `x`", "group")
    } else {
      gexpr <- substitute(group)
      if (is.name(gexpr) && as.character(gexpr) %in% names(x)) {
        gname <- as.character(gexpr)
      } else {
        group <- fp_force_column(group, gexpr, x, "group")
        if (inherits(group, "formula")) fp_abort_group_formula(group, x, "group", "x", unquoted = TRUE)
        if (is.character(group) && length(group) == 1L && nrow(x) != 1L) {
          if (!group %in% names(x)) fp_column_missing_error(group, x, "group", "x")
          gname <- group
        }
      }
    }
  } else if (missing(group)) {
    fp_abort("is missing: give one label per row", "group")
  } else {
    group <- fp_force_column(group, substitute(group), x, "group")
  }
  if (!is.null(gname)) {
    group <- x[[gname]]
    if (is.null(object$terms)) x <- fp_drop_column(x, gname, "group", "x")
  }
  xm <- fp_newdata(object, x, "x")
  g <- fp_as_group(group, nrow(xm), "group", min_levels = 1L)
  z <- fp_transform(object, xm)
  m <- group_moments(z, g)
  prep <- fp_prepare(m, center = FALSE, scale. = FALSE)
  if (center == "model") prep$cov <- prep$second else fp_warn_small_groups(prep$n, prep$levels)
  tab <- fp_group_stats(prep, object$rotation, object$k, map = fp_map_arg(object))
  # ARE: all rows about the model centre
  err_all <- vapply(seq_along(prep$second), function(i) {
    fp_group_stats(list(cov = prep$second[i], d = prep$d, levels = prep$levels[i], n = prep$n[i]),
                   object$rotation, object$k, map = fp_map_arg(object), best = 0)$error
  }, numeric(1))
  are <- sum(err_all * prep$n) / sum(prep$n)
  res <- list(table = tab, ABDiff = diff(range(tab$error)), ARE = are, max_loss = max(tab$loss))
  class(res) <- "fairproj_group_errors"
  res
}

#' @rdname group_errors
#' @export
tidy.fairproj_group_errors <- function(x, ...) {
  fp_check_no_dots(...names(), ...length(), "tidy() of a group_errors() result", "x")
  fp_tibble(x$table)
}

#' @rdname group_errors
#' @export
summary.fairproj_group_errors <- function(object, ...) {
  # the result is already a summary: itself, not base R's Length/Class/Mode table of its fields
  fp_check_no_dots(...names(), ...length(), "summary() of a group_errors() result", "object")
  object
}

#' @rdname group_errors
#' @export
glance.fairproj_group_errors <- function(x, ...) {
  fp_check_no_dots(...names(), ...length(), "glance() of a group_errors() result", "x")
  fp_tibble(data.frame(ABDiff = x$ABDiff, ARE = x$ARE, max_loss = x$max_loss, ngroups = nrow(x$table),
                       nobs = fp_count_value(sum(x$table$n))))
}

#' @export
print.fairproj_group_errors <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
  print(x$table, digits = digits, row.names = FALSE)
  cat(sprintf("\nABDiff = %s   ARE = %s   max loss = %s\n", format(x$ABDiff, digits = digits),
              format(x$ARE, digits = digits), format(x$max_loss, digits = digits)))
  invisible(x)
}
