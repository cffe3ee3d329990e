#' Group moments of a database or Spark table: streamed, or computed inside the engine
#'
#' For a lazy table of \pkg{dbplyr} (`dplyr::tbl(con, "name")` or any pipeline on it, on any
#' DBI connection: SQLite, DuckDB, PostgreSQL, ..., and Spark tables of \pkg{sparklyr}, which
#' are dbplyr tables too), the per-group moments are computed by one of two routes.
#'
#' **`route = "stream"`** sends the query once ([DBI::dbSendQuery()]) and fetches the rows in
#' chunks of `chunk_rows` ([DBI::dbFetch()]; in PostgreSQL, whose client library would hold the
#' whole result, through a server-side cursor in a read-only transaction); each chunk is reduced to its moments in C++ and
#' merged exactly, as for files. One scan of the table, memory bounded by one chunk. This wins
#' wherever moving rows to R is cheaper than the d (d + 1) / 2 sums of products the engine would
#' compute: engines on the same machine or network (SQLite, DuckDB, PostgreSQL, MySQL/MariaDB),
#' and it is the automatic choice for their connections.
#'
#' **`route = "pushdown"`** computes the moments by aggregation queries inside the engine, so
#' that only one row per group and query comes back. This is for engines where the data must
#' stay (Spark, warehouses), the automatic choice for every other connection. It takes two
#' passes:
#' 1. per group `COUNT(*)`, the `AVG` of each column (its value where `MIN` equals `MAX`, so
#'    that a column constant within a group is shifted to exactly zero), its number of `NULL`s (and, in SQLite,
#'    whose columns hold values of any type, its number of text values), and for integer
#'    columns (SQLite's integers, `BIGINT` elsewhere where the driver returns integer64) the
#'    number of integers of 2^53 or more, in one query (or one per block of columns when d is
#'    large: two in SQLite at d = 800);
#' 2. per group the sums of the columns shifted by the first-pass means, and of all products of
#'    pairs of shifted columns, cast to double precision. The products are tiled in square
#'    blocks of columns, packed in order into queries of `max_terms` result columns (the most the
#'    engine accepts: 1,664 in PostgreSQL, 2,000 in SQLite, ...), so each query reads only the
#'    columns of one or two blocks: about (d^2 / 2) / `max_terms` queries, each a full scan (194
#'    at d = 800 in PostgreSQL, 195 scans with the first pass). A message states the number of
#'    queries before more than five.
#'
#' The shifts are written into the SQL as exactly representable literals cast to double (a small
#' table, one row per group, joined on the group column), and R adds back exactly those values,
#' so the means and scatters are exact whatever the offset of the columns (`mean = shift +
#' sum(x - shift) / n`, `scatter = sum((x - shift)(x - shift)') - n (mean - shift)(mean -
#' shift)'`). Groups are matched by their exact stored value (numbers printed with enough digits
#' to round-trip), and every query also counts the rows it used per group: a count that differs
#' from the first pass (a label the engine could not match) is an error.
#'
#' **Exact or loud.** On both routes the columns must be numeric or logical (`TRUE`/`FALSE` are
#' used as 1/0); text, dates and times are errors of class `fairproj_source_error` naming the
#' column (and, where the engine stores text in a numeric column, as SQLite may, the value).
#' `NULL` values in a feature or in the group column are errors naming the column: filter or
#' impute them in the query first (`dplyr::filter()` on the lazy table). A numeric group column
#' with non-integer values is a continuous attribute, not a group, and an error of class
#' `fairproj_source_error` (as a numeric vector is in memory): `cut()` it into groups in the
#' query; whole numbers stored as `REAL` are labels. The rows used must equal
#' `COUNT(*)` of the query. Integers of 2^53 or more, which double precision may round, give a
#' warning of class `fairproj_precision_warning` on both routes (where the driver returns them
#' as integer64, as RSQLite and RPostgres do, or the engine is SQLite). A column that varies
#' within a group while its values are below about 1e-154 (their squares vanish in double
#' precision) is the error of the in-memory door (the push-down route finds such columns from
#' their means and one more query of their `MIN` and `MAX`). Group labels may be text, numbers
#' (also non-integer ones such as 1/3) or logicals; numeric labels print with the fewest digits
#' that give back the stored value.
#' SQLite stores dates as numbers unless the connection was opened with `extended_types = TRUE`;
#' only then can they be recognised.
#'
#' Both routes show a progress bar in interactive sessions (chunks or queries done, of how
#' many).
#'
#' @param x A lazy table (`tbl_lazy`, e.g. from `dplyr::tbl()` or `sparklyr::spark_read_csv()`).
#' @param group The name of the group column of `x` (a string).
#' @param ... Not used: an argument given here (a misspelt option) is an error of class
#'   `fairproj_input_error`.
#' @param columns The feature columns (character); `NULL` for all columns but `group`.
#' @param route `"stream"`, `"pushdown"`, or `NULL` to choose from the connection (see Details).
#' @param chunk_rows Rows per fetched chunk (stream route).
#' @param max_terms Most result columns in one query of the push-down route; `NULL` for the
#'   engine's limit.
#' @param blocks Optional number of blocks (10 to 1000) per group whose moments are kept as
#'   well, for the intervals of [fair_audit()], as in [group_moments()] (stream route only): a
#'   row goes to the block given by a hash of its number in the query's result, in the order
#'   the engine returns the rows, which a query without `ORDER BY` does not fix (the blocks,
#'   and so the intervals, may then differ slightly between runs; the moments do not). The
#'   push-down route cannot number the rows consistently over its many scans: `blocks` with
#'   `route = "pushdown"` is an error.
#' @return A `group_moments` object (see [group_moments()]), levels in sorted order.
#' @seealso [group_moments()], [new_group_moments()], and `vignette("large-data")`.
#' @examples
#' if (requireNamespace("RSQLite", quietly = TRUE) && requireNamespace("dbplyr", quietly = TRUE) &&
#'     requireNamespace("MASS", quietly = TRUE)) {
#'   bw <- MASS::birthwt[c("age", "lwt", "ptl", "ftv", "bwt", "race")]
#'   con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
#'   DBI::dbWriteTable(con, "births", bw)
#'   tab <- dplyr::tbl(con, "births")
#'   m <- group_moments(tab, group = "race")
#'   all.equal(moments_cov(m), moments_cov(group_moments(bw[1:5], bw$race)))
#'   m2 <- group_moments(tab, group = "race", route = "pushdown")
#'   all.equal(moments_cov(m2), moments_cov(m))
#'   fit <- fair_pca(m, k = 2, method = "mean", scale. = TRUE)
#'   DBI::dbDisconnect(con)
#' }
#' @name group_moments_db
#' @export
group_moments.tbl_lazy <- function(x, group, ..., columns = NULL, route = NULL, chunk_rows = 100000L,
                                   max_terms = NULL, blocks = NULL) {
  fp_check_no_dots(...names(), ...length(), "group_moments() on a database table",
                   c("x", "group", "columns", "route", "chunk_rows", "max_terms", "blocks"))
  fp_require(c("DBI", "dplyr", "dbplyr"), "group_moments() on a database table")
  con <- dbplyr::remote_con(x)
  # a closed connection would fail in the driver at the first query, unclassed
  valid <- tryCatch(DBI::dbIsValid(con), error = function(e) TRUE)  # a driver without dbIsValid: assume open
  if (!isTRUE(valid)) {
    fp_abort("is a table on a database connection that is closed or invalid; connect again and make the table anew with dplyr::tbl()",
             "x", class = "fairproj_source_error")
  }
  vars <- colnames(x)
  group <- fp_db_group_name(group, vars)
  columns <- fp_db_columns(columns, vars, group)
  route <- if (is.null(route)) fp_db_route_auto(con) else fp_match_arg(route, c("stream", "pushdown"), "route")
  chunk_rows <- fp_check_count(chunk_rows, 1L, .Machine$integer.max, "chunk_rows")
  max_terms <- if (is.null(max_terms)) fp_db_max_terms(con) else fp_check_count(max_terms, 4L, 100000L, "max_terms")
  if (!is.null(blocks)) {
    blocks <- fp_check_count(blocks, 10L, 1000L, "blocks")
    if (route != "stream") {
      fp_abort(paste("needs route = \"stream\": the push-down route reads the table in many scans, which",
                     "cannot number the rows the same way, so it computes no block moments"), "blocks")
    }
  }
  types <- fp_db_schema(con, x, group, columns)
  out <- if (route == "stream") fp_db_stream(con, x, group, columns, chunk_rows, blocks) else
    fp_db_pushdown(con, x, group, columns, types, max_terms)
  fp_check_door_range(fp_sort_levels(out))
}

