# Makefile: build the C core and both front-ends, run every test, the demo and the benchmarks.
# make            both front-ends (R package into build/Rlib, Octave functions into build/octave); installs nothing
# make core       the C core, build/libattsparse.a; installs nothing
# make check-fast the core's C tests, R testthat without its long tests, the Octave tests and the live
#                 R/Octave fixture cross-check (2 min 20 s on an idle 2-core machine; no sanitizers, valgrind, tarballs)
# make check      every test: core C tests, R testthat, vignette, Octave tests, the R/Octave cross-check, the
#                 installed Octave package, ASan+UBSan, valgrind memcheck, fuzz corpus replay, R CMD check --as-cran of the source
#                 tarball (when pdflatex is present); each stage prints its counts and the run ends with the
#                 line "N passed, M failed" summing them. Measured from a fresh clone on an idle 2-core
#                 machine (/usr/bin/time -v .ci/run): 20 min wall clock, 15283 tests; 1.17 GB peak resident
#                 memory for the largest process.
#                 valgrind runs with OMP_THREAD_LIMIT=4 (tests/reliability/sanitize.mk), which took it
#                 from 11.7 GB to 0.2 GB.
# make demo       both front-ends' attsparse_demo on the built-in example and the data sets of
#                 inst/extdata/demo-data.txt (ALL, acq, crude, golub, lung when installed): three tables each
#                 (methods, columns per target, Q != K), R's numbers checked by Octave's run, plots in build/demo
# make check and make demo first install the Debian packages a fresh machine misses (tools/install-deps.sh),
# once per build directory (stamps in build/deps); `make deps-GROUP` installs one group (build, r, octave, ...).
SHELL := /bin/bash
BUILD   := build
RSCRIPT ?= Rscript
R       ?= R
DEPS    := tools/install-deps.sh

