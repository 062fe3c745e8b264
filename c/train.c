/*
 * train.c: gradient descent on one attention head and a linear read-out, for tasks whose
 * right attention pattern is known (train.h describes the model and the tasks).
 *
 * One training step is four passes over a batch:
 *   pass 1  draw a sequence and build X: one-hot token, then one-hot position
 *   pass 2  forward: the head (attention.c), the read-out logits = O·Wout, softmax, loss
 *   pass 3  backward: dlogits, then Wout, then the head (attention_backward.c)
 *   pass 4  after the batch: average the gradients and update every parameter (SGD or Adam)
 */
#include "train.h"

#include "learn.h"

#include <math.h>
#include <stddef.h>
#include <string.h>


/* ---------------------------------------------------------------- the tasks */

static const char *const previous_vocab[] = {"A", "B", "C", "D", "E", "F"};
/* the widget page's sentence "the cat sat on the" is one sequence of this task */
static const char *const noun_vocab[] = {"the", "cat", "dog", "bird", "fox", "sat", "on", "ran", "by", "big"};
enum { NOUN_THE = 0, NOUN_FIRST = 1, NOUN_COUNT = 4, FILLER_FIRST = 5, FILLER_COUNT = 5 };

typedef struct {
    const char *name;
    const char *const *words;
    int vocab;
    int n;         /* the longest sequence */
    int positions; /* 1: X has one-hot position columns */
} task_info;

static const task_info tasks[TRAIN_TASK_COUNT] = {
    [TRAIN_PREVIOUS_TOKEN] = {"previous-token", previous_vocab, 6, 8, 1},
    [TRAIN_FIND_NOUN] = {"find-the-noun", noun_vocab, 10, 8, 1},
};

const char *train_task_name(int task) { return task >= 0 && task < TRAIN_TASK_COUNT ? tasks[task].name : NULL; }

const char *train_token_name(int task, int token)
{
    if (task < 0 || task >= TRAIN_TASK_COUNT || token < 0 || token >= tasks[task].vocab) return NULL;
    return tasks[task].words[token];
}

/* ---------------------------------------------------------------- random numbers (learn.h) */

/* the names this file used before the stream moved to learn.c, shared with induction.c */
#define next_u32 learn_u32
#define next_below learn_below
#define next_uniform learn_uniform

/* The training stream and the held-out stream are different seeds, so evaluation never sees
 * a training draw by construction of the stream (the same sequence can still occur by chance). */
static uint32_t data_seed(uint32_t seed) { return seed ^ 0xa5a5a5a5u; }
#define HELD_OUT_SEED 0x5eed0e7au

/* One sequence of the task: tokens, targets (-1: no prediction here) and right keys (-1: no
 * right answer). Returns its length. */
static int draw_sequence(int task, uint32_t *rng, int *tokens, int *targets, int *right)
{
    const task_info *ti = &tasks[task];
    if (task == TRAIN_PREVIOUS_TOKEN) {
        /* random tokens; from position 1 on, the answer is the token just before */
        for (int i = 0; i < ti->n; i++) {
            tokens[i] = next_below(rng, ti->vocab);
            targets[i] = i > 0 ? tokens[i - 1] : -1;
            right[i] = i - 1;
        }
        return ti->n;
    }
    /* find the noun: "... the NOUN ... the", and the last "the" predicts the noun again */
    int n = 4 + next_below(rng, ti->n - 3); /* 4..8 words */
    int p = 1 + next_below(rng, n - 2);     /* the noun's place: 1..n-2, after a "the" */
    for (int i = 0; i < n; i++) {
        tokens[i] = FILLER_FIRST + next_below(rng, FILLER_COUNT);
        targets[i] = right[i] = -1;
    }
    tokens[p - 1] = NOUN_THE;
    tokens[p] = NOUN_FIRST + next_below(rng, NOUN_COUNT);
    tokens[n - 1] = NOUN_THE;
    targets[n - 1] = tokens[p];
    right[n - 1] = p;
    /* A distractor: when there is room before "the NOUN", another noun at a place 0..p-2
     * ("dog ran the cat on the" predicts "cat"). Its value must carry its own word, since it
     * is the answer in other sentences, so attention that leaks onto it costs accuracy: without
     * one, a head could put 0.7 of its weight on the noun, give the fillers values near 0 and
     * still reach a loss near 0. Both nouns have the same kind of key; their positions (X's
     * position columns) tell the query which came last. */
    if (p >= 2) {
        int q = next_below(rng, p - 1);
        int other = NOUN_FIRST + next_below(rng, NOUN_COUNT - 1);
        tokens[q] = other >= tokens[p] ? other + 1 : other;
    }
    return n;
}

