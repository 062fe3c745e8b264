/*
 * test_backward.c: native tests of attn_backward (c/attention_backward.c) under AddressSanitizer
 * and UndefinedBehaviorSanitizer (see the Makefile's test-c target).
 *
 * The loss is L = sum_ij dO[i][j]·O[i][j] for a fixed random dO, so dL/dO = dO. The reference
 * gradients are central finite differences of L computed entirely in float64 (a forward pass
 * written here from the maths, independent of c/attention.c), with step h = 1e-4:
 *   dL/dp ~ (L(p + h) - L(p - h)) / 2h,  error O(h²) ~ 1e-8.
 * The core's float32 gradients must agree with them to a relative error below 1e-3 for every
 * entry of dX, dWq, dWk and dWv. "Relative" is |core - fd| / max(|fd|, 0.01·max|fd| of that
 * tensor, 1e-4): entries near zero are judged against the tensor's own size, or at worst to an
 * absolute 1e-7 (float32's epsilon times the O(1) inputs), because a float32 sum has no relative
 * accuracy at a value that is a cancellation of much larger terms.
 *
 * Prints one line per test, the largest relative error per tensor, and "N passed, M failed";
 * exits non-zero on any failure.
 */
#include "attention.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the harness */

#include "check.h"

/* ---------------------------------------------------------------- the float64 reference loss */

#include "reference_head.h" /* ref_loss */

/* ---------------------------------------------------------------- one gradient check */

static double worst[4]; /* largest relative error seen in dX, dWq, dWk, dWv */
static const char *grad_name[4] = {"dX", "dWq", "dWk", "dWv"};

/* Runs forward and backward on one random case and compares every gradient entry with central
 * differences. mask_kind: 0 none, 1 causal, 2 an explicit mask (finite values and -inf, with a
 * fully masked row when n > 1), 3 both. */
