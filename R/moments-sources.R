#' Group moments of CSV files read in chunks, and of lists of sources
#'
#' A character vector of paths to delimited text files (CSV) is read in chunks of `chunk_rows`
#' records with the streaming reader of \pkg{readr} ([readr::read_delim_chunked()]), in one pass
#' over each file: time is linear in the number of rows and R's memory is bounded by one chunk
#' plus O(d^2 m) for the moments of m groups, whatever the size of the file. readr maps the file
#' into memory, so the process's resident memory also grows with the size of the file being
#' read, up to about that size whatever `chunk_rows` (the pages are the file's, which the system
#' can drop when memory is needed); to keep it bounded, split a large file into parts and give
#' the paths of the parts, which are mapped and released one at a time. Chunks are counted in
#' records, not lines, so quoted fields holding line breaks, blank lines (which are not records),
#' CRLF line ends and a missing final line break are all read correctly. Each chunk is reduced to
#' its group moments in C++ and the moments are merged exactly (see [new_group_moments()]).
#' Several files are reduced one after the other, or in parallel with `parallel = TRUE` through
#' [future.apply::future_lapply()] on whatever [future::plan()] the user set (multisession
#' workers, a PSOCK cluster, a batch scheduler such as Slurm through \pkg{future.batchtools}).
#'
#' **Exact or loud.** Every record is used exactly once or the call stops: a record with too few
#' or too many fields, a value that does not parse as a number, a missing value (`NA` or an empty
#' field) in a feature or in the group column is an error of class `fairproj_source_error` that
#' names the file, the data row (the record's number after the header), the column and the
#' value; so is a column name that appears twice in the header, or an empty one. With `bad_rows = "skip"` such
#' records are left out instead and counted, and a warning of class
#' `fairproj_skipped_rows_warning` gives the count. A file with a header and no records
#' contributes nothing; an error is raised only when no source holds any record. At the end, the
#' rows used plus the rows skipped must equal the records read. Two faults are errors whatever
#' `bad_rows` says, since the rows they touch cannot be counted: a quote that opens a field and
#' never closes (the rest of the file would be one field), named by its data row, and text that is
#' not valid UTF-8 (a file in another encoding read without `locale`, e.g.
#' `locale = readr::locale(encoding = "latin1")`). A column whose values are below about 1e-154
#' and vary within a group is the error of [group_moments()] on the same rows.
#'
#' Column types are fixed before reading: the group column is text (so that `"1"` is the same
#' group in every chunk), a feature column is a number, or a logical (`TRUE`/`FALSE`, used as 1/0)
#' when its first 1000 records look logical (a column with no value there is read as numbers);
#' other columns are not read. Files whose headers have the same columns in another order are
#' matched by name (as [rbind()] matches data.frames); files with other feature columns are an
#' error of class `fairproj_source_error` naming the file. readr's number parser
#' reads values written with up to 14 significant digits exactly; with 15 to 17 digits a value
#' may come out one unit in the last place away from R's correctly rounded [as.numeric()]. It
#' reads a number written at or beyond 1e307 in magnitude inexactly and without a problem
#' (`1e308` and `1e400` both as `1e307`), so such a value is taken as one that does not parse
#' (an error naming its row and column, or skipped with `bad_rows = "skip"`); moments that
#' overflow (sums of squares of values beyond about 1e150) name the largest value. Numbers are
#' read with the decimal mark of `locale`; grouping marks (thousands separators, as in
#' `1,234.5`) are not read, whatever `locale` says: such a value does not parse.
#'
#' A list is reduced element by element: each element may be anything `group_moments()`
#' accepts with the same `group` argument (a path, a data.frame holding the group column, a
#' lazy database table, a `group_moments` object), and the results are merged. This is the way
#' to combine partitions that live in different places, and to spread many files over the
#' workers of a cluster.
#'
#' @param x A character vector of file paths, or a list of sources (see Details).
#' @param group The name of the group column (a string). Its values are read as text labels;
#'   a column of numbers (as the reader guesses it) with non-integer values is a continuous
#'   attribute and an error of class `fairproj_source_error`, as a numeric vector is in memory.
#'   In such a column a number is one label however it is spelled (`"2"`, `"2.0"`), and whole
#'   numbers beyond 2^53 that a double does not hold (64-bit IDs) keep their digits, as
#'   `bit64::integer64` labels do, so that distinct IDs stay distinct groups.
#' @param ... For lists: passed to `group_moments()` for each element whose method takes them
#'   (an option that no element takes is an error of class `fairproj_input_error`). For files: options of
#'   [readr::read_delim_chunked()]: `quote`, `escape_backslash`, `escape_double`, `locale`, `na`,
#'   `quoted_na`, `comment`, `trim_ws`, `skip`, `skip_empty_rows` (the column types, header and
#'   chunks are set by `group_moments()`; other arguments are an error).
#' @param columns The feature columns (character); `NULL` for all columns but `group`.
#' @param chunk_rows Records per chunk.
#' @param bad_rows `"error"` (default): a malformed record, unparsable value or missing value
#'   stops the call; `"skip"`: such records are skipped, counted and reported in a warning.
#' @param delim The field delimiter of the files.
#' @param blocks Optional number of blocks (10 to 1000) per group whose moments are kept as
#'   well, for the intervals of [fair_audit()], as in [group_moments()]: a record goes to the
#'   block given by a hash of its number in its file, so one file gives the blocks its rows
#'   would give in memory. Blocks of the same number add over chunks, files and list elements
#'   (every element must then carry blocks of the same count, or the result has none).
#' @param parallel Logical; reduce the files (or list elements) in parallel with
#'   [future.apply::future_lapply()] (package \pkg{future.apply} needed). It makes one future per
#'   worker of the plan, each reducing its share of the elements in turn (with
#'   \pkg{future.batchtools}, one job per worker); a plan with as many workers as elements gives
#'   one each. A Slurm job template: `system.file("slurm", "slurm.tmpl", package = "fairproj")`.
#' @return A `group_moments` object (see [group_moments()]), levels in sorted order.
#' @seealso [group_moments()], [group_moments_db], `vignette("large-data")`.
#' @examples
#' if (requireNamespace("readr", quietly = TRUE) && requireNamespace("MASS", quietly = TRUE)) {
#'   bw <- MASS::birthwt[c("age", "lwt", "ptl", "ftv", "bwt", "race")]
#'   path <- tempfile(fileext = ".csv")
#'   utils::write.csv(bw, path, row.names = FALSE)
#'   m <- group_moments(path, group = "race", chunk_rows = 40)
#'   all.equal(moments_cov(m), moments_cov(group_moments(bw[1:5], bw$race)))
#'   # a list of sources: the same file twice counts every row twice
#'   m2 <- group_moments(list(path, path), group = "race")
#'   m2$n
#'   unlink(path)
#' }
#' @name group_moments_files
#' @export
group_moments.character <- function(x, group, ..., columns = NULL, chunk_rows = 100000L,
                                    bad_rows = c("error", "skip"), delim = ",", parallel = FALSE,
                                    blocks = NULL) {
  if (!is.null(dim(x))) return(group_moments.default(x, group, ..., blocks = blocks))
  if (missing(group)) group <- NULL
  fp_check_flag(parallel, "parallel")
  one <- fp_files_reader(x, group, columns, chunk_rows, bad_rows, delim, blocks = blocks, ...)
  fp_check_door_range(fp_reduce_sources(as.list(x), one, parallel))
}

