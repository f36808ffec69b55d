/* greedy_pass.c: the greedy method's passes over the candidate columns, in blocks on the core's threads: A x_j at each candidate's stored rows once (alpha), then every round each candidate's score x' M x and weighted norm; the sample of candidates of option 'candidates'. */
#include "greedy_shared.h"
#include "greedy.h"
#include "result.h"
#include "sample.h"

/* Candidates per block of the passes: at most AS_GREEDY_BLOCK, and blocks
   of at most AS_GREEDY_BLOCK_ENTRIES stored entries (a poll between blocks). */
#define AS_GREEDY_BLOCK 256
#define AS_GREEDY_BLOCK_ENTRIES 1048576

/* A column of a sparse X is heavy from this share of the rows on: its
   product goes to dgemm in a dense block (n^2 multiply-adds at the BLAS's
   rate), the others' loops cost nnz^2 scattered ones. */
#define AS_GREEDY_HEAVY 0.25

/* Candidates a block holds at most: a dense X's AS_GREEDY_BLOCK (a product of n x
   that many), a sparse X's AS_GREEDY_BLOCK_SPARSE, of them AS_GREEDY_BLOCK heavy (the
   light ones are many and small: a block of them is enough work for the threads). */
#define AS_GREEDY_BLOCK_SPARSE 16384
#define AS_GREEDY_BLOCK_WORK 1e8

/* Thread tid's scratch: n row indices and n values of a column. */
static void gr_thread_scratch(const gr_state *s, int tid, int64_t **ri, double **xv)
{
    *ri = s->scratch_ri + (size_t)tid * (size_t)s->n;
    *xv = s->scratch_xv + (size_t)tid * (size_t)s->n;
}

static int gr_tid(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

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
    int kept;            /* kept candidates scored too (else their score and norm are 0) */
    const double *B;     /* the n x n matrix applied                   */
    double *y;           /* its products at the stored rows            */
    int64_t *yo;         /* gr_block_cap + 1 offsets into y            */
    int64_t p0;
    double light;        /* the block's light columns' work (sparse X): their stored entries squared */
    double *Xb, *Pb;     /* n x AS_GREEDY_BLOCK: a dense block gathered, its product */
    int64_t *hq;         /* AS_GREEDY_BLOCK: the positions of its heavy columns (sparse X) */
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

/* A column of a sparse X is heavy from AS_GREEDY_HEAVY of the rows on. */
static int gr_heavy(const gr_state *s, int64_t q)
{
    return (double)gr_count(s, q) >= AS_GREEDY_HEAVY * (double)s->n;
}

/* Candidates a block holds at most (AS_GREEDY_BLOCK_SPARSE: see the top). */
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
   the stored rows are needed), in P's buffers. */
