# The plot layer: one data function per plot type, drawn by the base and ggplot2 renderers.

plot_objects <- function() {
  dat <- make_groups(n = c(80, 70), d = 5)
  set.seed(1)
  f <- fair_pca(dat$x, dat$g, k = 2)
  fp <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", iterations = 40)
  css <- fair_css(dat$x, dat$g, k = 2)
  pf <- suppressWarnings(pareto_front(dat$x, dat$g, k = 2, restarts = 2, iterations = 40),
                         classes = "fairproj_convergence_warning")
  tn <- suppressWarnings(tune_fair_pca(dat$x, dat$g, k = 2, method = "robust",
                                       grid = list(alpha = c(0.05, 0.15), lambda = c(0, 0.5)),
                                       iterations = 30, restarts = 0, seed = 1),
                         classes = "fairproj_tune_warning")
  list(dat = dat, fit = f, pareto_fit = fp, css = css, front = pf, tune = tn)
}

test_that("every class's types come from fp_plot_types, the first the default", {
  o <- plot_objects()
  expect_identical(fairproj:::fp_plot_types_of(o$fit), fairproj:::fp_plot_types$fair_pca)
  # a subclass keeps its parent's types
  expect_identical(fairproj:::fp_plot_types_of(o$pareto_fit), fairproj:::fp_plot_types$fair_pca)
  expect_identical(fairproj:::fp_plot_type(o$css), "path")
  expect_identical(fairproj:::fp_plot_type(o$tune), "criterion")
  expect_error(fairproj:::fp_plot_type(o$fit, "nope"), class = "fairproj_input_error")
  expect_error(fairproj:::fp_plot_data(list(), NULL), class = "fairproj_input_error")
  # arguments a type does not take are an error naming `...`
  expect_error(fairproj:::fp_plot_data(o$css, "path", kmax = 3), class = "fairproj_input_error")
})

test_that("errors and loss: every group and both fits at each k, equal to the fits' group tables", {
  o <- plot_objects()
  pd <- fairproj:::fp_plot_data(o$fit, "errors", kmax = 4, quiet = TRUE)
  expect_true(all(c("k", "group", "fit", "value") %in% names(pd)))
  expect_identical(levels(pd$group), levels(o$dat$g))
  expect_identical(levels(pd$fit), c("min-max", "standard PCA"))
  expect_setequal(pd$k, 1:4)
  expect_equal(nrow(pd), 4L * 2L * 2L)
  at2 <- pd[pd$k == 2 & pd$fit == "min-max", ]
  expect_equal(at2$value, o$fit$group_stats$error[match(at2$group, o$fit$group_stats$group)])
  at2s <- pd[pd$k == 2 & pd$fit == "standard PCA", ]
  expect_equal(at2s$value, o$fit$group_stats_standard$error)
  spec <- attr(pd, "fp_spec")
  expect_identical(unname(spec$scales$colour$values), fairproj:::fp_palette(2))
  expect_identical(spec$labels$x, "number of components k")
  # min-max equalises the two groups' losses: the points are set side by side and said so
  pl <- fairproj:::fp_plot_data(o$fit, "loss", kmax = 3, quiet = TRUE)
  mm <- pl[pl$fit == "min-max" & pl$k == 2, ]
  expect_equal(mm$value[1], mm$value[2], tolerance = 1e-6)
  expect_match(attr(pl, "fp_spec")$labels$caption, "side by side")
  rows <- fairproj:::fp_plot_rows(pl, attr(pl, "fp_spec"))
  r2 <- rows[rows$fit == "min-max" & rows$k == 2, ]
  expect_length(unique(r2$.x), 2L)
  expect_true(all(abs(r2$.x - 2) < 0.5))
  # standard PCA has one fit, no line-type scale
  fs <- fair_pca(o$dat$x, o$dat$g, k = 2, method = "standard")
  ps <- fairproj:::fp_plot_data(fs, "errors", kmax = 3, quiet = TRUE)
  expect_identical(levels(ps$fit), "standard PCA")
  expect_null(attr(ps, "fp_spec")$scales$linetype)
})

