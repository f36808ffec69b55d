/* rng.c: counter-based random numbers: a draw depends on (seed, stream, index) only. */
#include "as_internal.h"

/* splitmix64's finalizer: a bijective mix with full avalanche. */
static uint64_t as_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t as_rng_u64(uint64_t seed, uint64_t stream, uint64_t index)
{
    uint64_t key = as_mix64(seed * 0x9e3779b97f4a7c15ULL + stream * 0xd1b54a32d192ed03ULL);
    return as_mix64(key ^ as_mix64(index + 0x632be59bd9b4e019ULL));
}

double as_rng_unif(uint64_t seed, uint64_t stream, uint64_t index)
{
    /* 53 random bits, shifted by half a unit so the result is never 0 or 1 */
    return ((double)(as_rng_u64(seed, stream, index) >> 11) + 0.5) * 0x1.0p-53;
}

double as_rng_normal(uint64_t seed, uint64_t stream, uint64_t index)
{
    /* Box-Muller from two uniforms at indices 2i and 2i+1 */
    double u1 = as_rng_unif(seed, stream, 2 * index);
    double u2 = as_rng_unif(seed, stream, 2 * index + 1);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586476925 * u2);
}
