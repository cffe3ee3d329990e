test_that("CSV files read in chunks give the moments of the whole file", {
  skip_if_not_installed("readr")
  dat <- make_groups(n = c(230, 170, 101), d = 4, shift = 1e6)
  df <- data.frame(id = seq_len(nrow(dat$x)), dat$x, grp = as.character(dat$g))
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  utils::write.csv(df, path, row.names = FALSE)
  ref <- group_moments(dat$x, dat$g)
  for (ch in c(50L, 167L, 501L, 100000L)) {  # 501 rows: a chunk boundary exactly at the end
    m <- group_moments(path, "grp", columns = paste0("x", 1:4), chunk_rows = ch)
    expect_identical(m$levels, ref$levels)
    expect_equal(m$n, ref$n)
    expect_equal(m$mean, ref$mean, tolerance = 1e-12)
    expect_equal(m$scatter, ref$scatter, tolerance = 1e-8)
  }
  # all columns but the group by default (here including id)
  m_all <- group_moments(path, "grp", chunk_rows = 100L)
  expect_identical(m_all$colnames, c("id", paste0("x", 1:4)))
  # several files, sequentially and through future.apply
  p2 <- tempfile(fileext = ".csv")
  on.exit(unlink(p2), add = TRUE)
  utils::write.csv(df[1:100, ], p2, row.names = FALSE)
  cols <- paste0("x", 1:4)
  two <- group_moments(c(path, p2), "grp", columns = cols, chunk_rows = 64L)
  ref2 <- group_moments(rbind(dat$x, dat$x[1:100, ]), c(as.character(dat$g), as.character(dat$g[1:100])))
  expect_equal(two$n, ref2$n)
  expect_equal(two$scatter, ref2$scatter, tolerance = 1e-8)
  skip_if_not_installed("future.apply")
  par <- group_moments(c(path, p2), "grp", columns = cols, chunk_rows = 64L, parallel = TRUE)
  expect_equal(par$scatter, two$scatter, tolerance = 1e-12)
})

test_that("a file's columns given as numbers: the error says they must be names", {
  skip_if_not_installed("readr")
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  utils::write.csv(data.frame(a = 1:6 + 0.5, b = 6:1 - 0.25, g = rep(c("u", "v"), 3)), path, row.names = FALSE)
  expect_error(group_moments(x = path, group = "g", columns = 1:2), "^`columns` must be column names \\(character\\)",
               class = "fairproj_input_error")
  expect_error(group_moments(x = path, group = "g", columns = c("a", "a")), "^`columns` must be distinct column names",
               class = "fairproj_input_error")
})

test_that("chunked files: errors name the argument", {
  skip_if_not_installed("readr")
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  utils::write.csv(data.frame(a = c(1, 2, NA, 4), b = 1:4, g = c("u", "v", "u", "v")), path, row.names = FALSE)
  expect_error(group_moments(path, "g"), class = "fairproj_input_error", regexp = "missing value")
  expect_error(group_moments(path, "zz"), class = "fairproj_input_error", regexp = "`group`")
  expect_error(group_moments(path), class = "fairproj_input_error", regexp = "`group`")
  expect_error(group_moments(file.path(tempdir(), "no-such-file.csv"), "g"), class = "fairproj_input_error",
               regexp = "do not exist")
  expect_error(group_moments(path, "g", chunk_rows = 0), class = "fairproj_input_error", regexp = "chunk_rows")
  expect_error(group_moments(matrix("a", 2, 2), c("u", "v")), class = "fairproj_input_error", regexp = "numeric")
  # a group column of numbers with non-integer values is a continuous attribute, as in memory
  # (read.csv() gives a numeric vector, refused there); whole numbers and text are labels
  set.seed(3)
  df <- data.frame(x1 = rnorm(200), x2 = rnorm(200), s = rep(c(1, 2.5), 100), w = rep(c(1, 2), 100),
                   t = rep(c("1.5", "b"), 100))
  utils::write.csv(df, path, row.names = FALSE)
  expect_error(group_moments(utils::read.csv(path)[1:2], utils::read.csv(path)$s), class = "fairproj_input_error",
               regexp = "non-integer")
  for (ch in c(1000L, 7L)) {
    expect_error(group_moments(path, "s", columns = c("x1", "x2"), chunk_rows = ch), class = "fairproj_source_error",
                 regexp = "`group` names column 's'.*non-integer values \\(e.g. 2.5\\)")
    expect_identical(as.numeric(group_moments(path, "w", columns = c("x1", "x2"), chunk_rows = ch)$n), c(100, 100))
    expect_identical(group_moments(path, "t", columns = c("x1", "x2"), chunk_rows = ch)$levels, c("1.5", "b"))
  }
})

