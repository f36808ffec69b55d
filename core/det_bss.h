/* det_bss.h: what the barrier steps (det_bss.c) and their column scores (det_score.c) share: the run's state, a barrier's resolvent, the ranked candidates. */
#ifndef AS_DET_BSS_H
#define AS_DET_BSS_H

#include "det_shared.h"

typedef struct as_det_cand {
    int64_t j;         /* -1: none */
    double gap, U, L;  /* L_j - U_j (rounded: as_det_gap_key), U_j, L_j */
} as_det_cand;

/* The best candidates found so far, best first (at most cap). */
typedef struct as_det_top {
    int64_t cap, len;
    as_det_cand *c;
} as_det_top;

/* The barrier quantities come from an eigendecomposition refreshed every few
   steps and updated in between by Woodbury's identity, never from a
   factorization of rank size per step. At a refresh, A_b = A = Q diag(lam) Q';
   the m columns added since then (whitened v_i, weights t_i) are kept in
   eigen coordinates G = Q'V, so A = A_b + V T V' and, with D = diag(1/(x - lam))
   (upper barrier x = u') or diag(1/(lam - x)) (lower barrier x = l'), H = D G,
       (xI - A)^-1 = Q (D + H K H') Q',  K = (T^-1 - G'H)^-1,
       (A - xI)^-1 = Q (D - H K H') Q',  K = (T^-1 + G'H)^-1.
   Every step is certified exactly as before: x = u' above the base's
   eigenvalues and the Cholesky factorization of T^-1 - G'H (m x m) prove
   u'I - A positive definite (Sylvester's law of inertia on the Schur
   complement); l' below the base's eigenvalues proves A - l'I positive
   definite, as A >= A_b. The potentials are traces of these resolvents, the
   scores U_j, L_j quadratic forms in Q'v_j = Z x_j (Z = Q'W, r x n, formed at
   a refresh). A refresh comes after AS_DET_MCAP-ish added columns, when l'
   reaches the base's smallest eigenvalue, or when the lower potential's
   Woodbury correction cancels more than AS_DET_CANCEL of its leading term.

   A step first scores a few columns kept from earlier searches (the cache);
   only when none of them qualifies with a margin L - U not far below the
   last search's best does it search the tree (or every column): the kept
   columns save searches, the margin keeps the steps from spreading over many
   more columns than the searches would pick. Any column with U <= L makes a
   valid BSS step, so the guarantee does not depend on where it was found. */

/* Tuning: c->tune.det_phi_tol (1e-6), c->tune.det_refresh_cols (0: automatic). */

#define AS_DET_CANCEL 16.0    /* refresh when sum(D) exceeds the lower potential this many times */
#define AS_DET_SCORE_BLOCK 128 /* most columns a thread scores at a time (its arrays
                                 are this many columns wide) */

/* One barrier's resolvent at x for the current A (see above). */
typedef struct as_det_side {
    double *d;    /* r: the base's resolvent, diagonal                  */
    double *H;    /* r x m: D G                                         */
    double *K;    /* m x m (full): (T^-1 -+ G'H)^-1                      */
    double *HH;   /* m x m (full): H'H                                  */
    double *GH;   /* m x m (full): G'H = G'DG                            */
    double phi;   /* the potential: trace of the resolvent               */
    double dsum;  /* sum(d): the potential of the base alone             */
    double x;     /* the barrier: d, H, GH, HH hold columns 0 .. mk - 1  */
    int64_t mk, base;  /* of the base after refresh number 'base'        */
} as_det_side;

/* A thread's scoring workspace, AS_DET_SCORE_BLOCK columns wide: eigen
   coordinates Wb (r x BLOCK), gathered columns Xg (n x BLOCK), Ab, Bb
   (mc x BLOCK), Yb (r x BLOCK), su (BLOCK), its candidates (top's capacity). */
typedef struct as_det_ws {
    double *Wb, *Xg, *Ab, *Bb, *Yb, *su;
    as_det_cand *cand;
    int64_t ncand;   /* candidates in cand after a chunk */
} as_det_ws;

typedef struct as_det_run {
    const as_matrix *X;
    const as_bss_plan *P;
    int64_t n, d, r, smax, p;
    int nt;
    const double *W;  /* r x n: W G W' = I on the range of G                  */
    double *A;        /* r x r, lower triangle: sum_j t_j v_j v_j'            */
    double *Q, *lam;  /* r x r, r: the base's eigenvectors and eigenvalues    */
    double *Aw;       /* r x r: A's copy for the eigensolver                   */
    double *Z;        /* r x n: Q'W                                           */
    double *G, *tg;   /* r x (mcap + smax), mcap + smax: Q'v_i and t_i         */
    int64_t m, mcap, mc;  /* columns in G; a refresh past mcap; G's room */
    as_det_side S[4];        /* the sides at u, l, u', l' (pointers below)       */
    as_det_side *su0, *sl0, *SU, *SL;  /* at u, l (potentials); u', l' (scores) */
    as_det_ws *ws;    /* nt scoring workspaces, one a thread                   */
    /* the walk: Mt (p x p) = E' B E in the tree's coordinates, Mp packed */
    double *Et, *C, *EC, *T1, *Sm, *Mt, *Mp, *f;
    double gap_ref;   /* the best L - U of the last search                   */
    /* the cache: nc columns jc, their eigen coordinates Wc (r x ncap) */
    double *Wc;
    int64_t *jc, nc, ncap;
    double *v;        /* r: a picked column, whitened                          */
    int64_t *jp;      /* smax: the columns picked in a step                    */
    double dphiU, dphiL;
    int64_t refreshes, np, nsteps, searches, fallbacks;  /* refreshes, picks, steps, searches, rescans */
} as_det_run;

/* ---- det_score.c */
/* Add x to T (kept best first, at most T->cap). */
void as_det_top_add(as_det_top *T, const as_det_cand *x);
/* Offer column j with scores U, L: only U > 0 and L > U qualify. */
void as_det_offer(as_det_top *top, int64_t j, double su, double sl);
/* out (r x nb) = M X(:, cols), cols jj[0..nb) or j0 .. j0 + nb - 1 (jj NULL), M r x n. */
void as_det_cols(const as_det_run *R, as_det_ws *ws, const double *M, const int64_t *jj, int64_t j0, int64_t nb,
                 double *out);
/* The side at x (sign 1: upper barrier, -1: lower) for the current A: 0; 1, 2, 3 when it cannot be formed. */
int as_det_side_at(as_det_run *R, double x, int sign, as_det_side *S);
/* U_j and L_j of nb columns with eigen coordinates Wb (r x nb), offered to top. */
void as_det_score_cols(const as_det_run *R, as_det_ws *ws, const double *Wb, int64_t nb, const int64_t *jj, int64_t j0,
                       as_det_top *top);
/* Score columns j0 .. j1 - 1 over the threads, the best merged into top. */
int as_det_score_range(as_det_run *R, int64_t j0, int64_t j1, as_det_top *top, as_common *c);
/* The walk's matrix B = BL - BU in the tree's coordinates, packed into R->Mp. */
int as_det_walk_matrix(as_det_run *R, as_common *c);

#endif