test_that("scores, scree and convergence frames", {
  o <- plot_objects()
  sc <- fairproj:::fp_plot_data(o$fit, "scores")
  expect_equal(nrow(sc), 150L)
  expect_identical(levels(sc$group), levels(o$dat$g))
  expect_equal(sc$x, unname(o$fit$x[, 1]))
  expect_match(attr(sc, "fp_spec")$labels$x, "^PC1 \\(")
  sr <- fairproj:::fp_plot_data(o$fit, "scree", kmax = 5)
  std <- sr[sr$fit == "standard PCA", ]
  expect_equal(std$value, stats::prcomp(o$dat$x)$sdev^2, tolerance = 1e-8)
  expect_equal(sr$value[sr$fit == "min-max"], o$fit$sdev^2)
  # the y axis of the base renderer covers every bar, up to a tick
  spec <- attr(sr, "fp_spec")
  layers <- lapply(spec$layers, function(l) list(layer = l, rows = fairproj:::fp_plot_rows(sr, spec, l)))
  lim <- fairproj:::fp_base_limits(layers, spec)
  expect_gte(lim$y[2], max(sr$value))
  expect_equal(lim$y[1], 0)
  expect_true(lim$y[2] %in% pretty(c(0, max(sr$value))))
  cv <- fairproj:::fp_plot_data(o$pareto_fit, "convergence")
  expect_setequal(as.character(cv$series), c("total loss", names(o$pareto_fit$objectives)[-1]))
  expect_true(all(cv$value >= 0 & cv$value <= 1))
  expect_error(fairproj:::fp_plot_data(fair_pca(o$dat$x, o$dat$g, k = 2, method = "standard"), "convergence"),
               class = "fairproj_input_error")
})

test_that("CSS path: each group, MinMaxLoss as their largest, the selected columns named", {
  o <- plot_objects()
  pd <- fairproj:::fp_plot_data(o$css)
  lev <- as.character(o$css$groups$group)
  top <- pd[pd$group == "MinMaxLoss (largest)", ]
  grp <- pd[pd$group %in% lev, ]
  expect_equal(top$value, as.vector(tapply(grp$value, grp$k, max)))
  expect_equal(top$value[nrow(top)], o$css$loss)
  spec <- attr(pd, "fp_spec")
  expect_identical(spec$x_breaks, seq_len(o$css$c))
  expect_true(all(vapply(o$css$column_names, function(n) any(grepl(n, spec$x_labels, fixed = TRUE)), logical(1))))
  expect_identical(vapply(spec$ref, `[[`, character(1), "axis"), c("h", "v"))
  expect_false(any(spec$scales$colour$values %in% c("red", "green")))
})

test_that("Pareto front relative to standard PCA, with its range stated", {
  o <- plot_objects()
  pd <- fairproj:::fp_plot_data(o$front)
  s <- o$front$standard
  fits <- pd[pd$fit != "standard PCA", ]
  expect_equal(fits$value, 100 * (o$front$table$total / s[["total"]] - 1))
  expect_equal(pd$value[pd$fit == "standard PCA"], 0)
  expect_equal(pd$disparity[pd$fit == "standard PCA"], s[["disparity"]])
  expect_match(attr(pd, "fp_spec")$labels$caption, "span")
  expect_match(attr(pd, "fp_spec")$labels$y, "% above standard PCA")
  expect_false(grepl("coincide", attr(pd, "fp_spec")$labels$caption))
  # fits that coincide hide each other's markers: the frame counts them and the caption says so
  pf2 <- o$front
  pf2$table <- rbind(pf2$table, pf2$table[1, ])
  pd2 <- fairproj:::fp_plot_data(pf2)
  expect_equal(pd2$overlap[pd2$fit %in% c("fit 1", sprintf("fit %d", nrow(pf2$table)))], c(2L, 2L))
  expect_match(attr(pd2, "fp_spec")$labels$caption, "2 fits coincide at 1 point(s)", fixed = TRUE)
  # standard PCA, drawn as a cross, is in the status legend once, not also a dot in the fit legend
  leg <- fairproj:::fp_legend_blocks(pd, attr(pd, "fp_spec"))
  names(leg) <- vapply(leg, `[[`, "", "title")
  expect_false("standard PCA" %in% leg$fit$labels)
  expect_identical(leg$status$pch[leg$status$labels == "standard PCA"], 4L)
  skip_if_not_installed("ggplot2")
  gg <- ggplot2::ggplot_build(ggplot2::autoplot(o$front))
  sc <- gg$plot$scales$get_scales("colour")
  expect_false("standard PCA" %in% sc$get_breaks())
  expect_true("standard PCA" %in% gg$plot$scales$get_scales("shape")$get_breaks())
})

