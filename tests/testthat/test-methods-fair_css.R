test_that("fair_css results tidy, plot and autoplot", {
  dat <- make_groups(n = c(80, 70), d = 6)
  f <- fair_css(dat$x, dat$g, k = 3)
  td <- tidy(f)
  expect_equal(td$column, f$column_names)
  expect_equal(td$index, f$columns)
  expect_equal(td$loss[nrow(td)], f$loss)
  expect_equal(tidy(f, "groups")$ratio, f$group_stats$ratio)
  tp <- tidy(f, "path")
  expect_equal(nrow(tp), nrow(f$path) * 2L)
  expect_equal(max(tp$loss[tp$columns == 3]), f$loss)
  if (requireNamespace("tibble", quietly = TRUE)) expect_s3_class(td, "tbl_df")
  expect_error(tidy(f, "nope"), class = "fairproj_input_error")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  pd <- plot(f)
  expect_setequal(as.character(unique(pd$group)), c(levels(dat$g), "MinMaxLoss (largest)"))
  expect_error(plot(f, "errors"), class = "fairproj_input_error")
  skip_if_not_installed("ggplot2")
  expect_s3_class(ggplot2::autoplot(f), "ggplot")
})

test_that("reconstruct(), fitted(), residuals() and augment() of a fair_css fit take zero rows with a zero-length group", {
  set.seed(1)
  x <- matrix(rnorm(240), 60, 4)
  g <- rep(c("a", "b"), 30)
  f <- fair_css(x, g, k = 2)
  for (grp in list(NULL, character(0), factor(character(0), levels = c("a", "b")))) {
    expect_identical(dim(reconstruct(f, x[0, ], group = grp)), c(0L, 4L))
    expect_identical(dim(fitted(f, x[0, ], group = grp)), c(0L, 4L))
    expect_identical(dim(residuals(f, x[0, ], group = grp)), c(0L, 4L))
  }
  expect_identical(nrow(augment(f, data = as.data.frame(x[0, ]), group = character(0))), 0L)
  expect_identical(nrow(augment(f, data = data.frame(x, G = g)[0, ], group = "G")), 0L)
  # a group whose length is not the rows' stays an error naming `group`
  expect_error(reconstruct(f, x[0, ], group = "a"), "^`group` has length 1", class = "fairproj_input_error")
})

test_that("predict() keeps missing values in their cells; reconstruct() gives NA rows only for NA in selected columns", {
  set.seed(1)
  x <- matrix(rnorm(600), 100)
  g <- rep(1:2, 50)
  f <- fair_css(x, g, k = 2)
  xn <- x[1:3, ]
  xn[2, f$columns[1]] <- NA
  xn[3, setdiff(1:6, f$columns)[1]] <- NA
  p <- predict(f, xn)
  expect_identical(which(is.na(p)), 2L)
  expect_identical(unname(p[-2, ]), x[c(1, 3), f$columns])
  r <- reconstruct(f, xn)
  expect_true(all(is.na(r[2, ])))
  expect_identical(r[c(1, 3), ], reconstruct(f, x[1:3, ])[c(1, 3), ])
})

test_that("predict(), reconstruct(), fitted(), residuals() and augment() of a fair_css fit refuse a misspelt newdata", {
  X <- as.matrix(iris[1:4])
  G <- iris$Species
  f <- fair_css(X, G, 2)
  for (fun in list(predict, reconstruct, fitted, residuals, augment)) {
    e <- expect_error(fun(f, new_data = X[1:5, ]), "^`\\.\\.\\.` has argument\\(s\\) that .* does not take: new_data",
                      class = "fairproj_input_error")
    expect_match(conditionMessage(e), "for `new_data` give `newdata`", fixed = TRUE)
  }
  expect_error(reconstruct(f, X, grop = G), "does not take: grop", class = "fairproj_input_error")
  expect_identical(dim(reconstruct(f, X[1:5, ], group = G[1:5])), c(5L, 4L))
  expect_identical(nrow(augment(f, data = X, group = G)), 150L)
  expect_identical(nrow(augment(f, newdata = X[1:5, ])), 5L)
})
