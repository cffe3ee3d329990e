#' Min-max fair PCA (Samadi et al. 2018, multi-group extension)
#'
#' The fair PCA of Samadi et al. (2018), "The price of fair PCA: one extra dimension", and its
#' extension to any number of groups (Tantipongpipat et al. 2019): the rank-`k` reduction that
#' minimises the largest per-group average **marginal loss**, the group's average squared
#' reconstruction error minus the group's own best rank-`k` error. Called through
#' [fair_pca()] with `method = "minmax"`; the arguments below go in `...` of [fair_pca()].
#'
#' **Problem.** With `C_g` the covariance of group `g` (about its own mean, divisor `n_g`) and
#' `a_g` the sum of its `k` largest eigenvalues, the loss of group `g` under a projection `P` is
#' `a_g - <C_g, P>`. The semidefinite relaxation over `F = {P: 0 <= P <= I, tr P = k}` has the
#' dual
#' \deqn{\max_{w \in \Delta} \sum_g w_g a_g - \lambda_{1..k}(\sum_g w_g C_g),}{max over w in the simplex of sum_g w_g a_g - (sum of the k largest eigenvalues of sum_g w_g C_g),}
#' a concave maximisation over `m - 1` dimensions whose supergradients are the group losses of
#' the top-`k` eigenprojector of `sum_g w_g C_g`.
#'
#' **Solvers.**
#' * `solver = "exact"` (default) maximises this dual to a certified duality gap: every
#'   evaluation gives a lower bound, and convex combinations of the evaluated projections give
#'   primal solutions whose losses are the same combinations of the loss vectors (an upper
#'   bound). Two groups: secant steps on the supergradient `D(t) = loss_1 - loss_2` of the
#'   one weight `t`, safeguarded by the bracket `D(t_lo) > 0 > D(t_hi)`, cutting-plane and
#'   bisection steps, until one oracle projection (rank `k`) is certified to the relative gap
#'   `gap_tol` (default `1e-9`; typically 5 to 20 eigensolves, warm-started Lanczos when `k` is
#'   small relative to `d`). When the optimal weight sits at a tie between the k-th and
#'   (k+1)-th eigenvalues (a kink of the dual, where no single oracle projection is optimal),
#'   the bracket is shrunk around the kink and a rank-`k` basis with equal group losses is
#'   built by rotating inside the subspace where the projections on its two sides differ
#'   (closed form: eigenvectors of the restricted `C_1 - C_2` are swapped one at a time, the
#'   last one by a partial rotation). If that fails the LP rounding below is used (rank
#'   `k + 1`). More groups (`dual = "interior"`, the default): the sum of the `k` largest
#'   eigenvalues is smoothed by the Fermi-Dirac entropy with parameter `mu` (its maximiser
#'   `X_mu = U diag(sigma((l_i - nu) / mu)) U'` lies in the Fantope), a log barrier keeps the
#'   weights inside the simplex, and Newton steps (exact Hessian of the spectral function, one
#'   eigendecomposition each) follow the path `mu -> 0`; each time `mu` shrinks tenfold, the
#'   next centre is predicted along the path's tangent (from the Hessian at hand) and kept when
#'   the smoothed objective is higher there. Every iterate gives an exact lower bound
#'   `g(w)`. The primal is recovered on a subspace: the eigenvectors that carry `X_mu`, plus two,
#'   span a small problem (r-by-r matrices) solved by a primal barrier method on the Fantope,
#'   whose solution is feasible for the full problem and whose multipliers are checked by one
#'   more eigendecomposition of the full weighted sum. When `d` is large (Lanczos territory:
#'   `d >= 120` and `3k < d`) the same small problems are solved on a subspace grown by column
#'   generation: each full top-`(k + p)` eigensolve at the restricted problem's weights gives the
#'   exact lower bound and the eigenvectors added to the subspace. Typical numbers of full
#'   eigensolves at the default `gap_tol = 1e-8`: 5 to 10 for 3 groups, 8 to 15 for 5, 15 to 25
#'   for 8, 20 to 40 for 12 and 30 to 90 for 20 groups of small `d`; 6 to 15 at large `d`
#'   (`inner_eigensolves` counts the small ones). If this does not certify within `maxit`,
#'   or the small problem's primal is within twice `gap_tol` but its weights cannot certify it
#'   (near a kink of the dual; the first time for up to 4 groups, the second time for more),
#'   Kelley's cutting-plane method takes over from its evaluations. `dual = "kelley"` uses
#'   Kelley's method alone (master problem solved exactly by a simplex method, stabilised by
#'   Wentges smoothing towards the best weights so far, with a fall-back to the master's point
#'   when its cut does not cut it off), about 25 evaluations for 3 groups, 45 for 5, 80 for 8
#'   and 100 to 220 for 12. Both stop at the relative gap `gap_tol` (default `1e-8` when more than
#'   two groups) or after `maxit` evaluations (`converged` says which). The primal
#'   combination is then rounded by Samadi et al.'s linear programme on its eigenbasis, solved
#'   to a **vertex** (at most m fractional weights, so rank at most `k + m - 1`), and then
#'   reduced iteratively (`reduce_rank`, after Tantipongpipat et al. 2019): inside the span of
#'   the fractional eigenvectors the solution moves along a direction that keeps every group's
#'   loss and the trace fixed until a weight reaches 0 or 1, while r fractional weights satisfy
#'   `r(r + 1)/2 > m`. This reaches their bound `k + floor(sqrt(2m + 1/4) - 3/2)` (k + 1 for
#'   3 to 5 groups, k + 2 for 6 to 9) at the same objective; each move is checked to leave the
#'   largest loss unchanged to a tenth of `gap_tol`.
#' * `solver = "mw"`: multiplicative weights exactly as in Samadi et al.'s Appendix A: start
#'   from uniform weights, the oracle returns the top-`k` eigenvectors of `sum_g w_g C_g`,
#'   weights are updated by `w_g <- w_g exp(eta * loss_g)` and renormalised, for `iterations`
#'   steps; the average or the last iterate is kept (`keep = "better"`, the paper's practice,
#'   keeps the one with the smaller largest loss). Then, with `lp = TRUE` (the paper's
#'   Algorithm 1), the LP vertex rounding on the eigenbasis of the kept matrix (restricted to
#'   its range); `lp = FALSE` applies the square-root map to the MW matrix directly, as the
#'   authors' public code does (no rank guarantee). The public code used `eta = 1, iterations
#'   = 10` on credit and `eta = 20 / k, iterations = 5` on LFW. When the weights pile on groups
#'   of rank below `k` (e.g. a group with fewer than `k + 1` rows), `sum_g w_g C_g` resolves
#'   fewer than `k` eigenvalues (the others below `1e-10` of the largest are rounding noise);
#'   the oracle then completes its basis with the limit of the exact answer as the small
#'   weights shrink: the top vectors of the other groups' weighted covariances off the resolved
#'   directions. So MW, converged or not, gives the same subspace whatever the units.
#'
#' **What is returned.** The candidates are the solver's solution (rounded as below), for the
#' exact solver its best rank-`k` oracle projection, and standard PCA; the best of them is
#' returned (`returned` says which), so the largest marginal loss is never above standard
#' PCA's. `fallback = FALSE` returns the solver's own solution whatever its value (as the
#' papers' code does, e.g. to reproduce MW's published numbers), with a warning when it is
#' worse than standard PCA. `duality_gap` is the returned objective minus the dual bound, and `converged` is
#' `TRUE` when it is at most `gap_tol` times the larger of the objective and 1% of the largest
#' group's best rank-`k` variance (a loss a million times smaller than the variances it is
#' the difference of cannot be certified to `gap_tol` of itself in double precision). Otherwise,
#' and whenever standard PCA had to be returned, a warning of class
#' `fairproj_convergence_warning` is given. MW's `eta` multiplies the group losses divided by
#' the average column variance (`eta_units = "normalised"`, default), so MW gives the same
#' subspace whatever the units of the data, and on standardised data (`scale. = TRUE`) this is
#' the paper's step; `eta_units = "data"` multiplies losses in the data's units, the paper's
#' convention on unstandardised data (its LFW runs), which must then be scaled with the data.
#' The exact solver has no parameter with units. The options of one solver given with the other
#' (`maxit` or `dual` with `solver = "mw"`; `eta`, `iterations`, `keep` or `eta_units` with
#' `solver = "exact"`) are an input error naming the option, not ignored.
#'
#' **Output map.** When the rounded solution has fractional weights `lambda` on eigenvectors
#' `u_j`, the reconstruction is Samadi et al.'s "affine projection" with the square-root
#' rounding `lambda*_j = 1 - sqrt(1 - lambda_j)`: the map `sum_j lambda*_j u_j u_j'` (stored in
#' `map`) has rank above `k` and each group's error equals the linear LP value exactly, because
#' `2 lambda* - lambda*^2 = lambda`. `rotation` is then an orthonormal basis of its range,
#' [reconstruct()] applies the map, and `predict()` returns the coordinates of the
#' reconstruction in `rotation` (so `reconstruct = center + scale * predict %*% t(rotation)`);
#' `sdev` holds their standard deviations (the components ordered by them, uncorrelated, as
#' [stats::prcomp()]'s), and `var_explained` the fraction of the total variance the map keeps
#' (1 - its squared error about the pooled mean / `totalvar`), which `glance()`, `summary()` and
#' [variance_explained()] report: more than the scores' variances add to, because the map
#' shrinks the directions it keeps.
#' The fit also keeps its factors, `map_basis` (the `u_j`, d x rank) and `map_weights` (the
#' `lambda*_j`), from which the diagnostics and the audit work; on the row route the d x d map
#' is not formed and `predict()`, [reconstruct()], [group_errors()], print and summary work from
#' the factors alone.
#'
#' **Wide data.** From rows, [fair_pca()]'s row route (`route = "rows"`, or `"auto"` at 500
#' columns or more where its estimated cost favours it) serves `solver = "exact"` with
#' `objective = "loss"` and `centering = "group"` without forming a d x d matrix: the exact
#' solver runs on the group covariances projected on a subspace (r x r matrices from one
#' product of the rows with its basis; the offsets `a_g` are the full problem's, from each
#' group's Lanczos or Gram eigensolve), whose solution is feasible for the full problem and
#' whose losses are exact; at its weights one Lanczos eigensolve of the full weighted sum
#' `sum_g w_g C_g` (products with the rows, warm-started) gives the exact dual bound and, when
#' the gap is above `gap_tol`, the top `k + m` eigenvectors that join the subspace (column
#' generation from the span of standard PCA's and each group's top `k`). The certificate is that
#' of the full problem; `subspace` gives the number of rounds and the subspace's final
#' dimension. The other options need `route = "moments"` (a forced `"rows"` is an error naming
#' `route`).
#'
#' **Many groups.** Each cut of the exact solver's dual solves Newton systems over the m group
#' weights, about \eqn{4 \cdot 10^{-8} m^3} seconds in all, and the LP rounding (`lp = TRUE`)
#' about \eqn{1.4 \cdot 10^{-12} m^4}: negligible for tens of groups, 5-60 s at 400-800. A fit
#' estimated to take longer than the time limit (`options(fairproj.time_limit = )`, in seconds,
#' default 60; about 1,100 groups) is refused up front with an error of class
#' `fairproj_cost_error` naming `group` (a continuous attribute given as the group is the usual
#' cause); `solver = "mw", lp = FALSE` takes a fixed number of steps of \eqn{O(m d^2)}.
#'
#' **Centring.** As in the paper, each group's loss is measured on the group centred at its own
#' mean (`centering = "group"`); `centering = "global"` uses each group's second moment about
#' the common centre of [fair_pca()] instead (the data are then not re-centred per group).
#' `group_stats` of the result always reports the group-centred errors.
#'
#' **Objective.** `objective = "loss"` (default) minimises the largest marginal loss;
#' `objective = "variance"` maximises the smallest per-group variance explained
#' `<C_g, P>` (the "MM_Var" criterion of Tantipongpipat et al.), by the same machinery.
#'
#' @section Arguments (passed through `...` of [fair_pca()]):
#' 
#' * `solver`: `"exact"` or `"mw"` (see Details).
#' * `objective`: `"loss"` (min-max marginal loss) or `"variance"` (max-min variance).
#' * `centering`: `"group"` (the paper's) or `"global"` (see Details).
#' * `gap_tol`: Relative duality gap at which the exact solver stops (not `tol`, which in
#'   [stats::prcomp()] omits small components); default `1e-9` for two
#'  groups, `1e-8` for more.
#' * `maxit`: Largest number of dual evaluations (eigensolves) of the exact solver.
#' * `dual`: For more than two groups, `"interior"` (default) or `"kelley"` (see Details).
#' * `fallback`: Logical; return the best of the candidates (default `TRUE`) or the solver's own
#'  solution (`FALSE`, see Details).
#' * `eta`, `iterations`: Step size and number of iterations of `"mw"`.
#' * `eta_units`: `"normalised"` (default: `eta` multiplies losses relative to the average
#'  column variance, scale-free) or `"data"` (losses in the data's units, as Samadi et al.'s
#'  code on raw pixel data).
#' * `keep`: Which MW iterate to keep: `"better"`, `"average"` or `"last"`.
#' * `reduce_rank`: Logical; reduce the rank of a fractional solution to the bound of
#'  Tantipongpipat et al. (see Details). Default `TRUE` for `"exact"`, `FALSE` for `"mw"` (the
#'  paper's output).
#' * `lp`: Logical; round by the vertex LP (`TRUE`). For `"exact"` with two groups the LP is
#'  only used when the rank-`k` rotation does not reach the optimum.
#' @section Value:
#' The `fair_pca_minmax` object has, besides the common
#'   fields: `objective` (largest loss, or smallest variance explained), `losses` (per group,
#'   in the solver's centring), `variances` (`<C_g, P>` per group), `best_variance` (each
#'   group's best rank-`k` variance `a_g`), `weights` (the optimal
#'   dual group weights), `lower_bound` (the dual value), `duality_gap` (objective minus the
#'   dual bound, for `"variance"` the bound minus the objective), `history` (data.frame with
#'   `objective` per iteration), `converged`, `rank`, `lambda` (the LP weights on the basis
#'   when rounded), `map`, `map_basis` and `map_weights` (when `rank > k`; on the row route
#'   the factors alone, see Details), `solver`, `eigensolves` (full eigensolves),
#'   `inner_eigensolves` and `dual` (the exact solver's dual method: `"secant"` for two
#'   groups, `"interior"`, `"interior+kelley"` or `"kelley"`), `returned` (which
#'   candidate was returned, see Details), `rank_before_reduction`, and on the row route
#'   `subspace` (rounds of column generation and the subspace's dimension; `eigensolves` then
#'   counts the full eigensolves on the rows, `inner_eigensolves` those of the projected
#'   problems).
#' @references Samadi, S., Tantipongpipat, U., Morgenstern, J., Singh, M. and Vempala, S.
#'   (2018). The price of fair PCA: one extra dimension. NeurIPS 31.
#'
#'   Tantipongpipat, U., Samadi, S., Singh, M., Morgenstern, J. and Vempala, S. (2019).
#'   Multi-criteria dimensionality reduction with applications to fairness. NeurIPS 32.
#' @seealso [fair_pca()], [plot.fair_pca()] (`type = "loss"`), [group_errors()].
#' @examples
#' if (requireNamespace("survival", quietly = TRUE)) {
#'   pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#'   fit <- fair_pca(pbc2[1:6], pbc2$sex, k = 1, method = "minmax", scale. = TRUE)
#'   fit$group_stats      # equal marginal losses
#'   fit$duality_gap
#' }
#' if (requireNamespace("MASS", quietly = TRUE)) {
#'   bw <- within(MASS::birthwt, race <- factor(race, 1:3, c("white", "black", "other")))
#'   x <- bw[c("age", "lwt", "ptl", "ftv", "bwt")]
#'   fit3 <- fair_pca(x, bw$race, k = 2, method = "minmax", scale. = TRUE)
#'   fit3$rank            # at most k + 2 with three groups
#'   fmw <- fair_pca(x, bw$race, k = 2, method = "minmax", solver = "mw", scale. = TRUE,
#'                   eta = 1, iterations = 50)
#'   c(exact = fit3$objective, mw = fmw$objective)
#' }
#' @name minmax
#' @aliases fit_pca_minmax fair_pca_minmax
NULL