test_that("tuning frames: one row per candidate, the chosen one marked", {
  o <- plot_objects()
  pd <- fairproj:::fp_plot_data(o$tune)
  expect_equal(nrow(pd), nrow(o$tune$table))
  expect_equal(sum(pd$chosen == "TRUE"), 1L)
  expect_equal(pd$value[pd$chosen == "TRUE"], min(o$tune$table$criterion))
  expect_equal(pd$upper - pd$lower, 2 * o$tune$table$se)
  expect_identical(attr(pd, "fp_spec")$labels$x, "alpha")
  expect_identical(levels(pd$series), c("lambda = 0.0", "lambda = 0.5"))
  tr <- fairproj:::fp_plot_data(o$tune, "tradeoff")
  expect_equal(tr$ABDiff, o$tune$table$ABDiff)
})

test_that("contract: plot, autoplot and tidy(matrix = 'plot') of every class and type draw the same frame", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  o <- plot_objects()
  objs <- o[c("fit", "pareto_fit", "css", "front", "tune")]
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  for (nm in names(objs)) {
    x <- objs[[nm]]
    for (type in fairproj:::fp_plot_types_of(x)) {
      if (nm == "fit" && type == "convergence") x <- o$pareto_fit
      args <- if (type %in% c("errors", "loss", "scree")) list(kmax = 3) else list()
      pd <- suppressMessages(do.call(plot, c(list(x, type), args)))
      expect_s3_class(pd, "fairproj_plot_data")
      td <- suppressMessages(do.call(tidy, c(list(x, matrix = "plot", type = type), args)))
      expect_equal(as.data.frame(td), structure(as.data.frame(unclass(pd)), fp_spec = NULL, fp_type = NULL),
                   ignore_attr = TRUE)
      if (requireNamespace("tibble", quietly = TRUE)) expect_s3_class(td, "tbl_df")
      if (requireNamespace("ggplot2", quietly = TRUE)) {
        p <- suppressMessages(do.call(ggplot2::autoplot, c(list(x, type), args)))
        expect_s3_class(p, "ggplot")
        expect_identical(p$labels$title, attr(pd, "fp_spec")$labels$title)
        b <- expect_silent(ggplot2::ggplot_build(p))
        # the colours drawn are the specification's
        sc <- attr(pd, "fp_spec")$scales$colour
        if (!is.null(sc)) {
          drawn <- unique(unlist(lapply(b$data, function(d) d$colour)))
          expect_true(all(drawn %in% c(sc$values, "black", "grey40", "grey30")), info = paste(nm, type))
        }
      }
    }
  }
})

