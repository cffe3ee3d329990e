# Group encoding: a group vector (or several attributes) as a checked factor. Intersectional
# groups: several sensitive attributes, one value of each per row, become one group factor
# whose levels are the non-empty cells of their cross-classification.

#' Intersectional groups from several attributes
#'
#' Every function that takes `group` accepts several attributes at once: a data.frame or a list
#' of vectors (one value per row each, e.g. `data.frame(sex, race)`). The groups are then the
#' non-empty cells of their cross-classification (levels named `"F:White"`, attributes in the
#' order given; a value that contains `":"` or `"` is written in double quotes, so that labels of
#' different cells never coincide); empty cells are dropped. Every cell must have at least `min_cell` rows (2 by
#' default, so that each cell has a covariance), otherwise a classed error names the small cells:
#' merge levels or use fewer attributes. Fits keep the attribute values of each cell, and
#' [fair_pca()] adds `group_margins`: the per-group table of each attribute's margins (e.g. all
#' women, all men), computed exactly from the cells' moments.
#'
#' @param ... Attributes (vectors of equal length), or one data.frame or list of them.
#' @param min_cell Smallest allowed number of rows in a non-empty cell.
#' @return A factor (one level per non-empty cell) with attribute `"cells"`, a data.frame of the
#'   attribute values of each level.
#' @seealso [fair_pca()], [group_moments()].
#' @examples
#' g <- intersect_groups(sex = rep(c("F", "M"), 6), band = rep(c("young", "old", "old"), 4))
#' table(g)
#' attr(g, "cells")
#' if (requireNamespace("survival", quietly = TRUE)) {
#'   pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#'   # sex and age band: every non-empty cell is a group
#'   fit <- fair_pca(pbc2[2:6], data.frame(sex = pbc2$sex, older = pbc2$age > 50),
#'                   k = 2, method = "minmax", scale. = TRUE)
#'   fit$group_stats
#'   fit$group_margins
#' }
#' @export
intersect_groups <- function(..., min_cell = 2L) {
  a <- list(...)
  if (length(a) == 1L && is.list(a[[1L]]) && !inherits(a[[1L]], "POSIXlt")) a <- a[[1L]]
  min_cell <- fp_check_count(min_cell, 1L, .Machine$integer.max, "min_cell")
  if (!length(a)) {
    fp_abort("is empty: give the attributes (vectors of one value per row, or one data.frame or list of them)", "...")
  }
  fp_intersect(a, length(a[[1L]]), "...", min_cell)
}

# The group factor of several attributes `group` (a data.frame or list, n values each), with
# attribute "cells"; errors name `arg`, the caller's argument that holds them (`group` of the
# fitting functions, `...` of intersect_groups()).
fp_intersect <- function(group, n, arg = "group", min_cell = 2L) {
  attrs <- as.list(group)
  if (length(attrs) < 1L) fp_abort("has no attributes", arg)
  # a list of one label per row (as.list() of a vector) is not a list of attributes
  if (n > 1L && length(attrs) == n && all(lengths(attrs) == 1L)) {
    fp_abort(sprintf("is a list of %d single values: give the labels as a vector (unlist() it), or a list of attributes with one value per row each", n), arg)
  }
  nm <- names(attrs)
  if (is.null(nm)) nm <- rep("", length(attrs))
  nm[is.na(nm) | nm == ""] <- paste0("attr", which(is.na(nm) | nm == ""))
  names(attrs) <- make.unique(nm)
  fs <- lapply(names(attrs), function(a) {
    v <- attrs[[a]]
    what <- sprintf("has attribute '%s' that", a)
    if (!(is.factor(v) || is.character(v) || is.numeric(v) || is.logical(v)) || !is.null(dim(v))) {
      fp_abort(sprintf("%s is not a factor, character, integer or logical vector", what), arg)
    }
    if (length(v) != n) fp_abort(sprintf("%s has length %d, not %d (one value per row)", what, length(v), n), arg)
    v <- fp_na_level(v)
    if (anyNA(v)) fp_abort(sprintf("%s contains %d missing value(s)", what, sum(is.na(v))), arg)
    if (is.numeric(v) && any(v != round(v))) {
      fp_abort(sprintf("%s is numeric with non-integer values; cut() it into groups", what), arg)
    }
    fp_group_factor(v)
  })
  names(fs) <- names(attrs)
  g <- if (length(fs) == 1L) fs[[1L]] else fp_cells_factor(fs)
  sizes <- tabulate(g, nlevels(g))
  if (any(sizes < min_cell)) {
    small <- levels(g)[sizes < min_cell]
    fp_abort(sprintf("has %d intersection cell(s) with fewer than %d rows (%s); merge levels or use fewer attributes",
                     length(small), min_cell, paste(utils::head(shQuote(small), 5), collapse = ", ")), arg)
  }
  first <- match(levels(g), g)
  cells <- as.data.frame(lapply(fs, function(f) as.character(f[first])), stringsAsFactors = FALSE,
                         optional = TRUE)
  rownames(cells) <- levels(g)
  attr(g, "cells") <- cells
  g
}

