# Mean-matching fair PCA (Kleindessner, Donini, Russell and Zafar 2023) and its variants.

#' Mean-matching fair PCA (Kleindessner et al. 2023)
#'
#' `fair_pca(x, group, k, method = "mean", ...)` finds the k-dimensional projection of largest
#' variance among those under which **all groups have the same projected mean**: no linear
#' function of the representation is correlated with the group (demographic parity for every
#' linear model trained on it, in the relaxed sense of the paper). This is Algorithm 1 of
#' Kleindessner et al. (2023) with its variants: several groups, several attributes at once,
#' continuous attributes, approximately equal group covariances ("Fair PCA-S"), an
#' accuracy-fairness trade-off and equal opportunity. The kernelised version is [fair_kpca()].
#'
#' @section Algorithm:
#' In the centred (and scaled) coordinates `z` of [fair_pca()], let `B` be the d x p matrix
#' whose columns are the group-mean differences `mean_g - mean` (one per group; rank at most
#' m - 1 for m groups), plus the constraint directions of any extra `attributes`. The fair
#' directions are the orthogonal complement of `span(B)`, of dimension `d - rank(B)` (the
#' "feasible dimension"; `k` above it is an error of class `fairproj_infeasible_k`). With `Q`
#' the Householder reflector whose first `rank(B)` columns span `B` (so `R`, the remaining
#' columns, is an orthonormal basis of the complement, never formed explicitly), the solution is
#' `rotation = R A` with `A` the top-k eigenvectors of `R' C R`, where `C` is the covariance
#' matrix that [stats::prcomp()] diagonalises (`center = TRUE`: the centred sample covariance;
#' `center = FALSE`: the uncentred second moment, which is what the authors' code uses with
#' `standardize = False`; the subspace is the same in both cases when the data are centred).
#' The cost is the group moments plus reflections of a d x d matrix and one top-k
#' eigensolve, i.e. that of standard PCA. Directions of `B` with singular value below
#' `zero_tol * sqrt(trace(C) / d)` are treated as zero (equal means): the constraint then vanishes and
#' the result is standard PCA.
#'
#' @section Several attributes, continuous attributes:
#' `attributes` (a data.frame, a list of vectors or one vector, one value per row; needs the
#' data rows, so not available for fits from [group_moments()]) adds constraints:
#' * a factor, character or logical column: the projected means of all its groups are equal;
#' * a numeric column (a continuous attribute `a`): the projections are uncorrelated with it,
#'   `sum_i (a_i - mean(a)) U' z_i = 0` (the binary case of the paper is exactly this with
#'   `a` the 0/1 group indicator). Wrap integer codes in [factor()] to treat them as groups.
#'
#' All constraints hold at once: the columns of their constraint matrices are concatenated
#' (Kleindessner et al.'s "matrix Z"). By default the `group` of [fair_pca()] is one of them;
#' `use_group = FALSE` drops it (the group is then used only for the per-group diagnostics),
#' e.g. to decorrelate from a continuous attribute alone. Equalising the means of every
#' combination of two attributes (a stronger condition) needs no rows: use
#' `group = interaction(a1, a2)`.
#'
#' @section Fair PCA-S (equalize_cov):
#' With `equalize_cov = L`, the solution is further restricted to the `l = max(k, min(f, L))`
#' directions (f the feasible dimension) of the complement on which the group covariances
#' differ least, then the top-k PCA directions in that l-dimensional space are taken:
#' * two groups (the paper and its code): the eigenvectors `E` of `T = R'(S_1 - S_2)R` with the
#'   `l` smallest |eigenvalues|, where `S_g` are the group covariances (about their own means,
#'   divisor `n_g - 1`, as `np.cov` in the authors' code). Then `U = R E B` satisfies
#'   `||U'(S_1 - S_2)U||_2 <= max |selected eigenvalue|` (reported as `cov_bound`);
#' * m groups (our generalisation, not defined in the paper): with the pooled covariance
#'   `S = sum_g w_g S_g` (`w_g = n_g / n`) and `T_g = R'(S_g - S)R`, `E` spans the right
#'   singular vectors of the stacked matrix `[sqrt(w_1) T_1; ...; sqrt(w_m) T_m]` with the `l`
#'   smallest singular values, i.e. the `l` smallest eigenvectors of `sum_g w_g T_g^2`. For two
#'   groups this is exactly the rule above. If `s` is the largest selected singular value, then
#'   `||U'(S_g - S)U||_2 <= s / sqrt(w_g)` for every group (reported as `cov_bound`, one per
#'   group).
#'
#' `L` is a whole number, or a fraction `0 < L < 1` meaning `floor(L * d)` (the paper's "Fair
#' PCA-S (0.5)" and "(0.85)" are `equalize_cov = 0.5` and `0.85`). The means stay exactly
#' matched. Smaller `L` matches covariances more tightly and keeps less variance; `L` must be at
#' least `k` ("requires k to be small").
#'
#' @section Trade-off:
#' `tradeoff = lambda` (in \[0, 1\]) makes [predict()][predict.fair_pca()] return the 2k-column
#' representation `[U_fair' z, lambda^p U_std' z]` of the paper, with `U_std` the standard PCA
#' basis (stored as `standard_rotation`) and `p = tradeoff_power`. The poster uses `p = 1`; the
#' authors' public code scales by `lambda^3` (`tradeoff_power = 3`). `lambda = 0` is the fair
#' representation padded with zeros; larger values let a (regularised) downstream model use more
#' of the unconstrained information. `rotation` is always the fair basis.
#'
#' @section Equal opportunity:
#' `constraint = "opportunity"` with a binary label `y` (logical, 0/1, or a two-level factor whose
#' second level is positive) fits the whole transformation (constraint, covariance and the
#' covariances of Fair PCA-S) on the rows with a positive label only, as in the paper and its
#' code; it is then applied to all rows. The centre and scale of the fit remain those of all
#' rows; the covariance of the positive rows is taken about their own mean when `center` is not
#' `FALSE`. Needs the data rows.
#'
#' @section Arguments:
#' Passed through the `...` of [fair_pca()] (`fair_pca(x, group, k, method = "mean", ...)`):
#' * `equalize_cov`: `NULL` (means only, default) or `L`, the number (or fraction of d) of
#'   directions kept by Fair PCA-S (see the section).
#' * `tradeoff`: `NULL` (default) or `lambda` in \[0, 1\] (see the section).
#' * `tradeoff_power`: the power `p` of `lambda` (default 1 as on the poster; 3 as in the
#'   authors' code).
#' * `attributes`: extra attributes whose group means are equalised (factor-like columns) or
#'   which the projections must be uncorrelated with (numeric columns); see the section.
#' * `use_group`: logical (default `TRUE`); whether the `group` of [fair_pca()] is a constraint.
#' * `y`: binary label, one per row (for `constraint = "opportunity"`).
#' * `constraint`: `"parity"` (default; demographic parity) or `"opportunity"`.
#' * `zero_tol`: relative tolerance below which a mean difference counts as zero (default `1e-9`).
#'
#' `k` may be at most the feasible dimension `d - rank(B)` (d - 1 for two groups with
#' different means).
#'
#' @section Value:
#' A [fair_pca()] object of class `c("fair_pca_mean", "fair_pca")` whose `rotation` is the fair
#' basis, with the extra fields `constraint_rank` (rank of `B`), `feasible_dim`,
#' `constraint_basis` (d x rank orthonormal basis of the constrained directions), `constraint`,
#' and where used `equalize_cov` (the number `l` of directions kept), `cov_bound`, `tradeoff`,
#' `tradeoff_power`, `standard_rotation`.
#' @references Kleindessner, M., Donini, M., Russell, C. and Zafar, M. B. (2023). Efficient fair
#'   PCA for fair representation learning. AISTATS, PMLR 206, 5250-5270.
#' @seealso [fair_pca()], [fair_kpca()], [variance_explained()], [mmd2()],
#'   [downstream_metrics()].
#' @examplesIf requireNamespace("survival", quietly = TRUE)
#' pbc2 <- na.omit(survival::pbc[c("age", "bili", "albumin", "ast", "platelet", "protime", "sex")])
#' x <- as.matrix(pbc2[1:6])
#' g <- pbc2$sex
#' fit <- fair_pca(x, g, k = 2, method = "mean", scale. = TRUE)
#' s <- predict(fit, x)
#' rowsum(s, g) / as.vector(table(g))   # equal projected group means
#' # four groups (sex by age over 50): all projected means equal
#' sa <- interaction(g, pbc2$age > 50)
#' fit3 <- fair_pca(x, sa, k = 2, method = "mean", scale. = TRUE)
#' # approximately equal covariances too, and the trade-off representation
#' fit_s <- fair_pca(x, g, k = 1, method = "mean", equalize_cov = 2, scale. = TRUE)
#' fit_t <- fair_pca(x, g, k = 2, method = "mean", tradeoff = 0.5, scale. = TRUE)
#' dim(predict(fit_t, x))
#' # a continuous attribute: projections uncorrelated with age
#' fit_c <- fair_pca(x[, -1], g, k = 2, method = "mean", scale. = TRUE,
#'                   attributes = data.frame(age = pbc2$age), use_group = FALSE)
#' cor(predict(fit_c, x[, -1]), pbc2$age)
#' @name fair_pca_mean
#' @aliases fit_pca_mean
NULL

