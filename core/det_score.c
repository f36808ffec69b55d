/* det_score.c: the column scores of a barrier step: a barrier's resolvent by Woodbury's identity, U_j and L_j of a range of columns over the threads, the best candidates ranked in a total order, and the search tree's walk matrix (det_bss.h has the design). */
#include "det_bss.h"
#include <string.h>

#define AS_DET_GAP_BITS     32    /* the ranking's resolution: 2^-32 of max(|U|, |L|)    */

/* a is better than b: larger gap, then smaller column (a total order, so the
   best of a range does not depend on how it was split between threads). */
static int as_det_better(const as_det_cand *a, const as_det_cand *b)
{
    if (a->j < 0) return 0;
    if (b->j < 0) return 1;
    return a->gap > b->gap || (a->gap == b->gap && a->j < b->j);
}

void as_det_top_add(as_det_top *T, const as_det_cand *x)
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
void as_det_offer(as_det_top *top, int64_t j, double su, double sl)
{
    as_det_cand cand;
    if (!(su > 0) || !(sl - su > 0) || !isfinite(sl)) return;
    cand.j = j;
    cand.gap = as_det_gap_key(su, sl);
    cand.U = su;
    cand.L = sl;
    as_det_top_add(top, &cand);
}

/* out (r x nb) = M X(:, cols), cols jj[0..nb) or j0 .. j0 + nb - 1 (jj NULL), M r x n. */
void as_det_cols(const as_det_run *R, as_det_ws *ws, const double *M, const int64_t *jj, int64_t j0,
                 int64_t nb, double *out)
{
    const as_matrix *X = R->X;
    int64_t t;
    if (nb <= 0) return;
    if (X->kind == AS_DENSE && X->ld <= AS_INT_MAX) {
        int ri = (int)R->r, ni = (int)R->n, nbi, ldx = (int)X->ld;
        double one = 1.0, zero = 0.0;
        int64_t t0;
        if (!jj) {
            nbi = (int)nb;
            dgemm_("N", "N", &ri, &nbi, &ni, &one, M, &ri, X->x + j0 * X->ld, &ldx, &zero, out, &ri, 1, 1);
            return;
        }
        /* gathered, a block at a time */
        for (t0 = 0; t0 < nb; t0 += AS_DET_SCORE_BLOCK) {
            int64_t t1 = t0 + AS_DET_SCORE_BLOCK < nb ? t0 + AS_DET_SCORE_BLOCK : nb;
            for (t = t0; t < t1; t++)
                memcpy(ws->Xg + (t - t0) * R->n, X->x + jj[t] * X->ld, sizeof(double) * (size_t)R->n);
            nbi = (int)(t1 - t0);
            dgemm_("N", "N", &ri, &nbi, &ni, &one, M, &ri, ws->Xg, &ni, &zero, out + t0 * R->r, &ri, 1, 1);
        }
        return;
    }
#ifdef _OPENMP
#pragma omp parallel for num_threads(R->nt) schedule(dynamic, 16) if (nb >= 64 && R->nt > 1)
#endif
    for (t = 0; t < nb; t++) as_det_apply(X, jj ? jj[t] : j0 + t, M, R->r, out + t * R->r);
}

/* The side at x (sign 1: upper barrier, -1: lower) for the current A. 0; 1 when
   x is not strictly beyond the base's eigenvalues; 2 when T^-1 - G'H is not
   positive definite (upper: A reached x); 3 (lower) when the Woodbury
   correction cancels too much of sum(D). */
int as_det_side_at(as_det_run *R, double x, int sign, as_det_side *S)
{
    int64_t r = R->r, m = R->m, i, a, b, k0;
    int ri = (int)r, mi = (int)m, ni, ldc = (int)R->mc, info = 0;
    double tr = 0, one = 1.0, zero = 0.0;
    if (S->x != x || S->base != R->refreshes || S->mk > m) {
        /* a new barrier or base: D anew (the columns' terms below) */
        double dsum = 0;
        for (i = 0; i < r; i++) {
            double g = sign > 0 ? x - R->lam[i] : R->lam[i] - x;
            if (!(g > 0)) {
                S->base = -1;
                return 1;
            }
            S->d[i] = 1.0 / g;
            dsum += S->d[i];
        }
        S->dsum = dsum;
        S->x = x;
        S->base = R->refreshes;
        S->mk = 0;
    }
    S->phi = S->dsum;
    if (m == 0) return 0;
    /* the columns added since this side was last computed: H, and the new
       columns of the symmetric G'H and H'H (their new rows by symmetry) */
    k0 = S->mk;
    if (k0 < m) {
        ni = (int)(m - k0);
        for (b = k0; b < m; b++)
            for (i = 0; i < r; i++) S->H[i + b * r] = S->d[i] * R->G[i + b * r];
        dgemm_("T", "N", &mi, &ni, &ri, &one, R->G, &ri, S->H + k0 * r, &ri, &zero, S->GH + k0 * R->mc, &ldc, 1, 1);
        dgemm_("T", "N", &mi, &ni, &ri, &one, S->H, &ri, S->H + k0 * r, &ri, &zero, S->HH + k0 * R->mc, &ldc, 1, 1);
        /* the upper triangles (row <= column) are complete; HH's lower from them */
        for (b = 0; b < m; b++)
            for (a = (b + 1 > k0 ? b + 1 : k0); a < m; a++) S->HH[a + b * R->mc] = S->HH[b + a * R->mc];
        S->mk = m;
    }
    for (b = 0; b < m; b++)
        for (a = b; a < m; a++) S->K[a + b * m] = -sign * S->GH[b + a * R->mc];
    for (a = 0; a < m; a++) S->K[a + a * m] += 1.0 / R->tg[a];
    dpotrf_("L", &mi, S->K, &mi, &info, 1);
    if (info != 0) return 2;
    dpotri_("L", &mi, S->K, &mi, &info, 1);
    if (info != 0) return 2;
    for (b = 0; b < m; b++)
        for (a = b + 1; a < m; a++) S->K[b + a * m] = S->K[a + b * m];
    for (b = 0; b < m; b++)
        for (a = 0; a < m; a++) tr += S->K[a + b * m] * S->HH[a + b * R->mc];
    S->phi = S->dsum + sign * tr;
    if (sign < 0 && !(S->phi * AS_DET_CANCEL > S->dsum)) return 3;
    return 0;
}

