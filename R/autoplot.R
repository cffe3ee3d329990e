# The ggplot2 renderer of the plot layer (R/plot-data.R). ggplot2 is in Suggests; each class's
# autoplot() method lives in its methods file and is registered when ggplot2 is loaded.

fp_need_ggplot2 <- function() {
  if (!requireNamespace("ggplot2", quietly = TRUE)) {
    stop(errorCondition("autoplot() needs the package 'ggplot2': install.packages(\"ggplot2\")",
                        class = c("fairproj_missing_package", "fairproj_error")))
  }
}

# The autoplot() methods' shared body: the frame of `type`, drawn with ggplot2. `legend = FALSE`
# (or NULL) draws no legend, as in plot().
fp_plot_gg <- function(x, type, ..., main = NULL, xlab = NULL, ylab = NULL, legend = TRUE) {
  fp_need_ggplot2()
  if (!is.null(legend)) fp_check_flag(legend, "legend")
  pd <- fp_plot_data(x, type, ...)
  if (is.null(legend) || isFALSE(legend)) attr(pd, "fp_spec")$legend <- FALSE
  fp_render_gg(pd, main = main, xlab = xlab, ylab = ylab)
}

# Draw a plot frame with ggplot2: the same layers, scales and labels as fp_render_base().
fp_render_gg <- function(data, main = NULL, xlab = NULL, ylab = NULL) {
  spec <- attr(data, "fp_spec")
  gg <- ggplot2::ggplot()
  xr <- range(data[[spec$x]], finite = TRUE)
  # each layer's rows, formed once (the layers and the reference labels' axis use them)
  layers <- lapply(spec$layers, function(l) list(layer = l, rows = fp_plot_rows(data, spec, l)))
  for (lr in layers) {
    geom <- fp_gg_layer(lr$layer, lr$rows, spec, xr)
    if (!is.null(geom)) gg <- gg + geom
  }
  gg <- fp_gg_refs(gg, spec)
  span <- fp_dodge_span(data[[spec$x]], spec)
  if (!is.null(span)) gg <- gg + ggplot2::expand_limits(x = span)
  gg <- fp_gg_scales(gg, data, spec, layers)
  fp_gg_theme(gg, spec, fp_plot_labels(spec, main, xlab, ylab))
}

# One layer of a specification as a ggplot2 layer (NULL when it draws no rows); `d` its rows
# (fp_plot_rows()).
fp_gg_layer <- function(l, d, spec, xr) {
  fixed_name <- c(colour = "colour", shape = "shape", linetype = "lty")
  # a line joins finite values and needs two of them (ggplot2 says so otherwise), as lines() does
  if (l$geom == "line") {
    d <- d[is.finite(d[[spec$y]]), , drop = FALSE]
    d <- d[duplicated(d$.series) | duplicated(d$.series, fromLast = TRUE), , drop = FALSE]
  }
  if (!nrow(d)) return(NULL)
  yv <- spec$y
  map <- ggplot2::aes(x = .data$.x, y = .data[[yv]], group = .data$.series)
  args <- list()
  for (a in names(fixed_name)) {
    fx <- l[[fixed_name[[a]]]]
    sc <- spec$scales[[a]]
    if (!is.null(fx)) {
      args[[a]] <- fx
    } else if (!is.null(sc)) {
      cl <- sc$column
      map[[a]] <- ggplot2::aes(v = .data[[cl]])$v
    }
  }
  if (!is.null(l$alpha)) args$alpha <- l$alpha
  lwd <- if (is.null(l$lwd)) 1.5 else l$lwd
  switch(l$geom,
    line = {
      args$shape <- NULL
      map$shape <- NULL
      do.call(ggplot2::geom_line, c(list(data = d, mapping = map, linewidth = lwd / ggplot2::.pt), args))
    },
    point = {
      args$linetype <- NULL
      map$linetype <- NULL
      if (isTRUE(l$hollow)) {
        # the open shape of each row's shape, given row by row (the shape scale keeps the legend)
        sc <- spec$scales$shape
        pch <- if (!is.null(args$shape)) args$shape else if (!is.null(sc)) unname(sc$values[as.character(d[[sc$column]])]) else 16L
        args$shape <- fp_hollow(pch)
        map$shape <- NULL
      }
      do.call(ggplot2::geom_point, c(list(data = d, mapping = map, size = 1.8 * (if (is.null(l$cex)) 1 else l$cex)), args))
    },
    col = {
      args$shape <- NULL
      args$linetype <- NULL
      if (!is.null(l$fill)) args$fill <- l$fill
      do.call(ggplot2::geom_rect, c(list(data = d, mapping = ggplot2::aes(xmin = .data$.x - 0.4, xmax = .data$.x + 0.4,
                                                                           ymin = 0, ymax = .data[[yv]])), args))
    },
    errorbar = {
      args$shape <- NULL
      args$linetype <- NULL
      map$shape <- NULL
      lo <- l$ymin
      hi <- l$ymax
      emap <- map
      emap$y <- NULL
      emap$linetype <- NULL  # solid bars, as the base renderer draws them
      emap$ymin <- ggplot2::aes(v = .data[[lo]])$v
      emap$ymax <- ggplot2::aes(v = .data[[hi]])$v
      do.call(ggplot2::geom_errorbar, c(list(data = d, mapping = emap, width = 0.015 * (if (diff(xr) > 0) diff(xr) else 1)), args))
    })
}

