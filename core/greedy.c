/* greedy.c: the fewest columns for an attention error: greedy selection with nonnegative reweighting, the exact rel of the result as its certificate. */
#include "refit_cd.h"
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
   the smallest-weight columns are pruned while rel still meets it. Where
   n^2 is small the weights are then fitted to the max itself (Lawson's rule
   on every entry, not only rows: greedy_fit.c's minimax fit) and the prune
   runs again with that fit. The
   exact rel is computed from G and H at every step: the result's rel_error
   is a certificate, never an estimate.

   Bits: every per-column quantity is one column's own sum in a fixed order;
   the products are as_gemm_blocks / as_syrk_blocks (blocks fixed by the
   sizes); the selection, the coordinate descent and the reweighting are
   serial: the result does not depend on the thread count. */

/* The files: this driver (the rounds, the choice of two, the polish);
   greedy_prune.c the prune; greedy_pass.c the passes over the candidates (scores, norms);
   greedy_fit.c the fit of the kept columns (the normal equations, the
   reweighting, the exact rel); refit_cd.c the fit without the normal
   equations, and the choice between the two; nnls.c the nonnegative solve; greedy_state.c
   the arrays and snapshots; refit.c the same fit for a given sample (option
   'refit' of as_rand and as_det); greedy_sample.c the sample path for very
   wide sparse X (option 'approach'). */

/* Share of the columns kept added per round (at least one, c->tune.greedy_batch),
   growing in proportion past AS_GREEDY_BATCH_K columns up to AS_GREEDY_BATCH_MAX. */
#define AS_GREEDY_BATCH_K 200.0
#define AS_GREEDY_BATCH_MAX 0.25
/* Rounds between full passes over the candidates: in between, only the
   shortlist of the last full pass is scored again (its AS_GREEDY_SHORT_FACTOR
   times the round's batch best, at least AS_GREEDY_SHORT_MIN). */
#define AS_GREEDY_SHORT_ROUNDS 4
#define AS_GREEDY_SHORT_FACTOR 8
#define AS_GREEDY_SHORT_MIN 64
/* ... when there are at least this many candidates (fewer: every round a full pass). */
#define AS_GREEDY_SHORT_POOL 8192
/* Rounds in a row that keep no more columns before the selection's other
   measure takes over. */
#define GR_SWITCH 3
/* ... and the share by which rel must fall for the rounds to count as not
   stalled: with any fall, rounds that kept 10 columns of a 20 x 200 count
   matrix went on for 38000 rounds (to the work cap), rel falling from 8.089e-5
   to 8.068e-5, the two measures taking turns. */
#define GR_FELL 1e-3
/* The sample path beside the rounds, once (see as_greedy). Only a Ctrl-C
   stops the call: where the sample path fails otherwise ('memory' too small
   for it, an allocation), the rounds go on without it. */
static int gr_beside_run(gr_state *s, double target, as_common *c)
{
    s->beside_done = 1;
    as_progress(c, "greedy: %lld columns kept: the sample path tried beside the rounds", (long long)s->k);
    if (as_gr_sample_path(s->X, s->beside_o, s->beside_res, c) != AS_OK) {
        if (c->status == AS_ERR_INTERRUPT) return c->status;
        as_progress(c, "greedy: the sample path stopped (%s); the rounds go on", c->msg);
        as_result_free(s->beside_res, c);
        as_result_init(s->beside_res);   /* not a result: as_greedy keeps the rounds' */
        c->status = AS_OK;
        c->msg[0] = '\0';
        return AS_OK;
    }
    as_progress(c, "greedy: the sample path: %lld columns, rel %.4g%% (target %.4g%%); the rounds go on",
                (long long)s->beside_res->k, 100 * s->beside_res->metrics.rel, 100 * target);
    return c->status;
}

/* ------------------------------------------------------------------ selection */
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
        v = raw ? g : g / nr * g;
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


/* One column at a time, two choices: the largest gain per norm (picks[0])
   and the largest score (picks[1], the heavier column); each added and
   refitted, the one with the smaller rel kept. */
static int gr_try_two(gr_state *s, const gr_pick *picks, double *rel, as_common *c)
{
    int64_t k = s->k, a;
    double r0, r1;
    gr_snap before, first;
    memset(&before, 0, sizeof before);
    memset(&first, 0, sizeof first);
    if (as_gr_snap_alloc(s, k + 1, &before, c) != AS_OK || as_gr_snap_alloc(s, k + 1, &first, c) != AS_OK)
        goto done;
    as_gr_snap_take(s, &before);
    /* the first choice: its state after the refit kept aside */
    if (as_gr_add(s, picks, 1, c) != AS_OK || as_gr_refit(s, &r0, c) != AS_OK) goto done;
    as_gr_snap_take(s, &first);
    /* the second, from the state before */
    s->k = k;
    s->in[picks[0].t] = 0;
    as_gr_snap_put(s, &before);
    if (as_gr_add(s, picks + 1, 1, c) != AS_OK || as_gr_refit(s, &r1, c) != AS_OK) goto done;
    *rel = r1;
    if (r0 < r1) {
        /* back to the first */
        s->k = k;
        s->in[picks[1].t] = 0;
        if (as_gr_add(s, picks, 1, c) != AS_OK) goto done;
        as_gr_snap_put(s, &first);
        for (a = 0; a <= k; a++) s->ban[a] = 0;
        if (as_gr_make_h(s, s->H, c) != AS_OK) goto done;
        *rel = as_gr_rel(s, s->H, s->rowrel, c);
    }
done:
    as_gr_snap_free(&before, c);
    as_gr_snap_free(&first, c);
    return c->status;
}

/* Budget mode: the best columns and weights of the rounds so far (a larger
   budget passes through every state a smaller one ends in). */
typedef struct gr_best {
    int64_t k;               /* columns held (-1: none yet)        */
    double rel;              /* theirs                             */
    gr_pick *sel;            /* their candidates                   */
    double *w;               /* their weights                      */
} gr_best;

/* The rounds' next batch: a share of the columns kept, growing past
   AS_GREEDY_BATCH_K columns (fewer rounds where each costs most), at least one. */
static int64_t gr_batch(const gr_state *s, const as_common *c)
{
    double share = fmin(c->tune.greedy_batch * fmax(1.0, (double)s->k / AS_GREEDY_BATCH_K), AS_GREEDY_BATCH_MAX);
    int64_t nb = (int64_t)floor(share * (double)s->k);
    return nb < 1 ? 1 : nb;
}

/* Rounds that end short of the target with at most one batch of X's columns
   left out (every column a candidate, no budget below d): the rest added and
   all weights 1, Y = X (rel 0 but for rounding), from which the prune starts:
   the round that would have added them is taken, and with them the exact
   error is the smallest there is. The fit of the proxy need not find that
   point: on clustered rows the rounds ended with all 3000 columns at rel 1.17%
   (400 x 3000) and with 2996 of them at 1.15% (600 x 3000) for a target of 1%.
   Where 'memory' holds fewer than all, nothing changes. */
static int gr_all_kept(gr_state *s, double target, int64_t budget, double *rel, as_common *c)
{
    int64_t a, q, m = 0, k0 = s->k;
    gr_pick *rest;
    if (*rel <= target || isnan(target) || s->nc < s->d || (budget > 0 && budget < s->d) ||
        s->d - s->k > gr_batch(s, c))
        return AS_OK;
    rest = as_malloc(c, (size_t)(s->d - s->k > 0 ? s->d - s->k : 1), sizeof(gr_pick));
    if (!rest) return c->status;
    for (q = 0; q < s->nc; q++)
        if (!s->in[q]) {
            rest[m].t = q;
            rest[m++].v = 0;
        }
    if (m > 0 && as_gr_add(s, rest, m, c) != AS_OK && c->status == AS_ERR_TOOBIG && s->capped) c->status = AS_OK;
    as_free(c, rest);
    if (c->status != AS_OK) return c->status;
    if (s->k < s->d) {
        /* 'memory' held fewer: the columns added (weight 0) go */
        as_gr_compact(s);
        return AS_OK;
    }
    for (a = 0; a < s->k; a++) s->w[a] = 1;
    if (as_gr_make_h(s, s->H, c) != AS_OK) return c->status;
    *rel = as_gr_rel(s, s->H, s->rowrel, c);
    as_progress(c, "greedy: %lld of %lld columns kept: every column at weight 1, rel %.4g%% (target %.4g%%)",
                (long long)k0, (long long)s->d, 100 * *rel, 100 * target);
    return AS_OK;
}

/* Back to the best columns of the rounds, H and *rel theirs. */
static int gr_best_put(gr_state *s, const gr_best *b, double *rel, as_common *c)
{
    int64_t a;
    for (a = 0; a < s->k; a++) s->in[s->sel[a]] = 0;
    s->k = 0;
    if (as_gr_add(s, b->sel, b->k, c) != AS_OK) return c->status;
    gr_copy(s->w, b->w, sizeof(double) * (size_t)b->k);
    if (as_gr_make_h(s, s->H, c) != AS_OK) return c->status;
    *rel = as_gr_rel(s, s->H, s->rowrel, c);
    return AS_OK;
}

/* Before the rounds conclude that no column lowers the fit: the fit itself
   converged. Past s->nnls.newton_max kept columns the solve is coordinate
   descent alone, which on correlated columns stops short of the minimum;
   there every candidate's score can be <= 0 (the rounds' stall) although at
   the minimum of the uncentred fit the candidates' scores sum to ||G - H||^2
   (the kept ones' are 0) and some column lowers it. A refit with Newton
   steps allowed (their factor: k^3 / 3 multiply-adds, once a stall) settles
   it: 150 x 4000 random signs, where the rounds and the plain path both
   stalled at 2% (2515 and 2748 columns, rel 2.6% and 2.4%) and a plain
   forward greedy met 2% with 2308. Returns 1 when it refitted. */
static int gr_converge(gr_state *s, double *rel, as_common *c)
{
    int64_t lim = s->nnls.newton_max;
    if (s->k <= lim || as_gr_kfree(s)) return 0;
    s->nnls.newton_max = s->k;
    as_status(c, "greedy: no candidate lowers the fit of %lld columns: their fit converged before the rounds end",
              (long long)s->k);
    as_gr_refit(s, rel, c);
    s->nnls.newton_max = lim;
    return c->status == AS_OK;
}

/* The rounds: batches of candidates added and refitted until rel meets the
   target (target not NaN) or `budget` columns are kept, or the run's work
   passes s->work_cap. The selection's measure is the path's (gain or score);
   when it stalls (no candidate, or rounds that keep no more columns), the
   other measure takes over, and the rounds end only when both have stalled
   since rel last fell and the kept columns' fit is at its minimum
   (gr_converge). In budget mode the best columns seen are returned. */
static int gr_rounds(gr_state *s, double target, int64_t budget, double *rel, int64_t *rounds, gr_best *keep,
                     as_common *c)
{
    gr_pick *picks = NULL;
    int64_t *shortlist = NULL, nshort = 0, cap = s->nc, stall = 0, age = 0, t;
    int raw = !s->path.gain, switches = 0, settled = 0;
    double low = *rel, fell = *rel;
    picks = as_malloc(c, (size_t)(cap > 1 ? cap : 2), sizeof(gr_pick));
    shortlist = as_malloc(c, (size_t)(cap > 1 ? cap : 2), sizeof(int64_t));
    if (!picks || !shortlist) goto done;
    *rounds = 0;
    while (!(*rel <= target) && (budget == 0 || s->k < budget) && s->k < s->nc && !(s->work > s->work_cap)) {
        if (s->beside_o && !s->beside_done && s->k >= s->beside_k && gr_beside_run(s, target, c) != AS_OK) break;
        int64_t nb = gr_batch(s, c), m, k0 = s->k, want;
        const int64_t *list = NULL;
        int64_t np = s->nc;
        int short_ok;
        if (budget > 0 && nb > budget - s->k) nb = budget - s->k;
        want = AS_GREEDY_SHORT_FACTOR * nb > AS_GREEDY_SHORT_MIN ? AS_GREEDY_SHORT_FACTOR * nb : AS_GREEDY_SHORT_MIN;
        as_gr_make_m(s, s->H, c);
        /* the candidates scored: all of them every AS_GREEDY_SHORT_ROUNDS rounds, in
           between only the shortlist of the last full pass (its best ones) */
        short_ok = s->nc >= AS_GREEDY_SHORT_POOL && 2 * want < s->nc;
        if (short_ok && age > 0 && age < AS_GREEDY_SHORT_ROUNDS && nshort >= 2 * nb) {
            list = shortlist;
            np = nshort;
            age++;
        } else age = 1;
        if (as_gr_scores(s, list, np, c) != AS_OK) break;
        if (list == NULL && short_ok) {
            /* the new shortlist: the best `want` by the round's measure */
            nshort = gr_select(s, NULL, s->nc, want, raw, picks);
            for (t = 0; t < nshort; t++) shortlist[t] = picks[t].t;
            list = shortlist;
            np = nshort;
        }
        m = gr_select(s, list, np, nb, raw, picks);
        if (m == 0) {
            if (list != NULL && age > 1) { age = 0; continue; }   /* the shortlist ran dry: a full pass */
            if (switches == 0) {
                /* no column lowers the proxy by this measure: the other one */
                raw = !raw;
                switches = 1;
                stall = age = 0;
                continue;
            }
            goto stalled;   /* by both measures */
        }
        if (s->path.two && m == 1 && gr_select(s, list, np, 1, !raw, picks + 1) == 1 && picks[1].t != picks[0].t) {
            if (gr_try_two(s, picks, rel, c) != AS_OK) break;
        } else if (as_gr_add(s, picks, m, c) != AS_OK || as_gr_refit(s, rel, c) != AS_OK) break;
        as_gr_compact(s);
        (*rounds)++;
        if (*rounds == 1 && s->path.centre && as_wtime() - c->started >= c->tune.status_after)
            as_status(c, "greedy: the first round took %.1f s (a pass over %lld candidate columns) and each round to come "
                      "takes about as long: a long run; the randomized method with a 'rel' target is far faster, with "
                      "more columns", as_wtime() - c->started, (long long)s->d);
        if (isnan(target))
            as_status(c, "greedy%s: round %lld: %lld columns (budget %lld), rel %.4g%%, %.1f s", gr_path_words(s),
                      (long long)*rounds, (long long)s->k, (long long)budget, 100 * *rel, as_wtime() - c->started);
        else
            as_status(c, "greedy%s: round %lld: %lld columns, rel %.4g%% (target %.4g%%), %.1f s", gr_path_words(s),
                      (long long)*rounds, (long long)s->k, 100 * *rel, 100 * target, as_wtime() - c->started);
        if (*rel < fell * (1.0 - GR_FELL)) {
            fell = *rel;
            switches = settled = 0;
        }
        if (*rel < low) {
            low = *rel;
            if (keep->sel) {
                keep->k = s->k;
                keep->rel = *rel;
                for (t = 0; t < s->k; t++) {
                    keep->sel[t].t = s->sel[t];
                    keep->sel[t].v = 0;
                    keep->w[t] = s->w[t];
                }
            }
        }
        /* rounds that keep no more columns than before: after GR_SWITCH, the
           other measure; after eight more with both since rel last fell (by GR_FELL), stalled */
        stall = s->k <= k0 ? stall + 1 : 0;
        if (stall >= GR_SWITCH && switches == 0) {
            raw = !raw;
            switches = 1;
            stall = age = 0;
        }
        if (stall < 8) continue;
    stalled:
        /* the rounds end here, unless the fit had stopped short (then they go on from its minimum) */
        if (settled || !gr_converge(s, rel, c)) break;
        settled = 1;
        raw = !s->path.gain;
        switches = 0;
        stall = age = 0;
    }
    /* 'memory' held no more columns: the rounds end with the best so far (the result warns) */
    if (c->status == AS_ERR_TOOBIG && s->capped) c->status = AS_OK;
done:
    as_free(c, picks);
    as_free(c, shortlist);
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
        if (as_gr_refit(s, &r, c) != AS_OK) break;
        if (!(r < *rel)) break;
        *rel = r;
        gr_copy(w, s->w, sizeof(double) * (size_t)s->k);
    }
    gr_copy(s->w, w, sizeof(double) * (size_t)s->k);
    as_free(c, w);
    if (c->status == AS_OK) as_gr_compact(s);
    return c->status;
}

