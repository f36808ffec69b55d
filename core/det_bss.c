/* det_bss.c: the barrier steps of the deterministic algorithm (BSS on whitened columns): resolvents from an eigendecomposition refreshed every few dozen steps and Woodbury updates in between, several shifts per step when they are safe, every step certified. */
#include "det_bss.h"
#include "det.h"
#include <time.h>

#define AS_DET_PROGRESS_SEC 10.0  /* at most this long between progress lines (verbose) */
#define AS_DET_BIG_PLAN     1e5   /* more iterations than this: say so (verbose)         */
#define AS_DET_LONG_SEC     60.0  /* an estimated run longer than this: say so (verbose) */
#define AS_DET_LONG_PROBE_SEC 3.0 /* the estimate is made after this long                */
#define AS_DET_CACHE_GAP    0.25  /* a kept column needs L - U at least this part of the
                                     last search's best (measured: without it, a third more
                                     distinct columns at n = 256; with it, about a tenth)  */

/* The BSS sparsity factor: b = ((1 + sqrt(1 - eps^2)) / eps)^2 (Batson, Spielman, Srivastava,
   "Twice-Ramanujan sparsifiers", SIAM J. Comput. 2012, section 3, with its constants as in as_bss_plan_init). */
double as_bss_b(double eps)
{
    double sb = (1.0 + sqrt(1.0 - eps * eps)) / eps;   /* sqrt(b) */
    return sb * sb;
}

/* Several shifts per step. With u' = u + s dU and l' = l + s dL, take the step's
   scores U_j, L_j against u', l' (below). If each of c_1 .. c_s (columns, not
   necessarily distinct) has U <= L, adding t = 1 / (s c_i) of each, with
   c_i in [U, L], keeps both potentials at most where they were: A + sum_i t_i v_i v_i'
   is the mean of the s matrices A + (s t_i) v_i v_i', each a one-column BSS step
   at the shifted barriers (Lemmas 3.3 and 3.4 of Batson, Spielman, Srivastava),
   and tr (u'I - .)^-1, tr (. - l'I)^-1 are convex. So s shifts cost one
   factorization, and the shifts, the potentials and the final eps are those of
   s one-column steps. A shift s with no such column falls back to s / 2 (s = 1
   always has one, by the paper's counting argument). The s shares go to the
   best columns by L - U, one each (to the best when fewer qualify). */

void as_bss_plan_init(double eps, int64_t r, int64_t batch, as_bss_plan *P)
{
    double sb;
    memset(P, 0, sizeof(*P));
    P->b = as_bss_b(eps);
    sb = sqrt(P->b);
    P->dL = 1.0;
    P->dU = (sb + 1.0) / (sb - 1.0);
    P->eL = 1.0 / sb;
    P->eU = (sb - 1.0) / (P->b + sb);
    P->u0 = (double)r / P->eU;
    P->l0 = -(double)r / P->eL;
    P->Q = (int64_t)ceil(P->b * (double)r);
    P->batch = batch > 0 ? batch : AS_DET_BATCH_MAX;
}

/* m (added columns since the refresh) that balances a refresh (an r x r
   eigendecomposition and Z, about 10 r^3 + 2 r^2 n) against the steps' Woodbury
   terms, which grow with m. */
static int64_t as_det_mcap(int64_t r, const as_common *c)
{
    int64_t m = r / 8;
    if (c->tune.det_refresh_cols > 0) return c->tune.det_refresh_cols;
    return m < 8 ? 8 : m > 64 ? 64 : m;
}

/* 0 when l I < A < u I, by Cholesky factorizations of u I - A and A - l I
   (A: r x r, lower triangle; F: r x r workspace). */
static int as_det_certify(int64_t r, const double *A, double u, double l, double *F)
{
    int ri = (int)r, info = 0, k;
    int64_t a, b;
    for (k = 0; k < 2; k++) {
        double sign = k == 0 ? 1.0 : -1.0, x = k == 0 ? u : l;
        for (b = 0; b < r; b++) {
            for (a = b; a < r; a++) F[a + b * r] = -sign * A[a + b * r];
            F[b + b * r] += sign * x;
        }
        dpotrf_("L", &ri, F, &ri, &info, 1);
        if (info != 0) return info;
    }
    return 0;
}

/* A refresh: the base becomes A, by its eigendecomposition; Z = Q'W and the
   cache's eigen coordinates follow. */