# The reference lines of a specification, with the labels of vertical lines (those of
# horizontal lines are a secondary y axis: fp_gg_ref_axis()).
fp_gg_refs <- function(gg, spec) {
  for (r in spec$ref) {
    if (r$axis == "h") {
      gg <- gg + ggplot2::geom_hline(yintercept = r$at, linetype = r$lty, colour = "grey40")
    } else {
      gg <- gg + ggplot2::geom_vline(xintercept = r$at, linetype = r$lty, colour = "grey40")
      if (!is.null(r$label)) {
        gg <- gg + ggplot2::annotate("text", x = r$at, y = Inf, label = r$label, hjust = 1.1, vjust = 1.3,
                                     size = 3, colour = "grey30")
      }
    }
  }
  gg
}

# The scales of a specification (the same named values as the base renderer; legends only for
# the levels drawn) and its axes; `layers` the layers with their rows (fp_render_gg()).
fp_gg_scales <- function(gg, data, spec, layers) {
  scale_fun <- list(colour = ggplot2::scale_colour_manual, shape = ggplot2::scale_shape_manual,
                    linetype = ggplot2::scale_linetype_manual)
  # the legends in the order of the base renderer's blocks (that of the scales' columns)
  columns <- unique(vapply(spec$scales, `[[`, character(1), "column"))
  for (a in names(spec$scales)) {
    sc <- spec$scales[[a]]
    present <- setdiff(names(sc$values)[names(sc$values) %in% as.character(data[[sc$column]])], sc$hide)
    guide <- if (isTRUE(spec$legend)) {
      # the title above the keys where that saves more than its own line, else beside them
      rows <- c(left = fp_gg_legend_rows(present, sc$title, top = FALSE), top = fp_gg_legend_rows(present, sc$title))
      top <- rows[["top"]] + 1L < rows[["left"]]
      args <- list(nrow = rows[[if (top) "top" else "left"]], order = match(sc$column, columns))
      if (top && fp_gg_theme_titles()) args$theme <- ggplot2::theme(legend.title.position = "top")
      if (top && !fp_gg_theme_titles()) args$title.position <- "top"
      do.call(ggplot2::guide_legend, args)
    } else "none"
    gg <- gg + scale_fun[[a]](values = sc$values, limits = names(sc$values), breaks = present, name = sc$title,
                              guide = guide)
  }
  if (!is.null(spec$x_breaks)) {
    sx <- if (grepl("x", spec$log)) ggplot2::scale_x_log10 else ggplot2::scale_x_continuous
    gg <- gg + sx(breaks = spec$x_breaks, labels = if (!is.null(spec$x_labels)) spec$x_labels else ggplot2::waiver())
  } else if (grepl("x", spec$log)) {
    gg <- gg + ggplot2::scale_x_log10()
  } else if (spec$x_integer) {
    gg <- gg + ggplot2::scale_x_continuous(breaks = fp_int_breaks)
  }
  sec <- fp_gg_ref_axis(data, spec, layers)
  if (grepl("y", spec$log)) {
    gg <- gg + ggplot2::scale_y_log10(sec.axis = sec)
  } else if (!inherits(sec, "waiver")) {
    gg <- gg + ggplot2::scale_y_continuous(sec.axis = sec)
  }
  if (spec$y_zero) gg <- gg + ggplot2::expand_limits(y = 0)
  gg
}

