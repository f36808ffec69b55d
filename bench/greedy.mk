# greedy.mk: the greedy method's ablation: the columns it keeps for rel <= 5%, 2%, 1% on the built-in
# example and the real data sets, as its parts are switched on one at a time from the plain
# forward-greedy selection with a Frobenius refit (every part off) to the method as shipped; included
# by the top-level Makefile.
# make bench-greedy      table in build/bench/greedy-table.txt (bench/greedy_ablation.sh; about 2 minutes)
GREEDY_DIR := $(BUILD)/bench/greedy

.PHONY: bench-greedy
BENCH_TARGETS += bench-greedy
bench-greedy: $(BUILD)/bench/core_tool | deps-bench
	$(MAKE) --no-print-directory r
	mkdir -p $(GREEDY_DIR)
	R_LIBS=$(RLIB) $(RSCRIPT) bench/greedy_prepare.R $(GREEDY_DIR)
	bench/greedy_ablation.sh $(BUILD)/bench/core_tool $(GREEDY_DIR) | tee $(BUILD)/bench/greedy-table.txt