static int as_det_refresh(as_det_run *R, as_common *c)
{
    int64_t r = R->r, a, b;
    for (b = 0; b < r; b++)
        for (a = b; a < r; a++) R->Aw[a + b * r] = R->A[a + b * r];
    if (as_syev((int)r, R->Aw, R->lam, R->Q, c) != AS_OK) {
        if (c->status == AS_ERR_LAPACK)
            as_error(c, AS_ERR_INPUT, "deterministic algorithm: the eigendecomposition of the sum of the picks failed (%s)",
                     c->msg);
        return c->status;
    }
    if (as_interrupted(c) ||
        as_gemm_blocks("T", "N", r, R->n, r, 1.0, R->Q, r, R->W, r, 0.0, R->Z, r, c) != AS_OK)
        return c->status;
    R->m = 0;
    as_det_cols(R, &R->ws[0], R->Z, R->jc, 0, R->nc, R->Wc);
    R->refreshes++;
    return AS_OK;
}

/* The cache becomes the best columns of a search. */
static void as_det_cache_fill(as_det_run *R, const as_det_top *top)
{
    int64_t t;
    R->nc = top->len < R->ncap ? top->len : R->ncap;
    for (t = 0; t < R->nc; t++) R->jc[t] = top->c[t].j;
    as_det_cols(R, &R->ws[0], R->Z, R->jc, 0, R->nc, R->Wc);
}

static int as_det_breakdown(as_common *c, int64_t q, const char *what)
{
    return as_error(c, AS_ERR_INPUT,
                    "deterministic algorithm: numerical breakdown at iteration %lld (%s); "
                    "X is too ill-conditioned for its numerical rank: scale or drop near-dependent rows",
                    (long long)(q + 1), what);
}

/* The candidates of this step: the tree's leaf (or every column). *scanned
   is set when a leaf without a candidate sent the search to every column
   (allowed only with one shift: with more, the step tries fewer shifts). */
static int as_det_candidates(as_det_run *R, int64_t s, as_det_top *top, int *scanned, as_common *c)
{
    const as_bss_plan *P = R->P;
    top->len = 0;
    *scanned = 0;
    if (P->use_tree) {
        int64_t leaf, j0, j1;
        if (as_det_walk_matrix(R, c) != AS_OK || as_interrupted(c)) return c->status;
        leaf = as_det_tree_walk(P->T, R->Mp);
        j0 = leaf * P->T->lf;
        j1 = j0 + P->T->lf < R->d ? j0 + P->T->lf : R->d;
        if (as_det_score_range(R, j0, j1, top, c) != AS_OK) return c->status;
        if (top->len > 0 || s > 1) return AS_OK;
    }
    /* rounding left the chosen leaf without a candidate, or no tree: look everywhere */
    *scanned = P->use_tree;
    return as_det_score_range(R, 0, R->d, top, c);
}

/* One step of as_det_steps: q iterations done, the barriers u, l there and
   their potentials; s shifts take them to u' = up, l' = lp. */
typedef struct as_det_step {
    int64_t q, s;
    double u, l, up, lp, phiU, phiL;
} as_det_step;

/* The step's shifts s and its columns (top, at most s of them), with the
   sides R->SU, R->SL at u', l'. */