# The route for a connection: stream for engines that serve rows cheaply to this machine.
fp_db_route_auto <- function(con) {
  local <- c("SQLiteConnection", "PqConnection", "PostgreSQLConnection", "duckdb_connection",
             "MariaDBConnection", "MySQLConnection")
  if (inherits(con, local)) "stream" else "pushdown"
}

# Result columns one query may have: PostgreSQL's target-list limit, SQLite's default
# SQLITE_MAX_COLUMN, MySQL's and SQL Server's column limits; 4000 for engines without a fixed
# limit (DuckDB, Spark), 1000 otherwise.
fp_db_max_terms <- function(con) {
  if (inherits(con, c("PqConnection", "PostgreSQLConnection", "RedshiftConnection"))) return(1664L)
  if (inherits(con, "SQLiteConnection")) return(2000L)
  if (inherits(con, c("MariaDBConnection", "MySQLConnection", "Microsoft SQL Server"))) return(4096L)
  if (inherits(con, c("duckdb_connection", "spark_connection", "Hive"))) return(4000L)
  1000L
}

fp_db_is_sqlite <- function(con) inherits(con, "SQLiteConnection")
fp_db_is_postgres <- function(con) inherits(con, c("PqConnection", "PostgreSQLConnection"))

# Column types from the schema (a query that returns no rows): "number" or "logical" per
# feature; text, dates, times and other types are an error naming the column. SQLite has no
# booleans (it stores them as integers), and a column it cannot type may come back as logical:
# there every feature is a number, and text values are counted row by row later.
fp_db_schema <- function(con, x, group, columns) {
  if (inherits(con, "TestConnection")) return(stats::setNames(rep("number", length(columns)), columns))
  # written by hand: dbplyr's select() renders hundreds of columns slowly (seconds at d = 800)
  sql <- paste0("SELECT ", paste(fp_db_ident(con, c(group, columns)), collapse = ", "), "\nFROM (\n",
                as.character(dbplyr::sql_render(x)), "\n) fp_q\nWHERE 1 = 0")
  empty <- fp_db_query(con, sql)
  vapply(columns, function(cl) {
    v <- empty[[cl]]
    if (inherits(v, c("Date", "POSIXt", "difftime", "hms"))) {
      fp_db_type_error(sprintf("column '%s' holds dates or times (%s); convert them to numbers in the query or leave the column out with `columns`",
                               cl, class(v)[1L]))
    }
    if (is.logical(v)) return(if (fp_db_is_sqlite(con)) "number" else "logical")
    if (inherits(v, "integer64")) return("int64")
    if (is.numeric(v)) return("number")
    fp_db_type_error(sprintf("column '%s' is not numeric (%s); choose the features with `columns`", cl, class(v)[1L]))
  }, "")
}

