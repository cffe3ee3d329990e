# Error of moments `a` against reference moments `b` of the same rows, relative to each
# column's spread: mean errors over the column's within-group standard deviation (beyond one
# unit in the last place of the mean, the most a double can hold at a large offset), scatter
# errors over sqrt(scatter_ii scatter_jj). Levels, columns and counts must agree exactly.
moments_err <- function(a, b) {
  testthat::expect_identical(a$levels, b$levels)
  testthat::expect_identical(a$colnames, b$colnames)
  testthat::expect_identical(unname(a$n), unname(b$n))
  errs <- vapply(seq_along(b$levels), function(i) {
    s <- diag(b$scatter[[i]])
    sd <- sqrt(pmax(s, .Machine$double.xmin) / b$n[[i]])
    dm <- pmax(abs(a$mean[, i] - b$mean[, i]) - .Machine$double.eps * abs(b$mean[, i]), 0) / sd
    ds <- abs(a$scatter[[i]] - b$scatter[[i]]) / sqrt(outer(s, s) + .Machine$double.xmin)
    max(dm, ds)
  }, numeric(1))
  max(errs)
}

# A data frame with groups and columns of mixed scales (1e-3 ... 1e3) around an offset.
mixed_scale_data <- function(n = c(120, 90, 60), d = 4, offset = 0, seed = 1) {
  dat <- make_groups(n = n, d = d, seed = seed)
  sc <- 10^seq(-3, 3, length.out = d)
  x <- sweep(dat$x, 2, sc, `*`) + offset
  list(x = x, g = dat$g)
}
