// Rounding a fractional min-max solution to a low-rank one (Samadi et al. 2018, Tantipongpipat et
// al. 2019): Samadi et al.'s LP on the eigenbasis of the primal combination, solved to a vertex
// (at most m fractional eigenvalue weights, so rank at most k + m - 1); for two groups, a rank-k
// projection with equal losses by rotating between the two oracle projections that bracket the
// optimal weight. Included by minmax.cpp only.
#ifndef FAIRPROJ_MINMAX_ROUND_H
#define FAIRPROJ_MINMAX_ROUND_H

#include <limits>
#include <vector>
#include "linalg.h"
#include "fantope.h"
#include "simplex.h"
#include "minmax_oracle.h"

namespace fp {
namespace minmax {

// Samadi et al.'s LP on a fixed orthonormal basis U (d x r):
//   min z  s.t.  z + sum_j c_gj lambda_j >= a_g (all g),  sum_j lambda_j <= k,  0 <= lambda <= 1,
// with c_gj = u_j' C_g u_j; solved by the simplex method, so the solution is a vertex.
// Variables: lambda (r), z, slack per group (m), slack of the trace row, slack per bound (r).
struct LPRound {
  Vec lambda;
  double z;
  int status;
};

inline LPRound samadi_lp(const GroupMats& C, const Vec& a, int k, const Mat& U) {
  const int m = static_cast<int>(C.size()), r = static_cast<int>(U.cols());
  if (r == 0) {
    LPRound none;
    none.status = 1;
    none.z = std::numeric_limits<double>::quiet_NaN();
    return none;
  }
  Mat cg(m, r);
  for (int g = 0; g < m; ++g) cg.row(g) = (U.transpose() * C[g] * U).diagonal().transpose();
  const int nv = r + 1 + m + 1 + r;
  const int nr = m + 1 + r;
  Mat A = Mat::Zero(nr, nv);
  Vec b(nr), c = Vec::Zero(nv);
  for (int g = 0; g < m; ++g) {
    A.row(g).head(r) = cg.row(g);
    A(g, r) = 1.0;
    A(g, r + 1 + g) = -1.0;  // surplus
    b(g) = a(g);
  }
  A.row(m).head(r).setOnes();
  A(m, r + 1 + m) = 1.0;
  b(m) = std::min<double>(k, r);
  for (int j = 0; j < r; ++j) {
    A(m + 1 + j, j) = 1.0;
    A(m + 1 + j, r + 2 + m + j) = 1.0;
    b(m + 1 + j) = 1.0;
  }
  c(r) = 1.0;
  LPResult lp = simplex(A, b, c);
  LPRound out;
  out.status = lp.status;
  if (lp.status == 0) {
    out.lambda = lp.x.head(r);
    out.z = lp.x(r);
  }
  return out;
}

// Rank-k projection with equal losses for two groups from the two oracle projections that
// bracket the optimal weight: shared directions are kept, and inside the span of the
// directions where V_lo and V_hi differ a rank-p projection with <C_1 - C_2, Q> equal to the
// target is built by rotating eigenvectors of the restricted difference matrix.
inline bool two_group_rotate(const GroupMats& C, const Vec& a, int k, const Mat& Vlo, const Mat& Vhi,
                      Mat& Vout) {
  const int d = static_cast<int>(Vlo.rows());
  Eigen::JacobiSVD<Mat> svd(Vlo.transpose() * Vhi, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Vec& s = svd.singularValues();
  int r = 0;
  while (r < k && s(r) * s(r) > 0.5) ++r;
  if (r == k) return false;  // no tie: nothing to rotate
  const int p = k - r;
  Mat V1 = Vlo * svd.matrixU().leftCols(r);
  Mat S(d, 2 * p);
  S.leftCols(p) = Vlo * svd.matrixU().rightCols(p);
  S.rightCols(p) = Vhi * svd.matrixV().rightCols(p);
  // make S orthogonal to V1 and orthonormal
  if (r > 0) S -= V1 * (V1.transpose() * S);
  Mat E = range_basis(S, 1e-7, false);
  const int q = static_cast<int>(E.cols());
  if (q < p) return false;
  Mat Dm = C[0];  // one group at a time (C[g] may share one work matrix)
  Dm -= C[1];
  const double c = a(0) - a(1) - (r > 0 ? (V1.transpose() * Dm * V1).trace() : 0.0);
  Mat B = E.transpose() * Dm * E;
  fp::EigResult eb = fp::eig_sym_full((B + B.transpose()) / 2.0);  // decreasing
  const Vec& mu = eb.values;
  // start from the top-p set, swap its members for bottom ones until the target is crossed
  std::vector<int> cur(p);
  for (int i = 0; i < p; ++i) cur[i] = i;
  double val = mu.head(p).sum();
  Mat Q(q, p);
  for (int i = 0; i < p; ++i) Q.col(i) = eb.vectors.col(i);
  if (val <= c) {
    Vout.resize(d, k);
    if (r > 0) Vout.leftCols(r) = V1;
    Vout.rightCols(p) = E * Q;
    return true;
  }
  // candidates below: q-1, q-2, ... not in the top-p set
  int slot = p - 1;
  for (int j = q - 1; j >= p && slot >= 0; --j, --slot) {
    const double mi = mu(slot), mj = mu(j);
    const double newval = val - mi + mj;
    if (newval <= c) {
      // rotate e_slot toward e_j: contribution cos^2 mi + sin^2 mj = c - (val - mi)
      double cs2 = (mi - mj) > 0 ? (c - (val - mi) - mj) / (mi - mj) : 1.0;
      cs2 = std::min(1.0, std::max(0.0, cs2));
      Q.col(slot) = std::sqrt(cs2) * eb.vectors.col(slot) + std::sqrt(1.0 - cs2) * eb.vectors.col(j);
      Vout.resize(d, k);
      if (r > 0) Vout.leftCols(r) = V1;
      Vout.rightCols(p) = E * Q;
      return true;
    }
    val = newval;
    Q.col(slot) = eb.vectors.col(j);
  }
  Vout.resize(d, k);
  if (r > 0) Vout.leftCols(r) = V1;
  Vout.rightCols(p) = E * Q;
  return true;
}

}  // namespace minmax
}  // namespace fp

#endif
