/* rng.h: the counter-based random generator and its streams (rng.c). */
#ifndef AS_RNG_H
#define AS_RNG_H

#include "as_internal.h"

/* Counter-based generator: depends on (seed, stream, index) only. */
uint64_t as_rng_u64(uint64_t seed, uint64_t stream, uint64_t index);
double   as_rng_unif(uint64_t seed, uint64_t stream, uint64_t index);   /* in (0, 1) */
double   as_rng_normal(uint64_t seed, uint64_t stream, uint64_t index);
/* A Binomial(n, p) variate (n a whole number up to 2^53, p in [0, 1]), exact:
   inversion when n min(p, 1 - p) < 10, else Hormann's BTRD; it reads the
   uniforms of indices index * 2^16 ... of the stream. */
double   as_rng_binomial(double n, double p, uint64_t seed, uint64_t stream, uint64_t index);

/* Random streams (distinct constants keep the draws of each step independent). */
enum { AS_STREAM_OSNAP = 1, AS_STREAM_JL = 2, AS_STREAM_SAMPLE = 3, AS_STREAM_AMS = 4,
       AS_STREAM_POISSON = 5, AS_STREAM_BOOTSTRAP = 6, AS_STREAM_MULTINOMIAL = 7 };

#endif
