# The readers of the papers' datasets, one per source format and preprocessing: the registry's
# `reader` column names fp_read_<reader>, which takes the row's specification (`spec`), the data
# directory and the dataset's options, and returns new_fairproj_data() (data.R).

# ---------------------------------------------------------------------------------------------
# Samadi et al.: credit and LFW
# ---------------------------------------------------------------------------------------------

fp_read_samadi_credit <- function(spec, dir, standardise = TRUE, all_features = FALSE,
                                  center_groups = FALSE) {
  fp_check_flag(standardise, "standardise")
  fp_check_flag(all_features, "all_features")
  fp_check_flag(center_groups, "center_groups")
  path <- fp_data_file(spec, dir, spec$files)
  # two header rows: UCI X-codes, then names
  df <- fp_data_read_csv(path, skip = 1L)
  feats <- c("SEX", "LIMIT_BAL", "MARRIAGE", "AGE", paste0("PAY_", 1:6), paste0("BILL_AMT", 1:6),
             paste0("PAY_AMT", 1:6))
  fp_data_check_cols(df, c("EDUCATION", feats), path)
  if (!all_features) feats <- setdiff(feats, "PAY_AMT6")
  x <- fp_data_numeric(df[feats], path)
  edu <- fp_data_numeric(df["EDUCATION"], path)[, 1L]   # a code on every row: NA or text is no code
  group <- factor(ifelse(edu %in% c(1, 2), "high", "low"), levels = spec$levels)
  pre <- c(sprintf("features: %s (%d columns%s)", paste(feats[c(1, length(feats))], collapse = " ... "),
                   length(feats), if (all_features) ", PAY_AMT6 kept" else
                     ", PAY_AMT6 dropped as in Samadi et al.'s creditProcess.m"),
           "group: EDUCATION in {1 graduate school, 2 university} = high, other codes = low")
  if (standardise) {
    x <- fp_data_standardise(x, population = FALSE)
    pre <- c(pre, "each column centred and divided by its standard deviation (divisor n - 1, MATLAB std)")
  }
  if (center_groups) {
    x <- fp_data_center_groups(x, group)
    pre <- c(pre, "each group's rows centred at the group mean")
  }
  new_fairproj_data(x, group, NULL, spec, path, pre,
                    list(standardise = standardise, all_features = all_features,
                         center_groups = center_groups),
                    notes = "Samadi et al.'s own group-centring loop for credit centres only the first 21 rows of each group (a bug); the package's fair PCA methods centre each group at its own mean.")
}

# The raw LFW matrix of integers k (pixel = k / 3), 13232 x 1764, and the sex codes.
fp_lfw_raw <- function(spec, dir) {
  path <- fp_data_file(spec, dir, "lfw/lfw_1764.csv.xz")
  spath <- fp_data_file(spec, dir, "lfw/sex.txt")
  X <- fp_lfw_matrix(path)
  sex <- fp_data_codes(spath)
  if (length(sex) != nrow(X)) {
    fp_data_bad_file(spath, sprintf("it has %d lines but '%s' has %d images (one 0/1 code per image expected)",
                                    length(sex), path, nrow(X)))
  }
  list(X = X, sex = sex, files = c(path, spath))
}

# The LFW pixel file: one image per line, 1764 integers k with 0 <= k <= 765 (pixel k / 3). The
# fields are counted line by line first: scan() alone reads a stream of values, so lines of 1763
# and 1765 values would pass and shift the pixels of every image between them.
fp_lfw_matrix <- function(path) {
  n <- fp_data_guard(path, utils::count.fields(path, sep = ",", blank.lines.skip = FALSE))
  rec <- which(!is.na(n) & n > 0L)           # empty lines are skipped, as scan() does
  if (!length(rec)) fp_data_bad_file(path, "it holds no image")
  bad <- c(which(is.na(n)), rec[n[rec] != 1764L])
  if (length(bad)) {
    fp_data_bad_file(path, sprintf("line %d holds %s values where an image has 1764 (49 x 36 pixels, one image per line)",
                                   bad[1L], format(n[bad[1L]])))
  }
  vals <- fp_data_guard(path, scan(path, what = integer(), sep = ",", quiet = TRUE))
  bad <- if (anyNA(vals)) which(is.na(vals))[1L] else NA_integer_   # no n-long temporary when all is well
  if (is.na(bad) && (min(vals) < 0L || max(vals) > 765L)) bad <- which(vals < 0L | vals > 765L)[1L]
  if (!is.na(bad)) {
    fp_data_bad_file(path, sprintf("line %d, value %d is %s where an integer k from 0 to 765 (pixel k / 3) was expected",
                                   rec[(bad - 1L) %/% 1764L + 1L], (bad - 1L) %% 1764L + 1L,
                                   if (is.na(vals[bad])) "missing" else vals[bad]))
  }
  matrix(vals, ncol = 1764L, byrow = TRUE)
}

