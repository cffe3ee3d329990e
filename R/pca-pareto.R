#' Pareto fair PCA (Kamani et al.)
#'
#' Fair PCA as a multi-objective problem, solved by multiple-gradient descent on the set of
#' d x k matrices with orthonormal columns (Kamani, Haddadpour, Forsati and Mahdavi, 2022).
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
#'   every pair g < h: 1 + m(m-1)/2 objectives for m groups;
#' * `disparity = "single"` (eq. 9): the total loss and `psi(E_g)` for every group: 1 + m
#'   objectives;
#'
#' with `psi(z) = z^2 / 2` (`"square"`) or `|z|` (`"absolute"`). With normalised gradients the
#' penalty enters the direction only through the sign of `psi'(z)`, so with `step = "sqrt"` both
#' penalties give the same iterates; they differ in the objective values (Armijo steps, the
#' front). With `psi = "square"` every subspace on which two groups have equal excess losses
#' is Pareto stationary (the gradient of that pair's objective vanishes there), so the exact
#' method (Riemannian gradients, Armijo) stops at the first such subspace it reaches.
#'
#' **Iteration.** At `U_t` the gradient `G_a` of every objective is formed from the moments
#' (each is `S U` with S a d x d symmetric matrix, `O(m d^2 k)` per iteration); with
#' `normalize = TRUE` each is divided by its Frobenius norm (the paper's Remark 1, which leaves
#' the form open: without it the step size would depend on the scale of the data and the
#' objectives with the largest gradients would dominate). The common direction is
#' `D = -sum_a lambda_a G_a`, where `lambda` minimises `||sum_a lambda_a G_a||_F` over the
#' simplex (the paper's eq. 37: minus the minimum-norm point of the convex hull of the
#' gradients), solved exactly by Wolfe's nearest-point algorithm on the Gram matrix of the
#' gradients in C++. By construction `<D, G_a> <= -||D||^2` for every objective a. The step is
#' `eta / sqrt(t)` (`step = "sqrt"`, the paper's experiments) or the largest `eta 2^-p`
#' satisfying the Armijo condition `f_a(U_new) <= f_a(U_t) + beta eta s_a` for **all**
#' objectives at once (`step = "armijo"`), where `U_new` is the re-orthonormalised trial point
#' and `s_a = <G_a, (I - U U') D>` the slope of `f_a` along it (the paper evaluates its
#' unconstrained objectives at the un-projected point instead, where the total loss falls just
#' by growing `U`). `U_new` is the polar factor (the nearest orthonormal matrix) or the Q of a
#' QR decomposition of `U_t + eta D`; both give the same subspace, hence the same
#' trajectory of subspaces and objective values (only the basis differs).
#'
#' **Gradients.** `gradient = "euclidean"` (default) uses the Euclidean gradients of the trace
#' forms, `-2 S U`, as the paper (eq. 14). They have a component `U (U'G)` normal to the
#' manifold that does not change any objective; it makes the normalisation weigh the
#' objectives differently, and it is what lets the iteration leave the standard PCA
#' solution, where the Riemannian gradient of the total loss vanishes.
#' `gradient = "riemannian"` projects them on the tangent space, `(I - UU')G`: `D` is then a
#' true common descent direction on the manifold, but the standard PCA subspace is already
#' Pareto stationary (the total loss has zero gradient there), so use it with random starts.
#'
#' **Stopping.** The iteration stops at a Pareto-stationary point, when `||D||_F <= tol` or when
#' the part of `D` that moves the subspace, `||(I - UU')D||_F`, is `<= tol` (with Euclidean
#' gradients `D` itself never vanishes), or after `iterations` steps. With Armijo steps it also
#' stops (`converged = TRUE`) when the subspace moves by less than `tol` in a step or when the
#' accepted step decreases the objectives only within rounding error (status `"no_decrease"`:
#' normalised directions keep unit length, so near a stationary point the step, not `D`, goes
#' to zero), and it stops unconverged (status `"line_search"`) if no step longer than
#' `eta 2^-max_backtrack` decreases all objectives. The Armijo search starts from
#' `min(eta, 2 eta_prev)`, `eta_prev` being the previous accepted step.
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
#' @param step `"sqrt"` (`eta / sqrt(t)`) or `"armijo"` (backtracking on all objectives).
#' @param retraction Re-orthonormalisation: `"polar"` or `"qr"`.
#' @param iterations Largest number of steps.
#' @param tol Stop when `||D||_F` or its subspace-moving part is at most `tol`.
#' @param normalize Logical; normalise every gradient to unit Frobenius norm.
#' @param start `"pca"` or `"random"`.
#' @param restarts Number of additional random starts.
#' @param ... Must be empty (further arguments are named).
#' @param gradient `"euclidean"` (paper) or `"riemannian"` (tangent-projected gradients).
#' @param eta Initial step size (the step is `eta / sqrt(t)`, or `eta 2^-p` with Armijo).
#' @param beta Armijo sufficient-decrease constant in (0, 1).
#' @param max_backtrack Largest number of step halvings in the Armijo search.
#' @param init Optional d x k start matrix (orthonormalised; overrides `start`).
#' @param data Unused (the method works from the moments).
#' @return A list for [fair_pca()] (which adds the common fields): `rotation`, `history` (data.frame with one row per
#'   iterate: `iteration`, `objective` (the total loss), `disparity` (largest pairwise
#'   `|E_g - E_h|`), one column per objective, `norm_D` (`||D||_F`), `moved`
#'   (`||(I - UU')D||_F`), `step` (the step taken from this iterate) and `descent`
#'   (`max_a <D, G_a> + ||D||^2` over the gradients used, `<= 0` up to rounding: the check that
#'   `D` is a common descent direction)), `objectives`
#'   (final values), `excess` (final `E_g`), `converged`, `status`, `iterations`, `settings` and,
#'   with restarts, `front`.
#' @references Kamani, M. M., Haddadpour, F., Forsati, R. and Mahdavi, M. (2022). Efficient fair
#'   principal component analysis. *Machine Learning* 111, 3671-3702.
#'   \doi{10.1007/s10994-021-06100-9}
#' @seealso [fair_pca()], [pareto_front()].
#' @examples
#' fit <- fair_pca(iris[, 1:4], iris$Species, k = 2, method = "pareto", iterations = 200)
#' fit$group_stats
#' fit$group_stats_standard
#' plot(fit, "convergence")
#' @name fit_pca_pareto
#' @aliases fair_pca_pareto
fit_pca_pareto <- function(prep, k, disparity = c("pairwise", "single"), psi = c("square", "absolute"),
                           step = c("armijo", "sqrt"), retraction = c("polar", "qr"), iterations = NULL,
                           tol = 1e-6, normalize = TRUE, start = c("pca", "random"), restarts = 0L, ...,
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
  if (is.null(iterations)) iterations <- if (step == "armijo") 5000L else 500L
  iterations <- fp_check_count(iterations, 0L, 1e7, "iterations")
  restarts <- fp_check_count(restarts, 0L, 1e4, "restarts")
  max_backtrack <- fp_check_count(max_backtrack, 0L, 200L, "max_backtrack")
  fp_check_number(tol, "tol", lower = 0)
  fp_check_number(tol_balance, "tol_balance", lower = 0, upper = 1)
  fp_check_number(eta, "eta", lower = 0, open_lower = TRUE)
  fp_check_number(beta, "beta", lower = 0, upper = 1, open_lower = TRUE, open_upper = TRUE)
  fp_check_flag(normalize, "normalize")
  fp_check_flag(balance, "balance")
  if (k >= prep$d) fp_abort(sprintf("must be smaller than the number of columns (%d) for method 'pareto'", prep$d), "k")
  spec <- fp_pareto_spec(prep$levels, disparity)
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
    starts[[1]] <- fp_eig_top(prep$C, k)$vectors
    names(starts)[1] <- "pca"
  } else {
    starts[[1]] <- fp_pareto_random(prep$d, k)
    names(starts)[1] <- "random"
  }
  for (r in seq_len(restarts)) {
    starts[[length(starts) + 1L]] <- fp_pareto_random(prep$d, k)
    names(starts)[length(starts)] <- paste0("random", r)
  }
  runs <- lapply(starts, function(U0) {
    fp_pareto_run(prep, k, U0, spec, psi = psi, gradient = gradient, normalize = normalize, step = step,
                  retraction = retraction, iterations = iterations, tol = tol, eta = eta, beta = beta,
                  max_backtrack = max_backtrack, alpha = alpha_used, balance = balance, tol_balance = tol_balance)
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
    fp_warn_convergence(sprintf(paste0(
      "method 'pareto' stopped (%s) after %d iterations without reaching the stationarity tolerance ",
      "tol = %.3g (stationarity measure %.3g)%s"), run$status, run$steps, tol,
      utils::tail(run$history$stationarity, 1L),
      if (step == "sqrt") "; the paper's step 1/sqrt(t) need not converge: use step = \"armijo\" (the default)" else
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
                              gradient = gradient, normalize = normalize, eta = eta, beta = beta, tol = tol,
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
                          tol_balance = 1e-8, trace = FALSE) {
  best <- fp_group_best(prep, k)
  A <- unname(lapply(prep$cov, function(s) (s + t(s)) / 2))
  alpha <- rep_len(as.numeric(alpha), length(spec$type))
  res <- .fp_pareto_cpp(unname((prep$C + t(prep$C)) / 2), A, unname(best), unname(U0),
                        as.integer(spec$type), as.integer(spec$g1), as.integer(spec$g2),
                        match(psi, c("square", "absolute")) - 1L, gradient == "riemannian", isTRUE(normalize),
                        match(step, c("sqrt", "armijo")) - 1L, match(retraction, c("polar", "qr")) - 1L,
                        as.integer(iterations), tol, eta, beta, as.integer(max_backtrack), qp_tol, alpha,
                        isTRUE(balance), tol_balance, isTRUE(trace))
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
  dominated <- all(f0 <= objectives + 1e-12 * (abs(objectives) + 1)) && any(f0 < objectives - 1e-12 * (abs(objectives) + 1))
  out <- list(U = res$U, history = hist, objectives = objectives, excess = excess,
              converged = res$converged,
              status = c("iterations", "stationary", "line_search", "fixed_point", "rounding")[res$status + 1L],
              steps = res$steps, switched = if (res$switched >= 0) res$switched else NA_integer_,
              dominated_by_start = dominated)
  if (trace) {
    out$trace <- list(U = res$trace_U, G = res$trace_G, D = res$trace_D, Dr = res$trace_Dr,
                      lambda = res$trace_lambda)
  }
  out
}

fp_pareto_front_table <- function(runs, start_names, spec) {
  F <- do.call(rbind, lapply(runs, function(r) r$objectives))
  disp <- vapply(runs, function(r) diff(range(r$excess)), numeric(1))
  dominated <- vapply(seq_len(nrow(F)), function(i) {
    any(vapply(seq_len(nrow(F)), function(j) {
      j != i && all(F[j, ] <= F[i, ]) && any(F[j, ] < F[i, ])
    }, logical(1)))
  }, logical(1))
  tab <- data.frame(start = start_names, total = F[, 1L], disparity = disp, check.names = FALSE,
                    stringsAsFactors = FALSE)
  tab <- cbind(tab, as.data.frame(F[, -1L, drop = FALSE], optional = TRUE))
  names(tab)[seq_len(ncol(F) - 1L) + 3L] <- spec$names[-1L]
  tab$dominated <- dominated
  tab$converged <- vapply(runs, function(r) r$converged, logical(1))
  rownames(tab) <- NULL
  tab
}

#' Trace the Pareto front of fair PCA
#'
#' Runs Pareto fair PCA ([fit_pca_pareto]) from standard PCA and from `restarts` random starts
#' (R's RNG, so [set.seed()] reproduces); different starts end at different Pareto-stationary
#' subspaces, which together sketch the trade-off between the total reconstruction loss and
#' the disparity between the groups' excess losses (the paper's Remark 2). The group moments
#' are computed once.
#'
#' @param x A numeric matrix or data.frame, a [group_moments()] object, or a formula (with
#'   `data`).
#' @param group Group labels, one per row (not used when `x` is a `group_moments` object).
#' @param k Target dimension.
#' @param restarts Number of random starts (besides the start at standard PCA).
#' @param ... Arguments of [fit_pca_pareto] (except `start`, `restarts` and `init`), and
#'   `center`, `scale.` as in [fair_pca()].
#' @return An object of class `fairproj_pareto_front`: a list with `fits` (the `fair_pca_pareto`
#'   fits, the first from standard PCA), `table` (one row per fit: `start`, `total` (total loss),
#'   `disparity` (largest `|E_g - E_h|`), `max_excess`, the objectives, `dominated` (whether
#'   another fit of the set dominates it on the objective vector) and `converged`) and
#'   `standard` (total loss and disparity of standard PCA). A warning of class
#'   `fairproj_convergence_warning` says how many fits did not converge, and `print()` how
#'   many did. A progress bar is shown in interactive sessions
#'   (`options(fairproj.progress = FALSE)` turns it off).
#' @seealso [fair_pca()], [fit_pca_pareto].
#' @examples
#' set.seed(1)
#' pf <- pareto_front(iris[, 1:4], iris$Species, k = 2, restarts = 3, iterations = 100)
#' pf
#' plot(pf)
#' @export
pareto_front <- function(x, ...) UseMethod("pareto_front")

#' @rdname pareto_front
#' @export
pareto_front.default <- function(x, group, k, restarts = 10L, ...) {
  restarts <- fp_check_count(restarts, 0L, 1e4, "restarts")
  args <- list(...)
  bad <- intersect(names(args), c("start", "restarts", "init", "method"))
  if (length(bad)) fp_abort(sprintf("must not contain %s (pareto_front sets them)", paste(bad, collapse = ", ")), "...")
  m <- if (inherits(x, "group_moments")) x else {
    xm <- fp_as_matrix(x, "x")
    if (missing(group)) fp_abort("is missing: give one group label per row", "group")
    group_moments(xm, fp_as_group(group, nrow(xm), "group", min_levels = 2L))
  }
  pb <- fp_progress_bar(restarts + 1, "Pareto fair PCA fits")
  one <- function(start, i) {
    # one summary warning below instead of one per fit
    f <- withCallingHandlers(
      do.call(fair_pca, c(list(m, k = k, method = "pareto", start = start, keep_moments = FALSE), args)),
      fairproj_convergence_warning = function(w) invokeRestart("muffleWarning"))
    pb$update(i)
    f
  }
  fits <- c(list(one("pca", 1)), lapply(seq_len(restarts), function(i) one("random", i + 1)))
  spec_names <- names(fits[[1]]$objectives)
  F <- do.call(rbind, lapply(fits, function(f) f$objectives))
  dominated <- vapply(seq_len(nrow(F)), function(i) {
    any(vapply(seq_len(nrow(F)), function(j) j != i && all(F[j, ] <= F[i, ]) && any(F[j, ] < F[i, ]), logical(1)))
  }, logical(1))
  tab <- data.frame(start = c("pca", rep("random", restarts)), total = F[, 1L],
                    disparity = vapply(fits, function(f) diff(range(f$excess)), numeric(1)),
                    max_excess = vapply(fits, function(f) max(f$excess), numeric(1)), stringsAsFactors = FALSE)
  tab <- cbind(tab, as.data.frame(F[, -1L, drop = FALSE], optional = TRUE))
  names(tab)[seq_len(ncol(F) - 1L) + 4L] <- spec_names[-1L]
  tab$dominated <- dominated
  tab$converged <- vapply(fits, function(f) isTRUE(f$converged), logical(1))
  if (!all(tab$converged)) {
    fp_warn_convergence(sprintf("%d of %d Pareto fits stopped before converging (at the iteration cap or a stall); raise `iterations` or see $table$converged",
                                sum(!tab$converged), nrow(tab)))
  }
  gs <- fits[[1]]$group_stats_standard
  std_total <- fits[[1]]$history$objective[1L]
  std <- c(total = if (identical(fits[[1]]$settings$start, "pca")) std_total else NA_real_,
           disparity = diff(range(gs$loss)))
  structure(list(fits = fits, table = tab, standard = std, k = k), class = "fairproj_pareto_front")
}

#' @export
print.fairproj_pareto_front <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("<fairproj_pareto_front> %d fits of Pareto fair PCA, k = %d; %d of them converged\n",
              length(x$fits), x$k, sum(x$table$converged)))
  cat(sprintf("standard PCA: total loss %s, disparity %s\n", format(x$standard[["total"]], digits = digits),
              format(x$standard[["disparity"]], digits = digits)))
  print(x$table[, c("start", "total", "disparity", "max_excess", "dominated", "converged")], digits = digits,
        row.names = FALSE)
  invisible(x)
}

#' Plot a Pareto front
#'
#' Total reconstruction loss against disparity (largest difference between the groups' excess
#' losses) of every fit of a [pareto_front()]; fits that no other fit dominates on the
#' objective vector are filled, standard PCA is a cross.
#'
#' @param x A `fairproj_pareto_front` object.
#' @param main Plot title.
#' @param legend Position of the legend (as in [graphics::legend()]), or `NULL` for none.
#' @param ... Graphical arguments passed to [graphics::plot()].
#' @return Invisibly, `x$table`.
#' @examples
#' set.seed(2)
#' plot(pareto_front(iris[, 1:4], iris$Species, k = 1, restarts = 4, iterations = 100))
#' @export
plot.fairproj_pareto_front <- function(x, main = sprintf("Pareto fair PCA, k = %d", x$k), legend = "topright", ...) {
  tab <- x$table
  xs <- c(tab$disparity, x$standard[["disparity"]])
  ys <- c(tab$total, x$standard[["total"]])
  graphics::plot(tab$disparity, tab$total, pch = ifelse(tab$dominated, 1, 19), col = ifelse(tab$start == "pca", 2, 1),
                 xlim = range(xs, na.rm = TRUE), ylim = range(ys, na.rm = TRUE),
                 xlab = "disparity  max |E_g - E_h|", ylab = "total reconstruction loss",
                 main = main, ...)
  graphics::points(x$standard[["disparity"]], x$standard[["total"]], pch = 4, cex = 1.5, col = 4)
  if (!is.null(legend)) {
    graphics::legend(legend, legend = c("non-dominated", "dominated", "start: standard PCA", "standard PCA"),
                     pch = c(19, 1, 19, 4), col = c(1, 1, 2, 4), bty = "n", cex = 0.8)
  }
  invisible(tab)
}

#' Plot a Pareto fair PCA fit
#'
#' `type = "convergence"` draws every objective along the iterations, each rescaled to
#' \[0, 1\] over the run (the total loss in black, the disparity objectives in colour); other
#' types are those of [plot.fair_pca()].
#'
#' @param x A `fair_pca_pareto` object.
#' @param type As in [plot.fair_pca()].
#' @param ... Passed to [plot.fair_pca()] or [graphics::matplot()].
#' @param main Title of the convergence plot.
#' @return Invisibly, the data plotted.
#' @examples
#' fit <- fair_pca(iris[, 1:4], iris$Species, k = 2, method = "pareto", iterations = 100)
#' plot(fit, "convergence")
#' @export
plot.fair_pca_pareto <- function(x, type = c("errors", "loss", "scores", "scree", "convergence"), ...,
                                 main = "Convergence (Pareto fair PCA)") {
  type <- fp_match_arg(type, c("errors", "loss", "scree", "convergence"), "type")
  if (type != "convergence") return(NextMethod())
  h <- x$history
  cols <- c("objective", names(x$objectives)[-1L])
  Y <- as.matrix(h[, cols, drop = FALSE])
  lo <- apply(Y, 2L, min)
  rg <- apply(Y, 2L, max) - lo
  rg[rg == 0] <- 1
  Ys <- sweep(sweep(Y, 2L, lo, `-`), 2L, rg, `/`)
  graphics::matplot(h$iteration, Ys, type = "l", lty = 1, col = seq_along(cols), xlab = "iteration",
                    ylab = "objective, rescaled to [0, 1]", main = main, ...)
  graphics::legend("topright", legend = c("total loss", cols[-1L]), col = seq_along(cols), lty = 1, bty = "n",
                   cex = 0.8)
  invisible(h)
}

#' @export
print.fair_pca_pareto <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  y <- x
  y$objectives <- NULL  # the generic print shows a scalar `objective`; ours is a vector
  class(y) <- setdiff(class(x), "fair_pca_pareto")
  print(y, digits = digits, ...)
  s <- x$settings
  cat(sprintf("\nObjectives (%s disparity, psi = %s):\n", s$disparity, s$psi))
  print(signif(x$objectives, digits))
  cat(sprintf("Stopped after %d steps (%s gradients, %s steps): %s%s\n", x$iterations, s$gradient, s$step,
              x$status, if (isTRUE(x$converged)) ", converged" else ""))
  if (!is.null(x$front)) {
    cat(sprintf("%d starts; the selected end point is the non-dominated one with the smallest disparity (see $front)\n",
                nrow(x$front)))
  }
  invisible(x)
}

# Values of a run back in the data's units (the run worked on the normalised problem of
# fp_normalise()): losses scale with `unit`, squared disparities with `unit^2`.
fp_pareto_units <- function(run, spec, psi, unit, alpha = 0, k = 0) {
  if (unit == 1) return(run)
  pw <- if (psi == "square") 2 else 1
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
