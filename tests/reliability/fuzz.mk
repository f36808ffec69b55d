# tests/reliability/fuzz.mk: the libFuzzer harness (fuzz/fuzz_core.c) over an ASan+UBSan build of the core, and the replay of its corpus.
# make fuzz               fuzz for FUZZ_TIME seconds (default 1800), one job, new inputs in build/fuzz/corpus
# make fuzz-merge         minimize build/fuzz/corpus and fuzz/corpus into fuzz/corpus (commit it)
# make check-fuzz-replay  every file of fuzz/corpus through the harness once (part of make check)

FUZZ_DIR    := $(BUILD)/fuzz
FUZZ_BIN    := $(FUZZ_DIR)/fuzz_core
FUZZ_CC     ?= clang
FUZZ_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# no -fopenmp: single-threaded, so every input replays the same way
FUZZ_CFLAGS := -std=c99 -O1 -g -Wno-unknown-pragmas $(FUZZ_SAN)
FUZZ_OBJ    := $(patsubst core/%.c,$(FUZZ_DIR)/core/%.o,$(CORE_SRC))
FUZZ_TIME   ?= 1800
FUZZ_OPTS   := -max_len=600 -timeout=20 -rss_limit_mb=2048
FUZZ_ENV    := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: fuzz fuzz-merge check-fuzz-replay
# deps-sanitize (clang, its fuzzer runtime, valgrind): sanitize.mk

$(FUZZ_DIR)/core/%.o: core/%.c $(CORE_HDR) | deps-sanitize
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_BIN): fuzz/fuzz_core.c $(FUZZ_OBJ) $(CORE_HDR)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Icore fuzz/fuzz_core.c $(FUZZ_OBJ) $(LAPACK_LIBS) -o $@

fuzz: $(FUZZ_BIN)
	@mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts
	$(FUZZ_ENV) $(FUZZ_BIN) $(FUZZ_OPTS) -jobs=1 -workers=1 -max_total_time=$(FUZZ_TIME) -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_DIR)/artifacts/ $(FUZZ_DIR)/corpus fuzz/corpus

# edges only (-use_counters=0): every covered edge once, a corpus of a couple of hundred
# files; the regress-* files (inputs that found bugs) are kept as they are
fuzz-merge: $(FUZZ_BIN)
	rm -rf $(FUZZ_DIR)/merged && mkdir -p $(FUZZ_DIR)/merged
	$(FUZZ_ENV) $(FUZZ_BIN) $(FUZZ_OPTS) -merge=1 -use_counters=0 $(FUZZ_DIR)/merged fuzz/corpus $(FUZZ_DIR)/corpus
	cp fuzz/corpus/regress-* $(FUZZ_DIR)/merged/ 2>/dev/null || true
	rm -rf fuzz/corpus && mv $(FUZZ_DIR)/merged fuzz/corpus
	@echo "fuzz/corpus: $$(ls fuzz/corpus | wc -l) files"


check-fuzz-replay: $(FUZZ_BIN)
	@test -d fuzz/corpus || { echo "fuzz/corpus is missing"; exit 1; }
	$(FUZZ_ENV) $(FUZZ_BIN) $(FUZZ_OPTS) -runs=0 fuzz/corpus 2>$(FUZZ_DIR)/replay.log \
	  || { tail -40 $(FUZZ_DIR)/replay.log; exit 1; }
	@grep -E "INITED|DONE" $(FUZZ_DIR)/replay.log | tail -2
	@echo "fuzz replay: $$(ls fuzz/corpus | wc -l) passed, 0 failed (corpus files, no sanitizer error)"

EXTRA_CHECKS += check-fuzz-replay
