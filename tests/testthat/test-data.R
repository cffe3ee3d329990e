# Dataset readers. Part 1: every reader on tiny synthetic files in the real formats, written here
# into a temporary directory (runs on any machine). Part 2: the real files when FAIRPROJ_DATA is
# set, checked against the dimensions and group counts of the data README and the papers.

write_xz <- function(dir, rel, lines) {
  path <- file.path(dir, rel)
  dir.create(dirname(path), recursive = TRUE, showWarnings = FALSE)
  con <- if (grepl("\\.xz$", rel)) xzfile(path, "w") else file(path, "w")
  writeLines(lines, con)
  close(con)
  invisible(path)
}

csv_lines <- function(df, header = TRUE, sep = ",", quote = FALSE) {
  con <- textConnection("out", "w", local = TRUE)
  utils::write.table(df, con, sep = sep, row.names = FALSE, col.names = header, quote = quote)
  close(con)
  out
}

# headerless numeric CSV lines in the np.savetxt("%.18e") style of the Lee et al. files
num_lines <- function(m) apply(m, 1, function(r) paste(sprintf("%.18e", r), collapse = ","))

new_data_dir <- function() {
  d <- tempfile("fpdata")
  dir.create(d)
  d
}

test_that("fairproj_datasets lists every name once with its dimensions", {
  ds <- fairproj_datasets()
  expected <- c("credit", "lfw", "lfw576", "default_credit", "biodeg", "ecoli", "energy",
                "german_credit", "image", "letter", "magic", "parkinsons", "skillcraft",
                "statlog", "steel", "taiwan_credit", "wine_quality", "lee_adult", "lee_compas",
                "lee_german", "css_heart", "css_german", "css_credit", "css_student",
                "css_adult", "css_compas", "css_communities", "adult_race", "credit_marriage",
                "adult_sex", "credit_sex")
  expect_s3_class(ds, "data.frame")
  expect_setequal(ds$name, expected)
  expect_equal(anyDuplicated(ds$name), 0L)
  expect_true(all(c("name", "n", "d", "groups", "group", "sizes", "files", "used_by") %in% names(ds)))
  expect_true(is.integer(ds$n) && is.integer(ds$d) && !anyNA(ds$n) && !anyNA(ds$d))
  expect_true(all(nzchar(ds$files)))
  expect_equal(ds$groups[ds$name == "adult_race"], 5L)
  expect_equal(ds$groups[ds$name == "credit_marriage"], 3L)
  # the listed group sizes add up to n
  tot <- vapply(strsplit(ds$sizes, "; "), function(s) sum(as.integer(sub(".*=", "", s))), 1)
  expect_equal(tot, ds$n)
})

test_that("the registry table resolves: a reader per row, every source and citation key known", {
  ns <- asNamespace("fairproj")
  tab <- ns$fp_registry_read("datasets.csv")
  refs <- ns$fp_registry_read("references.csv")
  expect_named(tab, c("name", "reader", "title", "n", "d", "group", "levels", "sizes", "files", "used_by",
                      "source", "citation", "label_note", "note"))
  expect_equal(anyDuplicated(tab$name), 0L)
  for (r in unique(tab$reader)) expect_true(is.function(ns$fp_data_reader(r)), info = r)
  for (nm in tab$name[tab$reader == "css"]) expect_true(is.function(ns$fp_css_parser(nm)), info = nm)
  specs <- ns$fp_registry_specs(tab, refs)
  # every "{key}" of a source is replaced, every citation key names a reference
  expect_false(any(grepl("{", vapply(specs, `[[`, "", "source"), fixed = TRUE)))
  expect_true(all(lengths(lapply(specs, `[[`, "citation")) == lengths(strsplit(tab$citation, ";"))))
  expect_true(all(vapply(specs, function(s) length(s$levels) == length(s$sizes) && length(s$levels) >= 2L, NA)))
  # a row naming an unknown citation key is refused
  bad <- tab[1, ]
  bad$citation <- "nobody"
  expect_error(ns$fp_registry_specs(bad, refs), "unknown citation")
})

test_that("bad names, options and missing files give classed errors", {
  d <- new_data_dir()
  expect_error(fairproj_data("nope", dir = d), "not a known dataset", class = "fairproj_input_error")
  expect_error(fairproj_data("ecol", dir = d), "did you mean 'ecoli'", class = "fairproj_input_error")
  expect_error(fairproj_data(c("ecoli", "energy"), dir = d), "`name`", class = "fairproj_input_error")
  expect_error(fairproj_data("ecoli", dir = NA), "`dir`", class = "fairproj_input_error")
  expect_error(fairproj_data("ecoli", dir = d, foo = 1), "unknown option.*'foo'.*standardise",
               class = "fairproj_input_error")
  expect_error(fairproj_data("ecoli", dir = d, TRUE), "must be named", class = "fairproj_input_error")
  # missing file: names the file, the directory searched and the original source
  e <- tryCatch(fairproj_data("ecoli", dir = d), error = identity)
  expect_s3_class(e, "fairproj_data_error")
  expect_s3_class(e, "fairproj_input_error")
  msg <- conditionMessage(e)
  expect_match(msg, "olfat/Ecoli_Data.csv.xz", fixed = TRUE)
  expect_match(msg, normalizePath(d, mustWork = FALSE), fixed = TRUE)
  expect_match(msg, "UCI", fixed = TRUE)
  expect_match(msg, "molfat66/FairML", fixed = TRUE)
  expect_match(msg, "never downloads", fixed = TRUE)
  # no directory at all
  expect_error(fairproj_data("lfw", dir = ""), "lfw/lfw_1764.csv.xz.*FAIRPROJ_DATA",
               class = "fairproj_data_error")
  for (nm in c("credit", "lee_german", "css_communities", "adult_race", "credit_sex")) {
    expect_error(fairproj_data(nm, dir = d), "not found in the data directory",
                 class = "fairproj_data_error")
  }
  # Lee et al.: Adult has no full.csv
  expect_error(fairproj_data("lee_adult", dir = d, part = "full"), "lee/Adult/full.csv.xz",
               class = "fairproj_data_error")
  expect_error(fairproj_data("lee_adult", dir = d, split = 10), "`split`", class = "fairproj_input_error")
  expect_error(fairproj_data("lee_adult", dir = d, part = "dev"), "`part` 'dev' is not one of", class = "fairproj_input_error")
})

