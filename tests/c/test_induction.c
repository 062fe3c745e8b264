/*
 * test_induction.c: native tests of c/induction.h under AddressSanitizer and UBSan.
 *
 * The gradient check compares the model's float32 gradients of EVERY parameter with central
 * finite differences of an independent float64 reference of the same model (written here from
 * induction.h's description, sharing no code with c/), on small shapes. A fixed seed at the
 * anchor's size must then form the induction circuit within a fixed number of steps.
 * Prints one line per test and "N passed, M failed".
 */
#include "induction.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* ---------------------------------------------------------------- the float64 reference */

/* The mean cross-entropy over positions 0 .. n-2 of the model with parameters p (float64, laid
 * out as induction.h says: E [vocab, d], then per head Wq, Wk, Wv [d, dh] and Wo [dh, d]) on
 * `tokens`, with positions P (float32 constants from the model) and heads in `ablated` left out. */
static double ref_loss(const double *p, const ind_shape *s, const float *P, const int *tokens, unsigned ablated)
{
    int n = s->n, d = s->d, dh = s->dh, H = s->heads, V = s->vocab;
    const double *E = p;
    double *X = calloc((size_t)n * d, sizeof(double)), *Xn = calloc((size_t)n * d, sizeof(double));
    double *Q = calloc((size_t)n * dh, sizeof(double)), *K = calloc((size_t)n * dh, sizeof(double));
    double *Vv = calloc((size_t)n * dh, sizeof(double)), *O = calloc((size_t)n * dh, sizeof(double));
    double *a = calloc((size_t)n, sizeof(double));
    for (int i = 0; i < n; i++)
        for (int c = 0; c < d; c++) X[i * d + c] = E[tokens[i] * d + c] + P[i * d + c];
    const double *w = p + (long)V * d;
    for (int l = 0; l < s->layers; l++) {
        memcpy(Xn, X, sizeof(double) * (size_t)n * d);
        for (int h = 0; h < H; h++, w += 4L * d * dh) {
            const double *Wq = w, *Wk = w + d * dh, *Wv = w + 2 * d * dh, *Wo = w + 3 * d * dh;
            for (int i = 0; i < n; i++)
                for (int c = 0; c < dh; c++) {
                    double q = 0, k = 0, v = 0;
                    for (int e = 0; e < d; e++) {
                        q += X[i * d + e] * Wq[e * dh + c];
                        k += X[i * d + e] * Wk[e * dh + c];
                        v += X[i * d + e] * Wv[e * dh + c];
                    }
                    Q[i * dh + c] = q, K[i * dh + c] = k, Vv[i * dh + c] = v;
                }
            for (int i = 0; i < n; i++) {
                double mx = -INFINITY, sum = 0;
                for (int j = 0; j <= i; j++) {
                    double sc = 0;
                    for (int c = 0; c < dh; c++) sc += Q[i * dh + c] * K[j * dh + c];
                    a[j] = sc / sqrt((double)dh);
                    if (a[j] > mx) mx = a[j];
                }
                for (int j = 0; j <= i; j++) sum += (a[j] = exp(a[j] - mx));
                for (int c = 0; c < dh; c++) {
                    double o = 0;
                    for (int j = 0; j <= i; j++) o += a[j] / sum * Vv[j * dh + c];
                    O[i * dh + c] = o;
                }
            }
            if (ablated >> (l * H + h) & 1u) continue;
            for (int i = 0; i < n; i++)
                for (int e = 0; e < d; e++) {
                    double x = 0;
                    for (int c = 0; c < dh; c++) x += O[i * dh + c] * Wo[c * d + e];
                    Xn[i * d + e] += x;
                }
        }
        memcpy(X, Xn, sizeof(double) * (size_t)n * d);
    }
    double loss = 0;
    for (int i = 0; i + 1 < n; i++) {
        double mx = -INFINITY, sum = 0, lt = 0;
        for (int v = 0; v < V; v++) {
            double z = 0;
            for (int e = 0; e < d; e++) z += X[i * d + e] * E[v * d + e]; /* tied: logits = X·Eᵀ/sqrt(d) */
            z /= sqrt((double)d);
            if (v == tokens[i + 1]) lt = z;
            a[0] = z;
            if (z > mx) mx = z;
        }
        for (int v = 0; v < V; v++) {
            double z = 0;
            for (int e = 0; e < d; e++) z += X[i * d + e] * E[v * d + e];
            sum += exp(z / sqrt((double)d) - mx);
        }
        loss += log(sum) + mx - lt;
    }
    free(X), free(Xn), free(Q), free(K), free(Vv), free(O), free(a);
    return loss / (n - 1);
}

