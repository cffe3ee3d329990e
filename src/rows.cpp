// The row route of fair PCA for wide data (issue #48): the top k of the prepared covariance and
// of each group's covariance, found from the rows without forming a d x d matrix.
//
// The prepared rows z_i = (x_i - c) .* w (c the centre and w the per-column weights of the
// normalised problem, both from R's fp_prepare_rows()). Two solvers:
//  * Lanczos (Spectra, as linalg.cpp's lanczos_top) on v -> Z_S' H Z_S v / n_S, S all rows (H
//    nothing, divisor n - 1) or one group's rows (H centring at the group's mean, divisor n_g),
//    optionally projected onto the complement of span(Q) (mean matching's constraint), whose
//    directions are then shifted below every eigenvalue of interest. Its products read one
//    copy of the prepared rows made once per fit (fp_rows_copy()): each row centred at its
//    group's mean, the rows sorted by group and stored by rows, so that a group's products read
//    its n_g rows only (the m group solves together cost about one solve on all rows), all
//    rows' add back the group means (Z'Z = sum_g Z_g'Z_g + n_g mu_g mu_g'), and a product
//    reads the copy faster than R's column-major rows (about 1.4x at n = 2000, d = 10,000).
//    Without the copy a product reads the data as R holds it: Z v = X (w .* v) - 1 (c . (w .*
//    v)). Values alone (a group's best error) stop at a residual of kValuesTol, not
//    fp::tol::lanczos: a Ritz value's error is of the order of its residual squared over the
//    gap to the rest of the spectrum, far below the digits the losses carry;
//  * the n_S x n_S Gram matrix Z_S Z_S' (built by column blocks) when S has fewer rows than
//    columns: its eigenvectors U give V = Z_S' U / sqrt(lambda).
// Min-max fair PCA's oracle takes the same two on the weighted sum sum_g w_g C_g of the group
// covariances (group kWeighted: every row centred at its group's mean and weighted by
// w_g / n_g, one pass over the rows per product).
// Row weights r_i (a bootstrap replicate of fair_audit(): the count of the row's block in the
// resample) make every covariance sum_i r_i z_i z_i' over the weighted count: the products
// scale Z v by r before Z' reads it, the centring stays the rank-one correction it is without
// weights (the weighted means come from R), the Gram path's rows are scaled by sqrt(r_i) and
// rows of weight 0 are left out. Weighted products read the data as R holds it (the copy is
// centred at the unweighted group means).
#include "linalg.h"
#include "rcpp_entry.h"
#include "tolerances.h"
#include <Spectra/SymEigsSolver.h>

