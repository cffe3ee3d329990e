# The one place where inputs are checked and groups encoded. Every check fails with a classed
# condition (class "fairproj_input_error") whose message names the argument.

fp_abort <- function(message, arg = NULL, class = NULL, call = NULL) {
  msg <- if (is.null(arg)) message else sprintf("`%s` %s", arg, message)
  stop(errorCondition(msg, class = c(class, "fairproj_input_error", "fairproj_error"),
                      call = call))
}

# A method that fits on the data rows, given only their moments. Callers that can fall back to
# the rows (tune_fair_pca()) or must refuse such a method (fair_audit()) test the class
# `fairproj_needs_rows`, never the message.
fp_abort_needs_rows <- function(method, why) {
  fp_abort(sprintf("must hold the data rows for method '%s' (%s); a group_moments object is not enough",
                   method, why), "x", class = "fairproj_needs_rows")
}

fp_warn <- function(message, class = NULL) {
  warning(warningCondition(message, class = c(class, "fairproj_warning")))
}

# Numeric matrix from a matrix or data.frame; errors on non-numeric columns, NA/NaN/Inf,
# fewer than `min_cols` columns, fewer than `min_rows` rows (no rows). `check_finite = FALSE` leaves the NA/Inf check to the
# caller (the C++ moments pass counts them without n x d temporaries); `set_names = FALSE`
# leaves the column names alone (setting them copies a matrix; see fp_colnames()).
fp_as_matrix <- function(x, arg = "x", min_cols = 2L, allow_nonfinite = FALSE, check_finite = TRUE,
                         set_names = TRUE, min_rows = 1L) {
  if (is.data.frame(x)) {
    x <- fp_int64_columns(fp_flatten_df(x), arg)
    ok <- vapply(x, function(v) is.numeric(v) || is.logical(v), logical(1))
    if (!all(ok)) {
      bad <- names(x)[!ok]
      fp_abort(sprintf("has non-numeric column(s): %s; convert or drop them (e.g. with model.matrix())",
                       paste(utils::head(bad, 5), collapse = ", ")), arg)
    }
    x <- as.matrix(x)
  }
  if (inherits(x, "Matrix")) x <- as.matrix(x)
  if (!is.matrix(x)) {
    if (is.numeric(x)) fp_abort(sprintf("must be a matrix or data.frame with at least %d columns, not a vector", min_cols), arg)
    fp_abort(sprintf("must be a numeric matrix or data.frame, not an object of class '%s'", class(x)[1]), arg)
  }
  if (!(is.numeric(x) || is.logical(x))) fp_abort(sprintf("must be numeric, not of type '%s'", typeof(x)), arg)
  if (nrow(x) < min_rows) fp_abort("has no rows", arg)
  if (ncol(x) < min_cols) fp_abort(sprintf("must have at least %d columns (has %d)", min_cols, ncol(x)), arg)
  if (storage.mode(x) != "double") storage.mode(x) <- "double"
  if (!check_finite) allow_nonfinite <- TRUE
  if (!allow_nonfinite && anyNA(x)) {
    fp_abort(sprintf("contains %d missing value(s) (NA/NaN); remove or impute them first",
                     sum(is.na(x))), arg)
  }
  if (!allow_nonfinite && fp_any_infinite(x)) {
    fp_abort(sprintf("contains %d infinite value(s)", sum(is.infinite(x))), arg)
  }
  if (set_names) {
    cn <- fp_colnames(x)
    if (!identical(cn, colnames(x))) colnames(x) <- cn
  }
  x
}

# Whether a numeric matrix holds an infinite value, without an n x d logical temporary (the
# validation of large data must not cost a copy of them): its smallest and largest values, which
# the primitives min() and max() find without one; confirmed element-wise only when one of them
# is infinite (as both also are when every value is NA).
fp_any_infinite <- function(x) {
  if (!length(x) || !is.double(x)) return(FALSE)
  r <- suppressWarnings(c(min(x, na.rm = TRUE), max(x, na.rm = TRUE)))  # range() would copy x
  any(is.infinite(r)) && any(is.infinite(x))
}

