test_that("group moments match direct computations", {
  dat <- make_groups(n = c(120, 80, 50))
  m <- group_moments(dat$x, dat$g)
  expect_s3_class(m, "group_moments")
  expect_equal(unname(m$n), c(120, 80, 50))
  for (l in levels(dat$g)) {
    xl <- dat$x[dat$g == l, ]
    expect_equal(unname(m$mean[, l]), unname(colMeans(xl)), tolerance = 1e-12)
    expect_equal(unname(moments_crossprod(m)[[l]]), unname(crossprod(xl)), tolerance = 1e-12)
    expect_equal(unname(moments_cov(m)[[l]]), unname(cov(xl) * (nrow(xl) - 1) / nrow(xl)), tolerance = 1e-12)
    expect_equal(unname(moments_cov(m, unbiased = TRUE)[[l]]), unname(cov(xl)), tolerance = 1e-12)
  }
  expect_equal(unname(moments_mean(m, pooled = TRUE)), unname(colMeans(dat$x)), tolerance = 1e-12)
  expect_equal(unname(moments_cov(m, "global", pooled = TRUE, unbiased = TRUE)), unname(cov(dat$x)), tolerance = 1e-12)
  expect_equal(unname(moments_sums(m)[, "b"]), unname(colSums(dat$x[dat$g == "b", ])), tolerance = 1e-12)
  # uncentred second moments per group
  xa <- dat$x[dat$g == "a", ]
  expect_equal(unname(moments_cov(m, "none")$a), unname(crossprod(xa) / nrow(xa)), tolerance = 1e-12)
})

test_that("both Gram backends give the same moments", {
  dat <- make_groups(n = c(300, 100), d = 9)
  old <- options(fairproj.backend = "blas")
  on.exit(options(old))
  m1 <- group_moments(dat$x, dat$g, block = 16)
  options(fairproj.backend = "eigen")
  m2 <- group_moments(dat$x, dat$g, block = 64)
  expect_equal(m1$scatter, m2$scatter, tolerance = 1e-12)
  expect_equal(fairproj_backend()$backend, "eigen")
  options(fairproj.backend = "nonsense")
  expect_error(fairproj_backend(), class = "fairproj_input_error")
})

test_that("moments of chunks combine exactly (c and +), also with a group missing from a chunk", {
  dat <- make_groups(n = c(100, 60, 40))
  full <- group_moments(dat$x, dat$g)
  idx <- split(seq_len(nrow(dat$x)), rep(1:3, length.out = nrow(dat$x)))
  parts <- lapply(idx, function(i) group_moments(dat$x[i, ], dat$g[i]))
  merged <- do.call(c, unname(parts))
  expect_equal(merged$n, full$n)
  expect_equal(merged$mean, full$mean, tolerance = 1e-12)
  expect_equal(merged$scatter, full$scatter, tolerance = 1e-10)
  only_a <- dat$g == "a"
  m2 <- group_moments(dat$x[only_a, ], dat$g[only_a]) + group_moments(dat$x[!only_a, ], dat$g[!only_a])
  expect_setequal(m2$levels, full$levels)
  expect_equal(m2$scatter[full$levels], full$scatter, tolerance = 1e-10)
  other <- group_moments(dat$x[, 1:3], dat$g)
  expect_error(full + other, class = "fairproj_input_error")
})

test_that("+ and c() give the levels in one order whatever the order of the pieces", {
  set.seed(1)
  x <- matrix(rnorm(60), 20)
  g <- rep(c("a", "b"), 10)
  p1 <- group_moments(x[1:4, ], rep("b", 4))
  p2 <- group_moments(x[5:20, ], g[5:20])
  full <- group_moments(x, c(rep("b", 4), g[5:20]))
  for (m in list(p1 + p2, p2 + p1, c(p1, p2), c(p2, p1))) {
    expect_identical(m$levels, full$levels)
    expect_identical(names(m$n), full$levels)
    expect_identical(colnames(m$mean), full$levels)
    expect_identical(names(m$scatter), full$levels)
    expect_lte(moments_err(m, full), 1e-13)
  }
  # numbers sort as numbers, as the doors sort them
  q <- group_moments(x[1:10, ], rep("10", 10)) + group_moments(x[11:20, ], rep("9", 10))
  expect_identical(q$levels, c("9", "10"))
  # pieces of one factor with the same levels keep the factor's order
  f <- factor(g, levels = c("b", "a"))
  expect_identical((group_moments(x[1:10, ], f[1:10]) + group_moments(x[11:20, ], f[11:20]))$levels, c("b", "a"))
})

