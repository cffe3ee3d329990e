# Moments of SQL engines through DBI/dbplyr, both routes, against the in-memory pass. What a
# test needs (a package, a PostgreSQL server) skips it when missing, and is an error under
# `make test-db` (FAIRPROJ_TEST_DB=1), which exists to run them.

db_data <- function(offset = 0, n = c(400, 250, 150), d = 5) {
  dat <- mixed_scale_data(n = n, d = d, offset = offset, seed = 11)
  df <- as.data.frame(dat$x)
  df$grp <- as.character(dat$g)
  list(df = df, ref = group_moments(dat$x, dat$g))
}

# Both routes against the in-memory moments of the values the engine stored, at offsets 0 and
# 1e8 with columns of mixed scales; the push-down also with narrow queries (several tiles).
check_engine <- function(con) {
  for (offset in c(0, 1e8)) {
    dd <- db_data(offset)
    name <- paste0("fp_test_", if (offset > 0) "offset" else "plain")
    DBI::dbWriteTable(con, name, dd$df, overwrite = TRUE, row.names = FALSE)
    # the reference is the in-memory pass over the values the engine stored (a driver may
    # write doubles as text with 15 digits)
    stored <- DBI::dbReadTable(con, name)
    ref <- group_moments(as.matrix(stored[paste0("x", 1:5)]), stored$grp)
    tab <- suppressWarnings(dplyr::tbl(con, name))  # RPostgreSQL: "old dbplyr interface"
    expect_lte(moments_err(group_moments(tab, "grp", route = "stream", chunk_rows = 97), ref), 1e-10)
    expect_lte(moments_err(group_moments(tab, "grp", route = "pushdown"), ref), 1e-10)
    expect_message(m2 <- group_moments(tab, "grp", route = "pushdown", max_terms = 5),
                   class = "fairproj_db_plan_message")
    expect_lte(moments_err(m2, ref), 1e-10)
    if (offset > 0) {
      # the fits of the report: mean-matching PCA, also on standardised columns
      for (sc in c(FALSE, TRUE)) {
        f_ref <- fair_pca(ref, k = 2, method = "mean", scale. = sc)
        f_db <- fair_pca(m2, k = 2, method = "mean", scale. = sc)
        expect_lte(subspace_dist(f_db$rotation, f_ref$rotation), 1e-7)
      }
    }
    DBI::dbRemoveTable(con, name)
  }
}

# Real-valued and logical group labels and boolean features: both routes agree with the
# in-memory moments (labels as the shortest text that gives back the stored double).
check_labels_booleans <- function(con) {
  set.seed(12)
  n <- 300
  df <- data.frame(x1 = rnorm(n) + 1e8, x2 = rnorm(n), b = rep(c(TRUE, FALSE, TRUE), n / 3),
                   g = sample(c(2^53 - 1, 1e15 + 7, 3e15 + 1), n, TRUE), lg = rep(c(TRUE, FALSE), n / 2),
                   s = sample(c(1 / 3, 0.1 + 0.2, 2), n, TRUE))
  DBI::dbWriteTable(con, "fp_labels", df, overwrite = TRUE, row.names = FALSE)
  on.exit(DBI::dbRemoveTable(con, "fp_labels"))
  stored <- DBI::dbReadTable(con, "fp_labels")
  tab <- suppressWarnings(dplyr::tbl(con, "fp_labels"))
  xm <- cbind(x1 = stored$x1, x2 = stored$x2, b = as.numeric(stored$b))
  # labels of whole numbers stored as REAL: the shortest text that gives back the stored double
  # (a driver may store 15 digits; these need 16)
  lab <- fairproj:::fp_db_label(stored$g)
  expect_identical(as.numeric(lab), stored$g)
  ref <- group_moments(xm, lab)
  for (route in c("stream", "pushdown")) {
    m <- group_moments(tab, "g", columns = c("x1", "x2", "b"), route = route)
    expect_identical(as.numeric(m$levels), sort(unique(stored$g)))
    expect_lte(moments_err(m, ref), 1e-10)
    ml <- group_moments(tab, "lg", columns = c("x1", "x2", "b"), route = route)
    expect_identical(unname(ml$n), c(150, 150))
    # non-integer values are a continuous attribute, refused as in memory
    expect_error(group_moments(tab, "s", columns = c("x1", "x2", "b"), route = route),
                 class = "fairproj_source_error", regexp = "`group` names column 's'.*non-integer")
  }
}

