# New data for a fitted model: one helper for predict(), reconstruct(), group_errors(),
# variance_explained(), fitted()/residuals() and predict.fair_css().
#
# Rules (as stats::predict.prcomp):
# * a fit from the formula interface rebuilds its model matrix from a raw data.frame through
#   the stored `terms`, `xlevels` and `contrasts` (columns in any order, extra columns ignored;
#   a missing variable or an unseen factor level is a classed error);
# * otherwise, when the fit has column names and `newdata` has column names, columns are matched
#   by name (any order, other columns ignored, as predict.prcomp); missing columns are named in
#   a classed error;
# * when either has no names, columns are taken by position (the counts must agree).
# Rows with NA give NA rows downstream (`allow_na = TRUE`); infinite values are an error; no
# rows give no rows (as predict.prcomp).

# The column names of a fit and whether they were given by the user (a matrix without column
# names gets V1, V2, ... which are not matched by name). Without the record (a fit from group
# moments), names other than V1, V2, ... count as given.
fp_fit_colnames <- function(object) {
  kept <- inherits(object, c("fair_css", "fair_kpca"))  # names in `colnames`, the flag an attribute
  nm <- if (kept) object$colnames else rownames(object$rotation)
  given <- if (kept) attr(object, "colnames_given") else object$colnames_given
  given <- if (!is.null(given)) isTRUE(given) else !identical(nm, paste0("V", seq_along(nm)))
  list(names = nm, given = given)
}

fp_match_newdata <- function(object, newdata, arg = "newdata", allow_na = TRUE) {
  cn <- fp_fit_colnames(object)
  nm <- cn$names
  d <- length(nm)
  if (!is.null(object$terms) && is.data.frame(newdata)) {
    x <- fp_rebuild_model_matrix(object, newdata, arg)
  } else {
    if (is.data.frame(newdata)) newdata <- fp_flatten_df(newdata)
    if (is.data.frame(newdata) || is.matrix(newdata)) {
      newnm <- colnames(newdata)
      if (cn$given && !is.null(newnm) && !all(newnm == "", na.rm = TRUE)) {
        # duplicated or blank names made unique as the fit's were (fp_colnames())
        if (anyDuplicated(newnm) || anyNA(newnm) || any(newnm == "")) {
          newnm <- fp_colnames(newdata)
          colnames(newdata) <- newnm
        }
        miss <- setdiff(nm, newnm)
        if (length(miss)) {
          fp_abort(sprintf("does not have the columns the model was fitted on: missing %s", fp_name_list(miss)),
                   arg, class = "fairproj_newdata_error")
        }
        newdata <- if (is.data.frame(newdata)) newdata[nm] else newdata[, nm, drop = FALSE]
      }
    }
    x <- fp_as_matrix(newdata, arg, min_cols = 1L, allow_nonfinite = TRUE, min_rows = 0L)
  }
  if (ncol(x) != d) {
    fp_abort(sprintf("has %d columns but the model was fitted on %d", ncol(x), d), arg,
             class = "fairproj_newdata_error")
  }
  if (fp_any_infinite(x)) fp_abort(sprintf("contains %d infinite value(s)", sum(is.infinite(x))), arg)
  if (!allow_na && anyNA(x)) {
    fp_abort(sprintf("contains %d missing value(s) (NA/NaN); remove or impute them first", sum(is.na(x))), arg)
  }
  colnames(x) <- nm
  x
}