static void gradient_check_case(int n, int d, int dk, int dv, int mask_kind, const char *label)
{
    int causal = mask_kind == 1 || mask_kind == 3;
    float *X = rand_matrix((long)n * d, -1.5, 1.5);
    float *W[3] = {rand_matrix((long)d * dk, -1, 1), rand_matrix((long)d * dk, -1, 1), rand_matrix((long)d * dv, -1, 1)};
    float *dO = rand_matrix((long)n * dv, -1, 1);
    float *mask = NULL;
    if (mask_kind >= 2) {
        mask = rand_matrix((long)n * n, -1, 1);
        for (long e = 0; e < (long)n * n; e++)
            if (rng_next() < 0.3) mask[e] = -INFINITY;
        if (n > 1) {
            int row = rng_int(0, n - 1);
            for (int j = 0; j < n; j++) mask[row * n + j] = -INFINITY;
        }
    }
    float scale = rng_next() < 0.5 ? attn_default_scale(dk) : (float)(0.5 + rng_next());

    float *Q = fbuf((long)n * dk, NULL), *K = fbuf((long)n * dk, NULL), *V = fbuf((long)n * dv, NULL);
    float *S = fbuf((long)n * n, NULL), *A = fbuf((long)n * n, NULL), *O = fbuf((long)n * dv, NULL);
    float *Kt = fbuf((long)dk * n, NULL);
    attn_status st = attn_project(Q, K, V, X, X, W[0], W[1], W[2], n, n, d, dk, dv);
    if (st == ATTN_OK) st = attn_sdpa(S, A, O, Kt, Q, K, V, mask, causal, scale, n, n, dk, dv);
    CHECK(st == ATTN_OK, "%s: forward returned %d", label, st);

    float *grad[4] = {fbuf((long)n * d, NULL), calloc((size_t)d * dk, sizeof(float)),
                      calloc((size_t)d * dk, sizeof(float)), calloc((size_t)d * dv, sizeof(float))};
    float *dQ = fbuf((long)n * dk, NULL), *dK = fbuf((long)n * dk, NULL), *dV = fbuf((long)n * dv, NULL);
    float *dA = fbuf((long)n * n, NULL), *dS = fbuf((long)n * n, NULL);
    st = attn_backward(grad[0], grad[1], grad[2], grad[3], dQ, dK, dV, dA, dS, dO, X, W[0], W[1], W[2], Q, K, V, A,
                       mask, causal, scale, n, d, dk, dv);
    CHECK(st == ATTN_OK, "%s: attn_backward returned %d", label, st);

    /* the parameters in double, perturbed one entry at a time */
    long count[4] = {(long)n * d, (long)d * dk, (long)d * dk, (long)d * dv};
    const float *value[4] = {X, W[0], W[1], W[2]};
    double *p[4];
    for (int t = 0; t < 4; t++) {
        p[t] = malloc(sizeof(double) * (size_t)count[t]);
        for (long e = 0; e < count[t]; e++) p[t][e] = value[t][e];
    }
    const double h = 1e-4;
    for (int t = 0; t < 4 && st == ATTN_OK; t++) {
        double *fd = malloc(sizeof(double) * (size_t)count[t]);
        double biggest = ref_gradient(fd, p, t, count[t], h, dO, mask, causal, scale, n, d, dk, dv);
        for (long e = 0; e < count[t]; e++) {
            double floor_ = 0.01 * biggest > 1e-4 ? 0.01 * biggest : 1e-4;
            double rel = fabs(grad[t][e] - fd[e]) / (fabs(fd[e]) > floor_ ? fabs(fd[e]) : floor_);
            if (rel > worst[t]) worst[t] = rel;
            CHECK(rel < 1e-3, "%s (n %d d %d dk %d dv %d): %s[%ld] = %.9g, finite difference %.9g (rel %.2g)", label, n,
                  d, dk, dv, grad_name[t], e, grad[t][e], fd[e], rel);
        }
        free(fd);
    }

    /* removed keys get exactly zero gradient through the softmax */
    for (int i = 0; i < n && st == ATTN_OK; i++)
        for (int j = 0; j < n; j++)
            if ((causal && j > i) || (mask && mask[i * n + j] == -INFINITY))
                CHECK(dS[i * n + j] == 0.0f, "%s: masked dS[%d][%d] = %g, not exactly 0", label, i, j, dS[i * n + j]);

    for (int t = 0; t < 4; t++) free(p[t]), free(grad[t]);
    free(X), free(W[0]), free(W[1]), free(W[2]), free(dO), free(mask);
    free(Q), free(K), free(V), free(S), free(A), free(O), free(Kt);
    free(dQ), free(dK), free(dV), free(dA), free(dS);
}

/* ---------------------------------------------------------------- tests */

static void gradients_match_float64_central_differences_without_a_mask(void)
{
    rng_seed(101);
    for (int c = 0; c < 60; c++)
        gradient_check_case(rng_int(1, 7), rng_int(1, 6), rng_int(1, 5), rng_int(1, 5), 0, "no mask");
}

static void gradients_match_float64_central_differences_with_the_causal_mask(void)
{
    rng_seed(202);
    for (int c = 0; c < 60; c++)
        gradient_check_case(rng_int(1, 7), rng_int(1, 6), rng_int(1, 5), rng_int(1, 5), 1, "causal");
}

static void gradients_match_float64_central_differences_with_an_explicit_mask(void)
{
    rng_seed(303);
    for (int c = 0; c < 60; c++)
        gradient_check_case(rng_int(1, 7), rng_int(1, 6), rng_int(1, 5), rng_int(1, 5), 2, "explicit mask");
}

static void gradients_match_float64_central_differences_with_causal_and_explicit_masks(void)
{
    rng_seed(404);
    for (int c = 0; c < 60; c++)
        gradient_check_case(rng_int(1, 7), rng_int(1, 6), rng_int(1, 5), rng_int(1, 5), 3, "causal + mask");
}

