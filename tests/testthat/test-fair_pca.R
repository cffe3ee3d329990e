test_that("standard PCA matches prcomp (subspace, sdev, signs, scores)", {
  dat <- make_groups(n = c(150, 120, 90), d = 7)
  for (sc in c(FALSE, TRUE)) for (ce in c(TRUE, FALSE)) {
    p <- prcomp(dat$x, center = ce, scale. = sc)
    f <- fair_pca(dat$x, dat$g, k = 3, center = ce, scale. = sc, method = "standard")
    expect_equal(unname(f$sdev), p$sdev[1:3], tolerance = 1e-10)
    expect_lt(subspace_dist(f$rotation, p$rotation[, 1:3]), 1e-10)
    expect_equal(crossprod(f$rotation), diag(3), tolerance = 1e-12, ignore_attr = TRUE)
    # components match prcomp's up to sign; our sign makes the largest loading positive
    for (j in 1:3) {
      expect_equal(abs(unname(f$rotation[, j])), abs(unname(p$rotation[, j])), tolerance = 1e-8)
      expect_gt(f$rotation[which.max(abs(f$rotation[, j])), j], 0)
    }
    expect_equal(f$totalvar, sum(p$sdev^2), tolerance = 1e-10)
    expect_equal(abs(unname(f$x)), abs(unname(p$x[, 1:3])), tolerance = 1e-8)
  }
})

test_that("group_stats are the per-group errors, best errors and losses", {
  dat <- make_groups(n = c(100, 80), d = 5)
  f <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  P <- f$rotation %*% t(f$rotation)
  for (l in levels(dat$g)) {
    xl <- scale(dat$x[dat$g == l, ], center = TRUE, scale = FALSE)
    err <- sum((xl - xl %*% P)^2) / nrow(xl)
    s <- svd(xl)$d^2 / nrow(xl)
    best <- sum(s[-(1:2)])
    row <- f$group_stats[f$group_stats$group == l, ]
    expect_equal(row$error, err, tolerance = 1e-10)
    expect_equal(row$best, best, tolerance = 1e-10)
    expect_equal(row$loss, err - best, tolerance = 1e-10)
    expect_gte(row$loss, -1e-12)
    expect_equal(row$var_explained, 1 - err / sum(s), tolerance = 1e-10)
  }
  expect_equal(f$group_stats, f$group_stats_standard)
})

test_that("fits from moments, data and chunks agree; invariant to row order and group labels", {
  dat <- make_groups(n = c(100, 80), d = 5)
  f1 <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  f2 <- fair_pca(group_moments(dat$x, dat$g), k = 2, method = "standard")
  expect_equal(f1$rotation, f2$rotation, tolerance = 1e-12)
  perm <- sample(nrow(dat$x))
  f3 <- fair_pca(dat$x[perm, ], dat$g[perm], k = 2, method = "standard")
  expect_equal(f1$rotation, f3$rotation, tolerance = 1e-10)
  relab <- factor(dat$g, levels = c("b", "a"), labels = c("B", "A"))
  f4 <- fair_pca(dat$x, relab, k = 2, method = "standard")
  expect_equal(f1$rotation, f4$rotation, tolerance = 1e-10)
  expect_error(fair_pca(group_moments(dat$x, dat$g), dat$g, k = 2), class = "fairproj_input_error")
})

