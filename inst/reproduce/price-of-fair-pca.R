# Full reproduction of Samadi et al. (2018), "The price of fair PCA: one extra dimension",
# Figures 1, 3 and 4 and the exact-vs-MW comparison, on full-resolution LFW (1764 pixels,
# k = 1..20) and credit (k = 1..21). Needs the data folder in FAIRPROJ_DATA. Writes its
# figures to a PDF in tempdir() (or to the file given as the first argument) and prints the
# tables. Takes a few minutes (the LFW moments dominate).
library(fairproj)
data_dir <- Sys.getenv("FAIRPROJ_DATA")
if (!nzchar(data_dir)) stop("set FAIRPROJ_DATA to the data folder")
args <- commandArgs(TRUE)
pdf_file <- if (length(args)) args[1] else file.path(tempdir(), "price-of-fair-pca.pdf")

credit_raw <- read.csv(xzfile(file.path(data_dir, "credit", "default_degree.csv.xz")), skip = 1)
credit_x <- as.matrix(credit_raw[, match("EDUCATION", names(credit_raw)) + 1:21])
credit_g <- factor(ifelse(credit_raw$EDUCATION %in% c(1, 2), "higher", "lower"), levels = c("lower", "higher"))
credit_m <- group_moments(credit_x, credit_g)

con <- xzfile(file.path(data_dir, "lfw", "lfw_1764.csv.xz"))
lfw <- matrix(scan(con, what = integer(), sep = ",", quiet = TRUE), ncol = 1764, byrow = TRUE) / 3 / 255
close(con)
sex <- scan(file.path(data_dir, "lfw", "sex.txt"), quiet = TRUE)
lfw_g <- factor(ifelse(sex == 0, "female", "male"), levels = c("female", "male"))
lfw_m <- group_moments(lfw, lfw_g)

pca_errors <- function(m, ks) {
  t(vapply(ks, function(k) fair_pca(m, k = k, keep_moments = FALSE, method = "standard")$group_stats$error, numeric(2)))
}
sweep_k <- function(m, ks, scale.) {
  do.call(rbind, lapply(ks, function(k) {
    t <- system.time(f <- fair_pca(m, k = k, method = "minmax", scale. = scale., keep_moments = FALSE))[["elapsed"]]
    data.frame(k = k, group = f$group_stats$group, fair_error = f$group_stats$error,
               pca_error = f$group_stats_standard$error, fair_loss = f$group_stats$loss,
               pca_loss = f$group_stats_standard$loss, rank = f$rank, rel_gap = f$duality_gap / f$objective,
               eigensolves = f$eigensolves, seconds = t)
  }))
}

# Figure 1
ks_lfw <- 1:20
err_all <- pca_errors(lfw_m, ks_lfw)
set.seed(1)
err_eq <- Reduce(`+`, lapply(1:20, function(i) {
  rows <- c(sample(which(lfw_g == "female"), 500), sample(which(lfw_g == "male"), 500))
  pca_errors(group_moments(lfw[rows, ], lfw_g[rows]), ks_lfw)
})) / 20
cat("Figure 1: women's excess PCA error (%), all faces and equal samples of 1000:\n")
print(rbind(k = ks_lfw, all = round(100 * (err_all[, 1] / err_all[, 2] - 1), 1),
            equal = round(100 * (err_eq[, 1] / err_eq[, 2] - 1), 1)))

# Figures 3 and 4
lfw_tab <- sweep_k(lfw_m, ks_lfw, FALSE)
credit_tab <- sweep_k(credit_m, 1:21, TRUE)
cat("\nLFW (full resolution):\n"); print(lfw_tab, digits = 4, row.names = FALSE)
cat("\nCredit:\n"); print(credit_tab, digits = 4, row.names = FALSE)

pdf(pdf_file, width = 10, height = 7)
op <- par(mfrow = c(2, 2))
matplot(ks_lfw, err_all, type = "b", pch = 19, lty = 1, col = c(2, 4), xlab = "dimensions", ylab = "average error", main = "Fig. 1: PCA, all faces")
matplot(ks_lfw, err_eq, type = "b", pch = 19, lty = 1, col = c(2, 4), xlab = "dimensions", ylab = "average error", main = "Fig. 1: PCA, equal samples of 1000")
for (tab in list(lfw_tab, credit_tab)) {
  lev <- unique(tab$group)
  ks <- unique(tab$k)
  pl <- sapply(lev, function(l) tab$pca_loss[tab$group == l])
  matplot(ks, cbind(pl, tab$fair_loss[tab$group == lev[1]]), type = "b", pch = c(1, 1, 19), lty = c(2, 2, 1),
          col = c(2, 4, 1), xlab = "dimensions", ylab = "average loss", main = paste("Fig. 4:", paste(lev, collapse = " / ")))
}
par(op)
dev.off()
cat("\nFigures written to", pdf_file, "\n")

# exact vs MW at the paper's settings
compare <- function(m, k, scale., eta, iterations) {
  run <- function(...) {
    t <- system.time(f <- fair_pca(m, k = k, method = "minmax", scale. = scale., keep_moments = FALSE, ...))[["elapsed"]]
    data.frame(objective = f$objective, loss_gap = abs(diff(f$group_stats$loss)), rank = f$rank, seconds = t)
  }
  cbind(k = k, solver = c("exact", "MW + sqrt (public code)", "MW + LP + sqrt (paper)"),
        rbind(run(), run(solver = "mw", eta = eta, iterations = iterations, lp = FALSE),
              run(solver = "mw", eta = eta, iterations = iterations, lp = TRUE)))
}
tab_mw <- rbind(
  cbind(data = "credit", do.call(rbind, lapply(c(1, 5, 10, 15, 20), function(k) compare(credit_m, k, TRUE, 1, 10)))),
  cbind(data = "lfw", do.call(rbind, lapply(c(1, 5, 10, 15, 20), function(k) compare(lfw_m, k, FALSE, 20 / k, 5)))))
cat("\nExact vs MW:\n")
print(tab_mw, digits = 4, row.names = FALSE)

fem <- lfw_tab[lfw_tab$group == "female", ]
mal <- lfw_tab[lfw_tab$group == "male", ]
lo <- credit_tab[credit_tab$group == "lower", ]
hi <- credit_tab[credit_tab$group == "higher", ]
between <- function(a, b, f) all(f >= pmin(a, b) - 1e-10 & f <= pmax(a, b) + 1e-10)
cat("\nClaims:\n")
print(data.frame(claim = c("PCA error higher for women (all faces)", "... equal samples", "PCA loss higher for women",
                           "credit errors 0 at d = 21", "fair loss between PCA losses (LFW)",
                           "fair loss between PCA losses (credit, k < 21)", "all fair solutions of rank k"),
                 holds = c(all(err_all[, 1] > err_all[, 2]), all(err_eq[, 1] > err_eq[, 2]), all(fem$pca_loss > mal$pca_loss),
                           all(abs(credit_tab$fair_error[credit_tab$k == 21]) < 1e-8),
                           between(fem$pca_loss, mal$pca_loss, fem$fair_loss),
                           between(lo$pca_loss[-21], hi$pca_loss[-21], lo$fair_loss[-21]),
                           all(c(lfw_tab$rank, credit_tab$rank) == c(lfw_tab$k, credit_tab$k)))))
