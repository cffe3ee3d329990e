# Helpers of the reproduction scripts in inst/reproduce: the stored-results convention
# (results-io.R) and the reductions baseline of Agarwal et al. (agarwal-reductions.R).

repro_env <- function(file) {
  path <- system.file("reproduce", file, package = "fairproj")
  skip_if(!nzchar(path), sprintf("reproduce/%s is not installed", file))
  env <- new.env()
  sys.source(path, envir = env)
  env
}

test_that("repro_write stores provenance and the sd convention, and needs both", {
  io <- repro_env("results-io.R")
  dir <- tempfile("results")
  old <- Sys.setenv(FAIRPROJ_RESULTS = dir)
  on.exit(Sys.unsetenv("FAIRPROJ_RESULTS"), add = TRUE)
  df <- data.frame(dataset = "d", method = "m", metric = "x", split = c("0", "1"), value = c(1.5, 2.5),
                   published = NA_real_)
  expect_error(io$repro_write(df, "t"), "repro_attach")       # no provenance recorded yet
  assign("provenance", list(commit = "abc1234", dirty = FALSE), envir = io$.repro_state)
  agg <- data.frame(dataset = "d", method = "m", metric = "x", split = c("mean", "sd"),
                    value = c(2, sqrt(0.5)), published = NA_real_)
  expect_error(io$repro_write(agg, "t"), "sd_divisor")        # sd rows must say their divisor
  io$repro_write(df, "t", replace_by = c("dataset", "split"), sd_divisor = "n-1")
  io$repro_write(agg, "t", replace_by = c("dataset", "split"), sd_divisor = "n-1")
  tab <- io$repro_read("t")
  expect_setequal(tab$split, c("0", "1", "mean", "sd"))
  expect_identical(unique(tab$commit), "abc1234")
  expect_identical(unique(tab$dirty), FALSE)
  expect_identical(unique(tab$sd_divisor), "n-1")
  expect_equal(tab$value[tab$split == "sd"], stats::sd(df$value))
  # rewriting a key replaces its rows, others stay
  io$repro_write(transform(df[1, ], value = 9), "t", replace_by = c("dataset", "split"), sd_divisor = "n-1")
  tab <- io$repro_read("t")
  expect_equal(nrow(tab), 4L)
  expect_equal(tab$value[tab$split == "0"], 9)
  expect_match(io$repro_label(tab), "abc1234 \\(clean tree")
  expect_match(io$repro_label(tab), "divisor n - 1")
  old_rows <- transform(tab, dirty = NA)
  expect_match(io$repro_label(old_rows), "not checked")
})

test_that("repro_write stores xz and takes over a table stored in gzip by an earlier run", {
  io <- repro_env("results-io.R")
  dir <- tempfile("results")
  dir.create(dir)
  Sys.setenv(FAIRPROJ_RESULTS = dir)
  on.exit(Sys.unsetenv("FAIRPROJ_RESULTS"), add = TRUE)
  assign("provenance", list(commit = "abc1234", dirty = FALSE), envir = io$.repro_state)
  old <- data.frame(dataset = c("a", "b"), method = "m", metric = "x", split = "0", value = c(1, 2),
                    published = NA_real_, commit = "0ld0000", dirty = FALSE, sd_divisor = "none")
  con <- gzfile(file.path(dir, "t.csv.gz"), "w")
  utils::write.csv(old, con, row.names = FALSE)
  close(con)
  expect_identical(basename(io$repro_path("t")), "t.csv.gz")
  expect_equal(io$repro_read("t")$value, c(1, 2))            # an older run's file is read
  io$repro_write(data.frame(dataset = "b", method = "m", metric = "x", split = "0", value = 5,
                            published = NA_real_), "t")
  expect_identical(list.files(dir), "t.csv.xz")               # one file per table, in xz
  raw <- readBin(file.path(dir, "t.csv.xz"), "raw", 6L)
  expect_identical(raw, as.raw(c(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00)))  # the xz magic number
  tab <- io$repro_read("t")
  expect_equal(tab$value[order(tab$dataset)], c(1, 5))
  expect_identical(tab$commit[order(tab$dataset)], c("0ld0000", "abc1234"))
})

