/*
 * fuzz_backward.c: a libFuzzer target for attn_backward (c/attention_backward.c), the
 * gradients training uses. Built and run by the Makefile's test-fuzz.
 *
 * The bytes choose a small self-attention head (n <= 6, d <= 5, dk, dv <= 4: central
 * differences cost a forward pass per parameter), its values in [-2, 2], a mask (finite values
 * and -Infinity, possibly a whole row), causal, the scale and dO. Checked on every input:
 *   - the forward pass (attn_project, attn_sdpa) succeeds, and so does attn_backward;
 *   - every gradient (dX, dWq, dWk, dWv) is finite and matches central differences of
 *     L = Σ dO ⊙ O computed in float64 (tests/c/reference_head.h) within 1e-3 relative to the
 *     larger of the entry and 1% of the tensor's largest (the rule of tests/c/test_backward.c),
 *     plus float32 rounding: 1e-5 of a bound on the tensor's entries (see below);
 *   - a removed key (mask -Infinity or causal j > i) gets dS exactly 0;
 *   - dWq, dWk, dWv accumulate (a second call doubles them) and dX = NULL changes none of them;
 * and bad sizes, NULL buffers and bad scales give their status codes. Some inputs also check
 * attn_linear and attn_linear_backward (check_linear).
 */
#include "attention.h"

#include <string.h>

#include "fuzz.h"
#include "reference_head.h"

enum { MAX_N = 6, MAX_D = 5, MAX_K = 4 };

static float value_from(uint8_t b) { return ((float)b - 128.0f) / 64.0f; } /* [-2, 2), 1/64 steps */

static float *fill(reader *r, long count) /* values from the bytes, each its own allocation */
{
    float *p = fuzz_floats(count);
    for (long i = 0; i < count; i++) p[i] = value_from(take(r));
    return p;
}

/* Bad sizes, each NULL pointer in turn (dX may be NULL: it is skipped), and bad scales. */
static void check_statuses(uint8_t which)
{
    float b[64] = {0};
    float *a[18];
    for (int k = 0; k < 18; k++) a[k] = b;
    int size[4] = {2, 2, 2, 2}; /* n, d, dk, dv */
    float scale = 1.0f;
    int want = ATTN_OK;
    if (which < 18 * 4) {
        a[which % 18] = NULL;
        want = which % 18 == 0 ? ATTN_OK : ATTN_ERR_NULL;
    } else if (which < 18 * 4 + 16) {
        static const int bad[4] = {0, -1, ATTN_MAX_WIDTH + 1, 1 << 30};
        size[which % 4] = bad[(which / 4) % 4];
        want = size[0] == ATTN_MAX_WIDTH + 1 ? ATTN_OK : ATTN_ERR_SIZE; /* n may be up to 512 */
        if (want == ATTN_OK) size[0] = 2;
    } else {
        static const float bad[4] = {0.0f, -1.0f, NAN, INFINITY};
        scale = bad[which % 4];
        want = ATTN_ERR_SCALE;
    }
    int st = attn_backward(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15],
                           a[16], a[17], NULL, 0, scale, size[0], size[1], size[2], size[3]);
    REQUIRE(st == want, "attn_backward: a bad size, NULL buffer or bad scale gave the wrong status");
}

/* attn_linear and attn_linear_backward (the induction model's output projections and tied
 * unembedding) against the products computed in double, in all four flag combinations:
 *   Y = X·W (W [k, c]) or X·Wᵀ (ATTN_W_T, W [c, k]), overwritten or ATTN_ACCUMULATEd;
 *   dW += Xᵀ·dY (or dYᵀ·X, stored like W), dX = dY·Wᵀ overwritten, accumulated, or skipped. */
