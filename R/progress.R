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

# The time budget of one fit, in seconds: the option `fairproj.time_limit` (60 when unset; Inf
# turns the checks off), checked.
fp_time_limit <- function() {
  fp_check_number(getOption("fairproj.time_limit", 60), "options(fairproj.time_limit)", 0, Inf, open_lower = TRUE, finite = FALSE)
}

# Refuses up front, with a classed error (`fairproj_cost_error`, an input error), work whose
# estimated time `seconds` exceeds the time budget: `what` names the work and its size, `faster`
# what to do instead (a faster method, a smaller argument). The estimates are of the typical
# case on one core of an ordinary machine (constants measured in bench/; see each method's help).
fp_check_cost <- function(seconds, what, faster, arg = "method") {
  limit <- fp_time_limit()
  if (is.finite(seconds) && seconds <= limit) return(invisible(seconds))
  fp_abort(sprintf(paste("%s would take about %s (estimated), more than the time limit of %s s; %s, or raise the",
                         "limit with options(fairproj.time_limit = <seconds>)"),
                   what, fp_format_seconds(seconds), format(limit), faster), arg, class = "fairproj_cost_error")
}

fp_format_seconds <- function(s) {
  if (!is.finite(s)) return("forever")
  if (s < 120) return(sprintf("%.0f s", s))
  if (s < 7200) return(sprintf("%.0f minutes", s / 60))
  if (s < 172800) return(sprintf("%.0f hours", s / 3600))
  sprintf("%.2g days", s / 86400)
}