test_that("repro_write records the run's settings without the machine's paths", {
  io <- repro_env("results-io.R")
  dir <- tempfile("results")
  vars <- c(FAIRPROJ_RESULTS = dir, FAIRPROJ_DATA = "/some/where", FAIRPROJ_SPLITS = "3", FAIRPROJ_VU_FLIN = "0")
  old <- Sys.getenv(names(vars), unset = NA)
  on.exit({
    Sys.unsetenv(names(vars)[is.na(old)])
    if (any(!is.na(old))) do.call(Sys.setenv, as.list(old[!is.na(old)]))
  }, add = TRUE)
  do.call(Sys.setenv, as.list(vars))
  st <- io$repro_settings(c("table2", "0:4"))
  expect_match(st, "^args: 'table2' '0:4'")
  expect_match(st, "FAIRPROJ_SPLITS=3")
  expect_match(st, "FAIRPROJ_VU_FLIN=0")
  expect_false(grepl("FAIRPROJ_DATA|FAIRPROJ_RESULTS|/some/where", st))
  expect_match(io$repro_settings(character(0)), "^args: \\(none\\)")
  assign("provenance", list(commit = "abc1234", dirty = FALSE), envir = io$.repro_state)
  assign("settings", st, envir = io$.repro_state)
  df <- data.frame(dataset = "d", method = "m", metric = "x", split = "0", value = 1, published = NA_real_)
  io$repro_write(df, "t")
  expect_identical(io$repro_read("t")$settings, st)
})

test_that("repro_code_state sees uncommitted code but not stored results", {
  skip_if(!nzchar(Sys.which("git")), "git is not installed")
  io <- repro_env("results-io.R")
  repo <- tempfile("repo")
  dir.create(file.path(repo, "R"), recursive = TRUE)
  dir.create(file.path(repo, "inst", "reproduce", "results"), recursive = TRUE)
  writeLines(c("Package: fairproj", "Version: 0.0.1"), file.path(repo, "DESCRIPTION"))
  writeLines("f <- function() 1", file.path(repo, "R", "f.R"))
  writeLines("a,b", file.path(repo, "inst", "reproduce", "results", "r.csv"))
  git <- function(...) system2("git", c("-C", shQuote(repo), ...), stdout = FALSE, stderr = FALSE)
  git("init", "-q")
  git("add", "-A")
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "init")
  st <- io$repro_code_state(repo)
  expect_false(st$dirty)
  expect_match(st$commit, "^[0-9a-f]{10}$")
  writeLines("a,b,c", file.path(repo, "inst", "reproduce", "results", "r.csv"))
  expect_false(io$repro_code_state(repo)$dirty)              # results change while a script runs
  writeLines("g <- function() 2", file.path(repo, "R", "g.R"))
  st <- io$repro_code_state(repo)                            # an untracked code file is not committed
  expect_true(st$dirty)
  expect_identical(st$changed, "R/g.R")
  unlink(file.path(repo, "R", "g.R"))
  writeLines("f <- function() 3", file.path(repo, "R", "f.R"))
  expect_true(io$repro_code_state(repo)$dirty)
  expect_null(io$repro_code_state(tempdir()))                 # not a checkout of the package
})

