# The prepared problem of the row route (issue #48): the same normalised coordinates as
# fp_prepare_normalised() (centred, scaled, divided by the average column variance), built from
# per-group column means and sums of squares (one O(n d) pass, src/rows.cpp) instead of d x d
# moments. It keeps the rows (not copied) and the map into those coordinates, and no C, cov or
# second: the top k of the covariance and of each group's covariance come from products with
# the rows (fp_rows_eig(); Lanczos reads one prepared copy of them, fp_rows_copy()), the
# diagnostics from one product with them (fp_rows_quad()).

# The prepared problem from the rows `xm` (a double matrix) and groups `g` (a factor). NULL when
# the rows hold NA or infinite values (the moments pass then says where). `weights`: one
# non-negative weight per row (a bootstrap replicate of fair_audit(): the count of the row's
# block in the resample), or NULL; the problem is then that of the rows repeated as often as
# their weight says (the moments of the resampled blocks), without copying them: every product
# with the rows weighs them (src/rows.cpp), and Lanczos reads the rows, not the copy.
fp_prepare_rows <- function(xm, g, center = TRUE, scale. = FALSE, weights = NULL) {
  d <- ncol(xm)
  center <- fp_check_center_scale(center, d, "center")
  scale. <- fp_check_center_scale(scale., d, "scale.")
  rw <- if (is.null(weights)) numeric(0) else as.numeric(weights)
  st <- fp_cpp(.fp_rows_stats(xm, as.integer(g) - 1L, nlevels(g), rw), "the row statistics")
  if (!isTRUE(st$finite)) return(NULL)
  lev <- levels(g)
  n <- stats::setNames(st$n, lev)
  ntot <- sum(n)
  e <- st$exponent
  D <- 2^e
  pooled <- drop(st$mean %*% (n / ntot))
  ctr_s <- if (isTRUE(center)) pooled else if (isFALSE(center)) rep(0, d) else center / D
  within <- rowSums(st$ssq)
  between <- drop((st$mean - pooled)^2 %*% n)
  sc_s <- fp_rows_column_scale(scale., D, within + between, pooled, ctr_s, ntot, fp_colnames(xm))
  dev <- st$mean - ctr_s
  cw <- fp_column_weights(scale., e, sc_s, within, dev, n)
  w <- cw$w
  P <- cw$P
  msq <- cw$msq
  s <- sum(msq * ntot * w^2) / max(ntot - 1, 1) / d
  if (!is.finite(s)) fp_abort("has variances beyond double precision; rescale the data by a constant", "x")
  if (!(s > 0)) fp_abort("has no variation: every column is constant after centring, so there is no subspace to find", "x")
  sq <- sqrt(s)
  cov_trace <- colSums(st$ssq * w^2) / pmax(n, 1) / s
  names(cov_trace) <- lev
  scale_data <- if (isFALSE(scale.)) rep(1, d) else D * sc_s
  rr <- fp_rows_held(xm, e, cw, P, sq)
  lv <- log2(pmax(within + between, 0) / max(ntot - 1, 1)) + 2 * e
  # the rows of each group that count (weight above 0): what bounds its covariance's rank
  held <- if (length(rw)) stats::setNames(tabulate(as.integer(g)[rw > 0], length(lev)), lev) else n
  prep <- list(d = d, levels = lev, n = n, n_total = ntot, n_held = held, colnames = fp_colnames(xm),
               center = ctr_s * D, scale = if (isFALSE(scale.)) rep(2^P * sq, d) else scale_data * (2^P * sq),
               scale_data = scale_data, centered = !isFALSE(center), scaled = !isFALSE(scale.),
               mean = dev * w / sq, cov_trace = cov_trace, unit = 4^P * s, unit_sqrt = 2^P * sq,
               unit_log2 = 2 * P + log2(s), log2_colvar = lv, cache = new.env(parent = emptyenv()),
               rows = list(x = rr$x, g = as.integer(g) - 1L, w = rr$w, center = ctr_s * 2^(e - rr$h),
                           weights = if (length(rw)) rw))
  fp_rows_check_unit(prep)
}

# The rows as the products read them, and the weights that map them to the normalised
# coordinates: list(x, w, h), column j of x being column j of the data times 2^-h[j]. The data
# themselves (h = 0) where each column's weight b * 2^(a - e - P) / sq is a normal number; where
# it is not (a column of subnormal values, whose weight would overflow, or one near the largest
# double, whose weight would be subnormal), those columns are brought into range by their power
# of two e (exact), in a copy of the rows made only then, as fp_moments_ranged() does.
fp_rows_held <- function(xm, e, cw, P, sq) {
  w <- cw$b * 2^(cw$a - e - P) / sq
  far <- which(e != 0 & !(is.finite(w) & abs(w) >= .Machine$double.xmin))
  h <- rep(0, length(e))
  if (!length(far)) return(list(x = xm, w = w, h = h))
  for (j in far) xm[, j] <- xm[, j] * 2^-e[j]
  h[far] <- e[far]
  list(x = xm, w = cw$b * 2^(cw$a - e + h - P) / sq, h = h)
}

