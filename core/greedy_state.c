/* greedy_state.c: the greedy method's memory: the check against 'memory', X X' and its attention set up, the kept columns' arrays grown, added and compacted, snapshots of the weights, the result. */
#include "greedy_shared.h"
#include "gram.h"
#include "metrics.h"
#include "result.h"
#include <stdio.h>
#include <stdlib.h>

/* Tunables of the greedy method (declared in as_internal.h): the share of the
   kept columns added per round, the reweighting steps per refit, the weight
   of the diagonal entries tried at each refit (in rows), the prune's budget
   (times the rounds' refits); the parts of the method that can be switched
   off, for the ablation of make bench-greedy: the row-centring of the error
   (0: the plain error G - H), the gain score^2 / norm as the selection's
   measure (0: the score), the second choice of a one-column round (0: none).
   In c->tune (defaults by as_common_init): greedy_batch 0.05, greedy_lawson 2,
   greedy_diag 0.3, greedy_prune_share 4, greedy_centre, greedy_gain, greedy_two 1;
   greedy_beside_k 500, the kept columns at which as_greedy tries the sample path
   beside the rounds (greedy.c). */

/* Room of the K-based fit's scratch (K, the cache, the solver's) when the
   arrays hold cap kept columns: past s->kfit the fit is made without K. */
static int64_t gr_scratch_room(const gr_state *s, int64_t cap)
{
    int64_t kf = s->kfit > 16 ? s->kfit : 16;
    return cap < kf ? cap : kf;
}

/* Bytes of the working arrays for up to kmax kept columns (and the
   candidates' alpha, d of them at most): nine n x n matrices (X X', its
   attention, H, R, L(G), M, X X' handed back, the products' and the metrics'
   scratch), the kept columns' four n x k, five k x k and 22 k-vectors (the
   arrays, the solver's, the rounds' best, the result), alpha, nine per
   candidate (their offsets, |x|^2, 1'x, score, norm, the rounds' picks (two)
   and shortlist, the cache's positions), the passes' three blocks (a sparse
   X's products at up to 2^20 stored entries) and 25 n-vectors (the row
   weights, the snapshots'). */
static double gr_bytes(const gr_state *s, int64_t kmax)
{
    double n = (double)s->n, k = (double)kmax, kk = (double)gr_scratch_room(s, kmax), pass, kfree;
    int64_t t, entries = 0;
    for (t = 0; t < s->nc; t++) entries += as_col_nnz(s->X, gr_col(s, t));
    pass = 3.0 * 256.0 * n + (s->X->kind == AS_DENSE ? 0.0 : 1048576.0);
    /* where the K-free fit may be taken (as_gr_kfree), its three n x n and eight k-vectors */
    kfree = kmax > s->kfit || gr_kfit_cost(n, k) > AS_GREEDY_KFREE_LONG ? 3.0 * n * n + 8.0 * k : 0.0;
    return 8.0 * (9.0 * n * n + 4.0 * n * k + 5.0 * kk * kk + 22.0 * k + (double)entries + 9.0 * (double)s->nc + pass +
                  25.0 * n + kfree);
}

/* Whether the arrays for kmax kept columns fit under 'memory'. */
static int gr_fits(const gr_state *s, int64_t kmax)
{
    double cap = s->mem_mb > 0 ? s->mem_mb : as_mem_default_mb();
    return cap <= 0 || gr_bytes(s, kmax) / 1048576.0 <= cap;
}

static int gr_memory_check(const gr_state *s, int64_t kmax, double mem_mb, const char *what, as_common *c)
{
    char msg[160];
    if (kmax > 0) snprintf(msg, sizeof msg, "%s (n = %.0f rows, up to %.0f columns kept)", what, (double)s->n, (double)kmax);
    else snprintf(msg, sizeof msg, "%s (n = %.0f rows, before any column is kept)", what, (double)s->n);
    return as_mem_check(c, gr_bytes(s, kmax), mem_mb, msg);
}

