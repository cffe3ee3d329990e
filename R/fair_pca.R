#' Fair principal component analysis
#'
#' The front door of all PCA methods of the package. Data are reduced to per-group moments in
#' one pass ([group_moments()]); the chosen solver then works on d x d matrices. That pass runs
#' on `getOption("fairproj.threads", 1)` threads (see the Threads section of [group_moments()]:
#' `options(fairproj.threads = 2)` makes long passes 1.6-2 times as fast on two free cores).
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
#' **Which method?** Fair PCA has several meanings; choose by what the reduction is for:
#' * every group reconstructed about as well as it could be (equal marginal losses, the
#'   largest as small as possible): `"minmax"`, the default;
#' * no linear trace of the group in the scores (equal group means, so a linear model trained
#'   on them cannot tell the groups apart by their means): `"mean"` (closed form;
#'   `equalize_cov` brings the group covariances close too; [fair_kpca()] for kernels); with
#'   the group covariances bounded too, `"cfpca"` (two groups, from the moments); removing what
#'   a linear classifier of the group finds, `"inlp"` or `"rlace"` (two groups, need the rows);
#'   the groups' whole projected distributions alike, `"mbfpca"` (two groups, needs the rows);
#' * equal reconstruction errors that hold up on new data whose groups differ from the
#'   sample's (small groups, a shift): `"robust"`, tuned by [tune_fair_pca()];
#' * a trade-off curve between variance kept and fairness, to choose a point on it:
#'   [pareto_front()] (its points are `"pareto"` fits);
#' * ordinary PCA with the same per-group diagnostics (the baseline): `"standard"`;
#' * original columns instead of components, every group reconstructed well by them:
#'   [fair_css()], the column subset selection analogue.
#'
#' [fair_audit()] fits standard PCA and fair methods side by side when the goal is still open.
#'
#' **Cost in n and d** (n rows, d columns, m groups, one thread). Every method from the moments
#' starts with the one pass over the rows, \eqn{O(n d^2)}; the rest works on d x d matrices and
#' does not depend on n: `"standard"` and `"mean"` one symmetric eigendecomposition,
#' \eqn{O(d^3)}; `"minmax"` \eqn{O(m d^2)} per dual step plus 5 to 100 eigensolves of d x d
#' matrices (top-k Lanczos solves when k is far below d); `"pareto"` \eqn{O(m d^2 k)} per
#' descent step; `"robust"` \eqn{O(d^2 k)} per step and restart; `"cfpca"` one \eqn{O(d^3)}
#' eigendecomposition per accelerated-gradient step. Measured on 2,000 rows and 2,000 columns
#' (two groups, k = 10, reference BLAS): the pass 0.9 s, `"standard"` 2.2 s, `"mean"` 2.9 s,
#' `"minmax"` 4.3 s in all; d x d work grows as \eqn{d^3}: at d = 10,000 they take 1-2 minutes
#' and 9-13 GB. The methods that need the rows cost more: `"mbfpca"` \eqn{O(n^2 k)}, `"inlp"`
#' \eqn{O(n d^2)} per step, `"rlace"` \eqn{O(d^3)} per step; each page gives the constants.
#' The methods whose cost can exceed that of the moments by far (`"robust"`, `"mbfpca"`,
#' `"inlp"`, `"rlace"`, and [fair_css()]'s `"exhaustive"` and `"highqr"`) estimate it: fits
#' estimated to take longer than the time limit (`options(fairproj.time_limit = )`, in
#' seconds, default 60; `Inf` turns it off) are refused up front with an error of class
#' `fairproj_cost_error` that names a faster method or an argument value that fits; long loops
#' show a progress bar in interactive sessions (`options(fairproj.progress = FALSE)` hides it).
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
#' variance. When `scale.` is not given, the call compares each varying column's standard
#' deviation with the median column's: when the columns more than 4 times the median (16 times
#' its variance) hold more than half of the total variance, or one column is more than 100 times
#' the median, it warns once, with class `fairproj_units_warning`, naming those columns. A spread
#' within a factor of 4 is usual in one set of units (iris, in cm, reaches 2.3; image pixels
#' about 2); `survival::pbc`, `mtcars` and `USArrests` are beyond it (their largest columns are 37,
#' 77 and 9 times the median, and with the other large ones hold 99.4%, 99.7% and 96% of the
#' variance). The variances come from the moments (no extra pass). Giving `scale.` (`TRUE` for
#' columns in different units, `FALSE` to keep the units) is a choice, and silences it.
#' [fair_css()], [fair_kpca()], [tune_fair_pca()], [pareto_front()] and [step_fair_pca()] warn
#' the same way; [fair_audit()] scales by default.
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
#' Two limits of "the same subspace": `method = "rlace"` removes whichever subspace defeats its
#' classifier, which is not unique, so its fits of the same data in other units agree in what
#' they remove from the classifier, not in the subspace (its game amplifies rounding); and an
#' offset is exact in the scatter but not in the group means, which are doubles: each carries a
#' rounding of about 1e-16 times its size, so where the groups' means differ by little beside a
#' common offset (differences of 1 beside 1e12), what is built on those differences (the
#' between-group part of the pooled covariance, mean matching's constraint) moves by about
#' 1e-16 times offset over difference (1e-6 to 1e-3 of the subspace at 1e12, about 1e-9 at 1e8).
#' Subtract such an offset (e.g. a typical value of each column) before the fit.
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
#'   unquoted column name of `data`, a string naming it, a vector, or several attributes (a
#'   data.frame or list, evaluated on `data`, e.g. `data.frame(sex, race)`). Not used when `x` is a
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
#' @param route How a fit from rows is computed: `"auto"` (the default) chooses by estimated cost,
#'   `"moments"` forms the per-group d x d moments and solves on them, `"rows"` works on the rows
#'   themselves through products with them (Lanczos, or each group's n_g x n_g Gram matrix when
#'   it has fewer rows than columns) and forms no d x d matrix, for wide data (thousands of
#'   columns). The row route serves `"standard"`, the basic variant of `"mean"` and `"minmax"`
#'   (its exact solver of the marginal loss, group centring; see [minmax]); `"auto"`
#'   takes it at 500 columns or more when its estimated cost is less than half the moments' (the moments route
#'   stays where n is much larger than d), and a row-route fit says so when printed and keeps no
#'   moments (`summary()`'s residual directions and `plot()`'s refits need them: use
#'   `route = "moments"` for those). A `group_moments` object has only the moments:
#'   `route = "rows"` is then an error.
#' @param keep_moments Logical; keep the group moments in the result (used by `plot()` to refit
#'   for other k and by `summary()`). They take d x d x (number of groups) numbers.
#' @return An object of class `c("fair_pca_<method>", "fair_pca")`: a list with
#'   * `rotation`: d x r matrix with orthonormal columns (r = k for projections), components in
#'     decreasing order of the variance of their scores, the largest-magnitude loading of each positive;
#'   * `sdev`: standard deviations of the components' scores (divisor `n - 1`, as `prcomp`);
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
#'     (objective, weights, convergence history, ...); a min-max fit whose reconstruction is
#'     a linear map of rank above `k` (see [minmax]) also has `map` (or its factors `map_basis`
#'     and `map_weights`) and `var_explained`, the fraction of `totalvar` the map keeps (1 -
#'     its squared error about the pooled mean / `totalvar`; more than `sdev^2` adds to, as
#'     the map shrinks what it keeps);
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
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' # laboratory values of liver patients, with sex as the group
#' vars <- c("age", "bili", "chol", "albumin", "copper", "alk.phos", "ast", "trig",
#'           "platelet", "protime")
#' pbc2 <- na.omit(survival::pbc[c(vars, "sex")])
#' fit <- fair_pca(pbc2[vars], pbc2$sex, k = 3, scale. = TRUE)
#' fit
#' summary(fit)
#' # the formula interface, with the group as a column of the data
#' fit2 <- fair_pca(~ ., data = pbc2, group = sex, k = 3, scale. = TRUE)
#' all.equal(abs(fit$rotation), abs(fit2$rotation))
#' @export
fair_pca <- function(x, ...) {
  if (!nargs()) fp_check_given("x")
  if (missing(x) && "formula" %in% ...names()) {  # see fp_formula_first()
    call <- fp_formula_first(sys.call(), ...elt(match("formula", ...names())))
    if (!is.null(call)) return(eval(call, parent.frame()))
  }
  UseMethod("fair_pca")
}

