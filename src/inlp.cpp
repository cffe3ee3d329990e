// INLP (Ravfogel et al. 2020): iterative nullspace projection. Repeatedly fit a linear classifier
// of the group on the data projected so far, and project its weight direction out:
//   P <- P - u u',  u = P w / |P w|.
// Classifiers (L2-regularised, Newton's method on the primal):
//   logistic:  1/2 |w|^2 + C sum log(1 + exp(-y_i (w'x_i + b)))
//   svm:       1/2 |w|^2 + C sum max(0, 1 - y_i (w'x_i + b))^2   (LinearSVC's default loss)
// The intercept b (when used) is not penalised.
#include "linalg.h"
#include "runtime.h"
#include "tolerances.h"
#include "rcpp_entry.h"

namespace fp {
namespace inlp {

using fp::Mat;
using fp::Vec;

struct Fit {
  Vec w;
  double b;
  double acc;
};

// Newton's method with backtracking; X is n x d, y in {-1, +1}.
Fit fit_linear(const Mat& X, const Vec& y, int type, double C, bool intercept, int maxit, double tol) {
  const int n = static_cast<int>(X.rows()), d = static_cast<int>(X.cols());
  const int p = d + (intercept ? 1 : 0);
  Vec beta = Vec::Zero(p);
  auto margins = [&](const Vec& bt) {
    Vec f = X * bt.head(d);
    if (intercept) f.array() += bt(d);
    return f;
  };
  auto objective = [&](const Vec& bt) {
    Vec m = margins(bt).cwiseProduct(y);
    double reg = 0.5 * bt.head(d).squaredNorm(), loss = 0.0;
    for (int i = 0; i < n; ++i) {
      if (type == 0) loss += (m(i) > 0) ? std::log1p(std::exp(-m(i))) : (-m(i) + std::log1p(std::exp(m(i))));
      else { double h = std::max(0.0, 1.0 - m(i)); loss += h * h; }
    }
    return reg + C * loss;
  };
  double fcur = objective(beta);
  for (int it = 0; it < maxit; ++it) {
    Vec m = margins(beta).cwiseProduct(y);
    Vec gcoef(n), hcoef(n);  // dloss/dmargin_i * y_i and the curvature weights
    for (int i = 0; i < n; ++i) {
      if (type == 0) {
        double s = 1.0 / (1.0 + std::exp(m(i)));  // sigma(-m)
        gcoef(i) = -s * y(i);
        hcoef(i) = s * (1.0 - s);
      } else {
        double h = 1.0 - m(i);
        gcoef(i) = h > 0 ? -2.0 * h * y(i) : 0.0;
        hcoef(i) = h > 0 ? 2.0 : 0.0;
      }
    }
    Vec grad(p);
    grad.head(d) = beta.head(d) + C * X.transpose() * gcoef;
    if (intercept) grad(d) = C * gcoef.sum();
    Mat H = Mat::Zero(p, p);
    Mat Xw = X.array().colwise() * hcoef.array().sqrt();
    H.topLeftCorner(d, d) = C * (Xw.transpose() * Xw);
    H.topLeftCorner(d, d).diagonal().array() += 1.0;
    if (intercept) {
      Vec xh = X.transpose() * hcoef;
      H.block(0, d, d, 1) = C * xh;
      H.block(d, 0, 1, d) = C * xh.transpose();
      H(d, d) = C * hcoef.sum() + 1e-10;
    }
    Vec step = H.ldlt().solve(-grad);
    double slope = grad.dot(step);
    if (!(slope < 0)) break;
    double t = 1.0, fn = fcur;
    Vec bn = beta;
    for (int bt = 0; bt < 50; ++bt) {
      bn = beta + t * step;
      fn = objective(bn);
      if (fn <= fcur + fp::tol::armijo * t * slope) break;
      t *= 0.5;
    }
    beta = bn;
    double dec = fcur - fn;
    fcur = fn;
    if (-slope < tol * std::max(1.0, std::fabs(fcur)) || dec <= 1e-14 * std::max(1.0, std::fabs(fcur))) break;
  }
  Fit r;
  r.w = beta.head(d);
  r.b = intercept ? beta(d) : 0.0;
  Vec f = margins(beta);
  int correct = 0;
  for (int i = 0; i < n; ++i) correct += ((f(i) > 0 ? 1.0 : -1.0) == y(i));
  r.acc = static_cast<double>(correct) / n;
  return r;
}

struct Result {
  Mat P;                    // the final projection
  Mat W;                    // the directions projected out, one per column
  std::vector<double> acc;  // the classifier's accuracy at each step
  double majority;          // the share of the larger class
};

// INLP on X (n x d) with labels y (> 0: one group): at most n_iter steps; `progress` (when set)
// receives the number of each classifier fit done.
inline Result solve(const Mat& X, const Vec& y, int n_iter, int type, double C, bool intercept, bool stop_at_majority,
                    const fp::Progress& progress = fp::Progress()) {
  const int n = static_cast<int>(X.rows()), d = static_cast<int>(X.cols());
  Mat Z = X;          // data projected so far
  Mat P = Mat::Identity(d, d);
  int npos = 0;
  for (int i = 0; i < n; ++i) npos += (y(i) > 0);
  const double majority = static_cast<double>(std::max(npos, n - npos)) / n;
  std::vector<double> acc;
  Mat W(d, 0);
  int it = 0;
  for (it = 0; it < n_iter; ++it) {
    fp::check_interrupt();
    Fit f = fit_linear(Z, Vec(y), type, C, intercept, 100, fp::tol::classifier);
    acc.push_back(f.acc);
    if (progress) progress(it + 1);
    if (stop_at_majority && f.acc <= majority + 1e-12) break;
    Vec u = P * f.w;
    double un = u.norm();
    if (!(un > 1e-12)) break;
    u /= un;
    P -= u * u.transpose();
    Z -= (Z * u) * u.transpose();
    W.conservativeResize(d, W.cols() + 1);
    W.col(W.cols() - 1) = u;
  }
  return Result{P, W, acc, majority};
}

}  // namespace inlp
}  // namespace fp


// [[Rcpp::export(.fp_linear_classifier)]]
Rcpp::List fp_linear_classifier_cpp(const Eigen::Map<Eigen::MatrixXd> X, const Eigen::Map<Eigen::VectorXd> y,
                                    int type, double C, bool intercept) {
  using namespace fp::inlp;
  const Fit f = fp::rcpp::run([&] { return fit_linear(Mat(X), Vec(y), type, C, intercept, 100, fp::tol::classifier); });
  return Rcpp::List::create(Rcpp::Named("w") = f.w, Rcpp::Named("b") = f.b, Rcpp::Named("accuracy") = f.acc);
}

// [[Rcpp::export(.fp_inlp)]]
Rcpp::List fp_inlp_cpp(const Eigen::Map<Eigen::MatrixXd> X, const Eigen::Map<Eigen::VectorXd> y,
                       int n_iter, int type, double C, bool intercept, bool stop_at_majority,
                       Rcpp::Nullable<Rcpp::Function> progress = R_NilValue) {
  using namespace fp::inlp;
  const fp::Progress pr = fp::rcpp::progress(progress);
  const Result r =
      fp::rcpp::run([&] { return solve(Mat(X), Vec(y), n_iter, type, C, intercept, stop_at_majority, pr); });
  return Rcpp::List::create(Rcpp::Named("P") = r.P, Rcpp::Named("directions") = r.W,
                            Rcpp::Named("accuracy") = r.acc, Rcpp::Named("majority") = r.majority,
                            Rcpp::Named("iterations") = static_cast<int>(r.W.cols()));
}
