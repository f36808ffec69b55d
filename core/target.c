/* target.c: target mode: Poisson samples whose m is predicted from a pilot's error estimate, as steps that say which columns of X they need (in memory, or gathered by a block run). */
#include "as_internal.h"
#include "calibrate.h"
#include "estimate.h"
#include "metrics.h"
#include "rand.h"
#include "rand_passes.h"
#include "sample.h"
#include "target.h"

/* as_rand: sample o->m (or the default) columns i.i.d. from
   the chosen probabilities, merge repeats, reweight (or Poisson sampling);
   then the error estimate o->estimate asks for, from the kept columns alone:
   GAUSSIAN (the default): the sampling variance of the error of Y Y' (a
   column left to chance counts with 1 - q, Poisson, or with the multinomial
   variance of its draw count, i.i.d.), estimated without bias from the kept
   columns by one Gram of their transformed squares, carried through the
   linearized, row-centred softmax to each entry's log-ratio
   log(Att(Y)/Att(X)) (the diagonal's known from the rows' squared norms),
   and the AS_ESTIMATE_QUANTILE quantile of the largest entry error from the
   union of the entries' Gaussian tails: two Grams of Y in all
   (core/estimate_gauss.c). BOOTSTRAP: each resample reweights the sampled
   terms (i.i.d.: a column drawn c times gets Poisson(c) / c; Poisson: a kept
   column with q < 1 gets 1 + (W - 1) sqrt(1 - q), W ~ Poisson(1), which has
   the variance of the sampling), forms H* and takes rel(Att(H*), Att(H));
   the estimate is a high quantile of these: AS_ESTIMATE_B Grams of Y more.
   Target mode (o->rel not NaN): Poisson pilots with m = AS_PILOT_FACTOR *
   rank per candidate probabilities (all three under AS_PROB_AUTO); then m
   is predicted from the estimate's spread (the variance of the columns left
   to chance at m against the sample's own, AS_TARGET_MARGIN to spare), and
   the pilot kept is the one whose probabilities keep the fewest columns at
   its predicted m (expected k = sum_j min(1, m p_j)). Each round is a
   superset of the last's columns (at least 1.25 times its m when it misses,
   and at most AS_TARGET_GROW times when its estimate rests on fewer than
   AS_TARGET_FEW columns left to chance), until rel_estimate <= rel, every column
   kept, m at AS_M_MAX or AS_TARGET_ROUNDS samples. When a sample meets rel
   with room to spare (the predicted m below AS_TARGET_SHRINK times its
   own), the smaller m is tried (a subset, kept when its estimate meets rel,
   not below the rank); once a smaller m misses, the geometric mean of it
   and the smallest m that met, while they differ by more than
   AS_TARGET_SHRINK. With eps given (not
   NaN), only leverage and mixed probabilities are candidates and m is at
   least as_default_m(rank, eps, delta_s, beta) of the picked ones, the
   default mode's m for that eps: the matrix Chernoff bound holds for
   Poisson sampling with that m as for m i.i.d. draws (independent terms,
   each certain one split into many small ones, the others of norm at most
   beta rank / m). out->rounds counts the samples of the chosen
   probabilities, dropped ones too. X X' is formed only when the exact error
   is asked for, and then judges the pilots too and checks the sample chosen,
   growing one that misses and shrinking one that meets the target
   (as_target_check, as_target_shrink), each sample it judges calibrated to
   X's squared norm, and the last one to its rows' too, when that lowers its
   exact rel (as_target_exact_rel). */

/* A sample of target mode: Poisson with m from the picked probabilities; q
   of each kept column. A larger m keeps a superset of the columns. */
typedef struct as_tsample {
    as_result S;
    double   *q;
    double   *g;         /* ||x_j||^4 of each kept column (once estimated)  */
    int64_t   m;
    double    exact;     /* its exact rel, once computed (X X' at hand); else NaN */
    double   *fac;       /* k: the factors of the calibration that lowered its exact rel on the
                            terms of Y Y', or NULL (as_target_exact_rel)                       */
} as_tsample;

struct as_target {
    const as_rand_options *o;
    const as_matrix *X;      /* NULL: block input (columns come to as_target_step) */
    int64_t d, rank, s1, kpos;
    const double *lev, *nrm, *rowsq;
    double *prob, total, beta;   /* beta: of the eps floor (NaN: none) */
    int cand[3], ncand, best, rounds, done, pending;
    int64_t mfloor, mmin, met_m, miss_m;
    as_tsample pilot[3], S, T;   /* the pilots, the kept sample, the next one  */
    int64_t *want, nwant;        /* columns the pending samples need          */
    int64_t *pos;                /* block input: place of column j among the gathered (-1: not) */
    int64_t ngathered;
    const double *G;             /* X X' (the exact error asked for), or NULL                */
    int checking, checked, exact_rounds;  /* the exact check: growing; done; its rounds     */
    int rake;                    /* the samples judged exactly are raked too (the shrink's last part) */
    int64_t exact_miss;          /* the largest m whose exact rel missed the target (0: none) */
    as_tsample rival[2];         /* pilots not picked whose exact rel met the target          */
    int rival_scheme[2], nrival;
};

