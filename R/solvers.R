# The solver registry: a method is a function fit_<kind>_<method>() of the namespace, found by
# name, its arguments checked once per fit by the door (fp_check_solver_args()), and called by
# fp_call_solver().

#' List the methods available
#'
#' @param kind `"pca"` for [fair_pca()] methods, `"css"` for column subset selection.
#' @return A character vector of method names.
#' @seealso [fair_pca()], [fair_css()].
#' @examples
#' fairproj_methods()
#' @export
fairproj_methods <- function(kind = c("pca", "css")) {
  kind <- fp_match_arg(kind, c("pca", "css"), "kind")
  ns <- asNamespace("fairproj")
  pat <- paste0("^fit_", kind, "_")
  sort(sub(pat, "", ls(ns, pattern = pat)))
}

fp_check_method <- function(method, kind, arg = "method") {
  # a method is a solver fit_<kind>_<method> of the namespace (as fairproj_methods() lists them):
  # looked up directly; the list is built only for the error message
  if (is.character(method) && length(method) == 1L && !is.na(method) && nzchar(method) &&
      exists(paste0("fit_", kind, "_", method), envir = asNamespace("fairproj"), mode = "function", inherits = FALSE)) {
    return(method)
  }
  avail <- fairproj_methods(kind)
  if (!is.character(method) || length(method) != 1L || is.na(method)) {
    fp_abort(sprintf("must be one string, one of: %s", paste(dQuote(avail, FALSE), collapse = ", ")), arg)
  }
  if (!method %in% avail) {
    fp_abort(sprintf("'%s' is not available; choose one of: %s", method,
                     paste(dQuote(avail, FALSE), collapse = ", ")), arg)
  }
  method
}

# The solver function of a method of `kind` ("pca", "css").
fp_solver <- function(kind, method) {
  get(paste0("fit_", kind, "_", method), envir = asNamespace("fairproj"), mode = "function")
}

# The solver of a method, after checking the names `nm` of the `n` further arguments given to it
# (...names() of the caller: checked before the arguments are evaluated, so that an argument the
# method does not take, such as model.frame()'s `weights`, is a classed error and not R's
# "object not found" from evaluating it).
fp_check_solver_args <- function(kind, method, nm, n) {
  solver <- fp_solver(kind, method)
  known <- setdiff(names(formals(solver)), c("prep", "k", "data", "..."))
  if (n > 0L) {
    if (is.null(nm) || any(is.na(nm) | nm == "")) fp_abort(sprintf("arguments of method '%s' must be named", method), "...")
    bad <- setdiff(nm, known)
    if (length(bad)) {
      fp_abort(sprintf("has argument(s) that method '%s' does not take: %s%s", method,
                       paste(bad, collapse = ", "),
                       if (length(known)) paste0(" (it takes: ", paste(known, collapse = ", "), ")") else ""), "...")
    }
  }
  solver
}

# Call a solver with arguments `dots` that its door has checked (fp_check_solver_args(), once
# per fit, before they were evaluated); anything else that goes wrong in it is ours.
fp_call_solver <- function(kind, method, prep, k, dots, data) {
  solver <- fp_solver(kind, method)
  tryCatch(do.call(solver, c(list(prep = prep, k = k, data = data), dots)),
           error = function(e) {
             if (inherits(e, "fairproj_error")) stop(e)
             # anything else from a solver (compiled code, or R's own numerical routines) is ours
             fp_internal_error(sprintf("method '%s'", method), conditionMessage(e))
           })
}
