/* refit_cd.c: the refit without the k x k normal equations (of a large sample, and of the greedy method's kept columns where the k x k solve costs too much): projected gradient steps on the greedy method's weighted proxy, Y Y' kept current by low-rank updates, the exact rel checked at regular steps and the best weights kept. Memory O(n^2 + n k). */
#include "refit_cd.h"

/* H is computed anew from the weights, and its exact rel compared, every
   this many steps (the low-rank updates in between drift by rounding). */
#define KF_EXACT 4
/* Halvings of a step whose clipped weights raise f. */
#define KF_HALVE 4

/* Kept column a's candidate (its score and norm): the greedy method's kept
   columns are among its candidates (s->sel), a sample's are its candidates. */
#define KF_CAND(s, a) ((s)->sel ? (s)->sel[a] : (a))

typedef struct kf_work {
    double *Q, *Hold, *T;    /* n x n: the step's X diag(d) X', H before it, a product */
    double *m;               /* n: the row-centring of Q              */
    double *d, *wn, *cv, *wt; /* k: the direction, the trial weights, the clipped part, a Gram's weights */
    double *p;               /* k: the last step's scaled gradient (score / norm) */
    double gp;               /* its product with the scores (0: none: the next step starts anew) */
    int64_t *idx;            /* k: a Gram's columns of X              */
} kf_work;

double as_refit_kfree_bytes(int64_t n, int64_t k, int64_t entries)
{
    double nd = (double)n;
    /* n x n: X X', its attention, H, R, M, X X' handed back, the step's three, as_gram's two;
       k: 20 vectors; alpha at the stored entries; the passes' three blocks */
    return 8.0 * (12.0 * nd * nd + 20.0 * (double)k + (double)entries + 3.0 * (256.0 * nd + 1048576.0));
}

int as_refit_kfree_load(gr_state *s, const double *w2, as_common *c)
{
    int64_t k = s->nc, a;
    size_t m = (size_t)(k > 0 ? k : 1);
    s->score = as_malloc(c, m, sizeof(double));
    s->norm = as_malloc(c, m, sizeof(double));
    s->in = as_calloc(c, m, 1);
    s->w = as_malloc(c, m, sizeof(double));
    s->sw = as_malloc(c, m, sizeof(double));
    s->col = as_malloc(c, m, sizeof(int64_t));
    if (!s->score || !s->norm || !s->in || !s->w || !s->sw || !s->col || as_gr_prepare(s, c) != AS_OK)
        return c->status;
    s->k = k;
    for (a = 0; a < k; a++) {
        s->col[a] = s->cand[a];
        s->w[a] = w2[a];
    }
    return as_gr_make_h(s, s->H, c);
}

/* f = sum_ij W_ij R_ij^2 of the current R = L(G - H) (see the top of greedy.c). */
static double kf_objective(const gr_state *s)
{
    int64_t n = s->n, i, j, e;
    double f = 0;
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++) f += s->u[i] * s->R[i + j * n] * s->R[i + j * n];
    for (e = 0; e < s->ne; e++) {
        double r = s->R[s->E[e].i + s->E[e].l * s->n];
        f += s->E[e].z * r * r;
    }
    return f;
}

/* ||L(Q)||_W^2 of a symmetric Q: L(Q)_ij = Q_ij - sum_l A_il Q_il. */
static double kf_norm_l(const gr_state *s, const double *Q, double *m)
{
    int64_t n = s->n, i, j, e;
    double f = 0;
    for (i = 0; i < n; i++) {
        double mi = 0, row = 0;
        /* row i of Q is its column i */
        for (j = 0; j < n; j++) mi += s->A[i + j * n] * Q[j + i * n];
        for (j = 0; j < n; j++) row += (Q[j + i * n] - mi) * (Q[j + i * n] - mi);
        m[i] = mi;
        f += s->u[i] * row;
    }
    for (e = 0; e < s->ne; e++) {
        double r = Q[s->E[e].i + s->E[e].l * n] - m[s->E[e].i];
        f += s->E[e].z * r * r;
    }
    return f;
}

