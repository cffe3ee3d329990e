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
//  * m groups: Kelley's cutting-plane method, the master LP solved by a dense simplex, its dual
//    giving the primal combination;
//  * primal recovery: two groups -> rank-k projection with equal losses (rotation inside the
//    subspace where the two last oracle projections differ); m groups -> Samadi et al.'s LP on
//    the eigenbasis of the primal combination, solved to a vertex by the simplex method;
//  * multiplicative weights exactly as in Samadi et al.'s Appendix A.
#include "linalg.h"
#include <Rcpp.h>
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
      Spectra::DenseSymMatProd<double> op(M);
      const int ncv = std::min(d, std::max(2 * k + 1, k + 20));
      Spectra::SymEigsSolver<double, Spectra::LARGEST_ALGE, Spectra::DenseSymMatProd<double> > eigs(&op, k, ncv);
      if (resid.size() == d && resid.norm() > 0) {
        // mix in a fixed vector so the start is never orthogonal to a wanted direction
        Vec r = resid / resid.norm() + Vec::Constant(d, 1e-3 / std::sqrt(static_cast<double>(d)));
        eigs.init(r.data());
      } else {
        eigs.init();
      }
      eigs.compute(2000, 1e-12);
      if (eigs.info() == Spectra::SUCCESSFUL) {
        values = eigs.eigenvalues();
        Mat V = eigs.eigenvectors();
        resid = V.rowwise().sum();
        return V;
      }
    }
    if (fp::use_lanczos(d, k)) ++fallbacks;
    fp::EigResult e = fp::eig_sym_full(M);
    values = e.values.head(k);
    return e.vectors.leftCols(k);
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
  Eigen::HouseholderQR<Mat> qr(W);
  return qr.householderQ() * Mat::Identity(S.rows(), r);
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

// Exact solver. covs: list of d x d matrices, a: offsets, k, tol (relative gap), maxit.
// [[Rcpp::export(.fp_minmax_exact)]]
Rcpp::List fp_minmax_exact(Rcpp::List covs, Rcpp::NumericVector a_, int k, double tol, int maxit,
                           bool lp_round, double smooth = 0.5) {
  std::vector<Mat> C = to_mats(covs);
  const int m = static_cast<int>(C.size());
  const int d = static_cast<int>(C[0].rows());
  Vec a = Rcpp::as<Vec>(a_);
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
  auto eval = [&](const Vec& w) {
    Vec vals;
    Mat V = orc.top(orc.weighted(w), vals);
    Vec L = orc.losses(V);
    if (ibest_single < 0 || L.maxCoeff() < Ls[ibest_single].maxCoeff()) ibest_single = static_cast<int>(Ls.size());
    Vs.push_back(V);
    Ls.push_back(L);
    Ws.push_back(w);
    const double gw = w.dot(L);
    gv.push_back(gw);
    if (gw > lb) { lb = gw; wbest = w; }
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
  bool master_failed = false;
  Vec w = Vec::Constant(m, 1.0 / m);
  eval(w);
  for (int g = 0; g < m; ++g) {
    Vec e = Vec::Zero(m);
    e(g) = 1.0;
    eval(e);
  }
  for (int it = 0; it < maxit; ++it) {
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
      if (ubc < ub) { ub = ubc; theta = th; }
    }
    h_lb.push_back(lb);
    h_ub.push_back(ub);
    if (ub - lb <= tol * std::max(std::abs(ub), 1e-12 * scale)) { converged = true; break; }
    Vec wn = lp.x.head(m).cwiseMax(0.0);
    if (!(wn.sum() > 0) || !wn.allFinite()) { master_failed = true; break; }
    wn /= wn.sum();
    // stabilised separation (Wentges smoothing): query a point between the best weights so far
    // and the master's solution; when its cut does not cut off the master's solution (a
    // mis-pricing), fall back to the master's point (Kelley's step), which keeps convergence
    const double vmaster = lp.x(m);
    const double alpha = smooth;
    if (alpha > 0 && (wn - wbest).cwiseAbs().maxCoeff() > 1e-12) {
      Vec ws = alpha * wbest + (1.0 - alpha) * wn;
      Vec Ls = eval(ws);
      if (Ls.dot(wn) >= vmaster - 1e-12 * std::max(1.0, std::abs(vmaster))) eval(wn);
    } else {
      eval(wn);
    }
  }
  theta.resize(Vs.size(), 0.0);
  Mat U;
  Vec lam;
  combination_eigen(Vs, theta, d, U, lam);
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
  out["eigensolves"] = orc.calls;
  out["dense_fallbacks"] = orc.fallbacks;
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
    Mat V = orc.top(orc.weighted(p), vals);
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
