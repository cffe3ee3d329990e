# The plots of an audit (R/audit-plot.R): their data, and one label per method.

test_that("every audit plot labels a method as the report and print do", {
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:3, outcome = dat$y, seed = 1)
  fair <- setdiff(a$methods, "standard")
  expect_identical(fp_audit_label(c("standard", "minmax", "mean", "other")),
                   c("standard PCA", "min-max", "mean matching", "other"))
  expect_identical(levels(tidy(a, "plot", type = "price")$method), fp_audit_label(fair))
  for (ty in c("losses", "errors")) {
    expect_setequal(levels(tidy(a, "plot", type = ty)$fit), fp_audit_label(a$methods))
  }
  for (ty in c("downstream", "accuracy")) {
    expect_setequal(levels(tidy(a, "plot", type = ty)$method), fp_audit_label(a$methods))
  }
})
