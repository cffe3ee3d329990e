test_that("variance_explained is the share of test variance kept (prcomp check)", {
  dat <- make_groups(n = c(120, 100), d = 6)
  p <- prcomp(dat$x)
  V <- p$rotation[, 1:2]
  expect_equal(variance_explained(V, dat$x), sum(p$sdev[1:2]^2) / sum(p$sdev^2), tolerance = 1e-12)
  fit <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  expect_equal(variance_explained(fit, dat$x), sum(p$sdev[1:2]^2) / sum(p$sdev^2), tolerance = 1e-10)
  # a non-orthonormal basis of the same span gives the same value
  expect_equal(variance_explained(V %*% matrix(c(2, 1, 0, 3), 2), dat$x), variance_explained(V, dat$x),
               tolerance = 1e-10)
  expect_equal(variance_explained(diag(6), dat$x), 1)
  # scaling of a fit is applied to new data
  fs <- fair_pca(dat$x, dat$g, k = 2, scale. = TRUE, method = "standard")
  ps <- prcomp(dat$x, scale. = TRUE)
  expect_equal(variance_explained(fs, dat$x), sum(ps$sdev[1:2]^2) / 6, tolerance = 1e-10)
  expect_error(variance_explained(V, dat$x[, 1:3]), class = "fairproj_input_error")
  expect_error(variance_explained("a", dat$x), class = "fairproj_input_error")
})

test_that("variance_explained() is unit-free on data of any magnitude", {
  dat <- make_groups(n = c(120, 100), d = 6)
  fit <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  V <- fit$rotation
  for (s in c(1e200, 1e-200)) {
    expect_equal(variance_explained(fit, dat$x * s), variance_explained(fit, dat$x), tolerance = 1e-12)
    expect_equal(variance_explained(V, dat$x * s), variance_explained(V, dat$x), tolerance = 1e-12)
  }
})

test_that("mmd2 is the biased V-statistic with the Gaussian kernel (brute force)", {
  set.seed(3)
  s <- matrix(rnorm(40 * 3), 40, 3)
  g <- rep(c("a", "b"), c(15, 25))
  s[g == "b", 1] <- s[g == "b", 1] + 1
  sig <- 1.3
  k <- function(a, b) exp(-sum((a - b)^2) / (2 * sig^2))
  A <- s[g == "a", ]
  B <- s[g == "b", ]
  kk <- function(X, Y) mean(outer(seq_len(nrow(X)), seq_len(nrow(Y)), Vectorize(function(i, j) k(X[i, ], Y[j, ]))))
  brute <- kk(A, A) + kk(B, B) - 2 * kk(A, B)
  expect_equal(mmd2(s, g, sigma = sig), brute, tolerance = 1e-12)
  # the median heuristic: sqrt(median squared pairwise distance / 2)
  d2 <- as.matrix(dist(s))^2
  expect_equal(mmd_bandwidth(s), sqrt(median(d2[upper.tri(d2)]) / 2))
  # identical groups give 0; a shift increases it; three groups: largest pair
  expect_equal(mmd2(rbind(A, A), rep(1:2, each = 15), sigma = 1), 0, tolerance = 1e-14)
  g3 <- rep(c("a", "b", "c"), c(15, 15, 10))
  pair <- function(u, v) mmd2(s[g3 %in% c(u, v), ], g3[g3 %in% c(u, v)], sigma = sig)
  expect_equal(mmd2(s, g3, sigma = sig), max(pair("a", "b"), pair("a", "c"), pair("b", "c")))
  expect_error(mmd2(s, g, sigma = -1), class = "fairproj_input_error")
  expect_error(mmd2(s, rep("a", 40)), class = "fairproj_input_error")
})

test_that("fairness_gaps computes accuracy, DP and EO gaps by hand", {
  pred <- c(1, 1, 0, 0, 1, 0, 0, 0)
  y <- c(1, 0, 1, 0, 1, 1, 0, 0)
  g <- c("a", "a", "a", "a", "b", "b", "b", "b")
  r <- fairness_gaps(pred, y, g)
  expect_equal(r[["accuracy"]], mean(pred == y))
  expect_equal(r[["dp_gap"]], abs(2 / 4 - 1 / 4))
  expect_equal(r[["eo_gap"]], abs(1 / 2 - 1 / 2))
  expect_equal(fairness_gaps(factor(c("no", "yes")), c(FALSE, TRUE), 1:2)[["accuracy"]], 1)
  expect_error(fairness_gaps(c(2, 1), c(0, 1), 1:2), class = "fairproj_input_error")
  # an empty or non-vector `y` is named, not R's unclassed error (nor `pred`)
  g <- iris$Species
  for (bad in list(character(0), numeric(0), logical(0), factor(character(0)), function(x) x, list(0, 1))) {
    expect_error(fairness_gaps(rep(0:1, 75), bad, g), "^`y`", class = "fairproj_input_error")
    expect_error(fairness_gaps(bad, rep(0:1, 75), g), "^`pred`", class = "fairproj_input_error")
  }
})

