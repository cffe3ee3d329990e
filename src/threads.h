// Threads of the row pass: see threads.cpp. Plain C++ (no R, no Rcpp).
#ifndef FAIRPROJ_THREADS_H
#define FAIRPROJ_THREADS_H

#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(_OPENMP) && !defined(_WIN32)
#include <dlfcn.h>
#define FP_HAVE_DLSYM 1
#endif

namespace fp {

// The most threads a parallel region may use (threads.cpp).
int threads_max();

// While alive, OpenBLAS (when it is R's BLAS and runs threads of its own) runs one thread.
class BlasSingleThread {
 public:
  BlasSingleThread() {
#ifdef FP_HAVE_DLSYM
    get_ = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
    set_ = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    if (get_ && set_) {
      saved_ = get_();
      if (saved_ > 1) set_(1);
    }
#endif
  }
  ~BlasSingleThread() {
    if (set_ && saved_ > 1) set_(saved_);
  }
  BlasSingleThread(const BlasSingleThread&) = delete;
  BlasSingleThread& operator=(const BlasSingleThread&) = delete;

 private:
  int (*get_)() = nullptr;
  void (*set_)(int) = nullptr;
  int saved_ = 0;
};

}  // namespace fp

#endif
