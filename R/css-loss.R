# Per-group ratios error / best from squared errors (normalised units; a vector, or a matrix
# with one column per group): with k = d the best rank-k error is 0 and a ratio is 1 when the
# error vanishes too (to the precision of the Householder residuals, 1e-12 of the group's norm),
# infinite otherwise.
fp_css_ratio <- function(e2, best2, tot2, full = FALSE) {
  rows <- if (is.matrix(e2)) nrow(e2) else 1L
  out <- pmax(e2, 0)
  out[] <- if (!isTRUE(full)) sqrt(out / rep(best2, each = rows)) else ifelse(out <= 1e-24 * rep(tot2, each = rows), 1, Inf)
  out
}

# The loss of a column set (1-based `cols`), the one place it is computed: the largest over the
# groups of sqrt(error_g / best2_g), the squared errors from the group `factors` (Householder
# residuals, normalised units; a single factor of all rows gives the unfair problem's loss) and
# `best2` the squared denominators. The solvers compare sets with the denominators they use
# (each group's total when k = d, see fp_css_prepare()); `full = TRUE` with the totals `tot2`
# gives the reported convention at k = d instead (1 when the error vanishes, Inf otherwise).
fp_css_loss <- function(factors, cols, best2, full = FALSE, tot2 = NULL) {
  e2 <- fp_css_prefix(factors, cols)
  max(fp_css_ratio(e2[nrow(e2), ], best2, tot2, full))
}

# The group_stats table of a column set from its squared errors (normalised units): errors and
# best rank-k errors in the units of the (centred, scaled) data, ratios unit-free.
fp_css_group_stats <- function(prep, e2) {
  unit <- prep$norm_sqrt
  best <- if (isTRUE(prep$full)) rep(0, length(prep$levels)) else sqrt(prep$best2) * unit
  fp_df(list(group = prep$levels, n = as.numeric(prep$n), error = unname(sqrt(pmax(e2, 0)) * unit),
             best = unname(best), ratio = unname(fp_css_ratio(e2, prep$best2, prep$tot2, prep$full))))
}

# A data.frame of equal-length unnamed vectors (names from `cols`), as data.frame() makes it
# with check.names = FALSE and stringsAsFactors = FALSE, without its checks and deparsing (a
# measurable part of a small fit).
fp_df <- function(cols) {
  n <- if (length(cols)) length(cols[[1L]]) else 0L
  structure(cols, class = "data.frame", row.names = if (n) c(NA_integer_, -n) else integer(0))
}
