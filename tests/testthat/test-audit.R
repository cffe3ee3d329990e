# fair_audit()'s doors (R/audit.R): every input form, the defaults, checked arguments and
# the specification they build.

test_that("every method at every k, each row equal to a separate fair_pca() fit", {
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:4, methods = "mean", minmax = list(gap_tol = 1e-11))
  expect_s3_class(a, "fairproj_audit")
  expect_identical(a$methods, c("standard", "minmax", "mean"))  # standard and the fair default added
  expect_identical(a$k, 1:4)
  expect_equal(nrow(a$table), 3L * 4L)
  expect_setequal(paste(a$table$method, a$table$k), paste(rep(a$methods, each = 4), 1:4))
  expect_equal(nrow(a$groups_table), 3L * 4L * 2L)
  expect_setequal(paste(a$groups_table$method, a$groups_table$k, a$groups_table$group),
                  paste(rep(a$methods, each = 8), rep(rep(1:4, each = 2), 3), c("a", "b")))
  for (m in a$methods) for (k in a$k) {
    args <- if (m == "minmax") list(gap_tol = 1e-11) else list()
    f <- do.call(fair_pca, c(list(dat$x, dat$g, k = k, method = m, scale. = TRUE), args))  # the audit scales by default
    gt <- a$groups_table[a$groups_table$method == m & a$groups_table$k == k, ]
    gs <- f$group_stats
    # the same moments up to rounding (a merge of two passes in the audit): 1e-8 relative
    for (col in c("n", "error", "best", "loss", "var_explained")) {
      expect_equal(gt[[col]], gs[[col]], tolerance = 1e-8, info = paste(m, k, col))
    }
    row <- a$table[a$table$method == m & a$table$k == k, ]
    expect_equal(row$max_loss, max(gs$loss), tolerance = 1e-8)
    expect_equal(row$loss_gap, diff(range(gs$loss)), tolerance = 1e-6)
    expect_identical(row$worst_group, gs$group[which.max(gs$loss)])
    expect_equal(row$var_kept, sum(f$sdev^2) / f$totalvar, tolerance = 1e-8)
    expect_lt(subspace_dist(a$fits[[m]][[as.character(k)]]$rotation, f$rotation), 1e-6)
  }
  # the kept fits name the moments in their call instead of holding a copy
  expect_identical(a$fits$minmax[["2"]]$call[[2]], quote(moments))
  std <- a$table[a$table$method == "standard", ]
  for (m in a$methods) {
    t <- a$table[a$table$method == m, ]
    expect_equal(t$price, std$var_kept - t$var_kept)
    expect_true(all(t$price >= -1e-10))  # standard PCA keeps the most variance
  }
  expect_true(all(a$table$state[a$table$method == "minmax"] != "not converged"))
  expect_true(all(is.na(a$table$converged[a$table$method %in% c("standard", "mean")])))
  expect_true(all(a$table$seconds >= 0))
  # min-max equalises two groups' losses
  mm <- a$table[a$table$method == "minmax", ]
  expect_true(all(mm$loss_gap <= 1e-6 * mm$max_loss))
})

test_that("defaults: k from 1 to 4 groups' worth, below d; the focus k keeps 80% of the variance", {
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g)
  expect_identical(a$k, 1:5)  # min(4 * 2, d - 1)
  std <- a$table[a$table$method == "standard", ]
  expect_identical(a$k_focus, if (any(std$var_kept >= 0.8)) min(std$k[std$var_kept >= 0.8]) else 5L)
  expect_null(a$downstream)
  expect_match(a$downstream_note, "no outcome")
  expect_identical(fair_audit(dat$x[, 1:2], dat$g)$k, 1L)
})

test_that("the price and the relative losses do not depend on the units", {
  dat <- audit_data()
  for (sc in c(TRUE, FALSE)) {
    a <- fair_audit(dat$x, dat$g, k = 1:3, scale. = sc)
    b <- fair_audit(1000 * dat$x + 5, dat$g, k = 1:3, scale. = sc)
    expect_equal(b$table$price, a$table$price, tolerance = 1e-7)
    # scaled losses are unit-free; unscaled ones in squared units
    expect_equal(b$table$max_loss, (if (sc) 1 else 1e6) * a$table$max_loss, tolerance = 1e-6)
    expect_equal(b$groups_table$var_explained, a$groups_table$var_explained, tolerance = 1e-7)
  }
})

