/* greedy.c: the fewest columns for an attention error: greedy selection with nonnegative reweighting, the exact rel of the result as its certificate. */
#include "as_internal.h"
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

/* The method (DESIGN.md section 10).
   Y Y' = H(w) = sum_{a in S} w_a x_a x_a', w >= 0. With E = H - G, the
   attention ratio is Att(Y)_ij / Att(X)_ij = exp(E_ij - c_i), c_i = log
   sum_l A_il exp(E_il), A = Att(X): to first order rel is the largest entry
   of the row-centred error L(E)_ij = E_ij - sum_l A_il E_il. The method
   minimizes a weighted least-squares proxy of it,

       f(w) = sum_ij W_ij L(G - H(w))_ij^2,   W_ij = u_i + z_ij,

   with row weights u (the rows where rel peaks) and a few entry weights z
   (the entries where it peaks, often the diagonal), both updated from the
   exact errors by Lawson's rule (weights times the error: iteratively
   reweighted least squares toward the max norm). With phi_a = L(x_a x_a'),
   phi_a(i, j) = a_i (a_j - alpha_i), alpha = A a, every quantity needs only
   n-vectors per column:
     scores   <phi_j, W o R> = x_j' M x_j with M = diag(u) R + Z o R -
              diag(u o R 1 + rho) A (rho_i: row i of Z o R summed), R the
              current L(G - H): one n x n matrix, a pass over the candidates;
     norms    ||phi_j||_W^2 = sum_i u_i x_ij^2 (|x_j|^2 - 2 alpha_i s_j +
              n alpha_i^2) + sum_(i,l) z_il phi_j(i, l)^2, s_j = 1'x_j;
     refit    the k x k normal equations K w = b of f, K from two products
              of n x k matrices (X_S and X_S o (A X_S) weighted, and the
              entry weights' |Z| x k rows) and X_S' X_S, which is kept from
              one refit to the next, b_a = x_a' M_G x_a (M of R = L(G));
              solved for w >= 0 by coordinate descent, then Newton steps on
              the support (LAPACK's Cholesky), each the full step projected
              on w >= 0 when that lowers f, else the step to the boundary.
   A round adds the candidates with the largest <phi_j, W o R>^2 /
   ||phi_j||^2 (those whose own best weight lowers f the most; a share of
   the columns kept, at least one), refits, and reweights; the rounds stop
   when the exact rel of H meets the target (or k columns are kept); then
   the smallest-weight columns are pruned while rel still meets it. The
   exact rel is computed from G and H at every step: the result's rel_error
   is a certificate, never an estimate.

   Bits: every per-column quantity is one column's own sum in a fixed order;
   the products are as_gemm_blocks / as_syrk_blocks (blocks fixed by the
   sizes); the selection, the coordinate descent and the reweighting are
   serial: the result does not depend on the thread count. */

/* Share of the columns kept added per round (at least one), growing in
   proportion past AS_GREEDY_BATCH_K columns up to AS_GREEDY_BATCH_MAX. */
#define AS_GREEDY_BATCH_K 200.0
#define AS_GREEDY_BATCH_MAX 0.25
double as_greedy_batch = 0.05;
/* Reweighting steps per round. */
int as_greedy_lawson = 2;
double as_greedy_diag = 0.3;
/* The parts of the method that can be switched off, for the ablation of
   make bench-greedy: the row-centring of the error (0: the plain error
   G - H), the gain score^2 / norm as the selection's measure (0: the score),
   the second choice of a one-column round (0: none). */
int as_greedy_centre = 1, as_greedy_gain = 1, as_greedy_two = 1;
/* The prune's refits at most this many times the rounds' (their k^2 summed). */
double as_greedy_prune_share = 4.0;
/* Refits of option 'refit' at most (each with its reweighting steps). */
#define AS_GREEDY_REFIT_STEPS 4
/* Rounds between full passes over the candidates: in between, only the
   shortlist of the last full pass is scored again (its AS_GREEDY_SHORT_FACTOR
   times the round's batch best, at least AS_GREEDY_SHORT_MIN). */
#define AS_GREEDY_SHORT_ROUNDS 4
#define AS_GREEDY_SHORT_FACTOR 8
#define AS_GREEDY_SHORT_MIN 64
/* ... when there are at least this many candidates (fewer: every round a full pass). */
#define AS_GREEDY_SHORT_POOL 8192
/* The prune tries this many single columns in a row in each order before it stops. */
#define AS_GREEDY_PRUNE_TRIES 4
/* Smallest row weight, relative to their mean. */
#define AS_GREEDY_U_FLOOR 1e-3
/* The nonnegative solve: rounds of at most AS_GREEDY_CD_SWEEPS coordinate
   descent sweeps (each stopping below a change of AS_GREEDY_CD_TOL of the
   weights) and AS_GREEDY_NEWTON Newton steps, until the projected gradient
   is below AS_GREEDY_KKT_TOL of the weights or a round lowers the objective
   by less than AS_GREEDY_F_TOL of it. */
#define AS_GREEDY_SOLVE_ROUNDS 12
#define AS_GREEDY_CD_SWEEPS 3
#define AS_GREEDY_CD_TOL 1e-6
#define AS_GREEDY_NEWTON 4
#define AS_GREEDY_NEWTON_MAX 2048
#define AS_GREEDY_KKT_TOL 1e-9
#define AS_GREEDY_F_TOL 1e-12

/* memcpy that takes a null pointer with a size of 0 (no columns kept yet, no entry weights yet),
   which memcpy itself must not be given. */
static void gr_copy(void *dst, const void *src, size_t bytes)
{
    if (bytes) memcpy(dst, src, bytes);
}

typedef struct gr_entry {
    int64_t i, l;   /* row, column of the n x n error          */
    double z;       /* its weight                                */
} gr_entry;

typedef struct gr_state {
    const as_matrix *X;
    int64_t n, d;
    int64_t nc;              /* candidates                         */
    const int64_t *cand;     /* their columns of X (NULL: 0 .. d-1) */
    int64_t *off;            /* nc + 1: where each one's stored entries start in alpha */
    double *alpha;           /* (A x_j)_i at each stored entry of each candidate */
    double *nx2, *csum;      /* |x_j|^2 and 1'x_j per candidate    */
    double *G, *A, *LG, *lg; /* X X', its attention, L(G), row lse of G */
    double *H, *R, *M;       /* Y Y', L(G - H), the score matrix   */
    double *u;               /* n row weights                      */
    gr_entry *E;             /* entry weights                      */
    int64_t ne, necap;
    double *score, *norm;    /* per candidate                      */
    unsigned char *in;       /* per candidate: kept                */
    int64_t k, kcap;         /* kept, and room                     */
    int64_t *sel;            /* kept candidates (positions)        */
    int64_t *col;            /* their columns of X                 */
    double *w, *sw;          /* weights, their square roots (Y's)  */
    double *Xs, *XA;         /* n x kcap: kept columns, x o (A x)  */
    double *K, *b, *grad;    /* kcap x kcap, kcap, kcap            */
    double *T1, *T2, *T3;    /* n x kcap scratch, kcap x kcap scratch (two) */
    double *C;               /* kcap x kcap: X_S' (I - 1 1' / n) X_S of the first ck columns of csel_at */
    int64_t *cpos;           /* nc: each candidate's position in C, or -1 */
    int64_t ck;              /* columns in C (0: none)             */
    int64_t *csel_at;        /* 2 kcap: the candidates in C, by position; scratch */
    double *rowrel;          /* n: rel of each row                 */
    double *r1, *rho;        /* n: R 1 and the entry weights' row sums of Z o R */
    double *diagrel, *dg;    /* n: rel on the diagonal; the diagonal's weight W_ii */
    unsigned char *ban;      /* kcap: held at 0 (the prune's trial) */
    int fresh;               /* K and b are those of the current u, E and columns (the next refit's first) */
    double baseline;
    double mem_mb;           /* option 'memory'                    */
    double work;             /* refits made, weighed by k^2 (the prune's budget) */
    double *scratch;         /* per thread: 2 n doubles (a column's rows and values) */
    int nscratch;            /* threads it has room for            */
} gr_state;

/* Thread tid's scratch: n row indices and n values of a column. */
static void gr_thread_scratch(const gr_state *s, int tid, int64_t **ri, double **xv)
{
    double *base = s->scratch + (size_t)tid * 2 * (size_t)s->n;
    *ri = (int64_t *)base;
    *xv = base + s->n;
}

