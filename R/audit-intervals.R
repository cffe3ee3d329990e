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
  methods <- spec$methods
  m <- length(mr$levels)
  G <- array(NA_real_, c(length(methods), length(ks), m, 2L))
  V <- array(NA_real_, c(length(methods), length(ks)))
  prep <- fp_replicate_try(fp_prepare_normalised(mr, spec$center, spec$scale.))
  if (is.null(prep)) return(list(groups = G, var_kept = V, failed = TRUE))
  failed <- FALSE
  for (j in seq_along(ks)) {
    kk <- ks[j]
    best <- fp_group_best(prep, kk)
    for (a in seq_along(methods)) {
      fit <- fp_replicate_try(suppressWarnings(fp_call_solver("pca", methods[a], prep, kk, spec$margs[[methods[a]]],
                                                              NULL)))
      if (is.null(fit)) {
        failed <- TRUE
        next
      }
      gs <- fp_group_stats(prep, fit$rotation, kk, map = fit$map, best = best)
      G[a, j, , 1L] <- gs$error * prep$unit
      G[a, j, , 2L] <- gs$loss * prep$unit
      V[a, j] <- fp_audit_var_kept(fit, prep$C)
    }
  }
  list(groups = G, var_kept = V, failed = failed)
}

# The sample's side of the noise floor of a zero loss (fp_audit_floor()): its prepared problem
# and each group's best error at every k in `ks`.
fp_audit_floor_base <- function(moments, center, scale., ks) {
  sp <- fp_prepare_normalised(moments, center, scale.)
  list(prep = sp, best = lapply(ks, function(k) fp_group_best(sp, k)),
       scale = if (sp$scaled) sp$scale_data else FALSE)
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
  sp <- base$prep
  m <- length(sp$levels)
  out <- matrix(NA_real_, length(ks), m)
  rp <- fp_replicate_try(fp_prepare_normalised(mr, TRUE, base$scale))
  if (is.null(rp)) return(list(floor = out, overlap = NA_real_))
  overlap <- if (m > 1L) fp_span_overlap(sp$mean[, -1L, drop = FALSE] - sp$mean[, 1L],
                                         rp$mean[, -1L, drop = FALSE] - rp$mean[, 1L]) else NA_real_
  for (j in seq_along(ks)) {
    for (i in seq_len(m)) {
      if (ks[j] >= sp$d) {
        out[j, i] <- 0
        next
      }
      V <- fp_replicate_try(fp_eig_top(rp$cov[[i]], ks[j])$vectors)
      if (!is.null(V)) out[j, i] <- max(fp_residual_trace(sp$cov[[i]], V) - base$best[[j]][i], 0) * sp$unit
    }
  }
  list(floor = out, overlap = overlap)
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

# The loss ratio of one replicate's fit (its largest loss over its smallest, with losses within
# 1e-10 of the largest error counted as 0, as fp_audit_loss_ratio()); NA where a group has none.
fp_audit_ratio_rep <- function(err, loss) {
  if (anyNA(err) || anyNA(loss)) return(NA_real_)
  fp_audit_loss_ratio(list(error = err, loss = loss))
}

# The intervals of an audit: bootstrap replicates of every method at the k in `ks`, from the
# blocks. `tab`, `gtab`: the audit's tables (point estimates); returns them with the interval
# columns (`<quantity>_low`, `<quantity>_high`, NA at the k without intervals) and `reliable`.
fp_audit_intervals <- function(spec, moments, blocks, ks, tab, gtab) {
  level <- spec$intervals$level
  dr <- fp_audit_draw(spec, moments, blocks, ks)
  gr <- fp_audit_group_intervals(gtab, dr, moments, blocks, spec$methods, ks, level)
  tab <- fp_audit_table_intervals(tab, gr$table, gr$at_floor, dr, moments, spec$methods, ks, level)
  list(table = tab, groups_table = gr$table, failed = sum(dr$failed))
}

# The replicates of an audit: `G` (replicate x method x k x group x c(error, loss)), `Vk`
# (replicate x method x k, the variance kept), `Fl` (replicate x k x group, the noise floor of
# a zero loss, fp_audit_floor()), `overlap` (per replicate, of the mean differences' spans) and
# `failed` (per replicate: a fit failed, fp_audit_replicate()).
fp_audit_draw <- function(spec, moments, blocks, ks) {
  methods <- spec$methods
  replicates <- spec$intervals$replicates
  m <- length(moments$levels)
  nk <- length(ks)
  G <- array(NA_real_, c(replicates, length(methods), nk, m, 2L))
  Vk <- array(NA_real_, c(replicates, length(methods), nk))
  Fl <- array(NA_real_, c(replicates, nk, m))
  overlap <- rep(NA_real_, replicates)
  failed <- logical(replicates)
  base <- fp_audit_floor_base(moments, spec$center, spec$scale., ks)
  pb <- fp_progress_bar(replicates, "fair_audit: intervals", show = spec$show)
  for (r in seq_len(replicates)) {
    mr <- fp_audit_resample(moments, blocks)
    rep_r <- fp_audit_replicate(mr, spec, ks)
    failed[r] <- rep_r$failed
    G[r, , , , ] <- rep_r$groups
    Vk[r, , ] <- rep_r$var_kept
    fl <- fp_audit_floor(mr, base, ks)
    Fl[r, , ] <- fl$floor
    overlap[r] <- fl$overlap
    pb$update(r)
  }
  pb$done()
  list(G = G, Vk = Vk, Fl = Fl, overlap = overlap, failed = failed, replicates = replicates)
}

# Each group's error and loss intervals (gtab with `error_low`, ..., `reliable`) and `at_floor`,
# TRUE for the rows whose loss is within the noise floor of a zero loss (the upper quantile of
# the group's floor at that k).
fp_audit_group_intervals <- function(gtab, dr, moments, blocks, methods, ks, level) {
  nb <- vapply(blocks, function(b) length(b$n), numeric(1))
  # each group's numerical rank, or d + 1 when its covariance has full rank (k = d - 1 is fine
  # then): a k at or next to a lower rank has losses at their bound
  rank <- vapply(moments_cov(moments), function(s) {
    ev <- pmax(fp_sym_values(s), 0)
    r <- sum(ev > 1e-10 * max(ev, .Machine$double.xmin))
    if (r == nrow(s)) r + 2 else r
  }, numeric(1))
  floor_q <- matrix(apply(dr$Fl, c(2L, 3L), function(v) fp_interval(v, 0, level, probs = (1 + level) / 2, shift = FALSE)),
                    length(ks), length(moments$levels))
  loose_means <- isTRUE(stats::median(dr$overlap, na.rm = TRUE) < fp_mean_direction_min)
  gq <- c("error", "loss")
  for (q in gq) gtab[paste0(q, c("_low", "_high"))] <- NA_real_
  gtab$reliable <- NA
  at_floor <- rep(FALSE, nrow(gtab))
  for (i in seq_len(nrow(gtab))) {
    a <- match(gtab$method[i], methods)
    j <- match(gtab$k[i], ks)
    g <- match(gtab$group[i], moments$levels)
    if (is.na(j) || is.na(gtab$loss[i])) next
    ok <- gtab$n[i] >= fp_min_rows && nb[g] >= 10 && gtab$k[i] < rank[g] - 1L &&
      !(loose_means && gtab$method[i] %in% fp_mean_constrained)
    at_floor[i] <- isTRUE(gtab$loss[i] <= floor_q[j, g])
    for (q in gq) {
      iv <- fp_audit_from_zero(fp_interval(dr$G[, a, j, g, match(q, gq)], gtab[[q]][i], level), q, gtab[[q]][i],
                               floor = q == "loss" && at_floor[i])
      gtab[i, paste0(q, c("_low", "_high"))] <- iv
      ok <- ok && !anyNA(iv)
    }
    gtab$reliable[i] <- ok
  }
  list(table = gtab, at_floor = at_floor)
}

# Per method and k: the largest, smallest and spread of the group losses and errors from the
# replicates of all groups together (fp_max_interval(), fp_gap_interval()), the ratio, the
# variance kept and the price one by one; `reliable` where every group's interval is.
fp_audit_table_intervals <- function(tab, gtab, at_floor, dr, moments, methods, ks, level) {
  all_q <- c("max_loss", "min_loss", "loss_gap", "loss_ratio", "max_error", "error_gap", "var_kept", "price")
  checked <- c("max_loss", "loss_gap", "max_error", "price")  # the ratio's spread is often infinite
  std <- match("standard", methods)
  R <- dr$replicates
  # the largest loss is 0 only where every loss is: the upper quantile of the largest floor
  floor_max <- apply(dr$Fl, 2L, function(M) fp_interval(apply(M, 1L, max), 0, level, probs = (1 + level) / 2, shift = FALSE))
  for (q in all_q) tab[paste0(q, c("_low", "_high"))] <- NA_real_
  tab$reliable <- NA
  for (i in seq_len(nrow(tab))) {
    j <- match(tab$k[i], ks)
    if (is.na(j) || is.na(tab$var_kept[i])) next
    a <- match(tab$method[i], methods)
    rows <- gtab$method == tab$method[i] & gtab$k == tab$k[i]
    gi <- match(gtab$group[rows], moments$levels)
    E <- matrix(dr$G[, a, j, gi, 1L], R)
    L <- matrix(dr$G[, a, j, gi, 2L], R)
    ratio <- vapply(seq_len(R), function(r) fp_audit_ratio_rep(E[r, ], L[r, ]), numeric(1))
    ivs <- list(max_loss = fp_max_interval(L, gtab$loss[rows], level),
                min_loss = fp_min_interval(L, gtab$loss[rows], level),
                loss_gap = fp_gap_interval(L, gtab$loss[rows], level),
                loss_ratio = pmax(fp_interval(ratio, tab$loss_ratio[i], level, shift = FALSE), 1),
                max_error = fp_max_interval(E, gtab$error[rows], level),
                error_gap = fp_gap_interval(E, gtab$error[rows], level),
                var_kept = fp_interval(dr$Vk[, a, j], tab$var_kept[i], level),
                price = fp_interval(dr$Vk[, std, j] - dr$Vk[, a, j], tab$price[i], level))
    # a gap whose interval lies within 1e-7 of the largest error is 0 to the solvers' precision
    # (min-max's loss gap with two groups): its interval starts at 0
    tiny <- 1e-7 * max(gtab$error[rows], 0, na.rm = TRUE)
    for (q in c("loss_gap", "error_gap")) if (!anyNA(ivs[[q]]) && ivs[[q]][2L] <= tiny) ivs[[q]][1L] <- 0
    # the largest loss within the largest floor, the smallest where one group's loss is within
    # its own floor
    at_zero <- c(max_loss = isTRUE(tab$max_loss[i] <= floor_max[j]), min_loss = any(at_floor[rows]))
    ok <- all(gtab$reliable[rows] %in% TRUE)
    for (q in all_q) {
      tab[i, paste0(q, c("_low", "_high"))] <- fp_audit_from_zero(ivs[[q]], q, tab[[q]][i], floor = isTRUE(at_zero[q]))
      if (q %in% checked) ok <- ok && !anyNA(ivs[[q]])
    }
    # a smallest loss not told apart from 0 leaves the ratio unbounded (Inf where only the
    # smallest is 0), and where every loss may be 0 the ratio may be 1 (fp_audit_loss_ratio())
    if (isTRUE(tab$min_loss_low[i] == 0) && !is.na(tab$loss_ratio_high[i])) {
      tab$loss_ratio_high[i] <- Inf
      if (isTRUE(tab$max_loss_low[i] == 0)) tab$loss_ratio_low[i] <- 1
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
# by the bias can cross it; the truth cannot), and starting at 0 where the estimate is smaller
# than the interval's width, or (`floor = TRUE`) within the noise floor of a zero loss
# (fp_audit_floor()): not distinguishable from 0. Near 0 a loss behaves like a sum of squares
# of noise, whose replicates stay above 0 however small the truth: with two groups drawn from
# one population (all losses 0, d = 4, k = 2), the shifted intervals covered 0 in 36-74% of the
# samples, from 0 where the estimate is below the width 97-100%; with 32 directions (d = 12,
# k = 4) the width rule alone covered 6-81%, which the floor mends (bench/audit-coverage.R).
# Gaps are not touched: fp_gap_interval() starts at 0 where the difference's interval holds 0.
fp_audit_from_zero <- function(iv, q, est, floor = FALSE) {
  if (!q %in% fp_bounded_quantities || anyNA(iv)) return(iv)
  iv <- pmax(iv, 0)
  if (!q %in% c("loss_gap", "error_gap") && !is.na(est) && (floor || est < iv[2L] - iv[1L])) iv[1L] <- 0
  iv
}
fp_zero_note <- "0 is not ruled out at this level: the interval starts at 0"

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
                 note = ifelse(zero, fp_zero_note, NA_character_), stringsAsFactors = FALSE)
    }))
  }
  out <- rbind(long(x$groups_table, c("error", "loss"), function(t) t$group),
               long(x$table, c("max_loss", "min_loss", "loss_gap", "loss_ratio", "max_error", "error_gap", "var_kept",
                               "price"), function(t) rep(NA_character_, nrow(t))))
  out <- out[order(match(out$method, x$methods), out$k), , drop = FALSE]
  rownames(out) <- NULL
  out
}

