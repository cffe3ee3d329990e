test_that("bad inputs give classed errors naming the argument", {
  dat <- make_groups()
  x <- dat$x
  g <- dat$g
  err <- function(expr, pattern) expect_error(expr, pattern, class = "fairproj_input_error")
  x_na <- x; x_na[3, 2] <- NA
  err(fair_pca(x_na, g, k = 2, method = "standard"), "`x` contains 1 missing")
  x_nan <- x; x_nan[1, 1] <- NaN
  err(fair_pca(x_nan, g, k = 2, method = "standard"), "`x` contains 1 missing")
  x_inf <- x; x_inf[5, 1] <- Inf
  err(fair_pca(x_inf, g, k = 2, method = "standard"), "`x` contains 1 infinite")
  err(fair_pca(x[, 1, drop = FALSE], g, k = 1, method = "standard"), "`x` must have at least 2 columns")
  err(fair_pca(x[, 1], g, k = 1, method = "standard"), "`x` must be a matrix")
  err(fair_pca(letters, g, k = 1, method = "standard"), "`x`")
  df <- as.data.frame(x); df$s <- "a"
  err(fair_pca(df, g, k = 2, method = "standard"), "`x` has non-numeric column")
  err(fair_pca(x, g[-1], k = 2, method = "standard"), "`group` has length")
  g_na <- g; g_na[4] <- NA
  err(fair_pca(x, g_na, k = 2, method = "standard"), "`group` contains 1 missing")
  err(fair_pca(x, rep("a", nrow(x)), k = 2), "`group` must have at least 2 groups")
  err(fair_pca(x, rnorm(nrow(x)), k = 2), "`group` is numeric with non-integer")
  err(fair_pca(x, g, method = "standard"), "`k` is missing")
  err(fair_pca(x, g, k = 0, method = "standard"), "`k` must be between 1 and 6")
  err(fair_pca(x, g, k = 7, method = "standard"), "`k` must be between 1 and 6")
  err(fair_pca(x, g, k = 1.5, method = "standard"), "`k` must be a single whole number")
  err(fair_pca(x, g, k = NA, method = "standard"), "`k` must be a single whole number")
  err(fair_pca(x, g, k = c(1, 2)), "`k` must be a single whole number")
  x_const <- x; x_const[, 3] <- 5
  err(fair_pca(x_const, g, k = 2, scale. = TRUE, method = "standard"), "`scale.` = TRUE cannot rescale constant")
  err(fair_pca(x, g, k = 2, center = 1:2, method = "standard"), "`center` must be")
  err(fair_pca(x, g, k = 2, method = "nope"), "`method` 'nope' is not available")
  err(fair_pca(x, g, k = 2, bogus = 1, method = "standard"), "does not take: bogus")
  err(group_moments(x, g, block = 0), "`block`")
})

test_that("groups of every supported type are accepted", {
  dat <- make_groups()
  ref <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  for (g in list(as.character(dat$g), as.integer(dat$g), dat$g == "a")) {
    f <- fair_pca(dat$x, g, k = 2, method = "standard")
    expect_equal(f$rotation, ref$rotation, ignore_attr = TRUE, tolerance = 1e-10)
  }
  # a constant column is fine without scaling (it has zero variance and carries no error)
  x <- dat$x; x[, 2] <- 3
  expect_silent(fair_pca(x, dat$g, k = 2, method = "standard"))
  # duplicate columns are fine: the covariance is singular, PCA is still defined
  x <- cbind(dat$x, dat$x[, 1])
  f <- fair_pca(x, dat$g, k = 3, method = "standard")
  expect_equal(crossprod(f$rotation), diag(3), tolerance = 1e-10, ignore_attr = TRUE)
})

