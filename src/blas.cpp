// R's BLAS path of the Gram kernel, and the backend switch (set from R by .fp_set_backend(),
// exported from linalg.cpp, so that this file needs no Rcpp headers).
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

// C = C + A A' for A (d x rows, column-major: one row of the data per column, leading
// dimension lda), lower triangle only: the one-pass route's buffers (see moments.cpp).
void blas_syrk_lower_rows(int d, int rows, const double* A, int lda, double* C) {
  if (rows <= 0) return;
  const char uplo = 'L', trans = 'N';
  const double one = 1.0;
  F77_CALL(dsyrk)(&uplo, &trans, &d, &rows, &one, A, &lda, &one, C, &d FCONE FCONE);
}

// C = A B for A (n x d, leading dimension n), B (d x k) and C (n x k), all column-major.
void blas_gemm(int n, int d, int k, const double* A, const double* B, double* C) {
  if (n <= 0 || k <= 0) return;
  const char no = 'N';
  const double one = 1.0, zero = 0.0;
  F77_CALL(dgemm)(&no, &no, &n, &k, &d, &one, A, &n, B, &d, &zero, C, &n FCONE FCONE);
}

}  // namespace fp
