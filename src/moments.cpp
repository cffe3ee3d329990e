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
// fp_moments_cpp): centred about a shift near each group's mean, the data are read once.
#include <atomic>
#include "linalg.h"
#include "threads.h"

using Rcpp::IntegerVector;
using Rcpp::List;
using Rcpp::NumericMatrix;

namespace fp {
void blas_syrk_lower_rows(int d, int rows, const double* A, int lda, double* C);  // blas.cpp
void blas_gemm(int n, int d, int k, const double* A, const double* B, double* C);  // blas.cpp
}

namespace {

void block_update(fp::Mat& S, const fp::Mat& buf, int rows) {
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
void dense_part(const double* X, int n, const std::vector<int>& cols, const int* G, int m,
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
    if ((r0 / L) % 256 == 255) Rcpp::checkUserInterrupt();
  }
  for (int c = 0; c < m; ++c) {
    flush(c);
    S[c].triangularView<Eigen::StrictlyUpper>() = S[c].transpose();
  }
}

// Group c's mean refined by r / n (r the sum of its rows' residuals from the plain mean), kept as
// hi + lo (Fast2Sum: |plain mean| >= |r / n|), so that merges of pieces with a large offset see
// the difference of their means to full precision.
void refine_mean(fp::Mat& mean, fp::Mat& mean_lo, const fp::Vec& r, double cnt, int c) {
  for (int j = 0; j < mean.rows(); ++j) {
    const double a = mean(j, c), b = r[j] / cnt, hi = a + b;
    mean(j, c) = hi;
    mean_lo(j, c) = b - (hi - a);
  }
}

// The same from a shift that need not dominate r / n (the one-pass route's shift is close to the
// mean, but a mean near zero can be smaller than the correction): TwoSum's exact error term.
void refine_shift(fp::Mat& mean, fp::Mat& mean_lo, const fp::Vec& r, double cnt, int c) {
  for (int j = 0; j < mean.rows(); ++j) {
    const double a = mean(j, c), b = r[j] / cnt, hi = a + b, bb = hi - a;
    mean(j, c) = hi;
    mean_lo(j, c) = (a - (hi - bb)) + (b - bb);
  }
}

// The one-pass route's kernel on the rows [r_begin, r_end): the scatter of each group about its
// shift `shift` (d x m, lower triangles of S) and the sums of the residuals (d x m), and with
// `zeros`, per column the entries that were zero. Each group's rows are gathered into a buffer
// of cap[c] rows, one row per column of the buffer (its d entries contiguous: the gather reads a
// strip of L rows tile by tile of columns, so that it stays in the first-level cache also at
// large d), centred as they are written, and each full buffer is added to its group's scatter in
// one rank-B update (A A', A the d x B buffer). Nothing is allocated here (a thread of the
// parallel route runs it); `stop()` is polled now and then and ends the loop when it says so.
template <class Stop>
void onepass_rows(const double* X, int n, int d, const int* G, int m, int r_begin, int r_end,
                  const fp::Mat& shift, int L, const std::vector<int>& cap, std::vector<fp::Mat>& buf,
                  std::vector<int>& fill, std::vector<double*>& dst, std::vector<const double*>& sh,
                  std::vector<fp::Mat>& S, fp::Mat& resid, double* zeros, Stop stop) {
  const int JT = 64;  // columns per tile of the gather
  auto flush = [&](int c) {
    const int k = fill[c];
    if (k <= 0) return;
    const double* b = buf[c].data();
    double* r = resid.col(c).data();
    if (zeros) {
      // x - s == -s where x was zero (a non-zero x below half a unit of s counts too, which
      // only errs towards the caller's exact check)
      const double* s = shift.col(c).data();
      for (int t = 0; t < k; ++t, b += d)
        for (int j = 0; j < d; ++j) {
          r[j] += b[j];
          zeros[j] += (b[j] == -s[j]);
        }
    } else {
      for (int t = 0; t < k; ++t, b += d)
        for (int j = 0; j < d; ++j) r[j] += b[j];
    }
    if (fp::backend_flag() == 1) {
      fp::blas_syrk_lower_rows(d, k, buf[c].data(), d, S[c].data());
    } else {
      S[c].selfadjointView<Eigen::Lower>().rankUpdate(buf[c].leftCols(k));
    }
    fill[c] = 0;
  };
  for (int r0 = r_begin; r0 < r_end; r0 += L) {
    const int r1 = std::min(r_end, r0 + L), len = r1 - r0;
    for (int c = 0; c < m; ++c)
      if (fill[c] > cap[c] - L) flush(c);
    for (int i = 0; i < len; ++i) {
      const int c = G[r0 + i];
      dst[i] = buf[c].data() + static_cast<size_t>(fill[c]++) * d;
      sh[i] = shift.col(c).data();
    }
    for (int j0 = 0; j0 < d; j0 += JT) {
      const int j1 = std::min(d, j0 + JT);
      for (int i = 0; i < len; ++i) {
        double* o = dst[i];
        const double* s = sh[i];
        const double* xi = X + r0 + i;
        for (int j = j0; j < j1; ++j) o[j] = xi[static_cast<size_t>(j) * n] - s[j];
      }
    }
    if (((r0 - r_begin) / L) % 1024 == 1023 && stop()) return;
  }
  for (int c = 0; c < m; ++c) flush(c);
}

// The one-pass route over all rows (see onepass_rows()), on `threads` threads: thread t takes
// the t-th of `threads` contiguous ranges of rows with buffers and d x d accumulators of its
// own, and the pieces are added in thread order after the parallel region, so that a given
// number of threads gives the same result every time (one thread: the serial loop itself, the
// same operations in the same order as ever). Inside the region the BLAS runs one thread per
// caller (BlasSingleThread) and Eigen is not asked for threads of its own.
void onepass_part(const double* X, int n, int d, const int* G, int m, const std::vector<double>& cnt,
                  const fp::Mat& shift, int block, int threads, std::vector<fp::Mat>& S, fp::Mat& resid,
                  std::vector<double>* zeros) {
  S.assign(m, fp::Mat::Zero(d, d));
  resid = fp::Mat::Zero(d, m);
  if (zeros) zeros->assign(d, 0.0);
  if (d == 0) return;
  int B = block;
  if (B <= 0) B = std::min(8192, std::max(256, 32768 / d));
  B = std::max(16, B);
  const int L = std::max(1, std::min(64, B / 4));  // rows per strip; a buffer is flushed when > B - L full
  std::vector<int> cap(m);
  for (int c = 0; c < m; ++c) cap[c] = std::min(B, std::max(1, static_cast<int>(cnt[c])));
  // a thread needs some strips of rows to be worth starting
  const int T = std::max(1, std::min(threads, n / (16 * L)));
  struct Part {
    std::vector<fp::Mat> buf, S;
    fp::Mat resid;
    std::vector<double> zeros;
    std::vector<int> fill;
    std::vector<double*> dst;
    std::vector<const double*> sh;
  };
  std::vector<Part> part(T);
  for (int t = 0; t < T; ++t) {
    Part& p = part[t];
    p.buf.resize(m);
    for (int c = 0; c < m; ++c) p.buf[c].resize(d, cap[c]);
    p.fill.assign(m, 0);
    p.dst.resize(L);
    p.sh.resize(L);
    if (t > 0) {
      p.S.assign(m, fp::Mat::Zero(d, d));
      p.resid = fp::Mat::Zero(d, m);
      if (zeros) p.zeros.assign(d, 0.0);
    }
  }
  double* z0 = zeros ? zeros->data() : nullptr;
  if (T == 1) {
    Part& p = part[0];
    onepass_rows(X, n, d, G, m, 0, n, shift, L, cap, p.buf, p.fill, p.dst, p.sh, S, resid, z0,
                 [] { Rcpp::checkUserInterrupt(); return false; });
  } else {
    Eigen::initParallel();
    fp::BlasSingleThread one_blas_thread;
    std::atomic<bool> stop(false), failed(false);
#ifdef _OPENMP
#pragma omp parallel for num_threads(T) schedule(static, 1)
#endif
    for (int t = 0; t < T; ++t) {
      Part& p = part[t];
      const int r_begin = static_cast<int>(static_cast<long long>(n) * t / T);
      const int r_end = static_cast<int>(static_cast<long long>(n) * (t + 1) / T);
      auto poll = [&stop, t] {
        if (t == 0 && !stop.load() && fp::interrupt_pending()) stop.store(true);
        return stop.load();
      };
      try {
        if (t == 0) {
          onepass_rows(X, n, d, G, m, r_begin, r_end, shift, L, cap, p.buf, p.fill, p.dst, p.sh, S, resid, z0,
                       poll);
        } else {
          onepass_rows(X, n, d, G, m, r_begin, r_end, shift, L, cap, p.buf, p.fill, p.dst, p.sh, p.S, p.resid,
                       zeros ? p.zeros.data() : nullptr, poll);
        }
      } catch (...) {
        failed.store(true);
        stop.store(true);
      }
    }
    if (failed.load()) Rcpp::stop("the parallel row pass failed (out of memory?)");
    if (stop.load()) throw Rcpp::internal::InterruptedException();  // the main thread saw it
    for (int t = 1; t < T; ++t) {
      for (int c = 0; c < m; ++c) S[c].triangularView<Eigen::Lower>() += part[t].S[c];
      resid += part[t].resid;
      if (zeros)
        for (int j = 0; j < d; ++j) (*zeros)[j] += part[t].zeros[j];
    }
  }
  for (int c = 0; c < m; ++c) S[c].triangularView<Eigen::StrictlyUpper>() = S[c].transpose();
}

// Per group, the mean of its first (up to) K rows: the shift of the one-pass route. Its distance
// to the group's mean is about the spread over sqrt(K), so the scatter about it, corrected by the
// residual sums, keeps every digit that the scatter about the exact mean would (the correction is
// about 1 / K of the scatter); columns with a large offset are centred to full precision.
fp::Mat first_rows_mean(const double* X, int n, int d, const int* G, int m, int K) {
  fp::Mat s = fp::Mat::Zero(d, m);
  std::vector<int> taken(m, 0);
  int open = m;
  for (int i = 0; i < n && open > 0; ++i) {
    const int c = G[i];
    if (taken[c] >= K) continue;
    for (int j = 0; j < d; ++j) s(j, c) += X[static_cast<size_t>(j) * n + i];
    if (++taken[c] == K) --open;
  }
  for (int c = 0; c < m; ++c)
    if (taken[c] > 0) s.col(c) /= taken[c];
  return s;
}

// The route for data whose columns are mostly zero (one-hot codes of factors, counts): the
// columns P with at most half their entries non-zero are not centred (shift 0), the others D
// about their plain group means, so that a row costs its q non-zeros in P squared (plus q |D|)
// instead of d^2. With C = sum (x - s)(x - s)' and u = sum (x - s) over a group's rows, its
// scatter about its exact mean is C - u u' / n. The shift 0 loses at most one bit to that
// correction: a column with a fraction p <= 1/2 of non-zeros has (sum x)^2 / n <= p sum x^2
// (Cauchy-Schwarz over its non-zeros), so its variance keeps at least half its sum of squares,
// and every correlation is exact to a few units of rounding.
List sparse_scatter(const double* X, int n, int d, const int* G, int m, const std::vector<double>& cnt,
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
    if ((r0 / L) % 256 == 255) Rcpp::checkUserInterrupt();
  }
  List scatter(m);
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
    scatter[c] = Rcpp::wrap(C);
  }
  return List::create(Rcpp::Named("n") = Rcpp::wrap(cnt), Rcpp::Named("mean") = Rcpp::wrap(mean),
                      Rcpp::Named("mean_lo") = Rcpp::wrap(mean_lo), Rcpp::Named("scatter") = scatter,
                      Rcpp::Named("n_na") = 0.0, Rcpp::Named("n_inf") = 0.0, Rcpp::Named("sparse") = true);
}

