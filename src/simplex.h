// A dense two-phase simplex method (Bland's rule) for the small linear programmes of the solvers
// (Kelley's master problem and Samadi et al.'s rounding LP in minmax.cpp):
//     min c'x  subject to  A x = b, x >= 0.
// Rows are equilibrated (each scaled to largest entry 1, duals mapped back), so the tolerances
// are relative whatever the units of each constraint. Returns status 0 = optimal, 1 = infeasible,
// 2 = unbounded, 3 = iteration limit; the solution x (a vertex), the duals y = c_B' B^-1 and the
// final basis.
#ifndef FAIRPROJ_SIMPLEX_H
#define FAIRPROJ_SIMPLEX_H

#include <limits>
#include <vector>
#include "linalg.h"
#include "tolerances.h"

namespace fp {

struct LPResult {
  int status;
  Vec x, y;
  double value;
  std::vector<int> basis;
};

// The pivot on T(leave, enter): row `leave` divided by the pivot, then T(i, j) -= T(i, enter) *
// T(leave, j) in every other row with T(i, enter) != 0. The same operation on each entry as the
// row updates `T.row(i) -= T(i, enter) * T.row(leave)`, done column by column: the tableau is
// column-major, and its rows (strided) made these updates most of the solver's time.
inline void simplex_pivot(Mat& T, int leave, int enter) {
  const int mr = static_cast<int>(T.rows()), ncol = static_cast<int>(T.cols());
  const double piv = T(leave, enter);
  std::vector<int> rows;
  std::vector<double> f;
  for (int i = 0; i < mr; ++i) {
    if (i != leave && T(i, enter) != 0.0) {
      rows.push_back(i);
      f.push_back(T(i, enter));
    }
  }
  const int nr = static_cast<int>(rows.size());
  if (nr == mr - 1) {
    // every other row changes: one rank-1 update (vectorised, entry by entry the same operation)
    Vec fv = T.col(enter);
    fv(leave) = 0.0;
    const Eigen::RowVectorXd trow = T.row(leave) / piv;
    T.noalias() -= fv * trow;
    T.row(leave) = trow;
    return;
  }
  for (int j = 0; j < ncol; ++j) {
    double* col = T.col(j).data();
    const double t = col[leave] / piv;
    col[leave] = t;
    for (int q = 0; q < nr; ++q) col[rows[q]] -= f[q] * t;
  }
}

inline LPResult simplex(const Mat& A0, const Vec& b0, const Vec& c) {
  const int mr = static_cast<int>(A0.rows()), n = static_cast<int>(A0.cols());
  LPResult res;
  res.status = 1;
  res.value = std::numeric_limits<double>::quiet_NaN();
  if (mr == 0 || n == 0 || !A0.allFinite() || !b0.allFinite() || !c.allFinite()) return res;
  Mat A = A0;
  Vec b = b0;
  // equilibrate the rows (each row scaled to largest entry 1; x is unchanged, duals are mapped
  // back below), so that tolerances are relative whatever the units of each constraint
  Vec sgn = Vec::Ones(mr);
  for (int i = 0; i < mr; ++i) {
    const double rmax = std::max(A.row(i).cwiseAbs().maxCoeff(), std::abs(b(i)));
    if (rmax > 0) { A.row(i) /= rmax; b(i) /= rmax; sgn(i) = 1.0 / rmax; }
  }
  for (int i = 0; i < mr; ++i)
    if (b(i) < 0) { A.row(i) *= -1.0; b(i) = -b(i); sgn(i) = -sgn(i); }
  // tableau: columns 0..n-1 structural, n..n+mr-1 artificial, last = rhs
  const int nc = n + mr;
  Mat T = Mat::Zero(mr, nc + 1);
  T.leftCols(n) = A;
  T.block(0, n, mr, mr).setIdentity();
  T.col(nc) = b;
  std::vector<int> basis(mr);
  for (int i = 0; i < mr; ++i) basis[i] = n + i;
  const double scale = std::max(1.0, A.cwiseAbs().maxCoeff());
  const double eps = 1e-11 * scale;
  auto run = [&](const Vec& cost, bool allow_art) -> int {
    // reduced costs r_j = cost_j - c_B' T_j
    for (int it = 0; it < 50000; ++it) {
      Vec cB(mr);
      for (int i = 0; i < mr; ++i) cB(i) = cost(basis[i]);
      Eigen::RowVectorXd r = cost.transpose() - cB.transpose() * T.leftCols(nc);
      int enter = -1;
      for (int j = 0; j < nc; ++j) {
        if (!allow_art && j >= n) break;
        if (r(j) < -eps) { enter = j; break; }  // Bland: smallest index
      }
      if (enter < 0) return 0;
      int leave = -1;
      double best = std::numeric_limits<double>::infinity();
      for (int i = 0; i < mr; ++i) {
        const double aij = T(i, enter);
        if (aij > eps) {
          const double ratio = T(i, nc) / aij;
          if (ratio < best - fp::tol::ratio_tie || (std::abs(ratio - best) <= fp::tol::ratio_tie && basis[i] < basis[leave])) {
            best = ratio;
            leave = i;
          }
        }
      }
      if (leave < 0) return 2;
      simplex_pivot(T, leave, enter);
      basis[leave] = enter;
    }
    return 3;
  };
  // phase 1
  Vec c1 = Vec::Zero(nc);
  c1.tail(mr).setOnes();
  int st = run(c1, true);
  double infeas = 0;
  for (int i = 0; i < mr; ++i)
    if (basis[i] >= n) infeas += T(i, nc);
  if (st != 0 || infeas > 1e-9 * std::max(1.0, b.cwiseAbs().maxCoeff())) {
    res.status = st != 0 ? st : 1;
    return res;
  }
  // drive artificial variables out of the basis where possible (degenerate rows)
  for (int i = 0; i < mr; ++i) {
    if (basis[i] < n) continue;
    for (int j = 0; j < n; ++j) {
      if (std::abs(T(i, j)) > 1e-9) {
        simplex_pivot(T, i, j);
        basis[i] = j;
        break;
      }
    }
  }
  // phase 2 (artificial columns kept at cost 0 but never entering)
  Vec c2 = Vec::Zero(nc);
  c2.head(n) = c;
  st = run(c2, false);
  res.status = st;
  res.x = Vec::Zero(n);
  for (int i = 0; i < mr; ++i)
    if (basis[i] < n) res.x(basis[i]) = T(i, nc);
  // duals: y' = c_B' B^-1, and B^-1 sits in the artificial columns
  Vec cB(mr);
  for (int i = 0; i < mr; ++i) cB(i) = c2(basis[i]);
  Vec y = (cB.transpose() * T.block(0, n, mr, mr)).transpose();
  res.y = y.cwiseProduct(sgn);
  res.value = c.dot(res.x);
  res.basis = basis;
  return res;
}

}  // namespace fp

#endif