/* U_j and L_j of nb columns with eigen coordinates Wb (r x nb), offered to top;
   the columns are jj[t] or j0 + t. */
void as_det_score_cols(const as_det_run *R, as_det_ws *ws, const double *Wb, int64_t nb,
                       const int64_t *jj, int64_t j0, as_det_top *top)
{
    int64_t r = R->r, m = R->m, t, i, side;
    int ri = (int)r, mi = (int)m, nbi = (int)nb;
    double one = 1.0, zero = 0.0;
    if (nb <= 0) return;
    for (side = 0; side < 2; side++) {
        const as_det_side *S = side == 0 ? R->SU : R->SL;
        double sg = side == 0 ? 1.0 : -1.0;
        if (m > 0) {
            dgemm_("T", "N", &mi, &nbi, &ri, &one, S->H, &ri, Wb, &ri, &zero, ws->Ab, &mi, 1, 1);
            dgemm_("N", "N", &mi, &nbi, &mi, &one, S->K, &mi, ws->Ab, &mi, &zero, ws->Bb, &mi, 1, 1);
            dgemm_("N", "N", &ri, &nbi, &mi, &one, S->H, &ri, ws->Bb, &mi, &zero, ws->Yb, &ri, 1, 1);
        }
        for (t = 0; t < nb; t++) {
            const double *w = Wb + t * r, *y = ws->Yb + t * r;
            double vmv = 0, yy = 0, sl;
            if (m > 0) {
                for (i = 0; i < r; i++) {
                    double dw = S->d[i] * w[i], yi = dw + sg * y[i];
                    vmv += dw * w[i];
                    yy += yi * yi;
                }
                for (i = 0; i < m; i++) vmv += sg * ws->Ab[i + t * m] * ws->Bb[i + t * m];
            } else {
                for (i = 0; i < r; i++) {
                    double dw = S->d[i] * w[i];
                    vmv += dw * w[i];
                    yy += dw * dw;
                }
            }
            if (side == 0) {
                ws->su[t] = vmv + yy / R->dphiU;
                continue;
            }
            sl = yy / R->dphiL - vmv;
            as_det_offer(top, jj ? jj[t] : j0 + t, ws->su[t], sl);
        }
    }
}

/* Score columns j0 .. j1 - 1 in chunks of AS_DET_SCORE_BLOCK columns from j0,
   spread over the threads (the BLAS on one thread), the threads' best merged
   into top (a total order: the same result for any split), with an interrupt
   check between rounds of chunks (a chunk is 2 r n flops a column: a
   fraction of a second at any rank this runs at). The chunks do not depend
   on the thread count: a column's scores come from dgemm calls over its
   chunk, whose last bits depend on the chunk's width. */
int as_det_score_range(as_det_run *R, int64_t j0, int64_t j1, as_det_top *top, as_common *c)
{
    int64_t per = AS_DET_SCORE_BLOCK, j, nt = R->nt;
    for (j = j0; j < j1; j += per * nt) {
        int64_t jr = j, t, u, nch = (j1 - j + per - 1) / per;
        if (nch > nt) nch = nt;
        if (j > j0 && as_interrupted(c)) return c->status;
#ifdef _OPENMP
#pragma omp parallel for num_threads((int)nch) schedule(static, 1) if (nch > 1)
#endif
        for (t = 0; t < nch; t++) {
            as_det_ws *ws = &R->ws[t];
            as_det_top mine;
            int64_t a = jr + t * per, nb = j1 - a < per ? j1 - a : per;
            mine.cap = top->cap;
            mine.len = 0;
            mine.c = ws->cand;
            as_det_cols(R, ws, R->Z, NULL, a, nb, ws->Wb);
            as_det_score_cols(R, ws, ws->Wb, nb, NULL, a, &mine);
            ws->ncand = mine.len;
        }
        for (t = 0; t < nch; t++)
            for (u = 0; u < R->ws[t].ncand; u++) as_det_top_add(top, &R->ws[t].cand[u]);
    }
    return AS_OK;
}

