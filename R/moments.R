#' Per-group sufficient statistics in one pass over the data
#'
#' Computes, for each group, the number of rows, the column means and the centred
#' cross-product (scatter) matrix `sum((x - mean) (x - mean)')`, in one pass over the rows in
#' C++ (no copy of the data). Every method of the package works from these moments, so a fit
#' costs this pass plus work on d x d matrices. Moments are additive: the moments of row chunks
#' combine with `c()` or `+` into exactly the moments of the stacked data, so data that do not
#' fit in memory (files read in chunks, database tables) can be processed piece by piece (other
#' operators such as `-`, `*` and `==`, maths such as sqrt() and summaries such as sum() are errors of
#' class `fairproj_input_error`: compute the moments of a subset of rows from those rows). The
#' levels of a merge come in sorted order, as `as.factor()` sorts labels (numbers as numbers),
#' whatever the order of the pieces; pieces that all have the same levels in the same order (chunks
#' of one factor) keep that order.
#'
#' The scatter is accumulated about each group's own mean, so columns with a large offset
#' relative to their spread (e.g. `1e8 + rnorm(n)`) lose no accuracy in the scatter (the means
#' are doubles, so a difference between two groups' means is known to about 1e-16 times their
#' offset: see "Units" in [fair_pca()]); uncentred cross-products
#' follow exactly (see [moments_crossprod()]). On large data (n d^2 / 2 of 5e7 and more) whose
#' columns are mostly zero in every group (one-hot codes of factors, counts), those columns are
#' summed over their non-zero entries instead, uncentred and with compensated sums, at the cost
#' of their non-zeros rather than d^2 per row; a column with at most half of a group's entries
#' non-zero loses at most one bit to the correction for its mean, so the moments are the same
#' to rounding.
#'
#' Other sources have their own methods and help pages: database and Spark tables
#' ([group_moments_db]), CSV files read in chunks and lists of sources ([group_moments_files]),
#' sparse matrices ([group_moments_sparse]); anything else can build the object from counts,
#' means and centred scatter matrices with [new_group_moments()].
#'
#' Missing and infinite values are an error; they are counted in the same C++ pass, so
#' validation makes no copy of the data.
#'
#' @section Threads:
#' The pass over the rows of a matrix in memory can run on several threads (OpenMP):
#' `threads = 2`, or `options(fairproj.threads = 2)` for every call, including those that
#' [fair_pca()], [fair_css()] and [fair_audit()] make. Each thread takes a contiguous range of
#' the rows, with its own buffers and its own d x d accumulators per group (so `threads - 1`
#' more times `m d^2` doubles of memory), and the pieces are added in a fixed order: a given
#' number of threads gives the same moments every time, and different numbers agree to the last
#' digits (rounding). Threads serve long passes of dense data (n d^2 / 2 of 5e7 products and
#' more, some 10 ms and up); shorter passes and data whose columns are mostly zero run one
#' thread. More threads than the cores OpenMP sees (or `OMP_THREAD_LIMIT`) are not started, and
#' a build without OpenMP runs one thread. Inside the threads the BLAS runs one thread per
#' thread of the pass (OpenBLAS's own threads are set to one for the pass and restored after),
#' so threads are never multiplied.
#'
#' The default is one thread, as it was: results then do not depend on the machine, and
#' fairproj takes no cores that a user's own parallel loop (`parallel`, `future`) or other
#' processes hold. With two threads the pass is 1.6-2 times as fast where the cores are free
#' (`bench/floor.md`).
#'
#' @param x A numeric matrix or data.frame (rows are observations); for `c()`, `+` and
#'   `print()`, a `group_moments` object.
#' @param group Group labels, one per row: a factor, character, integer or logical vector. For
#'   a data.frame `x`, also the name of one of its columns (which is then not a feature).
#'   Missing labels (`NA`, also rows of a factor's `NA` level from [addNA()]) and empty labels
#'   (`""`) are an error of class `fairproj_input_error`, in memory as in files and databases,
#'   which cannot tell an empty field from a missing one. Distinct numbers are distinct groups,
#'   labelled with 15 significant digits, or 16 or 17 where 15 do not give the value back.
#' @param ... For `c()`, further `group_moments` objects. Not used by the other methods here: an
#'   argument given there (a misspelt option) is an error of class `fairproj_input_error`.
#' @param columns For a data.frame `x`: the feature columns (character), as for files and
#'   database tables; `NULL` for all its columns but the group column.
#' @param block Rows per buffered block of the Gram kernel (a tuning parameter); `NULL` sizes
#'   the buffers to about 256 KB (thousands of rows when there are few columns).
#' @param threads Threads of the row pass: a whole number from 1 to 1024, or `NULL` (the
#'   default) for the option `fairproj.threads`, which is 1 unless set. See Threads.
#' @param blocks Optional number of blocks (10 to 1000) per group whose moments are kept as
#'   well, for the intervals of [fair_audit()]: rows are assigned to blocks by a hash of their
#'   row number in the same pass. `c()` and `+` add the blocks of the same number when every
#'   object carries blocks of the same count, and drop them otherwise.
#' @return An object of class `group_moments`: a list with `n` (named group sizes), `mean`
#'   (d x m matrix of group means, one column per group), `scatter` (list of d x d centred
#'   cross-product matrices, one per group), `levels` and `colnames`; with `blocks`, also
#'   `blocks`: per group, the sizes, means (d x J), scatter matrices (d^2 x J, one per
#'   column) and numbers (`id`, in 1 to `blocks`) of its J non-empty blocks, and
#'   `block_count` (the `blocks` asked for).
#' @seealso [moments_mean()], [moments_cov()], [moments_best_error()], [fair_pca()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' x <- as.matrix(pbc2[1:6])
#' m <- group_moments(x, pbc2$sex)
#' m
#' # chunks combine into the moments of all rows
#' half <- seq_len(200)
#' m2 <- group_moments(x[half, ], pbc2$sex[half]) + group_moments(x[-half, ], pbc2$sex[-half])
#' all.equal(moments_cov(m), moments_cov(m2))
#' @export
group_moments <- function(x, group, ...) {
  if (!nargs()) fp_check_given("x")
  UseMethod("group_moments")
}

