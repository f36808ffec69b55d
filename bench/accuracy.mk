# accuracy.mk: columns kept for a requested attention error (fixed schemes swept over m, the target
# mode, a Gaussian projection, the exact Gram) and the calibration of the error estimate, on the
# built-in example and the real data sets; included by the top-level Makefile.
# make bench-accuracy                         10 seeds a sweep point, 20 for the target mode, 40 for calibration
# make bench-accuracy ACCURACY_BENCH=--quick  5, 10 and 10 seeds, a coarser sweep
# Tables in build/bench/accuracy-tables.txt.
ACCURACY_BENCH ?=

.PHONY: bench-accuracy
BENCH_TARGETS += bench-accuracy
bench-accuracy: | deps-bench
	$(MAKE) --no-print-directory r
	RLIB=$(RLIB) Rscript bench/accuracy.R $(ACCURACY_BENCH)
