test_that("per-group accuracy, TPR and DEO are computed from their definitions", {
  y <- c(1, 1, 0, 0, 1, 1, 1, 0)
  p <- c(1, 0, 0, 1, 1, 1, 0, 0)
  g <- factor(c("a", "a", "a", "a", "b", "b", "b", "b"))
  r <- fairproj:::fp_downstream_metrics(p, y, g)
  expect_equal(r$table$accuracy, c(2 / 4, 3 / 4, 5 / 8))
  expect_equal(r$table$tpr, c(1 / 2, 2 / 3, 3 / 5))
  expect_equal(r$deo, 2 / 3 - 1 / 2)
  expect_equal(r$table$n, c(4, 4, 8))
  expect_error(fairproj:::fp_downstream_metrics(p, y[-1], g), class = "fairproj_input_error")
  expect_error(fairproj:::fp_downstream_metrics(p + 1, y, g), class = "fairproj_input_error")
})

test_that("the logistic-regression helper matches glm", {
  set.seed(1)
  x <- matrix(rnorm(400), 200, 2)
  y <- as.numeric(x[, 1] - x[, 2] + rnorm(200) > 0)
  xt <- matrix(rnorm(100), 50, 2)
  fit <- glm(y ~ x, family = binomial())
  ref <- as.numeric(cbind(1, xt) %*% coef(fit) > 0)
  expect_equal(fairproj:::fp_logistic_predict(x, y, xt), ref)
  # the same classifier and DEO as the shared downstream_metrics()
  g <- rep(c("a", "b"), 25)
  yt <- as.numeric(xt[, 1] - xt[, 2] > 0)
  dm <- downstream_metrics(x, y, rep(c("a", "b"), 100), classifier = "logistic", newscores = xt, newy = yt,
                           newgroup = g)
  ours <- fairproj:::fp_downstream_metrics(ref, yt, g)
  expect_equal(ours$deo, dm$eo_gap)
  expect_equal(ours$table$accuracy[3], dm$accuracy)
  # held-out scores without their labels and groups: the error says what to add
  expect_error(downstream_metrics(x, y, rep(c("a", "b"), 100), classifier = "logistic", newscores = xt),
               "`newscores` must be given together with `newy` and `newgroup`", fixed = TRUE,
               class = "fairproj_input_error")
})

test_that("the two-hidden-layer MLP fits a non-linear rule, stops by its rule and is seeded", {
  skip_if_not_installed("RSNNS")
  set.seed(1)
  x <- matrix(rnorm(600), 300, 2)
  y <- as.numeric(rowSums(x^2) > 1.4)  # a circle: no linear rule does well
  g <- rep(c("a", "b"), 150)
  # trained for 500 epochs (no early stop), the network learns the circle
  set.seed(2)
  p500 <- fairproj:::fp_mlp2(x, y, x, max_iter = 500, n_iter_no_change = 1e5)
  expect_equal(attr(p500, "epochs"), 500L)
  lin <- downstream_metrics(x, y, g, "logistic")$accuracy
  expect_gt(mean(p500 == y), 0.85)
  expect_gt(mean(p500 == y), lin + 0.15)
  # with the default rule it stops early
  set.seed(2)
  p <- suppressWarnings(fairproj:::fp_mlp2(x, y, x))
  expect_lt(attr(p, "epochs"), 2000)
  set.seed(2)
  expect_identical(fairproj:::fp_mlp2(x, y, x), p)
  # max_iter caps the epochs
  expect_equal(attr(fairproj:::fp_mlp2(x, y, x, max_iter = 5), "epochs"), 5L)
  # through downstream_metrics
  set.seed(2)
  dm <- suppressWarnings(downstream_metrics(x, y, g, "mlp2"))
  expect_equal(dm$accuracy, mean(p == y))
  expect_error(fairproj:::fp_mlp2(x, y, x, size = c(10, 0)), class = "fairproj_input_error")
  expect_error(fairproj:::fp_mlp2(x, y, x, tol = -1), class = "fairproj_input_error")
  expect_error(downstream_metrics(x, y, g, "mlp2", control = list(mlp2 = list(max_iter = 0))),
               class = "fairproj_input_error")
})

