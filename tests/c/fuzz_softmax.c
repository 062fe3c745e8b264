/*
 * fuzz_softmax.c: a libFuzzer target for the one-row softmax functions the labs call
 * (c/attention.h: attn_softmax_stable, attn_softmax_naive, attn_softmax_backward,
 * attn_softmax_stats). Built and run by the Makefile's test-fuzz.
 *
 * The bytes choose the row length m (usually 1..12; sometimes 0, -1, 512 or 513), the scores
 * (small, large, -Infinity for a removed key, and sometimes NaN or +Infinity), which optional
 * outputs are NULL, and dLoss/da for the backward pass. Checked on every call:
 *   - stable: NaN or +Infinity in the row gives ATTN_ERR_NONFINITE and anything else ATTN_OK;
 *     then every weight is in [0, 1], the row sums to 1, or is all 0 exactly when every key is
 *     removed; removed keys get 0; no NaN from finite input; the terms are exp(s - shift) in
 *     [0, 1] with shift the row max and sum their sum, and weight = term / sum;
 *   - naive: on a row whose scores all lie in [-80, 80] (no overflow, no underflow) the weights
 *     equal the stable ones; a score above 89 makes its term +Infinity (the lesson);
 *   - backward: ds matches central differences, in double, of L(s) = Σ da·softmax(s), and
 *     sums to 0; a removed key gets exactly 0;
 *   - stats: the largest weight, the entropy in [0, ln m] and ‖J‖_F in [0, 1] match a double
 *     computation from the weights.
 */
#include "attention.h"

#include <float.h>
#include <string.h>

#include "fuzz.h"

enum { ROW_MAX = 16 };

static int row_length(reader *r)
{
    uint8_t b = take(r);
    if (b < 240) return 1 + b % 12;
    switch (b % 4) {
    case 0: return 0;
    case 1: return -1;
    case 2: return ATTN_MAX_TOKENS;
    default: return ATTN_MAX_TOKENS + 1;
    }
}

static float score_from(uint8_t b, int wild)
{
    if (wild && b == 255) return NAN;
    if (wild && b == 254) return INFINITY;
    if (b >= 240) return -INFINITY;
    if (b >= 230) return 1000.0f + (float)(b - 230) * 50.0f; /* past exp's float range for naive */
    if (b == 229) return -FLT_MAX;
    if (b == 228) return FLT_MAX;
    return ((float)b - 114.0f) / 8.0f; /* [-14.25, 14.25] */
}

/* softmax of s in double (0 for removed keys; all 0 when every key is removed) */
static void softmax_double(double *a, const double *s, int m)
{
    double max = -INFINITY, sum = 0;
    for (int j = 0; j < m; j++) max = s[j] > max ? s[j] : max;
    for (int j = 0; j < m; j++) {
        a[j] = max == -INFINITY || s[j] == -INFINITY ? 0.0 : exp(s[j] - max);
        sum += a[j];
    }
    for (int j = 0; j < m; j++) a[j] = sum > 0 ? a[j] / sum : 0.0;
}

static void check_stable(const float *s, int m, int wild_present, uint8_t nulls)
{
    float *a = fuzz_floats(m), *e = fuzz_floats(m), shift = NAN, sum = NAN;
    float *e_arg = nulls & 1 ? NULL : e, *shift_arg = nulls & 2 ? NULL : &shift, *sum_arg = nulls & 4 ? NULL : &sum;
    attn_status st = attn_softmax_stable(a, e_arg, shift_arg, sum_arg, s, m);
    if (wild_present) {
        REQUIRE(st == ATTN_ERR_NONFINITE, "stable: NaN or +Infinity in the row but not ATTN_ERR_NONFINITE");
        free(a), free(e);
        return;
    }
    REQUIRE(st == ATTN_OK, "stable refused a row of finite scores and -Infinity");
    int open = 0;
    float max = -INFINITY;
    for (int j = 0; j < m; j++) {
        open += s[j] != -INFINITY;
        max = s[j] > max ? s[j] : max;
        if (s[j] == -INFINITY) REQUIRE(a[j] == 0.0f, "stable: a removed key has a weight");
    }
    double total = require_weight_row(a, m);
    REQUIRE((total == 0.0) == (open == 0), "stable: a row sums to 0 although a key is left (or to 1 with none)");
    if (shift_arg) REQUIRE(shift == max, "stable: shift is not the row max");
    if (e_arg) {
        double esum = 0;
        for (int j = 0; j < m; j++) {
            REQUIRE(e[j] >= 0.0f && e[j] <= 1.0f, "stable: a term exp(s - max) is outside [0, 1]");
            esum += e[j];
        }
        /* sum is a float32 sum of m terms, one after another */
        if (sum_arg) REQUIRE(fabs(esum - sum) <= (1e-6 + 1.2e-7 * m) * esum, "stable: sum is not the sum of the terms");
        if (open) {
            REQUIRE(esum >= 1.0 - 1e-6, "stable: the terms sum below 1 (the max term is exp(0))");
            for (int j = 0; j < m; j++) REQUIRE(fabs(a[j] - e[j] / esum) <= 2e-6 + 3e-8 * m, "stable: a weight is not term / sum");
        }
    }
    /* the double softmax, where it is well conditioned (scores within float's exp range) */
    double sd[ROW_MAX * 40], ad[ROW_MAX * 40];
    if (m <= (int)(sizeof sd / sizeof sd[0])) {
        for (int j = 0; j < m; j++) sd[j] = s[j];
        softmax_double(ad, sd, m);
        /* float32 sums m/4 terms per lane: up to about (m/4)·2^-24 relative error in the sum */
        for (int j = 0; j < m; j++) REQUIRE(fabs(a[j] - ad[j]) <= 2e-6 + 3e-8 * m, "stable: a weight differs from the double softmax");
    }
    free(a), free(e);
}

