# File chunks reduced to moments as jobs of a real scheduler: a one-node Slurm cluster started
# here, through future.batchtools. Runs under `make test-dist` (FAIRPROJ_TEST_DIST=1), which
# installs Slurm, munge, batchtools and future.batchtools; skipped otherwise.
test_that("Slurm: 8 file chunks as Slurm jobs through future.batchtools give the in-memory moments and fit", {
  skip_if_not(identical(Sys.getenv("FAIRPROJ_TEST_DIST"), "1"), "set FAIRPROJ_TEST_DIST=1 (make test-dist)")
  skip_if_not_installed("future.batchtools")
  skip_if_not_installed("readr")
  srv <- fp_test_slurm_start()
  skip_if(is.null(srv), "could not start a one-node Slurm cluster (needs root, slurm-wlm and munge)")
  on.exit(fp_test_slurm_stop(srv), add = TRUE)
  dat <- mixed_scale_data(n = c(900, 700, 400), d = 6, offset = 1e6, seed = 8)
  dat$x[] <- signif(dat$x, 12)  # exactly as written and read
  files <- file.path(srv$dir, sprintf("chunk%02d.csv", 1:8))
  part <- rep(1:8, length.out = nrow(dat$x))
  for (i in 1:8) {
    utils::write.csv(data.frame(formatC(dat$x[part == i, ], digits = 12, format = "g"), grp = dat$g[part == i]),
                     files[i], row.names = FALSE, quote = FALSE)
  }
  tmpl <- file.path(srv$dir, "slurm.tmpl")
  writeLines(c("#!/bin/bash", "#SBATCH --job-name=<%= job.name %>", "#SBATCH --output=<%= log.file %>",
               "#SBATCH --error=<%= log.file %>", "#SBATCH --ntasks=1", "#SBATCH --cpus-per-task=1",
               sprintf("export R_LIBS='%s'", paste(.libPaths(), collapse = ":")),
               "Rscript -e 'batchtools::doJobCollection(\"<%= uri %>\")'"), tmpl)
  opt <- options(future.cache.path = file.path(srv$dir, "registry"))  # the jobs' registries
  # (not a declared dependency: `make test-dist` installs it)
  slurm <- getExportedValue("future.batchtools", "batchtools_slurm")
  old <- future::plan(slurm, template = tmpl, workers = 8L)
  on.exit({
    future::plan(old)
    options(opt)
  }, add = TRUE, after = FALSE)
  m <- group_moments(as.list(files), "grp", chunk_rows = 100L, parallel = TRUE)
  ref <- group_moments(dat$x, dat$g)
  expect_lte(moments_err(m, ref), 1e-10)
  # every chunk ran as a Slurm job: slurmctld lists 8 completed jobs
  jobs <- system2(srv$bins$scontrol, c("-o", "show", "job"), stdout = TRUE)
  expect_gte(sum(grepl("JobState=COMPLETED", jobs)), 8L)
  fit <- fair_pca(m, k = 2, method = "minmax")
  fit_ref <- fair_pca(ref, k = 2, method = "minmax")
  expect_lte(subspace_dist(fit$rotation, fit_ref$rotation), 1e-6)
})
