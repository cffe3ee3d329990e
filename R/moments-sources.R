#' Group moments of CSV files read in chunks, and of lists of sources
#'
#' A character vector of paths to delimited text files (CSV) is read in chunks of `chunk_rows`
#' rows with [data.table::fread()]; each chunk is reduced to its group moments in C++ and the
#' moments are merged exactly (see [new_group_moments()] for the merge). Memory stays bounded by
#' one chunk plus O(d^2 m) for the moments of m groups, whatever the size of the file. Several
#' files are reduced one after the other, or in parallel with `parallel = TRUE` through
#' [future.apply::future_lapply()] on whatever [future::plan()] the user set (multisession
#' workers, a cluster, a batch scheduler through `future.batchtools`).
#'
#' A list is reduced element by element: each element may be anything `group_moments()`
#' accepts with the same `group` argument (a path, a data.frame holding the group column, a
#' lazy database table, a `group_moments` object), and the results are merged. This is the way
#' to combine partitions that live in different places.
#'
#' Every chunk is read with the header of its file, so the feature columns are found by name;
#' the group column is read as text in every chunk (so that a label such as `"1"` is the same
#' group whether a chunk guesses integers or text). Quoted fields with embedded line breaks are
#' not supported (chunks are counted in lines).
#'
#' @param x A character vector of file paths, or a list of sources (see Details).
#' @param group The name of the group column (a string).
#' @param ... For lists: passed to `group_moments()` for each element. For files: passed to
#'   [data.table::fread()] (e.g. `sep`, `dec`).
#' @param columns The feature columns (character); `NULL` for all columns but `group`.
#' @param chunk_rows Rows per chunk.
#' @param parallel Logical; reduce the files (or list elements) in parallel with
#'   [future.apply::future_lapply()] (package \pkg{future.apply} needed).
#' @return A `group_moments` object (see [group_moments()]), levels in sorted order.
#' @seealso [group_moments()], [group_moments_db], `vignette("large-data")`.
#' @examples
#' if (requireNamespace("data.table", quietly = TRUE)) {
#'   path <- tempfile(fileext = ".csv")
#'   utils::write.csv(iris, path, row.names = FALSE)
#'   m <- group_moments(path, group = "Species", chunk_rows = 40)
#'   all.equal(moments_cov(m), moments_cov(group_moments(iris[, 1:4], iris$Species)))
#'   # a list of sources: the same file twice counts every row twice
#'   m2 <- group_moments(list(path, path), group = "Species")
#'   m2$n
#'   unlink(path)
#' }
#' @name group_moments_files
#' @export
group_moments.character <- function(x, group, ..., columns = NULL, chunk_rows = 100000L, parallel = FALSE) {
  if (!is.null(dim(x))) return(group_moments.default(x, group, ...))
  fp_require("data.table", "group_moments() on files")
  if (length(x) < 1L || anyNA(x)) fp_abort("must be one or more file paths", "x")
  miss <- x[!file.exists(x)]
  if (length(miss)) fp_abort(sprintf("names file(s) that do not exist: %s", paste(utils::head(miss, 3), collapse = ", ")), "x")
  chunk_rows <- fp_check_count(chunk_rows, 1L, .Machine$integer.max, "chunk_rows")
  fp_check_flag(parallel, "parallel")
  if (missing(group)) group <- NULL
  one <- function(path) fp_csv_moments(path, group, columns, chunk_rows, ...)
  fp_reduce_sources(as.list(x), one, parallel)
}

#' @rdname group_moments_files
#' @export
group_moments.list <- function(x, group, ..., parallel = FALSE) {
  if (length(x) < 1L) fp_abort("is an empty list", "x")
  fp_check_flag(parallel, "parallel")
  if (missing(group)) group <- NULL
  one <- function(src) {
    if (inherits(src, "group_moments")) return(src)
    group_moments(src, group, ...)
  }
  fp_reduce_sources(x, one, parallel)
}

# Apply `one` to each source (in parallel through future.apply when asked), merge in order and
# sort the levels.
fp_reduce_sources <- function(sources, one, parallel) {
  parts <- if (parallel) {
    fp_require("future.apply", "group_moments(parallel = TRUE)")
    future.apply::future_lapply(sources, one, future.seed = NULL,
                                future.packages = "fairproj")
  } else {
    lapply(sources, one)
  }
  fp_sort_levels(Reduce(fp_merge_moments, parts))
}

# Levels in the order as.factor() would give them (numeric order when all look numeric).
fp_sort_levels <- function(m) {
  lv <- m$levels
  num <- suppressWarnings(as.numeric(lv))
  ord <- if (!anyNA(num)) order(num) else order(lv)
  if (identical(ord, seq_along(lv))) return(m)
  fp_new_moments(m$n[ord], m$mean[, ord, drop = FALSE], m$scatter[ord], lv[ord], m$colnames)
}

# One file, in chunks of chunk_rows lines after the header.
fp_csv_moments <- function(path, group, columns, chunk_rows, ...) {
  # the header from the first lines only: fread(path, nrows = 0) sizes its buffers for the whole
  # file (measured: 281 MB of R heap for a 3e6-row file), which would break the memory bound
  hdr <- names(data.table::fread(text = readLines(path, n = 2L, warn = FALSE), nrows = 0L,
                                 showProgress = FALSE, ...))
  group <- fp_db_group_name(group, hdr)
  columns <- fp_db_columns(columns, hdr, group)
  sel <- match(c(group, columns), hdr)
  out <- NULL
  skip <- 1
  repeat {
    ch <- fp_fread_chunk(path, skip, chunk_rows, hdr, sel, ...)
    if (is.null(ch) || nrow(ch) == 0L) break
    g <- as.character(ch[[group]])
    data.table::set(ch, j = group, value = NULL)
    xm <- fp_as_matrix(ch, sprintf("x (file %s)", basename(path)), min_cols = 1L, check_finite = FALSE)
    rm(ch)
    piece <- fp_moments_dense(xm, fp_as_group(g, nrow(xm), "group", min_levels = 1L), columns,
                              sprintf("x (file %s)", basename(path)))
    rm(xm)
    out <- if (is.null(out)) piece else fp_merge_moments(out, piece)
    if (sum(piece$n) < chunk_rows) break
    skip <- skip + chunk_rows
  }
  if (is.null(out)) fp_abort(sprintf("file %s has no data rows", basename(path)), "x")
  out
}

