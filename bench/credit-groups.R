# The credit data of the min-max benches (bench/minmax.R, bench/floor.R): the 23 numeric columns
# of the UCI credit-card file in FAIRPROJ_DATA `dir`, and six groupings of 2 to 24 groups: 2 sex,
# 3 marriage, 4 education, 8 education x sex, 14 raw education codes x sex, 24 education x sex x
# marriage. Sourced by those scripts from their own folder.
bench_credit <- function(dir) {
  raw <- utils::read.csv(xzfile(file.path(dir, "credit", "uci_credit_card.csv.xz")))
  x <- as.matrix(raw[, c("LIMIT_BAL", "AGE", paste0("PAY_", c(0, 2:6)), paste0("BILL_AMT", 1:6),
                         paste0("PAY_AMT", 1:6))])
  edu4 <- ifelse(raw$EDUCATION %in% 1:3, raw$EDUCATION, 4)
  mar3 <- ifelse(raw$MARRIAGE %in% 1:2, raw$MARRIAGE, 3)
  groups <- list(`2` = raw$SEX, `3` = mar3, `4` = edu4, `8` = interaction(edu4, raw$SEX),
                 `14` = interaction(raw$EDUCATION, raw$SEX), `24` = interaction(edu4, raw$SEX, mar3))
  list(x = x, groups = lapply(groups, function(g) droplevels(factor(g))))
}

