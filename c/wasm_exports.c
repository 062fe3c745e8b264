/*
 * wasm_exports.c: what the WebAssembly module exports, and the one owner of its working memory.
 * web/core/attention.js is the only code that calls these. The list of exports and of the ids
 * they take is the table c/wasm_exports.def: c/wasm_exports.h declares each of its rows (exported
 * under its own name), so a function here is exported when, and only when, it has a row there.
 *
 * The JS side calls ae_prepare(n, m, d, dk, dv, layout) once per forward pass; it lays out every
 * buffer of one head in a single arena that grows when a call needs more and is otherwise
 * reused, so repeated calls never grow memory. layout says which form runs: the long form
 * (every intermediate) or the fused form (L_FUSED: O only, no n×m buffer), and whether a mask
 * is given (L_MASK: the only n×m input). ae_buffer(which) returns where each buffer starts;
 * JS writes the inputs there, calls ae_forward or ae_sdpa, and copies the outputs out.
 * Growing the arena may grow Wasm memory, so JS re-reads its views after ae_prepare.
 */
#include "attention.h"
#include "wasm_exports.h"

#include <math.h>
#include <stdint.h>

/* The buffer ids (B_X ... B_WORK, c/wasm_exports.def) are in arena order: what a result returns
 * first, then scratch (the caller's mask, Kᵀ and the fused form's work), so that JS copies the
 * results out with one slice. The fused layout gives S, M, A and Kt no room (size 0). */

/* The arena is the Wasm heap itself: it starts at __heap_base (after the stack and static data,
 * placed by the linker) and grows with memory.grow, so the module needs no malloc and no imports. */
extern unsigned char __heap_base;
static float *arena;
static long arena_floats;

static int arena_reserve(long floats)
{
    uintptr_t start = ((uintptr_t)&__heap_base + 15) & ~(uintptr_t)15;
    uintptr_t end = start + (uintptr_t)floats * sizeof(float);
    uintptr_t have = __builtin_wasm_memory_size(0) * (uintptr_t)65536;
    if (end > have && __builtin_wasm_memory_grow(0, (end - have + 65535) / 65536) == (uintptr_t)-1) return 0;
    arena = (float *)start;
    arena_floats = floats;
    return 1;
}
static float *buffer[B_COUNT];
static long buffer_floats[B_COUNT];
static int n_, m_, d_, dk_, dv_, layout_;

int ae_max_tokens(void) { return ATTN_MAX_TOKENS; }
/* (the table's copies of the fused form's limit and tile, for JS, are the header's: the build stops if not) */
typedef char max_tokens_fused_agrees[MAX_TOKENS_FUSED == ATTN_MAX_TOKENS_FUSED ? 1 : -1];
typedef char tile_keys_agrees[TILE_KEYS == ATTN_TILE_KEYS ? 1 : -1];
int ae_max_width(void) { return ATTN_MAX_WIDTH; }
float ae_default_scale(int dk) { return attn_default_scale(dk); }

/* d = 0 prepares the direct form (Q, K, V given; no X and no weights). Returns an attn_status,
 * or -1 when memory could not be had. */
