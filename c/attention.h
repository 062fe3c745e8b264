/*
 * attention.h: one attention head, every intermediate kept.
 *
 * Dimension legend (used on every tensor in this project):
 *   n   query tokens            m   key/value tokens (m = n in self-attention)
 *   d   model width (columns of X)
 *   dk  query/key width         dv  value width (= output width)
 *
 * All matrices are float32, row-major: element [i][j] of an [r, c] matrix is at i*c + j.
 *
 *   Q = X · Wq        [n, dk]        K = Xkv · Wk   [m, dk]        V = Xkv · Wv  [m, dv]
 *   S = scale · Q·Kᵀ  [n, m]   (before the mask; scale defaults to 1/sqrt(dk))
 *   A = softmax_row(S + M)     [n, m]   M: 0 where query i may look at key j, -inf where not,
 *                                       or any float added to the score
 *   O = A · V         [n, dv]
 *
 * Semantics are PyTorch's scaled_dot_product_attention (CPU, 2.5+): a causal query i sees keys
 * j <= i (top-left aligned when n != m); a row whose keys are all masked has A = 0 and O = 0.
 *
 * Memory: nothing here allocates. The caller owns every buffer; outputs come first in each
 * argument list, then const inputs, then sizes. Output buffers must not overlap inputs.
 * No function prints, exits or reads outside the sizes it is given.
 */
#ifndef ATTENTION_H
#define ATTENTION_H

/* Limits: they keep one forward call well under 100 ms in WebAssembly (about 0.5 GFLOP at
 * the largest sizes) and its buffers under 10 MB. */
#define ATTN_MAX_TOKENS 512 /* n and m */
#define ATTN_MAX_WIDTH  256 /* d, dk and dv */

typedef enum {
    ATTN_OK = 0,
    ATTN_ERR_SIZE = 1,      /* a size is below 1 or above its ATTN_MAX_* limit */
    ATTN_ERR_NULL = 2,      /* a required buffer is NULL */
    ATTN_ERR_NONFINITE = 3, /* X, Xkv, Wq, Wk, Wv, Q, K or V holds NaN or +-Infinity */
    ATTN_ERR_MASK = 4,      /* the mask holds NaN or +Infinity (only -Infinity is allowed) */
    ATTN_ERR_SCALE = 5,     /* scale is zero, negative, NaN or infinite */
    ATTN_ERR_OVERFLOW = 6   /* finite inputs whose Q, K, V or scores pass FLT_MAX (about 3.4e38):
                               no finite answer exists; the outputs are not meaningful */
} attn_status;

/* Pass 0 of a head: the three projections.
 *   Q = X·Wq, K = Xkv·Wk, V = Xkv·Wv.  For self-attention pass Xkv = X and m = n.
 *   n and m up to ATTN_MAX_TOKENS_FUSED (nothing here is n×m). */
attn_status attn_project(float *Q,         /* [n, dk] out */
                         float *K,         /* [m, dk] out */
                         float *V,         /* [m, dv] out */
                         const float *X,   /* [n, d] */
                         const float *Xkv, /* [m, d] */
                         const float *Wq,  /* [d, dk] */
                         const float *Wk,  /* [d, dk] */
                         const float *Wv,  /* [d, dv] */
                         int n, int m, int d, int dk, int dv);

/* Scaled dot-product attention from Q, K and V (the lesson's direct form), the long form.
 *   Kt is scratch the caller provides: dk·m floats, overwritten with Kᵀ (packed in panels of 8 keys).
 *   mask may be NULL (no mask); causal != 0 adds -inf where j > i. Both may be given.
 *   S is overwritten with scale·Q·Kᵀ (no mask), A with the weights, O with the output. */
attn_status attn_sdpa(float *S,          /* [n, m] out */
                      float *A,          /* [n, m] out */
                      float *O,          /* [n, dv] out */
                      float *Kt,         /* [dk, m] scratch */
                      const float *Q,    /* [n, dk] */
                      const float *K,    /* [m, dk] */
                      const float *V,    /* [m, dv] */
                      const float *mask, /* [n, m] additive, or NULL */
                      int causal, float scale,
                      int n, int m, int dk, int dv);

