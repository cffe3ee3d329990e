# The plots of an audit (R/audit-plot.R): their data, and one label per method.

test_that("every audit plot labels a method as the report and print do", {
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:3, outcome = dat$y, seed = 1)
  fair <- setdiff(a$methods, "standard")
  expect_identical(fp_fit_label(c("standard", "minmax", "mean", "other")),
                   c("standard PCA", "min-max", "mean matching", "other"))
  expect_identical(levels(tidy(a, "plot", type = "price")$method), fp_fit_label(fair))
  for (ty in c("losses", "errors")) {
    expect_setequal(levels(tidy(a, "plot", type = ty)$fit), fp_fit_label(a$methods))
  }
  for (ty in c("downstream", "accuracy")) {
    expect_setequal(levels(tidy(a, "plot", type = ty)$method), fp_fit_label(a$methods))
  }
})

test_that("no audit caption is clipped at 5 x 4, 7 x 5 or 10 x 7 in, in either renderer", {
  # the issue's report: base captions ran off the device's left edge at every size. Each caption
  # line (and the caption's ggplot2 grob) is measured against the width it may take on a device
  # of that size
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:3, outcome = dat$y, seed = 1)
  sizes <- list(c(5, 4), c(7, 5), c(10, 7))
  types <- fp_plot_types[["fairproj_audit"]]
  # base: graphics::mtext() traced; a caption line (italic, right-aligned at the panel's right
  # edge) must fit between the device's left edge and that edge, and lie within the bottom margin
  rec <- new.env()
  suppressMessages(trace(graphics::mtext, exit = bquote({
    if (isTRUE(font == 3) && isTRUE(adj == 1) && side == 1) {
      assign("drawn", c(get("drawn", .(rec)), list(list(w = graphics::strwidth(text, units = "inches", cex = cex, font = font),
                                           room = graphics::par("fin")[1] * graphics::par("plt")[2],
                                           line = line, mar = graphics::par("mar")[1], text = text))), .(rec))
    }
  }), print = FALSE, where = asNamespace("graphics")))
  on.exit(suppressMessages(untrace(graphics::mtext, where = asNamespace("graphics"))), add = TRUE)
  for (s in sizes) {
    for (ty in types) {
      rec$drawn <- list()
      grDevices::pdf(NULL, width = s[1], height = s[2])
      plot(a, ty)
      grDevices::dev.off()
      drawn <- rec$drawn
      cap <- attr(fp_plot_data(a, ty), "fp_spec")$labels$caption
      if (is.null(cap)) next
      info <- sprintf("%s at %g x %g in", ty, s[1], s[2])
      expect_gt(length(drawn), 0L, label = info)
      for (d in drawn) {
        expect_lte(d$w, d$room, label = paste(info, ":", d$text))
        expect_lte(d$line + 1, d$mar, label = paste(info, ":", d$text))
      }
      # every word of the caption is drawn
      expect_identical(strsplit(paste(vapply(drawn, `[[`, "", "text"), collapse = " "), "\\s+")[[1]],
                       strsplit(cap, "\\s+")[[1]], label = info)
    }
  }
  # ggplot2: the caption grob no wider than the plot's width less the plot margins
  skip_if_not_installed("ggplot2")
  for (s in sizes) {
    for (ty in types) {
      grDevices::pdf(NULL, width = s[1], height = s[2])
      g <- ggplot2::ggplotGrob(ggplot2::autoplot(a, ty))
      # the caption's text (its titleGrob has a width of 1null, whatever the text)
      cap <- g$grobs[[which(g$layout$name == "caption")]]
      has_caption <- !is.null(attr(fp_plot_data(a, ty), "fp_spec")$labels$caption)
      expect_identical(inherits(cap, "titleGrob"), has_caption)
      if (!has_caption) {
        grDevices::dev.off()
        next
      }
      w <- grid::convertWidth(grid::grobWidth(cap$children[[1L]]), "in", valueOnly = TRUE)
      expect_gt(w, 1)
      mar <- grid::convertWidth(sum(g$widths[c(1L, length(g$widths))]), "in", valueOnly = TRUE)
      grDevices::dev.off()
      expect_lte(w, s[1] - mar, label = sprintf("ggplot2 %s at %g x %g in", ty, s[1], s[2]))
    }
  }
})

