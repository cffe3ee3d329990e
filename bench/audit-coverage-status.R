# Where #44 item 1 stands on the full grid: one summary of the full-grid cells stored in
# bench/audit-coverage.csv (written by bench/audit-coverage.R with FAIRPROJ_BENCH_DESIGNS=full).
#
# Run: Rscript bench/audit-coverage-status.R [csv]
#   FAIRPROJ_BENCH_STATUS_FROM  the first run made on today's intervals (default "2026-12-06h-full":
#                               the shards run since rule M3, 5781210; runs are named so that
#                               their names sort in time)
#
# Only the status runs of the full grid made on today's intervals count (runs named "...-full" from
# FAIRPROJ_BENCH_STATUS_FROM on; for a design with a group at 20 to 25 rows per direction, from
# "2026-12-07e-full" on, when the rows-per-direction rule moved to 25), each design once, at its
# latest run; designs run only under earlier rules (or in replays of candidate rules) are
# counted, not summarised. A cell is
# "clearly low" (high) when it is not flagged and its reliable coverage is below 0.85 (above 0.95)
# at one-sided binomial p < 0.05; item 1 asks every unflagged cell to cover within 0.85-0.95, and
# every well-behaved design (Gaussian or Poisson, >= 1,000 rows per group, d <= 12) to flag at most
# 10% of its intervals.
args <- commandArgs(trailingOnly = TRUE)
csv <- if (length(args)) args[1] else file.path("bench", "audit-coverage.csv")
from <- Sys.getenv("FAIRPROJ_BENCH_STATUS_FROM", "2026-12-06h-full")
cols <- c("design", "dist", "shape", "d", "k", "m", "n", "method", "term", "group", "reliable_cov",
          "n_reliable", "flagged", "verdict", "well_behaved", "run")
all <- utils::read.csv(csv, stringsAsFactors = FALSE)[, cols]

# the full grid's design names, from bench/audit-coverage.R's own definitions (design() and
# full_grid(), evaluated alone so that nothing of the bench runs)
defs <- new.env()
for (e in parse(file.path("bench", "audit-coverage.R"), keep.source = FALSE)) {
  if (is.call(e) && identical(e[[1L]], as.name("<-")) && is.name(e[[2L]]) && as.character(e[[2L]]) %in% c("design", "full_grid")) {
    eval(e, defs)
  }
}
grid <- vapply(defs$full_grid(), `[[`, "", "name")
shard_of <- stats::setNames((seq_along(grid) - 1L) %% 80L + 1L, grid)  # FAIRPROJ_BENCH_SHARD i/80

# today's intervals: the status runs of the full grid ("-full") made on them. The rows-per-direction
# rule raised from 20 to 25 (run "2026-12-07e-full", 5a8448b) changed the flags of the designs
# with a group at 20 to 25 rows per direction only: theirs count from that run on.
rho_band <- vapply(defs$full_grid(), function(x) {
  r <- x$n / (x$k * (x$d - x$k))
  any(r >= 20 & r < 25)
}, logical(1))
from25 <- "2026-12-07e-full"
o <- all[grepl("-full", all$run, fixed = TRUE) & all$run >= from & all$design %in% grid, , drop = FALSE]
o <- o[!(o$design %in% grid[rho_band]) | o$run >= from25, , drop = FALSE]
last <- tapply(o$run, o$design, max)
o <- o[o$run == last[o$design], , drop = FALSE]
# a design run twice under one run name (a shard and a list of designs) gives the same cells (the
# samples are seeded by the design's name): counted once
o <- o[!duplicated(paste(o$design, o$method, o$term, o$group)), , drop = FALSE]
earlier <- setdiff(intersect(grid, all$design), o$design)
done <- sort(unique(shard_of[o$design]))
complete <- done[vapply(done, function(i) all(names(shard_of)[shard_of == i] %in% o$design), TRUE)]
cat(sprintf("Full grid: %d designs in 80 shards. On today's intervals (runs from %s): %d designs, %d shards complete (%s); %d more designs were run only under earlier rules; %d never.\n",
            length(grid), from, length(unique(o$design)), length(complete), paste(complete, collapse = " "),
            length(earlier), length(setdiff(grid, c(o$design, earlier)))))

