library(testthat)
library(fairproj)

test_check("fairproj")