# Check the arguments of the file route once and return the reader of one path (NULL for a file
# without records).
fp_files_reader <- function(x, group, columns = NULL, chunk_rows = 100000L, bad_rows = c("error", "skip"),
                            delim = ",", blocks = NULL, ...) {
  fp_require("readr", "group_moments() on files")
  if (length(x) < 1L || anyNA(x)) fp_abort("must be one or more file paths", "x")
  miss <- x[!file.exists(x)]
  if (length(miss)) fp_abort(sprintf("names file(s) that do not exist: %s", paste(utils::head(miss, 3), collapse = ", ")), "x")
  dirs <- x[dir.exists(x)]
  if (length(dirs)) {
    fp_abort(sprintf("names director(ies), not files: %s; give the files, e.g. list.files(dir, full.names = TRUE)",
                     paste(utils::head(dirs, 3), collapse = ", ")), "x")
  }
  chunk_rows <- fp_check_count(chunk_rows, 1L, .Machine$integer.max, "chunk_rows")
  bad_rows <- fp_match_arg(bad_rows, c("error", "skip"), "bad_rows")
  if (!is.character(delim) || length(delim) != 1L || is.na(delim) || nchar(delim) != 1L) {
    fp_abort("must be one character (the streaming reader splits fields on a single character)", "delim")
  }
  if (!is.null(blocks)) blocks <- fp_check_count(blocks, 10L, 1000L, "blocks")
  force(columns)
  force(group)
  dots <- fp_check_reader_options(list(...))
  function(path) fp_csv_moments(path, group, columns, chunk_rows, bad_rows, delim, dots, blocks)
}

