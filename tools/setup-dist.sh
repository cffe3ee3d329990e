#!/usr/bin/env bash
# Installs what `make test-dist` needs beyond tools/setup.sh, only when missing: Slurm (slurmctld,
# slurmd, sbatch), munge, and the R packages batchtools and future.batchtools (Debian packages).
# The test itself starts a one-node Slurm cluster on 127.0.0.1 and stops it (needs root). Fails,
# saying why, when something cannot be installed: `make test-dist` exists to run that test.
set -u
. "$(dirname "$0")/setup-lib.sh"
has_bin() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
debs=""
has_bin slurmctld && has_bin slurmd && has_bin sbatch || debs="$debs slurm-wlm"
has_bin munged || debs="$debs munge"
has_r batchtools || debs="$debs r-cran-batchtools"
has_r future.batchtools || debs="$debs r-cran-future.batchtools"
install_debs setup-dist $debs || exit 1
# munged needs a key readable by the munge user only
if [ -d /etc/munge ] && [ ! -s /etc/munge/munge.key ] && command -v mungekey >/dev/null 2>&1; then
  $SUDO mungekey --create --keyfile=/etc/munge/munge.key || true
fi
if [ -f /etc/munge/munge.key ]; then
  $SUDO chown munge:munge /etc/munge/munge.key && $SUDO chmod 400 /etc/munge/munge.key
fi
exit 0
