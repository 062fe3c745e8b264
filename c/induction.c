/*
 * induction.c: a two-layer attention-only transformer in which an induction head forms
 * (induction.h describes the model, the task and the scores).
 *
 * One training step is four passes over a batch:
 *   pass 1  draw a sequence: BOS, k different words, the same k words again and again
 *   pass 2  forward: embed, then layer by layer every head (attention.c) adds O·Wo to the
 *           residual stream, then the unembedding, softmax and loss
 *   pass 3  backward: the unembedding, then the layers in reverse, each head through
 *           attn_backward (attention_backward.c), then the embedding
 *   pass 4  after the batch: average the gradients and take one AdamW step (learn.c)
 */
#include "induction.h"

#include "learn.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define HELD_OUT_SEED 0x1d0c7e5du
static uint32_t data_seed(uint32_t seed) { return seed ^ 0x5a5a5a5au; }

/* ---------------------------------------------------------------- the task */

static const char *const token_names[] = {
    "BOS", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T",
    "U", "V", "W", "X", "Y", "Z", "α", "β", "γ", "δ", "ε", "ζ", "η", "θ", "ι", "κ", "λ", "μ", "ν", "ξ",
    "ο", "π", "ρ", "σ", "τ", "υ", "φ", "χ", "ψ", "ω", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
    "!", "?", "#"};

const char *ind_token_name(int token)
{
    return token >= 0 && token < IND_MAX_VOCAB ? token_names[token] : NULL;
}

/* The period k of a sequence of n tokens (BOS included) lies in k_min(n) .. k_max(n), from
 * max(2, n/8) to max(2, n/4): 4 to 8 for n = 32, 2 for the shortest contexts (n = 5 to 11).
 * At least three periods fit after BOS (two when n is 5 or 6), so most predictions are in the
 * repeated part (22 to 26 of the 31 at n = 32). With periods up to (n-1)/2 (4 to 15 at n = 32)
 * the repeated part was short in many sequences, and a model with one head a layer often settled
 * in a minimum that never copies (docs/induction.md). */
static int k_min(int n) { return n / 8 > 2 ? n / 8 : 2; }
static int k_max(int n) { return n / 4 > 2 ? n / 4 : 2; }

/* Pass 1: one sequence into t->tokens, targets, part, induct and k. */
static void draw_sequence(ind_model *t, uint32_t *rng)
{
    int n = t->s.n, words = t->s.vocab - 1; /* every token but BOS */
    int k = k_min(n) + learn_below(rng, k_max(n) - k_min(n) + 1);
    /* k different words: the first k steps of a Fisher-Yates shuffle of the words */
    int deck[IND_MAX_VOCAB];
    for (int v = 0; v < words; v++) deck[v] = IND_BOS + 1 + v;
    for (int i = 0; i < k; i++) {
        int j = i + learn_below(rng, words - i);
        int x = deck[i];
        deck[i] = deck[j];
        deck[j] = x;
    }
    t->tokens[0] = IND_BOS;
    for (int i = 1; i < n; i++) t->tokens[i] = deck[(i - 1) % k]; /* the k words, again and again */
    for (int i = 0; i < n; i++) {
        t->targets[i] = i + 1 < n ? t->tokens[i + 1] : -1;
        /* token i occurred before (at i - k) from position k + 1 on; the token after that one,
         * at i - k + 1, is the answer. Up to position k the current token has not occurred
         * before, so there is no copy to find (at k the next word is word 1, seen already). */
        t->part[i] = i + 1 >= n ? IND_NONE : i > k ? IND_REPEAT : IND_FIRST;
        t->induct[i] = i > k ? i - k + 1 : -1;
    }
    t->k = k;
}

/* ---------------------------------------------------------------- memory layout */

static int shape_ok(const ind_shape *s)
{
    return s && s->layers >= 1 && s->layers <= IND_MAX_LAYERS && s->heads >= 1 && s->heads <= IND_MAX_HEADS &&
           s->d >= 2 && s->d <= IND_MAX_D && s->d % 2 == 0 && s->dh >= 1 && s->dh <= IND_MAX_HEAD_D && s->n >= 5 &&
           s->n <= IND_MAX_TOKENS && s->vocab <= IND_MAX_VOCAB && s->vocab - 1 >= k_max(s->n);
}

