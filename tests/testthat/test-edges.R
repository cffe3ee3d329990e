# Bad and extreme inputs at the package's doors (data in) and exits (results out to other
# packages): each a classed error or a documented result, never R's own error or a silent guess.

iris_x <- as.matrix(iris[1:4])
iris_g <- iris$Species

test_that("an argument a method does not take is a classed error before it is evaluated", {
  # model.frame()'s `weights` names a column of `data`: evaluating it in the caller fails with
  # R's "object not found"; it must be refused by name instead
  expect_error(fair_pca(~ ., iris, group = Species, k = 2, weights = Sepal.Length),
               class = "fairproj_input_error")
  expect_error(fair_css(~ ., iris, group = Species, k = 2, weights = Sepal.Length),
               class = "fairproj_input_error")
  expect_error(tune_fair_pca(~ ., iris, group = Species, k = 2, weights = Sepal.Length),
               class = "fairproj_input_error")
  expect_error(pareto_front(~ ., iris, group = Species, k = 2, restarts = 0, weights = Sepal.Length),
               class = "fairproj_input_error")
  expect_error(fair_pca(iris_x, iris_g, k = 2, no_such_argument = stop("evaluated")),
               class = "fairproj_input_error")
  expect_error(fair_audit(~ ., iris, group = Species, k = 1, weights = Sepal.Length),
               class = "fairproj_input_error")
})

test_that("group may name a column of a data.frame in every front door", {
  ref <- fair_pca(iris_x, iris_g, k = 2, method = "standard")
  fit <- fair_pca(iris, "Species", k = 2, method = "standard")
  expect_equal(fit$rotation, ref$rotation)
  expect_equal(fair_css(iris, "Species", k = 2)$columns, fair_css(iris_x, iris_g, k = 2)$columns)
  expect_equal(pareto_front(iris, "Species", k = 2, restarts = 0)$table$total,
               pareto_front(iris_x, iris_g, k = 2, restarts = 0)$table$total)
  kp <- fair_kpca(iris, "Species", k = 2, kernel = "linear")
  expect_length(kp$eigenvalues, 2L)
  expect_equal(kp$eigenvalues, fair_kpca(iris_x, iris_g, k = 2, kernel = "linear")$eigenvalues)
  expect_error(fair_pca(iris, "Specie", k = 2), class = "fairproj_input_error")
  expect_error(fair_css(iris, "Specie", k = 2), class = "fairproj_input_error")
})

test_that("augment() scores reordered rows by their values when the fit has no row names", {
  skip_if_not_installed("generics")
  fit <- fair_pca(iris_x, iris_g, k = 2)   # as.matrix(iris) carries no row names
  expect_null(rownames(fit$x))
  set.seed(3)
  i <- sample(150)
  expect_equal(augment(fit, data = iris[i, ])$.fittedPC1, unname(fit$x[i, 1]))
  expect_equal(augment(fit, data = iris[c(2, 1, 3:150), ])$.fittedPC2, unname(fit$x[c(2, 1, 3:150), 2]))
  a <- augment(fit, data = iris)
  expect_equal(a$.fittedPC1, unname(fit$x[, 1]))
})

test_that("predict() and reconstruct() on 0 rows give 0 rows, as predict.prcomp", {
  fit <- fair_pca(iris_x, iris_g, k = 2)
  for (nd in list(iris_x[0, ], iris[0, 1:4], iris[0, ])) {
    s <- predict(fit, nd)
    expect_identical(dim(s), c(0L, 2L))
    expect_identical(dim(reconstruct(fit, nd)), c(0L, 4L))
  }
  expect_identical(dim(predict(fair_css(iris_x, iris_g, k = 2), iris_x[0, ])), c(0L, 2L))
  expect_identical(dim(predict(prcomp(iris_x, rank. = 2), iris_x[0, ])), c(0L, 2L))
})

test_that("duplicated column names are matched in newdata as in the fit", {
  xd <- iris_x
  colnames(xd) <- c("a", "a", "b", "b")
  fit <- fair_pca(xd, iris_g, k = 2)
  expect_identical(rownames(fit$rotation), c("a", "a.1", "b", "b.1"))
  expect_equal(predict(fit, xd), fit$x, ignore_attr = TRUE)
  dd <- as.data.frame(xd)
  names(dd) <- c("a", "a", "b", "b")
  expect_equal(predict(fit, dd), fit$x, ignore_attr = TRUE)
})

test_that("fair_kpca() predict() refuses newdata whose names disagree with the fit's", {
  fit <- fair_kpca(iris_x, iris_g, k = 2, kernel = "linear")
  nd <- iris[4:1]
  expect_equal(predict(fit, nd), predict(fit, iris_x), ignore_attr = TRUE)
  renamed <- setNames(iris[4:1], c("w", "x", "y", "z"))
  expect_error(predict(fit, renamed), class = "fairproj_newdata_error")
})