# Refuses up front a fit estimated to take longer than the time limit (fp_check_cost()). With
# m groups two parts grow fast: each cut of the exact solver's dual solves Newton systems over
# the m group weights, O(m^3), about 4e-8 m^3 seconds for a typical 75 cuts (measured at d = 6
# and 30, 60 rows per group: 400 groups 5-9 s with 150 cuts, 800 groups 7 s with 37 cuts and
# 56 s with 156); and the LP rounding (`lp = TRUE`, both solvers) pivots a dense tableau with a
# row and two columns per group, about 1.4e-12 m^4 seconds (the MW solver: 1,000 groups 1.4 s,
# 2,000 groups 18 s). A continuous attribute given as the group (15,000 groups) ran for more
# than 5 minutes unannounced before this check.
fp_minmax_cost <- function(m, solver = "exact", lp = TRUE) {
  m <- as.numeric(m)
  (if (solver == "exact") 4e-8 * m^3 else 0) + (if (isTRUE(lp)) 1.4e-12 * m^4 else 0)
}
fp_minmax_check_cost <- function(m, solver, lp) {
  fp_check_cost(fp_minmax_cost(m, solver, lp), sprintf("method \"minmax\" (solver \"%s\"%s) over %s groups", solver,
                              if (lp) " with its LP rounding" else "", format(m, big.mark = ",")),
                "merge small groups, or use solver = \"mw\" with lp = FALSE (a fixed number of steps)", arg = "group")
}

