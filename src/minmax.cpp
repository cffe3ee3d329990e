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
#include <memory>
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

// The group matrices an entry point was given, read in place: the list `covs`, or, when the
// options give `lazy` (a list of scatter, w, n, s, mean and work: the moments' scatters, the
// prepared problem's column weights, group sizes and average variance, the weighted group means
// for second moments or NULL for covariances, and the caller's d x d work matrix, which is
// overwritten), each group's matrix built on demand into the work matrix (GroupMats). The
// holder must outlive the solver call.
struct GroupInput {
  std::vector<Rcpp::NumericMatrix> held;
  std::vector<MatMap> maps;
  std::unique_ptr<GroupMats> mats;
};

inline void group_input(const Rcpp::List& covs, const Rcpp::List& lazy, GroupInput& in) {
  if (lazy.size() == 0) {
    in.maps = fp::rcpp::as_maps(covs, in.held);
    if (in.maps.empty()) Rcpp::stop("internal error: no group matrices");
    in.mats.reset(new GroupMats(in.maps));
    return;
  }
  fp::rcpp::Options lz(lazy);
  in.maps = fp::rcpp::as_maps(lz.get<Rcpp::List>("scatter", Rcpp::List()), in.held);
  const Vec w = lz.get<Vec>("w", Vec());
  const Vec n = lz.get<Vec>("n", Vec());
  const double s = lz.get<double>("s", 1.0);
  SEXP mean = lz.get<SEXP>("mean", R_NilValue);
  SEXP work = lz.get<SEXP>("work", R_NilValue);
  lz.done();
  const R_xlen_t d = w.size(), m = static_cast<R_xlen_t>(in.maps.size());
  bool ok = m > 0 && n.size() == m && TYPEOF(work) == REALSXP && Rf_xlength(work) == d * d;
  for (R_xlen_t g = 0; ok && g < m; ++g) ok = in.maps[g].rows() == d && in.maps[g].cols() == d;
  if (ok && !Rf_isNull(mean)) ok = TYPEOF(mean) == REALSXP && Rf_xlength(mean) == d * m;
  if (!ok) Rcpp::stop("internal error: lazy group matrices of mismatched sizes");
  const Mat mu = Rf_isNull(mean) ? Mat(d, 0) : Mat(Eigen::Map<const Mat>(REAL(mean), d, m));
  in.mats.reset(new GroupMats(in.maps, w, n, mu, s, REAL(work)));
}

}  // namespace minmax
}  // namespace fp

// Exact solver. covs: the group matrices (symmetric: R symmetrises them; read in place), a: offsets; opts: k,
// `lazy` (instead of covs, see group_input()), lp (Samadi et al.'s LP rounding) and `exact`, a list
// of gap_tol (relative gap), maxit (oracle calls), smooth (Wentges weight of Kelley's method),
// dual (1: the interior method first, 0: Kelley's method only) and predictor (the interior
// path's predictor step, default TRUE; FALSE for comparisons). Returns what fit_pca_minmax() reads.
// [[Rcpp::export(.fp_minmax_exact)]]
Rcpp::List fp_minmax_exact(Rcpp::List covs, Rcpp::NumericVector a_, Rcpp::List opts) {
  fp::rcpp::Options o(opts);
  const int k = o.get<int>("k", 1);
  const bool lp = o.get<bool>("lp", true);
  fp::minmax::GroupInput in;
  fp::minmax::group_input(covs, o.get<Rcpp::List>("lazy", Rcpp::List()), in);
  fp::rcpp::Options ex(o.get<Rcpp::List>("exact", Rcpp::List()));
  o.done();
  const double gap_tol = ex.get<double>("gap_tol", 5e-10);
  const int maxit = ex.get<int>("maxit", 300);
  const double smooth = ex.get<double>("smooth", 0.0);
  const int dual = ex.get<int>("dual", 1);
  const bool predictor = ex.get<bool>("predictor", true);
  ex.done();
  const fp::minmax::GroupMats& C = *in.mats;
  const fp::Vec a = Rcpp::as<fp::Vec>(a_);
  const fp::minmax::ExactResult r = fp::rcpp::run([&] {
    return fp::minmax::solve_exact(C, a, k, gap_tol, maxit, lp, smooth, dual, predictor);
  });
  Rcpp::List out;
  if (r.two_groups) {
    out = Rcpp::List::create(Rcpp::Named("rotation") = r.rotation,
                             Rcpp::Named("lambda") = r.has_lambda ? Rcpp::wrap(r.lambda) : R_NilValue,
                             Rcpp::Named("basis") = r.has_lambda ? Rcpp::wrap(r.basis) : R_NilValue);
  } else {
    out = Rcpp::List::create(Rcpp::Named("lambda") = r.lambda, Rcpp::Named("basis") = r.basis);
    out["inner_eigensolves"] = r.inner_eigensolves;
    out["dual"] = r.dual;
  }
  if (r.has_lp) out["lp_status"] = r.lp_status;
  out["best_single"] = r.best_single;
  out["weights"] = r.weights;
  out["lower"] = r.lower;
  out["history_lower"] = r.history_lower;
  out["history_upper"] = r.history_upper;
  out["eigensolves"] = r.eigensolves;
  return out;
}

