# Fair kernel PCA (Kleindessner et al. 2023, kernelised mean matching).

#' Fair kernel PCA (Kleindessner et al. 2023)
#'
#' The kernelised version of mean-matching fair PCA ([fair_pca_mean]): the k directions of
#' largest variance in the kernel feature space among those on which all groups have the same
#' mean. Unlike the linear method it needs the data rows and takes O(n^2) memory and O(n^2 d)
#' time for the kernel matrix.
#'
#' @section Algorithm:
#' With `K` the (double-centred) n x n kernel matrix of the training rows and `Z` the n x m
#' matrix of centred group indicators, the representer theorem writes the directions as
#' `U = Phi alpha`; the problem is to maximise `trace(alpha' K K alpha)` subject to
#' `alpha' K alpha = I` and `Z' K alpha = 0` (equal group means of the embedding `K alpha`).
#' The authors solve it as a generalised eigenproblem `R'KKR b = theta R'KR b` with `R` a basis of
#' the null space of `Z'K`, whose right-hand matrix is singular in general (their code retries
#' with a jitter `1e-5 I`). We use an equivalent, better conditioned form: in feature space the
#' constraint removes the span of the group mean differences `Phi Z`, so the solution is the
#' top-k eigenvectors `a` of the rank-m downdate
#' `K~ = K - K Z (Z'KZ)^+ Z'K` (an ordinary symmetric eigenproblem, solved by Lanczos), with
#' `alpha = (a - Z (Z'KZ)^+ Z'K a) / sqrt(theta)`. Then `alpha'K alpha = I`, `Z'K alpha = 0`, the
#' training embedding is `K alpha = sqrt(theta) a`, and `theta` are the generalised eigenvalues
#' of the authors' formulation (the tests check both). The cost is that of kernel PCA. A `k`
#' above the number of positive eigenvalues of `K~` is an error of class
#' `fairproj_infeasible_k`.
#'
#' New rows are embedded by `Kc(new, train) alpha`, with the kernel centred by the training
#' kernel's column means (the usual kernel PCA centring).
#'
#' Kernels: `"rbf"` `exp(-gamma |a - b|^2)`, `"polynomial"` `(gamma <a, b> + coef0)^degree`,
#' `"sigmoid"` `tanh(gamma <a, b> + coef0)` (not positive semi-definite; only positive
#' eigenvalues are used; when the components hold more than the trace, fractions of variance
#' exceed 1 and a warning of class `fairproj_indefinite_kernel_warning` says so), and
#' `"linear"` `<a, b>` (equal to linear mean-matching fair PCA; for checks).
#' `gamma = "scale"` is `1 / (d var(x))` with `var(x)` the variance of all entries of the
#' (centred, scaled) training matrix, as scikit-learn's default used by the authors;
#' `gamma = "auto"` is `1 / d`.
#'
#' @section Memory:
#' The fit holds about three n x n matrices (n training rows; `8 * 3 * n^2` bytes, about 600 MB
#' at n = 5000). Above `max_n` rows (default 5000) `fair_kpca()` refuses with an error of
#' class `fairproj_too_large`; raise `max_n` to opt in.
#'
#' @param x A numeric matrix or data.frame (rows are observations), or a formula with no
#'   response together with `data` (as in [fair_pca()]).
#' @param group Group labels, one per row (two or more groups), or a string naming a column
#'   of a data.frame `x`; in the formula interface, an unquoted column name of `data`, a string
#'   naming it, or a vector.
#' @param k Target dimension.
#' @param kernel `"rbf"`, `"polynomial"`, `"sigmoid"` or `"linear"`.
#' @param gamma Kernel scale: a positive number, `"scale"` or `"auto"` (see Details).
#' @param degree,coef0 Degree (a positive whole number) and offset (a finite number) of the
#'   polynomial kernel (`coef0` also for sigmoid).
#' @param center,scale. Centring and scaling of the input columns before the kernel, as in
#'   [stats::prcomp()] (`TRUE`, `FALSE` or numeric vectors). When `scale.` is not given and one
#'   column's variance dominates, a `fairproj_units_warning` says so (see "Columns in different
#'   units" in [fair_pca()]).
#' @param kernel_center Logical; double-centre the kernel matrix (kernel PCA's centring in
#'   feature space). Default `TRUE`, as the authors' code.
#' @param tradeoff `NULL` or `lambda` in \[0, 1\]: `predict()` then returns
#'   `[fair scores, lambda^p * standard kernel PCA scores]` (2k columns).
#' @param tradeoff_power The power `p` (1 as on the poster, 3 as in the authors' code).
#' @param y,constraint `constraint = "opportunity"` fits on the rows with positive label `y`
#'   only (equal opportunity); the default `"parity"` uses all rows.
#' @param attributes,use_group Extra attributes constrained at the same time, and whether the
#'   `group` is constrained, as in [fair_pca_mean]: factor-like columns get equal embedding
#'   means per group, numeric columns an embedding uncorrelated with them (`Z` gets their
#'   centred indicator or value columns).
#' @param max_n Largest number of training rows accepted (see Memory): a whole number, at least
#'   2, or `Inf` for no limit.
#' @param tol Relative tolerance for zero eigenvalues: those at most `tol` times the largest
#'   count as zero. A number in \[0, 1).
#' @param ... For the generic, the arguments of the methods; for the formula interface, the
#'   arguments of the default method (`k`, `kernel`, ...); the default method takes no others
#'   (a misspelt argument is an error naming it).
#' @return An object of class `fair_kpca`: `alpha` (n x k coefficients), `eigenvalues`
#'   (`theta`), `totalvar` (the trace of the centred kernel matrix: the total variance in
#'   feature space x n, in the units of `eigenvalues`), `x` (training scores of all rows of
#'   `x`), `train_group` (their groups), the kernel settings, the stored training rows and kernel
#'   column means needed by [predict()][predict.fair_kpca()], and for the trade-off
#'   `alpha_standard`. A formula fit also keeps the terms, as [fair_pca()] does, so that
#'   `predict()` rebuilds its columns from a raw data.frame. [tidy()][tidy.fair_kpca()],
#'   `glance()`, `augment()`, `plot()` and `autoplot()` work on it.
#' @references Kleindessner, M., Donini, M., Russell, C. and Zafar, M. B. (2023). Efficient fair
#'   PCA for fair representation learning. AISTATS, PMLR 206, 5250-5270.
#' @seealso [fair_pca_mean], [predict.fair_kpca()], [tidy.fair_kpca()], [plot.fair_kpca()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' x <- as.matrix(pbc2[1:6])
#' fit <- fair_kpca(x, pbc2$sex, k = 2, scale. = TRUE)
#' fit
#' s <- predict(fit, x)
#' rowsum(s, pbc2$sex) / as.vector(table(pbc2$sex))   # equal group means of the embedding
#' # the formula interface
#' fit2 <- fair_kpca(~ ., data = pbc2, group = sex, k = 2, scale. = TRUE)
#' head(predict(fit2, pbc2))
#' @export
fair_kpca <- function(x, ...) {
  if (!nargs()) fp_check_given("x")
  if (missing(x) && "formula" %in% ...names()) {  # see fp_formula_first()
    call <- fp_formula_first(sys.call(), ...elt(match("formula", ...names())))
    if (!is.null(call)) return(eval(call, parent.frame()))
  }
  UseMethod("fair_kpca")
}

