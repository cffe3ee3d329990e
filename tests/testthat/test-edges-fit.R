# Bad and extreme inputs at the fitting doors and through every method of the result classes:
# each a classed error or a documented result, never R's own error, a stray warning or message,
# or values that contradict each other.

# Average squared error of each group about its own mean after projecting onto span(V),
# computed from the rows: the residual of a column that dwarfs the rest cancels only to its own
# precision (1e-6 here), far below the other columns' variances.
rows_group_error <- function(x, g, V) {
  vapply(split(seq_len(nrow(x)), g), function(i) {
    xc <- sweep(x[i, , drop = FALSE], 2L, colMeans(x[i, , drop = FALSE]))
    mean(rowSums((xc - xc %*% V %*% t(V))^2))
  }, numeric(1))
}

test_that("group errors stay accurate when one column dwarfs the others", {
  # a column 1e10 times larger: tr(S) - tr(V'SV) cancels every digit of the other columns'
  # variance (the error came out 0 and the losses -best)
  set.seed(1)
  x <- cbind(a = rnorm(100) * 1e10, b = rnorm(100), c = rnorm(100))
  g <- rep(1:2, 50)
  for (method in c("standard", "minmax")) {
    fit <- fair_pca(x, g, k = 1, method = method, scale. = FALSE)  # units apart on purpose
    gs <- fit$group_stats
    expect_equal(gs$error, unname(rows_group_error(x, g, fit$rotation)), tolerance = 1e-6)
    expect_true(all(gs$error >= gs$best * (1 - 1e-8)))
    expect_true(all(gs$loss >= -1e-8 * gs$best))
    expect_equal(gs$error, group_errors(fit, x, g)$table$error)
  }
})

# Each group's best rank-k error when column `big` dwarfs the rest: that column's direction is
# the first component to within its own rounding, and the rest is the best rank-(k - 1) error of
# the Schur complement of the other columns (exact in the limit; the true value to about
# 1e-10 relative at a factor of 1e10).
schur_best <- function(x, g, big, k) {
  vapply(split(seq_len(nrow(x)), g), function(i) {
    xc <- sweep(x[i, , drop = FALSE], 2L, colMeans(x[i, , drop = FALSE])) / sqrt(length(i))
    S <- crossprod(xc)
    S2 <- S[-big, -big] - tcrossprod(S[-big, big]) / S[big, big]
    sum(eigen(S2, symmetric = TRUE, only.values = TRUE)$values[-seq_len(k - 1L)])
  }, numeric(1))
}

test_that("best errors and losses stay right when a column dwarfs the rest, wherever it is and at any d", {
  # the dense solver lost the small eigenvalues unless the large column came first (best
  # errors 1e3 times too large, losses -1e5), and the Lanczos path (d >= 120) cancelled them
  # all (best 0); min-max, comparing candidates on losses that cancelled, returned a subspace
  # with twice standard PCA's largest loss
  set.seed(3)
  g <- rep(c("a", "b"), c(90, 70))
  for (d in c(40, 130)) {
    x0 <- matrix(rnorm(160 * d), 160)
    for (big in c(1L, d %/% 2L, d)) {
      x <- x0
      x[, big] <- x[, big] * 1e10
      ref <- schur_best(x, g, big, 3)
      fit <- fair_pca(x, g, k = 3, method = "standard", scale. = FALSE)  # units apart on purpose
      gs <- fit$group_stats
      expect_equal(gs$best, unname(ref), tolerance = 1e-6)
      expect_equal(gs$error, unname(rows_group_error(x, g, fit$rotation)), tolerance = 1e-6)
      expect_true(all(gs$loss >= -1e-8 * gs$best))
      expect_equal(unname(moments_best_error(group_moments(x, g), 3)[1, ]), unname(ref), tolerance = 1e-6)
      # the subspace is PCA's, as prcomp() finds it from the rows
      expect_equal(gs$error, unname(rows_group_error(x, g, prcomp(x, rank. = 3)$rotation)), tolerance = 1e-6)
      mm <- suppressWarnings(fair_pca(x, g, k = 3))
      expect_lte(max(mm$group_stats$loss), max(gs$loss) * (1 + 1e-6))
      expect_equal(mm$objective, max(mm$group_stats$loss), tolerance = 1e-6)
    }
  }
})

