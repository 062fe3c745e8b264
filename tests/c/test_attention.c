/*
 * test_attention.c: native tests of the C API in c/attention.h, meant to run under
 * AddressSanitizer and UndefinedBehaviorSanitizer (see the Makefile's test-c target):
 *
 *   clang -std=c99 -g -fsanitize=address,undefined -fno-sanitize-recover=all -Ic \
 *         c/attention.c tests/c/test_attention.c -lm -o /tmp/t && /tmp/t
 *
 * Every buffer is its own heap allocation of exactly the documented size, so a read or write
 * one element outside it is caught. Output and scratch buffers start filled with NaN, so a value
 * the core forgot to write shows up. Results are compared with a double-precision reference
 * written here from the maths, independent of c/attention.c.
 *
 * Prints one line per test and a last line "N passed, M failed"; exits non-zero on any failure.
 */
#include "attention.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the harness */

#include "check.h"

static double worst_diff; /* largest |core - reference| seen, printed at the end */

/* |got - want| <= atol + rtol*|want| with atol 1e-5, rtol 1e-4; infinities must match. */
static int close_enough(float got, double want)
{
    if (isinf(want) || isinf(got)) return (double)got == want;
    double diff = fabs((double)got - want);
    if (diff > worst_diff) worst_diff = diff;
    return diff <= 1e-5 + 1e-4 * fabs(want);
}

static int count_close(const float *got, const double *want, long count, const char *what)
{
    int bad = 0;
    for (long i = 0; i < count; i++) {
        if (!close_enough(got[i], want[i])) {
            if (!bad) CHECK(0, "%s[%ld] = %.9g, reference %.9g", what, i, got[i], want[i]);
            bad++;
        }
    }
    return bad;
}

/* ---------------------------------------------------------------- the double-precision reference */

/* C[r, c] = A[r, k] · B[k, c], in double from float inputs. */
static void ref_matmul(double *C, const float *A, const float *B, int r, int k, int c)
{
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++) {
            double s = 0;
            for (int t = 0; t < k; t++) s += (double)A[(long)i * k + t] * B[(long)t * c + j];
            C[(long)i * c + j] = s;
        }
}

/* S = scale·Q·Kᵀ; A = softmax_row(S + M) with M = mask (additive) and -inf where causal hides a
 * key; a row with no key left is all 0; O = A·V. The max is taken over the visible keys only. */
static void ref_sdpa(double *S, double *A, double *O, const float *Q, const float *K, const float *V,
                     const float *mask, int causal, double scale, int n, int m, int dk, int dv)
{
    for (int i = 0; i < n; i++) {
        double max = -INFINITY;
        for (int j = 0; j < m; j++) {
            double dot = 0;
            for (int c = 0; c < dk; c++) dot += (double)Q[(long)i * dk + c] * K[(long)j * dk + c];
            S[(long)i * m + j] = scale * dot;
            double z = S[(long)i * m + j] + (mask ? (double)mask[(long)i * m + j] : 0.0);
            if (causal && j > i) z = -INFINITY;
            A[(long)i * m + j] = z;
            if (z > max) max = z;
        }
        double sum = 0;
        for (int j = 0; j < m; j++) {
            double z = A[(long)i * m + j];
            A[(long)i * m + j] = (max == -INFINITY || z == -INFINITY) ? 0.0 : exp(z - max);
            sum += A[(long)i * m + j];
        }
        for (int j = 0; j < m; j++)
            if (sum > 0) A[(long)i * m + j] /= sum;
        for (int c = 0; c < dv; c++) {
            double o = 0;
            for (int j = 0; j < m; j++) o += A[(long)i * m + j] * V[(long)j * dv + c];
            O[(long)i * dv + c] = o;
        }
    }
}

/* ---------------------------------------------------------------- invariants */

/* Weights in [0, 1]; hidden keys (mask -inf or causal) exactly 0; rows sum to 1, or are all 0
 * with an all-0 output when every key is hidden. */
static void check_invariants(const float *A, const float *O, const float *mask, int causal, int n, int m, int dv,
                             const char *label)
{
    for (int i = 0; i < n; i++) {
        double sum = 0;
        int open = 0;
        for (int j = 0; j < m; j++) {
            float a = A[(long)i * m + j];
            int hidden = (mask && mask[(long)i * m + j] == -INFINITY) || (causal && j > i);
            CHECK(a >= 0.0f && a <= 1.0f, "%s: A[%d][%d] = %g outside [0, 1]", label, i, j, a);
            if (hidden) CHECK(a == 0.0f, "%s: hidden A[%d][%d] = %g, not exactly 0", label, i, j, a);
            open += !hidden;
            sum += a;
        }
        if (open) {
            CHECK(fabs(sum - 1.0) <= 1e-5 + m * 2.4e-7, "%s: row %d of A sums to %.9g", label, i, sum);
        } else {
            CHECK(sum == 0.0, "%s: fully masked row %d of A sums to %g", label, i, sum);
            for (int c = 0; c < dv; c++)
                CHECK(O[(long)i * dv + c] == 0.0f, "%s: O[%d][%d] = %g in a fully masked row", label, i, c, O[(long)i * dv + c]);
        }
    }
}