test_that("fair_audit() scales by default, as its report template, and never warns about units", {
  dat <- audit_data()
  x <- dat$x
  x[, 3] <- 1e3 * x[, 3]  # one column in other units: unscaled, it holds > 99% of the variance
  expect_warning(fair_pca(x, dat$g, k = 1), class = "fairproj_units_warning")
  a <- expect_no_warning(fair_audit(x, dat$g, k = 1:2, seed = 1))
  expect_true(a$scaled)
  no_time <- function(t) t[setdiff(names(t), "seconds")]
  expect_equal(no_time(a$table), no_time(fair_audit(x, dat$g, k = 1:2, scale. = TRUE, seed = 1)$table))
  sc <- a$table[a$table$method == "standard", "var_kept"]
  expect_equal(sc, fair_audit(scale(x), dat$g, k = 1:2, scale. = FALSE)$table[a$table$method == "standard", "var_kept"],
               tolerance = 1e-10)
  expect_false(fair_audit(x, dat$g, k = 1:2, scale. = FALSE)$scaled)
  tpl <- readLines(system.file("rmarkdown", "templates", "fair-pca-audit", "skeleton", "skeleton.Rmd", package = "fairproj"))
  expect_true(any(grepl("^  scale: true", tpl)))
})

test_that("every input form of fair_pca() gives the same audit", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  dat <- audit_data()
  df <- data.frame(dat$x, grp = dat$g, out = dat$y)
  a <- fair_audit(dat$x, dat$g, k = 1:3)
  same <- function(b) {
    expect_equal(b$table$max_loss, a$table$max_loss, tolerance = 1e-8)
    expect_equal(b$groups_table$loss, a$groups_table$loss, tolerance = 1e-8)
  }
  same(fair_audit(~ ., data = df[names(df) != "out"], group = grp, k = 1:3))
  same(fair_audit(df[names(df) != "out"], "grp", k = 1:3))  # a data.frame and its group column's name
  # from moments: the audit works, the downstream checks are omitted and said so
  m <- group_moments(dat$x, dat$g)
  b <- fair_audit(m, k = 1:3)
  same(b)
  expect_null(b$downstream)
  expect_match(b$downstream_note, "group moments")
  expect_output(print(b), "not run")
  expect_output(print(summary(b)), "not run")
  expect_error(plot(b, "downstream"), class = "fairproj_input_error")
  expect_error(tidy(b, "downstream"), class = "fairproj_input_error")
  # moments merged from chunks
  half <- seq_len(100)
  same(fair_audit(group_moments(dat$x[half, ], dat$g[half]) + group_moments(dat$x[-half, ], dat$g[-half]),
                  k = 1:3))
  # group cells: several attributes
  s <- rep(c("u", "v"), length.out = nrow(dat$x))
  cells <- fair_audit(dat$x, data.frame(g = dat$g, s = s), k = 1:2)
  f <- fair_pca(dat$x, data.frame(g = dat$g, s = s), k = 2, scale. = TRUE)
  expect_identical(cells$groups$group, f$groups$group)
  expect_equal(cells$groups_table$loss[cells$groups_table$method == "minmax" & cells$groups_table$k == 2],
               f$group_stats$loss, tolerance = 1e-8)
  # the outcome as a column name, in both interfaces
  o1 <- fair_audit(~ ., data = df, group = grp, outcome = out, k = 1:2, seed = 3)
  o2 <- fair_audit(df, "grp", outcome = "out", k = 1:2, seed = 3)
  expect_equal(o1$downstream, o2$downstream)
  expect_identical(o1$colnames, colnames(dat$x))  # the outcome is not a feature
  expect_identical(o1$outcome$name, "out")
})

