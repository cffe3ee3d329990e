# fair_audit(): every method at every k from the moments, its tables, downstream checks, plots
# and the R Markdown template.

audit_data <- function() {
  dat <- make_groups(n = c(120, 90), d = 6)
  set.seed(2)
  # an outcome that depends on the data and the group
  eta <- drop(scale(dat$x) %*% c(1, -0.5, 0.5, 0, 0.3, 0)) + 0.8 * (dat$g == "b")
  dat$y <- as.integer(eta + rnorm(nrow(dat$x)) > 0)
  dat$z <- eta + rnorm(nrow(dat$x))
  dat
}

test_that("every method at every k, each row equal to a separate fair_pca() fit", {
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:4, methods = "mean", minmax = list(gap_tol = 1e-11))
  expect_s3_class(a, "fairproj_audit")
  expect_identical(a$methods, c("standard", "minmax", "mean"))  # standard and the fair default added
  expect_identical(a$k, 1:4)
  expect_equal(nrow(a$table), 3L * 4L)
  expect_setequal(paste(a$table$method, a$table$k), paste(rep(a$methods, each = 4), 1:4))
  expect_equal(nrow(a$groups_table), 3L * 4L * 2L)
  expect_setequal(paste(a$groups_table$method, a$groups_table$k, a$groups_table$group),
                  paste(rep(a$methods, each = 8), rep(rep(1:4, each = 2), 3), c("a", "b")))
  for (m in a$methods) for (k in a$k) {
    args <- if (m == "minmax") list(gap_tol = 1e-11) else list()
    f <- do.call(fair_pca, c(list(dat$x, dat$g, k = k, method = m, scale. = TRUE), args))  # the audit scales by default
    gt <- a$groups_table[a$groups_table$method == m & a$groups_table$k == k, ]
    gs <- f$group_stats
    # the same moments up to rounding (a merge of two passes in the audit): 1e-8 relative
    for (col in c("n", "error", "best", "loss", "var_explained")) {
      expect_equal(gt[[col]], gs[[col]], tolerance = 1e-8, info = paste(m, k, col))
    }
    row <- a$table[a$table$method == m & a$table$k == k, ]
    expect_equal(row$max_loss, max(gs$loss), tolerance = 1e-8)
    expect_equal(row$loss_gap, diff(range(gs$loss)), tolerance = 1e-6)
    expect_identical(row$worst_group, gs$group[which.max(gs$loss)])
    expect_equal(row$var_kept, sum(f$sdev^2) / f$totalvar, tolerance = 1e-8)
    expect_lt(subspace_dist(a$fits[[m]][[as.character(k)]]$rotation, f$rotation), 1e-6)
  }
  # the kept fits name the moments in their call instead of holding a copy
  expect_identical(a$fits$minmax[["2"]]$call[[2]], quote(moments))
  std <- a$table[a$table$method == "standard", ]
  for (m in a$methods) {
    t <- a$table[a$table$method == m, ]
    expect_equal(t$price, std$var_kept - t$var_kept)
    expect_true(all(t$price >= -1e-10))  # standard PCA keeps the most variance
  }
  expect_true(all(a$table$state[a$table$method == "minmax"] != "not converged"))
  expect_true(all(is.na(a$table$converged[a$table$method %in% c("standard", "mean")])))
  expect_true(all(a$table$seconds >= 0))
  # min-max equalises two groups' losses
  mm <- a$table[a$table$method == "minmax", ]
  expect_true(all(mm$loss_gap <= 1e-6 * mm$max_loss))
})

test_that("defaults: k from 1 to 4 groups' worth, below d; the focus k keeps 80% of the variance", {
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g)
  expect_identical(a$k, 1:5)  # min(4 * 2, d - 1)
  std <- a$table[a$table$method == "standard", ]
  expect_identical(a$k_focus, if (any(std$var_kept >= 0.8)) min(std$k[std$var_kept >= 0.8]) else 5L)
  expect_null(a$downstream)
  expect_match(a$downstream_note, "no outcome")
  expect_identical(fair_audit(dat$x[, 1:2], dat$g)$k, 1L)
})

