# The base-graphics renderer of the plot layer (R/plot-data.R builds the frames it draws; the
# ggplot2 renderer is in R/autoplot.R): fp_plot_base() is the body of every plot() method.

# The S3 methods' shared body: the frame of `type`, drawn with base graphics; returns the frame.
# `legend = FALSE` (or NULL) draws no legend.
fp_plot_base <- function(x, type, ..., main = NULL, xlab = NULL, ylab = NULL, legend = TRUE) {
  if (!is.null(legend)) fp_check_flag(legend, "legend")
  pd <- fp_plot_data(x, type, ...)
  if (is.null(legend) || isFALSE(legend)) attr(pd, "fp_spec")$legend <- FALSE
  fp_render_base(pd, main = main, xlab = xlab, ylab = ylab)
  invisible(pd)
}

# Draw a plot frame with base graphics. `main`, `xlab`, `ylab` replace the frame's labels.
fp_render_base <- function(data, main = NULL, xlab = NULL, ylab = NULL) {
  spec <- attr(data, "fp_spec")
  lab <- fp_plot_labels(spec, main, xlab, ylab)
  op <- graphics::par(no.readonly = TRUE)
  on.exit(graphics::par(op), add = TRUE)
  layers <- lapply(spec$layers, function(l) list(layer = l, rows = fp_plot_rows(data, spec, l)))
  lim <- fp_base_limits(layers, spec)
  m <- fp_base_fit_margins(data, spec, lab, lim$y)
  graphics::par(mar = m$mar, mgp = c(2.6, 0.7, 0), las = 1)
  graphics::plot.new()
  graphics::plot.window(lim$x, lim$y, log = spec$log, yaxs = if (lim$bars) "i" else "r")
  fp_base_panel(layers, spec, lim$x, m$las, m$cex[["ref"]])
  fp_base_text(lab, m)
  invisible(data)
}

# The margins of a small device: the texts around the panel shrink (titles, legend, caption) until
# the panel keeps about half the figure's height (at most 2 in) and width; then the legend's blocks are
# left out, the tallest first; then the margins are cut to leave the panel 0.4 in (texts may then overlap it, but
# the plot is drawn: base graphics stops with "figure margins too large" otherwise).
fp_base_fit_margins <- function(data, spec, lab, ylim) {
  fin <- graphics::par("fin")
  csi <- graphics::par("csi")
  room <- function(m) {
    c(fin[2] - (m$mar[1] + m$mar[3]) * csi, fin[1] - (m$mar[2] + m$mar[4]) * csi)
  }
  need <- c(min(2, 0.45 * fin[2]), min(2.5, 0.5 * fin[1]))
  for (shrink in c(1, 0.85, 0.72, 0.62)) {
    m <- fp_base_margins(data, spec, lab, ylim, shrink)
    if (all(room(m) >= need)) return(m)
  }
  # then the legend's blocks, the tallest first (ten groups before two methods); of blocks
  # equally tall the later one (the colours' block, usually the groups, is the first: the
  # methods of a plot of groups by method are named in its subtitle)
  blocks <- seq_along(m$lay$blocks)
  while (length(blocks) && any(room(m) < need)) {
    h <- m$lay$heights
    blocks <- blocks[-(length(h) + 1L - which.max(rev(h)))]
    m <- fp_base_margins(data, spec, lab, ylim, shrink, blocks)
  }
  r <- room(m)
  if (r[1] < 0.4) {
    cut <- (fin[2] - 0.4) / csi / (m$mar[1] + m$mar[3])
    m$mar[c(1L, 3L)] <- m$mar[c(1L, 3L)] * cut
    m$mar_b <- m$mar[1L]
    m$mar_t <- m$mar[3L]
  }
  if (r[2] < 0.4) m$mar[c(2L, 4L)] <- m$mar[c(2L, 4L)] * (fin[1] - 0.4) / csi / (m$mar[2] + m$mar[4])
  m
}

