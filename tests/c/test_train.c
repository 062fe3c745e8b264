/*
 * test_train.c: native tests of c/train.h under AddressSanitizer and UBSan. The trainer gets a
 * heap block of exactly train_memory_bytes(), so a buffer laid out one element short, or a write
 * past one, is caught. Prints one line per test and "N passed, M failed".
 */
#include "train.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#include <sanitizer/asan_interface.h>

static void memory_needed_is_within_the_static_bound_for_every_task_and_head_size(void)
{
    long most = 0;
    for (int task = 0; task < TRAIN_TASK_COUNT; task++)
        for (int dk = 1; dk <= TRAIN_MAX_HEAD; dk++)
            for (int dv = 1; dv <= TRAIN_MAX_HEAD; dv++) {
                long b = train_memory_bytes(task, dk, dv);
                CHECK(b > 0 && b <= TRAIN_MAX_MEMORY_BYTES, "task %d dk %d dv %d needs %ld > %d", task, dk, dv, b,
                      TRAIN_MAX_MEMORY_BYTES);
                if (b > most) most = b;
            }
    /* and not far above: the Wasm reserves the bound statically for each of its 8 trainers */
    CHECK(2 * most >= TRAIN_MAX_MEMORY_BYTES, "the bound %d is more than twice the most any trainer needs (%ld)",
          TRAIN_MAX_MEMORY_BYTES, most);
    CHECK(train_memory_bytes(TRAIN_TASK_COUNT, 8, 8) == 0, "an unknown task needs no memory");
    CHECK(train_memory_bytes(0, 0, 8) == 0 && train_memory_bytes(0, 8, TRAIN_MAX_HEAD + 1) == 0, "bad head sizes");
}

static void init_refuses_bad_tasks_sizes_and_short_memory(void)
{
    train_state t;
    long b = train_memory_bytes(0, 8, 8);
    unsigned char *mem = malloc((size_t)b);
    CHECK(train_init(&t, mem, b, -1, 8, 8, 1) == TRAIN_ERR_TASK, "task -1");
    CHECK(train_init(&t, mem, b, 0, 0, 8, 1) == TRAIN_ERR_SHAPE, "dk 0");
    CHECK(train_init(&t, mem, b, 0, 8, 0, 1) == TRAIN_ERR_SHAPE, "dv 0");
    CHECK(train_init(&t, mem, b - 1, 0, 8, 8, 1) == TRAIN_ERR_MEMORY, "one byte short");
    CHECK(train_init(&t, NULL, b, 0, 8, 8, 1) == ATTN_ERR_NULL, "no memory");
    CHECK(train_init(&t, mem, b, 0, 8, 8, 1) == ATTN_OK, "good init");
    CHECK(train_set(&t, 0.0f, TRAIN_ADAM, 16) == TRAIN_ERR_LR && train_set(&t, NAN, TRAIN_ADAM, 16) == TRAIN_ERR_LR, "lr");
    CHECK(train_set(&t, 0.01f, TRAIN_ADAM, 0) == TRAIN_ERR_SHAPE && train_set(&t, 0.01f, 7, 16) == TRAIN_ERR_SHAPE, "batch, optimizer");
    CHECK(t.lr == 0.02f && t.batch == 16, "a refused train_set changes nothing");
    free(mem);
}

/* Exactly sized memory at an odd address (train_init aligns it), every task, a few hundred steps. */
static void every_task_learns_its_pattern_in_exactly_sized_unaligned_memory(void)
{
    for (int task = 0; task < TRAIN_TASK_COUNT; task++) {
        long b = train_memory_bytes(task, 8, 8);
        unsigned char *block = malloc((size_t)b + 1);
        train_state t;
        CHECK(train_init(&t, block + 1, b, task, 8, 8, 1) == ATTN_OK, "init");
        train_set(&t, 0.01f, TRAIN_ADAM, 16);
        float loss0, attn0, acc, loss, attn;
        train_evaluate(&t, &loss0, &attn0, &acc);
        CHECK(train_steps(&t, 300, NULL) == ATTN_OK, "steps");
        train_evaluate(&t, &loss, &attn, &acc);
        printf("    %s: held-out loss %.3f -> %.4f, attention on the right key %.3f -> %.3f, accuracy %.4f after 300 steps\n",
               train_task_name(task), loss0, loss, attn0, attn, acc);
        CHECK(loss < 0.1f && attn >= 0.9f, "%s: loss %g attention %g", train_task_name(task), loss, attn);
        /* a loss that low leaves no held-out guess wrong: every prediction counted, none twice */
        CHECK(acc == 1.0f, "%s: accuracy %.9g", train_task_name(task), acc);
        free(block);
    }
}

