# The audit's fits (R/audit-fit.R): methods that cannot reach a k, the downstream checks and
# their intervals, progress.

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

test_that("progress is shown on request and hidden by default outside interactive sessions", {
  dat <- audit_data()
  expect_silent(fair_audit(dat$x, dat$g, k = 1:2))
  msgs <- capture_messages(fair_audit(dat$x, dat$g, k = 1:2, progress = TRUE))
  expect_match(msgs[1], "fair_audit: 3 method")
  expect_match(msgs[length(msgs)], "fits in")
})

test_that("downstream intervals: per-group held-out counts, gaps flagged when they contain 0", {
  dat <- iv_data(n = c(200, 160), seed = 7)
  set.seed(3)
  y <- as.integer(dat$x[, 1] + rnorm(nrow(dat$x)) > 0)  # no dependence on the group
  a <- fair_audit(dat$x, dat$g, k = 2, outcome = y, replicates = 40, seed = 5)
  dn <- a$downstream
  expect_equal(unname(a$outcome$n_test_groups), as.numeric(table(dat$g[a$outcome$test_rows])))
  expect_true(all(dn$accuracy_low <= dn$accuracy & dn$accuracy <= dn$accuracy_high))
  # a gap's interval is the gap's own: on its scale (never below 0), holding the estimate, and
  # from 0 exactly where the gap is not told apart from 0
  for (q in c("dp_gap", "eo_gap")) {
    expect_true(all(dn[[paste0(q, "_low")]] >= 0), info = q)
    expect_true(all(dn[[paste0(q, "_low")]] <= dn[[q]] + 1e-12 & dn[[q]] - 1e-12 <= dn[[paste0(q, "_high")]]), info = q)
    expect_identical(dn[[paste0(q, "_distinct")]], dn[[paste0(q, "_low")]] > 0, info = q)
  }
  expect_true(any(!dn$dp_gap_distinct))  # no dependence on the group: some gaps start at 0
  expect_true(all(dn$reliable))  # 48 and 60 held-out rows
  out <- capture.output(print(a))
  expect_true(any(grepl("Held-out rows by group", out)))
  # a group-dependent outcome: a large parity gap is told apart from 0
  y2 <- as.integer(dat$g == "a")
  b <- fair_audit(dat$x, dat$g, k = 2, outcome = ifelse(runif(length(y2)) < 0.9, y2, 1 - y2), replicates = 40, seed = 5,
                  methods = "standard")
  expect_true(all(b$downstream$dp_gap_distinct[b$downstream$k == 2] | b$downstream$one_class))
})

test_that("a gap between rates has an interval within [0, 1] (README's birthwt: 8 held-out rows of one group)", {
  skip_if_not_installed("MASS")
  bw <- within(MASS::birthwt, race <- factor(race, 1:3, c("white", "black", "other")))
  a <- fair_audit(~ age + lwt + smoke + ptl + ht + ui + ftv, data = bw, group = race, outcome = low, seed = 1,
                  progress = FALSE)
  dn <- a$downstream
  for (q in c("dp_gap", "eo_gap")) {
    hi <- dn[[paste0(q, "_high")]]
    expect_true(all(is.na(hi) | hi <= 1), info = q)
    expect_true(all(is.na(hi) | dn[[q]] <= hi), info = q)
  }
  # the case that passed 1 before: an equal-opportunity gap of 0.5, its upper end shifted by the
  # replicates' bias (it read [0.155, 1.03])
  expect_true(any(dn$eo_gap_high == 1, na.rm = TRUE))
})

test_that("a group with fewer than 30 held-out rows flags the downstream rows, in print() and summary()", {
  dat <- make_groups(n = c(300, 60), d = 5, seed = 4)
  set.seed(1)
  y <- as.integer(dat$x[, 1] + rnorm(nrow(dat$x)) > 0)
  a <- fair_audit(dat$x, dat$g, k = 2, methods = "standard", outcome = y, replicates = 20, seed = 2, progress = FALSE)
  expect_true(min(a$outcome$n_test_groups) < 30)
  expect_false(any(a$downstream$reliable))
  out <- capture.output(print(a))
  expect_true(any(grepl("fewer than 30 held-out rows", out)))
  dn <- a$downstream[a$downstream$k == a$k_focus, ]
  view <- fp_audit_downstream_view(a, dn)
  expect_true(all(grepl("?", view$dp_gap, fixed = TRUE)))
  # summary() shows the same table in the same units (percent, points) as print()
  so <- capture.output(print(summary(a)))
  rows <- capture.output(print(view, row.names = FALSE))
  for (r in rows) expect_true(r %in% out && r %in% so, info = r)
  expect_true(any(grepl("fewer than 30 held-out rows", so)))
  # enough held-out and training rows (30 of the 60 each): no flag
  b <- fair_audit(dat$x, dat$g, k = 2, methods = "standard", outcome = y, replicates = 0, test_fraction = 0.5,
                  progress = FALSE)
  expect_true(all(b$downstream$reliable))
  expect_false(any(grepl("?", fp_audit_downstream_view(b, b$downstream)$dp_gap, fixed = TRUE)))
})

# Wide-ish rows for the row route: group a has fewer rows than columns (its Gram matrix), b more
# (Lanczos), and an outcome that depends on the first columns.
rows_route_data <- function() {
  dat <- make_groups(n = c(30, 80), d = 40, seed = 3)
  set.seed(4)
  dat$y <- as.integer(dat$x[, 1] - dat$x[, 2] + rnorm(nrow(dat$x), sd = 2) > mean(dat$x[, 1] - dat$x[, 2]))
  dat
}

