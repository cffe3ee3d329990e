#' Group moments of a database or Spark table, computed inside the engine
#'
#' For a lazy table of \pkg{dbplyr} (`dplyr::tbl(con, "name")` on any DBI connection: SQLite,
#' DuckDB, PostgreSQL, ..., and Spark tables of \pkg{sparklyr}, which are dbplyr tables too),
#' the per-group moments are computed by aggregation queries that run where the data live. Only
#' aggregates come back to R: one row per group and at most `max_terms` values per row and
#' query. Nothing of the size of the number of rows is transferred or held in R.
#'
#' The computation is numerically safe, in two passes over the table:
#' 1. `COUNT`, `AVG` and a count of `NULL`s of every column, per group;
#' 2. per group, the sums of the columns shifted by the first-pass means and the sums of all
#'    products of pairs of shifted columns (the d (d + 1) / 2 products are split over several
#'    queries of at most `max_terms` aggregates each, since engines limit the width of a
#'    query).
#'
#' The shift is written into the SQL as a literal (a `CASE WHEN` on the group column), so it is
#' rounded; the exact means and scatters follow from the sums of the second pass
#' (`mean = shift + sum(x - shift) / n`, `scatter = sum((x - shift)(x - shift)') - n (mean -
#' shift)(mean - shift)'`), which stay accurate whatever the offset of the columns (with an
#' offset of 1e8 the result agrees with the in-memory [group_moments()] to about 1e-12).
#' Uncentred sums of products, the one-pass alternative, would lose every digit there.
#'
#' Columns must be numeric; `NULL` values are an error (filter or impute them in the query
#' first, e.g. with `dplyr::filter()` on the lazy table: any lazy query works, not only a
#' table). The group column may hold text, numbers or logicals; `NULL` groups are an error.
#' The number of groups should be modest (each appears as a branch of a `CASE` expression).
#'
#' @param x A lazy table (`tbl_lazy`, e.g. from `dplyr::tbl()` or `sparklyr::spark_read_csv()`).
#' @param group The name of the group column of `x` (a string).
#' @param ... Unused.
#' @param columns The feature columns (character); `NULL` for all columns but `group`.
#' @param max_terms Most aggregates in one query of the second pass.
#' @return A `group_moments` object (see [group_moments()]), levels in sorted order.
#' @seealso [group_moments()], [new_group_moments()], and `vignette("large-data")`.
#' @examples
#' if (requireNamespace("RSQLite", quietly = TRUE) && requireNamespace("dbplyr", quietly = TRUE)) {
#'   con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
#'   DBI::dbWriteTable(con, "iris", iris)
#'   tab <- dplyr::tbl(con, "iris")
#'   m <- group_moments(tab, group = "Species")
#'   all.equal(moments_cov(m), moments_cov(group_moments(iris[, 1:4], iris$Species)))
#'   fit <- fair_pca(m, k = 2, method = "mean")
#'   DBI::dbDisconnect(con)
#' }
#' @name group_moments_db
#' @export
group_moments.tbl_lazy <- function(x, group, ..., columns = NULL, max_terms = 250L) {
  fp_require(c("DBI", "dplyr", "dbplyr"), "group_moments() on a database table")
  max_terms <- fp_check_count(max_terms, 2L, 100000L, "max_terms")
  vars <- colnames(x)
  group <- fp_db_group_name(group, vars)
  columns <- fp_db_columns(columns, vars, group)
  con <- dbplyr::remote_con(x)
  # column types from a few rows (SQLite, for one, would average text to 0 without complaint)
  head_rows <- as.data.frame(dplyr::collect(utils::head(x, 10L)))
  nonnum <- columns[!vapply(head_rows[columns], function(v) is.numeric(v) || is.logical(v), logical(1))]
  if (length(nonnum)) {
    fp_abort(sprintf("has non-numeric column(s): %s; choose the features with `columns`",
                     paste(utils::head(nonnum, 5), collapse = ", ")), "x")
  }
  res1 <- fp_db_query(con, fp_db_pass1(x, group, columns))
  gv <- res1[[group]]
  if (anyNA(gv)) fp_abort(sprintf("column '%s' has missing (NULL) values", group), "group")
  ord <- order(gv)
  res1 <- res1[ord, , drop = FALSE]
  gv <- res1[[group]]
  d <- length(columns)
  m <- length(gv)
  if (m < 1L) fp_abort("has no rows", "x")
  n <- as.numeric(res1$fp_n)
  nna <- vapply(seq_len(d), function(j) sum(as.numeric(res1[[paste0("fp_na", j)]])), numeric(1))
  if (any(nna > 0)) {
    bad <- columns[nna > 0]
    fp_abort(sprintf("has missing (NULL) values in column(s) %s (%s in all); filter or impute them in the query",
                     paste(utils::head(bad, 5), collapse = ", "), format(sum(nna))), "x")
  }
  shift <- vapply(seq_len(d), function(j) as.numeric(res1[[paste0("fp_m", j)]]), numeric(m))
  shift <- matrix(shift, m, d)
  if (any(!is.finite(shift))) {
    fp_abort("has columns whose means are not finite (infinite values, or non-numeric columns)", "x")
  }
  queries <- fp_db_pass2(x, group, columns, gv, shift, max_terms)
  sums <- matrix(0, m, d)
  prods <- array(0, c(d, d, m))
  for (q in queries) {
    r <- fp_db_query(con, q$sql)
    idx <- match(fp_db_key(gv), fp_db_key(r[[group]]))
    if (anyNA(idx)) stop("internal error: a group is missing from a second-pass result")
    r <- r[idx, , drop = FALSE]
    for (t in seq_len(nrow(q$terms))) {
      val <- as.numeric(r[[q$terms$name[t]]])
      i <- q$terms$i[t]
      j <- q$terms$j[t]
      if (j == 0L) sums[, i] <- val else {
        prods[i, j, ] <- val
        prods[j, i, ] <- val
      }
    }
  }
  if (any(!is.finite(sums)) || any(!is.finite(prods))) {
    fp_abort("has infinite values or sums that overflow", "x")
  }
  mean <- matrix(0, d, m)
  scatter <- vector("list", m)
  for (c in seq_len(m)) {
    r <- sums[c, ] / n[c]
    mean[, c] <- shift[c, ] + r
    scatter[[c]] <- prods[, , c] - tcrossprod(r) * n[c]
  }
  fp_new_moments(n, mean, scatter, as.character(gv), columns)
}

