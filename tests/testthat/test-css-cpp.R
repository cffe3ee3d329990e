# The named wrappers of the compiled CSS entry points (R/css-cpp.R): 1-based columns in and
# out, named options, every error from C++ classed.

test_that("the wrappers take and return 1-based columns and agree with the fits", {
  dat <- make_groups(n = c(40, 30), d = 6)
  prep <- fairproj:::fp_css_prepare(group_moments(dat$x, dat$g), 2L)
  b2 <- fairproj:::fp_css_best2_matrix(prep, 2L, 2L)
  gr <- fairproj:::fp_css_greedy_cpp(prep$gram, prep$factor, b2, 2L)
  expect_identical(gr$columns, fair_css(dat$x, dat$g, 2, denominators = "k")$columns)
  # candidates are 1-based columns: only 4 and 6 may be chosen
  sub <- fairproj:::fp_css_greedy_cpp(prep$gram, prep$factor, b2, 2L, candidates = c(4L, 6L))
  expect_setequal(sub$columns, c(4L, 6L))
  expect_identical(fairproj:::fp_css_lowqr_cpp(prep$gram, prep$factor, 2L)$columns,
                   fair_css(dat$x, dat$g, 2, "lowqr")$columns)
  ord <- fairproj:::fp_css_highqr_cpp(prep$gram)
  expect_setequal(ord, 1:6)
  expect_identical(ord[1:2], fair_css(dat$x, dat$g, 2, "highqr")$columns)
  expect_setequal(fairproj:::fp_css_highqr_cpp(prep$gram, candidates = c(2L, 5L, 3L)), c(2L, 3L, 5L))
  ex <- fairproj:::fp_css_exhaustive_cpp(prep$gram, prep$factor, prep$best2, 2L)
  expect_identical(sort(ex$columns), sort(fair_css(dat$x, dat$g, 2, "exhaustive", search = "enumerate")$columns))
  sp <- fairproj:::fp_css_sampler_pass_cpp(cbind(c(0.1, 0.5, 0.9)), order = c(3L, 2L, 1L), sums = 0, active = TRUE,
                                          theta = 1.2, room = 3L)
  expect_identical(sp$taken, c(3L, 2L))
  expect_equal(sp$sums, 1.4)
})

test_that("the greedy rules are named: exact, the authors' Greedy scan, the authors' S-Greedy scan", {
  dat <- make_groups(n = c(40, 30), d = 5)
  x <- cbind(dat$x, dat$x[, 2])   # column 6 duplicates column 2: exact ties
  prep <- fairproj:::fp_css_prepare(group_moments(x, dat$g), 2L)
  b2 <- fairproj:::fp_css_best2_matrix(prep, 2L, 2L)
  run <- function(rule) fairproj:::fp_css_greedy_cpp(prep$gram, prep$factor, b2, 2L, rule = rule)$columns
  ex <- run("exact")
  au <- run("authors_greedy")
  # the exact rule takes the first of tied candidates, the authors' scan the last
  expect_false(6L %in% ex)
  if (2L %in% ex) expect_true(6L %in% au)
  expect_length(run("authors_s_greedy"), 2L)
  expect_error(run("authors"), class = "fairproj_input_error")
})

test_that("errors raised in compiled CSS code reach the user classed", {
  chk <- function(expr) expect_error(expr, class = "fairproj_numerical_error")
  G <- list(diag(3))
  chk(fairproj:::fp_css_prefix(G, 5L))
  chk(fairproj:::fp_css_greedy_cpp(G, G, matrix(1, 2, 1), 2L, candidates = 1L))
  chk(fairproj:::fp_css_lowqr_cpp(G, G, 2L, candidates = 1L))
  chk(fairproj:::fp_css_exhaustive_cpp(G, G, 1, 5L))
  chk(fairproj:::fp_css_sampler_pass_cpp(cbind(1:2), order = 5L, sums = 0, active = TRUE, theta = 1, room = 1L))
})
