# Coverage of fair_audit()'s bootstrap intervals (#34).
# Run: R_LIBS=.lib Rscript bench/audit-coverage.R   (FAIRPROJ_BENCH_NSIM sets the samples per
# size, default 500; FAIRPROJ_BENCH_SIZES the rows per group, default "30,50,100,300,1000,10000")
# Last measured in full (500 samples per size, sizes 30, 50, 100, 300, 1000, 10000; 62 min on a
# shared 2-core AMD EPYC machine, reference BLAS; a coverage carries a standard error of about
# 0.013; the whole table is bench/audit-coverage.csv). Coverage of the intervals the audit calls
# reliable (`reliable`), against the target 0.85-0.95 for groups of at least 50 rows:
#  * every group's loss: 0.86-0.91 at 300 rows per group and more for all three methods; at 50
#    and 100 rows mostly above the target (0.91-0.98: conservative), except standard PCA's loss
#    of group b (truth 0.14, the smaller loss), 0.66-0.68 at 50 and 100 rows (flagged in 46-59%).
#  * standard PCA's largest loss and loss gap: 0.86-0.97 at every size from 50 rows.
#  * min-max's largest loss 0.85-0.96, its price 0.81-1.00 (0.84 at 10,000 rows); its loss gap
#    (true value 0 to the solver's precision) is flagged in 100% of samples from 50 rows.
#  * mean matching's largest loss: 0.75-0.81 from 50 to 1,000 rows (flagged in 42-84%), 0.89
#    at 10,000; its loss gap (true 0.026, between equal-looking losses 0.63 and 0.66) 0.05-0.44
#    where reported, flagged in 70-96%. Where the two groups' losses are close, the largest loss
#    is a non-smooth function of the moments and the percentile bootstrap undercovers it.
#  At 30 rows per group every interval is flagged. The basic interval covered less in most
#  cells (0.04-0.89), so the audit reports percentile intervals.
#  Not met (#34): mean matching's largest loss and loss gap, and standard PCA's smaller group
#  loss at 50-100 rows, are reported as reliable with coverage below 0.85.
# Earlier (100 samples, sizes 30, 100, 1000, 10000, 31 min on a loaded machine): 0.82-0.97 at
# 100 rows per group, 0.81-0.88 at 1,000, 0.86-0.92 at 10,000.
#
# Two synthetic populations of 2 groups in d = 4 columns with different means and covariance
# spectra; the truth is what the audit gives on the populations' exact moments (each group's
# n times its covariance, with the sample's group sizes, so that the pooled matrix of the price
# weighs the groups alike). For each size, samples of that many rows per group are drawn, and
# fair_audit(k = 2, replicates = 100, level = 0.9) is run on each; the table gives, per method
# and quantity, how often the 90% interval covers the truth: `percentile` (what the audit
# reports), `basic` (the percentile interval reflected about the estimate, 2 est - q), both over
# all samples, then over the samples whose interval the audit calls reliable (`reliable` column:
# tidy(matrix = "intervals")'s verdict, which also flags a quantity at or near its bound 0) and
# the share of samples it flags (`flagged`).
suppressPackageStartupMessages(library(fairproj))
nsim <- as.integer(Sys.getenv("FAIRPROJ_BENCH_NSIM", "500"))
sizes <- as.numeric(strsplit(Sys.getenv("FAIRPROJ_BENCH_SIZES", "30,50,100,300,1000,10000"), ",")[[1L]])
level <- 0.9
k <- 2L
d <- 4L
set.seed(20261127)
Q <- qr.Q(qr(matrix(rnorm(d * d), d)))
pop <- list(a = list(mean = c(0, 0, 0, 0), sd = sqrt(c(4, 2, 1, 0.5))),
            b = list(mean = c(1, -0.5, 0.5, 0), sd = sqrt(c(3, 2.5, 0.7, 0.3))))
rot <- list(a = diag(d), b = Q)  # the groups' principal axes differ

