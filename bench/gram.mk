# gram.mk: the exact Gram benchmark (core as_gram vs Matrix::tcrossprod vs Octave's X*X', with chol, peak memory,
# rates against the multiply-add peak; attsparse_rand with error = TRUE vs FALSE); included by the top-level Makefile.
# make bench-gram     both sparse inputs (2000 x 500000 Zipf-like, 2000 x 1e5 with 100 per column) and a dense
#                     one; a table in build/bench/gram-table.txt (~20 min; GRAM_LIMIT=s per run, default 600)
# Measured (2 cores, OpenBLAS; GRAM_LIMIT=240; a slow run): 2000 x 500000 Zipf-like, 5e7 nonzeros: attsparse::gram
# 4.2 s, Matrix::tcrossprod 116 s, Octave X*X' 147 s; 2000 x 1e5, 100 per column: gram 0.67 s, tcrossprod 10.0 s,
# Octave 12.5 s; dense 2000 x 1e4: gram 0.76 s, tcrossprod 0.72 s; attsparse_rand on the Zipf input: error = FALSE
# 3.5 s, TRUE 7.6 s; then the README's rule checked on both sparse inputs (bench/gram_rule.awk) (docs/performance.md).
GRAM_TOOL := $(BUILD)/bench/gram_bench
GRAM_LIMIT ?= 600

.PHONY: bench-gram
BENCH_TARGETS += bench-gram
$(GRAM_TOOL): bench/gram_bench.c core/attsparse.h core/as_internal.h $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -D_POSIX_C_SOURCE=200809L -Icore $< $(CORE_LIB) $(LAPACK_LIBS) -o $@
bench-gram: $(GRAM_TOOL) $(BUILD)/bench/core_tool $(BUILD)/bench/peak | deps-bench
	$(MAKE) --no-print-directory r octave
	RLIB=$(RLIB) GRAM_LIMIT=$(GRAM_LIMIT) bench/gram_bench.sh | tee $(BUILD)/bench/gram-table.txt
