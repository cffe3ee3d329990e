# Odd column names and types at the data doors: what a fit accepts, its companions
# (predict(), augment()) accept too, with the same columns; what it refuses is a classed error
# naming the argument.

test_that("a group column named by string keeps the other columns by position, duplicated or empty names included", {
  set.seed(361)
  x <- data.frame(a = rnorm(30), b = rnorm(30), c = rnorm(30), d = rnorm(30))
  g <- rep(c("F", "M", "M"), 10)
  dup <- x
  names(dup)[1:2] <- "a"       # the second 'a' was dropped without a word when `group` named a column
  uniq <- x
  names(uniq)[1:2] <- c("a", "a.1")
  ref <- fair_pca(uniq, g, k = 2, method = "mean")
  fit <- fair_pca(cbind(dup, s = g), "s", k = 2, method = "mean")
  expect_identical(rownames(fit$rotation), c("a", "a.1", "c", "d"))
  expect_equal(fit$rotation, ref$rotation)
  m <- group_moments(cbind(dup, s = g), "s")
  expect_identical(m$colnames, c("a", "a.1", "c", "d"))
  expect_equal(moments_cov(m), moments_cov(group_moments(uniq, g)))
  blank <- x
  names(blank)[1] <- ""        # was R's unclassed "undefined columns selected"
  blank$s <- g                 # (cbind() would rename the empty name)
  cs <- fair_css(blank, "s", k = 2)
  expect_identical(cs$colnames, c("V1", "b", "c", "d"))
  expect_identical(cs$columns, fair_css(x, g, k = 2)$columns)
  # two columns named as the group column: which one holds the groups is not clear
  expect_error(fair_pca(cbind(x, s = g, s = g), "s", k = 1), class = "fairproj_input_error",
               regexp = "^`x` has 2 columns named 's'")
})

test_that("augment() and predict() take the duplicated or empty names their fit took", {
  set.seed(362)
  x <- data.frame(a = rnorm(30), b = rnorm(30), c = rnorm(30), d = rnorm(30))
  g <- rep(c("F", "M", "M"), 10)
  odd <- x
  names(odd) <- c("a", "a", "", "d")
  fixed <- c("a", "a.1", "V3", "d")
  uniq <- setNames(x, fixed)
  fit <- fair_pca(odd, g, k = 2, method = "mean")
  for (arg in c("data", "newdata")) {
    au <- do.call(augment, setNames(list(fit, odd), c("x", arg)))  # was tibble's unclassed error
    expect_identical(names(au)[2:5], fixed)
    expect_equal(as.matrix(au[c(".fittedPC1", ".fittedPC2")]), predict(fit, uniq), ignore_attr = TRUE)
  }
  cs <- fair_css(odd, g, k = 2)
  au <- augment(cs, newdata = odd)
  expect_identical(names(au)[2:5], fixed)
  expect_equal(au$.sq_error, augment(fair_css(uniq, g, k = 2), newdata = uniq)$.sq_error)
  kp <- fair_kpca(odd, g, k = 2)
  # names made unique as the fit's were, not "missing a.1, V3"
  expect_equal(predict(kp, odd[5:1, ]), predict(kp, uniq[5:1, ]))
  expect_identical(names(augment(kp, newdata = odd))[2:5], fixed)
  # a group column named by string beside them; named twice, an error that says so (the first
  # was taken as the groups without a word, or an unrelated "missing V3" came)
  w <- setNames(cbind(odd, g), c(names(odd), "grp"))
  expect_equal(augment(cs, newdata = w, group = "grp")$.sq_error,
               augment(cs, newdata = odd, group = g)$.sq_error)
  expect_error(augment(cs, newdata = setNames(cbind(w, g), c(names(w), "grp")), group = "grp"),
               class = "fairproj_input_error", regexp = "^`newdata` has 2 columns named 'grp', the group column")
  # and for a fit from a formula, whose group column is found by its name
  dat <- cbind(x, grp = g)
  fc <- fair_css(~ a + b + c + d, dat, group = grp, k = 2)
  expect_equal(augment(fc, newdata = dat)$.sq_error, augment(cs, newdata = odd, group = g)$.sq_error)
  expect_error(augment(fc, newdata = setNames(cbind(dat, rev(g)), c(names(dat), "grp"))),
               class = "fairproj_input_error", regexp = "^`newdata` has 2 columns named 'grp'")
})

