# The row route of fair_pca() (R/prepare-rows.R, R/route-rows.R, src/rows.cpp): the same
# subspace and diagnostics as the moments route, without d x d matrices.

# sin of the largest principal angle between span(A) and span(B), from the part of B outside
# span(A) (accurate to rounding, unlike sqrt(1 - cos^2))
route_sin <- function(A, B) {
  Q1 <- qr.Q(qr(A))
  Q2 <- qr.Q(qr(B))
  max(svd(Q2 - Q1 %*% crossprod(Q1, Q2))$d)
}

# low-rank data plus noise, columns with offsets and scales spread over 1e-2 .. 1e2
route_data <- function(n, d, seed) {
  set.seed(seed)
  x <- matrix(rnorm(n * 8), n) %*% matrix(rnorm(8 * d), 8) + matrix(rnorm(n * d, sd = 0.3), n)
  x <- sweep(x, 2, 10^runif(d, -2, 2), `*`)
  x <- sweep(x, 2, runif(d, -100, 100), `+`)
  list(x = x, g = sample(c("a", "b", "c"), n, TRUE))
}

route_compare <- function(dat, k, method, scale.) {
  a <- fair_pca(dat$x, dat$g, k = k, method = method, scale. = scale., route = "moments")
  b <- fair_pca(dat$x, dat$g, k = k, method = method, scale. = scale., route = "rows")
  expect_null(a$route)
  expect_match(b$route, "^rows \\((Lanczos|Gram)\\)$")
  expect_lt(route_sin(a$rotation, b$rotation), 1e-8)
  # group statistics relative to each group's total variance (errors near 0 are rounding)
  tot <- a$group_stats$error / (1 - a$group_stats$var_explained)
  for (s in c("error", "best", "loss")) {
    expect_lt(max(abs(a$group_stats[[s]] - b$group_stats[[s]]) / tot), 1e-9, label = s)
    expect_lt(max(abs(a$group_stats_standard[[s]] - b$group_stats_standard[[s]]) / tot), 1e-9, label = s)
  }
  expect_equal(b$sdev, a$sdev, tolerance = 1e-9)
  expect_equal(b$totalvar, a$totalvar, tolerance = 1e-12)
  expect_equal(b$center, a$center, tolerance = 1e-13)
  expect_equal(b$scale, a$scale, tolerance = 1e-13)
  # scores and predict() from the row-route fit are the projection of the same rows
  expect_lt(max(abs(abs(b$x) - abs(a$x))) / max(abs(a$x)), 1e-7)
  expect_equal(unname(predict(b, dat$x[1:5, ])), unname(b$x[1:5, , drop = FALSE]), tolerance = 1e-10)
}

test_that("the row route gives the moments route's subspace and diagnostics (n > d)", {
  dat <- route_data(260, 130, 1)
  for (sc in c(FALSE, TRUE)) {
    for (k in c(1L, 6L, 120L)) {
      route_compare(dat, k, "standard", sc)
      route_compare(dat, k, "mean", sc)
    }
  }
})

test_that("the row route gives the moments route's subspace and diagnostics (n < d)", {
  dat <- route_data(50, 160, 2)
  for (sc in c(FALSE, TRUE)) {
    for (k in c(1L, 5L, 40L)) {
      route_compare(dat, k, "standard", sc)
      route_compare(dat, k, "mean", sc)
    }
  }
})

test_that("the groups' Lanczos solves on their copied rows give the moments route's best errors", {
  # groups of unequal sizes in a random order, each with more rows than the Gram matrix serves
  dat <- route_data(900, 600, 6)
  dat$g <- sample(rep(c("a", "b", "c"), c(450, 270, 180)))
  prep <- fairproj:::fp_prepare_rows(dat$x, factor(dat$g), center = TRUE, scale. = FALSE)
  for (i in 1:3) {
    v <- fairproj:::fp_rows_eig(prep, 4, i, vectors = FALSE)
    expect_true(v$lanczos)
    # the values alone (a looser residual) equal those of the solve for the vectors
    full <- fairproj:::fp_rows_eig(prep, 4, i, vectors = TRUE)
    expect_true(full$lanczos)
    expect_lt(abs(sum(v$values) - sum(full$values)) / prep$cov_trace[[i]], 1e-12)
  }
  route_compare(dat, 4L, "standard", FALSE)
  route_compare(dat, 4L, "mean", FALSE)
  route_compare(dat, 4L, "mean", TRUE)
})

