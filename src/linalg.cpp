// Definitions of the kernels declared in linalg.h (see there for what each returns), and the
// entry points that expose them to R: eigensolvers, row scores, the backend and its calibration.
#include "linalg.h"
#include "rcpp_entry.h"
#include "runtime.h"
#include "tolerances.h"
#include <Spectra/SymEigsSolver.h>
#include <algorithm>
#include <cmath>
#include <cfloat>
#include <cstring>
#include <limits>

// The explicit instantiations declared in linalg.h.
template class Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>;
template Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>&
Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>::compute<Eigen::MatrixXd>(
    const Eigen::EigenBase<Eigen::MatrixXd>&, int);
template class Eigen::JacobiSVD<Eigen::MatrixXd>;
template class Eigen::HouseholderQR<Eigen::MatrixXd>;
template class Eigen::FullPivLU<Eigen::MatrixXd>;

namespace fp {

namespace {

// Whether the diagonal of A is graded (its nonzero magnitudes spread over more than 2^20), and
// then in `p` the order that makes it decrease. Householder tridiagonalisation, which LAPACK
// and Eigen both start from the first column, keeps the small eigenvalues of a matrix graded
// downwards to their own precision instead of the largest's (a variable in units 1e10 times
// the others' leaves the rest of the spectrum intact), so such matrices are permuted first: a
// similarity, exact. Matrices with a flat diagonal are left as they are.
bool graded_order(const Eigen::Ref<const Mat>& A, std::vector<int>& p) {
  const int d = static_cast<int>(A.rows());
  double mx = 0, mn = std::numeric_limits<double>::infinity();
  for (int i = 0; i < d; ++i) {
    const double a = std::abs(A(i, i));
    if (a > 0 && std::isfinite(a)) {
      mx = std::max(mx, a);
      mn = std::min(mn, a);
    }
  }
  if (!(mx > 1048576.0 * mn)) return false;
  p.resize(d);
  for (int i = 0; i < d; ++i) p[i] = i;
  std::stable_sort(p.begin(), p.end(), [&A](int i, int j) { return std::abs(A(i, i)) > std::abs(A(j, j)); });
  return true;
}

EigResult eig_sym_full_unpermuted(const Eigen::Ref<const Mat>& A);

}  // namespace

EigResult eig_sym_full(const Eigen::Ref<const Mat>& A) {
  std::vector<int> p;
  if (!graded_order(A, p)) return eig_sym_full_unpermuted(A);
  const int d = static_cast<int>(A.rows());
  Mat B(d, d);
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < d; ++i) B(i, j) = A(p[i], p[j]);
  EigResult rb = eig_sym_full_unpermuted(B);
  EigResult r;
  r.values = rb.values;
  r.vectors.resize(d, d);
  for (int i = 0; i < d; ++i) r.vectors.row(p[i]) = rb.vectors.row(i);
  return r;
}

Vec mean_sorted_values(const double* W, const Eigen::Ref<const Vec>& s, int R) {
  const int w = static_cast<int>(s.size());
  const size_t ww = static_cast<size_t>(w) * w;
  std::vector<long double> sum(w, 0.0L);
  Mat a(w, w), b(w, w);
  std::vector<double> ev(w);
  std::vector<int> p;
  for (int r = 0; r < R; ++r) {
    const double* Wr = W + static_cast<size_t>(r) * ww;
    // each product s_i s_j rounded once, as BLAS's dsyrk forms R's tcrossprod(s)
    for (int j = 0; j < w; ++j)
      for (int i = 0; i < w; ++i) a(i, j) = Wr[i + static_cast<size_t>(j) * w] * (s(std::min(i, j)) * s(std::max(i, j)));
    double* m = a.data();
    if (graded_order(a, p)) {  // as fp_sym_values() reorders a graded diagonal
      for (int j = 0; j < w; ++j)
        for (int i = 0; i < w; ++i) b(i, j) = a(p[i], p[j]);
      m = b.data();
    }
    if (!lapack_sym_values(m, w, ev.data())) throw solver_error("LAPACK failed in the eigenvalues of a simulated covariance");
    for (int i = 0; i < w; ++i) sum[i] += ev[w - 1 - i];
  }
  Vec out(w);
  // rowMeans()'s sum and division in long double
  for (int i = 0; i < w; ++i) out(i) = static_cast<double>(sum[i] / R);
  return out;
}

