#' Fair principal component analysis
#'
#' The front door of all PCA methods of the package. Data are reduced to per-group moments in
#' one pass ([group_moments()]); the chosen solver then works on d x d matrices.
#'
#' Methods (each documented on its own page). The default is `"minmax"`, the fair PCA of
#' Samadi et al. (2018); `method = "standard"` gives ordinary PCA.
#' * `"standard"`: ordinary PCA through the same pipeline (matches [stats::prcomp()]).
#' * `"minmax"`: min-max marginal-loss fair PCA (Samadi et al. 2018; multi-group extension),
#'   exact certified solver or multiplicative weights, see [minmax].
#' * `"mean"`: closed-form mean-matching fair PCA (Kleindessner et al. 2023) and its
#'   covariance, trade-off, equal-opportunity and multi-attribute variants, see
#'   [fair_pca_mean]; the kernel version is [fair_kpca()].
#' * `"pareto"`: Pareto fair PCA by multiple-gradient descent (Kamani et al. 2022), see
#'   [fit_pca_pareto] and [pareto_front()].
#' * `"robust"`: distributionally robust fair PCA by Riemannian descent (Vu et al. 2022), see
#'   [fit_pca_robust] and [tune_fair_pca()] for its cross-validation.
#' * Baselines of the papers: `"cfpca"`, convex fair PCA (Olfat and Aswani 2019), see [cfpca];
#'   `"mbfpca"`, MMD-penalised fair PCA (Lee et al. 2022), see [mbfpca]; `"inlp"`, iterative
#'   nullspace projection (Ravfogel et al. 2020), see [inlp]; `"rlace"`, relaxed linear
#'   adversarial concept erasure (Ravfogel et al. 2022), see [rlace]. The last three need the rows.
#'
#' [fairproj_methods()] lists the methods available in this version; column subset selection
#' is [fair_css()].
#'
#' Centring and scaling follow [stats::prcomp()]: `center = TRUE` subtracts the overall column
#' means, `scale. = TRUE` divides by the overall column standard deviations (divisor `n - 1`);
#' numeric vectors give the values to use. The same defaults (`center = TRUE, scale. = FALSE`)
#' and the same rule for constant columns hold in [fair_css()] and [tune_fair_pca()]: a
#' constant column is kept when not scaling (it carries no variance) and is a classed error
#' naming it with `scale. = TRUE` (a column is constant when its standard deviation is at most
#' 1e-12 times its mean's magnitude, so tiny but varying data are not). Papers that standardise
#' (Vu et al., Kamani et al.) are reproduced with `scale. = TRUE`; Matakos et al.'s column
#' selection with `center = FALSE`. Per-group diagnostics (`group_stats`) measure each
#' group's reconstruction error on the group centred at its own mean, as in Samadi et al.
#' (2018); see [group_errors()] for other data and other centrings.
#'
#' **Columns in different units.** Unscaled components follow the columns with the largest
#' variance. When `scale.` is not given and, among the columns that vary, one column's
#' variance is more than 1e4 times the median column variance (standard deviations 100 times
#' apart) or more than 99% of the sum of the column variances, the call warns once, with class
#' `fairproj_units_warning`, naming the column. The variances come from the moments (no extra
#' pass). Giving `scale.` (`TRUE` for columns in different units, `FALSE` to keep the units)
#' is a choice, and silences it. [fair_css()], [fair_kpca()], [tune_fair_pca()] and
#' [pareto_front()] warn the same way; [fair_audit()] scales by default.
#'
#' **Units and numerical conditioning.** Every solver works on the prepared problem divided by
#' its average column variance (the trace of the covariance over d): centred moments remove
#' offsets, and this one scalar removes the units, so solvers use relative tolerances only and
#' every method gives the same subspace whatever the units of the data (multiplying the data by
#' a constant, or adding a constant to a column when centring). Values reported in the result
#' (losses, objectives, bounds, radii, steps) are mapped back to the data's units. Method
#' arguments that carry units are documented on each method's page: they are in the data's
#' units unless said otherwise (the robust method's `alpha` is relative to the average column
#' variance, which is 1 after `scale. = TRUE`). Any finite data can be fitted, from 1e-300 to
#' 1e300 and with columns spread over that range: columns whose magnitude is beyond about
#' 1e+-120 are multiplied by exact powers of two before the one pass squares them, and the
#' normalisation is found in logarithms, so nothing overflows or underflows. Variances of data
#' beyond about 1e+-150 are themselves beyond double precision, so without scaling they cannot
#' be reported in the data's units: that is a classed error suggesting `scale. = TRUE` (whose
#' values are unit-free) or a rescaling. Data with no variation at all give a classed error.
#'
#' A group with fewer than 2 rows is fitted but warned about (class
#' `fairproj_small_group_warning`): its covariance is zero, so its errors say nothing.
#'
#' **Honest results.** Iterative solvers that stop before their convergence test holds, or
#' that return a fallback (the standard-PCA start for the robust method, standard PCA for
#' min-max), warn with the one class `fairproj_convergence_warning`; `converged` and duality
#' gaps are computed on the returned object. A numerical failure inside a solver is an error
#' of class `fairproj_numerical_error`.
#'
#' @param x A numeric matrix or data.frame (rows are observations), a formula with no response
#'   (`~ .` or `~ a + b`) together with `data`, or a [group_moments()] object.
#' @param group Group labels, one per row (factor, character, integer or logical vector with at
#'   least two levels), or several attributes (a data.frame or list of such vectors) whose
#'   non-empty cells are the groups, see [intersect_groups()]. With a data.frame `x`, a string
#'   naming one of its columns (which is then not a feature). In the formula interface, an
#'   unquoted column name of `data`, a string naming it, or a vector. Not used when `x` is a
#'   `group_moments` object. A missing (`NA`) or empty (`""`) label is an error, as in files
#'   (rows of a factor's `NA` level, from [addNA()], count as missing; the formula interface
#'   drops such rows through `na.action`). Distinct numbers are distinct groups, labelled with
#'   15 significant digits, or 16 or 17 where 15 do not give the value back.
#' @param k Target dimension: a whole number between 1 and the number of columns.
#' @param method The method (a string; default `"minmax"`); see Details and [fairproj_methods()].
#' @param ... Arguments of the chosen method.
#' @param center,scale. As in [stats::prcomp()]: `TRUE`, `FALSE` or a numeric vector. (`scale =`
#'   without the dot is an error that points to `scale.`.)
#' @param rank. prcomp's name for `k`: give one of them. (prcomp's `tol`, which omits small
#'   components, is an error: a fit keeps exactly `k` components. Solvers name their own
#'   tolerances, e.g. `gap_tol` of `"minmax"`; see each method's page.)
#' @param retx Logical; keep the scores of the training rows in `$x` (when rows are given).
#' @param keep_moments Logical; keep the group moments in the result (used by `plot()` to refit
#'   for other k and by `summary()`). They take d x d x (number of groups) numbers.
#' @return An object of class `c("fair_pca_<method>", "fair_pca")`: a list with
#'   * `rotation`: d x r matrix with orthonormal columns (r = k for projections), components in
#'     decreasing order of variance explained, the largest-magnitude loading of each positive;
#'   * `sdev`: standard deviations of the components (divisor `n - 1`, as `prcomp`);
#'   * `center`, `scale`: the centring and scaling used (`FALSE` when none);
#'   * `totalvar`: total variance of the (centred, scaled) data;
#'   * `groups`: data.frame of group levels and sizes;
#'   * `group_stats`: data.frame, one row per group: `n`, `error` (average squared
#'     reconstruction error), `best` (the group's own best rank-k error), `loss` (marginal loss
#'     `error - best`) and `var_explained` (fraction of the group's variance kept);
#'   * `group_stats_standard`: the same for standard PCA at the same k;
#'   * `loadings`: `rotation` with class `"loadings"`, for [stats::loadings()];
#'   * `k`, `method`, `call`, `x` (scores, when `retx`) and `train_group` (the group of each
#'     training row, with the scores), `moments`, and method-specific fields
#'     (objective, weights, convergence history, ...);
#'   * from the formula interface, `terms`, `xlevels`, `contrasts` and `group_name`, used by
#'     `predict()` to rebuild the columns from a raw data.frame.
#' @references
#' Samadi, S., Tantipongpipat, U., Morgenstern, J., Singh, M. and Vempala, S. (2018). The price
#' of fair PCA: one extra dimension. *NeurIPS 31*. \doi{10.48550/arXiv.1811.00103}
#'
#' Kamani, M. M., Haddadpour, F., Forsati, R. and Mahdavi, M. (2022). Efficient fair principal
#' component analysis. *Machine Learning* 111, 3671-3702. \doi{10.1007/s10994-021-06100-9}
#'
#' Kleindessner, M., Donini, M., Russell, C. and Zafar, M. B. (2023). Efficient fair PCA for
#' fair representation learning. *AISTATS*, PMLR 206, 5250-5270.
#' \doi{10.48550/arXiv.2302.13319}
#'
#' Vu, H., Tran, T., Yue, M.-C. and Nguyen, V. A. (2022). Distributionally robust fair
#' principal components via geodesic descents. *ICLR 2022*. \doi{10.48550/arXiv.2202.03071}
#'
#' Olfat, M. and Aswani, A. (2019). Convex formulations for fair principal component analysis.
#' *AAAI* 33, 663-670. Lee, J., Kim, G., Olfat, M., Hasegawa-Johnson, M. and Yoo, C. D.
#' (2022). Fast and efficient MMD-based fair PCA via optimization over Stiefel manifold. *AAAI*
#' 36, 7363-7371. Ravfogel, S., Elazar, Y., Gonen, H., Twiton, M. and Goldberg, Y. (2020). Null
#' it out: guarding protected attributes by iterative nullspace projection. *ACL 2020*,
#' 7237-7256. Ravfogel, S., Twiton, M., Goldberg, Y. and Cotterell, R. (2022). Linear
#' adversarial concept erasure. *ICML 2022*, PMLR 162, 18400-18421.
#' @seealso [group_moments()], [group_errors()], [predict.fair_pca()], [plot.fair_pca()],
#'   [tidy.fair_pca()], [fair_css()], [tune_fair_pca()], [pareto_front()], [step_fair_pca()];
#'   [stats::prcomp()] for ordinary PCA.
#' @examples
#' fit <- fair_pca(iris[, 1:4], iris$Species, k = 2)
#' fit
#' summary(fit)
#' # the formula interface, with the group as a column of the data
#' fit2 <- fair_pca(~ Sepal.Length + Sepal.Width + Petal.Length + Petal.Width,
#'                  data = iris, group = Species, k = 2)
#' all.equal(abs(fit$rotation), abs(fit2$rotation))
#' @export
fair_pca <- function(x, ...) UseMethod("fair_pca")

