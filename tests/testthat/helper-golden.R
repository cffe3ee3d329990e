# The golden set: every result of the fitting functions and the moments doors on small real and
# synthetic data, recorded in fixtures/golden.rds by tools/golden.R and compared by
# test-golden.R. Both use the definitions below, so the recorded and the recomputed cases are the
# same calls. A case that needs an optional package is left out when the package is missing.

# The data sets: real ones from base R and the recommended packages, and synthetic ones with
# raw mixed units and offsets, 2 to 4 groups. `g2` marks those with two groups (the methods
# cfpca, inlp, mbfpca and rlace need exactly two).
golden_data <- function() {
  out <- list()
  out$iris <- list(x = as.matrix(datasets::iris[, 1:4]), g = datasets::iris$Species)
  # data() reads the data sets without loading the packages' namespaces (survival's takes
  # seconds)
  if (golden_has("MASS")) {
    bw <- golden_dataset("birthwt", "MASS")
    out$birthwt <- list(x = as.matrix(bw[, c("age", "lwt", "ptl", "ftv", "bwt")]),
                        g = factor(bw$smoke, labels = c("nonsmoker", "smoker")))
  }
  if (golden_has("survival")) {
    p <- golden_dataset("pbc", "survival")[, c("age", "bili", "chol", "albumin", "copper", "alk.phos", "ast",
                                               "trig", "platelet", "protime", "sex")]
    p <- p[stats::complete.cases(p), ]
    out$pbc <- list(x = as.matrix(p[, 1:10]), g = p$sex)
  }
  # three groups of different covariance, columns in units from 1e-3 to 1e4 around offsets up
  # to 1e6
  set.seed(3201)
  d <- 6
  n <- c(60, 90, 40)
  x <- do.call(rbind, lapply(n, function(m) matrix(stats::rnorm(m * d), m, d) %*% matrix(stats::rnorm(d * d), d)))
  x <- sweep(sweep(x, 2, c(1e-3, 1, 10, 1e3, 1e4, 0.1), "*"), 2, c(1e6, -50, 0, 3e4, 1, 7), "+")
  colnames(x) <- paste0("u", seq_len(d))
  out$units <- list(x = x, g = factor(rep(c("a", "b", "c"), n)))
  # four groups of unequal size and spread, a column that nearly repeats another, and two
  # groups (the first two merged) for the two-group methods
  set.seed(3202)
  d <- 7
  n <- c(25, 70, 45, 30)
  x <- do.call(rbind, lapply(seq_along(n), function(i)
    matrix(stats::rnorm(n[i] * d, sd = i), n[i], d) %*% matrix(stats::rnorm(d * d), d) +
      matrix(stats::rnorm(d, sd = 3), n[i], d, byrow = TRUE)))
  x[, 7] <- x[, 2] + 1e-3 * x[, 7]
  colnames(x) <- paste0("s", seq_len(d))
  out$four <- list(x = x, g = factor(rep(c("w", "x", "y", "z"), n)))
  out$two <- list(x = x + 250, g = factor(rep(c("xy", "xy", "zz", "zz"), n)))
  # fewer rows than columns in every group (singular group covariances, high QR's singular
  # leading blocks)
  set.seed(3203)
  d <- 9
  n <- c(6, 7, 8)
  x <- matrix(stats::rnorm(sum(n) * 4), sum(n)) %*% matrix(stats::rnorm(4 * d), 4) +
    matrix(stats::rnorm(sum(n) * d, sd = 0.1), sum(n))
  colnames(x) <- paste0("w", seq_len(d))
  out$wide <- list(x = x, g = factor(rep(c("p", "q", "r"), n)))
  out
}

# Whether packages are installed, without loading them.
golden_has <- function(packages) all(vapply(packages, function(p) nzchar(system.file(package = p)), TRUE))

golden_dataset <- function(name, package) {
  e <- new.env()
  utils::data(list = name, package = package, envir = e)
  e[[name]]
}

