# Full reproduction of Tables 1, 3 and 4 of Vu, Tran, Yue and Nguyen (2022), "Distributionally
# robust fair principal components via geodesic descents" (ICLR): out-of-sample ABDiff and ARE
# (Table 1), in-sample ABDiff and ARE (Table 3) and out-of-sample Delta F_Lin (Table 4) of
#   RFPCA       fair_pca(method = "robust"), alpha x lambda by cross-validation;
#   FairPCA     Samadi et al.'s multiplicative weights as the paper ran it: method = "minmax",
#               solver = "mw", 1000 iterations, the step eta by cross-validation over the
#               paper's 18 values, the better of the average and last iterate, and the
#               square-root map applied to the MW matrix (lp = FALSE: the non-projection
#               "affine" output I - (I - P)^(1/2), which is what is evaluated), kept even
#               when standard PCA is better (fallback = FALSE, as the paper's code does; rows
#               stored before fallback existed used the package's default, which returned
#               standard PCA in some splits: see `returned` in the setting column);
#   CFPCA-Mean  Olfat and Aswani's convex fair PCA with the mean constraint (method = "cfpca",
#               scaling of the authors' code), delta by cross-validation;
#   CFPCA-Both  the same with the covariance term: delta = 0, mu by cross-validation;
#   MinMax      extra: the package's exact min-max solver (no parameter to tune);
#   PCA         extra: standard PCA of the training part.
#
# Protocol (the paper's, Section 5 and Appendix D; settings checked against the paper's text):
# 10 train/test splits (seeds 0-9), 30 % train stratified by group, drawn as the authors' code
# draws them (numpy.random.default_rng(seed) per split; folds by sklearn's KFold with
# random_state = seed; see split_numpy()); k = 3; the training part is
# standardised with its own statistics (LFW: pixels / 255, centred, not scaled); the parameters
# of each method are chosen by 3-fold cross-validation on the training part minimising the mean
# held-out ARE + ABDiff (tune_fair_pca()) and the chosen setting is refitted on the whole
# training part; RFPCA: alpha in {0.05, 0.1, 0.15} x lambda in {0, 0.5, 1, 1.5, 2, 2.5},
# 1000 iterations, 20 random restarts (plus the standard-PCA start of the authors' code), step
# 1 / sqrt(1001), last iterate; FairPCA: eta in {0.1, 0.25, 0.5, ..., 4.25}, 1000 iterations;
# CFPCA-Mean: delta in {0, 0.1, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9}; CFPCA-Both: delta = 0, mu in
# {1e-4, 1e-3, 0.01, 0.05, 0.5}. LFW: 500 iterations (RFPCA and FairPCA), 2-fold CV; CFPCA is
# not run on LFW (the paper's solver failed there, so there is nothing to compare with).
#
# Output (the shared convention of results-io.R; FAIRPROJ_RESULTS or inst/reproduce/results):
#   vu-table1.csv.xz  out-of-sample ABDiff / ARE per dataset x method x split, plus "mean" and "sd"
#   vu-table3.csv.xz  in-sample ABDiff / ARE, same layout
#   vu-table4.csv.xz  out-of-sample Delta F_Lin (delta_f_lin(): the exact SVM, needs ECOSolveR), same layout
# with the published value beside every mean, the chosen parameters (`setting`) and the seconds
# each method took. Each (dataset, split) is written as soon as it is done, and the run is
# resumable: a (dataset, split) already stored in vu-table1.csv.xz is skipped, so rerunning the
# script continues where an interrupted run stopped. The "mean" / "sd" rows of a dataset are
# (re)written once all its splits are stored.
#
# Needs FAIRPROJ_DATA. Run: Rscript inst/reproduce/robust-fair-pca.R
# Environment: FAIRPROJ_SPLITS (default 10), FAIRPROJ_SETS (comma-separated dataset names, in
# the order to run), FAIRPROJ_VU_FLIN (0 to skip Delta F_Lin), FAIRPROJ_VU_METHODS
# (comma-separated subset of RFPCA, FairPCA, CFPCA-Mean, CFPCA-Both, MinMax, PCA).
source(file.path(local({f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(f[1]) else system.file("reproduce", package = "fairproj")}), "results-io.R"))
repro_setup(helpers = "vu-common.R")  # split_train, as_k_projection
splits <- as.integer(Sys.getenv("FAIRPROJ_SPLITS", "10"))
do_flin <- Sys.getenv("FAIRPROJ_VU_FLIN", "1") != "0" && requireNamespace("ECOSolveR", quietly = TRUE)
# FAIRPROJ_VU_SPLITS = "numpy" (the default; `numpy_splits` in vu-common.R): the authors' splits
# and CV folds, drawn with numpy's own streams (split_numpy(), kfold_numpy(); needs a C++
# compiler for Rcpp::sourceCpp()); "r": R's generator and stratified folds (the stored results
# before 2026-11-25)
all_methods <- c("RFPCA", "FairPCA", "CFPCA-Mean", "CFPCA-Both", "MinMax", "PCA")
methods <- all_methods
if (nzchar(Sys.getenv("FAIRPROJ_VU_METHODS"))) methods <- strsplit(Sys.getenv("FAIRPROJ_VU_METHODS"), ",")[[1]]