#' @rdname fair_pca
#' @export
fair_pca.default <- function(x, group, k, method = "minmax", ..., center = TRUE, scale. = FALSE,
                             rank. = NULL, retx = TRUE, keep_moments = TRUE, route = "auto") {
  call <- fp_generic_call(match.call(), "fair_pca")
  method <- fp_check_method(method, "pca")
  # NA/Inf: in the C++ pass of the moments
  d <- fp_door_rows(x, group, substitute(group), moments = FALSE, check_finite = FALSE, set_names = FALSE)
  route <- fp_route_choose(route, method, fp_route_dots(method, ...), d$xm, d$g, if (!is.null(rank.)) rank. else if (!missing(k)) k)
  m <- if (route == "rows") structure(list(x = d$xm, g = d$g), class = "fp_rows") else fp_moments_ranged(d$xm, d$g, fp_colnames(d$xm))
  obj <- fp_fit_pca(m, k, method, ..., center = center, scale. = scale., rank. = rank.,
                    data = list(x = d$xm, group = d$g), retx = retx, keep_moments = keep_moments, call = call,
                    warn_units = missing(scale.))
  obj$colnames_given <- !is.null(colnames(d$x))
  obj
}

#' @rdname fair_pca
#' @export
fair_pca.group_moments <- function(x, group = NULL, k, method = "minmax", ..., center = TRUE,
                                   scale. = FALSE, rank. = NULL, keep_moments = TRUE, route = "moments") {
  call <- fp_generic_call(match.call(), "fair_pca")
  method <- fp_check_method(method, "pca")
  if (fp_match_arg(route, c("auto", "moments", "rows"), "route") == "rows") {
    fp_abort("= \"rows\" needs the rows, and `x` holds only their moments: use route = \"moments\" or fit from the rows", "route")
  }
  fp_door_moments(x, group, min_levels = 2L)
  if ("retx" %in% ...names()) {
    fp_abort("cannot be given for a fit from moments: it has no rows to score; predict(fit, rows) gives the scores", "retx")
  }
  fp_fit_pca(x, k, method, ..., center = center, scale. = scale., rank. = rank., data = NULL, retx = FALSE,
             keep_moments = keep_moments, call = call, warn_units = missing(scale.))
}

