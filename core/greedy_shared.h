/* greedy_shared.h: what the greedy method's files share (greedy.c: the driver; greedy_pass.c: the passes over the candidates; greedy_fit.c: the fit of the kept columns; greedy_state.c: memory, growth, snapshots, result; refit.c: the refit of a sample; greedy_prune.c: the prune; greedy_sample.c: the sample path for very wide sparse X). */
#ifndef AS_GREEDY_SHARED_H
#define AS_GREEDY_SHARED_H

#include "as_internal.h"
#include "nnls.h"
#include "greedy.h"
#include "metrics.h"
#include "result.h"

/* The method is described at the top of greedy.c. */

/* Refits of option 'refit' at most, and of a budget run's polish (each with
   its reweighting steps). */
#define AS_GREEDY_REFIT_STEPS 4
/* Steps of the minimax fit in each of its prune's trials (from the weights
   of the last columns kept). */
#define AS_GREEDY_MM_TRIAL 2

/* The kept columns may be fitted without the k x k normal equations only
   where their refit costs more than this many multiply-adds (about a second;
   refit_cd.c's as_gr_kfree), or past c->tune.greedy_k_max columns. */
#define AS_GREEDY_KFREE_LONG 1e9

/* Multiply-adds of a K-based refit of k kept columns on n rows: its Cholesky
   factorizations (k^3 / 3) and the normal equations (2 n k^2). */
static inline double gr_kfit_cost(double n, double k)
{
    return k * k * k / 3.0 + 2.0 * n * k * k;
}

/* memcpy that takes a null pointer with a size of 0 (no columns kept yet, no entry weights yet),
   which memcpy itself must not be given. */
static inline void gr_copy(void *dst, const void *src, size_t bytes)
{
    if (bytes) memcpy(dst, src, bytes);
}

/* An entry weight of the n x n error. */
typedef struct gr_entry {
    int64_t i, l;   /* row, column of the n x n error          */
    double z;       /* its weight                                */
} gr_entry;

/* A candidate (t) with a value to rank it by (v). */
typedef struct gr_pick { double v; int64_t t; } gr_pick;

/* Picks by v, the largest first, ties by t (a total order: the sort's result
   does not depend on qsort's algorithm). */
static inline int gr_pick_cmp(const void *pa, const void *pb)
{
    const gr_pick *a = pa, *b = pb;
    if (a->v != b->v) return a->v > b->v ? -1 : 1;
    return a->t < b->t ? -1 : (a->t > b->t);
}

/* The weights of the kept columns with the reweighting that gave them: a
   state to come back to ("the best so far"). */
typedef struct gr_snap {
    int64_t k;               /* weights held                       */
    double *w;               /* the kept columns' weights          */
    double *u, *dg;          /* n: row weights, the diagonal's     */
    gr_entry *E;             /* entry weights (room for necap)     */
    int64_t ne;
} gr_snap;

/* The parts of the method a run uses: the tunables' values for the method's
   own path; all off for the plain path (an uncentred Frobenius fit of the
   columns with the largest score, the baseline the method must never fall
   behind). */
typedef struct gr_path {
    int centre;              /* the row-centred error (0: G - H)   */
    int gain;                /* select by score^2 / norm (0: score) */
    int lawson;              /* reweighting steps per refit        */
    double diag;             /* the diagonal's weight tried (0: not) */
    int two;                 /* a second choice in one-column rounds */
} gr_path;

