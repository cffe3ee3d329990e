// Min-max fair PCA, the exact solver (see minmax.cpp for the problem and its dual): the cuts of
// the dual found so far, the two-group secant method with its equal-loss recovery, Kelley's
// cutting-plane method (with the interior dual of minmax_dual.h first for m > 2 groups) and
// solve_exact(), which picks between them.
#ifndef FAIRPROJ_MINMAX_EXACT_H
#define FAIRPROJ_MINMAX_EXACT_H

#include <limits>
#include <string>
#include <vector>
#include "linalg.h"
#include "runtime.h"
#include "fantope.h"
#include "simplex.h"
#include "tolerances.h"
#include "minmax_oracle.h"
#include "minmax_round.h"
#include "minmax_dual.h"

namespace fp {
namespace minmax {

// The cuts evaluated so far: each oracle projection V_t with its losses L_t and weights w_t. The
// lower bound lb = max_t g(w_t), g(w_t) = w_t . L_t, with its weights; the upper bound ub of the
// best primal found by the caller; the projection with the smallest largest loss; the history of
// the bounds.
struct Cuts {
  std::vector<Mat> Vs;
  std::vector<Vec> Ls, Ws;
  std::vector<double> gv, h_lb, h_ub;
  double lb = -std::numeric_limits<double>::infinity();
  double ub = std::numeric_limits<double>::infinity();
  Vec wbest;
  int ibest_single = -1;
  explicit Cuts(int m) : wbest(Vec::Constant(m, 1.0 / m)) {}
  void record(const Mat& V, const Vec& L, const Vec& ww) {
    if (ibest_single < 0 || L.maxCoeff() < Ls[ibest_single].maxCoeff()) ibest_single = static_cast<int>(Ls.size());
    Vs.push_back(V);
    Ls.push_back(L);
    Ws.push_back(ww);
    const double gw = ww.dot(L);
    gv.push_back(gw);
    if (gw > lb) { lb = gw; wbest = ww; }
  }
  // one oracle call at w, recorded; returns its losses
  Vec eval(Oracle& orc, const Vec& w) {
    Vec vals;
    Mat own;
    Mat V = orc.top(orc.weighted(w, own), vals);
    Vec L = orc.losses(V);
    record(V, L, w);
    return L;
  }
};

// What the exact solver returns (the exported entry point packs it for R). Two groups: the
// rank-k `rotation` with its largest loss `primal`, and the LP rounding when asked for and the
// rotation is not within the tolerance. More groups: the LP rounding (or the fractional
// solution) on `basis`, the fractional solution in `sdp_lambda` / `sdp_basis`, and which dual
// method gave it.
struct ExactResult {
  bool two_groups = false;
  Mat rotation;
  double primal = std::numeric_limits<double>::quiet_NaN();
  bool has_lambda = false, has_lp = false;
  Vec lambda;
  Mat basis;
  double lp_value = std::numeric_limits<double>::quiet_NaN();
  int lp_status = 1;
  Vec sdp_lambda;
  Mat sdp_basis;
  bool master_failed = false;
  int main_evals = 0, eigensolves = 0, dense_fallbacks = 0, inner_eigensolves = 0;
  bool converged = false;
  std::string dual;
  Vec weights;
  Mat best_single;
  double lower = 0, upper = 0;
  std::vector<double> history_lower, history_upper;
};

// Samadi et al.'s LP on the orthonormal basis U, its vertex stored in a result (ExactResult or
// MWResult): the weights `lambda` on U's columns, the LP's value and its simplex status.
template <class Result>
void round_lp(Result& res, const GroupMats& C, const Vec& a, int k, const Mat& U) {
  const LPRound lr = samadi_lp(C, a, k, U);
  res.has_lp = true;
  res.lambda = lr.lambda;
  res.lp_value = lr.z;
  res.lp_status = lr.status;
}

// The bracket [tlo, thi] of the optimal weight t of group 1 in the two-group secant method: the
// evaluations at its ends (-1: not evaluated, the end is t = 0 or 1) with their supergradients
// D = L1 - L2, the most recent evaluation, the primal combination theta of the cuts, and
// whether the bounds are certified.
struct Bracket {
  int ilo = -1, ihi = -1, ip = -1;
  double tlo = 0.0, thi = 1.0, Dlo = 0.0, Dhi = 0.0;
  std::vector<double> theta;
  bool converged = false;
};

// Two groups, the dual over t = weight of group 1: D(t) = L1 - L2 is a supergradient of
// h(t) = g(t, 1 - t), and D(0) >= 0 >= D(1) always. Secant steps on D (superlinear where D is
// smooth), safeguarded by the bracket, cutting-plane and bisection steps. Upper bounds: the max
// loss of each oracle projection (<= h(t) + |D(t)|) and the equal-loss combination of the
// bracket ends.
inline Bracket two_group_secant(Oracle& orc, Cuts& cuts, int k, double tol, int maxit, double scale) {
  Bracket br;
  Vec w(2);
  int iq = -1;  // with br.ip, the two most recent evaluations
  std::vector<double> tv, Dv;
  double ub1 = std::numeric_limits<double>::infinity();  // best single projection
  int stall = 0;
  double width_prev = 1.0;
  for (int it = 0; it < maxit; ++it) {
    fp::check_interrupt();
    const double width = br.thi - br.tlo;
    double tx = -1.0;
    const double guard = 1e-3 * width;
    if (it == 0) tx = 0.5;
    else if (it == 1) tx = Dv[0] > 0 ? 0.55 : 0.45;
    else if (stall < 2 && Dv[br.ip] != Dv[iq]) tx = tv[br.ip] - Dv[br.ip] * (tv[br.ip] - tv[iq]) / (Dv[br.ip] - Dv[iq]);
    if (!(tx > br.tlo + guard && tx < br.thi - guard) && br.ilo >= 0 && br.ihi >= 0 && stall < 3) {
      tx = (cuts.gv[br.ihi] - cuts.gv[br.ilo] + br.Dlo * br.tlo - br.Dhi * br.thi) / (br.Dlo - br.Dhi);
    }
    if (!(tx > br.tlo + guard && tx < br.thi - guard)) {
      tx = 0.5 * (br.tlo + br.thi);
      stall = 0;
      width_prev = width;
    }
    w << tx, 1.0 - tx;
    Vec L = cuts.eval(orc, w);
    const int inew = static_cast<int>(cuts.Vs.size()) - 1;
    const double D = L(0) - L(1);
    tv.push_back(tx);
    Dv.push_back(D);
    iq = br.ip;
    br.ip = inew;
    if (L.maxCoeff() < cuts.ub) {
      cuts.ub = L.maxCoeff();
      br.theta.assign(cuts.Vs.size(), 0.0);
      br.theta[inew] = 1.0;
    }
    ub1 = std::min(ub1, L.maxCoeff());
    if (D > 0) { br.tlo = tx; br.Dlo = D; br.ilo = inew; }
    else if (D < 0) { br.thi = tx; br.Dhi = D; br.ihi = inew; }
    else { br.tlo = br.thi = tx; br.ilo = br.ihi = inew; br.Dlo = br.Dhi = 0; }
    if (br.ilo >= 0 && br.ihi >= 0 && br.ilo != br.ihi) {
      const double th = -br.Dhi / (br.Dlo - br.Dhi);
      Vec Lc = th * cuts.Ls[br.ilo] + (1 - th) * cuts.Ls[br.ihi];
      if (Lc.maxCoeff() < cuts.ub) {
        cuts.ub = Lc.maxCoeff();
        br.theta.assign(cuts.Vs.size(), 0.0);
        br.theta[br.ilo] = th;
        br.theta[br.ihi] = 1 - th;
      }
    }
    const double nw = br.thi - br.tlo;
    if (nw > 0.5 * width_prev) ++stall; else { stall = 0; width_prev = nw; }
    cuts.h_lb.push_back(cuts.lb);
    cuts.h_ub.push_back(cuts.ub);
    // stop when a single oracle projection (rank k) is certified, or when the SDP value is
    // certified to a tenth of the tolerance at a kink of the dual (the projections on the two
    // sides differ), where the rank-k rotation below takes over
    if (ub1 - cuts.lb <= tol * std::max(std::abs(ub1), fp::tol::gap_floor * scale)) { br.converged = true; break; }
    if (cuts.ub - cuts.lb <= 0.1 * tol * std::max(std::abs(cuts.ub), fp::tol::gap_floor * scale) && br.ilo >= 0 && br.ihi >= 0 && br.ilo != br.ihi) {
      Eigen::JacobiSVD<Mat> sv(cuts.Vs[br.ilo].transpose() * cuts.Vs[br.ihi]);
      if (sv.singularValues()(k - 1) < 0.7) { br.converged = true; break; }
    }
    if (nw <= 1e-15) {
      // the bracket collapsed at an end point or a kink: evaluate the missing end if any
      br.converged = (cuts.ub - cuts.lb <= tol * std::max(std::abs(cuts.ub), fp::tol::gap_floor * scale));
      if (br.converged || (br.ilo >= 0 && br.ihi >= 0)) break;
      w << (br.ilo < 0 ? 0.0 : 1.0), (br.ilo < 0 ? 1.0 : 0.0);
      Vec Le = cuts.eval(orc, w);
      const int ie = static_cast<int>(cuts.Vs.size()) - 1;
      if (br.ilo < 0) { br.ilo = ie; br.Dlo = Le(0) - Le(1); br.tlo = 0.0; } else { br.ihi = ie; br.Dhi = Le(0) - Le(1); br.thi = 1.0; }
      if (Le.maxCoeff() < cuts.ub) { cuts.ub = Le.maxCoeff(); br.theta.assign(cuts.Vs.size(), 0.0); br.theta[ie] = 1.0; }
      br.converged = (cuts.ub - cuts.lb <= tol * std::max(std::abs(cuts.ub), fp::tol::gap_floor * scale));
      break;
    }
  }
  if (br.theta.size() < cuts.Vs.size()) br.theta.resize(cuts.Vs.size(), 0.0);
  return br;
}

// Two groups, the rank-k solution: rotate between the projections at the two bracket ends; when
// that is not within the tolerance (the ends are still far apart, e.g. at a kink of the dual
// reached through the upper bound), shrink the bracket by cutting-plane steps and retry, until the
// rank-k projection Vk is within `tolabs` of the lower bound. Returns its largest loss.
inline double two_group_recover(const GroupMats& C, const Vec& a, int k, double tolabs, double scale,
                         Oracle& orc, Cuts& cuts, Bracket& br, Mat& Vk) {
  Vec w(2);
  double zk = std::numeric_limits<double>::infinity();
  for (int extra = 0; extra < 60; ++extra) {
    Mat Vrot;
    if (br.ilo >= 0 && br.ihi >= 0 && two_group_rotate(C, a, k, cuts.Vs[br.ilo], cuts.Vs[br.ihi], Vrot)) {
      Mat Qr = fp::qr_orthonormal(Vrot);
      const double z = orc.losses(Qr).maxCoeff();
      if (z < zk) { zk = z; Vk = Qr; }
    }
    for (int i : {br.ilo, br.ihi, br.ip}) {
      if (i < 0) continue;
      const double z = cuts.Ls[i].maxCoeff();
      if (z < zk - 1e-15 * scale) { zk = z; Vk = cuts.Vs[i]; }
    }
    if (zk - cuts.lb <= tolabs || br.thi - br.tlo <= 1e-13 || br.ilo == br.ihi) break;
    fp::check_interrupt();
    if (br.ilo < 0 || br.ihi < 0) {  // evaluate the missing end of the bracket
      w << (br.ilo < 0 ? 0.0 : 1.0), (br.ilo < 0 ? 1.0 : 0.0);
      Vec Le = cuts.eval(orc, w);
      const int ie = static_cast<int>(cuts.Vs.size()) - 1;
      if (br.ilo < 0) { br.ilo = ie; br.Dlo = Le(0) - Le(1); } else { br.ihi = ie; br.Dhi = Le(0) - Le(1); }
      continue;
    }
    // probe both sides of the estimated kink (intersection of the end tangents), so that
    // the bracket shrinks around it by a factor of about 1e-4 per pair of evaluations
    const double width = br.thi - br.tlo;
    double tx = (cuts.gv[br.ihi] - cuts.gv[br.ilo] + br.Dlo * br.tlo - br.Dhi * br.thi) / (br.Dlo - br.Dhi);
    if (!(tx > br.tlo && tx < br.thi)) tx = 0.5 * (br.tlo + br.thi);
    const double delta = std::max(1e-4 * width, 1e-15);
    bool hit = false;
    for (double tp : {tx - delta, tx + delta}) {
      if (!(tp > br.tlo && tp < br.thi)) continue;
      w << tp, 1.0 - tp;
      Vec L = cuts.eval(orc, w);
      const int inew = static_cast<int>(cuts.Vs.size()) - 1;
      const double D = L(0) - L(1);
      if (L.maxCoeff() < cuts.ub) { cuts.ub = L.maxCoeff(); br.theta.assign(cuts.Vs.size(), 0.0); br.theta[inew] = 1.0; }
      if (D > 0) { br.tlo = tp; br.Dlo = D; br.ilo = inew; }
      else if (D < 0) { br.thi = tp; br.Dhi = D; br.ihi = inew; }
      else { zk = L.maxCoeff(); Vk = cuts.Vs[inew]; hit = true; break; }
    }
    if (hit) break;
    cuts.h_lb.push_back(cuts.lb);
    cuts.h_ub.push_back(cuts.ub);
  }
  return zk;
}

inline ExactResult solve_two_groups(const GroupMats& C, const Vec& a, int k, double tol, int maxit,
                             bool lp_round, double scale, Oracle& orc, Cuts& cuts) {
  ExactResult res;
  res.two_groups = true;
  Bracket br = two_group_secant(orc, cuts, k, tol, maxit, scale);
  res.main_evals = orc.calls;
  const double tolabs = std::max(tol * std::max(std::abs(cuts.lb), fp::tol::gap_floor * scale), 1e-13 * scale);
  Mat Vk;
  const double zk = two_group_recover(C, a, k, tolabs, scale, orc, cuts, br, Vk);
  br.theta.resize(cuts.Vs.size(), 0.0);
  res.rotation = Vk;
  res.primal = zk;
  if (!(zk - cuts.lb <= tolabs || !lp_round)) {
    Vec lam;
    combination_eigen(cuts.Vs, br.theta, static_cast<int>(C[0].rows()), res.basis, lam);
    res.has_lambda = true;
    round_lp(res, C, a, k, res.basis);
  }
  res.converged = br.converged;
  return res;
}

// Kelley's cutting-plane method for m > 2 groups, from the cuts so far (or the uniform and the
// unit weights when there are none) until the bounds are certified or `limit` oracle calls in
// all (with `extra_calls` made elsewhere). Master: max v s.t. v <= L_t . w, sum w = 1, w >= 0,
// written as min -v over x = (w (m), v (>= 0: losses are >= 0), slacks (T)); the duals of its
// cut rows give the primal combination theta. Stabilised separation (Wentges smoothing with
// weight `smooth` on the best weights so far).
struct KelleyOut {
  bool converged = false, master_failed = false, improved = false;
  std::vector<double> theta;
};

inline KelleyOut kelley(Oracle& orc, Cuts& cuts, int m, double tol, double smooth, double scale, int limit,
                 int extra_calls, bool converged) {
  KelleyOut kr;
  kr.converged = converged;
  if (!kr.converged && cuts.Vs.empty()) {
    cuts.eval(orc, Vec::Constant(m, 1.0 / m));
    for (int g = 0; g < m; ++g) {
      Vec e = Vec::Zero(m);
      e(g) = 1.0;
      cuts.eval(orc, e);
    }
  }
  while (!kr.converged && orc.calls + extra_calls < limit) {
    fp::check_interrupt();
    const int T = static_cast<int>(cuts.Ls.size());
    const int nv = m + 1 + T;
    Mat A = Mat::Zero(T + 1, nv);
    Vec b = Vec::Zero(T + 1), c = Vec::Zero(nv);
    for (int t = 0; t < T; ++t) {
      A.row(t).head(m) = -cuts.Ls[t].transpose();
      A(t, m) = 1.0;
      A(t, m + 1 + t) = 1.0;
    }
    A.row(T).head(m).setOnes();
    b(T) = 1.0;
    c(m) = -1.0;
    LPResult lp = simplex(A, b, c);
    if (lp.status != 0) { kr.master_failed = true; break; }
    // duals of the cut rows give the primal combination: theta_t = -y_t
    std::vector<double> th(T);
    double sth = 0;
    for (int t = 0; t < T; ++t) { th[t] = std::max(0.0, -lp.y(t)); sth += th[t]; }
    if (sth > 0) {
      Vec Lc = Vec::Zero(m);
      for (int t = 0; t < T; ++t) { th[t] /= sth; Lc += th[t] * cuts.Ls[t]; }
      const double ubc = Lc.maxCoeff();
      if (ubc < cuts.ub) { cuts.ub = ubc; kr.theta = th; kr.improved = true; }
    }
    cuts.h_lb.push_back(cuts.lb);
    cuts.h_ub.push_back(cuts.ub);
    if (cuts.ub - cuts.lb <= tol * std::max(std::abs(cuts.ub), fp::tol::gap_floor * scale)) { kr.converged = true; break; }
    Vec wn = lp.x.head(m).cwiseMax(0.0);
    if (!(wn.sum() > 0) || !wn.allFinite()) { kr.master_failed = true; break; }
    wn /= wn.sum();
    // stabilised separation (Wentges smoothing): query a point between the best weights so
    // far and the master's solution; when its cut does not cut off the master's solution (a
    // mis-pricing), fall back to the master's point (Kelley's step), which keeps convergence
    const double vmaster = lp.x(m);
    const double alpha = smooth;
    if (alpha > 0 && (wn - cuts.wbest).cwiseAbs().maxCoeff() > 1e-12) {
      Vec ws = alpha * cuts.wbest + (1.0 - alpha) * wn;
      Vec Lw = cuts.eval(orc, ws);
      if (Lw.dot(wn) >= vmaster - 1e-12 * std::max(1.0, std::abs(vmaster))) cuts.eval(orc, wn);
    } else {
      cuts.eval(orc, wn);
    }
  }
  return kr;
}

// When the interior method hands its path over to Kelley's method (smooth_dual()'s `hand_over`):
// up to this many groups, the first time the restricted primal comes within twice the
// tolerance without certifying; with more, the second time. Kelley's method closes the last
// digits from the cuts at hand in few evaluations where the weights are few, or at a true kink
// of the dual, where the path's multipliers lose their digits and the path would not finish
// (bench/minmax.R); with more groups and no kink the path's next round is cheaper (credit,
// m = 8 / 14 / 24: the 7 fits that handed over the first time took 3-15 more eigensolves than
// the path alone).
const int kHandOverGroups = 4;

// m > 2 groups: the interior (smoothed dual) method first (dual = 1), its rank-k cuts seeding
// Kelley's method if it does not certify within its budget (at most half of `maxit`, 30 at
// least); Kelley's method only with dual = 0. The primal is the interior method's, or Kelley's
// combination, rounded by Samadi et al.'s LP when `lp_round`.
inline ExactResult solve_many_groups(const GroupMats& C, const Vec& a, int k, double tol, int maxit,
                              bool lp_round, double smooth, int dual, double scale, Oracle& orc, Cuts& cuts,
                              bool predictor = true) {
  const int m = static_cast<int>(C.size());
  const int d = static_cast<int>(C[0].rows());
  ExactResult res;
  SmoothOut sm;
  bool have_smooth = false, converged = false, interior_used = false;
  int primal_src = 0;  // where the best primal comes from: 1 the interior method, 2 Kelley's
  int extra_calls = 0, inner_calls = 0;
  std::vector<double> theta;
  auto record = [&](const Mat& V, const Vec& L, const Vec& ww) { cuts.record(V, L, ww); };
  if (dual == 1 && k < d) {
    const int budget = std::min(maxit, std::max(30, maxit / 2));
    interior_used = true;
    if (fp::use_lanczos(d, k)) {
      sm = subspace_dual(C, a, k, tol, budget, scale, record, extra_calls, inner_calls, cuts.h_lb, cuts.h_ub);
    } else {
      sm = smooth_dual(C, a, k, tol, budget, scale, record, extra_calls, cuts.h_lb, cuts.h_ub,
                       m <= kHandOverGroups ? 1 : 2, predictor);
    }
    have_smooth = sm.U.cols() > 0 && sm.U.allFinite() && sm.x.allFinite();
    if (have_smooth && sm.ub < cuts.ub) { cuts.ub = sm.ub; primal_src = 1; }
    converged = cuts.ub - cuts.lb <= tol * std::max(std::abs(cuts.ub), fp::tol::gap_floor * scale);
  }
  KelleyOut kr = kelley(orc, cuts, m, tol, smooth, scale, maxit, extra_calls, converged);
  if (kr.improved) { theta = kr.theta; primal_src = 2; }
  converged = kr.converged;
  theta.resize(cuts.Vs.size(), 0.0);
  Mat U;
  Vec lam;
  if (primal_src == 1) {
    U = sm.U;
    lam = sm.x;
  } else {
    combination_eigen(cuts.Vs, theta, d, U, lam);
  }
  res.basis = U;
  res.has_lambda = true;
  if (lp_round) {
    round_lp(res, C, a, k, U);
  } else {
    res.lambda = lam;
  }
  res.sdp_lambda = lam;
  res.sdp_basis = U;
  res.master_failed = kr.master_failed;
  res.converged = converged;
  res.eigensolves = extra_calls;  // the caller adds the oracle's calls
  res.inner_eigensolves = inner_calls;
  res.dual = !interior_used ? "kelley" : ((have_smooth && primal_src == 1 && sm.converged) ? "interior" : "interior+kelley");
  return res;
}

// The exact solver: covs C_g (d x d), offsets a, rank k, relative gap tol, at most maxit oracle
// calls; `predictor` as in smooth_dual().
inline ExactResult solve_exact(const GroupMats& C, const Vec& a, int k, double tol, int maxit, bool lp_round,
                        double smooth, int dual, bool predictor = true) {
  const int m = static_cast<int>(C.size());
  Oracle orc(C, a, k);
  const double scale = loss_scale(C);
  Cuts cuts(m);
  ExactResult res = (m == 2) ? solve_two_groups(C, a, k, tol, maxit, lp_round, scale, orc, cuts)
                             : solve_many_groups(C, a, k, tol, maxit, lp_round, smooth, dual, scale, orc, cuts, predictor);
  res.eigensolves += orc.calls;
  res.dense_fallbacks = orc.fallbacks;
  res.weights = cuts.wbest;
  res.best_single = cuts.Vs[cuts.ibest_single];
  res.lower = cuts.lb;
  res.upper = cuts.ub;
  res.history_lower = cuts.h_lb;
  res.history_upper = cuts.h_ub;
  return res;
}

}  // namespace minmax
}  // namespace fp

#endif
