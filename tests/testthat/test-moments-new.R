test_that("new_group_moments() rebuilds the moments of data from counts, means and scatters", {
  dat <- make_groups(n = c(120, 80))
  ref <- group_moments(dat$x, dat$g)
  lv <- levels(dat$g)
  mu <- sapply(lv, function(l) colMeans(dat$x[dat$g == l, ]))
  sc <- lapply(lv, function(l) cov(dat$x[dat$g == l, ]) * (sum(dat$g == l) - 1))
  m <- new_group_moments(c(120, 80), mu, sc, levels = lv)
  expect_s3_class(m, "group_moments")
  expect_identical(m$levels, lv)
  expect_identical(m$colnames, colnames(dat$x))
  expect_equal(m$scatter, ref$scatter, tolerance = 1e-12)
  expect_equal(m$mean, ref$mean, tolerance = 1e-12)
  # an array of scatters, and fits from it
  arr <- simplify2array(sc)
  m2 <- new_group_moments(c(a = 120, b = 80), unname(mu), arr)
  expect_identical(m2$levels, lv)
  expect_identical(m2$colnames, colnames(dat$x))
  f1 <- fair_pca(m, k = 2, method = "mean")
  f2 <- fair_pca(dat$x, dat$g, k = 2, method = "mean")
  expect_lt(subspace_dist(f1$rotation, f2$rotation), 1e-8)
  # pieces merge with +
  half <- new_group_moments(80, mu[, "b"], sc[[2]], levels = "b")
  both <- m + half
  expect_equal(unname(both$n), c(120, 160))
  expect_equal(both$scatter$b, 2 * sc[[2]], tolerance = 1e-12, ignore_attr = TRUE)
})

test_that("new_group_moments() rejects inconsistent or impossible statistics", {
  s <- diag(3)
  mu <- matrix(0, 3, 2)
  expect_error(new_group_moments(c(10, 0), mu, list(s, s)), class = "fairproj_input_error", regexp = "`n`")
  expect_error(new_group_moments(c(10, NA), mu, list(s, s)), class = "fairproj_input_error", regexp = "`n`")
  expect_error(new_group_moments(c(10, 5), mu[, 1], list(s, s)), class = "fairproj_input_error", regexp = "`mean`")
  expect_error(new_group_moments(c(10, 5, 3), mu, list(s, s)), class = "fairproj_input_error", regexp = "`mean`")
  expect_error(new_group_moments(c(10, 5), mu, list(s)), class = "fairproj_input_error", regexp = "`scatter`")
  expect_error(new_group_moments(c(10, 5), mu, list(s, diag(2))), class = "fairproj_input_error", regexp = "3 x 3")
  asym <- s
  asym[1, 2] <- 0.5
  expect_error(new_group_moments(c(10, 5), mu, list(s, asym)), class = "fairproj_input_error", regexp = "symmetric")
  indef <- matrix(c(1, 2, 0, 2, 1, 0, 0, 0, 1), 3)
  expect_error(new_group_moments(c(10, 5), mu, list(s, indef)), class = "fairproj_input_error",
               regexp = "positive semidefinite")
  expect_error(new_group_moments(c(10, 5), mu, list(s, s), levels = c("a", "a")), class = "fairproj_input_error",
               regexp = "`levels`")
  expect_error(new_group_moments(c(10, 5), mu, list(s, s), colnames = c("u", "v")), class = "fairproj_input_error",
               regexp = "`colnames`")
  # a rounding-level negative eigenvalue is accepted (within tolerance)
  near <- tcrossprod(c(1, 1, 0))
  near[3, 3] <- -1e-14
  expect_s3_class(new_group_moments(c(10, 5), mu, list(s, near)), "group_moments")
})

test_that("new_group_moments() refuses levels and colnames that are not labels (a function, a list)", {
  for (bad in list(function(x) x, list("a", "b"), quote(a))) {
    expect_error(new_group_moments(c(1, 1), matrix(0, 2, 2), array(0, c(2, 2, 2)), levels = bad), "^`levels`",
                 class = "fairproj_input_error")
    expect_error(new_group_moments(c(1, 1), matrix(0, 2, 2), array(0, c(2, 2, 2)), colnames = bad), "^`colnames`",
                 class = "fairproj_input_error")
  }
})

