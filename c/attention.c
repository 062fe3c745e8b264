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

/* Four floats side by side. GCC and Clang turn arithmetic on this type into one SIMD
 * instruction (WebAssembly SIMD with -msimd128, SSE natively) or four scalar ones without SIMD.
 * The compilers do not vectorise matmul's register tile on their own, and the tile is where
 * the time goes, so it is written with this one language extension (GNU C vector_size). */
typedef float f32x4 __attribute__((vector_size(16)));

typedef int i32x4 __attribute__((vector_size(16)));

static f32x4 load4(const float *p) { f32x4 v; memcpy(&v, p, sizeof v); return v; }
static void store4(float *p, f32x4 v) { memcpy(p, &v, sizeof v); }
static float hsum4(f32x4 v) { return (v[0] + v[1]) + (v[2] + v[3]); }
/* lane-wise max: a comparison gives all ones in the lanes where it holds */
static f32x4 max4(f32x4 a, f32x4 b)
{
    i32x4 gt = a > b;
    return (f32x4)((gt & (i32x4)a) | (~gt & (i32x4)b));
}
static float hmax4(f32x4 v)
{
    float x = v[0] > v[1] ? v[0] : v[1], y = v[2] > v[3] ? v[2] : v[3];
    return x > y ? x : y;
}

/* 1 when every x[i] is finite. x - x is 0 for a finite x and NaN for NaN or +-Infinity, so
 * one running sum catches all three; four lanes keep it from being a serial chain. */
static int all_finite(const float *x, long count)
{
    f32x4 acc = {0};
    long i = 0;
    for (; i + 4 <= count; i += 4) { f32x4 v = load4(x + i); acc += v - v; }
    float rest = hsum4(acc);
    for (; i < count; i++) rest += x[i] - x[i];
    return rest == 0.0f;
}

/* x *= scale, and 1 when every result is finite (the all_finite test, in the same pass). */
static int scale_all_finite(float *x, long count, float scale)
{
    f32x4 acc = {0};
    long i = 0;
    for (; i + 4 <= count; i += 4) { f32x4 v = load4(x + i) * scale; store4(x + i, v); acc += v - v; }
    float rest = hsum4(acc);
    for (; i < count; i++) { x[i] *= scale; rest += x[i] - x[i]; }
    return rest == 0.0f;
}

/* 1 when a mask holds no NaN and no +Infinity (finite values and -Infinity are allowed). */
static int mask_ok(const float *mask, long count)
{
    i32x4 bad = {0};
    long i = 0;
    for (; i + 4 <= count; i += 4) { f32x4 v = load4(mask + i); bad |= (v != v) | (v == INFINITY); }
    int any = bad[0] | bad[1] | bad[2] | bad[3];
    for (; i < count; i++) any |= (mask[i] != mask[i]) | (mask[i] == INFINITY);
    return !any;
}

/* C = A·B, with C [n, p], A [n, k], B [k, p].
 * The loop order is i-k-j: the innermost work walks a row of B and a row of C with stride 1.
 * A tile of TR rows × 8 columns of C stays in registers across the whole k loop, so each
 * 8-wide piece of a B row is loaded once and used for TR rows, and C is written once.
 * With trim != 0, the k loop of each tile stops after the last column where one of its rows
 * of A is non-zero: adding 0·b changes nothing, and a causal A is zero above the diagonal. */
