// The seam between R and the solvers, for the exported entry points only: they convert their
// R inputs once, run the solver through run() and build the R result once. Solvers see none of
// this (runtime.h is their side of the seam).
#ifndef FAIRPROJ_RCPP_ENTRY_H
#define FAIRPROJ_RCPP_ENTRY_H

#include <RcppEigen.h>
#include <string>
#include <vector>
#include "linalg.h"
#include "runtime.h"

namespace fp {
namespace rcpp {

// Runs a solver call; a solver_error becomes the R error it has always been (Rcpp::stop() with
// the same message, so the condition and its class are those of before).
template <class F>
auto run(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const fp::solver_error& e) {
    Rcpp::stop(e.what());
  }
}

// A list of numeric matrices as Eigen matrices (copies).
inline std::vector<Eigen::MatrixXd> as_mats(const Rcpp::List& mats) {
  std::vector<Eigen::MatrixXd> out;
  out.reserve(mats.size());
  for (R_xlen_t g = 0; g < mats.size(); ++g) {
    Rcpp::NumericMatrix a = mats[g];
    out.push_back(Eigen::Map<Eigen::MatrixXd>(a.begin(), a.nrow(), a.ncol()));
  }
  return out;
}

// A list of numeric matrices as read-only Eigen maps onto R's storage (no copy). An element that
// is not a double matrix is converted as as_mats() converts it (Rcpp::NumericMatrix: coerced, or
// the same error); the converted copy is held in `keep`, which must outlive the maps.
inline std::vector<fp::MatMap> as_maps(const Rcpp::List& mats, std::vector<Rcpp::NumericMatrix>& keep) {
  std::vector<fp::MatMap> out;
  out.reserve(mats.size());
  for (R_xlen_t g = 0; g < mats.size(); ++g) {
    SEXP x = mats[g];
    if (TYPEOF(x) == REALSXP && Rf_isMatrix(x)) {
      const int* dim = INTEGER(Rf_getAttrib(x, R_DimSymbol));
      out.push_back(fp::MatMap(REAL(x), dim[0], dim[1]));
    } else {
      keep.push_back(Rcpp::NumericMatrix(x));
      const Rcpp::NumericMatrix& a = keep.back();
      out.push_back(fp::MatMap(a.begin(), a.nrow(), a.ncol()));
    }
  }
  return out;
}

// The options of an entry point: one named list that R builds and checks once, read here by
// name (RSpectra's `opts`). get() returns the named value, or `fallback` when the list lacks it;
// done() fails on a name that no get() read, so that a misspelt option, or the option of another
// solver, never passes silently.
class Options {
 public:
  explicit Options(const Rcpp::List& opts) : opts_(opts) {
    if (opts_.size() && !opts_.hasAttribute("names")) Rcpp::stop("internal error: the options must be named");
    if (opts_.size()) names_ = Rcpp::as<std::vector<std::string>>(opts_.names());
    read_.assign(names_.size(), false);
  }
  template <class T>
  T get(const std::string& name, const T& fallback) {
    for (size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == name) {
        read_[i] = true;
        return Rcpp::as<T>(opts_[static_cast<R_xlen_t>(i)]);
      }
    }
    return fallback;
  }
  void done() const {
    for (size_t i = 0; i < names_.size(); ++i)
      if (!read_[i]) Rcpp::stop("internal error: unknown option '" + names_[i] + "'");
  }

 private:
  Rcpp::List opts_;
  std::vector<std::string> names_;
  std::vector<bool> read_;
};

// An optional R function of one integer as a progress report (empty when NULL).
inline fp::Progress progress(const Rcpp::Nullable<Rcpp::Function>& cb) {
  if (cb.isNull()) return fp::Progress();
  Rcpp::Function f(cb.get());
  return [f](int step) { f(step); };
}

}  // namespace rcpp
}  // namespace fp

#endif
