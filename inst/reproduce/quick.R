# Quick mode of the reproductions: every script that stores results in inst/reproduce/results/
# is rerun on a small stated subset of its protocol (a dataset, a split, a k, a few sizes), with
# FAIRPROJ_RESULTS pointing at a temporary folder, and the regenerated rows are compared with the
# stored rows of the same key.
#
#   FAIRPROJ_DATA=/path/to/data Rscript inst/reproduce/quick.R [files]      (or: make reproduce-quick)
#
#   files  regular expression selecting stored files by name (default: all)
#
# `quick_files` below holds one row per stored file: the run that regenerates it (script,
# arguments, FAIRPROJ_* variables), the key columns, the tolerance and whether the aggregate rows
# (split "mean"/"sd") are compared. Comparison (repro_compare() of results-io.R): rows are matched
# on the key columns; timing metrics ("seconds") are only checked to exist with the same key; the
# aggregate rows are compared only where the run covers every row they are taken over; a file
# PASSes when every regenerated row has a stored row with its key and every relative difference
# |new - stored| / max(|new|, |stored|, 1e-4 x the largest stored |value| of the metric on the
# dataset) is within the tolerance (1e-10, i.e. the same numbers up
# to the last digits that the CSV keeps: the runs are deterministic, their random draws seeded).
# Prints per file the rows compared, the largest relative difference and PASS, CLOSE (every row
# within 1e-6 but not within the tolerance: an iterative solver stopped at its own tolerance
# after floating-point changes since the stored run) or FAIL, with the methods beyond the
# tolerance; exits with status 1 when a file fails. About 10 minutes of CPU in all on a 2-core machine.
#
# Provenance. Run from a clean checkout (every script then loads the package built from the
# commit checked out: results-io.R's repro_attach(), and its rows say dirty = FALSE), the driver
# writes inst/reproduce/results/provenance.csv: per stored file its rows, the commits and `dirty`
# values they carry, how it was written (its `settings`) and how it is vouched for (this partial
# rerun: commit, subset, rows, largest relative difference), and the date. Rows of files not
# selected by `files` are kept. Rows regenerated from a tree with uncommitted changes are
# compared but not written to provenance.csv. repro_label() quotes it; nothing needs it.
source(file.path(local({f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(f[1]) else system.file("reproduce", package = "fairproj")}), "results-io.R"))
script_dir <- repro_script_dir()
if (!nzchar(Sys.getenv("FAIRPROJ_DATA"))) stop("set FAIRPROJ_DATA to the data directory")
args <- commandArgs(trailingOnly = TRUE)
pick <- if (length(args) && nzchar(args[1])) args[1] else "."
# FAIRPROJ_QUICK_DIR: the folder of the regenerated files (default a new temporary one);
# FAIRPROJ_QUICK_COMPARE=1 compares what it holds without running the scripts again
compare_only <- identical(Sys.getenv("FAIRPROJ_QUICK_COMPARE"), "1")

# The runs: script, arguments, FAIRPROJ_* variables and the subset they regenerate, in the order
# they run (vu-checks and vu-fairpca-eta read what robust-fair-pca wrote in the same folder).
quick_runs <- list(
  css = list(script = "fair-css.R", args = c("table1", "table2", "figure1", "figure23"),
             env = c(FAIRPROJ_CSS_SETS = "heart", FAIRPROJ_CSS_K = "3")),
  adult = list(script = "efficient-fair-pca.R", args = c("0", "^(PCA|Fair PCA)$"), env = character(0)),
  runtime = list(script = "kleindessner-runtime.R", args = c("^(PCA|Fair PCA)$", "", "^Adult"), env = character(0)),
  tradeoff = list(script = "kleindessner-tradeoff.R", args = c("0", "^(PCA|Logistic regression \\(L2\\))$"),
                  env = character(0)),
  runtime_n = list(script = "kleindessner-runtime-n.R", args = c("1000", "1", "0"), env = character(0)),
  pareto = list(script = "pareto-fair-pca.R", args = c("sweep", "downstream"),
                env = c(FAIRPROJ_SETS = "credit_sex", FAIRPROJ_PARETO_K = "2,10")),
  samadi = list(script = "price-of-fair-pca.R", args = c("sweep", "credit"), env = character(0)),
  samadi_fig1 = list(script = "price-of-fair-pca.R", args = "figure1", env = character(0)),
  vu = list(script = "robust-fair-pca.R", args = character(0), env = c(FAIRPROJ_SETS = "ecoli")),
  vu_checks = list(script = "vu-checks.R", args = character(0), env = c(FAIRPROJ_SETS = "ecoli")),
  vu_eta = list(script = "vu-fairpca-eta.R", args = character(0), env = c(FAIRPROJ_SETS = "ecoli")),
  vu_fig2 = list(script = "vu-figure2.R", args = character(0), env = c(FAIRPROJ_SETS = "biodeg")),
  vu_fig3 = list(script = "vu-figure3.R", args = character(0), env = c(FAIRPROJ_SETS = "ecoli")),
  vu_fig4 = list(script = "vu-figure4.R", args = character(0), env = c(FAIRPROJ_FIG4_ALPHA_FIRST = "5"))
)