# A column of values near 1e-200 or 1e-300 that varies within a group: both routes give the
# in-memory door's error (not a scatter of 0); a constant one gives the in-memory moments.
check_tiny <- function(con) {
  set.seed(3)
  for (s in c(1e-200, 1e-300)) {
    df <- data.frame(a = rnorm(100) * s, b = rnorm(100), g = rep(c("u", "v"), 50))
    DBI::dbWriteTable(con, "fp_tiny", df, overwrite = TRUE, row.names = FALSE)
    tab <- suppressWarnings(dplyr::tbl(con, "fp_tiny"))
    expect_error(group_moments(as.matrix(df[1:2]), df$g), class = "fairproj_input_error", regexp = "1e-154")
    for (route in c("stream", "pushdown")) {
      expect_error(group_moments(tab, "g", route = route, chunk_rows = 30), class = "fairproj_input_error", regexp = "1e-154")
    }
    df$a <- ifelse(df$g == "u", 3, 5) * s  # constant within each group
    DBI::dbWriteTable(con, "fp_tiny", df, overwrite = TRUE, row.names = FALSE)
    ref <- group_moments(as.matrix(df[1:2]), df$g)
    for (route in c("stream", "pushdown")) {
      m <- group_moments(tab, "g", route = route, chunk_rows = 30)
      expect_identical(m$mean["a", ], ref$mean["a", ])
      expect_identical(vapply(m$scatter, function(z) z["a", "a"], 0), c(u = 0, v = 0))
      expect_lte(moments_err(m, ref), 1e-12)
    }
  }
  DBI::dbRemoveTable(con, "fp_tiny")
}

test_that("SQLite: both routes match the in-memory pass (1e8 offsets, mixed scales, REAL labels, booleans)", {
  fp_test_need_package("RSQLite", "FAIRPROJ_TEST_DB")
  fp_test_need_package("dbplyr", "FAIRPROJ_TEST_DB")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  check_engine(con)
  check_labels_booleans(con)
  check_tiny(con)
  expect_identical(fairproj:::fp_db_route_auto(con), "stream")
})

test_that("SQLite: integers of 2^53 or more give fairproj_precision_warning on both routes, and only it", {
  fp_test_need_package("RSQLite", "FAIRPROJ_TEST_DB")
  fp_test_need_package("dbplyr", "FAIRPROJ_TEST_DB")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbExecute(con, "CREATE TABLE t (g TEXT, a INTEGER, b REAL)")
  DBI::dbExecute(con, "INSERT INTO t VALUES ('u', 9007199254740993, 1.5), ('u', 3, 2.5), ('v', 4, 2), ('v', 5, 7)")
  tab <- dplyr::tbl(con, "t")
  for (route in c("stream", "pushdown")) {
    seen <- character(0)
    m <- withCallingHandlers(group_moments(tab, "g", route = route), warning = function(w) {
      seen <<- c(seen, class(w)[1L])
      invokeRestart("muffleWarning")
    })
    expect_identical(seen, "fairproj_precision_warning")
    expect_identical(unname(m$n), c(2, 2))
  }
  # below 2^53: no warning
  DBI::dbExecute(con, "UPDATE t SET a = 9007199254740991 WHERE a > 9007199254740991")
  for (route in c("stream", "pushdown")) expect_no_warning(group_moments(tab, "g", route = route))
})

