#' A fairness audit of PCA in one call
#'
#' Fits every method in `methods` at every `k` from the data's group moments and collects what a
#' reviewer asks of a reduction that must serve every group: per group, the reconstruction
#' error, the marginal loss and the variance kept; per method and k, the largest marginal loss,
#' the gap between the groups, the variance lost against standard PCA (the price of fairness),
#' the solver's certificate or convergence state and the time taken; and, when an `outcome` is
#' given, how a model trained on the reduced data performs and how fair its predictions are on
#' held-out rows. [rmarkdown::draft()] with `template = "fair-pca-audit", package = "fairproj"`
#' turns an audit into a report (see the README).
#'
#' **What is fitted.** The rows are read once into [group_moments()] (once more for the
#' intervals' block moments); every fit is
#' `fair_pca(<moments>, k = , method = , center = , scale. = )`, so each row of the tables is
#' what a separate [fair_pca()] call gives, and the fits never touch the rows again (methods that
#' need the rows, such as `"inlp"`, cannot be audited). The fits are kept in `$fits`.
#'
#' **Defaults.** `k` runs from 1 to four times the number of groups, at most `d - 1` (at `k = d`
#' every method keeps everything). Standard PCA (the reference of the price) and the fair
#' default of [fair_pca()] (`"minmax"`) are always audited, whatever `methods` says.
#'
#' **The price of fairness** of a method at k is the fraction of the total variance that
#' standard PCA keeps at k and the method does not, `var_kept(standard) - var_kept(method)`,
#' where `var_kept` is the variance of the reconstruction divided by the total variance (with
#' the centring and scaling of the fit, as [stats::prcomp()]). Standard PCA keeps the most
#' variance of any rank-k projection, so the price is never negative for projections.
#'
#' **Downstream checks.** With an `outcome`, the rows are split once into a training and a
#' held-out part (`test_fraction` of each group held out, at random; `seed` makes it
#' reproducible). Every method is refitted at every k on the training part's moments (the
#' split's moments come from the same one pass; their sum is the moments of all rows), a
#' generalised linear model ([stats::glm.fit()]) is trained on the training rows' k scores and
#' evaluated on the held-out rows:
#' * a binary outcome (logical, 0/1, or two levels; the second level is the positive class):
#'   logistic regression predicting 1 when the probability exceeds 1/2; `accuracy`, `error`
#'   (misclassification rate), and the demographic-parity and equal-opportunity gaps of
#'   [fairness_gaps()] (`dp_gap`, `eo_gap`: largest minus smallest group rate of positive
#'   predictions, and of true positives). `one_class` flags fits whose model predicts one class
#'   for every held-out row, whose gaps are then 0 by construction.
#' * a numeric outcome: least squares; `error` is the root mean squared error, `dp_gap` the
#'   largest minus the smallest group mean of the predictions (in the outcome's units) and
#'   `eo_gap` is `NA` (equal opportunity needs a positive class).
#'
#' The same model on all d columns and the trivial model (the training majority class, or the
#' training mean) are kept in `$downstream_reference`. Without rows (a `group_moments` input)
#' or without an outcome, `$downstream` is `NULL` and `$downstream_note` says why.
#'
#' **Intervals** (`level`, default 90%) accompany every method's per-group error and marginal
#' loss, the largest and smallest loss, the loss gap and ratio, the largest error and error gap,
#' the variance kept and the price of fairness, at the k in `interval_k` (by default `k_focus`,
#' the k that `print()` shows; `"all"` for every audited k, at `length(k)` times the cost).
#' They come from a bootstrap over blocks of rows that reads the rows once more, not once per
#' replicate: a second pass assigns each row to one of `blocks` blocks by a hash of its row
#' number (`floor(blocks * frac(i * 0.618...))`, no random numbers, so rows sorted by any
#' variable still spread evenly) and computes the moments of every (group, block) cell, which add
#' up to the groups' moments (the audit's own numbers come from the first pass, as the sum of
#' many blocks loses digits where a column's offset dwarfs its spread). A replicate draws each group's non-empty blocks with replacement (as many as
#' it has), adds their moments (moments add exactly) and refits every method on them, which costs
#' solver calls on d x d matrices. The interval of one quantity (a group's error or loss, the
#' loss ratio, the variance kept, the price) is the `(1 - level) / 2` and `(1 + level) / 2`
#' quantiles of `replicates` replicates (type 6, whose expected content is `level` exactly where
#' R's default holds 0.88 at 100 replicates; the replicates use `seed`), shifted by the
#' bootstrap's estimate of bias (the replicates' mean minus the estimate): a percentile interval
#' centred on the estimate rather than on the replicates, which a group's loss under a subspace
#' fitted to a sample puts above it (the loss is biased upwards, and the replicates add that
#' bias again). The largest and the smallest
#' loss or error and the gaps between groups are not smooth where two groups are close, and get
#' intervals built from all groups' replicates together: the groups that may hold the largest
#' (those whose difference from the estimated largest has an interval reaching 0) bound it
#' between the largest of their simultaneous lower bounds and the largest of their upper
#' bounds (with one such group, its own interval), and a gap lies within the simultaneous
#' intervals of the differences between the candidates for the largest and for the smallest,
#' starting at 0 where one of them reaches 0. A quantity that cannot be negative is kept above
#' 0, and its interval starts at 0 where it is not distinguishable from 0 at that level: where
#' the estimate is smaller than the interval's width, and, for a loss, where the estimate lies
#' within the noise floor of a zero loss. A loss of 0 in the population is estimated above 0,
#' by the gap between a fitted subspace and the group's in-sample best, which grows with the
#' number of directions estimated (k (d - k)), and its replicates stay above 0 too; the floor
#' is the `(1 + level) / 2` quantile, over the replicates, of the loss on the sample's moments
#' of the group's own best rank-k subspace fitted to the replicate (in the sample's scaling).
#' The largest loss starts at 0 within the same quantile of the largest of the groups' floors,
#' the smallest loss where one group's loss does; the loss ratio then reaches `Inf` (and 1 where
#' every loss may be 0).
#' The bootstrap estimates the spread of each quantity as an estimate of the same method applied to the
#' population, and assumes that rows are independent draws within each group (rows that come in
#' clusters, such as repeated measures of one person, need blocks made of whole clusters, which
#' a hash of the row number does not give). The blocks are the bootstrap's units, so its spread
#' is estimated from about `blocks - 1` degrees of freedom per group: with 25 blocks, 90%
#' intervals of a group's error covered the truth 81-88% of the time at 2,000 rows per group,
#' with 100 blocks 87-90% (150 samples each); 50 is the default (bench/audit-coverage.R
#' measures coverage of the true values of synthetic populations). The block moments take `blocks * m * d^2`
#' doubles (times 2 with an outcome, for the held-out split); `blocks` is lowered to fit 256 MB
#' (option `fairproj.interval_memory`, in bytes), and below 10 blocks no intervals are computed
#' and `$intervals$note` says so (at 3 groups, beyond about d = 1000, or 750 with an outcome).
#'
#' In bench/audit-coverage.R (two groups of 50 to 10,000 rows, 500 samples each, d = 4, k = 2)
#' the 90% intervals of every group's loss, the largest loss, the loss gap and the price of
#' standard PCA, min-max and mean matching covered the truth in 86-95% of the samples, also where
#' the two groups' losses are close, and more often (up to 99%) where an interval starts at 0.
#' With both groups from one population (every loss 0) the intervals covered 0 in at least 98%
#' of the samples at d = 4, k = 2, and at d = 12, k = 4 (32 directions estimated) in 88-94%
#' (standard PCA) and 96-100% (min-max, and every gap and price); mean matching's are flagged
#' there (see below).
#'
#' An interval is flagged `reliable = FALSE` when its group has fewer than 50 rows or fewer
#' than 10 non-empty blocks, or when k is at least the rank of the group's covariance minus 1
#' (where that rank is below d: more columns than rows, or collinear columns), where the
#' replicates cannot show the spread. The intervals of methods that constrain the directions of
#' the group-mean differences (mean matching, `"cfpca"`) are also flagged where the data do not
#' fix those directions: where the span of the replicates' mean differences agrees with the
#' sample's by a median squared cosine below 0.8 (groups whose means differ little against
#' their spread; the method's losses then jump with the noise in the means, which the bootstrap
#' does not reproduce: with both groups from one population at d = 12, k = 4, mean matching's
#' losses were covered in 79-85% of the samples). Groups whose means differ clearly agreed by
#' 0.88 or more in 9 samples of 10 at 50 rows per group, and by 0.99 from 1,000 rows. A row of `table` is reliable when every group's interval
#' of that method and k is and its largest loss, loss gap, largest error and price have one.
#' `print()` and `summary()` show unreliable intervals in brackets marked `?`;
#' `tidy(matrix = "intervals")` has the flag in `reliable` and says in `note` where an
#' interval starts at 0. The interval columns of `table` and `groups_table` hold the same bounds.
#' Input from
#' moments gives intervals only when the moments carry block moments, as
#' `group_moments(x, group, blocks = 50)` computes them from rows in memory, from files
#' ([group_moments_files]) and from databases ([group_moments_db], stream route); `c()` and `+`
#' keep them when every piece carries blocks of the same count. Without them there are no
#' intervals, and `$intervals$note` says so.
#'
#' **Progress** over the fits is shown in interactive sessions (`progress = TRUE` forces it, for
#' instance while knitting a report, where it goes to the console with the chunk option
#' `message = NA`). Convergence warnings of the fits are collected and given once per kind at
#' the end (class `fairproj_convergence_warning`, with the number of fits); every fit's state
#' is in `$table$state`.
#'
#' @param x A numeric matrix or data.frame (rows are observations), a one-sided formula with
#'   `data` (as in [fair_pca()]), or a [group_moments()] object from any source.
#' @param group Group labels, one per row (a vector; a data.frame of several attributes, whose
#'   non-empty cells are the groups, see [intersect_groups()]; or, for a data.frame `x` and in
#'   the formula interface, the name of a column). Not used with a `group_moments` object.
#' @param k The dimensions to audit: whole numbers between 1 and the number of columns; `NULL`
#'   for the default range (see Details).
#' @param methods [fair_pca()] methods that work from moments ([fairproj_methods()]);
#'   `"standard"` and `"minmax"` are added when missing.
#' @param outcome Optional binary or numeric outcome, one per row (or, for a data.frame `x` and
#'   in the formula interface, the name of a column, which is then not a feature), for the
#'   downstream checks. It must have no missing values.
#' @param ... Arguments of single methods, each a named list named after its method, e.g.
#'   `robust = list(alpha = 0.1)`.
#' @param center,scale. Centring and scaling of every fit, as in [fair_pca()], except that
#'   `scale. = TRUE` is the default (each column divided by its standard deviation, as in the
#'   report template): unscaled, the audit of columns in different units measures mostly the
#'   column with the largest variance. `scale. = FALSE` audits the columns in their units.
#' @param test_fraction Fraction of each group's rows held out for the downstream checks.
#' @param seed Optional integer: the held-out split and the bootstrap replicates of the
#'   intervals are drawn after `set.seed(seed)` and the global random-number state is restored
#'   afterwards.
#' @param level Confidence level of the intervals, in (0, 1); `NULL` for none.
#' @param replicates Number of bootstrap replicates of the intervals (each refits every method
#'   at every k of `interval_k`); 0 for no intervals, else between 20 and 100000. The default
#'   is the option `fairproj.replicates`, else 100.
#' @param blocks Number of blocks of rows per group that the bootstrap resamples (10 to 1000).
#' @param interval_k The dimensions that get intervals: whole numbers among the audited `k`, or
#'   `"all"`; `NULL` for `k_focus`.
#' @param progress `TRUE` or `FALSE` to show or hide progress; `NULL` shows it in interactive
#'   sessions.
#' @param formula,data The formula interface: a one-sided formula naming the feature columns of
#'   the data.frame `data` (`~ .` for all but the group and outcome columns), as in
#'   [fair_pca()]; rows with missing features are dropped by `na.action`.
#' @param na.action As in [stats::model.frame()] (default `getOption("na.action")`).
#' @return An object of class `fairproj_audit`: a list with
#'   * `table`: one row per method and k: `method`, `k`, `rank` (of the reconstruction: above
#'     k for Samadi et al.'s affine map), `var_kept`, `price`, `max_loss`, `min_loss`,
#'     `loss_gap` (largest minus smallest marginal loss), `loss_ratio` (largest over smallest;
#'     1 when every loss is 0, `Inf` when only the smallest is, to 1e-10 of the largest error),
#'     `worst_group` (the group with the largest loss), `max_error`, `error_gap`, `converged`
#'     (`NA` for closed forms), `certificate` (duality gap, or gap, of certified solvers, in the
#'     units of the losses), `state` (in words: `"not fitted"` where the method cannot reach
#'     that k, e.g. mean matching beyond its feasible dimension), `seconds` (of the fit) and
#'     `note` (the fit's first warning, or why it was not fitted);
#'   * `groups_table`: one row per method, k and group: `n`, `error` (average squared
#'     reconstruction error of the group about its own mean), `best` (the group's own best
#'     rank-k error), `loss` (marginal loss, `error - best`), `var_explained`;
#'   * with intervals, both tables also hold `<quantity>_low` and `<quantity>_high` for each
#'     quantity above (`NA` at the k without intervals) and `reliable` (see Details);
#'     `intervals`: a list with `level`, `replicates`, `k` (the dimensions with intervals),
#'     `method` (`"bias-corrected percentile"`), `blocks` (the non-empty blocks of each group) and `note` (why
#'     there are none);
#'   * `downstream`: one row per method and k (`n_test`, `accuracy`, `error`, `dp_gap`,
#'     `eo_gap`, `one_class`) or `NULL`; `downstream_reference`, `downstream_note`;
#'   * `groups` (levels, sizes, share and `small`: fewer than 5 rows per column), `k`,
#'     `k_focus` (the smallest audited k at which standard PCA keeps 80% of the variance, or
#'     the largest audited k), `methods`, `n`, `d`, `colnames`, `scaled`, `centered`,
#'     `outcome` (a list: `name`, `type`, `n_train`, `n_test`, `test_fraction`, `test_rows`
#'     (the held-out rows, numbered after rows with missing values are dropped), `positive`
#'     and `positive_rate` or `mean`; or `NULL`), `n_dropped`
#'     (rows dropped for missing values by the formula interface), `fits` (the fits, as
#'     `fits[[method]][[as.character(k)]]`), `time` (seconds in all), `call`.
#' @seealso [summary.fairproj_audit()], [plot.fairproj_audit()], [fair_pca()],
#'   [fairness_gaps()].
#' @examplesIf requireNamespace("MASS", quietly = TRUE)
#' # birth weights of 189 babies, with the mother's race as the group
#' bw <- within(MASS::birthwt, race <- factor(race, 1:3, c("white", "black", "other")))
#' a <- fair_audit(~ age + lwt + smoke + ptl + ht + ui + ftv, data = bw, group = race,
#'                 k = 1:3, outcome = low, seed = 1)
#' a
#' plot(a)
#' # from moments only: no downstream checks
#' m <- group_moments(bw[c("age", "lwt", "ptl", "ftv")], bw$race)
#' fair_audit(m, k = 1:2)$downstream_note
#' @export
fair_audit <- function(x, ...) UseMethod("fair_audit")