test_that("a fit solved without iterations has no convergence plot, a classed error", {
  fit <- fair_pca(iris[1:4], iris$Species == "setosa", k = 2, method = "cfpca")
  expect_equal(nrow(fit$history), 0L)
  expect_error(tidy(fit, matrix = "plot", type = "convergence"), class = "fairproj_input_error")
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_error(plot(fit, type = "convergence"), class = "fairproj_input_error")
})

test_that("plots of one point draw it, without ggplot2's message about lines", {
  skip_if_not_installed("ggplot2")
  # min-max at k = d over many groups stops after one iteration; a selection of one column has
  # a one-row path
  set.seed(1)
  fit <- fair_pca(matrix(rnorm(2500), 500), rep(1:50, 10), k = 5)
  expect_equal(nrow(fit$history), 1L)
  css <- fair_css(iris[1:4], iris$Species, k = 1)
  pdf(NULL)
  on.exit(grDevices::dev.off())
  for (p in list(ggplot2::autoplot(fit, type = "convergence"), ggplot2::autoplot(css, type = "path"))) {
    expect_silent(print(p))
    expect_true(any(vapply(seq_along(p$layers), function(i) nrow(ggplot2::layer_data(p, i)), 1L) == 1L))
  }
})

test_that("biplot() draws a constant column and a component without variance, quietly", {
  # a constant column's zero-length arrow made arrows() warn; a column 1e300 times the others
  # leaves the second component no variance to the fit's precision, and scaling by it gave
  # infinite limits (R's own error)
  x <- as.matrix(iris[1:4])
  x[, 3] <- 1
  fit <- fair_pca(x, iris$Species, k = 2, method = "standard")
  expect_equal(unname(fit$rotation[3, ]), c(0, 0))
  set.seed(1)
  x2 <- cbind(a = rnorm(100) * 1e150, b = rnorm(100) * 1e-150, c = rnorm(100) * 1e-150)
  fit2 <- fair_pca(x2, rep(1:2, 50), k = 2, method = "standard", scale. = FALSE)
  expect_equal(fit2$sdev[2], 0)
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_no_warning(biplot(fit))
  expect_no_error(biplot(fit2))
})

test_that("fair_audit()'s loss ratio is 1 when every loss is 0 and Inf only when the smallest is", {
  # a one-row group has zero covariance, so its loss is 0; min-max then makes every loss 0
  # (to rounding, which left the ratio Inf for equal losses)
  set.seed(1)
  x <- matrix(rnorm(400), 100)
  g <- c("a", rep("b", 99))
  expect_warning(a <- fair_audit(x, g, k = 1, methods = c("standard", "minmax")),
                 class = "fairproj_small_group_warning")
  tab <- a$table
  expect_equal(tab$loss_ratio[tab$method == "minmax"], 1)
  expect_true(tab$max_loss[tab$method == "standard"] > 0)
  expect_equal(tab$loss_ratio[tab$method == "standard"], Inf)
})

test_that("a seed is one whole number, checked wherever it is taken", {
  x <- as.matrix(iris[1:4])
  g <- iris$Species
  for (bad in list(Inf, 1.5, 2^31, NA_real_, "1", 1:2)) {
    expect_error(tune_fair_pca(x, g, k = 2, folds = 2, grid = list(alpha = 1), seed = bad),
                 class = "fairproj_input_error")
    expect_error(fair_audit(x, g, k = 1, methods = "standard", outcome = iris$Petal.Width > 1, seed = bad),
                 class = "fairproj_input_error")
  }
})

test_that("fair_audit() checks test_fraction and seed without an outcome too", {
  x <- as.matrix(iris[1:4])
  expect_error(fair_audit(x, iris$Species, k = 1, methods = "standard", test_fraction = "yes"),
               class = "fairproj_input_error")
  expect_error(fair_audit(x, iris$Species, k = 1, methods = "standard", seed = "yes"),
               class = "fairproj_input_error")
})