/* A learning rate far too high blows the weights up. Every step either succeeds with a finite
 * loss or returns an error: the read-out O·Wout passing float32 (with Q, K, V and the scores
 * still finite) once gave ATTN_OK with a NaN loss (found by tests/c/fuzz_train.c). */
static void a_diverging_step_is_an_error_never_a_nan_loss(void)
{
    for (int task = 0; task < TRAIN_TASK_COUNT; task++) {
        for (int dv = 1; dv <= TRAIN_MAX_HEAD; dv += 5) {
            long bytes = train_memory_bytes(task, 6, dv);
            void *memory = malloc((size_t)bytes);
            train_state t;
            CHECK(train_init(&t, memory, bytes, task, 6, dv, 7) == ATTN_OK, "init");
            CHECK(train_set(&t, 1e4f, TRAIN_SGD, 4) == ATTN_OK, "set");
            int st = ATTN_OK, s;
            for (s = 0; s < 200 && st == ATTN_OK; s++) {
                float loss = NAN;
                st = train_steps(&t, 1, &loss);
                if (st == ATTN_OK) CHECK(isfinite(loss) && loss >= 0.0f, "task %d dv %d step %d: status OK with loss %g", task, dv, s, loss);
            }
            CHECK(st == ATTN_ERR_OVERFLOW || st == ATTN_ERR_NONFINITE, "task %d dv %d: lr 1e4 never stopped (status %d after %d steps)", task, dv, st, s);
            free(memory);
        }
    }
}

static void steps_and_evaluate_refuse_a_null_or_uninitialised_trainer(void)
{
    float loss = 0, attn = 0, acc = 0;
    CHECK(train_steps(NULL, 1, NULL) == ATTN_ERR_NULL, "train_steps(NULL)");
    CHECK(train_evaluate(NULL, &loss, &attn, &acc) == ATTN_ERR_NULL, "train_evaluate(NULL)");
    train_state t;
    memset(&t, 0, sizeof t); /* never given to train_init: no parameters */
    CHECK(train_steps(&t, 1, NULL) == ATTN_ERR_NULL, "train_steps on a trainer with no parameters");
    CHECK(train_evaluate(&t, &loss, &attn, &acc) == ATTN_ERR_NULL, "train_evaluate on a trainer with no parameters");
}

/* train_example refuses a NULL trainer or any NULL array, and writes nothing then (with the
 * guard deleted, a mutant wrote through NULL: issue 31); with all of them given it gives n. */
static void example_refuses_a_null_trainer_or_array(void)
{
    long b = train_memory_bytes(TRAIN_PREVIOUS_TOKEN, 4, 4);
    void *block = malloc((size_t)b);
    train_state t;
    CHECK(train_init(&t, block, b, TRAIN_PREVIOUS_TOKEN, 4, 4, 1) == ATTN_OK, "init");
    int tok[TRAIN_MAX_TOKENS], tgt[TRAIN_MAX_TOKENS], right[TRAIN_MAX_TOKENS];
    static float X[TRAIN_MAX_TOKENS * TRAIN_MAX_D];
    CHECK(train_example(NULL, 1, tok, tgt, right, X) == -ATTN_ERR_NULL, "no trainer");
    CHECK(train_example(&t, 1, NULL, tgt, right, X) == -ATTN_ERR_NULL, "no tokens");
    CHECK(train_example(&t, 1, tok, NULL, right, X) == -ATTN_ERR_NULL, "no targets");
    CHECK(train_example(&t, 1, tok, tgt, NULL, X) == -ATTN_ERR_NULL, "no right keys");
    CHECK(train_example(&t, 1, tok, tgt, right, NULL) == -ATTN_ERR_NULL, "no X");
    int n = train_example(&t, 1, tok, tgt, right, X);
    CHECK(n >= 1 && n <= TRAIN_MAX_TOKENS, "all given: n = %d", n);
    free(block);
}