static void matmul(float *C, const float *A, const float *B, int n, int k, int p, int trim)
{
    enum { TR = 4 };
    int i = 0;
    for (; i + TR <= n; i += TR) {
        const float *a0 = A + (long)(i + 0) * k, *a1 = A + (long)(i + 1) * k;
        const float *a2 = A + (long)(i + 2) * k, *a3 = A + (long)(i + 3) * k;
        float *c0 = C + (long)(i + 0) * p, *c1 = C + (long)(i + 1) * p;
        float *c2 = C + (long)(i + 2) * p, *c3 = C + (long)(i + 3) * p;
        int k_end = k;
        while (trim && k_end > 0 && a0[k_end - 1] == 0.0f && a1[k_end - 1] == 0.0f &&
               a2[k_end - 1] == 0.0f && a3[k_end - 1] == 0.0f)
            k_end--;
        int j = 0;
        for (; j + 8 <= p; j += 8) {
            f32x4 t00 = {0}, t01 = {0}, t10 = {0}, t11 = {0}, t20 = {0}, t21 = {0}, t30 = {0}, t31 = {0};
            for (int t = 0; t < k_end; t++) {
                const float *b_t = B + (long)t * p + j;
                f32x4 b0 = load4(b_t), b1 = load4(b_t + 4);
                t00 += b0 * a0[t]; t01 += b1 * a0[t];
                t10 += b0 * a1[t]; t11 += b1 * a1[t];
                t20 += b0 * a2[t]; t21 += b1 * a2[t];
                t30 += b0 * a3[t]; t31 += b1 * a3[t];
            }
            store4(c0 + j, t00); store4(c0 + j + 4, t01);
            store4(c1 + j, t10); store4(c1 + j + 4, t11);
            store4(c2 + j, t20); store4(c2 + j + 4, t21);
            store4(c3 + j, t30); store4(c3 + j + 4, t31);
        }
        for (; j < p; j++) { /* the last p % 8 columns */
            float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            for (int t = 0; t < k_end; t++) {
                float b = B[(long)t * p + j];
                s0 += a0[t] * b; s1 += a1[t] * b; s2 += a2[t] * b; s3 += a3[t] * b;
            }
            c0[j] = s0; c1[j] = s1; c2[j] = s2; c3[j] = s3;
        }
    }
    for (; i < n; i++) { /* the last n % 4 rows, plain i-k-j */
        const float *a_i = A + (long)i * k;
        float *c_i = C + (long)i * p;
        int k_end = k;
        while (trim && k_end > 0 && a_i[k_end - 1] == 0.0f) k_end--;
        for (int j = 0; j < p; j++) c_i[j] = 0.0f;
        for (int t = 0; t < k_end; t++) {
            const float *b_t = B + (long)t * p;
            float x = a_i[t];
            for (int j = 0; j < p; j++) c_i[j] += x * b_t[j];
        }
    }
}

/* exp(v) for v <= 0, four at a time, and exactly 0 for v = -Infinity.
 * Softmax calls this for every weight, so it avoids calls and branches. It splits
 * v = k·ln2 + r with |r| <= ln2/2, so exp(v) = 2^k · exp(r), takes exp(r) from a degree-6
 * Taylor polynomial (error below 2e-7, about one float ulp) and builds 2^k from its bits. */
static f32x4 exp4_nonpositive(f32x4 v)
{
    const float log2e = 1.44269504f, ln2_hi = 0.693145752f, ln2_lo = 1.42860677e-6f;
    const f32x4 floor_v = {-87.0f, -87.0f, -87.0f, -87.0f};
    i32x4 underflow = v < floor_v; /* also true for -Infinity: exp is 0 to float precision */
    v = (f32x4)((underflow & (i32x4)floor_v) | (~underflow & (i32x4)v));
    f32x4 t = v * log2e + 0.5f;              /* k = floor(t), t in [-125.0, 0.5] */
    i32x4 k = __builtin_convertvector(t, i32x4); /* rounds toward zero ... */
    k += __builtin_convertvector(k, f32x4) > t;  /* ... so step down where that rounded up */
    f32x4 kf = __builtin_convertvector(k, f32x4);
    f32x4 r = (v - kf * ln2_hi) - kf * ln2_lo;
    f32x4 p = 1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 + r * (1.0f / 720))))));
    i32x4 two_k = (k + 127) << 23;           /* the float 2^k, k in [-126, 0] */
    return (f32x4)(~underflow & (i32x4)(p * (f32x4)two_k));
}

/* One query row of pass 3. s: the row of scaled scores S (finite); a: the row of weights A;
 * mask_i: the row of the additive mask, or NULL; keys j >= visible are removed (the causal
 * mask). Vector loops over 4 keys, then a scalar tail. Returns 0, or 1 when s + mask
 * overflows to +Infinity. */
