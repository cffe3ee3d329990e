# The route of a fit from rows (issue #48): "moments" (per-group d x d moments, then d x d
# solvers) or "rows" (products with the rows, src/rows.cpp, for wide data), chosen by estimated
# cost or forced with fair_pca(route = ), and the diagnostics of a row-route fit.

# The methods and variants the row route serves: standard PCA and basic mean matching.
fp_route_rows_methods <- c("standard", "mean", "minmax")

# The methods that always read the rows (and why), whatever the route: their prepared problem
# (centring, scaling) comes from the moments and their solvers work on the rows themselves, so
# `route` does not apply to them (tests check each is refused a group_moments object).
fp_route_rows_always <- c(inlp = "its classifiers are fitted on them", mbfpca = "its MMD is computed from them",
                          rlace = "its classifier is fitted on them")

# The min-max arguments whose values other than the default need the moments route.
fp_route_minmax_rows_args <- list(solver = "exact", objective = "loss", centering = "group")

# The mean-matching arguments whose variants need the moments route (their default is NULL, or
# the basic variant's value).
fp_route_mean_moments_args <- c("equalize_cov", "tradeoff", "attributes", "y", "constraint", "use_group")

# The route a fit from rows takes: "moments" or "rows". `route` is the user's choice ("auto",
# "moments", "rows"); `dots` the method's arguments; `k` the target dimension when given.
fp_route_choose <- function(route, method, dots, xm, g, k) {
  route <- fp_match_arg(route, c("auto", "moments", "rows"), "route")
  if (route == "moments") return("moments")
  variant <- fp_route_variant_arg(method, dots)
  if (route == "rows") {
    if (method %in% names(fp_route_rows_always)) {
      fp_abort(sprintf(paste("= \"rows\" does not apply to method \"%s\": it always reads the rows (%s), with its centring",
                             "and scaling from their moments; leave route = \"auto\" or use \"moments\""),
                       method, fp_route_rows_always[[method]]), "route")
    }
    if (!method %in% fp_route_rows_methods) {
      fp_abort(sprintf("= \"rows\" serves methods %s; method \"%s\" works from the moments: use route = \"moments\" or \"auto\"",
                       paste(dQuote(fp_route_rows_methods, FALSE), collapse = " and "), method), "route")
    }
    if (!is.null(variant) && identical(method, "minmax")) {
      fp_abort(sprintf("= \"rows\" serves method \"minmax\" with solver = \"exact\", objective = \"loss\" and centering = \"group\", not `%s` = \"%s\": use route = \"moments\" or \"auto\"",
                       variant, dots[[variant]][1L]), "route")
    }
    if (!is.null(variant)) {
      fp_abort(sprintf("of method \"mean\" needs the moments route, which route = \"rows\" excludes: use route = \"moments\" or \"auto\", or drop `%s`",
                       variant), variant)
    }
    if (!is.null(attr(g, "cells"))) {
      fp_abort("= \"rows\" does not serve intersectional groups (their margins come from the moments): use route = \"moments\" or \"auto\"", "route")
    }
    return("rows")
  }
  if (!method %in% fp_route_rows_methods || !is.null(variant) || !is.null(attr(g, "cells")) ||
      ncol(xm) < fp_route_min_d) {
    return("moments")
  }
  kk <- if (is.numeric(k) && length(k) == 1L && is.finite(k) && k >= 1) min(k, ncol(xm)) else 1
  cost <- fp_route_costs(nrow(xm), ncol(xm), as.numeric(table(g)), kk)
  # ties and near-ties keep the moments route (every result of before stays where it was)
  if (cost[["rows"]] * 2 < cost[["moments"]]) "rows" else "moments"
}

# The fewest columns at which "auto" considers the row route: below it a d x d matrix is small
# (2 MB at 500 columns), the moments route is quick, and every fit of before keeps its numbers.
fp_route_min_d <- 500

# The arguments in `...` that decide the route of `method` (its variants' arguments), evaluated
# alone: the others are checked by name before anything evaluates them (fp_fit_pca()).
fp_route_dots <- function(method, ...) {
  nm <- ...names()
  if (is.null(nm)) return(list())
  own <- switch(method, mean = fp_route_mean_moments_args, minmax = names(fp_route_minmax_rows_args), character(0))
  out <- list()
  for (j in which(nm %in% own)) out[nm[j]] <- list(...elt(j))
  out
}