static int as_det_shifts(as_det_run *R, as_det_step *z, as_det_top *top, as_common *c)
{
    const as_bss_plan *P = R->P;
    int64_t Q = P->Q, q = z->q, s;
    int scanned = 0, st;
    /* The most shifts for which a column is sure to exist: the paper's
       counting (Claims 3.6, 3.7: sum_j U_j <= 1/(s dU) + phiU and
       sum_j L_j >= 1/(s dL) - phiL) with the potentials as they are, below
       their bounds eU, eL once the steps have pushed them down; as
       1/dL - 1/dU = eU + eL, any s <= (eU + eL) / (phiU + phiL) will do. */
    {
        double sfit = floor((P->eU + P->eL) / (z->phiU + z->phiL) * (1 - 1e-9));
        s = sfit < (double)R->smax ? (int64_t)sfit : R->smax;
        if (s < 1) s = 1;
    }
    for (;;) {
        if (s > Q - q) s = Q - q;
        z->s = s;
        z->up = z->u + (double)s * P->dU;
        z->lp = z->l + (double)s * P->dL;
        R->nsteps++;
        if (as_det_side_at(R, z->up, 1, R->SU) != 0)
            return as_det_breakdown(c, q, "A reached the upper barrier: u'I - A is not positive definite");
        if ((st = as_det_side_at(R, z->lp, -1, R->SL)) != 0) {
            if (R->m > 0) {
                /* the base is too old for l': refresh and try again */
                if (as_det_refresh(R, c) != AS_OK) return c->status;
                R->nsteps--;
                continue;
            }
            if (s > 1) { s /= 2; continue; }   /* the lower barrier moved too far */
            return as_det_breakdown(c, q, "A reached the lower barrier: A - l'I is not positive definite");
        }
        /* the drops PhiU(u) - PhiU(u'), PhiL(l') - PhiL(l) */
        R->dphiU = z->phiU - R->SU->phi;
        R->dphiL = R->SL->phi - z->phiL;
        if (!(R->dphiU > 0) || !(R->dphiL > 0) || !isfinite(R->dphiU) || !isfinite(R->dphiL))
            return as_det_breakdown(c, q, "a barrier potential grew");
        top->len = 0;
        top->cap = s;
        as_det_score_cols(R, &R->ws[0], R->Wc, R->nc, R->jc, 0, top);
        if (top->len > 0 && top->c[0].gap < AS_DET_CACHE_GAP * R->gap_ref) top->len = 0;
        if (top->len == 0) {
            /* no cached column qualifies: a search */
            R->searches++;
            top->cap = R->smax > R->ncap ? R->smax : R->ncap;
            if (as_det_candidates(R, s, top, &scanned, c) != AS_OK) return c->status;
            R->fallbacks += scanned;
            as_det_cache_fill(R, top);
            if (top->len > 0) R->gap_ref = top->c[0].gap;
            if (top->len > s) top->len = s;
        }
        if (top->len > 0) return AS_OK;
        if (s > 1) { s /= 2; continue; }
        return as_det_breakdown(c, q, "no column has U_j < L_j");
    }
}

/* The step's s shares: one to each of the best columns (the rest to the
   best); a share of column i adds 1 / (s c_i), c_i = (U_i + L_i) / 2. The
   picks go on from picks[R->np]. */
static int as_det_add(as_det_run *R, int64_t s, const as_det_top *top, as_det_pick *picks, as_common *c)
{
    int64_t r = R->r, mc = R->mc, nb = top->len, t, a, b2;
    for (t = 0; t < nb; t++) R->jp[t] = top->c[t].j;
    if (R->m + nb <= mc) as_det_cols(R, &R->ws[0], R->Z, R->jp, 0, nb, R->G + R->m * r);
    for (t = 0; t < nb; t++) {
        double shares = 1.0 + (t == 0 ? (double)(s - nb) : 0.0), tw;
        tw = shares * 2.0 / ((double)s * (top->c[t].U + top->c[t].L));
        if (R->m + nb <= mc) R->tg[R->m + t] = tw;
        as_det_apply(R->X, top->c[t].j, R->W, r, R->v);
        for (b2 = 0; b2 < r; b2++) {
            double tv = tw * R->v[b2];
            for (a = b2; a < r; a++) R->A[a + b2 * r] += tv * R->v[a];
        }
        picks[R->np].j = top->c[t].j;
        picks[R->np].q = R->np;
        picks[R->np].t = tw;
        R->np++;
    }
    /* more columns than G has room for: the next base takes them */
    if (R->m + nb <= mc) R->m += nb;
    else if (as_det_refresh(R, c) != AS_OK) return c->status;
    return AS_OK;
}

/* The Q iterations from A = 0, in steps of s shifts each (as_det_shifts,
   as_det_add), and the final certificate; the counts in R. */