/* An empty sample: nothing to free, its exact rel unknown. */
static void as_tsample_clear(as_tsample *t)
{
    memset(t, 0, sizeof(*t));
    as_result_init(&t->S);
    t->exact = NAN;
}

static void as_tsample_free(as_tsample *t, as_common *c)
{
    as_result_free(&t->S, c);
    as_free(c, t->q);
    as_free(c, t->g);
    as_free(c, t->fac);
    as_tsample_clear(t);
}

/* src into dst (dst's own columns freed first); src left empty. */
static void as_tsample_move(as_tsample *dst, as_tsample *src, as_common *c)
{
    as_tsample_free(dst, c);
    *dst = *src;
    as_tsample_clear(src);
}

void as_target_free(as_target *T, as_common *c)
{
    int t;
    if (!T) return;
    for (t = 0; t < 3; t++) as_tsample_free(&T->pilot[t], c);
    for (t = 0; t < 2; t++) as_tsample_free(&T->rival[t], c);
    as_tsample_free(&T->S, c);
    as_tsample_free(&T->T, c);
    as_free(c, T->prob);
    as_free(c, T->want);
    as_free(c, T->pos);
    as_free(c, T);
}

/* Draw a sample with m from the probabilities of scheme `scheme` into *s. */
static int as_target_draw(as_target *T, int scheme, int64_t m, as_tsample *s, as_common *c)
{
    as_tsample_free(s, c);
    as_scheme_probabilities(T->d, scheme, T->lev, T->nrm, T->prob);
    T->total = as_sum(T->d, T->prob);
    s->m = m;
    s->S.m = m;
    return as_sample_poisson(T->d, T->prob, T->total, m, T->o->seed, &s->S, &s->q, c);
}

/* Nonzero when every column of s is at hand. */
static int as_target_has(const as_target *T, const as_tsample *s)
{
    int64_t t;
    if (T->X) return 1;
    for (t = 0; t < s->S.k; t++)
        if (T->pos[s->S.index[t]] < 0) return 0;
    return 1;
}

/* Where s's columns are among those at hand: NULL in memory (s->S.index
   itself), else their places among the gathered ones (*cols, freed by the
   caller). */
static int as_target_cols(const as_target *T, const as_tsample *s, int64_t **cols, as_common *c)
{
    int64_t t;
    *cols = NULL;
    if (T->X) return AS_OK;
    if (!(*cols = as_malloc(c, (size_t)(s->S.k > 0 ? s->S.k : 1), sizeof(int64_t)))) return c->status;
    for (t = 0; t < s->S.k; t++) (*cols)[t] = T->pos[s->S.index[t]];
    return AS_OK;
}

/* s calibrated by the factors fac on the terms of Y Y', H the Gram of the
   calibrated sample: kept (s->fac, s->exact) when its exact rel is below
   s->exact. */
static int as_target_keep(const as_target *T, const as_matrix *Xv, as_tsample *s, const double *fac,
                          const double *H, const char *what, as_common *c)
{
    as_metrics M;
    if (as_compare_view(Xv, T->G, H, 0, &M, c) != AS_OK || !(M.rel < s->exact)) return c->status;
    if (!s->fac && !(s->fac = as_malloc(c, (size_t)s->S.k, sizeof(double)))) return c->status;
    as_progress(c, "target: k = %lld calibrated to %s: exact rel %.3g instead of %.3g", (long long)s->S.k, what,
                M.rel, s->exact);
    s->exact = M.rel;
    memcpy(s->fac, fac, sizeof(double) * (size_t)s->S.k);
    return AS_OK;
}

/* What as_target_calibrate does: AS_CAL_DRAW, the draw's own exact rel into
   s->exact, then its calibration to the squared norm (its Gram times the
   factor: no Gram more); AS_CAL_ROWS, the raking (a Gram of the raked
   sample). No calibration with eps given, whose guarantee is of the draw's
   own weights. */
enum { AS_CAL_DRAW = 1, AS_CAL_ROWS = 2 };
static int as_target_calibrate(const as_target *T, const as_matrix *Xv, as_tsample *s, int which, as_common *c)
{
    int64_t *cols = NULL, N = Xv->nrow, t, k = s->S.k, i;
    const int64_t *idx;
    double *H = NULL, *fac = NULL, *wt = NULL, f = NAN;
    int ok = 0;
    as_metrics M;
    if (as_target_cols(T, s, &cols, c) != AS_OK) return c->status;
    idx = T->X ? s->S.index : cols;
    /* Y Y' counted as the metrics count it */
    if (as_metrics_mem_check(N, 1, 0, c) != AS_OK || !(H = as_malloc(c, (size_t)N, (size_t)N * sizeof(double))))
        goto done;
    if (which & AS_CAL_DRAW) {
        /* an empty sample is Y = 0 (uniform attention), never "all columns"
           (what as_gram reads from index == NULL) */
        if (k == 0) memset(H, 0, sizeof(double) * (size_t)N * (size_t)N);
        else if (as_gram(Xv, k, idx, s->S.weight, H, c) != AS_OK) goto done;
        if (as_compare_view(Xv, T->G, H, 0, &M, c) != AS_OK) goto done;
        s->exact = M.rel;
    }
    /* with eps, the draw's weights carry the spectral guarantee: none */
    if (k == 0 || !T->rowsq || !isnan(T->o->eps) || !(fac = as_malloc(c, (size_t)k, sizeof(double)))) goto done;
    /* the totals from the rows' and the columns' squared norms, not from the
       Grams' diagonals: the same bits for X in memory and for block input
       (whose X X' is summed in another order) */
    if (which & AS_CAL_DRAW) f = as_calibrate_trace(Xv, k, idx, s->S.weight, T->rowsq);
    if (f > 0 && isfinite(f) && f != 1) {
        for (t = 0; t < k; t++) fac[t] = f;
        for (i = 0; i < N * N; i++) H[i] *= f;
        if (as_target_keep(T, Xv, s, fac, H, "the squared norm of X", c) != AS_OK) goto done;
    }
    if ((which & AS_CAL_ROWS) && as_calibrate_rows(Xv, k, idx, s->S.weight, T->rowsq, fac, &ok, c) == AS_OK && ok &&
        (wt = as_malloc(c, (size_t)k, sizeof(double)))) {
        for (t = 0; t < k; t++) wt[t] = s->S.weight[t] * sqrt(fac[t]);
        if (as_gram(Xv, k, idx, wt, H, c) == AS_OK) as_target_keep(T, Xv, s, fac, H, "the rows' squared norms", c);
    }
done:
    as_free(c, wt);
    as_free(c, fac);
    as_free(c, H);
    as_free(c, cols);
    return c->status;
}

