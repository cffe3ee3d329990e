# make demo: compares min-max fair PCA with standard PCA, then fits every fair method available on a real health dataset that
# ships with R (survival::pbc, primary biliary cholangitis; groups = sex), prints the
# per-group tables and writes PNG plots into the folder given as argument.
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args)) args[1] else "demo-output"
dir.create(out, showWarnings = FALSE, recursive = TRUE)
suppressPackageStartupMessages(library(fairproj))

data("pbc", package = "survival", envir = environment())
vars <- c("age", "bili", "chol", "albumin", "copper", "alk.phos", "ast", "trig", "platelet", "protime")
d <- pbc[complete.cases(pbc[, c(vars, "sex")]), c(vars, "sex")]
cat(sprintf("survival::pbc: %d patients with complete labs, %d features, groups = sex (%s)\n\n",
            nrow(d), length(vars), paste(names(table(d$sex)), table(d$sex), sep = ": ", collapse = ", ")))
k <- 3

# The headline: min-max fair PCA (the default method) against standard PCA.
fair <- fair_pca(~ ., data = d, group = sex, k = k, scale. = TRUE)
std <- fair_pca(~ ., data = d, group = sex, k = k, scale. = TRUE, method = "standard")
cat("== Min-max fair PCA (default) vs standard PCA, k = 3, standardised features\n")
cmp <- data.frame(group = fair$group_stats$group, n = fair$group_stats$n,
                  error_standard = std$group_stats$error, error_fair = fair$group_stats$error,
                  loss_standard = std$group_stats$loss, loss_fair = fair$group_stats$loss)
print(cmp, digits = 4, row.names = FALSE)
cat(sprintf("variance kept: standard %.1f%%, fair %.1f%%\n",
            100 * glance(std)$var_explained, 100 * glance(fair)$var_explained))
cat(paste("A group's error is the average squared distance of its rows to their projection;",
          "its marginal loss is that error minus the smallest error any rank-k projection could",
          "give that group alone.\nStandard PCA minimises the total error; min-max fair PCA makes",
          "the largest marginal loss as small as possible.\n\n"))
png(file.path(out, "scores-fair.png"), width = 800, height = 600)
plot(fair, "scores")
invisible(dev.off())
png(file.path(out, "loss-fair-vs-standard.png"), width = 800, height = 600)
suppressMessages(plot(fair, "loss", kmax = 8))
invisible(dev.off())
if (requireNamespace("ggplot2", quietly = TRUE)) {
  ggplot2::ggsave(file.path(out, "autoplot-scores.png"), ggplot2::autoplot(fair), width = 7, height = 5, dpi = 100)
}

methods <- fairproj_methods("pca")
rows <- list()
for (meth in methods) {
  t0 <- proc.time()[["elapsed"]]
  fit <- tryCatch(fair_pca(~ ., data = d, group = sex, k = k, method = meth, scale. = TRUE),
                  error = function(e) { cat(sprintf("method %s: %s\n", meth, conditionMessage(e))); NULL })
  if (is.null(fit)) next
  el <- proc.time()[["elapsed"]] - t0
  cat(sprintf("== method \"%s\" (%.2f s)\n", meth, el))
  print(summary(fit)$groups, digits = 4, row.names = FALSE)
  cat("\n")
  gs <- fit$group_stats
  rows[[meth]] <- data.frame(method = meth, max_loss = max(gs$loss), loss_gap = diff(range(gs$loss)),
                             error_gap = diff(range(gs$error)),
                             total_error = sum(gs$n * gs$error) / sum(gs$n), seconds = el)
  png(file.path(out, sprintf("errors-%s.png", meth)), width = 800, height = 600)
  suppressMessages(plot(fit, "errors", kmax = 8))
  dev.off()
  if (meth == "standard") {
    png(file.path(out, "scree.png"), width = 800, height = 600)
    plot(fit, "scree")
    dev.off()
    png(file.path(out, "biplot.png"), width = 800, height = 800)
    biplot(fit)
    dev.off()
  }
}
tab <- do.call(rbind, rows)
cat("== Comparison (k = 3, standardised features, losses are per-patient averages)\n")
print(tab, digits = 4, row.names = FALSE)
utils::write.csv(tab, file.path(out, "comparison.csv"), row.names = FALSE)
cat(sprintf("\nPlots and table written to %s/\n", out))