// Multiplicative weights (Samadi et al., Appendix A, Algorithm 3), m groups. opts: k, lazy, lp and
// `mw`, a list of eta, iterations and keep ("better", "average" or "last").
// [[Rcpp::export(.fp_minmax_mw)]]
Rcpp::List fp_minmax_mw(Rcpp::List covs, Rcpp::NumericVector a_, Rcpp::List opts) {
  fp::rcpp::Options o(opts);
  const int k = o.get<int>("k", 1);
  const bool lp = o.get<bool>("lp", true);
  fp::minmax::GroupInput in;
  fp::minmax::group_input(covs, o.get<Rcpp::List>("lazy", Rcpp::List()), in);
  fp::rcpp::Options mw(o.get<Rcpp::List>("mw", Rcpp::List()));
  o.done();
  const double eta = mw.get<double>("eta", 1.0);
  const int iterations = mw.get<int>("iterations", 10);
  const std::string keep = mw.get<std::string>("keep", "better");
  mw.done();
  const fp::minmax::GroupMats& C = *in.mats;
  const fp::Vec a = Rcpp::as<fp::Vec>(a_);
  const fp::minmax::MWResult r = fp::rcpp::run([&] {
    return fp::minmax::solve_mw(C, a, k, eta, iterations, keep, lp);
  });
  Rcpp::List out = Rcpp::List::create(Rcpp::Named("basis") = r.basis, Rcpp::Named("lambda") = r.lambda);
  if (r.has_lp) out["lp_status"] = r.lp_status;
  out["best_single"] = r.best_single;
  out["iterate"] = r.use_last ? "last" : "average";
  out["weights"] = r.weights;
  out["weights_history"] = r.weights_history;
  out["lower"] = r.lower;
  out["history_last"] = r.history_last;
  out["history_average"] = r.history_average;
  out["history_lower"] = r.history_lower;
  out["eigensolves"] = r.eigensolves;
  return out;
}

// Top-k eigenvalue sums and losses, for tests and diagnostics: g(w) and the oracle losses
// (covs symmetric).
// [[Rcpp::export(.fp_minmax_dual)]]
Rcpp::List fp_minmax_dual(Rcpp::List covs, Rcpp::NumericVector a_, int k, Rcpp::NumericVector w_) {
  std::vector<Rcpp::NumericMatrix> held;
  const std::vector<fp::MatMap> maps = fp::rcpp::as_maps(covs, held);  // R's memory, not copied
  const fp::minmax::GroupMats C(maps);
  const fp::Vec a = Rcpp::as<fp::Vec>(a_);
  const fp::Vec w = Rcpp::as<fp::Vec>(w_);
  fp::Vec L, vals;
  fp::Mat V;
  fp::rcpp::run([&] {
    fp::minmax::Oracle orc(C, a, k);
    fp::Mat own;
    V = orc.top(orc.weighted(w, own), vals);
    L = orc.losses(V);
    return 0;
  });
  return Rcpp::List::create(Rcpp::Named("value") = w.dot(L), Rcpp::Named("losses") = L,
                            Rcpp::Named("rotation") = V);
}