/* One sdpa call on exactly sized buffers, compared with the reference. */
static void run_sdpa_case(const float *Q, const float *K, const float *V, const float *mask, int causal, float scale,
                          int n, int m, int dk, int dv, const char *label)
{
    float *S = fbuf((long)n * m, NULL), *A = fbuf((long)n * m, NULL), *O = fbuf((long)n * dv, NULL);
    float *Kt = fbuf((long)dk * m, NULL);
    double *rS = malloc(sizeof(double) * n * m), *rA = malloc(sizeof(double) * n * m), *rO = malloc(sizeof(double) * n * dv);
    attn_status st = attn_sdpa(S, A, O, Kt, Q, K, V, mask, causal, scale, n, m, dk, dv);
    CHECK(st == ATTN_OK, "%s: attn_sdpa returned %d", label, st);
    if (st == ATTN_OK) {
        ref_sdpa(rS, rA, rO, Q, K, V, mask, causal, scale, n, m, dk, dv);
        count_close(S, rS, (long)n * m, "S");
        count_close(A, rA, (long)n * m, "A");
        count_close(O, rO, (long)n * dv, "O");
        check_invariants(A, O, mask, causal, n, m, dv, label);
    }
    free(S), free(A), free(O), free(Kt), free(rS), free(rA), free(rO);
}

/* ---------------------------------------------------------------- the lesson */

static const float LESSON_QK[6] = {1, 0, 0, 1, 1, 1};
static const float LESSON_V[6] = {1, 0, 0, 2, 3, 1};
static const double LESSON_A[9] = {0.401, 0.198, 0.401, 0.198, 0.401, 0.401, 0.248, 0.248, 0.503};
static const double LESSON_O[6] = {1.604, 0.797, 1.401, 1.203, 1.759, 1.000};

static int same_to_3_decimals(float got, double want) { return fabs(round((double)got * 1000) / 1000 - want) < 1e-9; }

static void sdpa_gives_the_lessons_worked_example_to_3_decimals(void)
{
    float *Q = fbuf(6, LESSON_QK), *K = fbuf(6, LESSON_QK), *V = fbuf(6, LESSON_V);
    float *S = fbuf(9, NULL), *A = fbuf(9, NULL), *O = fbuf(6, NULL), *Kt = fbuf(6, NULL);
    attn_status st = attn_sdpa(S, A, O, Kt, Q, K, V, NULL, 0, attn_default_scale(2), 3, 3, 2, 2);
    CHECK(st == ATTN_OK, "status %d", st);
    for (int k = 0; k < 9; k++) CHECK(same_to_3_decimals(A[k], LESSON_A[k]), "A[%d] = %.6f, lesson %.3f", k, A[k], LESSON_A[k]);
    for (int k = 0; k < 6; k++) CHECK(same_to_3_decimals(O[k], LESSON_O[k]), "O[%d] = %.6f, lesson %.3f", k, O[k], LESSON_O[k]);
    const double s = sqrt(0.5), wantS[9] = {s, 0, s, 0, s, s, s, s, 2 * s};
    for (int k = 0; k < 9; k++) CHECK(close_enough(S[k], wantS[k]), "S[%d] = %.9g, want %.9g", k, S[k], wantS[k]);
    free(Q), free(K), free(V), free(S), free(A), free(O), free(Kt);
}

static void project_from_identity_gives_the_lessons_q_k_v_exactly(void)
{
    const float I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    float *X = fbuf(9, I3), *Wq = fbuf(6, LESSON_QK), *Wk = fbuf(6, LESSON_QK), *Wv = fbuf(6, LESSON_V);
    float *Q = fbuf(6, NULL), *K = fbuf(6, NULL), *V = fbuf(6, NULL);
    attn_status st = attn_project(Q, K, V, X, X, Wq, Wk, Wv, 3, 3, 3, 2, 2);
    CHECK(st == ATTN_OK, "status %d", st);
    for (int k = 0; k < 6; k++) {
        CHECK(Q[k] == LESSON_QK[k], "Q[%d] = %g", k, Q[k]);
        CHECK(K[k] == LESSON_QK[k], "K[%d] = %g", k, K[k]);
        CHECK(V[k] == LESSON_V[k], "V[%d] = %g", k, V[k]);
    }
    free(X), free(Wq), free(Wk), free(Wv), free(Q), free(K), free(V);
}

static void default_scale_is_one_over_sqrt_dk(void)
{
    for (int dk = 1; dk <= ATTN_MAX_WIDTH; dk++) {
        double want = 1.0 / sqrt((double)dk);
        CHECK(fabs(attn_default_scale(dk) - want) <= 1.2e-7 * want, "dk %d: %.9g, want %.9g", dk, attn_default_scale(dk), want);
    }
    /* a width below 1 is no head: 0, a scale attn_sdpa refuses (ATTN_ERR_SCALE) */
    CHECK(attn_default_scale(0) == 0.0f && attn_default_scale(-4) == 0.0f, "dk 0: %g, dk -4: %g", attn_default_scale(0), attn_default_scale(-4));
}

/* ---------------------------------------------------------------- against the reference */