/* The fused form of attn_sdpa, tiled as FlashAttention is: O without S or A, for sequences up to
 * ATTN_MAX_TOKENS_FUSED. It takes a block of 4 queries at a time against a tile of
 * ATTN_TILE_KEYS keys at a time, and carries for each query row an online softmax: the running
 * maximum m of its scores, the running sum l of exp(score − m), and its output so far, the
 * weighted average of the values seen. A tile's weights are exp(score − m_new) / l_new, and the
 * output so far is rescaled by alpha·l_old / l_new, with alpha = exp(m_old − m_new) (1 while the
 * maximum stays); the output never grows past the largest |v|. A row with no key left has O = 0. Tiles
 * the causal mask removes entirely are skipped. Memory: K and V packed (the sizes of K and V) and
 * a few tiles, so it grows with n and m, never with n·m (but for the mask, an input the caller
 * gives). O agrees with attn_sdpa's to float32 rounding (tests/c/test_fused.c states the bound),
 * not bit for bit: the sums are taken in another order. Same arguments, statuses and semantics as
 * attn_sdpa, including ATTN_ERR_OVERFLOW when any score scale·q·k (masked or not) passes FLT_MAX.
 *   work is scratch the caller provides: ATTN_FUSED_WORK(m, dk, dv) floats. */
#define ATTN_MAX_TOKENS_FUSED 8192 /* n and m of the fused form */
#define ATTN_TILE_KEYS 1024        /* keys per tile of the fused form (a multiple of 8; see docs/speed.md) */
#define ATTN_FUSED_WORK(m, dk, dv) ((long)(dk) * (m) + ((long)(m) + 8L) * (((dv) + 7) / 8 * 8) + 4L * ATTN_TILE_KEYS)
attn_status attn_sdpa_fused(float *O,          /* [n, dv] out */
                            float *work,       /* [ATTN_FUSED_WORK(m, dk, dv)] scratch */
                            const float *Q,    /* [n, dk] */
                            const float *K,    /* [m, dk] */
                            const float *V,    /* [m, dv] */
                            const float *mask, /* [n, m] additive, or NULL */
                            int causal, float scale,
                            int n, int m, int dk, int dv);
/* attn_sdpa_fused with tiles of tile_keys keys (a multiple of 8, 8 .. ATTN_TILE_KEYS; otherwise
 * ATTN_ERR_SIZE) instead of ATTN_TILE_KEYS: the same O to float32 rounding. For tests, which
 * compare several tiles per row with the long form, whose ATTN_MAX_TOKENS is below one full tile. */
attn_status attn_sdpa_fused_tiles(float *O, float *work, const float *Q, const float *K, const float *V,
                                  const float *mask, int causal, float scale, int n, int m, int dk, int dv,
                                  int tile_keys);

/* One tile of the fused form's arithmetic, for a lab that steps through it: query rows q0 ..
 * q0+bq−1 against keys k0 .. k0+bk−1 (both clipped to n and m; bq, bk <= ATTN_TILE_KEYS), with
 * each query row's running state kept by the caller between calls: run_max[i] (start −Infinity),
 * run_sum[i] (start 0) and out[i][·] (start 0), the average of the values seen so far. For row r
 * of the tile it writes z[r][j] = scale·q·k + mask (−Infinity where the causal mask hides the key),
 * p[r][j] = exp(z − m_new), alpha[r] = exp(m_old − m_new) and rescale[r] = alpha·l_old / l_new,
 * then sets out = rescale·out + Σ_j (p_j / l_new)·v_j. After every tile a row sees, out is its O
 * (to float32 rounding of the fused form's: its sums run in another order). n, m <= ATTN_MAX_TOKENS. */
attn_status attn_tile_step(float *run_max,    /* [n] in/out */
                           float *run_sum,    /* [n] in/out */
                           float *out,        /* [n, dv] in/out */
                           float *z,          /* [bq, bk] out */
                           float *p,          /* [bq, bk] out */
                           float *alpha,      /* [bq] out */
                           float *rescale,    /* [bq] out */
                           const float *Q,    /* [n, dk] */
                           const float *K,    /* [m, dk] */
                           const float *V,    /* [m, dv] */
                           const float *mask, /* [n, m] additive, or NULL */
                           int causal, float scale, int n, int m, int dk, int dv, int q0, int bq, int k0, int bk);

