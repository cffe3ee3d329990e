// Fair column subset selection (Matakos et al. 2024): the squared error of every prefix of a
// selection, least-squares coefficients, and the greedy method. The facts and numerical
// conventions shared by the CSS methods are in css.h.
#include "css.h"
#include "rcpp_entry.h"

namespace fp {
namespace css {

// Squared projection error of every prefix of `cols` (0-based), per group: a c x m matrix
// (row t = error after the first t + 1 columns), by Householder QR of each group's factor Y_g
// (t(Y_g) Y_g = G_g): the error is the sum of squares of the rows below the selected ones, so it
// is accurate however small it is relative to the size of the data (O(c r d) per group).
// `target` (0-based, empty = all columns) restricts the error to those columns of X_g.
inline Mat prefix_err2(const std::vector<MatMap>& Y, const std::vector<int>& cols, const std::vector<int>& target) {
  const int m = static_cast<int>(Y.size()), c = static_cast<int>(cols.size());
  Mat out = Mat::Zero(c, m);
  for (int g = 0; g < m; ++g) {
    Mat T = Y[g];
    const int d = static_cast<int>(T.cols()), r = static_cast<int>(T.rows());
    std::vector<char> tg = make_target(target, d);
    const Vec orig = Resid::col_norms(T);
    int p = 0;
    for (int t = 0; t < c; ++t) {
      const int j = cols[t];
      if (j < 0 || j >= d) throw fp::solver_error("column index out of range");
      householder(T, p, j, orig(j));
      double s = 0;
      if (p < r) {
        for (int i = 0; i < d; ++i)
          if (tg[i]) s += T.col(i).tail(r - p).squaredNorm();
      }
      out(t, g) = s;
    }
  }
  return out;
}

// Least-squares coefficients W (c x d) with Z ~ Z[, S] W from a factor Y (t(Y) Y = t(Z) Z):
// Householder QR of Y[, S] in the order of S (the reflections carry Y along), a column counting
// as dependent on the earlier ones (coefficients 0) when its residual norm, recomputed at its
// step, is at most 1e-10 of its norm (zero columns, e.g. a category absent from the group,
// included); then back substitution on the independent ones. (LINPACK's QR, which qr() uses,
// judges dependence from norms it downdates: with many more columns than the group's rank it
// kept columns whose true residual was 1e-20 of their norm, or exactly 0, so that qr.coef()
// returned coefficients 1e20 times too large or stopped with "exact singularity".) `cols` are
// 1-based.
inline Mat coef(const Mat& Ym, const std::vector<int>& cols) {
  const int c = static_cast<int>(cols.size()), d = static_cast<int>(Ym.cols()), r = static_cast<int>(Ym.rows());
  Mat W = Mat::Zero(c, d);
  Mat T(r, c + d);
  for (int t = 0; t < c; ++t) {
    const int j = cols[t] - 1;
    if (j < 0 || j >= d) throw fp::solver_error("column index out of range");
    T.col(t) = Ym.col(j);
  }
  T.rightCols(d) = Ym;
  const Vec orig = Resid::col_norms(T.leftCols(c));
  std::vector<int> kept;  // kept[q] = position in cols of the q-th independent column
  int p = 0;
  for (int t = 0; t < c; ++t)
    if (householder(T, p, t, orig(t), 1e-10)) kept.push_back(t);
  if (p == 0) return W;
  Mat U = Mat::Zero(p, p);
  for (int s = 0; s < p; ++s) U.col(s).head(s + 1) = T.col(kept[s]).head(s + 1);
  const Mat B = U.triangularView<Eigen::Upper>().solve(T.block(0, c, p, d));
  for (int q = 0; q < p; ++q)
    for (int j = 0; j < d; ++j) W(kept[q], j) = B(q, j);
  return W;
}

// Greedy: k steps of "add the candidate column that minimises the largest ratio
// sqrt(error_g / best2[t, g])" (t = step). grams: list of d x d; best2: k x m matrix of squared
// denominators per step; cand: sorted 0-based candidates; target: rows of the error (empty =
// all). Returns 0-based columns in selection order and the objective after each step.
// scan = false: the candidate with the smallest value (ties within a relative kTie: the first in
// `cand`). scan = true (the rule of the authors' code): values rounded to `digits` decimals
// (digits < 0: not rounded); the running value starts at the (rounded) objective of the current
// set; candidates are scanned in the order of `cand` and each one whose value is at most the
// running value + tol is accepted and becomes the running value; the last accepted one is added.
struct Greedy {
  std::vector<int> columns;      // 0-based, in selection order
  std::vector<double> objective;  // after each step
};

inline Greedy greedy(const std::vector<MatMap>& G, const std::vector<MatMap>& Y, const Mat& best2, const std::vector<int>& cand,
                     const std::vector<int>& target, int k, bool scan, int digits, double tol) {
  const int m = static_cast<int>(G.size());
  if (m == 0 || static_cast<int>(Y.size()) != m || best2.cols() != m || best2.rows() < k) throw fp::solver_error("bad arguments");
  const int d = static_cast<int>(G[0].rows());
  std::vector<char> tg = make_target(target, d);
  const bool all = target.empty();
  std::vector<Resid> R;
  for (int g = 0; g < m; ++g) R.push_back(Resid(G[g], Y[g]));
  std::vector<char> used(d, 0);
  std::vector<int> sel(k, 0);
  std::vector<double> obj(k, 0.0);
  const int nc = static_cast<int>(cand.size());
  if (k > nc) throw fp::solver_error("fewer candidate columns than requested");
  Vec vals(nc);
  for (int t = 0; t < k; ++t) {
    vals.setConstant(std::numeric_limits<double>::infinity());
    std::vector<Vec> cn(m), rn(m);
    std::vector<double> err2(m);
    for (int g = 0; g < m; ++g) {
      cn[g] = masked_colnorms(R[g].R, tg, all);
      rn[g] = R[g].residual_norms();
      double e = 0;
      for (int i = 0; i < d; ++i)
        if (tg[i]) e += rn[g](i);
      err2[g] = e;
    }
    for (int a = 0; a < nc; ++a) {
      const int j = cand[a];
      if (used[j]) continue;
      double v = 0;
      for (int g = 0; g < m; ++g) {
        const double e = error_after(R[g], G[g], cn[g], rn[g], err2[g], j, tg);
        v = std::max(v, std::sqrt(std::max(e, 0.0) / best2(t, g)));
      }
      vals(a) = v;
    }
    const double vmin = vals.minCoeff();
    if (!std::isfinite(vmin)) throw fp::solver_error("no candidate column left");
    int pick = -1;
    if (scan) {
      const double p10 = digits >= 0 ? std::pow(10.0, digits) : 1.0;
      auto rnd = [&](double x) { return digits >= 0 ? std::nearbyint(x * p10) / p10 : x; };
      double cur = 0;
      for (int g = 0; g < m; ++g) cur = std::max(cur, std::sqrt(std::max(err2[g], 0.0) / best2(t, g)));
      double run = rnd(cur);
      for (int a = 0; a < nc; ++a) {
        if (used[cand[a]]) continue;
        const double v = rnd(vals(a));
        if (v <= run + tol) {
          pick = cand[a];
          run = v;
        }
      }
      if (pick < 0) {  // no candidate within tol of the current value (cannot happen in exact arithmetic)
        for (int a = 0; a < nc; ++a)
          if (!used[cand[a]] && vals(a) == vmin) { pick = cand[a]; break; }
      }
    } else {
      for (int a = 0; a < nc; ++a) {
        if (vals(a) <= vmin + kTie * std::abs(vmin)) {
          pick = cand[a];
          break;
        }
      }
    }
    used[pick] = 1;
    sel[t] = pick;
    for (int g = 0; g < m; ++g) R[g].add(pick);
    for (int a = 0; a < nc; ++a)
      if (cand[a] == pick) obj[t] = vals(a);
    fp::check_interrupt();
  }
  return Greedy{sel, obj};
}

}  // namespace css
}  // namespace fp

