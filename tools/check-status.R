# Reads an R CMD check directory: fails unless the check ended with no ERROR, WARNING or NOTE;
# prints the testthat totals as the last line ("N passed, N failed").
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]
status <- as.integer(args[2])
log <- file.path(dir, "00check.log")
ok <- FALSE
if (file.exists(log)) {
  lines <- readLines(log, warn = FALSE)
  st <- grep("^Status:", lines, value = TRUE)
  cat("R CMD check:", if (length(st)) st[length(st)] else "no status line", "\n")
  ok <- length(st) && grepl("^Status: OK", st[length(st)])
  if (!ok) {
    bad <- grep("\\.\\.\\. (ERROR|WARNING|NOTE)", lines)
    for (i in bad) cat(lines[i:min(length(lines), i + 12)], sep = "\n")
  }
} else {
  cat("R CMD check produced no log\n")
}
out <- list.files(file.path(dir, "tests"), pattern = "\\.Rout(\\.fail)?$", full.names = TRUE)
passed <- 0; failed <- 0
for (f in out) {
  txt <- readLines(f, warn = FALSE)
  res <- grep("\\[ FAIL [0-9]+ \\| WARN [0-9]+ \\| SKIP [0-9]+ \\| PASS [0-9]+ \\]", txt, value = TRUE)
  if (length(res)) {
    r <- res[length(res)]
    failed <- failed + as.integer(sub(".*FAIL ([0-9]+).*", "\\1", r))
    passed <- passed + as.integer(sub(".*PASS ([0-9]+).*", "\\1", r))
  }
  if (grepl("\\.fail$", f)) cat(utils::tail(txt, 40), sep = "\n")
}
if (passed + failed == 0) { ok <- FALSE; cat("no testthat results found\n") }
cat(sprintf("%d passed, %d failed\n", passed, failed))
quit(status = if (ok && failed == 0 && status == 0) 0 else 1)