namespace fp {
namespace rows {

// The "group" of the weighted sum of the group covariances.
const int kWeighted = -2;

// The copy of the prepared rows, stored by rows (R's d x n matrix read as n x d).
typedef Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> RowMat;
typedef Eigen::Map<const RowMat> RowMap;

// The rows and the map to the prepared coordinates; views of R's memory (no copies).
struct Rows {
  MatMap X;                   // n x d, the data in its own units
  const int* g;               // 0-based group of each row
  Eigen::Map<const Vec> w;    // per-column weights (data units -> normalised units)
  Eigen::Map<const Vec> c;    // the centre (data units)
  MatMap mean;                // d x m group means in normalised units
  Eigen::Map<const Vec> n;    // group sizes
  Vec gw;                     // per group w_g / n_g of the weighted sum (group kWeighted)
  const double* z = nullptr;  // the copy (fp_rows_copy()), or null
  const double* rw = nullptr; // row weights (a bootstrap replicate), or null for 1
  std::vector<int> start;     // first row of each group in the copy (m + 1 entries)
  Rows(const double* x, int nr, int d, const int* g_, const double* w_, const double* c_, const double* mean_,
       int m, const double* n_)
      : X(x, nr, d), g(g_), w(w_, d), c(c_, d), mean(mean_, d, m), n(n_, m) {}
  int rows() const { return static_cast<int>(X.rows()); }
  int cols() const { return static_cast<int>(X.cols()); }
  double weight(int i) const { return rw == nullptr ? 1.0 : rw[i]; }
  // rows a .. b - 1 of the copy
  RowMap copy_rows(int a, int b) const { return RowMap(z + static_cast<size_t>(a) * cols(), b - a, cols()); }
  // y = sum over S of z_i z_i' v from the copy: group grp's rows, all rows (grp -1), or every
  // group weighted by gw (kWeighted)
  void copy_product(const Vec& v, int grp, Vec& u, Vec& y) const {
    const int m = static_cast<int>(n.size());
    if (grp == -1) {
      const RowMap Z = copy_rows(0, start[m]);
      u.noalias() = Z * v;
      y.noalias() = Z.transpose() * u;
      y.noalias() += mean * n.cwiseProduct(mean.transpose() * v);
      return;
    }
    y.setZero(cols());
    for (int h = 0; h < m; ++h) {
      if ((grp >= 0 && h != grp) || (grp == kWeighted && gw(h) == 0) || start[h + 1] == start[h]) continue;
      const RowMap Z = copy_rows(start[h], start[h + 1]);
      u.noalias() = Z * v;
      if (grp == kWeighted) u *= gw(h);
      y.noalias() += Z.transpose() * u;
    }
  }
  // u = Z v - 1 off where off = (group mean).v for group `grp` (the rows of other groups set to
  // 0), or Z v for all rows (grp < 0)
  void apply(const Vec& v, int grp, Vec& u) const {
    const Vec wv = w.cwiseProduct(v);
    u.noalias() = X * wv;
    const double off = c.dot(wv);
    if (grp < 0) {
      u.array() -= off;
      if (rw != nullptr) u = u.cwiseProduct(Eigen::Map<const Vec>(rw, rows()));
      return;
    }
    const double mg = off + mean.col(grp).dot(v);
    for (int i = 0; i < rows(); ++i) u(i) = (g[i] == grp) ? (u(i) - mg) * weight(i) : 0.0;
  }
  // u = sum_g (w_g / n_g) H_g Z_g v stacked by rows (each row centred at its group's mean)
  void apply_weighted(const Vec& v, Vec& u) const {
    const Vec wv = w.cwiseProduct(v);
    u.noalias() = X * wv;
    const Vec mv = mean.transpose() * v;
    const double off = c.dot(wv);
    for (int i = 0; i < rows(); ++i) u(i) = (u(i) - off - mv(g[i])) * gw(g[i]) * weight(i);
  }
  // y = Z' u (u already zero outside the group, and summing to zero within it when centred)
  void apply_t(const Vec& u, Vec& y) const {
    y.noalias() = X.transpose() * u;
    y -= c * u.sum();
    y = y.cwiseProduct(w);
  }
  double divisor(int grp) const {
    if (grp == kWeighted) return 1.0;
    if (grp >= 0) return std::max(n(grp), 1.0);
    return std::max(n.sum() - 1.0, 1.0);
  }
};

// The covariance of the rows of S as a Spectra operator, times s (a power of two that brings it
// to order one, so that Spectra's tolerance is relative, as in lanczos_top), optionally on the
// complement of span(Q) with Q's directions at -shift.
class CovOp {
  const Rows& R_;
  const int grp_;
  const Mat& Q_;
  const double shift_, s_;
  mutable Vec u_, y_;