test_that("fair_audit() names `methods` in its errors and lets the formula drop the outcome", {
  expect_error(fair_audit(iris_x, iris_g, k = 1, methods = "nope"),
               class = "fairproj_input_error", regexp = "`methods`")
  d <- transform(iris, big = as.numeric(Petal.Width > 1.5))
  a <- fair_audit(~ . - big, data = d, group = Species, k = 1:2, outcome = big, seed = 1)
  b <- fair_audit(~ Sepal.Length + Sepal.Width + Petal.Length + Petal.Width, data = d,
                  group = Species, k = 1:2, outcome = big, seed = 1)
  expect_equal(a$groups_table$error, b$groups_table$error)
  expect_equal(a$downstream$accuracy, b$downstream$accuracy)
  expect_error(fair_audit(~ . + log(big + 1), data = d, group = Species, k = 1, outcome = big),
               class = "fairproj_input_error")
})

test_that("group_moments() on a directory or a unary + is a classed error or the identity", {
  skip_if_not_installed("readr")
  dir <- tempfile("dir")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  expect_error(group_moments(dir, "g"), class = "fairproj_input_error")
  empty <- file.path(dir, "empty.csv")
  file.create(empty)
  expect_error(group_moments(empty, "g"), class = "fairproj_source_error")
  semi <- file.path(dir, "semi.csv")
  writeLines(c("a;b;g", "1;2;x", "3;5;y"), semi)
  expect_error(group_moments(semi, "g"), class = "fairproj_input_error", regexp = "delim")
  m <- group_moments(iris_x, iris_g)
  expect_identical(+m, m)
})

test_that("formula fits without scores never return xlevels for the scores", {
  # `fit$x` partially matches `xlevels` when a fit has no scores: padding for na.exclude crashed
  # and predict() without newdata returned the factor levels
  ir <- transform(iris, Sepal.Length = replace(Sepal.Length, 3, NA))
  fc <- fair_css(~ ., ir, group = Species, k = 2, na.action = na.exclude)
  expect_s3_class(fc, "fair_css")
  fit <- fair_pca(~ ., iris, group = Species, k = 2, retx = FALSE)
  expect_error(predict(fit), class = "fairproj_input_error")
  expect_equal(fitted(fit, iris), fitted(fair_pca(~ ., iris, group = Species, k = 2)))
  fe <- fair_pca(~ ., ir, group = Species, k = 2, retx = FALSE, na.action = na.exclude)
  expect_null(fe[["x"]])
  expect_error(group_errors(fe), class = "fairproj_input_error")
})

test_that("integer64 columns (a database's BIGINT) are read by value, not by their bits", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("DBI")
  skip_if_not_installed("bit64")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:", bigint = "integer64")
  on.exit(DBI::dbDisconnect(con))
  d <- data.frame(iris[1:4], big = seq(3e9, by = 1000, length.out = 150) + round(iris$Petal.Width * 1e4),
                  Species = as.character(iris$Species))
  DBI::dbWriteTable(con, "d", d, field.types = c(Sepal.Length = "REAL", Sepal.Width = "REAL",
                                                  Petal.Length = "REAL", Petal.Width = "REAL",
                                                  big = "INTEGER", Species = "TEXT"))
  d64 <- DBI::dbGetQuery(con, "SELECT * FROM d")
  expect_s3_class(d64$big, "integer64")
  ref <- fair_pca(d[1:5], d$Species, k = 2, scale. = TRUE)
  fit <- fair_pca(d64[1:5], d64$Species, k = 2, scale. = TRUE)
  expect_equal(fit$center, ref$center)
  expect_equal(fit$rotation, ref$rotation)
  expect_equal(predict(ref, d64[1:5]), predict(ref, d[1:5]))
  ff <- fair_pca(~ . - Species, d64, group = Species, k = 2, scale. = TRUE)
  expect_equal(ff$center, ref$center)
  expect_equal(predict(ff, d64), predict(ff, d))
  expect_equal(moments_mean(group_moments(d64[1:5], d64$Species)),
               moments_mean(group_moments(d[1:5], d$Species)))
  DBI::dbExecute(con, "CREATE TABLE huge (a INTEGER, b REAL)")
  DBI::dbExecute(con, "INSERT INTO huge VALUES (9007199254740993, 1), (2, 2), (3, 4), (1, 3)")
  h <- DBI::dbGetQuery(con, "SELECT * FROM huge")
  expect_warning(group_moments(h, c("x", "y", "x", "y")), class = "fairproj_precision_warning")
})

test_that("an offset() term in a formula is an error, not silently left out", {
  expect_error(fair_pca(~ Sepal.Width + Petal.Length + offset(Sepal.Length), iris, group = Species, k = 1),
               class = "fairproj_input_error")
  expect_error(fair_css(~ Sepal.Width + Petal.Length + offset(Sepal.Length), iris, group = Species, k = 1),
               class = "fairproj_input_error")
})

