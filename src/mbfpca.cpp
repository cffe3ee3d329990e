// MbF-PCA (Lee et al. 2022): MMD-penalised PCA on the Stiefel manifold St(d, k),
//
//   minimise  F_rho(V) = -tr(V'AV)/tr(A) + rho * MMD^2(X_1 V, X_0 V)
//
// with the RBF kernel exp(-|a - b|^2 / (2 sigma^2)) and the biased (V-statistic) MMD^2 estimator.
// Exact-penalty outer loop: rho is doubled while MMD^2 > tau. Inner solver: Riemannian
// conjugate gradient (Polak-Ribiere+, restarts) with Armijo backtracking, QR retraction and
// vector transport by projection onto the tangent space.
//
// MMD^2 = sum_ij w_i w_j K_ij with w_i = 1/n_1 (group 1), -1/n_0 (group 0); its gradient in V is
// -(2/sigma^2) X' R with R_i = sum_j w_i w_j K_ij (y_i - y_j), y = X V: O(n^2 k + n d k).
#include <chrono>
#include "linalg.h"
#include "runtime.h"
#include "tolerances.h"
#include "rcpp_entry.h"

namespace fp {
namespace mbfpca {

using fp::Mat;
using fp::Vec;

struct MMD {
  const Mat& X;  // n x d rows (already centred/scaled)
  Vec w;         // signed weights
  double sigma;
  MMD(const Mat& X_, const std::vector<int>& g, double sigma_) : X(X_), sigma(sigma_) {
    const int n = static_cast<int>(X.rows());
    int n1 = 0;
    for (int i = 0; i < n; ++i) n1 += g[i];
    const int n0 = n - n1;
    w.resize(n);
    for (int i = 0; i < n; ++i) w(i) = g[i] ? 1.0 / n1 : -1.0 / n0;
  }
  double value(const Mat& V, Mat* grad) const {
    const int n = static_cast<int>(X.rows());
    const int k = static_cast<int>(V.cols());
    // rows of Y = X V stored contiguously (row-major), no allocation in the pair loop
    Mat Yt = (X * V).transpose();  // k x n, column i = y_i
    const double* Y = Yt.data();
    std::vector<double> R(grad ? static_cast<size_t>(n) * k : 0, 0.0);
    const double inv2s2 = 1.0 / (2.0 * sigma * sigma);
    const double* wv = w.data();
    double total = 0.0;
    for (int i = 0; i < n; ++i) {
      if (i % 256 == 0) fp::check_interrupt();
      const double wi = wv[i];
      const double* yi = Y + static_cast<size_t>(i) * k;
      double row = 0.0;
      for (int j = i + 1; j < n; ++j) {
        const double* yj = Y + static_cast<size_t>(j) * k;
        double dist = 0.0;
        for (int l = 0; l < k; ++l) { double t = yi[l] - yj[l]; dist += t * t; }
        double c = wv[j] * std::exp(-dist * inv2s2);
        row += c;
        if (grad) {
          double ci = wi * c;
          double* ri = R.data() + static_cast<size_t>(i) * k;
          double* rj = R.data() + static_cast<size_t>(j) * k;
          for (int l = 0; l < k; ++l) { double t = ci * (yi[l] - yj[l]); ri[l] += t; rj[l] -= t; }
        }
      }
      total += wi * wi + 2.0 * wi * row;  // K_ii = 1
    }
    if (grad) {
      Eigen::Map<const Mat> Rm(R.data(), k, n);
      *grad = (-2.0 / (sigma * sigma)) * (X.transpose() * Rm.transpose());
    }
    return total;
  }
};

struct Objective {
  mutable long evals = 0;
  const Mat& A;
  double trA;
  const MMD& mmd;
  double a, rho;  // weights of the variance and MMD terms
  double eval(const Mat& V, Mat* grad, double* mmd_out, double* gscale = nullptr) const {
    ++evals;
    Mat gm;
    double m = mmd.value(V, grad ? &gm : nullptr);
    if (mmd_out) *mmd_out = m;
    Mat AV = A * V;
    double var = (V.transpose() * AV).trace() / trA;
    if (grad) {
      Mat g1 = (-2.0 * a / trA) * AV;
      if (gscale) *gscale = tangent_norm(V, g1) + rho * tangent_norm(V, gm);
      *grad = g1 + rho * gm;
    }
    return -a * var + rho * m;
  }
  static double tangent_norm(const Mat& V, const Mat& G) {
    Mat S = V.transpose() * G;
    return (G - V * (0.5 * (S + S.transpose()))).norm();
  }
};

Mat tangent(const Mat& V, const Mat& G) {
  Mat S = V.transpose() * G;
  return G - V * (0.5 * (S + S.transpose()));
}

struct InnerResult {
  Mat V;
  double f, mmd;
  int iters;
  double gnorm;
};

// Armijo backtracking along the QR retraction of V + t dir, starting from t: on success t is
// the accepted step and Vn, fn and mn hold the accepted point, its objective and its MMD^2.
bool armijo_retract(const Objective& obj, const Mat& V, const Mat& dir, double& t, double f,
                    double slope, Mat& Vn, double& fn, double& mn) {
  for (int bt = 0; bt < 40; ++bt) {
    Vn = fp::qr_orthonormal(V + t * dir);
    fn = obj.eval(Vn, nullptr, &mn);
    if (fn <= f + fp::tol::armijo * t * slope) return true;
    t *= 0.5;
  }
  return false;
}

// Riemannian conjugate gradient on St(d, k).
InnerResult rcg(const Objective& obj, Mat V, double gtol, int maxit) {
  Mat G;
  double m;
  double gscale = 0.0;
  double f = obj.eval(V, &G, &m, &gscale);
  gtol *= std::max(gscale, fp::tol::tiny);  // relative to the size of the two gradient terms
  Mat xi = tangent(V, G);
  Mat dir = -xi;
  double step = 1.0;
  int it = 0;
  double gn = xi.norm();
  for (it = 0; it < maxit && gn > gtol; ++it) {
    double slope = xi.cwiseProduct(dir).sum();
    if (slope >= 0) {  // not a descent direction: restart with steepest descent
      dir = -xi;
      slope = -gn * gn;
    }
    double t = step;
    Mat Vn;
    double fn = 0.0, mn = 0.0;
    if (!armijo_retract(obj, V, dir, t, f, slope, Vn, fn, mn)) break;
    Mat Gn;
    fn = obj.eval(Vn, &Gn, &mn);
    Mat xin = tangent(Vn, Gn);
    // Polak-Ribiere+ with the previous gradient and direction transported by projection
    Mat xi_t = tangent(Vn, xi), dir_t = tangent(Vn, dir);
    double beta = std::max(0.0, xin.cwiseProduct(xin - xi_t).sum() / std::max(gn * gn, fp::tol::tiny));
    dir = -xin + beta * dir_t;
    double rel = std::fabs(f - fn) / std::max(1.0, std::fabs(f));
    V = Vn;
    f = fn;
    m = mn;
    xi = xin;
    gn = xi.norm();
    step = std::min(1e3, 2.0 * t);
    if (rel < fp::tol::stall) { ++it; break; }
  }
  InnerResult r;
  r.V = V;
  r.f = f;
  r.mmd = m;
  r.iters = it;
  r.gnorm = gn;
  return r;
}

// Riemannian limited-memory BFGS on St(d, k): two-loop recursion on the stored pairs (s, y),
// transported to the current tangent space by projection, initial scaling <s,y>/<y,y>,
// Armijo backtracking from the unit step; pairs with <s,y> <= 0 are skipped, and a
// non-descent direction falls back to steepest descent.
InnerResult rlbfgs(const Objective& obj, Mat V, double gtol, int maxit, int mem = 10) {
  Mat G;
  double m;
  double gscale = 0.0;
  double f = obj.eval(V, &G, &m, &gscale);
  gtol *= std::max(gscale, fp::tol::tiny);
  Mat xi = tangent(V, G);
  double gn = xi.norm();
  std::vector<Mat> S, Y;
  std::vector<double> rho;
  int it = 0;
  for (it = 0; it < maxit && gn > gtol; ++it) {
    // two-loop recursion
    Mat q = xi;
    const int mcur = static_cast<int>(S.size());
    std::vector<double> alpha(mcur);
    std::vector<Mat> St(mcur), Yt(mcur);
    for (int i = mcur - 1; i >= 0; --i) {
      St[i] = tangent(V, S[i]);
      Yt[i] = tangent(V, Y[i]);
      alpha[i] = rho[i] * St[i].cwiseProduct(q).sum();
      q -= alpha[i] * Yt[i];
    }
    double gamma = 1.0;
    if (mcur > 0) gamma = 1.0 / (rho[mcur - 1] * Y[mcur - 1].squaredNorm());
    else gamma = 1e-2 / std::max(gn, fp::tol::tiny);
    Mat r = gamma * q;
    for (int i = 0; i < mcur; ++i) {
      double beta = rho[i] * Yt[i].cwiseProduct(r).sum();
      r += (alpha[i] - beta) * St[i];
    }
    Mat dir = -tangent(V, r);
    double dn = dir.norm();
    if (dn > 0.5) dir *= 0.5 / dn;  // trust-region-like cap: V has unit columns
    double slope = xi.cwiseProduct(dir).sum();
    if (!(slope < 0)) {
      dir = -xi * (1e-2 / std::max(gn, fp::tol::tiny));
      slope = xi.cwiseProduct(dir).sum();
      S.clear(); Y.clear(); rho.clear();
    }
    double t = 1.0;
    Mat Vn;
    double fn = 0.0, mn = 0.0;
    if (!armijo_retract(obj, V, dir, t, f, slope, Vn, fn, mn)) break;
    Mat Gn;
    fn = obj.eval(Vn, &Gn, &mn);
    Mat xin = tangent(Vn, Gn);
    Mat sv = tangent(Vn, Vn - V);            // the step, in the new tangent space
    Mat yv = xin - tangent(Vn, xi);          // change of gradient, transported
    double sy = sv.cwiseProduct(yv).sum();
    if (sy > 1e-12 * sv.norm() * yv.norm()) {
      S.push_back(sv); Y.push_back(yv); rho.push_back(1.0 / sy);
      if (static_cast<int>(S.size()) > mem) { S.erase(S.begin()); Y.erase(Y.begin()); rho.erase(rho.begin()); }
    }
    double rel = std::fabs(f - fn) / std::max(1.0, std::fabs(f));
    V = Vn;
    f = fn;
    m = mn;
    xi = xin;
    gn = xi.norm();
    if (rel < fp::tol::stall) { ++it; break; }
  }
  InnerResult res;
  res.V = V;
  res.f = f;
  res.mmd = m;
  res.iters = it;
  res.gnorm = gn;
  return res;
}

InnerResult inner_solve(int solver, const Objective& obj, const Mat& V, double gtol, int maxit) {
  return solver == 0 ? rlbfgs(obj, V, gtol, maxit) : rcg(obj, V, gtol, maxit);
}

struct Settings {
  double rho0, tau, rho_max;
  int maxit_outer, maxit_inner;
  double tol_inner0, tol_inner_min, tol_v;
  bool fair_init;
  int solver;  // 0 = Riemannian L-BFGS, 1 = Riemannian conjugate gradient
  double max_seconds;  // no further penalty update after this time (the fit is then not converged)
};

struct Fit {
  Mat V;
  double mmd2 = 0.0, rho = 0.0;
  bool converged = false, timed_out = false;
  int outer = 0, inner = 0;
  double evaluations = 0.0;
  std::vector<double> h_rho, h_obj, h_mmd, h_var, h_gn;  // one entry per penalty update
  std::vector<int> h_it;
};

// The exact-penalty outer loop from V0: rho doubles while MMD^2 > tau. `progress` hears of each
// penalty update.
Fit solve(const Mat& X, const std::vector<int>& g, const Mat& A, const Mat& V0, double sigma, const Settings& st,
          const fp::Progress& progress) {
  const auto start = std::chrono::steady_clock::now();
  MMD mmd(X, g, sigma);
  Objective obj{0, A, A.trace(), mmd, 1.0, st.rho0};
  long evals0 = 0;
  Fit fit;
  Mat V = V0;
  if (st.fair_init) {  // Lee et al.'s start: the fairness-only problem
    Objective o0{0, A, A.trace(), mmd, 0.0, 1.0};
    InnerResult r0 = inner_solve(st.solver, o0, V, st.tol_inner_min, st.maxit_inner);
    V = r0.V;
    fit.inner += r0.iters;
    evals0 = o0.evals;
  }
  double rho = st.rho0, tol_in = st.tol_inner0;
  double m = 0.0;
  int outer = 0;
  for (outer = 1; outer <= st.maxit_outer; ++outer) {
    obj.rho = rho;
    InnerResult r = inner_solve(st.solver, obj, V, tol_in, st.maxit_inner);
    fit.inner += r.iters;
    Mat Pd = r.V * r.V.transpose() - V * V.transpose();
    double change = Pd.norm();
    V = r.V;
    m = r.mmd;
    double var = (V.transpose() * A * V).trace() / A.trace();
    fit.h_rho.push_back(rho);
    fit.h_obj.push_back(r.f);
    fit.h_mmd.push_back(m);
    fit.h_var.push_back(var);
    fit.h_gn.push_back(r.gnorm);
    fit.h_it.push_back(r.iters);
    if (progress) progress(outer);  // one penalty update done
    if (m <= st.tau && (change <= st.tol_v || tol_in <= st.tol_inner_min)) { fit.converged = true; break; }
    if (m > st.tau) rho = std::min(st.rho_max, 2.0 * rho);
    tol_in = std::max(st.tol_inner_min, 0.1 * tol_in);
    if (m > st.tau && rho >= st.rho_max && change <= st.tol_v) break;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > st.max_seconds) {
      fit.timed_out = true;
      break;
    }
  }
  if (outer > st.maxit_outer) outer = st.maxit_outer;
  fit.V = V;
  fit.mmd2 = m;
  fit.rho = rho;
  fit.outer = outer;
  fit.evaluations = static_cast<double>(obj.evals + evals0);
  return fit;
}

}  // namespace mbfpca
}  // namespace fp