fp_db_type_error <- function(message, arg = "x") fp_abort(message, arg, class = "fairproj_source_error")

# ---- stream route --------------------------------------------------------------------------

fp_db_stream <- function(con, x, group, columns, chunk_rows, blocks = NULL) {
  inner <- as.character(dbplyr::sql_render(x))
  total <- as.numeric(fp_db_query(con, paste0("SELECT COUNT(*) AS ", fp_db_ident(con, "fp_n"),
                                               " FROM (\n", inner, "\n) fp_q"))[[1L]])
  sql <- paste0("SELECT ", paste(fp_db_ident(con, c(group, columns)), collapse = ", "), "\nFROM (\n", inner, "\n) fp_q")
  cur <- new.env(parent = emptyenv())
  if (fp_db_is_postgres(con)) {
    # PostgreSQL's client library holds a whole result set in memory: fetch through a
    # server-side cursor instead, in a read-only transaction of its own
    DBI::dbExecute(con, "BEGIN TRANSACTION READ ONLY")
    on.exit(DBI::dbExecute(con, "ROLLBACK"), add = TRUE)
    DBI::dbExecute(con, paste("DECLARE fp_cursor NO SCROLL CURSOR FOR", sql))
    cur$fetch <- function(n) fp_db_query(con, sprintf("FETCH FORWARD %d FROM fp_cursor", n))
    cur$done <- function(last, n) nrow(last) < n
  } else {
    cur$res <- DBI::dbSendQuery(con, sql)
    on.exit(if (!is.null(cur$res)) DBI::dbClearResult(cur$res), add = TRUE)
    cur$fetch <- function(n) DBI::dbFetch(cur$res, n = n)
    cur$done <- function(last, n) DBI::dbHasCompleted(cur$res)
  }
  pb <- fp_progress_bar(max(1, ceiling(total / chunk_rows)), "Reading the table in chunks")
  on.exit(pb$done(), add = TRUE)
  out <- NULL
  rows <- 0
  chunks <- 0
  state <- new.env(parent = emptyenv())  # columns with integers of 2^53 or more
  state$big <- character(0)
  repeat {
    ch <- fp_db_fetch(con, cur, chunk_rows, inner, columns, group)
    if (nrow(ch)) {
      piece <- fp_db_chunk_moments(ch, rows, group, columns, state, blocks)
      out <- if (is.null(out)) piece else fp_merge_moments(out, piece)
      rows <- rows + nrow(ch)
    }
    chunks <- chunks + 1
    pb$update(min(chunks, ceiling(total / chunk_rows)))
    if (!nrow(ch) || cur$done(ch, chunk_rows)) break
  }
  if (is.null(out)) fp_abort("has no rows", "x", class = "fairproj_source_error")
  if (rows != total || sum(out$n) != rows) {
    stop(errorCondition(sprintf("the query returned %s rows and %s were used, but COUNT(*) is %s (did the table change while it was read?)",
                                format(rows), format(sum(out$n)), format(total)),
                        class = c("fairproj_source_error", "fairproj_error")))
  }
  fp_db_warn_big(state$big)
  out
}

