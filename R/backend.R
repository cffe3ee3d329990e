.fp_state <- new.env(parent = emptyenv())

#' Linear-algebra backend used by fairproj
#'
#' The hot kernels (Gram matrices in [group_moments()], dense symmetric eigendecompositions)
#' exist in two versions: R's BLAS/LAPACK (fast when R is linked to an optimised BLAS such as
#' OpenBLAS, MKL or Accelerate) and Eigen's own kernels (much faster than the reference BLAS).
#' On first large use the package times both on a small problem and keeps the faster one for
#' the session. Set `options(fairproj.backend = "blas")` or `"eigen"` to force a choice.
#'
#' @param recalibrate Logical; `TRUE` times both kernels again.
#' @return A list with `backend` (`"blas"` or `"eigen"`), `source` (`"option"`,
#'   `"calibration"` or `"default"`) and, after a calibration, the timings (seconds) of both.
#' @examples
#' fairproj_backend()
#' @export
fairproj_backend <- function(recalibrate = FALSE) {
  fp_check_flag(recalibrate, "recalibrate")
  opt <- getOption("fairproj.backend")
  if (!is.null(opt)) {
    if (!(is.character(opt) && length(opt) == 1L && opt %in% c("blas", "eigen", "auto"))) {
      fp_abort("must be \"blas\", \"eigen\" or \"auto\"", "options(fairproj.backend)")
    }
    if (opt != "auto") {
      fp_use_backend(opt)
      return(list(backend = opt, source = "option", timings = .fp_state$timings))
    }
  }
  if (recalibrate || is.null(.fp_state$backend)) fp_calibrate()
  fp_use_backend(.fp_state$backend)
  list(backend = .fp_state$backend, source = .fp_state$source, timings = .fp_state$timings)
}

fp_use_backend <- function(name) {
  .fp_set_backend(if (identical(name, "blas")) 1L else 0L)
  invisible(name)
}

# Time both Gram kernels on a 2048 x 192 block (a few milliseconds to a tenth of a second).
fp_calibrate <- function(n = 2048L, d = 192L) {
  a <- matrix(sin(seq_len(n * d) * 0.7), n, d)  # deterministic: leaves the RNG alone
  time_it <- function(which) {
    best <- Inf
    for (r in 1:3) {
      t0 <- proc.time()[["elapsed"]]
      .fp_gram_kernel(a, which)
      best <- min(best, proc.time()[["elapsed"]] - t0)
    }
    best
  }
  t_eigen <- time_it(0L)
  t_blas <- time_it(1L)
  .fp_state$timings <- c(blas = t_blas, eigen = t_eigen)
  .fp_state$backend <- if (t_blas < t_eigen) "blas" else "eigen"
  .fp_state$source <- "calibration"
  invisible(.fp_state$backend)
}

# Called before a heavy kernel: small problems use Eigen without calibrating.
fp_backend_for <- function(work) {
  opt <- getOption("fairproj.backend")
  if (is.null(.fp_state$backend) && is.null(opt) && work < 5e7) {
    fp_use_backend("eigen")
    return("eigen")
  }
  fairproj_backend()$backend
}