static int gr_tid(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

static int64_t gr_col(const gr_state *s, int64_t t)
{
    return s->cand ? s->cand[t] : t;
}

/* ------------------------------------------------------------------ errors */
/* rel of H against G, and each row's off the diagonal (rowrel, may be NULL)
   and on it (s->diagrel). */
static double gr_rel(const gr_state *s, const double *H, double *rowrel, as_common *c)
{
    int64_t n = s->n;
    double rel = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(as_threads_for(c, 8.0 * (double)n * (double)n))
#endif
    {
        double mx = 0;
        int64_t a, b;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (a = 0; a < n; a++) {
            double lh = as_lse(n, H + a * n), r = 0, q;
            for (b = 0; b < n; b++)
                if (b != a) r = fmax(r, fabs(expm1((H[b + a * n] - lh) - (s->G[b + a * n] - s->lg[a]))));
            q = fabs(expm1((H[a + a * n] - lh) - (s->G[a + a * n] - s->lg[a])));
            if (rowrel) {
                rowrel[a] = r;
                s->diagrel[a] = q;
            }
            mx = fmax(mx, fmax(r, q));
        }
#ifdef _OPENMP
#pragma omp critical(as_greedy_rel)
#endif
        rel = fmax(rel, mx);
    }
    return rel;
}

/* H = sum_a w_a x_a x_a' over the kept columns. */
static int gr_make_h(gr_state *s, double *H, as_common *c)
{
    int64_t a;
    for (a = 0; a < s->k; a++) s->sw[a] = sqrt(s->w[a]);
    return as_gram(s->X, s->k, s->col, s->sw, H, c);
}

/* ------------------------------------------------------------------ the score matrix */
/* R = L(D) (D = G - H, or G when H is NULL) and M = diag(u) R + Z o R -
   diag(u o R 1 + rho) A (see the top). */
static void gr_make_m(gr_state *s, const double *H, as_common *c)
{
    int64_t n = s->n, i, j, e;
    double *R = s->R, *M = s->M, *rho;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(as_threads_for(c, 4.0 * (double)n * (double)n)) private(j)
#endif
    for (i = 0; i < n; i++) {
        double m = 0, r1 = 0;
        /* row i of a symmetric D is its column i */
        for (j = 0; j < n; j++) m += s->A[i + j * n] * (s->G[j + i * n] - (H ? H[j + i * n] : 0));
        for (j = 0; j < n; j++) {
            double r = s->G[j + i * n] - (H ? H[j + i * n] : 0) - m;
            R[i + j * n] = r;
            r1 += r;
        }
        s->r1[i] = r1;
    }
    rho = s->rho;
    for (i = 0; i < n; i++) rho[i] = 0;
    for (e = 0; e < s->ne; e++) rho[s->E[e].i] += s->E[e].z * R[s->E[e].i + s->E[e].l * n];
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(as_threads_for(c, 2.0 * (double)n * (double)n)) private(i)
#endif
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
            M[i + j * n] = s->u[i] * R[i + j * n] - (s->u[i] * s->r1[i] + rho[i]) * s->A[i + j * n];
    for (e = 0; e < s->ne; e++) M[s->E[e].i + s->E[e].l * n] += s->E[e].z * R[s->E[e].i + s->E[e].l * n];
}

/* ------------------------------------------------------------------ per-candidate passes */
/* Threads for a pass of `work` multiply-adds, within the scratch's room. */
static int gr_threads(const gr_state *s, const as_common *c, double work)
{
    int nt = as_threads_for(c, work);
    return nt < s->nscratch ? nt : s->nscratch;
}

/* The stored entries of candidate t: rows and values into ri, xv (at most n). */
static int64_t gr_entries(const gr_state *s, int64_t t, int64_t *ri, double *xv)
{
    int64_t m = 0;
    AS_FOR_COL(s->X, gr_col(s, t), row, v, { ri[m] = row; xv[m] = v; m++; });
    return m;
}

/* A pass over candidates: the positions list[p] (list NULL: p itself) for p
   in blocks [p0, p1); y + yo[p - p0] receives the product at candidate
   list[p]'s stored rows (yo: the running sum of their counts). */
typedef struct gr_pass {
    const int64_t *list;
    const double *B;     /* the n x n matrix applied                   */
    double *y;           /* its products at the stored rows            */
    int64_t *yo;         /* gr_block_cap + 1 offsets into y            */
    int64_t p0;
    double light;        /* the block's light columns' work (sparse X): their stored entries squared */
} gr_pass;

static int64_t gr_at(const gr_pass *P, int64_t p)
{
    return P->list ? P->list[p] : p;
}

static int64_t gr_count(const gr_state *s, int64_t q)
{
    return s->off[q + 1] - s->off[q];
}

/* fn(s, P, p, scratch) for every p in [p0, p1), on the core's threads (work:
   the multiply-adds, for their number), each with its thread's scratch. */
typedef void (*gr_col_fn)(const gr_state *s, const gr_pass *P, int64_t p, int64_t *ri, double *xv);
static void gr_each(const gr_state *s, const as_common *c, const gr_pass *P, int64_t p1, double work,
                    gr_col_fn fn)
{
    int64_t p;
#ifdef _OPENMP
#pragma omp parallel num_threads(gr_threads(s, c, work))
#endif
    {
        int64_t *ri;
        double *xv;
        gr_thread_scratch(s, gr_tid(), &ri, &xv);
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 16)
#endif
        for (p = P->p0; p < p1; p++) fn(s, P, p, ri, xv);
    }
}

/* Candidates per block of the passes: at most AS_GREEDY_BLOCK, and blocks
   of at most AS_GREEDY_BLOCK_ENTRIES stored entries (a poll between blocks). */
#define AS_GREEDY_BLOCK 256
#define AS_GREEDY_BLOCK_ENTRIES 1048576

/* A column of a sparse X is heavy from this share of the rows on: its
   product goes to dgemm in a dense block (n^2 multiply-adds at the BLAS's
   rate), the others' loops cost nnz^2 scattered ones. */
#define AS_GREEDY_HEAVY 0.25

static int gr_heavy(const gr_state *s, int64_t q)
{
    return (double)gr_count(s, q) >= AS_GREEDY_HEAVY * (double)s->n;
}

/* Candidates a block holds at most: a dense X's AS_GREEDY_BLOCK (a product of n x
   that many), a sparse X's AS_GREEDY_BLOCK_SPARSE, of them AS_GREEDY_BLOCK heavy (the
   light ones are many and small: a block of them is enough work for the threads). */
#define AS_GREEDY_BLOCK_SPARSE 16384
#define AS_GREEDY_BLOCK_WORK 1e8
static int64_t gr_block_cap(const gr_state *s)
{
    return s->X->kind == AS_DENSE ? AS_GREEDY_BLOCK : AS_GREEDY_BLOCK_SPARSE;
}

/* The end of the block that starts at p0 of a pass over np positions, the
   offsets of its products, and (sparse X) its light columns' work. */
static int64_t gr_block_end(const gr_state *s, gr_pass *P, int64_t np)
{
    int64_t p1 = P->p0, tot = 0, heavy = 0, cap = gr_block_cap(s);
    double light = 0;
    P->yo[0] = 0;
    while (p1 < np && p1 - P->p0 < cap &&
           (p1 == P->p0 || tot + gr_count(s, gr_at(P, p1)) <= AS_GREEDY_BLOCK_ENTRIES)) {
        int64_t m = gr_count(s, gr_at(P, p1));
        if (s->X->kind != AS_DENSE) {
            int hv = gr_heavy(s, gr_at(P, p1));
            if (p1 > P->p0 && (hv ? heavy + 1 > AS_GREEDY_BLOCK : light + (double)m * (double)m > AS_GREEDY_BLOCK_WORK))
                break;
            if (hv) heavy++;
            else light += (double)m * (double)m;
        }
        tot += m;
        P->yo[++p1 - P->p0] = tot;
    }
    P->light = light;
    return p1;
}

/* The product of a light column of a sparse X: y = B x_q at x_q's stored
   rows, a column of B at a time (its rows gathered). */
static void gr_apply_col(const gr_state *s, const gr_pass *P, int64_t p, int64_t *ri, double *xv)
{
    int64_t q = gr_at(P, p), a, b, m, n = s->n;
    double *yq = P->y + P->yo[p - P->p0];
    if (gr_heavy(s, q)) return;
    m = gr_entries(s, q, ri, xv);
    for (a = 0; a < m; a++) yq[a] = 0;
    for (b = 0; b < m; b++) {
        const double *col = P->B + ri[b] * n;
        double xb = xv[b];
        for (a = 0; a < m; a++) yq[a] += col[ri[a]] * xb;
    }
}

/* The products of the block [p0, p1) (see gr_pass): a dense X's columns by
   dgemm (gathered when not contiguous); a sparse X's heavy columns the same
   way (scattered into a dense block), its light ones column by column (only
   the stored rows are needed). buf: n x 2 AS_GREEDY_BLOCK doubles and
   AS_GREEDY_BLOCK more. */