test_that("SQLite push-down: a text label in an INTEGER group column is an error naming it", {
  fp_test_need_package("RSQLite", "FAIRPROJ_TEST_DB")
  fp_test_need_package("dbplyr", "FAIRPROJ_TEST_DB")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbExecute(con, "CREATE TABLE t (a REAL, g INTEGER)")
  DBI::dbExecute(con, "INSERT INTO t VALUES (1.5, 1), (2.5, 2), (4, 2), (5, 1), (7, 'lbl')")
  tab <- dplyr::tbl(con, "t")
  for (route in c("stream", "pushdown")) {
    expect_error(group_moments(tab, "g", route = route), class = "fairproj_source_error", regexp = "^`group` column 'g'.*'lbl'")
  }
})

test_that("push-down plan: 194 second-pass queries at d = 800 with PostgreSQL's 1,664 result columns", {
  fp_test_need_package("dbplyr", "FAIRPROJ_TEST_DB")
  d <- 800L
  lf <- dbplyr::lazy_frame(!!!stats::setNames(as.list(rep(0, d + 1L)), c("g", paste0("x", seq_len(d)))),
                           con = dbplyr::simulate_postgres())
  cols <- paste0("x", seq_len(d))
  plan <- fairproj:::fp_db_pass2(lf, "g", cols, "u", matrix(0, 1, d), 1664L)
  expect_length(plan$queries, 194L)
  expect_length(fairproj:::fp_db_pass1(lf, "g", cols, rep("number", d), 1664L), 1L)
  # every product and sum of the d columns once
  expect_identical(sum(vapply(plan$queries, function(q) nrow(q$terms), 0L)), as.integer(d * (d + 1) / 2 + d))
})

test_that("SQLite: text at row 120 of a numeric column and dates are classed errors naming the column", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  fp_test_need_package("RSQLite", "FAIRPROJ_TEST_DB")
  fp_test_need_package("dbplyr", "FAIRPROJ_TEST_DB")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:", extended_types = TRUE)
  on.exit(DBI::dbDisconnect(con))
  dd <- db_data()
  DBI::dbWriteTable(con, "t", dd$df)
  DBI::dbExecute(con, "UPDATE t SET x3 = 'oops' WHERE rowid = 120")
  tab <- dplyr::tbl(con, "t")
  for (route in c("stream", "pushdown")) {
    e <- expect_error(group_moments(tab, "grp", route = route, chunk_rows = 50), class = "fairproj_source_error")
    expect_match(conditionMessage(e), "column 'x3'.*oops")
  }
  # without the text value, both routes run; a Date column is refused by name
  DBI::dbExecute(con, "UPDATE t SET x3 = 0.5 WHERE rowid = 120")
  dfd <- data.frame(dd$df, when = as.Date("2020-01-01") + seq_len(nrow(dd$df)))
  DBI::dbWriteTable(con, "td", dfd)
  for (route in c("stream", "pushdown")) {
    expect_error(group_moments(dplyr::tbl(con, "td"), "grp", route = route), class = "fairproj_source_error",
                 regexp = "'when'")
    expect_silent(group_moments(dplyr::tbl(con, "td"), "grp", columns = paste0("x", 1:5), route = route))
  }
  # NULL values in a feature or the group column name the column, on both routes
  na <- dd$df
  na$x4[7] <- NA
  na$grp[9] <- NA
  DBI::dbWriteTable(con, "tn", na)
  for (route in c("stream", "pushdown")) {
    expect_error(group_moments(dplyr::tbl(con, "tn"), "grp", route = route), class = "fairproj_source_error",
                 regexp = "grp|x4")
    expect_error(group_moments(dplyr::filter(dplyr::tbl(con, "tn"), !is.na(grp)), "grp", route = route),
                 class = "fairproj_source_error", regexp = "x4")
  }
  # an infinite value (SQLite stores Inf in a REAL column) names its column and row on the stream
  inf <- dd$df
  inf$x2[11] <- -Inf
  DBI::dbWriteTable(con, "ti", inf)
  expect_error(group_moments(dplyr::tbl(con, "ti"), "grp", route = "stream", chunk_rows = 4), class = "fairproj_source_error",
               regexp = "column 'x2' is -Inf in row 11 of the query result")
  expect_error(group_moments(dplyr::tbl(con, "ti"), "grp", route = "pushdown"), class = "fairproj_error")
  expect_error(group_moments(tab, "grp", route = "both"), class = "fairproj_input_error", regexp = "route")
})

