# The datasets of the papers: the registry (a table, one row per dataset), the front door
# fairproj_data() and the helpers the readers share. The readers, one per source format and
# preprocessing, are in data-readers.R. Nothing is downloaded: every reader reads the public
# copies listed in the data README from a directory given by the user (default: the
# environment variable FAIRPROJ_DATA) and records what it did in `info`.

# ---------------------------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------------------------

# The registry is inst/registry/datasets.csv, one row per dataset: `name`; `reader` (the
# function fp_read_<reader> in data-readers.R); `title`; `n`, `d`, `levels`, `sizes` (what the
# reader returns with its default options, checked by the tests); `group` (the attribute and
# its coding); `files` (relative to the data directory); `used_by` (papers); `source` (where the
# data come from; "{key}" stands for a source text of references.csv); `citation` (keys of
# references.csv); `label_note` and `note` (where our copy differs from a paper). Lists are
# separated by ";". Adding a dataset is one row and, when no reader fits, one reader.
fp_registry <- new.env(parent = emptyenv())

fp_registry_read <- function(file) {
  path <- system.file("registry", file, package = "fairproj", mustWork = TRUE)
  utils::read.csv(path, colClasses = "character", na.strings = character(0), encoding = "UTF-8")
}

# The registry as a named list of dataset specifications (the readers' `spec`), read once.
fp_data_registry <- function() {
  if (is.null(fp_registry$specs)) fp_registry$specs <- fp_registry_specs(fp_registry_read("datasets.csv"),
                                                                          fp_registry_read("references.csv"))
  fp_registry$specs
}

fp_registry_specs <- function(tab, refs) {
  split <- function(s) if (nzchar(s)) strsplit(s, ";", fixed = TRUE)[[1]] else character(0)
  sources <- refs[refs$kind == "source", ]
  cites <- stats::setNames(refs$text[refs$kind == "citation"], refs$key[refs$kind == "citation"])
  specs <- lapply(seq_len(nrow(tab)), function(i) {
    r <- tab[i, ]
    src <- r$source
    for (j in seq_len(nrow(sources))) src <- gsub(paste0("{", sources$key[j], "}"), sources$text[j], src, fixed = TRUE)
    keys <- split(r$citation)
    if (!all(keys %in% names(cites))) stop("registry: unknown citation key(s) for dataset ", r$name)
    note <- c(r$label_note, r$note)
    note <- note[nzchar(note)]
    list(name = r$name, family = r$reader, files = split(r$files), title = r$title,
         n = as.integer(r$n), d = as.integer(r$d), group = r$group, levels = split(r$levels),
         sizes = as.integer(split(r$sizes)), used_by = r$used_by, source = src,
         citation = unname(cites[keys]), note = if (length(note)) note else NULL)
  })
  stats::setNames(specs, tab$name)
}

# The reader of a registry row: the function fp_read_<reader> of the namespace.
fp_data_reader <- function(reader) {
  get(paste0("fp_read_", reader), envir = asNamespace("fairproj"), mode = "function", inherits = FALSE)
}


#' Datasets of the papers
#'
#' Lists every dataset name that [fairproj_data()] knows, with the dimensions and group sizes
#' its reader returns with the default options, the group attribute, the file(s) it needs
#' (relative to the data directory) and the papers that use it.
#'
#' @return A data.frame with one row per dataset: `name`, `title`, `n` (rows), `d` (columns of
#'   `x`), `groups` (number of groups), `group` (the attribute and its coding), `sizes` (group
#'   sizes, in the order of the factor levels), `files`, `used_by` and `note` (where our copy
#'   differs from a paper). For the Lee et al. splits, `n` and `sizes` are those of
#'   `split = 0, part = "train"`.
#' @seealso [fairproj_data()]
#' @examples
#' ds <- fairproj_datasets()
#' ds[, c("name", "n", "d", "groups")]
#' @export
fairproj_datasets <- function() {
  reg <- fp_data_registry()
  sizes <- vapply(reg, function(s) {
    if (anyNA(s$sizes)) return(NA_character_)
    paste(paste0(s$levels, "=", s$sizes), collapse = "; ")
  }, "")
  data.frame(
    name = names(reg),
    title = vapply(reg, `[[`, "", "title"),
    n = vapply(reg, function(s) as.integer(s$n), 1L),
    d = vapply(reg, function(s) as.integer(s$d), 1L),
    groups = vapply(reg, function(s) length(s$levels), 1L),
    group = vapply(reg, `[[`, "", "group"),
    sizes = unname(sizes),
    files = vapply(reg, function(s) paste(s$files, collapse = ", "), ""),
    used_by = vapply(reg, `[[`, "", "used_by"),
    note = vapply(reg, function(s) paste(s$note, collapse = " "), ""),
    row.names = NULL, stringsAsFactors = FALSE
  )
}