test_that("numeric group codes that differ in the 16th or 17th digit stay distinct groups (#33)", {
  set.seed(1)
  x <- matrix(rnorm(600), 150)
  codes <- c(1e15 + 1, 1e15 + 2, 7)
  g <- rep(codes, each = 50)
  # as.factor() labels doubles with 15 digits: the first two codes would be one group
  fit <- fair_pca(x, g, k = 1, method = "standard")
  expect_equal(fit$groups$n, c(50, 50, 50))
  expect_identical(fit$groups$group, c("7", "1000000000000001", "1000000000000002"))
  expect_identical(as.numeric(fit$groups$group), sort(codes))  # labels give back the values
  # the same groups at every door: data.frame column, formula, sparse rows, a file, moments
  df <- data.frame(x, g = g)
  expect_identical(fair_pca(df, "g", k = 1, method = "standard")$groups, fit$groups)
  expect_identical(fair_pca(~ ., data = df, group = g, k = 1, method = "standard")$groups, fit$groups)
  expect_identical(fair_css(x, g, k = 1)$groups, fit$groups)
  m <- group_moments(x, g)
  expect_identical(m$levels, fit$groups$group)
  expect_equal(unname(m$n), c(50, 50, 50))
  if (requireNamespace("Matrix", quietly = TRUE)) {
    expect_identical(group_moments(Matrix::Matrix(x, sparse = TRUE), g)$levels, m$levels)
  }
  if (requireNamespace("readr", quietly = TRUE)) {
    path <- tempfile(fileext = ".csv")
    on.exit(unlink(path))
    dff <- df
    dff$g <- fp_num_labels(dff$g)  # the codes written exactly, as a database export would
    utils::write.csv(dff, path, row.names = FALSE)
    mf <- group_moments(path, "g")
    expect_identical(mf$levels, m$levels)
    expect_equal(moments_cov(mf), moments_cov(m), tolerance = 1e-12, ignore_attr = TRUE)
  }
  # a value keeps its label when the others are absent (new data, one group, chunks)
  one <- g == 1e15 + 2
  expect_identical(group_moments(x[one, ], g[one])$levels, "1000000000000002")
  ge <- group_errors(fit, x[one | g == 7, ], g[one | g == 7])
  expect_identical(ge$table$group, c("7", "1000000000000002"))
  # intersectional cells and the moments constructor
  ig <- intersect_groups(code = g, half = rep(1:2, 75))
  expect_identical(nlevels(ig), 6L)
  expect_identical(new_group_moments(m$n, m$mean, m$scatter, levels = sort(codes))$levels, m$levels)
  # integer64 codes (a database's BIGINT) keep their exact decimal labels
  if (requireNamespace("bit64", quietly = TRUE)) {
    big <- bit64::as.integer64(c("9007199254740993", "9007199254740992", "7"))
    expect_identical(group_moments(x, rep(big, each = 50))$levels, c("7", "9007199254740992", "9007199254740993"))
  }
  # labels need 17 digits for some values; 15-digit labels are kept where they are exact
  expect_identical(fp_num_labels(c(0.1 + 0.2, 0.3, 1e5, 2^53 + 2)),
                   c("0.30000000000000004", "0.3", "1e+05", "9007199254740994"))
})

