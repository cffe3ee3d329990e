# Readers for the data sets of Matakos, Ordozgoiti & Thejaswi (2024), "Fair column subset
# selection", following the paper's preprocessing as documented for the authors' public code:
# drop the protected attribute, one-hot encode the categorical columns (every level gets a
# column), scale each group's columns to unit Euclidean norm separately (all-zero columns stay
# zero) and round to 5 decimals. Group "A" is the authors' label 1 (male; majority-white
# communities), "B" the other group. Files are read from the FAIRPROJ_DATA directory (see the
# data README); nothing is downloaded.
#
# css_read(name, dir) returns list(x = numeric matrix (rows of A, then rows of B), group = factor).

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

css_read <- function(name, dir = Sys.getenv("FAIRPROJ_DATA")) {
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
  css_group_normalize(x, grp)
}

# The paper's grids: Table 2 k = unique(round(geomspace(10, max_k, 3))) with
# max_k = min(100, ceiling(rank_A / 2), ceiling(rank_B / 2)); Figure 1 c = unique(round(geomspace(k, n - 1, 10))).
css_geomspace <- function(a, b, n) unique(round(exp(seq(log(a), log(b), length.out = n))))
css_rank <- function(x, tol = 1e-10) {
  d <- svd(x, nu = 0, nv = 0)$d
  sum(d > tol * d[1])
}
