/*
 * test_labs.c: native tests of the one-row softmax functions the labs use (attn_softmax_stable,
 * attn_softmax_naive, attn_softmax_backward, attn_softmax_stats in c/attention.h), meant to run
 * under AddressSanitizer and UndefinedBehaviorSanitizer (the Makefile's test-c target):
 *
 *   clang -std=c99 -g -fsanitize=address,undefined -fno-sanitize-recover=all -Ic \
 *         c/attention.c tests/c/test_labs.c -lm -o /tmp/t && /tmp/t
 *
 * Every buffer is its own heap allocation of exactly the documented size, filled with NaN, so
 * a read or write outside it is caught and a value the core forgot to write shows up.
 * Results are compared with a double-precision reference written here from the maths.
 * Prints one line per test and a last line "N passed, M failed"; exits non-zero on any failure.
 */
#include "attention.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static double worst_diff;

static int close_enough(double got, double want)
{
    double diff = fabs(got - want);
    if (diff > worst_diff) worst_diff = diff;
    return diff <= 1e-6 + 1e-5 * fabs(want);
}

/* softmax in double, max-subtracted: the reference for both float versions */
static void ref_softmax(double *a, const float *s, int m)
{
    double mx = -INFINITY, sum = 0.0;
    for (int j = 0; j < m; j++) mx = s[j] > mx ? s[j] : mx;
    for (int j = 0; j < m; j++) sum += (a[j] = exp((double)s[j] - mx));
    for (int j = 0; j < m; j++) a[j] /= sum;
}

/* ---------------------------------------------------------------- the tests */

static void stable_and_naive_agree_with_the_double_reference_on_small_seeded_rows(void)
{
    rng_state = 7;
    for (int trial = 0; trial < 200; trial++) {
        int m = 1 + (int)(rng_next() * 40);
        float *s = fbuf(m, NULL), *a = fbuf(m, NULL), *b = fbuf(m, NULL), *e = fbuf(m, NULL);
        double *want = malloc(sizeof(double) * (size_t)m);
        for (int j = 0; j < m; j++) s[j] = (float)(-10.0 + 20.0 * rng_next());
        ref_softmax(want, s, m);
        float shift = NAN, sum = NAN, nsum = NAN;
        CHECK(attn_softmax_stable(a, e, &shift, &sum, s, m) == ATTN_OK, "stable status");
        CHECK(attn_softmax_naive(b, NULL, &nsum, s, m) == ATTN_OK, "naive status");
        double esum = 0.0;
        for (int j = 0; j < m; j++) {
            CHECK(close_enough(a[j], want[j]), "stable a[%d] = %.9g, reference %.9g (m = %d)", j, a[j], want[j], m);
            CHECK(close_enough(b[j], want[j]), "naive a[%d] = %.9g, reference %.9g (m = %d)", j, b[j], want[j], m);
            CHECK(close_enough(e[j], exp((double)s[j] - shift)), "e[%d] = %.9g", j, e[j]);
            CHECK(e[j] <= 1.0f, "e[%d] = %.9g > 1: the max was not subtracted", j, e[j]);
            esum += e[j];
        }
        CHECK(close_enough(sum, esum), "sum %.9g, Σe %.9g", sum, esum);
        CHECK(sum >= 1.0f, "the stable sum %.9g is below 1 (its max term is exp(0))", sum);
        free(s); free(a); free(b); free(e); free(want);
    }
}

static void the_lessons_knowledge_check_row_2_2_0_gives_0_468_0_468_0_063(void)
{
    const float s0[3] = {2, 2, 0};
    float *s = fbuf(3, s0), *a = fbuf(3, NULL);
    CHECK(attn_softmax_stable(a, NULL, NULL, NULL, s, 3) == ATTN_OK, "status");
    CHECK(fabs(a[0] - 0.468) < 5e-4 && fabs(a[1] - 0.468) < 5e-4 && fabs(a[2] - 0.063) < 5e-4,
          "weights %.4f %.4f %.4f", a[0], a[1], a[2]);
    free(s); free(a);
}