test_that("the formula interface takes the group as a column, a string or a vector", {
  df <- data.frame(make_groups(n = c(60, 50), d = 4)$x)
  df$sex <- rep(c("f", "m"), c(60, 50))
  f1 <- fair_pca(~ ., data = df, group = sex, k = 2, method = "standard")
  f2 <- fair_pca(~ ., data = df, group = "sex", k = 2, method = "standard")
  f3 <- fair_pca(as.matrix(df[1:4]), df$sex, k = 2, method = "standard")
  expect_equal(f1$rotation, f3$rotation, tolerance = 1e-12)
  expect_equal(f2$rotation, f3$rotation, tolerance = 1e-12)
  expect_equal(rownames(f1$rotation), paste0("x", 1:4))
  f4 <- fair_pca(~ x1 + x2 + x3, data = df, group = sex, k = 1, method = "standard")
  expect_equal(nrow(f4$rotation), 3L)
  df2 <- df; df2$x1[3] <- NA
  f5 <- fair_pca(~ ., data = df2, group = sex, k = 2, method = "standard")
  expect_equal(sum(f5$groups$n), 109)
  df$when <- Sys.Date() + seq_len(nrow(df))
  expect_error(fair_pca(~ ., data = df, group = sex, k = 2, method = "standard"), "neither numeric nor categorical",
               class = "fairproj_input_error")
  expect_error(fair_pca(~ ., data = df, group = "nosuch", k = 2, method = "standard"), class = "fairproj_input_error")
  expect_error(fair_pca(y ~ ., data = df, group = sex, k = 2, method = "standard"), class = "fairproj_input_error")
})

test_that("Lanczos and dense eigen-solvers agree", {
  set.seed(5)
  a <- crossprod(matrix(rnorm(400 * 150), 400, 150))
  top <- fairproj:::fp_eig_top(a, 5)
  ev <- eigen(a, symmetric = TRUE)
  expect_equal(top$values, ev$values[1:5], tolerance = 1e-10)
  expect_lt(subspace_dist(top$vectors, ev$vectors[, 1:5]), 1e-8)
})

test_that("a group with a single row is a documented, finite result for standard PCA", {
  dat <- make_groups(n = c(100, 1), d = 4)
  expect_warning(f <- fair_pca(dat$x, dat$g, k = 2, method = "standard"), class = "fairproj_small_group_warning")
  gs <- f$group_stats
  expect_equal(gs$n, c(100, 1))
  # one row is its own mean: zero error, zero best error, zero loss, no variance to explain
  expect_equal(gs$error[2], 0)
  expect_equal(gs$best[2], 0)
  expect_true(is.na(gs$var_explained[2]))
  expect_true(all(is.finite(f$rotation)))
})

test_that("prcomp's argument names: rank. is k, scale suggests scale.", {
  dat <- make_groups(n = c(60, 50), d = 4)
  f1 <- fair_pca(dat$x, dat$g, rank. = 2, method = "standard")
  f2 <- fair_pca(dat$x, dat$g, k = 2, method = "standard")
  expect_equal(f1$rotation, f2$rotation)
  expect_error(fair_pca(dat$x, dat$g, k = 2, rank. = 2), "rank.", class = "fairproj_input_error")
  expect_error(fair_pca(dat$x, dat$g, k = 2, scale = TRUE), "scale\\.", class = "fairproj_input_error")
  expect_error(fair_pca(dat$x, dat$g, method = "standard"), "`k` is missing", class = "fairproj_input_error")
})

test_that("`tol` keeps prcomp's meaning or is an error; the min-max solver tolerance is gap_tol", {
  dat <- make_groups(n = c(60, 50), d = 4)
  own <- c(minmax = "gap_tol", mean = "zero_tol", pareto = "stationarity_tol", cfpca = "gap_tol",
           rlace = "accuracy_tol")
  for (m in c("minmax", "standard", "robust", "mean", "pareto", "cfpca", "rlace", "mbfpca", "inlp")) {
    e <- expect_error(fair_pca(dat$x, dat$g, k = 2, method = m, tol = 0.1), class = "fairproj_input_error")
    expect_match(conditionMessage(e), "^`tol`")
    # a method with a solver tolerance names it
    if (m %in% names(own)) expect_match(conditionMessage(e), own[[m]], fixed = TRUE)
  }
  expect_match(tryCatch(fair_pca(dat$x, dat$g, k = 2, tol = 0.1), error = conditionMessage), "gap_tol")
  # gap_tol is the certified relative duality gap
  loose <- fair_pca(dat$x, dat$g, k = 2, gap_tol = 1e-3)
  tight <- fair_pca(dat$x, dat$g, k = 2, gap_tol = 1e-12)
  expect_lte(tight$duality_gap, 1e-12 * max(abs(tight$objective), 1e-12) * 10)
  expect_lte(tight$objective, loose$objective + 1e-12)
  expect_error(fair_pca(dat$x, dat$g, k = 2, gap_tol = -1), class = "fairproj_input_error")
})