test_that("route is checked, and a forced row route refuses what it does not serve", {
  dat <- route_data(40, 10, 3)
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "standard", route = "columns"), class = "fairproj_error")
  e <- tryCatch(fair_pca(dat$x, dat$g, k = 2, method = "standard", route = "columns"), error = identity)
  expect_match(conditionMessage(e), "route")
  e <- tryCatch(fair_pca(dat$x, dat$g, k = 2, method = "pareto", route = "rows"), error = identity)
  expect_s3_class(e, "fairproj_error")
  expect_match(conditionMessage(e), "route")
  # min-max: the exact solver of the marginal loss with group centring only
  for (arg in list(list(solver = "mw"), list(objective = "variance"), list(centering = "global"))) {
    e <- tryCatch(do.call(fair_pca, c(list(dat$x, dat$g, k = 2, method = "minmax", route = "rows"), arg)), error = identity)
    expect_s3_class(e, "fairproj_input_error")
    expect_match(conditionMessage(e), "^`route`")
    expect_match(conditionMessage(e), names(arg))
  }
  e <- tryCatch(fair_pca(dat$x, dat$g, k = 2, method = "mean", equalize_cov = 3, route = "rows"), error = identity)
  expect_s3_class(e, "fairproj_error")
  expect_match(conditionMessage(e), "equalize_cov")
  m <- group_moments(dat$x, dat$g)
  e <- tryCatch(fair_pca(m, k = 2, method = "standard", route = "rows"), error = identity)
  expect_s3_class(e, "fairproj_error")
  expect_match(conditionMessage(e), "route")
  # choosing the route evaluates only the arguments that decide it: others are refused by name first
  for (meth in c("mean", "minmax")) {
    expect_error(fair_pca(dat$x, dat$g, k = 2, method = meth, no_such_argument = stop("evaluated")),
                 class = "fairproj_input_error")
  }
  # the variants of "mean" stay on the moments route when the route is left to the cost
  f <- fair_pca(dat$x, dat$g, k = 2, method = "mean", equalize_cov = 3, scale. = TRUE)
  expect_null(f$route)
})

test_that("a route-deciding argument that is not a string is a classed error naming it", {
  dat <- route_data(40, 10, 3)
  for (a in c("solver", "objective", "centering")) {
    for (route in c("auto", "rows")) {
      args <- c(list(dat$x, dat$g, k = 2, method = "minmax", route = route), stats::setNames(list(function(x) x), a))
      expect_error(do.call(fair_pca, args), sprintf("^`%s`", a), class = "fairproj_input_error")
    }
  }
  for (a in c("constraint", "use_group")) {
    args <- c(list(dat$x, dat$g, k = 2, method = "mean", scale. = TRUE), stats::setNames(list(function(x) x), a))
    expect_error(do.call(fair_pca, args), sprintf("^`%s`", a), class = "fairproj_input_error")
  }
})

