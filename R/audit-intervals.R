# Intervals of a fairness audit from block moments: the rows of each group are assigned to
# blocks by a deterministic hash of their row number, the one pass over the rows computes the
# moments of every (group, block) cell, and a bootstrap replicate resamples each group's blocks
# with replacement and adds their moments (moments of blocks add exactly), so that a replicate
# costs solver calls on d x d matrices and never reads the rows. ?fair_audit ("Intervals")
# states the method, what it assumes and when an interval is flagged as unreliable.

# The number of blocks that fits the memory budget (bytes; option `fairproj.interval_memory`,
# default 256 MB) for m groups, d columns and `parts` cells per (group, block): at most
# `blocks`; 0 when fewer than 10 fit (too few blocks to resample).
fp_audit_n_blocks <- function(blocks, m, d, parts = 1L) {
  budget <- getOption("fairproj.interval_memory", 2^28)
  fit <- floor(budget / (8 * (d^2 + d + 1) * m * parts))
  B <- min(blocks, fit)
  if (B < 10) 0L else as.integer(B)
}

# One bootstrap replicate of the group moments: each group's J blocks drawn J times with
# replacement and added (n, mean and scatter of the union of the drawn blocks, a block drawn
# twice counting twice). `weights` (a list of each group's block counts) replaces the draw.
fp_audit_resample <- function(moments, blocks, weights = NULL) {
  d <- length(moments$colnames)
  m <- length(moments$levels)
  n <- numeric(m)
  mu <- moments$mean
  sc <- vector("list", m)
  for (i in seq_len(m)) {
    b <- blocks[[i]]
    J <- length(b$n)
    w <- if (is.null(weights)) tabulate(sample.int(J, J, replace = TRUE), J) else weights[[i]]
    wn <- w * b$n
    n[i] <- sum(wn)
    D <- b$delta
    shift <- drop(D %*% wn) / n[i]
    Dc <- D - shift
    sc[[i]] <- matrix(b$scatter %*% w, d, d) + Dc %*% (t(Dc) * wn)
    mu[, i] <- mu[, i] + shift
  }
  out <- fp_new_moments(n, mu, sc, moments$levels, moments$colnames)
  out$exponent <- moments$exponent
  out
}

# The errors a replicate may meet and survive: a resample whose moments cannot be prepared (a
# column constant in every drawn block, under `scale. = TRUE`) or a fit that fails on them
# (classed by fp_cpp() and the solvers). Any other error is a fault of the code and stops the
# audit.
fp_replicate_errors <- c("fairproj_numerical_error", "fairproj_infeasible_k", "fairproj_input_error")

# `expr`, or NULL where it stops with one of fp_replicate_errors.
fp_replicate_try <- function(expr) {
  tryCatch(expr, fairproj_numerical_error = function(e) NULL, fairproj_infeasible_k = function(e) NULL,
           fairproj_input_error = function(e) NULL)
}

# The statistics of one replicate for every method and k: a list with `groups` (array
# method x k x group x c(error, loss)), `var_kept` (array method x k) and `failed` (TRUE when a
# fit, or the preparation of the replicate's moments, failed with one of fp_replicate_errors;
# its values are NA).
fp_audit_replicate <- function(mr, spec, ks) {
  prep <- fp_replicate_try(fp_prepare_normalised(mr, spec$center, spec$scale.))
  fp_audit_replicate_fits(prep, length(mr$levels), spec, ks, fp_group_best, function(prep, fit, kk, best, method) {
    gs <- fp_group_stats(prep, fit$rotation, kk, map = fp_map_arg(fit), best = best)
    list(error = gs$error, loss = gs$loss, var_kept = fp_audit_var_kept(fit, prep$C))
  })
}

# The loop of fp_audit_replicate() and fp_audit_replicate_rows() over k and the methods, on a
# replicate's prepared problem `prep` (NULL where its preparation failed): `best_of(prep, k)`
# gives the groups' best errors, `stats_of(prep, fit, k, best, method)` the fit's group errors and
# losses (normalised units) and variance kept.
fp_audit_replicate_fits <- function(prep, m, spec, ks, best_of, stats_of) {
  methods <- spec$methods
  G <- array(NA_real_, c(length(methods), length(ks), m, 2L))
  V <- array(NA_real_, c(length(methods), length(ks)))
  if (is.null(prep)) return(list(groups = G, var_kept = V, failed = TRUE))
  failed <- FALSE
  for (j in seq_along(ks)) {
    kk <- ks[j]
    best <- best_of(prep, kk)
    for (a in seq_along(methods)) {
      if (paste(methods[a], kk) %in% spec$unfitted) next
      fit <- fp_replicate_try(suppressWarnings(fp_call_solver("pca", methods[a], prep, kk, spec$margs[[methods[a]]],
                                                              NULL)))
      if (is.null(fit)) {
        failed <- TRUE
        next
      }
      st <- stats_of(prep, fit, kk, best, methods[a])
      G[a, j, , 1L] <- st$error * prep$unit
      G[a, j, , 2L] <- st$loss * prep$unit
      V[a, j] <- st$var_kept
    }
  }
  list(groups = G, var_kept = V, failed = failed)
}

# fp_audit_replicate() on the row route: the replicate is the rows of `src` (fp_audit_rows_source())
# weighted by `rw` (the count of each row's block in the resample, fp_audit_row_weights()), so
# that its fits and statistics are those of fp_audit_replicate() on the resampled block moments,
# from weighted products with the rows (no d x d matrix, no copy of the rows).
fp_audit_replicate_rows <- function(src, rw, spec, ks) {
  prep <- fp_replicate_try(fp_prepare_rows(src$x, src$g, spec$center, spec$scale., weights = rw))
  stats_rows <- function(prep, fit, kk, best, method) {
    err <- pmax(fp_rows_fit_quad(prep, fit$rotation, if (identical(method, "minmax")) fit$lambda)$err, 0)
    list(error = err, loss = fp_group_loss(err, best, prep$cov_trace, prep$d), var_kept = fp_audit_var_kept_rows(fit, prep))
  }
  fp_audit_replicate_fits(prep, length(src$levels), spec, ks, fp_rows_group_best, stats_rows)
}

# The row weights of a replicate on the row route: the count `weights[[g]]` of each row's block
# (`block`, the row's block number, fp_block_of_row(); `blocks[[g]]$id` the non-empty blocks'
# numbers) in its group's resample.
fp_audit_row_weights <- function(g, block, blocks, weights) {
  gi <- as.integer(g)
  rw <- numeric(length(gi))
  for (i in seq_along(blocks)) {
    in_g <- gi == i
    rw[in_g] <- weights[[i]][match(block[in_g], blocks[[i]]$id)]
  }
  rw
}

# The sample's side of the noise floor of a zero loss (fp_audit_floor()): its prepared problem
# and each group's best error at every k in `ks`.
fp_audit_floor_base <- function(moments, center, scale., ks) {
  sp <- fp_prepare_normalised(moments, center, scale.)
  list(prep = sp, best = lapply(ks, function(k) fp_group_best(sp, k)),
       scale = if (sp$scaled) sp$scale_data else FALSE, gap = fp_pooled_gap(sp$C, ks))
}

# The gap between the k-th and (k + 1)-th eigenvalues of a pooled covariance C, over its
# trace, at each k in `ks` (NA at k >= d). Where the top max(ks) + 1 eigenvalues take the
# Lanczos path (fp_lanczos_path()), only they are computed, with the trace from the diagonal:
# one replicate's full eigendecomposition at d = 200 was 6% of the intervals' time.
fp_pooled_gap <- function(C, ks) {
  d <- nrow(C)
  top <- min(max(ks) + 1L, d)
  if (fp_lanczos_path(d, top)) {
    ev <- fp_eig_top(C, top)$values
    tot <- sum(diag(C))
  } else {
    ev <- fp_sym_values(C)
    tot <- sum(ev)
  }
  vapply(ks, function(k) if (k < d) (ev[k] - ev[k + 1L]) / tot else NA_real_, numeric(1))
}

# The noise floor of a zero loss in one replicate `mr` (k x group, data units): the loss, on the
# sample's moments, of each group's own best rank-k subspace fitted to the replicate. A group
# whose population loss is 0 has an estimated loss of this kind (the gap between a fitted
# subspace and the group's in-sample best, larger with more directions, k (d - k)), so a loss
# estimate within the floor's upper quantile is not told apart from 0. The replicate's group
# covariances are taken in the sample's scaling, so that its subspaces are in the sample's
# coordinates (the power of two and average variance of the normalisation only rescale them).
# Also `overlap`: how far the span of the replicate's group-mean differences agrees with the
# sample's (fp_span_overlap()), for the methods that constrain those directions.
fp_audit_floor <- function(mr, base, ks) {
  rp <- fp_replicate_try(fp_prepare_normalised(mr, TRUE, base$scale))
  fp_audit_floor_fits(rp, base, ks, function(rp, k, i) fp_eig_top(rp$cov[[i]], k)$vectors,
                      function(sp, V, i) fp_residual_trace(sp$cov[[i]], V), function(rp) fp_pooled_gap(rp$C, ks))
}

# The loop of fp_audit_floor() and fp_audit_floor_rows() on a replicate's prepared problem `rp`
# (NULL where its preparation failed): `top_of(rp, k, i)` gives group i's top k directions in
# the replicate, `resid_of(sp, V, i)` group i's residual in the sample at V, `gap_of(rp)` the
# replicate's pooled gaps at `ks`.
fp_audit_floor_fits <- function(rp, base, ks, top_of, resid_of, gap_of) {
  sp <- base$prep
  m <- length(sp$levels)
  out <- matrix(NA_real_, length(ks), m)
  if (is.null(rp)) return(list(floor = out, overlap = NA_real_, gap = rep(NA_real_, length(ks))))
  overlap <- if (m > 1L) fp_span_overlap(sp$mean[, -1L, drop = FALSE] - sp$mean[, 1L],
                                         rp$mean[, -1L, drop = FALSE] - rp$mean[, 1L]) else NA_real_
  for (j in seq_along(ks)) {
    for (i in seq_len(m)) {
      if (ks[j] >= sp$d) {
        out[j, i] <- 0
        next
      }
      V <- fp_replicate_try(top_of(rp, ks[j], i))
      if (!is.null(V)) out[j, i] <- max(resid_of(sp, V, i) - base$best[[j]][i], 0) * sp$unit
    }
  }
  list(floor = out, overlap = overlap, gap = gap_of(rp))
}

# fp_audit_floor_base() and fp_audit_floor() on the row route: the sample's prepared rows
# (`src`, fp_audit_rows_source()) and a replicate's weighted rows (`rw`), every covariance's top
# k from products with the rows.
fp_audit_floor_base_rows <- function(src, ks) {
  sp <- src$prep
  list(prep = sp, best = lapply(ks, function(k) fp_rows_group_best(sp, k)),
       scale = if (sp$scaled) sp$scale_data else FALSE, gap = fp_rows_pooled_gap(sp, ks))
}

fp_audit_floor_rows <- function(src, rw, base, ks) {
  rp <- fp_replicate_try(fp_prepare_rows(src$x, src$g, TRUE, base$scale, weights = rw))
  fp_audit_floor_fits(rp, base, ks, function(rp, k, i) fp_rows_eig(rp, k, i)$vectors,
                      function(sp, V, i) fp_rows_quad(sp, V)$err[i], function(rp) fp_rows_pooled_gap(rp, ks))
}

# fp_pooled_gap() of a row-route problem: the top max(ks) + 1 eigenvalues of its covariance
# (those beyond the rows' rank 0), over its trace (d in its normalised units).
fp_rows_pooled_gap <- function(prep, ks) {
  d <- prep$d
  top <- min(max(ks) + 1L, d)
  ev <- fp_rows_eig(prep, top, vectors = FALSE)$values
  ev <- c(ev, numeric(max(top - length(ev), 0L)))
  vapply(ks, function(k) if (k < d) (ev[k] - ev[k + 1L]) / d else NA_real_, numeric(1))
}

# The agreement of the column spans of A and B: the mean squared cosine of their principal
# angles (1 for equal spans, about r/d for unrelated r-dimensional ones); NA where either span
# is empty (singular values below 1e-8 of the largest).
fp_span_overlap <- function(A, B) {
  basis <- function(X) {
    if (!all(is.finite(X))) return(NULL)
    s <- svd(X, nv = 0L)
    keep <- s$d > 1e-8 * max(s$d, 0) & s$d > 0
    if (any(keep)) s$u[, keep, drop = FALSE] else NULL
  }
  Ua <- basis(A)
  Ub <- basis(B)
  if (is.null(Ua) || is.null(Ub)) return(NA_real_)
  sum(crossprod(Ua, Ub)^2) / max(ncol(Ua), ncol(Ub))
}

# Methods whose fit constrains the directions of the group-mean differences. Where the data do
# not fix those directions (the replicates' spans agree with the sample's by a median squared
# cosine below `fp_mean_direction_min`: groups whose means differ by little against their
# spread), such a method's losses jump with the noise in them, their bootstrap is not valid
# (with both groups from one population at d = 12, k = 4, mean matching's losses were covered
# in 79-85% of the samples, bench/audit-coverage.R) and its intervals are flagged unreliable.
# In a simulation of bench/audit-coverage.R's populations (40 samples per size), the median
# agreement was 0.77-0.96 at 50 rows per group (0.88 or more in 9 samples of 10) and 0.99 or
# more from 1,000 rows where the means differ clearly, and 0.10-0.86 where they are the same.
fp_mean_constrained <- c("mean", "cfpca")
fp_mean_direction_min <- 0.8

# Data with no preferred direction (#44): where every group's covariance, in the units the fits
# see (after `scale.`), is spherical within noise and the group means are equal within noise,
# every k-dimensional subspace fits the population equally well.
# Each method's subspace is then set by the noise: its variance kept and errors carry the top
# sample eigenvalues' optimism (they repel), which the bootstrap, starting from the sample's
# spread spectrum, sees only in part (groups from one population with uncorrelated columns,
# scaled: standard PCA's and min-max's variance kept covered 0.44-0.67, their errors 0.67-0.83,
# flagged by the near-tie and kink detectors in 20-70% of the samples; bench/audit-coverage.R,
# full-grid shards 42 and 52 of run "2026-12-06a-full"). Each group's sphericity is John's test:
# U = d tr(S^2) / tr(S)^2 - 1 and (n_g - 1) d U / 2, chi-squared with d (d + 1) / 2 - 1 degrees
# of freedom for Gaussian rows of spherical covariance (locally most powerful invariant; it
# needs only tr(S) and tr(S^2), from the covariance or its spectrum); the means' test is the
# chi-squared of their spread against the within-group variance. Flagged where every p-value
# exceeds `fp_sphere_alpha`, a conventional level, not tuned.
fp_sphere_alpha <- 0.01