int as_gr_memory(gr_state *s, int64_t kmax, double mem_mb, const char *what, as_common *c)
{
    s->kmax = kmax > 0 ? kmax : 0;
    s->kfit = c->tune.greedy_k_max;
    return gr_memory_check(s, kmax, mem_mb, what, c);
}

int as_gr_snap_alloc(const gr_state *s, int64_t kroom, gr_snap *p, as_common *c)
{
    memset(p, 0, sizeof *p);
    p->w = as_malloc(c, (size_t)(kroom > 0 ? kroom : 1), sizeof(double));
    p->u = as_malloc(c, (size_t)(s->n > 0 ? s->n : 1), sizeof(double));
    p->dg = as_malloc(c, (size_t)(s->n > 0 ? s->n : 1), sizeof(double));
    p->E = as_malloc(c, (size_t)(s->necap > 0 ? s->necap : 1), sizeof(gr_entry));
    return c->status;
}

void as_gr_snap_free(gr_snap *p, as_common *c)
{
    as_free(c, p->w);
    as_free(c, p->u);
    as_free(c, p->dg);
    as_free(c, p->E);
    memset(p, 0, sizeof *p);
}

void as_gr_snap_take(const gr_state *s, gr_snap *p)
{
    p->k = s->k;
    p->ne = s->ne;
    gr_copy(p->w, s->w, sizeof(double) * (size_t)s->k);
    gr_copy(p->u, s->u, sizeof(double) * (size_t)s->n);
    gr_copy(p->dg, s->dg, sizeof(double) * (size_t)s->n);
    gr_copy(p->E, s->E, sizeof(gr_entry) * (size_t)s->ne);
}

void as_gr_snap_put(gr_state *s, const gr_snap *p)
{
    gr_copy(s->w, p->w, sizeof(double) * (size_t)p->k);
    gr_copy(s->u, p->u, sizeof(double) * (size_t)s->n);
    gr_copy(s->dg, p->dg, sizeof(double) * (size_t)s->n);
    gr_copy(s->E, p->E, sizeof(gr_entry) * (size_t)p->ne);
    s->ne = p->ne;
}

/* Scratch of the kept columns (K, b, the products' operands, the solver's,
   the cache's): reallocated for cap columns without copying; X_S' X_S
   computed again. */
static int gr_scratch(gr_state *s, int64_t cap, as_common *c)
{
    int64_t a, n = s->n;
    s->kscr = 0;
    for (a = 0; a < s->ck; a++) s->cpos[s->csel[a]] = -1;
    s->ck = 0;
    if (!s->cpos) {
        s->cpos = as_malloc(c, (size_t)(s->nc > 0 ? s->nc : 1), sizeof(int64_t));
        if (!s->cpos) return c->status;
        for (a = 0; a < s->nc; a++) s->cpos[a] = -1;
    }
    as_free(c, s->C); as_free(c, s->csel); as_free(c, s->cold); as_free(c, s->cnew);
    as_free(c, s->Cn); as_free(c, s->Bn);
    as_free(c, s->K); as_free(c, s->b); as_free(c, s->U); as_free(c, s->best.w);
    as_nnls_work_free(&s->nnls, c);
    s->C = as_malloc(c, (size_t)(cap * cap), sizeof(double));
    s->csel = as_malloc(c, (size_t)cap, sizeof(int64_t));
    s->cold = as_malloc(c, (size_t)cap, sizeof(int64_t));
    s->cnew = as_malloc(c, (size_t)cap, sizeof(int64_t));
    s->Cn = as_malloc(c, (size_t)(cap * cap), sizeof(double));
    s->Bn = as_malloc(c, (size_t)(cap * cap), sizeof(double));
    s->K = as_malloc(c, (size_t)(cap * cap), sizeof(double));
    s->b = as_malloc(c, (size_t)cap, sizeof(double));
    s->U = as_malloc(c, (size_t)((n + s->necap) * cap), sizeof(double));
    s->best.w = as_malloc(c, (size_t)cap, sizeof(double));
    if (!s->C || !s->csel || !s->cold || !s->cnew || !s->Cn || !s->Bn || !s->K || !s->b || !s->U || !s->best.w ||
        as_nnls_work_alloc(&s->nnls, cap, c) != AS_OK)
        return c->status;
    s->nnls.newton_max = c->tune.nnls_newton_max;
    s->kscr = cap;
    return AS_OK;
}

