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

# The statistics of one replicate for every method and k: a list with `groups` (array
# method x k x group x c(error, loss)) and `rows` (array method x k x c(var_kept, ...)). Fits
# that fail give NA.
fp_audit_replicate <- function(mr, methods, ks, margs, center, scale.) {
  m <- length(mr$levels)
  G <- array(NA_real_, c(length(methods), length(ks), m, 2L))
  V <- array(NA_real_, c(length(methods), length(ks)))
  prep <- tryCatch(fp_prepare_normalised(mr, center, scale.), error = function(e) NULL)
  if (is.null(prep)) return(list(groups = G, var_kept = V))
  for (j in seq_along(ks)) {
    kk <- ks[j]
    best <- fp_group_best(prep, kk)
    for (a in seq_along(methods)) {
      fit <- tryCatch(suppressWarnings(fp_call_solver("pca", methods[a], prep, kk, margs[[methods[a]]], NULL)),
                      error = function(e) NULL)
      if (is.null(fit)) next
      gs <- fp_group_stats(prep, fit$rotation, kk, map = fit$map, best = best)
      G[a, j, , 1L] <- gs$error * prep$unit
      G[a, j, , 2L] <- gs$loss * prep$unit
      V[a, j] <- fp_audit_var_kept(fit, prep$C)
    }
  }
  list(groups = G, var_kept = V)
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
  rp <- tryCatch(fp_prepare_normalised(mr, TRUE, base$scale), error = function(e) NULL)
  if (is.null(rp)) return(list(floor = out, overlap = NA_real_))
  overlap <- if (m > 1L) fp_span_overlap(sp$mean[, -1L, drop = FALSE] - sp$mean[, 1L],
                                         rp$mean[, -1L, drop = FALSE] - rp$mean[, 1L]) else NA_real_
  for (j in seq_along(ks)) {
    for (i in seq_len(m)) {
      if (ks[j] >= sp$d) {
        out[j, i] <- 0
        next
      }
      V <- tryCatch(fp_eig_top(rp$cov[[i]], ks[j])$vectors, error = function(e) NULL)
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
fp_audit_intervals <- function(moments, blocks, methods, ks, margs, center, scale., level, replicates,
                               tab, gtab, show = FALSE) {
  dr <- fp_audit_draw(moments, blocks, methods, ks, margs, center, scale., replicates, show)
  gr <- fp_audit_group_intervals(gtab, dr, moments, blocks, methods, ks, level)
  tab <- fp_audit_table_intervals(tab, gr$table, gr$at_floor, dr, moments, methods, ks, level)
  list(table = tab, groups_table = gr$table)
}

# The replicates of an audit: `G` (replicate x method x k x group x c(error, loss)), `Vk`
# (replicate x method x k, the variance kept), `Fl` (replicate x k x group, the noise floor of
# a zero loss, fp_audit_floor()) and `overlap` (per replicate, of the mean differences' spans).
fp_audit_draw <- function(moments, blocks, methods, ks, margs, center, scale., replicates, show) {
  m <- length(moments$levels)
  nk <- length(ks)
  G <- array(NA_real_, c(replicates, length(methods), nk, m, 2L))
  Vk <- array(NA_real_, c(replicates, length(methods), nk))
  Fl <- array(NA_real_, c(replicates, nk, m))
  overlap <- rep(NA_real_, replicates)
  base <- fp_audit_floor_base(moments, center, scale., ks)
  pb <- fp_progress_bar(replicates, "fair_audit: intervals", show = show)
  for (r in seq_len(replicates)) {
    mr <- fp_audit_resample(moments, blocks)
    rep_r <- fp_audit_replicate(mr, methods, ks, margs, center, scale.)
    G[r, , , , ] <- rep_r$groups
    Vk[r, , ] <- rep_r$var_kept
    fl <- fp_audit_floor(mr, base, ks)
    Fl[r, , ] <- fl$floor
    overlap[r] <- fl$overlap
    pb$update(r)
  }
  pb$done()
  list(G = G, Vk = Vk, Fl = Fl, overlap = overlap, replicates = replicates)
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

# ---------------------------------------------------------------------------------------------
# Downstream intervals: the models are fixed (trained once on the training rows); the held-out
# rows are resampled with replacement within each group (`replicates` times, the same draws for
# every fit), and accuracy, error and gaps recomputed on each resample; percentile intervals of
# type 6 (fp_quantile_inf()), not shifted: these are means of the held-out rows, which the
# resampling does not bias.

# Resample counts of the held-out rows: an nh x replicates matrix (row i: how often held-out
# row i is drawn), drawn within each group so that the groups keep their held-out sizes.
fp_downstream_draws <- function(gh, replicates) {
  nh <- length(gh)
  W <- matrix(0, nh, replicates)
  for (lev in levels(gh)) {
    idx <- which(gh == lev)
    if (!length(idx)) next
    for (r in seq_len(replicates)) {
      W[idx, r] <- W[idx, r] + tabulate(sample.int(length(idx), length(idx), replace = TRUE), length(idx))
    }
  }
  W
}

# Intervals of one fit's held-out metrics from its predictions `pred` (0/1, or numeric), the
# held-out outcome `yt` and groups `gh`, and the draws `W`. The gaps' intervals are those of the
# signed difference between the two groups that give the gap on the held-out rows (largest
# minus smallest rate, or mean prediction), kept in that order in every resample, so that an
# interval can contain 0: `*_distinct` is FALSE when it does.
fp_downstream_interval_row <- function(pred, yt, gh, W, level, type) {
  lv <- levels(droplevels(gh))
  by_group <- function(v, den = NULL) {
    vapply(lv, function(l) {
      i <- gh == l
      num <- colSums(W[i, , drop = FALSE] * v[i])
      if (is.null(den)) num / sum(i) else num / colSums(W[i, , drop = FALSE] * den[i])
    }, numeric(ncol(W)))
  }
  pct <- function(v) {
    v <- v[!is.na(v)]
    if (length(v) < 0.9 * ncol(W)) return(c(NA_real_, NA_real_))
    fp_quantile_inf(v, c((1 - level) / 2, (1 + level) / 2))
  }
  signed <- function(est_by_group, reps) {
    ok <- !is.na(est_by_group)
    if (sum(ok) < 2L) return(c(NA_real_, NA_real_))
    hi <- which(ok)[which.max(est_by_group[ok])]
    lo <- which(ok)[which.min(est_by_group[ok])]
    pct(reps[, hi, drop = TRUE] - reps[, lo, drop = TRUE])
  }
  nh <- length(yt)
  if (type == "binary") {
    acc <- pct(colSums(W * (pred == yt)) / nh)
    rate <- by_group(pred)
    rate <- matrix(rate, ncol = length(lv))
    est_rate <- vapply(lv, function(l) mean(pred[gh == l]), numeric(1))
    pos <- yt == 1
    tpr <- matrix(by_group(pred * pos, as.numeric(pos)), ncol = length(lv))
    est_tpr <- vapply(lv, function(l) if (any(pos & gh == l)) mean(pred[pos & gh == l]) else NA_real_, numeric(1))
    dp <- signed(est_rate, rate)
    eo <- signed(est_tpr, tpr)
    return(c(accuracy_low = acc[1L], accuracy_high = acc[2L], error_low = 1 - acc[2L], error_high = 1 - acc[1L],
             dp_gap_low = dp[1L], dp_gap_high = dp[2L], eo_gap_low = eo[1L], eo_gap_high = eo[2L]))
  }
  err <- pct(sqrt(colSums(W * (pred - yt)^2) / nh))
  mp <- matrix(by_group(pred), ncol = length(lv))
  dp <- signed(vapply(lv, function(l) mean(pred[gh == l]), numeric(1)), mp)
  c(accuracy_low = NA_real_, accuracy_high = NA_real_, error_low = err[1L], error_high = err[2L],
    dp_gap_low = dp[1L], dp_gap_high = dp[2L], eo_gap_low = NA_real_, eo_gap_high = NA_real_)
}

# The downstream table with its intervals and whether each gap is distinguishable from 0.
fp_downstream_intervals <- function(down, preds, y, g, held, level, replicates) {
  gh <- droplevels(g[held])
  yt <- y$y[held]
  W <- fp_downstream_draws(gh, replicates)
  iv <- t(vapply(preds, function(p) {
    if (is.null(p)) return(stats::setNames(rep(NA_real_, 8L), c("accuracy_low", "accuracy_high", "error_low",
                                                                "error_high", "dp_gap_low", "dp_gap_high",
                                                                "eo_gap_low", "eo_gap_high")))
    fp_downstream_interval_row(p, yt, gh, W, level, y$type)
  }, numeric(8)))
  down <- cbind(down, as.data.frame(iv))
  down$dp_gap_distinct <- !(down$dp_gap_low <= 0 & down$dp_gap_high >= 0)
  down$eo_gap_distinct <- !(down$eo_gap_low <= 0 & down$eo_gap_high >= 0)
  down
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
