# Full reproduction of Samadi et al. (2018), "The price of fair PCA: one extra dimension":
# Figures 1, 3 and 4 and the exact solver against the paper's multiplicative weights (MW), on
# full-resolution LFW (13232 faces of 49 x 36 = 1764 pixels, k = 1..20) and credit (21
# standardised columns, k = 1..21).
#
#   FAIRPROJ_DATA=/path/to/data Rscript inst/reproduce/price-of-fair-pca.R [parts] [datasets]
#
#   parts     comma-separated among figure1, sweep (default: both)
#   datasets  comma-separated among lfw, credit for the sweep (default: both)
#
# Results (results-io.R convention, split "0": one deterministic run; `published` NA: the paper
# prints no numbers, only figures):
# * samadi-figure1.csv.xz: standard PCA's average reconstruction error per gender on LFW, columns
#   `k`, `group`; method "PCA (all faces)" and "PCA (equal samples)": 20 samples of 500 women and
#   500 men (split = sample 0..19, R's generator from set.seed(1)) and their mean (split "mean").
# * samadi-sweep.csv.xz: per dataset and k (columns `k`, `group`, and `eta`, `iterations` for MW):
#   - method "PCA" and "exact" (fair_pca(method = "minmax"), the certified optimum), "MW" (the
#     authors' public code: MW then the square-root map, lp = FALSE) and "MW+LP" (the paper's
#     Algorithm 1: MW, LP vertex rounding, square-root map); per group (`group` = the group):
#     metrics "error" (average reconstruction error about the group's own mean) and "loss"
#     (marginal loss: error minus the group's own best rank-k error);
#   - per method (`group` "all"): "objective" (largest marginal loss), "rank" of the output and
#     "extra_dims" (rank - k), "seconds" (fit from the group moments; PCA not timed);
#   - "exact" also: "lower_bound" (the dual value, a certified lower bound on the optimum of the
#     semidefinite relaxation, hence on every rank-k solution), "duality_gap" (objective minus
#     the lower bound), "converged", "eigensolves", "weight" (the optimal dual weight of the
#     first group).
#   MW runs at the authors' settings (eta = 1, 10 iterations on credit; eta = 20 / k, 5
#   iterations on LFW), keeps the better of the average and last iterate (the paper's practice)
#   and returns MW's own output (fallback = FALSE), which is what the table compares.
# Rows are written as each (dataset, k) finishes; an interrupted run loses nothing and a rerun
# replaces the rows it recomputes. Takes about half an hour on a shared 2-core machine.
source(file.path(local({f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(f[1]) else system.file("reproduce", package = "fairproj")}), "results-io.R"))
repro_setup()
args <- commandArgs(trailingOnly = TRUE)
parts <- if (length(args) >= 1L && nzchar(args[1])) strsplit(args[1], ",")[[1]] else c("figure1", "sweep")
sets <- if (length(args) >= 2L && nzchar(args[2])) strsplit(args[2], ",")[[1]] else c("lfw", "credit")
data_dir <- Sys.getenv("FAIRPROJ_DATA")
if (!nzchar(data_dir)) stop("set FAIRPROJ_DATA to the data folder")

read_lfw <- function() {
  con <- xzfile(file.path(data_dir, "lfw", "lfw_1764.csv.xz"))
  on.exit(close(con))
  x <- matrix(scan(con, what = integer(), sep = ",", quiet = TRUE), ncol = 1764, byrow = TRUE) / 3 / 255
  sex <- scan(file.path(data_dir, "lfw", "sex.txt"), quiet = TRUE)
  list(x = x, g = factor(ifelse(sex == 0, "female", "male"), levels = c("female", "male")))
}
read_credit <- function() {
  raw <- utils::read.csv(xzfile(file.path(data_dir, "credit", "default_degree.csv.xz")), skip = 1)
  x <- as.matrix(raw[, match("EDUCATION", names(raw)) + 1:21])
  list(x = x, g = factor(ifelse(raw$EDUCATION %in% c(1, 2), "higher", "lower"), levels = c("lower", "higher")))
}
row_df <- function(dataset, method, metric, k, group, value, ...) {
  data.frame(dataset = dataset, method = method, metric = metric, split = "0", value = as.numeric(value),
             published = NA_real_, k = k, group = group, ..., stringsAsFactors = FALSE)
}
per_group <- function(dataset, method, k, gs) {
  rbind(row_df(dataset, method, "error", k, as.character(gs$group), gs$error),
        row_df(dataset, method, "loss", k, as.character(gs$group), gs$loss))
}
timed <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  v <- expr
  list(value = v, seconds = proc.time()[["elapsed"]] - t0)
}

