// What a solver needs from whoever runs it, in plain C++: a check for the user's interrupt, a
// progress report and an error type. Solvers include this header and never Rcpp; the exported
// entry points, the only code that speaks R, implement check_interrupt() once (rcpp_entry.cpp)
// and turn a solver_error into the R error it has always been (rcpp_entry.h).
#ifndef FAIRPROJ_RUNTIME_H
#define FAIRPROJ_RUNTIME_H

#include <functional>
#include <stdexcept>
#include <string>

namespace fp {

// A solver's failure (inputs it cannot use, a factorisation that failed); what() is the message
// R shows.
struct solver_error : std::runtime_error {
  explicit solver_error(const std::string& what) : std::runtime_error(what) {}
};

// Returns when the user has not asked to interrupt; otherwise unwinds to the entry point, which
// hands the interrupt to R (the semantics of R_CheckUserInterrupt()).
void check_interrupt();

// A progress report: called with the number (1-based) of the step just done; empty = none.
typedef std::function<void(int)> Progress;

}  // namespace fp

#endif
