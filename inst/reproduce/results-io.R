# Shared convention for the stored full-protocol results of inst/reproduce/.
#
# Every script writes long-format CSVs, xz-compressed (the provenance columns repeat on every
# row; xz stores them in a third less space than gzip; read.csv() reads them as
# they are), to inst/reproduce/results/<name>.csv.xz (or the directory in FAIRPROJ_RESULTS)
# with the columns
#   dataset, method, metric, split, value, published, commit, dirty, sd_divisor, date, machine,
#   settings
# `split` is the split index (0-based) or "mean"/"sd" for aggregates; `published` is the paper's
# number for that cell (NA where the paper gives none). Partial results are appended as each
# dataset (or dataset x split) finishes, so an interrupted run loses nothing; rerunning a
# dataset replaces its rows. Vignettes read the stored tables with repro_read().
#
# Provenance. A script calls repro_attach() instead of library(fairproj). In a git checkout
# whose tracked files equal the commit checked out (stored results aside), it installs that
# commit itself (git archive, R CMD INSTALL, cached per commit) and loads the package from
# there, so `commit` names the code that produced each row and `dirty` is FALSE. A tree with
# uncommitted changes stops the script, unless FAIRPROJ_ALLOW_DIRTY=1: the rows then record
# HEAD with `dirty` TRUE. `dirty` NA marks rows stored before this check, whose `commit` is
# the HEAD at the time they were written. `sd_divisor` states the standard deviation of the
# "sd" rows: "n" (population, as numpy's std) or "n-1" (sample, as R's sd()); "none" when the
# file has no sd rows. `settings` records the run's command-line arguments and FAIRPROJ_*
# variables (repro_setup()); NA on rows stored before it was recorded. The scripts themselves
# are read from the working tree, which equals the commit when the check passes; do not edit a
# script while it runs (Rscript reads its file as it goes).
#
# Quick mode and provenance.csv: quick.R reruns every script on a stated subset of its protocol
# and compares the rows with the stored ones (repro_compare() below); from a clean checkout it
# writes results/provenance.csv, one row per stored file: its commits and `dirty` values, how it
# was written and the partial rerun that reproduced it. repro_label() quotes that rerun; nothing
# needs the file.
#
# The preamble of a script that stores results is one line to find this file and one call:
#   source(file.path(local({f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
#     if (length(f)) dirname(f[1]) else system.file("reproduce", package = "fairproj")}), "results-io.R"))
#   repro_setup(packages = "ECOSolveR", helpers = "vu-common.R")
# Vignettes source it from the installed package to read stored tables (repro_read()).

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

# Provenance of this process, set once by repro_attach().
.repro_state <- new.env(parent = emptyenv())

repro_git <- function(repo, ...) {
  out <- suppressWarnings(tryCatch(system2("git", c("-C", shQuote(repo), ...), stdout = TRUE, stderr = FALSE),
                                   error = function(e) structure(character(0), status = 1L)))
  if (!is.null(attr(out, "status"))) NULL else out
}

# The git checkout of fairproj containing `dir`: its root, the commit checked out and the tracked
# files that differ from it (stored results excluded: a running script rewrites them). NULL
# outside a git checkout of the package.
repro_code_state <- function(dir = getwd()) {
  top <- repro_git(dir, "rev-parse", "--show-toplevel")
  if (!length(top)) return(NULL)
  desc <- file.path(top, "DESCRIPTION")
  if (!file.exists(desc) || !identical(unname(read.dcf(desc, "Package")[1, 1]), "fairproj")) return(NULL)
  commit <- repro_git(top, "rev-parse", "--short=10", "HEAD")
  # tracked files anywhere, and untracked files where code is read from (a new helper that
  # a script sources is not in the commit)
  changed <- c(substring(repro_git(top, "status", "--porcelain", "--untracked-files=no", "--", ".",
                                   shQuote(":(exclude)inst/reproduce/results")), 4L),
               repro_git(top, "ls-files", "--others", "--exclude-standard", "--", "R", "src", "inst",
                         shQuote(":(exclude)inst/reproduce/results"), "DESCRIPTION", "NAMESPACE"))
  list(repo = top, commit = commit, changed = changed, dirty = length(changed) > 0L)
}

