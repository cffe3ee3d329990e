# The one place where inputs are checked (groups are encoded in groups.R). Every check fails with a classed
# condition (class "fairproj_input_error") whose message names the argument.

fp_abort <- function(message, arg = NULL, class = NULL, call = NULL) {
  msg <- if (is.null(arg)) message else sprintf("`%s` %s", arg, message)
  stop(errorCondition(msg, class = c(class, "fairproj_input_error", "fairproj_error"),
                      call = call))
}

# A method's matched call under its generic's name, as prcomp.default() keeps it: update(fit, k
# = 3) and eval(fit$call) then reach the exported generic, not an unexported method
# ("could not find function \"fair_pca.default\"").
fp_generic_call <- function(call, generic) {
  call[[1L]] <- as.name(generic)
  call
}

# The classed error of fp_abort() for the first of `args` (names of the calling function's
# arguments without a default) that the call did not give. R's own "argument is missing, with
# no default" is not classed and comes only where the argument is first used, possibly deep in
# a helper. Each export calls it first on its required arguments; a generic only when called
# with no argument at all (`if (!nargs())`): with its first argument missing, UseMethod()
# dispatches on the first argument given, as in fair_pca(formula = ~ ., data = d, ...).
fp_check_given <- function(args, env = parent.frame()) {
  for (a in args) {
    if (eval(call("missing", as.name(a)), env)) fp_abort("is missing, with no default", a)
  }
  invisible(TRUE)
}