test_that("a group with fewer than 2 rows is a classed warning", {
  dat <- make_groups(n = c(60, 1), d = 4)
  expect_warning(f <- fair_pca(dat$x, dat$g, k = 2, method = "standard"), class = "fairproj_small_group_warning")
  expect_s3_class(f, "fair_pca")
  expect_warning(fair_pca(group_moments(dat$x, dat$g), k = 2, method = "standard"),
                 class = "fairproj_small_group_warning")
  expect_silent(fair_pca(make_groups(n = c(60, 2), d = 4)$x, make_groups(n = c(60, 2), d = 4)$g, k = 2,
                         method = "standard"))
})

test_that("reported objectives are the papers' quantities of the returned object, recomputed from the rows", {
  dat <- make_groups(n = c(150, 110, 90), d = 7, seed = 21)
  x <- dat$x
  g <- dat$g
  k <- 2
  # each group about its own mean (divisor n_g), in the fit's coordinates
  zs <- function(f) {
    z <- sweep(x, 2L, if (isFALSE(f$center)) 0 else f$center)
    sweep(z, 2L, if (isFALSE(f$scale)) 1 else f$scale, `/`)
  }
  gcov <- function(z) lapply(split(as.data.frame(z), g), function(a) {
    a <- as.matrix(a)
    crossprod(sweep(a, 2L, colMeans(a))) / nrow(a)
  })
  best_of <- function(S) sum(eigen(S, symmetric = TRUE, only.values = TRUE)$values[-seq_len(k)])
  err_of <- function(S, V, map = NULL) {
    if (is.null(map)) return(sum(diag(S)) - sum((S %*% V) * V))
    R <- diag(nrow(S)) - map
    sum(diag(t(R) %*% S %*% R))
  }
  # min-max: the largest marginal loss of the returned map, and a valid dual certificate
  for (m in c(2, 3)) {
    gg <- if (m == 2) factor(g == "a") else g
    f <- fair_pca(x, gg, k = k, method = "minmax")
    S <- lapply(split(as.data.frame(zs(f)), gg), function(a) {
      a <- as.matrix(a)
      crossprod(sweep(a, 2L, colMeans(a))) / nrow(a)
    })
    loss <- vapply(S, function(s) err_of(s, f$rotation, f$map) - best_of(s), 0)
    expect_equal(f$objective, max(loss), tolerance = 1e-9)
    expect_equal(f$duality_gap, f$objective - f$lower_bound)
    expect_lte(f$lower_bound, f$objective * (1 + 1e-12))
  }
  # Pareto: the total loss and psi(E_g - E_h) of the returned basis
  f <- fair_pca(x, g, k = k, method = "pareto")
  S <- gcov(zs(f))
  z <- zs(f)
  C <- crossprod(sweep(z, 2L, colMeans(z))) / (nrow(z) - 1)
  E <- vapply(S, function(s) err_of(s, f$rotation) - best_of(s), 0)
  expect_equal(unname(f$excess), unname(E), tolerance = 1e-9)
  pairs <- utils::combn(3, 2)
  expect_equal(unname(f$objectives), unname(c(sum(diag(C)) - sum((C %*% f$rotation) * f$rotation),
                                              (E[pairs[1, ]] - E[pairs[2, ]])^2 / 2)), tolerance = 1e-9)
  # robust: F of Vu et al. with the uncentred group second moments, the radii and lambda used
  f <- fair_pca(x, g, k = k, method = "robust", scale. = TRUE, iterations = 100, restarts = 1)
  z <- zs(f)
  M <- lapply(split(as.data.frame(z), g), function(a) crossprod(as.matrix(a)) / nrow(a))
  p <- as.numeric(table(g)) / nrow(x)
  L <- vapply(M, function(s) err_of(s, f$rotation), 0)
  eps <- unname(f$radius)
  lam <- f$lambda
  pieces <- NULL
  for (a in 1:3) for (b in 1:3) if (a != b) {
    cab <- p
    cab[a] <- p[a] + lam
    cab[b] <- abs(p[b] - lam)
    pieces <- c(pieces, sum(2 * cab * sqrt(eps * L)) + lam * (L[a] - L[b]) + lam * (eps[a] - eps[b]))
  }
  expect_equal(f$objective, sum(p * (L + eps)) + max(pieces), tolerance = 1e-9)
  # the radii are the paper's alpha / sqrt(N_a) on standardised columns
  expect_equal(unname(f$radius), 0.15 / sqrt(as.numeric(table(g))), tolerance = 1e-12)
  # mean matching: the projected group means coincide (the constraint), and the covariance
  # bound of Fair PCA-S holds for the returned basis
  f <- fair_pca(x, factor(g == "a"), k = k, method = "mean", equalize_cov = 4)
  z <- zs(f)
  mu <- vapply(split(as.data.frame(z), g == "a"), colMeans, numeric(ncol(z)))
  expect_lt(max(abs(crossprod(f$rotation, mu[, 1] - mu[, 2]))), 1e-10 * max(abs(mu)))
  Sg <- lapply(split(as.data.frame(z), g == "a"), function(a) stats::cov(as.matrix(a)))
  expect_lte(norm(crossprod(f$rotation, (Sg[[1]] - Sg[[2]]) %*% f$rotation), "2"), f$cov_bound * (1 + 1e-8))
})