#' @rdname fair_audit
#' @export
fair_audit.default <- function(x, group, k = NULL, methods = c("standard", "minmax", "mean"), outcome = NULL,
                               ..., center = TRUE, scale. = TRUE, test_fraction = 0.3, seed = NULL,
                               level = 0.9, replicates = getOption("fairproj.replicates", 100), blocks = 50,
                               interval_k = NULL, progress = NULL) {
  call <- match.call()
  if (missing(group)) fp_abort("is missing: give one group label per row", "group")
  group <- fp_force_column(group, substitute(group), x, "group")
  outcome <- fp_force_column(outcome, substitute(outcome), x, "outcome")
  if (is.data.frame(x)) {
    # `group` and `outcome` may name columns of x, which are then not features
    gc <- fp_audit_column(group, x, NULL, "group", data_arg = "x")
    oc <- fp_audit_column(outcome, x, NULL, "outcome", data_arg = "x")
    group <- gc$value
    outcome <- oc$value
    x <- x[setdiff(names(x), c(gc$name, oc$name))]
  }
  xm <- fp_as_matrix(x, "x", check_finite = FALSE, set_names = FALSE)  # NA/Inf: in the C++ pass
  g <- fp_as_group(group, nrow(xm), "group", min_levels = 2L)
  fp_audit_methods(methods, NULL, ...names(), ...length())
  fp_audit_run(xm, g, outcome, k, methods, list(...), center, scale., test_fraction, seed, progress, call,
               level = level, replicates = replicates, blocks = blocks, interval_k = interval_k)
}

