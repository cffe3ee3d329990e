// Convex fair PCA of Olfat & Aswani (2019): the semidefinite relaxation
//
//   maximise   <C, P> - mu * h(P)
//   subject to P in F_k = {P symmetric : tr P = k, 0 <= P <= I}      (the Fantope)
//              f' P f <= b                                          (projected mean difference)
//
// with h(P) = max(lambda_max(P A+ P), lambda_max(P A- P)), A+- = phi I +- D, the Schur-complement
// form of the covariance term (D = difference of the group covariances). h(P) = phi + ||V'DV||_2
// when P = VV' is a projection.
//
// Solvers (no general-purpose SDP code):
//  * mu = 0: the only constraint besides the Fantope is one linear inequality, so the Lagrangian
//    dual is the one-dimensional convex problem  min_{nu >= 0} nu b + (sum of the k largest
//    eigenvalues of C - nu f f').  It is solved by bisection on its (sub)derivative
//    b - f' P(nu) f; the primal solution is recovered as the convex combination of the two
//    top-k eigenprojections that bracket the root (complementary slackness), and the duality
//    gap is reported.
//  * mu > 0: accelerated projected gradient (FISTA with backtracking and adaptive restart) on
//    the Nesterov-smoothed objective (h replaced by eta * log tr exp of the block-diagonal
//    matrix diag(P A+ P, P A- P) / eta, which is within eta log(2d) of h). The projection onto
//    F_k is an eigendecomposition with shifted and clipped eigenvalues; the mean constraint is
//    handled exactly by a one-dimensional search on its multiplier. Optimality is certified by
//    a Lagrangian dual bound built from the iterate: with the softmax weights E_s of the
//    smoothing, W_s = mu E_s and R_s = -W_s P M_s are feasible multipliers of the two Schur
//    blocks, and weak duality gives  opt <= LMO(G) + mu sum_s <E_s, P A_s P>, where G is the
//    smoothed gradient and LMO(G) = max over the feasible set of <G, S> (solved by the mu = 0
//    machinery). gap = that bound - objective.
//  * b = 0 (delta = 0) forces P f = 0; the problem is then solved in an orthonormal basis of
//    the complement of f, without the constraint.
#include <chrono>
#include <limits>
#include "linalg.h"
#include "fantope.h"
#include "runtime.h"
#include "tolerances.h"
#include "rcpp_entry.h"

