/* greedy_fit.c: the fit of the greedy method's kept columns: the exact rel, the score matrix, the cached Gram of the kept columns, the normal equations of the weighted proxy, Lawson's reweighting, the refit that keeps the best weights, the merge of kept columns repeated at other scales. */
#include "greedy_shared.h"
#include "gram.h"
#include <stdlib.h>

/* Smallest row weight, relative to their mean. */
#define AS_GREEDY_U_FLOOR 1e-3

/* ------------------------------------------------------------------ errors */
/* rel of H against G, each row's off the diagonal (rowrel, may be NULL) and
   on it (s->diagrel, with rowrel), each entry's (err, may be NULL: entry
   (i, l) at l + i n). */
static double gr_errors(const gr_state *s, const double *H, double *rowrel, double *err, as_common *c)
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
            double lh = as_lse(n, H + a * n), r = 0, q = 0;
            if (err)
                for (b = 0; b < n; b++) {
                    double e = fabs(expm1((H[b + a * n] - lh) - (s->G[b + a * n] - s->lg[a])));
                    err[b + a * n] = e;
                    if (b != a) r = as_fmax_num(r, e);
                    else q = e;
                }
            else {
                /* the row's largest and smallest log-ratio: two expm1 a row, not n */
                const double *h = H + a * n, *g = s->G + a * n;
                double hi = 0, lo = 0, lga = s->lg[a];
                for (b = 0; b < n; b++) {
                    double e = (h[b] - lh) - (g[b] - lga);
                    if (b == a) q = fabs(expm1(e));
                    else {
                        hi = as_fmax_num(hi, e);
                        lo = e < lo ? e : lo;
                    }
                }
                r = as_expm1_span(lo, hi);
            }
            if (rowrel) {
                rowrel[a] = r;
                s->diagrel[a] = q;
            }
            mx = as_fmax_num(mx, as_fmax_num(r, q));
        }
#ifdef _OPENMP
#pragma omp critical(as_greedy_rel)
#endif
        rel = fmax(rel, mx);
    }
    return rel;
}

double as_gr_rel(const gr_state *s, const double *H, double *rowrel, as_common *c)
{
    return gr_errors(s, H, rowrel, NULL, c);
}

/* H = H0 + sum_a w_a x_a x_a' over the kept columns. */
int as_gr_make_h(gr_state *s, double *H, as_common *c)
{
    int64_t a, nn = s->n * s->n;
    if (s->k == 0)
        /* no column kept (as_gram would read a NULL index as all of X's columns) */
        memset(H, 0, sizeof(double) * (size_t)nn);
    else {
        for (a = 0; a < s->k; a++) s->sw[a] = sqrt(s->w[a]);
        if (as_gram(s->X, s->k, s->col, s->sw, H, c) != AS_OK) return c->status;
    }
    if (s->H0)
        for (a = 0; a < nn; a++) H[a] += s->H0[a];
    return AS_OK;
}

/* ------------------------------------------------------------------ the score matrix */
/* Rows per block of the row-centring (a block's part of a column: 512 bytes). */
#define GR_ROWS 64

/* R = L(D) (D = G - H, or G when H is NULL) and its row sums r1. */
static void gr_centre(gr_state *s, const double *H, double *R, double *r1, as_common *c)
{
    int64_t n = s->n, i, j, ib, nb = (n + GR_ROWS - 1) / GR_ROWS;
    double *rm = s->rho;   /* the rows' means (rho is made after) */
    /* by blocks of GR_ROWS rows, each row's sums over j in order (D = G - H is
       symmetric to the bit: D_ji = D_ij), the columns read down */
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(as_threads_for(c, 4.0 * (double)n * (double)n)) private(i, j)
#endif
    for (ib = 0; ib < nb; ib++) {
        int64_t i0 = ib * GR_ROWS, i1 = i0 + GR_ROWS < n ? i0 + GR_ROWS : n;
        for (i = i0; i < i1; i++) rm[i] = r1[i] = 0;
        for (j = 0; j < n; j++) {
            const double *Aj = s->A + j * n, *Gj = s->G + j * n, *Hj = H ? H + j * n : NULL;
            for (i = i0; i < i1; i++) rm[i] += Aj[i] * (Gj[i] - (Hj ? Hj[i] : 0));
        }
        for (j = 0; j < n; j++) {
            const double *Gj = s->G + j * n, *Hj = H ? H + j * n : NULL;
            double *Rj = R + j * n;
            for (i = i0; i < i1; i++) {
                double r = Gj[i] - (Hj ? Hj[i] : 0) - rm[i];
                Rj[i] = r;
                r1[i] += r;
            }
        }
    }
}

