# Scale equivariance of every PCA method at the edges of the double range.
# Run: Rscript bench/equivariance.R   (uses the installed fairproj; set R_LIBS to pick a library)
#
# Data: d = 150 and 300 columns, n < d and n > d rows (rank-8 signal plus noise, two groups).
# For each method, the projector distance (Frobenius norm of the difference of projectors)
# between the fit of the data and the fit of
#  * the data times 1e-300 and 1e300, and with columns spread over 1e-298..1e298, all with
#    scale. = TRUE (unit-free: any finite data);
#  * the data times 1e-150 and 1e150 without scaling (their variances, 1e+-300, are the
#    largest and smallest that double precision holds; the Pareto method with psi = "absolute",
#    its squared disparities would be 1e+-600);
# and the largest relative difference of the group losses (loss / scale^2 against the fit at
# scale 1, relative to the largest best error). Beyond 1e+-150 without scaling the variances
# cannot be represented: a classed error ("error" in the table, as it should be).
# Fits that stop before converging (the quick settings below) depend on rounding along their
# path; RLACE removes a subspace that is not unique: both are marked and not compared.
# Measured (#25): every distance and relative loss difference at most 2e-14 for the methods that
# converge, except INLP at d = 300, n = 450 (2e-10: its iterations amplify rounding) and
# MbF-PCA with scale. = TRUE (up to 2e-5: its penalty iteration stops at a tolerance); spread
# standardised columns give exactly the same fit (their scales are powers of two); unscaled
# data at 1e+-300 are a classed error for every method.
suppressPackageStartupMessages(library(fairproj))
source(file.path("tests", "testthat", "helper-fuzz.R"))
options(width = 160)
cases <- list(c(d = 150, n = 90), c(d = 150, n = 400), c(d = 300, n = 120), c(d = 300, n = 450))
rows <- NULL
for (cs in cases) {
  d <- cs[["d"]]
  n <- cs[["n"]]
  set.seed(d + n)
  x <- matrix(rnorm(n * 8), n) %*% matrix(rnorm(8 * d), 8) + matrix(rnorm(n * d, sd = 0.3), n)
  g <- factor(rep(c("a", "b"), length.out = n))
  spread <- 2^round(seq(-990, 990, length.out = d))
  for (method in fairproj_methods("pca")) {
    fit <- function(xx, ...) {
      a <- list(...)
      if (method == "rlace") a$n_iter <- 20L
      if (method == "mbfpca") a$maxit_outer <- 100L  # its default: converges here
      tryCatch(do.call(fz_fit, c(list(method, xx, g, 2L), a)), fairproj_error = function(e) NULL)
    }
    dist <- function(f, r, cc = 1) {
      if (is.null(f)) return(c(NA, NA))
      if (method == "rlace" || identical(r$converged, FALSE)) return(c(NaN, NaN))
      c(fz_projdist(f$rotation, r$rotation),
        max(abs(f$group_stats$loss / cc^2 - r$group_stats$loss)) / max(r$group_stats$best))
    }
    ref <- fit(x, scale. = TRUE)
    ref0 <- fit(x)
    ex <- if (method == "pareto") list(psi = "absolute") else list()
    r0 <- if (method == "pareto") do.call(fit, c(list(x), ex)) else ref0
    v <- c(dist(fit(x * 1e-300, scale. = TRUE), ref)[1], dist(fit(x * 1e300, scale. = TRUE), ref)[1],
           dist(fit(sweep(x, 2L, spread, `*`), scale. = TRUE), ref)[1],
           dist(do.call(fit, c(list(x * 1e-150), ex)), r0, 1e-150), dist(do.call(fit, c(list(x * 1e150), ex)), r0, 1e150))
    err300 <- is.null(fit(x * 1e300)) && is.null(fit(x * 1e-300))
    rows <- rbind(rows, data.frame(d = d, n = n, method = method, `std_1e-300` = v[1], std_1e300 = v[2],
                                   std_spread = v[3], `raw_1e-150` = v[4], `loss_1e-150` = v[5],
                                   raw_1e150 = v[6], loss_1e150 = v[7],
                                   raw_1e300 = if (err300) "error" else "fit", check.names = FALSE))
  }
}
print(rows, digits = 2, row.names = FALSE)
num <- unlist(rows[, 4:10])
cat(sprintf("largest projector distance or relative loss difference: %.2g (NaN: not compared)\n",
            max(num, na.rm = TRUE)))