/* Places every buffer at 16-byte aligned offsets from base and returns the bytes used; with
 * base NULL it only counts. Under ASan each is followed by a poisoned guard (learn.h). */
static long layout(ind_model *t, unsigned char *base)
{
    long at = 0;
#define TAKE(ptr, type, count) LEARN_TAKE(base, at, ptr, type, count)
    const ind_shape *s = &t->s;
    int n = s->n, d = s->d, dh = s->dh, heads = s->layers * s->heads;
    long per_head = 3L * d * dh + (long)dh * d;
    t->n_params = (long)s->vocab * d + heads * per_head;
    TAKE(t->params, float, t->n_params);
    TAKE(t->grads, float, t->n_params);
    TAKE(t->adam_m, float, t->n_params);
    TAKE(t->adam_v, float, t->n_params);
    TAKE(t->P, float, (long)n * d);
    TAKE(t->tokens, int, n);
    TAKE(t->targets, int, n);
    TAKE(t->part, int, n);
    TAKE(t->induct, int, n);
    for (int l = 0; l <= s->layers; l++) TAKE(t->X[l], float, (long)n * d);
    for (int h = 0; h < heads; h++) {
        TAKE(t->Q[h], float, (long)n * dh);
        TAKE(t->K[h], float, (long)n * dh);
        TAKE(t->V[h], float, (long)n * dh);
        TAKE(t->O[h], float, (long)n * dh);
        TAKE(t->S[h], float, (long)n * n);
        TAKE(t->A[h], float, (long)n * n);
        TAKE(t->C[h], float, (long)n * d);
    }
    TAKE(t->Kt, float, (long)dh * n);
    TAKE(t->probs, float, (long)n * s->vocab);
    TAKE(t->dX, float, (long)n * d);
    TAKE(t->dXnext, float, (long)n * d);
    TAKE(t->dXh, float, (long)n * d);
    TAKE(t->dO, float, (long)n * dh);
    TAKE(t->dQ, float, (long)n * dh);
    TAKE(t->dK, float, (long)n * dh);
    TAKE(t->dV, float, (long)n * dh);
    TAKE(t->dA, float, (long)n * n);
    TAKE(t->dS, float, (long)n * n);
#undef TAKE
    if (base) {
        /* the parameters lie one after another: E, then Wq, Wk, Wv, Wo of each head */
        float *p = t->params, *g = t->grads;
        t->E = p, t->dE = g;
        p += (long)s->vocab * d, g += (long)s->vocab * d;
        for (int h = 0; h < heads; h++) {
            t->Wq[h] = p, t->dWq[h] = g, p += (long)d * dh, g += (long)d * dh;
            t->Wk[h] = p, t->dWk[h] = g, p += (long)d * dh, g += (long)d * dh;
            t->Wv[h] = p, t->dWv[h] = g, p += (long)d * dh, g += (long)d * dh;
            t->Wo[h] = p, t->dWo[h] = g, p += (long)dh * d, g += (long)dh * d;
        }
    }
    return at;
}

long ind_memory_bytes(const ind_shape *s)
{
    if (!shape_ok(s)) return 0;
    ind_model t;
    memset(&t, 0, sizeof t);
    t.s = *s;
    return layout(&t, NULL) + 15; /* room to align the caller's block to 16 bytes */
}

/* ---------------------------------------------------------------- init, reset, settings */

