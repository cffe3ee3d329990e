# Standard PCA as a method of fair_pca(), the reference every fair method is compared with.

# Standard PCA: the top-k eigenvectors of the (centred, scaled) covariance matrix.
fit_pca_standard <- function(prep, k, data = NULL) {
  list(rotation = fp_prep_eig(prep, k)$vectors)
}