/* The exact rel of s (X X' at hand: T->G) from the columns at hand (Xv),
   into s->exact; computed once a sample. The sample is also tried
   calibrated (core/calibrate.c) to totals of X known without X X' (survey
   calibration: Deville and Sarndal 1992), each kept only when its exact rel
   is the smallest so far:
   - to X's squared norm: its weights times sqrt(tr(X X') / tr(Y Y')), the
     ratio estimator (Cochran 1977, ch. 6). Poisson sampling leaves the
     common scale of Y Y' to chance (the number and norms of the kept
     columns vary), and where most of X's squared norm lies in a few
     directions (spectra, low-rank data) that scale is most of the error;
   - to the rows' squared norms (raking: the diagonal of Y Y' that of
     X X'), when the sample has at least a column per row: a correction of
     each row's scale, most of the rest of the error on such data
     (bench/calibration.R). It costs a few Grams of the sample, so it is
     tried once the shrink has ended (T->rake; as_target_shrink_rake).
   s->fac holds the factors kept on the terms of Y Y' (NULL: none). The
   weights stay the draw's, which the estimate reads (its variance is the
   draw's); as_target_result calibrates the result. */
static int as_target_exact_rel(const as_target *T, const as_matrix *Xv, as_tsample *s, as_common *c)
{
    if (!isnan(s->exact)) return AS_OK;
    return as_target_calibrate(T, Xv, s, AS_CAL_DRAW | (T->rake ? AS_CAL_ROWS : 0), c);
}

/* The estimate of s from the columns at hand (Xv: X, or the gathered ones). */
static int as_target_estimate(as_target *T, const as_matrix *Xv, as_tsample *s, int round, as_common *c)
{
    int64_t t, *cols = NULL;
    if (as_target_cols(T, s, &cols, c) != AS_OK) return c->status;
    as_estimate(Xv, T->X ? s->S.index : cols, T->d, &s->S, AS_SAMPLING_POISSON, s->q, T->o->seed, round,
                T->rowsq, 1, T->o->estimate, c);
    if (c->status == AS_OK && (s->g = as_malloc(c, (size_t)(s->S.k > 0 ? s->S.k : 1), sizeof(double))))
        for (t = 0; t < s->S.k; t++) {
            double x2 = as_col_norm2(Xv, T->X ? s->S.index[t] : cols[t]);
            s->g[t] = x2 * x2;
        }
    as_free(c, cols);
    return c->status;
}

/* The columns of the samples in list[0..ns) not at hand, increasing, into T->want. */
static int as_target_want(as_target *T, as_tsample **list, int ns, as_common *c)
{
    int64_t total = 0, j;
    int a;
    as_free(c, T->want);
    T->want = NULL;
    T->nwant = 0;
    for (a = 0; a < ns; a++) total += list[a]->S.k;
    T->want = as_malloc(c, (size_t)(total > 0 ? total : 1), sizeof(int64_t));
    if (!T->want) return c->status;
    /* merge the increasing lists, each column once */
    {
        int64_t at[3] = {0, 0, 0};
        for (;;) {
            j = -1;
            for (a = 0; a < ns; a++)
                if (at[a] < list[a]->S.k && (j < 0 || list[a]->S.index[at[a]] < j)) j = list[a]->S.index[at[a]];
            if (j < 0) break;
            for (a = 0; a < ns; a++)
                if (at[a] < list[a]->S.k && list[a]->S.index[at[a]] == j) at[a]++;
            if (T->pos[j] < 0) T->want[T->nwant++] = j;
        }
    }
    return AS_OK;
}

/* The spread of sample S's error at m' relative to its own m: the variance
   proxy sum_j (1 - q'_j) / q'_j ||x_j||^4 (the Frobenius norm of the variance
   of the error of Y Y' with q' = min(1, m' p_j)), estimated from the kept
   columns (each over its q), against the same at m; prob (total: its sum)
   the probabilities S was drawn from. Columns that become certain leave the
   sum: the error falls faster than m^-1/2. */
