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

# A test that needs a server, a cluster or an optional package: skipped, quietly as R CMD check
# expects, unless the make target that exists to run it set the environment variable(s) `env`
# to 1 (`make test-db`: FAIRPROJ_TEST_DB, `make test-dist`: FAIRPROJ_TEST_DIST); then what is
# missing is an error that says why, so the target fails instead of passing having tested nothing.
fp_test_need <- function(ok, reason, env) {
  if (isTRUE(ok)) return(invisible(TRUE))
  if (all(Sys.getenv(env) == "1")) {
    stop(sprintf("%s (%s: this run exists to test it)", reason, paste0(env, "=1", collapse = ", ")), call. = FALSE)
  }
  testthat::skip(reason)
}

fp_test_need_package <- function(pkg, env) {
  fp_test_need(requireNamespace(pkg, quietly = TRUE), sprintf("package %s cannot be loaded", pkg), env)
}

# Two group_moments objects with the same block moments (group_moments(blocks = )).
expect_same_blocks <- function(a, b, tol = 1e-10) {
  expect_identical(a$levels, b$levels)
  expect_identical(a$block_count, b$block_count)
  for (i in seq_along(a$levels)) {
    expect_identical(a$blocks[[i]]$id, b$blocks[[i]]$id)
    expect_equal(a$blocks[[i]]$n, b$blocks[[i]]$n)
    expect_equal(unname(a$blocks[[i]]$mean), unname(b$blocks[[i]]$mean), tolerance = tol)
    expect_equal(a$blocks[[i]]$scatter, b$blocks[[i]]$scatter, tolerance = tol)
  }
}

# The print() line of `group` in `out` (capture.output() of print() of moments or of their
# summary), split at blanks.
moments_row <- function(out, group) strsplit(trimws(grep(sprintf("^ *%s ", group), out, value = TRUE)), " +")[[1L]]

# Moments of a 3 x 4 matrix as group "a" beside a group "b" with no rows (merged pieces can hold
# such a level): list(moments, x).
moments_empty_group <- function(seed = 3) {
  set.seed(seed)
  x <- matrix(rnorm(12), 3)
  m <- fairproj:::fp_new_moments(c(3, 0), cbind(colMeans(x), 0),
                                 list(crossprod(scale(x, scale = FALSE)), matrix(0, 4, 4)),
                                 c("a", "b"), paste0("V", 1:4))
  list(moments = m, x = x)
}
