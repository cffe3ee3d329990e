// One pass over the rows: per-group counts, means and centred cross-products (scatter).
//
// Accuracy: the scatter of each group is accumulated about that group's mean (computed first in
// a cheap O(n d) sweep, then corrected with the residual sums of the second sweep), so columns
// with a large offset relative to their spread lose no digits. Uncentred cross-products follow exactly as  S_g = M2_g + n_g mu_g mu_g'.
//
// Validation: the first sweep also counts NA/NaN and infinite entries, so R needs no n x d
// logical temporaries to check the data (the caller turns non-zero counts into an error).
//
// Speed: rows are gathered, strip by strip, into one buffer per group (centred; never a copy of
// the data), and each full buffer is added to its group's scatter in one product of B rows,
// where B is sized so that a buffer holds about 256 KB (thousands of rows when d is small: few,
// large products instead of many small BLAS calls): a symmetric rank-B update, R's BLAS dsyrk
// when the backend is "blas", Eigen's kernel otherwise. The first sweep reads the data once for
// the plain means; the second both centres about them and sums the residuals, from which the
// exact centring follows (no third read). Long passes take the one-pass route instead (see
// fp_moments_cpp): centred about a shift near each group's mean, the data are read once; this
// route can run on several threads (moments_onepass.h).
#include "linalg.h"
#include "runtime.h"
#include "rcpp_entry.h"
#include "moments_onepass.h"

