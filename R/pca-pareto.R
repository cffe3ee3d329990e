#' Pareto fair PCA (Kamani et al.)
#'
#' Fair PCA as a multi-objective problem on the set of d x k matrices with orthonormal columns
#' (Kamani, Haddadpour, Forsati and Mahdavi, 2022), solved by multiple-gradient descent.
#' Called through `fair_pca(x, group, k, method = "pareto", ...)`; the arguments below (other
#' than `prep`, `k` and `data`) are passed in `...` of [fair_pca()].
#'
#' **Objectives.** With `C` the covariance matrix standard PCA diagonalises and `A_g` the
#' covariance of group g about its own mean (the package's convention for per-group errors),
#' the total loss is `tr(C) - tr(U'CU)` (average squared reconstruction error) and the
#' *excess loss* of group g is `E_g(U) = tr(A_g) - tr(U'A_gU) - best_g`, where `best_g` is the
#' group's own best rank-k error (so `E_g >= 0`; these are the `loss` column of `group_stats`).
#' Group losses are per-row averages; the paper's sums would let large groups dominate.
#' The objective vector is
#' * `disparity = "pairwise"` (paper's eq. 12, default): the total loss and `psi(E_g - E_h)` for
#'   every pair g < h: 1 + m(m-1)/2 objectives for m groups. Each step solves a quadratic
#'   programme over all objectives, whose cost grows as m^4: a fit estimated to take longer
#'   than the time limit (`options(fairproj.time_limit = )`, in seconds, default 60; about 200
#'   groups) is refused up front with an error of class `fairproj_cost_error` that suggests
#'   `disparity = "single"`;
#' * `disparity = "single"` (eq. 9): the total loss and `psi(E_g)` for every group: 1 + m
#'   objectives;
#'
#' with `psi(z) = z^2 / 2` (`"square"`) or `|z|` (`"absolute"`), and, as in the paper's eq. 19,
#' `alpha ||U||_F^2` added to every objective (`alpha`, default 0). On the manifold
#' `||U||_F^2 = k`, so the regulariser adds the constant `alpha k` to every reported objective
#' and changes nothing but the Euclidean gradients (by `2 alpha U`, normal to the manifold): it
#' changes the paper's iteration (`step = "sqrt"` with Euclidean gradients), not the default
#' one. `alpha = "paper"` is the printed rule `alpha = max(0, max_{g,h} gamma_min(A_g) -
#' gamma_max(A_h))` (almost always 0: the sign is flipped with respect to the paper's own
#' derivation in its Appendix C); `alpha = "convex"` is the smallest alpha that makes every
#' pair objective `E_g - E_h + alpha ||U||^2` convex in U, `max(0, max_{g != h}
#' gamma_max(A_g - A_h))`. A number is in the data's units (those of a variance); a vector
#' gives one alpha per objective (the paper's Appendix C allows this).
#'
#' **The converging iteration (`step = "armijo"`, default).** Standard PCA minimises the total
#' loss, so it is itself Pareto optimal and any method that never increases an objective stays
#' there. The default therefore runs in two phases, both monotone descent methods on the
#' manifold with the same direction rule:
#' 1. (`balance = TRUE`) from the start, descend the disparity objectives only (the total loss
#'    may rise) until every pair is balanced (`|E_g - E_h| <= tol_balance tr(C)`) or the
#'    disparity objectives are Pareto stationary to `sqrt(stationarity_tol)`;
#' 2. descend all objectives.
#'
#' At every iterate the Riemannian gradients `(I - UU') G` of the total loss and of `|z_a|`
#' (`z_a = E_g - E_h` or `E_g`; psi is increasing in `|z|`, so the Pareto set and this
#' iteration do not depend on psi) are divided by the fixed objective scale `tr(C)`. A pair
#' that is balanced is *held*: the direction is projected on the orthogonal complement of the
#' gradients of the held `z_a` (so it keeps them at 0 to first order) and a Gauss-Newton
#' correction restores them after each step. The direction `D` is minus the minimum-norm point
#' of the convex hull of the projected gradients of the other objectives (the paper's eq. 37,
#' solved exactly by Wolfe's nearest-point algorithm in C++), so `<D, g_a> <= -||D||^2` for
#' every free objective a. The step is the largest `eta 2^-p / ||D||` (a move of at most `eta`
#' radians) satisfying the Armijo condition `F_a(U_new) <= F_a(U) + beta t <g_a, D>` for all
#' free objectives at once at the retracted (and restored) point. **Convergence:** the
#' iteration stops with `converged = TRUE` when the stationarity measure `||D||` (scale-free: a
#' gradient norm relative to `tr(C)`) is at most `stationarity_tol` in phase 2. There, no direction that keeps
#' the balanced pairs balanced decreases all the other objectives to first order; with every
#' pair balanced this is the first-order condition of "minimise the total loss subject to equal
#' excess losses" (the end of the Pareto front that the paper's iteration drifts towards). It
#' stops unconverged (with a `fairproj_convergence_warning`) at the iteration cap, when no step
#' passes the Armijo test (`status = "line_search"`), or when a step decreases an objective only
#' within rounding (`status = "rounding"`: `stationarity_tol` is below what the objective values resolve),
#' or at the time limit (`status = "time_limit"`: `options(fairproj.time_limit = )`, in seconds,
#' default 60, shared by the starts; each step costs about m d^2 k operations and a fit may take
#' thousands of steps: at d = 200, k = 20 and 3 groups some 6,000 steps, 2.5 minutes).
#' With `balance = FALSE` only phase 2 runs: standard PCA is then returned at once (it is
#' Pareto stationary), and from random starts every objective is non-increasing.
#'
#' **The paper's iteration (`step = "sqrt"`).** Algorithm 1 as the experiments ran it: the
#' Euclidean gradients of the eq. 19 objectives (`gradient = "euclidean"`, the default with this
#' step; `"riemannian"` projects them), each normalised to unit Frobenius norm (`normalize =
#' TRUE`, the paper's Remark 1), the min-norm direction `D`, the step `eta / sqrt(t)` and
#' re-orthonormalisation. It is not a descent method (from standard PCA it raises the total
#' loss) and its unit-length directions zigzag around the balanced subspaces with an amplitude
#' decaying like `1/sqrt(t)`; it is tested for convergence with the same stationarity measure
#' (from its first step on) and usually stops at the iteration cap with a warning. The last
#' iterate is returned, as in Algorithm 1; a warning also says when its start dominates it.
#'
#' `U_new` is the polar factor (the nearest orthonormal matrix) or the Q of a QR decomposition of
#' `U + eta D` (`retraction`); both give the same subspace, hence the same trajectory of
#' subspaces and objective values (only the basis differs).
#'
#' **Starts.** `start = "pca"` starts from standard PCA, `"random"` from an orthonormalised
#' Gaussian matrix drawn with R's RNG (so [set.seed()] reproduces); `init` gives a d x k start
#' matrix. With `restarts = r > 0`, r further random starts are run; every end point is kept in
#' `front` (a data.frame with the total loss, the largest pairwise disparity
#' `max |E_g - E_h|`, the objectives and whether another end point dominates it) and the
#' returned solution is the non-dominated end point with the smallest disparity. See
#' [pareto_front()] to trace the front.
#'
#' @param prep The prepared problem (internal; see [fair_pca()]).
#' @param k Target dimension.
#' @param disparity `"pairwise"` or `"single"` (see Details).
#' @param psi Penalty: `"square"` (`z^2/2`) or `"absolute"` (`|z|`).
#' @param step `"armijo"` (default: the converging iteration) or `"sqrt"` (the paper's
#'   `eta / sqrt(t)`).
#' @param retraction Re-orthonormalisation: `"polar"` or `"qr"`.
#' @param iterations Largest number of steps (default 50000 with `step = "armijo"`, 500 with
#'   `"sqrt"`).
#' @param stationarity_tol Stationarity tolerance: converged when the norm of the min-norm common
#'   descent direction (gradients relative to `tr(C)`, so scale-free) is at most `stationarity_tol`.
#' @param normalize Logical; normalise every gradient to unit Frobenius norm (the paper's
#'   iteration only).
#' @param start `"pca"` or `"random"`.
#' @param restarts Number of additional random starts.
#' @param ... Must be empty (further arguments are named).
#' @param gradient `"euclidean"` or `"riemannian"` (tangent-projected) gradients for the
#'   paper's iteration; `NULL` (default) uses `"riemannian"` with `step = "armijo"` (the only
#'   choice there) and `"euclidean"` with `step = "sqrt"`.
#' @param eta Step size: the step is `eta / sqrt(t)` with `"sqrt"`; with `"armijo"`, the
#'   backtracking starts from a move of `eta` radians (or twice the previous step).
#' @param beta Armijo sufficient-decrease constant in (0, 1).
#' @param max_backtrack Largest number of step halvings in the Armijo search.
#' @param init Optional d x k start matrix (orthonormalised; overrides `start`).
#' @param alpha The eq. 19 regulariser: a non-negative number (data units) or one per
#'   objective, or the rule `"paper"` or `"convex"` (see Details).
#' @param balance Logical; with `step = "armijo"`, first descend the disparity objectives alone
#'   until the pairs are balanced (default `TRUE`); `FALSE` descends all objectives from the
#'   start.
#' @param tol_balance A pair counts as balanced, and is then held, when `|E_g - E_h| <=
#'   tol_balance tr(C)` (or `E_g <= tol_balance tr(C)` for single objectives).
#' @param data Unused (the method works from the moments).
#' @return A list for [fair_pca()] (which adds the common fields): `rotation`, `history`
#'   (data.frame with one row per iterate: `iteration`, `objective` (the total loss),
#'   `disparity` (largest pairwise `|E_g - E_h|`), one column per objective, `norm_D` (norm of
#'   the direction used), `moved` (its part that moves the subspace), `step` (the step taken from
#'   this iterate), `descent` (`max_a <D, g_a> + ||D||^2` over the gradients used, `<= 0` up to
#'   rounding: the check that `D` is a common descent direction), `stationarity` (the
#'   convergence measure), `held` (number of held pairs) and `phase`), `objectives` (final
#'   values), `excess` (final `E_g`), `converged` (whether the returned subspace meets the
#'   stationarity tolerance), `stationarity`, `status` (`"stationary"` (converged),
#'   `"iterations"` (cap reached), `"line_search"`, `"rounding"`, `"time_limit"`, or `"fixed_point"` (the
#'   paper's iteration stopped moving away from a stationary point)), `iterations`, `balanced_at` (the
#'   iteration at which phase 2 began), `settings` (with `alpha` in the data's units) and, with
#'   restarts, `front`.
#' @references Kamani, M. M., Haddadpour, F., Forsati, R. and Mahdavi, M. (2022). Efficient fair
#'   principal component analysis. *Machine Learning* 111, 3671-3702.
#'   \doi{10.1007/s10994-021-06100-9}
#' @seealso [fair_pca()], [pareto_front()].
#' @examplesIf requireNamespace("MASS", quietly = TRUE)
#' bw <- within(MASS::birthwt, race <- factor(race, 1:3, c("white", "black", "other")))
#' fit <- fair_pca(bw[c("age", "lwt", "ptl", "ftv", "bwt")], bw$race, k = 2,
#'                 method = "pareto", scale. = TRUE)
#' fit$converged
#' fit$group_stats
#' fit$group_stats_standard
#' plot(fit, "convergence")
#' @name fit_pca_pareto
#' @aliases fair_pca_pareto
fit_pca_pareto <- function(prep, k, disparity = c("pairwise", "single"), psi = c("square", "absolute"),
                           step = c("armijo", "sqrt"), retraction = c("polar", "qr"), iterations = NULL,
                           stationarity_tol = 1e-6, normalize = TRUE, start = c("pca", "random"), restarts = 0L, ...,
                           gradient = NULL, eta = 1, beta = 1e-4, max_backtrack = 60L, init = NULL,
                           alpha = 0, balance = TRUE, tol_balance = 1e-8, data = NULL) {
  if (...length()) fp_abort("must be empty: name the arguments of method 'pareto'", "...")
  disparity <- fp_match_arg(disparity, c("pairwise", "single"), "disparity")
  psi <- fp_match_arg(psi, c("square", "absolute"), "psi")
  step <- fp_match_arg(step, c("armijo", "sqrt"), "step")
  retraction <- fp_match_arg(retraction, c("polar", "qr"), "retraction")
  start <- fp_match_arg(start, c("pca", "random"), "start")
  if (is.null(gradient)) gradient <- if (step == "armijo") "riemannian" else "euclidean"
  gradient <- fp_match_arg(gradient, c("euclidean", "riemannian"), "gradient")
  if (step == "armijo" && gradient == "euclidean") {
    fp_abort("must be \"riemannian\" with step = \"armijo\" (a Euclidean direction is not a descent direction on the manifold; use step = \"sqrt\" for the paper's iteration)", "gradient")
  }
  if (is.null(iterations)) iterations <- if (step == "armijo") 50000L else 500L
  iterations <- fp_check_count(iterations, 0L, 1e7, "iterations")
  restarts <- fp_check_count(restarts, 0L, 1e4, "restarts")
  max_backtrack <- fp_check_count(max_backtrack, 0L, 200L, "max_backtrack")
  fp_check_number(stationarity_tol, "stationarity_tol", lower = 0)
  fp_check_number(tol_balance, "tol_balance", lower = 0, upper = 1)
  fp_check_number(eta, "eta", lower = 0, open_lower = TRUE)
  fp_check_number(beta, "beta", lower = 0, upper = 1, open_lower = TRUE, open_upper = TRUE)
  fp_check_flag(normalize, "normalize")
  fp_check_flag(balance, "balance")
  if (k >= prep$d) fp_abort(sprintf("must be smaller than the number of columns (%d) for method 'pareto'", prep$d), "k")
  spec <- fp_pareto_spec(prep$levels, disparity)
  fp_pareto_check_cost(length(spec$type), restarts, disparity)
  alpha_used <- fp_pareto_alpha(alpha, prep, spec)
  starts <- list()
  if (!is.null(init)) {
    if (!is.numeric(init) || !is.matrix(init) || nrow(init) != prep$d || ncol(init) != k || anyNA(init) ||
        any(!is.finite(init))) {
      fp_abort(sprintf("must be a finite numeric %d x %d matrix", prep$d, k), "init")
    }
    starts[[1]] <- fp_pareto_orth(init, "init")
    names(starts)[1] <- "init"
  } else if (start == "pca") {
    starts[[1]] <- fp_prep_eig(prep, k)$vectors
    names(starts)[1] <- "pca"
  } else {
    starts[[1]] <- fp_pareto_random(prep$d, k)
    names(starts)[1] <- "random"
  }
  for (r in seq_len(restarts)) {
    starts[[length(starts) + 1L]] <- fp_pareto_random(prep$d, k)
    names(starts)[length(starts)] <- paste0("random", r)
  }
  # the time limit shared by the starts: a start that reaches its share stops where it is
  limit <- min(fp_time_limit(), 1e308)
  runs <- lapply(starts, function(U0) {
    fp_pareto_run(prep, k, U0, spec, psi = psi, gradient = gradient, normalize = normalize, step = step,
                  retraction = retraction, iterations = iterations, tol = stationarity_tol, eta = eta, beta = beta,
                  max_backtrack = max_backtrack, alpha = alpha_used, balance = balance, tol_balance = tol_balance,
                  max_seconds = limit / length(starts))
  })
  runs <- lapply(runs, fp_pareto_units, spec = spec, psi = psi, unit = prep$unit, alpha = alpha_used, k = k)
  pick <- 1L
  front <- NULL
  if (length(runs) > 1L) {
    front <- fp_pareto_front_table(runs, names(starts), spec)
    cand <- which(!front$dominated)
    pick <- cand[order(front$disparity[cand], front$total[cand])][1L]
    front$selected <- seq_len(nrow(front)) == pick
  }
  run <- runs[[pick]]
  if (!isTRUE(run$converged)) {
    timed <- run$status == "time_limit"
    fp_warn_convergence(sprintf(paste0(
      "method 'pareto' stopped (%s) after %d iterations without reaching the stationarity tolerance ",
      "stationarity_tol = %.3g (stationarity measure %.3g)%s"),
      if (timed) sprintf("at the time limit of %s s, options(fairproj.time_limit)%s", format(fp_time_limit()),
                         if (length(starts) > 1L) sprintf(", shared by %d starts", length(starts)) else "") else run$status,
      run$steps, stationarity_tol, utils::tail(run$history$stationarity, 1L),
      if (timed) "; raise the limit, loosen stationarity_tol, or lower `restarts`"
      else if (step == "sqrt") "; the paper's step 1/sqrt(t) need not converge: use step = \"armijo\" (the default)" else
        "; increase `iterations`"))
  }
  if (isTRUE(run$dominated_by_start)) {
    fp_warn_convergence(paste0("method 'pareto' returns a subspace that its start dominates (no objective is ",
                               "lower, at least one is higher): the start is better on every objective"))
  }
  out <- list(rotation = run$U, history = run$history, objectives = run$objectives, excess = run$excess,
              converged = run$converged, status = run$status, iterations = run$steps,
              stationarity = utils::tail(run$history$stationarity, 1L), balanced_at = run$switched,
              settings = list(disparity = disparity, psi = psi, step = step, retraction = retraction,
                              gradient = gradient, normalize = normalize, eta = eta, beta = beta, stationarity_tol = stationarity_tol,
                              alpha = alpha_used * prep$unit, balance = balance, tol_balance = tol_balance,
                              start = names(starts)[pick]))
  if (!is.null(front)) out$front <- front
  out
}

