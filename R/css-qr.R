fit_css_lowqr <- function(prep, k, n_columns = k, data = NULL) {
  n_columns <- fp_check_count(n_columns, 1L, prep$d, "n_columns")
  res <- fp_css_lowqr_cpp(prep$gram, prep$factor, n_columns)
  list(columns = res$columns, pivot_group = prep$levels[res$group], sigma = res$sigma)
}

fit_css_highqr <- function(prep, k, n_columns = k, data = NULL) {
  n_columns <- fp_check_count(n_columns, 1L, prep$d, "n_columns")
  fp_css_highqr_check_cost(length(prep$gram), prep$d)
  ord <- fp_css_highqr_cpp(prep$gram)
  list(columns = ord[seq_len(n_columns)], order = ord)
}

# Refuses up front a high-rank-revealing QR estimated to take longer than the time limit
# (fp_check_cost()): each of the d positions, from the last backwards, takes every group's bottom
# eigenvector of its leading block, O(m d^4) in all, about 1.5e-10 m d^4 s (measured: d = 250,
# 3 groups 1.8 s; d = 400, 2 groups 6.9 s, the machine shared). `arg` is the argument that chose it.
fp_css_highqr_check_cost <- function(m, d, arg = "method") {
  per <- 1.5e-10 * m
  fits <- floor((min(fp_time_limit(), 1e9) / per)^(1 / 4))
  faster <- if (arg == "stage2") {
    sprintf("use stage2 = \"lowqr\" or \"greedy\", or a smaller `theta` (at most %d sampled columns fit)", fits)
  } else {
    sprintf(paste("use method = \"lowqr\" or \"greedy\" (O(m k d^2)), or method = \"two_stage\" to run it on",
                  "the sampled columns (at most %d fit)"), fits)
  }
  fp_check_cost(per * d^4, sprintf("the high-rank-revealing QR over %d columns and %d groups", d, m), faster, arg = arg)
}
