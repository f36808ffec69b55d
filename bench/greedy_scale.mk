# greedy_scale.mk: the greedy method at scale against the target mode and gram() in one R process (bench/greedy_scale.R);
# included by the top-level Makefile.
# make bench-greedy-scale    inputs in build/bench/scale (and make bench-target's 2000 x 500000 in build/bench), the tables
#                            in docs/greedy.md (10 to 20 minutes on 2 idle cores, by the day; the 2000 x 500000 input half of it)
SCALE_DIR := $(BUILD)/bench/scale

.PHONY: bench-greedy-scale
BENCH_TARGETS += bench-greedy-scale
bench-greedy-scale: $(BUILD)/bench/core_tool | deps-bench
	$(MAKE) --no-print-directory r
	mkdir -p $(SCALE_DIR)
	[ -s $(SCALE_DIR)/zipf10k.bin ] || $(BUILD)/bench/core_tool gen-sparse $(SCALE_DIR)/zipf10k.bin 200 10000 1e5 1
	[ -s $(SCALE_DIR)/zipf20k.bin ] || $(BUILD)/bench/core_tool gen-sparse $(SCALE_DIR)/zipf20k.bin 200 20000 2e5 1
	[ -s $(SCALE_DIR)/zipf50k.bin ] || $(BUILD)/bench/core_tool gen-sparse $(SCALE_DIR)/zipf50k.bin 200 50000 5e5 1
	[ -s $(SCALE_DIR)/zipf1k200k.bin ] || $(BUILD)/bench/core_tool gen-sparse $(SCALE_DIR)/zipf1k200k.bin 1000 200000 2e7 1
	[ -s $(BUILD)/bench/sparse.bin ] || $(BUILD)/bench/core_tool gen-sparse $(BUILD)/bench/sparse.bin 2000 500000 5e7 1
	RLIB=$(RLIB) $(RSCRIPT) bench/greedy_scale.R $(SCALE_DIR) --big $(BUILD)/bench/sparse.bin --doc docs/greedy.md