 public:
  CovOp(const Rows& R, int grp, const Mat& Q, double shift, double s) : R_(R), grp_(grp), Q_(Q), shift_(shift), s_(s) {}
  int rows() const { return R_.cols(); }
  int cols() const { return R_.cols(); }
  void perform_op(const double* x_in, double* y_out) const {
    Eigen::Map<const Vec> x(x_in, R_.cols());
    Eigen::Map<Vec> y(y_out, R_.cols());
    Vec v = x;
    Vec qx;
    if (Q_.cols() > 0) {
      qx = Q_.transpose() * v;
      v.noalias() -= Q_ * qx;
    }
    if (R_.z != nullptr) {
      R_.copy_product(v, grp_, u_, y_);
    } else {
      if (grp_ == kWeighted) {
        R_.apply_weighted(v, u_);
      } else {
        R_.apply(v, grp_, u_);
      }
      R_.apply_t(u_, y_);
    }
    y_ /= R_.divisor(grp_);
    if (Q_.cols() > 0) {
      y_.noalias() -= Q_ * (Q_.transpose() * y_);
      y_.noalias() -= Q_ * (shift_ * qx);
    }
    y = s_ * y_;
  }
};

// The prepared rows of S, columns j0 .. j0 + b - 1, centred at the group's mean (grp >= 0), or
// each at its own group's mean and times sqrt(w_g / n_g) (grp kWeighted); with row weights,
// each row times sqrt(r_i).
inline Mat block(const Rows& R, const std::vector<int>& idx, int grp, int j0, int b) {
  Mat B(idx.size(), b);
  for (int jj = 0; jj < b; ++jj) {
    const int j = j0 + jj;
    const double cj = R.c(j), wj = R.w(j), mj = grp >= 0 ? R.mean(j, grp) : 0.0;
    if (grp == kWeighted) {
      for (size_t i = 0; i < idx.size(); ++i) {
        const int h = R.g[idx[i]];
        B(i, jj) = ((R.X(idx[i], j) - cj) * wj - R.mean(j, h)) * std::sqrt(R.gw(h) * R.weight(idx[i]));
      }
    } else {
      for (size_t i = 0; i < idx.size(); ++i) B(i, jj) = (R.X(idx[i], j) - cj) * wj - mj;
    }
  }
  if (R.rw != nullptr && grp != kWeighted) {
    for (size_t i = 0; i < idx.size(); ++i) B.row(i) *= std::sqrt(R.rw[idx[i]]);
  }
  return B;
}

// The rows of S: all (grp < 0) or group grp's, those of weight 0 left out.
inline std::vector<int> rows_of(const Rows& R, int grp) {
  std::vector<int> idx;
  for (int i = 0; i < R.rows(); ++i)
    if ((grp < 0 || R.g[i] == grp) && R.weight(i) > 0) idx.push_back(i);
  return idx;
}

// Residual tolerance of a solve for values alone (see the top of this file).
const double kValuesTol = 1e-7;

// Top k by Lanczos; false when it does not converge (the caller then takes the Gram route).
inline bool lanczos(const Rows& R, int grp, const Mat& Q, double shift, double trace, int k, EigResult& out,
                    const Vec& init = Vec(), bool vectors = true) {
  const int d = R.cols();
  const int ncv = std::min(d, std::max(2 * k + 1, k + 20));
  if (k < 1 || k >= d || ncv <= k) return false;
  int e;
  std::frexp(trace > 0 && std::isfinite(trace) ? trace : 1.0, &e);
  const double s = std::ldexp(1.0, -e);
  try {
    CovOp op(R, grp, Q, shift, s);
    Spectra::SymEigsSolver<double, Spectra::LARGEST_ALGE, CovOp> eigs(&op, k, ncv);
    if (init.size() == d && init.norm() > 0) {
      eigs.init(init.data());  // warm start (the oracle's previous eigenvectors)
    } else {
      eigs.init();
    }
    eigs.compute(2000, vectors ? fp::tol::lanczos : kValuesTol);
    if (eigs.info() != Spectra::SUCCESSFUL) return false;
    out.values = eigs.eigenvalues() / s;
    out.vectors = eigs.eigenvectors();
    return out.values.allFinite() && out.vectors.allFinite();
  } catch (const std::exception&) {
    return false;
  }
}

const int kBlock = 256;

// Top k by the d x d cross-product of the rows of S (d small, or k close to d: the rotation
// itself is then about d x d).
inline EigResult cross(const Rows& R, const std::vector<int>& idx, int grp, const Mat& Q, int k) {
  const int d = R.cols();
  const Mat B = block(R, idx, grp, 0, d);
  Mat G = Mat::Zero(d, d);
  G.selfadjointView<Eigen::Lower>().rankUpdate(B.transpose());
  G = G.selfadjointView<Eigen::Lower>();
  if (Q.cols() > 0) {
    const Mat P = Mat::Identity(d, d) - Q * Q.transpose();
    G = P * G * P - G.trace() * Q * Q.transpose();
  }
  const EigResult full = eig_sym_full(G);
  EigResult out;
  out.values = full.values.head(k) / R.divisor(grp);
  out.vectors = full.vectors.leftCols(k);
  return out;
}

// Top k (all when k >= n_S) by the Gram matrix of the rows of S projected off span(Q): the
// values of the covariance and, when `vectors`, its unit eigenvectors (orthonormalised).
inline EigResult gram(const Rows& R, int grp, const Mat& Q, int k, bool vectors) {
  const int d = R.cols();
  const std::vector<int> idx = rows_of(R, grp);
  const int ns = static_cast<int>(idx.size());
  if (ns > d) return cross(R, idx, grp, Q, std::min(k, d));
  Mat K = Mat::Zero(ns, ns);
  Mat ZQ = Mat::Zero(ns, Q.cols());
  for (int j0 = 0; j0 < d; j0 += kBlock) {
    const int b = std::min(kBlock, d - j0);
    const Mat B = block(R, idx, grp, j0, b);
    K.selfadjointView<Eigen::Lower>().rankUpdate(B);
    if (Q.cols() > 0) ZQ.noalias() += B * Q.middleRows(j0, b);
    fp::check_interrupt();
  }
  K = K.selfadjointView<Eigen::Lower>();
  if (Q.cols() > 0) K.noalias() -= ZQ * ZQ.transpose();
  const double div = R.divisor(grp);
  const EigResult full = eig_sym_full(K);
  const int kk = std::min(k, ns);
  EigResult out;
  out.values = full.values.head(kk) / div;
  if (!vectors) return out;
  // vectors only for values clear of 0: Z'u of a null direction of K is rounding noise, whose
  // normalised direction is neither in the rows' span nor off span(Q) (the caller completes the
  // basis with directions of variance 0, fp_pad_basis())
  int kv = 0;
  while (kv < kk && full.values(kv) > 1e-12 * full.values(0)) ++kv;
  Mat V = Mat::Zero(d, kv);
  const Mat U = full.vectors.leftCols(kv);
  for (int j0 = 0; j0 < d; j0 += kBlock) {
    const int b = std::min(kBlock, d - j0);
    V.middleRows(j0, b).noalias() = block(R, idx, grp, j0, b).transpose() * U;
  }
  if (Q.cols() > 0) V.noalias() -= Q * (Q.transpose() * V);
  out.vectors = qr_orthonormal(V);
  if (Q.cols() > 0 && kv > 0) {  // once more off span(Q): what the normalisation lifted
    out.vectors -= Q * (Q.transpose() * out.vectors);
    out.vectors = qr_orthonormal(out.vectors);
  }
  return out;
}

// V'CV (k x k, C of all rows) and each group's squared error outside span(V) (average over its
// rows, about its mean), from one product Z V and the residuals Z - Z V V' by column blocks
// (a sum of squares: no cancellation however small the error); with row weights, each row's
// terms times its weight.
inline void quad(const Rows& R, const Mat& V, Mat& A, Vec& err) {
  const int n = R.rows(), d = R.cols(), k = static_cast<int>(V.cols()), m = static_cast<int>(R.n.size());
  const Mat WV = R.w.asDiagonal() * V;
  Mat ZV = R.X * WV;
  const Eigen::RowVectorXd off = R.c.transpose() * WV;
  ZV.rowwise() -= off;
  if (R.rw != nullptr) {
    A = ZV.transpose() * (Eigen::Map<const Vec>(R.rw, n).asDiagonal() * ZV) / R.divisor(-1);
  } else {
    A = ZV.transpose() * ZV / R.divisor(-1);
  }
  const Mat MV = R.mean.transpose() * V;  // m x k: each group's mean projected
  for (int i = 0; i < n; ++i) ZV.row(i) -= MV.row(R.g[i]);
  std::vector<int> all(n);
  for (int i = 0; i < n; ++i) all[i] = i;
  Rows U = R;  // the residuals unweighted, their squares weighted below
  U.rw = nullptr;
  err = Vec::Zero(m);
  for (int j0 = 0; j0 < d; j0 += kBlock) {
    const int b = std::min(kBlock, d - j0);
    Mat B = block(U, all, -1, j0, b);
    for (int i = 0; i < n; ++i) B.row(i) -= R.mean.block(j0, R.g[i], b, 1).transpose();
    if (k > 0) B.noalias() -= ZV * V.middleRows(j0, b).transpose();
    const Vec ss = B.rowwise().squaredNorm();
    for (int i = 0; i < n; ++i) err(R.g[i]) += ss(i) * R.weight(i);
    fp::check_interrupt();
  }
  for (int g = 0; g < m; ++g) err(g) /= R.divisor(g);
}

// The sample diagnostics of group grp's rows for fair_audit()'s intervals, without a d x d
// matrix where the group has at most d rows: the group's prepared rows Y (centred at its mean,
// n_g x d) give `values`, the non-zero spectrum of Y'Y / n_g (its covariance), descending, from
// the n_g x n_g Gram matrix YY' (from the d x d cross-product Y'Y, by blocks of rows, where the
// group has more rows than columns: then the smaller of the two); `U` (n_g x r), Y's left
// singular vectors of the values above 1e-10 of the largest (the whitened rows: a block's
// second moment whitened by the covariance is a product of U's rows, fp_rows_kurtosis()); and
// `norm`, each row's squared norm with every column divided by its variance (columns of
// variance 0 left out; `constant` counts them). Rows in increasing order.
struct GroupDiag {
  Vec values, norm;
  Mat U;
  int constant = 0;
};

inline GroupDiag group_diag(const Rows& R, int grp) {
  const int d = R.cols();
  const std::vector<int> idx = rows_of(R, grp);
  const int ns = static_cast<int>(idx.size());
  GroupDiag out;
  out.norm = Vec::Zero(ns);
  const bool by_gram = ns <= d;
  Mat K = Mat::Zero(by_gram ? ns : d, by_gram ? ns : d);
  for (int j0 = 0; j0 < d; j0 += kBlock) {
    const int b = std::min(kBlock, d - j0);
    const Mat B = block(R, idx, grp, j0, b);
    if (by_gram) K.selfadjointView<Eigen::Lower>().rankUpdate(B);
    for (int jj = 0; jj < b; ++jj) {
      const double v = B.col(jj).squaredNorm();
      if (v > 0) {
        out.norm += B.col(jj).cwiseAbs2() / v;
      } else {
        ++out.constant;
      }
    }
    fp::check_interrupt();
  }
  out.norm *= ns;  // the columns' variances with divisor n_g
  if (!by_gram) {
    for (int i0 = 0; i0 < ns; i0 += kBlock) {
      const std::vector<int> part(idx.begin() + i0, idx.begin() + std::min(ns, i0 + kBlock));
      K.selfadjointView<Eigen::Lower>().rankUpdate(block(R, part, grp, 0, d).transpose());
      fp::check_interrupt();
    }
  }
  K = K.selfadjointView<Eigen::Lower>();
  const EigResult full = eig_sym_full(K);
  const double top = full.values.size() ? std::max(full.values(0), 0.0) : 0.0;
  int r = 0;
  while (r < full.values.size() && full.values(r) > 1e-10 * top) ++r;
  out.values = full.values.cwiseMax(0.0) / std::max(ns, 1);
  if (by_gram) {
    out.U = full.vectors.leftCols(r);
  } else {
    // U = Y V S^-1 by blocks of rows
    out.U.resize(ns, r);
    const Vec sinv = full.values.head(r).cwiseSqrt().cwiseInverse();
    for (int i0 = 0; i0 < ns; i0 += kBlock) {
      const int e = std::min(ns, i0 + kBlock);
      const std::vector<int> part(idx.begin() + i0, idx.begin() + e);
      out.U.middleRows(i0, e - i0).noalias() = block(R, part, grp, 0, d) * full.vectors.leftCols(r) * sinv.asDiagonal();
    }
  }
  return out;
}

}  // namespace rows
}  // namespace fp