# ---------------------------------------------------------------------------------------------
# Front door
# ---------------------------------------------------------------------------------------------

#' Load a dataset of the papers
#'
#' Reads one of the datasets used in the experiments of the papers implemented by the package,
#' from local copies of the public files, and applies the preprocessing of the paper that uses
#' it. Nothing is downloaded: the files are looked up in `dir` (by default the environment
#' variable `FAIRPROJ_DATA`); [fairproj_datasets()] lists the names and the files each needs.
#' A missing file gives an error of class `fairproj_data_error` that names the file, the
#' directory searched and where the data come from. A file `name.csv` is used when the
#' compressed `name.csv.xz` is absent. A malformed file (a line with more or fewer fields than the
#' header, repeated column names, a missing, infinite or text value where a number is expected,
#' too few rows, an LFW line that is not one image of 1764 integers) gives the same class, naming
#' the file and the line and column; numbers stored as text (`"n/a"` or `"3,5"` in a numeric
#' column) also have the class `fairproj_text_numbers_error`, and text that is not valid UTF-8
#' the class `fairproj_encoding_error`.
#'
#' @section Datasets and their preprocessing:
#' * `credit`: the Samadi et al. (2018) credit file (`credit/default_degree.csv.xz`): their 21
#'   features (SEX ... PAY_AMT5; their code drops PAY_AMT6), groups by education (high =
#'   graduate school or university, low = the other codes: 24615 / 5385), each column centred and
#'   divided by its standard deviation (`standardise`). The group centring the fair PCA uses is
#'   done by the methods of the package (per-group moments); `center_groups = TRUE` also centres
#'   each group's rows at its own mean. Options: `standardise = TRUE`, `all_features = FALSE`
#'   (`TRUE` keeps PAY_AMT6, as a Python port does), `center_groups = FALSE`.
#' * `lfw`: 13232 LFW faces of Samadi et al., 1764 pixels (49 x 36 crops, row-major), groups
#'   female 2962 / male 10270, pixel values divided by 255. The file stores integers k with
#'   pixel value k / 3; `exact = TRUE` uses `lfw/value_map.csv` to return the float32 values of
#'   the original text files bit for bit. Options: `scale = TRUE` (divide by 255),
#'   `exact = FALSE`, `center_groups = FALSE`. Reading takes a few seconds. The element
#'   `attributes` is a data.frame of the attributes the data offer for intersectional groups:
#'   `sex` and the binary race flags `asian`, `black`, `white` (factors "no"/"yes"; they overlap,
#'   28 images have none and 779 all three), e.g.
#'   `fair_pca(d$x, d$attributes[c("sex", "white")], k = 10)`.
#' * `lfw576`: the Vu et al. (2022) variant: 2000 female and 2000 male faces drawn at random
#'   with `seed` (R's Mersenne-Twister with "Rejection" sampling, set locally; the random state
#'   of the session is restored), in the original row order, each image resized from 49 x 36 to
#'   `size` x `size` = 24 x 24 by area averaging (each output pixel is the overlap-weighted mean
#'   of the input pixels its cell covers). `info$rows` gives the rows of `lfw` used. Options:
#'   `n_per_group = 2000`, `seed = 1`, `size = 24`, `scale = TRUE`.
#' * `default_credit`, `biodeg`, `ecoli`, `energy`, `german_credit`, `image`, `letter`, `magic`,
#'   `parkinsons`, `skillcraft`, `statlog`, `steel`, `taiwan_credit`, `wine_quality`: the
#'   preprocessed files of Olfat & Aswani (2019) used by Vu et al. (2022), Table 2 (last column =
#'   sensitive attribute, second-to-last = `y`). As in the Vu et al. code, constant columns are
#'   dropped (and perimX, perimY for `steel`), which gives the `d` of their Table 2, and each
#'   column is standardised with the population standard deviation (divisor n). Options:
#'   `standardise = TRUE` (use `FALSE` to standardise with training statistics yourself, as their
#'   train/test protocol does), `drop_constant = TRUE`; for `skillcraft` also
#'   `version = c("drfpca", "olfat")`.
#' * `lee_adult`, `lee_compas`, `lee_german`: the 10 random 70/30 splits of Lee et al. (2022)
#'   used by Kleindessner et al. (2023); features already standardised with the training
#'   statistics of each split; the protected attribute is also one of the features, as in
#'   those papers. Options: `split = 0` (0 to 9), `part = c("train", "test", "full")` (`"full"`:
#'   the unstandardised subsample, COMPAS and German only), `drop_protected = FALSE`.
#' * `css_heart`, `css_german`, `css_credit`, `css_student`, `css_adult`, `css_compas`,
#'   `css_communities`: the Fair CSS datasets of Matakos et al. (2024) with their preprocessing:
#'   the protected attribute is dropped, categorical columns are one-hot encoded (numeric
#'   columns first, then the indicators of each categorical column, levels in sorted order,
#'   named `column_level`), label columns are kept as features, as in their code, and each
#'   group's columns are scaled to unit Euclidean norm within the group, then rounded to 5
#'   decimals. The first factor level is their group A. Dataset specifics: heart drops the 6
#'   rows with missing values; german derives sex from the personal status (A92, A95 = female);
#'   compas converts 8 dates to days since 1900-01-01, keeps their 30 columns and drops rows
#'   with a missing value; communities drops county, community, communityname and the 22
#'   LEMAS/police columns, sets missing values to 0 and drops racePctWhite and racepctblack
#'   after forming the groups. Options: `normalise = TRUE` (`FALSE` returns the one-hot matrix
#'   without per-group normalisation), `digits = 5` (`NULL`: no rounding).
#' * `adult_race`, `adult_sex`, `credit_marriage`, `credit_sex`: the data of Kamani et al.
#'   (2022): UCI `adult.data` with its 14 features (label dropped; sex and race kept) and UCI
#'   credit with its 23 features (ID and label dropped). Their encoding and scaling are not
#'   stated; by default categorical columns are coded as integers (sorted levels, from 0) and
#'   every column is standardised (divisor n - 1). Options: `standardise = TRUE`,
#'   `encoding = c("integer", "onehot")` (Adult), `part = c("train", "test")` (Adult: `"test"`
#'   reads the official test file `adult.test`, 16281 rows, coded and standardised with the
#'   levels, means and standard deviations of `adult.data`, so that a model fitted on the
#'   training data applies to it), `drop_unknown = TRUE` (`credit_marriage`: drop the 54 rows
#'   with MARRIAGE = 0).
#'
#' @param name Dataset name, one of `fairproj_datasets()$name`.
#' @param dir Directory holding the data files (the layout of the data README: `credit/`,
#'   `lfw/`, `olfat/`, `css/`, `lee/`). Defaults to the environment variable `FAIRPROJ_DATA`.
#' @param ... Options of the dataset's reader (see the section above). Unknown options give an
#'   error.
#' @return An object of class `fairproj_data`: a list with
#'   * `x`: numeric matrix (rows = observations) with column names;
#'   * `group`: factor, one level per group;
#'   * `y`: the label (numeric), or `NULL` when the dataset has none;
#'   * `info`: list with `name`, `title`, `source`, `citation`, `used_by`, `files` (full paths
#'     read), `group` (the attribute and its coding), `preprocessing` (character vector of the
#'     steps applied), `options` (the reader's options), `notes` (differences from the papers)
#'     and, for some datasets, more fields (`dropped` columns, `rows` used).
#' @seealso [fairproj_datasets()], [fair_pca()]
#' @examples
#' fairproj_datasets()[, c("name", "n", "d")]
#' if (nzchar(Sys.getenv("FAIRPROJ_DATA"))) {
#'   ecoli <- fairproj_data("ecoli")
#'   print(ecoli)
#'   fit <- fair_pca(ecoli$x, ecoli$group, k = 2)
#' }
#' @export
fairproj_data <- function(name, dir = Sys.getenv("FAIRPROJ_DATA"), ...) {
  fp_check_given("name")
  reg <- fp_data_registry()
  if (!is.character(name) || length(name) != 1L || is.na(name)) {
    fp_abort("must be a single string; see fairproj_datasets()$name", "name")
  }
  if (!name %in% names(reg)) {
    near <- agrep(name, names(reg), value = TRUE, max.distance = 0.2)
    hint <- if (length(near)) sprintf(" (did you mean %s?)", paste(shQuote(near), collapse = ", ")) else ""
    fp_abort(sprintf("'%s' is not a known dataset%s; see fairproj_datasets()$name", name, hint), "name")
  }
  if (!is.character(dir) || length(dir) != 1L || is.na(dir)) {
    fp_abort("must be a single directory path (a string)", "dir")
  }
  spec <- reg[[name]]
  reader <- fp_data_reader(spec$family)
  dots <- list(...)
  allowed <- setdiff(names(formals(reader)), c("spec", "dir"))
  if (length(dots)) {
    nm <- names(dots)
    if (is.null(nm) || any(!nzchar(nm))) fp_abort("options must be named", "...")
    bad <- setdiff(nm, allowed)
    if (length(bad)) {
      fp_abort(sprintf("unknown option(s) %s for dataset '%s'; its options are: %s",
                       paste(shQuote(bad), collapse = ", "), name,
                       if (length(allowed)) paste(allowed, collapse = ", ") else "none"), "...")
    }
  }
  do.call(reader, c(list(spec = spec, dir = dir), dots))
}

