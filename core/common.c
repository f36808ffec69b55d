/* common.c: the context object, allocation and status hooks, progress, threads. */
#if !defined(_POSIX_C_SOURCE) && (defined(__unix__) || defined(__APPLE__))
#define _POSIX_C_SOURCE 200112L   /* pthread_atfork, sysconf under -std=c99 */
#endif
#include "as_internal.h"
#include "greedy.h"
#include "nnls.h"
#include "refit.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#include <unistd.h>
#include <dlfcn.h>
#include <sys/resource.h>
#define AS_POSIX 1
#endif

/* Nonzero in a process forked after the core was used (R's mclapply, Octave's
   fork): libgomp's thread pool is not carried over to the child, and its first
   parallel region there would wait forever for the parent's threads. The core
   then runs on one thread, as data.table does. */
static volatile int as_forked_child = 0;

#ifdef AS_POSIX
static void as_atfork_child(void) { as_forked_child = 1; }
static pthread_once_t as_atfork_once = PTHREAD_ONCE_INIT;
static void as_atfork_register(void) { pthread_atfork(NULL, NULL, as_atfork_child); }
#endif

void as_common_init(as_common *c)
{
#ifdef AS_POSIX
    pthread_once(&as_atfork_once, as_atfork_register);
#endif
    memset(c, 0, sizeof(*c));
    c->malloc_fn = malloc;
    c->free_fn = free;
    c->tune.parallel_min_work = 3e7;
    c->tune.status_after = 2.0;
    c->tune.status_every = 2.0;
    c->tune.qk_block = 4194304.0;
    c->tune.qk_blas_madds = 1048576.0;
    c->tune.gram_heavy = 0.25;
    c->tune.gram_pair_share = 0.5;
    c->tune.la_pass_bytes = 3.2e9;
    c->tune.la_round_madds = 3e8;
    c->tune.greedy_batch = 0.05;
    c->tune.greedy_diag = 0.3;
    c->tune.greedy_prune_share = 4.0;
    c->tune.det_phi_tol = 1e-6;
    c->tune.det_refresh_cols = 0;
    c->tune.refit_k_max = AS_REFIT_K_MAX;
    c->tune.greedy_k_max = AS_GREEDY_K_MAX;
    c->tune.nnls_newton_max = AS_NNLS_NEWTON_MAX;
    c->tune.greedy_beside_k = 500;
    c->tune.greedy_lawson = 2;
    c->tune.greedy_minimax = 8;
    c->tune.greedy_centre = c->tune.greedy_gain = c->tune.greedy_two = 1;
    c->tune.estimate_split = 1;
    c->tune.spectral_chol = 1;
    c->tune.gram_avx2 = c->tune.scores_avx2 = 1;
    c->started = as_wtime();
}

const char *as_status_id(int status)
{
    switch (status) {
    case AS_OK: return "ok";
    case AS_ERR_ARG: return "badArgument";
    case AS_ERR_INPUT: return "badInput";
    case AS_ERR_NOMEM: return "noMemory";
    case AS_ERR_LAPACK: return "lapack";
    case AS_ERR_INTERRUPT: return "interrupted";
    case AS_ERR_TOOBIG: return "tooBig";
    default: return "unknown";
    }
}

int as_error(as_common *c, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof(c->msg), fmt, ap);
    va_end(ap);
    c->status = status;
    return status;
}

void *as_malloc(as_common *c, size_t count, size_t size)
{
    void *p;
    if (count == 0) count = 1;
    if (size != 0 && count > (size_t)-1 / size) {
        as_error(c, AS_ERR_NOMEM, "cannot allocate %g bytes", (double)count * (double)size);
        return NULL;
    }
    p = c->malloc_fn(count * size);
    if (p == NULL)
        as_error(c, AS_ERR_NOMEM, "out of memory allocating %.0f bytes",
                 (double)count * (double)size);
    return p;
}

void *as_calloc(as_common *c, size_t count, size_t size)
{
    void *p = as_malloc(c, count, size);
    if (p != NULL) memset(p, 0, (count ? count : 1) * size);
    return p;
}

void as_free(as_common *c, void *ptr)
{
    if (ptr != NULL) c->free_fn(ptr);
}

int as_interrupted(as_common *c)
{
    if (c->phase && !c->verbose) as_status(c, "%s, %.1f s", c->phase, as_wtime() - c->started);
    if (c->interrupt_fn != NULL && c->interrupt_fn(c->ctx))
        return as_error(c, AS_ERR_INTERRUPT, "interrupted by the user");
    return AS_OK;
}

