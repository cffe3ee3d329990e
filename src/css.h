// Fair column subset selection (Matakos, Ordozgoiti & Thejaswi, KDD 2024) from per-group Gram
// matrices G_g = X_g' X_g (d x d). Nothing here touches the rows of the data.
//
// Facts used throughout (R_g = residual Gram matrix of group g after selecting the set S):
//   * R_g = G_g - G_g[:,S] G_g[S,S]^+ G_g[S,:] = (X_g - P_S X_g)' (X_g - P_S X_g), so the
//     squared projection error of the group is trace(R_g);
//   * adding column j is the rank-one downdate R_g <- R_g - r r' / r_j with r = R_g[:,j]
//     (Gram-Schmidt in Gram space), which lowers the error by ||r||^2 / r_j;
//   * the trailing block R22 of a QR factorisation of X_g[:, perm] satisfies R22'R22 = R_g
//     restricted to the unselected columns, so its top right singular vector is the top
//     eigenvector of R_g (low-rank-revealing QR);
//   * the leading i x i block R11 satisfies R11'R11 = G_g[P,P] (P the first i positions), so
//     its smallest right singular vector is the bottom eigenvector of G_g[P,P] (high-RRQR).
//
// Numerical conventions (documented in ?fair_css):
//   * the Gram matrices and factors arrive normalised (R/css-prepare.R, fp_css_prepare(): one
//     scalar for all groups), so nothing here depends on the units of the data; all thresholds
//     are relative;
//   * a column whose residual norm (from the factor) is at most 1e-12 of its norm counts as
//     linearly dependent on the selected columns for group g: it lowers that group's error by
//     nothing; norms of the factor's columns are taken after dividing by a power of two, so
//     that columns of any magnitude (down to the smallest doubles) are judged alike;
//   * gains come from the residual Gram matrix where it resolves the column (its diagonal
//     entry above kGain of the error), otherwise from the factor (Resid::factor_gain());
//   * ties in the greedy and exhaustive objectives: values within a relative kTie of the
//     minimum are tied, the lowest column index (first subset in lexicographic order) wins;
//   * QR pivots: the group with the larger top eigenvalue (low QR) or smaller bottom eigenvalue
//     (high QR) gives the vector, the first group on exact ties; the pivot is the first
//     position (in the current permuted order) of the largest |entry|.
//
// Files: css.h (these facts and the helpers shared by the methods), css.cpp (prefix errors,
// coefficients, the greedy method), css_qr.cpp (the low- and high-rank-revealing QR methods),
// css_exhaustive.cpp (exhaustive search and its branch and bound).
#ifndef FAIRPROJ_CSS_H
#define FAIRPROJ_CSS_H

#define USE_FC_LEN_T
#include <Rconfig.h>
#include "linalg.h"
#include "runtime.h"
#include <R_ext/Lapack.h>
#include <algorithm>
#include <cfloat>
#include <limits>

#ifndef FCONE
#define FCONE
#endif