test_that("moments over other columns name the argument that differs", {
  set.seed(2)
  x <- matrix(rnorm(60), 20, dimnames = list(NULL, c("a", "b", "c")))
  m <- group_moments(x, rep(c("p", "q"), 10))
  m2 <- group_moments(x[, 1:2], rep(c("p", "q"), 10))
  m3 <- group_moments(x[, c(2, 1, 3)], rep(c("p", "q"), 10))
  expect_error(m + m2, class = "fairproj_input_error", regexp = "^`e2` covers other columns than `e1`")
  expect_error(m + m3, class = "fairproj_input_error", regexp = "^`e2` has the columns of `e1` in another order")
  expect_error(c(m, m, m2), class = "fairproj_input_error", regexp = "^`...` has an element \\(2\\)")
  expect_error(m + 1, class = "fairproj_input_error", regexp = "^`e2`")
})

test_that("a level held with no rows by one piece merges as absent (#36)", {
  set.seed(3)
  x <- matrix(rnorm(12), 3)
  one <- group_moments(x, factor(c("a", "a", "b")))
  # an internal piece that lists level "b" with no rows (its mean is zero, no data)
  empty_b <- fairproj:::fp_new_moments(c(2, 0), cbind(colMeans(x[1:2, ]) + 1, 0),
                                       list(crossprod(scale(x[1:2, ], scale = FALSE)), matrix(0, 4, 4)),
                                       c("a", "b"), one$colnames)
  for (m in list(one + empty_b, empty_b + one)) {
    expect_equal(m$n[["b"]], 1)
    expect_equal(unname(m$mean[, "b"]), x[3, ], tolerance = 1e-15)
    expect_true(all(m$scatter$b == 0))
    expect_equal(m$n[["a"]], 4)
  }
})

test_that("print() shows a group with no rows as 0 rows and '-', in numbers as in text", {
  e <- moments_empty_group()
  m <- e$moments
  x <- e$x
  out <- capture.output(print(m))
  expect_identical(moments_row(out, "b"), c("b", "0", "-"))
  expect_equal(as.numeric(moments_row(out, "a")[3L]), signif(sum(apply(x, 2, var)) * 2 / 3, 4))
  # text mode (a total beyond double range): the same "-", never <NA>
  dat <- make_groups(n = c(60, 40), d = 3)
  xf <- dat$x
  xf[, 1] <- xf[, 1] * 1e200
  far <- fair_pca(xf, dat$g, 1, method = "standard", scale. = TRUE)$moments
  d <- length(far$colnames)
  far$n <- c(far$n, c = 0)
  far$levels <- c(far$levels, "c")
  far$mean <- cbind(far$mean, c = 0)
  if (!is.null(far$mean_lo)) far$mean_lo <- cbind(far$mean_lo, c = 0)
  far$scatter <- c(far$scatter, list(c = matrix(0, d, d)))
  out <- capture.output(print(far))
  expect_false(any(grepl("NA", out)))
  expect_identical(moments_row(out, "c"), c("c", "0", "-"))
  expect_match(moments_row(out, "a")[3L], "e\\+(399|400)$")
})

test_that("moments stay accurate for columns with a large offset", {
  dat <- make_groups(n = c(500, 400), d = 4, seed = 3)
  m0 <- group_moments(dat$x, dat$g)
  m1 <- group_moments(dat$x + 1e8, dat$g)
  # reference: R's cov() of the shifted data (two-pass, extended-precision centring)
  xs <- dat$x + 1e8
  for (l in levels(dat$g)) {
    ref <- cov(xs[dat$g == l, ])
    got <- moments_cov(m1, unbiased = TRUE)[[l]]
    expect_lt(max(abs(got - ref)) / max(abs(ref)), 1e-12)
    expect_equal(unname(moments_mean(m1)[, l]), unname(colMeans(xs[dat$g == l, ])), tolerance = 1e-15)
  }
  # the naive uncentred formula loses everything at this offset
  xa <- dat$x[dat$g == "a", ] + 1e8
  naive <- (crossprod(xa) - tcrossprod(colSums(xa)) / nrow(xa)) / (nrow(xa) - 1)
  expect_gt(max(abs(naive - cov(dat$x[dat$g == "a", ]))), 1e-3)
})

test_that("best rank-k errors are the eigenvalue tails", {
  dat <- make_groups(n = c(90, 70), d = 5)
  m <- group_moments(dat$x, dat$g)
  be <- moments_best_error(m, k = 0:5)
  expect_equal(dim(be), c(6L, 2L))
  ev <- eigen(moments_cov(m)$a, symmetric = TRUE)$values
  expect_equal(unname(be[, "a"]), rev(cumsum(rev(c(ev, 0))))[1:6], tolerance = 1e-10)
  expect_true(all(diff(be[, "b"]) <= 1e-12))
  expect_error(moments_best_error(m, 6), class = "fairproj_input_error")
})

test_that("print method shows groups", {
  dat <- make_groups()
  expect_output(print(group_moments(dat$x, dat$g)), "2 groups")
})