/* X [n, d]: a one in the token's column and (when the task has them) in the position's. */
static void build_x(float *X, const int *tokens, int n, int vocab, int positions, int d)
{
    memset(X, 0, sizeof(float) * (size_t)n * (size_t)d);
    for (int i = 0; i < n; i++) {
        X[(long)i * d + tokens[i]] = 1.0f;
        if (positions) X[(long)i * d + vocab + i] = 1.0f;
    }
}

/* ---------------------------------------------------------------- memory layout */

/* Places every buffer at 16-byte aligned offsets from base and returns the bytes used;
 * with base NULL it only counts. Under ASan each is followed by a poisoned guard (learn.h). */
static long layout(train_state *t, unsigned char *base)
{
    long at = 0;
#define TAKE(ptr, type, count) LEARN_TAKE(base, at, ptr, type, count)
    int n = t->n, d = t->d, dk = t->dk, dv = t->dv, vocab = t->vocab;
    t->n_params = (long)d * dk * 2 + (long)d * dv + (long)dv * vocab;
    TAKE(t->params, float, t->n_params);
    TAKE(t->grads, float, t->n_params);
    TAKE(t->adam_m, float, t->n_params);
    TAKE(t->adam_v, float, t->n_params);
    TAKE(t->tokens, int, n);
    TAKE(t->targets, int, n);
    TAKE(t->right, int, n);
    TAKE(t->X, float, (long)n * d);
    TAKE(t->Q, float, (long)n * dk);
    TAKE(t->K, float, (long)n * dk);
    TAKE(t->V, float, (long)n * dv);
    TAKE(t->Kt, float, (long)dk * n);
    TAKE(t->S, float, (long)n * n);
    TAKE(t->A, float, (long)n * n);
    TAKE(t->O, float, (long)n * dv);
    TAKE(t->probs, float, (long)n * vocab);
    TAKE(t->dO, float, (long)n * dv);
    TAKE(t->dQ, float, (long)n * dk);
    TAKE(t->dK, float, (long)n * dk);
    TAKE(t->dV, float, (long)n * dv);
    TAKE(t->dA, float, (long)n * n);
    TAKE(t->dS, float, (long)n * n);
#undef TAKE
    if (base) {
        /* the parameter tensors lie one after another: Wq, Wk, Wv, Wout */
        t->Wq = t->params;
        t->Wk = t->Wq + (long)d * dk;
        t->Wv = t->Wk + (long)d * dk;
        t->Wout = t->Wv + (long)d * dv;
        t->dWq = t->grads;
        t->dWk = t->dWq + (long)d * dk;
        t->dWv = t->dWk + (long)d * dk;
        t->dWout = t->dWv + (long)d * dv;
    }
    return at;
}

static int shape_ok(int task, int dk, int dv) { return task >= 0 && task < TRAIN_TASK_COUNT && dk >= 1 && dk <= TRAIN_MAX_HEAD && dv >= 1 && dv <= TRAIN_MAX_HEAD; }

static void set_shape(train_state *t, int task, int dk, int dv)
{
    const task_info *ti = &tasks[task];
    t->task = task;
    t->vocab = ti->vocab;
    t->n = ti->n;
    t->positions = ti->positions ? ti->n : 0;
    t->d = ti->vocab + t->positions;
    t->dk = dk;
    t->dv = dv;
    t->scale = attn_default_scale(dk);
}

long train_memory_bytes(int task, int dk, int dv)
{
    if (!shape_ok(task, dk, dv)) return 0;
    train_state t;
    memset(&t, 0, sizeof t);
    set_shape(&t, task, dk, dv);
    return layout(&t, NULL) + 15; /* room to align the caller's block to 16 bytes */
}

/* ---------------------------------------------------------------- init, reset, settings */

void train_reset(train_state *t)
{
    /* Uniform in [-a, a). X rows hold one or two ones, so Q, K and V rows are sums of one or
     * two weight rows: a = 0.5 keeps the first scores around 1, where softmax still has a
     * gradient in every direction, and the first patterns close to uniform. */
    uint32_t rng = t->seed;
    long head = (long)t->d * (2L * t->dk + t->dv);
    for (long e = 0; e < head; e++) t->params[e] = next_uniform(&rng, 0.5f);
    float a_out = 1.0f / sqrtf((float)t->dv); /* logits around 1 at the start */
    for (long e = head; e < t->n_params; e++) t->params[e] = next_uniform(&rng, a_out);
    memset(t->grads, 0, sizeof(float) * (size_t)t->n_params);
    memset(t->adam_m, 0, sizeof(float) * (size_t)t->n_params);
    memset(t->adam_v, 0, sizeof(float) * (size_t)t->n_params);
    t->data_rng = data_seed(t->seed);
    t->step = 0;
    t->loss = NAN; /* no step yet */
}

void train_reroll(train_state *t, uint32_t seed)
{
    t->seed = seed;
    train_reset(t);
}