/* Room for `need` kept columns (the arrays grow by half, never past the
   maximum checked before the run); where 'memory' holds fewer, room for as
   many as it holds (s->capped), AS_ERR_TOOBIG when that is no more than now. */
static int gr_reserve(gr_state *s, int64_t need, as_common *c)
{
    int64_t n = s->n, cap;
    if (need <= s->kcap) return AS_OK;
    cap = s->kcap + s->kcap / 2;
    if (cap < need) cap = need;
    if (cap < 16) cap = 16;
    if (cap > s->nc) cap = s->nc > need ? s->nc : need;
    if (s->kmax > 0 && cap > s->kmax) cap = s->kmax > need ? s->kmax : need;
    if (!gr_fits(s, cap)) {
        /* the most columns 'memory' holds: lo fits, hi does not */
        int64_t lo = s->kcap, hi = cap;
        while (hi - lo > 1) {
            int64_t mid = lo + (hi - lo) / 2;
            if (gr_fits(s, mid)) lo = mid;
            else hi = mid;
        }
        if (lo < need) s->capped = 1;
        if (lo <= s->kcap)
            return s->kcap > s->k ? AS_OK : gr_memory_check(s, need, s->mem_mb, "the greedy method", c);
        cap = lo;
    }
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
#undef GR_GROW
    /* the scratch anew at every growth (its cache recomputed: the same bits as when it always held cap) */
    if (gr_scratch(s, gr_scratch_room(s, cap), c) != AS_OK) return c->status;
    s->kcap = cap;
    return AS_OK;
}

void as_gr_free(gr_state *s, as_common *c)
{
    void *arrays[] = {s->off, s->alpha, s->nx2, s->csum, s->score, s->norm, s->in, s->scratch_ri, s->scratch_xv,
                      s->G, s->A, s->lg, s->H, s->R, s->RG, s->rg1, s->M, s->u, s->dg, s->E, s->rowrel, s->diagrel,
                      s->r1, s->rho, s->su, s->sel, s->col, s->w, s->sw, s->ban, s->Xs, s->XA, s->K, s->b,
                      s->U, s->C, s->cpos, s->csel, s->cold, s->cnew, s->Cn, s->Bn, s->err};
    size_t t;
    for (t = 0; t < sizeof arrays / sizeof arrays[0]; t++) as_free(c, arrays[t]);
    as_nnls_work_free(&s->nnls, c);
    as_gr_snap_free(&s->best, c);
    memset(s, 0, sizeof(*s));
}

int as_gr_minimax_room(gr_state *s, as_common *c)
{
    int64_t n = s->n, need = n * n, cap = s->kscr > 0 ? s->kscr : 1;
    double mb = s->mem_mb > 0 ? s->mem_mb : as_mem_default_mb(), extra;
    gr_entry *E, *bE;
    double *U;
    if (s->k > s->kfit) return 0;   /* the fit needs K */
    if (s->err) return 1;
    if (n > s->mm_rows) return 0;
    if (need < s->necap) need = s->necap;
    /* the errors, the larger operands, the entries of the state, its best and the prune's snapshot */
    extra = 8.0 * (double)n * (double)n + 8.0 * (double)(need - s->necap) * (double)cap +
            3.0 * (double)need * (double)sizeof(gr_entry);
    if (mb > 0 && (gr_bytes(s, s->kcap) + extra) / 1048576.0 > mb) return 0;
    s->err = as_malloc(c, (size_t)(n * n), sizeof(double));
    E = as_malloc(c, (size_t)need, sizeof(gr_entry));
    bE = as_malloc(c, (size_t)need, sizeof(gr_entry));
    U = as_malloc(c, (size_t)((n + need) * cap), sizeof(double));
    if (!s->err || !E || !bE || !U) {
        as_free(c, s->err);
        s->err = NULL;
        as_free(c, E);
        as_free(c, bE);
        as_free(c, U);
        return 0;
    }
    gr_copy(E, s->E, sizeof(gr_entry) * (size_t)s->ne);
    gr_copy(bE, s->best.E, sizeof(gr_entry) * (size_t)s->best.ne);
    as_free(c, s->E);
    as_free(c, s->best.E);
    as_free(c, s->U);
    s->E = E;
    s->best.E = bE;
    s->U = U;
    s->necap = need;
    return 1;
}

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

