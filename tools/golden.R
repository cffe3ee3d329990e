# Records the golden set: every case of tests/testthat/helper-golden.R computed with the
# installed fairproj, flattened, in tests/testthat/fixtures/golden.rds with the BLAS and LAPACK
# it was computed with. Run from the package root after installing:
#   R_LIBS=.lib Rscript tools/golden.R                 every case
#   R_LIBS=.lib Rscript tools/golden.R 'case' ...      only the named cases (new ones or those
#                                                      a change must move); the others are kept
# Regenerate only where a change of results is intended, and say so in the commit.
suppressPackageStartupMessages(library(fairproj))
source(file.path("tests", "testthat", "helper-golden.R"))
path <- file.path("tests", "testthat", "fixtures", "golden.rds")
cases <- golden_cases()
only <- commandArgs(TRUE)
if (length(only)) {
  unknown <- setdiff(only, names(cases))
  if (length(unknown)) stop("no such golden case: ", paste(unknown, collapse = ", "))
  old <- readRDS(path)
  if (!identical(old$libraries, golden_libraries())) stop("the fixture was recorded with other libraries; rerun every case")
  results <- old$results[intersect(names(cases), names(old$results))]
  for (nm in only) results[[nm]] <- golden_flatten(cases[[nm]]())
  results <- results[intersect(names(cases), names(results))]
  cat("re-recorded:", paste(only, collapse = "; "), "\n")
} else {
  results <- lapply(names(cases), function(nm) golden_flatten(cases[[nm]]()))
  names(results) <- names(cases)
}
golden <- list(libraries = golden_libraries(), version = as.character(utils::packageVersion("fairproj")),
               results = results)
dir.create(dirname(path), showWarnings = FALSE)
saveRDS(golden, path, compress = "xz", version = 2)
nums <- sum(vapply(results, function(r) sum(vapply(r, function(v) if (is.numeric(v) || is.logical(v)) length(v) else 0L, 0L)), 0))
cat(sprintf("%d cases, %d numbers, %s bytes in %s\n", length(results), nums, format(file.size(path), big.mark = ","), path))
