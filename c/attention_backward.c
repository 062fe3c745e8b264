/*
 * attention_backward.c: the gradients of one self-attention head, read next to attention.c.
 * Shapes follow the legend in attention.h (n tokens; m = n here; d, dk, dv).
 *
 * The chain rule runs the forward passes backwards, so the passes are numbered 3, 2, 1:
 *   pass 3  mix, then softmax      dA = dO·Vᵀ, dV = Aᵀ·dO, then dS from dA through the softmax
 *   pass 2  scores                 dQ = scale·dS·K, dK = scale·dSᵀ·Q
 *   pass 1  projections            dW += Xᵀ·dQ (and dK, dV); dX = dQ·Wqᵀ + dK·Wkᵀ + dV·Wvᵀ
 * Each step quotes the forward line it differentiates. Shapes are small when training (a toy
 * head), so the products are plain loops in the order that walks memory with stride 1, four
 * floats at a time.
 */
#include "attention.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

static int size_ok(int x, int limit) { return x >= 1 && x <= limit; }

/* Four floats side by side (GNU C vector_size, as in attention.c): one WebAssembly SIMD
 * instruction with -msimd128, SSE natively, four scalar operations in the same order without
 * SIMD, so every build computes the same bits. Training spends its time in these products. */
typedef float f32x4 __attribute__((vector_size(16)));
static f32x4 load4(const float *p) { f32x4 v; memcpy(&v, p, sizeof v); return v; }
static void store4(float *p, f32x4 v) { memcpy(p, &v, sizeof v); }
/* Lane q of the result is s_q[0] + s_q[1] + s_q[2] + s_q[3], summed as (0 + 1) + (2 + 3): four
 * horizontal sums at once, after a 4 × 4 transpose, in vector adds. */
static f32x4 hsum4x4(f32x4 s0, f32x4 s1, f32x4 s2, f32x4 s3)
{
    f32x4 a = __builtin_shufflevector(s0, s1, 0, 4, 1, 5), b = __builtin_shufflevector(s0, s1, 2, 6, 3, 7);
    f32x4 c = __builtin_shufflevector(s2, s3, 0, 4, 1, 5), d = __builtin_shufflevector(s2, s3, 2, 6, 3, 7);
    f32x4 lane0 = __builtin_shufflevector(a, c, 0, 1, 4, 5), lane1 = __builtin_shufflevector(a, c, 2, 3, 6, 7);
    f32x4 lane2 = __builtin_shufflevector(b, d, 0, 1, 4, 5), lane3 = __builtin_shufflevector(b, d, 2, 3, 6, 7);
    return (lane0 + lane1) + (lane2 + lane3);
}

/* C (+)= A·B where A(i, t) = A[i·ars + t·acs] (row-major A: ars = k, acs = 1; Aᵀ stored as
 * [k, r]: ars = 1, acs = r) and B [k, c] is row-major. C [r, c] is overwritten, or added to when
 * accumulate. A tile of 4 rows × 8 columns of C stays in registers across the whole t loop, so
 * every 8-wide piece of a row of B is loaded once for 4 rows. With trim, the t loop of a tile
 * stops after the last t where one of its rows of A is non-zero (a causal dS is 0 past the
 * diagonal). With lower, A(i, t) is 0 for t < i (A is the transpose of a causal [k, r] matrix:
 * Aᵀ·B with A = dS or the attention weights), so a tile starts at t = its first row: the terms
 * it skips are exact zeros, and leaving out zeros at the start of a sum that starts at +0 gives
 * the same bits. */
