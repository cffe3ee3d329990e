# The plot layer. Every picture of every result class comes from one data function per plot
# type, which returns the tidy frame it draws (one row per drawn value, with the group, the
# fit, k and the value where they apply) and a drawing specification in the attribute
# "fp_spec": the columns on the axes, the layers (lines, points, bars, error bars), the scales
# (colours: Okabe-Ito for groups, another set for methods; point shapes, line types, each as a
# named vector of values), the titles and the reference lines. The base renderer
# (fp_render_base(), R/plot-base.R) and the ggplot2 renderer (fp_render_gg(), R/autoplot.R)
# draw that frame and nothing else, so they cannot drift.
#
# A result class adds its plot types by adding an entry to `fp_plot_types` (the first type is
# the default of plot() and autoplot()) and a method of fp_plot_data() in its methods file
# (R/methods-<class>.R) that builds the frames (for tables of fit x k x group, fp_plot_by_k()
# builds the frame and its specification). This file holds what the classes share.

# Plot types by class. A subclass's entry is appended to its parent's types.
fp_plot_types <- list(
  fair_pca = c("errors", "loss", "scores", "scree", "convergence"),
  fair_css = "path",
  fairproj_pareto_front = "front",
  fairproj_tune = c("criterion", "tradeoff"),
  fair_kpca = c("scores", "scree")
)

# The plot types of an object: those of its classes in fp_plot_types, the most general first.
fp_plot_types_of <- function(x) {
  cl <- intersect(rev(class(x)), names(fp_plot_types))
  unique(unlist(fp_plot_types[cl], use.names = FALSE))
}

# The type asked for, checked against the object's types (the first when NULL).
fp_plot_type <- function(x, type = NULL) {
  types <- fp_plot_types_of(x)
  if (!length(types)) fp_abort(sprintf("of class '%s' has no plot types", class(x)[1L]), "x")
  if (is.null(type)) return(types[1L])
  fp_match_arg(type, types, "type")
}

# The tidy frame of one plot type, with its specification in attr(, "fp_spec"). Methods take
# the type's own arguments (kmax, choices, ...) and reject others.
fp_plot_data <- function(x, type = NULL, ...) UseMethod("fp_plot_data")

#' @exportS3Method fp_plot_data default
fp_plot_data.default <- function(x, type = NULL, ...) {
  fp_abort(sprintf("of class '%s' has no plot types", class(x)[1L]), "x")
}

# Error on arguments a plot type does not take (plot() and autoplot() pass `...` here).
fp_plot_no_dots <- function(dots, type) {
  if (length(dots)) {
    nm <- names(dots)
    if (is.null(nm)) nm <- rep("", length(dots))
    nm[nm == ""] <- "(unnamed)"
    fp_abort(sprintf("has argument(s) that plot type \"%s\" does not take: %s", type,
                     paste(nm, collapse = ", ")), "...")
  }
}

# ---------------------------------------------------------------------------------------------
# Palette, shapes, line types and labels: one place for both renderers.

# Groups and methods never share colours: groups take fp_palette(), everything that is not a
# group (methods, fits, tuning candidates, objectives) fp_palette_methods().

# Colours of n groups: Okabe-Ito without black (colour-blind safe), its yellow (faint on white)
# moved after the other colours, then an HCL palette.
fp_palette <- function(n) {
  if (n <= 8L) return(unname(grDevices::palette.colors(9L, "Okabe-Ito")[c(2:4, 6:8, 5L, 9L)][seq_len(n)]))
  grDevices::hcl.colors(n, "Dark 3")
}

# Colours of n methods or other series that are not groups: ColorBrewer's Dark 2 without its
# teal, orange and yellow (close to Okabe-Ito's bluish green, vermillion and yellow), that is
# purple, magenta, green, brown and grey; beyond five, an HCL palette of dark colours.
fp_palette_methods <- function(n) {
  pal <- unname(grDevices::palette.colors(8L, "Dark 2"))[c(3L, 4L, 5L, 7L, 8L)]
  if (n <= length(pal)) return(pal[seq_len(n)])
  grDevices::hcl.colors(n, "Dark 2")
}