# One row per stored file: its run, key columns, tolerance, aggregates compared, subset.
qf <- function(file, run, keys, subset, aggregates = FALSE, tolerance = 1e-10) {
  data.frame(file = file, run = run, keys = paste(c("dataset", "method", "metric", "split", keys), collapse = ","),
             aggregates = aggregates, tolerance = tolerance, subset = subset, stringsAsFactors = FALSE)
}
quick_files <- rbind(
  qf("fair-css-table1", "css", character(0), "every row (all six data sets)"),
  qf("fair-css-table2", "css", "k", "every row (five data sets, Random over its 50 seeded draws)", aggregates = TRUE),
  qf("fair-css-figure1", "css", c("k", "c"), "every row (three data sets, Random's seeded mean)", aggregates = TRUE),
  qf("fair-css-figure23", "css", "k", "heart, k = 3 (timings excluded)"),
  qf("kleindessner-adult", "adult", character(0), "split 0, PCA and Fair PCA (timings and the aggregates excluded)"),
  qf("kleindessner-runtime", "runtime", c("n", "d", "k"), "Adult split 0, PCA and Fair PCA (timings only: keys checked)"),
  qf("kleindessner-tradeoff", "tradeoff", c("param_name", "param"),
     "split 0, PCA and Logistic regression (L2) (timings and the aggregates excluded)"),
  qf("kleindessner-runtime-n", "runtime_n", c("n", "param_name", "param"),
     "n = 1000, run 1, without Reductions (glm) (timings: keys checked)"),
  qf("pareto-fair-pca-sweep", "pareto", c("k", "group"), "credit_sex, k = 2 and 10 (timings excluded)"),
  qf("pareto-fair-pca-downstream", "pareto", c("k", "group", "classifier"), "credit_sex, its five splits"),
  qf("samadi-figure1", "samadi_fig1", c("k", "group"), "every row (20 seeded samples of LFW and their mean)", aggregates = TRUE),
  qf("samadi-sweep", "samadi", c("k", "group"), "credit, k = 1..21 (timings excluded)"),
  qf("vu-table1", "vu", character(0), "ecoli, all 10 splits and their mean and sd", aggregates = TRUE),
  qf("vu-table3", "vu", character(0), "ecoli, all 10 splits and their mean and sd", aggregates = TRUE),
  qf("vu-table4", "vu", character(0), "ecoli, all 10 splits and their mean and sd", aggregates = TRUE),
  qf("vu-checks", "vu_checks", "check", "ecoli (means over its 10 splits)", aggregates = TRUE),
  qf("vu-fairpca-eta", "vu_eta", "eta", "ecoli, every eta, 10 splits and their mean", aggregates = TRUE),
  qf("vu-figure2", "vu_fig2", "setting", "biodeg, every setting (means over its 5 runs)", aggregates = TRUE),
  qf("vu-figure3", "vu_fig3", c("sample", "k"), "ecoli (means over its 5 splits)", aggregates = TRUE),
  qf("vu-figure4", "vu_fig4", "alpha", "the first 5 alphas, every simulation (mean and sd)", aggregates = TRUE)
)
quick_timing <- "seconds"

stored_dir <- file.path(script_dir, "results")
sel <- quick_files[grepl(pick, quick_files$file), , drop = FALSE]
if (!nrow(sel)) stop("no stored file matches ", pick)
out_dir <- Sys.getenv("FAIRPROJ_QUICK_DIR", tempfile("fairproj-quick-"))
dir.create(out_dir, recursive = TRUE, showWarnings = FALSE)
code <- repro_code_state(script_dir)
cat(sprintf("quick mode: %d stored files, %d runs; commit %s%s; output in %s\n", nrow(sel),
            length(unique(sel$run)), if (is.null(code)) "unknown" else code$commit,
            if (!is.null(code) && code$dirty) " (uncommitted changes)" else "", out_dir))