# A file of 0/1 codes, one per line (the LFW sex and race flags), as integers; a trailing empty
# line is allowed, any other line that is not 0 or 1 is a classed error naming it.
fp_data_codes <- function(path) {
  v <- trimws(fp_data_guard(path, readLines(path, warn = FALSE)))
  while (length(v) && !nzchar(v[length(v)])) v <- v[-length(v)]
  if (!length(v)) fp_data_bad_file(path, "it is empty; one 0/1 code per image was expected")
  bad <- which(!v %in% c("0", "1"))
  if (length(bad)) {
    fp_data_bad_file(path, sprintf("line %d is '%s' where a code 0 or 1 was expected (one per line)", bad[1L], v[bad[1L]]))
  }
  as.integer(v)
}

# The float32 pixel values of the original LFW text files, by k: value_map.csv lists each k of
# 0..765 once with its text. A k of the images the map lacks, a repeated or out-of-range k and a
# text that is not a finite number are classed errors (a lookup would give 0 or NA silently).
fp_lfw_value_map <- function(path, ks) {
  vm <- fp_data_read_csv(path, colClasses = c("integer", "character"))
  fp_data_check_cols(vm, c("k", "original_text"), path)
  k <- vm$k
  v <- suppressWarnings(as.numeric(vm$original_text))
  bad <- which(is.na(k) | k < 0L | k > 765L | duplicated(k) | !is.finite(v))
  if (length(bad)) {
    fp_data_bad_file(path, sprintf("%s (k = %s, original_text = '%s') is %s; each k from 0 to 765 once, with a finite number",
                                   fp_data_line(vm, bad[1L]), k[bad[1L]], vm$original_text[bad[1L]],
                                   if (is.na(k[bad[1L]]) || !is.finite(v[bad[1L]])) "not a number" else
                                     if (k[bad[1L]] %in% k[seq_len(bad[1L] - 1L)]) "a repeated k" else "out of range"))
  }
  miss <- setdiff(ks, k)
  if (length(miss)) {
    fp_data_bad_file(path, sprintf("it lacks the value(s) k = %s that the images use", fp_name_list(miss)))
  }
  lut <- numeric(766L)
  lut[k + 1L] <- v
  lut
}

fp_lfw_colnames <- function(nr, nc) {
  sprintf("p%02d_%02d", rep(seq_len(nr), each = nc), rep(seq_len(nc), times = nr))
}

fp_read_lfw <- function(spec, dir, scale = TRUE, exact = FALSE, center_groups = FALSE) {
  fp_check_flag(scale, "scale")
  fp_check_flag(exact, "exact")
  fp_check_flag(center_groups, "center_groups")
  raw <- fp_lfw_raw(spec, dir)
  files <- raw$files
  if (exact) {
    vpath <- fp_data_file(spec, dir, "lfw/value_map.csv")
    lut <- fp_lfw_value_map(vpath, which(tabulate(raw$X + 1L, 766L) > 0L) - 1L)
    x <- matrix(lut[raw$X + 1L], nrow(raw$X))
    files <- c(files, vpath)
    pre <- "pixel values: the original float32 text values (value_map.csv)"
  } else {
    x <- raw$X / 3
    pre <- "pixel values: k / 3 from the stored integers k (within 3.4e-6 of the original float32 text)"
  }
  if (scale) {
    x <- x / 255
    pre <- c(pre, "each pixel value divided by 255 (Samadi et al.)")
  }
  colnames(x) <- fp_lfw_colnames(49L, 36L)
  group <- fp_data_group(raw$sex, c(0L, 1L), spec$levels, files[2], "sex")
  if (center_groups) {
    x <- fp_data_center_groups(x, group)
    pre <- c(pre, "each group's rows centred at the group mean (Samadi et al.'s LFW script)")
  }
  out <- new_fairproj_data(x, group, NULL, spec, files, c(pre, "columns: pixel (row, column) of the 49 x 36 image, row-major"),
                           list(scale = scale, exact = exact, center_groups = center_groups))
  out$attributes <- fp_lfw_attributes(dir, group)
  out
}