# The scale of each column (stored units) as fp_column_scale() finds it from the moments, from
# the columns' sums of squares about the pooled mean `ss`.
fp_rows_column_scale <- function(scale., D, ss, pooled, ctr, ntot, cn) {
  if (isFALSE(scale.)) return(rep(1, length(D)))
  if (is.numeric(scale.)) return(scale. / D)
  if (ntot < 2) fp_abort("= TRUE needs at least 2 rows", "scale.")
  sc <- fp_rms_about(ss / (ntot - 1), pooled - ctr, ntot)
  zero <- !(sc > fp_tol_constant * abs(pooled))
  if (any(zero)) {
    fp_abort(sprintf("= TRUE cannot rescale constant (zero-variance) column(s): %s",
                     paste(utils::head(cn[zero], 5), collapse = ", ")), "scale.")
  }
  sc
}

# fp_check_unit() of the row route: the group errors must be representable in the data's units.
fp_rows_check_unit <- function(prep) {
  top <- prep$unit_log2 + log2(max(prep$d, prep$cov_trace))
  if (top > 1020 || prep$unit_log2 < -1000) {
    fp_abort(sprintf(paste("has variances of about 1e%d, beyond or below double precision, so the per-group errors",
                           "cannot be reported in its units; use scale. = TRUE (unit-free) or rescale the data"),
                     round(prep$unit_log2 * log10(2))), "x")
  }
  prep
}

# The options of the row entries of src/rows.cpp.
fp_rows_opts <- function(prep) {
  c(list(w = prep$rows$w, center = prep$rows$center, mean = unname(prep$mean), n = as.numeric(prep$n)),
    if (!is.null(prep$rows$weights)) list(rw = prep$rows$weights))
}

# Whether Lanczos reads the prepared copy of the rows (fp_rows_copy()): not with row weights,
# whose group means are not the copy's.
fp_rows_use_copy <- function(prep) is.null(prep$rows$weights)

# Whether the covariance of `ns` rows is cheaper by its Gram matrix (ns x ns) than by Lanczos.
fp_rows_use_gram <- function(ns, d, k) {
  ns <= d && fp_route_cost_gram(ns, d) <= fp_route_cost_lanczos(ns, d, k)
}

# Top k eigenpairs (decreasing) of the prepared covariance (group = NULL) or of group `group`'s,
# projected off span(Q) when Q (d x r, orthonormal) is given, once per fit. `vectors = FALSE`
# for the values only.
fp_rows_eig <- function(prep, k, group = NULL, Q = NULL, vectors = TRUE, gram = NULL) {
  key <- paste("rows", if (is.null(group)) "C" else group, k, vectors)
  cached <- is.null(Q) && !is.null(prep$cache)
  hit <- if (cached) prep$cache[[key]]
  # the values of a solve that also found the vectors are those asked for without them
  if (is.null(hit) && cached && !vectors) hit <- prep$cache[[paste("rows", if (is.null(group)) "C" else group, k, TRUE)]]
  if (!is.null(hit)) return(hit)
  gi <- if (is.null(group)) 0L else as.integer(group)
  ns <- if (gi == 0L) sum(prep$n_held) else prep$n_held[[gi]]
  tr <- if (gi == 0L) prep$d else prep$cov_trace[[gi]]
  if (is.null(gram)) gram <- fp_rows_use_gram(ns, prep$d, k) || k >= prep$d || 3 * k >= prep$d
  opts <- c(fp_rows_opts(prep), list(trace = max(tr, .Machine$double.xmin), gram = gram, vectors = vectors))
  if (!gram && fp_rows_use_copy(prep)) opts <- c(opts, fp_rows_copy(prep))
  if (is.null(Q)) Q <- matrix(0, prep$d, 0)
  e <- fp_cpp(.fp_rows_eig(prep$rows$x, prep$rows$g, gi, Q, as.integer(k), opts), "the row route's eigensolver")
  out <- fp_rows_eig_result(e, k, vectors, Q)
  if (gi == 0L && vectors && !is.null(prep$cache)) assign("solver", if (isTRUE(e$lanczos)) "Lanczos" else "Gram", envir = prep$cache)
  if (cached) assign(key, out, envir = prep$cache)
  out
}