# The options a user may pass to readr's reader: the ones the package sets itself (the column
# types, the header, the chunks) or that the reader does not take are a classed error naming
# `...`, not readr's "matched by multiple actual arguments" or "unused argument". The options
# are the reader's own formals (so they follow the installed readr) less those set here.
fp_check_reader_options <- function(dots) {
  ok <- fp_reader_options()
  nm <- names(dots)
  if (length(dots) && (is.null(nm) || any(is.na(nm) | nm == ""))) {
    fp_abort("passes unnamed argument(s) to the file reader: name them (e.g. na = c(\"\", \"NA\"))", "...")
  }
  bad <- setdiff(nm, ok)
  if (length(bad)) {
    fp_abort(sprintf("has argument(s) the file reader does not take here: %s; it takes %s (the column types, header and chunks are set by group_moments())",
                     fp_name_list(bad), fp_name_list(ok, Inf)), "...")
  }
  dots
}

fp_reader_options <- function() {
  set_here <- c("file", "callback", "delim", "chunk_size", "col_names", "col_types", "guess_max", "progress",
                "show_col_types")
  setdiff(names(formals(readr::read_delim_chunked)), c(set_here, "..."))
}

# The options that group_moments() takes for one element of a list of sources (besides x and
# group): the formals of the method it dispatches to (with readr's options for files), or NULL
# for a list (which checks its own).
fp_source_options <- function(src) {
  cls <- c(if (methods::is(src, "sparseMatrix")) "sparseMatrix", class(src), "default")
  for (cl in cls) if (!is.null(f <- utils::getS3method("group_moments", cl, optional = TRUE))) break
  if (identical(f, group_moments.list)) return(NULL)
  opts <- setdiff(names(formals(f)), c("x", "group", "...", "parallel"))
  if (identical(f, group_moments.character) && is.null(dim(src))) c(opts, fp_reader_options()) else opts
}

#' @rdname group_moments_files
#' @export
group_moments.list <- function(x, group, ..., parallel = FALSE) {
  if (length(x) < 1L) fp_abort("is an empty list", "x")
  fp_check_flag(parallel, "parallel")
  if (missing(group)) group <- NULL
  dots <- list(...)
  # each element gets the options its door takes; an option that no element takes (a misspelt
  # one) is an error naming it
  takes <- lapply(x, fp_source_options)
  if (length(dots)) {
    nm <- names(dots)
    if (is.null(nm) || any(is.na(nm) | nm == "")) fp_abort("passes unnamed argument(s) to the sources: name them", "...")
    if (!any(vapply(takes, is.null, TRUE))) {
      ok <- unique(unlist(takes))
      bad <- setdiff(nm, ok)
      if (length(bad)) {
        fp_abort(sprintf("has argument(s) that no element of `x` takes: %s (they take %s)", fp_name_list(bad),
                         fp_name_list(ok, Inf)), "...")
      }
    }
  }
  one <- function(src) {
    if (inherits(src, "group_moments")) return(src)
    opts <- fp_source_options(src)
    if (!is.null(opts)) dots <- dots[names(dots) %in% opts]
    if (is.character(src) && is.null(dim(src))) {
      # a file without records is an empty contribution here, not an error
      read <- do.call(fp_files_reader, c(list(src, group), dots))
      return(fp_reduce_sources(as.list(src), read, FALSE, allow_empty = TRUE))
    }
    do.call(group_moments, c(list(src, group), dots))
  }
  fp_check_door_range(fp_reduce_sources(x, one, parallel))
}

