#' Cross-validated tuning of a fair PCA method
#'
#' The cross-validation protocol of Vu et al. (2022): the rows are split into `folds` folds;
#' for every fold and every row of `grid`, the method is fitted on the other folds (centred and
#' scaled with their own statistics) and evaluated on the held-out fold with [group_errors()];
#' the parameters with the smallest mean criterion over the folds (the first on ties) are
#' chosen and the model is refitted on all rows. Works with any method of [fair_pca()]
#' (for instance `alpha` and `lambda` of `method = "robust"`, or the learning rate of a
#' multiplicative-weights method).
#'
#' Folds are stratified by group (each group's rows are shuffled and dealt out in turn), so that
#' every fold holds every group; Vu et al.'s code uses unstratified shuffled folds.
#' Validation errors are computed by [group_errors()] with its default group-wise centring (each
#' held-out group centred at its own mean); `ARE` is about the fitted model's centre.
#'
#' Each fold's group moments are computed once and reused for all grid points when the method
#' works from moments (methods that need the rows get them). Warnings raised by the fits are
#' collected and re-issued at the end, once per kind (messages that differ only in their numbers
#' count as one, with the number of fits that raised it). A progress bar is shown in interactive sessions (not
#' under knitr; `options(fairproj.progress = FALSE)` turns it off).
#'
#' @param x A numeric matrix or data.frame (rows are observations), or a formula (with `data`).
#' @param group Group labels, one per row, or a string naming a column of a data.frame `x`.
#' @param k Target dimension.
#' @param method A [fair_pca()] method name; default `"robust"`, the method whose paper
#'   defines this protocol. For `"robust"`, every fit returns the best iterate of its runs
#'   (`iterate = "best"`) unless `...` gives `iterate`: its constant step oscillates across the
#'   kinks of the objective, more on the folds' smaller training parts (on the README's `pbc2`,
#'   k = 3, the last iterate of a few of the 54 fold fits ended 1-2% above the best one visited,
#'   with a warning), and the held-out criteria would compare that oscillation. `iterate =
#'   "last"` gives the paper's output.
#' @param grid The candidate parameters: a data.frame (one candidate per row, columns named as
#'   the method's arguments) or a named list of vectors, expanded to all combinations. By
#'   default the paper's grid for `"robust"`: `alpha` in 0.05, 0.1, 0.15 and `lambda` in 0,
#'   0.5, ..., 2.5 (18 candidates); other methods need a grid.
#' @param folds Number of cross-validation folds (at least 2; stratified by group), or the fold
#'   of each row (a vector as long as the rows, e.g. the folds another program drew, to repeat
#'   its cross-validation exactly; every fold must hold every group on both sides).
#' @param criterion What to minimise on the held-out folds: `"ARE+ABDiff"` (the paper's),
#'   `"ABDiff"`, `"ARE"`, `"max_loss"`, or a function taking a [group_errors()] result and
#'   returning one number.
#' @param seed Optional integer: the folds and any random restarts are drawn after
#'   `set.seed(seed)` and the global random-number state is restored afterwards.
#' @param ... Further arguments for the method, the same for every candidate; those with one value
#'   per row (`y` and `attributes` of method `"mean"`) are taken on each fold's training rows.
#' @param center,scale. Centring and scaling, applied with each training part's own statistics;
#'   the defaults are those of [fair_pca()] (centre, do not scale). Vu et al.'s protocol
#'   standardises: pass `scale. = TRUE` (a column that is constant in a training part is then
#'   left unscaled, as in the authors' code; as in [fair_pca()], a column is divided by its
#'   standard deviation, or with a `center` other than `TRUE` by its root mean square about
#'   that centre). When `scale.` is not given and one column's
#'   variance dominates, one `fairproj_units_warning` says so (see "Columns in different units"
#'   in [fair_pca()]).
#' @return An object of class `fairproj_tune` (with `print()`, [summary()][summary.fairproj_tune],
#'   `tidy()`, `plot()` and `autoplot()` methods): a list with `best` (a list of the chosen
#'   parameters), `table` (one row per candidate: the parameters, mean held-out `ARE`, `ABDiff`,
#'   `max_loss`, `criterion` and its standard error `se`), `cv` (the same per fold), `model` (the
#'   refitted [fair_pca()] object), `criterion`, `method` and `folds` (the fold of each row).
#' @references Vu, H., Tran, T., Yue, M.-C. and Nguyen, V. A. (2022). Distributionally robust
#'   fair principal components via geodesic descents. *ICLR 2022*.
#' @seealso [summary.fairproj_tune()] for its summary, tables and plots, [fit_pca_robust] for
#'   the robust method's parameters, [group_errors()] for ARE and ABDiff.
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' tn <- tune_fair_pca(pbc2[1:6], pbc2$sex, k = 2, method = "robust", scale. = TRUE,
#'                     grid = list(alpha = c(0.05, 0.15), lambda = c(0, 0.5)),
#'                     iterations = 50, restarts = 1, iterate = "best", seed = 1)
#' tn
#' tn$best
#' # the formula interface
#' tn2 <- tune_fair_pca(~ ., data = pbc2, group = sex, k = 2, method = "robust", scale. = TRUE,
#'                      grid = list(alpha = 0.1), iterations = 50, restarts = 1,
#'                      iterate = "best", seed = 1)
#' @export
tune_fair_pca <- function(x, ...) {
  if (!nargs()) fp_check_given("x")
  if (missing(x) && "formula" %in% ...names()) {  # see fp_formula_first()
    call <- fp_formula_first(sys.call(), ...elt(match("formula", ...names())))
    if (!is.null(call)) return(eval(call, parent.frame()))
  }
  UseMethod("tune_fair_pca")
}

