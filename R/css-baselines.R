fit_css_random <- function(prep, k, r = 50L, n_columns = k, data = NULL) {
  r <- fp_check_count(r, 1L, 1e7, "r")
  n_columns <- fp_check_count(n_columns, 1L, prep$d, "n_columns")
  best <- Inf
  bestset <- NULL
  losses <- numeric(r)
  for (i in seq_len(r)) {
    s <- sample.int(prep$d, n_columns)
    l <- fp_css_loss(prep$factor, s, prep$best2)
    if (!is.finite(l)) fp_internal_error("random column subsets", "a subset's loss is not finite")
    losses[i] <- l
    if (l < best * (1 - 1e-10)) {
      best <- l
      bestset <- s
    }
  }
  list(columns = bestset, random_losses = losses, random_mean = mean(losses))
}

fit_css_standard <- function(prep, k, algorithm = c("greedy", "qr", "leverage"), theta = k - 0.5, data = NULL) {
  algorithm <- fp_match_arg(algorithm, c("greedy", "qr", "leverage"), "algorithm")
  fp_check_applies(!missing(theta), "theta", "algorithm", algorithm, "leverage")
  G <- list(prep$pooled)
  pp <- fp_css_pooled(prep)
  Y <- list(pp$factor)
  cols <- switch(algorithm,
    greedy = fp_css_greedy_cpp(G, Y, matrix(pp$best2, k, 1), k)$columns,
    qr = fp_css_lowqr_cpp(G, Y, k)$columns,
    leverage = {
      theta <- fp_check_theta(theta, k)
      sc <- matrix(rowSums(pp$eig$vectors^2), ncol = 1L)
      fp_css_sampler(sc, theta)
    })
  list(columns = cols, algorithm = algorithm, loss_pooled = fp_css_loss(Y, cols, pp$best2, prep$full, pp$tot2))
}