test_that("SQLite: column selection, lazy queries, numeric groups and errors", {
  fp_test_need_package("RSQLite", "FAIRPROJ_TEST_DB")
  fp_test_need_package("dbplyr", "FAIRPROJ_TEST_DB")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  dd <- db_data()
  dd$df$code <- match(dd$df$grp, c("a", "b", "c")) * 10L
  DBI::dbWriteTable(con, "t", dd$df)
  tab <- dplyr::tbl(con, "t")
  m <- group_moments(tab, "grp", columns = c("x2", "x4"))
  expect_identical(m$colnames, c("x2", "x4"))
  expect_equal(unname(m$scatter$b), unname(dd$ref$scatter$b[c(2, 4), c(2, 4)]), tolerance = 1e-10)
  # a numeric group column; the levels come back in numeric order
  mc <- group_moments(tab, "code", columns = paste0("x", 1:5))
  expect_identical(mc$levels, c("10", "20", "30"))
  expect_equal(unname(mc$scatter[[2]]), unname(dd$ref$scatter$b), tolerance = 1e-10)
  # any lazy query, e.g. a filtered one
  sub <- dplyr::filter(tab, grp != "c")
  ms <- group_moments(sub, "grp", columns = paste0("x", 1:5))
  expect_identical(ms$levels, c("a", "b"))
  expect_equal(unname(ms$scatter$a), unname(dd$ref$scatter$a), tolerance = 1e-10)
  # fits run on the result
  fit <- fair_pca(ms, k = 2, method = "mean", scale. = FALSE)
  expect_s3_class(fit, "fair_pca")
  # errors
  expect_error(group_moments(tab, "nope"), class = "fairproj_input_error", regexp = "`group`")
  expect_error(group_moments(tab, c("grp", "x1")), class = "fairproj_input_error", regexp = "`group`")
  expect_error(group_moments(tab, "grp", columns = "zz"), class = "fairproj_input_error", regexp = "`columns`")
  expect_error(group_moments(tab, "grp", columns = c("grp", "x1")), class = "fairproj_input_error",
               regexp = "`columns`")
  txt <- dd$df
  txt$x2 <- as.character(txt$x2)
  DBI::dbWriteTable(con, "t_txt", txt)
  expect_error(group_moments(dplyr::tbl(con, "t_txt"), "grp"), class = "fairproj_input_error", regexp = "x2")
  # a numeric group column with non-integer values is a continuous attribute, refused by both
  # routes as in memory; whole numbers stored as REAL are labels
  dd$df$score <- dd$df$code / 4
  dd$df$whole <- as.numeric(dd$df$code)
  DBI::dbWriteTable(con, "t_num", dd$df)
  tn <- dplyr::tbl(con, "t_num")
  cols <- paste0("x", 1:5)
  expect_error(group_moments(as.matrix(dd$df[cols]), dd$df$score), class = "fairproj_input_error",
               regexp = "non-integer")
  for (route in c("stream", "pushdown")) {
    expect_error(group_moments(tn, "score", columns = cols, route = route), class = "fairproj_source_error",
                 regexp = "`group` names column 'score'.*non-integer values \\(e.g. 2.5\\).*cut\\(\\)")
    mw <- group_moments(tn, "whole", columns = cols, route = route)
    expect_identical(mw$levels, c("10", "20", "30"))
    expect_identical(as.numeric(mw$n), as.numeric(mc$n))
  }
})

