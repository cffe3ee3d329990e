// Fair column subset selection (Matakos et al. 2024), the exact method: exhaustive search over
// the k-subsets and its branch and bound (pool_bound()). Facts and numerical conventions in
// css.h.
#include <chrono>
#include <cmath>
#include <limits>
#include "css.h"
#include "tolerances.h"
#include "rcpp_entry.h"

namespace fp {
namespace css {

// Lower bound on the squared error of a group after adding r more columns from the pool P to the
// selected set: with E the current residual (R = E'E), the error after adding the columns T is
// ||E||^2 - ||P_W E||^2 with W = span(E[:, T]), a subspace of dimension <= r of span(E[:, P]);
// so it is at least ||E||^2 minus the sum of the r largest eigenvalues of E' P_{span E_P} E,
// which are the squared singular values of R[:, P] R[P, P]^{+1/2}.
double pool_bound(const Mat& R, const std::vector<int>& pool, int r) {
  const int q = static_cast<int>(pool.size()), d = static_cast<int>(R.rows());
  const double tr = R.trace();
  if (q == 0 || r <= 0) return tr;
  Mat S(q, q), C(d, q);
  for (int b = 0; b < q; ++b) {
    C.col(b) = R.col(pool[b]);
    for (int a = 0; a < q; ++a) S(a, b) = R(pool[a], pool[b]);
  }
  Eigen::SelfAdjointEigenSolver<Mat> es(S);
  const Vec& ev = es.eigenvalues();
  const double emax = ev.size() ? ev(ev.size() - 1) : 0;
  if (!(emax > 0)) return tr;
  std::vector<int> keep;
  for (int i = 0; i < q; ++i)
    if (ev(i) > 1e-12 * emax) keep.push_back(i);
  Mat W(q, keep.size());
  for (size_t i = 0; i < keep.size(); ++i) W.col(i) = es.eigenvectors().col(keep[i]) / std::sqrt(ev(keep[i]));
  Mat Z = C * W;
  Mat N = Z.transpose() * Z;
  Eigen::SelfAdjointEigenSolver<Mat> en(N, Eigen::EigenvaluesOnly);
  const Vec& lam = en.eigenvalues();  // ascending
  double top = 0;
  for (int i = 0; i < r && i < lam.size(); ++i) top += std::max(lam(lam.size() - 1 - i), 0.0);
  return tr - top;
}

struct Exhaustive {
  std::vector<MatMap> G;  // views of the caller's matrices
  std::vector<double> best2;
  int m, d, k;
  double best_val;
  std::vector<int> cur, best_set;
  double count, max_count;
  long long tick;
  // branch and bound
  bool bnb;
  double nodes, max_nodes, pruned, lower;
  bool out, timed_out;
  // time limit of the branch and bound (seconds from `start`) and progress reports (the bound
  // evaluations, or the subsets of the enumeration, at most every 0.25 s)
  std::chrono::steady_clock::time_point start, last_report;
  double max_seconds;
  fp::Progress progress;

  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  void report() {
    if (!progress) return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_report).count() < 0.25) return;
    last_report = now;
    const double done = bnb ? nodes : count;
    progress(static_cast<int>(std::min(done, 2e9)));
  }

  void leaf(const std::vector<Resid>& R, int from) {
    const std::vector<char> all(d, 1);
    std::vector<Vec> cn(m), rn(m);
    std::vector<double> err2(m);
    for (int g = 0; g < m; ++g) {
      cn[g] = R[g].R.colwise().squaredNorm().transpose();
      rn[g] = R[g].residual_norms();
      err2[g] = rn[g].sum();
    }
    for (int j = from; j < d; ++j) {
      double v = 0;
      for (int g = 0; g < m; ++g) {
        const double e = error_after(R[g], G[g], cn[g], rn[g], err2[g], j, all);
        v = std::max(v, std::sqrt(std::max(e, 0.0) / best2[g]));
      }
      count += 1;
      if (out) lower = std::min(lower, v);
      const bool better = best_set.empty() ? v <= best_val : v < best_val - kTie * std::abs(best_val);
      if (better) {
        best_val = v;
        best_set = cur;
        best_set.push_back(j);
      }
    }
  }

