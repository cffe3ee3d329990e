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
