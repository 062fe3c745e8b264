/*
 * attention.c: one attention head, written to be read next to the lesson.
 * Shapes follow the legend in attention.h (n queries, m keys, d, dk, dv).
 *
 * The work is three passes:
 *   pass 1  projections        Q = X·Wq, K = Xkv·Wk, V = Xkv·Wv
 *   pass 2  scores and mask    S = scale·Q·Kᵀ, then S + M row by row
 *   pass 3  softmax and mix    A = softmax_row(S + M), O = A·V
 * Every product is one matmul() so there is a single loop nest to make fast.
 */
#include "attention.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- helpers */

static int size_ok(int x, int limit) { return x >= 1 && x <= limit; }

static int all_finite(const float *x, long count)
{
    /* x - x is 0 for a finite x and NaN for NaN or +-Infinity: one test catches all three. */
    float acc = 0.0f;
    for (long i = 0; i < count; i++) acc += x[i] - x[i];
    return acc == 0.0f;
}

/* C = A·B, with C [n, p], A [n, k], B [k, p].
 * The loop order is i-k-j: the innermost loop walks a row of B and a row of C with stride 1,
 * which the compiler turns into SIMD. Four rows of C are computed together so that each row
 * of B, once loaded, is used four times; a 4×8 tile of C stays in registers across the k loop. */
static void matmul(float *C, const float *A, const float *B, int n, int k, int p)
{
    enum { TR = 4, TC = 8 };
    int i = 0;
    for (; i + TR <= n; i += TR) {
        const float *a0 = A + (long)(i + 0) * k, *a1 = A + (long)(i + 1) * k;
        const float *a2 = A + (long)(i + 2) * k, *a3 = A + (long)(i + 3) * k;
        float *c0 = C + (long)(i + 0) * p, *c1 = C + (long)(i + 1) * p;
        float *c2 = C + (long)(i + 2) * p, *c3 = C + (long)(i + 3) * p;
        int j = 0;
        for (; j + TC <= p; j += TC) {
            float t0[TC] = {0}, t1[TC] = {0}, t2[TC] = {0}, t3[TC] = {0};
            for (int t = 0; t < k; t++) {
                const float *b = B + (long)t * p + j;
                float x0 = a0[t], x1 = a1[t], x2 = a2[t], x3 = a3[t];
                for (int u = 0; u < TC; u++) {
                    t0[u] += x0 * b[u];
                    t1[u] += x1 * b[u];
                    t2[u] += x2 * b[u];
                    t3[u] += x3 * b[u];
                }
            }
            for (int u = 0; u < TC; u++) {
                c0[j + u] = t0[u]; c1[j + u] = t1[u]; c2[j + u] = t2[u]; c3[j + u] = t3[u];
            }
        }
        for (; j < p; j++) { /* the last p % 8 columns */
            float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            for (int t = 0; t < k; t++) {
                float b = B[(long)t * p + j];
                s0 += a0[t] * b; s1 += a1[t] * b; s2 += a2[t] * b; s3 += a3[t] * b;
            }
            c0[j] = s0; c1[j] = s1; c2[j] = s2; c3[j] = s3;
        }
    }
    for (; i < n; i++) { /* the last n % 4 rows, plain i-k-j */
        const float *a_i = A + (long)i * k;
        float *c_i = C + (long)i * p;
        for (int j = 0; j < p; j++) c_i[j] = 0.0f;
        for (int t = 0; t < k; t++) {
            const float *b_t = B + (long)t * p;
            float x = a_i[t];
            for (int j = 0; j < p; j++) c_i[j] += x * b_t[j];
        }
    }
}

/* y[j] = exp(x[j]) for x[j] <= 0, and exactly 0 for x[j] = -Infinity.
 * Softmax calls this once per row, so it must vectorise: no calls, no branches. It splits
 * x = k·ln2 + r with |r| <= ln2/2, so exp(x) = 2^k · exp(r), takes exp(r) from a degree-6
 * Taylor polynomial (error below 2e-7, about one float ulp) and builds 2^k from its bits. */
static void exp_nonpositive(float *y, const float *x, int len)
{
    const float log2e = 1.44269504f, ln2_hi = 0.693145752f, ln2_lo = 1.42860677e-6f;
    for (int j = 0; j < len; j++) {
        float v = x[j];
        int underflow = v < -87.0f; /* also true for -Infinity: exp is 0 to float precision */
        v = underflow ? -87.0f : v;
        float kf = floorf(v * log2e + 0.5f);
        float r = (v - kf * ln2_hi) - kf * ln2_lo;
        float p = 1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 + r * (1.0f / 720))))));
        int bits = ((int)kf + 127) << 23; /* 2^k for k in [-126, 0] */
        float two_k;
        memcpy(&two_k, &bits, sizeof two_k);
        y[j] = underflow ? 0.0f : p * two_k;
    }
}

/* ---------------------------------------------------------------- public API */

float attn_default_scale(int dk)
{
    /* A dot product of dk unit-variance terms has variance dk: dividing by sqrt(dk) brings the
     * scores back to standard deviation 1, so the softmax does not saturate for wide heads. */
    return dk >= 1 ? 1.0f / sqrtf((float)dk) : 0.0f;
}

