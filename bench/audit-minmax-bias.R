# Where min-max's group losses sit above their truth (#44 item 1): a study outside the package.
# Results and what they mean: "Min-max's losses" in the header of bench/audit-coverage.R.
#
# Run (from the package root, the package installed):
#   FAIRPROJ_BENCH_DESIGNS=t4k1m3n300gauss,d12k1m2n300gauss FAIRPROJ_BENCH_NSIM=60 \
#     nice -n 10 Rscript bench/audit-minmax-bias.R
#
# For each sample of a design (bench/audit-coverage.R's populations; the samples are drawn
# afresh from the design's seed, not the coverage run's) min-max is fitted as fair_audit() fits
# it (scale. = TRUE) and each group's in-sample loss, the estimate the audit's intervals are built
# around, is split against the truth (the fit to the population's exact moments, in the
# population's normalised units, as the truth of bench/audit-coverage.R):
#   estimate - truth = top       the group's top-k eigenvalue sum, sample less population (its
#                                best error's downward bias, which near-ties make large)
#                    + subspace  the population's loss at the sample's subspace less at the
#                                population's (the fitted subspace's noise costs the group)
#                    + fit       the rest: the sample's variance kept in that subspace less the
#                                population's (in-sample optimism, and the sample's scaling)
# and the share of samples where the group is in min-max's active set (its loss within 1% of
# the largest). Means over the samples, in the normalised units.

suppressMessages(library(fairproj))
env <- function(name, default) {
  v <- Sys.getenv(name, "")
  if (nzchar(v)) v else default
}
nsim <- as.integer(env("FAIRPROJ_BENCH_NSIM", "60"))
names_wanted <- strsplit(env("FAIRPROJ_BENCH_DESIGNS", "t4k1m3n300gauss,d12k1m2n300gauss"), ",")[[1L]]

# the populations and draws of bench/audit-coverage.R (its own definitions, evaluated alone)
defs <- new.env()
for (e in parse(file.path("bench", "audit-coverage.R"), keep.source = FALSE)) {
  if (is.call(e) && identical(e[[1L]], as.name("<-")) && is.name(e[[2L]]) &&
      as.character(e[[2L]]) %in% c("design", "full_grid", "rot", "population", "draw_group")) {
    eval(e, defs)
  }
}
grid <- defs$full_grid()
grid <- grid[vapply(grid, `[[`, "", "name") %in% names_wanted]
if (length(grid) < length(names_wanted)) stop("not in bench/audit-coverage.R's full grid: ",
                                              paste(setdiff(names_wanted, vapply(grid, `[[`, "", "name")), collapse = ", "))

top_sum <- function(S, k) sum(eigen(S, symmetric = TRUE, only.values = TRUE)$values[seq_len(k)])
for (x in grid) {
  set.seed(sum(utf8ToInt(x$name)))
  pop <- defs$population(x)
  k <- x$k
  w <- x$n * max(1, round(1e6 / sum(x$n)))
  tm <- new_group_moments(n = stats::setNames(w, names(pop)), mean = sapply(pop, `[[`, "mean"),
                          scatter = Map(function(p, ww) ww * p$cov, pop, w), colnames = paste0("x", seq_len(x$d)))
  ft <- fair_pca(tm, k = k, method = "minmax", scale. = TRUE)
  # the population's covariances in its normalised units (the columns over its pooled sds, as
  # the fit scales them)
  S0 <- lapply(pop, function(p) p$cov / tcrossprod(ft$scale))
  V0 <- ft$rotation[, seq_len(k), drop = FALSE]
  best0 <- vapply(S0, top_sum, 0, k = k)
  kept0 <- vapply(S0, function(S) sum(diag(crossprod(V0, S %*% V0))), 0)
  truth <- best0 - kept0
  rec <- list()
  for (s in seq_len(nsim)) {
    xs <- do.call(rbind, Map(function(p, n) defs$draw_group(p, n, x$dist, x$d), pop, x$n))
    gs <- rep(names(pop), x$n)
    f <- suppressWarnings(fair_pca(xs, gs, k = k, method = "minmax", scale. = TRUE))
    V <- f$rotation[, seq_len(k), drop = FALSE]
    # the sample's covariances in the sample's normalised units, and the population's in the
    # same units (the sample's scaling), so that the three terms add up to estimate - truth
    Ss <- lapply(names(pop), function(g) {
      xg <- xs[gs == g, , drop = FALSE]
      stats::cov(xg) * (nrow(xg) - 1) / nrow(xg) / tcrossprod(f$scale)
    })
    est <- f$group_stats$loss
    top <- vapply(Ss, top_sum, 0, k = k) - best0
    kept_pop_at_v <- vapply(S0, function(S) sum(diag(crossprod(V, S %*% V))), 0)
    subspace <- (best0 - kept_pop_at_v) - truth
    rec[[s]] <- data.frame(group = names(pop), truth = truth, estimate = est, top = top, subspace = subspace,
                           fit = est - truth - top - subspace, active = est >= max(est) - 0.01 * max(abs(est)))
  }
  r <- do.call(rbind, rec)
  cat(sprintf("\n%s: %d samples; min-max's group losses, normalised units (means over the samples)\n", x$name, nsim))
  tab <- do.call(rbind, lapply(split(r, r$group), function(v) {
    data.frame(group = v$group[1L], truth = v$truth[1L], estimate = mean(v$estimate), sd = stats::sd(v$estimate),
               bias = mean(v$estimate) - v$truth[1L], top = mean(v$top), subspace = mean(v$subspace),
               fit = mean(v$fit), active = mean(v$active))
  }))
  print(tab, row.names = FALSE, digits = 3)
}
