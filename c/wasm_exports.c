/*
 * wasm_exports.c: the one list of what the WebAssembly module exports, and the one owner of
 * its working memory. web/attention.js is the only code that calls these.
 *
 * The JS side calls ae_prepare(n, m, d, dk, dv) once per forward pass; it lays out every buffer
 * of one head in a single arena that grows when a call needs more and is otherwise reused,
 * so repeated calls never grow memory. ae_buffer(which) returns where each buffer starts;
 * JS writes the inputs there, calls ae_forward or ae_sdpa, and copies the outputs out.
 * Growing the arena may grow Wasm memory, so JS re-reads its views after ae_prepare.
 */
#include "attention.h"

#include <stdint.h>

#define EXPORT(name) __attribute__((export_name(#name)))

/* Buffer ids, in arena order: what a result returns first, then scratch (the caller's mask and
 * Kᵀ), so that JS copies the results out with one slice. web/attention.js keeps the same list. */
enum { B_X, B_XKV, B_WQ, B_WK, B_WV, B_Q, B_K, B_V, B_S, B_M, B_A, B_O, B_MASK, B_KT, B_COUNT };

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
static int n_, m_, d_, dk_, dv_;

EXPORT(ae_max_tokens) int ae_max_tokens(void) { return ATTN_MAX_TOKENS; }
EXPORT(ae_max_width) int ae_max_width(void) { return ATTN_MAX_WIDTH; }
EXPORT(ae_default_scale) float ae_default_scale(int dk) { return attn_default_scale(dk); }

/* d = 0 prepares the direct form (Q, K, V given; no X and no weights). Returns an attn_status,
 * or -1 when memory could not be had. */
EXPORT(ae_prepare) int ae_prepare(int n, int m, int d, int dk, int dv)
{
    if (n < 1 || n > ATTN_MAX_TOKENS || m < 1 || m > ATTN_MAX_TOKENS || d < 0 || d > ATTN_MAX_WIDTH ||
        dk < 1 || dk > ATTN_MAX_WIDTH || dv < 1 || dv > ATTN_MAX_WIDTH)
        return ATTN_ERR_SIZE;
    long count[B_COUNT] = {
        [B_X] = (long)n * d, [B_XKV] = (long)m * d, [B_WQ] = (long)d * dk, [B_WK] = (long)d * dk,
        [B_WV] = (long)d * dv, [B_MASK] = (long)n * m, [B_Q] = (long)n * dk, [B_K] = (long)m * dk,
        [B_V] = (long)m * dv, [B_KT] = (long)dk * m, [B_S] = (long)n * m, [B_M] = (long)n * m,
        [B_A] = (long)n * m, [B_O] = (long)n * dv,
    };
    long total = 0;
    for (int b = 0; b < B_COUNT; b++) total += (count[b] + 3) & ~3L; /* 16-byte aligned starts */
    if (total > arena_floats && !arena_reserve(total)) return -1;
    long at = 0;
    for (int b = 0; b < B_COUNT; b++) {
        buffer[b] = arena + at;
        at += (count[b] + 3) & ~3L;
    }
    n_ = n; m_ = m; d_ = d; dk_ = dk; dv_ = dv;
    return ATTN_OK;
}

EXPORT(ae_buffer) float *ae_buffer(int which)
{
    return which >= 0 && which < B_COUNT ? buffer[which] : 0;
}

/* The direct form: Q, K, V (and the mask) were written by JS. */
EXPORT(ae_sdpa) int ae_sdpa(int has_mask, int causal, float scale)
{
    if (!arena) return ATTN_ERR_NULL;
    attn_status st = attn_mask_build(buffer[B_M], has_mask ? buffer[B_MASK] : 0, causal, n_, m_);
    if (st != ATTN_OK) return st;
    return attn_sdpa(buffer[B_S], buffer[B_A], buffer[B_O], buffer[B_KT], buffer[B_Q], buffer[B_K],
                     buffer[B_V], buffer[B_M], 0, scale, n_, m_, dk_, dv_);
}

/* The projection form: X, the weights (Xkv for cross-attention) and the mask were written by JS. */
EXPORT(ae_forward) int ae_forward(int has_xkv, int has_mask, int causal, float scale)
{
    if (!arena || d_ < 1) return ATTN_ERR_NULL;
    attn_status st = attn_project(buffer[B_Q], buffer[B_K], buffer[B_V], buffer[B_X],
                                  has_xkv ? buffer[B_XKV] : buffer[B_X], buffer[B_WQ], buffer[B_WK],
                                  buffer[B_WV], n_, m_, d_, dk_, dv_);
    if (st != ATTN_OK) return st;
    return ae_sdpa(has_mask, causal, scale);
}

/* ================================================================ labs: one softmax row
 * The labs (web/labs/) call the one-row softmax functions of attention.h. Their buffers are
 * static, outside the arena, so a lab call never moves or resizes a head's buffers (and never
 * grows memory). JS writes a row into LAB_IN (and LAB_GRAD), calls one function with the row
 * length m <= ATTN_MAX_TOKENS, and copies LAB_OUT, LAB_TERMS and LAB_SCALARS out. */
enum { LAB_IN, LAB_GRAD, LAB_OUT, LAB_TERMS, LAB_SCALARS, LAB_COUNT };
static float lab_rows[LAB_COUNT][ATTN_MAX_TOKENS];

EXPORT(ae_lab_buffer) float *ae_lab_buffer(int which)
{
    return which >= 0 && which < LAB_COUNT ? lab_rows[which] : 0;
}

/* LAB_IN: scores -> LAB_OUT weights, LAB_TERMS exp(s − max), LAB_SCALARS [max, sum] */
EXPORT(ae_softmax_stable) int ae_softmax_stable(int m)
{
    return attn_softmax_stable(lab_rows[LAB_OUT], lab_rows[LAB_TERMS], &lab_rows[LAB_SCALARS][0],
                               &lab_rows[LAB_SCALARS][1], lab_rows[LAB_IN], m);
}

/* LAB_IN: scores -> LAB_OUT weights (may be NaN), LAB_TERMS exp(s) (may be +Inf), LAB_SCALARS [0, sum] */
EXPORT(ae_softmax_naive) int ae_softmax_naive(int m)
{
    lab_rows[LAB_SCALARS][0] = 0.0f;
    return attn_softmax_naive(lab_rows[LAB_OUT], lab_rows[LAB_TERMS], &lab_rows[LAB_SCALARS][1], lab_rows[LAB_IN], m);
}

/* LAB_IN: weights, LAB_GRAD: dLoss/dweights -> LAB_OUT dLoss/dscores */
EXPORT(ae_softmax_backward) int ae_softmax_backward(int m)
{
    return attn_softmax_backward(lab_rows[LAB_OUT], lab_rows[LAB_IN], lab_rows[LAB_GRAD], m);
}

/* LAB_IN: weights -> LAB_SCALARS [max weight, entropy, ‖Jacobian‖_F] */
EXPORT(ae_softmax_stats) int ae_softmax_stats(int m)
{
    float *out = lab_rows[LAB_SCALARS];
    return attn_softmax_stats(&out[0], &out[1], &out[2], lab_rows[LAB_IN], m);
}