test_that("groups and methods never share a colour: one palette for each, in every plot type", {
  o <- plot_objects()
  dat <- o$dat
  a <- fair_audit(dat$x, dat$g, k = 1:2, outcome = as.integer(dat$x[, 1] > 0), replicates = 0, seed = 1)
  groups <- fairproj:::fp_palette(8)
  methods <- fairproj:::fp_palette_methods(5)
  expect_length(intersect(groups, methods), 0L)
  # Okabe-Ito's yellow, faint on white, only from the seventh group on
  expect_false("#F0E442" %in% fairproj:::fp_palette(6))
  expect_identical(fairproj:::fp_palette(7)[7], "#F0E442")
  expect_identical(anyDuplicated(groups), 0L)
  frames <- list(fit = list(o$fit, "loss", kmax = 2, quiet = TRUE), scree = list(o$pareto_fit, "scree", kmax = 2),
                 conv = list(o$pareto_fit, "convergence"), css = list(o$css, "path"), front = list(o$front, "front"),
                 tune = list(o$tune, "criterion"), price = list(a, "price"), losses = list(a, "losses"),
                 downstream = list(a, "downstream"), accuracy = list(a, "accuracy"))
  for (nm in names(frames)) {
    spec <- attr(do.call(fairproj:::fp_plot_data, frames[[nm]]), "fp_spec")
    sc <- spec$scales$colour
    fixed <- unlist(lapply(spec$layers, `[[`, "colour"))
    by_group <- !is.null(sc) && sc$column == "group"
    cols <- setdiff(c(if (!is.null(sc)) unname(sc$values), fixed), c("black", "grey35", "grey60"))
    # a colour keyed to groups is a group colour; any other (methods, fits, starts, candidates,
    # objectives) is a method colour
    expect_true(all(cols %in% if (by_group) groups else methods), info = nm)
  }
})

test_that("labels can be replaced; base plots leave par() as they found it", {
  o <- plot_objects()
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  before <- graphics::par("mar")
  plot(o$css, main = "my title", ylab = "loss")
  expect_identical(graphics::par("mar"), before)
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(o$css, main = "my title", ylab = "loss")
  expect_identical(p$labels$title, "my title")
  expect_identical(p$labels$y, "loss")
})

test_that("errors at a single k: the groups' points sit near the middle of the panel, not at its edges (#45)", {
  dat <- make_groups(n = c(90, 80), d = 5)
  # inlp cannot be refitted at other k from the moments: the plot has the fitted k only
  f <- suppressWarnings(fair_pca(dat$x, dat$g, k = 3, method = "inlp"))
  pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  d <- suppressMessages(plot(f, "errors"))
  expect_equal(unique(d$k), 3)
  spec <- attr(d, "fp_spec")
  rows <- fp_plot_rows(d, spec)
  off <- range(rows$.x) - 3
  # dodged by a fixed fraction of a unit
  expect_true(all(abs(off) > 0 & abs(off) < 0.25))
  lim <- fp_base_limits(lapply(spec$layers, function(l) list(layer = l, rows = fp_plot_rows(d, spec, l))), spec)
  # the panel is at least one unit wide around k, so the offsets are a small part of it
  expect_lte(lim$x[1], 2.5)
  expect_gte(lim$x[2], 3.5)
  # at several k the panel follows the data, as before
  f2 <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  d2 <- suppressMessages(plot(f2, "errors", kmax = 4))
  spec2 <- attr(d2, "fp_spec")
  lim2 <- fp_base_limits(lapply(spec2$layers, function(l) list(layer = l, rows = fp_plot_rows(d2, spec2, l))), spec2)
  expect_equal(lim2$x, range(fp_plot_rows(d2, spec2)$.x))
  skip_if_not_installed("ggplot2")
  gg <- suppressMessages(ggplot2::ggplot_build(ggplot2::autoplot(f, "errors")))
  xr <- gg$layout$panel_params[[1]]$x.range
  expect_lte(xr[1], 2.5)
  expect_gte(xr[2], 3.5)
})

test_that("the tuning criterion plot has its ticks at the values tried and dodges by a small fraction of the grid", {
  dat <- make_groups(n = c(80, 60), d = 5)
  tn <- tune_fair_pca(dat$x, dat$g, k = 2, method = "robust", grid = list(alpha = c(0.05, 0.15), lambda = c(0, 0.5)),
                      folds = 3, iterations = 20, restarts = 1, iterate = "best", seed = 1)
  pd <- fp_plot_data(tn, "criterion")
  spec <- attr(pd, "fp_spec")
  expect_equal(spec$x_breaks, c(0.05, 0.15))
  rows <- fp_plot_rows(pd, spec)
  expect_lte(max(abs(rows$.x - rows$position)), 0.1 * 0.1 + 1e-12)  # a tenth of the grid's spacing at most
})

