fit_css_greedy <- function(prep, k, denominators = c("best", "k", "step"), rule = c("exact", "authors"),
                           n_columns = k, data = NULL) {
  rule <- fp_match_arg(rule, c("exact", "authors"), "rule")
  den_given <- !missing(denominators)
  denominators <- fp_match_arg(denominators, c("best", "k", "step"), "denominators")
  n_columns <- fp_check_count(n_columns, 1L, prep$d, "n_columns")
  run <- function(den, scan = FALSE) {
    b2 <- fp_css_best2_matrix(prep, k, n_columns, den)
    res <- fp_css_greedy_cpp(prep$gram, prep$factor, b2, n_columns, rule = if (scan) "authors_greedy" else "exact")
    list(columns = res$columns, objective = res$objective, loss = fp_css_loss(prep$factor, res$columns, prep$best2))
  }
  if (rule == "authors") {
    if (den_given && denominators != "step") {
      fp_abort("must be \"step\" (or left out) with rule = \"authors\": the authors' greedy divides by the rank-i residuals at step i", "denominators")
    }
    r <- run("step", scan = TRUE)
    return(list(columns = r$columns, objective = r$objective, denominators = "step", rule = rule))
  }
  if (denominators != "best") {
    r <- run(denominators)
    return(list(columns = r$columns, objective = r$objective, denominators = denominators, rule = rule))
  }
  # both denominators; keep the set with the smaller MinMaxLoss (rank-k denominators), "k" on ties
  rk <- run("k")
  rs <- run("step")
  use_step <- rs$loss < rk$loss * (1 - fp_tol_tie)
  r <- if (use_step) rs else rk
  list(columns = r$columns, objective = r$objective, denominators = if (use_step) "step" else "k", rule = rule,
       candidates = data.frame(denominators = c("k", "step"), loss = c(rk$loss, rs$loss)))
}

# steps x m matrix of squared denominators per greedy step: rank-k, or rank-(step - 1) as in
# the authors' code.
fp_css_best2_matrix <- function(prep, k, steps, denominators = "k") {
  m <- length(prep$gram)
  if (denominators == "k") return(matrix(prep$best2, steps, m, byrow = TRUE))
  out <- vapply(seq_len(m), function(i) {
    s2 <- prep$sv2[[i]]
    tail <- rev(cumsum(rev(s2)))   # tail[t] = squared rank-(t - 1) error, without cancellation
    pmax(tail[seq_len(steps)], .Machine$double.xmin, na.rm = TRUE)
  }, numeric(steps))
  matrix(out, steps, m)  # vapply drops to a vector when steps = 1
}