# Run one aggregation query; a driver that returns NULL with a warning on failure (RPostgreSQL)
# gets an error here.
fp_db_query <- function(con, sql) {
  res <- DBI::dbGetQuery(con, sql)
  if (!is.data.frame(res)) stop(errorCondition("an aggregation query failed in the database engine",
                                               class = c("fairproj_db_error", "fairproj_error")))
  res
}

# Group labels compared as text (the engine may return integers where R had doubles).
fp_db_key <- function(v) if (is.numeric(v)) format(v, digits = 17) else as.character(v)

fp_require <- function(pkgs, what) {
  miss <- pkgs[!vapply(pkgs, requireNamespace, logical(1), quietly = TRUE)]
  if (length(miss)) {
    stop(errorCondition(sprintf("%s needs the package(s) %s: install.packages(c(%s))", what,
                                paste(miss, collapse = ", "),
                                paste(dQuote(miss, FALSE), collapse = ", ")),
                        class = c("fairproj_missing_package", "fairproj_error")))
  }
  invisible(TRUE)
}

fp_db_group_name <- function(group, vars) {
  if (missing(group) || is.null(group)) fp_abort("is missing: give the name of the group column", "group")
  if (!is.character(group) || length(group) != 1L || is.na(group)) {
    fp_abort("must be the name of the group column of the table (one string)", "group")
  }
  if (!group %in% vars) fp_abort(sprintf("names column '%s', which the table does not have", group), "group")
  group
}

fp_db_columns <- function(columns, vars, group) {
  if (is.null(columns)) columns <- setdiff(vars, group)
  if (!is.character(columns) || length(columns) < 1L || anyNA(columns) || anyDuplicated(columns)) {
    fp_abort("must be distinct column names (a character vector)", "columns")
  }
  miss <- setdiff(columns, vars)
  if (length(miss)) fp_abort(sprintf("names column(s) the table does not have: %s", paste(miss, collapse = ", ")), "columns")
  if (group %in% columns) fp_abort("must not include the group column", "columns")
  columns
}