# The first argument of a variant of "mean" that needs the moments route (NULL for the basic
# variant or another method).
fp_route_variant_arg <- function(method, dots) {
  if (identical(method, "minmax")) {
    for (a in intersect(names(fp_route_minmax_rows_args), names(dots))) {
      v <- dots[[a]]
      if (is.null(v)) next
      # not a string (a function, a list): the solver's classed error, before as.character()
      if (!is.character(v)) fp_match_arg(v, eval(formals(fit_pca_minmax)[[a]], baseenv()), a)
      if (!identical(as.character(v)[1L], fp_route_minmax_rows_args[[a]])) return(a)
    }
    return(NULL)
  }
  if (!identical(method, "mean")) return(NULL)
  basic <- list(constraint = "parity", use_group = TRUE)
  for (a in intersect(fp_route_mean_moments_args, names(dots))) {
    v <- dots[[a]]
    if (is.null(v)) next
    if (a %in% names(basic) && is.atomic(v) && identical(v[1L], basic[[a]])) next  # v[1L] of a function would fail
    return(a)
  }
  NULL
}

# The label of a row-route fit's solver, for print(): "rows (Lanczos)" or "rows (Gram)".
fp_route_label <- function(prep) {
  s <- prep$cache[["solver"]]
  if (is.null(s)) "rows" else sprintf("rows (%s)", s)
}

# The constructor's quantities of a row-route fit: V'CV, the group statistics of the fit and of
# standard PCA (normalised units) and the spectra of its diagnostics (fp_rows_spectra()),
# without d x d matrices.
fp_rows_diagnostics <- function(prep, V, k, method, lambda = NULL) {
  q <- fp_rows_fit_quad(prep, V, lambda)
  K <- fp_rows_spectra_count(prep, k)
  gvals <- fp_rows_group_values(prep, K)
  best <- fp_rows_group_best(prep, k, gvals)
  gs <- fp_rows_group_stats(prep, q$err, best)
  pooled <- fp_rows_eig(prep, K)
  gs_std <- if (identical(method, "standard")) gs else {
    fp_rows_group_stats(prep, fp_rows_quad(prep, pooled$vectors[, seq_len(min(k, ncol(pooled$vectors))), drop = FALSE])$err, best)
  }
  list(A = q$A, gs = gs, gs_std = gs_std,
       spectra = fp_rows_spectra(prep, V, k, method, pooled, gvals))
}

# V'CV and each group's error (fp_rows_quad(), normalised units) of a row-route fit with basis V
# and, for min-max's rounded solution, weights `lambda` on its columns.
fp_rows_fit_quad <- function(prep, V, lambda = NULL) {
  q <- fp_rows_quad(prep, V)
  if (!is.null(lambda)) {
    # min-max's rounded solution: weights lambda on the columns of V, so each group also loses
    # (1 - lambda_j) of its variance along column j
    S <- fp_rows_project(prep, V)
    q$err <- q$err + vapply(S, function(s) sum((1 - lambda) * diag(s)), numeric(1), USE.NAMES = FALSE)
  }
  q
}

# What the diagnostics of a row-route fit need, which a moments fit recomputes from its moments
# (user units; K = fp_rows_spectra_count() leading eigenvalues): `values`, the covariance's top
# K eigenvalues (the scree); `standard_error` and `standard_best`, K x m matrices of each group's
# error under standard PCA's top j components and its own best rank-j error, j = 1..K (the
# errors and losses by k); `residual` (standard PCA only), list(sdev, rotation) of its
# components r + 1..K, the leading directions of what it leaves out (as.prcomp()); `total` the
# total variance; `n_rows`.
fp_rows_spectra <- function(prep, V, k, method, pooled, gvals) {
  K <- length(pooled$values)
  U <- pooled$vectors
  S <- fp_rows_project(prep, U)
  m <- length(prep$levels)
  err <- best <- matrix(NA_real_, K, m, dimnames = list(NULL, prep$levels))
  for (i in seq_len(m)) {
    err[, i] <- pmax(prep$cov_trace[[i]] - cumsum(diag(S[[i]])), 0)
    best[, i] <- vapply(seq_len(K), function(j) fp_rows_group_best(prep, j, gvals)[[i]], numeric(1))
  }
  r <- ncol(V)
  nres <- max(min(K, prep$d) - r, 0L)
  u <- prep$unit
  # standard PCA's residual directions come with its eigensolve; another method's would cost one
  # more (mean matching at n = 2,000, d = 10,000: 30-40% of its fit), so they are not kept
  res <- if (identical(method, "standard")) {
    list(sdev = sqrt(pmax(pooled$values[r + seq_len(nres)], 0) * u), rotation = U[, r + seq_len(nres), drop = FALSE])
  }
  list(values = pmax(pooled$values, 0) * u, standard_error = err * u, standard_best = pmax(best, 0) * u,
       residual = res, total = prep$d * u, n_rows = prep$n_total)
}