#' @rdname fair_audit
#' @export
fair_audit.formula <- function(formula, data = NULL, group, k = NULL, methods = c("standard", "minmax", "mean"),
                               outcome = NULL, ..., na.action) {
  call <- match.call()
  fp_check_formula_door(formula, missing(group), outcome = TRUE)
  if (!is.data.frame(data)) fp_abort("must be a data.frame (the formula interface needs one)", "data")
  y <- fp_audit_column(substitute(outcome), data, parent.frame(), "outcome")
  if (!is.null(y$name)) {
    if (y$name %in% all.vars(formula)) formula <- fp_formula_drop(formula, y$name, "outcome")
    data <- data[setdiff(names(data), y$name)]
  }
  fd <- fp_formula_data(formula, data, substitute(group), parent.frame(),
                        na.action = if (!missing(na.action)) na.action)
  yv <- y$value
  if (!is.null(yv) && !is.null(fd$na.action)) {
    if (length(yv) != nrow(data)) {
      fp_abort(sprintf("has length %d but `data` has %d rows", length(yv), nrow(data)), "outcome")
    }
    yv <- yv[-as.integer(fd$na.action)]
  }
  res <- fair_audit.default(fd$x, fd$group, k = k, methods = methods, outcome = yv, ...)
  res$call <- call
  res$group_name <- fd$group_name
  if (!is.null(res$outcome)) res$outcome$name <- y$name
  res$n_dropped <- length(fd$na.action)
  res
}

#' @rdname fair_audit
#' @export
fair_audit.group_moments <- function(x, group = NULL, k = NULL, methods = c("standard", "minmax", "mean"),
                                     outcome = NULL, ..., center = TRUE, scale. = TRUE, seed = NULL, level = 0.9,
                                     replicates = getOption("fairproj.replicates", 100), interval_k = NULL, progress = NULL) {
  call <- match.call()
  if (!is.null(group)) fp_abort("must not be given when `x` is a group_moments object (the groups are in it)", "group")
  if (!is.null(outcome)) {
    fp_abort("needs the data rows: a group_moments object has none, so the downstream checks cannot run; give the rows or drop `outcome`",
             "outcome")
  }
  if (length(x$levels) < 2L) fp_abort("must have at least 2 groups", "x")
  if (any(x$n < 1)) fp_abort("has a group with no rows", "x")
  fp_audit_methods(methods, NULL, ...names(), ...length())
  fp_audit_run(NULL, NULL, NULL, k, methods, list(...), center, scale., 0.3, seed, progress, call, moments = x,
               level = level, replicates = replicates, blocks = 50L, interval_k = interval_k)
}

# A column of `data` named by an unquoted name (when `env` is given, `expr` is unevaluated)
# or a string, or a vector: list(name, value).
fp_audit_column <- function(expr, data, env, arg, data_arg = "data") {
  if (is.null(expr)) return(list(name = NULL, value = NULL))
  if (!is.null(env) && is.name(expr) && as.character(expr) %in% names(data)) {
    return(list(name = as.character(expr), value = data[[as.character(expr)]]))
  }
  v <- if (is.null(env)) expr else fp_eval_column(expr, data, env, arg, data_arg)
  if (is.character(v) && length(v) == 1L && !is.na(v) && nrow(data) != 1L) {
    if (!v %in% names(data)) fp_column_missing_error(v, data, arg, data_arg)
    return(list(name = v, value = data[[v]]))
  }
  list(name = NULL, value = v)
}

# The outcome as list(type = "binary" | "numeric", y (0/1 or numeric), positive (label)).
fp_audit_outcome <- function(outcome, n) {
  if (length(outcome) != n) fp_abort(sprintf("has length %d but the data have %d rows", length(outcome), n), "outcome")
  if (anyNA(outcome)) fp_abort(sprintf("contains %d missing value(s); remove those rows first", sum(is.na(outcome))), "outcome")
  if (is.numeric(outcome) && !all(outcome %in% c(0, 1))) {
    if (any(!is.finite(outcome))) fp_abort("contains infinite values", "outcome")
    if (length(unique(outcome)) < 2L) fp_abort("is constant: there is nothing to predict", "outcome")
    return(list(type = "numeric", y = as.numeric(outcome), positive = NULL))
  }
  if (!(is.numeric(outcome) || is.logical(outcome) || is.factor(outcome) || is.character(outcome))) {
    fp_abort(sprintf("must be a binary or numeric vector, not '%s'", class(outcome)[1L]), "outcome")
  }
  f <- as.factor(outcome)
  if (nlevels(f) != 2L) {
    fp_abort(sprintf("must be binary (two values) or numeric; it has %d value(s)", nlevels(f)), "outcome")
  }
  list(type = "binary", y = as.integer(f == levels(f)[2L]), positive = levels(f)[2L])
}

# The audited dimensions: the given ones checked, or 1, ..., min(4 m, d - 1).
fp_audit_k <- function(k, d, m) {
  if (is.null(k)) return(seq_len(max(1L, min(4L * m, d - 1L))))
  if (!is.numeric(k) || !length(k) || anyNA(k) || any(!is.finite(k)) || any(k != round(k)) || any(k < 1) ||
      any(k > d)) {
    fp_abort(sprintf("must be whole numbers between 1 and the number of columns (%d)", d), "k")
  }
  sort(unique(as.integer(k)))
}

