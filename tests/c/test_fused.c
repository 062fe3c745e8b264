/*
 * test_fused.c: native tests of attn_sdpa_fused (c/attention.h), the fused form, under
 * AddressSanitizer and UndefinedBehaviorSanitizer (the Makefile's test-c target).
 *
 * The fused form promises the long form's O bit for bit, and its statuses, without storing S
 * or A. So every test runs both on the same inputs and compares: O with memcmp, statuses with
 * ==. The long form itself is checked against a double reference in test_attention.c. Buffers
 * are exactly sized (fbuf, NaN-filled), the work buffer exactly ATTN_FUSED_WORK(m, dk, dv), so
 * a read or write past it is caught.
 */
#include "attention.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef struct {
    attn_status long_status, fused_status;
    int same_o; /* 1 when both gave ATTN_OK and the same O, bit for bit */
} both;

/* attn_sdpa and attn_sdpa_fused on the same inputs. */
static both run_both(const float *Q, const float *K, const float *V, const float *mask, int causal, float scale, int n,
                     int m, int dk, int dv)
{
    float *S = fbuf((long)n * m, NULL), *A = fbuf((long)n * m, NULL), *O = fbuf((long)n * dv, NULL);
    float *Kt = fbuf((long)dk * m, NULL), *O2 = fbuf((long)n * dv, NULL), *work = fbuf(ATTN_FUSED_WORK(m, dk, dv), NULL);
    both r;
    r.long_status = attn_sdpa(S, A, O, Kt, Q, K, V, mask, causal, scale, n, m, dk, dv);
    r.fused_status = attn_sdpa_fused(O2, work, Q, K, V, mask, causal, scale, n, m, dk, dv);
    r.same_o = r.long_status == ATTN_OK && r.fused_status == ATTN_OK && memcmp(O, O2, sizeof(float) * (size_t)n * dv) == 0;
    free(S), free(A), free(O), free(Kt), free(O2), free(work);
    return r;
}

/* mask: 0 = none, 1 = booleans as 0 / -inf, 2 = floats with some -inf, 3 = every key of row 0 removed */
static float *random_mask(int kind, int n, int m)
{
    if (!kind) return NULL;
    float *mask = fbuf((long)n * m, NULL);
    for (long e = 0; e < (long)n * m; e++) {
        double u = rng_next();
        if (kind == 1) mask[e] = u < 0.3 ? -INFINITY : 0.0f;
        else mask[e] = u < 0.3 ? -INFINITY : (float)(rng_next() * 4.0 - 2.0);
    }
    if (kind == 3)
        for (int j = 0; j < m; j++) mask[j] = -INFINITY;
    return mask;
}

static void fused_gives_the_long_forms_o_bit_for_bit_on_300_seeded_shapes(void)
{
    rng_seed(2024);
    for (int trial = 0; trial < 300; trial++) {
        int n = 1 + (int)(rng_next() * 70), m = 1 + (int)(rng_next() * 70);
        int dk = 1 + (int)(rng_next() * 40), dv = 1 + (int)(rng_next() * 40);
        if (trial < 8) { /* the edges: single rows and keys, widths around the 8-wide panels */
            int edge[8][4] = {{1, 1, 1, 1}, {1, 9, 8, 8}, {9, 1, 7, 9}, {4, 8, 8, 16}, {5, 5, 4, 4}, {3, 17, 1, 17}, {33, 31, 9, 15}, {8, 8, 8, 8}};
            n = edge[trial][0], m = edge[trial][1], dk = edge[trial][2], dv = edge[trial][3];
        }
        int causal = rng_next() < 0.5, mask_kind = (int)(rng_next() * 4);
        float scale = rng_next() < 0.2 ? 1.0f : attn_default_scale(dk);
        float *Q = rand_matrix((long)n * dk, -1.5, 1.5), *K = rand_matrix((long)m * dk, -1.5, 1.5), *V = rand_matrix((long)m * dv, -1.0, 1.0);
        float *mask = random_mask(mask_kind, n, m);
        both r = run_both(Q, K, V, mask, causal, scale, n, m, dk, dv);
        CHECK(r.long_status == ATTN_OK && r.fused_status == ATTN_OK, "trial %d: statuses %d and %d", trial, r.long_status, r.fused_status);
        CHECK(r.same_o, "trial %d (n %d, m %d, dk %d, dv %d, causal %d, mask %d): O differs", trial, n, m, dk, dv, causal, mask_kind);
        free(Q), free(K), free(V), free(mask);
    }
}