static void check_naive(const float *s, int m, int wild_present)
{
    float *a = fuzz_floats(m), *e = fuzz_floats(m), sum = NAN;
    attn_status st = attn_softmax_naive(a, e, &sum, s, m);
    if (wild_present) {
        REQUIRE(st == ATTN_ERR_NONFINITE, "naive: NaN or +Infinity in the row but not ATTN_ERR_NONFINITE");
        free(a), free(e);
        return;
    }
    REQUIRE(st == ATTN_OK, "naive refused a row of finite scores and -Infinity");
    int tame = 1, over = 0;
    for (int j = 0; j < m; j++) {
        tame &= s[j] >= -80.0f && s[j] <= 80.0f;
        over |= s[j] > 89.0f;
        if (s[j] > 89.0f) REQUIRE(e[j] == INFINITY, "naive: exp of a score above 89 is not +Infinity in float32");
    }
    if (over) REQUIRE(sum == INFINITY, "naive: a +Infinity term but the sum is finite");
    if (tame) {
        float *b = fuzz_floats(m);
        REQUIRE(attn_softmax_stable(b, NULL, NULL, NULL, s, m) == ATTN_OK, "stable refused a tame row");
        /* the naive sum adds m float terms one after another: its error grows with m */
        for (int j = 0; j < m; j++) REQUIRE(fabsf(a[j] - b[j]) <= 1e-6f + 2.4e-7f * (float)m, "naive and stable differ on a tame row");
        free(b);
    }
    free(a), free(e);
}

/* L(s) = Σ da·softmax(s), in double */
static double loss_of(const double *s, const float *da, int m)
{
    double a[ROW_MAX * 40], L = 0;
    softmax_double(a, s, m);
    for (int j = 0; j < m; j++) L += da[j] * a[j];
    return L;
}

static void check_backward(const float *s, const float *da, int m)
{
    float *a = fuzz_floats(m), *ds = fuzz_floats(m);
    REQUIRE(attn_softmax_stable(a, NULL, NULL, NULL, s, m) == ATTN_OK, "stable refused a row for backward");
    REQUIRE(attn_softmax_backward(ds, a, da, m) == ATTN_OK, "backward refused finite weights and gradients");
    double sum = 0, scale = 0;
    for (int j = 0; j < m; j++) {
        REQUIRE(isfinite(ds[j]), "backward: ds is not finite from finite input");
        if (s[j] == -INFINITY) REQUIRE(ds[j] == 0.0f, "backward: a removed key has a gradient");
        sum += ds[j];
        scale += fabs(da[j]);
    }
    REQUIRE(fabs(sum) <= 1e-5 * (1 + scale), "backward: ds does not sum to 0 (softmax is shift-invariant)");
    /* central differences where they are accurate: moderate scores, no removed key */
    double sd[ROW_MAX * 40];
    int moderate = m <= 32; /* m finite differences of an m-term softmax each: keep it quick */
    for (int j = 0; j < m && moderate; j++) moderate = fabsf(s[j]) <= 20.0f, sd[j] = s[j];
    for (int k = 0; k < m && moderate; k++) {
        const double h = 1e-5;
        double keep = sd[k];
        sd[k] = keep + h;
        double up = loss_of(sd, da, m);
        sd[k] = keep - h;
        double down = loss_of(sd, da, m);
        sd[k] = keep;
        double fd = (up - down) / (2 * h);
        REQUIRE(fabs(ds[k] - fd) <= 1e-5 + 1e-4 * scale, "backward: ds differs from the central difference");
    }
    free(a), free(ds);
}