static int as_det_steps(as_det_run *R, as_det_top *top, as_det_pick *picks, as_common *c)
{
    const as_bss_plan *P = R->P;
    int64_t Q = P->Q, r = R->r, n = R->n, s_done;
    double u, l;
    time_t t_start, t_last;
    int said_long = 0, st;
    as_det_step z;
    as_det_side *sw;

    memset(&z, 0, sizeof(z));
    /* the base before the first step: A = 0 */
    if (as_det_refresh(R, c) != AS_OK) return c->status;
    as_progress(c, "det: start of %lld iterations, rank %lld, eps bound %.4g, b = %.4g, %s, up to %lld per step",
                (long long)Q, (long long)r, (P->u0 - P->l0 + (double)Q * (P->dU - P->dL)) /
                (P->u0 + P->l0 + (double)Q * (P->dU + P->dL)), P->b,
                P->use_tree ? "tree search" : "plain scan", (long long)R->smax);
    if ((double)Q > AS_DET_BIG_PLAN)
        as_progress(c, "det: a large plan: %lld iterations of O(rank^2 n) = %.3g flops each", (long long)Q,
                    2.0 * (double)r * (double)r * (double)n);
    t_start = time(NULL);
    t_last = t_start;

    while (z.q < Q) {
        /* barriers after q shifts: u = u_q, l = l_q */
        z.u = P->u0 + (double)z.q * P->dU;
        z.l = P->l0 + (double)z.q * P->dL;
        if (as_interrupted(c)) return c->status;
        if (R->m >= R->mcap && as_det_refresh(R, c) != AS_OK) return c->status;
        /* the potentials at (u, l) of this A; the Cholesky factorization in
           the upper one certifies the previous step: A < uI */
        if ((st = as_det_side_at(R, z.u, 1, R->su0)) != 0)
            return as_det_breakdown(c, z.q, "A reached the upper barrier: uI - A is not positive definite");
        z.phiU = R->su0->phi;
        if ((st = as_det_side_at(R, z.l, -1, R->sl0)) != 0) {
            if (R->m > 0) {
                /* the base is too old for this barrier: refresh (then m = 0) */
                if (as_det_refresh(R, c) != AS_OK) return c->status;
                continue;
            }
            return as_det_breakdown(c, z.q, "A reached the lower barrier: A - lI is not positive definite");
        }
        z.phiL = R->sl0->phi;
        if (!(z.phiU <= P->eU * (1 + c->tune.det_phi_tol)) || !(z.phiL <= P->eL * (1 + c->tune.det_phi_tol)))
            return as_det_breakdown(c, z.q, "a barrier potential grew");
        if (as_det_shifts(R, &z, top, c) != AS_OK || as_det_add(R, z.s, top, picks, c) != AS_OK)
            return c->status;
        /* this step's u', l' are the next one's u, l: its sides carry over */
        sw = R->su0; R->su0 = R->SU; R->SU = sw;
        sw = R->sl0; R->sl0 = R->SL; R->SL = sw;
        z.q += z.s;
        s_done = z.s;
        if (c->verbose && !said_long && difftime(time(NULL), t_start) >= AS_DET_LONG_PROBE_SEC) {
            double el = difftime(time(NULL), t_start), est = el / (double)z.q * (double)Q;
            said_long = 1;
            if (est > AS_DET_LONG_SEC)
                as_progress(c, "det: a long run: %lld iterations, %lld done in %.0f s, about %.0f s in all",
                            (long long)Q, (long long)z.q, el, est);
        }
        if (!c->verbose)
            as_status(c, "det: iteration %lld of %lld, %.0f s elapsed, about %.0f s left", (long long)z.q, (long long)Q,
                      difftime(time(NULL), t_start), difftime(time(NULL), t_start) / (double)z.q * (double)(Q - z.q));
        if (c->verbose && ((z.q * 10) / Q != ((z.q - s_done) * 10) / Q ||
                           difftime(time(NULL), t_last) >= AS_DET_PROGRESS_SEC)) {
            double el = difftime(time(NULL), t_start);
            t_last = time(NULL);
            as_progress(c, "det: iteration %lld of %lld (step %lld), (u-l)/(u+l) = %.4g, %.0f s elapsed, about %.0f s left",
                        (long long)z.q, (long long)Q, (long long)R->nsteps, (z.up - z.lp) / (z.up + z.lp), el,
                        el / (double)z.q * (double)(Q - z.q));
        }
    }

    /* the final A must lie strictly between the final barriers: certified by
       two Cholesky factorizations of rank size */
    u = P->u0 + (double)Q * P->dU;
    l = P->l0 + (double)Q * P->dL;
    if (as_det_certify(r, R->A, u, l, R->Q) != 0)
        return as_det_breakdown(c, Q - 1, "the final A is not between the barriers");
    as_progress(c, "det: %lld iterations in %lld steps, %lld searches, %lld refreshes, %lld picks, %.0f s%s",
                (long long)Q, (long long)R->nsteps, (long long)R->searches, (long long)R->refreshes,
                (long long)R->np, difftime(time(NULL), t_start), R->fallbacks ? " (some leaves rescanned)" : "");
    return AS_OK;
}