/* The first Adam steps, pinned against Adam written here in float64 from the trainer's own
 * gradients (t.grads keeps the last step's mean gradient): m = β1·m + (1−β1)·g,
 * v = β2·v + (1−β2)·g², p −= lr·(m/(1−β1^t)) / (√(v/(1−β2^t)) + ε). On the first step the bias
 * correction makes m̂/√v̂ = g/|g|, so every weight whose gradient is not tiny moves by lr exactly. */
static void adam_first_steps_match_a_float64_adam_and_the_first_moves_each_weight_by_lr(void)
{
    for (int task = 0; task < TRAIN_TASK_COUNT; task++) {
        long b = train_memory_bytes(task, 4, 3);
        void *mem = malloc((size_t)b);
        train_state t;
        CHECK(train_init(&t, mem, b, task, 4, 3, 77) == ATTN_OK, "init");
        const float lr = 0.01f;
        CHECK(train_set(&t, lr, TRAIN_ADAM, 8) == ATTN_OK, "set");
        long P = t.n_params;
        double *m = calloc((size_t)P, sizeof(double)), *v = calloc((size_t)P, sizeof(double));
        float *before = malloc(sizeof(float) * (size_t)P);
        const double b1 = 0.9f, b2 = 0.999f, eps = 1e-8f; /* the float32 constants, as the core has them */
        for (int step = 1; step <= 4; step++) {
            memcpy(before, t.params, sizeof(float) * (size_t)P);
            CHECK(train_steps(&t, 1, NULL) == ATTN_OK, "step %d", step);
            double worst = 0;
            long moved_by_lr = 0, checked = 0;
            for (long e = 0; e < P; e++) {
                double g = t.grads[e];
                m[e] = b1 * m[e] + (1 - b1) * g;
                v[e] = b2 * v[e] + (1 - b2) * g * g;
                double mh = m[e] / (1 - pow(b1, step)), vh = v[e] / (1 - pow(b2, step));
                double want = (double)before[e] - (double)lr * mh / (sqrt(vh) + eps);
                double err = fabs((double)t.params[e] - want);
                if (err > worst) worst = err;
                if (step == 1 && fabs(g) > 1e-5) {
                    checked++;
                    double moved = fabs((double)t.params[e] - before[e]);
                    moved_by_lr += fabs(moved - lr) <= 2e-3 * lr;
                }
            }
            /* float32 rounding of a parameter near 1 is 6e-8; the update itself is ~lr */
            CHECK(worst < 2e-7, "%s step %d: a parameter is %.3g away from float64 Adam", train_task_name(task), step, worst);
            if (step == 1)
                CHECK(checked > P / 2 && moved_by_lr == checked, "%s: %ld of %ld weights with a gradient moved by lr on the first Adam step",
                      train_task_name(task), moved_by_lr, checked);
        }
        free(m), free(v), free(before), free(mem);
    }
}

/* A step draws exactly `batch` sequences, in order, from the training stream: one step of a batch
 * of 3 leaves the stream where three steps of a batch of 1 leave it, and its loss is the mean of
 * theirs (a learning rate so small that the weights cannot move in between; every sequence of
 * these tasks has the same number of predictions, so the mean over predictions is this mean). */
