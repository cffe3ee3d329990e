#' Fair column subset selection
#'
#' Chooses columns of a data matrix whose span reconstructs every group of rows well
#' (Matakos, Ordozgoiti and Thejaswi, 2024). For a column set `S`, group `g` (rows `X_g`) is
#' reconstructed by its own projection onto the span of its selected columns `C_g = X_g[, S]`,
#' and its loss is the ratio to its own best rank-k error:
#' \deqn{loss_g(S) = ||X_g - C_g C_g^+ X_g||_F / ||X_g - (X_g)_k||_F \ge 1}{loss_g(S) = ||X_g - C_g C_g^+ X_g||_F / ||X_g - (X_g)_k||_F >= 1}
#' (Frobenius norms, not squared, as in the paper's tables). The objective `MinMaxLoss` is the
#' largest loss over the groups ([css_loss()] evaluates it for any column set).
#'
#' Everything is computed from the per-group moments of [group_moments()] (the data are read
#' once): the Gram matrices `G_g = t(X_g) %*% X_g` of the centred, scaled data (see
#' [moments_crossprod()]) and a factor of each (see Ties and numerics below), in C++. The
#' squared error of a set is the trace of the residual Gram matrix
#' `G_g - G_g[, S] G_g[S, S]^+ G_g[S, ]`; adding a column is a rank-one downdate of it.
#'
#' Methods (arguments of each in parentheses, passed through `...`). The greedy, QR and random
#' methods take `n_columns` (default `k`): the number of columns to select, which may exceed
#' `k` (the losses keep the rank-k denominators; used for the paper's Figure 1).
#' * `"greedy"` (`denominators`, `rule`): `k` steps, each adding the column that minimises
#'   MinMaxLoss. The paper defines the step with the rank-k denominators of the losses
#'   (`denominators = "k"`); the authors' code divides at step `i` (with `i` columns chosen) by
#'   the rank-`i` residuals instead (`denominators = "step"`). Neither is better on every data
#'   set (on the paper's Table 2 the rank-k variant is worse than the published Greedy on most
#'   rows and the per-step variant on none, but the rank-k variant wins elsewhere; see the
#'   vignette), so the default `denominators = "best"` runs both and keeps the set with the
#'   smaller MinMaxLoss (the rank-k one on ties); `denominators` and `candidates` in the result
#'   say which won and the loss of each. `rule = "authors"` reproduces the authors' code
#'   exactly: per-step denominators, candidates scanned in column order, and every candidate
#'   whose value is at most the running value (which starts at the value of the current set)
#'   accepted, so the last of tied candidates is added (with `rule = "exact"`, the default, the
#'   first).
#' * `"lowqr"`: fair low-rank-revealing QR (Algorithm 2): a QR factorisation of all groups with
#'   one shared column permutation; at each step the group whose trailing block has the larger
#'   spectral norm gives its top right singular vector `v`, and the column at `max |v|` is moved
#'   forward. Computed as the top eigenvector of the group's residual Gram matrix.
#' * `"highqr"` : fair high-rank-revealing QR (Appendix A): from the last position backwards,
#'   the group whose leading block has the smaller smallest singular value gives its smallest
#'   right singular vector `v`, and the column at `max |v|` is moved to the back; the first `k`
#'   positions are the selection. Computed as the bottom eigenvector of `G_g[P, P]`; costs
#'   O(d^4) in all, slow beyond a few hundred columns (as in the paper). Where a leading block
#'   is numerically singular (its smallest singular value below `1e-4` of its largest, as with
#'   one-hot columns) its smallest singular vector is not unique and `max |v|` would depend on
#'   rounding; the pivot is then the column that lies most in the null spaces (the largest
#'   squared row norm of the null-space bases, summed over the singular groups), which does not
#'   depend on the basis. This is a deterministic reading of the paper's rule; the authors' code
#'   took whatever vector its SVD returned.
#' * `"sampler"` (`theta`, `max_columns`): FairScoresSampler (Algorithm 1) on the groups' rank-k
#'   leverage scores: columns by decreasing sum of the groups' scores until one group's
#'   scores reach `theta`, then by the other group's score until it does too. Returns `c >= k`
#'   columns (for `theta > k - 1`), at most `ceiling(1.5 c*)` with `c*` the fewest columns
#'   meeting both thresholds (Theorem 3); every group then has loss at most
#'   `(1 - eps)^(-1/2)` with `eps = k - theta` (Theorem 1: `sqrt(2)` for the default
#'   `theta = k - 0.5`). `max_columns` caps the number of columns (the authors' `max_limit`;
#'   with `theta = k` it returns the top `max_columns` columns by the sum of scores, as in the
#'   paper's Figure 1).
#' * `"two_stage"` (`stage2`, `theta`, `objective`, `rule`): the sampler, then `"lowqr"`,
#'   `"highqr"` or `"greedy"` on the sampled columns (the paper's S-Low QR, S-High QR,
#'   S-Greedy). The second stage works on the sampled submatrix (`objective = "sampled"`, the
#'   paper: greedy measures the error of the sampled columns, divided by each group's best
#'   rank-k error of the full data); `objective = "full"` makes S-Greedy minimise the MinMaxLoss
#'   of the whole data over the sampled candidates. With the default `rule = "exact"` the
#'   second-stage greedy is an exact argmin (ties: lowest column index); this is this package's
#'   S-Greedy, not the one the paper ran, and it is as good or better on the paper's data.
#'   `rule = "authors"` reproduces the S-Greedy of the authors' code, which produced the paper's
#'   numbers: the sampled columns are taken in the sampler's order (also for the QR stages), each
#'   candidate's value is rounded to 5 decimals, the running value starts at the rounded value of
#'   the current set, and a candidate is accepted (and becomes the running value) when its value
#'   is at most the running value + 0.001; the last accepted candidate is added. (The authors'
#'   code also stopped each run after 60 seconds and reported the partial set; that is not
#'   reproduced.)
#' * `"random"` (`r`): `r` random k-subsets; the best one is returned (the paper), and the
#'   mean MinMaxLoss of the `r` draws (the number the authors' code reports) is kept as
#'   `random_mean`. Uses R's RNG (`set.seed()` reproduces).
#' * `"exhaustive"` (`search`, `max_nodes`, `max_subsets`, `unfair`): exact minimiser of
#'   MinMaxLoss over all `choose(d, k)` subsets, and (with `unfair = TRUE`) the exact unfair
#'   optimum (smallest error of all rows together, `||X - C C^+ X||_F / ||X - X_k||_F`, stored in
#'   `unfair`). `search = "bnb"` (default) is a branch and bound over the subsets, with the
#'   columns searched in an order that puts the greedy set's columns first, then the others by
#'   decreasing summed leverage score, and the greedy value as the first incumbent (ties: the
#'   first optimal set in that order): a partial set `S` whose every completion from the
#'   remaining columns `P` provably loses is skipped. The bound: adding `r` more columns lowers a
#'   group's squared error by at most the sum of the `r` largest eigenvalues of its residual
#'   projected on the span of the residual columns `P` (Eckart-Young). After `max_nodes` bound
#'   evaluations (default `1e6`) the search stops with a warning of class
#'   `fairproj_convergence_warning`; the result then has `complete = FALSE` and `lower`, a
#'   certified lower bound on the optimum (`lower` equals the objective when complete).
#'   `search = "enumerate"` evaluates every subset (an error beyond `max_subsets`).
#' * `"standard"` (`algorithm`, `theta`): the unfair counterparts on all rows together (the
#'   pooled Gram matrix): `"greedy"`, `"qr"` (low-rank-revealing QR) or `"leverage"` (columns
#'   by decreasing rank-k leverage score until their sum reaches `theta`).
#'
#' **More than two groups** (an extension; the paper treats two): the objective is the
#' largest loss over all groups; greedy and exhaustive minimise it; the QR methods take the
#' pivot vector from the worst group (largest trailing norm, smallest leading singular value);
#' the sampler sorts by the sum of the scores of the groups still below `theta`, dropping a
#' group from the sum once it reaches it (for two groups this is exactly Algorithm 1). The
#' 1.5 bound is proved for two groups only.
#'
#' **Ties and numerics.** The prepared problem is normalised before any solver runs: the
#' groups' Gram matrices are divided by one common scalar, so column choices do not depend on
#' the units of the data (multiplying `x` by any constant gives the same columns) and all
#' thresholds are relative. Errors, ratios and the best rank-k errors are computed without
#' forming the uncentred Gram matrix: each group is represented by a factor `Y_g` with
#' `t(Y_g) %*% Y_g = G_g`, built from its mean and its centred scatter matrix (which
#' [group_moments()] accumulates centred), and errors are sums of squares of Householder QR
#' residuals of `Y_g`, best rank-k errors sums of its trailing squared singular values; so
#' reported ratios stay accurate when the residual is tiny compared with the data (uncentred data
#' with large offsets). The solvers use the residual Gram matrices for their gains and pivots and
#' re-form them from the factor whenever the residual has shrunk by `1e-4`, so they stay accurate
#' relative to the residual too (high QR, whose leading blocks include the selected columns,
#' works on the normalised Gram matrix). Greedy (`rule = "exact"`): values within a relative
#' `1e-10` of the minimum are tied and the lowest column index wins; exhaustive with
#' `search = "enumerate"`: the first optimal subset in lexicographic order (`"bnb"`: in its search
#' order). QR pivots: the first group wins exact ties between groups; the pivot is
#' the first position, in the current permuted order, of the largest `|v|` (entries within a
#' relative `1e-10` of it are tied). Sampler: scores equal to 10 significant digits are taken in
#' increasing column order. Random: the first draw within a relative `1e-10` of the best. A
#' column whose residual norm is below `1e-12` of its norm (for a group) counts as dependent on
#' the selected columns for that group (the precision of the Householder residuals). Columns
#' may differ in magnitude by any factor (`1e-85` next to `1e147`): each factor is computed from
#' the scatter with its diagonal equilibrated by powers of two, so a column keeps its variance
#' however small it is next to the others, and norms and reflections are formed after dividing
#' by a power of two, so none underflows; a column's gain that its entry in the Gram matrix
#' does not resolve is computed from the factor.
#'
#' **Cost** (d columns, m groups, after the one pass that forms the Gram matrices): greedy
#' O(m k d^2) per run (the default `denominators = "best"` runs twice); low QR k
#' top-eigenvector solves (Lanczos) on d x d matrices; high QR one smallest-eigenpair solve on
#' each leading block, O(m d^4) in all; the sampler one top-k eigendecomposition per group;
#' exhaustive with `search = "enumerate"` `choose(d, k)` evaluations of O(m d) each after shared
#' downdates, with `"bnb"` an O(m d^3) bound per internal node on top (it pays off only when it
#' prunes; on one-hot data, whose optimal losses are close to 1, it prunes little and the node
#' budget is reached from about k = 6 with 60 columns). On a 35427 x 1247 matrix with two groups
#' (the size of the paper's MEPS data, where the reference greedy did not finish in 24 hours)
#' greedy with k = 100 takes seconds to a minute here (`bench/css.R` in the sources).
#'
#' @section Centring and scaling:
#' The same conventions as [fair_pca()] and [stats::prcomp()]: `center = TRUE` (default)
#' subtracts the overall column means, `scale. = TRUE` divides by the overall column standard
#' deviations (divisor `n - 1`, about the centre used; the root mean square when
#' `center = FALSE`), and numeric vectors give the values to use. Columns are selected, and
#' every error and ratio is measured, on the centred and scaled data. Constant columns are
#' handled as in [fair_pca()]: kept without scaling (after centring such a column is zero and
#' adds nothing to any group's span), an error of class `fairproj_input_error` naming them with
#' `scale. = TRUE` (they cannot be rescaled). A column counts as constant when its standard
#' deviation is below `1e-12` of its mean's magnitude (or zero), whatever the units.
#'
#' Matakos et al. (2024) do not centre: their problem is column subset selection of the raw
#' (per-group unit-norm) matrix. Use `center = FALSE` to reproduce the paper (the vignette and
#' `inst/reproduce/fair-css.R` do); the paper also scales each group's columns to unit norm,
#' which is done on the data before calling (see the vignette). Centring is the default because
#' on data with offsets (dollars, counts, pixel values) the uncentred problem is dominated by the
#' column means: the first selected column mostly reconstructs the offset, and adding a constant
#' to a column changes which columns are selected. With `center = TRUE` the selection does not
#' change when constants are added to the columns. With either setting it does not change when
#' the data are multiplied by a constant, and the reported ratios stay accurate with large
#' offsets (see Details, Ties and numerics).
#'
#' @param x A numeric matrix or data.frame, or a [group_moments()] object.
#' @param group Group labels, one per row, or a string naming a column of a data.frame `x`
#'   (not used with a `group_moments` object).
#' @param k Target rank: a whole number below the rank of every group, or the number of
#'   columns (then every column is selected and MinMaxLoss is 1: the reconstruction is exact,
#'   as the best rank-d one is).
#' @param method The method (a string); see Details.
#' @param ... Arguments of the method (see Details).
#' @param center,scale. Centring and scaling of the columns, as in [stats::prcomp()] and
#'   [fair_pca()]: `TRUE`, `FALSE` or a numeric vector (see Centring and scaling). Defaults:
#'   `center = TRUE`, `scale. = FALSE`; `center = FALSE` is the paper's setting. When `scale.`
#'   is not given and one column's variance dominates, a `fairproj_units_warning` says so (see
#'   "Columns in different units" in [fair_pca()]).
#' @return An object of class `c("fair_css_<method>", "fair_css")`, a list with
#'   * `columns`: the selected column indices in selection order; `column_names`;
#'   * `k`, `c` (number of columns selected; `c > k` for the sampler), `method`;
#'   * `loss`: MinMaxLoss of the selection;
#'   * `center`, `scale`: the centring and scaling used (`FALSE` when none);
#'   * `group_stats`: data.frame with, per group, `n`, `error` (`||X_g - C_g C_g^+ X_g||_F`),
#'     `best` (`||X_g - (X_g)_k||_F`) and `ratio` (their ratio, `>= 1` for `c <= k`);
#'   * `path`: data.frame of MinMaxLoss and per-group ratios of each prefix of `columns`, each
#'     relative to the group's best rank-`k` error `best`; where `best` is 0 (a group of rank
#'     at most `k`, e.g. `k = d`), a prefix that leaves error has ratio `Inf` and one that
#'     leaves none has ratio 1 (a ratio of 0 / 0 is taken as 1, as in `group_stats`);
#'   * `coef`: per-group and pooled least-squares coefficients (used by [reconstruct()]); a
#'     selected column that is, to 1e-10 of its norm, a combination of earlier ones (or zero
#'     in the group) gets 0;
#'   * method-specific fields: `sampler` (leverage scores, `theta`, sampled columns and `c`),
#'     `random_mean`, `unfair`, `objective`, ...
#' @references Matakos, A., Ordozgoiti, B. and Thejaswi, S. (2024). Fair column subset
#'   selection. *KDD 2024*. \doi{10.1145/3637528.3672005}
#' @seealso [css_loss()], [predict.fair_css()], [plot.fair_css()]; `vignette("fair-css")`
#'   reproduces the paper's experiments.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(200 * 8), 200, 8) %*% matrix(rnorm(64), 8)
#' g <- rep(c("a", "b"), c(120, 80))
#' fit <- fair_css(x, g, k = 3)
#' fit
#' fair_css(x, g, k = 3, method = "lowqr")$loss
#' fair_css(x, g, k = 3, method = "sampler")$c
#' fair_css(x, g, k = 3, method = "two_stage", stage2 = "greedy")$loss
#' fair_css(x, g, k = 3, method = "exhaustive")$loss
#' @export
fair_css <- function(x, ...) UseMethod("fair_css")