# The attributes the LFW data offer beside sex: the binary race flags of lfw/asian.txt,
# black.txt and white.txt (same row order; they overlap), for intersectional groups, e.g.
# fair_pca(d$x, d$attributes[c("sex", "white")]). NULL when the files are absent.
fp_lfw_attributes <- function(dir, group) {
  flags <- c("asian", "black", "white")
  paths <- file.path(dir, "lfw", paste0(flags, ".txt"))
  if (!all(file.exists(paths))) return(NULL)
  vals <- lapply(paths, fp_data_codes)
  if (any(lengths(vals) != length(group))) {
    fp_data_abort(sprintf("holds LFW race flag files that do not match the %d images (%s lines; one 0/1 value per image)",
                          length(group), paste(lengths(vals), collapse = ", ")))
  }
  names(vals) <- flags
  data.frame(sex = group, lapply(vals, function(v) factor(v, levels = c(0L, 1L), labels = c("no", "yes"))))
}

# Area-averaging weights resizing n_in pixels to n_out: row j = output pixel, entries = share of
# each input pixel in the output cell (rows sum to 1).
fp_area_weights <- function(n_in, n_out) {
  w <- matrix(0, n_out, n_in)
  r <- n_in / n_out
  for (j in seq_len(n_out)) {
    lo <- (j - 1) * r
    hi <- j * r
    i <- seq_len(n_in)
    w[j, ] <- pmax(0, pmin(hi, i) - pmax(lo, i - 1)) / r
  }
  w
}

# Resize images stored as rows (row-major nr x nc pixels) to mr x mc by area averaging, one
# image dimension at a time.
fp_resize_rows <- function(X, nr, nc, mr, mc) {
  n <- nrow(X)
  Wr <- fp_area_weights(nr, mr)
  Wc <- fp_area_weights(nc, mc)
  # t(X): column i = image i, pixel (r, c) at (r - 1) * nc + c, so columns of `a` are image rows
  a <- Wc %*% matrix(t(X), nrow = nc)                      # mc x (nr * n)
  a <- aperm(array(a, c(mc, nr, n)), c(2L, 1L, 3L))        # nr x mc x n
  a <- Wr %*% matrix(a, nrow = nr)                         # mr x (mc * n)
  a <- aperm(array(a, c(mr, mc, n)), c(2L, 1L, 3L))        # mc x mr x n: row-major per image
  t(matrix(a, nrow = mc * mr))
}

fp_read_lfw576 <- function(spec, dir, n_per_group = 2000L, seed = 1L, size = 24L, scale = TRUE) {
  fp_check_flag(scale, "scale")
  n_per_group <- fp_check_count(n_per_group, 1L, 2962L, "n_per_group")
  size <- fp_check_count(size, 1L, 36L, "size")
  if (!is.numeric(seed) || length(seed) != 1L || is.na(seed) || seed != round(seed)) {
    fp_abort("must be a single whole number", "seed")
  }
  raw <- fp_lfw_raw(spec, dir)
  f <- which(raw$sex == 0L)
  m <- which(raw$sex == 1L)
  if (length(f) < n_per_group || length(m) < n_per_group) {
    fp_data_abort(sprintf(paste("(%d) asks for more images than a group of the LFW file has (%d female, %d male):",
                                "the draw is without replacement, so give a value no larger than the smaller"),
                          n_per_group, length(f), length(m)), "n_per_group")
  }
  # draw with a local, fully specified RNG; restore the session's random state afterwards
  old_kind <- RNGkind()
  had_seed <- exists(".Random.seed", envir = globalenv(), inherits = FALSE)
  if (had_seed) old_seed <- get(".Random.seed", envir = globalenv(), inherits = FALSE)
  on.exit({
    RNGkind(old_kind[1], old_kind[2], old_kind[3])
    if (had_seed) assign(".Random.seed", old_seed, envir = globalenv())
    else if (exists(".Random.seed", envir = globalenv(), inherits = FALSE)) {
      rm(".Random.seed", envir = globalenv())
    }
  }, add = TRUE)
  set.seed(seed, kind = "Mersenne-Twister", normal.kind = "Inversion", sample.kind = "Rejection")
  sel_f <- f[sample.int(length(f), n_per_group)]
  sel_m <- m[sample.int(length(m), n_per_group)]
  rows <- sort(c(sel_f, sel_m))
  x <- fp_resize_rows(raw$X[rows, , drop = FALSE] / 3, 49L, 36L, size, size)
  pre <- c(sprintf("rows: %d female + %d male images drawn without replacement, set.seed(%d, kind = 'Mersenne-Twister', sample.kind = 'Rejection'); female draw first; original row order kept (info$rows)",
                   n_per_group, n_per_group, as.integer(seed)),
           "pixel values: k / 3 from the stored integers k",
           sprintf("each 49 x 36 image resized to %d x %d by area averaging (output pixel = overlap-weighted mean of the input pixels in its cell)", size, size))
  if (scale) {
    x <- x / 255
    pre <- c(pre, "each pixel value divided by 255 (Samadi et al.)")
  }
  colnames(x) <- fp_lfw_colnames(size, size)
  group <- factor(spec$levels[raw$sex[rows] + 1L], levels = spec$levels)
  spec$n <- 2L * n_per_group
  new_fairproj_data(x, group, NULL, spec, raw$files, pre,
                    list(n_per_group = n_per_group, seed = seed, size = size, scale = scale),
                    extra = list(rows = rows))
}

