// Distributionally robust fair PCA (Vu, Tran, Yue and Nguyen, ICLR 2022): Riemannian
// subgradient descent on the Stiefel manifold (Algorithm 1 of the paper).
//
// The objective is a maximum of P "pieces" (P = m(m - 1) for m groups; for m = 2 the pieces
// are J_0 and J_1 of Theorem 3.2). With L_b = <I - V V', M_b> the discarded second moment of
// group b (M_b uncentred), piece p is
//
//     f_p = kappa_p + sum_b [ W(p, b) L_b + R(p, b) sqrt(L_b) ],
//
// which for m = 2 is kappa_a + theta_a sqrt(L_a) + vartheta_a' sqrt(L_a') + <I - VV', C_a>
// with the constants of (6c), and for m > 2 the corrected objective of Theorem B.2 (the printed
// theorem drops the V-dependent term sum_b p_b L_b). The R side builds W, R and kappa.
//
// Two parameterisations of the same problem:
//  * complement (the paper's): X = U in St(d, d - k), L_b = tr(U' M_b U); Euclidean gradient
//    sum_b (2 W(p, b) + R(p, b) / sqrt(L_b)) M_b U; cost O(d^2 (d - k)) per iteration.
//  * basis: X = V in St(d, k), L_b = tr(M_b) - tr(V' M_b V); gradient is minus the same
//    combination applied to V; cost O(d^2 k) per iteration. To first order in the step, both
//    move the subspace in the same way (U V' blocks of the same Grassmann gradient).
// Riemannian gradient (I - X X') G (G = S X with S symmetric, so the skew part of the tangent
// projection vanishes); retraction QR with positive diagonal of R, or polar
// (X - t D)(I + t^2 D'D)^{-1/2}, computed as A (A'A)^{-1/2}.
#include <limits>
#include "linalg.h"
#include "runtime.h"
#include "tolerances.h"
#include "rcpp_entry.h"

