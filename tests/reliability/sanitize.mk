# tests/reliability/sanitize.mk: the core's C tests under AddressSanitizer + UndefinedBehaviorSanitizer and under valgrind memcheck.
# make check-sanitize   every tests/core/test_*.c built with -fsanitize=address,undefined (build/asan), run; any report fails
# make check-valgrind   the same tests built plainly (build/valgrind), run under valgrind memcheck; any error or leak fails
# Both builds keep -fopenmp (gcc: its libasan and libgomp work together); clang is used for the fuzzer (fuzz.mk).

SAN_CC      ?= gcc
SAN_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ASAN_DIR    := $(BUILD)/asan
ASAN_CFLAGS := -std=c99 -O1 -g -fopenmp -Wall -Wextra -pedantic $(SAN_FLAGS)
ASAN_TESTS  := $(patsubst tests/core/%.c,$(ASAN_DIR)/tests/%,$(wildcard tests/core/test_*.c))
# leaks, and every UBSan finding, end the run with a nonzero status; ATTSPARSE_UNTIMED=1: no timing of the
# interrupt polls (instrumented code, two programs at a time: the gaps are timed natively, in check-core)
ASAN_ENV    := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1 \
               UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 OMP_NUM_THREADS=2 ATTSPARSE_UNTIMED=1

VG_DIR      := $(BUILD)/valgrind
VG_CFLAGS   := -std=c99 -O1 -g -fopenmp -Wall -Wextra -pedantic
# test_det, test_gram and test_bits take 5-10 s of CPU natively and many minutes under memcheck
# (test_greedy: 2 s natively, over a minute of CPU under memcheck; test_refit: 5 s natively, over
# 12 minutes under memcheck; test_nomem, test_linalg and test_qkv 6-10 minutes each, test_nomem's every
# allocation and poll failing in turn): they run under ASan+UBSan only (LeakSanitizer included), so that
# make check stays within CI's 30 minutes. Under memcheck, the randomized, deterministic and greedy
# paths with their metrics run end to end in test_status and test_extremes, the block runs in
# test_blocks, the metrics' kernels in test_metrics_calls.
VG_SKIP     := test_det test_gram test_bits test_greedy test_refit test_nomem test_linalg test_qkv
VG_TESTS    := $(patsubst tests/core/%.c,$(VG_DIR)/tests/%,$(filter-out $(VG_SKIP:%=tests/core/%.c),$(wildcard tests/core/test_*.c)))
# OMP_WAIT_POLICY=passive: spinning OpenMP threads are slow under valgrind's serialized threads
# OMP_THREAD_LIMIT=4: test_extremes asks for 100000 threads, which the core caps at AS_THREADS_MAX = 1024;
# 1024 threads under memcheck take 11 GB (a stack and valgrind's shadow of it each). The cap itself still
# runs here (the core's count goes through it); the 1024 real threads run natively (check-core) and
# under ASan (check-sanitize). With the limit, test_extremes takes 4 s and 200 MB under memcheck.
# ATTSPARSE_UNTIMED=1: test_linalg leaves out its timings of the interrupt polls (the BLAS runs emulated)
VG_ENV      := OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive OMP_THREAD_LIMIT=4 ATTSPARSE_UNTIMED=1
VALGRIND    := valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
               --show-leak-kinds=definite,indirect --track-origins=yes

.PHONY: check-sanitize check-valgrind
# deps-sanitize (the Makefile's pattern rule): tools/install-deps.sh sanitize, once per build directory

# $(call san_build,DIR,CFLAGS): the core library and the test programs built into DIR
define san_build
$(1)/core/%.o: core/%.c $$(CORE_HDR) | deps-sanitize
	@mkdir -p $$(dir $$@)
	$$(SAN_CC) $(2) -c $$< -o $$@
$(1)/libattsparse.a: $$(patsubst core/%.c,$(1)/core/%.o,$$(CORE_SRC))
	rm -f $$@ && ar rcs $$@ $$^
$(1)/tests/%: tests/core/%.c tests/core/check.h $(1)/libattsparse.a
	@mkdir -p $$(dir $$@)
	$$(SAN_CC) $(2) -Icore $$< $(1)/libattsparse.a $$(LAPACK_LIBS) -o $$@
endef
$(eval $(call san_build,$(ASAN_DIR),$(ASAN_CFLAGS)))
$(eval $(call san_build,$(VG_DIR),$(VG_CFLAGS)))

# the programs run two at a time, as under valgrind below, the longest first (test_refit: 2 minutes under ASan,
# test_bits and test_nomem about 30 s), reported in order
ASAN_LONG   := $(filter %/test_refit,$(ASAN_TESTS)) $(filter %/test_bits %/test_nomem,$(ASAN_TESTS))
check-sanitize: $(ASAN_TESTS)
	@printf '%s\n' $(ASAN_LONG) $(filter-out $(ASAN_LONG),$(ASAN_TESTS)) | xargs -P 2 -I{} sh -c '$(ASAN_ENV) {} >{}.log 2>&1; echo $$? >{}.status'
	@fail=0; for t in $(ASAN_TESTS); do echo "== asan+ubsan $$t"; \
	  st=$$(cat $$t.status); tail -1 $$t.log; \
	  if [ $$st -ne 0 ] || grep -qE "runtime error|ERROR: (Address|Leak)Sanitizer" $$t.log; then \
	    fail=1; echo "check-sanitize: $$t exited $$st"; grep -E -A20 "runtime error|Sanitizer|FAIL" $$t.log | head -60; fi; \
	done; [ $$fail -eq 0 ] && echo "check-sanitize: $(words $(ASAN_TESTS)) test programs, 0 sanitizer errors"; \
	cat $(ASAN_TESTS:=.log) | $(COUNT_SUM) label="asan+ubsan"; exit $$fail

# the programs run two at a time (memcheck serializes each one's threads on one core; the stages of make check
# run one after the other, so the second core is otherwise idle here), reported in order
VG_JOBS     ?= 2
check-valgrind: $(VG_TESTS)
	@printf '%s\n' $(VG_TESTS) | xargs -P $(VG_JOBS) -I{} sh -c '$(VG_ENV) $(VALGRIND) {} >{}.log 2>&1; echo $$? >{}.status'
	@fail=0; for t in $(VG_TESTS); do echo "== valgrind $$t"; \
	  st=$$(cat $$t.status); tail -1 $$t.log; \
	  if [ $$st -ne 0 ]; then fail=1; echo "check-valgrind: $$t exited $$st"; grep -E -B2 -A25 "==[0-9]+==|FAIL" $$t.log | head -80; fi; \
	done; [ $$fail -eq 0 ] && echo "check-valgrind: $(words $(VG_TESTS)) test programs, 0 memcheck errors, 0 leaks"; \
	cat $(VG_TESTS:=.log) | $(COUNT_SUM) label="valgrind"; exit $$fail

EXTRA_CHECKS += check-sanitize check-valgrind