# ---------------------------------------------------------------------------------------------
# Olfat & Aswani / Vu et al. (DRFPCA Table 2)
# ---------------------------------------------------------------------------------------------

fp_read_olfat <- function(spec, dir, standardise = TRUE, drop_constant = TRUE, version = NULL) {
  fp_check_flag(standardise, "standardise")
  fp_check_flag(drop_constant, "drop_constant")
  file <- spec$files
  notes <- NULL
  if (!is.null(version)) {
    if (spec$name != "skillcraft") fp_abort("is only an option of 'skillcraft'", "version")
    version <- fp_match_arg(version, c("drfpca", "olfat"), "version")
    if (version == "olfat") {
      file <- "olfat/SkillCraft_Data.csv.xz"
      spec$files <- file
    }
  }
  path <- fp_data_file(spec, dir, file)
  df <- fp_data_read_csv(path)
  names(df) <- gsub("\"", "", names(df), fixed = TRUE)
  p <- ncol(df)
  if (p < 3L) fp_data_bad_file(path, sprintf("it has %d column(s); expected features, a label and the sensitive attribute", p))
  x <- fp_data_numeric(df[seq_len(p - 2L)], path)
  y <- unname(fp_data_numeric(df[p - 1L], path)[, 1L])
  s <- df[[p]]
  group <- fp_data_group(s, c(0, 1), spec$levels, path, sprintf("'%s' (last)", names(df)[p]))
  pre <- sprintf("features: all columns but the last two (label '%s', sensitive '%s')",
                 names(df)[p - 1L], names(df)[p])
  dropped <- character(0)
  if (drop_constant) {
    dropped <- colnames(x)[apply(x, 2L, function(v) min(v) == max(v))]
    if (spec$name == "steel") dropped <- c(dropped, intersect(c("perimX", "perimY"), colnames(x)))
    if (length(dropped) == ncol(x)) {
      fp_data_bad_file(path, sprintf("every feature column is constant (%s), so none is left; is it the file described in the data README?",
                                     fp_name_list(dropped)))
    }
    if (length(dropped)) {
      x <- x[, setdiff(colnames(x), dropped), drop = FALSE]
      pre <- c(pre, sprintf("dropped %s (%s), as the Vu et al. code does", paste(dropped, collapse = ", "),
                            if (spec$name == "steel") "constant columns and perimX, perimY" else "constant"))
    }
  }
  if (standardise) {
    x <- fp_data_standardise(x, population = TRUE)
    pre <- c(pre, "each column centred and divided by its population standard deviation (divisor n), as the Vu et al. code does (it uses the training rows' statistics)")
  }
  new_fairproj_data(x, group, y, spec, path, pre,
                    list(standardise = standardise, drop_constant = drop_constant,
                         version = version),
                    notes = notes, extra = list(dropped = dropped))
}

# ---------------------------------------------------------------------------------------------
# Lee et al. splits (Kleindessner et al.)
# ---------------------------------------------------------------------------------------------

fp_lee_protected_col <- c(Adult = 3L, COMPAS = 2L, German = 5L)

