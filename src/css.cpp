// Fair column subset selection (Matakos et al. 2024): the squared error of every prefix of a
// selection, least-squares coefficients, and the greedy method. The facts and numerical
// conventions shared by the CSS methods are in css.h.
#include "css.h"

// Squared projection error of every prefix of `cols` (0-based), per group: a c x m matrix
// (row t = error after the first t + 1 columns), by Householder QR of each group's factor Y_g
// (t(Y_g) Y_g = G_g): the error is the sum of squares of the rows below the selected ones, so it
// is accurate however small it is relative to the size of the data (O(c r d) per group).
// `target` (0-based, empty = all columns) restricts the error to those columns of X_g.
// [[Rcpp::export(.fp_css_prefix_err2)]]
NumericMatrix fp_css_prefix_err2(const List& factors, const IntegerVector& cols, const IntegerVector& target) {
  using namespace fp::css;
  std::vector<Mat> Y = as_mats(factors);
  const int m = static_cast<int>(Y.size()), c = cols.size();
  NumericMatrix out(c, m);
  for (int g = 0; g < m; ++g) {
    Mat T = Y[g];
    const int d = static_cast<int>(T.cols()), r = static_cast<int>(T.rows());
    std::vector<char> tg = make_target(target, d);
    const Vec orig = Resid::col_norms(T);
    int p = 0;
    for (int t = 0; t < c; ++t) {
      const int j = cols[t];
      if (j < 0 || j >= d) Rcpp::stop("column index out of range");
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
// [[Rcpp::export(.fp_css_coef)]]
NumericMatrix fp_css_coef_cpp(const NumericMatrix& Y, const IntegerVector& cols) {
  using namespace fp::css;
  const int c = cols.size(), d = Y.ncol(), r = Y.nrow();
  NumericMatrix W(c, d);
  Eigen::Map<const Mat> Ym(Y.begin(), r, d);
  Mat T(r, c + d);
  for (int t = 0; t < c; ++t) {
    const int j = cols[t] - 1;
    if (j < 0 || j >= d) Rcpp::stop("column index out of range");
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
// [[Rcpp::export(.fp_css_greedy)]]
List fp_css_greedy(const List& grams, const List& factors, const NumericMatrix& best2, const IntegerVector& cand,
                   const IntegerVector& target, int k, bool scan = false, int digits = -1, double tol = 0) {
  using namespace fp::css;
  std::vector<Mat> G = as_grams(grams), Y = as_mats(factors);
  const int m = static_cast<int>(G.size());
  if (m == 0 || static_cast<int>(Y.size()) != m || best2.ncol() != m || best2.nrow() < k) Rcpp::stop("bad arguments");
  const int d = static_cast<int>(G[0].rows());
  std::vector<char> tg = make_target(target, d);
  const bool all = target.size() == 0;
  std::vector<Resid> R;
  for (int g = 0; g < m; ++g) R.push_back(Resid(G[g], Y[g]));
  std::vector<char> used(d, 0);
  IntegerVector sel(k);
  NumericVector obj(k);
  const int nc = cand.size();
  if (k > nc) Rcpp::stop("fewer candidate columns than requested");
  Vec vals(nc);
  for (int t = 0; t < k; ++t) {
    vals.setConstant(R_PosInf);
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
    if (!std::isfinite(vmin)) Rcpp::stop("no candidate column left");
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
    Rcpp::checkUserInterrupt();
  }
  return List::create(Rcpp::Named("columns") = sel, Rcpp::Named("objective") = obj);
}