test_that("mostly-zero columns take the sparse route, with the dense route's moments", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  # one-hot codes, counts and a few numeric columns with offsets: columns with at most half
  # non-zero entries in every group are summed over their non-zeros (not centred), the rest
  # centred as usual; both must give the same moments to rounding, exact counts, and
  # variances that are never negative, also where a code is constant in a group
  set.seed(7)
  n <- 3000
  f <- factor(sample(letters[1:9], n, TRUE))
  g <- factor(sample(c("u", "v", "w", "tiny"), n, TRUE, prob = c(0.5, 0.3, 0.2, 0.002)))
  oh <- model.matrix(~ f - 1)
  x <- cbind(age = rnorm(n, 40, 10), income = rexp(n) * 1e5 + 1e9, oh, cnt = rpois(n, 0.3) * 1e7,
             neg = -3 * rbinom(n, 1, 0.2), in_v = as.numeric(g == "v"), half = rep(0:1, length.out = n),
             same = rbinom(n, 1, 0.1) * 0.00871)
  ns <- asNamespace("fairproj")
  dense <- ns$fp_moments_dense(x, g, colnames(x), sparse = 0L)
  sparse <- ns$fp_moments_dense(x, g, colnames(x), sparse = 1L)
  auto <- group_moments(x, g)
  expect_identical(sparse$n, dense$n)
  for (l in levels(g)) {
    s <- sqrt(pmax(diag(dense$scatter[[l]]), 1e-300))
    expect_lt(max(abs(sparse$scatter[[l]] - dense$scatter[[l]]) / outer(s, s)), 1e-12)
    expect_lt(max(abs(auto$scatter[[l]] - dense$scatter[[l]]) / outer(s, s)), 1e-12)
    expect_true(all(diag(sparse$scatter[[l]]) >= 0))
    expect_equal(sparse$mean[, l], dense$mean[, l], tolerance = 1e-14)
    # the direct computation
    xl <- x[g == l, , drop = FALSE]
    expect_equal(unname(sparse$scatter[[l]]), unname(crossprod(sweep(xl, 2L, colMeans(xl)))), tolerance = 1e-10)
  }
  # in_v is 1 on every row of group v: centred there (a variance of exactly 0), not summed raw
  expect_identical(sparse$scatter$v["in_v", "in_v"], 0)
  # merges of chunks taken by different routes agree with the whole
  i <- seq_len(n) <= 1000
  parts <- ns$fp_moments_dense(x[i, ], g[i], colnames(x), sparse = 1L) +
    ns$fp_moments_dense(x[!i, ], g[!i], colnames(x), sparse = 0L)
  expect_equal(parts$scatter, dense$scatter, tolerance = 1e-10)
  expect_equal(parts$mean, dense$mean, tolerance = 1e-13)
  # the route is chosen only where the pass is long (n d^2 / 2 of 5e7 products and more) and
  # the non-zeros are few enough to save time
  route <- function(x, g) isTRUE(ns$.fp_moments_cpp(x, as.integer(g) - 1L, nlevels(g), 0L, -1L, -1L)$sparse)
  expect_false(route(x, g))
  big_f <- factor(sample(letters, 150000, TRUE))
  big <- cbind(model.matrix(~ big_f - 1), z = rnorm(150000), w = rpois(150000, 0.1))
  big_g <- factor(sample(c("a", "b"), 150000, TRUE))
  expect_true(route(big, big_g))
  expect_false(route(matrix(rnorm(150000 * 40), 150000), big_g))  # no mostly-zero column
  md <- ns$fp_moments_dense(big, big_g, colnames(big), sparse = 0L)
  ma <- group_moments(big, big_g)
  for (l in levels(big_g)) {
    s <- sqrt(diag(md$scatter[[l]]))
    expect_lt(max(abs(ma$scatter[[l]] - md$scatter[[l]]) / outer(s, s)), 1e-12)
  }
})