test_that("the cost picks the row route at large d and the moments route at small d", {
  set.seed(4)
  x <- matrix(rnorm(60 * 900), 60)
  g <- rep(c("a", "b"), 30)
  wide <- fair_pca(x, g, k = 3, method = "standard", scale. = FALSE)
  expect_match(wide$route, "^rows")
  expect_output(print(wide), "route: rows")
  # it keeps no moments but the leading spectra: the scree and the errors by k work from them
  expect_null(wide$moments)
  expect_equal(nrow(fp_plot_data(wide, "scree")), 10L)
  pd <- fairproj:::fp_errors_by_k(wide, quiet = TRUE)
  expect_equal(sort(unique(pd$k)), 1:10)
  expect_equal(pd$fair[pd$k == 3], wide$group_stats$error)
  # beyond them, kmax is refused with the class of every error, saying what to do
  e <- tryCatch(plot(wide, "scree", kmax = 20), error = identity)
  expect_s3_class(e, "fairproj_error")
  expect_match(conditionMessage(e), "route")
  # below 500 columns the moments route stays, whatever the cost says
  x1 <- matrix(rnorm(60 * 300), 60)
  expect_null(fair_pca(x1, g, k = 3, method = "standard", scale. = FALSE)$route)
  x2 <- matrix(rnorm(500 * 20), 500)
  g2 <- rep(c("a", "b"), 250)
  narrow <- fair_pca(x2, g2, k = 3, method = "standard", scale. = FALSE)
  expect_null(narrow$route)
  expect_false(any(grepl("route:", capture.output(print(narrow)))))
  cost <- fairproj:::fp_route_costs(2000, 10000, c(1000, 1000), 10)
  expect_lt(cost[["rows"]], cost[["moments"]])
  cost <- fairproj:::fp_route_costs(100000, 50, c(50000, 50000), 10)
  expect_gt(cost[["rows"]], cost[["moments"]])
  # LFW's shape (13,232 faces of 1,764 pixels, 2,962 and 10,270 per group), where the moments
  # route measured as fast or faster at k = 5-20: "auto" keeps it at every k of its sweep
  for (k in 1:20) {
    cost <- fairproj:::fp_route_costs(13232, 1764, c(2962, 10270), k)
    expect_gte(2 * cost[["rows"]], cost[["moments"]])
  }
})

test_that("rows with NA reach the moments pass's classed error on the row route", {
  dat <- route_data(30, 200, 5)
  dat$x[3, 7] <- NA
  expect_error(fair_pca(dat$x, dat$g, k = 2, method = "standard", scale. = FALSE, route = "rows"),
               class = "fairproj_error")
})

# data with a direction of large spread in one group, so that min-max and standard PCA differ
route_minmax_data <- function(n, d, m, seed) {
  set.seed(seed)
  g <- sample(letters[seq_len(m)], n, TRUE)
  x <- matrix(rnorm(n * 8), n) %*% matrix(rnorm(8 * d), 8) + matrix(rnorm(n * d, sd = 0.3), n)
  x[g == "a", 1:20] <- x[g == "a", 1:20] * 3
  list(x = x, g = g)
}

test_that("min-max by the row route agrees with the moments route within their certified gaps", {
  for (cfg in list(c(n = 300, d = 600, m = 2), c(n = 900, d = 600, m = 2), c(n = 300, d = 700, m = 3),
                   c(n = 900, d = 650, m = 3))) {
    dat <- route_minmax_data(cfg[["n"]], cfg[["d"]], cfg[["m"]], 1)
    a <- expect_silent(fair_pca(dat$x, dat$g, k = 5, method = "minmax", route = "moments"))
    b <- expect_silent(fair_pca(dat$x, dat$g, k = 5, method = "minmax", route = "rows"))
    expect_null(a$route)
    expect_match(b$route, "^rows")
    expect_true(a$converged)
    expect_true(b$converged)
    expect_gte(b$duality_gap, 0)
    # each lower bound is below the other route's objective, so the two optima agree within the gaps
    slack <- 1e-12 * a$objective
    expect_lte(b$lower_bound, a$objective + slack)
    expect_lte(a$lower_bound, b$objective + slack)
    expect_lte(abs(a$objective - b$objective), max(a$duality_gap, b$duality_gap) + slack)
    # the constructor's diagnostics of the row-route fit agree with the solver's own losses
    expect_equal(max(b$group_stats$loss), b$objective, tolerance = 1e-8)
    expect_lte(max(abs(a$group_stats$loss - b$group_stats$loss)), max(a$duality_gap, b$duality_gap) + 1e-8 * a$objective)
    expect_equal(b$group_stats_standard$loss, a$group_stats_standard$loss, tolerance = 1e-8)
    # the optimum is unique here (rank k, equal losses): the subspace agrees to the root of the gap
    expect_equal(c(a$rank, b$rank), c(5L, 5L))
    expect_lt(route_sin(a$rotation, b$rotation), if (cfg[["m"]] == 2) 1e-6 else 1e-4)
    expect_equal(unname(predict(b, dat$x[1:4, ])), unname(b$x[1:4, , drop = FALSE]), tolerance = 1e-10)
  }
})

