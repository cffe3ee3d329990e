# The plots of a fairness audit (fair_audit(), R/audit.R): the price of fairness, per-group
# losses and errors by k, downstream gaps and accuracy. Groups take fp_palette(), methods
# fp_palette_methods(), so a method never looks like a group. The plot types are listed in
# `fp_plot_types` (R/plot-data.R).

#' @exportS3Method fp_plot_data fairproj_audit
fp_plot_data.fairproj_audit <- function(x, type = NULL, ..., methods = NULL) {
  type <- fp_plot_type(x, type)
  fp_plot_no_dots(list(...), type)
  if (is.null(methods)) methods <- x$methods
  if (!is.character(methods) || !length(methods) || !all(methods %in% x$methods)) {
    fp_abort(sprintf("must name audited methods (%s)", paste(x$methods, collapse = ", ")), "methods")
  }
  methods <- unique(methods)  # a method named twice is drawn once, by every type
  switch(type,
         price = fp_plot_audit_price(x, methods),
         losses = , errors = fp_plot_audit_groups(x, type, methods),
         downstream = , accuracy = fp_plot_audit_downstream(x, type, methods))
}

# Colours of methods: standard PCA black, the others from fp_palette_methods().
fp_audit_colours <- function(methods) {
  fair <- setdiff(methods, "standard")
  pal <- fp_palette_methods(length(fair))
  cols <- stats::setNames(pal[seq_along(fair)], fair)
  if ("standard" %in% methods) cols <- c(standard = "black", cols)
  cols[methods]
}

fp_audit_units <- function(x) {
  if (x$scaled) "Per row, in squared units of the scaled columns" else "Per row, in squared units of the data"
}

fp_plot_audit_price <- function(x, methods) {
  fair <- setdiff(methods, "standard")
  if (!length(fair)) fp_abort("must include a fair method: the price is measured against standard PCA", "methods")
  t <- x$table[x$table$method %in% fair, , drop = FALSE]
  t <- t[is.finite(t$price), , drop = FALSE]  # a method not fitted at a k has no price there
  missing <- fp_audit_missing(x, fair, t$method)
  fair <- intersect(fair, t$method)
  if (!length(fair)) fp_abort(sprintf("has no price to plot: %s", missing), "methods")
  d <- data.frame(k = t$k, method = factor(fp_fit_label(t$method), levels = fp_fit_label(fair)), value = 100 * t$price,
                  max_loss = t$max_loss, stringsAsFactors = FALSE)
  d <- fp_audit_bars(x, d, 100 * fp_audit_col(t, "price_low"), 100 * fp_audit_col(t, "price_high"), t$reliable)
  cols <- fp_audit_colours(fair)
  spec <- fp_spec("k", "value", c(list(fp_layer("line"), fp_layer("point", cex = 1.1)), fp_audit_bar_layer(d)),
                  list(colour = fp_scale("method", fp_fit_label(fair), unname(cols)),
                       shape = fp_scale("method", fp_fit_label(fair), fp_shapes(length(fair)))),
                  title = "Price of fairness",
                  subtitle = "variance each fair method loses beyond standard PCA at the same k",
                  xlab = "number of components k", ylab = "variance lost (% of the total)",
                  ref = list(fp_ref("h", 0, "standard PCA", lty = 2L)), x_integer = TRUE, y_zero = TRUE,
                  caption = fp_audit_bar_caption(x, d, fp_join_captions(missing)),
                  dodge = if (length(fair) > 1L) list(column = "method", width = fp_dodge_width(length(fair))))
  fp_plot_frame(d, spec, "price")
}

