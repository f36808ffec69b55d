# rand.mk: the randomized-algorithm benchmark (attsparse_rand/det against the exact Gram, Gaussian and sparse random
# projections; R, Octave, Python) and the machine's multiply-add peak; included by the top-level Makefile.
# make bench-rand                  inputs, every method, tables in build/bench/rand-tables.txt (~15 min)
# make bench-rand RAND_BENCH=--quick   the real data sets only
# make bench-peak [RAND_BEFORE=rev]  dgemm and in-cache multiply-add rates on 1 and 2 threads, and
#                                  as_rand's phase timings on the sparse input on 1 and 2 threads
#                                  (and with the core of git revision rev)
CORE_TOOL := $(BUILD)/bench/core_tool
PEAK_TOOL := $(BUILD)/bench/peak
RAND_BENCH ?=

.PHONY: bench-rand bench-peak deps-bench
BENCH_TARGETS += bench-peak bench-rand
deps-bench:
	@$(DEPS) bench data octave
$(CORE_TOOL): bench/core_tool.c $(CORE_HDR) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -Icore $< $(CORE_LIB) $(LAPACK_LIBS) -o $@
$(PEAK_TOOL): bench/peak.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu99 -O2 -fopenmp $< $(LAPACK_LIBS) -o $@
bench-peak: $(PEAK_TOOL) $(CORE_TOOL) | deps-bench
	bench/rand_peak.sh
bench-rand: $(CORE_TOOL) | deps-bench
	$(MAKE) --no-print-directory r octave
	RLIB=$(RLIB) bench/rand_bench.sh $(RAND_BENCH)