fit_pca_minmax <- function(prep, k, solver = c("exact", "mw"), objective = c("loss", "variance"),
                           centering = c("group", "global"), gap_tol = NULL, maxit = 300L, eta = 1,
                           iterations = 10L, keep = c("better", "average", "last"), lp = TRUE,
                           reduce_rank = NULL, dual = c("interior", "kelley"), fallback = TRUE,
                           eta_units = c("normalised", "data"), data = NULL) {
  solver <- fp_match_arg(solver, c("exact", "mw"), "solver")
  # an option of one solver given to the other is an error, not ignored
  given <- c(maxit = !missing(maxit), dual = !missing(dual), eta = !missing(eta), iterations = !missing(iterations),
             keep = !missing(keep), eta_units = !missing(eta_units))
  fp_minmax_check_solver_options(solver, names(given)[given])
  dual <- fp_match_arg(dual, c("interior", "kelley"), "dual")
  objective <- fp_match_arg(objective, c("loss", "variance"), "objective")
  centering <- fp_match_arg(centering, c("group", "global"), "centering")
  keep <- fp_match_arg(keep, c("better", "average", "last"), "keep")
  eta_units <- fp_match_arg(eta_units, c("normalised", "data"), "eta_units")
  fp_check_flag(lp, "lp")
  fp_check_flag(fallback, "fallback")
  if (is.null(reduce_rank)) reduce_rank <- solver == "exact"
  fp_check_flag(reduce_rank, "reduce_rank")
  m <- length(prep$levels)
  tol <- if (is.null(gap_tol)) (if (m == 2L) 1e-9 else 1e-8) else gap_tol
  fp_check_number(tol, "gap_tol", 0, 1)
  maxit <- fp_check_count(maxit, 1L, 1e6, "maxit")
  fp_check_number(eta, "eta", 0, Inf, open_lower = TRUE)
  iterations <- fp_check_count(iterations, 1L, 1e7, "iterations")
  fp_minmax_check_cost(m, solver, lp)
  if (!is.null(prep$rows)) {
    # the row route (issue #48): the exact solver on a subspace grown by column generation
    if (solver != "exact" || objective != "loss" || centering != "group") {
      fp_abort("= \"rows\" serves method \"minmax\" with solver = \"exact\", objective = \"loss\" and centering = \"group\": use route = \"moments\" or \"auto\"", "route")
    }
    return(fp_minmax_rows(prep, k, tol, maxit, dual, lp, fallback, reduce_rank))
  }
  pb <- fp_minmax_problem(prep, k, objective, centering)
  # the solver's losses are in normalised units; with eta_units = "data" `eta` multiplies
  # losses in the data's units
  eta_solver <- if (eta_units == "data") eta * prep$unit else eta
  run <- fp_minmax_run(pb, k, solver, dual, tol, maxit, lp, eta_solver, iterations, keep)
  res <- run$res
  std <- list(V = fp_prep_eig(prep, k)$vectors, lambda = NULL, err = if (pb$covs_are_prep) fp_prep_std_errors(prep, k))
  pick <- fp_minmax_pick(res, pb, std, k, solver, tol, fallback, reduce_rank)
  sel <- pick$sel
  V <- pick$V
  lambda <- pick$lambda
  rank_before <- pick$rank_before
  same <- pick$same
  cert <- fp_minmax_certificate(pb, V, lambda, res, run$hist, tol, prep$levels, if (same) sel$eval)
  fp_minmax_warn(cert, sel, pb, solver, tol, prep$unit, prep$scaled)
  out <- fp_minmax_result(V, lambda, cert, res, pb, prep, solver, sel$chosen, rank_before)
  if (solver == "mw") {
    out$iterate <- res$iterate
    out$mw <- list(eta = eta, eta_units = eta_units, iterations = iterations, keep = keep, lp = lp,
                   weights_history = res$weights_history)
  }
  out
}