test_that("group_moments() takes a group column of a data.frame by name", {
  m <- group_moments(iris, "Species")
  ref <- group_moments(iris[, 1:4], iris$Species)
  expect_equal(m$scatter, ref$scatter, tolerance = 1e-12)
  expect_identical(m$colnames, colnames(iris)[1:4])
  expect_error(group_moments(iris, "nope"), class = "fairproj_input_error", regexp = "nope")
})

test_that("NA and Inf are found in the C++ pass, with the usual messages", {
  dat <- make_groups()
  x <- dat$x
  x[3, 2] <- NA
  x[5, 1] <- NaN
  expect_error(group_moments(x, dat$g), class = "fairproj_input_error", regexp = "2 missing value")
  x <- dat$x
  x[7, 3] <- -Inf
  expect_error(fair_pca(x, dat$g, k = 2), class = "fairproj_input_error", regexp = "1 infinite value")
  expect_error(group_moments(x, dat$g), class = "fairproj_input_error", regexp = "`x`")
})

test_that("the one-pass kernel is exact for every buffer size and many groups", {
  dat <- make_groups(n = c(700, 5, 300, 1), d = 7, shift = 1e8)
  ref <- lapply(levels(dat$g), function(l) {
    xl <- dat$x[dat$g == l, , drop = FALSE] - 1e8
    crossprod(sweep(xl, 2, colMeans(xl)))
  })
  for (b in list(NULL, 16L, 100L, 5000L)) {
    m <- group_moments(dat$x, dat$g, block = b)
    for (i in seq_along(ref)) {
      expect_lt(max(abs(m$scatter[[i]] - ref[[i]])), 1e-9 * max(1, max(abs(ref[[i]]))))
    }
    expect_equal(unname(m$mean[, "a"]), unname(colMeans(dat$x[dat$g == "a", ])), tolerance = 1e-15)
  }
})

test_that("fair_pca() training scores equal predict() without copying the data", {
  dat <- make_groups(n = c(150, 100), shift = 50)
  for (sc in c(FALSE, TRUE)) {
    fit <- fair_pca(dat$x, dat$g, k = 3, method = "mean", scale. = sc)
    expect_equal(fit$x, predict(fit, dat$x), tolerance = 1e-10)
  }
  fit <- fair_pca(dat$x, dat$g, k = 2, center = FALSE)
  expect_equal(unname(fit$x), unname(dat$x %*% fit$rotation), tolerance = 1e-12)
})

test_that("fair_pca() on a matrix needs at most 1.5 times the data beyond the data", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  set.seed(1)
  n <- 2e5
  d <- 20
  x <- matrix(rnorm(n * d), n, d)
  g <- rep(c("a", "b"), n / 2)
  size <- as.numeric(object.size(x))
  fit <- fair_pca(x[1:100, ], g[1:100], k = 2)  # load and warm up everything
  rm(fit)
  invisible(gc(reset = TRUE))
  before <- sum(gc()[, 2])
  fit <- fair_pca(x, g, k = 2)
  peak <- sum(gc()[, 6])  # "max used" in Mb
  extra <- (peak - before) * 2^20
  expect_lt(extra, 1.5 * size)
  expect_equal(dim(fit$x), c(n, 2))
})

test_that("new_group_moments refuses sizes that are not row counts, a spread for one row, and an empty label", {
  mu <- matrix(c(1, 2, 3, 4), 2, 2)
  sc <- list(diag(2), diag(2))
  expect_error(new_group_moments(c(1.5, 3), mu, sc), "^`n` must be whole numbers of rows, not 1.5", class = "fairproj_input_error")
  expect_error(new_group_moments(c(1, 3), mu, sc), "^`scatter` \\[\\[1\\]\\] \\(group '1'\\) is not zero, but group '1' has 1 row",
               class = "fairproj_input_error")
  expect_s3_class(new_group_moments(c(1, 3), mu, list(matrix(0, 2, 2), diag(2))), "group_moments")
  expect_error(new_group_moments(c(2, 3), mu, sc, levels = c("", "b")), "^`levels` must be 2 distinct, non-missing, non-empty",
               class = "fairproj_input_error")
})
