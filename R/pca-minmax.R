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
#'   `tol` (default `1e-9`; typically 5 to 20 eigensolves, warm-started Lanczos when `k` is
#'   small relative to `d`). When the optimal weight sits at a tie between the k-th and
#'   (k+1)-th eigenvalues (a kink of the dual, where no single oracle projection is optimal),
#'   the bracket is shrunk around the kink and a rank-`k` basis with equal group losses is
#'   built by rotating inside the subspace where the projections on its two sides differ
#'   (closed form: eigenvectors of the restricted `C_1 - C_2` are swapped one at a time, the
#'   last one by a partial rotation). If that fails the LP rounding below is used (rank
#'   `k + 1`). More groups: Kelley's
#'   cutting-plane method (master problem solved exactly by a simplex method) to the relative
#'   gap `tol` (default `1e-8` when more than two groups) or `maxit` evaluations (`converged`
#'   says which; Kelley's method slows down with many groups: about 40 evaluations for 3
#'   groups, 90 for 5 and 150 for 8 at this tolerance in our tests); the primal
#'   combination is then rounded by Samadi et al.'s linear programme on its eigenbasis, solved
#'   to a **vertex** (at most m fractional weights, so rank at most `k + m - 1`). The lower rank
#'   bound `k + floor(sqrt(2m + 1/4) - 3/2)` of Tantipongpipat et al. (2019) needs their
#'   iterative SDP rank reduction, which is not implemented.
#' * `solver = "mw"`: multiplicative weights exactly as in Samadi et al.'s Appendix A: start
#'   from uniform weights, the oracle returns the top-`k` eigenvectors of `sum_g w_g C_g`,
#'   weights are updated by `w_g <- w_g exp(eta * loss_g)` and renormalised, for `iterations`
#'   steps; the average or the last iterate is kept (`keep = "better"`, the paper's practice,
#'   keeps the one with the smaller largest loss). Then, with `lp = TRUE` (the paper's
#'   Algorithm 1), the LP vertex rounding on the eigenbasis of the kept matrix (restricted to
#'   its range); `lp = FALSE` applies the square-root map to the MW matrix directly, as the
#'   authors' public code does (no rank guarantee). The public code used `eta = 1, iterations
#'   = 10` on credit and `eta = 20 / k, iterations = 5` on LFW.
#'
#' **Output map.** When the rounded solution has fractional weights `lambda` on eigenvectors
#' `u_j`, the reconstruction is Samadi et al.'s "affine projection" with the square-root
#' rounding `lambda*_j = 1 - sqrt(1 - lambda_j)`: the map `sum_j lambda*_j u_j u_j'` (stored in
#' `map`) has rank above `k` and each group's error equals the linear LP value exactly, because
#' `2 lambda* - lambda*^2 = lambda`. `rotation` is then an orthonormal basis of its range,
#' [reconstruct()] applies the map, and `predict()` returns the coordinates of the
#' reconstruction in `rotation` (so `reconstruct = center + scale * predict %*% t(rotation)`).
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
#' * `tol`: Relative duality gap at which the exact solver stops; default `1e-9` for two
#'  groups, `1e-8` for more.
#' * `maxit`: Largest number of dual evaluations (eigensolves) of the exact solver.
#' * `eta`, `iterations`: Step size and number of iterations of `"mw"`.
#' * `keep`: Which MW iterate to keep: `"better"`, `"average"` or `"last"`.
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
#'   when rounded), `map` (when `rank > k`), `solver`, `eigensolves`.
#' @references Samadi, S., Tantipongpipat, U., Morgenstern, J., Singh, M. and Vempala, S.
#'   (2018). The price of fair PCA: one extra dimension. NeurIPS 31.
#'
#'   Tantipongpipat, U., Samadi, S., Singh, M., Morgenstern, J. and Vempala, S. (2019).
#'   Multi-criteria dimensionality reduction with applications to fairness. NeurIPS 32.
#' @examples
#' x <- as.matrix(iris[, 1:4])
#' fit <- fair_pca(x, iris$Species == "setosa", k = 1, method = "minmax")
#' fit$group_stats      # equal marginal losses
#' fit$duality_gap
#' fit3 <- fair_pca(x, iris$Species, k = 2, method = "minmax")
#' fit3$rank            # at most k + 2 with three groups
#' fmw <- fair_pca(x, iris$Species, k = 2, method = "minmax", solver = "mw",
#'                 eta = 1, iterations = 50)
#' c(exact = fit3$objective, mw = fmw$objective)
#' @name minmax
#' @aliases fit_pca_minmax fair_pca_minmax
NULL

