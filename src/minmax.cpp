// Min-max fair PCA (Samadi et al. 2018; multi-group extension of Tantipongpipat et al. 2019).
//
// Problem (per group g: C_g = d x d covariance, a_g = offset, loss_g(P) = a_g - <C_g, P>):
//     min_{P in F} max_g loss_g(P),   F = {P symmetric : 0 <= P <= I, tr P = k}.
// Dual (Lagrangian over the simplex; strong duality holds as F is compact and convex):
//     max_{w in simplex} g(w),  g(w) = sum_g w_g a_g - (sum of the k largest eigenvalues of
//     sum_g w_g C_g).
// g is concave; at w the losses of the oracle projection P_w = top-k eigenprojector of
// sum_g w_g C_g form a supergradient, and g(w) = w . loss(P_w). Every oracle call therefore
// gives a lower bound g(w) and a cut; convex combinations of oracle projections are primal
// feasible and their losses are the same combinations of the loss vectors, so
// (upper - lower) certifies the distance to the optimum.
//
//  * two groups: safeguarded cutting-plane (secant on the supergradient) over t = w_1 in [0, 1];
//  * m groups: a path-following Newton method on the entropically smoothed dual, with the primal
//    recovered by a barrier method on a small subspace (smooth_dual); for large d the same on a
//    subspace grown by column generation with Lanczos eigenvectors (subspace_dual); Kelley's
//    cutting-plane method (the master LP solved by a dense simplex, its dual giving the primal
//    combination) as the fall-back and as an option;
//  * primal recovery: two groups -> rank-k projection with equal losses (rotation inside the
//    subspace where the two last oracle projections differ); m groups -> Samadi et al.'s LP on
//    the eigenbasis of the primal combination, solved to a vertex by the simplex method;
//  * multiplicative weights exactly as in Samadi et al.'s Appendix A, with an oracle whose
//    vectors beyond the resolved eigenvalues of sum_g w_g C_g are the limit of the exact ones
//    (Oracle::top_resolved()), so that no step depends on rounding noise.
#include "linalg.h"
#include <cfloat>
#include <Rcpp.h>
#include <functional>
#include <cstdlib>
#include <limits>

namespace {

using fp::Mat;
using fp::Vec;

// ---------------------------------------------------------------------------------------------
// Oracle: top-k eigenvectors of sum_g w_g C_g, warm-started Lanczos for large d.
struct Oracle {
  const std::vector<Mat>& C;
  Vec a;
  int k, d, m;
  Vec resid;  // warm start for Lanczos (sum of the previous eigenvectors)
  int calls, fallbacks;
  Oracle(const std::vector<Mat>& C_, const Vec& a_, int k_) : C(C_), a(a_), k(k_), calls(0), fallbacks(0) {
    d = static_cast<int>(C[0].rows());
    m = static_cast<int>(C.size());
  }
  Mat weighted(const Vec& w) const {
    Mat M = Mat::Zero(d, d);
    for (int g = 0; g < m; ++g)
      if (w(g) != 0.0) M.noalias() += w(g) * C[g];
    return M;
  }
  // Returns the top-k eigenvectors; `values` gets the top-k eigenvalues.
  Mat top(const Mat& M, Vec& values) {
    ++calls;
    if (fp::use_lanczos(d, k)) {
      const int ncv = std::min(d, std::max(2 * k + 1, k + 20));
      Vec r;
      if (resid.size() == d && resid.norm() > 0) {
        // mix in a fixed vector so the start is never orthogonal to a wanted direction
        r = resid / resid.norm() + Vec::Constant(d, 1e-3 / std::sqrt(static_cast<double>(d)));
      }
      fp::EigResult e;
      if (fp::lanczos_top(M, k, ncv, 1e-12, r.size() ? &r : nullptr, e)) {
        values = e.values;
        resid = e.vectors.rowwise().sum();
        return e.vectors;
      }
    }
    if (fp::use_lanczos(d, k)) ++fallbacks;
    fp::EigResult e = fp::eig_sym_full(M);
    values = e.values.head(k);
    return e.vectors.leftCols(k);
  }
  // The top-k eigenvectors of sum_g w_g C_g where that matrix does not resolve all of them:
  // when the top-k eigenvalues include some below kResolve times the largest (weights so
  // uneven that the heaviest groups have rank below k, e.g. MW's weights after a few steps:
  // (1, 1e-181, 1e-181) on a group of 5 rows), those are rounding noise of the heavy groups,
  // and the vectors returned for them would be decided by the rounding of the data, not by the
  // data (so rescaling the data by 3 changes them). The limit of the exact answer as the light
  // weights shrink is used instead: the resolved vectors V_r, completed by the top vectors of
  // sum_g w_g P C_g P (P the projector off V_r) over the groups that still have variance off
  // V_r (above kResolve of their own), with their weights divided by the largest of them;
  // repeated while that matrix leaves vectors unresolved. Where no group has variance left, the
  // completion comes from the unweighted sum (a projection that every loss ignores).
  Mat top_resolved(const Vec& w, Vec& values) {
    Mat V = top(weighted(w), values);
    const double kResolve = 1e-10;
    int r = 0;
    while (r < k && values(r) > kResolve * std::max(values(0), 0.0)) ++r;
    if (r == k) return V;
    Mat B = V.leftCols(r);
    Vec vals_out = values;
    std::vector<char> done(m, 0);
    while (r < k) {
      const Mat P = Mat::Identity(d, d) - B * B.transpose();
      std::vector<Mat> N(m);
      double wmax = 0;
      std::vector<int> live;
      for (int g = 0; g < m; ++g) {
        if (done[g]) continue;
        N[g] = P * C[g] * P;
        if (N[g].trace() > kResolve * C[g].trace() && w(g) >= 0) {
          live.push_back(g);
          wmax = std::max(wmax, w(g));
        } else {
          done[g] = 1;
        }
      }
      Mat M2 = Mat::Zero(d, d);
      if (live.empty()) {
        for (int g = 0; g < m; ++g) M2.noalias() += P * C[g] * P;
      } else {
        for (int g : live) M2.noalias() += (wmax > 0 ? w(g) / wmax : 1.0) * N[g];
      }
      M2 = (M2 + M2.transpose()) / 2;
      fp::EigResult e = fp::eig_sym_full(M2);
      const int q = k - r;
      const double top2 = std::max(e.values(0), 0.0);
      int r2 = 0;
      while (r2 < q && e.values(r2) > kResolve * top2) ++r2;
      if (r2 == 0 || live.empty()) r2 = q;  // nothing resolves them: take these
      Mat add = P * e.vectors.leftCols(r2);
      Mat Bn(d, r + r2);
      Bn << B, add;
      Eigen::HouseholderQR<Mat> qr(Bn);
      Mat Q = qr.householderQ() * Mat::Identity(d, r + r2);
      // keep the resolved vectors as they were (QR may flip signs); the new ones from Q
      Bn.rightCols(r2) = Q.rightCols(r2);
      B = Bn;
      for (int i = 0; i < r2; ++i) vals_out(r + i) = (B.col(r + i).transpose() * weighted(w) * B.col(r + i))(0, 0);
      r += r2;
      for (int g : live) done[g] = 0;
      if (live.empty()) break;
    }
    values = vals_out;
    return B;
  }
  // losses of the projection onto span(V)
  Vec losses(const Mat& V) const {
    Vec L(m);
    for (int g = 0; g < m; ++g) L(g) = a(g) - (V.transpose() * C[g] * V).trace();
    return L;
  }
};

// ---------------------------------------------------------------------------------------------
// Dense two-phase simplex (Bland's rule) for small LPs:  min c'x  s.t.  A x = b, x >= 0.
// Returns status 0 = optimal, 1 = infeasible, 2 = unbounded, 3 = iteration limit; x and the
// duals y (c_B' B^-1).
struct LPResult {
  int status;
  Vec x, y;
  double value;
  std::vector<int> basis;
};

LPResult simplex(const Mat& A0, const Vec& b0, const Vec& c) {
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
          if (ratio < best - 1e-14 || (std::abs(ratio - best) <= 1e-14 && basis[i] < basis[leave])) {
            best = ratio;
            leave = i;
          }
        }
      }
      if (leave < 0) return 2;
      const double piv = T(leave, enter);
      T.row(leave) /= piv;
      for (int i = 0; i < mr; ++i)
        if (i != leave && T(i, enter) != 0.0) T.row(i) -= T(i, enter) * T.row(leave);
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
        const double piv = T(i, j);
        T.row(i) /= piv;
        for (int r = 0; r < mr; ++r)
          if (r != i && T(r, j) != 0.0) T.row(r) -= T(r, j) * T.row(i);
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

