# Seeded property test of fair_css() (issue 12): random sizes, 2-4 groups, column scales
# 1e-3..1e3, a global scale 1e-100..1e100, offsets up to 1e8, duplicated and constant columns,
# centred or not, every method. Invariants: a classed error or a valid result (distinct valid
# columns, finite losses, ratios >= 1 for k columns), the same outcome and the same columns
# after multiplying the data by the global scale (with the same seed for the random methods),
# and the exhaustive optimum no worse than any other method with k columns.

skip_on_cran()  # the whole file takes tens of seconds of CPU: kept out of CRAN's time budget

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

css_property <- function(cases) {
  methods <- fairproj_methods("css")
  n_ok <- 0
  for (i in cases) {
    cs <- css_case(i)
    d <- ncol(cs$x)
    losses <- c()
    for (meth in methods) {
      if (meth == "exhaustive" && choose(d, cs$k) > 35) next
      info <- sprintf("case %d, method %s, d = %d, k = %d, scale %g, center %s", i, meth, d, cs$k, cs$scale, cs$center)
      a <- css_run(cs$x, cs$g, cs$k, meth, cs$center, i)
      b <- css_run(cs$x * cs$scale, cs$g, cs$k, meth, cs$center, i)
      if (inherits(a, "error")) {
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
  n_ok
}

# 45 cases in two tests (each under 10 s); most runs give a fit (216 in all), not an error
test_that("fair_css: classed error or valid result, invariant to the global scale, exhaustive best (cases 1-22)", {
  expect_gt(css_property(1:22), 55)  # 120 of 22 cases x 8 methods give a fit
})

test_that("fair_css: classed error or valid result, invariant to the global scale, exhaustive best (cases 23-45)", {
  expect_gt(css_property(23:45), 45)  # 96 of 23 cases x 8 methods
})

# The edge battery: data of rank 12 plus noise in 3 groups, multiplied by 1e-300 and 1e300 (the
# same columns, ratios and errors in the data's units), and columns spread over 1e+-298 (the
# same columns as the data when standardised). d = 150 and 300 run the Lanczos path of the
# eigensolves (d >= 120), with n < d (each group's factor rank below d) and n > d. High QR has
# no size-dependent path and costs d^4: it runs at d = 150 with n > d and at d = 60 with n < d,
# where its leading blocks are singular as at d = 150.
css_edge_battery <- function(d, n, methods, scales, spread = TRUE) {
  set.seed(d + n)
  x <- matrix(rnorm(n * 12), n) %*% matrix(rnorm(12 * d), 12) + matrix(rnorm(n * d, sd = 0.3), n)
  g <- rep(c("a", "b", "c"), length.out = n)
  spreads <- 2^round(seq(-990, 990, length.out = d))   # 1e-298 .. 1e298, exact powers of two
  for (meth in methods) {
    k <- if (meth == "exhaustive") 2L else 3L
    run <- function(xx, ...) css_run(xx, g, k, meth, TRUE, 1, ...)
    lab <- sprintf("%s, d = %d, n = %d", meth, d, n)
    ref <- run(x)
    expect_s3_class(ref, "fair_css")
    for (cc in scales) {
      f <- run(x * cc)
      expect_s3_class(f, "fair_css")
      if (!inherits(f, "fair_css")) next
      # errors are norms (not squares): representable in the data's units at any magnitude
      expect_true(all(is.finite(c(f$loss, f$group_stats$error, f$group_stats$best))), label = lab)
      expect_identical(f$columns, ref$columns, label = paste(lab, "at", cc))
      expect_equal(f$group_stats$ratio, ref$group_stats$ratio, tolerance = 1e-8, label = lab)
      expect_equal(f$group_stats$error / cc, ref$group_stats$error, tolerance = 1e-8, label = lab)
    }
    if (!spread) next
    # standardised columns spread over 1e+-298: the same columns as the standardised data
    fs <- run(sweep(x, 2L, spreads, `*`), scale. = TRUE)
    f1 <- run(x, scale. = TRUE)
    expect_identical(fs$columns, f1$columns, label = paste(lab, "spread columns"))
    expect_equal(fs$loss, f1$loss, tolerance = 1e-8, label = lab)
  }
}

test_that("every method but high QR from 1e-300 to 1e300 at d = 150, n < d and n > d, and spread columns", {
  methods <- setdiff(fairproj_methods("css"), "highqr")
  for (n in c(90, 400)) css_edge_battery(150, n, methods, c(1e-300, 1e300))
})

test_that("high QR from 1e-300 to 1e300 with singular leading blocks (d = 60, n < d) and at d = 150, n > d", {
  css_edge_battery(60, 36, "highqr", c(1e-300, 1e300))
  css_edge_battery(150, 400, "highqr", c(1e-300, 1e300))
})

test_that("every method at 1e300 at d = 300 with n < d (exhaustive's choose(300, 2) subsets left out)", {
  css_edge_battery(300, 120, setdiff(fairproj_methods("css"), c("exhaustive", "highqr")), 1e300, spread = FALSE)
})

# Per-group errors ||X_g - P_S X_g||_F and best rank-k errors of the rows, for a reference: the
# data divided by a power of two (exact) so that nothing overflows, Householder residuals and
# the singular values of the R factor of a column-pivoted QR (accurate for graded columns).
css_rows_ref <- function(x, g, S, k, center = FALSE) {
  if (center) x <- sweep(x, 2, colMeans(x))
  e <- floor(log2(max(abs(x))))
  xs <- x * 2^-e
  t(vapply(sort(unique(g)), function(l) {
    X <- xs[g == l, , drop = FALSE]
    r <- qr.resid(qr(X[, S, drop = FALSE], tol = 0), X)
    s <- svd(qr.R(qr(X, LAPACK = TRUE)))$d
    c(error = sqrt(sum(r^2)) * 2^e, best = sqrt(sum(s[-seq_len(k)]^2)) * 2^e)
  }, numeric(2)))
}

test_that("columns whose scales spread over 1e-85 .. 1e147 give finite, correct losses in every method (#33)", {
  # the variance of the small columns used to be dropped by the pivoted Cholesky factor (whose
  # tolerance is relative to the largest column: best errors 2.5 times too small) and the
  # Householder step divided by a squared norm that underflowed (NaN losses, which exhaustive
  # took for the optimum)
  set.seed(1)
  x <- sweep(matrix(rnorm(3600) + 1, 600), 2, c(1e143, 1e-39, 1e-85, 1e136, 1e147, 1e-12), "*")
  g <- rep(c("a", "b"), 300)
  set.seed(13)
  y <- sweep(matrix(rnorm(2100) + 1, 300), 2, c(1.1e100, 1.9e22, 1e112, 2.1e79, 7.1e103, 3.6e101, 2.3e100), "*")
  h <- sample(c("a", "b", "c"), 300, TRUE)
  cases <- list(list(x = x, g = g, k = 2, center = FALSE), list(x = x, g = g, k = 2, center = TRUE),
                list(x = y, g = h, k = 3, center = FALSE))
  for (cs in cases) {
    losses <- c()
    for (m in fairproj_methods("css")) {
      set.seed(1)
      r <- suppressWarnings(fair_css(cs$x, cs$g, k = cs$k, method = m, center = cs$center))
      expect_true(is.finite(r$loss))
      expect_true(all(is.finite(r$path$loss)))
      ref <- css_rows_ref(cs$x, cs$g, r$columns, cs$k, cs$center)
      # the residuals are 1e-12 of the largest column, so their digits depend on the algorithm
      # at 1e-7 (LINPACK's and LAPACK's Householder residuals differ by 5e-8 on `y`)
      expect_equal(r$group_stats$error, unname(ref[, "error"]), tolerance = 1e-6)
      expect_equal(r$group_stats$best, unname(ref[, "best"]), tolerance = 1e-6)
      if (r$c == cs$k) losses[m] <- r$loss
    }
    # exhaustive: the smallest MinMaxLoss over all subsets, each evaluated on its own
    all_sets <- utils::combn(ncol(cs$x), cs$k, simplify = FALSE)
    each <- vapply(all_sets, function(S) css_loss(cs$x, cs$g, S, k = cs$k, center = cs$center)[1], numeric(1))
    expect_true(all(is.finite(each)))
    expect_equal(unname(losses["exhaustive"]), min(each), tolerance = 1e-10)
    expect_true(all(losses >= min(each) * (1 - 1e-10)))
  }
})