# The problem the min-max solvers see, in normalised units: the m symmetric group matrices
# (covariances about the group means, or second moments with centering = "global"), each
# group's best rank-k variance `best`, the shift that turns variances into the solver's losses,
# and `err_best`, each group's best rank-k error, from which losses keep the precision of the
# errors (NULL where the losses are not measured from errors). The group matrices are read
# through fp_minmax_cov(): `covs` where the problem holds them, else (`lazy`, issue #48: a
# prepared problem that keeps no group matrices) built one at a time into the prepared
# problem's work matrix, in R and in the compiled solver alike (C, and the solver's weighted
# sum sum_g w_g C_g, too), so that a fit holds that one d x d matrix, whatever the number of
# groups, and at its end a rounded map's.
fp_minmax_problem <- function(prep, k, objective, centering) {
  m <- length(prep$levels)
  second <- centering == "global"
  lazy <- !is.null(fp_prep_lazy_groups(prep, second))
  covs <- NULL
  if (!lazy) {
    covs <- stats::setNames(lapply(seq_len(m), function(i) fp_prep_group(prep, i, second, new = TRUE)), prep$levels)
    # exactly symmetric matrices (as prepared problems' are) are used as they are, without the
    # copies of (s + t(s)) / 2, which would return the same values
    covs <- lapply(covs, function(s) if (fp_is_symmetric_exact(s)) s else { s <- unname(as.matrix(s)); (s + t(s)) / 2 })
  }
  pb <- list(covs = covs, lazy = lazy, prep = if (lazy) prep, second = second, m = m, names = prep$levels)
  cov_i <- function(i) fp_minmax_cov(pb, i)
  best <- if (!second) fp_group_topsum(prep, k) else vapply(seq_len(m), function(i) sum(fp_eig_top(cov_i(i), k)$values), numeric(1))
  # each group's trace once (the errors of every candidate start from it), and whether the
  # matrices are prep$cov's values (then the errors of standard PCA cached in prep are theirs)
  tr <- vapply(seq_len(m), function(i) sum(diag(cov_i(i))), numeric(1), USE.NAMES = FALSE)
  shift <- if (objective == "loss") best else rep(max(tr), m)
  same <- !second && (lazy || all(vapply(seq_len(m), function(i) {
    identical(prep$cov[[i]], covs[[i]]) || identical(unname(prep$cov[[i]]), unname(covs[[i]]))
  }, NA)))
  c(pb, list(best = best, shift = shift, objective = objective, centering = centering,
             err_best = if (!second && objective == "loss") fp_group_best(prep, k) else NULL,
             tr = tr, covs_are_prep = same, stack = if (!is.null(covs)) fp_quad_stack(covs)))
}

# The candidate a fit returns (fp_minmax_select() over fp_minmax_candidates()), its rank reduced
# where it is a rounded map and `reduce_rank` asks; `same` when the reduction left it as selected
# (then the selection's evaluation stands for it), `rank_before` its rank before.
fp_minmax_pick <- function(res, pb, std, k, solver, tol, fallback, reduce_rank) {
  sel <- fp_minmax_select(fp_minmax_candidates(res, pb, std, k, solver, tol), pb, fallback)
  V <- sel$V
  lambda <- sel$lambda
  if (!is.null(lambda) && reduce_rank) {
    red <- fp_minmax_reduce_rank(V, lambda, pb, k, function(pv) fp_minmax_value(pb, pv),
                                 function(v) fp_minmax_gscale(pb, v), tol)
    V <- red$V
    lambda <- red$lambda
  }
  list(sel = sel, V = V, lambda = lambda, rank_before = ncol(sel$V),
       same = identical(V, sel$V) && identical(lambda, sel$lambda))
}

# The number of columns from which fair_pca() prepares min-max's problem without its group
# matrices (fp_minmax_problem()'s `lazy`): at 100 columns a group's matrix is 80 KB.
fp_minmax_lazy_min_d <- 100L

# Group i's matrix of a min-max problem (fp_minmax_problem()): valid until the next call for
# another group (a lazy problem's work matrix), so callers use it at once.
fp_minmax_cov <- function(pb, i) {
  if (!is.null(pb$covs)) pb$covs[[i]] else fp_prep_group(pb$prep, i, pb$second)
}

# fp_quad_blocks() on the problem's group matrices: stacked where the problem holds them, else
# group by group through fp_minmax_cov().
fp_minmax_quad <- function(pb, V) {
  if (!is.null(pb$covs)) return(fp_quad_blocks(pb$covs, V, pb$stack))
  cs <- matrix(0, ncol(V), pb$m)
  tot <- numeric(pb$m)
  for (g in seq_len(pb$m)) {
    P <- (fp_minmax_cov(pb, g) %*% V) * V
    cs[, g] <- colSums(P)
    tot[g] <- sum(P)
  }
  list(cs = cs, tot = tot)
}