int ae_prepare(int n, int m, int d, int dk, int dv, int layout)
{
    if (layout < 0 || layout > 3) return ATTN_ERR_SIZE;
    int tokens = layout & L_FUSED ? ATTN_MAX_TOKENS_FUSED : ATTN_MAX_TOKENS; /* the fused form holds no n×m */
    if (n < 1 || n > tokens || m < 1 || m > tokens || d < 0 || d > ATTN_MAX_WIDTH ||
        dk < 1 || dk > ATTN_MAX_WIDTH || dv < 1 || dv > ATTN_MAX_WIDTH)
        return ATTN_ERR_SIZE;
    long nm = layout & L_FUSED ? 0 : (long)n * m;
    long count[B_COUNT] = {
        [B_X] = (long)n * d, [B_XKV] = (long)m * d, [B_WQ] = (long)d * dk, [B_WK] = (long)d * dk,
        [B_WV] = (long)d * dv, [B_Q] = (long)n * dk, [B_K] = (long)m * dk, [B_V] = (long)m * dv,
        [B_S] = nm, [B_M] = nm, [B_A] = nm, [B_O] = (long)n * dv,
        [B_MASK] = layout & L_MASK ? (long)n * m : 0,
        [B_KT] = layout & L_FUSED ? 0 : (long)dk * m,
        [B_WORK] = layout & L_FUSED ? ATTN_FUSED_WORK(m, dk, dv) : 0,
    };
    long total = 0;
    for (int b = 0; b < B_COUNT; b++) total += (count[b] + 3) & ~3L; /* 16-byte aligned starts */
    if (total > arena_floats && !arena_reserve(total)) return -1;
    long at = 0;
    for (int b = 0; b < B_COUNT; b++) {
        buffer[b] = arena + at;
        buffer_floats[b] = count[b];
        at += (count[b] + 3) & ~3L;
    }
    n_ = n; m_ = m; d_ = d; dk_ = dk; dv_ = dv; layout_ = layout;
    return ATTN_OK;
}

float *ae_buffer(int which)
{
    return which >= 0 && which < B_COUNT ? buffer[which] : 0;
}

/* How many floats buffer `which` holds in the current layout (0: none). */
long ae_buffer_floats(int which)
{
    return which >= 0 && which < B_COUNT ? buffer_floats[which] : 0;
}

/* The direct form: Q, K, V (and the mask) were written by JS. The long form also writes M, the
 * mask it used (causal and the caller's combined); the fused form writes only O. */
int ae_sdpa(int has_mask, int causal, float scale)
{
    if (!arena || (has_mask && !(layout_ & L_MASK))) return ATTN_ERR_NULL;
    const float *mask = has_mask ? buffer[B_MASK] : 0;
    if (layout_ & L_FUSED)
        return attn_sdpa_fused(buffer[B_O], buffer[B_WORK], buffer[B_Q], buffer[B_K], buffer[B_V], mask, causal,
                               scale, n_, m_, dk_, dv_);
    attn_status st = attn_mask_build(buffer[B_M], mask, causal, n_, m_);
    if (st != ATTN_OK) return st;
    return attn_sdpa(buffer[B_S], buffer[B_A], buffer[B_O], buffer[B_KT], buffer[B_Q], buffer[B_K], buffer[B_V],
                     mask, causal, scale, n_, m_, dk_, dv_);
}

/* The projection form: X, the weights (Xkv for cross-attention) and the mask were written by JS. */
int ae_forward(int has_xkv, int has_mask, int causal, float scale)
{
    if (!arena || d_ < 1) return ATTN_ERR_NULL;
    attn_status st = attn_project(buffer[B_Q], buffer[B_K], buffer[B_V], buffer[B_X],
                                  has_xkv ? buffer[B_XKV] : buffer[B_X], buffer[B_WQ], buffer[B_WK],
                                  buffer[B_WV], n_, m_, d_, dk_, dv_);
    if (st != ATTN_OK) return st;
    return ae_sdpa(has_mask, causal, scale);
}

/* For `make bench` only (bench/bench.mjs gives it an instance of its own): C = A·B, A [n, k],
 * B [k, p], `reps` times with the head's own kernel. A and B are filled with small numbers when
 * the shape changes, not on every call, so a timing measures the product alone. It lays the
 * arena out its own way: a forward() on the same instance afterwards would find its buffers
 * moved. Returns an attn_status, or -1 when memory could not be had. */
int ae_bench_matmul(int n, int k, int p, int reps)
{
    static int filled[3];
    if (n < 1 || n > ATTN_MAX_TOKENS || k < 1 || k > ATTN_MAX_TOKENS || p < 1 || p > ATTN_MAX_TOKENS) return ATTN_ERR_SIZE;
    long need = (long)n * k + (long)k * p + (long)n * p;
    if (need > arena_floats && !arena_reserve(need)) return -1;
    float *A = arena, *B = A + (long)n * k, *C = B + (long)k * p;
    if (filled[0] != n || filled[1] != k || filled[2] != p) {
        for (long e = 0; e < (long)n * k; e++) A[e] = (float)(e % 7) * 0.125f - 0.375f;
        for (long e = 0; e < (long)k * p; e++) B[e] = (float)(e % 5) * 0.25f - 0.5f;
        filled[0] = n; filled[1] = k; filled[2] = p;
    }
    for (int r = 0; r < reps; r++) attn_matmul(C, A, B, n, k, p);
    n_ = 0; /* the forward layout is gone */
    return ATTN_OK;
}