# The p-values of John's test for each group (fp_sphere_alpha) and, last, of the test that the
# group means are equal (sum_g n_g |mean_g - mean|^2 / s^2, chi-squared with d (m - 1) degrees of
# freedom for spherical groups, s^2 the within-group variance per column), in the fits' units:
# from each group's covariance and mean (the moments route, rescaled by the sample's scaling
# `base$scale`) or its spectrum and the prepared means (the row route, fp_audit_row_blocks()).
# 0 where a group's covariance is 0 or not finite. Both tests are unchanged by a factor common
# to every column, so the moments route takes each stored column (data column j = stored
# column j times 2^exponent[j]) over its scale, divided by the largest such factor: no square
# of data of any finite magnitude under- or overflows (with columns of about 1e150 the
# squared ratios of stored columns to data-unit sds did, and the test returned NaN).
fp_audit_sphere_p <- function(moments, blocks, base) {
  d <- length(moments$colnames)
  n <- as.numeric(moments$n)
  if (inherits(moments, "fp_rows")) {
    tr <- lapply(blocks, function(b) c(sum(b$values), sum(b$values^2)))
    mu <- base$prep$mean
  } else {
    s <- if (isFALSE(base$scale)) rep(1, d) else base$scale
    e <- if (is.null(moments$exponent)) rep(0, d) else moments$exponent
    # stored column j in the test's units, up to one factor
    lr <- e * log(2) - log(s)
    r <- exp(lr - if (any(is.finite(lr))) max(lr[is.finite(lr)]) else 0)
    ww <- tcrossprod(r)  # once for every group
    tr <- lapply(seq_along(n), function(g) {
      S <- moments$scatter[[g]] * ww  # one d x d matrix at a time
      c(sum(diag(S)) / n[g], sum(S^2) / n[g]^2)
    })
    mu <- moments$mean * r
  }
  t1 <- vapply(tr, `[`, numeric(1), 1L)
  t2 <- vapply(tr, `[`, numeric(1), 2L)
  p <- vapply(seq_along(tr), function(g) {
    if (!(is.finite(t1[g]) && is.finite(t2[g]) && t1[g] > 0) || n[g] < 2) return(0)
    u <- max(d * t2[g] / t1[g]^2 - 1, 0)
    stats::pchisq((n[g] - 1) * d * u / 2, d * (d + 1) / 2 - 1, lower.tail = FALSE)
  }, numeric(1))
  m <- length(n)
  s2 <- sum(n * t1) / (d * (sum(n) - m))
  dev <- mu - drop(mu %*% n) / sum(n)
  q <- sum(n * colSums(dev^2)) / s2
  c(p, if (is.finite(q) && s2 > 0) stats::pchisq(q, d * (m - 1), lower.tail = FALSE) else 0)
}

fp_sphere_reason <- function(p) {
  sprintf(paste("no direction stands out: every group's covariance is spherical within noise (John's test, p %s %s)",
                "and the group means do not differ, so each method's subspace is set by the noise"),
          if (min(p) >= 0.001) ">=" else "<", format(max(min(p), 0.001), digits = 2))
}

# The loss ratio of one replicate's fit (its largest loss over its smallest, with losses within
# 1e-10 of the largest error counted as 0, as fp_audit_loss_ratio()); NA where a group has none.
fp_audit_ratio_rep <- function(err, loss) {
  if (anyNA(err) || anyNA(loss)) return(NA_real_)
  fp_audit_loss_ratio(list(error = err, loss = loss))
}

# The replicates of the loss ratio of one (method, k) (E, L: replicates x groups of the
# errors and losses). Where the groups' loss intervals are centred on their bias-corrected
# estimates `lc` (`moved`: fp_audit_unseen(), fp_audit_small_bias()), each group's loss
# replicates are moved as its interval is, by their mean less lc (at 0 no lower), so that the
# ratio agrees with the largest and smallest losses' intervals: unmoved, standard PCA's ratio
# at d = 50, k = 1 with two groups of 1,000 rows (true 2.58) read 2.01 [1.70, 2.07] beside
# intervals of the largest and smallest losses that hold 2.58, and covered in 0 of 30 samples.
fp_audit_ratio_reps <- function(E, L, lc, moved = FALSE) {
  if (moved) {
    shift <- colMeans(L, na.rm = TRUE) - lc
    if (all(is.finite(shift))) L <- pmax(sweep(L, 2L, shift), 0)
  }
  vapply(seq_len(nrow(L)), function(r) fp_audit_ratio_rep(E[r, ], L[r, ]), numeric(1))
}

# The interval of the loss ratio from its replicates `ratio` (fp_audit_ratio_reps()): the
# shifted percentile interval (fp_interval()) on the log scale, centred on the log of the ratio
# of the groups' centred losses `lc` (their estimates, less any bias taken off them; errors
# `err` for the ratio's zero threshold), exp(fp_interval(log(ratio), log(rc))). The ratio's
# replicates are skewed and sit above their centre (the smallest loss in the denominator), so
# their plain percentile interval, which the audit used until 2026-12-05, was centred too high:
# standard PCA's and mean matching's ratios sat 0.3-0.4 of their sds high on the median design
# (bench/audit-coverage.R). Where a replicate or the centre is 0 or infinite (a loss within the
# solvers' precision of 0) the plain percentile interval of the replicates, as before.
# Calibrated on 71 designs of bench/audit-coverage.R (replicates replayed; standard PCA's and
# mean matching's ratio cells within / below / above 103 / 27 / 8 -> 109 / 25 / 4; the log
# shift only where no loss is centred elsewhere: 106 / 25 / 7) and judged on 20 designs drawn
# fresh (run "2026-12-05a", the rule fixed before their results).
fp_ratio_interval <- function(ratio, est, err, lc, level) {
  rc <- fp_audit_loss_ratio(list(error = err, loss = pmax(lc, 0)))
  r <- ratio[!is.na(ratio)]
  if (!(is.finite(rc) && rc > 0) || !all(is.finite(r) & r > 0)) return(fp_interval(ratio, est, level, shift = FALSE))
  exp(fp_interval(log(ratio), log(rc), level))
}

# The intervals of an audit: bootstrap replicates of every method at the k in `ks`, from the
# blocks. `tab`, `gtab`: the audit's tables (point estimates); returns them with the interval
# columns (`<quantity>_low`, `<quantity>_high`, NA at the k without intervals) and `reliable`.
fp_audit_intervals <- function(spec, moments, blocks, ks, tab, gtab) {
  level <- spec$intervals$level
  # the sample's prepared problem, once per audit: the replicates' noise floor, the groups'
  # spectra and the pooled spectrum all read it
  base <- if (inherits(moments, "fp_rows")) fp_audit_floor_base_rows(moments, ks) else
    fp_audit_floor_base(moments, spec$center, spec$scale., ks)
  dr <- fp_audit_draw(spec, moments, blocks, ks, base)
  kink <- fp_audit_kink(dr, gtab, tab, spec$methods, ks, moments$levels)
  unseen <- fp_audit_seen_best(fp_audit_unseen(spec, moments, blocks, ks, base$prep), dr, gtab, moments, spec$methods,
                               ks)
  unseen <- fp_audit_small_bias(unseen, dr, gtab, moments, spec$methods, ks)
  opt <- fp_audit_pooled_optimism(spec, moments, base$prep, ks, dr)
  sphere <- fp_audit_sphere_p(moments, blocks, base)
  gr <- fp_audit_group_intervals(gtab, dr, moments, blocks, spec$methods, ks, level, kink, unseen, opt, sphere)
  tab <- fp_audit_table_intervals(tab, gr$table, gr$at_floor, gr$diagnostics, dr, moments, spec$methods, ks, level,
                                  unseen)
  list(table = tab, groups_table = gr$table, failed = sum(dr$failed),
       mc_error = fp_audit_mc_error(dr, fp_interval_level(level)))
}

# The nominal level at which the replicates' quantiles are read for intervals of confidence
# `level`: wider by the factor `fp_interval_kappa` on the normal scale, 2 Phi(kappa z) - 1 with
# z = Phi^-1((1 + level) / 2) (0.92 at level 0.9). The percentile intervals of 100 replicates
# from 50 blocks per group cover a little less than their nominal level even where their centre
# and width are right on average: their width varies from sample to sample (a coefficient of
# variation of 0.12-0.15 on bench/audit-coverage.R's designs), their centres by small in-sample
# biases, and a miss costs more than a wider interval gains. On 111 well-behaved designs (d 4-12,
# 2-5 groups, 1,000-3,000 rows per group, Gaussian and Poisson columns, distinct spectra and
# ties; 100 samples each, replicates replayed) the groups' error, loss and variance kept
# intervals at level 0.9 covered 0.884 on average, 331 of 2,389 cells below 0.85. RULE (the
# bench's header, session of 2026-12-05, fixed before any result on its judging designs): read
# at 0.90, 0.91, 0.915, 0.92, 0.93 those cells scored (within less below, above, flagged) 1657,
# 1853, 1899, 1915, 1767 (mean coverage 0.884, 0.896, 0.901, 0.906, 0.917): 0.92, kappa =
# Phi^-1(0.96) / Phi^-1(0.95). It is a calibration of the bootstrap's level (as a double
# bootstrap would estimate it, here once on the bench's populations), not of any one design.
fp_interval_kappa <- stats::qnorm(0.96) / stats::qnorm(0.95)
fp_interval_level <- function(level) 2 * stats::pnorm(fp_interval_kappa * stats::qnorm((1 + level) / 2)) - 1

# The replicates of an audit: `G` (replicate x method x k x group x c(error, loss)), `Vk`
# (replicate x method x k, the variance kept), `Fl` (replicate x k x group, the noise floor of
# a zero loss, fp_audit_floor()), `overlap` (per replicate, of the mean differences' spans) and
# `failed` (per replicate: a fit failed, fp_audit_replicate()). `base`: the sample's side of the
# noise floor (fp_audit_floor_base(), fp_audit_floor_base_rows()).
fp_audit_draw <- function(spec, moments, blocks, ks, base) {
  methods <- spec$methods
  replicates <- spec$intervals$replicates
  m <- length(moments$levels)
  nk <- length(ks)
  G <- array(NA_real_, c(replicates, length(methods), nk, m, 2L))
  Vk <- array(NA_real_, c(replicates, length(methods), nk))
  Fl <- array(NA_real_, c(replicates, nk, m))
  overlap <- rep(NA_real_, replicates)
  Gap <- matrix(NA_real_, replicates, nk)
  failed <- logical(replicates)
  rows <- inherits(moments, "fp_rows")
  pb <- fp_progress_bar(replicates, "fair_audit: intervals", show = spec$show)
  for (r in seq_len(replicates)) {
    if (rows) {
      # the same draws as fp_audit_resample()'s, as the counts of each row's block
      w <- lapply(blocks, function(b) tabulate(sample.int(length(b$n), length(b$n), replace = TRUE), length(b$n)))
      rw <- fp_audit_row_weights(moments$g, attr(blocks, "row"), blocks, w)
      rep_r <- fp_audit_replicate_rows(moments, rw, spec, ks)
    } else {
      mr <- fp_audit_resample(moments, blocks)
      rep_r <- fp_audit_replicate(mr, spec, ks)
    }
    failed[r] <- rep_r$failed
    G[r, , , , ] <- rep_r$groups
    Vk[r, , ] <- rep_r$var_kept
    fl <- if (rows) fp_audit_floor_rows(moments, rw, base, ks) else fp_audit_floor(mr, base, ks)
    Fl[r, , ] <- fl$floor
    overlap[r] <- fl$overlap
    Gap[r, ] <- fl$gap
    pb$update(r)
  }
  pb$done()
  list(G = G, Vk = Vk, Fl = Fl, overlap = overlap, Gap = Gap, gap = base$gap, failed = failed, replicates = replicates)
}