#' @rdname tune_fair_pca
#' @export
tune_fair_pca.default <- function(x, group, k, method = "robust", grid = NULL, folds = 3, criterion = "ARE+ABDiff",
                                  seed = NULL, ..., center = TRUE, scale. = FALSE) {
  fp_needs_rows(x, "tune_fair_pca() (its cross-validation folds)")
  d <- fp_door_rows(x, group, substitute(group))
  xm <- d$xm
  g <- d$g
  if (missing(k)) fp_abort("is missing: give the target dimension", "k")
  k <- fp_check_count(k, 1L, ncol(xm), "k")
  method <- fp_check_method(method, "pca")
  fp_check_solver_args("pca", method, ...names(), ...length())
  fl <- fp_tune_check_folds(folds, g)
  center <- fp_check_center_scale(center, ncol(xm), "center")
  grid <- fp_tune_grid(grid, method, ...names())
  folds <- fl$folds
  crit_fun <- fp_tune_criterion(criterion)
  crit_name <- if (is.character(criterion)) attr(crit_fun, "name") else "custom"
  dots <- list(...)
  fp_tune_check_row_args(dots, nrow(xm))
  # the robust method's constant step oscillates across the kinks of its objective, more on the
  # folds' smaller training parts: every fit returns its best iterate unless told otherwise
  if (method == "robust" && is.null(dots[["iterate"]]) && !"iterate" %in% names(grid)) dots[["iterate"]] <- "best"
  restore_seed <- fp_set_seed(seed)
  on.exit(restore_seed(), add = TRUE)
  fold <- if (!is.null(fl$given)) fl$given else fp_tune_stratify(g, folds)
  ncand <- nrow(grid)
  show <- fp_progress_on()
  if (show) {
    message(sprintf("Tuning method '%s' (k = %d): %d candidate(s) x %d folds, then a refit", method, k,
                    ncand, folds))
  }
  pb <- fp_progress_bar(ncand * folds + 1, "Cross-validation fits")
  oldopt <- options(fairproj.progress = FALSE)
  on.exit(options(oldopt), add = TRUE)
  warns <- list()
  collect <- function(expr) {
    withCallingHandlers(expr, warning = function(w) {
      warns[[length(warns) + 1L]] <<- w
      invokeRestart("muffleWarning")
    })
  }
  use_moments <- TRUE
  fit_one <- function(xs, gs, mom, args, rows) {
    cl <- c(list(k = k, method = method), args, fp_tune_dots_rows(dots, rows),
            list(center = center, scale. = fp_tune_scale(mom, scale., center)))
    if (use_moments) {
      res <- tryCatch(collect(do.call(fair_pca, c(list(mom), cl, list(keep_moments = FALSE)))),
                      fairproj_needs_rows = function(e) NULL)
      if (!is.null(res)) return(res)
      use_moments <<- FALSE  # the method needs the rows
    }
    collect(do.call(fair_pca, c(list(xs, gs), cl, list(retx = FALSE, keep_moments = FALSE))))
  }
  cv <- fp_tune_cv(xm, g, fold, folds, grid, fit_one, function(ge) collect(crit_fun(ge)), pb)
  table <- fp_tune_table(cv, grid)
  best <- as.list(grid[which.min(table$criterion), , drop = FALSE])
  model <- fp_tune_refit(xm, g, k, method, best, dots, center, scale., missing(scale.), collect,
                         rows = list(x = substitute(x), group = substitute(group)))
  pb$update(ncand * folds + 1)
  cv <- cbind(grid[cv$candidate, , drop = FALSE], cv)
  rownames(cv) <- NULL
  fp_tune_rewarn(warns)
  res <- list(best = best, table = table, cv = cv, model = model, criterion = crit_name,
              method = method, folds = fold)
  class(res) <- "fairproj_tune"
  res
}

