// One pass over the rows: per-group counts, means and centred cross-products (scatter).
//
// Accuracy: the scatter of each group is accumulated about that group's mean (computed first in
// a cheap O(n d) sweep, then corrected with the residual sums of the second sweep), so columns
// with a large offset relative to their spread lose no digits. Uncentred cross-products follow exactly as  S_g = M2_g + n_g mu_g mu_g'.
//
// Validation: the first sweep also counts NA/NaN and infinite entries, so R needs no n x d
// logical temporaries to check the data (the caller turns non-zero counts into an error).
//
// Speed: rows are gathered, strip by strip, into one buffer per group (centred; never a copy of
// the data), and each full buffer is added to its group's scatter in one product of B rows,
// where B is sized so that a buffer holds about 256 KB (thousands of rows when d is small: few,
// large products instead of many small BLAS calls): a symmetric rank-B update, R's BLAS dsyrk
// when the backend is "blas", Eigen's kernel otherwise. The first sweep reads the data once for
// the plain means; the second both centres about them and sums the residuals, from which the
// exact centring follows (no third read).
#include "linalg.h"

using Rcpp::IntegerVector;
using Rcpp::List;
using Rcpp::NumericMatrix;

namespace {

void block_update(fp::Mat& S, const fp::Mat& buf, int rows) {
  if (rows <= 0) return;
  if (fp::backend_flag() == 1) {
    fp::blas_syrk_lower(static_cast<int>(S.rows()), rows, buf.data(), static_cast<int>(buf.rows()),
                        S.data());
  } else {
    S.selfadjointView<Eigen::Lower>().rankUpdate(buf.topRows(rows).transpose());
  }
}

}  // namespace