#' @rdname fair_pca
#' @export
fair_pca.default <- function(x, group, k, method = "minmax", ..., center = TRUE, scale. = FALSE,
                             rank. = NULL, retx = TRUE, keep_moments = TRUE) {
  call <- match.call()
  method <- fp_check_method(method, "pca")
  if (missing(group)) fp_abort("is missing: give one group label per row", "group")
  xg <- fp_group_column(x, group, expr = substitute(group))
  x <- xg$x
  xm <- fp_as_matrix(x, "x", check_finite = FALSE, set_names = FALSE)  # NA/Inf: in the C++ pass
  cn <- fp_colnames(xm)
  g <- fp_as_group(xg$group, nrow(xm), "group", min_levels = 2L)
  m <- fp_moments_ranged(xm, g, cn, "x")
  obj <- fp_fit_pca(m, k, method, ..., center = center, scale. = scale., rank. = rank.,
                    data = list(x = xm, group = g), retx = retx, keep_moments = keep_moments, call = call,
                    warn_units = missing(scale.))
  obj$colnames_given <- !is.null(colnames(x))
  obj
}

#' @rdname fair_pca
#' @export
fair_pca.group_moments <- function(x, group = NULL, k, method = "minmax", ..., center = TRUE,
                                   scale. = FALSE, rank. = NULL, keep_moments = TRUE) {
  call <- match.call()
  method <- fp_check_method(method, "pca")
  if (!is.null(group)) fp_abort("must not be given when `x` is a group_moments object (the groups are in it)", "group")
  if (length(x$levels) < 2L) fp_abort("must have at least 2 groups", "x")
  if (any(x$n < 1)) fp_abort("has a group with no rows", "x")
  fp_fit_pca(x, k, method, ..., center = center, scale. = scale., rank. = rank., data = NULL, retx = FALSE,
             keep_moments = keep_moments, call = call, warn_units = missing(scale.))
}