#' @rdname fair_kpca
#' @export
fair_kpca.default <- function(x, group, k, kernel = c("rbf", "polynomial", "sigmoid", "linear"),
                              gamma = "scale", degree = 3, coef0 = 1, center = TRUE, scale. = FALSE,
                              kernel_center = TRUE, tradeoff = NULL, tradeoff_power = 1, y = NULL,
                              constraint = c("parity", "opportunity"), attributes = NULL, use_group = TRUE,
                              max_n = 5000, tol = 1e-9, ...) {
  call <- fp_generic_call(match.call(), "fair_kpca")
  extra <- match.call(expand.dots = FALSE)$...  # their names only: nothing is evaluated
  if (length(extra)) {
    nm <- if (is.null(names(extra))) rep("", length(extra)) else names(extra)
    nm[nm == ""] <- "(unnamed)"
    fp_abort(sprintf("has argument(s) that fair_kpca() does not take: %s", paste(nm, collapse = ", ")), "...")
  }
  fp_needs_rows(x, "kernel PCA (a kernel of the rows)")
  d <- fp_door_rows(x, group, substitute(group), min_cols = 1L)
  xm <- d$xm
  g <- d$g
  opt <- fp_kpca_check_args(kernel, constraint, degree, coef0, kernel_center, tradeoff, tradeoff_power, max_n,
                            tol, y, use_group, attributes)
  kernel <- opt$kernel
  constraint <- opt$constraint
  st <- fp_kpca_standardise(xm, center, scale., warn = missing(scale.))
  keep <- rep(TRUE, nrow(st$z))
  if (constraint == "opportunity") {
    keep <- fp_as_binary(y, nrow(st$z), "y") == 1L
  }
  zf <- st$z[keep, , drop = FALSE]
  gf <- droplevels(g[keep])
  n <- nrow(zf)
  if (use_group && nlevels(gf) < 2L) fp_abort("has positive rows in only one group: equal opportunity cannot be constrained", "y")
  if (n > max_n) {
    fp_abort(sprintf("has %d training rows; fair_kpca() needs about 3 n x n matrices (%.1f GB); raise `max_n` to proceed",
                     n, 24 * n^2 / 2^30), "x", class = "fairproj_too_large")
  }
  k <- fp_check_count(k, 1L, n - 1L, "k")
  gm <- fp_kpca_gamma(gamma, kernel, zf, st$sc, ncol(xm))
  zf <- gm$zf
  kpar <- list(kernel = kernel, gamma = gm$gamma, degree = degree, coef0 = coef0)
  kn <- fp_kpca_kernel(zf, kpar, kernel_center)
  Z <- fp_kpca_constraints(gf, use_group, attributes, keep, nrow(xm))
  comp <- fp_kpca_components(kn$K, Z, k, kn$scale, tol)
  if (!(sum(comp$values) * kn$scale <= (1 + 1e-8) * kn$trace)) {
    # only an indefinite kernel (sigmoid) has components that hold more than its trace
    msg <- paste("the \"%s\" kernel matrix is indefinite: its negative eigenvalues lower its",
                 "trace below the variance of the %d components, so fractions of variance",
                 "(var_explained, percent, the scree plot) are not shares of a total; use a",
                 "smaller `gamma` or a positive semi-definite kernel to read them")
    fp_warn(sprintf(msg, kernel, k), class = "fairproj_indefinite_kernel_warning")
  }
  obj <- list(alpha = comp$alpha, eigenvalues = comp$values * kn$scale, totalvar = kn$trace, k = k, kernel = kpar,
              kernel_center = kernel_center,
              center = st$center, scale = gm$scale, train = zf, kernel_colmeans = kn$colmeans, kernel_mean = kn$mean,
              constraint = constraint, constraint_rank = comp$rank, n_train = n,
              groups = data.frame(group = levels(gf), n = as.numeric(table(gf)), stringsAsFactors = FALSE),
              colnames = colnames(xm), train_group = g, fitted_rows = if (!all(keep)) which(keep),
              call = call)
  if (!is.null(tradeoff)) {
    obj$alpha_standard <- fp_kpca_standard(kn$K, k, kn$scale)
    obj$tradeoff <- tradeoff
    obj$tradeoff_power <- tradeoff_power
  }
  class(obj) <- "fair_kpca"
  obj$x <- fp_kpca_scores(obj, xm)
  attr(obj, "colnames_given") <- !is.null(colnames(d$x))  # as in fair_css.default()
  obj
}