# The findings of issue #23, one test each: every record is used exactly once, or the call
# stops with a classed error that names the file and the row.
iris_lines <- function() {
  path <- tempfile(fileext = ".csv")
  utils::write.csv(iris, path, row.names = FALSE)
  l <- readLines(path)
  unlink(path)
  l
}
iris_ref <- function() group_moments(as.matrix(iris[, 1:4]), iris$Species)

test_that("files: a row with too few or too many fields is an error naming it, or skipped and counted", {
  skip_if_not_installed("readr")
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  l <- iris_lines()
  for (bad in c("1,2", "1,2,3,4,5,\"setosa\"")) {
    writeLines(c(l[1:61], bad, l[62:151]), path)  # after data row 60, as in the report
    e <- expect_error(group_moments(path, "Species"), class = "fairproj_source_error")
    expect_match(conditionMessage(e), basename(path), fixed = TRUE)
    expect_match(conditionMessage(e), "data row 61")
    w <- expect_warning(m <- group_moments(path, "Species", chunk_rows = 25, bad_rows = "skip"),
                        class = "fairproj_skipped_rows_warning")
    expect_match(conditionMessage(w), "skipped 1 ")
    expect_lte(moments_err(m, iris_ref()), 1e-10)
  }
})

test_that("files: blank lines, quoted line breaks, CRLF and no final newline count every record once", {
  skip_if_not_installed("readr")
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  df <- data.frame(iris[, 1:4], Species = as.character(iris$Species))
  df$Species[c(3, 77, 140)] <- paste0(df$Species[c(3, 77, 140)], "\nline two")  # quoted newlines
  utils::write.csv(df, path, row.names = FALSE)
  l <- readLines(path)
  l <- c(l[1:20], "", l[21:90], "", "", l[91:length(l)])
  for (eol in c("\n", "\r\n")) {
    writeBin(charToRaw(paste(l, collapse = eol)), path)  # no final line break
    # the quoted line breaks are CRLF too in the CRLF file: part of the labels
    ref <- group_moments(as.matrix(df[, 1:4]), gsub("\n", eol, df$Species, fixed = TRUE))
    for (ch in c(7L, 50L, 1000L)) {
      m <- group_moments(path, "Species", chunk_rows = ch)
      expect_identical(sum(m$n), 150)
      expect_lte(moments_err(m, ref), 1e-10)
    }
  }
})

test_that("files: one pass over each file, whatever the number of chunks", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  skip_if_not_installed("readr")
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  utils::write.csv(iris, path, row.names = FALSE)
  calls <- 0
  suppressMessages(trace("read_delim_chunked", where = asNamespace("readr"), print = FALSE,
                         tracer = function() calls <<- calls + 1))
  on.exit(suppressMessages(untrace("read_delim_chunked", where = asNamespace("readr"))), add = TRUE)
  m <- group_moments(path, "Species", chunk_rows = 7)  # 22 chunks, one reader
  expect_identical(calls, 1)
  expect_lte(moments_err(m, iris_ref()), 1e-10)
})

test_that("files: a header-only file contributes nothing; alone it is a classed error", {
  skip_if_not_installed("readr")
  path <- tempfile(fileext = ".csv")
  full <- tempfile(fileext = ".csv")
  on.exit(unlink(c(path, full)))
  writeLines(iris_lines()[1], path)
  expect_error(group_moments(path, "Species"), class = "fairproj_source_error")
  utils::write.csv(iris, full, row.names = FALSE)
  expect_lte(moments_err(group_moments(c(path, full), "Species"), iris_ref()), 1e-10)
  expect_lte(moments_err(group_moments(list(path, full), "Species"), iris_ref()), 1e-10)
  file.create(path)  # not even a header
  expect_error(group_moments(path, "Species"), class = "fairproj_source_error")
})

