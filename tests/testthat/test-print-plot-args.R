# The arguments of the print() and plot() methods of every result class: `digits`, `main`,
# `xlab`, `ylab`, `legend`, biplot()'s graphical arguments, an audit plot's `methods`, the name
# of the argument in their errors, abbreviated choices (R/validate.R, R/plot-data.R, the methods
# files).

args_data <- function() {
  dat <- make_groups(n = c(80, 60, 50), d = 5)
  dat$fit <- fair_pca(dat$x, dat$g, k = 2)
  dat
}

# Draw into a throw-away device (base graphics, or a ggplot object printed).
draws <- function(expr) {
  grDevices::png(tempfile(fileext = ".png"))
  on.exit(grDevices::dev.off(), add = TRUE)
  p <- expr
  if (inherits(p, "ggplot")) print(p)
  invisible(TRUE)
}

test_that("digits is checked before anything prints, by every print method, with a classed error", {
  dat <- args_data()
  objs <- list(fit = dat$fit, pareto = fair_pca(dat$x, dat$g, k = 2, method = "pareto"),
               mean = fair_pca(dat$x, dat$g, k = 2, method = "mean"),
               css = fair_css(dat$x, dat$g, k = 2), kpca = fair_kpca(dat$x, dat$g, k = 2),
               moments = group_moments(dat$x, dat$g))
  objs$summary_fit <- summary(objs$fit)
  objs$summary_css <- summary(objs$css)
  for (nm in names(objs)) {
    for (bad in list(0, -1, NA, NA_real_, "a", 23, 2.5, c(3, 4), TRUE)) {
      out <- utils::capture.output(
        e <- expect_error(print(objs[[nm]], digits = bad), class = "fairproj_input_error"))
      expect_match(conditionMessage(e), "`digits` must be a whole number from 1 to 22", fixed = TRUE, info = nm)
      expect_identical(out, character(0), info = nm)  # nothing printed before the error
    }
    # NULL is the default, for every method alike; 1 and 22 are valid
    expect_identical(utils::capture.output(print(objs[[nm]], digits = NULL)), utils::capture.output(print(objs[[nm]])),
                     info = nm)
    expect_output(print(objs[[nm]], digits = 1), info = nm)
    expect_output(print(objs[[nm]], digits = 22), info = nm)
  }
})

test_that("the data readers keep their digits check (NULL: no rounding, 0 allowed)", {
  expect_null(fp_check_digits(NULL))
  expect_identical(fp_check_digits(0), 0L)
  expect_error(fp_check_digits(-1), "`digits` must be NULL or a whole number >= 0", class = "fairproj_input_error")
})

test_that("print() of an audit and of group moments honours digits", {
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:2, outcome = dat$y, replicates = 0, seed = 1)
  one <- utils::capture.output(print(a, digits = 1))
  many <- utils::capture.output(print(a, digits = 8))
  expect_false(identical(one, many))
  expect_identical(utils::capture.output(print(a, digits = NULL)), utils::capture.output(print(a)))
  expect_identical(utils::capture.output(print(a, digits = 3)), utils::capture.output(print(a)))
  expect_error(print(a, digits = 0), "`digits`", class = "fairproj_input_error")
  expect_error(print(summary(a), digits = "a"), "`digits`", class = "fairproj_input_error")
  m <- group_moments(dat$x, dat$g)
  expect_false(identical(utils::capture.output(print(m, digits = 1)), utils::capture.output(print(m, digits = 10))))
})

test_that("print() of a tuning result and a Pareto front checks digits", {
  dat <- args_data()
  pf <- suppressWarnings(pareto_front(dat$x, dat$g, k = 1, restarts = 2))
  expect_error(print(pf, digits = 0), "`digits`", class = "fairproj_input_error")
  expect_error(print(summary(pf), digits = NA), "`digits`", class = "fairproj_input_error")
  expect_output(print(pf, digits = NULL))
  tu <- suppressWarnings(suppressMessages(tune_fair_pca(dat$x, dat$g, k = 1, method = "robust",
                                                        grid = data.frame(lambda = c(0, 1)), folds = 2, seed = 1,
                                                        iterations = 20, restarts = 0)))
  expect_error(print(tu, digits = -1), "`digits`", class = "fairproj_input_error")
  expect_error(print(summary(tu), digits = c(1, 2)), "`digits`", class = "fairproj_input_error")
  expect_output(print(tu, digits = 2))
})

