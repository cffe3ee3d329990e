# The audit's fits: the moments of the rows (or the moments given) read once, every method at
# every k, the downstream checks on held-out rows and the result object. The doors
# (R/audit.R) check the arguments and build the specification that fp_audit_run() reads; the
# intervals are in R/audit-intervals.R, print and summary in R/audit-print.R, the plots in
# R/audit-plot.R.

# The held-out rows every group needs for its downstream rates to be read (a rate from 30 rows
# has a standard error of up to 9 percentage points); with fewer in a group, the downstream
# rows are flagged (`reliable` FALSE).
fp_min_test_rows <- 30

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
# method's feasible dimension, a numerical failure) gives `fit = NULL` and the error. `moments`
# is a group_moments object, or on the row route the prepared rows (fp_audit_rows_source()),
# which every fit shares, as fair_pca(x, group, route = "rows") prepares them for one fit.
fp_audit_fit <- function(moments, k, method, margs, center, scale.) {
  warns <- list()
  err <- NULL
  t0 <- proc.time()[["elapsed"]]
  rows <- inherits(moments, "fp_rows")
  fit <- withCallingHandlers(
    tryCatch(if (rows) {
      do.call(fp_fit_pca, c(list(moments, k = k, method = method), margs,
                            list(center = center, scale. = scale., data = NULL, retx = FALSE, keep_moments = FALSE,
                                 call = NULL)))
    } else {
      do.call(fair_pca, c(list(moments, k = k, method = method, center = center, scale. = scale.,
                               keep_moments = FALSE), margs))
    },
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
    fit$call <- as.call(c(if (rows) list(quote(fair_pca), quote(x), quote(group)) else list(quote(fair_pca), quote(moments)),
                          list(k = k, method = method, center = center, scale. = scale.), margs,
                          if (rows) list(route = "rows")))
  }
  list(fit = fit, error = err, seconds = secs, warnings = warns)
}

# The method x k row of a fit (NA values and the error in `state` when it failed); `C` is the
# prepared covariance of the moments route, or on the row route the prepared rows.
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
  kept <- if (inherits(C, "fp_rows")) fp_audit_var_kept_rows(f, C$prep) else fp_audit_var_kept(f, C)
  fp_row_df(method = meth, k = kk, rank = ncol(f$rotation), var_kept = kept, price = NA_real_,
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

# The prepared rows `xm` of groups `g` that every row-route fit of an audit shares (the copy
# Lanczos reads and the eigensolves of the covariance and of each group's are kept in its cache,
# as one fit keeps them): the "fp_rows" object that fp_fit_pca() reads, with the `levels`, `n`
# and `colnames` that the audit reads of moments.
fp_audit_rows_source <- function(xm, g, center, scale.) {
  prep <- fp_prepare_rows(xm, g, center, scale.)
  if (is.null(prep)) fp_moments_ranged(xm, g, fp_colnames(xm), "x")  # NA or Inf: the moments pass says where
  structure(list(x = xm, g = g, prep = prep, levels = prep$levels, n = as.numeric(prep$n), colnames = prep$colnames),
            class = "fp_rows")
}

# The audit proper, from its specification `spec` (fp_audit_spec()): moments (one pass), then
# every method at every k; the downstream fits on the training part's moments; then the
# intervals and the result.
fp_audit_run <- function(spec) {
  t_start <- proc.time()[["elapsed"]]
  mo <- fp_audit_moments(spec)
  nfit <- length(spec$methods) * length(spec$k) * (1L + !is.null(spec$outcome))
  if (spec$show) {
    message(sprintf("fair_audit: %d method(s) x %d value(s) of k from the %s of %s rows (%d columns, %d groups)%s",
                    length(spec$methods), length(spec$k), if (identical(spec$route, "rows")) "row route" else "moments",
                    format(sum(mo$moments$n), big.mark = ","), spec$d, spec$m,
                    if (!is.null(spec$outcome)) ", then held-out checks" else ""))
  }
  oldopt <- options(fairproj.progress = FALSE)  # no progress bars of the fits themselves
  on.exit(options(oldopt), add = TRUE)
  fr <- fp_audit_fits(spec, mo)
  out <- fp_audit_result(spec, fr, mo)
  out$time <- proc.time()[["elapsed"]] - t_start
  if (spec$show) message(sprintf("fair_audit: %d fits in %.1f s", nfit, out$time))
  fp_audit_rewarn(fr$warns)
  class(out) <- "fairproj_audit"
  if (isTRUE(getOption("fairproj.check_audits"))) {
    bad <- fp_audit_inconsistencies(out)
    if (length(bad)) stop(errorCondition(paste(c("inconsistent audit intervals:", bad), collapse = "\n"),
                                         class = c("fairproj_numerical_error", "fairproj_error")))
  }
  out
}

# The audit's moments, read as the specification's class says: list(moments, m_train (the
# training rows' moments with an outcome), held (the held-out rows), blk (the bootstrap's block
# moments, NULL without intervals), interval_note (why there are none)).
fp_audit_moments <- function(spec) UseMethod("fp_audit_moments")

fp_audit_no_interval_note <- "no intervals were asked for (`level = NULL` or `replicates = 0`)"

# From the rows, in one pass (and a second for the block moments of the intervals); on the row
# route, the rows prepared for it (fp_audit_rows_source()), all of them and, with an outcome, the
# training part, in place of moments.
#' @exportS3Method fp_audit_moments fairproj_audit_rows
fp_audit_moments.fairproj_audit_rows <- function(spec) {
  xm <- spec$x
  g <- spec$g
  y <- spec$outcome
  iv <- spec$intervals
  if (identical(spec$route, "rows")) {
    held <- NULL
    if (!is.null(y)) {
      restore_seed <- fp_set_seed(spec$seed)
      held <- tryCatch(fp_audit_split(g, spec$test_fraction), finally = restore_seed())
    }
    src <- fp_audit_rows_source(xm, g, spec$center, spec$scale.)
    tr <- if (!is.null(y)) fp_audit_rows_source(xm[!held, , drop = FALSE], g[!held], spec$center, spec$scale.)
    # the bootstrap's blocks as the moments route forms them (fp_block_of_row()), read as row
    # weights by the replicates, and each group's diagnostics from its rows
    blk <- if (!is.null(iv)) fp_audit_row_blocks(src, as.integer(iv$blocks))
    return(list(moments = src, m_train = tr, held = held, blk = blk,
                interval_note = if (is.null(iv)) fp_audit_no_interval_note))
  }
  held <- NULL
  m_train <- NULL
  blk <- NULL
  interval_note <- if (is.null(iv)) fp_audit_no_interval_note
  d <- ncol(xm)
  cn <- fp_colnames(xm)
  if (!is.null(y)) {
    restore_seed <- fp_set_seed(spec$seed)
    held <- tryCatch(fp_audit_split(g, spec$test_fraction), finally = restore_seed())
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
    blk <- fp_merge_block_cells(fp_moments_ranged(xm, gi, cn, "x"), levels(g), parts, B)$blocks
    # each group's tail index (fp_tail_index()), which only the rows show: one read of the rows
    # for all groups, no copy of any group's rows
    tail <- fp_tail_index(xm, g)
    for (i in seq_along(blk)) blk[[i]]$tail <- tail[i]
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
  list(moments = moments, m_train = m_train, held = held, blk = blk, interval_note = interval_note)
}

# From the moments given: their block moments, if they carry any, for the intervals.
#' @exportS3Method fp_audit_moments fairproj_audit_moments
fp_audit_moments.fairproj_audit_moments <- function(spec) {
  blk <- NULL
  interval_note <- fp_audit_no_interval_note
  if (!is.null(spec$intervals)) {
    blk <- fp_moments_blocks(spec$moments)
    interval_note <- if (is.null(blk)) {
      paste("the group moments carry no block moments; compute them with",
            "group_moments(x, group, blocks = 50) (or give the rows) to get intervals")
    }
  }
  list(moments = spec$moments, m_train = NULL, held = NULL, blk = blk, interval_note = interval_note)
}

# Every method at every k from the moments `mo` (fp_audit_moments()), and with an outcome its
# refit on the training rows and held-out checks: list(tab, gtab, fits, down, preds (held-out
# predictions of each downstream fit, for the intervals), warns).
fp_audit_fits <- function(spec, mo) {
  xm <- spec$x
  g <- spec$g
  y <- spec$outcome
  ks <- spec$k
  methods <- spec$methods
  margs <- spec$margs
  center <- spec$center
  scale. <- spec$scale.
  show <- spec$show
  moments <- mo$moments
  # what the variance kept is measured against: the prepared covariance, or the prepared rows
  C <- if (inherits(moments, "fp_rows")) moments else fp_prepare(moments, center, scale.)$C
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
fp_audit_result <- function(spec, fr, mo) {
  xm <- spec$x
  g <- spec$g
  y <- spec$outcome
  ks <- spec$k
  d <- spec$d
  iv <- spec$intervals
  methods <- spec$methods
  seed <- spec$seed
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
    # a method the sample could not fit at a k (mean matching at k = d) is not refitted on the
    # replicates: their failures there would be counted as numerical ones
    spec$unfitted <- paste(tab$method, tab$k)[tab$state == "not fitted"]
    ivr <- tryCatch(fp_audit_intervals(spec, moments, blk, iv$k, tab, gtab),
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
              n = sum(moments$n), d = d, colnames = moments$colnames, centered = !isFALSE(spec$center),
              scaled = !isFALSE(spec$scale.), outcome = NULL, n_dropped = 0L, fits = fr$fits, call = spec$call)
  if (identical(spec$route, "rows")) out$route <- "rows"  # the moments route's result keeps its fields
  out$intervals <- if (!is.null(blk)) {
    list(level = iv$level, replicates = iv$replicates, k = iv$k, method = "bias-corrected percentile",
         blocks = vapply(blk, function(b) length(b$n), numeric(1)), failed = ivr$failed, mc_error = ivr$mc_error, note = NULL)
  } else {
    list(level = NULL, replicates = 0L, k = integer(0), method = NULL, blocks = NULL, failed = 0L,
         note = mo$interval_note)
  }
  if (!is.null(y)) {
    out$downstream <- do.call(rbind, fr$down)
    # gaps between groups measured on few held-out rows of one of them are noise, and a model
    # trained on few rows of a group says little about it (test_fraction near 1)
    out$downstream$reliable <- min(table(g[held])) >= fp_min_test_rows && min(table(g[!held])) >= fp_min_test_rows
    if (!is.null(iv)) {
      restore_seed <- fp_set_seed(seed)
      out$downstream <- tryCatch(fp_downstream_intervals(out$downstream, fr$preds, y, g, held, iv$level, iv$replicates),
                                 finally = restore_seed())
    }
    out$downstream_reference <- fp_audit_reference(xm, y, g, held)
    out$outcome <- c(list(name = NULL, type = y$type, n_train = sum(!held), n_test = sum(held),
                          n_test_groups = stats::setNames(as.numeric(table(g[held])), levels(g)),
                          n_train_groups = stats::setNames(as.numeric(table(g[!held])), levels(g)),
                          min_test_rows = fp_min_test_rows,
                          test_fraction = spec$test_fraction, test_rows = which(held)),
                     if (y$type == "binary") list(positive = y$positive, positive_rate = mean(y$y)) else
                       list(mean = mean(y$y)))
  } else {
    out$downstream_note <- if (inherits(spec, "fairproj_audit_moments")) {
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
# Downstream intervals: the models are fixed (trained once on the training rows); the held-out
# rows are resampled with replacement within each group (`replicates` times, the same draws for
# every fit), and accuracy, error and gaps recomputed on each resample; percentile intervals of
# type 6 (fp_quantile_inf()), not shifted for accuracy and error: these are means of the
# held-out rows, which the resampling does not bias. A gap (largest minus smallest group rate)
# gets the interval of a gap, on its own scale (fp_gap_interval(), as the losses' gap).

# Resample counts of the held-out rows: an nh x replicates matrix (row i: how often held-out
# row i is drawn), drawn within each group so that the groups keep their held-out sizes.
fp_downstream_draws <- function(gh, replicates) {
  nh <- length(gh)
  W <- matrix(0, nh, replicates)
  for (lev in levels(gh)) {
    idx <- which(gh == lev)
    if (!length(idx)) next
    for (r in seq_len(replicates)) {
      W[idx, r] <- W[idx, r] + tabulate(sample.int(length(idx), length(idx), replace = TRUE), length(idx))
    }
  }
  W
}

# Intervals of one fit's held-out metrics from its predictions `pred` (0/1, or numeric), the
# held-out outcome `yt` and groups `gh`, and the draws `W`. A gap (largest minus smallest group
# rate, or mean prediction) is never negative, and its interval is the gap's own, from the
# differences between the groups that may give it (fp_gap_interval()): it starts at 0 where
# those differences are not told apart from 0 (`*_distinct` FALSE), and lies within the range
# of the differences otherwise, so that it holds the estimate it stands beside; a gap between
# rates (binary outcome) ends at 1 at most.
fp_downstream_interval_row <- function(pred, yt, gh, W, level, type) {
  lv <- levels(droplevels(gh))
  by_group <- function(v, den = NULL) {
    vapply(lv, function(l) {
      i <- gh == l
      num <- colSums(W[i, , drop = FALSE] * v[i])
      if (is.null(den)) num / sum(i) else num / colSums(W[i, , drop = FALSE] * den[i])
    }, numeric(ncol(W)))
  }
  pct <- function(v) {
    v <- v[!is.na(v)]
    if (length(v) < 0.9 * ncol(W)) return(c(NA_real_, NA_real_))
    fp_quantile_inf(v, c((1 - level) / 2, (1 + level) / 2))
  }
  gap <- function(est_by_group, reps) {
    ok <- !is.na(est_by_group)
    if (sum(ok) < 2L) return(c(NA_real_, NA_real_))
    fp_gap_interval(reps[, ok, drop = FALSE], est_by_group[ok], level)
  }
  nh <- length(yt)
  if (type == "binary") {
    acc <- pct(colSums(W * (pred == yt)) / nh)
    rate <- by_group(pred)
    rate <- matrix(rate, ncol = length(lv))
    est_rate <- vapply(lv, function(l) mean(pred[gh == l]), numeric(1))
    pos <- yt == 1
    tpr <- matrix(by_group(pred * pos, as.numeric(pos)), ncol = length(lv))
    est_tpr <- vapply(lv, function(l) if (any(pos & gh == l)) mean(pred[pos & gh == l]) else NA_real_, numeric(1))
    # rates lie in [0, 1], and so do their gaps: the shifted quantiles of a gap near 1 can pass
    # it (an equal-opportunity gap of 0.5 from 8 held-out rows read [0.155, 1.03])
    dp <- pmin(gap(est_rate, rate), 1)
    eo <- pmin(gap(est_tpr, tpr), 1)
    return(c(accuracy_low = acc[1L], accuracy_high = acc[2L], error_low = 1 - acc[2L], error_high = 1 - acc[1L],
             dp_gap_low = dp[1L], dp_gap_high = dp[2L], eo_gap_low = eo[1L], eo_gap_high = eo[2L]))
  }
  err <- pct(sqrt(colSums(W * (pred - yt)^2) / nh))
  mp <- matrix(by_group(pred), ncol = length(lv))
  dp <- gap(vapply(lv, function(l) mean(pred[gh == l]), numeric(1)), mp)
  c(accuracy_low = NA_real_, accuracy_high = NA_real_, error_low = err[1L], error_high = err[2L],
    dp_gap_low = dp[1L], dp_gap_high = dp[2L], eo_gap_low = NA_real_, eo_gap_high = NA_real_)
}

# The downstream table with its intervals and whether each gap is distinguishable from 0.
fp_downstream_intervals <- function(down, preds, y, g, held, level, replicates) {
  gh <- droplevels(g[held])
  yt <- y$y[held]
  W <- fp_downstream_draws(gh, replicates)
  iv <- t(vapply(preds, function(p) {
    if (is.null(p)) return(stats::setNames(rep(NA_real_, 8L), c("accuracy_low", "accuracy_high", "error_low",
                                                                "error_high", "dp_gap_low", "dp_gap_high",
                                                                "eo_gap_low", "eo_gap_high")))
    fp_downstream_interval_row(p, yt, gh, W, level, y$type)
  }, numeric(8)))
  down <- cbind(down, as.data.frame(iv))
  down$dp_gap_distinct <- down$dp_gap_low > 0
  down$eo_gap_distinct <- down$eo_gap_low > 0
  down
}
