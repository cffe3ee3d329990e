// The primal recovery of the interior dual of min-max fair PCA (minmax_dual.h): the problem
// restricted to a small subspace, solved by a primal barrier method on the Fantope
// (restricted_sdp) in the orthonormal basis of symmetric matrices (SymBasis). Included by
// minmax_dual.h only.
#ifndef FAIRPROJ_MINMAX_RESTRICTED_H
#define FAIRPROJ_MINMAX_RESTRICTED_H

#include <cmath>
#include <limits>
#include <vector>
#include "linalg.h"

namespace fp {
namespace minmax {

// The problem restricted to a small subspace (r x r matrices Ch_g), solved by a primal barrier
// method on the Fantope:
//     min  t z - sum_g log(z - a_g + <Ch_g, X>) - log det X - log det(I - X)   s.t. tr X = k,
// with Newton steps in the orthonormal basis of symmetric matrices and t increased geometrically.
// At a centre the barrier multipliers w_g = 1 / (t s_g) are dual weights (they sum to one), so
// every centre gives a primal upper bound max_g loss_g(X) and a dual lower bound g(w) (computed
// exactly by the caller). Returns false when r is too large or the iteration fails.
struct RestrictedOut {
  Mat X;     // r x r primal (Fantope)
  Vec w;     // dual weights
  double ub = std::numeric_limits<double>::infinity();
  double lb = -std::numeric_limits<double>::infinity();
};

// Symmetric r x r matrices as vectors of length n = r (r + 1) / 2 in the orthonormal basis E_p
// (e_i e_i' on the diagonal, (e_i e_j' + e_j e_i') / sqrt 2 off it), so that <S, T> = svec(S) .
// svec(T); position p holds the entry (pi[p], pj[p]), i <= j, column by column.
struct SymBasis {
  int r, n;
  double rt2;
  std::vector<int> pi, pj;
  explicit SymBasis(int r_) : r(r_), n(r_ * (r_ + 1) / 2), rt2(std::sqrt(2.0)), pi(n), pj(n) {
    int p = 0;
    for (int j = 0; j < r; ++j)
      for (int i = 0; i <= j; ++i) { pi[p] = i; pj[p] = j; ++p; }
  }
  Vec svec(const Mat& S) const {
    Vec v(n);
    for (int p = 0; p < n; ++p) v(p) = (pi[p] == pj[p]) ? S(pi[p], pi[p]) : rt2 * S(pi[p], pj[p]);
    return v;
  }
  Mat smat(const Vec& v) const {
    Mat S(r, r);
    for (int p = 0; p < n; ++p) {
      if (pi[p] == pj[p]) S(pi[p], pi[p]) = v(p);
      else { S(pi[p], pj[p]) = v(p) / rt2; S(pj[p], pi[p]) = v(p) / rt2; }
    }
    return S;
  }
  // K += K(A), K(A)[p, q] = <E_p, A E_q A> for a symmetric A (entrywise: A E_q A is a_i a_i' or
  // (a_i a_j' + a_j a_i') / sqrt 2 for the columns a_i, a_j of A, and <E_p, S> is S_kk or
  // sqrt 2 S_kl): the Hessian of -log det at X is K(X^{-1}).
  void add_kron(const Mat& A, Mat& K) const {
    for (int q = 0; q < n; ++q) {
      const int i = pi[q], j = pj[q];
      for (int p = 0; p < n; ++p) {
        const int kk = pi[p], l = pj[p];
        double v;
        if (i == j) v = (kk == l) ? A(kk, i) * A(kk, i) : rt2 * A(kk, i) * A(l, i);
        else v = (kk == l) ? rt2 * A(kk, i) * A(kk, j) : A(kk, i) * A(l, j) + A(kk, j) * A(l, i);
        K(p, q) += v;
      }
    }
  }
};

// The barrier of restricted_sdp() at (x = svec(X), z) for the weight t: +inf outside the domain;
// on request the inverses of X and I - X and the slacks s_g = z - a_g + <Ch_g, X>.
struct FantopeBarrier {
  const SymBasis& sb;
  const Mat& Cv;  // n x m, column g = svec(Ch_g)
  const Vec& a;
  double operator()(const Vec& xx, double zz, double tt, Mat* Xi, Mat* Yi, Vec* s) const {
    const int m = static_cast<int>(a.size()), r = sb.r;
    Mat X = sb.smat(xx);
    Eigen::LLT<Mat> l1(X), l2(Mat::Identity(r, r) - X);
    if (l1.info() != Eigen::Success || l2.info() != Eigen::Success) return std::numeric_limits<double>::infinity();
    Vec sg = Vec::Constant(m, zz) - a + Cv.transpose() * xx;
    if (!(sg.minCoeff() > 0)) return std::numeric_limits<double>::infinity();
    double v = tt * zz;
    for (int g = 0; g < m; ++g) v -= std::log(sg(g));
    v -= 2.0 * l1.matrixLLT().diagonal().array().log().sum();
    v -= 2.0 * l2.matrixLLT().diagonal().array().log().sum();
    if (Xi) *Xi = l1.solve(Mat::Identity(r, r));
    if (Yi) *Yi = l2.solve(Mat::Identity(r, r));
    if (s) *s = sg;
    return v;
  }
};

// The Newton direction (dx, dz) of the barrier on {tr X = k} (a KKT system with the trace row,
// diagonally scaled for conditioning) and its decrement squared `dec`. False when not finite.
inline bool barrier_newton(const SymBasis& sb, const Mat& Cv, const Vec& tr_v, const Mat& Xi, const Mat& Yi,
                           const Vec& s, double t, Vec& dx, double& dz, double& dec) {
  const int n = sb.n;
  Vec is = s.cwiseInverse(), is2 = is.cwiseProduct(is);
  Vec gx = -Cv * is - sb.svec(Xi) + sb.svec(Yi);
  const double gz = t - is.sum();
  Mat H = Mat::Zero(n + 2, n + 2);
  Mat Hxx = Cv * is2.asDiagonal() * Cv.transpose();
  sb.add_kron(Xi, Hxx);
  sb.add_kron(Yi, Hxx);
  H.topLeftCorner(n, n) = Hxx;
  Vec hxz = Cv * is2;
  H.block(0, n, n, 1) = hxz;
  H.block(n, 0, 1, n) = hxz.transpose();
  H(n, n) = is2.sum();
  H.block(0, n + 1, n, 1) = tr_v;
  H.block(n + 1, 0, 1, n) = tr_v.transpose();
  Vec rhs = Vec::Zero(n + 2);
  rhs.head(n) = -gx;
  rhs(n) = -gz;
  Vec dsc(n + 2);
  for (int p = 0; p < n + 1; ++p) dsc(p) = 1.0 / std::sqrt(std::max(H(p, p), 1e-300));
  dsc(n + 1) = 1.0;
  Mat Hs = dsc.asDiagonal() * H * dsc.asDiagonal();
  Vec sol = dsc.cwiseProduct(Hs.partialPivLu().solve(dsc.cwiseProduct(rhs)));
  dx = sol.head(n);
  dz = sol(n);
  if (!dx.allFinite() || !std::isfinite(dz)) return false;
  dec = -(gx.dot(dx) + gz * dz);
  return true;
}

// The step along (dx, dz) from a point of barrier value f0 and Newton decrement squared dec; 0
// when no step stays inside the domain.
// Far from the centre: the longest of the steps 1, 1/2, 1/4, ... down to the damped Newton step
// 1 / (1 + lambda) of a self-concordant function that decreases the barrier by a quarter of its
// predicted decrease (dec > 1/16 there, far above the rounding of the function values, which
// lose digits as t grows); the damped step itself needs no comparison (its decrease is
// guaranteed); full steps once close.
inline double barrier_step(const FantopeBarrier& fval, const Vec& x, double z, double t, const Vec& dx, double dz,
                           double f0, double dec) {
  const double lam = std::sqrt(dec);
  double step = 1.0;
  if (lam > 0.25) {
    const double damped = 1.0 / (1.0 + lam);
    while (step > damped) {
      const double fn = fval(x + step * dx, z + step * dz, t, nullptr, nullptr, nullptr);
      if (std::isfinite(fn) && fn <= f0 - 0.25 * step * dec) break;
      step *= 0.5;
    }
    step = std::max(step, damped);
  }
  for (int ls = 0; ls < 60; ++ls) {
    if (std::isfinite(fval(x + step * dx, z + step * dz, t, nullptr, nullptr, nullptr))) return step;
    step *= 0.5;
  }
  return 0.0;
}

// At a centre (x, z) for the weight t: the primal X and the dual weights w = 1 / (t s), their
// bounds recorded in `res` (`ok` set when the primal improves), and the rank-k rounding of X (its
// top-k eigenvectors), which replaces the primal when it reaches the caller's bound `target`.
// Returns 1 when done (the rounding reached the target), -1 when the slacks left the domain, 0
// otherwise.
inline int barrier_centre(const SymBasis& sb, const std::vector<Mat>& Ch, const Mat& Cv, const Vec& a, int k,
                          const Vec& x, double z, double t, double target, RestrictedOut& res, bool& ok) {
  const int m = static_cast<int>(Ch.size()), r = sb.r;
  Vec s = Vec::Constant(m, z) - a + Cv.transpose() * x;
  if (!(s.minCoeff() > 0)) return -1;
  Vec w = (t * s).cwiseInverse();
  w /= w.sum();
  Mat X = sb.smat(x);
  const Vec losses = a - Cv.transpose() * x;
  Mat Mw = Mat::Zero(r, r);
  for (int g = 0; g < m; ++g) Mw.noalias() += w(g) * Ch[g];
  fp::EigResult e = fp::eig_sym_full((Mw + Mw.transpose()) / 2.0);
  const double lbq = w.dot(a) - e.values.head(k).sum();
  if (losses.maxCoeff() < res.ub) { res.ub = losses.maxCoeff(); res.X = X; ok = true; }
  if (lbq > res.lb) { res.lb = lbq; res.w = w; }
  fp::EigResult ex = fp::eig_sym_full(X);
  const Mat B = ex.vectors.leftCols(k);
  double zr = -std::numeric_limits<double>::infinity();
  for (int g = 0; g < m; ++g) zr = std::max(zr, a(g) - (B.transpose() * Ch[g] * B).trace());
  if (zr <= target) {
    res.X = B * B.transpose();
    res.ub = zr;
    return 1;
  }
  return 0;
}

inline bool restricted_sdp(const std::vector<Mat>& Ch, const Vec& a, int k, double tol_abs, RestrictedOut& res,
                    double target = -std::numeric_limits<double>::infinity()) {
  const int m = static_cast<int>(Ch.size());
  const int r = static_cast<int>(Ch[0].rows());
  if (k <= 0 || k >= r || r > 40) return false;
  const SymBasis sb(r);
  Mat Cv(sb.n, m);
  double cscale = 0;
  for (int g = 0; g < m; ++g) { Cv.col(g) = sb.svec(Ch[g]); cscale = std::max(cscale, Ch[g].trace()); }
  if (!(cscale > 0) || !Cv.allFinite()) return false;
  const Vec tr_v = sb.svec(Mat::Identity(r, r));
  Vec x = sb.svec(Mat::Identity(r, r) * (static_cast<double>(k) / r));
  double z = (a - Cv.transpose() * x).maxCoeff() + 0.1 * cscale;
  const double nu_bar = m + 2.0 * r;
  double t = nu_bar / (0.1 * cscale);
  const FantopeBarrier fval{sb, Cv, a};
  bool ok = false;
  for (int outer = 0; outer < 80; ++outer) {
    // centre for this t by damped Newton steps
    for (int it = 0; it < 30; ++it) {
      Mat Xi, Yi;
      Vec s, dx;
      double dz = 0, dec = 0;
      const double f0 = fval(x, z, t, &Xi, &Yi, &s);
      if (!std::isfinite(f0)) return ok;
      if (!barrier_newton(sb, Cv, tr_v, Xi, Yi, s, t, dx, dz, dec)) return ok;
      if (!(dec > 1e-16)) break;
      const double step = barrier_step(fval, x, z, t, dx, dz, f0, dec);
      if (!(step > 0)) return ok;
      x += step * dx;
      z += step * dz;
      // keep tr X = k exactly against drift
      x += tr_v * ((k - tr_v.dot(x)) / tr_v.squaredNorm());
      if (dec < 1e-14) break;
    }
    const int c = barrier_centre(sb, Ch, Cv, a, k, x, z, t, target, res, ok);
    if (c > 0) return true;
    if (c < 0) return ok;
    if (res.ub - res.lb <= tol_abs) return true;
    if (t > 100.0 * nu_bar / tol_abs) return ok;
    t *= 8.0;
  }
  return ok;
}

}  // namespace minmax
}  // namespace fp

#endif