#ifndef AE_FORWARD_ONLY /* the forward-only build (Makefile: the explorer's and the labs' core) stops here */
/* ================================================================ training (c/train.h)
 *
 * Trainers live in a fixed number of static slots, each with its own memory block sized by
 * TRAIN_MAX_MEMORY_BYTES. They sit in the module's static data (before __heap_base), so they
 * never move and the forward arena above is unaffected. JS owns a slot from ae_train_create
 * until ae_train_free. ae_train_buffer(slot, which) says where each of its arrays starts;
 * those addresses never change, but the heap view in JS must still be re-read after any call
 * that may grow memory (the forward arena's ae_prepare). */
#include "train.h"

#define TRAIN_LOSS_CHUNK 4096 /* most steps one ae_train_steps call may take */

/* TRAIN_SLOTS, and the ids ae_train_buffer (T_*) and ae_train_info (I_*) take: c/wasm_exports.def. */

static struct {
    int used;
    train_state t;
    float losses[TRAIN_LOSS_CHUNK];
    float eval[3]; /* loss, attention on the right key, accuracy */
    int ex_tokens[TRAIN_MAX_TOKENS], ex_targets[TRAIN_MAX_TOKENS], ex_right[TRAIN_MAX_TOKENS];
    float ex_X[TRAIN_MAX_TOKENS * TRAIN_MAX_D];
    _Alignas(16) unsigned char memory[TRAIN_MAX_MEMORY_BYTES];
} slots[TRAIN_SLOTS];

static train_state *trainer(int slot) { return slot >= 0 && slot < TRAIN_SLOTS && slots[slot].used ? &slots[slot].t : 0; }

int ae_train_task_count(void) { return TRAIN_TASK_COUNT; }
const char *ae_train_task_name(int task) { return train_task_name(task); }
const char *ae_train_token_name(int task, int token) { return train_token_name(task, token); }
int ae_train_max_head(void) { return TRAIN_MAX_HEAD; }
int ae_train_max_batch(void) { return TRAIN_MAX_BATCH; }
int ae_train_loss_chunk(void) { return TRAIN_LOSS_CHUNK; }
int ae_train_eval_sequences(void) { return TRAIN_EVAL_SEQUENCES; }

/* A slot number >= 0, or minus a status code (-TRAIN_ERR_MEMORY when every slot is taken). */
int ae_train_create(int task, int dk, int dv, unsigned seed)
{
    for (int s = 0; s < TRAIN_SLOTS; s++) {
        if (slots[s].used) continue;
        int st = train_init(&slots[s].t, slots[s].memory, (long)sizeof slots[s].memory, task, dk, dv, seed);
        if (st != ATTN_OK) return -st;
        slots[s].used = 1;
        return s;
    }
    return -TRAIN_ERR_MEMORY;
}

void ae_train_free(int slot)
{
    if (trainer(slot)) slots[slot].used = 0;
}

int ae_train_set(int slot, float lr, int optimizer, int batch)
{
    train_state *t = trainer(slot);
    return t ? train_set(t, lr, optimizer, batch) : ATTN_ERR_NULL;
}

/* k <= TRAIN_LOSS_CHUNK steps; their losses go to buffer T_LOSSES. */
int ae_train_steps(int slot, int k)
{
    train_state *t = trainer(slot);
    if (!t) return ATTN_ERR_NULL;
    if (k < 0 || k > TRAIN_LOSS_CHUNK) return TRAIN_ERR_SHAPE;
    return train_steps(t, k, slots[slot].losses);
}