# The cases: a named list of functions without arguments, each returning one result. Each
# function sets its seed, so the cases can run in any order and alone.
golden_cases <- function(data = golden_data()) {
  cases <- list()
  add <- function(name, f) cases[[name]] <<- f
  two_only <- c("cfpca", "inlp", "mbfpca", "rlace")
  css_methods <- fairproj::fairproj_methods("css")
  for (nm in names(data)) local({
    x <- data[[nm]]$x
    g <- data[[nm]]$g
    k <- 2L
    for (m in fairproj::fairproj_methods()) local({
      m <- m
      if (m %in% two_only && nlevels(g) != 2L) return()
      add(paste("fair_pca", nm, m), function() { set.seed(1); quiet(fairproj::fair_pca(x, g, k, method = m)) })
    })
    for (m in css_methods) local({
      m <- m
      add(paste("fair_css", nm, m), function() { set.seed(1); quiet(fairproj::fair_css(x, g, 3L, method = m)) })
    })
    add(paste("fair_audit", nm), function()
      quiet(fairproj::fair_audit(x, g, k, methods = c("standard", "minmax", "mean"), scale. = FALSE, seed = 7,
                                 replicates = 20)))
    add(paste("group_moments matrix", nm), function() fairproj::group_moments(x, g))
  })
  # scaled fits: the same subspace whatever the units
  u <- data$units
  # multiplicative weights (a fixed number of steps, held to the same certificate rule)
  for (nm in intersect(c("iris", "four"), names(data))) local({
    x <- data[[nm]]$x
    g <- data[[nm]]$g
    add(paste("fair_pca", nm, "minmax mw"), function() quiet(fairproj::fair_pca(x, g, 2L, method = "minmax", solver = "mw")))
  })
  add("fair_pca units minmax scaled", function() quiet(fairproj::fair_pca(u$x, u$g, 3L, method = "minmax", scale. = TRUE)))
  add("fair_css units greedy scaled", function() quiet(fairproj::fair_css(u$x, u$g, 3L, method = "greedy", scale. = TRUE)))
  add("fair_audit units scaled", function()
    quiet(fairproj::fair_audit(u$x, u$g, 2L, methods = c("standard", "minmax", "mean"), scale. = TRUE, seed = 7, replicates = 20)))
  # the other doors of the fits
  df <- data.frame(datasets::iris)
  add("fair_pca iris formula mean", function() quiet(fairproj::fair_pca(~ ., data = df, group = Species, k = 2L, method = "mean")))
  add("fair_css iris formula lowqr", function() quiet(fairproj::fair_css(~ ., data = df, group = Species, k = 2L, method = "lowqr")))
  add("fair_pca units moments minmax", function()
    quiet(fairproj::fair_pca(fairproj::group_moments(u$x, u$g), k = 2L, method = "minmax")))
  add("fair_css units moments highqr", function()
    quiet(fairproj::fair_css(fairproj::group_moments(u$x, u$g), k = 3L, method = "highqr")))
  add("fair_audit iris moments", function()
    quiet(fairproj::fair_audit(fairproj::group_moments(data$iris$x, data$iris$g), k = 2L, scale. = FALSE)))
  # kernel PCA, the Pareto front and tuning
  for (nm in intersect(c("iris", "units", "two"), names(data))) local({
    x <- data[[nm]]$x
    g <- data[[nm]]$g
    add(paste("fair_kpca", nm), function() quiet(fairproj::fair_kpca(x, g, 2L)))
  })
  add("fair_kpca iris linear fair", function()
    quiet(fairproj::fair_kpca(data$iris$x, data$iris$g, 2L, kernel = "linear", tradeoff = 0.5)))
  for (nm in intersect(c("iris", "two"), names(data))) local({
    x <- data[[nm]]$x
    g <- data[[nm]]$g
    add(paste("pareto_front", nm), function() { set.seed(1); quiet(fairproj::pareto_front(x, g, 2L, restarts = 3L)) })
  })
  add("tune_fair_pca iris robust", function()
    quiet(fairproj::tune_fair_pca(data$iris$x, data$iris$g, 2L, method = "robust",
                                  grid = list(alpha = c(0.05, 0.15), lambda = c(0, 1)), folds = 2, seed = 5)))
  # the moments doors, on the units data (offsets and mixed units) and on iris
  for (nm in c("units", "iris")) local({
    x <- data[[nm]]$x
    g <- data[[nm]]$g
    dfx <- data.frame(x, grp = as.character(g))
    add(paste("group_moments data.frame", nm), function() fairproj::group_moments(dfx, group = "grp"))
    if (golden_has("Matrix"))
      add(paste("group_moments sparse", nm), function()
        fairproj::group_moments(Matrix::Matrix(x, sparse = TRUE), g))
    add(paste("group_moments constructor", nm), function() golden_constructed(x, g))
    chunks <- split(dfx, rep(1:3, length.out = nrow(dfx)))
    add(paste("group_moments chunk list", nm), function() fairproj::group_moments(unname(chunks), group = "grp"))
    if (golden_has("readr"))
      add(paste("group_moments csv", nm), function() {
        path <- tempfile(fileext = ".csv")
        on.exit(unlink(path))
        golden_write_csv(dfx, path)
        fairproj::group_moments(path, group = "grp", chunk_rows = 50L)
      })
    if (golden_has(c("RSQLite", "dbplyr", "dplyr")))
      for (route in c("stream", "pushdown")) local({
        route <- route
        add(paste("group_moments sqlite", route, nm), function() {
          con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
          on.exit(DBI::dbDisconnect(con))
          DBI::dbWriteTable(con, "golden", dfx)
          fairproj::group_moments(dplyr::tbl(con, "golden"), group = "grp", route = route, chunk_rows = 50L)
        })
      })
  })
  cases
}