/* Doubles of the steps' workspaces (as_det_alloc, below) for rank r, n rows, nt threads. */
double as_bss_workspace(int64_t n, int64_t r, int nt, const as_bss_plan *P, const as_common *c)
{
    double rr = (double)r * (double)r, s = (double)(P->batch < P->Q ? P->batch : P->Q);
    double mc = (double)as_det_mcap(r, c) + (s < AS_DET_BATCH_MAX ? s : AS_DET_BATCH_MAX), blk = AS_DET_SCORE_BLOCK, p = P->white ? (double)r : (double)n;
    double tc = s > AS_DET_CACHE ? s : AS_DET_CACHE;
    double w = 2 * rr + r + (1 + 6.0 * r + 2 * rr) + 3.0 * r / 2 + (double)r * (double)n + (double)r * mc + mc +
               4 * ((double)r + (double)r * mc + 3 * mc * mc) +
               (double)nt * ((double)r * blk + (double)n * blk + 2 * mc * blk + (double)r * blk + blk + tc * 4) +
               (double)r * AS_DET_CACHE + AS_DET_CACHE + r + s + tc * 4;
    if (P->use_tree)
        w += (double)r * p + 4 * (double)r * mc + 2 * p * 4 * mc + 16 * mc * mc + p * p + p * (p + 1) / 2 + r;
    return w;
}

/* The workspaces of a run (as_bss_run), every one once before the first step
   (as_bss_workspace counts them), and R's sizes: from its P, n, r and nt.
   AS_OK, or the failed allocation's status (as_det_free frees what was made). */
static int as_det_alloc(as_det_run *R, as_det_top *top, as_common *c)
{
    const as_bss_plan *P = R->P;
    int64_t n = R->n, r = R->r, Q = P->Q, mc;
    int k;
    R->smax = P->batch < Q ? P->batch : Q;
    if (R->smax < 1) R->smax = 1;
    R->mcap = as_det_mcap(r, c);
    mc = R->mcap + (R->smax < AS_DET_BATCH_MAX ? R->smax : AS_DET_BATCH_MAX);
    R->p = P->white ? r : n;
    R->ncap = AS_DET_CACHE;
    top->cap = R->smax > R->ncap ? R->smax : R->ncap;
    R->A = as_calloc(c, (size_t)(r * r), sizeof(double));
    R->Q = as_malloc(c, (size_t)(r * r), sizeof(double));
    R->lam = as_malloc(c, (size_t)r, sizeof(double));
    R->Aw = as_malloc(c, (size_t)(r * r), sizeof(double));
    R->Z = as_malloc(c, (size_t)(r * n), sizeof(double));
    R->G = as_malloc(c, (size_t)(r * mc), sizeof(double));
    R->tg = as_malloc(c, (size_t)mc, sizeof(double));
    R->mc = mc;
    R->su0 = &R->S[0];
    R->sl0 = &R->S[1];
    R->SU = &R->S[2];
    R->SL = &R->S[3];
    for (k = 0; k < 4; k++) {
        as_det_side *S = &R->S[k];
        S->x = NAN;
        S->base = -1;
        S->d = as_malloc(c, (size_t)r, sizeof(double));
        S->H = as_malloc(c, (size_t)(r * mc), sizeof(double));
        S->K = as_malloc(c, (size_t)(mc * mc), sizeof(double));
        S->HH = as_malloc(c, (size_t)(mc * mc), sizeof(double));
        S->GH = as_malloc(c, (size_t)(mc * mc), sizeof(double));
        if (!S->d || !S->H || !S->K || !S->HH || !S->GH) return c->status;
    }
    R->ws = as_calloc(c, (size_t)R->nt, sizeof(as_det_ws));
    if (!R->ws) return c->status;
    for (k = 0; k < R->nt; k++) {
        as_det_ws *w = &R->ws[k];
        w->Wb = as_malloc(c, (size_t)(r * AS_DET_SCORE_BLOCK), sizeof(double));
        w->Xg = as_malloc(c, (size_t)(n * AS_DET_SCORE_BLOCK), sizeof(double));
        w->Ab = as_malloc(c, (size_t)(mc * AS_DET_SCORE_BLOCK), sizeof(double));
        w->Bb = as_malloc(c, (size_t)(mc * AS_DET_SCORE_BLOCK), sizeof(double));
        w->Yb = as_malloc(c, (size_t)(r * AS_DET_SCORE_BLOCK), sizeof(double));
        w->su = as_malloc(c, (size_t)AS_DET_SCORE_BLOCK, sizeof(double));
        w->cand = as_malloc(c, (size_t)top->cap, sizeof(as_det_cand));
        if (!w->Wb || !w->Xg || !w->Ab || !w->Bb || !w->Yb || !w->su || !w->cand) return c->status;
    }
    R->Wc = as_malloc(c, (size_t)(r * R->ncap), sizeof(double));
    R->jc = as_malloc(c, (size_t)R->ncap, sizeof(int64_t));
    R->v = as_malloc(c, (size_t)r, sizeof(double));
    R->jp = as_malloc(c, (size_t)R->smax, sizeof(int64_t));
    top->c = as_malloc(c, (size_t)top->cap, sizeof(as_det_cand));
    if (!R->A || !R->Q || !R->lam || !R->Aw || !R->Z || !R->G || !R->tg || !R->Wc || !R->jc || !R->v || !R->jp ||
        !top->c)
        return c->status;
    if (P->use_tree) {
        R->Et = as_malloc(c, (size_t)(r * R->p), sizeof(double));
        R->C = as_malloc(c, (size_t)(4 * r * mc), sizeof(double));
        R->EC = as_malloc(c, (size_t)(4 * R->p * mc), sizeof(double));
        R->T1 = as_malloc(c, (size_t)(4 * R->p * mc), sizeof(double));
        R->Sm = as_malloc(c, (size_t)(16 * mc * mc), sizeof(double));
        R->Mt = as_malloc(c, (size_t)(R->p * R->p), sizeof(double));
        R->Mp = as_malloc(c, (size_t)(R->p * (R->p + 1) / 2), sizeof(double));
        R->f = as_malloc(c, (size_t)r, sizeof(double));
        if (!R->Et || !R->C || !R->EC || !R->T1 || !R->Sm || !R->Mt || !R->Mp || !R->f) return c->status;
    }
    return AS_OK;
}