test_that("files: an empty group field, a missing value or text in a number column names the row", {
  skip_if_not_installed("readr")
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  l <- iris_lines()
  cases <- list(c(5, '"setosa"', ""), c(8, "^5", "NA"), c(120, "^[0-9.]+", "abc"))
  for (cs in cases) {
    ll <- l
    r <- as.integer(cs[1])
    ll[r + 1] <- sub(cs[2], cs[3], ll[r + 1])
    writeLines(ll, path)
    e <- expect_error(group_moments(path, "Species", chunk_rows = 40), class = "fairproj_source_error")
    expect_match(conditionMessage(e), sprintf("data row %d[^0-9]", r))
    expect_warning(m <- group_moments(path, "Species", bad_rows = "skip"), class = "fairproj_skipped_rows_warning")
    expect_identical(sum(m$n), 149)
  }
  expect_error(group_moments(path, "Species", bad_rows = "drop"), class = "fairproj_input_error", regexp = "bad_rows")
  # a number at or beyond 1e307 (readr reads 1e308 and 1e400 as 1e307, without a problem) is a
  # value that does not parse, named or skipped; moments that overflow name the largest value's
  # row and column, in a chunk after the first too
  for (v in c("-1e400", "1e308", "3e200")) {
    ll <- l
    ll[62] <- sub(",[0-9.]+,", paste0(",", v, ","), ll[62])
    writeLines(ll, path)
    expect_error(group_moments(path, "Species", chunk_rows = 40), class = "fairproj_source_error",
                 regexp = sprintf("data row 61, column 'Sepal.Width': a value of about [-]?[0-9.]+e[+][0-9]+%s",
                                  if (v == "3e200") ", whose square overflows" else " [(]the reader reads numbers"))
    if (v != "3e200") {
      expect_warning(m <- group_moments(path, "Species", bad_rows = "skip"), class = "fairproj_skipped_rows_warning")
      expect_identical(sum(m$n), 149)
    }
    expect_error(group_moments(path, "Species", chunk_rows = 40, blocks = 10), class = "fairproj_source_error",
                 regexp = "data row 61, column 'Sepal.Width'")
  }
})

test_that("files: logical columns are used as 0/1, a logical column with other values is an error", {
  skip_if_not_installed("readr")
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  df <- data.frame(a = c(1.5, 2, 3.25, 4), b = c(TRUE, FALSE, TRUE, TRUE), g = c("u", "v", "u", "v"))
  utils::write.csv(df, path, row.names = FALSE)
  m <- group_moments(path, "g")
  expect_lte(moments_err(m, group_moments(cbind(a = df$a, b = as.numeric(df$b)), df$g)), 1e-12)
  df$b <- c("TRUE", "FALSE", "TRUE", "maybe")
  utils::write.csv(df, path, row.names = FALSE)
  expect_error(group_moments(path, "g"), class = "fairproj_source_error", regexp = "column 'b'")
})

test_that("files: large offsets and mixed scales stay exact over many chunks", {
  skip_if_not_installed("readr")
  dat <- mixed_scale_data(offset = 1e8)
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  # 12 significant digits, which readr's parser reads exactly (from 15 digits on it may be one
  # unit in the last place off R's correctly rounded as.numeric()); the reference holds the
  # values of the file
  txt <- formatC(dat$x, digits = 12, format = "g")
  utils::write.csv(data.frame(txt, grp = dat$g), path, row.names = FALSE, quote = FALSE)
  xv <- matrix(as.numeric(txt), nrow(dat$x), dimnames = dimnames(dat$x))
  ref <- group_moments(xv, dat$g)
  for (ch in c(13L, 1000L)) expect_lte(moments_err(group_moments(path, "grp", chunk_rows = ch), ref), 1e-10)
})

test_that("files: a list of file chunks on a PSOCK cluster through future", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  skip_if_not_installed("readr")
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  dat <- mixed_scale_data(n = c(200, 150, 100), offset = 1e6, seed = 3)
  paths <- vapply(1:4, function(i) tempfile(fileext = ".csv"), "")
  on.exit(unlink(paths))
  part <- rep(1:4, length.out = nrow(dat$x))
  dat$x[] <- signif(dat$x, 12)  # exactly as written and read (see above)
  for (i in 1:4) {
    utils::write.csv(data.frame(formatC(dat$x[part == i, ], digits = 12, format = "g"), grp = dat$g[part == i]),
                     paths[i], row.names = FALSE, quote = FALSE)
  }
  old <- future::plan(future::cluster, workers = 2L, rscript_libs = .libPaths())
  on.exit(future::plan(old), add = TRUE)
  m <- group_moments(as.list(paths), "grp", chunk_rows = 30L, parallel = TRUE)
  expect_lte(moments_err(m, group_moments(dat$x, dat$g)), 1e-10)
})

