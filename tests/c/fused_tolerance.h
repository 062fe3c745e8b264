/*
 * fused_tolerance.h: how far attn_sdpa_fused's O may be from attn_sdpa's, which test_fused.c and
 * fuzz_attention.c both check. Both forms compute every score bit for bit alike; they differ in
 * two roundings. exp(z − max): the fused form subtracts each tile's running maximum and rescales
 * by alpha later, the long form the row's maximum; each rounds z − max to about eps·|z − max|, so
 * a weight moves by that much relative to its value, and O (a weighted average of V's rows) by at
 * most about max|V|·eps·(the spread of a row's visible z = score + mask). And the sum over m keys:
 * the two forms add the same terms in another order, each sum within m·eps·max|V| of the exact
 * one in the worst case. The bound: eps·max|V|·(8·(1 + spread) + m). Measured on test_fused.c's
 * shapes: at most 1.2e-7 for |V| <= 1 and spreads of a few units (about one eps); a fuzzed head of
 * 512 equal scores and V near 414 differed by 2e-3, about 5·eps·m relative, as the long form's
 * long sum rounds.
 */
#ifndef TESTS_C_FUSED_TOLERANCE_H
#define TESTS_C_FUSED_TOLERANCE_H

#include <float.h>
#include <math.h>

/* The bound, from the largest |v|, the widest row spread of visible z and the number of keys. */
static double fused_tol(double vmax, double spread, int m)
{
    return FLT_EPSILON * (vmax > FLT_MIN ? vmax : FLT_MIN) * (8.0 * (1.0 + spread) + m);
}

/* The largest |x[e]| over count values. */
static double largest_abs(const float *x, long count)
{
    double best = 0.0;
    for (long e = 0; e < count; e++) best = fabs(x[e]) > best ? fabs(x[e]) : best;
    return best;
}

/* The widest spread, max − min, of the visible z = S + mask over one row (S the long form's, [n, m]). */
static double largest_spread(const float *S, const float *mask, int causal, int n, int m)
{
    double widest = 0.0;
    for (int i = 0; i < n; i++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int j = 0; j < m && (!causal || j <= i); j++) {
            double z = (double)S[(long)i * m + j] + (mask ? mask[(long)i * m + j] : 0.0f);
            if (isfinite(z)) lo = z < lo ? z : lo, hi = z > hi ? z : hi;
        }
        if (hi > lo && hi - lo > widest) widest = hi - lo;
    }
    return widest;
}

/* The bound for a call: fused_tol of its V, the long form's S and the mask. */
static double fused_tolerance(const float *V, const float *S, const float *mask, int causal, int n, int m, int dv)
{
    return fused_tol(largest_abs(V, (long)m * dv), largest_spread(S, mask, causal, n, m), m);
}

#endif
