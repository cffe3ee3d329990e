# Runtime comparison of Kleindessner et al. (2023): every method of their Adult table, fitted
# once each on the same data on the same machine, one after the other in one R process.
#
#   FAIRPROJ_DATA=/path/to/data Rscript inst/reproduce/kleindessner-runtime.R [methods] [lib] [data]
#
#   methods  regular expression selecting methods (default: all)
#   data     regular expression selecting the data sets "Adult", "synthetic d = 20", ... (default: all)
#
# Data: (a) Adult, Lee et al.'s split 0 (train part: n = 1582, d = 97), k = 10, the setting of
# the table; (b) the paper's runtime figure: Gaussian data in the style of Lee et al.'s synthetic
# set (two groups that differ in mean and covariance; n = 1000 rows), d = 20, 60, 100 and
# k = 5. Method settings are those of efficient-fair-pca.R. One run per cell (CPU seconds of the
# fit in this process, user + system, one thread with the reference BLAS, so that other processes
# on a shared machine do not inflate them; no repetition).
#
# Results: inst/reproduce/results/kleindessner-runtime.csv.xz (results-io.R format: metric
# "seconds", split "0", dataset "Adult (split 0)" or "synthetic d = ..."), written after each
# fit (several processes may run at once: writes are serialised by a lock directory).
args <- commandArgs(trailingOnly = TRUE)
pick <- if (length(args) >= 1L && nzchar(args[1])) args[1] else "."
pick_data <- if (length(args) >= 3L && nzchar(args[3])) args[3] else "."
source(file.path(local({f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(f[1]) else system.file("reproduce", package = "fairproj")}), "results-io.R"))
# `lib` (argument 2): the library to load fairproj from, used only with FAIRPROJ_ALLOW_DIRTY=1
repro_setup(data = FALSE, helpers = "kleindessner-methods.R", lib = if (length(args) >= 2L && nzchar(args[2])) args[2])

fitters <- kleindessner_fitters

with_lock <- function(expr) {
  lock <- file.path(repro_results_dir(), ".kleindessner-runtime.lock")
  for (i in 1:600) if (dir.create(lock, showWarnings = FALSE)) break else Sys.sleep(1)
  on.exit(unlink(lock, recursive = TRUE))
  expr
}
time_all <- function(label, x, z, k) {
  if (!grepl(pick_data, label)) return(invisible(NULL))
  fs <- fitters(k)
  fs <- fs[grep(pick, names(fs))]
  for (nm in names(fs)) {
    gc()
    t0 <- proc.time()
    suppressWarnings(fs[[nm]](x, z))
    dt <- proc.time() - t0
    s <- dt[["user.self"]] + dt[["sys.self"]]  # CPU seconds: the load of other processes does not count
    cat(sprintf("%-22s %-18s %8.2f s\n", label, nm, s))
    df <- data.frame(dataset = label, method = nm, metric = "seconds", split = 0, value = s,
                     published = NA_real_, n = nrow(x), d = ncol(x), k = k)
    with_lock(repro_write(df, "kleindessner-runtime", replace_by = c("dataset", "method")))
  }
}

data_dir <- Sys.getenv("FAIRPROJ_DATA")
adult <- file.path(data_dir, "lee", "Adult", "train_0.csv.xz")
if (nzchar(data_dir) && file.exists(adult)) {
  m <- as.matrix(utils::read.csv(xzfile(adult), header = FALSE))
  p <- ncol(m) - 2L
  time_all("Adult (split 0)", m[, seq_len(p)], m[, p + 2L], 10)
} else {
  message("FAIRPROJ_DATA/lee/Adult not found: timing the synthetic data only")
}
set.seed(1)
for (d in c(20L, 60L, 100L)) {
  n <- 1000L
  z <- rep(0:1, c(600L, 400L))
  x <- matrix(rnorm(n * d), n, d) %*% matrix(rnorm(d * d), d) / sqrt(d)
  x[z == 1, ] <- x[z == 1, ] %*% diag(seq(1.5, 0.5, length.out = d))   # covariances differ
  x[z == 1, 1:3] <- x[z == 1, 1:3] + 1                                   # means differ
  x <- scale(x)
  time_all(sprintf("synthetic d = %d", d), x, z, 5)
}