/* T = sum of |v_a| x_a x_a' over the kept columns with sign v_a = sign. */
static int kf_gram(gr_state *s, kf_work *K, const double *v, double sign, double *T, as_common *c)
{
    int64_t a, m = 0;
    for (a = 0; a < s->k; a++)
        if (sign * v[a] > 0) {
            K->idx[m] = s->col[a];
            K->wt[m] = sqrt(sign * v[a]);
            m++;
        }
    if (m == 0) {
        memset(T, 0, sizeof(double) * (size_t)(s->n * s->n));
        return AS_OK;
    }
    return as_gram(s->X, m, K->idx, K->wt, T, c);
}

/* One step from the current weights (H, R and M theirs, *f their objective):
   the direction d_a = score_a / norm_a (each column's own best move; none
   down from a weight at 0), the exact minimum t of f along it, the weights
   max(0, w + t d) and H + t X diag(d) X' + the clipped columns' rank-one
   corrections; t halved while that raises f. *moved 0: no step lowers f. */
static int kf_step(gr_state *s, kf_work *K, double *f, int *moved, as_common *c)
{
    int64_t k = s->k, a, ii, nn = s->n * s->n;
    double num = 0, den, t;
    int h;
    *moved = 0;
    double gp = 0, gy = 0, beta = 0;
    if (as_gr_scores_kept(s, c) != AS_OK) return c->status;
    /* the scaled gradient p_a = score_a / norm_a, none down from a weight at 0
       (nor for a column held at 0); the direction p + beta d_last (Polak-Ribiere, scaled) */
    for (a = 0; a < k; a++) {
        int64_t q = KF_CAND(s, a);
        double g = s->score[q], nr = s->norm[q], v = nr > 0 ? g / nr : 0;
        v = isfinite(v) && (s->w[a] > 0 || v > 0) && !(s->ban && s->ban[a]) ? v : 0;
        gp += g * v;
        gy += g * (v - K->p[a]);
        K->p[a] = v;
    }
    if (!(gp > 0)) return AS_OK;
    if (K->gp > 0) beta = fmax(0.0, gy / K->gp);
    K->gp = gp;
    for (a = 0; a < k; a++) {
        double v = K->p[a] + beta * K->d[a];
        K->d[a] = beta > 0 && !(s->w[a] > 0 || v > 0) ? 0 : v;
        num += K->d[a] * s->score[KF_CAND(s, a)];
    }
    if (!(num > 0)) {
        /* not a descent direction: the scaled gradient alone */
        num = gp;
        gr_copy(K->d, K->p, sizeof(double) * (size_t)k);
    }
    if (kf_gram(s, K, K->d, 1.0, K->Q, c) != AS_OK || kf_gram(s, K, K->d, -1.0, K->T, c) != AS_OK)
        return c->status;
    for (ii = 0; ii < nn; ii++) K->Q[ii] -= K->T[ii];
    den = kf_norm_l(s, K->Q, K->m);
    if (!(den > 0)) return AS_OK;
    t = num / den;
    gr_copy(K->Hold, s->H, sizeof(double) * (size_t)nn);
    for (h = 0; h <= KF_HALVE; h++, t /= 2) {
        double fn;
        int clip = 0;
        for (a = 0; a < k; a++) {
            double v = s->w[a] + t * K->d[a];
            K->wn[a] = v > 0 ? v : 0;
            K->cv[a] = v < 0 ? -v : 0;
            clip |= v < 0;
        }
        for (ii = 0; ii < nn; ii++) s->H[ii] = K->Hold[ii] + t * K->Q[ii];
        if (clip) {
            if (kf_gram(s, K, K->cv, 1.0, K->T, c) != AS_OK) return c->status;
            for (ii = 0; ii < nn; ii++) s->H[ii] += K->T[ii];
        }
        as_gr_make_m(s, s->H, c);
        fn = kf_objective(s);
        if (fn < *f) {
            gr_copy(s->w, K->wn, sizeof(double) * (size_t)k);
            *f = fn;
            *moved = 1;
            return AS_OK;
        }
        if (as_interrupted(c)) return c->status;
    }
    gr_copy(s->H, K->Hold, sizeof(double) * (size_t)nn);
    as_gr_make_m(s, s->H, c);
    return AS_OK;
}

