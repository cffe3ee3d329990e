// Pareto fair PCA (Kamani, Haddadpour, Forsati, Mahdavi): multiple-gradient descent on the
// Stiefel manifold from group moments.
//
// Objectives (all from d x d matrices; the data are never touched):
//   f_total(U) = tr(C) - tr(U'CU)                          (total reconstruction loss)
//   E_g(U)     = tr(A_g) - tr(U'A_gU) - best_g               (excess loss of group g)
//   pair (g,h): psi(E_g - E_h);  single g: psi(E_g);  psi(z) = z^2/2 or |z|.
// Each iteration: gradients (Euclidean, -2 S U, or their tangent projections), normalised to
// unit Frobenius norm, the common direction D = - (min-norm point of the convex hull of the
// gradients) from Wolfe's nearest-point algorithm on the Gram matrix, step 1/sqrt(t) or Armijo
// backtracking on all objectives at the retracted point, retraction by polar factor or QR.
// Cost per iteration: one product A_g U per group (O(m d^2 k)) plus O(M^2 d k) for the Gram
// matrix of the M objectives.
#include "linalg.h"

namespace {

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

Vec affine_min(const Mat& M, const std::vector<int>& S) {
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

MinNormResult min_norm_simplex(const Mat& M, double tol, int maxit) {
  const int n = static_cast<int>(M.rows());
  MinNormResult res;
  res.lambda = Vec::Zero(n);
  res.iterations = 0;
  if (n == 0) {
    res.gap = 0;
    return res;
  }
  const double scale = std::max(M.diagonal().maxCoeff(), 1e-300);
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
        if (!(alpha(a) > 1e-15)) inside = false;
      if (inside) {
        res.lambda.setZero();
        for (int a = 0; a < s; ++a) res.lambda(S[a]) = alpha(a);
        break;
      }
      double theta = 1.0;
      for (int a = 0; a < s; ++a) {
        const double la = res.lambda(S[a]);
        if (alpha(a) <= 1e-15 && la - alpha(a) > 0) theta = std::min(theta, la / (la - alpha(a)));
      }
      std::vector<int> keep;
      for (int a = 0; a < s; ++a) {
        const double v = theta * alpha(a) + (1 - theta) * res.lambda(S[a]);
        res.lambda(S[a]) = v;
      }
      for (int a = 0; a < s; ++a) {
        if (res.lambda(S[a]) > 1e-15) {
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

// ---------------------------------------------------------------------------------------------
struct Problem {
  Mat C;                     // total-loss matrix
  std::vector<Mat> A;        // group matrices
  Vec best;                  // each group's best rank-k loss
  Vec trA;
  double trC;
  std::vector<int> type;     // 0 total, 1 pair (g, h), 2 single g
  std::vector<int> g1, g2;
  int psi;                   // 0 square, 1 absolute
  bool riemannian;
  bool normalize;
};

struct Eval {
  Vec f;                     // objective values
  Vec E;                     // excess losses
  std::vector<Mat> G;        // gradients (as used: Euclidean or projected)
};

double psi_val(double z, int psi) { return psi == 0 ? 0.5 * z * z : std::abs(z); }
double psi_der(double z, int psi) {
  if (psi == 0) return z;
  return z > 0 ? 1.0 : (z < 0 ? -1.0 : 0.0);
}

// Objective values only (for line searches).
Vec objectives(const Problem& P, const Mat& U, Vec* Eout = nullptr) {
  const int ng = static_cast<int>(P.A.size());
  Vec E(ng);
  for (int g = 0; g < ng; ++g) E(g) = P.trA(g) - (U.array() * (P.A[g] * U).array()).sum() - P.best(g);
  const double ftot = P.trC - (U.array() * (P.C * U).array()).sum();
  const int M = static_cast<int>(P.type.size());
  Vec f(M);
  for (int a = 0; a < M; ++a) {
    if (P.type[a] == 0) f(a) = ftot;
    else if (P.type[a] == 1) f(a) = psi_val(E(P.g1[a]) - E(P.g2[a]), P.psi);
    else f(a) = psi_val(E(P.g1[a]), P.psi);
  }
  if (Eout) *Eout = E;
  return f;
}

Eval evaluate(const Problem& P, const Mat& U) {
  const int ng = static_cast<int>(P.A.size());
  const int M = static_cast<int>(P.type.size());
  Eval ev;
  std::vector<Mat> AU(ng);
  ev.E.resize(ng);
  for (int g = 0; g < ng; ++g) {
    AU[g] = P.A[g] * U;
    ev.E(g) = P.trA(g) - (U.array() * AU[g].array()).sum() - P.best(g);
  }
  Mat CU;
  bool needC = false;
  for (int a = 0; a < M; ++a)
    if (P.type[a] == 0) needC = true;
  double ftot = 0;
  if (needC) {
    CU = P.C * U;
    ftot = P.trC - (U.array() * CU.array()).sum();
  }
  ev.f.resize(M);
  ev.G.resize(M);
  for (int a = 0; a < M; ++a) {
    if (P.type[a] == 0) {
      ev.f(a) = ftot;
      ev.G[a] = -2.0 * CU;
    } else if (P.type[a] == 1) {
      const double z = ev.E(P.g1[a]) - ev.E(P.g2[a]);
      ev.f(a) = psi_val(z, P.psi);
      ev.G[a] = (-2.0 * psi_der(z, P.psi)) * (AU[P.g1[a]] - AU[P.g2[a]]);
    } else {
      const double z = ev.E(P.g1[a]);
      ev.f(a) = psi_val(z, P.psi);
      ev.G[a] = (-2.0 * psi_der(z, P.psi)) * AU[P.g1[a]];
    }
    if (P.riemannian) {
      // tangent projection; U'G is symmetric for every gradient of the form S U
      const double full = ev.G[a].norm();
      ev.G[a] -= U * (U.transpose() * ev.G[a]);
      // what is left of a gradient that vanishes on the manifold is rounding noise
      if (ev.G[a].norm() <= 1e-11 * full) ev.G[a].setZero();
    }
  }
  return ev;
}

Mat retract(const Mat& V, int retraction) {
  return retraction == 0 ? fp::polar_orthonormal(V) : fp::qr_orthonormal(V);
}

}  // namespace

// [[Rcpp::export(.fp_pareto_min_norm)]]
Rcpp::List fp_pareto_min_norm(const Eigen::MatrixXd& M, double tol, int maxit) {
  if (M.rows() != M.cols() || M.rows() < 1 || !M.allFinite())
    Rcpp::stop("the Gram matrix of the gradients must be a finite, non-empty square matrix");
  MinNormResult r = min_norm_simplex(M, tol, maxit);
  return Rcpp::List::create(Rcpp::Named("lambda") = r.lambda, Rcpp::Named("iterations") = r.iterations,
                            Rcpp::Named("gap") = r.gap);
}

// [[Rcpp::export(.fp_pareto_cpp)]]
Rcpp::List fp_pareto_cpp(const Eigen::MatrixXd& C, const Rcpp::List& A, const Eigen::VectorXd& best,
                         const Eigen::MatrixXd& U0, const Rcpp::IntegerVector& type,
                         const Rcpp::IntegerVector& g1, const Rcpp::IntegerVector& g2, int psi,
                         bool riemannian, bool normalize, int step, int retraction, int iterations,
                         double tol, double eta0, double beta, int max_backtrack, double qp_tol,
                         bool trace) {
  Problem P;
  P.C = C;
  P.trC = C.trace();
  const int ng = A.size();
  P.A.resize(ng);
  P.trA.resize(ng);
  for (int g = 0; g < ng; ++g) {
    P.A[g] = Rcpp::as<Eigen::MatrixXd>(A[g]);
    P.trA(g) = P.A[g].trace();
  }
  P.best = best;
  const int M = type.size();
  for (int a = 0; a < M; ++a) {
    P.type.push_back(type[a]);
    P.g1.push_back(g1[a]);
    P.g2.push_back(g2[a]);
  }
  P.psi = psi;
  P.riemannian = riemannian;
  P.normalize = normalize;

  Mat U = U0;
  const int d = static_cast<int>(U.rows()), k = static_cast<int>(U.cols());
  // history: f (M columns), norm_D, moved, step, gap, qp_iterations
  std::vector<Vec> hf, hE;
  std::vector<double> hnorm, hmoved, hstep, hgap, hqp, hdesc;
  Rcpp::List tr_U, tr_G, tr_D, tr_lambda;
  bool converged = false;
  int status = 0;  // 0 iterations exhausted, 1 stationary, 2 line search failed, 3 no measurable decrease
  int t = 0;
  double eta_prev = 0;
  bool rounding = false;
  for (t = 0; t <= iterations; ++t) {
    if (t % 50 == 0) Rcpp::checkUserInterrupt();
    Eval ev = evaluate(P, U);
    std::vector<Mat> Gh(M);
    Vec gn(M);
    for (int a = 0; a < M; ++a) {
      gn(a) = ev.G[a].norm();
      if (normalize) Gh[a] = gn(a) > 0 ? Mat(ev.G[a] / gn(a)) : ev.G[a];
      else Gh[a] = ev.G[a];
    }
    Mat Gram(M, M);
    for (int a = 0; a < M; ++a)
      for (int b = a; b < M; ++b) Gram(a, b) = Gram(b, a) = (Gh[a].array() * Gh[b].array()).sum();
    MinNormResult qp = min_norm_simplex(Gram, qp_tol, 100 * (M + 5));
    Mat D = Mat::Zero(d, k);
    for (int a = 0; a < M; ++a)
      if (qp.lambda(a) != 0) D -= qp.lambda(a) * Gh[a];
    const double nD = D.norm();
    Mat Dh = D - U * (U.transpose() * D);  // the part that moves the subspace
    const double moved = Dh.norm();
    // descent check: max_a <D, G_a> + ||D||^2 (<= 0 up to the QP tolerance)
    double desc = -INFINITY;
    for (int a = 0; a < M; ++a) desc = std::max(desc, (D.array() * Gh[a].array()).sum() + nD * nD);
    hf.push_back(ev.f);
    hE.push_back(ev.E);
    hnorm.push_back(nD);
    hmoved.push_back(moved);
    hgap.push_back(qp.gap);
    hqp.push_back(qp.iterations);
    hdesc.push_back(desc);
    if (trace) {
      tr_U.push_back(U);
      Rcpp::List gl(M);
      for (int a = 0; a < M; ++a) gl[a] = Gh[a];
      tr_G.push_back(gl);
      tr_D.push_back(D);
      tr_lambda.push_back(qp.lambda);
    }
    if (nD <= tol || moved <= tol) {
      converged = true;
      status = 1;
      hstep.push_back(0);
      break;
    }
    if (t == iterations) {
      hstep.push_back(0);
      break;
    }
    double eta = eta0;
    if (step == 1 && eta_prev > 0) eta = std::min(eta0, 2.0 * eta_prev);  // warm start
    Mat Unew;
    if (step == 0) {
      eta = eta0 / std::sqrt(static_cast<double>(t + 1));
      Unew = retract(U + eta * D, retraction);
    } else {
      // Armijo on every objective at once. Riemannian gradients: at the retracted trial point,
      // the slope of f_a along the retraction curve being <G_a, D> (D is tangent). Euclidean
      // gradients (the paper's Algorithm 1): the trace-form objectives at the un-projected
      // trial point U + eta D, with slope <G_a, D>, which the QP makes negative.
      Vec slope(M);
      for (int a = 0; a < M; ++a) slope(a) = (ev.G[a].array() * D.array()).sum();
      bool ok = false;
      rounding = false;
      for (int p = 0; p <= max_backtrack; ++p) {
        Mat V = U + eta * D;
        Unew = retract(V, retraction);
        Vec fn = objectives(P, riemannian ? Unew : V);
        ok = true;
        bool strict = true;
        for (int a = 0; a < M; ++a) {
          const double allow = 1e-13 * (std::abs(ev.f(a)) + 1.0);
          const double bound = ev.f(a) + beta * eta * slope(a);
          if (fn(a) > bound + allow) {
            ok = false;
            break;
          }
          if (fn(a) > bound) strict = false;
        }
        // accepted only within rounding of the objective values: no measurable decrease left
        if (ok && !strict) rounding = true;
        if (ok) break;
        eta *= 0.5;
      }
      if (!ok) {
        status = 2;
        hstep.push_back(0);
        break;
      }
    }
    hstep.push_back(eta);
    eta_prev = eta;
    const double change = std::sqrt(2.0) * (Unew - U * (U.transpose() * Unew)).norm();  // ||UU' - VV'||_F
    U = Unew;
    if (step == 1 && (change <= tol || rounding)) {  // Armijo: no further measurable progress
      Vec El;
      Vec fl = objectives(P, U, &El);
      hf.push_back(fl);
      hE.push_back(El);
      hnorm.push_back(NAN);
      hmoved.push_back(NAN);
      hgap.push_back(NAN);
      hqp.push_back(NAN);
      hdesc.push_back(NAN);
      hstep.push_back(0);
      converged = true;
      status = 3;
      break;
    }
  }
  const int rows = static_cast<int>(hf.size());
  Rcpp::NumericMatrix F(rows, M);
  for (int i = 0; i < rows; ++i)
    for (int a = 0; a < M; ++a) F(i, a) = hf[i](a);
  Rcpp::NumericMatrix EH(rows, ng);
  for (int i = 0; i < rows; ++i)
    for (int g = 0; g < ng; ++g) EH(i, g) = hE[i](g);
  Vec Efinal;
  Vec ffinal = objectives(P, U, &Efinal);
  Rcpp::List out = Rcpp::List::create(
      Rcpp::Named("U") = U, Rcpp::Named("f") = F, Rcpp::Named("E_history") = EH,
      Rcpp::Named("norm_D") = hnorm,
      Rcpp::Named("moved") = hmoved, Rcpp::Named("step") = hstep, Rcpp::Named("qp_gap") = hgap,
      Rcpp::Named("qp_iterations") = hqp, Rcpp::Named("descent") = hdesc,
      Rcpp::Named("converged") = converged, Rcpp::Named("status") = status,
      Rcpp::Named("steps") = (rows - 1), Rcpp::Named("E") = Efinal, Rcpp::Named("f_final") = ffinal);
  if (trace) {
    out["trace_U"] = tr_U;
    out["trace_G"] = tr_G;
    out["trace_D"] = tr_D;
    out["trace_lambda"] = tr_lambda;
  }
  return out;
}
