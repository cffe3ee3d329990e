# Bias the bootstrap does not see (#44 item 1, second round): a fast double bootstrap and a
# half-size (m-out-of-n) bootstrap, tried on bench/audit-coverage.R's samples as candidate bias
# corrections of the audit's own intervals (groups' errors and losses, variance kept). Results
# and the decision: the header of bench/audit-coverage.R ("Bias the bootstrap does not see").
#
# Run (from the package root, the package installed in .lib):
#   R_LIBS=.lib FAIRPROJ_BENCH_DESIGNS=d12k3m2n3000gauss FAIRPROJ_BENCH_NSIM=40 \
#     FAIRPROJ_BENCH_SAMPLES=samples.csv FAIRPROJ_BIAS_OUT=extra.rds nice -n 10 Rscript bench/audit-bias-extrapolation.R
#   Rscript bench/audit-bias-extrapolation.R --analyse samples.csv extra.rds
# The first form runs bench/audit-coverage.R with the package's replicate loop replaced (the
# bench's own instrument) by one that draws, beside each of the audit's replicates (which the
# package's intervals use unchanged), one inner replicate from that replicate's blocks (fast
# double bootstrap) and one replicate of half the blocks (m = n / 2), and saves all three sets.
# The second compares, per cell, the coverage of:
#   pkg  the package's interval as reported (floors and consistency included);
#   P    the package's rule rebuilt from the replicates: quantiles q shifted by the bias b1
#        (replicates' mean minus estimate), by 2 b1 where |b1| > half their sd;
#   D    the same with the bias estimated by the fast double bootstrap, 2 b1 - b2 (b2: the inner
#        replicates' mean minus their outer's), gated as P; Da ungated;
#   H1   the bias from the half-size replicates at a 1 / n rate, bh / 2 (b1 for a smooth statistic);
#   H2   at a 1 / sqrt(n) rate (a kink), bh / sqrt(2), gated; H2a ungated;
# and the bias each sees, over the estimates' true sd, beside the true bias.
#   Rscript bench/audit-bias-extrapolation.R --own-tie
# checks the mechanism found (a near-tie at k in a group's own covariance, made by scaling the
# columns) outside the package: two Gaussian groups of 3,000 rows, d = 12, k = 3, group a's
# spectrum 4 exp(-2 t) on its axes, group b's 4 exp(-3 t) rotated; group a's best rank-k error
# over the pooled trace, unscaled and scaled by the sample's pooled column sds; its true bias
# over 80 samples beside the iid bootstrap's (100 replicates), and group a's own relative gap
# at k in the population.
args <- commandArgs(TRUE)
if (length(args) && args[1L] == "--own-tie") {
  set.seed(2)
  d <- 12; k <- 3; n <- 3000
  eva <- 4 * exp(-2 * seq(0, 1, length.out = d)); evb <- 4 * exp(-3 * seq(0, 1, length.out = d))
  Rb <- qr.Q(qr(diag(d) + 0.6 * matrix(rnorm(d * d), d)))
  La <- diag(sqrt(eva)); Lb <- Rb %*% diag(sqrt(evb))
  cv <- function(X) crossprod(scale(X, scale = FALSE)) / nrow(X)
  for (scaled in c(FALSE, TRUE)) {
    stat <- function(Sa, Sb) {
      w <- if (scaled) 1 / sqrt(diag((Sa + Sb) / 2)) else rep(1, d)
      A <- Sa * tcrossprod(w)
      sum(eigen(A, TRUE, TRUE)$values[(k + 1):d]) / sum(diag((Sa + Sb) / 2 * tcrossprod(w)))
    }
    Ca <- tcrossprod(La); Cb <- tcrossprod(Lb)
    w0 <- if (scaled) 1 / sqrt(diag((Ca + Cb) / 2)) else rep(1, d)
    l <- eigen(Ca * tcrossprod(w0), TRUE, TRUE)$values
    truth <- stat(Ca, Cb)
    res <- replicate(80, {
      Xa <- matrix(rnorm(n * d), n) %*% t(La); Xb <- matrix(rnorm(n * d), n) %*% t(Lb)
      est <- stat(cv(Xa), cv(Xb))
      bb <- replicate(100, stat(cv(Xa[sample.int(n, n, TRUE), ]), cv(Xb[sample.int(n, n, TRUE), ])))
      c(err = est - truth, boot = mean(bb) - est)
    })
    cat(sprintf("scaled %-5s own gap at k %.3f: bias %.5f (se %.5f, sd %.5f), bootstrap's %.5f\n", scaled,
                (l[k] - l[k + 1]) / l[k], mean(res[1, ]), sd(res[1, ]) / sqrt(80), sd(res[1, ]), mean(res[2, ])))
  }
} else if (length(args) && args[1L] == "--analyse") {
  args <- args[-1L]
  s <- read.csv(args[1], stringsAsFactors = FALSE); x <- readRDS(args[2])
  s <- s[s$term %in% c("error", "loss", "var_kept") & !is.na(s$truth), ]
  qf <- function(v, p) { v <- sort(v); n <- length(v); h <- pmin(pmax((n + 1) * p, 1), n); lo <- floor(h); v[lo] + (h - lo) * (v[ceiling(h)] - v[lo]) }
  rows <- list()
  for (i in seq_len(nrow(s))) {
    e <- x[[paste(s$design[i], s$sample[i])]]; if (is.null(e)) next
    a <- match(s$method[i], e$methods)
    pick <- function(G, V) if (s$term[i] == "var_kept") V[, a, 1] else G[, a, 1, match(s$group[i], e$levels), match(s$term[i], c("error", "loss"))]
    r1 <- pick(e$G, e$V); r2 <- pick(e$G2, e$V2); rh <- pick(e$Gh, e$Vh)
    ok <- is.finite(r1) & is.finite(r2) & is.finite(rh); if (sum(ok) < 50) next
    r1 <- r1[ok]; r2 <- r2[ok]; rh <- rh[ok]
    est <- s$estimate[i]; tr <- s$truth[i]; sd1 <- sd(r1)
    b1 <- mean(r1) - est; b2 <- mean(r2 - r1); bh <- mean(rh) - est
    q <- qf(r1, c(0.05, 0.95)) - b1
    cv <- function(beta, gate = TRUE) { iv <- q - (if (!gate || abs(beta) > 0.5 * sd1) beta else 0); if (s$term[i] != "var_kept") iv <- pmax(iv, 0); iv[1] <= tr && tr <= iv[2] }
    bd <- 2 * b1 - b2
    rows[[length(rows) + 1]] <- data.frame(design = s$design[i], method = s$method[i], term = s$term[i], group = s$group[i],
      pkg = s$cover[i], P = cv(b1), D = cv(bd), Da = cv(bd, FALSE), H1 = cv(bh / 2), H2 = cv(bh / sqrt(2)), H2a = cv(bh / sqrt(2), FALSE),
      err = (est - tr), sd = sd1, b1 = b1, bd = bd, bh1 = bh / 2, bh2 = bh / sqrt(2))
  }
  d <- do.call(rbind, rows)
  key <- paste(d$design, d$method, d$term, d$group)
  agg <- do.call(rbind, lapply(split(d, key), function(z) data.frame(design = z$design[1], method = z$method[1], term = z$term[1], group = z$group[1], n = nrow(z),
    pkg = mean(z$pkg), P = mean(z$P), D = mean(z$D), Da = mean(z$Da), H1 = mean(z$H1), H2 = mean(z$H2), H2a = mean(z$H2a),
    true_b = mean(z$err) / sd(z$err), seen = mean(z$b1) / sd(z$err), dbl = mean(z$bd) / sd(z$err), half1 = mean(z$bh1) / sd(z$err), half2 = mean(z$bh2) / sd(z$err))))
  agg[, 5:17] <- lapply(agg[, 5:17], function(v) round(v, 2))
  options(width = 250); print(agg, row.names = FALSE)
  v <- function(c) c(within = sum(c >= 0.85 & c <= 0.95), below = sum(c < 0.85), above = sum(c > 0.95), mean = round(mean(c), 3))
  cat("\nverdicts (own intervals, every sample, flags ignored; within/below/above/mean coverage):\n")
  for (m in c("pkg", "P", "D", "Da", "H1", "H2", "H2a")) cat(sprintf("%-4s %s\n", m, paste(v(agg[[m]]), collapse = " / ")))
  for (ds in unique(agg$design)) { z <- agg[agg$design == ds, ]; cat(ds, ":\n"); for (m in c("P", "D", "Da", "H1", "H2", "H2a")) cat(sprintf("  %-4s %s\n", m, paste(v(z[[m]]), collapse = " / "))) }
} else {
  suppressPackageStartupMessages(library(fairproj))
  ns <- asNamespace("fairproj")
  extra <- new.env(); extra$store <- list()
  my_draw <- function(spec, moments, blocks, ks, base) {
    R <- spec$intervals$replicates; methods <- spec$methods; m <- length(moments$levels); nk <- length(ks)
    mk <- function() array(NA_real_, c(R, length(methods), nk, m, 2L))
    G <- mk(); G2 <- mk(); Gh <- mk()
    V <- array(NA_real_, c(R, length(methods), nk)); V2 <- V; Vh <- V
    Fl <- array(NA_real_, c(R, nk, m)); overlap <- rep(NA_real_, R); Gap <- matrix(NA_real_, R, nk); failed <- logical(R)
    for (r in seq_len(R)) {
      w <- lapply(blocks, function(b) { J <- length(b$n); tabulate(sample.int(J, J, replace = TRUE), J) })
      mr <- ns$fp_audit_resample(moments, blocks, w)
      rr <- ns$fp_audit_replicate(mr, spec, ks)
      failed[r] <- rr$failed; G[r, , , , ] <- rr$groups; V[r, , ] <- rr$var_kept
      fl <- ns$fp_audit_floor(mr, base, ks); Fl[r, , ] <- fl$floor; overlap[r] <- fl$overlap; Gap[r, ] <- fl$gap
      # inner: one replicate drawn from the outer replicate's blocks
      w2 <- lapply(w, function(wi) { J <- length(wi); tabulate(sample(rep(seq_len(J), wi), J, replace = TRUE), J) })
      r2 <- ns$fp_audit_replicate(ns$fp_audit_resample(moments, blocks, w2), spec, ks)
      G2[r, , , , ] <- r2$groups; V2[r, , ] <- r2$var_kept
      # half size: J/2 blocks drawn with replacement
      wh <- lapply(blocks, function(b) { J <- length(b$n); tabulate(sample.int(J, J %/% 2, replace = TRUE), J) })
      rh <- ns$fp_audit_replicate(ns$fp_audit_resample(moments, blocks, wh), spec, ks)
      Gh[r, , , , ] <- rh$groups; Vh[r, , ] <- rh$var_kept
    }
    key <- get("draws", globalenv())$key
    extra$store[[key]] <- list(G = G, G2 = G2, Gh = Gh, V = V, V2 = V2, Vh = Vh, methods = methods, levels = moments$levels)
    list(G = G, Vk = V, Fl = Fl, overlap = overlap, Gap = Gap, gap = base$gap, failed = failed, replicates = R)
  }
  utils::assignInNamespace("fp_audit_draw", my_draw, "fairproj")
  source("bench/audit-coverage.R")
  saveRDS(extra$store, Sys.getenv("FAIRPROJ_BIAS_OUT"))
}
