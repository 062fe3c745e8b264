/*
 * test_exports.c: c/wasm_exports.c built natively (tests/c/wasm_shim.h stands in for WebAssembly's
 * memory, as for fuzz_exports.c) under AddressSanitizer and UBSan. Every export that takes a
 * trainer or induction-model slot refuses a slot below 0, past the last one, or free, and reads
 * nothing outside its slots. In Wasm a read of slots[TRAIN_SLOTS] finds whatever lies after the
 * array (zeros, so "not in use"), which no Node test can tell from a refusal; here ASan sees it.
 */
#include "attention.h"
#include "induction.h"
#include "train.h"

#include <math.h>
#include <string.h>

#include "check.h"
#include "wasm_exports.h"

/* Every slot-taking trainer export on `slot`, which is not a trainer in use: each is refused. */
static void trainer_refuses(int slot)
{
    CHECK(ae_train_set(slot, 0.1f, TRAIN_SGD, 8) == ATTN_ERR_NULL, "ae_train_set(%d)", slot);
    CHECK(ae_train_steps(slot, 1) == ATTN_ERR_NULL, "ae_train_steps(%d)", slot);
    CHECK(ae_train_evaluate(slot) == ATTN_ERR_NULL, "ae_train_evaluate(%d)", slot);
    CHECK(ae_train_example(slot, 1) == -ATTN_ERR_NULL, "ae_train_example(%d)", slot);
    CHECK(ae_train_loss(slot) == 0.0f, "ae_train_loss(%d)", slot);
    CHECK(ae_train_info(slot, I_N) == -1, "ae_train_info(%d)", slot);
    CHECK(ae_train_buffer(slot, T_WQ) == NULL, "ae_train_buffer(%d)", slot);
    ae_train_reset(slot);
    ae_train_reroll(slot, 2);
    ae_train_free(slot);
}

static void ind_refuses(int slot)
{
    CHECK(ae_ind_set(slot, 0.01f, 0.0f, 8) == ATTN_ERR_NULL, "ae_ind_set(%d)", slot);
    CHECK(ae_ind_ablate(slot, 1) == ATTN_ERR_NULL, "ae_ind_ablate(%d)", slot);
    CHECK(ae_ind_steps(slot, 1) == ATTN_ERR_NULL, "ae_ind_steps(%d)", slot);
    CHECK(ae_ind_evaluate(slot) == ATTN_ERR_NULL, "ae_ind_evaluate(%d)", slot);
    CHECK(ae_ind_composition(slot) == ATTN_ERR_NULL, "ae_ind_composition(%d)", slot);
    CHECK(ae_ind_example(slot, 1) == -ATTN_ERR_NULL, "ae_ind_example(%d)", slot);
    CHECK(ae_ind_key_split(slot, 0, 0) == -ATTN_ERR_NULL, "ae_ind_key_split(%d)", slot);
    CHECK(ae_ind_loss(slot, 0) == 0.0f, "ae_ind_loss(%d)", slot);
    CHECK(ae_ind_info(slot, IND_I_LAYERS) == -1, "ae_ind_info(%d)", slot);
    CHECK(ae_ind_buffer(slot, IND_B_LOSSES, 0) == NULL, "ae_ind_buffer(%d)", slot);
    ae_ind_reset(slot);
    ae_ind_reroll(slot, 2);
    ae_ind_free(slot);
}

/* All eight trainers in use, then the slots around them; then one freed and refused in turn. */
static void trainer_slots_out_of_range_or_free_are_refused(void)
{
    for (int s = 0; s < TRAIN_SLOTS; s++) CHECK(ae_train_create(TRAIN_PREVIOUS_TOKEN, 4, 4, 1u + s) == s, "trainer %d", s);
    CHECK(ae_train_create(TRAIN_PREVIOUS_TOKEN, 4, 4, 9) == -TRAIN_ERR_MEMORY, "a ninth trainer");
    int outside[] = {-1, TRAIN_SLOTS, TRAIN_SLOTS + 1, -1000, 1 << 30};
    for (int k = 0; k < 5; k++) trainer_refuses(outside[k]);
    for (int s = 0; s < TRAIN_SLOTS; s++) CHECK(ae_train_info(s, I_DK) == 4, "trainer %d kept its dk", s);
    ae_train_free(3);
    trainer_refuses(3);
    CHECK(ae_train_create(TRAIN_PREVIOUS_TOKEN, 4, 4, 3) == 3, "the freed slot is taken again");
    for (int s = 0; s < TRAIN_SLOTS; s++) ae_train_free(s);
    for (int s = 0; s < TRAIN_SLOTS; s++) trainer_refuses(s);
}