# The copy of the prepared rows that Lanczos' products read (src/rows.cpp): each row centred at
# its group's mean, sorted by group, stored by rows (a d x n matrix), made once per fit (the size
# of the data, as a centred copy for a truncated SVD would be); list(copy, start = the first row
# of each group in it, 0-based, and n).
fp_rows_copy <- function(prep) {
  hit <- if (!is.null(prep$cache)) prep$cache[["copy"]]
  if (!is.null(hit)) return(hit)
  r <- prep$rows
  z <- fp_cpp(.fp_rows_copy(r$x, r$g, order(r$g) - 1L, fp_rows_opts(prep)), "the row route's copy of the rows")
  out <- list(copy = z, start = as.integer(c(0, cumsum(prep$n))))
  if (!is.null(prep$cache)) assign("copy", out, envir = prep$cache)
  out
}

# V (d x r, orthonormal) completed to k orthonormal columns by directions orthogonal to it and to
# `avoid` (d x q, orthonormal, or NULL): where the rows span fewer than k directions, a row-route
# fit's k-th directions are, as on the moments route, directions of variance 0 (any of them is
# an optimum). Deterministic: coordinate directions, those least in span(V, avoid) first,
# orthogonalised twice (classical Gram-Schmidt with one reorthogonalisation).
fp_pad_basis <- function(V, k, avoid = NULL) {
  r <- ncol(V)
  d <- nrow(V)
  k <- min(k, d - if (is.null(avoid)) 0L else ncol(avoid))
  if (r >= k) return(V)
  B <- cbind(V, avoid)
  out <- matrix(0, d, k - r)
  j <- 0L
  lean <- if (ncol(B)) rowSums(B^2) else numeric(d)
  # the coordinate directions least in span(B) first; a second sweep takes what the first left
  # (some direction keeps at least (d - rank) / d of its square outside any subspace)
  for (cut in c(0.5, 0.5 / sqrt(d))) {
    for (c in order(lean)) {
      v <- numeric(d)
      v[c] <- 1
      for (pass in 1:2) {
        if (ncol(B)) v <- v - B %*% crossprod(B, v)
        if (j) v <- v - out[, seq_len(j), drop = FALSE] %*% crossprod(out[, seq_len(j), drop = FALSE], v)
      }
      nv <- sqrt(sum(v^2))
      if (nv > cut) {
        j <- j + 1L
        out[, j] <- v / nv
        if (j == k - r) return(cbind(V, out))
      }
    }
  }
  cbind(V, out[, seq_len(j), drop = FALSE])
}

# V'CV (k x k) and each group's error outside span(V), normalised units.
fp_rows_quad <- function(prep, V) {
  fp_cpp(.fp_rows_quad(prep$rows$x, prep$rows$g, unname(V), fp_rows_opts(prep)), "the row route's diagnostics")
}

# How many leading eigenvalues a row-route fit keeps of the covariance and of each group's, for
# its diagnostics (scree, errors by k, as.prcomp()'s residual directions): as many as the plots
# show by default (max(k + 3, 10)), at most d and the number of rows.
fp_rows_spectra_count <- function(prep, k) {
  as.integer(min(prep$d, sum(prep$n_held), max(k + 3L, 10L)))
}

# Each group's top K eigenvalues (normalised units, decreasing; fewer when the group has fewer
# rows): by Lanczos, or all of them by its Gram matrix (a group with fewer rows than columns).
fp_rows_group_values <- function(prep, K) {
  lapply(seq_along(prep$levels), function(i) {
    ns <- prep$n_held[[i]]
    if (ns < 1) return(numeric(0))
    if (fp_rows_use_gram(ns, prep$d, K)) return(pmax(fp_rows_eig(prep, ns, i, vectors = FALSE, gram = TRUE)$values, 0))
    pmax(fp_rows_eig(prep, min(K, ns), i, vectors = FALSE)$values, 0)
  })
}

# Each group's best rank-k error from its leading eigenvalues `vals` (fp_rows_group_values()):
# its trace minus its top k, or the sum of its trailing eigenvalues where the Gram matrix gave
# them all (a group with fewer rows than columns).
fp_rows_group_best <- function(prep, k, vals = fp_rows_group_values(prep, k)) {
  vapply(seq_along(prep$levels), function(i) {
    if (k >= prep$d || k >= prep$n_held[[i]]) return(0)
    v <- vals[[i]]
    if (length(v) >= prep$n_held[[i]]) return(sum(v[-seq_len(k)]))
    max(prep$cov_trace[[i]] - sum(v[seq_len(k)]), 0)
  }, numeric(1))
}