test_that("plot titles and axis labels must be single strings, in both renderers", {
  dat <- args_data()
  css <- fair_css(dat$x, dat$g, k = 2)
  for (arg in c("main", "xlab", "ylab")) {
    for (bad in list(c("a", "b"), character(0), NA, NA_character_, 1)) {
      a <- stats::setNames(list(bad), arg)
      e <- expect_error(draws(do.call(plot, c(list(dat$fit, "scree"), a))), class = "fairproj_input_error")
      expect_match(conditionMessage(e), sprintf("`%s` must be a single string", arg), fixed = TRUE)
      expect_error(draws(do.call(plot, c(list(css), a))), sprintf("`%s`", arg), class = "fairproj_input_error")
      skip_if_not_installed("ggplot2")
      expect_error(draws(do.call(ggplot2::autoplot, c(list(dat$fit, "scree"), a))), sprintf("`%s`", arg),
                   class = "fairproj_input_error")
    }
  }
  expect_true(draws(plot(dat$fit, "scree", main = "a title", xlab = "", ylab = "variance")))
  expect_true(draws(plot(dat$fit, "scree", main = NULL)))
  skip_if_not_installed("ggplot2")
  expect_true(draws(ggplot2::autoplot(dat$fit, "scree", main = "a title", xlab = "k")))
})

test_that("legend is TRUE or FALSE (NULL: none), for every class", {
  dat <- args_data()
  kp <- fair_kpca(dat$x, dat$g, k = 2)
  for (bad in list("no", NA, 1, c(TRUE, FALSE))) {
    e <- expect_error(draws(plot(dat$fit, "scree", legend = bad)), class = "fairproj_input_error")
    expect_match(conditionMessage(e), "`legend` must be TRUE or FALSE", fixed = TRUE)
    expect_error(draws(plot(kp, legend = bad)), "`legend`", class = "fairproj_input_error")
  }
  expect_true(draws(plot(kp, legend = FALSE)))
  expect_true(draws(plot(kp, legend = TRUE)))
  expect_true(draws(plot(kp, legend = NULL)))
})

test_that("biplot() takes plot()'s xlim, ylim, col, xlab, ylab and main and checks its own arguments", {
  dat <- args_data()
  fit <- dat$fit
  expect_true(draws(biplot(fit, xlim = c(-0.3, 0.3))))
  expect_true(draws(biplot(fit, xlim = c(-0.3, 0.3), ylim = c(-0.2, 0.4), col = "red", xlab = "first", ylab = "second",
                           main = "a biplot", pch = 1)))
  expect_true(draws(biplot(fit, col = seq_len(nrow(dat$x)) %% 3 + 1, max_labels = Inf, cex = 0.5)))
  for (bad in list(NA, c(1, 2), "a", -1, 1.5, -Inf, NaN)) {
    expect_error(draws(biplot(fit, max_labels = bad)), "`max_labels`", class = "fairproj_input_error")
  }
  for (bad in list("a", 0, -1, NA, c(1, 2), Inf)) {
    expect_error(draws(biplot(fit, cex = bad)), "`cex`", class = "fairproj_input_error")
  }
  expect_error(draws(biplot(fit, xlim = c(NA, 1))), "`xlim`", class = "fairproj_input_error")
  expect_error(draws(biplot(fit, ylim = 1)), "`ylim`", class = "fairproj_input_error")
  expect_error(draws(biplot(fit, col = "not a colour")), "`col`", class = "fairproj_input_error")
  expect_error(draws(biplot(fit, col = c("red", "blue"))), "`col`", class = "fairproj_input_error")
  expect_error(draws(biplot(fit, main = c("a", "b"))), "`main`", class = "fairproj_input_error")
  expect_error(draws(biplot(fit, xlab = character(0))), "`xlab`", class = "fairproj_input_error")
  expect_error(draws(biplot(fit, 1:2, 200, NULL, 3)), "`...` must be named", class = "fairproj_input_error")
})

test_that("an audit plot draws a method named twice once, for every type", {
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:2, outcome = dat$y, replicates = 0, seed = 1)
  for (ty in fp_plot_types[["fairproj_audit"]]) {
    twice <- tidy(a, "plot", type = ty, methods = c("minmax", "minmax"))
    expect_identical(twice, tidy(a, "plot", type = ty, methods = "minmax"), info = ty)
    expect_true(draws(plot(a, ty, methods = c("minmax", "minmax"))))
    skip_if_not_installed("ggplot2")
    expect_true(draws(ggplot2::autoplot(a, ty, methods = c("minmax", "minmax"))))
  }
})

