# The formula interface: the one helper behind every formula method (fair_pca(), fair_css(),
# fair_kpca(), tune_fair_pca(), pareto_front()); the methods sit next to their generics.

# The features and the group of a formula method's call, checked (fp_check_formula_door()) and
# built from `data` by fp_formula_data() (R/newdata.R): list(x = the model matrix, group, what
# predict() needs, for fp_formula_attach(), and `dropped`, the rows na.action dropped as
# list(total, group, features), NULL when none). Numbers stored as text stop it, categorical
# columns with many levels warn, and rows dropped when `na.action` was not given are said once
# (fp_formula_text_check(), fp_formula_dropped()). `gexpr` and `subset` are the method's
# unevaluated `group` and `subset` (NULL when not given), `group_missing` is missing(group), and
# `env` the method's caller, in which `subset` is evaluated after the columns of `data`.
fp_formula_door <- function(formula, data, gexpr, group_missing, subset, na.action, env) {
  fp_check_formula_door(formula, group_missing)
  fp_formula_data(formula, data, gexpr, env, subset = if (!is.null(subset)) eval(subset, data, env),
                  na.action = na.action)
}