static int softmax_row(float *a /* [m] */, const float *s /* [m] */, const float *mask_i /* [m] */,
                       int visible, int m)
{
    f32x4 max_4 = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    int j = 0;
    for (; j + 4 <= visible; j += 4) {
        f32x4 z = load4(s + j);
        if (mask_i) z += load4(mask_i + j);
        store4(a + j, z);
        max_4 = max4(max_4, z);
    }
    float maxval = hmax4(max_4);
    for (; j < visible; j++) {
        a[j] = s[j] + (mask_i ? mask_i[j] : 0.0f);
        maxval = a[j] > maxval ? a[j] : maxval;
    }
    for (j = visible; j < m; j++) a[j] = 0.0f;
    if (maxval == INFINITY) return 1;      /* a finite score plus a finite mask passed FLT_MAX */
    if (maxval == -INFINITY) {             /* every key masked: no distribution, weights are 0 */
        for (j = 0; j < visible; j++) a[j] = 0.0f;
        return 0;
    }
    /* Subtracting the row max changes nothing mathematically (it cancels in the ratio) but
     * keeps every exponent <= 0, so exp cannot overflow even for scores in the thousands. */
    f32x4 sum_4 = {0};
    for (j = 0; j + 4 <= visible; j += 4) {
        f32x4 e = exp4_nonpositive(load4(a + j) - maxval);
        store4(a + j, e);
        sum_4 += e;
    }
    if (j < visible) { /* the last visible % 4 keys, padded with -Infinity, whose exp is 0 */
        float tail[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
        memcpy(tail, a + j, sizeof(float) * (size_t)(visible - j));
        f32x4 e = exp4_nonpositive(load4(tail) - maxval);
        store4(tail, e);
        memcpy(a + j, tail, sizeof(float) * (size_t)(visible - j));
        sum_4 += e;
    }
    float inv = 1.0f / hsum4(sum_4); /* the sum is >= 1: the max term is exp(0) */
    for (j = 0; j + 4 <= visible; j += 4) store4(a + j, load4(a + j) * inv);
    for (; j < visible; j++) a[j] *= inv;
    return 0;
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
    matmul(Q, X, Wq, n, d, dk, 0);
    matmul(K, Xkv, Wk, m, d, dk, 0);
    matmul(V, Xkv, Wv, m, d, dv, 0);
    if (!all_finite(Q, (long)n * dk) || !all_finite(K, (long)m * dk) || !all_finite(V, (long)m * dv))
        return ATTN_ERR_OVERFLOW;
    return ATTN_OK;
}

attn_status attn_mask_build(float *M, const float *mask, int causal, int n, int m)
{
    if (!size_ok(n, ATTN_MAX_TOKENS) || !size_ok(m, ATTN_MAX_TOKENS)) return ATTN_ERR_SIZE;
    if (!M) return ATTN_ERR_NULL;
    if (mask && !mask_ok(mask, (long)n * m)) return ATTN_ERR_MASK;
    for (int i = 0; i < n; i++) {
        float *M_i = M + (long)i * m;
        /* causal: query i may not look at a key j that comes after it (top-left aligned) */
        int visible = causal ? (i + 1 < m ? i + 1 : m) : m;
        for (int j = 0; j < visible; j++) M_i[j] = mask ? mask[(long)i * m + j] : 0.0f;
        for (int j = visible; j < m; j++) M_i[j] = -INFINITY;
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
    if (mask && !mask_ok(mask, (long)n * m)) return ATTN_ERR_MASK;

    /* pass 2: scores. Kᵀ is stored so that Q·Kᵀ is an ordinary row-by-row matmul. */
    for (int j = 0; j < m; j++)
        for (int c = 0; c < dk; c++) Kt[(long)c * m + j] = K[(long)j * dk + c];
    matmul(S, Q, Kt, n, dk, m, 0);
    if (!scale_all_finite(S, (long)n * m, scale)) return ATTN_ERR_OVERFLOW;

    /* pass 3: per query row, add the mask and take the softmax over the keys */
    for (int i = 0; i < n; i++) {
        int visible = causal ? (i + 1 < m ? i + 1 : m) : m; /* a causal query sees keys 0..i */
        if (softmax_row(A + (long)i * m, S + (long)i * m, mask ? mask + (long)i * m : NULL, visible, m))
            return ATTN_ERR_OVERFLOW;
    }

    /* pass 3, mix: each output row is the weighted average of the value rows */
    matmul(O, A, V, n, m, dv, 1);
    return ATTN_OK;
}

/* ---------------------------------------------------------------- one softmax row (the labs) */

attn_status attn_softmax_stable(float *a, float *e, float *shift, float *sum, const float *s, int m)
{
    if (!size_ok(m, ATTN_MAX_TOKENS)) return ATTN_ERR_SIZE;
    if (!a || !s) return ATTN_ERR_NULL;
    if (!mask_ok(s, m)) return ATTN_ERR_NONFINITE; /* -Infinity (a removed key) is allowed */
    /* pass 1: the row max. Starting at -INFINITY means a row of removed keys keeps it there. */
    float maxval = -INFINITY;
    for (int j = 0; j < m; j++) maxval = s[j] > maxval ? s[j] : maxval;
    if (shift) *shift = maxval;
    if (maxval == -INFINITY) { /* every key removed: no distribution, weights are 0 */
        for (int j = 0; j < m; j++) { a[j] = 0.0f; if (e) e[j] = 0.0f; }
        if (sum) *sum = 0.0f;
        return ATTN_OK;
    }
    /* pass 2: the weights, by the very function every head uses. */
    softmax_row(a, s, NULL, m, m);
    if (!e && !sum) return ATTN_OK;
    /* pass 3 (for showing them): the terms exp(s − max). Every exponent is <= 0, so every term
     * is <= 1: nothing can overflow, however large the scores. exp(s − max) = exp(s)·exp(−max)
     * and the factor exp(−max) cancels in the ratio, so the weights equal exp(s)/Σexp(s). */
    float total = 0.0f;
    for (int j = 0; j < m; j += 4) {
        float four[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
        int len = m - j < 4 ? m - j : 4;
        memcpy(four, s + j, sizeof(float) * (size_t)len);
        f32x4 t = exp4_nonpositive(load4(four) - maxval);
        store4(four, t);
        for (int k = 0; k < len; k++) {
            if (e) e[j + k] = four[k];
            total += four[k];
        }
    }
    if (sum) *sum = total;
    return ATTN_OK;
}

attn_status attn_softmax_naive(float *a, float *e, float *sum, const float *s, int m)
{
    if (!size_ok(m, ATTN_MAX_TOKENS)) return ATTN_ERR_SIZE;
    if (!a || !s) return ATTN_ERR_NULL;
    if (!mask_ok(s, m)) return ATTN_ERR_NONFINITE; /* -Infinity (a removed key) is allowed */
    /* The textbook formula, on purpose without the max subtraction: expf(x) passes FLT_MAX
     * (about 3.4e38) for x above about 88.72 and becomes +Infinity; the sum is then +Infinity
     * and Infinity/Infinity is NaN. volatile keeps the compiler from rewriting the division. */
    float total = 0.0f;
    for (int j = 0; j < m; j++) { a[j] = expf(s[j]); total += a[j]; }
    if (e) for (int j = 0; j < m; j++) e[j] = a[j];
    if (sum) *sum = total;
    volatile float denom = total;
    for (int j = 0; j < m; j++) a[j] = a[j] / denom;
    return ATTN_OK;
}

attn_status attn_softmax_backward(float *ds, const float *a, const float *da, int m)
{
    if (!size_ok(m, ATTN_MAX_TOKENS)) return ATTN_ERR_SIZE;
    if (!ds || !a || !da) return ATTN_ERR_NULL;
    if (!all_finite(a, m) || !all_finite(da, m)) return ATTN_ERR_NONFINITE;
    /* forward: a[j] = exp(s[j]) / Σₖ exp(s[k])
     * so ∂a[j]/∂s[k] = a[j]·(δⱼₖ − a[k]) and ds[k] = Σⱼ da[j]·a[j]·(δⱼₖ − a[k])
     *                                             = a[k]·(da[k] − Σⱼ a[j]·da[j]).  */
    float dot = 0.0f;
    for (int j = 0; j < m; j++) dot += a[j] * da[j];
    for (int k = 0; k < m; k++) ds[k] = a[k] * (da[k] - dot);
    return ATTN_OK;
}

attn_status attn_softmax_stats(float *max_weight, float *entropy, float *grad_norm, const float *a, int m)
{
    if (!size_ok(m, ATTN_MAX_TOKENS)) return ATTN_ERR_SIZE;
    if (!max_weight || !entropy || !grad_norm || !a) return ATTN_ERR_NULL;
    if (!all_finite(a, m)) return ATTN_ERR_NONFINITE;
    /* The Jacobian J = diag(a) − a·aᵀ of the softmax has
     *   ‖J‖²_F = Σⱼ (a[j] − a[j]²)² + Σ_{j≠k} a[j]²a[k]² = Σ a² − 2·Σ a³ + (Σ a²)²,
     * which is 0 for a one-hot row (no gradient flows back to the scores) and largest for a
     * uniform one. Sums in double: the cancellation near one-hot would lose float's digits. */
    double mx = 0.0, h = 0.0, s2 = 0.0, s3 = 0.0;
    for (int j = 0; j < m; j++) {
        double p = a[j];
        mx = p > mx ? p : mx;
        if (p > 0.0) h -= p * log(p); /* 0·log 0 = 0: a weight of exactly 0 adds nothing */
        s2 += p * p;
        s3 += p * p * p;
    }
    double j2 = s2 - 2.0 * s3 + s2 * s2;
    *max_weight = (float)mx;
    *entropy = (float)h;
    *grad_norm = (float)sqrt(j2 > 0.0 ? j2 : 0.0);
    return ATTN_OK;
}
