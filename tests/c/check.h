/*
 * check.h: the small harness every native C test in tests/c shares. Include it once, after
 * the headers under test. Tests are functions run with RUN(name); CHECK(cond, fmt, ...) notes a
 * failed check (printing the first five of each test); print_summary() prints the closing line
 * "N passed, M failed" that CI reads, and returns the exit code.
 *
 * Buffers come from fbuf: each its own heap allocation of exactly the asked size, filled with
 * NaN so a value the code under test forgot to write shows up, and so AddressSanitizer catches
 * a read or write one element outside. The seeded PRNG is mulberry32, as in the JS tests.
 */
#ifndef TESTS_C_CHECK_H
#define TESTS_C_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int tests_passed, tests_failed;
static int current_failures;

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            if (current_failures++ < 5) {                                 \
                printf("    %s:%d: ", __FILE__, __LINE__);                \
                printf(__VA_ARGS__);                                      \
                printf("\n");                                             \
            }                                                             \
        }                                                                 \
    } while (0)

#define RUN(test)                                                         \
    do {                                                                  \
        current_failures = 0;                                             \
        test();                                                           \
        if (current_failures) {                                           \
            tests_failed++;                                               \
            printf("FAIL %s (%d failed checks)\n", #test, current_failures); \
        } else {                                                          \
            tests_passed++;                                               \
            printf("ok   %s\n", #test);                                   \
        }                                                                 \
        fflush(stdout);                                                   \
    } while (0)

static inline int print_summary(void)
{
    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed ? 1 : 0;
}

/* An exactly sized float buffer filled with NaN (or copied from src when given). */
static inline float *fbuf(long count, const float *src)
{
    float *p = malloc((size_t)(count > 0 ? count : 1) * sizeof(float));
    if (!p) {
        printf("out of memory\n");
        exit(2);
    }
    for (long i = 0; i < count; i++) p[i] = src ? src[i] : NAN;
    return p;
}

/* mulberry32, the same seeded PRNG the JS tests use. */
static uint32_t rng_state;
static inline void rng_seed(uint32_t s) { rng_state = s; }
static inline double rng_next(void)
{
    uint32_t t = (rng_state += 0x6d2b79f5u);
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return (double)(t ^ (t >> 14)) / 4294967296.0;
}
static inline int rng_int(int lo, int hi) { return lo + (int)(rng_next() * (hi - lo + 1)); }
static inline float *rand_matrix(long count, double lo, double hi)
{
    float *p = fbuf(count, NULL);
    for (long i = 0; i < count; i++) p[i] = (float)(lo + (hi - lo) * rng_next());
    return p;
}

#endif