test_that("credit: Samadi et al. features, education groups, standardisation", {
  d <- new_data_dir()
  set.seed(3)
  n <- 12
  nm <- c("ID", "EDUCATION", "SEX", "LIMIT_BAL", "MARRIAGE", "AGE", paste0("PAY_", 1:6),
          paste0("BILL_AMT", 1:6), paste0("PAY_AMT", 1:6))
  df <- as.data.frame(matrix(sample(0:9999, n * 24, TRUE), n, 24, dimnames = list(NULL, nm)))
  df$ID <- seq_len(n)
  df$EDUCATION <- c(1, 2, 3, 4, 0, 5, 6, 1, 2, 2, 1, 3)
  write_xz(d, "credit/default_degree.csv.xz",
           c(paste0(",", paste0("X", 1:23, collapse = ",")), csv_lines(df)))
  r <- fairproj_data("credit", dir = d)
  expect_s3_class(r, "fairproj_data")
  expect_equal(dim(r$x), c(n, 21L))
  expect_equal(colnames(r$x), nm[3:23])
  expect_null(r$y)
  expect_equal(levels(r$group), c("low", "high"))
  expect_equal(as.integer(table(r$group)), c(6L, 6L))
  expect_equal(as.character(r$group), ifelse(df$EDUCATION %in% 1:2, "high", "low"))
  expect_equal(unname(r$x), unname(scale(as.matrix(df[3:23]))), ignore_attr = TRUE)
  raw <- fairproj_data("credit", dir = d, standardise = FALSE, all_features = TRUE)
  expect_equal(unname(raw$x), unname(as.matrix(df[3:24])) * 1)
  cg <- fairproj_data("credit", dir = d, center_groups = TRUE)
  for (g in levels(cg$group)) expect_equal(unname(colMeans(cg$x[cg$group == g, ])), rep(0, 21))
  expect_true(any(grepl("PAY_AMT6 dropped", r$info$preprocessing)))
  expect_match(paste(r$info$citation, collapse = " "), "Samadi")
  expect_output(print(r), "low 6, high 6")
  expect_error(fairproj_data("credit", dir = d, standardise = NA), "`standardise`",
               class = "fairproj_input_error")
})

# Synthetic LFW: 6 images of integers k in 0..765, 3 female (0), 3 male (1).
write_lfw <- function(d) {
  set.seed(5)
  K <- matrix(sample(0:765, 6 * 1764, TRUE), 6)
  write_xz(d, "lfw/lfw_1764.csv.xz", apply(K, 1, paste, collapse = ","))
  write_xz(d, "lfw/sex.txt", c("1", "0", "0", "1", "0", "1"))
  vm <- data.frame(k = 0:765, original_text = sprintf("%.8g", 0:765 / 3))
  write_xz(d, "lfw/value_map.csv", csv_lines(vm))
  K
}

test_that("lfw: scan of the xz matrix, sex groups, /255 and the exact value map", {
  d <- new_data_dir()
  K <- write_lfw(d)
  r <- fairproj_data("lfw", dir = d)
  expect_equal(dim(r$x), c(6L, 1764L))
  expect_equal(colnames(r$x)[c(1, 36, 37, 1764)], c("p01_01", "p01_36", "p02_01", "p49_36"))
  expect_equal(unname(r$x), K / 3 / 255)
  expect_equal(as.character(r$group), c("male", "female", "female", "male", "female", "male"))
  expect_equal(levels(r$group), c("female", "male"))
  ex <- fairproj_data("lfw", dir = d, exact = TRUE, scale = FALSE)
  expect_equal(unname(ex$x), K / 3, tolerance = 1e-7)
  expect_false(identical(unname(ex$x), K / 3))  # float32 text values, not k/3 exactly
  cg <- fairproj_data("lfw", dir = d, center_groups = TRUE)
  expect_equal(unname(colMeans(cg$x[cg$group == "male", ])), rep(0, 1764))
  # attributes for intersectional groups: absent without the race flag files, then read
  expect_null(r$attributes)
  writeLines(c("1", "0", "0", "1", "1", "0"), file.path(d, "lfw", "asian.txt"))
  writeLines(c("0", "0", "1", "0", "0", "0"), file.path(d, "lfw", "black.txt"))
  writeLines(c("0", "1", "0", "1", "0", "1"), file.path(d, "lfw", "white.txt"))
  ra <- fairproj_data("lfw", dir = d)
  expect_equal(names(ra$attributes), c("sex", "asian", "black", "white"))
  expect_identical(ra$attributes$sex, ra$group)
  expect_equal(as.character(ra$attributes$white), c("no", "yes", "no", "yes", "no", "yes"))
  writeLines(c("1", "0"), file.path(d, "lfw", "white.txt"))
  expect_error(fairproj_data("lfw", dir = d), "race flag", class = "fairproj_data_error")
  # wrong width
  d2 <- new_data_dir()
  write_xz(d2, "lfw/lfw_1764.csv.xz", paste(1:10, collapse = ","))
  write_xz(d2, "lfw/sex.txt", "1")
  expect_error(fairproj_data("lfw", dir = d2), "line 1 holds 10 values where an image has 1764", class = "fairproj_data_error")
})

