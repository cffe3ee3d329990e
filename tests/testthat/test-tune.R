test_that("tune_fair_pca follows the cross-validation protocol and refits the chosen candidate", {
  dat <- make_groups(n = c(120, 80), d = 5, seed = 21)
  grid <- list(alpha = c(0, 0.15), lambda = c(0, 1))
  tn <- tune_fair_pca(dat$x, dat$g, k = 2, method = "robust", grid = grid, folds = 3, seed = 3,
                      iterations = 60, restarts = 1, scale. = TRUE, iterate = "best")
  expect_s3_class(tn, "fairproj_tune")
  expect_equal(nrow(tn$table), 4L)
  expect_equal(nrow(tn$cv), 12L)
  j <- which.min(tn$table$criterion)
  expect_equal(tn$best, list(alpha = tn$table$alpha[j], lambda = tn$table$lambda[j]))
  expect_equal(tn$table$criterion, tn$table$ARE + tn$table$ABDiff)
  expect_s3_class(tn$model, "fair_pca_robust")
  expect_equal(tn$model$lambda_requested, tn$best$lambda)
  # every fold holds every group (stratified folds)
  expect_true(all(table(tn$folds, dat$g) > 0))
  # the table agrees with a direct computation for one candidate (deterministic: lambda = 0,
  # alpha = 0 is standard PCA of each training part)
  i0 <- which(tn$table$alpha == 0 & tn$table$lambda == 0)
  manual <- mean(vapply(1:3, function(f) {
    tr <- tn$folds != f
    fit <- fair_pca(dat$x[tr, ], dat$g[tr], k = 2, scale. = TRUE, method = "standard")
    e <- group_errors(fit, dat$x[!tr, ], dat$g[!tr])
    e$ARE + e$ABDiff
  }, numeric(1)))
  expect_equal(tn$table$criterion[i0], manual, tolerance = 1e-6)
  # reproducible, and the global RNG state is left alone
  set.seed(99)
  r1 <- runif(1)
  set.seed(99)
  tn2 <- tune_fair_pca(dat$x, dat$g, k = 2, method = "robust", grid = grid, folds = 3, seed = 3,
                       iterations = 60, restarts = 1, scale. = TRUE, iterate = "best")
  expect_equal(runif(1), r1)
  expect_equal(tn2$table, tn$table)
  expect_output(print(tn), "Chosen")
})

test_that("tune_fair_pca takes data.frame grids and custom criteria, and validates input", {
  dat <- make_groups(n = c(60, 50), d = 4, seed = 22)
  g <- data.frame(lambda = c(0, 0.5, 2))
  tn <- tune_fair_pca(dat$x, dat$g, k = 1, method = "robust", grid = g, folds = 2,
                      criterion = function(e) e$ABDiff, seed = 1, iterations = 30, restarts = 0,
                      iterate = "best", scale. = TRUE)
  expect_equal(tn$table$criterion, tn$table$ABDiff)
  expect_equal(tn$criterion, "custom")
  expect_error(tune_fair_pca(dat$x, dat$g, k = 1, method = "robust", grid = list(1:2)),
               class = "fairproj_input_error", regexp = "`grid`")
  expect_error(tune_fair_pca(dat$x, dat$g, k = 1, method = "robust", grid = g, criterion = "AUC"),
               class = "fairproj_input_error", regexp = "`criterion`")
  expect_error(tune_fair_pca(dat$x, dat$g, k = 1, method = "robust", grid = g, folds = 1),
               class = "fairproj_input_error", regexp = "`folds`")
  expect_error(tune_fair_pca(dat$x, dat$g, k = 1, method = "nope", grid = g),
               class = "fairproj_input_error", regexp = "`method`")
  expect_error(tune_fair_pca(dat$x, dat$g, k = 1, method = "robust", grid = list(foo = 1)),
               class = "fairproj_input_error", regexp = "foo")
})

