// The min-max oracle (Samadi et al. 2018): for weights w on the simplex, the top-k eigenvectors of
// sum_g w_g C_g, whose projection maximises sum_g w_g <C_g, P> over the Fantope; its losses
// a_g - <C_g, P_w> are a supergradient of the dual g(w) at w. Dense eigensolver for small d,
// warm-started Lanczos for large d; and the group matrices it reads (GroupMats).
#ifndef FAIRPROJ_MINMAX_ORACLE_H
#define FAIRPROJ_MINMAX_ORACLE_H

#include <vector>
#include "linalg.h"
#include "tolerances.h"

namespace fp {
namespace minmax {

// The group matrices C_g of a problem, read one at a time by C[g]: the caller's matrices
// (views), or, for a prepared problem that does not hold them (lazy covariances, issue #48),
// each built on demand from the group's scatter with the operations of fp_prepare_moments()
// (prep_group_fill(): the values it would have stored, so every product is the same) into one
// d x d work matrix of the caller's, refilled when another group is asked for. So the solver
// holds one d x d matrix for all m groups. A view is valid until C is asked for another group:
// callers use it at once (an expression of two groups copies one of them first).
class GroupMats {
 public:
  explicit GroupMats(const std::vector<MatMap>& mats) : mats_(mats), m_(static_cast<int>(mats.size())) {
    d_ = m_ ? static_cast<int>(mats[0].rows()) : 0;
  }
  // scatter: the m stored scatters (d x d); w, n, s: the column weights, group sizes and average
  // variance of fp_prepare_normalised(); mean: d x m weighted group means for second moments
  // (centering = "global"), or no columns for covariances; work: d x d, the caller's.
  GroupMats(const std::vector<MatMap>& scatter, const Vec& w, const Vec& n, const Mat& mean, double s, double* work)
      : mats_(scatter), m_(static_cast<int>(scatter.size())), d_(static_cast<int>(w.size())), lazy_(true), w_(w),
        n_(n), mean_(mean), s_(s), work_(work) {}
  size_t size() const { return static_cast<size_t>(m_); }
  // Where a loop over all groups whose order does not matter (each group's result is its own)
  // starts, group (start + j) % m at step j: the group the work matrix holds, so that a loop after
  // another refills one fewer. Read once before the loop (C[g] moves it).
  int start() const { return current_ < 0 ? 0 : current_; }
  MatMap operator[](int g) const {
    if (!lazy_) return mats_[g];
    if (current_ != g) {
      prep_group_fill(work_, mats_[g].data(), w_.data(), n_(g), mean_.cols() ? mean_.col(g).data() : nullptr, s_, d_);
      current_ = g;
    }
    return MatMap(work_, d_, d_);
  }
  // sum_g w_g C_g (groups of weight 0 left out with `skip_zero`), the sum of Eigen's
  // M = 0; M += w_g C_g group after group, entry by entry (the same operations, so the same
  // values): in the work matrix where the groups are built on demand (which then holds no group,
  // so that the solver holds one d x d matrix, issue #48), else in `own`. The view is valid until
  // C is asked for a group or for another sum.
  MatMap weighted(const Vec& w, bool skip_zero, Mat& own) const {
    if (!lazy_) {
      own = Mat::Zero(d_, d_);
      for (int g = 0; g < m_; ++g)
        if (!skip_zero || w(g) != 0.0) own.noalias() += w(g) * mats_[g];
      return MatMap(own.data(), d_, d_);
    }
    current_ = -1;
    for (Eigen::Index j = 0; j < d_; ++j) {
      for (Eigen::Index i = 0; i < d_; ++i) {
        double acc = 0.0;
        for (int g = 0; g < m_; ++g) {
          if (skip_zero && w(g) == 0.0) continue;
          const double cv = prep_cov_entry(mats_[g].data()[i + j * d_], w_(i), w_(j), n_(g));
          acc = acc + w(g) * ((mean_.cols() ? prep_second_entry(cv, mean_(i, g), mean_(j, g)) : cv) / s_);
        }
        work_[i + j * d_] = acc;
      }
    }
    return MatMap(work_, d_, d_);
  }

 private:
  std::vector<MatMap> mats_;
  int m_, d_;
  bool lazy_ = false;
  Vec w_, n_;
  Mat mean_;
  double s_ = 1.0;
  double* work_ = nullptr;
  mutable int current_ = -1;
};

struct Oracle {
  const GroupMats& C;
  Vec a;
  int k, d, m;
  Vec resid;  // warm start for Lanczos (sum of the previous eigenvectors)
  int calls, fallbacks;
  Oracle(const GroupMats& C_, const Vec& a_, int k_) : C(C_), a(a_), k(k_), calls(0), fallbacks(0) {
    d = static_cast<int>(C[0].rows());
    m = static_cast<int>(C.size());
  }
  // sum_g w_g C_g over the groups of nonzero weight (GroupMats::weighted(): in the work matrix
  // of lazy groups, else in `own`), valid until C is read again.
  MatMap weighted(const Vec& w, Mat& own) const { return C.weighted(w, true, own); }
  // Returns the top-k eigenvectors; `values` gets the top-k eigenvalues. M: a matrix or a view.
  Mat top(const Eigen::Ref<const Mat>& M, Vec& values) {
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
    Mat own;
    Mat V = top(weighted(w, own), values);
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
      const MatMap Mw = weighted(w, own);
      for (int i = 0; i < r2; ++i) vals_out(r + i) = (B.col(r + i).transpose() * Mw * B.col(r + i))(0, 0);
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
    const int s = C.start();
    for (int j = 0; j < m; ++j) {
      const int g = (s + j) % m;
      L(g) = a(g) - (V.transpose() * C[g] * V).trace();
    }
    return L;
  }
};

// The scale of the losses: the largest group trace (for relative tolerances).
inline double loss_scale(const GroupMats& C) {
  double s = 0;
  for (int g = 0; g < static_cast<int>(C.size()); ++g) s = std::max(s, C[g].trace());
  return std::max(s, 1e-300);
}

}  // namespace minmax
}  // namespace fp

#endif
