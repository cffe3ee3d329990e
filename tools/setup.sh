#!/usr/bin/env bash
# Installs what a make target needs, only when it is missing:
#   bash tools/setup.sh GROUP...   (GROUP: build demo document test site reproduce)
# Debian's prebuilt r-cran-* and system packages first (seconds); R packages that Debian does
# not have are built from source from the repositories R is configured with (the machine's
# Rprofile.site or the user's ~/.Rprofile: getOption("repos"), as install.packages() uses).
set -u
# without TZ, loading some packages asks timedatectl, which fails without systemd
export TZ="${TZ:-UTC}"

# R packages, by the target that needs them. Imports and LinkingTo are in `build`.
R_build="Rcpp RcppEigen RSpectra generics"
R_demo="survival ggplot2"
R_document="roxygen2"
# the Suggests that the tests, examples and vignettes use (RSNNS only in `reproduce`: the tests
# that need it skip without it)
R_test="testthat knitr rmarkdown survival MASS e1071 nnet ggplot2 DBI RSQLite dbplyr dplyr
  data.table readr Matrix future future.apply cli broom recipes factoextra rlang tibble ECOSolveR bit64 withr"
R_site="pkgdown"
R_reproduce="RSNNS"

# Debian packages (probed by the command or file they provide, see has_sys): pandoc, qpdf and
# tidy for R CMD check; pdfLaTeX, the Times fonts and texi2dvi for the PDF reference manual.
SYS_test="pandoc qpdf tidy texlive-latex-base texlive-fonts-recommended texinfo"
SYS_site="chromium"
SYS_reproduce="python3-sklearn"

has_sys() {
  case "$1" in
    texlive-latex-base) command -v pdflatex >/dev/null 2>&1 ;;
    texlive-fonts-recommended) command -v kpsewhich >/dev/null 2>&1 && [ -n "$(kpsewhich ptmr8t.tfm 2>/dev/null)" ] ;;
    texinfo) command -v texi2dvi >/dev/null 2>&1 ;;
    python3-sklearn) [ -n "${FAIRPROJ_PYTHON:-}" ] || python3 -c 'import sklearn' 2>/dev/null ||
      /usr/bin/python3 -c 'import sklearn' 2>/dev/null ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

[ $# -gt 0 ] || set -- build
r_pkgs=""; sys_pkgs=""
for group in "$@"; do
  case "$group" in
    build|demo|document|test|site|reproduce) ;;
    *) echo "setup: unknown group '$group' (build demo document test site reproduce)" >&2; exit 2 ;;
  esac
  r_var="R_$group"; sys_var="SYS_$group"
  r_pkgs="$r_pkgs ${!r_var:-}"; sys_pkgs="$sys_pkgs ${!sys_var:-}"
done
r_pkgs="$R_build $r_pkgs"  # every target builds the package

missing_r=$(Rscript -e "p <- unique(strsplit(trimws('$(echo $r_pkgs)'), ' +')[[1]])
cat(p[!vapply(p, requireNamespace, logical(1), quietly = TRUE)])")
missing_sys=""
for p in $sys_pkgs; do has_sys "$p" || missing_sys="$missing_sys $p"; done
if [ -z "$missing_r" ] && [ -z "${missing_sys// /}" ]; then
  echo "setup ($*): everything is installed"
  exit 0
fi
echo "setup ($*): missing R packages: ${missing_r:-none}; missing system packages:${missing_sys:- none}"

SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" = "0" ] || [ -n "$SUDO" ]; }; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq || true
  debs="$missing_sys"
  for p in $missing_r; do
    deb="r-cran-$(echo "$p" | tr '[:upper:]' '[:lower:]')"
    if apt-cache show "$deb" >/dev/null 2>&1; then debs="$debs $deb"; fi
  done
  if [ -n "${debs// /}" ]; then
    $SUDO apt-get install -y -qq --no-install-recommends $debs || echo "setup: apt-get could not install some of:$debs"
  fi
elif [ -n "${missing_sys// /}" ]; then
  echo "setup: install with your system's package manager:$missing_sys"
fi

# Whatever R package is still missing is built from source from R's configured repositories.
Rscript -e "
p <- unique(strsplit(trimws('$(echo $missing_r)'), ' +')[[1]])
miss <- p[nzchar(p) & !vapply(p, requireNamespace, logical(1), quietly = TRUE)]
if (length(miss)) {
  repos <- getOption('repos')
  if (!length(repos) || any(repos == '@CRAN@') || !any(nzchar(repos))) {
    message('setup: R has no package repository configured, so it cannot install: ',
            paste(miss, collapse = ' '), '\n  set one for R (options(repos = ...) in Rprofile.site ',
            'or ~/.Rprofile), or install these packages yourself, then run make again')
    quit(status = 1)
  }
  lib <- .libPaths()[1]
  if (file.access(lib, 2) != 0) {
    lib <- Sys.getenv('R_LIBS_USER')
    dir.create(lib, recursive = TRUE, showWarnings = FALSE)
    .libPaths(c(lib, .libPaths()))
  }
  message('setup: installing from source: ', paste(miss, collapse = ' '))
  install.packages(miss, lib = lib, Ncpus = 2)
}
still <- p[nzchar(p) & !vapply(p, requireNamespace, logical(1), quietly = TRUE)]
if (length(still)) { message('setup: could not install: ', paste(still, collapse = ' ')); quit(status = 1) }
" || exit 1
for p in $sys_pkgs; do has_sys "$p" || echo "setup: warning: $p is not available"; done
exit 0
