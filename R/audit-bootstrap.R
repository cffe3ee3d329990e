# The audit's bootstrap intervals from replicates (fp_audit_intervals() draws them): the
# bias-corrected percentile interval of one quantity, and the intervals of the largest, the
# smallest and the spread of several quantities (a largest loss, a loss gap), which are not
# smooth functions of the moments where two groups are close. ?fair_audit ("Intervals") states
# the method; bench/audit-coverage.R measures its coverage.

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