int as_gr_add(gr_state *s, const gr_pick *picks, int64_t m, as_common *c)
{
    int64_t t;
    if (gr_reserve(s, s->k + m, c) != AS_OK) return c->status;
    if (m > s->kcap - s->k) m = s->kcap - s->k;
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

void as_gr_compact(gr_state *s)
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

gr_path as_gr_path_default(const as_common *c)
{
    gr_path p;
    p.centre = c->tune.greedy_centre;
    p.gain = c->tune.greedy_gain;
    p.lawson = c->tune.greedy_lawson;
    p.diag = c->tune.greedy_diag;
    p.two = c->tune.greedy_two;
    return p;
}

int as_gr_setup(gr_state *s, const double *G, as_common *c)
{
    int64_t n = s->n, i, j;
    size_t nn = (size_t)(n * n), n1 = (size_t)(n > 0 ? n : 1);
    s->G = as_malloc(c, nn, sizeof(double));
    s->A = as_malloc(c, nn, sizeof(double));
    s->H = as_calloc(c, nn, sizeof(double));
    s->R = as_malloc(c, nn, sizeof(double));
    s->M = as_malloc(c, nn, sizeof(double));
    s->lg = as_malloc(c, n1, sizeof(double));
    s->u = as_malloc(c, n1, sizeof(double));
    s->dg = as_malloc(c, n1, sizeof(double));
    s->rowrel = as_malloc(c, n1, sizeof(double));
    s->diagrel = as_malloc(c, n1, sizeof(double));
    s->r1 = as_malloc(c, n1, sizeof(double));
    s->rho = as_malloc(c, n1, sizeof(double));
    s->su = as_malloc(c, n1, sizeof(double));
    s->necap = n;
    s->E = as_malloc(c, (size_t)(s->necap > 0 ? s->necap : 1), sizeof(gr_entry));
    if (!s->G || !s->A || !s->H || !s->R || !s->M || !s->lg || !s->u || !s->dg || !s->rowrel || !s->diagrel ||
        !s->r1 || !s->rho || !s->su || !s->E || as_gr_snap_alloc(s, 0, &s->best, c) != AS_OK)
        return c->status;
    if (G) gr_copy(s->G, G, sizeof(double) * nn);
    else if (as_gram(s->X, -1, NULL, NULL, s->G, c) != AS_OK) return c->status;
    if (as_gram_finite(n, s->G, as_input_name(s->X), c) != AS_OK) return c->status;
    for (i = 0; i < n; i++) {
        s->lg[i] = as_lse(n, s->G + i * n);
        s->u[i] = s->dg[i] = 1;
    }
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++) s->A[i + j * n] = s->path.centre ? exp(s->G[j + i * n] - s->lg[i]) : 0;
    return AS_OK;
}

static int gr_cmp_col(const void *pa, const void *pb)
{
    const gr_pick *a = pa, *b = pb;
    return a->t < b->t ? -1 : (a->t > b->t);
}

int as_gr_result(gr_state *s, as_result *out, as_common *c)
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
    if (s->capped) out->has |= AS_HAS_MEMORY;
    as_free(c, ord);
    return AS_OK;
}
