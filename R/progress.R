# Progress bars for long loops (restarts, cross-validation grids, Pareto fronts, SVM fits):
# shown in interactive sessions only (fp_progress_on()) unless `show` says otherwise, drawn by
# cli when it is installed, otherwise by utils::txtProgressBar(). `total` is the work to do; `NA`
# when it is not known in advance (iterations until convergence), for an indeterminate bar that
# counts steps (cli only: txtProgressBar has no such bar, so none is shown). `env` is the frame
# whose exit ends the bar.
fp_progress_bar <- function(total, label, env = parent.frame(), show = fp_progress_on()) {
  none <- list(update = function(i) invisible(NULL), done = function() invisible(NULL))
  if (!show) return(none)
  if (is.na(total) && !requireNamespace("cli", quietly = TRUE)) return(none)
  if (requireNamespace("cli", quietly = TRUE)) {
    id <- cli::cli_progress_bar(label, total = total, .envir = env)
    return(list(update = function(i) cli::cli_progress_update(id = id, set = i, .envir = env),
                done = function() cli::cli_progress_done(id = id, .envir = env)))
  }
  pb <- utils::txtProgressBar(min = 0, max = total, style = 3)
  do.call(on.exit, list(quote(close(pb)), add = TRUE), envir = env)
  list(update = function(i) utils::setTxtProgressBar(pb, i), done = function() invisible(NULL))
}

# A classed message (class c(class, "fairproj_message")) for a plan worth knowing before it
# runs, such as the number of queries of a database push-down; suppressMessages() or a handler
# for the class silences it.
fp_inform <- function(message, class = NULL) {
  cond <- structure(class = c(class, "fairproj_message", "message", "condition"),
                    list(message = paste0(message, "\n"), call = NULL))
  message(cond)
}

# Whether to show progress bars: interactive sessions only, never under knitr, and not when
# the option fairproj.progress is FALSE (tune_fair_pca() turns it off for the fits it runs).
fp_progress_on <- function() {
  interactive() && !isTRUE(getOption("knitr.in.progress")) && !isFALSE(getOption("fairproj.progress"))
}