/* One line through the print hook. */
static void as_vprint(as_common *c, const char *fmt, va_list ap)
{
    char line[256];
    vsnprintf(line, sizeof(line), fmt, ap);
    c->print_fn(c->ctx, line);
}

void as_progress(as_common *c, const char *fmt, ...)
{
    va_list ap;
    if (!c->verbose || c->print_fn == NULL) return;
    va_start(ap, fmt);
    as_vprint(c, fmt, ap);
    va_end(ap);
}

void as_status(as_common *c, const char *fmt, ...)
{
    va_list ap;
    double now;
    if (c->print_fn == NULL) return;
    now = as_wtime();
    if (!c->verbose && (now - c->started < c->tune.status_after || now - c->reported < c->tune.status_every)) return;
    c->reported = now;
    va_start(ap, fmt);
    as_vprint(c, fmt, ap);
    va_end(ap);
}

int as_threads_cap(void)
{
    long cpus = 1;
#ifdef AS_POSIX
    cpus = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    if (cpus < 1) cpus = 1;
    return cpus > AS_THREADS_MAX / 4 ? AS_THREADS_MAX : (int)(4 * cpus);
}

int as_threads(const as_common *c)
{
#ifdef _OPENMP
    int cap = as_threads_cap();
    if (as_forked_child) return 1;
    /* a front-end that passes 1e5 would have OpenMP exhaust the stack or abort */
    if (c->nthreads > cap) return cap;
    return c->nthreads > 0 ? c->nthreads : omp_get_max_threads();
#else
    (void)c;
    return 1;
#endif
}

/* c->tune.parallel_min_work: below it a call runs on one thread (3e7). */

int as_threads_for(const as_common *c, double work)
{
    return work < c->tune.parallel_min_work ? 1 : as_threads(c);
}

/* The BLAS's own thread count, where the library lets a caller set it
   (OpenBLAS, FlexiBLAS; found at run time, so the core links against any
   BLAS): with others these do nothing. */
typedef void (*as_set_threads_fn)(int);
typedef int (*as_get_threads_fn)(void);

int as_blas_threads_set(int n)
{
#ifdef AS_POSIX
    static const char *set_names[] = {"openblas_set_num_threads", "flexiblas_set_num_threads"};
    static const char *get_names[] = {"openblas_get_num_threads", "flexiblas_get_num_threads"};
    /* the global symbols: the program's and those of the libraries it loaded globally */
    void *self = dlopen(NULL, RTLD_LAZY);
    int i;
    if (!self) return 0;
    for (i = 0; i < 2; i++) {
        void *fs = dlsym(self, set_names[i]), *fg = dlsym(self, get_names[i]);
        if (fs && fg) {
            as_set_threads_fn set;
            as_get_threads_fn get;
            int prev;
            /* object to function pointer: through memcpy, as ISO C has no cast between them */
            memcpy(&set, &fs, sizeof(set));
            memcpy(&get, &fg, sizeof(get));
            prev = get();
            if (n > 0 && n != prev) set(n);
            dlclose(self);
            return prev;
        }
    }
    dlclose(self);
#else
    (void)n;
#endif
    return 0;
}

double as_mem_default_mb(void)
{
    double phys = 0;
#ifdef AS_POSIX
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    struct rlimit rl;
    if (pages > 0 && size > 0) phys = (double)pages * (double)size;
    /* a process limit below the memory (ulimit -v, -d) is the memory it has */
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (double)rl.rlim_cur < phys)
        phys = (double)rl.rlim_cur;
    if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (double)rl.rlim_cur < phys)
        phys = (double)rl.rlim_cur;
#endif
    return 0.75 * phys / 1048576.0;
}

int as_mem_check_as(as_common *c, double bytes, double cap_mb, const char *what, const char *noun)
{
    double mib = 1048576.0;
    int dflt = cap_mb <= 0;
    if (dflt) {
        cap_mb = as_mem_default_mb();
        if (cap_mb <= 0) return AS_OK;   /* unknown: leave it to the allocator */
    }
    if (bytes / mib > cap_mb)
        return as_error(c, AS_ERR_TOOBIG, "%s: %.4g MiB%s, above 'memory' = %.4g MiB%s",
                        what, bytes / mib, noun, cap_mb, dflt ? " (3/4 of the memory the process may use)" : "");
    return AS_OK;
}

int as_mem_check(as_common *c, double bytes, double cap_mb, const char *what)
{
    return as_mem_check_as(c, bytes, cap_mb, what, " of working arrays");
}

double as_wtime(void)
{
#ifdef _OPENMP
    return omp_get_wtime();
#elif defined(AS_POSIX) && defined(CLOCK_MONOTONIC)
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#else
    return (double)clock() / CLOCKS_PER_SEC;
#endif
}