test_that("the price and the relative losses do not depend on the units", {
  dat <- audit_data()
  for (sc in c(TRUE, FALSE)) {
    a <- fair_audit(dat$x, dat$g, k = 1:3, scale. = sc)
    b <- fair_audit(1000 * dat$x + 5, dat$g, k = 1:3, scale. = sc)
    expect_equal(b$table$price, a$table$price, tolerance = 1e-7)
    # scaled losses are unit-free; unscaled ones in squared units
    expect_equal(b$table$max_loss, (if (sc) 1 else 1e6) * a$table$max_loss, tolerance = 1e-6)
    expect_equal(b$groups_table$var_explained, a$groups_table$var_explained, tolerance = 1e-7)
  }
})

test_that("fair_audit() scales by default, as its report template, and never warns about units", {
  dat <- audit_data()
  x <- dat$x
  x[, 3] <- 1e3 * x[, 3]  # one column in other units: unscaled, it holds > 99% of the variance
  expect_warning(fair_pca(x, dat$g, k = 1), class = "fairproj_units_warning")
  a <- expect_no_warning(fair_audit(x, dat$g, k = 1:2, seed = 1))
  expect_true(a$scaled)
  no_time <- function(t) t[setdiff(names(t), "seconds")]
  expect_equal(no_time(a$table), no_time(fair_audit(x, dat$g, k = 1:2, scale. = TRUE, seed = 1)$table))
  sc <- a$table[a$table$method == "standard", "var_kept"]
  expect_equal(sc, fair_audit(scale(x), dat$g, k = 1:2, scale. = FALSE)$table[a$table$method == "standard", "var_kept"],
               tolerance = 1e-10)
  expect_false(fair_audit(x, dat$g, k = 1:2, scale. = FALSE)$scaled)
  tpl <- readLines(system.file("rmarkdown", "templates", "fair-pca-audit", "skeleton", "skeleton.Rmd", package = "fairproj"))
  expect_true(any(grepl("^  scale: true", tpl)))
})

test_that("every input form of fair_pca() gives the same audit", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  dat <- audit_data()
  df <- data.frame(dat$x, grp = dat$g, out = dat$y)
  a <- fair_audit(dat$x, dat$g, k = 1:3)
  same <- function(b) {
    expect_equal(b$table$max_loss, a$table$max_loss, tolerance = 1e-8)
    expect_equal(b$groups_table$loss, a$groups_table$loss, tolerance = 1e-8)
  }
  same(fair_audit(~ ., data = df[names(df) != "out"], group = grp, k = 1:3))
  same(fair_audit(df[names(df) != "out"], "grp", k = 1:3))  # a data.frame and its group column's name
  # from moments: the audit works, the downstream checks are omitted and said so
  m <- group_moments(dat$x, dat$g)
  b <- fair_audit(m, k = 1:3)
  same(b)
  expect_null(b$downstream)
  expect_match(b$downstream_note, "group moments")
  expect_output(print(b), "not run")
  expect_output(print(summary(b)), "not run")
  expect_error(plot(b, "downstream"), class = "fairproj_input_error")
  expect_error(tidy(b, "downstream"), class = "fairproj_input_error")
  # moments merged from chunks
  half <- seq_len(100)
  same(fair_audit(group_moments(dat$x[half, ], dat$g[half]) + group_moments(dat$x[-half, ], dat$g[-half]),
                  k = 1:3))
  # group cells: several attributes
  s <- rep(c("u", "v"), length.out = nrow(dat$x))
  cells <- fair_audit(dat$x, data.frame(g = dat$g, s = s), k = 1:2)
  f <- fair_pca(dat$x, data.frame(g = dat$g, s = s), k = 2, scale. = TRUE)
  expect_identical(cells$groups$group, f$groups$group)
  expect_equal(cells$groups_table$loss[cells$groups_table$method == "minmax" & cells$groups_table$k == 2],
               f$group_stats$loss, tolerance = 1e-8)
  # the outcome as a column name, in both interfaces
  o1 <- fair_audit(~ ., data = df, group = grp, outcome = out, k = 1:2, seed = 3)
  o2 <- fair_audit(df, "grp", outcome = "out", k = 1:2, seed = 3)
  expect_equal(o1$downstream, o2$downstream)
  expect_identical(o1$colnames, colnames(dat$x))  # the outcome is not a feature
  expect_identical(o1$outcome$name, "out")
})