#' @rdname fair_pca
#' @param formula For the formula interface: a one-sided formula naming the feature columns
#'   (`~ .` for all columns but the group). Factors (and character columns) become indicator
#'   columns and transformations (`log(x)`, `poly(x, 2)`, interactions) are evaluated through
#'   [stats::model.frame()] and [stats::model.matrix()] without intercept, as in
#'   [stats::prcomp()]; the terms, factor levels and contrasts are kept so that `predict()`
#'   rebuilds the same columns from a raw data.frame.
#' @param data A data.frame holding the variables of `formula` (and `group`).
#' @param subset,na.action As in [stats::model.frame()]; `na.action` defaults to
#'   `getOption("na.action")` as in [stats::prcomp()].
#' @export
fair_pca.formula <- function(formula, data = NULL, group, k, method = "minmax", ...,
                             subset, na.action) {
  call <- match.call()
  fp_check_formula_door(formula, missing(group))
  fd <- fp_formula_data(formula, data, substitute(group), parent.frame(),
                        subset = if (!missing(subset)) eval(substitute(subset), data, parent.frame()),
                        na.action = if (!missing(na.action)) na.action)
  res <- fair_pca.default(fd$x, fd$group, k, method = method, ...)
  fp_formula_attach(res, fd, call)
}

#' List the methods available
#'
#' @param kind `"pca"` for [fair_pca()] methods, `"css"` for column subset selection.
#' @return A character vector of method names.
#' @seealso [fair_pca()], [fair_css()].
#' @examples
#' fairproj_methods()
#' @export
fairproj_methods <- function(kind = c("pca", "css")) {
  kind <- fp_match_arg(kind, c("pca", "css"), "kind")
  ns <- asNamespace("fairproj")
  pat <- paste0("^fit_", kind, "_")
  sort(sub(pat, "", ls(ns, pattern = pat)))
}