fp_db_warn_big <- function(cols) {
  if (length(cols)) {
    fp_warn(sprintf("`x` has column(s) with integers of 2^53 or more, which double precision may round: %s",
                    fp_name_list(unique(cols))), class = "fairproj_precision_warning")
  }
}

# One chunk from the open result or cursor `cur`. RSQLite warns when a numeric column holds
# text further down ("mixed type") and coerces it; that is an error here, with the first such
# value found by a query (after the result is closed: SQLite runs one statement at a time).
fp_db_fetch <- function(con, cur, n, inner, columns, group = NULL) {
  withCallingHandlers(cur$fetch(n), warning = function(w) {
    msg <- conditionMessage(w)
    if (fp_db_is_sqlite(con) && grepl("mixed type", msg)) {
      cl <- regmatches(msg, regexpr("`[^`]+`", msg))
      cl <- if (length(cl)) gsub("`", "", cl) else columns[1L]
      DBI::dbClearResult(cur$res)
      cur$res <- NULL
      fp_db_sqlite_text_error(con, inner, cl, arg = if (identical(cl, group)) "group" else "x")
    }
  })
}

fp_db_sqlite_text_error <- function(con, inner, cl, count = NULL, arg = "x") {
  v <- fp_db_ident(con, cl)
  bad <- DBI::dbGetQuery(con, paste0("SELECT ", v, " AS v FROM (\n", inner, "\n) fp_q WHERE typeof(", v,
                                     ") IN ('text', 'blob') LIMIT 1"))$v
  fp_db_type_error(sprintf("column '%s' holds %stext value(s) among its numbers, e.g. '%s'; fix the table or convert in the query",
                           cl, if (is.null(count)) "" else paste0(format(count), " "),
                           if (length(bad)) as.character(bad[[1L]]) else "?"), arg)
}

# Group labels as text: numbers with the fewest significant digits (15 to 17) that give back the
# stored double, so that labels such as 1/3 are exact and readable.
fp_db_label <- function(v) {
  if (inherits(v, "integer64")) v <- as.character(v)
  if (!is.numeric(v)) return(as.character(v))
  u <- unique(v)
  lab <- vapply(u, function(z) {
    if (is.na(z)) return(NA_character_)
    for (dg in 15:17) {
      s <- format(z, digits = dg, scientific = FALSE, trim = TRUE)
      if (as.numeric(s) == z) break
    }
    s
  }, "")
  lab[match(v, u)]
}

fp_db_chunk_moments <- function(ch, before, group, columns, state, blocks = NULL) {
  g <- ch[[group]]
  if (anyNA(g)) {
    fp_abort(sprintf("group column '%s' is NULL in row %s of the query result; filter those rows in the query",
                     group, format(before + which(is.na(g))[1L], scientific = FALSE)), "x", class = "fairproj_source_error")
  }
  for (cl in columns) {
    v <- ch[[cl]]
    if (inherits(v, "integer64")) {
      # bit64's conversion, by value; its unclassed warning on rounding becomes one classed
      # warning at the end
      ch[[cl]] <- suppressWarnings(as.numeric(v))
      if (any(abs(ch[[cl]]) >= 2^53, na.rm = TRUE)) state$big <- c(state$big, cl)
    }
    else if (inherits(v, c("Date", "POSIXt", "difftime", "hms")) || !(is.numeric(v) || is.logical(v))) {
      fp_db_type_error(sprintf("column '%s' is not numeric (%s, e.g. '%s' in row %s of the query result)", cl,
                               class(v)[1L], format(v[1L]), format(before + 1, scientific = FALSE)))
    }
  }
  xm <- fp_as_matrix(ch[columns], "x", min_cols = 1L, check_finite = FALSE)
  if (anyNA(xm)) {
    j <- which(colSums(is.na(xm)) > 0)[1L]
    fp_abort(sprintf("column '%s' is NULL in row %s of the query result; filter or impute those rows in the query",
                     columns[j], format(before + which(is.na(xm[, j]))[1L], scientific = FALSE)), "x",
             class = "fairproj_source_error")
  }
  if (fp_any_infinite(xm)) {
    j <- which(colSums(is.infinite(xm)) > 0)[1L]
    i <- which(is.infinite(xm[, j]))[1L]
    fp_abort(sprintf("column '%s' is %s in row %s of the query result; filter those rows in the query", columns[j],
                     format(xm[i, j]), format(before + i, scientific = FALSE)), "x", class = "fairproj_source_error")
  }
  if (fp_group_continuous(g)) fp_abort_group_continuous(group, g, "in the query")
  gf <- fp_as_group(fp_db_label(g), nrow(xm), "group", min_levels = 1L)
  if (!is.null(blocks)) return(fp_moments_blocked(xm, gf, columns, "x", blocks, before + seq_len(nrow(xm))))
  fp_check_door_range(fp_moments_dense(xm, gf, columns, "x"), xm, gf)
}