#' @rdname group_moments
#' @export
group_moments.default <- function(x, group, ..., columns = NULL, block = NULL, blocks = NULL, threads = NULL) {
  fp_check_no_dots(...names(), ...length(), "group_moments() on a matrix or data.frame",
                   c("x", "group", "columns", "block", "blocks", "threads"))
  if (missing(group)) group <- NULL
  vars <- names(x)
  xg <- fp_group_column(x, group, expr = substitute(group))
  x <- xg$x
  group <- xg$group
  if (!is.null(columns)) {
    # the feature columns by name, as for files and database tables (a data.frame's columns are
    # selected without copying them)
    if (!is.data.frame(x)) {
      fp_abort("selects columns of a data.frame, a file or a database table; select the columns of a matrix before the call", "columns")
    }
    gname <- setdiff(vars, names(x))  # the group column, when `group` named one
    x <- x[fp_db_columns(columns, vars, if (length(gname)) gname else "")]
  }
  x <- fp_as_matrix(x, "x", min_cols = 1L, check_finite = FALSE, set_names = FALSE)
  cn <- fp_colnames(x)
  g <- fp_as_group(group, nrow(x), "group", min_levels = 1L)
  block <- if (is.null(block)) 0L else fp_check_count(block, 16L, 65536L, "block")
  threads <- fp_threads(threads)
  if (is.null(blocks)) return(fp_check_door_range(fp_moments_dense(x, g, cn, "x", block, threads = threads), x, g))
  fp_moments_blocked(x, g, cn, "x", fp_check_count(blocks, 10L, 1000L, "blocks"), block = block, threads = threads)
}

# The threads of the row pass: `threads`, or with NULL the option `fairproj.threads` (1 when
# unset), checked (an error names the argument or the option) and capped at what OpenMP may
# start here (1 without OpenMP).
fp_threads <- function(threads = NULL) {
  if (is.null(threads)) {
    threads <- getOption("fairproj.threads", 1L)
    arg <- "options(fairproj.threads)"
  } else {
    arg <- "threads"
  }
  threads <- fp_check_count(threads, 1L, 1024L, arg)
  min(threads, fp_cpp(.fp_threads_max(), "the thread count"))
}

# The moments a door returns, checked for sums of squares that left double precision (data
# beyond about 1e+-150): infinite, NaN or subnormal sums (fp_check_moments_range()) and, with
# the rows at hand, columns whose values are so small that their squares vanish (below about
# 1.5e-154, the square root of the smallest normal double) while they vary within a group. A
# classed error that says what works, never NaN or few-digit moments. (Fits from the rows
# bring such columns into range themselves; see fp_moments_ranged().)
fp_check_door_range <- function(m, x = NULL, g = NULL) {
  fp_check_moments_range(m)
  if (is.null(x) || !length(m$levels)) return(m)
  lim <- sqrt(.Machine$double.xmin)
  dg <- vapply(m$scatter, diag, numeric(length(m$colnames)))
  dg <- matrix(dg, nrow = length(m$colnames))
  cand <- which(rowSums(dg != 0) == 0 & apply(abs(m$mean) < lim & m$mean != 0, 1L, any))
  for (j in cand) {
    varies <- tapply(as.numeric(x[, j]), g, function(v) any(v != v[1L]))
    if (any(varies, na.rm = TRUE)) fp_abort_tiny_values()
  }
  m
}

fp_abort_tiny_values <- function() {
  fp_abort(paste("has values below about 1e-154 whose squares vanish in double precision, so",
                 "their moments cannot be formed; fit from the rows, whose columns are brought",
                 "into range first, or multiply the data by a constant"), "x")
}

#' @rdname group_moments
#' @export
group_moments.group_moments <- function(x, group, ...) {
  if (!missing(group) && !is.null(group)) {
    fp_abort("must not be given when `x` is a group_moments object (the groups are in it)", "group")
  }
  fp_check_no_dots(...names(), ...length(), "group_moments() on a group_moments object", c("x", "group"))
  x
}

# `mean_lo` (optional, d x m): the part of each mean below the precision of `mean` (mean + mean_lo
# is the mean to twice the precision), kept so that merging pieces whose columns have a large
# offset (1e8 + noise) loses no digits of the difference of their means; absent means zero.
# A column without spread in a group (a diagonal entry of its scatter 0 or below, which only
# rounding makes negative) has exactly zero cross-terms there, as a scatter matrix must
# (|s_ij| <= sqrt(s_ii s_jj)): whatever rounding a door or a merge left in them is cleared.
fp_new_moments <- function(n, mean, scatter, levels, colnames, mean_lo = NULL) {
  n <- as.numeric(n)
  names(n) <- levels
  mean <- matrix(mean, ncol = length(levels), dimnames = list(colnames, levels))
  scatter <- lapply(scatter, function(s) {
    s <- matrix(s, length(colnames), length(colnames))
    dimnames(s) <- list(colnames, colnames)
    fp_zero_flat_columns(s)
  })
  names(scatter) <- levels
  out <- structure(list(n = n, mean = mean, scatter = scatter, levels = levels, colnames = colnames),
                   class = "group_moments")
  # NaN where a pass's sums overflowed (data near the largest double): kept, for the range checks
  if (!is.null(mean_lo) && any(is.na(mean_lo) | mean_lo != 0)) out$mean_lo <- matrix(mean_lo, nrow(mean), ncol(mean), dimnames = dimnames(mean))
  out
}