# Apply `one` to each source (in parallel through future.apply when asked), merge in order and
# sort the levels. A source without rows gives NULL; when every one does, that is an error
# (unless `allow_empty`, for a part of a larger list).
fp_reduce_sources <- function(sources, one, parallel, allow_empty = FALSE) {
  parts <- if (parallel) {
    fp_require("future.apply", "group_moments(parallel = TRUE)")
    future.apply::future_lapply(sources, one, future.seed = NULL,
                                future.packages = "fairproj")
  } else {
    lapply(sources, one)
  }
  keep <- which(!vapply(parts, is.null, TRUE))
  if (!length(keep)) {
    if (allow_empty) return(NULL)
    fp_abort("has no data rows (every source is empty)", "x", class = "fairproj_source_error")
  }
  # sources with the same columns in another order (files whose headers differ in order) are
  # matched by name, as rbind() matches data.frames: the columns of the first source
  ref <- parts[[keep[1L]]]$colnames
  for (i in keep[-1L]) {
    cn <- parts[[i]]$colnames
    if (identical(cn, ref)) next
    what <- if (is.character(sources[[i]]) && length(sources[[i]]) == 1L) sprintf("file '%s'", basename(sources[[i]])) else
      sprintf("element %d", i)
    if (length(cn) != length(ref) || !setequal(cn, ref)) {
      only <- function(u, v) if (length(setdiff(u, v))) fp_name_list(sprintf("'%s'", setdiff(u, v)), 5L) else "none"
      fp_abort(sprintf(paste("%s has other feature columns than the first source (its own: %s; missing: %s); every source",
                             "must have the same features: choose them with `columns`"),
                       what, only(cn, ref), only(ref, cn)), "x", class = "fairproj_source_error")
    }
    parts[[i]] <- fp_moments_columns(parts[[i]], match(ref, cn))
  }
  fp_sort_levels(Reduce(fp_merge_moments, parts[keep]))
}