static void project_and_sdpa_match_the_double_reference_on_300_seeded_shapes(void)
{
    rng_seed(2024);
    for (int t = 0; t < 300; t++) {
        int big = t % 25 == 0;
        int n = rng_int(1, big ? 70 : 20), m = rng_int(1, big ? 70 : 20), d = rng_int(1, big ? 40 : 24);
        int dk = rng_int(1, big ? 40 : 24), dv = rng_int(1, big ? 40 : 24);
        int self = t % 3 == 0;
        if (self) m = n;
        double w = 1.0 / sqrt((double)d);
        float *X = rand_matrix((long)n * d, -1, 1);
        float *Xkv = self ? X : rand_matrix((long)m * d, -1, 1);
        float *Wq = rand_matrix((long)d * dk, -w, w), *Wk = rand_matrix((long)d * dk, -w, w), *Wv = rand_matrix((long)d * dv, -w, w);
        float *Q = fbuf((long)n * dk, NULL), *K = fbuf((long)m * dk, NULL), *V = fbuf((long)m * dv, NULL);
        float *mask = NULL;
        int kind = t % 4; /* 0 none, 1 boolean-like 0/-inf, 2 float with -inf, 3 causal */
        if (kind == 1 || kind == 2) {
            mask = fbuf((long)n * m, NULL);
            for (long k = 0; k < (long)n * m; k++) {
                double u = rng_next();
                mask[k] = u < 0.3 ? -INFINITY : (kind == 1 ? 0.0f : (float)(4 * rng_next() - 2));
            }
        }
        int causal = kind == 3 || (kind == 1 && t % 8 == 1);
        float scale = t % 5 == 0 ? (float)(0.05 + 2 * rng_next()) : attn_default_scale(dk);

        attn_status st = attn_project(Q, K, V, X, Xkv, Wq, Wk, Wv, n, m, d, dk, dv);
        CHECK(st == ATTN_OK, "case %d: attn_project returned %d", t, st);
        double *rQ = malloc(sizeof(double) * n * dk), *rK = malloc(sizeof(double) * m * dk), *rV = malloc(sizeof(double) * m * dv);
        ref_matmul(rQ, X, Wq, n, d, dk);
        ref_matmul(rK, Xkv, Wk, m, d, dk);
        ref_matmul(rV, Xkv, Wv, m, d, dv);
        int bad = count_close(Q, rQ, (long)n * dk, "Q") + count_close(K, rK, (long)m * dk, "K") + count_close(V, rV, (long)m * dv, "V");
        CHECK(!bad, "case %d (n=%d m=%d d=%d dk=%d dv=%d): projections differ from the reference", t, n, m, d, dk, dv);

        char label[96];
        snprintf(label, sizeof label, "case %d (n=%d m=%d dk=%d dv=%d mask=%d causal=%d)", t, n, m, dk, dv, kind, causal);
        run_sdpa_case(Q, K, V, mask, causal, scale, n, m, dk, dv, label);

        free(X), free(Wq), free(Wk), free(Wv), free(Q), free(K), free(V), free(mask);
        if (!self) free(Xkv);
        free(rQ), free(rK), free(rV);
    }
}

static void sdpa_at_the_size_limits_matches_the_double_reference(void)
{
    rng_seed(7);
    int n = ATTN_MAX_TOKENS, m = ATTN_MAX_TOKENS, dk = ATTN_MAX_WIDTH, dv = ATTN_MAX_WIDTH;
    float *Q = rand_matrix((long)n * dk, -0.2, 0.2), *K = rand_matrix((long)m * dk, -0.2, 0.2), *V = rand_matrix((long)m * dv, -1, 1);
    run_sdpa_case(Q, K, V, NULL, 1, attn_default_scale(dk), n, m, dk, dv, "limits");
    free(Q), free(K), free(V);

    int d = ATTN_MAX_WIDTH;
    n = m = 8;
    float *X = rand_matrix((long)n * d, -1, 1), *W = rand_matrix((long)d * dk, -0.06, 0.06), *Wv = rand_matrix((long)d * dv, -0.06, 0.06);
    float *Qp = fbuf((long)n * dk, NULL), *Kp = fbuf((long)m * dk, NULL), *Vp = fbuf((long)m * dv, NULL);
    CHECK(attn_project(Qp, Kp, Vp, X, X, W, W, Wv, n, m, d, dk, dv) == ATTN_OK, "attn_project at d = dk = dv = %d", d);
    double *rQ = malloc(sizeof(double) * n * dk);
    ref_matmul(rQ, X, W, n, d, dk);
    count_close(Qp, rQ, (long)n * dk, "Q at the width limit");
    free(X), free(W), free(Wv), free(Qp), free(Kp), free(Vp), free(rQ);
}

/* ---------------------------------------------------------------- masks */

static void causal_hides_later_keys_top_left_aligned_when_n_differs_from_m(void)
{
    const int shapes[][2] = {{1, 6}, {3, 7}, {6, 6}, {7, 3}, {9, 1}};
    rng_seed(11);
    for (int s = 0; s < 5; s++) {
        int n = shapes[s][0], m = shapes[s][1], dk = 5, dv = 3;
        float *Q = rand_matrix((long)n * dk, -1, 1), *K = rand_matrix((long)m * dk, -1, 1), *V = rand_matrix((long)m * dv, -1, 1);
        char label[48];
        snprintf(label, sizeof label, "causal n=%d m=%d", n, m);
        run_sdpa_case(Q, K, V, NULL, 1, attn_default_scale(dk), n, m, dk, dv, label);
        free(Q), free(K), free(V);
    }
}

