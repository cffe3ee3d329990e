# A contract over every result class: print, summary (and its print), predict (where the class
# has one), plot() and autoplot() with their defaults, tidy() and glance() run without error or
# unasserted warning, and a misspelt argument is a classed error. The loops over
# fairproj_methods() catch a method nobody called. Snapshots pin the printed output of each
# class and the message of each condition class.
contract_data <- function(groups = c("a", "b", "c")) {
  set.seed(11)
  n <- 90
  g <- rep(groups, length.out = n)
  x <- matrix(rnorm(n * 5), n, 5) %*% matrix(rnorm(25), 5)
  x[g == "b", 1] <- x[g == "b", 1] * 3 + 2
  colnames(x) <- paste0("v", 1:5)
  list(x = x, g = g)
}

# short runs of the iterative methods may stop before their tolerance: that warning is the honest
# report of a shortened run, not what this contract checks (the plots refit the same short runs
# at other k)
quiet_convergence <- function(expr) {
  withCallingHandlers(expr, fairproj_convergence_warning = function(w) invokeRestart("muffleWarning"))
}

contract_check <- function(obj, newdata = NULL) {
  expect_output(print(obj))
  s <- summary(obj)
  expect_output(print(s))
  if (!is.null(newdata)) {
    p <- predict(obj, newdata)
    expect_true(is.matrix(p) || is.data.frame(p))
    expect_equal(nrow(p), nrow(newdata))
  }
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  suppressMessages(plot(obj))
  expect_s3_class(generics::tidy(obj), "data.frame")
  gl <- generics::glance(obj)
  expect_s3_class(gl, "data.frame")
  expect_equal(nrow(gl), 1L)
  # counts are integers, as broom's glance() columns are
  for (col in intersect(names(gl), c("k", "nobs", "ncol", "ngroups", "groups", "smallest_group", "fits", "candidates",
                                     "folds", "methods", "replicates")))
    expect_type(gl[[col]], "integer")
}

contract_autoplot <- function(obj) {
  expect_s3_class(suppressMessages(ggplot2::autoplot(obj)), "ggplot")
}

pca_extra <- list(rlace = list(n_iter = 200L, seed = 1), mbfpca = list(maxit_outer = 5L),
                  robust = list(iterations = 50L, restarts = 0L), pareto = list(iterations = 200L))

# (built with bquote() so that the fit's call shows the arguments, not the data)
pca_fit <- function(dat, m, ...) {
  args <- c(pca_extra[[m]], list(...))
  quiet_convergence(eval(bquote(fair_pca(dat$x, dat$g, k = 2, method = .(m), ..(args)), splice = TRUE)))
}

# Every result class, fitted once for the tests below: a fit of each fair_pca method (two groups:
# cfpca, inlp and rlace take two), a selection of each fair_css method, a kernel fit, a tuning,
# a Pareto front and an audit.
contract_objects <- local({
  cache <- NULL
  function() {
    if (is.null(cache)) {
      dat2 <- contract_data(c("a", "b"))
      dat <- contract_data()
      pca <- lapply(stats::setNames(nm = fairproj_methods()), function(m) pca_fit(dat2, m))
      css <- lapply(stats::setNames(nm = fairproj_methods("css")), function(m) {
        set.seed(3)
        eval(bquote(fair_css(dat$x, dat$g, k = 2, method = .(m))))
      })
      other <- list(kpca = fair_kpca(dat$x, dat$g, k = 2),
                    tune = tune_fair_pca(dat$x, dat$g, k = 2, method = "mean", folds = 3, seed = 1,
                                         grid = list(zero_tol = c(1e-9, 1e-6))),
                    pareto = pareto_front(dat$x, dat$g, k = 2, restarts = 0),
                    audit = fair_audit(dat$x, dat$g, k = 1:2, scale. = FALSE))
      cache <<- list(pca = pca, css = css, other = other, x2 = dat2$x, x = dat$x)
    }
    cache
  }
})

test_that("every fair_pca method's fit prints, summarises, predicts, plots, tidies and glances", {
  ob <- contract_objects()
  dat <- contract_data(c("a", "b"))
  for (m in names(ob$pca)) {
    expect_s3_class(ob$pca[[m]], "fair_pca")
    quiet_convergence(contract_check(ob$pca[[m]], newdata = ob$x2[1:7, ]))
    expect_error(pca_fit(dat, m, tolerance_typo = 1), class = "fairproj_input_error")
  }
})

test_that("every fair_css method's selection prints, summarises, predicts, plots, tidies and glances", {
  ob <- contract_objects()
  dat <- contract_data()
  for (m in names(ob$css)) {
    expect_s3_class(ob$css[[m]], "fair_css")
    contract_check(ob$css[[m]], newdata = ob$x[1:7, ])
    expect_error(fair_css(dat$x, dat$g, k = 2, method = m, tolerance_typo = 1), class = "fairproj_input_error")
  }
})

test_that("kernel fits, tuning results, Pareto fronts and audits honour the contract", {
  ob <- contract_objects()$other
  dat <- contract_data()
  contract_check(ob$kpca, newdata = dat$x[1:7, ])
  contract_check(ob$tune, newdata = dat$x[1:7, ])
  # a Pareto front and an audit are collections of fits: no predict() of their own
  contract_check(ob$pareto)
  contract_check(ob$audit)
  expect_error(fair_kpca(dat$x, dat$g, k = 2, gama = 1), class = "fairproj_input_error")
  expect_error(pareto_front(dat$x, dat$g, k = 2, restrats = 0), class = "fairproj_input_error")
  expect_error(fair_audit(dat$x, dat$g, k = 1, methds = "mean"), class = "fairproj_input_error")
  expect_error(tune_fair_pca(dat$x, dat$g, k = 2, method = "mean", grid = list(zero_tol = 1e-9), fodls = 3),
               class = "fairproj_input_error")
})

