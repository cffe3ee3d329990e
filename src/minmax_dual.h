// The interior dual of min-max fair PCA for m > 2 groups: a path-following Newton method on the
// entropically smoothed dual (smooth_dual), the primal recovered by a barrier method on a small
// subspace (restricted_sdp, in minmax_restricted.h), and for large d the same on a subspace
// grown by column generation with Lanczos eigenvectors (subspace_dual). Every evaluation gives
// exact bounds, so the certificate never depends on the smoothing. Included by minmax.cpp only.
#ifndef FAIRPROJ_MINMAX_DUAL_H
#define FAIRPROJ_MINMAX_DUAL_H

#include <functional>
#include <limits>
#include <vector>
#include "linalg.h"
#include "runtime.h"
#include "tolerances.h"
#include "fantope.h"
#include "minmax_oracle.h"
#include "minmax_restricted.h"

namespace fp {
namespace minmax {

struct SmoothOut {
  bool converged = false;
  Vec w;            // weights of the best lower bound
  double lb = -std::numeric_limits<double>::infinity();
  double ub = std::numeric_limits<double>::infinity();
  Mat U;            // primal of the best upper bound: U diag(x) U' (x may be all ones: rank k)
  Vec x;
  int steps = 0;
};

// The losses a_g - <C_g, Vk Vk'> of the projection onto span(Vk), as sums of (C_g Vk) .* Vk (no
// k x k product); with `CV`, the products C_g Vk are kept there (smooth_losses() reuses them).
inline Vec cut_losses(const GroupMats& C, const Vec& a, const Mat& Vk, std::vector<Mat>* CV) {
  const int m = static_cast<int>(C.size());
  Vec L(m);
  if (CV) CV->resize(m);
  const int s = C.start();
  for (int j = 0; j < m; ++j) {
    const int g = (s + j) % m;
    Mat CVg = C[g] * Vk;
    L(g) = a(g) - CVg.cwiseProduct(Vk).sum();
    if (CV) (*CV)[g].swap(CVg);
  }
  return L;
}

// Account one evaluation of the dual at ww: the rank-k cut (top-k eigenvectors Vk, whose losses
// are the supergradient), the lower bound g(ww) = ww.a - (sum of the k largest eigenvalues) and
// the projection onto span(Vk) as an upper-bound candidate. `CV` as in cut_losses().
inline void note_cut(SmoothOut& out, const GroupMats& C, const Vec& a, const Vec& ww, const Mat& Vk,
              double topk_sum, const std::function<void(const Mat&, const Vec&, const Vec&)>& record,
              std::vector<Mat>* CV = nullptr) {
  const int k = static_cast<int>(Vk.cols());
  const Vec L = cut_losses(C, a, Vk, CV);
  record(Vk, L, ww);
  const double g_w = ww.dot(a) - topk_sum;
  if (g_w > out.lb) { out.lb = g_w; out.w = ww; }
  if (L.maxCoeff() < out.ub) { out.ub = L.maxCoeff(); out.U = Vk; out.x = Vec::Ones(k); }
}

// A point of the smoothed dual: the weights w and the eigenvalues (decreasing) and eigenvectors
// of sum_g w_g C_g, and the products C_g U_k with its top k eigenvectors.
struct DualPoint {
  Vec w;
  Vec lam;
  Mat U;
  std::vector<Mat> CV;
};

// What smooth_dual() carries between its steps: the problem, the bounds so far (`out`), the
// smoothing mu, and the count of eigendecompositions.
struct SmoothState {
  const GroupMats& C;
  const Vec& a;
  int k, m, d;
  double tol, scale;
  const std::function<void(const Mat&, const Vec&, const Vec&)>& record;
  int& eig_calls;
  SmoothOut out;
  double mu = 0;
  bool stalled = false;  // the last line search stopped at Phi's rounding

  SmoothState(const GroupMats& C_, const Vec& a_, int k_, double tol_, double scale_,
              const std::function<void(const Mat&, const Vec&, const Vec&)>& record_, int& eig_calls_)
      : C(C_), a(a_), k(k_), m(static_cast<int>(C_.size())), d(static_cast<int>(C_[0].rows())), tol(tol_),
        scale(scale_), record(record_), eig_calls(eig_calls_) {
    out.w = Vec::Constant(m, 1.0 / m);
  }

  bool gap_ok() const { return out.ub - out.lb <= tol * std::max(std::abs(out.ub), fp::tol::gap_floor * scale); }

