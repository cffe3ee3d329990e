// Backend selection for the hot kernels (Gram matrices, dense eigendecompositions).
// 0 = Eigen's own kernels, 1 = R's BLAS/LAPACK. Chosen by a one-time calibration on the R side
// (fairproj_backend()) and passed down with .fp_set_backend().
#ifndef FAIRPROJ_BACKEND_H
#define FAIRPROJ_BACKEND_H

namespace fp {
int& backend_flag();
// C = C + alpha * A' A for A (rows x d, column-major, leading dimension lda), lower triangle only.
void blas_syrk_lower(int d, int rows, const double* A, int lda, double* C);
// C = A B for A (n x d), B (d x k) and C (n x k), column-major (R's BLAS dgemm).
void blas_gemm(int n, int d, int k, const double* A, const double* B, double* C);
// All eigenpairs of a symmetric d x d matrix with LAPACK (dsyevd); values ascending.
bool lapack_eig_sym(const double* A, int d, double* values, double* vectors);
// All eigenvalues of a symmetric n x n matrix, ascending, by R's own LAPACK call for them (dsyevr;
// the lower triangle of `a` is read and `a` overwritten); false on a LAPACK failure.
bool lapack_sym_values(double* a, int n, double* values);
// B := Q' B in place (n x nrhs), Q the n x n orthogonal factor of a LAPACK QR (qr, n x k, and
// tau) as R's qr.qty() applies it (dormqr after a workspace query); false on a LAPACK failure.
bool lapack_qty(const double* qr, const double* tau, int n, int k, double* B, int nrhs);
}  // namespace fp

#endif
