# Memory of the moments route at large d (#48): how many d x d matrices a fit holds beyond its
# moments, for standard, mean and min-max, fitted from the rows and from a group_moments() object.
#
#   Rscript bench/wide-memory.R [lib]
#
# Synthetic data: rank 50 plus noise, m groups (2 by default; the first 30% of the rows in group
# a, the rest in turn in the others), k = 10, n = 2000. Each case runs in a fresh
# Rscript (this file with the case as arguments), so that the process's peak resident set
# (VmHWM of /proc/self/status, reset through /proc/self/clear_refs once the data are in memory)
# is the fit's own. Two measures, both in units of one d x d double matrix (d^2 * 8 bytes):
#   R heap: gc()'s "max used" vector cells during the fit minus those in use before it;
#   RSS:    peak resident set during the fit minus the resident set before it (R heap, C++ copies
#           and the BLAS's work space together).
# From the rows the fit builds its moments too: their m d x d matrices are subtracted, so both
# columns read "beyond the moments". The floor is the moments plus the one d x d matrix whose
# top k eigenvectors a fit needs (C); the ratio printed is (moments + RSS beyond) / floor.
# Options (environment variables): FAIRPROJ_BENCH_D  comma-separated d (default 1000,2000,3000),
# FAIRPROJ_BENCH_METHODS (default standard,mean,minmax,minmax_mw; minmax_mw is min-max with
# solver = "mw"), FAIRPROJ_BENCH_N (default 2000),
# FAIRPROJ_BENCH_GROUPS comma-separated m (default 2), FAIRPROJ_BENCH_SOURCES (default moments,rows),
# FAIRPROJ_BENCH_SCALE (TRUE: the fits with scale. = TRUE; default FALSE).
# Linux only (reads /proc).
# Last measured (2 cores shared, reference BLAS, n = 2000, d = 3000, from group_moments();
# d x d matrices beyond the moments, R heap / RSS, and RSS ratio to the moments + C floor):
#   before #48:  standard 9.0 / 9.0 (3.67x), mean 12.2 / 13.1 (5.02x), minmax 13.0 / 13.0 (5.00x)
#   after:       standard 3.1 / 3.0 (1.68x), mean  4.1 /  5.0 (2.34x), minmax  3.2 /  4.1 (2.02x)
# (the same from the rows; d = 1000 and 2000 alike). What was left: the prepared problem's m + 1
# matrices (group covariances and C), plus mean matching's complement (a work copy and the
# (d - r)^2 result) and min-max's weighted sum in its oracle.
# #48, second part (standard and mean keep only C: each group's covariance is built on demand
# into one work matrix; same data, d = 3000, from group_moments(), FAIRPROJ_BENCH_GROUPS=2,5):
#             m = 2: standard R heap / RSS / peak MB     mean
#   before:          3.11 / 3.04 / 416                  4.11 / 5.01 / 551
#   after:           2.10 / 2.04 / 347                  3.15 / 3.07 / 418
#             m = 5:
#   before:          6.20 / 6.12 / 834                  7.30 / 8.03 / 964
#   after:           2.18 / 2.10 / 557                  3.27 / 3.19 / 632
# (standard: C and one group's covariance; mean: C, the complement's work copy and its result;
# the rest, about 0.1, is the fit's d x k and n-free small vectors).
# #48, min-max (C, the one work matrix into which R and the solver build each group's matrix,
# and the solver's weighted sum; same data, d = 3000, from group_moments(),
# FAIRPROJ_BENCH_METHODS=minmax,minmax_mw FAIRPROJ_BENCH_GROUPS=2,5; minmax_mw at m = 2 has
# rank 11, whose d x d map is kept):
#                    m = 2: R heap / RSS / peak MB     m = 5:
#   exact  before:          3.21 / 4.07 / 486                 6.48 / 7.45 / 924
#          after:           2.20 / 3.07 / 417                 2.44 / 3.44 / 649
#   mw     before:          9.03 / 9.04 / 827 (288 s)         6.61 / 7.09 / 900
#          after:           3.24 / 3.16 / 424 (15-30 s)       2.57 / 3.08 / 624
# #48, third part (C is built on demand into the same work matrix, mean matching's complement
# computed in it, min-max's weighted sum built there; same data, d = 3000, from
# group_moments(), FAIRPROJ_BENCH_GROUPS=2,5; R heap / RSS / peak MB, 2 cores heavily shared):
#                    m = 2: before                 after                 m = 5: before    after
#   standard                2.10 / 2.04 / 347      1.09 / 1.04 / 278     2.18 / 2.10      1.15 / 1.08
#   mean                    3.15 / 3.07 / 418      2.13 / 2.07 / 349     3.27 / 3.19      2.24 / 2.16
#   minmax                  2.19 / 3.07 / 417      1.18 / 1.11 / 283     2.42 / 3.44      1.40 / 1.46
#   minmax_mw               3.25 / 3.16 / 424      2.23 / 2.16 / 355     2.57 / 3.08      1.55 / 1.46
# (mean: the work matrix and the complement; "mw" at m = 2: the work matrix and its rank-11
# map.) FAIRPROJ_BENCH_SCALE=TRUE, m = 2, after (before): standard 1.10 / 1.04 (2.10 / 2.04),
# mean 2.14 / 2.07 (3.14 / 3.07), minmax 1.19 / 1.11 (2.19 / 3.06), minmax_mw 2.24 / 2.16
# (3.24 / 3.16).
# #48, the issue's largest case from moments (FAIRPROJ_BENCH_D=10000 FAIRPROJ_BENCH_METHODS=minmax
# FAIRPROJ_BENCH_SOURCES=moments, m = 2, n = 2000, 2026-12-03, 2 cores shared): min-max 1.05 / 1.04
# d x d beyond the moments, peak 2392 MB, 197.6 s: below the issue's 4 GB from moments too (the
# row route of bench/wide.R: 623 MB, 8.7 s).
args <- commandArgs(TRUE)
n_rows <- as.integer(Sys.getenv("FAIRPROJ_BENCH_N", "2000"))
status_kb <- function(field) {
  s <- readLines("/proc/self/status")
  as.numeric(sub("^[^0-9]*([0-9]+).*$", "\\1", grep(paste0("^", field, ":"), s, value = TRUE)))
}

