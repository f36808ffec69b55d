# robust.mk: the greedy method, the target mode and the error estimate on the development corpus
# (bench/corpus.R: generated families of counts, document-term counts, expression-like data, low rank,
# clustered rows, near-duplicate columns, rows of different norms, log1p, r from 0.05 to 1, and the
# real data sets), against the independent R baseline of bench/baseline.R; included by the top-level
# Makefile.
# make bench-robust                      the full corpus (about 10 minutes on 2 idle cores); tables in
#                                        build/bench/robust/tables.md and docs/robustness.md
# make bench-robust ROBUST=--slice       the tests' small corpus (under a minute; build/bench/robust-slice),
#                                        docs left alone
# make bench-robust ROBUST=--heldout     instances of other seeds and parameter combinations and real data sets of its own (about 5
#                                        minutes; build/bench/robust-heldout), its tables in docs/robustness.md's second part
# make bench-robust ROBUST=--rows        14 instances of 400 to 1000 rows, seven families (build/bench/robust-rows),
#                                        its tables in docs/robustness.md's third part
# make bench-robust ROBUST=--redo-target attsparse_rand's figures (target and default mode) of a stored full run run again (a few
#                                        minutes), the rest read back; tables rewritten
ROBUST ?=
ROBUST_DOC = $(if $(filter --slice,$(ROBUST)),,--doc docs/robustness.md)
ROBUST_OUT = $(BUILD)/bench/robust$(if $(filter --slice,$(ROBUST)),-slice)$(if $(filter --heldout,$(ROBUST)),-heldout)$(if $(filter --rows,$(ROBUST)),-rows)

.PHONY: bench-robust
BENCH_TARGETS += bench-robust
bench-robust: | deps-bench
	$(MAKE) --no-print-directory r
	RLIB=$(RLIB) nice $(RSCRIPT) bench/robust.R $(ROBUST) --out $(ROBUST_OUT) $(ROBUST_DOC)