fp_check_method <- function(method, kind, arg = "method") {
  # a method is a solver fit_<kind>_<method> of the namespace (as fairproj_methods() lists them):
  # looked up directly; the list is built only for the error message
  if (is.character(method) && length(method) == 1L && !is.na(method) && nzchar(method) &&
      exists(paste0("fit_", kind, "_", method), envir = asNamespace("fairproj"), mode = "function", inherits = FALSE)) {
    return(method)
  }
  avail <- fairproj_methods(kind)
  if (!is.character(method) || length(method) != 1L || is.na(method)) {
    fp_abort(sprintf("must be one string, one of: %s", paste(dQuote(avail, FALSE), collapse = ", ")), arg)
  }
  if (!method %in% avail) {
    fp_abort(sprintf("'%s' is not available; choose one of: %s", method,
                     paste(dQuote(avail, FALSE), collapse = ", ")), arg)
  }
  method
}

# The solver of a method, after checking the names `nm` of the `n` further arguments given to it
# (...names() of the caller: checked before the arguments are evaluated, so that an argument the
# method does not take, such as model.frame()'s `weights`, is a classed error and not R's
# "object not found" from evaluating it).
fp_check_solver_args <- function(kind, method, nm, n) {
  solver <- get(paste0("fit_", kind, "_", method), envir = asNamespace("fairproj"), mode = "function")
  known <- setdiff(names(formals(solver)), c("prep", "k", "data", "..."))
  if (n > 0L) {
    if (is.null(nm) || any(is.na(nm) | nm == "")) fp_abort(sprintf("arguments of method '%s' must be named", method), "...")
    bad <- setdiff(nm, known)
    if (length(bad)) {
      fp_abort(sprintf("has argument(s) that method '%s' does not take: %s%s", method,
                       paste(bad, collapse = ", "),
                       if (length(known)) paste0(" (it takes: ", paste(known, collapse = ", "), ")") else ""), "...")
    }
  }
  solver
}

# Call a solver, rejecting arguments it does not know (a classed error, not R's "unused
# argument").
fp_call_solver <- function(kind, method, prep, k, dots, data) {
  solver <- fp_check_solver_args(kind, method, names(dots), length(dots))
  tryCatch(do.call(solver, c(list(prep = prep, k = k, data = data), dots)),
           error = function(e) {
             if (inherits(e, "fairproj_error")) stop(e)
             # anything else from a solver (compiled code, or R's own numerical routines) is ours
             fp_internal_error(sprintf("method '%s'", method), conditionMessage(e))
           })
}

# Group moments of a dense matrix, every column brought into range before it is squared. The
# one pass squares the data, so a column of magnitude beyond 2^+-400 (about 1e+-120) would
# overflow or lose digits to underflow: such columns are multiplied by exact powers of two first
# (a copy of the data, made only then), and the exponents are kept in the moments as
# `exponent` (column j of the data = stored column j times 2^exponent[j]), which fp_prepare() and
# fp_css_prepare() undo. Ordinary data take one pass and no copy.
fp_moments_ranged <- function(xm, g, cn, arg = "x") {
  m <- fp_moments_dense(xm, g, cn, arg)
  e <- fp_column_exponents(m, xm)
  if (!any(e != 0)) return(m)
  for (j in which(e != 0)) xm[, j] <- xm[, j] * 2^-e[j]
  m <- fp_moments_dense(xm, g, cn, arg)
  m$exponent <- e
  m
}

# Per column, the power of two that brings its largest magnitude near 1 when the moments show it
# out of range (0 otherwise). Only the columns the moments flag are scanned.
fp_column_exponents <- function(m, xm) {
  d <- length(m$colnames)
  mag <- rep(0, d)
  for (i in seq_along(m$levels)) {
    mag <- pmax(mag, abs(m$mean[, i]), sqrt(abs(diag(m$scatter[[i]])) / m$n[[i]]))
  }
  e <- rep(0, d)
  for (j in which(!is.finite(mag) | mag > 2^400 | mag < 2^-400)) {
    mx <- max(abs(range(xm[, j])))
    if (mx > 2^400 || (mx > 0 && mx < 2^-400)) e[j] <- min(max(floor(log2(mx)) + 1, -1000), 1000)
  }
  e
}

