/*
 * fuzz_train.c: a libFuzzer target for training (c/train.h: every function of train.c, which
 * calls attn_project, attn_sdpa and attn_backward). Built and run by the Makefile's test-fuzz.
 *
 * The bytes choose a task, a head size and a seed (sometimes invalid ones), the memory block
 * (exactly the size train_memory_bytes asks for, its own heap allocation so AddressSanitizer
 * sees one byte past it, or one byte short), then a program of calls: settings (learning rates
 * from tiny to 1e30, NaN, 0 and negative; batches 0..257; optimizers 0..2), steps, evaluation,
 * examples, reset, reroll and the name functions. Checked:
 *   - statuses: each bad argument gives its code and changes nothing;
 *   - a step returns ATTN_OK with a finite loss >= 0, or (a learning rate that blows the
 *     weights up) ATTN_ERR_NONFINITE or ATTN_ERR_OVERFLOW, never a NaN loss with ATTN_OK;
 *   - the gradients of a step match central differences of the batch loss (the loss a step
 *     reports is measured before its update, so replaying the same stream at perturbed
 *     parameters measures L(p ± h)) on a few parameters each input;
 *   - training is deterministic: reset() and the same steps give the same losses, bit for bit;
 *   - evaluate gives a finite loss and shares in [0, 1]; an example has 1..n tokens of the
 *     vocabulary, targets and right keys in range and one-hot rows of X.
 */
#include "train.h"

#include <float.h>
#include <string.h>

#include "fuzz.h"

static float lr_from(uint8_t b)
{
    static const float choices[] = {0.001f, 0.01f, 0.03f, 0.1f, 1.0f, 10.0f, 1e4f, 1e30f, 0.0f, -1.0f, NAN, INFINITY, FLT_MIN};
    return choices[b % (sizeof choices / sizeof choices[0])];
}

static void check_example(const train_state *t, uint32_t seed)
{
    int tokens[TRAIN_MAX_TOKENS], targets[TRAIN_MAX_TOKENS], right[TRAIN_MAX_TOKENS];
    float X[TRAIN_MAX_TOKENS * TRAIN_MAX_D];
    int n = train_example(t, seed, tokens, targets, right, X);
    REQUIRE(n >= 1 && n <= t->n, "train_example: a length outside 1..n");
    for (int i = 0; i < n; i++) {
        REQUIRE(tokens[i] >= 0 && tokens[i] < t->vocab, "train_example: a token outside the vocabulary");
        REQUIRE(targets[i] >= -1 && targets[i] < t->vocab, "train_example: a target outside the vocabulary");
        REQUIRE(right[i] >= -1 && right[i] <= i, "train_example: a right key after its query (the mask is causal)");
        REQUIRE(train_token_name(t->task, tokens[i]) != NULL, "train_example: a token without a name");
        float ones = 0;
        for (int f = 0; f < t->d; f++) {
            float x = X[(long)i * t->d + f];
            REQUIRE(x == 0.0f || x == 1.0f, "train_example: X is not one-hot");
            ones += x;
        }
        REQUIRE(ones == (t->positions ? 2.0f : 1.0f), "train_example: a row of X is not one token (and one position)");
        REQUIRE(X[(long)i * t->d + tokens[i]] == 1.0f, "train_example: X does not hold the token");
    }
    REQUIRE(train_example(t, seed, NULL, targets, right, X) == -ATTN_ERR_NULL, "train_example: NULL tokens accepted");
}

/* The state that one step changes, saved and restored around a measurement. */
typedef struct {
    float *params, *adam_m, *adam_v;
    long step;
    uint32_t data_rng;
    float loss;
} snapshot;

static snapshot save(const train_state *t)
{
    size_t bytes = sizeof(float) * (size_t)t->n_params;
    snapshot s = {malloc(bytes), malloc(bytes), malloc(bytes), t->step, t->data_rng, t->loss};
    memcpy(s.params, t->params, bytes), memcpy(s.adam_m, t->adam_m, bytes), memcpy(s.adam_v, t->adam_v, bytes);
    return s;
}

static void restore(train_state *t, const snapshot *s)
{
    size_t bytes = sizeof(float) * (size_t)t->n_params;
    memcpy(t->params, s->params, bytes), memcpy(t->adam_m, s->adam_m, bytes), memcpy(t->adam_v, s->adam_v, bytes);
    t->step = s->step, t->data_rng = s->data_rng, t->loss = s->loss;
}

/* The batch loss at the current parameters: one step's reported loss (before its update). */
static double batch_loss(train_state *t, const snapshot *s)
{
    float loss = NAN;
    t->step = s->step, t->data_rng = s->data_rng;
    memcpy(t->adam_m, s->adam_m, sizeof(float) * (size_t)t->n_params);
    memcpy(t->adam_v, s->adam_v, sizeof(float) * (size_t)t->n_params);
    REQUIRE(train_steps(t, 1, &loss) == ATTN_OK, "a step failed while measuring the loss");
    return loss;
}