# One file, in chunks of chunk_rows records after the header, through readr's record-aware
# streaming tokenizer (one pass; readr reports each malformed record or unparsable value with
# its row). Returns NULL for a file with a header and no records.
fp_csv_moments <- function(path, group, columns, chunk_rows, bad_rows, delim, dots = list(), blocks = NULL) {
  what <- sprintf("file '%s'", basename(path))
  if (isTRUE(file.size(path) == 0)) fp_abort(sprintf("%s is empty (no header line)", what), "x", class = "fairproj_source_error")
  old <- readr::local_edition(1)  # the first edition's tokenizer streams; the spec reads 1000 rows
  spec <- fp_csv_spec(path, delim, dots, what)
  if (is.null(spec) || !length(spec$cols)) {
    fp_abort(sprintf("%s has no header line", what), "x", class = "fairproj_source_error")
  }
  hdr <- names(spec$cols)
  if (!all(validUTF8(hdr))) fp_abort_encoding(what, "its header", hdr[!validUTF8(hdr)][1L])
  if (is.character(group) && length(group) == 1L && !is.na(group) && !group %in% hdr) {
    # a wrong delimiter or a comment line above the header reads as a one-column header
    fp_abort(sprintf("names column '%s', which %s does not have: its header reads as %s (with delim = \"%s\"); check `delim` and that the first line is the header",
                     group, what, fp_name_list(sprintf("'%s'", hdr), 5L), delim), "group")
  }
  group <- fp_db_group_name(group, hdr)
  columns <- fp_db_columns(columns, hdr, group)
  # readr guesses logical for a column whose first 1000 values are all missing: such a column is
  # read as numbers, so that its later values parse (and its missing values are named as such)
  lgl <- columns[vapply(columns, function(h) inherits(spec$cols[[h]], "collector_logical"), TRUE)]
  lgl <- setdiff(lgl, fp_csv_all_missing(path, delim, dots, lgl))
  types <- lapply(hdr, function(h) {
    if (h == group) return(readr::col_character())
    if (!h %in% columns) return(readr::col_skip())
    if (h %in% lgl) readr::col_logical() else readr::col_double()
  })
  names(types) <- hdr
  types <- do.call(readr::cols, types)
  state <- new.env(parent = emptyenv())
  state$out <- NULL
  state$hdr <- hdr
  # a group column the reader guesses numeric is read as text, but refused with non-integer
  # values, as a numeric vector is in memory
  state$group_numeric <- inherits(spec$cols[[group]], c("collector_double", "collector_integer", "collector_number"))
  state$records <- 0
  state$skipped <- 0
  cb <- function(ch, pos) {
    state$records <- state$records + nrow(ch)
    piece <- fp_csv_chunk_moments(ch, pos, group, columns, bad_rows, what, state, blocks)
    if (!is.null(piece)) state$out <- if (is.null(state$out)) piece else fp_merge_moments(state$out, piece)
    NULL
  }
  args <- c(list(path, readr::SideEffectChunkCallback$new(cb), delim = delim, chunk_size = chunk_rows,
                 col_types = types, progress = FALSE), dots)
  do.call(readr::read_delim_chunked, args)
  used <- if (is.null(state$out)) 0 else sum(state$out$n)
  if (used + state$skipped != state$records) {
    stop(errorCondition(sprintf("%s: %s rows used and %s skipped, but %s records read", what, format(used),
                                format(state$skipped), format(state$records)),
                        class = c("fairproj_source_error", "fairproj_error")))
  }
  if (state$skipped > 0) {
    fp_warn(sprintf("%s: skipped %s malformed record(s) or record(s) with missing values (of %s)", what,
                    format(state$skipped), format(state$records)), class = "fairproj_skipped_rows_warning")
  }
  state$out
}

# The column types readr guesses for a file (from its first 1000 records). A column name that
# appears twice in the header is an error naming it: readr would rename the second `a` to `a_1`
# with an unclassed warning, and the moments would carry a name the file does not have.
fp_csv_spec <- function(path, delim, dots, what) {
  dup <- empty <- FALSE
  spec <- withCallingHandlers(
    do.call(readr::spec_delim, c(list(path, delim = delim, guess_max = 1000L), dots)),
    warning = function(w) {
      if (grepl("uplicated column names", conditionMessage(w))) {
        dup <<- TRUE
        invokeRestart("muffleWarning")
      }
      if (grepl("issing column names", conditionMessage(w))) {
        empty <<- TRUE
        invokeRestart("muffleWarning")
      }
    })
  # the header as text, read as a record by the same tokenizer
  raw_header <- function() {
    keep <- dots[setdiff(names(dots), c("col_names", "col_types", "n_max", "skip_empty_rows"))]
    tryCatch(unlist(do.call(readr::read_delim,
                            c(list(path, delim = delim, col_names = FALSE, n_max = 1L, progress = FALSE,
                                   col_types = readr::cols(.default = readr::col_character())), keep)),
                    use.names = FALSE),
             error = function(e) character(0))
  }
  if (empty) {
    # readr would invent a name (X2) with an unclassed warning, and the moments would carry it
    raw <- raw_header()
    at <- which(is.na(raw) | !nzchar(trimws(raw)))
    fp_abort(sprintf("%s has an empty column name in its header%s; give each column a name", what,
                     if (length(at)) sprintf(" (field %s of %d)", fp_name_list(at, 5L), length(raw)) else ""),
             "x", class = "fairproj_source_error")
  }
  if (dup) {
    raw <- raw_header()
    twice <- unique(raw[duplicated(raw)])
    fp_abort(sprintf("%s has column name(s) that appear more than once in its header%s; give each column its own name",
                     what, if (length(twice)) paste0(": ", fp_name_list(sprintf("'%s'", twice))) else ""),
             "x", class = "fairproj_source_error")
  }
  spec
}