# The refit of the best candidate on all rows (its warnings collected by `collect`), with a call
# that shows the chosen arguments on the user's own data: `rows`, the expressions of `x` and
# `group` as given to tune_fair_pca(), so that update(tn$model, k = 3) refits those rows (with
# placeholders `x` and `group` it read whatever objects of those names the caller had).
# `warn_units`: scale. was not given, so the units warning is given once, from the refit's
# moments (the folds' fits were given `scale.`).
fp_tune_refit <- function(xm, g, k, method, best, dots, center, scale., warn_units, collect, rows) {
  model <- collect(do.call(fair_pca, c(list(xm, g, k = k, method = method), best, dots,
                                       list(center = center, scale. = fp_tune_scale_rows(xm, g, scale., center)))))
  if (warn_units && !is.null(model$moments)) fp_warn_units(fp_log2_colvar(model$moments), model$moments$colnames)
  model$call <- as.call(c(list(quote(fair_pca), x = rows$x, group = rows$group, k = k, method = method), best,
                          dots[vapply(dots, function(v) is.atomic(v) && length(v) <= 5L, logical(1))],
                          list(center = center, scale. = scale.)))
  model
}

# tune_fair_pca()'s `folds`, checked against the groups `g`: list(folds = the number of folds,
# given = the fold of each row when `folds` gives them (e.g. another program's folds), else NULL).
fp_tune_check_folds <- function(folds, g) {
  n <- length(g)
  if (length(folds) > 1L) {
    if (!is.atomic(folds) || !is.null(dim(folds)) && length(dim(folds)) > 1L && ncol(folds) != 1L) {
      fp_abort(sprintf("must be one number (how many folds) or a vector of the fold of each of the %d rows", n), "folds")
    }
    if (length(folds) != n || anyNA(folds) || (is.numeric(folds) && any(!is.finite(folds)))) {
      fp_abort(sprintf("must be one number (how many folds) or the fold of each of the %d rows, without NA", n), "folds")
    }
    given <- as.integer(factor(folds))
    if (max(given) < 2L) fp_abort("must give at least 2 distinct folds", "folds")
    for (f in seq_len(max(given))) {
      miss <- levels(g)[tabulate(g[given == f], nlevels(g)) == 0L | tabulate(g[given != f], nlevels(g)) == 0L]
      if (length(miss)) {
        fp_abort(sprintf("fold %d leaves group(s) %s out of its held-out or its training rows; every fold needs every group on both sides",
                         f, paste(shQuote(miss), collapse = ", ")), "folds")
      }
    }
    return(list(folds = max(given), given = given))
  }
  folds <- fp_check_count(folds, 2L, Inf, "folds", integer = FALSE)  # "a whole number >= 2", no bound
  sizes <- tabulate(g, nlevels(g))
  if (min(sizes) < 2L) {
    small <- which.min(sizes)
    fp_abort(sprintf("has a group ('%s') with %d row: cross-validation needs at least 2 rows in every group (one on each side of a fold); merge small groups or collect more rows",
                     levels(g)[small], sizes[small]), "group")
  }
  if (folds > min(sizes)) {
    small <- which.min(sizes)
    fp_abort(sprintf("= %s is more than the %d row(s) of the smallest group ('%s'): the folds are stratified, so every fold needs a row of every group; use fewer folds (at most %d) or merge small groups",
                     format(folds), sizes[small], levels(g)[small], min(sizes)), "folds")
  }
  list(folds = as.integer(folds), given = NULL)
}

