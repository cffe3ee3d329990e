// Compiled helpers of the CSS methods (R/css-*.R) on small matrices, where the interpreter's
// overhead was a third of a two-stage fit on german (d = 62): the numeric core of
// fp_css_prepare() (with the LAPACK routines of chol(pivot = TRUE) and svd(): dpstrf, dgesdd);
// one pass of the scores sampler. (The coefficients of a fit are in css.cpp, beside the
// Householder step they share with the prefix errors.)
#define USE_FC_LEN_T
#include <Rconfig.h>
#include <R_ext/Lapack.h>
#include <algorithm>
#include <cmath>
#include <vector>
#include "linalg.h"
#include "runtime.h"
#include "rcpp_entry.h"

#ifndef FCONE
#define FCONE
#endif

namespace fp {
namespace css_prep {

// Pivoted Cholesky factor of a symmetric positive semi-definite S (d x d, column-major): the
// first `rank` rows of the upper triangular U (U' U = P' S P) with its columns put back in the
// original order, as fp_psd_factor() did with chol(S, pivot = TRUE) (dpstrf, default
// tolerance). Returns false when LAPACK rejects the arguments.
bool psd_factor(const double* S, int d, fp::Mat& out) {
  bool any_pos = false;
  for (int j = 0; j < d; ++j) any_pos = any_pos || S[j + static_cast<size_t>(j) * d] > 0;
  if (!any_pos) {
    out = fp::Mat(0, d);
    return true;
  }
  std::vector<double> a(S, S + static_cast<size_t>(d) * d);
  for (int j = 0; j < d; ++j)
    for (int i = j + 1; i < d; ++i) a[i + static_cast<size_t>(j) * d] = 0.0;
  std::vector<int> piv(d);
  std::vector<double> work(2 * static_cast<size_t>(d));
  int rank = 0, info = 0;
  double tol = -1;
  F77_CALL(dpstrf)("U", &d, a.data(), &d, piv.data(), &rank, &tol, work.data(), &info FCONE);
  if (info < 0) return false;
  out = fp::Mat::Zero(rank, d);
  for (int q = 0; q < d; ++q) {  // column q of U is column piv[q] of the factor
    const int j = piv[q] - 1;
    for (int i = 0; i < rank; ++i) out(i, j) = a[i + static_cast<size_t>(q) * d];
  }
  return true;
}

// All d singular values of Y (r x d) by dgesdd with jobz = "N" and the workspace it asks for;
// when r < d the last d - r are exactly 0 (appended: the decomposition of the r x d matrix is
// cheaper than that of the d x d one padded with zero rows, and its trailing values are not
// rounding noise).
bool singular_values(const fp::Mat& Y, int d, fp::Vec& s) {
  int r = static_cast<int>(Y.rows());
  s = fp::Vec::Zero(d);
  if (r == 0 || d == 0) return true;
  std::vector<double> a(Y.data(), Y.data() + Y.size());
  const int p = std::min(r, d);
  std::vector<int> iwork(8 * static_cast<size_t>(p));
  double u = 0, vt = 0, wq = 0;
  int one = 1, lwork = -1, info = 0;
  F77_CALL(dgesdd)("N", &r, &d, a.data(), &r, s.data(), &u, &one, &vt, &one, &wq, &lwork, iwork.data(),
                   &info FCONE);
  if (info != 0) return false;
  lwork = static_cast<int>(wq);
  std::vector<double> work(std::max(lwork, 1));
  F77_CALL(dgesdd)("N", &r, &d, a.data(), &r, s.data(), &u, &one, &vt, &one, work.data(), &lwork,
                   iwork.data(), &info FCONE);
  return info == 0;
}

struct Prep {
  std::vector<fp::Mat> gram, factor;
  std::vector<fp::Vec> sv;
  fp::Mat pooled;
};


// Per group i: z-means dm = ((mean[, i] - ctr) / sc) * pw, scatter
// S = (scatter_i / (sc sc')) * (pw pw') made exactly symmetric, Gram matrix
// G = S + (dm dm') n_i (symmetrised), factor Y = rbind(sqrt(n_i) dm', chol factor of S) and the
// singular values of Y. `pooled` is the sum of the Gram matrices in group order.
// The Cholesky factor is computed on the scatter with its diagonal equilibrated by powers of two
// (exact) and scaled back: dpstrf stops at pivots below n eps times the largest diagonal entry,
// which on the raw scatter drops the whole variation of any column whose variance is below that
// fraction of the largest one (columns in very different units give wrong errors and best
// rank-k errors); equilibrated, a column loses only what is below n eps of its own variance,
// and a column too small to square in the normalised units keeps its factor.
inline Prep prep_core(const std::vector<fp::MatMap>& scatter, const fp::Mat& mean, const fp::Vec& n, const fp::Vec& ctr,
                      const fp::Vec& sc, const fp::Vec& pw) {
  const int m = static_cast<int>(scatter.size()), d = static_cast<int>(mean.rows());
  if (mean.cols() != m || n.size() != m || ctr.size() != d || sc.size() != d || pw.size() != d) {
    throw fp::solver_error("the moments' parts do not match");
  }
  Prep out;
  out.gram.resize(m);
  out.factor.resize(m);
  out.sv.resize(m);
  out.pooled = fp::Mat::Zero(d, d);
  fp::Mat& pooled = out.pooled;
  std::vector<double> S(static_cast<size_t>(d) * d), T(static_cast<size_t>(d) * d), E(static_cast<size_t>(d) * d), dm(d);
  std::vector<int> te(d);
  for (int g = 0; g < m; ++g) {
    const fp::MatMap& sg = scatter[g];
    if (sg.rows() != d || sg.cols() != d) throw fp::solver_error("bad scatter matrix");
    for (int a = 0; a < d; ++a) dm[a] = ((mean(a, g) - ctr[a]) / sc[a]) * pw[a];
    for (int b = 0; b < d; ++b)
      for (int a = 0; a < d; ++a) T[a + static_cast<size_t>(b) * d] = (sg(a, b) / (sc[a] * sc[b])) * (pw[a] * pw[b]);
    for (int b = 0; b < d; ++b)
      for (int a = 0; a < d; ++a)
        S[a + static_cast<size_t>(b) * d] = (T[a + static_cast<size_t>(b) * d] + T[b + static_cast<size_t>(a) * d]) / 2;
    // the factor of the scatter from its equilibrated copy E = Q S Q (Q = diag(2^t), unit-order
    // diagonal, formed from the stored scatter so that no entry under- or overflows): R = U / Q
    for (int a = 0; a < d; ++a) {
      const double v = sg(a, a) / (sc[a] * sc[a]);
      te[a] = v > 0 && std::isfinite(v) ? -(std::ilogb(v) / 2) : 0;
    }
    for (int b = 0; b < d; ++b)
      for (int a = 0; a < d; ++a)
        T[a + static_cast<size_t>(b) * d] = std::ldexp(sg(a, b) / (sc[a] * sc[b]), te[a] + te[b]);
    for (int b = 0; b < d; ++b)
      for (int a = 0; a < d; ++a)
        E[a + static_cast<size_t>(b) * d] = (T[a + static_cast<size_t>(b) * d] + T[b + static_cast<size_t>(a) * d]) / 2;
    const double ng = n[g];
    for (int b = 0; b < d; ++b)
      for (int a = 0; a < d; ++a) T[a + static_cast<size_t>(b) * d] = S[a + static_cast<size_t>(b) * d] + (dm[a] * dm[b]) * ng;
    fp::Mat G(d, d);
    for (int b = 0; b < d; ++b)
      for (int a = 0; a < d; ++a) {
        G(a, b) = (T[a + static_cast<size_t>(b) * d] + T[b + static_cast<size_t>(a) * d]) / 2;
        pooled(a, b) = g == 0 ? G(a, b) : pooled(a, b) + G(a, b);
      }
    fp::Mat R;
    if (!psd_factor(E.data(), d, R)) throw fp::solver_error("pivoted Cholesky factorisation failed");
    fp::Mat Y = fp::Mat::Zero(R.rows() + 1, d);
    const double sn = std::sqrt(ng);
    for (int b = 0; b < d; ++b) {
      Y(0, b) = sn * dm[b];
      // pw[b] / 2^te[b] in one exact step (pw is a power of two)
      const int eb = pw[b] > 0 ? std::ilogb(pw[b]) - te[b] : 0;
      for (int i = 0; i < R.rows(); ++i) Y(i + 1, b) = pw[b] > 0 ? std::ldexp(R(i, b), eb) : 0.0;
    }
    fp::Vec s;
    if (!singular_values(Y, d, s)) throw fp::solver_error("the singular value decomposition failed");
    out.gram[g] = G;
    out.factor[g] = Y;
    out.sv[g] = s;
  }
  return out;
}

struct Pass {
  std::vector<int> taken;    // 0-based columns, in order
  std::vector<double> sums;  // the new sums
};

// One pass of the FairScoresSampler (fp_css_sampler()): take the columns of `ord` (0-based, in
// order) while fewer than `room` are taken, adding each one's scores to `sums`, and stop after
// the first column that brings an active group's sum to theta. Returns the 0-based columns
// taken and the new sums (each a sum in the order the columns were taken, as the R loop did).
inline Pass sampler_pass(const fp::Mat& scores, const std::vector<int>& ord, const std::vector<double>& sums,
                         const std::vector<int>& active, double theta, int room) {
  const int m = static_cast<int>(scores.cols());
  Pass out;
  std::vector<double>& s = out.sums;
  s = sums;
  std::vector<int>& taken = out.taken;
  for (size_t a = 0; a < ord.size(); ++a) {
    if (static_cast<int>(taken.size()) >= room) break;
    const int i = ord[a];
    if (i < 0 || i >= scores.rows()) throw fp::solver_error("column index out of range");
    taken.push_back(i);
    bool hit = false;
    for (int j = 0; j < m; ++j) {
      s[j] = s[j] + scores(i, j);
      if (active[j] == 1 && s[j] >= theta) hit = true;
    }
    if (hit) break;
  }
  return out;
}

}  // namespace css_prep
}  // namespace fp

