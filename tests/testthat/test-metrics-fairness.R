test_that("the KS distance between groups is computed over all thresholds", {
  ks <- asNamespace("fairproj")$fp_ks_groups
  expect_equal(ks(c(1, 2, 3, 4), c(0, 0, 1, 1)), 1)
  expect_equal(ks(c(1, 2, 1, 2), c(0, 0, 1, 1)), 0)
  expect_equal(ks(c(1, 3, 2, 4), c(0, 0, 1, 1)), 0.5)
})

# two groups of n / 2 rows whose only difference is a shift in column c, beside two wider columns
shifted_groups <- function(n) {
  set.seed(31)
  g <- rep(0:1, each = n / 2)
  list(g = g, x = cbind(a = rnorm(n, sd = 5), b = rnorm(n, sd = 4), c = 0.3 * rnorm(n) + 2 * g))
}

test_that("delta_f_lin is near 1 when the projection keeps the group signal and small when not", {
  skip_if_not_installed("ECOSolveR")
  n <- 300
  sg <- shifted_groups(n)
  g <- sg$g
  x <- sg$x
  keep <- fair_pca(x, g, k = 3, method = "standard")   # keeps everything, including the group shift in c
  drop <- fair_pca(x, g, k = 2, method = "standard")   # the top-2 components are a and b: no group signal
  hi <- delta_f_lin(keep, x, g, cost = c(0.01, 1), folds = 3, seed = 1)
  lo <- delta_f_lin(drop, x, g, cost = c(0.01, 1), folds = 3, seed = 1)
  expect_gt(hi, 0.9)
  expect_lt(lo, 0.3)
  expect_true(attr(hi, "cost") %in% c(0.01, 1))
  expect_equal(nrow(attr(hi, "cv")), 2L)
  expect_error(delta_f_lin(keep, x, rep(1:3, 100)), class = "fairproj_input_error", regexp = "`group`")
  expect_error(delta_f_lin(keep, x, g, cost = -1), class = "fairproj_input_error", regexp = "`cost`")
  expect_error(delta_f_lin(keep, x, g, solver = "mosek"), class = "fairproj_input_error", regexp = "`solver`")
})

test_that("the exact SVM of delta_f_lin solves the soft-margin problem (KKT) and agrees with libsvm", {
  skip_if_not_installed("ECOSolveR")
  skip_if_not_installed("e1071")
  svm <- asNamespace("fairproj")$fp_svm_linear_ecos
  set.seed(5)
  n <- 400
  z <- matrix(rnorm(n * 3), n)
  g <- factor(rbinom(n, 1, plogis(1.5 * z[, 1] - z[, 2])))
  y <- ifelse(g == levels(g)[2], 1, -1)
  primal <- function(w, b, C) sum(w^2) / 2 + C * sum(pmax(0, 1 - y * (drop(z %*% w) + b)))
  for (C in c(1e-2, 1, 1e4)) {
    s <- svm(z, g, C)
    # optimality: the subgradient of the primal at (w, b) contains 0, i.e. there are dual
    # multipliers a in [0, C] (a = C on violated margins, 0 on satisfied ones) with
    # w = sum a_i y_i z_i and sum a_i y_i = 0; check it through the objective instead: no
    # coordinate or random direction lowers it
    f0 <- primal(s$w, s$b, C)
    for (d in c(lapply(1:4, function(j) replace(numeric(4), j, 1)), replicate(8, rnorm(4), simplify = FALSE))) {
      for (t in c(1e-3, -1e-3) / sqrt(sum(d^2))) {
        expect_gte(primal(s$w + t * d[1:3], s$b + t * d[4], C) - f0, -1e-6 * max(1, f0))
      }
    }
  }
  # libsvm at a moderate cost: the same hyperplane (its decision values are positive for the
  # class of its first label, e$labels[1])
  e <- e1071::svm(z, g, type = "C-classification", kernel = "linear", cost = 1, scale = FALSE, tolerance = 1e-6)
  sg <- if (e$labels[1] == 2L) 1 else -1
  we <- sg * drop(t(e$coefs) %*% e$SV); be <- -sg * e$rho
  s <- svm(z, g, 1)
  expect_equal(c(s$w, s$b), unname(c(we, be)), tolerance = 1e-3)
  expect_equal(primal(s$w, s$b, 1), primal(we, be, 1), tolerance = 1e-5)
})