void ae_train_reset(int slot)
{
    if (trainer(slot)) train_reset(&slots[slot].t);
}

void ae_train_reroll(int slot, unsigned seed)
{
    if (trainer(slot)) train_reroll(&slots[slot].t, seed);
}

/* Writes loss, attention on the right key and accuracy to buffer T_EVAL. */
int ae_train_evaluate(int slot)
{
    train_state *t = trainer(slot);
    if (!t) return ATTN_ERR_NULL;
    float *e = slots[slot].eval;
    return train_evaluate(t, &e[0], &e[1], &e[2]);
}

/* Writes one shown sequence to the T_EX_* buffers; returns its length, or minus a status. */
int ae_train_example(int slot, unsigned seed)
{
    train_state *t = trainer(slot);
    if (!t) return -ATTN_ERR_NULL;
    return train_example(t, seed, slots[slot].ex_tokens, slots[slot].ex_targets, slots[slot].ex_right, slots[slot].ex_X);
}

float ae_train_loss(int slot)
{
    train_state *t = trainer(slot);
    return t ? t->loss : 0.0f;
}

int ae_train_info(int slot, int which)
{
    train_state *t = trainer(slot);
    if (!t) return -1;
    switch (which) {
    case I_N: return t->n;
    case I_D: return t->d;
    case I_DK: return t->dk;
    case I_DV: return t->dv;
    case I_VOCAB: return t->vocab;
    case I_POSITIONS: return t->positions;
    case I_STEP: return (int)t->step;
    case I_BATCH: return t->batch;
    case I_OPTIMIZER: return t->optimizer;
    default: return -1;
    }
}

void *ae_train_buffer(int slot, int which)
{
    train_state *t = trainer(slot);
    if (!t) return 0;
    switch (which) {
    case T_WQ: return t->Wq;
    case T_WK: return t->Wk;
    case T_WV: return t->Wv;
    case T_WOUT: return t->Wout;
    case T_DWQ: return t->dWq;
    case T_DWK: return t->dWk;
    case T_DWV: return t->dWv;
    case T_DWOUT: return t->dWout;
    case T_LOSSES: return slots[slot].losses;
    case T_EVAL: return slots[slot].eval;
    case T_EX_TOKENS: return slots[slot].ex_tokens;
    case T_EX_TARGETS: return slots[slot].ex_targets;
    case T_EX_RIGHT: return slots[slot].ex_right;
    case T_EX_X: return slots[slot].ex_X;
    default: return 0;
    }
}

#endif /* AE_FORWARD_ONLY */

/* ================================================================ labs: one softmax row
 * The labs (web/labs/) call the one-row softmax functions of attention.h. Their buffers are
 * static, outside the arena, so a lab call never moves or resizes a head's buffers (and never
 * grows memory). JS writes a row into LAB_IN (and LAB_GRAD), calls one function with the row
 * length m <= ATTN_MAX_TOKENS, and copies LAB_OUT, LAB_TERMS and LAB_SCALARS out (the LAB_* ids:
 * c/wasm_exports.def). */
static float lab_rows[LAB_COUNT][ATTN_MAX_TOKENS];

float *ae_lab_buffer(int which)
{
    return which >= 0 && which < LAB_COUNT ? lab_rows[which] : 0;
}

/* LAB_IN: scores -> LAB_OUT weights, LAB_TERMS exp(s − max), LAB_SCALARS [max, sum] */
int ae_softmax_stable(int m)
{
    return attn_softmax_stable(lab_rows[LAB_OUT], lab_rows[LAB_TERMS], &lab_rows[LAB_SCALARS][0],
                               &lab_rows[LAB_SCALARS][1], lab_rows[LAB_IN], m);
}

/* LAB_IN: scores -> LAB_OUT weights (may be NaN), LAB_TERMS exp(s) (may be +Inf), LAB_SCALARS [0, sum] */
int ae_softmax_naive(int m)
{
    lab_rows[LAB_SCALARS][0] = 0.0f;
    return attn_softmax_naive(lab_rows[LAB_OUT], lab_rows[LAB_TERMS], &lab_rows[LAB_SCALARS][1], lab_rows[LAB_IN], m);
}