static void naive_overflows_to_inf_and_nan_past_88_where_stable_stays_correct(void)
{
    const float s0[4] = {1000, 990, 500, 0};
    float *s = fbuf(4, s0), *a = fbuf(4, NULL), *e = fbuf(4, NULL), *b = fbuf(4, NULL);
    float sum = 0;
    CHECK(attn_softmax_naive(a, e, &sum, s, 4) == ATTN_OK, "the naive status is OK: the NaN is the lesson");
    CHECK(isinf(e[0]) && e[0] > 0 && isinf(e[1]) && isinf(e[2]), "exp(1000), exp(990), exp(500) are +Inf: %g %g %g", e[0], e[1], e[2]);
    CHECK(e[3] == 1.0f, "exp(0) = %g", e[3]);
    CHECK(isinf(sum), "the naive sum is +Inf: %g", sum);
    CHECK(isnan(a[0]) && isnan(a[1]) && isnan(a[2]), "Inf/Inf is NaN: %g %g %g", a[0], a[1], a[2]);
    CHECK(a[3] == 0.0f, "1/Inf is 0: %g", a[3]);
    CHECK(attn_softmax_stable(b, NULL, NULL, NULL, s, 4) == ATTN_OK, "stable status");
    double want[4];
    ref_softmax(want, s, 4);
    for (int j = 0; j < 4; j++) CHECK(isfinite(b[j]) && close_enough(b[j], want[j]), "stable a[%d] = %g, reference %g", j, b[j], want[j]);
    /* the edge: 88 still fits in float32 (exp(88) = 1.65e38), 89 does not */
    const float edge[2] = {88, 89};
    for (int k = 0; k < 2; k++) {
        float *x = fbuf(1, &edge[k]), *y = fbuf(1, NULL), *ex = fbuf(1, NULL);
        attn_softmax_naive(y, ex, NULL, x, 1);
        CHECK(k == 0 ? (isfinite(ex[0]) && y[0] == 1.0f) : (isinf(ex[0]) && isnan(y[0])),
              "naive at %g: exp = %g, weight = %g", edge[k], ex[0], y[0]);
        free(x); free(y); free(ex);
    }
    free(s); free(a); free(e); free(b);
}

static void removed_keys_get_zero_and_a_row_of_removed_keys_is_all_zero(void)
{
    const float s0[3] = {1, -INFINITY, 1};
    float *s = fbuf(3, s0), *a = fbuf(3, NULL), *b = fbuf(3, NULL);
    CHECK(attn_softmax_stable(a, NULL, NULL, NULL, s, 3) == ATTN_OK, "status");
    CHECK(a[0] == 0.5f && a[1] == 0.0f && a[2] == 0.5f, "weights %g %g %g", a[0], a[1], a[2]);
    CHECK(attn_softmax_naive(b, NULL, NULL, s, 3) == ATTN_OK && b[1] == 0.0f, "naive weight of a removed key %g", b[1]);
    const float all0[2] = {-INFINITY, -INFINITY};
    float *t = fbuf(2, all0), *c = fbuf(2, NULL), *e = fbuf(2, NULL), sum = NAN, shift = 0;
    CHECK(attn_softmax_stable(c, e, &shift, &sum, t, 2) == ATTN_OK && c[0] == 0.0f && c[1] == 0.0f && sum == 0.0f,
          "all removed: %g %g sum %g", c[0], c[1], sum);
    CHECK(e[0] == 0.0f && e[1] == 0.0f && shift == -INFINITY, "all removed: terms %g %g (want 0), shift %g (want -inf)", e[0], e[1], shift);
    free(s); free(a); free(b); free(t); free(c); free(e);
}

static void backward_matches_central_differences_in_double(void)
{
    rng_state = 11;
    for (int trial = 0; trial < 50; trial++) {
        int m = 1 + (int)(rng_next() * 20);
        float *s = fbuf(m, NULL), *a = fbuf(m, NULL), *da = fbuf(m, NULL), *ds = fbuf(m, NULL);
        double *p = malloc(sizeof(double) * (size_t)m), *q = malloc(sizeof(double) * (size_t)m);
        float *sp = fbuf(m, NULL);
        for (int j = 0; j < m; j++) { s[j] = (float)(-3 + 6 * rng_next()); da[j] = (float)(-1 + 2 * rng_next()); }
        attn_softmax_stable(a, NULL, NULL, NULL, s, m);
        CHECK(attn_softmax_backward(ds, a, da, m) == ATTN_OK, "status");
        for (int k = 0; k < m; k++) {
            /* loss = Σ da·a; d loss / d s[k] by central differences in double */
            const double h = 1e-3;
            for (int j = 0; j < m; j++) sp[j] = s[j];
            sp[k] = (float)(s[k] + h); ref_softmax(p, sp, m);
            sp[k] = (float)(s[k] - h); ref_softmax(q, sp, m);
            double plus = 0, minus = 0, step = ((double)(float)(s[k] + h) - (double)(float)(s[k] - h));
            for (int j = 0; j < m; j++) { plus += da[j] * p[j]; minus += da[j] * q[j]; }
            double want = (plus - minus) / step;
            CHECK(fabs(ds[k] - want) < 1e-4, "ds[%d] = %.7g, central difference %.7g (m = %d)", k, ds[k], want, m);
        }
        free(s); free(a); free(da); free(ds); free(p); free(q); free(sp);
    }
}

