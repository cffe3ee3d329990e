# Readers for the data sets of Matakos, Ordozgoiti & Thejaswi (2024), "Fair column subset
# selection", following the paper's preprocessing as documented for the authors' public code:
# drop the protected attribute, one-hot encode the categorical columns (every level gets a
# column), scale each group's columns to unit Euclidean norm separately (all-zero columns stay
# zero) and round to 5 decimals. Group "A" is the authors' label 1 (male; majority-white
# communities), "B" the other group. Files are read from the FAIRPROJ_DATA directory (see the
# data README); nothing is downloaded.
#
# css_read(name, dir) returns list(x = numeric matrix (rows of A, then rows of B), group = factor);
# normalize = "global" scales the columns of the whole matrix instead (the authors' vanilla CSS).

css_onehot <- function(df) {
  cols <- lapply(names(df), function(nm) {
    v <- df[[nm]]
    if (is.numeric(v) || is.logical(v)) {
      out <- matrix(as.numeric(v), ncol = 1, dimnames = list(NULL, nm))
    } else {
      v <- as.character(v)
      lev <- sort(unique(v))
      out <- vapply(lev, function(l) as.numeric(v == l), numeric(length(v)))
      out <- matrix(out, nrow = length(v), dimnames = list(NULL, paste0(nm, "_", lev)))
    }
    out
  })
  do.call(cbind, cols)
}

css_group_normalize <- function(x, group) {
  group <- factor(group, levels = c("A", "B"))
  o <- order(group)
  x <- x[o, , drop = FALSE]
  group <- group[o]
  for (l in levels(group)) {
    i <- group == l
    nr <- sqrt(colSums(x[i, , drop = FALSE]^2))
    nr[nr == 0] <- 1
    x[i, ] <- round(sweep(x[i, , drop = FALSE], 2L, nr, "/"), 5)
  }
  rownames(x) <- NULL
  list(x = x, group = group)
}

css_read <- function(name, dir = Sys.getenv("FAIRPROJ_DATA"), normalize = c("group", "global")) {
  normalize <- match.arg(normalize)
  f <- function(...) file.path(dir, "css", ...)
  if (name == "heart") {
    nm <- c("age", "sex", "cp", "trestbps", "chol", "fbs", "restecg", "thalach", "exang", "oldpeak",
            "slope", "ca", "thal", "num")
    df <- read.csv(xzfile(f("processed.cleveland.data.xz")), header = FALSE, col.names = nm,
                   na.strings = "?")
    df <- df[stats::complete.cases(df), ]
    grp <- ifelse(df$sex == 1, "A", "B")
    df$sex <- NULL
    x <- as.matrix(df)
  } else if (name == "german") {
    df <- read.table(xzfile(f("german.data.xz")), header = FALSE, stringsAsFactors = FALSE)
    grp <- ifelse(df$V9 %in% c("A92", "A95"), "B", "A")
    x <- css_onehot(df)
  } else if (name == "student") {
    df <- read.csv(xzfile(f("student-por.csv.xz")), sep = ";", stringsAsFactors = FALSE)
    grp <- ifelse(df$sex == "M", "A", "B")
    df$sex <- NULL
    x <- css_onehot(df)
  } else if (name == "adult") {
    nm <- c("age", "workclass", "fnlwgt", "education", "education_num", "marital_status", "occupation",
            "relationship", "race", "sex", "capital_gain", "capital_loss", "hours_per_week",
            "native_country", "income")
    df <- read.csv(xzfile(f("adult.data.xz")), header = FALSE, col.names = nm, strip.white = TRUE,
                   stringsAsFactors = FALSE)
    df <- df[!is.na(df$age), ]
    grp <- ifelse(df$sex == "Male", "A", "B")
    df$sex <- NULL
    x <- css_onehot(df)
  } else if (name == "compas") {
    df <- read.csv(xzfile(f("compas-scores.csv.xz")), stringsAsFactors = FALSE, na.strings = c("", "NA"))
    dates <- c("compas_screening_date", "dob", "c_jail_in", "c_jail_out", "c_offense_date",
               "vr_offense_date", "v_screening_date", "screening_date")
    base <- as.Date("1900-01-01")
    for (d in dates) df[[d]] <- as.numeric(as.Date(substr(df[[d]], 1, 10)) - base)
    keep <- c(dates, "sex", "age", "age_cat", "race", "juv_fel_count", "decile_score", "juv_misd_count",
              "juv_other_count", "priors_count", "days_b_screening_arrest", "c_days_from_compas",
              "c_charge_degree", "c_charge_desc", "is_recid", "r_charge_degree", "is_violent_recid",
              "v_type_of_assessment", "v_decile_score", "v_score_text", "type_of_assessment",
              "decile_score.1", "score_text")
    df <- df[keep]
    df <- df[stats::complete.cases(df), ]
    grp <- ifelse(df$sex == "Male", "A", "B")
    df$sex <- NULL
    x <- css_onehot(df)
  } else if (name == "communities") {
    nm <- sub("^@attribute ([^ ]+) .*$", "\\1",
              grep("^@attribute", readLines(f("communities.names")), value = TRUE))
    df <- read.csv(xzfile(f("communities.data.xz")), header = FALSE, col.names = nm,
                   na.strings = "?", stringsAsFactors = FALSE)
    drop <- c("county", "community", "communityname", "LemasSwornFT", "LemasSwFTPerPop",
              "LemasSwFTFieldOps", "LemasSwFTFieldPerPop", "LemasTotalReq", "LemasTotReqPerPop",
              "PolicReqPerOffic", "PolicPerPop", "RacialMatchCommPol", "PctPolicWhite", "PctPolicBlack",
              "PctPolicHisp", "PctPolicAsian", "PctPolicMinor", "OfficAssgnDrugUnits", "NumKindsDrugsSeiz",
              "PolicAveOTWorked", "PolicCars", "PolicOperBudg", "LemasPctPolicOnPatr", "LemasGangUnitDeploy",
              "PolicBudgPerPop")
    df <- df[setdiff(names(df), drop)]
    df[is.na(df)] <- 0
    grp <- ifelse(df$racePctWhite >= 0.5, "A", "B")
    df$racePctWhite <- NULL
    df$racepctblack <- NULL
    x <- as.matrix(df)
  } else {
    stop("unknown data set: ", name)
  }
  storage.mode(x) <- "double"
  if (normalize == "group") return(css_group_normalize(x, grp))
  # the whole matrix normalised on its own (the authors' vanilla CSS), rows in the same order
  out <- css_group_normalize(x, rep("A", nrow(x)))
  out$x <- out$x[order(factor(grp, levels = c("A", "B"))), , drop = FALSE]
  out$group <- factor(sort(factor(grp, levels = c("A", "B"))))
  out
}

