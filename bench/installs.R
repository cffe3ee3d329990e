# Two installs of fairproj side by side (#32: a restructuring must leave every bench no slower):
# the main call of each bench/*.R, at its size, timed in a fresh R process per install and round,
# the installs interleaved (old, new, old, new, ...), and per case the median of the rounds and
# the ratio new / old printed. Each process loads its install, makes the data, runs the call once
# (warm-up), then times a loop of calls lasting about 0.25 s by CPU seconds (user + system), three
# times, and keeps the smallest time per call.
#
#   FAIRPROJ_DATA=/path/to/data Rscript bench/installs.R OLD_LIB NEW_LIB [rounds]
#
# Measured (2-core AMD EPYC, reference BLAS, 7 rounds; old = 6a235a7, the tree before the
# restructuring of #32, new = af555cd), new / old: moments 0.79 (2 groups) and 0.78 (20),
# standard 0.65, mean 0.65, retx 0.64, min-max 0.70 (2 groups) and 0.84 (8), Pareto 1.00,
# robust 1.01, baselines 0.75, CSS greedy 1.02 and QR 1.00, audit 0.64, equivariance 0.75:
# largest 1.02 (CSS greedy on german: 1.96 against 1.93 ms).
#
# Both installs must have the calls below (their arguments have not changed since 0.2.0).
# FAIRPROJ_BENCH_CASES: a regular expression selecting cases by name.
args <- commandArgs(TRUE)
if (length(args) < 2L) stop("usage: Rscript bench/installs.R OLD_LIB NEW_LIB [rounds]")
libs <- c(old = normalizePath(args[1]), new = normalizePath(args[2]))
rounds <- if (length(args) >= 3L) as.integer(args[3]) else 5L
data_dir <- Sys.getenv("FAIRPROJ_DATA")
if (!nzchar(data_dir)) stop("set FAIRPROJ_DATA to the data directory")
pick <- Sys.getenv("FAIRPROJ_BENCH_CASES", ".")

# Data builders (run in the child, untimed) and the timed calls: one per bench script.
setup <- c(
  rows = "set.seed(1); x <- matrix(rnorm(1e5 * 50), 1e5, 50); g <- sample(c('a', 'b'), 1e5, TRUE)",
  rows20 = "set.seed(1); x <- matrix(rnorm(1e5 * 50), 1e5, 50); g <- sample(sprintf('g%02d', 1:20), 1e5, TRUE)",
  credit = paste0("source('bench/credit-groups.R'); cr <- bench_credit(Sys.getenv('FAIRPROJ_DATA')); ",
                  "x <- scale(cr$x); g2 <- cr$groups[['2']]; g8 <- cr$groups[['8']]; m2 <- group_moments(x, g2)"),
  german = "d <- fairproj_data('css_german'); x <- d$x; g <- d$group",
  small = "set.seed(2); x <- matrix(rnorm(400 * 6), 400, 6) %*% diag(c(3, 2, 1.5, 1, 0.5, 0.2)); g <- rep(c('a', 'b'), 200)"
)
cases <- list(
  moments_2 = c("rows", "group_moments(x, g)", "bench/moments.R, bench/floor.R"),
  moments_20 = c("rows20", "group_moments(x, g)", "bench/floor.R"),
  scale_standard = c("rows", "fair_pca(x, g, k = 10, method = 'standard')", "bench/scale.R"),
  mean = c("rows", "fair_pca(x, g, k = 10, method = 'mean')", "bench/mean.R, bench/floor.R"),
  retx = c("rows", "fair_pca(x, g, k = 10, method = 'mean', retx = TRUE)", "bench/floor.R"),
  minmax_2 = c("credit", "for (k in 1:10) fair_pca(x, g2, k = k, method = 'minmax')", "bench/minmax.R"),
  minmax_8 = c("credit", "for (k in 1:10) fair_pca(x, g8, k = k, method = 'minmax')", "bench/minmax.R"),
  pareto = c("credit", "fair_pca(m2, k = 5, method = 'pareto')", "bench/pareto.R"),
  robust = c("credit", "fair_pca(m2, k = 3, method = 'robust')", "bench/robust.R"),
  baselines = c("credit", "for (mm in c('standard', 'mean', 'cfpca')) fair_pca(x, g2, k = 5, method = mm)",
                "bench/baselines.R"),
  # scale. given, as bench/css.R's paper preprocessing needs no units warning: on german's raw
  # columns the warning of #33 (newer than 0.2.0) fires and costs about 0.2 ms per call
  css_greedy = c("german", "fair_css(x, g, k = 10, scale. = FALSE)", "bench/css.R"),
  css_qr = c("german", "fair_css(x, g, k = 10, method = 'lowqr', scale. = FALSE); fair_css(x, g, k = 10, method = 'highqr', scale. = FALSE)",
             "bench/css.R"),
  # the audit without intervals (replicates = 0 where the install has them: intervals are new in #34)
  audit = c("small", paste("a <- list(x, g, k = 2, methods = c('standard', 'minmax', 'mean'), progress = FALSE);",
                           "if ('replicates' %in% names(formals(getS3method('fair_audit', 'default')))) a$replicates <- 0;",
                           "do.call(fair_audit, a)"), "bench/audit-coverage.R"),
  equivariance = c("small", "for (s in c(1e-150, 1, 1e150)) fair_pca(x * s, g, k = 2, method = 'minmax')",
                   "bench/equivariance.R")
)
cases <- cases[grepl(pick, names(cases))]

child <- function(lib, case) {
  code <- sprintf(paste(
    "suppressPackageStartupMessages(library(fairproj, lib.loc = %s))",
    "suppressWarnings({%s})",
    "f <- function() suppressWarnings({%s})",
    "t1 <- Sys.time(); f(); t1 <- as.numeric(Sys.time() - t1, units = 'secs')",
    "reps <- max(1, ceiling(0.25 / max(t1, 1e-4)))",
    "best <- Inf",
    "for (i in 1:3) { t0 <- proc.time(); for (j in seq_len(reps)) f(); dt <- proc.time() - t0",
    "  best <- min(best, (dt[['user.self']] + dt[['sys.self']]) / reps) }",
    "cat(best, '\\n')", sep = "\n"), deparse(lib), setup[[case[1]]], case[2])
  file <- tempfile(fileext = ".R")
  writeLines(code, file)
  on.exit(unlink(file))
  out <- system2(file.path(R.home("bin"), "Rscript"), file, stdout = TRUE, stderr = FALSE)
  as.numeric(utils::tail(out, 1L))
}

res <- NULL
for (nm in names(cases)) {
  t <- matrix(NA_real_, rounds, 2L, dimnames = list(NULL, names(libs)))
  for (r in seq_len(rounds)) for (v in if (r %% 2L) names(libs) else rev(names(libs))) t[r, v] <- child(libs[[v]], cases[[nm]])
  med <- apply(t, 2L, stats::median)
  res <- rbind(res, data.frame(case = nm, bench = cases[[nm]][3], old_s = med[["old"]], new_s = med[["new"]],
                               ratio = med[["new"]] / med[["old"]]))
  cat(sprintf("%-15s old %.4f s  new %.4f s  new/old %.3f\n", nm, med[["old"]], med[["new"]], med[["new"]] / med[["old"]]))
}
cat(sprintf("\nmedians of %d interleaved rounds (CPU seconds per call, the best of 3 loops per process)\n", rounds))
options(width = 160)
print(res, digits = 3, row.names = FALSE)
cat(sprintf("largest ratio new / old: %.3f (%s)\n", max(res$ratio), res$case[which.max(res$ratio)]))
