# Seeded property test of fair_css() (issue 12): random sizes, 2-4 groups, column scales
# 1e-3..1e3, a global scale 1e-100..1e100, offsets up to 1e8, duplicated and constant columns,
# centred or not, every method. Invariants: a classed error or a valid result (distinct valid
# columns, finite losses, ratios >= 1 for k columns), the same outcome and the same columns
# after multiplying the data by the global scale (with the same seed for the random methods),
# and the exhaustive optimum no worse than any other method with k columns.

css_case <- function(i) {
  set.seed(7000 + i)
  m <- sample(2:4, 1)
  d <- sample(3:7, 1)
  sizes <- sample(2:12, m, replace = TRUE)
  n <- sum(sizes)
  x <- matrix(rnorm(n * d), n, d) %*% diag(10^runif(d, -3, 3), d)
  if (runif(1) < 0.3) x[, sample(d, 1)] <- x[, sample(d, 1)]        # duplicated column
  if (runif(1) < 0.2) x[, sample(d, 1)] <- runif(1, -5, 5)           # constant column
  if (runif(1) < 0.4) x <- x + rep(10^runif(d, 0, 8), each = n)      # offsets up to 1e8
  list(x = x, g = rep(letters[seq_len(m)], sizes), k = sample(seq_len(d - 1), 1),
       scale = 10^sample(c(-100, -50, -8, -3, 3, 8, 50, 100), 1), center = runif(1) < 0.5)
}

css_run <- function(x, g, k, method, center, seed, ...) {
  # column scales in different units are the point here: unscaled unless `scale.` is given
  args <- utils::modifyList(list(x, g, k = k, method = method, center = center, scale. = FALSE), list(...))
  if (method == "random") args$r <- 5
  set.seed(seed)
  tryCatch(do.call(fair_css, args), error = function(e) e)
}

test_that("fair_css: classed error or valid result, invariant to the global scale, exhaustive best", {
  methods <- fairproj_methods("css")
  n_err <- 0
  n_ok <- 0
  for (i in seq_len(45)) {
    cs <- css_case(i)
    d <- ncol(cs$x)
    losses <- c()
    for (meth in methods) {
      if (meth == "exhaustive" && choose(d, cs$k) > 35) next
      info <- sprintf("case %d, method %s, d = %d, k = %d, scale %g, center %s", i, meth, d, cs$k, cs$scale, cs$center)
      a <- css_run(cs$x, cs$g, cs$k, meth, cs$center, i)
      b <- css_run(cs$x * cs$scale, cs$g, cs$k, meth, cs$center, i)
      if (inherits(a, "error")) {
        n_err <- n_err + 1
        expect_s3_class(a, "fairproj_error")
        expect_s3_class(b, "fairproj_error")
        next
      }
      n_ok <- n_ok + 1
      expect_s3_class(b, "fair_css")
      if (!inherits(b, "fair_css")) next
      cols <- a$columns
      expect_true(length(cols) >= 1 && !anyDuplicated(cols) && all(cols >= 1 & cols <= d), info = info)
      expect_true(all(is.finite(c(a$loss, a$group_stats$ratio, a$group_stats$error, a$path$loss))), info = info)
      if (a$c <= cs$k) expect_true(all(a$group_stats$ratio >= 1 - 1e-8), info = info)
      expect_identical(b$columns, a$columns, info = info)
      expect_equal(b$loss, a$loss, tolerance = 1e-6, info = info)
      if (a$c == cs$k) losses[meth] <- a$loss
    }
    if ("exhaustive" %in% names(losses)) {
      expect_true(all(losses[["exhaustive"]] <= losses * (1 + 1e-8)), info = sprintf("case %d", i))
    }
  }
  expect_gt(n_ok, 100)
})

test_that("every method from 1e-300 to 1e300 at d = 150 and 300, n < d and n > d, and spread columns", {
  for (dn in list(c(150, 90), c(150, 400), c(300, 120), c(300, 450))) {
    d <- dn[1]
    n <- dn[2]
    set.seed(d + n)
    x <- matrix(rnorm(n * 12), n) %*% matrix(rnorm(12 * d), 12) + matrix(rnorm(n * d, sd = 0.3), n)
    g <- rep(c("a", "b", "c"), length.out = n)
    spread <- 2^round(seq(-990, 990, length.out = d))   # 1e-298 .. 1e298, exact powers of two
    for (meth in fairproj_methods("css")) {
      k <- if (meth == "exhaustive") 2L else 3L
      # the costly ones where they are cheap enough: choose(300, 2) subsets; high QR's d^4
      if (meth %in% c("exhaustive", "highqr") && d > 150) next
      run <- function(xx, ...) css_run(xx, g, k, meth, TRUE, 1, ...)
      lab <- sprintf("%s, d = %d, n = %d", meth, d, n)
      ref <- run(x)
      expect_s3_class(ref, "fair_css")
      for (cc in if (d > 150) 1e300 else c(1e-300, 1e300)) {
        f <- run(x * cc)
        expect_s3_class(f, "fair_css")
        if (!inherits(f, "fair_css")) next
        # errors are norms (not squares): representable in the data's units at any magnitude
        expect_true(all(is.finite(c(f$loss, f$group_stats$error, f$group_stats$best))), label = lab)
        expect_identical(f$columns, ref$columns, label = paste(lab, "at", cc))
        expect_equal(f$group_stats$ratio, ref$group_stats$ratio, tolerance = 1e-8, label = lab)
        expect_equal(f$group_stats$error / cc, ref$group_stats$error, tolerance = 1e-8, label = lab)
      }
      # standardised columns spread over 1e+-298: the same columns as the standardised data
      if (d > 150) next
      fs <- run(sweep(x, 2L, spread, `*`), scale. = TRUE)
      f1 <- run(x, scale. = TRUE)
      expect_identical(fs$columns, f1$columns, label = paste(lab, "spread columns"))
      expect_equal(fs$loss, f1$loss, tolerance = 1e-8, label = lab)
    }
  }
})
