// Threads of the row pass (OpenMP, where the compiler has it; see group_moments()'s help and
// moments_onepass.h). Plain C++: the user's interrupt is checked by the calling thread between
// parallel regions (fp::check_interrupt() of runtime.h), never from inside one.
//
// Two things a parallel region over the rows needs and R does not give (threads.h):
// * how many threads may run (the cores OpenMP sees, within OMP_THREAD_LIMIT);
// * the BLAS called single-threaded from inside the region: OpenBLAS's pthreads build would
//   otherwise start its own threads in each of ours (two threads of ours times two of its on two
//   cores). Its thread count is lowered to one for the region and restored after, through its
//   own openblas_get/set_num_threads found at run time (no link-time dependency on OpenBLAS;
//   MKL and OpenBLAS's OpenMP build already run one thread inside a parallel region).
#include <algorithm>
#include "threads.h"

namespace fp {

// The most threads a parallel region may use: 1 without OpenMP.
int threads_max() {
#ifdef _OPENMP
  return std::max(1, std::min(omp_get_num_procs(), omp_get_thread_limit()));
#else
  return 1;
#endif
}

}  // namespace fp

// The most threads the row pass can use here (1 when fairproj was compiled without OpenMP).
// [[Rcpp::export(.fp_threads_max)]]
int fp_threads_max() { return fp::threads_max(); }
