test_that("several attributes give intersectional groups, empty cells dropped", {
  g <- intersect_groups(sex = c("F", "F", "M", "M", "M", "F"), band = c("a", "a", "b", "b", "a", "a"), min_cell = 1)
  expect_s3_class(g, "factor")
  expect_setequal(levels(g), c("F:a", "M:a", "M:b"))  # F:b is empty
  expect_equal(as.integer(table(g)[c("F:a", "M:a", "M:b")]), c(3L, 1L, 2L))
  expect_equal(attr(g, "cells")["M:b", "band"], "b")
  expect_error(intersect_groups(sex = c("F", "F", "M", "M", "M", "F"), band = c("a", "a", "b", "b", "a", "a")),
               class = "fairproj_input_error", regexp = "M:a")
  expect_error(intersect_groups(sex = c("F", NA), band = c("a", "b"), min_cell = 1), class = "fairproj_input_error",
               regexp = "sex")
  expect_error(intersect_groups(sex = c("F", "M"), band = c("a", "b", "c")), class = "fairproj_input_error",
               regexp = "band")
})

test_that("fits with several attributes report the cells and each attribute's margins exactly", {
  grp <- data.frame(species = iris$Species, long = iris$Sepal.Length > 5.8)
  for (method in c("standard", "minmax", "pareto", "robust")) {
    fit <- suppressWarnings(fair_pca(iris[, 1:4], grp, k = 2, method = method))
    cells <- interaction(grp$species, grp$long, sep = ":", drop = TRUE, lex.order = TRUE)
    expect_setequal(fit$group_stats$group, levels(cells))
    mg <- fit$group_margins
    expect_equal(nrow(mg), 3 + 2)
    # the species margin equals the per-group statistics of a fit's rotation with species as groups
    ref <- group_errors(fit, iris[, 1:4], iris$Species)
    sp <- mg[mg$attribute == "species", ]
    direct <- fairproj:::fp_group_stats(fairproj:::fp_prepare(group_moments(iris[, 1:4], iris$Species)),
                                        fit$rotation, 2, map = fit$map)
    expect_equal(sp$error, direct$error, tolerance = 1e-10)
    expect_equal(sp$loss, direct$loss, tolerance = 1e-10)
    expect_equal(sum(mg$n[mg$attribute == "long"]), 150)
  }
  # the minmax objective is over the cells
  fit <- fair_pca(iris[, 1:4], grp, k = 2, method = "minmax")
  expect_equal(fit$objective, max(fit$group_stats$loss), tolerance = 1e-8)
  expect_error(fair_pca(iris[, 1:4], data.frame(a = iris$Species, b = seq_len(150) %% 40), k = 2, method = "minmax"),
               class = "fairproj_input_error", regexp = "intersection cell")
})

test_that("cells never collide, whatever the attribute values (labels holding ':')", {
  a <- c("a:b", "a:b", "a", "a", "x", "x")
  b <- c("c", "c", "b:c", "b:c", "", "")
  g <- intersect_groups(a = a, b = b)
  expect_identical(nlevels(g), 3L)
  expect_equal(as.integer(table(g)), c(2L, 2L, 2L))
  expect_false(anyDuplicated(levels(g)) > 0)
  # readable labels: values are quoted only when they hold the separator, a quote or nothing
  expect_setequal(levels(g), c('"a:b":c', 'a:"b:c"', 'x:""'))
  expect_identical(attr(g, "cells")[levels(g)[as.integer(g[3])], "b"], "b:c")
  # plain values keep plain labels
  expect_setequal(levels(intersect_groups(s = c("F", "M", "F", "M"), r = c("W", "W", "B", "B"), min_cell = 1)),
                  c("F:B", "F:W", "M:B", "M:W"))
  # a fit sees two groups, not one
  x <- matrix(rnorm(24), 6, 4)
  m <- group_moments(x, data.frame(a = a, b = b))
  expect_equal(unname(m$n), c(2, 2, 2))
})