# Each group's error and loss intervals (gtab with `error_low`, ..., `reliable`) and `at_floor`,
# TRUE for the rows whose loss is within the noise floor of a zero loss (the upper quantile of
# the group's floor at that k, at `level`). The intervals read the replicates at the widened
# level (fp_interval_level()).
fp_audit_group_intervals <- function(gtab, dr, moments, blocks, methods, ks, level, kink = NULL, unseen = NULL,
                                     optimism = NULL, sphere = NULL) {
  qlevel <- fp_interval_level(level)
  nb <- vapply(blocks, function(b) length(b$n), numeric(1))
  # each group's numerical rank, or d + 1 when its covariance has full rank (k = d - 1 is fine
  # then): a k at or next to a lower rank has losses at their bound
  d <- length(moments$colnames)
  rank <- vapply(if (inherits(moments, "fp_rows")) lapply(blocks, `[[`, "values") else fp_moments_cov(moments), function(s) {
    ev <- pmax(if (is.matrix(s)) fp_sym_values(s) else s, 0)
    r <- sum(ev > 1e-10 * max(ev, .Machine$double.xmin))
    if (r == d) r + 2 else r
  }, numeric(1))
  floor_q <- matrix(apply(dr$Fl, c(2L, 3L), function(v) fp_interval(v, 0, level, probs = (1 + level) / 2, shift = FALSE)),
                    length(ks), length(moments$levels))
  loose_means <- isTRUE(stats::median(dr$overlap, na.rm = TRUE) < fp_mean_direction_min)
  no_direction <- length(sphere) > 0 && all(sphere > fp_sphere_alpha)
  gq <- c("error", "loss")
  for (q in gq) gtab[paste0(q, c("_low", "_high"))] <- NA_real_
  gtab$reliable <- NA
  gtab$reason <- NA_character_
  dg <- fp_audit_diagnostics(moments, blocks, ks, level)
  tie <- fp_audit_near_tie(dr, ks, length(moments$colnames))
  at_floor <- rep(FALSE, nrow(gtab))
  for (i in seq_len(nrow(gtab))) {
    a <- match(gtab$method[i], methods)
    j <- match(gtab$k[i], ks)
    g <- match(gtab$group[i], moments$levels)
    if (is.na(j) || is.na(gtab$loss[i])) next
    ok <- gtab$n[i] >= fp_min_rows && nb[g] >= 10 && gtab$k[i] < rank[g] - 1L &&
      !(loose_means && gtab$method[i] %in% fp_mean_constrained)
    at_floor[i] <- isTRUE(gtab$loss[i] <= floor_q[j, g])
    why <- if (gtab$n[i] < fp_min_rows || nb[g] < 10) {
      sprintf("too few rows in group %s (%d rows, %d blocks; at least %d rows and 10 blocks)", gtab$group[i],
              as.integer(gtab$n[i]), as.integer(nb[g]), fp_min_rows)
    } else if (gtab$k[i] >= rank[g] - 1L) {
      sprintf("k at the rank of group %s's covariance", gtab$group[i])
    } else if (loose_means && gtab$method[i] %in% fp_mean_constrained) {
      "the data do not fix the direction of the group means' difference, which this method matches"
    } else if (isTRUE(dg$dirs[j, g] * fp_rows_per_direction_min > 1)) {
      fp_dirs_reason(gtab$group[i], gtab$k[i], d, gtab$n[i], few = TRUE)
    } else fp_audit_tail_reason(dg, g)
    if (is.na(why) && no_direction) why <- fp_sphere_reason(sphere)
    if (is.na(why) && gtab$method[i] == "standard" && isTRUE(tie[j])) {
      why <- sprintf(paste("near-tie: the data do not tell eigenvalues %d and %d of the pooled covariance apart, so",
                           "standard PCA's subspace is not determined"), gtab$k[i], gtab$k[i] + 1L)
    }
    if (is.na(why) && gtab$method[i] == "standard" && isTRUE(optimism[j])) why <- fp_pooled_optimism_reason(gtab$k[i])
    for (q in gq) {
      reps <- dr$G[, a, j, g, match(q, gq)]
      iv <- fp_interval(reps, gtab[[q]][i], qlevel) - fp_unseen_of(unseen, q, a, j, g)
      iv <- fp_audit_from_zero(iv, q, gtab[[q]][i], floor = q == "loss" && at_floor[i])
      if (!anyNA(iv)) iv <- c(min(iv[1L], gtab[[q]][i]), max(iv[2L], gtab[[q]][i]))
      gtab[i, paste0(q, c("_low", "_high"))] <- iv
      ok <- ok && !anyNA(iv)
      if (is.na(why) && !(q == "loss" && at_floor[i]) && fp_unseen_bias(reps, gtab[[q]][i], dg$dirs[j, g])) {
        why <- fp_dirs_reason(gtab$group[i], gtab$k[i], d, gtab$n[i])
      }
    }
    # after the reasons a user acts on by the data (rows, tails): a fit at a kink
    if (is.na(why) && !is.null(kink) && isTRUE(kink$z[a, j] > fp_kink_z_max)) why <- fp_kink_reason(kink, a, j)
    gtab$reliable[i] <- ok && is.na(why)
    gtab$reason[i] <- why
  }
  list(table = fp_audit_joint_flags(gtab, methods, ks), at_floor = at_floor, diagnostics = dg)
}

# A fair method's fit depends on every group's moments (min-max's through every group's loss,
# mean matching's through every group's mean), so a group whose intervals are unreliable at k
# (too few rows for its directions, heavy tails, ...) makes every group's intervals of that
# method at k unreliable: with a group of 60 rows beside two of 3,000 (d = 12, k = 1), min-max's
# error of a 3,000-row group covered 0.57 unflagged while the small groups' were flagged
# (bench/audit-coverage.R, run "2026-12-03l"). The other groups take the first flagged group's
# reason. Standard PCA's subspace is the pooled one, which a small group barely moves.
fp_audit_joint_flags <- function(gtab, methods, ks) {
  for (a in setdiff(methods, "standard")) {
    for (kk in ks) {
      rows <- which(gtab$method == a & gtab$k == kk & !is.na(gtab$reliable))
      bad <- rows[!gtab$reliable[rows]]
      if (!length(bad) || length(bad) == length(rows)) next
      why <- gtab$reason[bad][!is.na(gtab$reason[bad])][1L]
      if (is.na(why)) why <- sprintf("group %s's intervals could not be computed", gtab$group[bad[1L]])
      gtab$reason[rows[is.na(gtab$reason[rows])]] <- why
      gtab$reliable[rows] <- FALSE
    }
  }
  gtab
}

# Per method and k: the largest, smallest and spread of the group losses and errors from the
# replicates of all groups together (fp_max_interval(), fp_gap_interval()), the ratio, the
# variance kept and the price one by one; `reliable` where every group's interval is.
fp_audit_table_intervals <- function(tab, gtab, at_floor, dg, dr, moments, methods, ks, level, unseen = NULL) {
  all_q <- c("max_loss", "min_loss", "loss_gap", "loss_ratio", "max_error", "error_gap", "var_kept", "price")
  checked <- c("max_loss", "loss_gap", "max_error", "price")  # the ratio's spread is often infinite
  std <- match("standard", methods)
  R <- dr$replicates
  for (q in c(all_q, "max_loss_change")) tab[paste0(q, c("_low", "_high"))] <- NA_real_
  tab$reliable <- NA
  tab$reason <- NA_character_
  d <- length(moments$colnames)
  small <- fp_audit_small_groups(moments, ks)
  level <- fp_interval_level(level)  # the replicates read at the widened level
  for (i in seq_len(nrow(tab))) {
    j <- match(tab$k[i], ks)
    if (is.na(j) || is.na(tab$var_kept[i])) next
    a <- match(tab$method[i], methods)
    rows <- gtab$method == tab$method[i] & gtab$k == tab$k[i]
    gi <- match(gtab$group[rows], moments$levels)
    E <- matrix(dr$G[, a, j, gi, 1L], R)
    L <- matrix(dr$G[, a, j, gi, 2L], R)
    # the intervals centred as the groups' own (fp_audit_unseen())
    u <- fp_unseen_of(unseen, "loss", a, j, gi)
    lc <- gtab$loss[rows] - u
    ratio <- fp_audit_ratio_reps(E, L, lc, any(u != 0))
    ec <- gtab$error[rows] - fp_unseen_of(unseen, "error", a, j, gi)
    # a fair method whose groups' errors and losses are centred on their bias-corrected
    # estimates (a group with 20 to 25 rows per direction, fp_audit_small_bias()) has its
    # variance kept and price centred so too: both carry the same in-sample optimism
    vk_small <- a != std && any(small[j, ])
    # standard PCA's largest and smallest: the replicates' own (fp_max_interval())
    own <- a == std
    ivs <- list(max_loss = fp_max_interval(L, lc, level, own),
                min_loss = fp_min_interval(L, lc, level, own),
                loss_gap = fp_gap_interval(L, lc, level, "lower"),
                loss_ratio = pmax(fp_ratio_interval(ratio, tab$loss_ratio[i], gtab$error[rows], lc, level), 1),
                max_error = fp_max_interval(E, ec, level, own),
                error_gap = fp_gap_interval(E, ec, level, "lower", screen = TRUE),
                var_kept = fp_interval_corrected(dr$Vk[, a, j], tab$var_kept[i], level,
                                                 if (vk_small) 1 else fp_var_kept_bias_c),
                price = fp_interval_corrected(dr$Vk[, std, j] - dr$Vk[, a, j], tab$price[i], level, as.numeric(vk_small)))
    # a gap whose interval lies within 1e-7 of the largest error is 0 to the solvers' precision
    # (min-max's loss gap with two groups): its interval starts at 0
    tiny <- 1e-7 * max(gtab$error[rows], 0, na.rm = TRUE)
    for (q in c("loss_gap", "error_gap")) if (!anyNA(ivs[[q]]) && (ivs[[q]][2L] <= tiny || isTRUE(tab[[q]][i] <= tiny))) ivs[[q]][1L] <- 0
    # the largest loss is told apart from 0 where one group's loss is (above its own noise
    # floor; comparing it with the largest group's floor, that of the smallest group, made it
    # start at 0 beside a larger group's clearly positive loss); the smallest is not where one
    # group's loss is within its floor
    at_zero <- c(max_loss = all(at_floor[rows]), min_loss = any(at_floor[rows]))
    ok <- all(gtab$reliable[rows] %in% TRUE)
    why <- fp_audit_table_reason(gtab$reason[rows], dg, dr, E, tab[i, , drop = FALSE], a, std, j, gi, moments)
    ok <- ok && is.na(why)
    tab$reason[i] <- why
    for (q in all_q) {
      tab[i, paste0(q, c("_low", "_high"))] <- fp_audit_from_zero(ivs[[q]], q, tab[[q]][i], floor = isTRUE(at_zero[q]),
                                                                  kink = q == "loss_gap" && fp_audit_kinked(tab$method[i], length(gi)))
      if (q %in% checked) ok <- ok && !anyNA(ivs[[q]])
    }
    # a smallest loss not told apart from 0 leaves the ratio unbounded (Inf where only the
    # smallest is 0), and where every loss may be 0 the ratio may be 1 (fp_audit_loss_ratio())
    if (isTRUE(tab$max_loss_high[i] == 0) && !is.na(tab$loss_ratio_high[i])) {
      # every loss 0 in every replicate (k = d): equal losses, a ratio of 1 (no unbounded end)
      tab[i, c("loss_ratio_low", "loss_ratio_high")] <- 1
    } else if (isTRUE(tab$min_loss_low[i] == 0) && !is.na(tab$loss_ratio_high[i])) {
      tab$loss_ratio_high[i] <- Inf
      if (isTRUE(tab$max_loss_low[i] == 0)) tab$loss_ratio_low[i] <- 1
    }
    # losses the data do not tell apart (their gap's interval starts at 0) may be equal: the
    # ratio may be 1 (min-max's three equalised losses, a ratio of 1 + 1e-9 by the solver's
    # precision, had intervals above 1 that missed a truth of 1 + 3e-10 in 18 of 30 samples)
    if (isTRUE(tab$loss_gap_low[i] == 0) && !is.na(tab$loss_ratio_low[i])) tab$loss_ratio_low[i] <- 1
    if (a != std) tab[i, c("max_loss_change_low", "max_loss_change_high")] <- fp_audit_change_interval(tab, i, L, dr, std, j, gi, level)
    row <- fp_audit_consistent_row(as.list(tab[i, , drop = FALSE]), gtab[rows, , drop = FALSE])
    for (q in c(all_q, "max_loss_change")) tab[i, paste0(q, c("_low", "_high"))] <- unlist(row[paste0(q, c("_low", "_high"))])
    if (fp_audit_zero_gap(tab$method[i], length(gi))) {
      tab[i, c("loss_gap_low", "loss_gap_high", "loss_ratio_low", "loss_ratio_high")] <- NA_real_
    }
    tab$reliable[i] <- ok
  }
  tab
}

# An interval is called unreliable when its group has fewer than `fp_min_rows` rows or fewer
# than 10 non-empty blocks, or when k is at least its covariance's rank minus 1 (when that rank
# is below d); bench/audit-coverage.R measures the coverage of the intervals kept and flagged.
fp_min_rows <- 50

# The interval settings checked: NULL when no intervals are asked for (`level = NULL` or
# `replicates = 0`), else list(level, replicates, blocks).
fp_audit_check_intervals <- function(level, replicates, blocks) {
  if (!is.null(level)) fp_check_number(level, "level", 0, 1, open_lower = TRUE, open_upper = TRUE)
  if (!is.numeric(replicates) || length(replicates) != 1L || is.na(replicates) || replicates != round(replicates) ||
      (replicates != 0 && (replicates < 20 || replicates > 1e5))) {
    fp_abort("must be 0 (no intervals) or a whole number of bootstrap replicates between 20 and 100000", "replicates")
  }
  blocks <- fp_check_count(blocks, 10L, 1000L, "blocks")
  if (is.null(level) || replicates == 0) return(NULL)
  list(level = level, replicates = as.integer(replicates), blocks = blocks)
}

fp_audit_memory_note <- function(m, d, parts) {
  sprintf(paste("the block moments of %d groups x %d columns need more than the memory budget",
                "(10 blocks: %s MB; option `fairproj.interval_memory`, default 256 MB), so no intervals were computed"),
          m, d, format(ceiling(10 * 8 * (d^2 + d + 1) * m * parts / 2^20)))
}

# The dimensions with intervals: "all", or whole numbers among the audited ones.
fp_audit_interval_k <- function(k, ks) {
  if (identical(k, "all")) return(ks)
  if (!is.numeric(k) || !length(k) || anyNA(k) || !all(k %in% ks)) {
    fp_abort(sprintf("must be \"all\" or among the audited dimensions (%s)", fp_name_list(ks)), "interval_k")
  }
  sort(unique(as.integer(k)))
}

# Quantities that cannot be negative (errors, losses, their gaps, the price of a fair method).
fp_bounded_quantities <- c("error", "loss", "max_loss", "min_loss", "loss_gap", "max_error", "error_gap", "price")

# The interval of a quantity that cannot be negative, near its bound 0: kept above 0 (the shift
# by the bias can cross it; the truth cannot), and starting at 0 where it is not distinguishable
# from 0: a loss (fp_floored_quantities) where `floor = TRUE`, within the noise floor of a zero
# loss (fp_audit_floor()); an error or a price where the estimate is smaller than the
# interval's width. Near 0 a loss behaves like a sum of squares
# of noise, whose replicates stay above 0 however small the truth: with two groups drawn from
# one population (all losses 0, d = 4, k = 2), the shifted intervals covered 0 in 36-74% of the
# samples, from 0 where the estimate is below the width 97-100%; with 32 directions (d = 12,
# k = 4) the width rule alone covered 6-81%, which the floor mends (bench/audit-coverage.R).
# Gaps are not touched: fp_gap_interval() starts at 0 where the difference's interval holds 0;
# but a gap at a kink (`kink = TRUE`, fp_audit_kinked()) follows the width rule too.
fp_audit_from_zero <- function(iv, q, est, floor = FALSE, kink = FALSE) {
  if (!q %in% fp_bounded_quantities || anyNA(iv)) return(iv)
  iv <- pmax(iv, 0)
  if (q %in% fp_floored_quantities) {
    if (floor) iv[1L] <- 0
  } else if ((kink || !q %in% c("loss_gap", "error_gap")) && !is.na(est) && est < iv[2L] - iv[1L]) {
    iv[1L] <- 0
  }
  iv
}
# Whether a method's loss gap sits at a kink: min-max with three or more groups equalises the
# losses of the groups its optimum keeps active, and where the population's keeps them all (gap
# 0) a sample's fit may leave one group below the others; the bootstrap then resamples a world
# whose gap is that margin and its interval misses 0 (d = 8, k = 1, three groups of 2,000
# rows: in 26 of 100 samples, the fit's gap 0.16-1.2 of the interval's half-width and the
# interval above 0; bench/audit-coverage.R, judge20). Its interval starts at 0 where the
# estimate is below its width, as an error's does (fp_audit_from_zero()).
fp_audit_kinked <- function(method, m) method == "minmax" & m >= 3L

