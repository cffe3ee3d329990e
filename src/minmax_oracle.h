// The min-max oracle (Samadi et al. 2018): for weights w on the simplex, the top-k eigenvectors of
// sum_g w_g C_g, whose projection maximises sum_g w_g <C_g, P> over the Fantope; its losses
// a_g - <C_g, P_w> are a supergradient of the dual g(w) at w. Dense eigensolver for small d,
// warm-started Lanczos for large d. Included by minmax.cpp only.
#ifndef FAIRPROJ_MINMAX_ORACLE_H
#define FAIRPROJ_MINMAX_ORACLE_H

#include <vector>
#include "linalg.h"
#include "tolerances.h"

namespace fp {
namespace minmax {

struct Oracle {
  const std::vector<MatMap>& C;
  Vec a;
  int k, d, m;
  Vec resid;  // warm start for Lanczos (sum of the previous eigenvectors)
  int calls, fallbacks;
  Oracle(const std::vector<MatMap>& C_, const Vec& a_, int k_) : C(C_), a(a_), k(k_), calls(0), fallbacks(0) {
    d = static_cast<int>(C[0].rows());
    m = static_cast<int>(C.size());
  }
  Mat weighted(const Vec& w) const {
    Mat M = Mat::Zero(d, d);
    for (int g = 0; g < m; ++g)
      if (w(g) != 0.0) M.noalias() += w(g) * C[g];
    return M;
  }
  // Returns the top-k eigenvectors; `values` gets the top-k eigenvalues.
  Mat top(const Mat& M, Vec& values) {
    ++calls;
    if (fp::use_lanczos(d, k)) {
      const int ncv = std::min(d, std::max(2 * k + 1, k + 20));
      Vec r;
      if (resid.size() == d && resid.norm() > 0) {
        // mix in a fixed vector so the start is never orthogonal to a wanted direction
        r = resid / resid.norm() + Vec::Constant(d, 1e-3 / std::sqrt(static_cast<double>(d)));
      }
      fp::EigResult e;
      if (fp::lanczos_top(M, k, ncv, fp::tol::lanczos, r.size() ? &r : nullptr, e)) {
        values = e.values;
        resid = e.vectors.rowwise().sum();
        return e.vectors;
      }
    }
    if (fp::use_lanczos(d, k)) ++fallbacks;
    fp::EigResult e = fp::eig_sym_full(M);
    values = e.values.head(k);
    return e.vectors.leftCols(k);
  }
  // The top-k eigenvectors of sum_g w_g C_g where that matrix does not resolve all of them:
  // when the top-k eigenvalues include some below kResolve times the largest (weights so
  // uneven that the heaviest groups have rank below k, e.g. MW's weights after a few steps:
  // (1, 1e-181, 1e-181) on a group of 5 rows), those are rounding noise of the heavy groups,
  // and the vectors returned for them would be decided by the rounding of the data, not by the
  // data (so rescaling the data by 3 changes them). The limit of the exact answer as the light
  // weights shrink is used instead: the resolved vectors V_r, completed by the top vectors of
  // sum_g w_g P C_g P (P the projector off V_r) over the groups that still have variance off
  // V_r (above kResolve of their own), with their weights divided by the largest of them;
  // repeated while that matrix leaves vectors unresolved. Where no group has variance left, the
  // completion comes from the unweighted sum (a projection that every loss ignores).
  Mat top_resolved(const Vec& w, Vec& values) {
    Mat V = top(weighted(w), values);
    const double kResolve = 1e-10;
    int r = 0;
    while (r < k && values(r) > kResolve * std::max(values(0), 0.0)) ++r;
    if (r == k) return V;
    Mat B = V.leftCols(r);
    Vec vals_out = values;
    std::vector<char> done(m, 0);
    while (r < k) {
      const Mat P = Mat::Identity(d, d) - B * B.transpose();
      std::vector<Mat> N(m);
      double wmax = 0;
      std::vector<int> live;
      for (int g = 0; g < m; ++g) {
        if (done[g]) continue;
        N[g] = P * C[g] * P;
        if (N[g].trace() > kResolve * C[g].trace() && w(g) >= 0) {
          live.push_back(g);
          wmax = std::max(wmax, w(g));
        } else {
          done[g] = 1;
        }
      }
      Mat M2 = Mat::Zero(d, d);
      if (live.empty()) {
        for (int g = 0; g < m; ++g) M2.noalias() += P * C[g] * P;
      } else {
        for (int g : live) M2.noalias() += (wmax > 0 ? w(g) / wmax : 1.0) * N[g];
      }
      M2 = (M2 + M2.transpose()) / 2;
      fp::EigResult e = fp::eig_sym_full(M2);
      const int q = k - r;
      const double top2 = std::max(e.values(0), 0.0);
      int r2 = 0;
      while (r2 < q && e.values(r2) > kResolve * top2) ++r2;
      if (r2 == 0 || live.empty()) r2 = q;  // nothing resolves them: take these
      Mat add = P * e.vectors.leftCols(r2);
      Mat Bn(d, r + r2);
      Bn << B, add;
      Eigen::HouseholderQR<Mat> qr(Bn);
      Mat Q = qr.householderQ() * Mat::Identity(d, r + r2);
      // keep the resolved vectors as they were (QR may flip signs); the new ones from Q
      Bn.rightCols(r2) = Q.rightCols(r2);
      B = Bn;
      for (int i = 0; i < r2; ++i) vals_out(r + i) = (B.col(r + i).transpose() * weighted(w) * B.col(r + i))(0, 0);
      r += r2;
      for (int g : live) done[g] = 0;
      if (live.empty()) break;
    }
    values = vals_out;
    return B;
  }
  // losses of the projection onto span(V)
  Vec losses(const Mat& V) const {
    Vec L(m);
    for (int g = 0; g < m; ++g) L(g) = a(g) - (V.transpose() * C[g] * V).trace();
    return L;
  }
};

// The scale of the losses: the largest group trace (for relative tolerances).
inline double loss_scale(const std::vector<MatMap>& C) {
  double s = 0;
  for (size_t g = 0; g < C.size(); ++g) s = std::max(s, C[g].trace());
  return std::max(s, 1e-300);
}

}  // namespace minmax
}  // namespace fp

#endif