test_that("a factor's NA level (addNA()) counts as missing labels at every door (#33)", {
  set.seed(2)
  x <- matrix(rnorm(600), 150)
  g <- addNA(factor(rep(c("a", "b", NA), each = 50)))
  expect_error(fair_pca(x, g, k = 1), class = "fairproj_input_error", regexp = "50 missing")
  expect_error(fair_css(x, g, k = 1), class = "fairproj_input_error", regexp = "50 missing")
  expect_error(group_moments(x, g), class = "fairproj_input_error", regexp = "50 missing")
  expect_error(group_moments(data.frame(x, g = g), "g"), class = "fairproj_input_error", regexp = "missing")
  expect_error(intersect_groups(g = g, h = rep(1:2, 75)), class = "fairproj_input_error", regexp = "missing")
  expect_error(fair_pca(x, data.frame(g = g, h = rep(1:2, 75)), k = 1), class = "fairproj_input_error")
  # an NA level that no row uses is no missing value
  h <- addNA(factor(rep(c("a", "b"), 75)))
  expect_identical(group_moments(x, h)$levels, c("a", "b"))
  # the formula interface drops them through `na.action`, as rows whose label is NA
  d_na <- data.frame(x, g = factor(rep(c("a", "b", NA), each = 50)))
  d_lev <- data.frame(x, g = g)
  dm <- "fairproj_dropped_rows_message"
  expect_message(ref <- fair_pca(~ ., data = d_na, group = g, k = 1, method = "standard"), class = dm,
                 regexp = "50 with a missing group label")
  expect_message(fit <- fair_pca(~ ., data = d_lev, group = g, k = 1, method = "standard"), class = dm,
                 regexp = "50 with a missing group label")
  expect_identical(fit$groups, ref$groups)
  expect_equal(fit$rotation, ref$rotation)
  expect_error(fair_pca(~ ., data = d_lev, group = g, k = 1, na.action = na.fail), class = "fairproj_input_error")
})

# Count the warnings of one class that an expression gives (and muffle them).
count_warnings <- function(expr, class) {
  n <- 0L
  withCallingHandlers(expr, warning = function(w) {
    if (inherits(w, class)) n <<- n + 1L
    invokeRestart("muffleWarning")
  })
  n
}

test_that("one column in other units: one fairproj_units_warning per call unless scale. is given", {
  dat <- make_groups(n = c(60, 50), d = 5, seed = 7)
  x <- dat$x
  x[, 2] <- 1e3 * x[, 2]   # standard deviations 1000 times the others': > 99% of the variance
  df <- data.frame(x, g = dat$g)
  u <- "fairproj_units_warning"
  expect_warning(fair_pca(x, dat$g, k = 2), class = u, regexp = "'x2' holds 99")
  expect_identical(count_warnings(fair_pca(~ ., data = df, group = g, k = 2), u), 1L)
  expect_identical(count_warnings(fair_pca(group_moments(x, dat$g), k = 2), u), 1L)
  expect_identical(count_warnings(fair_css(x, dat$g, k = 2), u), 1L)
  expect_identical(count_warnings(fair_css(group_moments(x, dat$g), k = 2), u), 1L)
  expect_identical(count_warnings(fair_kpca(x, dat$g, k = 2), u), 1L)
  expect_identical(count_warnings(tune_fair_pca(x, dat$g, k = 2, method = "robust", grid = list(alpha = c(0.1, 0.2)),
                                                iterations = 10, restarts = 1, seed = 1), u), 1L)
  expect_identical(count_warnings(pareto_front(x, dat$g, k = 2, restarts = 2, iterations = 10), u), 1L)
  # an explicit choice is quiet, either way
  for (sc in c(TRUE, FALSE)) {
    expect_identical(count_warnings(fair_pca(x, dat$g, k = 2, scale. = sc), u), 0L)
    expect_identical(count_warnings(fair_css(x, dat$g, k = 2, scale. = sc), u), 0L)
    expect_identical(count_warnings(fair_kpca(x, dat$g, k = 2, scale. = sc), u), 0L)
    expect_identical(count_warnings(pareto_front(x, dat$g, k = 2, restarts = 1, iterations = 10, scale. = sc), u), 0L)
  }
  # the fit itself is the same as with scale. = FALSE
  f <- suppressWarnings(fair_pca(x, dat$g, k = 2, method = "standard"))
  expect_equal(f$rotation, fair_pca(x, dat$g, k = 2, method = "standard", scale. = FALSE)$rotation)
})

