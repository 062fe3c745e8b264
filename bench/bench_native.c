/* bench_native.c: times one attention head (attn_project + attn_mask_build + attn_sdpa, the
 * same calls the Wasm build makes) natively. Prints one line per size:
 *   native n d dk microseconds_per_call
 * bench/bench.mjs runs it and puts it in the table beside the Wasm and plain-JS numbers. */
#define _POSIX_C_SOURCE 199309L
#include "attention.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* CPU time of this process, as bench/bench.mjs measures the Wasm builds (a shared machine's
 * other jobs do not count). */
static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static unsigned seed = 12345;
static float rnd(void) { seed = seed * 1664525u + 1013904223u; return (seed >> 8) / 16777216.0f * 2 - 1; }

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    const int sizes[][3] = {{5, 4, 4}, {64, 64, 64}, {256, 64, 64}, {512, 128, 64}};
    for (int s = 0; s < 4; s++) {
        int n = sizes[s][0], d = sizes[s][1], dk = sizes[s][2], dv = dk, m = n;
        float *X = malloc(sizeof(float) * n * d), *Wq = malloc(sizeof(float) * d * dk);
        float *Wk = malloc(sizeof(float) * d * dk), *Wv = malloc(sizeof(float) * d * dv);
        float *Q = malloc(sizeof(float) * n * dk), *K = malloc(sizeof(float) * m * dk);
        float *V = malloc(sizeof(float) * m * dv), *Kt = malloc(sizeof(float) * dk * m);
        float *S = malloc(sizeof(float) * n * m), *M = malloc(sizeof(float) * n * m);
        float *A = malloc(sizeof(float) * n * m), *O = malloc(sizeof(float) * n * dv);
        for (int i = 0; i < n * d; i++) X[i] = rnd();
        for (int i = 0; i < d * dk; i++) { Wq[i] = rnd(); Wk[i] = rnd(); }
        for (int i = 0; i < d * dv; i++) Wv[i] = rnd();
        float scale = attn_default_scale(dk);
        /* calibrate: enough calls for about 10 ms per sample */
        int inner = 1;
        for (;;) {
            double t0 = now_us();
            for (int r = 0; r < inner; r++) {
                attn_project(Q, K, V, X, X, Wq, Wk, Wv, n, m, d, dk, dv);
                attn_mask_build(M, NULL, 1, n, m);
                attn_sdpa(S, A, O, Kt, Q, K, V, M, 0, scale, n, m, dk, dv);
            }
            if (now_us() - t0 > 10000 || inner > (1 << 24)) break;
            inner *= 2;
        }
        double t[31];
        for (int b = 0; b < 31; b++) {
            double t0 = now_us();
            for (int r = 0; r < inner; r++) {
                attn_project(Q, K, V, X, X, Wq, Wk, Wv, n, m, d, dk, dv);
                attn_mask_build(M, NULL, 1, n, m);
                attn_sdpa(S, A, O, Kt, Q, K, V, M, 0, scale, n, m, dk, dv);
            }
            t[b] = (now_us() - t0) / inner;
        }
        qsort(t, 31, sizeof t[0], cmp);
        printf("native %d %d %d %.4f\n", n, d, dk, t[15]);
        free(X); free(Wq); free(Wk); free(Wv); free(Q); free(K); free(V); free(Kt); free(S); free(M); free(A); free(O);
    }
    return 0;
}
