/*
 * learn.h: what every trainer in c/ shares (train.c's one head, induction.c's two layers):
 * a seeded random stream and the optimizer step. Nothing here allocates, prints or exits.
 */
#ifndef LEARN_H
#define LEARN_H

#include <stdint.h>

/* ---------------------------------------------------------------- random numbers
 * mulberry32: a 32-bit state, so a stream is saved and restored by copying one number, and the
 * same seed gives the same numbers natively, in Node and in every browser. */
uint32_t learn_u32(uint32_t *state);
int learn_below(uint32_t *state, int k);      /* uniform in 0..k-1 */
float learn_uniform(uint32_t *state, float a); /* uniform in [-a, a) */

/* ---------------------------------------------------------------- the optimizer step
 * One step on `count` parameters p with their (averaged) gradients g.
 *   SGD    p -= lr·g
 *   AdamW  m = β1·m + (1−β1)·g,  v = β2·v + (1−β2)·g²            (running means of g and g²)
 *          p -= lr·wd·p                                          (decoupled weight decay)
 *          p -= lr·(m / (1−β1^step)) / (sqrt(v / (1−β2^step)) + ε)
 *   with β1 = 0.9, β2 = 0.999, ε = 1e-8 (PyTorch's defaults). step counts from 1. Adam moves each
 * parameter by about lr whatever the gradient's size; weight decay 0 is plain Adam, bit for bit. */
void learn_sgd(float *p, const float *g, long count, float lr);
void learn_adamw(float *p, float *m, float *v, const float *g, long count, long step, float lr, float weight_decay);

/* ---------------------------------------------------------------- carving a block into arrays
 * A trainer lays its arrays out one after another in the one block its caller gives it, each
 * at a 16-byte aligned offset: LEARN_TAKE(base, at, ptr, type, count) places ptr at base + at
 * (with base NULL it only counts) and moves `at` past it. Under AddressSanitizer (the native
 * tests and the fuzzers) each array is followed by LEARN_GUARD poisoned bytes, so a write one
 * element past any array is reported even where the alignment leaves no gap between arrays;
 * the Wasm build has no guards. A trainer laid out again in the same block (a reused slot)
 * first unpoisons its span with LEARN_UNPOISON. */
#if defined(__SANITIZE_ADDRESS__)
#define LEARN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LEARN_ASAN 1
#endif
#endif
#ifdef LEARN_ASAN
#include <sanitizer/asan_interface.h>
#define LEARN_GUARD 16L
#define LEARN_POISON(at, bytes) ASAN_POISON_MEMORY_REGION(at, bytes)
#define LEARN_UNPOISON(at, bytes) ASAN_UNPOISON_MEMORY_REGION(at, bytes)
#else
#define LEARN_GUARD 0L
#define LEARN_POISON(at, bytes) ((void)(at), (void)(bytes))
#define LEARN_UNPOISON(at, bytes) ((void)(at), (void)(bytes))
#endif
#define LEARN_TAKE(base, at, ptr, type, count)                                      \
    do {                                                                            \
        long size_ = (long)(count) * (long)sizeof(type);                            \
        long end_ = (at) + ((size_ + 15) & ~15L);                                   \
        if (base) {                                                                 \
            (ptr) = (type *)(void *)((base) + (at));                                \
            LEARN_POISON((base) + (at) + size_, end_ - (at) - size_ + LEARN_GUARD); \
        }                                                                           \
        (at) = end_ + LEARN_GUARD;                                                  \
    } while (0)

#endif
