# Dataset readers on damaged or foreign copies of the files: each malformed file, written here
# into a temporary directory, is a classed error that names `dir`, the file and, where there is
# one, the line and the column; never other data.

bad_dir <- function(rel, lines) {
  d <- tempfile("fpbad")
  path <- file.path(d, rel)
  dir.create(dirname(path), recursive = TRUE)
  writeLines(lines, path)
  d
}

# An Olfat & Aswani file (features..., label y, sensitive s) as olfat/Ecoli_Data.csv.
eco_lines <- c("f1,f2,f3,y,s", "1,2,3,0,0", "2,1,5,1,1", "3,4,4,0,0", "4,3,1,1,1", "5,6,2,0,1",
               "6,5,7,1,0", "7,1,2,0,0", "8,2,9,1,1")
eco_dir <- function(lines = eco_lines) bad_dir("olfat/Ecoli_Data.csv", lines)

expect_data_error <- function(expr, pattern, class = "fairproj_data_error") {
  e <- expect_error(expr, class = class)
  expect_match(conditionMessage(e), "^`dir` ")
  expect_match(conditionMessage(e), pattern)
  invisible(e)
}

test_that("data errors name `dir` and the file", {
  d <- tempfile("fpbad")
  dir.create(d)
  e <- expect_data_error(fairproj_data("ecoli", dir = d), "not found in the data directory")
  expect_match(conditionMessage(e), "olfat/Ecoli_Data.csv.xz", fixed = TRUE)
  expect_data_error(fairproj_data("ecoli", dir = ""), "FAIRPROJ_DATA")
})

test_that("an infinite number is refused at reading, naming the line and the column", {
  e <- expect_data_error(fairproj_data("ecoli", dir = eco_dir(sub("^2,1,5", "2,Inf,5", eco_lines))),
                         "line 3, column 'f2' holds an infinite value \\(Inf\\)")
  expect_match(conditionMessage(e), "Ecoli_Data.csv", fixed = TRUE)
  expect_data_error(fairproj_data("ecoli", dir = eco_dir(sub("^3,4,4", "3,4,-1e999", eco_lines))),
                    "line 4, column 'f3' holds an infinite value \\(-Inf\\)")
  cc <- c("ID,LIMIT_BAL,SEX,AGE,default.payment.next.month", "1,10,1,25,0", "2,20,2,Inf,1", "3,30,1,40,0")
  expect_data_error(fairproj_data("css_credit", dir = bad_dir("credit/uci_credit_card.csv", cc)),
                    "line 3, column 'AGE' holds an infinite value")
})

test_that("standardisation and unit norms do not square raw values: 1e200 and 1e-170 scale", {
  for (scale in c(1e200, 1e-170)) {
    lines <- c(eco_lines[1], vapply(strsplit(eco_lines[-1], ","), function(f) {
      paste(c(format(as.numeric(f[1]) * scale), f[-1]), collapse = ",")
    }, ""))
    r <- fairproj_data("ecoli", dir = eco_dir(lines))
    expect_equal(colnames(r$x), c("f1", "f2", "f3"), info = scale)
    expect_equal(unname(r$x[, "f1"]), as.vector(scale(1:8) * sqrt(8 / 7)), info = scale)
    expect_equal(r$info$dropped, character(0))
  }
  cc <- data.frame(ID = 1:4, LIMIT_BAL = c(1, 2, 3, 4) * 1e200, SEX = c(1, 2, 1, 2), AGE = c(1, 2, 3, 5) * 1e-170)
  lines <- c(paste(names(cc), collapse = ","), apply(format(cc), 1, paste, collapse = ","))
  r <- fairproj_data("css_credit", dir = bad_dir("credit/uci_credit_card.csv", trimws(lines)), digits = NULL)
  for (g in levels(r$group)) {
    expect_equal(unname(sqrt(colSums(r$x[r$group == g, ]^2))), c(1, 1, 1), info = g)
  }
})

