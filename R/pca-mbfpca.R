#' MMD-based fair PCA on the Stiefel manifold (Lee et al. 2022)
#'
#' `fair_pca(x, group, k, method = "mbfpca", tau = , sigma = )` computes MbF-PCA: the
#' orthonormal `V` (d x k) minimising
#' \deqn{-\mathrm{tr}(V^\top C V)/\mathrm{tr}(C) + \rho\,\mathrm{MMD}^2(Z_1 V, Z_0 V)}
#' over the Stiefel manifold, where `C` is the covariance matrix that PCA diagonalises and
#' \eqn{\mathrm{MMD}^2} is the biased (V-statistic) estimate of the squared maximum mean
#' discrepancy between the projected rows of the two groups, with the Gaussian kernel
#' \eqn{\exp(-\|a - b\|^2 / (2\sigma^2))}. As in the paper, an exact-penalty loop doubles
#' \eqn{\rho} while \eqn{\mathrm{MMD}^2 > \tau} (at most `maxit_outer` times, \eqn{\rho \le 10^{10}})
#' and tightens the inner tolerance (on the Riemannian gradient norm, relative to the size of the
#' gradients of the two terms) from 0.1 to 1e-6; it stops once \eqn{\mathrm{MMD}^2 \le \tau} and
#' the subspace has settled. The inner solver is a Riemannian limited-memory BFGS (`solver =
#' "lbfgs"`, memory 10, vector transport by projection; the authors use ROPTLIB's Riemannian BFGS)
#' or Riemannian conjugate gradient (`"cg"`, Polak-Ribiere+); both use Armijo backtracking and the
#' QR retraction.
#'
#' **Needs the rows**: the MMD is not a function of the group moments, so `x` must be data (not a
#' `group_moments` object). One evaluation of the penalty and its gradient costs
#' \eqn{O(n^2 k + ndk)} time and \eqn{O(nk)} memory. With more than `max_rows` rows, the MMD term
#' is computed on a random subsample of `max_rows` rows drawn within each group in proportion to
#' its size (R's RNG: use `set.seed()`); the variance term always uses all rows.
#'
#' In interactive sessions an indeterminate progress bar counts the penalty updates (turn it off with
#' `options(fairproj.progress = FALSE)`).
#'
#' **Cost and time limit.** A fit takes about a thousand evaluations of the penalty and its
#' gradient (670-1,370 measured at n = 400-1,600 rows, d = 10-40, k = 2), each
#' \eqn{O(n^2 k + n d k)} with n the rows of the MMD term (at most `max_rows`): about
#' \eqn{1.5 \cdot 10^{-5} n^2 k} seconds in all on one core, so 1,000 rows take about half a
#' minute and 5,000 rows some ten minutes. A fit estimated to take longer than the time limit
#' (`options(fairproj.time_limit = )`, in seconds, default 60; `Inf` turns it off) is refused up
#' front with an error of class `fairproj_cost_error` that gives a `max_rows` that fits; a fit
#' that runs past the limit stops after the penalty update in progress, with a
#' `fairproj_convergence_warning`.
#'
#' **Defaults** follow the authors' code for the UCI experiments: `sigma` by the median heuristic
#' \eqn{\sqrt{\mathrm{median}\|y_i - y_j\|^2 / 2}} on the standard-PCA projection of the (subsampled)
#' rows (on at most 2000 rows), \eqn{\rho_0 = 1/\mathrm{MMD}^2} of standard PCA, and the start from
#' the solution of the fairness-only problem (`init = "fair"`, their `mbfpca_auxiliary`);
#' `init = "pca"` starts from standard PCA. Lee et al. report \eqn{\tau = 10^{-3}} and \eqn{10^{-6}}.
#' When standard PCA already has \eqn{\mathrm{MMD}^2 \le \tau} the constraint is inactive and
#' standard PCA is returned.
#'
#' @param prep,data Supplied by [fair_pca()].
#' @param k Target dimension (smaller than the number of columns).
#' @param tau Target level of \eqn{\mathrm{MMD}^2} (> 0).
#' @param sigma Kernel bandwidth (> 0, in the data's units); `NULL` for the median heuristic.
#' @param rho0 Initial penalty weight (> 0); `NULL` for \eqn{1/\mathrm{MMD}^2} of standard PCA.
#' @param init `"fair"` or `"pca"`: the starting point (see Defaults).
#' @param solver Inner solver: `"lbfgs"` or `"cg"`.
#' @param max_rows Rows used for the MMD term (subsampling above it).
#' @param maxit_outer,maxit_inner Maximum numbers of penalty updates and of conjugate-gradient
#'   iterations per subproblem.
#' @return The fields added to the [fair_pca()] result: `rotation`, `mmd2` (on the rows used), `rho`, `sigma`,
#'   `tau`, `converged`, `outer_iterations`, `inner_iterations`, `rows_used`, `history`
#'   (data.frame: `rho`, `objective`, `mmd2`, `var_ratio`, `grad_norm`, `inner_iterations`).
#' @references Lee, J., Kim, G., Olfat, M., Hasegawa-Johnson, M. and Yoo, C. D. (2022). Fast and
#'   efficient MMD-based fair PCA via optimization over Stiefel manifold. AAAI 36, 7363-7371.
#' @seealso [fair_pca()], [fair_pca_mean], [cfpca].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' set.seed(1)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' fit <- fair_pca(as.matrix(pbc2[1:6]), pbc2$sex, k = 2, method = "mbfpca", tau = 1e-2,
#'                 scale. = TRUE)
#' fit$mmd2
#' @name mbfpca
#' @aliases fair_pca_mbfpca
NULL

