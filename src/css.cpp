// Fair column subset selection (Matakos, Ordozgoiti & Thejaswi, KDD 2024) from per-group Gram
// matrices G_g = X_g' X_g (d x d). Nothing here touches the rows of the data.
//
// Facts used throughout (R_g = residual Gram matrix of group g after selecting the set S):
//   * R_g = G_g - G_g[:,S] G_g[S,S]^+ G_g[S,:] = (X_g - P_S X_g)' (X_g - P_S X_g), so the
//     squared projection error of the group is trace(R_g);
//   * adding column j is the rank-one downdate R_g <- R_g - r r' / r_j with r = R_g[:,j]
//     (Gram-Schmidt in Gram space), which lowers the error by ||r||^2 / r_j;
//   * the trailing block R22 of a QR factorisation of X_g[:, perm] satisfies R22'R22 = R_g
//     restricted to the unselected columns, so its top right singular vector is the top
//     eigenvector of R_g (low-rank-revealing QR);
//   * the leading i x i block R11 satisfies R11'R11 = G_g[P,P] (P the first i positions), so
//     its smallest right singular vector is the bottom eigenvector of G_g[P,P] (high-RRQR).
//
// Numerical conventions (documented in ?fair_css):
//   * a column whose residual r_j is at most kDep * G_g[j,j] (residual norm below 1e-5 of the
//     column's norm) counts as linearly dependent on the selected columns for group g: it
//     lowers that group's error by nothing and its residual is set to zero;
//   * ties in the greedy and exhaustive objectives: values within a relative kTie of the
//     minimum are tied, the lowest column index (first subset in lexicographic order) wins;
//   * QR pivots: the group with the larger top eigenvalue (low QR) or smaller bottom eigenvalue
//     (high QR) gives the vector, the first group on exact ties; the pivot is the first
//     position (in the current permuted order) of the largest |entry|.
#define USE_FC_LEN_T
#include <Rconfig.h>
#include "linalg.h"
#include <R_ext/Lapack.h>
#include <cfloat>

#ifndef FCONE
#define FCONE
#endif

using Rcpp::IntegerVector;
using Rcpp::List;
using Rcpp::NumericMatrix;
using Rcpp::NumericVector;