fit_pca_mean <- function(prep, k, equalize_cov = NULL, tradeoff = NULL, tradeoff_power = 1,
                         attributes = NULL, use_group = TRUE, y = NULL,
                         constraint = c("parity", "opportunity"), zero_tol = 1e-9, data = NULL) {
  d <- prep$d
  constraint <- fp_mean_check_args(use_group, zero_tol, constraint, tradeoff, tradeoff_power, equalize_cov,
                                   attributes, y, data)
  needs_rows <- !is.null(attributes) || constraint == "opportunity"
  fpb <- fp_mean_problem(prep, data, y, constraint, use_group, needs_rows)
  fprep <- fpb$prep
  Q <- fp_mean_constraint_basis(fprep, attributes, fpb$rows, fpb$keep, nrow(data$x), use_group, zero_tol)
  r <- ncol(Q)
  feasible <- d - r
  if (k > feasible) {
    fp_abort(sprintf("= %d exceeds the feasible dimension %d (= d - rank of the mean differences: %d - %d); choose k <= %d",
                     k, feasible, d, r, feasible), "k", class = "fairproj_infeasible_k")
  }
  if (!is.null(prep$rows)) {
    # the row route (prepare-rows.R): the top k of the covariance projected off span(Q)
    return(list(rotation = fp_rows_eig(prep, k, Q = Q)$vectors, constraint_rank = r, feasible_dim = feasible,
                constraint_basis = Q, constraint = constraint))
  }
  cmp <- fp_mean_complement(Q)
  # R'CR, computed in C's own matrix where the problem builds C on demand (fp_prep_C_scratch():
  # its work matrix, which the complement overwrites), so that it holds that matrix and the
  # (d - r)^2 result; without a constraint C itself, its own copy where equalize_cov reads the
  # groups (which refill the work matrix) while it holds it
  scratch <- if (r > 0L) fp_prep_C_scratch(fprep)
  H <- if (!is.null(scratch)) cmp$to(scratch, overwrite = TRUE) else cmp$to(fp_prep_C(fprep, new = !is.null(equalize_cov)))
  rm(scratch)
  out <- list()
  if (is.null(equalize_cov)) {
    A <- fp_eig_top(H, k)$vectors
  } else {
    eq <- fp_mean_equalize(fprep, H, cmp$to, equalize_cov, k, feasible)
    A <- eq$A
    out$equalize_cov <- eq$l
    out$cov_bound <- eq$bound
  }
  U <- cmp$from(A)
  if (!is.null(out$cov_bound)) out$cov_bound <- out$cov_bound * prep$unit  # back to the data's units
  out <- c(list(rotation = U, constraint_rank = r, feasible_dim = feasible,
                constraint_basis = Q, constraint = constraint), out)
  if (!is.null(tradeoff)) {
    Vs <- fp_eig_top(fp_prep_C(fprep), k)$vectors
    for (j in seq_len(ncol(Vs))) if (Vs[which.max(abs(Vs[, j])), j] < 0) Vs[, j] <- -Vs[, j]
    dimnames(Vs) <- list(prep$colnames, paste0("STD", seq_len(k)))
    out$tradeoff <- tradeoff
    out$tradeoff_power <- tradeoff_power
    out$standard_rotation <- Vs
  }
  out
}