/* R = L(D) (D = G - H, or G when H is NULL: L(G), made once into s->RG when
   it is there) and M = diag(u) R + Z o R - diag(u o R 1 + rho) A (see the top
   of greedy.c). */
void as_gr_make_m(gr_state *s, const double *H, as_common *c)
{
    int64_t n = s->n, i, j, e;
    double *M = s->M, *rho;
    const double *R = s->R, *r1 = s->r1;
    if (H || !s->RG) gr_centre(s, H, s->R, s->r1, c);
    else {
        R = s->RG;
        r1 = s->rg1;
    }
    rho = s->rho;
    for (i = 0; i < n; i++) rho[i] = 0;
    for (e = 0; e < s->ne; e++) rho[s->E[e].i] += s->E[e].z * R[s->E[e].i + s->E[e].l * n];
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(as_threads_for(c, 2.0 * (double)n * (double)n)) private(i)
#endif
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
            M[i + j * n] = s->u[i] * R[i + j * n] - (s->u[i] * r1[i] + rho[i]) * s->A[i + j * n];
    for (e = 0; e < s->ne; e++) M[s->E[e].i + s->E[e].l * n] += s->E[e].z * R[s->E[e].i + s->E[e].l * n];
}

/* L(G) and its row sums into s->RG, s->rg1, once (the K-based fit's b reads them every refit). */
static int gr_centre_g(gr_state *s, as_common *c)
{
    int64_t n = s->n;
    if (s->RG) return AS_OK;
    s->RG = as_malloc(c, (size_t)(n * n), sizeof(double));
    s->rg1 = as_malloc(c, (size_t)n, sizeof(double));
    if (!s->RG || !s->rg1) {
        as_free(c, s->RG);
        s->RG = NULL;
        return c->status;
    }
    gr_centre(s, NULL, s->RG, s->rg1, c);
    return AS_OK;
}

/* ------------------------------------------------------------------ the kept columns */
/* C = X_S' (I - 1 1' / n) X_S into s->C (it does not depend on the weights):
   the entries of the columns it held before are kept, only those of new
   columns computed. */
static int gr_gram_kept(gr_state *s, as_common *c)
{
    int64_t n = s->n, k = s->k, a, b, m = 0, q;
    int64_t *newa = s->cnew, *pos = s->cold;
    double *Cn = s->Cn, *U = s->U, *B = s->Bn;
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
            if (pos[a] >= 0 && pos[b] >= 0) Cn[a + b * k] = s->C[pos[a] + pos[b] * s->kscr];
    for (q = 0; q < m; q++) {
        double sq = s->csum[s->sel[newa[q]]];
        for (a = 0; a < k; a++)
            Cn[a + newa[q] * k] = Cn[newa[q] + a * k] = B[a + q * k] - s->csum[s->sel[a]] * sq / (double)n;
    }
    /* the cache: C (leading dimension kscr) and each candidate's position in it */
    for (a = 0; a < s->ck; a++) s->cpos[s->csel[a]] = -1;
    for (b = 0; b < k; b++) {
        gr_copy(s->C + b * s->kscr, Cn + b * k, sizeof(double) * (size_t)k);
        s->cpos[s->sel[b]] = b;
        s->csel[b] = s->sel[b];
    }
    s->ck = k;
    return AS_OK;
}

/* K and b of the current weights (see the top of greedy.c). With P = sqrt(u) o X_S,
   V = sqrt(u) o (n XA - X_S diag(s)) / sqrt(n) (s_a = 1'x_a) and the entry
   rows sqrt(z_e) Phi(e, .), Phi(e, a) = a_i a_l - (a o alpha)_i:
   K = (P'P) o C + [V; sqrt(z) Phi]'[V; sqrt(z) Phi], two products. */