// ---------------------------------------------------------------------------------------------
// Orthonormal basis of the range of S (d x c, c << d): eigenvectors of the small Gram matrix
// S'S, then re-orthonormalised; singular values below tol (relative to the largest, or absolute
// when relative = false) are dropped.
Mat range_basis(const Mat& S, double tol, bool relative = true) {
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
void combination_eigen(const std::vector<Mat>& Vs, const std::vector<double>& theta, int d, Mat& U,
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

// Samadi et al.'s LP on a fixed orthonormal basis U (d x r):
//   min z  s.t.  z + sum_j c_gj lambda_j >= a_g (all g),  sum_j lambda_j <= k,  0 <= lambda <= 1,
// with c_gj = u_j' C_g u_j; solved by the simplex method, so the solution is a vertex.
// Variables: lambda (r), z, slack per group (m), slack of the trace row, slack per bound (r).
struct LPRound {
  Vec lambda;
  double z;
  int status;
};

LPRound samadi_lp(const std::vector<Mat>& C, const Vec& a, int k, const Mat& U) {
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

double loss_scale(const std::vector<Mat>& C) {
  double s = 0;
  for (size_t g = 0; g < C.size(); ++g) s = std::max(s, C[g].trace());
  return std::max(s, 1e-300);
}

std::vector<Mat> to_mats(const Rcpp::List& covs) {
  std::vector<Mat> C;
  for (int g = 0; g < covs.size(); ++g) {
    Rcpp::NumericMatrix s = covs[g];
    Mat S = Eigen::Map<Mat>(s.begin(), s.nrow(), s.ncol());
    C.push_back((S + S.transpose()) / 2.0);
  }
  return C;
}

// Rank-k projection with equal losses for two groups from the two oracle projections that
// bracket the optimal weight: shared directions are kept, and inside the span of the
// directions where V_lo and V_hi differ a rank-p projection with <C_1 - C_2, Q> equal to the
// target is built by rotating eigenvectors of the restricted difference matrix.
bool two_group_rotate(const std::vector<Mat>& C, const Vec& a, int k, const Mat& Vlo, const Mat& Vhi,
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
  Mat Dm = C[0] - C[1];
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

}  // namespace

// ---------------------------------------------------------------------------------------------
// Smoothed dual, solved by a path-following (barrier) Newton method: for m > 2 groups.
//
// The sum of the k largest eigenvalues is smoothed by the Fermi-Dirac entropy,
//     h_mu(M) = max_{X in F} <M, X> + mu S(X) = min_nu k nu + mu sum_i softplus((l_i - nu) / mu),
// whose maximiser X_mu = U diag(x) U', x_i = sigma((l_i - nu) / mu), is feasible in F. With
// a log barrier beta sum_g log w_g on the simplex, Phi(w) = w.a - h_mu(sum_g w_g C_g) + beta
// sum log w_g is smooth and concave; its Hessian follows from the second derivative of spectral
// functions (divided differences of x on distinct eigenvalues, the Fermi-Dirac slopes and the
// trace constraint on the diagonal). Newton steps on the simplex, each needing one
// eigendecomposition, follow the path mu -> 0. Every iterate gives exact bounds: the lower bound
// g(w) = w.a - (sum of the k largest eigenvalues), and upper bounds from the losses of X_mu
// (feasible) and of the top-k projection. So the certificate never depends on the smoothing.
Rcpp::List minmax_exact_impl(const std::vector<Mat>& C, const Vec& a, int k, double tol, int maxit,
                             bool lp_round, double smooth, int dual);

// ---------------------------------------------------------------------------------------------
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

bool restricted_sdp(const std::vector<Mat>& Ch, const Vec& a, int k, double tol_abs, RestrictedOut& res,
                    double target = -std::numeric_limits<double>::infinity()) {
  const int m = static_cast<int>(Ch.size());
  const int r = static_cast<int>(Ch[0].rows());
  if (k <= 0 || k >= r || r > 40) return false;
  const int n = r * (r + 1) / 2;
  const double rt2 = std::sqrt(2.0);
  std::vector<int> pi(n), pj(n);
  {
    int p = 0;
    for (int j = 0; j < r; ++j)
      for (int i = 0; i <= j; ++i) { pi[p] = i; pj[p] = j; ++p; }
  }
  auto svec = [&](const Mat& S) {
    Vec v(n);
    for (int p = 0; p < n; ++p) v(p) = (pi[p] == pj[p]) ? S(pi[p], pi[p]) : rt2 * S(pi[p], pj[p]);
    return v;
  };
  auto smat = [&](const Vec& v) {
    Mat S(r, r);
    for (int p = 0; p < n; ++p) {
      if (pi[p] == pj[p]) S(pi[p], pi[p]) = v(p);
      else { S(pi[p], pj[p]) = v(p) / rt2; S(pj[p], pi[p]) = v(p) / rt2; }
    }
    return S;
  };
  Mat Cv(n, m);
  double cscale = 0;
  for (int g = 0; g < m; ++g) { Cv.col(g) = svec(Ch[g]); cscale = std::max(cscale, Ch[g].trace()); }
  if (!(cscale > 0) || !Cv.allFinite()) return false;
  const Vec tr_v = svec(Mat::Identity(r, r));
  Vec x = svec(Mat::Identity(r, r) * (static_cast<double>(k) / r));
  double z = (a - Cv.transpose() * x).maxCoeff() + 0.1 * cscale;
  const double nu_bar = m + 2.0 * r;
  double t = nu_bar / (0.1 * cscale);
  // barrier value; +inf outside the domain
  auto fval = [&](const Vec& xx, double zz, double tt, Mat* Xi, Mat* Yi, Vec* s) {
    Mat X = smat(xx);
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
  };
  // K(A)[p, q] = <E_p, A E_q A>
  // (entrywise, A symmetric: A E_q A is a_i a_i' or (a_i a_j' + a_j a_i') / sqrt 2 for the
  // columns a_i, a_j of A, and <E_p, S> is S_kk or sqrt 2 S_kl)
  auto kron_sym = [&](const Mat& A, Mat& K) {
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
  };
  bool ok = false, failed = false;
  for (int outer = 0; outer < 80; ++outer) {
    for (int it = 0; it < 30; ++it) {
      Mat Xi, Yi;
      Vec s;
      const double f0 = fval(x, z, t, &Xi, &Yi, &s);
      if (!std::isfinite(f0)) return ok;
      Vec is = s.cwiseInverse(), is2 = is.cwiseProduct(is);
      Vec gx = -Cv * is - svec(Xi) + svec(Yi);
      const double gz = t - is.sum();
      Mat H = Mat::Zero(n + 2, n + 2);
      Mat Hxx = Cv * is2.asDiagonal() * Cv.transpose();
      kron_sym(Xi, Hxx);
      kron_sym(Yi, Hxx);
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
      // diagonal scaling for conditioning
      Vec dsc(n + 2);
      for (int p = 0; p < n + 1; ++p) dsc(p) = 1.0 / std::sqrt(std::max(H(p, p), 1e-300));
      dsc(n + 1) = 1.0;
      Mat Hs = dsc.asDiagonal() * H * dsc.asDiagonal();
      Vec sol = dsc.cwiseProduct(Hs.partialPivLu().solve(dsc.cwiseProduct(rhs)));
      Vec dx = sol.head(n);
      const double dz = sol(n);
      if (!dx.allFinite() || !std::isfinite(dz)) return ok;
      const double dec = -(gx.dot(dx) + gz * dz);
      if (!(dec > 1e-16)) break;
      // far from the centre: the longest of the steps 1, 1/2, 1/4, ... down to the damped Newton
      // step 1 / (1 + lambda) of a self-concordant function that decreases the barrier by a
      // quarter of its predicted decrease (dec > 1/16 there, far above the rounding of the
      // function values, which lose digits as t grows); the damped step itself needs no
      // comparison (its decrease is guaranteed); full steps once close
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
      bool acc = false;
      for (int ls = 0; ls < 60; ++ls) {
        if (std::isfinite(fval(x + step * dx, z + step * dz, t, nullptr, nullptr, nullptr))) { acc = true; break; }
        step *= 0.5;
      }
      if (!acc) { failed = true; break; }
      x += step * dx;
      z += step * dz;
      // keep tr X = k exactly against drift
      x += tr_v * ((k - tr_v.dot(x)) / tr_v.squaredNorm());
      if (dec < 1e-14) break;
    }
    if (failed) return ok;
    Vec s = Vec::Constant(m, z) - a + Cv.transpose() * x;
    if (!(s.minCoeff() > 0)) return ok;
    Vec w = (t * s).cwiseInverse();
    w /= w.sum();
    Mat X = smat(x);
    const Vec losses = a - Cv.transpose() * x;
    Mat Mw = Mat::Zero(r, r);
    for (int g = 0; g < m; ++g) Mw.noalias() += w(g) * Ch[g];
    fp::EigResult e = fp::eig_sym_full((Mw + Mw.transpose()) / 2.0);
    const double lbq = w.dot(a) - e.values.head(k).sum();
    if (losses.maxCoeff() < res.ub) { res.ub = losses.maxCoeff(); res.X = X; ok = true; }
    if (lbq > res.lb) { res.lb = lbq; res.w = w; }
    // the rank-k rounding of the centre (its top-k eigenvectors): done when it reaches the
    // caller's certified bound `target`
    {
      fp::EigResult ex = fp::eig_sym_full(X);
      const Mat B = ex.vectors.leftCols(k);
      double zr = -std::numeric_limits<double>::infinity();
      for (int g = 0; g < m; ++g) zr = std::max(zr, a(g) - (B.transpose() * Ch[g] * B).trace());
      if (zr <= target) {
        res.X = B * B.transpose();
        res.ub = zr;
        return true;
      }
    }
    if (res.ub - res.lb <= tol_abs) return true;
    if (t > 100.0 * nu_bar / tol_abs) return ok;
    t *= 8.0;
  }
  return ok;
}

struct SmoothOut {
  bool converged = false;
  Vec w;            // weights of the best lower bound
  double lb = -std::numeric_limits<double>::infinity();
  double ub = std::numeric_limits<double>::infinity();
  Mat U;            // primal of the best upper bound: U diag(x) U' (x may be all ones: rank k)
  Vec x;
  int steps = 0;
};

// Account one evaluation of the dual at ww: the rank-k cut (top-k eigenvectors Vk, whose losses
// are the supergradient), the lower bound g(ww) = ww.a - (sum of the k largest eigenvalues) and
// the projection onto span(Vk) as an upper-bound candidate.
void note_cut(SmoothOut& out, const std::vector<Mat>& C, const Vec& a, const Vec& ww, const Mat& Vk,
              double topk_sum, const std::function<void(const Mat&, const Vec&, const Vec&)>& record) {
  const int m = static_cast<int>(C.size());
  const int k = static_cast<int>(Vk.cols());
  Vec L(m);
  for (int g = 0; g < m; ++g) L(g) = a(g) - (Vk.transpose() * C[g] * Vk).trace();
  record(Vk, L, ww);
  const double g_w = ww.dot(a) - topk_sum;
  if (g_w > out.lb) { out.lb = g_w; out.w = ww; }
  if (L.maxCoeff() < out.ub) { out.ub = L.maxCoeff(); out.U = Vk; out.x = Vec::Ones(k); }
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
// returns h_mu = k nu + mu sum softplus.
double fermi_dirac(const Vec& lam, int k, double mu, Vec& x, Vec& s) {
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
  return h;
}

SmoothOut smooth_dual(const std::vector<Mat>& C, const Vec& a, int k, double tol, int max_eigs,
                      double scale, const std::function<void(const Mat&, const Vec&, const Vec&)>& record,
                      int& eig_calls, std::vector<double>& h_lb, std::vector<double>& h_ub,
                      bool hand_over = false) {
  const int m = static_cast<int>(C.size());
  const int d = static_cast<int>(C[0].rows());
  SmoothOut out;
  out.w = Vec::Constant(m, 1.0 / m);
  Vec w = out.w;
  // one eigendecomposition of sum_g w_g C_g, its bounds and the rank-k cut
  struct Point { Vec w; Vec lam; Mat U; };
  auto decompose = [&](const Vec& ww, Point& p) {
    Mat M = Mat::Zero(d, d);
    for (int g = 0; g < m; ++g) M.noalias() += ww(g) * C[g];
    fp::EigResult e = fp::eig_sym_full(M);
    ++eig_calls;
    p.w = ww;
    p.lam = e.values;
    p.U = e.vectors;
    note_cut(out, C, a, ww, p.U.leftCols(k), p.lam.head(k).sum(), record);
    return e.values.allFinite() && e.vectors.allFinite();
  };
  auto gap_ok = [&]() {
    return out.ub - out.lb <= tol * std::max(std::abs(out.ub), 1e-12 * scale);
  };
  Point p;
  if (!decompose(w, p)) return out;
  const double spread = std::max(p.lam(0) - p.lam(d - 1), 1e-12 * scale);
  double mu = 0.05 * spread / std::max(1.0, std::sqrt(static_cast<double>(d)));
  const double beta_fac = 1.0 / m;  // barrier weight on the simplex, relative to mu
  const double mu_fac = 0.1;         // mu shrinks tenfold at each centre
  const double cen = 3.0;            // centred: own gap within 3x what mu and beta allow
  int same_mu = 0;
  double ubx = 0;
  double mu_tried = std::numeric_limits<double>::infinity();
  Vec x, s;
  // Phi at a decomposed point for the current mu (the smoothed dual plus the barrier)
  auto phi = [&](const Point& q, double beta) {
    Vec xx, ss;
    const double h = fermi_dirac(q.lam, k, mu, xx, ss);
    double v = q.w.dot(a) - h;
    for (int g = 0; g < m; ++g) v += beta * std::log(q.w(g));
    return v;
  };
  // Primal recovery on a subspace: the dual path identifies the eigenvectors that carry the
  // optimal primal (those with a non-negligible Fermi-Dirac weight); the problem restricted to
  // them (r x r matrices) is solved exactly by Kelley's method, whose rounded primal is feasible
  // for the full problem and whose dual weights are then checked on the full problem.
  auto try_restricted = [&](const Point& q) -> bool {
    Vec xx, ss;
    fermi_dirac(q.lam, k, mu, xx, ss);
    int r = k;
    while (r < d && xx(r) > 1e-8) ++r;
    r = std::min(d, r + 2);
    // the leading eigenvectors whose weight is 1 to 8 digits are kept in the projection; the
    // rest of the subspace (the cluster around the k-th eigenvalue) carries the small problem,
    // whose Newton systems grow as the square of its size (the certificate below is exact
    // whatever is pinned: a wrong pin only delays it)
    int pin = 0;
    while (pin < k - 1 && xx(pin) >= 1.0 - 1e-8) ++pin;
    const int c = r - pin, kc = k - pin;
    if (kc <= 0 || kc >= c || c > 40 || eig_calls >= max_eigs) return false;
    Mat Qin = q.U.leftCols(pin), Q = q.U.middleCols(pin, c);
    std::vector<Mat> Ch(m);
    Vec ac(m);
    for (int g = 0; g < m; ++g) {
      Ch[g] = Q.transpose() * C[g] * Q;
      Ch[g] = (Ch[g] + Ch[g].transpose()) / 2.0;
      ac(g) = a(g) - (pin > 0 ? (Qin.transpose() * C[g] * Qin).trace() : 0.0);
    }
    RestrictedOut ro;
    const double tol_abs = 0.25 * tol * std::max(std::abs(out.lb), 1e-12 * scale);
    // a rank-k rounding that meets the current lower bound to the tolerance ends it early
    const double target = out.lb + tol * std::max(std::abs(out.lb), 1e-12 * scale);
    if (!restricted_sdp(Ch, ac, kc, tol_abs, ro, target) || ro.X.rows() == 0) return false;
    fp::EigResult ex = fp::eig_sym_full(ro.X);
    Mat Bq = ex.vectors;
    Vec lq = ex.values.cwiseMax(0.0).cwiseMin(1.0);
    if (lq.sum() > kc) lq *= kc / lq.sum();
    Vec wq = ro.w;
    Vec Lq(m);
    for (int g = 0; g < m; ++g) Lq(g) = ac(g) - ((Bq.transpose() * Ch[g] * Bq).diagonal().array() * lq.array()).sum();
    if (Lq.maxCoeff() < out.ub) {
      out.ub = Lq.maxCoeff();
      out.U.resize(d, pin + c);
      out.U << Qin, Q * Bq;
      out.x.resize(pin + c);
      out.x << Vec::Ones(pin), lq;
    }
    if (gap_ok()) return true;
    if (wq.size() != m) return false;
    wq = wq.cwiseMax(0.0);
    if (!(wq.sum() > 0)) return false;
    wq /= wq.sum();
    Point pq;
    decompose(wq, pq);
    return gap_ok();
  };
  while (eig_calls < max_eigs) {
    Rcpp::checkUserInterrupt();
    const double beta = mu * beta_fac;
    fermi_dirac(p.lam, k, mu, x, s);
    // prefix of the spectrum with non-negligible weight (at least the top k)
    int t = k;
    while (t < d && x(t) > 1e-15) ++t;
    // rows T of U' C_g U, the losses of X_mu and the Hessian of h_mu(M(w))
    std::vector<Mat> R(m);
    Mat UT = p.U.leftCols(t);
    Vec ell(m);
    for (int g = 0; g < m; ++g) {
      R[g] = (C[g] * UT).transpose() * p.U;  // t x d
      double v = a(g);
      for (int i = 0; i < t; ++i) v -= x(i) * R[g](i, i);
      ell(g) = v;
    }
    ubx = ell.maxCoeff();
    double ent = 0;
    for (int i = 0; i < t; ++i) {
      const double xi = std::min(std::max(x(i), 1e-300), 1.0);
      if (xi > 0 && xi < 1) ent -= xi * std::log(xi) + (1 - xi) * std::log1p(-xi);
    }
    const double g_here = w.dot(a) - p.lam.head(k).sum();
    if (ell.maxCoeff() < out.ub) {
      out.ub = ell.maxCoeff();
      out.U = UT;
      out.x = x.head(t);
    }
    h_lb.push_back(out.lb);
    h_ub.push_back(out.ub);
    if (gap_ok()) { out.converged = true; break; }
    // divided differences Gamma (t x d), pairs i in T, j != i
    Mat G(t, d);
    for (int i = 0; i < t; ++i)
      for (int j = 0; j < d; ++j) {
        if (i == j) { G(i, j) = 0; continue; }
        const double dl = p.lam(i) - p.lam(j);
        G(i, j) = (std::abs(dl) > 1e-6 * mu) ? (x(i) - x(j)) / dl : 0.5 * (s(i) + s(j));
        if (j >= t) G(i, j) *= 2.0;  // the pair (j, i) is not among the rows
      }
    Mat H = Mat::Zero(m, m);
    std::vector<Mat> RG(m);
    for (int g = 0; g < m; ++g) RG[g] = R[g].cwiseProduct(G);
    Mat Dg(t, m);
    for (int g = 0; g < m; ++g) Dg.col(g) = R[g].diagonal().head(t);
    for (int g = 0; g < m; ++g)
      for (int h2 = g; h2 < m; ++h2) {
        H(g, h2) = (RG[g].cwiseProduct(R[h2])).sum();
        H(h2, g) = H(g, h2);
      }
    const Vec sT = s.head(t);
    const double ssum = sT.sum();
    Mat DS = Dg.transpose() * sT.asDiagonal() * Dg;
    if (ssum > 0) {
      Vec q = Dg.transpose() * sT;
      DS.noalias() -= q * q.transpose() / ssum;
    }
    H += DS;
    Vec grad(m);  // gradient of -Phi
    for (int g = 0; g < m; ++g) {
      grad(g) = -ell(g) - beta / w(g);
      H(g, g) += beta / (w(g) * w(g));
    }
    // Newton step on {sum Delta = 0}: diagonally scaled KKT system
    Vec dsc(m);
    for (int g = 0; g < m; ++g) dsc(g) = 1.0 / std::sqrt(std::max(H(g, g), 1e-300));
    Mat K = Mat::Zero(m + 1, m + 1);
    K.topLeftCorner(m, m) = dsc.asDiagonal() * H * dsc.asDiagonal();
    K.block(0, m, m, 1) = dsc;
    K.block(m, 0, 1, m) = dsc.transpose();
    Vec rhs = Vec::Zero(m + 1);
    rhs.head(m) = -dsc.cwiseProduct(grad);
    Vec sol = K.fullPivLu().solve(rhs);
    Vec dw = dsc.cwiseProduct(sol.head(m));
    if (!dw.allFinite()) break;
    const double dec = -grad.dot(dw);  // Newton decrement squared
    if (!(dec > 0)) {
      mu *= 0.1;
      if (mu < 1e-18 * scale) break;
      continue;
    }
    // the barrier is centred enough: shrink mu (no new eigendecomposition needed)
    // centred enough: the point's own gap is within a few times what the smoothing and the
    // barrier allow; then shrink mu (no new eigendecomposition needed)
    if (ubx - g_here <= cen * (m * beta + mu * ent) || same_mu >= 12) {
      same_mu = 0;
      if (mu <= 1e-3 * spread && mu <= 0.02 * mu_tried) {
        const int before = eig_calls;
        if (try_restricted(p)) { out.converged = true; break; }
        mu_tried = mu;
        // the restricted primal is within twice the tolerance but its weights do not certify it
        // (near a kink of the dual their digits run out): with `hand_over`, Kelley's method
        // closes the gap from the cuts so far, in fewer evaluations than another round of the path
        if (hand_over && eig_calls > before && out.ub - out.lb <= 2.0 * tol * std::max(std::abs(out.ub), 1e-12 * scale)) break;
      }
      mu *= mu_fac;
      if (mu < 1e-18 * scale) break;
      continue;
    }
    double tmax = 1.0;
    for (int g = 0; g < m; ++g)
      if (dw(g) < 0) tmax = std::min(tmax, -0.95 * w(g) / dw(g));
    // the first step after mu shrinks: the damped Newton step (the centre moved); otherwise
    // the largest step inside the simplex, backtracking on Phi
    double step = (same_mu == 0) ? std::min(tmax, 1.0 / (1.0 + std::sqrt(dec / beta))) : tmax;
    ++same_mu;
    const double phi0 = phi(p, beta);
    bool accepted = false;
    for (int ls = 0; ls < 30 && eig_calls < max_eigs; ++ls) {
      Vec wn = w + step * dw;
      wn = wn.cwiseMax(1e-300);
      wn /= wn.sum();
      Point pn;
      if (!decompose(wn, pn)) break;
      if (phi(pn, beta) >= phi0 + 0.1 * step * dec || step * dw.cwiseAbs().maxCoeff() < 1e-15) {
        p = pn;
        w = wn;
        accepted = true;
        break;
      }
      step *= 0.3;
    }
    ++out.steps;
    if (!accepted) {
      if (gap_ok()) { out.converged = true; break; }
      mu *= 0.1;
      if (mu < 1e-18 * scale) break;
    }
    if (gap_ok()) { out.converged = true; break; }
  }
  if (gap_ok()) out.converged = true;
  h_lb.push_back(out.lb);
  h_ub.push_back(out.ub);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Large d: the same dual on a growing subspace (column generation with eigenvectors). The
// problem restricted to span(Q) (r x r matrices Q' C_g Q) is solved by smooth_dual; its
// primal is feasible for the full problem (an upper bound) and its dual weights w_Q are
// checked by one top-(k + p) Lanczos eigensolve of the full sum_g w_g C_g, which gives the
// exact lower bound g(w_Q) and the eigenvectors added to Q when the gap is still open. Once Q
// holds the optimal primal's range and the eigenvectors at the optimal weights, the two bounds
// meet; only the full eigensolves are counted as oracle calls.
SmoothOut subspace_dual(const std::vector<Mat>& C, const Vec& a, int k, double tol, int max_eigs,
                        double scale, const std::function<void(const Mat&, const Vec&, const Vec&)>& record,
                        int& eig_calls, int& inner_calls, std::vector<double>& h_lb, std::vector<double>& h_ub) {
  const int m = static_cast<int>(C.size());
  const int d = static_cast<int>(C[0].rows());
  const int kp = std::min(d - 1, k + std::max(5, k));
  const int rmax = std::min(d - 1, std::max(3 * kp, kp + 2 * m + 10));
  SmoothOut out;
  out.w = Vec::Constant(m, 1.0 / m);
  Mat Q(d, 0);
  std::vector<Mat> CQ(m, Mat(d, 0));
  auto gap_ok = [&]() { return out.ub - out.lb <= tol * std::max(std::abs(out.ub), 1e-12 * scale); };
  // append the part of V orthogonal to Q (two Gram-Schmidt passes)
  auto add_vectors = [&](const Mat& V) {
    Mat W = V;
    for (int pass = 0; pass < 2; ++pass)
      if (Q.cols() > 0) W -= Q * (Q.transpose() * W);
    std::vector<int> keep;
    for (int j = 0; j < W.cols(); ++j) {
      for (int i : keep) W.col(j) -= W.col(i) * W.col(i).dot(W.col(j));
      const double nrm = W.col(j).norm();
      if (nrm > 1e-8) { W.col(j) /= nrm; keep.push_back(j); }
    }
    if (keep.empty()) return;
    Mat Wn(d, keep.size());
    for (size_t j = 0; j < keep.size(); ++j) Wn.col(j) = W.col(keep[j]);
    Mat Qn(d, Q.cols() + Wn.cols());
    Qn << Q, Wn;
    Q = Qn;
    for (int g = 0; g < m; ++g) {
      Mat Cn(d, Q.cols());
      Cn << CQ[g], C[g] * Wn;
      CQ[g] = Cn;
    }
  };
  auto full_eval = [&](const Vec& ww) -> Mat {
    Mat M = Mat::Zero(d, d);
    for (int g = 0; g < m; ++g)
      if (ww(g) != 0.0) M.noalias() += ww(g) * C[g];
    fp::EigResult e = fp::eig_sym_top(M, kp);
    ++eig_calls;
    note_cut(out, C, a, ww, e.vectors.leftCols(k), e.values.head(k).sum(), record);
    return e.vectors;
  };
  Vec w = out.w;
  Mat V = full_eval(w);
  add_vectors(V);
  auto noop = [](const Mat&, const Vec&, const Vec&) {};
  while (eig_calls < max_eigs && !gap_ok()) {
    Rcpp::checkUserInterrupt();
    std::vector<Mat> Ch(m);
    for (int g = 0; g < m; ++g) {
      Ch[g] = Q.transpose() * CQ[g];
      Ch[g] = (Ch[g] + Ch[g].transpose()) / 2.0;
    }
    std::vector<double> hl, hu;
    SmoothOut rs = smooth_dual(Ch, a, k, 0.25 * tol, 400, scale, noop, inner_calls, hl, hu);
    if (rs.U.cols() == 0 || !rs.U.allFinite() || !rs.x.allFinite() || !rs.w.allFinite()) break;
    if (rs.ub < out.ub) { out.ub = rs.ub; out.U = Q * rs.U; out.x = rs.x; }
    h_lb.push_back(out.lb);
    h_ub.push_back(out.ub);
    if (gap_ok()) break;
    Vec wq = rs.w.cwiseMax(0.0);
    if (!(wq.sum() > 0)) break;
    wq /= wq.sum();
    V = full_eval(wq);
    if (gap_ok()) break;
    if (Q.cols() + kp > rmax) {
      // compress: the range of the restricted primal, then the newest eigenvectors
      Mat keepU(d, 0);
      int c = 0;
      for (int j = 0; j < rs.x.size(); ++j) if (rs.x(j) > 1e-12) ++c;
      keepU.resize(d, c);
      c = 0;
      for (int j = 0; j < rs.x.size(); ++j) if (rs.x(j) > 1e-12) keepU.col(c++) = Q * rs.U.col(j);
      Q = Mat(d, 0);
      for (int g = 0; g < m; ++g) CQ[g] = Mat(d, 0);
      add_vectors(keepU);
    }
    const int before = static_cast<int>(Q.cols());
    add_vectors(V);
    if (Q.cols() == before) break;  // nothing new: the subspace cannot improve
  }
  if (gap_ok()) out.converged = true;
  h_lb.push_back(out.lb);
  h_ub.push_back(out.ub);
  return out;
}

// Exact solver. covs: list of d x d matrices, a: offsets, k, tol (relative gap), maxit.
// [[Rcpp::export(.fp_minmax_exact)]]
Rcpp::List fp_minmax_exact(Rcpp::List covs, Rcpp::NumericVector a_, int k, double tol, int maxit,
                           bool lp_round, double smooth = 0.5, int dual = 1) {
  return minmax_exact_impl(to_mats(covs), Rcpp::as<Vec>(a_), k, tol, maxit, lp_round, smooth, dual);
}

Rcpp::List minmax_exact_impl(const std::vector<Mat>& C, const Vec& a, int k, double tol, int maxit,
                             bool lp_round, double smooth, int dual) {
  const int m = static_cast<int>(C.size());
  const int d = static_cast<int>(C[0].rows());
  Oracle orc(C, a, k);
  const double scale = loss_scale(C);
  std::vector<Mat> Vs;
  std::vector<Vec> Ls;
  std::vector<Vec> Ws;
  std::vector<double> gv;
  std::vector<double> h_lb, h_ub;
  double lb = -std::numeric_limits<double>::infinity(), ub = std::numeric_limits<double>::infinity();
  Vec wbest = Vec::Constant(m, 1.0 / m);
  std::vector<double> theta;
  bool converged = false;
  int ibest_single = -1;  // the oracle projection (rank k) with the smallest largest loss
  // one evaluated cut: its projection, losses and weights; the lower bound g(w) = w . L
  auto record = [&](const Mat& V, const Vec& L, const Vec& ww) {
    if (ibest_single < 0 || L.maxCoeff() < Ls[ibest_single].maxCoeff()) ibest_single = static_cast<int>(Ls.size());
    Vs.push_back(V);
    Ls.push_back(L);
    Ws.push_back(ww);
    const double gw = ww.dot(L);
    gv.push_back(gw);
    if (gw > lb) { lb = gw; wbest = ww; }
  };
  auto eval = [&](const Vec& w) {
    Vec vals;
    Mat V = orc.top(orc.weighted(w), vals);
    Vec L = orc.losses(V);
    record(V, L, w);
    return L;
  };
  if (m == 2) {
    // t = weight of group 1; D(t) = L1 - L2 is a supergradient of h(t) = g(t, 1 - t), and
    // D(0) >= 0 >= D(1) always. Secant steps on D (superlinear where D is smooth), safeguarded
    // by the bracket, cutting-plane and bisection steps. Upper bounds: the max loss of each
    // oracle projection (<= h(t) + |D(t)|) and the equal-loss combination of the bracket ends.
    Vec w(2);
    int ilo = -1, ihi = -1;  // evaluated bracket ends (-1: not evaluated, t = 0 or 1)
    double tlo = 0.0, thi = 1.0, Dlo = 0.0, Dhi = 0.0;
    int ip = -1, iq = -1;  // the two most recent evaluations
    std::vector<double> tv, Dv;
    double ub1 = std::numeric_limits<double>::infinity();  // best single projection
    int stall = 0;
    double width_prev = 1.0;
    for (int it = 0; it < maxit; ++it) {
      Rcpp::checkUserInterrupt();
      const double width = thi - tlo;
      double tx = -1.0;
      const double guard = 1e-3 * width;
      if (it == 0) tx = 0.5;
      else if (it == 1) tx = Dv[0] > 0 ? 0.55 : 0.45;
      else if (stall < 2 && Dv[ip] != Dv[iq]) tx = tv[ip] - Dv[ip] * (tv[ip] - tv[iq]) / (Dv[ip] - Dv[iq]);
      if (!(tx > tlo + guard && tx < thi - guard) && ilo >= 0 && ihi >= 0 && stall < 3) {
        tx = (gv[ihi] - gv[ilo] + Dlo * tlo - Dhi * thi) / (Dlo - Dhi);
      }
      if (!(tx > tlo + guard && tx < thi - guard)) {
        tx = 0.5 * (tlo + thi);
        stall = 0;
        width_prev = width;
      }
      w << tx, 1.0 - tx;
      Vec L = eval(w);
      const int inew = static_cast<int>(Vs.size()) - 1;
      const double D = L(0) - L(1);
      tv.push_back(tx);
      Dv.push_back(D);
      iq = ip;
      ip = inew;
      if (L.maxCoeff() < ub) {
        ub = L.maxCoeff();
        theta.assign(Vs.size(), 0.0);
        theta[inew] = 1.0;
      }
      ub1 = std::min(ub1, L.maxCoeff());
      if (D > 0) { tlo = tx; Dlo = D; ilo = inew; }
      else if (D < 0) { thi = tx; Dhi = D; ihi = inew; }
      else { tlo = thi = tx; ilo = ihi = inew; Dlo = Dhi = 0; }
      if (ilo >= 0 && ihi >= 0 && ilo != ihi) {
        const double th = -Dhi / (Dlo - Dhi);
        Vec Lc = th * Ls[ilo] + (1 - th) * Ls[ihi];
        if (Lc.maxCoeff() < ub) {
          ub = Lc.maxCoeff();
          theta.assign(Vs.size(), 0.0);
          theta[ilo] = th;
          theta[ihi] = 1 - th;
        }
      }
      const double nw = thi - tlo;
      if (nw > 0.5 * width_prev) ++stall; else { stall = 0; width_prev = nw; }
      h_lb.push_back(lb);
      h_ub.push_back(ub);
      // stop when a single oracle projection (rank k) is certified, or when the SDP value is
      // certified to a tenth of the tolerance at a kink of the dual (the projections on the two
      // sides differ), where the rank-k rotation below takes over
      if (ub1 - lb <= tol * std::max(std::abs(ub1), 1e-12 * scale)) { converged = true; break; }
      if (ub - lb <= 0.1 * tol * std::max(std::abs(ub), 1e-12 * scale) && ilo >= 0 && ihi >= 0 && ilo != ihi) {
        Eigen::JacobiSVD<Mat> sv(Vs[ilo].transpose() * Vs[ihi]);
        if (sv.singularValues()(k - 1) < 0.7) { converged = true; break; }
      }
      if (nw <= 1e-15) {
        // the bracket collapsed at an end point or a kink: evaluate the missing end if any
        converged = (ub - lb <= tol * std::max(std::abs(ub), 1e-12 * scale));
        if (converged || (ilo >= 0 && ihi >= 0)) break;
        w << (ilo < 0 ? 0.0 : 1.0), (ilo < 0 ? 1.0 : 0.0);
        Vec Le = eval(w);
        const int ie = static_cast<int>(Vs.size()) - 1;
        if (ilo < 0) { ilo = ie; Dlo = Le(0) - Le(1); tlo = 0.0; } else { ihi = ie; Dhi = Le(0) - Le(1); thi = 1.0; }
        if (Le.maxCoeff() < ub) { ub = Le.maxCoeff(); theta.assign(Vs.size(), 0.0); theta[ie] = 1.0; }
        converged = (ub - lb <= tol * std::max(std::abs(ub), 1e-12 * scale));
        break;
      }
    }
    if (theta.size() < Vs.size()) theta.resize(Vs.size(), 0.0);
    const int main_evals = orc.calls;
    // rank-k recovery: rotate between the projections at the two bracket ends; when that
    // is not within the tolerance (the ends are still far apart, e.g. at a kink of the dual
    // reached through the upper bound), shrink the bracket by cutting-plane steps and retry
    const double tolabs = std::max(tol * std::max(std::abs(lb), 1e-12 * scale), 1e-13 * scale);
    Mat Vk;
    double zk = std::numeric_limits<double>::infinity();
    for (int extra = 0; extra < 60; ++extra) {
      Mat Vrot;
      if (ilo >= 0 && ihi >= 0 && two_group_rotate(C, a, k, Vs[ilo], Vs[ihi], Vrot)) {
        Mat Qr = fp::qr_orthonormal(Vrot);
        const double z = orc.losses(Qr).maxCoeff();
        if (z < zk) { zk = z; Vk = Qr; }
      }
      for (int i : {ilo, ihi, ip}) {
        if (i < 0) continue;
        const double z = Ls[i].maxCoeff();
        if (z < zk - 1e-15 * scale) { zk = z; Vk = Vs[i]; }
      }
      if (zk - lb <= tolabs || thi - tlo <= 1e-13 || ilo == ihi) break;
      Rcpp::checkUserInterrupt();
      if (ilo < 0 || ihi < 0) {  // evaluate the missing end of the bracket
        w << (ilo < 0 ? 0.0 : 1.0), (ilo < 0 ? 1.0 : 0.0);
        Vec Le = eval(w);
        const int ie = static_cast<int>(Vs.size()) - 1;
        if (ilo < 0) { ilo = ie; Dlo = Le(0) - Le(1); } else { ihi = ie; Dhi = Le(0) - Le(1); }
        continue;
      }
      // probe both sides of the estimated kink (intersection of the end tangents), so that
      // the bracket shrinks around it by a factor of about 1e-4 per pair of evaluations
      const double width = thi - tlo;
      double tx = (gv[ihi] - gv[ilo] + Dlo * tlo - Dhi * thi) / (Dlo - Dhi);
      if (!(tx > tlo && tx < thi)) tx = 0.5 * (tlo + thi);
      const double delta = std::max(1e-4 * width, 1e-15);
      bool hit = false;
      for (double tp : {tx - delta, tx + delta}) {
        if (!(tp > tlo && tp < thi)) continue;
        w << tp, 1.0 - tp;
        Vec L = eval(w);
        const int inew = static_cast<int>(Vs.size()) - 1;
        const double D = L(0) - L(1);
        if (L.maxCoeff() < ub) { ub = L.maxCoeff(); theta.assign(Vs.size(), 0.0); theta[inew] = 1.0; }
        if (D > 0) { tlo = tp; Dlo = D; ilo = inew; }
        else if (D < 0) { thi = tp; Dhi = D; ihi = inew; }
        else { zk = L.maxCoeff(); Vk = Vs[inew]; hit = true; break; }
      }
      if (hit) break;
      h_lb.push_back(lb);
      h_ub.push_back(ub);
    }
    theta.resize(Vs.size(), 0.0);
    Rcpp::List out;
    if (zk - lb <= tolabs || !lp_round) {
      out = Rcpp::List::create(Rcpp::Named("rotation") = Vk, Rcpp::Named("lambda") = R_NilValue,
                               Rcpp::Named("basis") = R_NilValue, Rcpp::Named("primal") = zk);
    } else {
      Mat U;
      Vec lam;
      combination_eigen(Vs, theta, d, U, lam);
      LPRound lr = samadi_lp(C, a, k, U);
      out = Rcpp::List::create(Rcpp::Named("rotation") = Vk, Rcpp::Named("lambda") = lr.lambda,
                               Rcpp::Named("basis") = U, Rcpp::Named("primal") = zk,
                               Rcpp::Named("lp_value") = lr.z, Rcpp::Named("lp_status") = lr.status);
    }
    out["weights"] = wbest;
    out["best_single"] = Vs[ibest_single];
    out["main_evals"] = main_evals;
    out["lower"] = lb;
    out["upper"] = ub;
    out["history_lower"] = h_lb;
    out["history_upper"] = h_ub;
    out["converged"] = converged;
    out["eigensolves"] = orc.calls;
    out["dense_fallbacks"] = orc.fallbacks;
    return out;
  }
  // m > 2: Kelley's cutting-plane method. Master: max v s.t. v <= L_t . w, sum w = 1, w >= 0,
  // written as min -v over x = (w (m), v (>= 0: losses are >= 0), slacks (T)).
  // dual = 1: the interior (smoothed dual) method first; its rank-k cuts seed Kelley's method
  // if it does not certify within its budget. dual = 0: Kelley's method only.
  bool master_failed = false;
  SmoothOut sm;
  bool have_smooth = false;
  int primal_src = 0;  // where the best primal comes from: 1 the interior method, 2 Kelley's
  int extra_calls = 0;
  int inner_calls = 0;
  bool interior_used = false;
  auto run_interior = [&](int budget) {
    interior_used = true;
    if (fp::use_lanczos(d, k)) {
      sm = subspace_dual(C, a, k, tol, budget, scale, record, extra_calls, inner_calls, h_lb, h_ub);
    } else {
      sm = smooth_dual(C, a, k, tol, budget, scale, record, extra_calls, h_lb, h_ub, true);
    }
    have_smooth = sm.U.cols() > 0 && sm.U.allFinite() && sm.x.allFinite();
    if (have_smooth && sm.ub < ub) { ub = sm.ub; primal_src = 1; }
    converged = converged || (ub - lb <= tol * std::max(std::abs(ub), 1e-12 * scale));
  };
  auto run_kelley = [&](int limit) {  // until certified or `limit` oracle calls in all
    master_failed = false;
    if (!converged && Vs.empty()) {
      eval(Vec::Constant(m, 1.0 / m));
      for (int g = 0; g < m; ++g) {
        Vec e = Vec::Zero(m);
        e(g) = 1.0;
        eval(e);
      }
    }
    while (!converged && orc.calls + extra_calls < limit) {
      Rcpp::checkUserInterrupt();
      const int T = static_cast<int>(Ls.size());
      const int nv = m + 1 + T;
      Mat A = Mat::Zero(T + 1, nv);
      Vec b = Vec::Zero(T + 1), c = Vec::Zero(nv);
      for (int t = 0; t < T; ++t) {
        A.row(t).head(m) = -Ls[t].transpose();
        A(t, m) = 1.0;
        A(t, m + 1 + t) = 1.0;
      }
      A.row(T).head(m).setOnes();
      b(T) = 1.0;
      c(m) = -1.0;
      LPResult lp = simplex(A, b, c);
      if (lp.status != 0) { master_failed = true; break; }
      // duals of the cut rows give the primal combination: theta_t = -y_t
      std::vector<double> th(T);
      double sth = 0;
      for (int t = 0; t < T; ++t) { th[t] = std::max(0.0, -lp.y(t)); sth += th[t]; }
      if (sth > 0) {
        Vec Lc = Vec::Zero(m);
        for (int t = 0; t < T; ++t) { th[t] /= sth; Lc += th[t] * Ls[t]; }
        const double ubc = Lc.maxCoeff();
        if (ubc < ub) { ub = ubc; theta = th; primal_src = 2; }
      }
      h_lb.push_back(lb);
      h_ub.push_back(ub);
      if (ub - lb <= tol * std::max(std::abs(ub), 1e-12 * scale)) { converged = true; break; }
      Vec wn = lp.x.head(m).cwiseMax(0.0);
      if (!(wn.sum() > 0) || !wn.allFinite()) { master_failed = true; break; }
      wn /= wn.sum();
      // stabilised separation (Wentges smoothing): query a point between the best weights so
      // far and the master's solution; when its cut does not cut off the master's solution (a
      // mis-pricing), fall back to the master's point (Kelley's step), which keeps convergence
      const double vmaster = lp.x(m);
      const double alpha = smooth;
      if (alpha > 0 && (wn - wbest).cwiseAbs().maxCoeff() > 1e-12) {
        Vec ws = alpha * wbest + (1.0 - alpha) * wn;
        Vec Lw = eval(ws);
        if (Lw.dot(wn) >= vmaster - 1e-12 * std::max(1.0, std::abs(vmaster))) eval(wn);
      } else {
        eval(wn);
      }
    }
  };
  // at most half the budget (but 30 at least) for the interior method, so Kelley's has room
  if (dual == 1 && k < d) run_interior(std::min(maxit, std::max(30, maxit / 2)));
  run_kelley(maxit);
  theta.resize(Vs.size(), 0.0);
  Mat U;
  Vec lam;
  if (primal_src == 1) {
    U = sm.U;
    lam = sm.x;
  } else {
    combination_eigen(Vs, theta, d, U, lam);
  }
  Rcpp::List out;
  if (lp_round) {
    LPRound lr = samadi_lp(C, a, k, U);
    out = Rcpp::List::create(Rcpp::Named("lambda") = lr.lambda, Rcpp::Named("basis") = U,
                             Rcpp::Named("lp_value") = lr.z, Rcpp::Named("lp_status") = lr.status);
  } else {
    out = Rcpp::List::create(Rcpp::Named("lambda") = lam, Rcpp::Named("basis") = U);
  }
  out["sdp_lambda"] = lam;
  out["sdp_basis"] = U;
  out["master_failed"] = master_failed;
  out["best_single"] = Vs[ibest_single];
  out["weights"] = wbest;
  out["lower"] = lb;
  out["upper"] = ub;
  out["history_lower"] = h_lb;
  out["history_upper"] = h_ub;
  out["converged"] = converged;
  out["eigensolves"] = orc.calls + extra_calls;
  out["dense_fallbacks"] = orc.fallbacks;
  out["inner_eigensolves"] = inner_calls;
  out["dual"] = !interior_used ? "kelley" : ((have_smooth && primal_src == 1 && sm.converged) ? "interior" : "interior+kelley");
  return out;
}

// Multiplicative weights (Samadi et al., Appendix A, Algorithm 3), m groups.
// [[Rcpp::export(.fp_minmax_mw)]]
Rcpp::List fp_minmax_mw(Rcpp::List covs, Rcpp::NumericVector a_, int k, double eta, int iterations,
                        std::string keep, bool lp_round) {
  std::vector<Mat> C = to_mats(covs);
  const int m = static_cast<int>(C.size());
  const int d = static_cast<int>(C[0].rows());
  Vec a = Rcpp::as<Vec>(a_);
  Oracle orc(C, a, k);
  Vec p = Vec::Constant(m, 1.0 / m);
  Vec Lsum = Vec::Zero(m);
  std::vector<Mat> Vs;
  Rcpp::NumericVector h_last(iterations), h_avg(iterations), h_dual(iterations);
  Rcpp::NumericMatrix W(iterations, m);
  double lb = -std::numeric_limits<double>::infinity();
  Vec wbest = p;
  Vec Llast;
  int ibest = -1;
  double zbest = std::numeric_limits<double>::infinity();
  for (int t = 0; t < iterations; ++t) {
    Rcpp::checkUserInterrupt();
    for (int g = 0; g < m; ++g) W(t, g) = p(g);
    Vec vals;
    Mat V = orc.top_resolved(p, vals);
    Vec L = orc.losses(V);
    const double gw = p.dot(L);
    if (gw > lb) { lb = gw; wbest = p; }
    if (ibest < 0 || L.maxCoeff() < zbest) { ibest = t; zbest = L.maxCoeff(); }
    Vs.push_back(V);
    Lsum += L;
    Llast = L;
    h_last(t) = L.maxCoeff();
    h_avg(t) = (Lsum / (t + 1)).maxCoeff();
    h_dual(t) = lb;
    // p_i <- p_i exp(eta * loss_i), renormalised (computed stably)
    Vec lg = p.array().log().matrix() + eta * L;
    int imax = 0;
    L.maxCoeff(&imax);
    bool ok = true;
    for (int g = 0; g < m; ++g) if (std::isnan(lg(g)) || lg(g) == std::numeric_limits<double>::infinity()) ok = false;
    if (ok) {
      const double mx = lg.maxCoeff();
      p = (lg.array() - mx).exp().matrix();
    }
    if (!ok || !(p.sum() > 0) || !p.allFinite()) { p = Vec::Zero(m); p(imax) = 1.0; }
    p /= p.sum();
  }
  const int T = iterations;
  const double zavg = (Lsum / T).maxCoeff(), zlast = Llast.maxCoeff();
  bool use_last = (keep == "last") || (keep == "better" && zlast < zavg);
  std::vector<double> theta(T, use_last ? 0.0 : 1.0 / T);
  if (use_last) theta[T - 1] = 1.0;
  Mat U;
  Vec lam;
  combination_eigen(Vs, theta, d, U, lam);
  Rcpp::List out = Rcpp::List::create(Rcpp::Named("basis") = U, Rcpp::Named("sdp_lambda") = lam);
  if (lp_round) {
    LPRound lr = samadi_lp(C, a, k, U);
    out["lambda"] = lr.lambda;
    out["lp_value"] = lr.z;
    out["lp_status"] = lr.status;
  } else {
    out["lambda"] = lam;
  }
  out["best_single"] = Vs[ibest];
  out["iterate"] = use_last ? "last" : "average";
  out["z_average"] = zavg;
  out["z_last"] = zlast;
  out["weights"] = wbest;
  out["weights_history"] = W;
  out["lower"] = lb;
  out["history_last"] = h_last;
  out["history_average"] = h_avg;
  out["history_lower"] = h_dual;
  out["eigensolves"] = orc.calls;
  out["dense_fallbacks"] = orc.fallbacks;
  return out;
}

// Top-k eigenvalue sums and losses, for tests and diagnostics: g(w) and the oracle losses.
// [[Rcpp::export(.fp_minmax_dual)]]
Rcpp::List fp_minmax_dual(Rcpp::List covs, Rcpp::NumericVector a_, int k, Rcpp::NumericVector w_) {
  std::vector<Mat> C = to_mats(covs);
  Vec a = Rcpp::as<Vec>(a_);
  Oracle orc(C, a, k);
  Vec w = Rcpp::as<Vec>(w_);
  Vec vals;
  Mat V = orc.top(orc.weighted(w), vals);
  Vec L = orc.losses(V);
  return Rcpp::List::create(Rcpp::Named("value") = w.dot(L), Rcpp::Named("losses") = L,
                            Rcpp::Named("rotation") = V);
}

// Samadi et al.'s LP on a given orthonormal basis (exported for tests).
// [[Rcpp::export(.fp_minmax_lp)]]
Rcpp::List fp_minmax_lp(Rcpp::List covs, Rcpp::NumericVector a_, int k, Rcpp::NumericMatrix U_) {
  std::vector<Mat> C = to_mats(covs);
  Vec a = Rcpp::as<Vec>(a_);
  Mat U = Rcpp::as<Mat>(U_);
  LPRound lr = samadi_lp(C, a, k, U);
  return Rcpp::List::create(Rcpp::Named("lambda") = lr.lambda, Rcpp::Named("z") = lr.z,
                            Rcpp::Named("status") = lr.status);
}
