/* target.c: target mode: Poisson samples over rounds until the estimated error meets 'rel'. */
#include "as_internal.h"

/* Target mode's rounds keep, once X X' is at hand, the Grams of their samples
   split as Y Y' = C + U / m: C = sum x_j x_j' over the columns kept for
   certain (q_j = 1), U = sum x_j x_j' total / p_j over the others (their
   weight^2 1 / q_j = total / (m p_j)). A larger m keeps a superset of the
   columns, so a round adds the Grams of its new columns and moves those that
   became certain from U to C: over all rounds, about one Gram of the last
   sample instead of one a round. */
typedef struct as_round_acc {
    double *C, *U;     /* n x n each; NULL until the first round           */
    int64_t *index, k; /* the previous round's columns (increasing)        */
    int64_t m;         /* and its m                                        */
} as_round_acc;

static void as_round_acc_free(as_round_acc *A, as_common *c)
{
    as_free(c, A->C);
    as_free(c, A->U);
    as_free(c, A->index);
    memset(A, 0, sizeof(*A));
}

/* H = Y Y' of the Poisson sample S (prob, total, m) from the accumulated
   Grams, updated with S's new and newly certain columns. */
static int as_round_gram(const as_matrix *X, const as_sample *S, const double *prob, double total, int64_t m,
                         as_round_acc *A, double *H, as_common *c)
{
    int64_t n = X->nrow, t, u, e, nc = 0, nu = 0, nm = 0;
    int64_t *ic = NULL, *iu = NULL, *im = NULL;
    double *wu = NULL, *wm = NULL, *T = NULL, inv = 1.0 / (double)m;
    int first = A->C == NULL;
    ic = as_malloc(c, (size_t)(S->k > 0 ? S->k : 1), sizeof(int64_t));
    iu = as_malloc(c, (size_t)(S->k > 0 ? S->k : 1), sizeof(int64_t));
    wu = as_malloc(c, (size_t)(S->k > 0 ? S->k : 1), sizeof(double));
    im = as_malloc(c, (size_t)(A->k > 0 ? A->k : 1), sizeof(int64_t));
    wm = as_malloc(c, (size_t)(A->k > 0 ? A->k : 1), sizeof(double));
    T = as_malloc(c, (size_t)(n * n), sizeof(double));
    if (!ic || !iu || !wu || !im || !wm || !T) goto done;
    if (first) {
        A->C = as_calloc(c, (size_t)(n * n), sizeof(double));
        A->U = as_calloc(c, (size_t)(n * n), sizeof(double));
        if (!A->C || !A->U) goto done;
    }
    /* S's columns not in the previous round, split by certainty; the previous
       round's uncertain columns that are certain now (both lists increase) */
    for (t = 0, u = 0; t < S->k; t++) {
        int64_t j = S->index[t];
        int certain = as_poisson_q(m, prob[j], total) == 1;
        while (u < A->k && A->index[u] < j) u++;
        if (u < A->k && A->index[u] == j) {
            if (certain && as_poisson_q(A->m, prob[j], total) < 1) {
                im[nm] = j;
                wm[nm++] = sqrt(total / prob[j]);
            }
            continue;
        }
        if (certain) ic[nc++] = j;
        else {
            iu[nu] = j;
            wu[nu++] = sqrt(total / prob[j]);
        }
    }
    if (nc > 0) {
        if (as_gram(X, nc, ic, NULL, T, c) != AS_OK) goto done;
        for (e = 0; e < n * n; e++) A->C[e] += T[e];
    }
    if (nu > 0) {
        if (as_gram(X, nu, iu, wu, T, c) != AS_OK) goto done;
        for (e = 0; e < n * n; e++) A->U[e] += T[e];
    }
    if (nm > 0) {
        if (as_gram(X, nm, im, wm, T, c) != AS_OK) goto done;
        for (e = 0; e < n * n; e++) A->U[e] -= T[e];
        if (as_gram(X, nm, im, NULL, T, c) != AS_OK) goto done;
        for (e = 0; e < n * n; e++) A->C[e] += T[e];
    }
    for (e = 0; e < n * n; e++) H[e] = A->C[e] + A->U[e] * inv;
    /* this round's columns for the next */
    as_free(c, A->index);
    A->index = as_malloc(c, (size_t)(S->k > 0 ? S->k : 1), sizeof(int64_t));
    if (!A->index) goto done;
    memcpy(A->index, S->index, sizeof(int64_t) * (size_t)S->k);
    A->k = S->k;
    A->m = m;
done:
    as_free(c, ic);
    as_free(c, iu);
    as_free(c, wu);
    as_free(c, im);
    as_free(c, wm);
    as_free(c, T);
    return c->status;
}