static double as_target_spread(const as_tsample *S, const double *prob, double total, double mp)
{
    double v = 0, v0 = 0;
    int64_t t;
    for (t = 0; t < S->S.k; t++) {
        double pj = prob[S->S.index[t]] / total, q = S->q[t], qp = mp * pj;
        if (qp < 1) v += S->g[t] / q * (1 / qp - 1);
        if (q < 1) v0 += S->g[t] / q * (1 / q - 1);
    }
    return v0 > 0 ? sqrt(v / v0) : NAN;
}

/* The m at which sample S's estimate e would meet rel by the spread
   (log-ratios: log1p), AS_TARGET_MARGIN of m to spare; NaN when the spread
   cannot say (no column left to chance). */
static double as_target_predict(const as_tsample *S, const double *prob, double total, double e, double rel)
{
    double goal = log1p(rel) / log1p(e) / sqrt(AS_TARGET_MARGIN), lo = 1, hi = (double)AS_M_MAX, m = (double)S->m;
    int it;
    if (!(e > 0) || isnan(as_target_spread(S, prob, total, m))) return NAN;
    if (as_target_spread(S, prob, total, hi) > goal) return hi;
    for (it = 0; it < 64 && hi - lo > 0.5; it++) {
        double mid = sqrt(lo * hi);
        if (as_target_spread(S, prob, total, mid) > goal) lo = mid;
        else hi = mid;
    }
    return ceil(hi);
}

/* The kept columns of s left to chance (q < 1): the terms its estimate rests on. */
static int64_t as_tsample_chance(const as_tsample *s)
{
    int64_t t, ku = 0;
    for (t = 0; t < s->S.k; t++) ku += s->q[t] < 1;
    return ku;
}

/* Nonzero when s keeps every column of positive probability with
   certainty (q = 1): Y is X then, less its zero columns, and no larger m
   changes it. */
static int as_tsample_whole(const as_target *T, const as_tsample *s)
{
    return s->S.k >= T->kpos && as_tsample_chance(s) == 0;
}

/* The next sample after the kept one S (estimate e at m): bigger when S
   misses the target, smaller when it meets it with room to spare; none (0)
   when S is final. */
static int64_t as_target_next_m(const as_target *T)
{
    const as_tsample *S = &T->S;
    double e = S->S.rel_estimate, rel = T->o->rel, mn;
    int64_t m = S->m;
    if (T->rounds >= AS_TARGET_ROUNDS) return 0;
    mn = isnan(e) ? NAN : as_target_predict(S, T->prob, T->total, e, rel);
    if (e <= rel) {
        /* meets it: one smaller sample (a subset), while it saves enough;
           once a smaller one missed, the geometric mean of the two (a
           bisection on m) */
        if (T->miss_m > 0) mn = floor(sqrt((double)T->miss_m * (double)m));
        if (!(mn <= AS_TARGET_SHRINK * (double)m) || m <= T->mmin || (T->miss_m > 0 && mn <= (double)T->miss_m))
            return 0;
        return (int64_t)(mn < (double)T->mmin ? (double)T->mmin : mn);
    }
    if (as_tsample_whole(T, S) || m >= AS_M_MAX) return 0;
    /* no estimate (nothing left to chance): the largest step */
    if (isnan(mn)) mn = AS_TARGET_GROW * (double)m;
    if (mn < 1.25 * (double)m) mn = ceil(1.25 * (double)m);
    /* an estimate from fewer than AS_TARGET_FEW columns left to chance is
       a variance estimate from few terms (off by tens of percent, more with
       unequal terms, and the predicted m by its square): at most
       AS_TARGET_GROW times the last m a round then */
    if (mn > AS_TARGET_GROW * (double)m && as_tsample_chance(S) < AS_TARGET_FEW) mn = AS_TARGET_GROW * (double)m;
    /* below an m that met it */
    if (T->met_m > 0 && mn >= (double)T->met_m) mn = floor(sqrt((double)m * (double)T->met_m));
    if (mn <= (double)m) return 0;
    return mn < (double)AS_M_MAX ? (int64_t)mn : AS_M_MAX;
}

/* The next sample of the picked probabilities at m: T->T, pending, a round more. */
static int as_target_next(as_target *T, int64_t m, as_common *c)
{
    if (as_target_draw(T, T->best, m, &T->T, c) != AS_OK) return c->status;
    T->rounds++;
    T->pending = 2;
    return AS_OK;
}

/* Decide after the kept sample S: draw the next sample (T->T, pending) or finish. */
static int as_target_decide(as_target *T, as_common *c)
{
    int64_t mn = as_target_next_m(T);
    if (mn == 0) {
        T->done = 1;
        return AS_OK;
    }
    return as_target_next(T, mn, c);
}

/* After the pilots' estimates: pick one, and the floor of eps. Each pilot's
   scheme is judged by the columns it would keep at the target: the m its
   estimate predicts (as the rounds predict it, at least the rank) and the
   expected k = sum_j min(1, m p_j) there, exact for Poisson sampling. So a
   scheme whose heavy columns become certain (norm probabilities on counts)
   is judged by the few columns it keeps, not by its draws. A pilot whose
   estimate cannot be extrapolated (no column left to chance) is judged by its
   own k when it meets the target; one without an estimate is the last choice;
   ties go to the smaller estimate * sqrt(k). With X X' at hand (T->G), a
   pilot whose exact rel meets the target is an answer of its own k columns
   too, and when the one picked meets it, the rounds end there (the exact
   check then tries smaller samples). */