test_that("delta_f_lin standardises scores of any magnitude (1e200 gave 0)", {
  skip_if_not_installed("ECOSolveR")
  sg <- shifted_groups(200)
  g <- sg$g
  x <- sg$x
  keep <- fair_pca(x, g, k = 3, method = "standard")
  hi <- delta_f_lin(keep, x, g, cost = 1, folds = 2, seed = 1)
  expect_gt(hi, 0.9)
  expect_equal(delta_f_lin(keep, x * 1e200, g, cost = 1, folds = 2, seed = 1), hi, tolerance = 1e-6)
})

test_that("delta_f_lin refuses a group too small to cross-validate and infinite costs, naming them", {
  skip_if_not_installed("ECOSolveR")
  set.seed(1)
  x <- matrix(rnorm(600), 100, 6, dimnames = list(NULL, paste0("c", 1:6)))
  fit <- fair_pca(x, rep(c("a", "b"), 50), k = 2)
  expect_error(delta_f_lin(fit, x, c("a", rep("b", 99)), cost = 1),
               "`group` has a group ('a') with 1 row: cross-validating", fixed = TRUE, class = "fairproj_input_error")
  expect_error(delta_f_lin(fit, x, rep(c("a", "b"), 50), cost = Inf), "`cost` must be finite positive",
               class = "fairproj_input_error")
  expect_error(delta_f_lin(fit, x, rep(c("a", "b"), 50), cost = c(1, NaN)), "`cost`", class = "fairproj_input_error")
  # 2 rows is enough for 2 folds; more folds than that are the fault of `folds`
  g2 <- c("a", "a", rep("b", 98))
  expect_error(delta_f_lin(fit, x, g2, cost = 1, folds = 3),
               "`folds` = 3 is more than the 2 rows of the smallest group ('a')", fixed = TRUE,
               class = "fairproj_input_error")
  expect_true(is.numeric(delta_f_lin(fit, x, g2, cost = 1, folds = 2, seed = 1)))
})

test_that("delta_f_lin on too few rows for its default folds names the rows, not a `folds` the user never set", {
  skip_if_not_installed("ECOSolveR")
  set.seed(1)
  x <- matrix(rnorm(15), 5, 3)
  g <- c("a", "a", "a", "b", "b")
  fit <- fair_pca(x, g, k = 1, method = "standard")
  e <- tryCatch(delta_f_lin(fit, x, g), error = function(e) e)
  expect_s3_class(e, "fairproj_input_error")
  expect_match(conditionMessage(e),
               "^`group` has a group \\('b'\\) with 2 rows, fewer than the 5 cross-validation folds of the default")
  expect_match(conditionMessage(e), "set `folds` to at most 2", fixed = TRUE)
  expect_no_match(conditionMessage(e), "between")
  # a `folds` the user set is still the fault of `folds`
  expect_error(delta_f_lin(fit, x, g, folds = 5), "^`folds` = 5 is more than the 2 rows", class = "fairproj_input_error")
  expect_error(delta_f_lin(fit, x, g, folds = 1), "^`folds` must be a whole number >= 2, not 1$", class = "fairproj_input_error")
  expect_error(delta_f_lin(fit, x, g, folds = 1e12), "^`folds` = 1e\\+12 is more than the 2 rows", class = "fairproj_input_error")
  expect_true(is.numeric(delta_f_lin(fit, x, g, cost = 1, folds = 2, seed = 1)))
})