test_that("repro_compare matches rows on their keys, skips timings and aggregates, and applies the tolerance", {
  io <- repro_env("results-io.R")
  old <- data.frame(dataset = "d", method = rep(c("a", "b"), each = 4), metric = rep(c("x", "x", "seconds", "x"), 2),
                    split = rep(c("0", "1", "0", "mean"), 2), k = 2L, value = c(1, 2, 30, 1.5, 10, 20, 40, 15))
  new <- old[c(6, 1, 7, 2, 3), ]                               # a subset, in another order
  new$value[new$metric == "seconds"] <- 99                      # timings are not compared
  r <- io$repro_compare(new, old, c("dataset", "method", "metric", "split", "k"))
  expect_identical(c(r$rows, r$timing_rows, r$missing), c(3L, 2L, 0L))
  expect_identical(r$max_rel_diff, 0)
  expect_true(r$pass)
  # a change beyond the tolerance fails; within it passes, and the largest relative difference is reported
  new$value[new$method == "b" & new$split == "1"] <- 20 * (1 + 1e-6)
  r <- io$repro_compare(new, old, c("dataset", "method", "metric", "split", "k"))
  expect_equal(r$max_rel_diff, 1e-6 / (1 + 1e-6))
  expect_false(r$pass)
  expect_identical(r$beyond, "b 1e-06")                        # the method whose rows differ
  expect_true(io$repro_compare(new, old, c("dataset", "method", "metric", "split", "k"), tolerance = 1e-5)$pass)
  # the key includes the table's own columns: another k is a row the stored file lacks
  r <- io$repro_compare(transform(old[1, ], k = 3L), old, c("dataset", "method", "metric", "split", "k"))
  expect_identical(c(r$rows, r$missing), c(0L, 1L))
  expect_false(r$pass)
  # aggregates: left out by default, compared when the rerun covers them
  agg <- old[old$split == "mean", ]
  agg$value[1] <- 1.6
  expect_false(io$repro_compare(agg, old, c("dataset", "method", "metric", "split"))$pass)   # nothing compared
  r <- io$repro_compare(agg, old, c("dataset", "method", "metric", "split"), aggregates = TRUE)
  expect_identical(r$rows, 2L)
  expect_false(r$pass)
  # NA against NA is equal, NA against a number is not
  na <- transform(old, value = NA_real_)
  expect_true(io$repro_compare(na, na, c("dataset", "method", "metric", "split"))$pass)
  expect_identical(io$repro_compare(na, old, c("dataset", "method", "metric", "split"))$max_rel_diff, Inf)
  # rounding noise about zero is compared on the scale of its metric on its dataset
  z <- data.frame(dataset = "d", method = "m", metric = "error", split = "0", k = 1:2, value = c(10, -1.8e-15))
  expect_true(io$repro_compare(transform(z, value = c(10, 1.5e-31)), z, c("dataset", "method", "metric", "split", "k"))$pass)
  expect_false(io$repro_compare(transform(z, value = c(10, 1e-3)), z, c("dataset", "method", "metric", "split", "k"))$pass)
  # a timing-only table passes on its keys
  tm <- old[old$metric == "seconds", ]
  r <- io$repro_compare(transform(tm, value = 1), tm, c("dataset", "method", "metric", "split"))
  expect_identical(c(r$rows, r$timing_rows), c(0L, 2L))
  expect_true(r$pass)
  # keys that do not identify the rows are an error, not a silent match
  expect_error(io$repro_compare(old, old, c("dataset", "metric")), "do not identify")
})

test_that("repro_label quotes the partial rerun of provenance.csv, and does without it", {
  io <- repro_env("results-io.R")
  dir <- tempfile("results")
  dir.create(dir)
  old <- Sys.setenv(FAIRPROJ_RESULTS = dir)
  on.exit(Sys.unsetenv("FAIRPROJ_RESULTS"), add = TRUE)
  assign("provenance", list(commit = "abc1234", dirty = FALSE), envir = io$.repro_state)
  io$repro_write(data.frame(dataset = "d", method = "m", metric = "x", split = "0", value = 1, published = NA), "t")
  expect_no_match(io$repro_label(io$repro_read("t")), "rerun")            # no provenance.csv
  prov <- data.frame(file = "t.csv.gz", rows = 1L, commits = "abc1234 (dirty FALSE) x1", quick_commit = "def5678",
                     subset = "split 0", rows_compared = 1L, max_rel_diff = 0, result = "PASS")
  utils::write.csv(prov, file.path(dir, "provenance.csv"), row.names = FALSE)
  expect_match(io$repro_label(io$repro_read("t")), "rerun at clean commit def5678 \\(split 0\\) reproduced 1 of its rows")
  # a timings-only file: no value compared, so no relative difference is quoted
  utils::write.csv(transform(prov, rows_compared = 0L, max_rel_diff = NA), file.path(dir, "provenance.csv"),
                   row.names = FALSE)
  expect_match(io$repro_label(io$repro_read("t")), "produced the same rows \\(timings, not compared\\)")
  expect_no_match(io$repro_label(io$repro_read("t")), "relative difference")
  utils::write.csv(transform(prov, result = "FAIL"), file.path(dir, "provenance.csv"), row.names = FALSE)
  expect_match(io$repro_label(io$repro_read("t")), "did not reproduce")
  # a check of an earlier version of the file (other commits or rows) does not vouch for this one
  for (p in list(transform(prov, commits = "0123abc (dirty NA) x1"), transform(prov, rows = 2L))) {
    utils::write.csv(p, file.path(dir, "provenance.csv"), row.names = FALSE)
    expect_match(io$repro_label(io$repro_read("t")), "No partial rerun has checked this version")
  }
  # rows under both endings (an older provenance.csv beside a newer one): the xz file's row counts
  utils::write.csv(rbind(transform(prov, result = "FAIL"), transform(prov, file = "t.csv.xz")),
                   file.path(dir, "provenance.csv"), row.names = FALSE)
  expect_match(io$repro_label(io$repro_read("t")), "rerun at clean commit def5678 \\(split 0\\) reproduced 1 of its rows")
  utils::write.csv(data.frame(a = 1), file.path(dir, "provenance.csv"), row.names = FALSE)
  expect_no_match(io$repro_label(io$repro_read("t")), "rerun")            # another layout is ignored
})

