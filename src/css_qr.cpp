// Fair column subset selection (Matakos et al. 2024), the QR methods: the fair low-rank-revealing
// QR (Algorithm 2) and the fair high-rank-revealing QR (Appendix A). Facts and numerical
// conventions in css.h.
#include "css.h"
#include "rcpp_entry.h"

namespace fp {
namespace css {

// Fair low-rank-revealing QR (Algorithm 2) on the candidate columns: at each step the group
// whose residual (trailing block) has the larger top eigenvalue gives its top eigenvector v,
// and the column at the first position of max |v| (current permuted order) is moved forward.
// With one Gram matrix this is Chan & Hansen's L-RRQR. Returns the first k columns (0-based,
// in selection order) and the top eigenvalues seen.
struct LowQR {
  std::vector<int> columns;   // 0-based, in selection order
  std::vector<int> group;     // the group (1-based) whose vector gave each pivot
  std::vector<double> sigma;  // the square roots of the top eigenvalues seen
};

inline LowQR lowqr(const std::vector<MatMap>& G0, const std::vector<MatMap>& Y0, const std::vector<int>& cand, int k) {
  const int m = static_cast<int>(G0.size()), n = static_cast<int>(cand.size());
  if (m == 0 || static_cast<int>(Y0.size()) != m || k > n) throw fp::solver_error("bad arguments");
  std::vector<Resid> R;
  for (int g = 0; g < m; ++g) {
    Mat Gc(n, n), Yc(Y0[g].rows(), n);
    for (int b = 0; b < n; ++b) {
      for (int a = 0; a < n; ++a) Gc(a, b) = G0[g](cand[a], cand[b]);
      Yc.col(b) = Y0[g].col(cand[b]);
    }
    R.push_back(Resid(Gc, Yc));
  }
  double tot = 0;
  for (int g = 0; g < m; ++g) tot = std::max(tot, R[g].orig.sum());
  std::vector<int> perm(n);
  for (int i = 0; i < n; ++i) perm[i] = i;
  std::vector<Vec> warm(m);
  std::vector<double> hi(m, std::numeric_limits<double>::infinity());
  std::vector<int> order(m);
  std::vector<int> sel(k, 0);
  std::vector<int> who(k, 0);
  std::vector<double> sig(k, 0.0);
  for (int i = 0; i < k; ++i) {
    double best = -1;
    int bg = 0;
    Vec v;
    // below the Lanczos size the top pair of each residual is computed on the unselected
    // columns only (in increasing order): the selected rows and columns of R are zero, so the
    // pair is the same, and the dense reduction shrinks with every pivot
    std::vector<int> live;
    if (n < 120) {
      for (int q = i; q < n; ++q) live.push_back(perm[q]);
      std::sort(live.begin(), live.end());
    }
    const int u = static_cast<int>(live.size());
    // the groups most likely to give the largest eigenvalue first (their bounds, descending)
    for (int g = 0; g < m; ++g) order[g] = g;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return hi[a] > hi[b]; });
    std::vector<char> done(m, 0);
    std::vector<double> lams(m, -std::numeric_limits<double>::infinity());
    std::vector<Vec> vgs(m);
    double cmax = -std::numeric_limits<double>::infinity();
    for (int g : order) {
      // a residual only shrinks as columns are taken (a positive semi-definite downdate), so
      // its largest eigenvalue is at most the last one computed: a group whose bound lies
      // below an eigenvalue computed at this step cannot give the vector (dense path only,
      // where no warm start depends on it)
      if (n < 120 && hi[g] < cmax) continue;
      Vec vg;
      double lam;
      if (n < 120) {
        Mat S(u, u);
        for (int b = 0; b < u; ++b)
          for (int a = 0; a < u; ++a) S(a, b) = R[g].R(live[a], live[b]);
        Vec vs;
        lam = top_eigpair(S, Vec(), vs);
        vg = Vec::Zero(n);
        for (int a = 0; a < u; ++a) vg(live[a]) = vs(a);
      } else {
        lam = top_eigpair(R[g].R, warm[g], vg);
      }
      warm[g] = vg;
      done[g] = 1;
      lams[g] = lam;
      vgs[g] = vg;
      cmax = std::max(cmax, lam);
      hi[g] = lam + 1e-8 * std::abs(lam) + 1e-15 * tot;  // far beyond the rounding of the residual
    }
    for (int g = 0; g < m; ++g) {  // in group order, as when every group was computed
      if (done[g] && lams[g] > best) {
        best = lams[g];
        bg = g;
        v = vgs[g];
      }
    }
    int p = i;
    if (best > 1e-14 * tot) p = first_max(v, perm, i, n);
    std::swap(perm[i], perm[p]);
    const int j = perm[i];
    for (int g = 0; g < m; ++g) R[g].add(j);
    sel[i] = cand[j];
    who[i] = bg + 1;
    sig[i] = std::sqrt(std::max(best, 0.0));
    fp::check_interrupt();
  }
  return LowQR{sel, who, sig};
}

