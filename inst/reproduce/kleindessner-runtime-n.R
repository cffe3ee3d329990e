# Kleindessner et al. (2023), poster, middle panel of the comparison figure: running time against
# the number of training points, fair PCA (with its downstream classifier) against the
# reductions approach of Agarwal et al. (2018), each for all 11 values of its parameter.
#
#   FAIRPROJ_DATA=/path/to/data Rscript inst/reproduce/kleindessner-runtime-n.R [n] [runs] [glm_max]
#
#   n        R expression for the training sizes (default c(1000, 5000, 10000, 20000, 40000))
#   runs     number of random draws per size (default 1; seed 1111 * run as the authors' script)
#   glm_max  largest size at which "Reductions (glm)" runs (default 5000; its learner, glm's
#            QR-based IRLS, is the slowest part)
#
# Data: as in the authors' comparison_with_Agarwal scripts, UCI Adult (adult.data and
# adult.test together, 48842 rows; fairproj_data("adult_sex", encoding = "onehot"): 108 columns,
# protected attribute sex, label income > 50K); n rows drawn at random and standardised with
# their own means and standard deviations (constant columns dropped). The Lee et al. splits have
# only 1582 training rows, too few for this panel.
# Methods and what is timed (CPU time of this process, one after the other):
# * "Fair PCA" (k = d - 1) and "Fair PCA-S (0.5)" (k = floor(d / 4), L = floor(0.5 d)): for each
#   lambda in 0, 0.1, ..., 1 the fit of the trade-off representation (lambda^3) and of the
#   penalised logistic regression on it (kleindessner-tradeoff.R's classifier);
# * "Reductions (L2)" and "Reductions (glm)": for each eps of the authors' grid the
#   exponentiated-gradient reduction as fairlearn runs it (agarwal-reductions.R: at most 50
#   steps, stopping when the duality gap is below nu; each learner call a weighted logistic
#   regression); its steps and learner calls are stored too (metrics "iterations" and
#   "oracle_calls", per eps);
# * "Logistic regression (L2)": one fit of the classifier on the features (the unit of cost).
# Results: inst/reproduce/results/kleindessner-runtime-n.csv.xz (results-io.R convention; metric
# "seconds" per parameter value, columns `n`, `d`, `param_name`, `param`, split = run), written
# after each (n, run, method).
args <- commandArgs(trailingOnly = TRUE)
ns <- if (length(args) >= 1L && nzchar(args[1])) eval(parse(text = args[1])) else c(1000, 5000, 10000, 20000, 40000)
runs <- if (length(args) >= 2L && nzchar(args[2])) as.integer(args[2]) else 1L
glm_max <- if (length(args) >= 3L && nzchar(args[3])) as.numeric(args[3]) else 5000
source(file.path(local({f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(f[1]) else system.file("reproduce", package = "fairproj")}), "results-io.R"))
repro_setup(helpers = "agarwal-reductions.R")

a <- fairproj_data("adult_sex", encoding = "onehot", standardise = FALSE)
b <- fairproj_data("adult_sex", encoding = "onehot", standardise = FALSE, part = "test")
x_all <- rbind(a$x, b$x)
y_all <- c(a$y, b$y)
z_all <- c(as.character(a$group), as.character(b$group))
lambdas <- seq(0, 1, by = 0.1)
epsilons <- c(0.001, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2)
reg <- 0.01
# CPU seconds (user + system) of this process, as in kleindessner-tradeoff.R: on a shared machine
# the wall clock carries the load of whatever else runs, the CPU time does not (one thread: the
# reference BLAS)
secs <- function(expr) {
  gc()
  t0 <- proc.time()
  force(expr)
  dt <- proc.time() - t0
  dt[["user.self"]] + dt[["sys.self"]]
}

for (n in ns) for (run in seq_len(runs)) {
  set.seed(1111 * run)
  r <- sample(nrow(x_all), n)
  x <- x_all[r, , drop = FALSE]
  keep <- apply(x, 2, stats::sd) > 0
  x <- scale(x[, keep, drop = FALSE])
  y <- y_all[r]
  z <- z_all[r]
  d <- ncol(x)
  # seconds per parameter value; for the reductions also their steps and learner calls
  out <- function(method, param_name, param, value, steps = NULL, calls = NULL) {
    k <- length(param)
    repro_write(data.frame(dataset = "Adult (UCI, train + test)", method = method,
                           metric = rep(c("seconds", if (!is.null(steps)) c("iterations", "oracle_calls")), each = k),
                           split = run, value = c(value, steps, calls), published = NA_real_, n = n, d = d,
                           param_name = param_name, param = param),
                "kleindessner-runtime-n", replace_by = c("method", "n", "split"))
    cat(sprintf("n = %5d run %d  %-26s %8.2f s in all\n", n, run, method, sum(value)))
  }
  out("Logistic regression (L2)", "none", NA_real_, secs(repro_logistic(x, y, reg = reg)))
  fair <- list("Fair PCA" = function(l) fair_pca(x, z, d - 1L, method = "mean", center = FALSE, tradeoff = l,
                                                 tradeoff_power = 3),
               "Fair PCA-S (0.5)" = function(l) fair_pca(x, z, d %/% 4L, method = "mean", center = FALSE,
                                                         equalize_cov = 0.5, tradeoff = l, tradeoff_power = 3))
  for (nm in names(fair)) {
    out(nm, "lambda", lambdas, vapply(lambdas, function(l) secs({
      f <- fair[[nm]](l)
      repro_logistic(predict(f, x), y, reg = reg)
    }), numeric(1)))
  }
  for (learner in c("l2", "glm")) {
    if (learner == "glm" && n > glm_max) next
    nm <- sprintf("Reductions (%s)", if (learner == "l2") "L2" else "glm")
    fits <- lapply(epsilons, function(e) {
      f <- NULL
      s <- secs(f <- agarwal_eg(x, y, z, e, learner = learner, reg = reg))
      c(seconds = s, iterations = f$iterations, oracle_calls = f$oracle_calls)
    })
    out(nm, "eps", epsilons, vapply(fits, `[[`, numeric(1), "seconds"),
        steps = vapply(fits, `[[`, numeric(1), "iterations"), calls = vapply(fits, `[[`, numeric(1), "oracle_calls"))
  }
}