static void a_step_averages_exactly_its_batch_drawn_in_order_from_the_stream(void)
{
    for (int task = 0; task < TRAIN_TASK_COUNT; task++) {
        long b = train_memory_bytes(task, 4, 4);
        void *ma = malloc((size_t)b), *mb = malloc((size_t)b);
        train_state ta, tb;
        train_init(&ta, ma, b, task, 4, 4, 5);
        train_init(&tb, mb, b, task, 4, 4, 5);
        CHECK(train_set(&ta, 1e-30f, TRAIN_SGD, 3) == ATTN_OK && train_set(&tb, 1e-30f, TRAIN_SGD, 1) == ATTN_OK, "set");
        float la, lb[3];
        CHECK(train_steps(&ta, 1, &la) == ATTN_OK && train_steps(&tb, 3, lb) == ATTN_OK, "steps");
        CHECK(ta.data_rng == tb.data_rng, "%s: a step of 3 and three steps of 1 end at different places of the stream", train_task_name(task));
        float mean = (lb[0] + lb[1] + lb[2]) / 3;
        CHECK(fabsf(la - mean) <= 1e-5f * mean, "%s: batch loss %.7g, mean of the three single losses %.7g", train_task_name(task), la, mean);
        CHECK(la == ta.loss && ta.step == 1 && tb.step == 3, "%s: loss %g / %g, steps %ld and %ld", train_task_name(task), la, ta.loss, ta.step, tb.step);
        free(ma), free(mb);
    }
}

/* Names for showing: every task and token by number, and NULL one past either end. */
static void task_and_token_names_and_null_out_of_range(void)
{
    CHECK(strcmp(train_task_name(TRAIN_PREVIOUS_TOKEN), "previous-token") == 0 && strcmp(train_task_name(TRAIN_FIND_NOUN), "find-the-noun") == 0, "task names");
    CHECK(!train_task_name(-1) && !train_task_name(TRAIN_TASK_COUNT), "a task out of range has no name");
    const char *noun[] = {"the", "cat", "dog", "bird", "fox", "sat", "on", "ran", "by", "big"};
    for (int k = 0; k < 10; k++) CHECK(train_token_name(TRAIN_FIND_NOUN, k) && strcmp(train_token_name(TRAIN_FIND_NOUN, k), noun[k]) == 0, "token %d", k);
    CHECK(strcmp(train_token_name(TRAIN_PREVIOUS_TOKEN, 5), "F") == 0, "token F");
    CHECK(!train_token_name(TRAIN_FIND_NOUN, 10) && !train_token_name(TRAIN_PREVIOUS_TOKEN, 6), "one past the vocabulary has no name");
    CHECK(!train_token_name(TRAIN_FIND_NOUN, -1) && !train_token_name(-1, 0) && !train_token_name(TRAIN_TASK_COUNT, 0), "negative token, bad task");
}

/* A seed fixes the whole run, so a link replays it in every version: the weights are mulberry32
 * draws from the seed (uniform in [-0.5, 0.5) for the head, [-1/√dv, 1/√dv) for the read-out), and
 * the training sequences come from mulberry32 started at seed ^ 0xa5a5a5a5. check.h's mulberry32
 * is the independent reference. */
static int below(int k) { return (int)(((uint64_t)(uint32_t)(rng_next() * 4294967296.0) * (uint32_t)k) >> 32); }

