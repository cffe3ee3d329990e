test_that("autoplot returns ggplots for every result class", {
  skip_if_not_installed("ggplot2")
  dat <- make_groups(n = c(80, 70), d = 5)
  f <- fair_pca(dat$x, dat$g, k = 2)
  p <- ggplot2::autoplot(f, "scores")
  expect_s3_class(p, "ggplot")
  expect_equal(nrow(p$layers[[1]]$data), 150L)
  expect_message(p2 <- ggplot2::autoplot(f, kmax = 3), "Refitting")
  expect_s3_class(p2, "ggplot")
  expect_s3_class(ggplot2::autoplot(f, "scree"), "ggplot")
  fp <- fair_pca(dat$x, dat$g, k = 2, method = "pareto", iterations = 30)
  expect_s3_class(ggplot2::autoplot(fp, "convergence"), "ggplot")
  pf <- suppressWarnings(pareto_front(dat$x, dat$g, k = 2, restarts = 1, iterations = 30),
                         classes = "fairproj_convergence_warning")
  expect_output(print(pf), "of them converged")
  expect_s3_class(ggplot2::autoplot(pf), "ggplot")
  expect_s3_class(ggplot2::autoplot(fair_css(dat$x, dat$g, k = 2)), "ggplot")
  expect_error(ggplot2::autoplot(f, "nope"), class = "fairproj_input_error")
})

test_that("legends of five long group names fit a 5 x 4 in device, in the base renderer's order", {
  skip_if_not_installed("ggplot2")
  lev <- c("White", "Black or African American", "American Indian or Alaska Native", "Asian",
           "Other Pacific Islander")
  dat <- make_groups(n = rep(40, 5), d = 5)
  g <- factor(rep(lev, length.out = nrow(dat$x)))
  f <- fair_pca(dat$x, g, k = 2)
  plots <- list(errors = ggplot2::autoplot(f, "errors", kmax = 3, quiet = TRUE), scores = ggplot2::autoplot(f, "scores"),
                path = ggplot2::autoplot(fair_css(dat$x, g, k = 2)))
  grDevices::pdf(NULL, width = 5, height = 4)
  on.exit(grDevices::dev.off(), add = TRUE)
  for (ty in names(plots)) {
    gt <- ggplot2::ggplotGrob(plots[[ty]])
    box <- gt$grobs[[which(gt$layout$name == "guide-box")]]
    w <- grid::convertWidth(grid::grobWidth(box), "in", valueOnly = TRUE)
    # 4 in on pdf() (a png device's fonts are some 8% wider): the legend is centred under the
    # panel, not the device, and one 4.2 in wide ran off a 5 in png
    expect_lte(w, 4, label = sprintf("legend width of %s", ty))
  }
  # group first, then method, as fp_legend_blocks() lays out the base legend
  gt <- ggplot2::ggplotGrob(plots$errors)
  labels_of <- function(g) if (inherits(g, "text")) g$label else unlist(lapply(c(g$grobs, g$children), labels_of))
  drawn <- unname(labels_of(gt$grobs[[which(gt$layout$name == "guide-box")]]))
  pd <- fairproj:::fp_plot_data(f, "errors", kmax = 3, quiet = TRUE)
  base <- fairproj:::fp_legend_blocks(pd, attr(pd, "fp_spec"))
  expect_identical(drawn[drawn %in% c("group", "method")], vapply(base, `[[`, "", "title"))
})