fp_read_lee <- function(spec, dir, split = 0L, part = c("train", "test", "full"),
                        drop_protected = FALSE) {
  split <- fp_check_split(split)
  part <- fp_match_arg(part, c("train", "test", "full"), "part")
  fp_check_flag(drop_protected, "drop_protected")
  folder <- sub("^lee/([^/]+)/.*$", "\\1", spec$files[1])  # lee/<folder>/{train,test}_{0..9}.csv.xz
  rel <- if (part == "full") sprintf("lee/%s/full.csv.xz", folder) else
    sprintf("lee/%s/%s_%d.csv.xz", folder, part, split)
  path <- fp_data_file(spec, dir, rel)
  df <- fp_data_read_csv(path, header = FALSE, min_rows = 1L)
  m <- fp_data_numeric(df, path)
  p <- ncol(m)
  d <- p - 2L
  prot <- fp_lee_protected_col[[folder]]
  if (d < prot) {
    fp_data_bad_file(path, sprintf(paste("it has %d column(s); expected the features (the protected attribute is feature %d),",
                                         "the label and the sensitive attribute"), p, prot))
  }
  x <- m[, seq_len(d), drop = FALSE]
  if (folder == "COMPAS" && d == 11L) {
    colnames(x) <- c("age", "race", "juv_fel_count", "juv_misd_count", "juv_other_count",
                     "priors_count", "age_cat_25_45", "age_cat_over_45", "age_cat_under_25",
                     "c_charge_degree_F", "c_charge_degree_M")
  } else {
    colnames(x) <- paste0("x", seq_len(d))
  }
  group <- fp_data_group(m[, p], c(0, 1), spec$levels, path, "last")
  pre <- c(sprintf("file %s: columns [features, label, sensitive]; %s", basename(rel),
                   if (part == "full") "features not standardised" else
                     sprintf("features standardised by Lee et al. with the training statistics of split %d", split)),
           sprintf("feature column %d is the protected attribute (kept as a feature, as in Lee et al. and Kleindessner et al.)", prot))
  if (drop_protected) {
    x <- x[, -prot, drop = FALSE]
    pre <- c(pre, sprintf("feature column %d (protected attribute) dropped", prot))
  }
  new_fairproj_data(x, group, unname(m[, p - 1L]), spec, path, pre,
                    list(split = split, part = part, drop_protected = drop_protected),
                    extra = list(split = split, part = part))
}

# ---------------------------------------------------------------------------------------------
# Fair CSS (Matakos et al.)
# ---------------------------------------------------------------------------------------------

fp_pandas_na <- c("", "NA", "N/A", "NaN", "nan", "-NaN", "-nan", "null", "NULL", "n/a", "#N/A",
                  "#NA", "<NA>", "-1.#IND", "1.#IND", "-1.#QNAN", "1.#QNAN", "#N/A N/A")

fp_adult_names <- c("age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
                    "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
                    "hours-per-week", "native-country", "income")

fp_read_adult_data <- function(spec, dir, test = FALSE) {
  path <- fp_data_file(spec, dir, if (test) "css/adult.test.xz" else "css/adult.data.xz")
  # adult.test starts with a line "|1x3 Cross validator" and ends its labels with a full stop
  df <- fp_data_read_csv(path, header = FALSE, strip.white = TRUE, col.names = fp_adult_names,
                         stringsAsFactors = FALSE, na.strings = character(0),
                         blank.lines.skip = TRUE, skip = if (test) 1L else 0L,
                         min_rows = if (test) 1L else 2L)   # a model may be applied to one row
  if (ncol(df) != 15L) fp_data_bad_file(path, sprintf("it should have 15 columns, has %d", ncol(df)))
  if (test) df$income <- sub("\\.$", "", df$income)
  list(df = df, path = path)
}

# The parsers of the Fair CSS datasets: fp_css_parse_<name without "css_">(spec, dir) reads the
# raw file(s) and returns list(df, group, y, files, pre, extra): the columns to encode (the
# protected attribute removed), the groups, the label, the files read, the steps done and the
# evidence worth keeping. fp_read_css() encodes and normalises them alike.
fp_css_parser <- function(name) {
  get(paste0("fp_css_parse_", sub("^css_", "", name)), envir = asNamespace("fairproj"), mode = "function",
      inherits = FALSE)
}

fp_css_parse_heart <- function(spec, dir) {
  path <- fp_data_file(spec, dir, spec$files)
  df <- fp_data_read_csv(path, header = FALSE, na.strings = "?",
                         col.names = c("age", "sex", "cp", "trestbps", "chol", "fbs", "restecg",
                                       "thalach", "exang", "oldpeak", "slope", "ca", "thal", "num"))
  keep <- stats::complete.cases(df)
  df <- df[keep, , drop = FALSE]
  pre <- sprintf("dropped %d rows with a missing value ('?')", sum(!keep))
  code <- df$sex
  group <- fp_data_group(code, c(1, 0), spec$levels, path, "sex")
  df$sex <- NULL
  y <- as.numeric(df$num)
  list(df = df, group = group, y = y, files = path, pre = pre, extra = list())
}