namespace fp {
namespace cfpca {

using fp::Mat;
using fp::Vec;
using fp::fantope_project;

struct TopK {
  double value;  // sum of the k largest eigenvalues
  double fPf;    // f' V V' f
  Mat V;         // d x k
};

TopK topk_shifted(const Mat& G, const Vec& f, double nu, int k) {
  Mat A = G - nu * f * f.transpose();
  fp::EigResult e = fp::eig_sym_top(A, k);
  TopK r;
  r.value = e.values.sum();
  r.V = e.vectors;
  r.fPf = (e.vectors.transpose() * f).squaredNorm();
  return r;
}

// max_{P in F_k, f'Pf <= b} <G, P> through its one-dimensional Lagrangian dual.
struct MeanDual {
  double upper;   // a dual value (upper bound on the maximum)
  double lower;   // value of the recovered feasible primal point
  double nu;      // multiplier
  double theta;   // weight of V_lo in the primal mixture
  Mat V_lo, V_hi; // top-k eigenvectors at the right / left end of the final bracket
  int evals;
};

MeanDual mean_dual(const Mat& G, const Vec& f, double b, int k, double rtol) {
  MeanDual out;
  out.evals = 1;
  TopK t0 = topk_shifted(G, f, 0.0, k);
  double scale = std::max(1.0, std::fabs(t0.value));
  if (t0.fPf <= b) {
    out.upper = out.lower = t0.value;
    out.nu = 0.0;
    out.theta = 1.0;
    out.V_lo = out.V_hi = t0.V;
    return out;
  }
  double ff = f.squaredNorm();
  double gnorm = G.cwiseAbs().maxCoeff() * G.rows();
  double nu_lo = 0.0, nu_hi = std::max(1e-8, gnorm / std::max(ff, fp::tol::tiny));
  TopK t_lo = t0, t_hi = topk_shifted(G, f, nu_hi, k);
  ++out.evals;
  while (t_hi.fPf > b && out.evals < 200) {
    nu_lo = nu_hi;
    t_lo = t_hi;
    nu_hi *= 4.0;
    t_hi = topk_shifted(G, f, nu_hi, k);
    ++out.evals;
  }
  // bisection on the sign of the derivative b - f' P(nu) f
  for (int it = 0; it < 200; ++it) {
    double gap_dual = (nu_hi * b + t_hi.value) - (nu_lo * b + t_lo.value);
    if (nu_hi - nu_lo <= 1e-14 * std::max(1.0, nu_hi) && std::fabs(gap_dual) <= rtol * scale) break;
    // stop when the mixture of the bracket ends is certified optimal to rtol
    double a_lo = t_hi.fPf, a_hi = t_lo.fPf;  // feasible end, infeasible end
    double th = (a_hi - a_lo) > 0 ? (a_hi - b) / (a_hi - a_lo) : 1.0;
    double primal = th * (t_hi.value + nu_hi * t_hi.fPf) + (1 - th) * (t_lo.value + nu_lo * t_lo.fPf);
    double dual = nu_hi * b + t_hi.value;
    if (dual - primal <= rtol * scale && it > 2) break;
    double mid = 0.5 * (nu_lo + nu_hi);
    TopK tm = topk_shifted(G, f, mid, k);
    ++out.evals;
    if (tm.fPf > b) { nu_lo = mid; t_lo = tm; } else { nu_hi = mid; t_hi = tm; }
  }
  double a_lo = t_hi.fPf, a_hi = t_lo.fPf;
  double th = (a_hi - a_lo) > 0 ? (a_hi - b) / (a_hi - a_lo) : 1.0;
  th = std::min(1.0, std::max(0.0, th));
  out.theta = th;
  out.V_lo = t_hi.V;
  out.V_hi = t_lo.V;
  out.nu = nu_hi;
  // <G, P> of the mixture: <G, VV'> = value(nu) + nu f'VV'f
  out.lower = th * (t_hi.value + nu_hi * t_hi.fPf) + (1 - th) * (t_lo.value + nu_lo * t_lo.fPf);
  out.upper = nu_hi * b + t_hi.value;
  return out;
}

Mat mixture(const MeanDual& m) {
  return m.theta * m.V_lo * m.V_lo.transpose() + (1 - m.theta) * m.V_hi * m.V_hi.transpose();
}

// The smoothed covariance penalty and its gradient.
struct Smooth {
  double h;      // exact max(lambda_max(P A+ P), lambda_max(P A- P))
  double s;      // smoothed value, h <= s <= h + eta log(2d)
  double avg;    // sum_s <E_s, P A_s P>: the eigenvalues averaged with the softmax weights
  Mat grad;      // gradient of s
};

// Low-rank path: range(P) is inside the span of the orthonormal columns of Q (m < d), so
// P A P = Q (Ys As Ys) Q' with Ys = Q'PQ, As = Q'AQ, and only m x m eigenproblems are needed;
// the d - m zero eigenvalues of each block still count in the softmax normaliser.
Smooth smooth_eval_lr(const Mat& P, const Mat& Q, const Mat& Ap, const Mat& Am, double eta, bool want_grad) {
  const int d = static_cast<int>(P.rows()), m = static_cast<int>(Q.cols());
  Mat Ys = Q.transpose() * (P * Q);
  Ys = 0.5 * (Ys + Ys.transpose());
  Mat QAp = Q.transpose() * Ap, QAm = Q.transpose() * Am;  // m x d
  Mat Bp = Ys * (QAp * Q) * Ys, Bm = Ys * (QAm * Q) * Ys;
  Bp = 0.5 * (Bp + Bp.transpose());
  Bm = 0.5 * (Bm + Bm.transpose());
  fp::EigResult ep = fp::eig_sym_full(Bp), em = fp::eig_sym_full(Bm);
  double mx = std::max(0.0, std::max(ep.values(0), em.values(0)));
  Smooth r;
  r.h = std::max(ep.values(0), em.values(0));
  if (m < d) r.h = std::max(r.h, 0.0);
  Vec wp = ((ep.values.array() - mx) / eta).exp().matrix();
  Vec wm = ((em.values.array() - mx) / eta).exp().matrix();
  double Z = wp.sum() + wm.sum() + 2.0 * (d - m) * std::exp(-mx / eta);
  r.s = mx + eta * std::log(Z);
  r.avg = (wp.dot(ep.values) + wm.dot(em.values)) / Z;
  if (want_grad) {
    Mat Ep = ep.vectors * (wp / Z).asDiagonal() * ep.vectors.transpose();
    Mat Em = em.vectors * (wm / Z).asDiagonal() * em.vectors.transpose();
    Mat T = Q * ((Ep * Ys) * QAp + (Em * Ys) * QAm);
    r.grad = T + T.transpose();
  }
  return r;
}

Smooth smooth_eval(const Mat& P, const Mat& Ap, const Mat& Am, double eta, bool want_grad,
                   const Mat* Q = nullptr) {
  if (Q && Q->cols() > 0 && Q->cols() < P.rows()) return smooth_eval_lr(P, *Q, Ap, Am, eta, want_grad);
  Mat Bp = P * Ap * P, Bm = P * Am * P;
  Bp = 0.5 * (Bp + Bp.transpose());
  Bm = 0.5 * (Bm + Bm.transpose());
  fp::EigResult ep = fp::eig_sym_full(Bp), em = fp::eig_sym_full(Bm);
  double m = std::max(ep.values(0), em.values(0));
  Smooth r;
  r.h = m;
  Vec wp = ((ep.values.array() - m) / eta).exp().matrix();
  Vec wm = ((em.values.array() - m) / eta).exp().matrix();
  double Z = wp.sum() + wm.sum();
  r.s = m + eta * std::log(Z);
  r.avg = (wp.dot(ep.values) + wm.dot(em.values)) / Z;
  if (want_grad) {
    // only eigenvectors with non-negligible weight contribute
    int np = 0, nm = 0;
    for (int i = 0; i < wp.size(); ++i) if (wp(i) / Z > 1e-16) np = i + 1;
    for (int i = 0; i < wm.size(); ++i) if (wm(i) / Z > 1e-16) nm = i + 1;
    Mat Ep = ep.vectors.leftCols(np) * (wp.head(np) / Z).asDiagonal() * ep.vectors.leftCols(np).transpose();
    Mat Em = em.vectors.leftCols(nm) * (wm.head(nm) / Z).asDiagonal() * em.vectors.leftCols(nm).transpose();
    Mat T = Ep * P * Ap + Em * P * Am;
    r.grad = T + T.transpose();
  }
  return r;
}

struct Problem {
  Mat C, Ap, Am;
  Vec f;
  double b;
  int k;
  double mu;
  bool has_mean;
};

// Projection onto F_k intersected with {f'Pf <= b}: P(nu) = Proj_F(X - nu f f'), nu >= 0 found
// by a safeguarded secant (Illinois) search; nu_warm carries the multiplier between calls.
Mat project_feasible(const Problem& pr, const Mat& X, double& nu_warm, Mat* basis = nullptr) {
  Mat P0 = fantope_project(X, pr.k, basis);
  if (!pr.has_mean) return P0;
  double a0 = pr.f.dot(P0 * pr.f);
  if (a0 <= pr.b) { nu_warm = 0.0; return P0; }
  Mat F = pr.f * pr.f.transpose();
  double lo = 0.0, flo = a0 - pr.b;
  double hi = std::max(nu_warm, 1e-6 / std::max(pr.f.squaredNorm(), fp::tol::tiny));
  Mat Bhi;
  Mat Phi = fantope_project(X - hi * F, pr.k, &Bhi);
  double fhi = pr.f.dot(Phi * pr.f) - pr.b;
  int guard = 0;
  while (fhi > 0 && guard++ < 100) {
    lo = hi; flo = fhi;
    hi *= 4.0;
    Phi = fantope_project(X - hi * F, pr.k, &Bhi);
    fhi = pr.f.dot(Phi * pr.f) - pr.b;
  }
  double tolf = 1e-12 * std::max(1.0, pr.b) + 1e-14;
  int side = 0;
  for (int it = 0; it < 100 && fhi < -tolf && (hi - lo) > fp::tol::bracket * hi; ++it) {
    double nu = hi - fhi * (hi - lo) / (fhi - flo);
    if (!(nu > lo && nu < hi)) nu = 0.5 * (lo + hi);
    Mat Bn;
    Mat Pn = fantope_project(X - nu * F, pr.k, &Bn);
    double fn = pr.f.dot(Pn * pr.f) - pr.b;
    if (fn > 0) {
      lo = nu; flo = fn;
      if (side == -1) fhi *= 0.5;
      side = -1;
    } else {
      hi = nu; fhi = fn; Phi = Pn; Bhi = Bn;
      if (side == 1) flo *= 0.5;
      side = 1;
    }
  }
  nu_warm = hi;
  if (basis) *basis = Bhi;
  return Phi;  // feasible end of the bracket
}

// Upper bound on max_{S feasible} <G, S>.
double lmo_value(const Problem& pr, const Mat& G, double rtol) {
  if (!pr.has_mean) return fp::top_eig_sum(G, pr.k);
  return mean_dual(G, pr.f, pr.b, pr.k, rtol).upper;
}

// ---------------------------------------------------------------------------------------------
// The solver in steps: the problem in the complement of f when delta = 0 (reduce()), stage 1
// (the mean-constrained problem by its exact one-dimensional dual, or the top-k eigenvectors),
// stage 2 (FISTA on the smoothed objective, when mu > 0) and the components.

// The problem to solve, and the basis Q of the complement of f it lives in when `reduced`.
struct Reduced {
  Problem pr;
  Mat Q;
  bool reduced = false;
};

Reduced reduce(const Mat& C, const Vec& f, double b, const Mat& Ap, const Mat& Am, int k, double mu) {
  const int d = static_cast<int>(C.rows());
  Reduced r;
  Problem& pr = r.pr;
  const double fn = f.norm();
  // delta = 0: work in an orthonormal basis Q of the complement of f
  r.reduced = (b <= 0.0 && fn > 0.0);
  if (r.reduced) {
    Vec u = f / fn;
    Vec e1 = Vec::Zero(d);
    e1(0) = 1.0;
    Vec v = u - e1;
    Mat H = Mat::Identity(d, d);
    if (v.norm() > 1e-12) {
      v /= v.norm();
      H -= 2.0 * v * v.transpose();  // H u = e1
    }
    r.Q = H.rightCols(d - 1);
    pr.C = r.Q.transpose() * C * r.Q;
    pr.Ap = r.Q.transpose() * Ap * r.Q;
    pr.Am = r.Q.transpose() * Am * r.Q;
    pr.f = Vec::Zero(d - 1);
    pr.has_mean = false;
  } else {
    pr.C = C;
    pr.Ap = Ap;
    pr.Am = Am;
    pr.f = f;
    pr.has_mean = fn > 0.0;
  }
  pr.b = std::max(b, 0.0);
  pr.k = k;
  pr.mu = mu;
  return r;
}

struct Stage1 {
  Mat P;
  double nu = 0.0, upper = 0.0, lower = 0.0;
  int evals = 0;
};

Stage1 mean_stage(const Problem& pr, int k, double tol) {
  Stage1 s;
  if (pr.has_mean) {
    MeanDual md = mean_dual(pr.C, pr.f, pr.b, k, tol * 1e-2);
    s.P = mixture(md);
    s.nu = md.nu;
    s.upper = md.upper;
    s.lower = md.lower;
    s.evals = md.evals;
  } else {
    fp::EigResult e = fp::eig_sym_top(pr.C, k);
    s.P = e.vectors * e.vectors.transpose();
    s.upper = s.lower = e.values.sum();
    s.evals = 1;
  }
  return s;
}

struct Settings {
  int k = 1, maxit = 0, check_every = 10;
  double mu = 0, tol = 0, eta_rel = 0;
  bool lowrank = true;
};

// The result: the solution P, its objective, penalty h, duality gap, the projection's
// multiplier nu, convergence, iterations, the final smoothing eta, and per check the
// iteration, objective and gap.
struct Fit {
  Mat P;
  double h = std::numeric_limits<double>::quiet_NaN();  // none without stage 2
  double objective = 0, gap = 0, nu = 0, eta = 0;
  bool converged = false, timed_out = false;
  int iter = 0, evals = 0;
  std::vector<double> hist_obj, hist_gap;
  std::vector<int> hist_it;
};

// Stage 2: FISTA on the smoothed objective, started from `fit.P` (stage 1's solution);
// `out_of_time` is called after every iteration (the caller's check for a user interrupt, its
// progress report and time limit): when it returns true, the gap of the current iterate is
// computed and the fit stops there, not converged, with `timed_out` set.
template <typename OutOfTime>
void fista(const Problem& pr, const Settings& st, Fit& fit, OutOfTime out_of_time) {
  const int dd = static_cast<int>(pr.C.rows());
  const int k = st.k, maxit = st.maxit;
  const double mu = st.mu, tol = st.tol;
  const bool lowrank = st.lowrank;
  Mat P = fit.P;
  Smooth s0 = smooth_eval(P, pr.Ap, pr.Am, 1.0, false);
  double obj0 = pr.C.cwiseProduct(P).sum() - mu * s0.h;
  double logm = std::log(2.0 * dd);
  const double eta_target = st.eta_rel * std::max(1.0, std::fabs(obj0)) / (mu * logm);
  // continuation: start with a coarse smoothing and shrink it as the iterates settle
  double eta = std::max(eta_target, 1e-2 * std::max(1.0, std::fabs(obj0)) / (mu * logm));
  // orthonormal bases containing the ranges of P and Y (low-rank evaluations when lowrank)
  auto range_basis = [&](const Mat& X) {
    fp::EigResult e = fp::eig_sym_full(0.5 * (X + X.transpose()));
    int r = 0;
    for (int i = 0; i < e.values.size(); ++i) if (std::fabs(e.values(i)) > 1e-12) r = i + 1;
    return Mat(e.vectors.leftCols(std::max(r, 1)));
  };
  auto join_basis = [&](const Mat& A, const Mat& B) {
    Mat W(A.rows(), A.cols() + B.cols());
    W << A, B;
    if (W.cols() >= W.rows()) return Mat();  // no saving: dense path
    return fp::householder_q(W);
  };
  auto phi_eval = [&](const Mat& X, bool grad, Smooth& sm, const Mat& B) {
    sm = smooth_eval(X, pr.Ap, pr.Am, eta, grad, (lowrank && B.cols() > 0) ? &B : nullptr);
    return pr.C.cwiseProduct(X).sum() - mu * sm.s;
  };
  Mat UP = lowrank ? range_basis(P) : Mat(), UY = UP, Un;
  Smooth sP, sY;
  double fP = phi_eval(P, true, sP, UP);
  Mat Pprev = P, Y = P;
  double t = 1.0;
  // initial curvature estimate
  double L = mu * (2.0 * std::max(pr.Ap.norm(), pr.Am.norm())) * (1.0 + k / eta * std::max(pr.Ap.norm(), pr.Am.norm()));
  L = std::max(L * 1e-3, 1e-12);
  double nu_w = 0.0;
  bool converged = false;
  double gap = fit.gap;
  int iter;
  for (iter = 1; iter <= maxit; ++iter) {
    double fY = phi_eval(Y, true, sY, UY);
    Mat gY = pr.C - mu * sY.grad;
    Mat Pn;
    double fPn = 0.0;
    Smooth sPn;
    for (int bt = 0; bt < 60; ++bt) {
      Pn = project_feasible(pr, Y + gY / L, nu_w, lowrank ? &Un : nullptr);
      fPn = phi_eval(Pn, false, sPn, Un);
      Mat Dm = Pn - Y;
      double quad = fY + gY.cwiseProduct(Dm).sum() - 0.5 * L * Dm.squaredNorm();
      if (fPn >= quad - 1e-14 * std::max(1.0, std::fabs(fY))) break;
      L *= 2.0;
    }
    double tn = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
    if (fPn < fP) {  // adaptive restart: keep the better point, reset the momentum
      Y = P;
      UY = UP;
      t = 1.0;
      Pprev = P;
    } else {
      Y = Pn + ((t - 1.0) / tn) * (Pn - P);
      if (lowrank) UY = join_basis(Un, UP);
      Pprev = P;
      P = Pn;
      UP = Un;
      fP = fPn;
      t = tn;
    }
    L *= 0.9;
    const bool stop = out_of_time();
    if (stop || iter % st.check_every == 0 || iter == maxit) {
      Smooth sc;
      phi_eval(P, true, sc, UP);
      Mat G = pr.C - mu * sc.grad;
      double lm = lmo_value(pr, G, tol * 1e-2);
      double fw = lm - G.cwiseProduct(P).sum();
      double obj = pr.C.cwiseProduct(P).sum() - mu * sc.h;
      // Lagrangian dual bound: W_s = mu E_s, R_s = -W_s P M_s in the Schur blocks give
      // opt <= LMO(G) + mu sum_s <E_s, P A_s P>
      gap = std::max(0.0, lm + mu * sc.avg - obj);
      fit.hist_obj.push_back(obj);
      fit.hist_gap.push_back(gap);
      fit.hist_it.push_back(iter);
      if (gap <= tol * std::max(1.0, std::fabs(obj))) { converged = true; break; }
      if (stop) {
        fit.timed_out = true;
        break;
      }
      if (eta > eta_target && std::max(fw, 0.0) <= mu * eta * logm) {
        eta = std::max(eta_target, 0.1 * eta);
        t = 1.0;
        Y = P;
        UY = UP;
        fP = phi_eval(P, false, sP, UP);
      }
    }
  }
  if (iter > maxit) iter = maxit;
  Smooth sf = smooth_eval(P, pr.Ap, pr.Am, eta, false);
  fit.P = P;
  fit.h = sf.h;
  fit.objective = pr.C.cwiseProduct(P).sum() - mu * fit.h;
  fit.nu = nu_w;
  fit.gap = gap;
  fit.converged = converged;
  fit.iter = iter;
  fit.eta = eta;
}

template <typename OutOfTime>
Fit solve(const Problem& pr, const Settings& st, OutOfTime out_of_time) {
  Stage1 s1 = mean_stage(pr, st.k, st.tol);
  Fit fit;
  fit.P = s1.P;
  fit.nu = s1.nu;
  fit.evals = s1.evals;
  fit.gap = s1.upper - s1.lower;
  fit.converged = fit.gap <= st.tol * std::max(1.0, std::fabs(s1.lower));
  fit.objective = s1.lower;
  if (st.mu > 0) fista(pr, st, fit, out_of_time);
  return fit;
}

}  // namespace cfpca
}  // namespace fp

