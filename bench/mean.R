# Benchmark of mean-matching fair PCA (Kleindessner et al. 2023): fit time against the floor
# "group moments + one top-k eigensolve". Run from the package root with
# the package installed:  Rscript bench/mean.R  [lib]
args <- commandArgs(trailingOnly = TRUE)
if (length(args)) library(fairproj, lib.loc = args[1]) else library(fairproj)
fp <- asNamespace("fairproj")

timeit <- function(expr, reps = 5L) {
  e <- substitute(expr)
  env <- parent.frame()
  ts <- vapply(seq_len(reps), function(i) system.time(eval(e, env))[["elapsed"]], numeric(1))
  stats::median(ts)
}

set.seed(1)
sizes <- list(c(n = 20000, d = 100, k = 5), c(n = 10000, d = 300, k = 10), c(n = 4000, d = 800, k = 10))
rows <- list()
for (s in sizes) {
  n <- s[["n"]]; d <- s[["d"]]; k <- s[["k"]]
  g <- factor(sample(c("a", "b", "c"), n, TRUE, prob = c(0.5, 0.3, 0.2)))
  x <- matrix(rnorm(n * d), n, d) %*% diag(3 / sqrt(seq_len(d))) + outer(as.numeric(g), rnorm(d))  # decaying spectrum
  fairproj_backend()
  mom <- group_moments(x, g)
  prep <- fp$fp_prepare(mom)
  t_mom <- timeit(group_moments(x, g))
  t_prep <- timeit(fp$fp_prepare(mom))
  t_eig <- timeit(fp$fp_eig_top(prep$C, k))
  t_solve <- timeit(fp$fit_pca_mean(prep, k))
  t_fair <- timeit(fair_pca(x, g, k, method = "mean", retx = FALSE))
  t_std <- timeit(fair_pca(x, g, k, method = "standard", retx = FALSE))
  floor <- t_mom + t_prep + t_eig
  rows[[length(rows) + 1L]] <- data.frame(
    n = n, d = d, k = k, moments = t_mom, prepare = t_prep, eigensolve = t_eig, solver = t_solve,
    ratio_fit_to_floor = (t_mom + t_prep + t_solve) / floor,
    ratio_fair_pca_mean_to_standard = t_fair / t_std)
}
res <- do.call(rbind, rows)
print(res, digits = 3, row.names = FALSE)
cat("\nratio_fit_to_floor = (moments + prepare + fit_pca_mean) / (moments + prepare + one top-k eigensolve)\n")
cat("ratio_fair_pca_mean_to_standard = fair_pca(method = \"mean\") / fair_pca(method = \"standard\"), end to end\n")