test_that("a tibble's packed (data.frame) columns are split into their numeric columns, as matrix columns are", {
  skip_if_not_installed("tibble")
  set.seed(363)
  x <- data.frame(a = rnorm(30), b = rnorm(30), c = rnorm(30), d = rnorm(30))
  g <- rep(c("F", "M", "M"), 10)
  packed <- tibble::tibble(a = x$a, p = tibble::tibble(b = x$b, c = x$c), d = x$d)
  flat <- setNames(x, c("a", "p.b", "p.c", "d"))
  ref <- fair_pca(flat, g, k = 2, method = "mean")
  fit <- fair_pca(packed, g, k = 2, method = "mean")  # was "non-numeric column(s): p.b, p.c"
  expect_identical(rownames(fit$rotation), c("a", "p.b", "p.c", "d"))
  expect_equal(fit$rotation, ref$rotation)
  expect_equal(predict(fit, packed[3:1, ]), predict(ref, flat[3:1, ]), ignore_attr = TRUE)
  expect_equal(moments_cov(group_moments(packed, g)), moments_cov(group_moments(x, g)), ignore_attr = TRUE)
  # a packed column of text is still refused, naming its columns
  bad <- tibble::tibble(a = x$a, d = x$d, p = tibble::tibble(b = as.character(x$b), c = x$c))
  expect_error(fair_pca(bad, g, k = 1), class = "fairproj_input_error", regexp = "^`x` has non-numeric column\\(s\\): p.b")
})

test_that("an outcome or group column taken out of the data leaves the others by position (fair_audit(), group_errors())", {
  set.seed(364)
  x <- data.frame(a = rnorm(40), b = rnorm(40), c = rnorm(40), d = rnorm(40))
  g <- rep(c("F", "M"), 20)
  y <- rep(0:1, 20)
  odd <- x
  names(odd) <- c("a", "a", "", "d")
  fixed <- c("a", "a.1", "V3", "d")
  withy <- odd
  withy$y <- y                 # an empty name was R's unclassed "undefined columns selected"
  au <- fair_audit(withy, g, outcome = "y", k = 1, replicates = 0, seed = 1)
  ref <- fair_audit(setNames(x, fixed), g, outcome = y, k = 1, replicates = 0, seed = 1)
  expect_identical(au$colnames, fixed)
  expect_equal(au$table[setdiff(names(au$table), "seconds")], ref$table[setdiff(names(ref$table), "seconds")])
  twice <- withy
  names(twice)[1] <- "y"
  expect_error(fair_audit(twice, g, outcome = "y", k = 1, replicates = 0), class = "fairproj_input_error",
               regexp = "^`x` has 2 columns named 'y', the outcome column")
  # the formula door judges the names it reads after the outcome is taken out (`[` renamed them)
  dup <- cbind(x, y = y, s = g)
  names(dup)[1:2] <- "a"
  expect_error(fair_audit(~ ., dup, group = s, outcome = y, k = 1, replicates = 0), class = "fairproj_input_error",
               regexp = "^`data` has column name.*'a'")
  fit <- fair_pca(setNames(x, fixed), g, k = 2, method = "mean")
  withg <- odd
  withg$s <- g                 # the second 'a' was dropped, then "missing a.1"
  expect_equal(group_errors(fit, withg, "s"), group_errors(fit, setNames(x, fixed), g))
})