# The paper's grids: Table 2 k = unique(round(geomspace(10, max_k, 3))) with
# max_k = min(100, ceiling(rank_A / 2), ceiling(rank_B / 2)); Figure 1 c = unique(round(geomspace(k, n - 1, 10))).
css_geomspace <- function(a, b, n) unique(round(exp(seq(log(a), log(b), length.out = n))))
css_rank <- function(x, tol = 1e-10) {
  d <- svd(x, nu = 0, nv = 0)$d
  sum(d > tol * d[1])
}

# Ranks of the groups from the Gram matrices (eigenvalues above a relative 1e-12).
css_group_ranks <- function(m) {
  vapply(moments_crossprod(m), function(G) {
    ev <- eigen(G, symmetric = TRUE, only.values = TRUE)$values
    sum(ev > 1e-12 * ev[1])
  }, numeric(1))
}

# One data set of Table 2: every method at the paper's k grid (theta = k - 0.5).
css_table2 <- function(name, dir = Sys.getenv("FAIRPROJ_DATA"), r = 50L, ks = NULL) {
  d <- css_read(name, dir)
  m <- group_moments(d$x, d$group)
  rk <- css_group_ranks(m)
  maxk <- min(100, ceiling(rk / 2))
  if (is.null(ks)) ks <- css_geomspace(10, maxk, 3)
  # the authors' Greedy: run once to max_k with rank-(i-1) denominators at step i, prefixes
  # evaluated with rank-k denominators
  gcode <- fair_css(m, k = max(ks), method = "greedy", denominators = "step", n_columns = max(ks), center = FALSE)$columns
  rows <- lapply(ks, function(k) {
    two <- function(s2) fair_css(m, k = k, method = "two_stage", stage2 = s2, center = FALSE)
    sl <- two("lowqr"); sh <- two("highqr"); sg <- two("greedy")
    rnd <- fair_css(m, k = k, method = "random", r = r, center = FALSE)
    data.frame(dataset = name, c = sl$sampler$c, k = k, S_LowQR = sl$loss, S_HighQR = sh$loss,
               S_Greedy = sg$loss, LowQR = fair_css(m, k = k, method = "lowqr", center = FALSE)$loss,
               Greedy = fair_css(m, k = k, method = "greedy", center = FALSE)$loss,
               Greedy_code = as.numeric(css_loss(m, columns = gcode[seq_len(k)], k = k, center = FALSE)),
               Random_mean = rnd$random_mean, Random_best = rnd$loss)
  })
  do.call(rbind, rows)
}

# Table 2 of the paper (MinMaxLoss), for the five public data sets.
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