test_that("SQL for Spark: double casts, exact shifts, square tiles, engine-sized queries (rendered, not run)", {
  fp_test_need_package("dbplyr", "FAIRPROJ_TEST_DB")
  # sparklyr tables are dbplyr tables whose SQL is Spark SQL (a HiveQL dialect); without a Spark
  # cluster, the queries are rendered for dbplyr's simulated Hive connection.
  lf <- dbplyr::lazy_frame(grp = "a", x1 = 1L, `x 2` = 2, x3 = 3, con = dbplyr::simulate_hive())
  con <- dbplyr::remote_con(lf)
  expect_identical(fairproj:::fp_db_route_auto(con), "pushdown")
  expect_identical(fairproj:::fp_db_max_terms(con), 4000L)
  q1 <- fairproj:::fp_db_pass1(lf, "grp", c("x1", "x 2", "x3"))
  expect_match(q1, "COUNT(*)", fixed = TRUE)
  expect_match(q1, "AVG(CAST(`x 2` AS DOUBLE))", fixed = TRUE)
  expect_match(q1, "GROUP BY `grp`", fixed = TRUE)
  avg <- matrix(c(1e8 + 1 / 3, 2, 3, 4, 5, 6), 2, 3)
  p2 <- fairproj:::fp_db_pass2(lf, "grp", c("x1", "x 2", "x3"), c("a", "b"), avg, max_terms = 6)
  # the shifts R adds back are exactly the values written into the SQL
  expect_identical(p2$shift, avg)
  qs <- p2$queries
  expect_length(qs, 3)  # 3 sums + 6 products, 4 aggregates per query (6 columns less group and count)
  expect_identical(sum(vapply(qs, function(q) nrow(q$terms), 1L)), 9L)
  sql <- vapply(qs, function(q) q$sql, "")
  expect_true(all(grepl("GROUP BY `grp`", sql, fixed = TRUE)))
  lit <- fairproj:::fp_db_num_text(c(1e8 + 1 / 3, 2))
  expect_identical(as.numeric(lit), c(1e8 + 1 / 3, 2))
  # the shifts: a table of exact double literals, one row per group, joined on the label
  expect_match(sql[1], sprintf("SELECT 'a' AS `fp_g`, CAST(%s AS DOUBLE) AS `fp_s1`", lit[1]), fixed = TRUE)
  expect_match(sql[1], sprintf("SELECT 'b' AS `fp_g`, CAST(%s AS DOUBLE) AS `fp_s1`", lit[2]), fixed = TRUE)
  expect_match(sql[1], "CAST(fp_r.`x1` AS DOUBLE) - fp_sh.`fp_s1` AS `fp_c1`", fixed = TRUE)
  expect_match(sql[1], "INNER JOIN (", fixed = TRUE)
  expect_match(sql[1], "ON fp_r.`grp` = fp_sh.`fp_g`", fixed = TRUE)
  expect_match(sql[1], "FROM `df`", fixed = TRUE)
  expect_match(sql[1], "COUNT(*) AS `fp_k`", fixed = TRUE)
  expect_false(any(grepl("ORDER BY|LIMIT", sql)))
  n_sum <- vapply(regmatches(sql, gregexpr("SUM(", sql, fixed = TRUE)), length, 1L)
  expect_identical(unname(n_sum), c(4L, 4L, 1L))
  # a query reads only the columns of its tiles: the last one (product x3 * x3) reads x3 only
  expect_false(grepl("`x1`", sql[3], fixed = TRUE))
  expect_false(grepl("CASE", sql[3], fixed = TRUE))
  # real-valued labels are written so that they compare equal to the stored double
  p3 <- fairproj:::fp_db_pass2(lf, "grp", "x1", c(1 / 3, 0.1 + 0.2), matrix(1, 2, 1), max_terms = 100)
  glit <- regmatches(p3$queries[[1]]$sql, gregexpr("(?<=SELECT )[-0-9.e+]+(?= AS `fp_g`)", p3$queries[[1]]$sql, perl = TRUE))[[1]]
  expect_identical(as.numeric(glit), c(1 / 3, 0.1 + 0.2))
})

