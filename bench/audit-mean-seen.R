# Mean matching's losses at a group's own near-tie: the replicates' seen bias of its best error
# taken off where the own-tie bias is positive at all (the package), nowhere, or by the own gap
# (#44 item 1): a study outside the package. Results and what they mean: "Mean matching's seen
# bias" in the header of bench/audit-coverage.R.
#
# Run (from the package root, the package installed):
#   FAIRPROJ_BENCH_DESIGNS=d12k1m5n1000gauss,d4k1m3n1000gauss FAIRPROJ_BENCH_NSIM=20 \
#     FAIRPROJ_BENCH_OUT=ms.rds nice -n 10 Rscript bench/audit-mean-seen.R
#   FAIRPROJ_BENCH_SUMMARY  a space-separated list of such RDS files: print the summary of all
#                           of them and write the cell table to FAIRPROJ_BENCH_CELLS (a CSV)
#
# The package (fp_audit_seen_best()) takes off mean matching's loss of group g, at k, the bias
# of the group's best rank-k error that the replicates show (b > 0) as well as the unseen part
# u (fp_audit_unseen()), wherever u > 0. u is positive wherever the group's own eigenvalues k
# and k + 1 are closer than 4 sds of their gap's noise (fp_own_tie_bias()), however small u is:
# in d12k1m5n1000gauss u is 1e-4 to 0.05 for most groups and b is 0.02 to 0.08, so a tiny u
# moves the interval by b, about 0.9 of the loss's sd. The configurations, on the same samples
# (bench/audit-coverage.R's populations, draws and seeds, in its order):
#   cur   the package;
#   nob   b never taken off mean matching's losses (u still is);
#   g1    b times w, w = 1 where the group's own gap at k is within 1 sd of its noise
#         (z = (l_k - l_k+1) / sqrt(2 (l_k^2 + l_k+1^2) / n), the group's spectrum as the audit
#         reads it) and 0 from 2 sds on, linear between;
#   g2    the same from 2 to 3 sds.
# Mean matching's loss-based intervals (each group's loss, the largest and smallest, the gap,
# the ratio, the change of the largest) reported reliable are compared with the truth.

suppressMessages(library(fairproj))
env <- function(name, default) {
  v <- Sys.getenv(name, "")
  if (nzchar(v)) v else default
}
loss_terms <- c("loss", "min_loss", "max_loss", "loss_gap", "loss_ratio", "max_loss_change")

summarise_runs <- function(files, cells_csv) {
  r <- do.call(rbind, lapply(files, readRDS))
  r <- r[!is.na(r$truth) & !is.na(r$low) & r$reliable & r$term %in% loss_terms, ]
  r$cover <- r$low <= r$truth & r$truth <= r$high
  r$group[is.na(r$group)] <- "-"
  cell <- do.call(data.frame, aggregate(cover ~ design + cf + term + group, r, function(v) c(mean(v), length(v))))
  names(cell)[5:6] <- c("coverage", "n_reliable")
  cat("Pooled coverage of mean matching's loss-based intervals by configuration:\n")
  print(round(tapply(r$cover, r$cf, mean), 4))
  cat("\nBy design:\n")
  print(round(tapply(r$cover, list(r$design, r$cf), mean), 3))
  cat("\nCells below 0.8 / above 0.97, mean |coverage - 0.9|:\n")
  print(round(sapply(split(cell, cell$cf), function(d) {
    c(below_0.8 = sum(d$coverage < 0.8), above_0.97 = sum(d$coverage > 0.97), mad = mean(abs(d$coverage - 0.9)),
      cells = nrow(d))
  }), 4))
  if (nzchar(cells_csv)) utils::write.csv(cell[order(cell$design, cell$term, cell$group, cell$cf), ], cells_csv, row.names = FALSE)
  invisible(cell)
}

summary_files <- env("FAIRPROJ_BENCH_SUMMARY", "")
if (nzchar(summary_files)) {
  summarise_runs(strsplit(summary_files, " ")[[1L]], env("FAIRPROJ_BENCH_CELLS", ""))
  quit(save = "no")
}