// [[Rcpp::export(.fp_css_prefix_err2)]]
Rcpp::NumericMatrix fp_css_prefix_err2(const Rcpp::List& factors, const Rcpp::IntegerVector& cols,
                                       const Rcpp::IntegerVector& target) {
  std::vector<Rcpp::NumericMatrix> keep;
  const std::vector<fp::MatMap> Y = fp::rcpp::as_maps(factors, keep);
  const std::vector<int> c = Rcpp::as<std::vector<int>>(cols), tg = Rcpp::as<std::vector<int>>(target);
  return Rcpp::wrap(fp::rcpp::run([&] { return fp::css::prefix_err2(Y, c, tg); }));
}

// [[Rcpp::export(.fp_css_coef)]]
Rcpp::NumericMatrix fp_css_coef_cpp(const Rcpp::NumericMatrix& Y, const Rcpp::IntegerVector& cols) {
  const fp::Mat Ym = Eigen::Map<const fp::Mat>(Y.begin(), Y.nrow(), Y.ncol());
  const std::vector<int> c = Rcpp::as<std::vector<int>>(cols);
  return Rcpp::wrap(fp::rcpp::run([&] { return fp::css::coef(Ym, c); }));
}

// `opts` (named list, built by fp_css_greedy_cpp()): k, and the authors' scan (scan, digits, tol).
// [[Rcpp::export(.fp_css_greedy)]]
Rcpp::List fp_css_greedy(const Rcpp::List& grams, const Rcpp::List& factors, const Rcpp::NumericMatrix& best2,
                         const Rcpp::IntegerVector& cand, const Rcpp::IntegerVector& target, const Rcpp::List& opts) {
  fp::rcpp::Options o(opts);
  const int k = o.get<int>("k", 1), digits = o.get<int>("digits", -1);
  const bool scan = o.get<bool>("scan", false);
  const double tol = o.get<double>("tol", 0.0);
  o.done();
  std::vector<Rcpp::NumericMatrix> keep;
  const std::vector<fp::MatMap> G = fp::rcpp::as_maps(grams, keep), Y = fp::rcpp::as_maps(factors, keep);
  const fp::Mat b2 = Eigen::Map<const fp::Mat>(best2.begin(), best2.nrow(), best2.ncol());
  const std::vector<int> cd = Rcpp::as<std::vector<int>>(cand), tg = Rcpp::as<std::vector<int>>(target);
  const fp::css::Greedy r = fp::rcpp::run([&] { return fp::css::greedy(G, Y, b2, cd, tg, k, scan, digits, tol); });
  return Rcpp::List::create(Rcpp::Named("columns") = r.columns, Rcpp::Named("objective") = r.objective);
}