static ind_model *make(const ind_shape *s, uint32_t seed, unsigned char **block)
{
    long b = ind_memory_bytes(s);
    *block = malloc((size_t)b + 1);
    static ind_model t;
    /* exactly sized at an odd address: ind_init aligns it, and ASan catches one float too many */
    int st = ind_init(&t, *block + 1, b, s, seed);
    CHECK(st == ATTN_OK, "init: status %d", st);
    return &t;
}

/* One step with batch 1, then every parameter's gradient against central differences of the
 * float64 reference at the parameters before the step. */
static void check_gradients(const ind_shape *s, uint32_t seed, unsigned ablated, double *worst)
{
    unsigned char *block;
    ind_model *t = make(s, seed, &block);
    ind_set(t, 1e-3f, 0.0f, 1);
    ind_ablate(t, ablated);
    long P = t->n_params;
    double *p = malloc(sizeof(double) * (size_t)P);
    for (long e = 0; e < P; e++) p[e] = t->params[e];
    CHECK(ind_steps(t, 1, NULL) == ATTN_OK, "step");
    int *tokens = malloc(sizeof(int) * (size_t)s->n);
    memcpy(tokens, t->tokens, sizeof(int) * (size_t)s->n); /* the step's one sequence */
    double base = ref_loss(p, s, t->P, tokens, t->ablated);
    CHECK(fabs(base - t->loss) < 1e-4 * (1 + base), "loss %g, reference %g", t->loss, base);
    for (long e = 0; e < P; e++) {
        double keep = p[e], h = 1e-5;
        p[e] = keep + h;
        double up = ref_loss(p, s, t->P, tokens, t->ablated);
        p[e] = keep - h;
        double down = ref_loss(p, s, t->P, tokens, t->ablated);
        p[e] = keep;
        double fd = (up - down) / (2 * h), g = t->grads[e];
        double err = fabs(g - fd) / (fabs(fd) + 1e-3);
        if (err > *worst) *worst = err;
        CHECK(fabs(g - fd) <= 2e-4 * fabs(fd) + 2e-6, "parameter %ld: gradient %.8g, finite difference %.8g", e, g, fd);
    }
    free(p), free(tokens), free(block);
}

static void every_gradient_matches_float64_finite_differences(void)
{
    double worst = 0;
    const ind_shape shapes[] = {
        {2, 2, 6, 3, 8, 7},  /* two layers of two heads */
        {1, 2, 6, 3, 8, 7},  /* the one-layer control */
        {2, 3, 4, 2, 6, 6},  /* three heads, the smallest width */
        {2, 1, 8, 5, 10, 9}, /* one head per layer, dh odd */
        {2, 4, 4, 2, 6, 6},  /* the most heads: IND_MAX_LAYERS layers of IND_MAX_HEADS */
    };
    int count = 0;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        for (uint32_t seed = 1; seed <= 3; seed++) {
            check_gradients(&shapes[k], seed, 0, &worst);
            count++;
        }
    check_gradients(&shapes[0], 4, 1u << 1, &worst); /* head 1.2 ablated: none of its weights learn */
    check_gradients(&shapes[0], 5, 1u << 2, &worst); /* head 2.1 ablated */
    printf("    %d models, every parameter: largest relative difference %.2e\n", count + 2, worst);
}

