# Benchmark of Pareto fair PCA (method = "pareto"): cost per iteration from the moments and the
# ratio of a full fit to the floor (one pass for the moments + standard PCA).
#   Rscript bench/pareto.R
library(fairproj)
set.seed(1)
time_it <- function(expr) {
  t <- system.time(expr)
  t[["user.self"]] + t[["sys.self"]]
}
make <- function(n, d, m) {
  g <- factor(sample(letters[seq_len(m)], n, replace = TRUE))
  x <- matrix(rnorm(n * d), n, d) %*% matrix(rnorm(d * d), d, d) / sqrt(d)
  x <- x + outer(as.integer(g), rnorm(d))
  list(x = x, g = g)
}
rows <- list()
for (d in c(50, 100, 200)) for (m in c(2, 5)) {
  dat <- make(20000, d, m)
  t_mom <- time_it(mo <- group_moments(dat$x, dat$g))
  t_std <- time_it(fair_pca(mo, k = 10, method = "standard"))
  it <- 300L
  # the converging default: its own stopping rule; cost per iteration from the iterations done
  t_par <- time_it(f <- suppressWarnings(fair_pca(mo, k = 10, method = "pareto", iterations = it)))
  it <- max(f$iterations, 1L)
  rows[[length(rows) + 1L]] <- data.frame(d = d, groups = m, objectives = length(f$objectives),
                                          moments_s = t_mom, standard_s = t_std, pareto_s = t_par,
                                          iterations = it, converged = f$converged,
                                          per_iter_ms = 1000 * t_par / it,
                                          ratio_to_floor = (t_mom + t_par) / (t_mom + t_std))
}
res <- do.call(rbind, rows)
print(res, digits = 3)
cat("\nper-iteration time ratio d = 200 vs d = 100 (O(m d^2 k) predicts about 4):\n")
print(res$per_iter_ms[res$d == 200] / res$per_iter_ms[res$d == 100], digits = 3)
