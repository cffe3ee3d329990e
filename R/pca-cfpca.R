#' Convex fair PCA (Olfat and Aswani 2019)
#'
#' `fair_pca(x, group, k, method = "cfpca", delta = , mu = )` solves the semidefinite relaxation
#' of fair PCA of Olfat and Aswani (2019) ("FPCA"; "CFPCA" in Vu et al. 2022) for two groups:
#' \deqn{\max_P \langle C, P\rangle - \mu\, h(P) \quad\mathrm{s.t.}\quad \mathrm{tr}\,P = k,\;
#'   0 \preceq P \preceq I,\; f^\top P f \le \delta^2,}
#' where `C` is the covariance matrix that PCA diagonalises, `f` the difference of the two group
#' means and \eqn{h(P) = \max(\lambda_{\max}(P A_+ P), \lambda_{\max}(P A_- P))} with
#' \eqn{A_\pm = \phi I \pm (\Sigma_1 - \Sigma_0)}: the Schur-complement form of their covariance
#' constraint, dualised with weight `mu`. For a projection \eqn{P = VV^\top} the mean constraint
#' reads \eqn{\|V^\top f\| \le \delta} and \eqn{h(P) = \phi + \|V^\top(\Sigma_1 - \Sigma_0)V\|_2}.
#' The components are the top-k eigenvectors of the solution `P` (which may have rank > k).
#' Works from the group moments: no rows are needed.
#'
#' **Solver** (no general-purpose or commercial SDP solver). With `mu = 0` the only constraint
#' besides the Fantope \eqn{\{\mathrm{tr}\,P = k, 0 \preceq P \preceq I\}} is one linear
#' inequality, so the Lagrangian dual is the one-dimensional convex problem
#' \eqn{\min_{\nu \ge 0} \nu\delta^2 + \sum_{i \le k}\lambda_i(C - \nu f f^\top)}; it is solved by
#' bisection on its derivative, the primal solution is recovered from the two top-k
#' eigenprojections that bracket the root, and the duality gap is reported in `gap`. With
#' `mu > 0`, an accelerated projected gradient method (FISTA with backtracking and adaptive
#' restart) runs on the Nesterov-smoothed objective (the maximum eigenvalue replaced by
#' \eqn{\eta \log \mathrm{tr} \exp(\cdot/\eta)}); the projection onto the Fantope is an
#' eigendecomposition with shifted and clipped eigenvalues, the mean constraint is kept exactly
#' by a one-dimensional search on its multiplier, and `gap` is a Lagrangian duality gap: the
#' softmax weights of the smoothing define feasible multipliers of the two Schur-complement
#' blocks, whose dual value bounds the optimum from above; so `gap` is a certified upper bound
#' on the distance of `objective` to the optimum. Iterations stop when
#' `gap <= gap_tol * max(1, |objective|)` (`converged = TRUE`). The bound uses the smoothing's
#' eigenvalue weights as multipliers; when the largest eigenvalue of the covariance term is
#' multiple at the optimum these are not the optimal multipliers and the certified gap can stall
#' around 1e-4 relative while the objective no longer changes: the method then warns and returns
#' `converged = FALSE` with the gap it could certify. `delta = 0` forces \eqn{Pf = 0}, and
#' the problem is then solved in a basis of the complement of `f`; with `delta = 0` and `mu = 0`
#' the method coincides with mean-matching fair PCA (Kleindessner et al. 2023). A full
#' eigendecomposition per iteration (the covariance term is evaluated on the range of the
#' low-rank iterates) makes `d` in the hundreds (e.g. LFW at `d = 576`) practical.
#'
#' **Cost.** From the moments, \eqn{O(d^3)} per iteration, about \eqn{5 \cdot 10^{-9} d^3}
#' seconds (0.4 s for 50 iterations at d = 100, 28 s for 660 at d = 200, with `mu > 0`); the
#' number of iterations is not known in advance. In interactive sessions an indeterminate
#' progress bar counts them (turn it off with `options(fairproj.progress = FALSE)`); a fit that
#' reaches the time limit (`options(fairproj.time_limit = )`, in seconds, default 60; `Inf`
#' turns it off) stops there with a warning of class `fairproj_convergence_warning` and returns
#' its last iterate, `converged = FALSE`, with the gap certified for it.
#'
#' **Scaling.** `scaling = "none"` states the problem in the package's coordinates (centred, and
#' scaled when `scale. = TRUE`; `C` has divisor `n - 1`, group covariances divisor `n_g`).
#' `scaling = "fairml"` follows the authors' public code (molfat66/FairML, used by Lee et al. 2022
#' and Vu et al. 2022), where the objective is \eqn{\langle Z^\top Z, P\rangle / (n\|Z\|_F)} and
#' the mean bound is \eqn{\|f\|\,\|Pf\| \le \delta^2/\|Z\|_F^2} (`Z` the centred, standardised
#' training data): there `mu` weighs a much smaller objective and every `delta` in the published
#' grids is in effect close to 0. Use it (with `scale. = TRUE`) to reproduce the published numbers.
#' The code standardises with divisor `n`, the package with `n - 1`.
#'
#' @param prep,data Supplied by [fair_pca()].
#' @param k Target dimension (1 <= k < d).
#' @param delta Bound on the norm of the projected group-mean difference (>= 0).
#' @param mu Weight of the covariance term (finite, >= 0); 0 gives the mean-constrained version
#'   ("CFPCA-Mean"), `mu > 0` with `delta = 0` the version with both constraints ("CFPCA-Both").
#' @param phi The shift \eqn{\phi} in \eqn{A_\pm}; `NULL` (default) uses the code's
#'   \eqn{\|\Sigma_1 - \Sigma_0\|_2 + 0.5}. Must make both \eqn{A_\pm} positive semidefinite.
#' @param scaling `"none"` or `"fairml"` (see Scaling).
#' @param gap_tol Relative tolerance on the certified optimality gap.
#' @param maxit Maximum number of accelerated gradient iterations (`mu > 0`).
#' @return The fields added to the [fair_pca()] result: `rotation`, `objective` (SDP value), `penalty` (\eqn{h(P)}),
#'   `gap`, `nu` (multiplier of the mean constraint), `converged`, `iterations`, `P_values`
#'   (eigenvalues of the SDP solution; values strictly between 0 and 1 show a fractional
#'   solution), `mean_gap` (\eqn{\|V^\top f\|} of the returned components), `history`.
#' @references Olfat, M. and Aswani, A. (2019). Convex formulations for fair principal component
#'   analysis. AAAI 33, 663-670.
#' @seealso [fair_pca()], [fair_pca_mean] for the closed-form mean-matching method,
#'   [delta_f_lin()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' x <- as.matrix(pbc2[1:6])
#' fit <- fair_pca(x, pbc2$sex, k = 2, method = "cfpca", delta = 0.1, scale. = TRUE)
#' fit$mean_gap
#' fit2 <- fair_pca(x, pbc2$sex, k = 2, method = "cfpca", delta = 0, mu = 0.1, scale. = TRUE)
#' fit2$converged
#' @name cfpca
#' @aliases fair_pca_cfpca
NULL