test_that("every result class draws with autoplot() (ggplot2)", {
  skip_if_not_installed("ggplot2")  # a skip that says so: the base plots above ran either way
  ob <- contract_objects()
  for (obj in c(ob$pca, ob$css, ob$other)) quiet_convergence(contract_autoplot(obj))
})

# Printed output of each class, with timings (which vary from run to run) blanked.
no_timings <- function(lines) gsub("[0-9.]+ ?(s|ms|sec|seconds)\\b", "<time>", lines)

test_that("printed output of each result class", {
  ob <- contract_objects()
  dat <- contract_data()
  expect_snapshot(print(ob$pca$standard))
  expect_snapshot(print(ob$pca$minmax))
  expect_snapshot(summary(ob$pca$mean))
  expect_snapshot(print(ob$css$greedy))
  expect_snapshot(summary(ob$css$lowqr))
  expect_snapshot(print(ob$other$kpca))
  expect_snapshot(print(group_moments(dat$x, dat$g)))
  expect_snapshot(print(ob$other$tune))
  expect_snapshot(print(ob$other$pareto))
  expect_snapshot(print(ob$other$audit), transform = no_timings)
})

test_that("the message of each condition class", {
  dat <- contract_data()
  m <- group_moments(dat$x, dat$g)
  # fairproj_input_error: the argument named, what to do said
  expect_snapshot(error = TRUE, fair_pca(dat$x, dat$g, k = 9))
  expect_snapshot(error = TRUE, fair_pca(dat$x, dat$g, k = 2, method = "minmaxx"))
  expect_snapshot(error = TRUE, fair_css(dat$x, dat$g[-1], k = 2))
  expect_snapshot(error = TRUE, fair_pca(replace(dat$x, 3, NA), dat$g, k = 2))
  # fairproj_needs_rows, fairproj_infeasible_k
  expect_snapshot(error = TRUE, fair_pca(m, k = 2, method = "inlp"))
  expect_snapshot(error = TRUE, fair_pca(m, k = 4, method = "mean"))
  # fairproj_data_error
  expect_snapshot(error = TRUE, fairproj_data("ecoli", dir = ""))
  # fairproj_convergence_warning
  expect_snapshot(invisible(fair_pca(dat$x, dat$g, k = 2, method = "pareto", iterations = 2)))
})

test_that("every door that takes group_moments refuses a separate `group`, and css_loss() takes a group column by name", {
  dat <- make_groups(n = c(60, 50), d = 4, seed = 21)
  m <- group_moments(dat$x, dat$g)
  expect_error(fair_pca(m, group = dat$g, k = 2), class = "fairproj_input_error")
  expect_error(fair_css(m, group = dat$g, k = 2), class = "fairproj_input_error")
  expect_error(css_loss(m, group = dat$g, columns = 1:2, k = 2), class = "fairproj_input_error")
  # pareto_front() ignored the group beside moments before
  expect_error(pareto_front(m, group = dat$g, k = 2, restarts = 0), class = "fairproj_input_error")
  df <- data.frame(dat$x, grp = dat$g)
  expect_identical(css_loss(df, "grp", columns = 1:2, k = 2), css_loss(dat$x, dat$g, columns = 1:2, k = 2))
})

test_that("a fit checks its method's arguments once", {
  dat <- make_groups(n = c(60, 50), d = 4, seed = 22)
  count <- new.env()
  count$n <- 0L
  ns <- asNamespace("fairproj")
  bump <- bquote(assign("n", get("n", envir = .(count)) + 1L, envir = .(count)))
  suppressMessages(trace("fp_check_solver_args", tracer = bump, where = ns, print = FALSE))
  on.exit(suppressMessages(untrace("fp_check_solver_args", where = ns)), add = TRUE)
  fair_pca(dat$x, dat$g, k = 2, method = "mean")
  expect_identical(count$n, 1L)
  count$n <- 0L
  fair_css(dat$x, dat$g, k = 2, method = "greedy")
  expect_identical(count$n, 1L)
})

test_that("a fit's call names the exported generic, so update() refits (as on prcomp fits)", {
  dat <- make_groups(n = c(40, 30), d = 4)
  d <- data.frame(dat$x, g = dat$g)
  # the stored call was fair_pca.default(...), which update() could not find
  f <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  expect_identical(f$call[[1L]], as.name("fair_pca"))
  expect_equal(update(f, k = 1)$rotation, fair_pca(dat$x, dat$g, k = 1, method = "standard")$rotation)
  expect_identical(fair_pca(~ ., data = d, group = g, k = 2, method = "standard")$call[[1L]], as.name("fair_pca"))
  expect_identical(update(fair_pca(group_moments(dat$x, dat$g), k = 2, method = "standard"), k = 1)$k, 1L)
  cs <- fair_css(dat$x, dat$g, k = 2)
  expect_identical(cs$call[[1L]], as.name("fair_css"))
  expect_identical(update(cs, k = 1)$k, 1L)
  expect_identical(fair_css(~ ., data = d, group = g, k = 2)$call[[1L]], as.name("fair_css"))
  kp <- fair_kpca(dat$x, dat$g, k = 2)
  expect_identical(kp$call[[1L]], as.name("fair_kpca"))
  expect_identical(ncol(predict(update(kp, k = 1), dat$x)), 1L)
  expect_identical(fair_kpca(~ ., data = d, group = g, k = 2)$call[[1L]], as.name("fair_kpca"))
  a <- fair_audit(dat$x, dat$g, k = 1, replicates = 0)
  expect_identical(a$call[[1L]], as.name("fair_audit"))
  expect_s3_class(update(a, k = 2), "fairproj_audit")
})