test_that("a file whose feature columns are all constant is a classed error", {
  d <- eco_dir(c("f1,f2,y,s", "1,1,0,0", "1,1,1,1", "1,1,0,1"))
  expect_data_error(fairproj_data("ecoli", dir = d), "every feature column is constant \\(f1, f2\\)")
})

test_that("a line whose field count differs from the header's is refused in every CSV reader", {
  # header one field short: read.csv() would make the first column row names
  expect_data_error(fairproj_data("ecoli", dir = eco_dir(c("f2,f3,y,s", eco_lines[-1]))),
                    "line 2 has 5 field\\(s\\) where the header has 4")
  # extra fields: read.csv() would wrap them into a new row
  wrap <- eco_lines
  wrap[8] <- paste0(wrap[8], ",9,9,9,0,1")
  expect_data_error(fairproj_data("ecoli", dir = eco_dir(wrap)), "line 8 has 10 field\\(s\\) where the header has 5")
  cc <- c("ID,LIMIT_BAL,SEX,AGE,default.payment.next.month", "1,10,1,25,0", "2,20,2,31", "3,30,1,40,0")
  expect_data_error(fairproj_data("css_credit", dir = bad_dir("credit/uci_credit_card.csv", cc)),
                    "line 3 has 4 field\\(s\\) where the header has 5")
  cm <- c("ID,LIMIT_BAL,SEX,MARRIAGE,AGE,default.payment.next.month", "1,10,1,1,25,0", "2,20,2,2,31,1,7", "3,30,1,3,40,0")
  expect_data_error(fairproj_data("credit_sex", dir = bad_dir("credit/uci_credit_card.csv", cm)),
                    "line 3 has 7 field")
  feats <- c("SEX", "LIMIT_BAL", "MARRIAGE", "AGE", paste0("PAY_", 1:6), paste0("BILL_AMT", 1:6), paste0("PAY_AMT", 1:6))
  row <- function(id, edu) paste(c(id, edu, seq_along(feats) + id), collapse = ",")
  sam <- c(paste0("X", 0:23, collapse = ","), paste(c("ID", "EDUCATION", feats), collapse = ","),
           row(1, 1), row(2, 3), paste0(row(3, 2), ",5"))
  expect_data_error(fairproj_data("credit", dir = bad_dir("credit/default_degree.csv", sam)),
                    "line 5 has 25 field")
  adult <- c("39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K",
             "50, Self-emp-not-inc, 83311, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, White, Female, 0, 40, United-States, <=50K")
  expect_data_error(fairproj_data("adult_sex", dir = bad_dir("css/adult.data", adult)),
                    "line 2 has 14 field\\(s\\) where the format has 15")
})

test_that("a header that is not valid UTF-8 is a classed encoding error", {
  d <- eco_dir()
  path <- file.path(d, "olfat/Ecoli_Data.csv")
  writeBin(c(charToRaw("f1,caf"), as.raw(0xe9), charToRaw(paste0(",f3,y,s\n", paste(eco_lines[-1], collapse = "\n"), "\n"))),
           path)
  e <- expect_data_error(fairproj_data("ecoli", dir = d), "header has text that is not valid UTF-8",
                         class = "fairproj_encoding_error")
  expect_s3_class(e, "fairproj_data_error")
})

test_that("duplicated column names are refused, not renamed", {
  expect_data_error(fairproj_data("ecoli", dir = eco_dir(sub("^f1,f2", "f1,f1", eco_lines))),
                    "repeats the column name\\(s\\) 'f1'")
})

test_that("olfat: a text label and too few rows are classed errors", {
  lab <- eco_lines
  lab[-1] <- sub(",([01]),([01])$", ",a,\\2", lab[-1])
  expect_data_error(fairproj_data("ecoli", dir = eco_dir(lab)), "column\\(s\\) 'y' hold text where numbers")
  # one stray text cell in the label: numbers stored as text
  lab <- eco_lines
  lab[4] <- "3,4,4,zero,0"
  expect_data_error(fairproj_data("ecoli", dir = eco_dir(lab)), "column 'y' holds numbers stored as text \\(line 4: 'zero'",
                    class = "fairproj_text_numbers_error")
  expect_data_error(fairproj_data("ecoli", dir = eco_dir(eco_lines[1])), "it has 0 data row\\(s\\); at least 2")
  expect_data_error(fairproj_data("ecoli", dir = eco_dir(eco_lines[1:2])), "it has 1 data row\\(s\\); at least 2")
  miss <- eco_lines
  miss[6] <- "5,,2,0,1"
  expect_data_error(fairproj_data("ecoli", dir = eco_dir(miss)), "line 6, column 'f2' has a missing value")
})