# The audited methods; `margs` the further arguments (a list, or NULL to check only their names
# `nm` and count `n` before they are evaluated).
fp_audit_methods <- function(methods, margs, nm = names(margs), n = length(margs)) {
  if (!is.character(methods) || !length(methods) || anyNA(methods)) {
    fp_abort("must be a character vector of fair_pca() methods; see fairproj_methods()", "methods")
  }
  for (m in methods) fp_check_method(m, "pca", "methods")
  methods <- unique(c("standard", "minmax", methods))
  if (n > 0L) {
    if (is.null(nm) || any(nm == "")) {
      fp_abort("must be named after methods, each a list of that method's arguments (e.g. robust = list(alpha = 0.1))", "...")
    }
    bad <- setdiff(nm, methods)
    if (length(bad)) {
      fp_abort(sprintf("names %s, which %s not among the audited methods (%s)", paste(shQuote(bad), collapse = ", "),
                       if (length(bad) > 1L) "are" else "is", paste(methods, collapse = ", ")), "...")
    }
    if (!is.null(margs) && !all(vapply(margs, is.list, logical(1)))) {
      fp_abort("must give each method's arguments as a list (e.g. robust = list(alpha = 0.1))", "...")
    }
  }
  methods
}

# Split the rows of each group at random: TRUE for held-out rows (at least one per group on
# each side).
fp_audit_split <- function(g, test_fraction) {
  held <- logical(length(g))
  for (lev in levels(g)) {
    idx <- which(g == lev)
    if (length(idx) < 2L) {
      fp_abort(sprintf("cannot be checked downstream: group '%s' has %d row, and the held-out split needs 2 per group",
                       lev, length(idx)), "outcome")
    }
    nt <- min(max(1L, round(test_fraction * length(idx))), length(idx) - 1L)
    held[idx[sample.int(length(idx), nt)]] <- TRUE
  }
  held
}

# The solver's state in words, its convergence flag and certificate (a gap in loss units).
fp_audit_state <- function(fit) {
  conv <- if (is.null(fit$converged)) NA else isTRUE(fit$converged)
  cert <- if (!is.null(fit$duality_gap)) fit$duality_gap else if (!is.null(fit$gap)) fit$gap else NA_real_
  state <- if (identical(fit$method, "standard")) {
    "exact (eigenvectors)"
  } else if (identical(fit$returned, "standard") || identical(fit$returned, "start")) {
    "fell back to standard PCA"
  } else if (is.na(conv)) {
    "closed form"
  } else if (conv) {
    if (is.finite(cert)) sprintf("certified (gap %s)", format(signif(max(cert, 0), 2))) else "converged"
  } else {
    "not converged"
  }
  list(converged = conv, certificate = as.numeric(cert), state = state)
}

# One fit, its time and its warnings (muffled and returned). A fit that fails (a k beyond a
# method's feasible dimension, a numerical failure) gives `fit = NULL` and the error.
fp_audit_fit <- function(moments, k, method, margs, center, scale.) {
  warns <- list()
  err <- NULL
  t0 <- proc.time()[["elapsed"]]
  fit <- withCallingHandlers(
    tryCatch(do.call(fair_pca, c(list(moments, k = k, method = method, center = center, scale. = scale.,
                                      keep_moments = FALSE), margs)),
             fairproj_needs_rows = function(e) {
               fp_abort(sprintf("includes '%s', which needs the data rows; an audit fits every method from the group moments",
                                method), "methods")
             },
             fairproj_error = function(e) {
               err <<- e
               NULL
             }),
    warning = function(w) {
      warns[[length(warns) + 1L]] <<- w
      invokeRestart("muffleWarning")
    })
  secs <- proc.time()[["elapsed"]] - t0
  # the call do.call() recorded holds the moments themselves: name them instead
  if (!is.null(fit)) {
    fit$call <- as.call(c(list(quote(fair_pca), quote(moments), k = k, method = method, center = center,
                               scale. = scale.), margs))
  }
  list(fit = fit, error = err, seconds = secs, warnings = warns)
}

# The method x k row of a fit (NA values and the error in `state` when it failed).
fp_audit_row <- function(r, meth, kk, C) {
  f <- r$fit
  if (is.null(f)) {
    return(fp_row_df(method = meth, k = kk, rank = NA_integer_, var_kept = NA_real_, price = NA_real_,
                     max_loss = NA_real_, min_loss = NA_real_, loss_gap = NA_real_, loss_ratio = NA_real_,
                     worst_group = NA_character_, max_error = NA_real_, error_gap = NA_real_, converged = NA,
                     certificate = NA_real_, state = "not fitted", seconds = r$seconds,
                     note = conditionMessage(r$error)))
  }
  gs <- f$group_stats
  st <- fp_audit_state(f)
  fp_row_df(method = meth, k = kk, rank = ncol(f$rotation), var_kept = fp_audit_var_kept(f, C), price = NA_real_,
            max_loss = max(gs$loss), min_loss = min(gs$loss), loss_gap = max(gs$loss) - min(gs$loss),
            loss_ratio = fp_audit_loss_ratio(gs),
            worst_group = gs$group[which.max(gs$loss)], max_error = max(gs$error),
            error_gap = max(gs$error) - min(gs$error), converged = st$converged, certificate = st$certificate,
            state = st$state, seconds = r$seconds,
            note = if (length(r$warnings)) conditionMessage(r$warnings[[1L]]) else NA_character_)
}

# A one-row data frame of named length-one values, as data.frame(..., stringsAsFactors = FALSE)
# gives it, without its checks and deparsing (one row per method and k of an audit).
fp_row_df <- function(...) {
  v <- list(...)
  stopifnot(all(lengths(v) == 1L))
  fp_df(lapply(v, unname))
}

# Train on the training rows' scores, predict the held-out rows, measure. `s` holds the
# scores (or columns) of all rows; `held` marks the held-out rows.
fp_audit_downstream_one <- function(s, y, g, held) {
  tr <- !held
  yt <- y$y[held]
  if (y$type == "binary") {
    pred <- fp_logistic_predict(s[tr, , drop = FALSE], y$y[tr], s[held, , drop = FALSE])
    one <- length(unique(pred)) == 1L
    gaps <- withCallingHandlers(fairness_gaps(pred, yt, g[held]),
                                fairproj_single_class_warning = function(w) invokeRestart("muffleWarning"))
    return(structure(data.frame(n_test = sum(held), accuracy = gaps[["accuracy"]], error = 1 - gaps[["accuracy"]],
                                dp_gap = gaps[["dp_gap"]], eo_gap = gaps[["eo_gap"]], one_class = one),
                     pred = as.numeric(pred)))
  }
  X <- cbind(1, s[tr, , drop = FALSE])
  beta <- stats::lm.fit(X, y$y[tr])$coefficients
  beta[is.na(beta)] <- 0
  pred <- drop(cbind(1, s[held, , drop = FALSE]) %*% beta)
  mp <- tapply(pred, droplevels(g[held]), mean)
  structure(data.frame(n_test = sum(held), accuracy = NA_real_, error = sqrt(mean((pred - yt)^2)),
                       dp_gap = max(mp) - min(mp), eo_gap = NA_real_, one_class = FALSE), pred = pred)
}

# The downstream reference models: all d columns, and the trivial model.
fp_audit_reference <- function(xm, y, g, held) {
  full <- fp_audit_downstream_one(xm, y, g, held)
  tr <- !held
  trivial <- if (y$type == "binary") {
    maj <- as.integer(mean(y$y[tr]) > 0.5)
    acc <- mean(y$y[held] == maj)
    data.frame(n_test = sum(held), accuracy = acc, error = 1 - acc, dp_gap = 0, eo_gap = 0, one_class = TRUE)
  } else {
    data.frame(n_test = sum(held), accuracy = NA_real_, error = sqrt(mean((y$y[held] - mean(y$y[tr]))^2)),
               dp_gap = 0, eo_gap = NA_real_, one_class = FALSE)
  }
  cbind(model = c("all columns", if (y$type == "binary") "majority class" else "training mean"),
        rbind(full, trivial), stringsAsFactors = FALSE)
}