namespace {

EigResult eig_sym_full_unpermuted(const Eigen::Ref<const Mat>& A) {
  const int d = static_cast<int>(A.rows());
  if (backend_flag() == 1 && d > 0) {
    // LAPACK reads A in place (it works on its copy in `vec`): A itself where it is stored with
    // leading dimension d, and the vectors are reordered in place, so that the solve holds A,
    // vec and LAPACK's work space (issue #48)
    Vec val(d);
    Mat vec(d, d);
    Mat Ac;
    if (A.outerStride() != d) Ac = A;
    if (lapack_eig_sym(Ac.size() ? Ac.data() : A.data(), d, val.data(), vec.data())) {
      EigResult r;
      r.values = val.reverse();
      vec.rowwise().reverseInPlace();
      r.vectors.swap(vec);
      return r;
    }
  }
  Eigen::SelfAdjointEigenSolver<Mat> es(A);
  EigResult r;
  r.values.resize(d);
  r.vectors.resize(d, d);
  for (int j = 0; j < d; ++j) {  // Eigen returns ascending order
    r.values(j) = es.eigenvalues()(d - 1 - j);
    r.vectors.col(j) = es.eigenvectors().col(d - 1 - j);
  }
  return r;
}

}  // namespace

namespace {

// Spectra operator y = s A x with a general matrix-vector product (faster here than Eigen's
// self-adjoint product) and s = pow2_unit_scale(A) (linalg.h): Spectra's convergence test is
// resid < tol * max(eps^(2/3), |theta|), absolute below eps^(2/3), so the matrix is brought to
// order one to make the tolerance relative to it whatever the units.
class ScaledSymProd {
  const Eigen::Ref<const Mat>& A_;
  const double s_;
 public:
  ScaledSymProd(const Eigen::Ref<const Mat>& A, double s) : A_(A), s_(s) {}
  int rows() const { return static_cast<int>(A_.rows()); }
  int cols() const { return static_cast<int>(A_.cols()); }
  void perform_op(const double* x_in, double* y_out) const {
    Eigen::Map<const Vec> x(x_in, A_.cols());
    Eigen::Map<Vec> y(y_out, A_.rows());
    y.noalias() = A_ * x;
    y *= s_;
  }
};

}  // namespace

bool lanczos_top(const Eigen::Ref<const Mat>& A, int k, int ncv, double tol, const Vec* start, EigResult& out) {
  const int d = static_cast<int>(A.rows());
  if (k < 1 || k >= d || ncv <= k || ncv > d) return false;
  const double s = pow2_unit_scale(A);
  try {
    ScaledSymProd op(A, s);
    Spectra::SymEigsSolver<double, Spectra::LARGEST_ALGE, ScaledSymProd> eigs(&op, k, ncv);
    if (start != nullptr && start->size() == d && start->norm() > 0) {
      eigs.init(start->data());
    } else {
      eigs.init();
    }
    eigs.compute(2000, tol);
    if (eigs.info() != Spectra::SUCCESSFUL) return false;
    out.values = eigs.eigenvalues() / s;  // decreasing for LARGEST_ALGE
    out.vectors = eigs.eigenvectors();
    return out.values.allFinite() && out.vectors.allFinite();
  } catch (const std::exception&) {
    return false;
  }
}