/* The additive mask a head uses: M[i][j] = mask[i][j] (0 when mask is NULL), and -Infinity
 * where causal != 0 and j > i. attn_sdpa(..., mask = M, causal = 0, ...) then gives the same
 * result as passing mask and causal separately; the explorer shows M. */
attn_status attn_mask_build(float *M,          /* [n, m] out */
                            const float *mask, /* [n, m] additive, or NULL */
                            int causal, int n, int m);

/* C = A·B with C [n, p], A [n, k], B [k, p], by the register tile every product of a head uses
 * (for benchmarks: make bench reports its GFLOP/s). Sizes 1..ATTN_MAX_TOKENS. */
void attn_matmul(float *C, const float *A, const float *B, int n, int k, int p);

/* The default scale, 1/sqrt(dk). */
float attn_default_scale(int dk);

/* ---------------------------------------------------------------- one softmax row (the labs)
 * The explorer's labs show what the softmax of one row does, computed here and not in JS.
 * s is a row of m scores; -Infinity removes a key; NaN or +Infinity returns ATTN_ERR_NONFINITE. */

/* The softmax every head uses: a[j] = exp(s[j] − max) / Σₖ exp(s[k] − max), max = the row max.
 * Correct for scores in the thousands. Optional outputs (NULL to skip): e [m] the shifted
 * terms exp(s[j] − max), *shift the max subtracted, *sum Σ e. A row with every key removed
 * gives a = 0 (and *sum = 0). */
attn_status attn_softmax_stable(float *a,       /* [m] out */
                                float *e,       /* [m] out, or NULL */
                                float *shift,   /* out, or NULL */
                                float *sum,     /* out, or NULL */
                                const float *s, /* [m] */
                                int m);

/* The textbook formula computed directly in float32, WITHOUT subtracting the max, to show why
 * every real softmax does: a[j] = exp(s[j]) / Σₖ exp(s[k]). exp overflows to +Infinity for a
 * score above about 88.7, the sum becomes +Infinity and Infinity/Infinity is NaN. Those Inf
 * and NaN values are written as they come (the status is ATTN_OK): they are the lesson.
 * Optional outputs: e [m] the terms exp(s[j]), *sum their sum. Never use it for real work. */
attn_status attn_softmax_naive(float *a,       /* [m] out: may hold NaN */
                               float *e,       /* [m] out, or NULL: may hold +Infinity */
                               float *sum,     /* out, or NULL */
                               const float *s, /* [m] */
                               int m);

/* The backward pass of one softmax row (a vector-Jacobian product): given a = softmax(s) and
 * da = dLoss/da, writes ds = dLoss/ds, ds[k] = a[k]·(da[k] − Σⱼ a[j]·da[j]). ds is OVERWRITTEN. */
attn_status attn_softmax_backward(float *ds,       /* [m] out */
                                  const float *a,  /* [m] weights from a softmax */
                                  const float *da, /* [m] dLoss/da */
                                  int m);

/* Three numbers that say how saturated a row of weights is:
 *   *max_weight  the largest weight (1 = one-hot)
 *   *entropy     −Σ a·ln a in nats: ln m for a uniform row, 0 for a one-hot one
 *   *grad_norm   ‖J‖_F, the Frobenius norm of the softmax Jacobian J = diag(a) − a·aᵀ at this
 *                row: how much gradient can flow back to the scores. It is √(m−1)/m for a
 *                uniform row and goes to 0 as the row goes one-hot (the gradient vanishes). */
attn_status attn_softmax_stats(float *max_weight, /* out */
                               float *entropy,    /* out */
                               float *grad_norm,  /* out */
                               const float *a,    /* [m] weights (finite, each in [0, 1]) */
                               int m);

/* ---------------------------------------------------------------- backward (attention_backward.c) */

