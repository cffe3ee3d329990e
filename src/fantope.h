// Geometry of the Fantope F_k = {P symmetric : 0 <= P <= I, tr P = k}, the convex hull of the
// rank-k orthogonal projections, shared by the solvers that optimise over it (cfpca.cpp,
// minmax.cpp):
//  * fantope_project: the Euclidean projection (eigenvalues shifted and clipped to [0, 1] with
//    sum k);
//  * fermi_dirac: the entropic maximiser of <M, X> + mu S(X) over F_k (Fermi-Dirac weights of the
//    eigenvalues), the smoothing of the sum of the k largest eigenvalues;
//  * combination_eigen: the eigenbasis of a convex combination of projections (a point of F_k),
//    on the range of the projections.
#ifndef FAIRPROJ_FANTOPE_H
#define FAIRPROJ_FANTOPE_H

#include <cfloat>
#include <vector>
#include "linalg.h"
#include "tolerances.h"

namespace fp {

// Shift theta such that sum_i clamp(lam_i - theta, 0, 1) = k (lam in any order).
inline double fantope_shift(const Vec& lam, int k) {
  double lo = lam.minCoeff() - 1.0, hi = lam.maxCoeff();
  for (int it = 0; it < 200; ++it) {
    double mid = 0.5 * (lo + hi);
    double s = 0.0;
    for (int i = 0; i < lam.size(); ++i) s += std::min(1.0, std::max(0.0, lam(i) - mid));
    if (s > k) lo = mid; else hi = mid;
    if (hi - lo <= fp::tol::bracket * std::max(1.0, std::fabs(mid))) break;
  }
  double theta = 0.5 * (lo + hi);
  auto total = [&](double th) {
    double s = 0.0;
    for (int i = 0; i < lam.size(); ++i) s += std::min(1.0, std::max(0.0, lam(i) - th));
    return s;
  };
  // exact solve on the linear piece that contains theta
  double sum_act = 0.0;
  int n_act = 0, n_one = 0;
  for (int i = 0; i < lam.size(); ++i) {
    double v = lam(i) - theta;
    if (v >= 1.0) ++n_one;
    else if (v > 0.0) { sum_act += lam(i); ++n_act; }
  }
  if (n_act > 0) {
    double t2 = (sum_act - (k - n_one)) / n_act;
    if (std::fabs(total(t2) - k) <= std::fabs(total(theta) - k)) theta = t2;
  }
  return theta;
}

// Euclidean projection onto the Fantope F_k.
inline Mat fantope_project(const Mat& X, int k, Mat* basis = nullptr) {
  Mat Xs = 0.5 * (X + X.transpose());
  fp::EigResult e = fp::eig_sym_full(Xs);
  double theta = fantope_shift(e.values, k);
  Vec g(e.values.size());
  for (int i = 0; i < g.size(); ++i) g(i) = std::min(1.0, std::max(0.0, e.values(i) - theta));
  int r = 0;
  for (int i = 0; i < g.size(); ++i) if (g(i) > 0) ++r;
  Mat U = e.vectors.leftCols(r);  // values are descending, so the positive weights come first
  if (basis) *basis = U;
  return U * g.head(r).asDiagonal() * U.transpose();
}

// (exp underflows, slowly, below -708: such terms are 0 to double precision anyway)
inline double sigmoid(double t) {
  if (t >= 0) return 1.0 / (1.0 + std::exp(-t));
  if (t < -700.0) return 0.0;
  const double e = std::exp(t);
  return e / (1.0 + e);
}
inline double softplus(double t) {
  return std::max(t, 0.0) + (std::abs(t) > 700.0 ? 0.0 : std::log1p(std::exp(-std::abs(t))));
}

// Fermi-Dirac weights with sum k (nu by Newton's method on the sum, safeguarded by bisection);
// returns h_mu = k nu + mu sum softplus, and the level nu in `nu_out` when given.
inline double fermi_dirac(const Vec& lam, int k, double mu, Vec& x, Vec& s, double* nu_out = nullptr) {
  const int d = static_cast<int>(lam.size());
  double lo = lam.minCoeff() - 60.0 * mu, hi = lam.maxCoeff() + 60.0 * mu;
  // f(nu) = sum sigma((lam - nu) / mu) - k, decreasing; fp its derivative
  auto f = [&](double nu, double& fp) {
    double t = 0, dt = 0;
    for (int i = 0; i < d; ++i) {
      const double si = sigmoid((lam(i) - nu) / mu);
      t += si;
      dt -= si * (1.0 - si) / mu;
    }
    fp = dt;
    return t - k;
  };
  double nu = (k < d) ? 0.5 * (lam(k - 1) + lam(k)) : 0.5 * (lo + hi);  // lam is decreasing
  if (!(nu > lo && nu < hi)) nu = 0.5 * (lo + hi);
  for (int it = 0; it < 200 && hi - lo > 4e-16 * std::max(std::abs(lo), std::abs(hi)); ++it) {
    double fp;
    const double fv = f(nu, fp);
    if (std::abs(fv) <= 4.0 * d * DBL_EPSILON) break;
    if (fv > 0) lo = nu; else hi = nu;
    double nn = (fp < 0) ? nu - fv / fp : 0.5 * (lo + hi);
    if (!(nn > lo && nn < hi)) nn = 0.5 * (lo + hi);
    nu = nn;
  }
  x.resize(d);
  s.resize(d);
  double h = k * nu, sx = 0;
  for (int i = 0; i < d; ++i) {
    const double t = (lam(i) - nu) / mu;
    x(i) = sigmoid(t);
    s(i) = sigmoid(t) * sigmoid(-t) / mu;
    h += mu * softplus(t);
    sx += x(i);
  }
  if (sx > k) x *= k / sx;  // keep tr X <= k (feasible) against rounding
  if (nu_out) *nu_out = nu;
  return h;
}

// Orthonormal basis of the range of S (d x c, c << d): eigenvectors of the small Gram matrix
// S'S, then re-orthonormalised; singular values below tol (relative to the largest, or absolute
// when relative = false) are dropped.
inline Mat range_basis(const Mat& S, double tol, bool relative = true) {
  if (S.cols() == 0 || S.rows() == 0) return Mat(S.rows(), 0);
  Mat G = S.transpose() * S;
  fp::EigResult e = fp::eig_sym_full((G + G.transpose()) / 2.0);
  const double smax = std::sqrt(std::max(e.values(0), 0.0));
  int r = 0;
  for (int i = 0; i < e.values.size(); ++i)
    if (std::sqrt(std::max(e.values(i), 0.0)) > tol * (relative ? smax : 1.0)) ++r;
  if (r == 0) return Mat(S.rows(), 0);
  Mat W = S * e.vectors.leftCols(r);
  for (int j = 0; j < r; ++j) W.col(j) /= std::sqrt(e.values(j));
  return fp::householder_q(W);
}

// Eigenbasis of a convex combination sum_t theta_t V_t V_t' restricted to its range.
inline void combination_eigen(const std::vector<Mat>& Vs, const std::vector<double>& theta, int d, Mat& U,
                       Vec& lam) {
  int tot = 0;
  for (size_t t = 0; t < Vs.size(); ++t)
    if (theta[t] > 0) tot += static_cast<int>(Vs[t].cols());
  Mat W;
  if (tot == 0) {  // no positive weight: nothing to combine
    U = Mat(d, 0);
    lam = Vec(0);
    return;
  }
  if (tot >= d) {
    W = Mat::Identity(d, d);
  } else {
    Mat S(d, tot);
    int c = 0;
    for (size_t t = 0; t < Vs.size(); ++t)
      if (theta[t] > 0) { S.middleCols(c, Vs[t].cols()) = Vs[t]; c += static_cast<int>(Vs[t].cols()); }
    W = range_basis(S, 1e-7);
  }
  if (W.cols() == 0) {
    U = Mat(d, 0);
    lam = Vec(0);
    return;
  }
  Mat Pw = Mat::Zero(W.cols(), W.cols());
  for (size_t t = 0; t < Vs.size(); ++t) {
    if (theta[t] <= 0) continue;
    Mat B = W.transpose() * Vs[t];
    Pw.noalias() += theta[t] * B * B.transpose();
  }
  fp::EigResult e = fp::eig_sym_full(Pw);
  U = W * e.vectors;
  lam = e.values.cwiseMax(0.0).cwiseMin(1.0);
}

}  // namespace fp

#endif