test_that("functions that need rows say so when given group moments", {
  m <- group_moments(iris_x, iris_g)
  expect_error(tune_fair_pca(m, k = 2), class = "fairproj_input_error", regexp = "rows")
  expect_error(fair_kpca(m, k = 2), class = "fairproj_input_error", regexp = "rows")
  expect_error(group_errors(fair_pca(m, k = 2), m), class = "fairproj_input_error", regexp = "rows")
})

test_that("fairness gaps over one group warn that they are 0 by construction", {
  expect_warning(g <- fairness_gaps(c(1, 0, 1, 1), c(1, 0, 0, 1), rep("a", 4)),
                 class = "fairproj_single_group_warning")
  expect_equal(unname(g[c("dp_gap", "eo_gap")]), c(0, 0))
  expect_no_warning(fairness_gaps(c(1, 0, 1, 1), c(1, 0, 0, 1), c("a", "a", "b", "b")))
})

test_that("a formula fit refuses newdata columns of another type, naming them", {
  d <- transform(iris, f = factor(rep(c("a", "b", "c"), 50)), l = Sepal.Length > 5)
  fit <- fair_pca(~ ., d, group = Species, k = 2)
  expect_error(predict(fit, transform(d, Sepal.Length = as.character(Sepal.Length))),
               class = "fairproj_newdata_error", regexp = "Sepal.Length")
  expect_error(predict(fit, transform(d, f = rep(1:3, 50))), class = "fairproj_newdata_error", regexp = "'f'")
  expect_error(predict(fit, transform(d, l = as.numeric(l))), class = "fairproj_newdata_error", regexp = "'l'")
  # text for a factor is fine (as model.frame), and an all-NA column gives NA rows
  expect_equal(predict(fit, transform(d, f = as.character(f))), predict(fit, d))
  s <- predict(fit, transform(d[1:2, ], f = NA))
  expect_identical(dim(s), c(2L, 2L))
  expect_true(all(is.na(s)))
})

test_that("every export called without a required argument is a classed error that names it", {
  # R's own "argument is missing, with no default" is not classed and comes from wherever the
  # argument is first used; the doors check their required arguments first
  ns <- asNamespace("fairproj")
  generics <- c("tidy", "glance", "augment")  # re-exported generics: their dispatch is theirs
  for (f in setdiff(getNamespaceExports("fairproj"), generics)) {
    fn <- get(f, ns)
    fm <- formals(fn)
    req <- setdiff(names(fm)[vapply(fm, function(v) identical(v, quote(expr = )), NA)], "...")
    if (!length(req) && f != "intersect_groups") next
    # the recipe steps ask for recipes first (a fairproj_missing_package error without it)
    if (startsWith(f, "step_") && !requireNamespace("recipes", quietly = TRUE)) next
    err <- tryCatch(fn(), error = function(e) e)
    expect_s3_class(err, "fairproj_input_error")
    arg <- if (f == "intersect_groups") "..." else c(req, "group")
    expect_true(any(startsWith(conditionMessage(err), sprintf("`%s`", arg))), info = f)
  }
  # and the later ones, where the first is given
  x <- matrix(rnorm(60), 20)
  g <- rep(c("a", "b"), 10)
  f <- fair_pca(x, g, k = 1, method = "standard")
  m <- group_moments(x, g)
  expect_error(variance_explained(f), "^`newdata` is missing", class = "fairproj_input_error")
  expect_error(mmd2(predict(f, x)), "^`group` is missing", class = "fairproj_input_error")
  expect_error(pareto_front(x, g), "^`k` is missing", class = "fairproj_input_error")
  expect_error(moments_best_error(m), "^`k` is missing", class = "fairproj_input_error")
  expect_error(css_loss(x, g), "^`columns` is missing", class = "fairproj_input_error")
  expect_error(fairness_gaps(rep(1, 20)), "^`y` is missing", class = "fairproj_input_error")
  expect_error(downstream_metrics(predict(f, x)), "^`y` is missing", class = "fairproj_input_error")
  expect_error(new_group_moments(n = c(a = 1)), "^`mean` is missing", class = "fairproj_input_error")
  expect_error(intersect_groups(list()), "^`\\.\\.\\.` is empty", class = "fairproj_input_error")
  expect_error(delta_f_lin(f), "^`x` is missing", class = "fairproj_input_error")
  expect_error(pareto_front(x, k = 1), "^`group` is missing", class = "fairproj_input_error")
  # group moments carry their groups
  expect_s3_class(pareto_front(m, k = 1, restarts = 0), "fairproj_pareto_front")
  # a generic whose first argument is left out but another given dispatches on that one, as
  # UseMethod() does
  f2 <- fair_pca(formula = ~ Sepal.Length + Sepal.Width + Petal.Length, data = iris, group = Species, k = 1)
  expect_s3_class(f2, "fair_pca")
  a2 <- fair_audit(formula = ~ Sepal.Length + Sepal.Width + Petal.Length, data = iris, group = Species, k = 1,
                   replicates = 0)
  expect_s3_class(a2, "fairproj_audit")
})