void ind_reset(ind_model *t)
{
    const ind_shape *s = &t->s;
    int d = s->d, dh = s->dh, heads = s->layers * s->heads;
    uint32_t rng = t->seed;
    /* Uniform in [-a, a) with variance a²/3. Embeddings: entries of size about 1, like the
     * positions they are added to. Wq, Wk, Wv: 1/sqrt(d) keeps each Q, K, V entry near size 1, so
     * the first scores (scaled by 1/sqrt(dh)) are near 1 and the first patterns near uniform.
     * Wo: 1/sqrt(dh), its fan-in, as usual. */
    const float a_embed = 1.0f, a_in = sqrtf(3.0f / (float)d), a_out = sqrtf(3.0f / (float)dh);
    for (long e = 0; e < (long)s->vocab * d; e++) t->E[e] = learn_uniform(&rng, a_embed);
    for (int h = 0; h < heads; h++) {
        for (long e = 0; e < (long)d * dh; e++) t->Wq[h][e] = learn_uniform(&rng, a_in);
        for (long e = 0; e < (long)d * dh; e++) t->Wk[h][e] = learn_uniform(&rng, a_in);
        for (long e = 0; e < (long)d * dh; e++) t->Wv[h][e] = learn_uniform(&rng, a_in);
        for (long e = 0; e < (long)dh * d; e++) t->Wo[h][e] = learn_uniform(&rng, a_out);
    }
    memset(t->grads, 0, sizeof(float) * (size_t)t->n_params);
    memset(t->adam_m, 0, sizeof(float) * (size_t)t->n_params);
    memset(t->adam_v, 0, sizeof(float) * (size_t)t->n_params);
    t->data_rng = data_seed(t->seed);
    t->step = 0;
    t->loss = t->loss_first = t->loss_repeat = NAN; /* no step yet */
}

void ind_reroll(ind_model *t, uint32_t seed)
{
    t->seed = seed;
    ind_reset(t);
}

int ind_set(ind_model *t, float lr, float weight_decay, int batch)
{
    if (!(lr > 0.0f) || lr > 1.0f || !(weight_decay >= 0.0f) || weight_decay * lr >= 1.0f) return IND_ERR_LR;
    if (batch < 1 || batch > IND_MAX_BATCH) return IND_ERR_SHAPE;
    t->lr = lr;
    t->weight_decay = weight_decay;
    t->batch = batch;
    return ATTN_OK;
}

void ind_ablate(ind_model *t, unsigned mask)
{
    int heads = t->s.layers * t->s.heads;
    t->ablated = heads >= 32 ? mask : mask & ((1u << heads) - 1u);
}

int ind_init(ind_model *t, void *memory, long bytes, const ind_shape *s, uint32_t seed)
{
    if (!t || !memory || !s) return ATTN_ERR_NULL;
    if (!shape_ok(s)) return IND_ERR_SHAPE;
    if (bytes < ind_memory_bytes(s)) return IND_ERR_MEMORY;
    memset(t, 0, sizeof *t);
    t->s = *s;
    t->scale = attn_default_scale(s->dh);
    t->out_scale = 1.0f / sqrtf((float)s->d);
    unsigned char *base = (unsigned char *)memory;
    base += (16 - (uintptr_t)base % 16) % 16;
    LEARN_UNPOISON(base, layout(t, NULL)); /* the guards of an earlier model here */
    layout(t, base);
    /* the fixed positions: one (sin, cos) pair per frequency, from fast to slow */
    for (int i = 0; i < s->n; i++)
        for (int f = 0; f < s->d / 2; f++) {
            float w = powf(10000.0f, -2.0f * (float)f / (float)s->d);
            t->P[(long)i * s->d + 2 * f] = sinf((float)i * w);
            t->P[(long)i * s->d + 2 * f + 1] = cosf((float)i * w);
        }
    ind_set(t, 0.01f, 0.01f, 16);
    ind_reroll(t, seed);
    return ATTN_OK;
}

/* ---------------------------------------------------------------- one sequence */

/* Pass 2 on the sequence in t->tokens: fills X, the heads' activations and, where a prediction
 * is made, probs; adds the summed cross-entropy per part to loss[IND_FIRST], loss[IND_REPEAT],
 * their counts to count[], repeated-part argmax hits to *correct. With grad != 0 probs then holds
 * dLoss/dlogits (p - onehot) instead of p. */
