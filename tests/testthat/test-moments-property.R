# Property test of every door: random rows split into random sources (CSV files with quoting,
# blank lines, CRLF and random chunk sizes; SQLite tables on either route; sparse matrices;
# data frames), merged as a list, give the in-memory moments of the same rows; a source with a
# NULL or a text value in a numeric column gives a classed error instead.

prop_case <- function(seed, dir, con) {
  set.seed(seed)
  d <- sample(1:4, 1)
  m <- sample(1:3, 1)
  n <- sample(30:150, 1)
  offset <- sample(c(0, 1e4, 1e8), 1)
  labels <- sample(c("a", "b,c", "say \"hi\"", "x:y", "plain"), m)
  g <- sample(labels, n, TRUE)
  scale <- 10^stats::runif(d, -3, 3)
  x <- sweep(matrix(stats::rnorm(n * d), n, d), 2, scale, `*`) + offset * stats::runif(d, 0.5, 1)
  x <- signif(x, 12)  # the values every source holds exactly (readr parses 12 digits exactly)
  colnames(x) <- paste0("v", seq_len(d))
  parts <- split(seq_len(n), sort(sample(1:3, n, TRUE)))
  srcs <- list()
  expect_fail <- FALSE
  for (p in seq_along(parts)) {
    rows <- parts[[p]]
    df <- data.frame(x[rows, , drop = FALSE], grp = g[rows], stringsAsFactors = FALSE)
    kind <- sample(c("csv", "sqlite", "sparse", "frame"), 1)
    if (kind == "csv") {
      path <- file.path(dir, sprintf("s%d_%d.csv", seed, p))
      txt <- utils::capture.output(utils::write.csv(data.frame(formatC(x[rows, , drop = FALSE], digits = 12, format = "g"),
                                                               grp = g[rows]), row.names = FALSE))
      blank <- sample(length(txt), min(2, length(txt) - 1))
      txt <- append(txt, "", after = max(blank))          # a blank line somewhere after the header
      eol <- sample(c("\n", "\r\n"), 1)
      writeBin(charToRaw(paste0(paste(txt, collapse = eol), if (stats::runif(1) < 0.5) eol else "")), path)
      srcs[[p]] <- list(kind = kind, src = path, chunk = sample(c(1L, 3L, 17L, 1000L), 1))
    } else if (kind == "sqlite") {
      name <- sprintf("t%d_%d", seed, p)
      bad <- stats::runif(1) < 0.15
      DBI::dbWriteTable(con, name, df, overwrite = TRUE)
      if (bad) {
        expect_fail <- TRUE
        DBI::dbExecute(con, sprintf("UPDATE %s SET v1 = %s WHERE rowid = %d", name,
                                    sample(c("NULL", "'text'"), 1), sample(length(rows), 1)))
      }
      srcs[[p]] <- list(kind = kind, src = dplyr::tbl(con, name), route = sample(c("stream", "pushdown"), 1))
    } else if (kind == "sparse") {
      xs <- Matrix::Matrix(x[rows, , drop = FALSE], sparse = TRUE)
      srcs[[p]] <- list(kind = kind, src = group_moments(xs, g[rows]))
    } else {
      srcs[[p]] <- list(kind = kind, src = df)
    }
  }
  read <- function() {
    pieces <- lapply(srcs, function(s) {
      switch(s$kind,
             csv = group_moments(s$src, "grp", chunk_rows = s$chunk),
             sqlite = suppressMessages(group_moments(s$src, "grp", route = s$route, chunk_rows = 7L, max_terms = 8L)),
             s$src)
    })
    group_moments(pieces, "grp")
  }
  if (expect_fail) {
    expect_error(read(), class = "fairproj_source_error")
  } else {
    ref <- group_moments(x, g)
    expect_lte(moments_err(read(), ref), 1e-10)
  }
}

test_that("random sources merged as a list equal the in-memory moments of the same rows", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  skip_if_not_installed("readr")
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  skip_if_not_installed("Matrix")
  dir <- tempfile("fp_prop_")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con), add = TRUE)
  for (seed in 1:25) prop_case(seed, dir, con)
})