/* The batch loss with parameter e set to v and the others as saved. */
typedef struct {
    train_state *t;
    const snapshot *s;
    long e;
} probe;

static double loss_at(void *ctx, float v)
{
    probe *at = ctx;
    memcpy(at->t->params, at->s->params, sizeof(float) * (size_t)at->t->n_params);
    at->t->params[at->e] = v;
    return batch_loss(at->t, at->s);
}

/* A few gradient entries of one step against central differences of the batch loss. */
static void check_gradients(train_state *t, reader *r)
{
    snapshot s = save(t);
    float loss = NAN;
    if (train_steps(t, 1, &loss) != ATTN_OK) { /* weights already blown up: nothing to compare */
        restore(t, &s);
        free(s.params), free(s.adam_m), free(s.adam_v);
        return;
    }
    float *grad = malloc(sizeof(float) * (size_t)t->n_params);
    memcpy(grad, t->grads, sizeof(float) * (size_t)t->n_params);
    double biggest = 0;
    for (long e = 0; e < t->n_params; e++) biggest = fabs(grad[e]) > biggest ? fabs(grad[e]) : biggest;
    int moderate = 1; /* central differences in float32 need parameters of ordinary size */
    for (long e = 0; e < t->n_params; e++) moderate &= fabsf(s.params[e]) < 8.0f;
    for (int k = 0; k < 3 && moderate; k++) {
        long e = (long)(take_u32(r) % (uint32_t)t->n_params);
        probe at = {t, &s, e};
        require_gradient(grad[e], s.params[e], biggest, loss_at, &at, e, t->n_params);
    }
    restore(t, &s);
    free(grad), free(s.params), free(s.adam_m), free(s.adam_v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    uint8_t b = take(&r);
    int task = b < 240 ? b % TRAIN_TASK_COUNT : (b % 2 ? -1 : TRAIN_TASK_COUNT);
    b = take(&r);
    int dk = b < 240 ? 1 + b % 6 : (b % 3 == 0 ? 0 : b % 3 == 1 ? TRAIN_MAX_HEAD + 1 : TRAIN_MAX_HEAD);
    b = take(&r);
    int dv = b < 240 ? 1 + b % 6 : (b % 3 == 0 ? 0 : b % 3 == 1 ? TRAIN_MAX_HEAD + 1 : TRAIN_MAX_HEAD);
    uint32_t seed = take_u32(&r);
    int short_block = take(&r) == 255;

    for (int k = 0; k < TRAIN_TASK_COUNT + 2; k++) {
        int tk = k - 1; /* -1 .. TRAIN_TASK_COUNT */
        REQUIRE((train_task_name(tk) != NULL) == (tk >= 0 && tk < TRAIN_TASK_COUNT), "train_task_name: a name out of range, or none in range");
        REQUIRE(train_token_name(tk, -1) == NULL && train_token_name(tk, TRAIN_MAX_VOCAB) == NULL, "train_token_name: a token out of range has a name");
    }

    int valid = task >= 0 && task < TRAIN_TASK_COUNT && dk >= 1 && dk <= TRAIN_MAX_HEAD && dv >= 1 && dv <= TRAIN_MAX_HEAD;
    long need = train_memory_bytes(task, dk, dv);
    REQUIRE(valid ? need > 0 && need <= TRAIN_MAX_MEMORY_BYTES : need == 0, "train_memory_bytes: out of its bound, or not 0 for bad sizes");
    long bytes = valid ? need - short_block : 64;
    unsigned char *memory = malloc((size_t)bytes);
    REQUIRE(memory != NULL, "out of memory");
    train_state t;
    int st = train_init(&t, memory, bytes, task, dk, dv, seed);
    REQUIRE(train_init(NULL, memory, bytes, task, dk, dv, seed) == ATTN_ERR_NULL, "train_init: NULL state accepted");
    if (task < 0 || task >= TRAIN_TASK_COUNT) REQUIRE(st == TRAIN_ERR_TASK, "train_init: bad task but not TRAIN_ERR_TASK");
    else if (!valid) REQUIRE(st == TRAIN_ERR_SHAPE, "train_init: bad dk or dv but not TRAIN_ERR_SHAPE");
    else if (short_block) REQUIRE(st == TRAIN_ERR_MEMORY, "train_init: a block one byte short but not TRAIN_ERR_MEMORY");
    else REQUIRE(st == ATTN_OK, "train_init refused valid arguments");
    if (st != ATTN_OK) {
        free(memory);
        return 0;
    }
    REQUIRE(t.n_params == (long)t.d * (2 * dk + dv) + (long)dv * t.vocab, "n_params is not the size of Wq, Wk, Wv and Wout");
    REQUIRE(isnan(t.loss) && t.step == 0, "a new trainer has a loss or steps");

    float losses[8];
    int blown = 0; /* the weights went non-finite: only reset or reroll bring them back */
    for (int op = 0; op < 24 && r.left; op++) {
        b = take(&r);
        switch (b % 8) {
        case 0: { /* settings */
            float lr = lr_from(take(&r));
            int opt = take(&r) % 3;
            uint8_t bb = take(&r);
            int batch = bb == 255 ? TRAIN_MAX_BATCH + 1 : bb == 254 ? 0 : 1 + bb % 4;
            float keep_lr = t.lr;
            int keep_batch = t.batch, keep_opt = t.optimizer;
            int s2 = train_set(&t, lr, opt, batch);
            int lr_ok = lr > 0.0f && lr != INFINITY, rest_ok = batch >= 1 && batch <= TRAIN_MAX_BATCH && opt <= TRAIN_ADAM;
            REQUIRE(s2 == (!lr_ok ? TRAIN_ERR_LR : !rest_ok ? TRAIN_ERR_SHAPE : ATTN_OK), "train_set: the wrong status");
            if (s2 != ATTN_OK) REQUIRE(t.lr == keep_lr && t.batch == keep_batch && t.optimizer == keep_opt, "train_set: a refused setting changed one");
            break;
        }
        case 1: case 2: { /* steps */
            int k = 1 + take(&r) % 3;
            long before = t.step;
            int s2 = train_steps(&t, k, losses);
            if (s2 == ATTN_OK) {
                REQUIRE(t.step == before + k, "train_steps: the step count did not move by k");
                for (int s = 0; s < k; s++) REQUIRE(isfinite(losses[s]) && losses[s] >= 0.0f, "train_steps: a loss that is not a finite number >= 0");
                REQUIRE(t.loss == losses[k - 1], "the last loss is not the last step's");
            } else {
                REQUIRE(s2 == ATTN_ERR_NONFINITE || s2 == ATTN_ERR_OVERFLOW, "train_steps: a status other than the weights blowing up");
                blown = 1;
            }
            break;
        }
        case 3: { /* evaluate */
            float loss = NAN, on_right = NAN, accuracy = NAN;
            int s2 = train_evaluate(&t, &loss, &on_right, &accuracy);
            if (s2 == ATTN_OK) {
                REQUIRE(isfinite(loss) && loss >= 0.0f, "evaluate: the loss is not a finite number >= 0");
                REQUIRE(on_right >= 0.0f && on_right <= 1.0f + 1e-6f, "evaluate: attention on the right key outside [0, 1]");
                REQUIRE(accuracy >= 0.0f && accuracy <= 1.0f, "evaluate: accuracy outside [0, 1]");
            } else {
                /* The held-out sequences are not the batch: weights that just passed a step can
                 * still overflow on one of them, but only weights that a high rate made huge. */
                float biggest = 0;
                for (long e = 0; e < t.n_params; e++) biggest = fmaxf(biggest, fabsf(t.params[e]));
                if (!blown && !(biggest > 1e3f)) fprintf(stderr, "evaluate: status %d, largest weight %g, lr %g\n", s2, biggest, t.lr);
                REQUIRE(s2 == ATTN_ERR_OVERFLOW || s2 == ATTN_ERR_NONFINITE, "evaluate failed with a status other than overflow");
                REQUIRE(blown || biggest > 1e3f, "evaluate failed on weights of ordinary size");
            }
            REQUIRE(train_evaluate(&t, NULL, NULL, NULL) == s2, "evaluate with no outputs gives another status");
            break;
        }
        case 4: check_example(&t, take_u32(&r) % 4); break;
        case 5: { /* determinism: reset, then the same steps give the same losses */
            train_reset(&t);
            blown = 0;
            float first[3], second[3];
            int s1 = train_steps(&t, 3, first);
            train_reset(&t);
            int s2 = train_steps(&t, 3, second);
            REQUIRE(s1 == s2 && (s1 != ATTN_OK || memcmp(first, second, sizeof first) == 0), "training is not deterministic after reset()");
            blown = s1 != ATTN_OK;
            break;
        }
        case 6: train_reroll(&t, take_u32(&r)); blown = 0; REQUIRE(t.step == 0 && isnan(t.loss), "reroll did not start again"); break;
        default:
            if (!blown && t.lr <= 1.0f) check_gradients(&t, &r);
            break;
        }
    }
    REQUIRE(train_steps(NULL, 1, losses) == ATTN_ERR_NULL, "train_steps: NULL state accepted");
    REQUIRE(train_evaluate(NULL, NULL, NULL, NULL) == ATTN_ERR_NULL, "train_evaluate: NULL state accepted");
    free(memory);
    return 0;
}
