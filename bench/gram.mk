# gram.mk: the exact Gram benchmark (core as_gram vs Matrix::tcrossprod vs Octave's X*X', with chol, peak memory,
# rates against the multiply-add peak; attsparse_rand with error = TRUE vs FALSE); included by the top-level Makefile.
# make bench-gram     both sparse inputs (2000 x 500000 Zipf-like, 2000 x 1e5 with 100 per column) and a dense
#                     one; a table in build/bench/gram-table.txt (~20 min; GRAM_LIMIT=s per run, default 600)
# Measured (2 vCPUs, reference BLAS, machine shared): 2000 x 500000 Zipf-like, 5e7 nonzeros: core 9.6 s on one
# thread (3.9 G multiply-adds/s), attsparse::gram 4.0 s, Matrix::tcrossprod and Octave X*X' both stopped at 240 s;
# 2000 x 1e5, 100 per column: core 0.8 s, tcrossprod 14.5 s, Octave 13.4 s; dense 2000 x 1e4: core 7.5 G/s
# against the reference dgemm's 0.9-2.2; attsparse_rand on the Zipf input: error = TRUE 50 s, FALSE 20 s.
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
