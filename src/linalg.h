// Shared linear-algebra kernels of fairproj (plain C++ on Eigen types; needs neither R nor Rcpp:
// Eigen comes from RcppEigen through LinkingTo).
//
//  * eig_sym_top / eig_sym_bottom: k extreme eigenpairs of a symmetric matrix, by Lanczos
//    (Spectra, shipped with RSpectra) when k is small relative to d, dense otherwise.
//  * eig_sym_full: all eigenpairs (dense), descending.
//  * fix_signs: deterministic sign convention (largest |loading| of each column positive).
//  * qr_orthonormal / polar_orthonormal: retractions onto the Stiefel manifold.
//
// The heavy kernels are defined once, in linalg.cpp: this header is included by every solver
// file, and keeping Spectra and Eigen's decompositions out of it keeps those files quick to
// compile. A file that runs Spectra itself includes <Spectra/SymEigsSolver.h>.
#ifndef FAIRPROJ_LINALG_H
#define FAIRPROJ_LINALG_H

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>
#include "backend.h"

// The dense decompositions that several files use are instantiated once, in linalg.cpp: these
// explicit instantiation declarations stop every file that includes this header from compiling
// its own copy (standard C++11; inline members are still expanded where they are called).
extern template class Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>;
extern template Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>&
Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>::compute<Eigen::MatrixXd>(
    const Eigen::EigenBase<Eigen::MatrixXd>&, int);
extern template class Eigen::JacobiSVD<Eigen::MatrixXd>;
extern template class Eigen::HouseholderQR<Eigen::MatrixXd>;
extern template class Eigen::FullPivLU<Eigen::MatrixXd>;

namespace fp {

typedef Eigen::MatrixXd Mat;
typedef Eigen::Map<const Mat> MatMap;  // a read-only view of a matrix stored elsewhere (R's)
typedef Eigen::VectorXd Vec;

struct EigResult {
  Vec values;   // ordered as documented by the function that returns it
  Mat vectors;  // columns are unit eigenvectors
};

// Dense symmetric eigendecomposition, values in decreasing order. (LAPACK and Eigen scale the
// matrix internally, so any finite entries are safe.) A is a Mat or a view of one (an
// Eigen::Map of R's memory or of a work matrix), read without a copy of its own.
EigResult eig_sym_full(const Eigen::Ref<const Mat>& A);

// The mean over the R draws W_r (w x w, symmetric, stored one after another from W) of the
// decreasing eigenvalues of W_r .* (s s'): fp_own_tie_bias()'s simulated spectrum, the numbers R
// gives for rowMeans(vapply(r, function(r) fp_sym_values(W[, , r] * tcrossprod(s)), ...)) bit
// for bit (the graded-diagonal order of eig_sym_full(), LAPACK's dsyevr as eigen() calls it,
// rowMeans()'s long-double sum), without R's per-matrix overhead. solver_error on a LAPACK
// failure.
Vec mean_sorted_values(const double* W, const Eigen::Ref<const Vec>& s, int R);

// Whether a Lanczos solve is worth it for k of d eigenpairs.
inline bool use_lanczos(int d, int k) { return d >= 120 && 3 * k < d; }

// A power of two near 1 / max |A_ij| (1 for a zero or non-finite matrix): multiplying by it is
// exact, and brings any matrix of finite entries to order one.
inline double pow2_unit_scale(const Eigen::Ref<const Mat>& A) {
  const double mx = A.size() ? A.cwiseAbs().maxCoeff() : 0.0;
  if (!(mx > 0) || !std::isfinite(mx)) return 1.0;
  int e;
  std::frexp(mx, &e);
  return std::ldexp(1.0, -e);
}

// k largest eigenpairs (decreasing) by Lanczos (Spectra) with ncv Lanczos vectors, on the
// matrix scaled to order one (pow2_unit_scale) so that the tolerance tol is relative whatever
// the units, from `start` when given (length d, not zero). False, `out` not to be used, when the
// iteration does not converge or Spectra throws (a breakdown on degenerate spectra): the caller
// then uses the dense solver.
// A is any column-major double matrix (a Mat, or an Eigen::Map of R memory, without a copy).
bool lanczos_top(const Eigen::Ref<const Mat>& A, int k, int ncv, double tol, const Vec* start, EigResult& out);

// k largest (algebraic) eigenpairs, decreasing. Lanczos when worthwhile; falls back to dense
// when the iteration does not converge. A is a Mat or a view of one (an Eigen::Map of R's
// memory: only the dense solver copies it).
EigResult eig_sym_top(const Eigen::Ref<const Mat>& A, int k);

// k smallest (algebraic) eigenpairs, increasing.
EigResult eig_sym_bottom(const Mat& A, int k);

// Sign convention: the entry of largest magnitude in each column is made positive.
inline void fix_signs(Mat& V) {
  for (int j = 0; j < V.cols(); ++j) {
    Eigen::Index imax;
    V.col(j).cwiseAbs().maxCoeff(&imax);
    if (V(imax, j) < 0) V.col(j) *= -1.0;
  }
}

// Thin Q factor (the size of W) of the Householder QR of W, signs as the reflections give them.
Mat householder_q(const Mat& W);

// Thin QR orthonormalisation with a positive diagonal of R (the Q factor is then unique).
Mat qr_orthonormal(const Mat& V);

// Polar factor U of V = U H (closest orthonormal matrix in Frobenius norm).
Mat polar_orthonormal(const Mat& V);

// One entry of a prepared problem's group covariance and second moment (fp_prepare_normalised()
// in R/prepare.R) from the stored scatter S_ij of a group of n_g rows, the column weights w and
// the group's weighted mean mu: the floating-point operations of R's
// (S * tcrossprod(w)) / n_g and cov + tcrossprod(mu), in that order (R's products of one term
// are 0 + a b, which turns a -0 into +0).
inline double prep_cov_entry(double S, double wi, double wj, double ng) { return (S * (0.0 + wi * wj)) / ng; }
inline double prep_second_entry(double cov, double mui, double muj) { return cov + (0.0 + mui * muj); }
// A group's term n_g second_g of the pooled matrix C before its divisions (fp_prepare_moments()).
inline double prep_pooled_term(double S, double wi, double wj, double ng, double mui, double muj) {
  return prep_second_entry(prep_cov_entry(S, wi, wj, ng), mui, muj) * ng;
}

// One group's covariance (mu null) or second moment of a prepared problem, divided by s, written
// into `out` (d x d, column-major) from its scatter S: the entries above, the values that
// fp_prepare_moments() stores (R/prepare.R's work matrix and the min-max solver's lazy group
// matrices are filled by it).
inline void prep_group_fill(double* out, const double* S, const double* w, double ng, const double* mu, double s,
                            Eigen::Index d) {
  for (Eigen::Index j = 0; j < d; ++j) {
    for (Eigen::Index i = 0; i < d; ++i) {
      const double cv = prep_cov_entry(S[i + j * d], w[i], w[j], ng);
      out[i + j * d] = (mu ? prep_second_entry(cv, mu[i], mu[j]) : cv) / s;
    }
  }
}

// Sum of the k largest eigenvalues of a symmetric matrix.
double top_eig_sum(const Mat& A, int k);

}  // namespace fp

#endif