#' @rdname fair_css
#' @export
fair_css.default <- function(x, group, k, method = c("greedy", "lowqr", "highqr", "sampler", "two_stage",
                                                     "random", "exhaustive", "standard"),
                             ..., center = TRUE, scale. = FALSE) {
  call <- match.call()
  method <- if (missing(method)) "greedy" else fp_check_method(method, "css")
  if (missing(group)) fp_abort("is missing: give one group label per row", "group")
  xg <- fp_group_column(x, group, expr = substitute(group))
  xm <- fp_as_matrix(xg$x, "x", min_cols = 1L, check_finite = FALSE)  # NA/Inf: in the C++ pass
  g <- fp_as_group(xg$group, nrow(xm), "group", min_levels = 1L)
  m <- fp_moments_ranged(xm, g, fp_colnames(xm))
  fp_fit_css(m, k, method, ..., center = center, scale. = scale., data = list(x = xm, group = g), call = call,
             warn_units = missing(scale.))
}

#' @rdname fair_css
#' @export
fair_css.group_moments <- function(x, group = NULL, k, method = c("greedy", "lowqr", "highqr", "sampler",
                                                                  "two_stage", "random", "exhaustive",
                                                                  "standard"),
                                   ..., center = TRUE, scale. = FALSE) {
  call <- match.call()
  method <- if (missing(method)) "greedy" else fp_check_method(method, "css")
  if (!is.null(group)) fp_abort("must not be given when `x` is a group_moments object (the groups are in it)", "group")
  if (any(x$n < 1)) fp_abort("has a group with no rows", "x")
  fp_fit_css(x, k, method, ..., center = center, scale. = scale., data = NULL, call = call, warn_units = missing(scale.))
}

