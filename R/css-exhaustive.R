fit_css_exhaustive <- function(prep, k, search = c("bnb", "enumerate"), max_subsets = 1e7, max_nodes = 1e6,
                               unfair = TRUE, data = NULL) {
  search <- fp_match_arg(search, c("bnb", "enumerate"), "search")
  fp_check_applies(!missing(max_nodes), "max_nodes", "search", search, "bnb")
  fp_check_applies(!missing(max_subsets), "max_subsets", "search", search, "enumerate")
  unfair <- fp_check_flag(unfair, "unfair")
  max_subsets <- fp_check_count(max_subsets, 1, Inf, "max_subsets", integer = FALSE)
  max_nodes <- fp_check_count(max_nodes, 1, Inf, "max_nodes", integer = FALSE)
  nsub <- choose(prep$d, k)
  if (search == "enumerate" && nsub > max_subsets) {
    fp_abort(sprintf("is %s but there are choose(%d, %d) = %s subsets; raise it or use search = \"bnb\"",
                     format(max_subsets), prep$d, k, format(nsub, big.mark = ",")), "max_subsets")
  }
  pp <- fp_css_pooled(prep)
  if (isTRUE(prep$full)) return(fp_css_exhaustive_full(prep, pp, search, unfair))
  bnb <- search == "bnb"
  m <- length(prep$gram) + unfair  # the searches' groups, the pooled one included
  fp_css_exhaustive_cost(prep$d, k, m, search)
  # each branch and bound stops descending at its share of the time limit (as at max_nodes)
  secs <- fp_time_limit() / (1 + unfair)
  # incumbents of the branch and bound: the better greedy of the two denominators
  inc_fair <- if (bnb) fit_css_greedy(prep, k)$columns else NULL
  fair <- fp_css_exhaustive_search(prep$gram, prep$factor, unname(prep$best2), k, search, max_nodes, inc_fair,
                                   if (bnb) rowSums(fp_css_leverage(prep)), secs, nsub)
  if (!unfair) {
    if (!isTRUE(fair$complete)) fp_css_warn_bnb(max_nodes, sprintf("%.6g", fair$lower), fair$timed_out)
    return(fp_css_exhaustive_result(prep, pp, fair, search))
  }
  inc_unf <- if (bnb) fp_css_greedy_cpp(list(prep$pooled), list(pp$factor), matrix(pp$best2, k, 1), k)$columns
  unf <- fp_css_exhaustive_search(list(prep$pooled), list(pp$factor), pp$best2, k, search, max_nodes, inc_unf,
                                  rowSums(pp$eig$vectors^2), secs, nsub)
  if (!isTRUE(fair$complete) || !isTRUE(unf$complete)) {
    fp_css_warn_bnb(max_nodes, sprintf("fair %.6g, unfair %.6g", fair$lower, unf$lower),
                    isTRUE(fair$timed_out) || isTRUE(unf$timed_out))
  }
  e2 <- fp_css_prefix(prep$factor, unf$columns)
  unfair <- list(columns = unf$columns, column_names = prep$colnames[unf$columns],
                 loss_pooled = fp_css_loss(list(pp$factor), unf$columns, pp$best2, prep$full, pp$tot2),
                 lower = unf$lower, complete = unf$complete,
                 group_stats = fp_css_group_stats(prep, e2[k, ]))
  c(fp_css_exhaustive_result(prep, pp, fair, search), list(unfair = unfair))
}