EigResult eig_sym_top(const Eigen::Ref<const Mat>& A, int k) {
  const int d = static_cast<int>(A.rows());
  if (k <= 0) {
    EigResult r;
    r.values.resize(0);
    r.vectors.resize(d, 0);
    return r;
  }
  if (use_lanczos(d, k)) {
    // Lanczos' residuals are relative to the largest eigenvalue, so where the k-th is below
    // 1e-8 of it (a variable or direction that dwarfs the rest) its eigenvector has lost the
    // digits the dense (graded) solver keeps: that one is used instead.
    EigResult r;
    if (lanczos_top(A, k, std::min(d, std::max(2 * k + 1, k + 20)), fp::tol::lanczos, nullptr, r) &&
        !(std::abs(r.values(k - 1)) < 1e-8 * std::abs(r.values(0))))
      return r;
  }
  EigResult full = eig_sym_full(A);
  EigResult r;
  r.values = full.values.head(k);
  r.vectors = full.vectors.leftCols(k);
  return r;
}

EigResult eig_sym_bottom(const Mat& A, int k) {
  Mat negA = -A;
  EigResult r = eig_sym_top(negA, k);
  r.values = -r.values;
  return r;
}

Mat householder_q(const Mat& W) {
  Eigen::HouseholderQR<Mat> qr(W);
  return qr.householderQ() * Mat::Identity(W.rows(), W.cols());
}

Mat qr_orthonormal(const Mat& V) {
  const int d = static_cast<int>(V.rows()), k = static_cast<int>(V.cols());
  Eigen::HouseholderQR<Mat> qr(V);
  Mat Q = qr.householderQ() * Mat::Identity(d, k);
  Mat R = qr.matrixQR().topLeftCorner(k, k).triangularView<Eigen::Upper>();
  for (int j = 0; j < k; ++j)
    if (R(j, j) < 0) Q.col(j) *= -1.0;
  return Q;
}

Mat polar_orthonormal(const Mat& V) {
  Eigen::JacobiSVD<Mat> svd(V, Eigen::ComputeThinU | Eigen::ComputeThinV);
  return svd.matrixU() * svd.matrixV().transpose();
}

double top_eig_sum(const Mat& A, int k) {
  if (k <= 0) return 0.0;
  return eig_sym_top(A, k).values.sum();
}

}  // namespace fp

// Mean-matching fair PCA (Kleindessner et al. 2023): the top-k eigensolve of the kernel
// version. The n x n (downdated) kernel matrices have slowly separating spectra, on which a
// Lanczos subspace of the default size (about 2k) restarts many times; a wider subspace
// converges in one or two restarts (e.g. 0.06 s instead of 0.95 s at n = 1582, k = 10). Here
// rather than in a file of its own, which would compile the Eigen and Rcpp headers once more.
// [[Rcpp::export(.fp_eig_top_wide)]]
Rcpp::List fp_eig_top_wide(const Eigen::Map<Eigen::MatrixXd>& A, int k, int ncv) {
  const int n = static_cast<int>(A.rows());
  const fp::EigResult r = fp::rcpp::run([&] {
    fp::EigResult out;
    // the shared Lanczos kernel (above) on R's memory, with the wider subspace
    if (k < n && 3 * k < n && n >= 120 &&
        fp::lanczos_top(A, k, std::min(n, std::max(ncv, 2 * k + 1)), fp::tol::lanczos, nullptr, out))
      return out;
    // small, or a Lanczos breakdown: the dense solver
    const fp::EigResult full = fp::eig_sym_full(A);
    out.values = full.values.head(k);
    out.vectors = full.vectors.leftCols(k);
    return out;
  });
  return Rcpp::List::create(Rcpp::Named("values") = r.values, Rcpp::Named("vectors") = r.vectors);
}