# ---- push-down route -----------------------------------------------------------------------

fp_db_pushdown <- function(con, x, group, columns, types, max_terms) {
  p <- fp_db_prefix(colnames(x))
  q1 <- fp_db_pass1(x, group, columns, types, max_terms, p)
  inner <- as.character(dbplyr::sql_render(x))
  res1 <- fp_db_query_labels(con, q1[1L], inner, group)
  for (q in q1[-1L]) {  # further blocks of columns, aligned on the groups of the first
    r <- fp_db_query_labels(con, q, inner, group)
    r <- r[match(fp_db_key(res1[[group]]), fp_db_key(r[[group]])), setdiff(names(r), c(group, paste0(p, "n"))), drop = FALSE]
    res1 <- cbind(res1, r)
  }
  gv <- res1[[group]]
  if (anyNA(gv)) fp_abort(sprintf("group column '%s' has missing (NULL) values; filter them in the query", group), "x",
                          class = "fairproj_source_error")
  if (is.character(gv) && any(gv == "")) {
    fp_abort(sprintf("group column '%s' has empty labels (''), which count as missing; filter or label them in the query",
                     group), "x", class = "fairproj_source_error")
  }
  if (fp_group_continuous(gv)) fp_abort_group_continuous(group, gv, "in the query")
  d <- length(columns)
  m <- length(gv)
  if (m < 1L) fp_abort("has no rows", "x", class = "fairproj_source_error")
  n <- as.numeric(res1[[paste0(p, "n")]])
  colsum <- function(what) vapply(seq_len(d), function(j) sum(as.numeric(res1[[paste0(p, what, j)]])), numeric(1))
  ntext <- if (fp_db_is_sqlite(con)) colsum("t") else numeric(d)
  if (any(ntext > 0)) {
    j <- which(ntext > 0)[1L]
    fp_db_sqlite_text_error(con, as.character(dbplyr::sql_render(x)), columns[j], ntext[j])
  }
  nbig <- colsum("b")
  fp_db_warn_big(columns[!is.na(nbig) & nbig > 0])
  nna <- colsum("na")
  if (any(nna > 0)) {
    bad <- columns[nna > 0]
    fp_abort(sprintf("has missing (NULL) values in column(s) %s (%s in all); filter or impute them in the query",
                     paste(utils::head(bad, 5), collapse = ", "), format(sum(nna))), "x", class = "fairproj_source_error")
  }
  avg <- matrix(vapply(seq_len(d), function(j) as.numeric(res1[[paste0(p, "m", j)]]), numeric(m)), m, d)
  if (any(!is.finite(avg))) fp_abort("has columns whose means are not finite (infinite values, or sums that overflow)", "x",
                                     class = "fairproj_source_error")
  avg <- fp_db_tiny(con, x, group, columns, types, gv, avg, max_terms, p)
  plan <- fp_db_pass2(x, group, columns, gv, avg, max_terms, types, p)
  shift <- plan$shift  # exactly the values written into the SQL
  key <- fp_db_key(gv)
  nq <- length(plan$queries)
  if (nq > 5L) {
    fp_inform(sprintf("group_moments(): %d aggregation queries (%d full scans of the table, with the first pass); route = \"stream\" reads it once",
                      nq, nq + length(q1)), class = "fairproj_db_plan_message")
  }
  pb <- fp_progress_bar(nq, "Aggregation queries")
  on.exit(pb$done(), add = TRUE)
  sums <- matrix(0, m, d)
  prods <- array(0, c(d, d, m))
  for (qi in seq_len(nq)) {
    q <- plan$queries[[qi]]
    r <- fp_db_query(con, q$sql)
    idx <- match(key, fp_db_key(r[[group]]))
    used <- if (anyNA(idx)) rep(0, m) else as.numeric(r[[paste0(p, "k")]][idx])
    if (any(used != n)) {
      bad <- which(used != n)[1L]
      stop(errorCondition(sprintf(paste("group '%s' has %s rows, but a second-pass query found %s rows whose group column",
                                        "equals the label as R received it: the driver returned the label changed (a",
                                        "number rounded or converted); give the group column one exact type in the query"),
                                  fp_db_label(gv[bad]), format(n[bad]), format(used[bad])),
                          class = c("fairproj_source_error", "fairproj_error")))
    }
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
    pb$update(qi)
  }
  if (any(!is.finite(sums)) || any(!is.finite(prods))) {
    fp_abort("has infinite values or sums of products that overflow", "x", class = "fairproj_source_error")
  }
  mean <- mean_lo <- matrix(0, d, m)
  scatter <- vector("list", m)
  for (c in seq_len(m)) {
    r <- sums[c, ] / n[c]
    mean[, c] <- shift[c, ] + r
    mean_lo[, c] <- r - (mean[, c] - shift[c, ])  # the digits of r that the sum could not keep
    scatter[[c]] <- prods[, , c] - tcrossprod(r) * n[c]
  }
  fp_new_moments(n, mean, scatter, fp_db_label(gv), columns, mean_lo = mean_lo)
}