run_line <- function(r) {
  paste(c(if (length(r$env)) sprintf("%s=%s", names(r$env), shQuote(r$env)), "Rscript", r$script,
          if (length(r$args)) shQuote(r$args)), collapse = " ")
}
run_cpu <- numeric(0)
for (id in if (compare_only) character(0) else unique(sel$run)) {
  r <- quick_runs[[id]]
  log <- file.path(out_dir, paste0(id, ".log"))
  cat(sprintf("== %s\n", run_line(r)))
  t0 <- proc.time()
  status <- system2(file.path(R.home("bin"), "Rscript"), c(shQuote(file.path(script_dir, r$script)), shQuote(r$args)),
                    env = c(sprintf("FAIRPROJ_RESULTS=%s", shQuote(out_dir)), if (length(r$env)) sprintf("%s=%s", names(r$env), shQuote(r$env))),
                    stdout = log, stderr = log)
  dt <- proc.time() - t0
  run_cpu[[id]] <- sum(dt[c("user.child", "sys.child")], na.rm = TRUE)
  cat(sprintf("   %s: %.0f s wall, %.0f s CPU (log %s)\n", if (status == 0L) "done" else sprintf("FAILED (status %d)", status),
              dt[["elapsed"]], run_cpu[[id]], log))
  if (status != 0L) cat(paste("  ", utils::tail(readLines(log, warn = FALSE), 5)), sep = "\n")
}

res <- do.call(rbind, lapply(seq_len(nrow(sel)), function(i) {
  f <- sel[i, ]
  new_path <- repro_path(f$file, out_dir)
  old_path <- repro_path(f$file, stored_dir)
  cmp <- if (!file.exists(new_path) || !file.exists(old_path)) {
    data.frame(rows = 0L, timing_rows = 0L, missing = NA_integer_, max_rel_diff = NA_real_, tolerance = f$tolerance,
               pass = FALSE, beyond = "", note = if (!file.exists(old_path)) "no stored file" else "not regenerated")
  } else {
    new <- repro_read_file(new_path)
    cbind(repro_compare(new, repro_read_file(old_path), strsplit(f$keys, ",")[[1]],
                        f$tolerance, quick_timing, f$aggregates), note = "")
  }
  # the commit that regenerated the rows, and whether its tree was clean
  nw <- if (file.exists(new_path)) repro_read_file(new_path) else NULL
  new_prov <- if (!is.null(nw)) unique(nw[c("commit", "dirty")]) else NULL
  # what the rerun ran, from its own rows: its datasets and recorded settings
  ran <- if (is.null(nw)) NA_character_ else
    sprintf("%s; %s", paste(unique(nw$dataset), collapse = ", "), paste(unique(gsub("; FAIRPROJ_QUICK_[A-Z]+=[^;]*", "", nw$settings)), collapse = " | "))
  cbind(f, cmp, rerun_commit = if (!is.null(new_prov)) paste(new_prov$commit, collapse = ",") else NA_character_,
        rerun_clean = !is.null(new_prov) && all(new_prov$dirty %in% FALSE), ran = ran)
}))
# CLOSE: not equal to the tolerance, but every row within 1e-6 (iterative solvers that stop at
# a tolerance, after changes in the order of floating-point operations since the stored run)
res$result <- ifelse(res$pass, "PASS", ifelse(!is.na(res$missing) & res$missing == 0L & res$rows > 0L &
                                                !is.na(res$max_rel_diff) & res$max_rel_diff <= 1e-6, "CLOSE", "FAIL"))
for (i in seq_len(nrow(res))) {
  r <- res[i, ]
  cat(sprintf("%-28s %5d rows%s, max rel. diff %-9s (tol %g)%s  %s\n", r$file, r$rows,
              if (r$timing_rows) sprintf(" + %d timing keys", r$timing_rows) else "",
              if (is.na(r$max_rel_diff)) "-" else format(signif(r$max_rel_diff, 2)), r$tolerance,
              if (!is.na(r$missing) && r$missing) sprintf(", %d rows not stored", r$missing) else
                if (nzchar(r$note)) paste0(", ", r$note) else "",
              r$result))
  if (nzchar(r$beyond)) cat(sprintf("%28s beyond the tolerance: %s\n", "", r$beyond))
}
cat(sprintf("%d of %d files PASS, %d CLOSE (within 1e-6); %.0f s of CPU in the runs\n", sum(res$result == "PASS"),
            nrow(res), sum(res$result == "CLOSE"), sum(run_cpu)))