fit_pca_cfpca <- function(prep, k, delta = 0, mu = 0, phi = NULL, scaling = c("none", "fairml"),
                          gap_tol = 1e-5, maxit = 5000L, data = NULL) {
  if (length(prep$levels) != 2L) fp_abort("must have exactly 2 groups for method 'cfpca'", "group")
  fp_check_number(delta, "delta", 0, Inf)
  fp_check_number(mu, "mu", 0, Inf, open_upper = TRUE)
  fp_check_number(gap_tol, "gap_tol", 0, 1, open_lower = TRUE)
  maxit <- fp_check_count(maxit, 1L, .Machine$integer.max, "maxit")
  if (!is.character(scaling)) fp_abort("must be \"none\" or \"fairml\"", "scaling")
  scaling <- fp_match_arg(scaling, c("none", "fairml"), "scaling")
  d <- prep$d
  if (k >= d) fp_abort(sprintf("must be smaller than the number of columns (%d) for method 'cfpca'", d), "k")
  unit <- prep$unit  # delta (a distance) and phi (a variance) are given in the data's units
  f <- prep$mean[, 2] - prep$mean[, 1]
  D <- prep$cov[[2]] - prep$cov[[1]]
  D <- (D + t(D)) / 2
  if (is.null(phi)) {
    phi <- max(abs(range(eigen(D, symmetric = TRUE, only.values = TRUE)$values))) + 0.5
  } else {
    fp_check_number(phi, "phi", 0, Inf)
    phi <- phi / unit
    ev <- eigen(D, symmetric = TRUE, only.values = TRUE)$values
    if (phi < max(abs(ev)) - 1e-12) {
      fp_abort(sprintf("must be at least ||Sigma_1 - Sigma_0||_2 = %.4g so that A+- are positive semidefinite", max(abs(ev)) * unit), "phi")
    }
  }
  C <- prep$C
  b <- delta^2 / unit
  mu_eff <- mu
  if (scaling == "fairml") {
    ns <- as.numeric(prep$n)
    S <- Reduce(`+`, lapply(seq_along(ns), function(i) ns[i] * fp_prep_second(prep, i)))
    nrm <- sqrt(sum(diag(S)))
    C <- S / (sum(ns) * nrm * sqrt(unit))  # the norm of the data in the data's units, as the code
    fn <- sqrt(sum(f^2))
    b <- if (fn > 0) (delta^2 / unit / (nrm^2 * fn))^2 else 0
  }
  Ap <- phi * diag(d) + D
  Am <- phi * diag(d) - D
  opts <- list(k = as.integer(k), mu = mu_eff, tol = gap_tol, maxit = as.integer(maxit), eta_rel = 0.5 * gap_tol,
               check_every = 10L, lowrank = TRUE, max_seconds = min(fp_time_limit(), 1e308))
  # the number of iterations is not known in advance (maxit is only a cap)
  pb <- fp_progress_bar(NA, "convex fair PCA iterations")
  res <- fp_cpp(.fp_cfpca(unname(C), unname(f), b, unname(Ap), unname(Am), opts,
                          if (fp_progress_on()) function(i) pb$update(i) else NULL),
                "the convex fair PCA solver")
  pb$done()
  V <- res$rotation
  if (isTRUE(res$timed_out)) {
    fp_warn_convergence(sprintf(paste("method 'cfpca' stopped at the time limit of %s s (options(fairproj.time_limit))",
                                      "after %d iterations with relative gap %.2g > gap_tol = %.2g; raise the limit,",
                                      "or use a larger `gap_tol`"),
                                format(fp_time_limit()), res$iterations, res$gap / max(1, abs(res$objective)), gap_tol))
  } else if (!res$converged) {
    fp_warn_convergence(sprintf("method 'cfpca' stopped after %d iterations with relative gap %.2g > gap_tol = %.2g; increase `maxit`",
                    res$iterations, res$gap / max(1, abs(res$objective)), gap_tol))
  }
  vu <- unit
  list(rotation = V, objective = res$objective * vu, penalty = res$penalty * vu, gap = res$gap * vu, nu = res$nu,
       converged = res$converged, iterations = res$iterations, P_values = res$P_values,
       mean_gap = sqrt(sum(crossprod(V, f)^2) * unit), delta = delta, mu = mu, phi = phi * unit,
       scaling = scaling,
       history = within(res$history, { objective <- objective * vu; gap <- gap * vu }))
}