sim_fair_data <- function(n = 400, d = 4, seed = 1) {
  set.seed(seed)
  a <- rep(0:1, c(n * 0.6, n * 0.4))
  x <- matrix(stats::rnorm(n * d), n, d)
  x[, 1] <- x[, 1] + 1.2 * a                                    # the label depends on the group
  y <- as.numeric(stats::runif(n) < stats::plogis(1.5 * x[, 1] - 0.8 + 0.5 * x[, 2]))
  list(x = x, y = y, a = a)
}

test_that("repro_logistic is glm without a penalty and scikit-learn's L2 logistic regression with one", {
  ag <- repro_env("agarwal-reductions.R")
  s <- sim_fair_data()
  w <- rep(1:3, length.out = length(s$y))
  ref <- stats::coef(stats::glm(s$y ~ s$x, family = stats::binomial(), weights = w))
  expect_equal(ag$repro_logistic(s$x, s$y, w), unname(ref), tolerance = 1e-8)
  # case weights are replicated rows
  rep_rows <- rep(seq_along(w), w)
  b_w <- ag$repro_logistic(s$x, s$y, w, reg = 0.05)
  b_rep <- ag$repro_logistic(s$x[rep_rows, ], s$y[rep_rows], reg = 0.05)
  expect_equal(b_w, b_rep, tolerance = 1e-8)
  # stationary: weighted mean log-loss gradient plus the penalty's vanishes (intercept unpenalised)
  X <- cbind(1, s$x)
  p <- stats::plogis(drop(X %*% b_w))
  ww <- w * length(w) / sum(w)
  grad <- drop(crossprod(X, ww * (p - s$y))) / length(w) + 2 * 0.05 * c(0, b_w[-1])
  expect_lt(max(abs(grad)), 1e-7)
  # unit weights: the package's own penalised logistic regression (BFGS, to its tolerance)
  expect_equal(ag$repro_logistic(s$x, s$y, reg = 0.01), fairproj:::fp_logistic_l2(s$x, s$y, 0.01),
               tolerance = 1e-4)
})

test_that("expected_metrics agrees with fairness_gaps on deterministic predictions", {
  ag <- repro_env("agarwal-reductions.R")
  s <- sim_fair_data()
  pred <- as.numeric(s$x[, 1] > 0.3)
  g <- fairness_gaps(pred, s$y, s$a)
  m <- ag$expected_metrics(pred, s$y, s$a)
  expect_equal(m[["accuracy"]], g[["accuracy"]])
  expect_equal(m[["dp_gap"]], g[["dp_gap"]])
})

