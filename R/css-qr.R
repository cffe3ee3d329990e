fit_css_lowqr <- function(prep, k, n_columns = k, data = NULL) {
  n_columns <- fp_check_count(n_columns, 1L, prep$d, "n_columns")
  res <- fp_cpp(.fp_css_lowqr(unname(prep$gram), unname(prep$factor), seq_len(prep$d) - 1L, n_columns))
  list(columns = res$columns + 1L, pivot_group = prep$levels[res$group], sigma = res$sigma)
}

fit_css_highqr <- function(prep, k, n_columns = k, data = NULL) {
  n_columns <- fp_check_count(n_columns, 1L, prep$d, "n_columns")
  res <- fp_cpp(.fp_css_highqr(unname(prep$gram), seq_len(prep$d) - 1L, 1L))
  list(columns = res$order[seq_len(n_columns)] + 1L, order = res$order + 1L)
}