# Warnings of the recorded calls (method advice, non-convergence) are part of the behaviour but
# not numbers; they are muffled here and their classes kept in the result. A package error is
# recorded as its classes (the answer to data a method cannot fit).
quiet <- function(expr) {
  warned <- character(0)
  res <- tryCatch(withCallingHandlers(expr, warning = function(w) {
    warned <<- c(warned, class(w)[1])
    invokeRestart("muffleWarning")
  }), fairproj_error = function(e) list(error = class(e)))
  if (is.list(res)) attr(res, "golden_warnings") <- warned
  res
}

# The moments constructor fed with per-group counts, means and scatter matrices computed here.
golden_constructed <- function(x, g) {
  lev <- levels(g)
  n <- as.numeric(table(g)[lev])
  mu <- vapply(lev, function(l) colMeans(x[g == l, , drop = FALSE]), numeric(ncol(x)))
  sc <- lapply(lev, function(l) {
    xc <- sweep(x[g == l, , drop = FALSE], 2, colMeans(x[g == l, , drop = FALSE]))
    crossprod(xc)
  })
  fairproj::new_group_moments(n, mu, sc, levels = lev, colnames = colnames(x))
}

# A CSV with 14 significant digits, which readr parses exactly.
golden_write_csv <- function(df, path) {
  cols <- lapply(df, function(v) if (is.numeric(v)) sprintf("%.14g", v) else as.character(v))
  lines <- do.call(paste, c(cols, sep = ","))
  writeLines(c(paste(names(df), collapse = ","), lines), path)
}

