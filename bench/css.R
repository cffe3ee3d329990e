# Benchmark of fair column subset selection (Matakos et al. 2024).
# The reference greedy and high-QR did not finish in 24 h on the paper's largest data set
# (MEPS, 35427 x 1247). Here: a synthetic matrix of that size with two groups; greedy and low QR
# for k = 10, 32, 100, timed in seconds and as a ratio to computing the group Gram matrices
# (the floor: one pass over the data). Then every method on adult when FAIRPROJ_DATA is set.
# Run: Rscript bench/css.R   (uses the installed fairproj; set R_LIBS to pick a library)
suppressPackageStartupMessages(library(fairproj))
set.seed(1)
n <- c(18414, 17013)
d <- 1247
r <- 200
# low-rank structure plus noise, column scales decaying (leverage scores that do not decay fast)
make <- function(m) {
  (matrix(rnorm(m * r), m, r) %*% matrix(rnorm(r * d), r, d)) * rep(1 / sqrt(seq_len(d)), each = m) +
    matrix(rnorm(m * d, sd = 0.5), m, d)
}
x <- rbind(make(n[1]), make(n[2]))
g <- rep(c("A", "B"), n)
tm <- function(expr) { t0 <- proc.time()[["elapsed"]]; force(expr); proc.time()[["elapsed"]] - t0 }
fairproj_backend()
t_gram <- tm(m <- group_moments(x, g))
cat(sprintf("synthetic %d x %d, two groups: group Gram matrices in %.2f s (backend %s)\n",
            nrow(x), d, t_gram, fairproj_backend()$backend))
rm(x); invisible(gc())
res <- NULL
for (k in c(10, 32, 100)) {
  for (meth in c("greedy", "lowqr")) {
    t <- tm(f <- fair_css(m, k = k, method = meth))
    res <- rbind(res, data.frame(k = k, method = meth, seconds = t, ratio_to_gram = t / t_gram,
                                 MinMaxLoss = f$loss))
  }
}
print(res, digits = 4, row.names = FALSE)
cat("(the seconds include the per-group top-k eigendecompositions for the denominators)\n")

dir <- Sys.getenv("FAIRPROJ_DATA")
if (nzchar(dir) && dir.exists(file.path(dir, "css"))) {
  ad <- fairproj_data("css_adult", dir = dir)   # the paper's preprocessing (see ?fairproj_data)
  t_gram <- tm(ma <- group_moments(ad$x, ad$group))
  cat(sprintf("\nadult %d x %d: group Gram matrices in %.3f s\n", nrow(ad$x), ncol(ad$x), t_gram))
  k <- 22
  out <- NULL
  for (meth in c("greedy", "lowqr", "highqr", "sampler", "two_stage", "random", "standard")) {
    args <- list(ma, k = k, method = meth, center = FALSE)
    if (meth == "two_stage") {
      for (s2 in c("lowqr", "highqr", "greedy")) {
        t <- tm(fit <- do.call(fair_css, c(args, stage2 = s2)))
        out <- rbind(out, data.frame(method = paste0("two_stage/", s2), seconds = t, MinMaxLoss = fit$loss, c = fit$sampler$c))
      }
      next
    }
    t <- tm(fit <- do.call(fair_css, args))
    out <- rbind(out, data.frame(method = meth, seconds = t, MinMaxLoss = fit$loss,
                                 c = if (is.null(fit$sampler)) NA else fit$sampler$c))
  }
  cat(sprintf("adult, k = %d:\n", k))
  print(out, digits = 4, row.names = FALSE)

  # exact optimum: branch and bound against plain enumeration (student, 57 columns)
  st <- fairproj_data("css_student", dir = dir)
  ms <- group_moments(st$x, st$group)
  ex <- NULL
  for (k in 2:4) {
    tb <- tm(fb <- fair_css(ms, k = k, method = "exhaustive", unfair = FALSE, center = FALSE))
    te <- tm(fe <- fair_css(ms, k = k, method = "exhaustive", search = "enumerate", unfair = FALSE, center = FALSE))
    ex <- rbind(ex, data.frame(k = k, subsets = choose(ncol(st$x), k), bnb_seconds = tb, bnb_leaves = fb$subsets,
                               enumerate_seconds = te, same_loss = abs(fb$loss - fe$loss) < 1e-10))
  }
  cat("student, exact optimum:\n")
  print(ex, digits = 4, row.names = FALSE)
}