# The audit proper: moments (one pass), then every method at every k; the downstream fits on
# the training part's moments; then the intervals and the result.
fp_audit_run <- function(xm, g, outcome, k, methods, margs, center, scale., test_fraction, seed, progress,
                         call, moments = NULL, level = 0.9, replicates = 100L, blocks = 50L,
                         interval_k = NULL) {
  t_start <- proc.time()[["elapsed"]]
  methods <- fp_audit_methods(methods, margs)
  if (!is.null(progress)) fp_check_flag(progress, "progress")
  # checked whether or not an outcome asks for the held-out split that they set
  fp_check_number(test_fraction, "test_fraction", 0, 1, open_lower = TRUE, open_upper = TRUE)
  fp_check_seed(seed)
  show <- if (is.null(progress)) fp_progress_on() else progress
  y <- if (!is.null(outcome)) fp_audit_outcome(outcome, nrow(xm))
  d <- if (!is.null(xm)) ncol(xm) else length(moments$colnames)
  m_groups <- if (!is.null(xm)) nlevels(g) else length(moments$levels)
  ks <- fp_audit_k(k, d, m_groups)
  iv <- fp_audit_check_intervals(level, replicates, blocks)
  if (!is.null(iv) && !is.null(interval_k)) iv$k <- fp_audit_interval_k(interval_k, ks)
  mo <- fp_audit_moments(xm, g, y, moments, iv, seed, test_fraction)
  moments <- mo$moments
  nfit <- length(methods) * length(ks) * (1L + !is.null(y))
  if (show) {
    message(sprintf("fair_audit: %d method(s) x %d value(s) of k from the moments of %s rows (%d columns, %d groups)%s",
                    length(methods), length(ks), format(sum(moments$n), big.mark = ","), d, m_groups,
                    if (!is.null(y)) ", then held-out checks" else ""))
  }
  oldopt <- options(fairproj.progress = FALSE)  # no progress bars of the fits themselves
  on.exit(options(oldopt), add = TRUE)
  fr <- fp_audit_fits(mo, xm, g, y, ks, methods, margs, center, scale., show)
  out <- fp_audit_result(fr, mo, xm, g, y, ks, d, iv, methods, margs, center, scale., seed, test_fraction, show, call)
  out$time <- proc.time()[["elapsed"]] - t_start
  if (show) message(sprintf("fair_audit: %d fits in %.1f s", nfit, out$time))
  fp_audit_rewarn(fr$warns)
  class(out) <- "fairproj_audit"
  out
}

# The audit's moments from the rows in one pass (or the moments given): list(moments, m_train
# (the training rows' moments with an outcome), held (the held-out rows), blk (the bootstrap's
# block moments, NULL without intervals), interval_note (why there are none)).
fp_audit_moments <- function(xm, g, y, moments, iv, seed, test_fraction) {
  held <- NULL
  m_train <- NULL
  blk <- NULL
  interval_note <- if (is.null(iv)) "no intervals were asked for (`level = NULL` or `replicates = 0`)"
  if (!is.null(xm)) {
    d <- ncol(xm)
    cn <- fp_colnames(xm)
    if (!is.null(y)) {
      restore_seed <- fp_set_seed(seed)
      held <- tryCatch(fp_audit_split(g, test_fraction), finally = restore_seed())
    }
    B <- if (!is.null(iv)) fp_audit_n_blocks(iv$blocks, nlevels(g), d, 1L + !is.null(y)) else 0L
    if (!is.null(iv) && B == 0L) interval_note <- fp_audit_memory_note(nlevels(g), d, 1L + !is.null(y))
    if (B > 0L) {
      # the moments of every (group, training or held-out part, block) cell, which the bootstrap
      # resamples; a pass of their own, as their sum loses digits where the columns' offsets
      # dwarf their spread, so the audit's own numbers come from the pass below
      parts <- 1L + !is.null(y)
      bl <- fp_block_of_row(seq_len(nrow(xm)), B)
      pt <- if (is.null(y)) 1L else 1L + held
      gi <- factor((as.integer(g) - 1L) * parts * B + (pt - 1L) * B + bl, levels = seq_len(nlevels(g) * parts * B))
      blk <- fp_audit_merge_cells(fp_moments_ranged(xm, gi, cn, "x"), levels(g), parts, B)$blocks
    }
    if (!is.null(y)) {
      # one pass: moments of each group's training and held-out rows, then their sum
      gi <- factor(2L * (as.integer(g) - 1L) + 1L + held, levels = seq_len(2L * nlevels(g)))
      mm <- fp_moments_ranged(xm, gi, cn, "x")
      odd <- seq(1L, 2L * nlevels(g), by = 2L)
      m_train <- fp_moments_levels(mm, odd, levels(g))
      moments <- m_train + fp_moments_levels(mm, odd + 1L, levels(g))
      moments$exponent <- mm$exponent  # the pieces share the columns' powers of two
      if (!is.null(attr(g, "cells"))) moments$cells <- attr(g, "cells")
    } else {
      moments <- fp_moments_ranged(xm, g, cn, "x")
    }
  } else if (!is.null(iv)) {
    blk <- fp_moments_blocks(moments)
    if (is.null(blk)) {
      interval_note <- paste("the group moments carry no block moments; compute them with",
                             "group_moments(x, group, blocks = 50) (or give the rows) to get intervals")
    }
  }
  list(moments = moments, m_train = m_train, held = held, blk = blk, interval_note = interval_note)
}

# Every method at every k from the moments `mo` (fp_audit_moments()), and with an outcome its
# refit on the training rows and held-out checks: list(tab, gtab, fits, down, preds (held-out
# predictions of each downstream fit, for the intervals), warns).
fp_audit_fits <- function(mo, xm, g, y, ks, methods, margs, center, scale., show) {
  moments <- mo$moments
  C <- fp_prepare(moments, center, scale.)$C
  pb <- fp_progress_bar(length(methods) * length(ks) * (1L + !is.null(y)), "fair_audit: fits", show = show)
  step <- 0L
  warns <- list()
  fits <- stats::setNames(vector("list", length(methods)), methods)
  tab <- list()
  gtab <- list()
  down <- list()
  preds <- list()
  na_groups <- data.frame(group = moments$levels, n = as.numeric(moments$n), error = NA_real_, best = NA_real_,
                          loss = NA_real_, var_explained = NA_real_, stringsAsFactors = FALSE)
  for (meth in methods) {
    fits[[meth]] <- list()
    errs <- list()
    for (kk in ks) {
      r <- fp_audit_fit(moments, kk, meth, margs[[meth]], center, scale.)
      warns <- c(warns, r$warnings)
      f <- r$fit
      if (is.null(f)) errs[[length(errs) + 1L]] <- r$error
      fits[[meth]][as.character(kk)] <- list(f)
      gs <- if (is.null(f)) na_groups else f$group_stats
      gtab[[length(gtab) + 1L]] <- data.frame(method = meth, k = kk, gs[c("group", "n", "error", "best", "loss",
                                                                          "var_explained")],
                                              stringsAsFactors = FALSE)
      tab[[length(tab) + 1L]] <- fp_audit_row(r, meth, kk, C)
      step <- step + 1L
      pb$update(step)
      if (!is.null(y)) {
        rt <- if (!is.null(f)) fp_audit_fit(mo$m_train, kk, meth, margs[[meth]], center, scale.)
        warns <- c(warns, rt$warnings)
        dn <- if (!is.null(rt$fit)) fp_audit_downstream_one(fp_scores(rt$fit, xm), y, g, mo$held) else
          data.frame(n_test = sum(mo$held), accuracy = NA_real_, error = NA_real_, dp_gap = NA_real_,
                     eo_gap = NA_real_, one_class = NA)
        preds[length(down) + 1L] <- list(attr(dn, "pred"))
        down[[length(down) + 1L]] <- cbind(data.frame(method = meth, k = kk, stringsAsFactors = FALSE), dn)
        step <- step + 1L
        pb$update(step)
      }
    }
    # a method that fails at every k has a wrong argument, unless every k is beyond what it can
    # reach (mean matching at k = d, or with as many groups as columns): those rows say "not fitted"
    if (length(errs) == length(ks) && !all(vapply(errs, inherits, NA, "fairproj_infeasible_k"))) stop(errs[[1L]])
  }
  pb$done()
  list(tab = tab, gtab = gtab, fits = fits, down = down, preds = preds, warns = warns)
}

