# make fuzz: the property test generator of tests/testthat/helper-fuzz.R on many cases.
# Usage: Rscript tools/fuzz.R [cases] [first seed]
suppressPackageStartupMessages(library(fairproj))
source(file.path("tests", "testthat", "helper-fuzz.R"))
args <- commandArgs(trailingOnly = TRUE)
cases <- if (length(args) >= 1) as.integer(args[1]) else 5000L
seed0 <- if (length(args) >= 2) as.integer(args[2]) else 1L
methods <- fairproj_methods("pca")
viol <- character(0)
tried <- 0L
t0 <- proc.time()[[3]]
for (s in seq(seed0, length.out = cases)) {
  cs <- fz_case(s)
  for (meth in methods) {
    tried <- tried + 1L
    v <- fz_check(meth, cs, equivariance = meth != "rlace")  # see tests/testthat/test-scale.R
    if (length(v)) {
      viol <- c(viol, paste0("seed ", s, ": ", v))
      cat(paste0("seed ", s, ": ", v, "\n"), sep = "")
    }
  }
  if ((s - seed0 + 1L) %% 250L == 0L) {
    cat(sprintf("fuzz: %d cases, %d fits, %d violations, %.0f s\n", s - seed0 + 1L, tried, length(viol),
                proc.time()[[3]] - t0))
    flush.console()
  }
}
cat(sprintf("fuzz: %d cases x %d methods = %d fits in %.0f s; violations: %d\n", cases, length(methods),
            tried, proc.time()[[3]] - t0, length(viol)))
if (length(viol)) {
  tab <- table(sub("^seed [0-9]+: seed case [^:]*? ([a-z]+): (.*?)( by [-0-9.e]+)?( under.*)?$", "\\1: \\2", viol, perl = TRUE))
  print(tab)
  writeLines(utils::head(viol, 40))
}
quit(status = if (length(viol)) 1L else 0L)