# The call of a generic with a formula interface (fair_pca(), ...) made without `x` but with
# `formula` (`formula`: its value; `call`: the generic's sys.call()), or NULL when `formula` is
# its first argument, for UseMethod() to dispatch on. UseMethod() dispatches on the first
# argument given, so a `formula` given after `data` reaches the default method with `x` missing:
# the call with `formula` moved first, for the generic to evaluate again in its caller (the
# arguments as the user wrote them: `group = sex` is read on `data` as before). A `formula` that
# is not a formula (NA, a string) is a classed error naming it, and so is one that came through
# another function's `...` after other arguments (its call cannot be rewritten).
fp_formula_first <- function(call, formula) {
  if (!inherits(formula, "formula")) {
    fp_abort(sprintf("must be a formula (e.g. ~ . or ~ a + b), not an object of class '%s'", class(formula)[1L]),
             "formula")
  }
  args <- as.list(call)[-1L]
  i <- match("formula", names(args))
  if (identical(i, 1L)) return(NULL)
  if (is.na(i)) {
    fp_abort("must be the first argument given (the generic dispatches on it): give it before `data`", "formula")
  }
  as.call(c(call[[1L]], args[i], args[-i]))
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

# A group of one row has no spread of its own: its covariance is zero, so its errors and losses
# (and any fairness between it and the others) say nothing. A classed warning, not an error:
# the fit itself is well defined. `why`: what the one row does to the caller's quantity.
fp_warn_small_groups <- function(n, levels,
                                 why = "their covariance is zero, so their errors and losses say nothing about them") {
  small <- which(n < 2)
  if (length(small)) {
    fp_warn(sprintf("group(s) %s have fewer than 2 rows: %s; merge small groups or collect more rows",
                    paste(sprintf("'%s' (%d)", levels[small], as.integer(n[small])), collapse = ", "), why),
            class = "fairproj_small_group_warning")
  }
}

# The error for arguments a method does not take (`nm`, `n`: the caller's ...names() and
# ...length()): a misspelt or foreign option names `...` and the arguments, rather than being
# ignored. `what` is the method ("group_moments() on a data.frame"), `takes` its arguments.
# A name that differs from one of `takes` only in case, `_` or `.` (tidymodels' `new_data` for
# `newdata`) is named with the argument meant.
fp_check_no_dots <- function(nm, n, what, takes) {
  if (!n) return(invisible(NULL))
  if (is.null(nm)) nm <- rep("", n)
  lab <- ifelse(is.na(nm) | nm == "", "(unnamed)", nm)
  key <- function(v) tolower(gsub("[._]", "", v))
  meant <- takes[match(key(lab), key(takes))]
  hint <- if (any(!is.na(meant) & lab != meant)) {
    i <- which(!is.na(meant) & lab != meant)
    paste0("; ", paste(sprintf("for `%s` give `%s`", lab[i], meant[i]), collapse = ", "))
  } else ""
  fp_abort(sprintf("has argument(s) that %s does not take: %s (it takes %s)%s", what, fp_name_list(lab),
                   fp_name_list(takes, Inf), hint), "...")
}

# A dataset of fairproj_data() (a list of features `x`, groups `group`, label `y` and `info`)
# given whole where rows are expected: a classed error naming its parts, before the door asks
# for a `group` the dataset holds.
fp_check_not_dataset <- function(x, arg = "x") {
  if (inherits(x, "fairproj_data")) {
    fp_abort(sprintf("is a fairproj_data() dataset, a list of its parts: give them, its features `%s$x` and groups `%s$group` (its label is `%s$y`)%s",
                     arg, arg, arg, if (arg == "x") ", e.g. fair_pca(x$x, x$group, k = 2)" else ""), arg)
  }
  invisible(x)
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
      num <- fp_text_number_columns(x[bad], factors = TRUE)
      # as.numeric() of a factor gives its level codes, not the numbers its labels show
      hint <- if (length(num)) {
        sprintf(" (%s %s numbers stored as text: convert %s with %s or readr::parse_number())",
                paste(utils::head(num, 5), collapse = ", "), if (length(num) == 1L) "holds" else "hold",
                if (length(num) == 1L) "it" else "them",
                if (any(vapply(x[num], is.factor, logical(1)))) "as.numeric(as.character())" else "as.numeric()")
      } else ""
      fp_abort(sprintf("has non-numeric column(s): %s%s; convert or drop them (e.g. with model.matrix())",
                       paste(utils::head(bad, 5), collapse = ", "), hint), arg)
    }
    x <- as.matrix(x)
  }
  if (inherits(x, "Matrix")) x <- as.matrix(x)
  if (inherits(x, "integer64") && length(dim(x)) == 2L) x <- fp_int64_matrix(x, arg)
  if (!is.matrix(x)) {
    if (inherits(x, "tbl_lazy")) {
      fp_abort(paste0("is a lazy database table, whose rows are not in R: collect() them (dplyr::collect())",
                      if (arg == "x") " or, for a fit that takes moments, give group_moments() of the table (its group column named as a string)"), arg)
    }
    if (length(dim(x)) > 2L) {
      fp_abort(sprintf("must be a matrix or data.frame, not an array of %d dimensions", length(dim(x))), arg)
    }
    if (is.numeric(x)) fp_abort(sprintf("must be a matrix or data.frame with at least %d columns, not a vector", min_cols), arg)
    fp_check_not_dataset(x, arg)
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

# Numbers stored as text: whether every non-missing value of a character vector (or every level
# of a factor) reads as a number, as readr::parse_number() would read it: spaces around it, a
# sign, a currency sign in front ($, EUR, GBP), commas between groups of three digits
# ("1,234.5"), a trailing percent sign. "NA", "" and "." count as missing; a vector with no
# value left is not numbers. Looks at the distinct values only.
fp_text_is_numbers <- function(v) {
  u <- if (is.factor(v)) levels(v) else unique(v)
  u <- trimws(u[!is.na(u)])
  u <- u[!u %in% c("", "NA", "NaN", ".", "-")]
  if (!length(u)) return(FALSE)
  u <- sub("%$", "", u)
  u <- sub("^([-+]?)\\s*[$\u20ac\u00a3]\\s*", "\\1", u)
  u <- gsub("(?<=[0-9]),(?=[0-9]{3}([^0-9]|$))", "", u, perl = TRUE)
  x <- suppressWarnings(as.numeric(u))
  all(!is.na(x) & grepl("[0-9]", u))
}

# The column names of a data.frame `df` that hold numbers stored as text (character columns;
# `factors = TRUE` also factors), for the data.frame and formula doors' messages.
fp_text_number_columns <- function(df, factors = FALSE) {
  txt <- vapply(df, function(v) (is.character(v) || (factors && is.factor(v))) && fp_text_is_numbers(v), logical(1))
  names(df)[txt]
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

# A data.frame with its matrix columns (`d$m <- as.matrix(...)`) and data.frame columns (a
# tibble's packed columns, tidyr::pack()) split into one column each, named as as.matrix() names
# them (`m.a`, `m.b`; `m.1`, `m.2` without column names; `m` for a one-column matrix), so that
# the columns of a fit and of its new data are named alike. A data.frame column is split by
# `[[` (a tibble's `[, j]` is a one-column tibble, not its values), its own such columns first.
fp_flatten_df <- function(x) {
  wide <- vapply(x, function(v) length(dim(v)) == 2L, logical(1))
  if (!any(wide)) return(x)
  x[wide] <- lapply(x[wide], function(v) if (is.data.frame(v)) fp_flatten_df(v) else v)
  nm <- unlist(lapply(seq_along(x), function(j) {
    v <- x[[j]]
    if (length(dim(v)) != 2L || ncol(v) == 1L) return(names(x)[j])
    cn <- colnames(v)
    paste(names(x)[j], if (length(cn)) cn else seq_len(ncol(v)), sep = ".")
  }))
  cols <- unlist(lapply(x, function(v) {
    if (is.data.frame(v)) return(lapply(seq_len(ncol(v)), function(j) v[[j]]))
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
    v <- fp_int64_double(x[[j]])
    if (any(abs(v) >= 2^53, na.rm = TRUE)) big <- c(big, names(x)[j])
    x[[j]] <- v
  }
  fp_warn_int64_big(big, arg)
  x
}

# An integer64 matrix (bit64: an integer64 vector with two dimensions) as a double matrix with
# its dimnames, converted by value as fp_int64_columns() converts columns, with its warning for
# the columns holding integers of 2^53 or more.
fp_int64_matrix <- function(x, arg) {
  fp_require("bit64", "integer64 matrices")
  dn <- dimnames(x)
  v <- matrix(fp_int64_double(x), nrow(x), ncol(x), dimnames = dn)
  big <- which(colSums(abs(v) >= 2^53, na.rm = TRUE) > 0)
  fp_warn_int64_big(fp_colnames(v)[big], arg)
  v
}

# integer64 values as doubles, by bit64's method (its own unclassed warning on rounding is
# replaced by fp_warn_int64_big()).
fp_int64_double <- function(v) {
  v <- suppressWarnings(as.double(v))
  attributes(v) <- NULL
  v
}

# A vector read by value: integer64 as doubles (`%in%`, `==` and arithmetic on the class would
# read its bits, and a 0/1 outcome would not be seen as binary), anything else as it is.
fp_int64_value <- function(v) if (inherits(v, "integer64")) fp_int64_double(v) else v

fp_warn_int64_big <- function(big, arg) {
  if (length(big)) {
    fp_warn(sprintf("`%s` has integer64 column(s) with integers of 2^53 or more, which double precision may round: %s",
                    arg, fp_name_list(big)), class = "fairproj_precision_warning")
  }
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

# A data.frame whose duplicated or empty names are made unique as fp_colnames() makes them (a,
# a.1, V3), the names a fit gives such columns; for results that carry the data's columns
# (augment(): a tibble refuses duplicated or empty names). Otherwise unchanged.
fp_unique_names <- function(df) {
  nm <- names(df)
  if (anyDuplicated(nm) || anyNA(nm) || any(nm == "")) names(df) <- fp_colnames(df)
  df
}

# The data.frame `df` without its column `name` (taken out as the group or the outcome, `what`),
# the other columns kept by position: setdiff() of the names would merge duplicated names
# (dropping columns unsaid) and fail on an empty one, which are for the data doors to judge
# (`[` would also rename duplicates, so the names are put back). A name held by several columns
# is an error naming `arg`, the argument that holds `df`.
fp_drop_column <- function(df, name, what, arg) {
  n <- sum(names(df) == name, na.rm = TRUE)
  if (n > 1L) fp_abort(sprintf("has %d columns named '%s', the %s column; give each column its own name", n, name, what), arg)
  keep <- !(names(df) %in% name)
  out <- df[keep]
  names(out) <- names(df)[keep]
  out
}

# The NA/Inf error of fp_as_matrix() from counts taken elsewhere (the C++ moments pass).
fp_check_nonfinite_counts <- function(n_na, n_inf, arg = "x") {
  if (n_na > 0) fp_abort(sprintf("contains %s missing value(s) (NA/NaN); remove or impute them first", format(n_na)), arg)
  if (n_inf > 0) fp_abort(sprintf("contains %s infinite value(s)", format(n_inf)), arg)
  invisible(TRUE)
}

# A classed error for a group_moments object given to a function that needs the rows.
fp_needs_rows <- function(x, what, arg = "x") {
  if (inherits(x, "group_moments")) {
    fp_abort(sprintf("is a group_moments object, which holds no rows, but %s needs the data rows; give the rows", what), arg)
  }
  invisible(x)
}

# A whole number in [lower, upper] (finite), as an integer; `integer = FALSE` keeps it a double,
# for limits that may exceed the integer range (`upper = Inf`: no upper bound). `infinite = TRUE`
# also takes Inf, returned as is, for a limit whose Inf means none (a largest number of rows).
fp_check_count <- function(k, lower, upper, arg = "k", integer = TRUE, infinite = FALSE) {
  if (missing(k) || is.null(k)) fp_abort("is missing", arg)
  if (infinite && is.numeric(k) && length(k) == 1L && isTRUE(k == Inf)) return(Inf)
  if (!is.numeric(k) || length(k) != 1L || is.na(k) || !is.finite(k) || k != round(k)) {
    fp_abort(if (infinite) "must be a single whole number, or Inf for no limit" else "must be a single whole number", arg)
  }
  if (k < lower || k > upper) {
    fp_abort(if (is.finite(upper)) sprintf("must be between %d and %d, not %s", lower, upper, format(k))
             else sprintf("must be a whole number >= %s, not %s", format(lower), format(k)), arg)
  }
  if (integer) as.integer(k) else as.numeric(k)
}

# A single number in a range (closed unless said otherwise), finite unless `finite = FALSE`
# (for limits where Inf means none: the time limit, a largest number of rows).
fp_check_number <- function(x, arg, lower = -Inf, upper = Inf, open_lower = FALSE, open_upper = FALSE, finite = TRUE) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x)) fp_abort("must be a single number", arg)
  if (finite && !is.finite(x)) fp_abort(sprintf("must be a finite number, not %s", format(x)), arg)
  bad <- (if (open_lower) x <= lower else x < lower) || (if (open_upper) x >= upper else x > upper)
  if (bad) {
    fp_abort(sprintf("must be in %s%s, %s%s, not %s", if (open_lower) "(" else "[", format(lower),
                     format(upper), if (open_upper) ")" else "]", format(x)), arg)
  }
  x
}

# An option that one choice of another argument only uses (`theta` with algorithm = "leverage"),
# given (`given`: the call gave it) with another choice `value` of `option`: a classed error
# naming it, as fp_minmax_check_solver_options() for the min-max solvers, rather than ignored.
fp_check_applies <- function(given, arg, option, value, needed) {
  if (given && !identical(value, needed)) {
    fp_abort(sprintf("applies to %s = \"%s\" only, not to %s = \"%s\"; drop it or set %s = \"%s\"",
                     option, needed, option, value, option, needed), arg)
  }
  invisible(NULL)
}

fp_check_flag <- function(x, arg) {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) fp_abort("must be TRUE or FALSE", arg)
  x
}

# Digits: NULL or a whole number from `lower` to `upper`; NULL gives `null` (the data readers'
# "no rounding"; a print method's default, see fp_print_digits()).
fp_check_digits <- function(digits, lower = 0L, upper = Inf, null = NULL) {
  if (is.null(digits)) return(null)
  if (!is.numeric(digits) || length(digits) != 1L || is.na(digits) || digits != round(digits) ||
      digits < lower || digits > upper) {
    fp_abort(if (is.finite(upper)) sprintf("must be a whole number from %d to %d, or NULL for the default", lower, upper)
             else sprintf("must be NULL or a whole number >= %d", lower), "digits")
  }
  as.integer(digits)
}

# The `digits` of a print() method, checked before anything prints: a whole number from 1 to 22,
# as print.default() takes; NULL gives the method's `default` (that of print.summary.prcomp():
# 3 fewer than getOption("digits"), at least 3).
fp_print_digits <- function(digits, default = max(3L, getOption("digits") - 3L)) {
  fp_check_digits(digits, 1L, 22L, null = default)
}

# A title or axis label of a plot (`main`, `xlab`, `ylab`): one string ("" draws none); NULL
# keeps the plot's own.
fp_check_label <- function(x, arg) {
  if (is.null(x)) return(NULL)
  if (!is.character(x) || length(x) != 1L || is.na(x)) {
    fp_abort("must be a single string (\"\" for none), or NULL for the plot's own", arg)
  }
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

# One choice among `choices` (partial matching as match.arg); the full `choices` vector selects
# the first where it is the default of a formal argument `arg` of a function on the call stack
# (match.arg's rule; a function whose default is one string, such as tidy()'s `matrix`, takes
# no vector). A classed error naming the argument otherwise.
fp_match_arg <- function(x, choices, arg) {
  if (identical(x, choices) && fp_default_choices(choices, arg)) return(choices[1L])
  if (!is.character(x) || length(x) != 1L || is.na(x)) {
    fp_abort(sprintf("must be one of: %s", paste(dQuote(choices, FALSE), collapse = ", ")), arg)
  }
  i <- pmatch(x, choices)
  if (is.na(i)) {
    hits <- if (nzchar(x)) choices[startsWith(choices, x)] else character(0)
    if (length(hits) > 1L) {
      q <- dQuote(hits, FALSE)
      fp_abort(sprintf("'%s' is ambiguous: it abbreviates %s and %s; give more letters", x,
                       paste(q[-length(q)], collapse = ", "), q[length(q)]), arg)
    }
    fp_abort(sprintf("'%s' is not one of: %s", x, paste(dQuote(choices, FALSE), collapse = ", ")), arg)
  }
  choices[i]
}

# Whether a function on the call stack has the formal argument `arg` with default `choices`
# (written as c("a", "b", ...)).
fp_default_choices <- function(choices, arg) {
  for (i in rev(seq_len(sys.nframe() - 1L))) {
    fm <- formals(sys.function(i))
    if (!arg %in% names(fm) || !is.call(fm[[arg]])) next  # (a formal without default is the empty symbol)
    d <- fm[[arg]]
    if (identical(d[[1L]], quote(c)) && identical(tryCatch(eval(d, baseenv()), error = function(e) NULL), choices)) return(TRUE)
  }
  FALSE
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
# Columns in different units. Unscaled PCA follows the columns with the largest variance, so when
# a few columns hold most of the variance because of their units and the user did not choose
# `scale.`, a fit says so once (class fairproj_units_warning). The rule compares each varying
# column's standard deviation with the median one on a log scale (the lower median, so that with
# two columns the smaller is the reference): the columns more than 4 times the median standard
# deviation (16 times its variance) are "large". It warns when the large columns hold more than
# half of the total variance (the leading unscaled components are then about them), or when one
# column is more than 100 times the median standard deviation (its variance leads the first
# component however many columns there are). A spread of standard deviations within a factor of
# 4 of the median is usual in one set of units: iris (cm) reaches 2.3, LFW pixels 1.7. Data in
# different units do not: the README's pbc (alk.phos and chol, 37 and 4.1 times the median, 99.4%
# of the variance), mtcars (disp and hp, 77 and 42 times, 99.7%), USArrests (Assault, 8.9 times,
# 95.6%). Constant columns do not count; variances are about the overall mean, in log2
# so that data of any magnitude compare.
fp_units_large <- 4
fp_units_single <- 100

# Tolerances that more than one file uses, named once (relative, so that data of any magnitude
# are judged alike; the C++ ones are in src/tolerances.h).
# fp_tol_constant: a column whose standard deviation is below this fraction of its mean's
#   magnitude counts as constant (fp_column_scale(), fp_tune_scale()).
# fp_tol_cancel: a difference of traces below this fraction of the trace has lost all but about
#   7 digits to cancellation and is recomputed from a sum of one sign (fp_residual_trace(),
#   fp_group_best()).
# fp_tol_tie: two objective values that differ by less than this fraction of their magnitude
#   (or of 1, a problem being normalised to order one) are tied, the difference being rounding:
#   one counts as better or worse only beyond it (fit_css_greedy()'s two denominators, whether
#   the Pareto descent's start dominates, robust PCA's fallback and oscillation tests and its
#   `converged`).
fp_tol_constant <- 1e-12
fp_tol_cancel <- 1e-8
fp_tol_tie <- 1e-12

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
# time and divided by its largest deviation so that no square leaves double precision. Without
# rows every column counts as constant (the caller's own check says the data have no rows).
fp_log2_colvar_rows <- function(x) {
  vapply(seq_len(ncol(x)), function(j) {
    if (!nrow(x)) return(-Inf)
    v <- x[, j] - mean(x[, j])
    a <- max(abs(v))
    if (!(a > 0)) return(-Inf)
    2 * log2(a) + log2(sum((v / a)^2) / max(length(v) - 1, 1))
  }, numeric(1))
}

# The warning, from the columns' log2 variances `lv` and their names; TRUE when given.
# `fix`: what to do, in the caller's words (a recipe step passes its own).
fp_warn_units <- function(lv, colnames, fix = NULL) {
  ok <- which(is.finite(lv))
  if (length(ok) < 2L) return(invisible(FALSE))
  srt <- sort(lv[ok])
  med <- srt[(length(srt) + 1L) %/% 2L]         # lower median of the log2 variances
  rel <- lv[ok] - med                           # log2 of variance / median variance
  large <- ok[rel > 2 * log2(fp_units_large)]
  top <- ok[which.max(lv[ok])]
  share <- if (length(large)) 1 / sum(2^(lv[ok] - lv[top])) * sum(2^(lv[large] - lv[top])) else 0
  single <- max(rel) > 2 * log2(fp_units_single)
  if (!(share > 0.5 || single)) return(invisible(FALSE))
  if (!length(large)) large <- top
  large <- large[order(-lv[large])]
  # the message names the large columns (up to 3) with their standard deviations relative to the
  # median one, in log10 so that any ratio prints
  times <- function(l10) if (l10 < 6) format(signif(10^l10, 2), big.mark = ",") else
    if (l10 < 300) sprintf("%.1e", 10^l10) else sprintf("about 1e%d", round(l10))
  r10 <- (lv[large] - med) / 2 * log10(2)
  shown <- utils::head(large, 3L)
  named <- paste(sprintf("'%s'", colnames[shown]), collapse = ", ")
  if (length(large) > 3L) named <- sprintf("%s and %d more", named, length(large) - 3L)
  span <- if (length(large) == 1L) times(r10[1L]) else sprintf("%s to %s", times(min(r10)), times(max(r10)))
  if (is.null(fix)) {
    fix <- "use scale. = TRUE if the columns are in different units, or give scale. = FALSE to keep the units (and this warning off)"
  }
  fp_warn(sprintf(paste("column%s %s %s %.1f%% of the total variance, with standard deviation%s %s times the median",
                        "column's, so the unscaled components mostly follow %s units; %s"),
                  if (length(large) > 1L) "s" else "", named, if (length(large) > 1L) "hold" else "holds",
                  floor(1000 * share) / 10, if (length(large) > 1L) "s" else "", span,
                  if (length(large) > 1L) "their" else "its", fix),
          class = "fairproj_units_warning")
  invisible(TRUE)
}

# Scores (a numeric matrix, data.frame or vector) as a double matrix; integer64 values (bit64)
# by value, as the data doors read them (as.matrix() and matrix() would read their bits).
fp_as_scores <- function(scores, arg) {
  if (is.data.frame(scores)) scores <- as.matrix(fp_int64_columns(fp_flatten_df(scores), arg))
  if (inherits(scores, "integer64")) {
    scores <- if (length(dim(scores)) == 2L) fp_int64_matrix(scores, arg) else fp_int64_double(scores)
  }
  if (is.numeric(scores) && is.null(dim(scores))) scores <- matrix(scores, ncol = 1L)
  if (!is.matrix(scores) || !is.numeric(scores)) fp_abort("must be a numeric matrix (one row per observation)", arg)
  if (anyNA(scores) || any(!is.finite(scores))) fp_abort("contains missing or infinite values", arg)
  if (nrow(scores) < 1L || ncol(scores) < 1L) fp_abort("is empty", arg)
  storage.mode(scores) <- "double"
  scores
}

# Binary labels as 0/1: logical, 0/1 numeric, or a factor / character with two values (the
# second level, in factor order, is the positive class). A factor or text of one value is read
# from the value ("0"/"1", "FALSE"/"TRUE"), else refused: its level order says nothing.
fp_as_binary <- function(y, n, arg) {
  if (is.null(y)) fp_abort("is missing", arg)
  y <- fp_int64_value(y)
  if (!is.atomic(y)) fp_abort("must be binary: logical, 0/1, or a factor with two levels", arg)
  if (!length(y)) fp_abort("is empty: give one binary value per row", arg)
  if (length(y) != n) fp_abort(sprintf("has length %d but there are %d rows", length(y), n), arg)
  if (anyNA(y)) fp_abort("contains missing values", arg)
  if (is.logical(y)) return(as.integer(y))
  if (is.numeric(y)) {
    if (!all(y %in% c(0, 1))) fp_abort("must be binary: logical, 0/1, or a factor with two levels", arg)
    return(as.integer(y))
  }
  if (!is.atomic(y) || !(is.character(y) || is.factor(y))) {
    fp_abort("must be binary: logical, 0/1, or a factor with two levels", arg)
  }
  f <- as.factor(y)
  if (nlevels(f) > 2L) fp_abort("must be binary: logical, 0/1, or a factor with two levels", arg)
  if (nlevels(f) == 2L) return(as.integer(as.integer(f) == 2L))
  # one value: which class it is must be read from the value itself, not from its level order
  v <- levels(f)
  if (v %in% c("0", "1")) return(rep(as.integer(v == "1"), n))
  if (toupper(v) %in% c("FALSE", "TRUE")) return(rep(as.integer(toupper(v) == "TRUE"), n))
  fp_abort(sprintf(paste("has the single value '%s', so its class is ambiguous: give a factor with both levels",
                         "(factor(x, levels = c(negative, positive))), 0/1 or logical values"), v), arg)
}