# A data.frame with its matrix columns (`d$m <- as.matrix(...)`) split into one column each,
# named as as.matrix() names them (`m.a`, `m.b`; `m.1`, `m.2` without column names; `m` for a
# one-column matrix), so that the columns of a fit and of its new data are named alike.
fp_flatten_df <- function(x) {
  wide <- vapply(x, function(v) length(dim(v)) == 2L, logical(1))
  if (!any(wide)) return(x)
  nm <- unlist(lapply(seq_along(x), function(j) {
    v <- x[[j]]
    if (length(dim(v)) != 2L || ncol(v) == 1L) return(names(x)[j])
    cn <- colnames(v)
    paste(names(x)[j], if (length(cn)) cn else seq_len(ncol(v)), sep = ".")
  }))
  cols <- unlist(lapply(x, function(v) {
    if (length(dim(v)) == 2L) lapply(seq_len(ncol(v)), function(j) v[, j]) else list(v)
  }), recursive = FALSE)
  structure(cols, names = nm, row.names = attr(x, "row.names"), class = "data.frame")
}

# The integer64 columns (bit64; a database's BIGINT) of a data.frame as doubles. They keep their
# integers in the bits of a double, which as.matrix() and model.matrix() would read as tiny
# numbers (5 as 2.5e-323); converted by value, with a classed warning when an integer of 2^53 or
# more may be rounded.
fp_int64_columns <- function(x, arg) {
  i64 <- vapply(x, function(v) inherits(v, "integer64"), logical(1))
  if (!any(i64)) return(x)
  fp_require("bit64", "integer64 columns")
  big <- character(0)
  for (j in which(i64)) {
    # bit64's method, by value; its own unclassed warning on rounding is replaced by ours
    v <- suppressWarnings(as.double(x[[j]]))
    if (any(abs(v) >= 2^53, na.rm = TRUE)) big <- c(big, names(x)[j])
    x[[j]] <- v
  }
  if (length(big)) {
    fp_warn(sprintf("`%s` has integer64 column(s) with integers of 2^53 or more, which double precision may round: %s",
                    arg, fp_name_list(big)), class = "fairproj_precision_warning")
  }
  x
}

# Column names of a matrix: V1, V2, ... where missing or blank, made unique. Computed without
# touching the data (assigning them to a shared matrix would copy it).
fp_colnames <- function(x) {
  cn <- colnames(x)
  if (is.null(cn)) cn <- paste0("V", seq_len(ncol(x)))
  blank <- is.na(cn) | cn == ""
  cn[blank] <- paste0("V", which(blank))
  make.unique(cn)
}

# The NA/Inf error of fp_as_matrix() from counts taken elsewhere (the C++ moments pass).
fp_check_nonfinite_counts <- function(n_na, n_inf, arg = "x") {
  if (n_na > 0) fp_abort(sprintf("contains %s missing value(s) (NA/NaN); remove or impute them first", format(n_na)), arg)
  if (n_inf > 0) fp_abort(sprintf("contains %s infinite value(s)", format(n_inf)), arg)
  invisible(TRUE)
}

# A factor's rows whose level is NA (addNA()) as missing values, so that they are counted and
# refused like other missing labels (is.na() is FALSE for them); other vectors unchanged.
fp_na_level <- function(v) {
  if (is.factor(v) && anyNA(levels(v))) v <- factor(v, levels = levels(v)[!is.na(levels(v))])
  v
}

# Labels of distinct numbers that are distinct: as.character() (15 significant digits), with
# 16 or 17 digits for the values that 15 do not give back exactly (1e15 + 1 and 1e15 + 2 are
# both "1e+15" to 15 digits). Each label depends on its value only, so the same value gets the
# same label in every call (training and new data, chunks, sources).
fp_num_labels <- function(u) {
  lab <- as.character(u)
  bad <- which(is.finite(u) & as.numeric(lab) != u)
  for (dg in 16:17) {
    if (!length(bad)) break
    lab[bad] <- sprintf("%.*g", dg, u[bad])
    bad <- bad[as.numeric(lab[bad]) != u[bad]]
  }
  lab
}

