/*
 * train.h: train one attention head (Wq, Wk, Wv) and a linear read-out by gradient descent on a
 * small built-in task whose right attention pattern is known, so a learner can watch it appear.
 *
 * Shapes use the legend of attention.h (n tokens, d model width, dk, dv), plus
 *   vocab   the task's vocabulary size
 *
 * The model, for one sequence of n tokens (m = n: self-attention, causal):
 *   X      [n, d]       one-hot token (vocab columns), then one-hot position (if the task has it)
 *   O      [n, dv]      the head: attn_project then attn_sdpa (attention.h)
 *   logits [n, vocab]   = O·Wout, the read-out: which token the head's output points at
 *   loss               cross-entropy of softmax(logits[i]) against the task's target at each
 *                      position that has one, averaged over those positions and the batch
 *
 * The tasks (targets and the "right" key each query should attend to):
 *   TRAIN_PREVIOUS_TOKEN  random tokens A..F, n = 8; at every position i >= 1 predict token i-1.
 *                         The right key for query i is i-1: a previous-token head.
 *   TRAIN_FIND_NOUN       "the cat sat on the": 4 to 8 words, a noun (cat, dog, bird, fox)
 *                         after a "the", fillers, and a last "the" that must predict that noun.
 *                         When there is room, a second, different noun comes earlier as a
 *                         distractor ("dog ran the cat on the" predicts "cat"). The right key
 *                         for the last query is the last noun; X has position columns, since
 *                         the two nouns' words alone do not say which came last.
 *
 * Memory: nothing here allocates. train_memory_bytes() says how much one trainer needs and
 * train_init() lays every buffer out in the block the caller gives it (16-byte aligned); the
 * caller keeps that block alive as long as the train_state and frees it afterwards.
 * No function prints or exits; every failure is a status code.
 */
#ifndef TRAIN_H
#define TRAIN_H

#include "attention.h"

#include <stdint.h>

#define TRAIN_MAX_TOKENS 8   /* the longest training sequence, n */
#define TRAIN_MAX_VOCAB  16  /* vocab */
#define TRAIN_MAX_HEAD   16  /* dk and dv */
#define TRAIN_MAX_BATCH  256 /* sequences per step */
#define TRAIN_EVAL_SEQUENCES 256 /* held-out sequences that train_evaluate averages over */
#define TRAIN_MAX_D (TRAIN_MAX_VOCAB + TRAIN_MAX_TOKENS) /* d: one-hot token and position */
/* An upper bound on train_memory_bytes() for any task and head size, for callers that reserve
 * memory statically (tests check it holds): the parameters four times over (values, gradients,
 * two Adam moments) and one sequence's activations. */
#define TRAIN_MAX_MEMORY_BYTES                                                                   \
    (4 * (4 * (TRAIN_MAX_D * 3 * TRAIN_MAX_HEAD + TRAIN_MAX_HEAD * TRAIN_MAX_VOCAB) +           \
          12 * TRAIN_MAX_TOKENS * (TRAIN_MAX_D + TRAIN_MAX_HEAD + TRAIN_MAX_VOCAB)) + 64 * 16)

typedef enum { TRAIN_PREVIOUS_TOKEN = 0, TRAIN_FIND_NOUN = 1, TRAIN_TASK_COUNT = 2 } train_task;
typedef enum { TRAIN_SGD = 0, TRAIN_ADAM = 1 } train_optimizer;

/* Status codes: the attn_status values of attention.h (a forward pass that overflows returns
 * ATTN_ERR_OVERFLOW: the learning rate was too high), plus these. */
enum {
    TRAIN_ERR_TASK = 16,   /* no such task */
    TRAIN_ERR_SHAPE = 17,  /* dk or dv below 1 or past TRAIN_MAX_HEAD, or batch out of range */
    TRAIN_ERR_MEMORY = 18, /* the block given to train_init is smaller than train_memory_bytes() */
    TRAIN_ERR_LR = 19      /* the learning rate is not a positive finite number */
};

/* One trainer. The fields are readable; change lr, optimizer and batch directly or through
 * train_set(), and everything else only through the functions below. */