# The audit's result from its fits `fr` (fp_audit_fits()): the tables with the price and the
# intervals, the groups, the downstream checks and their intervals.
fp_audit_result <- function(fr, mo, xm, g, y, ks, d, iv, methods, margs, center, scale., seed, test_fraction,
                            show, call) {
  moments <- mo$moments
  blk <- mo$blk
  held <- mo$held
  tab <- do.call(rbind, fr$tab)
  std <- tab[tab$method == "standard", ]
  tab$price <- std$var_kept[match(tab$k, std$k)] - tab$var_kept
  gtab <- do.call(rbind, fr$gtab)
  rownames(gtab) <- NULL
  kf <- std$k[std$var_kept >= 0.8]
  if (!is.null(blk)) {
    restore_seed <- fp_set_seed(seed)
    if (is.null(iv$k)) iv$k <- if (length(kf)) min(kf) else max(ks)  # k_focus
    ivr <- tryCatch(fp_audit_intervals(moments, blk, methods, iv$k, margs, center, scale., iv$level, iv$replicates,
                                       tab, gtab, show = show),
                    finally = restore_seed())
    tab <- ivr$table
    gtab <- ivr$groups_table
  }
  out <- list(table = tab, groups_table = gtab, downstream = NULL, downstream_reference = NULL,
              downstream_note = NULL,
              groups = data.frame(group = moments$levels, n = as.numeric(moments$n),
                                  share = as.numeric(moments$n) / sum(moments$n),
                                  small = as.numeric(moments$n) < 5 * d, stringsAsFactors = FALSE),
              k = ks, k_focus = if (length(kf)) min(kf) else max(ks), methods = methods,
              n = sum(moments$n), d = d, colnames = moments$colnames, centered = !isFALSE(center),
              scaled = !isFALSE(scale.), outcome = NULL, n_dropped = 0L, fits = fr$fits, call = call)
  out$intervals <- if (!is.null(blk)) {
    list(level = iv$level, replicates = iv$replicates, k = iv$k, method = "bias-corrected percentile",
         blocks = vapply(blk, function(b) length(b$n), numeric(1)), note = NULL)
  } else {
    list(level = NULL, replicates = 0L, k = integer(0), method = NULL, blocks = NULL, note = mo$interval_note)
  }
  if (!is.null(y)) {
    out$downstream <- do.call(rbind, fr$down)
    if (!is.null(iv)) {
      restore_seed <- fp_set_seed(seed)
      out$downstream <- tryCatch(fp_downstream_intervals(out$downstream, fr$preds, y, g, held, iv$level, iv$replicates),
                                 finally = restore_seed())
    }
    out$downstream_reference <- fp_audit_reference(xm, y, g, held)
    out$outcome <- c(list(name = NULL, type = y$type, n_train = sum(!held), n_test = sum(held),
                          n_test_groups = stats::setNames(as.numeric(table(g[held])), levels(g)),
                          test_fraction = test_fraction, test_rows = which(held)),
                     if (y$type == "binary") list(positive = y$positive, positive_rate = mean(y$y)) else
                       list(mean = mean(y$y)))
  } else {
    out$downstream_note <- if (is.null(xm)) {
      "the audit was computed from group moments, without the data rows, so no model could be trained on reduced rows"
    } else {
      "no outcome was given"
    }
  }
  out
}

# The fits' warnings, once per kind (messages equal up to their numbers), with their classes
# and the number of fits that gave them.
fp_audit_rewarn <- function(warns) {
  if (!length(warns)) return(invisible())
  msg <- vapply(warns, conditionMessage, character(1))
  kind <- gsub("[-+]?[0-9][0-9.eE+-]*", "#", msg)
  for (w in unique(kind)) {
    i <- which(kind == w)
    cond <- warns[[i[1L]]]
    cl <- setdiff(class(cond), c("warning", "condition", "simpleWarning"))
    warning(warningCondition(sprintf("fair_audit: %s%s", msg[i[1L]],
                                     if (length(i) > 1L) sprintf(" [%d fits, first shown]", length(i)) else ""),
                             class = unique(c(cl, "fairproj_warning"))))
  }
  invisible()
}

# ---------------------------------------------------------------------------------------------
# Methods: print, summary, tidy, plot (the plot types are in R/plot-data.R).

# Numbers and percentages for printing, each to 3 significant digits on its own; values below
# `zero` print as 0 (differences at the solvers' precision).
fp_num <- function(v, digits = 3L, zero = 0) {
  vapply(v, function(z) if (is.na(z)) NA_character_ else if (abs(z) <= zero) "0" else format(signif(z, digits)),
         character(1), USE.NAMES = FALSE)
}
fp_pct <- function(v, digits = 3L) ifelse(is.na(v), NA_character_, paste0(fp_num(100 * v, digits, 1e-9), "%"))

# The method x k table at one k, formatted for print().
fp_audit_at <- function(x, k) {
  t <- x$table[x$table$k == k, , drop = FALSE]
  tiny <- 1e-8 * max(abs(t$max_loss), na.rm = TRUE)
  out <- data.frame(method = t$method, max_loss = fp_num(t$max_loss), loss_gap = fp_num(t$loss_gap, zero = tiny),
                    worst_group = t$worst_group, var_kept = fp_pct(t$var_kept), price = fp_pct(t$price),
                    state = t$state, stringsAsFactors = FALSE)
  if (!k %in% x$intervals$k) return(out)
  # the numbers a reader decides on, with their intervals ("?" where the audit calls them
  # unreliable)
  flag <- ifelse(t$reliable %in% FALSE, "?", "")
  ci <- function(q, f) {
    lo <- t[[paste0(q, "_low")]]
    hi <- t[[paste0(q, "_high")]]
    ifelse(is.na(lo), "", sprintf(" [%s, %s]%s", f(lo), f(hi), flag))
  }
  out$max_loss <- paste0(out$max_loss, ci("max_loss", fp_num))
  out$loss_ratio <- paste0(fp_num(t$loss_ratio), ci("loss_ratio", fp_num))
  out$price <- paste0(out$price, ifelse(t$method == "standard", "", ci("price", fp_pct)))
  out[c("method", "max_loss", "loss_ratio", "loss_gap", "worst_group", "var_kept", "price", "state")]
}