# The margins of the base renderer (lines) and the wrapped texts that fill them: the titles and
# subtitle on top; tick labels, axis title, legend and caption at the bottom; tick labels and
# the wrapped axis title on the left. `ylim`: the y limits, whose tick labels set the left margin;
# `shrink`: a factor on the size of the titles, legend and caption (small devices).
fp_base_margins <- function(data, spec, lab, ylim, shrink = 1, blocks = NULL) {
  fin <- graphics::par("fin")
  csi <- graphics::par("csi")
  width_in <- fin[1] - 0.3
  cex_leg <- 0.8 * shrink
  cex <- c(title = 1.2, sub = 0.85, cap = 0.75, ref = 0.75) * shrink
  # the right margin: the labels of horizontal reference lines, 0.35 lines from the panel
  ref_lab <- fp_ref_h_labels(spec)$label
  mar_r <- if (length(ref_lab)) {
    max(1.2, 0.65 + max(graphics::strwidth(ref_lab, units = "inches", cex = cex[["ref"]])) / csi)
  } else 1.2
  title_lines <- fp_wrap_to(lab$title, width_in, cex[["title"]], font = 2)
  sub_lines <- fp_wrap_to(lab$subtitle, width_in, cex[["sub"]])
  # the caption is right-aligned at the panel's edge in italic: wrapped to that font and to the
  # width left of that edge, 0.45 in short of the device's left edge
  cap_lines <- fp_wrap_to(lab$caption, fin[1] - mar_r * csi - 0.45, cex[["cap"]], font = 3)
  leg <- fp_legend_blocks(data, spec)
  if (!is.null(blocks)) leg <- leg[blocks]  # `blocks`: the legend blocks kept (small devices)
  lay <- fp_legend_layout(leg, width_in, cex_leg)
  # bottom margin: tick labels, axis title, legend and caption
  xlab_lines <- 0
  las <- 1
  hang <- c(0, 0)  # lines by which the first and last tick labels reach beyond the panel
  if (!is.null(spec$x_labels)) {
    w <- graphics::strwidth(spec$x_labels, units = "inches", cex = 0.8)
    n <- length(spec$x_labels)
    if (n * (max(w) + 0.08) > fin[1] - 1) {
      las <- 2
      xlab_lines <- min(max(w) / csi, 10)
    } else {
      hang <- w[c(1L, n)] / 2 / csi  # centred on the panel's first and last x
    }
  }
  # (the caption's last line ends 0.35 lines above the edge: room for its descenders)
  # (a caption's last line takes a whole line, whatever its size)
  cap_h <- if (length(cap_lines)) 0.95 * shrink * (length(cap_lines) - 1) + max(1, 0.95 * shrink) else 0
  mar_b <- 3 + xlab_lines + lay$height_in / csi + cap_h + 0.5
  mar_t <- 0.6 + 1.25 * cex[["title"]] * length(title_lines) + 0.95 * shrink * length(sub_lines)
  # left margin: the widest tick label, then the axis title
  ticks <- if (grepl("y", spec$log)) grDevices::axisTicks(log10(ylim), log = TRUE) else pretty(ylim)
  ylab_line <- 0.9 + max(graphics::strwidth(format(ticks), units = "inches")) / csi
  # the axis title wrapped to the panel's height, its lines outward from the ticks
  ylab_lines <- fp_wrap_to(lab$y, fin[2] - (mar_b + mar_t) * csi - 0.1, 1)
  ylab_at <- max(2.6, ylab_line + 0.2) + length(ylab_lines) - seq_along(ylab_lines)
  mar <- c(mar_b, max(4.1, max(ylab_at) + 1.1, hang[1] + 0.3), mar_t, max(mar_r, hang[2] + 0.3))
  list(mar = mar, mar_b = mar_b, mar_t = mar_t, las = las,
       xlab_lines = xlab_lines, title_lines = title_lines, sub_lines = sub_lines, cap_lines = cap_lines,
       ylab_lines = ylab_lines, ylab_at = ylab_at, lay = lay, cex_leg = cex_leg, cex = cex, shrink = shrink)
}

