# The generator of the property / fuzz tests (tests/testthat/test-scale.R runs a few hundred
# cases; `make fuzz` runs tools/fuzz.R, which sources this file, on thousands).

# Projector distance between two subspaces (Frobenius norm of the difference of projectors).
fz_projdist <- function(a, b) {
  qa <- qr.Q(qr(a))
  qb <- qr.Q(qr(b))
  sqrt(max(0, sum((tcrossprod(qa) - tcrossprod(qb))^2)))
}

# One random case: n rows, d columns with random scales, 2-4 groups, a global scale, offsets,
# sometimes a duplicated or a constant column.
fz_case <- function(seed) {
  set.seed(seed)
  d <- sample(3:7, 1)
  m <- sample(2:4, 1)
  n <- sample(seq(8 * m, 60), 1)
  x <- matrix(stats::rnorm(n * d), n, d) %*% matrix(stats::rnorm(d * d), d, d)
  x <- sweep(x, 2L, 10^stats::runif(d, -3, 3), `*`)
  if (stats::runif(1) < 0.2) x[, d] <- x[, 1]                  # duplicated column
  if (stats::runif(1) < 0.2) x[, sample(d, 1)] <- 5            # constant column
  g <- factor(rep(letters[seq_len(m)], length.out = n))
  sc <- 10^stats::runif(1, -100, 100)
  # offsets up to 1e6 times the smallest column spread (larger ones erase the data's digits)
  spread <- min(apply(x, 2L, stats::sd)[apply(x, 2L, stats::sd) > 0])
  list(x = x, g = g, k = sample(seq_len(d - 1L), 1), d = d, m = m, n = n, scale = sc,
       offset = if (stats::runif(1) < 0.3) 10^stats::runif(1, 0, 6) * spread * sc else 0)
}

# Quick settings per method, so that a case costs milliseconds.
fz_args <- list(
  standard = list(),
  minmax = list(),
  mean = list(),
  pareto = list(iterations = 60L),
  robust = list(iterations = 60L, restarts = 1L),
  cfpca = list(maxit = 300L),
  mbfpca = list(maxit_outer = 3L, maxit_inner = 20L),
  inlp = list(n_iter = 2L),
  rlace = list(n_iter = 300L)
)

# `...`: further arguments of fair_pca(), replacing the quick settings of the same name.
fz_fit <- function(method, x, g, k, ...) {
  if (method %in% c("cfpca", "mbfpca", "inlp") && nlevels(droplevels(g)) != 2L) g <- factor(as.integer(g) %% 2L)
  set.seed(1)
  args <- utils::modifyList(fz_args[[method]], list(...))
  suppressWarnings(do.call(fair_pca, c(list(x = x, group = g, k = k, method = method), args)))
}

