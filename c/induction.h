/*
 * induction.h: a small attention-only transformer, trained on sequences that repeat, in which an
 * induction head forms: a layer-2 head that finds the earlier occurrence of the current token and
 * copies the token that followed it (Olsson et al., 2022, "In-context learning and induction
 * heads"). Every head is the single head of attention.h, so the explorer can open any of them.
 *
 * Shapes use the legend of attention.h (n tokens, d model width), plus
 *   L       layers (1 or 2: one layer is the control, which cannot form an induction head)
 *   H       heads per layer            dh   the lesson's dk = dv: the width of each head's Q, K and V
 *   vocab   the task's vocabulary
 *
 * The model, for one sequence of n tokens:
 *   X0 = E[token] + P                  [n, d]   token embedding (learned) plus position (fixed)
 *   for layer l = 0 .. L-1:
 *     O_lh = head(X_l; Wq_lh, Wk_lh, Wv_lh)   [n, dh]  causal, scale 1/sqrt(dh): attn_project
 *                                                     then attn_sdpa, each head on its own
 *     C_lh = O_lh·Wo_lh                [n, d]   what head lh writes into the residual stream
 *     X_{l+1} = X_l + sum_h C_lh       [n, d]   the residual stream: every head of a layer reads
 *                                               X_l and adds its C to it; no MLP, no LayerNorm
 *   logits = X_L·Eᵀ/sqrt(d)            [n, vocab]   the unembedding, tied to the embedding: a
 *                                                   head that copies a token's embedding into the
 *                                                   stream raises that token's logit. Like a
 *                                                   head's scores, these are dot products of two
 *                                                   wide vectors, scaled by 1/sqrt(width) so that
 *                                                   random ones start near 1 (the loss starts
 *                                                   near ln(vocab), not far above it)
 *   loss = mean cross-entropy of softmax(logits[i]) against token i+1, over i = 0 .. n-2
 *
 * Positions are fixed sinusoids, P[i][2f] = sin(i·w_f), P[i][2f+1] = cos(i·w_f) with
 * w_f = 10000^(-2f/d), not learned: the position one step back is a fixed rotation of each
 * (sin, cos) pair, so "look at the previous token" is one Wq·Wkᵀ that works at every position
 * (a learned table would have to discover it position by position), and there are n·d fewer
 * numbers to learn. The anchor we compare with freezes sinusoids too.
 *
 * The task (repeated random tokens): BOS, then k different random words, then the same k words
 * again and again until the sequence is full. k is drawn per sequence, uniform in
 * [max(2, n/8), max(2, n/4)] (4 to 8 for n = 32), so no fixed positional offset finds the repeat,
 * and at least three periods fit after BOS (two when n is 5 or 6): most predictions are repeats.
 *   first part     predictions at i = 0 .. k: the current token (BOS or a word of the first
 *                  period) has not occurred before, so there is no earlier copy to find. The
 *                  next word is mostly unpredictable: for i < k it is a word not seen yet, and
 *                  at i = k it is word 1 again, but nothing says the period ends there. The best
 *                  a model can do on this part is about 2.96 nats a token, against ln 27 = 3.30
 *                  for a uniform guess (web/induction/words.js bestFirstLoss).
 *   repeated part  predictions at i > k: token i occurred before, at i - k, and the answer is
 *                  the token that followed it, at key i - k + 1: an induction head attends there
 *                  (or after an older copy, i - 2k + 1, ..., which holds the same token) and
 *                  copies it. Words are all different within a period, so the answer is unique.
 * Why the words do not repeat at random inside a period: with 27 words, a word drawn twice would
 * make the predictions after it ambiguous (two different next words): about a sixth of the
 * repeated predictions with k from 4 to 8 (1 - (26/27)^(k-1), averaged). Why the period is
 * repeated to the end rather than followed by fresh random tokens: fresh tokens would again be
 * words not seen yet, so "the next word is one already seen" would be false as often as true,
 * and a model cannot take its first step towards copying (attend back, copy what is there)
 * before it can tell the parts apart; that stalls the circuit for thousands of steps.
 *
 * Scores (over a fixed held-out set of sequences, see ind_evaluate):
 *   previous-token score of a head  mean of A[i][i-1] over i >= 1
 *   induction score of a head       mean over the queries of the repeated part of the weight on
 *                                   every key right after an earlier occurrence of token i
 *                                   (i - k + 1, i - 2k + 1, ...): Olsson's prefix-matching score
 *   K-composition of heads a -> b   ||W_QK^b · (W_OV^a)ᵀ||_F / (||W_QK^b||_F · ||W_OV^a||_F),
 *                                   W_QK = Wq·Wkᵀ, W_OV = Wv·Wo (both [d, d]): how much head b's
 *                                   keys read what head a writes (Elhage et al., 2021)
 *
 * Memory: nothing here allocates. ind_memory_bytes() says how much one model needs and
 * ind_init() lays every buffer out in the block the caller gives it (16-byte aligned); the
 * caller keeps that block alive as long as the model and frees it afterwards.
 * No function prints or exits; every failure is a status code (attention.h's, or these).
 */