test_that("the formula interface drops rows with missing features from the outcome too", {
  dat <- audit_data()
  df <- data.frame(dat$x, grp = dat$g, out = dat$y)
  df$x1[c(3, 50)] <- NA
  a <- fair_audit(~ ., data = df, group = grp, outcome = out, k = 1:2, seed = 1)
  expect_identical(a$n_dropped, 2L)
  expect_equal(a$n, nrow(df) - 2)
  b <- fair_audit(as.matrix(df[-c(3, 50), 1:6]), df$grp[-c(3, 50)], outcome = df$out[-c(3, 50)], k = 1:2, seed = 1)
  expect_equal(a$downstream, b$downstream)
})

test_that("bad input gives classed errors naming the argument", {
  dat <- audit_data()
  err <- function(expr) expect_error(expr, class = "fairproj_input_error")
  err(fair_audit(dat$x, dat$g, k = 0))
  err(fair_audit(dat$x, dat$g, k = 7))        # above d = 6
  err(fair_audit(dat$x, dat$g, k = c(1, 2.5)))
  err(fair_audit(dat$x, dat$g, k = NA))
  err(fair_audit(dat$x, dat$g, methods = "nope"))
  err(fair_audit(dat$x, dat$g, methods = "inlp", k = 1))  # needs the rows
  # the audit refuses such a method by the class of the solver's condition, not its text
  e <- tryCatch(fair_audit(dat$x, dat$g, methods = c("standard", "rlace"), k = 1), error = identity)
  expect_s3_class(e, "fairproj_input_error")
  expect_match(conditionMessage(e), "^`methods` includes 'rlace'")
  err(fair_audit(dat$x, dat$g, outcome = dat$y[-1]))
  err(fair_audit(dat$x, dat$g, outcome = replace(dat$y, 2, NA)))
  err(fair_audit(dat$x, dat$g, outcome = factor(rep(c("p", "q", "r"), 70))))  # three classes
  err(fair_audit(dat$x, dat$g, outcome = dat$y, test_fraction = 1))
  err(fair_audit(dat$x, dat$g, robust = list(alpha = 0.1)))  # not an audited method
  err(fair_audit(dat$x, dat$g, minmax = 1))
  err(fair_audit(dat$x, dat$g, list(tol = 1)))
  err(fair_audit(dat$x, dat$g, k = 1, minmax = list(nope = 1)))  # fails at every k: the error is kept
  err(fair_audit(dat$x, dat$g, progress = "yes"))
  err(fair_audit(dat$x))
  err(fair_audit(group_moments(dat$x, dat$g), outcome = dat$y))
  err(fair_audit(group_moments(dat$x, dat$g), dat$g))
  a <- fair_audit(dat$x, dat$g, k = 1:2)
  err(summary(a, k = 3))
  err(tidy(a, "nope"))
  err(plot(a, "nope"))
  err(plot(a, "losses", methods = "robust"))
  expect_error(plot(a, "price", methods = "standard"), class = "fairproj_input_error")
})

test_that("a method that cannot reach some k gives NA rows there and its fits elsewhere", {
  x <- as.matrix(iris[, 1:4])
  a <- fair_audit(x, iris$Species, k = 1:3, methods = "mean")  # mean matching: k <= 4 - 2
  r <- a$table[a$table$method == "mean", ]
  expect_identical(r$state[3], "not fitted")
  expect_true(is.na(r$max_loss[3]) && all(!is.na(r$max_loss[1:2])))
  expect_match(r$note[3], "feasible")
  expect_null(a$fits$mean[["3"]])
  expect_output(print(summary(a, k = 3)), "not fitted")
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(plot(a, "losses"))
})