# Checks one method on one case. Returns a character vector of violations (empty when fine).
fz_check <- function(method, cs, equivariance = TRUE) {
  bad <- character(0)
  note <- function(what) bad <<- c(bad, sprintf("seed case d=%d m=%d n=%d k=%d %s: %s", cs$d, cs$m, cs$n, cs$k, method, what))
  xs <- cs$x * cs$scale + cs$offset
  fit <- tryCatch(fz_fit(method, xs, cs$g, cs$k), fairproj_error = function(e) e,
                  error = function(e) structure(list(message = conditionMessage(e)), class = "unclassed"))
  if (inherits(fit, "unclassed")) return(note(paste("unclassed error:", fit$message)))
  if (inherits(fit, "fairproj_error")) return(bad)  # a classed error is an acceptable answer
  V <- fit$rotation
  if (!all(is.finite(V))) return(note("non-finite rotation"))
  if (max(abs(crossprod(V) - diag(ncol(V)))) > 1e-8) note("rotation not orthonormal")
  tv <- fit$totalvar
  if (!is.finite(tv)) note("non-finite total variance")
  gs <- fit$group_stats
  if (any(!is.finite(gs$error)) || any(gs$loss < -1e-10 * max(tv, 1e-300) - 1e-12 * max(gs$best))) note("negative or non-finite losses")
  if (method == "minmax") {
    if (max(gs$loss) > max(fit$group_stats_standard$loss) * (1 + 1e-8) + 1e-10 * tv) note("min-max worse than PCA")
  }
  if (equivariance) {
    ref <- tryCatch(fz_fit(method, cs$x, cs$g, cs$k), error = function(e) NULL)
    # an iterate stopped before convergence (the quick settings above) depends on rounding
    # along its path: only converged fits are compared
    stopped <- identical(ref$converged, FALSE)
    if (method == "minmax" && !is.null(ref) && !stopped && is.finite(fit$duality_gap) && is.finite(ref$duality_gap)) {
      # a certified solver is compared at its certificate: the objectives (as shares of the total
      # variance) agree within the two fits' duality gaps. Its subspace need not: where the
      # largest loss is flat around the optimum, subspaces 1e-5 apart are optimal within 1e-9.
      o1 <- fit$objective / fit$totalvar
      o0 <- ref$objective / ref$totalvar
      tol <- fit$duality_gap / fit$totalvar + ref$duality_gap / ref$totalvar + 1e-9
      if (!(abs(o1 - o0) <= tol)) note(sprintf("objective moved by %.3g under scaling (certificates %.3g)", abs(o1 - o0), tol))
    } else if (!is.null(ref) && ncol(ref$rotation) == ncol(V) && !stopped) {
      # the subspace is only defined when the problem is well separated: compare where the
      # reference fit is not at a near-tie of its own objective
      dist <- fz_projdist(V, ref$rotation)
      tol <- 1e-6
      if (method == "pareto") {
        # a converged Pareto fit is stationary only to `stationarity_tol` (its ||D||, a gradient
        # relative to tr(C)), which fixes its subspace to about ||D|| / gap, with gap the k-th
        # eigengap of C relative to tr(C): two rounding paths stop at different points of that
        # ball (fuzz seed 3248: ||D|| 9e-7 in both fits, gap 7.7e-3, subspaces 1.2e-5 apart)
        tol <- max(tol, (fit$stationarity + ref$stationarity) / fz_rel_gap(cs))
      }
      if (dist > tol && !fz_near_tie(cs, extra = if (method == "inlp") fz_args$inlp$n_iter else 0L, mean_constrained = method == "mean")) note(sprintf("subspace moved by %.3g under scaling", dist))
    }
  }
  bad
}

# The k-th eigengap of the covariance (at scale 1) relative to its trace.
fz_rel_gap <- function(cs) {
  ev <- pmax(eigen(stats::cov(cs$x), symmetric = TRUE, only.values = TRUE)$values, 0)
  (ev[cs$k] - ev[cs$k + 1L]) / max(sum(ev), 1e-300)
}

# Whether the subspace of rank k is not unique for structural reasons: the data (at scale 1)
# have rank <= k (then the fit may add any null direction), or the k-th and (k+1)-th eigenvalues
# of the covariance nearly tie.
# With `mean_constrained`, of the covariance within the subspace where the groups' means agree
# (mean matching's feasible set): a fit of k directions there with fewer than k that carry
# variance adds arbitrary ones (fuzz seeds 435, 563, 930018: subspaces sqrt(2) apart, both right).
fz_near_tie <- function(cs, extra = 0L, mean_constrained = FALSE) {
  C <- stats::cov(cs$x)
  top <- max(eigen(C, symmetric = TRUE, only.values = TRUE)$values[1], 1e-300)
  if (mean_constrained) {
    mu <- apply(cs$x, 2L, function(v) tapply(v, cs$g, mean))
    D <- sweep(mu[-1L, , drop = FALSE], 2L, mu[1L, ])
    sv <- svd(D, nv = ncol(D))
    r <- sum(sv$d > 1e-10 * max(sv$d, 1e-300))
    N <- if (r > 0L) sv$v[, -seq_len(r), drop = FALSE] else sv$v
    if (ncol(N) <= cs$k) return(FALSE)  # the feasible set itself (or infeasible: a classed error)
    C <- crossprod(N, C %*% N)
  }
  ev <- eigen(C, symmetric = TRUE, only.values = TRUE)$values
  ev <- pmax(ev, 0) / top
  k <- cs$k
  # `extra` directions removed by the method (INLP's nullspace) lower the rank left for k
  ev[min(length(ev), k + 1L + extra)] < 1e-9 || (ev[k] - ev[k + 1L]) < 1e-6
}
