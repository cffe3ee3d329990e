# Scaling benchmark: time and peak memory of group_moments() and fair_pca() (standard, mean,
# minmax) against crossprod() (the floor of any method that reads the data once), prcomp() and
# irlba::prcomp_irlba(); the data doors (#23): the CSV file route against reading the file whole
# (4x the rows: the linearity), 1e7 x 50 through the file and the stream route, both database
# routes (SQLite, and PostgreSQL on a throw-away local server when its binaries are there)
# against reading the table into R at d = 50, 200, 800 with their numbers of full scans, and the
# cost per row per column^2.
#
# Prints one table; `time_ratio` is the time over crossprod() of the same matrix,
# `mem_ratio` the peak memory R allocated during the call (gc() high-water mark, beyond what was
# allocated before) over the size of the data. Memory allocated inside C++ (d x d matrices,
# row buffers) is not counted by gc() but is O(d^2 + 256 KB) per group.
#
# Sizes are modest by default (a shared 2-core machine); FAIRPROJ_BENCH_FULL=1 runs the sizes
# of the issues (n up to 5e6 at d = 50, d up to 800, CSVs of 1e6 and 4e6 rows, 1e7 x 50 through
# the file and stream routes: ~8 GB of memory and ~15 GB of temporary disk).
# Run: FAIRPROJ_BENCH_FULL=1 R_LIBS=.lib Rscript bench/scale.R
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

# ---- data doors (#23): files, database routes, scale ------------------------------------------
# CPU seconds of this R process, elapsed seconds, R's heap peak (gc) and the process's resident
# peak (VmHWM, reset before the call through /proc/self/clear_refs where Linux allows it).
measure_cpu <- function(expr) {
  e <- substitute(expr)
  env <- parent.frame()
  invisible(gc(reset = TRUE))
  heap0 <- sum(gc()[, 2])
  rss <- function(key) {
    st <- tryCatch(readLines("/proc/self/status"), error = function(e) character(0))
    v <- grep(paste0("^", key, ":"), st, value = TRUE)
    if (length(v)) as.numeric(gsub("[^0-9]", "", v)) * 1024 else NA_real_
  }
  try(writeLines("5", "/proc/self/clear_refs"), silent = TRUE)
  rss0 <- rss("VmRSS")
  t0 <- proc.time()
  res <- eval(e, env)
  t1 <- proc.time() - t0
  rm(res)
  c(elapsed = t1[["elapsed"]], cpu = t1[["user.self"]] + t1[["sys.self"]],
    heap_MB = (sum(gc()[, 6]) - heap0), rss_MB = (rss("VmHWM") - rss0) / 2^20)
}
doors <- list()
door <- function(task, n, d, m, scans = NA, base = NULL) {
  on.exit(print(doors[[length(doors)]], digits = 3, row.names = FALSE))  # partial results as they come
  doors[[length(doors) + 1L]] <<- data.frame(task = task, n = n, d = d, elapsed_s = m[["elapsed"]], cpu_s = m[["cpu"]],
                                             cpu_ratio = if (is.null(base)) NA else m[["cpu"]] / base[["cpu"]],
                                             heap_MB = m[["heap_MB"]], rss_MB = m[["rss_MB"]], scans = scans)
}
write_csv_rows <- function(path, n, d, piece = 1e6, seed = 1) {
  set.seed(seed)
  done <- 0
  while (done < n) {
    k <- min(piece, n - done)
    df <- data.table::as.data.table(matrix(signif(rnorm(k * d), 7), k, d))
    data.table::set(df, j = "grp", value = c("a", "b", "c")[1L + (seq_len(k) + done) %% 3L])
    data.table::fwrite(df, path, append = done > 0)
    done <- done + k
  }
}
write_db_rows <- function(con, name, n, d, piece = 5e5, seed = 1) {
  set.seed(seed)
  done <- 0
  while (done < n) {
    k <- min(piece, n - done)
    df <- as.data.frame(matrix(rnorm(k * d), k, d))
    df$grp <- c("a", "b", "c")[1L + (seq_len(k) + done) %% 3L]
    DBI::dbWriteTable(con, name, df, append = done > 0, overwrite = done == 0, row.names = FALSE)
    done <- done + k
  }
}

if (has("readr") && has("data.table")) {
  # linearity of the file route: 4x the rows, at most 4.5x the time
  sizes <- if (full) c(1e6, 4e6) else c(2.5e5, 1e6)
  d <- 10
  for (n in sizes) {
    path <- tempfile(fileext = ".csv")
    write_csv_rows(path, n, d)
    file_m <- measure_cpu(group_moments(path, "grp"))
    whole <- measure_cpu(group_moments(as.data.frame(data.table::fread(path, showProgress = FALSE)), "grp"))
    door("CSV whole read (fread) + group_moments", n, d, whole, 1, whole)
    door("CSV file route (readr, chunks of 1e5)", n, d, file_m, 1, whole)
    unlink(path)
  }
  lin <- doors[[4]]$cpu_s / doors[[2]]$cpu_s
  cat(sprintf("file route: 4x the rows took %.2fx the CPU\n", lin))
}