// The numeric core of fp_css_prepare(); see fp::css_prep::prep_core().
// [[Rcpp::export(.fp_css_prep_core)]]
Rcpp::List fp_css_prep_core(const Rcpp::List& scatter, const Rcpp::NumericMatrix& mean, const Rcpp::NumericVector& n,
                            const Rcpp::NumericVector& ctr, const Rcpp::NumericVector& sc, const Rcpp::NumericVector& pw) {
  std::vector<Rcpp::NumericMatrix> keep;
  const std::vector<fp::MatMap> S = fp::rcpp::as_maps(scatter, keep);
  const fp::Mat M = Eigen::Map<const fp::Mat>(mean.begin(), mean.nrow(), mean.ncol());
  const fp::Vec nv = Rcpp::as<fp::Vec>(n), cv = Rcpp::as<fp::Vec>(ctr), sv = Rcpp::as<fp::Vec>(sc), pv = Rcpp::as<fp::Vec>(pw);
  const fp::css_prep::Prep r = fp::rcpp::run([&] { return fp::css_prep::prep_core(S, M, nv, cv, sv, pv); });
  Rcpp::List gram(r.gram.size()), factor(r.factor.size()), sval(r.sv.size());
  for (size_t g = 0; g < r.gram.size(); ++g) {
    gram[g] = Rcpp::wrap(r.gram[g]);
    factor[g] = Rcpp::wrap(r.factor[g]);
    sval[g] = Rcpp::wrap(r.sv[g]);
  }
  return Rcpp::List::create(Rcpp::Named("gram") = gram, Rcpp::Named("factor") = factor, Rcpp::Named("sv") = sval,
                            Rcpp::Named("pooled") = r.pooled);
}

// One pass of the scores sampler; see fp::css_prep::sampler_pass().
// [[Rcpp::export(.fp_css_sampler_pass)]]
Rcpp::List fp_css_sampler_pass(const Rcpp::NumericMatrix& scores, const Rcpp::IntegerVector& ord,
                               const Rcpp::NumericVector& sums, const Rcpp::LogicalVector& active, double theta, int room) {
  const fp::Mat sm = Eigen::Map<const fp::Mat>(scores.begin(), scores.nrow(), scores.ncol());
  const std::vector<int> o = Rcpp::as<std::vector<int>>(ord), act(active.begin(), active.end());
  const std::vector<double> s0(sums.begin(), sums.end());
  const fp::css_prep::Pass r = fp::rcpp::run([&] { return fp::css_prep::sampler_pass(sm, o, s0, act, theta, room); });
  return Rcpp::List::create(Rcpp::Named("taken") = r.taken, Rcpp::Named("sums") = r.sums);
}