# The labels of horizontal reference lines as a secondary y axis without ticks, beside the
# lines' right ends: ggplot2 makes the right margin as wide as they are. The panel's height is
# not known here: labels are set a tenth of the y axis apart at least, which keeps them apart
# on a panel of 1.4 in or more (a 5 x 4 in device). `ggplot2::waiver()` when there are none.
# `layers`: the layers with their rows, as fp_base_limits() takes them.
fp_gg_ref_axis <- function(data, spec, layers) {
  h <- fp_ref_h_labels(spec)
  if (!length(h$at)) return(ggplot2::waiver())
  lims <- fp_base_limits(layers, spec)
  lim <- lims$y
  # bars: the base renderer widens the axis to its ticks, ggplot2 to the values only
  if (isTRUE(lims$bars)) lim <- range(c(if (isTRUE(spec$y_zero)) 0, data[[spec$y]], h$at), finite = TRUE)
  at <- h$at
  logy <- grepl("y", spec$log)
  if (logy) {
    at <- log10(at)
    lim <- log10(lim)
  }
  lim <- lim + c(-0.05, 0.05) * diff(lim)  # ggplot2's expansion of a continuous axis
  y <- fp_ref_label_at(at, 0.1 * diff(lim), lim)
  ggplot2::sec_axis(~ ., name = NULL, breaks = if (logy) 10^y else y, labels = h$label)
}

# The rows of a legend whose columns, filled column by column as ggplot2 does, fit the width of
# a 5 in device: about 72 characters of 8.8 pt text (4.3 in), a column's key and gaps taking 8,
# and a title beside the keys (`top = FALSE`) its length and 5.
fp_gg_legend_rows <- function(labels, title, top = TRUE) {
  n <- length(labels)
  for (rows in seq_len(max(n, 1L))) {
    cols <- sum(vapply(split(nchar(labels), (seq_len(n) - 1L) %/% rows), max, numeric(1)) + 8)
    if ((if (top) max(nchar(title), cols) else nchar(title) + 5 + cols) <= 72) return(rows)
  }
  max(n, 1L)
}

# Whether a guide places its title through its theme (ggplot2 3.5.0 and later; before, through
# guide_legend(title.position), which 3.5.0 deprecates).
fp_gg_theme_titles <- function() utils::packageVersion("ggplot2") >= "3.5.0"

# Titles, axis titles and caption, and the theme.
fp_gg_theme <- function(gg, spec, lab) {
  # each text in the fewest lines of fewer than `w` characters, as even as they can be
  # (fp_wrap_even()); wrapped to fit a 5 in wide device (the caption, in 7.7 pt, takes about 80
  # characters to a line); the y axis title in lines of at most 17 characters (1.4 in), so
  # that it stays beside the panel of a 4 in high device
  wrap <- function(s, w) if (is.null(s)) NULL else paste(fp_wrap_even(s, w), collapse = "\n")
  gg <- gg + ggplot2::labs(title = wrap(lab$title, 50), subtitle = wrap(lab$subtitle, 60), x = wrap(lab$x, 60),
                           y = wrap(lab$y, 18), caption = wrap(lab$caption, 72)) +
    ggplot2::theme_bw(base_size = 11) +
    ggplot2::theme(legend.position = "bottom", legend.box = "vertical", legend.margin = ggplot2::margin(0, 0, 0, 0),
                   panel.grid.minor = ggplot2::element_blank(), plot.title.position = "plot",
                   plot.caption.position = "plot",
                   plot.title = ggplot2::element_text(face = "bold"),
                   plot.caption = ggplot2::element_text(face = "italic", colour = "grey25", size = ggplot2::rel(0.7)),
                   # the y axis title clear of the tick labels; the reference lines' labels
                   # (fp_gg_ref_axis()) without ticks
                   axis.title.y = ggplot2::element_text(margin = ggplot2::margin(r = 7)),
                   axis.text.y.right = ggplot2::element_text(colour = "grey30", margin = ggplot2::margin(l = 4)),
                   axis.ticks.y.right = ggplot2::element_blank())
  if (!is.null(spec$x_labels)) {
    gg <- gg + ggplot2::theme(axis.text.x = ggplot2::element_text(angle = 45, hjust = 1, vjust = 1))
  }
  gg
}

utils::globalVariables(".data")