test_that("the formula interface drops rows with missing features from the outcome too", {
  dat <- audit_data()
  df <- data.frame(dat$x, grp = dat$g, out = dat$y)
  df$x1[c(3, 50)] <- NA
  a <- fair_audit(~ ., data = df, group = grp, outcome = out, k = 1:2, seed = 1)
  expect_identical(a$n_dropped, 2L)
  expect_equal(a$n, nrow(df) - 2)
  b <- fair_audit(as.matrix(df[-c(3, 50), 1:6]), df$grp[-c(3, 50)], outcome = df$out[-c(3, 50)], k = 1:2, seed = 1)
  expect_equal(a$downstream, b$downstream)
})

test_that("the formula interface counts the rows it drops for a missing group apart, and print() shows both", {
  dat <- audit_data()
  df <- data.frame(dat$x, grp = dat$g, out = dat$y)
  df$x1[3] <- NA
  df$grp[c(7, 60, 61)] <- NA
  expect_message(a <- fair_audit(~ ., data = df, group = grp, outcome = out, k = 1, seed = 1),
                 class = "fairproj_dropped_rows_message")
  expect_identical(as.integer(a$n_dropped), 1L)
  expect_identical(as.integer(a$dropped), 3L)
  expect_equal(a$n, nrow(df) - 4)
  out <- paste(capture.output(print(a)), collapse = "\n")
  expect_true(grepl("1 row dropped (missing values); 3 rows dropped (missing group)", out, fixed = TRUE))
})

test_that("bad input gives classed errors naming the argument", {
  dat <- audit_data()
  err <- function(expr) expect_error(expr, class = "fairproj_input_error")
  err(fair_audit(dat$x, dat$g, k = 0))
  err(fair_audit(dat$x, dat$g, k = 7))        # above d = 6
  err(fair_audit(dat$x, dat$g, k = c(1, 2.5)))
  err(fair_audit(dat$x, dat$g, k = NA))
  err(fair_audit(dat$x, dat$g, methods = "nope"))
  err(fair_audit(dat$x, dat$g, methods = "inlp", k = 1))  # needs the rows
  # the audit refuses such a method by the class of the solver's condition, not its text
  e <- tryCatch(fair_audit(dat$x, dat$g, methods = c("standard", "rlace"), k = 1), error = identity)
  expect_s3_class(e, "fairproj_input_error")
  expect_match(conditionMessage(e), "^`methods` includes 'rlace'")
  err(fair_audit(dat$x, dat$g, outcome = dat$y[-1]))
  err(fair_audit(dat$x, dat$g, outcome = replace(dat$y, 2, NA)))
  err(fair_audit(dat$x, dat$g, outcome = factor(rep(c("p", "q", "r"), 70))))  # three classes
  err(fair_audit(dat$x, dat$g, outcome = dat$y, test_fraction = 1))
  err(fair_audit(dat$x, dat$g, robust = list(alpha = 0.1)))  # not an audited method
  err(fair_audit(dat$x, dat$g, minmax = 1))
  err(fair_audit(dat$x, dat$g, list(tol = 1)))
  err(fair_audit(dat$x, dat$g, k = 1, minmax = list(nope = 1)))  # fails at every k: the error is kept
  err(fair_audit(dat$x, dat$g, progress = "yes"))
  err(fair_audit(dat$x))
  err(fair_audit(group_moments(dat$x, dat$g), outcome = dat$y))
  err(fair_audit(group_moments(dat$x, dat$g), dat$g))
  a <- fair_audit(dat$x, dat$g, k = 1:2)
  err(summary(a, k = 3))
  err(tidy(a, "nope"))
  err(plot(a, "nope"))
  err(plot(a, "losses", methods = "robust"))
  expect_error(plot(a, "price", methods = "standard"), class = "fairproj_input_error")
})