if (has("RSQLite") && has("dbplyr") && has("readr") && has("data.table")) {
  # 1e7 x 50 through the file route and the stream route (full); 2e5 x 50 otherwise
  n <- if (full) 1e7 else 2e5
  d <- 50
  path <- tempfile(fileext = ".csv")
  write_csv_rows(path, n, d)
  door("CSV file route", n, d, measure_cpu(group_moments(path, "grp")), 1)
  unlink(path)
  db <- tempfile(fileext = ".sqlite")
  con <- DBI::dbConnect(RSQLite::SQLite(), db)
  write_db_rows(con, "big", n, d)
  door("SQLite stream route", n, d, measure_cpu(group_moments(dplyr::tbl(con, "big"), "grp", route = "stream")), 2)
  DBI::dbDisconnect(con)
  unlink(db)
}

# both database routes against reading the table into R, at d = 50, 200, 800
db_routes <- function(con, engine, n_of_d) {
  for (d in c(50, 200, 800)) {
    n <- n_of_d[[as.character(d)]]
    name <- sprintf("fp_bench_%d", d)
    write_db_rows(con, name, n, d)
    tab <- suppressWarnings(dplyr::tbl(con, name))
    read <- measure_cpu(DBI::dbReadTable(con, name))
    read_m <- measure_cpu(group_moments(DBI::dbReadTable(con, name), "grp"))
    door(sprintf("%s read table into R", engine), n, d, read, 1, read)
    door(sprintf("%s read into R + group_moments", engine), n, d, read_m, 1, read)
    door(sprintf("%s stream route", engine), n, d, measure_cpu(group_moments(tab, "grp", route = "stream")), 2, read)
    # the full scans of the push-down are its aggregation queries, counted as they run
    qc <- new.env()
    qc$n <- 0
    invisible(suppressMessages(trace("fp_db_query", where = asNamespace("fairproj"), print = FALSE,
                           tracer = bquote(if (grepl("GROUP BY", sql, fixed = TRUE))
                             assign("n", get("n", envir = .(qc)) + 1, envir = .(qc))))))
    push <- measure_cpu(suppressMessages(group_moments(tab, "grp", route = "pushdown")))
    suppressMessages(untrace("fp_db_query", where = asNamespace("fairproj")))
    door(sprintf("%s push-down route", engine), n, d, push, qc$n, read)
    DBI::dbRemoveTable(con, name)
  }
}
n_of_d <- if (full) c("50" = 1e6, "200" = 1e5, "800" = 1e4) else c("50" = 5e4, "200" = 5000, "800" = 1000)
if (has("RSQLite") && has("dbplyr")) {
  db <- tempfile(fileext = ".sqlite")
  con <- DBI::dbConnect(RSQLite::SQLite(), db)
  db_routes(con, "SQLite", n_of_d)
  DBI::dbDisconnect(con)
  unlink(db)
}
pg_helper <- file.path("tests", "testthat", "helper-postgres.R")
if (has("RPostgreSQL") && has("dbplyr") && file.exists(pg_helper) && !identical(Sys.getenv("FAIRPROJ_BENCH_PG"), "0")) {
  sys.source(pg_helper, envir = environment())
  bin <- fp_test_pg_bindir()
  srv <- if (!is.null(bin)) fp_test_pg_start(bin)
  if (!is.null(srv)) {
    con <- DBI::dbConnect(RPostgreSQL::PostgreSQL(), host = "127.0.0.1", port = srv$port, dbname = "postgres", user = srv$user)
    db_routes(con, "PostgreSQL", n_of_d)
    DBI::dbDisconnect(con)
    fp_test_pg_stop(srv)
  }
}

if (length(doors)) {
  dt <- do.call(rbind, doors)
  cat("\nData doors (cpu_ratio: CPU over the first row of the same size: the whole read, or reading the table into R;\n",
      "scans: full scans of the table; heap_MB: R heap peak; rss_MB: resident peak of the process)\n", sep = "")
  print(dt, digits = 3, row.names = FALSE)
  big <- dt[dt$d == 50 & dt$task %in% c("CSV file route", "SQLite stream route"), ]
  if (nrow(big)) {
    cat("\nCost per row per column^2 (CPU seconds of R; elapsed time on a shared machine varies more)",
        "and what 1e8 / 1e9 rows of 50 columns would take:\n")
    for (i in seq_len(nrow(big))) {
      c2 <- big$cpu_s[i] / (big$n[i] * big$d[i]^2)
      cat(sprintf("  %-22s %.3g s/(row col^2): 1e8 rows %.0f s, 1e9 rows %.0f s; on 100 Slurm workers 1e9 rows %.0f s\n",
                  big$task[i], c2, c2 * 1e8 * 2500, c2 * 1e9 * 2500, c2 * 1e9 * 2500 / 100))
    }
  }
}

if (!identical(Sys.getenv("FAIRPROJ_BENCH_ONLY"), "doors")) {  # FAIRPROJ_BENCH_ONLY=doors: the doors alone
  for (n in if (full) c(1e4, 1e5, 1e6, 5e6) else c(1e4, 1e5, 1e6)) in_memory(n, 50)
  for (d in if (full) c(200, 800) else c(200, 400)) in_memory(if (full) 1e5 else 2e4, d)
}
if (!length(rows)) quit(save = "no")

tab <- do.call(rbind, rows)
cat("\n(time_ratio: over crossprod of the same matrix)\n")
print(tab, digits = 3, row.names = FALSE)
