# The doors of the recipes steps: arguments checked at creation and after update(), errors naming
# the step's arguments, score columns that never replace the data's.
step_data <- function() {
  set.seed(1)
  n <- 60
  data.frame(y = rnorm(n), a = rnorm(n), b = rnorm(n), c = rnorm(n), e = rnorm(n),
             g = factor(rep(c("u", "v"), length.out = n)))
}

# The condition a step raised at prep(): newer recipes wrap it (as `parent`), older do not.
step_cause <- function(e) if (inherits(e, "fairproj_error")) e else e$parent

test_that("step_fair_pca(): score columns that would replace the data's are an error naming prefix", {
  skip_if_not_installed("recipes")
  d <- step_data()
  d1 <- transform(d, FPC1 = 100 + rnorm(nrow(d)))
  rec <- step_fair_pca(recipes::recipe(y ~ ., data = d1), a, b, c, group = g)
  expect_error(recipes::bake(recipes::prep(rec, d1), NULL), "`prefix` gives score column\\(s\\) 'FPC1'",
               class = "fairproj_input_error")
  d2 <- stats::setNames(d, c("y", "a1", "a2", "c", "e", "g"))
  rec2 <- step_fair_pca(recipes::recipe(y ~ ., data = d2), a1, a2, c, group = g, prefix = "a", keep_original_cols = TRUE)
  expect_error(recipes::bake(recipes::prep(rec2, d2), NULL), "`prefix` gives score column", class = "fairproj_input_error")
  # dropped originals may be reused
  rec3 <- step_fair_pca(recipes::recipe(y ~ ., data = d2), a1, a2, c, group = g, prefix = "a", num_comp = 2)
  expect_identical(sort(names(recipes::bake(recipes::prep(rec3, d2), NULL))), c("a1", "a2", "e", "g", "y"))
})

test_that("steps check prefix, flags and role when made and again at prep() after update()", {
  skip_if_not_installed("recipes")
  d <- step_data()
  base <- recipes::recipe(y ~ ., data = d)
  for (pf in list(NA, c("A", "B"), "", 1)) {
    expect_error(step_fair_pca(base, a, b, c, group = g, prefix = pf), "^`prefix` must be one non-empty string",
                 class = "fairproj_input_error")
  }
  r <- step_fair_pca(base, a, b, c, group = g)
  r$steps[[1]] <- stats::update(r$steps[[1]], keep_group = NA)
  e <- expect_error(recipes::prep(r, d))
  expect_s3_class(step_cause(e), "fairproj_input_error")
  expect_match(conditionMessage(step_cause(e)), "^`keep_group`")
  r <- step_fair_css(base, a, b, c, group = g)
  r$steps[[1]] <- stats::update(r$steps[[1]], group_role = "")
  e <- expect_error(recipes::prep(r, d))
  expect_match(conditionMessage(step_cause(e)), "^`group_role`")
})

test_that("steps take skip and id as recipes' steps do, when made and at prep() after update()", {
  skip_if_not_installed("recipes")
  d <- step_data()
  base <- recipes::recipe(y ~ ., data = d)
  for (step in list(step_fair_pca, step_fair_css)) {
    for (sk in list(NA, "yes", c(TRUE, FALSE), 1)) {
      expect_error(step(base, a, b, c, group = g, skip = sk), "^`skip` must be TRUE or FALSE", class = "fairproj_input_error")
    }
    for (id in list(3, NA_character_, c("a", "b"), TRUE)) {
      expect_error(step(base, a, b, c, group = g, id = id), "^`id` must be one string", class = "fairproj_input_error")
    }
    expect_identical(step(base, a, b, c, group = g, id = "mine", skip = TRUE)$steps[[1]]$id, "mine")
    expect_match(step(base, a, b, c, group = g)$steps[[1]]$id, "^fair_")  # NULL: a random id
    r <- step(base, a, b, c, group = g)
    r$steps[[1]] <- stats::update(r$steps[[1]], skip = NA)
    e <- expect_error(recipes::prep(r, d))
    expect_s3_class(step_cause(e), "fairproj_input_error")
    expect_match(conditionMessage(step_cause(e)), "^`skip`")
    r$steps[[1]] <- stats::update(r$steps[[1]], skip = FALSE, id = 3)
    e <- expect_error(recipes::prep(r, d))
    expect_match(conditionMessage(step_cause(e)), "^`id`")
  }
})