# The model matrix of a raw data.frame through the terms of a formula fit.
fp_rebuild_model_matrix <- function(object, newdata, arg = "newdata") {
  tt <- stats::delete.response(object$terms)
  vars <- all.vars(tt)
  newdata <- fp_int64_used(newdata, vars, arg)
  miss <- setdiff(vars, names(newdata))
  if (length(miss)) {
    fp_abort(sprintf("lacks variable(s) of the model formula: %s", fp_name_list(miss)), arg,
             class = "fairproj_newdata_error")
  }
  xlev <- object$xlevels
  newdata <- fp_check_newdata_classes(newdata, attr(tt, "dataClasses"), xlev, arg)
  for (v in intersect(names(xlev), names(newdata))) {
    val <- newdata[[v]]
    if (is.factor(val) || is.character(val)) {
      new <- setdiff(unique(as.character(val[!is.na(val)])), xlev[[v]])
      if (length(new)) {
        fp_abort(sprintf("has level(s) of factor '%s' not seen in training: %s", v, fp_name_list(new)), arg,
                 class = c("fairproj_new_level_error", "fairproj_newdata_error"))
      }
    }
  }
  mf <- tryCatch(stats::model.frame(tt, newdata, na.action = stats::na.pass, xlev = xlev),
                 error = function(e) fp_abort(sprintf("cannot be turned into the model's columns: %s",
                                                      conditionMessage(e)), arg,
                                              class = "fairproj_newdata_error"))
  x <- stats::model.matrix(tt, mf, contrasts.arg = object$contrasts)
  attr(x, "assign") <- NULL
  attr(x, "contrasts") <- NULL
  x
}

# The integer64 columns of the data.frame `df` that a formula reads (named in `vars`) as
# doubles (fp_int64_columns(), with its warning for integers of 2^53 or more); the others, such
# as a database's 64-bit row IDs, are left alone and not warned about.
fp_int64_used <- function(df, vars, arg) {
  use <- names(df) %in% vars
  if (any(use)) df[use] <- fp_int64_columns(df[use], arg)
  df
}

# The variables of `newdata` with the types they had in training (`classes`, the terms'
# dataClasses): a numeric column read as text, or a category given as numbers, is an error that
# names the column (model.frame() would expand it into other columns or fail unclassed); a
# column that is all NA takes the training type, giving rows of NA.
fp_check_newdata_classes <- function(newdata, classes, xlev, arg) {
  categorical <- c("factor", "ordered", "character")
  for (v in intersect(names(classes), names(newdata))) {
    was <- classes[[v]]
    val <- newdata[[v]]
    if (all(is.na(val))) {
      newdata[[v]] <- if (was %in% categorical) factor(val, levels = xlev[[v]]) else
        if (was == "logical") as.logical(val) else if (was == "numeric") as.numeric(val) else val
      next
    }
    now <- stats::.MFclass(val)
    if (!(now == was || (now %in% categorical && was %in% categorical))) {
      fp_abort(sprintf("has column '%s' of type %s, but the model was fitted on type %s; convert it",
                       v, now, was), arg, class = "fairproj_newdata_error")
    }
  }
  newdata
}