test_that("the units test: columns 4 times the median standard deviation holding half the variance, or one 100 times (#45)", {
  w <- function(sd) fairproj:::fp_warn_units(2 * log2(sd), paste0("c", seq_along(sd)))
  u <- "fairproj_units_warning"
  # several large columns: together they hold the variance
  expect_warning(expect_true(w(c(150, 150, 1, 1, 1, 1, 1))), class = u, regexp = "columns 'c1', 'c2' hold 99")
  expect_warning(w(c(90, 90, 1, 1, 1, 1, 1)), class = u)
  expect_warning(w(c(1, 30, 2, 1.5)), class = u, regexp = "'c2' holds 99")
  expect_false(w(c(1, 5.5, 2, 1.5)))         # 87% of the variance but 3.7 times the lower median (1.5): one unit
  expect_snapshot(w(c(1, 30, 2, 1.5)))
  expect_warning(w(c(83.3, 4.36, 14.5, 9.37)), class = u, regexp = "'c1' holds 95.6%")   # USArrests
  expect_false(w(c(0.83, 0.44, 1.77, 0.76)))                                            # iris
  # the lower median: with two columns the smaller one is the reference
  expect_warning(w(c(1, 10)), class = u)
  expect_false(w(c(1, 3.9)))
  # large columns holding less than half the variance: quiet, unless one is 100 times the median
  expect_false(w(c(10, rep(1, 200))))
  expect_warning(w(c(150, rep(1, 30000))), class = u, regexp = "42.8%")
  # constant columns do not count, and one varying column is nothing to compare
  expect_false(w(c(1e3, 0, 0, 0)))
  expect_false(w(c(1, 2, 0, 0, 0)))
  # any magnitude: log2 variances far beyond double precision compare
  expect_warning(fairproj:::fp_warn_units(c(3000, 10, 12), c("a", "b", "c")), class = u,
                 regexp = "about 1e450 times the median")
  expect_false(fairproj:::fp_warn_units(c(3000, 2999, 2998), c("a", "b", "c")))
})

test_that("the units warning: pbc, mtcars and USArrests warn; iris, pixels and one unit do not (#45)", {
  u <- "fairproj_units_warning"
  quiet <- function(x, g) count_warnings(fair_pca(x, g, k = 2, method = "standard"), u)
  expect_identical(quiet(USArrests, rep(1:2, 25)), 1L)
  expect_identical(count_warnings(fair_pca(~ ., data = mtcars, group = am, k = 2, method = "standard"), u), 1L)
  expect_identical(quiet(iris[1:4], iris$Species), 0L)
  expect_identical(count_warnings(fair_pca(~ ., data = iris, group = Species, k = 2, method = "standard"), u), 0L)
  skip_if_not_installed("survival")
  data("pbc", package = "survival", envir = environment())
  vars <- c("age", "bili", "chol", "albumin", "copper", "alk.phos", "ast", "trig", "platelet", "protime")
  pbc2 <- stats::na.omit(pbc[c(vars, "sex")])
  expect_warning(fair_pca(~ ., data = pbc2, group = sex, k = 3, method = "standard"), class = u, regexp = "'alk.phos'")
  expect_identical(count_warnings(fair_pca(~ ., data = pbc2, group = sex, k = 3, scale. = TRUE), u), 0L)
  # pixels: 0..255 grey values whose spread varies over the image (brighter at the centre), and
  # images of faces as LFW's, a smooth mean image plus a few smooth patterns with noise
  set.seed(45)
  n <- 300
  side <- 16
  grid <- expand.grid(i = seq_len(side), j = seq_len(side))
  spread <- 20 + 40 * exp(-((grid$i - side / 2)^2 + (grid$j - side / 2)^2) / 40)
  px <- sapply(spread, function(s) pmin(pmax(round(128 + s * rnorm(n)), 0), 255))
  expect_identical(quiet(px, rep(1:2, n / 2)), 0L)
  pats <- sapply(1:4, function(f) cos(f * grid$i / 3) * sin(f * grid$j / 4))
  faces <- matrix(100 + 30 * cos(grid$i / 5), n, side^2, byrow = TRUE) + matrix(rnorm(n * 4, sd = 25), n) %*% t(pats) +
    matrix(rnorm(n * side^2, sd = 8), n)
  expect_identical(quiet(pmin(pmax(round(faces), 0), 255), rep(1:2, n / 2)), 0L)
  # data in one unit (spreads within a factor of 3), and the same with one column rescaled
  one <- sweep(matrix(rnorm(n * 12), n), 2, exp(runif(12, 0, log(3))), `*`)
  expect_identical(quiet(one, rep(1:2, n / 2)), 0L)
  one[, 5] <- one[, 5] * 1000
  expect_warning(fair_pca(one, rep(1:2, n / 2), k = 2), class = u, regexp = "'V5'|'x5'|column '5'|5'")
  one[, 5] <- one[, 5] / 1000 * 3
  expect_identical(quiet(one, rep(1:2, n / 2)), 0L)
})

