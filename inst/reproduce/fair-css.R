# Full reproduction protocol for Matakos, Ordozgoiti & Thejaswi (2024), "Fair column subset
# selection" (KDD), on the public data sets read by fairproj_data() (css_communities, css_compas,
# css_adult, css_german, css_student, css_heart). The paper's meps and recidivism data are not
# public here (see the vignette) and are skipped.
#
# Writes long CSVs (inst/reproduce/results-io.R convention) to inst/reproduce/results/ (or
# FAIRPROJ_RESULTS): fair-css-table1.csv.xz, fair-css-table2.csv.xz, fair-css-figure1.csv.xz,
# fair-css-figure23.csv.xz. Each part can be run alone:
#   FAIRPROJ_DATA=/path/to/data Rscript inst/reproduce/fair-css.R [table1] [table2] [figure1] [figure23]
# (from the package root; no argument = all parts). Time on one core: table2 under a minute,
# figure1 about a minute, figure23 about half an hour (branch and bound, 1.5e5 bound evaluations at most per problem).
source(file.path(local({f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(f[1]) else system.file("reproduce", package = "fairproj")}), "results-io.R"))
repro_setup(data = FALSE, helpers = "fair-css-data.R")  # the data check below names css/
dir <- Sys.getenv("FAIRPROJ_DATA")
if (!nzchar(dir) || !dir.exists(file.path(dir, "css"))) stop("set FAIRPROJ_DATA to the data directory")
parts <- commandArgs(trailingOnly = TRUE)
if (!length(parts)) parts <- c("table1", "table2", "figure1", "figure23")
options(width = 200)
# CPU seconds of this process (user + system), so that other processes on a shared machine do not
# inflate the stored timings (as in kleindessner-runtime.R)
tm <- function(expr) {
  t0 <- proc.time()
  force(expr)
  dt <- proc.time() - t0
  dt[["user.self"]] + dt[["sys.self"]]
}

# ---- Table 1: data set sizes and group ranks --------------------------------------------------
if ("table1" %in% parts) {
  cat("== Table 1 (columns after preprocessing, group sizes, group ranks)\n")
  # the paper's Table 1 (columns include the protected attribute; rows and ranks of the group
  # that is our A, then B)
  pub <- list(heart = c(14, 201, 96, 13, 13), german = c(63, 690, 310, 49, 47),
              student = c(58, 266, 383, 42, 42), adult = c(109, 21790, 10771, 98, 98),
              compas = c(189, 9336, 2421, 167, 73), communities = c(104, 1685, 309, 101, 101))
  for (nm in names(pub)) {
    d <- css_read(nm, dir)
    m <- group_moments(d$x, d$group)
    rk <- css_group_ranks(m)
    val <- c(ncol(d$x), m$n[[1]], m$n[[2]], rk[[1]], rk[[2]])
    tab <- data.frame(dataset = nm, method = "data",
                      metric = c("columns", "rows_A", "rows_B", "rank_A", "rank_B"),
                      split = "0", value = val, published = pub[[nm]])
    print(tab, row.names = FALSE)
    repro_write(tab, "fair-css-table1")
  }
}

# ---- Table 2: full k grid, Random over 50 draws -----------------------------------------------
if ("table2" %in% parts) {
  cat("\n== Table 2 (MinMaxLoss)\n")
  for (nm in c("communities", "compas", "adult", "german", "student")) {
    set.seed(2024)
    t <- tm(ours <- css_table2(nm, dir = dir))
    cat(sprintf("-- %s: %.1f s\n", nm, t))
    print(ours, digits = 6, row.names = FALSE)
    repro_write(css_table2_long(ours), "fair-css-table2")
  }
}