test_that("min-max by the row route returns a rounded map of rank above k with the right losses", {
  set.seed(3)
  n <- 200
  d <- 30
  g <- sample(c("a", "b", "c"), n, TRUE)
  x <- matrix(rnorm(n * d), n) %*% diag(seq(3, 1, length.out = d))
  for (j in 1:3) x[g == letters[j], j] <- x[g == letters[j], j] * 4
  a <- fair_pca(x, g, k = 1, method = "minmax", route = "moments")
  b <- fair_pca(x, g, k = 1, method = "minmax", route = "rows")
  expect_gt(b$rank, 1L)
  expect_true(b$converged)
  expect_lte(abs(a$objective - b$objective), max(a$duality_gap, b$duality_gap) + 1e-12 * a$objective)
  # the group statistics of the map (not of the projection on its range) are the solver's losses
  expect_equal(b$group_stats$loss, unname(b$losses), tolerance = 1e-8)
  expect_equal(unname(predict(b, x[1:3, ])), unname(b$x[1:3, , drop = FALSE]), tolerance = 1e-10)
  # no d x d map (#48): its factors, B diag(l) B' with B orthonormal spanning the fit's range and
  # the square-root weights of the LP weights
  expect_null(b$map)
  B <- b$map_basis
  l <- b$map_weights
  expect_equal(dim(B), c(d, b$rank))
  expect_equal(crossprod(B), diag(b$rank), tolerance = 1e-12)
  expect_lt(route_sin(B, b$rotation), 1e-10)
  expect_equal(l, 1 - sqrt(1 - pmin(b$lambda, 1)))
  expect_true(any(l < 1))
  # every consumer gives from the factors what it gives from the d x d map they stand for
  bm <- b
  bm$map <- B %*% (l * t(B))
  bm$map_basis <- bm$map_weights <- NULL
  new <- x[c(5, 50, 150), ]
  expect_equal(predict(b, new), predict(bm, new), tolerance = 1e-12)
  expect_equal(reconstruct(b, new), reconstruct(bm, new), tolerance = 1e-12)
  expect_equal(group_errors(b, x, g)$table, group_errors(bm, x, g)$table, tolerance = 1e-10)
  expect_equal(suppressWarnings(as.prcomp(b))$rotation, suppressWarnings(as.prcomp(bm))$rotation)
  expect_equal(tidy(b, "groups"), tidy(bm, "groups"))
  # the variance the map keeps (1 - its pooled error / the total) and the scores' spread
  zc <- scale(x, center = b$center, scale = FALSE)
  expect_equal(b$var_explained, 1 - sum((zc - scale(reconstruct(b, x), center = b$center, scale = FALSE))^2) / sum(zc^2),
               tolerance = 1e-8)
  expect_equal(unname(b$sdev), unname(apply(b$x, 2, stats::sd)), tolerance = 1e-8)
  expect_equal(capture.output(print(b)), capture.output(print(bm)))
  expect_equal(capture.output(print(summary(b))), capture.output(print(summary(bm))))
  expect_match(capture.output(print(b)), "linear map of rank", all = FALSE)
  pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  # (a row-route fit keeps no moments to refit other k from: it says so)
  expect_message(plot(b, type = "loss"), "at the fitted k")
  # the audit's variance kept, from the factors and from the map
  C <- crossprod(scale(x, scale = FALSE)) / n
  expect_equal(fairproj:::fp_audit_var_kept(b, C), fairproj:::fp_audit_var_kept(bm, C), tolerance = 1e-12)
})