test_that("k = 1 works for every method, and k = d works or is a classed error where it is undefined", {
  dat <- make_groups(n = c(70, 60), d = 5, seed = 41)
  for (method in fairproj_methods("pca")) {
    f1 <- fz_fit(method, dat$x, dat$g, 1L)
    expect_equal(ncol(f1$rotation), 1L, label = method)
    expect_true(all(f1$group_stats$loss >= -1e-10 * f1$totalvar), label = method)
    fd <- tryCatch(fz_fit(method, dat$x, dat$g, 5L), fairproj_input_error = function(e) e)
    if (inherits(fd, "fairproj_input_error")) next  # methods that need a complement (pareto, robust, ...)
    # the whole space: nothing is lost
    expect_equal(unname(crossprod(fd$rotation)), diag(5), tolerance = 1e-10, label = method)
    expect_lt(max(abs(fd$group_stats$loss)), 1e-10 * fd$totalvar, label = method)
  }
})

test_that("retx = TRUE writes the scores into the result, without an n x d temporary (#36)", {
  set.seed(36)
  n <- 40000
  x <- matrix(rnorm(n * 50), n)
  g <- factor(sample(c("a", "b"), n, TRUE))
  peak <- function(f) {
    base <- sum(gc(reset = TRUE)[, 2L])
    f()
    (sum(gc()[, 6L]) - base) * 2^20 / as.numeric(object.size(x))
  }
  for (meth in c("standard", "minmax")) {
    fit <- fair_pca(x, g, k = 10, method = meth)
    W <- if (is.null(fit$map)) fit$rotation else fit$map %*% fit$rotation
    expect_equal(unname(fit$x), unname(sweep(x, 2L, fit$center) %*% W), tolerance = 1e-10)
    # the scores are 0.2 of the data and the fit's own work some 0.1-0.2 at this size; the peak
    # was 0.8-0.9 of the data with the temporary
    expect_lt(peak(function() fair_pca(x, g, k = 10, method = meth)), 0.55)
  }
})