test_that("a list of sources is reduced and merged", {
  dat <- make_groups(n = c(100, 80), d = 3)
  df <- data.frame(dat$x, grp = dat$g)
  a <- df[1:90, ]
  b <- df[91:180, ]
  m <- group_moments(list(a, group_moments(b, "grp")), "grp")
  ref <- group_moments(dat$x, dat$g)
  expect_equal(m$scatter, ref$scatter, tolerance = 1e-10)
  expect_equal(m$mean, ref$mean, tolerance = 1e-12)
  expect_error(group_moments(list(), "grp"), class = "fairproj_input_error")
})

test_that("sparse matrices: moments from sparse products, never densified", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  skip_if_not_installed("Matrix")
  set.seed(4)
  x <- Matrix::rsparsematrix(3000, 40, density = 0.02)
  g <- sample(c("p", "q", "r"), 3000, TRUE)
  m <- group_moments(x, g)
  ref <- group_moments(as.matrix(x), g)
  expect_equal(m$n, ref$n)
  expect_equal(m$mean, ref$mean, tolerance = 1e-12)
  expect_equal(m$scatter, ref$scatter, tolerance = 1e-10)
  # other sparse classes are coerced to the compressed-column form
  mt <- group_moments(methods::as(x, "TsparseMatrix"), g)
  expect_equal(mt$scatter, ref$scatter, tolerance = 1e-10)
  # the working memory is about the non-zeros, not n x d
  big <- Matrix::rsparsematrix(1e5, 400, density = 0.001)
  gb <- rep(c("a", "b"), 5e4)
  invisible(gc(reset = TRUE))
  before <- sum(gc()[, 2])
  mb <- group_moments(big, gb)
  extra <- (sum(gc()[, 6]) - before) * 2^20
  expect_lt(extra, 0.25 * 1e5 * 400 * 8)  # a dense copy would be 320 MB
  expect_equal(unname(mb$n), c(5e4, 5e4))
  bad <- x
  bad@x[3] <- NA
  expect_error(group_moments(bad, g), class = "fairproj_input_error", regexp = "missing value")
  bad@x[3] <- Inf
  expect_error(group_moments(bad, g), class = "fairproj_input_error", regexp = "infinite")
})

test_that("sparse: a column with a 1e8 offset is centred exactly", {
  skip_if_not_installed("Matrix")
  set.seed(5)
  x <- Matrix::rsparsematrix(2000, 8, density = 0.05)
  x[, 2] <- 1e8 + rnorm(2000)
  x[, 5] <- 3 + rnorm(2000, sd = 1e-3)
  g <- sample(c("p", "q", "r"), 2000, TRUE)
  ref <- group_moments(as.matrix(x), g)
  m <- group_moments(x, g)
  expect_lte(moments_err(m, ref), 1e-10)
  # sparse columns are untouched: one column that is not centred densely equals the plain path
  expect_equal(m$scatter$p[c(1, 3), c(1, 3)], ref$scatter$p[c(1, 3), c(1, 3)], tolerance = 1e-12)
})

test_that("the backend follows the linked BLAS, deterministically", {
  k <- fairproj:::fp_blas_kind
  expect_identical(k("/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3", "")$kind, "optimized")
  expect_identical(k("/opt/intel/mkl/lib/libmkl_rt.so", "")$kind, "optimized")
  expect_identical(k("/usr/lib/R/lib/libRblas.so", "/usr/lib/R/lib/libRlapack.so")$kind, "reference")
  expect_identical(k("/usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0", "")$kind, "reference")
  expect_identical(k("/usr/lib64/libflexiblas.so.3", "")$kind, "unknown")
  expect_identical(k("", "")$kind, "unknown")
  old <- options(fairproj.backend = NULL)
  on.exit(options(old))
  b1 <- fairproj_backend()
  b2 <- fairproj_backend()
  expect_identical(b1$backend, b2$backend)
  if (b1$blas$kind != "unknown") {
    expect_identical(b1$source, "library")
    expect_identical(b1$backend, if (b1$blas$kind == "optimized") "blas" else "eigen")
    # a new timing does not change a choice the library implies
    b3 <- fairproj_backend(recalibrate = TRUE)
    expect_identical(b3$backend, b1$backend)
    expect_length(b3$timings, 2)
  }
  options(fairproj.backend = "blas")
  expect_identical(fairproj_backend()$source, "option")
})

