# Kleindessner et al. (2023), poster, left panel of the comparison figure: accuracy against
# demographic-parity violation of fair PCA's variants with a downstream classifier, against the
# reductions approach of Agarwal et al. (2018) at several constraint levels, on Lee et al.'s ten
# Adult splits (lee/Adult/{train,test}_{0..9}.csv.xz: 1582 training and 679 test rows, 97
# standardised features including sex, label income > 50K, protected attribute sex).
#
#   FAIRPROJ_DATA=/path/to/data Rscript inst/reproduce/kleindessner-tradeoff.R [splits] [methods]
#
#   splits   R expression for the split indices (default 0:9; integer(0) only recomputes the
#            mean and sd rows from the stored splits)
#   methods  regular expression selecting methods (default: all)
#
# Protocol (the settings of the authors' comparison_with_Agarwal scripts, on these splits): every
# method is fitted on the training split and evaluated on the held-out test split.
# * Fair PCA's trade-off representation [U_fair' x, lambda^3 U_std' x] (the authors' code's cube;
#   lambda in 0, 0.1, ..., 1) for: "Fair PCA", k = d - 1; "Fair PCA-S (0.5)", k = floor(d / 4)
#   and L = floor(0.5 d); "Fair PCA-S (0.85)", k = floor(d / 2) and L = floor(0.85 d). (Fair Kernel PCA
#   is left out: its scores, on the scale of the RBF feature space, are so small that the
#   penalised classifier predicts the majority class at every lambda.) Downstream classifier: logistic
#   regression with penalty 0.01 |w|^2 on the mean log-loss (scikit-learn's
#   LogisticRegression(C = 1 / (2 n 0.01)), the authors' setting), repro_logistic() of
#   agarwal-reductions.R. The penalty is what makes lambda matter: an unpenalised model is
#   invariant to rescaling the standard-PCA block.
# * "Reductions (L2)": Agarwal et al.'s exponentiated gradient for demographic parity
#   (agarwal-reductions.R) with the same penalised logistic regression as learner; "Reductions
#   (glm)": the same with unpenalised logistic regression (stats::glm.fit); eps in 0.001,
#   0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2 (the authors' grid).
# * References (one point each): "Logistic regression (L2)" and "Logistic regression (glm)" on
#   the 97 features, "PCA" (k = d - 1) with the penalised classifier.
# Metrics: test "accuracy" and "dp_gap" (largest minus smallest group rate of predicting 1;
# the randomised classifiers of the reductions are evaluated by their expected predictions),
# the same on the training split ("train_accuracy", "train_dp_gap"), and "seconds" (CPU time,
# user + system, of the fit of the representation and of the classifier, or of the reduction); for the reductions also
# "iterations" (steps run), "oracle_calls" (learner fits) and "converged" (1 when the duality
# gap fell below nu). Columns `param_name` ("lambda",
# "eps" or "none") and `param`.
#
# Results: inst/reproduce/results/kleindessner-tradeoff.csv.xz (results-io.R convention), one
# row per split x method x param x metric, written as each (split, method) finishes, and the
# mean and sample sd (divisor n - 1) over the splits stored so far (split "mean" / "sd",
# `n_splits`). The poster prints no numbers for this panel (published = NA).
args <- commandArgs(trailingOnly = TRUE)
splits <- if (length(args) >= 1L && nzchar(args[1])) eval(parse(text = args[1])) else 0:9
pick <- if (length(args) >= 2L && nzchar(args[2])) args[2] else "."
source(file.path(local({f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(f[1]) else system.file("reproduce", package = "fairproj")}), "results-io.R"))
repro_setup(data = FALSE, helpers = "agarwal-reductions.R")  # the data check below names lee/Adult
data_dir <- Sys.getenv("FAIRPROJ_DATA")
if (!nzchar(data_dir) || !dir.exists(file.path(data_dir, "lee", "Adult"))) {
  stop("set FAIRPROJ_DATA to the data folder holding lee/Adult")
}
read_split <- function(part, i) {
  m <- as.matrix(utils::read.csv(xzfile(file.path(data_dir, "lee", "Adult", sprintf("%s_%d.csv.xz", part, i))),
                                 header = FALSE))
  d <- ncol(m) - 2L
  list(x = m[, seq_len(d)], y = m[, d + 1L], z = m[, d + 2L])
}

lambdas <- seq(0, 1, by = 0.1)
epsilons <- c(0.001, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2)
reg <- 0.01
# representation fitters: function(x, z, lambda) returning a fit whose predict() gives the
# trade-off representation
representations <- function(d) list(
  "Fair PCA" = function(x, z, l) fair_pca(x, z, d - 1L, method = "mean", center = FALSE, tradeoff = l,
                                          tradeoff_power = 3),
  "Fair PCA-S (0.5)" = function(x, z, l) fair_pca(x, z, d %/% 4L, method = "mean", center = FALSE, equalize_cov = 0.5,
                                                  tradeoff = l, tradeoff_power = 3),
  "Fair PCA-S (0.85)" = function(x, z, l) fair_pca(x, z, d %/% 2L, method = "mean", center = FALSE,
                                                   equalize_cov = 0.85, tradeoff = l, tradeoff_power = 3))
