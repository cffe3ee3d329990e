// R's LAPACK path of the dense symmetric eigendecomposition: divide and conquer (dsyevd) from
// the LAPACK R links to (reference, OpenBLAS, MKL, Accelerate), so an optimised library speeds
// this up. Called directly: no template library is needed for one routine.
#define USE_FC_LEN_T
#include <Rconfig.h>
#include <R_ext/Lapack.h>
#include <algorithm>
#include <cmath>
#include <vector>
#include "backend.h"

#ifndef FCONE
#define FCONE
#endif

namespace fp {

// Only the upper triangle is read (uplo = "U"); false on a non-finite entry there or when
// LAPACK reports a failure, and the caller then uses Eigen's solver.
bool lapack_eig_sym(const double* A, int d, double* values, double* vectors) {
  for (int j = 0; j < d; ++j)
    for (int i = 0; i <= j; ++i)
      if (!std::isfinite(A[i + static_cast<size_t>(j) * d])) return false;
  std::copy(A, A + static_cast<size_t>(d) * d, vectors);
  if (d == 0) return true;
  const char jobz = 'V', uplo = 'U';
  int info = 0;
  int lwork = 1 + 6 * d + 2 * d * d, liwork = 3 + 5 * d;
  if (d >= 32) {  // workspace query: the blocked reduction to tridiagonal form wants more
    double wq = 0;
    int iq = 0, lq = -1, liq = -1;
    F77_CALL(dsyevd)(&jobz, &uplo, &d, vectors, &d, values, &wq, &lq, &iq, &liq, &info FCONE FCONE);
    if (info != 0) return false;
    lwork = std::max(lwork, static_cast<int>(wq));
    liwork = std::max(liwork, iq);
  }
  std::vector<double> work(lwork);
  std::vector<int> iwork(liwork);
  F77_CALL(dsyevd)(&jobz, &uplo, &d, vectors, &d, values, work.data(), &lwork, iwork.data(), &liwork,
                   &info FCONE FCONE);
  return info == 0;
}

// dsyevr with jobz "N", range "A", uplo "L", abstol 0 and the workspace LAPACK asks for: the call
// R's eigen(symmetric = TRUE, only.values = TRUE) makes (La_rs), so the values are R's to the bit.
bool lapack_sym_values(double* a, int n, double* values) {
  if (n == 0) return true;
  const char jobz = 'N', range = 'A', uplo = 'L';
  double vl = 0, vu = 0, abstol = 0, wq = 0, z = 0;
  int il = 0, iu = 0, m = 0, info = 0, lwork = -1, liwork = -1, iq = 0;
  std::vector<int> isuppz(2 * static_cast<size_t>(n));
  F77_CALL(dsyevr)(&jobz, &range, &uplo, &n, a, &n, &vl, &vu, &il, &iu, &abstol, &m, values, &z, &n,
                   isuppz.data(), &wq, &lwork, &iq, &liwork, &info FCONE FCONE FCONE);
  if (info != 0) return false;
  lwork = static_cast<int>(wq);
  liwork = iq;
  std::vector<double> work(std::max(lwork, 1));
  std::vector<int> iwork(std::max(liwork, 1));
  F77_CALL(dsyevr)(&jobz, &range, &uplo, &n, a, &n, &vl, &vu, &il, &iu, &abstol, &m, values, &z, &n,
                   isuppz.data(), work.data(), &lwork, iwork.data(), &liwork, &info FCONE FCONE FCONE);
  return info == 0;
}

bool lapack_qty(const double* qr, const double* tau, int n, int k, double* B, int nrhs) {
  const char side = 'L', trans = 'T';
  int info = 0, lwork = -1;
  double wq = 0;
  F77_CALL(dormqr)(&side, &trans, &n, &nrhs, &k, qr, &n, tau, B, &n, &wq, &lwork, &info FCONE FCONE);
  if (info != 0) return false;
  lwork = static_cast<int>(wq);
  std::vector<double> work(std::max(lwork, 1));
  F77_CALL(dormqr)(&side, &trans, &n, &nrhs, &k, qr, &n, tau, B, &n, work.data(), &lwork, &info FCONE FCONE);
  return info == 0;
}

}  // namespace fp
