# Full reproduction protocol for Kamani, Haddadpour, Forsati and Mahdavi (2022), "Efficient fair
# principal component analysis", with fairproj's Pareto fair PCA (method = "pareto").
#
#   FAIRPROJ_DATA=/path/to/data Rscript pareto-fair-pca.R [output directory] [sections]
#
# sections: any of "sweep", "fronts", "downstream" (default: all three).
#
# The vignette "pareto-fair-pca" runs a reduced version of this (500 iterations, a grid of k,
# 8 random starts, one downstream split). Here:
#   1. all four datasets (Adult sex / race, Credit sex / marriage), every k = 1, ..., d - 1;
#   2. the paper's iteration (Euclidean normalised gradients, step 1/sqrt(t)) with 2000
#      iterations, pairwise and single objectives, psi = square and absolute, and the Armijo
#      variant (Riemannian gradients, exact stationarity) from standard PCA;
#   3. fronts from 30 random starts at k = 5, both iterations;
#   4. downstream at k = 10: 5 random 70/30 splits, logistic regression and (when e1071 is
#      installed) a linear SVM trained on 5000 random training rows (libsvm on all ~21000
#      rows takes many minutes per fit), per-group accuracy, TPR and DEO.
# Results are written as CSV files to the output directory (default: a temporary directory).

library(fairproj)
args <- commandArgs(trailingOnly = TRUE)
out_dir <- if (length(args)) args[1] else file.path(tempdir(), "pareto-fair-pca")
sections <- if (length(args) > 1L) args[-1L] else c("sweep", "fronts", "downstream")
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
if (!nzchar(Sys.getenv("FAIRPROJ_DATA"))) stop("set FAIRPROJ_DATA to the data directory")
cat("writing to", out_dir, "\n")

sets <- c("adult_sex", "adult_race", "credit_sex", "credit_marriage")
dat <- lapply(sets, fairproj_data)
names(dat) <- sets

variants <- list(
  pairwise_square = list(disparity = "pairwise", psi = "square"),
  pairwise_absolute = list(disparity = "pairwise", psi = "absolute"),
  single_square = list(disparity = "single", psi = "square"),
  pairwise_armijo = list(disparity = "pairwise", psi = "square", gradient = "riemannian",
                         step = "armijo", start = "pca", iterations = 5000))

# 1-2. sweep over k -------------------------------------------------------------------------------
if ("sweep" %in% sections) {
sweep <- list()
for (nm in sets) {
  d <- dat[[nm]]
  m <- group_moments(d$x, d$group)
  for (k in seq_len(ncol(d$x) - 1L)) {
    fits <- list(standard = fair_pca(m, k = k, method = "standard"))
    for (v in names(variants)) {
      a <- variants[[v]]
      if (is.null(a$iterations)) a$iterations <- 2000
      fits[[v]] <- do.call(fair_pca, c(list(m, k = k, method = "pareto"), a))
    }
    for (v in names(fits)) {
      f <- fits[[v]]
      gs <- f$group_stats
      sweep[[length(sweep) + 1L]] <- data.frame(
        dataset = nm, k = k, method = v, group = gs$group, n = gs$n, error = gs$error, best = gs$best,
        excess = gs$loss, total = f$totalvar - sum(f$sdev^2),
        iterations = if (is.null(f$iterations)) NA else f$iterations,
        status = if (is.null(f$status)) NA else f$status)
    }
    cat(sprintf("%s k = %d done\n", nm, k))
  }
}
sweep <- do.call(rbind, sweep)
utils::write.csv(sweep, file.path(out_dir, "sweep.csv"), row.names = FALSE)

summ <- do.call(rbind, lapply(split(sweep, list(sweep$dataset, sweep$k, sweep$method), drop = TRUE), function(r) {
  data.frame(dataset = r$dataset[1], k = r$k[1], method = r$method[1], total = r$total[1],
             mean_excess = mean(r$excess), gap = diff(range(r$excess)))
}))
utils::write.csv(summ, file.path(out_dir, "sweep-summary.csv"), row.names = FALSE)
print(stats::aggregate(cbind(total, mean_excess, gap) ~ dataset + method, data = summ, FUN = mean))
}

# 3. fronts ---------------------------------------------------------------------------------------
if ("fronts" %in% sections) {
set.seed(2022)
fronts <- list()
for (nm in sets) {
  m <- group_moments(dat[[nm]]$x, dat[[nm]]$group)
  for (it in c("paper", "riemannian_armijo")) {
    pf <- if (it == "paper") pareto_front(m, k = 5, restarts = 30, iterations = 2000) else
      pareto_front(m, k = 5, restarts = 30, gradient = "riemannian", step = "armijo", iterations = 5000)
    fronts[[length(fronts) + 1L]] <- cbind(dataset = nm, iteration = it,
                                           pf$table[, c("start", "total", "disparity", "max_excess", "dominated",
                                                        "converged")],
                                           standard_total = pf$standard[["total"]],
                                           standard_disparity = pf$standard[["disparity"]])
  }
}
fronts <- do.call(rbind, fronts)
utils::write.csv(fronts, file.path(out_dir, "fronts.csv"), row.names = FALSE)
}

# 4. downstream at k = 10 ------------------------------------------------------------------------
if ("downstream" %in% sections) {
svm_predict <- function(ztr, ytr, zte, n_max = 5000L) {
  sub <- if (nrow(ztr) > n_max) sample(nrow(ztr), n_max) else seq_len(nrow(ztr))
  fit <- e1071::svm(ztr[sub, , drop = FALSE], factor(ytr[sub]), kernel = "linear", cost = 1, scale = FALSE)
  as.numeric(as.character(stats::predict(fit, zte)))
}
down <- list()
for (nm in c("adult_sex", "credit_sex")) {
  d <- dat[[nm]]
  for (split in 1:5) {
    set.seed(split)
    tr <- sample(nrow(d$x), round(0.7 * nrow(d$x)))
    for (meth in c("standard", "pareto")) {
      f <- fair_pca(d$x[tr, ], d$group[tr], k = 10, method = meth)
      ztr <- predict(f, d$x[tr, ])
      zte <- predict(f, d$x[-tr, ])
      clfs <- list(logistic = function() fairproj:::fp_logistic_predict(ztr, d$y[tr], zte))
      if (requireNamespace("e1071", quietly = TRUE)) clfs$linear_svm <- function() svm_predict(ztr, d$y[tr], zte)
      for (cl in names(clfs)) {
        mt <- fairproj:::fp_downstream_metrics(clfs[[cl]](), d$y[-tr], d$group[-tr])
        down[[length(down) + 1L]] <- cbind(dataset = nm, split = split, method = meth, classifier = cl,
                                           mt$table, DEO = mt$deo)
      }
    }
    cat(sprintf("downstream %s split %d done\n", nm, split))
  }
}
down <- do.call(rbind, down)
utils::write.csv(down, file.path(out_dir, "downstream.csv"), row.names = FALSE)
print(stats::aggregate(DEO ~ dataset + method + classifier, data = down[down$group == "all", ], FUN = mean))
}
