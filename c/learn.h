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

#endif
