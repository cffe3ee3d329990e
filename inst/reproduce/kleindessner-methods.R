# The methods of Kleindessner et al.'s Adult table with their settings, shared by
# efficient-fair-pca.R (full protocol) and kleindessner-runtime.R (one-run timings).
kleindessner_fitters <- function(k) list(
  "PCA" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "standard"),
  "FPCA (0.1, 0.01)" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "cfpca", delta = 0.1,
                                               mu = 0.01, scaling = "fairml", tol = 1e-4),
  "FPCA (0, 0.01)" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "cfpca", delta = 0,
                                             mu = 0.01, scaling = "fairml", tol = 1e-4),
  "MbF-PCA (1e-3)" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "mbfpca", tau = 1e-3),
  "MbF-PCA (1e-6)" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "mbfpca", tau = 1e-6),
  "INLP" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "inlp", classifier = "svm",
                                   intercept = FALSE),
  "RLACE" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "rlace", n_iter = 10000L, tol = NULL, seed = 1),
  "Fair PCA" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "mean"),
  "Fair Kernel PCA" = function(x, z) fair_kpca(x, z, k, kernel = "rbf", gamma = "scale", center = FALSE),
  "Fair PCA-S (0.5)" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "mean", equalize_cov = 0.5),
  "Fair PCA-S (0.85)" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "mean", equalize_cov = 0.85))
