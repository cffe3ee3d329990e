#!/usr/bin/env bash
# Installs what `make test-db` needs beyond tools/setup.sh, only when missing: the PostgreSQL
# server binaries and the RPostgreSQL client (Debian packages); with FAIRPROJ_DUCKDB=1 also
# duckdb (a long CRAN source build; without FAIRPROJ_DUCKDB=1 its test is skipped). Fails,
# saying why, when something cannot be installed: `make test-db` exists to run these tests.
set -u
. "$(dirname "$0")/setup-lib.sh"
have_pg=0
for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && have_pg=1; done
command -v initdb >/dev/null 2>&1 && have_pg=1
debs=""
[ "$have_pg" = "1" ] || debs="$debs postgresql"
has_r RPostgreSQL || has_r RPostgres || debs="$debs r-cran-rpostgresql"
install_debs setup-db $debs || exit 1
if [ "${FAIRPROJ_DUCKDB:-0}" = "1" ] && ! has_r duckdb; then
  echo "setup-db: installing duckdb from CRAN (a long compile)"
  Rscript -e "
lib <- .libPaths()[1]
if (file.access(lib, 2) != 0) { lib <- Sys.getenv('R_LIBS_USER'); dir.create(lib, recursive = TRUE, showWarnings = FALSE) }
install.packages('duckdb', lib = lib, Ncpus = 2)" || { echo "setup-db: could not install duckdb" >&2; exit 1; }
fi
exit 0