test_that("push-down query counts: square tiles packed to the engine's width", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  scans <- function(d, max_terms) {
    terms <- fairproj:::fp_db_tiles(d, max_terms - 2L)
    expect_identical(nrow(terms), as.integer(d + d * (d + 1) / 2))  # every sum and product once
    expect_false(anyDuplicated(terms$name) > 0)
    1L + as.integer(ceiling(nrow(terms) / (max_terms - 2L)))  # with the first pass
  }
  expect_lte(scans(200, 1664L), 15L)   # PostgreSQL
  expect_lte(scans(800, 1664L), 220L)
  expect_lte(scans(800, 2000L), 165L)  # SQLite takes more per query
  # each query reads few columns: at d = 800, at most the columns of two tiles (4 x 40)
  terms <- fairproj:::fp_db_tiles(800, 1662L)
  q <- ceiling(seq_len(nrow(terms)) / 1662L)
  reads <- tapply(seq_len(nrow(terms)), q, function(ix) length(unique(c(terms$i[ix], terms$j[ix][terms$j[ix] > 0]))))
  expect_lte(max(reads), 160L)
})

test_that("DuckDB: moments inside the engine (skipped unless duckdb is installed; required by make test-db with FAIRPROJ_DUCKDB=1)", {
  env <- c("FAIRPROJ_TEST_DB", "FAIRPROJ_DUCKDB")
  fp_test_need_package("duckdb", env)
  fp_test_need_package("dbplyr", env)
  drv <- getExportedValue("duckdb", "duckdb")()
  con <- DBI::dbConnect(drv)
  on.exit(DBI::dbDisconnect(con, shutdown = TRUE))
  check_engine(con)
})

test_that("PostgreSQL: moments inside a server started here (skipped unless available; required by make test-db)", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  fp_test_need_package("dbplyr", "FAIRPROJ_TEST_DB")
  # either client will do (neither is a declared dependency: `make test-db` installs one)
  pkg <- if (nzchar(system.file(package = "RPostgres"))) "RPostgres" else "RPostgreSQL"
  fp_test_need_package(pkg, "FAIRPROJ_TEST_DB")
  bin <- fp_test_pg_bindir()
  fp_test_need(dir.exists(bin), bin, "FAIRPROJ_TEST_DB")
  srv <- fp_test_pg_start(bin)
  fp_test_need(is.list(srv), srv, "FAIRPROJ_TEST_DB")
  on.exit(fp_test_pg_stop(srv), add = TRUE)
  drv <- if (pkg == "RPostgres") getExportedValue("RPostgres", "Postgres")() else
    getExportedValue("RPostgreSQL", "PostgreSQL")()
  con <- DBI::dbConnect(drv, host = "127.0.0.1", port = srv$port, dbname = "postgres", user = srv$user)
  on.exit(DBI::dbDisconnect(con), add = TRUE, after = FALSE)
  check_engine(con)
  check_labels_booleans(con)
  check_tiny(con)
  # a boolean column is used as 0/1 (PostgreSQL has real booleans), a date column is refused
  DBI::dbExecute(con, "CREATE TABLE fp_types (g TEXT, x DOUBLE PRECISION, b BOOLEAN, d DATE)")
  DBI::dbExecute(con, paste("INSERT INTO fp_types VALUES ('u', 1.5, TRUE, '2020-01-01'), ('u', 2.5, FALSE, '2020-01-02'),",
                            "('v', 4, TRUE, '2020-01-03'), ('v', 7, TRUE, '2020-01-04')"))
  tab <- suppressWarnings(dplyr::tbl(con, "fp_types"))
  ref <- group_moments(cbind(x = c(1.5, 2.5, 4, 7), b = c(1, 0, 1, 1)), c("u", "u", "v", "v"))
  for (route in c("stream", "pushdown")) {
    expect_lte(moments_err(group_moments(tab, "g", columns = c("x", "b"), route = route), ref), 1e-12)
    expect_error(group_moments(tab, "g", route = route), class = "fairproj_source_error", regexp = "'d'")
  }
  expect_identical(fairproj:::fp_db_route_auto(con), "stream")
  # block moments through the server-side cursor: the blocks of the rows in memory
  expect_same_blocks(group_moments(tab, "g", columns = c("x", "b"), route = "stream", chunk_rows = 3, blocks = 10),
                     group_moments(cbind(x = c(1.5, 2.5, 4, 7), b = c(1, 0, 1, 1)), c("u", "u", "v", "v"), blocks = 10))
})