# Columns with a group mean below about 1e-154 (rarely any) get their per-group MIN and MAX from
# one more query. Such a column that varies within a group has squares that vanish in double
# precision: the error of the in-memory door. One that is constant in a group gets its value as
# that group's shift, so the second pass subtracts it exactly (PostgreSQL refuses products that
# underflow). Returns the shifts to use (m x d).
fp_db_tiny <- function(con, x, group, columns, types, gv, avg, max_terms, p = fp_db_prefix(colnames(x))) {
  lim <- sqrt(.Machine$double.xmin)
  small <- abs(avg) < lim & avg != 0
  cand <- which(colSums(small) > 0)
  src <- as.character(dbplyr::sql_render(x))
  key <- fp_db_key(gv)
  for (blk in split(cand, ceiling(seq_along(cand) / max(1L, (max_terms - 1L) %/% 2L)))) {
    v <- fp_db_num_expr(con, fp_db_ident(con, columns[blk]), types[blk])
    items <- c(paste0("MIN(", v, ") AS ", fp_db_ident(con, paste0(p, "lo", blk))),
               paste0("MAX(", v, ") AS ", fp_db_ident(con, paste0(p, "hi", blk))))
    r <- fp_db_query(con, fp_db_select(con, src, group, items, p))
    r <- r[match(key, fp_db_key(r[[group]])), , drop = FALSE]
    for (j in blk) {
      lo <- as.numeric(r[[paste0(p, "lo", j)]])
      hi <- as.numeric(r[[paste0(p, "hi", j)]])
      if (any(small[, j] & lo < hi & pmax(abs(lo), abs(hi)) < lim, na.rm = TRUE)) fp_abort_tiny_values()
      const <- which(small[, j] & !is.na(lo) & lo == hi)
      avg[const, j] <- lo[const]
    }
  }
  avg
}

# A first-pass query. RSQLite converts text in a column whose first values are numbers (a text
# label in an INTEGER group column comes back as 0) and warns; that is an error naming a value.
fp_db_query_labels <- function(con, sql, inner, group) {
  mixed <- FALSE
  res <- withCallingHandlers(fp_db_query(con, sql), warning = function(w) {
    if (fp_db_is_sqlite(con) && grepl("mixed type", conditionMessage(w))) {
      mixed <<- TRUE
      invokeRestart("muffleWarning")
    }
  })
  if (mixed) fp_db_sqlite_text_error(con, inner, group, arg = "group")
  res
}

# Run one query; a driver that returns NULL with a warning on failure (RPostgreSQL) gets an
# error here.
fp_db_query <- function(con, sql) {
  said <- character(0)
  res <- withCallingHandlers(DBI::dbGetQuery(con, sql), warning = function(w) said <<- c(said, conditionMessage(w)))
  if (!is.data.frame(res)) {
    stop(errorCondition(paste0("an aggregation query failed in the database engine",
                               if (length(said)) paste0(": ", trimws(said[length(said)]))),
                        class = c("fairproj_db_error", "fairproj_error")))
  }
  res
}

# Group labels compared as exact text (the engine may return integers where R had doubles);
# integer64 labels (a BIGINT column) by their digits: as doubles, IDs beyond 2^53 would share a
# key (with bit64's unclassed warning) and match another group's row.
fp_db_key <- function(v) {
  if (inherits(v, "integer64")) return(as.character(v))
  if (is.numeric(v)) sprintf("%.17g", as.numeric(v)) else as.character(v)
}

# The SQL of the queries. dbplyr renders the user's lazy query (any table or pipeline) and
# quotes identifiers and literals for the connection's dialect; the aggregates around it are
# written here in the SQL every engine speaks (COUNT, AVG, SUM, CASE WHEN, CAST), one SELECT with
# GROUP BY per query. (Building hundreds of aggregates through dplyr::summarise() is slow:
# dbplyr processes its arguments one by one.)
fp_db_ident <- function(con, x) as.character(dbplyr::escape(dbplyr::ident(x), con = con, collapse = NULL))
fp_db_literal <- function(con, x) as.character(dbplyr::escape(x, con = con))

