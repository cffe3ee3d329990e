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

// Floor of the magnitude a min-max duality gap is measured against, as a fraction of the
// problem's scale: a gap is relative to max(|bound|, gap_floor * scale), so an optimum near 0
// does not ask for a gap of 0 (the dual and exact solvers' stopping tests).
constexpr double gap_floor = 1e-12;

// An eigenvalue of the restricted min-max primal above this keeps its direction when the dual
// compresses its subspace (minmax_dual.h).
constexpr double primal_weight = 1e-12;

// A smoothed Fantope weight (Fermi-Dirac, in [0, 1]) within this of 0 or of 1 counts as 0 or 1:
// the weight is integral to 8 digits (the restricted min-max problem's size and pins).
constexpr double weight_integral = 1e-8;

// Armijo's sufficient-decrease fraction of a backtracking line search (INLP's classifiers,
// MbF-PCA's retraction).
constexpr double armijo = 1e-4;

// A relative change of the objective below this ends a descent that has stalled (MbF-PCA).
constexpr double stall = 1e-13;

// Branch and bound skips a subtree only when its lower bound exceeds the best value found by more
// than this fraction of it (column subset selection's exhaustive search).
constexpr double prune = 1e-9;

// Two ratios of the simplex's ratio test within this of each other are tied (the row of the
// smaller basic variable leaves: Bland's rule).
constexpr double ratio_tie = 1e-14;

// A bracket of a one-dimensional root search narrower than this fraction of its end (or of 1)
// has reached the resolution of doubles (the Fantope shift, CFPCA's multiplier search).
constexpr double bracket = 1e-15;

}  // namespace tol
}  // namespace fp

#endif