/* A row whose keys are all removed has A = 0 and O = 0 whatever its query is, so its query
 * (and the weights through it) get zero gradient, and its dO reaches no value row. */
static void a_fully_masked_row_gives_zero_gradient(void)
{
    enum { n = 3, d = 2, dk = 2, dv = 2 };
    float X[n * d] = {1, 0, 0, 1, 1, 1}, Wq[d * dk] = {1, 2, 3, 4}, Wk[d * dk] = {0.5f, -1, 2, 1};
    float Wv[d * dv] = {1, -1, 2, 0.5f};
    /* row 0 hides every key; rows 1 and 2 hide nothing */
    float mask[n * n] = {-INFINITY, -INFINITY, -INFINITY, 0, 0, 0, 0, 0, 0};
    float dO[n * dv] = {5, -7, 0, 0, 0, 0}; /* only the masked row has an upstream gradient */
    float Q[n * dk], K[n * dk], V[n * dv], S[n * n], A[n * n], O[n * dv], Kt[dk * n];
    CHECK(attn_project(Q, K, V, X, X, Wq, Wk, Wv, n, n, d, dk, dv) == ATTN_OK, "project");
    CHECK(attn_sdpa(S, A, O, Kt, Q, K, V, mask, 0, 1.0f, n, n, dk, dv) == ATTN_OK, "sdpa");
    float dX[n * d], dWq[d * dk] = {0}, dWk[d * dk] = {0}, dWv[d * dv] = {0};
    float dQ[n * dk], dK[n * dk], dV[n * dv], dA[n * n], dS[n * n];
    CHECK(attn_backward(dX, dWq, dWk, dWv, dQ, dK, dV, dA, dS, dO, X, Wq, Wk, Wv, Q, K, V, A, mask, 0, 1.0f, n, d,
                        dk, dv) == ATTN_OK,
          "backward");
    for (int e = 0; e < n * d; e++) CHECK(dX[e] == 0.0f, "dX[%d] = %g", e, dX[e]);
    for (int e = 0; e < d * dk; e++) CHECK(dWq[e] == 0.0f && dWk[e] == 0.0f, "dWq/dWk[%d] nonzero", e);
    for (int e = 0; e < d * dv; e++) CHECK(dWv[e] == 0.0f, "dWv[%d] = %g", e, dWv[e]);
    for (int e = 0; e < n * n; e++) CHECK(dS[e] == 0.0f, "dS[%d] = %g", e, dS[e]);
}

/* A seeded head, run forward with the causal mask at scale 0.7, for the backward tests that
 * need one: its inputs X, W, dO and the forward's Q, K, V, A, each malloc'd (free_head). */
typedef struct { float *X, *Wq, *Wk, *Wv, *dO, *Q, *K, *V, *A; } causal_head;
static causal_head causal_head_of(uint32_t seed, int n, int d, int dk, int dv)
{
    rng_seed(seed);
    causal_head h = {rand_matrix((long)n * d, -1, 1), rand_matrix((long)d * dk, -1, 1), rand_matrix((long)d * dk, -1, 1),
                     rand_matrix((long)d * dv, -1, 1), rand_matrix((long)n * dv, -1, 1), malloc(sizeof(float) * (size_t)(n * dk)),
                     malloc(sizeof(float) * (size_t)(n * dk)), malloc(sizeof(float) * (size_t)(n * dv)), malloc(sizeof(float) * (size_t)(n * n))};
    float *S = malloc(sizeof(float) * (size_t)(n * n)), *O = malloc(sizeof(float) * (size_t)(n * dv)), *Kt = malloc(sizeof(float) * (size_t)(dk * n));
    attn_project(h.Q, h.K, h.V, h.X, h.X, h.Wq, h.Wk, h.Wv, n, n, d, dk, dv);
    attn_sdpa(S, h.A, O, Kt, h.Q, h.K, h.V, NULL, 1, 0.7f, n, n, dk, dv);
    free(S), free(O), free(Kt);
    return h;
}
static void free_head(causal_head *h) { free(h->X), free(h->Wq), free(h->Wk), free(h->Wv), free(h->dO), free(h->Q), free(h->K), free(h->V), free(h->A); }