# A group vector as a factor of its distinct values with the unused levels dropped: numbers in
# increasing order with the labels of fp_num_labels() (as.factor() labels doubles with 15
# digits, which merges values that differ in the 16th).
# The codes come from the values (match() against the sorted distinct values, tabulate() of a
# factor's codes), without a round trip through the labels as strings, which took most of the
# time of a fit at a million rows; the levels are those droplevels(as.factor(v)) gives.
fp_group_factor <- function(v) {
  make <- function(codes, lv, ordered = FALSE, nm = NULL) {
    structure(codes, levels = lv, names = nm, class = if (ordered) c("ordered", "factor") else "factor")
  }
  if (is.factor(v)) {
    codes <- as.integer(v)
    lv <- levels(v)
    used <- tabulate(codes, length(lv)) > 0L
    if (!all(used)) {
      codes <- cumsum(used)[codes]
      lv <- lv[used]
    }
    return(make(codes, lv, is.ordered(v), names(v)))
  }
  if (is.double(v) && !is.object(v)) {  # plain doubles (not integer64, dates, ...)
    u <- sort(unique(v))
    return(factor(match(v, u), levels = seq_along(u), labels = fp_num_labels(u)))
  }
  if ((is.integer(v) || is.logical(v)) && !is.object(v)) {
    u <- sort(unique(v))
    return(make(match(v, u), as.character(u), nm = names(v)))
  }
  if (is.character(v) && !is.object(v)) {
    u <- unique(v)
    u <- u[!is.na(u)]
    lv <- u[order(u)]  # factor()'s order of the levels (the locale's collation)
    return(make(match(v, lv), lv, nm = names(v)))
  }
  droplevels(as.factor(v))
}

# Encode a group vector as a factor with the unused levels dropped. Checks length, NA (also a
# factor's NA level), the number of levels and the size of each group.
fp_as_group <- function(group, n, arg = "group", min_levels = 2L, min_size = 1L) {
  if (is.null(group)) fp_abort("is missing: give one group label per row", arg)
  if (fp_is_multi_group(group)) group <- fp_intersect(group, n, arg)  # intersectional groups
  cells <- attr(group, "cells")
  if (is.data.frame(group)) {
    if (ncol(group) != 1L) fp_abort("must be a single vector (several attributes are not supported by this method)", arg)
    group <- group[[1L]]
  }
  if (is.matrix(group)) {
    if (ncol(group) != 1L) fp_abort("must be a vector, not a matrix", arg)
    group <- group[, 1L]
  }
  if (!(is.factor(group) || is.character(group) || is.numeric(group) || is.logical(group))) {
    fp_abort(sprintf("must be a factor, character, integer or logical vector, not '%s'", class(group)[1]), arg)
  }
  if (length(group) != n) fp_abort(sprintf("has length %d but the data have %d rows", length(group), n), arg)
  group <- fp_na_level(group)
  if (anyNA(group)) fp_abort(sprintf("contains %d missing value(s)", sum(is.na(group))), arg)
  blank <- if (is.factor(group)) {
    empty <- which(levels(group) == "")
    if (length(empty)) as.integer(group) %in% empty else FALSE
  } else if (is.character(group)) !nzchar(group) else FALSE
  if (any(blank)) {
    # files and databases cannot tell an empty label from a missing one: one rule everywhere
    fp_abort(sprintf("contains %d empty label(s) (\"\", first in row %d), which files and databases read as missing; give those rows a label or drop them",
                     sum(blank), which(blank)[1L]), arg)
  }
  if (is.numeric(group) && !is.integer(group) && any(group != round(group))) {
    fp_abort("is numeric with non-integer values: a continuous attribute is not a group; cut() it into groups", arg)
  }
  g <- fp_group_factor(group)
  if (nlevels(g) < min_levels) {
    fp_abort(sprintf("must have at least %d groups (levels) with data, has %d", min_levels, nlevels(g)), arg)
  }
  sizes <- tabulate(g, nlevels(g))
  if (any(sizes < min_size)) {
    small <- levels(g)[sizes < min_size]
    fp_abort(sprintf("group(s) %s have fewer than %d rows", paste(shQuote(small), collapse = ", "), min_size), arg)
  }
  if (!is.null(cells)) attr(g, "cells") <- cells[levels(g), , drop = FALSE]
  g
}

# `x` and `group` with a `group` that names a column of the data.frame `x` (one string) taken
# out of `x` as the group labels, as in group_moments(iris, "Species"); otherwise unchanged.
# `expr` is the door's substitute(group), for the error when `group` cannot be evaluated.
fp_group_column <- function(x, group, arg = "group", expr = NULL) {
  group <- fp_force_column(group, expr, x, arg, "x")
  if (is.data.frame(x) && is.character(group) && length(group) == 1L && !is.na(group) && nrow(x) != 1L) {
    if (!group %in% names(x)) fp_column_missing_error(group, x, arg, "x")
    return(list(x = x[setdiff(names(x), group)], group = x[[group]]))
  }
  list(x = x, group = group)
}

