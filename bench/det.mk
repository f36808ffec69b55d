# det.mk: before/after benchmark of the deterministic algorithm (eps 0.5, tree search, dense as_example input); included by the top-level Makefile.
# make bench-det    time vs n (64 ... 1024) and vs d; 'before' is the core of commit 5d710d7 (one
#                   eigendecomposition per step), built from git into its own binary; runs longer
#                   than DET_BENCH_BUDGET seconds are stopped and extrapolated from their time per step.
# make bench-det DET_BENCH_CASES="256:65536"    one case
DET_BENCH := $(BUILD)/bench/det_bench
DET_BENCH_OLD := $(BUILD)/bench/det_bench_old
DET_BENCH_OLD_REV := 5d710d7
DET_BENCH_BUDGET ?= 20
DET_BENCH_CASES ?= 64:8192 128:8192 128:32768 256:16384 256:65536 512:16384 1024:8192

.PHONY: bench-det
BENCH_TARGETS += bench-det
$(DET_BENCH): bench/det_bench.c core/attsparse.h $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -Icore $< $(CORE_LIB) $(LAPACK_LIBS) -o $@
$(DET_BENCH_OLD): bench/det_bench.c
	@mkdir -p $(BUILD)/bench/old
	rm -rf $(BUILD)/bench/old/core && git archive $(DET_BENCH_OLD_REV) core | tar -x -C $(BUILD)/bench/old
	cd $(BUILD)/bench/old && for f in core/*.c; do $(CC) $(CORE_CFLAGS) -c $$f -o $${f%.c}.o || exit 1; done
	ar rcs $(BUILD)/bench/old/libold.a $(BUILD)/bench/old/core/*.o
	$(CC) $(CORE_CFLAGS) -DBENCH_OLD -I$(BUILD)/bench/old/core $< $(BUILD)/bench/old/libold.a $(LAPACK_LIBS) -o $@
bench-det: $(DET_BENCH) $(DET_BENCH_OLD)
	@echo "as_det, eps 0.5, tree search, dense as_example(n, d, r = 1, seed 42); load average $$(cut -d' ' -f1 /proc/loadavg) at start"
	@echo "factor ms: the step's factorizations alone at n (before: dsyevr with vectors; after: 2 x (dpotrf + dpotri + dsyrk)); share: of a step"
	@echo "      n       d  iters    run setup_s  ms/iter  total_s how    factor_ms share"
	@for cs in $(DET_BENCH_CASES); do n=$${cs%%:*}; d=$${cs##*:}; \
	  printf 'before '; $(DET_BENCH_OLD) $$n $$d $(DET_BENCH_BUDGET) 1 || exit 1; \
	  printf 'after  '; $(DET_BENCH) $$n $$d $(DET_BENCH_BUDGET) 4 || exit 1; done
