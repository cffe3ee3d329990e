# Results out to other packages (broom, ggplot2, factoextra) and the naming rules that must agree
# between a fit and its new data, and between the in-memory and the file doors.

iris_x <- as.matrix(iris[1:4])
iris_g <- iris$Species

test_that("fair_kpca(): tidy() eigenvalues and per-group statistics agree with the scores", {
  skip_if_not_installed("generics")
  fit <- fair_kpca(iris_x, iris_g, k = 3)
  ev <- tidy(fit)
  expect_identical(ev$PC, 1:3)
  # the standard deviations are those of the training scores (centred kernel: mean zero)
  expect_equal(ev$std.dev, unname(apply(fit$x, 2, stats::sd)), tolerance = 1e-8)
  # fractions of the trace of the centred kernel matrix
  Kc <- fairproj:::fp_kernel(fit$train, fit$train, fit$kernel)
  Kc <- Kc - outer(rowMeans(Kc), colMeans(Kc), `+`) + mean(Kc)
  expect_equal(ev$percent, fit$eigenvalues / sum(diag(Kc)), tolerance = 1e-8)
  expect_equal(ev$cumulative, cumsum(ev$percent))
  expect_lt(max(ev$cumulative), 1)
  gr <- tidy(fit, "groups")
  expect_setequal(names(gr), c("group", "n", "PC", "mean", "std.dev"))
  expect_equal(nrow(gr), 3L * 3L)
  ref <- rowsum(fit$x, iris_g) / 50
  expect_equal(gr$mean, as.vector(ref), tolerance = 1e-12)
  # the fairness constraint: equal group means on every component
  expect_lt(max(abs(ref)), 1e-8)
  sc <- tidy(fit, "scores")
  expect_equal(nrow(sc), 150L * 3L)
  expect_equal(sc$value, as.vector(fit$x))
  expect_error(tidy(fit, "rotation"), class = "fairproj_input_error")
})

test_that("fair_kpca(): glance() is one row and augment() aligns scores with the rows", {
  skip_if_not_installed("generics")
  fit <- fair_kpca(iris_x, iris_g, k = 2)
  gl <- glance(fit)
  expect_equal(nrow(gl), 1L)
  expect_identical(gl$k, 2L)
  expect_identical(gl$nobs, 150L)
  expect_identical(gl$ngroups, 3L)
  expect_equal(gl$var_explained, sum(tidy(fit)$percent))
  expect_lt(gl$mean_gap, 1e-8)
  # a fit without the group constraint has a visible gap
  set.seed(3)
  other <- sample(1:2, 150, replace = TRUE)
  free <- fair_kpca(iris_x, iris_g, k = 2, use_group = FALSE, attributes = other)
  expect_gt(glance(free)$mean_gap, 1e-3)

  a <- augment(fit, data = iris)
  expect_identical(names(a), c(".rownames", names(iris), ".fittedKPC1", ".fittedKPC2"))
  expect_equal(a$.fittedKPC1, unname(fit$x[, 1]))
  expect_identical(a$.rownames, rownames(iris))
  an <- augment(fit, newdata = iris[c(5, 60), ])
  expect_equal(an$.fittedKPC2, unname(predict(fit, iris_x[c(5, 60), ])[, 2]))
  expect_identical(an$.rownames, c("5", "60"))
  # rows in any order, any subset and any data frame class keep their own scores
  set.seed(4)
  i <- sample(150, 100)
  expect_equal(augment(fit, data = iris[i, ])$.fittedKPC1, unname(fit$x[i, 1]), tolerance = 1e-10)
  skip_if_not_installed("tibble")
  expect_equal(augment(fit, data = tibble::as_tibble(iris)[i, ])$.fittedKPC2, unname(fit$x[i, 2]),
               tolerance = 1e-10)
})