# The checks of fit_pca_mean()'s options; the constraint as one string.
fp_mean_check_args <- function(use_group, zero_tol, constraint, tradeoff, tradeoff_power, equalize_cov,
                               attributes, y, data) {
  fp_check_flag(use_group, "use_group")
  fp_check_number(zero_tol, "zero_tol", lower = 0)
  constraint <- fp_match_arg(constraint, c("parity", "opportunity"), "constraint")
  if (!is.null(tradeoff)) fp_check_number(tradeoff, "tradeoff", 0, 1)
  fp_check_number(tradeoff_power, "tradeoff_power", lower = 0, open_lower = TRUE)
  if (!is.null(equalize_cov)) {
    fp_check_number(equalize_cov, "equalize_cov", lower = 0, open_lower = TRUE)
    if (equalize_cov >= 1 && equalize_cov != round(equalize_cov)) {
      fp_abort("must be a whole number of directions or a fraction in (0, 1)", "equalize_cov")
    }
  }
  needs_rows <- !is.null(attributes) || constraint == "opportunity"
  if (needs_rows && is.null(data)) {
    fp_abort(sprintf("is needed for %s: fit from the data, not from group_moments",
                     if (constraint == "opportunity") "constraint = \"opportunity\"" else "`attributes`"), "x",
             class = "fairproj_needs_rows")  # callers that hold the rows fall back to them (fp_abort_needs_rows())
  }
  if (!is.null(y) && constraint != "opportunity") {
    fp_abort("is only used with constraint = \"opportunity\"", "y")
  }
  if (!use_group && is.null(attributes)) {
    fp_abort("= FALSE needs `attributes` to constrain (otherwise this is standard PCA)", "use_group")
  }
  constraint
}

