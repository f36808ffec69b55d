# octave/octave.mk: the Octave front-end's targets, included by the top-level Makefile.
# make octave        the functions and the MEX gateway in build/octave: addpath ("build/octave") is all a user needs
# make octave-pkg    build/attsparse-octave-<version>.tar.gz for pkg install, install-tested in a throwaway prefix
# make check-octave-pkg  the tarball (built if needed) and the counts of its install test (part of make check)
# make check-octave  the %!test blocks of octave/inst/*.m and tests/octave/*.m; ends "octave: N passed, M failed"
# make demo-octave   attsparse_demo on attsparse_example () and the data sets of inst/extdata/demo-data.txt (ALL, acq,
#                    crude, golub, lung when their R data packages are installed); plots in build/demo/octave; its
#                    tables checked against R's when make demo-r has written them (tests/cross/demo_tables.m)
# make demo-data     build/demo/data/*.X.txt (and ALL.V.txt) for Octave, written by the R package
#                    (inst/scripts/export-data.R)

MKOCTFILE ?= mkoctfile
OCTAVE_CLI ?= octave-cli
# octave-cli fails at exit when it cannot write its history file (a missing ~/.local/share/octave)
OCTAVE_RUN := OCTAVE_HISTFILE=/dev/null $(OCTAVE_CLI) --norc --quiet --no-window-system

OCT_DIR     := $(BUILD)/octave
OCT_MEX     := $(OCT_DIR)/__attsparse__.mex
OCT_STAMP   := $(OCT_DIR)/.installed
OCT_VERSION := $(shell sed -n 's/^Version: *//p' octave/DESCRIPTION)
OCT_PKG     := $(BUILD)/attsparse-octave-$(OCT_VERSION).tar.gz
OCT_M       := $(wildcard octave/inst/*.m octave/inst/private/*.m)
# the demo's data sets, shared with the R package: copied beside attsparse_demo.m
OCT_DEMO_DATA := inst/extdata/demo-data.txt
OCT_GATEWAY := $(wildcard octave/src/*.cc octave/src/*.h) octave/src/Makefile
OCT_PKG_FILES := octave/DESCRIPTION octave/INDEX octave/COPYING $(OCT_M) $(OCT_GATEWAY) $(CORE_SRC) $(CORE_HDR) \
                 $(OCT_DEMO_DATA) tests/octave/pkg_install_check.m

.PHONY: octave octave-pkg check-octave check-octave-pkg demo-octave demo-data

# the core is built once ($(CORE_LIB), -fPIC -fopenmp) and linked into the gateway
$(OCT_MEX): $(OCT_GATEWAY) $(CORE_LIB) $(CORE_HDR)
	@mkdir -p $(OCT_DIR)
	$(MAKE) -C octave/src --no-print-directory MKOCTFILE=$(MKOCTFILE) \
	  CORE_DIR=$(CURDIR)/core CORE_LIB=$(CURDIR)/$(CORE_LIB) MEX=$(CURDIR)/$@ LIBS="$(LAPACK_LIBS)"

$(OCT_STAMP): $(OCT_M) $(OCT_MEX) $(OCT_DEMO_DATA)
	rm -rf $(OCT_DIR)/private $(OCT_DIR)/*.m
	cp -r octave/inst/. $(OCT_DIR)/
	cp $(OCT_DEMO_DATA) $(OCT_DIR)/
	@touch $@
	@echo "Octave functions in $(OCT_DIR): addpath (\"$(OCT_DIR)\")"
octave: $(OCT_STAMP)

# The tarball builds from its own sources: src/ holds the gateway, its
# Makefile and a copy of the core. It is only put in place once `pkg install`
# of it into a throwaway prefix has built it and its installed tests pass.
OCT_PKG_LOG := $(BUILD)/octave-pkg.log
$(OCT_PKG): $(OCT_PKG_FILES)
	@rm -rf $(BUILD)/octave-pkg && mkdir -p $(BUILD)/octave-pkg/attsparse/src/core
	cp -r octave/DESCRIPTION octave/INDEX octave/COPYING octave/inst $(BUILD)/octave-pkg/attsparse/
	cp $(OCT_DEMO_DATA) $(BUILD)/octave-pkg/attsparse/inst/
	cp octave/src/Makefile octave/src/*.cc octave/src/*.h $(BUILD)/octave-pkg/attsparse/src/
	cp $(CORE_SRC) $(CORE_HDR) $(BUILD)/octave-pkg/attsparse/src/core/
	tar -C $(BUILD)/octave-pkg -czf $(BUILD)/octave-pkg/pkg.tar.gz attsparse
	set -o pipefail; cd $(BUILD)/octave-pkg && $(OCTAVE_RUN) --eval 'exit (pkg_install_check ("pkg.tar.gz", "prefix") > 0)' \
	  --path $(CURDIR)/tests/octave 2>&1 | tee $(CURDIR)/$(OCT_PKG_LOG).new
	mv $(OCT_PKG_LOG).new $(OCT_PKG_LOG)
	mv $(BUILD)/octave-pkg/pkg.tar.gz $@
	@echo "Octave package: $@ (pkg install $@)"
octave-pkg: $(OCT_PKG)
# the tarball exists only when its install test passed; that test's counts, kept from when it ran
check-octave-pkg: $(OCT_PKG)
	@grep -E '^installed package: [0-9]+ passed, [0-9]+ failed' $(OCT_PKG_LOG) | tail -1 | sed 's/$$/ ($(notdir $(OCT_PKG)))/'

check-octave: octave demo-data
	$(OCTAVE_RUN) --path $(CURDIR)/$(OCT_DIR) --path $(CURDIR)/tests/octave \
	  --eval 'exit (run_tests ("octave/inst", "tests/octave") > 0)'

demo-data: $(R_STAMP)
	R_LIBS=$(RLIB) $(RSCRIPT) inst/scripts/export-data.R $(BUILD)/demo/data

demo-octave: octave demo-data
	@mkdir -p $(BUILD)/demo
	set -o pipefail; $(OCTAVE_RUN) --path $(CURDIR)/$(OCT_DIR) --path $(CURDIR)/tests/cross \
	  --eval 'exit (demo_tables ("$(BUILD)/demo/octave", "$(BUILD)/demo/data", "$(BUILD)/demo/r/tables.txt") > 0)' \
	  | tee $(BUILD)/demo/octave.txt