test_that("the doors build one specification, whose class says whether the audit reads rows or moments", {
  dat <- audit_data()
  g <- fp_as_group(dat$g, nrow(dat$x), "group")
  args <- list(outcome = NULL, k = 1:2, methods = "mean", margs = list(), center = TRUE, scale. = TRUE,
               test_fraction = 0.3, seed = 1, progress = FALSE, level = 0.9, replicates = 20, blocks = 50,
               interval_k = NULL, call = NULL)
  s <- do.call(fp_audit_spec, c(list(list(x = dat$x, g = g)), modifyList(args, list(outcome = dat$y))))
  expect_s3_class(s, "fairproj_audit_rows")
  expect_identical(s$methods, c("standard", "minmax", "mean"))
  expect_identical(s$outcome$type, "binary")
  expect_identical(c(s$d, s$m), c(ncol(dat$x), 2L))
  expect_identical(s$intervals$replicates, 20L)
  gm <- group_moments(dat$x, dat$g)
  m <- do.call(fp_audit_spec, c(list(gm), args))
  expect_s3_class(m, "fairproj_audit_moments")
  expect_null(m$x)
  expect_identical(fp_audit_moments(m)$moments, gm)
  # the rows are read into the same moments
  mo <- fp_audit_moments(s)
  expect_equal(mo$moments$n, gm$n)
  expect_equal(unname(mo$moments$scatter[[1]]), unname(gm$scatter[[1]]), tolerance = 1e-10)
  expect_identical(length(mo$held), nrow(dat$x))
  # arguments are checked when the specification is built
  expect_error(do.call(fp_audit_spec, c(list(gm), modifyList(args, list(k = 0)))), class = "fairproj_input_error")
})

test_that("an audit whose d x d moments cannot fit in memory stops before reading them, naming x", {
  # 200,000 columns: one d x d matrix alone is 320 GB, more than any test machine has
  set.seed(5)
  x <- matrix(rnorm(6 * 200000), 6)
  g <- rep(c("a", "b"), 3)
  # (on the moments route: "auto" takes the row route there, fp_audit_route() below)
  e <- tryCatch(fair_audit(x, g, k = 1, level = NULL, route = "moments"), error = identity)
  expect_s3_class(e, "fairproj_memory_error")
  expect_s3_class(e, "fairproj_error")
  expect_match(conditionMessage(e), "^`x` has 200,000 columns")
  expect_match(conditionMessage(e), "route = \"rows\"", fixed = TRUE)
  # the limit is the option when set: the estimate grows with the groups and an outcome
  x <- matrix(rnorm(60 * 40), 60)
  g <- rep(c("a", "b"), 30)
  need <- fairproj:::fp_audit_memory_need(40, 2, TRUE, FALSE)
  expect_gt(fairproj:::fp_audit_memory_need(40, 3, TRUE, FALSE), need)
  expect_gt(fairproj:::fp_audit_memory_need(40, 2, TRUE, TRUE), need)
  expect_gt(fairproj:::fp_audit_memory_need(40, 2, TRUE, FALSE, 50L), need)
  old <- options(fairproj.audit_memory = need - 1)
  on.exit(options(old), add = TRUE)
  expect_error(fair_audit(x, g, k = 1, level = NULL), class = "fairproj_memory_error")
  # from moments given, their m matrices are already held: the audit needs less
  expect_s3_class(fair_audit(group_moments(x, g), k = 1, level = NULL), "fairproj_audit")
  options(fairproj.audit_memory = need)
  expect_s3_class(fair_audit(x, g, k = 1, level = NULL), "fairproj_audit")
})