typedef struct {
    /* the task, fixed by train_init */
    int task, vocab, positions; /* positions: one-hot position columns in X (0 or n) */
    int n;                      /* the longest sequence: X, Q, ... are sized for it */
    int d, dk, dv;
    float scale; /* 1/sqrt(dk); the mask is causal */
    /* settings */
    float lr;
    int optimizer; /* train_optimizer */
    int batch;     /* sequences per step */
    /* state */
    uint32_t seed;     /* the init seed; the training data stream is derived from it */
    uint32_t data_rng; /* where the training sequence stream is */
    long step;         /* steps taken since init or reset */
    float loss;        /* the mean loss of the last step's batch (before its update) */
    /* parameters, one block so the optimizer is one loop: Wq, Wk, Wv, Wout */
    long n_params;
    float *params, *grads, *adam_m, *adam_v; /* [n_params] each */
    float *Wq, *Wk;                          /* [d, dk] views into params */
    float *Wv;                               /* [d, dv] */
    float *Wout;                             /* [dv, vocab] */
    float *dWq, *dWk, *dWv, *dWout;          /* the same views into grads: the last step's mean gradient */
    /* one sequence's activations and scratch, reused for every sequence */
    int *tokens;  /* [n] */
    int *targets; /* [n] the token to predict at each position, or -1 for none */
    int *right;   /* [n] the key each query should attend to, or -1 */
    float *X;     /* [n, d] */
    float *Q, *K, *V, *Kt, *S, *A, *O;    /* [n, dk], [n, dk], [n, dv], [dk, n], [n, n], [n, n], [n, dv] */
    float *probs;                         /* [n, vocab] softmax of the logits, then dLoss/dlogits */
    float *dO, *dQ, *dK, *dV, *dA, *dS;   /* [n, dv], [n, dk], [n, dk], [n, dv], [n, n], [n, n] */
} train_state;

/* Bytes one trainer needs for a task and head size; 0 when the task or the sizes are invalid. */
long train_memory_bytes(int task, int dk, int dv);

/* Lays the trainer out in memory (at least train_memory_bytes(task, dk, dv) bytes) and draws
 * the initial weights from seed. Starts with Adam, lr 0.02, batch 16. */
int train_init(train_state *t, void *memory, long bytes, int task, int dk, int dv, uint32_t seed);

/* Back to the same initial weights and the same training sequence stream as train_init with
 * t->seed; the optimizer's state and the step count are cleared. Settings are kept. */
void train_reset(train_state *t);

/* Like train_reset, with a new seed (new initial weights and a new data stream). */
void train_reroll(train_state *t, uint32_t seed);

/* Changes the settings; returns TRAIN_ERR_LR or TRAIN_ERR_SHAPE (batch) without changing any. */
int train_set(train_state *t, float lr, int optimizer, int batch);

/* k training steps. Each step draws t->batch sequences from the stream, runs the head forward
 * on each, backward from the loss, sums the gradients in t->grads (overwritten each step, then
 * divided by the number of predicted positions), and updates the parameters.
 * losses [k] (or NULL) is overwritten with each step's batch loss. On an error the parameters
 * keep the last good update and the error code is returned. */
int train_steps(train_state *t, int k, float *losses);

/* The model on TRAIN_EVAL_SEQUENCES held-out sequences (a fixed stream that training never
 * draws from, the same for every seed): mean loss over predicted positions, mean attention
 * weight A[i][right[i]] on the right key over queries that have one, and the fraction of
 * predictions whose largest logit is the target. Any output pointer may be NULL. It uses t's
 * per-sequence buffers as scratch and changes nothing else. */
int train_evaluate(train_state *t, float *loss, float *attention_on_right, float *accuracy);

/* One sequence of the task from its own seed (not the training stream), for showing: writes
 * tokens [n], targets [n], right [n] and X [n, d] and returns its length n (at most t->n), or
 * -ATTN_ERR_NULL. For find-the-noun, seed 0 gives the widget page's "the cat sat on the". */
int train_example(const train_state *t, uint32_t seed, int *tokens, int *targets, int *right, float *X);

/* Names for showing: the task ("previous-token", "find-the-noun"), and its tokens. NULL when
 * out of range. Feature (column) f of X is token f for f < vocab, then position f - vocab. */
const char *train_task_name(int task);
const char *train_token_name(int task, int token);

#endif
