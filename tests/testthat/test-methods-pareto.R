test_that("Pareto fronts summarise, tidy and plot", {
  dat <- make_groups(n = c(80, 60), d = 5, seed = 41)
  set.seed(3)
  pf <- pareto_front(dat$x, dat$g, k = 2, restarts = 2)
  s <- summary(pf)
  expect_s3_class(s, "summary.fairproj_pareto_front")
  expect_equal(nrow(s$front), sum(!pf$table$dominated))
  expect_true(all(diff(s$front$disparity) >= 0))
  expect_equal(s$front$total_vs_standard, s$front$total / pf$standard[["total"]] - 1)
  expect_output(print(s), "Non-dominated fits")
  td <- tidy(pf)
  expect_equal(nrow(td), nrow(pf$table))
  expect_equal(td$total, pf$table$total)
  expect_equal(nrow(tidy(pf, "plot")), nrow(pf$table) + 1L)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_silent(plot(pf, legend = FALSE))
  expect_silent(plot(pf, main = "front"))
})

test_that("augment() of a Pareto front, which chooses no fit, is a classed error naming how to augment one fit", {
  dat <- make_groups(n = c(80, 60), d = 5, seed = 41)
  pf <- pareto_front(dat$x, dat$g, k = 2, restarts = 0)
  df <- as.data.frame(dat$x)
  expect_error(augment(pf, data = df), "^`x` is a front of 1 fit\\(s\\) and chooses none.*augment\\(x\\$fits\\[\\[i\\]\\], data\\)",
               class = "fairproj_input_error")
  # the advice works: each fit's scores are defined
  au <- augment(pf$fits[[tidy(pf)$fit[1L]]], data = df)
  expect_equal(au$.fittedPC1, unname(predict(pf$fits[[1L]], df)[, 1]))
})

test_that("pareto_front() lists as accepted exactly the arguments it accepts", {
  set.seed(1)
  x <- matrix(rnorm(600), 100, 6)
  g <- rep(c("a", "b"), 50)
  e <- expect_error(pareto_front(x, g, k = 2, foo = 1),
                    "^`\\.\\.\\.` has argument\\(s\\) that pareto_front\\(\\) does not take: foo \\(it takes: ",
                    class = "fairproj_input_error")
  takes <- strsplit(sub(".*it takes: (.*)\\)$", "\\1", conditionMessage(e)), ", ")[[1]]
  expect_false(any(c("start", "restarts", "init") %in% takes))
  expect_true(all(c("center", "scale.", "balance") %in% takes))
  for (a in c("start", "init")) {
    expect_error(do.call(pareto_front, c(list(x, g, k = 2), setNames(list(1), a))),
                 sprintf("^`\\.\\.\\.` must not contain %s", a), class = "fairproj_input_error")
  }
  expect_error(pareto_front(x, g, k = 2, restarts = 0, 1), "^`\\.\\.\\.` arguments must be named", class = "fairproj_input_error")
})

test_that("pareto_front() warns once about a group of one row, not once per fit", {
  set.seed(1)
  x <- matrix(rnorm(600), 100, 6)
  n <- 0L
  withCallingHandlers(pareto_front(x, c("a", rep("b", 99)), k = 2, restarts = 2, iterations = 20, scale. = FALSE),
                      fairproj_small_group_warning = function(w) {
                        n <<- n + 1L
                        invokeRestart("muffleWarning")
                      },
                      fairproj_convergence_warning = function(w) invokeRestart("muffleWarning"))
  expect_equal(n, 1L)
})

test_that("pareto_front(): a fit that standard PCA dominates is marked dominated", {
  set.seed(1)
  x <- matrix(rnorm(1000), 200, 5) %*% diag(c(3, 2, 1.5, 1, .5))
  g <- factor(rep(c("a", "b"), c(120, 80)))
  x[g == "b", ] <- x[g == "b", ] %*% diag(c(.5, 2, 1, 1.5, 1))
  set.seed(9)
  pf <- suppressWarnings(pareto_front(x, g, k = 2, restarts = 4, iterations = 2))
  std <- unlist(pf$fits[[1]]$history[1L, c("objective", names(pf$fits[[1]]$objectives)[-1L])])
  F <- do.call(rbind, lapply(pf$fits, function(f) f$objectives))
  worse <- apply(F, 1L, function(f) all(std <= f) && any(std < f - 1e-9 * abs(f)))
  expect_true(any(worse))  # the case this test is about occurs
  expect_true(all(pf$table$dominated[worse]))
})

test_that("pareto_front() at k = rank reports totals of 0, not rounding-level negatives", {
  set.seed(1)
  x <- matrix(rnorm(240), 60)
  x[, 2] <- x[, 1]  # rank 3
  g <- rep(c("a", "b"), 30)
  set.seed(1)
  pf <- suppressWarnings(pareto_front(x, g, 3, restarts = 2))
  expect_true(all(pf$table$total >= 0))
  expect_true(all(pf$table$max_excess >= 0))
  expect_identical(pf$standard[["total"]], 0)
  s <- summary(pf)
  expect_false(anyNA(s$front$total_vs_standard))
  expect_identical(s$front$total_vs_standard[s$front$start == "pca"], 0)
  # the plot draws absolute totals and says why: standard PCA's total is 0, not unavailable
  cap <- attr(fairproj:::fp_plot_data(pf), "fp_spec")$labels$caption
  expect_match(cap, "Total loss of standard PCA is 0", fixed = TRUE)
})
