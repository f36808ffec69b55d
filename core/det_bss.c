/* det_bss.c: the barrier steps of the deterministic algorithm (BSS on whitened columns): resolvents by Cholesky, potentials by Woodbury, several shifts per step when they are safe, every step certified. */
#include "det_shared.h"
#include <time.h>

#define AS_DET_PHI_TOL      1e-6  /* relative slack allowed on the barrier potentials   */
#define AS_DET_PROGRESS_SEC 10.0  /* at most this long between progress lines (verbose) */
#define AS_DET_BIG_PLAN     1e5   /* more iterations than this: say so (verbose)         */
#define AS_DET_LONG_SEC     60.0  /* an estimated run longer than this: say so (verbose) */
#define AS_DET_LONG_PROBE_SEC 3.0 /* the estimate is made after this long                */
#define AS_DET_GAP_BITS     32    /* the ranking's resolution: 2^-32 of max(|U|, |L|)    */
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

typedef struct as_det_cand {
    int64_t j;         /* -1: none */
    double gap, U, L;  /* L_j - U_j (rounded: as_det_gap_key), U_j, L_j */
} as_det_cand;

/* The best candidates found so far, best first (at most cap). */
typedef struct as_det_top {
    int64_t cap, len;
    as_det_cand *c;
} as_det_top;

/* The barrier matrices come from Cholesky factorizations, never from an
   eigendecomposition: u'I - A = Lu Lu', A - l'I = Ll Ll', Ru = Lu^-1, Rl = Ll^-1,
   MU = (u'I - A)^-1 = Ru'Ru, ML = (A - l'I)^-1 = Rl'Rl, the potentials
   tr MU = |Ru|_F^2, tr ML = |Rl|_F^2; BU = MU^2 / dphiU + MU and
   BL = ML^2 / dphiL - ML, so for v = W x
   U = |Ru v|^2 + |MU v|^2 / dphiU and L = |ML v|^2 / dphiL - |Rl v|^2.
   A step first scores a few columns kept from earlier searches (the cache:
   two triangular solves); only when none of them qualifies with a margin
   L - U not far below the last search's best does it form MU, ML and search
   the tree (or every column): the kept columns save steps' searches, the
   margin keeps the steps from spreading over many more columns than the
   searches would pick. Any column with U <= L makes
   a valid BSS step, so the guarantee does not depend on where it was found. */
typedef struct as_det_run {
    const as_matrix *X;
    const as_bss_plan *P;
    int64_t n, d, r, smax;
    int nt;
    const double *W;  /* r x n: W G W' = I on the range of G                  */
    double *A;        /* r x r, lower triangle: sum_j s_j v_j v_j'            */
    double *Fu, *Fl;  /* r x r, lower triangles: Lu, Ll of this step            */
    double *Ru, *Rl;  /* r x r, lower triangles: Lu^-1, Ll^-1 of this step    */
    double *MU, *ML;  /* r x r: Ru'Ru, Rl'Rl (formed for a search only)       */
    double *Z;        /* 3r x n: [W; MU W; ML W], so Z x_j = [v; MU v; ML v]   */
    double *D, *Mo;   /* 2r x n; n x n: Z(r:3r)' D = W' (BL - BU) W            */
    double *Mp;       /* n (n + 1) / 2: Mo packed, off-diagonal doubled       */
    double *ybuf;     /* dense: 3r x AS_DET_BLOCK; CSC: nt x 3r               */
    double *SQ;       /* r x r: MU^2 or ML^2 (lower triangle), whitened tree  */
    /* the previous step's columns V (r x nb) and weights T: WU = MUp V,
       WL = MLp V (r x nb), KU = (T^-1 - V'MUp V)^-1, KL = (T^-1 + V'MLp V)^-1 */
    double *V, *WU, *WL, *KU, *KL, *tw, *Y, *S;
    int64_t nb;
    double gap_ref;   /* the best L - U of the last search                   */
    /* the cache: nc whitened columns Vc (r x ncap) of X's columns jc */
    double *Vc, *Yc;  /* Yc: r x 4 ncap */
    int64_t *jc, nc, ncap;
    as_det_cand *thr;  /* nt x tcap: the threads' candidates                  */
    int64_t tcap;
    double dphiU, dphiL;
} as_det_run;

/* a is better than b: larger gap, then smaller column (a total order, so the
   best of a range does not depend on how it was split between threads). */
static int as_det_better(const as_det_cand *a, const as_det_cand *b)
{
    if (a->j < 0) return 0;
    if (b->j < 0) return 1;
    return a->gap > b->gap || (a->gap == b->gap && a->j < b->j);
}