test_that("lfw576: seeded subsample, area-averaged 24 x 24 images, RNG state untouched", {
  d <- new_data_dir()
  K <- write_lfw(d)
  set.seed(42)
  before <- runif(1)
  set.seed(42)
  r <- fairproj_data("lfw576", dir = d, n_per_group = 2)
  after <- runif(1)
  expect_identical(before, after)
  expect_equal(dim(r$x), c(4L, 576L))
  expect_equal(as.integer(table(r$group)), c(2L, 2L))
  expect_true(all(diff(r$info$rows) > 0))
  expect_equal(as.character(r$group), c("female", "male")[c(1, 0, 0, 1, 0, 1)[r$info$rows] + 1])
  r2 <- fairproj_data("lfw576", dir = d, n_per_group = 2)
  expect_identical(r$x, r2$x)
  # independent check of the resizing: blow every pixel up into a 24 x 24 block, so that the
  # image is 1176 x 864 sub-pixels, then average each output cell's 49 x 36 block
  i <- r$info$rows[1]
  img <- matrix(K[i, ] / 3 / 255, 49, 36, byrow = TRUE)
  big <- kronecker(img, matrix(1, 24, 24))
  out <- matrix(0, 24, 24)
  for (a in 1:24) for (b in 1:24) {
    out[a, b] <- mean(big[(a - 1) * 49 + 1:49, (b - 1) * 36 + 1:36])
  }
  expect_equal(unname(r$x[1, ]), as.vector(t(out)))
  expect_equal(colnames(r$x)[c(1, 24, 25, 576)], c("p01_01", "p01_24", "p02_01", "p24_24"))
  # other sizes
  r12 <- fairproj_data("lfw576", dir = d, n_per_group = 1, size = 12, seed = 7)
  expect_equal(dim(r12$x), c(2L, 144L))
  expect_equal(mean(r12$x[1, ]), mean(K[r12$info$rows[1], ] / 3 / 255))
  expect_error(fairproj_data("lfw576", dir = d, n_per_group = 5), "`n_per_group` \\(5\\) asks for more images",
               class = "fairproj_data_error")
  expect_error(fairproj_data("lfw576", dir = d, seed = 1.5), "`seed`", class = "fairproj_input_error")
})

test_that("the Olfat & Aswani / Vu et al. readers parse their layout", {
  d <- new_data_dir()
  reg <- fairproj_datasets()
  olfat <- c("default_credit", "biodeg", "ecoli", "energy", "german_credit", "image", "letter",
             "magic", "parkinsons", "skillcraft", "statlog", "steel", "taiwan_credit", "wine_quality")
  set.seed(9)
  n <- 10
  df <- data.frame(a = rnorm(n), `b c` = rnorm(n), const = 3, perimX = rnorm(n),
                   perimY = rnorm(n), check.names = FALSE)
  df$label <- rep(0:1, 5)
  df$`sens?` <- c(0, 0, 1, 1, 1, 0, 1, 1, 1, 1)
  lines <- csv_lines(df)
  lines[1] <- sub("b c", "\"\"\"b c\"\"\"", lines[1], fixed = TRUE)  # quoted name, as in Wine
  files <- sub(",.*", "", reg$files[match(olfat, reg$name)])
  for (f in unique(c(files, "olfat/SkillCraft_Data.csv.xz"))) write_xz(d, f, lines)
  for (nm in olfat) {
    r <- fairproj_data(nm, dir = d)
    keep <- if (nm == "steel") c("a", "b c") else c("a", "b c", "perimX", "perimY")
    expect_equal(colnames(r$x), keep)
    expect_equal(r$info$dropped, setdiff(c("a", "b c", "const", "perimX", "perimY"), keep))
    expect_equal(r$y, df$label)
    expect_equal(as.integer(table(r$group)), c(3L, 7L))
    expect_equal(as.integer(r$group), df$`sens?` + 1L)
    # population standardisation
    expect_equal(unname(colMeans(r$x)), rep(0, length(keep)))
    expect_equal(unname(sqrt(colMeans(r$x^2))), rep(1, length(keep)))
  }
  raw <- fairproj_data("ecoli", dir = d, standardise = FALSE, drop_constant = FALSE)
  expect_equal(unname(raw$x), unname(as.matrix(df[1:5])))
  expect_equal(fairproj_data("skillcraft", dir = d, version = "olfat")$info$files,
               file.path(d, "olfat/SkillCraft_Data.csv.xz"))
  expect_error(fairproj_data("ecoli", dir = d, version = "olfat"), "`version`",
               class = "fairproj_input_error")
  # a sensitive column that is not 0/1
  df$`sens?`[1] <- 2
  write_xz(d, "olfat/Energy_Data.csv.xz", csv_lines(df))
  expect_error(fairproj_data("energy", dir = d), "unexpected value", class = "fairproj_data_error")
})

