# The one loss helper of the CSS methods (R/css-loss.R): every loss a method compares or stores
# is computed as the reported ratios are, so the numbers agree to the last bit.

test_that("greedy's candidate losses and random's draws equal the reported loss exactly", {
  ir <- as.matrix(iris[, 1:4])
  for (dat in list(list(x = ir, g = iris$Species), make_groups(n = c(50, 40, 30), d = 7, seed = 3))) {
    f <- fair_css(dat$x, dat$g, 3)
    expect_identical(f$candidates$loss[f$candidates$denominators == f$denominators], f$loss)
    set.seed(2)
    r <- fair_css(dat$x, dat$g, 3, "random", r = 10)
    expect_true(r$loss %in% r$random_losses)
  }
})

test_that("fp_css_loss is the largest per-group ratio of css_loss(), and the pooled loss of exhaustive", {
  dat <- make_groups(n = c(40, 30), d = 6, seed = 4)
  m <- group_moments(dat$x, dat$g)
  prep <- fairproj:::fp_css_prepare(m, 2L)
  for (S in list(1L, c(2L, 5L), c(6L, 1L, 3L))) {
    l <- fairproj:::fp_css_loss(prep$factor, S, prep$best2)
    expect_identical(l, as.numeric(css_loss(m, columns = S, k = 2)))
  }
  ex <- fair_css(m, k = 2, method = "exhaustive")
  pp <- fairproj:::fp_css_pooled(prep)
  expect_identical(fairproj:::fp_css_loss(list(pp$factor), ex$unfair$columns, pp$best2), ex$unfair$loss_pooled)
  # k = d: the reported convention (1 when the error vanishes) with full = TRUE
  pf <- fairproj:::fp_css_prepare(m, 6L)
  expect_identical(fairproj:::fp_css_loss(pf$factor, 1:6, pf$best2, full = TRUE, tot2 = pf$tot2), 1)
  expect_identical(fairproj:::fp_css_loss(pf$factor, 1:3, pf$best2, full = TRUE, tot2 = pf$tot2), Inf)
})