/* The gradients of one self-attention head (Xkv = X, m = n), given dO = dLoss/dO.
 * It differentiates the forward passes in reverse order:
 *   pass 3  O = A·V              ->  dA = dO·Vᵀ,  dV = Aᵀ·dO
 *   pass 3  A = softmax_row(S+M) ->  dS[i][j] = A[i][j]·(dA[i][j] - sum_k A[i][k]·dA[i][k])
 *   pass 2  S = scale·Q·Kᵀ       ->  dQ = scale·dS·K,  dK = scale·dSᵀ·Q
 *   pass 1  Q, K, V = X·W        ->  dWq += Xᵀ·dQ, dWk += Xᵀ·dK, dWv += Xᵀ·dV,
 *                                    dX = dQ·Wqᵀ + dK·Wkᵀ + dV·Wvᵀ
 * Q, K, V and A are the forward call's outputs; mask, causal and scale must be the ones it used.
 * Removed keys (mask -Infinity, or j > i when causal) get dS exactly 0, so nothing flows
 * through them; a fully masked row (A all 0) gives that query zero gradient.
 * dWq, dWk and dWv are ACCUMULATED (+=): zero them before the first sequence of a batch.
 * dX is OVERWRITTEN; pass NULL to skip it (training with a fixed X does not need it).
 * dQ, dK, dV, dA and dS are scratch the caller provides, OVERWRITTEN with those gradients.
 * The mask itself is treated as a constant: no gradient is computed for it. */
attn_status attn_backward(float *dX,         /* [n, d] out (overwritten), or NULL */
                          float *dWq,        /* [d, dk] accumulated */
                          float *dWk,        /* [d, dk] accumulated */
                          float *dWv,        /* [d, dv] accumulated */
                          float *dQ,         /* [n, dk] scratch, overwritten */
                          float *dK,         /* [n, dk] scratch, overwritten */
                          float *dV,         /* [n, dv] scratch, overwritten */
                          float *dA,         /* [n, n] scratch, overwritten */
                          float *dS,         /* [n, n] scratch, overwritten */
                          const float *dO,   /* [n, dv] dLoss/dO */
                          const float *X,    /* [n, d] */
                          const float *Wq,   /* [d, dk] */
                          const float *Wk,   /* [d, dk] */
                          const float *Wv,   /* [d, dv] */
                          const float *Q,    /* [n, dk] from the forward call */
                          const float *K,    /* [n, dk] from the forward call */
                          const float *V,    /* [n, dv] from the forward call */
                          const float *A,    /* [n, n] from the forward call */
                          const float *mask, /* [n, n] additive, or NULL */
                          int causal, float scale,
                          int n, int d, int dk, int dv);

/* ---------------------------------------------------------------- a linear layer (attention_backward.c)
 * The pieces a model around heads needs: a head's output projection (O·Wo, written into the
 * residual stream) and an unembedding are the same product, Y = X·W, and so is its backward.
 * W is [k, c], or with ATTN_W_T stored transposed as [c, k] (an unembedding tied to the
 * embedding table E [vocab, d] is Y = X·Eᵀ). Nothing is checked: the callers' heads are. */

enum { ATTN_ACCUMULATE = 1, ATTN_W_T = 2 };

/* Y = X·W (or X·Wᵀ with ATTN_W_T); with ATTN_ACCUMULATE, Y += instead of Y =. */
void attn_linear(float *Y,       /* [r, c] out */
                 const float *X, /* [r, k] */
                 const float *W, /* [k, c], or [c, k] with ATTN_W_T */
                 int r, int k, int c, int flags);

/* The backward of Y = X·W given dY: dW += Xᵀ·dY (ACCUMULATED; with ATTN_W_T, dW += dYᵀ·X, the
 * same gradient stored as W is), and dX = dY·Wᵀ, OVERWRITTEN, or added to what dX holds with
 * ATTN_ACCUMULATE; dX may be NULL to skip it. */
void attn_linear_backward(float *dX,       /* [r, k] out, or NULL */
                          float *dW,       /* like W, accumulated */
                          const float *dY, /* [r, c] */
                          const float *X,  /* [r, k] */
                          const float *W,  /* [k, c], or [c, k] with ATTN_W_T */
                          int r, int k, int c, int flags);

#endif