namespace fp {
namespace robust {

struct RobustProblem {
  std::vector<fp::Mat> M;  // group second moments (d x d)
  fp::Vec trM;             // their traces
  fp::Mat W;               // P x m weights of L_b
  fp::Mat R;               // P x m weights of sqrt(L_b)
  fp::Vec kappa;           // P constants
  bool basis;              // true: X is the k-dim basis V; false: the complement U
};

struct Eval {
  double value;
  int piece;
  fp::Vec L;
  fp::Vec pieces;
};

// Matrix products: Eigen's blocked GEMM has a large fixed cost for small thin operands (the
// basis parameterisation has k columns), so small thin products are evaluated
// coefficient-wise; large ones column by column (matrix-vector products stream A once per
// column at full vector speed).
const int kThin = 12;

inline void mul_to(fp::Mat& out, const fp::Mat& A, const fp::Mat& B) {
  if (B.cols() <= kThin) {
    if (A.rows() <= 64) {
      out.noalias() = A.lazyProduct(B);
    } else {
      out.resize(A.rows(), B.cols());
      for (int j = 0; j < B.cols(); ++j) out.col(j).noalias() = A * B.col(j);
    }
  } else {
    out.noalias() = A * B;
  }
}

inline fp::Mat crossprod(const fp::Mat& A, const fp::Mat& B) {  // A'B
  fp::Mat out;
  if (A.cols() <= kThin && B.cols() <= kThin) out.noalias() = A.transpose().lazyProduct(B);
  else out.noalias() = A.transpose() * B;
  return out;
}

// Thin QR with positive diagonal of R for few columns: Gram-Schmidt with one
// re-orthogonalisation pass (classical GS twice), which is accurate for the well-conditioned
// matrices X - t D of a retraction (their Gram matrix is I + t^2 D'D). A step can be far longer
// than the iterate (the sqrt(L_b) terms' gradient grows without bound as a group's discarded
// moment L_b tends to 0, on data of rank k or less): a column that Gram-Schmidt leaves below
// 1e-8 of its length is numerically dependent on the others, and Householder QR, orthonormal
// whatever the rank, gives the basis instead (its extra columns complete it).
fp::Mat qr_thin(const fp::Mat& A) {
  fp::Mat Q = A;
  const int r = static_cast<int>(A.cols());
  for (int j = 0; j < r; ++j) {
    const double len = A.col(j).norm();
    for (int pass = 0; pass < 2; ++pass) {
      for (int i = 0; i < j; ++i) Q.col(j) -= Q.col(i).dot(Q.col(j)) * Q.col(i);
    }
    const double nrm = Q.col(j).norm();
    if (!(nrm > fp::tol::tiny) || !(nrm > 1e-8 * len)) return fp::qr_orthonormal(A);
    Q.col(j) /= nrm;
  }
  return Q;
}

// Products M_b X and the discarded second moments L_b.
void products(const RobustProblem& pb, const fp::Mat& X, std::vector<fp::Mat>& MX, fp::Vec& L) {
  const int m = static_cast<int>(pb.M.size());
  L.resize(m);
  for (int b = 0; b < m; ++b) {
    mul_to(MX[b], pb.M[b], X);
    const double q = X.cwiseProduct(MX[b]).sum();
    double l = pb.basis ? pb.trM(b) - q : q;
    if (l < 0.0) l = 0.0;  // round-off only: M_b is positive semidefinite
    L(b) = l;
  }
}

Eval evaluate(const RobustProblem& pb, const fp::Vec& L) {
  const int P = static_cast<int>(pb.W.rows());
  Eval e;
  e.L = L;
  e.pieces.resize(P);
  fp::Vec sq = L.cwiseSqrt();
  for (int p = 0; p < P; ++p) e.pieces(p) = pb.kappa(p) + pb.W.row(p).dot(L) + pb.R.row(p).dot(sq);
  e.piece = 0;  // ties go to the first piece (a = 0 for two groups, as the authors' code)
  for (int p = 1; p < P; ++p)
    if (e.pieces(p) > e.pieces(e.piece)) e.piece = p;
  e.value = e.pieces(e.piece);
  return e;
}

// Euclidean (sub)gradient of the active piece with respect to X.
fp::Mat euclid_grad(const RobustProblem& pb, const std::vector<fp::Mat>& MX, const Eval& e) {
  const int m = static_cast<int>(pb.M.size());
  fp::Mat G = fp::Mat::Zero(MX[0].rows(), MX[0].cols());
  for (int b = 0; b < m; ++b) {
    double c = 2.0 * pb.W(e.piece, b);
    const double r = pb.R(e.piece, b);
    if (r > 0.0) c += r / std::sqrt(std::max(e.L(b), fp::tol::tiny));
    if (c != 0.0) G.noalias() += c * MX[b];
  }
  if (pb.basis) G = -G;
  return G;
}

fp::Mat tangent(const fp::Mat& X, const fp::Mat& G) {
  fp::Mat XtG = crossprod(X, G);
  fp::Mat D = G;
  if (XtG.cols() <= kThin) D.noalias() -= X.lazyProduct(XtG);
  else D.noalias() -= X * XtG;
  return D;
}

double orth_dev(const fp::Mat& X) {
  return (crossprod(X, X) - fp::Mat::Identity(X.cols(), X.cols())).cwiseAbs().maxCoeff();
}

fp::Mat retract(const fp::Mat& A, bool polar) {
  if (!polar) return A.cols() <= kThin ? qr_thin(A) : fp::qr_orthonormal(A);
  fp::Mat AtA = crossprod(A, A);
  Eigen::SelfAdjointEigenSolver<fp::Mat> es(AtA);
  fp::Vec ev = es.eigenvalues();
  // numerically rank-deficient (see qr_thin()): the SVD's polar factor, orthonormal whatever the rank
  if (!(ev(0) > 1e-16 * ev(ev.size() - 1))) return fp::polar_orthonormal(A);
  for (int i = 0; i < ev.size(); ++i) ev(i) = ev(i) > fp::tol::tiny ? 1.0 / std::sqrt(ev(i)) : 0.0;
  fp::Mat isq = es.eigenvectors() * ev.asDiagonal() * es.eigenvectors().transpose();
  fp::Mat out;
  mul_to(out, A, isq);
  return out;
}

// Checks that the weights and constants fit the moments (the R side builds them together).
void check_problem(const RobustProblem& pb) {
  const int m = static_cast<int>(pb.M.size());
  if (pb.W.cols() != m || pb.R.cols() != m || pb.R.rows() != pb.W.rows() || pb.kappa.size() != pb.W.rows())
    throw fp::solver_error("internal error: inconsistent robust problem");
}

struct Run {
  fp::Mat X;                 // the returned iterate
  double value;              // its objective
  int iterate;               // its index (0 = the start)
  std::vector<double> hist;  // objective at every iterate
  std::vector<int> piece;    // active piece (1-based) at every iterate
  double orth;               // largest max|X'X - I| over the iterates
};

// One run of Algorithm 1 from X (see fp_robust_run() below).
Run run(const RobustProblem& pb, fp::Mat X, int iterations, double step, bool polar, bool keep_best) {
  check_problem(pb);
  const int m = static_cast<int>(pb.M.size());
  std::vector<fp::Mat> MX(m);
  fp::Vec L;
  Run out;
  out.hist.assign(iterations + 1, 0.0);
  out.piece.assign(iterations + 1, 0);
  out.orth = orth_dev(X);
  fp::Mat Xbest = X;
  double best = std::numeric_limits<double>::infinity();
  int tbest = 0;
  for (int t = 0; t <= iterations; ++t) {
    products(pb, X, MX, L);
    Eval e = evaluate(pb, L);
    out.hist[t] = e.value;
    out.piece[t] = e.piece + 1;
    if (keep_best && e.value < best) {
      best = e.value;
      Xbest = X;
      tbest = t;
    }
    if (t == iterations) break;
    fp::Mat D = tangent(X, euclid_grad(pb, MX, e));
    X = retract(X - step * D, polar);
    const double dev = orth_dev(X);
    if (dev > out.orth) out.orth = dev;
    if (X.cols() > 64 || (t & 15) == 15) fp::check_interrupt();  // Ctrl-C
  }
  if (!keep_best) {
    Xbest = X;
    tbest = iterations;
  }
  out.X = Xbest;
  out.value = out.hist[tbest];
  out.iterate = tbest;
  return out;
}

}  // namespace robust
}  // namespace fp