static void check_linear(reader *r)
{
    int rows = 1 + take(r) % 6, k = 1 + take(r) % 6, c = 1 + take(r) % 6, flags = take(r) % 4;
    int wt = flags & ATTN_W_T, acc = flags & ATTN_ACCUMULATE, skip_dx = take(r) % 3 == 0;
    float *X = fill(r, (long)rows * k), *W = fill(r, (long)k * c), *dY = fill(r, (long)rows * c);
    float *Y = fill(r, (long)rows * c), *dW = fill(r, (long)k * c), *dX = fill(r, (long)rows * k);
    float *Y0 = malloc(sizeof(float) * (size_t)rows * c), *dW0 = malloc(sizeof(float) * (size_t)k * c), *dX0 = malloc(sizeof(float) * (size_t)rows * k);
    memcpy(Y0, Y, sizeof(float) * (size_t)rows * c), memcpy(dW0, dW, sizeof(float) * (size_t)k * c), memcpy(dX0, dX, sizeof(float) * (size_t)rows * k);
    /* W's entry (t, j) of the product, whichever way it is stored */
#define W_AT(t, j) (wt ? W[(long)(j) * k + (t)] : W[(long)(t) * c + (j)])
    attn_linear(Y, X, W, rows, k, c, flags);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < c; j++) {
            double want = acc ? Y0[(long)i * c + j] : 0, size = fabs(want);
            for (int t = 0; t < k; t++) want += (double)X[(long)i * k + t] * W_AT(t, j), size += fabs((double)X[(long)i * k + t] * W_AT(t, j));
            REQUIRE(fabs(Y[(long)i * c + j] - want) <= 1e-6 * (1 + size), "attn_linear: Y differs from X·W");
        }
    attn_linear_backward(skip_dx ? NULL : dX, dW, dY, X, W, rows, k, c, flags);
    for (int t = 0; t < k; t++)
        for (int j = 0; j < c; j++) {
            long at = wt ? (long)j * k + t : (long)t * c + j;
            double want = dW0[at], size = fabs(want);
            for (int i = 0; i < rows; i++) want += (double)X[(long)i * k + t] * dY[(long)i * c + j], size += fabs((double)X[(long)i * k + t] * dY[(long)i * c + j]);
            REQUIRE(fabs(dW[at] - want) <= 1e-6 * (1 + size), "attn_linear_backward: dW differs from dW + Xᵀ·dY");
        }
    for (int i = 0; i < rows; i++)
        for (int t = 0; t < k; t++) {
            if (skip_dx) continue;
            double want = acc ? dX0[(long)i * k + t] : 0, size = fabs(want);
            for (int j = 0; j < c; j++) want += (double)dY[(long)i * c + j] * W_AT(t, j), size += fabs((double)dY[(long)i * c + j] * W_AT(t, j));
            REQUIRE(fabs(dX[(long)i * k + t] - want) <= 1e-6 * (1 + size), "attn_linear_backward: dX differs from dY·Wᵀ");
        }