test_that("the one-pass route gives the two-pass route's moments, accurate at large offsets (#36)", {
  # the one-pass route centres each group about the mean of its first rows: against R's cov()
  # (extended-precision centring) and the two-pass route, on columns of mixed scales around
  # large offsets, groups whose first rows come late, a group of one row, blocks of 16 rows
  ns <- asNamespace("fairproj")
  set.seed(36)
  n <- 700
  g <- factor(c(rep("late", 3), sample(c("a", "b", "c"), n - 4, TRUE, prob = c(0.6, 0.3, 0.1)), "one"))
  x <- sweep(matrix(rnorm(n * 5), n), 2L, 10^c(-3, 0, 2, 0, -1), `*`)
  x <- sweep(x, 2L, c(1e8, -3e6, 0, 1e-4, 5), `+`)
  x[g == "late", ] <- x[g == "late", ] + 1e3  # the first three rows: a group of its own, far off
  cn <- paste0("v", 1:5)
  one <- ns$fp_moments_dense(x, g, cn, onepass = 1L, block = 16L)
  two <- ns$fp_moments_dense(x, g, cn, onepass = 0L)
  one_auto <- ns$.fp_moments_cpp(x, as.integer(g) - 1L, nlevels(g), 16L, -1L, 1L)
  expect_true(isTRUE(one_auto$onepass))
  expect_null(ns$.fp_moments_cpp(x, as.integer(g) - 1L, nlevels(g), 16L, -1L, 0L)$onepass)
  expect_lte(moments_err(one, two), 1e-13)
  for (l in setdiff(levels(g), "one")) {
    xl <- x[g == l, , drop = FALSE]
    # cov() centres about its mean rounded to a double, which at 1e8 is 1e-5 of a spread of
    # 1e-3 off: the reference takes the offsets off first (exactly, as the values are close)
    xs <- xl - rep(c(1e8, -3e6, 0, 0, 0), each = nrow(xl))
    ref <- cov(xs) * (nrow(xl) - 1)
    s <- sqrt(diag(ref))
    expect_lt(max(abs(one$scatter[[l]] - ref) / outer(s, s)), 1e-12)
    # the mean to 1e-14 of the spread, beyond one unit in the last place
    mu <- colMeans(xl)
    expect_lt(max(pmax(abs(one$mean[, l] - mu) - .Machine$double.eps * abs(mu), 0) / (s / sqrt(nrow(xl)))), 1e-14)
  }
  expect_identical(unname(one$scatter$one), matrix(0, 5, 5))
  expect_identical(unname(one$mean[, "one"]), x[n, ])
  # chunks taken by either route merge into the whole
  i <- seq_len(n) <= 300
  parts <- ns$fp_moments_dense(x[i, ], droplevels(g[i]), cn, onepass = 1L) +
    ns$fp_moments_dense(x[!i, ], droplevels(g[!i]), cn, onepass = 0L)
  parts <- parts[c("n", "mean", "scatter", "levels", "colnames")]
  parts$mean <- parts$mean[, levels(g)]
  parts$scatter <- parts$scatter[levels(g)]
  parts$n <- parts$n[levels(g)]
  parts$levels <- levels(g)
  expect_lte(moments_err(parts, two), 1e-12)
  # NA and Inf are counted on this route too, and a classed error names them
  y <- x
  y[5, 2] <- NA
  y[9, 4] <- -Inf
  res <- ns$.fp_moments_cpp(y, as.integer(g) - 1L, nlevels(g), 0L, -1L, 1L)
  expect_identical(c(res$n_na, res$n_inf), c(1, 1))
  expect_error(ns$fp_moments_dense(y, g, cn, onepass = 1L), class = "fairproj_input_error")
})

test_that("long passes take one pass, and the sparse route is chosen exactly as before (#36)", {
  skip_on_cran()  # a second of CPU
  ns <- asNamespace("fairproj")
  route <- function(x, g) ns$.fp_moments_cpp(x, as.integer(g) - 1L, nlevels(g), 0L, -1L, -1L)
  set.seed(361)
  n <- 70000
  g <- factor(sample(c("a", "b"), n, TRUE))
  x <- matrix(rnorm(n * 40), n)
  expect_true(isTRUE(route(x, g)$onepass))
  expect_null(route(x[1:2000, 1:10], g[1:2000])$onepass)  # a short pass keeps the two-pass route
  # a mostly-zero column whose zeros start after the first rows: the pass finds it, and the
  # two-pass route's count of non-zeros chooses the sparse route as it always has
  z <- c(rnorm(5000), numeric(n - 5000))
  xz <- cbind(x, z)
  r <- route(xz, g)
  expect_null(r$onepass)
  expect_true(isTRUE(r$sparse))
  m1 <- ns$fp_moments_dense(xz, g, paste0("v", 1:41), onepass = 1L, sparse = 0L)
  for (i in seq_along(levels(g))) {
    s <- sqrt(diag(m1$scatter[[i]]))
    expect_lt(max(abs(r$scatter[[i]] - m1$scatter[[i]]) / outer(s, s)), 1e-12)
  }
})

test_that("two threads give one thread's moments to the last digits, the same every time (#36)", {
  # the one-pass route on two threads (each its own rows, buffers and accumulators, added in
  # order), with both Gram kernels; where OpenMP is missing or one core is all there is, both
  # run one thread and agree trivially
  ns <- asNamespace("fairproj")
  set.seed(362)
  n <- 6000
  g <- factor(sample(c("a", "b", "c"), n, TRUE, prob = c(0.5, 0.3, 0.2)))
  x <- sweep(matrix(rnorm(n * 12), n), 2L, 10^c(-3, rep(0, 10), 2), `*`)
  x <- sweep(x, 2L, c(1e6, rep(0, 10), 3), `+`)
  cn <- paste0("v", 1:12)
  old <- options(fairproj.backend = NULL)
  on.exit(options(old), add = TRUE)
  for (backend in c("eigen", "blas")) {
    options(fairproj.backend = backend)
    one <- ns$fp_moments_dense(x, g, cn, onepass = 1L, threads = 1L)
    two <- ns$fp_moments_dense(x, g, cn, onepass = 1L, threads = 2L)
    expect_lte(moments_err(two, one), 1e-13)
    expect_identical(ns$fp_moments_dense(x, g, cn, onepass = 1L, threads = 2L), two)
  }
  options(old)
  # group_moments() and the option reach the pass; short passes run one thread
  expect_lte(moments_err(group_moments(x, g, threads = 2), group_moments(x, g)), 1e-13)
  old2 <- options(fairproj.threads = 2)
  on.exit(options(old2), add = TRUE)
  expect_identical(group_moments(x[1:500, ], g[1:500]), group_moments(x[1:500, ], g[1:500], threads = 1))
})