test_that("files: a group labelled \"NA\" is refused as missing, saying so, and read as a label with na = \"\"", {
  skip_if_not_installed("readr")
  df <- data.frame(a = c(1.5, 2, 3.25, 4, 5, 6.5), b = c(2, 1, 0, 3, 5, 8), g = rep(c("NA", "x"), 3))
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  utils::write.csv(df, path, row.names = FALSE)
  err <- expect_error(group_moments(path, group = "g"), class = "fairproj_source_error")
  expect_match(conditionMessage(err), "data row 1, group column 'g'.*\"NA\".*na = \"\"")
  m <- group_moments(path, group = "g", na = "")
  ref <- group_moments(as.matrix(df[c("a", "b")]), df$g)
  expect_identical(m$levels, ref$levels)
  expect_equal(m$n, ref$n)
  expect_equal(m$scatter, ref$scatter, tolerance = 1e-12)
})

test_that("files: values near 1e-200 that vary within a group are the in-memory error; constant ones are exact", {
  skip_if_not_installed("readr")
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  set.seed(5)
  for (s in c(1e-200, 1e-300)) {
    df <- data.frame(a = rnorm(100) * s, b = rnorm(100), g = rep(c("u", "v"), 50))
    utils::write.csv(df, path, row.names = FALSE)
    expect_error(group_moments(as.matrix(df[1:2]), df$g), class = "fairproj_input_error", regexp = "1e-154")
    for (ch in c(100000L, 7L)) {
      expect_error(group_moments(path, "g", chunk_rows = ch), class = "fairproj_input_error", regexp = "1e-154")
    }
    # constant within each chunk of 20 records, different between chunks: only the chunks'
    # ranges together show that the column varies
    df$a <- rep(c(2, 3, 5, 7, 11), each = 20) * s
    utils::write.csv(df, path, row.names = FALSE)
    expect_error(group_moments(as.matrix(df[1:2]), df$g), class = "fairproj_input_error", regexp = "1e-154")
    expect_error(group_moments(path, "g", chunk_rows = 20L), class = "fairproj_input_error", regexp = "1e-154")
    # constant in each of two files, different between them: found when they are merged
    path2 <- tempfile(fileext = ".csv")
    utils::write.csv(transform(df, a = 2 * s), path, row.names = FALSE)
    utils::write.csv(transform(df, a = 3 * s), path2, row.names = FALSE)
    expect_error(group_moments(list(path, path2), "g"), class = "fairproj_input_error", regexp = "1e-154")
    expect_error(group_moments(c(path, path2), "g"), class = "fairproj_input_error", regexp = "1e-154")
    unlink(path2)
    m2 <- group_moments(cbind(a = 2 * s, b = 1:4), rep(c("u", "v"), 2))
    m3 <- group_moments(cbind(a = 3 * s, b = 1:4), rep(c("u", "v"), 2))
    expect_error(m2 + m3, class = "fairproj_input_error", regexp = "1e-154")
    expect_identical((m2 + m2)$mean["a", ], c(u = 2 * s, v = 2 * s))
    # constant within each group: the in-memory moments
    df$a <- ifelse(df$g == "u", 3, 5) * s
    utils::write.csv(df, path, row.names = FALSE)
    ref <- group_moments(as.matrix(df[1:2]), df$g)
    m <- group_moments(path, "g", chunk_rows = 30L)
    expect_equal(m$mean["a", ], ref$mean["a", ], tolerance = 1e-14)  # readr's parser: an ulp
    expect_identical(vapply(m$scatter, function(z) z["a", "a"], 0), c(u = 0, v = 0))
  }
})