test_that("the audit's route: the row route where the moments do not fit or give no intervals, else the moments", {
  route <- fairproj:::fp_audit_route
  iv <- fairproj:::fp_audit_check_intervals(0.9, 100, 50)
  meths <- c("standard", "minmax", "mean")
  set.seed(6)
  # 200,000 columns: the moments cannot fit, the row route needs a few MB
  wide <- list(x = matrix(rnorm(6 * 200000), 6), g = factor(rep(c("a", "b"), 3)))
  expect_identical(route("auto", wide, meths, list(), 1L, NULL, FALSE), "rows")
  expect_identical(route("auto", wide, meths, list(), 1L, iv, FALSE), "rows")
  expect_identical(route("moments", wide, meths, list(), 1L, NULL, FALSE), "moments")
  # a method the row route does not serve, or a variant of one, keeps the moments route
  expect_identical(route("auto", wide, c(meths, "pareto"), list(), 1L, NULL, FALSE), "moments")
  expect_identical(route("auto", wide, meths, list(minmax = list(solver = "mw")), 1L, NULL, FALSE), "moments")
  # 80 rows and 600 columns: the row route is cheaper; it is taken without intervals, while the
  # moments route gives them (its block moments fit their budget) it is kept
  mid <- list(x = matrix(rnorm(80 * 600), 80), g = factor(rep(c("a", "b"), 40)))
  expect_identical(route("auto", mid, meths, list(), 1:8, NULL, FALSE), "rows")
  expect_identical(route("auto", mid, meths, list(), 1:8, iv, FALSE), "moments")
  old <- options(fairproj.interval_memory = 2^20)  # no block moments fit: no intervals either way
  on.exit(options(old), add = TRUE)
  expect_identical(route("auto", mid, meths, list(), 1:8, iv, FALSE), "rows")
  # below 500 columns, and where the rows outnumber the columns by far, the moments route
  narrow <- list(x = matrix(rnorm(80 * 40), 80), g = mid$g)
  expect_identical(route("auto", narrow, meths, list(), 1:3, NULL, FALSE), "moments")
  tall <- list(x = matrix(rnorm(20000 * 500), 20000), g = factor(rep(c("a", "b"), 10000)))
  expect_identical(route("auto", tall, meths, list(), 1:8, NULL, FALSE), "moments")
  expect_identical(route("rows", narrow, meths, list(), 1:3, NULL, FALSE), "rows")
  # the row route's memory grows with the rows, not with d^2
  need <- fairproj:::fp_audit_memory_need_rows(c(3, 3), 200000, FALSE, 1L)
  expect_lt(need, 8 * 200000^2)
  expect_gt(fairproj:::fp_audit_memory_need_rows(c(3, 3), 200000, TRUE, 1L), need)
})

test_that("route is checked: a classed error naming it", {
  dat <- iv_data()
  expect_error(fair_audit(dat$x, dat$g, k = 1, route = "fast", level = NULL), class = "fairproj_input_error")
  e <- tryCatch(fair_audit(dat$x, dat$g, k = 1, methods = "pareto", route = "rows", level = NULL), error = identity)
  expect_s3_class(e, "fairproj_input_error")
  expect_match(conditionMessage(e), "^`route`")
  e <- tryCatch(fair_audit(dat$x, dat$g, k = 1, minmax = list(solver = "mw"), route = "rows", level = NULL), error = identity)
  expect_s3_class(e, "fairproj_input_error")
  expect_match(conditionMessage(e), "solver")
  e <- tryCatch(fair_audit(group_moments(dat$x, dat$g), k = 1, route = "rows", level = NULL), error = identity)
  expect_s3_class(e, "fairproj_input_error")
  expect_match(conditionMessage(e), "^`route`")
  # the row route's own memory check
  old <- options(fairproj.audit_memory = 1000)
  on.exit(options(old), add = TRUE)
  expect_error(fair_audit(dat$x, dat$g, k = 1, route = "rows", level = NULL), class = "fairproj_memory_error")
})

test_that("many groups: an audit estimated beyond the time limit is refused up front naming `replicates`", {
  # min-max over 400 groups costs seconds a fit: 100 replicates ran for minutes unannounced
  mg <- many_groups(24000, 400, 6, seed = 9)
  e <- expect_refused_up_front(fair_audit(mg$x, mg$g, k = 2, seed = 1, replicates = 100), "fair_audit() (101 fits")
  expect_match(conditionMessage(e), "^`replicates`")
  expect_lt(fairproj:::fp_minmax_cost(3), 1e-3)  # a few groups cost nothing
  # the estimate follows the method's arguments, and its defaults where none are given
  check <- function(methods, margs) {
    fairproj:::fp_audit_check_cost(methods, margs, 6, 400, 2, list(replicates = 100, k = 2))
  }
  expect_error(check("minmax", list()), class = "fairproj_cost_error")
  expect_error(check("minmax", list(minmax = list(solver = "exact"))), class = "fairproj_cost_error")
  expect_no_error(check("minmax", list(minmax = list(solver = "mw", lp = FALSE))))
  old <- options(fairproj.time_limit = 1e6)  # robust's default 20 restarts (~4 days over 101 fits) pass, 100 do not
  on.exit(options(old), add = TRUE)
  expect_no_error(check("robust", list()))
  expect_error(check("robust", list(robust = list(restarts = 100))), class = "fairproj_cost_error")
})