static int as_target_pick(as_target *T, const as_matrix *Xv, as_common *c)
{
    int t, b = -1;
    double bestk = INFINITY, bestscore = INFINITY, floor_m = T->rank > 0 ? (double)T->rank : 1;
    for (t = 0; t < T->ncand; t++) {
        as_tsample *p = &T->pilot[t];
        double e = p->S.rel_estimate, score = isnan(e) ? INFINITY : e * sqrt((double)p->S.k), kx = INFINITY, mn;
        if (T->G && as_target_exact_rel(T, Xv, p, c) != AS_OK) return c->status;
        if (!isnan(e)) {
            as_scheme_probabilities(T->d, T->cand[t], T->lev, T->nrm, T->prob);
            T->total = as_sum(T->d, T->prob);
            mn = as_target_predict(p, T->prob, T->total, e, T->o->rel);
            if (!isnan(mn)) {
                int64_t j;
                double mp = mn > floor_m ? mn : floor_m;
                /* an estimate from few columns left to chance predicts m by its
                   square (as_target_next_m): judged at the m the next round draws */
                if (mp > AS_TARGET_GROW * (double)p->m && as_tsample_chance(p) < AS_TARGET_FEW)
                    mp = AS_TARGET_GROW * (double)p->m;
                for (kx = 0, j = 0; j < T->d; j++) kx += fmin(1.0, mp * T->prob[j] / T->total);
            }
        }
        /* a pilot that meets the target (by its estimate or exactly) is itself
           an answer of k columns */
        if ((e <= T->o->rel || p->exact <= T->o->rel) && (double)p->S.k < kx) kx = (double)p->S.k;
        as_progress(c, "target: pilot %d, m = %lld, k = %lld, estimate %.3g; at the target about %.4g columns",
                    T->cand[t], (long long)p->m, (long long)p->S.k, e, kx);
        if (b < 0 || kx < bestk || (kx == bestk && score < bestscore)) {
            b = t;
            bestk = kx;
            bestscore = score;
        }
    }
    T->best = T->cand[b];
    as_tsample_move(&T->S, &T->pilot[b], c);
    /* the pilots not picked that meet the target exactly are answers too: the
       exact check shrinks them as it shrinks the kept sample (without eps,
       whose floor is above a pilot's m) */
    for (t = 0; t < T->ncand; t++)
        if (t != b && T->pilot[t].exact <= T->o->rel && isnan(T->o->eps) && T->nrival < 2) {
            T->rival_scheme[T->nrival] = T->cand[t];
            as_tsample_move(&T->rival[T->nrival++], &T->pilot[t], c);
        }
    for (t = 0; t < T->ncand; t++) as_tsample_free(&T->pilot[t], c);
    as_scheme_probabilities(T->d, T->best, T->lev, T->nrm, T->prob);
    T->total = as_sum(T->d, T->prob);
    {
        int64_t j;
        for (T->kpos = 0, j = 0; j < T->d; j++) T->kpos += T->prob[j] > 0;
    }
    T->rounds = 1;
    T->mmin = T->rank > 0 ? T->rank : 1;
    if (T->S.S.rel_estimate <= T->o->rel) T->met_m = T->S.m;
    /* eps given: the m of the spectral guarantee for the picked probabilities
       (as_default_m, as the default mode's) is a floor */
    if (!isnan(T->o->eps)) {
        double ds, meps;
        T->beta = as_scheme_beta(T->d, T->rank, T->lev, T->best, T->s1, T->o, &ds);
        meps = as_default_m(T->rank, T->o->eps, ds, T->beta);
        if (!(meps <= (double)AS_M_MAX))
            return as_error(c, AS_ERR_TOOBIG, "the 'm' of eps = %g, delta = %g is %.3g draws, above %lld: pass a larger 'eps'",
                            T->o->eps, T->o->delta, meps, (long long)AS_M_MAX);
        T->mfloor = (int64_t)meps;
        if (T->mmin < T->mfloor) T->mmin = T->mfloor;
        if (T->mfloor > T->S.m) {
            T->met_m = 0;
            return as_target_next(T, T->mfloor, c);
        }
    }
    if (T->S.exact <= T->o->rel) {
        T->done = 1;
        return AS_OK;
    }
    return as_target_decide(T, c);
}

/* The pending sample T->T estimated: keep it or drop it, then decide. */
static int as_target_judge(as_target *T, as_common *c)
{
    as_tsample *N = &T->T;
    int smaller = N->m < T->S.m, met = N->S.rel_estimate <= T->o->rel;
    as_progress(c, "target: round %d, m = %lld, k = %lld, estimate %.3g", T->rounds, (long long)N->m,
                (long long)N->S.k, N->S.rel_estimate);
    if (!c->verbose)
        as_status(c, "rand: target round %d: %lld columns, estimated rel %.3g%% (target %.3g%%), %.1f s", T->rounds,
                  (long long)N->S.k, 100 * N->S.rel_estimate, 100 * T->o->rel, as_wtime() - c->started);
    if (met) T->met_m = T->met_m > 0 && T->met_m < N->m ? T->met_m : N->m;
    else if (smaller) T->miss_m = N->m;
    if (smaller && !met) {
        /* a smaller sample that misses: the bigger one stays */
        as_progress(c, "target: round %d's smaller sample dropped (its estimate is above the target)", T->rounds);
        as_tsample_free(N, c);
    } else as_tsample_move(&T->S, N, c);
    return as_target_decide(T, c);
}

