// The whole compiled library as one translation unit ("unity build"; Makevars lists only this
// object). Every file below includes the Rcpp and Eigen headers; compiled apart, each parsed
// them again and instantiated its own copies of the same Eigen kernels, which was most of the
// install time. Each file keeps its helpers in its own namespace (fp::<family>), so nothing
// collides here; a file still compiles on its own, and Rcpp::compileAttributes() still reads
// the exports from the files themselves. A new .cpp file is listed here and in FP_SOURCES of
// Makevars and Makevars.win.
//
// USE_FC_LEN_T comes first: every BLAS and LAPACK prototype then carries the hidden lengths of
// character arguments, whichever file includes R's headers first.
#define USE_FC_LEN_T
#include "rcpp_entry.cpp"
#include "linalg.cpp"
#include "rows.cpp"
#include "lapack.cpp"
#include "blas.cpp"
#include "cfpca.cpp"
#include "css.cpp"
#include "css_qr.cpp"
#include "css_exhaustive.cpp"
#include "css_prep.cpp"
#include "inlp.cpp"
#include "mbfpca.cpp"
#include "minmax.cpp"
#include "pareto.cpp"
#include "robust.cpp"
#include "threads.cpp"
#include "moments.cpp"
#include "groups.cpp"
#include "audit.cpp"
#include "RcppExports.cpp"