test_that("errors name the argument of the function called", {
  dat <- args_data()
  one <- fair_pca(dat$x, dat$g, k = 1)
  expect_error(draws(plot(one, "scores")), "^`x` has one component", class = "fairproj_input_error")
  expect_error(draws(plot(fair_kpca(dat$x, dat$g, k = 1), "scores")), "^`x` has one component",
               class = "fairproj_input_error")
  m <- group_moments(dat$x, dat$g)
  expect_error(c(m, 1), "^`...` must hold group_moments objects", class = "fairproj_input_error")
  expect_error(c(m, m, "a"), "element 2", class = "fairproj_input_error")
  expect_s3_class(c(m, m), "group_moments")
})

test_that("an ambiguous abbreviation says so and lists the choices it abbreviates", {
  dat <- args_data()
  e <- expect_error(plot(dat$fit, "sc"), class = "fairproj_input_error")
  expect_match(conditionMessage(e), "`type` 'sc' is ambiguous: it abbreviates \"scores\" and \"scree\"", fixed = TRUE)
  expect_error(fp_match_arg("a", c("ab", "ac", "ad"), "type"), "\"ab\", \"ac\" and \"ad\"", class = "fairproj_input_error")
  expect_error(plot(dat$fit, "zz"), "'zz' is not one of", class = "fairproj_input_error")
  expect_identical(fp_match_arg("scr", c("scores", "scree"), "type"), "scree")
  expect_identical(fp_match_arg("ab", c("ab", "abc"), "type"), "ab")  # an exact match is no abbreviation
})

test_that("print() shows a negative duality gap within rounding as 0 and keeps the stored value", {
  dat <- args_data()
  full <- fair_pca(dat$x, dat$g, k = ncol(dat$x))
  gap <- full$duality_gap
  out <- utils::capture.output(print(full))
  line <- grep("duality gap", out, value = TRUE)
  if (gap < 0) {
    expect_match(line, "duality gap 0 (to rounding)", fixed = TRUE)
  } else {
    expect_false(grepl("-", sub(".*duality gap", "", line)))
  }
  expect_identical(full$duality_gap, gap)
  # a gap made negative by rounding prints as 0; the object is unchanged
  full$duality_gap <- -4.6e-15
  expect_match(grep("duality gap", utils::capture.output(print(full)), value = TRUE), "duality gap 0 (to rounding)",
               fixed = TRUE)
  expect_identical(full$duality_gap, -4.6e-15)
})

test_that("a fair_pca plot rejects arguments of another plot type, a bad quiet and equal choices", {
  dat <- args_data()
  fit <- dat$fit
  expect_error(plot(fit, "loss", quiet = NA), "^`quiet`", class = "fairproj_input_error")
  expect_error(plot(fit, "loss", quiet = "yes"), "^`quiet`", class = "fairproj_input_error")
  expect_error(plot(fit, "scores", choices = c(1, 1)), "^`choices`", class = "fairproj_input_error")
  expect_error(plot(fit, "scree", choices = 1:2), "choices", class = "fairproj_input_error")
  expect_error(plot(fit, "scores", kmax = 3), "kmax", class = "fairproj_input_error")
  expect_error(plot(fit, "convergence", kmax = 3), class = "fairproj_input_error")
  kp <- fair_kpca(dat$x, dat$g, k = 2)
  expect_error(plot(kp, "scree", choices = 1:2), "choices", class = "fairproj_input_error")
  expect_true(draws(plot(fit, "loss", kmax = 3, quiet = TRUE)))
  expect_true(draws(plot(fit, "scores", choices = 2:1)))
})

test_that("autoplot() takes legend as plot() does", {
  skip_if_not_installed("ggplot2")
  dat <- args_data()
  p <- ggplot2::autoplot(dat$fit, "errors", kmax = 3, quiet = TRUE, legend = FALSE)
  expect_identical(p$scales$get_scales("colour")$guide, "none")
  q <- ggplot2::autoplot(dat$fit, "errors", kmax = 3, quiet = TRUE)
  expect_false(identical(q$scales$get_scales("colour")$guide, "none"))
  expect_true(draws(p))
  expect_error(ggplot2::autoplot(dat$fit, legend = NA), "^`legend`", class = "fairproj_input_error")
  expect_error(ggplot2::autoplot(dat$fit, legend = "no"), "^`legend`", class = "fairproj_input_error")
})
