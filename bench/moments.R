# Benchmark of group_moments(): each Gram backend and the package's choice (from the linked
# BLAS, see ?fairproj_backend), against crossprod() of the same matrix (R's BLAS), at the sizes
# of the papers' data. Prints times and ratios; the choice should be within 10% of the better
# backend.
suppressPackageStartupMessages(library(fairproj))
time_min <- function(expr, reps = 3) {
  e <- substitute(expr); env <- parent.frame()
  min(vapply(seq_len(reps), function(i) { t0 <- proc.time()[["elapsed"]]; eval(e, env); proc.time()[["elapsed"]] - t0 }, 0))
}
cal <- fairproj_backend(recalibrate = TRUE)
cat(sprintf("chosen backend: %s (from %s; kernel timings: blas %.4f s, eigen %.4f s)\n",
            cal$backend, cal$source, cal$timings[["blas"]], cal$timings[["eigen"]]))
cat(sprintf("BLAS in use: %s\n", sessionInfo()$BLAS))
sizes <- list(c(13232, 576), c(13232, 1764), c(30000, 21), c(32561, 58))
res <- list()
for (s in sizes) {
  n <- s[1]; d <- s[2]
  set.seed(1)
  x <- matrix(rnorm(n * d), n, d)
  g <- sample(c("a", "b"), n, TRUE, prob = c(0.25, 0.75))
  reps <- if (d > 1000) 1 else 3
  t_cp <- time_min(crossprod(x), reps)
  old <- options(fairproj.backend = "blas"); t_blas <- time_min(group_moments(x, g), reps)
  options(fairproj.backend = "eigen"); t_eigen <- time_min(group_moments(x, g), reps)
  options(old)
  t_auto <- time_min(group_moments(x, g), reps)
  best <- min(t_blas, t_eigen)
  res[[length(res) + 1]] <- data.frame(n = n, d = d, crossprod = t_cp, blas = t_blas, eigen = t_eigen,
                                       calibrated = t_auto, calibrated_vs_best = t_auto / best,
                                       calibrated_vs_crossprod = t_auto / t_cp)
}
tab <- do.call(rbind, res)
print(tab, digits = 3, row.names = FALSE)
cat(sprintf("\nworst ratio chosen / better backend: %.2f (target <= 1.10)\n", max(tab$calibrated_vs_best)))