namespace fp {

namespace moments {

// The moments of one pass: counts, means (with their low parts), scatter matrices; or, when the
// data hold NA/NaN or infinite entries, only their counts (`bad`).
struct Moments {
  bool bad = false;
  double n_na = 0, n_inf = 0;
  std::vector<double> cnt;
  fp::Mat mean, mean_lo;
  std::vector<fp::Mat> scatter;
  bool sparse = false, onepass = false;
};

inline void block_update(fp::Mat& S, const fp::Mat& buf, int rows) {
  if (rows <= 0) return;
  if (fp::backend_flag() == 1) {
    fp::blas_syrk_lower(static_cast<int>(S.rows()), rows, buf.data(), static_cast<int>(buf.rows()),
                        S.data());
  } else {
    S.selfadjointView<Eigen::Lower>().rankUpdate(buf.topRows(rows).transpose());
  }
}

// The scatter about the plain means `mean` (d x m) of the columns `cols` (all of them on the
// dense route, the dense ones on the sparse route), per group (|cols| x |cols|, full), and the
// sums of those residuals (|cols| x m). Rows are gathered, strip by strip, into one buffer per
// group, centred, and each full buffer is added to its group's scatter in one rank-B update.
inline void dense_part(const double* X, int n, const std::vector<int>& cols, const int* G, int m,
                const std::vector<double>& cnt, const fp::Mat& mean, int block, std::vector<fp::Mat>& S,
                fp::Mat& resid) {
  const int dc = static_cast<int>(cols.size()), d = static_cast<int>(mean.rows());
  S.assign(m, fp::Mat::Zero(dc, dc));
  resid = fp::Mat::Zero(dc, m);
  if (dc == 0) return;
  int B = block;
  if (B <= 0) B = std::min(8192, std::max(256, 32768 / dc));
  B = std::max(16, B);
  const int L = std::max(1, std::min(256, B / 4));  // rows per strip; a buffer is flushed when > B - L full
  std::vector<fp::Mat> buf(m);
  std::vector<double*> bp(m);
  std::vector<size_t> ld(m);
  for (int c = 0; c < m; ++c) {
    buf[c].resize(std::min(B, std::max(1, static_cast<int>(cnt[c]))), dc);
    bp[c] = buf[c].data();
    ld[c] = static_cast<size_t>(buf[c].rows());
  }
  std::vector<int> fill(m, 0);
  std::vector<size_t> slot(L);
  std::vector<int> gs(L);
  auto flush = [&](int c) {
    if (fill[c] <= 0) return;
    resid.col(c) += buf[c].topRows(fill[c]).colwise().sum().transpose();
    block_update(S[c], buf[c], fill[c]);
    fill[c] = 0;
  };
  for (int r0 = 0; r0 < n; r0 += L) {
    const int r1 = std::min(n, r0 + L);
    for (int c = 0; c < m; ++c)
      if (fill[c] > static_cast<int>(ld[c]) - L) flush(c);
    for (int i = r0; i < r1; ++i) {
      gs[i - r0] = G[i];
      slot[i - r0] = static_cast<size_t>(fill[G[i]]++);
    }
    for (int jj = 0; jj < dc; ++jj) {
      const int j = cols[jj];
      const double* col = X + static_cast<size_t>(j) * n + r0;
      const double* mj = mean.data() + j;
      for (int i = 0; i < r1 - r0; ++i) {
        const int c = gs[i];
        bp[c][static_cast<size_t>(jj) * ld[c] + slot[i]] = col[i] - mj[static_cast<size_t>(c) * d];
      }
    }
    if ((r0 / L) % 256 == 255) fp::check_interrupt();
  }
  for (int c = 0; c < m; ++c) {
    flush(c);
    S[c].triangularView<Eigen::StrictlyUpper>() = S[c].transpose();
  }
}

// Group c's mean refined by r / n (r the sum of its rows' residuals from the plain mean), kept as
// hi + lo (Fast2Sum: |plain mean| >= |r / n|), so that merges of pieces with a large offset see
// the difference of their means to full precision.
inline void refine_mean(fp::Mat& mean, fp::Mat& mean_lo, const fp::Vec& r, double cnt, int c) {
  for (int j = 0; j < mean.rows(); ++j) {
    const double a = mean(j, c), b = r[j] / cnt, hi = a + b;
    mean(j, c) = hi;
    mean_lo(j, c) = b - (hi - a);
  }
}

// The same from a shift that need not dominate r / n (the one-pass route's shift is close to the
// mean, but a mean near zero can be smaller than the correction): TwoSum's exact error term.
inline void refine_shift(fp::Mat& mean, fp::Mat& mean_lo, const fp::Vec& r, double cnt, int c) {
  for (int j = 0; j < mean.rows(); ++j) {
    const double a = mean(j, c), b = r[j] / cnt, hi = a + b, bb = hi - a;
    mean(j, c) = hi;
    mean_lo(j, c) = (a - (hi - bb)) + (b - bb);
  }
}

// The route for data whose columns are mostly zero (one-hot codes of factors, counts): the
// columns P with at most half their entries non-zero are not centred (shift 0), the others D
// about their plain group means, so that a row costs its q non-zeros in P squared (plus q |D|)
// instead of d^2. With C = sum (x - s)(x - s)' and u = sum (x - s) over a group's rows, its
// scatter about its exact mean is C - u u' / n. The shift 0 loses at most one bit to that
// correction: a column with a fraction p <= 1/2 of non-zeros has (sum x)^2 / n <= p sum x^2
// (Cauchy-Schwarz over its non-zeros), so its variance keeps at least half its sum of squares,
// and every correlation is exact to a few units of rounding.
inline Moments sparse_scatter(const double* X, int n, int d, const int* G, int m, const std::vector<double>& cnt,
                              fp::Mat& mean, const std::vector<int>& dcols, const std::vector<int>& pcols, int block) {
  const int nd = static_cast<int>(dcols.size()), np = static_cast<int>(pcols.size());
  std::vector<fp::Mat> SD;
  fp::Mat residD;
  dense_part(X, n, dcols, G, m, cnt, mean, block, SD, residD);
  // compensated (Kahan) sums: a group's entries can be thousands of equal products, whose plain
  // sum drifts by the number of terms times the rounding (the dense route sums in short blocks)
  std::vector<fp::Mat> SPP(m, fp::Mat::Zero(np, np)), SPD(m, fp::Mat::Zero(np, nd));
  std::vector<fp::Mat> KPP(m, fp::Mat::Zero(np, np)), KPD(m, fp::Mat::Zero(np, nd));
  fp::Mat uP = fp::Mat::Zero(np, m), kuP = fp::Mat::Zero(np, m);
  auto kahan = [](double& sum, double& comp, double v) {
    const double y = v - comp, t = sum + y;
    comp = (t - sum) - y;
    sum = t;
  };
  const int L = 256;
  std::vector<int> rc(L), ridx(static_cast<size_t>(L) * np);
  std::vector<double> rval(static_cast<size_t>(L) * np), e(nd);
  for (int r0 = 0; r0 < n; r0 += L) {
    const int r1 = std::min(n, r0 + L), len = r1 - r0;
    std::fill(rc.begin(), rc.begin() + len, 0);
    for (int a = 0; a < np; ++a) {  // the strip's non-zeros, row by row, in column order
      const double* col = X + static_cast<size_t>(pcols[a]) * n;
      for (int i = r0; i < r1; ++i) {
        const double v = col[i];
        if (v != 0) {
          const size_t t = static_cast<size_t>(i - r0) * np + rc[i - r0]++;
          ridx[t] = a;
          rval[t] = v;
        }
      }
    }
    for (int t = 0; t < len; ++t) {
      const int q = rc[t];
      if (q == 0) continue;
      const int i = r0 + t, c = G[i];
      const int* ia = ridx.data() + static_cast<size_t>(t) * np;
      const double* va = rval.data() + static_cast<size_t>(t) * np;
      double* pp = SPP[c].data();
      double* kp = KPP[c].data();
      for (int b = 0; b < q; ++b) {  // lower triangle: ia is increasing
        const size_t off = static_cast<size_t>(ia[b]) * np;
        const double vb = va[b];
        for (int a = b; a < q; ++a) kahan(pp[off + ia[a]], kp[off + ia[a]], va[a] * vb);
        kahan(uP(ia[b], c), kuP(ia[b], c), vb);
      }
      if (nd > 0) {
        for (int k = 0; k < nd; ++k) e[k] = X[static_cast<size_t>(dcols[k]) * n + i] - mean(dcols[k], c);
        double* pd = SPD[c].data();
        double* kd = KPD[c].data();
        for (int k = 0; k < nd; ++k) {
          const size_t off = static_cast<size_t>(k) * np;
          const double ek = e[k];
          for (int a = 0; a < q; ++a) kahan(pd[off + ia[a]], kd[off + ia[a]], va[a] * ek);
        }
      }
    }
    if ((r0 / L) % 256 == 255) fp::check_interrupt();
  }
  std::vector<fp::Mat> scatter(m);
  fp::Mat mean_lo = fp::Mat::Zero(d, m);
  for (int c = 0; c < m; ++c) {
    fp::Mat C(d, d);
    fp::Vec u(d), r(d);
    for (int k = 0; k < nd; ++k) {
      for (int l = 0; l < nd; ++l) C(dcols[k], dcols[l]) = SD[c](k, l);
      u[dcols[k]] = residD(k, c);
      r[dcols[k]] = residD(k, c);
    }
    for (int a = 0; a < np; ++a) {
      // Kahan's compensation holds minus the low part: the sum is sum - comp
      for (int b = 0; b <= a; ++b) C(pcols[a], pcols[b]) = C(pcols[b], pcols[a]) = SPP[c](a, b) - KPP[c](a, b);
      for (int k = 0; k < nd; ++k) C(pcols[a], dcols[k]) = C(dcols[k], pcols[a]) = SPD[c](a, k) - KPD[c](a, k);
      u[pcols[a]] = uP(a, c) - kuP(a, c);
      // the sum of x - plain mean, with the product n * mean exact (fma), so that the mean is
      // refined as the dense route refines it
      const double pr = cnt[c] * mean(pcols[a], c), pe = std::fma(cnt[c], mean(pcols[a], c), -pr);
      r[pcols[a]] = ((uP(a, c) - pr) - pe) - kuP(a, c);
    }
    if (cnt[c] > 0) {
      C.noalias() -= (u * u.transpose()) / cnt[c];
      refine_mean(mean, mean_lo, r, cnt[c], c);
    }
    scatter[c] = C;
  }
  Moments out;
  out.cnt = cnt;
  out.mean = mean;
  out.mean_lo = mean_lo;
  out.scatter = scatter;
  out.sparse = true;
  return out;
}

// The moments of the dense routes for R: each group's scatter about its mean from its scatter S
// about the centre the pass used and the sums r of its residuals from that centre (S -= r r' / n),
// the mean refined by `refine` (refine_mean() or refine_shift()); `onepass` marks the one-pass
// route's result.
inline Moments centred_moments(std::vector<fp::Mat>& S, const fp::Mat& resid, const std::vector<double>& cnt,
                               fp::Mat& mean, double n_na, double n_inf,
                               void (*refine)(fp::Mat&, fp::Mat&, const fp::Vec&, double, int), bool onepass) {
  const int m = static_cast<int>(S.size());
  fp::Mat mean_lo = fp::Mat::Zero(mean.rows(), m);
  for (int c = 0; c < m; ++c) {
    if (cnt[c] > 0) {
      const fp::Vec r = resid.col(c);
      S[c].noalias() -= (r * r.transpose()) / cnt[c];
      refine(mean, mean_lo, r, cnt[c], c);
    }
  }
  Moments out;
  out.cnt = cnt;
  out.mean = mean;
  out.mean_lo = mean_lo;
  out.scatter = S;
  out.n_na = n_na;
  out.n_inf = n_inf;
  out.onepass = onepass;
  return out;
}

// Only the counts of NA/NaN and infinite entries (the caller turns them into an error).
inline Moments bad_entries(double n_na, double n_inf) {
  Moments out;
  out.bad = true;
  out.n_na = n_na;
  out.n_inf = n_inf;
  return out;
}

// The counts of NA/NaN and infinite entries among the n x d entries of X.
inline void count_bad(const double* X, size_t len, double& n_na, double& n_inf) {
  for (size_t t = 0; t < len; ++t) {
    if (std::isnan(X[t])) n_na += 1;
    else if (!std::isfinite(X[t])) n_inf += 1;
  }
}

// Whether the one-pass route is taken: asked for, or automatic on a long pass; where the sparse
// route could be chosen, columns with many zeros among the first rows send the data to the
// two-pass route, which counts the non-zeros of every group.
inline bool take_onepass(const double* X, int n, int d, int sparse, int onepass, bool big, bool may_sparse) {
  bool one = sparse != 1 && (onepass == 1 || (onepass < 0 && big));
  if (one && may_sparse) {
    const int P = std::min(n, 4096);
    for (int j = 0; j < d && one; ++j) {
      const double* col = X + static_cast<size_t>(j) * n;
      int z = 0;
      for (int i = 0; i < P; ++i) z += (col[i] == 0);
      if (4 * z >= P) one = false;
    }
  }
  return one;
}

// The one-pass route. Returns false (and leaves `out` alone) when a column turns out to be
// mostly zero, so that the two-pass route must run after all.
inline bool onepass_route(const double* X, int n, int d, const int* G, int m, const std::vector<double>& cnt,
                          int block, int threads, bool may_sparse, Moments& out) {
  fp::Mat mean = first_rows_mean(X, n, d, G, m, 64);
  snap_to_first(X, n, d, G, m, cnt, mean);
  std::vector<fp::Mat> S;
  fp::Mat resid;
  std::vector<double> zeros;
  double n_na = 0, n_inf = 0;
  onepass_part(X, n, d, G, m, cnt, mean, block, threads, S, resid, may_sparse ? &zeros : nullptr);
  bool finite = resid.allFinite();
  for (int c = 0; c < m && finite; ++c) finite = S[c].diagonal().allFinite();
  if (!finite) {
    count_bad(X, static_cast<size_t>(n) * d, n_na, n_inf);
    if (n_na > 0 || n_inf > 0) {
      out = bad_entries(n_na, n_inf);
      return true;
    }
  }
  bool dense = true;  // every column more than half non-zero: no group can take the sparse route
  if (may_sparse)
    for (int j = 0; j < d && dense; ++j) dense = 2.0 * (n - zeros[j]) > n;
  if (!dense) return false;
  out = centred_moments(S, resid, cnt, mean, n_na, n_inf, refine_shift, true);
  return true;
}

// Pass 1 of the two-pass route: plain group sums (four interleaved accumulators per group break
// the dependency chain of the scattered additions) into `mean`, the non-zero entries per column
// and group, and the NA/Inf check.
inline void plain_sums(const double* X, int n, int d, const int* G, int m, fp::Mat& mean, std::vector<int>& nzc,
                       double& n_na, double& n_inf) {
  std::vector<double> acc(4 * static_cast<size_t>(m));
  for (int j = 0; j < d; ++j) {
    const double* col = X + static_cast<size_t>(j) * n;
    std::fill(acc.begin(), acc.end(), 0.0);
    double* a = acc.data();
    int* nz = nzc.data() + static_cast<size_t>(j) * m;
    bool bad = false;
    int i = 0;
    for (; i + 3 < n; i += 4) {
      const double v0 = col[i], v1 = col[i + 1], v2 = col[i + 2], v3 = col[i + 3];
      bad |= !(std::isfinite(v0) && std::isfinite(v1) && std::isfinite(v2) && std::isfinite(v3));
      nz[G[i]] += (v0 != 0);
      nz[G[i + 1]] += (v1 != 0);
      nz[G[i + 2]] += (v2 != 0);
      nz[G[i + 3]] += (v3 != 0);
      a[4 * G[i]] += v0;
      a[4 * G[i + 1] + 1] += v1;
      a[4 * G[i + 2] + 2] += v2;
      a[4 * G[i + 3] + 3] += v3;
    }
    for (; i < n; ++i) {
      bad |= !std::isfinite(col[i]);
      nz[G[i]] += (col[i] != 0);
      a[4 * G[i]] += col[i];
    }
    if (bad) count_bad(col, static_cast<size_t>(n), n_na, n_inf);
    for (int c = 0; c < m; ++c) mean(j, c) = (a[4 * c] + a[4 * c + 1]) + (a[4 * c + 2] + a[4 * c + 3]);
  }
}

// Whether the sparse route is taken, with its sparse columns `pcols` (at most half of every
// group's entries non-zero: the bound of sparse_scatter()) and dense ones `dcols`.
inline bool take_sparse(int n, int d, int m, const std::vector<int>& nzc, const std::vector<double>& cnt, int sparse,
                        bool big, std::vector<int>& dcols, std::vector<int>& pcols) {
  double nnz_p = 0;
  for (int j = 0; j < d; ++j) {
    bool sp = true;
    double nzj = 0;
    for (int c = 0; c < m; ++c) {
      const int z = nzc[static_cast<size_t>(j) * m + c];
      sp = sp && 2.0 * z <= cnt[c];
      nzj += z;
    }
    if (sp) {
      pcols.push_back(j);
      nnz_p += nzj;
    } else {
      dcols.push_back(j);
    }
  }
  // work per row: the dense route about d^2 / 2 fused products in a rank-B update; the sparse
  // one q^2 / 2 + q |D| scattered ones (q non-zeros of the sparse columns in a row, each about
  // 6 times the cost) plus |D|^2 / 2 for the dense columns
  const double q = n > 0 ? nnz_p / n : 0, nd = static_cast<double>(dcols.size());
  const bool cheaper = 6.0 * (0.5 * q * q + q * nd) + 0.5 * nd * nd + 0.1 * d < 0.5 * static_cast<double>(d) * d;
  // automatic only where the pass is long enough (n d^2 / 2 above 5e7 products, some 10 ms)
  // for the route to matter: on smaller data the dense route's rounding is kept, which the
  // choices of methods that rounding decides (high QR on one-hot ties) have always seen
  return !pcols.empty() && (sparse == 1 || (sparse < 0 && d >= 16 && big && cheaper));
}

// The moments of X (n x d, column-major, not copied) by group G (0-based codes < m); see
// fp_moments_cpp() below for the arguments and routes.
inline Moments moments(const double* X, int n, int d, const int* G, int m, int block, int sparse, int onepass,
                       int threads) {
  std::vector<double> cnt(m, 0.0);
  double n_na = 0, n_inf = 0;
  for (int i = 0; i < n; ++i) cnt[G[i]] += 1.0;
  const bool big = 0.5 * static_cast<double>(n) * d * d >= 5e7;
  const bool may_sparse = sparse < 0 && d >= 16 && big;
  if (take_onepass(X, n, d, sparse, onepass, big, may_sparse)) {
    Moments out;
    if (onepass_route(X, n, d, G, m, cnt, block, threads, may_sparse, out)) return out;
  }
  fp::Mat mean = fp::Mat::Zero(d, m);
  std::vector<int> nzc(static_cast<size_t>(d) * m, 0);  // non-zero entries per column and group
  plain_sums(X, n, d, G, m, mean, nzc, n_na, n_inf);
  if (n_na > 0 || n_inf > 0) return bad_entries(n_na, n_inf);
  for (int c = 0; c < m; ++c)
    if (cnt[c] > 0) mean.col(c) /= cnt[c];
  snap_to_first(X, n, d, G, m, cnt, mean);
  std::vector<int> dcols, pcols;
  if (take_sparse(n, d, m, nzc, cnt, sparse, big, dcols, pcols))
    return sparse_scatter(X, n, d, G, m, cnt, mean, dcols, pcols, block);
  // pass 2: scatter about the plain means, plus the sums of the residuals r (so that the exact
  // centring follows: mean += r / n, scatter -= r r' / n; r is tiny, this is the classical
  // corrected two-pass algorithm without a third read of the data)
  std::vector<int> all(d);
  for (int j = 0; j < d; ++j) all[j] = j;
  std::vector<fp::Mat> S;
  fp::Mat resid;
  dense_part(X, n, all, G, m, cnt, mean, block, S, resid);
  return centred_moments(S, resid, cnt, mean, n_na, n_inf, refine_mean, false);
}

}  // namespace moments
}  // namespace fp