/* Frees what as_det_alloc made (all of it, or as far as it got). */
static void as_det_free(as_det_run *R, as_det_top *top, as_common *c)
{
    int k;
    for (k = 0; k < 4; k++) {
        as_free(c, R->S[k].d);
        as_free(c, R->S[k].H);
        as_free(c, R->S[k].K);
        as_free(c, R->S[k].HH);
        as_free(c, R->S[k].GH);
    }
    as_free(c, R->A);
    as_free(c, R->Q);
    as_free(c, R->lam);
    as_free(c, R->Aw);
    as_free(c, R->Z);
    as_free(c, R->G);
    as_free(c, R->tg);
    for (k = 0; R->ws && k < R->nt; k++) {
        as_free(c, R->ws[k].Wb);
        as_free(c, R->ws[k].Xg);
        as_free(c, R->ws[k].Ab);
        as_free(c, R->ws[k].Bb);
        as_free(c, R->ws[k].Yb);
        as_free(c, R->ws[k].su);
        as_free(c, R->ws[k].cand);
    }
    as_free(c, R->ws);
    as_free(c, R->Wc);
    as_free(c, R->jc);
    as_free(c, R->v);
    as_free(c, R->jp);
    as_free(c, top->c);
    as_free(c, R->Et);
    as_free(c, R->C);
    as_free(c, R->EC);
    as_free(c, R->T1);
    as_free(c, R->Sm);
    as_free(c, R->Mt);
    as_free(c, R->Mp);
    as_free(c, R->f);
}

int as_bss_run(const as_matrix *X, const double *W, int64_t r, const as_bss_plan *P,
               as_det_pick *picks, int64_t *npicks, int64_t *steps, as_common *c)
{
    int blas_prev;
    as_det_run R;
    as_det_top top;

    memset(&R, 0, sizeof(R));
    memset(&top, 0, sizeof(top));
    R.X = X;
    R.P = P;
    R.n = X->nrow;
    R.d = X->ncol;
    R.r = r;
    R.W = W;
    R.nt = as_threads(c);
    /* The BLAS on one thread for the whole run: its calls here are many and
       small, and an idle OpenBLAS worker spins on sched_yield between them
       (measured: 3 s of system time in a 6 s run at n = 256); the threads
       that help are the core's own, scoring the leaves' columns. */
    blas_prev = as_blas_threads_set(1);
    if (as_det_alloc(&R, &top, c) != AS_OK) goto done;
    as_det_steps(&R, &top, picks, c);

done:
    *npicks = R.np;
    *steps = R.nsteps;
    as_det_free(&R, &top, c);
    if (blas_prev > 0) as_blas_threads_set(blas_prev);
    return c->status;
}