int as_gr_normal(gr_state *s, as_common *c)
{
    int64_t n = s->n, k = s->k, a, b, i, e, ld = s->kscr, nv = n + s->ne;
    double *U = s->U, *K = s->K, *su = s->su, rn = sqrt((double)n);
    if (k == 0) return AS_OK;
    if (gr_gram_kept(s, c) != AS_OK) return c->status;
    for (i = 0; i < n; i++) su[i] = sqrt(s->u[i]);
    /* (P'P) o C */
    for (a = 0; a < k; a++)
        for (i = 0; i < n; i++) U[i + a * n] = su[i] * s->Xs[i + a * n];
    if (as_syrk_blocks("U", "T", k, n, 1.0, U, n, 0.0, K, k, c) != AS_OK) return c->status;
    for (b = 0; b < k; b++) {
        double *Kb = K + b * k;
        const double *Cb = s->C + b * ld;
        AS_SIMD
        for (a = 0; a <= b; a++) Kb[a] *= Cb[a];
    }
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
    as_gram_mirror(k, K);
    /* b_a = x_a' M_G x_a */
    if (gr_centre_g(s, c) != AS_OK) return c->status;
    as_gr_make_m(s, NULL, c);
    if (as_gemm_blocks("N", "N", n, k, n, 1.0, s->M, n, s->Xs, n, 0.0, U, n, c) != AS_OK) return c->status;
    for (a = 0; a < k; a++) {
        double v = 0;
        for (i = 0; i < n; i++) v += s->Xs[i + a * n] * U[i + a * n];
        s->b[a] = v;
    }
    return AS_OK;
}