# Estimated cost (flops) of the routes, for n rows, d columns, k components and groups of
# sizes ng: the moments' pass and eigensolves of d x d matrices (one per group and one of C);
# Lanczos on the rows (about 3 restarts of ncv products, each two passes over the rows);
# the Gram matrices and their dense eigendecompositions.
fp_route_cost_lanczos <- function(n, d, k) {
  ncv <- min(d, max(2 * k + 1, k + 20))
  4 * n * d * 3 * ncv
}
fp_route_cost_gram <- function(n, d) n^2 * d + 10 * n^3
fp_route_cost_moments <- function(n, d, k, m) {
  eig <- if (fp_lanczos_path(d, k)) fp_route_product_factor * 2 * d^2 * 3 * min(d, max(2 * k + 1, k + 20)) else 10 * d^3
  n * d^2 + (m + 1) * eig
}

# A flop of Lanczos's products (matrix-vector passes over the rows or a d x d matrix, bound by
# memory) against one of the blocked passes (the moments' rank updates, Gram matrices): the
# row route's measured time over its estimated share was 1.8-2.9 times (standard PCA; LFW,
# 13,232 x 1,764, k = 5-20; bench/wide.R at n = 2000, d = 2000 and 5000).
fp_route_product_factor <- 2.5

# The cheapest route for rows of n x d in groups of sizes ng at k components: "moments" or
# "rows", with the estimates.
fp_route_costs <- function(n, d, ng, k) {
  lan <- function(ns) fp_route_product_factor * fp_route_cost_lanczos(ns, d, k)
  part <- function(ns) if (ns <= d) min(fp_route_cost_gram(ns, d), lan(ns)) else lan(ns)
  rows <- part(n) + sum(vapply(ng, part, numeric(1))) + 2 * n * d * k
  c(moments = fp_route_cost_moments(n, d, k, length(ng)), rows = rows)
}

# Top k eigenpairs of the weighted sum sum_g weights_g C_g of the group covariances (each group
# about its own mean; min-max fair PCA's oracle), by Lanczos on the rows started from `init` (a
# d-vector, e.g. the sum of the previous eigenvectors), or by the Gram matrix of the weighted,
# group-centred rows when Lanczos does not serve.
fp_rows_wsum_eig <- function(prep, weights, k, init = NULL) {
  tr <- sum(weights * prep$cov_trace)
  gram <- k >= prep$d || 3 * k >= prep$d || fp_rows_use_gram(sum(prep$n_held), prep$d, k)
  opts <- c(fp_rows_opts(prep), list(trace = max(tr, .Machine$double.xmin), gram = gram, vectors = TRUE,
                                     weights = as.numeric(weights), init = if (is.null(init)) numeric(0) else as.numeric(init)),
            if (!gram && fp_rows_use_copy(prep)) fp_rows_copy(prep))
  e <- fp_cpp(.fp_rows_eig(prep$rows$x, prep$rows$g, 0L, matrix(0, prep$d, 0), as.integer(k), opts),
              "the row route's eigensolver")
  fp_rows_eig_result(e, k)
}

# The compiled eigensolver's result as a list; where the rows hold fewer than k directions (of
# variance clear of 0) the vectors are completed by directions of variance 0 off span(Q)
# (fp_pad_basis()), as the moments route's eigenvectors of value 0 complete them.
fp_rows_eig_result <- function(e, k, vectors = TRUE, Q = NULL) {
  out <- list(values = e$values, vectors = e$vectors, lanczos = e$lanczos)
  if (vectors && ncol(out$vectors) < k) {
    out$vectors <- fp_pad_basis(out$vectors, k, if (!is.null(Q) && ncol(Q)) Q)
    out$values <- c(out$values, numeric(max(ncol(out$vectors) - length(out$values), 0L)))
  }
  out
}

# Each group's covariance projected on span(Q) (Q d x r, orthonormal): the r x r matrices
# Q' C_g Q, from one product of the rows with Q (normalised units).
fp_rows_project <- function(prep, Q) {
  r <- prep$rows
  WQ <- r$w * Q
  ZQ <- r$x %*% WQ
  ZQ <- sweep(ZQ, 2L, drop(crossprod(r$center, WQ)))
  ZQ <- ZQ - crossprod(unname(prep$mean), Q)[r$g + 1L, , drop = FALSE]
  S <- lapply(seq_along(prep$levels), function(i) {
    in_g <- r$g == i - 1L
    Zi <- ZQ[in_g, , drop = FALSE]
    s <- (if (is.null(r$weights)) crossprod(Zi) else crossprod(Zi, r$weights[in_g] * Zi)) / max(prep$n[[i]], 1)
    (s + t(s)) / 2
  })
  stats::setNames(S, prep$levels)
}
