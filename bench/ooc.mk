# ooc.mk: the larger-than-memory benchmark (bench/ooc.R); included by the top-level Makefile.
# make bench-ooc   attsparse_rand on an HDF5Array against one read of it (blockApply of colSums), with
#                  1 and 2 workers: time, peak resident memory; OOC_N x OOC_D doubles written once to
#                  OOC_FILE (default 256 x 1048576, 2 GiB, in build/bench). The issue's goal is an X above
#                  the machine's memory: OOC_D=12582912 makes 24 GiB (mind the disk: df -h).
OOC_N ?= 256
OOC_D ?= 1048576
OOC_FILE ?= $(BUILD)/bench/ooc-$(OOC_N)x$(OOC_D).h5

.PHONY: bench-ooc
BENCH_TARGETS += bench-ooc
bench-ooc: | deps-bench
	$(MAKE) --no-print-directory r
	@mkdir -p $(BUILD)/bench
	R_LIBS=$(CURDIR)/$(RLIB) $(RSCRIPT) bench/ooc.R $(OOC_N) $(OOC_D) $(OOC_FILE) 1 2 | tee $(BUILD)/bench/ooc-table.txt