static void the_weights_and_the_training_stream_are_mulberry32_draws_from_the_seed(void)
{
    const uint32_t seed = 12345;
    long b = train_memory_bytes(TRAIN_PREVIOUS_TOKEN, 4, 3);
    void *mem = malloc((size_t)b);
    train_state t;
    train_init(&t, mem, b, TRAIN_PREVIOUS_TOKEN, 4, 3, seed);
    rng_seed(seed);
    long head = (long)t.d * (2 * 4 + 3), wrong = 0;
    for (long e = 0; e < t.n_params; e++) {
        uint32_t u = (uint32_t)(rng_next() * 4294967296.0);
        float a = e < head ? 0.5f : 1.0f / sqrtf(3.0f);
        wrong += t.params[e] != a * (2.0f * (float)(u >> 8) / 16777216.0f - 1.0f);
    }
    CHECK(wrong == 0, "%ld of %ld initial weights are not the seed's mulberry32 draws", wrong, t.n_params);
    CHECK(t.n_params == head + 3L * t.vocab, "n_params %ld, want d·(2dk + dv) + dv·vocab = %ld", t.n_params, head + 3L * t.vocab);
    train_set(&t, 0.01f, TRAIN_ADAM, 1);
    train_steps(&t, 1, NULL);
    rng_seed(seed ^ 0xa5a5a5a5u);
    for (int i = 0; i < t.n; i++) {
        int want = below(6);
        CHECK(t.tokens[i] == want, "training sequence 1, token %d: %d, want %d", i, t.tokens[i], want);
    }
    free(mem);

    /* find the noun: n = 4 + below(5) words, the noun's place p = 1 + below(n - 2), n filler
     * draws, then the noun; "the" before the noun and at the end; when p >= 2 a distractor
     * noun (another one than the answer) at a place below(p - 1). Two sequences in a row. */
    b = train_memory_bytes(TRAIN_FIND_NOUN, 4, 3);
    mem = malloc((size_t)b);
    train_init(&t, mem, b, TRAIN_FIND_NOUN, 4, 3, seed);
    train_set(&t, 0.01f, TRAIN_ADAM, 1);
    rng_seed(seed ^ 0xa5a5a5a5u);
    for (int sq = 0; sq < 2; sq++) {
        int want[8], n = 4 + below(5), p = 1 + below(n - 2);
        for (int i = 0; i < n; i++) want[i] = 5 + below(5);
        want[p - 1] = want[n - 1] = 0;
        want[p] = 1 + below(4);
        if (p >= 2) {
            int q = below(p - 1), other = 1 + below(3);
            want[q] = other >= want[p] ? other + 1 : other;
        }
        train_steps(&t, 1, NULL);
        for (int i = 0; i < n; i++) CHECK(t.tokens[i] == want[i], "find the noun, sequence %d, token %d: %d, want %d", sq + 1, i, t.tokens[i], want[i]);
        CHECK(t.targets[n - 1] == want[p] && t.right[n - 1] == p, "sequence %d: target %d at key %d, want %d at %d", sq + 1, t.targets[n - 1], t.right[n - 1], want[p], p);
    }
    free(mem);
}

/* train_evaluate's attention on the right key is the mean of A[i][right[i]] over every query
 * that has a right key, key 0 included (and its loss the mean cross-entropy). With Wq = Wk = 0 every score is 0, so a causal query i
 * spreads 1/(i + 1) over its keys: previous-token's queries 1..7 put 1/2, 1/3, ..., 1/8 on
 * their right keys 0..6, whatever the held-out tokens are. */
static void evaluate_averages_the_attention_on_every_right_key(void)
{
    long b = train_memory_bytes(TRAIN_PREVIOUS_TOKEN, 4, 4);
    void *mem = malloc((size_t)b);
    train_state t;
    train_init(&t, mem, b, TRAIN_PREVIOUS_TOKEN, 4, 4, 3);
    for (long e = 0; e < 2L * t.d * t.dk; e++) t.params[e] = 0.0f; /* Wq and Wk */
    float loss = NAN, attn = NAN, acc = NAN;
    CHECK(train_evaluate(&t, &loss, &attn, &acc) == ATTN_OK, "evaluate");
    double want = 0;
    for (int i = 1; i < 8; i++) want += 1.0 / (i + 1);
    want /= 7;
    CHECK(fabs(attn - want) < 1e-6, "attention on the right key %.7g, want (1/2 + ... + 1/8)/7 = %.7g", attn, want);
    CHECK(isfinite(loss) && loss > 0 && acc >= 0 && acc <= 1, "loss %g, accuracy %g", loss, acc);
    /* With Wout = 0 every logit is 0: each prediction is uniform over the 6 tokens, and the mean
     * cross-entropy, held out or of a training step's batch, is ln 6. */
    for (long e = t.n_params - (long)t.dv * t.vocab; e < t.n_params; e++) t.params[e] = 0.0f;
    CHECK(train_evaluate(&t, &loss, NULL, NULL) == ATTN_OK && fabsf(loss - logf(6)) < 1e-6f, "held-out loss %.7g, want ln 6 = %.7g", loss, logf(6));
    float step_loss = NAN;
    CHECK(train_steps(&t, 1, &step_loss) == ATTN_OK && fabsf(step_loss - logf(6)) < 1e-6f, "step loss %.7g, want ln 6", step_loss);
    free(mem);
}

/* An SGD step moves every weight by exactly lr·g (g: the step's mean gradient, kept in t.grads)
 * and writes nothing else, also after Adam steps have left running moments behind. dk = dv = 2
 * makes the parameter count a multiple of 4, so the gradients start right after the last weight:
 * one write too many would change g[0]. */