test_that("fair_kpca(): a formula interface consistent with fair_pca()'s", {
  ref <- fair_kpca(iris_x, iris_g, k = 2)
  fit <- fair_kpca(~ . - Species, data = iris, group = Species, k = 2)
  expect_equal(fit$x, ref$x, ignore_attr = TRUE, tolerance = 1e-10)
  expect_false(is.null(fit$terms))
  # predict() rebuilds the columns from a raw data.frame, in any column order
  expect_equal(predict(fit, iris[10:1, 5:1]), predict(ref, iris_x[10:1, ]), ignore_attr = TRUE,
               tolerance = 1e-10)
  # factors are expanded by model.matrix(), as in fair_pca()
  d <- iris
  d$size <- factor(ifelse(d$Petal.Length > 4, "big", "small"))
  fd <- fair_kpca(~ Sepal.Length + Sepal.Width + size, data = d, group = Species, k = 2)
  expect_identical(fd$colnames, c("Sepal.Length", "Sepal.Width", "sizebig", "sizesmall"))
  expect_equal(predict(fd, d[1:5, ]), fd$x[1:5, ], tolerance = 1e-10)
  # na.exclude pads the training scores, and augment() lines them up with `data`
  d$Sepal.Width[c(2, 9)] <- NA
  fe <- fair_kpca(~ . - Species - size, data = d, group = Species, k = 2, na.action = na.exclude)
  expect_equal(nrow(fe$x), 150L)
  expect_true(all(is.na(fe$x[c(2, 9), ])))
  a <- augment(fe, data = d)
  expect_true(all(is.na(a$.fittedKPC1[c(2, 9)])))
  expect_equal(a$.fittedKPC1[-c(2, 9)], unname(fe$x[-c(2, 9), 1]), tolerance = 1e-10)
  # predict() gives a row with a missing value NA scores, the others their own; so does
  # augment() after na.omit, on shuffled rows
  expect_identical(unname(is.na(predict(fe, d[1:10, ])[, 1])), 1:10 %in% c(2, 9))
  fo <- fair_kpca(~ . - Species - size, data = d, group = Species, k = 2)
  ao <- augment(fo, data = d[10:1, ])
  expect_identical(is.na(ao$.fittedKPC2), 10:1 %in% c(2, 9))
  expect_equal(ao$.fittedKPC2[-c(2, 9)], unname(fe$x[10:1, 2][-c(2, 9)]), tolerance = 1e-10)
  expect_error(predict(fe, transform(d[1:3, ], Sepal.Length = Inf)), class = "fairproj_input_error")
  expect_error(fair_kpca(~ ., data = iris, k = 2), class = "fairproj_input_error")
  # an argument the method does not take is refused by name, before it is evaluated
  expect_error(fair_kpca(iris_x, iris_g, k = 2, kernal = stop("evaluated")), class = "fairproj_input_error",
               regexp = "kernal")
  expect_error(fair_kpca(~ . - Species, data = iris, group = Species, k = 2, weights = Sepal.Length),
               class = "fairproj_input_error", regexp = "weights")
})

test_that("fair_kpca(): plot() and autoplot() draw the scores and the scree from one frame", {
  fit <- fair_kpca(iris_x, iris_g, k = 3)
  pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  sc <- plot(fit)
  expect_equal(nrow(sc), 150L)
  expect_equal(levels(sc$group), levels(iris_g))
  expect_equal(sc$y, unname(fit$x[, 2]))
  sc13 <- plot(fit, "scores", choices = c(1, 3))
  expect_equal(sc13$y, unname(fit$x[, 3]))
  sp <- plot(fit, "scree")
  expect_equal(sp$value, tidy(fit)$percent)
  expect_error(plot(fit, "scores", choices = c(1, 4)), class = "fairproj_input_error")
  expect_error(plot(fit, "errors"), class = "fairproj_input_error")
  expect_equal(as.data.frame(tidy(fit, "plot", type = "scree")), as.data.frame(unclass(sp))[names(sp)],
               ignore_attr = TRUE)
  skip_if_not_installed("ggplot2")
  expect_s3_class(ggplot2::autoplot(fit), "ggplot")
  expect_s3_class(ggplot2::autoplot(fit, "scree"), "ggplot")
})