test_that("binary outcome: held-out glm on each fit's scores, with the package's gaps", {
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:3, outcome = dat$y, seed = 11)
  dn <- a$downstream
  expect_equal(nrow(dn), 3L * 3L)
  expect_setequal(paste(dn$method, dn$k), paste(a$table$method, a$table$k))
  test <- a$outcome$test_rows
  expect_equal(length(test), sum(round(0.3 * table(dat$g))))
  expect_equal(as.numeric(table(dat$g[test])), as.numeric(round(0.3 * table(dat$g))))
  for (m in c("standard", "minmax")) {
    f <- fair_pca(dat$x[-test, ], dat$g[-test], k = 2, method = m, scale. = TRUE)
    s <- predict(f, dat$x)
    d <- data.frame(y = dat$y, s)
    model <- suppressWarnings(stats::glm(y ~ ., family = binomial(), data = d[-test, ]))
    pred <- as.integer(stats::predict(model, d[test, ]) > 0)
    gaps <- fairness_gaps(pred, dat$y[test], dat$g[test])
    row <- dn[dn$method == m & dn$k == 2, ]
    expect_equal(row$accuracy, gaps[["accuracy"]])
    expect_equal(row$dp_gap, gaps[["dp_gap"]])
    expect_equal(row$eo_gap, gaps[["eo_gap"]])
    expect_equal(row$error, 1 - row$accuracy)
  }
  ref <- a$downstream_reference
  expect_identical(ref$model, c("all columns", "majority class"))
  maj <- as.integer(mean(dat$y[-test]) > 0.5)
  expect_equal(ref$accuracy[2], mean(dat$y[test] == maj))
  # the seed reproduces the split and leaves the global random state alone
  set.seed(5)
  before <- .Random.seed
  b <- fair_audit(dat$x, dat$g, k = 1:3, outcome = dat$y, seed = 11)
  expect_identical(.Random.seed, before)
  expect_equal(b$downstream, a$downstream)
  expect_identical(a$outcome$type, "binary")
  expect_output(print(a), "Downstream")
})

test_that("numeric outcome: least squares, RMSE and the gap between group mean predictions", {
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:2, outcome = dat$z, seed = 4)
  test <- a$outcome$test_rows
  f <- fair_pca(dat$x[-test, ], dat$g[-test], k = 2, method = "minmax", scale. = TRUE)
  s <- predict(f, dat$x)
  model <- stats::lm(z ~ ., data = data.frame(z = dat$z, s)[-test, ])
  pred <- stats::predict(model, data.frame(s)[test, ])
  row <- a$downstream[a$downstream$method == "minmax" & a$downstream$k == 2, ]
  expect_equal(row$error, sqrt(mean((pred - dat$z[test])^2)))
  mp <- tapply(pred, dat$g[test], mean)
  expect_equal(row$dp_gap, max(mp) - min(mp))
  expect_true(all(is.na(a$downstream$eo_gap)) && all(is.na(a$downstream$accuracy)))
  expect_identical(a$downstream_reference$model, c("all columns", "training mean"))
})

test_that("plots, tidy, print and summary read the audit's tables", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:3, outcome = dat$y, seed = 1)
  expect_identical(fairproj:::fp_plot_types_of(a), fairproj:::fp_plot_types$fairproj_audit)
  pr <- tidy(a, "plot", type = "price")
  t <- a$table[a$table$method != "standard", ]
  expect_equal(pr$value, 100 * t$price)
  expect_setequal(as.character(pr$method), c("minmax", "mean"))
  lo <- tidy(a, "plot", type = "losses", methods = "minmax")
  expect_setequal(as.character(lo$fit), c("minmax", "standard PCA"))
  g <- a$groups_table[a$groups_table$method == "minmax", ]
  expect_equal(lo$value[lo$fit == "minmax"], g$loss[order(g$group, g$k)])
  spec <- attr(fairproj:::fp_plot_data(a, "losses"), "fp_spec")
  expect_equal(unname(spec$scales$linetype$values[c("minmax", "standard PCA")]), c(1L, 2L))
  expect_identical(unname(spec$scales$colour$values), fairproj:::fp_palette(2))
  ds <- tidy(a, "plot", type = "downstream")
  expect_equal(nrow(ds), 2L * nrow(a$downstream))
  expect_equal(ds$value[ds$gap == "demographic parity"], 100 * a$downstream$dp_gap)
  ac <- tidy(a, "plot", type = "accuracy")
  expect_equal(ac$value, 100 * a$downstream$accuracy)
  expect_equal(nrow(tidy(a)), nrow(a$table))
  expect_equal(nrow(tidy(a, "groups")), nrow(a$groups_table))
  expect_equal(nrow(tidy(a, "downstream")), nrow(a$downstream))
  pdf(NULL)
  on.exit(grDevices::dev.off())
  for (type in fairproj:::fp_plot_types$fairproj_audit) {
    expect_s3_class(plot(a, type), "fairproj_plot_data")
    if (requireNamespace("ggplot2", quietly = TRUE)) expect_s3_class(ggplot2::autoplot(a, type), "ggplot")
  }
  expect_error(plot(a, "price", kmax = 2), class = "fairproj_input_error")
  s <- summary(a, k = 2)
  expect_identical(s$k, 2L)
  expect_equal(nrow(s$groups_at_k), 3L * 2L)
  expect_output(print(s), "Price of fairness by k")
  expect_output(print(a), "At k = ")
})