static void an_ablated_head_gets_no_gradient_and_writes_nothing(void)
{
    ind_shape s = {2, 2, 6, 3, 8, 7};
    unsigned char *block;
    ind_model *t = make(&s, 9, &block);
    ind_set(t, 1e-3f, 0.0f, 2);
    ind_ablate(t, 1u << 3 | 1u << 9); /* head 2.2, and a bit past the heads that is ignored */
    CHECK(t->ablated == 1u << 3, "ablated %u", t->ablated);
    ind_steps(t, 1, NULL);
    long per = (long)s.d * s.dh * 4, at = (long)s.vocab * s.d + 3 * per;
    for (long e = 0; e < per; e++) CHECK(t->grads[at + e] == 0.0f, "gradient %ld of head 2.2 is %g", e, t->grads[at + e]);
    free(block);
}

static void shapes_and_settings_out_of_range_are_refused(void)
{
    ind_shape ok = {2, 2, 32, 16, 32, 28};
    CHECK(ind_memory_bytes(&ok) > 0, "the anchor's shape");
    ind_shape bad[] = {{3, 2, 32, 16, 32, 28}, {2, 0, 32, 16, 32, 28}, {2, 2, 31, 16, 32, 28},
                       {2, 2, 32, 33, 32, 28}, {2, 2, 32, 16, 65, 28}, {2, 2, 32, 16, 32, 8}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) CHECK(ind_memory_bytes(&bad[k]) == 0, "bad shape %zu", k);
    ind_model t;
    unsigned char *mem = malloc((size_t)ind_memory_bytes(&ok));
    CHECK(ind_init(&t, mem, ind_memory_bytes(&ok) - 1, &ok, 1) == IND_ERR_MEMORY, "one byte short");
    CHECK(ind_init(&t, mem, ind_memory_bytes(&ok), &bad[0], 1) == IND_ERR_SHAPE, "bad shape");
    CHECK(ind_init(&t, NULL, 1, &ok, 1) == ATTN_ERR_NULL, "no memory");
    CHECK(ind_init(&t, mem, ind_memory_bytes(&ok), &ok, 1) == ATTN_OK, "good init");
    CHECK(ind_set(&t, 0.0f, 0.0f, 16) == IND_ERR_LR && ind_set(&t, NAN, 0.0f, 16) == IND_ERR_LR, "lr");
    CHECK(ind_set(&t, 0.01f, -1.0f, 16) == IND_ERR_LR && ind_set(&t, 0.01f, 0.0f, 0) == IND_ERR_SHAPE, "wd, batch");
    CHECK(t.lr == 0.01f && t.batch == 16, "a refused ind_set changes nothing");
    CHECK(ind_token_name(IND_MAX_VOCAB - 1) != NULL && ind_token_name(IND_MAX_VOCAB) == NULL && ind_token_name(-1) == NULL,
          "token names 0 .. IND_MAX_VOCAB - 1, and NULL past them");
    /* a reset is the state of init: the weights, a step count of 0, no gradient and no moments */
    ind_steps(&t, 3, NULL);
    ind_reset(&t);
    long left = 0;
    for (long e = 0; e < t.n_params; e++) left += t.grads[e] != 0.0f || t.adam_m[e] != 0.0f || t.adam_v[e] != 0.0f;
    CHECK(left == 0 && t.step == 0, "after a reset %ld gradients or moments are not 0 (step %ld)", left, t.step);
    free(mem);
}

/* Each limit of induction.h is accepted, and one step past it refused: layers 1..2, heads 1..4,
 * d even in 2..64, dh 1..32, n 5..64, vocab max(2, n/4) + 1 .. 64 (a period of up to max(2, n/4)
 * new words).
 * The limits are written as numbers, the ones docs/api.md gives, not as induction.h's names: a
 * changed #define must fail here (a mutant IND_MAX_HEADS 5 passed when both sides moved). */