# ---- published numbers (Tables 1, 3, 4 of the paper) ----
sets_all <- c("default_credit", "biodeg", "ecoli", "energy", "german_credit", "image", "letter",
              "magic", "parkinsons", "skillcraft", "statlog", "steel", "taiwan_credit",
              "wine_quality", "lfw576")
pub_wide <- function(v) matrix(v, nrow = 15, byrow = TRUE, dimnames = list(sets_all, NULL))
# columns: RFPCA ABDiff, ARE, FairPCA ABDiff, ARE, CFPCA-Mean ABDiff, ARE, CFPCA-Both ABDiff, ARE
tab1 <- pub_wide(c(
  0.9483, 10.3995, 1.4401, 10.4439, 0.9367, 10.9451, 3.3359, 22.0310,
  23.0066, 33.8571, 27.5159, 34.6184, 29.1728, 37.6052, 37.9533, 50.7090,
  1.1500, 1.7210, 1.5280, 2.4799, 1.1005, 2.9466, 5.1275, 5.6674,
  0.0125, 0.2238, 0.0138, 0.2225, 0.1229, 2.7318, 0.1001, 7.9511,
  2.0588, 43.9032, 1.3670, 44.0064, 1.7845, 43.9648, 1.4955, 49.5014,
  0.7522, 6.0199, 1.6129, 10.2616, 1.1499, 14.3725, 4.7013, 19.3356,
  0.1712, 7.4176, 1.2489, 7.4470, 0.4427, 8.7445, 0.5743, 15.1779,
  1.8314, 3.9094, 2.9405, 3.3815, 5.5790, 4.2105, 8.7810, 9.0064,
  0.3273, 5.0597, 0.8678, 4.9044, 3.3804, 5.7260, 18.3312, 19.7001,
  0.7669, 8.2828, 0.7771, 8.2494, 1.0283, 9.9484, 1.2849, 15.9751,
  0.0838, 3.0998, 0.3356, 7.9734, 0.4476, 10.8263, 13.8437, 35.8268,
  1.1472, 12.5944, 1.2208, 12.3096, 4.8710, 16.4015, 3.8084, 25.8953,
  0.5523, 10.9845, 0.5710, 10.9415, 0.5744, 13.0437, 0.9535, 21.8963,
  0.6359, 4.2801, 0.3046, 6.0936, 1.5020, 6.1118, 3.0451, 10.1001,
  0.4463, 7.6229, 0.5340, 7.6361, NA, NA, NA, NA))