// The moments of the dense routes for R: each group's scatter about its mean from its scatter S
// about the centre the pass used and the sums r of its residuals from that centre (S -= r r' / n),
// the mean refined by `refine` (refine_mean() or refine_shift()); `onepass` marks the one-pass
// route's result.
List centred_moments(std::vector<fp::Mat>& S, const fp::Mat& resid, const std::vector<double>& cnt, fp::Mat& mean,
                     double n_na, double n_inf, void (*refine)(fp::Mat&, fp::Mat&, const fp::Vec&, double, int),
                     bool onepass) {
  const int m = static_cast<int>(S.size());
  List scatter(m);
  fp::Mat mean_lo = fp::Mat::Zero(mean.rows(), m);
  for (int c = 0; c < m; ++c) {
    if (cnt[c] > 0) {
      const fp::Vec r = resid.col(c);
      S[c].noalias() -= (r * r.transpose()) / cnt[c];
      refine(mean, mean_lo, r, cnt[c], c);
    }
    scatter[c] = Rcpp::wrap(S[c]);
  }
  List out = List::create(Rcpp::Named("n") = Rcpp::wrap(cnt), Rcpp::Named("mean") = Rcpp::wrap(mean),
                          Rcpp::Named("mean_lo") = Rcpp::wrap(mean_lo), Rcpp::Named("scatter") = scatter,
                          Rcpp::Named("n_na") = n_na, Rcpp::Named("n_inf") = n_inf);
  if (onepass) out.push_back(true, "onepass");
  return out;
}

}  // namespace

