
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
  tn <- tune_fair_pca(~ a + b + c + d, data = df, group = g, k = 2, method = "robust",
                      grid = list(alpha = 0.1), iterations = 20, restarts = 1, seed = 1, iterate = "best")
  expect_s3_class(tn, "fairproj_tune")
  expect_equal(dim(predict(tn$model, df[1:2, ])), c(2L, 2L))
  pf <- suppressWarnings(pareto_front(~ a + b + c + d, data = df, group = g, k = 2, restarts = 1, iterations = 20),
                         classes = "fairproj_convergence_warning")
  expect_s3_class(pf, "fairproj_pareto_front")
  expect_equal(dim(predict(pf$fits[[1]], df[1:2, ])), c(2L, 2L))
})

test_that("the group column may be removed from a formula (prcomp's `~ . - group`) but not used", {
  fit <- fair_pca(~ . - Species, data = iris, group = Species, k = 2)
  ref <- fair_pca(~ ., data = iris, group = Species, k = 2)
  expect_equal(fit$rotation, ref$rotation)
  expect_identical(rownames(fit$rotation), names(iris)[1:4])
  fit2 <- fair_pca(~ . - Species - Petal.Width, data = iris, group = Species, k = 2)
  expect_identical(rownames(fit2$rotation), names(iris)[1:3])
  expect_error(fair_pca(~ Sepal.Length + Species, data = iris, group = Species, k = 1),
               class = "fairproj_input_error")
  expect_error(fair_pca(~ Sepal.Length:Species + Sepal.Width, data = iris, group = Species, k = 1),
               class = "fairproj_input_error")
  expect_error(fair_pca(~ . - Species - Sepal.Length - Sepal.Width - Petal.Length - Petal.Width,
                        data = iris, group = Species, k = 1), class = "fairproj_input_error")
  # predict() rebuilds the features of new data from the same terms
  expect_equal(predict(fit, iris[1:5, ]), predict(ref, iris[1:5, ]))
})

test_that("a misspelt group column is a classed error naming `group` and the columns of the data", {
  d <- data.frame(age = c(1, 4, 2, 8, 5, 7, 3, 6), bili = c(2, 1, 4, 3, 6, 5, 8, 7), sex = rep(c("f", "m"), 4))
  # every formula door, the data.frame doors and group_errors()
  calls <- list(
    quote(fair_pca(~ ., data = d, group = gender, k = 1)),
    quote(fair_css(~ ., data = d, group = gender, k = 1)),
    quote(fair_kpca(~ ., data = d, group = gender, k = 1)),
    quote(fair_audit(~ ., data = d, group = gender)),
    quote(tune_fair_pca(~ ., data = d, group = gender, k = 1)),
    quote(pareto_front(~ ., data = d, group = gender, k = 1)),
    quote(fair_pca(d, group = gender, k = 1)),
    quote(fair_css(d, group = gender, k = 1)),
    quote(fair_kpca(d, group = gender, k = 1)),
    quote(fair_audit(d, group = gender)),
    quote(tune_fair_pca(d, group = gender, k = 1)),
    quote(pareto_front(d, group = gender, k = 1)),
    quote(group_moments(d, gender)),
    quote(group_errors(fair_pca(d, "sex", k = 1), d, group = gender))
  )
  for (cl in calls) {
    expect_error(eval(cl), class = "fairproj_input_error", regexp = "^`group` .*gender.*age, bili, sex")
  }
  # a misspelt outcome of fair_audit() too
  expect_error(fair_audit(~ ., data = d, group = sex, outcome = outcom), class = "fairproj_input_error",
               regexp = "^`outcome` .*outcom.*age, bili")
  # a variable of the caller is still a group, and a bare column name of a data.frame `x` says to quote it
  gender <- d$sex
  expect_s3_class(fair_pca(~ age + bili, data = d, group = gender, k = 1, method = "standard"), "fair_pca")
  expect_snapshot(error = TRUE, {
    fair_pca(~ ., data = d, group = Sex, k = 1)
    fair_pca(~ ., data = d, group = "gendr", k = 1)
    fair_pca(~ ., data = d, group = paste(sex, gendr), k = 1)
    fair_pca(d, group = sex, k = 1)
  })
})

test_that("a two-sided formula says that the group goes in `group =`", {
  d <- data.frame(age = c(1, 4, 2, 8, 5, 7, 3, 6), bili = c(2, 1, 4, 3, 6, 5, 8, 7), sex = rep(c("f", "m"), 4))
  for (door in list(fair_pca, fair_css, fair_kpca, tune_fair_pca, pareto_front)) {
    expect_error(door(sex ~ ., data = d, k = 1), class = "fairproj_input_error", regexp = "group = sex")
    expect_error(door(sex ~ age, data = d, group = sex, k = 1), class = "fairproj_input_error", regexp = "`~ age`")
  }
  expect_error(fair_audit(sex ~ ., data = d), class = "fairproj_input_error", regexp = "group = sex")
  expect_snapshot(error = TRUE, {
    fair_pca(sex ~ ., data = d, k = 1)
    fair_pca(log(sex) ~ age + bili, data = d, group = sex, k = 1)
    fair_audit(y ~ ., data = d, group = sex)
  })
})

test_that("every formula door takes `subset` from the data, then from the caller's frame, and needs `group`", {
  set.seed(7)
  df <- data.frame(a = rnorm(40), b = rnorm(40), c = rnorm(40), g = rep(c("x", "y"), 20))
  keep <- df$a > -1  # a variable of the caller's frame, combined with a column of the data
  rows <- keep & df$b < 1
  xs <- as.matrix(df[rows, 1:3])
  gs <- df$g[rows]
  pca <- fair_pca(~ a + b + c, data = df, group = g, k = 2, method = "standard", subset = keep & b < 1)
  expect_equal(nobs(pca), sum(rows))
  expect_equal(pca$rotation, fair_pca(xs, gs, k = 2, method = "standard")$rotation, ignore_attr = TRUE)
  css <- fair_css(~ a + b + c, data = df, group = g, k = 2, subset = keep & b < 1)
  expect_identical(css$columns, fair_css(xs, gs, k = 2)$columns)
  kp <- fair_kpca(~ a + b + c, data = df, group = g, k = 2, subset = keep & b < 1)
  expect_equal(kp$x, fair_kpca(xs, gs, k = 2)$x, ignore_attr = TRUE)
  for (door in list(fair_pca, fair_css, fair_kpca, tune_fair_pca, pareto_front)) {
    expect_error(door(~ a + b, data = df, k = 1), class = "fairproj_input_error")
  }
})