test_that("fairness_gaps() reads labelled predictions in the labels of y, whatever their level order", {
  y <- factor(c("no", "yes", "yes", "no", "yes", "no"), levels = c("no", "yes"))
  g <- c("a", "a", "a", "b", "b", "b")
  pred01 <- c(0, 1, 0, 0, 1, 1)
  ref <- fairness_gaps(pred01, y, g)
  lab <- c("no", "yes")[pred01 + 1]
  expect_equal(fairness_gaps(factor(lab, levels = c("yes", "no")), y, g), ref)
  expect_equal(fairness_gaps(lab, y, g), ref)
  # one predicted label is a class of y, not an ambiguous value
  expect_warning(one <- fairness_gaps(rep("yes", 6), y, g), class = "fairproj_single_class_warning")
  expect_equal(one[["accuracy"]], 0.5)
})

test_that("downstream_metrics: majority class on an uninformative representation (Delta_DP = 0)", {
  skip_if_not_installed("e1071")
  skip_if_not_installed("nnet")
  set.seed(4)
  n <- 200
  g <- rep(0:1, each = 100)
  y <- c(rep(1, 50), rep(0, 150))
  s <- matrix(rnorm(n * 2, sd = 1e-3), n, 2)  # no usable signal
  r <- suppressWarnings(downstream_metrics(s, y, g, classifier = c("logistic", "svm_linear")),
                        classes = "fairproj_single_class_warning")
  expect_equal(r$accuracy, rep(0.75, 2))
  expect_equal(r$dp_gap, c(0, 0))
  # an informative representation: separable classes give accuracy 1 and the groups' base-rate gap
  s2 <- cbind(y + rnorm(n, sd = 0.05), rnorm(n))
  r2 <- downstream_metrics(s2, y, g)
  expect_equal(r2$classifier, c("logistic", "svm_linear", "svm_rbf", "mlp"))
  expect_true(all(r2$accuracy == 1))
  expect_equal(r2$dp_gap, rep(0.5, 4))
  expect_equal(r2$eo_gap, rep(0, 4))
  # held-out evaluation
  # (the held-out rows are all negatives of one group: the classifier predicts one class there,
  # and the gaps are over one group; both are said)
  expect_warning(expect_warning(
    r3 <- downstream_metrics(s2[1:150, ], y[1:150], g[1:150], "logistic", newscores = s2[151:200, ],
                             newy = y[151:200], newgroup = g[151:200]),
    class = "fairproj_single_class_warning"), class = "fairproj_single_group_warning")
  expect_equal(r3$n, 50)
  expect_error(downstream_metrics(s2, y, g, "tree"), class = "fairproj_input_error")
  expect_error(downstream_metrics(s2, y, g, "logistic", newscores = s2), class = "fairproj_input_error")
})

test_that("logistic_l2: the penalised optimum (gradient zero), glm without penalty", {
  set.seed(5)
  n <- 300
  s <- matrix(rnorm(n * 3), n, 3)
  y <- rbinom(n, 1, plogis(s %*% c(1, -1, 0.5) - 1.5))
  b0 <- fairproj:::fp_logistic_l2(s, y, reg = 0)
  expect_equal(b0, unname(coef(glm(y ~ s, family = binomial()))), tolerance = 1e-5)
  b <- fairproj:::fp_logistic_l2(s, y, reg = 0.1)
  pr <- plogis(cbind(1, s) %*% b)
  grad <- drop(crossprod(cbind(1, s), pr - y)) / n + 2 * 0.1 * c(0, b[-1])
  expect_lt(max(abs(grad)), 1e-6)
  expect_lt(sum(b[-1]^2), sum(b0[-1]^2))
  # a huge penalty leaves the intercept only: the majority class, Delta_DP = 0
  expect_warning(r <- downstream_metrics(s, y, rep(1:2, 150), "logistic_l2", control = list(logistic_l2 = list(reg = 1e6))),
                 class = "fairproj_single_class_warning")
  expect_equal(r$accuracy, max(mean(y), 1 - mean(y)))
  expect_equal(r$dp_gap, 0)
})

test_that("a classifier predicting a single class is flagged", {
  expect_warning(r <- fairness_gaps(c(1, 1, 1, 1), c(1, 0, 0, 1), c("a", "a", "b", "b")),
                 class = "fairproj_single_class_warning")
  expect_equal(r[["dp_gap"]], 0)
  expect_no_warning(fairness_gaps(c(1, 0, 1, 1), c(1, 0, 0, 1), c("a", "a", "b", "b")))
  set.seed(2)
  s <- matrix(rnorm(200), 100, 2)
  y <- rep(c(0, 0, 0, 1), 25)   # unrelated to the scores: logistic regression predicts 0 for all
  expect_warning(downstream_metrics(s, y, rep(c("a", "b"), 50), classifier = "logistic"),
                 "classifier \"logistic\" predicts one class", class = "fairproj_single_class_warning")
})