/* The walk's matrix: B = BL - BU with BU = MU^2 / dphiU + MU, BL = ML^2 / dphiL - ML
   (MU, ML the resolvents at u', l'), so that <x x', B> = L - U for a column,
   in the tree's coordinates: Q B~ Q' (whitened tree) or Z' B~ Z (a tree of X's
   own columns), B~ = Q'BQ = diag(f) + C S C' with C = [HL, DL HL, HU, DU HU]:
   from M = D + s H K H' (s = 1: U, -1: L),
   M^2 = D^2 + s (E K H' + H K E') + H K (H'H) K H', E = D H. Mp gets it packed
   (lower triangle by columns, off-diagonal doubled). */
int as_det_walk_matrix(as_det_run *R, as_common *c)
{
    int64_t r = R->r, m = R->m, p = R->p, i, a, b, kp = 0, kn = 0, e = 0;
    int ri = (int)r, pi = (int)p, m4 = (int)(4 * m), mi = (int)m, ldm = (int)R->mc, side;
    double one = 1.0, zero = 0.0;
    const as_det_side *U = R->SU, *L = R->SL;
    /* the diagonal part, by two rank-k updates: rows of E' (k x p) scaled by sqrt|f_i| */
    for (i = 0; i < r; i++) {
        double dl = L->d[i], du = U->d[i];
        R->f[i] = dl * dl / R->dphiL - dl - du * du / R->dphiU - du;
        kp += R->f[i] > 0;
    }
    for (i = 0, a = 0; i < r; i++) {
        int pos = R->f[i] > 0;
        int64_t dst = pos ? a++ : kp + kn++;
        double sc = sqrt(fabs(R->f[i]));
        for (b = 0; b < p; b++) R->Et[dst + b * r] = sc * (R->P->white ? R->Q[b + i * r] : R->Z[i + b * r]);
    }
    if (as_syrk_blocks("L", "T", p, kp, 1.0, R->Et, r, 0.0, R->Mt, p, c) != AS_OK ||
        (kn > 0 && as_syrk_blocks("L", "T", p, kn, -1.0, R->Et + kp, r, 1.0, R->Mt, p, c) != AS_OK) ||
        as_interrupted(c))
        return c->status;
    if (m > 0) {
        /* C and S (4m x 4m, zero but for the blocks below) */
        for (i = 0; i < 16 * m * m; i++) R->Sm[i] = 0;
        for (side = 0; side < 2; side++) {
            const as_det_side *S = side == 0 ? L : U;
            double dphi = side == 0 ? R->dphiL : R->dphiU, al = side == 0 ? 1.0 : -1.0;
            int64_t o = 2 * m * side;   /* the side's first column in C */
            double *Hs = R->C + o * r, *Es = R->C + (o + m) * r, *KHH = R->T1;
            for (b = 0; b < m; b++)
                for (i = 0; i < r; i++) {
                    Hs[i + b * r] = S->H[i + b * r];
                    Es[i + b * r] = S->d[i] * S->H[i + b * r];
                }
            /* S's blocks: al (K HH K / dphi + K); -K / dphi off the diagonal */
            dgemm_("N", "N", &mi, &mi, &mi, &one, S->K, &mi, S->HH, &ldm, &zero, KHH, &mi, 1, 1);
            dgemm_("N", "N", &mi, &mi, &mi, &one, KHH, &mi, S->K, &mi, &zero, R->EC, &mi, 1, 1);
            for (b = 0; b < m; b++)
                for (a = 0; a < m; a++) {
                    double k = S->K[a + b * m];
                    R->Sm[(o + a) + (o + b) * 4 * m] = al * (R->EC[a + b * m] / dphi + k);
                    R->Sm[(o + m + a) + (o + b) * 4 * m] = -k / dphi;
                    R->Sm[(o + a) + (o + m + b) * 4 * m] = -k / dphi;
                }
        }
        /* EC = E' C (p x 4m), T1 = EC S, Mt += T1 EC' */
        if (R->P->white)
            dgemm_("N", "N", &pi, &m4, &ri, &one, R->Q, &ri, R->C, &ri, &zero, R->EC, &pi, 1, 1);
        else
            dgemm_("T", "N", &pi, &m4, &ri, &one, R->Z, &ri, R->C, &ri, &zero, R->EC, &pi, 1, 1);
        dgemm_("N", "N", &pi, &m4, &m4, &one, R->EC, &pi, R->Sm, &m4, &zero, R->T1, &pi, 1, 1);
        dgemm_("N", "T", &pi, &pi, &m4, &one, R->T1, &pi, R->EC, &pi, &one, R->Mt, &pi, 1, 1);
    }
    for (b = 0; b < p; b++) {
        R->Mp[e++] = R->Mt[b + b * p];
        for (a = b + 1; a < p; a++) R->Mp[e++] = 2.0 * R->Mt[a + b * p];
    }
    return AS_OK;
}