# The formula interface shared by fair_pca(), fair_css(), tune_fair_pca(), pareto_front():
# evaluates `formula` on `data` (without the group column) through model.frame(), turns factors
# and transformations into a model matrix without intercept (as stats::prcomp.formula), and
# returns the matrix, the group vector and what predict() needs to rebuild the matrix.
# `gexpr` is the unevaluated `group` argument; `env` the caller's frame.
fp_formula_data <- function(formula, data, gexpr, env, subset = NULL, na.action = NULL, min_cols = 1L) {
  if (is.null(data)) fp_abort("is missing: the formula interface needs a data.frame", "data")
  if (!is.data.frame(data)) fp_abort("must be a data.frame", "data")
  if (!inherits(formula, "formula")) fp_abort("must be a formula", "formula")
  if (!nrow(data)) fp_abort("has no rows", "data")
  if (length(formula) != 2L) fp_abort("must have no response (e.g. ~ . or ~ a + b)", "formula")
  if (!is.null(subset)) fp_check_formula_subset(subset, nrow(data))
  if (!is.null(na.action)) fp_check_na_action(na.action, env)
  dot <- "." %in% all.vars(formula)  # the columns are those of `data`
  gname <- NULL
  if (is.name(gexpr) && as.character(gexpr) %in% names(data)) {
    gname <- as.character(gexpr)
    gval <- data[[gname]]
  } else {
    gval <- fp_eval_column(gexpr, data, env, "group")
    if (is.character(gval) && length(gval) == 1L && nrow(data) != 1L) {
      if (!gval %in% names(data)) fp_column_missing_error(gval, data, "group")
      gname <- gval
      gval <- data[[gname]]
    }
  }
  if (is.null(gval)) fp_abort("is missing: give a column of `data` or one label per row", "group")
  if (inherits(gval, "formula")) fp_abort_group_formula(gval, data, "group", "data", unquoted = TRUE)
  # a factor's NA level (addNA()) is a missing label, for `na.action` as any other
  gval <- fp_formula_group_attrs(gval, nrow(data))
  if (is.data.frame(gval)) gval[] <- lapply(gval, fp_na_level) else gval <- fp_na_level(gval)
  if (NROW(gval) != nrow(data)) fp_abort(sprintf("has length %d but `data` has %d rows", NROW(gval), nrow(data)), "group")
  fp_formula_check_names(names(data), formula, gname, dot)
  # by position, not by name: names model.frame() cannot use are refused above only when read
  feats <- if (is.null(gname)) data else data[!(names(data) %in% gname)]
  # integer64 features as doubles; a group column stays integer64, whose labels are exact
  feats <- fp_int64_used(feats, if (dot) names(feats) else all.vars(formula), "data")
  if (!is.null(gname) && gname %in% all.vars(formula[[2L]])) {
    # named in the formula: an error when it is used as a feature; when it is only removed
    # (prcomp's `~ . - group`), the remaining terms, with `.` expanded on the other columns
    tl <- tryCatch(attr(stats::terms(formula, data = data), "term.labels"),
                   error = function(e) fp_abort(sprintf("cannot be read: %s", conditionMessage(e)), "formula"))
    uses <- vapply(tl, function(l) gname %in% all.vars(str2lang(l)), logical(1))
    if (any(uses)) fp_abort(sprintf("uses the group column '%s' as a feature", gname), "formula")
    if (!length(tl)) fp_abort("selects no feature columns", "formula")
    formula <- stats::reformulate(tl, env = environment(formula))
  }
  # several attributes (a data.frame): model.frame() carries their row numbers, NA where a
  # label is missing, so that na.action drops those rows as it drops a single missing label
  multi <- is.data.frame(gval)
  grow <- if (multi) replace(seq_len(nrow(gval)), !stats::complete.cases(gval), NA_integer_)
  args <- list(formula = formula, data = feats, fp_group = if (multi) grow else gval, drop.unused.levels = TRUE)
  if (!is.null(subset)) args$subset <- subset
  # not given: what model.frame() would apply, the data's own na.action (a non-numeric
  # attribute) or else R's option; no guard when that is nothing model.frame() can call
  naa <- na.action
  if (is.null(naa)) {
    naa <- attr(data, "na.action")
    if (is.null(naa) || is.numeric(naa)) naa <- getOption("na.action")
  }
  if (fp_is_na_action(naa, env)) {
    args$na.action <- fp_na_action_guard(naa, env, given = !is.null(na.action))
  }
  mf <- tryCatch(do.call(stats::model.frame, args), error = function(e) {
    if (inherits(e, "fairproj_error")) stop(e)  # the na.action's own refusal, named by the guard
    fp_abort(sprintf("cannot be evaluated on `data`: %s", conditionMessage(e)), "formula")
  })
  if (!nrow(mf)) {
    fp_abort(sprintf("has no complete rows: every row%s has a missing value, and na.action drops them all; impute them or leave out the columns with missing values",
                     if (is.null(subset)) "" else " that `subset` keeps"), "data")
  }
  gcol <- if (multi) `rownames<-`(gval[mf[["(fp_group)"]], , drop = FALSE], NULL) else mf[["(fp_group)"]]
  mt <- attr(mf, "terms")
  if (!is.null(attr(mt, "offset"))) {
    # model.matrix() leaves offsets out: a projection has no use for them, so say so
    fp_abort("has offset() term(s), which a projection cannot use; remove them or add the column as a term", "formula")
  }
  attr(mt, "intercept") <- 0L
  bad <- vapply(mf[setdiff(names(mf), "(fp_group)")], function(v) {
    !(is.numeric(v) || is.logical(v) || is.factor(v) || is.character(v))
  }, logical(1))
  if (any(bad)) {
    fp_abort(sprintf("selects column(s) that are neither numeric nor categorical: %s",
                     fp_name_list(names(bad)[bad])), "formula")
  }
  fp_formula_text_check(mf[setdiff(names(mf), "(fp_group)")])
  x <- tryCatch(stats::model.matrix(mt, mf),
                error = function(e) fp_abort(sprintf("cannot be expanded into columns: %s", conditionMessage(e)), "formula"))
  if (ncol(x) < min_cols) {
    # `~ .`: `data` has too few columns; otherwise the formula selects too few
    fp_abort(sprintf("%s %d feature column%s%s; at least %d are needed", if (dot) "has" else "selects", ncol(x),
                     if (ncol(x) == 1L) "" else "s", if (dot && !is.null(gname)) " besides the group column" else "",
                     min_cols), if (dot) "data" else "formula")
  }
  ctr <- attr(x, "contrasts")
  attr(x, "assign") <- NULL
  attr(x, "contrasts") <- NULL
  dropped <- fp_formula_dropped(attr(mf, "na.action"), gval, subset, is.null(na.action))
  list(x = x, group = gcol, group_name = gname, terms = mt, xlevels = stats::.getXlevels(mt, mf),
       contrasts = ctr, na.action = attr(mf, "na.action"), dropped = dropped)
}