static void induction_slots_out_of_range_or_free_are_refused(void)
{
    for (int s = 0; s < IND_SLOTS; s++) CHECK(ae_ind_create(1, 1, 8, 4, 9, 8, 1u + s) == s, "model %d", s);
    CHECK(ae_ind_create(1, 1, 8, 4, 9, 8, 9) == -IND_ERR_MEMORY, "a fifth model");
    int outside[] = {-1, IND_SLOTS, IND_SLOTS + 1, -1000, 1 << 30};
    for (int k = 0; k < 5; k++) ind_refuses(outside[k]);
    for (int s = 0; s < IND_SLOTS; s++) CHECK(ae_ind_info(s, IND_I_D) == 8, "model %d kept its d", s);
    ae_ind_free(2);
    ind_refuses(2);
    CHECK(ae_ind_create(1, 1, 8, 4, 9, 8, 3) == 2, "the freed slot is taken again");
    for (int s = 0; s < IND_SLOTS; s++) ae_ind_free(s);
    for (int s = 0; s < IND_SLOTS; s++) ind_refuses(s);
}

/* A buffer id outside 0 .. B_COUNT - 1 gives no buffer and no count (a || for the && of the
 * range check read past the table: issue 31; here ASan sees that read). */
static void buffer_ids_out_of_range_are_refused(void)
{
    int outside[] = {-1, B_COUNT, B_COUNT + 1, -1000, 1 << 30};
    for (int k = 0; k < 5; k++) {
        CHECK(ae_buffer(outside[k]) == NULL, "ae_buffer(%d)", outside[k]);
        CHECK(ae_buffer_floats(outside[k]) == 0, "ae_buffer_floats(%d)", outside[k]);
    }
    CHECK(ae_prepare(3, 3, 2, 2, 2, 0) == ATTN_OK, "a layout");
    for (int b = 0; b < B_COUNT; b++) CHECK(ae_buffer(b) != NULL, "ae_buffer(%d) in range", b);
}

/* The long form keeps n×m buffers and stops at ATTN_MAX_TOKENS; the fused layout (L_FUSED) keeps
 * none and takes up to ATTN_MAX_TOKENS_FUSED, with or without a mask's room. */
static void the_fused_layout_takes_longer_sequences_than_the_long_one(void)
{
    int past = ATTN_MAX_TOKENS + 1, top = ATTN_MAX_TOKENS_FUSED;
    CHECK(ae_prepare(past, 4, 0, 2, 2, 0) == ATTN_ERR_SIZE, "the long form past its limit");
    CHECK(ae_prepare(4, past, 0, 2, 2, L_MASK) == ATTN_ERR_SIZE, "the long form with a mask, m past its limit");
    CHECK(ae_prepare(past, past, 2, 2, 2, L_FUSED) == ATTN_OK, "the fused form at n = m = %d", past);
    CHECK(ae_buffer_floats(B_S) == 0 && ae_buffer_floats(B_A) == 0, "no n×m buffer in the fused layout");
    CHECK(ae_buffer_floats(B_WORK) == ATTN_FUSED_WORK(past, 2, 2), "the fused form's work buffer");
    CHECK(ae_prepare(top, 8, 0, 2, 2, L_FUSED) == ATTN_OK, "the fused form at its limit");
    CHECK(ae_prepare(top + 1, 8, 0, 2, 2, L_FUSED) == ATTN_ERR_SIZE, "the fused form past its limit");
    CHECK(ae_prepare(8, top + 1, 0, 2, 2, L_FUSED | L_MASK) == ATTN_ERR_SIZE, "the fused form with a mask, m past its limit");
    CHECK(ae_prepare(3, 3, 2, 2, 2, 4) == ATTN_ERR_SIZE && ae_prepare(3, 3, 2, 2, 2, -1) == ATTN_ERR_SIZE, "no such layout");
}

