# Data of the audit's tests (test-audit*.R).

audit_data <- function() {
  dat <- make_groups(n = c(120, 90), d = 6)
  set.seed(2)
  # an outcome that depends on the data and the group
  eta <- drop(scale(dat$x) %*% c(1, -0.5, 0.5, 0, 0.3, 0)) + 0.8 * (dat$g == "b")
  dat$y <- as.integer(eta + rnorm(nrow(dat$x)) > 0)
  dat$z <- eta + rnorm(nrow(dat$x))
  dat
}

iv_data <- function(n = c(150, 120), d = 4, seed = 1) make_groups(n = n, d = d, seed = seed)

# Replace the package's internal function `name` by `value` until the calling test ends.
local_fairproj_function <- function(name, value, env = parent.frame()) {
  ns <- asNamespace("fairproj")
  orig <- get(name, envir = ns)
  restore <- function() {
    unlockBinding(name, ns)
    assign(name, orig, envir = ns)
    lockBinding(name, ns)
  }
  do.call(on.exit, list(as.call(list(restore)), add = TRUE, after = FALSE), envir = env)  # undone last first
  unlockBinding(name, ns)
  assign(name, value, envir = ns)
  lockBinding(name, ns)
  invisible(orig)
}