# The rows and columns of a scatter matrix whose diagonal entry is 0 or below set to exactly 0.
fp_zero_flat_columns <- function(s) {
  z <- which(diag(s) <= 0)
  if (length(z) && any(s[z, ] != 0)) {
    s[z, ] <- 0
    s[, z] <- 0
  }
  s
}

fp_mean_lo <- function(m) if (is.null(m$mean_lo)) matrix(0, nrow(m$mean), ncol(m$mean), dimnames = dimnames(m$mean)) else m$mean_lo

fp_check_moments <- function(m, arg = "x") {
  if (!inherits(m, "group_moments")) fp_abort("must be a group_moments object", arg)
  if (!fp_moments_parts_agree(m)) {
    fp_abort(paste("is a group_moments object whose parts do not agree (counts, means, scatter matrices,",
                   "levels and column names): build it with group_moments() or new_group_moments(), not by editing it"), arg)
  }
  invisible(m)
}

# Whether an object's parts have the shapes the package relies on: one count, one column of means
# and one d x d scatter per level, d column names (an object edited by hand is caught here, not
# recycled silently further on). O(m) checks of shapes, no pass over the values.
fp_moments_parts_agree <- function(m) {
  g <- length(m$levels)
  d <- length(m$colnames)
  shape <- function(x, r, c) is.matrix(x) && is.numeric(x) && nrow(x) == r && ncol(x) == c
  is.character(m$levels) && is.character(m$colnames) && g >= 1L && d >= 1L &&
    is.numeric(m$n) && length(m$n) == g && !anyNA(m$n) && all(m$n >= 0) &&
    shape(m$mean, d, g) && is.list(m$scatter) && length(m$scatter) == g &&
    all(vapply(m$scatter, shape, TRUE, r = d, c = d)) &&
    (is.null(m$mean_lo) || shape(m$mean_lo, d, g)) && (is.null(m$exponent) || length(m$exponent) == d)
}

# Chan et al.'s exact pairwise merge of (n, mean, scatter). Levels in the order of `a`, then
# those only `b` has (fp_merge_sorted() sorts them for the user's `+` and c()); `arg_a` and
# `arg_b` name the two objects in errors (`which` says which element of a list `arg_b` is).
fp_merge_moments <- function(a, b, arg_a = "e1", arg_b = "e2", which = "") {
  fp_check_moments(a, arg_a)
  fp_check_moments(b, arg_b)
  if (!identical(a$colnames, b$colnames)) fp_abort_merge_columns(a$colnames, b$colnames, arg_a, arg_b, which)
  E <- NULL
  if (!is.null(a$exponent) || !is.null(b$exponent)) {
    # columns kept times powers of two (a fit's moments): both pieces on the larger power of
    # those pieces whose column holds a value (a column of zeros, or a piece without rows, has
    # exponent 0, and would push the other piece's small column below double range)
    E <- pmax(fp_moments_exponent(a, held = TRUE), fp_moments_exponent(b, held = TRUE))
    E[!is.finite(E)] <- pmax(fp_moments_exponent(a), fp_moments_exponent(b))[!is.finite(E)]
    a <- fp_moments_rescaled(a, E)
    b <- fp_moments_rescaled(b, E)
  }
  levels <- union(a$levels, b$levels)
  lo_a <- fp_mean_lo(a)
  lo_b <- fp_mean_lo(b)
  n <- numeric(0)
  mean <- mean_lo <- matrix(0, length(a$colnames), 0)
  scatter <- list()
  for (l in levels) {
    # a level a piece holds with no rows contributes nothing (its mean is no mean)
    ina <- l %in% a$levels && (!(l %in% b$levels) || a$n[[l]] > 0)
    inb <- l %in% b$levels && (!(l %in% a$levels) || b$n[[l]] > 0 || !ina)
    if (ina && inb) {
      na <- a$n[[l]]
      nb <- b$n[[l]]
      tot <- na + nb
      # the difference of the means from their high parts (exact when they are close, as
      # with a large common offset) plus the difference of their low parts
      delta <- (b$mean[, l] - a$mean[, l]) + (lo_b[, l] - lo_a[, l])
      step <- delta * (nb / tot)
      hi <- a$mean[, l] + step
      lo <- lo_a[, l] + ((a$mean[, l] - hi) + step)  # Fast2Sum's error term of hi (|a| >= |step|)
      h2 <- hi + lo  # renormalised: hi is the double nearest to the mean
      lo <- lo - (h2 - hi)
      hi <- h2
      s <- a$scatter[[l]] + b$scatter[[l]] + tcrossprod(delta) * (na * nb / tot)
      # means that differ by less than about 1e-154 over pieces without spread of their own: the
      # column varies, but its squares vanish (as fp_check_door_range() finds with the rows)
      if (any(delta != 0 & diag(s) == 0, na.rm = TRUE)) fp_abort_tiny_values()
    } else {
      src <- if (ina) a else b
      tot <- src$n[[l]]
      hi <- src$mean[, l]
      lo <- (if (ina) lo_a else lo_b)[, l]
      s <- src$scatter[[l]]
    }
    n <- c(n, tot)
    mean <- cbind(mean, hi)
    mean_lo <- cbind(mean_lo, lo)
    scatter[[length(scatter) + 1L]] <- s
  }
  out <- fp_merge_blocks(fp_new_moments(n, mean, scatter, levels, a$colnames, mean_lo = mean_lo), a, b)
  if (any(E != 0)) out$exponent <- E
  out
}

# The moments' power of two per column (0 where none is kept); with `held = TRUE`, -Inf for a
# column that holds no value (every mean and scatter entry of it 0, or no rows).
fp_moments_exponent <- function(m, held = FALSE) {
  e <- if (is.null(m$exponent)) rep(0, length(m$colnames)) else m$exponent
  if (!held) return(e)
  used <- rowSums(abs(m$mean[, m$n > 0, drop = FALSE])) > 0 |
    Reduce(`|`, lapply(m$scatter[m$n > 0], function(s) diag(s) != 0), logical(length(e)))
  ifelse(used, e, -Inf)
}