# ---- Figure 1: MinMaxLoss against c, k = 50 (the authors' script) -------------------------------
if ("figure1" %in% parts) {
  cat("\n== Figure 1 (MinMaxLoss against the number of columns c; k = 50)\n")
  for (nm in c("communities", "compas", "adult")) {
    k <- 50
    d <- css_read(nm, dir)
    m <- group_moments(d$x, d$group)
    cs <- css_geomspace(k, ncol(d$x) - 1, 10)
    cap <- min(max(cs), min(css_group_ranks(m)))
    pre <- function(fit, cc) fit$path$loss[pmin(cc, nrow(fit$path))]
    f <- function(...) fair_css(m, k = k, ..., center = FALSE)
    lq <- f(method = "lowqr", n_columns = cap)
    hq <- f(method = "highqr", n_columns = cap)
    gr <- f(method = "greedy", n_columns = max(cs))
    sa <- f(method = "sampler", theta = k, max_columns = max(cs))
    set.seed(1)
    rnd <- vapply(cs, function(cc) f(method = "random", n_columns = cc)$random_mean, numeric(1))
    vals <- list(LowQR = ifelse(cs <= cap, pre(lq, cs), NA), HighQR = ifelse(cs <= cap, pre(hq, cs), NA),
                 Greedy = pre(gr, cs), Sampler = pre(sa, cs), Random = rnd)
    tab <- do.call(rbind, lapply(names(vals), function(meth) {
      data.frame(dataset = nm, method = meth, metric = "MinMaxLoss",
                 split = if (meth == "Random") "mean" else "0", value = vals[[meth]], published = NA_real_,
                 k = k, c = cs)
    }))
    print(stats::reshape(tab[c("method", "c", "value")], idvar = "c", timevar = "method", direction = "wide"),
          digits = 5, row.names = FALSE)
    repro_write(tab, "fair-css-figure1")
  }
}

# ---- Figures 2-3: exact fair and vanilla optima (branch and bound), price of fairness ----------
if ("figure23" %in% parts) {
  cat("\n== Figures 2-3 (exact optima; group losses of the fair and vanilla optima; error of M)\n")
  # FAIRPROJ_CSS_NODES: bound evaluations per problem (default 1.5e5); FAIRPROJ_CSS_SETS and
  # FAIRPROJ_CSS_K (comma separated) restrict the data sets and k, to rerun cells with more nodes
  nodes <- as.numeric(Sys.getenv("FAIRPROJ_CSS_NODES", "1.5e5"))
  sets <- strsplit(Sys.getenv("FAIRPROJ_CSS_SETS", "heart,student,german"), ",")[[1]]
  kset <- as.integer(strsplit(Sys.getenv("FAIRPROJ_CSS_K", "3,4,5,6,7,8,9,10"), ",")[[1]])
  for (nm in sets) {
    d <- css_read(nm, dir)
    raw <- css_read(nm, dir, normalize = "global")
    one <- rep("all", nrow(raw$x))
    for (k in kset) {
      t <- tm({
        fair <- suppressWarnings(fair_css(d$x, d$group, k = k, method = "exhaustive", max_nodes = nodes, unfair = FALSE,
                                          center = FALSE))
        van <- suppressWarnings(fair_css(raw$x, one, k = k, method = "exhaustive", max_nodes = nodes, unfair = FALSE,
                                         center = FALSE))
      })
      gv <- attr(css_loss(d$x, d$group, van$columns, k, center = FALSE), "group_stats")$ratio
      mf <- as.numeric(css_loss(raw$x, one, fair$columns, k, center = FALSE))
      tab <- data.frame(dataset = nm, method = rep(c("fair", "vanilla"), each = 6),
                        metric = rep(c("loss_A", "loss_B", "loss_M", "lower_bound", "complete", "seconds"), 2),
                        split = "0",
                        value = c(fair$group_stats$ratio, mf, fair$lower, fair$complete, t,
                                  gv, van$loss, van$lower, van$complete, t),
                        published = NA_real_, k = k)
      cat(sprintf("-- %s k = %d: %.1f s; fair %s (bound %.6g), vanilla %s\n", nm, k, t,
                  format(fair$loss, digits = 6), fair$lower, format(van$loss, digits = 6)))
      repro_write(tab, "fair-css-figure23", replace_by = c("dataset", "k"))
    }
  }
}
