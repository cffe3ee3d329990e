fit_css_lowqr <- function(prep, k, n_columns = k, data = NULL) {
  n_columns <- fp_check_count(n_columns, 1L, prep$d, "n_columns")
  res <- fp_css_lowqr_cpp(prep$gram, prep$factor, n_columns)
  list(columns = res$columns, pivot_group = prep$levels[res$group], sigma = res$sigma)
}

fit_css_highqr <- function(prep, k, n_columns = k, data = NULL) {
  n_columns <- fp_check_count(n_columns, 1L, prep$d, "n_columns")
  ord <- fp_css_highqr_cpp(prep$gram)
  list(columns = ord[seq_len(n_columns)], order = ord)
}