static void gemm(float *C, const float *A, long ars, long acs, const float *B, int r, int k, int c, int accumulate,
                 int trim, int lower)
{
    int i = 0;
    for (; i < r; i += 4) {
        int rows = r - i < 4 ? r - i : 4;
        const float *a[4];
        for (int q = 0; q < 4; q++) a[q] = A + (long)(i + (q < rows ? q : 0)) * ars; /* a short tile repeats row i */
        int t_start = lower && i < k ? i : lower ? k : 0;
        int t_end = k;
        while (trim && t_end > 0) {
            int any = 0;
            for (int q = 0; q < rows; q++) any |= a[q][(long)(t_end - 1) * acs] != 0.0f;
            if (any) break;
            t_end--;
        }
        int j = 0;
        for (; j + 8 <= c; j += 8) {
            f32x4 t00 = {0}, t01 = {0}, t10 = {0}, t11 = {0}, t20 = {0}, t21 = {0}, t30 = {0}, t31 = {0};
            for (int t = t_start; t < t_end; t++) {
                const float *b_t = B + (long)t * c + j;
                f32x4 b0 = load4(b_t), b1 = load4(b_t + 4);
                float x0 = a[0][t * acs], x1 = a[1][t * acs], x2 = a[2][t * acs], x3 = a[3][t * acs];
                t00 += b0 * x0; t01 += b1 * x0;
                t10 += b0 * x1; t11 += b1 * x1;
                t20 += b0 * x2; t21 += b1 * x2;
                t30 += b0 * x3; t31 += b1 * x3;
            }
            f32x4 tile[4][2] = {{t00, t01}, {t10, t11}, {t20, t21}, {t30, t31}};
            for (int q = 0; q < rows; q++) {
                float *c_q = C + (long)(i + q) * c + j;
                if (accumulate) tile[q][0] += load4(c_q), tile[q][1] += load4(c_q + 4);
                store4(c_q, tile[q][0]);
                store4(c_q + 4, tile[q][1]);
            }
        }
        for (; j < c; j++) { /* the last c % 8 columns */
            for (int q = 0; q < rows; q++) {
                float s = 0.0f;
                for (int t = t_start; t < t_end; t++) s += a[q][t * acs] * B[(long)t * c + j];
                float *c_q = C + (long)(i + q) * c + j;
                *c_q = accumulate ? *c_q + s : s;
            }
        }
    }
}

/* One product A·Bᵀ of a sum, A [r, k] and B [c, k] (abt_sum). */
typedef struct { const float *A, *B; int k; } abt_term;

/* C = Σ_terms A·Bᵀ (or C += when accumulate), C [r, c]: every entry is a sum of dot products of
 * a row of A with a row of B. A tile of 2 rows × 4 columns of C shares each load: a row of B
 * serves both rows, a row of A all four columns; each entry has four lanes of partial sums, and
 * the terms go into the same sums, added up once at the end (every entry's sum runs in the same
 * order whatever the tile, so the tiling does not change a bit). With causal, row i stops at
 * column i (the rest is set to 0): a causal query's dA past the diagonal is never read. */
static void abt_sum(float *C, const abt_term *terms, int count, int r, int c, int accumulate, int causal)
{
    for (int i = 0; i < r; i += 2) {
        int rows = r - i < 2 ? 1 : 2;
        int i1 = i + rows - 1; /* the tile's second row; a short tile repeats row i and stores it once */
        int end0 = causal && i + 1 < c ? i + 1 : c, end1 = causal && i1 + 1 < c ? i1 + 1 : c;
        float *c0 = C + (long)i * c, *c1 = C + (long)i1 * c;
        for (int j = 0; j < end1; j += 4) {
            int cols = end1 - j < 4 ? end1 - j : 4;
            f32x4 s00 = {0}, s01 = {0}, s02 = {0}, s03 = {0}, s10 = {0}, s11 = {0}, s12 = {0}, s13 = {0};
            f32x4 d0 = {0}, d1 = {0}; /* the scalar tails when k % 4 != 0 */
            for (int m = 0; m < count; m++) {
                int k = terms[m].k;
                const float *a0 = terms[m].A + (long)i * k, *a1 = terms[m].A + (long)i1 * k;
                const float *b0 = terms[m].B + (long)j * k;
                const float *b1 = cols > 1 ? b0 + k : b0, *b2 = cols > 2 ? b0 + 2L * k : b0, *b3 = cols > 3 ? b0 + 3L * k : b0;
                int t = 0;
                for (; t + 4 <= k; t += 4) {
                    f32x4 x0 = load4(a0 + t), x1 = load4(a1 + t), y;
                    y = load4(b0 + t), s00 += x0 * y, s10 += x1 * y;
                    y = load4(b1 + t), s01 += x0 * y, s11 += x1 * y;
                    y = load4(b2 + t), s02 += x0 * y, s12 += x1 * y;
                    y = load4(b3 + t), s03 += x0 * y, s13 += x1 * y;
                }
                for (; t < k; t++) {
                    d0[0] += a0[t] * b0[t]; d0[1] += a0[t] * b1[t]; d0[2] += a0[t] * b2[t]; d0[3] += a0[t] * b3[t];
                    d1[0] += a1[t] * b0[t]; d1[1] += a1[t] * b1[t]; d1[2] += a1[t] * b2[t]; d1[3] += a1[t] * b3[t];
                }
            }
            d0 += hsum4x4(s00, s01, s02, s03);
            d1 += hsum4x4(s10, s11, s12, s13);
            if (j + 4 <= end0) /* whole: one vector each (the second row's end is past the first's) */
                store4(c0 + j, accumulate ? load4(c0 + j) + d0 : d0);
            else
                for (int q = 0; q < cols && j + q < end0; q++) c0[j + q] = accumulate ? c0[j + q] + d0[q] : d0[q];
            if (rows > 1 && cols == 4) store4(c1 + j, accumulate ? load4(c1 + j) + d1 : d1);
            else if (rows > 1)
                for (int q = 0; q < cols; q++) c1[j + q] = accumulate ? c1[j + q] + d1[q] : d1[q];
        }
        for (int j = end0; j < c; j++) c0[j] = accumulate ? c0[j] : 0.0f;
        if (rows > 1)
            for (int j = end1; j < c; j++) c1[j] = accumulate ? c1[j] : 0.0f;
    }
}