namespace fp {
namespace css {

typedef fp::Mat Mat;
typedef fp::Vec Vec;

const double kDep = 1e-24;   // squared residual norm / squared column norm (norm ratio 1e-12)
const double kDepNorm = 1e-12;
const double kGain = 1e-12;  // Gram-based gains need R(j,j) above this fraction of trace(R)
const double kTie = 1e-10;

// Squared column norms of R over the target rows.
inline Vec masked_colnorms(const Mat& R, const std::vector<char>& target, bool all) {
  if (all) return R.colwise().squaredNorm().transpose();
  const int d = static_cast<int>(R.rows());
  Vec out = Vec::Zero(d);
  for (int j = 0; j < d; ++j) {
    double s = 0;
    for (int i = 0; i < d; ++i)
      if (target[i]) s += R(i, j) * R(i, j);
    out(j) = s;
  }
  return out;
}

// The target columns (0-based; empty = all) as a 0/1 mask of the d columns.
inline std::vector<char> make_target(const std::vector<int>& target, int d) {
  std::vector<char> t(d, target.empty() ? 1 : 0);
  for (size_t i = 0; i < target.size(); ++i) t[target[i]] = 1;
  return t;
}

// The power of two at or below the largest |entry| of v (0 for a zero vector): dividing by it is
// exact, and brings the entries to [0, 1] times 2 so that squares neither under- nor overflow.
inline double pow2_scale(const Vec& v) {
  const double vmax = v.cwiseAbs().maxCoeff();
  return vmax > 0 && std::isfinite(vmax) ? std::ldexp(1.0, std::ilogb(vmax)) : 0.0;
}

// Euclidean norm of v without under- or overflow (the scaling above).
inline double safe_norm(const Vec& v) {
  if (v.size() == 0) return 0;
  const double s = pow2_scale(v);
  return s > 0 ? s * (v / s).norm() : 0.0;
}

// Apply the Householder reflection that zeroes column j of T below row p (rows p.. of T hold the
// residual of the group's factor after the columns selected so far). Returns false (and
// changes nothing) when the column's residual norm is at most `dep` of its original norm
// (`orig` = its norm in the untransformed factor, from safe_norm()): the column is then
// dependent. The reflection is formed from the residual divided by a power of two near its
// largest entry (exact), so columns of any magnitude, down to the smallest doubles, are
// reflected without their squared norms under- or overflowing.
inline bool householder(Mat& T, int& p, int j, double orig, double dep = kDepNorm) {
  const int r = static_cast<int>(T.rows()), d = static_cast<int>(T.cols());
  if (p >= r) return false;
  Vec v = T.col(j).segment(p, r - p);
  const double s = pow2_scale(v);
  if (!(s > 0)) return false;
  v /= s;
  const double a = std::sqrt(v.squaredNorm());
  if (!(s * a > dep * orig)) return false;
  const double alpha = v(0) >= 0 ? -a : a;
  v(0) -= alpha;
  const double vn2 = v.squaredNorm();
  if (vn2 > 0) {
    Eigen::RowVectorXd w = (v.transpose() * T.block(p, 0, r - p, d)) * (2.0 / vn2);
    T.block(p, 0, r - p, d).noalias() -= v * w;
  }
  T(p, j) = alpha * s;
  if (r - p > 1) T.col(j).segment(p + 1, r - p - 1).setZero();
  ++p;
  return true;
}

// The residual of one group after a set of selected columns, kept two ways: the residual Gram
// matrix R (d x d; cheap rank-one downdates, used for the greedy gains and QR pivots) and the
// Householder-transformed factor T (rows p.. are the residual of Y with t(Y) Y = G; errors are
// sums of squares of these rows, without cancellation). When the residual has shrunk by the
// factor kRefresh since R was last formed, R is recomputed from T, so that R stays accurate
// relative to its own size (downdates lose the digits that the removed part had: on uncentred
// data with large offsets, all of them after the first column).
const double kRefresh = 1e-4;
struct Resid {
  Mat R, T;
  Vec orig;   // squared column norms of the original factor (diagonal of G)
  Vec onorm;  // column norms of the original factor (safe_norm(): also where squares underflow)
  int p;
  double ref;
  std::vector<char> selected;
  Resid(const Eigen::Ref<const Mat>& G, const Eigen::Ref<const Mat>& Y) : R(G), T(Y), orig(G.diagonal()), onorm(col_norms(Y)), p(0), ref(0),
                                      selected(G.rows(), 0) {
    ref = residual_norms().sum();
  }
  static Vec col_norms(const Eigen::Ref<const Mat>& Y) {
    Vec out(Y.cols());
    for (int j = 0; j < Y.cols(); ++j) out(j) = safe_norm(Y.col(j));
    return out;
  }
  // whether column j is independent of the selected columns (its residual norm above kDepNorm
  // of its norm, both without squaring)
  bool independent(int j) const {
    const int r = static_cast<int>(T.rows());
    return p < r && safe_norm(T.col(j).tail(r - p)) > kDepNorm * onorm(j);
  }
  // the decrease of the squared error (over the target columns) when column j is added, from
  // the factor: the squared norm of the residual's projection on the unit direction of column
  // j's residual. For columns whose residual the Gram matrix does not resolve (tiny next to
  // the error, or below the squares that doubles hold), where a downdate of R would be noise.
  double factor_gain(int j, const std::vector<char>& tg) const {
    const int r = static_cast<int>(T.rows());
    if (p >= r) return 0;
    Vec u = T.col(j).tail(r - p);
    const double s = pow2_scale(u);
    if (!(s > 0)) return 0;
    u /= s;
    u /= u.norm();
    const Vec w = T.bottomRows(r - p).transpose() * u;
    double gain = 0;
    for (int i = 0; i < w.size(); ++i)
      if (tg[i]) gain += w(i) * w(i);
    return gain;
  }
  // squared norms of the columns of the residual (accurate)
  Vec residual_norms() const {
    const int r = static_cast<int>(T.rows());
    if (p >= r) return Vec::Zero(T.cols());
    return T.bottomRows(r - p).colwise().squaredNorm().transpose();
  }
  // add column j; returns false when it is dependent on the selected ones
  bool add(int j) {
    const bool ok = householder(T, p, j, onorm(j));
    selected[j] = 1;
    const double now = residual_norms().sum();
    bool refresh = now < kRefresh * ref;
    if (ok && !refresh) {
      const double rjj = R(j, j);
      if (rjj > kGain * R.trace()) {
        Vec r = R.col(j);
        R.noalias() -= (r / rjj) * r.transpose();
      } else {
        refresh = true;  // R(j,j) is not resolved by the Gram matrix: re-form it from T
      }
    }
    R.row(j).setZero();
    R.col(j).setZero();
    if (refresh) {
      const int r = static_cast<int>(T.rows());
      if (p < r) {
        Mat B = T.bottomRows(r - p);
        R.noalias() = B.transpose() * B;
      } else {
        R.setZero();
      }
      for (int i = 0; i < R.rows(); ++i)
        if (selected[i]) {
          R.row(i).setZero();
          R.col(i).setZero();
        }
      ref = now;
    }
    return ok;
  }
};

// The squared error of a group's target columns after column j joins the selection, from the
// error now (err2), the residual's squared column norms (rn) and the squared norms of R's
// columns over the target (cn): the downdate of R where its entry resolves column j's residual,
// else the gain computed from the factor (Resid::factor_gain()); 0 gain for a dependent column.
inline double error_after(const Resid& R, const Eigen::Ref<const Mat>& G, const Vec& cn, const Vec& rn, double err2, int j,
                          const std::vector<char>& tg) {
  const double rjj = rn(j);
  if (rjj > kDep * G(j, j) && rjj > 0 && R.R(j, j) > kGain * err2) return err2 - cn(j) / R.R(j, j);
  if (R.independent(j)) return err2 - R.factor_gain(j, tg);
  return err2;
}

// The pivot of the QR variants: the first position q in [from, to) whose |v[perm[q]]| is within
// a relative kTie of the largest (so that exactly tied entries, e.g. of duplicated columns, are
// decided by position and not by rounding).
inline int first_max(const Vec& v, const std::vector<int>& perm, int from, int to) {
  double vmax = 0;
  for (int q = from; q < to; ++q) vmax = std::max(vmax, std::abs(v(perm[q])));
  for (int q = from; q < to; ++q)
    if (std::abs(v(perm[q])) >= vmax * (1 - kTie)) return q;
  return from;
}

// Eigenpairs of a symmetric matrix from its tridiagonal reduction T = Q' A Q (Eigen's
// vectorised kernels: the cost does not depend on the BLAS R uses): eigenvalues by bisection on
// Sturm counts of T (O(n) per step), vectors by inverse iteration on T (O(n) per step) mapped
// back by the Householder reflectors. A pair then costs the reduction (4/3 n^3) instead of the
// full decomposition's several times that.
class TriEig {
 public:
  explicit TriEig(const Mat& A) : tri_(A), diag_(tri_.diagonal()), sub_(tri_.subDiagonal()), norm_(0) {
    const int n = static_cast<int>(diag_.size());
    for (int i = 0; i < n; ++i) {  // the infinity norm of T, a bound on every eigenvalue
      const double r = std::abs(diag_(i)) + (i > 0 ? std::abs(sub_(i - 1)) : 0.0) + (i < n - 1 ? std::abs(sub_(i)) : 0.0);
      norm_ = std::max(norm_, r);
    }
  }
  bool ok() const { return std::isfinite(norm_); }
  // number of eigenvalues below x (Sturm sequence of the tridiagonal matrix)
  int count_below(double x) const {
    const int n = static_cast<int>(diag_.size());
    const double tiny = DBL_EPSILON * std::max(norm_, DBL_MIN);
    int c = 0;
    double q = diag_(0) - x;
    for (int i = 0;; ++i) {
      if (std::abs(q) < tiny) q = -tiny;
      if (q < 0) ++c;
      if (i + 1 >= n) break;
      q = diag_(i + 1) - x - sub_(i) * sub_(i) / q;
    }
    return c;
  }
  // the j-th smallest eigenvalue (0-based) by bisection on the Sturm count, to `tol` |T|
  double value(int j, double tol = 2 * DBL_EPSILON) const {
    double lo = -norm_, hi = norm_;
    for (int it = 0; it < 200 && hi - lo > tol * std::max(norm_, DBL_MIN); ++it) {
      const double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;
      if (count_below(mid) > j) hi = mid; else lo = mid;
    }
    return 0.5 * (lo + hi);
  }
  // unit eigenvector of the eigenvalue `shift` (isolated): three steps of inverse iteration
  // with the shift at the eigenvalue
  Vec vector_of(double shift) const {
    const int n = static_cast<int>(diag_.size());
    if (n == 1) return Vec::Ones(1);
    Mat Y = start(n, 1);
    ShiftedLU lu(*this, shift);
    for (int step = 0; step < 3; ++step) {
      Y /= Y.norm();
      lu.solve(Y);
      if (!Y.allFinite()) break;
    }
    Vec v = tri_.matrixQ() * (Y.col(0) / Y.norm());
    return v / v.norm();
  }
  // an orthonormal basis of the invariant subspace of the q smallest eigenvalues, when they are
  // well separated from the others (a near-null space): block inverse iteration from below
  // them, re-orthonormalised at each step
  Mat lowest_basis(int q) const {
    const int n = static_cast<int>(diag_.size());
    Mat Y = start(n, q);
    ShiftedLU lu(*this, -norm_ * 1e-10);
    for (int step = 0; step < 3; ++step) {
      Eigen::HouseholderQR<Mat> qr(Y);
      Y = qr.householderQ() * Mat::Identity(n, q);
      lu.solve(Y);
    }
    Eigen::HouseholderQR<Mat> qr(Y);
    Mat B = qr.householderQ() * Mat::Identity(n, q);
    return tri_.matrixQ() * B;
  }
  // T - shift I factorised by Gaussian elimination with partial pivoting (the tridiagonal
  // elimination of LAPACK's dlagtf; a zero pivot replaced by eps times the norm, as dlagts)
  struct ShiftedLU {
    int n;
    Vec u0, u1, u2, l;
    std::vector<char> piv;
    ShiftedLU(const TriEig& t, double shift) : n(static_cast<int>(t.diag_.size())), u0(n), u1(n), u2(n), l(n), piv(n, 0) {
      const double tiny = DBL_EPSILON * std::max(t.norm_, DBL_MIN);
      double ca = t.diag_(0) - shift, cb = n > 1 ? t.sub_(0) : 0.0;
      for (int i = 0; i < n - 1; ++i) {
        const double ci = t.sub_(i), na = t.diag_(i + 1) - shift, nb = (i + 1 < n - 1) ? t.sub_(i + 1) : 0.0;
        if (std::abs(ca) >= std::abs(ci)) {
          if (ca == 0.0) ca = tiny;
          l(i) = ci / ca;
          u0(i) = ca;
          u1(i) = cb;
          u2(i) = 0.0;
          ca = na - l(i) * cb;
          cb = nb;
        } else {
          piv[i] = 1;
          l(i) = ca / ci;
          u0(i) = ci;
          u1(i) = na;
          u2(i) = nb;
          ca = cb - l(i) * na;
          cb = -l(i) * nb;
        }
      }
      u0(n - 1) = ca;
      for (int i = 0; i < n; ++i)
        if (std::abs(u0(i)) < tiny) u0(i) = u0(i) < 0 ? -tiny : tiny;
    }
    // overwrite each column x of X by (T - shift I)^{-1} x
    void solve(Mat& X) const {
      for (int c = 0; c < X.cols(); ++c) {
        double* x = X.col(c).data();
        for (int i = 0; i < n - 1; ++i) {
          if (piv[i]) std::swap(x[i], x[i + 1]);
          x[i + 1] -= l(i) * x[i];
        }
        x[n - 1] /= u0(n - 1);
        if (n > 1) x[n - 2] = (x[n - 2] - u1(n - 2) * x[n - 1]) / u0(n - 2);
        for (int i = n - 3; i >= 0; --i) x[i] = (x[i] - u1(i) * x[i + 1] - u2(i) * x[i + 2]) / u0(i);
      }
    }
  };
  // deterministic start vectors: not orthogonal to any invariant subspace in practice
  static Mat start(int n, int q) {
    Mat Y(n, q);
    for (int c = 0; c < q; ++c)
      for (int i = 0; i < n; ++i) Y(i, c) = 1.0 + 1e-3 * std::sin(0.7 * (i + 1) * (c + 1)) + (c > 0 ? std::cos(1.3 * (i + 1) * c) : 0.0);
    return Y;
  }