# The group of a formula door given as several attributes: a list of vectors with one value per
# row each becomes a data.frame (as a data.frame is taken); a list of one label per row (a list
# column), or of vectors of other lengths, is an error naming `group` (model.frame() would blame
# the formula). Other values unchanged.
fp_formula_group_attrs <- function(gval, n) {
  if (inherits(gval, "POSIXlt")) fp_abort("must be a factor, character, integer or logical vector, not 'POSIXlt'", "group")
  if (!is.list(gval) || is.data.frame(gval)) return(gval)
  if (length(gval) && all(lengths(gval) == n) && all(vapply(gval, function(v) is.null(dim(v)), logical(1)))) {
    nm <- names(gval)
    if (is.null(nm)) nm <- rep("", length(gval))
    nm[is.na(nm) | nm == ""] <- paste0("attr", which(is.na(nm) | nm == ""))
    return(structure(gval, names = make.unique(nm), row.names = .set_row_names(n), class = "data.frame"))
  }
  if (n > 1L && length(gval) == n && all(lengths(gval) == 1L)) {
    fp_abort(sprintf("is a list of %d single values: give the labels as a vector (unlist() it), or a list of attributes with one value per row each", n), "group")
  }
  fp_abort(sprintf("is a list whose elements have lengths %s, but `data` has %d rows: give one label per row, or a data.frame or list of attributes with one value per row each",
                   paste(utils::head(unique(lengths(gval)), 5), collapse = ", "), n), "group")
}

# The names of `data` (`nm`) at a formula door: model.frame() reads a column by its name, so a
# name that appears more than once (the first column would be read for every one of them, the
# others dropped without a word) or an empty one (no column can be selected by it) is an error
# naming `data` when the formula reads it: every column for `.` (`dot`), otherwise the
# formula's variables and the group column `gname`.
fp_formula_check_names <- function(nm, formula, gname, dot) {
  nm[is.na(nm)] <- ""
  used <- if (dot) nm else intersect(nm, c(all.vars(formula), gname))
  dup <- unique(nm[duplicated(nm) & nzchar(nm) & nm %in% c(used, gname)])
  if (length(dup)) {
    fp_abort(sprintf("has column name(s) that appear more than once: %s; give each column its own name (e.g. names(data) <- make.unique(names(data)))",
                     fp_name_list(sprintf("'%s'", dup))), "data")
  }
  blank <- which(!nzchar(nm))
  if (dot && length(blank)) {
    fp_abort(sprintf("has %d column(s) without a name (column %s), which `~ .` cannot read; name them or leave them out",
                     length(blank), paste(utils::head(blank, 5), collapse = ", ")), "data")
  }
  invisible()
}

