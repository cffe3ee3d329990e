# print(), summary(), tidy() and glance() of an audit (R/audit-print.R), with its plots
# (R/audit-plot.R).

test_that("plots, tidy, print and summary read the audit's tables", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:3, outcome = dat$y, seed = 1)
  expect_identical(fairproj:::fp_plot_types_of(a), fairproj:::fp_plot_types$fairproj_audit)
  pr <- tidy(a, "plot", type = "price")
  t <- a$table[a$table$method != "standard", ]
  expect_equal(pr$value, 100 * t$price)
  expect_setequal(as.character(pr$method), c("min-max", "mean matching"))
  lo <- tidy(a, "plot", type = "losses", methods = "minmax")
  expect_setequal(as.character(lo$fit), c("min-max", "standard PCA"))
  g <- a$groups_table[a$groups_table$method == "minmax", ]
  expect_equal(lo$value[lo$fit == "min-max"], g$loss[order(g$group, g$k)])
  spec <- attr(fairproj:::fp_plot_data(a, "losses"), "fp_spec")
  expect_equal(unname(spec$scales$linetype$values[c("min-max", "standard PCA")]), c(1L, 2L))
  expect_identical(unname(spec$scales$colour$values), fairproj:::fp_palette(2))
  ds <- tidy(a, "plot", type = "downstream")
  expect_equal(nrow(ds), 2L * nrow(a$downstream))
  expect_equal(ds$value[ds$gap == "demographic parity"], 100 * a$downstream$dp_gap)
  ac <- tidy(a, "plot", type = "accuracy")
  expect_equal(ac$value, 100 * a$downstream$accuracy)
  expect_equal(nrow(tidy(a)), nrow(a$table))
  expect_equal(nrow(tidy(a, "groups")), nrow(a$groups_table))
  expect_equal(nrow(tidy(a, "downstream")), nrow(a$downstream))
  pdf(NULL)
  on.exit(grDevices::dev.off())
  for (type in fairproj:::fp_plot_types$fairproj_audit) {
    expect_s3_class(plot(a, type), "fairproj_plot_data")
    if (requireNamespace("ggplot2", quietly = TRUE)) expect_s3_class(ggplot2::autoplot(a, type), "ggplot")
  }
  expect_error(plot(a, "price", kmax = 2), class = "fairproj_input_error")
  s <- summary(a, k = 2)
  expect_identical(s$k, 2L)
  expect_equal(nrow(s$groups_at_k), 3L * 2L)
  expect_output(print(s), "Price of fairness by k")
  expect_output(print(a), "At k = ")
})

test_that("print() says how the columns were scaled, gives the fair_pca() call of the fits and the rows dropped", {
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:2, replicates = 0)
  out <- gsub("\\s+", " ", paste(capture.output(print(a)), collapse = " "))
  expect_true(grepl("scaled to unit variance (scale. = TRUE, fair_audit()'s default)", out, fixed = TRUE))
  expect_true(grepl("fair_pca(x, group, k = <k>, method = <method>, scale. = TRUE)", out, fixed = TRUE))
  # that call gives the audit's fits
  f <- fair_pca(dat$x, dat$g, k = 2, method = "minmax", scale. = TRUE)
  expect_equal(a$fits$minmax[["2"]]$group_stats$loss, f$group_stats$loss, tolerance = 1e-8)
  b <- fair_audit(dat$x, dat$g, k = 1:2, replicates = 0, scale. = FALSE)
  out <- gsub("\\s+", " ", paste(capture.output(print(b)), collapse = " "))
  expect_true(grepl("in their own units (scale. = FALSE)", out, fixed = TRUE))
  expect_true(grepl("method = <method>, scale. = FALSE)", out, fixed = TRUE))
  expect_false(grepl("rows dropped", out, fixed = TRUE))
  # rows dropped before the audit: with missing values (formula interface) and a missing group
  b$n_dropped <- 2L
  b$dropped <- 1234L
  out <- paste(capture.output(print(b)), collapse = "\n")
  expect_true(grepl("2 rows dropped (missing values); 1,234 rows dropped (missing group)", out, fixed = TRUE))
})

test_that("the legend says a reason shared by several groups once, naming them all", {
  why <- c("too few rows (group a: 4 directions, 50 rows): bias",
           "too few rows (group b: 4 directions, 50 rows): bias",
           "too few rows (group c: 4 directions, 70 rows): bias",
           "heavy tails in group a (tail index 1.5)")
  out <- fairproj:::fp_merge_group_reasons(why)
  expect_identical(out, c("too few rows (groups a, b: 4 directions, 50 rows): bias",
                          "too few rows (group c: 4 directions, 70 rows): bias",
                          "heavy tails in group a (tail index 1.5)"))
  expect_identical(fairproj:::fp_merge_group_reasons(why[4]), why[4])
  a <- fair_audit(iris[, 1:4], group = iris$Species, k = 2, methods = c("standard", "minmax"),
                  seed = 1, replicates = 20)
  txt <- paste(capture.output(print(a)), collapse = " ")
  # each group is named once in the legend, not once per repeated reason
  expect_identical(lengths(regmatches(txt, gregexpr("too few rows for the directions", txt))), 1L)
  # summary() gives the same reasons, each distinct one once, for the report to state
  r <- summary(a)$reasons
  expect_type(r, "character")
  expect_gt(length(r), 0L)
  expect_identical(r, unique(r))
  expect_true(all(vapply(r, function(w) grepl(w, gsub("\\s+", " ", txt), fixed = TRUE), logical(1))))
  ok <- fair_audit(iris[, 1:4], group = iris$Species, k = 1, methods = "standard", replicates = 0)
  expect_identical(summary(ok)$reasons, character(0))
})

test_that("the intervals' line names the groups resampled in fewer blocks than the others", {
  expect_identical(fairproj:::fp_audit_blocks_text(c(50, 50, 50), c("a", "b", "c")), " of 50 blocks per group")
  expect_identical(fairproj:::fp_audit_blocks_text(c(50, 50, 1), c("a", "b", "z")), " of 50 blocks per group (z: 1)")
  # no count shared by most groups: each group's
  expect_identical(fairproj:::fp_audit_blocks_text(c(45, 22, 40), c("a", "b", "c")), "; blocks per group: a 45, b 22, c 40")
  expect_identical(fairproj:::fp_audit_blocks_text(c(50, 1), c("a", "z")), "; blocks per group: a 50, z 1")
  set.seed(3)
  x <- matrix(rnorm(401 * 4), 401)
  g <- c(rep(c("a", "b"), each = 200), "z")
  a <- suppressWarnings(fair_audit(x, g, k = 1, methods = "standard", replicates = 20, seed = 1))
  txt <- paste(capture.output(print(a)), collapse = " ")
  expect_match(txt, "20 replicates of 50 blocks per group (z: 1)", fixed = TRUE)
})

test_that("augment() of an audit is a classed error saying to augment a fit", {
  dat <- make_groups(n = c(40, 30), d = 4)
  a <- fair_audit(dat$x, dat$g, k = 1:2, replicates = 0)
  # generics' "no applicable method" before
  expect_error(augment(a), "^`x` is an audit.*augment\\(fit, data\\)", class = "fairproj_input_error")
  expect_error(augment(a, data = dat$x), "^`x`", class = "fairproj_input_error")
})