lfw <- if ("lfw" %in% sets || "figure1" %in% parts) read_lfw()

# Figure 1: standard PCA's error per gender, all faces and equal-gender samples of 1000
if ("figure1" %in% parts) {
  pca_errors <- function(m, k) fair_pca(m, k = k, method = "standard", keep_moments = FALSE)$group_stats
  m_all <- group_moments(lfw$x, lfw$g)
  rows <- do.call(rbind, lapply(1:20, function(k) {
    gs <- pca_errors(m_all, k)
    row_df("lfw", "PCA (all faces)", "error", k, as.character(gs$group), gs$error)
  }))
  repro_write(rows, "samadi-figure1", replace_by = c("dataset", "method"))
  set.seed(1)
  samples <- lapply(1:20, function(i) c(sample(which(lfw$g == "female"), 500), sample(which(lfw$g == "male"), 500)))
  rows <- do.call(rbind, lapply(seq_along(samples), function(i) {
    r <- samples[[i]]
    m <- group_moments(lfw$x[r, ], lfw$g[r])
    out <- do.call(rbind, lapply(1:20, function(k) {
      gs <- pca_errors(m, k)
      row_df("lfw", "PCA (equal samples)", "error", k, as.character(gs$group), gs$error)
    }))
    out$split <- as.character(i - 1L)
    cat(sprintf("figure 1: sample %d of 20\n", i))
    out
  }))
  mean_rows <- stats::aggregate(value ~ dataset + method + metric + k + group, data = rows, FUN = mean)
  mean_rows$split <- "mean"
  mean_rows$published <- NA_real_
  repro_write(rbind(rows, mean_rows[names(rows)]), "samadi-figure1", replace_by = c("dataset", "method", "split"))
  cat("figure 1 stored\n")
}

# Figures 3 and 4 and the solvers, per k
sweep_k <- function(dataset, m, ks, scale., eta, iterations) {
  for (k in ks) {
    ex <- timed(fair_pca(m, k = k, method = "minmax", scale. = scale., keep_moments = FALSE))
    f <- ex$value
    rows <- rbind(
      per_group(dataset, "PCA", k, f$group_stats_standard),
      row_df(dataset, "PCA", "objective", k, "all", max(f$group_stats_standard$loss)),
      per_group(dataset, "exact", k, f$group_stats),
      row_df(dataset, "exact", c("objective", "lower_bound", "duality_gap", "converged", "rank", "extra_dims",
                                 "eigensolves", "weight", "seconds"), k, "all",
             c(f$objective, f$lower_bound, f$duality_gap, f$converged, f$rank, f$rank - k, f$eigensolves,
               f$weights[1], ex$seconds)))
    rows$eta <- NA_real_
    rows$iterations <- NA_integer_
    for (lp in c(FALSE, TRUE)) {
      # MW at the paper's settings stops short of the optimum: its convergence warning is expected
      mw <- timed(suppressWarnings(fair_pca(m, k = k, method = "minmax", scale. = scale., keep_moments = FALSE,
                                            solver = "mw", eta = eta(k), eta_units = "data", iterations = iterations, lp = lp,
                                            fallback = FALSE), classes = "fairproj_convergence_warning"))
      g <- mw$value
      meth <- if (lp) "MW+LP" else "MW"
      r <- rbind(per_group(dataset, meth, k, g$group_stats),
                 row_df(dataset, meth, c("objective", "rank", "extra_dims", "seconds"), k, "all",
                        c(g$objective, g$rank, g$rank - k, mw$seconds)))
      r$eta <- eta(k)
      r$iterations <- iterations
      rows <- rbind(rows, r)
    }
    repro_write(rows, "samadi-sweep", replace_by = c("dataset", "k"))
    cat(sprintf("%-6s k = %2d  exact %.6g (gap %.1e, rank %d, %.1f s)  MW %.6g  MW+LP %.6g\n", dataset, k, f$objective,
                f$duality_gap, f$rank, ex$seconds, rows$value[rows$method == "MW" & rows$metric == "objective"],
                rows$value[rows$method == "MW+LP" & rows$metric == "objective"]))
  }
}
if ("sweep" %in% parts) {
  if ("credit" %in% sets) {
    cr <- read_credit()
    sweep_k("credit", group_moments(cr$x, cr$g), 1:21, TRUE, function(k) 1, 10L)
  }
  if ("lfw" %in% sets) sweep_k("lfw", group_moments(lfw$x, lfw$g), 1:20, FALSE, function(k) 20 / k, 5L)
}
