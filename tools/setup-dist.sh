#!/usr/bin/env bash
# Installs what `make test-dist` needs beyond tools/setup.sh, only when missing: Slurm (slurmctld,
# slurmd, sbatch), munge, and the R packages batchtools and future.batchtools (Debian packages).
# The test itself starts a one-node Slurm cluster on 127.0.0.1 and stops it (needs root).
set -u
SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
has_r() { Rscript --vanilla -e "quit(status = !requireNamespace('$1', quietly = TRUE))" >/dev/null 2>&1; }
has_bin() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
debs=""
has_bin slurmctld && has_bin slurmd && has_bin sbatch || debs="$debs slurm-wlm"
has_bin munged || debs="$debs munge"
has_r batchtools || debs="$debs r-cran-batchtools"
has_r future.batchtools || debs="$debs r-cran-future.batchtools"
if [ -n "${debs// /}" ]; then
  if command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq || true
    $SUDO apt-get install -y -qq --no-install-recommends $debs || echo "setup-dist: could not install:$debs"
  else
    echo "setup-dist: install$debs with your system's package manager"
  fi
fi
# munged needs a key readable by the munge user only
if [ -d /etc/munge ] && [ ! -s /etc/munge/munge.key ] && command -v mungekey >/dev/null 2>&1; then
  $SUDO mungekey --create --keyfile=/etc/munge/munge.key || true
fi
if [ -f /etc/munge/munge.key ]; then
  $SUDO chown munge:munge /etc/munge/munge.key && $SUDO chmod 400 /etc/munge/munge.key
fi
exit 0