static int forward(ind_model *t, int grad, double loss[3], long count[3], long *correct)
{
    const ind_shape *s = &t->s;
    int n = s->n, d = s->d, dh = s->dh, H = s->heads, vocab = s->vocab;

    /* the embedding: a token's learned row plus its position's fixed row */
    for (int i = 0; i < n; i++) {
        const float *e = t->E + (long)t->tokens[i] * d, *p = t->P + (long)i * d;
        float *x = t->X[0] + (long)i * d;
        for (int c = 0; c < d; c++) x[c] = e[c] + p[c];
    }
    for (int l = 0; l < s->layers; l++) {
        /* every head of layer l reads X_l; the stream after the layer is X_l plus what they write */
        memcpy(t->X[l + 1], t->X[l], sizeof(float) * (size_t)n * (size_t)d);
        for (int h = 0; h < H; h++) {
            int lh = l * H + h;
            int st = attn_project(t->Q[lh], t->K[lh], t->V[lh], t->X[l], t->X[l], t->Wq[lh], t->Wk[lh], t->Wv[lh], n, n,
                                  d, dh, dh);
            if (st == ATTN_OK)
                st = attn_sdpa(t->S[lh], t->A[lh], t->O[lh], t->Kt, t->Q[lh], t->K[lh], t->V[lh], NULL, 1, t->scale,
                               n, n, dh, dh);
            if (st != ATTN_OK) return st;
            attn_linear(t->C[lh], t->O[lh], t->Wo[lh], n, dh, d, 0); /* C = O·Wo */
            if (t->ablated >> lh & 1u) continue;                     /* an ablated head writes nothing */
            float *x = t->X[l + 1];
            for (long e = 0; e < (long)n * d; e++) x[e] += t->C[lh][e];
        }
    }
    /* the unembedding, then per position the softmax over the vocabulary and the loss */
    attn_linear(t->probs, t->X[s->layers], t->E, n, d, vocab, ATTN_W_T); /* X_L·Eᵀ */
    for (long e = 0; e < (long)n * vocab; e++) t->probs[e] *= t->out_scale;  /* logits = X_L·Eᵀ/sqrt(d) */
    for (int i = 0; i < n; i++) {
        float *p_i = t->probs + (long)i * vocab;
        int target = t->targets[i];
        if (target < 0) {
            memset(p_i, 0, sizeof(float) * (size_t)vocab); /* no prediction here: no gradient */
            continue;
        }
        /* max subtracted; the loss is log(sum) - (logit - max), finite even when p underflows */
        float max = -INFINITY;
        int best = 0;
        for (int v = 0; v < vocab; v++)
            if (p_i[v] > max) max = p_i[v], best = v;
        if (!isfinite(max)) return ATTN_ERR_OVERFLOW;
        float target_logit = p_i[target] - max, sum = 0.0f;
        for (int v = 0; v < vocab; v++) sum += (p_i[v] = expf(p_i[v] - max));
        for (int v = 0; v < vocab; v++) p_i[v] /= sum;
        int part = t->part[i];
        loss[part] += logf(sum) - target_logit;
        count[part]++;
        if (part == IND_REPEAT) *correct += best == target;
        if (grad) p_i[target] -= 1.0f; /* pass 3 starts here: dLoss/dlogits = p - onehot(target) */
    }
    return ATTN_OK;
}

/* Pass 3 after forward(t, 1, ...): adds this sequence's gradients (summed over its predictions,
 * not yet averaged) to t->grads. */