/* dWq, dWk, dWv add to what they hold (so a batch sums in one buffer); dX is overwritten. */
static void weight_gradients_accumulate_and_dx_is_overwritten(void)
{
    enum { n = 4, d = 3, dk = 2, dv = 3 };
    causal_head h = causal_head_of(7, n, d, dk, dv);
    float *X = h.X, *Wq = h.Wq, *Wk = h.Wk, *Wv = h.Wv, *dO = h.dO, *Q = h.Q, *K = h.K, *V = h.V, *A = h.A;
    float dX1[n * d], dX2[n * d], g1[3][d * dv], g2[3][d * dv];
    float dQ[n * dk], dK[n * dk], dV[n * dv], dA[n * n], dS[n * n];
    memset(g1, 0, sizeof g1);
    attn_backward(dX1, g1[0], g1[1], g1[2], dQ, dK, dV, dA, dS, dO, X, Wq, Wk, Wv, Q, K, V, A, NULL, 1, 0.7f, n, d, dk, dv);
    memcpy(g2, g1, sizeof g1);
    for (int e = 0; e < n * d; e++) dX2[e] = 1e6f; /* garbage the call must overwrite */
    attn_backward(dX2, g2[0], g2[1], g2[2], dQ, dK, dV, dA, dS, dO, X, Wq, Wk, Wv, Q, K, V, A, NULL, 1, 0.7f, n, d, dk, dv);
    for (int e = 0; e < n * d; e++) CHECK(dX2[e] == dX1[e], "dX[%d]: %g then %g", e, dX1[e], dX2[e]);
    for (int t = 0; t < 3; t++)
        for (int e = 0; e < d * (t < 2 ? dk : dv); e++)
            CHECK(fabsf(g2[t][e] - 2 * g1[t][e]) <= 1e-6f * (1 + fabsf(g1[t][e])), "weight gradient %d[%d]: %g after one call, %g after two", t, e, g1[t][e], g2[t][e]);
    /* dX = NULL skips the input gradient and leaves the weight gradients the same */
    float g3[3][d * dv];
    memset(g3, 0, sizeof g3);
    CHECK(attn_backward(NULL, g3[0], g3[1], g3[2], dQ, dK, dV, dA, dS, dO, X, Wq, Wk, Wv, Q, K, V, A, NULL, 1, 0.7f, n,
                        d, dk, dv) == ATTN_OK,
          "dX = NULL refused");
    CHECK(memcmp(g3, g1, sizeof g1) == 0, "weight gradients differ with dX = NULL");
    free_head(&h);
}

static void bad_sizes_null_buffers_and_bad_scales_return_error_codes(void)
{
    float b[64] = {0};
    float *p = b;
#define BW(dX_, sc, n_, d_) attn_backward(dX_, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, NULL, 0, sc, n_, d_, 2, 2)
    CHECK(BW(p, 1.0f, 0, 2) == ATTN_ERR_SIZE, "n = 0");
    CHECK(BW(p, 1.0f, ATTN_MAX_TOKENS + 1, 2) == ATTN_ERR_SIZE, "n past the limit");
    CHECK(BW(p, 1.0f, 2, 0) == ATTN_ERR_SIZE, "d = 0");
    CHECK(BW(p, 0.0f, 2, 2) == ATTN_ERR_SCALE, "scale 0");
    CHECK(BW(p, NAN, 2, 2) == ATTN_ERR_SCALE, "scale NaN");
#undef BW
    CHECK(attn_backward(p, NULL, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, NULL, 0, 1.0f, 2, 2, 2, 2) == ATTN_ERR_NULL,
          "dWq NULL");
    CHECK(attn_backward(p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, NULL, NULL, 0, 1.0f, 2, 2, 2, 2) == ATTN_ERR_NULL,
          "A NULL");
    /* every required buffer, one at a time (dX may be NULL: it is skipped) */
    static const char *names[17] = {"dWq", "dWk", "dWv", "dQ", "dK", "dV", "dA", "dS", "dO", "X", "Wq", "Wk", "Wv", "Q", "K", "V", "A"};
    for (int k = 0; k < 17; k++) {
        float *q[17];
        for (int j = 0; j < 17; j++) q[j] = j == k ? NULL : p;
        CHECK(attn_backward(p, q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8], q[9], q[10], q[11], q[12], q[13], q[14],
                            q[15], q[16], NULL, 0, 1.0f, 2, 2, 2, 2) == ATTN_ERR_NULL,
              "%s NULL", names[k]);
    }
}