# Install the package sources of `commit` (git archive of the checkout `repo`) into a library
# cached per commit; returns the library. Concurrent scripts share it through a lock directory.
repro_install_commit <- function(repo, commit) {
  cache <- Sys.getenv("FAIRPROJ_REPRO_CACHE", tools::R_user_dir("fairproj", "cache"))
  root <- file.path(cache, "reproduce", commit)
  lib <- file.path(root, "lib")
  done <- file.path(root, "installed")
  if (file.exists(done)) return(lib)
  dir.create(root, recursive = TRUE, showWarnings = FALSE)
  lock <- file.path(root, "lock")
  for (i in 1:1800) if (dir.create(lock, showWarnings = FALSE)) break else Sys.sleep(1)
  on.exit(unlink(lock, recursive = TRUE))
  if (file.exists(done)) return(lib)
  src <- file.path(root, "src")
  unlink(c(src, lib), recursive = TRUE)
  dir.create(lib, recursive = TRUE)
  log <- file.path(root, "install.log")
  status <- system(sprintf("git -C %s archive --format=tar --prefix=src/ %s | tar -x -C %s", shQuote(repo), commit,
                           shQuote(root)))
  if (status != 0L) stop("repro_attach: could not extract commit ", commit)
  message(sprintf("repro_attach: installing fairproj at commit %s (log: %s)", commit, log))
  status <- system2(file.path(R.home("bin"), "R"), c("CMD", "INSTALL", "--no-docs", "--no-test-load",
                                                     paste0("--library=", shQuote(lib)), shQuote(src)),
                    stdout = log, stderr = log)
  if (status != 0L) stop("repro_attach: R CMD INSTALL of commit ", commit, " failed; see ", log)
  unlink(src, recursive = TRUE)
  file.create(done)
  lib
}

# Load fairproj for a script that stores results, and record where its code comes from (see the
# header). `lib`: the library to load from when the tree is dirty (and FAIRPROJ_ALLOW_DIRTY=1)
# or when the script does not run in a git checkout of the package.
repro_attach <- function(lib = NULL) {
  if ("fairproj" %in% loadedNamespaces()) stop("repro_attach: fairproj is already loaded; call repro_attach() first")
  st <- repro_code_state()
  if (is.null(st)) {
    library(fairproj, lib.loc = lib)
    prov <- list(commit = paste0("fairproj ", utils::packageVersion("fairproj")), dirty = NA)
  } else if (st$dirty) {
    if (!identical(Sys.getenv("FAIRPROJ_ALLOW_DIRTY"), "1")) {
      stop("repro_attach: tracked files differ from commit ", st$commit, " (", paste(utils::head(st$changed, 5), collapse = ", "),
           "): commit them first, or set FAIRPROJ_ALLOW_DIRTY=1 to store rows flagged dirty")
    }
    message("repro_attach: uncommitted changes; rows will be stored with dirty = TRUE")
    library(fairproj, lib.loc = lib)
    prov <- list(commit = st$commit, dirty = TRUE)
  } else {
    library(fairproj, lib.loc = repro_install_commit(st$repo, st$commit))
    prov <- list(commit = st$commit, dirty = FALSE)
  }
  assign("provenance", prov, envir = .repro_state)
  invisible(prov)
}

# The folder of the running script (Rscript's --file), else inst/reproduce of a source checkout
# (the working directory is the package root), else the installed copy.
repro_script_dir <- function() {
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) return(dirname(f[1]))
  if (dir.exists(file.path("inst", "reproduce"))) file.path("inst", "reproduce") else
    system.file("reproduce", package = "fairproj")
}

# The run's settings as one line for the stored rows: the script's command-line arguments and
# the FAIRPROJ_* variables that choose what it runs (the folders it reads and writes, which
# name this machine's paths, are left out).
repro_settings <- function(args = commandArgs(trailingOnly = TRUE)) {
  env <- Sys.getenv()
  env <- env[startsWith(names(env), "FAIRPROJ_") &
               !names(env) %in% c("FAIRPROJ_DATA", "FAIRPROJ_RESULTS", "FAIRPROJ_REPRO_CACHE", "FAIRPROJ_PYTHON",
                                "FAIRPROJ_QUICK_DIR", "FAIRPROJ_QUICK_COMPARE")]
  paste(c(sprintf("args: %s", if (length(args)) paste(shQuote(args), collapse = " ") else "(none)"),
          sprintf("%s=%s", names(env), env)), collapse = "; ")
}