// The q smallest eigenpairs of a symmetric matrix (ascending), by LAPACK dsyevr (one tridiagonal
// reduction, then MRRR for the q pairs); Eigen's dense solver if LAPACK fails. Returns the number
// of pairs computed.
int bottom_eigpairs(const Mat& A, int q, Vec& values, Mat& vectors) {
  int n = static_cast<int>(A.rows());
  q = std::min(q, n);
  Mat a = A;
  const char jobz = 'V', range = 'I', uplo = 'L';
  int il = 1, iu = q, m = 0, info = 0, lwork = -1, liwork = -1, iwq = 0;
  double vl = 0, vu = 0, abstol = 2 * DBL_MIN, wq = 0;
  Vec w(n);
  Mat z(n, q);
  std::vector<int> isuppz(2 * std::max(q, 1));
  F77_CALL(dsyevr)(&jobz, &range, &uplo, &n, a.data(), &n, &vl, &vu, &il, &iu, &abstol, &m, w.data(),
                   z.data(), &n, isuppz.data(), &wq, &lwork, &iwq, &liwork, &info FCONE FCONE FCONE);
  if (info == 0) {
    lwork = static_cast<int>(wq);
    liwork = iwq;
    std::vector<double> work(lwork);
    std::vector<int> iwork(liwork);
    F77_CALL(dsyevr)(&jobz, &range, &uplo, &n, a.data(), &n, &vl, &vu, &il, &iu, &abstol, &m, w.data(),
                     z.data(), &n, isuppz.data(), work.data(), &lwork, iwork.data(), &liwork,
                     &info FCONE FCONE FCONE);
    if (info == 0 && m == q) {
      values = w.head(q);
      vectors = z;
      return q;
    }
  }
  Eigen::SelfAdjointEigenSolver<Mat> es(A);  // ascending
  if (es.info() != Eigen::Success) throw fp::solver_error("eigendecomposition failed in high QR");
  values = es.eigenvalues().head(q);
  vectors = es.eigenvectors().leftCols(q);
  return q;
}