test_that("the thread setting is checked, as an argument and as an option (#36)", {
  x <- as.matrix(iris[, 1:4])
  for (bad in list(0, 1.5, -1, NA, "2", c(1, 2), 2000)) {
    err <- expect_error(group_moments(x, iris$Species, threads = bad), class = "fairproj_input_error")
    expect_match(conditionMessage(err), "`threads`", fixed = TRUE)
    old <- options(fairproj.threads = bad)
    err <- expect_error(fair_pca(x, iris$Species, k = 2, method = "standard"), class = "fairproj_input_error")
    options(old)
    expect_match(conditionMessage(err), "fairproj.threads", fixed = TRUE)
  }
  expect_identical(fairproj:::fp_threads(1), 1L)
  expect_lte(fairproj:::fp_threads(1024), 1024L)
})

# Every row and column of the scatter of the columns `cols` exactly 0 in every group (#45).
expect_flat_columns <- function(m, cols) {
  for (i in seq_along(m$levels)) {
    s <- m$scatter[[i]]
    expect_identical(max(abs(s[cols, ])), 0, label = sprintf("group '%s': cross-terms of a constant column", m$levels[i]))
    expect_identical(max(abs(s[, cols])), 0)
  }
}

test_that("a column constant within a group has exactly zero variance and cross-terms, on every door (#45)", {
  set.seed(1)
  x <- matrix(rnorm(68 * 19), 68) * 1e-40
  x[, 13] <- 0.1
  g <- rep(c("a", "b"), 34)
  m <- group_moments(x, g)
  expect_flat_columns(m, 13)
  expect_identical(unname(m$mean[13, ]), c(0.1, 0.1))
  # the two routes of the dense pass and its threads, and the sparse route
  for (op in list(list(onepass = 0L), list(onepass = 1L), list(onepass = 1L, threads = 2L), list(sparse = 1L))) {
    expect_flat_columns(do.call(fairproj:::fp_moments_dense, c(list(x, factor(g), paste0("V", 1:19)), op)), 13)
  }
  expect_flat_columns(group_moments(as.data.frame(x), g), 13)
  # pieces merged, and a list of chunks
  expect_flat_columns(group_moments(x[1:30, ], g[1:30]) + group_moments(x[31:68, ], g[31:68]), 13)
  df <- data.frame(x, grp = g)
  expect_flat_columns(group_moments(list(df[1:25, ], df[26:68, ]), "grp"), 13)
  # one value per group, constant only within each group
  x2 <- x
  x2[, 13] <- ifelse(g == "a", 0.1, 0.7)
  expect_flat_columns(group_moments(x2, g), 13)
  expect_gt(group_moments(x2, rep("all", 68))$scatter[[1]][13, 13], 0)
  # moments built by hand whose zero variance comes with rounding in the cross-terms
  s <- m$scatter$a
  s[13, -13] <- s[-13, 13] <- 1e-6 * diag(s)[-13]  # within the check's tolerance
  mh <- new_group_moments(n = 34, mean = m$mean[, 1], scatter = s)
  expect_flat_columns(mh, 13)
  # a sparse matrix
  skip_if_not_installed("Matrix")
  xs <- Matrix::Matrix(x, sparse = TRUE)
  expect_flat_columns(group_moments(xs, g), 13)
})

test_that("a huge constant column beside a varying one: exact zero cross-terms (#45)", {
  y <- cbind(a = 1.69757e94, b = c(-5.9e59, 1.77e60, 2e59, 3e58, -1e59, 6e59, 2.2e59, -3.3e59, 9e58, 1.1e60))
  gy <- rep(c("u", "v"), 5)
  m <- group_moments(y, gy)
  expect_flat_columns(m, "a")
  for (i in 1:2) {
    b <- y[gy == m$levels[i], "b"]
    expect_equal(m$scatter[[i]]["b", "b"], sum((b - mean(b))^2), tolerance = 1e-12)
  }
})

