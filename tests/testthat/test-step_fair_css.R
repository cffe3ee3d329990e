test_that("options that the steps set themselves are refused at creation and at prep(), naming `options`", {
  skip_if_not_installed("recipes")
  dat <- make_groups(n = c(50, 50), d = 6)
  df <- data.frame(dat$x, g = dat$g)
  rec <- recipes::recipe(~ ., data = df)
  for (step in list(step_fair_css, step_fair_pca)) {
    add <- function(options) step(rec, recipes::all_numeric(), group = g, options = options)
    expect_error(add(list(k = 3)), "`options` has argument\\(s\\) that step_fair_.*k \\(from `num_comp`\\)",
                 class = "fairproj_input_error")
    expect_error(add(list(method = "lowqr")), "`options` .*method \\(from `method`\\)", class = "fairproj_input_error")
    expect_error(add(list(group = "g")), "`options` .*group \\(from `group`\\)", class = "fairproj_input_error")
    expect_error(add(list(x = 1)), "`options` .*x \\(from the columns the step selects\\)",
                 class = "fairproj_input_error")
    expect_error(add(list(num_comp = 1)), "`options` .*num_comp", class = "fairproj_input_error")
    expect_error(add(list(1)), "`options` must be a named list", class = "fairproj_input_error")
    expect_error(add(1), "`options` must be a named list", class = "fairproj_input_error")
    # options changed after creation are checked at prep()
    r <- add(list())
    r$steps[[1]]$options <- list(k = 3)
    expect_error(recipes::prep(r, training = df), "`options` .*k \\(from `num_comp`\\)")
  }
  expect_s3_class(recipes::prep(step_fair_css(rec, recipes::all_numeric(), group = g,
                                              options = list(scale. = TRUE)), training = df), "recipe")
})