#ifndef INDUCTION_H
#define INDUCTION_H

#include "attention.h"

#include <stdint.h>

#define IND_MAX_LAYERS 2
#define IND_MAX_HEADS  4   /* H */
#define IND_MAX_D      64  /* d */
#define IND_MAX_HEAD_D 32  /* dh */
#define IND_MAX_TOKENS 64  /* n */
#define IND_MAX_VOCAB  64
#define IND_MAX_BATCH  64
#define IND_EVAL_SEQUENCES 64 /* held-out sequences ind_evaluate averages over */

enum {
    IND_ERR_SHAPE = 32,  /* a size is out of range, or vocab - 1 < max(2, n/4) (a period needs that many
                            different words), or batch out of range */
    IND_ERR_MEMORY = 33, /* the block given to ind_init is smaller than ind_memory_bytes() */
    IND_ERR_LR = 34      /* the learning rate or weight decay is not a finite number in range */
};

/* Token 0 is BOS, the start of every sequence. */
#define IND_BOS 0

/* Which part of the task a prediction belongs to (ind_model.part). */
enum { IND_NONE = 0, IND_FIRST = 1, IND_REPEAT = 2 };

typedef struct {
    int layers, heads, d, dh, n, vocab;
} ind_shape;

/* One model. The fields are readable; change the settings through ind_set and everything else
 * only through the functions below. */
typedef struct {
    ind_shape s;
    float scale;     /* 1/sqrt(dh): the heads' score scale */
    float out_scale; /* 1/sqrt(d): the unembedding's */
    /* settings */
    float lr, weight_decay; /* AdamW */
    int batch;              /* sequences per step */
    unsigned ablated;       /* bit l*H + h set: head (l, h) writes nothing into the stream */
    /* state */
    uint32_t seed, data_rng;
    long step;
    float loss, loss_first, loss_repeat; /* the last step's batch, before its update */
    /* parameters, one block so the optimizer is one loop: E, then per head Wq, Wk, Wv, Wo */
    long n_params;
    float *params, *grads, *adam_m, *adam_v;
    float *E;                                          /* [vocab, d] token embedding */
    float *Wq[IND_MAX_LAYERS * IND_MAX_HEADS];         /* [d, dh] each, head l*H + h */
    float *Wk[IND_MAX_LAYERS * IND_MAX_HEADS];         /* [d, dh] */
    float *Wv[IND_MAX_LAYERS * IND_MAX_HEADS];         /* [d, dh] */
    float *Wo[IND_MAX_LAYERS * IND_MAX_HEADS];         /* [dh, d] */
    float *dE;                                         /* the same views into grads */
    float *dWq[IND_MAX_LAYERS * IND_MAX_HEADS], *dWk[IND_MAX_LAYERS * IND_MAX_HEADS];
    float *dWv[IND_MAX_LAYERS * IND_MAX_HEADS], *dWo[IND_MAX_LAYERS * IND_MAX_HEADS];
    float *P; /* [n, d] the fixed positions */
    /* one sequence: its task data, activations and scratch, reused for every sequence */
    int *tokens;  /* [n] */
    int *targets; /* [n] token i+1, or -1 at the last position */
    int *part;    /* [n] IND_FIRST, IND_REPEAT or IND_NONE */
    int *induct;  /* [n] the key an induction head should attend to (i - k + 1), or -1 */
    int k;        /* the period: the number of different words */
    float *X[IND_MAX_LAYERS + 1]; /* [n, d] the residual stream before layer l; X[L] is read out */
    float *Q[IND_MAX_LAYERS * IND_MAX_HEADS], *K[IND_MAX_LAYERS * IND_MAX_HEADS];  /* [n, dh] */
    float *V[IND_MAX_LAYERS * IND_MAX_HEADS], *O[IND_MAX_LAYERS * IND_MAX_HEADS];  /* [n, dh] */
    float *S[IND_MAX_LAYERS * IND_MAX_HEADS], *A[IND_MAX_LAYERS * IND_MAX_HEADS];  /* [n, n] */
    float *C[IND_MAX_LAYERS * IND_MAX_HEADS];                                      /* [n, d] */
    float *Kt;    /* [dh, n] scratch for attn_sdpa */
    float *probs; /* [n, vocab] softmax of the logits, then dLoss/dlogits */
    float *dX, *dXnext, *dXh; /* [n, d] the residual stream's gradient, and one head's share */
    float *dO, *dQ, *dK, *dV; /* [n, dh] */
    float *dA, *dS;           /* [n, n] */
} ind_model;