# CPU seconds (user + system) of this process: on a shared machine the wall clock carries the
# load of whatever else runs, the CPU time does not (one thread: the reference BLAS)
timed <- function(expr) {
  t0 <- proc.time()
  v <- expr
  dt <- proc.time() - t0
  list(value = v, seconds = dt[["user.self"]] + dt[["sys.self"]])
}
# `extra`: further named metrics (the reductions' steps, learner calls and convergence)
rows_of <- function(i, method, param_name, param, te_m, tr_m, seconds, extra = numeric(0)) {
  data.frame(dataset = "Adult (Lee et al. splits)", method = method,
             metric = c("accuracy", "dp_gap", "train_accuracy", "train_dp_gap", "seconds", names(extra)), split = i,
             value = c(te_m[["accuracy"]], te_m[["dp_gap"]], tr_m[["accuracy"]], tr_m[["dp_gap"]], seconds, unname(extra)),
             published = NA_real_, param_name = param_name, param = param, n_splits = NA_integer_)
}
# a deterministic classifier on a representation: penalised logistic regression
classify <- function(s_tr, s_te, tr, te, r = reg) {
  b <- repro_logistic(s_tr, tr$y, reg = r)
  list(tr = expected_metrics(repro_logistic_predict(b, s_tr), tr$y, tr$z),
       te = expected_metrics(repro_logistic_predict(b, s_te), te$y, te$z))
}
# mean and sd over the stored splits of `method` (param NA for the one-point references)
aggregate_method <- function(method) {
  tab <- repro_read("kleindessner-tradeoff")
  r <- tab[tab$method == method & !tab$split %in% c("mean", "sd"), ]
  key <- unique(r[c("dataset", "method", "metric", "param_name", "param")])
  agg <- do.call(rbind, lapply(seq_len(nrow(key)), function(j) {
    v <- r$value[r$metric == key$metric[j] & r$param %in% key$param[j]]
    data.frame(dataset = key$dataset[j], method = key$method[j], metric = key$metric[j], split = c("mean", "sd"),
               value = c(mean(v), if (length(v) > 1L) stats::sd(v) else NA_real_), published = NA_real_,
               param_name = key$param_name[j], param = key$param[j], n_splits = length(v))
  }))
  repro_write(agg, "kleindessner-tradeoff", replace_by = c("method", "split"), sd_divisor = "n-1")
}
store <- function(rows) {
  repro_write(rows, "kleindessner-tradeoff", replace_by = c("method", "split"), sd_divisor = "n-1")
  aggregate_method(rows$method[1])
}

for (i in splits) {
  tr <- read_split("train", i)
  te <- read_split("test", i)
  d <- ncol(tr$x)
  if (grepl(pick, "Logistic regression (L2)")) {
    t <- timed(classify(tr$x, te$x, tr, te))
    store(rows_of(i, "Logistic regression (L2)", "none", NA_real_, t$value$te, t$value$tr, t$seconds))
  }
  if (grepl(pick, "Logistic regression (glm)")) {
    t <- timed(classify(tr$x, te$x, tr, te, r = 0))
    store(rows_of(i, "Logistic regression (glm)", "none", NA_real_, t$value$te, t$value$tr, t$seconds))
  }
  if (grepl(pick, "PCA")) {
    t <- timed({
      f <- fair_pca(tr$x, tr$z, d - 1L, method = "standard", center = FALSE)
      classify(predict(f, tr$x), predict(f, te$x), tr, te)
    })
    store(rows_of(i, "PCA", "none", NA_real_, t$value$te, t$value$tr, t$seconds))
  }
  reps <- representations(d)
  for (nm in grep(pick, names(reps), value = TRUE)) {
    rows <- do.call(rbind, lapply(lambdas, function(l) {
      t <- timed({
        f <- reps[[nm]](tr$x, tr$z, l)
        classify(predict(f, tr$x), predict(f, te$x), tr, te)
      })
      rows_of(i, nm, "lambda", l, t$value$te, t$value$tr, t$seconds)
    }))
    store(rows)
    cat(sprintf("split %d  %-18s done\n", i, nm))
  }
  for (learner in c("l2", "glm")) {
    nm <- sprintf("Reductions (%s)", if (learner == "l2") "L2" else "glm")
    if (!grepl(pick, nm)) next
    rows <- do.call(rbind, lapply(epsilons, function(e) {
      t <- timed(agarwal_eg(tr$x, tr$y, tr$z, e, learner = learner, reg = reg))
      f <- t$value
      rows_of(i, nm, "eps", e, expected_metrics(agarwal_predict(f, te$x), te$y, te$z),
              expected_metrics(agarwal_predict(f, tr$x), tr$y, tr$z), t$seconds,
              c(iterations = f$iterations, oracle_calls = f$oracle_calls, converged = as.numeric(f$converged)))
    }))
    store(rows)
    cat(sprintf("split %d  %-18s done\n", i, nm))
  }
}
# the aggregates of every stored method (also what a run with no splits, "integer(0)", does)
stored <- repro_read("kleindessner-tradeoff")
if (!is.null(stored)) for (m in unique(stored$method)) if (grepl(pick, m)) aggregate_method(m)