test_that("mmd_bandwidth(max_rows) is a count of rows: a whole number >= 2 or Inf", {
  set.seed(3)
  s <- matrix(rnorm(40), 20, 2)
  for (bad in list(2.5, 19.5, -Inf, NA, "10", c(5, 6))) {
    expect_error(mmd_bandwidth(s, max_rows = bad), "^`max_rows` must be a single whole number",
                 class = "fairproj_input_error")
  }
  expect_error(mmd_bandwidth(s, max_rows = 1), "^`max_rows` must be a whole number >= 2", class = "fairproj_input_error")
  expect_identical(mmd_bandwidth(s, max_rows = Inf), mmd_bandwidth(s))
  expect_identical(mmd_bandwidth(s, max_rows = 20), mmd_bandwidth(s))
})

test_that("mmd2 warns of a one-row group (defined, but its within-group kernel mean is 1) as group_errors does", {
  set.seed(4)
  s <- matrix(rnorm(20 * 2), 20, 2)
  one <- rep(c("a", "b"), c(19, 1))
  expect_warning(mmd2(s, one, sigma = 1), "'b' \\(1\\)", class = "fairproj_small_group_warning")
  v <- suppressWarnings(mmd2(s, one, sigma = 1))
  # the V-statistic as stated: K(a, a) = 1 within the one-row group
  k <- function(X, Y) mean(exp(-as.matrix(dist(rbind(X, Y)))[seq_len(nrow(X)), nrow(X) + seq_len(nrow(Y))]^2 / 2))
  A <- s[1:19, ]
  B <- s[20, , drop = FALSE]
  expect_equal(v, k(A, A) + 1 - 2 * k(A, B), tolerance = 1e-12)
  # two rows per group: no warning, as for group_errors()
  expect_no_warning(mmd2(s, rep(c("a", "b"), c(18, 2)), sigma = 1))
  expect_warning(mmd2(s, rep(c("a", "b", "c"), c(17, 2, 1)), sigma = 1), "'c' \\(1\\)",
                 class = "fairproj_small_group_warning")
})

test_that("mmd2 and mmd_bandwidth do not move under a common offset or any finite scale", {
  set.seed(3)
  s <- matrix(rnorm(200), 100, 2)
  g <- rep(c("a", "b"), 50)
  ref <- mmd2(s, g, sigma = 1)
  # |a|^2 + |b|^2 - 2 ab lost every digit at an offset of 1e8 (0.0332 for 0.0196)
  for (o in c(1e6, 1e8)) expect_equal(mmd2(s + o, g, sigma = 1), ref, tolerance = 1e-6)
  # a bandwidth far below every distance: only each row's own kernel value 1 is left
  expect_equal(mmd2(s, g, sigma = 1e-300), 1 / 50 + 1 / 50)
  expect_equal(mmd2(s, g, sigma = 1e300), 0)
  for (f in c(1e-200, 1e200)) {
    expect_equal(mmd_bandwidth(s * f) / f, mmd_bandwidth(s), tolerance = 1e-12)
    expect_equal(mmd2(s * f, g), mmd2(s, g), tolerance = 1e-10)
  }
})

test_that("fairness_gaps reads a one-valued prediction from its value, and refuses what it cannot read", {
  grp <- c("a", "a", "b", "b")
  y <- c(1, 1, 1, 0)
  expect_warning(out <- fairness_gaps(pred = c("1", "1", "1", "1"), y = y, group = grp), class = "fairproj_single_class_warning")
  expect_equal(out[["accuracy"]], 0.75)
  expect_warning(out2 <- fairness_gaps(pred = rep(TRUE, 4), y = factor(c("1", "1", "1", "0")), group = grp),
                 class = "fairproj_single_class_warning")
  expect_equal(out2[["accuracy"]], 0.75)
  expect_equal(suppressWarnings(fairness_gaps(pred = rep("true", 4), y = y, group = grp))[["accuracy"]], 0.75)
  expect_error(fairness_gaps(pred = rep("yes", 4), y = y, group = grp), "^`pred` has the single value 'yes'",
               class = "fairproj_input_error")
  expect_error(fairness_gaps(pred = c(1, 1, 1, 1), y = factor(rep("no", 4)), group = grp), "^`y` has the single value 'no'",
               class = "fairproj_input_error")
  expect_error(fairness_gaps(pred = list(1, 0, 1, 1), y = y, group = grp), "^`pred` must be binary",
               class = "fairproj_input_error")
  # a factor that declares both levels is read by its levels, used or not
  expect_equal(suppressWarnings(fairness_gaps(pred = factor(rep("yes", 4), levels = c("no", "yes")), y = y,
                                              group = grp))[["accuracy"]], 0.75)
})
