// R's LAPACK path of the dense symmetric eigendecomposition. Armadillo forwards to the LAPACK
// R links to (reference, OpenBLAS, MKL, Accelerate), so an optimised library speeds this up.
#include <RcppArmadillo.h>
#include "backend.h"

namespace fp {

bool lapack_eig_sym(const double* A, int d, double* values, double* vectors) {
  arma::mat M(const_cast<double*>(A), d, d, false, true);
  arma::vec val;
  arma::mat vec;
  bool ok = arma::eig_sym(val, vec, M, "dc");
  if (!ok) return false;
  std::copy(val.begin(), val.end(), values);
  std::copy(vec.begin(), vec.end(), vectors);
  return true;
}

}  // namespace fp