# Text and factor columns of a formula's model frame `mf` (without the group), before they
# become indicator columns. A character column whose values all read as numbers ("1.5",
# "1,234", fp_text_is_numbers()) is an error, as in the data.frame door: each distinct value
# would become an indicator column. A factor or character column with more levels than the
# formula has columns, and more than 10, warns once (class fairproj_indicators_warning): its
# indicators would outnumber the other columns and lead the components; a factor whose levels
# read as numbers is said to be one.
fp_formula_text_check <- function(mf) {
  cat_cols <- names(mf)[vapply(mf, function(v) is.character(v) || is.factor(v), logical(1))]
  if (!length(cat_cols)) return(invisible())
  num <- fp_text_number_columns(mf[cat_cols])
  if (length(num)) {
    fp_abort(sprintf(paste("holds numbers stored as text in column(s) %s (e.g. \"%s\"), which would become one indicator",
                           "column per distinct value; convert them with as.numeric() or readr::parse_number(), or with",
                           "factor() if they are categories"),
                     fp_name_list(num), trimws(utils::head(stats::na.omit(mf[[num[1L]]]), 1L))),
             "data", class = "fairproj_text_numbers_error")
  }
  nlev <- vapply(mf[cat_cols], function(v) {
    if (is.factor(v)) nlevels(v) else length(unique(v[!is.na(v)]))
  }, numeric(1))
  many <- cat_cols[nlev > max(ncol(mf), 10)]
  if (!length(many)) return(invisible())
  num <- fp_text_number_columns(mf[many], factors = TRUE)
  fp_warn(sprintf(paste("column(s) %s expand into %s indicator columns, more than the %d column(s) the formula",
                        "selects, so the components mostly follow them; %s"),
                  fp_name_list(many), paste(nlev[many], collapse = " + "), ncol(mf),
                  if (length(num)) {
                    sprintf("%s hold numbers stored as text: convert them with as.numeric(as.character()) or readr::parse_number()",
                            fp_name_list(num))
                  } else {
                    "if so many categories are meant, lump the rare ones (e.g. forcats::fct_lump_n()) or leave the column(s) out"
                  }),
          class = "fairproj_indicators_warning")
  invisible()
}

# Rows a formula door dropped through `na.action` (`omit`, the model frame's attribute), of the
# rows of `data` that `subset` keeps: list(total, group = those with a missing group label, features = the
# others), NULL when none. When `na.action` was not given (`say`), a classed message says how
# many, once (class fairproj_dropped_rows_message); the matrix door refuses such rows.
fp_formula_dropped <- function(omit, gval, subset, say) {
  if (!length(omit)) return(NULL)
  gmiss <- if (is.data.frame(gval)) !stats::complete.cases(gval) else is.na(gval)
  if (!is.null(subset)) gmiss <- gmiss[subset]
  ng <- min(sum(gmiss, na.rm = TRUE), length(omit))
  res <- list(total = length(omit), group = ng, features = length(omit) - ng)
  if (say) {
    parts <- c(if (ng) sprintf("%d with a missing group label", ng),
               if (res$features) sprintf("%d with missing feature values", res$features))
    fp_inform(sprintf(paste("dropped %d of %d rows (%s) through na.action = %s; give `na.action` to choose",
                            "(na.exclude pads the scores with NA rows, na.fail refuses them)"),
                      res$total, length(gmiss), paste(parts, collapse = " and "),
                      if (inherits(omit, "exclude")) "na.exclude" else "na.omit"),
              class = "fairproj_dropped_rows_message")
  }
  res
}