// Per group, the mean and the sum of squared deviations about it of every column (two passes),
// columns beyond 2^+-400 first multiplied by a power of two (`exponent`: data = stored times
// 2^exponent, as in the moments), and whether every value is finite. `rw`: row weights (a
// bootstrap replicate; empty for 1), which make the counts, means and sums weighted; the
// exponents are those of all rows, as a replicate's moments keep the sample's.
// [[Rcpp::export(.fp_rows_stats)]]
Rcpp::List fp_rows_stats(const Rcpp::NumericMatrix& x, const Rcpp::IntegerVector& g, int m, const Rcpp::NumericVector& rw) {
  const int n = x.nrow(), d = x.ncol();
  if (rw.size() != 0 && rw.size() != n) Rcpp::stop("internal error: row route of mismatched sizes");
  const bool weighted = rw.size() == n;
  auto r = [&](int i) { return weighted ? rw[i] : 1.0; };
  Rcpp::NumericMatrix mean(d, m), ssq(d, m);
  Rcpp::NumericVector ex(d), cnt(m);
  for (int i = 0; i < n; ++i) cnt[g[i]] += r(i);
  bool finite = true;
  std::vector<double> s(m);
  for (int j = 0; j < d && finite; ++j) {
    const double* col = x.begin() + static_cast<size_t>(j) * n;
    double mx = 0;
    for (int i = 0; i < n; ++i) {
      if (!std::isfinite(col[i])) finite = false;
      mx = std::max(mx, std::abs(col[i]));
    }
    if (!finite) break;
    int e = 0;
    if (mx > std::ldexp(1.0, 400) || (mx > 0 && mx < std::ldexp(1.0, -400))) {
      std::frexp(mx, &e);
      e = std::min(std::max(e, -1000), 1000);
    }
    ex[j] = e;
    const double t = std::ldexp(1.0, -e);
    std::fill(s.begin(), s.end(), 0.0);
    for (int i = 0; i < n; ++i) s[g[i]] += col[i] * t * r(i);
    for (int h = 0; h < m; ++h) mean(j, h) = cnt[h] > 0 ? s[h] / cnt[h] : 0.0;
    std::fill(s.begin(), s.end(), 0.0);
    for (int i = 0; i < n; ++i) {
      const double dv = col[i] * t - mean(j, g[i]);
      s[g[i]] += dv * dv * r(i);
    }
    for (int h = 0; h < m; ++h) ssq(j, h) = s[h];
    if (j % 64 == 0) Rcpp::checkUserInterrupt();
  }
  return Rcpp::List::create(Rcpp::Named("n") = cnt, Rcpp::Named("mean") = mean, Rcpp::Named("ssq") = ssq,
                            Rcpp::Named("exponent") = ex, Rcpp::Named("finite") = finite);
}

