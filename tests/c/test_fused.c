/*
 * test_fused.c: native tests of attn_sdpa_fused (c/attention.h), the fused form, under
 * AddressSanitizer and UndefinedBehaviorSanitizer (the Makefile's test-c target).
 *
 * The fused form promises the long form's O to float32 rounding, and its statuses, without
 * storing S or A: it works tile by tile with an online softmax (FlashAttention's), so its sums
 * run in another order. Every test runs both on the same inputs and compares: statuses with ==,
 * O within the bound of tests/c/fused_tolerance.h; a float64 reference checks the long sequences only the fused form
 * takes. The long form itself is checked against a double reference in test_attention.c. Buffers
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
#include "fused_tolerance.h"

typedef struct {
    attn_status long_status, fused_status;
    int same_o;  /* 1 when both gave ATTN_OK and O within fused_tolerance.h's bound */
    double diff; /* the largest |O_long − O_fused| */
} both;

/* attn_sdpa, and attn_sdpa_fused_tiles with tiles of tile_keys keys, on the same inputs. */
static both run_both_tiles(const float *Q, const float *K, const float *V, const float *mask, int causal, float scale,
                           int n, int m, int dk, int dv, int tile_keys)
{
    float *S = fbuf((long)n * m, NULL), *A = fbuf((long)n * m, NULL), *O = fbuf((long)n * dv, NULL);
    float *Kt = fbuf((long)dk * m, NULL), *O2 = fbuf((long)n * dv, NULL), *work = fbuf(ATTN_FUSED_WORK(m, dk, dv), NULL);
    both r;
    r.long_status = attn_sdpa(S, A, O, Kt, Q, K, V, mask, causal, scale, n, m, dk, dv);
    r.fused_status = attn_sdpa_fused_tiles(O2, work, Q, K, V, mask, causal, scale, n, m, dk, dv, tile_keys);
    r.diff = 0.0;
    if (r.long_status == ATTN_OK && r.fused_status == ATTN_OK)
        for (long e = 0; e < (long)n * dv; e++) r.diff = fabs((double)O[e] - O2[e]) > r.diff ? fabs((double)O[e] - O2[e]) : r.diff;
    r.same_o = r.long_status == ATTN_OK && r.fused_status == ATTN_OK && r.diff <= fused_tolerance(V, S, mask, causal, n, m, dv);
    free(S), free(A), free(O), free(Kt), free(O2), free(work);
    return r;
}

/* run_both_tiles with the fused form's own tiles (attn_sdpa_fused). */
static both run_both(const float *Q, const float *K, const float *V, const float *mask, int causal, float scale, int n,
                     int m, int dk, int dv)
{
    return run_both_tiles(Q, K, V, mask, causal, scale, n, m, dk, dv, ATTN_TILE_KEYS);
}

/* Tiles small enough that the long form's ATTN_MAX_TOKENS keys span several of them, and the
 * fused form's own (one tile, up to the long form's limit). */
static const int tile_sizes[] = {8, 16, 64, 128, ATTN_TILE_KEYS};
enum { TILE_SIZES = sizeof tile_sizes / sizeof *tile_sizes };

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