# The scores of the rows of a checked matrix `xn` (the fit's columns, in its order): the kernel
# between the standardised rows and the training rows, centred as in training, times the
# coefficients. Used for the training scores and by predict.fair_kpca().
fp_kpca_scores <- function(object, xn) {
  # a row with a missing value gets a row of NA (as predict.fair_pca()); the others are scored alone
  ok <- if (anyNA(xn)) stats::complete.cases(xn) else rep(TRUE, nrow(xn))
  zn <- fp_kpca_z(if (all(ok)) xn else xn[ok, , drop = FALSE], object$center, object$scale)
  Kn <- fp_kernel(zn, object$train, object$kernel)
  if (object$kernel_center) {
    Kn <- sweep(Kn - rowMeans(Kn), 2L, object$kernel_colmeans) + object$kernel_mean  # also for 0 rows
  }
  s <- Kn %*% object$alpha
  if (!is.null(object$tradeoff)) {
    s <- cbind(s, (object$tradeoff^object$tradeoff_power) * (Kn %*% object$alpha_standard))
  }
  if (!all(ok)) {
    full <- matrix(NA_real_, nrow(xn), ncol(s), dimnames = list(NULL, colnames(s)))
    full[ok, ] <- s
    s <- full
  }
  rownames(s) <- rownames(xn)
  s
}

