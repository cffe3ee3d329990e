# File chunks reduced to moments as jobs of a real scheduler: a one-node Slurm cluster started
# here, through future.batchtools, with the job template the package ships (inst/slurm, shown in
# vignette("large-data")). Runs under `make test-dist` (FAIRPROJ_TEST_DIST=1), which installs
# Slurm, munge, batchtools and future.batchtools; skipped otherwise, and there anything missing
# is an error that says what.
test_that("Slurm: 8 file chunks as Slurm jobs through future.batchtools give the in-memory moments and fit", {
  skip_if_not(identical(Sys.getenv("FAIRPROJ_TEST_DIST"), "1"), "set FAIRPROJ_TEST_DIST=1 (make test-dist)")
  fp_test_need_package("future.batchtools", "FAIRPROJ_TEST_DIST")
  fp_test_need_package("future.apply", "FAIRPROJ_TEST_DIST")
  fp_test_need_package("readr", "FAIRPROJ_TEST_DIST")
  tmpl <- system.file("slurm", "slurm.tmpl", package = "fairproj")
  fp_test_need(nzchar(tmpl), "the installed package has no slurm/slurm.tmpl", "FAIRPROJ_TEST_DIST")
  srv <- fp_test_slurm_start()
  fp_test_need(is.list(srv), srv, "FAIRPROJ_TEST_DIST")
  on.exit(fp_test_slurm_stop(srv), add = TRUE)
  dat <- mixed_scale_data(n = c(900, 700, 400), d = 6, offset = 1e6, seed = 8)
  dat$x[] <- signif(dat$x, 12)  # exactly as written and read
  files <- file.path(srv$dir, sprintf("chunk%02d.csv", 1:8))
  part <- rep(1:8, length.out = nrow(dat$x))
  for (i in 1:8) {
    utils::write.csv(data.frame(formatC(dat$x[part == i, ], digits = 12, format = "g"), grp = dat$g[part == i]),
                     files[i], row.names = FALSE, quote = FALSE)
  }
  # the jobs' R finds this library through R_LIBS, which sbatch passes on (as the template says);
  # batchtools lists the running jobs with `squeue --user=$USER`, and takes a job it does not
  # see for an expired one: USER must be set (a shell without a login may leave it empty)
  old_env <- Sys.getenv(c("R_LIBS", "USER"), NA)
  Sys.setenv(R_LIBS = paste(.libPaths(), collapse = ":"))
  if (!nzchar(Sys.getenv("USER"))) Sys.setenv(USER = unname(Sys.info()[["user"]]))
  opt <- options(future.cache.path = file.path(srv$dir, "registry"))  # the jobs' registries
  # (not a declared dependency: `make test-dist` installs it)
  slurm <- getExportedValue("future.batchtools", "batchtools_slurm")
  old <- future::plan("sequential")
  on.exit({
    future::plan(old)
    options(opt)
    for (v in names(old_env)) if (is.na(old_env[[v]])) Sys.unsetenv(v) else do.call(Sys.setenv, as.list(old_env[v]))
  }, add = TRUE, after = FALSE)
  completed <- function() {
    jobs <- system2(srv$bins$scontrol, c("-o", "show", "job"), stdout = TRUE)
    sum(grepl("JobState=COMPLETED", jobs))
  }
  ref <- group_moments(dat$x, dat$g)
  # one job per worker of the plan, not per file: 8 files on 2 workers are 2 jobs; with as
  # many workers as files, one job per file
  for (w in c(2L, 8L)) {
    before <- completed()
    future::plan(slurm, template = tmpl, workers = w)
    m <- group_moments(as.list(files), "grp", chunk_rows = 100L, parallel = TRUE)
    expect_lte(moments_err(m, ref), 1e-10)
    expect_identical(completed() - before, w)
  }
  fit <- fair_pca(m, k = 2, method = "minmax")
  fit_ref <- fair_pca(ref, k = 2, method = "minmax")
  expect_lte(subspace_dist(fit$rotation, fit_ref$rotation), 1e-6)
})