test_that("SQLite: a column constant within a group has exactly zero cross-terms on both routes (#45)", {
  fp_test_need_package("RSQLite", "FAIRPROJ_TEST_DB")
  fp_test_need_package("dbplyr", "FAIRPROJ_TEST_DB")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  set.seed(1)
  x <- matrix(rnorm(68 * 4), 68) * 1e-40
  x[, 3] <- ifelse(seq_len(68) %% 2 == 1, 0.1, 0.3)
  df <- data.frame(x, g = rep(c("a", "b"), 34))
  DBI::dbWriteTable(con, "fp_const", df, row.names = FALSE)
  tab <- dplyr::tbl(con, "fp_const")
  for (route in c("stream", "pushdown")) {
    m <- group_moments(tab, "g", route = route, chunk_rows = 30)
    for (i in 1:2) expect_identical(max(abs(m$scatter[[i]]["X3", ])), 0)
    expect_identical(unname(m$mean["X3", ]), c(0.1, 0.3))
  }
})

test_that("SQLite: group and feature columns named like the queries' own names give the moments in memory", {
  fp_test_need_package("RSQLite", "FAIRPROJ_TEST_DB")
  fp_test_need_package("dbplyr", "FAIRPROJ_TEST_DB")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  set.seed(7)
  # every name the push-down SQL gives a result, a subquery or a shift (with the prefix "fp_")
  aliases <- c("fp_n", "fp_c1", "fp_m1", "fp_s1", "fp_na1", "fp_r", "fp_t1", "fp_b1", "fp_k", "fp_g",
               "fp_sh", "fp_q", "fp_lo1", "fp_hi1", "fp_p1_2", "FP_C2")
  n <- 40
  for (gname in c("grp", aliases)) {
    feats <- setdiff(c("a", "b", if (gname == "grp") aliases), gname)
    df <- as.data.frame(matrix(rnorm(n * length(feats)) * 10 + 3, n, dimnames = list(NULL, feats)))
    df[[gname]] <- sample(c("p", "q"), n, TRUE)
    DBI::dbWriteTable(con, "t", df, overwrite = TRUE)
    ref <- group_moments(df[feats], df[[gname]])
    tab <- dplyr::tbl(con, "t")
    for (route in c("stream", "pushdown")) {
      expect_lte(moments_err(group_moments(tab, gname, route = route), ref), 1e-12)
    }
    # several queries per pass, so that the blocks of the first pass are joined on the group too
    m <- suppressMessages(group_moments(tab, gname, route = "pushdown", max_terms = 6))
    expect_lte(moments_err(m, ref), 1e-12)
  }
  expect_identical(fairproj:::fp_db_prefix(c("a", "FP_x", "fp1_y")), "fp2_")
})

test_that("an argument the database method does not take is an error naming `...`", {
  fp_test_need_package("RSQLite", "FAIRPROJ_TEST_DB")
  fp_test_need_package("dbplyr", "FAIRPROJ_TEST_DB")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "t", data.frame(a = 1:6, b = c(2, 5, 1, 7, 3, 3), g = rep(c("p", "q"), 3)))
  tab <- dplyr::tbl(con, "t")
  expect_error(group_moments(tab, "g", colums = "a"), class = "fairproj_input_error", regexp = "^`...`.*colums")
  expect_error(group_moments(tab, "g", bad_rows = "skip"), class = "fairproj_input_error", regexp = "^`...`.*bad_rows")
})

test_that("a table whose connection is closed is a classed error naming x", {
  fp_test_need_package("RSQLite", "FAIRPROJ_TEST_DB")
  fp_test_need_package("dbplyr", "FAIRPROJ_TEST_DB")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  DBI::dbWriteTable(con, "t", data.frame(a = 1:6, b = c(2, 5, 1, 7, 3, 3), g = rep(c("p", "q"), 3)))
  tab <- dplyr::tbl(con, "t")
  DBI::dbDisconnect(con)
  for (route in c("stream", "pushdown")) {
    expect_error(group_moments(tab, "g", route = route), class = "fairproj_source_error", regexp = "^`x`.*closed")
  }
})
