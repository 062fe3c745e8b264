/*
 * attention_backward.c: the gradients of one self-attention head, read next to attention.c.
 * Shapes follow the legend in attention.h (n tokens; m = n here; d, dk, dv).
 *
 * The chain rule runs the forward passes backwards, so the passes are numbered 3, 2, 1:
 *   pass 3  mix, then softmax      dA = dO·Vᵀ, dV = Aᵀ·dO, then dS from dA through the softmax
 *   pass 2  scores                 dQ = scale·dS·K, dK = scale·dSᵀ·Q
 *   pass 1  projections            dW += Xᵀ·dQ (and dK, dV); dX = dQ·Wqᵀ + dK·Wkᵀ + dV·Wvᵀ
 * Each step quotes the forward line it differentiates. Shapes are small when training (a toy
 * head), so the products are plain loops in the order that walks memory with stride 1.
 */
#include "attention.h"

#include <math.h>
#include <stddef.h>

static int size_ok(int x, int limit) { return x >= 1 && x <= limit; }

/* C = A·Bᵀ (or C += A·Bᵀ when accumulate), with C [r, c], A [r, k], B [c, k]:
 * every entry is a dot product of a row of A with a row of B. */
static void matmul_abt(float *C, const float *A, const float *B, int r, int k, int c, int accumulate)
{
    for (int i = 0; i < r; i++) {
        const float *a_i = A + (long)i * k;
        float *c_i = C + (long)i * c;
        for (int j = 0; j < c; j++) {
            const float *b_j = B + (long)j * k;
            float s = 0.0f;
            for (int t = 0; t < k; t++) s += a_i[t] * b_j[t];
            c_i[j] = accumulate ? c_i[j] + s : s;
        }
    }
}

/* C = Aᵀ·B (or C += Aᵀ·B when accumulate), with C [r, c], A [k, r], B [k, c]:
 * for each t, row t of B is added into every row i of C with weight A[t][i]. */
static void matmul_atb(float *C, const float *A, const float *B, int k, int r, int c, int accumulate)
{
    if (!accumulate)
        for (long e = 0; e < (long)r * c; e++) C[e] = 0.0f;
    for (int t = 0; t < k; t++) {
        const float *a_t = A + (long)t * r, *b_t = B + (long)t * c;
        for (int i = 0; i < r; i++) {
            float w = a_t[i];
            if (w == 0.0f) continue; /* a masked weight adds nothing */
            float *c_i = C + (long)i * c;
            for (int j = 0; j < c; j++) c_i[j] += w * b_t[j];
        }
    }
}

/* C = A·B, with C [r, c], A [r, k], B [k, c], in i-k-j order. */
static void matmul_ab(float *C, const float *A, const float *B, int r, int k, int c)
{
    for (int i = 0; i < r; i++) {
        const float *a_i = A + (long)i * k;
        float *c_i = C + (long)i * c;
        for (int j = 0; j < c; j++) c_i[j] = 0.0f;
        for (int t = 0; t < k; t++) {
            const float *b_t = B + (long)t * c;
            float w = a_i[t];
            for (int j = 0; j < c; j++) c_i[j] += w * b_t[j];
        }
    }
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
    matmul_abt(dA, dO, V, n, dv, n, 0); /* dA = dO·Vᵀ   [n, n],  overwritten */
    matmul_atb(dV, A, dO, n, n, dv, 0); /* dV = Aᵀ·dO   [n, dv], overwritten */

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
    matmul_ab(dQ, dS, K, n, n, dk);     /* dQ = dS·K    [n, dk], overwritten */
    matmul_atb(dK, dS, Q, n, n, dk, 0); /* dK = dSᵀ·Q   [n, dk], overwritten */
    for (long e = 0; e < (long)n * dk; e++) {
        dQ[e] *= scale;
        dK[e] *= scale;
    }

    /* pass 1, projections. Forward: "matmul(Q, X, Wq, n, d, dk, 0)" and the same for K and V
     * (X is both the query and the key/value sequence here). Q = X·Wq gives dWq = Xᵀ·dQ and a
     * share dQ·Wqᵀ of dX; likewise for K and V. The weight gradients are added to what the
     * caller's buffers hold, so one buffer sums a batch of sequences. */
    matmul_atb(dWq, X, dQ, n, d, dk, 1); /* dWq += Xᵀ·dQ  [d, dk], accumulated */
    matmul_atb(dWk, X, dK, n, d, dk, 1); /* dWk += Xᵀ·dK  [d, dk], accumulated */
    matmul_atb(dWv, X, dV, n, d, dv, 1); /* dWv += Xᵀ·dV  [d, dv], accumulated */
    if (dX) {
        /* X feeds all three projections, so its gradient is the sum of three products */
        matmul_abt(dX, dQ, Wq, n, dk, d, 0); /* dX  = dQ·Wqᵀ  [n, d], overwritten */
        matmul_abt(dX, dK, Wk, n, dk, d, 1); /* dX += dK·Wkᵀ */
        matmul_abt(dX, dV, Wv, n, dv, d, 1); /* dX += dV·Wvᵀ */
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
    if (!acc) {
        matmul_ab(Y, X, W, r, k, c);
        return;
    }
    for (int i = 0; i < r; i++) { /* i-k-j: Y[i] += sum_t X[i][t]·W[t] */
        const float *x_i = X + (long)i * k;
        float *y_i = Y + (long)i * c;
        for (int t = 0; t < k; t++) {
            const float *w_t = W + (long)t * c;
            float x = x_i[t];
            for (int j = 0; j < c; j++) y_i[j] += x * w_t[j];
        }
    }
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
        matmul_atb(dW, dY, X, r, c, k, 1); /* dW [c, k] += dYᵀ·X */
        if (dX) {
            if (acc) {
                for (int i = 0; i < r; i++) { /* dX[i] += sum_j dY[i][j]·W[j] */
                    const float *g_i = dY + (long)i * c;
                    float *dx_i = dX + (long)i * k;
                    for (int j = 0; j < c; j++) {
                        const float *w_j = W + (long)j * k;
                        float g = g_i[j];
                        for (int t = 0; t < k; t++) dx_i[t] += g * w_j[t];
                    }
                }
            } else {
                matmul_ab(dX, dY, W, r, c, k); /* dX = dY·W_stored */
            }
        }
        return;
    }
    matmul_atb(dW, X, dY, r, k, c, 1);
    if (dX) matmul_abt(dX, dY, W, r, c, k, acc);
}
