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

#endif