# The prepared problem of the CSS methods (the one place where their units end).
# For each group g, with z = (x - center) / scale, the Gram matrix G_g = t(Z_g) %*% Z_g is
#   G_g = S_g + n_g m_g t(m_g),
# S_g the scatter about the group mean (accurate: group_moments() accumulates it centred) and
# m_g the group mean of z. Everything is divided by one scalar `norm` = 4^Q (a power of two near
# the largest diagonal entry, the same for all groups, so that comparisons between groups are
# unchanged; found in logarithms, with the columns' exponents of fp_moments_ranged(), so finite
# data of any magnitude neither overflow nor underflow): the solvers never see the user's units,
# and column choices do not depend on a global scale of the data. `norm_sqrt` = 2^Q maps errors
# (Frobenius norms) back to the data's units.
# Each group also gets a factor Y_g with t(Y_g) %*% Y_g = G_g / norm, built without forming G_g:
#   Y_g = rbind(sqrt(n_g) t(m_g), R_g) / sqrt(norm), t(R_g) R_g = S_g (pivoted Cholesky),
# so errors of column sets are computed by Householder QR on Y_g (no cancellation between the
# offset and the residual, which a Gram-based tr G - tr(G_S' G_SS^+ G_S) suffers on uncentred data
# with large offsets), and each group's best rank-k error and leverage scores come from the SVD
# of Y_g (not from eigenvalues of G_g subtracted from its trace).
fp_css_prepare <- function(m, k, center = TRUE, scale. = FALSE) {
  d <- length(m$colnames)
  center <- fp_check_center_scale(center, d, "center")
  scale. <- fp_check_center_scale(scale., d, "scale.")
  if (missing(k)) fp_abort("is missing: give the target rank", "k")
  k <- fp_check_count(k, 1L, d, "k")
  e <- if (is.null(m$exponent)) rep(0, d) else m$exponent  # data column j = stored column j * 2^e[j]
  fp_check_moments_range(m)
  D <- 2^e
  ctr <- if (isTRUE(center)) moments_mean(m, pooled = TRUE) else if (isFALSE(center)) rep(0, d) else center / D
  sc <- fp_column_scale(m, ctr, if (is.numeric(scale.)) scale. / D else scale.)
  # z = (x_s - ctr) / sc * 2^a per stored column x_s, the power of two apart so nothing overflows
  a <- if (isFALSE(scale.)) e else rep(0, d)
  dm <- lapply(seq_along(m$levels), function(i) (m$mean[, i] - ctr) / sc)
  # one scalar for all groups, norm = 4^Q: the largest diagonal entry of any G_g is at most 1
  lg <- vapply(seq_along(m$levels), function(i) {
    v <- 2 * a + log2(pmax(diag(m$scatter[[i]]) / sc^2, 0) + dm[[i]]^2 * m$n[[i]])
    if (any(is.finite(v))) max(v[is.finite(v)]) else -Inf
  }, numeric(1))
  if (!any(is.finite(lg))) fp_abort("has no non-zero column (after centring): nothing to select", "x")
  # a power of two: scaling by it is exact, so the normalised problem has the same digits as the
  # user's (decisions that rounding decides, e.g. pivots among one-hot columns, do not move)
  Q <- ceiling(max(lg) / 2)
  pw <- 2^(a - Q)
  # scatter, Gram matrix, factor and singular values of each group in one compiled call (the
  # same LAPACK routines as chol(pivot = TRUE) and svd(): see src/css_prep.cpp)
  core <- fp_cpp(.fp_css_prep_core(unname(m$scatter), unname(matrix(m$mean, d)), as.numeric(m$n), ctr, sc, pw),
                 "the preparation of the Gram matrices")
  gram <- core$gram
  factor <- core$factor
  names(gram) <- names(factor) <- m$levels
  pooled <- core$pooled
  # singular values only (the leverage scores' vectors are computed where they are used)
  sv2 <- lapply(core$sv, function(s) s^2)
  best2 <- vapply(sv2, function(s) sum(s[-seq_len(k)]), numeric(1))
  tot <- vapply(sv2, sum, numeric(1))
  names(best2) <- m$levels
  names(tot) <- m$levels
  # k = d selects every column: the reconstruction is exact, as the best rank-d one is, and the
  # loss is 1 by convention (fp_css_ratio()); the solvers order the columns with each group's
  # total in place of its zero denominator
  full <- k == d
  low <- best2 <= 1e-24 * tot | best2 <= 0
  if (any(low) && !full) {
    fp_abort(sprintf(paste0("= %d is not below the numerical rank of group(s) %s: the best rank-k error is 0 or below 1e-12 of ",
                            "the group's norm (as when columns differ in magnitude by more than that), so the ratio is ",
                            "undefined; choose a smaller k, k = %d (every column), or scale. = TRUE"),
                     k, paste(shQuote(m$levels[low]), collapse = ", "), d), "k")
  }
  list(d = d, k = k, levels = m$levels, n = m$n, colnames = m$colnames, center = ctr * D,
       centered = !isFALSE(center), scale = sc * D, scaled = !isFALSE(scale.), norm_sqrt = 2^Q,
       gram = gram, factor = factor, pooled = pooled, best2 = if (full) tot else best2,
       full = full, tot2 = tot, sv2 = sv2, moments = m)
}