static int backward(ind_model *t)
{
    const ind_shape *s = &t->s;
    int n = s->n, d = s->d, dh = s->dh, H = s->heads, vocab = s->vocab;

    /* the unembedding. Forward: "logits = X_L·Eᵀ/sqrt(d)": dLoss/d(X_L·Eᵀ) = dlogits/sqrt(d), and
     * E gets its share as the unembedding here, and as the embedding at the end */
    for (long e = 0; e < (long)n * vocab; e++) t->probs[e] *= t->out_scale;
    attn_linear_backward(t->dX, t->dE, t->probs, t->X[s->layers], t->E, n, d, vocab, ATTN_W_T);

    /* the layers in reverse. Forward: "X_{l+1} = X_l + sum_h C_lh" with C_lh = O_lh·Wo_lh and
     * O_lh = head(X_l). The residual path hands dX_{l+1} straight to dX_l, and every head adds
     * what flows back through it. */
    for (int l = s->layers - 1; l >= 0; l--) {
        memcpy(t->dXnext, t->dX, sizeof(float) * (size_t)n * (size_t)d); /* the residual path */
        for (int h = 0; h < H; h++) {
            int lh = l * H + h;
            if (t->ablated >> lh & 1u) continue; /* it wrote nothing, so nothing flows back */
            /* C = O·Wo: dWo += Oᵀ·dC and dO = dC·Woᵀ, where dC = dX_{l+1} */
            attn_linear_backward(t->dO, t->dWo[lh], t->dX, t->O[lh], t->Wo[lh], n, dh, d, 0);
            /* the head itself; dXh is its input's gradient, dX_l gets it added */
            int st = attn_backward(t->dXh, t->dWq[lh], t->dWk[lh], t->dWv[lh], t->dQ, t->dK, t->dV, t->dA, t->dS,
                                   t->dO, t->X[l], t->Wq[lh], t->Wk[lh], t->Wv[lh], t->Q[lh], t->K[lh], t->V[lh],
                                   t->A[lh], NULL, 1, t->scale, n, d, dh, dh);
            if (st != ATTN_OK) return st;
            for (long e = 0; e < (long)n * d; e++) t->dXnext[e] += t->dXh[e];
        }
        float *swap = t->dX; /* dX now holds dLoss/dX_l */
        t->dX = t->dXnext;
        t->dXnext = swap;
    }

    /* the embedding. Forward: "x[c] = e[c] + p[c]": each token's row of E gets its positions'
     * gradients; P is fixed and gets none. */
    for (int i = 0; i < n; i++) {
        float *de = t->dE + (long)t->tokens[i] * d;
        const float *dx = t->dX + (long)i * d;
        for (int c = 0; c < d; c++) de[c] += dx[c];
    }
    return ATTN_OK;
}

/* ---------------------------------------------------------------- training */

int ind_steps(ind_model *t, int k, float *losses)
{
    if (!t || !t->params) return ATTN_ERR_NULL;
    for (int s = 0; s < k; s++) {
        memset(t->grads, 0, sizeof(float) * (size_t)t->n_params); /* the step's sums start at 0 */
        double loss[3] = {0, 0, 0};
        long count[3] = {0, 0, 0}, correct = 0;
        for (int b = 0; b < t->batch; b++) {
            draw_sequence(t, &t->data_rng);
            int st = forward(t, 1, loss, count, &correct);
            if (st == ATTN_OK) st = backward(t);
            if (st != ATTN_OK) return st;
        }
        /* the loss is a mean over every prediction, so its gradient is the sum over their count */
        long all = count[IND_FIRST] + count[IND_REPEAT];
        float inv = 1.0f / (float)all;
        for (long e = 0; e < t->n_params; e++) t->grads[e] *= inv;
        t->loss = (float)((loss[IND_FIRST] + loss[IND_REPEAT]) / (double)all);
        t->loss_first = (float)(loss[IND_FIRST] / (double)count[IND_FIRST]);
        t->loss_repeat = (float)(loss[IND_REPEAT] / (double)count[IND_REPEAT]);
        t->step++;
        learn_adamw(t->params, t->adam_m, t->adam_v, t->grads, t->n_params, t->step, t->lr, t->weight_decay);
        if (losses) {
            losses[2 * s] = t->loss_first;
            losses[2 * s + 1] = t->loss_repeat;
        }
    }
    return ATTN_OK;
}

int ind_evaluate(ind_model *t, float *out)
{
    if (!t || !t->params || !out) return ATTN_ERR_NULL;
    const ind_shape *s = &t->s;
    int n = s->n, heads = s->layers * s->heads;
    uint32_t rng = HELD_OUT_SEED;
    double loss[3] = {0, 0, 0}, prev[IND_MAX_LAYERS * IND_MAX_HEADS] = {0}, ind[IND_MAX_LAYERS * IND_MAX_HEADS] = {0};
    long count[3] = {0, 0, 0}, correct = 0, prev_count = 0, ind_count = 0;
    for (int q = 0; q < IND_EVAL_SEQUENCES; q++) {
        draw_sequence(t, &rng);
        int st = forward(t, 0, loss, count, &correct);
        if (st != ATTN_OK) return st;
        for (int h = 0; h < heads; h++) {
            const float *A = t->A[h];
            for (int i = 1; i < n; i++) prev[h] += A[(long)i * n + i - 1];
            for (int i = 0; i < n; i++) /* every key right after an earlier occurrence of token i */
                if (t->induct[i] >= 0)
                    for (int j = t->induct[i]; j > 1; j -= t->k) ind[h] += A[(long)i * n + j];
        }
        prev_count += n - 1;
        for (int i = 0; i < n; i++) ind_count += t->induct[i] >= 0;
    }
    out[0] = (float)(loss[IND_FIRST] / (double)count[IND_FIRST]);
    out[1] = (float)(loss[IND_REPEAT] / (double)count[IND_REPEAT]);
    out[2] = (float)((double)correct / (double)count[IND_REPEAT]);
    for (int h = 0; h < heads; h++) {
        out[3 + 2 * h] = (float)(prev[h] / (double)prev_count);
        out[4 + 2 * h] = (float)(ind[h] / (double)ind_count);
    }
    return ATTN_OK;
}

