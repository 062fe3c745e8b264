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

#include "check.h"
#include "wasm_exports_api.h"

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
    for (int s = 0; s < SLOTS; s++) CHECK(ae_train_create(TRAIN_PREVIOUS_TOKEN, 4, 4, 1u + s) == s, "trainer %d", s);
    CHECK(ae_train_create(TRAIN_PREVIOUS_TOKEN, 4, 4, 9) == -TRAIN_ERR_MEMORY, "a ninth trainer");
    int outside[] = {-1, SLOTS, SLOTS + 1, -1000, 1 << 30};
    for (int k = 0; k < 5; k++) trainer_refuses(outside[k]);
    for (int s = 0; s < SLOTS; s++) CHECK(ae_train_info(s, I_DK) == 4, "trainer %d kept its dk", s);
    ae_train_free(3);
    trainer_refuses(3);
    CHECK(ae_train_create(TRAIN_PREVIOUS_TOKEN, 4, 4, 3) == 3, "the freed slot is taken again");
    for (int s = 0; s < SLOTS; s++) ae_train_free(s);
    for (int s = 0; s < SLOTS; s++) trainer_refuses(s);
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

int main(void)
{
    RUN(trainer_slots_out_of_range_or_free_are_refused);
    RUN(induction_slots_out_of_range_or_free_are_refused);
    return print_summary();
}
