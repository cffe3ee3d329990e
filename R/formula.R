# The formula interface: the one helper behind every formula method (fair_pca(), fair_css(),
# fair_kpca(), tune_fair_pca(), pareto_front()); the methods sit next to their generics.

# The features and the group of a formula method's call, checked (fp_check_formula_door()) and
# built from `data` by fp_formula_data() (R/newdata.R): list(x = the model matrix, group, what
# predict() needs, for fp_formula_attach(), and `dropped`, the rows na.action dropped as
# list(total, group, features), NULL when none). Numbers stored as text stop it, categorical
# columns with many levels warn, and rows dropped when `na.action` was not given are said once
# (fp_formula_text_check(), fp_formula_dropped()). `gexpr` and `subset` are the method's
# unevaluated `group` and `subset` (NULL when not given), `group_missing` is missing(group), and
# `env` the method's caller, in which `subset` is evaluated after the columns of `data`;
# `min_cols` the fewest feature columns the method fits on.
fp_formula_door <- function(formula, data, gexpr, group_missing, subset, na.action, env, min_cols = 1L) {
  fp_check_formula_door(formula, group_missing)
  if (!is.null(subset) && is.data.frame(data)) {
    subset <- tryCatch(eval(subset, data, env),
                       error = function(e) fp_abort(sprintf("cannot be evaluated on `data`: %s", conditionMessage(e)), "subset"))
  }
  fp_formula_data(formula, data, gexpr, env, subset = subset, na.action = na.action, min_cols = min_cols)
}
