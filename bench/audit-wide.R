# fair_audit() on wide rows (#48): the audit of bench/wide.R's data (synthetic rank-50 rows plus
# noise, two alternating groups) at its defaults (k = 1, ..., 8; standard PCA, min-max and mean
# matching; scale. = TRUE; level 0.9) by the row route and, where it fits, by the moments route.
# Each audit runs in a fresh R process, which reports its CPU (user + system), its peak resident
# memory (VmHWM of /proc/self/status, Linux), the data's peak before the audit, the route taken
# and whether it has intervals; one thread.
# Run: R_LIBS=.lib OPENBLAS_NUM_THREADS=1 Rscript bench/audit-wide.R
#   FAIRPROJ_BENCH_AUDIT_WIDE  comma-separated n:d cases (default "2000:3000,2000:10000")
#   FAIRPROJ_BENCH_MOMENTS_MAXD  largest d at which the moments route is run too (default 3000)
#   FAIRPROJ_BENCH_REPLICATES  the intervals' bootstrap replicates (default 100, the package's)
#
# Last measured (#48, 2026-12-02, 2-core machine shared with other jobs at a load average of
# about 4-5, reference BLAS, one round each; 24 fits, no outcome; the row route gives no
# intervals, and neither does the moments route at these d, whose block moments exceed their
# budget):
#   n = 2000, d = 3000: row route (auto) 45.2 CPU s, peak 261 MB (data 191 MB). The moments
#     route: 151 s and 612 MB beyond the data (?fair_audit, measured before).
#   n = 2000, d = 10000: row route (auto) 152.7 CPU s, peak 637 MB (data 509 MB); the moments
#     route would hold about ten 800 MB d x d matrices.
# With intervals on the row route (2026-12-03, same machine at a load average of about 2,
# FAIRPROJ_BENCH_REPLICATES=20, FAIRPROJ_BENCH_AUDIT_WIDE=2000:3000): n = 2000, d = 3000, row
# route (auto) 352.8 CPU s, peak 298 MB (data 192 MB): about 15 s per replicate beyond the 45 s
# of the fits, so some 1,600 s at the default 100 replicates. n = 2000, d = 10,000, one
# replicate timed alone (not through this script): the groups' diagnostics 10 s, the floor's
# base 5 s, a replicate's three fits at k = 8 31 s and its noise floor 9 s, peak 637 MB (data
# 531 MB): some 4,000 s at 100 replicates, min-max's fits most of it.

args <- commandArgs(trailingOnly = TRUE)

# peak_mb(): this process's peak resident memory (bench/helper-peak.R, next to this script)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1L])), "helper-peak.R"))

wide_data <- function(n, d) {
  set.seed(48)
  x <- matrix(rnorm(n * 50), n) %*% matrix(rnorm(50 * d), 50)
  x <- x + matrix(rnorm(n * d, sd = 0.5), n)
  list(x = x, g = rep(c("a", "b"), length.out = n))
}

if (length(args) == 3L) {
  # one audit in this process: route, n, d
  n <- as.integer(args[2])
  d <- as.integer(args[3])
  dat <- wide_data(n, d)
  p0 <- peak_mb()
  t0 <- proc.time()
  a <- fairproj::fair_audit(dat$x, dat$g, seed = 1, progress = FALSE, route = args[1],
                            replicates = as.integer(Sys.getenv("FAIRPROJ_BENCH_REPLICATES", "100")))
  t1 <- proc.time() - t0
  cat(sprintf("RESULT %s %.1f %.0f %.0f %s %s %d\n", args[1], t1[["user.self"]] + t1[["sys.self"]], peak_mb(), p0,
              if (is.null(a$route)) "moments" else a$route, !is.null(a$intervals$level), as.integer(a$intervals$replicates)))
  quit(save = "no")
}

cases <- strsplit(strsplit(Sys.getenv("FAIRPROJ_BENCH_AUDIT_WIDE", "2000:3000,2000:10000"), ",")[[1]], ":")
maxd <- as.numeric(Sys.getenv("FAIRPROJ_BENCH_MOMENTS_MAXD", "3000"))
rscript <- file.path(R.home("bin"), "Rscript")
self <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
env <- c("OPENBLAS_NUM_THREADS=1", "OMP_NUM_THREADS=1",
         sprintf("FAIRPROJ_BENCH_REPLICATES=%s", Sys.getenv("FAIRPROJ_BENCH_REPLICATES", "100")))
cat(sprintf("fairproj %s; BLAS: %s\n", packageVersion("fairproj"), extSoftVersion()[["BLAS"]]))
for (cs in cases) {
  n <- as.integer(cs[1])
  d <- as.integer(cs[2])
  for (route in c("auto", if (d <= maxd) "moments")) {
    out <- system2(rscript, c(self, route, n, d), stdout = TRUE, stderr = FALSE, env = env)
    r <- grep("^RESULT", out, value = TRUE)
    if (!length(r)) {
      cat(sprintf("n = %d, d = %d, route = %s: failed\n", n, d, route))
      next
    }
    f <- strsplit(r, " ")[[1]]
    cat(sprintf("n = %d, d = %d, route = %s: took %s, %s CPU s, peak %s MB (data %s MB), intervals %s (%s replicates)\n",
                n, d, f[2], f[6], f[3], f[4], f[5], f[7], f[8]))
  }
}
