# Per-group diagnostics of a fit: each group's error, best error, loss and variance kept
# (fp_group_stats()), mapped to the data's units, and the same for each attribute's margins.

# Per-group statistics of each attribute's margins, merged exactly from the cells' moments.
fp_group_margins <- function(prep, V, k, map = NULL) {
  m <- prep$moments
  cells <- m$cells
  if (is.null(cells) || ncol(cells) < 1L) return(NULL)
  cells <- cells[m$levels, , drop = FALSE]
  parts <- list()
  labels <- data.frame(attribute = character(0), level = character(0), stringsAsFactors = FALSE)
  for (a in names(cells)) {
    for (lv in unique(cells[[a]])) {
      idx <- which(cells[[a]] == lv)
      # merge the cells of this margin into one group (exact: Chan et al.'s update)
      one <- fp_new_moments(m$n[idx[1]], m$mean[, idx[1], drop = FALSE], m$scatter[idx[1]], "g", m$colnames)
      for (i in idx[-1L]) {
        one <- fp_merge_moments(one, fp_new_moments(m$n[i], m$mean[, i, drop = FALSE], m$scatter[i], "g", m$colnames))
      }
      parts[[length(parts) + 1L]] <- one
      labels <- rbind(labels, data.frame(attribute = a, level = lv, stringsAsFactors = FALSE))
    }
  }
  lv <- paste0(labels$attribute, "=", labels$level)
  mm <- fp_new_moments(vapply(parts, function(p) p$n[[1]], numeric(1)),
                       do.call(cbind, lapply(parts, function(p) p$mean)),
                       lapply(parts, function(p) p$scatter[[1]]), lv, m$colnames)
  mm$exponent <- m$exponent
  # (the margins' matrices built one at a time, as the fit's groups)
  pm <- fp_prepare_normalised(mm, center = if (prep$centered) prep$center else FALSE,
                              scale. = if (prep$scaled) prep$scale_data else FALSE, lazy_cov = TRUE)
  gs <- fp_stats_units(fp_group_stats(pm, V, k, map = map), pm$unit)
  cbind(labels, gs[, setdiff(names(gs), "group"), drop = FALSE])
}

# The variance a symmetric map kept as its factors (fp_map_arg(): M = B diag(l) B', B
# orthonormal) keeps of a covariance S, tr(S) - tr((I - M) S (I - M)) = sum_j (2 l_j - l_j^2)
# b_j' S b_j, from one product S B.
fp_map_kept <- function(map, S) sum((2 * map$l - map$l^2) * colSums((S %*% map$B) * map$B))

# The error tr((I - M) S (I - M)) of such a map, as the error outside span(B) plus
# sum_j (1 - l_j)^2 b_j' S b_j (with P = B B', I - M = (I - P) + B diag(1 - l) B' and the cross
# term 0): two sums of terms of one sign, so no digits are lost to cancellation beyond those of
# fp_residual_trace().
fp_map_error <- function(map, S) {
  SB <- S %*% map$B
  dg <- colSums(SB * map$B)
  fp_residual_trace(S, map$B, sum(diag(S)) - sum(dg)) + sum((1 - map$l)^2 * dg)
}

# Per-group diagnostics of a projection onto span(V) or of a general linear map M
# (reconstruction z M, M a d x d matrix or its factors, fp_map_arg()): average squared error about the group mean, the group's best rank-k
# error, marginal loss and fraction of variance explained. Errors are squared norms, never below 0.
# `err`: the errors when already known (fp_prep_std_errors()).
fp_group_stats <- function(prep, V = NULL, k, map = NULL, best = NULL, err = NULL) {
  if (is.null(best)) best <- fp_group_best(prep, k)
  if (is.null(err)) {
    if (!is.null(map) && !is.list(map)) {
      R <- diag(prep$d) - map
      tR <- t(R)
    }
    err <- vapply(seq_along(prep$levels), function(i) {
      s <- fp_prep_cov(prep, i)
      if (is.list(map)) return(fp_map_error(map, s))
      if (!is.null(map)) return(max(sum((crossprod(R, s)) * tR), 0))
      fp_residual_trace(s, V)
    }, numeric(1))
  }
  tot <- vapply(seq_along(prep$levels), function(i) fp_prep_cov_trace(prep, i), numeric(1))
  # fp_df(): the data frame data.frame() gives, without its checks and deparsing (this runs once
  # per fit, and per replicate in an audit)
  fp_df(lapply(list(group = prep$levels, n = as.numeric(prep$n), error = err, best = best,
                      loss = fp_group_loss(err, best, tot, prep$d), var_explained = ifelse(tot > 0, 1 - err / tot, NA_real_)), unname))
}

# Each group's loss err - best, with a negative within rounding of 0 reported as 0. The loss of a
# rank-k projection is >= 0, but where both terms are about 0 (k at the data's rank) they can
# cross by the rounding of each, about d eps times the group's total variance `tot` (the error's
# complement, the best error's trailing eigenvalues): 16 d eps of the largest of tot, err and best
# is clamped. A larger negative (a map of rank above k, or a defect) is reported as computed.
fp_group_loss <- function(err, best, tot, d) {
  loss <- err - best
  tiny <- which(loss < 0 & -loss <= 16 * d * .Machine$double.eps * pmax(tot, err, best))
  loss[tiny] <- 0
  loss
}

# A group_stats table in normalised units, mapped to the data's units.
fp_stats_units <- function(gs, unit) {
  cls <- oldClass(gs)
  gs <- unclass(gs)  # the columns are set as list elements: no data.frame method per column
  for (v in c("error", "best", "loss")) gs[[v]] <- gs[[v]] * unit
  class(gs) <- cls
  gs
}