namespace {

typedef fp::Mat Mat;
typedef fp::Vec Vec;

const double kDep = 1e-10;
const double kTie = 1e-10;

std::vector<Mat> as_grams(const List& grams) {
  std::vector<Mat> out;
  for (R_xlen_t g = 0; g < grams.size(); ++g) {
    NumericMatrix a = grams[g];
    out.push_back(Eigen::Map<Mat>(a.begin(), a.nrow(), a.ncol()));
  }
  return out;
}

// Rank-one downdate of a residual Gram matrix by column j (exactly zero row/column j after).
// Returns false when the column is dependent (nothing removed).
bool downdate(Mat& R, int j, double orig_jj) {
  const double rjj = R(j, j);
  bool ok = rjj > kDep * orig_jj && rjj > 0;
  if (ok) {
    Vec r = R.col(j);
    R.noalias() -= (r / rjj) * r.transpose();
  }
  R.row(j).setZero();
  R.col(j).setZero();
  return ok;
}

double masked_trace(const Mat& R, const std::vector<char>& target) {
  double s = 0;
  for (int i = 0; i < R.rows(); ++i)
    if (target[i]) s += std::max(R(i, i), 0.0);
  return s;
}

// Squared column norms of R over the target rows.
Vec masked_colnorms(const Mat& R, const std::vector<char>& target, bool all) {
  if (all) return R.colwise().squaredNorm().transpose();
  const int d = static_cast<int>(R.rows());
  Vec out = Vec::Zero(d);
  for (int j = 0; j < d; ++j) {
    double s = 0;
    for (int i = 0; i < d; ++i)
      if (target[i]) s += R(i, j) * R(i, j);
    out(j) = s;
  }
  return out;
}

std::vector<char> make_target(const IntegerVector& target, int d) {
  std::vector<char> t(d, target.size() == 0 ? 1 : 0);
  for (R_xlen_t i = 0; i < target.size(); ++i) t[target[i]] = 1;
  return t;
}

// Top eigenpair of a symmetric matrix; Lanczos (Spectra) warm-started from `start` (the
// previous step's vector) when the matrix is large, dense otherwise. Returns the eigenvalue.
double top_eigpair(const Mat& A, const Vec& start, Vec& vec) {
  const int d = static_cast<int>(A.rows());
  if (d >= 120) {
    Spectra::DenseSymMatProd<double> op(A);
    Spectra::SymEigsSolver<double, Spectra::LARGEST_ALGE, Spectra::DenseSymMatProd<double> > eigs(&op, 1, std::min(d, 21));
    Vec s0 = start;
    if (s0.size() != d || s0.norm() < 1e-8) s0 = Vec::Constant(d, 1.0 / std::sqrt(static_cast<double>(d)));
    // a small deterministic perturbation keeps the start from lying in an invariant subspace
    for (int i = 0; i < d; ++i) s0(i) += 1e-3 * std::sin(0.7 * (i + 1)) / std::sqrt(static_cast<double>(d));
    eigs.init(s0.data());
    eigs.compute(2000, 1e-9);
    if (eigs.info() == Spectra::SUCCESSFUL) {
      vec = eigs.eigenvectors().col(0);
      return eigs.eigenvalues()(0);
    }
  }
  fp::EigResult e = fp::eig_sym_full(A);
  vec = e.vectors.col(0);
  return e.values(0);
}

// Smallest eigenpair of a symmetric matrix: LAPACK dsyevr for that one pair (tridiagonal
// reduction plus one eigenvector), Eigen's dense solver if LAPACK fails.
double bottom_eigpair(const Mat& A, Vec& vec) {
  int n = static_cast<int>(A.rows());
  Mat a = A;
  const char jobz = 'V', range = 'I', uplo = 'L';
  int il = 1, iu = 1, m = 0, info = 0, lwork = -1, liwork = -1, iwq = 0;
  double vl = 0, vu = 0, abstol = 2 * DBL_MIN, wq = 0;
  Vec w(n);
  vec.resize(n);
  std::vector<int> isuppz(2);
  F77_CALL(dsyevr)(&jobz, &range, &uplo, &n, a.data(), &n, &vl, &vu, &il, &iu, &abstol, &m, w.data(),
                   vec.data(), &n, isuppz.data(), &wq, &lwork, &iwq, &liwork, &info FCONE FCONE FCONE);
  if (info == 0) {
    lwork = static_cast<int>(wq);
    liwork = iwq;
    std::vector<double> work(lwork);
    std::vector<int> iwork(liwork);
    F77_CALL(dsyevr)(&jobz, &range, &uplo, &n, a.data(), &n, &vl, &vu, &il, &iu, &abstol, &m, w.data(),
                     vec.data(), &n, isuppz.data(), work.data(), &lwork, iwork.data(), &liwork,
                     &info FCONE FCONE FCONE);
    if (info == 0 && m == 1) return w(0);
  }
  Eigen::SelfAdjointEigenSolver<Mat> es(A);  // ascending
  vec = es.eigenvectors().col(0);
  return es.eigenvalues()(0);
}

}  // namespace

// Squared projection error of every prefix of `cols` (0-based), per group: a c x m matrix
// (row t = error after the first t + 1 columns), by the factored Gram-Schmidt in Gram space
// (O(c^2 d) per group). `target` (0-based, empty = all columns) restricts the error to those
// columns of X_g.
// [[Rcpp::export(.fp_css_prefix_err2)]]
NumericMatrix fp_css_prefix_err2(const List& grams, const IntegerVector& cols, const IntegerVector& target) {
  std::vector<Mat> G = as_grams(grams);
  const int m = static_cast<int>(G.size()), c = cols.size();
  const int d = m ? static_cast<int>(G[0].rows()) : 0;
  std::vector<char> tg = make_target(target, d);
  NumericMatrix out(c, m);
  for (int g = 0; g < m; ++g) {
    Mat L = Mat::Zero(d, c);
    Vec diag = G[g].diagonal();
    for (int t = 0; t < c; ++t) {
      const int j = cols[t];
      Vec r = G[g].col(j);
      if (t > 0) r.noalias() -= L.leftCols(t) * L.row(j).leftCols(t).transpose();
      const double rjj = r(j);
      if (rjj > kDep * G[g](j, j) && rjj > 0) {
        L.col(t) = r / std::sqrt(rjj);
        diag -= L.col(t).cwiseAbs2();
      }
      double s = 0;
      for (int i = 0; i < d; ++i)
        if (tg[i]) s += std::max(diag(i), 0.0);
      out(t, g) = s;
    }
  }
  return out;
}