/* Bytes one model of this shape needs; 0 when the shape is out of range. */
long ind_memory_bytes(const ind_shape *s);

/* Lays the model out in memory (at least ind_memory_bytes(s) bytes) and draws the initial
 * weights from seed. Starts with lr 0.01, weight decay 0.01, batch 16, nothing ablated. */
int ind_init(ind_model *t, void *memory, long bytes, const ind_shape *s, uint32_t seed);

/* Back to the initial weights and training stream of t->seed; optimizer state and step count
 * cleared; settings (lr, weight decay, batch, ablation) kept. */
void ind_reset(ind_model *t);

/* ind_reset with a new seed. */
void ind_reroll(ind_model *t, uint32_t seed);

/* Changes the settings; returns IND_ERR_LR or IND_ERR_SHAPE (batch) without changing any. */
int ind_set(ind_model *t, float lr, float weight_decay, int batch);

/* Which heads write nothing into the residual stream (bit l*H + h), for every later forward
 * pass: training steps, ind_evaluate and ind_example. Bits past L*H are ignored. */
void ind_ablate(ind_model *t, unsigned mask);

/* k training steps. Each draws t->batch sequences, runs forward and backward on each, averages
 * the gradients over the batch's predictions (t->grads is overwritten each step) and takes one
 * AdamW step. losses [2k] (or NULL) gets each step's first-part and repeated-part batch loss,
 * interleaved. On an error the parameters keep the last good update and the code is returned. */
int ind_steps(ind_model *t, int k, float *losses);

/* Forward passes over IND_EVAL_SEQUENCES held-out sequences (a fixed stream, the same for every
 * seed, that training never draws from), with the current ablation:
 *   out[0] first-part loss, out[1] repeated-part loss, out[2] repeated-part accuracy (argmax),
 *   then per head (l*H + h): out[3 + 2·head] previous-token score, out[4 + 2·head] induction score.
 * out holds 3 + 2·L·H floats. */
int ind_evaluate(ind_model *t, float *out);

/* K-composition scores from every head a of layer 0 to every head b of layer 1:
 * out[a*H + b], H·H floats (nothing is written for one layer); 0 where either norm is 0. */
int ind_composition(const ind_model *t, float *out);

/* One sequence of the task from its own seed (not the training stream), run forward with the
 * current weights and ablation; afterwards t->tokens, targets, part, induct, k, X, Q, K,
 * V, S, A, O, C and probs hold it. Returns its length n, or minus a status code. */
int ind_example(ind_model *t, uint32_t seed);

/* After ind_example: head (l, h)'s keys split by where its input came from. Its input X_l is
 * X0 + the C of every head of the layers before l, and K = X_l·Wk is linear, so
 *   part 0 = X0·Wk (embedding and position), part 1 + l'*H + h' = C_{l'h'}·Wk for l' < l.
 * parts holds (1 + l·H) matrices [n, dh] one after another; their sum is K up to float32
 * rounding (an ablated head's part is all 0). Returns the number of parts, or minus a status. */
int ind_key_split(const ind_model *t, int layer, int head, float *parts);

/* A token's name, for showing: "BOS", "A", "B", ... */
const char *ind_token_name(int token);

#endif