test_that("each `control` entry is checked against the arguments of its classifier", {
  set.seed(3)
  s <- matrix(rnorm(200), 100, 2)
  g <- rep(c("a", "b"), 50)
  y <- rep(0:1, each = 50)
  dm <- function(cl, control) downstream_metrics(s, y, g, cl, control = control)
  expect_error(dm("logistic_l2", list(logistic_l2 = list(reg = "a"))), "`control$logistic_l2$reg`",
               fixed = TRUE, class = "fairproj_input_error")
  expect_error(dm("logistic_l2", list(logistic_l2 = list(reg = -1))), "`control$logistic_l2$reg`",
               fixed = TRUE, class = "fairproj_input_error")
  expect_error(dm("logistic_l2", list(logistic_l2 = list(maxit = 0.5))), "`control$logistic_l2$maxit`",
               fixed = TRUE, class = "fairproj_input_error")
  expect_error(dm("logistic", list(logistic = list(reg = 1))), "`control` entry logistic .*takes none",
               class = "fairproj_input_error")
  expect_error(dm("mlp", list(mlp = list(size = -1))), "`control$mlp$size`", fixed = TRUE,
               class = "fairproj_input_error")
  expect_error(dm("mlp2", list(mlp2 = list(size = c(10, 0)))), "`control$mlp2$size`", fixed = TRUE,
               class = "fairproj_input_error")
  expect_error(dm("mlp2", list(mlp2 = list(seed = 1))), "`control` entry mlp2 .*seed",
               class = "fairproj_input_error")
  skip_if_not_installed("e1071")
  expect_error(dm("svm_rbf", list(svm_rbf = list(gamma = -1))), "`control$svm_rbf$gamma`", fixed = TRUE,
               class = "fairproj_input_error")
  expect_error(dm("svm_linear", list(svm_linear = list(cost = Inf))), "`control$svm_linear$cost`", fixed = TRUE,
               class = "fairproj_input_error")
  expect_error(dm("svm_rbf", list(svm_rbf = list(foo = 1))), "`control` entry svm_rbf .*foo .*gamma",
               class = "fairproj_input_error")
  expect_error(dm("svm_rbf", list(svm_rbf = 0.1)), "`control` entry svm_rbf must be a named list",
               class = "fairproj_input_error")
  expect_error(dm("svm_rbf", list(svm = list(gamma = 1))), "`control` must be a named list",
               class = "fairproj_input_error")
  # values in range pass, and an entry for a classifier not asked for is checked all the same
  expect_equal(nrow(dm("svm_rbf", list(svm_rbf = list(gamma = 0.5, cost = 2), logistic_l2 = list(reg = 0)))), 1L)
  expect_error(dm("svm_rbf", list(logistic_l2 = list(reg = -1))), "`control$logistic_l2$reg`", fixed = TRUE,
               class = "fairproj_input_error")
})

test_that("a classifier's own failure on the scores is a classed error naming `scores`", {
  skip_if_not_installed("e1071")
  set.seed(3)
  s <- matrix(rnorm(200), 100, 2)
  g <- rep(c("a", "b"), 50)
  y <- rep(0:1, each = 50)
  expect_error(downstream_metrics(s * 1e300, y, g, "svm_rbf"), "`scores` cannot be fitted by classifier \"svm_rbf\"",
               fixed = TRUE, class = "fairproj_input_error")
})

test_that("the one-hidden-layer MLP takes as many weights as its size needs", {
  skip_if_not_installed("nnet")
  set.seed(3)
  s <- matrix(rnorm(200), 100, 2)
  y <- as.numeric(s[, 1] > 0)
  set.seed(1)
  dm <- downstream_metrics(s, y, rep(c("a", "b"), 50), "mlp", control = list(mlp = list(size = 500, maxit = 5)))
  expect_equal(dm$n, 100L)
})
