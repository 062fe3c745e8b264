/*
 * fuzz_induction.c: a libFuzzer target for the induction model (c/induction.h: every ind_*
 * function, which call attn_project, attn_sdpa, attn_backward, attn_linear and
 * attn_linear_backward, and learn.c's AdamW). Built and run by the Makefile's test-fuzz.
 *
 * The bytes choose a small shape (1 or 2 layers, 1 or 2 heads, d <= 8, dh <= 4, n <= 10; and
 * sometimes an invalid one), a seed and an exactly sized memory block (or one byte short), then
 * a program of calls. Checked:
 *   - statuses: a bad shape, a short block, a bad learning rate, weight decay or batch gives its
 *     code and changes nothing;
 *   - a step returns ATTN_OK with finite losses >= 0 (first part, repeated part), or the
 *     weights blowing up (ATTN_ERR_OVERFLOW, ATTN_ERR_NONFINITE), never a NaN with ATTN_OK;
 *   - a step's gradient matches central differences of its batch loss on a few parameters (the
 *     reported loss is measured before the update: replaying the stream measures L(p ± h); h
 *     shrinks from 1e-2 where the loss is sharply curved: fuzz.h's require_gradient), and
 *     an ablated head's parameters get exactly 0;
 *   - reset() and the same steps give the same losses, bit for bit;
 *   - ind_evaluate's losses are finite, its accuracy and scores in [0, 1]; K-composition in
 *     [0, 1]; an example is BOS then a period of different words repeated, with targets, parts
 *     and induction keys that agree, and causal rows of weights; the key split of every head
 *     adds up to its K.
 */
#include "induction.h"

#include <float.h>
#include <string.h>

#include "fuzz.h"

static ind_shape shape_from(reader *r, int *valid)
{
    ind_shape s;
    s.layers = 1 + take(r) % 2;
    s.heads = 1 + take(r) % 2;
    s.d = 2 * (1 + take(r) % 4);
    s.dh = 1 + take(r) % 4;
    s.n = 5 + take(r) % 12; /* the period k is 2 up to n = 11, and 2..3, 2..4 above */
    int k_max = s.n / 4 > 2 ? s.n / 4 : 2; /* induction.h: k from max(2, n/8) to max(2, n/4) */
    s.vocab = k_max + 1 + take(r) % 4;
    *valid = 1;
    uint8_t b = take(r);
    if (b >= 240) { /* one size out of range */
        *valid = 0;
        switch (b % 8) {
        case 0: s.layers = 0; break;
        case 1: s.layers = IND_MAX_LAYERS + 1; break;
        case 2: s.heads = IND_MAX_HEADS + 1; break;
        case 3: s.d = 3; break; /* odd: the positions come in (sin, cos) pairs */
        case 4: s.dh = 0; break;
        case 5: s.n = 4; break;
        case 6: s.vocab = k_max; break; /* one word short of the longest period */
        default: s.vocab = IND_MAX_VOCAB + 1; break;
        }
    }
    return s;
}

typedef struct {
    float *params, *m, *v;
    long step;
    uint32_t data_rng;
} snapshot;

static snapshot save(const ind_model *t)
{
    size_t bytes = sizeof(float) * (size_t)t->n_params;
    snapshot s = {malloc(bytes), malloc(bytes), malloc(bytes), t->step, t->data_rng};
    memcpy(s.params, t->params, bytes), memcpy(s.m, t->adam_m, bytes), memcpy(s.v, t->adam_v, bytes);
    return s;
}

static void restore(ind_model *t, const snapshot *s, int params_too)
{
    size_t bytes = sizeof(float) * (size_t)t->n_params;
    if (params_too) memcpy(t->params, s->params, bytes);
    memcpy(t->adam_m, s->m, bytes), memcpy(t->adam_v, s->v, bytes);
    t->step = s->step, t->data_rng = s->data_rng;
}

static void drop(snapshot *s) { free(s->params), free(s->m), free(s->v); }