test_that("progress is shown on request and hidden by default outside interactive sessions", {
  dat <- audit_data()
  expect_silent(fair_audit(dat$x, dat$g, k = 1:2))
  msgs <- capture_messages(fair_audit(dat$x, dat$g, k = 1:2, progress = TRUE))
  expect_match(msgs[1], "fair_audit: 3 method")
  expect_match(msgs[length(msgs)], "fits in")
})

test_that("the template renders an HTML report with the figures and the audit's numbers", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  skip_if_not_installed("rmarkdown")
  skip_if_not_installed("knitr")
  skip_if_not(rmarkdown::pandoc_available("1.14"), "pandoc is not available")
  dat <- audit_data()
  df <- data.frame(dat$x, grp = dat$g, out = dat$y)
  td <- tempfile("audit")
  dir.create(td)
  on.exit(unlink(td, recursive = TRUE), add = TRUE)
  rmd <- file.path(td, "audit.Rmd")
  rmarkdown::draft(rmd, template = "fair-pca-audit", package = "fairproj", edit = FALSE)
  render <- function(params) {
    suppressMessages(rmarkdown::render(rmd, params = params, output_dir = td, quiet = TRUE, envir = new.env()))
  }
  html <- paste(readLines(render(list(data = df, group = "grp", outcome = "out", features = NULL, k = 1:3,
                                      seed = 2))), collapse = "\n")
  a <- fair_audit(~ ., data = df, group = grp, outcome = out, k = 1:3, scale. = TRUE, seed = 2)
  # figures: standard PCA's losses, one per fair method, the price, the downstream gaps and accuracy
  expect_equal(lengths(regmatches(html, gregexpr("<img src=\"data:image/png;base64", html))), 6L)
  num <- function(v) trimws(formatC(signif(v, 3), format = "fg", digits = 3, big.mark = ","))
  kf <- a$k_focus
  gs <- a$groups_table[a$groups_table$method == "standard" & a$groups_table$k == kf, ]
  at <- a$table[a$table$k == kf, ]
  for (v in c(num(gs$loss), num(gs$error), num(at$max_loss[at$method == "minmax"]),
              paste0(trimws(formatC(signif(100 * at$price[at$method == "minmax"], 2), format = "fg", digits = 2)), "%"),
              paste0(num(100 * a$downstream$accuracy[a$downstream$k == kf]), "%"))) {
    expect_true(grepl(v, html, fixed = TRUE), info = v)
  }
  # grepl(), not expect_match(), on the pages: expect_match() escapes its whole subject (megabytes
  # of embedded images) for its message even when it passes
  expect_true(grepl(sprintf("With k = %d components, standard PCA keeps", kf), html, fixed = TRUE))
  expect_true(grepl("Downstream checks", html, fixed = TRUE))
  expect_false(grepl("Small group", html, fixed = TRUE))
  # from group moments: the report says the downstream checks were not run; a tiny group is flagged
  m <- group_moments(dat$x[c(1:120, 121:140), ], dat$g[c(1:120, 121:140)])
  html2 <- paste(readLines(render(list(data = m, group = NULL, outcome = NULL, features = NULL, k = 1:2))),
                 collapse = "\n")
  expect_true(grepl("Downstream checks were not run", html2, fixed = TRUE))
  expect_true(grepl("Small group", html2, fixed = TRUE))
  expect_equal(lengths(regmatches(html2, gregexpr("<img src=\"data:image/png;base64", html2))), 4L)
})