# A classed error for a group_moments object given to a function that needs the rows.
fp_needs_rows <- function(x, what, arg = "x") {
  if (inherits(x, "group_moments")) {
    fp_abort(sprintf("is a group_moments object, which holds no rows, but %s needs the data rows; give the rows", what), arg)
  }
  invisible(x)
}

# A whole number in [lower, upper].
fp_check_count <- function(k, lower, upper, arg = "k") {
  if (missing(k) || is.null(k)) fp_abort("is missing", arg)
  if (!is.numeric(k) || length(k) != 1L || is.na(k) || !is.finite(k) || k != round(k)) {
    fp_abort("must be a single whole number", arg)
  }
  if (k < lower || k > upper) fp_abort(sprintf("must be between %d and %d, not %s", lower, upper, format(k)), arg)
  as.integer(k)
}

# A single number in a range (closed unless said otherwise).
fp_check_number <- function(x, arg, lower = -Inf, upper = Inf, open_lower = FALSE, open_upper = FALSE) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x)) fp_abort("must be a single number", arg)
  bad <- (if (open_lower) x <= lower else x < lower) || (if (open_upper) x >= upper else x > upper)
  if (bad) {
    fp_abort(sprintf("must be in %s%s, %s%s, not %s", if (open_lower) "(" else "[", format(lower),
                     format(upper), if (open_upper) ")" else "]", format(x)), arg)
  }
  x
}

fp_check_flag <- function(x, arg) {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) fp_abort("must be TRUE or FALSE", arg)
  x
}

# center / scale. arguments: TRUE, FALSE or a numeric vector of length d.
fp_check_center_scale <- function(v, d, arg) {
  if (is.logical(v) && length(v) == 1L && !is.na(v)) return(v)
  if (is.numeric(v) && length(v) == d && all(is.finite(v))) {
    if (arg == "scale." && any(v <= 0)) fp_abort("must have positive entries", arg)
    return(as.numeric(v))
  }
  fp_abort(sprintf("must be TRUE, FALSE or a finite numeric vector of length %d", d), arg)
}

# A seed for set.seed(): NULL or one whole number in R's integer range (set.seed() would
# truncate 1.5 silently and fail on Inf with its own error).
fp_check_seed <- function(seed) {
  if (!is.null(seed) && (!is.numeric(seed) || length(seed) != 1L || !is.finite(seed) || seed != round(seed) ||
                         abs(seed) > .Machine$integer.max)) {
    fp_abort("must be one whole number (at most 2147483647 in absolute value) or NULL", "seed")
  }
  seed
}

# Set the RNG seed for the rest of the caller and return a function that restores the user's
# random stream: `restore <- fp_set_seed(seed); on.exit(restore(), add = TRUE)`.
fp_set_seed <- function(seed) {
  if (is.null(fp_check_seed(seed))) return(function() invisible(NULL))
  had <- exists(".Random.seed", envir = globalenv(), inherits = FALSE)
  old <- if (had) get(".Random.seed", envir = globalenv(), inherits = FALSE)
  set.seed(seed)
  function() {
    if (had) assign(".Random.seed", old, envir = globalenv())
    else if (exists(".Random.seed", envir = globalenv(), inherits = FALSE)) rm(".Random.seed", envir = globalenv())
    invisible(NULL)
  }
}

# One choice among `choices` (partial matching as match.arg); the full `choices` vector (the
# default of a formal argument) selects the first. A classed error naming the argument otherwise.
fp_match_arg <- function(x, choices, arg) {
  if (identical(x, choices)) return(choices[1L])
  if (!is.character(x) || length(x) != 1L || is.na(x)) {
    fp_abort(sprintf("must be one of: %s", paste(dQuote(choices, FALSE), collapse = ", ")), arg)
  }
  i <- pmatch(x, choices)
  if (is.na(i)) fp_abort(sprintf("'%s' is not one of: %s", x, paste(dQuote(choices, FALSE), collapse = ", ")), arg)
  choices[i]
}

# The one warning class of solvers that stop before their convergence test holds, diverge, or
# fall back to another candidate: class "fairproj_convergence_warning". `message` says what
# happened and what to change.
fp_warn_convergence <- function(message) {
  fp_warn(message, class = "fairproj_convergence_warning")
}

# Evaluate a call into compiled code and turn any error it raises (a C++ exception that Rcpp
# converted, or an R error from inside) into a classed condition: class
# "fairproj_numerical_error" (and "fairproj_error"), so that no unclassed error from C++
# reaches the user. Conditions that are already fairproj_error pass through unchanged.
fp_cpp <- function(expr, what = "the solver") {
  tryCatch(expr, error = function(e) {
    if (inherits(e, "fairproj_error")) stop(e)
    fp_internal_error(what, conditionMessage(e))
  })
}

