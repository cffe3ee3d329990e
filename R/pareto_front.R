# pareto_front(): the front door that traces the Pareto front with fair_pca(method = "pareto")
# from several starts; the solver is in R/pca-pareto.R, the methods in R/methods-pareto.R.

#' Trace the Pareto front of fair PCA
#'
#' Runs Pareto fair PCA ([fit_pca_pareto]) from standard PCA and from `restarts` random starts
#' (R's RNG, so [set.seed()] reproduces); different starts end at different Pareto-stationary
#' subspaces, which together sketch the trade-off between the total reconstruction loss and
#' the disparity between the groups' excess losses (the paper's Remark 2). The fit from
#' standard PCA balances the groups first (the default `balance = TRUE`: the fair end of the
#' front); the fits from random starts descend all objectives at once (`balance = FALSE`), so
#' no objective ends above its value at the start. Give `balance` to use one setting for all.
#' Standard PCA itself (the other end of the front) is in `standard`. The group moments are
#' computed once.
#'
#' @param x A numeric matrix or data.frame, a [group_moments()] object, or a formula (with
#'   `data`).
#' @param group Group labels, one per row, or a string naming a column of a data.frame `x`
#'   (not used when `x` is a `group_moments` object).
#' @param k Target dimension.
#' @param restarts Number of random starts (besides the start at standard PCA).
#' @param ... Arguments of [fit_pca_pareto] (except `start`, `restarts` and `init`), and
#'   `center`, `scale.` as in [fair_pca()] (without `scale.`, one `fairproj_units_warning` when
#'   a column's variance dominates, see "Columns in different units" there).
#' @return An object of class `fairproj_pareto_front`: a list with `fits` (the `fair_pca_pareto`
#'   fits, the first from standard PCA), `table` (one row per fit: `start`, `total` (total loss),
#'   `disparity` (largest `|E_g - E_h|`), `max_excess`, the objectives, `dominated` (whether
#'   another fit of the set, or standard PCA (the first fit's start), dominates it on the
#'   objective vector, by more than 1e-9 of each objective's scale) and `converged`) and
#'   `standard` (total loss and disparity of standard PCA). A warning of class
#'   `fairproj_convergence_warning` says how many fits did not converge, and `print()` how
#'   many did. A progress bar is shown in interactive sessions
#'   (`options(fairproj.progress = FALSE)` turns it off).
#' @seealso [fair_pca()], [fit_pca_pareto].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' set.seed(1)
#' pf <- pareto_front(pbc2[1:6], pbc2$sex, k = 2, restarts = 3, scale. = TRUE)
#' pf
#' plot(pf)
#' @export
pareto_front <- function(x, ...) {
  if (!nargs()) fp_check_given("x")
  if (missing(x) && "formula" %in% ...names()) {  # see fp_formula_first()
    call <- fp_formula_first(sys.call(), ...elt(match("formula", ...names())))
    if (!is.null(call)) return(eval(call, parent.frame()))
  }
  UseMethod("pareto_front")
}

