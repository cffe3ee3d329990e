# Block moments: the moments of blocks of rows of each group, kept beside a group's moments for
# the bootstrap intervals of fair_audit() (audit-intervals.R). Rows go to blocks by a hash of
# their row number (fp_block_of_row()); blocks of the same number add when moments of pieces
# are combined (fp_merge_blocks()). The pass that computes them is fp_moments_blocked() in
# moments.R.

# Block of each row number: floor(B frac(i phi)), phi the golden ratio's fractional part
# (Fibonacci hashing). Consecutive rows, and rows of one group spread among others at any
# stride, fall into different blocks and every block gets about n / B rows, so data sorted by
# any variable still spread evenly; no random numbers are used. Values in 1..B.
fp_block_of_row <- function(i, B) {
  as.integer(floor(B * ((i * 0.6180339887498949) %% 1))) + 1L
}

# The bootstrap blocks stored in a group_moments object (group_moments(blocks = )), or NULL.
fp_moments_blocks <- function(m) {
  if (is.null(m$blocks) || length(m$blocks) != length(m$levels)) return(NULL)
  lapply(seq_along(m$blocks), function(i) {
    b <- m$blocks[[i]]
    list(id = b$id, n = b$n, delta = b$mean - m$mean[, i], scatter = b$scatter)
  })
}

# The blocks of the merge `out` of the moments `a` and `b`: per group, blocks of the same number
# add exactly (their rows are as exchangeable as those of one block), other blocks are kept.
# Kept only when both pieces carry blocks of the same count; otherwise `out` has none.
fp_merge_blocks <- function(out, a, b) {
  if (is.null(fp_moments_blocks(a)) || is.null(fp_moments_blocks(b)) || !identical(a$block_count, b$block_count)) {
    return(out)
  }
  out$blocks <- lapply(out$levels, function(l) {
    ba <- if (l %in% a$levels) a$blocks[[match(l, a$levels)]]
    bb <- if (l %in% b$levels) b$blocks[[match(l, b$levels)]]
    if (is.null(ba) || !length(ba$n)) return(bb)
    if (is.null(bb) || !length(bb$n)) return(ba)
    fp_add_blocks(ba, bb)
  })
  out$block_count <- a$block_count
  out
}

# Chan et al.'s merge of two sets of blocks of one group, block by block (by `id`).
fp_add_blocks <- function(ba, bb) {
  id <- sort(union(ba$id, bb$id))
  ia <- match(id, ba$id)
  ib <- match(id, bb$id)
  d <- nrow(ba$mean)
  n <- numeric(length(id))
  mean <- matrix(0, d, length(id), dimnames = list(rownames(ba$mean), NULL))
  scatter <- matrix(0, d * d, length(id))
  for (side in list(list(b = ba, i = ia, only = !is.na(ia) & is.na(ib)), list(b = bb, i = ib, only = is.na(ia) & !is.na(ib)))) {
    j <- side$i[side$only]
    n[side$only] <- side$b$n[j]
    mean[, side$only] <- side$b$mean[, j]
    scatter[, side$only] <- side$b$scatter[, j]
  }
  both <- !is.na(ia) & !is.na(ib)
  if (any(both)) {
    na <- ba$n[ia[both]]
    nb <- bb$n[ib[both]]
    tot <- na + nb
    delta <- bb$mean[, ib[both], drop = FALSE] - ba$mean[, ia[both], drop = FALSE]
    n[both] <- tot
    mean[, both] <- ba$mean[, ia[both], drop = FALSE] + sweep(delta, 2L, nb / tot, `*`)
    outer <- delta[rep(seq_len(d), d), , drop = FALSE] * delta[rep(seq_len(d), each = d), , drop = FALSE]
    scatter[, both] <- ba$scatter[, ia[both], drop = FALSE] + bb$scatter[, ib[both], drop = FALSE] +
      sweep(outer, 2L, na * nb / tot, `*`)
  }
  list(id = id, n = n, mean = mean, scatter = scatter)
}