/* LAB_IN: weights, LAB_GRAD: dLoss/dweights -> LAB_OUT dLoss/dscores */
int ae_softmax_backward(int m)
{
    return attn_softmax_backward(lab_rows[LAB_OUT], lab_rows[LAB_IN], lab_rows[LAB_GRAD], m);
}

/* LAB_IN: weights -> LAB_SCALARS [max weight, entropy, ‖Jacobian‖_F] */
int ae_softmax_stats(int m)
{
    float *out = lab_rows[LAB_SCALARS];
    return attn_softmax_stats(&out[0], &out[1], &out[2], lab_rows[LAB_IN], m);
}

#ifndef AE_FORWARD_ONLY
/* ================================================================ labs: one tile at a time
 * The FlashAttention lab steps through the fused form's tiles with attn_tile_step, on the Q, K, V
 * (and mask) that ae_prepare laid out in the arena for the direct form (d = 0). The running state
 * of every query row, and the numbers of the last tile, stay here between calls (static, outside
 * the arena: a head of up to ATTN_MAX_TOKENS rows of ATTN_MAX_WIDTH values; tiles of up to
 * TILE_ROWS queries and ATTN_TILE_KEYS keys). */
static float tile_max[ATTN_MAX_TOKENS], tile_sum[ATTN_MAX_TOKENS], tile_out[ATTN_MAX_TOKENS * ATTN_MAX_WIDTH];
static float tile_z[TILE_ROWS * ATTN_TILE_KEYS], tile_p[TILE_ROWS * ATTN_TILE_KEYS];
static float tile_alpha[TILE_ROWS], tile_rescale[TILE_ROWS];

float *ae_tile_buffer(int which)
{
    float *at[TILE_COUNT] = {[TILE_MAX] = tile_max, [TILE_SUM] = tile_sum, [TILE_OUT] = tile_out, [TILE_Z] = tile_z,
                             [TILE_P] = tile_p, [TILE_ALPHA] = tile_alpha, [TILE_RESCALE] = tile_rescale};
    return which >= 0 && which < TILE_COUNT ? at[which] : 0;
}

int ae_tile_reset(void)
{
    if (!arena) return ATTN_ERR_NULL; /* (a forward pass laid out and filled Q, K and V) */
    if (n_ > ATTN_MAX_TOKENS || m_ > ATTN_MAX_TOKENS) return ATTN_ERR_SIZE;
    for (int i = 0; i < n_; i++) tile_max[i] = -INFINITY, tile_sum[i] = 0.0f;
    for (long e = 0; e < (long)n_ * dv_; e++) tile_out[e] = 0.0f;
    return ATTN_OK;
}

int ae_tile_step(int has_mask, int causal, float scale, int q0, int bq, int k0, int bk)
{
    if (!arena || (has_mask && !(layout_ & L_MASK))) return ATTN_ERR_NULL;
    if (bq > TILE_ROWS) return ATTN_ERR_SIZE;
    return attn_tile_step(tile_max, tile_sum, tile_out, tile_z, tile_p, tile_alpha, tile_rescale, buffer[B_Q], buffer[B_K],
                          buffer[B_V], has_mask ? buffer[B_MASK] : 0, causal, scale, n_, m_, dk_, dv_, q0, bq, k0, bk);
}
#endif /* AE_FORWARD_ONLY */

#if !defined AE_FORWARD_ONLY && !defined AE_NO_INDUCTION /* the trainer-only build stops here too */
/* ================================================================ induction (c/induction.h)
 *
 * Two-layer models in which an induction head forms (web/core/attention.js createInduction). Like
 * the trainers above, they live in static slots, each a fixed block of IND_SLOT_BYTES, so they
 * never move and the forward arena is unaffected. JS owns a slot from ae_ind_create until
 * ae_ind_free. ae_ind_buffer(slot, which, index) says where an array starts (index: the head
 * l*H + h, or the layer for IND_B_X); the addresses never change while the slot is held. */
