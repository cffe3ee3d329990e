# Projector distance between the fit at scale 1 and the fit on the data multiplied by c (or
# shifted by 1e8), for every PCA method: the scale equivariance the package promises (<= 1e-6).
suppressPackageStartupMessages(library(fairproj))
source(file.path("tests", "testthat", "helper-fuzz.R"))
set.seed(3)
n <- 300
x <- matrix(rnorm(n * 8), n, 8) %*% matrix(rnorm(64), 8, 8)
x <- sweep(x, 2L, c(1, 30, 0.2, 5, 2, 1000, 0.01, 7), `*`)   # raw units: scales 0.01 .. 1000
g <- factor(rep(c("a", "b", "c"), length.out = n))
scales <- c(1e-100, 1e-8, 1e-3, 1e3, 1e8, 1e100)
tab <- t(vapply(fairproj_methods("pca"), function(method) {
  ref <- fz_fit(method, x, g, 3L)
  c(vapply(scales, function(cc) fz_projdist(fz_fit(method, x * cc, g, 3L)$rotation, ref$rotation), 0),
    offset_1e8 = fz_projdist(fz_fit(method, x + 1e8, g, 3L)$rotation, ref$rotation))
}, numeric(length(scales) + 1L)))
colnames(tab) <- c(paste0("c=", format(scales)), "offset 1e8")
print(signif(tab, 2))
cat(sprintf("largest projector distance: %.2g\n", max(tab)))