# Stratified folds: the rows of each group in random order (R's RNG), dealt to the folds in turn.
fp_tune_stratify <- function(g, folds) {
  fold <- integer(length(g))
  for (lev in levels(g)) {
    idx <- which(g == lev)
    idx <- idx[sample.int(length(idx))]
    fold[idx] <- rep_len(seq_len(folds), length(idx))
  }
  fold
}

# The method's arguments that hold one value per row (`y` and `attributes` of method "mean"),
# taken on a fold's training rows `rows` (logical): a vector by its elements, a matrix or
# data.frame by its rows, a list by each element. One of another length is left for the fit's
# own check.
fp_tune_row_args <- c("y", "attributes")
fp_tune_dots_rows <- function(dots, rows) {
  take <- function(v) {
    if (is.data.frame(v) || is.matrix(v)) return(if (nrow(v) == length(rows)) v[rows, , drop = FALSE] else v)
    if (is.list(v)) return(lapply(v, take))
    if (length(v) == length(rows)) v[rows] else v
  }
  for (a in intersect(names(dots), fp_tune_row_args)) if (!is.null(dots[[a]])) dots[[a]] <- take(dots[[a]])
  dots
}

# A per-row argument (fp_tune_row_args) of another length than the data's `n` rows: a classed
# error naming it (the folds would otherwise pass it on whole, and the fold's fit would compare
# it with the fold's rows).
fp_tune_check_row_args <- function(dots, n) {
  len <- function(v) if (is.data.frame(v) || is.matrix(v)) nrow(v) else length(v)
  for (a in intersect(names(dots), fp_tune_row_args)) {
    v <- dots[[a]]
    if (is.null(v)) next
    lens <- if (is.list(v) && !is.data.frame(v)) vapply(v, len, numeric(1)) else len(v)
    if (any(lens != n)) fp_abort(sprintf("has %g values (rows) but the data have %d rows", lens[lens != n][1L], n), a)
  }
}

# One row per (fold, candidate): the held-out group errors of the fit on the other folds
# (fit_one(x, group, moments, args, training rows)) and the criterion's value on them. The training part's
# moments are those fair_pca() forms from its rows (fp_moments_ranged(): columns beyond about
# 1e+-120 brought into range first), so every fold fits the data fair_pca() fits.
fp_tune_cv <- function(xm, g, fold, folds, grid, fit_one, crit_fun, pb) {
  ncand <- nrow(grid)
  rows <- vector("list", folds * ncand)
  step <- 0
  for (f in seq_len(folds)) {
    tr <- fold != f
    xtr <- xm[tr, , drop = FALSE]
    gtr <- droplevels(g[tr])
    mom <- fp_moments_ranged(xtr, gtr, fp_colnames(xtr))
    xva <- xm[!tr, , drop = FALSE]
    gva <- g[!tr]
    for (j in seq_len(ncand)) {
      args <- as.list(grid[j, , drop = FALSE])
      fit <- fit_one(xtr, gtr, mom, args, tr)
      ge <- group_errors(fit, xva, gva)
      val <- tryCatch(crit_fun(ge), error = function(e) {
        fp_abort(sprintf("failed on a fold's group_errors() result: %s", conditionMessage(e)), "criterion")
      })
      if (!is.numeric(val) || length(val) != 1L || !is.finite(val)) {
        fp_abort("must return one finite number for a group_errors() result", "criterion")
      }
      step <- step + 1
      rows[[step]] <- data.frame(fold = f, candidate = j, ARE = ge$ARE, ABDiff = ge$ABDiff,
                                 max_loss = ge$max_loss, criterion = val)
      pb$update(step)
    }
  }
  do.call(rbind, rows)
}