# The moments `m` with column j stored times 2^E[j] (E at least m's own exponents, as
# fp_moments_ranged() keeps them): a scaling by powers of two, exact unless a value falls below
# double range, and then negligible beside the piece whose column sets E.
fp_moments_rescaled <- function(m, E) {
  e <- fp_moments_exponent(m)
  if (all(e == E)) return(m)
  D <- 2^(e - E)
  m$mean <- m$mean * D
  if (!is.null(m$mean_lo)) m$mean_lo <- m$mean_lo * D
  m$scatter <- lapply(m$scatter, function(s) sweep(s * D, 2L, D, `*`))
  if (!is.null(m$blocks)) {
    DD <- as.vector(tcrossprod(D))
    m$blocks <- lapply(m$blocks, function(b) {
      if (is.null(b) || !length(b$n)) return(b)
      b$mean <- b$mean * D
      b$scatter <- b$scatter * DD
      b
    })
  }
  m$exponent <- E
  m
}

#' @rdname group_moments
#' @param e1,e2 `group_moments` objects.
#' @export
"+.group_moments" <- function(e1, e2) if (missing(e2)) e1 else fp_merge_sorted(list(e1, e2), c("e1", "e2"))

# Arithmetic other than `+`, comparisons, maths and summaries of moments: a classed error saying
# what combines moments, not base R's "non-numeric argument to binary operator" (the object is a
# list). `m_all - m_part` in particular is not offered as a way to drop rows: subtracting scatter
# matrices cancels, and the difference of rounded ones need not be positive semidefinite.

#' @rdname group_moments
#' @export
Ops.group_moments <- function(e1, e2) {
  arg <- if (inherits(e1, "group_moments")) "e1" else "e2"
  fp_abort(sprintf("is a group_moments object, for which `%s` is not defined: moments combine only by `+` and c() (those of disjoint rows); for other rows, compute their moments with group_moments()",
                   .Generic), arg)
}

#' @rdname group_moments
#' @export
Math.group_moments <- function(x, ...) {
  fp_abort(sprintf("is a group_moments object, for which %s() is not defined: take its quantities with moments_mean(), moments_cov() or moments_sums()",
                   .Generic), "x")
}

#' @rdname group_moments
#' @param na.rm For the `Summary` group (sum(), max(), ...): unused; these are errors.
#' @export
Summary.group_moments <- function(..., na.rm = FALSE) {
  fp_abort(sprintf("holds a group_moments object, for which %s() is not defined: combine moments with c() or `+` (Reduce(`+`, pieces) for a list)",
                   .Generic), "...")
}

#' @rdname group_moments
#' @export
c.group_moments <- function(x, ...) {
  more <- list(...)
  for (i in seq_along(more)) {
    if (!inherits(more[[i]], "group_moments")) {
      fp_abort(sprintf("must hold group_moments objects only; element %d is of class '%s'", i, class(more[[i]])[1L]), "...")
    }
  }
  fp_merge_sorted(c(list(x), more), c("x", rep("...", length(more))))
}

# The merge of `pieces` for `+` and c(): levels in the order the pieces share when they all have
# the same levels in the same order (chunks of one factor), otherwise sorted as the other doors
# sort them (fp_sort_levels()), so that p1 + p2, p2 + p1 and the moments of the stacked rows
# have their levels in one order. `args` names the pieces in errors.
fp_merge_sorted <- function(pieces, args) {
  out <- fp_check_moments(pieces[[1L]], args[1L])
  for (i in seq_along(pieces)[-1L]) {
    out <- fp_merge_moments(out, pieces[[i]], args[1L], args[i],
                            if (args[i] == "...") sprintf("has an element (%d) that ", i - 1L) else "")
  }
  same <- all(vapply(pieces, function(p) identical(p$levels, pieces[[1L]]$levels), TRUE))
  if (same) out else fp_sort_levels(out)
}

fp_abort_merge_columns <- function(ca, cb, arg_a, arg_b, which = "") {
  only <- function(u, v, arg) {
    w <- setdiff(u, v)
    if (length(w)) sprintf("only in `%s`: %s", arg, fp_name_list(sprintf("'%s'", w), 5L))
  }
  what <- if (setequal(ca, cb) && length(ca) == length(cb)) {
    sprintf("has the columns of `%s` in another order", arg_a)
  } else {
    sprintf("covers other columns than `%s` (%s)", arg_a, paste(c(only(ca, cb, arg_a), only(cb, ca, arg_b)), collapse = "; "))
  }
  fp_abort(paste0(which, what, ": moments only combine over the same columns in the same order"), arg_b)
}

#' @rdname group_moments
#' @param digits For `print()`: significant digits of its table (a whole number from 1 to 22;
#'   `NULL` for the default, 3 fewer than `getOption("digits")`, at least 3).
#' @export
print.group_moments <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
  cat(fp_moments_header(x))
  tv <- fp_moments_totals(x)
  tab <- data.frame(group = x$levels, n = as.numeric(x$n), total_variance = fp_moments_totals_text(tv, digits))
  print(tab, row.names = FALSE, digits = digits)
  invisible(x)
}

# The first line of print() and summary() of group moments `x`.
fp_moments_header <- function(x) {
  sprintf("<group_moments> %d columns, %d groups, %s rows\n", length(x$colnames), length(x$levels),
          format(sum(x$n), big.mark = ","))
}