// x: n x d double matrix (not copied); g: 0-based group codes; m: number of groups; block: rows
// per buffer (0 = automatic); sparse: the route for columns that are mostly zero (see
// sparse_scatter() above): -1 chosen by the count of non-zeros, 0 never, 1 whenever a column is;
// onepass: the one-pass route (see below): -1 where the pass is long, 0 never, 1 whenever the
// data allow it; threads: the threads of the one-pass route (see moments_onepass.h; 1 = the
// serial loop).
//
// The one-pass route reads the data once: each group's rows are centred about a shift (the mean
// of the group's first 64 rows) as they are gathered, and the scatter about the exact mean
// follows from the residual sums as on the two-pass route, which first sweeps the data for the
// plain means (and the counts of non-zeros that choose the sparse route, and the NA/Inf check).
// Here the NA/Inf check follows from the sums (a non-finite entry makes its column's sums
// non-finite; only then is the data scanned to count them), and the sparse route is left out
// where no column can take it: where the first rows show few zeros, and the pass counts more than
// half of every column non-zero (otherwise the two-pass route runs after all and chooses as
// always). Results agree with the two-pass route's to rounding; the two-pass route is kept for
// short passes (n d^2 / 2 below 5e7 products), whose rounding the results recorded from small
// data (and the choices that hinge on it, such as ties in column selection) have always seen.
// [[Rcpp::export(.fp_moments_cpp)]]
Rcpp::List fp_moments_cpp(const Rcpp::NumericMatrix& x, const Rcpp::IntegerVector& g, int m, int block, int sparse,
                          int onepass, int threads = 1) {
  const fp::moments::Moments r = fp::rcpp::run([&] {
    return fp::moments::moments(x.begin(), x.nrow(), x.ncol(), g.begin(), m, block, sparse, onepass, threads);
  });
  if (r.bad) return Rcpp::List::create(Rcpp::Named("n_na") = r.n_na, Rcpp::Named("n_inf") = r.n_inf);
  Rcpp::List scatter(r.scatter.size());
  for (size_t c = 0; c < r.scatter.size(); ++c) scatter[c] = Rcpp::wrap(r.scatter[c]);
  Rcpp::List out = Rcpp::List::create(Rcpp::Named("n") = Rcpp::wrap(r.cnt), Rcpp::Named("mean") = Rcpp::wrap(r.mean),
                                      Rcpp::Named("mean_lo") = Rcpp::wrap(r.mean_lo), Rcpp::Named("scatter") = scatter,
                                      Rcpp::Named("n_na") = r.n_na, Rcpp::Named("n_inf") = r.n_inf);
  if (r.sparse) out.push_back(true, "sparse");
  if (r.onepass) out.push_back(true, "onepass");
  return out;
}
