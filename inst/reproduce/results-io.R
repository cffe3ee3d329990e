# Shared convention for the stored full-protocol results of inst/reproduce/.
#
# Every script writes long-format CSVs, gzip-compressed (the provenance columns repeat on every
# row; read.csv() reads them as they are), to inst/reproduce/results/<name>.csv.gz (or the
# directory in FAIRPROJ_RESULTS) with the columns
#   dataset, method, metric, split, value, published, commit, date, machine
# `split` is the split index (0-based) or "mean"/"sd" for aggregates; `published` is the paper's
# number for that cell (NA where the paper gives none). Partial results are appended as each
# dataset (or dataset x split) finishes, so an interrupted run loses nothing; rerunning a
# dataset replaces its rows. Vignettes read the stored tables with repro_read().
#
# Source this file from a script: source(file.path(dirname(script), "results-io.R")) or
# source(system.file("reproduce", "results-io.R", package = "fairproj")).

repro_results_dir <- function() {
  d <- Sys.getenv("FAIRPROJ_RESULTS", "")
  if (!nzchar(d)) {
    # inside a source checkout: inst/reproduce/results; otherwise a temporary directory
    here <- if (file.exists(file.path("inst", "reproduce"))) file.path("inst", "reproduce", "results") else ""
    d <- if (nzchar(here)) here else file.path(tempdir(), "fairproj-results")
  }
  dir.create(d, recursive = TRUE, showWarnings = FALSE)
  d
}

repro_provenance <- function() {
  commit <- tryCatch(system2("git", c("rev-parse", "--short", "HEAD"), stdout = TRUE, stderr = FALSE),
                     error = function(e) NA_character_, warning = function(w) NA_character_)
  if (!length(commit)) commit <- NA_character_
  cpu <- tryCatch({
    l <- grep("^model name", readLines("/proc/cpuinfo", warn = FALSE), value = TRUE)[1]
    trimws(sub("^[^:]*:", "", l))
  }, error = function(e) NA_character_, warning = function(w) NA_character_)
  si <- Sys.info()
  list(commit = commit[1], date = format(Sys.time(), "%Y-%m-%d", tz = "UTC"),
       machine = sprintf("%s %s, %s, %d cores, %s", si[["sysname"]], si[["machine"]],
                         if (is.na(cpu)) "cpu unknown" else cpu, parallel::detectCores(),
                         R.version.string))
}

# The stored file of table `name` in the results directory: <name>.csv.gz, or an older plain
# <name>.csv when only that exists.
repro_path <- function(name, dir = repro_results_dir()) {
  gz <- file.path(dir, paste0(name, ".csv.gz"))
  plain <- file.path(dir, paste0(name, ".csv"))
  if (!file.exists(gz) && file.exists(plain)) plain else gz
}

# Append (replacing rows with the same `replace_by` key values) to results/<name>.csv.gz.
repro_write <- function(df, name, replace_by = "dataset") {
  need <- c("dataset", "method", "metric", "split", "value", "published")
  miss <- setdiff(need, names(df))
  if (length(miss)) stop("repro_write: missing columns ", paste(miss, collapse = ", "))
  pv <- repro_provenance()
  df$split <- as.character(df$split)
  df$commit <- pv$commit; df$date <- pv$date; df$machine <- pv$machine
  df <- df[c(need, "commit", "date", "machine", setdiff(names(df), c(need, "commit", "date", "machine")))]
  path <- repro_path(name)
  if (file.exists(path)) {
    old <- utils::read.csv(path, stringsAsFactors = FALSE, colClasses = c(split = "character", commit = "character"))
    key_old <- do.call(paste, c(old[replace_by], sep = "\r"))
    key_new <- unique(do.call(paste, c(df[replace_by], sep = "\r")))
    old <- old[!key_old %in% key_new, , drop = FALSE]
    cols <- union(names(old), names(df))
    for (cn in setdiff(cols, names(old))) old[[cn]] <- if (nrow(old)) NA else logical(0)
    for (cn in setdiff(cols, names(df))) df[[cn]] <- NA
    df <- rbind(old[cols], df[cols])
  }
  out <- file.path(repro_results_dir(), paste0(name, ".csv.gz"))
  con <- gzfile(out, "w")
  utils::write.csv(df, con, row.names = FALSE)
  close(con)
  if (path != out) unlink(path)  # a plain CSV of an older run is replaced by the compressed one
  invisible(out)
}

# Read a stored table: from the installed package (vignettes) or a source checkout.
repro_read <- function(name) {
  dirs <- c(Sys.getenv("FAIRPROJ_RESULTS", ""), file.path("inst", "reproduce", "results"),
            system.file("reproduce", "results", package = "fairproj"))
  dirs <- dirs[nzchar(dirs)]
  cand <- unlist(lapply(dirs, function(d) file.path(d, paste0(name, c(".csv.gz", ".csv")))))
  cand <- cand[file.exists(cand)]
  if (!length(cand)) return(NULL)
  utils::read.csv(cand[1], stringsAsFactors = FALSE, colClasses = c(split = "character", commit = "character"))
}

# One line describing where and when a stored table was computed, for vignette captions.
repro_label <- function(tab) {
  if (is.null(tab) || !nrow(tab)) return("no stored results")
  sprintf("Stored full-protocol results: commit %s, %s, %s.",
          paste(unique(stats::na.omit(tab$commit)), collapse = "/"),
          paste(range(tab$date, na.rm = TRUE), collapse = " to "),
          paste(unique(tab$machine), collapse = "; "))
}