#undef W_AT
    free(X), free(W), free(dY), free(Y), free(dW), free(dX), free(Y0), free(dW0), free(dX0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    uint8_t flags = take(&r);
    check_statuses(take(&r));
    if (flags & 4) check_linear(&r);
    int n = 1 + take(&r) % MAX_N, d = 1 + take(&r) % MAX_D, dk = 1 + take(&r) % MAX_K, dv = 1 + take(&r) % MAX_K;
    int causal = flags & 1, has_mask = flags & 2;
    uint8_t sb = take(&r);
    float scale = sb < 128 ? attn_default_scale(dk) : 0.125f + (float)(sb - 128) / 64.0f; /* up to 2.1 */

    float *X = fill(&r, (long)n * d), *Wq = fill(&r, (long)d * dk), *Wk = fill(&r, (long)d * dk);
    float *Wv = fill(&r, (long)d * dv), *dO = fill(&r, (long)n * dv);
    float *mask = NULL;
    if (has_mask) {
        mask = fuzz_floats((long)n * n);
        for (long e = 0; e < (long)n * n; e++) {
            uint8_t b = take(&r);
            mask[e] = b < 64 ? -INFINITY : value_from(b);
        }
    }

    float *Q = fuzz_floats((long)n * dk), *K = fuzz_floats((long)n * dk), *V = fuzz_floats((long)n * dv);
    float *S = fuzz_floats((long)n * n), *A = fuzz_floats((long)n * n), *O = fuzz_floats((long)n * dv);
    float *Kt = fuzz_floats((long)dk * n);
    REQUIRE(attn_project(Q, K, V, X, X, Wq, Wk, Wv, n, n, d, dk, dv) == ATTN_OK, "attn_project refused a small head");
    REQUIRE(attn_sdpa(S, A, O, Kt, Q, K, V, mask, causal, scale, n, n, dk, dv) == ATTN_OK, "attn_sdpa refused a small head");

    float *dX = fuzz_floats((long)n * d);
    float *dW[3] = {calloc((size_t)d * dk, sizeof(float)), calloc((size_t)d * dk, sizeof(float)), calloc((size_t)d * dv, sizeof(float))};
    float *dQ = fuzz_floats((long)n * dk), *dK = fuzz_floats((long)n * dk), *dV = fuzz_floats((long)n * dv);
    float *dA = fuzz_floats((long)n * n), *dS = fuzz_floats((long)n * n);
    REQUIRE(attn_backward(dX, dW[0], dW[1], dW[2], dQ, dK, dV, dA, dS, dO, X, Wq, Wk, Wv, Q, K, V, A, mask, causal, scale, n, d,
                          dk, dv) == ATTN_OK,
            "attn_backward refused a valid call");

    /* removed keys pass no gradient back to the scores */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if ((causal && j > i) || (mask && mask[i * n + j] == -INFINITY)) REQUIRE(dS[i * n + j] == 0.0f, "a removed key has dS != 0");

    /* every gradient against float64 central differences of the reference loss */
    long count[4] = {(long)n * d, (long)d * dk, (long)d * dk, (long)d * dv};
    const float *value[4] = {X, Wq, Wk, Wv};
    const float *grad[4] = {dX, dW[0], dW[1], dW[2]};
    double *p[4];
    for (int t = 0; t < 4; t++) {
        p[t] = malloc(sizeof(double) * (size_t)count[t]);
        for (long e = 0; e < count[t]; e++) p[t][e] = value[t][e];
    }
    /* float32 rounding: dS[i][k] = A[i][k]·(dA[i][k] − Σ A·dA) cancels when a row is nearly
     * one-hot, leaving an error of a few ulps of |dA|, which the products after it carry on.
     * So each tensor's absolute tolerance is a bound on the size of its entries, G, times
     * 1e-5 (about 100 float32 ulps): a relative test alone fails on true zeros. */
    double mX = 0, mQ = 0, mK = 0, mV = 0, mdO = 0, mW[3] = {0, 0, 0};
    for (long e = 0; e < (long)n * d; e++) mX = fmax(mX, fabs(X[e]));
    for (long e = 0; e < (long)n * dk; e++) mQ = fmax(mQ, fabs(Q[e])), mK = fmax(mK, fabs(K[e]));
    for (long e = 0; e < (long)n * dv; e++) mV = fmax(mV, fabs(V[e])), mdO = fmax(mdO, fabs(dO[e]));
    for (long e = 0; e < (long)d * dk; e++) mW[0] = fmax(mW[0], fabs(Wq[e])), mW[1] = fmax(mW[1], fabs(Wk[e]));
    for (long e = 0; e < (long)d * dv; e++) mW[2] = fmax(mW[2], fabs(Wv[e]));
    double mdS = 2.0 * dv * mdO * mV, mdQ = scale * n * mdS * mK, mdK = scale * n * mdS * mQ, mdV = n * mdO;
    double G[4] = {dk * mdQ * mW[0] + dk * mdK * mW[1] + dv * mdV * mW[2], n * mX * mdQ, n * mX * mdK, n * mX * mdV};
    for (int t = 0; t < 4; t++) {
        double fd[MAX_N * MAX_D];
        double biggest = ref_gradient(fd, p, t, count[t], 1e-5, dO, mask, causal, scale, n, d, dk, dv);
        for (long e = 0; e < count[t]; e++) {
            REQUIRE(isfinite(grad[t][e]), "a gradient is not finite from finite input");
            double err = fabs(grad[t][e] - fd[e]), tol = 1e-3 * fmax(fabs(fd[e]), 0.01 * biggest) + 1e-5 * G[t] + 1e-6;
            if (err > tol) fprintf(stderr, "tensor %d entry %ld: core %.9g, central difference %.9g, tolerance %.3g\n", t, e, grad[t][e], fd[e], tol);
            REQUIRE(err <= tol, "a gradient differs from the float64 central difference");
        }
    }

    /* weight gradients accumulate; dX = NULL skips dX and changes nothing else */
    float *again[3];
    for (int t = 0; t < 3; t++) {
        long c = count[t + 1];
        again[t] = malloc(sizeof(float) * (size_t)c);
        memcpy(again[t], dW[t], sizeof(float) * (size_t)c);
    }
    REQUIRE(attn_backward(NULL, again[0], again[1], again[2], dQ, dK, dV, dA, dS, dO, X, Wq, Wk, Wv, Q, K, V, A, mask, causal,
                          scale, n, d, dk, dv) == ATTN_OK,
            "attn_backward refused dX = NULL");
    for (int t = 0; t < 3; t++)
        for (long e = 0; e < count[t + 1]; e++)
            /* the second call adds its terms onto dW, not onto 0: rounding differs by G's ulps */
            REQUIRE(fabs(again[t][e] - 2.0 * dW[t][e]) <= 1e-6 * (1 + fabs(dW[t][e])) + 1e-5 * G[t + 1], "a second call does not add the same gradient");

    for (int t = 0; t < 4; t++) free(p[t]);
    for (int t = 0; t < 3; t++) free(dW[t]), free(again[t]);
    free(X), free(Wq), free(Wk), free(Wv), free(dO), free(mask);
    free(Q), free(K), free(V), free(S), free(A), free(O), free(Kt);
    free(dX), free(dQ), free(dK), free(dV), free(dA), free(dS);
    return 0;
}
