/*
 * fuzz_attention.c: a libFuzzer target for attn_project, attn_sdpa, attn_sdpa_fused,
 * attn_mask_build and attn_default_scale (c/attention.h).
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Ic \
 *         c/attention.c tests/c/fuzz_attention.c -lm -o build/fuzz_attention
 *   build/fuzz_attention -seed=1 -runs=200000 -max_len=4096 build/fuzz-corpus
 *
 * The bytes choose the sizes (usually 1..8; sometimes 0, -1, the limit, one past it, INT_MAX or
 * INT_MIN), which inputs may hold NaN, +-Infinity or huge values, a mask (-Infinity entries, and
 * sometimes NaN or +Infinity), causal, the scale, and a NULL argument. Every buffer is its own
 * heap allocation of exactly the size the header documents (one float when a size is invalid,
 * so the core must refuse before it reads), so AddressSanitizer catches any access outside it.
 *
 * Checked on every call:
 *   - the status is ATTN_OK when every argument is valid (with huge values, whose products may
 *     overflow float32, an error is also accepted), never ATTN_OK when one is not, and when only
 *     one thing is wrong it is that thing's code;
 *   - on ATTN_OK from attn_sdpa: every weight is in [0, 1]; hidden keys (mask -inf, or causal
 *     j > i) have weight exactly 0; a row sums to 1, or is all 0 with an all-0 output when every
 *     key is hidden; each output is finite (the inputs are, since the call succeeded) and lies
 *     within the range of the value rows it mixes (both checked for |V| <= 1e38);
 *   - on ATTN_OK from attn_project with ordinary-sized inputs, Q, K and V are finite.
 * A failed check calls abort(), which libFuzzer reports with the input that caused it.
 */
#include "attention.h"

#include <float.h>
#include <limits.h>
#include <string.h>

#include "fuzz.h"
#include "fused_tolerance.h"

/* Usually 1..8; one byte in sixteen picks an edge: 0, -1, limit + 1, INT_MAX, INT_MIN or the limit. */
static int size_from(reader *r, int limit)
{
    uint8_t b = take(r);
    if ((b & 0xF0) != 0xF0) return 1 + b % 8;
    switch (b % 6) {
    case 0: return 0;
    case 1: return -1;
    case 2: return limit + 1;
    case 3: return INT_MAX;
    case 4: return INT_MIN;
    default: return limit;
    }
}

enum {
    F_NONFINITE = 1 << 0, /* inputs may hold NaN / +-Infinity */
    F_HUGE = 1 << 1,      /* inputs may hold huge finite values (products may overflow) */
    F_MASK = 1 << 2,      /* pass a mask */
    F_CAUSAL = 1 << 3,
    F_SELF = 1 << 4,      /* self-attention: Xkv = X, m = n */
    F_NULL = 1 << 5,      /* pass one NULL argument */
    F_BADMASK = 1 << 6,   /* the mask may hold NaN / +Infinity */
};

static float value_from(uint8_t b, unsigned flags)
{
    if (flags & F_NONFINITE) {
        if (b == 255) return NAN;
        if (b == 254) return INFINITY;
        if (b == 253) return -INFINITY;
    }
    if (flags & F_HUGE) {
        if (b == 252) return 1e30f;
        if (b == 251) return -1e30f;
        if (b == 250) return FLT_MAX;
        if (b == 249) return 1e20f;
        if (b == 248) return 3000.0f;
    }
    if (b == 247) return 1e-40f; /* subnormal */
    if (b == 246) return -0.0f;
    return (float)((int)b - 123) / 16.0f;
}

static float mask_from(uint8_t b, unsigned flags)
{
    if (flags & F_BADMASK) {
        if (b == 255) return NAN;
        if (b == 254) return INFINITY;
    }
    if (flags & F_HUGE) {
        if (b == 253) return FLT_MAX;
        if (b == 252) return -FLT_MAX;
    }
    if (b < 64) return -INFINITY;
    return (float)((int)b - 160) / 8.0f;
}

static float scale_from(uint8_t b, int dk)
{
    switch (b % 16) {
    case 0: return dk >= 1 && dk <= ATTN_MAX_WIDTH ? attn_default_scale(dk) : 1.0f;
    case 1: return 0.0f;
    case 2: return -1.0f;
    case 3: return NAN;
    case 4: return INFINITY;
    case 5: return FLT_MIN;
    case 6: return 1e6f;
    default: return 0.05f + (float)b / 64.0f;
    }
}

