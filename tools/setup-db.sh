#!/usr/bin/env bash
# Installs what `make test-db` needs beyond tools/setup.sh, only when missing: the PostgreSQL
# server binaries and the RPostgreSQL client (Debian packages), and duckdb (CRAN source build).
set -u
SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
have_pg=0
for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && have_pg=1; done
command -v initdb >/dev/null 2>&1 && have_pg=1
has_r() { Rscript --vanilla -e "quit(status = !requireNamespace('$1', quietly = TRUE))" >/dev/null 2>&1; }
debs=""
[ "$have_pg" = "1" ] || debs="$debs postgresql"
has_r RPostgreSQL || has_r RPostgres || debs="$debs r-cran-rpostgresql"
if [ -n "${debs// /}" ]; then
  if command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq || true
    $SUDO apt-get install -y -qq --no-install-recommends $debs || echo "setup-db: could not install:$debs"
  else
    echo "setup-db: install$debs with your system's package manager"
  fi
fi
if ! has_r duckdb; then
  echo "setup-db: installing duckdb from CRAN (a long compile)"
  Rscript -e "
lib <- .libPaths()[1]
if (file.access(lib, 2) != 0) { lib <- Sys.getenv('R_LIBS_USER'); dir.create(lib, recursive = TRUE, showWarnings = FALSE) }
install.packages('duckdb', lib = lib, Ncpus = 2)" || echo "setup-db: could not install duckdb"
fi
exit 0