x <- round(o$reliable_cov * o$n_reliable)
open <- o$verdict != "flagged" & o$n_reliable > 0
o$clow <- open & stats::pbinom(x, pmax(o$n_reliable, 1), 0.85) < 0.05
o$chigh <- open & stats::pbinom(x - 1, pmax(o$n_reliable, 1), 0.95, lower.tail = FALSE) < 0.05
# rows per direction of the smallest group, n / (k (d - k)), the audit's measure of crowding
nmin <- vapply(strsplit(o$n, "/", fixed = TRUE), function(v) min(as.numeric(v)), numeric(1))
o$rho <- nmin / (o$k * (o$d - o$k))

line <- function(w, label) {
  v <- table(factor(w$verdict, c("within", "below", "above", "flagged")))
  u <- sum(w$verdict != "flagged")
  cat(sprintf("%-34s %4d designs %6d cells: %5d within %4d below %4d above %6d flagged (%5.1f%%); unflagged %5d, clearly low %3d (%4.1f%%), clearly high %3d\n",
              label, length(unique(w$design)), nrow(w), v[[1]], v[[2]], v[[3]], v[[4]],
              100 * v[[4]] / max(nrow(w), 1), u, sum(w$clow), 100 * sum(w$clow) / max(u, 1), sum(w$chigh)))
}

line(o, "on today's intervals")
# what "clearly low" gives by chance: a cell's binomial test on its 15-30 reliable samples calls
# some cells that do cover 0.85-0.95 clearly low. The count expected if every unflagged cell
# covered exactly p, beside the one observed; and the cells far below 0.85 (p < 1e-4), which
# chance does not explain
chance <- function(w, p) {
  sum(vapply(w$n_reliable, function(n) {
    xs <- 0:n
    sum(stats::dbinom(xs[stats::pbinom(xs, n, 0.85) < 0.05], n, p))
  }, numeric(1)))
}
u0 <- o[o$verdict != "flagged" & o$n_reliable > 0, , drop = FALSE]
wb0 <- u0[u0$well_behaved & u0$shape != "alike", , drop = FALSE]
cat(sprintf("%-34s clearly low by chance alone if every unflagged cell covered 0.85 / 0.875 / 0.90: %.0f / %.0f / %.0f of %d (observed %d); in the well-behaved distinct and tie designs %.0f / %.0f / %.0f of %d (observed %d)\n",
            "", chance(u0, 0.85), chance(u0, 0.875), chance(u0, 0.9), nrow(u0), sum(o$clow),
            chance(wb0, 0.85), chance(wb0, 0.875), chance(wb0, 0.9), nrow(wb0), sum(wb0$clow)))
far <- u0[stats::pbinom(round(u0$reliable_cov * u0$n_reliable), u0$n_reliable, 0.85) < 1e-4, , drop = FALSE]
cat(sprintf("%-34s far below 0.85 (binomial p < 1e-4): %d cells: %s\n", "", nrow(far),
            paste(sprintf("%s %s %s%s %.2f of %d", far$design, far$method, far$term,
                          ifelse(is.na(far$group), "", paste0(" ", far$group)), far$reliable_cov, far$n_reliable),
                  collapse = "; ")))
cur <- o
cat("\nOn today's intervals, by distribution / method / rows per direction:\n")
for (v in sort(unique(cur$dist))) line(cur[cur$dist == v, ], paste("  dist", v))
for (v in sort(unique(cur$method))) line(cur[cur$method == v, ], paste("  method", v))
band <- cut(cur$rho, c(0, 20, 25, 40, 100, Inf), right = FALSE,
            labels = c("< 20", "20-25", "25-40", "40-100", ">= 100"))
for (v in levels(band)) if (any(band == v)) line(cur[band == v, ], paste("  rows per direction", v))