test_that("the units warning reads the variances from the moments, at any magnitude", {
  set.seed(3)
  x <- cbind(a = rnorm(80), b = rnorm(80), c = rnorm(80))
  g <- rep(c("u", "v"), 40)
  for (s in c(1e-200, 1e-100, 1, 1e100, 1e200)) {
    xs <- x * s
    # the moments of a fit, whose columns are brought into range (a power of two each)
    lv <- fairproj:::fp_log2_colvar(fair_pca(xs, g, k = 1, scale. = TRUE)$moments)
    expect_equal(lv, log2(apply(x, 2, stats::var)) + 2 * log2(s), tolerance = 1e-10, ignore_attr = TRUE)
    expect_equal(fairproj:::fp_log2_colvar_rows(xs), unname(lv), tolerance = 1e-10)
    xs[, 1] <- xs[, 1] * 1e3
    # (unscaled variances beyond about 1e+-300 are an error of their own)
    if (abs(log10(s)) < 150) expect_warning(fair_pca(xs, g, k = 1), class = "fairproj_units_warning", regexp = "'a'")
  }
  # a factor's indicator columns stay quiet
  expect_identical(count_warnings(fair_pca(~ ., data = iris, group = Species, k = 2), "fairproj_units_warning"), 0L)
})

test_that("the papers' data sets, as the readers give them, never get the units warning", {
  dir <- Sys.getenv("FAIRPROJ_DATA")
  skip_if(!nzchar(dir) || !dir.exists(dir), "FAIRPROJ_DATA is not set")
  # the small ones of fairproj_datasets(), raw (css_*) and standardised
  for (nm in c("adult_sex", "german_credit", "biodeg", "energy", "lee_adult", "lee_compas", "lee_german",
               "css_heart", "css_german", "css_communities")) {
    d <- tryCatch(fairproj_data(nm, dir), error = function(e) NULL)
    if (is.null(d)) next
    m <- group_moments(d$x, if (is.data.frame(d$group)) d$group[[1]] else d$group)
    expect_false(fairproj:::fp_warn_units(fairproj:::fp_log2_colvar(m), m$colnames), info = nm)
  }
})