static int gr_apply(gr_state *s, const gr_pass *P, int64_t p1, double *buf, as_common *c)
{
    int64_t n = s->n, p, nh = 0, *hq = (int64_t *)(buf + 2 * n * AS_GREEDY_BLOCK);
    double *Pd = buf + n * AS_GREEDY_BLOCK;
    if (s->X->kind == AS_DENSE) {
        const double *Xb = s->X->x + gr_col(s, gr_at(P, P->p0)) * s->X->ld;
        int64_t ld = s->X->ld;
        if (s->cand != NULL || P->list != NULL) {
            for (p = P->p0; p < p1; p++)
                gr_copy(buf + (p - P->p0) * n, s->X->x + gr_col(s, gr_at(P, p)) * s->X->ld,
                       sizeof(double) * (size_t)n);
            Xb = buf;
            ld = n;
        }
        return as_gemm_blocks("N", "N", n, p1 - P->p0, n, 1.0, P->B, n, Xb, ld, 0.0, P->y, n, c);
    }
    for (p = P->p0; p < p1; p++)
        if (gr_heavy(s, gr_at(P, p))) {
            double *col = buf + nh * n;
            memset(col, 0, sizeof(double) * (size_t)n);
            AS_FOR_COL(s->X, gr_col(s, gr_at(P, p)), row, v, { col[row] = v; });
            hq[nh++] = p;
        }
    if (nh > 0) {
        int64_t h;
        if (as_gemm_blocks("N", "N", n, nh, n, 1.0, P->B, n, buf, n, 0.0, Pd, n, c) != AS_OK) return c->status;
        for (h = 0; h < nh; h++) {
            double *yq = P->y + P->yo[hq[h] - P->p0];
            const double *pc = Pd + h * n;
            int64_t m = 0;
            AS_FOR_COL(s->X, gr_col(s, gr_at(P, hq[h])), row, v, { (void)v; yq[m++] = pc[row]; });
        }
    }
    gr_each(s, c, P, p1, P->light, gr_apply_col);
    return AS_OK;
}

/* Scratch of the passes: the products of a block and their offsets, and a
   dense block gathered with its product (and the heavy columns' list). */
static int gr_pass_buffers(const gr_state *s, gr_pass *P, double **buf, as_common *c)
{
    int64_t most = s->X->kind == AS_DENSE ? s->n * AS_GREEDY_BLOCK : AS_GREEDY_BLOCK_ENTRIES, t;
    if (s->X->kind != AS_DENSE)
        for (t = 0; t < s->nc; t++)
            if (gr_count(s, t) > most) most = gr_count(s, t);
    P->y = as_malloc(c, (size_t)most, sizeof(double));
    P->yo = as_malloc(c, (size_t)gr_block_cap(s) + 1, sizeof(int64_t));
    *buf = as_malloc(c, (size_t)((2 * s->n + 1) * AS_GREEDY_BLOCK), sizeof(double));
    return c->status;
}

static void gr_pass_free(gr_pass *P, double *buf, as_common *c)
{
    as_free(c, P->y);
    as_free(c, P->yo);
    as_free(c, buf);
}

/* alpha at the stored entries of every candidate (A x_j), with |x|^2 and 1'x. */
static int gr_prepare(gr_state *s, as_common *c)
{
    int64_t nc = s->nc, t, tot = 0;
    double *buf = NULL, *ybuf;
    gr_pass P;
    memset(&P, 0, sizeof P);
    s->off = as_malloc(c, (size_t)(nc + 1), sizeof(int64_t));
    s->nx2 = as_malloc(c, (size_t)(nc > 0 ? nc : 1), sizeof(double));
    s->csum = as_malloc(c, (size_t)(nc > 0 ? nc : 1), sizeof(double));
    if (!s->off || !s->nx2 || !s->csum) return c->status;
    for (t = 0; t < nc; t++) {
        s->off[t] = tot;
        tot += as_col_nnz(s->X, gr_col(s, t));
    }
    s->off[nc] = tot;
    s->alpha = as_malloc(c, (size_t)(tot > 0 ? tot : 1), sizeof(double));
    s->nscratch = as_threads(c);
    s->scratch = as_calloc(c, (size_t)s->nscratch * 2 * (size_t)(s->n > 0 ? s->n : 1), sizeof(double));
    if (!s->alpha || !s->scratch || gr_pass_buffers(s, &P, &buf, c) != AS_OK) goto done;
    /* the products go straight into alpha (the candidates in order) */
    ybuf = P.y;
    P.B = s->A;
    for (P.p0 = 0; P.p0 < nc;) {
        int64_t p1 = gr_block_end(s, &P, nc);
        P.y = s->alpha + s->off[P.p0];
        if (gr_apply(s, &P, p1, buf, c) != AS_OK || as_interrupted(c)) break;
        P.p0 = p1;
    }
    P.y = ybuf;
    for (t = 0; t < nc; t++) {
        double nn = 0, cs = 0;
        AS_FOR_COL(s->X, gr_col(s, t), row, v, { (void)row; nn += v * v; cs += v; });
        s->nx2[t] = nn;
        s->csum[t] = cs;
    }
done:
    gr_pass_free(&P, buf, c);
    return c->status;
}

/* Candidate q's score x' M x and norm ||phi||_W^2 (see the top), from y = M x
   at its stored rows (gr_apply). */
static void gr_score_col(const gr_state *s, const gr_pass *P, int64_t p, int64_t *ri, double *xv)
{
    int64_t q = gr_at(P, p), a, m, n = s->n;
    const double *al = s->alpha + s->off[q], *yq = P->y + P->yo[p - P->p0];
    double g = 0, nr = 0;
    gr_state *w = (gr_state *)s;   /* each q writes its own entries */
    if (s->in[q]) {
        w->score[q] = w->norm[q] = 0;
        return;
    }
    m = gr_entries(s, q, ri, xv);
    for (a = 0; a < m; a++) {
        g += xv[a] * yq[a];
        nr += s->u[ri[a]] * xv[a] * xv[a] * (s->nx2[q] - 2.0 * al[a] * s->csum[q] + (double)n * al[a] * al[a]);
    }
    /* the entry weights are the diagonal's, entry i on row i (gr_diag_entries): only
       the stored rows add to it, in the same order */
    if (s->ne > 0)
        for (a = 0; a < m; a++) {
            double ph = xv[a] * (xv[a] - al[a]);
            nr += s->E[ri[a]].z * ph * ph;
        }
    w->score[q] = g;
    w->norm[q] = nr;
}

/* score[q] = <phi, W o R> = x' M x and norm[q] = ||phi||_W^2 of the
   candidates list[0 .. np) (list NULL: all). */
static int gr_scores(gr_state *s, const int64_t *list, int64_t np, as_common *c)
{
    double *buf = NULL;
    gr_pass P;
    memset(&P, 0, sizeof P);
    P.list = list;
    P.B = s->M;
    if (gr_pass_buffers(s, &P, &buf, c) != AS_OK) goto done;
    for (P.p0 = 0; P.p0 < np;) {
        int64_t p1 = gr_block_end(s, &P, np);
        if (gr_apply(s, &P, p1, buf, c) != AS_OK) break;
        gr_each(s, c, &P, p1, 8.0 * (double)P.yo[p1 - P.p0], gr_score_col);
        if (as_interrupted(c)) break;
        P.p0 = p1;
    }
done:
    gr_pass_free(&P, buf, c);
    return c->status;
}

/* ------------------------------------------------------------------ the kept columns */
/* Column a of Xs and XA from candidate q. */
static void gr_fill_kept(gr_state *s, int64_t a, int64_t q)
{
    int64_t n = s->n, m = 0;
    double *xs = s->Xs + a * n, *xa = s->XA + a * n;
    const double *al = s->alpha + s->off[q];
    memset(xs, 0, sizeof(double) * (size_t)n);
    memset(xa, 0, sizeof(double) * (size_t)n);
    AS_FOR_COL(s->X, gr_col(s, q), row, v, { xs[row] = v; xa[row] = v * al[m]; m++; });
}

/* C = X_S' (I - 1 1' / n) X_S into s->C (it does not depend on the weights):
   the entries of the columns it held before are kept, only those of new
   columns computed. */
static int gr_gram_kept(gr_state *s, as_common *c)
{
    int64_t n = s->n, k = s->k, a, b, m = 0, q;
    int64_t *newa = (int64_t *)s->grad, *pos = s->csel_at + s->kcap;
    double *Cn = s->T3, *U = s->T1, *B = s->T2;
    for (a = 0; a < k; a++) {
        pos[a] = s->ck > 0 ? s->cpos[s->sel[a]] : -1;
        if (pos[a] < 0) newa[m++] = a;
    }
    if (m == 0 && s->ck == k) {
        for (a = 0; a < k && pos[a] == a; a++) ;
        if (a == k) return AS_OK;
    }
    /* the new columns' products with every kept column: B = X_S' X_new (k x m) */
    if (m > 0) {
        for (q = 0; q < m; q++) gr_copy(U + q * n, s->Xs + newa[q] * n, sizeof(double) * (size_t)n);
        if (as_gemm_blocks("T", "N", k, m, n, 1.0, s->Xs, n, U, n, 0.0, B, k, c) != AS_OK) return c->status;
    }
    for (b = 0; b < k; b++)
        for (a = 0; a < k; a++)
            if (pos[a] >= 0 && pos[b] >= 0) Cn[a + b * k] = s->C[pos[a] + pos[b] * s->kcap];
    for (q = 0; q < m; q++) {
        double sq = s->csum[s->sel[newa[q]]];
        for (a = 0; a < k; a++)
            Cn[a + newa[q] * k] = Cn[newa[q] + a * k] = B[a + q * k] - s->csum[s->sel[a]] * sq / (double)n;
    }
    /* the cache: C (leading dimension kcap) and each candidate's position in it */
    for (a = 0; a < s->ck; a++) s->cpos[s->csel_at[a]] = -1;
    for (b = 0; b < k; b++) {
        gr_copy(s->C + b * s->kcap, Cn + b * k, sizeof(double) * (size_t)k);
        s->cpos[s->sel[b]] = b;
        s->csel_at[b] = s->sel[b];
    }
    s->ck = k;
    return AS_OK;
}

