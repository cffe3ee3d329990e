# Intervals for standard PCA's group errors and losses at a near-tie of the pooled covariance
# (#44 item 1): a study outside the package, for its next step. Results and what they mean:
# "Near-tie intervals" in the header of bench/audit-coverage.R.
#
# Run (from the package root):
#   FAIRPROJ_BENCH_DESIGNS=d12k3m3n1000gauss,d10k2m4n1000gauss FAIRPROJ_BENCH_NSIM=200 \
#     FAIRPROJ_BENCH_OUT=nt.csv nice -n 10 Rscript bench/near-tie-interval.R
#   FAIRPROJ_BENCH_BOOT=1   the bootstrap's intervals on the same samples instead (below)
#   FAIRPROJ_BENCH_PACKAGE  a samples CSV of bench/audit-coverage.R (FAIRPROJ_BENCH_SAMPLES) for
#                           the same designs: the package's own intervals and flags on the same
#                           samples are then compared (the samples are the same draws: this
#                           script draws them in bench/audit-coverage.R's order and seed)
#
# At a near-tie between the k-th and (k + 1)-th eigenvalues of the pooled covariance, standard
# PCA's subspace turns in the plane of those two eigenvectors by an angle the bootstrap does not
# reproduce (it is not consistent there: Beran and Srivastava 1985), and the audit flags the
# standard fit's intervals (fp_audit_near_tie()). This script tries an interval that stays
# valid near the tie, from the sample alone, on the audit's scale (columns divided by the
# pooled sds, as fair_audit()'s default scale. = TRUE):
#   In the sample's eigenbasis the population's 2 x 2 block of the plane is the sample's,
#   diag(l_k, l_k+1), minus the sampling noise E; to first order (a, b) = (E11 - E22, 2 E12) is
#   bivariate normal with variance s^2 per coordinate (from each row's influence on the
#   correlation matrix; taken isotropic, as for Gaussian rows at a tie). The sample's gap
#   g = l_k - l_k+1 is then the length of a Rice vector about the population's gap D, and given
#   g the angle 2 t between the population's and the sample's k-th directions is von Mises with
#   concentration g D / s^2 (exact for an isotropic Gaussian vector). A group's error at the
#   population's subspace is its error at angle t, err(t) (from the sample's group covariance),
#   minus its noise at a fixed subspace, normal with the group rows' standard error se(t).
#   The truth is therefore distributed as the von Mises mixture of N(err(t), se(t)^2); D is not
#   known:
#     cond  D at its median-unbiased estimate (the Rice CDF of g at 1/2; 0 where g is below the
#           median at D = 0) and the mixture's 5% and 95% quantiles;
#     union the union of the mixture's 4.5% to 95.5% intervals over a 99% confidence set of D
#           (Bonferroni: valid uniformly, conservative);
#     scaled  cond with the fixed-subspace noise from every row's influence (the group's rows'
#           and the pooled sds', which the audit's scaling divides by) and the loss less the
#           first-order optimism of the group's best error (Gaussian: the sum over i <= k < j
#           of l_i l_j / (l_i - l_j), over the group's rows);
#     fixed the fixed-subspace interval err(0) +- 1.645 se(0) (what the plane's rotation adds is
#           the difference).
#   A loss is the same with each row's error minus its error at the group's own best
#   subspace (whose in-sample optimism is not corrected here).
# Printed per design and group: each interval's coverage of the truth (the population's own
# standard PCA at the populations' exact moments, scaled by the population's pooled sds), its
# mean width over the fixed interval's, the population's gap over s and the samples' median
# g / s; with FAIRPROJ_BENCH_PACKAGE, the package's coverage, flag share and coverage of its
# reliable intervals on the same samples, and `swap`: the package's intervals with every flagged
# near-tie interval replaced by `cond` (coverage over all samples, as every one is then reported
# reliable).
env <- function(name, default) {
  v <- Sys.getenv(name, "")
  if (nzchar(v)) v else default
}
designs <- strsplit(env("FAIRPROJ_BENCH_DESIGNS", "d12k3m3n1000gauss,d10k2m4n1000gauss,t12k2m3n3000gauss,d12k3m5n1000gauss"),
                    ",")[[1L]]
nsim <- as.integer(env("FAIRPROJ_BENCH_NSIM", "100"))
out_csv <- env("FAIRPROJ_BENCH_OUT", "")
pkg_csv <- env("FAIRPROJ_BENCH_PACKAGE", "")
alpha <- 0.1
beta <- 0.01