tab3 <- pub_wide(c(
  0.9457, 9.9072, 1.5821, 9.9049, 0.9949, 10.5164, 3.2827, 21.4523,
  9.4093, 23.1555, 14.2587, 23.8227, 15.5545, 26.6540, 24.8706, 39.8737,
  0.5678, 1.4804, 0.9191, 2.0840, 0.9539, 2.8360, 4.5225, 5.2155,
  0.0094, 0.2295, 0.0153, 0.2273, 0.2658, 2.7893, 0.2136, 7.8768,
  1.6265, 40.1512, 2.9824, 40.3393, 2.6109, 40.1860, 2.8741, 47.1006,
  0.1320, 5.0924, 0.7941, 9.0437, 0.6910, 13.4491, 3.0118, 18.0000,
  0.1121, 7.4088, 1.2560, 7.4375, 0.4572, 8.7764, 0.5301, 15.2234,
  1.7405, 3.8766, 2.8679, 3.3500, 5.5405, 4.1938, 8.7963, 8.9695,
  0.1238, 5.0471, 0.6702, 4.8760, 3.9470, 5.9379, 17.8122, 19.9788,
  0.4231, 8.1569, 0.5576, 8.1096, 0.7156, 9.7755, 0.9334, 15.8245,
  0.1972, 3.0588, 0.3315, 7.9980, 0.3857, 10.9358, 13.0725, 35.9214,
  0.6943, 11.0396, 1.8015, 10.7653, 2.8933, 14.5680, 1.9322, 23.9906,
  1.1516, 10.5136, 1.3362, 10.4478, 1.3158, 12.5867, 2.2720, 21.4365,
  0.1125, 4.1491, 0.1705, 5.8999, 1.1359, 5.9117, 2.5852, 9.8959,
  0.4147, 7.5137, 0.5300, 7.5127, NA, NA, NA, NA))
# columns: RFPCA, FairPCA, CFPCA-Mean, CFPCA-Both (no LFW row in the paper)
tab4 <- matrix(c(
  0.1596, 0.2236, 0.0574, 0.0413,  0.4892, 0.4759, 0.2014, 0.1371,  0.8556, 0.7444, 0.4455, 0.2532,
  0.0580, 0.0554, 0.0502, 0.0736,  0.1997, 0.1737, 0.1408, 0.1093,  0.9996, 0.9498, 0.1874, 0.2013,
  0.0954, 0.0942, 0.0556, 0.0455,  0.2195, 0.2531, 0.1561, 0.0882,  0.1459, 0.1061, 0.1805, 0.0480,
  0.1126, 0.1141, 0.0721, 0.0742,  0.9804, 0.6309, 0.1359, 0.0669,  0.2288, 0.2240, 0.1418, 0.0875,
  0.0604, 0.0535, 0.0391, 0.0370,  0.9699, 0.4639, 0.2192, 0.0817,  NA, NA, NA, NA),
  nrow = 15, byrow = TRUE, dimnames = list(sets_all, NULL))
paper_methods <- c("RFPCA", "FairPCA", "CFPCA-Mean", "CFPCA-Both")
published_value <- function(table, dataset, method, metric) {
  j <- match(method, paper_methods)
  if (is.na(j)) return(NA_real_)
  if (table == "vu-table4") return(tab4[dataset, j])
  tab <- if (table == "vu-table1") tab1 else tab3
  tab[dataset, 2 * (j - 1) + if (metric == "ABDiff") 1 else 2]
}

# ---- the protocol ----
grid_rfpca <- list(alpha = c(0.05, 0.1, 0.15), lambda = c(0, 0.5, 1, 1.5, 2, 2.5))
grid_mw <- list(eta = c(0.1, seq(0.25, 4.25, by = 0.25)))
grid_cf_mean <- list(delta = c(0, 0.1, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9))
grid_cf_both <- list(mu = c(1e-4, 1e-3, 0.01, 0.05, 0.5))



