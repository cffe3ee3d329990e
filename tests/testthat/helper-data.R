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

# Replaces the package's internal function `name` by `value` until the calling test ends (testthat
# 3.1.6, Debian's, has no local_mocked_bindings()).
local_fp_binding <- function(name, value, env = parent.frame()) {
  ns <- asNamespace("fairproj")
  old <- get(name, envir = ns)
  unlockBinding(name, ns)
  assign(name, value, envir = ns)
  restore <- function() {
    assign(name, old, envir = ns)
    lockBinding(name, ns)
  }
  do.call(on.exit, list(bquote(.(restore)()), add = TRUE), envir = env)
  invisible(old)
}

# Replaces fp_progress_bar() by a recorder and turns progress on: the returned environment's
# `total` and `steps` hold what the long loop reported.
local_progress_recorder <- function(env = parent.frame()) {
  rec <- new.env()
  rec$total <- NULL
  rec$steps <- integer(0)
  rec$done <- 0L
  local_fp_binding("fp_progress_on", function() TRUE, env)
  local_fp_binding("fp_progress_bar", function(total, label, env = parent.frame(), show = TRUE) {
    rec$total <- total
    list(update = function(i) rec$steps <- c(rec$steps, as.integer(i)), done = function() rec$done <- rec$done + 1L)
  }, env)
  rec
}

# A fit refused up front by its cost check: the error of class fairproj_cost_error, whose
# message contains `says`, raised within a few seconds (before any of the work). The condition.
# n rows of d independent normal columns in about m groups of similar size (sampled labels), as
# when a continuous attribute is given as the group.
many_groups <- function(n, m, d, seed) {
  set.seed(seed)
  list(x = matrix(stats::rnorm(n * d), n), g = sample(m, n, TRUE))
}

expect_refused_up_front <- function(expr, says) {
  t0 <- proc.time()[["elapsed"]]
  e <- testthat::expect_error(expr, class = "fairproj_cost_error")
  testthat::expect_match(conditionMessage(e), says, fixed = TRUE)
  testthat::expect_lt(proc.time()[["elapsed"]] - t0, 5)
  invisible(e)
}