// x: n x d double matrix (not copied); g: 0-based group codes; m: number of groups; block: rows
// per buffer (0 = automatic); sparse: the route for columns that are mostly zero (see
// sparse_scatter below): -1 chosen by the count of non-zeros, 0 never, 1 whenever a column is;
// onepass: the one-pass route (see below): -1 where the pass is long, 0 never, 1 whenever the
// data allow it.
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
List fp_moments_cpp(const NumericMatrix& x, const IntegerVector& g, int m, int block, int sparse, int onepass,
                    int threads = 1) {
  const int n = x.nrow(), d = x.ncol();
  const double* X = x.begin();
  const int* G = g.begin();
  std::vector<double> cnt(m, 0.0);
  double n_na = 0, n_inf = 0;
  for (int i = 0; i < n; ++i) cnt[G[i]] += 1.0;
  const bool big = 0.5 * static_cast<double>(n) * d * d >= 5e7;
  bool one = sparse != 1 && (onepass == 1 || (onepass < 0 && big));
  // where the sparse route could be chosen: columns with many zeros among the first rows send
  // the data to the two-pass route, which counts the non-zeros of every group
  const bool may_sparse = sparse < 0 && d >= 16 && big;
  if (one && may_sparse) {
    const int P = std::min(n, 4096);
    for (int j = 0; j < d && one; ++j) {
      const double* col = X + static_cast<size_t>(j) * n;
      int z = 0;
      for (int i = 0; i < P; ++i) z += (col[i] == 0);
      if (4 * z >= P) one = false;
    }
  }
  if (one) {
    fp::Mat mean = first_rows_mean(X, n, d, G, m, 64);
    std::vector<fp::Mat> S;
    fp::Mat resid;
    std::vector<double> zeros;
    onepass_part(X, n, d, G, m, cnt, mean, block, threads, S, resid, may_sparse ? &zeros : nullptr);
    bool finite = resid.allFinite();
    for (int c = 0; c < m && finite; ++c) finite = S[c].diagonal().allFinite();
    if (!finite) {
      for (size_t t = 0, nd = static_cast<size_t>(n) * d; t < nd; ++t) {
        if (std::isnan(X[t])) n_na += 1;
        else if (!std::isfinite(X[t])) n_inf += 1;
      }
      if (n_na > 0 || n_inf > 0) return List::create(Rcpp::Named("n_na") = n_na, Rcpp::Named("n_inf") = n_inf);
    }
    bool dense = true;  // every column more than half non-zero: no group can take the sparse route
    if (may_sparse)
      for (int j = 0; j < d && dense; ++j) dense = 2.0 * (n - zeros[j]) > n;
    if (dense) {
      return centred_moments(S, resid, cnt, mean, n_na, n_inf, refine_shift, true);
    }
  }
  fp::Mat mean = fp::Mat::Zero(d, m);
  std::vector<int> nzc(static_cast<size_t>(d) * m, 0);  // non-zero entries per column and group
  // pass 1: plain group means (four interleaved accumulators per group break the dependency
  // chain of the scattered additions) and the NA/Inf check
  {
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
      if (bad) {
        for (int r = 0; r < n; ++r) {
          if (std::isnan(col[r])) n_na += 1;
          else if (!std::isfinite(col[r])) n_inf += 1;
        }
      }
      for (int c = 0; c < m; ++c) mean(j, c) = (a[4 * c] + a[4 * c + 1]) + (a[4 * c + 2] + a[4 * c + 3]);
    }
  }
  if (n_na > 0 || n_inf > 0) {
    return List::create(Rcpp::Named("n_na") = n_na, Rcpp::Named("n_inf") = n_inf);
  }
  for (int c = 0; c < m; ++c)
    if (cnt[c] > 0) mean.col(c) /= cnt[c];
  {
    std::vector<int> dcols, pcols;
    double nnz_p = 0;
    for (int j = 0; j < d; ++j) {
      // sparse when at most half of every group's entries are non-zero (the bound below)
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
    if (!pcols.empty() && (sparse == 1 || (sparse < 0 && d >= 16 && big && cheaper))) {
      return sparse_scatter(X, n, d, G, m, cnt, mean, dcols, pcols, block);
    }
  }

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

// Scores of the rows, x W - 1 off' (n x k), written straight into the result: one product of the
// data (not copied, not centred) with the d x k map, then the projected centre subtracted.
// [[Rcpp::export(.fp_scores_cpp)]]
NumericMatrix fp_scores_cpp(const NumericMatrix& x, const NumericMatrix& W, const Rcpp::NumericVector& off) {
  const int n = x.nrow(), d = x.ncol(), k = W.ncol();
  if (W.nrow() != d || off.size() != k) Rcpp::stop("internal error: scores of mismatched sizes");
  NumericMatrix out(Rcpp::no_init(n, k));
  if (d == 0) {
    std::fill(out.begin(), out.end(), 0.0);
  } else if (fp::backend_flag() == 1) {
    fp::blas_gemm(n, d, k, x.begin(), W.begin(), out.begin());
  } else {
    Eigen::Map<fp::Mat>(out.begin(), n, k).noalias() =
        Eigen::Map<const fp::Mat>(x.begin(), n, d) * Eigen::Map<const fp::Mat>(W.begin(), d, k);
  }
  for (int j = 0; j < k; ++j) {
    const double o = off[j];
    if (o == 0) continue;
    double* col = out.begin() + static_cast<size_t>(j) * n;
    for (int i = 0; i < n; ++i) col[i] -= o;
  }
  return out;
}

// Symmetric eigen-solvers exposed to R (internal): top k (Lanczos when worthwhile) or all.
// [[Rcpp::export(.fp_eig_top)]]
List fp_eig_top(const Eigen::Map<Eigen::MatrixXd>& A, int k) {
  fp::Mat M = A;
  fp::EigResult r = (k >= M.rows()) ? fp::eig_sym_full(M) : fp::eig_sym_top(M, k);
  return List::create(Rcpp::Named("values") = r.values, Rcpp::Named("vectors") = r.vectors);
}

// Time one Gram kernel (for the calibration): returns the checksum so the work is not elided.
// [[Rcpp::export(.fp_gram_kernel)]]
double fp_gram_kernel(const Eigen::Map<Eigen::MatrixXd>& A, int which) {
  const int d = static_cast<int>(A.cols());
  fp::Mat S = fp::Mat::Zero(d, d);
  if (which == 1) {
    fp::blas_syrk_lower(d, static_cast<int>(A.rows()), A.data(), static_cast<int>(A.rows()), S.data());
  } else {
    S.selfadjointView<Eigen::Lower>().rankUpdate(A.transpose());
  }
  return S.diagonal().sum();
}

// [[Rcpp::export(.fp_set_backend)]]
int fp_set_backend(int flag) {
  fp::backend_flag() = flag;
  return flag;
}