# Every value of a result as a flat named list: one entry per atomic field (matrices and table
# columns whole), named by its path; names and dimnames as their own entries, factors as their
# labels. Calls, formulas, functions and environments are not numbers and are left out, and so
# are the audit's timings (fields `seconds` and `time`).
golden_flatten <- function(x, path = "") {
  out <- list()
  walk <- function(v, p) {
    if (grepl("\\$(seconds|time)$", p)) return()
    if (is.null(v) || is.language(v) || is.function(v) || is.environment(v) || inherits(v, "formula")) return()
    if (isS4(v)) return()
    cls <- setdiff(class(v), c("list", "numeric", "integer", "character", "logical", "matrix", "array", "double"))
    if (length(cls) && !is.factor(v)) out[[paste0(p, "@class")]] <<- class(v)
    if (!is.null(names(v)) && !is.data.frame(v)) out[[paste0(p, "@names")]] <<- names(v)
    if (!is.null(dimnames(v)) && !is.data.frame(v)) out[[paste0(p, "@dimnames")]] <<- unlist(dimnames(v), use.names = FALSE)
    if (is.data.frame(v)) out[[paste0(p, "@names")]] <<- names(v)
    if (is.list(v)) {
      nms <- names(v)
      if (is.null(nms)) nms <- rep("", length(v))
      for (i in seq_along(v)) walk(v[[i]], paste0(p, "$", if (nzchar(nms[i])) nms[i] else paste0("[[", i, "]]")))
      for (a in setdiff(names(attributes(v)), c("names", "class", "row.names", "dim", "dimnames")))
        walk(attr(v, a), paste0(p, "@", a))
      return()
    }
    if (is.factor(v)) v <- as.character(v)
    if (!is.atomic(v)) return()
    val <- as.vector(v)
    if (!is.null(dim(v))) dim(val) <- dim(v)
    out[[p]] <<- val
  }
  walk(x, path)
  out
}