test_that("fits on data with a constant column report no negative loss (#45)", {
  set.seed(1)
  x <- matrix(rnorm(68 * 19), 68) * 1e-40
  x[, 13] <- 0.1
  g <- rep(c("a", "b"), 34)
  ref <- fair_pca(x[, -13], g, k = 2, method = "standard")
  for (meth in c("standard", "minmax", "mean", "inlp")) {
    fit <- suppressWarnings(fair_pca(x, g, k = 2, method = meth))
    gs <- fit$group_stats
    expect_true(all(gs$error > 0), label = paste(meth, "group errors positive"))
    expect_true(all(gs$loss >= -1e-12 * gs$error), label = paste(meth, "losses not negative"))
    if (meth == "standard") expect_equal(gs$error, ref$group_stats$error, tolerance = 1e-8)
  }
})

test_that("moments_cov(unbiased = TRUE) refuses a group of one row, and pooled without degrees of freedom", {
  x <- matrix(c(1, 2, 3, 5, 7, 11), 3, 2)
  m <- group_moments(x, c("a", "b", "b"))
  expect_error(moments_cov(m, unbiased = TRUE), "^`unbiased` has group 'a' with 1 row", class = "fairproj_input_error")
  expect_equal(moments_cov(m)$a, matrix(0, 2, 2, dimnames = list(c("V1", "V2"), c("V1", "V2"))))
  expect_equal(moments_cov(m, unbiased = TRUE, pooled = TRUE, center = "global"), cov(x), ignore_attr = TRUE)
  m2 <- group_moments(x[1:2, ], c("a", "b"))
  expect_error(moments_cov(m2, pooled = TRUE, unbiased = TRUE), "^`unbiased` leaves 0 degrees of freedom",
               class = "fairproj_input_error")
})

test_that("a group_moments object whose parts disagree is an error naming the argument, never recycled", {
  set.seed(1)
  x <- matrix(rnorm(600), 100, 6, dimnames = list(NULL, paste0("c", 1:6)))
  g <- rep(c("a", "b"), 50)
  good <- group_moments(x, g)
  bad <- list(
    scatter = within(unclass(good), scatter[[1]] <- scatter[[1]][1:3, 1:3]),
    mean = within(unclass(good), mean <- mean[1:3, ]),
    n = within(unclass(good), n <- c(a = 50)),
    levels = within(unclass(good), levels <- "a"),
    colnames = within(unclass(good), colnames <- colnames[-1])
  )
  for (b in bad) {
    b <- structure(b, class = class(good))
    expect_error(moments_mean(b), "^`m` is a group_moments object whose parts do not agree", class = "fairproj_input_error")
    expect_error(moments_best_error(b, 1), "^`m` is a group_moments object whose parts", class = "fairproj_input_error")
    expect_error(b + good, "^`e1` is a group_moments object whose parts", class = "fairproj_input_error")
    expect_error(fair_pca(b, k = 2), "^`x` is a group_moments object whose parts", class = "fairproj_input_error")
    expect_error(fair_css(b, k = 2), "^`x` is a group_moments object whose parts", class = "fairproj_input_error")
  }
})

test_that("rows near the largest double are fitted: the first pass's overflowed sums do not stop the ranging", {
  # the first moments pass of such rows overflows (NaN in its compensation terms); the columns
  # are then brought into range by a power of two and the fit is that of the plain data
  set.seed(1)
  x <- matrix(rnorm(240), 60, 4)
  g <- rep(c("a", "b"), 30)
  big <- x / max(abs(x)) * .Machine$double.xmax
  ref <- fair_pca(x, g, k = 2, method = "standard", scale. = TRUE)
  fit <- fair_pca(big, g, k = 2, method = "standard", scale. = TRUE)
  expect_equal(fit$rotation, ref$rotation, tolerance = 1e-10)
  expect_s3_class(pareto_front(big, g, k = 2, restarts = 1, scale. = TRUE), "fairproj_pareto_front")
  # group_moments() of such rows, which keeps the data's units, is the classed overflow error
  expect_error(group_moments(big, g), class = "fairproj_overflow_error")
})