run_split <- function(ds, name, seed) {
  lfw <- name == "lfw576"
  sc <- !lfw
  folds <- if (lfw) 2 else 3
  if (numpy_splits) {
    sp <- split_numpy(ds$group, 0.3, seed)
    tr <- sp$train
    folds <- kfold_numpy(length(tr), folds, seed)
  } else {
    tr <- split_train(ds$group, 0.3, seed)
  }
  keep <- apply(ds$x[tr, ], 2, stats::sd) > 0
  xtr <- ds$x[tr, keep]; gtr <- ds$group[tr]; xte <- ds$x[-tr, keep]; gte <- ds$group[-tr]
  iters <- if (lfw) 500 else 1000
  n_warn <- 0
  muffle <- function(w) { n_warn <<- n_warn + 1; invokeRestart("muffleWarning") }
  quiet <- function(expr) withCallingHandlers(expr, warning = muffle)
  fits <- list(); setting <- list(); secs <- list()
  timed <- function(m, expr) {
    t0 <- proc.time()[["elapsed"]]
    val <- expr
    secs[[m]] <<- proc.time()[["elapsed"]] - t0
    val
  }
  if ("RFPCA" %in% methods) {
    # The paper's radii alpha / sqrt(N_a) and step 1 / sqrt(tau + 1) are in the data's units;
    # fairproj's `alpha` is relative to the average column variance s (s = 1 after scaling), so
    # on the unscaled LFW pixels the grid is divided by s. step = "paper" and keep_start = FALSE
    # run Algorithm 1 as published (last iterate, even when worse than its start).
    s_avg <- if (sc) 1 else mean(apply(xtr, 2, stats::var))
    g <- grid_rfpca; g$alpha <- g$alpha / s_avg
    tn <- timed("RFPCA", quiet(tune_fair_pca(xtr, gtr, k = 3, method = "robust", grid = g, folds = folds,
                                             seed = seed, iterations = iters, restarts = 20, scale. = sc,
                                             step = "paper", keep_start = FALSE)))
    fits$RFPCA <- tn$model
    setting$RFPCA <- sprintf("alpha=%g;lambda=%g;lambda_used=%g", tn$best$alpha * s_avg, tn$best$lambda,
                             tn$model$lambda)
  }
  if ("FairPCA" %in% methods) {
    tn <- timed("FairPCA", quiet(tune_fair_pca(xtr, gtr, k = 3, method = "minmax", grid = grid_mw,
                                               folds = folds, seed = seed, solver = "mw", eta_units = "data", iterations = iters,
                                               keep = "better", lp = FALSE, scale. = sc,
                                               fallback = FALSE)))
    fits$FairPCA <- tn$model
    setting$FairPCA <- sprintf("eta=%g;rank=%d;returned=%s", tn$best$eta, tn$model$rank, tn$model$returned)
  }
  if (!lfw && "CFPCA-Mean" %in% methods) {
    tn <- timed("CFPCA-Mean", quiet(tune_fair_pca(xtr, gtr, k = 3, method = "cfpca", grid = grid_cf_mean,
                                                  folds = folds, seed = seed, scaling = "fairml", scale. = sc)))
    fits[["CFPCA-Mean"]] <- tn$model
    setting[["CFPCA-Mean"]] <- sprintf("delta=%g", tn$best$delta)
  }
  if (!lfw && "CFPCA-Both" %in% methods) {
    tn <- timed("CFPCA-Both", quiet(tune_fair_pca(xtr, gtr, k = 3, method = "cfpca", grid = grid_cf_both,
                                                  folds = folds, seed = seed, delta = 0, scaling = "fairml",
                                                  scale. = sc)))
    fits[["CFPCA-Both"]] <- tn$model
    setting[["CFPCA-Both"]] <- sprintf("delta=0;mu=%g", tn$best$mu)
  }
  if ("MinMax" %in% methods) {
    fits$MinMax <- timed("MinMax", quiet(fair_pca(xtr, gtr, k = 3, method = "minmax", scale. = sc)))
    setting$MinMax <- sprintf("exact;rank=%d", fits$MinMax$rank)
  }
  if ("PCA" %in% methods) {
    fits$PCA <- timed("PCA", fair_pca(xtr, gtr, k = 3, method = "standard", scale. = sc))
    setting$PCA <- ""
  }
  # the fitted models, for Delta F_Lin in a later pass (vu-table4.R) when FAIRPROJ_VU_FLIN = 0
  slim <- lapply(fits, function(f) { f$history <- NULL; f$x <- NULL; f$cv <- NULL; f })
  fdir <- file.path(repro_results_dir(), "vu-fits")
  dir.create(fdir, showWarnings = FALSE)
  saveRDS(slim, file.path(fdir, sprintf("%s-%d.rds", name, seed)))
  out <- list()
  for (m in names(fits)) {
    te <- group_errors(fits[[m]], xte, gte)
    tri <- group_errors(fits[[m]], xtr, gtr)
    base <- data.frame(dataset = name, method = m, split = seed, setting = setting[[m]], seconds = secs[[m]])
    out$t1[[m]] <- rbind(cbind(base, metric = "ABDiff", value = te$ABDiff), cbind(base, metric = "ARE", value = te$ARE))
    out$t3[[m]] <- rbind(cbind(base, metric = "ABDiff", value = tri$ABDiff), cbind(base, metric = "ARE", value = tri$ARE))
    if (do_flin) {
      t0 <- proc.time()[["elapsed"]]
      fl <- delta_f_lin(as_k_projection(fits[[m]]), xte, gte, seed = seed)
      out$t4[[m]] <- cbind(base, metric = "DeltaFLin", value = as.numeric(fl),
                           flin_cost = attr(fl, "cost"), flin_seconds = proc.time()[["elapsed"]] - t0)
    }
  }
  lapply(out, function(l) {
    df <- do.call(rbind, l)
    df$published <- NA_real_
    df$warnings <- n_warn
    df
  })
}

