# det.mk: before/after benchmark of the deterministic algorithm (eps 0.5, tree search, dense as_example input); included by the top-level Makefile.
# make bench-det    time vs n (64 ... 1024) and vs d for four cores, each built from git into its own binary:
#                   eig   (commit 5d710d7: one eigendecomposition per step),
#                   chol  (commit b089abc: two Cholesky factorizations, inverses and squares per step),
#                   chol2 (commit f5e2aaa: two Cholesky factorizations and triangular inverses per step,
#                   the kept columns scored first, a tree search only when none qualifies),
#                   now   (the working tree: an eigendecomposition refreshed every few dozen steps,
#                   Woodbury updates in between, leaves of 2n columns);
#                   runs longer than DET_BENCH_BUDGET seconds are stopped and extrapolated from their
#                   last progress line.
# make bench-det DET_BENCH_CASES="256:65536"    one case
# make bench-det DET_BENCH_CLOCK=cpu            one thread, times in CPU seconds of the process (on a
#                                               machine shared with other work: what a run takes alone)
DET_BENCH := $(BUILD)/bench/det_bench
DET_BENCH_EIG := $(BUILD)/bench/det_bench_eig
DET_BENCH_CHOL := $(BUILD)/bench/det_bench_chol
DET_BENCH_CHOL2 := $(BUILD)/bench/det_bench_chol2
DET_BENCH_EIG_REV := 5d710d7
DET_BENCH_CHOL_REV := b089abc
DET_BENCH_CHOL2_REV := f5e2aaa
DET_BENCH_BUDGET ?= 30
DET_BENCH_CLOCK ?= wall
DET_BENCH_ENV := $(if $(filter cpu,$(DET_BENCH_CLOCK)),OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1,)
DET_BENCH_CASES ?= 64:8192 128:8192 256:8192 512:8192 1024:8192 256:2048 256:32768 256:65536

.PHONY: bench-det
BENCH_TARGETS += bench-det
$(DET_BENCH): bench/det_bench.c $(CORE_HDR) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -Icore $< $(CORE_LIB) $(LAPACK_LIBS) -o $@
# $(call det_bench_old,REV,LEVEL,OUT): the bench against the core of commit REV
define det_bench_old
	@mkdir -p $(BUILD)/bench/$(1)
	rm -rf $(BUILD)/bench/$(1)/core && git archive $(1) core | tar -x -C $(BUILD)/bench/$(1)
	cd $(BUILD)/bench/$(1) && for f in core/*.c; do $(CC) $(CORE_CFLAGS) -c $$f -o $${f%.c}.o || exit 1; done
	ar rcs $(BUILD)/bench/$(1)/libold.a $(BUILD)/bench/$(1)/core/*.o
	$(CC) $(CORE_CFLAGS) -DBENCH_OLD=$(2) -I$(BUILD)/bench/$(1)/core $< $(BUILD)/bench/$(1)/libold.a $(LAPACK_LIBS) -o $(3)
endef
$(DET_BENCH_EIG): bench/det_bench.c
	$(call det_bench_old,$(DET_BENCH_EIG_REV),1,$@)
$(DET_BENCH_CHOL): bench/det_bench.c
	$(call det_bench_old,$(DET_BENCH_CHOL_REV),2,$@)
$(DET_BENCH_CHOL2): bench/det_bench.c
	$(call det_bench_old,$(DET_BENCH_CHOL2_REV),3,$@)
bench-det: $(DET_BENCH) $(DET_BENCH_EIG) $(DET_BENCH_CHOL) $(DET_BENCH_CHOL2)
	@set -o pipefail; { \
	echo "as_det, eps 0.5, tree search, dense as_example(n, d, r = 1, seed 42), no metrics; $(DET_BENCH_CLOCK) time; load average $$(cut -d' ' -f1 /proc/loadavg) at start"; \
	echo "steps: steps made (full runs only; '-': stopped); k: distinct columns kept"; \
	echo "factor ms: the factorizations at rank n (eig: dsyevr with vectors; chol: 2 x (dpotrf + dpotri + dsyrk);"; \
	echo "chol2: 2 x (dpotrf + triangular inverse), each a step's; now: dsyevd with vectors, a refresh's);"; \
	echo "share: of a step (eig, chol, chol2), of all iterations (now: refreshes x factor ms; 0 when stopped)"; \
	echo "core      n       d  iters  steps      k setup_s  ms/iter  total_s how    factor_ms share"; \
	for cs in $(DET_BENCH_CASES); do n=$${cs%%:*}; d=$${cs##*:}; \
	  printf 'eig   '; $(DET_BENCH_ENV) $(DET_BENCH_EIG) $$n $$d $(DET_BENCH_BUDGET) $(DET_BENCH_CLOCK) || exit 1; \
	  printf 'chol  '; $(DET_BENCH_ENV) $(DET_BENCH_CHOL) $$n $$d $(DET_BENCH_BUDGET) $(DET_BENCH_CLOCK) || exit 1; \
	  printf 'chol2 '; $(DET_BENCH_ENV) $(DET_BENCH_CHOL2) $$n $$d $(DET_BENCH_BUDGET) $(DET_BENCH_CLOCK) || exit 1; \
	  printf 'now   '; $(DET_BENCH_ENV) $(DET_BENCH) $$n $$d $(DET_BENCH_BUDGET) $(DET_BENCH_CLOCK) || exit 1; done; \
	} | tee $(BUILD)/bench/det-table.txt