# the populations and samples of bench/audit-coverage.R (its definitions, not its run)
src <- parse("bench/audit-coverage.R", keep.source = FALSE)
for (e in src) {
  if (is.call(e) && identical(e[[1L]], as.name("<-")) && is.name(e[[2L]]) &&
      as.character(e[[2L]]) %in% c("design", "rot", "population", "draw_group")) eval(e)
}
design_of <- function(nm) {
  p <- regmatches(nm, regexec("^([dta])(\\d+)k(\\d+)m(\\d+)n([0-9_]+)([a-z0-9]+?)(p(\\d+))?$", nm))[[1L]]
  if (!length(p)) stop("not a design name: ", nm)
  shape <- c(d = "distinct", t = "tie", a = "alike")[[p[2L]]]
  x <- design(as.integer(p[3L]), as.integer(p[4L]), as.integer(p[5L]), as.integer(strsplit(p[6L], "_")[[1L]]), p[7L],
              shape, pop = if (nzchar(p[9L])) as.integer(p[9L]) else 0L)
  stopifnot(identical(x$name, nm))
  x
}

# the q-quantile of the mixture (weights wt) of N(mu, s^2)
mix_quantile <- function(wt, mu, s, q) {
  f <- function(v) sum(wt * stats::pnorm((v - mu) / s)) - q
  stats::uniroot(f, c(min(mu - 8 * s), max(mu + 8 * s)), tol = 1e-10)$root
}
mix_interval <- function(kappa, mu, s, lo, hi) {
  wt <- exp(kappa * (cos(phi) - 1))
  wt <- wt / sum(wt)
  c(mix_quantile(wt, mu, s, lo), mix_quantile(wt, mu, s, hi))
}
phi <- seq(-pi, pi, length.out = 361)  # 2 t, the angle of the plane's rotation doubled

err_at <- function(S, V) sum(diag(S)) - sum(V * (S %*% V))
best_of <- function(S, k) sum(eigen(S, symmetric = TRUE, only.values = TRUE)$values[-seq_len(k)])
# A design's populations (seeded as bench/audit-coverage.R seeds them), its groups' covariances
# scaled by the pooled population's sds, and the truth of standard PCA's group errors and losses
# (rows) on that scale.
design_truth <- function(nm) {
  x <- design_of(nm)
  set.seed(sum(utf8ToInt(x$name)))
  pop <- population(x)
  w <- x$n / sum(x$n)
  mu_bar <- Reduce(`+`, Map(function(p, ww) ww * p$mean, pop, w))
  Sig <- Reduce(`+`, Map(function(p, ww) ww * (p$cov + tcrossprod(p$mean - mu_bar)), pop, w))
  dsd <- sqrt(diag(Sig))
  Sig <- Sig / tcrossprod(dsd)
  covs <- lapply(pop, function(p) p$cov / tcrossprod(dsd))
  es <- eigen(Sig, symmetric = TRUE)
  t_err <- vapply(covs, err_at, numeric(1), V = es$vectors[, seq_len(x$k), drop = FALSE])
  list(x = x, pop = pop, k = x$k, values = es$values,
       truth = rbind(error = t_err, loss = t_err - vapply(covs, best_of, numeric(1), k = x$k)))
}
# The plane of a sample's (columns scaled) k-th and (k + 1)-th eigenvectors: u1, u2, the gap g,
# the noise sd s per coordinate (each row's influence on the correlation matrix's block) and
# the Rice CDF of g given the population's gap D.
plane_of <- function(z, k) {
  C <- stats::cov(z)
  e <- eigen(C, symmetric = TRUE)
  u1 <- e$vectors[, k]
  u2 <- e$vectors[, k + 1L]
  zc <- sweep(z, 2L, colMeans(z))
  infl <- function(a, b) drop((zc %*% a) * (zc %*% b) - 0.5 * (zc^2 %*% (a * (C %*% b)) + zc^2 %*% (b * (C %*% a))))
  s2 <- (stats::var(infl(u1, u1) - infl(u2, u2)) + stats::var(2 * infl(u1, u2))) / 2 / nrow(z)
  g <- e$values[k] - e$values[k + 1L]
  sg <- sqrt(s2)
  rice <- function(D) stats::pchisq((g / sg)^2, 2, ncp = (D / sg)^2)
  # the D at which the Rice CDF of g is q (0 where it is at most q at D = 0)
  d_at <- function(q) if (rice(0) <= q) 0 else stats::uniroot(function(D) rice(D) - q, c(0, g + 12 * sg))$root
  list(e = e, u1 = u1, u2 = u2, g = g, s2 = s2, sg = sg, d_at = d_at)
}