test_that("the Lee et al. split readers pick the split and the part", {
  d <- new_data_dir()
  set.seed(11)
  mk <- function(n, d, seed) {
    set.seed(seed)
    m <- cbind(matrix(rnorm(n * d), n), rbinom(n, 1, 0.3), rbinom(n, 1, 0.5))
    m
  }
  dims <- c(Adult = 97, COMPAS = 11, German = 57)
  for (f in names(dims)) {
    tr <- mk(8, dims[[f]], 1)
    te <- mk(5, dims[[f]], 2)
    write_xz(d, sprintf("lee/%s/train_3.csv.xz", f), num_lines(tr))
    write_xz(d, sprintf("lee/%s/test_3.csv.xz", f), num_lines(te))
  }
  write_xz(d, "lee/German/full.csv.xz", num_lines(mk(6, 57, 3)))
  for (nm in c("lee_adult", "lee_compas", "lee_german")) {
    f <- c(lee_adult = "Adult", lee_compas = "COMPAS", lee_german = "German")[[nm]]
    tr <- mk(8, dims[[f]], 1)
    r <- fairproj_data(nm, dir = d, split = 3)
    expect_equal(dim(r$x), c(8L, dims[[f]]))
    expect_equal(unname(r$x), tr[, seq_len(dims[[f]])])
    expect_equal(r$y, tr[, dims[[f]] + 1])
    expect_equal(as.integer(r$group) - 1L, as.integer(tr[, dims[[f]] + 2]))
    te <- fairproj_data(nm, dir = d, split = 3, part = "test")
    expect_equal(nrow(te$x), 5L)
    expect_equal(te$info$split, 3L)
    dp <- fairproj_data(nm, dir = d, split = 3, drop_protected = TRUE)
    prot <- c(lee_adult = 3, lee_compas = 2, lee_german = 5)[[nm]]
    expect_equal(unname(dp$x), tr[, seq_len(dims[[f]])[-prot]])
    expect_error(fairproj_data(nm, dir = d, split = 0), sprintf("lee/%s/train_0.csv.xz", f),
                 class = "fairproj_data_error")
  }
  expect_equal(colnames(fairproj_data("lee_compas", dir = d, split = 3)$x)[1:2], c("age", "race"))
  expect_equal(nrow(fairproj_data("lee_german", dir = d, part = "full")$x), 6L)
})

# Per-group unit column norms (or zero columns), as the Fair CSS preprocessing requires.
expect_group_unit_norms <- function(r, digits = 5) {
  for (g in levels(r$group)) {
    nr <- sqrt(colSums(r$x[r$group == g, , drop = FALSE]^2))
    expect_true(all(abs(nr - 1) < 1e-3 | nr == 0))
  }
  expect_equal(r$x, round(r$x, digits))
}