# The compiled solver on the problem, and its history as a data.frame.
# The options that belong to one solver only (`given`: the names of the arguments the call gave):
# maxit and dual to the exact solver, eta, iterations, keep and eta_units to multiplicative
# weights. One given with the other solver is an input error naming it.
fp_minmax_check_solver_options <- function(solver, given) {
  own <- list(exact = c("maxit", "dual"), mw = c("eta", "iterations", "keep", "eta_units"))
  other <- setdiff(names(own), solver)
  wrong <- intersect(given, own[[other]])
  if (length(wrong)) {
    fp_abort(sprintf("applies to solver = \"%s\" only, not to solver = \"%s\"; drop it or set solver = \"%s\"",
                     other, solver, other), wrong[1])
  }
  invisible(NULL)
}

fp_minmax_run <- function(pb, k, solver, dual, tol, maxit, lp, eta_solver, iterations, keep) {
  m <- pb$m
  if (solver == "exact") {
    # the solver stops at half the tolerance, so that the certificate of the returned (rounded)
    # solution stays within `tol`
    # m > 2: the interior (smoothed dual) method with subspace primal recovery; Kelley's
    # cutting planes with Wentges smoothing (weight 0.4 for 3 groups, 0.8 from 5 on) as the
    # fall-back or with dual = "kelley"
    opts <- list(k = as.integer(k), lp = lp,
                 exact = list(gap_tol = 0.5 * tol, maxit = as.integer(maxit), smooth = min(0.8, 0.2 * (m - 1)),
                              dual = if (dual == "interior") 1L else 0L))
    # a lazy problem's work matrix is handed over (and marked as holding no group) at the call
    if (isTRUE(pb$lazy)) opts$lazy <- fp_prep_lazy_groups(pb$prep, pb$second)
    res <- fp_cpp(.fp_minmax_exact(if (is.null(pb$covs)) list() else pb$covs, pb$shift, opts), "the exact min-max solver")
    hist <- fp_df(list(iteration = seq_along(res$history_upper), objective = res$history_upper,
                         lower = res$history_lower))
  } else {
    opts <- list(k = as.integer(k), lp = lp, mw = list(eta = eta_solver, iterations = as.integer(iterations), keep = keep))
    if (isTRUE(pb$lazy)) opts$lazy <- fp_prep_lazy_groups(pb$prep, pb$second)
    res <- fp_cpp(.fp_minmax_mw(if (is.null(pb$covs)) list() else pb$covs, pb$shift, opts), "multiplicative weights")
    hist <- data.frame(iteration = seq_along(res$history_last),
                       objective = pmin(res$history_last, res$history_average),
                       last = res$history_last, average = res$history_average,
                       lower = res$history_lower)
  }
  list(res = res, hist = hist)
}

# The objective of per-group variances `pv`, whether `a` is better than `b`, and the scale on
# which gaps are measured: the objective, but at least 1% of the largest group's best rank-k
# variance (a largest loss of 1e-6 times the variances it is the difference of cannot be
# certified to 1e-8 of itself in double precision).
fp_minmax_value <- function(pb, pv) if (pb$objective == "loss") max(pb$best - pv) else min(pv)
fp_minmax_better <- function(pb, a, b) if (pb$objective == "loss") a < b else a > b
fp_minmax_gscale <- function(pb, v) max(abs(v), 0.01 * max(abs(pb$best)), 1e-300)

# The losses of a projection, best rank-k variance minus the variance kept, cancel to the
# precision of the variances; as the error outside the subspace minus the best error they
# keep the precision of the errors (fp_residual_trace, fp_group_best), which matters where
# the kept variance dwarfs the rest (a variable in units far above the others'). The
# candidates are compared, and the returned one reported, on those.
# The variance each group keeps in span(V) (or under the weights `lam` on the columns of V) and
# the losses of a candidate, from one product of the stacked group matrices (pb$stack) with V
# (fp_quad_blocks()); `err`, the errors outside span(V) when already known (those of standard
# PCA, cached in prep by fp_prep_std_errors()), is used as it is.
fp_minmax_eval <- function(pb, V, lam = NULL, err = NULL) {
  m <- pb$m
  from_err <- !is.null(pb$err_best) && is.null(lam)
  need_err <- from_err && is.null(err)
  qb <- fp_minmax_quad(pb, V)
  pv <- if (is.null(lam)) colSums(qb$cs) else colSums(qb$cs * lam)
  if (need_err) {
    e <- pb$tr - qb$tot
    err <- vapply(seq_len(m), function(i) fp_residual_trace(fp_minmax_cov(pb, i), V, e[i], pb$tr[i]), numeric(1))
  }
  names(pv) <- pb$names
  list(pvar = pv, losses = if (from_err) err - pb$err_best else pb$best - pv)
}

fp_minmax_cand_value <- function(pb, V, lam = NULL, ev = fp_minmax_eval(pb, V, lam)) {
  if (pb$objective == "loss") max(ev$losses) else min(ev$pvar)
}

# Candidates, all evaluated on the same problem: the solver's solution (a rank-k basis, or LP
# weights on a basis rounded by the square-root map), the best single oracle projection
# (rank k) and standard PCA (`std`: its V, lambda and, when known, its errors).
fp_minmax_candidates <- function(res, pb, std, k, solver, tol) {
  cand <- list()
  if (!is.null(res$lambda) && !is.null(res$basis)) {
    U <- res$basis
    lam0 <- as.numeric(res$lambda)
    lp_ok <- is.matrix(U) && ncol(U) >= 1L && length(lam0) == ncol(U) && all(is.finite(lam0)) &&
      all(lam0 >= -1e-8) && all(lam0 <= 1 + 1e-8) && sum(lam0) <= k + 1e-7 && all(is.finite(U)) &&
      (is.null(res$lp_status) || identical(as.integer(res$lp_status), 0L))
    if (lp_ok) {
      lam <- fp_minmax_snap(lam0, U, pb, k, 0.25 * tol)
      on <- lam > 0
      if (any(on)) {
        cand$solver <- list(V = U[, on, drop = FALSE], lambda = if (sum(on) == k && all(lam[on] == 1)) NULL else lam[on])
      }
    }
  }
  if (is.null(cand$solver) && !is.null(res$rotation)) cand$solver <- list(V = res$rotation, lambda = NULL)
  if (!is.null(res$best_single) && solver == "exact") cand$single <- list(V = res$best_single, lambda = NULL)
  cand$standard <- std
  Filter(function(cn) is.matrix(cn$V) && ncol(cn$V) >= 1L && all(is.finite(cn$V)), cand)
}