one_design <- function(nm) {
  dt <- design_truth(nm)
  x <- dt$x
  pop <- dt$pop
  k <- dt$k
  res <- list()
  sgs <- numeric(nsim)
  for (s in seq_len(nsim)) {
    xs <- do.call(rbind, Map(function(p, n) draw_group(p, n, x$dist, x$d), pop, x$n))
    gs <- rep(names(pop), x$n)
    xs <- sweep(xs, 2L, apply(xs, 2L, stats::sd), `/`)
    pl <- plane_of(xs, k)
    e <- pl$e
    V <- e$vectors[, seq_len(k), drop = FALSE]
    u1 <- pl$u1
    u2 <- pl$u2
    s2 <- pl$s2
    sg <- pl$sg
    sgs[s] <- sg
    g <- pl$g
    d_med <- pl$d_at(0.5)
    d_up <- pl$d_at(beta / 2)
    d_lo <- pl$d_at(1 - beta / 2)
    for (gr in names(pop)) {
      ig <- gs == gr
      Xc <- sweep(xs[ig, , drop = FALSE], 2L, colMeans(xs[ig, , drop = FALSE]))
      W <- eigen(stats::cov(Xc), symmetric = TRUE)$vectors[, seq_len(k), drop = FALSE]
      rb <- rowSums(Xc^2) - rowSums((Xc %*% W)^2)
      base <- rowSums(Xc^2) - rowSums((Xc %*% V[, seq_len(k - 1L), drop = FALSE])^2)
      p1 <- drop(Xc %*% u1)
      p2 <- drop(Xc %*% u2)
      ng <- sum(ig)
      M <- vapply(phi / 2, function(t) {
        r <- base - (cos(t) * p1 + sin(t) * p2)^2
        c(mean(r), stats::sd(r) / sqrt(ng), mean(r - rb), stats::sd(r - rb) / sqrt(ng))
      }, numeric(4))
      # `scaled`: each row's influence on the group's error at a fixed subspace with the
      # pooled sds' (every row's) beside the group's own, and the loss less the first-order
      # optimism of the group's best error, sum over i <= k < j of l_i l_j / (l_i - l_j) / n
      Sg <- stats::cov(Xc)
      Nn <- nrow(xs)
      wz <- sweep(xs, 2L, colMeans(xs))^2 - 1
      Vk1 <- V[, seq_len(k - 1L), drop = FALSE]
      dS <- diag(Sg) - rowSums((Vk1 %*% t(Vk1)) * Sg)
      Su1 <- drop(Sg %*% u1); Su2 <- drop(Sg %*% u2)
      Hb <- diag(Sg) - rowSums((W %*% t(W)) * Sg)
      ind <- as.numeric(ig) * Nn / ng
      Ms <- vapply(phi / 2, function(t) {
        u <- cos(t) * u1 + sin(t) * u2
        H <- dS - u * (cos(t) * Su1 + sin(t) * Su2)
        r <- base - (cos(t) * p1 + sin(t) * p2)^2
        rr <- numeric(Nn); rr[ig] <- r - mean(r)
        rl <- numeric(Nn); rl[ig] <- (r - rb) - mean(r - rb)
        pe <- ind * rr - drop(wz %*% H)
        pl <- ind * rl - drop(wz %*% (H - Hb))
        c(stats::sd(pe) / sqrt(Nn), stats::sd(pl) / sqrt(Nn))
      }, numeric(2))
      lg <- eigen(Sg, symmetric = TRUE, only.values = TRUE)$values
      opt <- 0
      for (i1 in seq_len(k)) for (j1 in (k + 1L):length(lg)) opt <- opt + lg[i1] * lg[j1] / (lg[i1] - lg[j1])
      opt <- opt / ng
      scaled_e <- mix_interval(g * d_med / s2, M[1L, ], Ms[1L, ], alpha / 2, 1 - alpha / 2)
      scaled_l <- mix_interval(g * d_med / s2, M[3L, ] - opt, Ms[2L, ], alpha / 2, 1 - alpha / 2)
      cond_e <- mix_interval(g * d_med / s2, M[1L, ], M[2L, ], alpha / 2, 1 - alpha / 2)
      cond_l <- mix_interval(g * d_med / s2, M[3L, ], M[4L, ], alpha / 2, 1 - alpha / 2)
      un <- vapply(seq(d_lo, d_up, length.out = 15L), function(D) {
        c(mix_interval(g * D / s2, M[1L, ], M[2L, ], (alpha - beta) / 2, 1 - (alpha - beta) / 2),
          mix_interval(g * D / s2, M[3L, ], M[4L, ], (alpha - beta) / 2, 1 - (alpha - beta) / 2))
      }, numeric(4))
      i0 <- which.min(abs(phi))
      z <- stats::qnorm(1 - alpha / 2)
      res[[length(res) + 1L]] <- data.frame(
        design = nm, sample = s, group = gr, g_over_s = g / sg,
        term = c("error", "loss"), truth = dt$truth[, gr], estimate = M[c(1L, 3L), i0],
        cond_low = c(cond_e[1L], cond_l[1L]), cond_high = c(cond_e[2L], cond_l[2L]),
        union_low = c(min(un[1L, ]), min(un[3L, ])), union_high = c(max(un[2L, ]), max(un[4L, ])),
        scaled_low = c(scaled_e[1L], scaled_l[1L]), scaled_high = c(scaled_e[2L], scaled_l[2L]),
        fixed_low = M[c(1L, 3L), i0] - z * M[c(2L, 4L), i0], fixed_high = M[c(1L, 3L), i0] + z * M[c(2L, 4L), i0])
    }
  }
  r <- do.call(rbind, res)
  attr(r, "pop_gap_over_s") <- (dt$values[k] - dt$values[k + 1L]) / stats::median(sgs)
  r
}