test_that("css_heart, css_german, css_credit, css_student: Fair CSS preprocessing", {
  d <- new_data_dir()
  heart <- c("63.0,1.0,1.0,145.0,233.0,1.0,2.0,150.0,0.0,2.3,3.0,0.0,6.0,0",
             "67.0,1.0,4.0,160.0,286.0,0.0,2.0,108.0,1.0,1.5,2.0,3.0,3.0,2",
             "67.0,0.0,4.0,120.0,229.0,0.0,2.0,129.0,1.0,2.6,2.0,?,7.0,1",
             "37.0,0.0,3.0,130.0,250.0,0.0,0.0,187.0,0.0,3.5,3.0,0.0,3.0,0",
             "41.0,0.0,2.0,130.0,204.0,0.0,2.0,172.0,0.0,1.4,1.0,0.0,?,0")
  write_xz(d, "css/processed.cleveland.data.xz", heart)
  r <- fairproj_data("css_heart", dir = d)
  expect_equal(dim(r$x), c(3L, 13L))
  expect_equal(colnames(r$x)[c(1, 13)], c("age", "num"))
  expect_false("sex" %in% colnames(r$x))
  expect_equal(as.character(r$group), c("male", "male", "female"))
  expect_equal(r$y, c(0, 2, 0))
  expect_group_unit_norms(r)
  # within group: a column divided by its group norm
  expect_equal(r$x[1:2, "age"], round(c(63, 67) / sqrt(63^2 + 67^2), 5))
  expect_equal(unname(r$x[3, "age"]), 1)
  raw <- fairproj_data("css_heart", dir = d, normalise = FALSE)
  expect_equal(raw$x[, "chol"], c(233, 286, 250))
  expect_equal(unname(fairproj_data("css_heart", dir = d, digits = NULL)$x[1, "age"]), 63 / sqrt(63^2 + 67^2))

  german <- c("A11 6 A34 A43 1169 A65 A75 4 A93 A101 4 A121 67 A143 A152 2 A173 1 A192 A201 1",
              "A12 48 A32 A43 5951 A61 A73 2 A92 A101 2 A121 22 A143 A152 1 A173 1 A191 A201 2",
              "A14 12 A34 A46 2096 A61 A74 2 A93 A101 3 A121 49 A143 A152 1 A172 2 A191 A201 1",
              "A11 42 A32 A42 7882 A61 A74 2 A95 A103 4 A122 45 A143 A153 1 A173 2 A191 A201 1")
  write_xz(d, "css/german.data.xz", german)
  r <- fairproj_data("css_german", dir = d)
  expect_equal(as.character(r$group), c("male", "female", "male", "female"))
  num <- c("durMonth", "creditAmt", "instalRate", "recidenceSize", "age", "numOfCreditCards",
           "dependents", "decision")
  expect_equal(colnames(r$x)[1:8], num)
  expect_equal(colnames(r$x)[9:11], c("checkingAcc_A11", "checkingAcc_A12", "checkingAcc_A14"))
  expect_true(all(c("personalStatus_A92", "personalStatus_A93", "personalStatus_A95", "purpose_A46") %in% colnames(r$x)))
  # 8 numeric + one indicator per level of the 13 categorical columns
  lev <- sum(vapply(c(1, 3, 4, 6, 7, 9, 10, 12, 14, 15, 17, 19, 20), function(j)
    length(unique(vapply(strsplit(german, " "), `[`, "", j))), 1))
  expect_equal(ncol(r$x), 8L + lev)
  raw <- fairproj_data("css_german", dir = d, normalise = FALSE)
  expect_equal(unname(raw$x[, "personalStatus_A92"]), c(0, 1, 0, 0))
  expect_group_unit_norms(r)

  cc <- data.frame(ID = 1:4, LIMIT_BAL = c(2e4, 1e5, 5e4, 3e4), SEX = c(2, 1, 2, 2),
                   EDUCATION = c(2, 1, 3, 2), default.payment.next.month = c(1, 0, 0, 1))
  write_xz(d, "credit/uci_credit_card.csv.xz", csv_lines(cc, quote = TRUE))
  r <- fairproj_data("css_credit", dir = d)
  expect_equal(colnames(r$x), c("ID", "LIMIT_BAL", "EDUCATION", "default.payment.next.month"))
  expect_equal(as.character(r$group), c("female", "male", "female", "female"))
  expect_equal(r$y, cc$default.payment.next.month)
  expect_equal(unname(r$x[2, ]), c(1, 1, 1, 0))
  expect_group_unit_norms(r)

  st <- c('school;sex;age;Mjob;higher;G1;G2;G3',
          '"GP";"F";18;"at_home";"yes";"0";"11";11',
          '"MS";"M";17;"teacher";"no";"9";"11";12',
          '"GP";"M";16;"other";"yes";"12";"13";13')
  write_xz(d, "css/student-por.csv.xz", st)
  r <- fairproj_data("css_student", dir = d, normalise = FALSE)
  expect_equal(colnames(r$x), c("age", "G1", "G2", "G3", "school_GP", "school_MS", "Mjob_at_home",
                                "Mjob_other", "Mjob_teacher", "higher_no", "higher_yes"))
  expect_equal(levels(r$group), c("M", "F"))
  expect_equal(as.integer(table(r$group)), c(2L, 1L))
  expect_equal(r$y, c(11, 12, 13))
})

write_adult <- function(d) {
  rows <- c("39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K",
            "50, Self-emp-not-inc, 83311, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, White, Male, 0, 0, 13, United-States, <=50K",
            "38, ?, 215646, HS-grad, 9, Divorced, ?, Not-in-family, Black, Female, 0, 0, 40, ?, >50K",
            "53, Private, 234721, 11th, 7, Married-civ-spouse, Handlers-cleaners, Husband, Asian-Pac-Islander, Male, 0, 0, 40, United-States, <=50K",
            "28, Private, 338409, Bachelors, 13, Married-civ-spouse, Prof-specialty, Wife, Amer-Indian-Eskimo, Female, 0, 0, 40, Cuba, <=50K",
            "37, Private, 284582, Masters, 14, Married-civ-spouse, Exec-managerial, Wife, Other, Female, 0, 0, 40, United-States, >50K")
  write_xz(d, "css/adult.data.xz", c(rows, ""))
}