# Moments summed from data beyond about 1e+-150 without first bringing the columns into range
# (fp_moments_ranged() does for rows; group_moments() of such data does not) have sums of
# squares that overflowed (Inf, NaN) or underflowed into subnormal numbers, which keep few
# digits: a classed error that says what works.
fp_check_moments_range <- function(m) {
  dg <- unlist(lapply(m$scatter, diag))
  if (!all(is.finite(m$mean)) || !all(vapply(m$scatter, function(a) all(is.finite(a)), logical(1)))) {
    fp_abort(paste("has moments that overflowed (infinite or NaN sums of squares of values beyond about 1e150);",
                   "fit from the rows, whose columns are brought into range first, or divide the data by a constant"), "x")
  }
  if (any(dg != 0 & abs(dg) < .Machine$double.xmin)) {
    fp_abort(paste("has moments that underflowed (sums of squares of values below about 1e-150 keep few digits);",
                   "fit from the rows, whose columns are brought into range first, or multiply the data by a constant"), "x")
  }
  invisible(m)
}

# The d x d quantities every solver works from, in normalised coordinates. With
# z = (x - center) / scale the centred, scaled data (scale = 1 without scaling) and
# s = tr(C_z) / d its average column variance, a solver sees z / sqrt(s):
#   n (named group sizes), mean (d x m group means), cov (group covariances about their own
#   means, divisor n_g), second (uncentred second moments per group, divisor n_g), C (the
#   matrix prcomp diagonalises: sum_g n_g second_g / (n - 1)), all in those units;
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
fp_prepare_normalised <- function(m, center = TRUE, scale. = FALSE) {
  d <- length(m$colnames)
  center <- fp_check_center_scale(center, d, "center")
  scale. <- fp_check_center_scale(scale., d, "scale.")
  e <- if (is.null(m$exponent)) rep(0, d) else m$exponent  # data column j = stored column j * 2^e[j]
  fp_check_moments_range(m)
  D <- 2^e
  ntot <- sum(m$n)
  ctr_s <- if (isTRUE(center)) moments_mean(m, pooled = TRUE) else if (isFALSE(center)) rep(0, d) else center / D
  sc_s <- fp_column_scale(m, ctr_s, if (is.numeric(scale.)) scale. / D else scale.)
  # z = (x_s - ctr_s) * 2^a * b per column (x_s the stored column): the power of two is kept
  # apart from the rest so that neither overflows
  if (isFALSE(scale.)) {
    a <- e
    b <- rep(1, d)
  } else {
    a <- rep(0, d)
    b <- 1 / sc_s
  }
  dev <- m$mean - ctr_s
  within <- Reduce(`+`, lapply(seq_along(m$levels), function(i) diag(m$scatter[[i]])))
  msq <- (within + drop(dev^2 %*% m$n)) / ntot        # mean square of each stored column about ctr_s
  lmag <- a + log2(b * sqrt(msq))
  P <- if (any(is.finite(lmag))) ceiling(max(lmag[is.finite(lmag)])) else 0
  w <- b * 2^(a - P)                                   # stored units -> z / 2^P, largest column <= 1
  mean <- dev * w
  cov <- lapply(seq_along(m$levels), function(i) (m$scatter[[i]] * tcrossprod(w)) / m$n[[i]])
  second <- lapply(seq_along(m$levels), function(i) cov[[i]] + tcrossprod(mean[, i]))
  C <- Reduce(`+`, lapply(seq_along(m$levels), function(i) second[[i]] * m$n[[i]])) / max(ntot - 1, 1)
  s <- sum(diag(C)) / d
  if (!is.finite(s)) {
    fp_abort(paste("has variances beyond double precision in its moments (values beyond about 1e+-150 summed",
                   "without bringing the columns into range); fit from the rows, or rescale the data by a constant"), "x")
  }
  if (!(s > 0)) {
    fp_abort("has no variation: every column is constant after centring, so there is no subspace to find", "x")
  }
  sq <- sqrt(s)
  C <- C / s
  dimnames(C) <- list(m$colnames, m$colnames)
  cov <- lapply(cov, function(a) a / s)
  second <- lapply(second, function(a) a / s)
  names(cov) <- names(second) <- m$levels
  scale_data <- if (isFALSE(scale.)) rep(1, d) else D * sc_s
  list(d = d, levels = m$levels, n = m$n, n_total = ntot, colnames = m$colnames,
       center = ctr_s * D, scale = if (isFALSE(scale.)) rep(2^P * sq, d) else scale_data * (2^P * sq),
       scale_data = scale_data, centered = !isFALSE(center), scaled = !isFALSE(scale.),
       mean = mean / sq, cov = cov, second = second, C = C, moments = m,
       unit = 4^P * s, unit_sqrt = 2^P * sq, unit_log2 = 2 * P + log2(s),
       cache = new.env(parent = emptyenv()))
}