/* The limits are inclusive: n = ATTN_MAX_TOKENS and d = dk = dv = ATTN_MAX_WIDTH are accepted,
 * and the gradient is right there. Checked on dWv = Xᵀ·(Aᵀ·dO), written out in double from the
 * forward call's A (two cheap shapes: n at its limit with widths 1, widths at the limit with n 3). */
static void backward_accepts_n_and_widths_exactly_at_the_limits(void)
{
    const int shapes[2][2] = {{ATTN_MAX_TOKENS, 1}, {3, ATTN_MAX_WIDTH}};
    rng_seed(505);
    for (int s = 0; s < 2; s++) {
        int n = shapes[s][0], d = shapes[s][1], dk = d, dv = d;
        float *X = rand_matrix((long)n * d, -1, 1), *Wq = rand_matrix((long)d * dk, -0.1, 0.1);
        float *Wk = rand_matrix((long)d * dk, -0.1, 0.1), *Wv = rand_matrix((long)d * dv, -1, 1), *dO = rand_matrix((long)n * dv, -1, 1);
        float *Q = fbuf((long)n * dk, NULL), *K = fbuf((long)n * dk, NULL), *V = fbuf((long)n * dv, NULL);
        float *S = fbuf((long)n * n, NULL), *A = fbuf((long)n * n, NULL), *O = fbuf((long)n * dv, NULL), *Kt = fbuf((long)dk * n, NULL);
        float scale = attn_default_scale(dk);
        attn_status st = attn_project(Q, K, V, X, X, Wq, Wk, Wv, n, n, d, dk, dv);
        if (st == ATTN_OK) st = attn_sdpa(S, A, O, Kt, Q, K, V, NULL, 1, scale, n, n, dk, dv);
        CHECK(st == ATTN_OK, "n %d d %d: forward returned %d", n, d, st);
        float *dX = fbuf((long)n * d, NULL), *dWq = calloc((size_t)d * dk, sizeof(float)), *dWk = calloc((size_t)d * dk, sizeof(float));
        float *dWv = calloc((size_t)d * dv, sizeof(float)), *dQ = fbuf((long)n * dk, NULL), *dK = fbuf((long)n * dk, NULL);
        float *dV = fbuf((long)n * dv, NULL), *dA = fbuf((long)n * n, NULL), *dS = fbuf((long)n * n, NULL);
        st = attn_backward(dX, dWq, dWk, dWv, dQ, dK, dV, dA, dS, dO, X, Wq, Wk, Wv, Q, K, V, A, NULL, 1, scale, n, d, dk, dv);
        CHECK(st == ATTN_OK, "n %d d = dk = dv = %d (the limits are inclusive): attn_backward returned %d", n, d, st);
        if (st == ATTN_OK) {
            double *rdV = calloc((size_t)n * dv, sizeof(double)), worst_rel = 0;
            for (int i = 0; i < n; i++)
                for (int j = 0; j <= i; j++)
                    for (int c = 0; c < dv; c++) rdV[(long)j * dv + c] += (double)A[(long)i * n + j] * dO[(long)i * dv + c];
            for (int a = 0; a < d; a++)
                for (int c = 0; c < dv; c++) {
                    double want = 0, size = 0;
                    for (int t = 0; t < n; t++) {
                        want += (double)X[(long)t * d + a] * rdV[(long)t * dv + c];
                        size += fabs((double)X[(long)t * d + a] * rdV[(long)t * dv + c]);
                    }
                    double rel = fabs(dWv[(long)a * dv + c] - want) / (size > 1e-6 ? size : 1e-6);
                    if (rel > worst_rel) worst_rel = rel;
                }
            CHECK(worst_rel < 1e-5, "n %d d %d: dWv differs from Xᵀ·Aᵀ·dO by %.3g of its terms' size", n, d, worst_rel);
            free(rdV);
        }
        free(X), free(Wq), free(Wk), free(Wv), free(dO), free(Q), free(K), free(V), free(S), free(A), free(O), free(Kt);
        free(dX), free(dWq), free(dWk), free(dWv), free(dQ), free(dK), free(dV), free(dA), free(dS);
    }
}