/* ---------------------------------------------------------------- buffers and checks */

static int tokens_ok(int x) { return x >= 1 && x <= ATTN_MAX_TOKENS; }
/* attn_project holds nothing n×m: it takes the fused form's longer sequences */
static int project_tokens_ok(int x) { return x >= 1 && x <= ATTN_MAX_TOKENS_FUSED; }
static int width_ok(int x) { return x >= 1 && x <= ATTN_MAX_WIDTH; }

/* An exactly sized buffer of a [rows, cols] matrix: one float when either size is invalid. */
static long count_of(int rows, int rows_ok, int cols, int cols_ok)
{
    return rows_ok && cols_ok ? (long)rows * cols : 1;
}

static float *fill(reader *r, long count, unsigned flags)
{
    float *p = fuzz_floats(count);
    for (long i = 0; i < count; i++) p[i] = value_from(take(r), flags);
    return p;
}

/* The properties of a successful attn_sdpa call. */
static void check_sdpa_result(const float *A, const float *O, const float *V, const float *mask, int causal, int n,
                              int m, int dv)
{
    /* Values near FLT_MAX may round past it in A·V when a row sums to 1 + 1 ulp: outputs are
     * only required to be finite (and in range) below that. */
    double vmax = 0;
    for (long k = 0; k < (long)m * dv; k++) vmax = fmax(vmax, fabs((double)V[k]));
    int v_moderate = vmax <= 1e38;
    for (int i = 0; i < n; i++) {
        double sum = 0;
        int open = 0;
        for (int j = 0; j < m; j++) {
            float a = A[(long)i * m + j];
            int hidden = (mask && mask[(long)i * m + j] == -INFINITY) || (causal && j > i);
            REQUIRE(a >= 0.0f && a <= 1.0f, "a weight is outside [0, 1] (or NaN)");
            if (hidden) REQUIRE(a == 0.0f, "a masked weight is not exactly 0");
            open += !hidden;
            sum += a;
        }
        REQUIRE(sum == 0.0 || fabs(sum - 1.0) <= 1e-5 + m * 2.4e-7, "a row of A sums to neither 1 nor 0");
        if (!open) REQUIRE(sum == 0.0, "a fully masked row has nonzero weights");
        for (int c = 0; c < dv; c++) {
            float o = O[(long)i * dv + c];
            if (sum == 0.0) {
                REQUIRE(o == 0.0f, "a row with no weights has a nonzero output");
                continue;
            }
            if (!v_moderate) continue;
            REQUIRE(isfinite(o), "an output is not finite although every input was");
            double lo = INFINITY, hi = -INFINITY;
            for (int j = 0; j < m; j++) {
                if (A[(long)i * m + j] == 0.0f) continue;
                double v = V[(long)j * dv + c];
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
            double slack = 1e-6 + 1e-4 * fmax(fabs(lo), fabs(hi));
            REQUIRE(o >= lo - slack && o <= hi + slack, "an output is outside the range of the value rows it mixes");
        }
    }
}

/* attn_mask_build gives the M the explorer shows: the caller's mask (0 without one) and -inf
 * where causal hides a key. attn_sdpa with that M and causal = 0 gives the same A and O as with
 * the mask and causal given separately (the page shows M; the core may do either). */
static void check_mask_build(const float *A, const float *O, const float *Q, const float *K, const float *V,
                             const float *mask, int causal, float scale, int n, int m, int dk, int dv)
{
    float *M = fuzz_floats((long)n * m);
    REQUIRE(attn_mask_build(M, mask, causal, n, m) == ATTN_OK, "attn_mask_build refused what attn_sdpa took");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float want = causal && j > i ? -INFINITY : mask ? mask[(long)i * m + j] : 0.0f;
            REQUIRE(M[(long)i * m + j] == want || (isnan(want) && isnan(M[(long)i * m + j])), "attn_mask_build: M differs from mask + causal");
        }
    float *S2 = fuzz_floats((long)n * m), *A2 = fuzz_floats((long)n * m), *O2 = fuzz_floats((long)n * dv);
    float *Kt2 = fuzz_floats((long)dk * m);
    REQUIRE(attn_sdpa(S2, A2, O2, Kt2, Q, K, V, M, 0, scale, n, m, dk, dv) == ATTN_OK, "attn_sdpa refused the built M");
    for (long e = 0; e < (long)n * m; e++) REQUIRE(fabsf(A2[e] - A[e]) <= 1e-6f, "A with the built M differs from A with mask + causal");
    for (long e = 0; e < (long)n * dv; e++) {
        double tol = 1e-5 * (1.0 + fabs((double)O[e]));
        REQUIRE(fabs((double)O2[e] - O[e]) <= tol || (!isfinite(O[e]) && !isfinite(O2[e])), "O with the built M differs from O with mask + causal");
    }
    free(M), free(S2), free(A2), free(O2), free(Kt2);
}