// Scores of the rows, x W - 1 off' (n x k), written straight into the result: one product of the
// data (not copied, not centred) with the d x k map, then the projected centre subtracted.
// [[Rcpp::export(.fp_scores_cpp)]]
Rcpp::NumericMatrix fp_scores_cpp(const Rcpp::NumericMatrix& x, const Rcpp::NumericMatrix& W, const Rcpp::NumericVector& off) {
  const int n = x.nrow(), d = x.ncol(), k = W.ncol();
  if (W.nrow() != d || off.size() != k) Rcpp::stop("internal error: scores of mismatched sizes");
  Rcpp::NumericMatrix out(Rcpp::no_init(n, k));
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
Rcpp::List fp_eig_top(const Eigen::Map<Eigen::MatrixXd>& A, int k) {
  const fp::EigResult r = fp::rcpp::run([&] {
    // on R's memory (the dense solver's own copy is its work space)
    return (k >= A.rows()) ? fp::eig_sym_full(A) : fp::eig_sym_top(A, k);
  });
  return Rcpp::List::create(Rcpp::Named("values") = r.values, Rcpp::Named("vectors") = r.vectors);
}

// fp::mean_sorted_values() on R's array of draws W (w x w x R) and s.
// [[Rcpp::export(.fp_mean_sorted_values)]]
Rcpp::NumericVector fp_mean_sorted_values(const Rcpp::NumericVector& W, const Rcpp::NumericVector& s) {
  const int w = static_cast<int>(s.size());
  const size_t ww = static_cast<size_t>(w) * w;
  const int R = ww ? static_cast<int>(W.size() / ww) : 0;
  if (static_cast<size_t>(R) * ww != static_cast<size_t>(W.size())) Rcpp::stop("internal error: draws of mismatched sizes");
  const fp::Vec out = fp::rcpp::run([&] {
    return fp::mean_sorted_values(W.begin(), Eigen::Map<const fp::Vec>(s.begin(), w), R);
  });
  return Rcpp::NumericVector(out.data(), out.data() + w);
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

// The backend of the hot kernels (backend.h): 1 = R's BLAS/LAPACK, 0 = Eigen's own.
// [[Rcpp::export(.fp_set_backend)]]
int fp_set_backend(int flag) {
  fp::backend_flag() = flag;
  return flag;
}

// The d x d part of a prepared problem (fp_prepare_normalised() in R/prepare.R), built in one
// pass from the moments with no d x d temporaries: each group covariance (a new matrix, the
// dimnames of its scatter) and C = sum_g n_g second_g / denom accumulated in place, with the
// operations of the R code it replaces in the same order (linalg.h), so the values are those of
//   cov_g = (S_g * tcrossprod(w)) / n_g;  second_g = cov_g + tcrossprod(mean[, g])
//   C = Reduce(`+`, second_g * n_g) / denom;  s = sum(diag(C)) / d   (R's sum: long double)
// then cov_g / s and C / s, unless s is not finite and positive (then unscaled: R stops).
// With keep_cov = false the covariances are not kept (cov is NULL; fp_prepare_cov() builds them);
// with keep_C = false neither is C (NULL): only its diagonal is accumulated, for s, and
// fp_prepare_pooled() builds C on demand with the same operations.
// [[Rcpp::export(.fp_prepare_moments)]]
Rcpp::List fp_prepare_moments(const Rcpp::List& scatter, const Rcpp::NumericVector& w, const Rcpp::NumericVector& n,
                              const Rcpp::NumericMatrix& mean, double denom, const Rcpp::List& dimnames_C,
                              bool keep_cov = true, bool keep_C = true) {
  const R_xlen_t m = scatter.size(), d = w.size();
  std::vector<Rcpp::NumericMatrix> keep;
  const std::vector<fp::MatMap> S = fp::rcpp::as_maps(scatter, keep);
  if (n.size() != m || mean.nrow() != d || mean.ncol() != m) Rcpp::stop("internal error: moments of mismatched sizes");
  Rcpp::List cov(m);
  Rcpp::NumericMatrix C(Rcpp::no_init(keep_C ? d : 0, keep_C ? d : 0));
  std::vector<double> dg(keep_C ? 0 : d);  // C's diagonal alone
  double* c = keep_C ? C.begin() : nullptr;
  for (R_xlen_t g = 0; g < m; ++g) {
    if (S[g].rows() != d || S[g].cols() != d) Rcpp::stop("internal error: moments of mismatched sizes");
    Rcpp::NumericMatrix cg(Rcpp::no_init(keep_cov ? d : 0, keep_cov ? d : 0));
    const double ng = n[g], *s = S[g].data(), *mu = &mean(0, g);
    double* o = keep_cov ? cg.begin() : nullptr;
    if (!keep_cov && !keep_C) {
      for (R_xlen_t i = 0; i < d; ++i) {
        const double a = fp::prep_pooled_term(s[i + i * d], w[i], w[i], ng, mu[i], mu[i]);
        dg[i] = (g == 0) ? a : dg[i] + a;
      }
      continue;
    }
    for (R_xlen_t j = 0; j < d; ++j) {
      for (R_xlen_t i = 0; i < d; ++i) {
        const R_xlen_t ij = i + j * d;
        const double cv = fp::prep_cov_entry(s[ij], w[i], w[j], ng);
        if (keep_cov) o[ij] = cv;
        const double a = fp::prep_second_entry(cv, mu[i], mu[j]) * ng;
        if (keep_C) {
          c[ij] = (g == 0) ? a : c[ij] + a;
        } else if (i == j) {
          dg[i] = (g == 0) ? a : dg[i] + a;
        }
      }
    }
    if (!keep_cov) continue;
    SEXP dn = Rf_getAttrib(scatter[g], R_DimNamesSymbol);
    if (!Rf_isNull(dn)) cg.attr("dimnames") = dn;
    cov[g] = cg;
  }
  const R_xlen_t dd = d * d;
  if (keep_C) {
    for (R_xlen_t ij = 0; ij < dd; ++ij) c[ij] /= denom;
  } else {
    for (double& v : dg) v /= denom;
  }
  long double tr = 0.0;
  for (R_xlen_t i = 0; i < d; ++i) tr += keep_C ? c[i + i * d] : dg[i];
  const double trd = (tr > DBL_MAX) ? R_PosInf : (tr < -DBL_MAX) ? R_NegInf : static_cast<double>(tr);
  const double sc = trd / static_cast<double>(d);
  if (std::isfinite(sc) && sc > 0) {
    for (R_xlen_t ij = 0; keep_C && ij < dd; ++ij) c[ij] /= sc;
    for (R_xlen_t g = 0; keep_cov && g < m; ++g) {
      Rcpp::NumericMatrix cg = cov[g];
      for (double& v : cg) v /= sc;
    }
  }
  if (keep_C) C.attr("dimnames") = dimnames_C;
  return Rcpp::List::create(Rcpp::Named("cov") = keep_cov ? SEXP(cov) : R_NilValue,
                            Rcpp::Named("C") = keep_C ? SEXP(C) : R_NilValue, Rcpp::Named("s") = sc);
}

// The pooled matrix C of a prepared problem that does not hold it (keep_C = false above), with
// the operations of fp_prepare_moments() (the values it would have stored), written into `out`,
// a d x d double matrix of the caller's that no one else holds (R/prepare.R's work matrix, or a
// new one), with `dimnames`; with `out` NULL, its diagonal alone (a vector of length d).
// [[Rcpp::export(.fp_prepare_pooled)]]
SEXP fp_prepare_pooled(SEXP out, const Rcpp::List& scatter, const Rcpp::NumericVector& w, const Rcpp::NumericVector& n,
                       const Rcpp::NumericMatrix& mean, double denom, double s, SEXP dimnames) {
  const R_xlen_t m = scatter.size(), d = w.size();
  std::vector<Rcpp::NumericMatrix> keep;
  const std::vector<fp::MatMap> S = fp::rcpp::as_maps(scatter, keep);
  const bool diag_only = Rf_isNull(out);
  bool ok = n.size() == m && mean.nrow() == d && mean.ncol() == m && m > 0 &&
            (diag_only || (Rf_isReal(out) && Rf_xlength(out) == d * d));
  for (R_xlen_t g = 0; ok && g < m; ++g) ok = S[g].rows() == d && S[g].cols() == d;
  if (!ok) Rcpp::stop("internal error: moments of mismatched sizes");
  Rcpp::NumericVector dgv(diag_only ? d : 0);
  double* c = diag_only ? dgv.begin() : REAL(out);
  const bool scaled = std::isfinite(s) && s > 0;
  for (R_xlen_t g = 0; g < m; ++g) {
    const double ng = n[g], *sg = S[g].data(), *mu = &mean(0, g);
    if (diag_only) {
      for (R_xlen_t i = 0; i < d; ++i) {
        const double a = fp::prep_pooled_term(sg[i + i * d], w[i], w[i], ng, mu[i], mu[i]);
        c[i] = (g == 0) ? a : c[i] + a;
      }
      continue;
    }
    for (R_xlen_t j = 0; j < d; ++j) {
      for (R_xlen_t i = 0; i < d; ++i) {
        const R_xlen_t ij = i + j * d;
        const double a = fp::prep_pooled_term(sg[ij], w[i], w[j], ng, mu[i], mu[j]);
        c[ij] = (g == 0) ? a : c[ij] + a;
      }
    }
  }
  const R_xlen_t len = diag_only ? d : d * d;
  for (R_xlen_t ij = 0; ij < len; ++ij) c[ij] /= denom;
  for (R_xlen_t ij = 0; scaled && ij < len; ++ij) c[ij] /= s;
  if (diag_only) return dgv;
  Rf_setAttrib(out, R_DimNamesSymbol, dimnames);
  return out;
}

// fp_prepare_cov() written into `out`, a d x d double matrix of the caller's that no one else
// holds (R/prepare.R's one work matrix per prepared problem, refilled group after group), with
// the dimnames of the scatter; with `mu` (the group's weighted mean) the second moment of
// fp_prepare_second() instead. Returns `out`.
// [[Rcpp::export(.fp_prepare_cov_into)]]
SEXP fp_prepare_cov_into(SEXP out, const Rcpp::NumericMatrix& scatter, const Rcpp::NumericVector& w, double ng,
                         double s, SEXP mu = R_NilValue) {
  const R_xlen_t d = w.size();
  if (!Rf_isReal(out) || Rf_xlength(out) != d * d || scatter.nrow() != d || scatter.ncol() != d ||
      (!Rf_isNull(mu) && (!Rf_isReal(mu) || Rf_xlength(mu) != d)))
    Rcpp::stop("internal error: moments of mismatched sizes");
  fp::prep_group_fill(REAL(out), scatter.begin(), w.begin(), ng, Rf_isNull(mu) ? nullptr : REAL(mu), s, d);
  Rf_setAttrib(out, R_DimNamesSymbol, Rf_getAttrib(scatter, R_DimNamesSymbol));
  return out;
}

// One group's covariance in a prepared problem, cov_g / s, from its scatter with the operations
// of fp_prepare_moments() (the same values as when it stores them; keep_cov = FALSE builds them
// here on demand, one at a time), or only its diagonal (`diag_only`: a vector of length d).
// [[Rcpp::export(.fp_prepare_cov)]]
Rcpp::NumericVector fp_prepare_cov(const Rcpp::NumericMatrix& scatter, const Rcpp::NumericVector& w, double ng,
                                   double s, bool diag_only) {
  const R_xlen_t d = w.size();
  if (scatter.nrow() != d || scatter.ncol() != d) Rcpp::stop("internal error: moments of mismatched sizes");
  const double* sp = scatter.begin();
  if (diag_only) {
    Rcpp::NumericVector out(Rcpp::no_init(d));
    for (R_xlen_t i = 0; i < d; ++i) out[i] = fp::prep_cov_entry(sp[i + i * d], w[i], w[i], ng) / s;
    return out;
  }
  Rcpp::NumericMatrix out(Rcpp::no_init(d, d));
  fp_prepare_cov_into(out, scatter, w, ng, s);
  return out;
}

// One group's second moment in a prepared problem, (cov_g + tcrossprod(mean[, g])) / s, from its
// scatter as fp_prepare_moments() builds cov_g (the same values as when it was stored).
// [[Rcpp::export(.fp_prepare_second)]]
Rcpp::NumericMatrix fp_prepare_second(const Rcpp::NumericMatrix& scatter, const Rcpp::NumericVector& w, double ng,
                                      const Rcpp::NumericVector& mu, double s) {
  const R_xlen_t d = w.size();
  if (scatter.nrow() != d || scatter.ncol() != d || mu.size() != d) Rcpp::stop("internal error: moments of mismatched sizes");
  Rcpp::NumericMatrix out(Rcpp::no_init(d, d));
  fp::prep_group_fill(out.begin(), scatter.begin(), w.begin(), ng, mu.begin(), s, d);
  SEXP dn = Rf_getAttrib(scatter, R_DimNamesSymbol);
  if (!Rf_isNull(dn)) out.attr("dimnames") = dn;
  return out;
}

// Whether a square matrix is exactly symmetric (every pair of entries equal bit for bit), read in
// place: then (A + t(A)) / 2 would return A itself, and callers use A without that copy.
// [[Rcpp::export(.fp_is_symmetric_exact)]]
bool fp_is_symmetric_exact(const Eigen::Map<Eigen::MatrixXd>& A) {
  const Eigen::Index d = A.rows();
  if (A.cols() != d) return false;
  for (Eigen::Index j = 0; j < d; ++j)
    for (Eigen::Index i = j + 1; i < d; ++i)
      if (std::memcmp(&A(i, j), &A(j, i), sizeof(double)) != 0) return false;
  return true;
}

// The constraint's complement in mean-matching PCA (fp_mean_complement() in R/pca-mean.R):
// with Q the orthogonal factor of a LAPACK QR (qr, d x r, and tau), W = Q' (Q' M)' and the
// result (W + t(W)) / 2 over its trailing d - r rows and columns: the values of R's
//   W <- qr.qty(qrq, t(qr.qty(qrq, M))); W <- W[-(1:r), -(1:r)]; (W + t(W)) / 2
// (the same LAPACK calls, the transpose and the two operations per entry), in one work copy of
// M and the result instead of six d x d matrices, or with `overwrite` in M itself (a work matrix
// of the caller's that no one else reads afterwards: R/prepare.R's, holding C); `dimnames` (or
// NULL) set on the result.
// [[Rcpp::export(.fp_complement_sym)]]
Rcpp::NumericMatrix fp_complement_sym(SEXP M, const Rcpp::NumericMatrix& qr, const Rcpp::NumericVector& tau, int r,
                                      SEXP dimnames, bool overwrite = false) {
  if (!Rf_isReal(M) || !Rf_isMatrix(M)) Rcpp::stop("internal error: a complement of a matrix that is not double");
  const int d = Rf_nrows(M);
  if (Rf_ncols(M) != d || qr.nrow() != d || tau.size() != qr.ncol() || r < 1 || r > d)
    Rcpp::stop("internal error: a complement of mismatched sizes");
  const size_t dd = static_cast<size_t>(d) * d;
  std::vector<double> copy(overwrite ? 0 : dd);
  if (!overwrite) std::copy(REAL(M), REAL(M) + dd, copy.begin());
  double* W = overwrite ? REAL(M) : copy.data();
  const int k = static_cast<int>(tau.size());
  if (!fp::lapack_qty(qr.begin(), tau.begin(), d, k, W, d)) Rcpp::stop("LAPACK failed in the constraint's complement");
  for (int j = 0; j < d; ++j)
    for (int i = j + 1; i < d; ++i) std::swap(W[i + static_cast<size_t>(j) * d], W[j + static_cast<size_t>(i) * d]);
  if (!fp::lapack_qty(qr.begin(), tau.begin(), d, k, W, d)) Rcpp::stop("LAPACK failed in the constraint's complement");
  const int p = d - r;
  Rcpp::NumericMatrix out(Rcpp::no_init(p, p));
  double* o = out.begin();
  for (int j = 0; j < p; ++j)
    for (int i = 0; i < p; ++i)
      o[i + static_cast<size_t>(j) * p] = (W[(r + i) + static_cast<size_t>(r + j) * d] + W[(r + j) + static_cast<size_t>(r + i) * d]) / 2;
  if (!Rf_isNull(dimnames)) out.attr("dimnames") = dimnames;
  return out;
}