test_that("reference lines' labels sit in the right margin, apart and unclipped, in either renderer", {
  # the issue's report: the labels of the accuracy plot's reference lines ("all d columns",
  # "majority class") were drawn at the panel's left edge, over points and error bars. They
  # are in the right margin, beside their lines, beyond every drawn value; `tie` is the worst
  # case, both lines at one height
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:3, outcome = dat$y, seed = 1, progress = FALSE)
  tie <- a
  tie$downstream_reference$accuracy[1L] <- tie$downstream_reference$accuracy[2L]
  sizes <- list(c(5, 4), c(7, 5), c(10, 7))
  cases <- list(list(a, "accuracy"), list(tie, "accuracy"), list(a, "price"))
  # base: graphics::mtext() on side 4 traced; each label starts right of the panel, ends inside
  # the right margin, lies within the panel's height, and the labels are a line height apart
  rec <- new.env()
  suppressMessages(trace(graphics::mtext, exit = bquote({
    if (side == 4) {
      assign("drawn", list(text = text, at = at, line = line, csi = graphics::par("csi"),
                           w = graphics::strwidth(text, units = "inches", cex = cex),
                           h = graphics::strheight("M", units = "inches", cex = cex),
                           usr = graphics::par("usr"), pin = graphics::par("pin"), room = graphics::par("mai")[4]), .(rec))
    }
  }), print = FALSE, where = asNamespace("graphics")))
  on.exit(suppressMessages(untrace(graphics::mtext, where = asNamespace("graphics"))), add = TRUE)
  for (s in sizes) {
    for (cs in cases) {
      rec$drawn <- NULL
      refs <- vapply(attr(fp_plot_data(cs[[1]], cs[[2]]), "fp_spec")$ref, `[[`, "", "label")
      grDevices::pdf(NULL, width = s[1], height = s[2])
      plot(cs[[1]], cs[[2]])
      grDevices::dev.off()
      d <- rec$drawn
      info <- sprintf("%s at %g x %g in", cs[[2]], s[1], s[2])
      expect_identical(d$text, refs, label = info)
      expect_gt(d$line, 0)
      expect_true(all(d$line * d$csi + d$w <= d$room), label = info)
      y_in <- (d$at - d$usr[3]) / diff(d$usr[3:4]) * d$pin[2]
      expect_true(all(y_in >= d$h / 2 & y_in <= d$pin[2] - d$h / 2), label = info)
      if (length(y_in) > 1L) expect_gte(min(diff(sort(y_in))), d$h, label = info)
    }
  }
  # ggplot2: the labels are the secondary y axis (no text layer in the panel), a line height
  # apart, and the panel keeps most of the width
  skip_if_not_installed("ggplot2")
  texts <- function(x) {
    c(if (inherits(x, "text")) x$label, unlist(lapply(x$children, texts)), unlist(lapply(x$grobs, texts)))
  }
  for (s in sizes) {
    for (cs in cases) {
      info <- sprintf("ggplot2 %s at %g x %g in", cs[[2]], s[1], s[2])
      refs <- vapply(attr(fp_plot_data(cs[[1]], cs[[2]]), "fp_spec")$ref, `[[`, "", "label")
      p <- ggplot2::autoplot(cs[[1]], cs[[2]])
      expect_false(any(vapply(p$layers, function(l) inherits(l$geom, "GeomText"), logical(1))), label = info)
      grDevices::pdf(NULL, width = s[1], height = s[2])
      g <- ggplot2::ggplotGrob(p)
      ax <- g$grobs[[which(g$layout$name == "axis-r")]]
      lab <- Filter(function(x) inherits(x, "titleGrob"), ax$children[[2L]]$grobs)[[1L]]$children[[1L]]
      expect_setequal(texts(ax), refs)
      fixed_w <- sum(grid::convertWidth(g$widths, "in", valueOnly = TRUE))  # all but the panel
      panel_h <- s[2] - sum(grid::convertHeight(g$heights, "in", valueOnly = TRUE))
      grid::pushViewport(grid::viewport(gp = lab$gp))  # the labels' font
      h <- grid::convertHeight(grid::stringHeight("M"), "in", valueOnly = TRUE)
      grid::popViewport()
      grDevices::dev.off()
      expect_lte(fixed_w, s[1] - 2.5, label = info)
      y <- sort(as.numeric(lab$y))  # npc of the panel
      if (length(y) > 1L) expect_gte(min(diff(y)) * panel_h, h, label = info)
    }
  }
})