test_that("files: a quote that never closes is refused where it opens, also with bad_rows = \"skip\"", {
  skip_if_not_installed("readr")
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  set.seed(6)
  n <- 3000
  df <- data.frame(a = round(rnorm(n), 3), b = round(rnorm(n), 3), g = rep(c("u", "v"), length.out = n))
  utils::write.csv(df, path, row.names = FALSE, quote = FALSE)
  lines <- readLines(path)
  lines[1501] <- paste0("\"", lines[1501])  # data row 1500
  writeLines(lines, path)
  for (bad in c("error", "skip")) {
    for (ch in c(100000L, 400L)) {
      err <- expect_error(group_moments(path, "g", bad_rows = bad, chunk_rows = ch), class = "fairproj_source_error")
      expect_match(conditionMessage(err), "data row 1500: a quote")
    }
  }
  # a second stray quote further down
  lines[2001] <- paste0("\"", lines[2001])
  writeLines(lines, path)
  expect_error(group_moments(path, "g", bad_rows = "skip"), class = "fairproj_source_error", regexp = "data row 1500")
})

test_that("files: latin1 labels read without `locale` are an error naming it, small or large; with it, decoded", {
  skip_if_not_installed("readr")
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  set.seed(7)
  lab <- c("caf\xe9", "th\xe9", "a", "b")  # latin1 bytes
  for (n in c(6L, 20000L)) {
    g <- rep(lab, length.out = n)
    a <- round(rnorm(n), 3)
    con <- file(path, "wb")
    writeLines(c("a,g", paste(a, g, sep = ",")), con, useBytes = TRUE)
    close(con)
    for (bad in c("error", "skip")) {
      expect_error(group_moments(path, "g", bad_rows = bad), class = "fairproj_source_error",
                   regexp = "locale = readr::locale(encoding = \"latin1\")", fixed = TRUE)
    }
    m <- group_moments(path, "g", locale = readr::locale(encoding = "latin1"))
    utf <- iconv(g, "latin1", "UTF-8")
    expect_setequal(m$levels, unique(utf))
    ref <- group_moments(cbind(a = a), utf)
    expect_equal(m$n[ref$levels], ref$n)
    expect_equal(m$mean[, ref$levels], ref$mean[1, ], tolerance = 1e-12)
  }
})

test_that("files: a number is one group label however it is spelled, as in memory", {
  skip_if_not_installed("readr")
  set.seed(1)
  df <- data.frame(a = rnorm(20), b = rnorm(20), g = rep(c("1", "2"), 10))
  df$g[3] <- "1.0"
  df$g[6] <- "2.00"
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  utils::write.csv(df, path, row.names = FALSE, quote = FALSE)
  rd <- utils::read.csv(path)
  ref <- group_moments(as.matrix(rd[c("a", "b")]), rd$g)
  for (ch in c(2L, 1000L)) {
    m <- group_moments(path, group = "g", chunk_rows = ch)
    expect_identical(m$levels, c("1", "2"))
    expect_equal(m$n, ref$n)
    expect_equal(m$scatter, ref$scatter, tolerance = 1e-12)
  }
})

test_that("files: options the reader does not take, or that group_moments() sets, name `...`", {
  skip_if_not_installed("readr")
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  utils::write.csv(data.frame(a = 1:6, b = c(2, 3, 5, 7, 11, 13), g = rep(c("x", "y"), 3)), path, row.names = FALSE)
  for (o in list(list(col_types = "ddc"), list(n_max = 5), list(col_names = FALSE), list(chunk_size = 2))) {
    expect_error(do.call(group_moments, c(list(path, group = "g"), o)),
                 sprintf("^`...` has argument\\(s\\) the file reader does not take here: %s", names(o)),
                 class = "fairproj_input_error")
  }
  expect_error(group_moments(path, group = "g", ";"), "^`...` passes unnamed argument", class = "fairproj_input_error")
  expect_error(group_moments(path, group = "g", delim = ",,"), "^`delim` must be one character", class = "fairproj_input_error")
  # the options it takes still reach the reader
  expect_equal(group_moments(path, group = "g", na = c("", "NA"), trim_ws = TRUE)$n, c(x = 3, y = 3))
  # every option ?group_moments_files documents is taken (the list follows readr's formals)
  documented <- c("quote", "escape_backslash", "escape_double", "locale", "na", "quoted_na", "comment", "trim_ws",
                  "skip", "skip_empty_rows")
  opts <- stats::setNames(vector("list", length(documented)), documented)
  expect_identical(fairproj:::fp_check_reader_options(opts), opts)
})