static void fully_masked_rows_give_zero_weights_and_zero_output(void)
{
    rng_seed(12);
    int n = 4, m = 5, dk = 3, dv = 2;
    float *Q = rand_matrix((long)n * dk, -1, 1), *K = rand_matrix((long)m * dk, -1, 1), *V = rand_matrix((long)m * dv, -3, 3);
    float *mask = fbuf((long)n * m, NULL);
    for (int k = 0; k < n * m; k++) mask[k] = 0.0f;
    for (int j = 0; j < m; j++) mask[1 * m + j] = -INFINITY; /* row 1: every key masked */
    mask[0] = -INFINITY;                                      /* row 0 under causal sees only key 0: now none */
    float *S = fbuf((long)n * m, NULL), *A = fbuf((long)n * m, NULL), *O = fbuf((long)n * dv, NULL), *Kt = fbuf((long)dk * m, NULL);
    CHECK(attn_sdpa(S, A, O, Kt, Q, K, V, mask, 1, attn_default_scale(dk), n, m, dk, dv) == ATTN_OK, "status");
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < m; j++) CHECK(A[i * m + j] == 0.0f, "A[%d][%d] = %g", i, j, A[i * m + j]);
        for (int c = 0; c < dv; c++) CHECK(O[i * dv + c] == 0.0f, "O[%d][%d] = %g", i, c, O[i * dv + c]);
    }
    check_invariants(A, O, mask, 1, n, m, dv, "causal + mask");
    free(S), free(A), free(O), free(Kt);

    for (int k = 0; k < n * m; k++) mask[k] = -INFINITY; /* every row */
    run_sdpa_case(Q, K, V, mask, 0, 1.0f, n, m, dk, dv, "every row masked");
    free(Q), free(K), free(V), free(mask);
}

static void a_constant_float_mask_on_a_row_leaves_its_weights_unchanged(void)
{
    rng_seed(13);
    int n = 5, m = 7, dk = 4, dv = 3;
    float *Q = rand_matrix((long)n * dk, -1, 1), *K = rand_matrix((long)m * dk, -1, 1), *V = rand_matrix((long)m * dv, -1, 1);
    float *mask = fbuf((long)n * m, NULL);
    const float shift[5] = {-37.5f, -3.25f, 0.5f, 12.0f, 60.0f};
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) mask[i * m + j] = shift[i];
    float *S = fbuf((long)n * m, NULL), *A0 = fbuf((long)n * m, NULL), *A1 = fbuf((long)n * m, NULL);
    float *O = fbuf((long)n * dv, NULL), *Kt = fbuf((long)dk * m, NULL);
    CHECK(attn_sdpa(S, A0, O, Kt, Q, K, V, NULL, 0, 0.5f, n, m, dk, dv) == ATTN_OK, "unmasked");
    CHECK(attn_sdpa(S, A1, O, Kt, Q, K, V, mask, 0, 0.5f, n, m, dk, dv) == ATTN_OK, "shifted");
    for (int k = 0; k < n * m; k++) CHECK(close_enough(A1[k], A0[k]), "A[%d]: %.9g shifted, %.9g unshifted", k, A1[k], A0[k]);
    free(Q), free(K), free(V), free(mask), free(S), free(A0), free(A1), free(O), free(Kt);
}

/* ---------------------------------------------------------------- large scores */

static void scores_in_the_thousands_give_finite_weights_matching_the_reference(void)
{
    /* Integer Q and K with dk = 4 and scale 0.5: every score is exact in float32 (|S| <= 7200),
     * so this checks the softmax alone. Without the row max subtracted, exp() overflows at 88. */
    rng_seed(14);
    for (int t = 0; t < 30; t++) {
        int n = rng_int(1, 10), m = rng_int(1, 10), dk = 4, dv = 3;
        float *Q = fbuf((long)n * dk, NULL), *K = fbuf((long)m * dk, NULL), *V = rand_matrix((long)m * dv, -5, 5);
        for (int k = 0; k < n * dk; k++) Q[k] = (float)rng_int(-60, 60);
        for (int k = 0; k < m * dk; k++) K[k] = (float)rng_int(-60, 60);
        run_sdpa_case(Q, K, V, NULL, t % 3 == 0, 0.5f, n, m, dk, dv, "large scores");
        free(Q), free(K), free(V);
    }
    /* Every score very negative: still one distribution, not 0/0. */
    const float q[2] = {100, 0}, k[6] = {-70, 0, -80, 0, -90, 0}, v[3] = {1, 2, 3};
    float *Q = fbuf(2, q), *K = fbuf(6, k), *V = fbuf(3, v);
    float *S = fbuf(3, NULL), *A = fbuf(3, NULL), *O = fbuf(1, NULL), *Kt = fbuf(6, NULL);
    CHECK(attn_sdpa(S, A, O, Kt, Q, K, V, NULL, 0, 1.0f, 1, 3, 2, 1) == ATTN_OK, "status");
    CHECK(A[0] == 1.0f && A[1] == 0.0f && A[2] == 0.0f, "A = [%g, %g, %g], want [1, 0, 0]", A[0], A[1], A[2]);
    CHECK(O[0] == 1.0f, "O = %g, want 1", O[0]);
    free(Q), free(K), free(V), free(S), free(A), free(O), free(Kt);
}

/* exp(s - max) follows float32 into its subnormals, as PyTorch's CPU softmax does: with scores
 * 0 and -g the second weight is float(exp(-g) / (1 + exp(-g))), about 5.52e-42 at g = 95, and 0
 * only where float32 has no number that small (g past about 103.97). Compared with the double
 * reference rounded to float, to within one step of float32 (for a subnormal, 2^-149). */