#include "induction.h"

#define IND_SLOT_BYTES (384 * 1024) /* the anchor's size (2×2 heads, d 32, n 32) needs about 290 KB */
#define IND_LOSS_CHUNK 1024         /* most steps one ae_ind_steps call may take */
#define IND_SPLIT_FLOATS ((1 + (IND_MAX_LAYERS - 1) * IND_MAX_HEADS) * IND_MAX_TOKENS * IND_MAX_HEAD_D)

/* IND_SLOTS, and the ids ae_ind_buffer (IND_B_*) and ae_ind_info (IND_I_*) take: c/wasm_exports.def. */

static struct {
    int used;
    ind_model t;
    float losses[2 * IND_LOSS_CHUNK];
    float eval[3 + 2 * IND_MAX_LAYERS * IND_MAX_HEADS];
    float composition[IND_MAX_HEADS * IND_MAX_HEADS];
    float split[IND_SPLIT_FLOATS];
    _Alignas(16) unsigned char memory[IND_SLOT_BYTES];
} ind_slots[IND_SLOTS];

static ind_model *ind_of(int slot) { return slot >= 0 && slot < IND_SLOTS && ind_slots[slot].used ? &ind_slots[slot].t : 0; }

const char *ae_ind_token_name(int token) { return ind_token_name(token); }
int ae_ind_loss_chunk(void) { return IND_LOSS_CHUNK; }
int ae_ind_eval_sequences(void) { return IND_EVAL_SEQUENCES; }
int ae_ind_slot_bytes(void) { return IND_SLOT_BYTES; }

/* The bytes a model of this shape needs (0: a size is out of range). */
int ae_ind_memory_bytes(int layers, int heads, int d, int dh, int n, int vocab)
{
    ind_shape s = {layers, heads, d, dh, n, vocab};
    return (int)ind_memory_bytes(&s);
}

/* A slot number >= 0, or minus a status code (-IND_ERR_MEMORY: every slot is taken, or the
 * shape needs more than a slot holds). */
int ae_ind_create(int layers, int heads, int d, int dh, int n, int vocab, unsigned seed)
{
    ind_shape s = {layers, heads, d, dh, n, vocab};
    for (int k = 0; k < IND_SLOTS; k++) {
        if (ind_slots[k].used) continue;
        int st = ind_init(&ind_slots[k].t, ind_slots[k].memory, (long)sizeof ind_slots[k].memory, &s, seed);
        if (st != ATTN_OK) return -st;
        ind_slots[k].used = 1;
        return k;
    }
    return -IND_ERR_MEMORY;
}

void ae_ind_free(int slot)
{
    if (ind_of(slot)) ind_slots[slot].used = 0;
}

int ae_ind_set(int slot, float lr, float weight_decay, int batch)
{
    ind_model *t = ind_of(slot);
    return t ? ind_set(t, lr, weight_decay, batch) : ATTN_ERR_NULL;
}

int ae_ind_ablate(int slot, unsigned mask)
{
    ind_model *t = ind_of(slot);
    if (!t) return ATTN_ERR_NULL;
    ind_ablate(t, mask);
    return ATTN_OK;
}

/* k <= IND_LOSS_CHUNK steps; their first-part and repeated-part losses go to IND_B_LOSSES. */
int ae_ind_steps(int slot, int k)
{
    ind_model *t = ind_of(slot);
    if (!t) return ATTN_ERR_NULL;
    if (k < 0 || k > IND_LOSS_CHUNK) return IND_ERR_SHAPE;
    return ind_steps(t, k, ind_slots[slot].losses);
}

void ae_ind_reset(int slot)
{
    if (ind_of(slot)) ind_reset(&ind_slots[slot].t);
}

void ae_ind_reroll(int slot, unsigned seed)
{
    if (ind_of(slot)) ind_reroll(&ind_slots[slot].t, seed);
}

