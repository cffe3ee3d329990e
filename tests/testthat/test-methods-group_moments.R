# tidy(), as.data.frame() and summary() of group_moments objects: one row per group with the
# numbers print() shows.

test_that("tidy(), as.data.frame() and summary() give each group's rows and total variance", {
  dat <- make_groups(n = c(60, 40), d = 3)
  m <- group_moments(dat$x, dat$g)
  tv <- vapply(levels(dat$g), function(l) {
    xa <- dat$x[dat$g == l, ]
    sum(diag(cov(xa))) * (nrow(xa) - 1) / nrow(xa)
  }, numeric(1))
  td <- tidy(m)
  expect_s3_class(td, "data.frame")
  expect_identical(names(td), c("group", "n", "total_variance"))
  expect_identical(td$group, levels(dat$g))
  expect_identical(td$n, c(60L, 40L))
  expect_equal(td$total_variance, unname(tv), tolerance = 1e-12)
  df <- as.data.frame(m)
  expect_identical(class(df), "data.frame")
  expect_equal(df, as.data.frame(td))
  s <- summary(m)
  expect_s3_class(s, "summary.group_moments")
  expect_identical(names(s$table), c("group", "n", "prop", "total_variance"))
  expect_equal(s$table$prop, c(0.6, 0.4))
  expect_identical(s$columns, m$colnames)
  # the same numbers as print(), which the summary's print repeats
  p <- capture.output(print(m, digits = 5))
  ps <- capture.output(print(s, digits = 5))
  expect_identical(ps[1L], p[1L])
  for (l in levels(dat$g)) {
    expect_identical(tail(moments_row(ps, l), 1L), tail(moments_row(p, l), 1L))
    expect_equal(as.numeric(tail(moments_row(p, l), 1L)), unname(signif(tv[[l]], 5)))
  }
  expect_match(ps, "^Columns: ", all = FALSE)
  expect_output(print(summary(group_moments(dat$x, dat$g, blocks = 10))), "Bootstrap blocks kept: 10 per group")
  # a misspelt option is an error naming `...`, not ignored
  expect_error(tidy(m, matrix = "groups"), "^`...`", class = "fairproj_input_error")
  expect_error(summary(m, digits = 3), "^`...`", class = "fairproj_input_error")
  expect_error(tidy(structure(list(n = 1), class = "group_moments")), "^`x`", class = "fairproj_input_error")
})

test_that("as.data.frame() takes base R's arguments, so data.frame() and as_tibble() of moments work", {
  dat <- make_groups(n = c(60, 40), d = 3)
  m <- group_moments(dat$x, dat$g)
  expect_equal(data.frame(m), as.data.frame(m))
  expect_equal(as.data.frame(m, stringsAsFactors = TRUE)$group, factor(levels(dat$g), levels(dat$g)))
  expect_identical(rownames(as.data.frame(m, row.names = c("first", "second"))), c("first", "second"))
  expect_error(as.data.frame(m, row.names = "one"), "^`row.names`", class = "fairproj_input_error")
  expect_error(as.data.frame(m, stringsAsFactors = NA), "^`stringsAsFactors`", class = "fairproj_input_error")
  skip_if_not_installed("tibble")
  expect_equal(as.data.frame(tibble::as_tibble(m)), as.data.frame(m))
})

test_that("a total variance beyond double range is NA in the numbers and print()'s text beside, never Inf", {
  dat <- make_groups(n = c(60, 40), d = 3)
  x <- dat$x
  # far columns, totals still in double range: plain numbers, no text column
  x[, 1] <- x[, 1] * 1e130
  m <- fair_pca(x, dat$g, 1, method = "standard", scale. = TRUE)$moments
  expect_true(any(m$exponent != 0))
  td <- tidy(m)
  expect_identical(names(td), c("group", "n", "total_variance"))
  truth <- sum(diag(cov(x[dat$g == "a", ]))) * 59 / 60
  expect_lt(abs(td$total_variance[1L] / truth - 1), 1e-10)
  # beyond double range: print() shows a mantissa and a power of ten
  x[, 1] <- dat$x[, 1] * 1e200
  m2 <- fair_pca(x, dat$g, 1, method = "standard", scale. = TRUE)$moments
  td2 <- tidy(m2)
  expect_identical(names(td2), c("group", "n", "total_variance", "total_variance_text"))
  expect_true(all(is.na(td2$total_variance)))
  expect_false(any(is.infinite(td2$total_variance)))
  shown <- moments_row(capture.output(print(m2, digits = 6)), "a")[3L]
  expect_match(td2$total_variance_text[1L], "^[1-9](\\.[0-9]+)?e\\+(399|400)$")
  num <- function(s) as.numeric(sub("e.*", "", s)) * 10^(as.numeric(sub(".*e", "", s)) - 400)
  expect_lt(abs(num(td2$total_variance_text[1L]) / num(shown) - 1), 1e-5)
  expect_equal(as.data.frame(m2), as.data.frame(td2))
  expect_identical(moments_row(capture.output(print(summary(m2), digits = 6)), "a")[4L], shown)
})

test_that("a group with no rows has n 0 and no total variance (NA, '-' in print)", {
  m <- moments_empty_group()$moments
  td <- tidy(m)
  expect_identical(td$n, c(3L, 0L))
  expect_true(is.na(td$total_variance[2L]))
  expect_equal(summary(m)$table$prop, c(1, 0))
  none <- m
  none$n[] <- 0
  expect_true(all(is.na(summary(none)$table$prop)))  # no rows at all: no shares (not NaN)
  expect_false(any(is.nan(summary(none)$table$prop)))
  expect_identical(moments_row(capture.output(print(summary(m))), "b")[4L], "-")
})

test_that("glance() gives one row of counts; augment() is a classed error (moments hold no rows)", {
  dat <- make_groups(n = c(30, 20), d = 3)
  m <- group_moments(dat$x, dat$g)
  gl <- glance(m)
  expect_s3_class(gl, "data.frame")
  expect_identical(nrow(gl), 1L)
  expect_identical(names(gl), c("ncol", "ngroups", "nobs", "blocks"))
  expect_identical(c(gl$ncol, gl$ngroups, gl$nobs), c(3L, 2L, 50L))
  expect_identical(gl$blocks, NA_integer_)
  expect_identical(glance(group_moments(dat$x, dat$g, blocks = 10))$blocks, 10L)
  expect_error(glance(m, extra = 1), "^`...`", class = "fairproj_input_error")
  # generics' "no applicable method" before
  expect_error(augment(m), "^`x` .*augment\\(fit, data = rows\\)", class = "fairproj_input_error")
  expect_error(augment(m, data = dat$x), "^`x`", class = "fairproj_input_error")
})