test_that("the row route's audit agrees with the moments route's in every table, and forms no moments", {
  dat <- rows_route_data()
  args <- list(dat$x, dat$g, k = 1:3, outcome = dat$y, seed = 5, level = NULL, progress = FALSE)
  am <- do.call(fair_audit, c(args, route = "moments"))
  # the row route reads no d x d moments: the moments pass is replaced by an error for the call
  local_fairproj_function("fp_moments_dense", function(...) stop("the row route formed moments"))
  ar <- do.call(fair_audit, c(args, route = "rows"))
  expect_null(am$route)
  expect_identical(ar$route, "rows")
  # both routes' subspaces agree to about 1e-10 here (sin of the largest angle); the tables'
  # values, on the scale of the total variance (40, scale. = TRUE), to 1e-8 of it
  close <- function(a, b) expect_lt(max(abs(a - b)), 1e-8 * 40)
  num <- c("var_kept", "price", "max_loss", "min_loss", "loss_gap", "max_error", "error_gap")
  for (v in num) close(ar$table[[v]], am$table[[v]])
  expect_identical(ar$table[c("method", "k", "rank", "worst_group")], am$table[c("method", "k", "rank", "worst_group")])
  expect_true(all(is.finite(ar$table$max_loss)))
  for (v in c("n", "error", "best", "loss", "var_explained")) close(ar$groups_table[[v]], am$groups_table[[v]])
  # the same held-out rows, the same models up to those digits: the same predictions and gaps
  expect_identical(ar$outcome$test_rows, am$outcome$test_rows)
  for (v in c("accuracy", "error", "dp_gap", "eo_gap")) close(ar$downstream[[v]], am$downstream[[v]])
  expect_equal(ar$downstream_reference, am$downstream_reference)
  expect_identical(ar$k_focus, am$k_focus)
  # every fit is a row-route fit, and is what fair_pca(route = "rows") gives from the rows
  for (meth in ar$methods) for (kk in ar$k) expect_match(ar$fits[[meth]][[as.character(kk)]]$route, "^rows")
  f <- fair_pca(dat$x, dat$g, k = 2, method = "minmax", scale. = TRUE, route = "rows")
  expect_equal(ar$fits$minmax[["2"]]$group_stats, f$group_stats, tolerance = 1e-12)
  expect_equal(ar$fits$minmax[["2"]]$rotation, f$rotation, tolerance = 1e-12)
})

test_that("a row-route audit's intervals and flags are the moments route's, from the same seed and blocks", {
  dat <- rows_route_data()
  for (sc in c(FALSE, TRUE)) {
    args <- list(dat$x, dat$g, k = c(2, 5), scale. = sc, replicates = 30, seed = 1, progress = FALSE)
    am <- do.call(fair_audit, c(args, route = "moments"))
    # the row route reads no d x d moments, not even for its intervals and their diagnostics
    ar <- local({
      local_fairproj_function("fp_moments_dense", function(...) stop("the row route formed moments"))
      do.call(fair_audit, c(args, route = "rows"))
    })
    tot <- if (sc) ncol(dat$x) else sum(diag(stats::cov(dat$x)))
    share <- c("var_kept", "price")  # shares of the total variance
    for (tb in c("table", "groups_table")) {
      a <- am[[tb]]
      b <- ar[[tb]]
      ends <- grep("_(low|high)$", names(a), value = TRUE)
      expect_identical(ends, grep("_(low|high)$", names(b), value = TRUE))
      expect_gt(length(ends), 0L)
      for (v in ends) {
        s <- if (sub("_(low|high)$", "", v) %in% share) tot else 1
        same_inf <- is.infinite(a[[v]]) | is.infinite(b[[v]])
        expect_identical(is.na(a[[v]]), is.na(b[[v]]), label = v)
        expect_identical(a[[v]][same_inf], b[[v]][same_inf], label = v)
        ok <- !is.na(a[[v]]) & !same_inf
        expect_lt(max(abs(a[[v]][ok] - b[[v]][ok]) * s, 0), 1e-8 * tot, label = v)
      }
      expect_identical(b$reliable, a$reliable)
      expect_identical(b$reason, a$reason)
    }
    expect_identical(ar$intervals$blocks, am$intervals$blocks)
    expect_identical(ar$intervals$failed, am$intervals$failed)
    expect_null(ar$intervals$note)
  }
  expect_output(print(ar), "route = \"rows\"", fixed = TRUE)
  expect_output(print(summary(ar)), "minmax")
  expect_s3_class(tidy(ar, "intervals"), "data.frame")
})

test_that("a group with fewer than 30 training rows (test_fraction near 1) flags the downstream rows", {
  dat <- make_groups(n = c(200, 200), d = 5, seed = 4)
  set.seed(1)
  y <- as.integer(dat$x[, 1] + rnorm(nrow(dat$x)) > 0)
  a <- suppressWarnings(fair_audit(dat$x, dat$g, k = 2, methods = "standard", outcome = y, replicates = 20, seed = 2,
                                   progress = FALSE, test_fraction = 0.9))
  expect_true(min(a$outcome$n_train_groups) < 30 && min(a$outcome$n_test_groups) >= 30)
  expect_false(any(a$downstream$reliable))
  expect_true(any(grepl("fewer than 30 training rows", capture.output(print(a)))))
  b <- fair_audit(dat$x, dat$g, k = 2, methods = "standard", outcome = y, replicates = 20, seed = 2, progress = FALSE)
  expect_true(all(b$downstream$reliable))
  expect_equal(unname(b$outcome$n_train_groups + b$outcome$n_test_groups), c(200, 200))
})
