# Scaling benchmark: time and peak memory of group_moments() and fair_pca() (standard, mean,
# minmax) against crossprod() (the floor of any method that reads the data once), prcomp() and
# irlba::prcomp_irlba(); SQLite moments against reading the table into R; a chunked CSV against
# reading it whole.
#
# Prints one table; `time_ratio` is the time over crossprod() of the same matrix,
# `mem_ratio` the peak memory R allocated during the call (gc() high-water mark, beyond what was
# allocated before) over the size of the data. Memory allocated inside C++ (d x d matrices,
# row buffers) is not counted by gc() but is O(d^2 + 256 KB) per group.
#
# Sizes are modest by default (a shared 2-core machine); FAIRPROJ_BENCH_FULL=1 runs the sizes
# of the issue (n up to 5e6 at d = 50, d up to 800, a 2e6-row CSV), which needs ~8 GB.
suppressPackageStartupMessages(library(fairproj))
full <- identical(Sys.getenv("FAIRPROJ_BENCH_FULL"), "1")
has <- function(p) requireNamespace(p, quietly = TRUE)

measure <- function(expr, reps = 3) {
  e <- substitute(expr)
  env <- parent.frame()
  best <- Inf
  mem <- NA_real_
  for (r in seq_len(reps)) {
    invisible(gc(reset = TRUE))
    before <- sum(gc()[, 2])
    t0 <- proc.time()[["elapsed"]]
    res <- eval(e, env)
    t <- proc.time()[["elapsed"]] - t0
    peak <- sum(gc()[, 6])
    rm(res)
    best <- min(best, t)
    mem <- (peak - before) * 2^20
  }
  c(time = best, mem = mem)
}

rows <- list()
add <- function(task, n, d, m, floor_time, data_bytes) {
  rows[[length(rows) + 1L]] <<- data.frame(task = task, n = n, d = d, time_s = m[["time"]],
                                           time_ratio = m[["time"]] / floor_time,
                                           mem_MB = m[["mem"]] / 2^20, mem_ratio = m[["mem"]] / data_bytes)
}

cat(sprintf("backend: %s (%s; BLAS %s)\n", fairproj_backend()$backend, fairproj_backend()$source,
            fairproj_backend()$blas$library))

in_memory <- function(n, d, k = 5, with_prcomp = TRUE) {
  set.seed(1)
  x <- matrix(rnorm(n * d), n, d)
  g <- rep(c("a", "b"), length.out = n)
  bytes <- as.numeric(object.size(x))
  reps <- if (n * d > 2e7) 1 else 3
  cp <- measure(crossprod(x), reps)
  add("crossprod (floor)", n, d, cp, cp[["time"]], bytes)
  add("group_moments", n, d, measure(group_moments(x, g), reps), cp[["time"]], bytes)
  for (meth in c("standard", "mean", "minmax")) {
    add(sprintf("fair_pca %s", meth), n, d, measure(fair_pca(x, g, k = k, method = meth), reps), cp[["time"]], bytes)
  }
  if (with_prcomp) add("prcomp", n, d, measure(prcomp(x, rank. = k), reps), cp[["time"]], bytes)
  if (has("irlba")) add("irlba::prcomp_irlba", n, d, measure(irlba::prcomp_irlba(x, n = k), reps), cp[["time"]], bytes)
}

# SQLite: moments inside the engine vs reading the table into R and computing them there
if (has("RSQLite") && has("dbplyr")) {
  n <- if (full) 1e6 else 1e5
  d <- 20
  set.seed(2)
  df <- as.data.frame(matrix(rnorm(n * d), n, d))
  df$grp <- rep(c("a", "b"), length.out = n)
  db <- tempfile(fileext = ".sqlite")
  con <- DBI::dbConnect(RSQLite::SQLite(), db)
  DBI::dbWriteTable(con, "t", df)
  bytes <- as.numeric(object.size(df))
  rm(df)
  tab <- dplyr::tbl(con, "t")
  invisible(group_moments(utils::head(tab, 100), "grp"))  # load dplyr/dbplyr code first
  engine <- measure(group_moments(tab, "grp"), 1)
  read <- measure({
    r <- DBI::dbReadTable(con, "t")
    group_moments(r, "grp")
  }, 1)
  add("read table into R + group_moments", n, d, read, read[["time"]], bytes)
  add("group_moments in SQLite", n, d, engine, read[["time"]], bytes)
  DBI::dbDisconnect(con)
  unlink(db)
}

# CSV: chunked reading vs reading the whole file
if (has("data.table")) {
  n <- if (full) 2e6 else 5e5
  d <- 10
  set.seed(3)
  df <- data.table::as.data.table(matrix(rnorm(n * d), n, d))
  data.table::set(df, j = "grp", value = rep(c("a", "b"), length.out = n))
  path <- tempfile(fileext = ".csv")
  data.table::fwrite(df, path)
  path4 <- tempfile(fileext = ".csv")
  data.table::fwrite(df[seq_len(n / 4)], path4)
  bytes <- as.numeric(object.size(df))
  rm(df)
  # chunked first: R's heap high-water mark also counts garbage not yet collected, and the
  # collector's thresholds grow after large allocations. The chunked peak should not grow
  # with the file (compare the quarter-size file).
  quarter <- measure(group_moments(path4, "grp", chunk_rows = 1e5), 1)
  chunked <- measure(group_moments(path, "grp", chunk_rows = 1e5), 1)
  whole <- measure({
    r <- data.table::fread(path, showProgress = FALSE)
    group_moments(as.data.frame(r), "grp")
  }, 1)
  add("CSV read whole + group_moments", n, d, whole, whole[["time"]], bytes)
  add("CSV in chunks of 1e5 rows", n, d, chunked, whole[["time"]], bytes)
  add("CSV in chunks of 1e5 rows, 1/4 file", n / 4, d, quarter, whole[["time"]], bytes)
  unlink(c(path, path4))
}

for (n in if (full) c(1e4, 1e5, 1e6, 5e6) else c(1e4, 1e5, 1e6)) in_memory(n, 50)
for (d in if (full) c(200, 800) else c(200, 400)) in_memory(if (full) 1e5 else 2e4, d)

tab <- do.call(rbind, rows)
cat("\n(time_ratio: over crossprod for in-memory rows, over reading whole for SQLite/CSV rows)\n")
print(tab, digits = 3, row.names = FALSE)