/* attn_mask_build's statuses: sizes, then a NULL M, then a mask holding NaN or +Infinity. */
static void fuzz_mask_status(const float *mask, int mask_bad, int causal, int null_m, int n, int m)
{
    int sizes_ok = tokens_ok(n) && tokens_ok(m);
    float *M = fuzz_floats(sizes_ok ? (long)n * m : 1);
    attn_status st = attn_mask_build(null_m ? NULL : M, sizes_ok ? mask : NULL, causal, n, m);
    if (!sizes_ok) REQUIRE(st == ATTN_ERR_SIZE, "attn_mask_build: bad size but not ATTN_ERR_SIZE");
    else if (null_m) REQUIRE(st == ATTN_ERR_NULL, "attn_mask_build: NULL M but not ATTN_ERR_NULL");
    else if (mask && mask_bad) REQUIRE(st == ATTN_ERR_MASK, "attn_mask_build: NaN/+Inf mask but not ATTN_ERR_MASK");
    else REQUIRE(st == ATTN_OK, "attn_mask_build refused a valid call");
    free(M);
}

/* One attn_sdpa call on exactly sized buffers, its status and (on ATTN_OK) its result checked. */
static void fuzz_sdpa(const float *Q, const float *K, const float *V, int inputs_finite, const float *mask,
                      int mask_bad, int causal, float scale, int null_arg, int huge, int n, int m, int dk, int dv)
{
    int n_ok = tokens_ok(n), m_ok = tokens_ok(m), dk_ok = width_ok(dk), dv_ok = width_ok(dv);
    float *S = fuzz_floats(count_of(n, n_ok, m, m_ok)), *A = fuzz_floats(count_of(n, n_ok, m, m_ok));
    float *O = fuzz_floats(count_of(n, n_ok, dv, dv_ok)), *Kt = fuzz_floats(count_of(dk, dk_ok, m, m_ok));
    float *out[4] = {S, A, O, Kt};
    const float *in[3] = {Q, K, V};
    if (null_arg >= 0 && null_arg < 4) out[null_arg] = NULL;
    if (null_arg >= 4 && null_arg < 7) in[null_arg - 4] = NULL;

    int sizes_ok = n_ok && m_ok && dk_ok && dv_ok;
    int scale_ok = scale > 0.0f && scale <= FLT_MAX;
    int has_null = null_arg >= 0 && null_arg < 7;
    attn_status st = attn_sdpa(out[0], out[1], out[2], out[3], in[0], in[1], in[2], mask, causal, scale, n, m, dk, dv);

    int problems = !sizes_ok + has_null + !scale_ok + (sizes_ok && !inputs_finite) + (sizes_ok && mask_bad);
    /* With huge values the scores may overflow float32; refusing that is right, NaN is not. */
    if (problems == 0 && !huge) REQUIRE(st == ATTN_OK, "attn_sdpa refused a valid call");
    if (problems > 0) REQUIRE(st != ATTN_OK, "attn_sdpa accepted an invalid call");
    if (problems == 1 && !sizes_ok) REQUIRE(st == ATTN_ERR_SIZE, "attn_sdpa: bad size but not ATTN_ERR_SIZE");
    if (problems == 1 && has_null) REQUIRE(st == ATTN_ERR_NULL, "attn_sdpa: NULL buffer but not ATTN_ERR_NULL");
    if (problems == 1 && !scale_ok) REQUIRE(st == ATTN_ERR_SCALE, "attn_sdpa: bad scale but not ATTN_ERR_SCALE");
    if (problems == 1 && sizes_ok && !inputs_finite) REQUIRE(st == ATTN_ERR_NONFINITE, "attn_sdpa: NaN/Inf input but not ATTN_ERR_NONFINITE");
    if (problems == 1 && sizes_ok && mask_bad) REQUIRE(st == ATTN_ERR_MASK, "attn_sdpa: NaN/+Inf mask but not ATTN_ERR_MASK");
    if (st == ATTN_OK) {
        check_sdpa_result(A, O, V, mask, causal, n, m, dv);
        check_mask_build(A, O, Q, K, V, mask, causal, scale, n, m, dk, dv);
    }

    /* The fused form on the same call, with its own tiles (one, at these sizes) and with tiles of
     * 8 to 64 keys (several): the same status, and on ATTN_OK the same O to float32 rounding: the
     * bound of tests/c/fused_tolerance.h (another max in exp(z − max), the m terms in another order). */
    if (!has_null && sizes_ok) {
        float *O2 = fuzz_floats((long)n * dv), *work = fuzz_floats(ATTN_FUSED_WORK(m, dk, dv));
        const int tiles[2] = {ATTN_TILE_KEYS, 8 << ((n + m + dk) % 4)};
        for (int t = 0; t < 2; t++) {
            attn_status st2 = attn_sdpa_fused_tiles(O2, work, Q, K, V, mask, causal, scale, n, m, dk, dv, tiles[t]);
            REQUIRE(st2 == st, "attn_sdpa_fused and attn_sdpa disagree on the status");
            if (st == ATTN_OK) {
                double tol = fused_tolerance(V, S, mask, causal, n, m, dv);
                for (long e = 0; e < (long)n * dv; e++) /* (values near FLT_MAX may average to the same infinity in both) */
                    REQUIRE(O[e] == O2[e] || fabs((double)O[e] - O2[e]) <= tol, "attn_sdpa_fused's O is further from attn_sdpa's than float32 rounding allows");
            }
        }
        free(O2), free(work);
    }

    free(S), free(A), free(O), free(Kt);
}