# The fitting problem: all rows (the prepared problem itself), or with constraint =
# "opportunity" the rows with a positive label, prepared again. list(prep, rows = the rows in
# the prepared units when they are needed, keep = the positive rows or NULL).
fp_mean_problem <- function(prep, data, y, constraint, use_group, needs_rows) {
  rows <- NULL
  fprep <- prep
  keep <- NULL
  if (needs_rows) {
    z <- fp_transform(prep, data$x)
    grp <- data$group
    if (constraint == "opportunity") {
      yb <- fp_as_binary(y, nrow(z), "y")
      keep <- yb == 1L
      if (sum(keep) < 2L) fp_abort("has fewer than 2 positive rows", "y")
      z <- z[keep, , drop = FALSE]
      grp <- droplevels(grp[keep])
      if (use_group && nlevels(grp) < 2L) {
        fp_abort("has positive rows in only one group: equal opportunity cannot be constrained", "y")
      }
      m_pos <- group_moments(z, grp)
      fprep <- fp_prepare(m_pos, center = prep$centered, scale. = FALSE)
    }
    rows <- z
  }
  list(prep = fprep, rows = rows, keep = keep)
}

# An orthonormal basis Q (d x r) of the constraint directions B (group mean differences and
# attribute directions, in the units of z): the left singular vectors above `zero_tol` of the
# average column scale and above rounding.
fp_mean_constraint_basis <- function(fprep, attributes, rows, keep, n_all, use_group, zero_tol) {
  d <- fprep$d
  B <- matrix(0, d, 0)
  if (use_group && length(fprep$levels) >= 2L) {
    w <- fprep$n / sum(fprep$n)
    mu <- drop(fprep$mean %*% w)
    B <- cbind(B, fprep$mean - mu)
  }
  if (!is.null(attributes)) B <- cbind(B, fp_attribute_directions(attributes, rows, keep, n_all))
  # (the row route's problem keeps no C: its average column variance is 1 by construction)
  scale_ref <- sqrt(max(if (!is.null(fprep$rows)) 1 else fp_prep_C_trace(fprep) / d, .Machine$double.xmin))
  Q <- matrix(0, d, 0)
  if (ncol(B) > 0L) {
    sv <- svd(B, nv = 0L)
    r <- sum(sv$d > zero_tol * scale_ref & sv$d > max(dim(B)) * .Machine$double.eps * max(sv$d))
    Q <- sv$u[, seq_len(r), drop = FALSE]
  }
  Q
}

