# The PostgreSQL server binaries: FAIRPROJ_PG_BIN when set (a directory holding initdb and
# pg_ctl), else the first directory on the PATH or of Debian's layout that holds both; a string
# saying why not otherwise.
fp_test_pg_bindir <- function() {
  has <- function(b) file.exists(file.path(b, "initdb")) && file.exists(file.path(b, "pg_ctl"))
  set <- Sys.getenv("FAIRPROJ_PG_BIN")
  if (nzchar(set)) return(if (has(set)) set else sprintf("FAIRPROJ_PG_BIN='%s' holds no initdb and pg_ctl", set))
  cand <- c(dirname(Sys.which("pg_ctl")), sort(Sys.glob("/usr/lib/postgresql/*/bin"), decreasing = TRUE))
  for (b in cand[nzchar(cand)]) if (has(b)) return(b)
  "PostgreSQL server binaries (initdb, pg_ctl) not found: install Debian's postgresql (tools/setup-db.sh)"
}

# A throw-away PostgreSQL server for the database tests: initdb in a temporary directory,
# listening on 127.0.0.1 only, on a free port, trust authentication for the local user; a
# string saying why when it cannot be started.
fp_test_pg_start <- function(bin) {
  dir <- tempfile("fp_pg_", tmpdir = dirname(tempdir()))  # R's own tempdir is private to its user
  dir.create(dir)
  user <- "fairproj"
  data <- file.path(dir, "data")
  runas <- character(0)
  # initdb refuses to run as root: run the server as an unprivileged user when we are root
  if (identical(unname(Sys.info()[["user"]]), "root")) {
    if (!nzchar(Sys.which("runuser")) || system2("id", "postgres", stdout = FALSE, stderr = FALSE) != 0) {
      unlink(dir, recursive = TRUE)
      return("initdb refuses to run as root, and there is no user 'postgres' (or no runuser) to run it as")
    }
    Sys.chmod(dir, "0777", use_umask = FALSE)
    runas <- c("-u", "postgres", "--")
  }
  run <- function(cmd, args) {
    if (length(runas)) system2("runuser", c(runas, cmd, args), stdout = FALSE, stderr = FALSE)
    else system2(cmd, args, stdout = FALSE, stderr = FALSE)
  }
  fail <- function(what) {
    log <- file.path(dir, "log")
    tail <- if (file.exists(log)) paste(utils::tail(readLines(log, warn = FALSE), 3), collapse = " | ") else ""
    unlink(dir, recursive = TRUE)
    sprintf("could not start a local PostgreSQL server: %s failed%s", what, if (nzchar(tail)) paste0(" (", tail, ")") else "")
  }
  if (run(file.path(bin, "initdb"), c("-D", shQuote(data), "-U", user, "-A", "trust")) != 0) return(fail("initdb"))
  port <- 54000L + sample.int(900L, 1L)
  opts <- sprintf("-c listen_addresses=127.0.0.1 -c port=%d -c unix_socket_directories=%s", port, shQuote(dir))
  if (run(file.path(bin, "pg_ctl"), c("-D", shQuote(data), "-o", shQuote(opts), "-w", "-l",
                                       shQuote(file.path(dir, "log")), "start")) != 0) return(fail("pg_ctl start"))
  list(bin = bin, data = data, port = port, user = user, run = run)
}

fp_test_pg_stop <- function(srv) {
  srv$run(file.path(srv$bin, "pg_ctl"), c("-D", shQuote(srv$data), "-m", "fast", "-w", "stop"))
  unlink(dirname(srv$data), recursive = TRUE)
}