# The eq. 19 regulariser alpha ||U||_F^2, one alpha per objective in normalised units. `alpha` is
# a number (data units, the units of the covariance), a vector (one per objective), or a rule:
# "paper": the printed rule alpha >= max_{g,h} gamma_min(A_g) - gamma_max(A_h) (floored at 0),
# "convex": the smallest alpha making every pair objective E_g - E_h + alpha ||U||^2 convex in U
#   (its Hessian is 2 (alpha I - (A_g - A_h)) (x) I_k): max over ordered pairs of
#   gamma_max(A_g - A_h) (floored at 0), the same for every objective.
fp_pareto_alpha <- function(alpha, prep, spec) {
  M <- length(spec$type)
  if (is.character(alpha)) {
    rule <- fp_match_arg(alpha, c("paper", "convex"), "alpha")
    A <- lapply(prep$cov, function(s) (s + t(s)) / 2)
    ev <- function(S) eigen(S, symmetric = TRUE, only.values = TRUE)$values
    m <- length(A)
    val <- -Inf
    for (g in seq_len(m)) for (h in seq_len(m)) {
      if (g == h) next
      v <- if (rule == "paper") min(ev(A[[g]])) - max(ev(A[[h]])) else max(ev(A[[g]] - A[[h]]))
      val <- max(val, v)
    }
    return(rep(max(val, 0), M))
  }
  if (!is.numeric(alpha) || !(length(alpha) %in% c(1L, M)) || anyNA(alpha) || any(!is.finite(alpha)) || any(alpha < 0)) {
    fp_abort(sprintf("must be \"paper\", \"convex\", or non-negative numbers (one, or one per objective: %d)", M), "alpha")
  }
  rep_len(as.numeric(alpha), M) / prep$unit
}