CORE_SRC := $(sort $(wildcard core/*.c))
CORE_HDR := $(wildcard core/*.h)
CORE_OBJ := $(patsubst core/%.c,$(BUILD)/core/%.o,$(CORE_SRC))
CORE_LIB := $(BUILD)/libattsparse.a
CORE_CFLAGS ?= -std=c99 -O2 -g -fPIC -fopenmp -Wall -Wextra -pedantic
LAPACK_LIBS ?= -llapack -lblas -lgfortran -lm

RLIB := $(BUILD)/Rlib
R_STAMP := $(RLIB)/attsparse/DESCRIPTION
R_SRC := DESCRIPTION NAMESPACE $(wildcard R/*.R) $(wildcard src/*.c src/*.h) src/Makevars.in $(CORE_SRC) $(CORE_HDR) \
         $(wildcard inst/extdata/*)

.PHONY: all core r r-tarball check check-fast check-cross check-core check-flags check-r check-vignette check-cran demo demo-r bench clean
all: r octave

# ---------------------------------------------------------------- Debian packages
# $(BUILD)/deps/GROUP.done: tools/install-deps.sh GROUP has run (it installs only what is missing)
DEPS_DONE = $(patsubst %,$(BUILD)/deps/%.done,$(1))
# the tex group is optional: without it (no root, no network) check-cran is skipped
$(BUILD)/deps/%.done:
	@mkdir -p $(dir $@)
	@if $(DEPS) $*; then touch $@; elif [ $* = tex ]; then echo "install-deps: no tex group, R CMD check skipped"; \
	  else exit 1; fi
deps-%: $(BUILD)/deps/%.done ;
.PRECIOUS: $(BUILD)/deps/%.done
CHECK_DEPS := build r data docs octave sanitize tex
DEMO_DEPS  := build r data octave

# ---------------------------------------------------------------- core
# each object depends on the headers it includes (-MMD: build/core/*.d, written by the compiler)
$(BUILD)/core/%.o: core/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -MMD -MP -c $< -o $@
-include $(CORE_OBJ:.o=.d)
$(CORE_LIB): $(CORE_OBJ)
	rm -f $@
	ar rcs $@ $^
core: $(CORE_LIB)

CORE_TESTS := $(patsubst tests/core/%.c,$(BUILD)/tests/%,$(wildcard tests/core/test_*.c))
$(BUILD)/tests/%: tests/core/%.c tests/core/check.h tests/core/bits_hash.h $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -Icore $< $(CORE_LIB) $(LAPACK_LIBS) -o $@
# one line per test program, then "core C tests: N passed, M failed" (their sums)
COUNT_SUM = awk '/ [0-9]+ passed, [0-9]+ failed/ { for (i = 2; i <= NF; i++) { if ($$i ~ /^passed,?$$/) p += $$(i-1); \
  if ($$i ~ /^failed,?$$/) f += $$(i-1) } } END { printf "%s: %d passed, %d failed\n", label, p, f }'
# first the core's file-level call graph: no circle (tools/check-callgraph.sh), and no function body in
# core/*.c longer than 150 lines (tools/check-funclen.sh)
check-core: $(CORE_TESTS) $(CORE_LIB)
	@{ tools/check-callgraph.sh $(CORE_OBJ); tools/check-funclen.sh $(CORE_SRC); \
	  for t in $(CORE_TESTS); do echo "== $$t"; $$t; st=$$?; [ $$st -le 1 ] || echo "$$t: 0 passed, 1 failed (exited $$st)"; \
	  done; } 2>&1 | tee $(BUILD)/tests/check-core.log; \
	  $(COUNT_SUM) label="core C tests" $(BUILD)/tests/check-core.log; \
	  ! grep -q '^FAIL' $(BUILD)/tests/check-core.log && ! grep -qE ' [1-9][0-9]* failed' $(BUILD)/tests/check-core.log

# The same bits whichever front-end builds the core: the core and tests/core/bits_dump.c compiled with R's
# CFLAGS (R CMD config), with Octave's (mkoctfile -p CFLAGS), each plus -march=native -ffp-contract=fast, must
# print what the Makefile's build prints (core/as_internal.h turns contraction off in the source).
FLAG_SETS := make r octave
flags_cflags = $(if $(filter r,$(1)),$$($(R) CMD config CFLAGS),$$(mkoctfile -p CFLAGS)) -std=c99 -fPIC -fopenmp \
  -march=native -ffp-contract=fast
check-flags: $(CORE_SRC) $(CORE_HDR) tests/core/bits_dump.c tests/core/bits_hash.h
	@rm -rf $(BUILD)/flags; ok=0; bad=0; \
	for s in $(FLAG_SETS); do mkdir -p $(BUILD)/flags/$$s; \
	  case $$s in make) cf='$(CORE_CFLAGS)';; r) cf="$(call flags_cflags,r)";; octave) cf="$(call flags_cflags,octave)";; esac; \
	  for f in $(CORE_SRC); do $(CC) $$cf -c $$f -o $(BUILD)/flags/$$s/$$(basename $$f .c).o || exit 1; done; \
	  $(CC) $$cf -Icore tests/core/bits_dump.c $(BUILD)/flags/$$s/*.o $(LAPACK_LIBS) -o $(BUILD)/flags/$$s/bits_dump || exit 1; \
	  OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=2 $(BUILD)/flags/$$s/bits_dump >$(BUILD)/flags/$$s.txt || exit 1; \
	done; \
	for s in r octave; do if cmp -s $(BUILD)/flags/make.txt $(BUILD)/flags/$$s.txt; then ok=$$((ok+1)); \
	  else bad=$$((bad+1)); echo "core flags: $$s's flags give other bits:"; diff $(BUILD)/flags/make.txt $(BUILD)/flags/$$s.txt; fi; done; \
	echo "core flags: $$(wc -l <$(BUILD)/flags/make.txt) calls compared under R's and Octave's flags with -march=native"; \
	echo "core flags: $$ok passed, $$bad failed"; [ $$bad -eq 0 ]

# ---------------------------------------------------------------- R
# R CMD INSTALL compiles in the source tree (src/, core/): one install at a time
$(R_STAMP): $(R_SRC) configure
	@mkdir -p $(RLIB)
	flock $(BUILD)/.r-install.lock $(R) CMD INSTALL --no-multiarch --library=$(RLIB) . >$(RLIB).log 2>&1 \
	  || { cat $(RLIB).log; exit 1; }
	@echo "R package attsparse installed into $(RLIB)"
r: $(R_STAMP)

check-r: r
	R_LIBS=$(RLIB) $(RSCRIPT) tests/run-testthat.R

# R CMD build: the source tarball, its vignette built (knitr, rmarkdown, pandoc). It is built from a
# staged copy (build/rstage/attsparse) in which the core sits in src/core, a standard place for a
# source package, instead of the repository's top-level core/ (./configure then writes src/Makevars with CORE = core), and the table of
# docs/bad-input.md (its one source; docs/ is build-ignored) is installed as inst/extdata/bad-input.md for
# tests/testthat/test-badinput.R under R CMD check.
R_VERSION := $(shell sed -n 's/^Version: *//p' DESCRIPTION)
R_TARBALL := $(BUILD)/attsparse_$(R_VERSION).tar.gz
R_STAGE   := $(BUILD)/rstage/attsparse
$(R_TARBALL): $(R_SRC) configure cleanup $(wildcard vignettes/*.Rmd) $(wildcard man/*.Rd) $(wildcard tests/*.R tests/testthat/*.R) $(wildcard inst/*/*) docs/bad-input.md .Rbuildignore
	rm -rf $(BUILD)/rstage && mkdir -p $(R_STAGE)/src/core
	tar -cf - --exclude=./$(BUILD) --exclude=./.git --exclude='*.o' --exclude='*.so' . | tar -C $(R_STAGE) -xf -
	mv $(R_STAGE)/core/*.c $(R_STAGE)/core/*.h $(R_STAGE)/src/core/ && rm -rf $(R_STAGE)/core
	mkdir -p $(R_STAGE)/inst/extdata && cp docs/bad-input.md $(R_STAGE)/inst/extdata/
	rm -f $(R_STAGE)/src/Makevars   # configure writes it at install, from src/core
	cd $(BUILD)/rstage && flock $(CURDIR)/$(BUILD)/.r-install.lock $(R) CMD build attsparse >build.log 2>&1 \
	  || { cat build.log; exit 1; }
	mv $(BUILD)/rstage/attsparse_$(R_VERSION).tar.gz $@
	@echo "R source package: $@"
r-tarball: $(R_TARBALL)
# the tarball carries the built vignette and its index
check-vignette: $(R_TARBALL)
	@n=0; for f in inst/doc/reproducing-the-bounds.html inst/doc/workflows.html build/vignette.rds; do \
	  if tar -tzf $< | grep -q "^attsparse/$$f$$"; then n=$$((n+1)); else echo "vignette: attsparse/$$f missing from $<"; fi; done; \
	  echo "vignette: $$n passed, $$((3-n)) failed"; [ $$n -eq 3 ]

# R CMD check --as-cran on the tarball: the PDF manual needs pdflatex (tools/install-deps.sh tex).
# Counts: each "checking ... OK" passed, each ERROR or WARNING failed; NOTEs are printed (without
# internet: "checking CRAN incoming feasibility" cannot reach CRAN).
# The tarball's tests run as a quick check of what it ships (ATTSPARSE_FAST=1: the long tests, seeds over
# real data and child processes, run once, in check-r; with them R CMD check's tests took 7 of its 12 minutes).
R_CHECK_LOG := $(BUILD)/rcheck/check.log
$(R_CHECK_LOG): $(R_TARBALL)
	rm -rf $(BUILD)/rcheck && mkdir -p $(BUILD)/rcheck
	cd $(BUILD)/rcheck && _R_CHECK_CRAN_INCOMING_REMOTE_=false OMP_THREAD_LIMIT=2 ATTSPARSE_FAST=1 \
	  $(R) CMD check --as-cran $(CURDIR)/$< >check.out 2>&1; echo "exit status $$?" >>check.out
	mv $(BUILD)/rcheck/check.out $@
check-cran: $(R_CHECK_LOG)
	@grep -E '^Status:|(ERROR|WARNING|NOTE)$$' $< || true
	@awk '/^\* checking .*\.\.\. *(\[[^]]*\] )?OK$$/ { p++ } /^(\*| *\[[^]]*\]) .*(ERROR|WARNING)$$/ { f++ } \
	  /^exit status [1-9]/ { st = 1 } END { if (st && !f) f = 1; \
	  printf "R CMD check --as-cran: %d passed, %d failed\n", p, f; exit f > 0 }' $<

# R's attsparse_demo() on the example and the real data sets (read from the files Octave's demo reads); its tables
# also written to build/demo/r/tables.txt, which demo-octave checks
demo-r: r demo-data
	@mkdir -p $(BUILD)/demo
	set -o pipefail; R_LIBS=$(RLIB) $(RSCRIPT) tests/cross/demo-tables.R $(BUILD)/demo/r $(BUILD)/demo/data \
	  | tee $(BUILD)/demo/r.txt

# ---------------------------------------------------------------- Octave
include octave/octave.mk

# ---------------------------------------------------------------- benchmarks
# each fragment adds its targets to BENCH_TARGETS
BENCH_TARGETS :=
include bench/accuracy.mk bench/det.mk bench/gram.mk bench/greedy.mk bench/greedy_scale.mk bench/ooc.mk bench/rand.mk bench/robust.mk
bench: $(BENCH_TARGETS)

# ---------------------------------------------------------------- reliability
# sanitizer, valgrind and fuzz-corpus replay targets add themselves to EXTRA_CHECKS
EXTRA_CHECKS :=
include tests/reliability/fuzz.mk tests/reliability/sanitize.mk

# Live cross-check on this machine (the same core, BLAS and LAPACK): R writes every fixture case's output and
# Octave reproduces it bit for bit, then the reverse; the committed fixtures (tests/fixtures) are compared to
# 1e-13 instead, as the machines that wrote them may differ. Then the option sweep: every row of the core's
# option table of attsparse_rand and attsparse_det at a non-default value (and K, V), R's result fields
# reproduced by Octave (the same names and values), then the reverse (tests/cross/option-sweep.R). Then the
# api cases: attention_error, attention, sym_attention, gram, leverage_scores, attsparse_example and bad input of
# every kind, made by both (tests/cross/api-cases.R, api_cases.m): the same values bit for bit, the same messages.
CROSS_DIR := $(BUILD)/cross
# the api cases (tests/cross/api-cases.R, api_cases.m): the same ids, values and messages line by line
API_COMPARE := awk 'NR == FNR { want[$$1] = $$0; n++; next } { seen[$$1] = 1; if (want[$$1] == $$0) p++; \
  else { f++; print "api case " $$1 " differs: R: " substr(want[$$1], 1, 160) " | Octave: " substr($$0, 1, 160) } } \
  END { for (k in want) if (!(k in seen)) { f++; print "api case " k ": Octave did not write it" } \
  printf "api cross-check R = Octave: %d passed, %d failed\n", p, f }'
check-cross: r octave
	@rm -rf $(CROSS_DIR) && mkdir -p $(CROSS_DIR)
	@{ R_LIBS=$(RLIB) $(RSCRIPT) tests/cross/make-fixtures.R $(CROSS_DIR)/r all && \
	  $(OCTAVE_RUN) --path $(CURDIR)/$(OCT_DIR) --path $(CURDIR)/tests/cross \
	    --eval 'exit (cross_check ("$(CROSS_DIR)/r") > 0)'; \
	  $(OCTAVE_RUN) --path $(CURDIR)/$(OCT_DIR) --path $(CURDIR)/tests/cross \
	    --eval 'make_fixtures ("$(CROSS_DIR)/octave", "all")' && \
	  R_LIBS=$(RLIB) $(RSCRIPT) tests/cross/cross-check.R $(CROSS_DIR)/octave; \
	  R_LIBS=$(RLIB) $(RSCRIPT) tests/cross/option-sweep.R write $(CROSS_DIR)/opt-r; \
	  $(OCTAVE_RUN) --path $(CURDIR)/$(OCT_DIR) --path $(CURDIR)/tests/cross \
	    --eval 'exit (option_sweep ("$(CROSS_DIR)/opt-r", "$(CROSS_DIR)/opt-octave") > 0)'; \
	  R_LIBS=$(RLIB) $(RSCRIPT) tests/cross/option-sweep.R check $(CROSS_DIR)/opt-r $(CROSS_DIR)/opt-octave; \
	  R_LIBS=$(RLIB) $(RSCRIPT) tests/cross/api-cases.R $(CROSS_DIR)/api-r.txt && \
	  $(OCTAVE_RUN) --path $(CURDIR)/$(OCT_DIR) --path $(CURDIR)/tests/cross \
	    --eval 'api_cases ("$(CROSS_DIR)/api-octave.txt")' && $(API_COMPARE) $(CROSS_DIR)/api-r.txt $(CROSS_DIR)/api-octave.txt; \
	  } 2>&1 | tee $(CROSS_DIR)/check.log; \
	  $(COUNT_SUM) label="R/Octave live cross-check" $(CROSS_DIR)/check.log; \
	  grep -qE '^cross-check R -> Octave: [0-9]+ passed, 0 failed' $(CROSS_DIR)/check.log && \
	  grep -qE '^cross-check Octave -> R: [0-9]+ passed, 0 failed' $(CROSS_DIR)/check.log && \
	  grep -qE '^option sweep coverage: [0-9]+ passed, 0 failed' $(CROSS_DIR)/check.log && \
	  grep -qE '^option sweep R -> Octave: [1-9][0-9]* passed, 0 failed' $(CROSS_DIR)/check.log && \
	  grep -qE '^option sweep Octave -> R: [1-9][0-9]* passed, 0 failed' $(CROSS_DIR)/check.log && \
	  grep -qE '^api cross-check R = Octave: [1-9][0-9]* passed, 0 failed' $(CROSS_DIR)/check.log

# The builds first (R's install and the core's library compile core/ apart), then the core's, R's and
# Octave's tests side by side, their output kept whole per target; ATTSPARSE_FAST=1 leaves out R's long
# tests (seeds over real data, the demo's tables, child processes: tests/testthat/helper-attsparse.R).
check-fast: $(CORE_TESTS) r octave
	@ATTSPARSE_FAST=1 $(MAKE) --no-print-directory -j2 --output-sync=target check-core check-r check-octave
	@$(MAKE) --no-print-directory check-cross

# Every stage runs, even after a failure; each ends with a line "STAGE: N passed, M failed" (a stage
# that fails without one counts as 1 failed) and the last line sums them.
CHECK_STAGES = check-core check-flags check-r check-vignette check-octave check-cross check-octave-pkg $(EXTRA_CHECKS) \
               $(if $(shell command -v pdflatex),check-cran)
check: $(call DEPS_DONE,$(CHECK_DEPS))
	@mkdir -p $(BUILD)/check; pass=0; fail=0; start=$$(date +%s); \
	for s in $(CHECK_STAGES); do echo "==== make $$s"; t0=$$(date +%s); \
	  $(MAKE) --no-print-directory $$s 2>&1 | tee $(BUILD)/check/$$s.log; st=$${PIPESTATUS[0]}; \
	  line=$$(grep -E '^[^ ].*: [0-9]+ passed, [0-9]+ failed' $(BUILD)/check/$$s.log | tail -1); \
	  p=$$(echo "$$line" | sed -nE 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1/p'); \
	  f=$$(echo "$$line" | sed -nE 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\2/p'); \
	  p=$${p:-0}; f=$${f:-0}; if [ $$st -ne 0 ] && [ $$f -eq 0 ]; then f=1; line="$$s: exited $$st"; echo "$$line"; fi; \
	  lines="$$lines  $${line:-$$s: no counts} ($$(( $$(date +%s) - t0 )) s)"$$'\n'; pass=$$((pass+p)); fail=$$((fail+f)); done; \
	$(if $(shell command -v pdflatex),,echo "check-cran skipped: no pdflatex (tools/install-deps.sh tex)";) \
	echo "==== make check: $(words $(CHECK_STAGES)) stages"; \
	printf '%s' "$$lines"; \
	echo "$$pass passed, $$fail failed ($$(( $$(date +%s) - start )) s)"; [ $$fail -eq 0 ]
# both front-ends: R writes every number of its tables (build/demo/r/tables.txt), Octave's run checks its own against them
# (tests/cross/demo-tables.R, demo_tables.m)
demo: $(call DEPS_DONE,$(DEMO_DEPS))
	@rm -f $(BUILD)/demo/r/tables.txt
	@$(MAKE) --no-print-directory demo-r demo-octave
	@line=$$(grep -E '^demo cross-check R -> Octave: [1-9][0-9]* passed, 0 failed' $(BUILD)/demo/octave.txt) && \
	  echo "make demo: $$line; plots in $(BUILD)/demo/r and $(BUILD)/demo/octave" || \
	  { echo "make demo: no R/Octave cross-check line in $(BUILD)/demo/octave.txt"; exit 1; }

clean:
	rm -rf $(BUILD) src/*.o src/*.so src/Makevars core/*.o