// `opts` (named list, built by fit_pca_cfpca()): k, mu, tol, maxit, eta_rel, check_every, lowrank
// (see Settings).
// [[Rcpp::export(.fp_cfpca)]]
Rcpp::List fp_cfpca_cpp(const Eigen::Map<Eigen::MatrixXd> C, const Eigen::Map<Eigen::VectorXd> f,
                        double b, const Eigen::Map<Eigen::MatrixXd> Ap,
                        const Eigen::Map<Eigen::MatrixXd> Am, const Rcpp::List& opts,
                        Rcpp::Nullable<Rcpp::Function> progress = R_NilValue) {
  using namespace fp::cfpca;
  fp::rcpp::Options o(opts);
  Settings st;
  st.k = o.get<int>("k", 1);
  st.mu = o.get<double>("mu", 0.0);
  st.tol = o.get<double>("tol", st.tol);
  st.maxit = o.get<int>("maxit", st.maxit);
  st.eta_rel = o.get<double>("eta_rel", st.eta_rel);
  st.check_every = o.get<int>("check_every", st.check_every);
  st.lowrank = o.get<bool>("lowrank", st.lowrank);
  const double max_seconds = o.get<double>("max_seconds", 1e308);
  o.done();
  const int k = st.k;
  const Reduced red = fp::rcpp::run([&] { return reduce(C, f, b, Ap, Am, k, st.mu); });
  if (k > static_cast<int>(red.pr.C.rows())) Rcpp::stop("k is larger than the dimension left by the mean constraint");
  const fp::Progress pr = fp::rcpp::progress(progress);
  const auto start = std::chrono::steady_clock::now();
  int done = 0;
  const Fit fit = fp::rcpp::run([&] {
    return solve(red.pr, st, [&] {
      fp::check_interrupt();
      if (pr) pr(++done);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > max_seconds;
    });
  });
  // the components: top-k eigenvectors of P
  Mat Ps = 0.5 * (fit.P + fit.P.transpose());
  const fp::EigResult eP = fp::rcpp::run([&] { return fp::eig_sym_full(Ps); });
  Mat V = eP.vectors.leftCols(k);
  Mat Vout = red.reduced ? Mat(red.Q * V) : V;
  Mat Pout = red.reduced ? Mat(red.Q * Ps * red.Q.transpose()) : Ps;
  return Rcpp::List::create(
      Rcpp::Named("rotation") = Vout, Rcpp::Named("P") = Pout,
      Rcpp::Named("P_values") = eP.values, Rcpp::Named("objective") = fit.objective,
      Rcpp::Named("penalty") = std::isnan(fit.h) ? NA_REAL : fit.h, Rcpp::Named("gap") = fit.gap,
      Rcpp::Named("nu") = fit.nu,
      Rcpp::Named("converged") = fit.converged, Rcpp::Named("timed_out") = fit.timed_out,
      Rcpp::Named("iterations") = fit.iter,
      Rcpp::Named("history") = Rcpp::DataFrame::create(
          Rcpp::Named("iteration") = fit.hist_it, Rcpp::Named("objective") = fit.hist_obj,
          Rcpp::Named("gap") = fit.hist_gap));
}

// Exposed for tests: the Euclidean projection onto the Fantope.
// [[Rcpp::export(.fp_fantope_project)]]
Eigen::MatrixXd fp_fantope_project_cpp(const Eigen::Map<Eigen::MatrixXd> X, int k) {
  using namespace fp::cfpca;
  return fp::rcpp::run([&] { return fantope_project(X, k); });
}