// Fair high-rank-revealing QR (Appendix A): for i = n down to `stop` + 1, the group whose
// leading block (first i positions) has the smaller smallest eigenvalue of G_g[P,P] gives the
// bottom eigenvector v, and the column at the first position of max |v| is swapped to position
// i. Returns the whole final ordering (0-based); its first k entries are the selection.
//
// Degenerate blocks: when a group's leading block is numerically singular (eigenvalues of
// G_g[P,P] at most kNull times its largest, i.e. singular values of the block below 1e-4 of the
// largest) its smallest singular vector is any vector of a null space that is often of
// dimension > 1 (one-hot blocks, data given to 5 digits), and "max |v|" depends on the basis
// the eigensolver happens to return: rounding decides it. On the paper's Table 2 the results
// are at or below the published ones for kNull from 3e-9 to 1e-7 (1e-10 sits on an eigenvalue
// of the COMPAS data). Then the pivot is the column with the largest squared norm of its row in
// the null-space bases, summed over the singular groups: the column that lies most in the null
// spaces, which does not depend on the basis (with a one-dimensional null space of one group it
// is max |v|).
//
// Cost: each block is reduced to tridiagonal form once (TriEig); the largest eigenvalue (which
// scales kNull), the dimension of the near-null space and the two smallest eigenvalues come from
// Sturm counts, the smallest vector from inverse iteration and a null-space basis from block
// inverse iteration, so a step costs about one tridiagonal reduction. Where the two smallest
// eigenvalues are within 1e-9 of the largest of each other (and not null) the smallest vector
// is ill-determined and max |v| depends on the algorithm: LAPACK's dsyevr (MRRR) computes it
// there, the solver this method has always used, so the choices do not move.
struct HighQR {
  std::vector<int> order;  // the final ordering (0-based columns)
};

// `progress` (when set) receives the number of each position done, from the last backwards.
inline HighQR highqr(const std::vector<MatMap>& G0, const std::vector<int>& cand, int stop,
                     const fp::Progress& progress = fp::Progress()) {
  const double kNull = 1e-8;
  const int m = static_cast<int>(G0.size()), n = static_cast<int>(cand.size());
  std::vector<Mat> G(m, Mat(n, n));
  for (int g = 0; g < m; ++g)
    for (int b = 0; b < n; ++b)
      for (int a = 0; a < n; ++a) G[g](a, b) = G0[g](cand[a], cand[b]);
  std::vector<int> perm(n);
  for (int i = 0; i < n; ++i) perm[i] = i;
  // Cauchy interlacing: deleting a row and column of a symmetric matrix never lowers its
  // smallest eigenvalue nor raises its largest. So a group's smallest eigenvalue, once computed,
  // bounds it from below at every later step, and a group without a near-null space keeps none
  // (kNull * top only falls). Such a group whose bound lies clearly above the smallest
  // eigenvalue computed for another group at this step can neither give the pivot nor add to
  // the near-null projector: its reduction is skipped (on data with groups of different sizes
  // or spreads, most steps of the larger group). The choices are those of computing every group.
  std::vector<double> lo(m, -std::numeric_limits<double>::infinity()), top_seen(m, std::numeric_limits<double>::infinity());
  std::vector<char> nullfree(m, 0);
  std::vector<int> order(m);
  for (int i = n; i > std::max(stop, 1); --i) {
    if (progress) progress(n - i + 1);
    double best = std::numeric_limits<double>::infinity();
    Vec v, w = Vec::Zero(i);
    bool singular = false;
    // the groups most likely to give the smallest eigenvalue first (their bounds, ascending)
    for (int g = 0; g < m; ++g) order[g] = g;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return lo[a] < lo[b]; });
    std::vector<char> done(m, 0);
    std::vector<double> lams(m, std::numeric_limits<double>::infinity());
    std::vector<int> nnulls(m, 0);
    std::vector<Mat> Us(m);
    double cmin = std::numeric_limits<double>::infinity();  // smallest eigenvalue computed so far at this step
    for (int g : order) {
      if (nullfree[g] && std::isfinite(cmin) && lo[g] > cmin + 1e-10 * top_seen[g]) continue;
      Mat L(i, i);
      for (int b = 0; b < i; ++b)
        for (int a = 0; a < i; ++a) L(a, b) = G[g](perm[a], perm[b]);
      // the tridiagonal reduction; the largest eigenvalue, the near-null space's dimension and
      // the two smallest eigenvalues by Sturm counts; the smallest vector by inverse
      // iteration, or every vector of the near-null space when it has dimension 2 or more
      TriEig te(L);
      if (!te.ok()) throw fp::solver_error("eigendecomposition failed in high QR");
      const double top = std::max(te.value(i - 1, 1e-6), 0.0);  // it only scales kNull
      const int nnull = te.count_below(std::nextafter(kNull * top, std::numeric_limits<double>::infinity()));  // ev <= kNull * top
      Mat U;
      double lam = te.value(0);
      const double lam2 = i > 1 ? te.value(1, 1e-12) : std::numeric_limits<double>::infinity();  // for the gap test only
      if (nnull >= 2) {
        U = te.lowest_basis(nnull);  // only its projector's diagonal is used: basis-free
      } else if (nnull == 0 && i > 1 && lam2 - lam <= 1e-9 * top) {
        // two close smallest eigenvalues: the vector is ill-determined and max |v| depends on
        // the algorithm; LAPACK's MRRR keeps the choice the method has always made
        Vec ev4;
        bottom_eigpairs(L, std::min(i, 4), ev4, U);
        lam = ev4(0);  // compared between groups in the same arithmetic as before
      } else {
        U = te.vector_of(lam);
      }
      done[g] = 1;
      lams[g] = lam;
      nnulls[g] = nnull;
      Us[g] = U;
      cmin = std::min(cmin, lam);
      // bounds for the later steps (the top estimate is to 1e-6 of itself: padded)
      lo[g] = lam - 1e-12 * top;  // far beyond the rounding of the computed eigenvalues
      top_seen[g] = top * (1 + 1e-5) + DBL_MIN;
      nullfree[g] = nnull == 0 && lo[g] > kNull * top_seen[g];
    }
    for (int g = 0; g < m; ++g) {  // in group order, as when every group was computed
      if (!done[g]) continue;
      if (lams[g] < best) {
        best = lams[g];
        v = Us[g].col(0);
      }
      if (nnulls[g] > 0) {
        singular = true;
        for (int q = 0; q < nnulls[g]; ++q) w += Us[g].col(q).cwiseAbs2();
      }
    }
    std::vector<int> ident(i);
    for (int q = 0; q < i; ++q) ident[q] = q;
    const int p = first_max(singular ? w : v, ident, 0, i);
    std::swap(perm[p], perm[i - 1]);
    fp::check_interrupt();
  }
  std::vector<int> out(n);
  for (int i = 0; i < n; ++i) out[i] = cand[perm[i]];
  return HighQR{out};
}

}  // namespace css
}  // namespace fp