fp_pareto_orth <- function(V, arg) {
  q <- qr(V)
  if (q$rank < ncol(V)) fp_abort("must have linearly independent columns", arg)
  Q <- qr.Q(q)
  Q %*% diag(sign(diag(qr.R(q))), ncol(V))
}

fp_pareto_random <- function(d, k) {
  fp_pareto_orth(matrix(stats::rnorm(d * k), d, k), "start")
}

# Refuses up front a fit estimated to take longer than the time limit (fp_check_cost()): each
# step solves a quadratic programme over the M objectives (1 + m (m - 1) / 2 with pairwise
# disparities), whose M x M matrix of gradient products dominates with many groups: about
# 6e-8 M^2 seconds per start (measured at d = 4: 100 groups 1.5 s, 150 groups 7.3 s, 200
# groups 18 s and 3.2 GB; 800 groups ran out of memory before this check).
fp_pareto_cost <- function(M, restarts = 0L) (restarts + 1) * 6e-8 * as.numeric(M)^2
fp_pareto_check_cost <- function(M, restarts, disparity) {
  fp_check_cost(fp_pareto_cost(M, restarts),
                sprintf("method \"pareto\" (%d start(s) over %s objectives)", restarts + 1L, format(M, big.mark = ",")),
                if (disparity == "pairwise") "use disparity = \"single\" (one objective per group) or merge small groups" else
                  "lower `restarts` or merge small groups",
                arg = if (disparity == "pairwise") "disparity" else "restarts")
}