# The preamble of every script that stores results: checks that the data folder is set
# (`data`) and that the suggested `packages` are installed, loads fairproj through
# repro_attach(lib), sources the script's `helpers` from the folder of the script, turns the
# package's progress output off and records the run's settings for repro_write(). Returns the
# folder of the script, invisibly.
repro_setup <- function(data = TRUE, packages = character(0), helpers = character(0), lib = NULL) {
  if (data && !nzchar(Sys.getenv("FAIRPROJ_DATA"))) stop("set FAIRPROJ_DATA to the data directory")
  miss <- packages[!vapply(packages, requireNamespace, logical(1), quietly = TRUE)]
  if (length(miss)) stop("needs the package(s) ", paste(miss, collapse = ", "))
  suppressPackageStartupMessages(repro_attach(lib))  # the package built from the commit checked out
  dir <- repro_script_dir()
  for (h in helpers) sys.source(file.path(dir, h), envir = globalenv())
  # full protocols are long by design: no up-front refusal or stop at the package's time limit
  options(fairproj.progress = FALSE, fairproj.time_limit = Inf)
  assign("settings", repro_settings(), envir = .repro_state)
  invisible(dir)
}

repro_provenance <- function() {
  prov <- get0("provenance", envir = .repro_state, inherits = FALSE)
  if (is.null(prov)) stop("repro_write: call repro_attach() (instead of library(fairproj)) before storing results")
  cpu <- tryCatch({
    l <- grep("^model name", readLines("/proc/cpuinfo", warn = FALSE), value = TRUE)[1]
    trimws(sub("^[^:]*:", "", l))
  }, error = function(e) NA_character_, warning = function(w) NA_character_)
  si <- Sys.info()
  list(commit = prov$commit, dirty = prov$dirty,
       settings = get0("settings", envir = .repro_state, inherits = FALSE, ifnotfound = NA_character_),
       date = format(Sys.time(), "%Y-%m-%d", tz = "UTC"),
       machine = sprintf("%s %s, %s, %d cores, %s", si[["sysname"]], si[["machine"]],
                         if (is.na(cpu)) "cpu unknown" else cpu, parallel::detectCores(),
                         R.version.string))
}

# The file endings of a stored table, newest convention first: xz (since 2026-12-08), gzip (the
# files of earlier runs, still read), plain CSV (the first runs).
repro_exts <- c(".csv.xz", ".csv.gz", ".csv")

# The stored file of table `name` in the results directory: <name>.csv.xz, or the file of an
# older convention when only that exists.
repro_path <- function(name, dir = repro_results_dir()) {
  cand <- file.path(dir, paste0(name, repro_exts))
  have <- cand[file.exists(cand)]
  if (length(have)) have[1L] else cand[1L]
}

# Append (replacing rows with the same `replace_by` key values) to results/<name>.csv.xz.
# `sd_divisor`: "n" or "n-1" when `df` has "sd" rows (required then), else "none".
repro_write <- function(df, name, replace_by = "dataset", sd_divisor = "none") {
  need <- c("dataset", "method", "metric", "split", "value", "published")
  miss <- setdiff(need, names(df))
  if (length(miss)) stop("repro_write: missing columns ", paste(miss, collapse = ", "))
  if (!sd_divisor %in% c("n", "n-1", "none")) stop("repro_write: sd_divisor must be \"n\", \"n-1\" or \"none\"")
  if (any(df$split == "sd") && sd_divisor == "none") stop("repro_write: give sd_divisor (\"n\" or \"n-1\") for the sd rows")
  pv <- repro_provenance()
  prov_cols <- c("commit", "dirty", "sd_divisor", "date", "machine", "settings")
  df$split <- as.character(df$split)
  df$commit <- pv$commit; df$dirty <- pv$dirty; df$sd_divisor <- sd_divisor; df$settings <- pv$settings
  df$date <- pv$date; df$machine <- pv$machine
  df <- df[c(need, prov_cols, setdiff(names(df), c(need, prov_cols)))]
  path <- repro_path(name)
  if (file.exists(path)) {
    old <- repro_read_file(path)
    key_old <- do.call(paste, c(old[replace_by], sep = "\r"))
    key_new <- unique(do.call(paste, c(df[replace_by], sep = "\r")))
    old <- old[!key_old %in% key_new, , drop = FALSE]
    cols <- union(names(old), names(df))
    for (cn in setdiff(cols, names(old))) old[[cn]] <- if (nrow(old)) NA else logical(0)
    for (cn in setdiff(cols, names(df))) df[[cn]] <- NA
    df <- rbind(old[cols], df[cols])
  }
  out <- file.path(repro_results_dir(), paste0(name, repro_exts[1L]))
  con <- xzfile(out, "w", compression = -9)
  utils::write.csv(df, con, row.names = FALSE)
  close(con)
  if (path != out) unlink(path)  # the file of an older convention is replaced by the xz one
  invisible(out)
}