# Which of `methods` a plot leaves out, and why, in words for its caption (NULL when none):
# those with no value drawn (`drawn`: the methods of the rows drawn), and those not fitted at
# some audited k (the audit's table says "not fitted" and its note says why).
fp_audit_missing <- function(x, methods, drawn) {
  tab <- x$table
  out <- character(0)
  for (m in methods) {
    nf <- tab[tab$method == m & tab$state %in% "not fitted", , drop = FALSE]
    why <- nf$note[!is.na(nf$note)]
    why <- if (length(why)) sprintf(": %s", sub(";.*$", "", gsub("`", "", why[1L]))) else ""
    if (!m %in% drawn) {
      out <- c(out, sprintf("%s %s%s", fp_fit_label(m), if (nrow(nf)) "not fitted" else "has no values", why))
    } else if (nrow(nf)) {
      out <- c(out, sprintf("%s not fitted at k = %s%s", fp_fit_label(m), paste(nf$k, collapse = ", "), why))
    }
  }
  if (length(out)) paste(out, collapse = "; ")
}

# A column of an audit table, NA when the audit has none (no intervals).
fp_audit_col <- function(t, col) if (is.null(t[[col]])) rep(NA_real_, nrow(t)) else t[[col]]

# The interval columns of an audit plot: `lower`, `upper` (NA where there is none) and
# `interval` ("TRUE" where an error bar is drawn, "unreliable" where the audit flags it).
fp_audit_bars <- function(x, d, lo, hi, reliable) {
  d$lower <- lo
  d$upper <- hi
  d$interval <- ifelse(is.na(lo) | is.na(hi), "none", ifelse(reliable %in% FALSE, "unreliable", "TRUE"))
  d
}
fp_audit_bar_layer <- function(d) {
  out <- list()
  if (any(d$interval == "TRUE")) out <- c(out, list(fp_layer("errorbar", where = list(interval = "TRUE"),
                                                             ymin = "lower", ymax = "upper")))
  if (any(d$interval == "unreliable")) out <- c(out, list(fp_layer("errorbar", where = list(interval = "unreliable"),
                                                                   ymin = "lower", ymax = "upper", alpha = 0.35)))
  out
}
# `faint`: say what faint bars mean (FALSE where the caption says it already).
fp_audit_bar_caption <- function(x, d, caption = NULL, faint = TRUE) {
  if (!any(d$interval != "none")) return(caption)
  iv <- x$intervals
  paste0(if (!is.null(caption)) paste0(caption, "; "),
         sprintf("error bars: %s%% bootstrap intervals%s%s", format(100 * iv$level),
                 if (faint && any(d$interval == "unreliable")) "; faint: flagged unreliable (print() gives the reason)" else "",
                 if (any(d$lower == 0 & d$upper > 0, na.rm = TRUE)) "; from 0: 0 not ruled out" else ""))
}

fp_plot_audit_groups <- function(x, type, methods) {
  fair <- setdiff(methods, "standard")
  show <- c(fair, "standard")
  g <- x$groups_table[x$groups_table$method %in% show, , drop = FALSE]
  col <- if (type == "losses") "loss" else "error"
  tab <- data.frame(k = g$k, group = factor(g$group, levels = x$groups$group),
                    fit = factor(fp_fit_label(g$method), levels = fp_fit_label(show)), value = g[[col]],
                    stringsAsFactors = FALSE)
  tab <- fp_audit_bars(x, tab, fp_audit_col(g, paste0(col, "_low")), fp_audit_col(g, paste0(col, "_high")), g$reliable)
  keep <- is.finite(tab$value)  # k a method cannot reach
  missing <- fp_audit_missing(x, show, g$method[keep])
  tab <- tab[keep, , drop = FALSE]
  # the methods drawn: a method with no value is in neither the legend nor the subtitle
  show <- show[fp_fit_label(show) %in% as.character(tab$fit)]
  fair <- setdiff(show, "standard")
  tab$fit <- factor(as.character(tab$fit), levels = fp_fit_label(show))
  tab <- tab[order(tab$fit, tab$group, tab$k), ]
  one_k <- length(unique(tab$k)) < 2L  # no lines: the methods are told apart by their shapes
  sub <- if (!length(fair)) "standard PCA" else if (length(fair) == 1L && !one_k) {
    sprintf("%s (solid) and standard PCA (dashed)", fp_fit_label(fair))
  } else sprintf("%s: method (%s)", if (one_k) "shape" else "line type and shape", paste(fp_fit_label(show), collapse = ", "))
  losses <- type == "losses"
  pd <- fp_plot_by_k(tab, type, title = if (losses) "Marginal loss by group" else "Reconstruction error by group",
                     subtitle = sub,
                     ylab = if (losses) "marginal loss" else "average squared error")
  spec <- attr(pd, "fp_spec")
  pd[c("lower", "upper", "interval")] <- tab[c("lower", "upper", "interval")]  # same rows, same order
  spec$layers <- c(spec$layers, fp_audit_bar_layer(tab))
  if (!is.null(spec$scales$linetype)) {
    # standard PCA dashed, as in plot.fair_pca(); the fair methods solid, dotted, ...
    lev <- names(spec$scales$linetype$values)
    spec$scales$linetype$values[] <- ifelse(lev == "standard PCA", 2L, c(1L, 3:8)[cumsum(lev != "standard PCA")])
    spec$scales$linetype$title <- "method"
    spec$scales$shape$title <- "method"
  }
  spec$labels$caption <- fp_audit_bar_caption(x, tab, fp_join_captions(
    fp_audit_units(x), if (losses) "marginal loss: a group's error minus its best",
    if (!is.null(spec$labels$caption)) "equal values set side by side", missing))
  attr(pd, "fp_spec") <- spec
  pd
}

