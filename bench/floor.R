# The floor of a fit from the rows (#36): each case against what it cannot beat, side by side in
# one process, in interleaved rounds (every candidate once per round, in turn), medians of the
# elapsed times and their ratio printed.
#
# Run single-threaded, once with each BLAS:
#   OPENBLAS_NUM_THREADS=1 FAIRPROJ_DATA=/path/to/data Rscript bench/floor.R [lib]
# R's startup script puts the system library directory first on the library path, so OpenBLAS
# is selected with R_LD_LIBRARY_PATH (its directory first) rather than LD_LIBRARY_PATH; the BLAS
# and LAPACK in use are printed. Options (environment variables):
#   FAIRPROJ_BENCH_ROUNDS  rounds of the interleaved timings (default 7; 3 while developing)
#   FAIRPROJ_BENCH_PARTS   comma-separated parts to run: moments, fit, retx, coding, threads,
#                          minmax (default all; minmax needs FAIRPROJ_DATA)
#   FAIRPROJ_BENCH_MAXD    leave out the sizes with more columns (the reference BLAS takes
#                          minutes per crossprod() at 1e5 x 800)
# Targets: moments <= 1.3x crossprod at d = 50 and <= 1.1x at d = 800; fit <= 1.3x the row pass
# (group_moments()) at d >= 50; retx <= 1.3x the fit, with no n x d temporary; the group coding
# <= 2 % of the fit at n = 1e6; two threads >= 1.6x one thread at 1e6 x 200 (where the BLAS has
# threads); min-max <= 2.5x standard PCA at every k on credit, m = 2..24.
args <- commandArgs(TRUE)
suppressPackageStartupMessages(if (length(args)) library(fairproj, lib.loc = args[1]) else library(fairproj))
options(width = 160)
rounds <- as.integer(Sys.getenv("FAIRPROJ_BENCH_ROUNDS", "7"))
maxd <- as.numeric(Sys.getenv("FAIRPROJ_BENCH_MAXD", "Inf"))
sizes <- Filter(function(s) s[2] <= maxd, list(c(1e5, 50), c(1e6, 50), c(1e5, 800)))
parts <- strsplit(Sys.getenv("FAIRPROJ_BENCH_PARTS", "moments,fit,retx,coding,threads,minmax"), ",")[[1]]
cat(sprintf("BLAS: %s\nLAPACK: %s\nfairproj backend: %s; OPENBLAS_NUM_THREADS=%s; rounds: %d\n\n",
            extSoftVersion()[["BLAS"]], La_library(), fairproj_backend()$backend,
            Sys.getenv("OPENBLAS_NUM_THREADS", "(unset)"), rounds))

tm <- function(f) {
  t0 <- proc.time()[["elapsed"]]
  f()
  proc.time()[["elapsed"]] - t0
}
# Medians over `rounds` interleaved rounds of the named functions (one warm-up call each).
interleaved <- function(fs, rounds) {
  for (f in fs) f()
  t <- matrix(NA_real_, rounds, length(fs), dimnames = list(NULL, names(fs)))
  for (r in seq_len(rounds)) for (i in seq_along(fs)) t[r, i] <- tm(fs[[i]])
  apply(t, 2L, stats::median)
}
gen <- function(n, d, m, seed = 1) {
  set.seed(seed)
  list(x = matrix(rnorm(n * d), n, d), g = sample(sprintf("g%02d", seq_len(m)), n, TRUE))
}
show <- function(tab, title) {
  cat(title, "\n")
  print(tab, digits = 3, row.names = FALSE)
  cat("\n")
}

# ---- group_moments() against crossprod() --------------------------------------------------
if ("moments" %in% parts) {
  rows <- NULL
  for (s in sizes) {
    for (m in c(2, 20)) {
      dat <- gen(s[1], s[2], m)
      g <- factor(dat$g)
      t <- interleaved(list(crossprod = function() crossprod(dat$x),
                            group_moments = function() group_moments(dat$x, g)),
                       if (s[1] * s[2] > 5e7) max(3L, rounds %/% 2L) else rounds)
      rows <- rbind(rows, data.frame(n = s[1], d = s[2], groups = m, crossprod = t[[1]],
                                     group_moments = t[[2]], ratio = t[[2]] / t[[1]],
                                     target = if (s[2] >= 800) 1.1 else 1.3))
      rm(dat); invisible(gc())
    }
  }
  show(rows, "group_moments() / crossprod() (seconds, medians):")
}