/* The exact check, when X X' is at hand (the exact error asked for): the
   estimate chose the kept sample, and its exact rel is known for the cost of
   its own Gram. A sample whose exact rel misses the target is not the
   answer: a larger one (a superset) is drawn, its m the last one's times
   (exact / rel)^2 (the part of the error left to chance falls as 1 / sqrt(m)),
   between 1.25 and AS_TARGET_GROW times, until the exact rel meets the
   target, every column is kept, m is at AS_M_MAX or AS_TARGET_EXACT_ROUNDS
   such samples were drawn. A sample that meets the target is the answer
   unless a smaller one (a subset: the same draw at a smaller m) meets it too
   (as_target_shrink). as_target_exact_rel is above. */
/* The m of the next smaller sample after the kept one (its exact rel e
   meeting the target), or 0 when none: with no m known to miss, the kept m
   times (e / rel)^2 (the 1 / sqrt(m) law the growth uses), between 1 /
   AS_TARGET_GROW and 1 / 1.25 times; once one missed, the geometric mean of
   the two (a bisection on m), until they are within AS_TARGET_EXACT_STEP.
   Never below the eps floor (the spectral guarantee's m) or 1. */
static int64_t as_target_shrink_m(const as_target *T)
{
    double hi = (double)T->S.m, lo = (double)T->exact_miss, floor_m = T->mfloor > 1 ? (double)T->mfloor : 1, mn, f;
    if (lo > 0) {
        if (hi <= AS_TARGET_EXACT_STEP * lo) return 0;
        mn = floor(sqrt(lo * hi));
    } else {
        f = T->S.exact / T->o->rel;
        f = fmin(1 / 1.25, fmax(1.0 / AS_TARGET_GROW, f * f));
        mn = floor(f * hi);
    }
    if (mn < floor_m) mn = floor_m;
    return mn < hi && mn > lo ? (int64_t)mn : 0;
}

/* The kept sample meets the target exactly: the same draw at smaller m
   (subsets, every column at hand) while one meets it too, each judged by its
   exact rel, at most AS_TARGET_EXACT_ROUNDS of them. The estimate cannot
   tell how far below the target a sample is (it covers the error over
   seeds, this draw's error is known): on the corpus the estimate's sample
   is often 2 to 10 times the smallest m that meets it. */
static int as_target_shrink_one(as_target *T, const as_matrix *Xv, as_common *c)
{
    int tries = 0;
    int64_t mn;
    while (tries < AS_TARGET_EXACT_ROUNDS && (mn = as_target_shrink_m(T)) > 0) {
        if (as_target_draw(T, T->best, mn, &T->T, c) != AS_OK || as_target_exact_rel(T, Xv, &T->T, c) != AS_OK)
            return c->status;
        T->rounds++;
        tries++;
        as_progress(c, "target: the exact rel of the smaller m = %lld (k = %lld) is %.3g", (long long)mn,
                    (long long)T->T.S.k, T->T.exact);
        if (T->T.exact <= T->o->rel) as_tsample_move(&T->S, &T->T, c);
        else {
            T->exact_miss = mn;
            as_tsample_free(&T->T, c);
        }
        if (as_interrupted(c)) return c->status;
    }
    return AS_OK;
}

/* as_target_shrink_one, then the raking, the costlier calibration (a few
   Grams of the sample), of the sample it ended with; where that lowers its
   exact rel, the shrink goes on from there, its samples raked too. */
static int as_target_shrink_rake(as_target *T, const as_matrix *Xv, as_common *c)
{
    double before;
    T->rake = 0;
    if (as_target_shrink_one(T, Xv, c) != AS_OK) return c->status;
    before = T->S.exact;
    T->rake = 1;
    if (as_target_calibrate(T, Xv, &T->S, AS_CAL_ROWS, c) == AS_OK && T->S.exact < before) {
        T->exact_miss = 0;
        as_target_shrink_one(T, Xv, c);
    }
    T->rake = 0;
    return c->status;
}

/* The kept sample meets the target exactly: shrunk (as_target_shrink_rake),
   then each rival pilot (another scheme's pilot that met the target exactly)
   shrunk the same way, its columns at hand in any case (subsets of the
   pilot); the fewest columns win, ties to the kept sample. The sample kept
   is estimated again when it changed (its rel_estimate, which may now be
   above the target). */