static void every_shape_limit_is_accepted_and_one_past_it_refused(void)
{
    ind_shape edge[] = {{1, 1, 2, 1, 5, 3},   {2, 4, 64, 32, 64, 64},
                        {1, 1, 4, 1, 12, 4},  {1, 1, 2, 1, 64, 17}};
    for (size_t k = 0; k < sizeof edge / sizeof edge[0]; k++) CHECK(ind_memory_bytes(&edge[k]) > 0, "edge shape %zu", k);
    ind_shape past[] = {{0, 1, 2, 1, 5, 3},  {3, 1, 2, 1, 5, 3}, {1, 0, 2, 1, 5, 3},
                        {1, 5, 2, 1, 5, 3}, {1, 1, 0, 1, 5, 3}, {1, 1, 3, 1, 5, 3},
                        {1, 1, 66, 1, 5, 3}, {1, 1, 2, 0, 5, 3}, {1, 1, 2, 33, 5, 3},
                        {1, 1, 2, 1, 4, 3}, {1, 1, 2, 1, 65, 17}, {1, 1, 2, 1, 5, 2},
                        {1, 1, 2, 1, 12, 3}, {1, 1, 2, 1, 64, 16}, {1, 1, 2, 1, 5, 65}};
    for (size_t k = 0; k < sizeof past / sizeof past[0]; k++) CHECK(ind_memory_bytes(&past[k]) == 0, "shape past a limit %zu", k);
}

/* With W_Q = 0 every score is 0 and query i attends evenly to its i + 1 visible keys (causal), so
 * the attention on the previous token that ind_evaluate reports for every head is the mean of
 * 1/(i+1) over i = 1 .. n-1, whatever the sequences; the other outputs are fractions in [0, 1]. */
static void evaluate_reports_the_mean_attention_on_the_previous_token(void)
{
    ind_shape s = {2, 2, 16, 8, 12, 16};
    unsigned char *block;
    ind_model *t = make(&s, 3, &block);
    int heads = s.layers * s.heads;
    for (int h = 0; h < heads; h++)
        for (long e = 0; e < (long)s.d * s.dh; e++) t->Wq[h][e] = 0.0f;
    float out[3 + 2 * IND_MAX_LAYERS * IND_MAX_HEADS];
    CHECK(ind_evaluate(t, out) == ATTN_OK, "evaluate");
    double want = 0;
    for (int i = 1; i < s.n; i++) want += 1.0 / (i + 1);
    want /= s.n - 1;
    for (int h = 0; h < heads; h++) {
        CHECK(fabs(out[3 + 2 * h] - want) < 1e-5, "head %d: previous-token attention %.7f, want %.7f", h, out[3 + 2 * h], want);
        CHECK(out[4 + 2 * h] > 0 && out[4 + 2 * h] < 1, "head %d: induction attention %g", h, out[4 + 2 * h]);
    }
    CHECK(out[2] >= 0 && out[2] <= 1 && out[0] > 0 && out[1] > 0, "losses %g %g, accuracy %g", out[0], out[1], out[2]);
    free(block);
}