test_that("css_adult, css_compas, css_communities: Fair CSS preprocessing", {
  d <- new_data_dir()
  write_adult(d)
  r <- fairproj_data("css_adult", dir = d, normalise = FALSE)
  expect_equal(nrow(r$x), 6L)
  expect_equal(colnames(r$x)[1:6], c("age", "fnlwgt", "education-num", "capital-gain",
                                     "capital-loss", "hours-per-week"))
  expect_equal(colnames(r$x)[7:10], c("workclass_?", "workclass_Private", "workclass_Self-emp-not-inc",
                                      "workclass_State-gov"))
  expect_true(all(c("income_<=50K", "income_>50K") %in% colnames(r$x)))
  expect_false(any(grepl("^sex", colnames(r$x))))
  expect_equal(as.character(r$group), c("Male", "Male", "Female", "Male", "Female", "Female"))
  expect_equal(r$y, c(0, 0, 1, 0, 0, 1))
  expect_group_unit_norms(fairproj_data("css_adult", dir = d))

  hdr <- c("id", "name", "compas_screening_date", "sex", "dob", "age", "age_cat", "race",
           "juv_fel_count", "decile_score", "juv_misd_count", "juv_other_count", "priors_count",
           "days_b_screening_arrest", "c_jail_in", "c_jail_out", "c_offense_date",
           "c_days_from_compas", "c_charge_degree", "c_charge_desc", "is_recid",
           "r_charge_degree", "is_violent_recid", "vr_offense_date", "v_type_of_assessment",
           "v_decile_score", "v_score_text", "v_screening_date", "type_of_assessment",
           "decile_score", "score_text", "screening_date")
  row <- function(id, sex, race, vr, jail_in = "1900-01-02 23:59:00") {
    paste(c(id, "a b", "1900-01-11", sex, "1900-01-01", 30, "25 - 45", race, 0, 5, 0, 0, 2, -1,
            jail_in, "1900-01-03 01:00:00", "1900-01-05", 1, "F", "Battery", 1, "(M1)", 1, vr,
            "Risk of Violence", 4, "Low", "1900-01-11", "Risk of Recidivism", 5, "Medium",
            "1900-01-11"), collapse = ",")
  }
  write_xz(d, "css/compas-scores.csv.xz",
           c(paste(hdr, collapse = ","), row(1, "Male", "Other", "1900-02-01"),
             row(2, "Female", "Caucasian", "1900-03-01"), row(3, "Male", "Caucasian", ""),
             row(4, "Male", "African-American", "1900-04-01", jail_in = "")))
  r <- fairproj_data("css_compas", dir = d, normalise = FALSE)
  expect_equal(nrow(r$x), 2L)
  expect_equal(as.character(r$group), c("Male", "Female"))
  expect_equal(unname(r$x[, "compas_screening_date"]), c(10, 10))
  expect_equal(unname(r$x[, "c_jail_in"]), c(1, 1))
  expect_equal(unname(r$x[, "vr_offense_date"]), c(31, 59))
  expect_equal(unname(r$x[, "race_Caucasian"]), c(0, 1))
  expect_true("decile_score.1" %in% colnames(r$x))
  expect_false(any(c("id", "name", "sex") %in% colnames(r$x)))
  expect_true(any(grepl("dropped 2 of 4 rows", r$info$preprocessing)))
  expect_equal(ncol(r$x), 8L + 12L + 10L)  # dates, numeric columns, one indicator per category

  police <- c("LemasSwornFT", "LemasSwFTPerPop", "LemasSwFTFieldOps", "LemasSwFTFieldPerPop",
              "LemasTotalReq", "LemasTotReqPerPop", "PolicReqPerOffic", "PolicPerPop",
              "RacialMatchCommPol", "PctPolicWhite", "PctPolicBlack", "PctPolicHisp",
              "PctPolicAsian", "PctPolicMinor", "OfficAssgnDrugUnits", "NumKindsDrugsSeiz",
              "PolicAveOTWorked", "PolicCars", "PolicOperBudg", "LemasPctPolicOnPatr",
              "LemasGangUnitDeploy", "PolicBudgPerPop")
  cn <- c("state", "county", "community", "communityname", "fold", "racepctblack",
          "racePctWhite", paste0("f", 1:98), police, "ViolentCrimesPerPop")
  write_xz(d, "css/communities.names",
           c("text", paste("@attribute", cn, ifelse(cn == "communityname", "string", "numeric")), "@data"))
  set.seed(2)
  vals <- matrix(round(runif(5 * 128), 2), 5)
  vals[, 7] <- c(0.9, 0.2, 0.5, 0.49, 0.7)
  txt <- matrix(format(vals), 5)
  txt[, 2:3] <- "?"
  txt[, 4] <- "Town"
  txt[2, 10] <- "?"
  write_xz(d, "css/communities.data.xz", apply(txt, 1, paste, collapse = ","))
  r <- fairproj_data("css_communities", dir = d, normalise = FALSE)
  expect_equal(ncol(r$x), 101L)
  expect_equal(colnames(r$x), c("state", "fold", paste0("f", 1:98), "ViolentCrimesPerPop"))
  expect_equal(as.character(r$group), c("majority_white", "not_majority_white", "majority_white",
                                        "not_majority_white", "majority_white"))
  expect_equal(unname(r$x[2, "f3"]), 0)
  expect_equal(r$y, vals[, 128])
  expect_group_unit_norms(fairproj_data("css_communities", dir = d))
})