# Point shapes for n series (pch codes, which ggplot2 reads the same way): filled shapes
# first, so that overlapping points of different series stay distinguishable.
fp_shapes <- function(n) rep_len(c(16L, 17L, 15L, 18L, 1L, 2L, 0L, 5L, 6L, 3L, 4L, 8L), n)

# Named scale values for the levels of a factor. `hide`: levels drawn with these values but left
# out of this scale's legend, where another legend shows them (the Pareto front's standard PCA,
# a cross in the status legend, is not also a dot in the colour legend).
fp_scale <- function(column, levels, values, title = column, hide = NULL) {
  list(column = column, values = stats::setNames(rep_len(values, length(levels)), levels), title = title,
       hide = hide)
}

# The label of each method in legends and titles of every plot (fits, audits), print and report
# (the report template's method_name() has the same table): one label per method throughout
# ("min-max", not "minmax").
fp_fit_labels <- c(standard = "standard PCA", minmax = "min-max", mean = "mean matching", pareto = "Pareto",
                   robust = "robust", cfpca = "convex")
fp_fit_label <- function(method) {
  unname(ifelse(method %in% names(fp_fit_labels), fp_fit_labels[method], method))
}

# A drawing specification (see the top of this file).
fp_spec <- function(x, y, layers, scales = list(), title = NULL, subtitle = NULL, xlab = x, ylab = y,
                    caption = NULL, ref = list(), x_breaks = NULL, x_labels = NULL, x_integer = FALSE,
                    y_zero = FALSE, dodge = NULL, log = "", legend = TRUE) {
  list(x = x, y = y, layers = layers, scales = scales,
       labels = list(title = title, subtitle = subtitle, x = xlab, y = ylab, caption = caption),
       ref = ref, x_breaks = x_breaks, x_labels = x_labels, x_integer = x_integer, y_zero = y_zero,
       dodge = dodge, log = log, legend = legend)
}

# One layer: a geom ("line", "point", "col", "errorbar"), the rows it draws (`where`: a named
# list of column = values) and fixed aesthetics that override the scales. `hollow = TRUE`
# draws a point layer's shapes open (fp_hollow()): values that are not estimates.
fp_layer <- function(geom, where = NULL, colour = NULL, fill = NULL, shape = NULL, lty = NULL, lwd = NULL,
                     cex = NULL, alpha = NULL, ymin = NULL, ymax = NULL, hollow = FALSE) {
  list(geom = geom, where = where, colour = colour, fill = fill, shape = shape, lty = lty, lwd = lwd,
       cex = cex, alpha = alpha, ymin = ymin, ymax = ymax, hollow = hollow)
}

# The open shape of each point shape (pch): circle, triangle, square, diamond; open shapes
# and lines stay as they are.
fp_hollow <- function(pch) {
  open <- c(`16` = 1L, `19` = 1L, `20` = 1L, `17` = 2L, `15` = 0L, `18` = 5L)
  out <- unname(open[as.character(pch)])
  ifelse(is.na(out), pch, out)
}

# A reference line: horizontal (`h`) or vertical (`v`) at `at`, with a short label. Both
# renderers write the label of a horizontal line in the right margin, beside the line's end
# (fp_ref_label_at()), where it can cover no data; that of a vertical line at its top.
fp_ref <- function(axis, at, label = NULL, lty = 3L) list(axis = axis, at = at, label = label, lty = lty)

# The labels of horizontal reference lines that the axis can show: list(at, label), one entry
# per line drawn (a reference with several values labels each), finite values only (positive
# on a log axis).
fp_ref_h_labels <- function(spec) {
  h <- Filter(function(r) r$axis == "h" && !is.null(r$label), spec$ref)
  at <- as.numeric(unlist(lapply(h, `[[`, "at")))
  label <- unlist(lapply(h, function(r) rep_len(as.character(r$label), length(r$at))))
  ok <- is.finite(at) & (!grepl("y", spec$log) | at > 0)
  list(at = at[ok], label = label[ok])
}

