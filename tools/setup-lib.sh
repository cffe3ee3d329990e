# Shared by tools/setup-db.sh and tools/setup-dist.sh (sourced): SUDO, has_r PKG, and
# install_debs LABEL DEB... (Debian packages through apt-get, or a hint where there is none;
# returns non-zero, having said why, when they could not be installed).
SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
has_r() { Rscript --vanilla -e "quit(status = !requireNamespace('$1', quietly = TRUE))" >/dev/null 2>&1; }
install_debs() {
  local label="$1"; shift
  [ "$#" -gt 0 ] || return 0
  if command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq || true
    $SUDO apt-get install -y -qq --no-install-recommends "$@" && return 0
    echo "$label: could not install $* with apt-get (see its message above)" >&2
  else
    echo "$label: no apt-get here: install $* with your system's package manager" >&2
  fi
  return 1
}