# The best candidate (its V, lambda and name, and whether it is the solver's own solution
# although standard PCA is clearly better, with fallback = FALSE). A clear difference between
# candidates is beyond 1e-12 of the certificate's scale, or with the losses from the errors,
# beyond 1e-8 of the errors' (their precision at worst); the solver's own solution is preferred
# at ties.
fp_minmax_select <- function(cand, pb, fallback) {
  evs <- lapply(cand, function(cn) fp_minmax_eval(pb, cn$V, cn$lambda, cn$err))
  vals <- vapply(seq_along(cand), function(i) fp_minmax_cand_value(pb, ev = evs[[i]]), numeric(1))
  names(vals) <- names(cand)
  clear <- function(a, b) {
    tol_cmp <- if (is.null(pb$err_best)) 1e-12 * fp_minmax_gscale(pb, b) else 1e-8 * max(abs(b), 0.01 * max(abs(pb$err_best)), 1e-300)
    isTRUE(fp_minmax_better(pb, a, b)) && abs(a - b) > tol_cmp
  }
  pick <- 1L
  if (fallback || names(cand)[1L] != "solver") {
    for (i in seq_along(cand)[-1L]) if (clear(vals[i], vals[pick])) pick <- i
  }
  chosen <- names(cand)[pick]
  list(V = cand[[pick]]$V, lambda = cand[[pick]]$lambda, chosen = chosen, eval = evs[[pick]],
       worse_than_pca = !fallback && chosen == "solver" && "standard" %in% names(cand) &&
         clear(vals[["standard"]], vals[pick]))
}

# The returned solution's variances, losses, objective and certificate: the solver's lower bound
# (an upper bound on the max-min variance with objective = "variance", where the history is
# mapped to variances too) and the gap between them, in normalised units. `ev`: the
# candidate's fp_minmax_eval() when V and lambda are the selected candidate's.
fp_minmax_certificate <- function(pb, V, lambda, res, hist, tol, levels, ev = NULL) {
  if (is.null(ev)) ev <- fp_minmax_eval(pb, V, lambda)
  pvar <- ev$pvar
  losses <- if (pb$objective == "loss") ev$losses else pb$best - pvar
  names(losses) <- names(pvar) <- levels
  if (pb$objective == "loss") {
    obj <- max(losses)
    # a loss is never negative (a_g is the group's best rank-k variance, the largest over the
    # Fantope too), so 0 is a lower bound whatever the dual reached: at k >= the data's rank the
    # losses are rounding and 0 certifies them
    lower <- max(res$lower, 0)
    gap <- obj - lower
  } else {
    s1 <- pb$shift[1]
    obj <- min(pvar)
    lower <- s1 - res$lower
    gap <- lower - obj
    hist$objective <- s1 - hist$objective
    hist$lower <- s1 - hist$lower
    if (!is.null(hist$last)) { hist$last <- s1 - hist$last; hist$average <- s1 - hist$average }
  }
  list(variances = pvar, losses = losses, objective = obj, lower = lower, gap = gap, history = hist,
       converged = is.finite(gap) && gap <= tol * fp_minmax_gscale(pb, obj))
}

# Why no solver can do better: the losses are below `fp_minmax_unresolved` of the variance the
# groups' best rank-k subspaces capture, where the rounding of the solver's eigensolves leaves
# too few digits to equalise them. Near 0 at this k (k near the data's rank), or dwarfed by one
# variable's variance in the data's units (`scaled`: the fit already divides by the scales).
fp_minmax_unresolved <- 1e-10
fp_minmax_rounding_text <- function(obj, pb, unit, scaled) {
  sprintf(paste("the losses (about %.3g) are below %g of the variance the groups' best rank-k subspaces capture (about %.3g),",
                "too small for the solver's rounding to equalise; a smaller k leaves losses it can resolve%s"),
          abs(obj) * unit, fp_minmax_unresolved, max(abs(pb$best)) * unit,
          if (scaled) "" else ", and scale. = TRUE helps where one variable's variance dwarfs the others'")
}

# A classed warning when standard PCA replaced the solver's solution uncertified, when the returned solution
# is worse than standard PCA (fallback = FALSE), or when the gap is above `tol`.
fp_minmax_warn <- function(cert, sel, pb, solver, tol, unit, scaled) {
  obj <- cert$objective
  rel <- cert$gap / fp_minmax_gscale(pb, obj)
  # losses below the rounding of the variances the solver works with (a variable whose variance
  # dwarfs the others'): no solver can resolve them; rescaling the variables can
  unresolved <- pb$objective == "loss" && abs(obj) < fp_minmax_unresolved * max(abs(pb$best))
  # standard PCA returned and certified (at k >= the data's rank, say, where every loss is 0):
  # the solver's rounding lost to it, nothing for the user to do
  if (sel$chosen == "standard" && cert$converged) return(invisible())
  if (sel$chosen == "standard") {
    fp_warn_convergence(sprintf(
      "method 'minmax' (solver '%s'): the solver's solution was worse than standard PCA, which is returned instead (relative duality gap %.3g); %s",
      solver, rel,
      if (unresolved) fp_minmax_rounding_text(obj, pb, unit, scaled)
      else if (solver == "mw") "use solver = \"exact\" or more `iterations`" else "increase `maxit` or loosen `gap_tol`"))
  } else if (sel$worse_than_pca) {
    fp_warn_convergence(sprintf(
      "method 'minmax' (solver '%s', fallback = FALSE): the returned solution has a larger largest loss than standard PCA (relative duality gap %.3g)",
      solver, rel))
  } else if (!cert$converged) {
    fp_warn_convergence(sprintf(
      "method 'minmax' (solver '%s') stopped with a relative duality gap of %.3g above gap_tol = %.3g; %s",
      solver, rel, tol,
      if (unresolved) fp_minmax_rounding_text(obj, pb, unit, scaled)
      else if (solver == "mw") "use solver = \"exact\" or more `iterations`" else "increase `maxit`"))
  }
  invisible()
}