/* K and b of the current weights (see the top). With P = sqrt(u) o X_S,
   V = sqrt(u) o (n XA - X_S diag(s)) / sqrt(n) (s_a = 1'x_a) and the entry
   rows sqrt(z_e) Phi(e, .), Phi(e, a) = a_i a_l - (a o alpha)_i:
   K = (P'P) o C + [V; sqrt(z) Phi]'[V; sqrt(z) Phi], two products. */
static int gr_normal(gr_state *s, as_common *c)
{
    int64_t n = s->n, k = s->k, a, b, i, e, ld = s->kcap, nv = n + s->ne;
    double *U = s->T1, *K = s->K, *su = s->r1, rn = sqrt((double)n);   /* su: gr_make_m sets r1 below */
    if (k == 0) return AS_OK;
    if (gr_gram_kept(s, c) != AS_OK) return c->status;
    for (i = 0; i < n; i++) su[i] = sqrt(s->u[i]);
    /* (P'P) o C */
    for (a = 0; a < k; a++)
        for (i = 0; i < n; i++) U[i + a * n] = su[i] * s->Xs[i + a * n];
    if (as_syrk_blocks("U", "T", k, n, 1.0, U, n, 0.0, K, k, c) != AS_OK) return c->status;
    for (b = 0; b < k; b++)
        for (a = 0; a <= b; a++) K[a + b * k] *= s->C[a + b * ld];
    /* + [V; sqrt(z) Phi]'[V; sqrt(z) Phi] (z >= 0: the diagonal's weight is at least its row's) */
    for (a = 0; a < k; a++) {
        double sa = s->csum[s->sel[a]], *v = U + a * nv;
        const double *x = s->Xs + a * n, *xa = s->XA + a * n;
        for (i = 0; i < n; i++) v[i] = su[i] * ((double)n * xa[i] - sa * x[i]) / rn;
        for (e = 0; e < s->ne; e++) {
            int64_t ii = s->E[e].i, ll = s->E[e].l;
            v[n + e] = sqrt(s->E[e].z) * (x[ii] * x[ll] - xa[ii]);
        }
    }
    if (as_syrk_blocks("U", "T", k, nv, 1.0, U, nv, 1.0, K, k, c) != AS_OK) return c->status;
    for (b = 0; b < k; b++)
        for (a = b + 1; a < k; a++) K[a + b * k] = K[b + a * k];
    /* b_a = x_a' M_G x_a */
    gr_make_m(s, NULL, c);
    if (as_gemm_blocks("N", "N", n, k, n, 1.0, s->M, n, s->Xs, n, 0.0, U, n, c) != AS_OK) return c->status;
    for (a = 0; a < k; a++) {
        double v = 0;
        for (i = 0; i < n; i++) v += s->Xs[i + a * n] * U[i + a * n];
        s->b[a] = v;
    }
    return AS_OK;
}

/* f(w) - f(0) = w'Kw - 2 b'w, with K w summed by columns (w's nonzeros). */
static double gr_objective(const gr_state *s, const double *w)
{
    int64_t k = s->k, a, b;
    double f = 0, *kw = s->b + 3 * s->kcap + 2 * s->n;
    for (a = 0; a < k; a++) kw[a] = 0;
    for (b = 0; b < k; b++)
        if (w[b] != 0)
            for (a = 0; a < k; a++) kw[a] += s->K[a + b * k] * w[b];
    for (a = 0; a < k; a++)
        if (w[a] != 0) f += w[a] * (kw[a] - 2.0 * s->b[a]);
    return f;
}

/* g = b - K w. */
static void gr_gradient(const gr_state *s, const double *w, double *g)
{
    int64_t k = s->k, a, b;
    for (a = 0; a < k; a++) g[a] = s->b[a];
    for (b = 0; b < k; b++)
        if (w[b] != 0)
            for (a = 0; a < k; a++) g[a] -= s->K[a + b * k] * w[b];
}

/* Cyclic coordinate descent sweeps on w (at most `sweeps`, fewer when a
   sweep changes w by less than `tol` relative); g kept equal to b - K w. */
static void gr_descent(gr_state *s, double *w, double *g, int sweeps, double tol, double scale)
{
    int64_t k = s->k, a, b;
    int sweep;
    const double *K = s->K;
    for (sweep = 0; sweep < sweeps; sweep++) {
        double change = 0, size = 0;
        for (a = 0; a < k; a++) {
            double kaa = K[a + a * k], nw, dw;
            if (!(kaa > 1e-14 * scale) || s->ban[a]) continue;
            nw = w[a] + g[a] / kaa;
            if (nw < 0) nw = 0;
            dw = nw - w[a];
            if (dw != 0) {
                for (b = 0; b < k; b++) g[b] -= dw * K[b + a * k];
                w[a] = nw;
                change = fmax(change, fabs(dw) * sqrt(kaa));
            }
            size = fmax(size, w[a] * sqrt(kaa));
        }
        if (change <= tol * size) break;
    }
}

/* A Newton step on the support P = {w > 0}: toward the unconstrained minimum
   there, as far as w stays nonnegative (a small ridge keeps the factor of
   dependent columns). Returns 2 when it reached that minimum, 1 when it lowered f
   short of it, 0 when it was not taken; *fw is f(w) on return (NaN on entry: not
   known yet). */
static int gr_newton(gr_state *s, double *w, double scale, double *fw)
{
    int64_t k = s->k, a, p = 0, q, r;
    int64_t *P = (int64_t *)s->T1;
    double *KP = s->T2, *z = s->T3, *wn = s->grad, step = 1, f0, f1;
    int pn, one = 1, info = 0;
    for (a = 0; a < k; a++) if (w[a] > 0) P[p++] = a;
    if (p == 0 || p > AS_INT_MAX) return 0;
    for (q = 0; q < p; q++) {
        for (r = 0; r < p; r++) KP[r + q * p] = s->K[P[r] + P[q] * k];
        KP[q + q * p] += 1e-13 * scale;
        z[q] = s->b[P[q]];
    }
    pn = (int)p;
    dpotrf_("L", &pn, KP, &pn, &info, 1);
    if (info != 0) return 0;
    dpotrs_("L", &pn, &one, KP, &pn, z, &pn, &info, 1);
    if (info != 0) return 0;
    for (q = 0; q < p; q++)
        if (z[q] < 0) step = fmin(step, w[P[q]] / (w[P[q]] - z[q]));
    f0 = isnan(*fw) ? gr_objective(s, w) : *fw;
    *fw = f0;
    if (step < 1) {
        /* the full step projected on w >= 0 (it drops every weight the step takes
           below 0 at once), when it lowers f */
        for (a = 0; a < k; a++) wn[a] = 0;
        for (q = 0; q < p; q++) wn[P[q]] = z[q] > 0 ? z[q] : 0;
        f1 = gr_objective(s, wn);
        if (f1 < f0) {
            *fw = f1;
            gr_copy(w, wn, sizeof(double) * (size_t)k);
            return 1;
        }
    }
    for (a = 0; a < k; a++) wn[a] = 0;
    for (q = 0; q < p; q++) {
        double v = w[P[q]] + step * (z[q] - w[P[q]]);
        wn[P[q]] = v > 0 ? v : 0;
    }
    f1 = gr_objective(s, wn);
    if (!(f1 < f0)) return 0;
    *fw = f1;
    gr_copy(w, wn, sizeof(double) * (size_t)k);
    return step == 1 ? 2 : 1;
}

/* min w'Kw - 2 b'w over w >= 0 (banned columns at 0), from the current w:
   rounds of a few coordinate-descent sweeps (which find the support) and
   Newton steps on the support (which converge on it), until the projected
   gradient is below AS_GREEDY_CD_TOL of the weights. */
static int gr_solve(gr_state *s, as_common *c)
{
    int64_t k = s->k, a;
    int outer, np;
    double *g = s->b + s->kcap, *w = s->w, scale = 0, fprev;
    if (k == 0) return AS_OK;
    for (a = 0; a < k; a++) scale = fmax(scale, s->K[a + a * k]);
    if (!(scale > 0)) return AS_OK;
    fprev = gr_objective(s, w);
    for (outer = 0; outer < AS_GREEDY_SOLVE_ROUNDS; outer++) {
        double viol = 0, size = 0, f, fw = NAN;   /* fw: f(w) once a Newton step has computed it */
        gr_gradient(s, w, g);
        gr_descent(s, w, g, AS_GREEDY_CD_SWEEPS, AS_GREEDY_CD_TOL, scale);
        /* the factor costs k^3 / 3: past AS_GREEDY_NEWTON_MAX columns the descent alone */
        for (np = 0; np < AS_GREEDY_NEWTON && k <= AS_GREEDY_NEWTON_MAX; np++)
            if (gr_newton(s, w, scale, &fw) != 1) break;   /* 2: at the support's minimum; 0: no gain */
        gr_gradient(s, w, g);
        for (a = 0; a < k; a++) {
            double kaa = s->K[a + a * k], v;
            if (!(kaa > 1e-14 * scale) || s->ban[a]) continue;
            v = w[a] > 0 ? fabs(g[a]) : fmax(g[a], 0);
            viol = fmax(viol, v / sqrt(kaa));
            size = fmax(size, w[a] * sqrt(kaa));
        }
        if (viol <= AS_GREEDY_KKT_TOL * size) break;
        /* no progress worth another round: rounding, on an ill-conditioned K */
        f = isnan(fw) ? gr_objective(s, w) : fw;
        if (!(fprev - f > AS_GREEDY_F_TOL * fabs(f))) break;
        fprev = f;
        if (as_interrupted(c)) return c->status;
    }
    return AS_OK;
}

