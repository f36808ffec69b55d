# det.mk: benchmark of the deterministic algorithm (tree search against the plain scan); included by the top-level Makefile.
# make bench-det    n = 128 with d = 8192, 32768, 131072 and n = 256 with d = 65536 (a few minutes)
# make bench-det DET_BENCH_ARGS=--quick    n = 128, d = 8192 and 32768 only
DET_BENCH := $(BUILD)/bench/det_bench
DET_BENCH_ARGS ?=

.PHONY: bench-det
BENCH_TARGETS += bench-det
$(DET_BENCH): bench/det_bench.c core/attsparse.h $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -Icore $< $(CORE_LIB) $(LAPACK_LIBS) -o $@
bench-det: $(DET_BENCH)
	$(DET_BENCH) $(DET_BENCH_ARGS)