// The copy of the prepared rows for the products of Lanczos (fp::rows::Rows::z): row order[i]
// (0-based) of x as column i of a d x n matrix, (x - c) .* w less its group's mean (normalised
// units); written by blocks of columns, so that the rows read for one block stay in cache. opts:
// w, center, mean, n as fp_rows_eig's.
// [[Rcpp::export(.fp_rows_copy)]]
Rcpp::NumericMatrix fp_rows_copy(const Rcpp::NumericMatrix& x, const Rcpp::IntegerVector& g, const Rcpp::IntegerVector& order,
                                 const Rcpp::List& opts) {
  fp::rcpp::Options o(opts);
  const Rcpp::NumericVector w = o.get<Rcpp::NumericVector>("w", Rcpp::NumericVector());
  const Rcpp::NumericVector c = o.get<Rcpp::NumericVector>("center", Rcpp::NumericVector());
  const Rcpp::NumericMatrix mean = o.get<Rcpp::NumericMatrix>("mean", Rcpp::NumericMatrix());
  o.get<Rcpp::NumericVector>("n", Rcpp::NumericVector());
  o.done();
  const int n = x.nrow(), d = x.ncol();
  if (w.size() != d || c.size() != d || mean.nrow() != d || order.size() != n || g.size() != n)
    Rcpp::stop("internal error: row route of mismatched sizes");
  Rcpp::NumericMatrix z = Rcpp::no_init(d, n);
  const double* xp = x.begin();
  const double* mp = mean.begin();
  double* zp = z.begin();
  for (int j0 = 0; j0 < d; j0 += 64) {
    const int j1 = std::min(d, j0 + 64);
    for (int i = 0; i < n; ++i) {
      const int r = order[i];
      const double* mh = mp + static_cast<size_t>(g[r]) * d;
      double* zi = zp + static_cast<size_t>(i) * d;
      for (int j = j0; j < j1; ++j) zi[j] = (xp[static_cast<size_t>(j) * n + r] - c[j]) * w[j] - mh[j];
    }
    if (j0 % 1024 == 0) Rcpp::checkUserInterrupt();
  }
  return z;
}