/* One run of the method along `path`: at most `budget` columns (0: none),
   its rounds stopping past work_cap; X X' from *G (NULL: computed and handed
   back); *work the refit work it took. */
static int gr_run(const as_matrix *X, const as_greedy_options *o, gr_path path, int64_t budget, double work_cap,
                  as_result *beside, double **G, as_result *out, double *work, as_common *c)
{
    gr_state s;
    gr_best keep;
    double t0 = as_wtime(), target, rel, t1;
    int64_t n, d, rounds = 0, *cands = NULL;
    int blas;
    as_result_init(out);
    memset(&s, 0, sizeof s);
    memset(&keep, 0, sizeof keep);
    keep.k = -1;
    n = X->nrow;
    d = X->ncol;
    target = as_greedy_rel(o);
    as_result_options(out, AS_FOR_GREEDY, NAN, NAN, target);
    out->max_columns = o->k;
    s.path = path;
    s.work_cap = work_cap;
    s.X = X;
    s.n = n;
    s.d = d;
    s.nc = d;
    s.cand = NULL;
    s.mem_mb = o->mem_mb;
    s.mm_rows = o->minimax;
    s.beside_o = beside ? o : NULL;
    s.beside_res = beside;
    s.beside_k = c->tune.greedy_beside_k;
    /* the BLAS on one thread: the products run on the core's (their bits fixed) */
    blas = as_blas_threads_set(1);
    if (o->candidates > 0 && o->candidates < d && as_gr_candidates(&s, o, out, &cands, c) != AS_OK) goto done;
    if (as_gr_memory(&s, budget, o->mem_mb, "the greedy method", c) != AS_OK) goto done;
    t1 = as_wtime();
    if (as_gr_setup(&s, *G, c) != AS_OK) goto done;
    if (*G == NULL) {
        *G = as_malloc(c, (size_t)(n * n), sizeof(double));
        if (!*G) goto done;
        gr_copy(*G, s.G, sizeof(double) * (size_t)(n * n));
    }
    rel = as_gr_rel(&s, s.H, s.rowrel, c);
    s.baseline = rel;
    as_progress(c, "greedy: %lld x %lld, X X' in %.2f s, rel of Y = 0 %.4g%%", (long long)n, (long long)d,
                as_wtime() - t1, 100 * rel);
    if (!(rel <= target) && s.nc > 0) {
        s.score = as_malloc(c, (size_t)s.nc, sizeof(double));
        s.norm = as_malloc(c, (size_t)s.nc, sizeof(double));
        s.in = as_calloc(c, (size_t)s.nc, 1);
        if (!s.score || !s.norm || !s.in) goto done;
        t1 = as_wtime();
        if (as_gr_prepare(&s, c) != AS_OK) goto done;
        as_progress(c, "greedy: %lld candidate columns prepared in %.2f s", (long long)s.nc, as_wtime() - t1);
        if (isnan(target) && budget > 0) {
            keep.sel = as_malloc(c, (size_t)budget, sizeof(gr_pick));
            keep.w = as_malloc(c, (size_t)budget, sizeof(double));
            if (!keep.sel || !keep.w) goto done;
        }
        if (gr_rounds(&s, target, budget, &rel, &rounds, &keep, c) != AS_OK ||
            gr_all_kept(&s, target, budget, &rel, c) != AS_OK)
            goto done;
        if (!isnan(target) && rel <= target && s.k > 1 && as_gr_prune(&s, target, &rel, 0, c) != AS_OK) goto done;
        if (isnan(target) && s.k > 0 && gr_polish(&s, &rel, c) != AS_OK) goto done;
        if (s.path.centre && as_gr_minimax_prune(&s, target, &rel, c) != AS_OK) goto done;
        /* a budget: the best columns of the rounds when the last ones, polished, are worse
           (a larger budget passes through every state a smaller one ends in) */
        if (keep.k >= 0 && keep.rel < rel &&
            (gr_best_put(&s, &keep, &rel, c) != AS_OK || gr_polish(&s, &rel, c) != AS_OK))
            goto done;
        if (s.k > 1 && as_gr_merge_kept(&s, target, &rel, c) != AS_OK) goto done;
        /* Y = 0 is a candidate too: columns that make rel no better than none are not kept */
        if (s.k > 0 && !(rel < s.baseline)) {
            as_progress(c, "greedy: %lld columns give rel %.4g%%, no better than Y = 0 (%.4g%%): none kept",
                        (long long)s.k, 100 * rel, 100 * s.baseline);
            s.k = 0;
            rel = s.baseline;
        }
    }
    if (as_gr_result(&s, out, c) != AS_OK) goto done;
    out->m = rounds;
    out->rounds = (int)rounds;
    out->approach = AS_APPROACH_ROUNDS;
    out->time = as_wtime() - t0;
    /* the metrics of the result as returned (its columns in order) */
    t1 = as_wtime();
    if (as_gram(X, out->k, out->index, out->weight, s.H, c) != AS_OK) goto done;
    if (as_compare_gram(n, s.G, s.H, as_spectral_asked(o->error, o->spectral), &out->metrics, c) != AS_OK)
        goto done;
    out->error_time = as_wtime() - t1;
    out->rank = 0;
    *work = s.work;
done:
    if (blas > 0) as_blas_threads_set(blas);
    s.cand = NULL;
    as_gr_free(&s, c);
    as_free(c, cands);
    as_free(c, keep.sel);
    as_free(c, keep.w);
    if (c->status != AS_OK) as_result_free(out, c);
    return c->status;
}