# Eigenpairs of the prepared problem computed once per fit and shared by the solver and the
# result's diagnostics (a top-k Lanczos solve costs as much as the moments pass at large d):
# the top k of C (group = NULL) or of a group covariance prep$cov[[group]]. Callers that
# change prep$C or prep$cov must not use it (fp_prepare() drops the cache).
fp_prep_eig <- function(prep, k, group = NULL) {
  A <- if (is.null(group)) prep$C else prep$cov[[group]]
  if (is.null(prep$cache)) return(fp_eig_top(A, k))
  key <- paste(if (is.null(group)) "C" else group, k)
  hit <- prep$cache[[key]]
  if (!is.null(hit)) return(hit)
  e <- fp_eig_top(A, k)
  assign(key, e, envir = prep$cache)
  e
}

# All eigenvalues (decreasing) of a group covariance, once per fit (dense: small d or large k).
fp_prep_values <- function(prep, group) {
  key <- paste("values", group)
  hit <- if (is.null(prep$cache)) NULL else prep$cache[[key]]
  if (!is.null(hit)) return(hit)
  v <- fp_sym_values(prep$cov[[group]])
  if (!is.null(prep$cache)) assign(key, v, envir = prep$cache)
  v
}

# All eigenvalues (decreasing) of a symmetric matrix. A graded diagonal (nonzero magnitudes
# spread over more than 2^20: a variable in units that dwarf the others') is first permuted to
# decrease, a similarity under which LAPACK's reduction keeps the small eigenvalues to their
# own precision rather than the largest's (as eig_sym_full does in linalg.cpp).
fp_sym_values <- function(S) {
  dg <- abs(diag(S))
  pos <- dg[dg > 0 & is.finite(dg)]
  if (length(pos) && max(pos) > 2^20 * min(pos)) {
    o <- order(dg, decreasing = TRUE)
    S <- S[o, o, drop = FALSE]
  }
  eigen(S, symmetric = TRUE, only.values = TRUE)$values
}

# Sum of the k largest eigenvalues of each group covariance (their best rank-k variances).
fp_group_topsum <- function(prep, k) {
  vapply(seq_along(prep$cov), function(i) {
    if (fp_lanczos_path(prep$d, k)) sum(fp_prep_eig(prep, k, i)$values) else sum(fp_prep_values(prep, i)[seq_len(k)])
  }, numeric(1))
}

# Whether the top-k eigensolves of a d x d matrix take the Lanczos path (as linalg.h decides).
fp_lanczos_path <- function(d, k) d >= 120 && 3 * k < d

# The prepared problem in the units of the centred, scaled data z = (x - center) / scale (the
# normalised problem times its unit; infinite where those variances overflow). For callers
# that report in the data's units; solvers take fp_prepare_normalised().
fp_prepare <- function(m, center = TRUE, scale. = FALSE) {
  p <- fp_prepare_normalised(m, center, scale.)
  u <- p$unit
  p$C <- p$C * u
  p$cov <- lapply(p$cov, function(a) a * u)
  p$second <- lapply(p$second, function(a) a * u)
  p$mean <- p$mean * p$unit_sqrt
  p$scale <- p$scale_data
  p$unit <- 1
  p$unit_sqrt <- 1
  p$unit_log2 <- 0
  p$cache <- NULL
  p
}

