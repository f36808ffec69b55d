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

# make bench-target    target mode's time against one default run on the large sparse input (bench/target_time.R;
#                      TARGET_REPS runs of each, back to back; build/bench/target-table.txt)
TARGET_REPS ?= 3
.PHONY: bench-target
BENCH_TARGETS += bench-target
bench-target: $(BUILD)/bench/core_tool | deps-bench
	$(MAKE) --no-print-directory r
	[ -s $(BUILD)/bench/sparse.bin ] || $(BUILD)/bench/core_tool gen-sparse $(BUILD)/bench/sparse.bin 2000 500000 5e7 1
	R_LIBS=$(RLIB) $(RSCRIPT) bench/target_time.R $(BUILD)/bench/sparse.bin $(TARGET_REPS) 0.05 0.02 | tee $(BUILD)/bench/target-table.txt