add_means <- function(name, table) {
  tab <- repro_read_here(table)
  if (is.null(tab)) return(invisible())
  tab <- tab[tab$dataset == name & !tab$split %in% c("mean", "sd"), , drop = FALSE]
  if (!nrow(tab) || length(unique(tab$split)) < splits) return(invisible())
  key <- unique(tab[c("method", "metric")])
  agg <- do.call(rbind, lapply(seq_len(nrow(key)), function(i) {
    v <- tab$value[tab$method == key$method[i] & tab$metric == key$metric[i]]
    s <- tab$seconds[tab$method == key$method[i] & tab$metric == key$metric[i]]
    data.frame(dataset = name, method = key$method[i], metric = key$metric[i],
               split = c("mean", "sd"), value = c(mean(v), stats::sd(v)),
               published = c(published_value(table, name, key$method[i], key$metric[i]), NA),
               seconds = c(sum(s), NA), n_splits = length(v))
  }))
  repro_write(agg, table, replace_by = c("dataset", "split"), sd_divisor = "n-1")
}

repro_read_here <- function(table) {
  p <- repro_path(table)
  if (!file.exists(p)) return(NULL)
  utils::read.csv(p, stringsAsFactors = FALSE, colClasses = c(split = "character"))
}

done_splits <- function(name) {
  tab <- repro_read_here("vu-table1")
  if (is.null(tab)) return(character(0))
  sub <- tab[tab$dataset == name, , drop = FALSE]
  ok <- vapply(split(sub$method, sub$split), function(m) all(methods[!(name == "lfw576" & grepl("^CFPCA", methods))] %in% m), TRUE)
  names(ok)[ok]
}

# cheapest first: RFPCA costs O(d^2 k), MW and CFPCA O(d^3) per iteration, whatever n (they work
# on the group moments), so the order is by d; LFW (d = 576) last
order_default <- c("ecoli", "energy", "magic", "wine_quality", "letter", "skillcraft", "image", "parkinsons",
                   "default_credit", "taiwan_credit", "steel", "statlog", "biodeg", "german_credit", "lfw576")
sets <- order_default
if (nzchar(Sys.getenv("FAIRPROJ_SETS"))) sets <- strsplit(Sys.getenv("FAIRPROJ_SETS"), ",")[[1]]
cat("results go to", repro_results_dir(), "\n")
for (nm in sets) {
  ds <- NULL
  for (s in seq_len(splits) - 1L) {
    if (as.character(s) %in% done_splits(nm)) next
    if (is.null(ds)) ds <- fairproj_data(nm)
    t0 <- proc.time()[["elapsed"]]
    res <- run_split(ds, nm, s)
    repro_write(res$t1, "vu-table1", replace_by = c("dataset", "split"), sd_divisor = "n-1")
    repro_write(res$t3, "vu-table3", replace_by = c("dataset", "split"), sd_divisor = "n-1")
    if (!is.null(res$t4)) repro_write(res$t4, "vu-table4", replace_by = c("dataset", "split"), sd_divisor = "n-1")
    cat(sprintf("%s %-15s split %d done in %.0f s\n", format(Sys.time(), "%H:%M:%S"), nm, s,
                proc.time()[["elapsed"]] - t0))
  }
  for (tb in c("vu-table1", "vu-table3", "vu-table4")) add_means(nm, tb)
}
