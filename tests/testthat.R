library(testthat)
library(attsparse)
test_check("attsparse")
