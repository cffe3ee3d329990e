# A throw-away one-node Slurm cluster for the distributed tests (`make test-dist`): munged (when
# none runs), slurmctld and slurmd on 127.0.0.1, with a generated slurm.conf whose state, spool,
# log and pid files live in a temporary directory. Needs root (the daemons run as root, the one
# user of this cluster) and Debian's slurm-wlm and munge. Returns a string saying why when the
# cluster cannot be started; fp_test_slurm_stop() stops only what fp_test_slurm_start() started.
# The node declares its memory (RealMemory, from /proc/meminfo), so jobs that ask for memory
# (--mem, as the package's template does) are accepted.
# Binaries: in FAIRPROJ_SLURM_BIN when set (a directory), else on the PATH or in /usr/sbin.
fp_test_slurm_bin <- function(name) {
  set <- Sys.getenv("FAIRPROJ_SLURM_BIN")
  if (nzchar(set)) return(if (file.exists(file.path(set, name))) file.path(set, name) else NULL)
  p <- Sys.which(name)
  if (!nzchar(p)) for (d in c("/usr/sbin", "/usr/bin", "/sbin")) if (file.exists(file.path(d, name))) return(file.path(d, name))
  if (nzchar(p)) unname(p) else NULL
}

fp_test_slurm_start <- function(cpus = 2L) {
  bins <- lapply(c(munged = "munged", slurmctld = "slurmctld", slurmd = "slurmd", sbatch = "sbatch",
                   sinfo = "sinfo", scontrol = "scontrol"), fp_test_slurm_bin)
  miss <- names(bins)[vapply(bins, is.null, logical(1))]
  if (length(miss)) {
    return(sprintf("Slurm/munge binaries not found: %s (install Debian's slurm-wlm and munge: tools/setup-dist.sh)",
                   paste(miss, collapse = ", ")))
  }
  if (!identical(unname(Sys.info()[["user"]]), "root")) return("starting the Slurm daemons needs root")
  mem <- grep("^MemTotal:", readLines("/proc/meminfo", warn = FALSE), value = TRUE)
  mem_mb <- floor(as.numeric(gsub("[^0-9]", "", mem)) / 1024 * 0.9)
  dir <- tempfile("fp_slurm_", tmpdir = dirname(tempdir()))
  dir.create(file.path(dir, "state"), recursive = TRUE)
  dir.create(file.path(dir, "spool"))
  host <- unname(Sys.info()[["nodename"]])
  port <- 46000L + sample.int(900L, 1L)
  conf <- file.path(dir, "slurm.conf")
  writeLines(c(
    "ClusterName=fairproj",
    sprintf("SlurmctldHost=%s(127.0.0.1)", host),
    "SlurmUser=root", "SlurmdUser=root", "AuthType=auth/munge", "CryptoType=crypto/munge",
    "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
    "SelectType=select/cons_tres", "SelectTypeParameters=CR_Core",
    "SchedulerType=sched/builtin", "MpiDefault=none", "ReturnToService=2",
    "JobCompType=jobcomp/none", "AccountingStorageType=accounting_storage/none",
    "JobAcctGatherType=jobacct_gather/none",
    sprintf("SlurmctldPort=%d", port), sprintf("SlurmdPort=%d", port + 1L),
    sprintf("StateSaveLocation=%s", file.path(dir, "state")),
    sprintf("SlurmdSpoolDir=%s", file.path(dir, "spool")),
    sprintf("SlurmctldPidFile=%s", file.path(dir, "slurmctld.pid")),
    sprintf("SlurmdPidFile=%s", file.path(dir, "slurmd.pid")),
    sprintf("SlurmctldLogFile=%s", file.path(dir, "slurmctld.log")),
    sprintf("SlurmdLogFile=%s", file.path(dir, "slurmd.log")),
    sprintf("NodeName=%s NodeAddr=127.0.0.1 CPUs=%d RealMemory=%d State=UNKNOWN", host, cpus, mem_mb),
    sprintf("PartitionName=fairproj Nodes=%s Default=YES MaxTime=INFINITE State=UP", host)
  ), conf)
  srv <- list(dir = dir, conf = conf, bins = bins, started_munge = FALSE, old_conf = Sys.getenv("SLURM_CONF", NA))
  # munged: reuse a running one (its socket answers), otherwise start one as the munge user
  sock_ok <- function() system2(fp_test_slurm_bin("munge") %||% "munge", "-n", stdout = FALSE, stderr = FALSE) == 0
  if (is.null(fp_test_slurm_bin("munge")) || !sock_ok()) {
    dir.create("/run/munge", showWarnings = FALSE)
    system2("chown", c("munge:munge", "/run/munge"))
    mdir <- file.path(dir, "munge")  # writable by the munge user, for its pid file
    dir.create(mdir)
    system2("chown", c("munge:munge", mdir))
    pidf <- file.path(mdir, "munged.pid")
    if (system2("runuser", c("-u", "munge", "--", bins$munged, "--pid-file", pidf), stdout = FALSE, stderr = FALSE) != 0) {
      unlink(dir, recursive = TRUE)
      return("munged could not be started as the munge user (is /etc/munge/munge.key there?)")
    }
    srv$started_munge <- TRUE
    srv$munge_pid <- pidf
    Sys.sleep(1)
  }
  Sys.setenv(SLURM_CONF = conf)
  ok <- system2(bins$slurmctld, c("-f", conf), stdout = FALSE, stderr = FALSE) == 0 &&
    system2(bins$slurmd, c("-f", conf), stdout = FALSE, stderr = FALSE) == 0
  # wait until the node is idle
  for (i in seq_len(60)) {
    if (!ok) break
    st <- suppressWarnings(system2(bins$sinfo, c("-h", "-o", "%t"), stdout = TRUE, stderr = FALSE))
    if (length(st) && any(grepl("idle|mix", st))) return(srv)
    Sys.sleep(0.5)
  }
  log <- file.path(dir, if (ok) "slurmd.log" else "slurmctld.log")
  why <- if (file.exists(log)) paste(utils::tail(readLines(log, warn = FALSE), 2), collapse = " | ") else ""
  fp_test_slurm_stop(srv)
  sprintf("the one-node Slurm cluster did not start%s%s", if (ok) " (the node never became idle)" else "",
          if (nzchar(why)) paste0(": ", why) else "")
}

fp_test_slurm_stop <- function(srv) {
  stop_pid <- function(f) {
    if (file.exists(f)) {
      pid <- suppressWarnings(as.integer(readLines(f, warn = FALSE)[1L]))
      if (!is.na(pid)) tools::pskill(pid)
    }
  }
  stop_pid(file.path(srv$dir, "slurmd.pid"))
  stop_pid(file.path(srv$dir, "slurmctld.pid"))
  if (isTRUE(srv$started_munge)) stop_pid(srv$munge_pid)
  Sys.sleep(1)
  if (is.na(srv$old_conf)) Sys.unsetenv("SLURM_CONF") else Sys.setenv(SLURM_CONF = srv$old_conf)
  unlink(srv$dir, recursive = TRUE)
}

`%||%` <- function(a, b) if (is.null(a)) b else a
