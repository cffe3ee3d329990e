# Records the golden set: every case of tests/testthat/helper-golden.R computed with the
# installed fairproj, flattened, in tests/testthat/fixtures/golden.rds with the BLAS and LAPACK
# it was computed with. Run from the package root after installing:
#   R_LIBS=.lib Rscript tools/golden.R [regex]
# Regenerate only where a change of results is intended, and say so in the commit. With a
# regular expression, only the cases whose names match it are recomputed; the others keep their
# recorded values (the fixture must have been recorded with the same libraries).
suppressPackageStartupMessages(library(fairproj))
source(file.path("tests", "testthat", "helper-golden.R"))
cases <- golden_cases()
only <- commandArgs(trailingOnly = TRUE)
path <- file.path("tests", "testthat", "fixtures", "golden.rds")
old <- if (length(only)) readRDS(path)
if (length(only) && !identical(old$libraries, golden_libraries())) stop("the fixture was recorded with other libraries")
results <- lapply(names(cases), function(nm) {
  if (length(only) && !grepl(only[1L], nm) && !is.null(old$results[[nm]])) return(old$results[[nm]])
  golden_flatten(cases[[nm]]())
})
names(results) <- names(cases)
if (length(only)) cat(sprintf("recomputed: %s\n", paste(grep(only[1L], names(cases), value = TRUE), collapse = ", ")))
golden <- list(libraries = golden_libraries(), version = as.character(utils::packageVersion("fairproj")),
               results = results)
dir.create(dirname(path), showWarnings = FALSE)
saveRDS(golden, path, compress = "xz", version = 2)
nums <- sum(vapply(results, function(r) sum(vapply(r, function(v) if (is.numeric(v) || is.logical(v)) length(v) else 0L, 0L)), 0))
cat(sprintf("%d cases, %d numbers, %s bytes in %s\n", length(results), nums, format(file.size(path), big.mark = ","), path))