fp_plot_audit_downstream <- function(x, type, methods) {
  if (is.null(x$downstream)) fp_abort(sprintf("has no downstream checks: %s", x$downstream_note), "x")
  dn <- x$downstream[x$downstream$method %in% methods, , drop = FALSE]
  binary <- identical(x$outcome$type, "binary")
  acc <- type == "accuracy"
  dn <- dn[is.finite(if (acc) dn$error else dn$dp_gap), , drop = FALSE]  # a method not fitted at a k
  missing <- fp_audit_missing(x, methods, dn$method)
  methods <- intersect(methods, dn$method)
  if (!length(methods)) fp_abort(sprintf("has no downstream values to plot: %s", missing), "methods")
  ref <- x$downstream_reference
  cols <- fp_audit_colours(methods)
  labs <- fp_fit_label(methods)
  mf <- factor(fp_fit_label(dn$method), levels = labs)
  scales <- list(colour = fp_scale("method", labs, unname(cols)), shape = fp_scale("method", labs, fp_shapes(length(labs))))
  learner <- sprintf("%s on the k scores (%s training rows, %s held out)", fp_audit_learner(x),
                     format(x$outcome$n_train, big.mark = ","), format(x$outcome$n_test, big.mark = ","))
  col <- function(v, scale = 1) scale * fp_audit_col(dn, v)
  if (acc) {
    pct <- if (binary) 100 else 1
    v <- if (binary) "accuracy" else "error"
    d <- data.frame(k = dn$k, method = mf, value = pct * dn[[v]], one_class = dn$one_class %in% TRUE,
                    reliable = !dn$reliable %in% FALSE, stringsAsFactors = FALSE)
    d <- fp_audit_bars(x, d, col(paste0(v, "_low"), pct), col(paste0(v, "_high"), pct), dn$reliable)
  } else if (binary) {
    d <- rbind(data.frame(k = dn$k, method = mf, gap = "demographic parity", value = 100 * dn$dp_gap,
                          lower = col("dp_gap_low", 100), upper = col("dp_gap_high", 100)),
               data.frame(k = dn$k, method = mf, gap = "equal opportunity", value = 100 * dn$eo_gap,
                          lower = col("eo_gap_low", 100), upper = col("eo_gap_high", 100)))
    d$gap <- factor(d$gap, levels = c("demographic parity", "equal opportunity"))
    d$one_class <- rep(dn$one_class %in% TRUE, 2L)
    d$reliable <- rep(!dn$reliable %in% FALSE, 2L)
    d <- fp_audit_bars(x, d, d$lower, d$upper, d$reliable)
    scales$linetype <- fp_scale("gap", levels(d$gap), 1:2)
  } else {
    d <- data.frame(k = dn$k, method = mf, gap = "mean prediction", value = dn$dp_gap,
                    one_class = FALSE, reliable = !dn$reliable %in% FALSE)
    d <- fp_audit_bars(x, d, col("dp_gap_low"), col("dp_gap_high"), dn$reliable)
  }
  # how each point is drawn: open where the classifier predicts one class (a gap of 0 by
  # construction), faint where the audit flags the held-out rows too few, filled otherwise
  d$mark <- ifelse(d$one_class & !acc, "one class", ifelse(d$reliable, "estimate", "unreliable"))
  points <- list(fp_layer("point", where = list(mark = "estimate"), cex = 1.1),
                 fp_layer("point", where = list(mark = "unreliable"), cex = 1.1, alpha = 0.45),
                 fp_layer("point", where = list(mark = "one class"), cex = 1.1, hollow = TRUE))
  points <- points[c("estimate", "unreliable", "one class") %in% d$mark]
  layers <- c(list(fp_layer("line")), fp_audit_bar_layer(d), points)
  notes <- c(if (any(d$mark == "one class")) "open: 0 by construction, the classifier predicts one class",
             if (any(!d$reliable)) sprintf("faint: a group has fewer than %d held-out rows, the %s noise (raise test_fraction)",
                                           fp_min_test_rows, if (acc) "values are" else "gaps are"))
  nd <- nlevels(droplevels(mf)) * (if (is.null(d$gap)) 1L else nlevels(droplevels(d$gap)))
  dodge <- if (nd > 1L) list(column = c("method", if (!is.null(d$gap) && nlevels(droplevels(d$gap)) > 1L) "gap"),
                             width = fp_dodge_width(nd))
  if (acc) {
    rv <- if (binary) 100 * ref$accuracy else ref$error
    spec <- fp_spec("k", "value", layers, scales,
                    title = if (binary) "Held-out accuracy" else "Held-out prediction error", subtitle = learner,
                    xlab = "number of components k",
                    ylab = if (binary) "accuracy on held-out rows (%)" else "RMSE on held-out rows (outcome units)",
                    ref = list(fp_ref("h", rv[1L], sprintf("all %d columns", x$d)), fp_ref("h", rv[2L], ref$model[2L])),
                    caption = fp_audit_bar_caption(x, d, fp_join_captions(notes, missing), faint = FALSE),
                    x_integer = TRUE, dodge = dodge)
    return(fp_plot_frame(d, spec, type))
  }
  spec <- fp_spec("k", "value", layers, scales,
                  title = "Fairness of downstream predictions", subtitle = learner,
                  xlab = "number of components k",
                  ylab = if (binary) "gap (percentage points)" else
                    "mean-prediction gap (outcome units)",
                  caption = fp_audit_bar_caption(x, d, fp_join_captions(
                    if (binary) sprintf("model on all %d columns: parity gap %.1f, opportunity gap %.1f points",
                                        x$d, 100 * ref$dp_gap[1L], 100 * ref$eo_gap[1L]) else
                      sprintf("model on all %d columns: %.3g", x$d, ref$dp_gap[1L]),
                    notes, missing), faint = FALSE),
                  x_integer = TRUE, y_zero = TRUE, dodge = dodge)
  fp_plot_frame(d, spec, type)
}

fp_audit_learner <- function(x) {
  if (identical(x$outcome$type, "binary")) "logistic regression" else "least squares"
}

#' @rdname summary.fairproj_audit
#' @order 4
#' @export
plot.fairproj_audit <- function(x, type = NULL, ..., main = NULL, xlab = NULL, ylab = NULL) {
  fp_plot_base(x, type, ..., main = main, xlab = xlab, ylab = ylab)
}

#' @rdname summary.fairproj_audit
#' @order 5
#' @method autoplot fairproj_audit
#' @exportS3Method ggplot2::autoplot fairproj_audit
autoplot.fairproj_audit <- function(object, type = NULL, ..., main = NULL, xlab = NULL, ylab = NULL) {
  fp_plot_gg(object, type, ..., main = main, xlab = xlab, ylab = ylab)
}
