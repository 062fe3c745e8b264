/*
 * fuzz.h: what every libFuzzer target in tests/c shares (fuzz_*.c; the Makefile's test-fuzz).
 *
 * A target reads its input bytes through a reader: take() gives the next byte (0 once they run
 * out), so every input, however short, is a valid program of calls. A failed REQUIRE prints
 * what broke and calls abort(), which libFuzzer reports with the input that caused it.
 * Buffers come from fuzz_floats: each its own heap allocation of exactly the size asked for,
 * filled with NaN, so AddressSanitizer catches one element outside and a value the code under
 * test forgot to write shows up.
 */
#ifndef TESTS_C_FUZZ_H
#define TESTS_C_FUZZ_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define REQUIRE(cond, what)                                                 \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, what);       \
            abort();                                                        \
        }                                                                   \
    } while (0)

typedef struct {
    const uint8_t *p;
    size_t left;
} reader;

static inline uint8_t take(reader *r)
{
    if (!r->left) return 0;
    r->left--;
    return *r->p++;
}

static inline uint32_t take_u32(reader *r)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) v = v << 8 | take(r);
    return v;
}

static inline float *fuzz_floats(long count)
{
    float *p = malloc((size_t)(count > 0 ? count : 1) * sizeof(float));
    REQUIRE(p != NULL, "out of memory");
    for (long i = 0; i < count; i++) p[i] = NAN;
    return p;
}

static inline int fuzz_all_finite(const float *x, long count)
{
    for (long i = 0; i < count; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

/* A row of m weights is in [0, 1] and sums to 1 (within float32 rounding over m terms), or is
 * all 0. Returns the sum. */
static inline double require_weight_row(const float *a, int m)
{
    double sum = 0;
    for (int j = 0; j < m; j++) {
        REQUIRE(a[j] >= 0.0f && a[j] <= 1.0f, "a weight is outside [0, 1] (or NaN)");
        sum += a[j];
    }
    REQUIRE(sum == 0.0 || fabs(sum - 1.0) <= 1e-5 + m * 2.4e-7, "a row of weights sums to neither 1 nor 0");
    return sum;
}

/* A gradient entry g of a float32 loss against its central difference: loss_at(ctx, v) is the
 * loss with the parameter set to v (whose value is x), biggest the largest entry of the whole
 * gradient. A central difference is off by about h²/6 times the third derivative, so where the
 * loss is sharply curved a step of 1e-2 is too coarse (fuzz_induction found a loss of 31 whose
 * gradient of -2.99 a step of 1e-2 measured as -1.72, and 2.5e-3 as -2.89). The step shrinks by
 * 4 up to three times before the two are called different; a wrong gradient differs at every
 * step. One case is let go: where even the smallest step's two one-sided slopes differ by more
 * than the tolerance, the loss has a kink there (a batch loss of 277 nats, its softmaxes
 * saturated into argmaxes: L rose by 0.09 at x + 1e-3 and by 4e-4 at x - 1e-3), and no difference
 * measures a gradient. That depends on the loss alone, so a wrong gradient on a smooth loss is
 * still caught. */
static inline void require_gradient(double g, float x, double biggest, double (*loss_at)(void *ctx, float v), void *ctx,
                                    long e, long count)
{
    static const float steps[] = {1e-2f, 2.5e-3f, 6.25e-4f, 1.5625e-4f};
    double fd[4], tol = 0, kink = 0;
    for (int q = 0; q < 4; q++) {
        const float h = steps[q];
        double up = loss_at(ctx, x + h), down = loss_at(ctx, x - h);
        double h_up = (double)(x + h) - x, h_down = x - (double)(x - h); /* the steps float really took */
        fd[q] = (up - down) / (h_up + h_down);
        tol = 2e-3 + 0.05 * fabs(fd[q]) + 0.01 * biggest;
        if (fabs(g - fd[q]) <= tol) return;
        if (q == 3) {
            double mid = loss_at(ctx, x);
            kink = fabs((up - mid) / h_up - (mid - down) / h_down);
        }
    }
    if (kink > tol) return; /* not smooth at this scale: no difference measures the gradient */
    fprintf(stderr, "parameter %ld of %ld: gradient %.9g, central differences %.9g, %.9g, %.9g, %.9g (steps %g, %g, %g, %g; largest gradient %.3g)\n",
            e, count, g, fd[0], fd[1], fd[2], fd[3], steps[0], steps[1], steps[2], steps[3], biggest);
    REQUIRE(0, "a gradient differs from the central difference of the batch loss at every step");
}

#endif
