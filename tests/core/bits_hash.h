/* bits_hash.h: a hash of every bit of a core result (FNV-1a), for the tests that compare bits between builds and thread counts. */
#ifndef AS_BITS_HASH_H
#define AS_BITS_HASH_H
#include <stddef.h>
#include <stdint.h>
#include "as_internal.h"

#define BITS_HASH_START 14695981039346656037ULL

static inline uint64_t bits_hash(uint64_t h, const void *p, size_t len)
{
    const unsigned char *b = p;
    size_t t;
    for (t = 0; t < len; t++) h = (h ^ b[t]) * 1099511628211ULL;
    return h;
}

/* index, weight and every number a sample carries */
static inline uint64_t bits_hash_sample(const as_result *S)
{
    uint64_t h = BITS_HASH_START;
    double nums[] = {S->rel_estimate, S->inf_estimate, S->eps_bound, S->out_error, S->out_rel_error,
                     S->presample_eps, S->refit_rel};
    int64_t ints[] = {S->k, S->m, S->rank, S->steps, S->presample_k};
    h = bits_hash(h, S->index, sizeof(int64_t) * (size_t)S->k);
    h = bits_hash(h, S->weight, sizeof(double) * (size_t)S->k);
    h = bits_hash(h, &S->metrics, sizeof S->metrics);
    h = bits_hash(h, nums, sizeof nums);
    return bits_hash(h, ints, sizeof ints);
}
#endif