test_that("group codes come from the values, with the levels droplevels(as.factor()) gives (#36)", {
  ns <- asNamespace("fairproj")
  set.seed(362)
  cases <- list(
    character = sample(c("b", "B", "a", "a b", "Z", "10", "9"), 200, TRUE),
    factor = factor(sample(c("x", "y"), 200, TRUE), levels = c("unused", "y", "x", "gone")),
    ordered = factor(sample(c("lo", "hi"), 200, TRUE), levels = c("lo", "mid", "hi"), ordered = TRUE),
    integer = sample(c(-3L, 7L, 2L), 200, TRUE),
    logical = sample(c(TRUE, FALSE), 200, TRUE),
    named = stats::setNames(sample(c("u", "v"), 200, TRUE), paste0("r", 1:200))
  )
  for (nm in names(cases)) {
    v <- cases[[nm]]
    copy <- unserialize(serialize(v, NULL))  # a copy in memory of its own
    expect_identical(ns$fp_as_group(v, 200L), droplevels(as.factor(v)), label = nm)
    expect_identical(v, copy, label = nm)  # the codes are renumbered in place, the labels untouched
  }
  # the empty label is an error also as a factor level, naming the first row
  f <- factor(c("a", "", "b", ""))
  expect_error(ns$fp_as_group(f, 4L), "first in row 2", class = "fairproj_input_error")
  # no round trip through factor() and the labels as strings
  calls <- new.env()
  calls$n <- 0L
  suppressMessages(trace("factor", bquote(assign("n", get("n", envir = .(calls)) + 1L, envir = .(calls))),
                         print = FALSE, where = baseenv()))
  for (nm in names(cases)) ns$fp_as_group(cases[[nm]], 200L)
  suppressMessages(untrace("factor", where = baseenv()))
  expect_identical(calls$n, 0L)
})

test_that("an integer64 matrix is read by value at every door, not by its bits", {
  skip_if_not_installed("bit64")
  set.seed(3)
  v <- round(matrix(rnorm(120), 40, 3) * 1000)
  g <- rep(c("a", "b"), 20)
  m <- bit64::as.integer64(v)
  dim(m) <- dim(v)
  expect_equal(group_moments(m, g), group_moments(v, g))
  expect_equal(fair_pca(m, g, k = 2, scale. = TRUE)[c("rotation", "center", "scale", "x", "group_stats")],
               fair_pca(v, g, k = 2, scale. = TRUE)[c("rotation", "center", "scale", "x", "group_stats")])
  fit <- fair_pca(v, g, k = 2)
  expect_equal(predict(fit, m), predict(fit, v))
  expect_equal(fair_css(m, g, k = 2)[c("columns", "group_stats")], fair_css(v, g, k = 2)[c("columns", "group_stats")])
  expect_equal(fair_kpca(m, g, k = 2)$x, fair_kpca(v, g, k = 2)$x)
  # small integers (whose bits read as subnormal doubles), with the matrix's column names
  s <- bit64::as.integer64(1:40)
  dim(s) <- c(20L, 2L)
  dimnames(s) <- list(NULL, c("p", "q"))
  vs <- matrix(as.numeric(1:40), 20, 2, dimnames = list(NULL, c("p", "q")))
  vs[, 2] <- vs[, 2]^2
  s[, 2] <- s[, 2]^2
  gs <- rep(c("a", "b"), 10)
  expect_equal(fair_pca(s, gs, k = 1, scale. = TRUE)$rotation, fair_pca(vs, gs, k = 1, scale. = TRUE)$rotation)
  # integers of 2^53 or more: the classed warning naming the column, as for data.frame columns
  b <- m
  b[, 2] <- b[, 2] + bit64::as.integer64("9007199254740993")
  expect_warning(group_moments(b, g), "V2", class = "fairproj_precision_warning")
})

test_that("fp_check_count(): whole and finite; integer = FALSE keeps limits beyond the integer range", {
  cc <- fairproj:::fp_check_count
  expect_identical(cc(3, 1, 10, "n"), 3L)
  expect_identical(cc(3e9, 1, Inf, "n", integer = FALSE), 3e9)
  for (bad in list(1.5, Inf, -Inf, NA, NaN, "2", c(1, 2), function(x) x)) {
    expect_error(cc(bad, 1, Inf, "n", integer = FALSE), "^`n` must be a single whole number", class = "fairproj_input_error")
  }
  expect_error(cc(0, 1, Inf, "n", integer = FALSE), "^`n` must be a whole number >= 1", class = "fairproj_input_error")
  expect_error(cc(11, 1, 10, "n"), "^`n` must be between 1 and 10", class = "fairproj_input_error")
  # infinite = TRUE: Inf is no limit, a fraction or -Inf is still refused
  expect_identical(cc(Inf, 2, Inf, "n", integer = FALSE, infinite = TRUE), Inf)
  expect_identical(cc(7, 2, Inf, "n", integer = FALSE, infinite = TRUE), 7)
  for (bad in list(2.5, -Inf, NA, "Inf")) {
    expect_error(cc(bad, 2, Inf, "n", integer = FALSE, infinite = TRUE), "^`n` must be a single whole number, or Inf",
                 class = "fairproj_input_error")
  }
})

