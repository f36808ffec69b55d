/* bits_dump.c: a hash of every bit of each core call's result, for make check-flags. */
/* One line per call of the core (rand, det, greedy, refit, leverage, Gram, metrics, attention); the core built with R's,
   Octave's and -march=native flags must print the same. */
#include "as_internal.h"
#include "bits_hash.h"
#include "det.h"
#include "greedy.h"
#include "rand.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    const int64_t n = 40, d = 6000;
    double *X = malloc(sizeof(double) * (size_t)(n * d)), *G = malloc(sizeof(double) * (size_t)(n * n));
    double *lev = malloc(sizeof(double) * (size_t)d), *att = malloc(sizeof(double) * (size_t)(n * n));
    int32_t *p = malloc(sizeof(int32_t) * (size_t)(d + 1)), *i = malloc(sizeof(int32_t) * (size_t)(n * d));
    double *x = malloc(sizeof(double) * (size_t)(n * d));
    int64_t j, r, nz = 0, rank;
    int pr;
    as_matrix D, S;
    as_common c;
    as_result out;
    as_rand_options ro;
    as_det_options dop;
    as_metrics M;
    as_common_init(&c);
    if (as_example(n, d, 0.5, 7, X, &c) != AS_OK) return 2;
    as_view_dense(&D, n, d, X, n);
    /* a sparse copy: every third entry */
    p[0] = 0;
    for (j = 0; j < d; j++) {
        for (r = 0; r < n; r++)
            if ((r + j) % 3 == 0) { i[nz] = (int32_t)r; x[nz++] = X[r + j * n]; }
        p[j + 1] = (int32_t)nz;
    }
    as_view_csc32(&S, n, d, p, i, x);
    for (pr = 0; pr < 4; pr++) {
        const as_matrix *A = pr % 2 ? &S : &D;
        as_rand_options_init(&ro);
        ro.seed = 11;
        ro.probabilities = pr < 2 ? AS_PROB_LEVERAGE : AS_PROB_MIXED;
        ro.sampling = pr < 2 ? AS_SAMPLING_IID : AS_SAMPLING_POISSON;
        if (as_rand(A, &ro, &out, &c) != AS_OK) return 3;
        printf("rand %s %s: k %lld hash %016llx\n", pr % 2 ? "sparse" : "dense", pr < 2 ? "iid leverage" : "poisson mixed",
               (long long)out.k, (unsigned long long)bits_hash_sample(&out));
        as_result_free(&out, &c);
    }
    as_det_options_init(&dop);
    dop.eps = 0.5;
    if (as_det(&S, &dop, &out, &c) != AS_OK) return 4;
    printf("det sparse: k %lld hash %016llx\n", (long long)out.k, (unsigned long long)bits_hash_sample(&out));
    as_result_free(&out, &c);
    {
        as_greedy_options go;
        as_greedy_options_init(&go);
        go.rel = 0.02;
        if (as_greedy(&S, &go, &out, &c) != AS_OK) return 9;
        printf("greedy sparse: k %lld hash %016llx\n", (long long)out.k, (unsigned long long)bits_hash_sample(&out));
        as_result_free(&out, &c);
        as_rand_options_init(&ro);
        ro.seed = 12;
        ro.m = 300;
        ro.probabilities = AS_PROB_NORM;
        ro.sampling = AS_SAMPLING_POISSON;
        ro.refit = 1;
        if (as_rand(&D, &ro, &out, &c) != AS_OK) return 10;
        printf("rand dense refit: k %lld hash %016llx\n", (long long)out.k, (unsigned long long)bits_hash_sample(&out));
        as_result_free(&out, &c);
    }
    as_rand_options_init(&ro);
    ro.seed = 3;
    if (as_leverage(&D, &ro, lev, &rank, &c) != AS_OK) return 5;
    printf("leverage approx dense: rank %lld hash %016llx\n", (long long)rank,
           (unsigned long long)bits_hash(BITS_HASH_START, lev, sizeof(double) * (size_t)d));
    if (as_gram(&S, -1, NULL, NULL, G, &c) != AS_OK) return 6;
    printf("gram sparse: hash %016llx\n", (unsigned long long)bits_hash(BITS_HASH_START, G, sizeof(double) * (size_t)(n * n)));
    if (as_sym_attention(&D, att, &c) != AS_OK) return 7;
    printf("sym_attention dense: hash %016llx\n",
           (unsigned long long)bits_hash(BITS_HASH_START, att, sizeof(double) * (size_t)(n * n)));
    {
        as_matrix Y;
        as_metrics_options mo;
        as_metrics_options_init(&mo);
        mo.spectral = 1;
        as_view_dense(&Y, n, 500, X, n);
        if (as_attention_error_xy(&D, &Y, &mo, &M, &c) != AS_OK) return 8;
        printf("attention_error: hash %016llx\n", (unsigned long long)bits_hash(BITS_HASH_START, &M, sizeof M));
    }
    free(X); free(G); free(lev); free(att); free(p); free(i); free(x);
    return 0;
}
