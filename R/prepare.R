# Preparing a problem: the moments centred, scaled and normalised to unit size for the solvers
# (fp_prepare_normalised()), the eigenpairs cached per fit, each group's best rank-k error, and
# the maps of data rows into the prepared coordinates (fp_transform(), fp_scores()).

# The d x d quantities every solver works from, in normalised coordinates. With
# z = (x - center) / scale the centred, scaled data (scale = 1 without scaling) and
# s = tr(C_z) / d its average column variance, a solver sees z / sqrt(s):
#   n (named group sizes), mean (d x m group means), cov (group covariances about their own
#   means, divisor n_g), C (the matrix prcomp diagonalises: sum_g n_g second_g / (n - 1), with
#   second_g the uncentred second moment of group g, divisor n_g), all in those units; second_g
#   itself is built on demand, one at a time, by fp_prep_second() from `parts_second` (the
#   column weights, the weighted means and s), so that a fit holds m + 1 d x d matrices beyond
#   its moments, not 2m + 1; with `lazy_cov = TRUE` neither the group covariances nor C are
#   kept (cov and C are NULL): fp_prep_cov() and fp_prep_C() build each on demand with the same
#   operations into one work matrix, so that a fit holds that one d x d matrix beyond its
#   moments (standard PCA and mean matching, which read C and, for the diagnostics, one group's
#   covariance at a time; min-max, whose solver reads the groups one at a time,
#   fp_prep_lazy_groups());
#   center (data units), scale (data units, maps rows into the normalised coordinates:
#   fp_transform()), scale_data (the user's scaling, 1 without), centered/scaled flags, moments;
#   unit = s (multiply values with units of variance by it; Inf or 0 when the data's variances
#   are beyond double precision), unit_sqrt = sqrt(s) (always representable for finite data).
# Numerical conditioning, in one place: solvers never see the user's units.
# The moments are brought to the prepared coordinates by per-column weights that are an exact
# power of two times the user's scaling, with one global power of two putting the largest
# column near 1 before anything is squared, so no data of finite values overflow or underflow
# here (columns below 2^-1074 of the largest vanish, as they would in any sum with it). After
# `scale. = TRUE` the average variance is 1 already, so the papers' standardised settings are
# untouched.
# The weights that bring each stored column into the normalised coordinates, shared by the moments
# and the rows: z = (x_s - ctr_s) * 2^a * b per column (x_s the stored column, e its power of two;
# the power of two is kept apart from the rest so that neither overflows), and w = b * 2^(a - P)
# maps stored units to z / 2^P with P the power of two that brings the largest column's root mean
# square about ctr_s (msq) to at most 1. `within` holds each column's within-group sum of squares,
# `dev` the group means minus ctr_s (d x m), `n` the group sizes.
fp_column_weights <- function(scale., e, sc_s, within, dev, n) {
  if (isFALSE(scale.)) {
    a <- e
    b <- rep(1, length(e))
  } else {
    a <- rep(0, length(e))
    b <- 1 / sc_s
  }
  msq <- (within + drop(dev^2 %*% n)) / sum(n)
  lmag <- a + log2(b * sqrt(msq))
  P <- if (any(is.finite(lmag))) ceiling(max(lmag[is.finite(lmag)])) else 0
  list(a = a, b = b, P = P, w = b * 2^(a - P), msq = msq)
}

