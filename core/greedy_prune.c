/* greedy_prune.c: the greedy method's prune: the kept columns whose weights matter least dropped, as many at a time as the target still holds after the refit, and again with the minimax fit where n^2 is small. */
#include "refit_cd.h"
#include <stdlib.h>

/* The prune with the minimax fit spends at most this share of the work before it
   (the rounds', the first prune's) on its refits: it removes as many columns on
   the demo's data as with four times as much (golub at 1%: 227 against 228 at half
   of it, none at all without it). */
#define AS_GREEDY_MM_PRUNE_SHARE 1.0
/* The prune tries this many single columns in a row in each order before it stops. */
#define AS_GREEDY_PRUNE_TRIES 4

/* max_ij |phi_a(i, j)| = max_i |a_i| max_j |a_j - alpha_i| of kept column a:
   how far dropping it moves the row-centred error at most (by w_a times it). */
static double gr_reach(const gr_state *s, int64_t a)
{
    int64_t n = s->n, i;
    const double *x = s->Xs + a * n, *xa = s->XA + a * n;
    double lo = 0, hi = 0, r = 0;
    for (i = 0; i < n; i++) {
        lo = fmin(lo, x[i]);
        hi = fmax(hi, x[i]);
    }
    for (i = 0; i < n; i++)
        if (x[i] != 0) {
            double al = xa[i] / x[i];
            r = fmax(r, fabs(x[i]) * fmax(fabs(hi - al), fabs(lo - al)));
        }
    return r;
}

/* The prune: the kept columns whose drop costs f least (w_a^2 K_aa), then
   (when one more fails) those whose drop moves the error least (w_a times
   gr_reach), dropped as many at a time as rel still meets the target after the
   refit: the count doubles when it does (up to a 16th of the columns) and
   halves when it does not; a column whose drop alone fails is kept from then
   on, and after a few of those in a row the other order is tried. Its refits cost at most c->tune.greedy_prune_share
   times what the rounds' did (counted in k^2 per refit: the same on every
   machine). */
int as_gr_prune(gr_state *s, double target, double *rel, int minimax, as_common *c)
{
    int64_t k, a, q;
    gr_pick *order = NULL;
    gr_snap save;
    int how = 0;
    int64_t fails = 0;
    double budget, share;
    memset(&save, 0, sizeof save);
    q = s->k / 16;
    if (q < 1) q = 1;
    order = as_malloc(c, (size_t)(s->k > 0 ? s->k : 1), sizeof(gr_pick));
    if (!order || as_gr_snap_alloc(s, s->k, &save, c) != AS_OK) goto done;
    budget = s->work;
    share = minimax ? AS_GREEDY_MM_PRUNE_SHARE : c->tune.greedy_prune_share;
    while (s->k > 1 && s->work < (1.0 + share) * budget) {
        double r;
        int64_t open = 0;
        int kfree;
        k = s->k;
        /* K's diagonal (the K-free fit: the kept columns' norms ||phi_a||_W^2, the same numbers) */
        kfree = as_gr_kfree(s);
        if (how == 0 && !kfree && as_gr_normal(s, c) != AS_OK) goto done;
        if (how == 0 && kfree && as_gr_scores_kept(s, c) != AS_OK) goto done;
        s->fresh = how == 0 && !minimax && !kfree;   /* the trial's first refit: the same u and columns (dropping sets weights) */
        for (a = 0; a < k; a++) {
            /* largest first: the smallest loss of f, or the smallest move of the error;
               the columns whose drop alone failed last */
            int shut = s->in[s->sel[a]] == 2;
            double kaa = kfree ? s->norm[s->sel[a]] : s->K[a + a * k];
            order[a].v = shut ? -INFINITY : how == 0 ? -s->w[a] * s->w[a] * kaa : -s->w[a] * gr_reach(s, a);
            order[a].t = a;
            open += !shut;
        }
        if (open == 0) break;
        if (q > open) q = open;
        if (q >= k) q = k - 1;
        qsort(order, (size_t)k, sizeof *order, gr_pick_cmp);
        as_gr_snap_take(s, &save);
        for (a = 0; a < q; a++) {
            s->w[order[a].t] = 0;
            s->ban[order[a].t] = 1;
        }
        r = INFINITY;
        if ((minimax ? as_gr_fit_minimax(s, &r, AS_GREEDY_MM_TRIAL, c) : as_gr_refit(s, &r, c)) != AS_OK) goto done;
        for (a = 0; a < k; a++) s->ban[a] = 0;
        as_status(c, "greedy%s: prune %lld of %lld columns: rel %.4g%% (target %.4g%%), %.1f s", gr_path_words(s),
                  (long long)q, (long long)k, 100 * r, 100 * target, as_wtime() - c->started);
        if (r <= target) {
            *rel = r;
            as_gr_compact(s);
            fails = 0;
            /* it worked: twice as many next time (up to a 16th) */
            q = 2 * q < s->k / 16 ? 2 * q : (s->k / 16 > 1 ? s->k / 16 : 1);
            continue;
        }
        as_gr_snap_put(s, &save);
        if (q > 1) q /= 2;
        else {
            /* that column stays (its drop alone failed: with fewer columns it would too) */
            s->in[s->sel[order[0].t]] = 2;
            if (++fails >= AS_GREEDY_PRUNE_TRIES) {
                /* one at a time failed for the first few: the other order, from the start */
                fails = 0;
                if (++how == 2) break;
                q = k / 16 > 1 ? k / 16 : 1;
            }
        }
    }
    if (as_gr_make_h(s, s->H, c) == AS_OK) *rel = as_gr_rel(s, s->H, s->rowrel, c);
done:
    for (a = 0; a < s->k; a++) s->in[s->sel[a]] = 1;
    as_free(c, order);
    as_gr_snap_free(&save, c);
    return c->status;
}

/* The minimax fit of the kept columns (when 'memory' holds its entries),
   then, where it meets the target, the prune again with it: the columns the
   proxy's fit needed and the largest error itself does not. */
int as_gr_minimax_prune(gr_state *s, double target, double *rel, as_common *c)
{
    double r = *rel;
    if (c->tune.greedy_minimax <= 0 || s->k == 0 || !as_gr_minimax_room(s, c)) return c->status;
    if (as_gr_fit_minimax(s, &r, c->tune.greedy_minimax, c) != AS_OK) return c->status;
    as_status(c, "greedy%s: minimax fit of %lld columns: rel %.4g%%, %.1f s", gr_path_words(s), (long long)s->k,
              100 * r, as_wtime() - c->started);
    *rel = r;
    as_gr_compact(s);
    if (!isnan(target) && *rel <= target && s->k > 1) return as_gr_prune(s, target, rel, 1, c);
    return c->status;
}
