# The plots of an audit (R/audit-plot.R): their data, and one label per method.

test_that("every audit plot labels a method as the report and print do", {
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:3, outcome = dat$y, seed = 1)
  fair <- setdiff(a$methods, "standard")
  expect_identical(fp_audit_label(c("standard", "minmax", "mean", "other")),
                   c("standard PCA", "min-max", "mean matching", "other"))
  expect_identical(levels(tidy(a, "plot", type = "price")$method), fp_audit_label(fair))
  for (ty in c("losses", "errors")) {
    expect_setequal(levels(tidy(a, "plot", type = ty)$fit), fp_audit_label(a$methods))
  }
  for (ty in c("downstream", "accuracy")) {
    expect_setequal(levels(tidy(a, "plot", type = ty)$method), fp_audit_label(a$methods))
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
