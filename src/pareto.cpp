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
#include "linalg.h"
#include "runtime.h"
#include "pareto_minnorm.h"
#include "pareto_descent.h"
#include "rcpp_entry.h"

// [[Rcpp::export(.fp_pareto_min_norm)]]
Rcpp::List fp_pareto_min_norm(const Eigen::MatrixXd& M, double tol, int maxit) {
  using namespace fp::pareto;
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
                         const Eigen::VectorXd& alpha, bool balance, double eps, bool trace) {
  using namespace fp::pareto;
  Problem P;
  P.C = C;
  P.trC = C.trace();
  P.scale = std::max(P.trC, 1e-300);
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
  P.alpha = alpha;
  Settings s;
  s.riemannian = riemannian;
  s.normalize = normalize;
  s.step = step;
  s.retraction = retraction;
  s.iterations = iterations;
  s.tol = tol;
  s.eta0 = eta0;
  s.beta = beta;
  s.max_backtrack = max_backtrack;
  s.qp_tol = qp_tol;
  s.balance = balance;
  s.eps = eps;
  s.trace = trace;
  Result r = descend(P, U0, s, [] { fp::check_interrupt(); });
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