static void an_sgd_step_after_adam_moves_each_weight_by_exactly_lr_times_g(void)
{
    for (int task = 0; task < TRAIN_TASK_COUNT; task++) {
        long b = train_memory_bytes(task, 2, 2);
        void *mem = malloc((size_t)b);
        train_state t;
        train_init(&t, mem, b, task, 2, 2, 21);
        CHECK(t.n_params % 4 == 0, "n_params %ld", t.n_params);
        train_steps(&t, 3, NULL); /* Adam */
        CHECK(train_set(&t, 0.5f, TRAIN_SGD, 4) == ATTN_OK, "set");
        float *before = malloc(sizeof(float) * (size_t)t.n_params);
        memcpy(before, t.params, sizeof(float) * (size_t)t.n_params);
        train_steps(&t, 1, NULL);
        long wrong = 0;
        for (long e = 0; e < t.n_params; e++) wrong += t.params[e] != before[e] - 0.5f * t.grads[e];
        CHECK(wrong == 0, "%s: %ld of %ld weights did not move by exactly -lr·g", train_task_name(task), wrong, t.n_params);
        free(before), free(mem);
    }
}

/* The block is carved into arrays at 16-byte boundaries, and a write one element past an array
 * would land in alignment padding or in the next array, where AddressSanitizer sees nothing. So
 * under ASan train.c follows every array with a poisoned guard: this test checks that each array
 * ends exactly where its guard starts, then runs everything that writes (init, reset, reroll,
 * steps with each optimizer, evaluate) on every task and many head sizes, so a write past any
 * array is reported by ASan and ends the test. */
static void every_array_is_guarded_and_nothing_writes_past_one(void)
{
    for (int task = 0; task < TRAIN_TASK_COUNT; task++)
        for (int dk = 1; dk <= 5; dk++)
            for (int dv = 1; dv <= 3; dv++) {
                long bytes = train_memory_bytes(task, dk, dv);
                unsigned char *mem = malloc((size_t)bytes);
                train_state t;
                CHECK(train_init(&t, mem, bytes, task, dk, dv, 9) == ATTN_OK, "init");
                int n = t.n, d = t.d;
                /* every array of the block, with its length in bytes */
                struct { const void *at; long bytes; const char *name; } a[] = {
                    {t.params, 4 * t.n_params, "params"}, {t.grads, 4 * t.n_params, "grads"},
                    {t.adam_m, 4 * t.n_params, "adam_m"}, {t.adam_v, 4 * t.n_params, "adam_v"},
                    {t.tokens, 4L * n, "tokens"}, {t.targets, 4L * n, "targets"}, {t.right, 4L * n, "right"},
                    {t.X, 4L * n * d, "X"}, {t.Q, 4L * n * dk, "Q"}, {t.K, 4L * n * dk, "K"},
                    {t.V, 4L * n * dv, "V"}, {t.Kt, 4L * dk * n, "Kt"}, {t.S, 4L * n * n, "S"},
                    {t.A, 4L * n * n, "A"}, {t.O, 4L * n * dv, "O"}, {t.probs, 4L * n * t.vocab, "probs"},
                    {t.dO, 4L * n * dv, "dO"}, {t.dQ, 4L * n * dk, "dQ"}, {t.dK, 4L * n * dk, "dK"},
                    {t.dV, 4L * n * dv, "dV"}, {t.dA, 4L * n * n, "dA"}, {t.dS, 4L * n * n, "dS"},
                };
                for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) {
                    const char *end = (const char *)a[i].at + a[i].bytes;
                    CHECK(__asan_address_is_poisoned(end) && !__asan_address_is_poisoned(end - 1),
                          "task %d, dk %d, dv %d: %s is not followed by a guard", task, dk, dv, a[i].name);
                }
                train_reset(&t);
                train_reroll(&t, 10);
                train_steps(&t, 2, NULL);
                train_set(&t, 0.05f, TRAIN_SGD, 3);
                train_steps(&t, 1, NULL);
                train_evaluate(&t, NULL, NULL, NULL);
                free(mem);
            }
}