fp_prepare_normalised <- function(m, center = TRUE, scale. = FALSE, lazy_cov = FALSE) {
  d <- length(m$colnames)
  center <- fp_check_center_scale(center, d, "center")
  scale. <- fp_check_center_scale(scale., d, "scale.")
  e <- if (is.null(m$exponent)) rep(0, d) else m$exponent  # data column j = stored column j * 2^e[j]
  fp_check_moments_range(m)
  D <- 2^e
  ntot <- sum(m$n)
  ctr_s <- if (isTRUE(center)) fp_pooled_mean(m) else if (isFALSE(center)) rep(0, d) else center / D
  sc_s <- fp_column_scale(m, ctr_s, if (is.numeric(scale.)) scale. / D else scale.)
  dev <- m$mean - ctr_s
  within <- Reduce(`+`, lapply(seq_along(m$levels), function(i) diag(m$scatter[[i]])))
  cw <- fp_column_weights(scale., e, sc_s, within, dev, m$n)
  w <- cw$w
  P <- cw$P
  mean <- dev * w
  # the group covariances and C, divided by s, in one compiled pass (the arithmetic of
  # cov_g = (scatter_g * tcrossprod(w)) / n_g, second_g = cov_g + tcrossprod(mean[, g]),
  # C = Reduce(`+`, second_g * n_g) / max(ntot - 1, 1), s = sum(diag(C)) / d, operation for
  # operation): m + 1 new d x d matrices and no others (none with lazy_cov: C's diagonal alone,
  # for s); second_g is not kept (fp_prep_second())
  denom <- max(ntot - 1, 1)
  built <- fp_cpp(.fp_prepare_moments(m$scatter, w, as.numeric(m$n), mean, denom,
                                      list(m$colnames, m$colnames), !lazy_cov, !lazy_cov), "the prepared moments")
  s <- built$s
  if (!is.finite(s)) {
    fp_abort(paste("has variances beyond double precision in its moments (values beyond about 1e+-150 summed",
                   "without bringing the columns into range); fit from the rows, or rescale the data by a constant"), "x")
  }
  if (!(s > 0)) {
    fp_abort("has no variation: every column is constant after centring, so there is no subspace to find", "x")
  }
  sq <- sqrt(s)
  cov <- built$cov
  if (!is.null(cov)) names(cov) <- m$levels
  scale_data <- if (isFALSE(scale.)) rep(1, d) else D * sc_s
  list(d = d, levels = m$levels, n = m$n, n_total = ntot, colnames = m$colnames,
       center = ctr_s * D, scale = if (isFALSE(scale.)) rep(2^P * sq, d) else scale_data * (2^P * sq),
       scale_data = scale_data, centered = !isFALSE(center), scaled = !isFALSE(scale.),
       mean = mean / sq, cov = cov, C = built$C, moments = m, parts_second = list(w = w, mean = mean, s = s, denom = denom),
       unit = 4^P * s, unit_sqrt = 2^P * sq, unit_log2 = 2 * P + log2(s),
       cache = new.env(parent = emptyenv()))
}

# The prepared problem in the units of the centred, scaled data z = (x - center) / scale (the
# normalised problem times its unit; infinite where those variances overflow). For callers
# that report in the data's units; solvers take fp_prepare_normalised().
fp_prepare <- function(m, center = TRUE, scale. = FALSE) {
  p <- fp_prepare_normalised(m, center, scale.)
  u <- p$unit
  p$C <- p$C * u
  p$cov <- lapply(p$cov, function(a) a * u)
  p$second <- stats::setNames(lapply(seq_along(p$levels), function(i) fp_prep_second(p, i) * u), p$levels)
  p$parts_second <- NULL
  p$mean <- p$mean * p$unit_sqrt
  p$scale <- p$scale_data
  p$unit <- 1
  p$unit_sqrt <- 1
  p$unit_log2 <- 0
  p$cache <- NULL
  p
}

# The uncentred second moment of group i in the prepared problem's units (divisor n_g), as a new
# d x d matrix: prep$second[[i]] where a prepared problem holds them (fp_prepare()), else built
# from the moments with the operations that built prep$cov (the same values as when
# fp_prepare_normalised() stored them all).
fp_prep_second <- function(prep, i) {
  if (!is.null(prep[["second"]])) return(prep[["second"]][[i]])
  sp <- prep$parts_second
  fp_cpp(.fp_prepare_second(prep$moments$scatter[[i]], sp$w, as.numeric(prep$n[[i]]), sp$mean[, i], sp$s),
         "the second moments")
}