# The table rows whose loss gap's interval starts at 0 at a kink (fp_audit_kinked()): the
# population's losses may all be equal, a gap at its bound 0 that an interval holding its
# estimate covers always, not at the level. Their gap and ratio intervals are flagged (those
# two terms only) with fp_gap_bound_reason: on 20 designs whose population min-max equalises
# three to five groups, the intervals covered 0.97-1.00 (bench/audit-coverage.R, judge19/19b).
fp_audit_gap_at_bound <- function(tab, m) {
  fp_audit_kinked(tab$method, m) & !is.na(tab$loss_gap_low) & tab$loss_gap_low == 0
}
fp_gap_bound_reason <- paste("the groups' losses may all be equal (min-max's gap at its bound 0): the interval",
                             "covers more than the level there; read it as an upper bound")
# The losses, whose test of 0 is their noise floor alone. The width rule (an estimate below its
# interval's width) made every interval of a loss estimated from few rows start at 0, however
# far above its floor (mean matching's loss of 26 rows on birthwt, 2.07 against a floor of
# 1.44 and an interval [1.1, 3.4]), and so every largest loss.
fp_floored_quantities <- c("loss", "max_loss", "min_loss")
fp_zero_note <- "0 is not ruled out at this level: the interval starts at 0"

# TRUE where the interval of a loss, largest or smallest loss starts at 0 (fp_audit_starts_at_zero()):
# the estimate is within the noise floor of a zero loss (fp_audit_floor()), so the data do not
# tell the loss from its bound 0, and an interval that holds 0 whenever they cannot covers a loss
# of 0 more often than the level. Such intervals are flagged (those terms only; the group's error
# interval is not touched), as min-max's gap at its bound is (fp_gap_bound_reason): where the
# population's losses were 0 (groups drawn from one population, full-grid shards of
# bench/audit-coverage.R), the losses' intervals covered 0.97-1.00, above the level.
fp_audit_loss_at_bound <- function(q, low, high) q %in% fp_floored_quantities & fp_audit_starts_at_zero(q, low, high)
fp_loss_bound_reason <- paste("0 is not ruled out (the loss is within the noise floor of a zero loss): an interval at",
                              "the bound 0 covers more than the level there; read it as an upper bound")

# The rows of the long table `out` that are a largest error whose groups the data do not tell
# apart (the error gap's interval, same method and k, starts at 0) among m groups whose one-sided
# misses can add to more than the level allows, 1 - (1 - (1 - level) / 2)^m > 1 - level (three
# groups or more at 0.9). The largest's interval is kept no lower than each group's own (item 2
# of #44: consistency), and there the largest of m groups' lower ends misses a common value more
# often than the level: where every group's error was equal in the population (groups drawn from
# one population), the largest error's own interval covered 0.92-0.94 and, raised to the groups'
# lower ends, 0.90 at three groups, 0.82-0.83 at four, 0.72-0.78 at five (bench/audit-coverage.R,
# judge39, rule M3). Such intervals are flagged, that term only.
fp_audit_tied_max_error <- function(out, m, level) {
  if (is.null(level) || !(1 - (1 - (1 - level) / 2)^m > 1 - level)) return(rep(FALSE, nrow(out)))
  gap <- out[out$term == "error_gap", , drop = FALSE]
  tied <- paste(gap$method, gap$k)[!is.na(gap$conf.low) & gap$conf.low == 0]
  out$term == "max_error" & paste(out$method, out$k) %in% tied
}
fp_tied_max_reason <- paste("the groups' errors are not told apart (their gap's interval starts at 0): the largest's",
                            "interval, kept no lower than each group's own, holds less often than the level there;",
                            "read the groups' intervals")

# TRUE where the interval of a quantity that cannot be negative starts at 0 and is not a point.
fp_audit_starts_at_zero <- function(q, low, high) {
  q %in% fp_bounded_quantities & !is.na(low) & low == 0 & !is.na(high) & high > 0
}

# The intervals of an audit in long form (tidy(matrix = "intervals")); an interval that starts
# at 0 says so in `note`.
fp_audit_intervals_long <- function(x) {
  long <- function(t, qs, group) {
    t <- t[t$k %in% x$intervals$k, , drop = FALSE]
    do.call(rbind, lapply(qs, function(q) {
      lo <- t[[paste0(q, "_low")]]
      hi <- t[[paste0(q, "_high")]]
      zero <- fp_audit_starts_at_zero(q, lo, hi)
      data.frame(method = t$method, k = t$k, group = group(t), term = q, estimate = t[[q]],
                 conf.low = lo, conf.high = hi, reliable = t$reliable,
                 note = ifelse(zero, fp_zero_note, NA_character_),
                 reason = if (is.null(t$reason)) NA_character_ else t$reason, stringsAsFactors = FALSE)
    }))
  }
  tb <- fp_audit_reported(x)
  x$table <- tb
  out <- rbind(long(x$groups_table, c("error", "loss"), function(t) t$group),
               long(x$table, c("max_loss", "min_loss", "loss_gap", "loss_ratio", "max_error", "error_gap", "var_kept",
                               "price", if (!is.null(tb$max_loss_change_low)) "max_loss_change"),
                    function(t) rep(NA_character_, nrow(t))))
  out <- out[!(out$term == "max_loss_change" & out$method == "standard"), , drop = FALSE]  # 0 by definition
  # a min-max gap (and ratio) whose interval starts at 0 at a kink is flagged, those two terms only
  bd <- paste(out$method, out$k) %in% paste(tb$method, tb$k)[fp_audit_gap_at_bound(tb, nrow(x$groups))] &
    out$term %in% c("loss_gap", "loss_ratio")
  out$reliable[bd] <- FALSE
  out$reason[bd & is.na(out$reason)] <- fp_gap_bound_reason
  # a loss whose interval starts at 0 (within its noise floor) is flagged, those terms only
  zl <- fp_audit_loss_at_bound(out$term, out$conf.low, out$conf.high)
  out$reliable[zl] <- FALSE
  out$reason[zl & is.na(out$reason)] <- fp_loss_bound_reason
  # the largest error where the groups' errors are not told apart (fp_audit_tied_max_error())
  te <- fp_audit_tied_max_error(out, nrow(x$groups), x$intervals$level)
  out$reliable[te] <- FALSE
  out$reason[te & is.na(out$reason)] <- fp_tied_max_reason
  zg <- out$method %in% tb$method[tb$zero_gap] & out$term %in% c("loss_gap", "loss_ratio")
  out$note[zg] <- ifelse(out$term[zg] == "loss_gap", fp_zero_gap_note, sub("0 by", "1 by", fp_zero_gap_note))
  out <- out[order(match(out$method, x$methods), out$k), , drop = FALSE]
  rownames(out) <- NULL
  out
}

# Fraction of the total variance of the prepared data that a fit's reconstruction keeps.
fp_audit_var_kept <- function(fit, C) {
  V <- fit$rotation
  kept <- if (!is.null(fit$map_basis)) {
    fp_map_kept(list(B = fit$map_basis, l = fit$map_weights), C)
  } else if (!is.null(fit$map)) {
    R <- diag(nrow(C)) - fit$map
    sum(diag(C)) - sum(crossprod(R, C) * t(R))
  } else {
    sum((C %*% V) * V)
  }
  kept / sum(diag(C))
}

# The variance kept by a row-route fit, as fp_audit_var_kept() of a moments fit: from one product
# of the rows with its basis (fp_rows_quad(), normalised units, whose total variance is d), with
# min-max's map weighted as fp_map_kept() weighs it.
fp_audit_var_kept_rows <- function(fit, prep) {
  B <- if (!is.null(fit$map_basis)) fit$map_basis else fit$rotation
  l <- if (!is.null(fit$map_basis)) fit$map_weights else rep(1, ncol(B))
  kept <- sum((2 * l - l^2) * diag(fp_rows_quad(prep, unname(B))$A))
  kept / prep$d
}

# Largest over smallest marginal loss, with losses within 1e-10 of the largest group error
# counted as 0 (the solvers' precision): 1 when every loss is 0 (equal losses), Inf when only
# the smallest is (a group served as well as by its own best rank-k projection).
fp_audit_loss_ratio <- function(gs) {
  tol <- 1e-10 * max(gs$error, 0)
  hi <- max(gs$loss)
  lo <- min(gs$loss)
  if (hi <= tol) 1 else if (lo <= tol) Inf else hi / lo
}

# ---------------------------------------------------------------------------------------------
# The interval of one quantity from its replicates (percentile, centred on the estimate), and the intervals
# of the largest, the smallest and the spread of several quantities (a largest loss, a loss gap),
# which are not smooth functions of the moments where two groups are close.

# Quantiles of replicates that may hold Inf (loss ratios), type 6: the order statistic at
# p (R + 1), interpolated between finite neighbours (the nearer one where a neighbour is
# infinite). With R replicates the expected share of the distribution between the `p` and
# `1 - p` quantiles is then 1 - 2p exactly, where type 7 (R's default) holds (1 - 2p) R/(R+1)
# minus 2 (1 - 2p)/(R + 1): 0.882 instead of 0.9 at 100 replicates.
fp_quantile_inf <- function(v, p) {
  v <- sort(v[!is.na(v)])
  n <- length(v)
  if (!n) return(rep(NA_real_, length(p)))
  h <- pmin(pmax((n + 1) * p, 1), n)
  lo <- floor(h)
  hi <- ceiling(h)
  vapply(seq_along(p), function(i) {
    if (lo[i] == hi[i] || !is.finite(v[lo[i]]) || !is.finite(v[hi[i]])) return(v[if (p[i] < 0.5) lo[i] else hi[i]])
    v[lo[i]] + (h[i] - lo[i]) * (v[hi[i]] - v[lo[i]])
  }, numeric(1))
}

# The interval of one quantity from its replicates `reps` and estimate `est`: the `probs`
# quantiles of the replicates (by default the two-sided `level` ones), shifted by the bootstrap's
# estimate of bias (the replicates' mean minus the estimate). The percentile interval alone
# is centred where the replicates are, above the estimate by its bias (the loss of a group
# under a subspace fitted to few rows is biased upwards, and the replicates add that bias
# again); the shift centres it on the estimate. (Shifting twice, onto the bias-corrected
# estimate, covered as little as 77% at 50 rows per group on bench/audit-coverage.R's samples;
# shifting twice only where the bias exceeded half the replicates' sd, as the package did until
# run "2026-12-03k", moved the interval's centre by a jump from sample to sample, its centres
# spread 15-18% more than the estimates, and it covered less on three sets of designs: see
# bench/audit-coverage.R.) Not shifted with `shift = FALSE` or when a replicate is
# infinite (the loss ratio, whose replicates are too skewed for a mean). NA where fewer than
# 90% of the replicates have a value.
fp_interval <- function(reps, est, level, probs = c(1 - level, 1 + level) / 2, shift = TRUE) {
  ok <- !is.na(reps)
  if (is.na(est) || sum(ok) < 0.9 * length(reps)) return(c(NA_real_, NA_real_))
  r <- reps[ok]
  q <- fp_quantile_inf(r, probs)
  if (!(shift && is.finite(est) && all(is.finite(r)))) return(q)
  b <- mean(r) - est
  q - b
}

# Simultaneous quantile levels for the columns of M (replicates x quantities): the p such that
# in a share `level` of the replicates every column lies within its [p, 1 - p] quantiles
# (`lower = FALSE`), or above its p quantile (`lower = TRUE`). One column: (1 - level) / 2, or
# 1 - level. The replicates calibrate the joint level, so that correlated columns cost less
# than Bonferroni's division.
fp_simultaneous_p <- function(M, level, lower = FALSE) {
  U <- apply(M, 2L, function(v) rank(v, ties.method = "average") / (length(v) + 1))
  U <- matrix(U, nrow(M))
  depth <- if (lower) apply(U, 1L, min) else apply(pmin(U, 1 - U), 1L, min)
  fp_quantile_inf(depth, 1 - level)
}

# The groups that may hold the largest of the quantities (columns of M, estimates `est`): the
# estimated largest and every group whose difference from it has an interval reaching 0.
fp_max_candidates <- function(M, est, level) {
  top <- which.max(est)
  which(vapply(seq_along(est), function(g) {
    g == top || fp_interval(M[, top] - M[, g], est[top] - est[g], level)[1L] <= 0
  }, logical(1)))
}

# The level at which the candidates for the lower end of the groups' error gap are screened
# (fp_gap_interval(screen = TRUE)): 1 - (1 - level) / 10. Screened at the interval's own level,
# where every group's error is equal the screening often kept the one data-selected pair
# (largest, smallest) and its one-sided end was read as if no selection had happened (the error
# gap of groups drawn from one population covered 0.73-0.83). A first step at a tenth of the
# miss rate is Romano, Shaikh and Wolf's (2014) two-step choice. The loss gap keeps the level's
# screening: its one-sided construction was calibrated on it (RULE G) and sits at 0.93-0.95 on
# structured designs, where the wider screening pushed four cells above 0.95 (rule G3,
# bench/audit-coverage.R).
fp_screen_level <- function(level) 1 - (1 - level) / 10

# The replicates with a value for every quantity, or NULL when fewer than 90% of them do.
fp_complete_replicates <- function(M, est) {
  ok <- stats::complete.cases(M) & apply(is.finite(M), 1L, all)
  if (anyNA(est) || !all(is.finite(est)) || sum(ok) < 0.9 * nrow(M)) return(NULL)
  M[ok, , drop = FALSE]
}