namespace fp {
namespace robust {

// The problem from its R parts (copies); checked by the solver.
inline RobustProblem problem_from_r(const Rcpp::List& M, const Rcpp::NumericMatrix& W, const Rcpp::NumericMatrix& R,
                                    const Rcpp::NumericVector& kappa, bool basis) {
  RobustProblem pb;
  pb.M = fp::rcpp::as_mats(M);
  pb.trM.resize(pb.M.size());
  for (size_t b = 0; b < pb.M.size(); ++b) pb.trM(b) = pb.M[b].trace();
  pb.W = Eigen::Map<const fp::Mat>(W.begin(), W.nrow(), W.ncol());
  pb.R = Eigen::Map<const fp::Mat>(R.begin(), R.nrow(), R.ncol());
  pb.kappa = Eigen::Map<const fp::Vec>(kappa.begin(), kappa.size());
  pb.basis = basis;
  return pb;
}

}  // namespace robust
}  // namespace fp

// One run of Algorithm 1 from X0. Returns the last iterate (or, with keep_best, the iterate of
// smallest objective), its objective and index, the objective and active piece at every iterate
// (iterations + 1 values) and the largest deviation max|X'X - I| over all iterates. `opts` (named
// list, built by fp_robust_runs()): basis, iterations, step, polar, keep_best.
// [[Rcpp::export(.fp_robust_run)]]
Rcpp::List fp_robust_run(const Rcpp::List& M, const Rcpp::NumericMatrix& W, const Rcpp::NumericMatrix& R,
                         const Rcpp::NumericVector& kappa, const Rcpp::NumericMatrix& X0, const Rcpp::List& opts) {
  using namespace fp::robust;
  fp::rcpp::Options o(opts);
  const bool basis = o.get<bool>("basis", true), polar = o.get<bool>("polar", true);
  const bool keep_best = o.get<bool>("keep_best", false);
  const int iterations = o.get<int>("iterations", 0);
  const double step = o.get<double>("step", 0.0);
  o.done();
  const RobustProblem pb = problem_from_r(M, W, R, kappa, basis);
  const fp::Mat X = Eigen::Map<const fp::Mat>(X0.begin(), X0.nrow(), X0.ncol());
  const Run r = fp::rcpp::run([&] { return run(pb, X, iterations, step, polar, keep_best); });
  return Rcpp::List::create(Rcpp::Named("X") = Rcpp::wrap(r.X), Rcpp::Named("value") = r.value,
                            Rcpp::Named("iterate") = r.iterate, Rcpp::Named("history") = Rcpp::wrap(r.hist),
                            Rcpp::Named("piece") = Rcpp::wrap(r.piece), Rcpp::Named("orthogonality_error") = r.orth);
}

// Objective, piece values, Euclidean and Riemannian gradient at X (for tests and diagnostics).
// [[Rcpp::export(.fp_robust_eval)]]
Rcpp::List fp_robust_eval(const Rcpp::List& M, const Rcpp::NumericMatrix& W, const Rcpp::NumericMatrix& R,
                          const Rcpp::NumericVector& kappa, const Rcpp::NumericMatrix& X0, bool basis) {
  using namespace fp::robust;
  const RobustProblem pb = problem_from_r(M, W, R, kappa, basis);
  const fp::Mat X = Eigen::Map<const fp::Mat>(X0.begin(), X0.nrow(), X0.ncol());
  std::vector<fp::Mat> MX(pb.M.size());
  fp::Vec L;
  fp::Mat G;
  const Eval e = fp::rcpp::run([&] {
    check_problem(pb);
    products(pb, X, MX, L);
    Eval ev = evaluate(pb, L);
    G = euclid_grad(pb, MX, ev);
    return ev;
  });
  return Rcpp::List::create(Rcpp::Named("value") = e.value, Rcpp::Named("piece") = e.piece + 1,
                            Rcpp::Named("pieces") = Rcpp::wrap(e.pieces), Rcpp::Named("L") = Rcpp::wrap(e.L),
                            Rcpp::Named("gradient") = Rcpp::wrap(G),
                            Rcpp::Named("riemannian_gradient") = Rcpp::wrap(tangent(X, G)));
}