fit_pca_minmax <- function(prep, k, solver = c("exact", "mw"), objective = c("loss", "variance"),
                           centering = c("group", "global"), tol = NULL, maxit = 300L, eta = 1,
                           iterations = 10L, keep = c("better", "average", "last"), lp = TRUE,
                           data = NULL) {
  solver <- fp_match_arg(solver, c("exact", "mw"), "solver")
  objective <- fp_match_arg(objective, c("loss", "variance"), "objective")
  centering <- fp_match_arg(centering, c("group", "global"), "centering")
  keep <- fp_match_arg(keep, c("better", "average", "last"), "keep")
  fp_check_flag(lp, "lp")
  m <- length(prep$levels)
  if (is.null(tol)) tol <- if (m == 2L) 1e-9 else 1e-8
  fp_check_number(tol, "tol", 0, 1)
  maxit <- fp_check_count(maxit, 1L, 1e6, "maxit")
  fp_check_number(eta, "eta", 0, Inf, open_lower = TRUE)
  iterations <- fp_check_count(iterations, 1L, 1e7, "iterations")
  covs <- if (centering == "group") prep$cov else prep$second
  covs <- lapply(covs, function(s) { s <- unname(as.matrix(s)); (s + t(s)) / 2 })
  d <- prep$d
  best <- vapply(covs, function(s) sum(fp_eig_top(s, k)$values), numeric(1))
  shift <- if (objective == "loss") best else rep(max(vapply(covs, function(s) sum(diag(s)), 0)), m)
  if (solver == "exact") {
    res <- .fp_minmax_exact(covs, shift, as.integer(k), tol, as.integer(maxit), lp)
    hist <- data.frame(iteration = seq_along(res$history_upper), objective = res$history_upper,
                       lower = res$history_lower)
  } else {
    res <- .fp_minmax_mw(covs, shift, as.integer(k), eta, as.integer(iterations), keep, lp)
    hist <- data.frame(iteration = seq_along(res$history_last),
                       objective = pmin(res$history_last, res$history_average),
                       last = res$history_last, average = res$history_average,
                       lower = res$history_lower)
  }
  # the solution: an orthonormal basis (rank k), or weights on a basis (LP / sqrt rounding)
  map <- NULL
  lambda <- NULL
  if (!is.null(res$lambda) && !is.null(res$basis)) {
    U <- res$basis
    lam <- fp_minmax_snap(as.numeric(res$lambda), U, covs, shift, k, tol, objective)
    on <- lam > 0
    lambda <- lam[on]
    U <- U[, on, drop = FALSE]
    if (sum(on) == k && all(lambda == 1)) {
      V <- U
      lambda <- NULL
    } else {
      V <- U
      lstar <- 1 - sqrt(1 - lambda)
      map <- U %*% (lstar * t(U))
    }
  } else {
    V <- res$rotation
  }
  # per-group losses (solver's centring): a_g - sum_j lambda_j u_j' C_g u_j
  pvar <- vapply(covs, function(s) {
    if (is.null(lambda)) sum((s %*% V) * V) else sum(colSums((s %*% V) * V) * lambda)
  }, numeric(1))
  losses <- best - pvar
  names(losses) <- names(pvar) <- prep$levels
  if (objective == "loss") {
    obj <- max(losses)
    lower <- res$lower
    gap <- obj - lower
  } else {
    obj <- min(pvar)
    lower <- shift[1] - res$lower  # an upper bound on the max-min variance
    gap <- lower - obj
    hist$objective <- shift[1] - hist$objective
    hist$lower <- shift[1] - hist$lower
    if (!is.null(hist$last)) { hist$last <- shift[1] - hist$last; hist$average <- shift[1] - hist$average }
  }
  w <- as.numeric(res$weights)
  names(w) <- prep$levels
  dimnames(V) <- NULL
  out <- list(rotation = V, objective = obj, objective_type = objective, losses = losses,
              variances = pvar, best_variance = stats::setNames(best, prep$levels), weights = w,
              lower_bound = lower, duality_gap = gap, history = hist,
              converged = if (is.null(res$converged)) NA else res$converged,
              rank = ncol(V), lambda = lambda, solver = solver, centering = centering,
              eigensolves = res$eigensolves)
  if (!is.null(map)) {
    out$map <- map
    out$rounding <- "sqrt"
  }
  if (solver == "mw") {
    out$iterate <- res$iterate
    out$mw <- list(eta = eta, iterations = iterations, keep = keep, lp = lp,
                   weights_history = res$weights_history)
  }
  out
}

# Snap LP weights within `eps` of 0 or 1 to integers: always at 1e-9; at a looser threshold (up
# to 1e-5) when that changes the objective by at most the solver's tolerance (the exact
# solver's primal combination is only optimal to `tol`, so a weight of 1 - 1e-7 is a rounding
# artefact, not an extra dimension).
fp_minmax_snap <- function(lam, U, covs, shift, k, tol, objective) {
  lam <- pmin(pmax(lam, 0), 1)
  snap <- function(l, eps) {
    l[l < eps] <- 0
    l[l > 1 - eps] <- 1
    if (sum(l) > k + 1e-12) l <- NULL
    l
  }
  cg <- vapply(covs, function(s) colSums((s %*% U) * U), numeric(ncol(U)))
  cg <- matrix(cg, ncol = length(covs))
  val <- function(l) max(shift - colSums(cg * l))
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
  if (is.null(object$map)) return(NextMethod())
  if (missing(newdata)) {
    if (!is.null(object$x)) return(object$x)
    fp_abort("is missing and the fit kept no training scores", "newdata")
  }
  x <- fp_match_newdata(object, newdata)
  z <- fp_transform(object, x)
  s <- (z %*% object$map) %*% object$rotation
  dimnames(s) <- list(rownames(x), colnames(object$rotation))
  s
}

#' @export
print.fair_pca_minmax <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  NextMethod()
  cat(sprintf("Solver \"%s\" (%s): dual bound %s, duality gap %s\n", x$solver,
              if (x$objective_type == "loss") "min-max marginal loss" else "max-min variance",
              format(x$lower_bound, digits = digits), format(x$duality_gap, digits = digits)))
  cat("Group weights: ", paste(sprintf("%s = %s", names(x$weights), format(x$weights, digits = digits)),
                               collapse = ", "), "\n", sep = "")
  if (!is.null(x$map)) {
    cat(sprintf("Rank %d = k + %d: Samadi et al.'s affine projection with square-root rounding lambda* = 1 - sqrt(1 - lambda).\n",
                x$rank, x$rank - x$k))
  }
  invisible(x)
}