# The cells of several factors as one factor, in lexical order of the attributes' levels. Cells
# are identified by the attributes' integer codes, never by pasted labels, so distinct cells stay
# distinct whatever the values; the labels join the values with ":", and a value that holds a
# ":" or a double quote (or is empty) is written in double quotes with escapes
# (encodeString()), so that labels cannot collide either: ("a:b", "c") is `"a:b":c`, and
# ("a", "b:c") is `a:"b:c"`.
fp_cells_factor <- function(fs) {
  codes <- lapply(fs, as.integer)
  ord <- do.call(order, unname(codes))
  first <- ord[!duplicated(do.call(paste, c(unname(lapply(codes, function(cd) cd[ord])), sep = ".")))]
  key <- do.call(paste, c(unname(codes), sep = "."))
  id <- match(key, key[first])
  label <- function(f) {
    v <- levels(f)
    q <- grepl("[:\"]", v) | v == ""
    v[q] <- encodeString(v[q], quote = "\"")
    v[as.integer(f)]
  }
  labs <- do.call(paste, c(unname(lapply(fs, function(f) label(f)[first])), sep = ":"))
  factor(labs[id], levels = labs)
}

# Whether `group` holds several attributes (a data.frame or list with more than one column). A
# POSIXlt vector is a list of its fields, not of attributes: it is refused as a date-time.
fp_is_multi_group <- function(group) {
  (is.data.frame(group) && ncol(group) > 1L) ||
    (is.list(group) && !is.data.frame(group) && !inherits(group, "POSIXlt") && length(group) > 1L)
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

# Labels of numbers read from text `txt` (a file's group column; `v` = as.numeric(txt)): those
# of fp_num_labels(), except for whole numbers written in digits that a double does not hold
# exactly (beyond 2^53, such as 64-bit IDs), which keep their digits (without a "+" or leading
# zeros), as integer64 labels do: distinct IDs stay distinct groups rather than merging into
# the one double they round to.
fp_text_num_labels <- function(txt, v) {
  lab <- fp_num_labels(v)
  big <- which(abs(v) >= 2^53)
  big <- big[grepl("^\\s*[-+]?[0-9]+\\s*$", txt[big])]
  if (!length(big)) return(lab)
  t <- trimws(txt[big])
  digits <- sub("^0+(?=[0-9])", "", sub("^[-+]", "", t), perl = TRUE)
  inexact <- digits != sprintf("%.0f", abs(v[big]))
  lab[big[inexact]] <- paste0(ifelse(startsWith(t, "-"), "-", ""), digits)[inexact]
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
  if (is.factor(v)) return(fp_factor_used(v))
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
  fast <- if (is.factor(group)) fp_group_factor_coded(group, arg) else fp_group_coded(group, arg)
  if (!is.null(fast)) return(fp_check_group_sizes(fast$g, fast$sizes, arg, min_levels, min_size, cells))
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
  if (fp_group_continuous(group)) {
    fp_abort("is numeric with non-integer values: a continuous attribute is not a group; cut() it into groups", arg)
  }
  g <- fp_group_factor(group)
  fp_check_group_sizes(g, tabulate(g, nlevels(g)), arg, min_levels, min_size, cells)
}

# TRUE for numeric group labels with a non-integer value: a continuous attribute, refused by
# every door (in memory, files whose group column reads as numbers, databases whose group column
# is numeric) with the same words. `v`: the labels, or their distinct values.
fp_group_continuous <- function(v) {
  is.numeric(v) && !is.integer(v) && any(is.finite(v) & v != round(v))
}

# The error of fp_group_continuous() at a file or database door: the column, one such value and
# where to cut it (`fix`).
fp_abort_group_continuous <- function(group, v, fix) {
  z <- v[is.finite(v) & v != round(v)][1L]
  fp_abort(sprintf("names column '%s', which holds numbers with non-integer values (e.g. %s): a continuous attribute is not a group; cut() it into groups %s",
                   group, format(z, digits = 15L), fix), "group", class = "fairproj_source_error")
}

fp_check_group_sizes <- function(g, sizes, arg, min_levels, min_size, cells = NULL) {
  if (nlevels(g) < min_levels) {
    fp_abort(sprintf("must have at least %d %s with data, has %d%s", min_levels,
                     if (min_levels == 1L) "group (level)" else "groups (levels)", nlevels(g),
                     if (!length(g)) " (there are no rows)" else ""), arg)
  }
  if (any(sizes < min_size)) {
    small <- levels(g)[sizes < min_size]
    fp_abort(sprintf("group(s) %s have fewer than %d rows", paste(shQuote(small), collapse = ", "), min_size), arg)
  }
  if (!is.null(cells)) attr(g, "cells") <- cells[levels(g), , drop = FALSE]
  g
}

# The group factor of plain character, integer or logical labels from one compiled pass
# (.fp_group_codes(): codes by first appearance, the distinct labels and their counts), with the checks of
# fp_as_group() (missing and empty labels) made on the few distinct labels and their counts;
# list(g, sizes), or NULL for other labels or when two distinct strings differ only in their
# encoding (which match() and unique() treat as one label: the general route then merges them).
# The levels and codes are those of fp_group_factor().
fp_group_coded <- function(group, arg) {
  if (is.object(group) || !(is.character(group) || is.integer(group) || is.logical(group))) return(NULL)
  r <- fp_cpp(.fp_group_codes(group), "the group coding")
  u <- r$uniq
  if (is.character(u) && anyDuplicated(enc2utf8(u))) return(NULL)
  counts <- r$counts
  na <- which(is.na(u))
  if (length(na)) fp_abort(sprintf("contains %d missing value(s)", counts[na]), arg)
  if (is.character(u) && any(!nzchar(u))) {
    e <- which(!nzchar(u))
    fp_abort(sprintf("contains %d empty label(s) (\"\", first in row %d), which files and databases read as missing; give those rows a label or drop them",
                     counts[e], which(r$codes == e)[1L]), arg)
  }
  ord <- order(u)  # factor()'s order of the levels (the locale's collation for strings)
  codes <- r$codes
  if (!identical(ord, seq_along(u))) {
    perm <- integer(length(u))
    perm[ord] <- seq_along(u)
    # in place: `codes` is the coding's own new vector, shared with nothing but `r`
    fp_cpp(.fp_group_recode_inplace(codes, perm), "the group coding")
  }
  g <- structure(codes, levels = as.character(u[ord]), names = names(group), class = "factor")
  list(g = g, sizes = counts[ord])
}

# A factor's codes and group sizes from one tabulate() of its codes, with the checks of
# fp_as_group() (missing values, counted as the rows tabulate() leaves out, then empty labels)
# and the factor fp_group_factor() gives (unused levels dropped); about a third of the time of
# the general route at a million rows, where the coding is a share of the fit (#36).
fp_group_factor_coded <- function(group, arg) {
  group <- fp_na_level(group)
  lv <- levels(group)
  counts <- tabulate(group, length(lv))
  n_na <- length(group) - sum(counts)
  if (n_na > 0) fp_abort(sprintf("contains %d missing value(s)", n_na), arg)
  empty <- which(lv == "")
  if (length(empty) && any(counts[empty] > 0L)) {
    fp_abort(sprintf("contains %d empty label(s) (\"\", first in row %d), which files and databases read as missing; give those rows a label or drop them",
                     sum(counts[empty]), which(as.integer(group) %in% empty)[1L]), arg)
  }
  list(g = fp_factor_used(group, counts), sizes = counts[counts > 0L])
}

# A factor with its unused levels dropped (`counts`: the rows per level, when known), with only
# its levels, names and class kept.
fp_factor_used <- function(v, counts = tabulate(v, nlevels(v))) {
  codes <- as.integer(v)
  lv <- levels(v)
  used <- counts > 0L
  if (!all(used)) {
    codes <- cumsum(used)[codes]
    lv <- lv[used]
  }
  structure(codes, levels = lv, names = names(v), class = if (is.ordered(v)) c("ordered", "factor") else "factor")
}

# `x` and `group` with a `group` that names a column of the data.frame `x` (one string) taken
# out of `x` as the group labels, as in group_moments(iris, "Species"); otherwise unchanged.
# `expr` is the door's substitute(group), for the error when `group` cannot be evaluated.
# Two mistakes are caught here, before `x` is read (whose check would blame its group column):
# a formula (`~ G`) and strings naming columns of `x` that are not one label per row
# (c("G", "G")).
fp_group_column <- function(x, group, arg = "group", expr = NULL) {
  group <- fp_force_column(group, expr, x, arg, "x")
  if (inherits(group, "formula")) fp_abort_group_formula(group, x, arg, "x")
  if (is.data.frame(x) && is.character(group) && length(group) == 1L && !is.na(group) && nrow(x) != 1L) {
    if (!group %in% names(x)) fp_column_missing_error(group, x, arg, "x")
    # the other columns keep duplicated or empty names, which the data door makes unique (a,
    # a.1, V1) as it does without a group column
    return(list(x = fp_drop_column(x, group, "group", "x"), group = x[[group]]))
  }
  if (is.matrix(x) && is.character(group) && length(group) == 1L && nrow(x) != 1L && group %in% colnames(x)) {
    # a matrix's column is not taken out as a data.frame's is: say so, rather than "length 1"
    fp_abort(sprintf("names column '%s' of the matrix `x`, but only a data.frame's group column is taken out of the features; give as.data.frame(x), or the labels x[, \"%s\"] and the other columns",
                     group, group), arg)
  }
  if (is.data.frame(x) && is.character(group) && is.null(dim(group)) && length(group) != nrow(x)) {
    named <- unique(group[!is.na(group) & group %in% names(x)])
    if (length(named)) {
      fp_abort(sprintf("has length %d but `x` has %d rows, and it names column(s) of `x` (%s): give one label per row, or the name of the group column once (%s = \"%s\"), which takes it out of the features%s",
                       length(group), nrow(x), fp_name_list(sprintf("'%s'", named)), arg, named[1L],
                       if (length(named) > 1L) sprintf("; for groups from several columns give them as a data.frame (%s = x[c(%s)]) and drop them from `x`",
                                                       arg, paste(sprintf("\"%s\"", named), collapse = ", ")) else ""), arg)
    }
  }
  list(x = x, group = group)
}

# The error for a formula given as `group` (`group = ~ G`): a group is labels, one per row, or
# the name of a column of the data; the message names the column(s) the formula points at when
# `data` has them. `data_arg` names `data` in the message; `unquoted`: the door also takes a bare
# column name (the formula doors, group_errors()), whereas the default doors take a string.
fp_abort_group_formula <- function(group, data, arg = "group", data_arg = "x", unquoted = FALSE) {
  vars <- all.vars(group)
  hit <- if (is.data.frame(data)) vars[vars %in% names(data)] else character(0)
  how <- if (length(hit) == 1L && unquoted) {
    sprintf("name the group column without a formula, unquoted or as a string (%s = %s or %s = \"%s\")", arg, hit, arg, hit)
  } else if (length(hit) == 1L) {
    sprintf("to take column '%s' of `%s` as the group, give its name as a string (%s = \"%s\"), which takes it out of the features",
            hit, data_arg, arg, hit)
  } else if (length(hit) > 1L) {
    sprintf("for groups from several columns of `%s`, give them as a data.frame (%s = %s[c(%s)])%s",
            data_arg, arg, data_arg, paste(sprintf("\"%s\"", hit), collapse = ", "),
            if (unquoted) "" else sprintf(" and drop them from `%s`", data_arg))
  } else if (is.data.frame(data)) {
    sprintf("give one label per row, or the name of a column of `%s` as a string", data_arg)
  } else {
    "give one label per row (a vector)"
  }
  fp_abort(sprintf("is a formula (%s), which is not a group: %s", paste(deparse(group, width.cutoff = 500L), collapse = " "), how), arg)
}