repro_read_file <- function(path) {
  cls <- c(split = "character", commit = "character", dirty = "logical", sd_divisor = "character",
           settings = "character")
  head <- names(utils::read.csv(path, nrows = 1L, check.names = FALSE))
  utils::read.csv(path, stringsAsFactors = FALSE, colClasses = cls[names(cls) %in% head])
}

# Read a stored table: from the installed package (vignettes) or a source checkout.
repro_read <- function(name) {
  dirs <- c(Sys.getenv("FAIRPROJ_RESULTS", ""), file.path("inst", "reproduce", "results"),
            system.file("reproduce", "results", package = "fairproj"))
  dirs <- dirs[nzchar(dirs)]
  cand <- unlist(lapply(dirs, function(d) file.path(d, paste0(name, repro_exts))))
  cand <- cand[file.exists(cand)]
  if (!length(cand)) return(NULL)
  tab <- repro_read_file(cand[1])
  attr(tab, "repro_check") <- repro_check(name, dirname(cand[1]), tab)
  tab
}

# The quick-mode check of a stored table from provenance.csv beside it (written by quick.R), as
# one sentence for repro_label(); "" when there is none. A check of an earlier version of the
# table (other rows or commits than `tab` has) does not vouch for it: that is said instead.
repro_check <- function(name, dir, tab = NULL) {
  path <- file.path(dir, "provenance.csv")
  if (!file.exists(path)) return("")
  p <- tryCatch(utils::read.csv(path, stringsAsFactors = FALSE), error = function(e) NULL)
  need <- c("file", "result", "quick_commit", "subset", "rows_compared", "max_rel_diff", "rows", "commits")
  if (is.null(p) || !all(need %in% names(p))) return("")
  # the row of the file repro_read() opens: the newest ending first (quick.R keeps one per table)
  p <- p[p$file %in% paste0(name, repro_exts), , drop = FALSE]
  p <- p[order(match(p$file, paste0(name, repro_exts))), , drop = FALSE][seq_len(min(1L, nrow(p))), , drop = FALSE]
  if (nrow(p) != 1L) return("")
  if (!is.null(tab)) {
    dirty <- if (is.null(tab$dirty)) rep(NA, nrow(tab)) else tab$dirty
    cm <- table(paste0(tab$commit, " (dirty ", dirty, ")"))
    if (p$rows != nrow(tab) || p$commits != paste(sprintf("%s x%d", names(cm), as.integer(cm)), collapse = "; ")) {
      return(" No partial rerun has checked this version of the file yet (provenance.csv describes an earlier one).")
    }
  }
  if (!p$result %in% c("PASS", "CLOSE")) {
    return(sprintf(" A partial rerun at commit %s did not reproduce it (see provenance.csv).", p$quick_commit))
  }
  if (!isTRUE(p$rows_compared > 0)) {  # a timings-only file: its rows' keys are checked, not their values
    return(sprintf(" A partial rerun at clean commit %s (%s) produced the same rows (timings, not compared).",
                   p$quick_commit, p$subset))
  }
  sprintf(" A partial rerun at clean commit %s (%s) reproduced %d of its rows to a relative difference of %s.",
          p$quick_commit, p$subset, p$rows_compared, format(signif(p$max_rel_diff, 2)))
}

# One line describing where and when a stored table was computed, for vignette captions: each
# commit with the state of its tree (see the header), the dates, the machines, the sd and, for a
# table read by repro_read(), the partial rerun that vouches for it (provenance.csv).
repro_label <- function(tab) {
  if (is.null(tab) || !nrow(tab)) return("no stored results")
  dirty <- if (is.null(tab$dirty)) rep(NA, nrow(tab)) else tab$dirty
  state <- ifelse(is.na(dirty), "HEAD when written; the code that ran was not checked",
                  ifelse(dirty, "uncommitted changes (dirty)", "clean tree, package installed from that commit"))
  key <- unique(data.frame(commit = tab$commit, state = state, stringsAsFactors = FALSE))
  key <- key[!is.na(key$commit), , drop = FALSE]
  commits <- vapply(split(key$commit, key$state), function(v) paste(unique(v), collapse = ", "), "")
  sdv <- unique(stats::na.omit(tab$sd_divisor))
  sd_txt <- if (!length(sdv) || identical(sdv, "none")) "" else
    sprintf(" Standard deviations: %s.", paste(c(n = "population (divisor n)", "n-1" = "sample (divisor n - 1)")[setdiff(sdv, "none")],
                                               collapse = " and "))
  check <- attr(tab, "repro_check")
  sprintf("Stored full-protocol results: commit %s; %s; %s.%s%s",
          paste(sprintf("%s (%s)", commits, names(commits)), collapse = "; commit "),
          paste(unique(range(tab$date, na.rm = TRUE)), collapse = " to "),
          paste(unique(tab$machine), collapse = "; "), sd_txt, if (is.null(check)) "" else check)
}

