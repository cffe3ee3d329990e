// The moments pass, its one-pass route (see moments.cpp and fp_moments_cpp() there): the shift
// of each group (the mean of its first rows) and the scatter about it with the residual sums, in
// one read of the data, on one thread or on several (OpenMP, see threads.h).
//
// Threads: thread t takes the t-th of T contiguous ranges of rows, with buffers and d x d
// accumulators of its own, and the pieces are added in thread order after the pass, so that a
// given number of threads gives the same result every time; one thread runs the same operations
// in the same order as the serial loop always did. The rows are read in rounds of 1024 strips
// per thread (a parallel region each), each thread resuming where it stopped, buffers and all:
// the operations are those of one uninterrupted loop, and between rounds the calling thread,
// outside any parallel region, checks for the user's interrupt (as the serial loop did every
// 1024 strips) and for a thread that failed.
// Included once, by moments.cpp (one translation unit).
#ifndef FAIRPROJ_MOMENTS_ONEPASS_H
#define FAIRPROJ_MOMENTS_ONEPASS_H

#include <cmath>
#include <limits>
#include <vector>
#include "linalg.h"
#include "runtime.h"
#include "threads.h"

namespace fp {
void blas_syrk_lower_rows(int d, int rows, const double* A, int lda, double* C);  // blas.cpp

namespace moments {

// Per group, the mean of its first (up to) K rows: the shift of the one-pass route. Its distance
// to the group's mean is about the spread over sqrt(K), so the scatter about it, corrected by the
// residual sums, keeps every digit that the scatter about the exact mean would (the correction is
// about 1 / K of the scatter); columns with a large offset are centred to full precision.
inline fp::Mat first_rows_mean(const double* X, int n, int d, const int* G, int m, int K) {
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

// Per group and column, the centre `mean` (d x m) replaced by the group's first value where it
// lies within the rounding of a sum of `cnt` terms of that value: then a column constant within
// the group is centred exactly (every residual 0, so its variance and cross-terms are exactly
// 0, not the rounding of the sum times the other columns' spread). Elsewhere the centre moves by
// a few units of rounding at most, which the residual sums correct as before.
inline void snap_to_first(const double* X, int n, int d, const int* G, int m, const std::vector<double>& cnt,
                          fp::Mat& mean) {
  std::vector<int> first(m, -1);
  int open = m;
  for (int i = 0; i < n && open > 0; ++i)
    if (first[G[i]] < 0) {
      first[G[i]] = i;
      --open;
    }
  for (int c = 0; c < m; ++c) {
    if (first[c] < 0) continue;
    const double tol = 2.0 * (cnt[c] + 2.0) * std::numeric_limits<double>::epsilon();
    for (int j = 0; j < d; ++j) {
      const double v = X[static_cast<size_t>(j) * n + first[c]];
      if (std::abs(mean(j, c) - v) <= tol * std::abs(v)) mean(j, c) = v;
    }
  }
}

// What every thread of the one-pass route reads: the data, the shifts (d x m), the rows per
// strip L and each group's buffer capacity (a buffer is flushed when more than cap - L full).
struct OnepassData {
  const double* X;
  int n, d;
  const int* G;
  int m;
  const fp::Mat* shift;
  int L;
  std::vector<int> cap;
  bool zeros;
};

// One thread's share: its rows [begin, end), of which those before `next` are read; its buffers
// (one row per column, d entries contiguous) and their fill; its scatters about the shifts (lower
// triangles), residual sums (d x m) and, when asked for, the zero entries per column.
struct OnepassPart {
  int begin = 0, end = 0, next = 0;
  std::vector<fp::Mat> buf;
  std::vector<int> fill;
  std::vector<double*> dst;
  std::vector<const double*> sh;
  std::vector<fp::Mat> S;
  fp::Mat resid;
  std::vector<double> zeros;
};

// The one-pass route's kernel on up to `strips` strips of L rows of part `p`, from p.next on;
// the buffers are flushed when the part's last row is read. Each group's rows are gathered into
// its buffer (the gather reads a strip of L rows tile by tile of columns, so that it stays in the
// first-level cache also at large d), centred as they are written, and each full buffer is added
// to its group's scatter in one rank-B update (A A', A the d x B buffer). Nothing is allocated
// here (a thread of the parallel route runs it).
inline void onepass_rows(const OnepassData& a, OnepassPart& p, int strips) {
  const int d = a.d, n = a.n, L = a.L;
  const int JT = 64;  // columns per tile of the gather
  auto flush = [&](int c) {
    const int k = p.fill[c];
    if (k <= 0) return;
    const double* b = p.buf[c].data();
    double* r = p.resid.col(c).data();
    if (a.zeros) {
      // x - s == -s where x was zero (a non-zero x below half a unit of s counts too, which
      // only errs towards the caller's exact check)
      const double* s = a.shift->col(c).data();
      double* z = p.zeros.data();
      for (int t = 0; t < k; ++t, b += d)
        for (int j = 0; j < d; ++j) {
          r[j] += b[j];
          z[j] += (b[j] == -s[j]);
        }
    } else {
      for (int t = 0; t < k; ++t, b += d)
        for (int j = 0; j < d; ++j) r[j] += b[j];
    }
    if (fp::backend_flag() == 1) {
      fp::blas_syrk_lower_rows(d, k, p.buf[c].data(), d, p.S[c].data());
    } else {
      p.S[c].selfadjointView<Eigen::Lower>().rankUpdate(p.buf[c].leftCols(k));
    }
    p.fill[c] = 0;
  };
  int r0 = p.next;
  for (int s = 0; s < strips && r0 < p.end; ++s, r0 += L) {
    const int r1 = std::min(p.end, r0 + L), len = r1 - r0;
    for (int c = 0; c < a.m; ++c)
      if (p.fill[c] > a.cap[c] - L) flush(c);
    for (int i = 0; i < len; ++i) {
      const int c = a.G[r0 + i];
      p.dst[i] = p.buf[c].data() + static_cast<size_t>(p.fill[c]++) * d;
      p.sh[i] = a.shift->col(c).data();
    }
    for (int j0 = 0; j0 < d; j0 += JT) {
      const int j1 = std::min(d, j0 + JT);
      for (int i = 0; i < len; ++i) {
        double* o = p.dst[i];
        const double* s = p.sh[i];
        const double* xi = a.X + r0 + i;
        for (int j = j0; j < j1; ++j) o[j] = xi[static_cast<size_t>(j) * n] - s[j];
      }
    }
  }
  p.next = std::min(r0, p.end);
  if (p.next == p.end)
    for (int c = 0; c < a.m; ++c) flush(c);
}

// The parts of T threads: contiguous ranges of rows, buffers and zeroed accumulators.
inline std::vector<OnepassPart> onepass_parts(const OnepassData& a, int T) {
  std::vector<OnepassPart> part(T);
  for (int t = 0; t < T; ++t) {
    OnepassPart& p = part[t];
    p.begin = p.next = static_cast<int>(static_cast<long long>(a.n) * t / T);
    p.end = static_cast<int>(static_cast<long long>(a.n) * (t + 1) / T);
    p.buf.resize(a.m);
    for (int c = 0; c < a.m; ++c) p.buf[c].resize(a.d, a.cap[c]);
    p.fill.assign(a.m, 0);
    p.dst.resize(a.L);
    p.sh.resize(a.L);
    p.S.assign(a.m, fp::Mat::Zero(a.d, a.d));
    p.resid = fp::Mat::Zero(a.d, a.m);
    if (a.zeros) p.zeros.assign(a.d, 0.0);
  }
  return part;
}

// Reads every part's rows, round by round (see the top of this file). One part: no parallel
// region, the serial loop. Several: a parallel region per round, in which the BLAS runs one
// thread per caller (BlasSingleThread) and Eigen is not asked for threads of its own; a thread
// that throws (out of memory) only marks the round failed, which is raised after the region.
inline void onepass_read(const OnepassData& a, std::vector<OnepassPart>& part) {
  const int T = static_cast<int>(part.size()), R = 1024;  // strips per round
  auto unread = [&part] {
    for (const OnepassPart& p : part)
      if (p.next < p.end) return true;
    return false;
  };
  if (T == 1) {
    do {
      onepass_rows(a, part[0], R);
      if (part[0].next < part[0].end) fp::check_interrupt();
    } while (part[0].next < part[0].end);
    return;
  }
  Eigen::initParallel();
  fp::BlasSingleThread one_blas_thread;
  while (unread()) {
    int failed = 0;
#ifdef _OPENMP
#pragma omp parallel for num_threads(T) schedule(static, 1) reduction(| : failed)
#endif
    for (int t = 0; t < T; ++t) {
      try {
        onepass_rows(a, part[t], R);
      } catch (...) {
        failed = 1;
      }
    }
    if (failed) throw fp::solver_error("the parallel row pass failed (out of memory?)");
    fp::check_interrupt();  // the calling thread, outside the region
  }
}

// The one-pass route's pass over all rows on `threads` threads (fewer where the rows are few: a
// thread needs some strips to be worth starting): the scatter of each group about its shift
// `shift` (d x m, full) and the sums of the residuals (d x m), and with `zeros`, per column the
// entries that were zero.
inline void onepass_part(const double* X, int n, int d, const int* G, int m, const std::vector<double>& cnt,
                         const fp::Mat& shift, int block, int threads, std::vector<fp::Mat>& S, fp::Mat& resid,
                         std::vector<double>* zeros) {
  if (d == 0) {
    S.assign(m, fp::Mat::Zero(0, 0));
    resid = fp::Mat::Zero(0, m);
    if (zeros) zeros->clear();
    return;
  }
  int B = block;
  if (B <= 0) B = std::min(8192, std::max(256, 32768 / d));
  B = std::max(16, B);
  OnepassData a{X, n, d, G, m, &shift, std::max(1, std::min(64, B / 4)), std::vector<int>(m), zeros != nullptr};
  for (int c = 0; c < m; ++c) a.cap[c] = std::min(B, std::max(1, static_cast<int>(cnt[c])));
  const int T = std::max(1, std::min(threads, n / (16 * a.L)));
  std::vector<OnepassPart> part = onepass_parts(a, T);
  onepass_read(a, part);
  S = std::move(part[0].S);
  resid = std::move(part[0].resid);
  if (zeros) *zeros = std::move(part[0].zeros);
  for (int t = 1; t < T; ++t) {  // in thread order
    for (int c = 0; c < m; ++c) S[c].triangularView<Eigen::Lower>() += part[t].S[c];
    resid += part[t].resid;
    if (zeros)
      for (int j = 0; j < d; ++j) (*zeros)[j] += part[t].zeros[j];
  }
  for (int c = 0; c < m; ++c) S[c].triangularView<Eigen::StrictlyUpper>() = S[c].transpose();
}

}  // namespace moments
}  // namespace fp

#endif