/* Whether result b is better than a for the target (NaN: a budget): the
   target met with fewer columns, or a smaller rel where neither meets it
   or a budget is given. */
static int gr_better(const as_result *b, const as_result *a, double target)
{
    int ma = a->metrics.rel <= target, mb = b->metrics.rel <= target;
    if (isnan(target) || (!ma && !mb)) return b->metrics.rel < a->metrics.rel;
    return mb && (!ma || b->k < a->k || (b->k == a->k && b->metrics.rel < a->metrics.rel));
}

/* *b into *out where it is the better result (the one it replaces into *b, freed with it). */
static void gr_take_better(as_result *out, as_result *b, double target)
{
    if (gr_better(b, out, target)) {
        as_result tmp = *out;
        *out = *b;
        *b = tmp;
    }
}

/* The method's own path, then the plain path (an uncentred Frobenius fit of
   the columns with the largest score: what a plain forward greedy does); the
   better result is returned. On a sparse X with a target (option approach
   "auto", every column a candidate), the sample path (greedy_sample.c) is also
   tried, once the rounds keep c->tune.greedy_beside_k columns: where the rounds
   need that many, each of their rounds refits hundreds of columns, and the
   sample path, which keeps every heavy column at weight 1 and samples the
   rest, costs about two Grams and its K-free refits. The rounds go on either
   way (their prune may still end below it: 108 columns on a held-out
   document-term instance where the sample path kept 293, and capping the
   rounds at 1.25 times its columns returned those 293) and the better result
   is kept: on chapters-by-words counts compared by cosine the sample path's,
   10 to 17% fewer columns; elsewhere nothing changes but the time, by the
   sample path's (docs/greedy.md). The plain path keeps the method from falling
   behind the plain greedy where its weighted proxy misleads it (heavy-tailed
   counts, large logits). When the first run met its target (or spent a
   budget), the second runs until it meets the target with fewer columns than
   the first kept, or past the first's refit work. It used to stop also once
   it had been behind the first's rounds for six rounds in a row: that saved
   a tenth of the time on the development corpus and changed none of its
   columns, but cost columns where the plain path starts slower and overtakes
   late (heavy-tailed dense data, 20 x 3000, at 1%: 36 columns where it keeps
   22 and the plain greedy 33). When the first run missed its target, the
   second runs until it meets it. */
