# Table 4 of Vu, Tran, Yue and Nguyen (2022): out-of-sample Delta F_Lin (Olfat and Aswani's
# linear-SVM unfairness of the projected test data, delta_f_lin()) of the models that
# robust-fair-pca.R fitted (it stores them in <results>/vu-fits/<dataset>-<split>.rds; run it
# first, with FAIRPROJ_VU_FLIN = 0 this second pass is the only place Delta F_Lin is computed).
#
# Per the paper: the test part of the same 30/70 split is projected on the k = 3 directions of
# each model (FairPCA: the top 3 eigenvectors of its affine map), the projections are z-scored,
# a soft-margin linear SVM predicts the group with C in {1e-4, 1e-2, 1, 1e2, 1e4} chosen by
# 5-fold CV maximising the held-out statistic, and Delta F_Lin is the largest |TPR - FPR| over
# the thresholds of its decision values. The SVM is solved exactly (delta_f_lin()'s default
# solver "ecos": the quadratic program as a cone program, as the paper's code handed it to
# MOSEK); libsvm (solver = "e1071") reaches its iteration limit at the large costs and takes
# hours on the big test sets. Needs ECOSolveR and FAIRPROJ_DATA.
#
# Output: vu-table4.csv.xz (results-io.R convention), resumable (a stored dataset x split is
# skipped). Environment: FAIRPROJ_SETS (comma-separated), FAIRPROJ_SPLITS (default 10),
# FAIRPROJ_VU_SPLITS (numpy, the default, or r: must be those the fits were made with).
source(file.path(local({f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(f[1]) else system.file("reproduce", package = "fairproj")}), "results-io.R"))
repro_setup(packages = "ECOSolveR", helpers = "vu-common.R")  # split_train, as_k_projection
splits <- as.integer(Sys.getenv("FAIRPROJ_SPLITS", "10"))
sets_all <- c("default_credit", "biodeg", "ecoli", "energy", "german_credit", "image", "letter",
              "magic", "parkinsons", "skillcraft", "statlog", "steel", "taiwan_credit",
              "wine_quality")
# Table 4 of the paper, columns RFPCA, FairPCA, CFPCA-Mean, CFPCA-Both (no LFW row)
tab4 <- matrix(c(
  0.1596, 0.2236, 0.0574, 0.0413,  0.4892, 0.4759, 0.2014, 0.1371,  0.8556, 0.7444, 0.4455, 0.2532,
  0.0580, 0.0554, 0.0502, 0.0736,  0.1997, 0.1737, 0.1408, 0.1093,  0.9996, 0.9498, 0.1874, 0.2013,
  0.0954, 0.0942, 0.0556, 0.0455,  0.2195, 0.2531, 0.1561, 0.0882,  0.1459, 0.1061, 0.1805, 0.0480,
  0.1126, 0.1141, 0.0721, 0.0742,  0.9804, 0.6309, 0.1359, 0.0669,  0.2288, 0.2240, 0.1418, 0.0875,
  0.0604, 0.0535, 0.0391, 0.0370,  0.9699, 0.4639, 0.2192, 0.0817),
  nrow = 14, byrow = TRUE, dimnames = list(sets_all, c("RFPCA", "FairPCA", "CFPCA-Mean", "CFPCA-Both")))

stored <- function() {
  p <- repro_path("vu-table4")
  if (file.exists(p)) utils::read.csv(p, stringsAsFactors = FALSE, colClasses = c(split = "character")) else NULL
}
fdir <- file.path(repro_results_dir(), "vu-fits")
sets <- sets_all
if (nzchar(Sys.getenv("FAIRPROJ_SETS"))) sets <- strsplit(Sys.getenv("FAIRPROJ_SETS"), ",")[[1]]
for (nm in sets) {
  ds <- NULL
  for (s in seq_len(splits) - 1L) {
    f <- file.path(fdir, sprintf("%s-%d.rds", nm, s))
    old <- stored()
    if (!file.exists(f) || (!is.null(old) && any(old$dataset == nm & old$split == as.character(s)))) next
    if (is.null(ds)) ds <- fairproj_data(nm)
    fits <- readRDS(f)
    tr <- vu_train_rows(ds$group, 0.3, s)
    keep <- apply(ds$x[tr, ], 2, stats::sd) > 0
    xte <- ds$x[-tr, keep]; gte <- ds$group[-tr]
    rows <- lapply(names(fits), function(m) {
      t0 <- proc.time()[["elapsed"]]
      fl <- suppressWarnings(delta_f_lin(as_k_projection(fits[[m]]), xte, gte, seed = s))
      data.frame(dataset = nm, method = m, metric = "DeltaFLin", split = s, value = as.numeric(fl),
                 published = NA_real_, flin_cost = attr(fl, "cost"), seconds = proc.time()[["elapsed"]] - t0)
    })
    repro_write(do.call(rbind, rows), "vu-table4", replace_by = c("dataset", "split"), sd_divisor = "n-1")
    cat(sprintf("%s %-15s split %d done\n", format(Sys.time(), "%H:%M:%S"), nm, s))
  }
  tab <- stored()
  if (is.null(tab)) next
  tab <- tab[tab$dataset == nm & !tab$split %in% c("mean", "sd"), , drop = FALSE]
  if (length(unique(tab$split)) < splits) next
  agg <- do.call(rbind, lapply(split(tab, tab$method), function(d) {
    pub <- if (d$method[1] %in% colnames(tab4)) tab4[nm, d$method[1]] else NA_real_
    data.frame(dataset = nm, method = d$method[1], metric = "DeltaFLin", split = c("mean", "sd"),
               value = c(mean(d$value), stats::sd(d$value)), published = c(pub, NA),
               seconds = c(sum(d$seconds), NA), n_splits = nrow(d))
  }))
  repro_write(agg, "vu-table4", replace_by = c("dataset", "split"), sd_divisor = "n-1")
}