static int same_floats(const float *a, const float *b, int count)
{
    for (int i = 0; i < count; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* On a trainer in use: steps take 0 .. ae_train_loss_chunk() at once, reset goes back to step 0
 * and the seed's weights, reroll draws other weights. */
static void a_trainer_steps_resets_and_rerolls(void)
{
    int s = ae_train_create(TRAIN_PREVIOUS_TOKEN, 2, 2, 5), chunk = ae_train_loss_chunk();
    CHECK(s == 0 && ae_train_set(s, 0.05f, TRAIN_SGD, 1) == ATTN_OK, "a trainer");
    int count = ae_train_info(s, I_D) * ae_train_info(s, I_DK);
    float first[TRAIN_MAX_D * TRAIN_MAX_HEAD];
    memcpy(first, ae_train_buffer(s, T_WQ), sizeof(float) * (size_t)count);
    CHECK(ae_train_steps(s, chunk + 1) == TRAIN_ERR_SHAPE && ae_train_steps(s, -1) == TRAIN_ERR_SHAPE, "too many steps");
    CHECK(ae_train_steps(s, chunk) == ATTN_OK && ae_train_info(s, I_STEP) == chunk, "%d steps at once", chunk);
    CHECK(!same_floats(first, ae_train_buffer(s, T_WQ), count), "the steps moved Wq");
    ae_train_reset(s);
    CHECK(ae_train_info(s, I_STEP) == 0 && same_floats(first, ae_train_buffer(s, T_WQ), count), "reset: step 0, the seed's Wq");
    ae_train_reroll(s, 6);
    CHECK(ae_train_info(s, I_STEP) == 0 && !same_floats(first, ae_train_buffer(s, T_WQ), count), "reroll: another Wq");
    ae_train_free(s);
}

/* The same for an induction model, and its losses by part and its per-head buffers. */
static void an_induction_model_steps_resets_and_rerolls(void)
{
    int s = ae_ind_create(1, 1, 8, 4, 9, 8, 5), chunk = ae_ind_loss_chunk();
    CHECK(s == 0 && ae_ind_set(s, 0.01f, 0.0f, 1) == ATTN_OK, "a model");
    int count = ae_ind_info(s, IND_I_PARAMS);
    static float first[1 << 16];
    CHECK(count > 0 && count <= (int)(sizeof first / sizeof first[0]), "%d parameters", count);
    memcpy(first, ae_ind_buffer(s, IND_B_PARAMS, 0), sizeof(float) * (size_t)count);
    CHECK(ae_ind_steps(s, chunk + 1) == IND_ERR_SHAPE && ae_ind_steps(s, -1) == IND_ERR_SHAPE, "too many steps");
    CHECK(ae_ind_steps(s, chunk) == ATTN_OK && ae_ind_info(s, IND_I_STEP) == chunk, "%d steps at once", chunk);
    float all = ae_ind_loss(s, 0), first_part = ae_ind_loss(s, 1), repeat = ae_ind_loss(s, 2);
    CHECK(first_part != repeat && all > fminf(first_part, repeat) && all < fmaxf(first_part, repeat),
          "losses: all %g between first part %g and repeated part %g", all, first_part, repeat);
    CHECK(ae_ind_buffer(s, IND_B_WQ, 0) != NULL && ae_ind_buffer(s, IND_B_WQ, -1) == NULL && ae_ind_buffer(s, IND_B_WQ, 1) == NULL,
          "a head's buffer: head 0 only");
    /* the residual streams X[0] .. X[layers], the last one included (issue 31: a < for the <=
     * hid the model's last stream from the page) */
    int layers = ae_ind_info(s, IND_I_LAYERS);
    for (int l = 0; l <= layers; l++) CHECK(ae_ind_buffer(s, IND_B_X, l) != NULL, "X[%d] of %d layers", l, layers);
    CHECK(ae_ind_buffer(s, IND_B_X, layers + 1) == NULL && ae_ind_buffer(s, IND_B_X, -1) == NULL, "no stream past X[layers]");
    ae_ind_reset(s);
    CHECK(ae_ind_info(s, IND_I_STEP) == 0 && same_floats(first, ae_ind_buffer(s, IND_B_PARAMS, 0), count), "reset");
    ae_ind_reroll(s, 6);
    CHECK(ae_ind_info(s, IND_I_STEP) == 0 && !same_floats(first, ae_ind_buffer(s, IND_B_PARAMS, 0), count), "reroll");
    ae_ind_free(s);
}

int main(void)
{
    RUN(buffer_ids_out_of_range_are_refused);
    RUN(the_fused_layout_takes_longer_sequences_than_the_long_one);
    RUN(trainer_slots_out_of_range_or_free_are_refused);
    RUN(induction_slots_out_of_range_or_free_are_refused);
    RUN(a_trainer_steps_resets_and_rerolls);
    RUN(an_induction_model_steps_resets_and_rerolls);
    return print_summary();
}