// Top k of the covariance of all rows (group 0) or of group `group` (1-based), projected off
// span(Q) (d x r, orthonormal; r = 0 for none). opts: w, center, mean (d x m, normalised), n
// (group sizes), trace (of the operator, for scaling), gram (use the Gram matrix), vectors,
// weights (group 0 only: the weighted sum sum_g weights_g C_g instead), init (a start vector
// for Lanczos, or empty), copy and start (fp_rows_copy()'s matrix and the first row of each
// group in it; empty: Lanczos reads x), rw (row weights of a bootstrap replicate, or empty;
// never with the copy).
// [[Rcpp::export(.fp_rows_eig)]]
Rcpp::List fp_rows_eig(const Rcpp::NumericMatrix& x, const Rcpp::IntegerVector& g, int group, const Rcpp::NumericMatrix& Q,
                       int k, const Rcpp::List& opts) {
  fp::rcpp::Options o(opts);
  const Rcpp::NumericVector w = o.get<Rcpp::NumericVector>("w", Rcpp::NumericVector());
  const Rcpp::NumericVector c = o.get<Rcpp::NumericVector>("center", Rcpp::NumericVector());
  const Rcpp::NumericMatrix mean = o.get<Rcpp::NumericMatrix>("mean", Rcpp::NumericMatrix());
  const Rcpp::NumericVector n = o.get<Rcpp::NumericVector>("n", Rcpp::NumericVector());
  const double trace = o.get<double>("trace", 1.0);
  const bool use_gram = o.get<bool>("gram", false);
  const bool vectors = o.get<bool>("vectors", true);
  const Rcpp::NumericVector wts = o.get<Rcpp::NumericVector>("weights", Rcpp::NumericVector());
  const Rcpp::NumericVector init = o.get<Rcpp::NumericVector>("init", Rcpp::NumericVector());
  const Rcpp::NumericMatrix copy = o.get<Rcpp::NumericMatrix>("copy", Rcpp::NumericMatrix(0, 0));
  const Rcpp::IntegerVector start = o.get<Rcpp::IntegerVector>("start", Rcpp::IntegerVector());
  const Rcpp::NumericVector rw = o.get<Rcpp::NumericVector>("rw", Rcpp::NumericVector());
  o.done();
  const int d = x.ncol();
  if (w.size() != d || c.size() != d || mean.nrow() != d || mean.ncol() != n.size() || Q.nrow() != d)
    Rcpp::stop("internal error: row route of mismatched sizes");
  fp::rows::Rows R(x.begin(), x.nrow(), d, g.begin(), w.begin(), c.begin(), mean.begin(),
                   static_cast<int>(n.size()), n.begin());
  if (rw.size() > 0) {
    if (rw.size() != x.nrow() || copy.size() > 0) Rcpp::stop("internal error: row route of mismatched sizes");
    R.rw = rw.begin();
  }
  if (copy.size() > 0) {
    if (copy.nrow() != d || copy.ncol() != x.nrow() || start.size() != n.size() + 1 || start[n.size()] != x.nrow())
      Rcpp::stop("internal error: row route of mismatched sizes");
    R.z = copy.begin();
    R.start.assign(start.begin(), start.end());
  }
  const fp::Mat Qm = Eigen::Map<const fp::Mat>(Q.begin(), d, Q.ncol());
  // group 0 with `weights` (one per group): the weighted sum sum_g w_g C_g
  const bool weighted = group == 0 && wts.size() > 0;
  if (weighted && wts.size() != n.size()) Rcpp::stop("internal error: row route of mismatched sizes");
  if (weighted) R.gw = Rcpp::as<fp::Vec>(wts).cwiseQuotient(Rcpp::as<fp::Vec>(n).cwiseMax(1.0));
  const int grp = weighted ? fp::rows::kWeighted : group - 1;
  const fp::Vec v0 = init.size() == d ? Rcpp::as<fp::Vec>(init) : fp::Vec();
  bool lanczos = false;
  const fp::EigResult r = fp::rcpp::run([&] {
    fp::EigResult out;
    // mean matching: the constraint's directions at minus the average eigenvalue, below every
    // eigenvalue of the projected covariance (positive semidefinite) yet within its spread, which
    // a shift as large as the trace would widen and so slow Lanczos (about 10% more products)
    if (!use_gram && fp::rows::lanczos(R, grp, Qm, trace / d, trace, k, out, v0, vectors)) {
      lanczos = true;
      return out;
    }
    return fp::rows::gram(R, grp, Qm, k, vectors);
  });
  return Rcpp::List::create(Rcpp::Named("values") = r.values,
                            Rcpp::Named("vectors") = vectors ? Rcpp::wrap(r.vectors) : R_NilValue,
                            Rcpp::Named("lanczos") = lanczos);
}