/* ------------------------------------------------------------------ reweighting */
/* The entry weights of the diagonal: z_ii = W_ii - u_i. */
static void gr_diag_entries(gr_state *s)
{
    int64_t i, n = s->n;
    for (i = 0; i < n; i++) {
        s->E[i].i = s->E[i].l = i;
        s->E[i].z = s->dg[i] - s->u[i];
    }
    s->ne = n;
}

/* Lawson's step from the exact errors of the current H: each weight times
   its error over the largest (rows off the diagonal: the row's largest
   error), the weights then scaled to mean 1 over the n^2 entries. */
static void gr_reweight(gr_state *s)
{
    int64_t n = s->n, i;
    double mx = 0, tot = 0;
    for (i = 0; i < n; i++) mx = fmax(mx, fmax(s->rowrel[i], s->diagrel[i]));
    if (!(mx > 0)) return;
    for (i = 0; i < n; i++) {
        s->u[i] *= fmax(s->rowrel[i], s->diagrel[i]) / mx;
        s->dg[i] *= s->diagrel[i] / mx;
        tot += (double)(n - 1) * s->u[i] + s->dg[i];
    }
    tot /= (double)n * (double)n;
    for (i = 0; i < n; i++) {
        s->u[i] = tot > 0 ? s->u[i] / tot : 1;
        s->dg[i] = tot > 0 ? s->dg[i] / tot : 1;
        if (s->u[i] < AS_GREEDY_U_FLOOR) s->u[i] = AS_GREEDY_U_FLOOR;
        if (s->dg[i] < s->u[i]) s->dg[i] = s->u[i];
    }
    gr_diag_entries(s);
}

/* ------------------------------------------------------------------ selection */
typedef struct gr_pick { double v; int64_t t; } gr_pick;

static int gr_pick_cmp(const void *pa, const void *pb)
{
    const gr_pick *a = pa, *b = pb;
    if (a->v != b->v) return a->v > b->v ? -1 : 1;
    return a->t < b->t ? -1 : (a->t > b->t);
}

/* The nb candidates of list[0 .. np) (list NULL: all) with the largest
   gain score^2 / norm (raw: the largest score; score > 0), into picks in
   that order; returns how many. */
static int64_t gr_select(gr_state *s, const int64_t *list, int64_t np, int64_t nb, int raw, gr_pick *picks)
{
    int64_t p, m = 0;
    for (p = 0; p < np; p++) {
        int64_t t = list ? list[p] : p;
        double g = s->score[t], nr = s->norm[t], v;
        if (s->in[t] || !(g > 0) || !(nr > 0)) continue;
        v = raw || !as_greedy_gain ? g : g / nr * g;
        if (!isfinite(v)) continue;
        if (m < nb) {
            picks[m].v = v; picks[m].t = t; m++;
            if (m == nb) qsort(picks, (size_t)m, sizeof *picks, gr_pick_cmp);
        } else if (v > picks[m - 1].v) {
            int64_t at = m - 1;
            while (at > 0 && picks[at - 1].v < v) { picks[at] = picks[at - 1]; at--; }
            picks[at].v = v; picks[at].t = t;
        }
    }
    if (m < nb) qsort(picks, (size_t)m, sizeof *picks, gr_pick_cmp);
    return m;
}

/* Drop the kept columns whose weight is 0. */
static void gr_compact(gr_state *s)
{
    int64_t a, k2 = 0, n = s->n;
    for (a = 0; a < s->k; a++) {
        if (s->w[a] > 0) {
            if (k2 != a) {
                s->sel[k2] = s->sel[a];
                s->col[k2] = s->col[a];
                s->w[k2] = s->w[a];
                memmove(s->Xs + k2 * n, s->Xs + a * n, sizeof(double) * (size_t)n);
                memmove(s->XA + k2 * n, s->XA + a * n, sizeof(double) * (size_t)n);
            }
            k2++;
        } else s->in[s->sel[a]] = 0;
    }
    s->k = k2;
}

/* Refit and reweight (as_greedy_lawson steps), keeping the weights with the
   smallest rel; H and *rel are theirs. */
static int gr_refit(gr_state *s, double *rel, as_common *c)
{
    int64_t n = s->n, k = s->k, it;
    double best = INFINITY, *wbest = s->b + 2 * s->kcap, *ubest = wbest + s->kcap, *dbest = ubest + n;
    s->work += (double)k * (double)k;
    if ((!s->fresh && gr_normal(s, c) != AS_OK) || gr_solve(s, c) != AS_OK || gr_make_h(s, s->H, c) != AS_OK)
        return c->status;
    s->fresh = 0;
    best = gr_rel(s, s->H, s->rowrel, c);
    gr_copy(wbest, s->w, sizeof(double) * (size_t)k);
    gr_copy(ubest, s->u, sizeof(double) * (size_t)n);
    gr_copy(dbest, s->dg, sizeof(double) * (size_t)n);
    for (it = 0; it < as_greedy_lawson + (as_greedy_diag > 0); it++) {
        double r;
        if (as_interrupted(c)) return c->status;
        if (it < as_greedy_lawson) gr_reweight(s);
        else {
            /* the best weights with the diagonal counting as much as as_greedy_diag of its row */
            int64_t i;
            gr_copy(s->u, ubest, sizeof(double) * (size_t)n);
            for (i = 0; i < n; i++) s->dg[i] = s->u[i] * (1.0 + as_greedy_diag * (double)n);
            gr_diag_entries(s);
        }
        if (gr_normal(s, c) != AS_OK || gr_solve(s, c) != AS_OK || gr_make_h(s, s->H, c) != AS_OK)
            return c->status;
        r = gr_rel(s, s->H, s->rowrel, c);
        if (r < best) {
            best = r;
            gr_copy(wbest, s->w, sizeof(double) * (size_t)k);
            gr_copy(ubest, s->u, sizeof(double) * (size_t)n);
            gr_copy(dbest, s->dg, sizeof(double) * (size_t)n);
        }
    }
    gr_copy(s->w, wbest, sizeof(double) * (size_t)k);
    gr_copy(s->u, ubest, sizeof(double) * (size_t)n);
    gr_copy(s->dg, dbest, sizeof(double) * (size_t)n);
    gr_diag_entries(s);
    if (as_greedy_lawson > 0) {
        if (gr_make_h(s, s->H, c) != AS_OK) return c->status;
        best = gr_rel(s, s->H, s->rowrel, c);
    }
    *rel = best;
    return AS_OK;
}

/* ------------------------------------------------------------------ the run */
/* The working arrays for up to kmax kept columns (and the candidates'
   alpha, d of them at most), checked against the 'memory' cap: six n x n
   matrices, the kept columns' four n x k, four k x k and a dozen k-vectors, alpha. */
static int gr_memory(const gr_state *s, int64_t kmax, double mem_mb, const char *what, as_common *c)
{
    double n = (double)s->n, k = (double)kmax, bytes;
    int64_t t, entries = 0;
    char msg[160];
    for (t = 0; t < s->nc; t++) entries += as_col_nnz(s->X, gr_col(s, t));
    bytes = 8.0 * (6.0 * n * n + 4.0 * n * k + 4.0 * k * k + 12.0 * k + (double)entries + 7.0 * (double)s->nc);
    if (kmax > 0) snprintf(msg, sizeof msg, "%s (n = %.0f rows, up to %.0f columns kept)", what, n, k);
    else snprintf(msg, sizeof msg, "%s (n = %.0f rows, before any column is kept)", what, n);
    return as_mem_check(c, bytes, mem_mb, msg);
}


