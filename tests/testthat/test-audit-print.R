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
  expect_setequal(as.character(pr$method), c("minmax", "mean"))
  lo <- tidy(a, "plot", type = "losses", methods = "minmax")
  expect_setequal(as.character(lo$fit), c("minmax", "standard PCA"))
  g <- a$groups_table[a$groups_table$method == "minmax", ]
  expect_equal(lo$value[lo$fit == "minmax"], g$loss[order(g$group, g$k)])
  spec <- attr(fairproj:::fp_plot_data(a, "losses"), "fp_spec")
  expect_equal(unname(spec$scales$linetype$values[c("minmax", "standard PCA")]), c(1L, 2L))
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