# Each group's total variance in the data's units (fp_total_variance()), as a 2 x m matrix: the
# value (NA for a group with no rows, which has no variance) and its power of ten (0 unless the
# total leaves double range; the value is then a mantissa in [1, 10)).
fp_moments_totals <- function(x) {
  e <- fp_moments_exponent(x)
  vapply(seq_along(x$levels), function(i) {
    if (x$n[i] > 0) fp_total_variance(diag(x$scatter[[i]]), e, x$n[i]) else c(NA_real_, 0)
  }, numeric(2))
}

# The total variances `tv` (fp_moments_totals()) as print() shows them: the numbers, or, when one
# leaves double range, text of a mantissa to `digits` significant digits and its power of ten
# ("1.52e+400") for every group; "-" for a group with no rows.
fp_moments_totals_text <- function(tv, digits) {
  none <- is.na(tv[1L, ])
  if (!any(tv[2L, ] != 0)) {
    if (!any(none)) return(tv[1L, ])
    out <- format(tv[1L, ], digits = digits)
    out[none] <- "-"
    return(out)
  }
  # beyond double range in the data's units: mantissa and power of ten as text
  mant <- signif(tv[1L, ], digits)
  up <- tv[2L, ] != 0 & !none & mant >= 10  # 9.9996 rounds to 10
  mant[up] <- mant[up] / 10
  tv[2L, up] <- tv[2L, up] + 1
  ifelse(none, "-", paste0(formatC(mant, digits = digits, format = "g"),
                           ifelse(tv[2L, ] != 0, sprintf("e%+d", tv[2L, ]), "")))
}

# A group's total variance sum(s_diag * 4^e) / n in the data's units, as c(value, p): the value
# times 10^p, p = 0 unless the total leaves double range (a far column's variance beyond about
# 1e308 or below about 1e-308), then the value is a mantissa in [1, 10).
fp_total_variance <- function(s_diag, e, n) {
  on <- s_diag > 0  # a column with no spread adds 0, whatever its power of two
  s_diag <- s_diag[on]
  e <- e[on]
  v <- sum(s_diag * 4^e) / n
  if (!length(e) || (is.finite(v) && v >= .Machine$double.xmin)) return(c(v, 0))
  top <- max(2 * e)
  l10 <- log10(sum(s_diag * 2^(2 * e - top)) / n) + top * log10(2)
  p <- floor(l10)
  c(10^(l10 - p), p)
}

# The moments in the data's units. A fit keeps the moments of columns beyond about 1e+-120 as
# stored columns times exact powers of two (`exponent`, fp_moments_ranged()); the accessors give
# the data's values: means (always representable: a column's largest magnitude was brought near
# 1) and, unless `scatter = FALSE`, scatter matrices, whose entries can leave double range (a
# variance beyond about 1e308 or below about 1e-308): a classed error naming `arg` then, not an
# Inf or a 0 for a column that varies.
fp_moments_unscaled <- function(m, arg = "m", scatter = TRUE) {
  e <- m$exponent
  if (is.null(e) || !any(e != 0)) return(m)
  m$blocks <- NULL  # the accessors use the groups' moments only
  if (!scatter) m$scatter <- NULL
  u <- fp_moments_rescaled(m, numeric(length(e)))
  for (i in seq_along(u$scatter)) {
    s <- m$scatter[[i]]
    lost <- s != 0 & (!is.finite(u$scatter[[i]]) | abs(u$scatter[[i]]) < .Machine$double.xmin)
    if (any(lost)) fp_abort_unscaled(m$colnames[unique(c(row(s)[lost], col(s)[lost]))], arg)
  }
  u$exponent <- NULL
  u
}

# The matrices `out` (a list, or one matrix) that moments_cov() or moments_crossprod() formed in
# the data's units from moments `m`: where `m` kept columns times powers of two, the terms added
# there (between-group and uncentred) can leave double range too: a classed error naming `arg`,
# not an Inf.
fp_check_unscaled <- function(out, m, arg = "m") {
  if (is.null(m$exponent) || !any(m$exponent != 0)) return(out)
  for (s in if (is.list(out)) out else list(out)) {
    bad <- !is.finite(s)
    if (any(bad)) fp_abort_unscaled(m$colnames[unique(c(row(s)[bad], col(s)[bad]))], arg)
  }
  out
}

fp_abort_unscaled <- function(cols, arg) {
  fp_abort(sprintf(paste("holds column(s) %s whose squares leave double range in the data's units (the moments keep",
                         "them times powers of two); divide or multiply those columns by a constant first"),
                   fp_name_list(sprintf("'%s'", cols))), arg, class = "fairproj_overflow_error")
}

#' Derived quantities of group moments
#'
#' Means, covariance (second-moment) matrices, uncentred cross-products and each group's best
#' rank-k reconstruction error, from a [group_moments()] object (compute it from data, files or
#' database tables with [group_moments()] first).
#'
#' Covariances here are population versions (divided by the number of rows, as in Samadi et
#' al.); set `unbiased = TRUE` to divide by `n - 1`, which needs at least 2 rows in every group
#' (a classed error otherwise, as for a group with no rows).
#'
#' @param m A `group_moments` object.
#' @param pooled Logical; `TRUE` returns the quantity over all rows instead of one per group.
#' @return `moments_mean()`: a d x m matrix (one column per group), or a vector when
#'   `pooled = TRUE`.
#' @seealso [group_moments()], [fair_pca()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' m <- group_moments(pbc2[1:6], pbc2$sex)
#' moments_mean(m)
#' moments_mean(m, pooled = TRUE)
#' moments_cov(m)$f
#' moments_best_error(m, k = 1)
#' @export
moments_mean <- function(m, pooled = FALSE) {
  fp_check_given("m")
  fp_check_moments(m, "m")
  fp_check_flag(pooled, "pooled")
  m <- fp_moments_unscaled(m, scatter = FALSE)
  if (!pooled) return(m$mean)
  fp_pooled_mean(m)
}