test_that("an argument a method does not take is an error naming `...`, not ignored", {
  set.seed(4)
  df <- data.frame(a = rnorm(20), b = rnorm(20), c = rnorm(20), g = rep(c("p", "q"), 10))
  expect_error(group_moments(df[1:2], df$g, blokcs = 10), class = "fairproj_input_error", regexp = "^`...`.*blokcs")
  expect_error(group_moments(df, "g", colums = "a"), class = "fairproj_input_error", regexp = "^`...`.*colums")
  expect_error(group_moments(as.matrix(df[1:3]), df$g, 5), class = "fairproj_input_error", regexp = "^`...`")
  m <- group_moments(df, "g")
  expect_error(group_moments(m, df$g), class = "fairproj_input_error", regexp = "^`group`")
  expect_error(group_moments(m, blocks = 10), class = "fairproj_input_error", regexp = "^`...`")
  expect_identical(group_moments(m), m)
  # `columns` selects the features of a data.frame, as for files and database tables
  expect_identical(group_moments(df, "g", columns = c("c", "a")), group_moments(df[c("c", "a")], df$g))
  expect_identical(group_moments(df[1:3], df$g, columns = "b"), group_moments(df["b"], df$g))
  expect_error(group_moments(df, "g", columns = c("a", "g")), class = "fairproj_input_error", regexp = "^`columns`")
  expect_error(group_moments(df, "g", columns = "zz"), class = "fairproj_input_error", regexp = "^`columns`")
  expect_error(group_moments(as.matrix(df[1:3]), df$g, columns = "a"), class = "fairproj_input_error", regexp = "^`columns`")
  # a list passes each element the options its method takes; one that none takes is an error
  expect_identical(group_moments(list(df[1:10, ], m), "g", columns = c("a", "b", "c"), threads = 1)$n, m$n + c(5, 5))
  expect_error(group_moments(list(df, m), "g", blokcs = 10), class = "fairproj_input_error", regexp = "^`...`.*blokcs")
  skip_if_not_installed("Matrix")
  expect_error(group_moments(Matrix::Matrix(as.matrix(df[1:3]), sparse = TRUE), df$g, block = 16),
               class = "fairproj_input_error", regexp = "^`...`")
})

# a fit keeps the moments of columns beyond about 1e+-120 as stored columns times powers of two
# (`exponent`): the accessors and print() give the data's values (relative 1e-12: sums of 100
# rows), and a square beyond double range is a classed error, not an Inf or a 0
test_that("moments accessors of a fit's moments with far columns are in the data's units", {
  dat <- make_groups(n = c(60, 40), d = 3)
  x <- dat$x
  x[, 1] <- x[, 1] * 1e130
  x[, 3] <- x[, 3] * 1e-130
  m <- fair_pca(x, dat$g, 1, method = "standard", scale. = TRUE)$moments
  expect_true(any(m$exponent != 0))
  xa <- x[dat$g == "a", ]
  rel <- function(a, b) max(abs(a - b) / abs(b))
  expect_lt(rel(unname(moments_mean(m)[, "a"]), unname(colMeans(xa))), 1e-12)
  expect_lt(rel(unname(moments_mean(m, pooled = TRUE)), unname(colMeans(x))), 1e-12)
  expect_lt(rel(unname(moments_sums(m)[, "a"]), unname(colSums(xa))), 1e-12)
  expect_lt(rel(unname(moments_cov(m, unbiased = TRUE)$a), unname(cov(xa))), 1e-12)
  expect_lt(rel(unname(moments_crossprod(m)$a), unname(crossprod(xa))), 1e-12)
  ev <- eigen(cov(xa) * 59 / 60, symmetric = TRUE, only.values = TRUE)$values
  expect_lt(rel(moments_best_error(m, 1)[, "a"], sum(ev[-1])), 1e-6)  # a trailing eigenvalue of a 1e260-wide spectrum
  expect_output(print(m), "e\\+259|e\\+260")
  x[, 1] <- dat$x[, 1] * 1e200
  m2 <- fair_pca(x, dat$g, 1, method = "standard", scale. = TRUE)$moments
  expect_lt(rel(unname(moments_mean(m2)[, "b"]), unname(colMeans(x[dat$g == "b", ]))), 1e-12)
  expect_error(moments_cov(m2), class = "fairproj_overflow_error")
  # print() gives a total variance beyond double range as mantissa and power of ten, not Inf
  shown <- function(m, group) {
    out <- capture.output(print(m, digits = 6))
    strsplit(trimws(grep(sprintf("^ *%s ", group), out, value = TRUE)), " +")[[1L]][3L]
  }
  a2 <- shown(m2, "a")
  expect_match(a2, "^[1-9](\\.[0-9]+)?e\\+(399|400)$")
  xa <- x[dat$g == "a", ]
  truth <- sum(diag(cov(xa / 1e200))) * 59 / 60  # in units of 1e400; the columns at 1 add 1e-400
  expect_lt(abs(as.numeric(sub("e.*", "", a2)) * 10^(as.numeric(sub(".*e", "", a2)) - 400) / truth - 1), 1e-5)
  tiny <- fair_pca(dat$x * 1e-200, dat$g, 1, method = "standard", scale. = TRUE)$moments
  b0 <- shown(tiny, "b")
  expect_match(b0, "e-(400|401)$")
  truth <- sum(diag(cov(dat$x[dat$g == "b", ]))) * 39 / 40
  expect_lt(abs(as.numeric(sub("e.*", "", b0)) * 10^(as.numeric(sub(".*e", "", b0)) + 400) / truth - 1), 1e-5)
  # the between-group and uncentred terms, added in the data's units, can leave range too
  x <- dat$x
  x[, 1] <- x[, 1] * 1e140 + ifelse(dat$g == "a", 1e155, -1e155)
  m3 <- fair_pca(x, dat$g, 1, method = "standard", scale. = TRUE)$moments
  expect_true(all(is.finite(moments_cov(m3)$a)))
  expect_error(moments_cov(m3, center = "global"), "column\\(s\\) 'x1'", class = "fairproj_overflow_error")
  expect_error(moments_cov(m3, center = "none", pooled = TRUE), class = "fairproj_overflow_error")
  expect_error(moments_crossprod(m3), class = "fairproj_overflow_error")
  expect_error(moments_best_error(m3, 1, center = "global"), class = "fairproj_overflow_error")
})