int train_set(train_state *t, float lr, int optimizer, int batch)
{
    if (!(lr > 0.0f) || lr == INFINITY) return TRAIN_ERR_LR;
    if (batch < 1 || batch > TRAIN_MAX_BATCH || (optimizer != TRAIN_SGD && optimizer != TRAIN_ADAM)) return TRAIN_ERR_SHAPE;
    t->lr = lr;
    t->optimizer = optimizer;
    t->batch = batch;
    return ATTN_OK;
}

int train_init(train_state *t, void *memory, long bytes, int task, int dk, int dv, uint32_t seed)
{
    if (!t || !memory) return ATTN_ERR_NULL;
    if (task < 0 || task >= TRAIN_TASK_COUNT) return TRAIN_ERR_TASK;
    if (!shape_ok(task, dk, dv)) return TRAIN_ERR_SHAPE;
    if (bytes < train_memory_bytes(task, dk, dv)) return TRAIN_ERR_MEMORY;
    memset(t, 0, sizeof *t);
    set_shape(t, task, dk, dv);
    unsigned char *base = (unsigned char *)memory;
    base += (16 - (uintptr_t)base % 16) % 16;
    LEARN_UNPOISON(base, layout(t, NULL)); /* the guards of an earlier trainer here */
    layout(t, base);
    train_set(t, 0.02f, TRAIN_ADAM, 16);
    train_reroll(t, seed);
    return ATTN_OK;
}

/* ---------------------------------------------------------------- one sequence */

/* Forward (and, with backward != 0, backward) on the sequence in t->tokens/targets/right of
 * length n, with X already built. Adds to *loss_sum the summed cross-entropy, to *count the
 * number of predictions, to *attn_sum the weights on the right keys and to *attn_count their
 * number, to *correct the argmax hits; with backward, adds this sequence's gradients (not yet
 * averaged) to t->grads. */
static int run_sequence(train_state *t, int n, int backward, double *loss_sum, long *count, double *attn_sum,
                        long *attn_count, long *correct)
{
    int d = t->d, dk = t->dk, dv = t->dv, vocab = t->vocab;

    /* pass 2: the head, then the read-out */
    int st = attn_project(t->Q, t->K, t->V, t->X, t->X, t->Wq, t->Wk, t->Wv, n, n, d, dk, dv);
    if (st != ATTN_OK) return st;
    st = attn_sdpa(t->S, t->A, t->O, t->Kt, t->Q, t->K, t->V, NULL, 1, t->scale, n, n, dk, dv);
    if (st != ATTN_OK) return st;
    for (int i = 0; i < n; i++) {
        if (t->right[i] >= 0) {
            *attn_sum += t->A[(long)i * n + t->right[i]];
            (*attn_count)++;
        }
        float *p_i = t->probs + (long)i * vocab;
        int target = t->targets[i];
        if (target < 0) {
            memset(p_i, 0, sizeof(float) * (size_t)vocab); /* no prediction here: no gradient */
            continue;
        }
        /* logits[i] = O[i]·Wout, [vocab] */
        const float *o_i = t->O + (long)i * dv;
        for (int v = 0; v < vocab; v++) p_i[v] = 0.0f;
        for (int c = 0; c < dv; c++) {
            const float *w_c = t->Wout + (long)c * vocab;
            for (int v = 0; v < vocab; v++) p_i[v] += o_i[c] * w_c[v];
        }
        /* softmax over the vocabulary, max subtracted; the loss is -log p[target] computed as
         * log(sum) - (logit - max), which stays finite even when p[target] underflows */
        float max = -INFINITY;
        int best = 0, finite = 1;
        for (int v = 0; v < vocab; v++) {
            finite &= isfinite(p_i[v]);
            if (p_i[v] > max) max = p_i[v], best = v;
        }
        /* Q, K, V and the scores were checked by attention.c, the read-out was not: O·Wout past
         * float32 (or a Wout already Infinity) means the learning rate was too high */
        if (!finite) return ATTN_ERR_OVERFLOW;
        float target_logit = p_i[target] - max, sum = 0.0f;
        for (int v = 0; v < vocab; v++) sum += (p_i[v] = expf(p_i[v] - max));
        for (int v = 0; v < vocab; v++) p_i[v] /= sum;
        *loss_sum += logf(sum) - target_logit;
        *correct += best == target;
        (*count)++;
        /* pass 3 starts here: dLoss/dlogits = p - onehot(target), kept in probs */
        p_i[target] -= 1.0f;
    }
    if (!backward) return ATTN_OK;

    /* pass 3, read-out. Forward: "p_i[v] += o_i[c] * w_c[v]", logits = O·Wout, so
     * dWout += Oᵀ·dlogits (accumulated over the batch) and dO = dlogits·Woutᵀ (overwritten). */
    for (int i = 0; i < n; i++) {
        const float *g_i = t->probs + (long)i * vocab, *o_i = t->O + (long)i * dv;
        float *dO_i = t->dO + (long)i * dv;
        for (int c = 0; c < dv; c++) {
            const float *w_c = t->Wout + (long)c * vocab;
            float *dW_c = t->dWout + (long)c * vocab;
            float s = 0.0f;
            for (int v = 0; v < vocab; v++) {
                dW_c[v] += o_i[c] * g_i[v];
                s += g_i[v] * w_c[v];
            }
            dO_i[c] = s;
        }
    }
    /* pass 3, the head: adds to dWq, dWk, dWv. X is data, not a parameter: no dX. */
    return attn_backward(NULL, t->dWq, t->dWk, t->dWv, t->dQ, t->dK, t->dV, t->dA, t->dS, t->dO, t->X, t->Wq, t->Wk,
                         t->Wv, t->Q, t->K, t->V, t->A, NULL, 1, t->scale, n, d, dk, dv);
}