test_that("convex fair PCA refuses an infinite covariance weight", {
  # mu = Inf came back "converged" with a subspace that explains almost nothing
  g <- iris$Species == "setosa"
  expect_error(fair_pca(iris[1:4], g, k = 2, method = "cfpca", mu = Inf), class = "fairproj_input_error")
})

test_that("fair_audit() fits data of any magnitude as fair_pca() does", {
  # its moments squared the data unscaled: 1e-300 data had "no variation", 1e300 data gave R's
  # own error with scale. = TRUE
  x <- as.matrix(iris[1:4])
  y <- iris$Petal.Width > 1
  for (s in c(1e-300, 1e300)) {
    ref <- fair_pca(x * s, iris$Species, k = 2, scale. = TRUE)
    a <- fair_audit(x * s, iris$Species, k = 2, methods = "minmax", scale. = TRUE, outcome = y, seed = 1)
    expect_equal(a$table$max_loss[a$table$method == "minmax"], max(ref$group_stats$loss), tolerance = 1e-6)
    a0 <- fair_audit(x * s, iris$Species, k = 2, methods = "minmax", scale. = TRUE)
    expect_equal(a0$table$max_loss, a$table$max_loss)
    err <- expect_error(fair_pca(x * s, iris$Species, k = 2), class = "fairproj_input_error")
    expect_error(fair_audit(x * s, iris$Species, k = 2, methods = "minmax", scale. = FALSE), conditionMessage(err), fixed = TRUE,
                 class = "fairproj_input_error")
  }
})

test_that("tune_fair_pca()'s standard errors stay finite for data near 1e100", {
  # the fold criteria are about 1e200: their squares overflowed, giving se = Inf
  x <- as.matrix(iris[1:4])
  grid <- list(objective = c("loss", "variance"))
  tu <- tune_fair_pca(x, iris$Species, k = 2, method = "minmax", grid = grid, folds = 3, seed = 1)
  big <- tune_fair_pca(x * 1e100, iris$Species, k = 2, method = "minmax", grid = grid, folds = 3, seed = 1)
  expect_true(all(is.finite(big$table$se)))
  expect_equal(big$table$se / 1e200, tu$table$se, tolerance = 1e-6)
})

test_that("MbF-PCA refuses k = d, where every projection is the identity", {
  # it iterated to its cap and advised raising `maxit_outer`
  g <- iris$Species == "setosa"
  expect_error(fair_pca(iris[1:4], g, k = 4, method = "mbfpca"), class = "fairproj_input_error")
})

test_that("fair_css() on columns 1e13 apart says why k is refused and what works", {
  # the groups have full rank: the best rank-1 error is below 1e-12 of the norm, which reads as
  # rank deficiency; the message must not claim the rank is below k, and scale. = TRUE fits
  set.seed(1)
  x <- cbind(a = rnorm(100) * 1e13, b = rnorm(100), c = rnorm(100))
  g <- rep(1:2, 50)
  expect_error(fair_css(x, g, k = 1), "scale. = TRUE", fixed = TRUE, class = "fairproj_input_error")
  expect_true(is.finite(fair_css(x, g, k = 1, scale. = TRUE)$loss))
})

test_that("the Pareto convergence plot of many groups shows their largest disparity", {
  # 50 groups give 1225 disparities: one line and legend entry each stopped plot() with
  # "figure margins too large"
  set.seed(1)
  x <- matrix(rnorm(2500), 500)
  fit <- fair_pca(x, rep(1:50, 10), k = 2, method = "pareto", iterations = 5)
  d <- tidy(fit, matrix = "plot", type = "convergence")
  expect_equal(levels(d$series), c("total loss", "largest disparity"))
  expect_true(all(d$value >= 0 & d$value <= 1))
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_no_error(plot(fit, type = "convergence"))
})

test_that("group errors are never negative, and 0 at k = d", {
  # rounding left errors of -5e-15 at k = d and below 0 when k reaches a group's rank
  set.seed(1)
  x <- matrix(rnorm(600), 20)
  g <- rep(1:2, 10)
  expect_true(all(fair_pca(x, g, k = 20, method = "standard")$group_stats$error >= 0))
  gs <- fair_pca(x, g, k = 30, method = "standard")$group_stats
  expect_equal(c(gs$error, gs$loss), c(0, 0, 0, 0))
  expect_equal(fair_pca(iris[1:4], iris$Species, k = 4, method = "standard")$group_stats$error, c(0, 0, 0))
})