# The orthogonal complement R of span(Q) through the Householder reflector whose first r
# columns span Q (R is never formed): to(M) = R' M R for a symmetric d x d M, from(A) = R A;
# to(M, overwrite = TRUE) computes it in M's own memory (a double d x d work matrix that no one
# reads afterwards).
fp_mean_complement <- function(Q) {
  r <- ncol(Q)
  qrq <- if (r > 0L) qr(Q, LAPACK = TRUE)
  list(to = function(M, overwrite = FALSE) {
    if (r == 0L) return(M)
    if (is.double(M) && is.matrix(M) && nrow(M) == nrow(Q) && ncol(M) == nrow(Q)) {
      # the values below in one work matrix (or M itself) and the result (no other d x d
      # temporaries); the dimnames R's transpose and subset would leave (set in C++: no copy of
      # the result)
      dn <- dimnames(M)
      if (!is.null(dn)) dn <- lapply(rev(dn), function(v) if (is.null(v)) NULL else v[-seq_len(r)])
      return(fp_cpp(.fp_complement_sym(M, qrq$qr, qrq$qraux, r, dn, overwrite), "the constraint's complement"))
    }
    W <- qr.qty(qrq, t(qr.qty(qrq, M)))
    W <- W[-seq_len(r), -seq_len(r), drop = FALSE]
    (W + t(W)) / 2
  }, from = function(A) {
    if (r == 0L) return(A)
    qr.qy(qrq, rbind(matrix(0, r, ncol(A)), A))
  })
}

# equalize_cov: the top k of H within the l directions of the complement where the group
# covariances differ least (two groups: the smallest eigenvalues of their difference; more: the
# smallest singular values of the weighted deviations from the mean covariance), and the bound
# on those differences (normalised units).
fp_mean_equalize <- function(fprep, H, to_complement, equalize_cov, k, feasible) {
  d <- fprep$d
  L <- if (equalize_cov < 1) floor(equalize_cov * d) else equalize_cov
  l <- as.integer(max(k, min(feasible, L)))
  if (length(fprep$levels) < 2L) fp_abort("needs at least two groups in `group`", "equalize_cov")
  ng <- fprep$n
  covs <- lapply(seq_along(fprep$levels), function(i) fp_prep_cov(fprep, i) * ng[[i]] / max(ng[[i]] - 1, 1))
  wg <- ng / sum(ng)
  if (length(covs) == 2L) {
    Tm <- to_complement(covs[[1]] - covs[[2]])
    e <- eigen(Tm, symmetric = TRUE)
    ord <- order(abs(e$values))[seq_len(l)]
    E <- e$vectors[, ord, drop = FALSE]
    bound <- max(abs(e$values[ord]))
    names(bound) <- "difference"
  } else {
    Sbar <- Reduce(`+`, Map(`*`, covs, wg))
    G <- do.call(rbind, lapply(seq_along(covs), function(i) sqrt(wg[[i]]) * to_complement(covs[[i]] - Sbar)))
    s <- svd(G, nu = 0L)
    ord <- order(s$d)[seq_len(l)]
    E <- s$v[, ord, drop = FALSE]
    bound <- max(s$d[ord]) / sqrt(wg)
    names(bound) <- fprep$levels
  }
  HE <- crossprod(E, H %*% E)
  list(A = E %*% fp_eig_top((HE + t(HE)) / 2, k)$vectors, l = l, bound = bound)
}

