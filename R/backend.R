.fp_state <- new.env(parent = emptyenv())

#' Linear-algebra backend used by fairproj
#'
#' The hot kernels (Gram matrices in [group_moments()], dense symmetric eigendecompositions)
#' exist in two versions: R's BLAS/LAPACK (fast when R is linked to an optimised BLAS such as
#' OpenBLAS, MKL or Accelerate) and Eigen's own kernels (much faster than the reference BLAS).
#'
#' The choice is deterministic: it follows from the BLAS and LAPACK libraries R is linked to,
#' as reported by [extSoftVersion()] and [La_library()] (symbolic links resolved). An optimised
#' library (OpenBLAS, MKL, BLIS, ATLAS, Accelerate/vecLib, Arm PL) selects `"blas"`; the
#' reference BLAS (R's own `libRblas` or the netlib `libblas`) selects `"eigen"`. Only when
#' the library is not recognised (for example FlexiBLAS, which switches libraries at run time)
#' does the package fall back to timing both kernels once per session on a small problem, and
#' then picks BLAS only when it is clearly faster (by 20 %), so a loaded machine does not flip
#' the choice. Set `options(fairproj.backend = "blas")` or `"eigen"` to force a choice (the
#' option wins over everything, in every session where it is set).
#'
#' @param recalibrate Logical; `TRUE` times both kernels again, even when the library is
#'   recognised (the result is reported but the choice stays the one the library implies,
#'   unless the library is not recognised).
#' @return A list with `backend` (`"blas"` or `"eigen"`), `source` (`"option"`, `"library"`
#'   or `"calibration"`), `blas` (the BLAS library path and its kind: `"optimized"`,
#'   `"reference"` or `"unknown"`) and, after a calibration, the `timings` (seconds) of both
#'   kernels.
#' @seealso [group_moments()], [fair_pca()].
#' @examples
#' fairproj_backend()
#' @export
fairproj_backend <- function(recalibrate = FALSE) {
  fp_check_flag(recalibrate, "recalibrate")
  if (is.null(.fp_state$blas)) .fp_state$blas <- fp_blas_kind()
  kind <- .fp_state$blas
  opt <- getOption("fairproj.backend")
  if (!is.null(opt)) {
    if (!(is.character(opt) && length(opt) == 1L && opt %in% c("blas", "eigen", "auto"))) {
      fp_abort("must be \"blas\", \"eigen\" or \"auto\"", "options(fairproj.backend)")
    }
    if (opt != "auto") {
      fp_use_backend(opt)
      return(list(backend = opt, source = "option", blas = kind, timings = .fp_state$timings))
    }
  }
  if (recalibrate) fp_calibrate()
  if (is.null(.fp_state$backend)) {
    if (kind$kind == "unknown") {
      if (is.null(.fp_state$timings)) fp_calibrate()
      t <- .fp_state$timings
      .fp_state$backend <- if (t[["blas"]] < 0.8 * t[["eigen"]]) "blas" else "eigen"
      .fp_state$source <- "calibration"
    } else {
      .fp_state$backend <- if (kind$kind == "optimized") "blas" else "eigen"
      .fp_state$source <- "library"
    }
  }
  fp_use_backend(.fp_state$backend)
  list(backend = .fp_state$backend, source = .fp_state$source, blas = kind, timings = .fp_state$timings)
}

# What kind of BLAS R is linked to, from the library paths (symbolic links resolved).
fp_blas_kind <- function(blas = extSoftVersion()[["BLAS"]], lapack = La_library()) {
  paths <- c(blas, lapack)
  paths <- paths[!is.na(paths) & nzchar(paths)]
  resolved <- vapply(paths, function(p) tryCatch(normalizePath(p, mustWork = FALSE), error = function(e) p),
                     character(1), USE.NAMES = FALSE)
  s <- tolower(paste(c(paths, resolved), collapse = " "))
  kind <- if (!nzchar(s) || grepl("flexiblas", s)) {
    "unknown"
  } else if (grepl("openblas|mkl|blis|atlas|accelerate|veclib|armpl|essl", s)) {
    "optimized"
  } else if (grepl("librblas|/blas/libblas|refblas|netlib|libblas\\.so|libblas\\.dylib|libblas\\.dll", s)) {
    "reference"
  } else {
    "unknown"
  }
  list(library = if (length(paths)) paths[1] else "", kind = kind)
}

fp_use_backend <- function(name) {
  fp_cpp(.fp_set_backend(if (identical(name, "blas")) 1L else 0L), "the backend switch")
  invisible(name)
}

# Time both Gram kernels on a 2048 x 192 block (a few milliseconds to a tenth of a second).
fp_calibrate <- function(n = 2048L, d = 192L) {
  a <- matrix(sin(seq_len(n * d) * 0.7), n, d)  # deterministic: leaves the RNG alone
  time_it <- function(which) {
    best <- Inf
    for (r in 1:3) {
      t0 <- proc.time()[["elapsed"]]
      fp_cpp(.fp_gram_kernel(a, which), "the Gram kernel")
      best <- min(best, proc.time()[["elapsed"]] - t0)
    }
    best
  }
  t_eigen <- time_it(0L)
  t_blas <- time_it(1L)
  .fp_state$timings <- c(blas = t_blas, eigen = t_eigen)
  invisible(.fp_state$timings)
}

# Called before a heavy kernel. The choice follows the linked library; when the library is not
# recognised, small problems use Eigen rather than paying for a calibration.
fp_backend_for <- function(work) {
  opt <- getOption("fairproj.backend")
  if (is.null(.fp_state$backend) && is.null(opt) && work < 5e7 && fp_blas_kind()$kind == "unknown") {
    fp_use_backend("eigen")
    return("eigen")
  }
  fairproj_backend()$backend
}
