// The entry-point side of runtime.h: the one place where a solver's interrupt check reaches R.
#include <Rcpp.h>
#include "runtime.h"

namespace fp {

void check_interrupt() { Rcpp::checkUserInterrupt(); }

}  // namespace fp
