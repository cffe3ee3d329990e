// R's BLAS path of the Gram kernel, and the backend switch (set from R by .fp_set_backend(),
// exported from moments.cpp, so that this file needs no Rcpp headers).
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

}  // namespace fp