#' @rdname fair_pca
#' @param formula For the formula interface: a one-sided formula naming the feature columns
#'   (`~ .` for all columns but the group). Factors (and character columns) become indicator
#'   columns and transformations (`log(x)`, `poly(x, 2)`, interactions) are evaluated through
#'   [stats::model.frame()] and [stats::model.matrix()] without intercept, as in
#'   [stats::prcomp()]; the terms, factor levels and contrasts are kept so that `predict()`
#'   rebuilds the same columns from a raw data.frame. Numbers stored as text are caught before
#'   they become indicators: a character column whose values all read as numbers (`"1.5"`,
#'   `"1,234"`, `"$12"`, `"5%"`) is an error of class `fairproj_text_numbers_error`, as the
#'   data.frame method refuses it (convert it with `as.numeric()` or `readr::parse_number()`,
#'   or with `factor()` if it holds categories); a factor or character column with more levels
#'   than the formula has columns, and more than 10, warns once (class
#'   `fairproj_indicators_warning`), saying when its levels read as numbers. The other formula
#'   methods ([fair_css()], [fair_kpca()], [tune_fair_pca()], [pareto_front()],
#'   [fair_audit()]) check the same.
#' @param data A data.frame holding the variables of `formula` (and `group`).
#' @param subset,na.action As in [stats::model.frame()]; `na.action` defaults to
#'   `getOption("na.action")` as in [stats::prcomp()]. Rows with a missing group label or
#'   missing feature values are dropped by that default (the matrix method refuses them); when
#'   `na.action` is not given and rows are dropped, a message of class
#'   `fairproj_dropped_rows_message` says how many, of each kind, once per call (every formula
#'   method does). Giving `na.action` is a choice and silences it.
#' @export
fair_pca.formula <- function(formula, data = NULL, group, k, method = "minmax", ...,
                             subset, na.action) {
  fd <- fp_formula_door(formula, data, substitute(group), missing(group), if (!missing(subset)) substitute(subset),
                        if (!missing(na.action)) na.action, parent.frame(), min_cols = 2L)
  fp_formula_attach(fair_pca.default(fd$x, fd$group, k, method = method, ...), fd, fp_generic_call(match.call(), "fair_pca"))
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
  k_arg <- "k"  # the name the user gave the target dimension, for its errors
  if (!is.null(rank.)) {
    if (!missing(k)) fp_abort("and `k` are both given: `rank.` is prcomp's name for `k`; give one", "rank.")
    k <- rank.
    k_arg <- "rank."
  }
  rows <- inherits(m, "fp_rows")
  if (rows) {
    # the row route (prepare-rows.R); an audit prepares the rows once for all its fits
    prep <- if (!is.null(m$prep)) m$prep else fp_prepare_rows(m$x, m$g, center, scale.)
    # rows with NA or Inf: the moments pass says where
    if (is.null(prep)) fp_moments_ranged(m$x, m$g, fp_colnames(m$x))
  } else {
    # standard PCA and mean matching read C and the groups one at a time, and so does min-max
    # (fp_minmax_problem()): C and the group covariances are built on demand, for min-max from
    # fp_minmax_lazy_min_d columns on (below, m d x d matrices are a few hundred KB, and their
    # refills at every oracle call cost as much as its eigensolves: 1.3-1.5 times min-max's time
    # on the credit data's 20 columns with 8-24 groups, bench/minmax.R)
    lazy <- method %in% c("standard", "mean") || (method == "minmax" && length(m$colnames) >= fp_minmax_lazy_min_d)
    prep <- fp_check_unit(fp_prepare_normalised(m, center, scale., lazy_cov = lazy))
  }
  if (warn_units) fp_warn_units(if (rows) prep$log2_colvar else fp_log2_colvar(m), prep$colnames)  # scale. not chosen by the user
  fp_warn_small_groups(prep$n, prep$levels)
  if (missing(k)) fp_abort("is missing: give the target dimension (or prcomp's `rank.`)", "k")
  k <- fp_check_count(k, 1L, prep$d, k_arg)
  fit <- fp_call_solver("pca", method, prep, k, dots, data)
  obj <- new_fair_pca(fit, prep, k, method, call)
  obj$args <- dots
  if (retx && !is.null(data)) {
    # no centred copy of the data; the rows were checked by the moments pass
    obj$x <- if (fp_has_map(obj) && is.null(obj$tradeoff)) fp_map_scores(obj, data$x) else fp_scores(obj, data$x)
    obj$train_group <- data$group  # the group of each training row (score plots)
  }
  if (keep_moments && !rows) obj$moments <- m
  if (rows) obj$route <- fp_route_label(prep)
  obj
}

