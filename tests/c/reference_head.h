/*
 * reference_head.h: one self-attention head and the loss L = Σ dO ⊙ O, written from the maths
 * in float64, independent of c/attention.c, and its central differences (ref_gradient), which
 * test_backward.c and fuzz_backward.c check attn_backward against. Shapes: n <= 8 tokens, d, dk, dv <= 8.
 */
#ifndef TESTS_C_REFERENCE_HEAD_H
#define TESTS_C_REFERENCE_HEAD_H

#include <math.h>

/* L = sum dO ⊙ O for the head on (X, Wq, Wk, Wv), all in double. */
static double ref_loss(const double *X, const double *Wq, const double *Wk, const double *Wv, const float *dO,
                       const float *mask, int causal, double scale, int n, int d, int dk, int dv)
{
    enum { MAXN = 8, MAXW = 8 };
    double Q[MAXN][MAXW], K[MAXN][MAXW], V[MAXN][MAXW], A[MAXN][MAXN];
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < dk; c++) {
            double q = 0, k = 0;
            for (int t = 0; t < d; t++) q += X[i * d + t] * Wq[t * dk + c], k += X[i * d + t] * Wk[t * dk + c];
            Q[i][c] = q, K[i][c] = k;
        }
        for (int c = 0; c < dv; c++) {
            double v = 0;
            for (int t = 0; t < d; t++) v += X[i * d + t] * Wv[t * dv + c];
            V[i][c] = v;
        }
    }
    double L = 0;
    for (int i = 0; i < n; i++) {
        double max = -INFINITY, sum = 0;
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int c = 0; c < dk; c++) s += Q[i][c] * K[j][c];
            double z = scale * s + (mask ? (double)mask[i * n + j] : 0.0);
            if (causal && j > i) z = -INFINITY;
            A[i][j] = z;
            if (z > max) max = z;
        }
        for (int j = 0; j < n; j++) {
            A[i][j] = (max == -INFINITY || A[i][j] == -INFINITY) ? 0.0 : exp(A[i][j] - max);
            sum += A[i][j];
        }
        for (int c = 0; c < dv; c++) {
            double o = 0;
            for (int j = 0; j < n; j++) o += (sum > 0 ? A[i][j] / sum : 0.0) * V[j][c];
            L += (double)dO[i * dv + c] * o;
        }
    }
    return L;
}

/* Central differences of ref_loss, step h, for every entry of tensor t of p = {X, Wq, Wk, Wv}
 * (count entries), written to fd; returns the largest |fd|. p is restored entry by entry. */
static double ref_gradient(double *fd, double *p[4], int t, long count, double h, const float *dO, const float *mask,
                           int causal, double scale, int n, int d, int dk, int dv)
{
    double biggest = 0;
    for (long e = 0; e < count; e++) {
        double keep = p[t][e];
        p[t][e] = keep + h;
        double up = ref_loss(p[0], p[1], p[2], p[3], dO, mask, causal, scale, n, d, dk, dv);
        p[t][e] = keep - h;
        double down = ref_loss(p[0], p[1], p[2], p[3], dO, mask, causal, scale, n, d, dk, dv);
        p[t][e] = keep;
        fd[e] = (up - down) / (2 * h);
        if (fabs(fd[e]) > biggest) biggest = fabs(fd[e]);
    }
    return biggest;
}

#endif