fp_css_parse_german <- function(spec, dir) {
  path <- fp_data_file(spec, dir, spec$files)
  df <- fp_data_read_csv(path, header = FALSE, sep = " ", stringsAsFactors = FALSE,
                         col.names = c("checkingAcc", "durMonth", "creditHist", "purpose",
                                       "creditAmt", "savingsAcc", "employmentSince", "instalRate",
                                       "personalStatus", "otherDebtors", "recidenceSize",
                                       "property", "age", "instalPlans", "housing",
                                       "numOfCreditCards", "job", "dependents", "telephone",
                                       "foreignWorker", "decision"))
  if (ncol(df) != 21L) fp_data_bad_file(path, sprintf("it should have 21 columns, has %d", ncol(df)))
  female <- df$personalStatus %in% c("A92", "A95")
  group <- factor(ifelse(female, "female", "male"), levels = spec$levels)
  pre <- "sex derived from personal status: A92 or A95 = female, otherwise male"
  y <- as.numeric(df$decision)
  list(df = df, group = group, y = y, files = path, pre = pre, extra = list())
}

fp_css_parse_credit <- function(spec, dir) {
  path <- fp_data_file(spec, dir, spec$files)
  df <- fp_data_read_csv(path)
  fp_data_check_cols(df, "SEX", path)
  group <- fp_data_group(df$SEX, c(2, 1), spec$levels, path, "SEX")
  df$SEX <- NULL
  y <- if ("default.payment.next.month" %in% names(df)) as.numeric(df[["default.payment.next.month"]]) else NULL
  pre <- "all columns of the UCI file kept, including ID and the label (the authors' column count)"
  list(df = df, group = group, y = y, files = path, pre = pre, extra = list())
}

fp_css_parse_student <- function(spec, dir) {
  path <- fp_data_file(spec, dir, spec$files)
  df <- fp_data_read_csv(path, sep = ";", stringsAsFactors = FALSE)
  fp_data_check_cols(df, c("sex", "G3"), path)
  group <- fp_data_group(df$sex, c("M", "F"), spec$levels, path, "sex")
  df$sex <- NULL
  y <- as.numeric(df$G3)
  list(df = df, group = group, y = y, files = path, pre = character(0), extra = list())
}

fp_css_parse_adult <- function(spec, dir) {
  a <- fp_read_adult_data(spec, dir)
  df <- a$df
  group <- fp_data_group(df$sex, c("Male", "Female"), spec$levels, a$path, "sex")
  df$sex <- NULL
  y <- as.numeric(df$income == ">50K")
  pre <- "column names from adult.names; '?' kept as a category (as pandas reads it)"
  list(df = df, group = group, y = y, files = a$path, pre = pre, extra = list())
}

fp_css_parse_compas <- function(spec, dir) {
  path <- fp_data_file(spec, dir, spec$files)
  raw <- fp_data_read_csv(path, stringsAsFactors = FALSE, na.strings = fp_pandas_na,
                          dupes = "pandas")
  dates <- c("compas_screening_date", "dob", "c_jail_in", "c_jail_out", "c_offense_date",
             "vr_offense_date", "v_screening_date", "screening_date")
  keep <- c(dates, "sex", "age", "age_cat", "race", "juv_fel_count", "decile_score",
            "juv_misd_count", "juv_other_count", "priors_count", "days_b_screening_arrest",
            "c_days_from_compas", "c_charge_degree", "c_charge_desc", "is_recid",
            "r_charge_degree", "is_violent_recid", "v_type_of_assessment", "v_decile_score",
            "v_score_text", "type_of_assessment", "decile_score.1", "score_text")
  fp_data_check_cols(raw, keep, path)
  base <- as.Date("1900-01-01")
  for (nm in dates) {
    v <- as.Date(substr(raw[[nm]], 1L, 10L), format = "%Y-%m-%d")
    raw[[nm]] <- as.numeric(v - base)
  }
  df <- raw[keep]
  ok <- stats::complete.cases(df)
  # the evidence for the row count (Table 1 of the paper counts the raw rows)
  extra <- list(raw_rows = nrow(raw), raw_group_sizes = c(table(factor(raw$sex, levels = c("Male", "Female")))),
                missing_by_column = colSums(is.na(df)))
  df <- df[ok, , drop = FALSE]
  pre <- c("8 date columns converted to days since 1900-01-01",
           "the 30 columns of the authors' loader kept",
           sprintf("dropped %d of %d rows with a missing value", sum(!ok), length(ok)))
  group <- fp_data_group(df$sex, c("Male", "Female"), spec$levels, path, "sex")
  df$sex <- NULL
  y <- as.numeric(df$is_recid)
  list(df = df, group = group, y = y, files = path, pre = pre, extra = extra)
}