# ---- fair_pca() from the rows against the row pass --------------------------------------------
if ("fit" %in% parts) {
  rows <- NULL
  for (s in sizes) {
    dat <- gen(s[1], s[2], 2)
    g <- factor(dat$g)
    t <- interleaved(list(crossprod = function() crossprod(dat$x),
                          row_pass = function() group_moments(dat$x, g),
                          mean = function() fair_pca(dat$x, g, k = 10, method = "mean", retx = FALSE),
                          standard = function() fair_pca(dat$x, g, k = 10, method = "standard", retx = FALSE)),
                     if (s[1] * s[2] > 5e7) max(3L, rounds %/% 2L) else rounds)
    rows <- rbind(rows, data.frame(n = s[1], d = s[2], crossprod = t[["crossprod"]], row_pass = t[["row_pass"]],
                                   mean = t[["mean"]], standard = t[["standard"]],
                                   mean_over_pass = t[["mean"]] / t[["row_pass"]],
                                   standard_over_pass = t[["standard"]] / t[["row_pass"]],
                                   mean_over_crossprod = t[["mean"]] / t[["crossprod"]]))
    rm(dat); invisible(gc())
  }
  show(rows, "fair_pca(k = 10, retx = FALSE) / the row pass, 2 groups (target <= 1.3):")
}

# ---- retx = TRUE against the fit ----------------------------------------------------------------
# Peak memory: the largest R heap (Vcells) during the call above what was in use before it,
# as a fraction of the data's size (the scores alone are k / d of it).
peak_over <- function(f) {
  base <- sum(gc(reset = TRUE)[, 2L])
  f()
  (sum(gc()[, 6L]) - base) * 2^20
}
if ("retx" %in% parts) {
  rows <- NULL
  for (s in sizes) {
    dat <- gen(s[1], s[2], 2)
    g <- factor(dat$g)
    for (meth in c("standard", "mean")) {
      t <- interleaved(list(fit = function() fair_pca(dat$x, g, k = 10, method = meth, retx = FALSE),
                            retx = function() fair_pca(dat$x, g, k = 10, method = meth, retx = TRUE)),
                       if (s[1] * s[2] > 5e7) max(3L, rounds %/% 2L) else rounds)
      mem <- peak_over(function() fair_pca(dat$x, g, k = 10, method = meth, retx = TRUE))
      rows <- rbind(rows, data.frame(n = s[1], d = s[2], method = meth, fit = t[["fit"]], retx = t[["retx"]],
                                     ratio = t[["retx"]] / t[["fit"]],
                                     peak_over_data = mem / as.numeric(object.size(dat$x)),
                                     scores_over_data = 10 / s[2]))
    }
    rm(dat); invisible(gc())
  }
  show(rows, "fair_pca(k = 10, retx = TRUE) / retx = FALSE, 2 groups (target <= 1.3; peak memory over the data's size):")
}

# ---- the group coding at n = 1e6 ------------------------------------------------------------------
if ("coding" %in% parts) {
  dat <- gen(1e6, 50, 2)
  labels <- list(character = dat$g, factor = factor(dat$g), integer = match(dat$g, sort(unique(dat$g))))
  code <- function(v) fairproj:::fp_as_group(v, length(v), "group")
  rows <- NULL
  for (nm in names(labels)) {
    v <- labels[[nm]]
    t <- interleaved(list(coding = function() code(v),
                          fit = function() fair_pca(dat$x, v, k = 10, method = "standard", retx = FALSE)), rounds)
    rows <- rbind(rows, data.frame(labels = nm, coding = t[["coding"]], fit = t[["fit"]], share = t[["coding"]] / t[["fit"]]))
  }
  rm(dat); invisible(gc())
  show(rows, "group coding / fair_pca(standard) at 1e6 x 50, 2 groups (target <= 0.02):")
}