# The heights of the labels of horizontal reference lines at `at`, at least `sep` apart and
# within `lim` (all in axis units: log10 on a log axis). Labels closer than `sep` form a run
# centred on their lines' mean, in their lines' order; a label alone stays at its line.
fp_ref_label_at <- function(at, sep, lim) {
  o <- order(at)
  a <- at[o]
  runs <- as.list(seq_along(a))
  place <- function(r) {
    y <- mean(a[r]) + (seq_along(r) - (length(r) + 1) / 2) * sep
    lo <- lim[1] + sep / 2 - y[1L]
    hi <- lim[2] - sep / 2 - y[length(y)]
    y + if (lo > 0) lo else if (hi < 0) max(hi, lo) else 0
  }
  repeat {
    y <- lapply(runs, place)
    close <- which(vapply(seq_along(runs)[-1L], function(i) y[[i]][1L] - y[[i - 1L]][length(y[[i - 1L]])] < sep - 1e-9,
                          logical(1)))
    if (!length(close)) break
    i <- close[1L] + 1L
    runs[[i - 1L]] <- c(runs[[i - 1L]], runs[[i]])
    runs[[i]] <- NULL
  }
  out <- numeric(length(a))
  out[o] <- unlist(y)
  out
}

fp_plot_frame <- function(data, spec, type) {
  rownames(data) <- NULL
  attr(data, "fp_spec") <- spec
  attr(data, "fp_type") <- type
  class(data) <- c("fairproj_plot_data", "data.frame")
  data
}

# The rows a layer draws, with the drawing columns the renderers share: `.x` (x, offset
# sideways by the dodge column so that equal values of different series stay visible),
# `.series` (one line per series: the interaction of the mapped columns).
fp_plot_rows <- function(data, spec, layer = NULL) {
  d <- as.data.frame(unclass(data), stringsAsFactors = FALSE)
  d$.x <- d[[spec$x]]
  if (!is.null(spec$dodge)) {
    # several columns: one position per combination present, the first column outermost (the
    # series of a method side by side, then the next method's)
    key <- fp_dodge_key(d, spec$dodge$column)
    lev <- levels(key)
    n <- length(lev)
    if (n > 1L) {
      off <- (seq_len(n) - (n + 1) / 2) * spec$dodge$width / n
      d$.x <- d$.x + off[match(as.character(key), lev)]
    }
  }
  cols <- unique(unlist(lapply(spec$scales, `[[`, "column")))
  d$.series <- if (length(cols)) interaction(d[cols], drop = TRUE, lex.order = TRUE) else factor("all")
  if (!is.null(layer$where)) {
    keep <- Reduce(`&`, lapply(names(layer$where), function(v) as.character(d[[v]]) %in% layer$where[[v]]))
    d <- d[keep, , drop = FALSE]
  }
  d <- d[is.finite(d[[spec$y]]) & is.finite(d$.x), , drop = FALSE]
  d[order(d$.series, d$.x), , drop = FALSE]
}

# The dodge position of each row: the combination of the dodge columns present in the frame.
fp_dodge_key <- function(d, columns) {
  if (length(columns) == 1L) return(factor(d[[columns]]))
  interaction(lapply(d[columns], factor), drop = TRUE, lex.order = TRUE)
}

# The width over which n dodged series spread at one x position (one unit apart): wider with
# more series, so that their points and error bars stay apart, never reaching the next position.
fp_dodge_width <- function(n) min(0.6, 0.12 * n)

# The x range a dodged panel covers at least: one unit around a single x value (a plot at one
# k), so that points offset by a fixed fraction of a unit sit near the middle of the panel
# rather than at its two edges. NULL when the x values span a range of their own.
fp_dodge_span <- function(x, spec) {
  x <- x[is.finite(x)]
  if (is.null(spec$dodge) || !length(x) || diff(range(x)) > 0) return(NULL)
  x[1L] + c(-0.5, 0.5)
}

