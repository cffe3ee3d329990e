# Intersectional groups: several sensitive attributes, one value of each per row, become one
# group factor whose levels are the non-empty cells of their cross-classification.

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
#' fit <- fair_pca(iris[, 1:4], data.frame(species = iris$Species, long = iris$Sepal.Length > 5.8),
#'                 k = 2, method = "minmax")
#' fit$group_stats
#' fit$group_margins
#' @export
intersect_groups <- function(..., min_cell = 2L) {
  a <- list(...)
  if (length(a) == 1L && is.list(a[[1L]])) a <- a[[1L]]
  min_cell <- fp_check_count(min_cell, 1L, .Machine$integer.max, "min_cell")
  n <- if (length(a)) length(a[[1L]]) else 0L
  fp_intersect(a, n, "group", min_cell)
}

fp_intersect <- function(group, n, arg = "group", min_cell = 2L) {
  attrs <- as.list(group)
  if (length(attrs) < 1L) fp_abort("has no attributes", arg)
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

# Whether `group` holds several attributes (a data.frame or list with more than one column).
fp_is_multi_group <- function(group) {
  (is.data.frame(group) && ncol(group) > 1L) || (is.list(group) && !is.data.frame(group) && length(group) > 1L)
}

# Per-group statistics of each attribute's margins, merged exactly from the cells' moments.
fp_group_margins <- function(prep, V, k, map = NULL) {
  m <- prep$moments
  cells <- m$cells
  if (is.null(cells) || ncol(cells) < 1L) return(NULL)
  cells <- cells[m$levels, , drop = FALSE]
  parts <- list()
  labels <- data.frame(attribute = character(0), level = character(0), stringsAsFactors = FALSE)
  for (a in names(cells)) {
    for (lv in unique(cells[[a]])) {
      idx <- which(cells[[a]] == lv)
      # merge the cells of this margin into one group (exact: Chan et al.'s update)
      one <- fp_new_moments(m$n[idx[1]], m$mean[, idx[1], drop = FALSE], m$scatter[idx[1]], "g", m$colnames)
      for (i in idx[-1L]) {
        one <- fp_merge_moments(one, fp_new_moments(m$n[i], m$mean[, i, drop = FALSE], m$scatter[i], "g", m$colnames))
      }
      parts[[length(parts) + 1L]] <- one
      labels <- rbind(labels, data.frame(attribute = a, level = lv, stringsAsFactors = FALSE))
    }
  }
  lv <- paste0(labels$attribute, "=", labels$level)
  mm <- fp_new_moments(vapply(parts, function(p) p$n[[1]], numeric(1)),
                       do.call(cbind, lapply(parts, function(p) p$mean)),
                       lapply(parts, function(p) p$scatter[[1]]), lv, m$colnames)
  mm$exponent <- m$exponent
  pm <- fp_prepare_normalised(mm, center = if (prep$centered) prep$center else FALSE,
                              scale. = if (prep$scaled) prep$scale_data else FALSE)
  gs <- fp_stats_units(fp_group_stats(pm, V, k, map = map), pm$unit)
  cbind(labels, gs[, setdiff(names(gs), "group"), drop = FALSE])
}