static void weights_between_87_and_104_below_the_max_are_float32_subnormals_not_0(void)
{
    const float gaps[] = {80.0f, 87.0f, 87.5f, 95.0f, 100.0f, 103.9f, 103.97f, 104.0f, 110.0f};
    for (int t = 0; t < (int)(sizeof gaps / sizeof gaps[0]); t++) {
        float g = gaps[t];
        const float q[1] = {1}, k[2] = {0, -g}, v[2] = {0, 1};
        float *Q = fbuf(1, q), *K = fbuf(2, k), *V = fbuf(2, v);
        float *S = fbuf(2, NULL), *A = fbuf(2, NULL), *O = fbuf(1, NULL), *Kt = fbuf(2, NULL);
        CHECK(attn_sdpa(S, A, O, Kt, Q, K, V, NULL, 0, 1.0f, 1, 2, 1, 1) == ATTN_OK, "status at gap %g", g);
        double e = exp(-(double)g);
        float want = (float)(e / (1.0 + e));
        float step = want < FLT_MIN ? 1.40129846e-45f : nextafterf(want, 0.0f) - want;
        CHECK(fabsf(A[1] - want) <= fabsf(step), "gap %g: A[1] = %.9g, want float32 %.9g (float64 %.9g)", g, A[1], want, e / (1.0 + e));
        CHECK(A[0] == 1.0f, "gap %g: A[0] = %.9g, want 1", g, A[0]);
        CHECK(O[0] == A[1], "gap %g: O = %.9g, want A[1] = %.9g", g, O[0], A[1]);
        if (g <= 103.9f) CHECK(A[1] > 0.0f, "gap %g: A[1] is 0, float32 has %.9g", g, want);
        if (g >= 104.0f) CHECK(A[1] == 0.0f, "gap %g: A[1] = %.9g, float32 rounds it to 0", g, A[1]);
        free(Q), free(K), free(V), free(S), free(A), free(O), free(Kt);
    }
}

/* ---------------------------------------------------------------- error codes */

/* Valid exactly sized inputs for n = 3, m = 4, d = 2, dk = 2, dv = 3. */
enum { N = 3, M = 4, D = 2, DK = 2, DV = 3 };
typedef struct {
    float *X, *Xkv, *Wq, *Wk, *Wv, *Q, *K, *V, *S, *A, *O, *Kt, *mask;
} bufs;

static bufs make_bufs(void)
{
    bufs b;
    rng_seed(99);
    b.X = rand_matrix(N * D, -1, 1), b.Xkv = rand_matrix(M * D, -1, 1);
    b.Wq = rand_matrix(D * DK, -1, 1), b.Wk = rand_matrix(D * DK, -1, 1), b.Wv = rand_matrix(D * DV, -1, 1);
    b.Q = rand_matrix(N * DK, -1, 1), b.K = rand_matrix(M * DK, -1, 1), b.V = rand_matrix(M * DV, -1, 1);
    b.S = fbuf(N * M, NULL), b.A = fbuf(N * M, NULL), b.O = fbuf(N * DV, NULL), b.Kt = fbuf(DK * M, NULL);
    b.mask = rand_matrix(N * M, -1, 1);
    return b;
}
static void free_bufs(bufs *b)
{
    free(b->X), free(b->Xkv), free(b->Wq), free(b->Wk), free(b->Wv), free(b->Q), free(b->K), free(b->V);
    free(b->S), free(b->A), free(b->O), free(b->Kt), free(b->mask);
}
static attn_status project(bufs *b, int n, int m, int d, int dk, int dv)
{
    return attn_project(b->Q, b->K, b->V, b->X, b->Xkv, b->Wq, b->Wk, b->Wv, n, m, d, dk, dv);
}
static attn_status sdpa(bufs *b, const float *mask, float scale, int n, int m, int dk, int dv)
{
    return attn_sdpa(b->S, b->A, b->O, b->Kt, b->Q, b->K, b->V, mask, 0, scale, n, m, dk, dv);
}

static void sizes_below_1_or_past_the_limits_return_attn_err_size(void)
{
    /* The buffers fit the valid sizes only: the core must refuse before reading anything. */
    bufs b = make_bufs();
    const int tokens_bad[] = {0, -1, ATTN_MAX_TOKENS + 1, INT_MAX, INT_MIN};
    /* (the projections hold nothing n×m: they take the fused form's ATTN_MAX_TOKENS_FUSED) */
    const int project_bad[] = {0, -1, ATTN_MAX_TOKENS_FUSED + 1, INT_MAX, INT_MIN};
    const int width_bad[] = {0, -1, ATTN_MAX_WIDTH + 1, INT_MAX, INT_MIN};
    for (int k = 0; k < 5; k++) {
        int t = tokens_bad[k], w = width_bad[k];
        CHECK(project(&b, project_bad[k], M, D, DK, DV) == ATTN_ERR_SIZE, "project n = %d", project_bad[k]);
        CHECK(project(&b, N, project_bad[k], D, DK, DV) == ATTN_ERR_SIZE, "project m = %d", project_bad[k]);
        CHECK(project(&b, N, M, w, DK, DV) == ATTN_ERR_SIZE, "project d = %d", w);
        CHECK(project(&b, N, M, D, w, DV) == ATTN_ERR_SIZE, "project dk = %d", w);
        CHECK(project(&b, N, M, D, DK, w) == ATTN_ERR_SIZE, "project dv = %d", w);
        CHECK(sdpa(&b, NULL, 1.0f, t, M, DK, DV) == ATTN_ERR_SIZE, "sdpa n = %d", t);
        CHECK(sdpa(&b, NULL, 1.0f, N, t, DK, DV) == ATTN_ERR_SIZE, "sdpa m = %d", t);
        CHECK(sdpa(&b, NULL, 1.0f, N, M, w, DV) == ATTN_ERR_SIZE, "sdpa dk = %d", w);
        CHECK(sdpa(&b, NULL, 1.0f, N, M, DK, w) == ATTN_ERR_SIZE, "sdpa dv = %d", w);
    }
    CHECK(project(&b, N, M, D, DK, DV) == ATTN_OK, "valid project after the refusals");
    CHECK(sdpa(&b, NULL, 1.0f, N, M, DK, DV) == ATTN_OK, "valid sdpa after the refusals");
    free_bufs(&b);
}