test_that("group moments of extreme data are a classed error at the door; the rows fit", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  # summed without bringing columns into range, squares at 1e200 overflow to NaN, at 1e-160
  # they are subnormal (few digits), at 1e-200 they vanish: group_moments() says so, at every door
  x <- as.matrix(iris[1:4])
  for (s in c(1e200, 1e-160, 1e-200)) {
    expect_error(group_moments(x * s, iris$Species), class = "fairproj_input_error")
    if (requireNamespace("Matrix", quietly = TRUE)) {
      expect_error(group_moments(Matrix::Matrix(x * s, sparse = TRUE), iris$Species), class = "fairproj_input_error")
    }
    expect_no_error(fair_pca(x * s, iris$Species, k = 2, scale. = TRUE))
    expect_no_error(fair_css(x * s, iris$Species, k = 2))
  }
  # a constant tiny column (no variation to lose) is fine
  m <- group_moments(cbind(x, tiny = 1e-200), iris$Species)
  expect_equal(unname(m$mean["tiny", ]), rep(1e-200, 3))
  # moments built by hand with subnormal scatters: fits still refuse them
  mm <- group_moments(x, iris$Species)
  sub <- new_group_moments(mm$n, mm$mean * 1e-160, lapply(mm$scatter, function(s) s * 1e-320))
  expect_error(fair_pca(sub, k = 2, scale. = TRUE), class = "fairproj_input_error")
  expect_error(fair_css(sub, k = 2), class = "fairproj_input_error")
})

test_that("the refits of an errors plot warn once per kind, naming their k", {
  # an MW fit refitted at ten k warned ten times
  fit <- suppressWarnings(fair_pca(iris[1:4], iris$Species, k = 2, solver = "mw", iterations = 5))
  n <- 0L
  withCallingHandlers(suppressMessages(tidy(fit, matrix = "plot", type = "errors")),
                      fairproj_convergence_warning = function(w) {
                        n <<- n + 1L
                        expect_match(conditionMessage(w), "refits at k = 1, 3", fixed = TRUE)
                        invokeRestart("muffleWarning")
                      })
  expect_equal(n, 1L)
})

test_that("fair_audit() reports a method that cannot reach any audited k as not fitted", {
  # mean matching at k = d (its feasible dimension is d - 1) stopped the whole audit
  a <- fair_audit(iris[1:4], iris$Species == "setosa", k = 4)
  tab <- a$table
  expect_equal(tab$state[tab$method == "mean"], "not fitted")
  expect_true(all(is.finite(tab$max_loss[tab$method != "mean"])))
  expect_error(fair_audit(iris[1:4], iris$Species, k = 2, methods = "robust", robust = list(alpha = -1)),
               class = "fairproj_input_error")
})

test_that("print() of an audit over 50 groups lists the first ten", {
  set.seed(1)
  a <- fair_audit(matrix(rnorm(2500), 500), rep(1:50, 10), k = 1:2, methods = "minmax")
  out <- capture.output(print(a))
  expect_true(max(nchar(out)) < 200)
  expect_true(any(grepl("(50 in all)", out, fixed = TRUE)))
})

test_that("nobs() of a column selection and as.prcomp() of what is not a fair_pca fit", {
  fit <- fair_css(iris[1:4], iris$Species, k = 2)
  expect_identical(nobs(fit), 150L)
  expect_error(as.prcomp(fit), class = "fairproj_input_error")
  expect_error(as.prcomp(list(a = 1)), class = "fairproj_input_error")
  p <- stats::prcomp(iris[1:4])
  expect_identical(as.prcomp(p), p)
})

test_that("fair_css() at k = d: prefixes are Inf times the best error of 0, the full set 1", {
  set.seed(5)
  x <- matrix(rnorm(200), 50, 4)
  fit <- fair_css(x, rep(1:2, 25), k = 4)
  expect_equal(fit$loss, 1)
  expect_true(all(is.infinite(fit$path$loss[1:3])))
  expect_equal(fit$path$loss[4], 1)
  expect_equal(fit$group_stats$ratio, c(1, 1))
})