/* The batch loss of one step from the saved state with parameter e set to v. The reported loss
 * is measured before the update, so replaying the stream measures L(p ± h). */
typedef struct {
    ind_model *t;
    const snapshot *s;
    long e;
} probe;

static double loss_at(void *ctx, float v)
{
    probe *at = ctx;
    restore(at->t, at->s, 1);
    at->t->params[at->e] = v;
    REQUIRE(ind_steps(at->t, 1, NULL) == ATTN_OK, "a step failed while measuring the loss");
    return at->t->loss;
}

/* The gradient of one step against central differences of its batch loss, on 3 parameters;
 * and the parameters of an ablated head get exactly 0. */
static void check_gradients(ind_model *t, reader *r)
{
    snapshot s = save(t);
    float losses[2];
    if (ind_steps(t, 1, losses) != ATTN_OK) {
        restore(t, &s, 1);
        drop(&s);
        return;
    }
    float *grad = malloc(sizeof(float) * (size_t)t->n_params);
    memcpy(grad, t->grads, sizeof(float) * (size_t)t->n_params);
    double biggest = 0;
    for (long e = 0; e < t->n_params; e++) biggest = fmax(biggest, fabs(grad[e]));
    int H = t->s.heads, d = t->s.d, dh = t->s.dh;
    for (int lh = 0; lh < t->s.layers * H; lh++) {
        if (!(t->ablated >> lh & 1u)) continue;
        const float *g[4] = {t->dWq[lh], t->dWk[lh], t->dWv[lh], t->dWo[lh]};
        for (int w = 0; w < 4; w++)
            for (long e = 0; e < (long)d * dh; e++) REQUIRE(g[w][e] == 0.0f, "an ablated head's parameter has a gradient");
    }
    int moderate = 1;
    for (long e = 0; e < t->n_params; e++) moderate &= fabsf(s.params[e]) < 4.0f;
    for (int k = 0; k < 3 && moderate; k++) {
        long e = (long)(take_u32(r) % (uint32_t)t->n_params);
        probe at = {t, &s, e};
        require_gradient(grad[e], s.params[e], biggest, loss_at, &at, e, t->n_params);
    }
    restore(t, &s, 1);
    free(grad);
    drop(&s);
}