# ---- FAIRPROJ_BENCH_BOOT=1: the bootstrap on the same samples ------------------------------------
# The audit's kind of interval rebuilt from rows (100 replicates resampling each group's rows,
# the replicates' 5% and 95% quantiles less their mean's offset from the estimate, as
# fp_interval()): `boot`; and `mod`, the same with each replicate's pooled correlation matrix
# less (g - D) / 2 (u_k u_k' - u_k+1 u_k+1'), D the median-unbiased gap above, so that the
# bootstrap's world has the population's gap at its estimate rather than the sample's
# (Beran and Srivastava's modified bootstrap, for the plane only).
boot_design <- function(nm, B = 100L) {
  dt <- design_truth(nm)
  x <- dt$x
  pop <- dt$pop
  k <- dt$k
  truth <- dt$truth
  stats_of <- function(xs, gs, shift = NULL) {
    sdv <- apply(xs, 2L, stats::sd)
    C <- stats::cov(xs) / tcrossprod(sdv)
    if (!is.null(shift)) C <- C - shift
    V <- eigen(C, symmetric = TRUE)$vectors[, seq_len(k), drop = FALSE]
    vapply(names(pop), function(g) {
      S <- stats::cov(xs[gs == g, , drop = FALSE]) / tcrossprod(sdv)
      e <- err_at(S, V)
      c(e, e - best_of(S, k))
    }, numeric(2))
  }
  interval <- function(reps, est) stats::quantile(reps, c(alpha / 2, 1 - alpha / 2), type = 6) - (mean(reps) - est)
  out <- list()
  for (s in seq_len(nsim)) {
    xs <- do.call(rbind, Map(function(p, n) draw_group(p, n, x$dist, x$d), pop, x$n))
    gs <- rep(names(pop), x$n)
    pl <- plane_of(sweep(xs, 2L, apply(xs, 2L, stats::sd), `/`), k)
    g <- pl$g
    sg <- pl$sg
    shift <- (g - pl$d_at(0.5)) / 2 * (tcrossprod(pl$u1) - tcrossprod(pl$u2))
    est <- stats_of(xs, gs)
    # the resamples from a stream of their own, so that the samples are bench/audit-coverage.R's
    seed <- .Random.seed
    set.seed(s)
    idx <- split(seq_along(gs), gs)
    R0 <- R1 <- array(NA_real_, c(B, 2L, x$m))
    for (b in seq_len(B)) {
      ii <- unlist(lapply(idx, function(v) v[sample.int(length(v), replace = TRUE)]))
      R0[b, , ] <- stats_of(xs[ii, , drop = FALSE], gs[ii])
      R1[b, , ] <- stats_of(xs[ii, , drop = FALSE], gs[ii], shift)
    }
    assign(".Random.seed", seed, envir = globalenv())
    for (gi in seq_len(x$m)) {
      for (q in 1:2) {
        i0 <- interval(R0[, q, gi], est[q, gi])
        i1 <- interval(R1[, q, gi], est[q, gi])
        tr <- truth[q, gi]
        out[[length(out) + 1L]] <- data.frame(design = nm, sample = s, term = c("error", "loss")[q], group = names(pop)[gi],
                                              g_over_s = g / sg, estimate = est[q, gi], low = i0[1L], high = i0[2L],
                                              boot = tr >= i0[1L] & tr <= i0[2L],
                                              mod = tr >= i1[1L] & tr <= i1[2L], width_mod = diff(i1) / diff(i0))
      }
    }
  }
  do.call(rbind, out)
}
if (identical(env("FAIRPROJ_BENCH_BOOT", ""), "1")) {
  r <- do.call(rbind, lapply(designs, function(nm) {
    t0 <- proc.time()[["elapsed"]]
    r <- boot_design(nm)
    cat(sprintf("%s: %d samples (%.0f s)\n", nm, nsim, proc.time()[["elapsed"]] - t0))
    r
  }))
  if (nzchar(out_csv)) utils::write.csv(r, out_csv, row.names = FALSE)
  tab <- stats::aggregate(cbind(boot, mod, width_mod, g_over_s) ~ design + term + group, r, mean)
  print(tab[order(tab$design, tab$term, tab$group), ], digits = 3, row.names = FALSE)
  band <- function(v) sprintf("%d within, %d below, %d above", sum(v >= 0.85 & v <= 0.95), sum(v < 0.85), sum(v > 0.95))
  cat(sprintf("\nof %d cells: boot %s; mod %s\n", nrow(tab), band(tab$boot), band(tab$mod)))
  quit(save = "no")
}