  // largest over the groups of the bound on the ratio after adding r more columns from j + 1 ..
  double bound(const std::vector<Resid>& R, int from, int r) {
    std::vector<int> pool;
    for (int j = from; j < d; ++j) pool.push_back(j);
    double v = 0;
    for (int g = 0; g < m; ++g) {
      const double lb = pool_bound(R[g].R, pool, r);
      v = std::max(v, std::sqrt(std::max(lb, 0.0) / best2[g]));
    }
    return v;
  }

  // `node` is a lower bound on every completion of this node (the bound its parent evaluated;
  // NaN where none was). Once the search is out of time or nodes, each level adds that bound
  // to `lower` and returns, instead of evaluating the bounds of its remaining children.
  void rec(const std::vector<Resid>& R, int from, int depth, double node) {
    if (depth == k - 1) {
      leaf(R, from);
      if (++tick % 64 == 0) {
        fp::check_interrupt();
        report();
      }
      return;
    }
    for (int j = from; j <= d - (k - depth); ++j) {
      std::vector<Resid> R2 = R;
      for (int g = 0; g < m; ++g) R2[g].add(j);
      const int left = k - depth - 1;  // columns still to add after j
      double child = node;
      if (bnb && left >= 2) {
        const double lb = bound(R2, j + 1, left);
        nodes += 1;
        report();
        if (lb > best_val * (1 + fp::tol::prune)) {
          pruned += 1;
          continue;
        }
        if (nodes > max_nodes || elapsed() > max_seconds) {
          timed_out = !(nodes > max_nodes);
          out = true;
          lower = std::min(lower, lb);
          stop_here(R, j + 1, depth, node);
          return;
        }
        child = lb;
      }
      cur.push_back(j);
      rec(R2, j + 1, depth + 1, child);
      cur.pop_back();
      if (count > max_count) return;
      if (out) {
        stop_here(R, j + 1, depth, node);
        return;
      }
    }
  }

  // the search stops at a node whose children from `from` on are not yet searched: the node's
  // bound covers them. The root has none worth having (every ratio is at least 1), so there
  // the remaining first-level subtrees are bounded one by one, as the refusal up front budgets for.
  void stop_here(const std::vector<Resid>& R, int from, int depth, double node) {
    if (!std::isnan(node)) {
      lower = std::min(lower, node);
      return;
    }
    for (int j = from; j <= d - (k - depth); ++j) {
      std::vector<Resid> R2 = R;
      for (int g = 0; g < m; ++g) R2[g].add(j);
      const int left = k - depth - 1;
      lower = std::min(lower, bound(R2, j + 1, left));
    }
  }
};