# Integer axis breaks covering a range (counts: k, columns, iterations).
fp_int_breaks <- function(r) {
  b <- pretty(r)
  b <- unique(round(b))
  b[b >= floor(r[1]) & b <= ceiling(r[2])]
}

# ---------------------------------------------------------------------------------------------
# Frames shared by several classes: values by k (fits, audits), scores by group (fair_pca,
# fair_kpca).

# A frame of values by k for several fits and groups (columns k, group, fit, value), drawn as
# one line per group and fit: colour and shape by group, line type by fit, points offset
# sideways by fit and group at every k (intervals of different fits would overlap), with a
# caption where groups have equal values (min-max equalises the losses).
fp_plot_by_k <- function(tab, type, title, ylab, subtitle = NULL, xlab = "number of components k",
                         ref = list(), caption = NULL) {
  tab$group <- factor(tab$group, levels = unique(as.character(tab$group)))
  tab$fit <- factor(tab$fit, levels = unique(as.character(tab$fit)))
  ng <- nlevels(tab$group)
  nf <- nlevels(tab$fit)
  key <- paste(tab$fit, tab$k)
  coincide <- any(vapply(split(tab$value, key), function(v) {
    length(v) > 1L && diff(range(v)) <= 1e-3 * max(abs(tab$value), .Machine$double.xmin)
  }, logical(1)))
  # one fit: colour and shape by group; several: colour by group, shape and line type by fit
  # (with one k there are no lines, and the shapes tell the fits apart)
  scales <- list(colour = fp_scale("group", levels(tab$group), fp_palette(ng)),
                 shape = if (nf > 1L) fp_scale("fit", levels(tab$fit), fp_shapes(nf)) else
                   fp_scale("group", levels(tab$group), fp_shapes(ng)))
  if (nf > 1L) {
    scales$shape$title <- "method"
    scales$linetype <- fp_scale("fit", levels(tab$fit), seq_len(nf), "method")
  }
  dodge <- c(if (nf > 1L) "fit", if (ng > 1L) "group")
  spec <- fp_spec("k", "value", list(fp_layer("line"), fp_layer("point", cex = 1.1)), scales,
                  title = title, subtitle = subtitle, xlab = xlab, ylab = ylab,
                  caption = fp_join_captions(caption, if (coincide && ng > 1L) "groups with equal values: points set side by side"),
                  ref = ref, x_integer = TRUE, y_zero = TRUE,
                  dodge = if (length(dodge)) list(column = dodge, width = fp_dodge_width(ng * nf)))
  fp_plot_frame(tab[c("k", "group", "fit", "value")], spec, type)
}

# Captions joined by "; ", the first capitalised; NULL when there are none.
fp_join_captions <- function(...) {
  cap <- c(...)
  if (!length(cap)) return(NULL)
  cap <- paste(cap, collapse = "; ")
  paste0(toupper(substr(cap, 1L, 1L)), substring(cap, 2L))
}

# The training scores of two components with the group of each row.
# `arg`: the name of the fit in the caller (plot(), biplot() and tidy() call it `x`).
fp_scores_by_group <- function(object, choices = 1:2, arg = "x") {
  if (is.null(object[["x"]])) fp_abort("has no training scores: refit with retx = TRUE from the rows", arg)
  r <- ncol(object[["x"]])
  if (length(choices) != 2L || !all(choices %in% seq_len(r)) || choices[1L] == choices[2L]) {
    if (r < 2L) fp_abort("has one component: a score plot needs k >= 2", arg)
    fp_abort(sprintf("must be two different component numbers between 1 and %d", r), "choices")
  }
  keep <- stats::complete.cases(object[["x"]])  # rows padded with NA by na.exclude
  g <- object$train_group
  if (is.null(g)) g <- factor(rep("all rows", sum(keep)))
  kernel <- inherits(object, "fair_kpca")
  pct <- 100 * (if (kernel) object$eigenvalues else object$sdev^2) / object$totalvar
  lab <- function(j) {
    if (j <= length(pct)) sprintf("%sPC%d (%.1f%% of the variance%s)", if (kernel) "K" else "", j, pct[j],
                                  if (kernel) " in feature space" else "") else sprintf("component %d", j)
  }
  rn <- rownames(object[["x"]])
  data.frame(row = if (is.null(rn)) which(keep) else rn[keep], x = object[["x"]][keep, choices[1]],
             y = object[["x"]][keep, choices[2]], group = g, xlab = lab(choices[1]), ylab = lab(choices[2]),
             stringsAsFactors = FALSE)
}

