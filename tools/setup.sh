#!/usr/bin/env bash
# Installs what fairproj, its tests, vignettes and R CMD check need, only when missing.
# Debian's prebuilt r-cran-* packages first (seconds), CRAN source builds as a fallback.
set -u
R_PKGS="Rcpp RcppEigen RcppArmadillo RSpectra roxygen2 testthat knitr rmarkdown survival MASS e1071 nnet ggplot2 DBI RSQLite dbplyr dplyr data.table readr Matrix future future.apply generics cli broom recipes factoextra rlang tibble RSNNS ECOSolveR"
SYS_TOOLS="pandoc qpdf tidy"

SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
have_apt=0
command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" = "0" ] || [ -n "$SUDO" ]; } && have_apt=1

missing_r=$(Rscript --vanilla -e "p <- strsplit('$R_PKGS', ' ')[[1]]; cat(p[!vapply(p, requireNamespace, logical(1), quietly = TRUE)])")
missing_sys=""
for t in $SYS_TOOLS; do command -v "$t" >/dev/null 2>&1 || missing_sys="$missing_sys $t"; done

if [ -z "$missing_r" ] && [ -z "${missing_sys// /}" ]; then
  echo "setup: everything is installed"
  exit 0
fi
echo "setup: missing R packages: ${missing_r:-none}; missing tools:${missing_sys:- none}"

if [ "$have_apt" = "1" ]; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq || true
  debs=""
  for p in $missing_r; do
    deb="r-cran-$(echo "$p" | tr '[:upper:]' '[:lower:]')"
    if apt-cache show "$deb" >/dev/null 2>&1; then debs="$debs $deb"; fi
  done
  for t in $missing_sys; do debs="$debs $t"; done
  if [ -n "${debs// /}" ]; then
    $SUDO apt-get install -y -qq --no-install-recommends $debs || echo "setup: apt-get could not install some of:$debs"
  fi
fi

# Whatever is still missing comes from CRAN (source builds).
Rscript --vanilla -e "
p <- strsplit('$R_PKGS', ' ')[[1]]
miss <- p[!vapply(p, requireNamespace, logical(1), quietly = TRUE)]
if (length(miss)) {
  lib <- .libPaths()[1]
  if (file.access(lib, 2) != 0) { lib <- Sys.getenv('R_LIBS_USER'); dir.create(lib, recursive = TRUE, showWarnings = FALSE); .libPaths(c(lib, .libPaths())) }
  message('setup: installing from CRAN: ', paste(miss, collapse = ' '))
  repos <- getOption('repos')
  # --vanilla skips Rprofile.site, where a machine usually sets its mirror: use CRAN's cloud
  if (is.null(repos) || any(repos == '@CRAN@')) repos <- c(CRAN = Sys.getenv('FAIRPROJ_CRAN', 'https://cloud.r-project.org'))
  install.packages(miss, lib = lib, repos = repos, Ncpus = 2)
}
still <- p[!vapply(p, requireNamespace, logical(1), quietly = TRUE)]
if (length(still)) { message('setup: could not install: ', paste(still, collapse = ' ')); quit(status = 1) }
"
for t in $SYS_TOOLS; do command -v "$t" >/dev/null 2>&1 || echo "setup: warning: $t is not available"; done
exit 0