# Values with units of variance (group errors, losses, objectives) are reported in the data's
# units, so those units must be representable: a classed error otherwise, which says what to do.
fp_check_unit <- function(prep) {
  top <- prep$unit_log2 + log2(max(prep$d, vapply(prep$cov, function(s) sum(diag(s)), numeric(1))))
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

# Top-k eigenpairs of a symmetric matrix (Lanczos when k is small relative to d).
fp_eig_top <- function(A, k) {
  res <- .fp_eig_top(A, as.integer(k))
  list(values = res$values, vectors = res$vectors)
}

# Each group's best average rank-k error (group-centred), from a prepared problem: the sum of
# the trailing eigenvalues (no cancellation) where a full eigendecomposition is the cheaper
# route, the trace minus the top k where Lanczos is (its tolerance is relative to the matrix),
# unless that difference has cancelled to below 1e-8 of the trace.
fp_group_best <- function(prep, k) {
  d <- prep$d
  vapply(seq_along(prep$cov), function(i) {
    if (k >= d) return(0)
    if (fp_lanczos_path(d, k)) {
      tot <- sum(diag(prep$cov[[i]]))
      e <- tot - sum(fp_prep_eig(prep, k, i)$values)
      # fewer than about 7 digits left (the top k dwarf the rest): the dense tail instead
      if (e >= 1e-8 * tot) return(e)
    }
    sum(pmax(fp_prep_values(prep, i)[-seq_len(k)], 0))
  }, numeric(1))
}

# The residual tr(S) - tr(V'SV) of a symmetric S outside span(V) (orthonormal V), given its
# value `e` from that difference, which loses the digits its two terms share: where it is below
# 1e-8 of tr(S) (so that fewer than about 7 digits are left: a column or direction that dwarfs
# the rest, or k at the group's rank) it is recomputed as tr(W'SW) over an orthonormal basis W of
# the complement of span(V), a sum of terms of one sign, accurate to the precision of W instead
# of the total's (at O(d^2 (d - k)), paid only then). A squared norm: never below 0, and 0 when V
# spans everything.
fp_residual_trace <- function(S, V, e = sum(diag(S)) - sum((S %*% V) * V)) {
  if (ncol(V) >= nrow(V)) return(0)
  if (e < 1e-8 * sum(diag(S))) {
    W <- qr.Q(qr(V), complete = TRUE)[, -seq_len(ncol(V)), drop = FALSE]
    e <- sum((S %*% W) * W)
  }
  max(e, 0)
}

# Per-group diagnostics of a projection onto span(V) or of a general linear map M
# (reconstruction z M): average squared error about the group mean, the group's best rank-k
# error, marginal loss and fraction of variance explained. Errors are squared norms, never below 0.
fp_group_stats <- function(prep, V = NULL, k, map = NULL, best = NULL) {
  if (is.null(best)) best <- fp_group_best(prep, k)
  err <- vapply(seq_along(prep$cov), function(i) {
    s <- prep$cov[[i]]
    if (!is.null(map)) {
      R <- diag(prep$d) - map
      return(max(sum((crossprod(R, s)) * t(R)), 0))
    }
    fp_residual_trace(s, V)
  }, numeric(1))
  tot <- vapply(prep$cov, function(s) sum(diag(s)), numeric(1))
  data.frame(group = prep$levels, n = as.numeric(prep$n), error = err, best = best,
             loss = err - best, var_explained = ifelse(tot > 0, 1 - err / tot, NA_real_),
             row.names = NULL, stringsAsFactors = FALSE)
}

# Scores of a fit whose output is a linear map (reconstruction z map): the coordinates
# ((x - center) / scale) map rotation of the reconstruction, as one product with the rows.
fp_map_scores <- function(fit, x) {
  W <- fit$map %*% fit$rotation
  if (!isFALSE(fit$scale)) W <- W / fit$scale
  off <- if (isFALSE(fit$center)) rep(0, ncol(W)) else drop(fit$center %*% W)
  # one product written into the result (the rows were checked by the moments pass)
  s <- if (is.double(x) && !is.object(x)) .fp_scores_cpp(x, unname(W), off) else x %*% W - rep(off, each = nrow(x))
  dimnames(s) <- list(rownames(x), colnames(fit$rotation))
  s
}

# A group_stats table in normalised units, mapped to the data's units.
fp_stats_units <- function(gs, unit) {
  for (v in c("error", "best", "loss")) gs[[v]] <- gs[[v]] * unit
  gs
}

fp_fit_pca <- function(m, k, method, ..., center, scale., rank. = NULL, data, retx, keep_moments, call,
                       warn_units = FALSE) {
  nm <- ...names()
  if ("scale" %in% nm) {
    fp_abort("is not an argument of fair_pca(): did you mean `scale.` (with a dot, as in prcomp())?", "scale")
  }
  if ("tol" %in% nm) fp_check_prcomp_tol(method)
  fp_check_solver_args("pca", method, nm, ...length())
  dots <- list(...)
  fp_check_flag(retx, "retx")
  fp_check_flag(keep_moments, "keep_moments")
  if (!is.null(rank.)) {
    if (!missing(k)) fp_abort("and `k` are both given: `rank.` is prcomp's name for `k`; give one", "rank.")
    k <- rank.
  }
  prep <- fp_check_unit(fp_prepare_normalised(m, center, scale.))
  if (warn_units) fp_warn_units(fp_log2_colvar(m), m$colnames)  # scale. not chosen by the user
  fp_warn_small_groups(prep$n, prep$levels)
  if (missing(k)) fp_abort("is missing: give the target dimension (or prcomp's `rank.`)", "k")
  k <- fp_check_count(k, 1L, prep$d, "k")
  fit <- fp_call_solver("pca", method, prep, k, dots, data)
  obj <- new_fair_pca(fit, prep, k, method, call)
  obj$args <- dots
  if (retx && !is.null(data)) {
    # no centred copy of the data; the rows were checked by the moments pass
    obj$x <- if (!is.null(obj$map) && is.null(obj$tradeoff)) fp_map_scores(obj, data$x) else fp_scores(obj, data$x)
    obj$train_group <- data$group  # the group of each training row (score plots)
  }
  if (keep_moments) obj$moments <- m
  obj
}

# `tol` in stats::prcomp() omits components whose standard deviation is at most `tol` times the
# first's; fair_pca() keeps exactly k components, so `tol` is an error that says so, unless the
# method documents a `tol` of its own. Solver tolerances have their own names (`gap_tol`).
fp_check_prcomp_tol <- function(method) {
  solver <- get(paste0("fit_pca_", method), envir = asNamespace("fairproj"), mode = "function")
  known <- names(formals(solver))
  if ("tol" %in% known) return(invisible())
  own <- grep("tol", setdiff(known, "tol"), value = TRUE)
  fp_abort(sprintf("is prcomp()'s threshold for omitting small components, which fair_pca() does not apply: it keeps exactly `k` components (choose k, e.g. from plot(fit, \"scree\"))%s",
                   if (length(own)) sprintf("; the tolerance of method '%s' is `%s`", method, own[1L]) else ""), "tol")
}

# A group of one row has no spread of its own: its covariance is zero, so its errors and losses
# (and any fairness between it and the others) say nothing. A classed warning, not an error:
# the fit itself is well defined.
fp_warn_small_groups <- function(n, levels) {
  small <- which(n < 2)
  if (length(small)) {
    fp_warn(sprintf("group(s) %s have fewer than 2 rows: their covariance is zero, so their errors and losses say nothing about them; merge small groups or collect more rows",
                    paste(sprintf("'%s' (%d)", levels[small], as.integer(n[small])), collapse = ", ")),
            class = "fairproj_small_group_warning")
  }
}

# The result constructor shared by all methods. `fit` is what a solver returns: a list with
# `rotation` (d x r, orthonormal columns spanning the reduced space) and optionally `map` (a
# d x d linear map when the method's output is not an orthogonal projection, reconstruction
# z %*% map), plus any method-specific fields (kept as they are). `prep` is the normalised
# problem the solver saw: every value with units of variance is mapped back with `prep$unit`.
new_fair_pca <- function(fit, prep, k, method, call) {
  V <- fit$rotation
  if (!is.matrix(V) || nrow(V) != prep$d) stop("internal error: solver returned no d x r rotation")
  # order the components by variance explained and fix their signs (the subspace is unchanged)
  A <- crossprod(V, prep$C %*% V)
  e <- eigen((A + t(A)) / 2, symmetric = TRUE)
  V <- V %*% e$vectors
  for (j in seq_len(ncol(V))) {
    i <- which.max(abs(V[, j]))
    if (V[i, j] < 0) V[, j] <- -V[, j]
  }
  dimnames(V) <- list(prep$colnames, paste0("PC", seq_len(ncol(V))))
  best <- fp_group_best(prep, k)
  gs <- fp_stats_units(fp_group_stats(prep, V, k, map = fit$map, best = best), prep$unit)
  gs_std <- if (identical(method, "standard")) gs else {
    fp_stats_units(fp_group_stats(prep, fp_prep_eig(prep, k)$vectors, k, best = best), prep$unit)
  }
  margins <- fp_group_margins(prep, V, k, map = fit$map)
  extra <- fit[setdiff(names(fit), c("rotation"))]
  if (!is.null(margins)) extra$group_margins <- margins
  obj <- c(list(rotation = V, sdev = sqrt(pmax(e$values, 0)) * prep$unit_sqrt,
                center = if (prep$centered) stats::setNames(prep$center, prep$colnames) else FALSE,
                scale = if (prep$scaled) stats::setNames(prep$scale_data, prep$colnames) else FALSE,
                totalvar = sum(diag(prep$C)) * prep$unit,
                groups = data.frame(group = prep$levels, n = as.numeric(prep$n), stringsAsFactors = FALSE),
                group_stats = gs, group_stats_standard = gs_std, k = k, method = method, call = call),
           extra)
  # stats::loadings() is not generic: it returns `x$loadings`
  obj$loadings <- structure(V, class = "loadings")
  class(obj) <- c(paste0("fair_pca_", method), "fair_pca")
  obj
}

# Standard PCA: the top-k eigenvectors of the (centred, scaled) covariance matrix.
fit_pca_standard <- function(prep, k, data = NULL) {
  list(rotation = fp_prep_eig(prep, k)$vectors)
}
