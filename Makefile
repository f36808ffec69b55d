# Makefile: build the C core and both front-ends, run every test, the demo and the benchmarks.
# make            both front-ends (R package into build/Rlib, Octave functions into build/octave)
# make check      every test: core C tests, R testthat, Octave tests
# make demo       both front-ends on the built-in default input (and ALL, acq when installed): tables, plots in build/demo
SHELL := /bin/bash
BUILD   := build
RSCRIPT ?= Rscript
R       ?= R
DEPS    := tools/install-deps.sh

CORE_SRC := $(wildcard core/*.c)
CORE_HDR := $(wildcard core/*.h)
CORE_OBJ := $(patsubst core/%.c,$(BUILD)/core/%.o,$(CORE_SRC))
CORE_LIB := $(BUILD)/libattsparse.a
CORE_CFLAGS ?= -std=c99 -O2 -g -fPIC -fopenmp -Wall -Wextra -pedantic
LAPACK_LIBS ?= -llapack -lblas -lgfortran -lm

RLIB := $(BUILD)/Rlib
R_STAMP := $(RLIB)/attsparse/DESCRIPTION
R_SRC := DESCRIPTION NAMESPACE $(wildcard R/*.R) $(wildcard src/*.c) $(wildcard src/Make*) $(CORE_SRC) $(CORE_HDR)

.PHONY: all core r r-tarball check check-core check-r check-vignette demo demo-r bench deps-build deps-r clean
all: r octave

deps-build:
	@$(DEPS) build
deps-r: deps-build
	@$(DEPS) r data

# ---------------------------------------------------------------- core
$(BUILD)/core/%.o: core/%.c $(CORE_HDR) | deps-build
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -c $< -o $@
$(CORE_LIB): $(CORE_OBJ)
	rm -f $@
	ar rcs $@ $^
core: $(CORE_LIB)

CORE_TESTS := $(patsubst tests/core/%.c,$(BUILD)/tests/%,$(wildcard tests/core/test_*.c))
$(BUILD)/tests/%: tests/core/%.c tests/core/check.h $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -Icore $< $(CORE_LIB) $(LAPACK_LIBS) -o $@
check-core: $(CORE_TESTS)
	@fail=0; for t in $(CORE_TESTS); do echo "== $$t"; $$t || fail=1; done; exit $$fail

# ---------------------------------------------------------------- R
# R CMD INSTALL compiles in the source tree (src/, core/): one install at a time
$(R_STAMP): $(R_SRC) | deps-r
	@mkdir -p $(RLIB)
	flock $(BUILD)/.r-install.lock $(R) CMD INSTALL --no-multiarch --library=$(RLIB) . >$(RLIB).log 2>&1 \
	  || { cat $(RLIB).log; exit 1; }
	@echo "R package attsparse installed into $(RLIB)"
r: $(R_STAMP)

check-r: r
	R_LIBS=$(RLIB) $(RSCRIPT) tests/run-testthat.R

# R CMD build: the source tarball, its vignette built (knitr, rmarkdown, pandoc)
R_VERSION := $(shell sed -n 's/^Version: *//p' DESCRIPTION)
R_TARBALL := $(BUILD)/attsparse_$(R_VERSION).tar.gz
$(R_TARBALL): $(R_SRC) $(wildcard vignettes/*.Rmd) $(wildcard man/*.Rd) | deps-r
	@$(DEPS) docs
	@mkdir -p $(BUILD)/rbuild
	cd $(BUILD)/rbuild && flock $(CURDIR)/$(BUILD)/.r-install.lock $(R) CMD build $(CURDIR) >build.log 2>&1 \
	  || { cat build.log; exit 1; }
	mv $(BUILD)/rbuild/attsparse_$(R_VERSION).tar.gz $@
	@echo "R source package: $@"
r-tarball: $(R_TARBALL)
# the tarball carries the built vignette
check-vignette: $(R_TARBALL)
	@tar -tzf $< | grep -q 'attsparse/inst/doc/reproducing-the-bounds.html' \
	  && echo "vignette: reproducing-the-bounds.html built into $<" \
	  || { echo "vignette missing from $<"; exit 1; }

demo-r: r
	@mkdir -p $(BUILD)/demo
	set -o pipefail; R_LIBS=$(RLIB) $(RSCRIPT) inst/demo/demo.R $(BUILD)/demo/r | tee $(BUILD)/demo/r.txt

# ---------------------------------------------------------------- Octave
-include octave/octave.mk

# ---------------------------------------------------------------- benchmarks
# each fragment adds its targets to BENCH_TARGETS
BENCH_TARGETS :=
-include bench/*.mk
bench: $(BENCH_TARGETS)

# ---------------------------------------------------------------- reliability
# sanitizer, valgrind and fuzz-corpus replay targets add themselves to EXTRA_CHECKS
EXTRA_CHECKS :=
-include tests/reliability/*.mk

check: check-core check-r check-vignette check-octave octave-pkg $(EXTRA_CHECKS)
# both front-ends, then the tables they printed compared (all but the time column)
DEMO_TABLE := awk '/^(rand-|det )/ { $$NF = ""; print; next } / x [0-9]+ (dense|sparse), nnz / { print }'
demo: demo-r demo-octave
	@r=$$($(DEMO_TABLE) $(BUILD)/demo/r.txt); \
	if d=$$(diff <(echo "$$r") <($(DEMO_TABLE) $(BUILD)/demo/octave.txt)); then \
	  echo "make demo: R and Octave printed the same tables ($$(echo "$$r" | grep -c .) lines, time_s aside); plots in $(BUILD)/demo/r and $(BUILD)/demo/octave"; \
	else echo "make demo: R and Octave tables differ:"; echo "$$d"; exit 1; fi

clean:
	rm -rf $(BUILD) src/*.o src/*.so core/*.o