/* Room for `need` kept columns (the arrays grow by half). */
static int gr_reserve(gr_state *s, int64_t need, as_common *c)
{
    int64_t n = s->n, cap, a;
    if (need <= s->kcap) return AS_OK;
    cap = s->kcap + s->kcap / 2;
    if (cap < need) cap = need;
    if (cap < 16) cap = 16;
    if (cap > s->nc) cap = s->nc > need ? s->nc : need;
    if (gr_memory(s, cap, s->mem_mb, "the greedy method", c) != AS_OK) return c->status;
#define GR_GROW(ptr, count, type)                                                         \
    do {                                                                                  \
        type *p_ = as_malloc(c, (size_t)(count), sizeof(type));                            \
        if (!p_) return c->status;                                                         \
        if (ptr) gr_copy(p_, ptr, sizeof(type) * (size_t)(s->kcap > 0 ? s->k : 0) * ((count) / cap)); \
        as_free(c, ptr);                                                                   \
        ptr = p_;                                                                          \
    } while (0)
    GR_GROW(s->sel, cap, int64_t);
    GR_GROW(s->col, cap, int64_t);
    GR_GROW(s->w, cap, double);
    GR_GROW(s->sw, cap, double);
    GR_GROW(s->ban, cap, unsigned char);
    GR_GROW(s->Xs, n * cap, double);
    GR_GROW(s->XA, n * cap, double);
    GR_GROW(s->grad, cap, double);
#undef GR_GROW
    /* scratch: reallocated without copying; X_S' X_S computed again */
    for (a = 0; a < s->ck; a++) s->cpos[s->csel_at[a]] = -1;
    s->ck = 0;
    if (!s->cpos) {
        s->cpos = as_malloc(c, (size_t)(s->nc > 0 ? s->nc : 1), sizeof(int64_t));
        if (!s->cpos) return c->status;
        for (a = 0; a < s->nc; a++) s->cpos[a] = -1;
    }
    as_free(c, s->C); as_free(c, s->csel_at);
    s->C = as_malloc(c, (size_t)(cap * cap), sizeof(double));
    s->csel_at = as_malloc(c, (size_t)(2 * cap), sizeof(int64_t));
    if (!s->C || !s->csel_at) return c->status;
    as_free(c, s->K); as_free(c, s->b); as_free(c, s->T1); as_free(c, s->T2); as_free(c, s->T3);
    s->K = as_malloc(c, (size_t)(cap * cap), sizeof(double));
    s->b = as_malloc(c, (size_t)(4 * cap + 2 * n), sizeof(double));   /* b, g, the refit's best w, u, dg; K w */
    s->T1 = as_malloc(c, (size_t)((n + s->necap) * cap > cap * 2 ? (n + s->necap) * cap : cap * 2), sizeof(double));
    s->T2 = as_malloc(c, (size_t)(cap * cap), sizeof(double));
    s->T3 = as_malloc(c, (size_t)(cap * cap), sizeof(double));
    if (!s->K || !s->b || !s->T1 || !s->T2 || !s->T3) return c->status;
    s->kcap = cap;
    return AS_OK;
}

static void gr_free(gr_state *s, as_common *c)
{
    void *arrays[] = {s->off, s->alpha, s->nx2, s->csum, s->G, s->A, s->LG, s->lg, s->H, s->R, s->M,
                      s->u, s->E, s->score, s->norm, s->in, s->sel, s->col, s->w, s->sw, s->Xs, s->XA,
                      s->K, s->b, s->grad, s->T1, s->T2, s->T3, s->C, s->cpos, s->csel_at, s->rowrel, s->r1, s->rho, s->ban,
                      s->diagrel, s->dg, s->scratch};
    size_t t;
    for (t = 0; t < sizeof arrays / sizeof arrays[0]; t++) as_free(c, arrays[t]);
    memset(s, 0, sizeof(*s));
}

/* Add the picked candidates to the kept columns (weight 0 until the refit). */
static int gr_add(gr_state *s, const gr_pick *picks, int64_t m, as_common *c)
{
    int64_t t;
    if (gr_reserve(s, s->k + m, c) != AS_OK) return c->status;
    for (t = 0; t < m; t++) {
        int64_t a = s->k++, q = picks[t].t;
        s->sel[a] = q;
        s->col[a] = gr_col(s, q);
        s->w[a] = 0;
        s->ban[a] = 0;
        s->in[q] = 1;
        gr_fill_kept(s, a, q);
    }
    return AS_OK;
}

/* max_ij |phi_a(i, j)| = max_i |a_i| max_j |a_j - alpha_i| of kept column a:
   how far dropping it moves the row-centred error at most (by w_a times it). */
static double gr_reach(const gr_state *s, int64_t a)
{
    int64_t n = s->n, i;
    const double *x = s->Xs + a * n, *xa = s->XA + a * n;
    double lo = 0, hi = 0, r = 0;
    for (i = 0; i < n; i++) {
        lo = fmin(lo, x[i]);
        hi = fmax(hi, x[i]);
    }
    for (i = 0; i < n; i++)
        if (x[i] != 0) {
            double al = xa[i] / x[i];
            r = fmax(r, fabs(x[i]) * fmax(fabs(hi - al), fabs(lo - al)));
        }
    return r;
}

/* The prune: the kept columns whose drop costs f least (w_a^2 K_aa), then
   (when one more fails) those whose drop moves the error least (w_a times
   gr_reach), dropped as many at a time as rel still meets the target after the
   refit: the count doubles when it does (up to a 16th of the columns) and
   halves when it does not; a column whose drop alone fails is kept from then
   on, and after a few of those in a row the other order is tried. Its refits cost at most as_greedy_prune_share
   times what the rounds' did (counted in k^2 per refit: the same on every
   machine). */
static int gr_prune(gr_state *s, double target, double *rel, as_common *c)
{
    int64_t k, a, q, n = s->n;
    double *wsave = NULL, *usave = NULL;
    gr_pick *order = NULL;
    gr_entry *esave = NULL;
    int64_t nesave;
    int how = 0;
    int64_t fails = 0;
    double budget;
    q = s->k / 16;
    if (q < 1) q = 1;
    wsave = as_malloc(c, (size_t)(s->k > 0 ? s->k : 1), sizeof(double));
    usave = as_malloc(c, (size_t)(2 * n), sizeof(double));
    order = as_malloc(c, (size_t)(s->k > 0 ? s->k : 1), sizeof(gr_pick));
    esave = as_malloc(c, (size_t)(s->necap > 0 ? s->necap : 1), sizeof(gr_entry));
    if (!wsave || !usave || !order || !esave) goto done;
    budget = s->work;
    while (s->k > 1 && s->work < (1.0 + as_greedy_prune_share) * budget) {
        double r;
        int64_t open = 0;
        k = s->k;
        if (how == 0 && gr_normal(s, c) != AS_OK) goto done;
        s->fresh = how == 0;   /* the trial's first refit: the same u and columns (dropping sets weights) */
        for (a = 0; a < k; a++) {
            /* largest first: the smallest loss of f, or the smallest move of the error;
               the columns whose drop alone failed last */
            int shut = s->in[s->sel[a]] == 2;
            order[a].v = shut ? -INFINITY : how == 0 ? -s->w[a] * s->w[a] * s->K[a + a * k] : -s->w[a] * gr_reach(s, a);
            order[a].t = a;
            open += !shut;
        }
        if (open == 0) break;
        if (q > open) q = open;
        if (q >= k) q = k - 1;
        qsort(order, (size_t)k, sizeof *order, gr_pick_cmp);
        gr_copy(wsave, s->w, sizeof(double) * (size_t)k);
        gr_copy(usave, s->u, sizeof(double) * (size_t)n);
        gr_copy(usave + n, s->dg, sizeof(double) * (size_t)n);
        gr_copy(esave, s->E, sizeof(gr_entry) * (size_t)s->ne);
        nesave = s->ne;
        for (a = 0; a < q; a++) {
            s->w[order[a].t] = 0;
            s->ban[order[a].t] = 1;
        }
        if (gr_refit(s, &r, c) != AS_OK) goto done;
        for (a = 0; a < k; a++) s->ban[a] = 0;
        as_progress(c, "greedy: prune %lld of %lld columns: rel %.4g%%", (long long)q, (long long)k, 100 * r);
        if (r <= target) {
            *rel = r;
            gr_compact(s);
            fails = 0;
            /* it worked: twice as many next time (up to a 16th) */
            q = 2 * q < s->k / 16 ? 2 * q : (s->k / 16 > 1 ? s->k / 16 : 1);
            continue;
        }
        gr_copy(s->w, wsave, sizeof(double) * (size_t)k);
        gr_copy(s->u, usave, sizeof(double) * (size_t)n);
        gr_copy(s->dg, usave + n, sizeof(double) * (size_t)n);
        gr_copy(s->E, esave, sizeof(gr_entry) * (size_t)nesave);
        s->ne = nesave;
        if (q > 1) q /= 2;
        else {
            /* that column stays (its drop alone failed: with fewer columns it would too) */
            s->in[s->sel[order[0].t]] = 2;
            if (++fails >= AS_GREEDY_PRUNE_TRIES) {
                /* one at a time failed for the first few: the other order, from the start */
                fails = 0;
                if (++how == 2) break;
                q = k / 16 > 1 ? k / 16 : 1;
            }
        }
    }
    if (gr_make_h(s, s->H, c) == AS_OK) *rel = gr_rel(s, s->H, s->rowrel, c);
done:
    for (a = 0; a < s->k; a++) s->in[s->sel[a]] = 1;
    as_free(c, wsave);
    as_free(c, usave);
    as_free(c, order);
    as_free(c, esave);
    return c->status;
}