# A solver's internal failure: a fairproj_numerical_error that says so and what to try.
fp_internal_error <- function(what, detail) {
  stop(errorCondition(sprintf(paste(
    "internal numerical failure in %s: %s. Try centring or scale. = TRUE, another k or method;",
    "please report it with the data's dimensions if it persists"), what, detail),
    class = c("fairproj_numerical_error", "fairproj_error"), call = NULL))
}

# Stops with class `fairproj_missing_package` when a suggested package that `what` needs is not
# installed, naming the install command.
fp_require <- function(pkgs, what) {
  miss <- pkgs[!vapply(pkgs, requireNamespace, logical(1), quietly = TRUE)]
  if (length(miss)) {
    stop(errorCondition(sprintf("%s needs the package(s) %s: install.packages(c(%s))", what,
                                paste(miss, collapse = ", "),
                                paste(dQuote(miss, FALSE), collapse = ", ")),
                        class = c("fairproj_missing_package", "fairproj_error")))
  }
  invisible(TRUE)
}

# The first `max` elements of `v`, comma-separated, with the count when there are more (for
# messages that list names, rows or labels).
fp_name_list <- function(v, max = 10L) {
  s <- paste(utils::head(v, max), collapse = ", ")
  if (length(v) > max) s <- sprintf("%s, ... (%d in all)", s, length(v))
  s
}

# ---------------------------------------------------------------------------------------------
# Column arguments (`group`, `outcome`) of the formula and data.frame doors: the user's common
# mistakes get a classed error that names the argument and lists the columns.

# `arg` (unevaluated as `expr`) evaluated on the columns of `data`, then in `env`: its value.
# An expression that cannot be evaluated (a misspelt bare name gives R's "object 'gender' not
# found") is a classed error listing the columns of `data`.
fp_eval_column <- function(expr, data, env, arg, data_arg = "data") {
  tryCatch(eval(expr, data, env), error = function(e) fp_column_eval_error(expr, e, data, arg, data_arg))
}

# `value`, a promise of the default doors (fair_pca(x, group = ...)), forced; an expression
# `expr` that cannot be evaluated is the classed error of fp_column_eval_error().
fp_force_column <- function(value, expr, data, arg, data_arg = "x") {
  tryCatch(value, error = function(e) fp_column_eval_error(expr, e, data, arg, data_arg))
}

fp_column_eval_error <- function(expr, e, data, arg, data_arg) {
  cols <- if (is.data.frame(data)) names(data) else colnames(data)
  if (is.name(expr) && !is.null(cols)) {
    nm <- as.character(expr)
    if (nm %in% cols) {
      # a default door: a bare column name of the data.frame `x` is not looked up in it
      fp_abort(sprintf("is `%s`, a column of `%s` written without quotes: write %s = \"%s\" (or use the formula interface with `data`)",
                       nm, data_arg, arg, nm), arg)
    }
    fp_abort(sprintf("is `%s`, which is neither a column of `%s` nor a variable%s; the columns of `%s` are: %s",
                     nm, data_arg, fp_did_you_mean(nm, cols), data_arg, fp_name_list(cols, 20L)), arg)
  }
  fp_abort(sprintf("cannot be evaluated: %s%s", conditionMessage(e),
                   if (is.null(cols)) "" else sprintf("; the columns of `%s` are: %s", data_arg, fp_name_list(cols, 20L))),
           arg)
}

# A classed error for a column name (one string) that `data` does not have.
fp_column_missing_error <- function(name, data, arg, data_arg = "data") {
  cols <- names(data)
  fp_abort(sprintf("names column '%s', which `%s` does not have%s; its columns are: %s", name, data_arg,
                   fp_did_you_mean(name, cols), fp_name_list(cols, 20L)), arg)
}

# ", did you mean 'sex'?" for a column name that differs from `name` only in case or by at most
# a fifth of its letters (one for short names); "" otherwise.
fp_did_you_mean <- function(name, cols) {
  if (!length(cols)) return("")
  dist <- utils::adist(tolower(name), tolower(cols))[1L, ]
  best <- which(dist == min(dist) & dist <= max(1, nchar(name) %/% 5L))
  if (!length(best)) return("")
  sprintf(" (did you mean %s?)", paste(sprintf("'%s'", cols[best][seq_len(min(3L, length(best)))]), collapse = " or "))
}