# ---- two threads against one --------------------------------------------------------------------
# fairproj's own threads (group_moments(threads = ), OpenMP; where the installed version has them)
# and the BLAS's (OpenBLAS's openblas_set_num_threads, reached through its Fortran binding; with
# OpenBLAS's pthreads library): "moments_1" one of each; "moments_blas2" the BLAS on two, the
# pass on one (all that a version without threads of its own can do); "moments_2" the pass on
# two threads (inside them the BLAS runs one each).
blas_threads <- function(k) {
  lib <- La_library()
  if (!grepl("openblas", lib, ignore.case = TRUE)) return(FALSE)
  if (!is.loaded("openblas_set_num_threads_")) dyn.load(lib)
  if (!is.loaded("openblas_set_num_threads_")) return(FALSE)
  invisible(.C("openblas_set_num_threads_", as.integer(k)))
  TRUE
}
if ("threads" %in% parts) {
  own <- "threads" %in% names(formals(fairproj:::group_moments.default))
  blas2 <- blas_threads(1L)
  for (m in c(2, 20)) {
    dat <- gen(1e6, 200, m)
    g <- factor(dat$g)
    gm <- function(k) if (own) group_moments(dat$x, g, threads = k) else group_moments(dat$x, g)
    fs <- list(crossprod_1 = function() { blas_threads(1L); crossprod(dat$x) },
               moments_1 = function() { blas_threads(1L); gm(1L) })
    if (blas2) fs <- c(fs, list(crossprod_2 = function() { blas_threads(2L); crossprod(dat$x) },
                                moments_blas2 = function() { blas_threads(2L); gm(1L) }))
    if (own) fs <- c(fs, list(moments_2 = function() { blas_threads(1L); gm(2L) }))
    t <- interleaved(fs, max(3L, rounds %/% 2L))
    blas_threads(1L)
    if (own) {
      a <- gm(1L)
      b <- gm(2L)
      # scatter: relative to its largest entry; means: relative to the column's spread (the
      # means of these data are near zero, so their own size is no scale)
      agree <- max(mapply(function(p, q) max(abs(p - q)) / max(abs(q)), b$scatter, a$scatter),
                   max(abs(b$mean - a$mean) / sqrt(vapply(a$scatter, diag, numeric(200)) / rep(a$n, each = 200))))
    }
    rm(dat); invisible(gc())
    tab <- data.frame(what = names(t), seconds = unname(t), speedup_over_moments_1 = t[["moments_1"]] / unname(t),
                      over_crossprod_1 = unname(t) / t[["crossprod_1"]])
    show(tab, sprintf("threads at 1e6 x 200, %d groups (target: moments_2 >= 1.6x moments_1)%s:", m,
                      if (own) sprintf("; 2 threads vs 1 agree to %.1e relative", agree) else ""))
  }
}

# ---- min-max with m groups on credit against standard PCA ---------------------------------------
if ("minmax" %in% parts) {
  dir <- Sys.getenv("FAIRPROJ_DATA")
  if (!nzchar(dir) || !dir.exists(dir)) {
    cat("min-max: skipped (set FAIRPROJ_DATA to the data directory)\n")
  } else {
    # the credit groupings of bench/minmax.R (bench/credit-groups.R)
    source(file.path(local({f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
      if (length(f)) dirname(f[1]) else "bench"}), "credit-groups.R"))
    cr <- bench_credit(dir)
    x <- cr$x
    groups <- cr$groups
    rows <- NULL
    for (mm in names(groups)) {
      g <- groups[[mm]]
      for (k in 1:10) {
        # one call is some milliseconds: each timing is the mean of 10 calls
        t <- interleaved(list(standard = function() for (i in 1:10) fair_pca(x, g, k = k, method = "standard", scale. = TRUE, retx = FALSE),
                              minmax = function() for (i in 1:10) fair_pca(x, g, k = k, method = "minmax", scale. = TRUE, retx = FALSE)),
                         rounds) / 10
        rows <- rbind(rows, data.frame(m = nlevels(g), k = k, standard = t[["standard"]], minmax = t[["minmax"]],
                                       ratio = t[["minmax"]] / t[["standard"]]))
      }
    }
    show(rows, "credit (30000 x 20, scale. = TRUE): min-max / standard PCA from the rows, every k:")
    agg <- aggregate(ratio ~ m, rows, max)
    show(agg, "max over k = 1..10 by m (target <= 2.5):")
  }
}