static void as_det_top_add(as_det_top *T, const as_det_cand *x)
{
    int64_t pos;
    if (T->len == T->cap && !as_det_better(x, &T->c[T->len - 1])) return;
    pos = T->len < T->cap ? T->len++ : T->cap - 1;
    while (pos > 0 && as_det_better(x, &T->c[pos - 1])) {
        T->c[pos] = T->c[pos - 1];
        pos--;
    }
    T->c[pos] = *x;
}

/* U_j and L_j from y = Z x_j = [v; MU v; ML v]. */
static void as_det_ul(const as_det_run *R, const double *y, double *U, double *L)
{
    const double *yu = y + R->r, *yl = y + 2 * R->r;
    double vu = 0, uu = 0, vl = 0, ll = 0;
    int64_t i;
    for (i = 0; i < R->r; i++) {
        vu += y[i] * yu[i];
        uu += yu[i] * yu[i];
        vl += y[i] * yl[i];
        ll += yl[i] * yl[i];
    }
    *U = vu + uu / R->dphiU;
    *L = ll / R->dphiL - vl;
}

/* The key a candidate is ranked by: L - U rounded to AS_DET_GAP_BITS bits
   below the leading bit of max(|U|, |L|). Columns that tie in exact arithmetic
   (proportional columns made equal by the presample's weights, as with the
   one-word columns of a document-term matrix) differ in their last bits with
   the BLAS's kernel and thread count; rounded, they tie and the smaller column
   wins, so the columns chosen do not depend on the machine. */
static double as_det_gap_key(double su, double sl)
{
    int e;
    double gap = sl - su;
    (void)frexp(fmax(fabs(su), fabs(sl)), &e);
    return ldexp(nearbyint(ldexp(gap, AS_DET_GAP_BITS - e)), e - AS_DET_GAP_BITS);
}

/* Offer column j with scores U, L: only U > 0 (not an all-zero column) and
   L > U qualify. */
static void as_det_offer(as_det_top *top, int64_t j, double su, double sl)
{
    as_det_cand cand;
    if (!(su > 0) || !(sl - su > 0) || !isfinite(sl)) return;
    cand.j = j;
    cand.gap = as_det_gap_key(su, sl);
    cand.U = su;
    cand.L = sl;
    as_det_top_add(top, &cand);
}

/* Score column j from y = Z x_j. */
static void as_det_consider(const as_det_run *R, const double *y, int64_t j, as_det_top *top)
{
    double su, sl;
    as_det_ul(R, y, &su, &sl);
    as_det_offer(top, j, su, sl);
}

/* The best candidates among columns j0..j1-1 (merged into top). */
static void as_det_score(const as_det_run *R, int64_t j0, int64_t j1, as_det_top *top)
{
    const as_matrix *X = R->X;
    int64_t r3 = 3 * R->r;
    if (X->kind == AS_DENSE && X->ld <= AS_INT_MAX) {
        int ri = (int)r3, ni = (int)R->n, ldx = (int)X->ld, nb;
        double one = 1.0, zero = 0.0;
        int64_t j, t;
        for (j = j0; j < j1; j += AS_DET_BLOCK) {
            nb = (int)(j1 - j < AS_DET_BLOCK ? j1 - j : AS_DET_BLOCK);
            dgemm_("N", "N", &ri, &nb, &ni, &one, R->Z, &ri, X->x + j * X->ld, &ldx, &zero,
                   R->ybuf, &ri, 1, 1);
            for (t = 0; t < nb; t++) as_det_consider(R, R->ybuf + t * r3, j + t, top);
        }
        return;
    }
    if (j1 - j0 < AS_DET_PAR_MIN || R->nt == 1) {
        int64_t j;
        for (j = j0; j < j1; j++) {
            as_det_apply(X, j, R->Z, r3, R->ybuf);
            as_det_consider(R, R->ybuf, j, top);
        }
        return;
    }
#ifdef _OPENMP
#pragma omp parallel num_threads(R->nt)
#endif
    {
        int tid = 0;
        int64_t j, t;
        as_det_top mine;
        double *y;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        y = R->ybuf + (int64_t)tid * r3;
        mine.cap = top->cap;
        mine.len = 0;
        mine.c = R->thr + (int64_t)tid * R->tcap;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (j = j0; j < j1; j++) {
            as_det_apply(X, j, R->Z, r3, y);
            as_det_consider(R, y, j, &mine);
        }
#ifdef _OPENMP
#pragma omp critical(as_det_merge)
#endif
        for (t = 0; t < mine.len; t++) as_det_top_add(top, &mine.c[t]);
    }
}