# The objective list: type 0 = total loss, 1 = pair (g1, g2), 2 = single g1 (0-based groups).
fp_pareto_spec <- function(levels, disparity = c("pairwise", "single", "none")) {
  disparity <- fp_match_arg(disparity, c("pairwise", "single", "none"), "disparity")
  m <- length(levels)
  type <- 0L
  g1 <- 0L
  g2 <- 0L
  nm <- "total"
  if (disparity == "pairwise") {
    pr <- utils::combn(m, 2L)
    type <- c(type, rep(1L, ncol(pr)))
    g1 <- c(g1, pr[1, ] - 1L)
    g2 <- c(g2, pr[2, ] - 1L)
    nm <- c(nm, paste0("psi(", levels[pr[1, ]], " - ", levels[pr[2, ]], ")"))
  } else if (disparity == "single") {
    type <- c(type, rep(2L, m))
    g1 <- c(g1, seq_len(m) - 1L)
    g2 <- c(g2, rep(0L, m))
    nm <- c(nm, paste0("psi(", levels, ")"))
  }
  list(type = type, g1 = g1, g2 = g2, names = nm, levels = levels)
}

# One run of the C++ solver from U0; `trace = TRUE` also returns every iterate, the
# (normalised) gradients, the direction and the weights (a hook for the tests).
fp_pareto_run <- function(prep, k, U0, spec, psi = "square", gradient = "riemannian", normalize = TRUE,
                          step = "armijo", retraction = "polar", iterations = 5000L, tol = 1e-6, eta = 1,
                          beta = 1e-4, max_backtrack = 60L, qp_tol = 1e-13, alpha = 0, balance = TRUE,
                          tol_balance = 1e-8, trace = FALSE, max_seconds = 1e308) {
  best <- fp_group_best(prep, k)
  A <- unname(lapply(prep$cov, function(s) (s + t(s)) / 2))
  alpha <- rep_len(as.numeric(alpha), length(spec$type))
  objectives <- list(type = as.integer(spec$type), g1 = as.integer(spec$g1), g2 = as.integer(spec$g2),
                     alpha = alpha, psi = match(psi, c("square", "absolute")) - 1L)
  opts <- list(riemannian = gradient == "riemannian", normalize = isTRUE(normalize),
               step = match(step, c("sqrt", "armijo")) - 1L, retraction = match(retraction, c("polar", "qr")) - 1L,
               iterations = as.integer(iterations), tol = tol, eta = eta, beta = beta,
               max_backtrack = as.integer(max_backtrack), qp_tol = qp_tol, balance = isTRUE(balance),
               eps = tol_balance, trace = isTRUE(trace), max_seconds = max_seconds)
  res <- fp_cpp(.fp_pareto_cpp(unname((prep$C + t(prep$C)) / 2), A, unname(best), unname(U0), objectives, opts),
                "the Pareto solver")
  f <- res$f
  colnames(f) <- spec$names
  E <- res$E_history
  disp <- if (ncol(E) > 1L) apply(E, 1L, function(e) diff(range(e))) else rep(0, nrow(E))
  hist <- data.frame(iteration = seq_len(nrow(f)) - 1L, objective = f[, 1L], disparity = disp, check.names = FALSE)
  hist <- cbind(hist, as.data.frame(f[, -1L, drop = FALSE], optional = TRUE),
                data.frame(norm_D = res$norm_D, moved = res$moved, step = res$step, descent = res$descent,
                           stationarity = res$stationarity, held = as.integer(res$held),
                           phase = as.integer(res$phase)))
  names(hist)[seq_len(ncol(f) - 1L) + 3L] <- spec$names[-1L]
  objectives <- stats::setNames(res$f_final, spec$names)
  excess <- stats::setNames(res$E, spec$levels)
  f0 <- f[1L, ]
  dominated <- all(f0 <= objectives + fp_tol_tie * (abs(objectives) + 1)) && any(f0 < objectives - fp_tol_tie * (abs(objectives) + 1))
  out <- list(U = res$U, history = hist, objectives = objectives, excess = excess,
              converged = res$converged,
              status = c("iterations", "stationary", "line_search", "fixed_point", "rounding", "time_limit")[res$status + 1L],
              steps = res$steps, switched = if (res$switched >= 0) res$switched else NA_integer_,
              dominated_by_start = dominated)
  if (trace) {
    out$trace <- list(U = res$trace_U, G = res$trace_G, D = res$trace_D, Dr = res$trace_Dr,
                      lambda = res$trace_lambda)
  }
  out
}