# The mean over all rows, in the moments' stored units.
fp_pooled_mean <- function(m) drop(m$mean %*% (m$n / sum(m$n)))

#' @rdname moments_mean
#' @param center `"group"`: each group about its own mean; `"global"`: about the pooled mean;
#'   `"none"`: uncentred second moments.
#' @param unbiased Logical; divide by `n - 1` instead of `n`.
#' @return `moments_cov()`: a named list of d x d matrices (one per group), or one matrix when
#'   `pooled = TRUE` (for `center = "group"`, the pooled within-group covariance).
#' @export
moments_cov <- function(m, center = c("group", "global", "none"), pooled = FALSE, unbiased = FALSE) {
  fp_check_given("m")
  fp_check_moments(m, "m")
  center <- fp_match_arg(center, c("group", "global", "none"), "center")
  fp_check_flag(pooled, "pooled")
  fp_check_flag(unbiased, "unbiased")
  fp_check_unscaled(fp_moments_cov(fp_moments_unscaled(m), center, pooled, unbiased), m)
}

# moments_cov() of checked arguments, in the moments' stored units (fp_moments_unscaled() gives
# the data's; the package's own uses keep the stored ones, which stay in range).
fp_moments_cov <- function(m, center = "group", pooled = FALSE, unbiased = FALSE) {
  mu <- fp_pooled_mean(m)
  sc <- lapply(seq_along(m$levels), function(i) {
    s <- m$scatter[[i]]
    if (center == "global") s <- s + tcrossprod(m$mean[, i] - mu) * m$n[[i]]
    if (center == "none") s <- s + tcrossprod(m$mean[, i]) * m$n[[i]]
    s
  })
  if (pooled) {
    den <- sum(m$n) - if (unbiased) (if (center == "group") length(m$n) else 1) else 0
    if (!(den > 0)) {
      fp_abort(sprintf("leaves %g degrees of freedom for the pooled covariance (%g rows, %d groups)%s", den, sum(m$n),
                       length(m$n), if (unbiased) ": use unbiased = FALSE" else ""), if (unbiased) "unbiased" else "m")
    }
    return(Reduce(`+`, sc) / den)
  }
  den <- m$n - unbiased
  if (any(den <= 0)) {
    bad <- m$levels[den <= 0][1L]
    fp_abort(sprintf("has group '%s' with %g row(s): no %scovariance%s", bad, m$n[[bad]], if (unbiased) "unbiased " else "",
                     if (unbiased) " (n - 1 = 0): use unbiased = FALSE" else ""), if (unbiased) "unbiased" else "m")
  }
  out <- lapply(seq_along(sc), function(i) sc[[i]] / den[[i]])
  names(out) <- m$levels
  out
}

#' @rdname moments_mean
#' @return `moments_crossprod()`: a named list of uncentred cross-products `t(x_g) %*% x_g`;
#'   `moments_sums()`: a d x m matrix of column sums.
#' @export
moments_crossprod <- function(m) {
  fp_check_given("m")
  fp_check_moments(m, "m")
  u <- fp_moments_unscaled(m)
  out <- lapply(seq_along(u$levels), function(i) u$scatter[[i]] + tcrossprod(u$mean[, i]) * u$n[[i]])
  names(out) <- u$levels
  fp_check_unscaled(out, m)
}

#' @rdname moments_mean
#' @export
moments_sums <- function(m) {
  fp_check_given("m")
  fp_check_moments(m, "m")
  sweep(fp_moments_unscaled(m, scatter = FALSE)$mean, 2L, m$n, `*`)
}

#' @rdname moments_mean
#' @param k Target dimension(s): whole numbers between 0 and the number of columns.
#' @return `moments_best_error()`: a matrix with one row per `k` and one column per group: the
#'   group's smallest average squared reconstruction error over rank-k projections
#'   (the sum of the eigenvalues of its covariance beyond the k-th).
#' @export
moments_best_error <- function(m, k, center = c("group", "global", "none")) {
  fp_check_given(c("m", "k"))
  fp_check_moments(m, "m")
  center <- fp_match_arg(center, c("group", "global", "none"), "center")
  d <- length(m$colnames)
  if (!is.numeric(k) || length(k) < 1L || anyNA(k) || any(k != round(k)) || any(k < 0 | k > d)) {
    fp_abort(sprintf("must be whole numbers between 0 and %d", d), "k")
  }
  covs <- moments_cov(m, center = center)
  out <- vapply(covs, function(s) {
    # the sum of the trailing eigenvalues, which does not cancel as trace minus the top k does
    ev <- pmax(fp_sym_values(s), 0)
    tail <- c(rev(cumsum(rev(ev))), 0)
    tail[k + 1L]
  }, numeric(length(k)))
  out <- matrix(out, nrow = length(k), dimnames = list(paste0("k=", k), m$levels))
  out
}

# The preamble of every front door that takes rows: `group` required (a vector, or the name
# of a column of the data.frame `x`; `expr` is the door's substitute(group)), `x` as a numeric
# matrix (`...`: fp_as_matrix()'s options), the group encoded with at least `min_levels`
# levels and, with `moments = TRUE`, the group moments of the rows. Returns `x` (the feature
# columns as given), `xm`, `g` and `m`.
fp_door_rows <- function(x, group, expr, min_levels = 2L, moments = FALSE, ...) {
  fp_check_not_dataset(x, "x")
  if (missing(group)) fp_abort("is missing: give one group label per row", "group")
  xg <- fp_group_column(x, group, expr = expr)
  xm <- fp_as_matrix(xg$x, "x", ...)
  g <- fp_as_group(xg$group, nrow(xm), "group", min_levels = min_levels)
  list(x = xg$x, xm = xm, g = g, m = if (moments) fp_moments_ranged(xm, g, fp_colnames(xm)))
}

