# Helpers for the reproduction of Matakos, Ordozgoiti & Thejaswi (2024), "Fair column subset
# selection" (vignette fair-css and inst/reproduce/fair-css.R). The data are read by the
# package's one reader, fairproj_data() (datasets css_heart, css_german, css_student, css_adult,
# css_compas, css_communities; see ?fairproj_data for the preprocessing); nothing here parses a
# file. Also: the paper's k grids, the Table 2 runner and the published Table 2.

# list(x, group) of a Fair CSS dataset: each group's columns at unit norm, rounded to 5 decimals
# (the paper's preprocessing). normalize = "global" scales the columns of the whole matrix
# instead (the authors' vanilla CSS of Figures 2-3).
css_read <- function(name, dir = Sys.getenv("FAIRPROJ_DATA"), normalize = c("group", "global")) {
  normalize <- match.arg(normalize)
  if (normalize == "group") {
    d <- fairproj_data(paste0("css_", name), dir = dir)
    return(list(x = d$x, group = d$group))
  }
  d <- fairproj_data(paste0("css_", name), dir = dir, normalise = FALSE)
  nr <- sqrt(colSums(d$x^2))
  nr[nr == 0] <- 1
  list(x = round(sweep(d$x, 2L, nr, "/"), 5), group = d$group)
}

# The paper's grids: Table 2 k = unique(round(geomspace(10, max_k, 3))) with
# max_k = min(100, ceiling(rank_A / 2), ceiling(rank_B / 2)); Figure 1 c = unique(round(geomspace(k, n - 1, 10))).
css_geomspace <- function(a, b, n) unique(round(exp(seq(log(a), log(b), length.out = n))))

# Ranks of the groups from the Gram matrices (eigenvalues above a relative 1e-12).
css_group_ranks <- function(m) {
  vapply(moments_crossprod(m), function(G) {
    ev <- eigen(G, symmetric = TRUE, only.values = TRUE)$values
    sum(ev > 1e-12 * ev[1])
  }, numeric(1))
}

# One data set of Table 2: every method at the paper's k grid (theta = k - 0.5). Greedy is the
# package default (the better of the two denominators), Greedy_k and Greedy_step the two
# variants, Greedy_authors the authors' rule (rank-i denominators, the last candidate among
# ties); S_Greedy the exact argmin on the sampled columns, S_Greedy_authors the authors' rule
# (values rounded to 5 decimals, running acceptance within 0.001, sampler order).
css_table2 <- function(name, dir = Sys.getenv("FAIRPROJ_DATA"), r = 50L, ks = NULL) {
  d <- css_read(name, dir)
  m <- group_moments(d$x, d$group)
  rk <- css_group_ranks(m)
  maxk <- min(100, ceiling(rk / 2))
  if (is.null(ks)) ks <- css_geomspace(10, maxk, 3)
  f <- function(...) fair_css(m, ..., center = FALSE)
  # the greedy variants that do not depend on k are run once to the largest k and evaluated on
  # prefixes (as the authors' script does)
  K <- max(ks)
  pref <- list(Greedy_step = f(k = K, denominators = "step")$columns,
               Greedy_authors = f(k = K, rule = "authors")$columns)
  rows <- lapply(ks, function(k) {
    two <- function(s2, ...) f(k = k, method = "two_stage", stage2 = s2, ...)
    sl <- two("lowqr"); sh <- two("highqr"); sg <- two("greedy"); sga <- two("greedy", rule = "authors")
    gk <- f(k = k, denominators = "k")$loss
    g <- f(k = k)$loss
    rnd <- f(k = k, method = "random", r = r)
    data.frame(dataset = name, c = sl$sampler$c, k = k, S_LowQR = sl$loss, S_HighQR = sh$loss,
               S_Greedy = sg$loss, S_Greedy_authors = sga$loss,
               LowQR = f(k = k, method = "lowqr")$loss,
               Greedy = g, Greedy_k = gk,
               Greedy_step = as.numeric(css_loss(m, columns = pref$Greedy_step[seq_len(k)], k = k, center = FALSE)),
               Greedy_authors = as.numeric(css_loss(m, columns = pref$Greedy_authors[seq_len(k)], k = k, center = FALSE)),
               Random_mean = rnd$random_mean, Random_best = rnd$loss)
  })
  do.call(rbind, rows)
}

# Table 2 of the paper (MinMaxLoss), for the five public data sets (meps and recidivism: not
# public here).
css_table2_published <- data.frame(
  dataset = rep(c("communities", "compas", "adult", "german", "student"), each = 3),
  c = c(89, 94, 98, 118, 165, 177, 70, 96, 103, 53, 54, 54, 45, 46, 47),
  k = c(10, 23, 51, 10, 19, 37, 10, 22, 49, 10, 15, 24, 10, 14, 21),
  S_LowQR = c(1.27323, 1.32462, 1.40469, 1.04747, 1.08617, 1.37174, 1.02345, 1.03347, 1.07796,
              1.08088, 1.1439, 1.20605, 1.10833, 1.14467, 1.18932),
  S_HighQR = c(1.50763, 1.54204, 1.57761, 1.2738, 1.34321, 1.41811, 1.09485, 1.12764, 1.19301,
               1.30176, 1.34599, 1.38489, 1.42094, 1.39265, 1.5756),
  S_Greedy = c(1.17121, 1.2717, 1.42658, 1.03356, 1.05688, 1.14835, 1.02111, 1.0374, 1.40252,
               1.08488, 1.11798, 1.192, 1.10559, 1.14375, 1.17832),
  LowQR = c(1.25939, 1.41701, 1.40934, 1.05041, 1.08617, 1.47138, 1.02345, 1.03347, 1.08317,
            1.07711, 1.11871, 1.20246, 1.11333, 1.15592, 1.209),
  Greedy = c(1.16976, 1.23969, 1.39823, 1.03057, 1.0537, 1.1291, 1.01768, NA, NA,
             1.07349, 1.11088, 1.18624, 1.10597, 1.14361, 1.18771),
  Random = c(1.47485, 1.65518, 2.95985, 1.19477, 1.27599, 1.67851, 1.05641, 1.0589, 1.0994,
             1.14205, 1.1966, 1.36138, 1.17856, 1.26605, 1.56265))

# Long format (the results-io convention) of css_table2() rows, with the published value of
# each cell: which paper column each of our columns is compared with.
css_table2_long <- function(ours) {
  paper_of <- c(c = "c", S_LowQR = "S_LowQR", S_HighQR = "S_HighQR", S_Greedy = "S_Greedy",
                S_Greedy_authors = "S_Greedy", LowQR = "LowQR", Greedy = "Greedy", Greedy_k = "Greedy",
                Greedy_step = "Greedy", Greedy_authors = "Greedy", Random_mean = "Random",
                Random_best = "Random")
  pub <- css_table2_published
  out <- do.call(rbind, lapply(seq_len(nrow(ours)), function(i) {
    row <- ours[i, ]
    p <- pub[pub$dataset == row$dataset & pub$k == row$k, ]
    do.call(rbind, lapply(names(paper_of), function(meth) {
      data.frame(dataset = row$dataset, method = meth, metric = if (meth == "c") "columns" else "MinMaxLoss",
                 split = if (meth == "Random_mean") "mean" else "0", value = row[[meth]],
                 published = if (nrow(p)) p[[paper_of[[meth]]]] else NA_real_, k = row$k)
    }))
  }))
  rownames(out) <- NULL
  out
}