test_that("css: a stray text cell in a numeric column is numbers stored as text", {
  cc <- data.frame(ID = 1:6, LIMIT_BAL = c(10, 20, 30, 40, 50, 60), SEX = c(1, 2, 1, 2, 1, 2),
                   AGE = c("25", "31", "n/a", "44", "52", "38"), default.payment.next.month = c(0, 1, 0, 1, 1, 0))
  lines <- c(paste(names(cc), collapse = ","), apply(cc, 1, paste, collapse = ","))
  e <- expect_data_error(fairproj_data("css_credit", dir = bad_dir("credit/uci_credit_card.csv", trimws(lines))),
                         "column 'AGE' holds numbers stored as text \\(line 4: 'n/a'", class = "fairproj_text_numbers_error")
  expect_s3_class(e, "fairproj_data_error")
  st <- c('school;sex;age;G3', '"GP";"F";18;11', '"MS";"M";17,5;12', '"GP";"M";16;13')
  expect_data_error(fairproj_data("css_student", dir = bad_dir("css/student-por.csv", st)),
                    "column 'age' holds numbers stored as text \\(line 3: '17,5'", class = "fairproj_text_numbers_error")
})

test_that("credit: an EDUCATION value that is missing or text is no code", {
  feats <- c("SEX", "LIMIT_BAL", "MARRIAGE", "AGE", paste0("PAY_", 1:6), paste0("BILL_AMT", 1:6), paste0("PAY_AMT", 1:6))
  row <- function(id, edu) paste(c(id, edu, seq_along(feats) * id), collapse = ",")
  sam <- function(edu) c(paste0("X", 0:23, collapse = ","), paste(c("ID", "EDUCATION", feats), collapse = ","),
                         row(1, 1), row(2, edu), row(3, 2), row(4, 4))
  expect_data_error(fairproj_data("credit", dir = bad_dir("credit/default_degree.csv", sam("NA"))),
                    "line 4, column 'EDUCATION' has a missing value")
  expect_data_error(fairproj_data("credit", dir = bad_dir("credit/default_degree.csv", sam("grad"))),
                    "column 'EDUCATION' holds numbers stored as text \\(line 4: 'grad'", class = "fairproj_text_numbers_error")
  cm <- c("ID,LIMIT_BAL,SEX,MARRIAGE,AGE,default.payment.next.month", "1,10,1,1,25,0", "2,20,2,NA,31,1", "3,30,1,3,40,0")
  expect_data_error(fairproj_data("credit_marriage", dir = bad_dir("credit/uci_credit_card.csv", cm)),
                    "line 3, column 'MARRIAGE' has a missing value")
})

test_that("Lee et al.: too narrow a file is a classed error", {
  for (w in 1:2) {
    lines <- apply(matrix(c(1:3, 0, 1, 0)[seq_len(3 * w)], 3), 1, paste, collapse = ",")
    expect_data_error(fairproj_data("lee_compas", dir = bad_dir("lee/COMPAS/train_0.csv", lines)),
                      sprintf("it has %d column\\(s\\); expected the features", w))
  }
  # German: the protected attribute is feature 5; a file with 3 features cannot hold it
  lines <- apply(cbind(matrix(1:12, 4), c(0, 1, 1, 0), c(1, 0, 1, 0)), 1, paste, collapse = ",")
  expect_data_error(fairproj_data("lee_german", dir = bad_dir("lee/German/train_0.csv", lines), drop_protected = TRUE),
                    "protected attribute is feature 5")
})

