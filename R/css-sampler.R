# Rank-k leverage scores of each group: squared row norms of the top-k right singular vectors
# (top-k eigenvectors of G_g). A d x m matrix. Where the k-th eigenvalue is separated from the
# next by 1e-5 of the largest, the vectors come from one symmetric eigendecomposition of G_g
# (a third of the SVD's time; both agree to 2e-13 on the papers' data, as the subspace is well
# determined); otherwise from the SVD of the factor, whose digits the gap does not limit.
fp_css_leverage <- function(prep) {
  k <- prep$k
  out <- vapply(seq_along(prep$factor), function(i) {
    s2 <- prep$sv2[[i]]
    if (k < length(s2) && !fp_lanczos_path(prep$d, k) && s2[k] - s2[k + 1] > 1e-5 * s2[1]) {
      return(rowSums(fp_eig_top(prep$gram[[i]], k)$vectors^2))
    }
    rowSums(fp_css_svd(prep$factor[[i]], k)$v^2)
  }, numeric(prep$d))
  out <- matrix(out, prep$d, length(prep$levels), dimnames = list(prep$colnames, prep$levels))
  out
}

# FairScoresSampler (Algorithm 1; multi-group extension: order by the sum of the scores of the
# groups still below theta). scores: d x m; returns the selected indices in order.
fp_css_sampler <- function(scores, theta, max_columns = nrow(scores)) {
  d <- nrow(scores)
  m <- ncol(scores)
  sums <- numeric(m)
  sel <- integer(0)
  left <- seq_len(d)
  active <- sums < theta
  while (any(active) && length(sel) < max_columns && length(left)) {
    key <- rowSums(scores[left, active, drop = FALSE])
    # scores equal to 10 significant digits are tied (e.g. duplicated columns): column order
    ord <- left[order(-signif(key, 10), left)]
    # the columns in that order until one brings an active group's sum to theta (compiled)
    r <- fp_css_sampler_pass_cpp(scores, ord, sums, active, theta, room = max_columns - length(sel))
    sel <- c(sel, r$taken)
    sums <- r$sums
    left <- left[!left %in% sel]
    active <- sums < theta
  }
  sel
}

fp_check_theta <- function(theta, k) {
  fp_check_number(theta, "theta", 0, k, open_lower = TRUE)
}

fit_css_sampler <- function(prep, k, theta = k - 0.5, max_columns = NULL, data = NULL) {
  theta <- fp_check_theta(theta, k)
  if (is.null(max_columns)) max_columns <- prep$d
  max_columns <- fp_check_count(max_columns, 1L, prep$d, "max_columns")
  sc <- fp_css_leverage(prep)
  sel <- fp_css_sampler(sc, theta, max_columns)
  list(columns = sel, sampler = list(scores = sc, theta = theta, columns = sel, c = length(sel),
                                     sums = colSums(sc[sel, , drop = FALSE])))
}

fit_css_two_stage <- function(prep, k, stage2 = c("lowqr", "highqr", "greedy"), theta = k - 0.5,
                              objective = c("sampled", "full"), rule = c("exact", "authors"), data = NULL) {
  stage2 <- fp_match_arg(stage2, c("lowqr", "highqr", "greedy"), "stage2")
  obj_given <- !missing(objective)
  objective <- fp_match_arg(objective, c("sampled", "full"), "objective")
  fp_check_applies(obj_given, "objective", "stage2", stage2, "greedy")
  rule <- fp_match_arg(rule, c("exact", "authors"), "rule")
  if (rule == "authors" && obj_given && objective != "sampled") {
    fp_abort("must be \"sampled\" (or left out) with rule = \"authors\"", "objective")
  }
  theta <- fp_check_theta(theta, k)
  sc <- fp_css_leverage(prep)
  s1 <- fp_css_sampler(sc, theta)
  if (length(s1) < k) {
    fp_abort(sprintf("= %s made the sampler return %d < k = %d columns; raise theta", format(theta), length(s1), k), "theta")
  }
  # the authors' code runs stage 2 on the sampled columns in the sampler's order (this decides
  # ties); "exact" uses increasing column order
  cand <- if (rule == "authors") s1 else sort(s1)
  if (stage2 == "highqr") fp_css_highqr_check_cost(length(prep$gram), length(cand), arg = "stage2")
  cols <- switch(stage2,
    lowqr = fp_css_lowqr_cpp(prep$gram, prep$factor, k, candidates = cand)$columns,
    highqr = fp_css_highqr_cpp(prep$gram, candidates = cand)[seq_len(k)],
    greedy = fp_css_greedy_cpp(prep$gram, prep$factor, fp_css_best2_matrix(prep, k, k), k, candidates = cand,
                               target = if (objective == "sampled") sort(cand) else integer(0),
                               rule = if (rule == "authors") "authors_s_greedy" else "exact")$columns)
  list(columns = cols, stage2 = stage2, objective_scope = objective, rule = rule,
       sampler = list(scores = sc, theta = theta, columns = s1, c = length(s1),
                      sums = colSums(sc[s1, , drop = FALSE])))
}
