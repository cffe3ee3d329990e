# Sensitivity of Vu et al.'s FairPCA column (Table 1) to its step size: Samadi et al.'s
# multiplicative weights exactly as robust-fair-pca.R runs it (1000 iterations, the better of the
# average and last iterate, the affine output, kept even when standard PCA is better), but with
# each eta of the paper's grid {0.1, 0.25, 0.5, ..., 4.25} fixed instead of chosen by
# cross-validation, on the same 10 splits (30 % train, k = 3, training part standardised; the
# authors' numpy splits, or R's with FAIRPROJ_VU_SPLITS = r).
# If no eta of the grid brings the 10-split mean near the published value, the step size (and
# so the cross-validation) cannot be what differs from the paper's run.
#
# Output: vu-fairpca-eta.csv.xz (results-io.R convention; column `eta`), per dataset x eta x
# split, plus the 10-split "mean" rows with the published Table 1 value (read from the stored
# vu-table1 results). Resumable per dataset. Needs FAIRPROJ_DATA; about 15 minutes on one core.
# Environment: FAIRPROJ_SETS (comma-separated; default the 14 UCI datasets).
source(file.path(local({f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(f[1]) else system.file("reproduce", package = "fairproj")}), "results-io.R"))
repro_setup(helpers = "vu-common.R")  # split_train, split_numpy
etas <- c(0.1, seq(0.25, 4.25, by = 0.25))
sets <- c("ecoli", "energy", "magic", "wine_quality", "letter", "skillcraft", "image", "parkinsons",
          "default_credit", "taiwan_credit", "steel", "statlog", "biodeg", "german_credit")
if (nzchar(Sys.getenv("FAIRPROJ_SETS"))) sets <- strsplit(Sys.getenv("FAIRPROJ_SETS"), ",")[[1]]
t1 <- repro_read("vu-table1")
published <- function(nm, metric) {
  v <- t1$published[t1$dataset == nm & t1$method == "FairPCA" & t1$metric == metric & t1$split == "mean"]
  if (length(v)) v[1] else NA_real_
}
stored <- function() {  # what this run's results directory holds (not the package's copy)
  p <- repro_path("vu-fairpca-eta")
  if (file.exists(p)) utils::read.csv(p, stringsAsFactors = FALSE, colClasses = c(split = "character")) else NULL
}
for (nm in sets) {
  old <- stored()
  if (!is.null(old) && any(old$dataset == nm & old$split == "mean")) next
  ds <- fairproj_data(nm)
  t0 <- proc.time()[["elapsed"]]
  rows <- list()
  for (s in 0:9) {
    tr <- vu_train_rows(ds$group, 0.3, s)
    keep <- apply(ds$x[tr, ], 2, stats::sd) > 0
    xtr <- ds$x[tr, keep]; gtr <- ds$group[tr]; xte <- ds$x[-tr, keep]; gte <- ds$group[-tr]
    for (e in etas) {
      f <- suppressWarnings(fair_pca(xtr, gtr, k = 3, method = "minmax", solver = "mw", eta = e, eta_units = "data",
                                     iterations = 1000, keep = "better", lp = FALSE, scale. = TRUE,
                                     fallback = FALSE))
      te <- group_errors(f, xte, gte)
      rows[[length(rows) + 1L]] <- data.frame(dataset = nm, method = "FairPCA", metric = c("ABDiff", "ARE"),
                                              split = as.character(s), value = c(te$ABDiff, te$ARE),
                                              published = NA_real_, eta = e)
    }
  }
  d <- do.call(rbind, rows)
  m <- stats::aggregate(value ~ dataset + method + metric + eta, d, mean)
  m$split <- "mean"
  m$published <- vapply(m$metric, function(mt) published(nm, mt), numeric(1))
  repro_write(rbind(d, m[names(d)]), "vu-fairpca-eta", replace_by = "dataset")
  cat(sprintf("%s %-15s done in %.0f s\n", format(Sys.time(), "%H:%M:%S"), nm, proc.time()[["elapsed"]] - t0))
}