# ---- provenance.csv -------------------------------------------------------------------------
quick_provenance <- function(res, code) {
  today <- format(Sys.time(), "%Y-%m-%d", tz = "UTC")
  do.call(rbind, lapply(seq_len(nrow(res)), function(i) {
    r <- res[i, ]
    old <- repro_read_file(repro_path(r$file, stored_dir))
    dirty <- if (is.null(old$dirty)) rep(NA, nrow(old)) else old$dirty
    cm <- table(paste0(old$commit, " (dirty ", dirty, ")"))
    settings <- if (is.null(old$settings)) character(0) else unique(stats::na.omit(old$settings))
    clean <- !is.na(dirty) & !dirty
    stored_by <- if (all(clean)) {
      sprintf("full run from clean commit %s with %s", paste(unique(old$commit), collapse = ", "),
              if (length(settings)) paste(settings, collapse = " | ") else "settings not recorded")
    } else if (all(is.na(dirty))) {
      "stored before the clean-tree check (commit: HEAD when written; arguments not recorded)"
    } else {
      sprintf("%d rows from clean commits, %d from dirty trees, %d stored before the check",
              sum(clean), sum(dirty %in% TRUE), sum(is.na(dirty)))
    }
    check <- sprintf("partial rerun at %s commit %s (%s) %s %d rows%s to max rel. diff %s (tolerance %g)",
                     if (r$rerun_clean) "clean" else "NOT clean", r$rerun_commit, r$ran, c(PASS = "reproduced", CLOSE = "reproduced within 1e-6, not to the tolerance,", FAIL = "FAILED to reproduce")[[r$result]], r$rows,
                     if (r$timing_rows) sprintf(", %d timing keys checked", r$timing_rows) else "",
                     if (is.na(r$max_rel_diff)) "-" else format(signif(r$max_rel_diff, 2)), r$tolerance)
    if (!is.na(r$missing) && r$missing) check <- sprintf("%s; %d regenerated rows have no stored row", check, r$missing)
    if (nzchar(r$beyond)) check <- sprintf("%s; beyond the tolerance: %s", check, r$beyond)
    if (nzchar(r$note)) check <- sprintf("%s; %s", check, r$note)
    data.frame(file = basename(repro_path(r$file, stored_dir)), rows = nrow(old),
               commits = paste(sprintf("%s x%d", names(cm), as.integer(cm)), collapse = "; "),
               dirty = paste(sort(unique(as.character(dirty)), na.last = TRUE), collapse = ","),
               stored_by = stored_by, checked_by = check, quick_commit = r$rerun_commit, subset = r$ran,
               rows_compared = r$rows,
               max_rel_diff = r$max_rel_diff, tolerance = r$tolerance,
               result = if (r$rerun_clean) r$result else "FAIL",
               date = today, stringsAsFactors = FALSE)
  }))
}
if (any(res$rerun_clean)) {
  prov <- quick_provenance(res[res$rerun_clean, , drop = FALSE], code)
  path <- file.path(stored_dir, "provenance.csv")
  if (file.exists(path)) {
    old <- utils::read.csv(path, stringsAsFactors = FALSE)
    # one row per table: a row of the table's file under an older ending (.csv.gz) is replaced too
    stem <- function(f) sub("\\.csv(\\.(gz|xz))?$", "", f)
    prov <- rbind(old[!stem(old$file) %in% stem(prov$file), names(prov), drop = FALSE], prov)
  }
  utils::write.csv(prov[order(prov$file), ], path, row.names = FALSE)
  cat("provenance written to ", path, "\n", sep = "")
}
if (!all(res$rerun_clean)) {
  cat("provenance.csv: not updated for", paste(res$file[!res$rerun_clean], collapse = ", "),
      "(regenerated from a tree with uncommitted changes, or not at all): run from a clean checkout\n")
}
if (any(res$result == "FAIL")) quit(status = 1L)