#' @export
print.fairproj_data <- function(x, ...) {
  info <- x$info
  cat(sprintf("fairproj dataset '%s': %s\n", info$name, info$title))
  cat(sprintf("  %d rows x %d columns; label: %s\n", nrow(x$x), ncol(x$x),
              if (is.null(x$y)) "none" else "yes"))
  tab <- table(x$group)
  cat(sprintf("  groups (%s): %s\n", info$group,
              paste(paste0(names(tab), " ", as.integer(tab)), collapse = ", ")))
  cat("  preprocessing:\n")
  cat(paste0("    - ", info$preprocessing, "\n"), sep = "")
  if (length(info$notes)) cat(paste0("  note: ", info$notes, "\n"), sep = "")
  cat(sprintf("  used by: %s\n", info$used_by))
  invisible(x)
}

# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------

# A fairproj_data_error naming `arg` (the data directory unless said otherwise): the message
# completes "`dir` ...".
fp_data_abort <- function(message, arg = "dir", class = NULL) {
  fp_abort(message, arg, class = c(class, "fairproj_data_error"))
}

# The error for a file of the data directory that cannot be what the reader expects: `what`
# says where (line, column) and what to do.
fp_data_bad_file <- function(path, what, class = NULL) {
  fp_data_abort(sprintf("holds a malformed file '%s': %s", path, what), class = class)
}