# An LFW directory with 4 images of integers k in 0..765, sex 0 1 0 1.
lfw_dir <- function(K, lines = apply(K, 1, paste, collapse = ","), sex = c("0", "1", "0", "1")) {
  d <- bad_dir("lfw/lfw_1764.csv", lines)
  writeLines(sex, file.path(d, "lfw/sex.txt"))
  d
}

test_that("lfw: per-line pixel counts, missing and out-of-range values, code files", {
  set.seed(1)
  K <- matrix(sample(0:765, 4 * 1764, TRUE), 4)
  L <- apply(K, 1, paste, collapse = ",")
  # 1763 and 1765 values on two lines: the total is a multiple of 1764, the pixels would shift
  L2 <- L
  L2[1] <- paste(K[1, -1], collapse = ",")
  L2[2] <- paste(c(K[2, ], 0), collapse = ",")
  expect_data_error(fairproj_data("lfw", dir = lfw_dir(K, L2)), "line 1 holds 1763 values where an image has 1764")
  L3 <- L
  L3[3] <- sub("^[0-9]+", "NA", L3[3])
  expect_data_error(fairproj_data("lfw", dir = lfw_dir(K, L3)), "line 3, value 1 is missing")
  L3[3] <- sub("^NA,[0-9]+", "NA,", L3[3])
  expect_data_error(fairproj_data("lfw", dir = lfw_dir(K, L3)), "line 3, value 1 is missing")
  L4 <- L
  L4[2] <- sub(",[0-9]+$", ",-3", L4[2])
  expect_data_error(fairproj_data("lfw", dir = lfw_dir(K, L4)), "line 2, value 1764 is -3 where an integer k from 0 to 765")
  expect_data_error(fairproj_data("lfw", dir = lfw_dir(K, character(0))), "it holds no image")
  expect_data_error(fairproj_data("lfw", dir = lfw_dir(K, sex = c("0", "1", "m", "1"))),
                    "line 3 is 'm' where a code 0 or 1 was expected")
  expect_data_error(fairproj_data("lfw", dir = lfw_dir(K, sex = character(0))), "sex.txt.*it is empty")
  d <- lfw_dir(K)
  for (f in c("asian.txt", "black.txt")) writeLines(c("0", "1", "0", "1"), file.path(d, "lfw", f))
  writeLines(c("0", "yes", "0", "1"), file.path(d, "lfw", "white.txt"))
  expect_data_error(fairproj_data("lfw", dir = d), "white.txt.*line 2 is 'yes'")
})

test_that("lfw exact = TRUE: the value map must list each k the images use once", {
  set.seed(1)
  K <- matrix(sample(0:765, 4 * 1764, TRUE), 4)
  d <- lfw_dir(K)
  vm <- data.frame(k = 0:765, original_text = format((0:765) / 3, digits = 9))
  write_vm <- function(v) utils::write.csv(v, file.path(d, "lfw/value_map.csv"), row.names = FALSE)
  write_vm(vm)
  expect_equal(unname(fairproj_data("lfw", dir = d, exact = TRUE)$x), K / 3 / 255, tolerance = 1e-8)
  write_vm(vm[vm$k != K[1, 1], ])
  expect_data_error(fairproj_data("lfw", dir = d, exact = TRUE), sprintf("lacks the value\\(s\\) k = %d that the images use", K[1, 1]))
  write_vm(vm[1:700, ])
  expect_data_error(fairproj_data("lfw", dir = d, exact = TRUE), "lacks the value\\(s\\) k = ")
  write_vm(rbind(vm, data.frame(k = 5L, original_text = "9")))
  expect_data_error(fairproj_data("lfw", dir = d, exact = TRUE), "line 768 \\(k = 5, original_text = '9'\\) is a repeated k")
  write_vm(rbind(vm, data.frame(k = -1L, original_text = "9")))
  expect_data_error(fairproj_data("lfw", dir = d, exact = TRUE), "\\(k = -1, .*is out of range")
  vm$original_text[3] <- "abc"
  write_vm(vm)
  expect_data_error(fairproj_data("lfw", dir = d, exact = TRUE), "line 4 \\(k = 2, original_text = 'abc'\\) is not a number")
})
