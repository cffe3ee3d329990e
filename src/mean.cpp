// Mean-matching fair PCA (Kleindessner et al. 2023): the top-k eigensolve of the kernel
// version. The n x n (downdated) kernel matrices have slowly separating spectra, on which a
// Lanczos subspace of the default size (about 2k) restarts many times; a wider subspace
// converges in one or two restarts (e.g. 0.06 s instead of 0.95 s at n = 1582, k = 10).
#include "linalg.h"
#include <Spectra/SymEigsSolver.h>

namespace {
// y = A x with a general (vectorised) matrix-vector product: on these matrices Eigen's
// self-adjoint product through Spectra's DenseSymMatProd was about 15x slower here.
class GemvOp {
  const Eigen::Map<Eigen::MatrixXd>& A_;
 public:
  explicit GemvOp(const Eigen::Map<Eigen::MatrixXd>& A) : A_(A) {}
  int rows() const { return static_cast<int>(A_.rows()); }
  int cols() const { return static_cast<int>(A_.cols()); }
  void perform_op(const double* x_in, double* y_out) const {
    Eigen::Map<const Eigen::VectorXd> x(x_in, A_.cols());
    Eigen::Map<Eigen::VectorXd> y(y_out, A_.rows());
    y.noalias() = A_ * x;
  }
};
}  // namespace

// [[Rcpp::export(.fp_eig_top_wide)]]
Rcpp::List fp_eig_top_wide(const Eigen::Map<Eigen::MatrixXd>& A, int k, int ncv) {
  const int n = static_cast<int>(A.rows());
  fp::EigResult r;
  bool done = false;
  if (k < n && 3 * k < n && n >= 120) {
    const int m = std::min(n, std::max(ncv, 2 * k + 1));
    GemvOp op(A);
    try {
      Spectra::SymEigsSolver<double, Spectra::LARGEST_ALGE, GemvOp> eigs(&op, k, m);
      eigs.init();
      eigs.compute(1000, 1e-12);
      if (eigs.info() == Spectra::SUCCESSFUL) {
        r.values = eigs.eigenvalues();
        r.vectors = eigs.eigenvectors();
        done = true;
      }
    } catch (const std::exception&) {
      done = false;  // a Lanczos breakdown: the dense solver below
    }
  }
  if (!done) {
    fp::Mat M = A;
    fp::EigResult full = fp::eig_sym_full(M);
    r.values = full.values.head(k);
    r.vectors = full.vectors.leftCols(k);
  }
  return Rcpp::List::create(Rcpp::Named("values") = r.values, Rcpp::Named("vectors") = r.vectors);
}
