// fair_audit()'s tail index of each group's rows (R's fp_tail_index(), #44) from rows in memory:
// the squared standardised norm of every row, u_i = sum_j (x_ij / a_j - mu_j)^2 / v_j, with a_j
// the largest magnitude of column j in the row's group (no square overflows or underflows), mu_j
// and v_j the mean and variance (divisor n_g - 1) of the column so divided; columns of the group
// whose largest magnitude is not finite or 0, or whose variance is 0, are left out. R's Hill
// estimator then reads the norms (fp_hill_index()).
//
// The data are read as R holds them, a column at a time for all groups at once (four sweeps
// over one column: its largest magnitudes, means, variances and terms of the norms), so the
// audit copies no group's rows and forms no n x d or n_g x d temporary: the extra memory is the
// norms' accumulators (n) and a few numbers per group.
//
// Numerical conventions: R's own arithmetic, operation for operation, so the norms equal those
// of R's matrix expression bit for bit: each quotient x / a, deviation and square in double;
// the column sums of the means and variances and the row sums of the norms accumulated in long
// double, in the order of the rows and of the columns, as colMeans(), colSums() and rowSums()
// accumulate (LDOUBLE; the same type as R's wherever R uses long double), the mean's division in
// long double and the variance's in double.
#include "rcpp_entry.h"
#include <cmath>
#include <vector>

namespace fp {
namespace audit {

struct TailNorms {
  std::vector<double> norm;  // each row's squared standardised norm (n)
  std::vector<int> columns;  // per group, the columns that enter its rows' norms (m)
};

// `x` n x d column-major, `g` each row's group (0-based, below m).
inline TailNorms tail_norms(const double* x, int n, int d, const int* g, int m) {
  std::vector<double> cnt(m, 0.0), mx(m), mu(m), v(m);
  std::vector<char> use(m);
  std::vector<long double> s(m), acc(n, 0.0L);
  for (int i = 0; i < n; ++i) {
    if (g[i] < 0 || g[i] >= m) throw fp::solver_error("a group code out of range");
    cnt[g[i]] += 1.0;
  }
  TailNorms out;
  out.columns.assign(m, 0);
  for (int j = 0; j < d; ++j) {
    const double* col = x + static_cast<size_t>(j) * n;
    // the largest magnitude; a column holding NA, NaN or Inf in the group is left out (R's max()
    // is then NA or Inf, not finite)
    std::fill(mx.begin(), mx.end(), 0.0);
    std::fill(use.begin(), use.end(), 1);
    for (int i = 0; i < n; ++i) {
      const double a = col[i];
      if (!std::isfinite(a)) {
        use[g[i]] = 0;
      } else if (std::fabs(a) > mx[g[i]]) {
        mx[g[i]] = std::fabs(a);
      }
    }
    for (int h = 0; h < m; ++h) use[h] = use[h] && mx[h] > 0;
    std::fill(s.begin(), s.end(), 0.0L);
    for (int i = 0; i < n; ++i) {
      if (use[g[i]]) s[g[i]] += col[i] / mx[g[i]];
    }
    for (int h = 0; h < m; ++h) mu[h] = static_cast<double>(s[h] / static_cast<long double>(cnt[h]));
    std::fill(s.begin(), s.end(), 0.0L);
    for (int i = 0; i < n; ++i) {
      const int h = g[i];
      if (!use[h]) continue;
      const double dv = col[i] / mx[h] - mu[h];
      s[h] += dv * dv;
    }
    for (int h = 0; h < m; ++h) {
      v[h] = static_cast<double>(s[h]) / (cnt[h] - 1.0);
      use[h] = use[h] && v[h] > 0;
      out.columns[h] += use[h];
    }
    for (int i = 0; i < n; ++i) {
      const int h = g[i];
      if (!use[h]) continue;
      const double dv = col[i] / mx[h] - mu[h];
      acc[i] += dv * dv / v[h];
    }
    if (j % 64 == 63) fp::check_interrupt();
  }
  out.norm.resize(n);
  for (int i = 0; i < n; ++i) out.norm[i] = static_cast<double>(acc[i]);
  return out;
}

}  // namespace audit
}  // namespace fp

// fp::audit::tail_norms() of the rows `x` in groups `g` (1-based codes of m groups): list(norm,
// columns).
// [[Rcpp::export(.fp_audit_tail_norms)]]
Rcpp::List fp_audit_tail_norms(const Rcpp::NumericMatrix& x, const Rcpp::IntegerVector& g, int m) {
  const int n = x.nrow(), d = x.ncol();
  if (g.size() != n || m < 1) Rcpp::stop("internal error: tail norms of mismatched sizes");
  std::vector<int> g0(g.begin(), g.end());
  for (int& h : g0) h -= 1;
  const fp::audit::TailNorms r = fp::rcpp::run([&] { return fp::audit::tail_norms(x.begin(), n, d, g0.data(), m); });
  return Rcpp::List::create(Rcpp::Named("norm") = r.norm, Rcpp::Named("columns") = r.columns);
}