test_that("folds: the bound is the smallest group's size, and the message says so", {
  set.seed(1)
  x <- matrix(rnorm(101 * 4), 101)
  g <- c(rep(1, 99), 2, 2)
  e <- tryCatch(tune_fair_pca(x, g, k = 1, method = "standard", grid = data.frame(dummy = 1), folds = 3),
                error = function(e) e)
  expect_s3_class(e, "fairproj_input_error")
  expect_match(conditionMessage(e), "`folds` = 3 is more than the 2 row\\(s\\) of the smallest group \\('2'\\)")
  expect_error(tune_fair_pca(x, g, k = 1, method = "standard", grid = data.frame(dummy = 1), folds = 1),
               "`folds` must be a whole number >= 2, not 1$")
})

test_that("tune_fair_pca takes the fold of each row, uses it as given, and checks it", {
  dat <- make_groups(n = c(90, 60), d = 5, seed = 23)
  grid <- list(lambda = c(0, 1))
  n <- nrow(dat$x)
  fv <- rep(c("a", "b", "c"), length.out = n)          # unstratified, labelled folds
  tn <- tune_fair_pca(dat$x, dat$g, k = 2, method = "robust", grid = grid, folds = fv, seed = 3,
                      iterations = 40, restarts = 1, scale. = TRUE, iterate = "best")
  expect_identical(tn$folds, as.integer(factor(fv)))
  expect_equal(nrow(tn$cv), 6L)
  # the criterion of a deterministic method (exact min-max) against a direct computation on the
  # given folds
  tm <- tune_fair_pca(dat$x, dat$g, k = 2, method = "minmax", grid = list(gap_tol = 1e-8), folds = fv)
  manual <- mean(vapply(1:3, function(f) {
    tr <- tm$folds != f
    e <- group_errors(fair_pca(dat$x[tr, ], dat$g[tr], k = 2, method = "minmax", gap_tol = 1e-8), dat$x[!tr, ], dat$g[!tr])
    e$ARE + e$ABDiff
  }, numeric(1)))
  expect_equal(tm$table$criterion, manual, tolerance = 1e-8)
  # checks: length, NA, one fold, a fold without a group on one side
  expect_error(tune_fair_pca(dat$x, dat$g, k = 2, method = "minmax", grid = list(gap_tol = 1e-8), folds = fv[-1]),
               class = "fairproj_input_error", regexp = "`folds`")
  expect_error(tune_fair_pca(dat$x, dat$g, k = 2, method = "minmax", grid = list(gap_tol = 1e-8), folds = replace(fv, 2, NA)),
               class = "fairproj_input_error", regexp = "`folds`")
  expect_error(tune_fair_pca(dat$x, dat$g, k = 2, method = "minmax", grid = list(gap_tol = 1e-8), folds = rep(1, n)),
               class = "fairproj_input_error", regexp = "`folds`")
  bad <- ifelse(as.integer(factor(dat$g)) == 1L, 1L, 2L)    # each fold holds one group only
  expect_error(tune_fair_pca(dat$x, dat$g, k = 2, method = "minmax", grid = list(gap_tol = 1e-8), folds = bad),
               class = "fairproj_input_error", regexp = "every fold needs every group")
})