#' @rdname pareto_front
#' @export
pareto_front.default <- function(x, group, k, restarts = 10L, ...) {
  if (!missing(x)) fp_check_not_dataset(x, "x")
  fp_check_given(if (inherits(x, "group_moments")) "k" else c("group", "k"))  # moments carry their groups
  restarts <- fp_check_count(restarts, 0L, 1e4, "restarts")
  nm <- fp_pareto_front_dots(...names(), ...length())
  args <- list(...)
  m <- if (inherits(x, "group_moments")) fp_door_moments(x, if (!missing(group)) group, min_levels = 2L) else {
    fp_door_rows(x, group, substitute(group), moments = TRUE)$m
  }
  fp_warn_small_groups(m$n, m$levels)  # once, not once per fit
  if (!"scale." %in% nm) {
    # once per call, not once per fit
    lv <- tryCatch(fp_log2_colvar(m), error = function(e) NULL)  # malformed moments: the fit says so
    if (!is.null(lv)) fp_warn_units(lv, m$colnames)
    args$scale. <- FALSE
  }
  pb <- fp_progress_bar(restarts + 1, "Pareto fair PCA fits")
  one <- function(start, i, balance = NULL) {
    a <- args
    if (!is.null(balance) && is.null(a$balance)) a$balance <- balance
    # one summary warning below instead of one per fit, and the small groups' above
    f <- withCallingHandlers(
      do.call(fair_pca, c(list(m, k = k, method = "pareto", start = start, keep_moments = FALSE), a)),
      fairproj_convergence_warning = function(w) invokeRestart("muffleWarning"),
      fairproj_small_group_warning = function(w) invokeRestart("muffleWarning"))
    pb$update(i)
    f
  }
  # from standard PCA the default balances first (the fair end of the front); from random starts
  # every objective is descended at once (balance = FALSE), so the fits end at different
  # Pareto-stationary points (the paper's Remark 2), unless `balance` is given
  fits <- c(list(one("pca", 1)), lapply(seq_len(restarts), function(i) one("random", i + 1, FALSE)))
  spec_names <- names(fits[[1]]$objectives)
  F <- do.call(rbind, lapply(fits, function(f) f$objectives))
  start <- unlist(fits[[1]]$history[1L, c("objective", spec_names[-1L])])  # standard PCA
  dominated <- fp_pareto_dominated(F, ref = start, also = if (identical(fits[[1]]$settings$start, "pca")) start)
  # at k = rank the totals are zero up to rounding: reported as 0 (fp_pareto_reported())
  tab <- data.frame(start = c("pca", rep("random", restarts)), total = fp_pareto_reported(F[, 1L], fits[[1]]),
                    disparity = vapply(fits, function(f) diff(range(f$excess)), numeric(1)),
                    max_excess = fp_pareto_reported(vapply(fits, function(f) max(f$excess), numeric(1)), fits[[1]]),
                    stringsAsFactors = FALSE)
  tab <- cbind(tab, as.data.frame(F[, -1L, drop = FALSE], optional = TRUE))
  names(tab)[seq_len(ncol(F) - 1L) + 4L] <- spec_names[-1L]
  tab$dominated <- dominated
  tab$converged <- vapply(fits, function(f) isTRUE(f$converged), logical(1))
  if (!all(tab$converged)) {
    fp_warn_convergence(sprintf("%d of %d Pareto fits stopped before converging (at the iteration cap or a stall); raise `iterations` or see $table$converged",
                                sum(!tab$converged), nrow(tab)))
  }
  gs <- fits[[1]]$group_stats_standard
  std_total <- fits[[1]]$history$objective[1L]
  std <- c(total = if (identical(fits[[1]]$settings$start, "pca")) fp_pareto_reported(std_total, fits[[1]]) else NA_real_,
           disparity = diff(range(gs$loss)))
  structure(list(fits = fits, table = tab, standard = std, k = k), class = "fairproj_pareto_front")
}

# The names of pareto_front()'s `...` (`n` arguments): named arguments of fit_pca_pareto() other
# than those pareto_front() sets (`start`, `restarts`, `init`; `method`), or fair_pca()'s
# `center` and `scale.`. The error lists exactly the arguments it accepts.
fp_pareto_front_dots <- function(nm, n) {
  if (n > 0L && (is.null(nm) || any(is.na(nm) | nm == ""))) fp_abort("arguments must be named", "...")
  sets <- c("start", "restarts", "init", "method")
  bad <- intersect(nm, sets)
  if (length(bad)) fp_abort(sprintf("must not contain %s (pareto_front sets them)", paste(bad, collapse = ", ")), "...")
  known <- c(setdiff(names(formals(fp_solver("pca", "pareto"))), c("prep", "k", "data", "...", sets)), "center", "scale.")
  bad <- setdiff(nm, known)
  if (length(bad)) {
    fp_abort(sprintf("has argument(s) that pareto_front() does not take: %s (it takes: %s)", paste(bad, collapse = ", "),
                     paste(known, collapse = ", ")), "...")
  }
  nm
}

#' @rdname pareto_front
#' @param formula,data,subset,na.action The formula interface, as in [fair_pca()]: a one-sided
#'   formula on the columns of the data.frame `data`, with `group` a column of `data`.
#' @export
pareto_front.formula <- function(formula, data = NULL, group, k, restarts = 10L, ..., subset, na.action) {
  fd <- fp_formula_door(formula, data, substitute(group), missing(group), if (!missing(subset)) substitute(subset),
                        if (!missing(na.action)) na.action, parent.frame(), min_cols = 2L)
  res <- pareto_front.default(fd$x, fd$group, k, restarts = restarts, ...)
  res$fits <- lapply(res$fits, function(f) fp_formula_attach(f, fd, f$call))
  res
}