fp_fread_chunk <- function(path, skip, nrows, hdr, sel, ...) {
  tryCatch(
    data.table::fread(path, skip = skip, nrows = nrows, header = FALSE, col.names = hdr[sel],
                      select = sel, showProgress = FALSE, data.table = TRUE, ...),
    error = function(e) {
      # fread errors when skip reaches the end of the file ("skip=N but the input only has N lines")
      if (grepl("^skip=[0-9]+ but the input only has", conditionMessage(e))) NULL else stop(e)
    })
}

#' Group moments of a sparse matrix
#'
#' A sparse matrix of the \pkg{Matrix} package (`dgCMatrix` and other sparse classes, coerced to
#' the compressed-column form) is never made dense: each group's column sums and cross-product
#' come from sparse products, in time and memory proportional to the non-zero entries plus
#' O(d^2) per group.
#'
#' The scatter is obtained as `crossprod(x_g) - n_g mean_g mean_g'`, since centring would make
#' the matrix dense. This is accurate for the usual sparse data (counts, indicators, tf-idf),
#' whose column means are not large relative to their spread; a column with a large constant
#' offset is not sparse in the first place.
#'
#' @param x A sparse matrix (`Matrix::sparseMatrix`, e.g. a `dgCMatrix`).
#' @param group Group labels, one per row.
#' @param ... Unused.
#' @return A `group_moments` object (see [group_moments()]).
#' @seealso [group_moments()].
#' @examples
#' if (requireNamespace("Matrix", quietly = TRUE)) {
#'   set.seed(1)
#'   x <- Matrix::rsparsematrix(200, 10, density = 0.1)
#'   g <- rep(c("a", "b"), 100)
#'   m <- group_moments(x, g)
#'   all.equal(moments_cov(m), moments_cov(group_moments(as.matrix(x), g)))
#' }
#' @name group_moments_sparse
#' @export
group_moments.sparseMatrix <- function(x, group, ...) {
  fp_require("Matrix", "group_moments() on a sparse matrix")
  if (!methods::is(x, "dgCMatrix")) {
    x <- methods::as(methods::as(methods::as(x, "CsparseMatrix"), "generalMatrix"), "dMatrix")
  }
  if (nrow(x) < 1L) fp_abort("has no rows", "x")
  vals <- x@x
  if (anyNA(vals)) fp_abort(sprintf("contains %d missing value(s) (NA/NaN); remove or impute them first", sum(is.na(vals))), "x")
  if (any(is.infinite(vals))) fp_abort(sprintf("contains %d infinite value(s)", sum(is.infinite(vals))), "x")
  rm(vals)
  cn <- fp_colnames(x)
  g <- fp_as_group(group, nrow(x), "group", min_levels = 1L)
  lv <- levels(g)
  d <- ncol(x)
  n <- tabulate(g, length(lv))
  mean <- matrix(0, d, length(lv))
  scatter <- vector("list", length(lv))
  for (c in seq_along(lv)) {
    xg <- x[which(as.integer(g) == c), , drop = FALSE]
    s <- Matrix::colSums(xg)
    cp <- as.matrix(Matrix::crossprod(xg))
    rm(xg)
    mean[, c] <- s / n[c]
    sc <- cp - tcrossprod(s) / n[c]
    scatter[[c]] <- (sc + t(sc)) / 2
  }
  fp_new_moments(n, mean, scatter, lv, cn)
}

# Moments of a dense double matrix in one C++ pass, which also counts NA/NaN and Inf entries
# (no n x d logical arrays, no copy of the data).
fp_moments_dense <- function(x, g, colnames, arg = "x", block = 0L) {
  fp_backend_for(as.numeric(nrow(x)) * ncol(x)^2)
  res <- .fp_moments_cpp(x, as.integer(g) - 1L, nlevels(g), block)
  fp_check_nonfinite_counts(res$n_na, res$n_inf, arg)
  out <- fp_new_moments(res$n, res$mean, res$scatter, levels(g), colnames)
  if (!is.null(attr(g, "cells"))) out$cells <- attr(g, "cells")  # intersectional groups
  out
}

# Scores of the training rows, (x - center) / scale %*% rotation, computed as
# x %*% (rotation / scale) minus one row, without a centred copy of x. Fits whose scores are
# not that projection (a linear map of Samadi et al.'s affine projection, the trade-off
# representation of mean-matching PCA) go through their predict() method.
fp_scores <- function(fit, x) {
  if (!is.null(fit$map) || !is.null(fit$tradeoff)) return(predict(fit, x))
  R <- fit$rotation
  sc <- if (isFALSE(fit$scale)) rep(1, nrow(R)) else fit$scale
  ct <- if (isFALSE(fit$center)) rep(0, nrow(R)) else fit$center
  W <- R / sc
  off <- drop(ct %*% W)
  s <- x %*% W
  for (j in seq_len(ncol(s))) if (off[j] != 0) s[, j] <- s[, j] - off[j]
  dimnames(s) <- list(rownames(x), colnames(R))
  s
}