fp_plot_scores <- function(x, choices, label = fp_fit_label(x$method)) {
  sc <- fp_scores_by_group(x, choices)
  n <- nrow(sc)
  ng <- nlevels(sc$group)
  d <- data.frame(row = sc$row, group = sc$group, fit = label, x = sc$x, y = sc$y,
                  stringsAsFactors = FALSE)
  spec <- fp_spec("x", "y", list(fp_layer("point", cex = if (n > 1000) 0.45 else 0.75,
                                          alpha = if (n > 1000) 0.5 else 0.85)),
                  list(colour = fp_scale("group", levels(sc$group), fp_palette(ng)),
                       shape = fp_scale("group", levels(sc$group), fp_shapes(ng))),
                  title = "Scores by group", subtitle = sprintf("fit: %s, %s rows", label,
                                                                format(n, big.mark = ",")),
                  xlab = sc$xlab[1], ylab = sc$ylab[1])
  fp_plot_frame(d, spec, "scores")
}

# ---------------------------------------------------------------------------------------------
# What both renderers and tidy() share.

# The labels of a specification, with the user's title and axis labels where given (checked
# here, before either renderer draws).
fp_plot_labels <- function(spec, main = NULL, xlab = NULL, ylab = NULL) {
  main <- fp_check_label(main, "main")
  xlab <- fp_check_label(xlab, "xlab")
  ylab <- fp_check_label(ylab, "ylab")
  lab <- spec$labels
  if (!is.null(main)) lab$title <- main
  if (!is.null(xlab)) lab$x <- xlab
  if (!is.null(ylab)) lab$y <- ylab
  lab
}

# A label wrapped into the lines strwrap() gives at `width` characters, made about equally long
# (a title's last word is not left alone on a line, and "[0, 1]" is not split after "[0,").
fp_wrap_even <- function(s, width) {
  lines <- strwrap(s, width)
  n <- length(lines)
  if (n < 2L) return(lines)
  for (w in seq(min(ceiling(nchar(s) / n), width), width)) {
    even <- strwrap(s, w)
    if (length(even) <= n) return(even)
  }
  lines
}

#' @export
print.fairproj_plot_data <- function(x, ...) {
  spec <- attr(x, "fp_spec")
  cat(sprintf("<plot data: %s> %s\n", attr(x, "fp_type"), spec$labels$title))
  y <- x
  attr(y, "fp_spec") <- NULL
  attr(y, "fp_type") <- NULL
  class(y) <- "data.frame"
  print(y, ...)
  invisible(x)
}

# The frame without its drawing specification, as a tibble when tibble is installed (tidy()).
fp_plot_tidy <- function(x, type = NULL, ...) {
  pd <- fp_plot_data(x, type, ...)
  attr(pd, "fp_spec") <- NULL
  attr(pd, "fp_type") <- NULL
  class(pd) <- "data.frame"
  fp_tibble(pd)
}

# A tibble when the tibble package is installed (broom's convention), else the data.frame.
fp_tibble <- function(d) {
  if (requireNamespace("tibble", quietly = TRUE)) tibble::as_tibble(d) else d
}

# ---------------------------------------------------------------------------------------------
# Fairness audits (fair_audit()): their plot types; R/audit-plot.R builds their data.

fp_plot_types[["fairproj_audit"]] <- c("price", "losses", "errors", "downstream", "accuracy")