/* ------------------------------------------------------------------ resolvents */
/* L (lower triangle, n x n, leading dimension ld) overwritten by its inverse:
   by halves, [L11 0; L21 L22]^-1 = [X11 0; -X22 L21 X11  X22], with the
   off-diagonal block from two triangular solves (level 3 throughout; LAPACK's
   dtrtri does the small diagonal blocks). */
int as_det_tri_inverse(int n, double *L, int ld)
{
    int n1 = n / 2, n2 = n - n1, info = 0;
    double one = 1.0, mone = -1.0, *L21 = L + n1, *L22 = L + n1 + (size_t)n1 * (size_t)ld;
    if (n <= 64) {
        dtrtri_("L", "N", &n, L, &ld, &info, 1, 1);
        return info;
    }
    dtrsm_("R", "L", "N", "N", &n2, &n1, &one, L, &ld, L21, &ld, 1, 1, 1, 1);
    dtrsm_("L", "L", "N", "N", &n2, &n1, &mone, L22, &ld, L21, &ld, 1, 1, 1, 1);
    if ((info = as_det_tri_inverse(n1, L, ld)) != 0) return info;
    return as_det_tri_inverse(n2, L22, ld);
}

/* F Fx' = s I - A (sign 1) or A - s I (sign -1) and R = F^-1 (lower triangles),
   A (r x r, lower triangle). Returns LAPACK's info: nonzero when the shifted
   matrix is not (numerically) positive definite, i.e. A reached the barrier s. */
static int as_det_factor(int64_t r, const double *A, double s, int sign, double *F, double *R)
{
    int ri = (int)r, info = 0;
    int64_t a, b;
    for (b = 0; b < r; b++) {
        for (a = b; a < r; a++) F[a + b * r] = -sign * A[a + b * r];
        F[b + b * r] += sign * s;
    }
    dpotrf_("L", &ri, F, &ri, &info, 1);
    if (info != 0) return info;
    for (b = 0; b < r; b++)
        for (a = b; a < r; a++) R[a + b * r] = F[a + b * r];
    return as_det_tri_inverse(ri, R, ri);
}

/* M = R'R (full symmetric storage) for R lower triangular (r x r). */
static void as_det_gram_tri(int64_t r, const double *R, double *M)
{
    int ri = (int)r, info = 0;
    int64_t a, b;
    for (b = 0; b < r; b++)
        for (a = b; a < r; a++) M[a + b * r] = R[a + b * r];
    dlauum_("L", &ri, M, &ri, &info, 1);
    for (b = 0; b < r; b++)
        for (a = b + 1; a < r; a++) M[b + a * r] = M[a + b * r];
}

/* |R|_F^2 over the lower triangle: tr (R'R). */
static double as_det_trace_tri(int64_t r, const double *R)
{
    double s = 0;
    int64_t a, b;
    for (b = 0; b < r; b++)
        for (a = b; a < r; a++) s += R[a + b * r] * R[a + b * r];
    return s;
}

/* Y = (F F')^-1 V (r x m) for F lower triangular, Y1 = F^-1 V on the way (both r x m). */
static void as_det_tri_apply(int64_t r, int64_t m, const double *F, const double *V, double *Y1, double *Y)
{
    int ri = (int)r, mi = (int)m;
    double one = 1.0;
    memcpy(Y1, V, sizeof(double) * (size_t)(r * m));
    dtrsm_("L", "L", "N", "N", &ri, &mi, &one, F, &ri, Y1, &ri, 1, 1, 1, 1);
    memcpy(Y, Y1, sizeof(double) * (size_t)(r * m));
    dtrsm_("L", "L", "T", "N", &ri, &mi, &one, F, &ri, Y, &ri, 1, 1, 1, 1);
}

static double as_det_dot2(int64_t r, const double *x, const double *y)
{
    double s = 0;
    int64_t i;
    for (i = 0; i < r; i++) s += x[i] * y[i];
    return s;
}

/* Z = [W; MU W; ML W] (the W rows are set once). */
static void as_det_fill_z(as_det_run *R)
{
    int ri = (int)R->r, ni = (int)R->n, r3 = 3 * (int)R->r;
    double one = 1.0, zero = 0.0;
    dgemm_("N", "N", &ri, &ni, &ri, &one, R->MU, &ri, R->W, &ri, &zero, R->Z + R->r, &r3, 1, 1);
    dgemm_("N", "N", &ri, &ni, &ri, &one, R->ML, &ri, R->W, &ri, &zero, R->Z + 2 * R->r, &r3, 1, 1);
}

/* P (packed lower, off-diagonal doubled) = or += sa S + sm M over the lower
   triangles of S and M (r x r). */
