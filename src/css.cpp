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
//   * the Gram matrices and factors arrive normalised (R/fair_css.R, fp_css_prepare(): one
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
#define USE_FC_LEN_T
#include <Rconfig.h>
#include "linalg.h"
#include <R_ext/Lapack.h>
#include <algorithm>
#include <cfloat>

#ifndef FCONE
#define FCONE
#endif

using Rcpp::IntegerVector;
using Rcpp::List;
using Rcpp::NumericMatrix;
using Rcpp::NumericVector;

namespace {

typedef fp::Mat Mat;
typedef fp::Vec Vec;

const double kDep = 1e-24;   // squared residual norm / squared column norm (norm ratio 1e-12)
const double kDepNorm = 1e-12;
const double kGain = 1e-12;  // Gram-based gains need R(j,j) above this fraction of trace(R)
const double kTie = 1e-10;

std::vector<Mat> as_grams(const List& grams) {
  std::vector<Mat> out;
  for (R_xlen_t g = 0; g < grams.size(); ++g) {
    NumericMatrix a = grams[g];
    out.push_back(Eigen::Map<Mat>(a.begin(), a.nrow(), a.ncol()));
  }
  return out;
}

// Squared column norms of R over the target rows.
Vec masked_colnorms(const Mat& R, const std::vector<char>& target, bool all) {
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

std::vector<char> make_target(const IntegerVector& target, int d) {
  std::vector<char> t(d, target.size() == 0 ? 1 : 0);
  for (R_xlen_t i = 0; i < target.size(); ++i) t[target[i]] = 1;
  return t;
}

std::vector<Mat> as_mats(const List& mats) { return as_grams(mats); }

// The power of two at or below the largest |entry| of v (0 for a zero vector): dividing by it is
// exact, and brings the entries to [0, 1] times 2 so that squares neither under- nor overflow.
double pow2_scale(const Vec& v) {
  const double vmax = v.cwiseAbs().maxCoeff();
  return vmax > 0 && std::isfinite(vmax) ? std::ldexp(1.0, std::ilogb(vmax)) : 0.0;
}

// Euclidean norm of v without under- or overflow (the scaling above).
double safe_norm(const Vec& v) {
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
bool householder(Mat& T, int& p, int j, double orig, double dep = kDepNorm) {
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
  Resid(const Mat& G, const Mat& Y) : R(G), T(Y), orig(G.diagonal()), onorm(col_norms(Y)), p(0), ref(0),
                                      selected(G.rows(), 0) {
    ref = residual_norms().sum();
  }
  static Vec col_norms(const Mat& Y) {
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

// The pivot of the QR variants: the first position q in [from, to) whose |v[perm[q]]| is within
// a relative kTie of the largest (so that exactly tied entries, e.g. of duplicated columns, are
// decided by position and not by rounding).
int first_max(const Vec& v, const std::vector<int>& perm, int from, int to) {
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
double top_eigpair(const Mat& A, const Vec& start, Vec& vec) {
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

}  // namespace

// Squared projection error of every prefix of `cols` (0-based), per group: a c x m matrix
// (row t = error after the first t + 1 columns), by Householder QR of each group's factor Y_g
// (t(Y_g) Y_g = G_g): the error is the sum of squares of the rows below the selected ones, so it
// is accurate however small it is relative to the size of the data (O(c r d) per group).
// `target` (0-based, empty = all columns) restricts the error to those columns of X_g.
// [[Rcpp::export(.fp_css_prefix_err2)]]
NumericMatrix fp_css_prefix_err2(const List& factors, const IntegerVector& cols, const IntegerVector& target) {
  std::vector<Mat> Y = as_mats(factors);
  const int m = static_cast<int>(Y.size()), c = cols.size();
  NumericMatrix out(c, m);
  for (int g = 0; g < m; ++g) {
    Mat T = Y[g];
    const int d = static_cast<int>(T.cols()), r = static_cast<int>(T.rows());
    std::vector<char> tg = make_target(target, d);
    const Vec orig = Resid::col_norms(T);
    int p = 0;
    for (int t = 0; t < c; ++t) {
      const int j = cols[t];
      if (j < 0 || j >= d) Rcpp::stop("column index out of range");
      householder(T, p, j, orig(j));
      double s = 0;
      if (p < r) {
        for (int i = 0; i < d; ++i)
          if (tg[i]) s += T.col(i).tail(r - p).squaredNorm();
      }
      out(t, g) = s;
    }
  }
  return out;
}

// Least-squares coefficients W (c x d) with Z ~ Z[, S] W from a factor Y (t(Y) Y = t(Z) Z):
// Householder QR of Y[, S] in the order of S (the reflections carry Y along), a column counting
// as dependent on the earlier ones (coefficients 0) when its residual norm, recomputed at its
// step, is at most 1e-10 of its norm (zero columns, e.g. a category absent from the group,
// included); then back substitution on the independent ones. (LINPACK's QR, which qr() uses,
// judges dependence from norms it downdates: with many more columns than the group's rank it
// kept columns whose true residual was 1e-20 of their norm, or exactly 0, so that qr.coef()
// returned coefficients 1e20 times too large or stopped with "exact singularity".) `cols` are
// 1-based.
// [[Rcpp::export(.fp_css_coef)]]
NumericMatrix fp_css_coef_cpp(const NumericMatrix& Y, const IntegerVector& cols) {
  const int c = cols.size(), d = Y.ncol(), r = Y.nrow();
  NumericMatrix W(c, d);
  Eigen::Map<const Mat> Ym(Y.begin(), r, d);
  Mat T(r, c + d);
  for (int t = 0; t < c; ++t) {
    const int j = cols[t] - 1;
    if (j < 0 || j >= d) Rcpp::stop("column index out of range");
    T.col(t) = Ym.col(j);
  }
  T.rightCols(d) = Ym;
  const Vec orig = Resid::col_norms(T.leftCols(c));
  std::vector<int> kept;  // kept[q] = position in cols of the q-th independent column
  int p = 0;
  for (int t = 0; t < c; ++t)
    if (householder(T, p, t, orig(t), 1e-10)) kept.push_back(t);
  if (p == 0) return W;
  Mat U = Mat::Zero(p, p);
  for (int s = 0; s < p; ++s) U.col(s).head(s + 1) = T.col(kept[s]).head(s + 1);
  const Mat B = U.triangularView<Eigen::Upper>().solve(T.block(0, c, p, d));
  for (int q = 0; q < p; ++q)
    for (int j = 0; j < d; ++j) W(kept[q], j) = B(q, j);
  return W;
}

// Greedy: k steps of "add the candidate column that minimises the largest ratio
// sqrt(error_g / best2[t, g])" (t = step). grams: list of d x d; best2: k x m matrix of squared
// denominators per step; cand: sorted 0-based candidates; target: rows of the error (empty =
// all). Returns 0-based columns in selection order and the objective after each step.
// scan = false: the candidate with the smallest value (ties within a relative kTie: the first in
// `cand`). scan = true (the rule of the authors' code): values rounded to `digits` decimals
// (digits < 0: not rounded); the running value starts at the (rounded) objective of the current
// set; candidates are scanned in the order of `cand` and each one whose value is at most the
// running value + tol is accepted and becomes the running value; the last accepted one is added.
// [[Rcpp::export(.fp_css_greedy)]]
List fp_css_greedy(const List& grams, const List& factors, const NumericMatrix& best2, const IntegerVector& cand,
                   const IntegerVector& target, int k, bool scan = false, int digits = -1, double tol = 0) {
  std::vector<Mat> G = as_grams(grams), Y = as_mats(factors);
  const int m = static_cast<int>(G.size());
  if (m == 0 || static_cast<int>(Y.size()) != m || best2.ncol() != m || best2.nrow() < k) Rcpp::stop("bad arguments");
  const int d = static_cast<int>(G[0].rows());
  std::vector<char> tg = make_target(target, d);
  const bool all = target.size() == 0;
  std::vector<Resid> R;
  for (int g = 0; g < m; ++g) R.push_back(Resid(G[g], Y[g]));
  std::vector<char> used(d, 0);
  IntegerVector sel(k);
  NumericVector obj(k);
  const int nc = cand.size();
  if (k > nc) Rcpp::stop("fewer candidate columns than requested");
  Vec vals(nc);
  for (int t = 0; t < k; ++t) {
    vals.setConstant(R_PosInf);
    std::vector<Vec> cn(m), rn(m);
    std::vector<double> err2(m);
    for (int g = 0; g < m; ++g) {
      cn[g] = masked_colnorms(R[g].R, tg, all);
      rn[g] = R[g].residual_norms();
      double e = 0;
      for (int i = 0; i < d; ++i)
        if (tg[i]) e += rn[g](i);
      err2[g] = e;
    }
    for (int a = 0; a < nc; ++a) {
      const int j = cand[a];
      if (used[j]) continue;
      double v = 0;
      for (int g = 0; g < m; ++g) {
        double e = err2[g];
        const double rjj = rn[g](j);
        if (rjj > kDep * G[g](j, j) && rjj > 0 && R[g].R(j, j) > kGain * err2[g]) {
          e -= cn[g](j) / R[g].R(j, j);
        } else if (R[g].independent(j)) {
          e -= R[g].factor_gain(j, tg);
        }
        v = std::max(v, std::sqrt(std::max(e, 0.0) / best2(t, g)));
      }
      vals(a) = v;
    }
    const double vmin = vals.minCoeff();
    if (!std::isfinite(vmin)) Rcpp::stop("no candidate column left");
    int pick = -1;
    if (scan) {
      const double p10 = digits >= 0 ? std::pow(10.0, digits) : 1.0;
      auto rnd = [&](double x) { return digits >= 0 ? std::nearbyint(x * p10) / p10 : x; };
      double cur = 0;
      for (int g = 0; g < m; ++g) cur = std::max(cur, std::sqrt(std::max(err2[g], 0.0) / best2(t, g)));
      double run = rnd(cur);
      for (int a = 0; a < nc; ++a) {
        if (used[cand[a]]) continue;
        const double v = rnd(vals(a));
        if (v <= run + tol) {
          pick = cand[a];
          run = v;
        }
      }
      if (pick < 0) {  // no candidate within tol of the current value (cannot happen in exact arithmetic)
        for (int a = 0; a < nc; ++a)
          if (!used[cand[a]] && vals(a) == vmin) { pick = cand[a]; break; }
      }
    } else {
      for (int a = 0; a < nc; ++a) {
        if (vals(a) <= vmin + kTie * std::abs(vmin)) {
          pick = cand[a];
          break;
        }
      }
    }
    used[pick] = 1;
    sel[t] = pick;
    for (int g = 0; g < m; ++g) R[g].add(pick);
    for (int a = 0; a < nc; ++a)
      if (cand[a] == pick) obj[t] = vals(a);
    Rcpp::checkUserInterrupt();
  }
  return List::create(Rcpp::Named("columns") = sel, Rcpp::Named("objective") = obj);
}

// Fair low-rank-revealing QR (Algorithm 2) on the candidate columns: at each step the group
// whose residual (trailing block) has the larger top eigenvalue gives its top eigenvector v,
// and the column at the first position of max |v| (current permuted order) is moved forward.
// With one Gram matrix this is Chan & Hansen's L-RRQR. Returns the first k columns (0-based,
// in selection order) and the top eigenvalues seen.
// [[Rcpp::export(.fp_css_lowqr)]]
List fp_css_lowqr(const List& grams, const List& factors, const IntegerVector& cand, int k) {
  std::vector<Mat> G0 = as_grams(grams), Y0 = as_mats(factors);
  const int m = static_cast<int>(G0.size()), n = cand.size();
  if (m == 0 || static_cast<int>(Y0.size()) != m || k > n) Rcpp::stop("bad arguments");
  std::vector<Resid> R;
  for (int g = 0; g < m; ++g) {
    Mat Gc(n, n), Yc(Y0[g].rows(), n);
    for (int b = 0; b < n; ++b) {
      for (int a = 0; a < n; ++a) Gc(a, b) = G0[g](cand[a], cand[b]);
      Yc.col(b) = Y0[g].col(cand[b]);
    }
    R.push_back(Resid(Gc, Yc));
  }
  double tot = 0;
  for (int g = 0; g < m; ++g) tot = std::max(tot, R[g].orig.sum());
  std::vector<int> perm(n);
  for (int i = 0; i < n; ++i) perm[i] = i;
  std::vector<Vec> warm(m);
  std::vector<double> hi(m, R_PosInf);
  std::vector<int> order(m);
  IntegerVector sel(k);
  IntegerVector who(k);
  NumericVector sig(k);
  for (int i = 0; i < k; ++i) {
    double best = -1;
    int bg = 0;
    Vec v;
    // below the Lanczos size the top pair of each residual is computed on the unselected
    // columns only (in increasing order): the selected rows and columns of R are zero, so the
    // pair is the same, and the dense reduction shrinks with every pivot
    std::vector<int> live;
    if (n < 120) {
      for (int q = i; q < n; ++q) live.push_back(perm[q]);
      std::sort(live.begin(), live.end());
    }
    const int u = static_cast<int>(live.size());
    // the groups most likely to give the largest eigenvalue first (their bounds, descending)
    for (int g = 0; g < m; ++g) order[g] = g;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return hi[a] > hi[b]; });
    std::vector<char> done(m, 0);
    std::vector<double> lams(m, R_NegInf);
    std::vector<Vec> vgs(m);
    double cmax = R_NegInf;
    for (int g : order) {
      // a residual only shrinks as columns are taken (a positive semi-definite downdate), so
      // its largest eigenvalue is at most the last one computed: a group whose bound lies
      // below an eigenvalue computed at this step cannot give the vector (dense path only,
      // where no warm start depends on it)
      if (n < 120 && hi[g] < cmax) continue;
      Vec vg;
      double lam;
      if (n < 120) {
        Mat S(u, u);
        for (int b = 0; b < u; ++b)
          for (int a = 0; a < u; ++a) S(a, b) = R[g].R(live[a], live[b]);
        Vec vs;
        lam = top_eigpair(S, Vec(), vs);
        vg = Vec::Zero(n);
        for (int a = 0; a < u; ++a) vg(live[a]) = vs(a);
      } else {
        lam = top_eigpair(R[g].R, warm[g], vg);
      }
      warm[g] = vg;
      done[g] = 1;
      lams[g] = lam;
      vgs[g] = vg;
      cmax = std::max(cmax, lam);
      hi[g] = lam + 1e-8 * std::abs(lam) + 1e-15 * tot;  // far beyond the rounding of the residual
    }
    for (int g = 0; g < m; ++g) {  // in group order, as when every group was computed
      if (done[g] && lams[g] > best) {
        best = lams[g];
        bg = g;
        v = vgs[g];
      }
    }
    int p = i;
    if (best > 1e-14 * tot) p = first_max(v, perm, i, n);
    std::swap(perm[i], perm[p]);
    const int j = perm[i];
    for (int g = 0; g < m; ++g) R[g].add(j);
    sel[i] = cand[j];
    who[i] = bg + 1;
    sig[i] = std::sqrt(std::max(best, 0.0));
    Rcpp::checkUserInterrupt();
  }
  return List::create(Rcpp::Named("columns") = sel, Rcpp::Named("group") = who,
                      Rcpp::Named("sigma") = sig);
}

namespace {

// The q smallest eigenpairs of a symmetric matrix (ascending), by LAPACK dsyevr (one tridiagonal
// reduction, then MRRR for the q pairs); Eigen's dense solver if LAPACK fails. Returns the number
// of pairs computed.
int bottom_eigpairs(const Mat& A, int q, Vec& values, Mat& vectors) {
  int n = static_cast<int>(A.rows());
  q = std::min(q, n);
  Mat a = A;
  const char jobz = 'V', range = 'I', uplo = 'L';
  int il = 1, iu = q, m = 0, info = 0, lwork = -1, liwork = -1, iwq = 0;
  double vl = 0, vu = 0, abstol = 2 * DBL_MIN, wq = 0;
  Vec w(n);
  Mat z(n, q);
  std::vector<int> isuppz(2 * std::max(q, 1));
  F77_CALL(dsyevr)(&jobz, &range, &uplo, &n, a.data(), &n, &vl, &vu, &il, &iu, &abstol, &m, w.data(),
                   z.data(), &n, isuppz.data(), &wq, &lwork, &iwq, &liwork, &info FCONE FCONE FCONE);
  if (info == 0) {
    lwork = static_cast<int>(wq);
    liwork = iwq;
    std::vector<double> work(lwork);
    std::vector<int> iwork(liwork);
    F77_CALL(dsyevr)(&jobz, &range, &uplo, &n, a.data(), &n, &vl, &vu, &il, &iu, &abstol, &m, w.data(),
                     z.data(), &n, isuppz.data(), work.data(), &lwork, iwork.data(), &liwork,
                     &info FCONE FCONE FCONE);
    if (info == 0 && m == q) {
      values = w.head(q);
      vectors = z;
      return q;
    }
  }
  Eigen::SelfAdjointEigenSolver<Mat> es(A);  // ascending
  if (es.info() != Eigen::Success) Rcpp::stop("eigendecomposition failed in high QR");
  values = es.eigenvalues().head(q);
  vectors = es.eigenvectors().leftCols(q);
  return q;
}

}  // namespace

// Fair high-rank-revealing QR (Appendix A): for i = n down to `stop` + 1, the group whose
// leading block (first i positions) has the smaller smallest eigenvalue of G_g[P,P] gives the
// bottom eigenvector v, and the column at the first position of max |v| is swapped to position
// i. Returns the whole final ordering (0-based); its first k entries are the selection.
//
// Degenerate blocks: when a group's leading block is numerically singular (eigenvalues of
// G_g[P,P] at most kNull times its largest, i.e. singular values of the block below 1e-4 of the
// largest) its smallest singular vector is any vector of a null space that is often of
// dimension > 1 (one-hot blocks, data given to 5 digits), and "max |v|" depends on the basis
// the eigensolver happens to return: rounding decides it. On the paper's Table 2 the results
// are at or below the published ones for kNull from 3e-9 to 1e-7 (1e-10 sits on an eigenvalue
// of the COMPAS data). Then the pivot is the column with the largest squared norm of its row in
// the null-space bases, summed over the singular groups: the column that lies most in the null
// spaces, which does not depend on the basis (with a one-dimensional null space of one group it
// is max |v|).
//
// Cost: each block is reduced to tridiagonal form once (TriEig); the largest eigenvalue (which
// scales kNull), the dimension of the near-null space and the two smallest eigenvalues come from
// Sturm counts, the smallest vector from inverse iteration and a null-space basis from block
// inverse iteration, so a step costs about one tridiagonal reduction. Where the two smallest
// eigenvalues are within 1e-9 of the largest of each other (and not null) the smallest vector
// is ill-determined and max |v| depends on the algorithm: LAPACK's dsyevr (MRRR) computes it
// there, the solver this method has always used, so the choices do not move.
// [[Rcpp::export(.fp_css_highqr)]]
List fp_css_highqr(const List& grams, const IntegerVector& cand, int stop) {
  const double kNull = 1e-8;
  std::vector<Mat> G0 = as_grams(grams);
  const int m = static_cast<int>(G0.size()), n = cand.size();
  std::vector<Mat> G(m, Mat(n, n));
  for (int g = 0; g < m; ++g)
    for (int b = 0; b < n; ++b)
      for (int a = 0; a < n; ++a) G[g](a, b) = G0[g](cand[a], cand[b]);
  std::vector<int> perm(n);
  for (int i = 0; i < n; ++i) perm[i] = i;
  int degenerate = 0;
  // Cauchy interlacing: deleting a row and column of a symmetric matrix never lowers its
  // smallest eigenvalue nor raises its largest. So a group's smallest eigenvalue, once computed,
  // bounds it from below at every later step, and a group without a near-null space keeps none
  // (kNull * top only falls). Such a group whose bound lies clearly above the smallest
  // eigenvalue computed for another group at this step can neither give the pivot nor add to
  // the near-null projector: its reduction is skipped (on data with groups of different sizes
  // or spreads, most steps of the larger group). The choices are those of computing every group.
  std::vector<double> lo(m, R_NegInf), top_seen(m, R_PosInf);
  std::vector<char> nullfree(m, 0);
  std::vector<int> order(m);
  for (int i = n; i > std::max(stop, 1); --i) {
    double best = R_PosInf;
    Vec v, w = Vec::Zero(i);
    bool singular = false;
    // the groups most likely to give the smallest eigenvalue first (their bounds, ascending)
    for (int g = 0; g < m; ++g) order[g] = g;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return lo[a] < lo[b]; });
    std::vector<char> done(m, 0);
    std::vector<double> lams(m, R_PosInf);
    std::vector<int> nnulls(m, 0);
    std::vector<Mat> Us(m);
    double cmin = R_PosInf;  // smallest eigenvalue computed so far at this step
    for (int g : order) {
      if (nullfree[g] && std::isfinite(cmin) && lo[g] > cmin + 1e-10 * top_seen[g]) continue;
      Mat L(i, i);
      for (int b = 0; b < i; ++b)
        for (int a = 0; a < i; ++a) L(a, b) = G[g](perm[a], perm[b]);
      // the tridiagonal reduction; the largest eigenvalue, the near-null space's dimension and
      // the two smallest eigenvalues by Sturm counts; the smallest vector by inverse
      // iteration, or every vector of the near-null space when it has dimension 2 or more
      TriEig te(L);
      if (!te.ok()) Rcpp::stop("eigendecomposition failed in high QR");
      const double top = std::max(te.value(i - 1, 1e-6), 0.0);  // it only scales kNull
      const int nnull = te.count_below(std::nextafter(kNull * top, R_PosInf));  // ev <= kNull * top
      Mat U;
      double lam = te.value(0);
      const double lam2 = i > 1 ? te.value(1, 1e-12) : R_PosInf;  // for the gap test only
      if (nnull >= 2) {
        U = te.lowest_basis(nnull);  // only its projector's diagonal is used: basis-free
      } else if (nnull == 0 && i > 1 && lam2 - lam <= 1e-9 * top) {
        // two close smallest eigenvalues: the vector is ill-determined and max |v| depends on
        // the algorithm; LAPACK's MRRR keeps the choice the method has always made
        Vec ev4;
        bottom_eigpairs(L, std::min(i, 4), ev4, U);
        lam = ev4(0);  // compared between groups in the same arithmetic as before
      } else {
        U = te.vector_of(lam);
      }
      done[g] = 1;
      lams[g] = lam;
      nnulls[g] = nnull;
      Us[g] = U;
      cmin = std::min(cmin, lam);
      // bounds for the later steps (the top estimate is to 1e-6 of itself: padded)
      lo[g] = lam - 1e-12 * top;  // far beyond the rounding of the computed eigenvalues
      top_seen[g] = top * (1 + 1e-5) + DBL_MIN;
      nullfree[g] = nnull == 0 && lo[g] > kNull * top_seen[g];
    }
    for (int g = 0; g < m; ++g) {  // in group order, as when every group was computed
      if (!done[g]) continue;
      if (lams[g] < best) {
        best = lams[g];
        v = Us[g].col(0);
      }
      if (nnulls[g] > 0) {
        singular = true;
        for (int q = 0; q < nnulls[g]; ++q) w += Us[g].col(q).cwiseAbs2();
      }
    }
    std::vector<int> ident(i);
    for (int q = 0; q < i; ++q) ident[q] = q;
    const int p = first_max(singular ? w : v, ident, 0, i);
    degenerate += singular;
    std::swap(perm[p], perm[i - 1]);
    Rcpp::checkUserInterrupt();
  }
  IntegerVector out(n);
  for (int i = 0; i < n; ++i) out[i] = cand[perm[i]];
  return List::create(Rcpp::Named("order") = out, Rcpp::Named("degenerate") = degenerate);
}

namespace {

// Lower bound on the squared error of a group after adding r more columns from the pool P to the
// selected set: with E the current residual (R = E'E), the error after adding the columns T is
// ||E||^2 - ||P_W E||^2 with W = span(E[:, T]), a subspace of dimension <= r of span(E[:, P]);
// so it is at least ||E||^2 minus the sum of the r largest eigenvalues of E' P_{span E_P} E,
// which are the squared singular values of R[:, P] R[P, P]^{+1/2}.
double pool_bound(const Mat& R, const std::vector<int>& pool, int r) {
  const int q = static_cast<int>(pool.size()), d = static_cast<int>(R.rows());
  const double tr = R.trace();
  if (q == 0 || r <= 0) return tr;
  Mat S(q, q), C(d, q);
  for (int b = 0; b < q; ++b) {
    C.col(b) = R.col(pool[b]);
    for (int a = 0; a < q; ++a) S(a, b) = R(pool[a], pool[b]);
  }
  Eigen::SelfAdjointEigenSolver<Mat> es(S);
  const Vec& ev = es.eigenvalues();
  const double emax = ev.size() ? ev(ev.size() - 1) : 0;
  if (!(emax > 0)) return tr;
  std::vector<int> keep;
  for (int i = 0; i < q; ++i)
    if (ev(i) > 1e-12 * emax) keep.push_back(i);
  Mat W(q, keep.size());
  for (size_t i = 0; i < keep.size(); ++i) W.col(i) = es.eigenvectors().col(keep[i]) / std::sqrt(ev(keep[i]));
  Mat Z = C * W;
  Mat N = Z.transpose() * Z;
  Eigen::SelfAdjointEigenSolver<Mat> en(N, Eigen::EigenvaluesOnly);
  const Vec& lam = en.eigenvalues();  // ascending
  double top = 0;
  for (int i = 0; i < r && i < lam.size(); ++i) top += std::max(lam(lam.size() - 1 - i), 0.0);
  return tr - top;
}

struct Exhaustive {
  std::vector<Mat> G;
  std::vector<double> best2;
  int m, d, k;
  double best_val;
  std::vector<int> cur, best_set;
  double count, max_count;
  long long tick;
  // branch and bound
  bool bnb;
  double nodes, max_nodes, pruned, lower;
  bool out;

  void leaf(const std::vector<Resid>& R, int from) {
    const std::vector<char> all(d, 1);
    std::vector<Vec> cn(m), rn(m);
    std::vector<double> err2(m);
    for (int g = 0; g < m; ++g) {
      cn[g] = R[g].R.colwise().squaredNorm().transpose();
      rn[g] = R[g].residual_norms();
      err2[g] = rn[g].sum();
    }
    for (int j = from; j < d; ++j) {
      double v = 0;
      for (int g = 0; g < m; ++g) {
        double e = err2[g];
        const double rjj = rn[g](j);
        if (rjj > kDep * G[g](j, j) && rjj > 0 && R[g].R(j, j) > kGain * err2[g]) {
          e -= cn[g](j) / R[g].R(j, j);
        } else if (R[g].independent(j)) {
          e -= R[g].factor_gain(j, all);
        }
        v = std::max(v, std::sqrt(std::max(e, 0.0) / best2[g]));
      }
      count += 1;
      if (out) lower = std::min(lower, v);
      const bool better = best_set.empty() ? v <= best_val : v < best_val - kTie * std::abs(best_val);
      if (better) {
        best_val = v;
        best_set = cur;
        best_set.push_back(j);
      }
    }
  }

  // largest over the groups of the bound on the ratio after adding r more columns from j + 1 ..
  double bound(const std::vector<Resid>& R, int from, int r) {
    std::vector<int> pool;
    for (int j = from; j < d; ++j) pool.push_back(j);
    double v = 0;
    for (int g = 0; g < m; ++g) {
      const double lb = pool_bound(R[g].R, pool, r);
      v = std::max(v, std::sqrt(std::max(lb, 0.0) / best2[g]));
    }
    return v;
  }

  void rec(const std::vector<Resid>& R, int from, int depth) {
    if (depth == k - 1) {
      leaf(R, from);
      if (++tick % 64 == 0) Rcpp::checkUserInterrupt();
      return;
    }
    for (int j = from; j <= d - (k - depth); ++j) {
      std::vector<Resid> R2 = R;
      for (int g = 0; g < m; ++g) R2[g].add(j);
      const int left = k - depth - 1;  // columns still to add after j
      if (bnb && left >= 2) {
        const double lb = bound(R2, j + 1, left);
        nodes += 1;
        if (lb > best_val * (1 + 1e-9)) {
          pruned += 1;
          continue;
        }
        if (out) {
          lower = std::min(lower, lb);
          continue;
        }
        if (nodes > max_nodes) {
          out = true;
          lower = std::min(lower, lb);
          continue;
        }
      }
      cur.push_back(j);
      rec(R2, j + 1, depth + 1);
      cur.pop_back();
      if (count > max_count) return;
    }
  }
};

}  // namespace

// Exhaustive search over all k-subsets for the smallest max_g sqrt(error_g / best2_g).
// Lexicographic enumeration; a later subset replaces the incumbent only when smaller by a
// relative kTie, so the first optimal subset in lexicographic order is returned.
// With bnb = true, a branch and bound: `incumbent` (the value of the first k columns, which the
// caller makes a good set, e.g. the greedy one) bounds the search, and a subtree is skipped when the bound of
// pool_bound() on every completion exceeds the best value found so far (by a relative 1e-9).
// After `max_nodes` bound evaluations the search stops descending: the best set found is
// returned with a certified lower bound on the optimum (`lower`; equal to the objective when the
// search completed).
// [[Rcpp::export(.fp_css_exhaustive)]]
List fp_css_exhaustive(const List& grams, const List& factors, const NumericVector& best2, int k,
                       bool bnb = false, double incumbent = 1e308, double max_nodes = 1e308) {
  Exhaustive ex;
  ex.G = as_grams(grams);
  std::vector<Mat> Y = as_mats(factors);
  ex.m = static_cast<int>(ex.G.size());
  if (ex.m == 0 || static_cast<int>(Y.size()) != ex.m || best2.size() != ex.m) Rcpp::stop("bad arguments");
  ex.d = static_cast<int>(ex.G[0].rows());
  if (k < 1 || k > ex.d) Rcpp::stop("k out of range");
  ex.k = k;
  ex.best2.assign(best2.begin(), best2.end());
  ex.best_val = bnb ? incumbent * (1 + 1e-9) : R_PosInf;
  ex.count = 0;
  ex.max_count = R_PosInf;
  ex.tick = 0;
  ex.bnb = bnb;
  ex.nodes = 0;
  ex.pruned = 0;
  ex.max_nodes = max_nodes;
  ex.lower = R_PosInf;
  ex.out = false;
  std::vector<Resid> R0;
  for (int g = 0; g < ex.m; ++g) R0.push_back(Resid(ex.G[g], Y[g]));
  ex.rec(R0, 0, 0);
  if (ex.best_set.empty()) {
    // nothing below the incumbent was reached: the search stopped early, or on near-degenerate
    // data the downdated leaf values round above the incumbent's value (taken by QR): the
    // incumbent, which the caller passes as the first k columns, is then the answer
    if (!bnb) Rcpp::stop("internal: no subset had a finite MinMaxLoss (degenerate data); try a smaller k or centring");
    for (int j = 0; j < k; ++j) ex.best_set.push_back(j);
    ex.best_val = incumbent;
  }
  IntegerVector out(ex.best_set.begin(), ex.best_set.end());
  const double lower = ex.out ? std::min(ex.lower, ex.best_val) : ex.best_val;
  return List::create(Rcpp::Named("columns") = out, Rcpp::Named("objective") = ex.best_val,
                      Rcpp::Named("subsets") = ex.count, Rcpp::Named("nodes") = ex.nodes,
                      Rcpp::Named("pruned") = ex.pruned, Rcpp::Named("complete") = !ex.out,
                      Rcpp::Named("lower") = lower);
}
