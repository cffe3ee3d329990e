# Usage (from the package root): Rscript tools/golden-compare.R <old golden.rds> <new golden.rds>
# Compares two golden fixtures: lists every field that differs, and refuses (exit 1) any that is
# not an audit case's interval field (<quantity>_low/_high, reliable, reason, intervals$mc_error,
# the tables' column names where only those columns were added).
args <- commandArgs(TRUE)
old <- readRDS(args[1])$results
new <- readRDS(args[2])$results
source(file.path("tests", "testthat", "helper-golden.R"))
allowed_field <- function(case, f) {
  grepl("^fair_audit", case) && (grepl("_(low|high)$", f) || grepl("\\$(reliable|reason)$", f) ||
                                   grepl("\\$intervals\\$mc_error", f))
}
bad <- character(0)
moved <- character(0)
for (case in union(names(old), names(new))) {
  o <- old[[case]]
  n <- new[[case]]
  if (is.null(o) || is.null(n)) { bad <- c(bad, paste(case, ": case added or removed")); next }
  for (f in union(names(o), names(n))) {
    if (identical(o[[f]], n[[f]])) next
    if (grepl("@names$", f) && grepl("^fair_audit", case) && all(o[[f]] %in% n[[f]]) &&
        all(grepl("_(low|high)$|^reason$|^mc_error$", setdiff(n[[f]], o[[f]])))) {
      moved <- c(moved, sprintf("%s %s: columns added %s", case, f, paste(setdiff(n[[f]], o[[f]]), collapse = ",")))
      next
    }
    d <- if (!is.null(o[[f]]) && !is.null(n[[f]])) golden_diff(setNames(list(o[[f]]), f), setNames(list(n[[f]]), f), 1e-12) else "new or missing"
    if (!length(d)) next
    if (allowed_field(case, f)) moved <- c(moved, paste(case, f)) else bad <- c(bad, paste(case, f, paste(d, collapse = " ")))
  }
}
cat(sprintf("%d interval fields moved or added:\n", length(moved)))
cat(paste0("  ", moved), sep = "\n")
if (length(bad)) {
  cat(sprintf("\nREFUSED: %d other fields differ:\n", length(bad)))
  cat(paste0("  ", bad), sep = "\n")
  quit(status = 1)
}
cat("\nno other field moved\n")