# The panel of the base renderer: grid, reference lines, the layers, the reference lines'
# labels, axes and box. `las`: the orientation of the x tick labels; `cex_ref`: the size of the
# reference lines' labels.
fp_base_panel <- function(layers, spec, xlim, las, cex_ref = 0.75) {
  graphics::grid(nx = NA, ny = NULL, col = "grey92", lty = 1)
  for (r in spec$ref) {
    if (r$axis == "h") graphics::abline(h = r$at, lty = r$lty, col = "grey40")
    else graphics::abline(v = r$at, lty = r$lty, col = "grey40")
  }
  for (l in layers) fp_base_layer(l$layer, l$rows, spec)
  usr <- graphics::par("usr")
  for (r in spec$ref) {
    if (r$axis == "v" && !is.null(r$label)) {
      graphics::text(r$at, fp_usr(usr[4], spec$log, "y"), r$label, adj = c(1.1, 1.3), cex = cex_ref, col = "grey30")
    }
  }
  # the horizontal lines' labels in the right margin, one line height and a third apart
  h <- fp_ref_h_labels(spec)
  if (length(h$at)) {
    at <- if (grepl("y", spec$log)) log10(h$at) else h$at
    sep <- 1.35 * graphics::strheight("M", units = "inches", cex = cex_ref) / graphics::par("pin")[2] * diff(usr[3:4])
    y <- fp_ref_label_at(at, sep, usr[3:4])
    graphics::mtext(h$label, side = 4, line = 0.35, at = fp_usr(y, spec$log, "y"), las = 1,
                    adj = 0, padj = 0.5, cex = cex_ref, col = "grey30")
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
}

# The texts in the margins of the base renderer (`m` from fp_base_margins()): axis titles,
# titles, legend and caption.
fp_base_text <- function(lab, m) {
  # the axis title shrunk to the panel's width; the titles centred on the figure, whose width
  # they were wrapped to (the panel's centre is right of it by the left margin)
  xcex <- min(1, graphics::par("pin")[1] / graphics::strwidth(lab$x, units = "inches"))
  graphics::mtext(lab$x, side = 1, line = 1.9 + m$xlab_lines, cex = xcex)
  fig_mid <- graphics::grconvertX(0.5, "nfc", "user")
  for (i in seq_along(m$ylab_lines)) graphics::mtext(m$ylab_lines[i], side = 2, line = m$ylab_at[i], las = 0)
  # titles, top down
  line <- m$mar_t - 0.4 - m$cex[["title"]]
  for (t in m$title_lines) {
    graphics::mtext(t, side = 3, line = line, font = 2, cex = m$cex[["title"]], at = fig_mid)
    line <- line - 1.25 * m$cex[["title"]]
  }
  for (s in m$sub_lines) {
    graphics::mtext(s, side = 3, line = line + 0.45 * m$shrink, cex = m$cex[["sub"]], col = "grey25", at = fig_mid)
    line <- line - 0.95 * m$shrink
  }
  # legend and caption in the bottom margin
  fp_base_legends(m$lay, m$cex_leg, top_line = 3 + m$xlab_lines)
  cap_lines <- m$cap_lines
  for (i in seq_along(cap_lines)) {
    graphics::mtext(cap_lines[i], side = 1, line = m$mar_b - 0.25 - max(1, 0.95 * m$shrink) - 0.95 * m$shrink * (length(cap_lines) - i),
                    cex = m$cex[["cap"]], adj = 1, font = 3, col = "grey25")
  }
}

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
      if (isTRUE(layer$hollow)) pch <- fp_hollow(pch)
      # not clipped at the panel's box: every point lies within the limits, but a large symbol
      # (the ring around a chosen candidate) at an extreme reaches beyond them
      graphics::points(x, y, col = col, pch = pch, cex = if (is.null(layer$cex)) 1 else layer$cex, xpd = NA)
    },
    col = {
      fill <- if (is.null(layer$fill)) col else layer$fill
      graphics::rect(x - 0.4, 0, x + 0.4, y, col = fill, border = col)
    },
    errorbar = {
      lo <- d[[layer$ymin]]
      hi <- d[[layer$ymax]]
      ok <- which(is.finite(lo) & is.finite(hi) & hi >= lo)
      # a bar shorter than 1/1000 inch has no direction for arrows() (which warns and skips
      # it): a short horizontal tick at its value instead
      len <- abs(graphics::grconvertY(hi[ok], "user", "inches") - graphics::grconvertY(lo[ok], "user", "inches"))
      short <- ok[!(len >= 1e-3)]
      ok <- ok[len >= 1e-3]
      if (length(ok)) {
        graphics::arrows(x[ok], lo[ok], x[ok], hi[ok], angle = 90, code = 3, length = 0.04, col = col[ok])
      }
      if (length(short)) {
        w <- abs(graphics::grconvertX(0.04, "inches", "user") - graphics::grconvertX(0, "inches", "user"))
        graphics::segments(x[short] - w, lo[short], x[short] + w, lo[short], col = col[short])
      }
    })
  invisible()
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

# A coordinate of par("usr") in data units (usr holds log10 values on a log axis).
fp_usr <- function(v, log, axis) if (grepl(axis, log)) 10^v else v

# Wrap a title to the width available (inches) at a character expansion, as lines.
fp_wrap_to <- function(s, width_in, cex, font = 1) {
  if (is.null(s) || !nzchar(s)) return(character(0))
  if (graphics::strwidth(s, units = "inches", cex = cex, font = font) <= width_in) return(s)
  # characters differ in width: wrap 10% short of the width so that no line runs over it
  chars <- max(10L, floor(0.9 * nchar(s) * width_in / graphics::strwidth(s, units = "inches", cex = cex, font = font)))
  fp_wrap_even(s, chars)
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
    lev <- lev[lev %in% present & !lev %in% unlist(lapply(sc, `[[`, "hide"))]
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