# A sentence printed as lines of the console's width.
fp_cat_wrapped <- function(text) cat(strwrap(text, width = getOption("width")), sep = "\n")

# One line on the intervals of an audit: what they are, or why there are none.
fp_audit_interval_line <- function(x, k) {
  iv <- x$intervals
  if (is.null(iv)) return(invisible())
  if (!length(iv$k)) {
    cat(sprintf("No intervals: %s.\n", iv$note))
  } else if (k %in% iv$k) {
    fp_cat_wrapped(sprintf("[ ]: %s%% bootstrap intervals (%d replicates of %s blocks per group)%s", format(100 * iv$level),
                           iv$replicates, fp_name_list(unique(iv$blocks)),
                           if (any(x$table$reliable[x$table$k == k] %in% FALSE))
                             paste("; ? marks an interval the data cannot support (a group under 50 rows or 10 blocks, k at its",
                                   "rank, or a method matching group means whose difference the data do not fix; see ?fair_audit)")
                           else ""))
    t <- x$table[x$table$k == k, , drop = FALSE]
    zero <- unlist(lapply(c("max_loss", "price"), function(q) {
      z <- fp_audit_starts_at_zero(q, t[[paste0(q, "_low")]], t[[paste0(q, "_high")]]) &
        (q != "price" | t$method != "standard")
      if (any(z)) sprintf("the %s of %s", c(max_loss = "largest loss", price = "price")[[q]], t$method[z])
    }))
    if (length(zero)) fp_cat_wrapped(sprintf("Intervals from 0 (0 not ruled out at this level): %s.", paste(zero, collapse = ", ")))
  } else {
    cat(sprintf("Intervals at k = %s only (`interval_k`).\n", fp_name_list(iv$k)))
  }
}

fp_audit_check_k <- function(x, k) {
  if (is.null(k)) return(x$k_focus)
  if (!is.numeric(k) || length(k) != 1L || !k %in% x$k) {
    fp_abort(sprintf("must be one of the audited dimensions (%s)", fp_name_list(x$k)), "k")
  }
  as.integer(k)
}

#' @export
print.fairproj_audit <- function(x, ...) {
  cat(sprintf("Fairness audit of PCA: %s rows x %d columns%s, %d groups\n", format(x$n, big.mark = ","), x$d,
              if (x$scaled) " (scaled)" else "", nrow(x$groups)))
  cat(sprintf("Methods: %s; k = %s\n", paste(x$methods, collapse = ", "), fp_audit_k_label(x$k)))
  gr <- x$groups
  # the first ten groups (tidy(x, "groups") has them all)
  cat(sprintf("Groups: %s\n", fp_name_list(sprintf("%s %s (%s)", gr$group, format(gr$n, big.mark = ",", trim = TRUE),
                                                   fp_pct(gr$share, 2)))))
  if (any(gr$small)) {
    cat(sprintf("Small group(s) (fewer than 5 rows per column): %s; their losses are noisy\n",
                fp_name_list(gr$group[gr$small])))
  }
  cat(sprintf("\nAt k = %d (%s):\n", x$k_focus, fp_audit_focus_reason(x)))
  print(fp_audit_at(x, x$k_focus), row.names = FALSE)
  fp_audit_interval_line(x, x$k_focus)
  if (is.null(x$downstream)) {
    cat(sprintf("\nDownstream checks: not run (%s).\n", x$downstream_note))
  } else {
    dn <- x$downstream[x$downstream$k == x$k_focus, , drop = FALSE]
    cat(sprintf("\nDownstream (%s on the k scores, %s held-out rows%s):\n", fp_audit_learner(x),
                format(dn$n_test[1L], big.mark = ","),
                if (identical(x$outcome$type, "binary")) "; gaps in percentage points" else ""))
    print(fp_audit_downstream_view(x, dn), row.names = FALSE)
    fp_audit_downstream_notes(x, dn)
    n1 <- sum(x$downstream$one_class, na.rm = TRUE)
    if (n1) cat(sprintf("%d of %d fits' models predict one class for every held-out row (gaps 0 by construction).\n",
                        n1, nrow(x$downstream)))
  }
  cat("\nsummary() for every k; tidy() for the tables; plot() for the curves.\n")
  invisible(x)
}

# "1 to 8" for a run of whole numbers, else a list.
fp_audit_k_label <- function(k) {
  if (length(k) > 2L && all(diff(k) == 1L)) sprintf("%d to %d", k[1L], k[length(k)]) else fp_name_list(k)
}

fp_audit_focus_reason <- function(x) {
  std <- x$table[x$table$method == "standard", ]
  if (any(std$var_kept >= 0.8)) "the smallest audited k at which standard PCA keeps 80% of the variance"
  else "the largest audited k; standard PCA keeps less than 80% of the variance there"
}

fp_audit_downstream_view <- function(x, dn) {
  ci <- !is.null(dn$dp_gap_low)
  # "value [low, high]", with "~0" where a gap's interval contains 0
  w <- function(est, q, f, gap = FALSE) {
    if (!ci) return(f(est))
    lo <- dn[[paste0(q, "_low")]]
    hi <- dn[[paste0(q, "_high")]]
    out <- ifelse(is.na(lo), f(est), sprintf("%s [%s, %s]", f(est), f(lo), f(hi)))
    if (gap) out <- paste0(out, ifelse(dn[[paste0(q, "_distinct")]] %in% FALSE, " ~0", ""))
    out
  }
  if (identical(x$outcome$type, "binary")) {
    pts <- function(v) fp_num(100 * v)
    data.frame(method = dn$method, accuracy = w(dn$accuracy, "accuracy", fp_pct), dp_gap = w(dn$dp_gap, "dp_gap", pts, TRUE),
               eo_gap = w(dn$eo_gap, "eo_gap", pts, TRUE), one_class = dn$one_class, stringsAsFactors = FALSE)
  } else {
    s3 <- function(v) format(signif(v, 3))
    data.frame(method = dn$method, rmse = w(dn$error, "error", s3), mean_prediction_gap = w(dn$dp_gap, "dp_gap", s3, TRUE),
               stringsAsFactors = FALSE)
  }
}

# The lines under the downstream table: held-out rows by group, and what the intervals mean.
fp_audit_downstream_notes <- function(x, dn) {
  ng <- x$outcome$n_test_groups
  if (!is.null(ng)) cat(sprintf("Held-out rows by group: %s\n", fp_name_list(sprintf("%s %d", names(ng), as.integer(ng)))))
  if (!is.null(dn$dp_gap_low)) {
    cat(sprintf(paste("[ ]: %s%% intervals from %d resamples of the held-out rows (gaps: the signed difference",
                      "between the two groups that give the gap); ~0: not distinguishable from 0 at that level\n"),
                format(100 * x$intervals$level), x$intervals$replicates))
  }
}