static void stats_give_max_entropy_and_jacobian_norm_for_uniform_one_hot_and_random_rows(void)
{
    enum { M = 8 };
    float u0[M], h0[M] = {0, 0, 1, 0, 0, 0, 0, 0};
    for (int j = 0; j < M; j++) u0[j] = 1.0f / M;
    float *u = fbuf(M, u0), *h = fbuf(M, h0), mx, ent, g;
    CHECK(attn_softmax_stats(&mx, &ent, &g, u, M) == ATTN_OK, "status");
    CHECK(close_enough(mx, 1.0 / M) && close_enough(ent, log(M)) && close_enough(g, sqrt(M - 1.0) / M),
          "uniform: max %g entropy %g (ln 8 = %g) norm %g (√7/8 = %g)", mx, ent, log(M), g, sqrt(M - 1.0) / M);
    CHECK(attn_softmax_stats(&mx, &ent, &g, h, M) == ATTN_OK, "status");
    CHECK(mx == 1.0f && ent == 0.0f && g == 0.0f, "one-hot: max %g entropy %g norm %g", mx, ent, g);
    /* a random row: the norm equals √(Σₖ ‖backward(eₖ)‖²), the Jacobian built column by column */
    rng_state = 5;
    float s0[M], *s = fbuf(M, NULL), *a = fbuf(M, NULL), *ek = fbuf(M, NULL), *col = fbuf(M, NULL);
    for (int j = 0; j < M; j++) s[j] = s0[j] = (float)(-2 + 4 * rng_next());
    attn_softmax_stable(a, NULL, NULL, NULL, s, M);
    double fro = 0;
    for (int k = 0; k < M; k++) {
        for (int j = 0; j < M; j++) ek[j] = j == k ? 1.0f : 0.0f;
        attn_softmax_backward(col, a, ek, M);
        for (int j = 0; j < M; j++) fro += (double)col[j] * col[j];
    }
    CHECK(attn_softmax_stats(&mx, &ent, &g, a, M) == ATTN_OK, "status");
    CHECK(fabs(g - sqrt(fro)) < 1e-6, "norm %.9g, from backward %.9g", g, sqrt(fro));
    free(u); free(h); free(s); free(a); free(ek); free(col);
}

static void bad_sizes_null_buffers_and_nan_or_plus_infinity_return_error_codes(void)
{
    float *s = fbuf(2, NULL), *a = fbuf(2, NULL), *d = fbuf(2, NULL), x = 0;
    s[0] = 1; s[1] = NAN;
    CHECK(attn_softmax_stable(a, NULL, NULL, NULL, s, 2) == ATTN_ERR_NONFINITE, "NaN score");
    CHECK(attn_softmax_naive(a, NULL, NULL, s, 2) == ATTN_ERR_NONFINITE, "NaN score, naive");
    s[1] = INFINITY;
    CHECK(attn_softmax_stable(a, NULL, NULL, NULL, s, 2) == ATTN_ERR_NONFINITE, "+Inf score");
    s[1] = 0;
    CHECK(attn_softmax_stable(a, NULL, NULL, NULL, s, 0) == ATTN_ERR_SIZE, "m = 0");
    CHECK(attn_softmax_naive(a, NULL, NULL, s, ATTN_MAX_TOKENS + 1) == ATTN_ERR_SIZE, "m too large");
    CHECK(attn_softmax_stable(NULL, NULL, NULL, NULL, s, 2) == ATTN_ERR_NULL, "a NULL");
    CHECK(attn_softmax_naive(NULL, NULL, NULL, s, 2) == ATTN_ERR_NULL && attn_softmax_naive(a, NULL, NULL, NULL, 2) == ATTN_ERR_NULL, "naive: a or s NULL");
    CHECK(attn_softmax_stable(a, NULL, NULL, NULL, NULL, 2) == ATTN_ERR_NULL, "stable: s NULL");
    CHECK(attn_softmax_backward(d, a, NULL, 2) == ATTN_ERR_NULL, "da NULL");
    CHECK(attn_softmax_stats(&x, &x, NULL, s, 2) == ATTN_ERR_NULL, "grad_norm NULL");
    CHECK(attn_softmax_stats(NULL, &x, &x, s, 2) == ATTN_ERR_NULL && attn_softmax_stats(&x, NULL, &x, s, 2) == ATTN_ERR_NULL &&
              attn_softmax_stats(&x, &x, &x, NULL, 2) == ATTN_ERR_NULL,
          "stats: max_weight, entropy or a NULL");
    CHECK(attn_softmax_backward(NULL, a, s, 2) == ATTN_ERR_NULL && attn_softmax_backward(d, NULL, s, 2) == ATTN_ERR_NULL, "backward: ds or a NULL");
    d[0] = 0.5f; d[1] = NAN;
    CHECK(attn_softmax_stats(&x, &x, &x, d, 2) == ATTN_ERR_NONFINITE, "NaN weight");
    free(s); free(a); free(d);
}