# The covariance of group i (index or level) in the prepared problem's units: prep$cov[[i]], or
# where the problem does not keep them (lazy_cov) built from the moments with the operations
# that fp_prepare_normalised() would have stored it with (the same values), into one work matrix
# per prepared problem (in its cache) that is refilled group after group, so that the groups'
# diagnostics hold one d x d matrix and leave no garbage of m of them. The value returned for a
# lazy problem is valid until the next call for another group: callers use it at once and keep
# no reference to it (a product or a copy of it is theirs).
fp_prep_cov <- function(prep, i) fp_prep_group(prep, i)

# Group i's covariance (fp_prep_cov()) or, with `second`, its uncentred second moment (the values
# of fp_prep_second()), in the one work matrix of the prepared problem where it does not hold
# them (valid until the next call for another group or kind), or as a new matrix (`new`).
fp_prep_group <- function(prep, i, second = FALSE, new = FALSE) {
  held <- if (second) prep[["second"]] else prep[["cov"]]
  if (!is.null(held)) return(held[[i]])
  if (is.character(i)) i <- match(i, prep$levels)
  sp <- prep$parts_second
  S <- prep$moments$scatter[[i]]
  ng <- as.numeric(prep$n[[i]])
  build <- function() {
    if (second) fp_prep_second(prep, i) else fp_cpp(.fp_prepare_cov(S, sp$w, ng, sp$s, FALSE), "the group covariances")
  }
  fill <- function(out) {
    fp_cpp(.fp_prepare_cov_into(out, S, sp$w, ng, sp$s, if (second) sp$mean[, i]), "the group covariances")
  }
  fp_prep_work(prep, if (second) -as.integer(i) else as.integer(i), build, fill, new)
}

# The prepared problem's one work matrix (in its cache) holding the matrix named by `key` (a
# group's covariance i, its second moment -i, C 0): returned as it is when it holds it already,
# else refilled by fill(work), or first made by build(); build() alone without a cache or with
# `new`.
fp_prep_work <- function(prep, key, build, fill, new = FALSE) {
  env <- prep$cache
  if (is.null(env) || new) return(build())
  if (identical(env[["cov_work_group"]], key)) return(env[["cov_work"]])
  assign("cov_work_group", NULL, envir = env)
  if (is.null(env[["cov_work"]])) assign("cov_work", build(), envir = env) else fill(env[["cov_work"]])
  assign("cov_work_group", key, envir = env)
  env[["cov_work"]]
}

# C, the matrix prcomp diagonalises, in the prepared problem's units: prep$C, or where the
# problem does not hold it (lazy_cov) built from the moments with the operations that
# fp_prepare_normalised() would have stored it with (the same values) into the work matrix of
# fp_prep_group(), valid until the next call for a group (callers use it at once), or as a new
# matrix (`new`).
fp_prep_C <- function(prep, new = FALSE) {
  if (!is.null(prep[["C"]])) return(prep[["C"]])
  fill <- function(out) fp_prep_pooled(prep, out)
  fp_prep_work(prep, 0L, function() fill(matrix(0, prep$d, prep$d)), fill, new)
}

# C's values written into `out` (a d x d matrix no one else holds), or with `out` NULL its
# diagonal.
fp_prep_pooled <- function(prep, out) {
  sp <- prep$parts_second
  fp_cpp(.fp_prepare_pooled(out, prep$moments$scatter, sp$w, as.numeric(prep$n), sp$mean, sp$denom, sp$s,
                            list(prep$colnames, prep$colnames)), "the prepared moments")
}

# C in a matrix the caller may overwrite (mean matching's complement is computed in it): where
# the problem does not hold C, the work matrix with C's values, marked as holding nothing (or a
# new matrix without a cache); NULL where it holds C (which is not to be overwritten).
fp_prep_C_scratch <- function(prep) {
  if (!is.null(prep[["C"]])) return(NULL)
  M <- fp_prep_C(prep)
  if (!is.null(prep$cache)) assign("cov_work_group", NULL, envir = prep$cache)
  M
}