fit_pca_mbfpca <- function(prep, k, tau = 1e-3, sigma = NULL, rho0 = NULL, init = c("fair", "pca"),
                           solver = c("lbfgs", "cg"), max_rows = 5000L, maxit_outer = 100L,
                           maxit_inner = 300L, data = NULL) {
  if (is.null(data)) {
    fp_abort_needs_rows("mbfpca", "the MMD needs them")
  }
  if (length(prep$levels) != 2L) fp_abort("must have exactly 2 groups for method 'mbfpca'", "group")
  # every rank-d projection is the identity, which no iteration can make fairer
  if (k >= prep$d) fp_abort(sprintf("must be smaller than the number of columns (%d) for method 'mbfpca'", prep$d), "k")
  fp_check_number(tau, "tau", 0, Inf, open_lower = TRUE)
  if (!is.null(sigma)) fp_check_number(sigma, "sigma", 0, Inf, open_lower = TRUE)
  if (!is.null(rho0)) fp_check_number(rho0, "rho0", 0, Inf, open_lower = TRUE)
  if (!is.character(init)) fp_abort("must be \"fair\" or \"pca\"", "init")
  init <- fp_match_arg(init, c("fair", "pca"), "init")
  if (!is.character(solver)) fp_abort("must be \"lbfgs\" or \"cg\"", "solver")
  solver <- fp_match_arg(solver, c("lbfgs", "cg"), "solver")
  max_rows <- fp_check_count(max_rows, 4L, .Machine$integer.max, "max_rows")
  maxit_outer <- fp_check_count(maxit_outer, 1L, 10000L, "maxit_outer")
  maxit_inner <- fp_check_count(maxit_inner, 1L, 1e6, "maxit_inner")
  gi <- as.integer(data$group == prep$levels[2])
  mbf_check_cost(min(length(gi), max_rows), prep$d, k, maxit_outer)
  z <- fp_transform(prep, data$x)
  idx <- mbf_subsample(gi, max_rows)
  z <- z[idx, , drop = FALSE]
  gi <- gi[idx]
  Vp <- fp_prep_eig(prep, k)$vectors
  # the rows z are in the normalised units of fp_prepare_normalised(); a given bandwidth is in the data's
  sq <- sqrt(prep$unit)
  sigma <- if (is.null(sigma)) mbf_median_sigma(z %*% Vp) else sigma / sq
  m_pca <- fp_cpp(.fp_mmd2(z, gi, Vp, sigma, FALSE), "the MMD computation")$value
  if (m_pca <= tau) {  # the constraint is inactive: standard PCA is the solution
    return(list(rotation = Vp, mmd2 = m_pca, mmd2_standard = m_pca, rho = 0, sigma = sigma * sq, tau = tau,
                converged = TRUE, outer_iterations = 0L, inner_iterations = 0L, rows_used = length(idx),
                history = data.frame(rho = 0, objective = NA_real_, mmd2 = m_pca, var_ratio = NA_real_,
                                     grad_norm = NA_real_, inner_iterations = 0L)))
  }
  if (is.null(rho0)) rho0 <- 1 / max(m_pca, 1e-12)
  # the number of penalty updates is not known in advance (maxit_outer is only a cap)
  pb <- fp_progress_bar(NA, "MbF-PCA penalty updates")
  # the inner solver's tolerances (tol_inner0, tol_inner_min, tol_v) and rho_max: the C++ defaults
  opts <- list(sigma = sigma, rho0 = rho0, tau = tau, maxit_outer = as.integer(maxit_outer),
               maxit_inner = as.integer(maxit_inner), fair_init = init == "fair",
               solver = if (solver == "lbfgs") 0L else 1L, max_seconds = min(fp_time_limit(), 1e308))
  res <- fp_cpp(.fp_mbfpca(z, gi, prep$C, Vp, opts, if (fp_progress_on()) function(i) pb$update(i) else NULL),
                "the MbF-PCA solver")
  pb$done()
  if (isTRUE(res$timed_out)) {
    fp_warn_convergence(sprintf(paste("method 'mbfpca' stopped at the time limit of %s s (options(fairproj.time_limit))",
                                      "with MMD^2 = %.3g (tau = %.3g) after %d penalty updates; raise the limit, or lower",
                                      "`max_rows` (the MMD on a subsample)"),
                                format(fp_time_limit()), res$mmd2, tau, res$outer_iterations))
  } else if (!res$converged) {
    fp_warn_convergence(sprintf("method 'mbfpca' stopped with MMD^2 = %.3g (tau = %.3g) after %d penalty updates; increase `maxit_outer`",
                    res$mmd2, tau, res$outer_iterations))
  }
  list(rotation = res$rotation, mmd2 = res$mmd2, mmd2_standard = m_pca, rho = res$rho,
       sigma = sigma * sq, tau = tau, converged = res$converged, outer_iterations = res$outer_iterations,
       inner_iterations = res$inner_iterations, evaluations = res$evaluations, rows_used = length(idx), history = res$history)
}

