# Full reproduction protocol for Matakos, Ordozgoiti & Thejaswi (2024), "Fair column subset
# selection" (KDD), on the public data sets (communities, compas, adult, german, student, heart;
# the Catalan recidivism data and MEPS are not public and are skipped).
# Needs FAIRPROJ_DATA (see the package's data notes). Writes nothing; prints the tables.
# Run:  FAIRPROJ_DATA=/path/to/data Rscript inst/reproduce/fair-css.R
suppressPackageStartupMessages(library(fairproj))
here <- system.file("reproduce", "fair-css-data.R", package = "fairproj")
if (!nzchar(here)) here <- file.path("inst", "reproduce", "fair-css-data.R")
source(here)
dir <- Sys.getenv("FAIRPROJ_DATA")
if (!nzchar(dir) || !dir.exists(file.path(dir, "css"))) stop("set FAIRPROJ_DATA to the data directory")
options(width = 200)
tm <- function(expr) { t0 <- proc.time()[["elapsed"]]; force(expr); proc.time()[["elapsed"]] - t0 }

# ---- Table 1: data set sizes and group ranks --------------------------------------------------
cat("== Table 1 (columns after preprocessing, group sizes, group ranks)\n")
t1 <- do.call(rbind, lapply(c("heart", "german", "student", "adult", "compas", "communities"), function(nm) {
  d <- css_read(nm, dir)
  m <- group_moments(d$x, d$group)
  rk <- css_group_ranks(m)
  data.frame(dataset = nm, columns = ncol(d$x), rows_A = m$n[["A"]], rows_B = m$n[["B"]],
             rank_A = rk[["A"]], rank_B = rk[["B"]])
}))
print(t1, row.names = FALSE)

# ---- Table 2: full k grid, Random over 50 draws -----------------------------------------------
cat("\n== Table 2 (MinMaxLoss; .paper = published)\n")
set.seed(2024)
ours <- do.call(rbind, lapply(c("communities", "compas", "adult", "german", "student"), css_table2, dir = dir))
show <- merge(ours, css_table2_published, by = c("dataset", "k"), suffixes = c("", ".paper"), sort = FALSE)
print(show, digits = 6, row.names = FALSE)

# ---- Figure 1: MinMaxLoss against c, k = 50 (the authors' script) -------------------------------
cat("\n== Figure 1 (MinMaxLoss against the number of columns c, k = 50)\n")
for (nm in c("communities", "compas", "adult")) {
  d <- css_read(nm, dir)
  m <- group_moments(d$x, d$group)
  k <- 50
  cs <- css_geomspace(k, ncol(d$x) - 1, 10)
  cap <- min(max(cs), min(css_group_ranks(m)))
  pre <- function(fit, cc) fit$path$loss[pmin(cc, nrow(fit$path))]
  times <- c(lowqr = tm(lq <- fair_css(m, k = k, method = "lowqr", n_columns = cap, center = FALSE)),
             highqr = tm(hq <- fair_css(m, k = k, method = "highqr", n_columns = cap, center = FALSE)),
             greedy = tm(gr <- fair_css(m, k = k, method = "greedy", n_columns = max(cs), center = FALSE)),
             sampler = tm(sa <- fair_css(m, k = k, method = "sampler", theta = k, max_columns = max(cs), center = FALSE)))
  set.seed(1)
  rnd <- vapply(cs, function(cc) fair_css(m, k = k, method = "random", n_columns = cc, center = FALSE)$random_mean, numeric(1))
  tab <- data.frame(c = cs, LowQR = ifelse(cs <= cap, pre(lq, cs), NA), HighQR = ifelse(cs <= cap, pre(hq, cs), NA),
                    Greedy = pre(gr, cs), Sampler = pre(sa, cs), Random = rnd)
  cat(sprintf("-- %s (seconds: %s)\n", nm, paste(names(times), round(times, 2), sep = " = ", collapse = ", ")))
  print(tab, digits = 5, row.names = FALSE)
}

# ---- Figures 2-3: exhaustive fair and vanilla optima, price of fairness -------------------------
cat("\n== Figures 2-3 (exhaustive; group losses of the fair and vanilla optima; error of M)\n")
pof <- function(name, ks, budget = 600) {
  d <- css_read(name, dir)
  raw <- css_read(name, dir, normalize = "global")
  out <- NULL
  for (k in ks) {
    t <- tm({
      fair <- fair_css(d$x, d$group, k = k, method = "exhaustive", max_subsets = 1e9, center = FALSE)
      van <- fair_css(raw$x, rep("all", nrow(raw$x)), k = k, method = "exhaustive", max_subsets = 1e9, center = FALSE)
    })
    gv <- attr(css_loss(d$x, d$group, van$columns, k, center = FALSE), "group_stats")$ratio
    row <- data.frame(dataset = name, k = k, subsets = choose(ncol(d$x), k), seconds = round(t, 1),
                      fair_A = fair$group_stats$ratio[1], fair_B = fair$group_stats$ratio[2],
                      vanilla_A = gv[1], vanilla_B = gv[2],
                      M_fair = as.numeric(css_loss(raw$x, rep("all", nrow(raw$x)), fair$columns, k, center = FALSE)),
                      M_vanilla = van$loss)
    print(row, digits = 5, row.names = FALSE)
    out <- rbind(out, row)
    if (t * (ncol(d$x) - k) / (k + 1) > budget) break   # the next k would take too long
  }
  out
}
f23 <- rbind(pof("heart", 1:10), pof("student", 2:10), pof("german", 2:10))
cat("\nAll:\n")
print(f23, digits = 5, row.names = FALSE)
