test_that("CSV files read in chunks give the moments of the whole file", {
  skip_if_not_installed("data.table")
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

test_that("chunked files: errors name the argument", {
  skip_if_not_installed("data.table")
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