test_that("a row-route map with real weights: sdev, the variance kept and the scree agree with the moments route", {
  set.seed(6)
  n <- 60
  d <- 4
  g <- rep(c("a", "b", "c"), each = n)
  x <- matrix(rnorm(3 * n * d), 3 * n)
  for (j in 1:3) x[g == letters[j], j] <- x[g == letters[j], j] * 4
  x[g == "c", ] <- x[g == "c", ] %*% qr.Q(qr(matrix(rnorm(d * d), d)))
  b <- fair_pca(x, g, k = 1, method = "minmax", route = "rows")
  a <- fair_pca(x, g, k = 1, method = "minmax", route = "moments")
  expect_true(b$converged)
  expect_gt(min(b$map_weights), 0.05)  # far from a projection
  expect_equal(unname(b$sdev), unname(apply(b$x, 2, stats::sd)), tolerance = 1e-8)
  zc <- scale(x, center = b$center, scale = FALSE)
  kept <- 1 - sum((zc - scale(reconstruct(b, x), center = b$center, scale = FALSE))^2) / sum(zc^2)
  expect_equal(b$var_explained, kept, tolerance = 1e-8)
  expect_lt(sum(b$sdev^2) / b$totalvar, kept)
  # the same certified optimum by the moments route: the same map, so the same numbers
  if (fairproj:::fp_has_map(a) && ncol(a$rotation) == ncol(b$rotation)) {
    expect_equal(a$var_explained, b$var_explained, tolerance = 1e-6)
    expect_equal(a$sdev, b$sdev, tolerance = 1e-6)
  }
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  cap <- attr(suppressMessages(plot(b, type = "scree")), "fp_spec")$labels$caption
  expect_match(cap, sprintf("keeps %.1f%% of the variance", 100 * kept))
  # two warnings: the directions it leaves out are unknown (the row route), and the map's
  expect_warning(expect_warning(as.prcomp(b), "not known", class = "fairproj_prcomp_warning"), "row route",
                 class = "fairproj_prcomp_warning")
})

test_that("\"auto\" takes the row route for min-max at large d only", {
  set.seed(4)
  x <- matrix(rnorm(60 * 900), 60)
  g <- rep(c("a", "b"), 30)
  expect_match(fair_pca(x, g, k = 3, method = "minmax")$route, "^rows")
  # options the row route does not serve keep the moments route
  expect_null(fair_pca(x, g, k = 3, method = "minmax", objective = "variance")$route)
  expect_null(fair_pca(x[, 1:300], g, k = 3, method = "minmax")$route)
})

# the plot data of a fit (with its drawing specification), its messages muffled
route_plot <- function(fit, type, ...) suppressMessages(fp_plot_data(fit, type, ...))