# The checks of fair_kpca()'s options; the kernel and the constraint as one string each.
fp_kpca_check_args <- function(kernel, constraint, degree, coef0, kernel_center, tradeoff, tradeoff_power, max_n,
                               tol, y, use_group, attributes) {
  kernel <- fp_match_arg(kernel, c("rbf", "polynomial", "sigmoid", "linear"), "kernel")
  constraint <- fp_match_arg(constraint, c("parity", "opportunity"), "constraint")
  fp_check_count(degree, 1L, .Machine$integer.max, "degree")  # (gamma <a, b> + coef0)^1.5 is NaN below 0
  fp_check_number(coef0, "coef0", -Inf, Inf, open_lower = TRUE, open_upper = TRUE)
  fp_check_flag(kernel_center, "kernel_center")
  if (!is.null(tradeoff)) fp_check_number(tradeoff, "tradeoff", 0, 1)
  fp_check_number(tradeoff_power, "tradeoff_power", 0, Inf, open_lower = TRUE, open_upper = TRUE)
  fp_check_count(max_n, 2, Inf, "max_n", integer = FALSE, infinite = TRUE)
  # eigenvalues at most tol times the largest are zero: from 1 on, all of them would be
  fp_check_number(tol, "tol", 0, 1, open_upper = TRUE)
  if (!is.null(y) && constraint != "opportunity") fp_abort("is only used with constraint = \"opportunity\"", "y")
  fp_check_flag(use_group, "use_group")
  if (!use_group && is.null(attributes)) fp_abort("= FALSE needs `attributes` to constrain", "use_group")
  list(kernel = kernel, constraint = constraint)
}