# `formula` without the column `name`, which must not be a feature (`what`: "outcome"): removing
# it (`~ . - y`) is allowed, using it in a term is an error. `.` stays unexpanded, for
# model.frame() to expand on the data without that column.
fp_formula_drop <- function(formula, name, what) {
  tl <- tryCatch(attr(stats::terms(formula, allowDotAsName = TRUE), "term.labels"),
                 error = function(e) fp_abort(sprintf("cannot be read: %s", conditionMessage(e)), "formula"))
  uses <- vapply(tl, function(l) name %in% all.vars(str2lang(l)), logical(1))
  if (any(uses)) fp_abort(sprintf("uses the %s column '%s' as a feature", what, name), "formula")
  if (!length(tl)) fp_abort("selects no feature columns", "formula")
  stats::reformulate(tl, env = environment(formula))
}

# Store what predict() needs in a fit from the formula interface.
fp_formula_attach <- function(fit, fd, call) {
  fit$call <- call
  fit$terms <- fd$terms
  fit$xlevels <- fd$xlevels
  fit$contrasts <- fd$contrasts
  fit$group_name <- fd$group_name
  if (!is.null(fd$na.action)) {
    # as prcomp.formula: with na.exclude the scores are padded with NA rows for the rows left
    # out, so that fit$x, predict(fit) and fitted(fit) line up with `data`
    fit$na.action <- fd$na.action
    # [["x"]]: `$x` would partially match `xlevels` in a fit without scores
    if (!is.null(fit[["x"]])) fit$x <- stats::napredict(fd$na.action, fit[["x"]])
  }
  fit
}

# The `subset` of a formula method (evaluated): a logical or numeric index vector of the rows of
# `data` (as model.frame() takes it) that keeps at least one row.
fp_check_formula_subset <- function(subset, n) {
  if (!(is.logical(subset) || is.numeric(subset)) || is.object(subset) || !is.null(dim(subset))) {
    fp_abort(sprintf("must be a logical or numeric index vector of the rows of `data`, not an object of class '%s'",
                     class(subset)[1L]), "subset")
  }
  rows <- seq_len(n)[subset]
  if (!length(rows) || all(is.na(rows))) fp_abort("selects no rows", "subset")
  invisible(subset)
}

# Whether `na.action` is something model.frame() can call: a function, or the name of one
# looked up from `env`.
fp_is_na_action <- function(na.action, env) {
  is.function(na.action) ||
    (is.character(na.action) && length(na.action) == 1L && !is.na(na.action) &&
       exists(na.action, envir = env, mode = "function"))
}

# The `na.action` of a formula method: a function, or the name of one (as model.frame() takes
# it), looked up from `env`.
fp_check_na_action <- function(na.action, env) {
  if (!fp_is_na_action(na.action, env)) fp_abort("must be a function or a function's name such as \"na.omit\"", "na.action")
  invisible(na.action)
}

# A checked `na.action` (a function or its name, looked up from `env`) as the function that
# model.frame() calls on the model frame. An error it raises (na.fail() on a row with a missing
# value) is a classed error naming `na.action`, with its own message, rather than one about
# `formula`, which could be evaluated. `given = FALSE`: the data's or R's option's na.action (the
# error says so).
fp_na_action_guard <- function(na.action, env, given = TRUE) {
  f <- if (is.function(na.action)) na.action else get(na.action, envir = env, mode = "function")
  function(object, ...) {
    tryCatch(f(object, ...), error = function(e) {
      n_na <- if (is.data.frame(object)) sum(!stats::complete.cases(object)) else 0L
      if (n_na > 0L) {
        fp_abort(sprintf(paste("%srefused the %d row(s) of %d with missing values (%s); give na.action = na.omit to",
                               "drop them, or impute them first"), if (given) "" else "(not given: the data's or R's option) ",
                         n_na, nrow(object), conditionMessage(e)), "na.action")
      }
      fp_abort(sprintf("failed on the model frame: %s", conditionMessage(e)), "na.action")
    })
  }
}