static int as_target_shrink(as_target *T, const as_matrix *Xv, as_common *c)
{
    int64_t k0 = T->S.S.k, m0 = T->S.m, r;
    int best0 = T->best, rivals = T->nrival;
    if (as_target_shrink_rake(T, Xv, c) != AS_OK) return c->status;
    for (r = 0; r < T->nrival; r++) {
        as_tsample keep;
        int keep_best = T->best;
        int64_t keep_miss = T->exact_miss;
        as_tsample_clear(&keep);
        as_tsample_move(&keep, &T->S, c);
        as_tsample_move(&T->S, &T->rival[r], c);
        T->best = T->rival_scheme[r];
        T->exact_miss = 0;
        if (as_target_shrink_rake(T, Xv, c) != AS_OK) {
            as_tsample_free(&keep, c);
            return c->status;
        }
        as_progress(c, "target: pilot %d shrunk to k = %lld (exact rel %.3g), against k = %lld", T->best,
                    (long long)T->S.S.k, T->S.exact, (long long)keep.S.k);
        if (T->S.S.k < keep.S.k) as_tsample_free(&keep, c);
        else {
            as_tsample_move(&T->S, &keep, c);
            T->best = keep_best;
            T->exact_miss = keep_miss;
        }
    }
    T->nrival = 0;
    if (rivals > 0) {   /* the draws left T->prob at the last scheme drawn */
        as_scheme_probabilities(T->d, T->best, T->lev, T->nrm, T->prob);
        T->total = as_sum(T->d, T->prob);
    }
    if (T->S.S.k != k0 || T->S.m != m0 || T->best != best0) {
        if (!c->verbose)
            as_status(c, "rand: target: %lld columns have exact rel %.3g%% (target %.3g%%), %.1f s",
                      (long long)T->S.S.k, 100 * T->S.exact, 100 * T->o->rel, as_wtime() - c->started);
        as_free(c, T->S.g);
        T->S.g = NULL;
        return as_target_estimate(T, Xv, &T->S, T->rounds, c);
    }
    return AS_OK;
}

static int as_target_check(as_target *T, const as_matrix *Xv, as_common *c)
{
    double exact, f;
    int64_t mn;
    if (as_target_exact_rel(T, Xv, &T->S, c) != AS_OK) return c->status;
    exact = T->S.exact;
    T->done = 1;
    if (!(exact > T->o->rel)) {
        T->checked = 1;
        return as_target_shrink(T, Xv, c);
    }
    if (as_tsample_whole(T, &T->S) || T->S.m >= AS_M_MAX || T->exact_rounds >= AS_TARGET_EXACT_ROUNDS) {
        T->checked = 1;
        return AS_OK;
    }
    T->exact_miss = T->S.m;
    f = exact / T->o->rel;
    f = fmin((double)AS_TARGET_GROW, fmax(1.25, f * f));
    mn = f * (double)T->S.m < (double)AS_M_MAX ? (int64_t)ceil(f * (double)T->S.m) : AS_M_MAX;
    as_progress(c, "target: the exact rel of m = %lld (k = %lld) is %.3g, above the target: m = %lld next",
                (long long)T->S.m, (long long)T->S.S.k, exact, (long long)mn);
    if (!c->verbose)
        as_status(c, "rand: target: %lld columns have exact rel %.3g%% (estimated %.3g%%), above the target %.3g%%: "
                  "a larger sample, %.1f s", (long long)T->S.S.k, 100 * exact, 100 * T->S.S.rel_estimate,
                  100 * T->o->rel, as_wtime() - c->started);
    if (as_target_next(T, mn, c) != AS_OK) return c->status;
    T->exact_rounds++;
    T->checking = 1;
    T->done = 0;
    return AS_OK;
}

int as_target_new(const as_matrix *X, int64_t d, int64_t rank, int64_t s1, const as_rand_options *o,
                  const double *lev, const double *nrm, const double *rowsq, const double *G, as_target **out,
                  as_common *c)
{
    as_target *T;
    int t;
    int64_t m0;
    *out = NULL;
    if (!(T = as_calloc(c, 1, sizeof(*T)))) return c->status;
    T->o = o;
    T->X = X;
    T->d = d;
    T->rank = rank;
    T->s1 = s1;
    T->beta = NAN;
    T->lev = lev;
    T->nrm = nrm;
    T->rowsq = rowsq;
    T->G = G;
    for (t = 0; t < 3; t++) as_tsample_clear(&T->pilot[t]);
    for (t = 0; t < 2; t++) as_tsample_clear(&T->rival[t]);
    as_tsample_clear(&T->S);
    as_tsample_clear(&T->T);
    T->prob = as_malloc(c, (size_t)(d > 0 ? d : 1), sizeof(double));
    if (!X && (T->pos = as_malloc(c, (size_t)(d > 0 ? d : 1), sizeof(int64_t)))) {
        int64_t j;
        for (j = 0; j < d; j++) T->pos[j] = -1;
    }
    if (!T->prob || (!X && !T->pos)) goto fail;
    /* eps given: only the probabilities that carry the spectral guarantee */
    if (o->probabilities == AS_PROB_AUTO) {
        T->cand[T->ncand++] = AS_PROB_LEVERAGE;
        if (isnan(o->eps)) T->cand[T->ncand++] = AS_PROB_NORM;
        T->cand[T->ncand++] = AS_PROB_MIXED;
    } else T->cand[T->ncand++] = o->probabilities;
    m0 = AS_PILOT_FACTOR * (rank > 0 ? rank : 1);
    for (t = 0; t < T->ncand; t++) {
        if (as_target_draw(T, T->cand[t], m0, &T->pilot[t], c) != AS_OK) goto fail;
        /* X == 0: the empty sample is exact */
        if (!(T->total > 0)) {
            T->best = T->cand[t];
            as_tsample_move(&T->S, &T->pilot[t], c);
            T->S.S.estimate = AS_ESTIMATE_EXACT;
            T->S.S.estimate_why = AS_WHY_MADE;
            T->S.S.rel_estimate = T->S.S.inf_estimate = 0;
            T->rounds = 1;
            T->done = 1;
            *out = T;
            return AS_OK;
        }
    }
    T->pending = 1;
    *out = T;
    return AS_OK;
fail:
    as_target_free(T, c);
    return c->status;
}