  // one eigendecomposition of sum_g w_g C_g, its bounds and the rank-k cut
  bool decompose(const Vec& ww, DualPoint& p) {
    Mat own;
    fp::EigResult e = fp::eig_sym_full(C.weighted(ww, false, own));
    ++eig_calls;
    p.w = ww;
    p.lam = e.values;
    p.U = e.vectors;
    note_cut(out, C, a, ww, p.U.leftCols(k), p.lam.head(k).sum(), record, &p.CV);
    return e.values.allFinite() && e.vectors.allFinite();
  }

  // Phi at a decomposed point for the current mu (the smoothed dual plus the barrier)
  double phi(const DualPoint& q, double beta) const {
    Vec xx, ss;
    const double h = fermi_dirac(q.lam, k, mu, xx, ss);
    double v = q.w.dot(a) - h;
    for (int g = 0; g < m; ++g) v += beta * std::log(q.w(g));
    return v;
  }

  bool try_restricted(const DualPoint& q, int max_eigs);
  bool line_search(DualPoint& p, const Vec& dw, double step, double dec, double beta, int max_eigs);
  bool predict(DualPoint& p, const Vec& dv, double beta, int max_eigs);
};

// Primal recovery on a subspace: the dual path identifies the eigenvectors that carry the
// optimal primal (those with a non-negligible Fermi-Dirac weight); the problem restricted to
// them (r x r matrices) is solved by the barrier method restricted_sdp(), whose primal is
// feasible for the full problem and whose dual weights are then checked on the full problem.
// True when the bounds are then certified.
inline bool SmoothState::try_restricted(const DualPoint& q, int max_eigs) {
  Vec xx, ss;
  fermi_dirac(q.lam, k, mu, xx, ss);
  int r = k;
  while (r < d && xx(r) > fp::tol::weight_integral) ++r;
  r = std::min(d, r + 2);
  // the leading eigenvectors whose weight is 1 to 8 digits are kept in the projection; the
  // rest of the subspace (the cluster around the k-th eigenvalue) carries the small problem,
  // whose Newton systems grow as the square of its size (the certificate below is exact
  // whatever is pinned: a wrong pin only delays it)
  int pin = 0;
  while (pin < k - 1 && xx(pin) >= 1.0 - fp::tol::weight_integral) ++pin;
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
  const double tol_abs = 0.25 * tol * std::max(std::abs(out.lb), fp::tol::gap_floor * scale);
  // a rank-k rounding that meets the current lower bound to the tolerance ends it early
  const double target = out.lb + tol * std::max(std::abs(out.lb), fp::tol::gap_floor * scale);
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
  DualPoint pq;
  decompose(wq, pq);
  return gap_ok();
}

// Phi's rounding relative to its value: an increase below it cannot be told from none (about
// 50 units of the last place of the sums of eigenvalues it is made of; at 1e-12 the search
// also stopped where Phi could still rise, and three credit fits ended at rank k + 1).
const double kPhiRound = 1e-14;

// Backtracking on Phi from p along dw, from `step` down by 0.3 (each trial one
// eigendecomposition): p moves to the first point that increases Phi by a tenth of the
// predicted increase, or to a point a negligible step away. False when none is accepted. Once
// the increase asked for is below Phi's rounding the search stops without a further
// eigendecomposition and sets `stalled` (p is centred as far as Phi can tell; the backtracking
// would otherwise spend up to 30 of them finding a step that moves nothing).
inline bool SmoothState::line_search(DualPoint& p, const Vec& dw, double step, double dec, double beta, int max_eigs) {
  const double phi0 = phi(p, beta);
  for (int ls = 0; ls < 30 && eig_calls < max_eigs; ++ls) {
    if (0.1 * step * dec <= kPhiRound * std::abs(phi0)) { stalled = true; return false; }
    Vec wn = p.w + step * dw;
    wn = wn.cwiseMax(1e-300);
    wn /= wn.sum();
    DualPoint pn;
    if (!decompose(wn, pn)) break;
    if (phi(pn, beta) >= phi0 + 0.1 * step * dec || step * dw.cwiseAbs().maxCoeff() < 1e-15) {
      p = pn;
      return true;
    }
    step *= 0.3;
  }
  return false;
}

// The predictor after mu shrank: p moves along the path's tangent to p.w + dv (shortened to stay
// 5 % inside the simplex) when Phi for the new mu (and its barrier weight beta) is higher there
// than at p, whose Phi needs no new eigendecomposition; otherwise p stays (the evaluation's
// bounds and cut count either way). One eigendecomposition; true when p moved.
inline bool SmoothState::predict(DualPoint& p, const Vec& dv, double beta, int max_eigs) {
  if (!dv.allFinite() || eig_calls >= max_eigs) return false;
  double tmax = 1.0;
  for (int g = 0; g < m; ++g)
    if (dv(g) < 0) tmax = std::min(tmax, -0.95 * p.w(g) / dv(g));
  Vec wn = (p.w + tmax * dv).cwiseMax(1e-300);
  wn /= wn.sum();
  DualPoint pn;
  if (!decompose(wn, pn)) return false;
  if (!(phi(pn, beta) > phi(p, beta))) return false;
  p = pn;
  return true;
}

// The losses of X_mu = U diag(x) U' at p (x the Fermi-Dirac weights, non-negligible on the
// first t eigenvectors), and the rows R_g = (U' C_g U)[1:t, ] (t x d) that the Hessian needs.
inline Vec smooth_losses(const GroupMats& C, const Vec& a, const DualPoint& p, const Vec& x, int t,
                         std::vector<Mat>& R) {
  const int m = static_cast<int>(C.size()), d = static_cast<int>(p.U.rows());
  const int k = p.CV.empty() ? 0 : static_cast<int>(p.CV[0].cols());  // C_g U_k kept by decompose()
  Vec ell(m);
  Mat CU(d, t);
  for (int g = 0; g < m; ++g) {
    if (k > 0) CU.leftCols(k) = p.CV[g];
    if (t > k) CU.rightCols(t - k).noalias() = C[g] * p.U.middleCols(k, t - k);
    R[g].noalias() = CU.transpose() * p.U;  // t x d
    double v = a(g);
    for (int i = 0; i < t; ++i) v -= x(i) * R[g](i, i);
    ell(g) = v;
  }
  return ell;
}

// The Fermi-Dirac entropy of the weights x (first t), which bounds the smoothing's gap.
inline double fermi_dirac_entropy(const Vec& x, int t) {
  double ent = 0;
  for (int i = 0; i < t; ++i) {
    const double xi = std::min(std::max(x(i), 1e-300), 1.0);
    if (xi > 0 && xi < 1) ent -= xi * std::log(xi) + (1 - xi) * std::log1p(-xi);
  }
  return ent;
}

// The Hessian of h_mu(sum_g w_g C_g) in w at p (m x m; Fermi-Dirac weights x and slopes s,
// rows R from smooth_losses()): divided differences Gamma on the pairs i in T, j != i, the
// slopes on the diagonal and the trace constraint.
inline Mat smooth_hessian(const DualPoint& p, const Vec& x, const Vec& s, int t, const std::vector<Mat>& R,
                          double mu) {
  const int m = static_cast<int>(R.size()), d = static_cast<int>(p.lam.size());
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
  return H;
}

// The solution v of H v + y 1 = r, sum v = 0 (the KKT system of a step on the simplex),
// diagonally scaled.
inline Vec simplex_kkt(const Mat& H, const Vec& r) {
  const int m = static_cast<int>(H.rows());
  Vec dsc(m);
  for (int g = 0; g < m; ++g) dsc(g) = 1.0 / std::sqrt(std::max(H(g, g), 1e-300));
  Mat K = Mat::Zero(m + 1, m + 1);
  K.topLeftCorner(m, m) = dsc.asDiagonal() * H * dsc.asDiagonal();
  K.block(0, m, m, 1) = dsc;
  K.block(m, 0, 1, m) = dsc.transpose();
  Vec rhs = Vec::Zero(m + 1);
  rhs.head(m) = dsc.cwiseProduct(r);
  Vec sol = K.fullPivLu().solve(rhs);
  return dsc.cwiseProduct(sol.head(m));
}

// The Newton direction dw of -Phi on {sum dw = 0} at p (weights w, Fermi-Dirac weights x and
// slopes s, losses ell of X_mu, rows R from smooth_losses()), from the Hessian of h_mu(M(w))
// (smooth_hessian()) plus the barrier's; `dec` the Newton decrement squared, `H` the Hessian of
// -Phi. False when the direction is not finite.
inline bool smooth_newton(const DualPoint& p, const Vec& x, const Vec& s, int t, const std::vector<Mat>& R,
                          const Vec& ell, double mu, double beta, Vec& dw, double& dec, Mat& H) {
  const int m = static_cast<int>(R.size());
  const Vec& w = p.w;
  H = smooth_hessian(p, x, s, t, R, mu);
  Vec grad(m);  // gradient of -Phi
  for (int g = 0; g < m; ++g) {
    grad(g) = -ell(g) - beta / w(g);
    H(g, g) += beta / (w(g) * w(g));
  }
  dw = simplex_kkt(H, -grad);
  if (!dw.allFinite()) return false;
  dec = -grad.dot(dw);
  return true;
}

// The tangent dw/dmu of the central path (the centres of Phi as mu, and beta = beta_fac mu,
// vary) at p, from the Hessian H of -Phi at p (smooth_newton()'s: no eigendecomposition). On
// the path ell_mu(w) + beta / w + y 1 = 0, so H dw/dmu = d(ell_mu + beta / w)/dmu on
// {sum dw = 0}. At fixed w the eigenvectors stay and only the Fermi-Dirac weights move:
// dx_i/dmu = -s_i (t_i + nu'), t_i = (l_i - nu) / mu, with nu' = -sum s_i t_i / sum s_i
// keeping their sum; so d ell_g/dmu = sum_i s_i (t_i + nu') (U' C_g U)_ii over the first t.
inline Vec path_tangent(const DualPoint& p, const Vec& s, int t, const std::vector<Mat>& R, double mu, double nu,
                        double beta_fac, const Mat& H) {
  const int m = static_cast<int>(R.size());
  Vec c(t);
  double ss = 0, sts = 0;
  for (int i = 0; i < t; ++i) {
    const double ti = (p.lam(i) - nu) / mu;
    ss += s(i);
    sts += s(i) * ti;
    c(i) = ti;
  }
  const double dnu = ss > 0 ? -sts / ss : 0.0;
  for (int i = 0; i < t; ++i) c(i) = s(i) * (c(i) + dnu);
  Vec dF(m);
  for (int g = 0; g < m; ++g) dF(g) = c.dot(R[g].diagonal().head(t)) + beta_fac / p.w(g);
  return simplex_kkt(H, dF);
}

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
// With `predictor`, each decrease of mu starts from the centre extrapolated along the path's
// tangent (path_tangent(), from the Hessian at hand), kept only where Phi for the new mu is
// higher there (SmoothState::predict()), instead of from the old centre. `hand_over` (0: never)
// is the number of times the restricted primal may come within twice the tolerance without
// certifying before Kelley's method takes over (see below).
inline SmoothOut smooth_dual(const GroupMats& C, const Vec& a, int k, double tol, int max_eigs,
                      double scale, const std::function<void(const Mat&, const Vec&, const Vec&)>& record,
                      int& eig_calls, std::vector<double>& h_lb, std::vector<double>& h_ub,
                      int hand_over = 0, bool predictor = true) {
  SmoothState st(C, a, k, tol, scale, record, eig_calls);
  const int m = st.m, d = st.d;
  SmoothOut& out = st.out;
  double& mu = st.mu;
  DualPoint p;
  if (!st.decompose(out.w, p)) return out;
  const double spread = std::max(p.lam(0) - p.lam(d - 1), 1e-12 * scale);
  mu = 0.05 * spread / std::max(1.0, std::sqrt(static_cast<double>(d)));
  const double beta_fac = 1.0 / m;  // barrier weight on the simplex, relative to mu
  const double mu_fac = 0.1;         // mu shrinks tenfold at each centre
  const double cen = 3.0;            // centred: own gap within 3x what mu and beta allow
  int same_mu = 0, near_misses = 0;
  double mu_tried = std::numeric_limits<double>::infinity();
  Vec x, s;
  double nu = 0;
  while (eig_calls < max_eigs) {
    fp::check_interrupt();
    const double beta = mu * beta_fac;
    fermi_dirac(p.lam, k, mu, x, s, &nu);
    // prefix of the spectrum with non-negligible weight (at least the top k)
    int t = k;
    while (t < d && x(t) > 1e-15) ++t;
    std::vector<Mat> R(m);
    const Vec ell = smooth_losses(C, a, p, x, t, R);
    const double ubx = ell.maxCoeff();
    const double ent = fermi_dirac_entropy(x, t);
    const double g_here = p.w.dot(a) - p.lam.head(k).sum();
    if (ell.maxCoeff() < out.ub) {
      out.ub = ell.maxCoeff();
      out.U = p.U.leftCols(t);
      out.x = x.head(t);
    }
    h_lb.push_back(out.lb);
    h_ub.push_back(out.ub);
    if (st.gap_ok()) { out.converged = true; break; }
    Vec dw;
    double dec = 0;
    Mat H;
    if (!smooth_newton(p, x, s, t, R, ell, mu, beta, dw, dec, H)) break;
    if (!(dec > 0)) {
      mu *= 0.1;
      if (mu < 1e-18 * scale) break;
      continue;
    }
    // centred enough: the point's own gap is within a few times what the smoothing and the
    // barrier allow, or the last line search stopped at Phi's rounding (no step can be seen to
    // improve it); then shrink mu (no new eigendecomposition needed)
    if (ubx - g_here <= cen * (m * beta + mu * ent) || same_mu >= 12 || st.stalled) {
      same_mu = 0;
      const bool was_stalled = st.stalled;
      st.stalled = false;
      if (mu <= 1e-3 * spread && mu <= 0.02 * mu_tried) {
        const int before = eig_calls;
        if (st.try_restricted(p, max_eigs)) { out.converged = true; break; }
        mu_tried = mu;
        // the restricted primal is within twice the tolerance but its weights do not certify it
        // (near a kink of the dual their digits run out): the `hand_over`-th time, Kelley's
        // method closes the gap from the cuts so far, in fewer evaluations than more rounds of
        // the path
        if (hand_over > 0 && eig_calls > before &&
            out.ub - out.lb <= 2.0 * tol * std::max(std::abs(out.ub), fp::tol::gap_floor * scale) &&
            ++near_misses >= hand_over) break;
      }
      const double mu_old = mu;
      mu *= mu_fac;
      if (mu < 1e-18 * scale) break;
      if (predictor) {
        // the predictor: along the path's tangent to the new mu. A point it moved to is near
        // the new centre, so the next Newton step is not damped; where it did not move from a
        // point that no step could improve either (a kink of the dual), the path has nothing
        // left to give and, with `hand_over`, Kelley's method closes the gap from the cuts
        const Vec tangent = path_tangent(p, s, t, R, mu_old, nu, beta_fac, H);
        const bool moved = st.predict(p, (mu - mu_old) * tangent, mu * beta_fac, max_eigs);
        if (moved) same_mu = 1;
        if (!moved && was_stalled && hand_over > 0) break;
      }
      continue;
    }
    double tmax = 1.0;
    for (int g = 0; g < m; ++g)
      if (dw(g) < 0) tmax = std::min(tmax, -0.95 * p.w(g) / dw(g));
    // the first step after mu shrinks: the damped Newton step (the centre moved); otherwise
    // the largest step inside the simplex, backtracking on Phi
    const double step = (same_mu == 0) ? std::min(tmax, 1.0 / (1.0 + std::sqrt(dec / beta))) : tmax;
    ++same_mu;
    const bool accepted = st.line_search(p, dw, step, dec, beta, max_eigs);
    ++out.steps;
    if (!accepted && st.stalled) continue;  // centred to Phi's rounding: the branch above next
    if (!accepted) {
      if (st.gap_ok()) { out.converged = true; break; }
      mu *= 0.1;
      if (mu < 1e-18 * scale) break;
    }
    if (st.gap_ok()) { out.converged = true; break; }
  }
  if (st.gap_ok()) out.converged = true;
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
inline SmoothOut subspace_dual(const GroupMats& C, const Vec& a, int k, double tol, int max_eigs,
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
  auto gap_ok = [&]() { return out.ub - out.lb <= tol * std::max(std::abs(out.ub), fp::tol::gap_floor * scale); };
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
    Mat own;  // the weighted sum in the work matrix of lazy groups, else here
    fp::EigResult e = fp::eig_sym_top(C.weighted(ww, true, own), kp);
    ++eig_calls;
    note_cut(out, C, a, ww, e.vectors.leftCols(k), e.values.head(k).sum(), record);
    return e.vectors;
  };
  Vec w = out.w;
  Mat V = full_eval(w);
  add_vectors(V);
  auto noop = [](const Mat&, const Vec&, const Vec&) {};
  while (eig_calls < max_eigs && !gap_ok()) {
    fp::check_interrupt();
    std::vector<Mat> Ch(m);
    for (int g = 0; g < m; ++g) {
      Ch[g] = Q.transpose() * CQ[g];
      Ch[g] = (Ch[g] + Ch[g].transpose()) / 2.0;
    }
    std::vector<MatMap> Chv;  // views of the projected matrices, as smooth_dual() takes them
    for (const Mat& M : Ch) Chv.emplace_back(M.data(), M.rows(), M.cols());
    const GroupMats Chg(Chv);
    std::vector<double> hl, hu;
    SmoothOut rs = smooth_dual(Chg, a, k, 0.25 * tol, 400, scale, noop, inner_calls, hl, hu);
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
      for (int j = 0; j < rs.x.size(); ++j) if (rs.x(j) > fp::tol::primal_weight) ++c;
      keepU.resize(d, c);
      c = 0;
      for (int j = 0; j < rs.x.size(); ++j) if (rs.x(j) > fp::tol::primal_weight) keepU.col(c++) = Q * rs.U.col(j);
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

}  // namespace minmax
}  // namespace fp

#endif
