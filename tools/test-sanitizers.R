# The test suite for `make test-sanitizers`: run with the package built with
# -fsanitize=address,undefined first in R_LIBS and libasan preloaded, under CRAN's settings
# (NOT_CRAN unset, so skip_on_cran() tests skip). Before each test file it writes "## <file>" to
# stderr, so that a sanitizer report that follows (the Makefile sends stderr to a file and
# searches it) names the file it came from. Exits 1 when a test fails.
# Usage: Rscript tools/test-sanitizers.R [test directory]
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args)) args[1L] else "tests/testthat"
if (nzchar(Sys.getenv("NOT_CRAN"))) stop("NOT_CRAN is set: unset it to run the tests as CRAN does")
FileMark <- R6::R6Class("FileMark", inherit = testthat::Reporter, public = list(
  start_file = function(filename) cat("## ", filename, "\n", sep = "", file = stderr())
))
reporter <- testthat::MultiReporter$new(list(testthat::SummaryReporter$new(show_praise = FALSE), FileMark$new()))
start <- proc.time()[["elapsed"]]
res <- testthat::test_dir(dir, package = "fairproj", load_package = "installed", reporter = reporter,
                          stop_on_failure = FALSE)
df <- as.data.frame(res)
cat(sprintf("test-sanitizers: %d files, %d expectations, %d failed, %d skipped, %.0f s\n",
            length(unique(df$file)), sum(df$nb), sum(df$failed), sum(df$skipped),
            proc.time()[["elapsed"]] - start))
if (sum(df$failed) > 0 || any(df$error)) quit(status = 1L)