/* train_memory_bytes is enough wherever the block starts: at each of the 16 offsets from an
 * aligned address, every array lies inside the block (the last one, dS, ends by its end). */
static void memory_bytes_hold_every_array_at_any_alignment(void)
{
    for (int task = 0; task < TRAIN_TASK_COUNT; task++)
        for (int off = 0; off < 16; off++) {
            long b = train_memory_bytes(task, 3, 5);
            unsigned char *block = malloc((size_t)b + 32);
            unsigned char *mem = block + (16 - (uintptr_t)block % 16) % 16 + off; /* 16-aligned, then off */
            train_state t;
            CHECK(train_init(&t, mem, b, task, 3, 5, 1) == ATTN_OK, "init");
            const unsigned char *first = (const unsigned char *)t.params, *end = (const unsigned char *)(t.dS + (long)t.n * t.n);
            CHECK(first >= mem && end <= mem + b, "task %d, offset %d: the arrays take bytes %ld to %ld of a block of %ld",
                  task, off, (long)(first - mem), (long)(end - mem), b);
            free(block);
        }
}

/* An example writes its n tokens, targets and rights and n rows of X, and nothing past them. */
static void example_writes_its_sequence_and_nothing_past_it(void)
{
    for (int task = 0; task < TRAIN_TASK_COUNT; task++) {
        long b = train_memory_bytes(task, 4, 4);
        unsigned char *block = malloc((size_t)b);
        train_state t;
        train_init(&t, block, b, task, 4, 4, 1);
        int tokens[TRAIN_MAX_TOKENS], targets[TRAIN_MAX_TOKENS], right[TRAIN_MAX_TOKENS];
        float *X = malloc(sizeof(float) * (size_t)t.n * (size_t)t.d);
        for (uint32_t seed = 0; seed < 20; seed++) {
            for (int i = 0; i < t.n; i++) tokens[i] = targets[i] = right[i] = -7;
            for (long e = 0; e < (long)t.n * t.d; e++) X[e] = -7.0f;
            int n = train_example(&t, seed, tokens, targets, right, X);
            CHECK(n >= 1 && n <= t.n, "%s seed %u: length %d", train_task_name(task), seed, n);
            for (int i = n; i < t.n; i++)
                CHECK(tokens[i] == -7 && targets[i] == -7 && right[i] == -7, "%s seed %u: position %d past the length %d was written", train_task_name(task), seed, i, n);
            for (long e = (long)n * t.d; e < (long)t.n * t.d; e++) CHECK(X[e] == -7.0f, "%s seed %u: X past row %d was written", train_task_name(task), seed, n);
            for (int i = 0; i < n; i++) CHECK(tokens[i] >= 0 && tokens[i] < t.vocab, "%s seed %u: token %d", train_task_name(task), seed, i);
        }
        free(X), free(block);
    }
}

int main(void)
{
    RUN(memory_needed_is_within_the_static_bound_for_every_task_and_head_size);
    RUN(init_refuses_bad_tasks_sizes_and_short_memory);
    RUN(steps_and_evaluate_refuse_a_null_or_uninitialised_trainer);
    RUN(example_refuses_a_null_trainer_or_array);
    RUN(adam_first_steps_match_a_float64_adam_and_the_first_moves_each_weight_by_lr);
    RUN(a_step_averages_exactly_its_batch_drawn_in_order_from_the_stream);
    RUN(task_and_token_names_and_null_out_of_range);
    RUN(the_weights_and_the_training_stream_are_mulberry32_draws_from_the_seed);
    RUN(evaluate_averages_the_attention_on_every_right_key);
    RUN(an_sgd_step_after_adam_moves_each_weight_by_exactly_lr_times_g);
    RUN(every_task_learns_its_pattern_in_exactly_sized_unaligned_memory);
    RUN(a_diverging_step_is_an_error_never_a_nan_loss);
    RUN(every_array_is_guarded_and_nothing_writes_past_one);
    RUN(memory_bytes_hold_every_array_at_any_alignment);
    RUN(example_writes_its_sequence_and_nothing_past_it);
    return print_summary();
}