# The formula doors' first check: a two-sided formula (`sex ~ .`), the usual way to give a
# response in R, names the group (or an outcome) on its left; fairproj's formulas name only the
# features, so say where the left-hand side goes. Then a missing `group`.
fp_check_formula_door <- function(formula, group_missing, outcome = FALSE) {
  if (inherits(formula, "formula") && length(formula) == 3L) {
    lhs <- paste(deparse(formula[[2L]], width.cutoff = 500L), collapse = " ")
    rhs <- paste(deparse(formula[[3L]], width.cutoff = 500L), collapse = " ")
    msg <- if (group_missing) {
      sprintf("is two-sided (`%s ~ %s`), but it names only the feature columns: write `~ %s` and give the group as `group = %s`%s",
              lhs, rhs, rhs, lhs, if (outcome) sprintf(" (an outcome as `outcome = %s`)", lhs) else "")
    } else {
      sprintf("is two-sided (`%s ~ %s`), but it names only the feature columns (the group is in `group`): write `~ %s`%s",
              lhs, rhs, rhs, if (outcome) sprintf(" and give an outcome as `outcome = %s`", lhs) else "")
    }
    fp_abort(msg, "formula")
  }
  if (group_missing) fp_abort("is missing: give a column of `data` or one label per row", "group")
  invisible()
}

# ---------------------------------------------------------------------------------------------
# Columns in very different units. Unscaled PCA follows the columns with the largest variance, so
# when one column's variance dominates the others by orders of magnitude and the user did not
# choose `scale.`, a fit says so once (class fairproj_units_warning). The test: among the columns
# that vary, the largest variance is more than 1e4 times the median one (standard deviations 100
# times apart), or one column holds more than 99% of the sum of the column variances. Variances
# are about the overall mean, in log2 so that data of any magnitude compare.

# log2 of each column's variance from group moments (stored columns times 2^exponent), without
# a pass over the rows; -Inf for a constant column.
fp_log2_colvar <- function(m) {
  d <- length(m$colnames)
  e <- if (is.null(m$exponent)) rep(0, d) else m$exponent
  mu <- drop(m$mean %*% (m$n / sum(m$n)))
  ss <- Reduce(`+`, lapply(seq_along(m$levels), function(i) diag(m$scatter[[i]]) + (m$mean[, i] - mu)^2 * m$n[[i]]))
  log2(pmax(ss, 0) / max(sum(m$n) - 1, 1)) + 2 * e
}

# The same from the rows of a matrix (for fair_kpca(), which works on the rows), one column at a
# time and divided by its largest deviation so that no square leaves double precision.
fp_log2_colvar_rows <- function(x) {
  vapply(seq_len(ncol(x)), function(j) {
    v <- x[, j] - mean(x[, j])
    a <- max(abs(v))
    if (!(a > 0)) return(-Inf)
    2 * log2(a) + log2(sum((v / a)^2) / max(length(v) - 1, 1))
  }, numeric(1))
}

# The warning, from the columns' log2 variances `lv` and their names; TRUE when given.
fp_warn_units <- function(lv, colnames) {
  ok <- which(is.finite(lv))
  if (length(ok) < 2L) return(invisible(FALSE))
  top <- ok[which.max(lv[ok])]
  rel <- 2^(lv[ok] - lv[top])
  share <- 1 / sum(rel)
  ratio <- 1 / stats::median(rel)
  if (!(share > 0.99 || ratio > 1e4)) return(invisible(FALSE))
  # the message compares with the other columns (the median of all includes the column itself),
  # in log10 so that any ratio prints
  l10 <- (lv[top] - stats::median(lv[ok[ok != top]])) * log10(2)
  times <- if (l10 < 6) format(round(10^l10), big.mark = ",") else if (l10 < 300) sprintf("%.1e", 10^l10) else
    sprintf("about 1e%d", round(l10))
  fp_warn(sprintf(paste("column '%s' holds %.1f%% of the total variance, %s times the median variance of the",
                        "other columns, so the unscaled components mostly follow its units; use scale. = TRUE if",
                        "the columns are in different units, or give scale. = FALSE to keep the units (and this",
                        "warning off)"),
                  colnames[top], floor(1000 * share) / 10, times),
          class = "fairproj_units_warning")
  invisible(TRUE)
}