/* X X', its attention and the row-centred L(G) (s->G, A, lg); H = 0. */
static int gr_setup(gr_state *s, const double *G, as_common *c)
{
    int64_t n = s->n, i, j;
    size_t nn = (size_t)(n * n);
    s->G = as_malloc(c, nn, sizeof(double));
    s->A = as_malloc(c, nn, sizeof(double));
    s->H = as_calloc(c, nn, sizeof(double));
    s->R = as_malloc(c, nn, sizeof(double));
    s->M = as_malloc(c, nn, sizeof(double));
    s->lg = as_malloc(c, (size_t)n, sizeof(double));
    s->u = as_malloc(c, (size_t)n, sizeof(double));
    s->rowrel = as_malloc(c, (size_t)n, sizeof(double));
    s->r1 = as_malloc(c, (size_t)n, sizeof(double));
    s->rho = as_malloc(c, (size_t)n, sizeof(double));
    s->diagrel = as_malloc(c, (size_t)n, sizeof(double));
    s->dg = as_malloc(c, (size_t)n, sizeof(double));
    if (!s->diagrel || !s->dg) return c->status;
    s->necap = n;
    s->E = as_malloc(c, (size_t)(s->necap > 0 ? s->necap : 1), sizeof(gr_entry));
    if (!s->G || !s->A || !s->H || !s->R || !s->M || !s->lg || !s->u || !s->rowrel || !s->r1 || !s->rho || !s->E)
        return c->status;
    if (G) gr_copy(s->G, G, sizeof(double) * nn);
    else if (as_gram(s->X, -1, NULL, NULL, s->G, c) != AS_OK) return c->status;
    if (as_gram_finite(n, s->G, as_input_name(s->X), c) != AS_OK) return c->status;
    for (i = 0; i < n; i++) {
        s->lg[i] = as_lse(n, s->G + i * n);
        s->u[i] = s->dg[i] = 1;
    }
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++) s->A[i + j * n] = as_greedy_centre ? exp(s->G[j + i * n] - s->lg[i]) : 0;
    return AS_OK;
}

static int gr_cmp_col(const void *pa, const void *pb)
{
    const gr_pick *a = pa, *b = pb;
    return a->t < b->t ? -1 : (a->t > b->t);
}

/* out's index (increasing) and weight from the kept columns. */
static int gr_result(gr_state *s, as_sample *out, as_common *c)
{
    int64_t a, k = s->k;
    gr_pick *ord = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(gr_pick));
    out->index = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(int64_t));
    out->weight = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(double));
    if (!ord || !out->index || !out->weight) {
        as_free(c, ord);
        return c->status;
    }
    for (a = 0; a < k; a++) {
        ord[a].t = s->col[a];
        ord[a].v = sqrt(s->w[a]);
    }
    qsort(ord, (size_t)k, sizeof *ord, gr_cmp_col);
    for (a = 0; a < k; a++) {
        out->index[a] = ord[a].t;
        out->weight[a] = ord[a].v;
    }
    out->k = k;
    as_free(c, ord);
    return AS_OK;
}

/* One column at a time, two choices: the largest gain per norm (picks[0])
   and the largest score (picks[1], the heavier column); each added and
   refitted, the one with the smaller rel kept. */
static int gr_try_two(gr_state *s, const gr_pick *picks, double *rel, as_common *c)
{
    int64_t n = s->n, k = s->k, a;
    double r0, r1, *save = as_malloc(c, (size_t)(2 * (k + 1) + 4 * n), sizeof(double));
    double *w0 = save, *w1 = w0 + k + 1, *ud = w1 + k + 1;
    gr_entry *e0 = as_malloc(c, (size_t)(2 * s->necap + 1), sizeof(gr_entry)), *e1 = e0 ? e0 + s->necap : NULL;
    int64_t ne0 = s->ne, ne1;
    if (!save || !e0) goto done;
    gr_copy(w0, s->w, sizeof(double) * (size_t)k);
    gr_copy(ud, s->u, sizeof(double) * (size_t)n);
    gr_copy(ud + n, s->dg, sizeof(double) * (size_t)n);
    gr_copy(e0, s->E, sizeof(gr_entry) * (size_t)ne0);
    /* the first choice: its state after the refit kept aside */
    if (gr_add(s, picks, 1, c) != AS_OK || gr_refit(s, &r0, c) != AS_OK) goto done;
    gr_copy(w1, s->w, sizeof(double) * (size_t)(k + 1));
    gr_copy(ud + 2 * n, s->u, sizeof(double) * (size_t)n);
    gr_copy(ud + 3 * n, s->dg, sizeof(double) * (size_t)n);
    gr_copy(e1, s->E, sizeof(gr_entry) * (size_t)s->ne);
    ne1 = s->ne;
    /* the second, from the state before */
    s->k = k;
    s->in[picks[0].t] = 0;
    gr_copy(s->w, w0, sizeof(double) * (size_t)k);
    gr_copy(s->u, ud, sizeof(double) * (size_t)n);
    gr_copy(s->dg, ud + n, sizeof(double) * (size_t)n);
    gr_copy(s->E, e0, sizeof(gr_entry) * (size_t)ne0);
    s->ne = ne0;
    if (gr_add(s, picks + 1, 1, c) != AS_OK || gr_refit(s, &r1, c) != AS_OK) goto done;
    *rel = r1;
    if (r0 < r1) {
        /* back to the first */
        s->k = k;
        s->in[picks[1].t] = 0;
        if (gr_add(s, picks, 1, c) != AS_OK) goto done;
        gr_copy(s->w, w1, sizeof(double) * (size_t)(k + 1));
        gr_copy(s->u, ud + 2 * n, sizeof(double) * (size_t)n);
        gr_copy(s->dg, ud + 3 * n, sizeof(double) * (size_t)n);
        gr_copy(s->E, e1, sizeof(gr_entry) * (size_t)ne1);
        s->ne = ne1;
        for (a = 0; a <= k; a++) s->ban[a] = 0;
        if (gr_make_h(s, s->H, c) != AS_OK) goto done;
        *rel = gr_rel(s, s->H, s->rowrel, c);
    }
done:
    as_free(c, save);
    as_free(c, e0);
    return c->status;
}

/* The rounds: batches of candidates added and refitted until rel meets the
   target (target not NaN) or `budget` columns are kept. */
static int gr_rounds(gr_state *s, double target, int64_t budget, double *rel, int64_t *rounds,
                     as_common *c)
{
    gr_pick *picks = NULL;
    int64_t *shortlist = NULL, nshort = 0, cap = s->nc, stall = 0, age = 0, t;
    picks = as_malloc(c, (size_t)(cap > 1 ? cap : 2), sizeof(gr_pick));
    shortlist = as_malloc(c, (size_t)(cap > 1 ? cap : 2), sizeof(int64_t));
    if (!picks || !shortlist) goto done;
    *rounds = 0;
    while (!(*rel <= target) && (budget == 0 || s->k < budget) && s->k < s->nc) {
        /* a share of the columns kept, growing past AS_GREEDY_BATCH_K columns (fewer
           rounds where each costs most) */
        double share = fmin(as_greedy_batch * fmax(1.0, (double)s->k / AS_GREEDY_BATCH_K), AS_GREEDY_BATCH_MAX);
        int64_t nb = (int64_t)floor(share * (double)s->k), m, k0 = s->k, want;
        const int64_t *list = NULL;
        int64_t np = s->nc;
        int short_ok;
        if (nb < 1) nb = 1;
        if (budget > 0 && nb > budget - s->k) nb = budget - s->k;
        want = AS_GREEDY_SHORT_FACTOR * nb > AS_GREEDY_SHORT_MIN ? AS_GREEDY_SHORT_FACTOR * nb : AS_GREEDY_SHORT_MIN;
        gr_make_m(s, s->H, c);
        /* the candidates scored: all of them every AS_GREEDY_SHORT_ROUNDS rounds, in
           between only the shortlist of the last full pass (its best ones) */
        short_ok = s->nc >= AS_GREEDY_SHORT_POOL && 2 * want < s->nc;
        if (short_ok && age > 0 && age < AS_GREEDY_SHORT_ROUNDS && nshort >= 2 * nb) {
            list = shortlist;
            np = nshort;
            age++;
        } else age = 1;
        if (gr_scores(s, list, np, c) != AS_OK) break;
        if (list == NULL && short_ok) {
            /* the new shortlist: the best `want` by gain */
            nshort = gr_select(s, NULL, s->nc, want, 0, picks);
            for (t = 0; t < nshort; t++) shortlist[t] = picks[t].t;
            list = shortlist;
            np = nshort;
        }
        m = gr_select(s, list, np, nb, 0, picks);
        if (m == 0) {
            if (list != NULL && age > 1) { age = 0; continue; }   /* the shortlist ran dry: a full pass */
            break;   /* no column lowers the proxy: stalled */
        }
        if (as_greedy_two && m == 1 && gr_select(s, list, np, 1, 1, picks + 1) == 1 && picks[1].t != picks[0].t) {
            if (gr_try_two(s, picks, rel, c) != AS_OK) break;
        } else if (gr_add(s, picks, m, c) != AS_OK || gr_refit(s, rel, c) != AS_OK) break;
        gr_compact(s);
        (*rounds)++;
        as_progress(c, "greedy: round %lld: %lld columns, rel %.4g%%", (long long)*rounds, (long long)s->k,
                    100 * *rel);
        /* a round that keeps no more columns than before, several times over: stalled */
        stall = s->k <= k0 ? stall + 1 : 0;
        if (stall >= 8) break;
    }
done:
    as_free(c, picks);
    as_free(c, shortlist);
    return c->status;
}

/* The candidates' sample (option 'candidates'): Poisson sampling of about
   o->candidates columns by squared norm (the heaviest kept for certain), its
   seed and size recorded in out; s->cand and s->nc are the sample's. */
