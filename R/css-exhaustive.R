fit_css_exhaustive <- function(prep, k, search = c("bnb", "enumerate"), max_subsets = 1e7, max_nodes = 1e6,
                               unfair = TRUE, data = NULL) {
  search <- fp_match_arg(search, c("bnb", "enumerate"), "search")
  unfair <- fp_check_flag(unfair, "unfair")
  max_subsets <- fp_check_number(max_subsets, "max_subsets", 1)
  max_nodes <- fp_check_number(max_nodes, "max_nodes", 1)
  nsub <- choose(prep$d, k)
  if (search == "enumerate" && nsub > max_subsets) {
    fp_abort(sprintf("is %s but there are choose(%d, %d) = %s subsets; raise it or use search = \"bnb\"",
                     format(max_subsets), prep$d, k, format(nsub, big.mark = ",")), "max_subsets")
  }
  pp <- fp_css_pooled(prep)
  if (isTRUE(prep$full)) {
    # k = d: one subset, every column (loss 1, see fp_css_prepare())
    all <- seq_len(prep$d)
    out <- list(columns = all, objective = 1, subsets = 1, search = search, nodes = 0, lower = 1, complete = TRUE,
                loss_pooled = fp_css_pooled_loss(prep, pp, all))
    if (unfair) {
      out$unfair <- list(columns = all, column_names = prep$colnames, loss_pooled = out$loss_pooled, lower = 1,
                         complete = TRUE, group_stats = fp_css_group_stats(prep, fp_css_prefix(prep$factor, all)[prep$d, ]))
    }
    return(out)
  }
  # The branch and bound searches the columns in an order that puts the promising ones first
  # (the incumbent's columns, then by decreasing leverage score summed over the groups): the
  # subtrees of the later columns then draw on weak columns only, whose bound prunes them.
  solve <- function(grams, factors, best2, inc, lev) {
    if (search == "enumerate") {
      r <- fp_cpp(.fp_css_exhaustive(grams, factors, best2, k))
      r$complete <- TRUE
      r$lower <- r$objective
      return(r)
    }
    ord <- c(inc, setdiff(order(-lev, seq_along(lev)), inc))
    gp <- lapply(grams, function(G) G[ord, ord, drop = FALSE])
    fpm <- lapply(factors, function(Y) Y[, ord, drop = FALSE])
    r <- fp_cpp(.fp_css_exhaustive(gp, fpm, best2, k, TRUE, fp_css_loss_of(fpm, best2, seq_len(k)), max_nodes))
    r$columns <- ord[r$columns + 1L] - 1L
    r
  }
  # incumbents of the branch and bound: the better greedy of the two denominators
  inc_fair <- if (search == "bnb") fit_css_greedy(prep, k)$columns else NULL
  fair <- solve(unname(prep$gram), unname(prep$factor), unname(prep$best2), inc_fair,
                if (search == "bnb") rowSums(fp_css_leverage(prep)))
  if (!unfair) {
    if (!isTRUE(fair$complete)) {
      fp_warn_convergence(sprintf(paste(
        "the branch and bound stopped after max_nodes = %s bound evaluations: the returned set is the best",
        "found, and the optimum is at least `lower` (%.6g); raise max_nodes for a certified optimum"),
        format(max_nodes), fair$lower))
    }
    return(list(columns = fair$columns + 1L, objective = fair$objective, subsets = fair$subsets, search = search,
                nodes = if (is.null(fair$nodes)) NA_real_ else fair$nodes, lower = fair$lower,
                complete = fair$complete, loss_pooled = fp_css_pooled_loss(prep, pp, fair$columns + 1L)))
  }
  inc_unf <- if (search == "bnb") {
    fp_cpp(.fp_css_greedy(list(prep$pooled), list(pp$factor), matrix(pp$best2, k, 1), seq_len(prep$d) - 1L,
                          integer(0), k))$columns + 1L
  }
  unf <- solve(list(prep$pooled), list(pp$factor), pp$best2, inc_unf, rowSums(pp$eig$vectors^2))
  if (!isTRUE(fair$complete) || !isTRUE(unf$complete)) {
    fp_warn_convergence(sprintf(paste(
      "the branch and bound stopped after max_nodes = %s bound evaluations: the returned set is the best",
      "found, and the optimum is at least `lower` (fair %.6g, unfair %.6g); raise max_nodes for a certified optimum"),
      format(max_nodes), fair$lower, unf$lower))
  }
  ucols <- unf$columns + 1L
  e2 <- fp_css_prefix(prep$factor, ucols)
  unfair <- list(columns = ucols, column_names = prep$colnames[ucols],
                 loss_pooled = fp_css_pooled_loss(prep, pp, ucols),
                 lower = unf$lower, complete = unf$complete,
                 group_stats = fp_css_group_stats(prep, e2[k, ]))
  list(columns = fair$columns + 1L, objective = fair$objective, subsets = fair$subsets, search = search,
       nodes = if (is.null(fair$nodes)) NA_real_ else fair$nodes, lower = fair$lower, complete = fair$complete,
       loss_pooled = fp_css_pooled_loss(prep, pp, fair$columns + 1L), unfair = unfair)
}
