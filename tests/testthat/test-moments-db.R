# Moments computed inside SQL engines through DBI/dbplyr, against the in-memory pass.

rel_err_moments <- function(a, b) {
  expect_identical(a$levels, b$levels)
  expect_identical(a$colnames, b$colnames)
  expect_equal(a$n, b$n)
  e_mean <- max(abs(a$mean - b$mean)) / max(abs(b$mean), 1)
  e_sc <- max(vapply(seq_along(b$scatter), function(i) {
    max(abs(a$scatter[[i]] - b$scatter[[i]])) / max(abs(b$scatter[[i]]))
  }, numeric(1)))
  max(e_mean, e_sc)
}

db_data <- function(offset = 0, n = c(400, 250, 150), d = 5) {
  dat <- make_groups(n = n, d = d, seed = 11, shift = offset)
  df <- as.data.frame(dat$x)
  df$grp <- as.character(dat$g)
  list(df = df, ref = group_moments(dat$x, dat$g))
}

check_engine <- function(con) {
  for (offset in c(0, 1e8)) {
    dd <- db_data(offset)
    name <- paste0("fp_test_", if (offset > 0) "offset" else "plain")
    DBI::dbWriteTable(con, name, dd$df, overwrite = TRUE, row.names = FALSE)
    # the reference is the in-memory pass over the values the engine stored (a driver may
    # write doubles as text with 15 digits)
    stored <- DBI::dbReadTable(con, name)
    ref <- group_moments(as.matrix(stored[paste0("x", 1:5)]), stored$grp)
    expect_lte(rel_err_moments(ref, dd$ref), 1e-6)
    tab <- suppressWarnings(dplyr::tbl(con, name))  # RPostgreSQL: "old dbplyr interface"
    m <- group_moments(tab, "grp")
    expect_lte(rel_err_moments(m, ref), 1e-10)
    # products split over several narrow queries give the same result
    m2 <- group_moments(tab, "grp", max_terms = 4)
    expect_lte(rel_err_moments(m2, ref), 1e-10)
    DBI::dbRemoveTable(con, name)
  }
}

test_that("SQLite: moments inside the engine match the in-memory pass (also with a 1e8 offset)", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  check_engine(con)
})

test_that("SQLite: column selection, lazy queries, numeric groups and errors", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  dd <- db_data()
  dd$df$code <- match(dd$df$grp, c("a", "b", "c")) * 10L
  DBI::dbWriteTable(con, "t", dd$df)
  tab <- dplyr::tbl(con, "t")
  m <- group_moments(tab, "grp", columns = c("x2", "x4"))
  expect_identical(m$colnames, c("x2", "x4"))
  expect_equal(m$scatter$b, dd$ref$scatter$b[c("x2", "x4"), c("x2", "x4")], tolerance = 1e-10)
  # a numeric group column; the levels come back in numeric order
  mc <- group_moments(tab, "code", columns = paste0("x", 1:5))
  expect_identical(mc$levels, c("10", "20", "30"))
  expect_equal(unname(mc$scatter[[2]]), unname(dd$ref$scatter$b), tolerance = 1e-10)
  # any lazy query, e.g. a filtered one
  sub <- dplyr::filter(tab, grp != "c")
  ms <- group_moments(sub, "grp", columns = paste0("x", 1:5))
  expect_identical(ms$levels, c("a", "b"))
  expect_equal(ms$scatter$a, dd$ref$scatter$a, tolerance = 1e-10)
  # fits run on the result
  fit <- fair_pca(ms, k = 2, method = "mean")
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
  na <- dd$df
  na$x3[5] <- NA
  DBI::dbWriteTable(con, "t_na", na)
  expect_error(group_moments(dplyr::tbl(con, "t_na"), "grp", columns = paste0("x", 1:5)),
               class = "fairproj_input_error", regexp = "x3")
})

test_that("SQL for Spark: aggregation queries only, split by max_terms (simulated Hive/Spark SQL)", {
  skip_if_not_installed("dbplyr")
  # dbplyr translates sparklyr tables with Spark SQL (a HiveQL dialect); without a Spark
  # cluster, the query is rendered for dbplyr's simulated Hive connection.
  lf <- dbplyr::lazy_frame(grp = "a", x1 = 1, `x 2` = 2, x3 = 3, con = dbplyr::simulate_hive())
  q1 <- fairproj:::fp_db_pass1(lf, "grp", c("x1", "x 2", "x3"))
  expect_match(q1, "COUNT(*)", fixed = TRUE)
  expect_match(q1, "AVG(`x 2`)", fixed = TRUE)
  expect_match(q1, "GROUP BY `grp`", fixed = TRUE)
  shift <- matrix(c(1e8 + 0.5, 2, 3, 4, 5, 6), 2, 3)
  qs <- fairproj:::fp_db_pass2(lf, "grp", c("x1", "x 2", "x3"), c("a", "b"), shift, max_terms = 4)
  expect_length(qs, 3)  # 3 sums + 6 products in queries of at most 4 aggregates
  expect_identical(sum(vapply(qs, function(q) nrow(q$terms), 1L)), 9L)
  sql <- vapply(qs, function(q) q$sql, "")
  expect_true(all(grepl("GROUP BY `grp`", sql, fixed = TRUE)))
  expect_true(all(grepl("CASE", sql, fixed = TRUE)))
  expect_match(sql[1], "`x1` - CASE WHEN `grp` = 'a' THEN 100000000.5 WHEN `grp` = 'b' THEN 2.0 END AS `fp_c1`",
               fixed = TRUE)
  expect_match(sql[1], "FROM `df`", fixed = TRUE)
  expect_match(sql[2], "SUM(`fp_c1` * `fp_c2`)", fixed = TRUE)
  expect_false(any(grepl("ORDER BY|LIMIT|JOIN", sql)))
  # one aggregate per term, nothing per row
  n_sum <- vapply(regmatches(sql, gregexpr("SUM(", sql, fixed = TRUE)), length, 1L)
  expect_identical(unname(n_sum), c(4L, 4L, 1L))
})

test_that("DuckDB: moments inside the engine (skipped unless duckdb is installed)", {
  skip_if_not_installed("duckdb")
  skip_if_not_installed("dbplyr")
  drv <- getExportedValue("duckdb", "duckdb")()
  con <- DBI::dbConnect(drv)
  on.exit(DBI::dbDisconnect(con, shutdown = TRUE))
  check_engine(con)
})

test_that("PostgreSQL: moments inside a server started here (skipped unless available)", {
  skip_if_not_installed("dbplyr")
  # either client will do (neither is a declared dependency: `make test-db` installs one)
  pkg <- if (nzchar(system.file(package = "RPostgres"))) "RPostgres" else "RPostgreSQL"
  skip_if_not_installed(pkg)
  bin <- fp_test_pg_bindir()
  skip_if(is.null(bin), "PostgreSQL server binaries (initdb, pg_ctl) not found")
  srv <- fp_test_pg_start(bin)
  skip_if(is.null(srv), "could not start a local PostgreSQL server")
  on.exit(fp_test_pg_stop(srv), add = TRUE)
  drv <- if (pkg == "RPostgres") getExportedValue("RPostgres", "Postgres")() else
    getExportedValue("RPostgreSQL", "PostgreSQL")()
  con <- DBI::dbConnect(drv, host = "127.0.0.1", port = srv$port, dbname = "postgres", user = srv$user)
  on.exit(DBI::dbDisconnect(con), add = TRUE, after = FALSE)
  check_engine(con)
})
