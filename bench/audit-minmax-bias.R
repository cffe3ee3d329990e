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
# population's normalised units, as the truth of bench/audit-coverage.R). A fit's variance kept
# is read at its projection (the rotation's), or through its map (map_basis, map_weights) where
# min-max returns a map of rank above k. With S the sample's group covariance and S0 the
# population's, both in the sample's normalised units (the columns over the sample's pooled
# sds), S0p the population's in its own:
#   estimate - truth = top       top_k(S) - top_k(S0): the group's top-k eigenvalue sum's bias
#                                (its best error's downward bias, which near-ties make large)
#                    + fit       kept(S0, P) - kept(S, P) at the sample's projection P: the
#                                population's variance kept less the sample's (in-sample
#                                optimism makes it negative)
#                    + scaling   the population's loss at P in the sample's units less in its
#                                own (the sample's column scaling)
#                    + subspace  the population's loss at P less at its own projection (the
#                                fitted subspace's noise costs the group), in its own units
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
# the variance a fit keeps of covariance S: at its projection, or through its map B diag(l) B'
# (the error tr((I - M) S (I - M)) leaves sum((2 l - l^2) diag(B' S B)) kept)
kept_by <- function(f, k) {
  B <- if (!is.null(f$map_basis)) f$map_basis else f$rotation[, seq_len(k), drop = FALSE]
  l <- if (!is.null(f$map_basis)) f$map_weights else rep(1, ncol(B))
  function(S) sum((2 * l - l^2) * colSums(B * (S %*% B)))
}
for (x in grid) {
  set.seed(sum(utf8ToInt(x$name)))
  pop <- defs$population(x)
  k <- x$k
  w <- x$n * max(1, round(1e6 / sum(x$n)))
  tm <- new_group_moments(n = stats::setNames(w, names(pop)), mean = sapply(pop, `[[`, "mean"),
                          scatter = Map(function(p, ww) ww * p$cov, pop, w), colnames = paste0("x", seq_len(x$d)))
  ft <- fair_pca(tm, k = k, method = "minmax", scale. = TRUE)
  S0p <- lapply(pop, function(p) p$cov / tcrossprod(ft$scale))
  best0 <- vapply(S0p, top_sum, 0, k = k)
  truth <- best0 - vapply(S0p, kept_by(ft, k), 0)
  rec <- list()
  for (s in seq_len(nsim)) {
    xs <- do.call(rbind, Map(function(p, n) defs$draw_group(p, n, x$dist, x$d), pop, x$n))
    gs <- rep(names(pop), x$n)
    f <- suppressWarnings(fair_pca(xs, gs, k = k, method = "minmax", scale. = TRUE))
    kept <- kept_by(f, k)
    S <- lapply(names(pop), function(g) {
      xg <- xs[gs == g, , drop = FALSE]
      stats::cov(xg) * (nrow(xg) - 1) / nrow(xg) / tcrossprod(f$scale)
    })
    S0 <- lapply(pop, function(p) p$cov / tcrossprod(f$scale))
    est <- f$group_stats$loss
    top_s <- vapply(S, top_sum, 0, k = k)
    top_0 <- vapply(S0, top_sum, 0, k = k)
    kept_s <- vapply(S, kept, 0)
    kept_0 <- vapply(S0, kept, 0)
    pop_loss_own <- best0 - vapply(S0p, kept, 0)  # the population's loss at P, its own units
    rec[[s]] <- data.frame(group = names(pop), truth = truth, estimate = est, top = top_s - top_0, fit = kept_0 - kept_s,
                           scaling = (top_0 - kept_0) - pop_loss_own, subspace = pop_loss_own - truth,
                           check = est - (top_s - kept_s), active = est >= max(est) - 0.01 * max(abs(est)))
  }
  r <- do.call(rbind, rec)
  cat(sprintf("\n%s: %d samples; min-max's group losses, normalised units (means over the samples; `check`, the\n", x$name, nsim))
  cat(sprintf("largest |reported loss - loss at the fit's projection or map|: %.1e)\n", max(abs(r$check))))
  tab <- do.call(rbind, lapply(split(r, r$group), function(v) {
    data.frame(group = v$group[1L], truth = v$truth[1L], estimate = mean(v$estimate), sd = stats::sd(v$estimate),
               bias = mean(v$estimate) - v$truth[1L], top = mean(v$top), fit = mean(v$fit), scaling = mean(v$scaling),
               subspace = mean(v$subspace), active = mean(v$active))
  }))
  print(tab, row.names = FALSE, digits = 3)
}
