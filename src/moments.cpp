// One pass over the rows: per-group counts, means and centred cross-products (scatter).
//
// Accuracy: the scatter of each group is accumulated about that group's mean (computed first in
// a cheap O(n d) sweep with a correction pass), so columns with a large offset relative to their
// spread lose no digits. Uncentred cross-products follow exactly as  S_g = M2_g + n_g mu_g mu_g'.
//
// Speed: rows are gathered, block by block, into small per-group buffers (never a copy of the
// data) and each full buffer is added with a symmetric rank-b update: Eigen's kernel or R's BLAS
// dsyrk, whichever the calibration picked.
#include "linalg.h"

using Rcpp::IntegerVector;
using Rcpp::List;
using Rcpp::NumericMatrix;

namespace {

void syrk_update(fp::Mat& S, const fp::Mat& buf, int rows) {
  if (rows <= 0) return;
  if (fp::backend_flag() == 1) {
    fp::blas_syrk_lower(static_cast<int>(S.rows()), rows, buf.data(), static_cast<int>(buf.rows()),
                        S.data());
  } else {
    S.selfadjointView<Eigen::Lower>().rankUpdate(buf.topRows(rows).transpose());
  }
}

}  // namespace

// x: n x d double matrix (not copied); g: 0-based group codes; m: number of groups.
// [[Rcpp::export(.fp_moments_cpp)]]
List fp_moments_cpp(const NumericMatrix& x, const IntegerVector& g, int m, int block) {
  const int n = x.nrow(), d = x.ncol();
  const double* X = x.begin();
  const int* G = g.begin();
  std::vector<double> cnt(m, 0.0);
  fp::Mat mean = fp::Mat::Zero(d, m);
  for (int i = 0; i < n; ++i) cnt[G[i]] += 1.0;
  // two-pass mean: plain mean, then the mean of the residuals as a correction
  for (int j = 0; j < d; ++j) {
    const double* col = X + static_cast<size_t>(j) * n;
    for (int i = 0; i < n; ++i) mean(j, G[i]) += col[i];
  }
  for (int c = 0; c < m; ++c)
    if (cnt[c] > 0) mean.col(c) /= cnt[c];
  {
    fp::Mat corr = fp::Mat::Zero(d, m);
    for (int j = 0; j < d; ++j) {
      const double* col = X + static_cast<size_t>(j) * n;
      for (int i = 0; i < n; ++i) corr(j, G[i]) += col[i] - mean(j, G[i]);
    }
    for (int c = 0; c < m; ++c)
      if (cnt[c] > 0) mean.col(c) += corr.col(c) / cnt[c];
  }

  // scatter about the group means
  const int B = std::max(16, block);
  const int L = std::max(1, B / 4);  // rows read per sweep; buffers are flushed when > B - L full
  std::vector<fp::Mat> S(m, fp::Mat::Zero(d, d));
  std::vector<fp::Mat> buf(m, fp::Mat(B, d));
  std::vector<int> fill(m, 0);
  std::vector<int> slot(L);
  for (int r0 = 0; r0 < n; r0 += L) {
    const int r1 = std::min(n, r0 + L);
    for (int c = 0; c < m; ++c) {
      if (fill[c] > B - L) {
        syrk_update(S[c], buf[c], fill[c]);
        fill[c] = 0;
      }
    }
    for (int i = r0; i < r1; ++i) slot[i - r0] = fill[G[i]]++;
    for (int j = 0; j < d; ++j) {
      const double* col = X + static_cast<size_t>(j) * n;
      for (int i = r0; i < r1; ++i) {
        const int c = G[i];
        buf[c](slot[i - r0], j) = col[i] - mean(j, c);
      }
    }
    if ((r0 / L) % 64 == 63) Rcpp::checkUserInterrupt();
  }
  List scatter(m);
  for (int c = 0; c < m; ++c) {
    syrk_update(S[c], buf[c], fill[c]);
    S[c].triangularView<Eigen::StrictlyUpper>() = S[c].transpose();
    scatter[c] = Rcpp::wrap(S[c]);
  }
  return List::create(Rcpp::Named("n") = Rcpp::wrap(cnt), Rcpp::Named("mean") = Rcpp::wrap(mean),
                      Rcpp::Named("scatter") = scatter);
}

// Symmetric eigen-solvers exposed to R (internal): top k (Lanczos when worthwhile) or all.
// [[Rcpp::export(.fp_eig_top)]]
List fp_eig_top(const Eigen::Map<Eigen::MatrixXd>& A, int k) {
  fp::Mat M = A;
  fp::EigResult r = (k >= M.rows()) ? fp::eig_sym_full(M) : fp::eig_sym_top(M, k);
  return List::create(Rcpp::Named("values") = r.values, Rcpp::Named("vectors") = r.vectors);
}

// Time one Gram kernel (for the calibration): returns the checksum so the work is not elided.
// [[Rcpp::export(.fp_gram_kernel)]]
double fp_gram_kernel(const Eigen::Map<Eigen::MatrixXd>& A, int which) {
  const int d = static_cast<int>(A.cols());
  fp::Mat S = fp::Mat::Zero(d, d);
  if (which == 1) {
    fp::blas_syrk_lower(d, static_cast<int>(A.rows()), A.data(), static_cast<int>(A.rows()), S.data());
  } else {
    S.selfadjointView<Eigen::Lower>().rankUpdate(A.transpose());
  }
  return S.diagonal().sum();
}