test_that("files: a file with only the group column says it has no features", {
  skip_if_not_installed("readr")
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  writeLines(c("g", "a", "b", "a"), path)
  expect_error(group_moments(path, group = "g"), "^`x` has no column besides the group column 'g'", class = "fairproj_input_error")
})

test_that("files whose headers have the same columns in another order are matched by name; other columns name the file", {
  skip_if_not_installed("readr")
  set.seed(3)
  d1 <- data.frame(a = rnorm(30), b = rnorm(30) * 5, g = rep(c("p", "q", "r"), 10))
  d2 <- data.frame(b = rnorm(20) * 5, a = rnorm(20), g = rep(c("q", "p"), 10))
  f1 <- tempfile(fileext = ".csv")
  f2 <- tempfile(fileext = ".csv")
  on.exit(unlink(c(f1, f2)))
  utils::write.csv(d1, f1, row.names = FALSE)
  utils::write.csv(d2, f2, row.names = FALSE)
  stacked <- rbind(utils::read.csv(f1), utils::read.csv(f2))
  ref <- group_moments(stacked, "g")
  expect_lte(moments_err(group_moments(c(f1, f2), "g"), ref), 1e-12)
  expect_lte(moments_err(group_moments(list(f1, f2), "g"), ref), 1e-12)
  # with blocks, the blocks' columns follow
  mb <- group_moments(c(f1, f2), "g", blocks = 10)
  expect_equal(mb$blocks[[1]]$mean[, 1], mb$mean[, 1] + fairproj:::fp_moments_blocks(mb)[[1]]$delta[, 1])
  expect_lte(moments_err(group_moments(list(d1, d2), "g"), ref), 1e-12)
  d2$c <- 1
  utils::write.csv(d2, f2, row.names = FALSE)
  expect_error(group_moments(c(f1, f2), "g"), class = "fairproj_source_error",
               regexp = sprintf("^`x` file '%s' has other feature columns.*'c'", basename(f2)))
})

test_that("files: a column empty in its first 1000 records is read as numbers, not as readr's logical guess", {
  skip_if_not_installed("readr")
  set.seed(1)
  n <- 1500
  d <- data.frame(a = rnorm(n), b = c(rep(NA, 1100), rnorm(400)), g = rep(c("p", "q"), n / 2))
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  utils::write.csv(d, path, row.names = FALSE, na = "")
  expect_warning(m <- group_moments(path, "g", bad_rows = "skip"), class = "fairproj_skipped_rows_warning")
  ok <- stats::na.omit(utils::read.csv(path))
  expect_lte(moments_err(m, group_moments(ok, "g")), 1e-12)
  expect_error(group_moments(path, "g"), class = "fairproj_source_error", regexp = "data row 1, column 'b': missing value")
})

test_that("files: an empty column name in the header is a classed error naming its field", {
  skip_if_not_installed("readr")
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  writeLines(c("a,,g", "1,3,x", "2,5,y", "4,4,x"), path)
  expect_no_warning(expect_error(group_moments(path, "g"), class = "fairproj_source_error",
                                 regexp = "^`x` file '.*' has an empty column name in its header \\(field 2 of 3\\)"))
})

test_that("files: the locale's decimal mark is read; a grouping mark is not, as documented", {
  skip_if_not_installed("readr")
  f <- tempfile(fileext = ".csv")
  on.exit(unlink(f))
  writeLines(c("a;b;g", "1,5;2;x", "2,25;3;y", "3;1;x", "4;5;y"), f)
  m <- group_moments(f, "g", delim = ";", locale = readr::locale(decimal_mark = ","))
  expect_equal(unname(m$mean["a", ]), c(2.25, 3.125))
  writeLines(c("a;b;g", "1.234,5;2;x", "2,25;3;y", "3;1;x", "4;5;y"), f)
  expect_error(group_moments(f, "g", delim = ";", locale = readr::locale(decimal_mark = ",")),
               class = "fairproj_source_error", regexp = "data row 1, column 'a'")
})
