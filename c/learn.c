/*
 * learn.c: the random stream and the optimizer step every trainer shares (learn.h).
 */
#include "learn.h"

#include <math.h>

uint32_t learn_u32(uint32_t *state)
{
    uint32_t t = (*state += 0x6d2b79f5u);
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return t ^ (t >> 14);
}

int learn_below(uint32_t *state, int k) { return (int)(((uint64_t)learn_u32(state) * (uint32_t)k) >> 32); }

float learn_uniform(uint32_t *state, float a)
{
    return a * (2.0f * (float)(learn_u32(state) >> 8) / 16777216.0f - 1.0f);
}

void learn_sgd(float *p, const float *g, long count, float lr)
{
    for (long e = 0; e < count; e++) p[e] -= lr * g[e];
}

void learn_adamw(float *p, float *m, float *v, const float *g, long count, long step, float lr, float weight_decay)
{
    const float beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
    /* the running means start at 0; dividing by 1 - beta^step removes that bias early on */
    float c1 = 1.0f - powf(beta1, (float)step), c2 = 1.0f - powf(beta2, (float)step);
    float decay = 1.0f - lr * weight_decay; /* exactly 1 without weight decay */
    for (long e = 0; e < count; e++) {
        m[e] = beta1 * m[e] + (1.0f - beta1) * g[e];
        v[e] = beta2 * v[e] + (1.0f - beta2) * g[e] * g[e];
        p[e] = p[e] * decay - lr * (m[e] / c1) / (sqrtf(v[e] / c2) + eps);
    }
}