/* The gradients and the scratch the caller gives (dQ, dK, dV, dA, dS, dX) are written in full,
 * whatever they held: filled with NaN first, a causal backward gives the same bits as with
 * zeroed buffers, and dA is exactly 0 past each row's end, as attention.h says. */
static void every_output_and_scratch_is_written_in_full(void)
{
    enum { n = 7, d = 3, dk = 2, dv = 3 };
    causal_head h = causal_head_of(11, n, d, dk, dv);
    float out[2][n * d + 3 * d * dv + 2 * n * dk + n * dv + 2 * n * n];
    for (int run = 0; run < 2; run++) {
        float *b = out[run];
        for (size_t e = 0; e < sizeof out[0] / sizeof(float); e++) b[e] = run ? NAN : 0.0f;
        float *dX = b, *dW = dX + n * d, *dQ = dW + 3 * d * dv, *dK = dQ + n * dk, *dV = dK + n * dk, *dA = dV + n * dv, *dS = dA + n * n;
        for (int e = 0; e < 3 * d * dv; e++) dW[e] = 0.0f; /* the weight gradients add to what they hold */
        CHECK(attn_backward(dX, dW, dW + d * dv, dW + 2 * d * dv, dQ, dK, dV, dA, dS, h.dO, h.X, h.Wq, h.Wk, h.Wv, h.Q, h.K, h.V, h.A,
                            NULL, 1, 0.7f, n, d, dk, dv) == ATTN_OK, "status");
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) CHECK(dA[i * n + j] == 0.0f, "run %d: dA[%d][%d] = %g past the row's end", run, i, j, dA[i * n + j]);
    }
    CHECK(memcmp(out[0], out[1], sizeof out[0]) == 0, "buffers filled with NaN gave other bits than zeroed ones");
    free_head(&h);
}

int main(void)
{
    RUN(gradients_match_float64_central_differences_without_a_mask);
    RUN(gradients_match_float64_central_differences_with_the_causal_mask);
    RUN(gradients_match_float64_central_differences_with_an_explicit_mask);
    RUN(gradients_match_float64_central_differences_with_causal_and_explicit_masks);
    RUN(a_fully_masked_row_gives_zero_gradient);
    RUN(weight_gradients_accumulate_and_dx_is_overwritten);
    RUN(every_output_and_scratch_is_written_in_full);
    RUN(bad_sizes_null_buffers_and_bad_scales_return_error_codes);
    RUN(backward_accepts_n_and_widths_exactly_at_the_limits);
    printf("max relative error vs float64 central differences (240 random shapes):");
    for (int t = 0; t < 4; t++) printf(" %s %.2g%s", grad_name[t], worst[t], t < 3 ? "," : "\n");
    return print_summary();
}