# Per-group ratios error / best from squared errors (normalised units; a vector, or a matrix
# with one column per group): with k = d the best rank-k error is 0 and a ratio is 1 when the
# error vanishes too (to the precision of the Householder residuals, 1e-12 of the group's norm),
# infinite otherwise.
fp_css_ratio <- function(e2, prep, best2 = prep$best2, tot2 = prep$tot2) {
  rows <- if (is.matrix(e2)) nrow(e2) else 1L
  out <- pmax(e2, 0)
  out[] <- if (!isTRUE(prep$full)) sqrt(out / rep(best2, each = rows)) else ifelse(out <= 1e-24 * rep(tot2, each = rows), 1, Inf)
  out
}

# Column standard deviations for scale. = TRUE (about the centre used, divisor n - 1, as
# prcomp); 1 for FALSE; the given vector otherwise. Constant (zero-variance) columns cannot be
# rescaled: a classed error naming them, as in fair_pca(). A column counts as constant when its
# scale is 0 or below 1e-12 of its mean's magnitude (relative, so that data of any magnitude
# are judged alike; with center = FALSE the scale is the root mean square, as in prcomp).
fp_column_scale <- function(m, ctr, scale.) {
  d <- length(m$colnames)
  if (isFALSE(scale.)) return(rep(1, d))
  if (is.numeric(scale.)) return(scale.)
  ntot <- sum(m$n)
  if (ntot < 2) fp_abort("= TRUE needs at least 2 rows", "scale.")
  mu <- moments_mean(m, pooled = TRUE)
  within <- Reduce(`+`, lapply(seq_along(m$levels), function(i) diag(m$scatter[[i]])))
  between <- Reduce(`+`, lapply(seq_along(m$levels), function(i) (m$mean[, i] - mu)^2 * m$n[[i]]))
  var_mu <- (within + between) / (ntot - 1)
  sc <- sqrt(var_mu + (mu - ctr)^2 * ntot / (ntot - 1))
  zero <- !(sc > 1e-12 * abs(mu))
  if (any(zero)) {
    fp_abort(sprintf("= TRUE cannot rescale constant (zero-variance) column(s): %s",
                     paste(utils::head(m$colnames[zero], 5), collapse = ", ")), "scale.")
  }
  sc
}

