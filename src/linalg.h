// Shared linear-algebra kernels of fairproj (plain C++ on Eigen types; no Rcpp types here).
//
//  * eig_sym_top / eig_sym_bottom: k extreme eigenpairs of a symmetric matrix, by Lanczos
//    (Spectra, shipped with RSpectra) when k is small relative to d, dense otherwise.
//  * eig_sym_full: all eigenpairs (dense), descending.
//  * fix_signs: deterministic sign convention (largest |loading| of each column positive).
//  * qr_orthonormal / polar_orthonormal: retractions onto the Stiefel manifold.
#ifndef FAIRPROJ_LINALG_H
#define FAIRPROJ_LINALG_H

#include <RcppEigen.h>
#include <Spectra/SymEigsSolver.h>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>
#include "backend.h"

namespace fp {

typedef Eigen::MatrixXd Mat;
typedef Eigen::VectorXd Vec;

struct EigResult {
  Vec values;   // ordered as documented by the function that returns it
  Mat vectors;  // columns are unit eigenvectors
};

// Dense symmetric eigendecomposition, values in decreasing order. (LAPACK and Eigen scale the
// matrix internally, so any finite entries are safe.)
inline EigResult eig_sym_full(const Mat& A) {
  const int d = static_cast<int>(A.rows());
  if (backend_flag() == 1 && d > 0) {
    Vec val(d);
    Mat vec(d, d);
    Mat Ac = A;
    if (lapack_eig_sym(Ac.data(), d, val.data(), vec.data())) {
      EigResult r;
      r.values = val.reverse();
      r.vectors = vec.rowwise().reverse();
      return r;
    }
  }
  Eigen::SelfAdjointEigenSolver<Mat> es(A);
  EigResult r;
  r.values.resize(d);
  r.vectors.resize(d, d);
  for (int j = 0; j < d; ++j) {  // Eigen returns ascending order
    r.values(j) = es.eigenvalues()(d - 1 - j);
    r.vectors.col(j) = es.eigenvectors().col(d - 1 - j);
  }
  return r;
}

// Whether a Lanczos solve is worth it for k of d eigenpairs.
inline bool use_lanczos(int d, int k) { return d >= 120 && 3 * k < d; }

// A power of two near 1 / max |A_ij| (1 for a zero or non-finite matrix): multiplying by it is
// exact, and brings any matrix of finite entries to order one.
inline double pow2_unit_scale(const Mat& A) {
  const double mx = A.size() ? A.cwiseAbs().maxCoeff() : 0.0;
  if (!(mx > 0) || !std::isfinite(mx)) return 1.0;
  int e;
  std::frexp(mx, &e);
  return std::ldexp(1.0, -e);
}

// Spectra operator y = s A x with a general matrix-vector product (faster here than Eigen's
// self-adjoint product) and s the power of two above: Spectra's convergence test is
// resid < tol * max(eps^(2/3), |theta|), absolute below eps^(2/3), so the matrix is brought to
// order one to make the tolerance relative to it whatever the units.
class ScaledSymProd {
  const Mat& A_;
  const double s_;
 public:
  ScaledSymProd(const Mat& A, double s) : A_(A), s_(s) {}
  int rows() const { return static_cast<int>(A_.rows()); }
  int cols() const { return static_cast<int>(A_.cols()); }
  void perform_op(const double* x_in, double* y_out) const {
    Eigen::Map<const Vec> x(x_in, A_.cols());
    Eigen::Map<Vec> y(y_out, A_.rows());
    y.noalias() = A_ * x;
    y *= s_;
  }
};

// k largest eigenpairs (decreasing) by Lanczos on the matrix scaled to order one, from `start`
// when given (length d, not zero). False when the iteration does not converge or Spectra throws
// (a breakdown on degenerate spectra): the caller then uses the dense solver.
inline bool lanczos_top(const Mat& A, int k, int ncv, double tol, const Vec* start, EigResult& out) {
  const int d = static_cast<int>(A.rows());
  if (k < 1 || k >= d || ncv <= k || ncv > d) return false;
  const double s = pow2_unit_scale(A);
  try {
    ScaledSymProd op(A, s);
    Spectra::SymEigsSolver<double, Spectra::LARGEST_ALGE, ScaledSymProd> eigs(&op, k, ncv);
    if (start != nullptr && start->size() == d && start->norm() > 0) {
      eigs.init(start->data());
    } else {
      eigs.init();
    }
    eigs.compute(2000, tol);
    if (eigs.info() != Spectra::SUCCESSFUL) return false;
    out.values = eigs.eigenvalues() / s;  // decreasing for LARGEST_ALGE
    out.vectors = eigs.eigenvectors();
    return out.values.allFinite() && out.vectors.allFinite();
  } catch (const std::exception&) {
    return false;
  }
}

// k largest (algebraic) eigenpairs, decreasing. Lanczos when worthwhile; falls back to dense
// when the iteration does not converge.
inline EigResult eig_sym_top(const Mat& A, int k) {
  const int d = static_cast<int>(A.rows());
  if (k <= 0) {
    EigResult r;
    r.values.resize(0);
    r.vectors.resize(d, 0);
    return r;
  }
  if (use_lanczos(d, k)) {
    EigResult r;
    if (lanczos_top(A, k, std::min(d, std::max(2 * k + 1, k + 20)), 1e-12, nullptr, r)) return r;
  }
  EigResult full = eig_sym_full(A);
  EigResult r;
  r.values = full.values.head(k);
  r.vectors = full.vectors.leftCols(k);
  return r;
}

// k smallest (algebraic) eigenpairs, increasing.
inline EigResult eig_sym_bottom(const Mat& A, int k) {
  Mat negA = -A;
  EigResult r = eig_sym_top(negA, k);
  r.values = -r.values;
  return r;
}

// Sign convention: the entry of largest magnitude in each column is made positive.
inline void fix_signs(Mat& V) {
  for (int j = 0; j < V.cols(); ++j) {
    Eigen::Index imax;
    V.col(j).cwiseAbs().maxCoeff(&imax);
    if (V(imax, j) < 0) V.col(j) *= -1.0;
  }
}

// Thin QR orthonormalisation with a positive diagonal of R (the Q factor is then unique).
inline Mat qr_orthonormal(const Mat& V) {
  const int d = static_cast<int>(V.rows()), k = static_cast<int>(V.cols());
  Eigen::HouseholderQR<Mat> qr(V);
  Mat Q = qr.householderQ() * Mat::Identity(d, k);
  Mat R = qr.matrixQR().topLeftCorner(k, k).triangularView<Eigen::Upper>();
  for (int j = 0; j < k; ++j)
    if (R(j, j) < 0) Q.col(j) *= -1.0;
  return Q;
}

// Polar factor U of V = U H (closest orthonormal matrix in Frobenius norm).
inline Mat polar_orthonormal(const Mat& V) {
  Eigen::JacobiSVD<Mat> svd(V, Eigen::ComputeThinU | Eigen::ComputeThinV);
  return svd.matrixU() * svd.matrixV().transpose();
}

// Sum of the k largest eigenvalues of a symmetric matrix.
inline double top_eig_sum(const Mat& A, int k) {
  if (k <= 0) return 0.0;
  return eig_sym_top(A, k).values.sum();
}

}  // namespace fp

#endif