# bench/audit-coverage.R's designs, populations, draws and truth (its functions only)
for (e in parse("bench/audit-coverage.R")) {
  if (is.call(e) && identical(e[[1L]], as.name("<-")) && is.call(e[[3L]]) && identical(e[[3L]][[1L]], as.name("function"))) {
    eval(e, globalenv())
  }
}
methods <- c("standard", "minmax", "mean")
level <- 0.9

ns <- asNamespace("fairproj")
orig_unseen <- get("fp_audit_unseen", ns)
orig_seen <- get("fp_audit_seen_best", ns)
cap <- new.env()
cap$t <- Inf
# the groups' spectra as the audit reads them, kept for the gate
with_spectra <- function(spec, moments, blocks, ks, prep) {
  cap$sp <- tryCatch(fp_audit_group_spectra(moments, blocks, prep, ks), error = function(e) NULL)
  orig_unseen(spec, moments, blocks, ks, prep)
}
gated_seen <- function(unseen, dr, gtab, moments, methods, ks) {
  out <- orig_seen(unseen, dr, gtab, moments, methods, ks)
  a <- match("mean", methods)
  if (is.null(unseen) || !is.finite(cap$t) || is.na(a) || is.null(cap$sp)) return(out)
  for (j in seq_along(ks)) {
    for (g in seq_along(moments$levels)) {
      b <- out$loss[a, j, g] - unseen$loss[a, j, g]
      if (!(b > 0)) next
      l <- cap$sp$values[[g]]
      k <- ks[j]
      z <- (l[k] - l[k + 1L]) / sqrt(2 * (l[k]^2 + l[k + 1L]^2) / cap$sp$n[[g]])
      out$loss[a, j, g] <- unseen$loss[a, j, g] + min(max(cap$t + 1 - z, 0), 1) * b
    }
  }
  out
}
environment(with_spectra) <- ns
environment(gated_seen) <- ns
utils::assignInNamespace("fp_audit_unseen", with_spectra, "fairproj")
utils::assignInNamespace("fp_audit_seen_best", gated_seen, "fairproj")

wanted <- strsplit(env("FAIRPROJ_BENCH_DESIGNS", "d12k1m5n1000gauss"), ",")[[1L]]
grid <- Filter(function(x) x$name %in% wanted,
               c(full_grid(), mean_b_judge_grid(), near_tie_interval_judge_grid(), near_tie_judge_grid()))
grid <- grid[!duplicated(vapply(grid, `[[`, "", "name"))]
nsim <- as.integer(env("FAIRPROJ_BENCH_NSIM", "20"))
out_rds <- env("FAIRPROJ_BENCH_OUT", "audit-mean-seen.rds")
configs <- c(cur = Inf, nob = Inf, g1 = 1, g2 = 2)
res <- list()
for (x in grid) {
  set.seed(sum(utf8ToInt(x$name)))
  pop <- population(x)
  truth <- truth_of(pop, x)
  key_t <- paste(truth$method, truth$term, truth$group)
  for (s in seq_len(nsim)) {
    xs <- do.call(rbind, Map(function(p, n) draw_group(p, n, x$dist, x$d), pop, x$n))
    gs <- rep(names(pop), x$n)
    for (cf in names(configs)) {
      cap$t <- configs[[cf]]
      utils::assignInNamespace("fp_own_tie_seen_methods", if (cf == "nob") character(0) else "mean", "fairproj")
      a <- tryCatch(suppressWarnings(fair_audit(xs, gs, k = x$k, methods = methods, replicates = 100, level = level,
                                                seed = s, progress = FALSE)), error = function(e) NULL)
      if (is.null(a)) next
      iv <- as.data.frame(tidy(a, matrix = "intervals"))
      iv <- iv[iv$method == "mean" & iv$k == x$k, , drop = FALSE]
      res[[length(res) + 1L]] <- data.frame(design = x$name, s = s, cf = cf, term = iv$term, group = iv$group,
                                            truth = truth$truth[match(paste(iv$method, iv$term, iv$group), key_t)],
                                            est = iv$estimate, low = iv$conf.low, high = iv$conf.high,
                                            reliable = iv$reliable %in% TRUE)
    }
  }
  saveRDS(do.call(rbind, res), out_rds)
  cat(x$name, format(Sys.time()), "\n")
}