/* H computed anew from the weights, its exact rel (rowrel theirs) kept in
   *best when below *brel; R, M and *f of it. */
static int kf_exact(gr_state *s, gr_snap *best, double *brel, double *f, double *rel, as_common *c)
{
    if (as_gr_make_h(s, s->H, c) != AS_OK) return c->status;
    *rel = as_gr_rel(s, s->H, s->rowrel, c);
    if (*rel < *brel) {
        *brel = *rel;
        as_gr_snap_take(s, best);
    }
    as_gr_make_m(s, s->H, c);
    *f = kf_objective(s);
    return AS_OK;
}

int as_refit_kfree(gr_state *s, const as_kfree_plan *plan, double *rel, as_common *c)
{
    int64_t n = s->n, k = s->k, nn = n * n;
    size_t k1 = (size_t)(k > 0 ? k : 1);
    kf_work K;
    gr_snap best;
    double brel, f, r = INFINITY;
    int round, st, moved, since = 0;
    memset(&K, 0, sizeof K);
    memset(&best, 0, sizeof best);
    K.Q = as_malloc(c, (size_t)(nn > 0 ? nn : 1), sizeof(double));
    K.Hold = as_malloc(c, (size_t)(nn > 0 ? nn : 1), sizeof(double));
    K.T = as_malloc(c, (size_t)(nn > 0 ? nn : 1), sizeof(double));
    K.m = as_malloc(c, (size_t)(n > 0 ? n : 1), sizeof(double));
    K.d = as_calloc(c, k1, sizeof(double));
    K.wn = as_malloc(c, k1, sizeof(double));
    K.cv = as_malloc(c, k1, sizeof(double));
    K.wt = as_malloc(c, k1, sizeof(double));
    K.idx = as_malloc(c, k1, sizeof(int64_t));
    K.p = as_calloc(c, k1, sizeof(double));
    if (!K.p || !K.Q || !K.Hold || !K.T || !K.m || !K.d || !K.wn || !K.cv || !K.wt || !K.idx ||
        as_gr_snap_alloc(s, k, &best, c) != AS_OK)
        goto done;
    /* the start: the weights given, their exact rel */
    brel = INFINITY;
    if (kf_exact(s, &best, &brel, &f, &r, c) != AS_OK) goto done;
    if (!plan->start) brel = INFINITY;   /* the start is kept only when no step moves */
    for (round = 0; round < plan->rounds; round++) {
        if (round > 0) {
            /* Lawson's step from the last exact errors */
            as_gr_reweight(s);
            K.gp = 0;
            as_gr_make_m(s, s->H, c);
            f = kf_objective(s);
        }
        for (st = 0; st < plan->steps; st++) {
            double f0 = f;
            if (as_interrupted(c) || kf_step(s, &K, &f, &moved, c) != AS_OK) goto done;
            if (!moved) break;
            if (++since == KF_EXACT) {
                since = 0;
                if (kf_exact(s, &best, &brel, &f, &r, c) != AS_OK) goto done;
            }
            if (brel < INFINITY)
                as_status(c, "refit: round %d step %d: f %.6g, best rel %.4g%%", round + 1, st + 1, f, 100 * brel);
            else   /* no exact rel of these steps yet (the start is not kept) */
                as_status(c, "refit: round %d step %d: f %.6g", round + 1, st + 1, f);
            if (!(f0 - f >= plan->tol * f0)) break;
        }
        if (since > 0 || st == 0) {
            since = 0;
            if (kf_exact(s, &best, &brel, &f, &r, c) != AS_OK) goto done;
        }
    }
    /* the best weights, H and the rows' errors theirs */
    as_gr_snap_put(s, &best);
    if (as_gr_make_h(s, s->H, c) != AS_OK) goto done;
    *rel = as_gr_rel(s, s->H, s->rowrel, c);
done:
    as_free(c, K.Q);
    as_free(c, K.Hold);
    as_free(c, K.T);
    as_free(c, K.m);
    as_free(c, K.d);
    as_free(c, K.wn);
    as_free(c, K.cv);
    as_free(c, K.wt);
    as_free(c, K.idx);
    as_free(c, K.p);
    as_gr_snap_free(&best, c);
    return c->status;
}