// [[Rcpp::export(.fp_mmd2)]]
Rcpp::List fp_mmd2_cpp(const Eigen::Map<Eigen::MatrixXd> X, const std::vector<int>& g,
                       const Eigen::Map<Eigen::MatrixXd> V, double sigma, bool gradient) {
  using namespace fp::mbfpca;
  const Mat Xm = X;
  Mat G;
  const double v = fp::rcpp::run([&] {
    MMD mmd(Xm, g, sigma);
    return mmd.value(Mat(V), gradient ? &G : nullptr);
  });
  if (gradient) return Rcpp::List::create(Rcpp::Named("value") = v, Rcpp::Named("gradient") = G);
  return Rcpp::List::create(Rcpp::Named("value") = v);
}

// `opts` (named list, built by fit_pca_mbfpca()): sigma, and the Settings rho0, tau, rho_max,
// maxit_outer, maxit_inner, tol_inner0, tol_inner_min, tol_v, fair_init, solver, max_seconds.
// [[Rcpp::export(.fp_mbfpca)]]
Rcpp::List fp_mbfpca_cpp(const Eigen::Map<Eigen::MatrixXd> X, const std::vector<int>& g,
                         const Eigen::Map<Eigen::MatrixXd> A, const Eigen::Map<Eigen::MatrixXd> V0,
                         const Rcpp::List& opts, Rcpp::Nullable<Rcpp::Function> progress = R_NilValue) {
  using namespace fp::mbfpca;
  fp::rcpp::Options o(opts);
  const double sigma = o.get<double>("sigma", 1.0);
  const Settings st{o.get<double>("rho0", 1.0), o.get<double>("tau", 1e-6), o.get<double>("rho_max", 1e10),
                    o.get<int>("maxit_outer", 100), o.get<int>("maxit_inner", 100), o.get<double>("tol_inner0", 1e-1),
                    o.get<double>("tol_inner_min", 1e-6), o.get<double>("tol_v", 1e-6), o.get<bool>("fair_init", true),
                    o.get<int>("solver", 0), o.get<double>("max_seconds", 1e308)};
  o.done();
  const Fit f = fp::rcpp::run([&] { return solve(Mat(X), g, Mat(A), Mat(V0), sigma, st, fp::rcpp::progress(progress)); });
  return Rcpp::List::create(
      Rcpp::Named("rotation") = f.V, Rcpp::Named("mmd2") = f.mmd2, Rcpp::Named("rho") = f.rho,
      Rcpp::Named("converged") = f.converged, Rcpp::Named("outer_iterations") = f.outer,
      Rcpp::Named("inner_iterations") = f.inner, Rcpp::Named("evaluations") = f.evaluations,
      Rcpp::Named("timed_out") = f.timed_out,
      Rcpp::Named("history") = Rcpp::DataFrame::create(
          Rcpp::Named("rho") = f.h_rho, Rcpp::Named("objective") = f.h_obj, Rcpp::Named("mmd2") = f.h_mmd,
          Rcpp::Named("var_ratio") = f.h_var, Rcpp::Named("grad_norm") = f.h_gn,
          Rcpp::Named("inner_iterations") = f.h_it));
}