# `+` and c() of such moments (two fits' moments, pieces of one data set) keep the powers of two,
# on the larger where the pieces differ: the sum is the moments of the stacked rows
test_that("+ of fits' moments with far columns equals the moments of the stacked rows", {
  dat <- make_groups(n = c(60, 40), d = 3)
  x <- dat$x
  x[, 1] <- x[, 1] * 1e130 + 2e130
  g <- dat$g
  half <- seq_len(nrow(x)) %% 2 == 0
  x[!half, 1] <- x[!half, 1] * 1e-5  # a different power of two in each piece
  m1 <- fair_pca(x[half, ], g[half], 1, method = "standard", scale. = TRUE)$moments
  m2 <- fair_pca(x[!half, ], g[!half], 1, method = "standard", scale. = TRUE)$moments
  expect_false(identical(m1$exponent, m2$exponent))
  for (mm in list(m1 + m2, c(m2, m1))) {
    rel <- max(abs(moments_mean(mm)[, levels(g)] - sapply(levels(g), function(l) colMeans(x[g == l, ]))) /
                 abs(sapply(levels(g), function(l) colMeans(x[g == l, ]))))
    expect_lt(rel, 1e-12)
    fit <- fair_pca(mm, k = 1, method = "standard", scale. = TRUE)
    ref <- fair_pca(x, g, 1, method = "standard", scale. = TRUE)
    expect_equal(fit$center, ref$center, tolerance = 1e-12)
    expect_equal(fit$group_stats$error, ref$group_stats$error, tolerance = 1e-10)
  }
})

# a piece whose column holds only zeros (exponent 0) does not set the sum's power of two: the
# other piece's small column would fall below double range
test_that("+ of fits' moments keeps a small column where the other piece's is all zero", {
  dat <- make_groups(n = c(60, 40), d = 3)
  x <- dat$x
  x[, 2] <- x[, 2] * 1e-200
  x0 <- x[1:10, ]
  x0[, 2] <- 0
  g0 <- factor(rep(c("a", "b"), 5), levels = levels(dat$g))
  m1 <- fair_pca(x, dat$g, 1, method = "standard", scale. = TRUE)$moments
  m0 <- fair_pca(x0, g0, 1, method = "standard")$moments
  expect_true(m1$exponent[2] < 0)
  mm <- m1 + m0
  xs <- rbind(x, x0)
  gs <- factor(c(as.character(dat$g), as.character(g0)))
  ref <- sapply(levels(gs), function(l) colMeans(xs[gs == l, ]))
  expect_lt(max(abs(moments_mean(mm)[, levels(gs)] - ref) / abs(ref)), 1e-12)
  fit <- fair_pca(mm, k = 1, method = "standard", scale. = TRUE)
  expect_equal(fit$group_stats$error, fair_pca(xs, gs, 1, method = "standard", scale. = TRUE)$group_stats$error,
               tolerance = 1e-10)
})

test_that("operators other than +, maths and summaries of moments are classed errors naming the argument", {
  dat <- make_groups(n = c(30, 20), d = 3)
  m <- group_moments(dat$x, dat$g)
  # `m_all - m_part` is no way to drop rows, and m * 2 no way to weight them: base R's
  # "non-numeric argument to binary operator" named neither the object nor what combines it
  expect_error(m - m, "^`e1` .*`-` is not defined.*`\\+` and c\\(\\)", class = "fairproj_input_error")
  expect_error(m * 2, "^`e1` .*`\\*`", class = "fairproj_input_error")
  expect_error(2 * m, "^`e2` .*`\\*`", class = "fairproj_input_error")
  expect_error(-m, "^`e1` .*`-`", class = "fairproj_input_error")
  expect_error(m == m, "^`e1` .*`==`", class = "fairproj_input_error")
  expect_error(sqrt(m), "^`x` .*sqrt\\(\\)", class = "fairproj_input_error")
  expect_error(sum(m, m), "^`...` .*sum\\(\\).*c\\(\\)", class = "fairproj_input_error")
  expect_error(max(m), "^`...` .*max\\(\\)", class = "fairproj_input_error")
  # `+` still merges, and a non-moments summand is still named
  expect_equal(moments_cov(m + m), moments_cov(c(m, m)))
  expect_error(m + 1, "^`e2`", class = "fairproj_input_error")
})