# The rows centred and scaled as fair_kpca()'s `center` and `scale.` say: list(z, center, sc).
# `warn`: scale. was not given, so a column whose variance dominates gets the units warning.
# With scale. = TRUE the column scales are those of fair_pca()'s row route
# (fp_rows_column_scale(): about the centre, divisor n - 1, from each column brought near 1 by a
# power of two, .fp_rows_stats()), so that a column of any finite magnitude is standardised
# alike, and a constant column is the classed error naming it.
fp_kpca_standardise <- function(xm, center, scale., warn) {
  d <- ncol(xm)
  center <- fp_check_center_scale(center, d, "center")
  if (warn) fp_warn_units(fp_log2_colvar_rows(xm), colnames(xm))
  scale. <- fp_check_center_scale(scale., d, "scale.")
  ctr <- if (isTRUE(center)) colMeans(xm) else if (isFALSE(center)) rep(0, d) else center
  sc <- if (isTRUE(scale.)) {
    st <- fp_cpp(.fp_rows_stats(xm, integer(nrow(xm)), 1L, numeric(0)), "the column statistics")
    D <- 2^st$exponent
    D * fp_rows_column_scale(TRUE, D, st$ssq[, 1L], st$mean[, 1L], ctr / D, nrow(xm), fp_colnames(xm))
  } else if (isFALSE(scale.)) rep(1, d) else scale.
  if (any(sc <= 0)) fp_abort("= TRUE cannot rescale constant (zero-variance) columns", "scale.")
  if (!all(is.finite(sc))) {
    fp_abort(sprintf("has column(s) whose standard deviation overflows double precision: %s; divide them by a constant",
                     fp_name_list(fp_colnames(xm)[!is.finite(sc)])), "x")
  }
  z <- fp_kpca_z(xm, ctr, sc)
  if (anyNA(z) || fp_any_infinite(z)) {
    fp_abort(paste("has deviations from its centre beyond double precision (values near the largest double);",
                   "use scale. = TRUE or divide the data by a constant"), "x")
  }
  list(z = z, center = ctr, sc = sc)
}

# (x - center) / scale by columns. A column whose scale is beyond 2^+-400 (about 1e+-120) is
# first multiplied by the power of two near 1 / scale (exact), as are its centre and scale, so
# that its deviations neither overflow (values near the largest double) nor lose digits (values
# near the smallest); other columns take the plain sweeps.
fp_kpca_z <- function(x, center, scale) {
  far <- which(scale > 2^400 | scale < 2^-400)
  if (!length(far)) return(sweep(sweep(x, 2L, center), 2L, scale, `/`))
  e <- rep(0, length(scale))
  e[far] <- pmin(pmax(floor(log2(scale[far])) + 1, -1000), 1000)
  t <- 2^-e
  sweep(sweep(sweep(x, 2L, t, `*`), 2L, center * t), 2L, scale * t, `/`)
}

# The kernel's gamma from fair_kpca()'s `gamma` on the fitted rows `zf` (d columns), and the
# rows and their column scales `sc`, divided by a power of two where "scale" needs it.
fp_kpca_gamma <- function(gamma, kernel, zf, sc, d) {
  if (identical(gamma, "scale")) {
    # gamma <a, b> is then free of the data's units; where their magnitude is beyond about
    # 1e+-120 (squares and inner products out of range) the data are first divided by a power
    # of two near it, kept in `scale` so that predict() divides new rows by it too (exact)
    mx <- max(abs(zf - mean(zf)))
    if (kernel != "linear" && is.finite(mx) && mx > 0 && abs(log2(mx)) > 400) {
      p2 <- 2^min(round(log2(mx)), 1023)  # 2^1024 is Inf
      sc <- sc * p2
      zf <- zf / p2
    }
    v <- mean((zf - mean(zf))^2)
    gam <- if (v > 0) 1 / (d * v) else 1
  } else if (identical(gamma, "auto")) {
    gam <- 1 / d
  } else {
    if (!is.numeric(gamma)) fp_abort("must be a positive number, \"scale\" or \"auto\"", "gamma")
    gam <- fp_check_number(gamma, "gamma", 0, Inf, open_lower = TRUE, open_upper = TRUE)
  }
  list(gamma = gam, zf = zf, scale = sc)
}

