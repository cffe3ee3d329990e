# The C++ seam of src/: only the seam (rcpp_entry.h, rcpp_entry.cpp) and the entry-point files
# (a .cpp with an [[Rcpp::export]], and the generated RcppExports.cpp) include an Rcpp header,
# and every header compiles on its own. Base R only; runs the compiler, not package code.
#
#   Rscript tools/cpp-headers.R            lists what breaks either rule
#   Rscript tools/cpp-headers.R --check    exits 1 when something does
#
# Each header is compiled alone (`$(CXX) -fsyntax-only` on a file that includes only it) with
# R's include flags and those of the LinkingTo packages (Rcpp, RcppEigen for Eigen, RSpectra for
# Spectra): a header that needs another one includes it. Solver headers include Eigen
# (<Eigen/Dense>) and R's C headers where they call LAPACK, never Rcpp.

args <- commandArgs(TRUE)
check <- "--check" %in% args
src <- if (file.exists("src")) "src" else file.path(dirname(sub("^--file=", "", grep("^--file=",
  commandArgs(FALSE), value = TRUE)[1])), "..", "src")

rcpp_header <- '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(Rcpp|RcppEigen|RcppCommon)(\\.h>|/)'
files <- list.files(src, "\\.(cpp|h)$", full.names = TRUE)
is_entry <- vapply(files, function(f) any(grepl("[[Rcpp::export", readLines(f, warn = FALSE), fixed = TRUE)),
                   logical(1))
seam <- basename(files) %in% c("rcpp_entry.h", "rcpp_entry.cpp", "RcppExports.cpp") | is_entry
uses_rcpp <- vapply(files, function(f) any(grepl(rcpp_header, readLines(f, warn = FALSE))), logical(1))
bad_include <- basename(files)[uses_rcpp & !seam]
cat(sprintf("files outside the seam that include an Rcpp header: %d\n", length(bad_include)))
if (length(bad_include)) cat(paste0("  ", bad_include, "\n"), sep = "")

r_cmd <- file.path(R.home("bin"), "R")
config <- function(what) trimws(system2(r_cmd, c("CMD", "config", what), stdout = TRUE))
cxx <- config("CXX")
incs <- c(config("--cppflags"),
          paste0("-I", shQuote(c(system.file("include", package = "Rcpp"),
                                 system.file("include", package = "RcppEigen"),
                                 system.file("include", package = "RSpectra")))),
          paste0("-I", shQuote(normalizePath(src))))
headers <- list.files(src, "\\.h$", full.names = TRUE)
probe <- tempfile(fileext = ".cpp")
fails <- character(0)
for (h in headers) {
  writeLines(sprintf('#include "%s"', basename(h)), probe)
  out <- suppressWarnings(system(paste(cxx, paste(incs, collapse = " "), "-fsyntax-only", shQuote(probe), "2>&1"),
                                 intern = TRUE))
  if (!is.null(attr(out, "status")) && attr(out, "status") != 0) {
    fails <- c(fails, basename(h))
    cat(sprintf("%s does not compile on its own:\n", basename(h)))
    cat(paste0("    ", utils::head(out, 6), "\n"), sep = "")
  }
}
unlink(probe)
cat(sprintf("headers compiled alone: %d; failing: %d\n", length(headers), length(fails)))
if (check && (length(bad_include) || length(fails))) quit(status = 1L)