# The decision table "which method for which goal" (#45): each goal's method appears in it.
fp_decision_methods <- c('"minmax"', '"mean"', '"cfpca"', '"inlp"', '"rlace"', '"mbfpca"', '"robust"',
                         "pareto_front()", '"standard"', "fair_css()")

fp_table_after <- function(lines, heading) {
  at <- grep(heading, lines, fixed = TRUE)[1]
  if (is.na(at)) return(character(0))
  rows <- lines[seq(at, min(length(lines), at + 40L))]
  rows[grepl("^(#' )?\\|", rows)]
}

test_that("?fair_pca has the decision table of methods by goal (#45)", {
  rd <- tools::Rd_db("fairproj")[["fair_pca.Rd"]]
  f <- tempfile()
  on.exit(unlink(f))
  tools::Rd2txt(rd, out = f, options = list(underline_titles = FALSE))
  txt <- paste(readLines(f), collapse = "\n")
  at <- regexpr("Which method?", txt, fixed = TRUE)
  expect_gt(at, 0)
  tab <- gsub("\\s+", " ", substr(txt, at, at + 3000L))
  for (m in gsub("[\"()]", "", fp_decision_methods)) expect_match(tab, m, fixed = TRUE, info = m)
  expect_match(tab, "equal marginal losses", fixed = TRUE)
})

test_that("README and the getting-started vignette: the decision table, and a vignette that opens with fair_pca() (#45)", {
  readme <- test_path("..", "..", "README.md")
  vig <- test_path("..", "..", "vignettes", "getting-started.Rmd")
  if (!file.exists(vig)) vig <- system.file("doc", "getting-started.Rmd", package = "fairproj")
  skip_if_not(file.exists(readme) && nzchar(vig) && file.exists(vig), "README.md and the vignette source are not here")
  for (path in c(readme, vig)) {
    tab <- fp_table_after(readLines(path), "## Which method?")
    expect_gt(length(tab), length(fp_decision_methods), label = basename(path))
    for (m in fp_decision_methods) {
      expect_true(any(grepl(m, tab, fixed = TRUE)), info = sprintf("%s: %s", basename(path), m))
    }
  }
  # the first chunk that is shown fits a model; moment plumbing comes later
  lines <- readLines(vig)
  starts <- grep("^```\\{r", lines)
  shown <- starts[!grepl("include\\s*=\\s*FALSE", lines[starts])]
  ends <- grep("^```\\s*$", lines)
  first <- lines[seq(shown[1], ends[ends > shown[1]][1])]
  expect_true(any(grepl("fair_pca(", first, fixed = TRUE)))
  expect_false(any(grepl("group_moments(", first, fixed = TRUE)))
})

test_that("help examples use a fairness case, not iris by species (#45)", {
  db <- tools::Rd_db("fairproj")
  ex <- vapply(db, function(rd) {
    f <- tempfile()
    on.exit(unlink(f))
    tools::Rd2ex(rd, f)
    if (file.exists(f)) paste(readLines(f), collapse = "\n") else ""
  }, character(1))
  expect_gt(sum(nzchar(ex)), 20)
  expect_identical(names(ex)[grepl("iris", ex, fixed = TRUE)], character(0))
  expect_true(any(grepl("survival::pbc", ex, fixed = TRUE)))
  expect_true(any(grepl("MASS::birthwt", ex, fixed = TRUE)))
})

test_that("an invalid rank. is an error naming `rank.`, not `k`", {
  X <- as.matrix(iris[1:4])
  G <- iris$Species
  expect_error(fair_pca(X, G, rank. = 1.5), "^`rank\\.` must be a single whole number", class = "fairproj_input_error")
  expect_error(fair_pca(X, G, rank. = 9), "^`rank\\.` must be between 1 and 4", class = "fairproj_input_error")
  expect_error(fair_pca(X, G, k = 1.5), "^`k` must be a single whole number", class = "fairproj_input_error")
  expect_identical(ncol(fair_pca(X, G, rank. = 2)$rotation), 2L)
})