static void check_example(ind_model *t, uint32_t seed)
{
    int n = ind_example(t, seed);
    REQUIRE(n == t->s.n, "ind_example: not a sequence of n tokens");
    REQUIRE(t->tokens[0] == IND_BOS, "ind_example: the sequence does not start with BOS");
    int k = t->k;
    REQUIRE(k >= (n / 8 > 2 ? n / 8 : 2) && k <= (n / 4 > 2 ? n / 4 : 2), "ind_example: a period out of range");
    for (int i = 1; i <= k; i++) {
        REQUIRE(t->tokens[i] > IND_BOS && t->tokens[i] < t->s.vocab, "ind_example: a word outside the vocabulary");
        for (int j = 1; j < i; j++) REQUIRE(t->tokens[j] != t->tokens[i], "ind_example: a word twice in one period");
    }
    for (int i = 0; i < n; i++) {
        if (i > k) REQUIRE(t->tokens[i] == t->tokens[i - k], "ind_example: the period does not repeat");
        REQUIRE(t->targets[i] == (i + 1 < n ? t->tokens[i + 1] : -1), "ind_example: a target is not the next token");
        if (i + 1 < n) REQUIRE(t->part[i] == (i >= k + 1 ? IND_REPEAT : IND_FIRST), "ind_example: a prediction's part is wrong");
        REQUIRE(t->induct[i] == (i >= k + 1 ? i - k + 1 : -1), "ind_example: an induction key is wrong");
        REQUIRE(ind_token_name(t->tokens[i]) != NULL, "a token has no name");
    }
    int L = t->s.layers, H = t->s.heads, dh = t->s.dh;
    for (int lh = 0; lh < L * H; lh++)
        for (int i = 0; i < n; i++) {
            double sum = require_weight_row(t->A[lh] + (long)i * n, n);
            REQUIRE(fabs(sum - 1.0) < 1e-5, "a row of A does not sum to 1 (a causal row always has a key)");
            for (int j = i + 1; j < n; j++) REQUIRE(t->A[lh][(long)i * n + j] == 0.0f, "a query sees a later key");
        }
    /* key split: the parts add up to K */
    float *parts = fuzz_floats((long)(1 + (L - 1) * H) * n * dh);
    for (int l = 0; l < L; l++)
        for (int h = 0; h < H; h++) {
            int got = ind_key_split(t, l, h, parts);
            REQUIRE(got == 1 + l * H, "ind_key_split: not 1 + l·H parts");
            for (long e = 0; e < (long)n * dh; e++) {
                double sum = 0, size = 0;
                for (int p = 0; p < got; p++) sum += parts[p * (long)n * dh + e], size += fabs(parts[p * (long)n * dh + e]);
                REQUIRE(fabs(sum - t->K[l * H + h][e]) <= 1e-5 * (1 + size), "ind_key_split: the parts do not add up to K");
            }
        }
    REQUIRE(ind_key_split(t, L, 0, parts) == -IND_ERR_SHAPE && ind_key_split(t, 0, H, parts) == -IND_ERR_SHAPE, "ind_key_split: a head out of range");
    REQUIRE(ind_key_split(t, 0, 0, NULL) == -ATTN_ERR_NULL, "ind_key_split: NULL parts accepted");
    free(parts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    int valid;
    ind_shape s = shape_from(&r, &valid);
    uint32_t seed = take_u32(&r);
    int short_block = take(&r) == 255;
    REQUIRE(ind_token_name(-1) == NULL && ind_token_name(IND_MAX_VOCAB) == NULL && ind_token_name(IND_BOS) != NULL, "ind_token_name out of range");

    long need = ind_memory_bytes(&s);
    REQUIRE(valid ? need > 0 : need == 0, "ind_memory_bytes: 0 for a valid shape, or not 0 for an invalid one");
    REQUIRE(ind_memory_bytes(NULL) == 0, "ind_memory_bytes(NULL) is not 0");
    long bytes = valid ? need - short_block : 64;
    unsigned char *memory = malloc((size_t)bytes);
    ind_model t;
    int st = ind_init(&t, memory, bytes, &s, seed);
    if (!valid) REQUIRE(st == IND_ERR_SHAPE, "ind_init: a bad shape but not IND_ERR_SHAPE");
    else if (short_block) REQUIRE(st == IND_ERR_MEMORY, "ind_init: a block one byte short but not IND_ERR_MEMORY");
    else REQUIRE(st == ATTN_OK, "ind_init refused a valid shape");
    if (st != ATTN_OK) {
        free(memory);
        return 0;
    }
    REQUIRE(t.step == 0 && isnan(t.loss), "a new model has steps or a loss");
    ind_set(&t, 0.01f, 0.01f, 2); /* small batches keep a run quick */

    int blown = 0, evaluated = 3 + 2 * s.layers * s.heads;
    float losses[6], out[3 + 2 * IND_MAX_LAYERS * IND_MAX_HEADS], comp[IND_MAX_HEADS * IND_MAX_HEADS];
    for (int op = 0; op < 16 && r.left; op++) {
        uint8_t b = take(&r);
        switch (b % 9) {
        case 0: { /* settings */
            static const float lrs[] = {0.001f, 0.01f, 0.1f, 1.0f, 1.5f, 0.0f, -1.0f, NAN, INFINITY};
            static const float wds[] = {0.0f, 0.01f, 0.1f, -0.1f, NAN, 2.0f};
            float lr = lrs[take(&r) % 9], wd = wds[take(&r) % 6];
            uint8_t bb = take(&r);
            int batch = bb == 255 ? IND_MAX_BATCH + 1 : bb == 254 ? 0 : 1 + bb % 3;
            float keep_lr = t.lr, keep_wd = t.weight_decay;
            int keep_batch = t.batch;
            int lr_ok = lr > 0.0f && lr <= 1.0f && wd >= 0.0f && wd * lr < 1.0f;
            int s2 = ind_set(&t, lr, wd, batch);
            REQUIRE(s2 == (!lr_ok ? IND_ERR_LR : batch < 1 || batch > IND_MAX_BATCH ? IND_ERR_SHAPE : ATTN_OK), "ind_set: the wrong status");
            if (s2 != ATTN_OK) REQUIRE(t.lr == keep_lr && t.weight_decay == keep_wd && t.batch == keep_batch, "ind_set: a refused setting changed one");
            break;
        }
        case 1: case 2: { /* steps */
            int k = 1 + take(&r) % 3;
            long before = t.step;
            int s2 = ind_steps(&t, k, losses);
            if (s2 == ATTN_OK) {
                REQUIRE(t.step == before + k, "ind_steps: the step count did not move by k");
                for (int q = 0; q < 2 * k; q++) REQUIRE(isfinite(losses[q]) && losses[q] >= 0.0f, "ind_steps: a loss that is not a finite number >= 0");
                REQUIRE(isfinite(t.loss) && t.loss >= 0.0f, "ind_steps: the batch loss is not a finite number >= 0");
            } else {
                REQUIRE(s2 == ATTN_ERR_OVERFLOW || s2 == ATTN_ERR_NONFINITE, "ind_steps: a status other than the weights blowing up");
                blown = 1;
            }
            break;
        }
        case 3: { /* evaluate and composition */
            for (int q = 0; q < evaluated; q++) out[q] = NAN;
            int s2 = ind_evaluate(&t, out);
            if (s2 == ATTN_OK) {
                REQUIRE(isfinite(out[0]) && out[0] >= 0.0f && isfinite(out[1]) && out[1] >= 0.0f, "ind_evaluate: a loss that is not a finite number >= 0");
                for (int q = 2; q < evaluated; q++) REQUIRE(out[q] >= 0.0f && out[q] <= 1.0f + 1e-5f, "ind_evaluate: an accuracy or score outside [0, 1]");
            } else {
                REQUIRE(s2 == ATTN_ERR_OVERFLOW || s2 == ATTN_ERR_NONFINITE, "ind_evaluate: a status other than overflow");
            }
            for (int q = 0; q < s.heads * s.heads; q++) comp[q] = -1.0f;
            REQUIRE(ind_composition(&t, comp) == ATTN_OK, "ind_composition refused a model");
            for (int q = 0; q < s.heads * s.heads; q++)
                REQUIRE(s.layers == 1 ? comp[q] == -1.0f : comp[q] >= 0.0f && comp[q] <= 1.0f + 1e-5f, "K-composition outside [0, 1], or written for one layer");
            break;
        }
        case 4: if (!blown) check_example(&t, take_u32(&r) % 5); break;
        case 5: { /* determinism */
            ind_reset(&t);
            blown = 0;
            float first[4], second[4];
            int s1 = ind_steps(&t, 2, first);
            ind_reset(&t);
            int s2 = ind_steps(&t, 2, second);
            REQUIRE(s1 == s2 && (s1 != ATTN_OK || memcmp(first, second, sizeof first) == 0), "training is not deterministic after ind_reset()");
            blown = s1 != ATTN_OK;
            break;
        }
        case 6: ind_reroll(&t, take_u32(&r)); blown = 0; REQUIRE(t.step == 0 && isnan(t.loss), "ind_reroll did not start again"); break;
        case 7: ind_ablate(&t, take(&r)); break;
        default:
            if (!blown && t.lr <= 0.1f) check_gradients(&t, &r);
            break;
        }
    }
    REQUIRE(ind_steps(NULL, 1, NULL) == ATTN_ERR_NULL && ind_evaluate(NULL, out) == ATTN_ERR_NULL, "a NULL model accepted");
    REQUIRE(ind_example(NULL, 0) == -ATTN_ERR_NULL, "ind_example: a NULL model accepted");
    free(memory);
    return 0;
}