# Min-max fits (the results of fair_pca(method = "minmax"), solvers "exact" and "mw"; not the
# audit's, whose tables and intervals are compared as before) are certified, not computed by a
# fixed sequence of operations: a solver that reaches the certificate by another path returns
# other last digits of the same optimum. golden_minmax_rules() says how their fields are
# compared (everything else, and every other method, as golden_diff() says). With U the
# recorded largest loss `objective`, w the recorded dual weights, C_g the group covariances of
# the recorded moments (in the fit's scaled coordinates; their best rank-k variances are
# checked against the recorded ones), a_g the best rank-k variances, g(w) = sum_g w_g a_g -
# (sum of the k largest eigenvalues of A = sum_g w_g C_g) the dual value at w (a lower bound on
# the optimum, and on sum_g w_g loss_g(P) for every P in the Fantope F = {0 <= P <= I, tr P = k}):
#  * eps = gap_tol * max(|U|, 1% of the largest a_g), the scale on which the fit's `converged`
#    is decided (gap_tol the default the cases use: 1e-9 for two groups, 1e-8 for more). Two
#    certified fits both lie within eps of the optimum, so `objective`, `lower_bound` and
#    `duality_gap` are compared within eps;
#  * each group's loss (`losses`, `group_stats$loss`, and `variances` and `group_stats$error`,
#    which are a_g minus and the best error plus it) within its band: a fit P' with largest
#    loss U' <= U + eps has w_g loss_g(P') >= g(w) - (1 - w_g) U', so loss_g(P') lies in
#    [U' - (U' - g(w)) / w_g, U']; two such fits differ by at most eps + (U + eps - g(w)) /
#    w_g. A group of (near) zero weight is not held by the certificate (a tighter solve moved
#    one of the four-group case's by 250 eps while the others stayed within eps): its band is
#    |<C_g, P - P'>| <= ||C_g||_F eps_P where the optimum is unique (below), else none (the
#    field's other groups are still compared). `group_stats$var_explained` (1 - error / the
#    group's total variance) within the band over that total;
#  * the subspace, only where the optimum is unique: the recorded fit has rank k without LP
#    weights and A has an eigengap delta = lambda_k(A) - lambda_k+1(A) > 1e-12 lambda_1(A).
#    For every P in F and the top-k eigenprojector P_w of A, <A, P_w - P> >= delta / 2
#    ||P - P_w||_F^2, and <A, P_w - P> = sum_g w_g loss_g(P) - g(w) <= U(P) - g(w): a fit lies
#    within sqrt(2 (U - g(w)) / delta) of P_w (so P_w is the one optimum), and the recorded and
#    the recomputed projectors within eps_P = sqrt(2 r / delta) + sqrt(2 (r + eps) / delta),
#    r = U - g(w) (clamped at 0, plus rounding), in Frobenius norm. `rotation` and `loadings`
#    are compared through their projector V V' within eps_P. Where the optimum is not unique
#    (rank above k, LP weights, no eigengap) they and `map` are excluded; `rank` is compared
#    exactly everywhere;
#  * excluded everywhere: `sdev` and the scores `x`, a basis inside the subspace (its order and
#    mixing set by the eigengaps of the variance inside it, which no certificate bounds; the
#    projector and the moments, compared, fix what they span);
#  * the solver's trace (`weights`, `history`, `eigensolves`, `inner_eigensolves`, `dual`,
#    `converged`, `returned`, `rank_before_reduction`, `lambda`) as before: exactly or within
#    1e-12. A solver that takes another path moves them, and re-records them saying so.
# Returns the absolute tolerances (`abs`: field -> one per element), the projector bounds
# (`projector`: field -> eps_P) and the excluded fields (`skip`); empty for other results.
golden_minmax_rules <- function(expected) {
  out <- list(abs = list(), projector = c(), skip = character(0))
  if (!identical(expected[["@class"]][1], "fair_pca_minmax")) return(out)
  get <- function(x) expected[[paste0("$", x)]]
  w <- get("weights")
  w <- w / sum(w)
  best <- get("best_variance")
  U <- get("objective")
  k <- get("k")
  m <- length(w)
  gap_tol <- if (m == 2L) 1e-9 else 1e-8
  eps <- gap_tol * max(abs(U), 0.01 * max(abs(best)))
  for (x in c("objective", "lower_bound", "duality_gap")) out$abs[[paste0("$", x)]] <- eps
  out$skip <- c("$sdev", "$x")
  band <- rep(Inf, m)
  eps_p <- Inf
  n <- get("moments$n")
  lev <- get("moments$levels")
  if (!is.null(n) && identical(lev, get("weights@names")) && identical(get("centering"), "group") &&
      identical(get("objective_type"), "loss")) {
    s <- get("scale")
    covs <- lapply(seq_along(lev), function(i) {
      C <- get(paste0("moments$scatter$", lev[i])) / n[i]
      if (is.numeric(s)) C <- C / outer(s, s)
      C
    })
    top <- vapply(covs, function(C) sum(eigen(C, symmetric = TRUE, only.values = TRUE)$values[seq_len(k)]), 0)
    stopifnot(max(abs(top - best)) <= 1e-8 * max(abs(best)))  # the solver's covariances
    ev <- eigen(Reduce(`+`, Map(`*`, w, covs)), symmetric = TRUE, only.values = TRUE)$values
    gw <- sum(w * best) - sum(ev[seq_len(k)])
    r <- max(U - gw, 0) + 1e-12 * max(abs(U), 0.01 * max(abs(best)))
    band <- ifelse(w > 0, eps + (r + eps) / w, Inf)
    delta <- ev[k] - ev[k + 1L]
    if (identical(get("rank"), k) && is.null(get("lambda")) && delta > 1e-12 * max(abs(ev))) {
      eps_p <- sqrt(2 * r / delta) + sqrt(2 * (r + eps) / delta)
      out$projector[c("$rotation", "$loadings")] <- eps_p
      band <- pmin(band, vapply(covs, function(C) sqrt(sum(C^2)), 0) * eps_p)
    }
  }
  if (!is.finite(eps_p)) out$skip <- c(out$skip, "$rotation", "$loadings", "$map")
  for (x in c("losses", "variances", "group_stats$loss", "group_stats$error")) out$abs[[paste0("$", x)]] <- band
  err <- get("group_stats$error")
  ve <- get("group_stats$var_explained")
  out$abs[["$group_stats$var_explained"]] <- band / (err / (1 - ve))
  out
}

