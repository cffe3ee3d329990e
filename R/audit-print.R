# Print, summary, tidy and glance of a fairness audit (fair_audit(), R/audit.R); the plots are
# in R/audit-plot.R.

# Numbers and percentages for printing, each to 3 significant digits on its own; values below
# `zero` print as 0 (differences at the solvers' precision).
fp_num <- function(v, digits = 3L, zero = 0) {
  vapply(v, function(z) if (is.na(z)) NA_character_ else if (abs(z) <= zero) "0" else format(signif(z, digits)),
         character(1), USE.NAMES = FALSE)
}
fp_pct <- function(v, digits = 3L) ifelse(is.na(v), NA_character_, paste0(fp_num(100 * v, digits, 1e-9), "%"))

# The method x k table at one k, formatted for print() with `digits` significant digits.
fp_audit_at <- function(x, k, digits = 3L) {
  t <- x$table[x$table$k == k, , drop = FALSE]
  tiny <- 1e-8 * max(abs(t$max_loss), na.rm = TRUE)
  num <- function(v) fp_num(v, digits)
  pct <- function(v) fp_pct(v, digits)
  out <- data.frame(method = t$method, max_loss = num(t$max_loss), loss_gap = fp_num(t$loss_gap, digits, zero = tiny),
                    worst_group = t$worst_group, var_kept = pct(t$var_kept), price = pct(t$price),
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
  # a largest loss from 0 is an upper bound (fp_loss_bound_reason): flagged on its own
  out$max_loss <- paste0(out$max_loss, ci("max_loss", num),
                         ifelse(fp_audit_loss_at_bound("max_loss", t$max_loss_low, t$max_loss_high) & flag == "", "?", ""))
  bound <- fp_audit_gap_at_bound(t, nrow(x$groups))  # a min-max ratio at a kink: flagged on its own
  out$loss_ratio <- paste0(num(t$loss_ratio), ci("loss_ratio", num), ifelse(bound & flag == "", "?", ""))
  out$price <- paste0(out$price, ifelse(t$method == "standard", "", ci("price", pct)))
  # a ratio whose interval is [1, Inf] (or none) in every row says nothing: left out
  if (!fp_audit_ratio_shown(t)) out$loss_ratio <- NULL
  out[intersect(c("method", "max_loss", "loss_ratio", "loss_gap", "worst_group", "var_kept", "price", "state"), names(out))]
}

# Whether print() shows the loss ratio at one k (table rows `t`): not where its interval is
# [1, Inf] (or none) in every row, which says nothing.
fp_audit_ratio_shown <- function(t) !all(is.na(t$loss_ratio_low) | (t$loss_ratio_low <= 1 & t$loss_ratio_high == Inf))

# A sentence printed as lines of the console's width.
fp_cat_wrapped <- function(text) cat(strwrap(text, width = getOption("width")), sep = "\n")

# The blocks the bootstrap resampled, as read after "100 replicates": " of 50 blocks per group";
# with the groups that had another count (a group of few rows gets a block per row) named where
# most groups share one, " of 50 blocks per group (z: 1)"; else each group's, "; blocks per
# group: a 45, b 22, c 40".
fp_audit_blocks_text <- function(blocks, groups) {
  b <- as.integer(blocks)
  if (!length(b)) return("")
  common <- as.integer(names(which.max(table(b))))
  odd <- b != common
  named <- length(groups) == length(b)
  if (named && sum(!odd) <= length(b) / 2) return(sprintf("; blocks per group: %s", fp_name_list(sprintf("%s %d", groups, b))))
  s <- sprintf(" of %d block%s per group", common, if (common == 1L) "" else "s")
  if (any(odd) && named) s <- sprintf("%s (%s)", s, fp_name_list(sprintf("%s: %d", groups[odd], b[odd])))
  s
}

# One line on the intervals of an audit: what they are, or why there are none.
fp_audit_interval_line <- function(x, k) {
  iv <- x$intervals
  if (is.null(iv)) return(invisible())
  if (!length(iv$k)) {
    cat(sprintf("No intervals: %s.\n", iv$note))
  } else if (k %in% iv$k) {
    fp_cat_wrapped(sprintf("[ ]: %s%% bootstrap intervals (%d replicates%s)%s", format(100 * iv$level),
                           iv$replicates, fp_audit_blocks_text(iv$blocks, x$groups$group),
                           fp_audit_flag_legend(x, k)))
    if (isTRUE(iv$failed > 0)) {
      cat(sprintf("%d of %d replicates had a fit that failed (numerical error); their values are left out.\n",
                  as.integer(iv$failed), iv$replicates))
    }
    t <- x$table[x$table$k == k, , drop = FALSE]
    zero <- unlist(lapply(c("max_loss", "price"), function(q) {
      z <- fp_audit_starts_at_zero(q, t[[paste0(q, "_low")]], t[[paste0(q, "_high")]]) &
        (q != "price" | t$method != "standard")
      if (any(z)) sprintf("the %s of %s", c(max_loss = "largest loss", price = "price")[[q]], t$method[z])
    }))
    if (length(zero)) fp_cat_wrapped(sprintf("Intervals from 0 (0 not ruled out at this level): %s.", paste(zero, collapse = ", ")))
    for (line in c(fp_audit_reading(x, k), fp_audit_mc_line(x))) fp_cat_wrapped(line)
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

#' @rdname summary.fairproj_audit
#' @order 6
#' @export
print.fairproj_audit <- function(x, digits = 3L, ...) {
  digits <- fp_print_digits(digits, default = 3L)
  cat(sprintf("Fairness audit of PCA: %s rows x %d columns%s, %d groups\n", format(x$n, big.mark = ","), x$d,
              if (x$scaled) " (scaled)" else "", nrow(x$groups)))
  cat(sprintf("Methods: %s; k = %s\n", paste(x$methods, collapse = ", "), fp_audit_k_label(x$k)))
  cat(fp_audit_scaling_line(x), "\n", sep = "")
  dropped <- fp_audit_dropped_line(x)
  if (!is.null(dropped)) cat(dropped, "\n", sep = "")
  gr <- x$groups
  # the first ten groups (tidy(x, "groups") has them all)
  cat(sprintf("Groups: %s\n", fp_name_list(sprintf("%s %s (%s)", gr$group, format(gr$n, big.mark = ",", trim = TRUE),
                                                   fp_pct(gr$share, 2)))))
  if (any(gr$small)) {
    cat(sprintf("Small group(s) (fewer than 5 rows per column): %s; their losses are noisy\n",
                fp_name_list(gr$group[gr$small])))
  }
  cat(sprintf("\nAt k = %d (%s):\n", x$k_focus, fp_audit_focus_reason(x)))
  print(fp_audit_at(x, x$k_focus, digits), row.names = FALSE)
  fp_audit_interval_line(x, x$k_focus)
  if (is.null(x$downstream)) {
    cat(sprintf("\nDownstream checks: not run (%s).\n", x$downstream_note))
  } else {
    dn <- x$downstream[x$downstream$k == x$k_focus, , drop = FALSE]
    cat(sprintf("\nDownstream (%s):\n", fp_audit_downstream_header(x, dn)))
    print(fp_audit_downstream_view(x, dn, digits), row.names = FALSE)
    fp_audit_downstream_notes(x, dn)
    n1 <- sum(x$downstream$one_class, na.rm = TRUE)
    if (n1) cat(sprintf("%d of %d fits' models predict one class for every held-out row (gaps 0 by construction).\n",
                        n1, nrow(x$downstream)))
  }
  cat("\nsummary() for every k; tidy() for the tables; plot() for the curves.\n")
  invisible(x)
}

# How the columns were scaled, and (on a line of its own) the fair_pca() call that gives each
# of the audit's fits.
fp_audit_scaling_line <- function(x) {
  sprintf("%s; each fit, kept in $fits, is\n  %s",
          if (x$scaled) "Columns scaled to unit variance (scale. = TRUE, fair_audit()'s default)" else
            "Columns in their own units (scale. = FALSE)", fp_audit_fit_call(x))
}

# The fair_pca() call that reproduces the audit's fit of `method` at `k` (by default: any).
fp_audit_fit_call <- function(x, method = NULL, k = NULL) {
  sprintf("fair_pca(x, group, k = %s, method = %s%s, scale. = %s%s)", if (is.null(k)) "<k>" else k,
          if (is.null(method)) "<method>" else sprintf("\"%s\"", method), if (x$centered) "" else ", center = FALSE",
          if (x$scaled) "TRUE" else "FALSE", if (identical(x$route, "rows")) ", route = \"rows\"" else "")
}

# The rows left out before the audit, in words, or NULL: with missing values (formula
# interface, `n_dropped`) and with a missing group (`dropped`).
fp_audit_dropped_line <- function(x) {
  n <- function(v) paste(format(v, big.mark = ","), if (v == 1) "row" else "rows")
  parts <- c(if (isTRUE(x$n_dropped > 0)) sprintf("%s dropped (missing values)", n(x$n_dropped)),
             if (isTRUE(x$dropped > 0)) sprintf("%s dropped (missing group)", n(x$dropped)))
  if (length(parts)) paste(parts, collapse = "; ")
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

# The downstream table at one k as print() and summary() show it: accuracy in percent, gaps in
# percentage points (binary outcome) or the outcome's units, each with its interval, "~0" where
# a gap is not told apart from 0 and "?" where a group has too few held-out rows; `digits`
# significant digits.
fp_audit_downstream_view <- function(x, dn, digits = 3L) {
  ci <- !is.null(dn$dp_gap_low)
  few <- dn$reliable %in% FALSE
  # "value [low, high]", with "~0" where a gap's interval starts at 0
  w <- function(est, q, f, gap = FALSE) {
    out <- f(est)
    if (ci) {
      lo <- dn[[paste0(q, "_low")]]
      hi <- dn[[paste0(q, "_high")]]
      out <- ifelse(is.na(lo), out, sprintf("%s [%s, %s]", out, f(lo), f(hi)))
      if (gap) out <- paste0(out, ifelse(dn[[paste0(q, "_distinct")]] %in% FALSE, " ~0", ""))
    }
    if (gap) out <- paste0(out, ifelse(few & !is.na(est), "?", ""))
    out
  }
  if (identical(x$outcome$type, "binary")) {
    pts <- function(v) fp_num(100 * v, digits)
    pct <- function(v) fp_pct(v, digits)
    data.frame(method = dn$method, accuracy = w(dn$accuracy, "accuracy", pct), dp_gap = w(dn$dp_gap, "dp_gap", pts, TRUE),
               eo_gap = w(dn$eo_gap, "eo_gap", pts, TRUE), one_class = dn$one_class, stringsAsFactors = FALSE)
  } else {
    s3 <- function(v) format(signif(v, digits))
    data.frame(method = dn$method, rmse = w(dn$error, "error", s3), mean_prediction_gap = w(dn$dp_gap, "dp_gap", s3, TRUE),
               stringsAsFactors = FALSE)
  }
}

# The lines under the downstream table: held-out rows by group, the groups with too few, and
# what the intervals mean.
fp_audit_downstream_notes <- function(x, dn) {
  ng <- x$outcome$n_test_groups
  if (!is.null(ng)) cat(sprintf("Held-out rows by group: %s\n", fp_name_list(sprintf("%s %d", names(ng), as.integer(ng)))))
  few <- names(ng)[ng < fp_min_test_rows]
  if (length(few)) {
    fp_cat_wrapped(sprintf("?: %s %s fewer than %d held-out rows: the gaps between groups are mostly noise (hold out more with `test_fraction`)",
                           fp_name_list(few), if (length(few) > 1L) "have" else "has", fp_min_test_rows))
  }
  nt <- x$outcome$n_train_groups
  thin <- names(nt)[nt < fp_min_test_rows]
  if (length(thin)) {
    fp_cat_wrapped(sprintf("?: %s %s fewer than %d training rows: the models learn little about %s (hold out less with `test_fraction`)",
                           fp_name_list(thin), if (length(thin) > 1L) "have" else "has", fp_min_test_rows,
                           if (length(thin) > 1L) "them" else "it"))
  }
  if (!is.null(dn$dp_gap_low)) {
    fp_cat_wrapped(sprintf(paste("[ ]: %s%% intervals from %d resamples of the held-out rows; a gap's interval is that of",
                                 "the gap (largest minus smallest group), ~0 where it starts at 0: not distinguishable",
                                 "from 0 at that level"),
                           format(100 * x$intervals$level), x$intervals$replicates))
  }
}

# The reference models in the units of the downstream table (fp_audit_downstream_view()).
fp_audit_reference_view <- function(x) {
  ref <- x$downstream_reference
  if (identical(x$outcome$type, "binary")) {
    pts <- function(v) fp_num(100 * v)
    return(data.frame(model = ref$model, accuracy = fp_pct(ref$accuracy), dp_gap = pts(ref$dp_gap),
                      eo_gap = pts(ref$eo_gap), stringsAsFactors = FALSE))
  }
  data.frame(model = ref$model, rmse = format(signif(ref$error, 3)), mean_prediction_gap = format(signif(ref$dp_gap, 3)),
             stringsAsFactors = FALSE)
}

# The header of the downstream table (print() and summary()).
fp_audit_downstream_header <- function(x, dn) {
  sprintf("%s on the k scores, %s held-out rows%s", fp_audit_learner(x), format(dn$n_test[1L], big.mark = ","),
          if (identical(x$outcome$type, "binary")) "; accuracy in %, gaps in percentage points" else
            "; in the outcome's units")
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
#'   reference lines, labelled in the right margin (in `autoplot()`, a secondary y axis: a y
#'   scale added to the plot replaces it, with ggplot2's message, and the labels with it).
#' Methods are coloured from the end of the package palette and groups from its start, so that
#' a method never looks like a group. Tables, `tidy()`, `print()` and `summary()` name each
#' method as `fair_pca()`'s `method` argument does (`"minmax"`, `"mean"`), so that a row can be
#' refitted; plots and the report label them in words (`"min-max"`, `"mean matching"`,
#' `"standard PCA"`).
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
#' @param ... For `plot()` and `autoplot()`: `methods`, the methods to draw (default all; a
#'   method named twice is drawn once; standard PCA is always drawn in `"losses"` and
#'   `"errors"`, dashed, for comparison). For `tidy(matrix = "plot")`: `type` and `methods`.
#'   Otherwise unused.
#' @param main,xlab,ylab Replace the title and axis labels (each a single string).
#' @param digits For `print()`: significant digits of the numbers in its tables (a whole number
#'   from 1 to 22; `NULL` for the default, 3).
#' @return `summary()`: an object of class `summary.fairproj_audit`, a list whose `reasons` is
#'   every distinct reason why intervals at its `k` are flagged unreliable, as `print()` states
#'   them (`character(0)` where none is). `tidy()`: a tibble (or
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
#' @order 1
#' @export
summary.fairproj_audit <- function(object, k = NULL, ...) {
  k <- fp_audit_check_k(object, k)
  gt <- object$groups_table[object$groups_table$k == k, , drop = FALSE]
  dn <- if (!is.null(object$downstream)) object$downstream[object$downstream$k == k, , drop = FALSE]
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
                 downstream = dn, downstream_view = if (!is.null(dn)) fp_audit_downstream_view(object, dn),
                 downstream_header = if (!is.null(dn)) fp_audit_downstream_header(object, dn),
                 downstream_notes = if (!is.null(dn)) utils::capture.output(fp_audit_downstream_notes(object, dn)),
                 downstream_reference = object$downstream_reference,
                 reference_view = if (!is.null(dn)) fp_audit_reference_view(object), downstream_note = object$downstream_note,
                 reasons = fp_audit_reasons(object, k), outcome = object$outcome, call = object$call),
            class = "summary.fairproj_audit")
}

#' @export
print.summary.fairproj_audit <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  digits <- fp_print_digits(digits)
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
  cat("\nPrice of fairness by k (% of the total variance lost against standard PCA):\n")
  price <- x$price
  price[-1L] <- lapply(price[-1L], fp_pct)
  print(price, row.names = FALSE)
  if (is.null(x$downstream)) {
    cat(sprintf("\nDownstream checks: not run (%s).\n", x$downstream_note))
  } else {
    cat(sprintf("\nDownstream at this k (%s):\n", x$downstream_header))
    print(x$downstream_view, row.names = FALSE)
    if (length(x$downstream_notes)) cat(x$downstream_notes, sep = "\n")
    cat("\nReference models:\n")
    print(x$reference_view, row.names = FALSE)
  }
  invisible(x)
}

#' @rdname summary.fairproj_audit
#' @order 2
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
#' @order 3
#' @export
glance.fairproj_audit <- function(x, ...) {
  std <- x$table[x$table$method == "standard" & x$table$k == x$k_focus, ]
  fp_tibble(data.frame(nobs = fp_count_value(x$n), ncol = x$d, groups = nrow(x$groups),
                       smallest_group = fp_count_value(min(x$groups$n)),
                       methods = length(x$methods), k_focus = x$k_focus, var_kept_standard = std$var_kept,
                       level = if (length(x$intervals$k)) x$intervals$level else NA_real_,
                       replicates = if (length(x$intervals$k)) x$intervals$replicates else 0L,
                       unreliable = if (length(x$intervals$k)) sum(x$table$reliable %in% FALSE &
                                                                       x$table$k == x$k_focus) else NA_integer_,
                       downstream = !is.null(x$downstream), seconds = x$time))
}

#' @rdname summary.fairproj_audit
#' @return `augment()`: an error of class `fairproj_input_error`: an audit compares methods and
#'   values of k and keeps no scores of its own (fit the chosen method with [fair_pca()] and
#'   augment that fit).
#' @order 3
#' @export
augment.fairproj_audit <- function(x, ...) {
  fp_abort("is an audit of several methods and values of k and keeps no scores of its own: fit the method and k you choose, fit <- fair_pca(x, group, k, method), and augment that fit, augment(fit, data)",
           "x")
}

# What the intervals say about each fair method against standard PCA at k, from the paired
# replicates (tidy(x, "intervals"), terms `max_loss_change` and `price`), not from the overlap
# of two intervals: whether the method lowers the worst-off group's loss (the interval of its
# largest loss minus standard PCA's lies below 0), raises it, or the data do not tell, and at
# what price in variance kept. One sentence per method; none without intervals at k.
fp_audit_reading <- function(x, k) {
  t <- x$table[x$table$k == k & x$table$method != "standard", , drop = FALSE]
  if (!k %in% x$intervals$k || is.null(t$max_loss_change_low)) return(character(0))
  std <- x$table[x$table$k == k & x$table$method == "standard", , drop = FALSE]
  lv <- format(100 * x$intervals$level)
  vapply(seq_len(nrow(t)), function(i) {
    r <- t[i, , drop = FALSE]
    ch <- r$max_loss - std$max_loss
    lo <- r$max_loss_change_low
    hi <- r$max_loss_change_high
    if (is.na(lo)) return(sprintf("%s: no interval for its change of the largest loss.", r$method))
    ci <- sprintf("%s [%s, %s]", fp_num(ch), fp_num(lo), fp_num(hi))
    what <- if (hi < 0) sprintf("lowers the worst-off group's loss against standard PCA (change %s)", ci)
      else if (lo > 0) sprintf("raises the largest group loss against standard PCA (change %s)", ci)
      else sprintf("does not change the worst-off group's loss against standard PCA by more than the data can tell (%s)", ci)
    cost <- if (is.na(r$price_low)) "" else if (r$price_low > 0) {
      sprintf(", at a price of %s [%s, %s] of the variance", fp_pct(r$price), fp_pct(r$price_low), fp_pct(r$price_high))
    } else sprintf(", at a price not told apart from 0 (%s [%s, %s] of the variance)", fp_pct(r$price), fp_pct(r$price_low),
                   fp_pct(r$price_high))
    sprintf("%s %s%s%s.", r$method, what, cost, if (r$reliable %in% FALSE) " (?)" else "")
  }, character(1))
}

# The Monte-Carlo error of the interval ends (fp_audit_mc_error()), as a line.
fp_audit_mc_line <- function(x) {
  mc <- x$intervals$mc_error
  if (is.null(mc) || is.na(mc[["max"]])) return(character(0))
  sprintf(paste("Monte-Carlo error of the interval ends (%d replicates): a median %s and at most %s of an interval's",
                "width; it halves with 4 times the replicates."), x$intervals$replicates, fp_pct(mc[["median"]], 2),
          fp_pct(mc[["max"]], 2))
}

# The legend of "?": why the intervals at k so marked cannot be trusted (the audit's reasons).
fp_audit_flag_legend <- function(x, k) {
  t <- x$table[x$table$k == k, , drop = FALSE]
  bound <- fp_audit_ratio_shown(t) && any(fp_audit_gap_at_bound(t, nrow(x$groups)) & !(t$reliable %in% FALSE))
  zero <- any(fp_audit_loss_at_bound("max_loss", t$max_loss_low, t$max_loss_high) & !(t$reliable %in% FALSE))
  if (!any(t$reliable %in% FALSE) && !bound && !zero) return("")
  why <- fp_audit_reasons(x, k, c(if (bound) paste("loss ratio:", fp_gap_bound_reason),
                                  if (zero) paste("largest loss from 0:", fp_loss_bound_reason)))
  if (!length(why)) why <- "see ?fair_audit"
  paste0("; ? marks an interval the data cannot support: ", paste(why, collapse = "; "))
}

# The distinct reasons why intervals at k are unreliable: those of the table's rows at k, then
# those of the groups' rows at k (a small group's reason is on its own rows only), then `extra`,
# with reasons that differ only in the group they name said once. The report template states
# the same list.
fp_audit_reasons <- function(x, k, extra = NULL) {
  why <- unique(c(x$table$reason[x$table$k == k], x$groups_table$reason[x$groups_table$k == k], extra))
  fp_merge_group_reasons(why[!is.na(why)])
}

# Reasons that differ only in the group they name ("... (group a: <same>) ...") said once for all
# those groups ("... (groups a, b: <same>) ..."), in the order they first appear.
fp_merge_group_reasons <- function(why) {
  pat <- "^(.*)\\(group ([^:]+): (.*)$"
  hit <- grepl(pat, why)
  key <- ifelse(hit, sub(pat, "\\1\r\\3", why), why)
  grp <- ifelse(hit, sub(pat, "\\2", why), NA_character_)
  vapply(unique(key), function(kk) {
    g <- grp[key == kk]
    if (length(g) < 2L || anyNA(g)) return(why[match(kk, key)])
    parts <- strsplit(kk, "\r", fixed = TRUE)[[1L]]
    paste0(parts[1L], "(groups ", paste(g, collapse = ", "), ": ", parts[2L])
  }, character(1), USE.NAMES = FALSE)
}