test_that("64-bit group IDs stay distinct groups at the formula and file doors, as in memory", {
  skip_if_not_installed("bit64")
  set.seed(365)
  x <- data.frame(a = rnorm(30), b = rnorm(30), c = rnorm(30), d = rnorm(30))
  ids <- bit64::as.integer64("100000000000000001") + bit64::as.integer64(rep(0:2, 10))  # one double for all three
  ref <- fair_pca(x, ids, k = 1, method = "mean")
  expect_identical(ref$groups$group, c("100000000000000001", "100000000000000002", "100000000000000003"))
  df <- x
  df$s <- ids                  # was converted to doubles with the features: one group, or merged ones
  fit <- fair_pca(~ ., data = df, group = s, k = 1, method = "mean")
  expect_identical(fit$groups, ref$groups)
  expect_equal(fit$rotation, ref$rotation)
  df$a <- bit64::as.integer64(round(x$a * 100))  # an integer64 feature is still read by value
  expect_equal(fair_pca(~ ., data = df, group = s, k = 1, method = "mean", scale. = TRUE)$rotation,
               fair_pca(transform(x, a = round(a * 100)), ids, k = 1, method = "mean", scale. = TRUE)$rotation)
  path <- withr::local_tempfile(fileext = ".csv")
  utils::write.csv(data.frame(x, s = as.character(ids)), path, row.names = FALSE)
  m <- group_moments(path, "s")  # the column reads as numbers: the three IDs were one label, "1e+17"
  expect_identical(m$levels, ref$groups$group)
  expect_equal(moments_cov(m), moments_cov(group_moments(x, as.character(ids))), ignore_attr = TRUE)
  # numbers a double holds keep their labels, however they are spelled
  utils::write.csv(data.frame(x, s = rep(c("1e17", "100000000000000000", "2", "2.0", "3"), 6)), path, row.names = FALSE)
  expect_identical(group_moments(path, "s")$levels, c("2", "3", "1e+17"))
})

test_that("a database's BIGINT group IDs beyond 2^53 give each group its own moments on both routes", {
  skip_if_not_installed("bit64")
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  set.seed(366)
  x <- data.frame(a = rnorm(30), b = rnorm(30), c = rnorm(30))
  ids <- bit64::as.integer64("100000000000000003") - bit64::as.integer64(rep(0:2, 10))
  x$a <- x$a + rep(0:2, 10) * 5  # groups told apart by their means
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:", bigint = "integer64")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "t", data.frame(x, s = ids))
  ref <- group_moments(x, as.character(ids))
  for (route in c("stream", "pushdown")) {
    # pushdown keyed the IDs as doubles: one key for all, bit64's unclassed warnings, then a
    # source error blaming the driver
    expect_no_warning(m <- group_moments(dplyr::tbl(con, "t"), "s", route = route))
    expect_identical(m$levels, ref$levels)
    expect_equal(moments_mean(m), moments_mean(ref))
    expect_equal(moments_cov(m), moments_cov(ref))
  }
})

test_that("an array of three dimensions and a lazy database table get errors that say what they are", {
  g <- rep(c("F", "M"), 10)
  expect_error(fair_pca(array(rnorm(80), c(20, 2, 2)), g, k = 1), class = "fairproj_input_error",
               regexp = "^`x` must be a matrix or data.frame, not an array of 3 dimensions")  # was "not a vector"
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  x <- data.frame(a = rnorm(20), b = rnorm(20), c = rnorm(20))
  DBI::dbWriteTable(con, "t", cbind(x, s = g))
  tb <- dplyr::tbl(con, "t")
  expect_error(fair_pca(tb, "s", k = 1), class = "fairproj_input_error", regexp = "^`x` is a lazy database table.*group_moments\\(\\)")
  expect_error(fair_css(tb, "s", k = 1), class = "fairproj_input_error", regexp = "^`x` is a lazy database table")
  fit <- fair_pca(group_moments(tb, "s"), k = 1)  # the way the message points to
  expect_equal(fit$rotation, fair_pca(x, g, k = 1)$rotation, tolerance = 1e-8)
  expect_error(predict(fit, dplyr::select(tb, -s)), class = "fairproj_input_error",
               regexp = "^`newdata` is a lazy database table, whose rows are not in R: collect\\(\\) them \\(dplyr::collect\\(\\)\\)$")
})

test_that("a POSIXlt group is refused as a date-time, not read as a list of its fields", {
  x <- data.frame(a = rnorm(20), b = rnorm(20), c = rnorm(20))
  when <- as.POSIXlt(as.Date("2020-01-01") + rep(0:1, 10))
  # was "a list of 20 single values: ... unlist() it", which would give its fields
  for (door in list(function() fair_pca(x, when, k = 1), function() group_moments(x, when),
                    function() fair_css(x, when, k = 1),
                    function() fair_pca(~ a + b + c, data = x, group = when, k = 1))) {
    expect_error(door(), class = "fairproj_input_error", regexp = "^`group` must be a factor.*not 'POSIXlt'")
  }
  expect_error(intersect_groups(when), class = "fairproj_input_error", regexp = "is not a factor")
})