fp_css_parse_communities <- function(spec, dir) {
  path <- fp_data_file(spec, dir, spec$files[1])
  npath <- fp_data_file(spec, dir, spec$files[2])
  nl <- readLines(npath, warn = FALSE)
  at <- grep("^@attribute", nl, value = TRUE)
  cn <- vapply(strsplit(at, "[[:space:]]+"), `[`, "", 2L)
  if (length(cn) != 128L) fp_data_bad_file(npath, sprintf("it should list 128 @attribute lines, has %d", length(cn)))
  df <- fp_data_read_csv(path, header = FALSE, na.strings = "?", col.names = cn,
                         stringsAsFactors = FALSE)
  police <- c("LemasSwornFT", "LemasSwFTPerPop", "LemasSwFTFieldOps", "LemasSwFTFieldPerPop",
              "LemasTotalReq", "LemasTotReqPerPop", "PolicReqPerOffic", "PolicPerPop",
              "RacialMatchCommPol", "PctPolicWhite", "PctPolicBlack", "PctPolicHisp",
              "PctPolicAsian", "PctPolicMinor", "OfficAssgnDrugUnits", "NumKindsDrugsSeiz",
              "PolicAveOTWorked", "PolicCars", "PolicOperBudg", "LemasPctPolicOnPatr",
              "LemasGangUnitDeploy", "PolicBudgPerPop")
  drop <- c("county", "community", "communityname", police)
  fp_data_check_cols(df, c(drop, "racePctWhite", "racepctblack", "ViolentCrimesPerPop"), path)
  df <- df[setdiff(names(df), drop)]
  nas <- sum(is.na(df))
  df[is.na(df)] <- 0
  white <- df$racePctWhite >= 0.5
  group <- factor(ifelse(white, spec$levels[1], spec$levels[2]), levels = spec$levels)
  df$racePctWhite <- NULL
  df$racepctblack <- NULL
  y <- as.numeric(df$ViolentCrimesPerPop)
  pre <- c("column names from the @attribute lines of communities.names",
           "dropped county, community, communityname and the 22 LEMAS/police columns",
           sprintf("%d missing values ('?') set to 0", nas),
           "groups: racePctWhite >= 0.5; then racePctWhite and racepctblack dropped")
  list(df = df, group = group, y = y, files = c(path, npath), pre = pre, extra = list())
}

# Each group's columns scaled to unit Euclidean norm within the group (all-zero columns stay
# zero); tamed first (fp_data_tame()), so that values near 1e200 or 1e-170 are scaled too.
fp_data_unit_norms <- function(x, group) {
  for (g in levels(group)) {
    i <- which(group == g)
    xi <- fp_data_tame(x[i, , drop = FALSE])
    nr <- sqrt(colSums(xi^2))
    nr[nr == 0] <- 1
    x[i, ] <- sweep(xi, 2L, nr, "/")
  }
  x
}

fp_read_css <- function(spec, dir, normalise = TRUE, digits = 5L) {
  fp_check_flag(normalise, "normalise")
  digits <- fp_check_digits(digits)
  parsed <- fp_css_parser(spec$name)(spec, dir)
  df <- parsed$df
  group <- parsed$group
  files <- parsed$files
  pre <- parsed$pre
  fp_data_text_numbers(df[vapply(df, is.character, logical(1))], files[1])
  fp_data_check_missing(df, files[1])
  x <- fp_data_onehot(df)
  if (any(vapply(df, is.character, logical(1)))) {
    pre <- c(pre, "categorical columns one-hot encoded (numeric columns first, then indicators; pandas.get_dummies order)")
  }
  pre <- c(pre, "protected attribute dropped; label column(s) kept as features, as in the authors' code")
  if (normalise) {
    x <- fp_data_unit_norms(x, group)
    pre <- c(pre, "each group's columns scaled to unit Euclidean norm within the group (all-zero columns stay zero)")
    if (!is.null(digits)) {
      x <- round(x, digits)
      pre <- c(pre, sprintf("rounded to %d decimals", digits))
    }
  }
  new_fairproj_data(x, group, parsed$y, spec, files, pre, list(normalise = normalise, digits = digits),
                    extra = parsed$extra)
}

# ---------------------------------------------------------------------------------------------
# Kamani et al. multi-group data
# ---------------------------------------------------------------------------------------------