# The interval of the largest of several quantities. The largest is not a smooth function of
# them where two are close: its estimate is biased upwards and the percentile interval of its
# replicates misses (mean matching's largest loss, two groups 0.63 and 0.66, was covered
# 76-81% of the time at 90%). So: one candidate for the largest (fp_max_candidates()), its own
# interval; several, from their lower bounds holding simultaneously (level (1 + level) / 2,
# calibrated on the replicates) and their upper bounds one by one (each (1 + level) / 2): the
# largest lies between the largest lower bound and the largest upper bound whenever the group
# that holds it is below its upper bound and every candidate above its lower bound, which
# fails with probability at most 1 - level. That upper end is conservative: with `own = TRUE`
# it is instead the upper end of the replicates' own largest over the candidates, shifted onto
# the estimate (its bias taken off as for one quantity). Standard PCA's groups' losses and
# errors are smooth functions of the moments, and there its largest and smallest covered above
# 0.95 in a sixth of the seen designs' cells; the fair methods' are not (ties, kinks) and keep
# the conservative end (rule M2s, bench/audit-coverage.R: calibrated on 40 seen designs, judged
# on 40 drawn afterwards).
fp_max_interval <- function(M, est, level, own = FALSE) {
  M <- fp_complete_replicates(M, est)
  if (is.null(M)) return(c(NA_real_, NA_real_))
  cand <- fp_max_candidates(M, est, level)
  if (length(cand) == 1L) return(fp_interval(M[, cand], est[cand], level))
  p <- fp_simultaneous_p(M[, cand, drop = FALSE], (1 + level) / 2, lower = TRUE)
  lo <- vapply(cand, function(g) fp_interval(M[, g], est[g], NA, probs = p)[1L], numeric(1))
  hi <- if (own) {
    fp_interval(apply(M[, cand, drop = FALSE], 1L, max), max(est[cand]), level)[2L]
  } else {
    vapply(cand, function(g) fp_interval(M[, g], est[g], level)[2L], numeric(1))
  }
  c(max(lo), max(hi))
}

fp_min_interval <- function(M, est, level, own = FALSE) -rev(fp_max_interval(-M, -est, level, own))

# The interval of the spread (largest minus smallest) of several quantities, from the
# differences between the candidates for the largest and for the smallest (fp_max_candidates()):
# with one pair, that difference's interval (the spread is smooth there). With several and
# `ends = "lower"` (the groups' losses and errors), the spread is at least every pair's
# difference, so its lower end is the largest of the pairs' lower ends holding simultaneously
# (one-sided, at the level, calibrated on the replicates), and it is the true pair's
# difference, so its upper end is the largest of the pairs' own upper ends. The one-sided level
# is calibrated, not a bound (the union bound asks (1 + level) / 2 there): both ends from the
# pairs' intervals holding simultaneously two-sided (`ends = "both"`, the rates' gaps
# downstream, not calibrated anew), as until 2026-12-05, covered the loss gap 0.93-0.95 with
# three to five groups (its upper end missed in 2% of samples); of the constructions tried on
# 120 designs this one came closest to the level and held on 40 drawn afterwards
# (bench/audit-coverage.R, RULE G). A spread whose interval starts at 0 is not told apart from
# 0 at that level: two groups served alike, or a method that equalises them (min-max's loss gap).
# With `screen = TRUE` (the groups' error gap) the lower end's pairs are screened at
# fp_screen_level() instead (the upper end's unchanged).
fp_gap_interval <- function(M, est, level, ends = c("both", "lower"), screen = FALSE) {
  ends <- match.arg(ends)
  M <- fp_complete_replicates(M, est)
  if (is.null(M) || ncol(M) < 2L) return(c(NA_real_, NA_real_))
  ends_of <- function(at) {
    pairs <- expand.grid(a = fp_max_candidates(M, est, at), b = fp_max_candidates(-M, -est, at))
    pairs <- pairs[pairs$a != pairs$b, , drop = FALSE]
    D <- M[, pairs$a, drop = FALSE] - M[, pairs$b, drop = FALSE]
    De <- est[pairs$a] - est[pairs$b]
    if (ncol(D) == 1L || ends == "both") {
      p <- if (ncol(D) == 1L) (1 - level) / 2 else fp_simultaneous_p(D, level)
      iv <- vapply(seq_len(ncol(D)), function(j) fp_interval(D[, j], De[j], NA, probs = c(p, 1 - p)), numeric(2))
      return(c(max(0, iv[1L, ], -iv[2L, ]), max(0, iv[2L, ], -iv[1L, ])))
    }
    p <- fp_simultaneous_p(D, level, lower = TRUE)
    lo <- vapply(seq_len(ncol(D)), function(j) fp_interval(D[, j], De[j], NA, probs = p), numeric(1))
    hi <- vapply(seq_len(ncol(D)), function(j) fp_interval(D[, j], De[j], level)[2L], numeric(1))
    c(max(0, lo), max(0, hi))
  }
  iv <- ends_of(level)
  if (ends == "both" || !screen) return(iv)
  # the lower end, which faces a tie, from the pairs of candidates screened at fp_screen_level()
  c(min(ends_of(fp_screen_level(level))[1L], iv[2L]), iv[2L])
}

# ---- reliability diagnostics (#44) ----------------------------------------------------------

# Tail index of the rows' squared standardised norms (each column centred on the group's mean
# and scaled by its sd), by Hill's estimator on the largest sqrt(n) of them (at least 10): about
# nu / 2 for a multivariate t with nu degrees of freedom, large for Gaussian or bounded columns.
# The sample covariance has a sampling distribution at the usual rate only where the rows'
# fourth moments are finite, that is where this index exceeds 2; below 2 no bootstrap interval
# of the covariance's functionals is calibrated. One per level of the factor `g` (the rows one
# group without it); NA for a group with fewer than 20 rows, or without a column that varies.
# The norms come from the rows as R holds them (.fp_audit_tail_norms(), src/audit.cpp: each
# column divided by its largest magnitude in the group first, so that no square overflows or
# underflows), so no group's rows are copied: the audit's memory stays O(d^2) beyond the data.
fp_tail_index <- function(x, g = NULL) {
  codes <- if (is.null(g)) rep(1L, nrow(x)) else as.integer(g)
  m <- if (is.null(g)) 1L else nlevels(g)
  tn <- fp_cpp(.fp_audit_tail_norms(x, codes, m), "the audit's tail index")
  ng <- tabulate(codes, m)
  vapply(seq_len(m), function(i) {
    if (ng[i] < 20L || tn$columns[i] == 0L) NA_real_ else fp_hill_index(tn$norm[codes == i])
  }, numeric(1))
}

# fp_tail_index() from the rows' squared standardised norms `u` (any common divisor of the
# columns' variances: the index is scale free).
fp_hill_index <- function(u) {
  n <- length(u)
  if (n < 20L) return(NA_real_)
  kh <- max(10L, floor(sqrt(n)))
  s <- sort(u, decreasing = TRUE)[seq_len(kh + 1L)]
  if (!is.finite(s[kh + 1L]) || s[kh + 1L] <= 0) return(NA_real_)
  1 / mean(log(s[seq_len(kh)] / s[kh + 1L]))
}

# The degrees of freedom of a group's bootstrap width: 2 J / (kappa - 1), where kappa is the
# kurtosis over its J blocks of the blocks' standardised traces (each block's sum of squared
# deviations from the group's mean over the group's column variances, times the square root of
# its rows so that unequal blocks compare). Gaussian blocks give kappa near 3 and about J
# degrees of freedom; a few blocks that carry most of the spread (heavy tails) give few.
fp_block_df <- function(b, v) {
  J <- length(b$n)
  if (J < 10L || any(v <= 0)) return(NA_real_)
  d <- length(v)
  diag_idx <- (seq_len(d) - 1L) * d + seq_len(d)
  fp_trace_df((colSums(b$scatter[diag_idx, , drop = FALSE] / v) + b$n * colSums(b$delta^2 / v)) / pmax(b$n, 1), b$n)
}

# fp_block_df() from the blocks' standardised traces `tr` and their rows `n`.
fp_trace_df <- function(tr, n) {
  ok <- n > 0
  z <- sqrt(n[ok]) * (tr[ok] - sum(tr[ok] * n[ok]) / sum(n[ok]))
  kap <- mean(z^4) / mean(z^2)^2
  if (!is.finite(kap)) return(NA_real_)
  2 * sum(ok) / max(kap - 1, 1e-8)
}

# Each group's diagnostics: `tail` (fp_tail_index(), NA from moments), `df` (fp_block_df()),
# `kurt` (fp_block_kurtosis()), `dirs` (directions estimated per row, k (d - k) / n, at each k
# in `ks`: a matrix k x group).
fp_audit_diagnostics <- function(moments, blocks, ks, level) {
  d <- length(moments$colnames)
  if (inherits(moments, "fp_rows")) {
    # the row route: computed from the rows with its blocks (fp_audit_row_blocks())
    kurt <- vapply(blocks, `[[`, numeric(2), "kurt")
    return(list(tail = vapply(blocks, `[[`, numeric(1), "tail"), df = vapply(blocks, `[[`, numeric(1), "df"),
                kurt = kurt[1L, ], kurt_se = kurt[2L, ], dirs = matrix(outer(ks * (d - ks), moments$n, "/"), length(ks)),
                levels = moments$levels, level = level))
  }
  S <- fp_moments_cov(moments)
  v <- lapply(S, diag)
  tail <- vapply(blocks, function(b) if (is.null(b$tail)) NA_real_ else b$tail, numeric(1))
  df <- vapply(seq_along(blocks), function(i) fp_block_df(blocks[[i]], v[[i]]), numeric(1))
  kurt <- vapply(seq_along(blocks), function(i) fp_block_kurtosis(blocks[[i]], S[[i]]), numeric(2))
  dirs <- outer(ks * (d - ks), moments$n, "/")
  list(tail = tail, df = df, kurt = kurt[1L, ], kurt_se = kurt[2L, ], dirs = matrix(dirs, length(ks)),
       levels = moments$levels, level = level)
}

# The kurtosis of a group's rows against Gaussian rows', from its blocks: the spread of the
# blocks' second moments about the group's mean, M_b, whitened by the group's covariance S
# (W' M_b W, W = S^-1/2 on S's numerical range of rank r), against what Gaussian (Wishart)
# blocks of the same sizes give: sum_b n_b ||W' M_b W - I||_F^2 / ((J - 1) (r^2 + r)). About 1
# for Gaussian rows (0.96-1.04 at d = 12 with 1,000 rows in 50 blocks), 1 + kappa for elliptical
# ones of kurtosis parameter kappa (t with nu degrees of freedom: (nu - 2) / (nu - 4), 1.5 at
# nu = 8, 3 at nu = 5, where the blocks show 1.8-2.5), about 1.05 for bench/audit-coverage.R's
# Poisson counts. Affine invariant, and computed from the block moments alone (also where the
# audit has no rows). Returns it and its standard error for Gaussian rows, 2 / sqrt((J - 1)
# (r^2 + r)) (each block's term is a sum of r^2 + r weighted chi-squares of variance 4 (r^2 +
# r)): 0.03 at r = 12, 0.2 at r = 1 with 50 blocks; NA with fewer than 10 blocks.
fp_block_kurtosis <- function(b, S) {
  ok <- b$n > 1
  J <- sum(ok)
  if (J < 10L) return(c(NA_real_, NA_real_))
  e <- eigen(S, symmetric = TRUE)
  keep <- e$values > 1e-10 * max(e$values, 0)
  r <- sum(keep)
  if (!r) return(c(NA_real_, NA_real_))
  # ||W' M W - I||^2 = tr((S+ M)^2) - 2 tr(S+ M) + r with S+ = W W' (S's pseudo-inverse): one
  # product with S+ for all blocks at once (0.8 s of CPU for three groups of 50 blocks at d = 200,
  # 1.9 times faster than W' M W block by block; 5 ms at d = 20)
  W <- e$vectors[, keep, drop = FALSE] %*% diag(1 / sqrt(e$values[keep]), r)
  Sp <- tcrossprod(W)
  d <- nrow(S)
  idx <- which(ok)
  P <- Sp %*% matrix(b$scatter[, idx, drop = FALSE], d)
  Pd <- Sp %*% b$delta[, idx, drop = FALSE]
  dev <- vapply(seq_along(idx), function(i) {
    j <- idx[i]
    Pj <- (P[, (i - 1L) * d + seq_len(d)] + b$n[j] * tcrossprod(Pd[, i], b$delta[, j])) / b$n[j]
    b$n[j] * (sum(Pj * t(Pj)) - 2 * sum(diag(Pj)) + r)
  }, numeric(1))
  c(sum(dev) / ((J - 1) * (r^2 + r)), 2 / sqrt((J - 1) * (r^2 + r)))
}

# fp_block_kurtosis() from a group's rows, without its d x d covariance: `U` (n_g x r) the left
# singular vectors of its centred rows Y (the range of S = Y'Y / n_g, as fp_block_kurtosis()
# keeps it), `block` each row's block. A block's whitened second moment S+ M_b, M_b = Y_b'Y_b /
# n_b, is similar to (n_g / n_b) U_b'U_b, so ||S+ M_b||^2 and tr(S+ M_b) come from the r x r
# product P_b = U_b'U_b: n_b (a^2 ||P_b||^2 - 2 a tr P_b + r), a = n_g / n_b.
fp_rows_kurtosis <- function(U, block) {
  nb <- tabulate(block, max(block, 1L))
  ok <- which(nb > 1)
  J <- length(ok)
  if (J < 10L) return(c(NA_real_, NA_real_))
  r <- ncol(U)
  if (!r) return(c(NA_real_, NA_real_))
  ng <- nrow(U)
  dev <- vapply(ok, function(b) {
    P <- crossprod(U[block == b, , drop = FALSE])
    a <- ng / nb[b]
    nb[b] * (a^2 * sum(P^2) - 2 * a * sum(diag(P)) + r)
  }, numeric(1))
  c(sum(dev) / ((J - 1) * (r^2 + r)), 2 / sqrt((J - 1) * (r^2 + r)))
}

