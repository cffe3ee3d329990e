# broom's generics (through the generics package), re-exported, and the helpers that the tidiers
# of several classes share. Each class's tidy(), glance() and augment() live in its methods file
# (R/methods-fair_pca.R, R/methods-fair_kpca.R, R/methods-fair_css.R, ...).

#' @importFrom generics tidy
#' @export
generics::tidy

#' @importFrom generics glance
#' @export
generics::glance

#' @importFrom generics augment
#' @export
generics::augment

# A count of rows for nobs() and glance(): an integer, as stats' and broom's are, or a double
# where it is beyond R's integers (moments of a table of billions of rows).
fp_count_value <- function(n) if (n <= .Machine$integer.max) as.integer(n) else as.double(n)

# A score matrix in long form (row, PC, value), rows named by row name or number.
fp_scores_long <- function(S) {
  rn <- rownames(S)
  if (is.null(rn)) rn <- as.character(seq_len(nrow(S)))
  data.frame(row = rep(rn, ncol(S)), PC = rep(seq_len(ncol(S)), each = nrow(S)), value = as.vector(S),
             stringsAsFactors = FALSE)
}

# augment() of a fit with scores (fair_pca, fair_kpca). With rows (`newdata`, or `data`, which
# broom names the training data) each row gets the scores predict() gives it, computed from its
# own values: one output row per row of the data, in its order, whatever its class, order or
# subset, and `NA` scores for a row with a missing value (na.exclude semantics). Pairing rows
# with the stored training scores instead would need row identities that tibbles and
# data.tables do not carry. Without rows, the stored training scores with their row names.
fp_augment_scores <- function(x, data, newdata) {
  if (is.null(newdata) && is.null(data)) {
    s <- x[["x"]]
    if (is.null(s)) fp_abort("has no training scores (a fit from moments keeps none, retx = FALSE drops them): give the rows in `data`", "x")
    rn <- rownames(s)
    base <- data.frame(row.names = if (is.null(rn)) seq_len(nrow(s)) else rn)
  } else {
    arg <- if (is.null(newdata)) "data" else "newdata"
    rows <- if (is.null(newdata)) data else newdata
    if (!is.data.frame(rows) && !is.matrix(rows)) {
      fp_abort(sprintf("must be a data.frame or matrix with the columns of the fit, not an object of class '%s'",
                       class(rows)[1L]), arg)
    }
    # a plain data.frame (tibble, data.table: `[` means other things), a matrix as given (its
    # columns taken by position when it has no names, as predict() does)
    base <- as.data.frame(rows)
    s <- fp_augment_predict(x, if (is.matrix(rows)) rows else base, arg)
  }
  s <- as.data.frame(s)
  names(s) <- paste0(".fitted", names(s))
  rownames(s) <- NULL
  out <- cbind(data.frame(.rownames = rownames(base), stringsAsFactors = FALSE), fp_unique_names(base), s)
  rownames(out) <- NULL
  fp_tibble(out)
}

# predict(x, rows), its errors naming `data` when the rows came in `data`.
fp_augment_predict <- function(x, rows, arg) {
  s <- if (arg == "newdata") predict(x, rows) else withCallingHandlers(predict(x, rows), fairproj_error = function(e) {
    stop(errorCondition(sub("^`newdata`", "`data`", conditionMessage(e)), class = setdiff(class(e), c("error", "condition"))))
  })
  if (nrow(s) != nrow(rows)) stop("internal error: predict() returned a different number of rows")
  s
}