// Exhaustive search over all k-subsets for the smallest max_g sqrt(error_g / best2_g).
// Lexicographic enumeration; a later subset replaces the incumbent only when smaller by a
// relative kTie, so the first optimal subset in lexicographic order is returned.
// With bnb = true, a branch and bound: `incumbent` (the value of the first k columns, which the
// caller makes a good set, e.g. the greedy one) bounds the search, and a subtree is skipped when the bound of
// pool_bound() on every completion exceeds the best value found so far (by fp::tol::prune, relative).
// After `max_nodes` bound evaluations or `max_seconds` seconds the search stops descending: the
// best set found is returned with a certified lower bound on the optimum (`lower`; equal to the
// objective when the search completed). `progress` receives the bound evaluations (the subsets
// of the enumeration) so far, at most every 0.25 s.
inline Exhaustive exhaustive(const std::vector<MatMap>& G, const std::vector<MatMap>& Y, const std::vector<double>& best2,
                             int k, bool bnb, double incumbent, double max_nodes, double max_seconds,
                             const fp::Progress& progress) {
  Exhaustive ex;
  for (const MatMap& a : G) ex.G.push_back(a);
  ex.m = static_cast<int>(ex.G.size());
  if (ex.m == 0 || static_cast<int>(Y.size()) != ex.m || static_cast<int>(best2.size()) != ex.m) throw fp::solver_error("bad arguments");
  ex.d = static_cast<int>(ex.G[0].rows());
  if (k < 1 || k > ex.d) throw fp::solver_error("k out of range");
  ex.k = k;
  ex.best2 = best2;
  ex.best_val = bnb ? incumbent * (1 + fp::tol::prune) : std::numeric_limits<double>::infinity();
  ex.count = 0;
  ex.max_count = std::numeric_limits<double>::infinity();
  ex.tick = 0;
  ex.bnb = bnb;
  ex.nodes = 0;
  ex.pruned = 0;
  ex.max_nodes = max_nodes;
  ex.lower = std::numeric_limits<double>::infinity();
  ex.out = false;
  ex.timed_out = false;
  ex.start = ex.last_report = std::chrono::steady_clock::now();
  ex.max_seconds = max_seconds;
  ex.progress = progress;
  std::vector<Resid> R0;
  for (int g = 0; g < ex.m; ++g) R0.push_back(Resid(ex.G[g], Y[g]));
  ex.rec(R0, 0, 0, std::numeric_limits<double>::quiet_NaN());
  if (ex.best_set.empty()) {
    // nothing below the incumbent was reached: the search stopped early, or on near-degenerate
    // data the downdated leaf values round above the incumbent's value (taken by QR): the
    // incumbent, which the caller passes as the first k columns, is then the answer
    if (!bnb) throw fp::solver_error("internal: no subset had a finite MinMaxLoss (degenerate data); try a smaller k or centring");
    for (int j = 0; j < k; ++j) ex.best_set.push_back(j);
    ex.best_val = incumbent;
  }
  return ex;
}

}  // namespace css
}  // namespace fp

// Exhaustive search or branch and bound; see fp::css::exhaustive(). `opts` (named list, built by
// fp_css_exhaustive_cpp()): k, and for branch and bound bnb, incumbent, max_nodes, max_seconds.
// [[Rcpp::export(.fp_css_exhaustive)]]
Rcpp::List fp_css_exhaustive(const Rcpp::List& grams, const Rcpp::List& factors, const Rcpp::NumericVector& best2,
                             const Rcpp::List& opts, Rcpp::Nullable<Rcpp::Function> progress = R_NilValue) {
  fp::rcpp::Options o(opts);
  const int k = o.get<int>("k", 1);
  const bool bnb = o.get<bool>("bnb", false);
  const double incumbent = o.get<double>("incumbent", 1e308), max_nodes = o.get<double>("max_nodes", 1e308);
  const double max_seconds = o.get<double>("max_seconds", 1e308);
  o.done();
  std::vector<Rcpp::NumericMatrix> keep;
  const std::vector<fp::MatMap> G = fp::rcpp::as_maps(grams, keep), Y = fp::rcpp::as_maps(factors, keep);
  const std::vector<double> b2(best2.begin(), best2.end());
  const fp::Progress pr = fp::rcpp::progress(progress);
  const fp::css::Exhaustive ex = fp::rcpp::run(
      [&] { return fp::css::exhaustive(G, Y, b2, k, bnb, incumbent, max_nodes, max_seconds, pr); });
  const double lower = ex.out ? std::min(ex.lower, ex.best_val) : ex.best_val;
  return Rcpp::List::create(Rcpp::Named("columns") = ex.best_set, Rcpp::Named("objective") = ex.best_val,
                            Rcpp::Named("subsets") = ex.count, Rcpp::Named("nodes") = ex.nodes,
                            Rcpp::Named("complete") = !ex.out,
                            Rcpp::Named("lower") = lower, Rcpp::Named("timed_out") = ex.timed_out);
}