test_that("a row-route fit's scree, errors, losses and as.prcomp() agree with the moments route's", {
  for (dat in list(route_data(260, 130, 3), route_data(50, 160, 4))) {
    for (method in c("standard", "mean", "minmax")) {
      a <- fair_pca(dat$x, dat$g, k = 3, method = method, scale. = TRUE, route = "moments")
      b <- fair_pca(dat$x, dat$g, k = 3, method = method, scale. = TRUE, route = "rows")
      expect_null(b$moments)
      tot <- b$totalvar
      sa <- route_plot(a, "scree")
      sb <- route_plot(b, "scree")
      bars <- sb$fit == "standard PCA"
      expect_equal(sum(bars), 10L)
      expect_lt(max(abs(sb$value[bars] - sa$value[sa$fit == "standard PCA"])) / tot, 1e-10)
      # the caption gives the variance beyond the bars from the traces
      cap <- attr(sb, "fp_spec")$labels$caption
      share <- 100 * (1 - sum(sa$value[sa$fit == "standard PCA"]) / a$totalvar)
      expect_match(cap, sprintf("The other %d components hold %.1f%%", ncol(dat$x) - 10L, share), fixed = TRUE)
      for (type in c("errors", "loss")) {
        ea <- route_plot(a, type)
        eb <- route_plot(b, type)
        # standard PCA at every k; the method at its own k only (no moments to refit it)
        std_b <- eb[eb$fit == "standard PCA", ]
        expect_equal(sort(unique(std_b$k)), 1:10)
        mm <- merge(ea, eb, by = c("k", "group", "fit"))
        expect_equal(nrow(mm), nrow(eb))
        scale <- max(abs(ea$value))
        expect_lt(max(abs(mm$value.x - mm$value.y)) / scale, if (method == "minmax") 1e-6 else 1e-9, label = type)
        if (method != "standard") expect_equal(unique(eb$k[eb$fit != "standard PCA"]), 3L)
      }
      expect_error(route_plot(b, "scree", kmax = 11), class = "fairproj_error")
      # as.prcomp(): standard PCA keeps the leading residual directions, the others none; both warn
      expect_warning(as.prcomp(b), class = "fairproj_prcomp_warning")
      pb <- suppressWarnings(as.prcomp(b))
      if (method == "standard") {
        pa <- as.prcomp(a)
        expect_length(pb$sdev, 10L)
        expect_equal(pb$sdev, pa$sdev[1:10], tolerance = 1e-9)
        expect_lt(route_sin(pb$residual_rotation, pa$residual_rotation[, 1:7]), 1e-7)
        expect_lt(max(abs(crossprod(pb$residual_rotation, b$rotation))), 1e-8)
      } else {
        expect_length(pb$sdev, ncol(b$rotation))
      }
      expect_s3_class(summary(b), "summary.fair_pca")
    }
  }
})

test_that("a row-route fit beyond the rows' rank keeps its spectra up to that rank", {
  dat <- route_data(30, 600, 6)
  for (method in c("standard", "mean")) {
    a <- fair_pca(dat$x, dat$g, k = 40, method = method, scale. = TRUE, route = "moments")
    b <- fair_pca(dat$x, dat$g, k = 40, method = method, scale. = TRUE, route = "rows")
    # k directions on both routes: beyond the rows' rank, directions of variance 0
    expect_equal(ncol(b$rotation), 40L)
    expect_equal(ncol(a$rotation), 40L)
    # the scree beyond the rank is 0, as the moments route's; no residual direction is left
    sb <- route_plot(b, "scree", kmax = 45)
    sa <- route_plot(a, "scree", kmax = 45)
    expect_lt(max(abs(sb$value[sb$fit == "standard PCA"] - sa$value[sa$fit == "standard PCA"])) / b$totalvar, 1e-10)
    pb <- suppressWarnings(as.prcomp(b))
    expect_equal(ncol(pb$residual_rotation), 0L)
  }
})

test_that("the row route returns k directions where the rows span fewer, as the moments route does", {
  set.seed(12)
  n <- 40
  d <- 300
  x <- matrix(rnorm(n * 10), n) %*% matrix(rnorm(10 * d), 10) + matrix(rnorm(n * d), n)
  g <- factor(rep(c("a", "b"), c(24, 16)))
  for (method in c("standard", "mean", "minmax")) {
    for (k in c(39L, 60L)) {
      a <- suppressWarnings(fair_pca(x, g, k = k, method = method, route = "rows"))
      b <- suppressWarnings(fair_pca(x, g, k = k, method = method, route = "moments"))
      expect_equal(ncol(a$rotation), k)
      expect_equal(unname(crossprod(a$rotation)), diag(k), tolerance = 1e-10)
      # both hold the rows' whole (constrained) span: every group's error and loss is that of
      # the moments route, to the rounding of the group variances
      scale <- sum(apply(x, 2, var))
      expect_lt(max(abs(a$group_stats$error - b$group_stats$error)), 1e-9 * scale)
      expect_lt(max(abs(a$group_stats$loss - b$group_stats$loss)), 1e-9 * scale)
      if (method == "mean") {
        # the directions completing the basis keep mean matching's constraint
        dm <- colMeans(x[g == "a", ]) - colMeans(x[g == "b", ])
        expect_lt(max(abs(crossprod(a$rotation, dm))), 1e-9 * sqrt(sum(dm^2)))
      }
    }
  }
  # the completion itself: orthonormal, off the columns it completes and off `avoid`
  V <- qr.Q(qr(matrix(rnorm(50 * 3), 50)))
  Q <- qr.Q(qr(cbind(V, matrix(rnorm(50 * 2), 50))))[, 4:5]
  P <- fairproj:::fp_pad_basis(V, 10, Q)
  expect_equal(P[, 1:3], V)
  expect_equal(crossprod(P), diag(10), tolerance = 1e-12)
  expect_lt(max(abs(crossprod(P, Q))), 1e-12)
  expect_equal(ncol(fairproj:::fp_pad_basis(V, 60, Q)), 48L)
})