test_that("the ggplot2 y axis title is no taller than the panel of a 5 x 4 in device", {
  # the issue's report: at 5 x 4 in, long y axis titles ran past the panel into the subtitle
  skip_if_not_installed("ggplot2")
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:3, outcome = dat$y, seed = 1, progress = FALSE)
  for (ty in fp_plot_types[["fairproj_audit"]]) {
    grDevices::pdf(NULL, width = 5, height = 4)
    g <- ggplot2::ggplotGrob(ggplot2::autoplot(a, ty))
    yl <- g$grobs[[which(g$layout$name == "ylab-l")]]
    h <- grid::convertHeight(grid::grobHeight(yl$children[[1L]]), "in", valueOnly = TRUE)
    panel_h <- 4 - sum(grid::convertHeight(g$heights, "in", valueOnly = TRUE))
    grDevices::dev.off()
    expect_gt(h, 0.3)
    expect_lte(h, panel_h, label = ty)
  }
})

# Draw into a throw-away device of 5 x 4 in, failing on any warning (arrows() of zero length,
# "figure margins too large" is an error).
draw_small <- function(expr) {
  grDevices::png(tempfile(fileext = ".png"), width = 5, height = 4, units = "in", res = 72)
  on.exit(grDevices::dev.off(), add = TRUE)
  p <- withCallingHandlers(expr, message = function(m) invokeRestart("muffleMessage"))
  if (inherits(p, "ggplot")) print(p)
  invisible(TRUE)
}

test_that("downstream gaps mark one-class fits, unreliable rows and draw their intervals", {
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:3, outcome = dat$y, seed = 1, progress = FALSE)
  # a classifier predicting one class at k = 1 (its gaps 0 by construction), rows flagged unreliable
  a$downstream$one_class <- a$downstream$k == 1L
  a$downstream$dp_gap[a$downstream$k == 1L] <- 0
  a$downstream$reliable <- FALSE
  pd <- fp_plot_data(a, "downstream")
  spec <- attr(pd, "fp_spec")
  expect_true(all(pd$mark[pd$k == 1L] == "one class"))
  expect_true(all(pd$mark[pd$k > 1L] == "unreliable"))
  hollow <- Filter(function(l) isTRUE(l$hollow), spec$layers)
  expect_length(hollow, 1L)
  expect_identical(hollow[[1]]$where, list(mark = "one class"))
  expect_match(spec$labels$caption, "0 by construction", fixed = TRUE)
  expect_match(spec$labels$caption, "fewer than 30 held-out rows", fixed = TRUE)
  # the intervals of the table, as error bars; dodged by method and gap, so no two bars share an x
  expect_equal(pd$lower[pd$gap == "demographic parity"], 100 * a$downstream$dp_gap_low)
  expect_equal(pd$upper[pd$gap == "equal opportunity"], 100 * a$downstream$eo_gap_high)
  expect_true(any(vapply(spec$layers, `[[`, "", "geom") == "errorbar"))
  rows <- fp_plot_rows(pd, spec)
  expect_false(anyDuplicated(rows$.x) > 0)
  expect_equal(fp_hollow(c(16L, 17L, 15L, 18L, 1L, 4L)), c(1L, 2L, 0L, 5L, 1L, 4L))
  acc <- fp_plot_data(a, "accuracy")
  expect_equal(acc$lower, 100 * a$downstream$accuracy_low)
  expect_no_warning(draw_small(plot(a, "downstream")))
  skip_if_not_installed("ggplot2")
  expect_no_warning(draw_small(ggplot2::autoplot(a, "downstream")))
})