// x: n x d double matrix (not copied); g: 0-based group codes; m: number of groups; block: rows
// per buffer (0 = automatic).
// [[Rcpp::export(.fp_moments_cpp)]]
List fp_moments_cpp(const NumericMatrix& x, const IntegerVector& g, int m, int block) {
  const int n = x.nrow(), d = x.ncol();
  const double* X = x.begin();
  const int* G = g.begin();
  std::vector<double> cnt(m, 0.0);
  fp::Mat mean = fp::Mat::Zero(d, m);
  double n_na = 0, n_inf = 0;
  for (int i = 0; i < n; ++i) cnt[G[i]] += 1.0;
  // pass 1: plain group means (four interleaved accumulators per group break the dependency
  // chain of the scattered additions) and the NA/Inf check
  {
    std::vector<double> acc(4 * static_cast<size_t>(m));
    for (int j = 0; j < d; ++j) {
      const double* col = X + static_cast<size_t>(j) * n;
      std::fill(acc.begin(), acc.end(), 0.0);
      double* a = acc.data();
      bool bad = false;
      int i = 0;
      for (; i + 3 < n; i += 4) {
        const double v0 = col[i], v1 = col[i + 1], v2 = col[i + 2], v3 = col[i + 3];
        bad |= !(std::isfinite(v0) && std::isfinite(v1) && std::isfinite(v2) && std::isfinite(v3));
        a[4 * G[i]] += v0;
        a[4 * G[i + 1] + 1] += v1;
        a[4 * G[i + 2] + 2] += v2;
        a[4 * G[i + 3] + 3] += v3;
      }
      for (; i < n; ++i) {
        bad |= !std::isfinite(col[i]);
        a[4 * G[i]] += col[i];
      }
      if (bad) {
        for (int r = 0; r < n; ++r) {
          if (std::isnan(col[r])) n_na += 1;
          else if (!std::isfinite(col[r])) n_inf += 1;
        }
      }
      for (int c = 0; c < m; ++c) mean(j, c) = (a[4 * c] + a[4 * c + 1]) + (a[4 * c + 2] + a[4 * c + 3]);
    }
  }
  if (n_na > 0 || n_inf > 0) {
    return List::create(Rcpp::Named("n_na") = n_na, Rcpp::Named("n_inf") = n_inf);
  }
  for (int c = 0; c < m; ++c)
    if (cnt[c] > 0) mean.col(c) /= cnt[c];

  // pass 2: scatter about the plain means, plus the sums of the residuals r (so that the exact
  // centring follows: mean += r / n, scatter -= r r' / n; r is tiny, this is the classical
  // corrected two-pass algorithm without a third read of the data)
  int B = block;
  if (B <= 0) B = std::min(8192, std::max(256, 32768 / std::max(d, 1)));
  B = std::max(16, B);
  const int L = std::max(1, std::min(256, B / 4));  // rows per strip; a buffer is flushed when > B - L full
  std::vector<fp::Mat> S(m, fp::Mat::Zero(d, d));
  std::vector<fp::Mat> buf(m);
  std::vector<double*> bp(m);
  std::vector<size_t> ld(m);
  for (int c = 0; c < m; ++c) {
    buf[c].resize(std::min(B, std::max(1, static_cast<int>(cnt[c]))), d);
    bp[c] = buf[c].data();
    ld[c] = static_cast<size_t>(buf[c].rows());
  }
  fp::Mat resid = fp::Mat::Zero(d, m);
  std::vector<int> fill(m, 0);
  std::vector<size_t> slot(L);
  std::vector<int> gs(L);
  auto flush = [&](int c) {
    if (fill[c] <= 0) return;
    resid.col(c) += buf[c].topRows(fill[c]).colwise().sum().transpose();
    block_update(S[c], buf[c], fill[c]);
    fill[c] = 0;
  };
  for (int r0 = 0; r0 < n; r0 += L) {
    const int r1 = std::min(n, r0 + L);
    for (int c = 0; c < m; ++c)
      if (fill[c] > static_cast<int>(ld[c]) - L) flush(c);
    for (int i = r0; i < r1; ++i) {
      gs[i - r0] = G[i];
      slot[i - r0] = static_cast<size_t>(fill[G[i]]++);
    }
    for (int j = 0; j < d; ++j) {
      const double* col = X + static_cast<size_t>(j) * n + r0;
      const double* mj = mean.data() + j;
      for (int i = 0; i < r1 - r0; ++i) {
        const int c = gs[i];
        bp[c][static_cast<size_t>(j) * ld[c] + slot[i]] = col[i] - mj[static_cast<size_t>(c) * d];
      }
    }
    if ((r0 / L) % 256 == 255) Rcpp::checkUserInterrupt();
  }
  List scatter(m);
  fp::Mat mean_lo = fp::Mat::Zero(d, m);
  for (int c = 0; c < m; ++c) {
    flush(c);
    S[c].triangularView<Eigen::StrictlyUpper>() = S[c].transpose();
    if (cnt[c] > 0) {
      const fp::Vec r = resid.col(c);
      S[c].noalias() -= (r * r.transpose()) / cnt[c];
      // the mean as hi + lo (Fast2Sum: |plain mean| >= |r / n|), so that merges of pieces with
      // a large offset see the difference of their means to full precision
      for (int j = 0; j < d; ++j) {
        const double a = mean(j, c), b = r[j] / cnt[c], hi = a + b;
        mean(j, c) = hi;
        mean_lo(j, c) = b - (hi - a);
      }
    }
    scatter[c] = Rcpp::wrap(S[c]);
  }
  return List::create(Rcpp::Named("n") = Rcpp::wrap(cnt), Rcpp::Named("mean") = Rcpp::wrap(mean),
                      Rcpp::Named("mean_lo") = Rcpp::wrap(mean_lo),
                      Rcpp::Named("scatter") = scatter, Rcpp::Named("n_na") = n_na,
                      Rcpp::Named("n_inf") = n_inf);
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

// [[Rcpp::export(.fp_set_backend)]]
int fp_set_backend(int flag) {
  fp::backend_flag() = flag;
  return flag;
}