# tr(C), sum(diag(fp_prep_C(prep))) without forming C.
fp_prep_C_trace <- function(prep) {
  if (!is.null(prep[["C"]])) sum(diag(prep[["C"]])) else sum(fp_prep_pooled(prep, NULL))
}

# What a compiled solver needs to build every group's matrix (covariances, or second moments
# with `second`) itself into the prepared problem's work matrix, one group at a time: the
# moments' scatters, the column weights, group sizes and average variance, the weighted means
# (second moments only) and the work matrix, which the solver overwrites (so it is marked as
# holding no group). NULL where the problem holds the matrices, keeps no work matrix, or a
# scatter is not an exactly symmetric double matrix (whose group matrix the solvers symmetrise
# into a copy of their own).
fp_prep_lazy_groups <- function(prep, second = FALSE) {
  held <- if (second) prep[["second"]] else prep[["cov"]]
  sc <- prep$moments$scatter
  if (!is.null(held) || is.null(prep$cache) || is.null(prep$parts_second)) return(NULL)
  if (!all(vapply(sc, function(s) is.double(s) && is.matrix(s) && fp_is_symmetric_exact(s), NA))) return(NULL)
  fp_prep_group(prep, 1L, second)
  env <- prep$cache
  assign("cov_work_group", NULL, envir = env)
  sp <- prep$parts_second
  list(scatter = unname(sc), w = as.numeric(sp$w), n = as.numeric(prep$n), s = sp$s,
       mean = if (second) sp$mean, work = env[["cov_work"]])
}

# The trace of group i's covariance, sum(diag(fp_prep_cov(prep, i))) without forming it.
fp_prep_cov_trace <- function(prep, i) {
  if (!is.null(prep[["cov"]])) return(sum(diag(prep[["cov"]][[i]])))
  if (is.character(i)) i <- match(i, prep$levels)
  sp <- prep$parts_second
  sum(fp_cpp(.fp_prepare_cov(prep$moments$scatter[[i]], sp$w, as.numeric(prep$n[[i]]), sp$s, TRUE),
             "the group covariances"))
}

# Values with units of variance (group errors, losses, objectives) are reported in the data's
# units, so those units must be representable: a classed error otherwise, which says what to do.
fp_check_unit <- function(prep) {
  top <- prep$unit_log2 + log2(max(prep$d, vapply(seq_along(prep$levels), function(i) fp_prep_cov_trace(prep, i), numeric(1))))
  if (top > 1020 || prep$unit_log2 < -1000) {
    fp_abort(sprintf(paste(
      "has variances of about 1e%d, %s double precision, so the per-group errors and losses cannot be",
      "reported in its units; use scale. = TRUE (unit-free), or multiply the data by a constant such as 1e%d"),
      round(prep$unit_log2 * log10(2)), if (prep$unit_log2 > 0) "beyond" else "below",
      -round(prep$unit_log2 * log10(2) / 2)), "x")
  }
  invisible(prep)
}

# Map data rows into the coordinates of a prepared problem.
fp_transform <- function(prep_or_fit, x) {
  ctr <- prep_or_fit$center
  sc <- prep_or_fit$scale
  if (isFALSE(ctr)) ctr <- rep(0, ncol(x))
  if (isFALSE(sc)) sc <- rep(1, ncol(x))
  z <- sweep(x, 2L, ctr, `-`)
  sweep(z, 2L, sc, `/`)
}

