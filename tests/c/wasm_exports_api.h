/*
 * wasm_exports_api.h: test-only. c/wasm_exports.c has no header (web/core/attention.js is its only
 * caller); these are its exports and the ids of its enums, as web/core/attention.js keeps them, for
 * the native tests that call it (fuzz_exports.c, test_exports.c).
 */
#ifndef TESTS_C_WASM_EXPORTS_API_H
#define TESTS_C_WASM_EXPORTS_API_H

int ae_max_tokens(void);
int ae_max_width(void);
float ae_default_scale(int dk);
int ae_prepare(int n, int m, int d, int dk, int dv, int layout);
float *ae_buffer(int which);
long ae_buffer_floats(int which);
int ae_bench_matmul(int n, int k, int p, int reps);
int ae_sdpa(int has_mask, int causal, float scale);
int ae_forward(int has_xkv, int has_mask, int causal, float scale);
int ae_train_task_count(void);
const char *ae_train_task_name(int task);
const char *ae_train_token_name(int task, int token);
int ae_train_max_head(void);
int ae_train_max_batch(void);
int ae_train_loss_chunk(void);
int ae_train_eval_sequences(void);
int ae_train_create(int task, int dk, int dv, unsigned seed);
void ae_train_free(int slot);
int ae_train_set(int slot, float lr, int optimizer, int batch);
int ae_train_steps(int slot, int k);
void ae_train_reset(int slot);
void ae_train_reroll(int slot, unsigned seed);
int ae_train_evaluate(int slot);
int ae_train_example(int slot, unsigned seed);
float ae_train_loss(int slot);
int ae_train_info(int slot, int which);
void *ae_train_buffer(int slot, int which);
float *ae_lab_buffer(int which);
const char *ae_ind_token_name(int token);
int ae_ind_loss_chunk(void);
int ae_ind_eval_sequences(void);
int ae_ind_slot_bytes(void);
int ae_ind_memory_bytes(int layers, int heads, int d, int dh, int n, int vocab);
int ae_ind_create(int layers, int heads, int d, int dh, int n, int vocab, unsigned seed);
void ae_ind_free(int slot);
int ae_ind_set(int slot, float lr, float weight_decay, int batch);
int ae_ind_ablate(int slot, unsigned mask);
int ae_ind_steps(int slot, int k);
void ae_ind_reset(int slot);
void ae_ind_reroll(int slot, unsigned seed);
int ae_ind_evaluate(int slot);
int ae_ind_composition(int slot);
int ae_ind_example(int slot, unsigned seed);
int ae_ind_key_split(int slot, int layer, int head);
float ae_ind_loss(int slot, int which);
int ae_ind_info(int slot, int which);
void *ae_ind_buffer(int slot, int which, int index);
int ae_softmax_stable(int m);
int ae_softmax_naive(int m);
int ae_softmax_backward(int m);
int ae_softmax_stats(int m);

/* The enums of wasm_exports.c, as web/core/attention.js keeps them. */
enum { B_X, B_XKV, B_WQ, B_WK, B_WV, B_Q, B_K, B_V, B_S, B_M, B_A, B_O, B_MASK, B_KT, B_WORK, B_COUNT };
enum { L_FUSED = 1, L_MASK = 2 };
enum { T_WQ, T_WK, T_WV, T_WOUT, T_DWQ, T_DWK, T_DWV, T_DWOUT, T_LOSSES, T_EVAL, T_EX_TOKENS, T_EX_TARGETS, T_EX_RIGHT, T_EX_X, T_COUNT };
enum { I_N, I_D, I_DK, I_DV, I_VOCAB, I_POSITIONS, I_STEP, I_BATCH, I_OPTIMIZER, I_COUNT };
enum { LAB_IN, LAB_GRAD, LAB_OUT, LAB_TERMS, LAB_SCALARS, LAB_COUNT };
enum { SLOTS = 8, IND_SLOTS = 4 };
enum { IND_B_LOSSES, IND_B_EVAL, IND_B_COMPOSITION, IND_B_SPLIT, IND_B_TOKENS, IND_B_TARGETS, IND_B_PART,
       IND_B_INDUCT, IND_B_PARAMS, IND_B_GRADS, IND_B_E, IND_B_WQ, IND_B_WK, IND_B_WV, IND_B_WO, IND_B_DWQ,
       IND_B_DWK, IND_B_DWV, IND_B_DWO, IND_B_P, IND_B_X, IND_B_Q, IND_B_K, IND_B_V, IND_B_S, IND_B_A, IND_B_O,
       IND_B_C, IND_B_PROBS, IND_B_COUNT };
enum { IND_I_LAYERS, IND_I_HEADS, IND_I_D, IND_I_DH, IND_I_N, IND_I_VOCAB, IND_I_STEP, IND_I_BATCH, IND_I_K,
       IND_I_PARAMS, IND_I_ABLATED, IND_I_COUNT };

#endif