# The bootstrap's blocks on the row route, per group: the numbers `id` of its non-empty blocks
# and their rows `n` (as the block moments', fp_merge_block_cells()), `block` (each of its rows'
# block, rows in increasing order), and its sample diagnostics from the rows
# (fp_rows_group_diag()): `tail` (fp_tail_index()), `df` (fp_block_df()), `kurt`
# (fp_block_kurtosis()) and `values` (its covariance's non-zero spectrum, for its rank). `row`
# (an attribute): every row's block number.
fp_audit_row_blocks <- function(src, B) {
  bl <- fp_block_of_row(seq_len(nrow(src$x)), B)
  gi <- as.integer(src$g)
  prep <- src$prep
  out <- lapply(seq_along(src$levels), function(i) {
    bi <- bl[gi == i]
    cnt <- tabulate(bi, B)
    id <- which(cnt > 0)
    dg <- fp_cpp(.fp_rows_group_diag(prep$rows$x, prep$rows$g, i, fp_rows_opts(prep)), "the audit's diagnostics of the rows")
    tr <- vapply(id, function(b) sum(dg$norm[bi == b]), numeric(1)) / cnt[id]
    list(id = id, n = as.numeric(cnt[id]), block = bi, tail = fp_hill_index(dg$norm),
         df = if (dg$constant == 0L && length(id) >= 10L) fp_trace_df(tr, as.numeric(cnt[id])) else NA_real_,
         kurt = fp_rows_kurtosis(dg$U, bi), values = dg$values)
  })
  attr(out, "row") <- bl
  out
}

# Heavy tails that the tail index and the blocks' degrees of freedom let through: a group whose
# kurtosis against Gaussian rows (fp_block_kurtosis()) exceeds this, by more than 4 of its
# standard errors for Gaussian rows from 1, has its intervals flagged.
# Chosen on bench/audit-coverage.R's calibration designs only (its header: t with 5 degrees of
# freedom at d = 12, k = 1 and 2, log-normal columns at d = 4, beside Gaussian and Poisson ones).
fp_kurtosis_max <- 1.5

# Too few rows for the directions estimated: a group with fewer than this many rows per
# direction of the fitted subspace (k (d - k), the dimension of the rank-k subspaces of d
# columns) has its intervals flagged, as the in-sample optimism of its errors and losses then
# exceeds what the bootstrap sees. 20 was chosen on bench/audit-coverage.R's calibration designs
# only; raised to 25 on the full grid's 1,243 designs of today's intervals (status runs from
# "2026-12-06h-full" to "2026-12-07d-full"): in the 28 designs with a group at 20 to 25 rows per
# direction, whose intervals are centred on the bias-corrected estimate (fp_audit_small_bias()),
# the unflagged cells were covered 0.86-0.87 (pooled, weighted by their reliable samples), 37-42%
# of them below 0.85, both where the small group has 60 rows (d = 4, k = 1) and at 1,000 rows at
# d = 50, k = 1; at 25 to 40 rows per direction about 0.90 (0.88-0.91 by method), from 40 on
# 0.90-0.92. No well-behaved design has a group below 37 rows per direction.
fp_rows_per_direction_min <- 25

# Why a group's intervals are unreliable from its diagnostics (NA where they are not):
# heavy tails (a tail index below 2, or a width resting on so few blocks that a t interval on
# its degrees of freedom would cover less than `level` - 0.05).
fp_audit_tail_reason <- function(dg, g) {
  lev <- dg$levels[g]
  if (isTRUE(dg$tail[g] < 2)) {
    return(sprintf("heavy tails in group %s (tail index of the rows' squared norms %.1f, below 2: their fourth moments may be infinite)",
                   lev, dg$tail[g]))
  }
  cov <- 2 * stats::pt(stats::qnorm((1 + dg$level) / 2), dg$df[g]) - 1
  if (isTRUE(cov < dg$level - 0.05)) {
    return(sprintf("heavy tails in group %s (its spread rests on few blocks: %.0f degrees of freedom for the width)",
                   lev, dg$df[g]))
  }
  if (isTRUE(dg$kurt[g] > fp_kurtosis_max && dg$kurt[g] - 1 > 4 * dg$kurt_se[g])) {
    return(sprintf(paste("heavy tails in group %s (the spread of its blocks' covariances is %.1f times a Gaussian's,",
                         "above %g: the bootstrap's intervals are too narrow)"), lev, dg$kurt[g], fp_kurtosis_max))
  }
  NA_character_
}

# Bias the bootstrap cannot see: the bootstrap's bias estimate b misses a share of the bias of
# the order of the directions estimated per row r (the next term of the bias's expansion in
# 1 / n); when |b| r exceeds half the replicates' sd, a 90% interval centred anywhere the
# bootstrap can tell covers less than 0.86. TRUE then.
fp_unseen_bias <- function(reps, est, r) {
  reps <- reps[is.finite(reps)]
  if (length(reps) < 10L || !is.finite(est) || !is.finite(r)) return(FALSE)
  s <- stats::sd(reps)
  s > 0 && abs(mean(reps) - est) * r > 0.5 * s
}
fp_dirs_reason <- function(lev, k, d, n, few = FALSE) {
  sprintf("too few rows for the directions estimated (group %s: k (d - k) = %d directions, %d rows%s): bias the bootstrap cannot correct",
          lev, as.integer(k * (d - k)), as.integer(n),
          if (few) sprintf(", fewer than %d per direction", fp_rows_per_direction_min) else "")
}

# ---- consistency of an audit's intervals (#44) ----------------------------------------------

# Whether a method's loss gap is 0 by construction: min-max with two groups equalises their
# losses (Samadi et al. 2018), so its gap is 0 to the solver's precision and its ratio 1.
fp_audit_zero_gap <- function(method, m) method == "minmax" & m == 2L

# One row of the table (method, k) made consistent with its groups' intervals `gl` (loss_low,
# loss_high, error_low, error_high of every group) and with itself: the largest starts no lower
# than any group's lower end and ends no higher than the highest upper end (the largest lies in
# both); the smallest likewise; the gap and the ratio within what the largest and smallest
# allow; every interval holds its estimate. Each bound only narrows an interval to values the
# others rule out at the same replicates, and is dropped where it would empty it.
fp_audit_consistent_row <- function(row, gl) {
  meet <- function(iv, lo, hi) {
    if (anyNA(iv) || is.na(lo) || is.na(hi)) return(iv)
    nl <- max(iv[1L], lo)
    nh <- min(iv[2L], hi)
    if (nl > nh) c(lo, hi) else c(nl, nh)
  }
  get <- function(q) c(row[[paste0(q, "_low")]], row[[paste0(q, "_high")]])
  put <- function(q, iv) {
    est <- row[[q]]
    if (!anyNA(iv) && !is.na(est)) iv <- c(min(iv[1L], est), max(iv[2L], est))
    row[[paste0(q, "_low")]] <<- iv[1L]
    row[[paste0(q, "_high")]] <<- iv[2L]
  }
  if (!anyNA(gl$loss_low)) {
    put("max_loss", meet(get("max_loss"), max(gl$loss_low), max(gl$loss_high)))
    put("min_loss", meet(get("min_loss"), min(gl$loss_low), min(gl$loss_high)))
    mx <- get("max_loss")
    mn <- get("min_loss")
    put("loss_gap", meet(get("loss_gap"), max(0, mx[1L] - mn[2L]), mx[2L] - mn[1L]))
    rr <- c(if (mn[2L] > 0) max(1, mx[1L] / mn[2L]) else 1, if (mn[1L] > 0) mx[2L] / mn[1L] else Inf)
    put("loss_ratio", meet(get("loss_ratio"), rr[1L], rr[2L]))
  }
  if (!anyNA(gl$error_low)) put("max_error", meet(get("max_error"), max(gl$error_low), max(gl$error_high)))
  # shares of the total variance: within [0, 1]
  for (q in c("var_kept", "price")) put(q, meet(get(q), 0, 1))
  for (q in c("error_gap", "max_loss_change")) if (!is.null(row[[q]])) put(q, get(q))
  row
}

# The rules of fp_audit_consistent_row() checked on an audit: a character vector naming every
# interval that breaks one (empty when none does). Option `fairproj.check_audits = TRUE` runs
# it on every audit fair_audit() returns and stops on a break (the test suite sets it).
fp_audit_inconsistencies <- function(a) {
  out <- character(0)
  tab <- a$table
  gt <- a$groups_table
  if (is.null(tab$max_loss_low)) return(out)
  tol <- 1e-9 * max(gt$error, 1, na.rm = TRUE)
  holds <- function(t, q, where) {
    lo <- t[[paste0(q, "_low")]]
    hi <- t[[paste0(q, "_high")]]
    est <- t[[q]]
    bad <- !is.na(lo) & !is.na(est) & (lo > est + tol * abs(est) + tol | est > hi + tol * abs(est) + tol)
    if (any(bad)) out <<- c(out, sprintf("%s %s at k = %d: %s outside [%s, %s]", where(t)[bad], q, t$k[bad],
                                         format(est[bad]), format(lo[bad]), format(hi[bad])))
  }
  for (q in c("error", "loss")) holds(gt, q, function(t) paste(t$method, "group", t$group))
  for (q in c("max_loss", "min_loss", "loss_gap", "loss_ratio", "max_error", "error_gap", "var_kept", "price")) {
    holds(tab, q, function(t) t$method)
  }
  m <- length(unique(gt$group))
  for (i in seq_len(nrow(tab))) {
    g <- gt[gt$method == tab$method[i] & gt$k == tab$k[i], , drop = FALSE]
    if (anyNA(g$loss_low) || is.na(tab$max_loss_low[i])) next
    at <- sprintf("%s at k = %d", tab$method[i], tab$k[i])
    if (tab$max_loss_low[i] < max(g$loss_low) - tol) out <- c(out, paste(at, ": the largest loss starts below a group's loss"))
    if (tab$min_loss_high[i] > min(g$loss_high) + tol) out <- c(out, paste(at, ": the smallest loss ends above a group's loss"))
    if (!is.na(tab$max_error_low[i]) && tab$max_error_low[i] < max(g$error_low) - tol) {
      out <- c(out, paste(at, ": the largest error starts below a group's error"))
    }
    if (fp_audit_zero_gap(tab$method[i], m)) {
      if (!is.na(tab$loss_gap_low[i])) out <- c(out, paste(at, ": a loss gap 0 by construction has an interval"))
      next
    }
    if (!is.na(tab$loss_gap_high[i]) && tab$loss_gap_high[i] > tab$max_loss_high[i] - tab$min_loss_low[i] + tol) {
      out <- c(out, paste(at, ": the loss gap ends above the largest loss's end minus the smallest's start"))
    }
    if (!is.na(tab$loss_gap_low[i]) && tab$loss_gap_low[i] < tab$max_loss_low[i] - tab$min_loss_high[i] - tol) {
      out <- c(out, paste(at, ": the loss gap starts below the largest loss's start minus the smallest's end"))
    }
    if (!is.na(tab$loss_ratio_low[i]) && tab$loss_ratio_low[i] < 1) out <- c(out, paste(at, ": a loss ratio below 1"))
    if (!is.na(tab$loss_ratio_low[i]) && !is.na(tab$loss_gap_low[i]) && tab$loss_gap_low[i] <= 0 &&
        tab$loss_ratio_low[i] > 1 + 1e-12) {
      out <- c(out, paste(at, ": a loss ratio that starts above 1 beside a loss gap that starts at 0"))
    }
  }
  out
}

# Why a row of the table (method, k) is unreliable: the first of its groups' reasons, else bias
# the bootstrap cannot see in its smooth quantities (variance kept, largest error, price), at
# the most directions per row of any group (fp_unseen_bias()); NA where it is reliable so far.
fp_audit_table_reason <- function(reasons, dg, dr, E, row, a, std, j, gi, moments) {
  why <- reasons[!is.na(reasons)][1L]
  if (!is.na(why)) return(why)
  rmax <- max(dg$dirs[j, gi])
  qs <- list(list(dr$Vk[, a, j], row$var_kept), list(apply(E, 1L, max), row$max_error),
             if (a != std) list(dr$Vk[, std, j] - dr$Vk[, a, j], row$price))
  for (q in qs) {
    if (!is.null(q) && fp_unseen_bias(q[[1L]], q[[2L]], rmax)) {
      g <- gi[which.max(dg$dirs[j, gi])]
      return(fp_dirs_reason(moments$levels[g], row$k, length(moments$colnames), moments$n[g]))
    }
  }
  NA_character_
}

# The interval of a fair method's largest loss minus standard PCA's at the same k, from the
# same (paired) replicates: the difference of the replicates' largest losses, centred on the
# estimate; it holds its estimate.
fp_audit_change_interval <- function(tab, i, L, dr, std, j, gi, level) {
  Ls <- matrix(dr$G[, std, j, gi, 2L], dr$replicates)
  est <- tab$max_loss[i] - tab$max_loss[tab$method == "standard" & tab$k == tab$k[i]][1L]
  iv <- fp_interval(apply(L, 1L, max) - apply(Ls, 1L, max), est, level)
  if (anyNA(iv)) iv else c(min(iv[1L], est), max(iv[2L], est))
}

fp_zero_gap_note <- "0 by construction (min-max equalises two groups' losses): no interval"

# The table as reported (tidy(), print()): `max_loss_change` (a method's largest loss minus
# standard PCA's at the same k) where the audit has its intervals, and `zero_gap`, TRUE where
# the loss gap is 0 by construction (fp_audit_zero_gap()), whose gap is then reported as 0 and
# ratio as 1 (where the losses are not all 0).
fp_audit_reported <- function(x) {
  tb <- x$table
  if (!is.null(tb$max_loss_change_low)) {
    std <- tb[tb$method == "standard", , drop = FALSE]
    tb$max_loss_change <- tb$max_loss - std$max_loss[match(tb$k, std$k)]
  }
  tb$zero_gap <- fp_audit_zero_gap(tb$method, nrow(x$groups))
  tb$loss_gap[tb$zero_gap] <- 0
  tb$loss_ratio[tb$zero_gap & tb$max_loss > 0] <- 1
  tb
}

# The Monte-Carlo error of the interval ends, as a share of the interval's width: for each
# group's error and loss and each method's variance kept, the standard error of the `p` and
# `1 - p` quantiles of R replicates (half the distance between the quantiles at p -+ the
# binomial sd sqrt(p (1 - p) / R)) over the width between them; the median and the largest.
# It falls as 1 / sqrt(R).
fp_audit_mc_error <- function(dr, level) {
  p <- (1 - level) / 2
  R <- dr$replicates
  dl <- sqrt(p * (1 - p) / R)
  share <- function(v) {
    v <- v[is.finite(v)]
    if (length(v) < 10L) return(NA_real_)
    q <- fp_quantile_inf(v, c(p - dl, p, p + dl, 1 - p - dl, 1 - p, 1 - p + dl))
    w <- q[5L] - q[2L]
    if (!(w > 0)) return(NA_real_)
    max(q[3L] - q[1L], q[6L] - q[4L]) / 2 / w
  }
  s <- c(apply(dr$G, 2:5, share), apply(dr$Vk, 2:3, share))
  s <- s[!is.na(s)]
  if (!length(s)) return(c(median = NA_real_, max = NA_real_))
  c(median = stats::median(s), max = max(s))
}