# Rows of F (objective vectors) that another row, or a point of `also` (further competitors: the
# standard-PCA start that a fit stopped early may not beat), dominates by more than rounding: no
# objective higher, one lower by more than 1e-9 of the objective's scale (differences at rounding
# level between fits that reached the same point do not count).
fp_pareto_dominated <- function(F, ref = NULL, also = NULL) {
  # scale of each objective: its largest value over the fits and the reference (the start)
  sc <- pmax(apply(abs(rbind(F, ref)), 2L, max), .Machine$double.xmin)
  tol <- 1e-9 * sc
  P <- rbind(F, also)
  vapply(seq_len(nrow(F)), function(i) {
    any(vapply(seq_len(nrow(P)), function(j) {
      j != i && all(P[j, ] <= F[i, ] + tol) && any(P[j, ] < F[i, ] - tol)
    }, logical(1)))
  }, logical(1))
}

fp_pareto_front_table <- function(runs, start_names, spec) {
  F <- do.call(rbind, lapply(runs, function(r) r$objectives))
  disp <- vapply(runs, function(r) diff(range(r$excess)), numeric(1))
  dominated <- fp_pareto_dominated(F, ref = do.call(rbind, lapply(runs, function(r) {
    unlist(r$history[1L, c("objective", spec$names[-1L])])
  })))
  tab <- data.frame(start = start_names, total = F[, 1L], disparity = disp, check.names = FALSE,
                    stringsAsFactors = FALSE)
  tab <- cbind(tab, as.data.frame(F[, -1L, drop = FALSE], optional = TRUE))
  names(tab)[seq_len(ncol(F) - 1L) + 3L] <- spec$names[-1L]
  tab$dominated <- dominated
  tab$converged <- vapply(runs, function(r) r$converged, logical(1))
  rownames(tab) <- NULL
  tab
}