static void fused_gives_the_long_forms_o_on_300_seeded_shapes_of_one_and_more_key_tiles(void)
{
    rng_seed(2024);
    int most_tiles = 0;
    for (int trial = 0; trial < 300; trial++) {
        int tile_keys = tile_sizes[trial % TILE_SIZES];
        int n = 1 + (int)(rng_next() * 70), m = 1 + (int)(rng_next() * ATTN_MAX_TOKENS); /* (the long form's limit) */
        int dk = 1 + (int)(rng_next() * 40), dv = 1 + (int)(rng_next() * 40);
        if (trial < 8) { /* the edges: single rows and keys, widths around the 8-wide panels */
            int edge[8][4] = {{1, 1, 1, 1}, {1, 9, 8, 8}, {9, 1, 7, 9}, {4, 8, 8, 16}, {5, 5, 4, 4}, {3, 17, 1, 17}, {33, 31, 9, 15}, {8, 8, 8, 8}};
            n = edge[trial][0], m = edge[trial][1], dk = edge[trial][2], dv = edge[trial][3];
        }
        int causal = rng_next() < 0.5, mask_kind = (int)(rng_next() * 4);
        float scale = rng_next() < 0.2 ? 1.0f : attn_default_scale(dk);
        float *Q = rand_matrix((long)n * dk, -1.5, 1.5), *K = rand_matrix((long)m * dk, -1.5, 1.5), *V = rand_matrix((long)m * dv, -1.0, 1.0);
        float *mask = random_mask(mask_kind, n, m);
        both r = run_both_tiles(Q, K, V, mask, causal, scale, n, m, dk, dv, tile_keys);
        CHECK(r.long_status == ATTN_OK && r.fused_status == ATTN_OK, "trial %d: statuses %d and %d", trial, r.long_status, r.fused_status);
        CHECK(r.same_o, "trial %d (n %d, m %d, dk %d, dv %d, causal %d, mask %d, tiles of %d): O differs by %g", trial, n, m, dk,
              dv, causal, mask_kind, tile_keys, r.diff);
        int tiles = (m + tile_keys - 1) / tile_keys;
        most_tiles = tiles > most_tiles ? tiles : most_tiles;
        free(Q), free(K), free(V), free(mask);
    }
    CHECK(most_tiles >= 32, "the longest row spanned only %d tiles", most_tiles);
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

/* Key counts at a tile's edges (one key, a tile less one, a tile, a tile and one ...), each
 * with queries that see fewer and more keys than a tile (causal, n != m), for every tile size. */
static void fused_at_the_edges_of_a_key_tile_gives_the_long_forms_o(void)
{
    rng_seed(64);
    for (int s = 0; s < TILE_SIZES; s++) {
        const int T = tile_sizes[s], ms[] = {1, T - 1, T, T + 1, 2 * T - 1, 2 * T, 2 * T + 1, 3 * T + 7};
        for (unsigned k = 0; k < sizeof ms / sizeof *ms; k++) {
            int m = ms[k], n = m + 5 <= ATTN_MAX_TOKENS ? m + 5 : m - 5, dk = 7, dv = 9;
            if (m > ATTN_MAX_TOKENS) continue; /* past the long form: long_sequences_match_a_float64_reference */
            float *Q = rand_matrix((long)n * dk, -2.0, 2.0), *K = rand_matrix((long)m * dk, -2.0, 2.0), *V = rand_matrix((long)m * dv, -1.0, 1.0);
            for (int causal = 0; causal < 2; causal++) {
                both r = run_both_tiles(Q, K, V, NULL, causal, attn_default_scale(dk), n, m, dk, dv, T);
                CHECK(r.same_o, "tiles of %d, m %d, causal %d: statuses %d and %d, or O differs by %g", T, m, causal,
                      r.long_status, r.fused_status, r.diff);
            }
            free(Q), free(K), free(V);
        }
    }
}

/* A maximum that arrives late: each row's largest score is in its last tile, so every earlier
 * tile's sums are rescaled by alpha = exp(m_old − m_new), here as small as exp(−40). */
static void a_maximum_in_the_last_tile_rescales_the_earlier_ones(void)
{
    int n = 4, tile_keys = 128, m = 3 * tile_keys, dk = 1, dv = 2; /* 3 tiles */
    float *Q = fbuf((long)n * dk, NULL), *K = fbuf((long)m * dk, NULL), *V = fbuf((long)m * dv, NULL);
    for (int i = 0; i < n; i++) Q[i] = 1.0f;
    for (int j = 0; j < m; j++) K[j] = j < m - 1 ? (float)j / (float)m : 40.0f, V[j * dv] = 1.0f, V[j * dv + 1] = (float)j;
    both r = run_both_tiles(Q, K, V, NULL, 0, 1.0f, n, m, dk, dv, tile_keys);
    CHECK(r.same_o, "statuses %d and %d, or O differs by %g", r.long_status, r.fused_status, r.diff);
    free(Q), free(K), free(V);
}

/* Sequences past the long form's ATTN_MAX_TOKENS, which only the fused form takes, against a
 * float64 reference on every 37th row (the bound: fused_tol plus the reference's own rounding). */
static void long_sequences_match_a_float64_reference(void)
{
    rng_seed(8192);
    const int sizes[3][4] = {{1000, 2000, 16, 8}, {2048, 700, 8, 5}, {3, ATTN_MAX_TOKENS_FUSED, 4, 4}};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s][0], m = sizes[s][1], dk = sizes[s][2], dv = sizes[s][3];
        float *Q = rand_matrix((long)n * dk, -1.0, 1.0), *K = rand_matrix((long)m * dk, -1.0, 1.0), *V = rand_matrix((long)m * dv, -1.0, 1.0);
        float *O = fbuf((long)n * dv, NULL), *work = fbuf(ATTN_FUSED_WORK(m, dk, dv), NULL);
        double *e = malloc(sizeof(double) * (size_t)m), worst = 0.0;
        float scale = attn_default_scale(dk);
        CHECK(attn_sdpa_fused(O, work, Q, K, V, NULL, 1, scale, n, m, dk, dv) == ATTN_OK, "n %d, m %d: status", n, m);
        for (int i = 0; i < n; i += 37) {
            int seen = i + 1 < m ? i + 1 : m;
            double top = -INFINITY, sum = 0.0;
            for (int j = 0; j < seen; j++) {
                double d = 0.0;
                for (int c = 0; c < dk; c++) d += (double)Q[(long)i * dk + c] * K[(long)j * dk + c];
                e[j] = d * scale, top = e[j] > top ? e[j] : top;
            }
            for (int j = 0; j < seen; j++) e[j] = exp(e[j] - top), sum += e[j];
            for (int c = 0; c < dv; c++) {
                double o = 0.0;
                for (int j = 0; j < seen; j++) o += e[j] * V[(long)j * dv + c];
                double err = fabs(o / sum - O[(long)i * dv + c]);
                worst = err > worst ? err : worst;
            }
        }
        CHECK(worst <= fused_tol(1.0, 2.0 * dk * scale, m), "n %d, m %d: O is %g from the float64 reference", n, m, worst);
        free(Q), free(K), free(V), free(O), free(work), free(e);
    }
}