/* ---------------------------------------------------------------- training */

/* pass 4: one optimizer step on the averaged gradients. Adam keeps per-parameter running means
 * of g and g² and moves each parameter by about lr whatever the gradient's size, which is why
 * one learning rate suits every task here; SGD moves by lr·g. */
static void update(train_state *t)
{
    long P = t->n_params;
    float *p = t->params;
    const float *g = t->grads;
    if (t->optimizer == TRAIN_SGD) learn_sgd(p, g, P, t->lr);
    else learn_adamw(p, t->adam_m, t->adam_v, g, P, t->step, t->lr, 0.0f);
}

int train_steps(train_state *t, int k, float *losses)
{
    if (!t || !t->params) return ATTN_ERR_NULL;
    for (int s = 0; s < k; s++) {
        memset(t->grads, 0, sizeof(float) * (size_t)t->n_params); /* the step's sums start at 0 */
        double loss_sum = 0, attn_sum = 0;
        long count = 0, attn_count = 0, correct = 0;
        for (int b = 0; b < t->batch; b++) {
            /* pass 1: the next sequence of the training stream */
            int n = draw_sequence(t->task, &t->data_rng, t->tokens, t->targets, t->right);
            build_x(t->X, t->tokens, n, t->vocab, t->positions, t->d);
            int st = run_sequence(t, n, 1, &loss_sum, &count, &attn_sum, &attn_count, &correct);
            if (st != ATTN_OK) return st;
        }
        /* the loss is a mean over predictions, so its gradient is the sum divided by their count */
        float inv = 1.0f / (float)count;
        for (long e = 0; e < t->n_params; e++) t->grads[e] *= inv;
        t->loss = (float)(loss_sum / (double)count);
        t->step++;
        update(t);
        if (losses) losses[s] = t->loss;
    }
    return ATTN_OK;
}

int train_evaluate(train_state *t, float *loss, float *attention_on_right, float *accuracy)
{
    if (!t || !t->params) return ATTN_ERR_NULL;
    uint32_t rng = HELD_OUT_SEED;
    double loss_sum = 0, attn_sum = 0;
    long count = 0, attn_count = 0, correct = 0;
    for (int s = 0; s < TRAIN_EVAL_SEQUENCES; s++) {
        int n = draw_sequence(t->task, &rng, t->tokens, t->targets, t->right);
        build_x(t->X, t->tokens, n, t->vocab, t->positions, t->d);
        int st = run_sequence(t, n, 0, &loss_sum, &count, &attn_sum, &attn_count, &correct);
        if (st != ATTN_OK) return st;
    }
    if (loss) *loss = (float)(loss_sum / (double)count);
    if (attention_on_right) *attention_on_right = (float)(attn_sum / (double)attn_count);
    if (accuracy) *accuracy = (float)((double)correct / (double)count);
    return ATTN_OK;
}

int train_example(const train_state *t, uint32_t seed, int *tokens, int *targets, int *right, float *X)
{
    if (!t || !tokens || !targets || !right || !X) return -ATTN_ERR_NULL;
    int n;
    if (t->task == TRAIN_FIND_NOUN && seed == 0) {
        /* seed 0 is the widget page's sentence: "the cat sat on the" */
        static const int lesson[5] = {NOUN_THE, NOUN_FIRST, FILLER_FIRST, FILLER_FIRST + 1, NOUN_THE};
        n = 5;
        for (int i = 0; i < n; i++) tokens[i] = lesson[i], targets[i] = right[i] = -1;
        targets[4] = NOUN_FIRST;
        right[4] = 1;
    } else {
        uint32_t rng = seed;
        n = draw_sequence(t->task, &rng, tokens, targets, right);
    }
    build_x(X, tokens, n, t->vocab, t->positions, t->d);
    return n;
}