test_that("tune_fair_pca reports each kind of fit warning once, with the number of fits", {
  dat <- make_groups(n = c(90, 60), d = 5, seed = 23)
  ws <- character(0)
  withCallingHandlers(
    tune_fair_pca(dat$x, dat$g, k = 2, method = "robust", grid = list(lambda = c(0.5, 1, 2.5)), folds = 3,
                  seed = 3, iterations = 40, restarts = 1, scale. = TRUE, iterate = "last"),
    warning = function(w) {
      expect_s3_class(w, "fairproj_tune_warning")
      ws <<- c(ws, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  expect_gt(length(ws), 0L)
  kinds <- gsub("[-+]?[0-9][0-9.eE+-]*", "#", ws)
  expect_identical(anyDuplicated(kinds), 0L)
  # the fits of this grid (3 candidates x 3 folds + the final fit) raise the same kind repeatedly
  expect_true(any(grepl("\\[[0-9]+ fits, first shown\\]", ws)))
})

test_that("default method and grid: robust over the paper's 18 candidates", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  dat <- make_groups(n = c(40, 30), d = 4, seed = 24)
  tn <- suppressWarnings(tune_fair_pca(dat$x, dat$g, k = 2, seed = 1, iterations = 20, restarts = 0,
                                       iterate = "best", scale. = TRUE),
                         classes = "fairproj_tune_warning")
  expect_identical(tn$method, "robust")
  expect_equal(nrow(tn$table), 18L)
  expect_setequal(tn$table$alpha, c(0.05, 0.1, 0.15))
  expect_setequal(tn$table$lambda, seq(0, 2.5, by = 0.5))
  e <- expect_error(tune_fair_pca(dat$x, dat$g, k = 2, method = "mean"), class = "fairproj_input_error")
  expect_match(conditionMessage(e), "^`grid`")
})

test_that("tuning results print, summarise, tidy and plot", {
  dat <- make_groups(n = c(60, 50), d = 4, seed = 25)
  tn <- tune_fair_pca(dat$x, dat$g, k = 2, grid = list(alpha = c(0.05, 0.15), lambda = c(0, 0.5)), seed = 1,
                      iterations = 40, restarts = 0, iterate = "best", scale. = TRUE)
  expect_output(print(tn), "Chosen: alpha")
  s <- summary(tn, n = 2)
  expect_s3_class(s, "summary.fairproj_tune")
  expect_equal(nrow(s$top), 2L)
  expect_equal(s$top$criterion[1], min(tn$table$criterion))
  expect_equal(sum(s$fold_sizes), nrow(dat$x))
  expect_output(print(s), "Rows per fold and group")
  td <- tidy(tn)
  expect_equal(nrow(td), 4L)
  expect_identical(td$std.error, tn$table$se)  # broom's name
  expect_equal(sum(td$chosen), 1L)
  expect_equal(nrow(tidy(tn, "cv")), 4L * 3L)
  tp <- tidy(tn, "plot")
  expect_equal(nrow(tp), 4L)
  # the plot's data name the standard error as tidy() does, and draw criterion +- it
  expect_identical(tp$std.error, tn$table$se)
  expect_false("se" %in% names(tp))
  expect_equal(tp$upper - tp$value, tp$std.error)
  expect_error(tidy(tn, "nope"), class = "fairproj_input_error")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_s3_class(plot(tn), "fairproj_plot_data")
  expect_s3_class(plot(tn, "tradeoff"), "fairproj_plot_data")
  skip_if_not_installed("ggplot2")
  expect_s3_class(ggplot2::autoplot(tn), "ggplot")
})

test_that("a method that needs the rows is tuned on the rows of each training part", {
  dat <- make_groups(n = c(60, 40), d = 4, seed = 5)
  tn <- tune_fair_pca(dat$x, dat$g, k = 1, method = "inlp", grid = list(C = c(0.5, 2)), folds = 2,
                      seed = 1, n_iter = 1)
  expect_s3_class(tn$model, "fair_pca_inlp")
  expect_equal(nrow(tn$table), 2L)
  expect_true(all(is.finite(tn$table$criterion)))
  # any other input error still stops the tuning
  expect_error(tune_fair_pca(dat$x, dat$g, k = 1, method = "inlp", grid = list(C = c(-1, 2)), folds = 2),
               class = "fairproj_input_error")
})

test_that("the defaults converge on the README's pbc: robust fits return their best iterate (#45)", {
  skip_on_cran()  # about 10 s of CPU
  skip_if_not_installed("survival")
  data("pbc", package = "survival", envir = environment())
  vars <- c("age", "bili", "chol", "albumin", "copper", "alk.phos", "ast", "trig", "platelet", "protime")
  pbc2 <- stats::na.omit(pbc[c(vars, "sex")])
  # seed 1: with the last iterate, one of the 54 fold fits ended 1.2% above its best iterate
  n_warn <- 0L
  tn <- withCallingHandlers(tune_fair_pca(~ ., pbc2, group = sex, k = 3, scale. = TRUE, seed = 1),
                            warning = function(w) {
                              n_warn <<- n_warn + 1L
                              invokeRestart("muffleWarning")
                            })
  expect_identical(n_warn, 0L)
  expect_identical(tn$model$call$iterate, "best")
  expect_equal(tn$model$objective, tn$model$best_visited)
  # the paper's last iterate stays available
  dat <- make_groups(n = c(40, 30), d = 4, seed = 24)
  tl <- suppressWarnings(tune_fair_pca(dat$x, dat$g, k = 2, grid = list(alpha = 0.1, lambda = 1), iterations = 20,
                                       restarts = 0, iterate = "last", scale. = TRUE, seed = 1))
  expect_identical(tl$model$call$iterate, "last")
})

test_that("the criterion plot: the parameter with the most values on the axis, series dodged apart (#45)", {
  dat <- make_groups(n = c(40, 30), d = 4, seed = 24)
  tn <- suppressWarnings(tune_fair_pca(dat$x, dat$g, k = 2, seed = 1, iterations = 5, restarts = 0, scale. = TRUE),
                         classes = "fairproj_tune_warning")
  pd <- fairproj:::fp_plot_data(tn)
  spec <- attr(pd, "fp_spec")
  expect_identical(spec$labels$x, "lambda")
  expect_identical(nlevels(pd$series), 3L)    # one series per alpha, 6 positions each
  rows <- fairproj:::fp_plot_rows(pd, spec)
  # 18 distinct bar positions, each within a fifth of the grid step of its lambda, 3 per lambda
  expect_identical(length(unique(round(rows$.x, 10))), 18L)
  expect_true(all(abs(rows$.x - rows$lambda) <= 0.2 * 0.5 + 1e-12))
  gaps <- diff(sort(rows$.x))
  expect_gt(min(gaps), 0.05)
})

test_that("grid columns that the method does not take, or that `...` also gives, are errors naming `grid`", {
  set.seed(1)
  x <- matrix(rnorm(600), 100, 6, dimnames = list(NULL, paste0("c", 1:6)))
  g <- rep(c("a", "b"), 50)
  expect_error(tune_fair_pca(x, g, k = 2, grid = data.frame(foo = 1:2)),
               "^`grid` has column\\(s\\) that method 'robust' does not take: foo \\(it takes: alpha",
               class = "fairproj_input_error")
  expect_error(tune_fair_pca(x, g, k = 2, grid = list(alpha = 0.1, lambda = 0:1), alpha = 0.2),
               "^`grid` and `...` both give alpha", class = "fairproj_input_error")
})

test_that("a group of one row is too small for cross-validation, whatever `folds`", {
  set.seed(1)
  x <- matrix(rnorm(600), 100, 6)
  e <- expect_error(tune_fair_pca(x, c("a", rep("b", 99)), k = 2),
                    "^`group` has a group \\('a'\\) with 1 row: cross-validation needs at least 2 rows",
                    class = "fairproj_input_error")
  expect_no_match(conditionMessage(e), "at most 1")
})

test_that("the robust method's `iterate` can be a grid column", {
  dat <- make_groups(n = c(40, 40), d = 4, seed = 22)
  # the short runs warn (fairproj_tune_warning) that "last" ended above the start
  tn <- suppressWarnings(tune_fair_pca(dat$x, dat$g, k = 1, grid = list(iterate = c("best", "last"), alpha = 0.1),
                                       folds = 2, iterations = 10, restarts = 0, seed = 1), classes = "fairproj_warning")
  expect_equal(tn$table$iterate, c("best", "last"))
})

test_that("tune_fair_pca(): a criterion that fails, is not finite or takes no argument names criterion", {
  set.seed(1)
  x <- matrix(rnorm(600), 120, 5)
  g <- rep(c("a", "b"), 60)
  grid <- list(alpha = c(0.1))
  run <- function(crit) tune_fair_pca(x, g, k = 2, method = "robust", grid = grid, folds = 2, criterion = crit, seed = 1)
  expect_error(run(function(e) stop("boom")), "^`criterion` failed on a fold's group_errors\\(\\) result: boom",
               class = "fairproj_input_error")
  expect_error(run(function() 1), "^`criterion` must be a function of one argument", class = "fairproj_input_error")
  expect_error(run(function(e) Inf), "^`criterion` must return one finite number", class = "fairproj_input_error")
  expect_identical(suppressWarnings(run("ABD"))$criterion, "ABDiff")
  expect_error(tune_fair_pca(x, g, k = 2, method = "robust", grid = grid, folds = as.list(rep(1:2, 60))),
               "^`folds` must be one number \\(how many folds\\) or a vector", class = "fairproj_input_error")
})

test_that("tune_fair_pca(): the fits' warnings keep their class (a convergence warning stays one)", {
  set.seed(2)
  x <- matrix(rnorm(600), 120, 5) %*% diag(c(3, 2, 1.5, 1, 0.5))
  g <- rep(c("a", "b"), 60)
  cls <- list()
  withCallingHandlers(tune_fair_pca(x, g, k = 2, method = "robust", grid = list(alpha = 0.1), folds = 2, seed = 1,
                                    iterations = 1, iterate = "last"),
                      warning = function(w) {
                        cls[[length(cls) + 1L]] <<- class(w)
                        invokeRestart("muffleWarning")
                      })
  conv <- Filter(function(cl) "fairproj_convergence_warning" %in% cl, cls)
  expect_true(length(conv) >= 1L)
  expect_true(all(vapply(conv, function(cl) "fairproj_tune_warning" %in% cl, TRUE)))
})

test_that("tune_fair_pca() tunes data of any finite magnitude that fair_pca() fits, with its fold fits", {
  # fair_pca() brings columns beyond about 1e+-120 into range by exact powers of two before
  # forming moments; the folds' moments and scales must do the same. With scale. = TRUE the
  # problem is unit-free, so every table equals that of the plain data up to rounding (1e-8: a
  # few operations of relative error 1e-16 each, through eigensolves of well-separated values).
  set.seed(1)
  x <- matrix(rnorm(240), 60, 4)
  g <- rep(c("a", "b"), 30)
  tune <- function(xx, ...) {
    tune_fair_pca(xx, g, k = 2, method = "mean", grid = list(tradeoff = c(0, 1)), scale. = TRUE, seed = 1, ...)
  }
  ref <- tune(x)
  big <- x
  big[, 1] <- big[, 1] * 1e200
  tiny <- x
  tiny[, 1] <- tiny[, 1] * 1e-300
  for (xx in list(big, tiny, x / max(abs(x)) * .Machine$double.xmax)) {
    tn <- tune(xx)
    expect_s3_class(tn, "fairproj_tune")
    expect_equal(tn$table$criterion, ref$table$criterion, tolerance = 1e-8)
    expect_equal(tn$folds, ref$folds)
  }
  # a centre far from the data: the scale is each column's root mean square about it, as
  # prcomp() defines it (computed here with the column and centre divided by 1e300 first), and
  # every fold's criterion is that of fair_pca() on the fold's training rows with that scale
  ctr <- c(1e300, 0, 0, 0)
  rms <- function(x) {
    u <- c(1e300, 1, 1, 1)
    sqrt(colSums(sweep(sweep(x, 2L, u, `/`), 2L, ctr / u)^2) / (nrow(x) - 1)) * u
  }
  tn <- tune(x, center = ctr)
  expect_equal(unname(tn$model$scale), rms(x), tolerance = 1e-12)
  cv <- tn$cv[tn$cv$tradeoff == 1, ]
  manual <- vapply(cv$fold, function(f) {
    tr <- tn$folds != f
    fit <- fair_pca(x[tr, ], g[tr], k = 2, method = "mean", tradeoff = 1, center = ctr, scale. = rms(x[tr, ]))
    e <- group_errors(fit, x[!tr, ], g[!tr])
    e$ARE + e$ABDiff
  }, numeric(1))
  expect_equal(cv$criterion, manual, tolerance = 1e-8)
})

test_that("tune_fair_pca(): with center = FALSE, scale. = TRUE divides by the root mean square, as fair_pca()", {
  dat <- make_groups(n = c(40, 30), d = 3, seed = 5)
  x <- dat$x + 3
  tn <- tune_fair_pca(x, dat$g, k = 1, method = "mean", grid = list(tradeoff = 0), center = FALSE, scale. = TRUE, seed = 1)
  fit <- fair_pca(x, dat$g, k = 1, method = "mean", tradeoff = 0, center = FALSE, scale. = TRUE)
  expect_equal(unname(tn$model$scale), unname(fit$scale), tolerance = 1e-12)
  expect_equal(tn$model$rotation, fit$rotation, tolerance = 1e-8)
})

test_that("the folds' scale comes from their moments: the root mean square about the centre, 1 for a constant column", {
  set.seed(8)
  x <- cbind(rnorm(50, 1e6, 3e4), runif(50), rpois(50, 4) * 1e-200, 7)
  g <- rep(c("a", "b", "c"), length.out = 50)
  m <- fp_moments_ranged(x, factor(g), paste0("c", 1:4))
  expect_true(any(m$exponent != 0))
  direct <- function(x, ctr) sqrt(colSums(sweep(x, 2L, ctr)^2) / (nrow(x) - 1))
  s <- unname(fp_tune_scale(m, TRUE, TRUE))
  expect_equal(s[1:3], direct(x, colMeans(x))[1:3], tolerance = 1e-12)
  expect_identical(s[4], 1)
  ctr <- c(0, 0.5, 0, 0)
  expect_equal(unname(fp_tune_scale(m, TRUE, ctr))[1:3], direct(x, ctr)[1:3], tolerance = 1e-12)
  expect_equal(unname(fp_tune_scale(m, TRUE, FALSE))[4], 7 * sqrt(50 / 49), tolerance = 1e-14)
  expect_identical(fp_tune_scale(m, c(1, 2, 3, 4)), c(1, 2, 3, 4))
  expect_false(fp_tune_scale(m, FALSE))
})

test_that("predict() of a tuning result refuses a misspelt newdata instead of returning the training scores", {
  dat <- make_groups(n = c(30, 30), d = 4, seed = 25)
  tn <- tune_fair_pca(dat$x, dat$g, k = 2, grid = list(alpha = 0.1, lambda = c(0, 0.5)), seed = 1,
                      iterations = 20, restarts = 0, folds = 2)
  e <- expect_error(predict(tn, new_data = dat$x[1:5, ]), "^`\\.\\.\\.` has argument\\(s\\) that predict\\(\\) of a fairproj_tune result does not take: new_data",
                    class = "fairproj_input_error")
  expect_match(conditionMessage(e), "for `new_data` give `newdata`", fixed = TRUE)
  expect_identical(dim(predict(tn, dat$x[1:5, ])), c(5L, 2L))
  expect_identical(nrow(predict(tn)), 60L)
})

# method "mean"'s per-row arguments (`y` for equal opportunity, `attributes`) are taken on each
# fold's training rows: a fold's held-out errors are those of fair_pca() on those rows
test_that("tune_fair_pca with method 'mean' and per-row y or attributes fits each fold on its rows", {
  dat <- make_groups(n = c(60, 60), d = 4)
  y <- rep(c(0, 1, 1, 0), 30)
  tn <- tune_fair_pca(dat$x, dat$g, 2, method = "mean", grid = list(tradeoff = c(0.2, 0.8)),
                      constraint = "opportunity", y = y, seed = 1)
  tr <- tn$folds != 1
  fit <- fair_pca(dat$x[tr, ], dat$g[tr], 2, method = "mean", tradeoff = 0.2, constraint = "opportunity", y = y[tr])
  expect_equal(tn$cv$ARE[tn$cv$fold == 1 & tn$cv$candidate == 1], group_errors(fit, dat$x[!tr, ], dat$g[!tr])$ARE)
  expect_identical(tn$model$constraint, "opportunity")
  set.seed(2)
  att <- data.frame(u = rnorm(120))
  tn2 <- tune_fair_pca(dat$x, dat$g, 2, method = "mean", grid = list(tradeoff = 0.5), attributes = att, seed = 1)
  tr <- tn2$folds != 2
  fit2 <- fair_pca(dat$x[tr, ], dat$g[tr], 2, method = "mean", tradeoff = 0.5, attributes = att[tr, , drop = FALSE])
  expect_equal(tn2$cv$ARE[tn2$cv$fold == 2], group_errors(fit2, dat$x[!tr, ], dat$g[!tr])$ARE)
})

test_that("tune_fair_pca refuses a per-row y or attributes of another length than the data's, naming it", {
  dat <- make_groups(n = c(60, 60), d = 4)
  y <- rep(c(0, 1, 1, 0), 30)
  expect_error(tune_fair_pca(dat$x, dat$g, 2, method = "mean", grid = list(tradeoff = 0.5), constraint = "opportunity",
                             y = y[1:50]), "`y` has 50 values \\(rows\\) but the data have 120 rows", class = "fairproj_input_error")
  expect_error(tune_fair_pca(dat$x, dat$g, 2, method = "mean", grid = list(tradeoff = 0.5),
                             attributes = data.frame(u = rnorm(119))), class = "fairproj_input_error")
})

test_that("augment() of a tuning is augment() of its refitted model; without one, a classed error says how to get one", {
  dat <- make_groups(n = c(60, 40), d = 4, seed = 7)
  tn <- tune_fair_pca(dat$x, dat$g, k = 2, method = "mean", folds = 3, seed = 1,
                      grid = list(zero_tol = c(1e-9, 1e-6)))
  df <- as.data.frame(dat$x)
  expect_identical(augment(tn, data = df), augment(tn$model, data = df))
  expect_identical(augment(tn, newdata = df[1:5, ]), augment(tn$model, newdata = df[1:5, ]))
  expect_equal(augment(tn, data = df)$.fittedPC1, unname(predict(tn, df)[, 1]))
  expect_error(augment(tn, new_data = df), "^`...`.*for `new_data` give `newdata`", class = "fairproj_input_error")
  tn$model <- NULL
  expect_error(augment(tn, data = df), "^`x` holds no refitted model.*tune_fair_pca\\(\\) again", class = "fairproj_input_error")
})

test_that("the refitted model's call names the user's data, so update() refits those rows", {
  dat <- make_groups(n = c(30, 30), d = 4)
  xx <- dat$x
  gg <- dat$g
  # a decoy with the name of the placeholders the call held (fair_pca(x, group, ...)): update()
  # read it, silently or with 'object not found'
  group <- rep(c("p", "q", "r"), 20)
  tn <- suppressWarnings(tune_fair_pca(xx, gg, k = 1, method = "robust", folds = 3, grid = list(alpha = 0.1, lambda = 0)))
  expect_identical(tn$model$call$x, quote(xx))
  expect_identical(tn$model$call$group, quote(gg))
  u <- suppressWarnings(update(tn$model, k = 2))
  expect_identical(u$k, 2L)
  expect_identical(u$groups$group, levels(gg))
  d <- data.frame(xx, s = gg)
  tf <- suppressWarnings(tune_fair_pca(~ ., data = d, group = s, k = 1, method = "robust", folds = 3,
                                       grid = list(alpha = 0.1, lambda = 0), subset = 1:50))
  expect_identical(tf$model$call$data, quote(d))
  expect_identical(tf$model$call$group, quote(s))
  u2 <- suppressWarnings(update(tf$model, k = 2))
  expect_identical(u2$k, 2L)
  expect_identical(sum(u2$groups$n), 50)
})