# The candidates' means over the folds, and the standard error of the criterion's fold values,
# scaled first so that squares of values near 1e300 stay finite.
fp_tune_table <- function(cv, grid) {
  agg <- function(col) tapply(cv[[col]], cv$candidate, function(v) {
    s <- max(abs(v))  # scaled, so that sums of values near 1e308 stay finite
    if (is.finite(s) && s > 0) s * mean(v / s) else mean(v)
  })
  se <- tapply(cv$criterion, cv$candidate, function(v) {
    s <- max(abs(v))
    if (is.finite(s) && s > 0) s * stats::sd(v / s) / sqrt(length(v)) else stats::sd(v) / sqrt(length(v))
  })
  table <- cbind(grid, data.frame(ARE = as.numeric(agg("ARE")), ABDiff = as.numeric(agg("ABDiff")),
                                  max_loss = as.numeric(agg("max_loss")),
                                  criterion = as.numeric(agg("criterion")), se = as.numeric(se)))
  rownames(table) <- NULL
  table
}

# The warnings (conditions) of the tuning's fits, one per kind: messages that differ only in their
# numbers are reported once, with the first message's numbers and the count of fits, keeping the
# first one's classes (a solver's fairproj_convergence_warning stays one) beside
# fairproj_tune_warning.
fp_tune_rewarn <- function(warns) {
  msgs <- vapply(warns, conditionMessage, "")
  kind <- gsub("[-+]?[0-9][0-9.eE+-]*", "#", msgs)
  for (w in unique(kind)) {
    n_w <- sum(kind == w)
    first <- warns[[match(w, kind)]]
    cls <- setdiff(class(first), c("fairproj_warning", "simpleWarning", "warning", "condition"))
    warning(warningCondition(sprintf("%s%s", conditionMessage(first), if (n_w > 1) sprintf(" [%d fits, first shown]", n_w) else ""),
                             class = unique(c("fairproj_tune_warning", cls, "fairproj_warning"))))
  }
  invisible()
}

# The scale. a fold's fit (or the refit) is given: scale. itself unless it is TRUE; then each
# column's root mean square about the centre (the sd with center = TRUE) from the rows' moments
# `m` (fp_moments_ranged(): columns beyond 2^+-400 kept as exact powers of two times their stored
# values), so that no centred copy of the rows is made. A column constant in these rows (a fold
# may hold one where the data do not) keeps scale 1 instead of failing as fair_pca() would, as
# the authors' code does; constant means at most 1e-12 of its mean's magnitude, as in fair_pca().
fp_tune_scale <- function(m, scale., center = TRUE) {
  if (!isTRUE(scale.)) return(scale.)
  d <- length(m$colnames)
  if (sum(m$n) < 2) return(rep(1, d))
  e <- if (is.null(m$exponent)) rep(0, d) else m$exponent
  r <- fp_moments_rms(m, if (isTRUE(center)) NULL else if (isFALSE(center)) rep(0, d) else center * 2^-e)
  s <- r$sc * 2^e
  s[!(r$sc > fp_tol_constant * abs(r$mu))] <- 1
  s
}

# fp_tune_scale() of the rows `xm` (the refit): their moments are summed only when needed.
fp_tune_scale_rows <- function(xm, g, scale., center) {
  if (!isTRUE(scale.)) return(scale.)
  fp_tune_scale(fp_moments_ranged(xm, g, fp_colnames(xm)), scale., center)
}