int as_greedy(const as_matrix *X, const as_greedy_options *o, as_result *out, as_common *c)
{
    as_greedy_options oo;
    as_result alt, samp;
    gr_path plain;
    int beside;
    double *G = NULL, work = 0, work2 = 0, target, t0 = as_wtime();
    int64_t budget;
    int met;
    as_result_init(out);
    as_result_init(&alt);
    as_result_init(&samp);
    c->status = AS_OK;
    if (as_matrix_check(X, c) != AS_OK || as_greedy_options_check(o, c) != AS_OK) return c->status;
    oo = *o;
    if (oo.candidates > 0 && oo.candidates < X->ncol) oo.seed = as_seed_resolve(o->seed, c);   /* one sample for both */
    target = as_greedy_rel(&oo);
    if (as_gr_sample_chosen(X, &oo, c)) return as_gr_sample_path(X, &oo, out, c);
    beside = as_gr_sample_beside(X, &oo, c);
    if (gr_run(X, &oo, as_gr_path_default(c), oo.k, INFINITY, beside ? &samp : NULL, &G, out, &work, c) != AS_OK)
        goto done;
    if (samp.approach == AS_APPROACH_SAMPLE) gr_take_better(out, &samp, target);
    if (out->k <= 1 && out->metrics.rel <= target) goto done;   /* nothing to gain */
    memset(&plain, 0, sizeof plain);
    met = isnan(target) || out->metrics.rel <= target;
    budget = isnan(target) || !met ? oo.k : out->k - 1;
    as_progress(c, "greedy: the plain path, %s",
                met ? "with fewer columns than the first and at most its refit work" : "until it meets the target");
    if (gr_run(X, &oo, plain, budget, met ? work : INFINITY, NULL, &G, &alt, &work2, c) != AS_OK) goto done;
    gr_take_better(out, &alt, target);
    out->rounds += alt.rounds;
    out->m = out->rounds;
    out->time = as_wtime() - t0;
done:
    as_free(c, G);
    as_result_free(&alt, c);
    as_result_free(&samp, c);
    if (c->status != AS_OK) as_result_free(out, c);
    return c->status;
}