fp_read_kamani_adult <- function(spec, dir, standardise = TRUE, encoding = c("integer", "onehot"),
                                 part = c("train", "test")) {
  fp_check_flag(standardise, "standardise")
  encoding <- fp_match_arg(encoding, c("integer", "onehot"), "encoding")
  part <- fp_match_arg(part, c("train", "test"), "part")
  a <- fp_read_adult_data(spec, dir)
  df <- a$df
  df$income <- NULL
  # the codes (and the standardisation) of the test file are those of the training file
  lev <- lapply(df, function(v) if (is.character(v)) sort(unique(v), method = "radix") else NULL)
  src <- "adult.data"
  path <- a$path
  if (part == "test") {
    train <- df
    a <- fp_read_adult_data(spec, dir, test = TRUE)
    df <- a$df
    df$income <- NULL
    path <- a$path
    src <- "adult.test (the official test file; codes and standardisation of adult.data)"
  }
  attr <- if (spec$name == "adult_race") "race" else "sex"
  group <- fp_data_group(df[[attr]], spec$levels, spec$levels, path, attr)
  y <- as.numeric(a$df$income == ">50K")
  code <- function(d) {
    if (encoding == "integer") {
      for (nm in names(d)) if (!is.null(lev[[nm]])) d[[nm]] <- match(d[[nm]], lev[[nm]]) - 1
      x <- as.matrix(d)
      storage.mode(x) <- "double"
    } else {
      num <- as.matrix(d[vapply(lev, is.null, logical(1))])
      storage.mode(num) <- "double"
      blocks <- lapply(names(d)[!vapply(lev, is.null, logical(1))], function(nm) {
        m <- outer(d[[nm]], lev[[nm]], "==") * 1
        colnames(m) <- paste0(nm, "_", lev[[nm]])
        m
      })
      x <- cbind(num, do.call(cbind, blocks))
    }
    x
  }
  x <- code(df)
  if (anyNA(x)) {
    bad <- names(which(colSums(is.na(x)) > 0))
    fp_data_bad_file(path, sprintf("column(s) %s have levels not in adult.data; the test file is coded with the training levels",
                                   paste(bad, collapse = ", ")))
  }
  pre <- sprintf("the 14 features of %s (label dropped; sex and race kept); categorical columns %s", src,
                 if (encoding == "integer") "coded as integers 0, 1, ... in sorted level order" else "one-hot encoded")
  if (standardise) {
    xt <- if (part == "test") code(train) else x
    mu <- colMeans(xt)
    sdv <- sqrt(colSums(sweep(xt, 2L, mu)^2) / (nrow(xt) - 1))
    sdv[sdv == 0] <- 1
    x <- sweep(sweep(x, 2L, mu), 2L, sdv, "/")
    pre <- c(pre, sprintf("each column centred and divided by its standard deviation (divisor n - 1)%s",
                          if (part == "test") ", both of adult.data" else ""))
  }
  if (part == "test") spec$n <- nrow(x)
  new_fairproj_data(x, group, y, spec, path, pre,
                    list(standardise = standardise, encoding = encoding, part = part))
}

fp_read_kamani_credit <- function(spec, dir, standardise = TRUE, drop_unknown = TRUE) {
  fp_check_flag(standardise, "standardise")
  fp_check_flag(drop_unknown, "drop_unknown")
  path <- fp_data_file(spec, dir, spec$files)
  df <- fp_data_read_csv(path)
  lab <- "default.payment.next.month"
  fp_data_check_cols(df, c("ID", "SEX", "MARRIAGE", lab), path)
  fp_data_numeric(df[setdiff(names(df), "ID")], path)   # before the groups: a code on every row
  pre <- "the 23 UCI features (ID and label dropped; SEX and MARRIAGE kept)"
  if (spec$name == "credit_marriage") {
    if (drop_unknown) {
      keep <- df$MARRIAGE %in% c(1, 2, 3)
      pre <- c(pre, sprintf("dropped %d rows with MARRIAGE not in 1, 2, 3", sum(!keep)))
      df <- df[keep, , drop = FALSE]
      group <- fp_data_group(df$MARRIAGE, c(1, 2, 3), spec$levels, path, "MARRIAGE")
    } else {
      lev <- c(spec$levels, "unknown")
      group <- factor(lev[match(df$MARRIAGE, c(1, 2, 3), nomatch = 4L)], levels = lev)
      pre <- c(pre, "MARRIAGE codes other than 1, 2, 3 form the group 'unknown'")
    }
  } else {
    group <- fp_data_group(df$SEX, c(2, 1), spec$levels, path, "SEX")
  }
  y <- as.numeric(df[[lab]])
  x <- fp_data_numeric(df[setdiff(names(df), c("ID", lab))], path)
  if (standardise) {
    x <- fp_data_standardise(x)
    pre <- c(pre, "each column centred and divided by its standard deviation (divisor n - 1)")
  }
  new_fairproj_data(x, group, y, spec, path, pre,
                    list(standardise = standardise, drop_unknown = drop_unknown))
}