/* C = A·Bᵀ (or C += A·Bᵀ when accumulate), with C [r, c], A [r, k], B [c, k]. */
static void matmul_abt(float *C, const float *A, const float *B, int r, int k, int c, int accumulate)
{
    abt_term one = {A, B, k};
    abt_sum(C, &one, 1, r, c, accumulate, 0);
}

/* C = Aᵀ·B (or C += Aᵀ·B when accumulate), with C [r, c], A [k, r], B [k, c]. With causal, A is
 * 0 above its diagonal (A[t][i] = 0 for i > t), and row i of C sums t = i .. k-1 only. */
static void matmul_atb(float *C, const float *A, const float *B, int k, int r, int c, int accumulate, int causal)
{
    gemm(C, A, 1, r, B, r, k, c, accumulate, 0, causal);
}

/* C = A·B, with C [r, c], A [r, k], B [k, c]; trim as in gemm. */
static void matmul_ab(float *C, const float *A, const float *B, int r, int k, int c, int trim)
{
    gemm(C, A, k, 1, B, r, k, c, 0, trim, 0);
}

attn_status attn_backward(float *dX, float *dWq, float *dWk, float *dWv, float *dQ, float *dK, float *dV,
                          float *dA, float *dS, const float *dO, const float *X, const float *Wq,
                          const float *Wk, const float *Wv, const float *Q, const float *K, const float *V,
                          const float *A, const float *mask, int causal, float scale,
                          int n, int d, int dk, int dv)
{
    if (!size_ok(n, ATTN_MAX_TOKENS) || !size_ok(d, ATTN_MAX_WIDTH) || !size_ok(dk, ATTN_MAX_WIDTH) ||
        !size_ok(dv, ATTN_MAX_WIDTH))
        return ATTN_ERR_SIZE;
    if (!dWq || !dWk || !dWv || !dQ || !dK || !dV || !dA || !dS || !dO || !X || !Wq || !Wk || !Wv || !Q ||
        !K || !V || !A)
        return ATTN_ERR_NULL;
    if (!(scale > 0.0f) || scale == INFINITY) return ATTN_ERR_SCALE;

    /* pass 3, mix. Forward: "matmul(O, A, V, n, m, dv, 1)", O[i] = sum_j A[i][j]·V[j].
     * O[i] moves by dO[i] when A[i][j] moves by V[j]·dO[i], and when V[j] moves by A[i][j]·dO[i]. */
    abt_term dov = {dO, V, dv};
    abt_sum(dA, &dov, 1, n, n, 0, causal); /* dA = dO·Vᵀ   [n, n],  overwritten (0 past a causal row's end) */
    matmul_atb(dV, A, dO, n, n, dv, 0, causal); /* dV = Aᵀ·dO   [n, dv], overwritten (A is 0 past a causal row's end) */

    /* pass 3, softmax. Forward: "softmax_row(A + i*m, S + i*m, mask_i, visible, m)",
     * A[i][j] = exp(z_j) / sum_k exp(z_k) with z = S[i] + M[i]. Its Jacobian is
     * dA[i][j]/dz_k = A[i][j]·([j == k] - A[i][k]), so
     *   dS[i][k] = A[i][k]·(dA[i][k] - sum_j A[i][j]·dA[i][j]).
     * The mask is added to S, so dS is also the gradient of z. A removed key has A = 0 and gets
     * exactly 0 (written, not computed, so no -0 or rounding sneaks in); a fully masked row is all
     * 0 in A and therefore in dS. */
    for (int i = 0; i < n; i++) {
        const float *a_i = A + (long)i * n, *dA_i = dA + (long)i * n;
        const float *mask_i = mask ? mask + (long)i * n : NULL;
        float *dS_i = dS + (long)i * n;
        int visible = causal ? i + 1 : n; /* a causal query sees keys 0..i */
        float dot = 0.0f;                 /* sum_j A[i][j]·dA[i][j]: the row's mean of dA under A */
        for (int j = 0; j < visible; j++) dot += a_i[j] * dA_i[j];
        for (int j = 0; j < n; j++) {
            int removed = j >= visible || (mask_i && mask_i[j] == -INFINITY);
            dS_i[j] = removed ? 0.0f : a_i[j] * (dA_i[j] - dot);
        }
    }

    /* pass 2, scores. Forward: "matmul(S, Q, Kt, n, dk, m, 0); S[t] *= scale",
     * S[i][j] = scale·sum_c Q[i][c]·K[j][c], so dQ[i] = scale·sum_j dS[i][j]·K[j] and
     * dK[j] = scale·sum_i dS[i][j]·Q[i]. */
    matmul_ab(dQ, dS, K, n, n, dk, 1);  /* dQ = dS·K    [n, dk], overwritten */
    matmul_atb(dK, dS, Q, n, n, dk, 0, causal); /* dK = dSᵀ·Q   [n, dk], overwritten (dS is 0 past a causal row's end) */
    for (long e = 0; e < (long)n * dk; e++) {
        dQ[e] *= scale;
        dK[e] *= scale;
    }

    /* pass 1, projections. Forward: "matmul(Q, X, Wq, n, d, dk, 0)" and the same for K and V
     * (X is both the query and the key/value sequence here). Q = X·Wq gives dWq = Xᵀ·dQ and a
     * share dQ·Wqᵀ of dX; likewise for K and V. The weight gradients are added to what the
     * caller's buffers hold, so one buffer sums a batch of sequences. */
    matmul_atb(dWq, X, dQ, n, d, dk, 1, 0); /* dWq += Xᵀ·dQ  [d, dk], accumulated */
    matmul_atb(dWk, X, dK, n, d, dk, 1, 0); /* dWk += Xᵀ·dK  [d, dk], accumulated */
    matmul_atb(dWv, X, dV, n, d, dv, 1, 0); /* dWv += Xᵀ·dV  [d, dv], accumulated */
    if (dX) {
        /* X feeds all three projections, so its gradient is the sum of three products:
         * dX = dQ·Wqᵀ + dK·Wkᵀ + dV·Wvᵀ  [n, d], overwritten */
        abt_term three[3] = {{dQ, Wq, dk}, {dK, Wk, dk}, {dV, Wv, dv}};
        abt_sum(dX, three, 3, n, d, 0, 0);
    }
    return ATTN_OK;
}

