#' Distributionally robust fair PCA (Vu et al. 2022)
#'
#' `fair_pca(x, group, k, method = "robust", ...)` finds the k-dimensional subspace that
#' minimises, in the worst case over a Wasserstein-type (Gelbrich) ball around each group's
#' empirical distribution, the total reconstruction error plus `lambda` times the absolute gap
#' between the groups' reconstruction errors (Vu, Tran, Yue and Nguyen 2022). This page
#' documents the arguments of the method; they are passed through the `...` of [fair_pca()].
#'
#' **Objective.** With \eqn{M_a} the uncentred second moment of group a (divisor \eqn{N_a}) in
#' the coordinates the fit works in, \eqn{L_a(V) = \langle I - VV^\top, M_a\rangle},
#' \eqn{p_a = N_a/N} and radii \eqn{\varepsilon_a = \alpha/\sqrt{N_a}}, two groups give
#' Theorem 3.2's \eqn{\max\{J_0(V), J_1(V)\}} with
#' \eqn{J_a = \kappa_a + \theta_a\sqrt{L_a} + \vartheta_{a'}\sqrt{L_{a'}} + \langle I - VV^\top, C_a\rangle}
#' and the constants of its equation (6c). For m > 2 groups the unfairness is the largest
#' pairwise gap (Appendix B) and the objective is
#' \deqn{\sum_b p_b (L_b + \varepsilon_b) + \max_{a \ne a'} \Big\{\sum_b 2 c_{a a' b} \sqrt{\varepsilon_b L_b} + \lambda (L_a - L_{a'}) + \lambda(\varepsilon_a - \varepsilon_{a'})\Big\},}
#' \eqn{c_{aa'b} = p_a + \lambda, |p_{a'} - \lambda|, p_b} for \eqn{b = a}, \eqn{b = a'} and
#' otherwise. The first sum depends on V: the printed Theorem B.2 drops it as "independent of
#' (a, a')", which changes the minimiser; with it the formula reduces to Theorem 3.2 for m = 2.
#'
#' **Exactness.** The reformulation is exact when, for every group, \eqn{\lambda \le p_a} or the
#' sum of the d - k smallest eigenvalues of \eqn{M_a} is at least \eqn{\varepsilon_a}
#' (Theorem 3.2, conditions (i)/(ii)). When this fails, `lambda` is lowered to
#' \eqn{\min_a p_a} (the fallback of the authors' code), with a warning of class
#' `fairproj_robust_lambda`; the value used is returned as `lambda` and the requested one as
#' `lambda_requested`.
#'
#' **Algorithm.** Algorithm 1 of the paper: Riemannian subgradient descent on the Stiefel
#' manifold, constant step \eqn{1/\sqrt{\tau + 1}} for \eqn{\tau} = `iterations`, QR retraction
#' with a positive diagonal of R (or the polar retraction), last iterate returned. It runs from
#' the standard-PCA subspace and from `restarts` random starts (Haar-distributed, drawn with R's
#' RNG, so [set.seed()] reproduces) and keeps the run with the smallest final objective, as the
#' authors' code does. `parameterization = "complement"` iterates on the (d - k)-column
#' orthonormal complement U as the paper does, costing \eqn{O(d^2(d-k))} per iteration;
#' `"basis"` (default) iterates on the k-column basis V itself, \eqn{O(d^2 k)} per iteration,
#' and moves the subspace identically to first order in the step. On the paper's 14 UCI
#' datasets (alpha = 0.15, lambda = 0.5, k = 3, 4 seeds) it reached the same final objective
#' (relative difference below 1e-6) in 48 of 56 runs, a lower one in 7 and a higher one in 1
#' (by 1.4e-4 relative), at 12 (d = 22) to 450 (d = 576) times less cost per iteration; see
#' `bench/robust.R` in the source repository.
#'
#' **Step size.** The constant step \eqn{1/\sqrt{\tau+1}} does not depend on the data. Near a
#' minimiser the iteration behaves like gradient descent on the quadratic part
#' \eqn{\langle I - VV^\top, C_a\rangle}, which is stable only when the step is below about
#' \eqn{1/\lambda_{\max}(C_a)}: with the paper's 1000 iterations (step 0.0316) and standardised data
#' this holds unless the top eigenvalue of the data exceeds about 30 (or less for large
#' `lambda`, which enlarges \eqn{C_a}). Beyond it the iterates move away from good subspaces
#' and the objective can end far above the standard-PCA start. The fit reports this bound as
#' `step_limit`; fewer iterations mean a larger step, so **when reducing `iterations`, keep
#' `step = 1/sqrt(1001)`** (or smaller) to stay on the paper's path.
#'
#' **Units.** The solver works on the problem normalised to average column variance 1 (see
#' [fair_pca()]), so every fit with the default `alpha` radii and `step` gives the same subspace
#' whatever the units of the data (multiplying the data by a constant, or adding offsets when
#' centring, changes nothing but the reported values, which are in the data's units). After
#' `scale. = TRUE` the normalisation is the identity, which is the paper's setting.
#'
#' **Centring and scaling.** The method is defined on uncentred group second moments of the
#' data in the coordinates set by [fair_pca()]'s `center` and `scale.`; the paper standardises
#' the data globally (overall mean, overall standard deviation) and its radii rule
#' \eqn{\alpha/\sqrt{N_a}} and step size assume unit-variance columns. `fair_pca()`'s defaults
#' (`center = TRUE, scale. = FALSE`) only centre, so **pass `scale. = TRUE` to follow the
#' paper** (as [tune_fair_pca()] does by default). With `lambda = 0` and `alpha = 0` the method
#' is standard PCA of the centred (and scaled) data (Remark 3.4).
#'
#' Progress of the restarts is shown in interactive sessions (not under knitr; turn it off with
#' `options(fairproj.progress = FALSE)`); the C++ loop can be interrupted with Ctrl-C.
#'
#' **Cost**: after the moments, `(restarts + 1) iterations` steps of \eqn{O(d^2 k)} each
#' (\eqn{O(d^2 (d - k))} with `parameterization = "complement"`), about
#' \eqn{6 \cdot 10^{-5} d^2 k} seconds at the defaults (12-24 s at d = 200, k = 5). With m
#' groups each step also evaluates the m(m - 1) pieces of m terms each, \eqn{O(m^3)}: about
#' 40 s at the defaults with 100 groups, and more than the default limit beyond about 100. A fit
#' estimated to take longer than the time limit (`options(fairproj.time_limit = )`, in seconds,
#' default 60) is refused up front with an error of class `fairproj_cost_error` that says how
#' many restarts fit.
#'
#' @param prep,data Supplied by [fair_pca()].
#' @param k Target dimension (must be smaller than the number of columns).
#' @param alpha Radius scale \eqn{\alpha \ge 0}: \eqn{\varepsilon_a = \alpha s/\sqrt{N_a}} in
#'   the data's units, with \eqn{s = 1} after `scale. = TRUE` (standardised columns: the
#'   paper's rule \eqn{\alpha/\sqrt{N_a}}), and otherwise \eqn{s} the average column variance
#'   of the data in the coordinates of the fit with divisor \eqn{N} (so data standardised
#'   beforehand as the authors' code does, divisor \eqn{N}, also get \eqn{\alpha/\sqrt{N_a}},
#'   and the radii follow the data's units; see "Units" below).
#' @param lambda Fairness weight \eqn{\lambda \ge 0}.
#' @param iterations Number of iterations \eqn{\tau} of each run (the paper: 1000; 500 on LFW).
#' @param restarts Number of random starts besides the standard-PCA start (the paper: 20).
#' @param retraction `"qr"` (the authors' code) or `"polar"` (equation (8) of the paper).
#' @param parameterization `"basis"` (fast, default) or `"complement"` (the paper's).
#' @param radius Optional vector of radii \eqn{\varepsilon_a}, one per group (named by group or in
#'   the order of the levels), in the units of the data's variances; overrides `alpha`.
#' @param step Step size. `NULL` (default): the paper's \eqn{1/\sqrt{\tau + 1}} in the
#'   normalised units of the fit (average column variance 1), lowered to the stability bound
#'   `step_limit` when that is smaller, so the default is safe and scale-free; `"paper"`: the
#'   paper's \eqn{1/\sqrt{\tau + 1}} in the data's units (what the paper ran, also on
#'   unstandardised data such as LFW pixels); a number: the step in the data's units (a
#'   step multiplies gradients, which have units of variance).
#' @param keep_start Logical. When every run ends above the objective of the standard-PCA start
#'   (a step too large for the data, or the constant-step iteration kicked away from a nonsmooth
#'   minimiser), `TRUE` (default) returns that start; `FALSE` returns the best final iterate as
#'   the paper does. Either way a warning of class `fairproj_convergence_warning` says so.
#' @param iterate `"last"` (the paper's output: the last iterate of each run) or `"best"` (the
#'   iterate of smallest objective of each run, at no extra cost). With a constant step the
#'   subgradient method oscillates around a nonsmooth minimiser (where \eqn{J_0 = J_1}), so the
#'   best iterate is usually a little better than the last one. The oscillation grows with
#'   `lambda`: when the last iterate returned is more than 1\% above the best iterate visited
#'   (`best_visited`), a warning of class `fairproj_convergence_warning` says so.
#' @return Besides the fields of every [fair_pca()] fit: `objective` (the robust objective of the
#'   returned subspace), `pieces` (the values of all pieces \eqn{J}, in the order (1,2), (1,3),
#'   ..., (2,1), ... of the pairs of groups), `history` (data.frame: `iteration`, `objective`,
#'   active `piece` of the kept run), `restart_objectives` (objective of the output of each run,
#'   the standard-PCA start first), `best_visited` (the smallest objective of any iterate of any
#'   run), `best_start`, `best_iterate` (iteration of the output), `lambda`, `lambda_requested`, `alpha`, `radius`,
#'   `exact` (whether the exactness condition held for the requested `lambda`), `iterations`,
#'   `step` (the step used, in the data's units), `step_rule` (`"auto"`, `"paper"` or `"given"`),
#'   `returned` (`"descent"`, or `"start"` when the standard-PCA start was returned), `step_limit` (\eqn{1/\max_a \lambda_{\max}(\sum_b |W_{ab}| M_b)}, the stability bound
#'   for the step described above), `retraction`, `parameterization` and
#'   `orthogonality_error` (the largest
#'   \eqn{\max|X^\top X - I|} over all iterates of all runs).
#' @references Vu, H., Tran, T., Yue, M.-C. and Nguyen, V. A. (2022). Distributionally robust
#'   fair principal components via geodesic descents. *ICLR 2022*.
#'   \doi{10.48550/arXiv.2202.03071}
#' @seealso [tune_fair_pca()] for the paper's cross-validation of `alpha` and `lambda`,
#'   [group_errors()] for ABDiff and ARE on test data.
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' set.seed(1)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' fit <- fair_pca(pbc2[1:6], pbc2$sex, k = 2, method = "robust",
#'                 scale. = TRUE, alpha = 0.15, lambda = 0.5, iterations = 200, restarts = 2)
#' fit$group_stats
#' fit$objective
#' @aliases fair_pca_robust
fit_pca_robust <- function(prep, k, alpha = 0.15, lambda = 0.5, iterations = 1000L, restarts = 20L,
                           retraction = c("qr", "polar"), parameterization = c("basis", "complement"),
                           radius = NULL, step = NULL, iterate = c("last", "best"), keep_start = TRUE,
                           data = NULL) {
  d <- prep$d
  if (k >= d) fp_abort(sprintf("must be smaller than the number of columns (%d) for method 'robust'", d), "k")
  alpha <- fp_check_number(alpha, "alpha", lower = 0, upper = Inf, open_upper = TRUE)
  lambda <- fp_check_number(lambda, "lambda", lower = 0, upper = Inf, open_upper = TRUE)
  iterations <- fp_check_count(iterations, 0L, 1e7, "iterations")
  restarts <- fp_check_count(restarts, 0L, 1e5, "restarts")
  retraction <- fp_match_arg(retraction, c("qr", "polar"), "retraction")
  parameterization <- fp_match_arg(parameterization, c("basis", "complement"), "parameterization")
  iterate <- fp_match_arg(iterate, c("last", "best"), "iterate")
  fp_check_flag(keep_start, "keep_start")
  fp_robust_check_cost(d, k, restarts, iterations, parameterization == "basis", length(prep$levels))
  step_rule <- if (is.null(step)) "auto" else if (identical(step, "paper")) "paper" else "given"
  if (step_rule == "given") {
    if (is.character(step)) fp_abort("must be NULL, \"paper\" or a positive number", "step")
    step <- fp_check_number(step, "step", lower = 0, upper = Inf, open_lower = TRUE, open_upper = TRUE)
  }
  unit <- prep$unit
  eps <- fp_robust_radius(prep, alpha, radius)
  cons <- robust_constants(prep, k, eps, lambda)
  M <- lapply(seq_along(prep$levels), function(i) fp_prep_second(prep, i))
  basis <- parameterization == "basis"
  st <- fp_robust_step(M, cons, step_rule, step, iterations, unit)
  runs <- fp_robust_runs(M, cons, k, d, basis, restarts + 1L, iterations, st$norm, retraction, iterate)
  res <- runs$res
  finals <- vapply(res, `[[`, numeric(1), "value")
  finals[!is.finite(finals)] <- Inf
  best <- which.min(finals)
  V <- fp_robust_returned(res, finals, best, runs$start, basis, k, keep_start, iterate, unit, st$limit)
  ev <- fp_cpp(.fp_robust_eval(M, cons$W, cons$R, cons$kappa, V$V, TRUE), "the robust objective")
  list(rotation = V$V, objective = ev$value * unit, pieces = ev$pieces * unit,
       best_visited = V$visited * unit,
       history = data.frame(iteration = 0:iterations, objective = res[[best]]$history * unit,
                            piece = res[[best]]$piece),
       restart_objectives = finals * unit, best_start = best, best_iterate = res[[best]]$iterate,
       returned = if (V$fell_back) "start" else "descent",
       lambda = cons$lambda, lambda_requested = lambda, alpha = if (is.null(radius)) alpha else NA_real_,
       radius = eps * unit, exact = cons$exact, iterations = iterations, step = st$norm / unit,
       step_rule = step_rule, retraction = retraction, parameterization = parameterization,
       step_limit = st$limit / unit,
       orthogonality_error = max(vapply(res, `[[`, numeric(1), "orthogonality_error")))
}

# Refuses up front a fit estimated to take longer than the time limit (fp_check_cost()): an
# iteration costs about 3e-9 d^2 k seconds (basis; d^2 (d - k) for the complement), plus an
# O(d^3) start per run (measured: 21 runs of 1,000 iterations at d = 200, k = 5 in 12-24 s, the
# machine shared), plus 2.5e-9 m^2 (m - 1) for the m (m - 1) pieces of m terms each that every
# iteration evaluates with m groups (measured: 5 runs of 1,000 iterations with 100 groups at
# d = 4 in 12 s, 21 runs in 37 s; 200 groups took 8 minutes before this term was counted).
fp_robust_run_cost <- function(d, k, iterations, basis, m) {
  iterations * (3e-9 * d^2 * (if (basis) k else d - k) + 2.5e-9 * m^2 * (m - 1)) + 1e-8 * d^3
}
fp_robust_check_cost <- function(d, k, restarts, iterations, basis, m = 2L) {
  per_run <- fp_robust_run_cost(d, k, iterations, basis, m)
  secs <- (restarts + 1) * per_run
  fits <- max(0, floor(min(fp_time_limit(), 1e9) / per_run) - 1)
  fp_check_cost(secs, sprintf("method \"robust\" (%d starts of %d iterations over %d columns and %d groups)",
                              restarts + 1L, iterations, d, m),
                sprintf("lower `restarts` (restarts = %d fits) or `iterations`, merge small groups, or use method = \"minmax\" (seconds)",
                        fits))
}

# The radius of each group's ambiguity set, in the normalised units of `prep`, named by group.
fp_robust_radius <- function(prep, alpha, radius) {
  unit <- prep$unit
  n <- as.numeric(prep$n)
  m <- length(n)
  if (is.null(radius)) {
    # eps_a = alpha s / sqrt(N_a) in the data's units: s = 1 on standardised columns, otherwise
    # the average population variance (divisor N), which is 1 on data standardised beforehand
    # as the authors' code does (divisor N); in the normalised units of `prep`, divided by `unit`
    ntot <- sum(n)
    eps <- alpha / sqrt(n) * (if (prep$scaled) 1 / unit else (ntot - 1) / ntot)
  } else {
    if (!is.numeric(radius) || length(radius) != m || anyNA(radius) || any(!is.finite(radius)) || any(radius < 0)) {
      fp_abort(sprintf("must be %d finite non-negative numbers, one per group", m), "radius")
    }
    if (!is.null(names(radius))) {
      if (!setequal(names(radius), prep$levels)) fp_abort("names must be the group levels", "radius")
      radius <- radius[prep$levels]
    }
    eps <- as.numeric(radius) / unit  # radii are given in the data's units
  }
  names(eps) <- prep$levels
  eps
}

# The step the iteration uses (`norm`, in the normalised units of the prepared problem) and the
# stability bound `limit`: 1 / the largest eigenvalue of the quadratic part sum_b W(p, b) M_b
# over the pieces; near a minimiser, a step above it makes the iteration unstable (see Details).
fp_robust_step <- function(M, cons, step_rule, step, iterations, unit) {
  curv <- max(vapply(seq_len(nrow(cons$W)), function(pc) {
    Q <- Reduce(`+`, Map(`*`, M, abs(cons$W[pc, ])))
    fp_eig_top((Q + t(Q)) / 2, 1L)$values[1]
  }, numeric(1)))
  step_limit <- 1 / max(curv, .Machine$double.xmin)
  list(limit = step_limit,
       norm = switch(step_rule,
                     auto = min(1 / sqrt(iterations + 1), step_limit),
                     paper = unit / sqrt(iterations + 1),
                     given = step * unit))
}

# The runs of the compiled descent: the first from standard PCA, the top-k eigenvectors of
# sum_b p_b M_b (or their complement), the others from random orthonormal starts (R's RNG).
# list(res = each run's result, start = the standard-PCA basis).
fp_robust_runs <- function(M, cons, k, d, basis, starts, iterations, step_norm, retraction, iterate) {
  S <- Reduce(`+`, Map(`*`, M, cons$p))
  res <- vector("list", starts)
  pb <- fp_progress_bar(starts, "Robust fair PCA restarts")
  r <- if (basis) k else d - k
  opts <- list(basis = basis, iterations = as.integer(iterations), step = step_norm, polar = retraction == "polar",
               keep_best = iterate == "best")
  for (s in seq_len(starts)) {
    X0 <- if (s == 1L) {
      top <- fp_eig_top((S + t(S)) / 2, k)$vectors
      X0_pca <- top
      if (basis) top else fp_complement(top, d - k)
    } else {
      qr.Q(qr(matrix(stats::rnorm(d * r), d, r)))
    }
    res[[s]] <- fp_cpp(.fp_robust_run(M, cons$W, cons$R, cons$kappa, X0, opts), "the robust solver")
    pb$update(s)
  }
  list(res = res, start = X0_pca)
}

# The basis returned from the best run, with the warnings that keep it honest. list(V,
# fell_back = whether the standard-PCA start is returned, visited = the best objective any run
# visited).
fp_robust_returned <- function(res, finals, best, X0_pca, basis, k, keep_start, iterate, unit, step_limit) {
  X <- res[[best]]$X
  V <- if (basis) X else fp_complement(X, k)
  # never worse than the standard-PCA start without saying so: if every run ended above the
  # objective of that start (a step too large for the data, or too few iterations), the start
  # is returned with a warning
  start_value <- res[[1L]]$history[1L]
  fell_back <- FALSE
  if (!is.finite(finals[best]) || finals[best] > start_value + fp_tol_tie * abs(start_value)) {
    fell_back <- keep_start || !is.finite(finals[best])
    if (fell_back) V <- X0_pca
    fp_warn_convergence(sprintf(paste0(
      "method 'robust': every run ended above the objective of its standard-PCA start (best %.6g > %.6g)%s; ",
      "use iterate = \"best\", a smaller `step` (the stability bound `step_limit` is %.3g) or more `iterations`"),
      finals[best] * unit, start_value * unit,
      if (fell_back) ", so the start is returned" else " (returned, keep_start = FALSE)", step_limit / unit))
  }
  # the paper's output is the last iterate; with a constant step it can sit far above the best
  # iterate the runs visited (the iteration jumps across a kink J_0 = J_1, more so for large
  # lambda): say so rather than return it silently
  visited <- min(vapply(res, function(r) min(r$history[is.finite(r$history)], Inf), numeric(1)))
  if (!fell_back && iterate == "last" && is.finite(visited) &&
      finals[best] > visited + 0.01 * abs(visited) + fp_tol_tie) {
    fp_warn_convergence(sprintf(paste0(
      "method 'robust': the last iterate returned (objective %.6g) is %.1f%% above the best iterate ",
      "visited (%.6g): the constant step oscillates across a kink of the objective; use iterate = \"best\", ",
      "a smaller `step` or more `iterations`"),
      finals[best] * unit, 100 * (finals[best] - visited) / abs(visited), visited * unit))
  }
  list(V = V, fell_back = fell_back, visited = visited)
}

# The constants of the robust objective: per piece (pair a != a'), weights W of L_b, weights R
# of sqrt(L_b) and constants kappa; checks the exactness condition and applies the fallback.
robust_constants <- function(prep, k, eps, lambda, warn = TRUE) {
  n <- as.numeric(prep$n)
  m <- length(n)
  p <- n / sum(n)
  # condition (ii): sum of the d - k smallest eigenvalues of M_a >= eps_a
  tail_sum <- vapply(seq_along(prep$levels), function(i) {
    M <- fp_prep_second(prep, i)
    sum(diag(M)) - sum(fp_eig_top((M + t(M)) / 2, k)$values)
  }, numeric(1))
  names(tail_sum) <- prep$levels
  ok <- lambda <= p | tail_sum >= eps
  exact <- all(ok)
  lam <- lambda
  if (!exact) {
    lam <- min(p)
    if (warn) {
      warning(warningCondition(
        sprintf(paste0("`lambda` = %g: the reformulation of Theorem 3.2 is not exact for group(s) %s ",
                       "(lambda > p_a and the %d smallest eigenvalues of M_a sum to less than the radius); ",
                       "using lambda = min(p_a) = %g instead"),
                lambda, paste(shQuote(prep$levels[!ok]), collapse = ", "), prep$d - k, lam),
        class = c("fairproj_robust_lambda", "fairproj_warning")))
    }
  }
  pairs <- which(diag(m) == 0, arr.ind = TRUE)
  pairs <- pairs[order(pairs[, 1], pairs[, 2]), , drop = FALSE]
  P <- nrow(pairs)
  W <- matrix(rep(p, each = P), P, m)
  W[cbind(seq_len(P), pairs[, 1])] <- W[cbind(seq_len(P), pairs[, 1])] + lam
  W[cbind(seq_len(P), pairs[, 2])] <- W[cbind(seq_len(P), pairs[, 2])] - lam
  R <- 2 * abs(W) * matrix(rep(sqrt(eps), each = P), P, m)
  kappa <- as.numeric(W %*% eps)
  list(W = W, R = R, kappa = kappa, p = p, lambda = lam, exact = exact, pairs = pairs,
       tail_sum = tail_sum)
}

# An orthonormal basis of the orthogonal complement of span(U) (d x k).
fp_complement <- function(U, k) {
  d <- nrow(U)
  P <- diag(d) - tcrossprod(U)
  fp_eig_top((P + t(P)) / 2, k)$vectors
}