/* attn_softmax_backward refuses NaN and +-Infinity in either input, as every other lab function
 * does: a gradient through a row with one bad number would be NaN everywhere. */
static void softmax_backward_refuses_nan_or_infinity_in_the_weights_or_the_gradient(void)
{
    const float bad[3] = {NAN, INFINITY, -INFINITY};
    for (int v = 0; v < 3; v++)
        for (int which = 0; which < 2; which++)
            for (int at = 0; at < 5; at += 4) {
                float *a = fbuf(5, NULL), *da = fbuf(5, NULL), *ds = fbuf(5, NULL);
                for (int j = 0; j < 5; j++) a[j] = 0.2f, da[j] = (float)j;
                (which ? da : a)[at] = bad[v];
                attn_status st = attn_softmax_backward(ds, a, da, 5);
                CHECK(st == ATTN_ERR_NONFINITE, "%g in %s[%d]: status %d, want ATTN_ERR_NONFINITE", bad[v], which ? "da" : "a", at, st);
                free(a), free(da), free(ds);
            }
}

/* The terms e[j] = exp(s[j] − max) come from the core's own exp (every softmax uses it): within
 * 3e-7 of exp in double (about two float ulps) for every exponent from 0 down to −87 in steps of
 * 1e-3, −87 itself included; from there down to about −103.97 exp is a float32 subnormal, and the
 * core gives float32's: the double rounded to float, to within one subnormal step (2^-149), as
 * PyTorch does; at −104 and below float32 has nothing that small, and the core gives 0. */
static void softmax_terms_are_float32_exp_from_0_to_minus_104(void)
{
    double worst = 0, at = 0;
    float *s = fbuf(2, NULL), *a = fbuf(2, NULL), *e = fbuf(2, NULL);
    for (int k = 0; k <= 87000; k++) {
        s[0] = 0.0f, s[1] = -(float)k / 1000.0f;
        attn_softmax_stable(a, e, NULL, NULL, s, 2);
        double want = exp((double)s[1]), rel = fabs(e[1] - want) / want;
        if (rel > worst) worst = rel, at = s[1];
    }
    CHECK(worst < 3e-7, "exp(%g) is off by %.3g of itself", at, worst);
    int off = 0;
    float off_at = 0;
    for (int k = 87000; k <= 103970; k++) {
        s[0] = 0.0f, s[1] = -(float)k / 1000.0f;
        attn_softmax_stable(a, e, NULL, NULL, s, 2);
        float want = (float)exp((double)s[1]);
        float step = want < FLT_MIN ? 1.40129846e-45f : want - nextafterf(want, 0.0f);
        if (!(fabsf(e[1] - want) <= step) || e[1] == 0.0f) off++, off_at = s[1];
    }
    CHECK(off == 0, "%d exponents from -87 to -103.97 miss float32's exp by more than a step, or give 0 (the last at %g)", off, off_at);
    for (int k = 0; k < 3; k++) {
        s[1] = -104.0f - 10.0f * (float)k;
        attn_softmax_stable(a, e, NULL, NULL, s, 2);
        CHECK(e[1] == 0.0f && a[0] == 1.0f, "exp(%g) = %g (float32 rounds it to 0), weight %g", s[1], e[1], a[0]);
    }
    free(s), free(a), free(e);
}

int main(void)
{
    RUN(stable_and_naive_agree_with_the_double_reference_on_small_seeded_rows);
    RUN(the_lessons_knowledge_check_row_2_2_0_gives_0_468_0_468_0_063);
    RUN(naive_overflows_to_inf_and_nan_past_88_where_stable_stays_correct);
    RUN(removed_keys_get_zero_and_a_row_of_removed_keys_is_all_zero);
    RUN(backward_matches_central_differences_in_double);
    RUN(stats_give_max_entropy_and_jacobian_norm_for_uniform_one_hot_and_random_rows);
    RUN(bad_sizes_null_buffers_and_nan_or_plus_infinity_return_error_codes);
    RUN(softmax_backward_refuses_nan_or_infinity_in_the_weights_or_the_gradient);
    RUN(softmax_terms_are_float32_exp_from_0_to_minus_104);
    printf("max |core - double reference| = %.3g\n", worst_diff);
    return print_summary();
}