test_that("steps take role as recipes' steps do: one non-empty string, when made and at prep() after update()", {
  skip_if_not_installed("recipes")
  d <- step_data()
  base <- recipes::recipe(y ~ ., data = d)
  for (step in list(step_fair_pca, step_fair_css)) {
    css <- identical(step, step_fair_css)
    # NA is recipes' role of a step that makes no columns, as step_fair_css()
    for (rl in c(list(c("predictor", "outcome"), "", 1, NULL, c(NA, NA)), if (!css) list(NA, NA_character_))) {
      expect_error(step(base, a, b, c, group = g, role = rl), "^`role` must be one string",
                   class = "fairproj_input_error")
    }
    expect_identical(step(base, a, b, c, group = g, role = "feature")$steps[[1]]$role, "feature")
    if (css) {
      baked <- recipes::bake(recipes::prep(step(base, a, b, c, group = g, num_comp = 2, role = NA), d), NULL)
      expect_identical(baked, recipes::bake(recipes::prep(step(base, a, b, c, group = g, num_comp = 2), d), NULL))
    }
    r <- step(base, a, b, c, group = g)
    r$steps[[1]] <- stats::update(r$steps[[1]], role = if (css) "" else NA)
    e <- expect_error(recipes::prep(r, d))
    expect_s3_class(step_cause(e), "fairproj_input_error")
    expect_match(conditionMessage(step_cause(e)), "^`role`")
  }
})

test_that("num_comp = Inf is an error at prep() naming num_comp, as in step_pca(); a finite excess is capped", {
  skip_if_not_installed("recipes")
  d <- step_data()
  base <- recipes::recipe(y ~ ., data = d)
  for (step in list(step_fair_pca, step_fair_css)) {
    for (nc in list(Inf, -Inf, 1.5)) {
      e <- expect_error(recipes::prep(step(base, a, b, c, group = g, num_comp = nc), d))
      expect_s3_class(step_cause(e), "fairproj_input_error")
      expect_match(conditionMessage(step_cause(e)), "^`num_comp` must be a finite whole number, 0 or more")
    }
  }
  p <- recipes::prep(step_fair_pca(base, a, b, c, group = g, num_comp = 50, method = "standard"), d)
  expect_identical(p$steps[[1]]$num_comp, 3L)
})

test_that("untrained steps without selectors tidy to no rows", {
  skip_if_not_installed("recipes")
  d <- step_data()
  expect_identical(nrow(recipes::tidy(step_fair_pca(recipes::recipe(y ~ ., data = d), group = g), 1)), 0L)
  expect_identical(nrow(recipes::tidy(step_fair_css(recipes::recipe(y ~ ., data = d), group = g), 1)), 0L)
  expect_identical(recipes::tidy(step_fair_pca(recipes::recipe(y ~ ., data = d), a, b, group = g), 1)$terms, c("a", "b"))
})

test_that("step errors name the step's arguments and the column, and keep the fit's condition class", {
  skip_if_not_installed("recipes")
  d <- step_data()
  e <- expect_error(recipes::prep(step_fair_pca(recipes::recipe(y ~ ., data = d), a, b, group = g,
                                                options = list(bogus = 1)), d))
  expect_match(conditionMessage(step_cause(e)), "^`options` has argument\\(s\\) that method 'minmax' does not take: bogus")
  dn <- d
  dn$c[5] <- NA
  e <- expect_error(recipes::prep(step_fair_pca(recipes::recipe(y ~ ., data = dn), a, b, c, group = g), dn))
  expect_match(conditionMessage(step_cause(e)), "^`...` selects column 'c', which has 1 missing value")
  dg <- d
  dg$g[4] <- NA
  e <- expect_error(recipes::prep(step_fair_pca(recipes::recipe(y ~ ., data = dg), a, b, c, group = g), dg))
  expect_identical(class(step_cause(e)), unique(class(step_cause(e))))
  p <- recipes::prep(step_fair_pca(recipes::recipe(y ~ ., data = d), a, b, c, group = g), d)
  nd <- d[1:3, ]
  nd$a <- factor(nd$a)
  expect_error(recipes::bake(p, nd), "^`new_data` has non-numeric column\\(s\\) 'a' \\(factor\\)", class = "fairproj_input_error")
  nd <- d[1:3, ]
  nd$a[2] <- NA
  expect_true(is.na(recipes::bake(p, nd)$FPC1[2]))
  pc <- recipes::prep(step_fair_css(recipes::recipe(y ~ ., data = d), a, b, c, group = g, num_comp = 2), d)
  kept <- pc$steps[[1]]$res$column_names
  nd <- d[1:3, ]
  nd[[kept[1]]] <- as.character(nd[[kept[1]]])
  expect_error(recipes::bake(pc, nd), "^`new_data` has non-numeric column", class = "fairproj_input_error")
  nd <- d[1:3, ]
  nd[[kept[1]]][1] <- Inf
  expect_error(recipes::bake(pc, nd), "^`new_data` has 1 infinite value", class = "fairproj_input_error")
})
