/* rng.c: counter-based random numbers: a draw depends on (seed, stream, index) only. */
#include "as_internal.h"
#include "rng.h"

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

/* log(k!) minus its Stirling approximation (k + 1/2) log(k + 1) - (k + 1) +
   log(2 pi) / 2: by lgamma for small k, by the series beyond (where lgamma's
   rounding would swamp the difference). */
static double as_stirling_tail(double k)
{
    double k1 = k + 1, k2;
    if (k <= 9) return lgamma(k1) - (k + 0.5) * log(k1) + k1 - 0.918938533204672741780;
    k2 = k1 * k1;
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / k2) / k2) / k1;
}

/* Binomial(n, p), p <= 1/2, n p >= 10: Hormann's BTRD (transformed rejection
   with a squeeze; W. Hormann, The generation of binomial random variates,
   J. Statist. Comput. Simul. 46, 1993). Uniforms from (seed, stream, *next). */
static double as_binomial_btrd(double n, double p, uint64_t seed, uint64_t stream, uint64_t *next)
{
    double m = floor((n + 1) * p), r = p / (1 - p), nr = (n + 1) * r, npq = n * p * (1 - p);
    double spq = sqrt(npq), b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p;
    double cc = n * p + 0.5, alpha = (2.83 + 5.1 / b) * spq, vr = 0.92 - 4.2 / b, urvr = 0.86 * vr;
    for (;;) {
        double u, v = as_rng_unif(seed, stream, (*next)++), us, k, km;
        if (v <= urvr) {
            u = v / vr - 0.43;
            return floor((2 * a / (0.5 - fabs(u)) + b) * u + cc);
        }
        if (v >= vr) u = as_rng_unif(seed, stream, (*next)++) - 0.5;
        else {
            u = v / vr - 0.93;
            u = (u < 0 ? -0.5 : 0.5) - u;
            v = as_rng_unif(seed, stream, (*next)++) * vr;
        }
        us = 0.5 - fabs(u);
        k = floor((2 * a / us + b) * u + cc);
        if (k < 0 || k > n) continue;
        v = v * alpha / (a / (us * us) + b);
        km = fabs(k - m);
        if (km <= 15) {
            /* f(k) / f(m) by the recursion of the probabilities */
            double f = 1, i;
            if (m < k)
                for (i = m + 1; i <= k; i++) f *= nr / i - r;
            else
                for (i = k + 1; i <= m; i++) v *= nr / i - r;
            if (v <= f) return k;
            continue;
        }
        {
            double rho = (km / npq) * (((km / 3 + 0.625) * km + 1.0 / 6) / npq + 0.5);
            double t = -km * km / (2 * npq), nm, nk, h;
            v = log(v);
            if (v < t - rho) return k;
            if (v > t + rho) continue;
            nm = n - m + 1;
            h = (m + 0.5) * log((m + 1) / (r * nm)) + as_stirling_tail(m) + as_stirling_tail(n - m);
            nk = n - k + 1;
            if (v <= h + (n + 1) * log(nm / nk) + (k + 0.5) * log(nk * r / (k + 1)) - as_stirling_tail(k) -
                     as_stirling_tail(n - k))
                return k;
        }
    }
}

double as_rng_binomial(double n, double p, uint64_t seed, uint64_t stream, uint64_t index)
{
    /* each variate owns the indices index * 2^16 ... of the stream (BTRD
       takes 2.3 uniforms on average; 2^16 are never reached in practice) */
    uint64_t next = index << 16;
    double q = p > 0.5 ? 1 - p : p, x;
    if (n <= 0 || q <= 0) x = 0;
    else if (n * q >= 10) x = as_binomial_btrd(n, q, seed, stream, &next);
    else {
        /* inversion: the probabilities from k = 0 up, f(0) = (1 - q)^n */
        double u = as_rng_unif(seed, stream, next), f = exp(n * log1p(-q)), F = f, s = q / (1 - q);
        x = 0;
        while (u > F && x < n && f > 0) {
            f *= (n - x) / (x + 1) * s;
            x++;
            F += f;
        }
    }
    return p > 0.5 ? n - x : x;
}
