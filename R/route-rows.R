# The route of a fit from rows (issue #48): "moments" (per-group d x d moments, then d x d
# solvers) or "rows" (products with the rows, src/rows.cpp, for wide data), chosen by estimated
# cost or forced with fair_pca(route = ), and the diagnostics of a row-route fit.

# The methods and variants the row route serves: standard PCA and basic mean matching.
fp_route_rows_methods <- c("standard", "mean", "minmax")

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
      if (!is.null(v) && !identical(as.character(v)[1L], fp_route_minmax_rows_args[[a]])) return(a)
    }
    return(NULL)
  }
  if (!identical(method, "mean")) return(NULL)
  basic <- list(constraint = "parity", use_group = TRUE)
  for (a in intersect(fp_route_mean_moments_args, names(dots))) {
    v <- dots[[a]]
    if (is.null(v)) next
    if (a %in% names(basic) && identical(v[1L], basic[[a]])) next
    return(a)
  }
  NULL
}

# The label of a row-route fit's solver, for print(): "rows (Lanczos)" or "rows (Gram)".
fp_route_label <- function(prep) {
  s <- prep$cache[["solver"]]
  if (is.null(s)) "rows" else sprintf("rows (%s)", s)
}

# The constructor's quantities of a row-route fit: V'CV and the group statistics of the fit and
# of standard PCA (normalised units), without d x d matrices.
fp_rows_diagnostics <- function(prep, V, k, method, lambda = NULL) {
  q <- fp_rows_quad(prep, V)
  if (!is.null(lambda)) {
    # min-max's rounded solution: weights lambda on the columns of V, so each group also loses
    # (1 - lambda_j) of its variance along column j
    S <- fp_rows_project(prep, V)
    q$err <- q$err + vapply(S, function(s) sum((1 - lambda) * diag(s)), numeric(1), USE.NAMES = FALSE)
  }
  best <- fp_rows_group_best(prep, k)
  gs <- fp_rows_group_stats(prep, q$err, best)
  gs_std <- if (identical(method, "standard")) gs else {
    fp_rows_group_stats(prep, fp_rows_quad(prep, fp_rows_eig(prep, k)$vectors)$err, best)
  }
  list(A = q$A, gs = gs, gs_std = gs_std)
}

# A group_stats table (fp_group_stats()'s columns) from errors and best errors.
fp_rows_group_stats <- function(prep, err, best) {
  err <- pmax(err, 0)
  tot <- prep$cov_trace
  fp_df(lapply(list(group = prep$levels, n = as.numeric(prep$n), error = err, best = best, loss = err - best,
                    var_explained = ifelse(tot > 0, 1 - err / tot, NA_real_)), unname))
}