// Fair low-rank-revealing QR on the candidate columns (0-based); see fp::css::lowqr().
// [[Rcpp::export(.fp_css_lowqr)]]
Rcpp::List fp_css_lowqr(const Rcpp::List& grams, const Rcpp::List& factors, const Rcpp::IntegerVector& cand, int k) {
  std::vector<Rcpp::NumericMatrix> keep;
  const std::vector<fp::MatMap> G = fp::rcpp::as_maps(grams, keep), Y = fp::rcpp::as_maps(factors, keep);
  const std::vector<int> cd = Rcpp::as<std::vector<int>>(cand);
  const fp::css::LowQR r = fp::rcpp::run([&] { return fp::css::lowqr(G, Y, cd, k); });
  return Rcpp::List::create(Rcpp::Named("columns") = r.columns, Rcpp::Named("group") = r.group,
                            Rcpp::Named("sigma") = r.sigma);
}

// Fair high-rank-revealing QR on the candidate columns (0-based); see fp::css::highqr().
// [[Rcpp::export(.fp_css_highqr)]]
Rcpp::List fp_css_highqr(const Rcpp::List& grams, const Rcpp::IntegerVector& cand, int stop,
                         Rcpp::Nullable<Rcpp::Function> progress = R_NilValue) {
  std::vector<Rcpp::NumericMatrix> keep;
  const std::vector<fp::MatMap> G = fp::rcpp::as_maps(grams, keep);
  const std::vector<int> cd = Rcpp::as<std::vector<int>>(cand);
  const fp::Progress pr = fp::rcpp::progress(progress);
  const fp::css::HighQR r = fp::rcpp::run([&] { return fp::css::highqr(G, cd, stop, pr); });
  return Rcpp::List::create(Rcpp::Named("order") = r.order);
}