 private:
  Eigen::Tridiagonalization<Mat> tri_;
  Vec diag_, sub_;
  double norm_;
};

// Top eigenpair of a symmetric matrix; Lanczos (Spectra) warm-started from `start` (the
// previous step's vector) when the matrix is large, dense otherwise. Returns the eigenvalue.
inline double top_eigpair(const Mat& A, const Vec& start, Vec& vec) {
  const int d = static_cast<int>(A.rows());
  if (d >= 120) {
    Vec s0 = start;
    if (s0.size() != d || s0.norm() < 1e-8) s0 = Vec::Constant(d, 1.0 / std::sqrt(static_cast<double>(d)));
    // a small deterministic perturbation keeps the start from lying in an invariant subspace
    for (int i = 0; i < d; ++i) s0(i) += 1e-3 * std::sin(0.7 * (i + 1)) / std::sqrt(static_cast<double>(d));
    fp::EigResult e;
    if (fp::lanczos_top(A, 1, std::min(d, 21), 1e-9, &s0, e)) {
      vec = e.vectors.col(0);
      return e.values(0);
    }
  }
  TriEig te(A);  // the top pair only: no full eigendecomposition
  if (te.ok()) {
    const double lam = te.value(d - 1);
    vec = te.vector_of(lam);
    if (vec.allFinite()) return lam;
  }
  fp::EigResult e = fp::eig_sym_full(A);
  vec = e.vectors.col(0);
  return e.values(0);
}

}  // namespace css
}  // namespace fp

#endif