# The exhaustive search of one problem (the groups, or all rows as one group). The branch and
# bound searches the columns in an order that puts the promising ones first (the incumbent's
# columns `inc`, then by decreasing leverage score `lev` summed over the groups): the subtrees
# of the later columns then draw on weak columns only, whose bound prunes them.
fp_css_exhaustive_search <- function(grams, factors, best2, k, search, max_nodes, inc, lev, max_seconds = Inf,
                                     nsub = NA) {
  # progress: the subsets of the enumeration, of choose(d, k); the bound evaluations of the
  # branch and bound, of max_nodes (the search usually ends well before)
  pb <- fp_progress_bar(if (search == "enumerate") nsub else max_nodes,
                        sprintf("exhaustive column search (%s)", if (search == "enumerate") "subsets" else "bound evaluations"))
  on.exit(pb$done(), add = TRUE)
  cb <- if (fp_progress_on()) function(i) pb$update(i) else NULL
  if (search == "enumerate") {
    r <- fp_css_exhaustive_cpp(grams, factors, best2, k, search = "enumerate", progress = cb)
    r$complete <- TRUE
    r$lower <- r$objective
    return(r)
  }
  ord <- c(inc, setdiff(order(-lev, seq_along(lev)), inc))
  gp <- lapply(grams, function(G) G[ord, ord, drop = FALSE])
  fpm <- lapply(factors, function(Y) Y[, ord, drop = FALSE])
  r <- fp_css_exhaustive_cpp(gp, fpm, best2, k, search = "bnb", incumbent = fp_css_loss(fpm, seq_len(k), best2),
                             max_nodes = max_nodes, max_seconds = max_seconds, progress = cb)
  r$columns <- ord[r$columns]
  r
}

fp_css_exhaustive_result <- function(prep, pp, fair, search) {
  list(columns = fair$columns, objective = fair$objective, subsets = fair$subsets, search = search,
       nodes = if (is.null(fair$nodes)) NA_real_ else fair$nodes, lower = fair$lower, complete = fair$complete,
       loss_pooled = fp_css_loss(list(pp$factor), fair$columns, pp$best2, prep$full, pp$tot2))
}

# k = d: one subset, every column (loss 1, see fp_css_prepare())
fp_css_exhaustive_full <- function(prep, pp, search, unfair) {
  all <- seq_len(prep$d)
  out <- list(columns = all, objective = 1, subsets = 1, search = search, nodes = 0, lower = 1, complete = TRUE,
              loss_pooled = fp_css_loss(list(pp$factor), all, pp$best2, prep$full, pp$tot2))
  if (unfair) {
    out$unfair <- list(columns = all, column_names = prep$colnames, loss_pooled = out$loss_pooled, lower = 1,
                       complete = TRUE, group_stats = fp_css_group_stats(prep, fp_css_prefix(prep$factor, all)[prep$d, ]))
  }
  out
}

fp_css_warn_bnb <- function(max_nodes, lower, timed_out = FALSE) {
  if (isTRUE(timed_out)) {
    fp_warn_convergence(sprintf(paste(
      "the branch and bound stopped at the time limit of %s s (options(fairproj.time_limit)): the returned",
      "set is the best found, and the optimum is at least `lower` (%s); raise the limit for a certified",
      "optimum, or use method = \"greedy\" (seconds)"), format(fp_time_limit()), lower))
  } else {
    fp_warn_convergence(sprintf(paste(
      "the branch and bound stopped after max_nodes = %s bound evaluations: the returned set is the best",
      "found, and the optimum is at least `lower` (%s); raise max_nodes for a certified optimum"),
      format(max_nodes), lower))
  }
}

# Refuses up front an exhaustive search estimated to take longer than the time limit: the
# enumeration's choose(d, k) subsets at O(m d k) each, or, for the branch and bound (which
# stops at the time limit by itself), its first level alone: about d bounds of O(m d^3).
# Constants measured on this package's build machine (one core, 2026-12): a bound over d columns
# 20-50 ns per d^3 and group with the machine shared (d = 40-120), a subset of the enumeration
# 5-16 us per group (d = 20-30, k = 3-4). After the limit the search certifies its lower bound
# from the bounds of the open nodes, evaluating more only at the first level (its remaining
# subtrees, cheaper than the first level's budget): 0.02-0.06 s past a 1.5 s limit at d = 60.
fp_css_exhaustive_cost <- function(d, k, m, search) {
  if (search == "enumerate") {
    secs <- choose(d, k) * m * (4e-8 * d * k + 1e-6)
    fp_check_cost(secs, sprintf("method \"exhaustive\" (search = \"enumerate\", choose(%d, %d) = %s subsets)",
                                d, k, format(choose(d, k), big.mark = ",")),
                  "use search = \"bnb\" or method = \"greedy\"")
  } else if (k >= 3) {
    secs <- (d - k + 1) * m * 1.5e-8 * d^3
    fp_check_cost(secs, sprintf("method \"exhaustive\" (branch and bound over %d columns)", d),
                  "use method = \"greedy\" (O(m k d^2)) or \"lowqr\"")
  }
  invisible(NULL)
}