int ind_composition(const ind_model *t, float *out)
{
    if (!t || !t->params || !out) return ATTN_ERR_NULL;
    const ind_shape *s = &t->s;
    if (s->layers < 2) return ATTN_OK;
    int d = s->d, dh = s->dh, H = s->heads;
    /* in double: the norms are sums of d² squares, and the score is a ratio of such sums */
    static double qk[IND_MAX_D * IND_MAX_D], ov[IND_MAX_HEADS][IND_MAX_D * IND_MAX_D];
    double ov_norm[IND_MAX_HEADS];
    for (int a = 0; a < H; a++) { /* W_OV = Wv·Wo [d, d] of each layer-0 head */
        double sum = 0;
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++) {
                double x = 0;
                for (int c = 0; c < dh; c++) x += (double)t->Wv[a][i * dh + c] * t->Wo[a][c * d + j];
                ov[a][i * d + j] = x;
                sum += x * x;
            }
        ov_norm[a] = sqrt(sum);
    }
    for (int b = 0; b < H; b++) {
        int lb = H + b;
        double qk_sq = 0; /* W_QK = Wq·Wkᵀ [d, d] of layer-1 head b: score = x_i·W_QK·x_jᵀ */
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++) {
                double x = 0;
                for (int c = 0; c < dh; c++) x += (double)t->Wq[lb][i * dh + c] * t->Wk[lb][j * dh + c];
                qk[i * d + j] = x;
                qk_sq += x * x;
            }
        for (int a = 0; a < H; a++) {
            /* a key row x_j carries head a's write x·W_OV^a, so the scores read
             * x_i·W_QK·(x·W_OV^a)ᵀ = x_i·(W_QK·(W_OV^a)ᵀ)·xᵀ */
            double sq = 0;
            for (int i = 0; i < d; i++)
                for (int j = 0; j < d; j++) {
                    double x = 0;
                    for (int c = 0; c < d; c++) x += qk[i * d + c] * ov[a][j * d + c];
                    sq += x * x;
                }
            double den = sqrt(qk_sq) * ov_norm[a];
            out[a * H + b] = den > 0 ? (float)(sqrt(sq) / den) : 0.0f;
        }
    }
    return ATTN_OK;
}

int ind_example(ind_model *t, uint32_t seed)
{
    if (!t || !t->params) return -ATTN_ERR_NULL;
    uint32_t rng = seed;
    draw_sequence(t, &rng);
    double loss[3] = {0, 0, 0};
    long count[3] = {0, 0, 0}, correct = 0;
    int st = forward(t, 0, loss, count, &correct);
    return st == ATTN_OK ? t->s.n : -st;
}

int ind_key_split(const ind_model *t, int layer, int head, float *parts)
{
    if (!t || !t->params || !parts) return -ATTN_ERR_NULL;
    const ind_shape *s = &t->s;
    if (layer < 0 || layer >= s->layers || head < 0 || head >= s->heads) return -IND_ERR_SHAPE;
    int n = s->n, d = s->d, dh = s->dh, H = s->heads;
    const float *Wk = t->Wk[layer * H + head];
    long size = (long)n * dh;
    attn_linear(parts, t->X[0], Wk, n, d, dh, 0); /* embedding and position */
    for (int lh = 0; lh < layer * H; lh++) {
        float *part = parts + (1 + lh) * size;
        if (t->ablated >> lh & 1u) memset(part, 0, sizeof(float) * (size_t)size);
        else attn_linear(part, t->C[lh], Wk, n, d, dh, 0);
    }
    return 1 + layer * H;
}