typedef struct gr_state {
    gr_path path;            /* the parts this run uses            */
    const as_matrix *X;
    int64_t n, d;
    int64_t nc;              /* candidates                         */
    const int64_t *cand;     /* their columns of X (NULL: 0 .. d-1) */
    /* the candidates (greedy_pass.c) */
    int64_t *off;            /* nc + 1: where each one's stored entries start in alpha */
    double *alpha;           /* (A x_j)_i at each stored entry of each candidate */
    double *nx2, *csum;      /* |x_j|^2 and 1'x_j per candidate    */
    double *score, *norm;    /* per candidate                      */
    unsigned char *in;       /* per candidate: kept (the prune: 2, kept for good) */
    int64_t *scratch_ri;     /* per thread: n rows of a column     */
    double *scratch_xv;      /* per thread: n values of a column   */
    int nscratch;            /* threads it has room for            */
    /* the target and the error (greedy_fit.c) */
    double *G, *A, *lg;      /* X X', its attention, row lse of G  */
    double *H, *R, *M;       /* Y Y', L(G - H), the score matrix   */
    double *RG, *rg1;        /* L(G) and its row sums: made once (as_gr_make_m with no H) */
    const double *H0;        /* n x n: Y Y' of columns held at weight 1 outside the kept ones
                                (the sample path's heavy columns; NULL: none) */
    double *u;               /* n row weights                      */
    double *dg;              /* n: the diagonal's weight W_ii      */
    gr_entry *E;             /* entry weights                      */
    int64_t ne, necap;
    double *rowrel;          /* n: rel of each row                 */
    double *diagrel;         /* n: rel on the diagonal             */
    double *r1, *rho;        /* n: R 1 and the entry weights' row sums of Z o R */
    double *su;              /* n: sqrt(u)                         */
    /* the kept columns (room for kcap) */
    int64_t k, kcap;
    int64_t *sel;            /* kept candidates (positions)        */
    int64_t *col;            /* their columns of X                 */
    double *w, *sw;          /* weights, their square roots (Y's)  */
    unsigned char *ban;      /* held at 0 (the prune's trial)      */
    double *Xs, *XA;         /* n x kcap: kept columns, x o (A x)  */
    double *K, *b;           /* kcap x kcap, kcap: the normal equations K w = b */
    double *U;               /* (n + necap) x kcap: the products' operands */
    as_nnls_work nnls;       /* the solver's workspace             */
    gr_snap best;            /* the refit's best weights           */
    /* the cache of X_S' (I - 1 1' / n) X_S (greedy_fit.c) */
    double *C;               /* kcap x kcap: of the first ck columns of csel */
    int64_t *cpos;           /* nc: each candidate's position in C, or -1 */
    int64_t ck;              /* columns in C (0: none)             */
    int64_t *csel;           /* kcap: the candidates in C, by position */
    int64_t *cold;           /* kcap: each kept column's position in C before, or -1 */
    int64_t *cnew;           /* kcap: the kept columns not in C    */
    double *Cn, *Bn;         /* kcap x kcap: the new C; X_S' X_new */
    /* the run */
    int fresh;               /* K and b are those of the current u, E and columns (the next refit's first) */
    double baseline;
    double mem_mb;           /* option 'memory'                    */
    double work;             /* refits made, weighed by k^2 (the prune's budget) */
    double work_cap;         /* the rounds stop past this much work (INFINITY: no cap) */
    int64_t kmax;            /* kept columns checked against 'memory' before the run (0: none) */
    int64_t kfit;            /* the most kept columns fitted with K (c->tune.greedy_k_max; the refit's: refit_k_max) */
    int64_t mm_rows;         /* the most rows for which the minimax fit is made (option 'minimax') */
    int64_t kscr;            /* the K-based fit's scratch holds this many columns (C's leading dimension) */
    int capped;              /* 'memory' held fewer columns than a round asked for */
    /* the sample path tried beside the rounds (as_greedy): run once the rounds keep
       beside_k columns, into beside_res */
    const as_greedy_options *beside_o;   /* NULL: not tried */
    as_result *beside_res;
    int64_t beside_k;
    int beside_done;
    /* the minimax fit (greedy_fit.c) */
    int mm;                  /* E has held the minimax fit's entries (set by its first call) */
    double *err;             /* n x n: each entry's exact error (row i in column i) */
} gr_state;

/* Candidate t's column of X. */
static inline int64_t gr_col(const gr_state *s, int64_t t)
{
    return s->cand ? s->cand[t] : t;
}

/* ---- memory, growth, snapshots, result (greedy_state.c) */
/* The method's own path: the tunables' values. */
gr_path as_gr_path_default(const as_common *c);
/* The working arrays for up to kmax kept columns, checked against the cap
   mem_mb (`what`: the caller, for the message); s->kmax = kmax, the most the
   arrays then grow to; s->kfit = c->tune.greedy_k_max, past which the kept
   columns are fitted without K (the K-based scratch grows no further). */
int as_gr_memory(gr_state *s, int64_t kmax, double mem_mb, const char *what, as_common *c);
/* X X' (G: the caller's, or NULL: computed), its attention, row lse; H = 0;
   the row weights 1. */
int as_gr_setup(gr_state *s, const double *G, as_common *c);
/* Add the picked candidates to the kept columns (weight 0 until the refit):
   as many of the first ones as 'memory' holds (s->capped set when fewer
   than m); AS_ERR_TOOBIG, nothing added, when it holds none. */
int as_gr_add(gr_state *s, const gr_pick *picks, int64_t m, as_common *c);
/* Drop the kept columns whose weight is 0. */
void as_gr_compact(gr_state *s);
/* out's index (increasing) and weight from the kept columns. */
int as_gr_result(gr_state *s, as_result *out, as_common *c);
void as_gr_free(gr_state *s, as_common *c);
/* A snapshot with room for kroom weights; take copies the current weights
   (s->k of them) and reweighting into it, put copies them back (p->k
   weights; s->k is the caller's). */
int as_gr_snap_alloc(const gr_state *s, int64_t kroom, gr_snap *p, as_common *c);
void as_gr_snap_free(gr_snap *p, as_common *c);
void as_gr_snap_take(const gr_state *s, gr_snap *p);
void as_gr_snap_put(gr_state *s, const gr_snap *p);

