/*
 * induction_sweep_native.c: a native measurement harness for issue 16's ablation target (not
 * built by make; bench/induction-sweep-native.sh builds and runs it). It links a copy of
 * c/induction.c that the script edits with sed in build/sweep/ (the product is untouched):
 *   - AdamW goes through sweep_adamw: beta2 and a linear warm-up of the learning rate;
 *   - the training target gets label smoothing sweep_ls (the evaluation stays plain CE);
 *   - heads in sweep_dead are skipped in the forward pass (and ablated), so a model with fewer
 *     heads in layer 2 than in layer 1 costs what it would (head 2.2 is drawn last at init, so
 *     the other heads start as they would without it).
 * Per seed: the step the circuit formed (induction > 0.5 on a live layer-2 head and held-out
 * repeated-part loss < 0.3, every 10 steps), the rise of the repeated-part loss when the
 * strongest layer-2 head is ablated at the end, the one-layer control's lowest repeated-part
 * loss, and the wall time per training step.
 * usage: induction_sweep_native H L2 DH LR BETA2 WARMUP LS KLO KHI SEED0 SEED1 CONTROL(0/1) [STEPS]
 */
#include "induction.h"
#include "learn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

unsigned sweep_dead;
float sweep_ls, sweep_beta2 = 0.999f;
int sweep_warmup;

void sweep_adamw(float *p, float *m, float *v, const float *g, long count, long step, float lr, float wd)
{
    const float beta1 = 0.9f, beta2 = sweep_beta2, eps = 1e-8f;
    if (sweep_warmup > 0 && step < sweep_warmup) lr *= (float)step / (float)sweep_warmup;
    float c1 = 1.0f - powf(beta1, (float)step), c2 = 1.0f - powf(beta2, (float)step);
    float decay = 1.0f - lr * wd;
    for (long e = 0; e < count; e++) {
        m[e] = beta1 * m[e] + (1.0f - beta1) * g[e];
        v[e] = beta2 * v[e] + (1.0f - beta2) * g[e] * g[e];
        p[e] = p[e] * decay - lr * (m[e] / c1) / (sqrtf(v[e] / c2) + eps);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

extern int sweep_klo, sweep_khi;

int main(int argc, char **argv)
{
    if (argc < 13) return 2;
    int H = atoi(argv[1]), L2 = atoi(argv[2]), dh = atoi(argv[3]);
    float lr = (float)atof(argv[4]);
    sweep_beta2 = (float)atof(argv[5]);
    sweep_warmup = atoi(argv[6]);
    sweep_ls = (float)atof(argv[7]);
    sweep_klo = atoi(argv[8]), sweep_khi = atoi(argv[9]);
    int s0 = atoi(argv[10]), s1 = atoi(argv[11]), control = atoi(argv[12]), steps = argc > 13 ? atoi(argv[13]) : 600;
    sweep_dead = 0;
    for (int h = L2; h < H; h++) sweep_dead |= 1u << (H + h);
    ind_shape s = {2, H, 32, dh, 32, 28}, c = {1, H, 32, dh, 32, 28};
    long bytes = ind_memory_bytes(&s);
    void *mem = malloc((size_t)bytes);
    ind_model t;
    float out[3 + 2 * IND_MAX_LAYERS * IND_MAX_HEADS];
    int formed = 0, passed = 0, ctl_ok = 0, count = 0;
    double step_time = 0;
    char ats[512] = "";
    for (int seed = s0; seed <= s1; seed++) {
        ind_init(&t, mem, bytes, &s, (uint32_t)seed);
        ind_set(&t, lr, 0.01f, 16);
        ind_ablate(&t, sweep_dead);
        int at = -1;
        double train = 0;
        for (int st = 0; st < steps; st += 10) {
            double t0 = now();
            if (ind_steps(&t, 10, NULL) != ATTN_OK) break;
            train += now() - t0;
            if (at < 0) {
                ind_evaluate(&t, out);
                float best = 0;
                for (int h = H; h < H + L2; h++) best = fmaxf(best, out[4 + 2 * h]);
                if (best > 0.5f && out[1] < 0.3f) at = st + 10;
            }
        }
        step_time += train / steps;
        ind_evaluate(&t, out);
        float full = out[1], sc = -1;
        int strongest = H;
        for (int h = H; h < H + L2; h++)
            if (out[4 + 2 * h] > sc) sc = out[4 + 2 * h], strongest = h;
        float ind2 = L2 > 1 ? out[4 + 2 * (H + 1)] : 0, ind1 = out[4 + 2 * H];
        ind_ablate(&t, sweep_dead | 1u << strongest);
        ind_evaluate(&t, out);
        float delta = out[1] - full;
        float ctl = INFINITY;
        if (control) {
            ind_init(&t, mem, bytes, &c, (uint32_t)seed);
            ind_set(&t, lr, 0.01f, 16);
            for (int st = 0; st < steps; st += 10) {
                ind_steps(&t, 10, NULL);
                ind_evaluate(&t, out);
                ctl = fminf(ctl, out[1]);
            }
        }
        printf("seed %d: formed %d rep %.3f ind %.2f/%.2f ablate +%.2f control %.2f\n", seed, at, full, ind1, ind2, delta,
               control ? ctl : -1.0f);
        count++;
        if (at > 0) {
            formed++;
            passed += delta > 1.0f;
            snprintf(ats + strlen(ats), sizeof ats - strlen(ats), "%d,", at);
        } else snprintf(ats + strlen(ats), sizeof ats - strlen(ats), "-,");
        ctl_ok += !control || ctl > 1.0f;
    }
    printf("SUMMARY H%d L2 %d dh%d lr %g b2 %g warm %d ls %g seeds %d-%d: formed %d/%d ablation %d/%d control %d/%d at %s %.3f ms/step\n",
           H, L2, dh, lr, sweep_beta2, sweep_warmup, sweep_ls, s0, s1, formed, count, passed, formed, ctl_ok, count, ats,
           1000 * step_time / count);
    free(mem);
    return 0;
}