# The check of every front door that takes a group_moments object `x`: no `group` beside it
# (the groups are in it), at least `min_levels` groups, and none without rows. Returns `x`.
fp_door_moments <- function(x, group = NULL, min_levels = 1L) {
  if (!is.null(group)) fp_abort("must not be given when `x` is a group_moments object (the groups are in it)", "group")
  fp_check_moments(x, "x")
  if (length(x$levels) < min_levels) fp_abort(sprintf("must have at least %d groups", min_levels), "x")
  if (any(x$n < 1)) fp_abort("has a group with no rows", "x")
  x
}

# Group moments of a dense matrix, every column brought into range before it is squared. The
# one pass squares the data, so a column of magnitude beyond 2^+-400 (about 1e+-120) would
# overflow or lose digits to underflow: such columns are multiplied by exact powers of two first
# (a copy of the data, made only then), and the exponents are kept in the moments as
# `exponent` (column j of the data = stored column j times 2^exponent[j]), which fp_prepare() and
# fp_css_prepare() undo. Ordinary data take one pass and no copy.
fp_moments_ranged <- function(xm, g, cn, arg = "x") {
  m <- fp_moments_dense(xm, g, cn, arg)
  e <- fp_column_exponents(m, xm)
  if (!any(e != 0)) return(m)
  for (j in which(e != 0)) xm[, j] <- xm[, j] * 2^-e[j]
  m <- fp_moments_dense(xm, g, cn, arg)
  m$exponent <- e
  m
}

# Per column, the power of two that brings its largest magnitude near 1 when the moments show it
# out of range (0 otherwise). Only the columns the moments flag are scanned.
fp_column_exponents <- function(m, xm) {
  d <- length(m$colnames)
  mag <- rep(0, d)
  for (i in seq_along(m$levels)) {
    mag <- pmax(mag, abs(m$mean[, i]), sqrt(abs(diag(m$scatter[[i]])) / m$n[[i]]))
  }
  e <- rep(0, d)
  for (j in which(!is.finite(mag) | mag > 2^400 | mag < 2^-400)) {
    mx <- max(abs(range(xm[, j])))
    if (mx > 2^400 || (mx > 0 && mx < 2^-400)) e[j] <- min(max(floor(log2(mx)) + 1, -1000), 1000)
  }
  e
}

# Moments summed from data beyond about 1e+-150 without first bringing the columns into range
# (fp_moments_ranged() does for rows; group_moments() of such data does not) have sums of
# squares that overflowed (Inf, NaN) or underflowed into subnormal numbers, which keep few
# digits: a classed error that says what works.
fp_check_moments_range <- function(m) {
  dg <- unlist(lapply(m$scatter, diag))
  # a finite sum (R's is long double, which finite doubles cannot overflow) means finite entries,
  # without the d x d logical array of is.finite(); only an overflowed sum looks at each entry
  finite <- function(a) is.finite(sum(a)) || all(is.finite(a))
  if (!all(is.finite(m$mean)) || !all(vapply(m$scatter, finite, logical(1)))) {
    fp_abort(paste("has moments that overflowed (infinite or NaN sums of squares of values beyond about 1e150);",
                   "fit from the rows, whose columns are brought into range first, or divide the data by a constant"), "x",
             class = "fairproj_overflow_error")
  }
  if (any(dg != 0 & abs(dg) < .Machine$double.xmin)) {
    fp_abort(paste("has moments that underflowed (sums of squares of values below about 1e-150 keep few digits);",
                   "fit from the rows, whose columns are brought into range first, or multiply the data by a constant"), "x")
  }
  invisible(m)
}

# Moments of a dense double matrix in one C++ pass, which also counts NA/NaN and Inf entries
# (no n x d logical arrays, no copy of the data).
fp_moments_dense <- function(x, g, colnames, arg = "x", block = 0L, sparse = -1L, onepass = -1L,
                             threads = fp_threads()) {
  fp_backend_for(as.numeric(nrow(x)) * ncol(x)^2)
  res <- fp_cpp(.fp_moments_cpp(x, as.integer(g) - 1L, nlevels(g), block, sparse, onepass, threads), "the moments pass")
  fp_check_nonfinite_counts(res$n_na, res$n_inf, arg)
  out <- fp_new_moments(res$n, res$mean, res$scatter, levels(g), colnames, mean_lo = res$mean_lo)
  if (!is.null(attr(g, "cells"))) out$cells <- attr(g, "cells")  # intersectional groups
  out
}

# Levels in the order as.factor() would give them (numeric order when all look numeric).
fp_sort_levels <- function(m) {
  lv <- m$levels
  num <- suppressWarnings(as.numeric(lv))
  ord <- if (!anyNA(num)) order(num) else order(lv)
  if (identical(ord, seq_along(lv))) return(m)
  out <- fp_new_moments(m$n[ord], m$mean[, ord, drop = FALSE], m$scatter[ord], lv[ord], m$colnames,
                        mean_lo = fp_mean_lo(m)[, ord, drop = FALSE])
  if (!is.null(fp_moments_blocks(m))) {
    out$blocks <- m$blocks[ord]
    out$block_count <- m$block_count
  }
  out
}

# The moments of the columns `o` (an order of all the columns) of `m`: means, scatters, low
# parts, exponents and blocks permuted alike.
fp_moments_columns <- function(m, o) {
  out <- fp_new_moments(m$n, m$mean[o, , drop = FALSE], lapply(m$scatter, function(s) s[o, o, drop = FALSE]), m$levels,
                        m$colnames[o], mean_lo = fp_mean_lo(m)[o, , drop = FALSE])
  if (!is.null(m$exponent)) out$exponent <- m$exponent[o]
  if (!is.null(fp_moments_blocks(m))) {
    d <- length(o)
    idx <- as.vector(matrix(seq_len(d * d), d)[o, o])  # the entries of the d x d scatter, stored by column
    out$blocks <- lapply(m$blocks, function(b) {
      b$mean <- b$mean[o, , drop = FALSE]
      b$scatter <- b$scatter[idx, , drop = FALSE]
      b
    })
    out$block_count <- m$block_count
  }
  out
}

