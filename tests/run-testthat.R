# run-testthat.R: run the R tests against the installed package and end with "N passed, M failed".
res <- as.data.frame(testthat::test_dir("tests/testthat", package = "attsparse", load_package = "installed",
                                        reporter = testthat::SummaryReporter$new(), stop_on_failure = FALSE))
failed <- sum(res$failed) + sum(res$error)
cat(sprintf("R testthat: %d passed, %d failed, %d skipped\n", sum(res$nb) - sum(res$failed) - sum(res$skipped),
            failed, sum(res$skipped)))
quit(status = if (failed > 0) 1 else 0)