# The libraries the numbers were computed with: results agree to the last digits only on the
# same BLAS and LAPACK.
golden_libraries <- function() {
  c(R = R.version.string, BLAS = unname(extSoftVersion()["BLAS"]), LAPACK = La_library(),
    LAPACK_version = La_version())
}

# Differences between a recorded and a recomputed flat result: a character vector naming each
# field that differs and by how much. Doubles agree within `tol` relative to the field's largest
# magnitude (the sums of a field are rounded alike); everything else, and the positions of
# NA/NaN/Inf, must be identical. Min-max fits by `rules` (golden_minmax_rules()): fields at
# the certificate's absolute tolerance, projectors within their bound, excluded fields.
golden_diff <- function(expected, actual, tol, rules = golden_minmax_rules(expected)) {
  msgs <- character(0)
  for (f in names(expected)) {
    if (f %in% rules$skip) next
    e <- expected[[f]]
    a <- actual[[f]]
    if (is.null(a)) {
      msgs <- c(msgs, sprintf("%s: missing", f))
      next
    }
    if (f %in% names(rules$projector) && is.double(a) && identical(dim(e), dim(a))) {
      dist <- sqrt(sum((tcrossprod(e) - tcrossprod(a))^2))
      if (!is.finite(dist) || dist > rules$projector[[f]])
        msgs <- c(msgs, sprintf("%s: projector moved by %.3g > %.3g (the certificate's bound at the eigengap)",
                                f, dist, rules$projector[[f]]))
      next
    }
    if (f %in% names(rules$abs) && is.double(e) && is.double(a) && length(e) == length(a) &&
        identical(is.finite(e), is.finite(a))) {
      lim <- rep_len(rules$abs[[f]], length(e))
      over <- which(is.finite(e) & !(abs(e - a) <= lim))
      if (length(over)) {
        i <- over[which.max(abs(e - a)[over] - lim[over])]
        msgs <- c(msgs, sprintf("%s: absolute difference %.3g > %.3g at [%d] (the certificate's tolerance)", f,
                                abs(e[i] - a[i]), lim[i], i))
      }
      next
    }
    if (is.double(e) && is.numeric(a) && !is.double(a)) a <- as.double(a)
    if (!identical(typeof(e), typeof(a)) || !identical(dim(e), dim(a)) || length(e) != length(a)) {
      shape <- function(v) paste(if (is.null(dim(v))) length(v) else dim(v), collapse = "x")
      msgs <- c(msgs, sprintf("%s: type/shape %s[%s] recorded, %s[%s] now", f, typeof(e), shape(e),
                              typeof(a), shape(a)))
      next
    }
    if (!is.double(e) || tol == 0) {
      if (!identical(e, a)) {
        i <- which(!(e == a) | xor(is.na(e), is.na(a)))[1]
        if (is.na(i)) i <- 1L
        msgs <- c(msgs, sprintf("%s: differs at [%d], %s recorded, %s now", f, i,
                                format(e[i], digits = 17), format(a[i], digits = 17)))
      }
      next
    }
    fe <- is.finite(e)
    if (!identical(fe, is.finite(a)) || !identical(e[!fe], a[!fe])) {
      msgs <- c(msgs, sprintf("%s: NA/NaN/Inf positions differ", f))
      next
    }
    if (!any(fe)) next
    scale <- max(abs(e[fe]))
    err <- abs(e[fe] - a[fe])
    rel <- if (scale > 0) max(err) / scale else max(err)
    if (rel > tol) {
      i <- which(fe)[which.max(err)]
      msgs <- c(msgs, sprintf("%s: relative difference %.3g > %.3g (at [%d]: %s recorded, %s now)", f, rel, tol, i,
                              format(e[i], digits = 17), format(a[i], digits = 17)))
    }
  }
  msgs
}