fp_db_group_name <- function(group, vars) {
  if (missing(group) || is.null(group)) fp_abort("is missing: give the name of the group column", "group")
  if (!is.character(group) || length(group) != 1L || is.na(group)) {
    fp_abort("must be the name of the group column of the table (one string)", "group")
  }
  if (!group %in% vars) fp_abort(sprintf("names column '%s', which the table does not have", group), "group")
  group
}

fp_db_columns <- function(columns, vars, group) {
  if (is.null(columns)) {
    columns <- setdiff(vars, group)
    if (!length(columns)) fp_abort(sprintf("has no column besides the group column '%s': no features to summarise", group), "x")
  }
  if (!is.character(columns)) {
    fp_abort(sprintf("must be column names (character), not %s: give the columns' names",
                     if (is.numeric(columns)) "numbers" else sprintf("an object of class '%s'", class(columns)[1L])), "columns")
  }
  if (length(columns) < 1L || anyNA(columns) || anyDuplicated(columns)) {
    fp_abort("must be distinct column names (a character vector)", "columns")
  }
  miss <- setdiff(columns, vars)
  if (length(miss)) fp_abort(sprintf("names column(s) the table does not have: %s", paste(miss, collapse = ", ")), "columns")
  if (group %in% columns) fp_abort("must not include the group column", "columns")
  columns
}

# The moments of the (group x part x block) cells, `cells` being their moments (levels in the
# order group-major, then part, then block): list(moments = moments of each group (all parts and
# blocks, merged exactly), parts = one group_moments per part, blocks = the bootstrap's blocks of
# each group (part cells of one block merged): list of list(id (the block numbers), n, delta (d x
# J: block mean minus the group mean), scatter (d^2 x J)), J the group's non-empty blocks). The
# pass of group_moments(blocks = ) and the audit's pass over its rows (R/audit-fit.R, with
# training and held-out parts) both end here.
fp_merge_block_cells <- function(cells, levels, n_parts, B) {
  m <- length(levels)
  cell <- function(i, p, b) (i - 1L) * n_parts * B + (p - 1L) * B + b
  one <- function(idx, lev) {
    idx <- idx[cells$n[idx] > 0]
    if (!length(idx)) return(NULL)
    out <- fp_moments_levels(cells, idx[1L], lev)
    for (j in idx[-1L]) out <- fp_merge_moments(out, fp_moments_levels(cells, j, lev))
    out
  }
  merge_groups <- function(pieces) {
    out <- pieces[[1L]]
    for (p in pieces[-1L]) out <- fp_merge_moments(out, p)  # levels in the order of `levels`
    out
  }
  parts <- lapply(seq_len(n_parts), function(p) {
    merge_groups(lapply(seq_len(m), function(i) {
      r <- one(cell(i, p, seq_len(B)), levels[i])
      if (is.null(r)) fp_new_moments(0, rep(0, length(cells$colnames)), list(0 * cells$scatter[[1L]]),
                                     levels[i], cells$colnames) else r
    }))
  }
  )
  total <- if (n_parts == 1L) parts[[1L]] else Reduce(fp_merge_moments, parts)
  blocks <- lapply(seq_len(m), function(i) {
    bl <- lapply(seq_len(B), function(b) one(cell(i, seq_len(n_parts), b), levels[i]))
    id <- which(!vapply(bl, is.null, logical(1)))
    bl <- bl[id]
    list(id = id, n = vapply(bl, function(z) z$n[[1L]], numeric(1)),
         delta = vapply(bl, function(z) (z$mean[, 1L] - total$mean[, i]) + (fp_mean_lo(z)[, 1L] - fp_mean_lo(total)[, i]),
                        numeric(length(cells$colnames))),
         scatter = vapply(bl, function(z) as.numeric(z$scatter[[1L]]), numeric(length(cells$colnames)^2)))
  })
  for (p in seq_along(parts)) parts[[p]]$exponent <- cells$exponent
  total$exponent <- cells$exponent
  list(moments = total, parts = parts, blocks = blocks)
}

# The moments of the rows of `x` by the groups `g` (a factor) with the moments of `B` blocks of
# each group, the rows assigned by the hash of their numbers `rows` (their positions in the
# whole source: a file's record numbers, a query's row numbers): the group_moments of the rows
# plus `blocks` (per group: id, n, mean (d x J), scatter (d^2 x J) of its J non-empty blocks)
# and `block_count` (B). One pass over the (group, block) cells; the groups' moments are their
# exact sum.
fp_moments_blocked <- function(x, g, cn, what, B, rows = seq_len(nrow(x)), block = 0L, threads = fp_threads()) {
  gi <- factor((as.integer(g) - 1L) * B + fp_block_of_row(rows, B), levels = seq_len(nlevels(g) * B))
  cells <- fp_check_door_range(fp_moments_dense(x, gi, cn, what, block, threads = threads))
  mc <- fp_merge_block_cells(cells, levels(g), 1L, B)
  out <- fp_check_door_range(mc$moments, x, g)
  out$exponent <- NULL
  out$blocks <- lapply(seq_along(mc$blocks), function(i) {
    b <- mc$blocks[[i]]
    list(id = b$id, n = b$n, mean = b$delta + out$mean[, i], scatter = b$scatter)
  })
  out$block_count <- B
  out
}

# The moments of some levels of a group_moments object, renamed.
fp_moments_levels <- function(m, idx, levels) {
  out <- fp_new_moments(m$n[idx], m$mean[, idx, drop = FALSE], m$scatter[idx], levels, m$colnames)
  out$exponent <- m$exponent
  out
}