# Singular values of a group factor (all of them: the best rank-k error is the sum of the
# squares beyond the k-th, without cancellation) and its top-k right singular vectors.
fp_css_svd <- function(Y, k) {
  d <- ncol(Y)
  if (nrow(Y) < d) Y <- rbind(Y, matrix(0, d - nrow(Y), d))
  if (k == 0L) return(list(d = svd(Y, nu = 0, nv = 0)$d))
  s <- svd(Y, nu = 0, nv = k)
  list(d = s$d, v = s$v[, seq_len(k), drop = FALSE])
}

# Top-k eigenpairs and squared best rank-k error of all rows together (the unfair problem);
# computed only by the methods that need them (from the stacked group factors).
fp_css_pooled <- function(prep) {
  Y <- do.call(rbind, unname(prep$factor))
  s <- fp_css_svd(Y, prep$k)
  b2 <- sum(s$d[-seq_len(prep$k)]^2)
  if (isTRUE(prep$full)) b2 <- sum(s$d^2)  # k = d: the total orders the columns (see fp_css_prepare())
  if (b2 <= 1e-24 * sum(s$d^2) || b2 <= 0) {
    fp_abort(sprintf("= %d is not below the rank of the whole matrix", prep$k), "k")
  }
  list(eig = list(values = s$d[seq_len(prep$k)]^2, vectors = s$v), best2 = b2, tot2 = sum(s$d^2), factor = Y)
}

fp_fit_css <- function(m, k, method, ..., center, scale., data, call, warn_units = FALSE) {
  fp_check_solver_args("css", method, ...names(), ...length())
  prep <- fp_css_prepare(m, k, center, scale.)
  if (warn_units) fp_warn_units(fp_log2_colvar(m), m$colnames)  # scale. not chosen by the user
  fit <- fp_call_solver("css", method, prep, prep$k, list(...), data)
  obj <- new_fair_css(fit, prep, prep$k, method, call)
  obj$args <- list(...)
  obj
}

# Per-prefix squared errors (c x m) of a column sequence (1-based) from the group factors
# (Householder QR; in the normalised units of the prepared problem).
fp_css_prefix <- function(factors, columns, target = integer(0)) {
  fp_cpp(.fp_css_prefix_err2(unname(factors), as.integer(columns) - 1L, as.integer(target) - 1L))
}

# Least-squares coefficients W (c x d) with Z ~ Z[, S] W (Z the centred, scaled data), from a
# group factor Y (t(Y) Y = t(Z) Z): Householder QR of Y[, S] in selection order, in one compiled
# call (src/css.cpp); a column whose residual is at most 1e-10 of its norm (dependent on
# earlier ones, or zero for the group: a category absent from it) gets 0.
fp_css_coef <- function(Y, S) {
  fp_cpp(.fp_css_coef(Y, as.integer(S)), "the coefficients of the selected columns")
}

# The result constructor shared by all CSS methods. `fit$columns` are 1-based indices in
# selection order; everything else in `fit` is kept.
new_fair_css <- function(fit, prep, k, method, call) {
  cols <- as.integer(fit$columns)
  if (!length(cols) || anyNA(cols) || any(cols < 1L | cols > prep$d) || anyDuplicated(cols)) {
    stop("internal error: solver returned no valid column set")
  }
  e2 <- fp_css_prefix(prep$factor, cols)
  ratio <- matrix(fp_css_ratio(e2, prep), nrow(e2), ncol(e2))
  colnames(ratio) <- prep$levels
  last <- nrow(e2)
  gs <- fp_css_group_stats(prep, e2[last, ])
  path <- fp_df(c(list(columns = seq_len(last), loss = ratio[cbind(seq_len(last), max.col(ratio, "first"))]),
                  stats::setNames(lapply(seq_len(ncol(ratio)), function(j) ratio[, j]), prep$levels)))
  coef <- lapply(prep$factor, fp_css_coef, S = cols)
  coef$.pooled <- fp_css_coef(do.call(rbind, unname(prep$factor)), cols)
  extra <- fit[setdiff(names(fit), "columns")]
  obj <- c(list(columns = cols, column_names = prep$colnames[cols], k = k, c = length(cols),
                method = method, loss = max(gs$ratio), group_stats = gs, path = path,
                groups = fp_df(list(group = prep$levels, n = as.numeric(prep$n))),
                colnames = prep$colnames,
                center = if (prep$centered) stats::setNames(prep$center, prep$colnames) else FALSE,
                scale = if (prep$scaled) stats::setNames(prep$scale, prep$colnames) else FALSE,
                coef = coef, call = call), extra)
  class(obj) <- c(paste0("fair_css_", method), "fair_css")
  obj
}

#' MinMaxLoss of a column set
#'
#' Evaluates, for any set of columns, each group's loss
#' `||X_g - C_g C_g^+ X_g||_F / ||X_g - (X_g)_k||_F` (its own projection, its own best rank-k
#' error; see [fair_css()]) and their maximum.
#'
#' @param x A numeric matrix or data.frame, or a [group_moments()] object.
#' @param group Group labels, one per row (not used with a `group_moments` object).
#' @param columns Column indices or names.
#' @param k Target rank of the denominators (below the rank of every group).
#' @param center,scale. As in [fair_css()].
#' @return The MinMaxLoss (a number) with attribute `group_stats` (a data.frame with `group`,
#'   `n`, `error`, `best` and `ratio`).
#' @seealso [fair_css()], [summary.fair_css()].
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(100 * 6), 100, 6)
#' g <- rep(1:2, 50)
#' css_loss(x, g, columns = c(1, 4), k = 2)
#' @export
css_loss <- function(x, group = NULL, columns, k, center = TRUE, scale. = FALSE) {
  if (inherits(x, "group_moments")) {
    if (!is.null(group)) fp_abort("must not be given when `x` is a group_moments object", "group")
    m <- x
  } else {
    xm <- fp_as_matrix(x, "x", min_cols = 1L, check_finite = FALSE)  # NA/Inf: in the C++ pass
    g <- fp_as_group(group, nrow(xm), "group", min_levels = 1L)
    m <- fp_moments_ranged(xm, g, fp_colnames(xm))
  }
  prep <- fp_css_prepare(m, k, center, scale.)
  cols <- fp_css_columns(columns, prep$colnames, "columns")
  e2 <- fp_css_prefix(prep$factor, cols)
  gs <- fp_css_group_stats(prep, e2[nrow(e2), ])
  structure(max(gs$ratio), group_stats = gs)
}