# Fraction of the total variance of the prepared data that a fit's reconstruction keeps.
fp_audit_var_kept <- function(fit, C) {
  V <- fit$rotation
  kept <- if (!is.null(fit$map)) {
    R <- diag(nrow(C)) - fit$map
    sum(diag(C)) - sum(crossprod(R, C) * t(R))
  } else {
    sum((C %*% V) * V)
  }
  kept / sum(diag(C))
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
# The interval of one quantity from its replicates (bias-corrected percentile), and the intervals
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
# estimate, covered as little as 77% at 50 rows per group on bench/audit-coverage.R's samples.) Not shifted with `shift = FALSE` or when a replicate is
# infinite (the loss ratio, whose replicates are too skewed for a mean). NA where fewer than
# 90% of the replicates have a value.
fp_interval <- function(reps, est, level, probs = c(1 - level, 1 + level) / 2, shift = TRUE) {
  ok <- !is.na(reps)
  if (is.na(est) || sum(ok) < 0.9 * length(reps)) return(c(NA_real_, NA_real_))
  r <- reps[ok]
  q <- fp_quantile_inf(r, probs)
  if (shift && is.finite(est) && all(is.finite(r))) q - (mean(r) - est) else q
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
# fails with probability at most 1 - level.
fp_max_interval <- function(M, est, level) {
  M <- fp_complete_replicates(M, est)
  if (is.null(M)) return(c(NA_real_, NA_real_))
  cand <- fp_max_candidates(M, est, level)
  if (length(cand) == 1L) return(fp_interval(M[, cand], est[cand], level))
  p <- fp_simultaneous_p(M[, cand, drop = FALSE], (1 + level) / 2, lower = TRUE)
  lo <- vapply(cand, function(g) fp_interval(M[, g], est[g], NA, probs = p)[1L], numeric(1))
  hi <- vapply(cand, function(g) fp_interval(M[, g], est[g], level)[2L], numeric(1))
  c(max(lo), max(hi))
}

fp_min_interval <- function(M, est, level) -rev(fp_max_interval(-M, -est, level))

# The interval of the spread (largest minus smallest) of several quantities, from the
# differences between the candidates for the largest and for the smallest (fp_max_candidates()):
# with one pair, that difference's interval (the spread is smooth there); with several, the
# differences' intervals holding simultaneously (calibrated on the replicates), the spread
# lying between the largest of their lower ends (or of minus their upper ends) and the largest
# of their upper ends. A spread whose interval starts at 0 is not told apart from 0 at that
# level: two groups served alike, or a method that equalises them (min-max's loss gap).
fp_gap_interval <- function(M, est, level) {
  M <- fp_complete_replicates(M, est)
  if (is.null(M) || ncol(M) < 2L) return(c(NA_real_, NA_real_))
  hi_c <- fp_max_candidates(M, est, level)
  lo_c <- fp_max_candidates(-M, -est, level)
  pairs <- expand.grid(a = hi_c, b = lo_c)
  pairs <- pairs[pairs$a != pairs$b, , drop = FALSE]
  D <- M[, pairs$a, drop = FALSE] - M[, pairs$b, drop = FALSE]
  De <- est[pairs$a] - est[pairs$b]
  p <- if (ncol(D) == 1L) (1 - level) / 2 else fp_simultaneous_p(D, level)
  iv <- vapply(seq_len(ncol(D)), function(j) fp_interval(D[, j], De[j], NA, probs = c(p, 1 - p)), numeric(2))
  c(max(0, iv[1L, ], -iv[2L, ]), max(0, iv[2L, ], -iv[1L, ]))
}
