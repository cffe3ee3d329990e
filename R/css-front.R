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
#' * `"highqr"`: fair high-rank-revealing QR (Appendix A): from the last position backwards,
#'   the group whose leading block has the smaller smallest singular value gives its smallest
#'   right singular vector `v`, and the column at `max |v|` is moved to the back; the first `k`
#'   positions are the selection. Computed as the bottom eigenvector of `G_g[P, P]`; costs
#'   O(m d^4) in all, about `1.5e-10 m d^4` seconds (7 s at d = 400 with two groups): slow
#'   beyond a few hundred columns (as in the paper), and refused up front (an error of class
#'   `fairproj_cost_error`) beyond the time limit (`options(fairproj.time_limit = )`, default 60
#'   s); in interactive sessions a progress bar counts the positions. Where a leading block
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
#'   evaluations (default `1e6`), or at the time limit (`options(fairproj.time_limit = )`, in
#'   seconds, default 60, shared by the fair and the unfair search), the search stops with a
#'   warning of class `fairproj_convergence_warning`; the result then has `complete = FALSE` and `lower`, a
#'   certified lower bound on the optimum (`lower` equals the objective when complete).
#'   `search = "enumerate"` evaluates every subset (an error beyond `max_subsets`).
#' * `"standard"` (`algorithm`, `theta`): the unfair counterparts on all rows together (the
#'   pooled Gram matrix): `"greedy"`, `"qr"` (low-rank-revealing QR) or `"leverage"` (columns
#'   by decreasing rank-k leverage score until their sum reaches `theta`).
#'
#' An option of one choice of another argument (`theta` of `algorithm = "leverage"`,
#' `objective` of `stage2 = "greedy"`, `max_nodes` of `search = "bnb"`, `max_subsets` of
#' `search = "enumerate"`) given with another choice is an error of class
#' `fairproj_input_error` naming it, not ignored.
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
#' budget is reached from about k = 6 with 60 columns). Exhaustive search is refused up front,
#' with an error of class `fairproj_cost_error` that names a faster method, when its estimated
#' time exceeds the time limit (`options(fairproj.time_limit = )`, default 60 s): with
#' `search = "enumerate"` about `choose(d, k) m (4e-8 d k + 1e-6)` seconds, with `"bnb"` (which
#' stops at the limit by itself) its first level alone, about `1.5e-8 m d^4` seconds (from about
#' d = 190 with two groups and the unfair search, m = 3); in interactive sessions a progress bar
#' counts the subsets or bound evaluations. On a 35427 x 1247 matrix with two groups
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
fair_css <- function(x, ...) {
  if (!nargs()) fp_check_given("x")
  if (missing(x) && "formula" %in% ...names()) {  # see fp_formula_first()
    call <- fp_formula_first(sys.call(), ...elt(match("formula", ...names())))
    if (!is.null(call)) return(eval(call, parent.frame()))
  }
  UseMethod("fair_css")
}

#' @rdname fair_css
#' @export
fair_css.default <- function(x, group, k, method = "greedy", ..., center = TRUE, scale. = FALSE) {
  call <- fp_generic_call(match.call(), "fair_css")
  method <- fp_check_method(method, "css")
  # NA/Inf: in the C++ pass of the moments
  d <- fp_door_rows(x, group, substitute(group), min_levels = 1L, moments = TRUE, min_cols = 1L, check_finite = FALSE)
  obj <- fp_fit_css(d$m, k, method, ..., center = center, scale. = scale., data = list(x = d$xm, group = d$g),
                    call = call, warn_units = missing(scale.))
  # whether `x` had column names, so that new data are matched by name even when they are V1,
  # V2, ... (an attribute, not a field: the fields of a column selection are its results)
  attr(obj, "colnames_given") <- !is.null(colnames(d$x))
  obj
}

#' @rdname fair_css
#' @param formula For the formula interface: a one-sided formula naming the feature columns of
#'   `data` (`~ .` for all but the group); factors and transformations are expanded by
#'   [stats::model.matrix()] without intercept, and `predict()` rebuilds them from raw data
#'   (see [fair_pca()]).
#' @param data A data.frame holding the variables of `formula` (and `group`).
#' @param subset,na.action As in [stats::model.frame()].
#' @export
fair_css.formula <- function(formula, data = NULL, group, k, method, ..., subset, na.action) {
  fd <- fp_formula_door(formula, data, substitute(group), missing(group), if (!missing(subset)) substitute(subset),
                        if (!missing(na.action)) na.action, parent.frame())
  res <- if (missing(method)) fair_css.default(fd$x, fd$group, k, ...) else
    fair_css.default(fd$x, fd$group, k, method = method, ...)
  fp_formula_attach(res, fd, fp_generic_call(match.call(), "fair_css"))
}

#' @rdname fair_css
#' @export
fair_css.group_moments <- function(x, group = NULL, k, method = "greedy", ..., center = TRUE, scale. = FALSE) {
  call <- fp_generic_call(match.call(), "fair_css")
  method <- fp_check_method(method, "css")
  fp_door_moments(x, group)
  fp_fit_css(x, k, method, ..., center = center, scale. = scale., data = NULL, call = call, warn_units = missing(scale.))
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

# The result constructor shared by all CSS methods. `fit$columns` are 1-based indices in
# selection order; everything else in `fit` is kept.
new_fair_css <- function(fit, prep, k, method, call) {
  cols <- as.integer(fit$columns)
  if (!length(cols) || anyNA(cols) || any(cols < 1L | cols > prep$d) || anyDuplicated(cols)) {
    stop("internal error: solver returned no valid column set")
  }
  e2 <- fp_css_prefix(prep$factor, cols)
  ratio <- matrix(fp_css_ratio(e2, prep$best2, prep$tot2, prep$full), nrow(e2), ncol(e2))
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
  fp_check_given(c("x", "columns", "k"))
  m <- if (inherits(x, "group_moments")) fp_door_moments(x, group) else {
    # NA/Inf: in the C++ pass of the moments
    fp_door_rows(x, group, substitute(group), min_levels = 1L, moments = TRUE, min_cols = 1L, check_finite = FALSE)$m
  }
  prep <- fp_css_prepare(m, k, center, scale.)
  cols <- fp_css_columns(columns, prep$colnames, "columns")
  e2 <- fp_css_prefix(prep$factor, cols)
  gs <- fp_css_group_stats(prep, e2[nrow(e2), ])
  structure(max(gs$ratio), group_stats = gs)
}

fp_css_columns <- function(columns, colnames, arg) {
  if ((is.character(columns) || is.numeric(columns)) && !length(columns)) fp_abort("must name at least one column", arg)
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
