# The compiled entry points of the CSS methods (src/css.cpp, src/css_prep.cpp), one R wrapper
# each. Column indices are 1-based here and 0-based in C++: the wrappers shift them, in and
# out, and nowhere else does. Options are named arguments, and every call goes through
# fp_cpp(), so an error raised in C++ reaches the user as a fairproj_numerical_error.
# `grams` and `factors` are lists with one d x d Gram matrix and one factor (t(Y) %*% Y = G) per
# group, in the normalised units of the prepared problem (fp_css_prepare()).

# Scatter, Gram matrix, factor and singular values of each group, and the pooled Gram matrix,
# from the moments (see fp_css_prepare() for the arguments).
fp_css_prep_cpp <- function(scatter, mean, n, center, scale, power) {
  fp_cpp(.fp_css_prep_core(unname(scatter), unname(mean), as.numeric(n), center, scale, power),
         "the preparation of the Gram matrices")
}

# Per-prefix squared errors (c x m) of a column sequence (1-based) from the group factors
# (Householder QR; in the normalised units of the prepared problem).
fp_css_prefix <- function(factors, columns, target = integer(0)) {
  fp_cpp(.fp_css_prefix_err2(unname(factors), as.integer(columns) - 1L, as.integer(target) - 1L))
}

# Least-squares coefficients W (c x d) with Z ~ Z[, S] W (Z the centred, scaled data), from a
# group factor Y (t(Y) Y = t(Z) Z): Householder QR of Y[, S] in selection order, in one compiled
# call (src/css.cpp); a column whose residual is at most 1e-10 of its norm (dependent on
# earlier ones, or zero for the group: a category absent from it) gets 0.
fp_css_coef <- function(Y, S) {
  fp_cpp(.fp_css_coef(Y, as.integer(S)), "the coefficients of the selected columns")
}

# Greedy selection of k columns among `candidates` (1-based; all columns by default), each step
# adding the column that minimises the largest ratio sqrt(error_g / best2[t, g]) (`best2`: k x m
# squared denominators per step t). `target`: the columns whose error counts (all when empty).
# `rule`: "exact" (the argmin; values within a relative 1e-10 tied, the first candidate wins);
# "authors_greedy" (the scan of the authors' Greedy: candidates in the given order, each one
# whose value is at most the running value, which starts at the current set's, is accepted, and
# the last accepted is added); "authors_s_greedy" (the scan of the authors' S-Greedy: values
# rounded to 5 decimals and accepted within 0.001 of the running value). Returns the columns
# (1-based, in selection order) and the objective after each step.
fp_css_greedy_cpp <- function(grams, factors, best2, k, candidates = seq_len(ncol(grams[[1L]])),
                              target = integer(0), rule = "exact") {
  rule <- fp_match_arg(rule, c("exact", "authors_greedy", "authors_s_greedy"), "rule")
  scan <- rule != "exact"
  rounded <- rule == "authors_s_greedy"
  opts <- list(k = as.integer(k), scan = scan, digits = if (rounded) 5L else -1L, tol = if (rounded) 1e-3 else 0)
  res <- fp_cpp(.fp_css_greedy(unname(grams), unname(factors), best2, as.integer(candidates) - 1L,
                               as.integer(target) - 1L, opts))
  res$columns <- res$columns + 1L
  res
}

# Fair low-rank-revealing QR on `candidates` (1-based): the first k pivots (1-based, in
# selection order), the group that gave each (`group`, 1-based) and the top eigenvalues seen.
fp_css_lowqr_cpp <- function(grams, factors, k, candidates = seq_len(ncol(grams[[1L]]))) {
  res <- fp_cpp(.fp_css_lowqr(unname(grams), unname(factors), as.integer(candidates) - 1L, k))
  res$columns <- res$columns + 1L
  res
}

# Fair high-rank-revealing QR on `candidates` (1-based): the whole ordering of the candidates
# (1-based columns; the first k positions are the selection of rank k).
fp_css_highqr_cpp <- function(grams, candidates = seq_len(ncol(grams[[1L]]))) {
  pb <- fp_progress_bar(length(candidates) - 1L, "High-rank-revealing QR positions")
  res <- fp_cpp(.fp_css_highqr(unname(grams), as.integer(candidates) - 1L, stop = 1L,
                               progress = if (fp_progress_on()) function(i) pb$update(i) else NULL))
  pb$done()
  res$order + 1L
}

# Exact MinMaxLoss over the k-subsets: `search = "enumerate"` evaluates every subset;
# `"bnb"` is the branch and bound with `incumbent` the value of a known set (the caller orders
# the columns so that this set comes first) and at most `max_nodes` bound evaluations. Returns
# the columns (1-based), objective, subsets, nodes, complete and lower.
fp_css_exhaustive_cpp <- function(grams, factors, best2, k, search = "enumerate", incumbent = NULL,
                                  max_nodes = NULL, max_seconds = Inf, progress = NULL) {
  search <- fp_match_arg(search, c("enumerate", "bnb"), "search")
  max_seconds <- min(max_seconds, 1e308)
  opts <- if (search == "enumerate") list(k = as.integer(k)) else
    list(k = as.integer(k), bnb = TRUE, incumbent = incumbent, max_nodes = max_nodes, max_seconds = max_seconds)
  res <- fp_cpp(.fp_css_exhaustive(unname(grams), unname(factors), best2, opts, progress = progress))
  res$columns <- res$columns + 1L
  res
}

# One pass of the sampler: the columns of `order` (1-based) in turn, at most `room` of them,
# until one brings an active group's score sum to theta. Returns the columns taken (1-based)
# and the new sums.
fp_css_sampler_pass_cpp <- function(scores, order, sums, active, theta, room) {
  res <- fp_cpp(.fp_css_sampler_pass(scores, as.integer(order) - 1L, sums, active, theta, room),
                "the column sampler")
  res$taken <- res$taken + 1L
  res
}