static void a_null_buffer_returns_attn_err_null_and_a_null_mask_means_no_mask(void)
{
    bufs b = make_bufs();
    float *const keep[] = {b.Q, b.K, b.V, b.X, b.Xkv, b.Wq, b.Wk, b.Wv};
    float **slot[] = {&b.Q, &b.K, &b.V, &b.X, &b.Xkv, &b.Wq, &b.Wk, &b.Wv};
    for (int k = 0; k < 8; k++) {
        *slot[k] = NULL;
        CHECK(project(&b, N, M, D, DK, DV) == ATTN_ERR_NULL, "attn_project with argument %d NULL", k);
        *slot[k] = keep[k];
    }
    float *const keep2[] = {b.S, b.A, b.O, b.Kt, b.Q, b.K, b.V};
    float **slot2[] = {&b.S, &b.A, &b.O, &b.Kt, &b.Q, &b.K, &b.V};
    for (int k = 0; k < 7; k++) {
        *slot2[k] = NULL;
        CHECK(sdpa(&b, NULL, 1.0f, N, M, DK, DV) == ATTN_ERR_NULL, "attn_sdpa with argument %d NULL", k);
        *slot2[k] = keep2[k];
    }
    CHECK(sdpa(&b, NULL, 1.0f, N, M, DK, DV) == ATTN_OK, "a NULL mask is no mask");
    free_bufs(&b);
}

static void nan_or_infinity_in_any_input_returns_attn_err_nonfinite(void)
{
    bufs b = make_bufs();
    const float bad[3] = {NAN, INFINITY, -INFINITY};
    struct { float **p; long count; const char *name; int for_sdpa; } inputs[] = {
        {&b.X, N * D, "X", 0},    {&b.Xkv, M * D, "Xkv", 0}, {&b.Wq, D * DK, "Wq", 0}, {&b.Wk, D * DK, "Wk", 0},
        {&b.Wv, D * DV, "Wv", 0}, {&b.Q, N * DK, "Q", 1},    {&b.K, M * DK, "K", 1},   {&b.V, M * DV, "V", 1},
    };
    for (int k = 0; k < 8; k++) {
        for (int v = 0; v < 3; v++) {
            for (int at = 0; at < 2; at++) { /* first and last element: the whole input is scanned */
                long pos = at ? inputs[k].count - 1 : 0;
                float *p = *inputs[k].p, old = p[pos];
                p[pos] = bad[v];
                attn_status st = inputs[k].for_sdpa ? sdpa(&b, NULL, 1.0f, N, M, DK, DV) : project(&b, N, M, D, DK, DV);
                CHECK(st == ATTN_ERR_NONFINITE, "%g at %s[%ld]: status %d", bad[v], inputs[k].name, pos, st);
                p[pos] = old;
            }
        }
    }
    CHECK(project(&b, N, M, D, DK, DV) == ATTN_OK && sdpa(&b, NULL, 1.0f, N, M, DK, DV) == ATTN_OK, "valid calls after the refusals");
    free_bufs(&b);
}

static void a_mask_with_nan_or_plus_infinity_returns_attn_err_mask(void)
{
    bufs b = make_bufs();
    const float bad[2] = {NAN, INFINITY};
    for (int v = 0; v < 2; v++)
        for (int at = 0; at < 2; at++) {
            long pos = at ? N * M - 1 : 0;
            float old = b.mask[pos];
            b.mask[pos] = bad[v];
            CHECK(sdpa(&b, b.mask, 1.0f, N, M, DK, DV) == ATTN_ERR_MASK, "%g at mask[%ld]", bad[v], pos);
            b.mask[pos] = old;
        }
    b.mask[2] = -INFINITY;
    b.mask[3] = -FLT_MAX;
    b.mask[4] = FLT_MAX;
    CHECK(sdpa(&b, b.mask, 1.0f, N, M, DK, DV) == ATTN_OK, "-Infinity and +-FLT_MAX are valid mask entries");
    check_invariants(b.A, b.O, b.mask, 0, N, M, DV, "mask with -inf and +-FLT_MAX");
    free_bufs(&b);
}