/* Every sequence: BOS, then k different words again and again; the parts and the induction keys. */
static void sequences_repeat_k_different_words(void)
{
    ind_shape s = {2, 2, 32, 16, 32, 28};
    unsigned char *block;
    ind_model *t = make(&s, 1, &block);
    int seen_k[IND_MAX_TOKENS] = {0};
    for (uint32_t seed = 0; seed < 400; seed++) {
        CHECK(ind_example(t, seed) == s.n, "example");
        int n = s.n, k = t->k;
        seen_k[k]++;
        CHECK(t->tokens[0] == IND_BOS && k >= 4 && k <= 8, "BOS, k %d", k);
        for (int i = 1; i <= k; i++)
            for (int j = 1; j < i; j++) CHECK(t->tokens[i] != t->tokens[j] && t->tokens[i] != IND_BOS, "distinct");
        for (int i = k + 1; i < n; i++) CHECK(t->tokens[i] == t->tokens[i - k], "repeat");
        for (int i = 0; i < n; i++) {
            if (i <= k) CHECK(t->induct[i] == -1, "no induction key before the repeat");
            else CHECK(t->induct[i] == i - k + 1 && t->tokens[i - k] == t->tokens[i] && t->targets[i] == t->tokens[t->induct[i]] || i == n - 1, "induction key");
        }
        for (int i = 0; i < n - 1; i++) CHECK(t->targets[i] == t->tokens[i + 1], "targets");
        CHECK(t->targets[n - 1] == -1 && t->part[n - 1] == IND_NONE && t->part[k] == IND_FIRST && t->part[k + 1] == IND_REPEAT, "parts");
    }
    for (int k = 4; k <= 8; k++) CHECK(seen_k[k] > 50, "k = %d drawn %d times in 400", k, seen_k[k]);
    free(block);
    /* The period's range at other lengths: k_min(n) = max(2, n/8), k_max(n) = max(2, n/4), each
     * end drawn (n = 24: 3..6, where a k_min of n/9 would give 2 and a k_max of n/5 would give 4;
     * n = 16: 2..4; n = 64: 8..16; n = 5, the shortest: 2 only, two periods after BOS). */
    int lengths[][3] = {{24, 3, 6}, {16, 2, 4}, {64, 8, 16}, {5, 2, 2}};
    for (int c = 0; c < 4; c++) {
        ind_shape sn = {1, 1, 8, 4, lengths[c][0], 33};
        t = make(&sn, 1, &block);
        int lo = 1000, hi = 0;
        for (uint32_t seed = 0; seed < 600; seed++) {
            CHECK(ind_example(t, seed) == sn.n, "example at n = %d", sn.n);
            lo = t->k < lo ? t->k : lo, hi = t->k > hi ? t->k : hi;
        }
        CHECK(lo == lengths[c][1] && hi == lengths[c][2], "n = %d: k drawn in %d..%d, want %d..%d", sn.n, lo, hi,
              lengths[c][1], lengths[c][2]);
        free(block);
    }
}

/* The K split: parts sum to K, to float32 rounding. */
static void key_split_sums_to_the_keys(void)
{
    ind_shape s = {2, 2, 32, 16, 32, 28};
    unsigned char *block;
    ind_model *t = make(&s, 3, &block);
    ind_steps(t, 20, NULL);
    ind_example(t, 7);
    int n = s.n, dh = s.dh;
    float *parts = fbuf(3L * n * dh, NULL);
    for (int h = 0; h < 2; h++) {
        CHECK(ind_key_split(t, 1, h, parts) == 3, "three parts");
        double worst = 0;
        for (long e = 0; e < (long)n * dh; e++) {
            double sum = (double)parts[e] + parts[n * dh + e] + parts[2 * n * dh + e];
            double diff = fabs(sum - t->K[2 + h][e]);
            if (diff > worst) worst = diff;
        }
        printf("    head 2.%d: embedding + head 1.1 + head 1.2 parts = K to %.1e\n", h + 1, worst);
        CHECK(worst < 1e-5, "parts sum to K within %g", worst);
    }
    CHECK(ind_key_split(t, 0, 0, parts) == 1, "layer 1 reads only the embedding");
    CHECK(ind_key_split(t, 2, 0, parts) == -IND_ERR_SHAPE, "no layer 3");
    CHECK(ind_key_split(t, 1, 2, parts) == -IND_ERR_SHAPE && ind_key_split(t, 1, -1, parts) == -IND_ERR_SHAPE, "no head 3, no head 0");
    free(parts);
    free(block);
}

/* K-composition against a float64 reference written here from induction.h's definition: for
 * layer-0 head a and layer-1 head b, |W_QK^b · (W_OV^a)ᵀ|_F / (|W_QK^b|_F · |W_OV^a|_F), with
 * W_QK = Wq·Wkᵀ and W_OV = Wv·Wo, each [d, d]. Three heads a layer, so no two scores are alike. */