static void check_stats(const float *s, int m)
{
    float *a = fuzz_floats(m), mx = NAN, h = NAN, g = NAN;
    REQUIRE(attn_softmax_stable(a, NULL, NULL, NULL, s, m) == ATTN_OK, "stable refused a row for stats");
    REQUIRE(attn_softmax_stats(&mx, &h, &g, a, m) == ATTN_OK, "stats refused a row of weights");
    double want_max = 0, want_h = 0, s2 = 0, s3 = 0;
    for (int j = 0; j < m; j++) {
        double p = a[j];
        want_max = p > want_max ? p : want_max;
        if (p > 0) want_h -= p * log(p);
        s2 += p * p, s3 += p * p * p;
    }
    double j2 = s2 - 2 * s3 + s2 * s2;
    REQUIRE(mx == (float)want_max, "stats: max weight is not the largest weight");
    REQUIRE(fabs(h - want_h) <= 1e-5 * (1 + want_h), "stats: entropy differs from -Σ a ln a");
    REQUIRE(h >= 0.0f && h <= logf((float)m) + 1e-5f, "stats: entropy outside [0, ln m]");
    REQUIRE(fabs(g - sqrt(j2 > 0 ? j2 : 0)) <= 1e-5, "stats: the Jacobian norm differs from its formula");
    REQUIRE(g >= 0.0f && g <= 1.0f, "stats: the Jacobian norm is outside [0, 1]");
    free(a);
}

/* Sizes and NULLs: every function refuses a bad m with ATTN_ERR_SIZE before reading, and a
 * required NULL with ATTN_ERR_NULL. */
static void check_statuses(int m, uint8_t which)
{
    float one[1] = {0.5f}, out[1], x;
    if (m < 1 || m > ATTN_MAX_TOKENS) {
        REQUIRE(attn_softmax_stable(out, NULL, NULL, NULL, one, m) == ATTN_ERR_SIZE, "stable: bad m");
        REQUIRE(attn_softmax_naive(out, NULL, NULL, one, m) == ATTN_ERR_SIZE, "naive: bad m");
        REQUIRE(attn_softmax_backward(out, one, one, m) == ATTN_ERR_SIZE, "backward: bad m");
        REQUIRE(attn_softmax_stats(&x, &x, &x, one, m) == ATTN_ERR_SIZE, "stats: bad m");
        return;
    }
    switch (which % 8) {
    case 0: REQUIRE(attn_softmax_stable(NULL, NULL, NULL, NULL, one, 1) == ATTN_ERR_NULL, "stable: NULL a"); break;
    case 1: REQUIRE(attn_softmax_stable(out, NULL, NULL, NULL, NULL, 1) == ATTN_ERR_NULL, "stable: NULL s"); break;
    case 2: REQUIRE(attn_softmax_naive(NULL, NULL, NULL, one, 1) == ATTN_ERR_NULL, "naive: NULL a"); break;
    case 3: REQUIRE(attn_softmax_naive(out, NULL, NULL, NULL, 1) == ATTN_ERR_NULL, "naive: NULL s"); break;
    case 4: REQUIRE(attn_softmax_backward(NULL, one, one, 1) == ATTN_ERR_NULL, "backward: NULL ds"); break;
    case 5: REQUIRE(attn_softmax_backward(out, one, NULL, 1) == ATTN_ERR_NULL, "backward: NULL da"); break;
    case 6: REQUIRE(attn_softmax_stats(&x, NULL, &x, one, 1) == ATTN_ERR_NULL, "stats: NULL entropy"); break;
    default: {
        float nan_row[1] = {NAN};
        REQUIRE(attn_softmax_backward(out, nan_row, one, 1) == ATTN_ERR_NONFINITE, "backward: NaN weight");
        REQUIRE(attn_softmax_stats(&x, &x, &x, nan_row, 1) == ATTN_ERR_NONFINITE, "stats: NaN weight");
    }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    uint8_t flags = take(&r);
    int m = row_length(&r);
    check_statuses(m, take(&r));
    if (m < 1 || m > ATTN_MAX_TOKENS) return 0;
    int wild = flags & 1;
    float *s = fuzz_floats(m), *da = fuzz_floats(m);
    int wild_present = 0;
    for (int j = 0; j < m; j++) {
        s[j] = score_from(take(&r), wild);
        wild_present |= isnan(s[j]) || s[j] == INFINITY;
        da[j] = ((float)take(&r) - 128.0f) / 32.0f;
    }
    check_stable(s, m, wild_present, flags >> 1);
    check_naive(s, m, wild_present);
    if (!wild_present) {
        check_backward(s, da, m);
        check_stats(s, m);
    }
    free(s), free(da);
    return 0;
}