# Full path of a data file; a classed error naming the file, the directory and the source
# when it is missing.
fp_data_file <- function(spec, dir, rel) {
  if (!nzchar(dir)) {
    fp_data_abort(sprintf(paste(
      "is empty: dataset '%s' needs the file '%s', but no data directory was given;",
      "set the environment variable FAIRPROJ_DATA or pass `dir`.",
      "The data originally come from: %s. fairproj never downloads data"),
      spec$name, rel, spec$source))
  }
  path <- file.path(dir, rel)
  if (file.exists(path)) return(path)
  plain <- sub("\\.xz$", "", path)
  if (plain != path && file.exists(plain)) return(plain)
  fp_data_abort(sprintf(paste(
    "lacks the file '%s' of dataset '%s': not found in the data directory '%s' (looked for '%s').",
    "The data originally come from: %s. fairproj never downloads data:",
    "put a copy of the file there, or point `dir` / FAIRPROJ_DATA to the directory that has it"),
    rel, spec$name, normalizePath(dir, mustWork = FALSE), path, spec$source))
}

# `expr` (a reading function on `path`) evaluated with its errors and warnings turned into the
# classed error of a malformed file: a warning of read.table() or scan() ("EOF within quoted
# string", "number of items read is not a multiple ...") means the data read are not the file's.
# A missing newline at the end of the file is harmless and passes.
fp_data_guard <- function(path, expr) {
  fail <- function(e) fp_data_bad_file(path, conditionMessage(e))
  tryCatch(withCallingHandlers(expr, warning = function(w) {
    if (grepl("incomplete final line", conditionMessage(w), fixed = TRUE)) invokeRestart("muffleWarning")
  }), error = fail, warning = fail)
}