# The kernel matrix of the fitted rows, centred in feature space (kernel_center) and divided by
# one scalar `scale` before the solver (as the prepared problem of fair_pca() is: the
# eigenvectors do not change, eigenvalues and coefficients are mapped back); with the column
# means and grand mean of the uncentred matrix (for predict()) and its trace in its own units.
fp_kpca_kernel <- function(zf, kpar, kernel_center) {
  n <- nrow(zf)
  K <- fp_kernel(zf, zf, kpar)
  if (!all(is.finite(K))) {
    fp_abort(sprintf("gives a kernel matrix with non-finite entries (overflow) at gamma = %s, degree = %s, coef0 = %s: the kernel parameters do not fit the scale of the data; use gamma = \"scale\" (relative to the data's variance, the default) or standardise `x`",
                     format(kpar$gamma, digits = 4), format(kpar$degree), format(kpar$coef0)), "kernel")
  }
  kmeans <- colMeans(K)
  grand <- mean(kmeans)
  if (kernel_center) {
    K <- K - outer(kmeans, kmeans, `+`) + grand
    K <- (K + t(K)) / 2
  }
  kscale <- max(abs(K))
  if (!is.finite(kscale) || kscale <= 0) {
    if (any(zf != rep(zf[1L, ], each = n))) {
      fp_abort(sprintf(paste("gives a kernel matrix that is constant to rounding (zero after centring) at gamma = %s,",
                             "degree = %s, coef0 = %s, though the rows differ: the kernel parameters do not fit the",
                             "scale of the data; use gamma = \"scale\" (relative to the data's variance, the default) or standardise `x`"),
                       format(kpar$gamma, digits = 4), format(kpar$degree), format(kpar$coef0)), "kernel")
    }
    fp_abort("gives a kernel matrix that is zero after centring: nothing to project (constant data?)", "x")
  }
  K <- K / kscale
  list(K = K, scale = kscale, trace = sum(diag(K)) * kscale, colmeans = kmeans, mean = grand)
}

# The columns the scores must be uncorrelated with, on the fitted rows: centred group indicators
# (use_group) and the columns of extra attributes.
fp_kpca_constraints <- function(gf, use_group, attributes, keep, n_all) {
  Z <- matrix(0, length(gf), 0)
  if (use_group) {
    Z <- outer(as.integer(gf), seq_len(nlevels(gf)), `==`) * 1
    Z <- sweep(Z, 2L, colMeans(Z))
  }
  if (!is.null(attributes)) Z <- cbind(Z, fp_attribute_indicators(attributes, keep, n_all))
  if (ncol(Z) == 0L) fp_abort("have no variation on the fitted rows: nothing to constrain", "attributes")
  Z
}

# The top-k components of the normalised kernel matrix K under the constraint that the scores
# are uncorrelated with the columns of Z: the coefficients `alpha` (in the kernel's own units,
# signed so that each component's largest training score is positive), the eigenvalues of the
# constrained matrix (normalised) and the constraint's rank. A classed error when fewer than k
# directions with positive variance are left.
fp_kpca_components <- function(K, Z, k, kscale, tol) {
  n <- nrow(K)
  M <- K %*% Z
  Gm <- crossprod(Z, M)
  eg <- eigen((Gm + t(Gm)) / 2, symmetric = TRUE)
  scale_ref <- max(sum(diag(K)) / n, .Machine$double.xmin)
  # pseudo-inverse over the non-zero eigenvalues (of either sign: the sigmoid kernel is indefinite)
  pos <- abs(eg$values) > max(tol * scale_ref, max(dim(Gm)) * .Machine$double.eps * max(abs(eg$values)))
  Gp <- eg$vectors[, pos, drop = FALSE] %*% (t(eg$vectors[, pos, drop = FALSE]) / eg$values[pos])
  Kt <- K - M %*% Gp %*% t(M)
  Kt <- (Kt + t(Kt)) / 2
  e <- fp_eig_top_wide(Kt, k)
  if (e$values[k] <= tol * max(e$values[1], scale_ref)) {
    npos <- sum(e$values > tol * max(e$values[1], scale_ref))
    fp_abort(sprintf("= %d exceeds the number of directions with positive variance left by the constraint (%d)",
                     k, npos), "k", class = "fairproj_infeasible_k")
  }
  A <- e$vectors
  alpha <- A - Z %*% (Gp %*% crossprod(M, A))
  alpha <- sweep(alpha, 2L, sqrt(e$values * kscale), `/`)
  # deterministic signs: the largest training score of each component positive
  emb <- sweep(A, 2L, sqrt(e$values), `*`)
  for (j in seq_len(k)) if (emb[which.max(abs(emb[, j])), j] < 0) alpha[, j] <- -alpha[, j]
  colnames(alpha) <- paste0("KPC", seq_len(k))
  list(alpha = alpha, values = e$values, rank = sum(pos))
}