# The solver's result for new_fair_pca(), in the data's units (the solver worked on the
# normalised problem, see fp_prepare_normalised()); with LP weights, the square-root rounding
# as the linear map `map` and its factors `map_basis` (V) and `map_weights` (fp_has_map(); the
# diagnostics work from the factors, d x rank instead of d x d products), the factors alone
# with `factored` (the row route, which forms no d x d matrix).
fp_minmax_result <- function(V, lambda, cert, res, pb, prep, solver, chosen, rank_before, factored = FALSE) {
  objective <- pb$objective
  lstar <- if (!is.null(lambda)) 1 - sqrt(1 - pmin(lambda, 1))
  map <- if (!is.null(lambda) && !factored) V %*% (lstar * t(V))
  w <- as.numeric(res$weights)
  names(w) <- prep$levels
  dimnames(V) <- NULL
  hist <- cert$history
  out <- list(rotation = V, objective = cert$objective, objective_type = objective, losses = cert$losses,
              variances = cert$variances, best_variance = stats::setNames(pb$best, prep$levels), weights = w,
              lower_bound = cert$lower, duality_gap = cert$gap, history = hist,
              converged = cert$converged, rank = ncol(V), lambda = lambda, solver = solver,
              centering = pb$centering, eigensolves = res$eigensolves, returned = chosen,
              rank_before_reduction = rank_before)
  u <- prep$unit
  for (f in c("objective", "losses", "variances", "best_variance", "lower_bound", "duality_gap")) out[[f]] <- out[[f]] * u
  h <- unclass(hist)  # the columns set as list elements: no data.frame method per column
  for (f in intersect(names(h), c("objective", "lower", "last", "average"))) h[[f]] <- h[[f]] * u
  class(h) <- oldClass(hist)
  out$history <- h
  # the gap of the reported numbers themselves (not its own rounding of their difference)
  out$duality_gap <- if (objective == "loss") out$objective - out$lower_bound else out$lower_bound - out$objective
  if (solver == "exact") {
    out$dual <- if (is.null(res$dual)) "secant" else res$dual
    out$inner_eigensolves <- if (is.null(res$inner_eigensolves)) 0L else res$inner_eigensolves
  }
  if (!is.null(lambda)) {
    if (!is.null(map)) out$map <- map
    out$map_basis <- V
    out$map_weights <- lstar
    out$rounding <- "sqrt"
  }
  out
}

# Snap LP weights within `eps` of 0 or 1 to integers: always at 1e-9; at a looser threshold (up
# to 1e-5) when that changes the objective by at most the solver's tolerance (the exact
# solver's primal combination is only optimal to `tol`, so a weight of 1 - 1e-7 is a rounding
# artefact, not an extra dimension).
fp_minmax_snap <- function(lam, U, pb, k, tol) {
  lam <- pmin(pmax(lam, 0), 1)
  snap <- function(l, eps) {
    l[l < eps] <- 0
    l[l > 1 - eps] <- 1
    if (sum(l) > k + 1e-12) l <- NULL
    l
  }
  cg <- fp_minmax_quad(pb, U)$cs
  val <- function(l) max(pb$shift - colSums(cg * l))
  base <- snap(lam, 1e-9)
  if (is.null(base)) base <- lam
  v0 <- val(base)
  for (eps in c(1e-5, 1e-6, 1e-7, 1e-8)) {
    cand <- snap(lam, eps)
    if (!is.null(cand) && val(cand) <= v0 + tol * max(abs(v0), 1e-12)) return(cand)
  }
  base
}

#' @rdname predict.fair_pca
#' @export
predict.fair_pca_minmax <- function(object, newdata, ...) {
  fp_check_no_dots(...names(), ...length(), "predict() of a fair_pca fit", c("object", "newdata"))
  if (!fp_has_map(object)) return(NextMethod())
  if (missing(newdata)) {
    if (!is.null(object[["x"]])) return(object[["x"]])
    fp_abort("is missing and the fit kept no training scores", "newdata")
  }
  fp_map_scores(object, fp_match_newdata(object, newdata))
}

#' @export
print.fair_pca_minmax <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
  NextMethod()
  # a gap below 0 by rounding (at most 1e-8 of the total variance, the scale of the objective)
  # prints as 0; the stored value is kept, and a larger negative gap prints as it is
  gap <- x$duality_gap
  rounding <- isTRUE(gap < 0 && -gap <= 1e-8 * max(abs(c(x$lower_bound, x$objective, x$totalvar)), na.rm = TRUE))
  cat(sprintf("Solver \"%s\" (%s): dual bound %s, duality gap %s\n", x$solver,
              if (x$objective_type == "loss") "min-max marginal loss" else "max-min variance",
              format(x$lower_bound, digits = digits), if (rounding) "0 (to rounding)" else format(gap, digits = digits)))
  cat("Group weights: ", paste(sprintf("%s = %s", names(x$weights), format(x$weights, digits = digits)),
                               collapse = ", "), "\n", sep = "")
  if (fp_has_map(x)) {
    cat(sprintf("Rank %d = k + %d: Samadi et al.'s affine projection with square-root rounding lambda* = 1 - sqrt(1 - lambda).\n",
                x$rank, x$rank - x$k))
  }
  invisible(x)
}

# Iterative rank reduction (after Tantipongpipat et al. 2019): the solution P = U diag(lambda) U'
# with r fractional weights is moved, inside span(U_F) of its fractional eigenvectors, along a
# symmetric direction Delta with tr(Delta) = 0 and <U_F' C_g U_F, Delta> = 0 for every group
# (so every group's loss and the trace stay as they are) until an eigenvalue reaches 0 or 1;
# then re-diagonalised. A direction exists while r(r + 1)/2 exceeds m + 1, and at an optimum
# while it exceeds m (the constraints are then dependent, else all losses could be lowered),
# which gives rank <= k + floor(sqrt(2m + 1/4) - 3/2). Each move is accepted only if the
# largest loss does not grow beyond a tenth of the tolerance.
fp_minmax_reduce_rank <- function(V, lambda, pb, k, value, gscale, tol) {
  m <- pb$m
  pv <- function(V, lam) colSums(fp_minmax_quad(pb, V)$cs * lam)
  v0 <- value(pv(V, lambda))
  eps <- 1e-10  # a weight within eps of 0 or 1 is snapped to it
  for (iter in seq_len(4L * (ncol(V) + 1L))) {
    lambda[lambda < eps] <- 0
    lambda[lambda > 1 - eps] <- 1
    keep <- lambda > 0
    V <- V[, keep, drop = FALSE]
    lambda <- lambda[keep]
    Fr <- which(lambda < 1)
    r <- length(Fr)
    if (r * (r + 1) / 2 <= m || r < 2L) break
    UF <- V[, Fr, drop = FALSE]
    idx <- which(upper.tri(diag(r), diag = TRUE), arr.ind = TRUE)
    coef_of <- function(B) ifelse(idx[, 1] == idx[, 2], B[idx], 2 * B[idx])
    A <- rbind(t(vapply(seq_len(m), function(i) coef_of(crossprod(UF, fp_minmax_cov(pb, i) %*% UF)), numeric(nrow(idx)))),
               as.numeric(idx[, 1] == idx[, 2]))
    A <- A / pmax(sqrt(rowSums(A^2)), 1e-300)
    sv <- svd(A, nu = 0L, nv = ncol(A))
    delta <- sv$v[, ncol(A)]
    Dm <- matrix(0, r, r)
    Dm[idx] <- delta
    Dm[idx[, c(2, 1)]] <- delta
    D0 <- diag(lambda[Fr], r)
    ok_at <- function(t) {
      e <- eigen(D0 + t * Dm, symmetric = TRUE, only.values = TRUE)$values
      min(e) >= 0 && max(e) <= 1
    }
    hi <- 1
    while (ok_at(hi) && hi < 1e6) hi <- hi * 2
    lo <- 0
    for (b in 1:80) { mid <- (lo + hi) / 2; if (ok_at(mid)) lo <- mid else hi <- mid }
    e <- eigen(D0 + lo * Dm, symmetric = TRUE)
    mu <- pmin(pmax(e$values, 0), 1)
    Vn <- V
    Vn[, Fr] <- UF %*% e$vectors
    ln <- lambda
    ln[Fr] <- mu
    # the move must not change the objective beyond a tenth of the tolerance
    if (abs(value(pv(Vn, ln)) - v0) > 0.1 * tol * gscale(v0)) break
    if (min(mu, 1 - mu) > 1e-9) break  # no eigenvalue reached the boundary
    V <- Vn
    lambda <- ln
  }
  lambda[lambda < eps] <- 0
  lambda[lambda > 1 - eps] <- 1
  keep <- lambda > 0
  V <- V[, keep, drop = FALSE]
  lambda <- lambda[keep]
  if (ncol(V) == k && all(lambda == 1)) lambda <- NULL
  list(V = V, lambda = lambda)
}