// Greedy: k steps of "add the candidate column that minimises the largest ratio
// sqrt(error_g / best2[t, g])" (t = step). grams: list of d x d; best2: k x m matrix of squared
// denominators per step; cand: sorted 0-based candidates; target: rows of the error (empty =
// all). Returns 0-based columns in selection order and the objective after each step.
// [[Rcpp::export(.fp_css_greedy)]]
List fp_css_greedy(const List& grams, const NumericMatrix& best2, const IntegerVector& cand,
                   const IntegerVector& target, int k) {
  std::vector<Mat> G = as_grams(grams);
  const int m = static_cast<int>(G.size()), d = static_cast<int>(G[0].rows());
  std::vector<char> tg = make_target(target, d);
  const bool all = target.size() == 0;
  std::vector<Mat> R = G;
  std::vector<double> err2(m);
  for (int g = 0; g < m; ++g) err2[g] = masked_trace(R[g], tg);
  std::vector<char> used(d, 0);
  IntegerVector sel(k);
  NumericVector obj(k);
  const int nc = cand.size();
  Vec vals(nc);
  for (int t = 0; t < k; ++t) {
    vals.setConstant(R_PosInf);
    std::vector<Vec> cn(m);
    for (int g = 0; g < m; ++g) cn[g] = masked_colnorms(R[g], tg, all);
    for (int a = 0; a < nc; ++a) {
      const int j = cand[a];
      if (used[j]) continue;
      double v = 0;
      for (int g = 0; g < m; ++g) {
        double e = err2[g];
        const double rjj = R[g](j, j);
        if (rjj > kDep * G[g](j, j) && rjj > 0) e -= cn[g](j) / rjj;
        v = std::max(v, std::sqrt(std::max(e, 0.0) / best2(t, g)));
      }
      vals(a) = v;
    }
    const double vmin = vals.minCoeff();
    if (!std::isfinite(vmin)) Rcpp::stop("no candidate column left");
    int pick = -1;
    for (int a = 0; a < nc; ++a) {
      if (vals(a) <= vmin + kTie * std::abs(vmin)) {
        pick = cand[a];
        break;
      }
    }
    used[pick] = 1;
    sel[t] = pick;
    for (int g = 0; g < m; ++g) {
      downdate(R[g], pick, G[g](pick, pick));
      err2[g] = masked_trace(R[g], tg);
    }
    obj[t] = vmin;
    Rcpp::checkUserInterrupt();
  }
  return List::create(Rcpp::Named("columns") = sel, Rcpp::Named("objective") = obj);
}

// Fair low-rank-revealing QR (Algorithm 2) on the candidate columns: at each step the group
// whose residual (trailing block) has the larger top eigenvalue gives its top eigenvector v,
// and the column at the first position of max |v| (current permuted order) is moved forward.
// With one Gram matrix this is Chan & Hansen's L-RRQR. Returns the first k columns (0-based,
// in selection order) and the top eigenvalues seen.
// [[Rcpp::export(.fp_css_lowqr)]]
List fp_css_lowqr(const List& grams, const IntegerVector& cand, int k) {
  std::vector<Mat> G0 = as_grams(grams);
  const int m = static_cast<int>(G0.size()), n = cand.size();
  std::vector<Mat> R(m, Mat(n, n));
  std::vector<Vec> orig(m);
  for (int g = 0; g < m; ++g) {
    for (int b = 0; b < n; ++b)
      for (int a = 0; a < n; ++a) R[g](a, b) = G0[g](cand[a], cand[b]);
    orig[g] = R[g].diagonal();
  }
  std::vector<int> perm(n);
  for (int i = 0; i < n; ++i) perm[i] = i;
  std::vector<Vec> warm(m);
  IntegerVector sel(k);
  IntegerVector who(k);
  NumericVector sig(k);
  for (int i = 0; i < k; ++i) {
    double best = -1;
    int bg = 0;
    Vec v;
    for (int g = 0; g < m; ++g) {
      Vec vg;
      const double lam = top_eigpair(R[g], warm[g], vg);
      warm[g] = vg;
      if (lam > best) {
        best = lam;
        bg = g;
        v = vg;
      }
    }
    double tot = 0;
    for (int g = 0; g < m; ++g) tot = std::max(tot, orig[g].sum());
    int p = i;
    if (best > 1e-14 * tot) {
      double vmax = -1;
      for (int q = i; q < n; ++q) {
        const double a = std::abs(v(perm[q]));
        if (a > vmax) {
          vmax = a;
          p = q;
        }
      }
    }
    std::swap(perm[i], perm[p]);
    const int j = perm[i];
    for (int g = 0; g < m; ++g) downdate(R[g], j, orig[g](j));
    sel[i] = cand[j];
    who[i] = bg + 1;
    sig[i] = std::sqrt(std::max(best, 0.0));
    Rcpp::checkUserInterrupt();
  }
  return List::create(Rcpp::Named("columns") = sel, Rcpp::Named("group") = who,
                      Rcpp::Named("sigma") = sig);
}