/* ---------------------------------------------------------------- the target */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    unsigned flags = take(&r);
    int n = size_from(&r, ATTN_MAX_TOKENS), m = size_from(&r, ATTN_MAX_TOKENS);
    int d = size_from(&r, ATTN_MAX_WIDTH), dk = size_from(&r, ATTN_MAX_WIDTH), dv = size_from(&r, ATTN_MAX_WIDTH);
    /* At most one size at its limit, and self-attention never at it (n·m would be 512²), so one
     * run stays fast under the sanitizers; the C tests cover the limits themselves. */
    int at_limit = 0;
    int *sizes[5] = {&n, &m, &d, &dk, &dv};
    for (int k = 0; k < 5; k++) {
        int limit = k < 2 ? ATTN_MAX_TOKENS : ATTN_MAX_WIDTH;
        if (*sizes[k] == limit && at_limit++) *sizes[k] = 8;
    }
    if ((flags & F_SELF) && n == ATTN_MAX_TOKENS) n = 8;
    if (flags & F_SELF) m = n;
    int null_arg = (flags & F_NULL) ? take(&r) % 8 : -1; /* 0..7; 7 = none for attn_sdpa */
    int causal = (flags & F_CAUSAL) != 0;
    float scale = scale_from(take(&r), dk);

    int n_ok = project_tokens_ok(n), m_ok = project_tokens_ok(m), d_ok = width_ok(d), dk_ok = width_ok(dk), dv_ok = width_ok(dv);
    int sizes_ok = n_ok && m_ok && d_ok && dk_ok && dv_ok;
    long cX = count_of(n, n_ok, d, d_ok), cXkv = count_of(m, m_ok, d, d_ok);
    long cWq = count_of(d, d_ok, dk, dk_ok), cWv = count_of(d, d_ok, dv, dv_ok);
    long cQ = count_of(n, n_ok, dk, dk_ok), cK = count_of(m, m_ok, dk, dk_ok), cV = count_of(m, m_ok, dv, dv_ok);
    long cS = count_of(n, n_ok, m, m_ok);

    /* ---- attn_project */
    float *X = fill(&r, cX, flags);
    float *Xkv = (flags & F_SELF) ? X : fill(&r, cXkv, flags);
    float *Wq = fill(&r, cWq, flags), *Wk = fill(&r, cWq, flags), *Wv = fill(&r, cWv, flags);
    float *Q = fuzz_floats(cQ), *K = fuzz_floats(cK), *V = fuzz_floats(cV);
    {
        float *out[3] = {Q, K, V};
        const float *in[5] = {X, Xkv, Wq, Wk, Wv};
        if (null_arg >= 0 && null_arg < 3) out[null_arg] = NULL;
        if (null_arg >= 3 && null_arg < 8) in[null_arg - 3] = NULL;
        int has_null = null_arg >= 0;
        int finite = sizes_ok && fuzz_all_finite(X, cX) && fuzz_all_finite(Xkv, cXkv) && fuzz_all_finite(Wq, cWq) && fuzz_all_finite(Wk, cWq) &&
                     fuzz_all_finite(Wv, cWv);
        attn_status st = attn_project(out[0], out[1], out[2], in[0], in[1], in[2], in[3], in[4], n, m, d, dk, dv);
        int problems = !sizes_ok + has_null + (sizes_ok && !finite);
        if (problems == 0 && !(flags & F_HUGE)) REQUIRE(st == ATTN_OK, "attn_project refused a valid call");
        if (problems > 0) REQUIRE(st != ATTN_OK, "attn_project accepted an invalid call");
        if (problems == 1 && !sizes_ok) REQUIRE(st == ATTN_ERR_SIZE, "attn_project: bad size but not ATTN_ERR_SIZE");
        if (problems == 1 && has_null) REQUIRE(st == ATTN_ERR_NULL, "attn_project: NULL buffer but not ATTN_ERR_NULL");
        if (problems == 1 && sizes_ok && !finite) REQUIRE(st == ATTN_ERR_NONFINITE, "attn_project: NaN/Inf input but not ATTN_ERR_NONFINITE");
        if (st == ATTN_OK && !(flags & F_HUGE)) {
            /* |values| <= 8, d <= 256: every product and sum is far from overflow */
            REQUIRE(fuzz_all_finite(Q, cQ) && fuzz_all_finite(K, cK) && fuzz_all_finite(V, cV), "attn_project gave a non-finite Q, K or V from ordinary inputs");
        }

        /* ---- attn_sdpa on the projections (they may overflow to Infinity with huge inputs) */
        if (st == ATTN_OK) {
            float *mask = NULL;
            int mask_bad = 0;
            if (flags & F_MASK) {
                mask = fuzz_floats(cS);
                for (long i = 0; i < cS; i++) {
                    mask[i] = mask_from(take(&r), flags);
                    mask_bad |= isnan(mask[i]) || mask[i] == INFINITY;
                }
            }
            int qkv_finite = fuzz_all_finite(Q, cQ) && fuzz_all_finite(K, cK) && fuzz_all_finite(V, cV);
            fuzz_sdpa(Q, K, V, qkv_finite, mask, mask_bad, causal, scale, -1, flags & F_HUGE, n, m, dk, dv);
            free(mask);
        }
    }
    free(X), free(Wq), free(Wk), free(Wv), free(Q), free(K), free(V);
    if (!(flags & F_SELF)) free(Xkv);

    /* ---- attn_sdpa on Q, K, V read straight from the bytes (d plays no part) */
    {
        int sdpa_sizes_ok = tokens_ok(n) && tokens_ok(m) && dk_ok && dv_ok;
        float *Qd = fill(&r, cQ, flags), *Kd = fill(&r, cK, flags), *Vd = fill(&r, cV, flags);
        float *mask = NULL;
        int mask_bad = 0;
        if (flags & F_MASK) {
            mask = fuzz_floats(cS);
            for (long i = 0; i < cS; i++) {
                mask[i] = mask_from(take(&r), flags);
                mask_bad |= isnan(mask[i]) || mask[i] == INFINITY;
            }
        }
        int finite = sdpa_sizes_ok && fuzz_all_finite(Qd, cQ) && fuzz_all_finite(Kd, cK) && fuzz_all_finite(Vd, cV);
        fuzz_sdpa(Qd, Kd, Vd, finite, mask, mask_bad, causal, scale, null_arg, flags & F_HUGE, n, m, dk, dv);
        fuzz_mask_status(mask, mask_bad, causal, null_arg == 0, n, m);
        REQUIRE(attn_default_scale(dk) == (dk >= 1 ? 1.0f / sqrtf((float)dk) : 0.0f), "attn_default_scale is not 1/sqrt(dk)");
        free(Qd), free(Kd), free(Vd), free(mask);
    }
    return 0;
}