# A CSV file read by utils::read.csv() (`...`: its arguments) and checked, so that a damaged or
# foreign copy is a classed error naming the file and line, never other data: every line has the
# header's number of fields (read.csv() would take the first column of a one-field-short header
# for row names, wrap a longer line into a new row and pad a shorter one), names are kept as
# written (check.names = FALSE) and must be unique (`dupes = "pandas"` renames repeats x.1, x.2,
# as pandas does) and valid UTF-8 like every text cell, no number is infinite, and there are at
# least `min_rows` data rows. The row names of the result are the rows' line numbers in the file,
# for the messages of later checks (fp_data_line()).
fp_data_read_csv <- function(path, ..., min_rows = 2L, dupes = c("error", "pandas")) {
  dupes <- match.arg(dupes)
  lines <- fp_data_csv_lines(path, list(...))
  df <- fp_data_guard(path, utils::read.csv(path, ..., check.names = FALSE))
  if (nrow(df) == length(lines)) row.names(df) <- lines
  fp_data_check_utf8(df, path)
  if (dupes == "pandas") names(df) <- make.unique(names(df), sep = ".")
  dup <- unique(names(df)[duplicated(names(df))])
  if (length(dup)) {
    fp_data_bad_file(path, sprintf("the header repeats the column name(s) %s; give each column its own name",
                                   paste(shQuote(dup), collapse = ", ")))
  }
  fp_data_check_infinite(df, path)
  if (nrow(df) < min_rows) {
    fp_data_bad_file(path, sprintf("it has %d data row(s); at least %d are needed", nrow(df), min_rows))
  }
  df
}

# The line numbers of the data rows of a CSV file read with read.csv() options `opts`, after
# checking that every line has as many fields as the header (or, without one, as `col.names` or
# the first line). Empty lines are skipped, as read.csv() does; a record whose quoted field spans
# lines counts at its last line.
fp_data_csv_lines <- function(path, opts) {
  opt <- function(nm, default) if (is.null(opts[[nm]])) default else opts[[nm]]
  skip <- opt("skip", 0L)
  header <- opt("header", TRUE)
  n <- fp_data_guard(path, utils::count.fields(path, sep = opt("sep", ","), quote = opt("quote", "\""),
                                               skip = skip, blank.lines.skip = FALSE,
                                               comment.char = opt("comment.char", "")))
  rec <- which(!is.na(n) & n > 0L)
  if (!length(rec)) fp_data_bad_file(path, "it is empty")
  want <- if (!header && !is.null(opts$col.names)) length(opts$col.names) else n[rec[1L]]
  bad <- rec[n[rec] != want]
  if (length(bad)) {
    fp_data_bad_file(path, sprintf(paste("line %d has %d field(s) where %s has %d; every line needs one field",
                                         "per column (check for a missing or extra separator)"),
                                   bad[1L] + skip, n[bad[1L]],
                                   if (header) "the header" else if (is.null(opts$col.names)) "the first line" else "the format",
                                   want))
  }
  (if (header) rec[-1L] else rec) + skip
}

# Where row `i` of a data.frame from fp_data_read_csv() is in its file.
fp_data_line <- function(df, i) {
  sprintf("line %s", row.names(df)[i])
}