/* ---------------------------------------------------------------- a linear layer */

void attn_linear(float *Y, const float *X, const float *W, int r, int k, int c, int flags)
{
    int acc = flags & ATTN_ACCUMULATE;
    if (flags & ATTN_W_T) { /* Y[i][j] = X[i]·W[j]: rows of X against rows of W */
        matmul_abt(Y, X, W, r, k, c, acc);
        return;
    }
    gemm(Y, X, k, 1, W, r, k, c, acc, 0, 0);
}

void attn_linear_backward(float *dX, float *dW, const float *dY, const float *X, const float *W, int r, int k,
                          int c, int flags)
{
    /* Forward: Y[i][j] = sum_t X[i][t]·W[t][j]. W[t][j] moves Y[i][j] by X[i][t] for every i, so
     * dW[t][j] = sum_i X[i][t]·dY[i][j] (dW = Xᵀ·dY); X[i][t] moves Y[i][j] by W[t][j] for every
     * j, so dX[i][t] = sum_j dY[i][j]·W[t][j] (dX = dY·Wᵀ). With W stored transposed (Ws = Wᵀ,
     * [c, k]) the same numbers are dWs = dYᵀ·X and dX = dY·Ws. */
    int acc = flags & ATTN_ACCUMULATE;
    if (flags & ATTN_W_T) {
        matmul_atb(dW, dY, X, r, c, k, 1, 0); /* dW [c, k] += dYᵀ·X */
        if (dX) {
            gemm(dX, dY, c, 1, W, r, c, k, acc, 0, 0); /* dX (+)= dY·W_stored */
        }
        return;
    }
    matmul_atb(dW, X, dY, r, k, c, 1, 0);
    if (dX) matmul_abt(dX, dY, W, r, c, k, acc);
}