/* The rounds on the columns at hand, until done or columns not at hand are
   wanted (T->want; T->done 0). */
static int as_target_rounds(as_target *T, const as_matrix *Xv, as_common *c)
{
    while (!T->done) {
        as_tsample *list[3];
        int ns = 0, t2;
        if (T->pending == 1) for (t2 = 0; t2 < T->ncand; t2++) list[ns++] = &T->pilot[t2];
        else list[ns++] = &T->T;
        for (t2 = 0; t2 < ns; t2++)
            if (!as_target_has(T, list[t2])) break;
        if (t2 < ns) {
            /* a growing round reads ahead: the columns of AS_TARGET_READ_AHEAD
               times its m (a superset), so that the rounds after it, up to
               that m, read nothing */
            if (T->pending == 2 && T->T.m > T->S.m) {
                as_tsample ahead;
                double ma = AS_TARGET_READ_AHEAD * (double)T->T.m;
                int st;
                as_tsample_clear(&ahead);
                list[0] = &ahead;
                st = as_target_draw(T, T->best, ma < (double)AS_M_MAX ? (int64_t)ma : AS_M_MAX, &ahead, c);
                if (st == AS_OK) as_target_want(T, list, 1, c);
                as_tsample_free(&ahead, c);
                return c->status;
            }
            return as_target_want(T, list, ns, c);
        }
        T->nwant = 0;
        if (T->pending == 1) {
            for (t2 = 0; t2 < ns; t2++)
                if (as_target_estimate(T, Xv, list[t2], 0, c) != AS_OK) return c->status;
            if (as_target_pick(T, Xv, c) != AS_OK) return c->status;
        } else {
            if (as_target_estimate(T, Xv, &T->T, T->rounds, c) != AS_OK) return c->status;
            if (T->checking) {
                /* the exact check's larger sample replaces the kept one */
                as_tsample_move(&T->S, &T->T, c);
                T->done = 1;
            } else if (as_target_judge(T, c) != AS_OK) return c->status;
        }
        if (as_interrupted(c)) return c->status;
    }
    return AS_OK;
}

int as_target_step(as_target *T, const as_matrix *Xv, const int64_t *gathered, int64_t ng, as_common *c)
{
    int64_t t;
    if (!T->X) {
        for (t = 0; t < ng; t++) T->pos[gathered[t]] = T->ngathered + t;
        T->ngathered += ng;
    }
    for (;;) {
        if (as_target_rounds(T, Xv, c) != AS_OK || !T->done) return c->status;
        if (!T->G || T->checked) return AS_OK;
        if (as_target_check(T, Xv, c) != AS_OK) return c->status;
    }
}

int as_target_wanted(const as_target *T, const int64_t **cols, int64_t *ncols)
{
    *cols = T->want;
    *ncols = T->done ? 0 : T->nwant;
    return T->done;
}

int64_t as_target_position(const as_target *T, int64_t j)
{
    return T->X ? j : T->pos[j];
}

void as_target_result(as_target *T, as_result *out)
{
    as_result *S = &T->S.S;
    int64_t t;
    /* the calibration of the sample kept (its estimate is of the draw as drawn) */
    if (T->S.fac)
        for (t = 0; t < S->k; t++) S->weight[t] *= sqrt(T->S.fac[t]);
    out->k = S->k;
    out->index = S->index;
    out->weight = S->weight;
    out->m = T->S.m;
    out->rel_estimate = S->rel_estimate;
    out->inf_estimate = S->inf_estimate;
    out->estimate = S->estimate;
    out->estimate_why = S->estimate_why;
    out->probabilities = T->best;
    out->rounds = T->rounds;
    out->beta = T->beta;
    S->index = NULL;
    S->weight = NULL;
    S->k = 0;
}

int as_rand_target(const as_matrix *X, const as_rand_options *o, const double *lev,
                   const double *nrm, const double *G, as_result *out, as_common *c)
{
    as_target *T = NULL;
    double *rowsq = NULL;
    /* the diagonal of X X', which every round's estimate reads: the rows'
       squared norms, summed as the block passes sum them */
    rowsq = as_malloc(c, (size_t)(X->nrow > 0 ? X->nrow : 1), sizeof(double));
    if (rowsq) {
        as_block_plan P;
        as_block_plan_fill(X->nrow, X->ncol, o, &P);
        if (as_block_rowsq_all(&P, X, rowsq, c) == AS_OK &&
            as_target_new(X, X->ncol, out->rank, out->s1, o, lev, nrm, rowsq, G, &T, c) == AS_OK &&
            as_target_step(T, X, NULL, 0, c) == AS_OK)
            as_target_result(T, out);
    }
    as_target_free(T, c);
    as_free(c, rowsq);
    return c->status;
}
