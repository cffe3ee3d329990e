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
scenarios <- strsplit(Sys.getenv("FAIRPROJ_BENCH_SCENARIOS", "distinct,alike"), ",")[[1L]]
out_csv <- Sys.getenv("FAIRPROJ_BENCH_OUT", "")
level <- 0.9
k <- 2L
d <- 4L
set.seed(20261127)
Q <- qr.Q(qr(matrix(rnorm(d * d), d)))
pops <- list(
  # the groups' principal axes, spectra and means differ
  distinct = list(a = list(mean = c(0, 0, 0, 0), sd = sqrt(c(4, 2, 1, 0.5)), rot = diag(d)),
                  b = list(mean = c(1, -0.5, 0.5, 0), sd = sqrt(c(3, 2.5, 0.7, 0.3)), rot = Q)),
  # both groups from one population: every loss, gap and price is 0
  alike = list(a = list(mean = c(0, 0, 0, 0), sd = sqrt(c(4, 2, 1, 0.5)), rot = diag(d)),
               b = list(mean = c(0, 0, 0, 0), sd = sqrt(c(4, 2, 1, 0.5)), rot = diag(d))))

pop_moments <- function(pop, n) {
  S <- lapply(pop, function(p) n * p$rot %*% diag(p$sd^2) %*% t(p$rot))
  new_group_moments(n = c(a = n, b = n), mean = sapply(pop, `[[`, "mean"), scatter = S,
                    colnames = paste0("x", seq_len(d)))
}
draw <- function(pop, n) {
  x <- do.call(rbind, lapply(pop, function(p) {
    z <- matrix(rnorm(n * d), n) %*% diag(p$sd) %*% t(p$rot)
    sweep(z, 2L, p$mean, `+`)
  }))
  list(x = x, g = rep(names(pop), each = n))
}
methods <- c("standard", "minmax", "mean")

rows <- list()
t0 <- proc.time()[["elapsed"]]
for (sc in scenarios) {
  pop <- pops[[sc]]
  truth <- fair_audit(pop_moments(pop, 1e6), k = k, methods = methods, replicates = 0)
  # a true value within 1e-8 of the largest error is 0 (min-max's loss gap, the solver's
  # tolerance; every loss of the alike groups, rounding)
  zero <- 1e-8 * max(truth$groups_table$error)
  snap <- function(v) ifelse(abs(v) < zero, 0, v)
  for (n in sizes) {
    hits <- list()
    for (s in seq_len(nsim)) {
      dr <- draw(pop, n)
      a <- suppressWarnings(fair_audit(dr$x, dr$g, k = k, methods = methods, replicates = 100, level = level,
                                       seed = s, progress = FALSE))
      iv <- as.data.frame(tidy(a, matrix = "intervals"))
      for (meth in methods) {
        tt <- truth$table[truth$table$method == meth, ]
        tg <- truth$groups_table[truth$groups_table$method == meth, ]
        qs <- list(max_loss = tt$max_loss, loss_gap = tt$loss_gap, loss_a = tg$loss[tg$group == "a"],
                   loss_b = tg$loss[tg$group == "b"])
        if (meth != "standard") qs$price <- tt$price
        for (q in names(qs)) {
          term <- if (startsWith(q, "loss_") && q != "loss_gap") "loss" else q
          grp <- if (term == "loss") sub("loss_", "", q) else NA_character_
          r <- iv[iv$method == meth & iv$k == k & iv$term == term & (is.na(grp) | iv$group %in% grp), ]
          tv <- snap(qs[[q]])
          hits[[length(hits) + 1L]] <- data.frame(method = meth, quantity = q, truth = tv,
                                                  cover = r$conf.low <= tv & tv <= r$conf.high,
                                                  reliable = isTRUE(r$reliable), from_zero = r$conf.low %in% 0)
        }
      }
    }
    h <- do.call(rbind, hits)
    key <- interaction(h$method, h$quantity, drop = TRUE, lex.order = TRUE)
    for (kk in levels(key)) {
      z <- h[key == kk, ]
      rows[[length(rows) + 1L]] <- data.frame(scenario = sc, n_per_group = n, method = z$method[1L],
                                              quantity = z$quantity[1L], truth = signif(z$truth[1L], 3),
                                              samples = nrow(z), coverage = round(mean(z$cover, na.rm = TRUE), 3),
                                              reliable = round(mean(z$cover[z$reliable], na.rm = TRUE), 3),
                                              flagged = round(mean(!z$reliable), 3),
                                              from_zero = round(mean(z$from_zero), 3))
    }
    cat(sprintf("%s, n = %g per group done (%.0f s)\n", sc, n, proc.time()[["elapsed"]] - t0))
  }
}
tab <- do.call(rbind, rows)
print(tab, row.names = FALSE)
if (nzchar(out_csv)) utils::write.csv(tab, out_csv, row.names = FALSE)