/* Writes ind_evaluate's numbers to IND_B_EVAL. */
int ae_ind_evaluate(int slot)
{
    ind_model *t = ind_of(slot);
    return t ? ind_evaluate(t, ind_slots[slot].eval) : ATTN_ERR_NULL;
}

/* Writes the K-composition scores to IND_B_COMPOSITION. */
int ae_ind_composition(int slot)
{
    ind_model *t = ind_of(slot);
    return t ? ind_composition(t, ind_slots[slot].composition) : ATTN_ERR_NULL;
}

/* One shown sequence from its seed, run forward: returns n, or minus a status. */
int ae_ind_example(int slot, unsigned seed)
{
    ind_model *t = ind_of(slot);
    return t ? ind_example(t, seed) : -ATTN_ERR_NULL;
}

/* After ae_ind_example: head (layer, head)'s K split into parts, in IND_B_SPLIT. */
int ae_ind_key_split(int slot, int layer, int head)
{
    ind_model *t = ind_of(slot);
    return t ? ind_key_split(t, layer, head, ind_slots[slot].split) : -ATTN_ERR_NULL;
}

/* The last step's batch loss: which 0 all predictions, 1 the first part, 2 the repeated part. */
float ae_ind_loss(int slot, int which)
{
    ind_model *t = ind_of(slot);
    if (!t) return 0.0f;
    return which == 1 ? t->loss_first : which == 2 ? t->loss_repeat : t->loss;
}

int ae_ind_info(int slot, int which)
{
    ind_model *t = ind_of(slot);
    if (!t) return -1;
    switch (which) {
    case IND_I_LAYERS: return t->s.layers;
    case IND_I_HEADS: return t->s.heads;
    case IND_I_D: return t->s.d;
    case IND_I_DH: return t->s.dh;
    case IND_I_N: return t->s.n;
    case IND_I_VOCAB: return t->s.vocab;
    case IND_I_STEP: return (int)t->step;
    case IND_I_BATCH: return t->batch;
    case IND_I_K: return t->k;
    case IND_I_PARAMS: return (int)t->n_params;
    case IND_I_ABLATED: return (int)t->ablated;
    default: return -1;
    }
}

void *ae_ind_buffer(int slot, int which, int index)
{
    ind_model *t = ind_of(slot);
    if (!t) return 0;
    int heads = t->s.layers * t->s.heads;
    int h = index >= 0 && index < heads ? index : -1; /* a head, for the per-head arrays */
    switch (which) {
    case IND_B_LOSSES: return ind_slots[slot].losses;
    case IND_B_EVAL: return ind_slots[slot].eval;
    case IND_B_COMPOSITION: return ind_slots[slot].composition;
    case IND_B_SPLIT: return ind_slots[slot].split;
    case IND_B_TOKENS: return t->tokens;
    case IND_B_TARGETS: return t->targets;
    case IND_B_PART: return t->part;
    case IND_B_INDUCT: return t->induct;
    case IND_B_PARAMS: return t->params;
    case IND_B_GRADS: return t->grads;
    case IND_B_E: return t->E;
    case IND_B_P: return t->P;
    case IND_B_PROBS: return t->probs;
    case IND_B_X: return index >= 0 && index <= t->s.layers ? t->X[index] : 0;
    default: break;
    }
    if (h < 0) return 0;
    switch (which) {
    case IND_B_WQ: return t->Wq[h];
    case IND_B_WK: return t->Wk[h];
    case IND_B_WV: return t->Wv[h];
    case IND_B_WO: return t->Wo[h];
    case IND_B_DWQ: return t->dWq[h];
    case IND_B_DWK: return t->dWk[h];
    case IND_B_DWV: return t->dWv[h];
    case IND_B_DWO: return t->dWo[h];
    case IND_B_Q: return t->Q[h];
    case IND_B_K: return t->K[h];
    case IND_B_V: return t->V[h];
    case IND_B_S: return t->S[h];
    case IND_B_A: return t->A[h];
    case IND_B_O: return t->O[h];
    case IND_B_C: return t->C[h];
    default: return 0;
    }
}
#endif /* AE_FORWARD_ONLY, AE_NO_INDUCTION */