pop_moments <- function(n) {
  S <- lapply(names(pop), function(g) n * rot[[g]] %*% diag(pop[[g]]$sd^2) %*% t(rot[[g]]))
  new_group_moments(n = c(a = n, b = n), mean = sapply(pop, `[[`, "mean"), scatter = S,
                    colnames = paste0("x", seq_len(d)))
}
draw <- function(n) {
  x <- do.call(rbind, lapply(names(pop), function(g) {
    z <- matrix(rnorm(n * d), n) %*% diag(pop[[g]]$sd) %*% t(rot[[g]])
    sweep(z, 2L, pop[[g]]$mean, `+`)
  }))
  list(x = x, g = rep(names(pop), each = n))
}
methods <- c("standard", "minmax", "mean")
truth <- fair_audit(pop_moments(1e6), k = k, methods = methods, replicates = 0)
tq <- c("max_loss", "loss_gap", "price")

rows <- list()
t0 <- proc.time()[["elapsed"]]
for (n in sizes) {
  hits <- list()
  for (s in seq_len(nsim)) {
    dr <- draw(n)
    a <- suppressWarnings(fair_audit(dr$x, dr$g, k = k, methods = methods, replicates = 100, level = level,
                                     seed = s, progress = FALSE))
    # the audit's own verdict per interval: tidy()'s `reliable`, which also flags a quantity at
    # or near its bound 0 (given no interval)
    iv <- tidy(a, matrix = "intervals")
    ok <- function(meth, term, group = NA_character_) {
      r <- iv$reliable[iv$method == meth & iv$k == k & iv$term == term & (is.na(group) | iv$group %in% group)]
      length(r) == 1L && isTRUE(r)
    }
    for (meth in methods) {
      t <- a$table[a$table$method == meth, ]
      tt <- truth$table[truth$table$method == meth, ]
      qs <- if (meth == "standard") setdiff(tq, "price") else tq
      for (q in qs) {
        est <- t[[q]]
        lo <- t[[paste0(q, "_low")]]
        hi <- t[[paste0(q, "_high")]]
        hits[[length(hits) + 1L]] <- data.frame(method = meth, quantity = q, truth = tt[[q]],
                                                pct = lo <= tt[[q]] & tt[[q]] <= hi,
                                                basic = 2 * est - hi <= tt[[q]] & tt[[q]] <= 2 * est - lo,
                                                reliable = ok(meth, q))
      }
      gt <- a$groups_table[a$groups_table$method == meth, ]
      tg <- truth$groups_table[truth$groups_table$method == meth, ]
      for (i in seq_len(nrow(gt))) {
        tr <- tg$loss[tg$group == gt$group[i]]
        hits[[length(hits) + 1L]] <- data.frame(method = meth, quantity = paste0("loss_", gt$group[i]), truth = tr,
                                                pct = gt$loss_low[i] <= tr & tr <= gt$loss_high[i],
                                                basic = 2 * gt$loss[i] - gt$loss_high[i] <= tr &
                                                  tr <= 2 * gt$loss[i] - gt$loss_low[i],
                                                reliable = ok(meth, "loss", gt$group[i]))
      }
    }
  }
  h <- do.call(rbind, hits)
  key <- interaction(h$method, h$quantity, drop = TRUE, lex.order = TRUE)
  for (kk in levels(key)) {
    z <- h[key == kk, ]
    rows[[length(rows) + 1L]] <- data.frame(n_per_group = n, method = z$method[1L], quantity = z$quantity[1L],
                                            truth = signif(z$truth[1L], 3), samples = nrow(z),
                                            percentile = round(mean(z$pct, na.rm = TRUE), 3),
                                            basic = round(mean(z$basic, na.rm = TRUE), 3),
                                            reliable = round(mean(z$pct[z$reliable %in% TRUE], na.rm = TRUE), 3),
                                            flagged = round(mean(!z$reliable %in% TRUE), 3))
  }
  cat(sprintf("n = %g per group done (%.0f s)\n", n, proc.time()[["elapsed"]] - t0))
}
tab <- do.call(rbind, rows)
print(tab, row.names = FALSE)