/* The exact rel and inf of a sample as its "estimate" (target mode, when the
   bootstrap would cost more than the exact error): X X' once into *G, then
   the sample's Gram each round (from the accumulated Grams when A is given). */
static int as_exact_as_estimate(const as_matrix *X, as_sample *S, const double *prob, double total, int64_t m,
                                as_round_acc *A, double **G, as_common *c)
{
    int64_t n = X->nrow;
    double *H = NULL;
    as_metrics M;
    H = as_malloc(c, (size_t)(n * n), sizeof(double));
    if (!H) return c->status;
    if (*G == NULL) {
        /* the first time: X X' and Y Y' from one pass over X */
        *G = as_malloc(c, (size_t)(n * n), sizeof(double));
        if (!*G || as_gram_pair(X, S->k, S->index, S->weight, *G, H, c) != AS_OK ||
            as_gram_finite(n, *G, "X", c) != AS_OK)
            goto done;
    } else if (A) {
        if (as_round_gram(X, S, prob, total, m, A, H, c) != AS_OK) goto done;
    } else if (as_gram(X, S->k, S->index, S->weight, H, c) != AS_OK) goto done;
    /* Y Y' overflows: the sample stands, its estimate is NaN (as with the bootstrap) */
    if (!as_all_finite(n * n, H)) goto done;
    if (as_compare_view(X, *G, H, 0, &M, c) != AS_OK) goto done;
    S->rel_estimate = M.rel;
    S->inf_estimate = M.inf;
    S->estimate = AS_ESTIMATE_MEASURED;
    S->estimate_why = AS_WHY_MADE;
done:
    as_free(c, H);
    return c->status;
}

/* Poisson sample with m from prob and its estimate (bootstrap round r), or
   its exact error where the bootstrap costs more (as_estimate_affordable,
   X X' shared among `share` samples: the pilots) and from then on (X X' at
   hand in *G, one Gram of Y is cheaper than the bootstrap's 31); out is
   filled (free it with as_sample_free). */
static int as_poisson_round(const as_matrix *X, const double *prob, double total, int64_t m,
                            uint64_t seed, int r, int share, double **G, as_round_acc *A,
                            const double *rowsq, as_sample *out, as_common *c)
{
    double *term = NULL, est = 0, exact;
    as_sample_init(out);
    out->m = m;
    if (as_sample_poisson(X->ncol, prob, total, m, seed, out, &term, c) == AS_OK) {
        if (out->k == 0 || (*G == NULL && as_estimate_affordable(X, out->k, out->index, AS_SAMPLING_POISSON, term, share, &est, &exact)))
            as_estimate(X, out->index, X->ncol, out, AS_SAMPLING_POISSON, term, seed, r, rowsq, 1, c);
        else {
            if (*G == NULL)
                as_progress(c, "target: exact errors from here on (the bootstrap of the %lld kept columns, "
                            "%.3g multiply-adds, costs more than X X')", (long long)out->k, est);
            as_exact_as_estimate(X, out, prob, total, m, A, G, c);
        }
    }
    as_free(c, term);
    if (c->status != AS_OK) as_sample_free(out, c);
    return c->status;
}

/* The bar a smaller sample's estimate must meet in target mode's shrink
   (see as_rand_target): rel when the sample, drawn with m, leaves at least
   rank columns to chance (q_j < 1), else AS_TARGET_SHRINK_MET rel. */
static double as_shrink_bar(const as_sample *S, const double *prob, double total, int64_t m,
                            int64_t rank, double rel)
{
    int64_t t, chance = 0;
    for (t = 0; t < S->k; t++) chance += as_poisson_q(m, prob[S->index[t]], total) < 1;
    return chance >= (rank > 0 ? rank : 1) ? rel : AS_TARGET_SHRINK_MET * rel;
}

