
test_that("fair_css, tune_fair_pca and pareto_front have formula interfaces", {
  set.seed(4)
  n <- 90
  df <- data.frame(a = rnorm(n), b = rnorm(n), c = rnorm(n), d = rnorm(n),
                   f = factor(sample(c("u", "v"), n, TRUE)), g = rep(c("x", "y", "y"), n / 3))
  cs <- fair_css(~ ., data = df, group = g, k = 2)
  mm <- model.matrix(~ . - 1, df[setdiff(names(df), "g")])
  cs_ref <- fair_css(mm, df$g, k = 2)
  expect_equal(cs$columns, cs_ref$columns)
  expect_equal(predict(cs, df[1:3, ]), mm[1:3, cs$columns, drop = FALSE], ignore_attr = TRUE)
  # 20 robust steps may end above the best iterate (a warning); the interface is tested here
  tn <- suppressWarnings(tune_fair_pca(~ a + b + c + d, data = df, group = g, k = 2, method = "robust",
                                       grid = list(alpha = 0.1), iterations = 20, restarts = 1, seed = 1),
                         classes = c("fairproj_tune_warning", "fairproj_convergence_warning"))
  expect_s3_class(tn, "fairproj_tune")
  expect_equal(dim(predict(tn$model, df[1:2, ])), c(2L, 2L))
  pf <- suppressWarnings(pareto_front(~ a + b + c + d, data = df, group = g, k = 2, restarts = 1, iterations = 20),
                         classes = "fairproj_convergence_warning")
  expect_s3_class(pf, "fairproj_pareto_front")
  expect_equal(dim(predict(pf$fits[[1]], df[1:2, ])), c(2L, 2L))
})