# ---- Quick-mode comparison (quick.R) --------------------------------------------------------
# Compare the rows a quick rerun regenerated (`new`) with the stored rows (`old`) of the same key
# (`keys`: dataset, method, metric, split and the table's other key columns). Timing metrics
# (`timing`, e.g. "seconds") are not compared by value, only checked to exist with the same key;
# aggregate rows (split "mean"/"sd") are left out unless `aggregates` is TRUE (the rerun then
# covers every row the aggregate is taken over). The relative difference of two values is
# |a - b| / max(|a|, |b|, floor x s), with s the largest stored magnitude of the metric on the
# dataset (so a value that is rounding noise about zero, such as the error of a full-rank
# projection, is compared on the scale of its metric); 0 when they are equal (both 0, both NA,
# both the same infinity) and Inf when one is NA and the other is not. PASS: at least one row or key compared, every
# regenerated row has a stored row with its key, and every relative difference <= `tolerance`.
# Returns a one-row data frame: rows (values compared), timing_rows (timing keys checked),
# missing (regenerated keys not stored), max_rel_diff, tolerance, pass, and beyond (the methods
# whose rows differ by more than the tolerance, with their largest difference).
repro_compare <- function(new, old, keys, tolerance = 1e-10, timing = "seconds", aggregates = FALSE, floor = 1e-4) {
  miss <- setdiff(c(keys, "value"), intersect(names(new), names(old)))
  if (length(miss)) stop("repro_compare: column(s) ", paste(miss, collapse = ", "), " missing")
  keep <- function(d) if (aggregates) d else d[!as.character(d$split) %in% c("mean", "sd"), , drop = FALSE]
  new <- keep(new); old <- keep(old)
  key_of <- function(d) do.call(paste, c(lapply(d[keys], function(v) ifelse(is.na(v), "NA", as.character(v))), sep = "\r"))
  kn <- key_of(new); ko <- key_of(old)
  if (anyDuplicated(kn) || anyDuplicated(ko)) {
    stop("repro_compare: the key columns (", paste(keys, collapse = ", "), ") do not identify the rows")
  }
  at <- match(kn, ko)
  is_time <- new$metric %in% timing
  a <- as.numeric(new$value)[!is_time & !is.na(at)]
  b <- as.numeric(old$value)[at[!is_time & !is.na(at)]]
  # the scale of each value: the largest stored magnitude of its metric on its dataset
  ov <- abs(as.numeric(old$value)); ov[!is.finite(ov)] <- NA
  sc <- tapply(ov, paste(old$dataset, old$metric, sep = "\r"), function(v) if (all(is.na(v))) 0 else max(v, na.rm = TRUE))
  s <- floor * unname(sc[paste(new$dataset, new$metric, sep = "\r")[!is_time & !is.na(at)]])
  rel <- ifelse((is.na(a) & is.na(b)) | (!is.na(a) & !is.na(b) & a == b), 0,
                ifelse(is.na(a) | is.na(b), Inf, abs(a - b) / pmax(abs(a), abs(b), s)))
  n_val <- length(rel)
  n_time <- sum(is_time & !is.na(at))
  worst <- if (n_val) max(rel) else NA_real_
  # the methods with differences beyond the tolerance, each with its largest
  meth <- new$method[!is_time & !is.na(at)]
  bad <- if (n_val) tapply(rel, meth, max) else numeric(0)
  bad <- sort(bad[bad > tolerance], decreasing = TRUE)
  data.frame(rows = n_val, timing_rows = n_time, missing = sum(is.na(at)), max_rel_diff = worst,
             tolerance = tolerance, pass = (n_val + n_time) > 0 && !anyNA(at) && (!n_val || worst <= tolerance),
             beyond = paste(sprintf("%s %s", names(bad), format(signif(bad, 2))), collapse = "; "))
}