/* Values near FLT_MAX: their weighted average is finite (as in the long form) because the fused
 * form keeps each row's output an average as it goes; summing p·v unnormalised over 200 keys
 * would pass FLT_MAX. */
static void values_near_flt_max_average_to_a_finite_o(void)
{
    rng_seed(38);
    int n = 6, m = 200, dk = 3, dv = 2;
    float *Q = rand_matrix((long)n * dk, -1.0, 1.0), *K = rand_matrix((long)m * dk, -1.0, 1.0), *V = fbuf((long)m * dv, NULL);
    for (long e = 0; e < (long)m * dv; e++) V[e] = 3.0e38f;
    both r = run_both(Q, K, V, NULL, 1, attn_default_scale(dk), n, m, dk, dv);
    CHECK(r.same_o, "statuses %d and %d, or O differs by %g", r.long_status, r.fused_status, r.diff);
    float *O = fbuf((long)n * dv, NULL), *work = fbuf(ATTN_FUSED_WORK(m, dk, dv), NULL);
    CHECK(attn_sdpa_fused(O, work, Q, K, V, NULL, 1, attn_default_scale(dk), n, m, dk, dv) == ATTN_OK, "status");
    for (long e = 0; e < (long)n * dv; e++) CHECK(isfinite(O[e]) && fabs(O[e]) <= 3.0e38f * (1 + 1e-6), "O[%ld] = %g", e, O[e]);
    free(Q), free(K), free(V), free(O), free(work);
}