static void as_det_pack_add(int64_t r, const double *S, double sa, const double *M, double sm,
                            double *P, int add)
{
    int64_t a, b, e = 0;
    for (b = 0; b < r; b++)
        for (a = b; a < r; a++, e++) {
            double val = (sa * S[a + b * r] + sm * M[a + b * r]) * (a == b ? 1.0 : 2.0);
            P[e] = add ? P[e] + val : val;
        }
}

/* Like as_det_score over a leaf, without the 3r x n matrix Z: the block's
   whitened columns V = W X(:, j..) and then MU V, ML V (r x r products). */
static void as_det_score_white(const as_det_run *R, int64_t j0, int64_t j1, as_det_top *top)
{
    const as_matrix *X = R->X;
    int64_t r = R->r, j, t;
    int ri = (int)r, r3 = 3 * (int)r, ni = (int)R->n;
    double one = 1.0, zero = 0.0;
    for (j = j0; j < j1; j += AS_DET_BLOCK) {
        int nb = (int)(j1 - j < AS_DET_BLOCK ? j1 - j : AS_DET_BLOCK);
        if (X->kind == AS_DENSE && X->ld <= AS_INT_MAX) {
            int ldx = (int)X->ld;
            dgemm_("N", "N", &ri, &nb, &ni, &one, R->W, &ri, X->x + j * X->ld, &ldx, &zero,
                   R->ybuf, &r3, 1, 1);
        } else {
            for (t = 0; t < nb; t++) as_det_apply(X, j + t, R->W, r, R->ybuf + t * 3 * r);
        }
        dgemm_("N", "N", &ri, &nb, &ri, &one, R->MU, &ri, R->ybuf, &r3, &zero, R->ybuf + r, &r3, 1, 1);
        dgemm_("N", "N", &ri, &nb, &ri, &one, R->ML, &ri, R->ybuf, &r3, &zero, R->ybuf + 2 * r, &r3, 1, 1);
        for (t = 0; t < nb; t++) as_det_consider(R, R->ybuf + t * 3 * r, j + t, top);
    }
}

/* A plain scan of all columns, with interrupt checks between chunks. */
static int as_det_scan_all(const as_det_run *R, as_det_top *top, as_common *c)
{
    int64_t j0;
    for (j0 = 0; j0 < R->d; j0 += AS_DET_SCAN_CHUNK) {
        int64_t j1 = j0 + AS_DET_SCAN_CHUNK < R->d ? j0 + AS_DET_SCAN_CHUNK : R->d;
        as_det_score(R, j0, j1, top);
        if (j1 < R->d && as_interrupted(c)) return c->status;
    }
    return AS_OK;
}

/* Score the cached columns against this step's factors (no MU, ML needed). */
static void as_det_score_cache(as_det_run *R, as_det_top *top)
{
    int64_t r = R->r, m = R->nc, t;
    double *Y1u = R->Yc, *Yu = Y1u + r * R->ncap, *Y1l = Yu + r * R->ncap, *Yl = Y1l + r * R->ncap;
    if (m == 0) return;
    as_det_tri_apply(r, m, R->Fu, R->Vc, Y1u, Yu);
    as_det_tri_apply(r, m, R->Fl, R->Vc, Y1l, Yl);
    for (t = 0; t < m; t++) {
        int64_t o = t * r;
        double su = as_det_dot2(r, Y1u + o, Y1u + o) + as_det_dot2(r, Yu + o, Yu + o) / R->dphiU;
        double sl = as_det_dot2(r, Yl + o, Yl + o) / R->dphiL - as_det_dot2(r, Y1l + o, Y1l + o);
        as_det_offer(top, R->jc[t], su, sl);
    }
}