# Coefficients of unconstrained kernel PCA on the normalised kernel matrix K (the trade-off's
# other end), signed as fp_kpca_components() signs its own.
fp_kpca_standard <- function(K, k, kscale) {
  es <- fp_eig_top_wide(K, k)
  es$values <- pmax(es$values, .Machine$double.xmin)
  as <- sweep(es$vectors, 2L, sqrt(es$values * kscale), `/`)
  for (j in seq_len(k)) if (es$vectors[which.max(abs(es$vectors[, j])), j] < 0) as[, j] <- -as[, j]
  colnames(as) <- paste0("STD", seq_len(k))
  as
}

#' @rdname fair_kpca
#' @param formula For the formula interface: a one-sided formula naming the feature columns of
#'   `data` (`~ .` for all but the group), expanded by [stats::model.matrix()] without intercept
#'   as in [fair_pca()].
#' @param data A data.frame holding the variables of `formula` (and `group`).
#' @param subset,na.action As in [stats::model.frame()]; with `na.action = na.exclude` the
#'   training scores have an `NA` row for each row left out.
#' @export
fair_kpca.formula <- function(formula, data = NULL, group, k, ..., subset, na.action) {
  fd <- fp_formula_door(formula, data, substitute(group), missing(group), if (!missing(subset)) substitute(subset),
                        if (!missing(na.action)) na.action, parent.frame())
  fp_formula_attach(fair_kpca.default(fd$x, fd$group, k, ...), fd, fp_generic_call(match.call(), "fair_kpca"))
}

# The centred constraint columns of extra attributes on the rows `keep`: centred one-hot
# indicators for a factor-like attribute, the centred and standardised values for a numeric one.
fp_attribute_indicators <- function(attributes, keep, n_all) {
  attrs <- fp_attribute_list(attributes, n_all, keep)
  out <- list()
  for (nm in names(attrs)) {
    a <- attrs[[nm]]
    if (is.numeric(a)) {
      ac <- a - mean(a)
      s <- sqrt(mean(ac^2))
      if (s > 0) out[[nm]] <- matrix(ac / s, ncol = 1L)
    } else {
      f <- droplevels(as.factor(a))
      if (nlevels(f) >= 2L) {
        Zf <- outer(as.integer(f), seq_len(nlevels(f)), `==`) * 1
        out[[nm]] <- sweep(Zf, 2L, colMeans(Zf))
      }
    }
  }
  if (!length(out)) return(matrix(0, sum(keep), 0))
  do.call(cbind, out)
}

# Top-k eigenpairs of an n x n kernel matrix (Lanczos with a wide subspace; see src/linalg.cpp).
fp_eig_top_wide <- function(A, k) {
  fp_cpp(.fp_eig_top_wide(A, as.integer(k), as.integer(max(60L, 4L * k))), "the kernel eigensolver")
}

# Kernel matrix between the rows of a and b.
fp_kernel <- function(a, b, kpar) {
  ip <- tcrossprod(a, b)
  switch(kpar$kernel,
         rbf = {
           d2 <- outer(rowSums(a^2), rowSums(b^2), `+`) - 2 * ip
           exp(-kpar$gamma * pmax(d2, 0))
         },
         polynomial = (kpar$gamma * ip + kpar$coef0)^kpar$degree,
         sigmoid = tanh(kpar$gamma * ip + kpar$coef0),
         linear = ip)
}

