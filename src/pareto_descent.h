// Pareto fair PCA's multiple-gradient descent (see pareto.cpp for the objectives): the problem,
// its values and gradients at an iterate, the paper's and the converging directions, the
// restoration of held constraints, Armijo backtracking and the iteration itself.
#ifndef FAIRPROJ_PARETO_DESCENT_H
#define FAIRPROJ_PARETO_DESCENT_H

#include <vector>
#include "linalg.h"
#include "tolerances.h"
#include "pareto_minnorm.h"

namespace fp {
namespace pareto {

using fp::Mat;
using fp::Vec;

// ---------------------------------------------------------------------------------------------
// The problem, from the moments (normalised coordinates, see fp_prepare_normalised()).
struct Problem {
  Mat C;                     // total-loss matrix
  std::vector<Mat> A;        // group matrices
  Vec best;                  // each group's best rank-k loss
  Vec trA;
  double trC;
  std::vector<int> type;     // 0 total, 1 pair (g, h), 2 single g
  std::vector<int> g1, g2;
  int psi;                   // 0 square, 1 absolute
  Vec alpha;                 // eq. 19 regulariser alpha_a ||U||_F^2, one per objective
  double scale;              // objective scale: tr(C) (the total loss of the zero subspace)
};

// Values at U (on or off the manifold: the trace forms of the paper).
//   z_a: the "inner" value of objective a: the total loss (a of type 0), E_g - E_h or E_g;
//   f_a: the reported objective, f_total or psi(z_a), plus alpha_a ||U||_F^2 (eq. 19);
//   gz_a: the Euclidean gradient of z_a (-2 S U).
struct Local {
  Vec E, z, f;
  std::vector<Mat> gz;
  double normU2;
};

inline double psi_val(double z, int psi) { return psi == 0 ? 0.5 * z * z : std::abs(z); }
inline double psi_der(double z, int psi) {
  if (psi == 0) return z;
  return z > 0 ? 1.0 : (z < 0 ? -1.0 : 0.0);
}
inline double sgn(double z) { return z > 0 ? 1.0 : (z < 0 ? -1.0 : 0.0); }

inline Local local_values(const Problem& P, const Mat& U, bool grads) {
  const int ng = static_cast<int>(P.A.size());
  const int M = static_cast<int>(P.type.size());
  Local L;
  std::vector<Mat> AU(ng);
  L.E.resize(ng);
  for (int g = 0; g < ng; ++g) {
    AU[g] = P.A[g] * U;
    L.E(g) = P.trA(g) - (U.array() * AU[g].array()).sum() - P.best(g);
  }
  Mat CU = P.C * U;
  const double f0 = P.trC - (U.array() * CU.array()).sum();
  L.normU2 = U.squaredNorm();
  L.z.resize(M);
  L.f.resize(M);
  if (grads) L.gz.resize(M);
  for (int a = 0; a < M; ++a) {
    if (P.type[a] == 0) {
      L.z(a) = f0;
      L.f(a) = f0;
      if (grads) L.gz[a] = -2.0 * CU;
    } else if (P.type[a] == 1) {
      L.z(a) = L.E(P.g1[a]) - L.E(P.g2[a]);
      L.f(a) = psi_val(L.z(a), P.psi);
      if (grads) L.gz[a] = -2.0 * (AU[P.g1[a]] - AU[P.g2[a]]);
    } else {
      L.z(a) = L.E(P.g1[a]);
      L.f(a) = psi_val(L.z(a), P.psi);
      if (grads) L.gz[a] = -2.0 * AU[P.g1[a]];
    }
    L.f(a) += P.alpha(a) * L.normU2;
  }
  return L;
}

// Euclidean gradient of the reported objective a (eq. 19 form): psi'(z) grad z + 2 alpha U.
inline Mat euclidean_gradient(const Problem& P, const Local& L, const Mat& U, int a) {
  const double w = P.type[a] == 0 ? 1.0 : psi_der(L.z(a), P.psi);
  Mat G = w * L.gz[a];
  if (P.alpha(a) != 0) G += (2.0 * P.alpha(a)) * U;
  return G;
}

inline Mat tangent(const Mat& U, const Mat& G) { return G - U * (U.transpose() * G); }

// ---------------------------------------------------------------------------------------------
// The converging direction. Objectives are compared through F_a = f_total and |z_a| (psi is
// increasing in |z|, so the Pareto set is that of the paper's vector whatever psi), their
// Riemannian gradients divided by the fixed objective scale tr(C). A disparity objective whose
// value is within eps tr(C) of its minimum 0 is *held*: its constraint z_a = 0 is kept to first
// order (the direction is projected on the orthogonal complement of the held gradients) and
// restored by a minimum-norm Gauss-Newton correction Dr. The direction Dt is minus the
// minimum-norm point of the convex hull of the projected scaled gradients of the free
// objectives (phase 1: the disparity objectives only; phase 2: the total loss as well);
// theta = ||Dt|| is the (scale-free) stationarity measure.
struct Direction {
  Mat Dt, Dr;
  double theta = 0, desc = -INFINITY;
  int nheld = 0, nfree = 0;
  std::vector<char> held, use;
  Vec lambda;
  std::vector<Mat> tz;  // tangent gradients of z_a
};

inline Direction pareto_direction(const Problem& P, const Mat& U, const Local& L, int phase, double eps, double qp_tol) {
  const int M = static_cast<int>(P.type.size());
  const int d = static_cast<int>(U.rows()), k = static_cast<int>(U.cols());
  const double s = P.scale;
  Direction dir;
  dir.held.assign(M, 0);
  dir.use.assign(M, 0);
  dir.tz.resize(M);
  dir.lambda = Vec::Zero(M);
  dir.Dt = Mat::Zero(d, k);
  dir.Dr = Mat::Zero(d, k);
  std::vector<int> hidx;
  for (int a = 0; a < M; ++a) {
    dir.tz[a] = tangent(U, L.gz[a]);
    if (P.type[a] != 0 && std::abs(L.z(a)) <= eps * s) {
      dir.held[a] = 1;
      hidx.push_back(a);
    } else if (P.type[a] != 0 || phase == 2) {
      dir.use[a] = 1;
    }
  }
  dir.nheld = static_cast<int>(hidx.size());
  Mat Q(d * k, 0);
  if (dir.nheld > 0) {
    Mat Jt(d * k, dir.nheld);
    Vec zh(dir.nheld);
    for (int i = 0; i < dir.nheld; ++i) {
      Jt.col(i) = Eigen::Map<const Vec>(dir.tz[hidx[i]].data(), d * k);
      zh(i) = L.z(hidx[i]);
    }
    Eigen::JacobiSVD<Mat> svd(Jt, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Vec sv = svd.singularValues();
    int r = 0;
    const double smax = sv.size() ? sv(0) : 0.0;
    for (int i = 0; i < sv.size(); ++i)
      if (sv(i) > fp::tol::rank * std::max(smax, fp::tol::tiny) && sv(i) > 0) ++r;
    if (r > 0) {
      Q = svd.matrixU().leftCols(r);
      // minimum-norm x with Jt' x = -zh: x = Q S^-1 V' (-zh)
      Vec y = svd.matrixV().leftCols(r).transpose() * (-zh);
      for (int i = 0; i < r; ++i) y(i) /= sv(i);
      Vec x = Q * y;
      dir.Dr = Eigen::Map<Mat>(x.data(), d, k);
    }
  }
  std::vector<int> fidx;
  std::vector<Mat> ph;
  for (int a = 0; a < M; ++a) {
    if (!dir.use[a]) continue;
    Mat h = (P.type[a] == 0 ? 1.0 : sgn(L.z(a))) / s * dir.tz[a];
    if (Q.cols() > 0) {
      Eigen::Map<Vec> hv(h.data(), d * k);
      Vec c = Q.transpose() * hv;
      hv -= Q * c;
    }
    fidx.push_back(a);
    ph.push_back(h);
  }
  dir.nfree = static_cast<int>(fidx.size());
  if (dir.nfree == 0) return dir;
  const int m = dir.nfree;
  Mat Gram(m, m);
  for (int i = 0; i < m; ++i)
    for (int j = i; j < m; ++j) Gram(i, j) = Gram(j, i) = (ph[i].array() * ph[j].array()).sum();
  MinNormResult qp = min_norm_simplex(Gram, qp_tol, 100 * (m + 5));
  for (int i = 0; i < m; ++i) {
    dir.lambda(fidx[i]) = qp.lambda(i);
    if (qp.lambda(i) != 0) dir.Dt -= qp.lambda(i) * ph[i];
  }
  dir.theta = dir.Dt.norm();
  const double t2 = dir.theta * dir.theta;
  for (int i = 0; i < m; ++i) dir.desc = std::max(dir.desc, (dir.Dt.array() * ph[i].array()).sum() + t2);
  return dir;
}

inline Mat retract(const Mat& V, int retraction) {
  return retraction == 0 ? fp::polar_orthonormal(V) : fp::qr_orthonormal(V);
}

// Gauss-Newton restoration of the held constraints z_a = 0 at a (trial) point: minimum-norm
// tangent corrections, retracted, until |z_a| <= 1e-14 tr(C) or no longer halving (at most 8).
// Returns the retracted point; `moved` accumulates the corrections (for the Armijo allowance).
inline Mat restore(const Problem& P, Mat U, const std::vector<char>& held, double eps, int retraction, Mat* moved) {
  const int M = static_cast<int>(P.type.size());
  const int d = static_cast<int>(U.rows()), k = static_cast<int>(U.cols());
  std::vector<int> hidx;
  for (int a = 0; a < M; ++a)
    if (held[a]) hidx.push_back(a);
  const int nh = static_cast<int>(hidx.size());
  if (nh == 0) return U;
  double last = INFINITY;
  for (int it = 0; it < 8; ++it) {
    Local L = local_values(P, U, true);
    double worst = 0;
    Mat Jt(d * k, nh);
    Vec zh(nh);
    for (int i = 0; i < nh; ++i) {
      zh(i) = L.z(hidx[i]);
      worst = std::max(worst, std::abs(zh(i)));
      Mat tz = tangent(U, L.gz[hidx[i]]);
      Jt.col(i) = Eigen::Map<const Vec>(tz.data(), d * k);
    }
    // to rounding level: a residual left in a held constraint would cost the free objectives a
    // first-order amount at every step (through its multiplier) and mask their decrease
    if (worst <= 1e-14 * P.scale || !(worst < 0.5 * last)) break;
    last = worst;
    Eigen::JacobiSVD<Mat> svd(Jt, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Vec sv = svd.singularValues();
    const double smax = sv.size() ? sv(0) : 0.0;
    Vec x = Vec::Zero(d * k);
    Vec y = svd.matrixV().transpose() * (-zh);
    for (int i = 0; i < sv.size(); ++i)
      if (sv(i) > fp::tol::rank * std::max(smax, fp::tol::tiny) && sv(i) > 0) x += svd.matrixU().col(i) * (y(i) / sv(i));
    Mat X = Eigen::Map<Mat>(x.data(), d, k);
    if (moved) *moved += X;
    U = retract(U + X, retraction);
  }
  return U;
}

inline double F_value(const Problem& P, const Local& L, int a) { return P.type[a] == 0 ? L.z(a) : std::abs(L.z(a)); }

// ---------------------------------------------------------------------------------------------
// The iteration. step: 0 = the paper's iteration (eta / sqrt(t), normalised Euclidean or
// Riemannian gradients), 1 = the converging method (Armijo on every free objective, held
// balanced pairs).
struct Settings {
  bool riemannian = true, normalize = true, balance = true, trace = false;
  int step = 1, retraction = 0, iterations = 0, max_backtrack = 0;
  double tol = 0, eta0 = 0, beta = 0, qp_tol = 0, eps = 0;
};

// Per iteration: objective values, group losses, the direction's norm and move, step, descent,
// stationarity, held pairs, phase; with `trace`, also the iterate, the gradients, the
// direction, the correction and the QP weights.
struct History {
  std::vector<Vec> f, E, lambda;
  std::vector<double> norm, moved, step, desc, theta, held, phase;
  std::vector<Mat> U, D, Dr;
  std::vector<std::vector<Mat>> G;
};

// status: 0 iteration cap, 1 stationary (theta <= tol), 2 line search failed, 3 fixed point of
// the paper's iteration that is not stationary, 4 no decrease beyond rounding, 5 time limit.
struct Result {
  Mat U;
  History h;
  bool converged = false;
  int status = 0, switched = -1;
};

// The paper's direction: minus the min-norm point of the (normalised) gradients Gh of the
// eq. 19 objectives, with its norm, its tangent move and its worst descent.
struct PaperStep {
  Mat D;
  double nD = 0, moved = 0, desc = -INFINITY;
  Vec lambda;
  std::vector<Mat> Gh;
};

inline PaperStep paper_step(const Problem& P, const Local& L, const Mat& U, const Settings& s) {
  const int M = static_cast<int>(P.type.size());
  PaperStep r;
  r.Gh.resize(M);
  for (int a = 0; a < M; ++a) {
    Mat G = euclidean_gradient(P, L, U, a);
    if (s.riemannian) {
      const double full = G.norm();
      G = tangent(U, G);
      if (G.norm() <= 1e-11 * full) G.setZero();
    }
    const double gn = G.norm();
    r.Gh[a] = (s.normalize && gn > 0) ? Mat(G / gn) : G;
  }
  Mat Gram(M, M);
  for (int a = 0; a < M; ++a)
    for (int b = a; b < M; ++b) Gram(a, b) = Gram(b, a) = (r.Gh[a].array() * r.Gh[b].array()).sum();
  MinNormResult qp = min_norm_simplex(Gram, s.qp_tol, 100 * (M + 5));
  r.D = Mat::Zero(U.rows(), U.cols());
  for (int a = 0; a < M; ++a)
    if (qp.lambda(a) != 0) r.D -= qp.lambda(a) * r.Gh[a];
  r.nD = r.D.norm();
  r.moved = tangent(U, r.D).norm();
  for (int a = 0; a < M; ++a) r.desc = std::max(r.desc, (r.D.array() * r.Gh[a].array()).sum() + r.nD * r.nD);
  r.lambda = qp.lambda;
  return r;
}

// Armijo backtracking on every free objective at the retracted trial point; held objectives
// must stay held. Slopes along Dt are <grad F_a, Dt> <= -tr(C) ||Dt||^2 (QP optimality).
// ok: a step was accepted (U_new, eta); strict = false: some step length decreases only
// within rounding of the objective values.
struct Armijo {
  bool ok = false, strict = true;
  double eta = 0;
  Mat U_new;
};

inline Armijo armijo_step(const Problem& P, const Local& L, const Mat& U, const Direction& dir, const Settings& s,
                   double eta_prev) {
  const int M = static_cast<int>(P.type.size());
  std::vector<double> slope(M, 0.0), rslope(M, 0.0);
  for (int a = 0; a < M; ++a) {
    const Mat ga = (P.type[a] == 0 ? 1.0 : sgn(L.z(a))) * dir.tz[a];
    slope[a] = (ga.array() * dir.Dt.array()).sum();
    rslope[a] = (ga.array() * dir.Dr.array()).sum();
  }
  Armijo r;
  double eta = s.eta0 / std::max(dir.theta, fp::tol::tiny);  // a move of about eta0 radians
  if (eta_prev > 0) eta = std::min(eta, 2.0 * eta_prev);
  if (dir.theta == 0) eta = 0;
  for (int p = 0; p <= s.max_backtrack; ++p) {
    // the retraction followed by the restoration is a retraction onto the held constraints
    // (the restoration of the step is O(eta^2)); only the correction Dr of the current point
    // (non-zero when a pair has just been reached) may cost a first-order amount, allowed for
    r.U_new = retract(U + eta * dir.Dt + dir.Dr, s.retraction);
    if (dir.nheld > 0) r.U_new = restore(P, r.U_new, dir.held, s.eps, s.retraction, nullptr);
    Local Ln = local_values(P, r.U_new, false);
    r.ok = true;
    bool within = true;  // passes when rounding of the objective values is allowed for
    for (int a = 0; a < M && within; ++a) {
      if (dir.held[a]) {
        if (std::abs(Ln.z(a)) > s.eps * P.scale) r.ok = within = false;
      } else if (dir.use[a]) {
        const double Fa = F_value(P, L, a);
        const double allow = 1e-13 * (std::abs(Fa) + P.scale);
        const double bound = Fa + s.beta * eta * slope[a] + std::max(0.0, rslope[a]);
        const double Fn = F_value(P, Ln, a);
        if (Fn > bound + allow) within = false;
        if (Fn > bound) r.ok = false;
      }
    }
    if (!within) r.ok = false;
    if (within && !r.ok) r.strict = false;
    if (r.ok) break;
    eta *= 0.5;
  }
  r.eta = eta;
  return r;
}

// Records iteration t's values (and, with s.trace, its iterate, gradients and directions).
inline void record(History& h, const Problem& P, const Local& L, const Mat& U, const Direction& dir, const PaperStep* ps,
            const Mat& D, double nD, double moved, double desc, int phase, const Settings& s) {
  h.f.push_back(L.f);
  h.E.push_back(L.E);
  h.norm.push_back(nD);
  h.moved.push_back(moved);
  h.desc.push_back(desc);
  h.theta.push_back(dir.theta);
  h.held.push_back(dir.nheld);
  h.phase.push_back(phase);
  if (!s.trace) return;
  const int M = static_cast<int>(P.type.size());
  h.lambda.push_back(ps ? ps->lambda : dir.lambda);
  h.U.push_back(U);
  std::vector<Mat> gl(M);
  for (int a = 0; a < M; ++a) {
    gl[a] = ps ? ps->Gh[a] : Mat((P.type[a] == 0 ? 1.0 : sgn(L.z(a))) / P.scale * dir.tz[a]);
  }
  h.G.push_back(gl);
  h.D.push_back(D);
  h.Dr.push_back(dir.Dr);
}

// Multiple-gradient descent from U; `interrupt` is called every 50 iterations (the caller's
// check for a user interrupt), `out_of_time` every 10 (true: stop at the current iterate, status
// 5, as at the iteration cap).
template <typename Interrupt, typename OutOfTime>
Result descend(const Problem& P, Mat U, const Settings& s, Interrupt interrupt, OutOfTime out_of_time) {
  Result r;
  int phase = (s.step == 1 && s.balance) ? 1 : 2;
  r.switched = (phase == 2) ? 0 : -1;
  double eta_prev = 0;
  for (int t = 0; t <= s.iterations; ++t) {
    if (t % 50 == 0) interrupt();
    Local L = local_values(P, U, true);
    Direction dir = pareto_direction(P, U, L, phase, s.eps, s.qp_tol);
    // phase 1 is a warm start: it ends when the pairs are balanced or the disparity objectives
    // are stationary to sqrt(tol) (phase 2 keeps descending them, with the total loss)
    if (s.step == 1 && phase == 1 && (dir.nfree == 0 || dir.theta <= std::sqrt(s.tol))) {
      phase = 2;  // balanced (or the disparity objectives are stationary): descend all objectives
      r.switched = t;
      eta_prev = 0;
      dir = pareto_direction(P, U, L, phase, s.eps, s.qp_tol);
    }
    PaperStep ps;
    if (s.step == 0) {
      ps = paper_step(P, L, U, s);
      record(r.h, P, L, U, dir, &ps, ps.D, ps.nD, ps.moved, ps.desc, phase, s);
    } else {
      record(r.h, P, L, U, dir, nullptr, dir.Dt, dir.theta, dir.theta, dir.desc, phase, s);
    }
    // Stationarity of the iterate (the same test for both step rules). The paper's iteration
    // starts by leaving its start, so it is tested from its first step on.
    if (phase == 2 && dir.theta <= s.tol && (s.step == 1 || t > 0)) {
      r.converged = true;
      r.status = 1;
      r.h.step.push_back(0);
      break;
    }
    if (t == s.iterations) {
      r.h.step.push_back(0);
      break;
    }
    if (t > 0 && t % 10 == 0 && out_of_time()) {
      r.status = 5;
      r.h.step.push_back(0);
      break;
    }
    if (s.step == 0) {
      if (ps.moved <= 1e-15) {
        r.status = 3;
        r.h.step.push_back(0);
        break;
      }
      const double eta = s.eta0 / std::sqrt(static_cast<double>(t + 1));
      r.h.step.push_back(eta);
      U = retract(U + eta * ps.D, s.retraction);
      continue;
    }
    Armijo step = armijo_step(P, L, U, dir, s, eta_prev);
    if (!step.ok) {
      // strict: the line search failed; otherwise the step decreases some objective only
      // within rounding of its value: the stationarity tolerance is below what the objective
      // values can resolve; stop here (not converged)
      r.status = step.strict ? 2 : 4;
      r.h.step.push_back(0);
      break;
    }
    r.h.step.push_back(step.eta);
    eta_prev = step.eta;
    U = step.U_new;
  }
  r.U = U;
  return r;
}

}  // namespace pareto
}  // namespace fp

#endif