/* The K-free fit of many kept columns: steps per round at most, and the
   share of f a step must gain for the round to go on. */
#define GR_KFREE_STEPS 40
#define GR_KFREE_TOL 1e-4
/* ... the steps a K-free refit takes, counted for its cost (as_gr_kfree): about
   half of its rounds' most. */
#define GR_KFREE_COST 60.0
/* ... and taken where it costs at most this share of the K-based fit's, and
   that one at least AS_GREEDY_KFREE_LONG multiply-adds (greedy_shared.h). */
#define GR_KFREE_SAVE 8.0

/* Whether the kept columns are fitted without K (as_refit_kfree) rather than
   with the k x k normal equations (greedy_fit.c): past s->kfit columns
   always (the K-based arrays' memory, 5 k^2 doubles), and before where the
   K-free fit costs far less. The K-based refit costs gr_kfit_cost; a K-free
   step about three weighted Grams of the kept columns (the step's two and
   the scores' pass: sum_a nnz(x_a)^2 multiply-adds each) and eight passes
   over n x n arrays (the error, the objective, the update of Y Y'),
   GR_KFREE_COST steps a refit. Its steps converge only part of the way
   where the kept columns are correlated, and a less exact fit keeps more
   columns, so it is taken only where the K-based refit takes long (about a
   second: past 1154 columns on 200 rows) and the K-free one costs at most
   1 / GR_KFREE_SAVE of it: on dense columns past k of about 65 n (ALL, 128
   rows, never: it keeps at most 2592), on sparse ones from the first bound
   (a 200 x 20000 document-term matrix at 5%: 1875 columns in 12 s, where the
   K-based fit alone kept 1888 in 76 s).
   With no bound but the share, the generated document-term matrices of make
   bench-robust (50 to 300 rows) kept a median 18% more columns at 1%. */
int as_gr_kfree(const gr_state *s)
{
    double k = (double)s->k, n = (double)s->n, gram = 0, kcost;
    int64_t a;
    if (s->k > s->kfit) return 1;
    for (a = 0; a < s->k; a++) {
        double nz = (double)as_col_nnz(s->X, s->col[a]);
        gram += nz * nz;
    }
    kcost = gr_kfit_cost(n, k);
    return kcost > AS_GREEDY_KFREE_LONG && GR_KFREE_SAVE * GR_KFREE_COST * (3.0 * gram + 8.0 * n * n) < kcost;
}

/* The refit of the kept columns and its reweighting (*rel, H, the rows'
   errors theirs), with K or without (as_gr_kfree). Both count k^2 of work (the
   prune's budget). */
int as_gr_refit(gr_state *s, double *rel, as_common *c)
{
    as_kfree_plan plan = {0, GR_KFREE_STEPS, GR_KFREE_TOL, 0};
    if (!as_gr_kfree(s)) return as_gr_fit(s, rel, c);
    plan.rounds = 1 + s->path.lawson;
    s->work += (double)s->k * (double)s->k;
    s->fresh = 0;
    return as_refit_kfree(s, &plan, rel, c);
}