# Of the columns `cols` (guessed logical), those whose first 1000 records are all missing: read
# once more as text, a look at 1000 records (the reader's own problems are reported by the pass).
fp_csv_all_missing <- function(path, delim, dots, cols) {
  if (!length(cols)) return(character(0))
  keep <- dots[setdiff(names(dots), c("col_names", "col_types", "n_max"))]
  types <- do.call(readr::cols_only, stats::setNames(rep(list(readr::col_character()), length(cols)), cols))
  head <- tryCatch(suppressWarnings(do.call(readr::read_delim, c(list(path, delim = delim, n_max = 1000L, progress = FALSE,
                                                                      col_types = types), keep))),
                   error = function(e) NULL)
  if (is.null(head)) return(character(0))
  cols[vapply(cols, function(h) all(is.na(head[[h]])), TRUE)]
}

# The moments of one chunk of a file. Malformed records and unparsable values (readr's
# problems, whose rows count records from the start of the data) and missing values are an
# error naming the first of them, or are dropped and counted with bad_rows = "skip".
fp_csv_chunk_moments <- function(ch, pos, group, columns, bad_rows, what, state, blocks = NULL) {
  probs <- readr::problems(ch)
  g <- ch[[group]]
  enc <- which(!validUTF8(g))
  if (length(enc)) {
    fp_abort_encoding(what, sprintf("data row %s, group column '%s',", format(pos + enc[1L] - 1L, scientific = FALSE), group),
                      g[enc[1L]])
  }
  bad <- integer(0)
  if (nrow(probs)) {
    bad <- sort(unique(probs$row - pos + 1L))
    # a quote that never closes makes every later line part of one field of one record: the
    # lines lost cannot be counted, so the file is refused whatever bad_rows says
    open <- which(probs$expected == "closing quote at end of file")
    if (length(open)) {
      fp_abort(sprintf(paste("%s, data row %s: a quote opens a field that is never closed, so the rest of the file",
                             "reads as one field (its lines cannot be used or counted); fix or remove the stray quote",
                             "character, or read with quote = \"\" if the file quotes nothing"),
                       what, format(probs$row[open[1L]], scientific = FALSE)),
               "x", class = "fairproj_source_error")
    }
  }
  bad_g <- which(is.na(g))
  xm <- fp_as_matrix(as.data.frame(ch[columns]), what, min_cols = 1L, check_finite = FALSE)
  na_rows <- if (anyNA(xm)) which(rowSums(is.na(xm)) > 0) else integer(0)
  # readr reads a number written at or beyond 1e307 inexactly and without a problem (1e308 and
  # 1e400 both as 1e307): such a value is a value that does not parse (range() makes no copy)
  huge_rows <- if (length(xm) && isTRUE(max(abs(suppressWarnings(range(xm, na.rm = TRUE)))) >= 1e307)) {
    which(rowSums(abs(xm) >= 1e307, na.rm = TRUE) > 0)
  } else {
    integer(0)
  }
  bad <- sort(unique(c(bad, bad_g, na_rows, huge_rows)))
  if (length(bad) && bad_rows == "error") {
    r <- bad[1L]
    p <- probs[probs$row - pos + 1L == r, , drop = FALSE]
    detail <- if (nrow(p)) {
      if (is.na(p$col[1L])) {
        sprintf(": expected %s, found %s", p$expected[1L], p$actual[1L])  # the number of fields
      } else {
        sprintf(", column '%s': expected %s, found '%s'", state$hdr[p$col[1L]], p$expected[1L], p$actual[1L])
      }
    } else if (r %in% bad_g) {
      sprintf(paste0(", group column '%s': missing group label (an empty field, or one of the `na` strings,",
                     " by default \"NA\", which is read as missing; na = \"\" reads the text NA as a label)"), group)
    } else if (r %in% na_rows) {
      j <- which(is.na(xm[r, ]))[1L]
      sprintf(", column '%s': missing value", columns[j])
    } else {
      j <- which(abs(xm[r, ]) >= 1e307)[1L]
      sprintf(", column '%s': a value of about %s (the reader reads numbers written at or beyond 1e307 inexactly: 1e308 and 1e400 both as 1e307)",
              columns[j], format(xm[r, j], digits = 3L))
    }
    fp_abort(sprintf("%s, data row %s%s; fix the file or use bad_rows = \"skip\"", what,
                     format(pos + r - 1L, scientific = FALSE), detail), "x", class = "fairproj_source_error")
  }
  rows <- pos - 1 + seq_len(nrow(ch))  # record numbers in the file: the rows' blocks
  if (length(bad)) {
    state$skipped <- state$skipped + length(bad)
    if (length(bad) == nrow(ch)) return(NULL)
    xm <- xm[-bad, , drop = FALSE]
    g <- g[-bad]
    rows <- rows[-bad]
  }
  if (!nrow(xm)) return(NULL)
  if (isTRUE(state$group_numeric)) {
    u <- suppressWarnings(as.numeric(unique(g)))
    if (!anyNA(u) && fp_group_continuous(u)) fp_abort_group_continuous(group, u, "in the file (or read the file into R and cut() the column there)")
    # a number is one label however it is spelled ("1", "1.0", "01"), as when the column is read
    # into R as numbers: the labels of fp_num_labels(), in every chunk alike
    v <- suppressWarnings(as.numeric(g))
    num <- !is.na(v)
    g[num] <- fp_text_num_labels(g[num], v[num])
  }
  gf <- fp_as_group(g, nrow(xm), "group", min_levels = 1L)
  # moments that overflow within the chunk name the file's largest value there
  withCallingHandlers({
    if (!is.null(blocks)) {
      fp_moments_blocked(xm, gf, columns, what, blocks, rows)
    } else {
      # a column below about 1e-154 that varies within the chunk is an error here; one that
      # varies only between chunks (or files) is found when they are merged (fp_merge_moments())
      fp_check_door_range(fp_moments_dense(xm, gf, columns, what), xm, gf)
    }
  }, fairproj_overflow_error = function(e) fp_abort_file_overflow(xm, columns, rows, what))
}