// V'CV and each group's error outside span(V) (normalised units); opts as fp_rows_eig's (rw:
// row weights).
// [[Rcpp::export(.fp_rows_quad)]]
Rcpp::List fp_rows_quad(const Rcpp::NumericMatrix& x, const Rcpp::IntegerVector& g, const Rcpp::NumericMatrix& V,
                        const Rcpp::List& opts) {
  fp::rcpp::Options o(opts);
  const Rcpp::NumericVector w = o.get<Rcpp::NumericVector>("w", Rcpp::NumericVector());
  const Rcpp::NumericVector c = o.get<Rcpp::NumericVector>("center", Rcpp::NumericVector());
  const Rcpp::NumericMatrix mean = o.get<Rcpp::NumericMatrix>("mean", Rcpp::NumericMatrix());
  const Rcpp::NumericVector n = o.get<Rcpp::NumericVector>("n", Rcpp::NumericVector());
  const Rcpp::NumericVector rw = o.get<Rcpp::NumericVector>("rw", Rcpp::NumericVector());
  o.done();
  const int d = x.ncol();
  if (w.size() != d || c.size() != d || mean.nrow() != d || V.nrow() != d || (rw.size() > 0 && rw.size() != x.nrow()))
    Rcpp::stop("internal error: row route of mismatched sizes");
  fp::rows::Rows R(x.begin(), x.nrow(), d, g.begin(), w.begin(), c.begin(), mean.begin(),
                   static_cast<int>(n.size()), n.begin());
  if (rw.size() > 0) R.rw = rw.begin();
  fp::Mat A;
  fp::Vec err;
  fp::rcpp::run([&] {
    fp::rows::quad(R, Eigen::Map<const fp::Mat>(V.begin(), d, V.ncol()), A, err);
    return 0;
  });
  return Rcpp::List::create(Rcpp::Named("A") = A, Rcpp::Named("err") = err);
}

