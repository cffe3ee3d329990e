// Mean-matching fair PCA (Kleindessner et al. 2023): the top-k eigensolve of the kernel
// version. The n x n (downdated) kernel matrices have slowly separating spectra, on which a
// Lanczos subspace of the default size (about 2k) restarts many times; a wider subspace
// converges in one or two restarts (e.g. 0.06 s instead of 0.95 s at n = 1582, k = 10).
#include "linalg.h"

// [[Rcpp::export(.fp_eig_top_wide)]]
Rcpp::List fp_eig_top_wide(const Eigen::Map<Eigen::MatrixXd>& A, int k, int ncv) {
  const int n = static_cast<int>(A.rows());
  fp::EigResult r;
  bool done = false;
  if (k < n && 3 * k < n && n >= 120) {
    // the shared Lanczos kernel (linalg.cpp) on R's memory, with the wider subspace
    const int m = std::min(n, std::max(ncv, 2 * k + 1));
    done = fp::lanczos_top(A, k, m, 1e-12, nullptr, r);
  }
  if (!done) {  // small, or a Lanczos breakdown: the dense solver
    fp::Mat M = A;
    fp::EigResult full = fp::eig_sym_full(M);
    r.values = full.values.head(k);
    r.vectors = full.vectors.leftCols(k);
  }
  return Rcpp::List::create(Rcpp::Named("values") = r.values, Rcpp::Named("vectors") = r.vectors);
}