test_that("one-pass group coding gives factor()'s levels and codes, and the checks' errors (#36)", {
  as_group <- fairproj:::fp_as_group
  same <- function(v) {
    g <- as_group(v, length(v), min_levels = 1L)
    ref <- droplevels(factor(v))
    expect_identical(levels(g), levels(ref))
    expect_identical(as.integer(g), as.integer(ref))
    expect_identical(names(g), names(v))
  }
  set.seed(1)
  same(sample(c("b", "a", "c"), 500, TRUE))                      # few labels, in runs and not
  same(rep(c("z", "y"), each = 50))
  same(sample(sprintf("lab%03d", 1:200), 5000, TRUE))            # past the linear search: hashed
  same(sample(c(5L, -2L, 11L), 300, TRUE))
  same(sample(sprintf("%d", 1:40), 400, TRUE))                   # "10" < "2": the locale's order
  same(c(TRUE, FALSE, TRUE, TRUE))
  same(stats::setNames(c("u", "v", "u"), c("r1", "r2", "r3")))
  # the errors name the count and the first row, as before
  expect_error(as_group(c("a", NA, "b", NA), 4L), "contains 2 missing value", class = "fairproj_input_error")
  expect_error(as_group(c(1L, NA, 2L), 3L), "contains 1 missing value", class = "fairproj_input_error")
  expect_error(as_group(c("a", "b", "", ""), 4L), "2 empty label.*first in row 3", class = "fairproj_input_error")
  expect_error(as_group(c("a", "a", "b"), 3L, min_size = 2L), "'b'", class = "fairproj_input_error")
  expect_error(as_group(rep("a", 3), 3L), "at least 2 groups", class = "fairproj_input_error")
  # one label in two encodings is one group, as factor() makes it
  e1 <- "caf\u00e9"
  e2 <- iconv(e1, "UTF-8", "latin1")
  expect_false(identical(Encoding(e1), Encoding(e2)))
  g <- as_group(c(e1, e2, "b", e1), 4L)
  expect_identical(nlevels(g), 2L)
  expect_identical(as.integer(table(g)[[enc2utf8(e1)]]), 3L)
})

test_that("factors are coded by one tabulate, as the general route codes them (#36)", {
  ns <- asNamespace("fairproj")
  general <- function(v) {
    v <- ns$fp_na_level(v)
    g <- ns$fp_group_factor(v)
    list(g = g, sizes = tabulate(g, nlevels(g)))
  }
  set.seed(1)
  cases <- list(factor(sample(c("a", "b"), 1000, TRUE)), factor(sample(letters[1:5], 200, TRUE), levels = letters),
                factor(c("x", "y", "x"), levels = c("z", "y", "x")),
                ordered(c("lo", "hi", "lo"), levels = c("lo", "mid", "hi")),
                structure(factor(c("a", "b", "a")), names = c("r1", "r2", "r3")), addNA(factor(c("a", "b", "a"))))
  for (v in cases) expect_identical(ns$fp_group_factor_coded(v, "group"), general(v))
  fp_as_group <- ns$fp_as_group
  expect_error(fp_as_group(factor(c("a", NA, "b", NA)), 4), "contains 2 missing value", class = "fairproj_input_error")
  expect_error(fp_as_group(factor(c("a", "", "b", "")), 4), "2 empty label.*first in row 2", class = "fairproj_input_error")
  # an unused empty level is dropped, not an error
  expect_identical(levels(fp_as_group(factor(c("a", "b"), levels = c("", "a", "b")), 2)), c("a", "b"))
})

test_that("a list of one label per row is told apart from a list of attributes", {
  # as.list() of a label vector: before, "attribute 'attr1' has length 1, not 150"
  e <- expect_error(fair_pca(iris[, 1:4], as.list(as.character(iris$Species)), k = 2), class = "fairproj_input_error")
  expect_match(conditionMessage(e), "^`group` is a list of 150 single values: give the labels as a vector \\(unlist\\(\\) it\\)")
  # a list of attributes still works
  fit <- fair_pca(iris[, 1:4], list(species = iris$Species, long = iris$Sepal.Length > 5.8), k = 2, method = "standard")
  expect_gt(nrow(fit$group_stats), 3)
})

