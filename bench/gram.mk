# gram.mk: the exact Gram benchmark (core as_gram vs Matrix::tcrossprod vs Octave's X*X', with chol, peak memory,
# rates against the multiply-add peak; attsparse_rand with error = TRUE vs FALSE); included by the top-level Makefile.
# make bench-gram     both sparse inputs (2000 x 500000 Zipf-like, 2000 x 1e5 with 100 per column) and a dense
#                     one; a table in build/bench/gram-table.txt (~20 min; GRAM_LIMIT=s per run, default 600)
# Measured (2 cores, OpenBLAS, idle; GRAM_LIMIT=240): 2000 x 500000 Zipf-like, 5e7 nonzeros: core 5.1 s on 2 threads,
# attsparse::gram 4.3 s, Matrix::tcrossprod 116 s, Octave X*X' 139 s; 2000 x 1e5, 100 per column: gram 0.63 s,
# tcrossprod 7.8 s, Octave 10.9 s; dense 2000 x 1e4: gram 1.65 s, tcrossprod 0.68 s; attsparse_rand on the Zipf
# input: error = FALSE 3.4 s, TRUE 14.8 s (docs/performance.md).
GRAM_TOOL := $(BUILD)/bench/gram_bench
GRAM_LIMIT ?= 600

.PHONY: bench-gram
BENCH_TARGETS += bench-gram
$(GRAM_TOOL): bench/gram_bench.c core/attsparse.h core/as_internal.h $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -D_POSIX_C_SOURCE=200809L -Icore $< $(CORE_LIB) $(LAPACK_LIBS) -o $@
bench-gram: $(GRAM_TOOL) $(BUILD)/bench/rand_tool $(BUILD)/bench/peak | deps-bench
	$(MAKE) --no-print-directory r octave
	RLIB=$(RLIB) GRAM_LIMIT=$(GRAM_LIMIT) bench/gram_bench.sh | tee $(BUILD)/bench/gram-table.txt