/* ---- the passes over the candidates (greedy_pass.c) */
/* alpha at the stored entries of every candidate (A x_j), with |x|^2 and 1'x. */
int as_gr_prepare(gr_state *s, as_common *c);
/* score[q] = <phi, W o R> = x' M x and norm[q] = ||phi||_W^2 of the
   candidates list[0 .. np) (list NULL: all); the kept ones' are 0. */
int as_gr_scores(gr_state *s, const int64_t *list, int64_t np, as_common *c);
/* The same of the kept columns' candidates (s->sel; NULL: 0 .. k - 1, a
   sample's columns): the K-free fit's gradient, and K's diagonal without K. */
int as_gr_scores_kept(gr_state *s, as_common *c);
/* The candidates' sample (option 'candidates'): Poisson sampling of about
   o->candidates columns by squared norm (the heaviest kept for certain), its
   seed and size recorded in out; s->cand and s->nc are the sample's. */
int as_gr_candidates(gr_state *s, const as_greedy_options *o, as_result *out, int64_t **cands, as_common *c);

/* ---- the fit of the kept columns (greedy_fit.c) */
/* rel of H against G, and each row's off the diagonal (rowrel, may be NULL)
   and on it (s->diagrel). */
double as_gr_rel(const gr_state *s, const double *H, double *rowrel, as_common *c);
/* H = H0 + sum_a w_a x_a x_a' over the kept columns. */
int as_gr_make_h(gr_state *s, double *H, as_common *c);
/* R = L(G - H) (H NULL: L(G)) and the score matrix M from it. */
void as_gr_make_m(gr_state *s, const double *H, as_common *c);
/* K and b of the current row and entry weights. */
int as_gr_normal(gr_state *s, as_common *c);
/* Lawson's step from the errors of the last as_gr_rel (rowrel, diagrel):
   the row and diagonal weights times their error, scaled to mean 1. */
void as_gr_reweight(gr_state *s);
/* Refit and reweight (c->tune.greedy_lawson steps), keeping the weights with the
   smallest rel; H and *rel are theirs. */
int as_gr_fit(gr_state *s, double *rel, as_common *c);
/* Room for the minimax fit's entries (all n^2 of them) when n is at most
   s->mm_rows and 'memory' holds them: 1 when there is, 0 when not (the fit
   is then not made). */
int as_gr_minimax_room(gr_state *s, as_common *c);
/* The minimax fit: the kept columns' weights refitted toward the smallest
   largest error itself, by Lawson's reweighting of every single entry of the
   error (iteratively reweighted least squares toward the max norm): `steps`
   steps, the weights with the smallest exact rel kept.
   *rel on entry: the current weights' rel (INFINITY: they are not a fit, as
   in the prune's trials); on return, that of the weights kept (H theirs). */
int as_gr_fit_minimax(gr_state *s, double *rel, int steps, as_common *c);
/* Kept columns that are positive multiples of one another merged into one
   (the weight of both), kept when rel still meets the target (a budget: is
   no worse); H and *rel those of the columns kept. */
int as_gr_merge_kept(gr_state *s, double target, double *rel, as_common *c);

/* The progress lines' name of the run's path. */
static inline const char *gr_path_words(const gr_state *s)
{
    return s->path.centre ? "" : ", plain path";
}

/* ---- the prune (greedy_prune.c) */
/* The kept columns whose weights matter least dropped while rel meets the
   target (the minimax fit as the refit when `minimax`); *rel that of the
   columns left. */
int as_gr_prune(gr_state *s, double target, double *rel, int minimax, as_common *c);
/* The minimax fit of the kept columns where n^2 is small, and the prune
   again with it (its work capped by the work before it). */
int as_gr_minimax_prune(gr_state *s, double target, double *rel, as_common *c);

/* ---- the sample path for wide sparse input (greedy_sample.c) */
/* Option approach "auto" takes the sample path for a sparse X whose X X'
   costs more than this many multiply-adds (as_gram_madds; about a second),
   at most a quarter of its columns heavy: the rounds, hundreds of passes
   each about as costly, would take hours. */
#define AS_GREEDY_SAMPLE_MADDS 2e9
/* The heavy columns at weight 1, light ones drawn by squared norm and
   refitted without K until the exact rel meets the target, then pruned:
   out as as_greedy's. */
int as_gr_sample_path(const as_matrix *X, const as_greedy_options *o, as_result *out, as_common *c);
/* Whether as_greedy takes the sample path (option 'approach'; auto: see
   AS_APPROACH_AUTO in attsparse.h). */
int as_gr_sample_chosen(const as_matrix *X, const as_greedy_options *o, const as_common *c);
/* Whether as_greedy also tries the sample path beside the rounds (where the auto
   rule could take it and c->tune.greedy_beside_k > 0; greedy.c). */
int as_gr_sample_beside(const as_matrix *X, const as_greedy_options *o, const as_common *c);

#endif