// Fair high-rank-revealing QR (Appendix A): for i = n down to `stop` + 1, the group whose
// leading block (first i positions) has the smaller smallest eigenvalue of G_g[P,P] gives the
// bottom eigenvector v, and the column at the first position of max |v| is swapped to position
// i. Returns the whole final ordering (0-based); its first k entries are the selection.
// [[Rcpp::export(.fp_css_highqr)]]
List fp_css_highqr(const List& grams, const IntegerVector& cand, int stop) {
  std::vector<Mat> G0 = as_grams(grams);
  const int m = static_cast<int>(G0.size()), n = cand.size();
  std::vector<Mat> G(m, Mat(n, n));
  for (int g = 0; g < m; ++g)
    for (int b = 0; b < n; ++b)
      for (int a = 0; a < n; ++a) G[g](a, b) = G0[g](cand[a], cand[b]);
  std::vector<int> perm(n);
  for (int i = 0; i < n; ++i) perm[i] = i;
  for (int i = n; i > std::max(stop, 1); --i) {
    double best = R_PosInf;
    Vec v;
    for (int g = 0; g < m; ++g) {
      Mat L(i, i);
      for (int b = 0; b < i; ++b)
        for (int a = 0; a < i; ++a) L(a, b) = G[g](perm[a], perm[b]);
      Vec vg;
      const double lam = bottom_eigpair(L, vg);
      if (lam < best) {
        best = lam;
        v = vg;
      }
    }
    int p = 0;
    double vmax = -1;
    for (int q = 0; q < i; ++q) {
      const double a = std::abs(v(q));
      if (a > vmax) {
        vmax = a;
        p = q;
      }
    }
    std::swap(perm[p], perm[i - 1]);
    Rcpp::checkUserInterrupt();
  }
  IntegerVector out(n);
  for (int i = 0; i < n; ++i) out[i] = cand[perm[i]];
  return List::create(Rcpp::Named("order") = out);
}

namespace {

struct Exhaustive {
  std::vector<Mat> G;
  std::vector<double> best2;
  int m, d, k;
  double best_val;
  std::vector<int> cur, best_set;
  double count, max_count;
  long long tick;

  void leaf(const std::vector<Mat>& R, const std::vector<double>& err2, int from) {
    std::vector<Vec> cn(m);
    for (int g = 0; g < m; ++g) cn[g] = R[g].colwise().squaredNorm().transpose();
    for (int j = from; j < d; ++j) {
      double v = 0;
      for (int g = 0; g < m; ++g) {
        double e = err2[g];
        const double rjj = R[g](j, j);
        if (rjj > kDep * G[g](j, j) && rjj > 0) e -= cn[g](j) / rjj;
        v = std::max(v, std::sqrt(std::max(e, 0.0) / best2[g]));
      }
      count += 1;
      if (best_set.empty() || v < best_val - kTie * std::abs(best_val)) {
        best_val = v;
        best_set = cur;
        best_set.push_back(j);
      }
    }
  }

  void rec(const std::vector<Mat>& R, int from, int depth) {
    std::vector<double> err2(m);
    for (int g = 0; g < m; ++g) err2[g] = std::max(R[g].trace(), 0.0);
    if (depth == k - 1) {
      leaf(R, err2, from);
      if (++tick % 64 == 0) Rcpp::checkUserInterrupt();
      return;
    }
    for (int j = from; j <= d - (k - depth); ++j) {
      std::vector<Mat> R2 = R;
      for (int g = 0; g < m; ++g) downdate(R2[g], j, G[g](j, j));
      cur.push_back(j);
      rec(R2, j + 1, depth + 1);
      cur.pop_back();
      if (count > max_count) return;
    }
  }
};

}  // namespace

// Exhaustive search over all k-subsets for the smallest max_g sqrt(error_g / best2_g).
// Lexicographic enumeration; a later subset replaces the incumbent only when smaller by a
// relative kTie, so the first optimal subset in lexicographic order is returned.
// [[Rcpp::export(.fp_css_exhaustive)]]
List fp_css_exhaustive(const List& grams, const NumericVector& best2, int k) {
  Exhaustive ex;
  ex.G = as_grams(grams);
  ex.m = static_cast<int>(ex.G.size());
  ex.d = static_cast<int>(ex.G[0].rows());
  ex.k = k;
  ex.best2.assign(best2.begin(), best2.end());
  ex.best_val = R_PosInf;
  ex.count = 0;
  ex.max_count = R_PosInf;
  ex.tick = 0;
  ex.rec(ex.G, 0, 0);
  IntegerVector out(ex.best_set.begin(), ex.best_set.end());
  return List::create(Rcpp::Named("columns") = out, Rcpp::Named("objective") = ex.best_val,
                      Rcpp::Named("subsets") = ex.count);
}