# A Pareto fit's total loss (or largest excess) as reported: within rounding of 0 (k at the
# data's rank, 16 d eps of the fit's total variance, as fp_group_loss() clamps the groups'
# losses) it is 0; the fit's stored objectives keep the solver's values.
fp_pareto_reported <- function(v, fit) fp_group_loss(v, 0, fit$totalvar, nrow(fit$rotation))

#' @export
print.fair_pca_pareto <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
  y <- x
  y$objectives <- NULL  # the generic print shows a scalar `objective`; ours is a vector
  class(y) <- setdiff(class(x), "fair_pca_pareto")
  print(y, digits = digits, ...)
  s <- x$settings
  cat(sprintf("\nObjectives (%s disparity, psi = %s):\n", s$disparity, s$psi))
  obj <- x$objectives
  obj[["total"]] <- fp_pareto_reported(obj[["total"]], x)
  print(signif(obj, digits))
  cat(sprintf("Stopped after %d steps (%s gradients, %s steps): %s, stationarity %s (tol %s)%s\n", x$iterations,
              s$gradient, s$step, x$status, format(x$stationarity, digits = 3), format(s$stationarity_tol, digits = 3),
              if (isTRUE(x$converged)) ", converged" else ", NOT converged"))
  h <- x$history
  if (nrow(h) > 1L) {
    cat(sprintf("Total loss %s%% %s its start (%s); largest disparity %s -> %s\n",
                format(abs(100 * (h$objective[nrow(h)] / h$objective[1L] - 1)), digits = 3),
                if (h$objective[nrow(h)] >= h$objective[1L]) "above" else "below", s$start,
                format(h$disparity[1L], digits = digits), format(h$disparity[nrow(h)], digits = digits)))
  }
  if (!is.null(x$front)) {
    cat(sprintf("%d starts; the selected end point is the non-dominated one with the smallest disparity (see $front)\n",
                nrow(x$front)))
  }
  invisible(x)
}