static void fused_at_the_size_limits_gives_the_long_forms_o(void)
{
    rng_seed(7);
    const int sizes[3][4] = {{ATTN_MAX_TOKENS, ATTN_MAX_TOKENS, 64, 64}, {ATTN_MAX_TOKENS, 37, ATTN_MAX_WIDTH, ATTN_MAX_WIDTH}, {13, ATTN_MAX_TOKENS, 3, 5}};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s][0], m = sizes[s][1], dk = sizes[s][2], dv = sizes[s][3];
        float *Q = rand_matrix((long)n * dk, -1.0, 1.0), *K = rand_matrix((long)m * dk, -1.0, 1.0), *V = rand_matrix((long)m * dv, -1.0, 1.0);
        for (int causal = 0; causal < 2; causal++) {
            both r = run_both(Q, K, V, NULL, causal, attn_default_scale(dk), n, m, dk, dv);
            CHECK(r.same_o, "n %d, m %d, dk %d, dv %d, causal %d: statuses %d and %d, or O differs", n, m, dk, dv, causal, r.long_status, r.fused_status);
        }
        free(Q), free(K), free(V);
    }
}

static void fully_masked_rows_give_zero_output_in_the_fused_form(void)
{
    rng_seed(11);
    int n = 6, m = 5, dk = 3, dv = 2;
    float *Q = rand_matrix((long)n * dk, -1.0, 1.0), *K = rand_matrix((long)m * dk, -1.0, 1.0), *V = rand_matrix((long)m * dv, -1.0, 1.0);
    float *mask = fbuf((long)n * m, NULL), *O = fbuf((long)n * dv, NULL), *work = fbuf(ATTN_FUSED_WORK(m, dk, dv), NULL);
    for (long e = 0; e < (long)n * m; e++) mask[e] = 0.0f;
    for (int j = 0; j < m; j++) mask[2 * m + j] = -INFINITY; /* row 2: every key removed by the mask */
    mask[0] = -INFINITY;                                       /* row 0 causal sees key 0 only: removed */
    CHECK(attn_sdpa_fused(O, work, Q, K, V, mask, 1, 0.5f, n, m, dk, dv) == ATTN_OK, "status");
    for (int c = 0; c < dv; c++) CHECK(O[0 * dv + c] == 0.0f && O[2 * dv + c] == 0.0f, "O[0][%d] = %g, O[2][%d] = %g", c, O[c], c, O[2 * dv + c]);
    for (int c = 0; c < dv; c++) CHECK(isfinite(O[1 * dv + c]) && O[1 * dv + c] != 0.0f, "O[1][%d] = %g", c, O[dv + c]);
    both r = run_both(Q, K, V, mask, 1, 0.5f, n, m, dk, dv);
    CHECK(r.same_o, "O differs from the long form's");
    free(Q), free(K), free(V), free(mask), free(O), free(work);
}

static void scores_in_the_thousands_give_the_long_forms_o(void)
{
    rng_seed(12);
    int n = 9, m = 9, dk = 4, dv = 3;
    float *Q = rand_matrix((long)n * dk, -60.0, 60.0), *K = rand_matrix((long)m * dk, -60.0, 60.0), *V = rand_matrix((long)m * dv, -1.0, 1.0);
    both r = run_both(Q, K, V, NULL, 1, 1.0f, n, m, dk, dv); /* scores up to about 14000 */
    CHECK(r.same_o, "statuses %d and %d, or O differs", r.long_status, r.fused_status);
    free(Q), free(K), free(V);
}

/* A score that passes FLT_MAX is ATTN_ERR_OVERFLOW in the long form even where the causal mask
 * removes it (S is stored whole). The fused form must say the same, although it skips those
 * scores when it can prove none of them overflows. */
static void an_overflowing_score_the_causal_mask_removes_is_still_attn_err_overflow(void)
{
    int n = 12, m = 12, dk = 2, dv = 2;
    float *Q = fbuf((long)n * dk, NULL), *K = fbuf((long)m * dk, NULL), *V = fbuf((long)m * dv, NULL);
    for (long e = 0; e < (long)n * dk; e++) Q[e] = 1.0f;
    for (long e = 0; e < (long)m * dk; e++) K[e] = 1.0f;
    for (long e = 0; e < (long)m * dv; e++) V[e] = 0.5f;
    Q[0] = 1e20f;         /* query 0 ... */
    K[11 * dk] = 1e20f;   /* ... against key 11: 1e40, masked for query 0 (and every other) */
    both r = run_both(Q, K, V, NULL, 1, 1.0f, n, m, dk, dv);
    CHECK(r.long_status == ATTN_ERR_OVERFLOW, "long form: status %d", r.long_status);
    CHECK(r.fused_status == ATTN_ERR_OVERFLOW, "fused form: status %d", r.fused_status);
    /* large, but bounded below FLT_MAX/2 (dk·max|q|·max|k| = 2e37): the masked scores are skipped */
    Q[0] = 1e18f;
    K[11 * dk] = 1e19f;
    r = run_both(Q, K, V, NULL, 1, 1.0f, n, m, dk, dv);
    CHECK(r.long_status == ATTN_OK && r.same_o, "bounded: statuses %d and %d, or O differs", r.long_status, r.fused_status);
    /* a visible score plus a finite mask past FLT_MAX */
    float *mask = fbuf((long)n * m, NULL);
    for (long e = 0; e < (long)n * m; e++) mask[e] = 0.0f;
    Q[0] = 1e19f, K[0] = 1e19f, mask[0] = 3e38f;
    r = run_both(Q, K, V, mask, 1, 1.0f, n, m, dk, dv);
    CHECK(r.long_status == ATTN_ERR_OVERFLOW && r.fused_status == ATTN_ERR_OVERFLOW, "S + mask: statuses %d and %d", r.long_status, r.fused_status);
    free(Q), free(K), free(V), free(mask);
}