# pooled reliable coverage (hits over reliable samples, every unflagged cell of the group of
# cells together) by method, kind of quantity and the smallest group's rows per direction: a
# bias shared by many cells shows here before any one cell is clearly low. Losses: a group's
# loss and every quantity made of losses (largest, smallest, gap, ratio, change); the rest are
# errors, variance kept and price
pool <- cur[cur$verdict != "flagged" & cur$n_reliable > 0, , drop = FALSE]
pool$kind <- ifelse(grepl("loss", pool$term, fixed = TRUE), "losses", "other")
pool$band <- band[cur$verdict != "flagged" & cur$n_reliable > 0]
pool$fam <- ifelse(pool$dist %in% c("t3", "t5", "lnorm"), "heavy/skewed", pool$dist)
pool$hits <- pool$reliable_cov * pool$n_reliable
cat("\nPooled reliable coverage of unflagged cells, by method, kind of quantity, distribution and rows per direction\n(reliable cell-samples: a sample counts once in every cell it is reliable in; heavy/skewed: t3, t5, lnorm):\n")
for (mt in sort(unique(pool$method))) for (kd in c("losses", "other")) {
  w <- pool[pool$method == mt & pool$kind == kd, , drop = FALSE]
  cells <- vapply(levels(band), function(b) {
    paste(vapply(c("gauss", "pois", "heavy/skewed"), function(f) {
      v <- w[w$band == b & w$fam == f, , drop = FALSE]
      if (sum(v$n_reliable) < 100) sprintf("%-12s    -      ", f) else sprintf("%-12s %.3f (%5d)", f, sum(v$hits) / sum(v$n_reliable), sum(v$n_reliable))
    }, ""), collapse = " ")
  }, "")
  keep <- grepl("[0-9]", cells)
  for (b in levels(band)[keep]) cat(sprintf("  %-8s %-6s rows per direction %-6s %s\n", mt, kd, b, cells[[b]]))
}

cat("\nUnflagged cells clearly outside 0.85-0.95 on today's intervals:\n")
cl <- cur[cur$clow | cur$chigh, , drop = FALSE]
cl <- cl[order(cl$chigh, cl$reliable_cov), , drop = FALSE]
dflag <- tapply(cur$flagged, cur$design, mean)
for (i in seq_len(nrow(cl))) {
  cat(sprintf("  %-4s %-26s %-9s %-16s %-3s cov %.2f of %3d  flagged %.2f  (design flags %4.1f%%%s)\n",
              if (cl$clow[i]) "LOW" else "HIGH", cl$design[i], cl$method[i], cl$term[i],
              ifelse(is.na(cl$group[i]), "", cl$group[i]), cl$reliable_cov[i], cl$n_reliable[i],
              cl$flagged[i], 100 * dflag[[cl$design[i]]], if (cl$well_behaved[i]) ", well-behaved" else ""))
}

cat("\nWell-behaved designs (at most 10% of intervals may be flagged):\n")
wb <- o[o$well_behaved, , drop = FALSE]
for (dn in sort(unique(wb$design))) {
  w <- wb[wb$design == dn, ]
  v <- table(factor(w$verdict, c("within", "below", "above", "flagged")))
  cat(sprintf("  %-26s %-8s flags %5.1f%% of intervals%s; %d within, %d below, %d above, %d flagged; clearly low %d\n",
              dn, w$shape[1], 100 * mean(w$flagged), if (mean(w$flagged) > 0.1) " (> 10%)" else "",
              v[[1]], v[[2]], v[[3]], v[[4]], sum(w$clow)))
}
for (sh in c("distinct", "tie", "alike")) {
  w <- wb[wb$shape == sh, , drop = FALSE]
  if (!nrow(w)) next
  share <- tapply(w$flagged, w$design, mean)
  u <- w$verdict != "flagged" & w$n_reliable > 0
  line(w, sprintf("  well-behaved, %s", sh))
  cat(sprintf("%-34s designs flagging more than 10%% of intervals: %d of %d (largest %.1f%%); pooled reliable coverage %.3f\n",
              "", sum(share > 0.1), length(share), 100 * max(share),
              sum(w$reliable_cov[u] * w$n_reliable[u]) / sum(w$n_reliable[u])))
}
wbg <- Filter(function(x) x$dist %in% c("gauss", "pois") && min(x$n) >= 1000 && x$d <= 12, defs$full_grid())
left <- setdiff(vapply(wbg, `[[`, "", "name"), o$design)
cat(sprintf("  not yet run on today's intervals (%d of %d): %s\n", length(left), length(wbg), paste(left, collapse = " ")))
