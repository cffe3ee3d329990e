// Minimum-norm point of a convex hull (Wolfe 1976), the common direction of Pareto fair PCA's
// multiple-gradient descent (pareto.cpp).
#ifndef FAIRPROJ_PARETO_MINNORM_H
#define FAIRPROJ_PARETO_MINNORM_H

#include <vector>
#include "linalg.h"
#include "tolerances.h"

namespace fp {
namespace pareto {

using fp::Mat;
using fp::Vec;

// ---------------------------------------------------------------------------------------------
// Minimum-norm point of the convex hull of points given by their Gram matrix M (n x n, PSD):
// minimise lam' M lam over the probability simplex. Wolfe's (1976) nearest-point algorithm in
// Gram form: a corral S of affinely independent points, major cycles add the point most
// violating the optimality condition (M lam)_j >= lam' M lam, minor cycles move to the affine
// minimiser of the corral, dropping points whose weight would turn negative.
struct MinNormResult {
  Vec lambda;
  int iterations;
  double gap;  // lam'M lam - min_j (M lam)_j  (<= 0 up to rounding at the optimum)
};

inline Vec affine_min(const Mat& M, const std::vector<int>& S) {
  const int s = static_cast<int>(S.size());
  Mat K = Mat::Zero(s + 1, s + 1);
  for (int a = 0; a < s; ++a) {
    for (int b = 0; b < s; ++b) K(a, b) = M(S[a], S[b]);
    K(a, s) = 1.0;
    K(s, a) = 1.0;
  }
  Vec rhs = Vec::Zero(s + 1);
  rhs(s) = 1.0;
  Eigen::FullPivLU<Mat> lu(K);
  Vec sol = lu.isInvertible() ? Vec(lu.solve(rhs)) : Vec(K.completeOrthogonalDecomposition().solve(rhs));
  Vec alpha = sol.head(s);
  const double tot = alpha.sum();
  if (std::isfinite(tot) && std::abs(tot) > 0) alpha /= tot;  // guard against rounding drift
  return alpha;
}

inline MinNormResult min_norm_simplex(const Mat& M, double tol, int maxit) {
  const int n = static_cast<int>(M.rows());
  MinNormResult res;
  res.lambda = Vec::Zero(n);
  res.iterations = 0;
  if (n == 0) {
    res.gap = 0;
    return res;
  }
  const double scale = std::max(M.diagonal().maxCoeff(), fp::tol::tiny);
  Eigen::Index i0;
  M.diagonal().minCoeff(&i0);
  std::vector<int> S(1, static_cast<int>(i0));
  res.lambda(i0) = 1.0;
  for (int it = 0; it < maxit; ++it) {
    res.iterations = it + 1;
    Vec g = M * res.lambda;
    const double xx = res.lambda.dot(g);
    Eigen::Index j;
    const double gj = g.minCoeff(&j);
    if (gj >= xx - tol * scale) break;
    if (std::find(S.begin(), S.end(), static_cast<int>(j)) != S.end()) break;  // rounding
    S.push_back(static_cast<int>(j));
    // minor cycles
    for (int minor = 0; minor < 10 * n + 10; ++minor) {
      Vec alpha = affine_min(M, S);
      const int s = static_cast<int>(S.size());
      bool inside = true;
      for (int a = 0; a < s; ++a)
        if (!(alpha(a) > fp::tol::weight_zero)) inside = false;
      if (inside) {
        res.lambda.setZero();
        for (int a = 0; a < s; ++a) res.lambda(S[a]) = alpha(a);
        break;
      }
      double theta = 1.0;
      for (int a = 0; a < s; ++a) {
        const double la = res.lambda(S[a]);
        if (alpha(a) <= fp::tol::weight_zero && la - alpha(a) > 0) theta = std::min(theta, la / (la - alpha(a)));
      }
      std::vector<int> keep;
      for (int a = 0; a < s; ++a) {
        const double v = theta * alpha(a) + (1 - theta) * res.lambda(S[a]);
        res.lambda(S[a]) = v;
      }
      for (int a = 0; a < s; ++a) {
        if (res.lambda(S[a]) > fp::tol::weight_zero) {
          keep.push_back(S[a]);
        } else {
          res.lambda(S[a]) = 0;
        }
      }
      if (keep.empty()) {  // cannot happen in exact arithmetic; restart from the best vertex
        keep.push_back(S.back());
        res.lambda.setZero();
        res.lambda(S.back()) = 1.0;
      }
      S = keep;
      double tot = res.lambda.sum();
      res.lambda /= tot;
    }
  }
  Vec g = M * res.lambda;
  res.gap = res.lambda.dot(g) - g.minCoeff();
  return res;
}

}  // namespace pareto
}  // namespace fp

#endif