static int gr_apply(gr_state *s, const gr_pass *P, int64_t p1, as_common *c)
{
    int64_t n = s->n, p, nh = 0, *hq = P->hq;
    double *buf = P->Xb, *Pd = P->Pb;
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
static int gr_pass_buffers(const gr_state *s, gr_pass *P, as_common *c)
{
    int64_t most = s->X->kind == AS_DENSE ? s->n * AS_GREEDY_BLOCK : AS_GREEDY_BLOCK_ENTRIES, t;
    if (s->X->kind != AS_DENSE)
        for (t = 0; t < s->nc; t++)
            if (gr_count(s, t) > most) most = gr_count(s, t);
    P->y = as_malloc(c, (size_t)most, sizeof(double));
    P->yo = as_malloc(c, (size_t)gr_block_cap(s) + 1, sizeof(int64_t));
    P->Xb = as_malloc(c, (size_t)(s->n * AS_GREEDY_BLOCK), sizeof(double));
    P->Pb = as_malloc(c, (size_t)(s->n * AS_GREEDY_BLOCK), sizeof(double));
    P->hq = as_malloc(c, (size_t)AS_GREEDY_BLOCK, sizeof(int64_t));
    return c->status;
}

static void gr_pass_free(gr_pass *P, as_common *c)
{
    as_free(c, P->y);
    as_free(c, P->yo);
    as_free(c, P->Xb);
    as_free(c, P->Pb);
    as_free(c, P->hq);
}

/* alpha at the stored entries of every candidate (A x_j), with |x|^2 and 1'x. */
int as_gr_prepare(gr_state *s, as_common *c)
{
    int64_t nc = s->nc, t, tot = 0;
    double *ybuf;
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
    s->scratch_ri = as_calloc(c, (size_t)s->nscratch * (size_t)(s->n > 0 ? s->n : 1), sizeof(int64_t));
    s->scratch_xv = as_calloc(c, (size_t)s->nscratch * (size_t)(s->n > 0 ? s->n : 1), sizeof(double));
    if (!s->alpha || !s->scratch_ri || !s->scratch_xv || gr_pass_buffers(s, &P, c) != AS_OK) goto done;
    /* the products go straight into alpha (the candidates in order); the
       plain path's A is 0 and so is alpha */
    ybuf = P.y;
    P.B = s->A;
    if (!s->path.centre) memset(s->alpha, 0, sizeof(double) * (size_t)(tot > 0 ? tot : 1));
    for (P.p0 = s->path.centre ? 0 : nc; P.p0 < nc;) {
        int64_t p1 = gr_block_end(s, &P, nc);
        P.y = s->alpha + s->off[P.p0];
        if (gr_apply(s, &P, p1, c) != AS_OK || as_interrupted(c)) break;
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
    gr_pass_free(&P, c);
    return c->status;
}

/* Candidate q's score x' M x and norm ||phi||_W^2 (see the top of greedy.c), from y = M x
   at its stored rows (gr_apply). */
static void gr_score_col(const gr_state *s, const gr_pass *P, int64_t p, int64_t *ri, double *xv)
{
    int64_t q = gr_at(P, p), a, m, n = s->n;
    const double *al = s->alpha + s->off[q], *yq = P->y + P->yo[p - P->p0];
    double g = 0, nr = 0;
    gr_state *w = (gr_state *)s;   /* each q writes its own entries */
    if (s->in[q] && !P->kept) {
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
static int gr_scores(gr_state *s, const int64_t *list, int64_t np, int kept, as_common *c)
{
    gr_pass P;
    memset(&P, 0, sizeof P);
    P.list = list;
    P.kept = kept;
    P.B = s->M;
    if (gr_pass_buffers(s, &P, c) != AS_OK) goto done;
    for (P.p0 = 0; P.p0 < np;) {
        int64_t p1 = gr_block_end(s, &P, np);
        if (gr_apply(s, &P, p1, c) != AS_OK) break;
        gr_each(s, c, &P, p1, 8.0 * (double)P.yo[p1 - P.p0], gr_score_col);
        if (as_interrupted(c)) break;
        P.p0 = p1;
    }
done:
    gr_pass_free(&P, c);
    return c->status;
}

int as_gr_scores(gr_state *s, const int64_t *list, int64_t np, as_common *c)
{
    return gr_scores(s, list, np, 0, c);
}

int as_gr_scores_kept(gr_state *s, as_common *c)
{
    return gr_scores(s, s->sel, s->k, 1, c);
}

/* The candidates' sample (option 'candidates'): Poisson sampling of about
   o->candidates columns by squared norm (the heaviest kept for certain), its
   seed and size recorded in out; s->cand and s->nc are the sample's. */
int as_gr_candidates(gr_state *s, const as_greedy_options *o, as_result *out, int64_t **cands, as_common *c)
{
    int64_t d = s->d, j;
    double *prob = as_malloc(c, (size_t)(d > 0 ? d : 1), sizeof(double)), *qk = NULL, total, amax = 0;
    uint64_t seed;
    as_result tmp;
    as_result_init(&tmp);
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
    as_result_free(&tmp, c);
    as_free(c, qk);
    as_free(c, prob);
    return c->status;
}