static void bad_input_gives_the_long_forms_status(void)
{
    rng_seed(13);
    int n = 4, m = 5, dk = 3, dv = 2;
    float *Q = rand_matrix((long)n * dk, -1.0, 1.0), *K = rand_matrix((long)m * dk, -1.0, 1.0), *V = rand_matrix((long)m * dv, -1.0, 1.0);
    float *mask = fbuf((long)n * m, NULL), *O = fbuf((long)n * dv, NULL), *work = fbuf(ATTN_FUSED_WORK(m, dk, dv), NULL);
    for (long e = 0; e < (long)n * m; e++) mask[e] = 0.0f;
    CHECK(attn_sdpa_fused(O, work, Q, K, V, NULL, 0, 1.0f, 0, m, dk, dv) == ATTN_ERR_SIZE, "n = 0");
    CHECK(attn_sdpa_fused(O, work, Q, K, V, NULL, 0, 1.0f, n, ATTN_MAX_TOKENS + 1, dk, dv) == ATTN_ERR_SIZE, "m past the limit");
    CHECK(attn_sdpa_fused(O, NULL, Q, K, V, NULL, 0, 1.0f, n, m, dk, dv) == ATTN_ERR_NULL, "no work buffer");
    CHECK(attn_sdpa_fused(NULL, work, Q, K, V, NULL, 0, 1.0f, n, m, dk, dv) == ATTN_ERR_NULL, "no O");
    CHECK(attn_sdpa_fused(O, work, Q, K, V, NULL, 0, 0.0f, n, m, dk, dv) == ATTN_ERR_SCALE, "scale 0");
    CHECK(attn_sdpa_fused(O, work, Q, K, V, NULL, 0, NAN, n, m, dk, dv) == ATTN_ERR_SCALE, "scale NaN");
    mask[3] = NAN;
    both r = run_both(Q, K, V, mask, 0, 1.0f, n, m, dk, dv);
    CHECK(r.long_status == ATTN_ERR_MASK && r.fused_status == ATTN_ERR_MASK, "NaN mask: %d and %d", r.long_status, r.fused_status);
    mask[3] = 0.0f;
    V[1] = INFINITY;
    r = run_both(Q, K, V, mask, 0, 1.0f, n, m, dk, dv);
    CHECK(r.long_status == ATTN_ERR_NONFINITE && r.fused_status == ATTN_ERR_NONFINITE, "Infinity in V: %d and %d", r.long_status, r.fused_status);
    free(Q), free(K), free(V), free(mask), free(O), free(work);
}

/* The last panel of keys is padded to 8 with zero keys; their scores are never shown, and must
 * not be able to overflow either. Queries near FLT_MAX against keys that are all 0 give scores
 * of exactly 0 (a uniform A, O the mean of V) in both forms, for every m that ends in a partly
 * filled panel, 5 to 7 keys in its second half included. */
static void padding_keys_never_overflow_a_score(void)
{
    enum { dk = 2, dv = 3 };
    for (int m = 1; m <= 15; m++) {
        float Q[dk] = {3e38f, 3e38f}, K[15 * dk] = {0}, V[15 * dv], O1[dv], O2[dv], S[15], A[15], Kt[dk * 16];
        float *work = malloc(sizeof(float) * (size_t)ATTN_FUSED_WORK(m, dk, dv));
        double mean[dv] = {0};
        for (int e = 0; e < m * dv; e++) V[e] = (float)(e % 7) - 3.0f, mean[e % dv] += V[e] / (double)m;
        CHECK(attn_sdpa(S, A, O1, Kt, Q, K, V, NULL, 0, attn_default_scale(dk), 1, m, dk, dv) == ATTN_OK, "m = %d: long form", m);
        CHECK(attn_sdpa_fused(O2, work, Q, K, V, NULL, 0, attn_default_scale(dk), 1, m, dk, dv) == ATTN_OK, "m = %d: fused form", m);
        for (int c = 0; c < dv; c++)
            CHECK(fabs(O1[c] - mean[c]) < 1e-6 && O2[c] == O1[c], "m = %d: O[%d] = %g and %g, the mean of V is %g", m, c, O1[c], O2[c], mean[c]);
        free(work);
    }
}

int main(void)
{
    RUN(fused_gives_the_long_forms_o_bit_for_bit_on_300_seeded_shapes);
    RUN(fused_at_the_size_limits_gives_the_long_forms_o);
    RUN(fully_masked_rows_give_zero_output_in_the_fused_form);
    RUN(scores_in_the_thousands_give_the_long_forms_o);
    RUN(an_overflowing_score_the_causal_mask_removes_is_still_attn_err_overflow);
    RUN(bad_input_gives_the_long_forms_status);
    RUN(padding_keys_never_overflow_a_score);
    return print_summary();
}
