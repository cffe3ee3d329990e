# Shared by bench/wide.R and bench/audit-wide.R (sourced): the peak resident memory of this R
# process so far, in MB (VmHWM of /proc/self/status, Linux; NA elsewhere).
peak_mb <- function() {
  st <- tryCatch(readLines("/proc/self/status"), error = function(e) character(0))
  v <- grep("^VmHWM:", st, value = TRUE)
  if (!length(v)) return(NA_real_)
  as.numeric(gsub("[^0-9]", "", v)) / 1024
}