# Near-ties of the pooled covariance at each k (TRUE where standard PCA's k-dimensional
# subspace is not determined by the data). Where the k-th and (k + 1)-th eigenvalues are close,
# the sample's eigenvalues repel (the sample gap is biased upwards) and the bootstrap, which
# starts from the sample's wider gap, finds the subspace more stable than it is. Flagged where
# the gap less the bias its replicates show is below `fp_near_tie_c` (sqrt(k) + sqrt(d - k))
# times their sd (the perturbation series of the eigenprojection converges where the noise's
# norm is below half the gap, Kato; the block coupling the subspace to the rest has a norm of
# about sqrt(k) + sqrt(d - k) times one entry's noise). `fp_near_tie_c` is 0: the flag fires only
# where the replicates' own bias exceeds the gap (the data do not tell the two eigenvalues
# apart). It was 0.75 (calibrated on seven designs at 60 samples, run "2026-12-03i") until run
# "2026-12-04d": recalibrated on 16 designs at 100 samples (near_tie_interval_judge_grid(),
# own_tie_b_judge_grid() and run q's four near-tie designs; rule fixed before: the most standard
# PCA cells within 0.85-0.95 less those below, above or flagged), c in {0, 0.25, 0.35, 0.5,
# 0.75} scored 114, 112, 108, 44, -36 (at 0.75 it flagged 40-86% of the samples of twelve of the
# sixteen, where the same intervals covered within the band over all samples), and JUDGED on
# seven designs fixed before their results (near_tie_c_judge2_grid()): standard PCA's cells
# within / below / above / flagged 46 / 4 / 2 / 37 -> 80 / 5 / 4 / 0, designs with more than a
# tenth of their intervals flagged 5 -> 0 of 7: ADOPTED. What it gives up: at a pooled gap of
# 1.3 of its noise sd (d12k3m3n1000gauss) standard PCA's group errors cover 0.73-0.88 unflagged
# (9 of 13 cells below), where c = 0.75 flagged them in 95% of the samples.
fp_near_tie_c <- 0
fp_audit_near_tie <- function(dr, ks, d) {
  vapply(seq_along(dr$gap), function(j) {
    pg <- fp_pooled_gap_corrected(dr, j)
    !is.null(pg) && pg$corrected < fp_near_tie_c * (sqrt(ks[j]) + sqrt(d - ks[j])) * pg$sd
  }, logical(1))
}

# The sample's pooled gap at the j-th k less its replicates' bias (`corrected`) and the
# replicates' sd (`sd`); NULL with fewer than 10 finite replicates or no gap.
fp_pooled_gap_corrected <- function(dr, j) {
  if (is.null(dr$Gap) || is.null(dr$gap)) return(NULL)
  g <- dr$Gap[, j]
  g <- g[is.finite(g)]
  if (length(g) < 10L || !is.finite(dr$gap[j])) return(NULL)
  list(corrected = dr$gap[j] - (mean(g) - dr$gap[j]), sd = stats::sd(g))
}

# Standard PCA where the pooled covariance's eigenvalues around k are tied within noise (a block
# of them, as with groups from one population whose columns the scaling makes isotropic): its
# variance kept is the sum of the top k sample eigenvalues, whose upward bias (they repel) the
# bootstrap sees only in part, and its groups' errors carry the same optimism. The near-tie flag
# (fp_audit_near_tie()) reads only the gap at k and lets most such samples through (three groups
# of 1,000 rows from one Gaussian population, d = 12, k = 3: flagged in 31% of the samples, the
# variance kept covered 0.00 and the errors 0.29-0.33 unflagged; bench/audit-coverage.R, run
# "2026-12-04h"). The unseen part of that bias is found as for a group's own near-tie
# (fp_own_tie_bias() on the pooled spectrum of all rows); where it exceeds
# `fp_pooled_optimism_max` sds of the variance kept's replicates, standard PCA's intervals at
# that k are flagged. A logical per k (FALSE without standard PCA or its replicates). `prep`: the
# audit's prepared problem (fp_audit_floor_base()).
# Calibrated on the alike design above and 16 near-tie designs (run q's four, J, O; replicates
# replayed, 100 samples): standard PCA's cells within / below / above / flagged 170 / 39 / 24 /
# 0 before, at 0.25, 0.5 and 1 sds 165 / 34 / 21 / 13, 165 / 33 / 22 / 13, 167 / 33 / 20 / 13
# (1 flags the fewest samples elsewhere, at most 11% of a design's); judged on 13 designs of
# earlier judging grids and two alike designs at 100 samples (run "2026-12-04i"): no standard
# cell of the 13 moved, nor its flagged share; the alike designs' 30 standard cells, 18 of them
# below (variance kept 0.00, errors 0.64-0.84), flagged in 90-100% of the samples.
fp_pooled_optimism_max <- 1
fp_audit_pooled_optimism <- function(spec, moments, prep, ks, dr) {
  std <- match("standard", spec$methods)
  out <- rep(FALSE, length(ks))
  if (is.na(std)) return(out)
  rows <- inherits(moments, "fp_rows")
  d <- prep$d
  top <- min(max(ks) + fp_own_tie_window + 1L, d)
  l <- fp_replicate_try(if (rows) fp_rows_eig(prep, top, vectors = FALSE)$values else fp_eig_top(prep$C, top)$values)
  if (is.null(l)) return(out)
  l <- c(pmax(l, 0), numeric(max(top - length(l), 0L)))
  tot <- if (rows) d else sum(diag(prep$C))
  n <- sum(as.numeric(prep$n))
  for (j in seq_along(ks)) {
    k <- ks[j]
    v <- dr$Vk[, std, j]
    v <- v[is.finite(v)]
    if (k >= d || length(v) < 10L || !(stats::sd(v) > 0) || !(tot > 0)) next
    win <- seq(max(1L, k - fp_own_tie_window + 1L), min(k + fp_own_tie_window, length(l)))
    u <- fp_replicate_try(fp_own_tie_bias(l[win], k - win[1L] + 1L, n))
    out[j] <- isTRUE(u / tot > fp_pooled_optimism_max * stats::sd(v))
  }
  out
}

fp_pooled_optimism_reason <- function(k) {
  sprintf(paste("near-tie: eigenvalues around %d of the pooled covariance are tied within noise, so standard PCA's",
                "variance kept and errors carry an in-sample optimism the bootstrap does not see"), k)
}

# ---- a fair method's fit at a kink (#44) ----------------------------------------------------

# Where a fair method's solution is not a smooth function of the moments (min-max with groups
# whose losses tie, or whose dual-weighted matrix has a near-tie just outside its tied block;
# mean matching where the mean constraint turns the subspace across a near-tie), the bootstrap
# is not valid: the replicates of its quantities sit visibly off the estimate, more than any
# smooth statistic's bias at these sizes, and the intervals, whatever their centring, miss
# (min-max at d = 12, k = 2 with five groups of 1,000 rows covered 0.72-0.84 unflagged). The
# detector reads the replicates themselves: per fair method and k, the largest |bias| / sd over
# its groups' errors and losses and its variance kept (bias: the replicates' mean minus the
# estimate, sd: theirs), `z`; above `fp_kink_z_max` every interval of that method and k is
# flagged. The threshold was chosen on bench/audit-coverage.R's calibration designs only (its
# header names them), and judged on others. Standard PCA has its own near-tie detector
# (fp_audit_near_tie()).
fp_kink_z_max <- 2

# The bias over the replicates' sd of one quantity (NA with fewer than 10 finite replicates or
# none spread).
fp_bias_z <- function(reps, est) {
  reps <- reps[is.finite(reps)]
  if (length(reps) < 10L || !is.finite(est)) return(NA_real_)
  s <- stats::sd(reps)
  if (!(s > 0)) return(NA_real_)
  (mean(reps) - est) / s
}

# Per method and k (matrix method x k), the largest |fp_bias_z()| over the method's group errors
# and losses and its variance kept, and which quantity gives it (`what`); NA for standard PCA.
fp_audit_kink <- function(dr, gtab, tab, methods, ks, levels) {
  z <- matrix(NA_real_, length(methods), length(ks))
  what <- matrix(NA_character_, length(methods), length(ks))
  for (a in seq_along(methods)) {
    if (methods[a] == "standard") next
    for (j in seq_along(ks)) {
      rows <- which(gtab$method == methods[a] & gtab$k == ks[j])
      cand <- c("variance kept" = abs(fp_bias_z(dr$Vk[, a, j], tab$var_kept[tab$method == methods[a] & tab$k == ks[j]][1L])))
      for (i in rows) {
        g <- match(gtab$group[i], levels)
        cand[sprintf("group %s's error", gtab$group[i])] <- abs(fp_bias_z(dr$G[, a, j, g, 1L], gtab$error[i]))
        cand[sprintf("group %s's loss", gtab$group[i])] <- abs(fp_bias_z(dr$G[, a, j, g, 2L], gtab$loss[i]))
      }
      if (!any(is.finite(cand))) next
      top <- which.max(cand)
      z[a, j] <- cand[top]
      what[a, j] <- names(cand)[top]
    }
  }
  list(z = z, what = what, methods = methods)
}

fp_kink_reason <- function(kink, a, j) {
  sprintf(paste("the %s fit is at a kink or near-tie: the bootstrap's replicates of %s sit %.1f of their sds from the",
                "estimate (more than %g), where the bootstrap is not valid"),
          kink$methods[a], kink$what[a, j], kink$z[a, j], fp_kink_z_max)
}

# ---- a group's own near-tie at k (#44) ------------------------------------------------------

# Bias in each group's own best rank-k error that the bootstrap cannot see (matrix k x group,
# in the audit's units, >= 0: the estimate lies below the truth by this much more than the
# replicates show). A group's best error is its trace minus the sum of its top k eigenvalues,
# whose upward bias comes from the pairs of eigenvalues across k (Lawley 1956: lambda_i lambda_j
# / (n (lambda_i - lambda_j)) per pair, to first order). The bootstrap finds it at the sample's
# eigenvalues, which are spread wider than the population's (they repel); across wide gaps that
# makes no difference, but near a tie at k (with scale. = TRUE the columns' scaling can flatten
# a group's spectrum into one) the bootstrap sees a fraction of the bias (group a of two of 3,000
# rows at d = 12, k = 3, own relative gap 0.009: 72%). The missing part is found on the group's
# spectrum: Gaussian sample covariances of n rows (Wishart) with a candidate population
# spectrum, the spectrum moved until their eigenvalues' means equal the sample's (the sample's
# eigenvalues de-repelled), and the top-k sum's bias there less its bias at the sample's
# spectrum (what the bootstrap sees). `fp_own_tie_window` eigenvalues either side of k are
# used (the pairs across k far from it are smooth, and seen), `fp_own_tie_draws` draws, from a
# fixed seed so that an audit is reproducible and the caller's random numbers untouched.
# `sp`: each group's spectrum (fp_audit_group_spectra()).
fp_audit_own_tie <- function(sp, ks) {
  m <- length(sp$values)
  out <- matrix(0, length(ks), m)
  for (i in seq_len(m)) {
    l <- sp$values[[i]]
    for (j in seq_along(ks)) {
      k <- ks[j]
      if (k >= sp$d) next
      win <- seq(max(1L, k - fp_own_tie_window + 1L), min(k + fp_own_tie_window, length(l)))
      out[j, i] <- fp_own_tie_bias(l[win], k - win[1L] + 1L, sp$n[[i]]) * sp$unit
    }
  }
  out
}

# Each group's leading eigenvalues that fp_audit_own_tie() reads, both routes alike: `values`
# (a list, per group the top min(max(ks) + fp_own_tie_window + 1, d) eigenvalues of its
# covariance in the normalised units of the prepared problem, decreasing, those beyond its rows'
# rank 0), `n`, `unit`, `d` and the prepared problem `prep` (the audit's, fp_audit_floor_base();
# for min-max's dual weights). From moments, by the eigensolver on each group's covariance; on
# the row route (`moments` of class "fp_rows"), from each group's spectrum that its diagnostics
# computed from the rows (fp_audit_row_blocks()).
fp_audit_group_spectra <- function(moments, blocks, prep, ks) {
  rows <- inherits(moments, "fp_rows")
  d <- prep$d
  top <- min(max(ks) + fp_own_tie_window + 1L, d)
  values <- lapply(seq_along(prep$levels), function(i) {
    v <- if (rows) blocks[[i]]$values else fp_eig_top(fp_prep_cov(prep, i), top)$values
    v <- pmax(v[seq_len(min(length(v), top))], 0)
    c(v, numeric(top - length(v)))
  })
  list(values = values, n = as.numeric(prep$n), unit = prep$unit, d = d, prep = prep)
}
fp_own_tie_window <- 10L
fp_own_tie_draws <- 100L
fp_own_tie_steps <- 10L

# The unseen bias of the sum of the top k of eigenvalues `l` (a sample covariance's, of n rows;
# see fp_audit_own_tie()): >= 0.
fp_own_tie_bias <- function(l, k, n) {
  w <- length(l)
  if (k >= w || !(l[1L] > 0) || n < w + 2) return(0)
  # a pair across k further apart than 4 sds of its gap's noise (Gaussian rows) leaves nothing
  # unseen worth the simulation (the Rice bias of a gap 4 sds wide is 1/8 sd, and the
  # bootstrap sees most of it)
  if (l[k] - l[k + 1L] > 4 * sqrt(2 * (l[k]^2 + l[k + 1L]^2) / n)) return(0)
  W <- fp_with_seed(1L, stats::rWishart(fp_own_tie_draws, n - 1, diag(w))) / (n - 1)
  # the mean sorted eigenvalues of sample covariances whose population spectrum is lam
  mean_ev <- function(lam) fp_mean_sorted_values(W, sqrt(pmax(lam, 0)))
  seen <- mean_ev(l)
  lam <- l
  el <- seen
  # damped steps: where the sample's gap is narrower than any population's mean gap the pair
  # settles at a tie, where the step would otherwise swing
  for (it in seq_len(fp_own_tie_steps)) {
    step <- 0.7 * (l - el)
    lam <- sort(pmax(lam + step, 0), decreasing = TRUE)
    el <- mean_ev(lam)
    if (max(abs(step)) < 2e-3 * sum(l) / w) break
  }
  max(sum(el[seq_len(k)] - lam[seq_len(k)]) - sum(seen[seq_len(k)] - l[seq_len(k)]), 0)
}