# Eigenpairs of the prepared problem computed once per fit and shared by the solver and the
# result's diagnostics (a top-k Lanczos solve costs as much as the moments pass at large d):
# the top k of C (group = NULL) or of a group covariance fp_prep_cov(prep, group). Callers that
# change prep$C or prep$cov must not use it (fp_prepare() drops the cache).
fp_prep_eig <- function(prep, k, group = NULL) {
  A <- function() if (is.null(group)) fp_prep_C(prep) else fp_prep_cov(prep, group)
  if (is.null(prep$cache)) return(fp_eig_top(A(), k))
  key <- paste(if (is.null(group)) "C" else group, k)
  hit <- prep$cache[[key]]
  if (!is.null(hit)) return(hit)
  e <- fp_eig_top(A(), k)
  assign(key, e, envir = prep$cache)
  e
}

# All eigenvalues (decreasing) of a group covariance, once per fit (dense: small d or large k).
fp_prep_values <- function(prep, group) {
  key <- paste("values", group)
  hit <- if (is.null(prep$cache)) NULL else prep$cache[[key]]
  if (!is.null(hit)) return(hit)
  v <- fp_sym_values(fp_prep_cov(prep, group))
  if (!is.null(prep$cache)) assign(key, v, envir = prep$cache)
  v
}

# Each group's error outside the span of standard PCA's top k (fp_prep_eig()), once per fit:
# the result's group_stats_standard, and the standard candidate of min-max fair PCA.
fp_prep_std_errors <- function(prep, k) {
  key <- paste("std_errors", k)
  hit <- if (is.null(prep$cache)) NULL else prep$cache[[key]]
  if (!is.null(hit)) return(hit)
  V <- fp_prep_eig(prep, k)$vectors
  err <- if (is.null(prep[["cov"]])) {
    vapply(seq_along(prep$levels), function(i) fp_residual_trace(fp_prep_cov(prep, i), V), numeric(1))
  } else {
    # all groups by one product where the matrices are small (fp_quad_blocks(); the same numbers)
    S <- prep[["cov"]]
    tr <- vapply(S, function(s) sum(diag(s)), numeric(1), USE.NAMES = FALSE)
    e <- tr - fp_quad_blocks(S, V)$tot
    vapply(seq_along(S), function(i) fp_residual_trace(S[[i]], V, e[i], tr[i]), numeric(1))
  }
  if (!is.null(prep$cache)) assign(key, err, envir = prep$cache)
  err
}

# Sum of the k largest eigenvalues of each group covariance (their best rank-k variances).
fp_group_topsum <- function(prep, k) {
  vapply(seq_along(prep$levels), function(i) {
    if (fp_lanczos_path(prep$d, k)) sum(fp_prep_eig(prep, k, i)$values) else sum(fp_prep_values(prep, i)[seq_len(k)])
  }, numeric(1))
}

# Each group's best average rank-k error (group-centred), from a prepared problem: the sum of
# the trailing eigenvalues (no cancellation) where a full eigendecomposition is the cheaper
# route, the trace minus the top k where Lanczos is (its tolerance is relative to the matrix),
# unless that difference has cancelled to below 1e-8 of the trace.
fp_group_best <- function(prep, k) {
  d <- prep$d
  vapply(seq_along(prep$levels), function(i) {
    if (k >= d) return(0)
    if (fp_lanczos_path(d, k)) {
      tot <- fp_prep_cov_trace(prep, i)
      e <- tot - sum(fp_prep_eig(prep, k, i)$values)
      # fewer than about 7 digits left (the top k dwarf the rest): the dense tail instead
      if (e >= fp_tol_cancel * tot) return(e)
    }
    sum(pmax(fp_prep_values(prep, i)[-seq_len(k)], 0))
  }, numeric(1))
}

# Scores of the training rows, (x - center) / scale %*% rotation, computed as
# x %*% (rotation / scale) minus one row, without a centred copy of x. Fits whose scores are
# not that projection (a linear map of Samadi et al.'s affine projection, the trade-off
# representation of mean-matching PCA) go through their predict() method.
fp_scores <- function(fit, x) {
  if (fp_has_map(fit) || !is.null(fit$tradeoff)) return(predict(fit, x))
  R <- fit$rotation
  sc <- if (isFALSE(fit$scale)) rep(1, nrow(R)) else fit$scale
  ct <- if (isFALSE(fit$center)) rep(0, nrow(R)) else fit$center
  W <- R / sc
  off <- drop(ct %*% W)
  if (is.double(x) && !is.object(x)) fp_backend_for(as.numeric(nrow(x)) * ncol(x) * ncol(W))
  fp_scores_in_range(fit, x, R, W, off)
}