static int gr_candidates(gr_state *s, const as_greedy_options *o, as_sample *out, int64_t **cands,
                         as_common *c)
{
    int64_t d = s->d, j;
    double *prob = as_malloc(c, (size_t)(d > 0 ? d : 1), sizeof(double)), *qk = NULL, total, amax = 0;
    uint64_t seed;
    as_sample tmp;
    as_sample_init(&tmp);
    if (!prob) return c->status;
    /* squared norms of X scaled by its largest entry: no underflow to 0 for a tiny X */
    for (j = 0; j < d; j++) AS_FOR_COL(s->X, j, row, v, { (void)row; amax = fmax(amax, fabs(v)); });
    for (j = 0; j < d; j++) prob[j] = amax > 0 ? as_col_norm_prob(s->X, j, amax) : 0;
    total = as_sum(d, prob);
    if (total > 0 && isfinite(total)) {
        seed = as_seed_resolve(o->seed, c);
        if (as_sample_poisson(d, prob, total, o->candidates, seed, &tmp, &qk, c) == AS_OK) {
            *cands = tmp.index;
            tmp.index = NULL;
            s->cand = *cands;
            s->nc = tmp.k;
            out->seed = (double)seed;
            out->candidates = tmp.k;
            out->has |= AS_HAS_CANDIDATES;
        }
    }
    as_sample_free(&tmp, c);
    as_free(c, qk);
    as_free(c, prob);
    return c->status;
}

/* Budget mode: refits from the kept columns' weights, their reweighting
   carried over, while rel falls (at most AS_GREEDY_REFIT_STEPS). */
static int gr_polish(gr_state *s, double *rel, as_common *c)
{
    double *w = as_malloc(c, (size_t)s->k, sizeof(double));
    int t;
    if (!w) return c->status;
    gr_copy(w, s->w, sizeof(double) * (size_t)s->k);
    for (t = 0; t < AS_GREEDY_REFIT_STEPS; t++) {
        double r;
        if (gr_refit(s, &r, c) != AS_OK) break;
        if (!(r < *rel)) break;
        *rel = r;
        gr_copy(w, s->w, sizeof(double) * (size_t)s->k);
    }
    gr_copy(s->w, w, sizeof(double) * (size_t)s->k);
    as_free(c, w);
    if (c->status == AS_OK) gr_compact(s);
    return c->status;
}

int as_greedy(const as_matrix *X, const as_greedy_options *o, as_sample *out, as_common *c)
{
    gr_state s;
    double t0 = as_wtime(), target, rel, t1;
    int64_t n, d, rounds = 0, budget, *cands = NULL;
    int blas;
    as_sample_init(out);
    c->status = AS_OK;
    if (as_matrix_check(X, c) != AS_OK || as_greedy_options_check(o, c) != AS_OK) return c->status;
    memset(&s, 0, sizeof s);
    n = X->nrow;
    d = X->ncol;
    target = as_greedy_rel(o);
    budget = o->k;
    as_sample_options(out, AS_FOR_GREEDY, NAN, NAN, target);
    out->max_columns = budget;
    s.X = X;
    s.n = n;
    s.d = d;
    s.nc = d;
    s.cand = NULL;
    s.mem_mb = o->mem_mb;
    /* the BLAS on one thread: the products run on the core's (their bits fixed) */
    blas = as_blas_threads_set(1);
    if (o->candidates > 0 && o->candidates < d && gr_candidates(&s, o, out, &cands, c) != AS_OK) goto done;
    if (gr_memory(&s, budget, o->mem_mb, "the greedy method", c) != AS_OK) goto done;
    t1 = as_wtime();
    if (gr_setup(&s, NULL, c) != AS_OK) goto done;
    rel = gr_rel(&s, s.H, s.rowrel, c);
    s.baseline = rel;
    as_progress(c, "greedy: %lld x %lld, X X' in %.2f s, rel of Y = 0 %.4g%%", (long long)n, (long long)d,
                as_wtime() - t1, 100 * rel);
    if (!(rel <= target) && s.nc > 0) {
        s.score = as_malloc(c, (size_t)s.nc, sizeof(double));
        s.norm = as_malloc(c, (size_t)s.nc, sizeof(double));
        s.in = as_calloc(c, (size_t)s.nc, 1);
        if (!s.score || !s.norm || !s.in) goto done;
        t1 = as_wtime();
        if (gr_prepare(&s, c) != AS_OK) goto done;
        as_progress(c, "greedy: %lld candidate columns prepared in %.2f s", (long long)s.nc, as_wtime() - t1);
        if (gr_rounds(&s, target, budget, &rel, &rounds, c) != AS_OK) goto done;
        if (!isnan(target) && rel <= target && s.k > 1 && gr_prune(&s, target, &rel, c) != AS_OK) goto done;
        if (isnan(target) && s.k > 0 && gr_polish(&s, &rel, c) != AS_OK) goto done;
        /* Y = 0 is a candidate too: columns that make rel no better than none are not kept */
        if (s.k > 0 && !(rel < s.baseline)) {
            as_progress(c, "greedy: %lld columns give rel %.4g%%, no better than Y = 0 (%.4g%%): none kept",
                        (long long)s.k, 100 * rel, 100 * s.baseline);
            s.k = 0;
            rel = s.baseline;
        }
    }
    if (gr_result(&s, out, c) != AS_OK) goto done;
    out->m = rounds;
    out->rounds = (int)rounds;
    out->time = as_wtime() - t0;
    /* the metrics of the result as returned (its columns in order) */
    t1 = as_wtime();
    if (as_gram(X, out->k, out->index, out->weight, s.H, c) != AS_OK) goto done;
    if (as_compare_gram(n, s.G, s.H, o->spectral < 0 ? o->error : o->spectral, &out->metrics, c) != AS_OK)
        goto done;
    out->error_time = as_wtime() - t1;
    out->rank = 0;
done:
    if (blas > 0) as_blas_threads_set(blas);
    s.cand = NULL;
    gr_free(&s, c);
    as_free(c, cands);
    if (c->status != AS_OK) as_sample_free(out, c);
    return c->status;
}

int as_refit(const as_matrix *X, double **G, double mem_mb, as_sample *S, as_common *c)
{
    gr_state s;
    gr_pick *all = NULL;
    double rel0, rel, *w0 = NULL;
    int64_t n = X->nrow, k = S->k, a;
    int blas;
    c->status = AS_OK;
    memset(&s, 0, sizeof s);
    S->has |= AS_HAS_REFIT;
    s.X = X;
    s.n = n;
    s.d = X->ncol;
    s.nc = k;
    s.cand = S->index;
    blas = as_blas_threads_set(1);
    s.mem_mb = mem_mb;
    if (gr_memory(&s, k, mem_mb, "the refit", c) != AS_OK) goto done;
    if (gr_setup(&s, *G, c) != AS_OK) goto done;
    if (*G == NULL) {
        /* hand X X' back for the metrics */
        *G = as_malloc(c, (size_t)(n * n), sizeof(double));
        if (!*G) goto done;
        gr_copy(*G, s.G, sizeof(double) * (size_t)(n * n));
    }
    s.score = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(double));
    s.norm = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(double));
    s.in = as_calloc(c, (size_t)(k > 0 ? k : 1), 1);
    all = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(gr_pick));
    w0 = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(double));
    if (!s.score || !s.norm || !s.in || !all || !w0 || gr_prepare(&s, c) != AS_OK) goto done;
    for (a = 0; a < k; a++) {
        all[a].t = a;
        all[a].v = 0;
    }
    if (gr_add(&s, all, k, c) != AS_OK) goto done;
    for (a = 0; a < k; a++) w0[a] = s.w[a] = S->weight[a] * S->weight[a];
    if (gr_make_h(&s, s.H, c) != AS_OK) goto done;
    rel0 = gr_rel(&s, s.H, s.rowrel, c);
    S->refit_rel = rel0;
    /* the refit from the sample's weights, its reweighting carried over a few times */
    rel = rel0;
    for (a = 0; a < AS_GREEDY_REFIT_STEPS; a++) {
        double r;
        if (gr_refit(&s, &r, c) != AS_OK) goto done;
        if (!(r < rel)) break;
        rel = r;
        gr_copy(w0, s.w, sizeof(double) * (size_t)k);
    }
    if (rel < rel0 || a > 0) gr_copy(s.w, w0, sizeof(double) * (size_t)k);
    else for (a = 0; a < k; a++) s.w[a] = S->weight[a] * S->weight[a];
    /* S's columns in their order, zero weights dropped */
    {
        int64_t t = 0;
        for (a = 0; a < k; a++)
            if (s.w[a] > 0) {
                S->index[t] = S->index[a];
                S->weight[t] = sqrt(s.w[a]);
                t++;
            }
        S->k = t;
    }
    S->estimate = AS_ESTIMATE_NONE;
    S->estimate_why = AS_WHY_REFIT;
    S->rel_estimate = S->inf_estimate = NAN;
done:
    if (blas > 0) as_blas_threads_set(blas);
    s.cand = NULL;
    gr_free(&s, c);
    as_free(c, all);
    as_free(c, w0);
    return c->status;
}
