# Small synthetic data shared by the tests: groups with different covariance structure.
make_groups <- function(n = c(200, 150), d = 6, seed = 1, shift = 0) {
  set.seed(seed)
  xs <- lapply(seq_along(n), function(i) {
    a <- matrix(rnorm(d * d), d, d)
    matrix(rnorm(n[i] * d), n[i], d) %*% a + matrix(rnorm(d, sd = 2), n[i], d, byrow = TRUE)
  })
  x <- do.call(rbind, xs) + shift
  colnames(x) <- paste0("x", seq_len(d))
  g <- factor(rep(letters[seq_along(n)], n))
  list(x = x, g = g)
}

# The subspace distance between the column spans of two orthonormal bases.
subspace_dist <- function(U, V) {
  norm(U %*% t(U) - V %*% t(V), "F")
}