test_that("a string naming a column of a matrix `x` says that only a data.frame's group column is taken out", {
  m <- cbind(a = rnorm(20), b = rnorm(20), c = rnorm(20), s = rep(1:2, 10))
  for (door in list(function() fair_pca(m, "s", k = 1), function() group_moments(m, "s"))) {
    expect_error(door(), class = "fairproj_input_error", regexp = "^`group` names column 's' of the matrix `x`")  # was "has length 1"
  }
  # as the message says: the data.frame takes it out of the features
  expect_equal(fair_pca(as.data.frame(m), "s", k = 1)$rotation, fair_pca(m[, 1:3], m[, "s"], k = 1)$rotation)
})

test_that("integer64 scores are read by value by the metrics that take scores", {
  skip_if_not_installed("bit64")
  set.seed(367)
  s <- round(cbind(rnorm(40), rnorm(40)) * 100)
  g <- rep(c("F", "M"), 20)
  m64 <- bit64::as.integer64(s)
  dim(m64) <- dim(s)           # a matrix of integer64: its bits were read as tiny doubles
  df64 <- data.frame(a = bit64::as.integer64(s[, 1]), b = bit64::as.integer64(s[, 2]))
  expect_equal(mmd2(m64, g), mmd2(s, g))
  expect_equal(mmd2(df64, g), mmd2(s, g))
  expect_equal(mmd2(bit64::as.integer64(s[, 1]), g), mmd2(s[, 1], g))
  y <- rep(0:1, 20)
  set.seed(1)
  ref <- downstream_metrics(s, y, g)
  set.seed(1)
  expect_equal(downstream_metrics(df64, y, g), ref)
})

test_that("an integer64 0/1 outcome is binary, as the same integers are (fair_audit(), downstream_metrics(), fairness_gaps())", {
  skip_if_not_installed("bit64")
  set.seed(368)
  x <- data.frame(a = rnorm(40), b = rnorm(40), c = rnorm(40))
  g <- rep(c("F", "M"), 20)
  y <- rep(0:1, 20)
  y64 <- bit64::as.integer64(y)  # compared by its bits, it was not 0/1: a numeric outcome, or refused
  a <- fair_audit(x, g, k = 1, outcome = y64, replicates = 0, seed = 1)
  ref <- fair_audit(x, g, k = 1, outcome = y, replicates = 0, seed = 1)
  expect_identical(a$outcome$type, "binary")
  expect_equal(a$downstream, ref$downstream)
  set.seed(2)
  d <- downstream_metrics(as.matrix(x), y64, g)
  set.seed(2)
  expect_equal(d, downstream_metrics(as.matrix(x), y, g))
  pred <- rep(c(0L, 1L, 1L, 0L), 10)
  expect_equal(fairness_gaps(bit64::as.integer64(pred), y64, g), fairness_gaps(pred, y, g))
  # a numeric integer64 outcome is read by value
  z <- round(x$a * 10 + rnorm(40))
  expect_equal(fair_audit(x, g, k = 1, outcome = bit64::as.integer64(z), replicates = 0, seed = 1)$downstream,
               fair_audit(x, g, k = 1, outcome = z, replicates = 0, seed = 1)$downstream)
})

test_that("integer64 columns a formula does not read (64-bit row IDs) are neither converted nor warned about", {
  skip_if_not_installed("bit64")
  set.seed(369)
  df <- data.frame(a = rnorm(30), b = rnorm(30), c = rnorm(30), s = rep(c("F", "M", "M"), 10))
  df$id <- bit64::as.integer64("900000000000000001") + bit64::as.integer64(1:30)
  expect_no_warning(fit <- fair_pca(~ a + b + c, data = df, group = s, k = 1))
  expect_equal(fit$rotation, fair_pca(~ a + b + c, data = df[1:4], group = s, k = 1)$rotation)
  expect_no_warning(p <- predict(fit, df[5:1, ]))  # warned that `newdata` had big integers in 'id'
  expect_equal(p, predict(fit, df[5:1, 1:3]))
  expect_no_warning(group_errors(fit, df, s))
  # a column the formula reads still warns (class fairproj_precision_warning) and is read by value
  df$big <- bit64::as.integer64("9007199254740993") * bit64::as.integer64(rep(1:3, 10))
  expect_warning(fair_pca(~ a + b + big, data = df, group = s, k = 1, scale. = TRUE), class = "fairproj_precision_warning")
})