/* The cache becomes the best columns of a search. */
static void as_det_cache_fill(as_det_run *R, const as_det_top *top)
{
    int64_t t;
    R->nc = top->len < R->ncap ? top->len : R->ncap;
    for (t = 0; t < R->nc; t++) {
        R->jc[t] = top->c[t].j;
        as_det_apply(R->X, R->jc[t], R->W, R->r, R->Vc + t * R->r);
    }
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
    int64_t n = R->n, r = R->r, a, i, b2;
    int ri = (int)r, ni = (int)n, r2 = 2 * (int)r, r3 = 3 * (int)r;
    double one = 1.0, zero = 0.0;
    top->len = 0;
    *scanned = 0;
    if (P->white) {
        int64_t leaf, j0, j1;
        /* BL - BU = ML^2 / dphiL - ML - MU^2 / dphiU - MU, packed (off-diagonal
           doubled) for the walk over the whitened tree */
        dsyrk_("L", "N", &ri, &ri, &one, R->MU, &ri, &zero, R->SQ, &ri, 1, 1);
        as_det_pack_add(r, R->SQ, -1.0 / R->dphiU, R->MU, -1.0, R->Mp, 0);
        if (as_interrupted(c)) return c->status;
        dsyrk_("L", "N", &ri, &ri, &one, R->ML, &ri, &zero, R->SQ, &ri, 1, 1);
        as_det_pack_add(r, R->SQ, 1.0 / R->dphiL, R->ML, -1.0, R->Mp, 1);
        leaf = as_det_tree_walk(P->T, R->Mp);
        j0 = leaf * P->T->lf;
        j1 = j0 + P->T->lf < R->d ? j0 + P->T->lf : R->d;
        as_det_score_white(R, j0, j1, top);
        if (top->len > 0 || s > 1) return AS_OK;
        as_det_fill_z(R);
    } else if (P->use_tree) {
        int64_t leaf, j0, j1, e = 0;
        as_det_fill_z(R);
        /* Mo = W' (BL - BU) W = [MU W; ML W]' [-(MU W / dphiU + W); ML W / dphiL - W] */
        for (a = 0; a < n; a++) {
            const double *za = R->Z + a * 3 * r;
            double *da = R->D + a * 2 * r;
            for (i = 0; i < r; i++) {
                da[i] = -(za[r + i] / R->dphiU + za[i]);
                da[r + i] = za[2 * r + i] / R->dphiL - za[i];
            }
        }
        if (as_interrupted(c)) return c->status;
        dgemm_("T", "N", &ni, &ni, &r2, &one, R->Z + r, &r3, R->D, &r2, &zero, R->Mo, &ni, 1, 1);
        for (b2 = 0; b2 < n; b2++) {
            R->Mp[e++] = R->Mo[b2 + b2 * n];
            for (a = b2 + 1; a < n; a++) R->Mp[e++] = R->Mo[a + b2 * n] + R->Mo[b2 + a * n];
        }
        leaf = as_det_tree_walk(P->T, R->Mp);
        j0 = leaf * P->T->lf;
        j1 = j0 + P->T->lf < R->d ? j0 + P->T->lf : R->d;
        as_det_score(R, j0, j1, top);
        if (top->len > 0 || s > 1) return AS_OK;
    } else {
        as_det_fill_z(R);
    }
    /* rounding left the chosen leaf without a candidate, or no tree: look everywhere */
    *scanned = P->use_tree;
    return as_det_scan_all(R, top, c);
}

/* tr(K M) for symmetric K and M (nb x nb, full storage). */
static double as_det_frob(int64_t nb, const double *K, const double *M)
{
    return as_det_dot2(nb * nb, K, M);
}

/* K = (T^-1 + sign V'Wp)^-1 (nb x nb, full storage); nonzero when
   T^-1 + sign V'Wp is not positive definite. */
static int as_det_small_inverse(as_det_run *R, const double *Wp, double sign, double *K)
{
    int ri = (int)R->r, nbi = (int)R->nb, info = 0;
    int64_t a, b, nb = R->nb;
    double zero = 0.0;
    dgemm_("T", "N", &nbi, &nbi, &ri, &sign, R->V, &ri, Wp, &ri, &zero, K, &nbi, 1, 1);
    for (a = 0; a < nb; a++) K[a + a * nb] += 1.0 / R->tw[a];
    dpotrf_("L", &nbi, K, &nbi, &info, 1);
    if (info != 0) return info;
    dpotri_("L", &nbi, K, &nbi, &info, 1);
    if (info != 0) return info;
    for (b = 0; b < nb; b++)
        for (a = b + 1; a < nb; a++) K[b + a * nb] = K[a + b * nb];
    return 0;
}

double as_bss_workspace(int64_t n, int64_t r, int nt, const as_bss_plan *P)
{
    double rr = (double)r * (double)r, s = (double)(P->batch < P->Q ? P->batch : P->Q);
    double tc = s > AS_DET_CACHE ? s : AS_DET_CACHE;
    double w = 7 * rr + 3.0 * (double)r * (double)n +
               3.0 * (double)r * (double)(nt > AS_DET_BLOCK ? nt : AS_DET_BLOCK) +
               4 * (double)r * s + 3 * s * s + s + 6 * (double)r * AS_DET_CACHE + (double)nt * tc * 4 + tc * 4;
    if (P->use_tree)
        w += rr + 2.0 * (double)r * (double)n + (double)n * (double)n + (double)n * (double)(n + 1) / 2;
    return w;
}