# Column names and text cells that are not valid UTF-8 (a file saved in another encoding): the
# names would fail in later string operations and the cells would become undecodable levels.
fp_data_check_utf8 <- function(df, path) {
  if (!all(validUTF8(names(df)))) {
    fp_data_bad_file(path, sprintf("its header has text that is not valid UTF-8 ('%s'); save the file as UTF-8",
                                   iconv(names(df)[!validUTF8(names(df))][1L], "UTF-8", "UTF-8", sub = "byte")),
                     class = "fairproj_encoding_error")
  }
  for (j in which(vapply(df, is.character, logical(1)))) {
    i <- which(!validUTF8(df[[j]]))
    if (length(i)) {
      fp_data_bad_file(path, sprintf("%s, column '%s' has text that is not valid UTF-8 ('%s'); save the file as UTF-8",
                                     fp_data_line(df, i[1L]), names(df)[j],
                                     iconv(df[[j]][i[1L]], "UTF-8", "UTF-8", sub = "byte")),
                       class = "fairproj_encoding_error")
    }
  }
}

# Infinite numbers ("Inf", "1e999"): read.csv() parses them, and centring or scaling would turn
# their whole column into NaN.
fp_data_check_infinite <- function(df, path) {
  for (j in which(vapply(df, is.double, logical(1)))) {
    i <- which(is.infinite(df[[j]]))
    if (length(i)) {
      fp_data_bad_file(path, sprintf("%s, column '%s' holds an infinite value (%s); replace it by a finite number",
                                     fp_data_line(df, i[1L]), names(df)[j], format(df[[j]][i[1L]])))
    }
  }
}

fp_data_check_cols <- function(df, need, path) {
  miss <- setdiff(need, names(df))
  if (length(miss)) {
    fp_data_bad_file(path, sprintf("it lacks the expected column(s) %s; is it the file described in the data README?",
                                   paste(shQuote(miss), collapse = ", ")))
  }
}

# Numeric matrix of the columns of `df` (from fp_data_read_csv()): a column holding text and a
# missing value are classed errors naming the column and the line.
fp_data_numeric <- function(df, path) {
  ok <- vapply(df, function(v) is.numeric(v) || is.logical(v), logical(1))
  if (!all(ok)) {
    fp_data_text_numbers(df[!ok], path)
    v <- as.character(df[[which(!ok)[1L]]])
    i <- c(which(!is.na(v) & is.na(suppressWarnings(as.numeric(v)))), 1L)[1L]
    fp_data_bad_file(path, sprintf("column(s) %s hold text where numbers were expected (%s: '%s')",
                                   paste(shQuote(names(df)[!ok]), collapse = ", "), fp_data_line(df, i), v[i]))
  }
  fp_data_check_missing(df, path)
  x <- as.matrix(df)
  storage.mode(x) <- "double"
  x
}

# A missing value (NA, an empty numeric cell) where the reader needs every value: a classed
# error naming the first column that has one and its line.
fp_data_check_missing <- function(df, path) {
  na <- vapply(df, anyNA, logical(1))
  if (!any(na)) return(invisible())
  j <- which(na)[1L]
  fp_data_bad_file(path, sprintf("%s, column '%s' has a missing value (%d in all); the reader needs every value",
                                 fp_data_line(df, which(is.na(df[[j]]))[1L]), names(df)[j],
                                 sum(vapply(df, function(v) sum(is.na(v)), 1))))
}

# Text columns of `df` that hold numbers stored as text: more than half of their non-empty cells
# read as numbers (a decimal comma allowed), so that a stray "n/a" or "3,5" in a numeric column
# is refused, naming its line, rather than turning each distinct value into an indicator column.
fp_data_text_numbers <- function(df, path) {
  for (nm in names(df)) {
    v <- trimws(as.character(df[[nm]]))
    use <- !is.na(v) & nzchar(v)
    plain <- !is.na(suppressWarnings(as.numeric(v)))
    num <- plain | !is.na(suppressWarnings(as.numeric(sub(",", ".", v, fixed = TRUE))))
    i <- which(use & !plain)
    if (length(i) && sum(use & num) > sum(use) / 2) {
      fp_data_bad_file(path, sprintf(paste("column '%s' holds numbers stored as text (%s: '%s'; %d of its %d values",
                                           "are numbers); write numbers with a decimal point and missing values as NA"),
                                     nm, fp_data_line(df, i[1L]), v[i[1L]], sum(use & num), sum(use)),
                       class = "fairproj_text_numbers_error")
    }
  }
}