// fp::rows::group_diag() of group `group` (1-based); opts: w, center, mean, n as fp_rows_eig's.
// [[Rcpp::export(.fp_rows_group_diag)]]
Rcpp::List fp_rows_group_diag(const Rcpp::NumericMatrix& x, const Rcpp::IntegerVector& g, int group, const Rcpp::List& opts) {
  fp::rcpp::Options o(opts);
  const Rcpp::NumericVector w = o.get<Rcpp::NumericVector>("w", Rcpp::NumericVector());
  const Rcpp::NumericVector c = o.get<Rcpp::NumericVector>("center", Rcpp::NumericVector());
  const Rcpp::NumericMatrix mean = o.get<Rcpp::NumericMatrix>("mean", Rcpp::NumericMatrix());
  const Rcpp::NumericVector n = o.get<Rcpp::NumericVector>("n", Rcpp::NumericVector());
  o.done();
  const int d = x.ncol();
  if (w.size() != d || c.size() != d || mean.nrow() != d || group < 1 || group > n.size())
    Rcpp::stop("internal error: row route of mismatched sizes");
  const fp::rows::Rows R(x.begin(), x.nrow(), d, g.begin(), w.begin(), c.begin(), mean.begin(),
                         static_cast<int>(n.size()), n.begin());
  const fp::rows::GroupDiag r = fp::rcpp::run([&] { return fp::rows::group_diag(R, group - 1); });
  return Rcpp::List::create(Rcpp::Named("values") = r.values, Rcpp::Named("U") = r.U,
                            Rcpp::Named("norm") = r.norm, Rcpp::Named("constant") = r.constant);
}