# The name of the double-precision type in the connection's dialect.
fp_db_double <- function(con) {
  if (inherits(con, c("spark_connection", "Hive", "MariaDBConnection", "MySQLConnection", "duckdb_connection"))) return("DOUBLE")
  if (inherits(con, "Microsoft SQL Server")) return("FLOAT")
  if (inherits(con, "SQLiteConnection")) return("REAL")
  "DOUBLE PRECISION"
}

# A double written as an SQL literal that parses back to exactly the same double (scientific
# notation with the fewest significant digits, 15 to 17, that round-trip), cast to double.
fp_db_num_text <- function(v) {
  vapply(v, function(z) {
    for (dg in 15:17) {
      s <- sprintf("%.*e", dg - 1L, z)
      if (as.numeric(s) == z) break
    }
    s
  }, "")
}

# A feature column as a double-precision expression: booleans as 1/0 (a CASE, which every
# engine evaluates; NULL stays NULL), numbers cast.
fp_db_num_expr <- function(con, v, type) {
  dbl <- fp_db_double(con)
  ifelse(type == "logical", paste0("CASE WHEN ", v, " THEN 1.0 WHEN NOT ", v, " THEN 0.0 END"),
         paste0("CAST(", v, " AS ", dbl, ")"))
}

# A group label as a literal comparable with the stored value: numbers exactly (as above),
# everything else through dbplyr's escaping.
fp_db_label_literal <- function(con, v) {
  if (is.numeric(v) && !inherits(v, "integer64")) return(fp_db_num_text(as.numeric(v)))
  vapply(seq_along(v), function(i) fp_db_literal(con, v[i]), "")
}

fp_db_select <- function(con, inner, group, items, p = "fp_") {
  g <- fp_db_ident(con, group)
  paste0("SELECT ", g, ", ", paste(items, collapse = ", "), "\nFROM (\n", inner, "\n) ", p, "q\nGROUP BY ", g)
}

# The prefix of the names the push-down queries give their results and subqueries: "fp_", or
# "fp1_", "fp2_", ... when a column of the table starts with it. An alias equal to a column
# name would be taken for that column (in GROUP BY, in the join) or would hide it in the data
# frame that comes back. Compared without case, as SQLite and Spark compare names. No column
# name starts with two of these prefixes, so one of the first length(vars) + 1 is free.
fp_db_prefix <- function(vars) {
  low <- tolower(vars)
  for (i in c("", seq_along(vars))) {
    p <- paste0("fp", i, "_")
    if (!any(startsWith(low, p))) return(p)
  }
}

# Pass 1: per group COUNT(*), AVG of each column (as a double), the number of NULLs of each
# column and, in SQLite, the number of text values of each column; split over several queries
# (blocks of columns) when they would have more than `max_terms` result columns.
fp_db_pass1 <- function(x, group, columns, types = rep("number", length(columns)), max_terms = 1000L,
                        p = fp_db_prefix(colnames(x))) {
  con <- dbplyr::remote_con(x)
  sqlite <- fp_db_is_sqlite(con)
  per <- if (sqlite) 4L else 2L + any(types == "int64")
  src <- as.character(dbplyr::sql_render(x))
  blocks <- split(seq_along(columns), ceiling(seq_along(columns) / max(1L, (max_terms - 2L) %/% per)))
  vapply(blocks, function(j) {
    v <- fp_db_ident(con, columns[j])
    # the mean, or for a column constant within the group its value itself (an engine's AVG of
    # equal values may round), so that the second pass shifts such a column to exactly zero
    e <- fp_db_num_expr(con, v, types[j])
    items <- c(paste0("COUNT(*) AS ", fp_db_ident(con, paste0(p, "n"))),
               paste0("CASE WHEN MIN(", e, ") = MAX(", e, ") THEN MIN(", e, ") ELSE AVG(", e, ") END AS ",
                      fp_db_ident(con, paste0(p, "m", j))),
               paste0("SUM(CASE WHEN ", v, " IS NULL THEN 1 ELSE 0 END) AS ", fp_db_ident(con, paste0(p, "na", j))))
    if (sqlite) {
      items <- c(items, paste0("SUM(CASE WHEN typeof(", v, ") IN ('text', 'blob') THEN 1 ELSE 0 END) AS ",
                               fp_db_ident(con, paste0(p, "t", j))))
    }
    # integers that double precision may round (2^53 or more): SQLite's integer values, and
    # integer64 (BIGINT) columns elsewhere
    big <- if (sqlite) paste0("typeof(", v, ") = 'integer' AND ABS(", v, ") >= 9007199254740992") else
      ifelse(types[j] == "int64", paste0("ABS(", v, ") >= 9007199254740992"), NA)
    has <- !is.na(big)
    if (any(has)) {
      items <- c(items, paste0("SUM(CASE WHEN ", big[has], " THEN 1 ELSE 0 END) AS ", fp_db_ident(con, paste0(p, "b", j[has]))))
    }
    fp_db_select(con, src, group, items, p)
  }, "", USE.NAMES = FALSE)
}