# A group_stats table (fp_group_stats()'s columns) from errors and best errors.
fp_rows_group_stats <- function(prep, err, best) {
  err <- pmax(err, 0)
  tot <- prep$cov_trace
  fp_df(lapply(list(group = prep$levels, n = as.numeric(prep$n), error = err, best = best, loss = fp_group_loss(err, best, tot, prep$d),
                    var_explained = ifelse(tot > 0, 1 - err / tot, NA_real_)), unname))
}

# as.prcomp()'s residual directions of a row-route fit: the top K - r it computed (K =
# fp_rows_spectra_count()), signed and named as fp_residual_directions() does, with a classed
# warning that the others are unknown (their variance in all is `totalvar` minus the squares of
# `sdev`).
fp_rows_residual_directions <- function(x) {
  res <- x$spectra$residual
  V <- res$rotation
  for (j in seq_len(ncol(V))) {
    i <- which.max(abs(V[, j]))
    if (V[i, j] < 0) V[, j] <- -V[, j]
  }
  dimnames(V) <- list(rownames(x$rotation), sprintf("R%d", seq_len(ncol(V))))  # none when the rows' rank is reached
  d <- nrow(x$rotation)
  known <- ncol(x$rotation) + ncol(V)
  if (known < d) {
    rest <- max(x$totalvar - sum(x$sdev^2) - sum(res$sdev^2), 0)
    fp_warn(sprintf(paste("`x` was fitted by the row route, which keeps the leading %d of the %d directions it leaves out:",
                          "`sdev` holds %d of %d entries, and the other %d directions hold %.3g%% of the variance (`totalvar`",
                          "is exact; proportions computed from `sdev` alone are too large); refit with route = \"moments\" for all of them"),
                    ncol(V), d - ncol(x$rotation), known, d, d - known, 100 * rest / x$totalvar),
            class = "fairproj_prcomp_warning")
  }
  list(sdev = res$sdev, rotation = V)
}

# The largest number of components whose spectra a row-route fit kept (every one beyond it is 0
# when it kept all that the rows can have: at most their number, or d).
fp_rows_spectra_max <- function(x, kmax, what) {
  sp <- x$spectra
  K <- length(sp$values)
  if (kmax > K && K < min(sp$n_rows, nrow(x$rotation))) {
    fp_abort(sprintf("is %d, beyond the %d leading components whose %s a row-route fit keeps: give kmax <= %d, or refit with route = \"moments\"",
                     kmax, K, what, K), "kmax")
  }
  K
}

# The scree's values of a row-route fit (user units): its kept eigenvalues, then 0 beyond the
# rank the rows allow.
fp_rows_scree_values <- function(x, kmax) {
  K <- fp_rows_spectra_max(x, kmax, "variances")
  c(x$spectra$values, rep(0, max(kmax - K, 0)))[seq_len(kmax)]
}

# The scree's caption of a row-route fit: the share of the total variance (known exactly, from
# the traces) beyond the components shown.
fp_rows_scree_caption <- function(x, ev) {
  d <- nrow(x$rotation)
  if (length(ev) >= d) return(NULL)
  sprintf("The other %d components hold %.1f%% of the variance (from the traces; row route)", d - length(ev),
          100 * max(x$spectra$total - sum(ev), 0) / x$spectra$total)
}

# fp_errors_by_k() of a row-route fit: standard PCA's error or loss of each group for k = 1,
# ..., kmax from the kept spectra, and the method's at its own k (a fit without moments or rows
# cannot refit the method at other k; standard PCA's are its own at every k).
fp_rows_errors_by_k <- function(x, type, kmax, quiet) {
  kmax <- min(kmax, fp_rows_spectra_max(x, kmax, "group errors"))
  sp <- x$spectra
  std <- identical(x$method, "standard")
  if (!quiet && !std) {
    message(sprintf("Showing method \"%s\" at the fitted k = %d and standard PCA at k = 1, ..., %d: a row-route fit keeps its spectra, not the moments to refit the method at other k (refit with route = \"moments\" or fit each k from the rows)",
                    x$method, x$k, kmax))
  }
  ks <- seq_len(kmax)
  val <- if (type == "errors") sp$standard_error else sp$standard_error - sp$standard_best
  val <- pmax(val[ks, , drop = FALSE], 0)
  lev <- colnames(sp$standard_error)
  col <- if (type == "errors") "error" else "loss"
  fair <- matrix(NA_real_, kmax, length(lev))
  if (std) fair <- val else if (x$k <= kmax) fair[x$k, ] <- x$group_stats[[col]]
  # the fitted k itself from the fit's own group statistics
  if (x$k <= kmax) val[x$k, ] <- x$group_stats_standard[[col]]
  if (std && x$k <= kmax) fair[x$k, ] <- x$group_stats[[col]]
  data.frame(k = rep(ks, each = length(lev)), group = rep(lev, kmax), fair = as.vector(t(fair)),
             standard = as.vector(t(val)), stringsAsFactors = FALSE)
}