static void composition_matches_a_float64_reference(void)
{
    ind_shape s = {2, 3, 6, 3, 8, 7};
    unsigned char *block;
    ind_model *t = make(&s, 11, &block);
    ind_set(t, 1e-2f, 0.0f, 2);
    ind_steps(t, 3, NULL); /* away from the initial draw */
    int d = s.d, dh = s.dh, H = s.heads;
    float out[IND_MAX_HEADS * IND_MAX_HEADS];
    for (int k = 0; k < H * H; k++) out[k] = -7.0f;
    CHECK(ind_composition(t, out) == ATTN_OK, "composition");
    double qk[6 * 6], ov[6 * 6], x;
    for (int b = 0; b < H; b++)
        for (int a = 0; a < H; a++) {
            double nq = 0, no = 0, nm = 0;
            for (int i = 0; i < d; i++)
                for (int j = 0; j < d; j++) {
                    double q = 0, o = 0;
                    for (int c = 0; c < dh; c++) {
                        q += (double)t->Wq[H + b][i * dh + c] * t->Wk[H + b][j * dh + c];
                        o += (double)t->Wv[a][i * dh + c] * t->Wo[a][c * d + j];
                    }
                    qk[i * d + j] = q, ov[i * d + j] = o, nq += q * q, no += o * o;
                }
            for (int i = 0; i < d; i++)
                for (int j = 0; j < d; j++) {
                    x = 0;
                    for (int c = 0; c < d; c++) x += qk[i * d + c] * ov[j * d + c]; /* (W_QK · W_OVᵀ)[i, j] */
                    nm += x * x;
                }
            double want = sqrt(nm) / (sqrt(nq) * sqrt(no));
            CHECK(want > 0.01 && fabs(out[a * H + b] - want) < 1e-5, "head 1.%d -> 2.%d: %.7g, reference %.7g", a + 1,
                  b + 1, out[a * H + b], want);
        }
    /* A head that writes nothing (W_OV = 0) composes with nothing: its scores are 0, not 0/0. */
    for (int k = 0; k < d * dh; k++) t->Wv[0][k] = 0.0f;
    for (int k = 0; k < H * H; k++) out[k] = -7.0f;
    CHECK(ind_composition(t, out) == ATTN_OK, "composition with W_V of head 1.1 zero");
    for (int b = 0; b < H; b++) CHECK(out[b] == 0.0f, "head 1.1 -> 2.%d with W_OV = 0: %g, want 0", b + 1, out[b]);
    CHECK(out[H] > 0.01f, "head 1.2 -> 2.1 still composes: %g", out[H]);
    ind_shape one = {1, 2, 6, 3, 8, 7};
    free(block);
    t = make(&one, 11, &block);
    out[0] = -7.0f;
    CHECK(ind_composition(t, out) == ATTN_OK && out[0] == -7.0f, "one layer: nothing written");
    free(block);
}

/* Weights so large that the scores pass FLT_MAX: a step returns ATTN_ERR_OVERFLOW and keeps the
 * last good parameters, optimizer state and step count; evaluation returns it too. */
static void a_step_that_overflows_returns_the_error_and_keeps_the_weights(void)
{
    ind_shape s = {2, 2, 6, 3, 8, 7};
    unsigned char *block;
    ind_model *t = make(&s, 5, &block);
    ind_set(t, 1e-2f, 0.0f, 2);
    CHECK(ind_steps(t, 2, NULL) == ATTN_OK, "two good steps");
    for (long e = 0; e < (long)s.vocab * s.d; e++) t->E[e] = t->E[e] < 0 ? -1e30f : 1e30f;
    long P = t->n_params;
    float *keep = malloc(sizeof(float) * 3 * (size_t)P);
    memcpy(keep, t->params, sizeof(float) * (size_t)P);
    memcpy(keep + P, t->adam_m, sizeof(float) * (size_t)P);
    memcpy(keep + 2 * P, t->adam_v, sizeof(float) * (size_t)P);
    int st = ind_steps(t, 1, NULL);
    CHECK(st == ATTN_ERR_OVERFLOW, "step: status %d", st);
    CHECK(t->step == 2, "step count %ld", (long)t->step);
    CHECK(memcmp(keep, t->params, sizeof(float) * (size_t)P) == 0, "the parameters changed");
    CHECK(memcmp(keep + P, t->adam_m, sizeof(float) * (size_t)P) == 0 &&
              memcmp(keep + 2 * P, t->adam_v, sizeof(float) * (size_t)P) == 0, "the optimizer state changed");
    float out[3 + 2 * IND_MAX_LAYERS * IND_MAX_HEADS];
    CHECK(ind_evaluate(t, out) == ATTN_ERR_OVERFLOW, "evaluate");
    free(keep);
    free(block);
}