test_that("reference line labels keep to their lines unless closer than a label's height", {
  # apart: each at its line; within `sep`: a run centred on the lines' mean, in their order
  expect_equal(fp_ref_label_at(c(3, 7), 1, c(0, 10)), c(3, 7))
  expect_equal(fp_ref_label_at(c(5, 5.2), 1, c(0, 10)), c(4.6, 5.6))
  expect_equal(fp_ref_label_at(c(5.2, 5), 1, c(0, 10)), c(5.6, 4.6))
  # runs that meet merge; none leaves the axis (half a label inside each end)
  expect_equal(fp_ref_label_at(c(1, 1.5, 2.6), 1, c(0, 10)), c(0.7, 1.7, 2.7))
  expect_equal(fp_ref_label_at(c(9.9, 10), 1, c(0, 10)), c(8.5, 9.5))
  expect_equal(fp_ref_label_at(0, 1, c(0, 10)), 0.5)
})

test_that("wrapped labels keep the line count of strwrap() with lines of about equal length", {
  fp_wrap_even <- fairproj:::fp_wrap_even
  expect_identical(fp_wrap_even("objective, rescaled to [0, 1]", 28), c("objective,", "rescaled to [0, 1]"))
  s <- "one point per candidate; ring: chosen: alpha = 0.05, lambda = 0"
  expect_length(fp_wrap_even(s, 60), length(strwrap(s, 60)))
  expect_lte(diff(range(nchar(fp_wrap_even(s, 60)))), 4)
  expect_identical(fp_wrap_even("short", 60), "short")
  expect_identical(fp_wrap_even(s, 100), s)
})

test_that("the CSS path's column names along x stay on a 5 x 4 in device", {
  # horizontal tick labels are centred on the first and last columns: the margins take their halves
  cf <- fair_css(as.matrix(iris[1:4]), iris$Species, k = 3)  # the last label: "3: Sepal.Length"
  rec <- new.env()
  suppressMessages(trace(graphics::axis, exit = bquote({
    if (side == 1 && is.character(labels)) {
      w <- graphics::strwidth(labels, units = "inches", cex = list(...)$cex.axis)
      ctr <- graphics::grconvertX(at, "user", "inches")
      assign("edges", c(min(ctr - w / 2), max(ctr + w / 2), graphics::par("din")[1]), .(rec))
    }
  }), print = FALSE, where = asNamespace("graphics")))
  on.exit(suppressMessages(untrace(graphics::axis, where = asNamespace("graphics"))), add = TRUE)
  grDevices::pdf(NULL, width = 5, height = 4)
  plot(cf)
  grDevices::dev.off()
  expect_gte(rec$edges[1], 0)
  expect_lte(rec$edges[2], rec$edges[3])
})

test_that("reference lines at NA, Inf or several values draw in both renderers, labelling what the axis shows", {
  # the labels in the right margin (fp_ref_h_labels()) stopped both renderers at NA and a
  # reference with two values; a non-finite value is not labelled, each finite one is
  spec <- fp_spec("k", "value", list(fp_layer("point")), ref = list(fp_ref("h", NA_real_, "none"), fp_ref("h", Inf, "far"),
                                                                  fp_ref("h", c(1, 2), "two")))
  pd <- fp_plot_frame(data.frame(k = 1:3, value = c(0.5, 1.5, 2.5)), spec, "test")
  expect_identical(fp_ref_h_labels(spec), list(at = c(1, 2), label = c("two", "two")))
  grDevices::pdf(NULL, width = 5, height = 4)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_silent(fp_render_base(pd))
  skip_if_not_installed("ggplot2")
  texts <- function(x) {
    c(if (inherits(x, "text")) x$label, unlist(lapply(x$children, texts)), unlist(lapply(x$grobs, texts)))
  }
  g <- suppressWarnings(ggplot2::ggplotGrob(fp_render_gg(pd)))  # ggplot2's own: the line at NA removed
  expect_identical(unname(texts(g$grobs[[which(g$layout$name == "axis-r")]])), c("two", "two"))
})