test_that("methods are told apart by shape at one k, and intervals are dodged by method and group", {
  a1 <- fair_audit(iris[1:4], iris$Species, k = 2, seed = 1, progress = FALSE)
  pd <- fp_plot_data(a1, "losses")
  spec <- attr(pd, "fp_spec")
  expect_identical(spec$scales$shape$column, "fit")
  expect_length(unique(spec$scales$shape$values), nlevels(pd$fit))
  expect_identical(spec$dodge$column, c("fit", "group"))
  rows <- fp_plot_rows(pd, spec)
  expect_false(anyDuplicated(rows$.x) > 0)  # one x per method and group: no two bars overlap
  expect_no_warning(draw_small(plot(a1, "losses")))
  skip_if_not_installed("ggplot2")
  expect_no_warning(draw_small(ggplot2::autoplot(a1, "losses")))
})

test_that("a method with no values is left out of legends and subtitles, and the caption says why", {
  set.seed(3)
  X <- matrix(rnorm(600), 100) %*% matrix(rnorm(36), 6)
  g <- factor(sample(sprintf("region %02d", 1:8), 100, TRUE))
  a <- fair_audit(X, g, k = 1:2, seed = 1, progress = FALSE, replicates = 20)
  expect_true(all(a$table$state[a$table$method == "mean"] == "not fitted"))
  pr <- fp_plot_data(a, "price")
  expect_identical(levels(pr$method), "min-max")
  expect_match(attr(pr, "fp_spec")$labels$caption, "mean matching not fitted", ignore.case = TRUE)
  for (ty in c("losses", "errors")) {
    pd <- fp_plot_data(a, ty)
    spec <- attr(pd, "fp_spec")
    expect_false("mean matching" %in% levels(pd$fit))
    expect_false(grepl("mean matching", spec$labels$subtitle, fixed = TRUE))
    expect_match(spec$labels$caption, "mean matching not fitted", ignore.case = TRUE)
  }
  expect_error(fp_plot_data(a, "price", methods = "mean"), class = "fairproj_input_error")
})

test_that("base audit plots draw at 5 x 4 in without warnings or errors (zero-length bars, many groups)", {
  d <- iris
  d$grp <- ifelse(seq_len(150) <= 4, "tiny", "big")
  a <- fair_audit(d[1:4], d$grp, seed = 1, progress = FALSE)
  expect_no_warning(draw_small(plot(a, "losses", methods = "standard")))
  set.seed(3)
  X <- matrix(rnorm(3000), 500) %*% matrix(rnorm(36), 6)
  g <- factor(sample(sprintf("Region number %02d (long label)", 1:10), 500, TRUE))
  a10 <- fair_audit(X, g, k = 1:3, seed = 1, progress = FALSE, replicates = 20)
  for (ty in c("losses", "errors", "price")) expect_no_warning(draw_small(plot(a10, ty)))
  grDevices::pdf(NULL, width = 3, height = 2.5)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_no_error(plot(a10, "losses"))
})

test_that("a small device that has room for one of two equally tall legends keeps the groups' (the methods are in the subtitle)", {
  # plot(a, "losses") at 5 x 4 in: the group legend (colours) was left out, so the colours named
  # no group, while the methods' legend repeated the subtitle
  # three groups at d = 4: mean matching cannot reach k = 3, 4, and the caption says so
  dat <- make_groups(n = c(60, 50, 40), d = 4)
  a <- fair_audit(dat$x, dat$g, k = 1:4, seed = 1)
  rec <- new.env()
  rec$titles <- character(0)
  # on entry: legend(xpd = NA) sets its own on.exit(), which replaces an exit tracer
  suppressMessages(trace(graphics::legend, bquote(assign("titles", c(get("titles", .(rec)), title), .(rec))),
                         print = FALSE, where = asNamespace("graphics")))
  on.exit(suppressMessages(untrace(graphics::legend, where = asNamespace("graphics"))), add = TRUE)
  grDevices::pdf(NULL, width = 5, height = 4)
  plot(a, "losses")
  grDevices::dev.off()
  expect_true("group" %in% rec$titles)
})