if (length(args) >= 3 && args[1] == "--case") {
  # one case: --case method source d m [lib]
  method <- args[2]; src <- args[3]; d <- as.integer(args[4]); ng <- as.integer(args[5])
  suppressPackageStartupMessages(if (length(args) >= 6) library(fairproj, lib.loc = args[6]) else library(fairproj))
  set.seed(1)
  r <- 50
  g <- c(rep("a", n_rows * 0.3), rep(letters[2:ng], length.out = n_rows - n_rows * 0.3))
  x <- matrix(rnorm(n_rows * r), n_rows, r) %*% matrix(rnorm(r * d), r, d) + matrix(rnorm(n_rows * d, sd = 0.5), n_rows, d)
  x[g == "b", 1:5] <- x[g == "b", 1:5] * 2
  colnames(x) <- paste0("x", seq_len(d))
  m <- if (src == "moments") group_moments(x, g) else NULL
  if (src == "moments") rm(x)
  invisible(gc(reset = TRUE)); invisible(gc(reset = TRUE))
  v0 <- gc()["Vcells", "used"]
  rss0 <- status_kb("VmRSS")
  writeLines("5", "/proc/self/clear_refs")           # VmHWM := VmRSS
  t0 <- proc.time()[["elapsed"]]
  # "minmax_mw": min-max with solver = "mw"
  extra <- if (method == "minmax_mw") list(method = "minmax", solver = "mw") else list(method = method)
  extra$scale. <- as.logical(Sys.getenv("FAIRPROJ_BENCH_SCALE", "FALSE"))
  fit <- if (src == "moments") do.call(fair_pca, c(list(m, k = 10), extra)) else do.call(fair_pca, c(list(x, g, k = 10), extra))
  el <- proc.time()[["elapsed"]] - t0
  vmax <- gc()["Vcells", "max used"]
  hwm <- status_kb("VmHWM")
  unit <- d^2 * 8
  mom <- if (src == "rows") ng else 0                 # the moments a fit from the rows builds itself
  cat(sprintf("%s %s %d %.2f %.2f %.1f %.0f %d\n", method, src, d, (vmax - v0) * 8 / unit - mom,
              (hwm - rss0) * 1024 / unit - mom, el, hwm / 1024, ncol(fit$rotation)))
  quit(save = "no")
}

lib <- if (length(args)) args[1] else character()
ds <- as.integer(strsplit(Sys.getenv("FAIRPROJ_BENCH_D", "1000,2000,3000"), ",")[[1]])
methods <- strsplit(Sys.getenv("FAIRPROJ_BENCH_METHODS", "standard,mean,minmax,minmax_mw"), ",")[[1]]
groups <- as.integer(strsplit(Sys.getenv("FAIRPROJ_BENCH_GROUPS", "2"), ",")[[1]])
sources <- strsplit(Sys.getenv("FAIRPROJ_BENCH_SOURCES", "moments,rows"), ",")[[1]]
self <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
rscript <- file.path(R.home("bin"), "Rscript")
cat(sprintf("n = %d, k = 10, scale. = %s; units: d x d double matrices beyond the moments (m of them)\n", n_rows,
            as.logical(Sys.getenv("FAIRPROJ_BENCH_SCALE", "FALSE"))))
cat(sprintf("%-9s %-8s %2s %6s %8s %8s %8s %8s %9s %4s\n", "method", "source", "m", "d", "R heap", "RSS", "ratio", "seconds", "peak MB", "rank"))
for (d in ds) for (ng in groups) for (method in methods) for (src in sources) {
  # a fixed mmap threshold: glibc's moving one keeps freed blocks of the data's size resident,
  # which later allocations reuse unseen by the peak
  out <- system2(rscript, c(shQuote(self), "--case", method, src, d, ng, lib), stdout = TRUE,
                 env = "MALLOC_MMAP_THRESHOLD_=131072")
  f <- strsplit(tail(out, 1), " ")[[1]]
  rss <- as.numeric(f[5])
  cat(sprintf("%-9s %-8s %2d %6d %8s %8s %8.2f %8s %9s %4s\n", method, src, ng, d, f[4], f[5], (ng + rss) / (ng + 1), f[6], f[7], f[8]))
}