test_that("fair_css: glance() is one row and augment() gives each row's squared error", {
  skip_if_not_installed("generics")
  set.seed(1)
  x <- matrix(rnorm(120 * 6), 120, 6) %*% matrix(rnorm(36), 6)
  g <- rep(c("a", "b"), 60)
  fit <- fair_css(x, g, k = 2)
  gl <- glance(fit)
  expect_equal(nrow(gl), 1L)
  expect_equal(gl$max_loss, fit$loss)
  expect_equal(gl$loss_gap, diff(range(fit$group_stats$ratio)))
  expect_identical(gl$c, fit$c)
  expect_identical(gl$nobs, 120L)
  # the squares summed over a group's rows are that group's squared error
  a <- augment(fit, data = as.data.frame(x), group = g)
  expect_equal(sqrt(as.vector(tapply(a$.sq_error, g, sum))), fit$group_stats$error, tolerance = 1e-8)
  # each row needs only its own values: any order, any subset, the same errors
  i <- c(7, 3, 100)
  b <- augment(fit, newdata = as.data.frame(x)[i, ], group = g[i])
  expect_equal(b$.sq_error, a$.sq_error[i], tolerance = 1e-10)
  expect_identical(b$.rownames, as.character(i))
  expect_error(augment(fit), class = "fairproj_input_error")
  # a formula fit with scaling: the group column is found in the data, units as the fit's
  fs <- fair_css(~ . - Species, data = iris, group = Species, k = 2, scale. = TRUE)
  as <- augment(fs, data = iris)
  expect_identical(names(as), c(".rownames", names(iris), ".sq_error"))
  expect_equal(sqrt(as.vector(tapply(as$.sq_error, iris$Species, sum))), fs$group_stats$error,
               tolerance = 1e-8)
  d <- iris
  d$Sepal.Width[4] <- NA
  expect_true(is.na(augment(fs, data = d)$.sq_error[4]))
})

test_that("a matrix column of a data.frame is named alike in the fit and in newdata", {
  d <- iris[1:2]
  d$m <- as.matrix(iris[3:4])
  fit <- fair_pca(d, iris_g, k = 2)
  expect_identical(rownames(fit$rotation), c("Sepal.Length", "Sepal.Width", "m.Petal.Length", "m.Petal.Width"))
  # by position, the same columns
  expect_equal(predict(fit, d), predict(fit, unname(iris_x)), ignore_attr = TRUE)
  expect_equal(reconstruct(fit, d[5:1, ]), reconstruct(fit, unname(iris_x)[5:1, ]), ignore_attr = TRUE)
  # columns matched by name: reordered, with an unnamed one-column matrix and extra columns
  d2 <- data.frame(extra = 1, m = I(as.matrix(iris[3:4])), iris[2:1])
  expect_equal(predict(fit, d2), predict(fit, d), ignore_attr = TRUE)
  u <- iris[1:2]
  u$u <- unname(as.matrix(iris[3:4]))
  fu <- fair_pca(u, iris_g, k = 2, method = "standard")
  expect_identical(rownames(fu$rotation)[3:4], c("u.1", "u.2"))
  expect_equal(predict(fu, u), fu$x)
  cs <- fair_css(d, iris_g, k = 2)
  expect_equal(predict(cs, d), predict(cs, unname(iris_x)), ignore_attr = TRUE)
  kf <- fair_kpca(d, iris_g, k = 2)
  expect_equal(predict(kf, d), kf$x)
  expect_error(predict(fit, d[1:2]), class = "fairproj_newdata_error")
})

test_that("a duplicated column name in a file's header is a classed error naming it", {
  skip_if_not_installed("readr")
  f <- tempfile(fileext = ".csv")
  on.exit(unlink(f))
  writeLines(c("a,b,a,g", "1,2,3,x", "4,5,6,y", "7,8,9,x"), f)
  expect_no_warning(e <- tryCatch(group_moments(f, "g"), error = function(e) e))
  expect_s3_class(e, "fairproj_source_error")
  expect_match(conditionMessage(e), "'a'")
  expect_error(group_moments(f, "g", columns = "b"), class = "fairproj_source_error")
  # the same file with distinct names reads
  writeLines(c("a,b,c,g", "1,2,3,x", "4,5,6,y", "7,8,9,x"), f)
  expect_equal(group_moments(f, "g")$colnames, c("a", "b", "c"))
})

test_that("an empty group label is an error in memory, as in files", {
  x <- iris_x[1:6, ]
  g <- c("a", "", "b", "a", "b", "")
  expect_error(group_moments(x, g), class = "fairproj_input_error", regexp = "group")
  expect_error(group_moments(x, factor(g)), class = "fairproj_input_error")
  expect_error(fair_pca(iris_x, ifelse(iris_g == "setosa", "", "other"), k = 2), class = "fairproj_input_error")
  expect_error(fair_css(iris_x, ifelse(iris_g == "setosa", "", "other"), k = 2), class = "fairproj_input_error")
  d <- iris
  d$Species <- as.character(d$Species)
  d$Species[3] <- ""
  expect_error(fair_pca(~ . - Species, data = d, group = Species, k = 2), class = "fairproj_input_error")
  skip_if_not_installed("readr")
  f <- tempfile(fileext = ".csv")
  on.exit(unlink(f))
  utils::write.csv(data.frame(x, g = g), f, row.names = FALSE)
  expect_error(group_moments(f, "g"), class = "fairproj_source_error")
  # a label that is not empty reads the same in both doors
  g2 <- c("a", " ", "b", "a", "b", " ")
  utils::write.csv(data.frame(x, g = g2), f, row.names = FALSE)
  expect_equal(group_moments(f, "g", trim_ws = FALSE)$n, group_moments(x, g2)$n)
})