/* attn_mask_build writes M = mask (0 without one) where query i may look at key j and -Infinity
 * where causal hides key j > i, into exactly n × m floats: the buffer is exactly sized, so a row
 * too many is a heap overflow that AddressSanitizer stops on. The M it builds, passed alone,
 * gives the same weights as the mask and the causal flag passed to attn_sdpa separately. */
static void mask_build_writes_the_mask_and_causal_minus_infinity_into_exactly_n_by_m(void)
{
    const int shapes[][2] = {{1, 1}, {3, 5}, {4, 4}, {6, 2}};
    rng_seed(15);
    for (int s = 0; s < 4; s++) {
        int n = shapes[s][0], m = shapes[s][1], dk = 3, dv = 2;
        float *mask = rand_matrix((long)n * m, -2, 2);
        mask[(long)n * m - 1] = -INFINITY;
        float *Q = rand_matrix((long)n * dk, -1, 1), *K = rand_matrix((long)m * dk, -1, 1), *V = rand_matrix((long)m * dv, -1, 1);
        for (int with_mask = 0; with_mask < 2; with_mask++)
            for (int causal = 0; causal < 2; causal++) {
                const float *given = with_mask ? mask : NULL;
                float *Mb = fbuf((long)n * m, NULL);
                attn_status st = attn_mask_build(Mb, given, causal, n, m);
                CHECK(st == ATTN_OK, "n %d m %d mask %d causal %d: status %d", n, m, with_mask, causal, st);
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < m; j++) {
                        float want = causal && j > i ? -INFINITY : given ? given[(long)i * m + j] : 0.0f;
                        float got = Mb[(long)i * m + j];
                        CHECK(got == want, "n %d m %d mask %d causal %d: M[%d][%d] = %g, want %g", n, m, with_mask, causal, i, j, got, want);
                    }
                float *S = fbuf((long)n * m, NULL), *A0 = fbuf((long)n * m, NULL), *A1 = fbuf((long)n * m, NULL);
                float *O = fbuf((long)n * dv, NULL), *Kt = fbuf((long)dk * m, NULL);
                CHECK(attn_sdpa(S, A0, O, Kt, Q, K, V, given, causal, 0.7f, n, m, dk, dv) == ATTN_OK, "sdpa, separately");
                CHECK(attn_sdpa(S, A1, O, Kt, Q, K, V, Mb, 0, 0.7f, n, m, dk, dv) == ATTN_OK, "sdpa with the built M");
                for (long k = 0; k < (long)n * m; k++)
                    CHECK(close_enough(A1[k], A0[k]), "n %d m %d mask %d causal %d: A[%ld] %g with M, %g separately", n, m, with_mask, causal, k, A1[k], A0[k]);
                free(Mb), free(S), free(A0), free(A1), free(O), free(Kt);
            }
        free(mask), free(Q), free(K), free(V);
    }
    float one = 0;
    CHECK(attn_mask_build(&one, NULL, 1, 0, 1) == ATTN_ERR_SIZE && attn_mask_build(&one, NULL, 1, 1, ATTN_MAX_TOKENS + 1) == ATTN_ERR_SIZE, "bad sizes");
    CHECK(attn_mask_build(NULL, NULL, 1, 1, 1) == ATTN_ERR_NULL, "M NULL");
}

/* A NaN or +Infinity in the mask is refused by attn_mask_build too, also where the causal mask
 * would hide that entry anyway (above the diagonal): the input is wrong either way. */
static void mask_build_refuses_nan_or_plus_infinity_even_above_the_causal_diagonal(void)
{
    enum { n = 3, m = 4 };
    const float bad[2] = {NAN, INFINITY};
    const int at[3] = {0, 1 * m + 1, 0 * m + 3}; /* [0][0], [1][1] on the diagonal, [0][3] above it */
    for (int v = 0; v < 2; v++)
        for (int p = 0; p < 3; p++)
            for (int causal = 0; causal < 2; causal++) {
                float *mask = fbuf(n * m, NULL), *Mb = fbuf(n * m, NULL);
                for (int k = 0; k < n * m; k++) mask[k] = 0.0f;
                mask[at[p]] = bad[v];
                attn_status st = attn_mask_build(Mb, mask, causal, n, m);
                CHECK(st == ATTN_ERR_MASK, "%g at mask[%d], causal %d: status %d, want ATTN_ERR_MASK", bad[v], at[p], causal, st);
                free(mask), free(Mb);
            }
    float *mask = fbuf(n * m, NULL), *Mb = fbuf(n * m, NULL);
    for (int k = 0; k < n * m; k++) mask[k] = k % 3 == 0 ? -INFINITY : k % 3 == 1 ? -FLT_MAX : FLT_MAX;
    CHECK(attn_mask_build(Mb, mask, 1, n, m) == ATTN_OK, "-Infinity and +-FLT_MAX are valid mask entries");
    free(mask), free(Mb);
}

static void a_zero_negative_or_nonfinite_scale_returns_attn_err_scale(void)
{
    bufs b = make_bufs();
    const float bad[] = {0.0f, -0.0f, -1.0f, -FLT_MIN, NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 7; k++) CHECK(sdpa(&b, NULL, bad[k], N, M, DK, DV) == ATTN_ERR_SCALE, "scale %g", bad[k]);
    CHECK(sdpa(&b, NULL, FLT_MIN, N, M, DK, DV) == ATTN_OK, "scale FLT_MIN is valid");
    CHECK(sdpa(&b, NULL, 1e6f, N, M, DK, DV) == ATTN_OK, "scale 1e6 is valid");
    check_invariants(b.A, b.O, NULL, 0, N, M, DV, "scale 1e6");
    free_bufs(&b);
}