attn_status attn_project(float *Q, float *K, float *V, const float *X, const float *Xkv,
                         const float *Wq, const float *Wk, const float *Wv,
                         int n, int m, int d, int dk, int dv)
{
    if (!size_ok(n, ATTN_MAX_TOKENS) || !size_ok(m, ATTN_MAX_TOKENS) || !size_ok(d, ATTN_MAX_WIDTH) ||
        !size_ok(dk, ATTN_MAX_WIDTH) || !size_ok(dv, ATTN_MAX_WIDTH))
        return ATTN_ERR_SIZE;
    if (!Q || !K || !V || !X || !Xkv || !Wq || !Wk || !Wv) return ATTN_ERR_NULL;
    if (!all_finite(X, (long)n * d) || !all_finite(Xkv, (long)m * d) || !all_finite(Wq, (long)d * dk) ||
        !all_finite(Wk, (long)d * dk) || !all_finite(Wv, (long)d * dv))
        return ATTN_ERR_NONFINITE;

    /* pass 1: each token's query (what it looks for), key (what it offers), value (what it passes on) */
    matmul(Q, X, Wq, n, d, dk);
    matmul(K, Xkv, Wk, m, d, dk);
    matmul(V, Xkv, Wv, m, d, dv);
    return ATTN_OK;
}

attn_status attn_mask_build(float *M, const float *mask, int causal, int n, int m)
{
    if (!size_ok(n, ATTN_MAX_TOKENS) || !size_ok(m, ATTN_MAX_TOKENS)) return ATTN_ERR_SIZE;
    if (!M) return ATTN_ERR_NULL;
    for (int i = 0; i < n; i++) {
        float *M_i = M + (long)i * m;
        for (int j = 0; j < m; j++) {
            float v = mask ? mask[(long)i * m + j] : 0.0f;
            if (v != v || v == INFINITY) return ATTN_ERR_MASK;
            /* causal: query i may not look at a key j that comes after it (top-left aligned) */
            M_i[j] = (causal && j > i) ? -INFINITY : v;
        }
    }
    return ATTN_OK;
}

attn_status attn_sdpa(float *S, float *A, float *O, float *Kt, const float *Q, const float *K,
                      const float *V, const float *mask, int causal, float scale,
                      int n, int m, int dk, int dv)
{
    if (!size_ok(n, ATTN_MAX_TOKENS) || !size_ok(m, ATTN_MAX_TOKENS) || !size_ok(dk, ATTN_MAX_WIDTH) ||
        !size_ok(dv, ATTN_MAX_WIDTH))
        return ATTN_ERR_SIZE;
    if (!S || !A || !O || !Kt || !Q || !K || !V) return ATTN_ERR_NULL;
    if (!(scale > 0.0f) || scale == INFINITY) return ATTN_ERR_SCALE; /* also rejects NaN */
    if (!all_finite(Q, (long)n * dk) || !all_finite(K, (long)m * dk) || !all_finite(V, (long)m * dv))
        return ATTN_ERR_NONFINITE;
    if (mask) {
        for (long t = 0; t < (long)n * m; t++)
            if (mask[t] != mask[t] || mask[t] == INFINITY) return ATTN_ERR_MASK;
    }

    /* pass 2: scores. Kᵀ is stored so that Q·Kᵀ is an ordinary row-by-row matmul. */
    for (int j = 0; j < m; j++)
        for (int c = 0; c < dk; c++) Kt[(long)c * m + j] = K[(long)j * dk + c];
    matmul(S, Q, Kt, n, dk, m);

    /* pass 3: per query row, scale, add the mask, softmax over the keys. A is used as the row's
     * scratch for S + M before it becomes the weights. */
    for (int i = 0; i < n; i++) {
        float *s_i = S + (long)i * m;
        float *a_i = A + (long)i * m;
        const float *mask_i = mask ? mask + (long)i * m : NULL;
        float maxval = -INFINITY;
        for (int j = 0; j < m; j++) {
            s_i[j] *= scale;
            float z = s_i[j] + (mask_i ? mask_i[j] : 0.0f);
            if (causal && j > i) z = -INFINITY;
            a_i[j] = z;
            maxval = z > maxval ? z : maxval;
        }
        if (maxval == -INFINITY) { /* every key masked: no distribution exists, weights are 0 */
            for (int j = 0; j < m; j++) a_i[j] = 0.0f;
            continue;
        }
        /* Subtracting the row max changes nothing mathematically (it cancels in the ratio) but
         * keeps every exponent <= 0, so exp cannot overflow even for scores in the thousands. */
        for (int j = 0; j < m; j++) a_i[j] -= maxval;
        exp_nonpositive(a_i, a_i, m);
        float sum = 0.0f;
        for (int j = 0; j < m; j++) sum += a_i[j];
        float inv = 1.0f / sum; /* sum >= 1: the max term is exp(0) */
        for (int j = 0; j < m; j++) a_i[j] *= inv;
    }

    /* pass 3, mix: each output row is the weighted average of the value rows */
    matmul(O, A, V, n, m, dv);
    return ATTN_OK;
}
