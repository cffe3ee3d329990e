# The plot layer. Every picture of every result class comes from one data function per plot
# type, which returns the tidy frame it draws (one row per drawn value, with the group, the
# fit, k and the value where they apply) and a drawing specification in the attribute
# "fp_spec": the columns on the axes, the layers (lines, points, bars, error bars), the scales
# (colours: Okabe-Ito for groups, another set for methods; point shapes, line types, each as a
# named vector of values), the titles and the reference lines. The base renderer
# (fp_render_base()) and the ggplot2 renderer (fp_render_gg(), R/autoplot.R) draw that frame
# and nothing else, so they cannot drift.
#
# A result class adds its plot types by adding an entry to `fp_plot_types` (the first type is
# the default of plot() and autoplot()) and a method of fp_plot_data() that builds the frames
# (for tables of fit x k x group, fp_plot_by_k() builds the frame and its specification).

# Plot types by class. A subclass's entry is appended to its parent's types.
fp_plot_types <- list(
  fair_pca = c("errors", "loss", "scores", "scree", "convergence"),
  fair_css = "path",
  fairproj_pareto_front = "front",
  fairproj_tune = c("criterion", "tradeoff")
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

# Colours of n groups: Okabe-Ito without black (colour-blind safe), then an HCL palette.
fp_palette <- function(n) {
  if (n <= 8L) return(unname(grDevices::palette.colors(n + 1L, "Okabe-Ito")[-1L]))
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

# Named scale values for the levels of a factor.
fp_scale <- function(column, levels, values, title = column) {
  list(column = column, values = stats::setNames(rep_len(values, length(levels)), levels), title = title)
}

# The label of a fit in legends and titles.
fp_fit_label <- function(method) if (identical(method, "standard")) "standard PCA" else method

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
# list of column = values) and fixed aesthetics that override the scales.
fp_layer <- function(geom, where = NULL, colour = NULL, fill = NULL, shape = NULL, lty = NULL, lwd = NULL,
                     cex = NULL, alpha = NULL, ymin = NULL, ymax = NULL) {
  list(geom = geom, where = where, colour = colour, fill = fill, shape = shape, lty = lty, lwd = lwd,
       cex = cex, alpha = alpha, ymin = ymin, ymax = ymax)
}

# A reference line: horizontal (`h`) or vertical (`v`) at `at`, with a short label.
fp_ref <- function(axis, at, label = NULL, lty = 3L) list(axis = axis, at = at, label = label, lty = lty)

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
    lev <- levels(factor(d[[spec$dodge$column]]))
    n <- length(lev)
    if (n > 1L) {
      off <- (seq_len(n) - (n + 1) / 2) * spec$dodge$width / n
      d$.x <- d$.x + off[match(as.character(d[[spec$dodge$column]]), lev)]
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
# Fits of fair_pca(): errors, loss, scores, scree, convergence.

#' @exportS3Method fp_plot_data fair_pca
fp_plot_data.fair_pca <- function(x, type = NULL, ..., kmax = NULL, choices = 1:2, quiet = FALSE) {
  type <- fp_plot_type(x, type)
  fp_plot_no_dots(list(...), type)
  switch(type,
         errors = , loss = fp_plot_errors(x, type, kmax, quiet),
         scores = fp_plot_scores(x, choices),
         scree = fp_plot_scree(x, kmax),
         convergence = fp_plot_convergence(x))
}

# A frame of values by k for several fits and groups (columns k, group, fit, value), drawn as
# one line per group and fit: colour and shape by group, line type by fit, points offset
# sideways by group where groups have equal values (min-max equalises the losses).
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
  scales <- list(colour = fp_scale("group", levels(tab$group), fp_palette(ng)),
                 shape = fp_scale("group", levels(tab$group), fp_shapes(ng)))
  if (nf > 1L) scales$linetype <- fp_scale("fit", levels(tab$fit), seq_len(nf))
  spec <- fp_spec("k", "value", list(fp_layer("line"), fp_layer("point", cex = 1.1)), scales,
                  title = title, subtitle = subtitle, xlab = xlab, ylab = ylab,
                  caption = fp_join_captions(caption, if (coincide && ng > 1L) "groups with equal values: points set side by side"),
                  ref = ref, x_integer = TRUE, y_zero = TRUE,
                  dodge = if (ng > 1L) list(column = "group", width = 0.3))
  fp_plot_frame(tab[c("k", "group", "fit", "value")], spec, type)
}

# Captions joined by "; ", the first capitalised; NULL when there are none.
fp_join_captions <- function(...) {
  cap <- c(...)
  if (!length(cap)) return(NULL)
  cap <- paste(cap, collapse = "; ")
  paste0(toupper(substr(cap, 1L, 1L)), substring(cap, 2L))
}

fp_plot_errors <- function(x, type, kmax, quiet = FALSE) {
  tab <- fp_errors_by_k(x, type, kmax, quiet = quiet)
  lab <- fp_fit_label(x$method)
  std <- identical(x$method, "standard")
  long <- data.frame(k = tab$k, group = tab$group, fit = lab, value = tab$fair, stringsAsFactors = FALSE)
  if (!std) {
    long <- rbind(long, data.frame(k = tab$k, group = tab$group, fit = "standard PCA", value = tab$standard,
                                   stringsAsFactors = FALSE))
  }
  long$group <- factor(long$group, levels = x$groups$group)
  errors <- type == "errors"
  fp_plot_by_k(long, type,
               title = if (errors) "Reconstruction error by group" else "Marginal loss by group",
               subtitle = if (std) "standard PCA" else sprintf("%s (solid) and standard PCA (dashed)", lab),
               ylab = if (errors) "average squared error" else "marginal loss",
               caption = if (!errors) "Marginal loss: a group's error minus its best rank-k error")
}

# Per-group error or loss for k = 1, ..., kmax, refitting from the stored moments; says so.
# Methods that need the rows (no refit from moments) give only the fitted k.
fp_errors_by_k <- function(x, type = "errors", kmax = NULL, quiet = FALSE) {
  if (is.null(x$moments)) fp_abort("kept no moments: refit with keep_moments = TRUE", "x")
  d <- nrow(x$rotation)
  if (is.null(kmax)) kmax <- min(d, max(x$k + 3L, 10L))
  kmax <- fp_check_count(kmax, 1L, d, "kmax")
  ks <- seq_len(kmax)
  if (!quiet && kmax > 1L) {
    message(sprintf("Refitting method \"%s\" for k = %s from the stored moments (set kmax to refit fewer)",
                    x$method, paste(setdiff(ks, x$k), collapse = ", ")))
  }
  col <- if (type == "errors") "error" else "loss"
  warned <- list()
  rows <- lapply(ks, function(kk) {
    f <- if (kk == x$k) x else withCallingHandlers(tryCatch(
      do.call(fair_pca, c(list(x$moments, k = kk, method = x$method, center = x$center,
                               scale. = x$scale, keep_moments = FALSE), x$args)),
      fairproj_error = function(e) NULL),
      warning = function(w) {
        warned[[length(warned) + 1L]] <<- list(k = kk, w = w)
        invokeRestart("muffleWarning")
      })
    if (is.null(f)) return(NULL)
    data.frame(k = kk, group = f$group_stats$group, fair = f$group_stats[[col]],
               standard = f$group_stats_standard[[col]], stringsAsFactors = FALSE)
  })
  # the refits' warnings once per class (a plot over ten k would repeat each ten times), naming
  # the k they concern
  cls <- vapply(warned, function(v) class(v$w)[1L], "")
  for (cl in unique(cls)) {
    sel <- warned[cls == cl]
    w <- sel[[1L]]$w
    warning(warningCondition(sprintf("refits at k = %s: %s%s", paste(vapply(sel, `[[`, 0, "k"), collapse = ", "),
                                     conditionMessage(w), if (length(sel) > 1L) " [first shown]" else ""),
                             class = setdiff(class(w), c("warning", "condition"))))
  }
  do.call(rbind, rows)
}

# The training scores of two components with the group of each row.
fp_scores_by_group <- function(object, choices = 1:2) {
  if (is.null(object[["x"]])) fp_abort("has no training scores: refit with retx = TRUE from the rows", "object")
  r <- ncol(object[["x"]])
  if (length(choices) != 2L || !all(choices %in% seq_len(r))) {
    if (r < 2L) fp_abort("has one component: a score plot needs k >= 2", "object")
    fp_abort(sprintf("must be two component numbers between 1 and %d", r), "choices")
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

fp_plot_scree <- function(x, kmax) {
  if (is.null(x$moments)) fp_abort("kept no moments: refit with keep_moments = TRUE", "x")
  d <- nrow(x$rotation)
  if (is.null(kmax)) kmax <- min(d, max(x$k + 3L, 10L))
  kmax <- fp_check_count(kmax, 1L, d, "kmax")
  prep <- fp_prepare(x$moments, if (isFALSE(x$center)) FALSE else x$center,
                     if (isFALSE(x$scale)) FALSE else x$scale)
  ev <- pmax(fp_eig_top(prep$C, kmax)$values, 0)
  lab <- fp_fit_label(x$method)
  std <- identical(x$method, "standard")
  tab <- data.frame(k = seq_len(kmax), group = "all rows", fit = "standard PCA", value = ev,
                    percent = 100 * ev / x$totalvar, stringsAsFactors = FALSE)
  if (!std) {
    fv <- x$sdev[seq_len(min(length(x$sdev), kmax))]^2
    tab <- rbind(tab, data.frame(k = seq_along(fv), group = "all rows", fit = lab, value = fv,
                                 percent = 100 * fv / x$totalvar, stringsAsFactors = FALSE))
  }
  tab$fit <- factor(tab$fit, levels = unique(c("standard PCA", lab)))
  layers <- list(fp_layer("col", where = list(fit = "standard PCA"), fill = "grey80", colour = "grey35"))
  if (!std) layers <- c(layers, list(fp_layer("point", where = list(fit = lab), colour = fp_palette_methods(1),
                                              shape = 16L, cex = 1.3)))
  spec <- fp_spec("k", "value", layers, title = "Scree plot",
                  subtitle = if (std) "variance of each principal component" else
                    sprintf("bars: standard PCA; points: the %s fit's components", lab),
                  xlab = "component", ylab = "variance", x_integer = TRUE, y_zero = TRUE, legend = FALSE)
  fp_plot_frame(tab, spec, "scree")
}

fp_history_objective <- function(object) {
  h <- object$history
  if (is.null(h)) fp_abort(sprintf("has no convergence history (method \"%s\" is not iterative)", object$method), "x")
  if (!NROW(h)) {
    fp_abort(sprintf("has no convergence history (method \"%s\" took no iterations: it was solved directly)",
                     object$method), "x")
  }
  if (is.data.frame(h) || is.matrix(h)) as.matrix(h)[, if ("objective" %in% colnames(h)) "objective" else 1L] else h
}

# The objective along the iterations; for Pareto fits every objective (beyond 8 disparities,
# their largest), each rescaled to [0, 1] over the run (they have different units).
fp_plot_convergence <- function(x) {
  lab <- fp_fit_label(x$method)
  y <- fp_history_objective(x)
  # a line needs two iterations: a run of one is drawn as a point
  layers <- list(fp_layer("line", lwd = 1.5))
  if (length(y) < 2L) layers <- c(layers, list(fp_layer("point")))
  if (inherits(x, "fair_pca_pareto")) {
    h <- x$history
    cols <- c("objective", names(x$objectives)[-1L])
    Y <- as.matrix(h[, cols, drop = FALSE])
    series <- c("total loss", cols[-1L])
    if (length(cols) > 9L) {
      # m groups give m(m - 1)/2 disparities, too many lines (and legend entries) to tell apart:
      # their largest along the run
      Y <- cbind(Y[, 1L], apply(Y[, -1L, drop = FALSE], 1L, max))
      series <- c("total loss", "largest disparity")
    }
    lo <- apply(Y, 2L, min, na.rm = TRUE)
    rg <- apply(Y, 2L, max, na.rm = TRUE) - lo
    rg[!(rg > 0)] <- 1
    Ys <- sweep(sweep(Y, 2L, lo, `-`), 2L, rg, `/`)
    d <- data.frame(iteration = rep(h$iteration, length(series)), series = factor(rep(series, each = nrow(h)), levels = series),
                    fit = lab, value = as.vector(Ys), stringsAsFactors = FALSE)
    spec <- fp_spec("iteration", "value", layers,
                    list(colour = fp_scale("series", series, c("black", fp_palette_methods(length(series) - 1L)), "objective")),
                    title = "Convergence (Pareto fair PCA)", subtitle = "each objective rescaled to [0, 1] over the run",
                    xlab = "iteration", ylab = "objective, rescaled to [0, 1]", x_integer = TRUE)
    return(fp_plot_frame(d, spec, "convergence"))
  }
  h <- x$history
  it <- if (is.data.frame(h) && "iteration" %in% names(h)) h$iteration else seq_along(y)
  d <- data.frame(iteration = it, series = "objective", fit = lab, value = as.numeric(y), stringsAsFactors = FALSE)
  layers <- lapply(layers, function(l) replace(l, "colour", list("black")))
  spec <- fp_spec("iteration", "value", layers,
                  title = sprintf("Convergence (%s)", lab),
                  subtitle = if (!is.null(x$converged)) if (isTRUE(x$converged)) "converged" else "not converged",
                  xlab = "iteration", ylab = "objective", x_integer = TRUE, legend = FALSE)
  fp_plot_frame(d, spec, "convergence")
}

# ---------------------------------------------------------------------------------------------
# Column subset selections: the loss of each prefix of the selection.

#' @exportS3Method fp_plot_data fair_css
fp_plot_data.fair_css <- function(x, type = NULL, ...) {
  type <- fp_plot_type(x, type)
  fp_plot_no_dots(list(...), type)
  p <- x$path
  lev <- as.character(x$groups$group)
  j <- p$columns
  top <- "MinMaxLoss (largest)"
  d <- rbind(data.frame(k = rep(j, length(lev)), group = rep(lev, each = length(j)),
                        value = as.vector(as.matrix(p[, lev, drop = FALSE])), stringsAsFactors = FALSE),
             data.frame(k = j, group = top, value = p$loss, stringsAsFactors = FALSE))
  d$group <- factor(d$group, levels = c(lev, top))
  d$fit <- x$method
  d$column <- x$column_names[d$k]
  ng <- length(lev)
  cols <- c(fp_palette(ng), "grey60")
  shapes <- c(fp_shapes(ng), 32L)  # pch 32 (a blank): the band has no points, in the legend too
  names_ok <- length(j) <= 30L
  spec <- fp_spec("k", "value",
                  list(fp_layer("line", where = list(group = top), lwd = 6, alpha = 0.5),
                       fp_layer("line", where = list(group = lev)), fp_layer("point", where = list(group = lev))),
                  list(colour = fp_scale("group", c(lev, top), cols), shape = fp_scale("group", c(lev, top), shapes)),
                  title = sprintf("Fair column selection (%s), k = %d", x$method, x$k),
                  subtitle = "loss of the first j selected columns, per group",
                  xlab = if (names_ok) "column added at each step" else "number of selected columns j",
                  ylab = "error / group's best rank-k error",
                  ref = list(fp_ref("h", 1, "best rank-k error"), fp_ref("v", x$k, sprintf("k = %d", x$k))),
                  x_breaks = if (names_ok) j, x_labels = if (names_ok) paste0(j, ": ", x$column_names[j]),
                  x_integer = TRUE, y_zero = TRUE)
  fp_plot_frame(d[c("k", "column", "group", "fit", "value")], spec, type)
}

# ---------------------------------------------------------------------------------------------
# Pareto fronts: total loss relative to standard PCA against disparity.

#' @exportS3Method fp_plot_data fairproj_pareto_front
fp_plot_data.fairproj_pareto_front <- function(x, type = NULL, ...) {
  type <- fp_plot_type(x, type)
  fp_plot_no_dots(list(...), type)
  tab <- x$table
  s_tot <- x$standard[["total"]]
  s_dis <- x$standard[["disparity"]]
  rel <- is.finite(s_tot) && s_tot > 0
  start <- ifelse(tab$start == "pca", "from standard PCA", "from a random start")
  d <- data.frame(fit = paste0("fit ", seq_len(nrow(tab))), start = start,
                  status = ifelse(tab$dominated, "dominated", "non-dominated"), k = x$k,
                  disparity = tab$disparity, total = tab$total,
                  value = if (rel) 100 * (tab$total / s_tot - 1) else tab$total,
                  converged = tab$converged, stringsAsFactors = FALSE)
  if (is.finite(s_dis) && (rel || is.finite(s_tot))) {
    d <- rbind(d, data.frame(fit = "standard PCA", start = "standard PCA", status = "standard PCA", k = x$k,
                             disparity = s_dis, total = s_tot, value = if (rel) 0 else s_tot,
                             converged = NA, stringsAsFactors = FALSE))
  }
  st <- c("from standard PCA", "from a random start", "standard PCA")
  ss <- c("non-dominated", "dominated", "standard PCA")
  d$start <- factor(d$start, levels = st)
  d$status <- factor(d$status, levels = ss)
  span <- diff(range(d$value[d$fit != "standard PCA"]))
  caption <- if (rel) sprintf("Total losses span %s%% of standard PCA's total loss (%s)",
                              format(signif(span, 2)), format(signif(s_tot, 4))) else
    "Total loss of standard PCA not available: absolute totals"
  nconv <- sum(!tab$converged)
  if (nconv) caption <- paste0(caption, sprintf("; %d fit(s) did not converge", nconv))
  # fits that coincide (within 0.5% of each axis's range) hide each other's markers: each point
  # counts the fits drawn there, and the caption says how many coincide
  cell <- function(v) {
    r <- diff(range(v, finite = TRUE))
    if (!(r > 0)) r <- max(abs(v), 1, na.rm = TRUE)
    round(v / (0.005 * r))
  }
  key <- paste(cell(d$disparity), cell(d$value))
  d$overlap <- as.integer(stats::ave(seq_along(key), key, FUN = length))
  hidden <- sum(d$overlap > 1L & d$fit != "standard PCA")
  if (hidden) {
    caption <- paste0(caption, sprintf("; %d fits coincide at %d point(s), their markers drawn over each other (see the table)",
                                       hidden, length(unique(key[d$overlap > 1L]))))
  }
  spec <- fp_spec("disparity", "value", list(fp_layer("point", cex = 1.4)),
                  list(colour = fp_scale("start", st, c(fp_palette_methods(2), "black"), "fit"),
                       shape = fp_scale("status", ss, c(16L, 1L, 4L), "status")),
                  title = sprintf("Pareto fair PCA, k = %d", x$k),
                  subtitle = sprintf("%d fits; standard PCA for reference", nrow(tab)),
                  xlab = "disparity (largest |E_g - E_h|)",
                  ylab = if (rel) "total loss, % above standard PCA" else "total reconstruction loss",
                  caption = caption)
  fp_plot_frame(d, spec, type)
}

# ---------------------------------------------------------------------------------------------
# Tuning results: mean held-out criterion per candidate, and the ARE / ABDiff trade-off.

# The smallest gap between distinct positions (1 when there is one position): series dodged
# within 0.4 of it keep their error bars apart and never reach the next position's.
fp_min_gap <- function(pos) {
  u <- sort(unique(pos))
  if (length(u) < 2L) 1 else min(diff(u))
}

#' @exportS3Method fp_plot_data fairproj_tune
fp_plot_data.fairproj_tune <- function(x, type = NULL, ...) {
  type <- fp_plot_type(x, type)
  fp_plot_no_dots(list(...), type)
  tab <- x$table
  pars <- setdiff(names(tab), c("ARE", "ABDiff", "max_loss", "criterion", "se"))
  best <- which.min(tab$criterion)
  # the x axis: the numeric parameter with the most values (the first on ties), so that the
  # fewest series share a position; the others name the series
  nval <- vapply(pars, function(p) if (is.numeric(tab[[p]])) length(unique(tab[[p]])) else 0L, integer(1))
  xpar <- if (any(nval > 1L)) pars[which.max(nval)] else NULL
  others <- setdiff(pars, xpar)
  others <- others[vapply(others, function(p) length(unique(tab[[p]])) > 1L, logical(1))]
  series <- if (length(others)) {
    do.call(paste, c(lapply(others, function(p) paste(p, "=", format(tab[[p]]))), sep = ", "))
  } else "all candidates"
  d <- data.frame(candidate = seq_len(nrow(tab)), tab[pars], check.names = FALSE, stringsAsFactors = FALSE)
  d$series <- factor(series, levels = unique(series))
  d$position <- if (is.null(xpar)) d$candidate else tab[[xpar]]
  d$fit <- x$method
  d$k <- x$model$k
  d$value <- tab$criterion
  d$se <- tab$se
  d$lower <- tab$criterion - tab$se
  d$upper <- tab$criterion + tab$se
  d$ARE <- tab$ARE
  d$ABDiff <- tab$ABDiff
  d$chosen <- d$candidate == best
  ns <- nlevels(d$series)
  scales <- list(colour = fp_scale("series", levels(d$series), if (ns > 1L) fp_palette_methods(ns) else "black",
                                   paste(others, collapse = ", ")),
                 shape = fp_scale("series", levels(d$series), fp_shapes(ns), paste(others, collapse = ", ")))
  chosen <- sprintf("chosen: %s", paste(names(x$best), vapply(x$best, format, character(1)), sep = " = ",
                                        collapse = ", "))
  pos <- d$position
  logx <- if (!is.null(xpar) && all(pos > 0) && max(pos) / min(pos) >= 100) "x" else ""
  ring <- fp_layer("point", where = list(chosen = "TRUE"), colour = "black", shape = 1L, cex = 2.6)
  if (type == "criterion") {
    spec <- fp_spec("position", "value",
                    list(fp_layer("errorbar", ymin = "lower", ymax = "upper", alpha = 0.6),
                         fp_layer("line"), fp_layer("point", cex = 1.1), ring),
                    if (ns > 1L) scales else list(),
                    title = sprintf("Cross-validated tuning (%s)", fp_fit_label(x$method)),
                    subtitle = sprintf("%s; ring: %s", x$criterion, chosen),
                    xlab = if (is.null(xpar)) "candidate" else xpar,
                    ylab = sprintf("mean held-out %s (+/- 1 se)", x$criterion),
                    x_integer = is.null(xpar), log = logx, legend = ns > 1L,
                    dodge = if (ns > 1L && logx == "") list(column = "series", width = 0.4 * fp_min_gap(pos)))
  } else {
    spec <- fp_spec("ABDiff", "ARE", list(fp_layer("point", cex = 1.2), ring), if (ns > 1L) scales else list(),
                    title = sprintf("Held-out trade-off (%s)", fp_fit_label(x$method)),
                    subtitle = sprintf("one point per candidate; ring: %s", chosen),
                    xlab = "ABDiff (gap between the groups' errors)", ylab = "ARE (average reconstruction error)",
                    legend = ns > 1L)
  }
  d$chosen <- as.character(d$chosen)
  fp_plot_frame(d, spec, type)
}

# ---------------------------------------------------------------------------------------------
# The base-graphics renderer.

# Wrap a title to the width available (inches) at a character expansion, as lines.
fp_wrap_to <- function(s, width_in, cex, font = 1) {
  if (is.null(s) || !nzchar(s)) return(character(0))
  if (graphics::strwidth(s, units = "inches", cex = cex, font = font) <= width_in) return(s)
  # characters differ in width: wrap 10% short of the width so that no line runs over it
  chars <- max(10L, floor(0.9 * nchar(s) * width_in / graphics::strwidth(s, units = "inches", cex = cex, font = font)))
  strwrap(s, chars)
}

# Legend blocks of a specification: one per mapped column (colour and shape of the same
# column share a block), with the keys the layers draw.
fp_legend_blocks <- function(data, spec) {
  if (!isTRUE(spec$legend) || !length(spec$scales)) return(list())
  cols <- unique(vapply(spec$scales, `[[`, character(1), "column"))
  geoms <- vapply(spec$layers, `[[`, character(1), "geom")
  shape_elsewhere <- !is.null(spec$scales$shape)
  lapply(cols, function(cl) {
    present <- unique(as.character(data[[cl]]))
    sc <- spec$scales[vapply(spec$scales, function(s) s$column == cl, logical(1))]
    lev <- names(sc[[1]]$values)
    lev <- lev[lev %in% present]
    get <- function(a, default) if (!is.null(sc[[a]])) unname(sc[[a]]$values[lev]) else rep(default, length(lev))
    # the line width of each level: that of the line layer drawing it
    lwd <- vapply(lev, function(v) {
      w <- NA_real_
      for (l in spec$layers) {
        if (l$geom != "line") next
        if (!is.null(l$where[[cl]]) && !v %in% l$where[[cl]]) next
        w <- if (is.null(l$lwd)) 1.5 else min(l$lwd, 5)
        break
      }
      w
    }, numeric(1))
    # a block without shapes shows a plain point when points are its only key
    plain <- any(geoms == "point") && (!shape_elsewhere || !any(geoms == "line"))
    pch <- if (!is.null(sc$shape)) get("shape", NA) else rep(if (plain) 16L else NA_integer_, length(lev))
    lty <- if (!is.null(sc$linetype)) get("linetype", 1L) else ifelse(is.na(lwd), 0L, 1L)
    col <- get("colour", "black")
    alpha <- vapply(lev, function(v) {
      for (l in spec$layers) {
        if (l$geom == "line" && !is.null(l$where[[cl]]) && v %in% l$where[[cl]] && !is.null(l$alpha)) return(l$alpha)
      }
      1
    }, numeric(1))
    col <- vapply(seq_along(col), function(i) grDevices::adjustcolor(col[i], alpha.f = alpha[i]), character(1))
    list(title = sc[[1]]$title, labels = lev, col = col, pch = pch, lty = lty,
         lwd = ifelse(is.na(lwd), 1, lwd))
  })
}

# Lay out legend blocks in the bottom margin: each block in as many columns as fit the width;
# returns the blocks with `ncol`, `rows` and the total height in lines.
fp_legend_layout <- function(blocks, width_in, cex) {
  lh <- graphics::par("csi") * cex  # one text line, inches
  tot <- 0
  for (i in seq_along(blocks)) {
    b <- blocks[[i]]
    key <- if (any(b$lty > 0, na.rm = TRUE)) 0.55 else 0.22
    w <- graphics::strwidth(b$labels, units = "inches", cex = cex) + key + 0.2
    tw <- graphics::strwidth(b$title, units = "inches", cex = cex, font = 2) + 0.2
    ncol <- length(w)
    while (ncol > 1L && max(tw, ncol * max(w)) > width_in) ncol <- ncol - 1L
    b$ncol <- ncol
    b$rows <- ceiling(length(w) / ncol)
    b$width <- max(tw, ncol * max(w))
    blocks[[i]] <- b
  }
  # blocks side by side when they fit in one band
  side <- length(blocks) > 1L && sum(vapply(blocks, `[[`, numeric(1), "width")) + 0.3 * (length(blocks) - 1L) <= width_in
  heights <- vapply(blocks, function(b) (b$rows + 1) * 1.25 * lh + 0.06, numeric(1))
  list(blocks = blocks, side = side, height_in = if (!length(blocks)) 0 else if (side) max(heights) else sum(heights),
       heights = heights)
}

# Axis limits of the base renderer: every drawn value, reference line and error bar, 0 where
# the specification asks, and for bars the next tick above the tallest bar.
fp_base_limits <- function(layers, spec) {
  ally <- unlist(lapply(layers, function(l) {
    c(l$rows[[spec$y]], if (!is.null(l$layer$ymin)) c(l$rows[[l$layer$ymin]], l$rows[[l$layer$ymax]]))
  }))
  allx <- unlist(lapply(layers, function(l) l$rows$.x))
  ref_h <- unlist(lapply(spec$ref, function(r) if (r$axis == "h") r$at))
  ref_v <- unlist(lapply(spec$ref, function(r) if (r$axis == "v") r$at))
  ylim <- range(c(ally, ref_h, if (spec$y_zero) 0), finite = TRUE)
  if (spec$y_zero && grepl("y", spec$log)) ylim[1] <- min(ally[ally > 0])
  bars <- any(vapply(spec$layers, function(l) l$geom == "col", logical(1)))
  if (bars) ylim <- range(c(ylim, pretty(ylim)))  # the top tick covers the tallest bar
  rawx <- unlist(lapply(layers, function(l) l$rows[[spec$x]]))
  xlim <- range(c(allx, ref_v, fp_dodge_span(rawx, spec)), finite = TRUE)
  if (bars) xlim <- xlim + c(-0.5, 0.5)
  if (diff(xlim) == 0) xlim <- xlim + c(-0.5, 0.5)
  if (diff(ylim) == 0) ylim <- ylim + c(-0.5, 0.5) * max(abs(ylim[1]), 1)
  list(x = xlim, y = ylim, bars = bars)
}

# The labels of a specification, with the user's title and axis labels where given.
fp_plot_labels <- function(spec, main = NULL, xlab = NULL, ylab = NULL) {
  lab <- spec$labels
  if (!is.null(main)) lab$title <- main
  if (!is.null(xlab)) lab$x <- xlab
  if (!is.null(ylab)) lab$y <- ylab
  lab
}

# Draw a plot frame with base graphics. `main`, `xlab`, `ylab` replace the frame's labels.
fp_render_base <- function(data, main = NULL, xlab = NULL, ylab = NULL) {
  spec <- attr(data, "fp_spec")
  lab <- fp_plot_labels(spec, main, xlab, ylab)
  op <- graphics::par(no.readonly = TRUE)
  on.exit(graphics::par(op), add = TRUE)
  fin <- graphics::par("fin")
  csi <- graphics::par("csi")
  width_in <- fin[1] - 0.3
  cex_leg <- 0.8
  title_lines <- fp_wrap_to(lab$title, width_in, 1.2, font = 2)
  sub_lines <- fp_wrap_to(lab$subtitle, width_in, 0.85)
  # the caption is right-aligned at the panel's edge in italic: wrapped to that font, short of the right margin
  cap_lines <- fp_wrap_to(lab$caption, width_in - 0.4, 0.75, font = 3)
  lay <- fp_legend_layout(fp_legend_blocks(data, spec), width_in, cex_leg)
  # bottom margin: tick labels, axis title, legend and caption
  xlab_lines <- 0
  las <- 1
  if (!is.null(spec$x_labels)) {
    wmax <- max(graphics::strwidth(spec$x_labels, units = "inches", cex = 0.8))
    n <- length(spec$x_labels)
    if (n * (wmax + 0.08) > fin[1] - 1) {
      las <- 2
      xlab_lines <- min(wmax / csi, 10)
    }
  }
  # (the caption's last line ends 0.35 lines above the edge: room for its descenders)
  mar_b <- 3 + xlab_lines + lay$height_in / csi + 0.95 * length(cap_lines) + 0.5
  mar_t <- 0.6 + 1.25 * 1.2 * length(title_lines) + 0.95 * length(sub_lines)
  layers <- lapply(spec$layers, function(l) list(layer = l, rows = fp_plot_rows(data, spec, l)))
  lim <- fp_base_limits(layers, spec)
  xlim <- lim$x
  ylim <- lim$y
  bars <- lim$bars
  # left margin: the widest tick label, then the axis title
  ticks <- if (grepl("y", spec$log)) grDevices::axisTicks(log10(ylim), log = TRUE) else pretty(ylim)
  ylab_line <- 0.9 + max(graphics::strwidth(format(ticks), units = "inches")) / csi
  # the axis title wrapped to the panel's height, its lines outward from the ticks
  ylab_lines <- fp_wrap_to(lab$y, fin[2] - (mar_b + mar_t) * csi - 0.1, 1)
  ylab_at <- max(2.6, ylab_line + 0.2) + length(ylab_lines) - seq_along(ylab_lines)
  graphics::par(mar = c(mar_b, max(4.1, max(ylab_at) + 1.1), mar_t, 1.2), mgp = c(2.6, 0.7, 0), las = 1)
  graphics::plot.new()
  graphics::plot.window(xlim, ylim, log = spec$log, yaxs = if (bars) "i" else "r")
  graphics::grid(nx = NA, ny = NULL, col = "grey92", lty = 1)
  for (r in spec$ref) {
    if (r$axis == "h") graphics::abline(h = r$at, lty = r$lty, col = "grey40")
    else graphics::abline(v = r$at, lty = r$lty, col = "grey40")
  }
  for (l in layers) fp_base_layer(l$layer, l$rows, spec)
  for (r in spec$ref) {
    if (is.null(r$label)) next
    usr <- graphics::par("usr")
    if (r$axis == "h") {
      graphics::text(fp_usr(usr[1], spec$log, "x"), r$at, r$label, adj = c(-0.05, -0.4), cex = 0.75, col = "grey30")
    } else {
      graphics::text(r$at, fp_usr(usr[4], spec$log, "y"), r$label, adj = c(1.1, 1.3), cex = 0.75, col = "grey30")
    }
  }
  # axes
  if (!is.null(spec$x_breaks)) {
    graphics::axis(1, at = spec$x_breaks, labels = if (!is.null(spec$x_labels)) spec$x_labels else TRUE,
                   las = las, cex.axis = if (!is.null(spec$x_labels)) 0.8 else 1)
  } else if (spec$x_integer) {
    graphics::axis(1, at = fp_int_breaks(xlim))
  } else {
    graphics::axis(1)
  }
  graphics::axis(2)
  graphics::box()
  # the axis title shrunk to the panel's width; the titles centred on the figure, whose width
  # they were wrapped to (the panel's centre is right of it by the left margin)
  xcex <- min(1, graphics::par("pin")[1] / graphics::strwidth(lab$x, units = "inches"))
  graphics::mtext(lab$x, side = 1, line = 1.9 + xlab_lines, cex = xcex)
  fig_mid <- graphics::grconvertX(0.5, "nfc", "user")
  for (i in seq_along(ylab_lines)) graphics::mtext(ylab_lines[i], side = 2, line = ylab_at[i], las = 0)
  # titles, top down
  line <- mar_t - 0.4 - 1.2
  for (t in title_lines) {
    graphics::mtext(t, side = 3, line = line, font = 2, cex = 1.2, at = fig_mid)
    line <- line - 1.25 * 1.2
  }
  for (s in sub_lines) {
    graphics::mtext(s, side = 3, line = line + 0.45, cex = 0.85, col = "grey25", at = fig_mid)
    line <- line - 0.95
  }
  # legend and caption in the bottom margin
  fp_base_legends(lay, cex_leg, top_line = 3 + xlab_lines)
  for (i in seq_along(cap_lines)) {
    graphics::mtext(cap_lines[i], side = 1, line = mar_b - 0.95 * (length(cap_lines) - i + 1) - 0.25,
                    cex = 0.75, adj = 1, font = 3, col = "grey25")
  }
  invisible(data)
}

# A coordinate of par("usr") in data units (usr holds log10 values on a log axis).
fp_usr <- function(v, log, axis) if (grepl(axis, log)) 10^v else v

fp_base_layer <- function(layer, d, spec) {
  if (!nrow(d)) return(invisible())
  aes <- function(a, default) {
    fixed <- layer[[c(colour = "colour", shape = "shape", linetype = "lty")[[a]]]]
    if (!is.null(fixed)) return(rep(fixed, nrow(d)))
    sc <- spec$scales[[a]]
    if (is.null(sc)) return(rep(default, nrow(d)))
    unname(sc$values[as.character(d[[sc$column]])])
  }
  col <- aes("colour", "black")
  if (!is.null(layer$alpha)) col <- grDevices::adjustcolor(col, alpha.f = layer$alpha)
  x <- d$.x
  y <- d[[spec$y]]
  switch(layer$geom,
    line = {
      lty <- aes("linetype", 1L)
      for (s in split(seq_len(nrow(d)), d$.series, drop = TRUE)) {
        graphics::lines(x[s], y[s], col = col[s[1]], lty = lty[s[1]], lwd = if (is.null(layer$lwd)) 1.5 else layer$lwd)
      }
    },
    point = {
      pch <- aes("shape", 16L)
      graphics::points(x, y, col = col, pch = pch, cex = if (is.null(layer$cex)) 1 else layer$cex)
    },
    col = {
      fill <- if (is.null(layer$fill)) col else layer$fill
      graphics::rect(x - 0.4, 0, x + 0.4, y, col = fill, border = col)
    },
    errorbar = {
      ok <- which(d[[layer$ymax]] > d[[layer$ymin]])
      if (length(ok)) {
        graphics::arrows(x[ok], d[[layer$ymin]][ok], x[ok], d[[layer$ymax]][ok], angle = 90, code = 3,
                         length = 0.04, col = col[ok])
      }
    })
  invisible()
}

fp_base_legends <- function(lay, cex, top_line) {
  if (!length(lay$blocks)) return(invisible())
  # the top of the legend band in user coordinates: `top_line` text lines below the plot region
  plt <- graphics::par("plt")
  fig_h <- graphics::par("fin")[2]
  lh <- graphics::par("csi")
  top_nfc <- plt[3] - top_line * lh / fig_h
  x_mid <- graphics::grconvertX(0.5, "nfc", "user")
  y <- top_nfc
  widths <- vapply(lay$blocks, `[[`, numeric(1), "width")
  start_x <- 0.5 - (sum(widths) + 0.3 * (length(widths) - 1L)) / 2 / graphics::par("fin")[1]
  for (i in seq_along(lay$blocks)) {
    b <- lay$blocks[[i]]
    if (lay$side) {
      xx <- graphics::grconvertX(start_x, "nfc", "user")
      start_x <- start_x + (b$width + 0.3) / graphics::par("fin")[1]
      xj <- 0
    } else {
      xx <- x_mid
      xj <- 0.5
    }
    # columns as wide as the widest label plus a gap, so that keys never touch the text before
    tw <- max(graphics::strwidth(b$labels, cex = cex)) + graphics::strwidth("mm", cex = cex)
    graphics::legend(xx, graphics::grconvertY(y, "nfc", "user"), legend = b$labels, col = b$col, pch = b$pch,
                     text.width = tw,
                     lty = b$lty, lwd = b$lwd, title = b$title, title.font = 2, title.adj = 0, ncol = b$ncol,
                     xjust = xj, yjust = 1, xpd = NA, bty = "n", cex = cex, seg.len = 2.4,
                     x.intersp = 0.6, y.intersp = 1.05, pt.cex = 1.3)
    if (!lay$side) y <- y - lay$heights[i] / fig_h
  }
  invisible()
}

# The S3 methods' shared body: the frame of `type`, drawn with base graphics; returns the frame.
# `legend = FALSE` (or NULL) draws no legend.
fp_plot_base <- function(x, type, ..., main = NULL, xlab = NULL, ylab = NULL, legend = TRUE) {
  pd <- fp_plot_data(x, type, ...)
  if (is.null(legend) || isFALSE(legend)) attr(pd, "fp_spec")$legend <- FALSE
  fp_render_base(pd, main = main, xlab = xlab, ylab = ylab)
  invisible(pd)
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
# Fair kernel PCA (fair_kpca(), R/kpca-mean.R): training scores by group, and the eigenvalues
# as fractions of the total variance in feature space.

fp_plot_types[["fair_kpca"]] <- c("scores", "scree")

#' @exportS3Method fp_plot_data fair_kpca
fp_plot_data.fair_kpca <- function(x, type = NULL, ..., choices = 1:2) {
  type <- fp_plot_type(x, type)
  fp_plot_no_dots(list(...), type)
  switch(type,
         scores = fp_plot_scores(x, choices, label = "fair kernel PCA"),
         scree = {
           tab <- data.frame(k = seq_along(x$eigenvalues), group = "all rows", fit = "fair kernel PCA",
                             value = x$eigenvalues / x$totalvar, stringsAsFactors = FALSE)
           spec <- fp_spec("k", "value", list(fp_layer("col", fill = "grey80", colour = "grey35")),
                           title = "Scree plot",
                           subtitle = sprintf("%s kernel: each component's fraction of the variance in feature space",
                                              x$kernel$kernel),
                           xlab = "component", ylab = "fraction of the variance", x_integer = TRUE, y_zero = TRUE,
                           legend = FALSE)
           fp_plot_frame(tab, spec, "scree")
         })
}

# ---------------------------------------------------------------------------------------------
# Fairness audits (fair_audit()): their plot types; R/audit-plot.R builds their data.

fp_plot_types[["fairproj_audit"]] <- c("price", "losses", "errors", "downstream", "accuracy")