# Group factor from codes, with the levels in `levels` order; errors on unknown codes.
fp_data_group <- function(codes, values, levels, path, column) {
  idx <- match(codes, values)
  if (anyNA(idx)) {
    bad <- unique(codes[is.na(idx)])
    fp_data_bad_file(path, sprintf("column %s has unexpected value(s) %s (expected %s)", column,
                                   paste(utils::head(bad, 5), collapse = ", "), paste(values, collapse = ", ")))
  }
  factor(levels[idx], levels = levels)
}

# Columns brought into the range where their squares neither overflow nor underflow: a column
# whose largest absolute value is beyond 1e150 or below 1e-150 is divided by it. Used before
# sums of squares whose result does not depend on the column's scale (standardisation, unit
# norms); the other columns are left as they are, bit for bit.
fp_data_tame <- function(x) {
  m <- apply(x, 2L, function(v) max(abs(v)))
  far <- m > 0 & (m > 1e150 | m < 1e-150)
  if (any(far)) x[, far] <- sweep(x[, far, drop = FALSE], 2L, m[far], "/")
  x
}

# Column standardisation; divisor n (population) or n - 1. Constant columns are only centred.
# Centred first, then tamed (fp_data_tame()), so that a column of values near 1e200 or 1e-170 is
# standardised like any other.
fp_data_standardise <- function(x, population = FALSE) {
  n <- nrow(x)
  mu <- colMeans(x)
  x <- fp_data_tame(sweep(x, 2L, mu))
  s <- sqrt(colSums(x^2) / if (population) n else (n - 1))
  s[s == 0] <- 1
  sweep(x, 2L, s, "/")
}

fp_data_center_groups <- function(x, group) {
  for (g in levels(group)) {
    i <- which(group == g)
    x[i, ] <- sweep(x[i, , drop = FALSE], 2L, colMeans(x[i, , drop = FALSE]))
  }
  x
}

# One-hot encoding in the column order of pandas.get_dummies: the non-character columns in their
# order, then for each character column (in order) one indicator per level, levels sorted in
# C-locale order, named `column_level`.
fp_data_onehot <- function(df) {
  is_chr <- vapply(df, function(v) is.character(v) || is.factor(v), logical(1))
  num <- df[!is_chr]
  blocks <- lapply(names(df)[is_chr], function(nm) {
    v <- as.character(df[[nm]])
    lev <- sort(unique(v), method = "radix")
    m <- outer(v, lev, "==") * 1
    colnames(m) <- paste0(nm, "_", lev)
    m
  })
  out <- as.matrix(num)
  storage.mode(out) <- "double"
  if (length(blocks)) out <- cbind(out, do.call(cbind, blocks))
  out
}

fp_check_split <- function(split) {
  if (!is.numeric(split) || length(split) != 1L || is.na(split) || split != round(split) ||
      split < 0 || split > 9) {
    fp_abort("must be a whole number from 0 to 9", "split")
  }
  as.integer(split)
}

new_fairproj_data <- function(x, group, y, spec, files, preprocessing, options, notes = NULL,
                              extra = list()) {
  fp_data_check_result(x, files[1L])
  stopifnot(is.matrix(x), is.double(x), !is.null(colnames(x)), is.factor(group),
            length(group) == nrow(x), is.null(y) || length(y) == nrow(x))
  rownames(x) <- NULL
  info <- c(list(name = spec$name, title = spec$title, source = spec$source,
                 citation = spec$citation, used_by = spec$used_by, files = unname(files),
                 group = spec$group, preprocessing = preprocessing, options = options,
                 notes = c(spec$note, notes)), extra)
  structure(list(x = x, group = group, y = y, info = info), class = "fairproj_data")
}

# What every dataset must be, whatever the file: a row and a column at least (the readers ask
# for more where they need it), and finite values after the preprocessing (a classed error
# naming the file, never data with NaN in them).
fp_data_check_result <- function(x, path) {
  if (!nrow(x)) fp_data_bad_file(path, "it leaves no usable row")
  if (!ncol(x)) fp_data_bad_file(path, "it leaves no feature column")
  if (anyNA(x) || fp_any_infinite(x)) {
    j <- which(colSums(!is.finite(x)) > 0)[1L]
    fp_data_bad_file(path, sprintf("column '%s' is not finite after the preprocessing; check its values' range",
                                   colnames(x)[j]))
  }
}