# The group_stats table of a column set from its squared errors (normalised units): errors and
# best rank-k errors in the units of the (centred, scaled) data, ratios unit-free.
fp_css_group_stats <- function(prep, e2) {
  unit <- prep$norm_sqrt
  best <- if (isTRUE(prep$full)) rep(0, length(prep$levels)) else sqrt(prep$best2) * unit
  fp_df(list(group = prep$levels, n = as.numeric(prep$n), error = unname(sqrt(pmax(e2, 0)) * unit),
             best = unname(best), ratio = unname(fp_css_ratio(e2, prep))))
}

fp_css_columns <- function(columns, colnames, arg) {
  if (is.character(columns)) {
    bad <- setdiff(columns, colnames)
    if (length(bad)) fp_abort(sprintf("names unknown column(s): %s", paste(utils::head(bad, 5), collapse = ", ")), arg)
    cols <- match(columns, colnames)
  } else {
    if (!is.numeric(columns) || !length(columns) || anyNA(columns) || any(columns != round(columns)) ||
        any(columns < 1 | columns > length(colnames))) {
      fp_abort(sprintf("must be column names or whole numbers between 1 and %d", length(colnames)), arg)
    }
    cols <- as.integer(columns)
  }
  if (anyDuplicated(cols)) fp_abort("has duplicated columns", arg)
  cols
}

# ---- leverage scores and the sampler ---------------------------------------------------------

# Rank-k leverage scores of each group: squared row norms of the top-k right singular vectors
# (top-k eigenvectors of G_g). A d x m matrix. Where the k-th eigenvalue is separated from the
# next by 1e-5 of the largest, the vectors come from one symmetric eigendecomposition of G_g
# (a third of the SVD's time; both agree to 2e-13 on the papers' data, as the subspace is well
# determined); otherwise from the SVD of the factor, whose digits the gap does not limit.
fp_css_leverage <- function(prep) {
  k <- prep$k
  out <- vapply(seq_along(prep$factor), function(i) {
    s2 <- prep$sv2[[i]]
    if (k < length(s2) && !fp_lanczos_path(prep$d, k) && s2[k] - s2[k + 1] > 1e-5 * s2[1]) {
      return(rowSums(fp_eig_top(prep$gram[[i]], k)$vectors^2))
    }
    rowSums(fp_css_svd(prep$factor[[i]], k)$v^2)
  }, numeric(prep$d))
  out <- matrix(out, prep$d, length(prep$levels), dimnames = list(prep$colnames, prep$levels))
  out
}

# FairScoresSampler (Algorithm 1; multi-group extension: order by the sum of the scores of the
# groups still below theta). scores: d x m; returns the selected indices in order.
fp_css_sampler <- function(scores, theta, max_columns = nrow(scores)) {
  d <- nrow(scores)
  m <- ncol(scores)
  sums <- numeric(m)
  sel <- integer(0)
  left <- seq_len(d)
  active <- sums < theta
  while (any(active) && length(sel) < max_columns && length(left)) {
    key <- rowSums(scores[left, active, drop = FALSE])
    # scores equal to 10 significant digits are tied (e.g. duplicated columns): column order
    ord <- left[order(-signif(key, 10), left)]
    # the columns in that order until one brings an active group's sum to theta (compiled)
    r <- .fp_css_sampler_pass(scores, ord - 1L, sums, active, theta, max_columns - length(sel))
    sel <- c(sel, r$taken + 1L)
    sums <- r$sums
    left <- left[!left %in% sel]
    active <- sums < theta
  }
  sel
}

# ---- solvers --------------------------------------------------------------------------------

fit_css_greedy <- function(prep, k, denominators = c("best", "k", "step"), rule = c("exact", "authors"),
                           n_columns = k, data = NULL) {
  rule <- fp_match_arg(rule, c("exact", "authors"), "rule")
  den_given <- !missing(denominators)
  denominators <- fp_match_arg(denominators, c("best", "k", "step"), "denominators")
  n_columns <- fp_check_count(n_columns, 1L, prep$d, "n_columns")
  cand <- seq_len(prep$d) - 1L
  run <- function(den, scan = FALSE) {
    b2 <- fp_css_best2_matrix(prep, k, n_columns, den)
    res <- fp_cpp(.fp_css_greedy(unname(prep$gram), unname(prep$factor), b2, cand, integer(0), n_columns,
                                 scan, -1L, 0))
    cols <- res$columns + 1L
    list(columns = cols, objective = res$objective, loss = fp_css_set_loss(prep, cols))
  }
  if (rule == "authors") {
    if (den_given && denominators != "step") {
      fp_abort("must be \"step\" (or left out) with rule = \"authors\": the authors' greedy divides by the rank-i residuals at step i", "denominators")
    }
    r <- run("step", scan = TRUE)
    return(list(columns = r$columns, objective = r$objective, denominators = "step", rule = rule))
  }
  if (denominators != "best") {
    r <- run(denominators)
    return(list(columns = r$columns, objective = r$objective, denominators = denominators, rule = rule))
  }
  # both denominators; keep the set with the smaller MinMaxLoss (rank-k denominators), "k" on ties
  rk <- run("k")
  rs <- run("step")
  use_step <- rs$loss < rk$loss * (1 - 1e-12)
  r <- if (use_step) rs else rk
  list(columns = r$columns, objective = r$objective, denominators = if (use_step) "step" else "k", rule = rule,
       candidates = data.frame(denominators = c("k", "step"), loss = c(rk$loss, rs$loss)))
}

# Loss of a column set on all rows together (the unfair problem's ratio).
fp_css_pooled_loss <- function(prep, pp, cols) {
  e2 <- fp_css_prefix(list(pp$factor), cols)
  fp_css_ratio(e2[nrow(e2), 1], prep, pp$best2, pp$tot2)
}