int as_rand_target(const as_matrix *X, const as_rand_options *o, const double *lev,
                   const double *nrm, double *prob, as_sample *out, double **Gout, as_common *c)
{
    int64_t d = X->ncol, m0, m, kpos, j, mfloor = 0;
    int cand[3], ncand = 0, t, best = -1, rounds;
    double bestscore = INFINITY, total, *G = NULL, *rowsq = NULL;
    as_round_acc acc;
    memset(&acc, 0, sizeof(acc));
    *Gout = NULL;
    as_sample S, T;
    as_sample_init(&S);
    /* the diagonal of X X', which every round's bootstrap is checked against
       (as_estimate): the rows' squared norms, summed as the block passes sum them */
    rowsq = as_malloc(c, (size_t)(X->nrow > 0 ? X->nrow : 1), sizeof(double));
    if (!rowsq) goto drop;
    {
        as_block_plan P;
        as_block_plan_fill(X->nrow, d, o, &P);
        if (as_block_rowsq_all(&P, X, rowsq, c) != AS_OK) goto drop;
    }
    /* eps given: only the probabilities that carry the spectral guarantee */
    if (o->probabilities == AS_PROB_AUTO) {
        cand[ncand++] = AS_PROB_LEVERAGE;
        if (isnan(o->eps)) cand[ncand++] = AS_PROB_NORM;
        cand[ncand++] = AS_PROB_MIXED;
    } else cand[ncand++] = o->probabilities;
    m0 = AS_PILOT_FACTOR * (out->rank > 0 ? out->rank : 1);
    for (t = 0; t < ncand; t++) {
        double score;
        as_scheme_probabilities(d, cand[t], lev, nrm, prob);
        total = as_sum(d, prob);
        /* X == 0: the empty sample is exact (what was kept so far is dropped) */
        if (!(total > 0)) { out->probabilities = cand[t]; out->rounds = 1; out->estimate = AS_ESTIMATE_EXACT;
                            out->estimate_why = AS_WHY_MADE;
                            out->rel_estimate = out->inf_estimate = 0; goto drop; }
        if (as_poisson_round(X, prob, total, m0, o->seed, 0, ncand, &G, NULL, rowsq, &T, c) != AS_OK) goto drop;
        /* a pilot without an estimate (no column left to chance) is the last choice */
        score = isnan(T.rel_estimate) ? INFINITY : T.rel_estimate * sqrt((double)T.k);
        as_progress(c, "target: pilot %d, m = %lld, k = %lld, estimate %.3g", cand[t],
                    (long long)m0, (long long)T.k, T.rel_estimate);
        if (best < 0 || score < bestscore) {
            as_sample_free(&S, c);
            S = T;
            best = cand[t];
            bestscore = score;
        } else as_sample_free(&T, c);
    }
    as_scheme_probabilities(d, best, lev, nrm, prob);
    total = as_sum(d, prob);
    for (kpos = 0, j = 0; j < d; j++) kpos += prob[j] > 0;
    m = m0;
    rounds = 1;
    /* eps given: the m of the spectral guarantee for the picked probabilities
       (as_default_m, as the default mode's) is a floor; its sample is a
       superset of the pilot's */
    if (!isnan(o->eps)) {
        double ds, meps;
        out->beta = as_scheme_beta(d, out->rank, lev, best, out->s1, o, &ds);
        meps = as_default_m(out->rank, o->eps, ds, out->beta);
        if (!(meps <= (double)AS_M_MAX)) {
            as_error(c, AS_ERR_TOOBIG, "the 'm' of eps = %g, delta = %g is %.3g draws, above %lld: pass a larger 'eps'",
                     o->eps, o->delta, meps, (long long)AS_M_MAX);
            goto drop;
        }
        mfloor = (int64_t)meps;
        if (mfloor > m) {
            if (as_poisson_round(X, prob, total, mfloor, o->seed, rounds, 1, &G, &acc, rowsq, &T, c) != AS_OK) goto drop;
            rounds++;
            as_progress(c, "target: round %d, m = %lld (the floor for eps = %g), k = %lld, estimate %.3g", rounds,
                        (long long)mfloor, o->eps, (long long)T.k, T.rel_estimate);
            as_sample_free(&S, c);
            S = T;
            m = mfloor;
        }
    }
    /* the pilot meets the target with room to spare: a smaller m (whose
       sample is a subset of the pilot's) by the same m^-1/2 law, aiming at
       the bar of the smaller sample; once a smaller m misses, the geometric
       means of it and the smallest m that met, while they differ by more
       than the factor AS_TARGET_SHRINK. The bar is the target when the
       sample leaves at least rank columns to chance, else
       AS_TARGET_SHRINK_MET of it: the bootstrap resamples only the columns
       left to chance, and with fewer of them than dimensions it falls short
       most often, while keeping the smallest of several samples that pass
       picks the ones whose estimate fell short. When the pilot itself is
       under the stricter bar, m stays at least half the pilot's; m stays
       at least the rank (fewer expected columns than dimensions: a sample
       that misses most of X's mass resamples to nearly itself, its
       estimate small whatever its error) and at least eps's floor. An
       estimate of 0 from a sample that leaves columns out, every kept
       column certain, counts as a miss. */
    {
        int64_t mmin = as_shrink_bar(&S, prob, total, m, out->rank, o->rel) < o->rel && m0 / 2 > 1 ? m0 / 2 : 1;
        int64_t miss = 0, mn;
        if (mmin < out->rank) mmin = out->rank;
        if (mmin < mfloor) mmin = mfloor;
        while (S.rel_estimate <= o->rel && rounds < AS_TARGET_ROUNDS) {
            if (miss == 0) {
                double bar = as_shrink_bar(&S, prob, total, m, out->rank, o->rel);
                double f = 1.1 * (S.rel_estimate / bar) * (S.rel_estimate / bar);
                if (f > AS_TARGET_SHRINK || m <= mmin) break;
                mn = (int64_t)floor((double)m * f);
                if (mn < mmin) mn = mmin;
            } else {
                if ((double)miss >= AS_TARGET_SHRINK * (double)m) break;
                mn = (int64_t)floor(sqrt((double)miss * (double)m));
                if (mn <= miss || (double)mn > AS_TARGET_SHRINK * (double)m) break;
            }
            if (as_poisson_round(X, prob, total, mn, o->seed, rounds, 1, &G, NULL, rowsq, &T, c) != AS_OK) goto drop;
            rounds++;
            as_progress(c, "target: round %d, m = %lld, k = %lld, estimate %.3g", rounds, (long long)mn,
                        (long long)T.k, T.rel_estimate);
            if (!(T.rel_estimate <= as_shrink_bar(&T, prob, total, mn, out->rank, o->rel)) ||
                (T.rel_estimate == 0 && T.k < kpos)) {
                as_progress(c, "target: round %d's sample dropped (%s)", rounds,
                            T.rel_estimate > 0 ? "its estimate is above the smaller sample's bar"
                                               : "no column left to chance");
                as_sample_free(&T, c);
                miss = mn;
                continue;
            }
            as_sample_free(&S, c);
            S = T;
            m = mn;
        }
    }
    for (; !(S.rel_estimate <= o->rel) && rounds < AS_TARGET_ROUNDS && S.k < kpos &&
           m < AS_M_MAX; rounds++) {
        /* no estimate (no column left to chance): the largest step */
        double f = isnan(S.rel_estimate) ? 4 : 1.1 * (S.rel_estimate / o->rel) * (S.rel_estimate / o->rel);
        /* at most 4x a round: a small pilot's estimate is not yet on the m^-1/2 law */
        double mn = ceil((double)m * (f < 1.25 ? 1.25 : f > 4 ? 4 : f));
        m = mn < (double)AS_M_MAX ? (int64_t)mn : AS_M_MAX;
        if (as_poisson_round(X, prob, total, m, o->seed, rounds, 1, &G, &acc, rowsq, &T, c) != AS_OK) goto drop;
        as_progress(c, "target: round %d, m = %lld, k = %lld, estimate %.3g", rounds + 1,
                    (long long)m, (long long)T.k, T.rel_estimate);
        as_sample_free(&S, c);
        S = T;
    }
    out->k = S.k;
    out->index = S.index;
    out->weight = S.weight;
    out->m = m;
    out->rel_estimate = S.rel_estimate;
    out->inf_estimate = S.inf_estimate;
    out->estimate = S.estimate;
    out->estimate_why = S.estimate_why;
    out->probabilities = best;
    out->rounds = rounds;
    *Gout = G;
    as_round_acc_free(&acc, c);
    as_free(c, rowsq);
    return AS_OK;
drop:   /* an error, or X == 0 */
    as_round_acc_free(&acc, c);
    as_free(c, rowsq);
    as_free(c, G);
    as_sample_free(&S, c);
    return c->status;
}