# The cell of a chunk with the largest magnitude, named when the chunk's moments overflow.
fp_abort_file_overflow <- function(xm, columns, rows, what) {
  top <- vapply(seq_len(ncol(xm)), function(j) max(abs(xm[, j])), numeric(1))
  j <- which.max(top)
  i <- which.max(abs(xm[, j]))
  fp_abort(sprintf(paste("%s, data row %s, column '%s': a value of about %s, whose square overflows double precision,",
                         "so the moments cannot be formed; divide the column by a constant, or fit from the rows,",
                         "whose columns are brought into range first"),
                   what, format(rows[i], scientific = FALSE), columns[j], format(xm[i, j], digits = 3L)),
           "x", class = c("fairproj_overflow_error", "fairproj_source_error"))
}

# Text that is not valid UTF-8 (readr decodes as UTF-8 unless `locale` says otherwise): the
# labels would come back undecoded, and sorting or printing them may fail later.
fp_abort_encoding <- function(what, where, value) {
  fp_abort(sprintf(paste("%s, %s has text that is not valid UTF-8 ('%s'); give the file's encoding, e.g.",
                         "locale = readr::locale(encoding = \"latin1\")"),
                   what, where, iconv(value, "UTF-8", "UTF-8", sub = "byte")), "x", class = "fairproj_source_error")
}