# Values of a run back in the data's units (the run worked on the normalised problem of
# fp_prepare_normalised()): losses scale with `unit`, squared disparities with `unit^2`.
fp_pareto_units <- function(run, spec, psi, unit, alpha = 0, k = 0) {
  if (unit == 1) return(run)
  pw <- if (psi == "square") 2 else 1
  if (pw == 2 && abs(log2(unit)) > 500) {
    fp_abort(sprintf(paste(
      "has variances of about 1e%d, so the squared disparities (about 1e%d) cannot be represented in double",
      "precision; use psi = \"absolute\", scale. = TRUE, or multiply the data by a constant"),
      round(log10(unit)), 2 * round(log10(unit))), "x")
  }
  sc <- c(unit, rep(unit^pw, length(spec$names) - 1L))
  # the eq. 19 term alpha ||U||^2 (= alpha k on the manifold) has the units of a variance
  ak <- rep_len(alpha, length(sc)) * k
  run$objectives <- (run$objectives - ak) * sc + ak * unit
  run$excess <- run$excess * unit
  h <- run$history
  h$objective <- (h$objective - ak[1L]) * unit + ak[1L] * unit
  h$disparity <- h$disparity * unit
  for (i in seq_along(spec$names)[-1L]) h[[spec$names[i]]] <- (h[[spec$names[i]]] - ak[i]) * unit^pw + ak[i] * unit
  run$history <- h
  run
}