test_that("agarwal_lp finds the best mixture of the classifiers", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  skip_if_not_installed("ECOSolveR")
  ag <- repro_env("agarwal-reductions.R")
  errs <- c(0.10, 0.16, 0.25)
  gam <- rbind(c(0.12, 0.05, -0.02), c(-0.12, -0.05, 0.02))    # gamma_(a,+), gamma_(a,-) of each
  sol <- ag$agarwal_lp(errs, gam, eps = 0.03, B = 100)
  q <- sol$q
  # brute force over a fine grid of the simplex
  grid <- expand.grid(q1 = seq(0, 1, by = 0.001), q2 = seq(0, 1, by = 0.001))
  grid <- grid[grid$q1 + grid$q2 <= 1, ]
  Q <- cbind(grid$q1, grid$q2, 1 - grid$q1 - grid$q2)
  obj <- drop(Q %*% errs) + 100 * pmax(0, apply(Q %*% t(gam) - 0.03, 1, max))
  expect_equal(sum(q), 1)
  expect_gte(min(q), 0)
  expect_lte(sum(q * errs) + 100 * max(0, max(gam %*% q - 0.03)), min(obj) + 1e-6)
  expect_lte(max(gam %*% q), 0.03 + 1e-7)                       # feasible here, so no slack
  # the multipliers solve the dual: lambda >= 0, |lambda|_1 <= B, and the best response to them
  # has the primal optimum as its Lagrangian value (strong duality)
  lam <- sol$lambda
  expect_gte(min(lam), 0)
  expect_lte(sum(lam), 100 + 1e-6)
  expect_equal(min(errs + drop(crossprod(gam - 0.03, lam))), sum(q * errs), tolerance = 1e-6)
})

test_that("agarwal_eg meets the demographic-parity constraint on its training data", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  skip_if_not_installed("ECOSolveR")
  ag <- repro_env("agarwal-reductions.R")
  s <- sim_fair_data(n = 600)
  base <- ag$expected_metrics(ag$repro_logistic_predict(ag$repro_logistic(s$x, s$y, reg = 0.01), s$x), s$y, s$a)
  for (learner in c("glm", "l2")) {
    f <- ag$agarwal_eg(s$x, s$y, s$a, eps = 0.02, learner = learner, max_iter = 30L)
    p <- ag$agarwal_predict(f, s$x)
    dev <- vapply(split(p, s$a), mean, 0) - mean(p)
    expect_lte(max(abs(dev)), 0.02 + 1e-6)
    expect_equal(sum(f$Q), 1)
    expect_lt(ag$expected_metrics(p, s$y, s$a)[["dp_gap"]], base[["dp_gap"]])
  }
})

test_that("agarwal_eg follows fairlearn's ExponentiatedGradient: default nu, stopping rule, output", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  skip_if_not_installed("ECOSolveR")
  ag <- repro_env("agarwal-reductions.R")
  s <- sim_fair_data(n = 600)
  f <- ag$agarwal_eg(s$x, s$y, s$a, eps = 0.02, learner = "l2")
  # nu: 0.5 sd(|h_0(X) - y|) / sqrt(n), h_0 the first best response (the first classifier kept)
  h0 <- ag$repro_logistic_predict(f$coef[, 1], s$x)
  expect_equal(f$nu, 0.5 * stats::sd(abs(h0 - s$y)) / sqrt(length(s$y)))
  # it stops at the first step t >= 5 whose gap is below nu, and returns a mixture whose gap is
  expect_true(f$converged)
  expect_lt(f$gap, f$nu)
  expect_gte(f$iterations, 6L)
  expect_lt(f$iterations, 50L)
  expect_equal(length(f$Q), ncol(f$coef))
  expect_gte(f$oracle_calls, f$iterations)     # one best response per step, more for the gaps
  # with a large nu it stops at the earliest step allowed (t = 5, the sixth)
  expect_equal(ag$agarwal_eg(s$x, s$y, s$a, eps = 0.02, learner = "l2", nu = 1)$iterations, 6L)
  # without the linear programme and with a tiny nu it runs every step, and the output is the
  # empirical distribution of the best responses of one step: multiples of 1 / (t + 1)
  g <- ag$agarwal_eg(s$x, s$y, s$a, eps = 0.02, learner = "l2", max_iter = 8L, nu = 1e-12, run_lp = FALSE)
  expect_equal(g$iterations, 8L)
  expect_false(g$converged)
  w <- g$Q * (g$best_t + 1)
  expect_equal(w, round(w), tolerance = 1e-12)
})