#' Summarise, tidy and plot a fairness audit
#'
#' `summary()` gives, at one k, each method's per-group table and its fairness summary, and,
#' for every audited k, the largest marginal loss and the price of fairness of each method;
#' `tidy()` returns one of the audit's tables; `plot()` (base graphics) and `autoplot()`
#' (ggplot2) draw, from the same data ([fair_audit()] explains the quantities):
#' * `type = "price"` (the default): the price of fairness of each fair method against k, in
#'   percent of the total variance (standard PCA's is 0);
#' * `type = "losses"`, `"errors"`: each group's marginal loss (or reconstruction error)
#'   against k, one line per group (colour) and method (line type), in the squared units of the
#'   data (of the scaled columns when scaled);
#' * `type = "downstream"`: the demographic-parity and equal-opportunity gaps of the held-out
#'   predictions against k (percentage points; for a numeric outcome, the gap between the
#'   groups' mean predictions, in the outcome's units), one line per method;
#' * `type = "accuracy"`: held-out accuracy (percent; for a numeric outcome, the root mean
#'   squared error) against k, with the model on all columns and the trivial model as
#'   reference lines.
#' Methods are coloured from the end of the package palette and groups from its start, so that
#' a method never looks like a group.
#'
#' @param object,x A `fairproj_audit` object.
#' @param k For `summary()`: the dimension to detail (one of the audited ones); default the
#'   audit's `k_focus`.
#' @param matrix For `tidy()`: `"table"` (method x k), `"groups"` (method x k x group),
#'   `"downstream"` (method x k), `"intervals"` (one row per method, k, group and quantity with
#'   intervals: `method`, `k`, `group` (`NA` for the quantities of a method and k), `term`,
#'   `estimate`, `conf.low`, `conf.high`, `reliable`; broom's names) or `"plot"` (the data of a
#'   plot; give `type`).
#' @param type The plot type (see above).
#' @param ... For `plot()` and `autoplot()`: `methods`, the methods to draw (default all;
#'   standard PCA is always drawn in `"losses"` and `"errors"`, dashed, for comparison). For
#'   `tidy(matrix = "plot")`: `type` and `methods`. Otherwise unused.
#' @param main,xlab,ylab Replace the title and axis labels.
#' @return `summary()`: an object of class `summary.fairproj_audit`. `tidy()`: a tibble (or
#'   data.frame). `plot()`: invisibly, the data drawn. `autoplot()`: a `ggplot` object.
#' @seealso [fair_audit()]
#' @family plots
#' @examplesIf requireNamespace("MASS", quietly = TRUE)
#' bw <- within(MASS::birthwt, race <- factor(race, 1:3, c("white", "black", "other")))
#' a <- fair_audit(bw[c("age", "lwt", "ptl", "ftv", "bwt")], bw$race, k = 1:3)
#' summary(a)
#' tidy(a)
#' plot(a)
#' plot(a, "losses", methods = "minmax")
#' @export
summary.fairproj_audit <- function(object, k = NULL, ...) {
  k <- fp_audit_check_k(object, k)
  gt <- object$groups_table[object$groups_table$k == k, , drop = FALSE]
  wide <- function(col) {
    t <- object$table
    w <- stats::reshape(t[c("method", "k", col)], idvar = "method", timevar = "k", direction = "wide")
    names(w) <- c("method", paste0("k=", sort(unique(t$k))))
    rownames(w) <- NULL
    w
  }
  structure(list(k = k, reason = if (k == object$k_focus) fp_audit_focus_reason(object) else "chosen",
                 groups = object$groups, at_k = fp_audit_at(object, k), groups_at_k = gt,
                 interval_line = utils::capture.output(fp_audit_interval_line(object, k)),
                 max_loss = wide("max_loss"), price = wide("price"),
                 downstream = if (!is.null(object$downstream)) object$downstream[object$downstream$k == k, ],
                 downstream_reference = object$downstream_reference, downstream_note = object$downstream_note,
                 outcome = object$outcome, call = object$call),
            class = "summary.fairproj_audit")
}

#' @export
print.summary.fairproj_audit <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("Call:\n")
  print(x$call)
  cat("\nGroups:\n")
  print(x$groups, digits = digits, row.names = FALSE)
  cat(sprintf("\nAt k = %d (%s), per group:\n", x$k, x$reason))
  cols <- c("method", "group", "n", "error", "best", "loss", "var_explained")
  if (!all(is.na(x$groups_at_k$loss_low))) cols <- c(cols, "loss_low", "loss_high", "reliable")
  print(x$groups_at_k[intersect(cols, names(x$groups_at_k))], digits = digits, row.names = FALSE)
  cat("\nFairness summary at this k:\n")
  print(x$at_k, row.names = FALSE)
  if (length(x$interval_line)) cat(x$interval_line, sep = "\n")
  cat("\nLargest marginal loss by k:\n")
  print(x$max_loss, digits = digits, row.names = FALSE)
  cat("\nPrice of fairness by k (fraction of the total variance lost against standard PCA):\n")
  print(x$price, digits = digits, row.names = FALSE)
  if (is.null(x$downstream)) {
    cat(sprintf("\nDownstream checks: not run (%s).\n", x$downstream_note))
  } else {
    cat(sprintf("\nDownstream at this k (held-out rows; %s outcome):\n", x$outcome$type))
    print(x$downstream, digits = digits, row.names = FALSE)
    cat("\nReference models:\n")
    print(x$downstream_reference, digits = digits, row.names = FALSE)
  }
  invisible(x)
}

#' @rdname summary.fairproj_audit
#' @export
tidy.fairproj_audit <- function(x, matrix = "table", ...) {
  matrix <- fp_match_arg(matrix, c("table", "groups", "downstream", "intervals", "plot"), "matrix")
  if (matrix == "plot") return(fp_plot_tidy(x, ...))
  if (matrix == "intervals") {
    if (!length(x$intervals$k)) fp_abort(sprintf("has no intervals: %s", x$intervals$note), "x")
    return(fp_tibble(fp_audit_intervals_long(x)))
  }
  if (matrix == "downstream") {
    if (is.null(x$downstream)) fp_abort(sprintf("has no downstream checks: %s", x$downstream_note), "x")
    return(fp_tibble(x$downstream))
  }
  fp_tibble(if (matrix == "groups") x$groups_table else x$table)
}

#' @rdname summary.fairproj_audit
#' @return `glance()`: one row with `nobs`, `ncol`, `groups`, `smallest_group` (its rows),
#'   `methods`, `k_focus`, `var_kept_standard` (at `k_focus`), `level` and `replicates` (`NA`
#'   and 0 without intervals), `unreliable` (the rows of the table at `k_focus` whose intervals
#'   the audit flags), `downstream` (whether the downstream checks ran) and `seconds`.
#' @export
glance.fairproj_audit <- function(x, ...) {
  std <- x$table[x$table$method == "standard" & x$table$k == x$k_focus, ]
  fp_tibble(data.frame(nobs = x$n, ncol = x$d, groups = nrow(x$groups), smallest_group = min(x$groups$n),
                       methods = length(x$methods), k_focus = x$k_focus, var_kept_standard = std$var_kept,
                       level = if (length(x$intervals$k)) x$intervals$level else NA_real_,
                       replicates = if (length(x$intervals$k)) x$intervals$replicates else 0L,
                       unreliable = if (length(x$intervals$k)) sum(x$table$reliable %in% FALSE &
                                                                       x$table$k == x$k_focus) else NA_integer_,
                       downstream = !is.null(x$downstream), seconds = x$time))
}

#' @rdname summary.fairproj_audit
#' @export
plot.fairproj_audit <- function(x, type = NULL, ..., main = NULL, xlab = NULL, ylab = NULL) {
  fp_plot_base(x, type, ..., main = main, xlab = xlab, ylab = ylab)
}

#' @rdname summary.fairproj_audit
#' @method autoplot fairproj_audit
#' @exportS3Method ggplot2::autoplot fairproj_audit
autoplot.fairproj_audit <- function(object, type = NULL, ..., main = NULL, xlab = NULL, ylab = NULL) {
  fp_plot_gg(object, type, ..., main = main, xlab = xlab, ylab = ylab)
}