/* Last, because a core that computes NaN here may also hit undefined behaviour that the
 * sanitizer stops on. Finite inputs whose scores overflow float32 have no finite answer:
 * the core must say so with an error code rather than hand back NaN weights. */
static void scores_or_projections_past_flt_max_give_an_error_code_never_nan(void)
{
    const float big = 1e20f;
    float *Q = fbuf(1, &big), *K = fbuf(2, NULL), *V = fbuf(2, NULL);
    K[0] = big, K[1] = 1.0f, V[0] = 1.0f, V[1] = 2.0f;
    float *S = fbuf(2, NULL), *A = fbuf(2, NULL), *O = fbuf(1, NULL), *Kt = fbuf(2, NULL);
    attn_status st = attn_sdpa(S, A, O, Kt, Q, K, V, NULL, 0, 1.0f, 1, 2, 1, 1);
    if (st == ATTN_OK) {
        CHECK(A[0] >= 0.0f && A[0] <= 1.0f && A[1] >= 0.0f && A[1] <= 1.0f && isfinite(O[0]),
              "Q·Kᵀ = 1e40 (past FLT_MAX) returned ATTN_OK with A = [%g, %g], O = %g", A[0], A[1], O[0]);
    }

    /* The same through a huge scale, and through a finite mask that pushes a score past FLT_MAX. */
    Q[0] = 1e10f, K[0] = 1e10f;
    st = attn_sdpa(S, A, O, Kt, Q, K, V, NULL, 0, 1e30f, 1, 2, 1, 1);
    if (st == ATTN_OK) CHECK(A[0] >= 0.0f && A[0] <= 1.0f && isfinite(O[0]), "scale 1e30: ATTN_OK with A[0] = %g, O = %g", A[0], O[0]);
    float *mask = fbuf(2, NULL);
    mask[0] = FLT_MAX, mask[1] = 0.0f;
    Q[0] = 1e19f, K[0] = 1e19f;
    st = attn_sdpa(S, A, O, Kt, Q, K, V, mask, 0, 1.0f, 1, 2, 1, 1);
    if (st == ATTN_OK) CHECK(A[0] >= 0.0f && A[0] <= 1.0f && isfinite(O[0]), "S + mask past FLT_MAX: ATTN_OK with A[0] = %g, O = %g", A[0], O[0]);

    /* Projections: X·Wq = 1e60 has no float32 value either. */
    const float x = 1e30f, one = 1.0f;
    float *X = fbuf(1, &x), *Wq = fbuf(1, &x), *Wk = fbuf(1, &one), *Wv = fbuf(1, &one);
    float *Qp = fbuf(1, NULL), *Kp = fbuf(1, NULL), *Vp = fbuf(1, NULL);
    st = attn_project(Qp, Kp, Vp, X, X, Wq, Wk, Wv, 1, 1, 1, 1, 1);
    if (st == ATTN_OK) {
        /* ATTN_OK with an infinite Q is tolerable only if attn_sdpa then refuses it */
        CHECK(isfinite(Qp[0]) || attn_sdpa(S, A, O, Kt, Qp, Kp, Vp, NULL, 0, 1.0f, 1, 1, 1, 1) != ATTN_OK,
              "X·Wq = 1e60 gave Q = %g and attn_sdpa accepted it", Qp[0]);
    }
    free(Q), free(K), free(V), free(S), free(A), free(O), free(Kt), free(mask);
    free(X), free(Wq), free(Wk), free(Wv), free(Qp), free(Kp), free(Vp);
}

int main(void)
{
    RUN(sdpa_gives_the_lessons_worked_example_to_3_decimals);
    RUN(project_from_identity_gives_the_lessons_q_k_v_exactly);
    RUN(default_scale_is_one_over_sqrt_dk);
    RUN(project_and_sdpa_match_the_double_reference_on_300_seeded_shapes);
    RUN(sdpa_at_the_size_limits_matches_the_double_reference);
    RUN(causal_hides_later_keys_top_left_aligned_when_n_differs_from_m);
    RUN(fully_masked_rows_give_zero_weights_and_zero_output);
    RUN(a_constant_float_mask_on_a_row_leaves_its_weights_unchanged);
    RUN(scores_in_the_thousands_give_finite_weights_matching_the_reference);
    RUN(weights_between_87_and_104_below_the_max_are_float32_subnormals_not_0);
    RUN(sizes_below_1_or_past_the_limits_return_attn_err_size);
    RUN(a_null_buffer_returns_attn_err_null_and_a_null_mask_means_no_mask);
    RUN(nan_or_infinity_in_any_input_returns_attn_err_nonfinite);
    RUN(a_mask_with_nan_or_plus_infinity_returns_attn_err_mask);
    RUN(mask_build_writes_the_mask_and_causal_minus_infinity_into_exactly_n_by_m);
    RUN(mask_build_refuses_nan_or_plus_infinity_even_above_the_causal_diagonal);
    RUN(a_zero_negative_or_nonfinite_scale_returns_attn_err_scale);
    RUN(scores_or_projections_past_flt_max_give_an_error_code_never_nan);
    printf("max |core - double reference| = %.3g\n", worst_diff);
    return print_summary();
}