# The mean over the draws of the decreasing eigenvalues of W[, , r] * tcrossprod(s) (W a w x w x R
# array of symmetric slices): rowMeans(vapply(seq_len(R), function(r) fp_sym_values(W[, , r] *
# tcrossprod(s)), numeric(w))), the same numbers, in C++ (a hundred small eigenproblems per call,
# whose R overhead was most of their time).
fp_mean_sorted_values <- function(W, s) {
  fp_cpp(.fp_mean_sorted_values(W, as.double(s)), "the eigensolver")
}

# `expr` evaluated with the random number generator set to `seed`, and the caller's state
# restored after it.
fp_with_seed <- function(seed, expr) {
  restore <- fp_set_seed(seed)
  on.exit(restore())
  expr
}

# The bias of each method's group errors and losses that the bootstrap cannot see, from the
# groups' own near-ties (fp_audit_own_tie(), u_g >= 0: group g's best error lies that much
# further below its truth than the replicates show): arrays `loss` and `error` (method x k x
# group, audit units), subtracted from the intervals' centres. A method whose subspace does
# not depend on the groups' best errors has its losses (error minus best error) biased upwards
# by u_g and its errors not at all. Min-max's subspace equalises the losses of the groups its
# dual weights w hold (w summing to 1): by the envelope theorem its optimum moves by
# sum_g w_g u_g where the best errors move by u, and so do those groups' losses, their errors
# by that less u_g; a group outside the active set keeps its error. Option
# `fairproj.audit_own_tie = FALSE` turns the correction off (NULL). `prep`: the audit's prepared problem.
fp_audit_unseen <- function(spec, moments, blocks, ks, prep) {
  if (isFALSE(getOption("fairproj.audit_own_tie", TRUE))) return(NULL)
  sp <- fp_replicate_try(fp_audit_group_spectra(moments, blocks, prep, ks))
  u <- if (!is.null(sp)) fp_replicate_try(fp_audit_own_tie(sp, ks))
  if (is.null(u) || !any(u > 0)) return(NULL)
  methods <- spec$methods
  m <- ncol(u)
  L <- E <- array(0, c(length(methods), length(ks), m))
  for (a in seq_along(methods)) {
    for (j in seq_along(ks)) {
      L[a, j, ] <- u[j, ]
      if (methods[a] != "minmax" || !any(u[j, ] > 0)) next
      fit <- fp_replicate_try(suppressWarnings(fp_call_solver("pca", "minmax", sp$prep, ks[j], spec$margs[["minmax"]],
                                                              NULL)))
      w <- if (is.null(fit)) NULL else fit$weights
      if (length(w) != m || !all(is.finite(w)) || !(sum(w) > 0)) next
      w <- pmax(w, 0) / sum(pmax(w, 0))
      on <- w > 1e-6
      L[a, j, on] <- sum(w * u[j, ])
      E[a, j, on] <- sum(w * u[j, ]) - u[j, on]
    }
  }
  list(loss = L, error = E)
}

# Mean matching's losses where a group has its own near-tie (fp_audit_unseen(), u > 0): the
# bias of the group's best error that the replicates show (b, the estimate less their mean of
# it, where positive) is taken off its losses as well as u, the interval centred on the
# estimate less b + u. In principle the shifted percentile interval (fp_interval()) has taken b
# off once; at an own near-tie that leaves mean matching's losses of the tied group too high
# (0.76-0.86 on some designs). Calibrated on bench/audit-coverage.R's near-tie designs (run q's
# four and near_tie_interval_judge_grid(), 100 samples, replicates replayed; b taken off 0,
# 0.5, 1, 1.5 times: mean matching's cells within less below, above and flagged 88, 96, 104,
# 102) and judged on mean_b_judge_grid(), fixed before its results (run "2026-12-04f"). Not for
# min-max (its active set).
#   Standard PCA's loss of such a group (error minus best error) carries the best error's seen
# bias too, but its error (under the pooled fit) has an in-sample optimism of the other sign:
# taking b off alone moved its cells from 0.88 to 0.72 (run "2026-12-04b"), and taking off the
# loss's own seen bias (the replicates' mean of the loss less the estimate, error and best
# error together) everywhere helped where the pooled fit is smooth and hurt where the pooled
# eigenvalues around k are close, whose optimism of the error the bootstrap sees only in part
# (runs "2026-12-04k-cal" / "-judge"). So the loss's seen bias is taken off with a weight w
# that reads the pooled gap at k (fp_pooled_gap_weight()): 0 where it is within
# `fp_own_tie_seen_loss_t0` of its replicates' sds, 1 beyond t0 + 1. Two groups of 3,000 rows at
# d = 12, k = 3, a group's spectrum flat after scaling: its loss covered 0.65 -> 0.93. t0 was
# calibrated on bench/audit-coverage.R's 32 designs of run "2026-12-04j" (replicates replayed;
# t0 in {1, 2, 3}; standard PCA's cells within less below, above and flagged 128 before, 134,
# 134, 128: 2, ties to the larger) and judged on 40 well-behaved designs drawn fresh (run
# "2026-12-04l"; rule fixed before their results): standard PCA's cells within / below / above
# 463 / 64 / 31 -> 468 / 62 / 28, mean |coverage - 0.9| 0.0320 -> 0.0319.
fp_own_tie_seen_methods <- "mean"
fp_own_tie_seen_loss_t0 <- 2
fp_audit_seen_best <- function(unseen, dr, gtab, moments, methods, ks) {
  if (is.null(unseen)) return(NULL)
  row_of <- function(a, j, g) {
    i <- which(gtab$method == methods[a] & gtab$k == ks[j] & gtab$group == moments$levels[g])
    if (length(i) == 1L) i else NA_integer_
  }
  for (a in which(methods %in% fp_own_tie_seen_methods)) {
    for (j in seq_along(ks)) {
      for (g in seq_along(moments$levels)) {
        if (!(unseen$loss[a, j, g] > 0) || is.na(i <- row_of(a, j, g))) next
        b <- -fp_replicate_bias(dr$G[, a, j, g, 1L] - dr$G[, a, j, g, 2L], gtab$error[i] - gtab$loss[i], dr$replicates)
        if (isTRUE(b > 0)) unseen$loss[a, j, g] <- unseen$loss[a, j, g] + b
      }
    }
  }
  std <- match("standard", methods)
  if (is.na(std)) return(unseen)
  for (j in seq_along(ks)) {
    w <- fp_pooled_gap_weight(dr, j)
    if (!(w > 0)) next
    for (g in seq_along(moments$levels)) {
      if (!(unseen$loss[std, j, g] > 0) || is.na(i <- row_of(std, j, g))) next
      b <- fp_replicate_bias(dr$G[, std, j, g, 2L], gtab$loss[i], dr$replicates)
      if (isTRUE(b > 0)) unseen$loss[std, j, g] <- unseen$loss[std, j, g] + w * b
    }
  }
  unseen
}

# The replicates' bias of a quantity: their mean less the estimate, over the finite ones; NA
# where fewer than 90% of the `replicates` have a value or the estimate has none.
fp_replicate_bias <- function(reps, est, replicates) {
  reps <- reps[is.finite(reps)]
  if (length(reps) < 0.9 * replicates || !is.finite(est)) return(NA_real_)
  mean(reps) - est
}

# The weight in [0, 1] of standard PCA's loss's seen bias at the j-th k (fp_audit_seen_best()):
# z, the pooled gap at k (eigenvalues k and k + 1 of the pooled covariance) less its
# replicates' bias, over their sd; 0 at z <= t0, 1 at z >= t0 + 1, linear between (no jump from
# sample to sample). 0 without the gap's replicates.
fp_pooled_gap_weight <- function(dr, j) {
  pg <- fp_pooled_gap_corrected(dr, j)
  if (is.null(pg) || !(pg$sd > 0)) return(0)
  min(max(pg$corrected / pg$sd - fp_own_tie_seen_loss_t0, 0), 1)
}

# Groups with few rows per direction of the fitted subspace: at fewer than `fp_small_group_rho`
# rows per direction, n / (k (d - k)) (from 20 up, fp_small_group_rho_min; the intervals are
# also flagged there, see fp_rows_per_direction_min), the in-sample bias of a group's best
# error, and so of its losses, is of the order of the intervals' width, and the bootstrap sees
# it (its replicates add it again): there the intervals are centred on the bias-corrected
# estimate, the estimate less the replicates' bias (at 60 rows beside 3,000, d = 4, k = 1,
# standard PCA's loss of the small group sat 0.96 of its sd above the truth and was covered
# 0.82). For standard PCA the small groups'
# errors and losses; for a fair method, whose fit depends on every group's loss, every group's.
# Elsewhere the bias is small against its noise and the intervals stay centred on the estimate
# (fp_interval()). 25 was chosen on bench/audit-coverage.R's calibration designs of run
# "2026-12-03n" and judged on small_group_judge_grid(). A fair method's variance kept and price
# are centred so too where any group is (fp_audit_table_intervals(); at d = 50, k = 1, two groups
# of 1,000 rows, min-max's variance kept sat 1.8 of its sd above the truth and was covered 0.53:
# run "2026-12-03q"; judged on small_vk_judge_grid(), run "2026-12-03s").
fp_small_group_rho <- 25
# Min-max's errors and losses (every group's) centred on the estimate less half the replicates'
# bias where no group is small (#44 item 1). Min-max equalises the losses of the groups its
# dual weights hold, and that optimum's estimate sits above its truth by a bias the replicates
# show (three groups of 1,000 rows at d = 12, k = 3: the estimate 1.2 of its sds high, the
# replicates' mean 0.85 sds above it, the interval centred on the estimate 0.9 sds high,
# covering 0.74; its errors as much the other way). Half, not all: calibrated on the 32 designs
# of bench/audit-coverage.R's run "2026-12-04j" (replicates replayed; 0, 0.5, 1 of the bias:
# min-max's cells within less below, above and flagged 74, 100, 92) and judged on 38
# well-behaved designs drawn fresh (run "2026-12-04l", rule fixed before their results):
# min-max's cells within / below / above 440 / 111 / 39 -> 457 / 87 / 46, mean |coverage - 0.9|
# 0.0392 -> 0.0365.
fp_minmax_bias_c <- 0.5
fp_audit_small_bias <- function(unseen, dr, gtab, moments, methods, ks) {
  m <- length(moments$levels)
  small <- fp_audit_small_groups(moments, ks)
  mm <- fp_minmax_bias_c > 0 && "minmax" %in% methods
  if (!any(small) && !mm) return(unseen)
  if (is.null(unseen)) unseen <- list(loss = array(0, c(length(methods), length(ks), m)), error = array(0, c(length(methods), length(ks), m)))
  for (a in seq_along(methods)) {
    for (j in seq_along(ks)) {
      # the share of the replicates' bias taken off: all of it where a group is small, min-max's
      # fp_minmax_bias_c elsewhere
      cc <- 1
      if (!any(small[j, ])) {
        if (!(mm && methods[a] == "minmax")) next
        cc <- fp_minmax_bias_c
      }
      gs <- if (methods[a] == "standard") which(small[j, ]) else seq_len(m)
      for (g in gs) {
        i <- which(gtab$method == methods[a] & gtab$k == ks[j] & gtab$group == moments$levels[g])
        if (length(i) != 1L) next
        for (q in c("error", "loss")) {
          b <- fp_replicate_bias(dr$G[, a, j, g, match(q, c("error", "loss"))], gtab[[q]][i], dr$replicates)
          if (!is.na(b)) unseen[[q]][a, j, g] <- unseen[[q]][a, j, g] + cc * b
        }
      }
    }
  }
  unseen
}

# The groups with fp_small_group_rho_min to fp_small_group_rho rows per direction at each k
# (matrix k x group). Their intervals are also flagged (below fp_rows_per_direction_min, 25), but
# shown, and centred as well as the replicates allow; below fp_small_group_rho_min they are left
# as they are (the bias there exceeds what the replicates see).
fp_small_group_rho_min <- 20
fp_audit_small_groups <- function(moments, ks) {
  d <- length(moments$colnames)
  matrix(outer(ks, moments$n, function(k, n) {
    rho <- n / (k * (d - k))
    rho >= fp_small_group_rho_min & rho < fp_small_group_rho
  }), length(ks))
}

# fp_interval() centred on the bias-corrected estimate (the estimate less `c` times the
# replicates' bias), as a group's errors and losses are where fp_audit_small_bias() corrects
# them (c = 1).
fp_interval_corrected <- function(reps, est, level, c = 1) {
  iv <- fp_interval(reps, est, level)
  r <- reps[is.finite(reps)]
  if (c == 0 || anyNA(iv) || !is.finite(est) || length(r) < 0.9 * length(reps)) return(iv)
  iv - c * (mean(r) - est)
}
# Every method's variance kept centred on the estimate less this share of its replicates' bias
# (where no group is small; there all of it, above). The variance kept of a subspace fitted to
# the sample is the larger the better the subspace fits that sample (in-sample optimism): on 111
# well-behaved designs of bench/audit-coverage.R the estimates sat a median 0.13-0.23 of their
# sds above the truth, the intervals centred on them as high, and the replicates showed most of
# it (0.13-0.20 sds). RULE (see the bench's header, session of 2026-12-05, plan fixed before
# any result): 0, 0.25, 0.5, 0.75, 1 of the bias on those 111 designs, reconstructed from their
# samples and saved replicates, variance kept cells within / below / above 272 / 52 / 5, 286 /
# 40 / 3, 288 / 39 / 2, 287 / 40 / 2, 280 / 48 / 1: a half. The same rule for the groups'
# errors of standard PCA and mean matching lowered them at every share (598 / 69 / 13 at 0,
# 589 / 81 / 10 at a half), as the replicates' bias is noisy from sample to sample: they stay
# centred on the estimate.
fp_var_kept_bias_c <- 0.5

# The unseen bias of quantity `q` ("loss" or "error") of method a at the j-th k for groups g
# (0 without a correction).
fp_unseen_of <- function(unseen, q, a, j, g) {
  if (is.null(unseen)) return(rep(0, length(g)))
  unseen[[q]][a, j, g]
}
