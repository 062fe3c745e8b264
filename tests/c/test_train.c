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

static void memory_needed_is_within_the_static_bound_for_every_task_and_head_size(void)
{
    for (int task = 0; task < TRAIN_TASK_COUNT; task++)
        for (int dk = 1; dk <= TRAIN_MAX_HEAD; dk++)
            for (int dv = 1; dv <= TRAIN_MAX_HEAD; dv++) {
                long b = train_memory_bytes(task, dk, dv);
                CHECK(b > 0 && b <= TRAIN_MAX_MEMORY_BYTES, "task %d dk %d dv %d needs %ld > %d", task, dk, dv, b,
                      TRAIN_MAX_MEMORY_BYTES);
            }
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
        printf("    %s: held-out loss %.3f -> %.4f, attention on the right key %.3f -> %.3f after 300 steps\n",
               train_task_name(task), loss0, loss, attn0, attn);
        CHECK(loss < 0.1f && attn >= 0.9f, "%s: loss %g attention %g", train_task_name(task), loss, attn);
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

int main(void)
{
    RUN(memory_needed_is_within_the_static_bound_for_every_task_and_head_size);
    RUN(init_refuses_bad_tasks_sizes_and_short_memory);
    RUN(every_task_learns_its_pattern_in_exactly_sized_unaligned_memory);
    RUN(a_diverging_step_is_an_error_never_a_nan_loss);
    return print_summary();
}