# `tol` in stats::prcomp() omits components whose standard deviation is at most `tol` times the
# first's; fair_pca() keeps exactly k components, so `tol` is an error that says so, unless the
# method documents a `tol` of its own. Solver tolerances have their own names (`gap_tol`).
fp_check_prcomp_tol <- function(method) {
  solver <- fp_solver("pca", method)
  known <- names(formals(solver))
  if ("tol" %in% known) return(invisible())
  own <- grep("tol", setdiff(known, "tol"), value = TRUE)
  fp_abort(sprintf("is prcomp()'s threshold for omitting small components, which fair_pca() does not apply: it keeps exactly `k` components (choose k, e.g. from plot(fit, \"scree\"))%s",
                   if (length(own)) sprintf("; the tolerance of method '%s' is `%s`", method, own[1L]) else ""), "tol")
}

# The result constructor shared by all methods. `fit` is what a solver returns: a list with
# `rotation` (d x r, orthonormal columns spanning the reduced space) and optionally `map` (a
# d x d linear map when the method's output is not an orthogonal projection, reconstruction
# z %*% map), plus any method-specific fields (kept as they are). `prep` is the normalised
# problem the solver saw: every value with units of variance is mapped back with `prep$unit`.
new_fair_pca <- function(fit, prep, k, method, call) {
  V <- fit$rotation
  if (!is.matrix(V) || nrow(V) != prep$d) stop("internal error: solver returned no d x r rotation")
  rows <- if (!is.null(prep$rows)) fp_rows_diagnostics(prep, V, k, method, if (identical(method, "minmax")) fit$lambda)  # the row route (route-rows.R)
  # order the components by the variance of their scores and fix their signs (the subspace is
  # unchanged)
  A <- if (is.null(rows)) crossprod(V, fp_prep_C(prep) %*% V) else rows$A
  # standard PCA's top k (for group_stats_standard) while C is at hand (a lazy problem's work
  # matrix holds it now: one refill fewer; cached)
  if (is.null(rows) && !identical(method, "standard")) fp_prep_eig(prep, k)
  # a linear map M = V L V' (range span(V)): its scores z M V have covariance L A L, and its
  # reconstruction keeps tr(C) - tr((I - M) C (I - M)) = tr(2 L A - L A L) of the variance
  kept <- NULL
  if (fp_has_map(fit)) {
    L <- crossprod(V, fp_map_times(fit, V))
    L <- (L + t(L)) / 2
    LA <- L %*% A
    kept <- sum(diag(2 * LA - LA %*% L))
    # L A L = (A^1/2 L)' (A^1/2 L): its eigenpairs from the singular values of A^1/2 L, which
    # keep the small ones to relative precision (an eigensolve of L A L only to sqrt(eps))
    ea <- eigen((A + t(A)) / 2, symmetric = TRUE)
    sv <- svd(sqrt(pmax(ea$values, 0)) * crossprod(ea$vectors, L), nu = 0L)
    e <- list(values = sv$d^2, vectors = sv$v)
  } else {
    e <- eigen((A + t(A)) / 2, symmetric = TRUE)
  }
  V <- V %*% e$vectors
  for (j in seq_len(ncol(V))) {
    i <- which.max(abs(V[, j]))
    if (V[i, j] < 0) V[, j] <- -V[, j]
  }
  dimnames(V) <- list(prep$colnames, paste0("PC", seq_len(ncol(V))))
  if (is.null(rows)) {
    best <- fp_group_best(prep, k)
    gs <- fp_stats_units(fp_group_stats(prep, V, k, map = fp_map_arg(fit), best = best), prep$unit)
    gs_std <- if (identical(method, "standard")) gs else {
      fp_stats_units(fp_group_stats(prep, k = k, best = best, err = fp_prep_std_errors(prep, k)), prep$unit)
    }
    margins <- fp_group_margins(prep, V, k, map = fp_map_arg(fit))
  } else {
    gs <- fp_stats_units(rows$gs, prep$unit)
    gs_std <- fp_stats_units(rows$gs_std, prep$unit)
    margins <- NULL
  }
  totalvar <- if (is.null(rows)) fp_prep_C_trace(prep) * prep$unit else prep$d * prep$unit
  extra <- fit[setdiff(names(fit), c("rotation"))]
  if (!is.null(margins)) extra$group_margins <- margins
  if (!is.null(kept)) extra$var_explained <- if (totalvar > 0) max(kept, 0) * prep$unit / totalvar else NA_real_
  obj <- c(list(rotation = V, sdev = sqrt(pmax(e$values, 0)) * prep$unit_sqrt,
                center = if (prep$centered) stats::setNames(prep$center, prep$colnames) else FALSE,
                scale = if (prep$scaled) stats::setNames(prep$scale_data, prep$colnames) else FALSE,
                totalvar = totalvar,
                groups = data.frame(group = prep$levels, n = as.numeric(prep$n), stringsAsFactors = FALSE),
                group_stats = gs, group_stats_standard = gs_std, k = k, method = method, call = call),
           extra)
  # stats::loadings() is not generic: it returns `x$loadings`
  obj$loadings <- structure(V, class = "loadings")
  if (!is.null(rows)) obj$spectra <- rows$spectra  # the row route's diagnostics (no moments kept)
  class(obj) <- c(paste0("fair_pca_", method), "fair_pca")
  obj
}
