# Records the golden set: every case of tests/testthat/helper-golden.R computed with the
# installed fairproj, flattened, in tests/testthat/fixtures/golden.rds with the BLAS and LAPACK
# it was computed with. Run from the package root after installing:
#   R_LIBS=.lib Rscript tools/golden.R
# Regenerate only where a change of results is intended, and say so in the commit.
suppressPackageStartupMessages(library(fairproj))
source(file.path("tests", "testthat", "helper-golden.R"))
cases <- golden_cases()
results <- lapply(names(cases), function(nm) golden_flatten(cases[[nm]]()))
names(results) <- names(cases)
golden <- list(libraries = golden_libraries(), version = as.character(utils::packageVersion("fairproj")),
               results = results)
path <- file.path("tests", "testthat", "fixtures", "golden.rds")
dir.create(dirname(path), showWarnings = FALSE)
saveRDS(golden, path, compress = "xz", version = 2)
nums <- sum(vapply(results, function(r) sum(vapply(r, function(v) if (is.numeric(v) || is.logical(v)) length(v) else 0L, 0L)), 0))
cat(sprintf("%d cases, %d numbers, %s bytes in %s\n", length(results), nums, format(file.size(path), big.mark = ","), path))