# x W - off (= ((x - center) / scale) M with W = M / scale, off = center W), named as the
# rotation's columns. Rows whose product is not finite (a row with a missing value, whose scores
# are NA as predict() documents, or a column whose scale is so small, e.g. subnormal, that the
# product leaves double range) are centred and scaled first, as predict() does (fp_transform()),
# a block of rows at a time: a copy of those rows alone, never of all of x. Where W or off are
# not finite (M / scale overflows) every row goes that way.
fp_rows_block <- 4096L
fp_scores_in_range <- function(fit, x, M, W, off) {
  dn <- list(rownames(x), colnames(fit$rotation))
  if (all(is.finite(W)) && all(is.finite(off))) {
    s <- fp_scores_product(x, W, off, dn)
    bad <- which(!is.finite(rowSums(s)))
    if (!length(bad)) return(s)
  } else {
    s <- matrix(NA_real_, nrow(x), ncol(M), dimnames = dn)
    bad <- seq_len(nrow(x))
  }
  for (b in split(bad, ceiling(seq_along(bad) / fp_rows_block))) {
    s[b, ] <- fp_transform(fit, x[b, , drop = FALSE]) %*% M
  }
  s
}

# x W - off, with dimnames `dn`: for a double matrix one product written into the result,
# without the scan of x for NaN that %*% makes (the callers pass rows that the moments pass has
# checked), its dimnames set inside fp_cpp(), where the result is not yet shared (setting them
# on the value fp_cpp() returns would copy the n x k scores).
fp_scores_product <- function(x, W, off, dn) {
  if (is.double(x) && !is.object(x)) {
    return(fp_cpp({
      s <- .fp_scores_cpp(x, unname(W), off)
      dimnames(s) <- dn
      s
    }, "the scores"))
  }
  s <- x %*% W - rep(off, each = nrow(x))
  dimnames(s) <- dn
  s
}

# Whether a fit's reconstruction is a linear map (min-max's rounding above rank k) rather than the
# projection on span(rotation). The map is symmetric, d x d in `map` (the moments route), and
# kept as its factors (on the row route alone, issue #48: no d x d matrix): map = B diag(l) B'
# with B = `map_basis` (d x r, orthonormal columns) and l = `map_weights`.
fp_has_map <- function(fit) !is.null(fit$map) || !is.null(fit$map_basis)

# The map of a fit as fp_group_stats() takes it: its factors list(B, l) where the fit keeps them
# (products with d x rank, not d x d, matrices), else the d x d matrix, or NULL.
fp_map_arg <- function(fit) {
  if (!is.null(fit$map_basis)) list(B = fit$map_basis, l = fit$map_weights) else fit$map
}

# map %*% Z (= t(Z' map), the map being symmetric), from the factors where the fit keeps them.
fp_map_times <- function(fit, Z) {
  if (!is.null(fit$map)) return(fit$map %*% Z)
  B <- fit$map_basis
  B %*% (fit$map_weights * crossprod(B, Z))
}

# Scores of a fit whose output is a linear map (reconstruction z map): the coordinates
# ((x - center) / scale) map rotation of the reconstruction, as one product with the rows.
fp_map_scores <- function(fit, x) {
  M <- fp_map_times(fit, fit$rotation)
  W <- if (isFALSE(fit$scale)) M else M / fit$scale
  off <- if (isFALSE(fit$center)) rep(0, ncol(W)) else drop(fit$center %*% W)
  fp_scores_in_range(fit, x, M, W, off)
}