# The SQL of the queries. dbplyr renders the user's lazy query (any table or pipeline) and
# quotes identifiers and literals for the connection's dialect; the aggregates around it are
# written here in the SQL every engine speaks (COUNT, AVG, SUM, CASE WHEN), one SELECT with
# GROUP BY per query. (Building hundreds of aggregates through dplyr::summarise() is slow:
# dbplyr processes its arguments one by one.)
fp_db_ident <- function(con, x) as.character(dbplyr::escape(dbplyr::ident(x), con = con, collapse = NULL))
fp_db_literal <- function(con, x) as.character(dbplyr::escape(x, con = con))

fp_db_select <- function(con, inner, group, items) {
  g <- fp_db_ident(con, group)
  paste0("SELECT ", g, ", ", paste(items, collapse = ", "), "\nFROM (\n", inner, "\n) fp_q\nGROUP BY ", g)
}

# Pass 1: per group COUNT(*), AVG of each column and the number of NULLs of each column.
fp_db_pass1 <- function(x, group, columns) {
  con <- dbplyr::remote_con(x)
  v <- fp_db_ident(con, columns)
  items <- c(paste0("COUNT(*) AS ", fp_db_ident(con, "fp_n")),
             paste0("AVG(", v, ") AS ", fp_db_ident(con, paste0("fp_m", seq_along(columns)))),
             paste0("SUM(CASE WHEN ", v, " IS NULL THEN 1 ELSE 0 END) AS ",
                    fp_db_ident(con, paste0("fp_na", seq_along(columns)))))
  fp_db_select(con, as.character(dbplyr::sql_render(x)), group, items)
}

# Pass 2: the columns shifted by the per-group first-pass means (a CASE on the group column),
# then per group the sums of the shifted columns and of the products of pairs of them, split
# into queries of at most `max_terms` aggregates. Returns a list of list(sql, terms) where
# terms has the output name and (i, j) (j = 0 for the plain sum of column i).
fp_db_pass2 <- function(x, group, columns, gv, shift, max_terms) {
  con <- dbplyr::remote_con(x)
  d <- length(columns)
  g <- fp_db_ident(con, group)
  v <- fp_db_ident(con, columns)
  cn <- fp_db_ident(con, paste0("fp_c", seq_len(d)))
  shifted <- vapply(seq_len(d), function(j) {
    s <- if (length(gv) == 1L) fp_db_literal(con, shift[1L, j]) else {
      paste0("CASE", paste0(" WHEN ", g, " = ", vapply(gv, function(l) fp_db_literal(con, l), ""),
                            " THEN ", vapply(shift[, j], function(l) fp_db_literal(con, l), ""), collapse = ""),
             " END")
    }
    paste0(v[j], " - ", s, " AS ", cn[j])
  }, "")
  inner <- paste0("SELECT ", g, ", ", paste(shifted, collapse = ", "), "\nFROM (\n",
                  as.character(dbplyr::sql_render(x)), "\n) fp_r")
  ii <- c(seq_len(d), unlist(lapply(seq_len(d), function(i) rep(i, d - i + 1L))))
  jj <- c(rep(0L, d), unlist(lapply(seq_len(d), function(i) i:d)))
  terms <- data.frame(i = ii, j = jj, name = ifelse(jj == 0L, paste0("fp_s", ii), paste0("fp_p", ii, "_", jj)),
                      stringsAsFactors = FALSE)
  chunks <- split(seq_len(nrow(terms)), ceiling(seq_len(nrow(terms)) / max_terms))
  lapply(chunks, function(idx) {
    tt <- terms[idx, , drop = FALSE]
    arg <- ifelse(tt$j == 0L, cn[tt$i], paste0(cn[tt$i], " * ", cn[pmax(tt$j, 1L)]))
    items <- paste0("SUM(", arg, ") AS ", fp_db_ident(con, tt$name))
    list(sql = fp_db_select(con, inner, group, items), terms = tt)
  })
}