/* attn_tile_step, tile after tile in the core's order (query tiles, then key tiles up to the
 * last key the tile's last row sees), ends on the long form's O for any tile sizes; each step
 * says its z, p, alpha and rescale as the formulas do. */
static void stepping_every_tile_gives_the_long_forms_o(void)
{
    rng_seed(29);
    const int sizes[][2] = {{1, 1}, {2, 3}, {4, 4}, {3, 64}, {64, 5}, {ATTN_TILE_KEYS, ATTN_TILE_KEYS}};
    int n = 37, m = 37, dk = 5, dv = 3;
    float *Q = rand_matrix((long)n * dk, -2.0, 2.0), *K = rand_matrix((long)m * dk, -2.0, 2.0), *V = rand_matrix((long)m * dv, -1.0, 1.0);
    float *mask = random_mask(2, n, m);
    for (int causal = 0; causal < 2; causal++) {
        for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            int bq = sizes[s][0], bk = sizes[s][1];
            float *mx = fbuf(n, NULL), *l = fbuf(n, NULL), *out = fbuf((long)n * dv, NULL);
            float *z = fbuf((long)bq * bk, NULL), *p = fbuf((long)bq * bk, NULL), *alpha = fbuf(bq, NULL), *rescale = fbuf(bq, NULL);
            for (int i = 0; i < n; i++) mx[i] = -INFINITY, l[i] = 0.0f;
            for (long e = 0; e < (long)n * dv; e++) out[e] = 0.0f;
            for (int q0 = 0; q0 < n; q0 += bq) {
                int rows = n - q0 < bq ? n - q0 : bq, end = causal ? (q0 + rows < m ? q0 + rows : m) : m;
                for (int k0 = 0; k0 < end; k0 += bk) {
                    float before = mx[q0];
                    CHECK(attn_tile_step(mx, l, out, z, p, alpha, rescale, Q, K, V, mask, causal, 0.5f, n, m, dk, dv, q0, bq, k0, bk) == ATTN_OK,
                          "tile %d, %d", q0, k0);
                    /* row q0's first key of the tile, by the formulas */
                    if (!(causal && k0 > q0)) {
                        double dot = 0.0;
                        for (int c = 0; c < dk; c++) dot += (double)Q[(long)q0 * dk + c] * K[(long)k0 * dk + c];
                        double want_z = dot * 0.5 + mask[(long)q0 * m + k0];
                        CHECK(z[0] == want_z || fabs(z[0] - want_z) <= 1e-5 * (1 + fabs(want_z)), "z = %g, want %g", z[0], want_z);
                        if (isfinite(z[0])) CHECK(fabs(p[0] - exp(z[0] - mx[q0])) <= 1e-6, "p = %g, want exp(z − m) = %g", p[0], exp(z[0] - mx[q0]));
                    }
                    if (isfinite(before) && before == mx[q0]) CHECK(alpha[0] == 1.0f, "alpha = %g where the maximum stayed", alpha[0]);
                }
            }
            both r = run_both(Q, K, V, mask, causal, 0.5f, n, m, dk, dv);
            float *O = fbuf((long)n * dv, NULL), *Sx = fbuf((long)n * m, NULL), *A = fbuf((long)n * m, NULL), *Kt = fbuf((long)dk * m, NULL);
            CHECK(attn_sdpa(Sx, A, O, Kt, Q, K, V, mask, causal, 0.5f, n, m, dk, dv) == ATTN_OK && r.long_status == ATTN_OK, "the long form");
            double worst = 0.0, tol = fused_tolerance(V, Sx, mask, causal, n, m, dv);
            for (long e = 0; e < (long)n * dv; e++) worst = fabs((double)O[e] - out[e]) > worst ? fabs((double)O[e] - out[e]) : worst;
            CHECK(worst <= tol, "tiles %d × %d, causal %d: the stepped O is %g from the long form's", bq, bk, causal, worst);
            free(mx), free(l), free(out), free(z), free(p), free(alpha), free(rescale), free(O), free(Sx), free(A), free(Kt);
        }
    }
    float one = 0.0f;
    CHECK(attn_tile_step(&one, &one, &one, &one, &one, &one, &one, Q, K, V, NULL, 0, 1.0f, n, m, dk, dv, n, 1, 0, 1) == ATTN_ERR_SIZE, "q0 past n");
    CHECK(attn_tile_step(&one, &one, &one, &one, &one, &one, &one, Q, K, V, NULL, 0, 1.0f, n, m, dk, dv, 0, ATTN_TILE_KEYS + 1, 0, 1) == ATTN_ERR_SIZE, "a tile too tall");
    CHECK(attn_tile_step(NULL, &one, &one, &one, &one, &one, &one, Q, K, V, NULL, 0, 1.0f, n, m, dk, dv, 0, 1, 0, 1) == ATTN_ERR_NULL, "no state");
    free(Q), free(K), free(V), free(mask);
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
    CHECK(attn_sdpa_fused(O, work, Q, K, V, NULL, 0, 1.0f, n, ATTN_MAX_TOKENS_FUSED + 1, dk, dv) == ATTN_ERR_SIZE, "m past the limit");
    CHECK(attn_sdpa_fused(O, work, Q, K, V, NULL, 0, 1.0f, ATTN_MAX_TOKENS_FUSED + 1, m, dk, dv) == ATTN_ERR_SIZE, "n past the limit");
    CHECK(attn_sdpa_fused(O, NULL, Q, K, V, NULL, 0, 1.0f, n, m, dk, dv) == ATTN_ERR_NULL, "no work buffer");
    CHECK(attn_sdpa_fused(NULL, work, Q, K, V, NULL, 0, 1.0f, n, m, dk, dv) == ATTN_ERR_NULL, "no O");
    CHECK(attn_sdpa_fused(O, work, Q, K, V, NULL, 0, 0.0f, n, m, dk, dv) == ATTN_ERR_SCALE, "scale 0");
    CHECK(attn_sdpa_fused(O, work, Q, K, V, NULL, 0, NAN, n, m, dk, dv) == ATTN_ERR_SCALE, "scale NaN");
    const int bad_tiles[] = {0, -8, 4, 12, ATTN_TILE_KEYS + 8};
    for (unsigned t = 0; t < sizeof bad_tiles / sizeof *bad_tiles; t++)
        CHECK(attn_sdpa_fused_tiles(O, work, Q, K, V, NULL, 0, 1.0f, n, m, dk, dv, bad_tiles[t]) == ATTN_ERR_SIZE, "tiles of %d keys",
              bad_tiles[t]);
    CHECK(attn_sdpa_fused_tiles(O, work, Q, K, V, NULL, 0, 1.0f, n, m, dk, dv, 8) == ATTN_OK, "tiles of 8 keys");
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
            CHECK(fabs(O1[c] - mean[c]) < 1e-6 && fabs(O2[c] - O1[c]) <= fused_tol(3.0, 0.0, m), "m = %d: O[%d] = %g and %g, the mean of V is %g", m, c, O1[c], O2[c], mean[c]);
        free(work);
    }
}

int main(void)
{
    RUN(fused_gives_the_long_forms_o_on_300_seeded_shapes_of_one_and_more_key_tiles);
    RUN(fused_at_the_size_limits_gives_the_long_forms_o);
    RUN(fused_at_the_edges_of_a_key_tile_gives_the_long_forms_o);
    RUN(a_maximum_in_the_last_tile_rescales_the_earlier_ones);
    RUN(long_sequences_match_a_float64_reference);
    RUN(values_near_flt_max_average_to_a_finite_o);
    RUN(stepping_every_tile_gives_the_long_forms_o);
    RUN(fully_masked_rows_give_zero_output_in_the_fused_form);
    RUN(scores_in_the_thousands_give_the_long_forms_o);
    RUN(an_overflowing_score_the_causal_mask_removes_is_still_attn_err_overflow);
    RUN(bad_input_gives_the_long_forms_status);
    RUN(padding_keys_never_overflow_a_score);
    return print_summary();
}