test_that("as.prcomp(): sdev as prcomp(rank. = k), true proportions, factoextra as on prcomp", {
  d5 <- make_groups(d = 5)
  d7 <- make_groups(d = 7)
  d10 <- make_groups(d = 10)
  cases <- list(
    list(x = iris_x, g = iris_g, k = 2, method = "minmax"),  # leaves out more than its PC2
    list(x = iris_x, g = iris_g, k = 1, method = "minmax"),
    list(x = iris_x, g = iris_g, k = 3, method = "minmax"),
    list(x = d5$x, g = d5$g, k = 2, method = "standard"),
    list(x = d7$x, g = d7$g, k = 3, method = "mean"),
    list(x = d10$x, g = d10$g, k = 3, method = "minmax")      # the case of #45
  )
  for (cs in cases) {
    cs$fit <- fair_pca(cs$x, cs$g, k = cs$k, method = cs$method)
    f <- cs$fit
    k <- f$k
    d <- ncol(cs$x)
    p <- as.prcomp(f)
    info <- sprintf("d = %d, k = %d, %s", d, k, f$method)
    expect_length(p$sdev, d)
    expect_identical(ncol(p$rotation), as.integer(k))
    expect_equal(p$sdev[seq_len(k)], f$sdev, info = info)
    expect_equal(sum(p$sdev^2), f$totalvar, tolerance = 1e-10, info = info)
    # no two entries after k are equal by construction (the old padding was flat)
    if (d - k > 1L) expect_true(all(abs(diff(p$sdev[-seq_len(k)])) > 1e-8 * p$sdev[1]), info = info)
    # summary.prcomp's proportions are the true fractions (rounded to 5 digits there)
    imp <- summary(p)$importance
    expect_equal(unname(imp["Proportion of Variance", seq_len(k)]), round(f$sdev^2 / f$totalvar, 5),
                 info = info)
  }
  # the standard fit has prcomp's spectrum
  dat <- make_groups(d = 6)
  s <- as.prcomp(fair_pca(dat$x, dat$g, k = 2, method = "standard"))
  expect_equal(s$sdev, stats::prcomp(dat$x)$sdev, tolerance = 1e-8)

  skip_on_cran()  # drawing factoextra plots: seconds of CPU, kept out of CRAN's time budget
  skip_if_not_installed("factoextra")
  pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  warns <- function(p, fun) {
    # drawn too: factoextra's warnings come when the plot is built
    w <- character(0)
    withCallingHandlers(print(getExportedValue("factoextra", fun)(p)), warning = function(cnd) {
      w <<- c(w, conditionMessage(cnd))
      invokeRestart("muffleWarning")  # collected, and compared below
    })
    w
  }
  for (cs in cases) {
    # factoextra's individual plots need two components (they fail on prcomp(rank. = 1) too)
    if (cs$k < 2L) next
    p <- as.prcomp(fair_pca(cs$x, cs$g, k = cs$k, method = cs$method))
    ref <- stats::prcomp(cs$x, rank. = cs$k)
    info <- sprintf("d = %d, k = %d", ncol(cs$x), cs$k)
    # the scree plot is quiet; the other plots warn exactly when they do on prcomp(rank. = k)
    expect_identical(warns(p, "fviz_eig"), character(0), info = info)
    for (fun in c("fviz_pca_var", "fviz_pca_ind", "fviz_pca_biplot")) {
      expect_identical(length(warns(p, fun)) > 0L, length(warns(ref, fun)) > 0L,
                       info = sprintf("%s, %s", fun, info))
    }
    eig <- factoextra::get_eigenvalue(p)
    expect_equal(eig$variance.percent, 100 * p$sdev^2 / sum(p$sdev^2))
    expect_equal(sum(eig$variance.percent), 100 * sum(p$sdev^2) / p$totalvar)
  }
})
