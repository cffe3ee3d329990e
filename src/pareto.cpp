// Pareto fair PCA (Kamani, Haddadpour, Forsati, Mahdavi): multiple-gradient descent on the
// Stiefel manifold from group moments.
//
// Objectives (all from d x d matrices; the data are never touched):
//   f_total(U) = tr(C) - tr(U'CU)                          (total reconstruction loss)
//   E_g(U)     = tr(A_g) - tr(U'A_gU) - best_g               (excess loss of group g)
//   pair (g,h): psi(E_g - E_h);  single g: psi(E_g);  psi(z) = z^2/2 or |z|.
//   plus alpha ||U||_F^2 on every objective (the paper's eq. 19; constant on the manifold).
// Two iterations, both with the common direction D = - (min-norm point of the convex hull of
// the gradients) from Wolfe's nearest-point algorithm on their Gram matrix:
//  * the paper's (step = 0): Euclidean (or tangent) gradients of the eq. 19 objectives,
//    normalised to unit Frobenius norm, step eta / sqrt(t), re-orthonormalisation;
//  * the converging one (step = 1): Riemannian gradients of f_total and |z| scaled by tr(C),
//    balanced pairs held as constraints, Armijo backtracking on every free objective at the
//    retracted point (see pareto_direction()).
// Convergence test (both): the scale-free stationarity measure theta = ||Dt|| <= tol.
// Cost per iteration: one product A_g U per group (O(m d^2 k)) plus O(M^2 d k) for the Gram
// matrix of the M objectives.//
// Files: pareto_minnorm.h (Wolfe's minimum-norm point), pareto_descent.h (the problem, the
// directions and the iteration); this file holds the exported entry points, which alone speak R.
#include <chrono>
#include "linalg.h"
#include "runtime.h"
#include "tolerances.h"
#include "pareto_minnorm.h"
#include "pareto_descent.h"
#include "rcpp_entry.h"

// [[Rcpp::export(.fp_pareto_min_norm)]]
Rcpp::List fp_pareto_min_norm(const Eigen::MatrixXd& M, double tol, int maxit) {
  using namespace fp::pareto;
  if (M.rows() != M.cols() || M.rows() < 1 || !M.allFinite())
    Rcpp::stop("the Gram matrix of the gradients must be a finite, non-empty square matrix");
  const MinNormResult r = fp::rcpp::run([&] { return min_norm_simplex(M, tol, maxit); });
  return Rcpp::List::create(Rcpp::Named("lambda") = r.lambda, Rcpp::Named("iterations") = r.iterations,
                            Rcpp::Named("gap") = r.gap);
}

// The objectives (`objectives`: type, g1, g2 (0-based groups), alpha, psi) and the settings of
// the descent (`opts`, see Settings in pareto_descent.h) are named lists built by
// fp_pareto_run() in R.
// [[Rcpp::export(.fp_pareto_cpp)]]
Rcpp::List fp_pareto_cpp(const Eigen::MatrixXd& C, const Rcpp::List& A, const Eigen::VectorXd& best,
                         const Eigen::MatrixXd& U0, const Rcpp::List& objectives, const Rcpp::List& opts) {
  using namespace fp::pareto;
  Problem P;
  P.C = C;
  P.trC = C.trace();
  P.scale = std::max(P.trC, fp::tol::tiny);
  const int ng = A.size();
  P.A.resize(ng);
  P.trA.resize(ng);
  for (int g = 0; g < ng; ++g) {
    P.A[g] = Rcpp::as<Eigen::MatrixXd>(A[g]);
    P.trA(g) = P.A[g].trace();
  }
  P.best = best;
  fp::rcpp::Options obj(objectives);
  P.type = obj.get<std::vector<int>>("type", {});
  P.g1 = obj.get<std::vector<int>>("g1", {});
  P.g2 = obj.get<std::vector<int>>("g2", {});
  P.psi = obj.get<int>("psi", 0);
  P.alpha = obj.get<Eigen::VectorXd>("alpha", Eigen::VectorXd::Zero(P.type.size()));
  obj.done();
  const int M = static_cast<int>(P.type.size());
  if (static_cast<int>(P.g1.size()) != M || static_cast<int>(P.g2.size()) != M || P.alpha.size() != M)
    Rcpp::stop("internal error: the objectives' fields differ in length");
  fp::rcpp::Options o(opts);
  Settings s;
  s.riemannian = o.get<bool>("riemannian", s.riemannian);
  s.normalize = o.get<bool>("normalize", s.normalize);
  s.step = o.get<int>("step", s.step);
  s.retraction = o.get<int>("retraction", s.retraction);
  s.iterations = o.get<int>("iterations", s.iterations);
  s.tol = o.get<double>("tol", s.tol);
  s.eta0 = o.get<double>("eta", s.eta0);
  s.beta = o.get<double>("beta", s.beta);
  s.max_backtrack = o.get<int>("max_backtrack", s.max_backtrack);
  s.qp_tol = o.get<double>("qp_tol", s.qp_tol);
  s.balance = o.get<bool>("balance", s.balance);
  s.eps = o.get<double>("eps", s.eps);
  s.trace = o.get<bool>("trace", s.trace);
  const double max_seconds = o.get<double>("max_seconds", 1e308);
  o.done();
  const bool trace = s.trace;
  const auto start = std::chrono::steady_clock::now();
  const Result r = fp::rcpp::run([&] {
    return descend(P, U0, s, [] { fp::check_interrupt(); }, [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > max_seconds;
    });
  });
  const History& h = r.h;
  const int rows = static_cast<int>(h.f.size());
  Rcpp::NumericMatrix F(rows, M);
  for (int i = 0; i < rows; ++i)
    for (int a = 0; a < M; ++a) F(i, a) = h.f[i](a);
  Rcpp::NumericMatrix EH(rows, ng);
  for (int i = 0; i < rows; ++i)
    for (int g = 0; g < ng; ++g) EH(i, g) = h.E[i](g);
  Local Lf = local_values(P, r.U, false);
  Rcpp::List out = Rcpp::List::create(
      Rcpp::Named("U") = r.U, Rcpp::Named("f") = F, Rcpp::Named("E_history") = EH, Rcpp::Named("norm_D") = h.norm,
      Rcpp::Named("moved") = h.moved, Rcpp::Named("step") = h.step, Rcpp::Named("descent") = h.desc,
      Rcpp::Named("stationarity") = h.theta, Rcpp::Named("held") = h.held, Rcpp::Named("phase") = h.phase,
      Rcpp::Named("converged") = r.converged, Rcpp::Named("status") = r.status, Rcpp::Named("switched") = r.switched,
      Rcpp::Named("steps") = (rows - 1), Rcpp::Named("E") = Lf.E, Rcpp::Named("f_final") = Lf.f);
  if (trace) {
    Rcpp::List tr_U, tr_G, tr_D, tr_Dr, tr_lambda;
    for (int i = 0; i < rows; ++i) {
      tr_U.push_back(h.U[i]);
      Rcpp::List gl(M);
      for (int a = 0; a < M; ++a) gl[a] = h.G[i][a];
      tr_G.push_back(gl);
      tr_D.push_back(h.D[i]);
      tr_Dr.push_back(h.Dr[i]);
      tr_lambda.push_back(h.lambda[i]);
    }
    out["trace_U"] = tr_U;
    out["trace_G"] = tr_G;
    out["trace_D"] = tr_D;
    out["trace_Dr"] = tr_Dr;
    out["trace_lambda"] = tr_lambda;
  }
  return out;
}