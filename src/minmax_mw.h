// Min-max fair PCA by multiplicative weights (Samadi et al. 2018, Appendix A, Algorithm 3).
#ifndef FAIRPROJ_MINMAX_MW_H
#define FAIRPROJ_MINMAX_MW_H

#include <limits>
#include <string>
#include <vector>
#include "linalg.h"
#include "runtime.h"
#include "fantope.h"
#include "minmax_oracle.h"
#include "minmax_round.h"
#include "minmax_exact.h"

namespace fp {
namespace minmax {

// Multiplicative weights (Samadi et al., Appendix A, Algorithm 3), m groups: `iterations` steps
// p <- p exp(eta loss) (renormalised), each with the oracle of the resolved eigenvectors; the
// primal is the average or the last oracle projection (`keep`: "average", "last" or "better"),
// rounded by Samadi et al.'s LP when `lp_round`.
struct MWResult {
  Mat basis, best_single;
  Vec sdp_lambda, lambda, weights;
  bool has_lp = false;
  double lp_value = std::numeric_limits<double>::quiet_NaN();
  int lp_status = 1;
  bool use_last = false;
  double z_average = 0, z_last = 0, lower = 0;
  Mat weights_history;
  std::vector<double> history_last, history_average, history_lower;
  int eigensolves = 0, dense_fallbacks = 0;
};

inline MWResult solve_mw(const GroupMats& C, const Vec& a, int k, double eta, int iterations,
                  const std::string& keep, bool lp_round) {
  const int m = static_cast<int>(C.size());
  const int d = static_cast<int>(C[0].rows());
  MWResult res;
  Oracle orc(C, a, k);
  Vec p = Vec::Constant(m, 1.0 / m);
  Vec Lsum = Vec::Zero(m);
  std::vector<Mat> Vs;
  res.history_last.assign(iterations, 0.0);
  res.history_average.assign(iterations, 0.0);
  res.history_lower.assign(iterations, 0.0);
  res.weights_history = Mat::Zero(iterations, m);
  double lb = -std::numeric_limits<double>::infinity();
  Vec wbest = p;
  Vec Llast;
  int ibest = -1;
  double zbest = std::numeric_limits<double>::infinity();
  for (int t = 0; t < iterations; ++t) {
    fp::check_interrupt();
    res.weights_history.row(t) = p.transpose();
    Vec vals;
    Mat V = orc.top_resolved(p, vals);
    Vec L = orc.losses(V);
    const double gw = p.dot(L);
    if (gw > lb) { lb = gw; wbest = p; }
    if (ibest < 0 || L.maxCoeff() < zbest) { ibest = t; zbest = L.maxCoeff(); }
    Vs.push_back(V);
    Lsum += L;
    Llast = L;
    res.history_last[t] = L.maxCoeff();
    res.history_average[t] = (Lsum / (t + 1)).maxCoeff();
    res.history_lower[t] = lb;
    // p_i <- p_i exp(eta * loss_i), renormalised (computed stably)
    Vec lg = p.array().log().matrix() + eta * L;
    int imax = 0;
    L.maxCoeff(&imax);
    bool ok = true;
    for (int g = 0; g < m; ++g) if (std::isnan(lg(g)) || lg(g) == std::numeric_limits<double>::infinity()) ok = false;
    if (ok) {
      const double mx = lg.maxCoeff();
      p = (lg.array() - mx).exp().matrix();
    }
    if (!ok || !(p.sum() > 0) || !p.allFinite()) { p = Vec::Zero(m); p(imax) = 1.0; }
    p /= p.sum();
  }
  const int T = iterations;
  res.z_average = (Lsum / T).maxCoeff();
  res.z_last = Llast.maxCoeff();
  res.use_last = (keep == "last") || (keep == "better" && res.z_last < res.z_average);
  std::vector<double> theta(T, res.use_last ? 0.0 : 1.0 / T);
  if (res.use_last) theta[T - 1] = 1.0;
  combination_eigen(Vs, theta, d, res.basis, res.sdp_lambda);
  if (lp_round) {
    round_lp(res, C, a, k, res.basis);
  } else {
    res.lambda = res.sdp_lambda;
  }
  res.best_single = Vs[ibest];
  res.weights = wbest;
  res.lower = lb;
  res.eigensolves = orc.calls;
  res.dense_fallbacks = orc.fallbacks;
  return res;
}

}  // namespace minmax
}  // namespace fp

#endif