/* ------------------------------------------------------------------ the solve */
/* min w'Kw - 2 b'w over w >= 0 for the kept columns' weights (the banned held at 0). */
static int gr_solve(gr_state *s, as_common *c)
{
    return as_nnls_solve(s->k, s->K, s->b, s->ban, s->w, &s->nnls, c);
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

void as_gr_reweight(gr_state *s)
{
    gr_reweight(s);
}

/* ------------------------------------------------------------------ the minimax fit */
/* Lawson's step on every entry from the errors in s->err (the largest: rel):
   each entry's weight times its error over rel (the first: the error over
   rel), the entries' weights then scaled to as much in all as the rows'. */
static void gr_mm_entries(gr_state *s, double rel)
{
    int64_t n = s->n, i, l, e;
    double tot = 0, usum = 0;
    if (!(rel > 0)) return;
    if (s->ne != n * n) {
        for (e = 0, i = 0; i < n; i++)
            for (l = 0; l < n; l++, e++) {
                s->E[e].i = i;
                s->E[e].l = l;
                s->E[e].z = 1;
            }
        s->ne = n * n;
    }
    for (e = 0; e < s->ne; e++) {
        s->E[e].z *= s->err[s->E[e].l + s->E[e].i * n] / rel;
        tot += s->E[e].z;
    }
    for (i = 0; i < n; i++) usum += s->u[i];
    if (tot > 0)
        for (e = 0; e < s->ne; e++) s->E[e].z *= (double)n * usum / tot;
}

int as_gr_fit_minimax(gr_state *s, double *rel, int steps, as_common *c)
{
    int it;
    double best = *rel, r;
    if (s->k == 0 || steps <= 0) return AS_OK;
    if (isfinite(best)) as_gr_snap_take(s, &s->best);
    if (!s->mm) {
        /* the entries' first weights from the current weights' errors */
        if (as_gr_make_h(s, s->H, c) != AS_OK) return c->status;
        gr_mm_entries(s, gr_errors(s, s->H, NULL, s->err, c));
        s->mm = 1;
    }
    for (it = 0; it <= steps; it++) {
        if (as_interrupted(c)) return c->status;
        s->work += (double)s->k * (double)s->k;
        if (as_gr_normal(s, c) != AS_OK || gr_solve(s, c) != AS_OK || as_gr_make_h(s, s->H, c) != AS_OK)
            return c->status;
        r = gr_errors(s, s->H, NULL, s->err, c);
        if (r < best) {
            best = r;
            as_gr_snap_take(s, &s->best);
        }
        if (it < steps) gr_mm_entries(s, r);
    }
    as_gr_snap_put(s, &s->best);
    if (as_gr_make_h(s, s->H, c) != AS_OK) return c->status;
    *rel = as_gr_rel(s, s->H, s->rowrel, c);
    return AS_OK;
}

/* ------------------------------------------------------------------ the refit */
/* Refit and reweight (s->path.lawson steps), keeping the weights with the
   smallest rel; H and *rel are theirs. */
int as_gr_fit(gr_state *s, double *rel, as_common *c)
{
    int64_t n = s->n, k = s->k, it;
    double best = INFINITY;
    s->work += (double)k * (double)k;
    if ((!s->fresh && as_gr_normal(s, c) != AS_OK) || gr_solve(s, c) != AS_OK || as_gr_make_h(s, s->H, c) != AS_OK)
        return c->status;
    s->fresh = 0;
    best = as_gr_rel(s, s->H, s->rowrel, c);
    as_gr_snap_take(s, &s->best);
    for (it = 0; it < s->path.lawson + (s->path.diag > 0); it++) {
        double r;
        if (as_interrupted(c)) return c->status;
        if (it < s->path.lawson) gr_reweight(s);
        else {
            /* the best weights with the diagonal counting as much as s->path.diag of its row */
            int64_t i;
            gr_copy(s->u, s->best.u, sizeof(double) * (size_t)n);
            for (i = 0; i < n; i++) s->dg[i] = s->u[i] * (1.0 + s->path.diag * (double)n);
            gr_diag_entries(s);
        }
        if (as_gr_normal(s, c) != AS_OK || gr_solve(s, c) != AS_OK || as_gr_make_h(s, s->H, c) != AS_OK)
            return c->status;
        r = as_gr_rel(s, s->H, s->rowrel, c);
        if (r < best) {
            best = r;
            as_gr_snap_take(s, &s->best);
        }
    }
    as_gr_snap_put(s, &s->best);
    gr_diag_entries(s);
    if (s->path.lawson > 0) {
        if (as_gr_make_h(s, s->H, c) != AS_OK) return c->status;
        best = as_gr_rel(s, s->H, s->rowrel, c);
    }
    *rel = best;
    return AS_OK;
}

static int gr_merge_cmp(const void *pa, const void *pb)
{
    const gr_pick *a = pa, *b = pb;
    if (a->v != b->v) return a->v > b->v ? -1 : 1;
    return a->t < b->t ? -1 : (a->t > b->t);
}

/* Kept columns that are positive multiples of one another (x_b = c x_a,
   c > 0: a column repeated at another scale) make the same rank-one term:
   one carries the weight of both, w_a + c^2 w_b, and H is the same up to
   rounding. The merged columns' weights are set to 0 (the caller compacts
   once rel, computed again, still holds); returns how many. */
static int64_t gr_merge(gr_state *s, as_common *c)
{
    int64_t n = s->n, k = s->k, a, b, i, merged = 0;
    gr_pick *ord = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(gr_pick));
    if (!ord) return 0;
    for (a = 0; a < k; a++) {
        /* parallel columns share their first stored row and their count of them */
        const double *x = s->Xs + a * n;
        int64_t first = n, nz = 0;
        for (i = n - 1; i >= 0; i--)
            if (x[i] != 0) { first = i; nz++; }
        ord[a].v = -((double)first * (double)(n + 1) + (double)nz);
        ord[a].t = a;
    }
    qsort(ord, (size_t)k, sizeof *ord, gr_merge_cmp);
    for (a = 0; a < k; a++) {
        int64_t pa = ord[a].t, f;
        const double *xa = s->Xs + pa * n;
        if (!(s->w[pa] > 0)) continue;
        for (f = 0; f < n && xa[f] == 0; f++) {}
        if (f == n) continue;
        for (b = a + 1; b < k && ord[b].v == ord[a].v; b++) {
            int64_t pb = ord[b].t;
            const double *xb = s->Xs + pb * n;
            double ratio = xb[f] / xa[f], big = 0, off = 0;
            if (!(s->w[pb] > 0) || !(ratio > 0)) continue;
            for (i = 0; i < n; i++) {
                big = fmax(big, fabs(xb[i]));
                off = fmax(off, fabs(xb[i] - ratio * xa[i]));
            }
            if (off <= 1e-12 * big) {
                s->w[pa] += ratio * ratio * s->w[pb];
                s->w[pb] = 0;
                merged++;
            }
        }
    }
    as_free(c, ord);
    return merged;
}

/* The merge of parallel columns (gr_merge), kept when rel still meets the
   target (a budget: is no worse); H and *rel those of the columns kept. */
int as_gr_merge_kept(gr_state *s, double target, double *rel, as_common *c)
{
    double *w = as_malloc(c, (size_t)(s->k > 0 ? s->k : 1), sizeof(double)), r;
    if (!w) return c->status;
    gr_copy(w, s->w, sizeof(double) * (size_t)s->k);
    if (gr_merge(s, c) > 0) {
        if (as_gr_make_h(s, s->H, c) != AS_OK) goto done;
        r = as_gr_rel(s, s->H, s->rowrel, c);
        if (isnan(target) ? r <= *rel : r <= target) {
            *rel = r;
            as_gr_compact(s);
        } else {
            gr_copy(s->w, w, sizeof(double) * (size_t)s->k);
            if (as_gr_make_h(s, s->H, c) != AS_OK) goto done;
        }
    }
done:
    as_free(c, w);
    return c->status;
}