# MinMaxLoss of a column set from group factors and squared denominators.
fp_css_loss_of <- function(factors, best2, cols) {
  e2 <- fp_css_prefix(factors, cols)
  max(sqrt(pmax(e2[nrow(e2), ], 0) / best2))
}

# MinMaxLoss of a column set (rank-k denominators of the prepared problem).
fp_css_set_loss <- function(prep, cols) {
  e2 <- fp_css_prefix(prep$factor, cols)
  max(sqrt(pmax(e2[nrow(e2), ], 0)) / sqrt(prep$best2))
}

# steps x m matrix of squared denominators per greedy step: rank-k, or rank-(step - 1) as in
# the authors' code.
fp_css_best2_matrix <- function(prep, k, steps, denominators = "k") {
  m <- length(prep$gram)
  if (denominators == "k") return(matrix(prep$best2, steps, m, byrow = TRUE))
  out <- vapply(seq_len(m), function(i) {
    s2 <- prep$sv2[[i]]
    tail <- rev(cumsum(rev(s2)))   # tail[t] = squared rank-(t - 1) error, without cancellation
    pmax(tail[seq_len(steps)], .Machine$double.xmin, na.rm = TRUE)
  }, numeric(steps))
  matrix(out, steps, m)  # vapply drops to a vector when steps = 1
}

fit_css_lowqr <- function(prep, k, n_columns = k, data = NULL) {
  n_columns <- fp_check_count(n_columns, 1L, prep$d, "n_columns")
  res <- fp_cpp(.fp_css_lowqr(unname(prep$gram), unname(prep$factor), seq_len(prep$d) - 1L, n_columns))
  list(columns = res$columns + 1L, pivot_group = prep$levels[res$group], sigma = res$sigma)
}

fit_css_highqr <- function(prep, k, n_columns = k, data = NULL) {
  n_columns <- fp_check_count(n_columns, 1L, prep$d, "n_columns")
  res <- fp_cpp(.fp_css_highqr(unname(prep$gram), seq_len(prep$d) - 1L, 1L))
  list(columns = res$order[seq_len(n_columns)] + 1L, order = res$order + 1L)
}

fp_check_theta <- function(theta, k) {
  fp_check_number(theta, "theta", 0, k, open_lower = TRUE)
}

fit_css_sampler <- function(prep, k, theta = k - 0.5, max_columns = NULL, data = NULL) {
  theta <- fp_check_theta(theta, k)
  if (is.null(max_columns)) max_columns <- prep$d
  max_columns <- fp_check_count(max_columns, 1L, prep$d, "max_columns")
  sc <- fp_css_leverage(prep)
  sel <- fp_css_sampler(sc, theta, max_columns)
  list(columns = sel, sampler = list(scores = sc, theta = theta, columns = sel, c = length(sel),
                                     sums = colSums(sc[sel, , drop = FALSE])))
}

fit_css_two_stage <- function(prep, k, stage2 = c("lowqr", "highqr", "greedy"), theta = k - 0.5,
                              objective = c("sampled", "full"), rule = c("exact", "authors"), data = NULL) {
  stage2 <- fp_match_arg(stage2, c("lowqr", "highqr", "greedy"), "stage2")
  obj_given <- !missing(objective)
  objective <- fp_match_arg(objective, c("sampled", "full"), "objective")
  rule <- fp_match_arg(rule, c("exact", "authors"), "rule")
  if (rule == "authors" && obj_given && objective != "sampled") {
    fp_abort("must be \"sampled\" (or left out) with rule = \"authors\"", "objective")
  }
  theta <- fp_check_theta(theta, k)
  sc <- fp_css_leverage(prep)
  s1 <- fp_css_sampler(sc, theta)
  if (length(s1) < k) {
    fp_abort(sprintf("= %s made the sampler return %d < k = %d columns; raise theta", format(theta), length(s1), k), "theta")
  }
  # the authors' code runs stage 2 on the sampled columns in the sampler's order (this decides
  # ties); "exact" uses increasing column order
  cand <- if (rule == "authors") s1 else sort(s1)
  cols <- switch(stage2,
    lowqr = fp_cpp(.fp_css_lowqr(unname(prep$gram), unname(prep$factor), cand - 1L, k))$columns + 1L,
    highqr = fp_cpp(.fp_css_highqr(unname(prep$gram), cand - 1L, 1L))$order[seq_len(k)] + 1L,
    greedy = {
      b2 <- matrix(prep$best2, k, length(prep$gram), byrow = TRUE)
      tg <- if (objective == "sampled") sort(cand) - 1L else integer(0)
      if (rule == "authors") {
        fp_cpp(.fp_css_greedy(unname(prep$gram), unname(prep$factor), b2, cand - 1L, tg, k, TRUE, 5L, 1e-3))$columns + 1L
      } else {
        fp_cpp(.fp_css_greedy(unname(prep$gram), unname(prep$factor), b2, cand - 1L, tg, k, FALSE, -1L, 0))$columns + 1L
      }
    })
  list(columns = cols, stage2 = stage2, objective_scope = objective, rule = rule,
       sampler = list(scores = sc, theta = theta, columns = s1, c = length(s1),
                      sums = colSums(sc[s1, , drop = FALSE])))
}

fit_css_random <- function(prep, k, r = 50L, n_columns = k, data = NULL) {
  r <- fp_check_count(r, 1L, 1e7, "r")
  n_columns <- fp_check_count(n_columns, 1L, prep$d, "n_columns")
  best <- Inf
  bestset <- NULL
  losses <- numeric(r)
  b <- sqrt(prep$best2)
  for (i in seq_len(r)) {
    s <- sample.int(prep$d, n_columns)
    e2 <- fp_css_prefix(prep$factor, s)
    l <- max(sqrt(pmax(e2[n_columns, ], 0)) / b)
    if (!is.finite(l)) fp_internal_error("random column subsets", "a subset's loss is not finite")
    losses[i] <- l
    if (l < best * (1 - 1e-10)) {
      best <- l
      bestset <- s
    }
  }
  list(columns = bestset, random_losses = losses, random_mean = mean(losses))
}

