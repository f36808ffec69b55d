/* rand.h: the randomized method's choices, defaults and entry points (rand.c; its default m: sample.c; its options: options.c). */
#ifndef AS_RAND_H
#define AS_RAND_H

#include "as_internal.h"

/* MIXED: (p_leverage + p_norm) / 2, each part normalized to sum 1.
   AUTO (the default): LEVERAGE, or in target mode the one of LEVERAGE, NORM,
   MIXED whose pilot sample has the smallest estimated error per kept column. */
enum { AS_PROB_LEVERAGE = 0, AS_PROB_UNIFORM = 1, AS_PROB_NORM = 2, AS_PROB_MIXED = 3,
       AS_PROB_AUTO = 4 };
/* IID: m draws with replacement, a column drawn c times gets weight
   sqrt(c / (m p_j)). POISSON: column j kept with probability
   q_j = min(1, m p_j), weight 1 / sqrt(q_j); the decision depends on
   (seed, j) only. */
enum { AS_SAMPLING_IID = 0, AS_SAMPLING_POISSON = 1 };
enum { AS_LEV_APPROX = 0, AS_LEV_EXACT = 1 };
enum { AS_JL_GAUSSIAN = 0, AS_JL_AMS = 1 };

/* The spectral error asked for when eps is not given (outside target mode). */
#define AS_EPS_DEFAULT 0.5

int  as_rand_options_check(const as_rand_options *o, as_common *c);
/* The eps and sampling a run uses: the given ones, else the defaults above
   (as_rand_eps: NaN in target mode when eps is not given). */
double as_rand_eps(const as_rand_options *o);
int    as_rand_sampling(const as_rand_options *o);
/* as_options_set(AS_FOR_RAND, o, ...) */
int  as_rand_options_set(as_rand_options *o, const char *name, double value,
                         const char *text, as_common *c);
/* Largest m accepted (draws are counted, not stored; see AS_IID_MULTINOMIAL). */
#define AS_M_MAX 2147483647LL
/* i.i.d. sampling draws its counts as a multinomial (O(d), one binomial a
   column) from this many draws on when m >= d, else one draw at a time
   (O(m log d); 1e8 draws take about 6 s): 2^24, above the m of any default
   run on the inputs the tests and fixtures use, whose draws keep their bits. */
#define AS_IID_MULTINOMIAL 16777216LL

/* Draws from the matrix Chernoff bound (Tropp 2012, Thm 1.1) when every
   p_j >= tau_j / (beta rank), failing with probability at most delta:
   m = ceil(beta * rank * log(2 rank / delta) / ((1+eps) log(1+eps) - eps)).
   as_rand's default m is as_default_m(rank, eps, delta_s, out->beta): with
   o->beta >= 1 (the user's factor) or exact scores delta_s = delta; with
   approximate scores delta_s = delta / 2 and out->beta = (b / a) (Sigma / rank),
   Sigma the sum of the approximate scores and b / a the sketches' tail
   factors (the other delta / 2; core/leverage.c); mixed probabilities twice that; norm and
   uniform ones, which carry no such bound, beta = 2.
   Returns a double so that an oversized m can be reported, not wrapped. */
double as_default_m(int64_t rank, double eps, double delta, double beta);
/* The beta of norm and uniform probabilities, which carry no such bound. */
#define AS_BETA_UNBOUNDED 2.0
/* The randomized algorithm: o->m columns (or the default m) sampled i.i.d.
   or by Poisson sampling from the chosen probabilities, repeats merged and
   reweighted, then the error estimate o->estimate asks for, from the kept
   columns alone (gaussian: core/estimate_gauss.c; bootstrap: estimate.c).
   With o->rel (target mode) m is chosen over rounds of Poisson samples until
   rel_estimate <= rel (core/target.c says how), and with o->error the
   sample is grown until its exact rel meets rel too; out->rounds counts
   them. X X' is never formed but for the metrics ('error', 'spectral'). */
int as_rand(const as_matrix *X, const as_rand_options *o, as_result *out, as_common *c);

/* AS_OK when every entry of Y = X(:, index) * diag(weight) is finite; else
   AS_ERR_INPUT naming the column whose weight times entry overflows. as_rand
   calls it; front-ends call it after as_det. */
int as_sample_check_finite(const as_matrix *X, const as_result *S, as_common *c);

/* What the leverage scores of X used: numerical rank, embedding rows and
   nonzeros per column, JL width (0: not used; s1 = 0: exact scores). */
typedef struct as_lev_info {
    int64_t rank, s1, s, s2;
} as_lev_info;
/* as_leverage without the checks (rand.c). */
int as_leverage_run(const as_matrix *X, const as_rand_options *o, double *scores,
                    as_lev_info *info, as_common *c);

#endif
