# Block moments (moments-blocks.R): kept by every door that sees the rows (memory, files, the
# stream route of a database), added by c() and +, and the same blocks whatever the door.

# The moments of a group recombined from its blocks: n, mean and scatter (Chan's sum).
blocks_total <- function(b) {
  N <- sum(b$n)
  mu <- drop(b$mean %*% b$n) / N
  dev <- sweep(b$mean, 1L, mu)
  d <- nrow(b$mean)
  list(n = N, mean = mu, scatter = matrix(rowSums(b$scatter), d, d) + dev %*% (t(dev) * b$n))
}

test_that("c() and + add blocks of the same number; the sum is the groups' moments", {
  dat <- make_groups(n = c(120, 80, 40), d = 4, seed = 2, shift = 50)
  i1 <- seq_len(150)
  p1 <- group_moments(dat$x[i1, ], dat$g[i1], blocks = 12)
  p2 <- group_moments(dat$x[-i1, ], dat$g[-i1], blocks = 12)  # group "a" is only in p1
  m <- c(p1, p2)
  expect_identical(m$block_count, 12L)
  expect_length(m$blocks, 3L)
  for (i in seq_along(m$levels)) {
    b <- m$blocks[[i]]
    expect_false(anyDuplicated(b$id) > 0)
    expect_true(all(b$id %in% 1:12))
    tot <- blocks_total(b)
    expect_equal(tot$n, m$n[[i]])
    expect_equal(unname(tot$mean), unname(m$mean[, i]), tolerance = 1e-12)
    expect_equal(unname(tot$scatter), unname(m$scatter[[i]]), tolerance = 1e-9)
  }
  # block j of the result holds the rows of block j of both pieces
  j <- intersect(p1$blocks[[2]]$id, p2$blocks[[1]]$id)[1]
  b <- m$blocks[[2]]
  expect_equal(b$n[b$id == j], p1$blocks[[2]]$n[p1$blocks[[2]]$id == j] + p2$blocks[[1]]$n[p2$blocks[[1]]$id == j])
  expect_identical((p1 + p2)$blocks, m$blocks)
  # pieces with different block counts, or one without blocks: no blocks
  expect_null(c(p1, group_moments(dat$x[-i1, ], dat$g[-i1], blocks = 10))$blocks)
  expect_null((p1 + group_moments(dat$x[-i1, ], dat$g[-i1]))$blocks)
  # the audit takes intervals from the combined blocks
  a <- fair_audit(m, k = 2, methods = "standard", replicates = 20, seed = 1)
  expect_true(length(a$intervals$k) > 0)
  expect_true(all(is.finite(a$groups_table$loss_high)))
})

test_that("files give the blocks of the same rows in memory, over chunks, with skipped rows", {
  skip_if_not_installed("readr")
  dat <- make_groups(n = c(90, 70), d = 3, seed = 5, shift = 1e4)
  df <- data.frame(dat$x, grp = as.character(dat$g))
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  utils::write.csv(df, path, row.names = FALSE)
  mem <- group_moments(dat$x, dat$g, blocks = 15)
  for (ch in c(1000L, 37L)) {
    f <- group_moments(path, group = "grp", blocks = 15, chunk_rows = ch)
    expect_same_blocks(f, mem)
  }
  # a malformed record skipped: the others keep their numbers, and so their blocks
  lines <- readLines(path)
  lines[1 + 20] <- "oops"
  writeLines(lines, path)
  f <- suppressWarnings(group_moments(path, group = "grp", blocks = 15, bad_rows = "skip", chunk_rows = 50))
  keep <- setdiff(seq_len(nrow(dat$x)), 20L)
  ref <- fairproj:::fp_moments_blocked(dat$x[keep, ], droplevels(dat$g[keep]), colnames(dat$x), "x", 15L, rows = keep)
  expect_same_blocks(f, ref)
  # a list of sources: blocks add over its elements
  expect_warning(two <- group_moments(list(path, mem), group = "grp", blocks = 15, bad_rows = "skip"),
                 class = "fairproj_skipped_rows_warning")
  expect_equal(sum(two$blocks[[1]]$n), two$n[[1]])
  expect_error(group_moments(path, group = "grp", blocks = 5), class = "fairproj_input_error")
})

test_that("a database's stream route gives the blocks of the rows in memory; push-down refuses", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  dat <- make_groups(n = c(60, 50), d = 3, seed = 7)
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "t", data.frame(dat$x, grp = as.character(dat$g)))
  tab <- dplyr::tbl(con, "t")
  s <- group_moments(tab, group = "grp", route = "stream", chunk_rows = 33, blocks = 10)
  expect_same_blocks(s, group_moments(dat$x, dat$g, blocks = 10))
  err <- tryCatch(group_moments(tab, group = "grp", route = "pushdown", blocks = 10), error = identity)
  expect_s3_class(err, "fairproj_input_error")
  expect_match(conditionMessage(err), "blocks")
})