test_that("fp_check_number(): finite by default; finite = FALSE keeps Inf for limits", {
  cn <- fairproj:::fp_check_number
  for (bad in list(Inf, -Inf)) {
    expect_error(cn(bad, "a"), "^`a` must be a finite number", class = "fairproj_input_error")
    expect_error(cn(bad, "a", lower = 0), "^`a`", class = "fairproj_input_error")
  }
  expect_identical(cn(Inf, "a", lower = 0, finite = FALSE), Inf)
  expect_error(cn(-Inf, "a", lower = 0, finite = FALSE), "^`a` must be in", class = "fairproj_input_error")
  withr::with_options(list(fairproj.time_limit = Inf), expect_identical(fairproj:::fp_time_limit(), Inf))
})

# the full vector of choices selects the first only where it is a formal default (match.arg's
# rule), here or up the call stack; where the default is one string, a vector is an error
test_that("fp_match_arg() takes a vector of choices only as a formal default", {
  vec <- function(center = c("group", "model")) fp_match_arg(center, c("group", "model"), "center")
  expect_identical(vec(), "group")
  one <- function(matrix = "fits") fp_match_arg(matrix, c("fits", "plot"), "matrix")
  expect_error(one(c("fits", "plot")), "^`matrix` must be one of", class = "fairproj_input_error")
  inner <- function(constraint) fp_match_arg(constraint, c("parity", "opportunity"), "constraint")
  outer <- function(constraint = c("parity", "opportunity")) inner(constraint)
  expect_identical(outer(), "parity")
  dat <- make_groups(n = c(30, 30), d = 4)
  fit <- fair_css(dat$x, dat$g, k = 2)
  expect_error(tidy(fit, matrix = c("columns", "groups", "path", "plot")), class = "fairproj_input_error")
})

test_that("a fairproj_data() dataset given whole is a classed error naming its parts, not 'group is missing'", {
  dat <- make_groups(n = c(20, 20), d = 3)
  # the shape fairproj_data() returns (tests do not read the data files)
  ds <- structure(list(x = dat$x, group = dat$g, y = rep(0:1, 20), info = list()), class = "fairproj_data")
  parts <- "^`x` is a fairproj_data\\(\\) dataset.*`x\\$x`.*`x\\$group`"
  # fair_pca(ds, k = 2) said "`group` is missing"; group_moments(ds, ds$group) "not an object of class 'fairproj_data'"
  expect_error(fair_pca(ds, k = 2), parts, class = "fairproj_input_error")
  expect_error(fair_pca(ds, ds$group, k = 2), parts, class = "fairproj_input_error")
  expect_error(fair_css(ds, k = 2), parts, class = "fairproj_input_error")
  expect_error(fair_kpca(ds, k = 2), parts, class = "fairproj_input_error")
  expect_error(pareto_front(ds, k = 1), parts, class = "fairproj_input_error")
  expect_error(group_moments(ds, ds$group), parts, class = "fairproj_input_error")
  fit <- fair_pca(ds$x, ds$group, k = 2)
  expect_error(group_errors(fit, ds), parts, class = "fairproj_input_error")
  expect_error(predict(fit, ds), "^`newdata` is a fairproj_data\\(\\) dataset.*`newdata\\$x`", class = "fairproj_input_error")
})