int as_bss_run(const as_matrix *X, const double *W, int64_t r, const as_bss_plan *P,
               as_det_pick *picks, int64_t *npicks, int64_t *steps, as_common *c)
{
    int64_t n = X->nrow, q = 0, a, b2, s, np = 0, nsteps = 0, searches = 0, fallbacks = 0, Q = P->Q;
    double u, l, up = 0, lp = 0, phiUp, phiLp;
    time_t t_start, t_last;
    int said_long = 0, ri = (int)r;
    as_det_run R;
    as_det_top top;

    memset(&R, 0, sizeof(R));
    R.X = X;
    R.P = P;
    R.n = n;
    R.d = X->ncol;
    R.r = r;
    R.W = W;
    R.nt = as_threads(c);
    R.smax = P->batch < Q ? P->batch : Q;
    if (R.smax < 1) R.smax = 1;
    R.ncap = AS_DET_CACHE;
    R.tcap = R.smax > R.ncap ? R.smax : R.ncap;
    /* every workspace once, before the first step */
    R.A = as_calloc(c, (size_t)(r * r), sizeof(double));
    R.Ru = as_calloc(c, (size_t)(r * r), sizeof(double));
    R.Rl = as_calloc(c, (size_t)(r * r), sizeof(double));
    R.Fu = as_calloc(c, (size_t)(r * r), sizeof(double));
    R.Fl = as_calloc(c, (size_t)(r * r), sizeof(double));
    R.MU = as_malloc(c, (size_t)(r * r), sizeof(double));
    R.ML = as_malloc(c, (size_t)(r * r), sizeof(double));
    R.Z = as_malloc(c, (size_t)(3 * r * n), sizeof(double));
    R.ybuf = as_malloc(c, (size_t)(3 * r * (R.nt > AS_DET_BLOCK ? R.nt : AS_DET_BLOCK)), sizeof(double));
    R.V = as_malloc(c, (size_t)(r * R.smax), sizeof(double));
    R.WU = as_malloc(c, (size_t)(r * R.smax), sizeof(double));
    R.WL = as_malloc(c, (size_t)(r * R.smax), sizeof(double));
    R.Y = as_malloc(c, (size_t)(r * R.smax), sizeof(double));
    R.KU = as_malloc(c, (size_t)(R.smax * R.smax), sizeof(double));
    R.KL = as_malloc(c, (size_t)(R.smax * R.smax), sizeof(double));
    R.S = as_malloc(c, (size_t)(R.smax * R.smax), sizeof(double));
    R.tw = as_malloc(c, (size_t)R.smax, sizeof(double));
    R.Vc = as_malloc(c, (size_t)(r * R.ncap), sizeof(double));
    R.Yc = as_malloc(c, (size_t)(4 * r * R.ncap), sizeof(double));
    R.jc = as_malloc(c, (size_t)R.ncap, sizeof(int64_t));
    R.thr = as_malloc(c, (size_t)(R.nt * R.tcap), sizeof(as_det_cand));
    top.c = as_malloc(c, (size_t)R.tcap, sizeof(as_det_cand));
    if (!R.A || !R.Ru || !R.Rl || !R.Fu || !R.Fl || !R.MU || !R.ML || !R.Z || !R.ybuf || !R.V || !R.WU || !R.WL ||
        !R.Y || !R.KU || !R.KL || !R.S || !R.tw || !R.Vc || !R.Yc || !R.jc || !R.thr || !top.c)
        goto done;
    if (P->use_tree) {
        R.SQ = as_malloc(c, (size_t)(r * r), sizeof(double));
        R.D = as_malloc(c, (size_t)(2 * r * n), sizeof(double));
        R.Mo = as_malloc(c, (size_t)(n * n), sizeof(double));
        R.Mp = as_malloc(c, (size_t)(n * (n + 1) / 2), sizeof(double));
        if (!R.SQ || !R.D || !R.Mo || !R.Mp) goto done;
    }
    /* the W rows of Z never change */
    for (a = 0; a < n; a++) memcpy(R.Z + a * 3 * r, W + a * r, sizeof(double) * (size_t)r);
    /* before the first step A = 0: tr (u0 I - A)^-1 = r / u0 = eU, tr (A - l0 I)^-1 = eL */
    phiUp = (double)r / P->u0;
    phiLp = -(double)r / P->l0;
    as_progress(c, "det: start of %lld iterations, rank %lld, eps bound %.4g, b = %.4g, %s, up to %lld per step",
                (long long)Q, (long long)r, (P->u0 - P->l0 + (double)Q * (P->dU - P->dL)) /
                (P->u0 + P->l0 + (double)Q * (P->dU + P->dL)), P->b,
                P->use_tree ? "tree search" : "plain scan", (long long)R.smax);
    if ((double)Q > AS_DET_BIG_PLAN)
        as_progress(c, "det: a large plan: %lld iterations of O(rank^3) = %.3g flops each", (long long)Q,
                    10.0 * (double)r * (double)r * (double)r);
    t_start = time(NULL);
    t_last = t_start;

    while (q < Q) {
        double phiU, phiL, PU = 0, PL = 0, one = 1.0, zero = 0.0;
        int scanned = 0;
        int64_t nb, t, s_done;
        /* barriers after q shifts: u = u_q, l = l_q */
        u = P->u0 + (double)q * P->dU;
        l = P->l0 + (double)q * P->dL;
        if (as_interrupted(c)) goto done;
        /* The potentials at (u, l) of this A: the previous step's tr MU, tr ML
           (at its u' = u, l' = l, before its columns V, weights T were added),
           corrected by Woodbury: (uI - A)^-1 = MUp + WU KU WU' and
           (A - lI)^-1 = MLp - WL KL WL' */
        phiU = phiUp;
        phiL = phiLp;
        if (R.nb) {
            int nbi = (int)R.nb;
            dgemm_("T", "N", &nbi, &nbi, &ri, &one, R.WU, &ri, R.WU, &ri, &zero, R.S, &nbi, 1, 1);
            phiU += as_det_frob(R.nb, R.KU, R.S);
            dgemm_("T", "N", &nbi, &nbi, &ri, &one, R.WL, &ri, R.WL, &ri, &zero, R.S, &nbi, 1, 1);
            phiL -= as_det_frob(R.nb, R.KL, R.S);
        }
        if (!(phiU <= P->eU * (1 + AS_DET_PHI_TOL)) || !(phiL <= P->eL * (1 + AS_DET_PHI_TOL))) {
            as_det_breakdown(c, q, "a barrier potential grew");
            goto done;
        }
        /* The most shifts for which a column is sure to exist: the paper's
           counting (Claims 3.6, 3.7: sum_j U_j <= 1/(s dU) + phiU and
           sum_j L_j >= 1/(s dL) - phiL) with the potentials as they are, below
           their bounds eU, eL once the steps have pushed them down; as
           1/dL - 1/dU = eU + eL, any s <= (eU + eL) / (phiU + phiL) will do. */
        {
            double sfit = floor((P->eU + P->eL) / (phiU + phiL) * (1 - 1e-9));
            s = sfit < (double)R.smax ? (int64_t)sfit : R.smax;
            if (s < 1) s = 1;
        }
        for (;;) {
            if (s > Q - q) s = Q - q;
            up = u + (double)s * P->dU;
            lp = l + (double)s * P->dL;
            nsteps++;
            /* a Cholesky factorization of each certifies A < u'I and A > l'I */
            if (as_det_factor(r, R.A, up, 1, R.Fu, R.Ru) != 0) {
                as_det_breakdown(c, q, "A reached the upper barrier: u'I - A is not positive definite");
                goto done;
            }
            if (as_interrupted(c)) goto done;
            if (as_det_factor(r, R.A, lp, -1, R.Fl, R.Rl) != 0) {
                if (s > 1) { s /= 2; continue; }   /* the lower barrier moved too far */
                as_det_breakdown(c, q, "A reached the lower barrier: A - l'I is not positive definite");
                goto done;
            }
            if (as_interrupted(c)) goto done;
            /* tr (u'I - A)^-1, tr (A - l'I)^-1 and the drops PhiU(u) - PhiU(u'),
               PhiL(l') - PhiL(l) */
            PU = as_det_trace_tri(r, R.Ru);
            PL = as_det_trace_tri(r, R.Rl);
            R.dphiU = phiU - PU;
            R.dphiL = PL - phiL;
            if (!(R.dphiU > 0) || !(R.dphiL > 0) || !isfinite(R.dphiU) || !isfinite(R.dphiL)) {
                as_det_breakdown(c, q, "a barrier potential grew");
                goto done;
            }
            top.cap = s;
            top.len = 0;
            as_det_score_cache(&R, &top);
            if (top.len > 0 && top.c[0].gap < AS_DET_CACHE_GAP * R.gap_ref) top.len = 0;
            if (top.len == 0) {
                /* no cached column qualifies: MU, ML and a search */
                searches++;
                as_det_gram_tri(r, R.Ru, R.MU);
                as_det_gram_tri(r, R.Rl, R.ML);
                top.cap = R.tcap;
                if (as_det_candidates(&R, s, &top, &scanned, c) != AS_OK) goto done;
                fallbacks += scanned;
                as_det_cache_fill(&R, &top);
                if (top.len > 0) R.gap_ref = top.c[0].gap;
                if (top.len > s) top.len = s;
            }
            if (top.len > 0) break;
            if (s > 1) { s /= 2; continue; }
            as_det_breakdown(c, q, "no column has U_j < L_j");
            goto done;
        }
        /* s shares: one to each of the best columns (the rest to the best); a
           share of column i adds 1 / (s c_i), c_i = (U_i + L_i) / 2 */
        nb = top.len;
        for (t = 0; t < nb; t++) {
            double shares = 1.0 + (t == 0 ? (double)(s - nb) : 0.0);
            R.tw[t] = shares * 2.0 / ((double)s * (top.c[t].U + top.c[t].L));
            as_det_apply(X, top.c[t].j, W, r, R.V + t * r);
        }
        R.nb = nb;
        /* WU = MU V, WL = ML V by the triangular factors */
        as_det_tri_apply(r, nb, R.Fu, R.V, R.Y, R.WU);
        as_det_tri_apply(r, nb, R.Fl, R.V, R.Y, R.WL);
        /* u'I - (A + V T V') is positive definite iff T^-1 - V'MU V is (u'I - A is):
           this certifies the upper barrier after the step; the lower one only
           moves away (A grows) and the next step's factorization at its own,
           higher l' certifies it */
        if (as_det_small_inverse(&R, R.WU, -1.0, R.KU) != 0) {
            as_det_breakdown(c, q, "the step would cross the upper barrier");
            goto done;
        }
        if (as_det_small_inverse(&R, R.WL, 1.0, R.KL) != 0) {
            as_det_breakdown(c, q, "the step's lower correction is not positive definite");
            goto done;
        }
        for (t = 0; t < nb; t++) {
            const double *v = R.V + t * r;
            for (b2 = 0; b2 < r; b2++) {
                double tv = R.tw[t] * v[b2];
                for (a = b2; a < r; a++) R.A[a + b2 * r] += tv * v[a];
            }
            picks[np].j = top.c[t].j;
            picks[np].q = np;
            picks[np].t = R.tw[t];
            np++;
        }
        phiUp = PU;
        phiLp = PL;
        q += s;
        s_done = s;
        if (c->verbose && !said_long && difftime(time(NULL), t_start) >= AS_DET_LONG_PROBE_SEC) {
            double el = difftime(time(NULL), t_start), est = el / (double)q * (double)Q;
            said_long = 1;
            if (est > AS_DET_LONG_SEC)
                as_progress(c, "det: a long run: %lld iterations, %lld done in %.0f s, about %.0f s in all",
                            (long long)Q, (long long)q, el, est);
        }
        if (c->verbose && ((q * 10) / Q != ((q - s_done) * 10) / Q ||
                           difftime(time(NULL), t_last) >= AS_DET_PROGRESS_SEC)) {
            double el = difftime(time(NULL), t_start);
            t_last = time(NULL);
            as_progress(c, "det: iteration %lld of %lld (step %lld), (u-l)/(u+l) = %.4g, %.0f s elapsed, about %.0f s left",
                        (long long)q, (long long)Q, (long long)nsteps, (up - lp) / (up + lp), el,
                        el / (double)q * (double)(Q - q));
        }
    }

    /* the final A must lie strictly between the final barriers: certified by
       two Cholesky factorizations */
    u = P->u0 + (double)Q * P->dU;
    l = P->l0 + (double)Q * P->dL;
    if (as_det_factor(r, R.A, u, 1, R.Fu, R.Ru) != 0 || as_det_factor(r, R.A, l, -1, R.Fl, R.Rl) != 0) {
        as_det_breakdown(c, Q - 1, "the final A is not between the barriers");
        goto done;
    }
    as_progress(c, "det: %lld iterations in %lld steps, %lld searches, %lld picks, %.0f s%s", (long long)Q,
                (long long)nsteps, (long long)searches, (long long)np, difftime(time(NULL), t_start),
                fallbacks ? " (some leaves rescanned)" : "");

done:
    *npicks = np;
    *steps = nsteps;
    as_free(c, R.A);
    as_free(c, R.Ru);
    as_free(c, R.Rl);
    as_free(c, R.Fu);
    as_free(c, R.Fl);
    as_free(c, R.MU);
    as_free(c, R.ML);
    as_free(c, R.Z);
    as_free(c, R.ybuf);
    as_free(c, R.V);
    as_free(c, R.WU);
    as_free(c, R.WL);
    as_free(c, R.Y);
    as_free(c, R.KU);
    as_free(c, R.KL);
    as_free(c, R.S);
    as_free(c, R.tw);
    as_free(c, R.Vc);
    as_free(c, R.Yc);
    as_free(c, R.jc);
    as_free(c, R.thr);
    as_free(c, top.c);
    as_free(c, R.SQ);
    as_free(c, R.D);
    as_free(c, R.Mo);
    as_free(c, R.Mp);
    return c->status;
}