cover <- function(r, p) r$truth >= r[[paste0(p, "_low")]] & r$truth <= r[[paste0(p, "_high")]]
all_r <- list()
for (nm in designs) {
  t0 <- proc.time()[["elapsed"]]
  r <- one_design(nm)
  all_r[[nm]] <- r
  cat(sprintf("%s: %d samples (%.0f s); population's gap %.2f s, samples' median g %.2f s\n", nm, nsim,
              proc.time()[["elapsed"]] - t0, attr(r, "pop_gap_over_s"), stats::median(r$g_over_s)))
}
r <- do.call(rbind, all_r)
for (p in c("cond", "scaled", "union", "fixed")) r[[p]] <- cover(r, p)
r$width_cond <- (r$cond_high - r$cond_low) / (r$fixed_high - r$fixed_low)
r$width_union <- (r$union_high - r$union_low) / (r$fixed_high - r$fixed_low)
if (nzchar(out_csv)) utils::write.csv(r, out_csv, row.names = FALSE)
tab <- stats::aggregate(cbind(cond, scaled, union, fixed, width_cond, width_union) ~ design + term + group, r, mean)
if (nzchar(pkg_csv)) {
  pk <- utils::read.csv(pkg_csv)
  pk <- pk[pk$method == "standard" & pk$term %in% c("error", "loss"), ]
  mm <- merge(r, pk[c("design", "sample", "term", "group", "estimate", "low", "high", "cover", "reliable", "reason")],
              by = c("design", "sample", "term", "group"), suffixes = c("", "_pkg"))
  if (nrow(mm)) {
    stopifnot(isTRUE(all.equal(mm$estimate, mm$estimate_pkg, tolerance = 1e-8)))  # the same samples
    tie <- !mm$reliable & grepl("near-tie", mm$reason)
    mm$swap <- ifelse(tie, mm$cond, mm$cover)
    mm$flag <- !mm$reliable
    mm$rel_cov <- ifelse(mm$reliable, mm$cover, NA)
    pt <- stats::aggregate(cbind(pkg = cover, pkg_flagged = flag, swap) ~ design + term + group, mm, mean)
    rc <- stats::aggregate(rel_cov ~ design + term + group, mm, mean, na.action = stats::na.pass, na.rm = TRUE)
    names(rc)[4L] <- "pkg_reliable_cov"
    tab <- merge(merge(tab, pt, all.x = TRUE), rc, all.x = TRUE)
  }
}
print(tab[order(tab$design, tab$term, tab$group), ], digits = 3, row.names = FALSE)
in_band <- function(v) sum(v >= 0.85 & v <= 0.95, na.rm = TRUE)
cat(sprintf("\ncells within 0.85-0.95 of %d: cond %d, scaled %d, union %d, fixed %d%s\n", nrow(tab), in_band(tab$cond), in_band(tab$scaled), in_band(tab$union),
            in_band(tab$fixed), if (!is.null(tab$swap)) sprintf(", package with cond at its near-ties %d (package as is: reliable cells %d)",
                                                                in_band(tab$swap), in_band(tab$pkg_reliable_cov)) else ""))
