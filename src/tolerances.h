// The tolerances that more than one place of src/ uses, named once (values, not units: every
// solver works on a problem normalised to order one, see fp_prepare_normalised()).
#ifndef FAIRPROJ_TOLERANCES_H
#define FAIRPROJ_TOLERANCES_H

namespace fp {
namespace tol {

// A positive floor for a divisor or a scale that may be zero: keeps a quotient finite without
// changing it wherever the divisor is a number of any meaningful size.
constexpr double tiny = 1e-300;

// Relative tolerance of the Lanczos eigensolver (Spectra) on a matrix scaled to order one.
constexpr double lanczos = 1e-12;

// Singular values below this fraction of the largest count as zero (the pseudo-inverses of the
// Pareto descent's constraint restoration).
constexpr double rank = 1e-10;

// Convergence tolerance of INLP's linear classifiers (relative decrease of the loss).
constexpr double classifier = 1e-10;

// A weight of the minimum-norm point (Wolfe's method) at or below this counts as zero.
constexpr double weight_zero = 1e-15;

}  // namespace tol
}  // namespace fp

#endif