#' Group moments of a sparse matrix
#'
#' A sparse matrix of the \pkg{Matrix} package (`dgCMatrix` and other sparse classes, coerced to
#' the compressed-column form) is never made dense: each group's column sums and cross-product
#' come from sparse products, in time and memory proportional to the non-zero entries plus
#' O(d^2) per group.
#'
#' The scatter is obtained as `crossprod(x_g) - n_g mean_g mean_g'`, since centring would make
#' the matrix dense. This is exact for the usual sparse data (counts, indicators, tf-idf), whose
#' column means are not large relative to their spread. A column whose mean is larger than its
#' standard deviation within a group (`n mean^2 > scatter`, both at hand), such as one with a
#' large constant offset, would lose digits to cancellation; such columns are dense anyway, so
#' they are centred densely (two passes, as for a dense matrix) and their cross-products with
#' the other columns are computed against the centred values. Memory is then the non-zeros plus
#' one dense copy of those columns per group.
#'
#' @param x A sparse matrix (`Matrix::sparseMatrix`, e.g. a `dgCMatrix`).
#' @param group Group labels, one per row.
#' @param ... Not used: an argument given here (a misspelt option) is an error of class
#'   `fairproj_input_error`.
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
  fp_check_no_dots(...names(), ...length(), "group_moments() on a sparse matrix", c("x", "group"))
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
  mean_lo <- matrix(0, d, length(lv))
  for (c in seq_along(lv)) {
    xg <- x[which(as.integer(g) == c), , drop = FALSE]
    s <- Matrix::colSums(xg)
    cp <- as.matrix(Matrix::crossprod(xg))
    mean[, c] <- s / n[c]
    sc <- cp - tcrossprod(s) / n[c]
    dense <- which(s != 0 & s^2 / n[c] > diag(sc))  # |mean| > sd: cancellation would cost digits
    if (length(dense)) {
      cc <- fp_sparse_dense_cols(xg, dense, s)
      sc[dense, dense] <- cc$scatter
      sc[-dense, dense] <- cc$cross
      sc[dense, -dense] <- t(cc$cross)
      mean[dense, c] <- cc$mean
      mean_lo[dense, c] <- cc$mean_lo
    }
    rm(xg)
    scatter[[c]] <- (sc + t(sc)) / 2
  }
  fp_check_door_range(fp_new_moments(n, mean, scatter, lv, cn, mean_lo = mean_lo), x, g)
}

# The scatter of the columns `dense` of the sparse rows `xg`, centred densely in two passes
# (plain means, then the residual sums r correct them: scatter = Z'Z - r r' / n), their exact
# means (hi + lo) and their cross-products with the other columns, X_P' (Z - 1 r' / n) =
# X_P' Z - s_P r' / n (the centred columns sum to zero, so the other columns need no centring).
fp_sparse_dense_cols <- function(xg, dense, s) {
  n <- nrow(xg)
  z <- as.matrix(xg[, dense, drop = FALSE])
  plain <- s[dense] / n
  # a column constant in the group is centred on its value exactly (as the dense pass does)
  first <- z[1L, ]
  snap <- abs(plain - first) <= 2 * (n + 2) * .Machine$double.eps * abs(first)
  plain[snap] <- first[snap]
  z <- z - rep(plain, each = n)
  r <- colSums(z)
  hi <- plain + r / n
  other <- seq_len(ncol(xg))[-dense]
  cross <- if (length(other)) {
    as.matrix(Matrix::crossprod(xg[, other, drop = FALSE], z)) - tcrossprod(s[other], r) / n
  } else matrix(0, 0, length(dense))
  list(scatter = crossprod(z) - tcrossprod(r) / n, mean = hi, mean_lo = r / n - (hi - plain), cross = cross)
}