# Validated attribute vectors (named), restricted to the rows `keep` (NULL: all rows).
fp_attribute_list <- function(attributes, n_all, keep = NULL) {
  attrs <- if (is.data.frame(attributes)) as.list(attributes) else if (is.list(attributes)) attributes else list(attributes)
  if (!length(attrs)) fp_abort("has no columns", "attributes")
  if (is.null(names(attrs))) names(attrs) <- paste0("attribute", seq_along(attrs))
  out <- lapply(names(attrs), function(nm) {
    a <- attrs[[nm]]
    arg <- sprintf("attributes$%s", nm)
    if (!(is.factor(a) || is.character(a) || is.logical(a) || is.numeric(a))) {
      fp_abort("must be a factor, character, logical or numeric vector", arg)
    }
    if (length(a) != n_all) fp_abort(sprintf("has length %d but the data have %d rows", length(a), n_all), arg)
    if (anyNA(a)) fp_abort("contains missing values", arg)
    if (is.null(keep)) a else a[keep]
  })
  names(out) <- names(attrs)
  out
}

# Constraint directions of extra attributes in the units of z: for a factor-like column, the
# differences of its group means from the mean of the rows; for a numeric column, the
# covariance of z with the attribute divided by its standard deviation.
fp_attribute_directions <- function(attributes, z, keep, n_all) {
  attrs <- fp_attribute_list(attributes, n_all, keep)
  zc <- sweep(z, 2L, colMeans(z), `-`)
  out <- list()
  for (nm in names(attrs)) {
    a <- attrs[[nm]]
    if (is.numeric(a)) {
      ac <- a - mean(a)
      s <- sqrt(sum(ac^2) / length(ac))
      if (s > 0) out[[nm]] <- crossprod(zc, ac) / (length(ac) * s)
    } else {
      f <- droplevels(as.factor(a))
      if (nlevels(f) >= 2L) {
        sums <- rowsum(zc, f)
        out[[nm]] <- t(sums / as.vector(table(f)))
      }
    }
  }
  if (!length(out)) return(matrix(0, ncol(z), 0))
  do.call(cbind, out)
}

#' @rdname predict.fair_pca
#' @export
predict.fair_pca_mean <- function(object, newdata, ...) {
  fp_check_no_dots(...names(), ...length(), "predict() of a fair_pca fit", c("object", "newdata"))
  if (missing(newdata)) return(NextMethod())
  s <- NextMethod()
  if (!is.null(object$tradeoff)) {
    z <- fp_transform(object, fp_match_newdata(object, newdata))
    s <- cbind(s, (object$tradeoff^object$tradeoff_power) * (z %*% object$standard_rotation))
  }
  s
}

#' @export
print.fair_pca_mean <- function(x, ...) {
  NextMethod()
  cat(sprintf("\nMean constraint (%s): rank %d, feasible dimension %d\n",
              if (identical(x$constraint, "opportunity")) "equal opportunity, positive rows" else "demographic parity",
              x$constraint_rank, x$feasible_dim))
  if (!is.null(x$equalize_cov)) {
    cat(sprintf("Covariances equalised on %d directions; bound on the projected covariance difference: %s\n",
                x$equalize_cov, paste(format(x$cov_bound, digits = 4), collapse = ", ")))
  }
  if (!is.null(x$tradeoff)) {
    cat(sprintf("Trade-off representation: [fair scores, %g^%g x standard scores] (%d columns)\n",
                x$tradeoff, x$tradeoff_power, 2L * x$k))
  }
  invisible(x)
}