# Min-max fair PCA by the row route (issue #48; solver "exact", objective "loss", centering
# "group"), forming no d x d matrix. The exact solver runs on the group covariances projected on
# a subspace span(Q) (r x r matrices Q' C_g Q from one product of the rows with Q), with each
# group's full best rank-k variance a_g as offsets: its solution P = Q P_r Q' lies in the
# Fantope and its losses a_g - <Q' C_g Q, P_r> are the full problem's, an upper bound. At its
# weights w, one Lanczos eigensolve of the full weighted sum sum_g w_g C_g (products with the
# rows, warm-started from the previous eigenvectors) gives the exact lower bound g(w) = w.a -
# lambda_1..k and, when the gap is above gap_tol, the top k + m eigenvectors, which join Q
# (column generation). Q starts as the span of standard PCA's and each group's top k.
fp_minmax_rows <- function(prep, k, tol, maxit, dual, lp, fallback, reduce_rank) {
  m <- length(prep$levels)
  eg <- lapply(seq_len(m), function(i) fp_rows_eig(prep, k, i))
  a <- vapply(eg, function(e) sum(e$values[seq_len(min(k, length(e$values)))]), numeric(1))
  es <- fp_rows_eig(prep, k)
  Vstd <- es$vectors
  # at k >= the rank of the group-centred rows every group's best error is 0 and span(Q) holds
  # all the rows: the losses are the errors outside the subspace, to their precision (a_g minus
  # the variance kept would cancel to the precision of the variances)
  # (rank < k: the solve found fewer than k non-zero values; rank <= k: at most k rows beyond the
  # groups' means)
  full_rank_k <- sum(es$values > 1e-12 * max(es$values[1L], 0)) < k || k >= sum(prep$n_held) - m
  err_best <- if (full_rank_k && es$values[1L] > 0) numeric(m)
  # (at least k columns: where the rows span fewer directions, completed by directions of variance 0)
  Q <- fp_pad_basis(fp_minmax_rows_basis(cbind(Vstd, do.call(cbind, lapply(eg, `[[`, "vectors"))), prep$d), k)
  lower <- -Inf
  w_best <- rep(1 / m, m)
  full <- m + 1L
  inner <- 0L
  init <- NULL
  hist <- NULL
  for (it in seq_len(maxit)) {
    S <- fp_rows_project(prep, Q)
    pbr <- list(covs = S, m = m, names = names(S), best = a, shift = a, objective = "loss", centering = "group", err_best = err_best,
                tr = vapply(S, function(s) sum(diag(s)), numeric(1), USE.NAMES = FALSE), covs_are_prep = FALSE)
    run <- fp_minmax_run(pbr, k, "exact", dual, tol, maxit, lp, 1, 10L, "better")
    res <- run$res
    inner <- inner + as.integer(res$eigensolves)
    e <- fp_rows_wsum_eig(prep, as.numeric(res$weights), min(k + m, prep$d - 1L), init)
    full <- full + 1L
    init <- rowSums(e$vectors[, seq_len(k), drop = FALSE])
    g_w <- sum(res$weights * a) - sum(e$values[seq_len(k)])
    if (g_w > lower) {
      lower <- g_w
      w_best <- as.numeric(res$weights)
    }
    std <- list(V = crossprod(Q, Vstd), lambda = NULL, err = NULL)
    pick <- fp_minmax_pick(res, pbr, std, k, "exact", tol, fallback, reduce_rank)
    sel <- pick$sel
    V <- pick$V
    lambda <- pick$lambda
    rank_before <- pick$rank_before
    same <- pick$same
    hist <- rbind(hist, fp_df(list(iteration = it, objective = fp_minmax_value(pbr, fp_minmax_eval(pbr, V, lambda)$pvar),
                                   lower = lower)))
    res$lower <- lower
    cert <- fp_minmax_certificate(pbr, V, lambda, res, hist, tol, prep$levels, if (same) sel$eval)
    Qn <- fp_minmax_rows_basis(cbind(Q, e$vectors), prep$d)
    if (cert$converged || ncol(Qn) == ncol(Q)) break
    Q <- Qn
  }
  fp_minmax_warn(cert, sel, pbr, "exact", tol, prep$unit, prep$scaled)
  res$weights <- w_best
  res$eigensolves <- full
  res$inner_eigensolves <- inner
  out <- fp_minmax_result(Q %*% V, lambda, cert, res, pbr, prep, "exact", sel$chosen, rank_before, factored = TRUE)
  out$subspace <- c(iterations = it, rank = ncol(Q))
  out
}

# An orthonormal basis of the span of the columns of M (d rows), directions below 1e-10 of the
# largest dropped.
fp_minmax_rows_basis <- function(M, d) {
  s <- svd(M, nv = 0L)
  keep <- s$d > 1e-10 * s$d[1L]
  s$u[, keep, drop = FALSE]
}
