# Time of each baseline relative to the closed-form reference on the same data (the stored
# one-run comparison of every method of Kleindessner et al.'s table is
# inst/reproduce/kleindessner-runtime.R):
# mean-matching fair PCA (method "mean", Kleindessner et al.) when this version has it, else
# standard PCA. Printed as ratios (baseline time / reference time), as in Kleindessner et al.'s
# runtime figure. Usage: Rscript bench/baselines.R   (uses FAIRPROJ_DATA for Adult split 0 and
# LFW when available; synthetic data otherwise).
library(fairproj)
ref_method <- if ("mean" %in% fairproj_methods()) "mean" else "standard"
timeit <- function(expr, reps = 3L) {
  e <- substitute(expr); pf <- parent.frame()
  min(replicate(reps, system.time(eval(e, pf))[["elapsed"]]))
}
bench_one <- function(label, x, g, k, methods) {
  t_ref <- timeit(fair_pca(x, g, k = k, method = ref_method), reps = 5L)
  rows <- lapply(names(methods), function(m) {
    a <- methods[[m]]
    reps <- if (is.null(a$reps)) 1L else a$reps
    a$reps <- NULL
    t <- timeit(suppressWarnings(do.call(fair_pca, c(list(x, g, k = k), a))), reps = reps)
    data.frame(data = label, method = m, seconds = t, ratio = t / t_ref)
  })
  cat(sprintf("%s (n = %d, d = %d, k = %d); reference '%s': %.4f s\n", label, nrow(x), ncol(x), k,
              ref_method, t_ref))
  do.call(rbind, rows)
}

base_methods <- list(
  "cfpca mean (delta = 0.1)" = list(method = "cfpca", delta = 0.1, reps = 3L),
  "cfpca both (0, 0.01, fairml)" = list(method = "cfpca", delta = 0, mu = 0.01, scaling = "fairml", gap_tol = 1e-4),
  "mbfpca (tau = 1e-3)" = list(method = "mbfpca", tau = 1e-3),
  "inlp (svm)" = list(method = "inlp", classifier = "svm", intercept = FALSE),
  "rlace (2000 steps)" = list(method = "rlace", n_iter = 2000L, seed = 1L))

data_dir <- Sys.getenv("FAIRPROJ_DATA")
adult <- file.path(data_dir, "lee", "Adult", "train_0.csv.xz")
out <- list()
set.seed(1)
if (nzchar(data_dir) && file.exists(adult)) {
  m <- as.matrix(read.csv(xzfile(adult), header = FALSE))
  p <- ncol(m) - 2
  out$adult <- bench_one("Adult (Lee split 0)", m[, 1:p], factor(m[, p + 2]), 10L, base_methods)
}
# synthetic data in Lee et al.'s runtime setting (k = 5, d = 20, 60, 100)
for (d in c(20L, 60L, 100L)) {
  n <- 1000L
  g <- factor(rep(0:1, c(600L, 400L)))
  x <- matrix(rnorm(n * d), n, d) %*% matrix(rnorm(d * d), d) / sqrt(d)
  x[g == 1, 1:3] <- x[g == 1, 1:3] + 1
  out[[paste0("syn", d)]] <- bench_one(sprintf("synthetic d = %d", d), x, g, 5L, base_methods)
}
# LFW at d = 576 (24 x 24), 2000 + 2000 faces: cfpca (mean constraint) only
lfw <- file.path(data_dir, "lfw", "lfw_1764.csv.xz")
if (nzchar(data_dir) && file.exists(lfw)) {
  con <- xzfile(lfw)
  X <- matrix(scan(con, what = integer(), sep = ",", quiet = TRUE), ncol = 1764, byrow = TRUE) / 3
  close(con)
  sex <- scan(file.path(data_dir, "lfw", "sex.txt"), quiet = TRUE)
  # 49 x 36 images resampled to 24 x 24 by bilinear interpolation
  resize <- function(v) {
    im <- matrix(v, 49, 36, byrow = TRUE)
    r <- seq(1, 49, length.out = 24); c <- seq(1, 36, length.out = 24)
    r0 <- floor(r); c0 <- floor(c); r1 <- pmin(r0 + 1, 49); c1 <- pmin(c0 + 1, 36)
    fr <- r - r0; fc <- c - c0
    out <- (1 - fr) %o% (1 - fc) * im[r0, c0] + fr %o% (1 - fc) * im[r1, c0] +
      (1 - fr) %o% fc * im[r0, c1] + fr %o% fc * im[r1, c1]
    as.vector(t(out))
  }
  idx <- c(sample(which(sex == 0), 2000), sample(which(sex == 1), 2000))
  X576 <- t(apply(X[idx, ], 1, resize))
  g <- factor(sex[idx])
  out$lfw <- bench_one("LFW 24 x 24 (d = 576)", X576, g, 3L,
                       list("cfpca mean (delta = 0.1)" = list(method = "cfpca", delta = 0.1),
                            "cfpca mean (delta = 0)" = list(method = "cfpca", delta = 0),
                            "cfpca both (0, 0.01, fairml), 200 iterations" =
                              list(method = "cfpca", delta = 0, mu = 0.01, scaling = "fairml", maxit = 200L)))
}
res <- do.call(rbind, out)
rownames(res) <- NULL
res$seconds <- signif(res$seconds, 3)
res$ratio <- signif(res$ratio, 3)
cat(sprintf("\nTime of each baseline / time of '%s' (same data, same k):\n", ref_method))
print(res)