fit_css_exhaustive <- function(prep, k, search = c("bnb", "enumerate"), max_subsets = 1e7, max_nodes = 1e6,
                               unfair = TRUE, data = NULL) {
  search <- fp_match_arg(search, c("bnb", "enumerate"), "search")
  unfair <- fp_check_flag(unfair, "unfair")
  max_subsets <- fp_check_number(max_subsets, "max_subsets", 1)
  max_nodes <- fp_check_number(max_nodes, "max_nodes", 1)
  nsub <- choose(prep$d, k)
  if (search == "enumerate" && nsub > max_subsets) {
    fp_abort(sprintf("is %s but there are choose(%d, %d) = %s subsets; raise it or use search = \"bnb\"",
                     format(max_subsets), prep$d, k, format(nsub, big.mark = ",")), "max_subsets")
  }
  pp <- fp_css_pooled(prep)
  if (isTRUE(prep$full)) {
    # k = d: one subset, every column (loss 1, see fp_css_prepare())
    all <- seq_len(prep$d)
    out <- list(columns = all, objective = 1, subsets = 1, search = search, nodes = 0, lower = 1, complete = TRUE,
                loss_pooled = fp_css_pooled_loss(prep, pp, all))
    if (unfair) {
      out$unfair <- list(columns = all, column_names = prep$colnames, loss_pooled = out$loss_pooled, lower = 1,
                         complete = TRUE, group_stats = fp_css_group_stats(prep, fp_css_prefix(prep$factor, all)[prep$d, ]))
    }
    return(out)
  }
  # The branch and bound searches the columns in an order that puts the promising ones first
  # (the incumbent's columns, then by decreasing leverage score summed over the groups): the
  # subtrees of the later columns then draw on weak columns only, whose bound prunes them.
  solve <- function(grams, factors, best2, inc, lev) {
    if (search == "enumerate") {
      r <- fp_cpp(.fp_css_exhaustive(grams, factors, best2, k))
      r$complete <- TRUE
      r$lower <- r$objective
      return(r)
    }
    ord <- c(inc, setdiff(order(-lev, seq_along(lev)), inc))
    gp <- lapply(grams, function(G) G[ord, ord, drop = FALSE])
    fpm <- lapply(factors, function(Y) Y[, ord, drop = FALSE])
    r <- fp_cpp(.fp_css_exhaustive(gp, fpm, best2, k, TRUE, fp_css_loss_of(fpm, best2, seq_len(k)), max_nodes))
    r$columns <- ord[r$columns + 1L] - 1L
    r
  }
  # incumbents of the branch and bound: the better greedy of the two denominators
  inc_fair <- if (search == "bnb") fit_css_greedy(prep, k)$columns else NULL
  fair <- solve(unname(prep$gram), unname(prep$factor), unname(prep$best2), inc_fair,
                if (search == "bnb") rowSums(fp_css_leverage(prep)))
  if (!unfair) {
    if (!isTRUE(fair$complete)) {
      fp_warn_convergence(sprintf(paste(
        "the branch and bound stopped after max_nodes = %s bound evaluations: the returned set is the best",
        "found, and the optimum is at least `lower` (%.6g); raise max_nodes for a certified optimum"),
        format(max_nodes), fair$lower))
    }
    return(list(columns = fair$columns + 1L, objective = fair$objective, subsets = fair$subsets, search = search,
                nodes = if (is.null(fair$nodes)) NA_real_ else fair$nodes, lower = fair$lower,
                complete = fair$complete, loss_pooled = fp_css_pooled_loss(prep, pp, fair$columns + 1L)))
  }
  inc_unf <- if (search == "bnb") {
    fp_cpp(.fp_css_greedy(list(prep$pooled), list(pp$factor), matrix(pp$best2, k, 1), seq_len(prep$d) - 1L,
                          integer(0), k))$columns + 1L
  }
  unf <- solve(list(prep$pooled), list(pp$factor), pp$best2, inc_unf, rowSums(pp$eig$vectors^2))
  if (!isTRUE(fair$complete) || !isTRUE(unf$complete)) {
    fp_warn_convergence(sprintf(paste(
      "the branch and bound stopped after max_nodes = %s bound evaluations: the returned set is the best",
      "found, and the optimum is at least `lower` (fair %.6g, unfair %.6g); raise max_nodes for a certified optimum"),
      format(max_nodes), fair$lower, unf$lower))
  }
  ucols <- unf$columns + 1L
  e2 <- fp_css_prefix(prep$factor, ucols)
  unfair <- list(columns = ucols, column_names = prep$colnames[ucols],
                 loss_pooled = fp_css_pooled_loss(prep, pp, ucols),
                 lower = unf$lower, complete = unf$complete,
                 group_stats = fp_css_group_stats(prep, e2[k, ]))
  list(columns = fair$columns + 1L, objective = fair$objective, subsets = fair$subsets, search = search,
       nodes = if (is.null(fair$nodes)) NA_real_ else fair$nodes, lower = fair$lower, complete = fair$complete,
       loss_pooled = fp_css_pooled_loss(prep, pp, fair$columns + 1L), unfair = unfair)
}

fit_css_standard <- function(prep, k, algorithm = c("greedy", "qr", "leverage"), theta = k - 0.5, data = NULL) {
  algorithm <- fp_match_arg(algorithm, c("greedy", "qr", "leverage"), "algorithm")
  G <- list(prep$pooled)
  pp <- fp_css_pooled(prep)
  Y <- list(pp$factor)
  cols <- switch(algorithm,
    greedy = fp_cpp(.fp_css_greedy(G, Y, matrix(pp$best2, k, 1), seq_len(prep$d) - 1L, integer(0), k))$columns + 1L,
    qr = fp_cpp(.fp_css_lowqr(G, Y, seq_len(prep$d) - 1L, k))$columns + 1L,
    leverage = {
      theta <- fp_check_theta(theta, k)
      sc <- matrix(rowSums(pp$eig$vectors^2), ncol = 1L)
      fp_css_sampler(sc, theta)
    })
  list(columns = cols, algorithm = algorithm, loss_pooled = fp_css_pooled_loss(prep, pp, cols))
}

# A data.frame of equal-length unnamed vectors (names from `cols`), as data.frame() makes it
# with check.names = FALSE and stringsAsFactors = FALSE, without its checks and deparsing (a
# measurable part of a small fit).
fp_df <- function(cols) {
  n <- if (length(cols)) length(cols[[1L]]) else 0L
  structure(cols, class = "data.frame", row.names = if (n) c(NA_integer_, -n) else integer(0))
}