# The terms of pass 2 in the order of square tiles of b columns: for tiles I <= J, the sums of
# the columns of I (diagonal tiles only), then the products i in I, j in J (i <= j). Consecutive
# tiles share their first block, so a query that takes the terms in this order, `cap` at a
# time, reads the columns of one or two tiles.
fp_db_tiles <- function(d, cap, p = "fp_") {
  b <- max(1L, floor(sqrt(cap)))
  blocks <- split(seq_len(d), ceiling(seq_len(d) / b))
  out <- list()
  for (p in seq_along(blocks)) {
    for (q in p:length(blocks)) {
      I <- blocks[[p]]
      J <- blocks[[q]]
      pr <- expand.grid(j = J, i = I)
      pr <- pr[pr$i <= pr$j, , drop = FALSE]
      out[[length(out) + 1L]] <- data.frame(i = c(if (p == q) I, pr$i), j = c(if (p == q) rep(0L, length(I)), pr$j))
    }
  }
  terms <- do.call(rbind, out)
  terms$name <- ifelse(terms$j == 0L, paste0(p, "s", terms$i), paste0(p, "p", terms$i, "_", terms$j))
  terms
}

# Pass 2: per query, the needed columns shifted by the per-group first-pass means, then per
# group the count, the sums of the shifted columns and the sums of products of pairs of them.
# The shifts come from a small table of exact double literals, one row per group, joined on the
# group column: an engine that inlines the shifted columns into every product (PostgreSQL and
# SQLite flatten the subquery) then repeats a subtraction, not a comparison of labels, and a row
# whose label the engine does not match exactly is dropped by the join and missing from the
# count `fp_k` that each query returns. Returns the shifts actually written (m x d) and a list
# of list(sql, terms).
fp_db_pass2 <- function(x, group, columns, gv, avg, max_terms, types = rep("number", length(columns)),
                        p = fp_db_prefix(colnames(x))) {
  con <- dbplyr::remote_con(x)
  d <- length(columns)
  m <- length(gv)
  g <- fp_db_ident(con, group)
  cn <- fp_db_ident(con, paste0(p, "c", seq_len(d)))
  sn <- fp_db_ident(con, paste0(p, "s", seq_len(d)))
  gk <- fp_db_ident(con, paste0(p, "g"))
  fr <- paste0(p, "r")   # the table's rows
  fsh <- paste0(p, "sh") # the shifts
  dbl <- fp_db_double(con)
  lit <- matrix(fp_db_num_text(as.numeric(avg)), m, d)
  shift <- matrix(as.numeric(lit), m, d)
  glit <- fp_db_label_literal(con, gv)
  num <- fp_db_num_expr(con, paste0(fr, ".", fp_db_ident(con, columns)), types)
  src <- as.character(dbplyr::sql_render(x))
  shifts <- function(need) {
    rows <- vapply(seq_len(m), function(c) {
      paste0("SELECT ", glit[c], " AS ", gk, ", ",
             paste0("CAST(", lit[c, need], " AS ", dbl, ") AS ", sn[need], collapse = ", "))
    }, "")
    paste(rows, collapse = "\nUNION ALL\n")
  }
  cap <- max_terms - 2L  # the group column and the count
  terms <- fp_db_tiles(d, cap, p)
  chunks <- split(seq_len(nrow(terms)), ceiling(seq_len(nrow(terms)) / cap))
  queries <- lapply(chunks, function(idx) {
    tt <- terms[idx, , drop = FALSE]
    need <- sort(unique(c(tt$i, tt$j[tt$j > 0L])))
    inner <- paste0("SELECT ", fr, ".", g, " AS ", g, ", ",
                    paste0(num[need], " - ", fsh, ".", sn[need], " AS ", cn[need], collapse = ", "),
                    "\nFROM (\n", src, "\n) ", fr, "\nINNER JOIN (\n", shifts(need), "\n) ", fsh, " ON ", fr, ".", g, " = ",
                    fsh, ".", gk)
    arg <- ifelse(tt$j == 0L, cn[tt$i], paste0(cn[tt$i], " * ", cn[pmax(tt$j, 1L)]))
    items <- c(paste0("COUNT(*) AS ", fp_db_ident(con, paste0(p, "k"))),
               paste0("SUM(", arg, ") AS ", fp_db_ident(con, tt$name)))
    list(sql = fp_db_select(con, inner, group, items, p), terms = tt)
  })
  list(shift = shift, queries = unname(queries))
}