test_that("Kamani et al. data: adult race / sex and credit marriage / sex", {
  d <- new_data_dir()
  write_adult(d)
  r <- fairproj_data("adult_race", dir = d, standardise = FALSE)
  expect_equal(dim(r$x), c(6L, 14L))
  expect_equal(levels(r$group), c("Black", "White", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other"))
  expect_equal(as.integer(table(r$group)), c(1L, 2L, 1L, 1L, 1L))
  expect_equal(unname(r$x[, "workclass"]), c(3, 2, 0, 1, 1, 1))  # sorted: ?, Private, Self-emp-not-inc, State-gov
  expect_equal(unname(r$x[, "sex"]), c(1, 1, 0, 1, 0, 0))
  expect_equal(r$y, c(0, 0, 1, 0, 0, 1))
  s <- fairproj_data("adult_sex", dir = d)
  expect_equal(as.integer(table(s$group)), c(3L, 3L))
  expect_equal(unname(colMeans(s$x)), rep(0, 14))
  oh <- fairproj_data("adult_sex", dir = d, encoding = "onehot", standardise = FALSE)
  expect_true("race_White" %in% colnames(oh$x))
  # the official test file: a header line, labels ending in ".", codes and standardisation of
  # the training file (a level missing from the test rows keeps its training code)
  write_xz(d, "css/adult.test.xz", c("|1x3 Cross validator",
    "25, Private, 226802, 11th, 7, Never-married, Adm-clerical, Not-in-family, Black, Male, 0, 0, 40, United-States, <=50K.",
    "44, State-gov, 160323, Masters, 14, Married-civ-spouse, Exec-managerial, Wife, White, Female, 7688, 0, 40, Cuba, >50K.", ""))
  te <- fairproj_data("adult_sex", dir = d, part = "test", standardise = FALSE)
  expect_equal(dim(te$x), c(2L, 14L))
  expect_equal(te$y, c(0, 1))
  expect_equal(as.character(te$group), c("Male", "Female"))
  expect_equal(unname(te$x[, "workclass"]), c(1, 3))        # the training codes
  expect_equal(unname(te$x[, "native-country"]), c(2, 1))   # ?, Cuba, United-States
  tr <- fairproj_data("adult_sex", dir = d, standardise = FALSE)
  tes <- fairproj_data("adult_sex", dir = d, part = "test")
  mu <- colMeans(tr$x); sdv <- apply(tr$x, 2, stats::sd); sdv[sdv == 0] <- 1
  expect_equal(unname(tes$x), unname(sweep(sweep(te$x, 2, mu), 2, sdv, "/")))
  teo <- fairproj_data("adult_sex", dir = d, part = "test", encoding = "onehot", standardise = FALSE)
  expect_identical(colnames(teo$x), colnames(oh$x))
  expect_error(fairproj_data("adult_sex", dir = d, part = "validation"), class = "fairproj_input_error")
  write_xz(d, "css/adult.test.xz", c("|1x3 Cross validator",
    "25, Never-worked, 226802, 11th, 7, Never-married, Adm-clerical, Not-in-family, Black, Male, 0, 0, 40, United-States, <=50K.", ""))
  expect_error(fairproj_data("adult_sex", dir = d, part = "test"), "workclass")

  cc <- data.frame(ID = 1:6, LIMIT_BAL = c(2e4, 1e5, 5e4, 3e4, 1e4, 7e4), SEX = c(2, 1, 2, 2, 1, 1),
                   MARRIAGE = c(1, 2, 3, 0, 2, 1), AGE = c(24, 26, 34, 37, 57, 29),
                   default.payment.next.month = c(1, 0, 0, 1, 0, 0))
  write_xz(d, "credit/uci_credit_card.csv.xz", csv_lines(cc, quote = TRUE))
  m <- fairproj_data("credit_marriage", dir = d, standardise = FALSE)
  expect_equal(colnames(m$x), c("LIMIT_BAL", "SEX", "MARRIAGE", "AGE"))
  expect_equal(nrow(m$x), 5L)
  expect_equal(as.integer(table(m$group)), c(2L, 2L, 1L))
  m0 <- fairproj_data("credit_marriage", dir = d, drop_unknown = FALSE)
  expect_equal(levels(m0$group), c("married", "single", "other", "unknown"))
  expect_equal(nrow(m0$x), 6L)
  cs <- fairproj_data("credit_sex", dir = d)
  expect_equal(as.character(cs$group), c("female", "male", "female", "female", "male", "male"))
  expect_equal(unname(apply(cs$x, 2, sd)), rep(1, 4))
})

# ---------------------------------------------------------------------------------------------
# Real data (FAIRPROJ_DATA set): dimensions and group counts from the data README and papers
# ---------------------------------------------------------------------------------------------

skip_if_no_data <- function() {
  skip_if(!nzchar(Sys.getenv("FAIRPROJ_DATA")), "FAIRPROJ_DATA not set")
}

counts <- function(r) as.integer(table(r$group))

test_that("real data: Samadi et al. credit (30000 x 21, education 5385 / 24615)", {
  skip_if_no_data()
  r <- fairproj_data("credit")
  expect_equal(dim(r$x), c(30000L, 21L))
  expect_equal(counts(r), c(5385L, 24615L))
  expect_equal(unname(apply(r$x[, 1:3], 2, sd)), rep(1, 3))
})

test_that("real data: Vu et al. Table 2 (N, d) and the README group counts", {
  skip_if_no_data()
  # name = c(N, d, size of group 0, size of group 1) from Vu et al. Table 2 and the data README
  tab2 <- list(default_credit = c(30000, 22, 24629, 5371), biodeg = c(1055, 40, 699, 356),
               ecoli = c(333, 7, 193, 140), energy = c(768, 8, 384, 384),
               german_credit = c(1000, 48, 299, 701), image = c(660, 18, 330, 330),
               letter = c(20000, 16, 15336, 4664), magic = c(19020, 10, 6688, 12332),
               parkinsons = c(5875, 20, 4008, 1867), skillcraft = c(3337, 17, 1496, 1841),
               statlog = c(3071, 36, 1999, 1072), steel = c(1941, 24, 1268, 673),
               taiwan_credit = c(29623, 22, 11743, 17880), wine_quality = c(6497, 11, 1599, 4898))
  for (nm in names(tab2)) {
    r <- fairproj_data(nm)
    expect_equal(dim(r$x), as.integer(tab2[[nm]][1:2]), label = nm)
    expect_equal(counts(r), as.integer(tab2[[nm]][3:4]), label = nm)
    expect_false(anyNA(r$x))
  }
  sk <- fairproj_data("skillcraft", version = "olfat")
  expect_equal(dim(sk$x), c(3338L, 18L))
})

test_that("real data: Lee et al. splits (README row counts, 97 / 11 / 57 features)", {
  skip_if_no_data()
  tot <- c(lee_adult = 2261L, lee_compas = 2468L, lee_german = 1000L)
  d <- c(lee_adult = 97L, lee_compas = 11L, lee_german = 57L)
  for (nm in names(tot)) for (s in 0:9) {
    tr <- fairproj_data(nm, split = s)
    te <- fairproj_data(nm, split = s, part = "test")
    expect_equal(ncol(tr$x), d[[nm]])
    expect_equal(nrow(tr$x) + nrow(te$x), tot[[nm]])
  }
  expect_equal(counts(fairproj_data("lee_adult")), c(540L, 1042L))
  expect_equal(counts(fairproj_data("lee_adult", part = "test")), c(210L, 469L))
  expect_equal(counts(fairproj_data("lee_compas")), c(1147L, 580L))
  expect_equal(counts(fairproj_data("lee_compas", part = "test")), c(494L, 247L))
  expect_equal(counts(fairproj_data("lee_german")), c(109L, 591L))
  expect_equal(counts(fairproj_data("lee_compas", part = "full")), c(1641L, 827L))
  expect_equal(counts(fairproj_data("lee_german", part = "full")), c(149L, 851L))
  # the protected attribute is also a feature (standardised): one value per group
  g <- fairproj_data("lee_german", split = 4)
  expect_equal(lengths(lapply(split(g$x[, 5], g$group), unique)), c(1L, 1L), ignore_attr = TRUE)
})

test_that("real data: Fair CSS datasets match Matakos et al. Table 1", {
  skip_if_no_data()
  # Table 1: columns (with the protected attribute), rows of the two groups, rank(A), rank(B)
  tab1 <- list(css_heart = c(14, 201, 96, 13, 13), css_german = c(63, 690, 310, 49, 47),
               css_credit = c(25, 18112, 11888, 24, 24), css_student = c(58, 266, 383, 42, 42),
               css_adult = c(109, 21790, 10771, 98, 98),
               css_communities = c(104, 1685, 309, 101, 101))
  rk <- function(m) qr(m, tol = 1e-7)$rank
  for (nm in names(tab1)) {
    r <- fairproj_data(nm)
    # communities: Table 1 counts majorityWhite and the two race columns dropped later
    extra <- if (nm == "css_communities") 3L else 1L
    expect_equal(ncol(r$x) + extra, as.integer(tab1[[nm]][1]), label = nm)
    expect_equal(counts(r), as.integer(tab1[[nm]][2:3]), label = nm)
    expect_equal(c(rk(r$x[r$group == levels(r$group)[1], ]), rk(r$x[r$group == levels(r$group)[2], ])),
                 as.integer(tab1[[nm]][4:5]), label = nm)
  }
  # compas: Table 1 lists 9336 / 2421 rows, the sex counts of the raw file; the authors' loader
  # then drops every row with a missing value, leaving 719. Columns and ranks match Table 1.
  r <- fairproj_data("css_compas")
  expect_equal(ncol(r$x) + 1L, 189L)
  expect_equal(counts(r), c(619L, 100L))
  expect_equal(c(rk(r$x[r$group == "Male", ]), rk(r$x[r$group == "Female", ])), c(167L, 73L))
  expect_match(paste(r$info$notes, collapse = " "), "9336 / 2421")
})

test_that("real data: Kamani et al. multi-group data", {
  skip_if_no_data()
  m <- fairproj_data("credit_marriage")
  expect_equal(dim(m$x), c(29946L, 23L))
  expect_equal(counts(m), c(13659L, 15964L, 323L))      # Kamani et al. section 6
  s <- fairproj_data("credit_sex")
  expect_equal(counts(s), c(18112L, 11888L))            # Kamani et al. section 6
  a <- fairproj_data("adult_race")
  expect_equal(dim(a$x), c(32561L, 14L))
  # Kamani et al. print 3047 / 27994 / 312 / 962 / 246; UCI adult.data has these counts instead
  expect_equal(counts(a), c(3124L, 27816L, 1039L, 311L, 271L))
  expect_false(identical(counts(a), c(3047L, 27994L, 312L, 962L, 246L)))
  te <- fairproj_data("adult_sex", part = "test")   # UCI adult.test: 16281 rows, 5421 / 10860
  expect_equal(dim(te$x), c(16281L, 14L))
  expect_equal(counts(te), c(5421L, 10860L))
  expect_equal(sum(te$y), 3846)
  expect_match(paste(a$info$notes, collapse = " "), "do not match")
  expect_equal(counts(fairproj_data("adult_sex")), c(10771L, 21790L))
})

test_that("real data: LFW (13232 x 1764, 2962 / 10270) and the 2000 + 2000 x 576 variant", {
  skip_if_no_data()
  r <- fairproj_data("lfw")
  expect_equal(dim(r$x), c(13232L, 1764L))
  expect_equal(counts(r), c(2962L, 10270L))
  expect_equal(range(r$x), c(0, 1))
  s <- fairproj_data("lfw576")
  expect_equal(dim(s$x), c(4000L, 576L))
  expect_equal(counts(s), c(2000L, 2000L))
  expect_equal(as.integer(s$group), as.integer(r$group[s$info$rows]))
  # area averaging keeps each image's mean brightness
  expect_equal(rowMeans(s$x[1:5, ]), rowMeans(r$x[s$info$rows[1:5], ]))
})