test_that("min-max at k >= the rows' rank is certified and silent on both routes, in any units", {
  # every group's best error and loss is 0 there: the certificate must say so, not report the
  # rounding of the variances as a duality gap (columns in units 1e-2 .. 1e3, offsets 1e8)
  for (seed in 1:2) {
    set.seed(seed)
    n <- 40
    d <- 200
    x <- matrix(rnorm(n * d), n) * rep(10^runif(d, -2, 3), each = n) + 1e8
    g <- rep(c("a", "b"), length.out = n)
    for (route in c("rows", "moments")) {
      f <- expect_silent(fair_pca(x, g, k = 50, method = "minmax", route = route, scale. = FALSE))
      expect_true(f$converged)
      expect_gte(f$lower_bound, 0)
      expect_lte(f$duality_gap, 1e-9 * sum(apply(x, 2, var)))
      # the losses are the errors outside the subspace, rounding of the data's variance
      expect_lt(max(abs(f$group_stats$loss)), 1e-12 * sum(apply(x, 2, var)))
    }
  }
})

test_that("the row route brings columns of subnormal or near-overflow values into range", {
  # every column near 1e-312 (subnormal): the moments route fits these; the row route's weights
  # from data units would overflow, so it reads the columns times a power of two
  set.seed(1)
  dat <- list(x = matrix(rnorm(240), 60, 4) * 1e-312, g = rep(c("a", "b"), 30))
  for (method in c("standard", "mean", "minmax")) route_compare(dat, 2, method, TRUE)
  # one subnormal column and one near the largest double among ordinary ones
  dat <- route_data(60, 6, 7)
  dat$x[, 2] <- dat$x[, 2] * 1e-310
  dat$x[, 5] <- dat$x[, 5] / max(abs(dat$x[, 5])) * 1.7e308
  for (method in c("standard", "mean")) route_compare(dat, 2, method, TRUE)
  # min-max's optimum is flat: a column rescaled by 1e-3 alone moves the moments route's basis by
  # about 6e-6 on these data, so the routes are compared by their objective
  a <- fair_pca(dat$x, dat$g, k = 2, method = "minmax", scale. = TRUE, route = "moments")
  b <- fair_pca(dat$x, dat$g, k = 2, method = "minmax", scale. = TRUE, route = "rows")
  expect_equal(b$objective, a$objective, tolerance = 1e-6)
  expect_equal(b$x, predict(b, dat$x), tolerance = 1e-10)
})

test_that("route = \"rows\" for a method that always reads the rows says so", {
  dat <- route_data(40, 10, 3)
  for (method in names(fp_route_rows_always)) {
    e <- tryCatch(fair_pca(dat$x, dat$g, k = 2, method = method, route = "rows"), error = identity)
    expect_s3_class(e, "fairproj_input_error")
    expect_match(conditionMessage(e), "^`route` = \"rows\" does not apply.*always reads the rows")
    # ... which is true: a group_moments object is not enough for it
    expect_error(fair_pca(group_moments(dat$x, dat$g), k = 2, method = method, scale. = TRUE), class = "fairproj_needs_rows")
  }
  # a method that works from the moments alone is told so
  e <- tryCatch(fair_pca(dat$x, dat$g, k = 2, method = "pareto", route = "rows"), error = identity)
  expect_match(conditionMessage(e), "works from the moments")
})