# Refuses up front a fit estimated to take longer than the time limit: one evaluation of the
# penalty and its gradient costs about 1.5e-8 s per n^2 k (n the rows of the MMD; measured on
# this package's build machine), and a fit takes about 1,000 of them (670-1,370 at
# n = 400-1,600, d = 10-40, k = 2, default settings), plus O(n d k) each.
mbf_check_cost <- function(n, d, k, maxit_outer) {
  secs <- 1000 * (1.5e-8 * n^2 * k + 2e-9 * n * d * k)
  fp_check_cost(secs, sprintf("method \"mbfpca\" (its MMD term on %d rows, k = %d)", n, k),
                sprintf(paste("lower `max_rows` (the MMD term on a random subsample of that many rows; max_rows = %d",
                              "takes about %s), or use a method on the moments such as \"mean\" (matches the groups'",
                              "means, seconds)"),
                        mbf_rows_for(k), fp_format_seconds(1000 * 1.5e-8 * mbf_rows_for(k)^2 * k)))
}

# The rows of the MMD term that fit in half the time limit (at least 100).
mbf_rows_for <- function(k) {
  max(100L, as.integer(floor(sqrt(0.5 * min(fp_time_limit(), 1e9) / (1000 * 1.5e-8 * k)) / 100) * 100))
}

# Rows kept for the MMD: all when n <= max_rows, else a sample stratified by group.
mbf_subsample <- function(gi, max_rows) {
  n <- length(gi)
  if (n <= max_rows) return(seq_len(n))
  i1 <- which(gi == 1L)
  i0 <- which(gi == 0L)
  m1 <- max(2L, round(max_rows * length(i1) / n))
  m0 <- max(2L, max_rows - m1)
  sort(c(i1[sample.int(length(i1), min(m1, length(i1)))], i0[sample.int(length(i0), min(m0, length(i0)))]))
}

# Median heuristic of the authors' code: sqrt(median of pairwise squared distances / 2), on at
# most 2000 rows (an evenly spaced subset, so no random numbers are drawn).
mbf_median_sigma <- function(y) {
  y <- as.matrix(y)
  if (nrow(y) > 2000L) y <- y[unique(round(seq(1, nrow(y), length.out = 2000L))), , drop = FALSE]
  d2 <- as.vector(stats::dist(y))^2
  s <- sqrt(stats::median(d2) / 2)
  if (!is.finite(s) || s <= 0) s <- 1
  s
}