test_that("intersect_groups() errors name `...`, fitting functions' errors name `group`", {
  a <- rep(c("a", "b"), 50)
  b <- rep(c("x", "y"), each = 50)
  expect_error(intersect_groups(a, b[-1]), "^`\\.\\.\\.` has attribute 'attr2' that has length 99, not 100",
               class = "fairproj_input_error")
  expect_error(intersect_groups(s = a, t = b, min_cell = 30), "^`\\.\\.\\.` has 4 intersection cell",
               class = "fairproj_input_error")
  expect_error(intersect_groups(s = a, t = seq(0.5, 50, 0.5)), "^`\\.\\.\\.` has attribute 't'",
               class = "fairproj_input_error")
  set.seed(1)
  x <- matrix(rnorm(600), 100, 6)
  expect_error(fair_pca(x, list(a, b[-1]), k = 2), "^`group` has attribute 'attr2'", class = "fairproj_input_error")
})

test_that("a formula or column names of the wrong length as `group` are errors naming `group`, at every door", {
  set.seed(1)
  d <- data.frame(matrix(rnorm(240), 60), G = rep(c("a", "b"), 30), H = rep(c("p", "q", "r"), 20))
  doors <- list(
    fair_pca = function(grp) fair_pca(d, grp, k = 2),
    fair_css = function(grp) fair_css(d, grp, k = 2),
    fair_kpca = function(grp) fair_kpca(d, grp, k = 2),
    group_moments = function(grp) group_moments(d, grp),
    fair_audit = function(grp) fair_audit(d, grp, k = 2),
    tune_fair_pca = function(grp) tune_fair_pca(d, grp, k = 2, method = "mean", grid = list(tradeoff = 0)),
    pareto_front = function(grp) pareto_front(d, grp, k = 2)
  )
  for (door in names(doors)) {
    # the column the formula names, and how to give it (before the check of `x`, which would
    # blame the non-numeric group column)
    expect_error(doors[[door]](~G), "^`group` is a formula \\(~G\\).*\\(group = \"G\"\\)", class = "fairproj_input_error",
                 info = door)
    expect_error(doors[[door]](~ G + H), "^`group` is a formula.*group = x\\[c\\(\"G\", \"H\"\\)\\]",
                 class = "fairproj_input_error", info = door)
    expect_error(doors[[door]](c("G", "G")), "^`group` has length 2 but `x` has 60 rows.*\\(group = \"G\"\\)",
                 class = "fairproj_input_error", info = door)
  }
  # without a data.frame, one label per row
  expect_error(fair_pca(as.matrix(d[1:4]), ~G, k = 2), "^`group` is a formula.*one label per row",
               class = "fairproj_input_error")
  # the formula interface and group_errors() take the bare name as well
  expect_error(fair_pca(~ X1 + X2 + X3, data = d, group = ~G, k = 2), "^`group` is a formula.*group = G or group = \"G\"",
               class = "fairproj_input_error")
  f <- fair_pca(d[c(1:4, 5)], "G", k = 2)
  expect_error(group_errors(f, d[c(1:4, 5)], ~G), "^`group` is a formula.*group = G or group = \"G\"",
               class = "fairproj_input_error")
  # the string of one column name still selects it
  expect_equal(fair_pca(d[c(1:4, 5)], "G", k = 2, method = "standard")$rotation,
               fair_pca(d[1:4], d$G, k = 2, method = "standard")$rotation)
})

test_that("no rows: the group check says so, in the singular where one group is needed", {
  set.seed(1)
  x <- matrix(rnorm(240), 60, 4)
  g <- rep(c("a", "b"), 30)
  f <- fair_pca(x, g, k = 2)
  expect_error(group_errors(f, x[0, ], character(0)),
               "^`group` must have at least 1 group \\(level\\) with data, has 0 \\(there are no rows\\)$",
               class = "fairproj_input_error")
  expect_error(fair_pca(x, rep("a", 60), k = 2), "at least 2 groups \\(levels\\) with data, has 1$",
               class = "fairproj_input_error")
})