# Default grids: the paper's where a paper tunes the method (Vu et al. 2022, section 5: alpha in
# {0.05, 0.1, 0.15}, lambda in {0, 0.5, ..., 2.5}, 18 candidates).
fp_tune_default_grids <- list(
  robust = list(alpha = c(0.05, 0.1, 0.15), lambda = seq(0, 2.5, by = 0.5))
)

# The candidates as a data.frame whose columns are arguments of `method` that `...` (names
# `dots`) does not also give.
fp_tune_grid <- function(grid, method, dots = NULL) {
  if (is.null(grid)) {
    grid <- fp_tune_default_grids[[method]]
    if (is.null(grid)) {
      fp_abort(sprintf("is missing and method '%s' has no default grid; give the candidate parameters (default grids exist for: %s)",
                       method, paste(names(fp_tune_default_grids), collapse = ", ")), "grid")
    }
  }
  if (is.list(grid) && !is.data.frame(grid)) {
    if (is.null(names(grid)) || any(names(grid) == "")) fp_abort("must be a named list or a data.frame", "grid")
    grid <- expand.grid(grid, KEEP.OUT.ATTRS = FALSE, stringsAsFactors = FALSE)
  }
  if (!is.data.frame(grid)) fp_abort("must be a named list or a data.frame", "grid")
  if (nrow(grid) < 1L || ncol(grid) < 1L) fp_abort("has no candidates", "grid")
  if (any(names(grid) %in% c("x", "group", "k", "method", "center", "scale.", "data", "prep"))) {
    fp_abort("must name only method arguments (not x, group, k, method, center, scale.)", "grid")
  }
  known <- setdiff(names(formals(fp_solver("pca", method))), c("prep", "k", "data", "..."))
  bad <- setdiff(names(grid), known)
  if (length(bad)) {
    fp_abort(sprintf("has column(s) that method '%s' does not take: %s (it takes: %s)", method,
                     paste(bad, collapse = ", "), if (length(known)) paste(known, collapse = ", ") else "none"), "grid")
  }
  twice <- intersect(names(grid), dots)
  if (length(twice)) {
    fp_abort(sprintf("and `...` both give %s: give each argument once", paste(twice, collapse = ", ")), "grid")
  }
  grid
}

# The criterion as a function of a group_errors() result, with attribute "name" (the full name of
# a named criterion, however abbreviated).
fp_tune_criterion <- function(criterion) {
  if (is.function(criterion)) {
    if (length(formals(criterion)) < 1L) {
      fp_abort("must be a function of one argument (a group_errors() result) or a criterion's name", "criterion")
    }
    return(structure(criterion, name = "custom"))
  }
  choices <- c("ARE+ABDiff", "ABDiff", "ARE", "max_loss")
  criterion <- fp_match_arg(criterion, choices, "criterion")
  f <- switch(criterion,
              "ARE+ABDiff" = function(e) e$ARE + e$ABDiff,
              "ABDiff" = function(e) e$ABDiff,
              "ARE" = function(e) e$ARE,
              "max_loss" = function(e) e$max_loss)
  structure(f, name = criterion)
}

#' @rdname tune_fair_pca
#' @param formula,data,subset,na.action The formula interface, as in [fair_pca()]: a one-sided
#'   formula on the columns of the data.frame `data`, with `group` a column of `data`.
#' @export
tune_fair_pca.formula <- function(formula, data = NULL, group, k, method = "robust", grid = NULL, ..., subset,
                                  na.action) {
  fd <- fp_formula_door(formula, data, substitute(group), missing(group), if (!missing(subset)) substitute(subset),
                        if (!missing(na.action)) na.action, parent.frame(), min_cols = 2L)
  res <- tune_fair_pca.default(fd$x, fd$group, k, method, grid, ...)
  # the refit's call on the formula, data and group as given (and subset, na.action when given)
  mc <- match.call()
  given <- Filter(Negate(is.null), list(formula = mc$formula, data = mc$data, group = mc$group,
                                        subset = mc$subset, na.action = mc$na.action))
  cl <- as.call(c(list(quote(fair_pca)), given, as.list(res$model$call)[-(1:3)]))
  res$model <- fp_formula_attach(res$model, fd, cl)
  res
}
