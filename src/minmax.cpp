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
//  * m groups: a path-following Newton method on the entropically smoothed dual, with the primal
//    recovered by a barrier method on a small subspace (smooth_dual); for large d the same on a
//    subspace grown by column generation with Lanczos eigenvectors (subspace_dual); Kelley's
//    cutting-plane method (the master LP solved by a dense simplex, its dual giving the primal
//    combination) as the fall-back and as an option;
//  * primal recovery: two groups -> rank-k projection with equal losses (rotation inside the
//    subspace where the two last oracle projections differ); m groups -> Samadi et al.'s LP on
//    the eigenbasis of the primal combination, solved to a vertex by the simplex method;
//  * multiplicative weights exactly as in Samadi et al.'s Appendix A, with an oracle whose
//    vectors beyond the resolved eigenvalues of sum_g w_g C_g are the limit of the exact ones
//    (Oracle::top_resolved()), so that no step depends on rounding noise.
//
// Files: minmax_oracle.h (the oracle), minmax_dual.h (the interior dual), minmax_restricted.h
// (its primal recovery on a subspace), minmax_round.h (LP and two-group rounding), simplex.h
// (the LP solver), fantope.h (Fantope geometry, shared with cfpca.cpp), minmax_exact.h (the
// cuts, the two-group secant method, Kelley's method and the exact driver), minmax_mw.h
// (multiplicative weights); this file holds the exported entry points, which alone speak R.
#include <string>
#include <vector>
#include "linalg.h"
#include "minmax_oracle.h"
#include "minmax_round.h"
#include "minmax_exact.h"
#include "minmax_mw.h"
#include "rcpp_entry.h"

namespace fp {
namespace minmax {

// The covariances, symmetrised.
inline std::vector<Mat> symmetrised(const std::vector<Mat>& covs) {
  std::vector<Mat> C;
  for (const Mat& S : covs) C.push_back((S + S.transpose()) / 2.0);
  return C;
}

}  // namespace minmax
}  // namespace fp

// Exact solver. covs: list of d x d matrices, a: offsets, k, tol (relative gap), maxit oracle
// calls, lp_round (Samadi et al.'s LP), smooth (Wentges weight of Kelley's method), dual (1: the
// interior method first, 0: Kelley's method only).
// [[Rcpp::export(.fp_minmax_exact)]]
Rcpp::List fp_minmax_exact(Rcpp::List covs, Rcpp::NumericVector a_, int k, double tol, int maxit,
                           bool lp_round, double smooth = 0.5, int dual = 1) {
  const fp::minmax::ExactResult r =
      fp::minmax::solve_exact(fp::minmax::symmetrised(fp::rcpp::as_mats(covs)), Rcpp::as<fp::Vec>(a_), k, tol, maxit, lp_round, smooth, dual);
  Rcpp::List out;
  if (r.two_groups) {
    out = Rcpp::List::create(Rcpp::Named("rotation") = r.rotation,
                             Rcpp::Named("lambda") = r.has_lambda ? Rcpp::wrap(r.lambda) : R_NilValue,
                             Rcpp::Named("basis") = r.has_lambda ? Rcpp::wrap(r.basis) : R_NilValue,
                             Rcpp::Named("primal") = r.primal);
    if (r.has_lp) {
      out["lp_value"] = r.lp_value;
      out["lp_status"] = r.lp_status;
    }
    out["weights"] = r.weights;
    out["best_single"] = r.best_single;
    out["main_evals"] = r.main_evals;
  } else {
    out = Rcpp::List::create(Rcpp::Named("lambda") = r.lambda, Rcpp::Named("basis") = r.basis);
    if (r.has_lp) {
      out["lp_value"] = r.lp_value;
      out["lp_status"] = r.lp_status;
    }
    out["sdp_lambda"] = r.sdp_lambda;
    out["sdp_basis"] = r.sdp_basis;
    out["master_failed"] = r.master_failed;
    out["best_single"] = r.best_single;
    out["weights"] = r.weights;
  }
  out["lower"] = r.lower;
  out["upper"] = r.upper;
  out["history_lower"] = r.history_lower;
  out["history_upper"] = r.history_upper;
  out["converged"] = r.converged;
  out["eigensolves"] = r.eigensolves;
  out["dense_fallbacks"] = r.dense_fallbacks;
  if (!r.two_groups) {
    out["inner_eigensolves"] = r.inner_eigensolves;
    out["dual"] = r.dual;
  }
  return out;
}

// Multiplicative weights (Samadi et al., Appendix A, Algorithm 3), m groups.
// [[Rcpp::export(.fp_minmax_mw)]]
Rcpp::List fp_minmax_mw(Rcpp::List covs, Rcpp::NumericVector a_, int k, double eta, int iterations,
                        std::string keep, bool lp_round) {
  const fp::minmax::MWResult r =
      fp::minmax::solve_mw(fp::minmax::symmetrised(fp::rcpp::as_mats(covs)), Rcpp::as<fp::Vec>(a_), k, eta, iterations, keep, lp_round);
  Rcpp::List out = Rcpp::List::create(Rcpp::Named("basis") = r.basis, Rcpp::Named("sdp_lambda") = r.sdp_lambda);
  out["lambda"] = r.lambda;
  if (r.has_lp) {
    out["lp_value"] = r.lp_value;
    out["lp_status"] = r.lp_status;
  }
  out["best_single"] = r.best_single;
  out["iterate"] = r.use_last ? "last" : "average";
  out["z_average"] = r.z_average;
  out["z_last"] = r.z_last;
  out["weights"] = r.weights;
  out["weights_history"] = r.weights_history;
  out["lower"] = r.lower;
  out["history_last"] = r.history_last;
  out["history_average"] = r.history_average;
  out["history_lower"] = r.history_lower;
  out["eigensolves"] = r.eigensolves;
  out["dense_fallbacks"] = r.dense_fallbacks;
  return out;
}

// Top-k eigenvalue sums and losses, for tests and diagnostics: g(w) and the oracle losses.
// [[Rcpp::export(.fp_minmax_dual)]]
Rcpp::List fp_minmax_dual(Rcpp::List covs, Rcpp::NumericVector a_, int k, Rcpp::NumericVector w_) {
  const std::vector<fp::Mat> C = fp::minmax::symmetrised(fp::rcpp::as_mats(covs));
  const fp::Vec a = Rcpp::as<fp::Vec>(a_);
  fp::minmax::Oracle orc(C, a, k);
  const fp::Vec w = Rcpp::as<fp::Vec>(w_);
  fp::Vec vals;
  const fp::Mat V = orc.top(orc.weighted(w), vals);
  const fp::Vec L = orc.losses(V);
  return Rcpp::List::create(Rcpp::Named("value") = w.dot(L), Rcpp::Named("losses") = L,
                            Rcpp::Named("rotation") = V);
}

// Samadi et al.'s LP on a given orthonormal basis (exported for tests).
// [[Rcpp::export(.fp_minmax_lp)]]
Rcpp::List fp_minmax_lp(Rcpp::List covs, Rcpp::NumericVector a_, int k, Rcpp::NumericMatrix U_) {
  const std::vector<fp::Mat> C = fp::minmax::symmetrised(fp::rcpp::as_mats(covs));
  const fp::Vec a = Rcpp::as<fp::Vec>(a_);
  const fp::Mat U = Rcpp::as<fp::Mat>(U_);
  const fp::minmax::LPRound lr = fp::minmax::samadi_lp(C, a, k, U);
  return Rcpp::List::create(Rcpp::Named("lambda") = lr.lambda, Rcpp::Named("z") = lr.z,
                            Rcpp::Named("status") = lr.status);
}