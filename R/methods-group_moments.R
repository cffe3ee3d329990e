# Methods of group_moments objects beside print(), c() and the operators (R/moments.R): the
# per-group table as broom's tidy(), as a data.frame, and summary(); glance()'s one row.

#' Summarise and tidy group moments
#'
#' `glance()` gives one row: the numbers of columns, groups and rows. `tidy()` and
#' `as.data.frame()` give one row per group: its label, its number of rows and its
#' total variance (the trace of its covariance matrix, divided by the group's rows as in
#' [moments_cov()]), the numbers [print()][print.group_moments] shows. `summary()` adds each
#' group's share of the rows and names the columns; its print method shows the table as
#' `print()` does.
#'
#' A group with no rows (a level that a piece of merged moments held without data) has
#' `total_variance` `NA` (and `-` in print). A total variance beyond double range (about 1e308
#' or 1e-308, from columns kept as powers of two by a fit: see [fair_pca()]) is `NA` in the
#' numeric `total_variance`; the table then has the column `total_variance_text`, the value for
#' every group as text of a mantissa and its power of ten (`"1.523412e+400"`, 10 significant
#' digits), as `print()` shows it.
#'
#' @param x,object A `group_moments` object.
#' @param row.names,optional,stringsAsFactors For `as.data.frame()`, as in
#'   [base::as.data.frame()]: `row.names` names the rows (one per group; by default they are
#'   unnamed), `stringsAsFactors = TRUE` makes `group` a factor with the groups' levels in order,
#'   and `optional` is unused (the column names are fixed).
#' @param ... Not used: an argument given here (a misspelt option) is an error of class
#'   `fairproj_input_error`. For `print()` of a summary: unused.
#' @param digits For `print()` of a summary: significant digits of its table (a whole number from
#'   1 to 22; `NULL` for the default, 3 fewer than `getOption("digits")`, at least 3).
#' @return `glance()`: a one-row tibble (or data.frame) with the number of columns (`ncol`),
#'   groups (`ngroups`) and rows (`nobs`, an integer or a double beyond R's integers) and the
#'   bootstrap blocks kept per group (`blocks`, `NA` for none). `augment()` is an error of class
#'   `fairproj_input_error`: moments hold no rows (augment a fit made from them instead).
#'   `tidy()`: a tibble (a data.frame when tibble is not installed) with columns `group`
#'   (character), `n` (integer, or double beyond R's integers), `total_variance` (double) and,
#'   when a total leaves double range, `total_variance_text`. `as.data.frame()`: the same table
#'   as a data.frame. `summary()`: an object of class `summary.group_moments`, a list with
#'   `columns` (the column names), `rows` (all rows), `table` (the table of `tidy()` with the
#'   share of rows, `prop`, after `n`), `blocks` (the bootstrap blocks per group, or `NULL`) and
#'   `totals` (each group's total variance as value and power of ten) and `header` (the first
#'   line of `print()`), for printing.
#' @seealso [group_moments()], [moments_cov()].
#' @name group_moments_methods
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(300), 100, 3, dimnames = list(NULL, c("a", "b", "c")))
#' m <- group_moments(x, rep(c("u", "v"), c(60, 40)))
#' tidy(m)
#' glance(m)
#' as.data.frame(m)
#' summary(m)
NULL

#' @rdname group_moments_methods
#' @export
tidy.group_moments <- function(x, ...) {
  fp_check_no_dots(...names(), ...length(), "tidy() of a group_moments object", "x")
  fp_tibble(fp_moments_table(fp_check_moments(x, "x")))
}

#' @rdname group_moments_methods
#' @export
glance.group_moments <- function(x, ...) {
  fp_check_no_dots(...names(), ...length(), "glance() of a group_moments object", "x")
  fp_check_moments(x, "x")
  fp_tibble(data.frame(ncol = length(x$colnames), ngroups = length(x$levels), nobs = fp_count_value(sum(x$n)),
                       blocks = if (is.null(x$block_count)) NA_integer_ else as.integer(x$block_count)))
}

#' @rdname group_moments_methods
#' @export
augment.group_moments <- function(x, ...) {
  fp_abort("holds the moments of its rows, not the rows, so it has nothing to augment: fit a model on it (fair_pca(x, k)) and augment that fit with the rows, augment(fit, data = rows)",
           "x")
}

#' @rdname group_moments_methods
#' @export
as.data.frame.group_moments <- function(x, row.names = NULL, optional = FALSE, stringsAsFactors = FALSE, ...) {
  fp_check_no_dots(...names(), ...length(), "as.data.frame() of a group_moments object",
                   c("x", "row.names", "optional", "stringsAsFactors"))
  fp_check_flag(stringsAsFactors, "stringsAsFactors")
  tab <- fp_moments_table(fp_check_moments(x, "x"))
  if (stringsAsFactors) tab$group <- factor(tab$group, levels = x$levels)
  if (!is.null(row.names)) {
    if (length(row.names) != nrow(tab) || anyNA(row.names) || anyDuplicated(row.names)) {
      fp_abort(sprintf("must give %d distinct row names, one per group", nrow(tab)), "row.names")
    }
    rownames(tab) <- row.names
  }
  tab
}

#' @rdname group_moments_methods
#' @export
summary.group_moments <- function(object, ...) {
  fp_check_no_dots(...names(), ...length(), "summary() of a group_moments object", "object")
  fp_check_moments(object, "object")
  tab <- fp_moments_table(object)
  rows <- sum(object$n)
  tab <- cbind(tab[c("group", "n")], prop = if (rows > 0) as.numeric(object$n) / rows else NA_real_,
               tab[setdiff(names(tab), c("group", "n"))])
  structure(list(columns = object$colnames, rows = rows, table = tab, blocks = object$block_count,
                 totals = fp_moments_totals(object), header = fp_moments_header(object)),
            class = "summary.group_moments")
}

#' @rdname group_moments_methods
#' @export
print.summary.group_moments <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
  cat(x$header)
  tab <- x$table[c("group", "n", "prop")]
  tab$total_variance <- fp_moments_totals_text(x$totals, digits)
  print(tab, row.names = FALSE, digits = digits)
  cat(sprintf("Columns: %s\n", fp_name_list(x$columns, 10L)))
  if (!is.null(x$blocks)) cat(sprintf("Bootstrap blocks kept: %d per group\n", as.integer(x$blocks)))
  invisible(x)
}

# The per-group table of tidy(), as.data.frame() and summary(): group, n, total_variance (NA for
# a group with no rows or a total beyond double range) and, when a total leaves double range,
# total_variance_text (print()'s text at 10 significant digits: the mantissa comes from a
# logarithm, good to about 12).
fp_moments_table <- function(x) {
  tv <- fp_moments_totals(x)
  n <- as.numeric(x$n)
  tab <- data.frame(group = x$levels, n = if (all(n <= .Machine$integer.max)) as.integer(n) else n,
                    total_variance = ifelse(tv[2L, ] != 0, NA_real_, tv[1L, ]), stringsAsFactors = FALSE)
  if (any(tv[2L, ] != 0)) {
    txt <- fp_moments_totals_text(tv, 10L)
    tab$total_variance_text <- ifelse(is.na(tv[1L, ]), NA_character_, txt)
  }
  tab
}
