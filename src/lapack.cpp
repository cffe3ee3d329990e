// R's BLAS/LAPACK path of the hot kernels. Armadillo forwards to the BLAS/LAPACK R links to
// (reference, OpenBLAS, MKL, Accelerate), so an optimised BLAS speeds these up.
#include <RcppArmadillo.h>
#include <R_ext/BLAS.h>
#include "backend.h"

#ifndef FCONE
#define FCONE
#endif

namespace fp {

int& backend_flag() {
  static int flag = 0;
  return flag;
}

void blas_syrk_lower(int d, int rows, const double* A, int lda, double* C) {
  if (rows <= 0) return;
  const char uplo = 'L', trans = 'T';
  const double one = 1.0;
  F77_CALL(dsyrk)(&uplo, &trans, &d, &rows, &one, A, &lda, &one, C, &d FCONE FCONE);
}

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

// [[Rcpp::export(.fp_set_backend)]]
int fp_set_backend(int flag) {
  fp::backend_flag() = flag;
  return flag;
}