/* The page's default model (one head a layer, d 32, dh 16, lr 0.02, batch 16): the seed the page
 * opens with forms the circuit within a fixed step count, and ablating its layer-2 head raises
 * the repeated-part loss by more than 1 nat (steps are deterministic; time is not measured here). */
static void seed_1_forms_an_induction_head_and_the_control_does_not(void)
{
    int max_steps = 600;
    for (int layers = 2; layers >= 1; layers--) {
        ind_shape s = {layers, 1, 32, 16, 32, 28};
        unsigned char *block;
        ind_model *t = make(&s, 1, &block);
        CHECK(ind_set(t, 0.02f, 0.01f, 16) == ATTN_OK, "the page's settings");
        float out[3 + 2 * IND_MAX_LAYERS * IND_MAX_HEADS];
        int at = -1;
        for (int step = 0; step < max_steps && at < 0; step += 10) {
            CHECK(ind_steps(t, 10, NULL) == ATTN_OK, "steps");
            ind_evaluate(t, out);
            float best = 0;
            for (int h = s.heads; h < layers * s.heads; h++) best = out[4 + 2 * h] > best ? out[4 + 2 * h] : best;
            if (best > 0.5f && out[1] < 0.3f) at = step + 10;
        }
        ind_evaluate(t, out);
        printf("    %d layer%s: criteria %s%d; repeated-part loss %.3f, first-part %.3f\n", layers, layers > 1 ? "s" : "",
               at < 0 ? "not met by step " : "met at step ", at < 0 ? max_steps : at, out[1], out[0]);
        if (layers == 2) {
            CHECK(at > 0, "an induction head within %d steps", max_steps);
            float keep = out[1];
            ind_ablate(t, 1u << 1); /* head 2.1 */
            ind_evaluate(t, out);
            printf("    ablating head 2.1: repeated-part loss %.3f -> %.3f\n", keep, out[1]);
            CHECK(out[1] - keep > 1.0f, "ablating the induction head adds %g nats", out[1] - keep);
        } else CHECK(at < 0 && out[1] > 1.0f, "the control's repeated-part loss %g", out[1]);
        free(block);
    }
}

/* One block reused for models of other shapes (the Wasm module's slots are): each init lays
 * its arrays out afresh and steps work, under ASan too, whose guards of the earlier layout
 * must not stay in the way of the new one. */
static void a_block_reused_for_another_shape_trains(void)
{
    ind_shape big = {2, 2, 32, 16, 32, 28}, small = {1, 1, 16, 8, 16, 12};
    long b = ind_memory_bytes(&big) > ind_memory_bytes(&small) ? ind_memory_bytes(&big) : ind_memory_bytes(&small);
    unsigned char *block = malloc((size_t)b);
    ind_model t;
    const ind_shape *order[] = {&big, &small, &big};
    for (int k = 0; k < 3; k++) {
        CHECK(ind_init(&t, block, b, order[k], (uint32_t)k + 1) == ATTN_OK, "init %d", k);
        CHECK(ind_steps(&t, 2, NULL) == ATTN_OK && t.step == 2, "steps after init %d", k);
    }
    free(block);
}

int main(void)
{
    RUN(shapes_and_settings_out_of_range_are_refused);
    RUN(every_shape_limit_is_accepted_and_one_past_it_refused);
    RUN(evaluate_reports_the_mean_attention_on_the_previous_token);
    RUN(sequences_repeat_k_different_words);
    RUN(every_gradient_matches_float64_finite_differences);
    RUN(an_ablated_head_gets_no_gradient_and_writes_nothing);
    RUN(key_split_sums_to_the_keys);
    RUN(a_block_reused_for_another_shape_trains);
    RUN(composition_matches_a_float64_reference);
    RUN(a_step_that_overflows_returns_the_error_and_keeps_the_weights);
    RUN(seed_1_forms_an_induction_head_and_the_control_does_not);
    return print_summary();
}
