/*
 * attention.c: one attention head, written to be read next to the lesson.
 * Shapes follow the legend in attention.h (n queries, m keys, d, dk, dv).
 *
 * The work is three passes:
 *   pass 1  projections        Q = X·Wq, K = Xkv·Wk, V = Xkv·Wv
 *   pass 2  scores and mask    S = scale·Q·Kᵀ, then S + M row by row
 *   pass 3  softmax and mix    A = softmax_row(S + M), O = A·V
 * The long form (attn_sdpa) runs each pass over the whole sequence and keeps S and A; the fused
 * form (attn_sdpa_fused) runs passes 2 and 3 on a block of TR queries at a time and keeps only O.
 * Every product goes through one register tile, so there is a single loop nest to make fast.
 */
#include "attention.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- helpers */

static int size_ok(int x, int limit) { return x >= 1 && x <= limit; }

/* Four floats side by side. GCC and Clang turn arithmetic on this type into one SIMD
 * instruction (WebAssembly SIMD with -msimd128, SSE natively) or four scalar ones without SIMD.
 * The compilers do not vectorise matmul's register tile on their own, and the tile is where
 * the time goes, so it is written with this one language extension (GNU C vector_size). */
typedef float f32x4 __attribute__((vector_size(16)));

typedef int i32x4 __attribute__((vector_size(16)));

static f32x4 load4(const float *p) { f32x4 v; memcpy(&v, p, sizeof v); return v; }
static void store4(float *p, f32x4 v) { memcpy(p, &v, sizeof v); }
static float hsum4(f32x4 v) { return (v[0] + v[1]) + (v[2] + v[3]); }
/* lane-wise max, a > b ? a : b (b when either is NaN). WebAssembly's pmax(b, a) is exactly that
 * (b < a ? a : b) and V8 makes it one instruction; elsewhere a comparison gives all ones in the
 * lanes where it holds, and selects by those bits (WebAssembly's select takes V8 four). */
static f32x4 max4(f32x4 a, f32x4 b)
{
#ifdef __wasm_simd128__
    return __builtin_wasm_pmax_f32x4(b, a);
#else
    i32x4 gt = a > b;
    return (f32x4)((gt & (i32x4)a) | (~gt & (i32x4)b));
#endif
}
static float hmax4(f32x4 v)
{
    float x = v[0] > v[1] ? v[0] : v[1], y = v[2] > v[3] ? v[2] : v[3];
    return x > y ? x : y;
}

/* x[0], x[step], x[2·step], x[3·step] as a vector, the lanes from `count` on set to `fill`; and
 * (store_lanes) the first count < 4 lanes back to x[0 ..). Each lane is a constant one: a loop
 * over lanes would send the vector through memory, and reading a vector just written there as
 * single floats stalls the load (the store cannot be forwarded to it). */
static f32x4 load_lanes(const float *x, long step, int count, float fill)
{
    f32x4 v = {fill, fill, fill, fill};
    if (count > 0) v[0] = x[0];
    if (count > 1) v[1] = x[step];
    if (count > 2) v[2] = x[2 * step];
    if (count > 3) v[3] = x[3 * step];
    return v;
}
static void store_lanes(float *x, f32x4 v, int count)
{
    if (count > 0) x[0] = v[0];
    if (count > 1) x[1] = v[1];
    if (count > 2) x[2] = v[2];
}

/* 1 when every x[i] is finite. x - x is 0 for a finite x and NaN for NaN or +-Infinity, so
 * one running sum catches all three; four lanes keep it from being a serial chain. */
static int all_finite(const float *x, long count)
{
    f32x4 acc = {0};
    long i = 0;
    for (; i + 4 <= count; i += 4) { f32x4 v = load4(x + i); acc += v - v; }
    float rest = hsum4(acc);
    for (; i < count; i++) rest += x[i] - x[i];
    return rest == 0.0f;
}

/* 1 when a mask holds no NaN and no +Infinity (finite values and -Infinity are allowed). */
static int mask_ok(const float *mask, long count)
{
    i32x4 bad = {0};
    long i = 0;
    for (; i + 4 <= count; i += 4) { f32x4 v = load4(mask + i); bad |= (v != v) | (v == INFINITY); }
    int any = bad[0] | bad[1] | bad[2] | bad[3];
    for (; i < count; i++) any |= (mask[i] != mask[i]) | (mask[i] == INFINITY);
    return !any;
}

/* ---------------------------------------------------------------- the register tile
 * Every product of a head (X·W, Q·Kᵀ, A·V) goes through one loop nest: a tile of TR = 4 rows
 * × 8 columns of the result, held in eight SIMD registers for the whole sum over t. Each step
 * loads 8 floats of B (two vectors), broadcasts one float from each of the 4 rows of A and does
 * 8 multiply-adds. The pointers step (a_r += 1, b += b_step) instead of being recomputed as
 * B + t·p + j: emcc builds without loop strength reduction, so an index would cost an i32.mul
 * on every step. Larger tiles (6×8, 4×16, 8×8) run out of registers in V8 and are slower.
 *
 * The sum for each element runs over t = 0, 1, ..., k−1 in that order whatever the tile, so an
 * element comes out bit for bit the same in every code path that computes it (the long form
 * and the fused form rely on this). */
enum { TR = 4, TC = 8 };

/* One row of a finished tile: c[0..cols) = scale·(v0, v1), and check += v − v (NaN if not finite). */
static inline __attribute__((always_inline)) void store_row(float *c, f32x4 v0, f32x4 v1, int cols, float scale,
                                                            f32x4 *check)
{
    v0 *= scale;
    v1 *= scale;
    *check += (v0 - v0) + (v1 - v1);
    if (cols == TC) {
        store4(c, v0);
        store4(c + 4, v1);
        return;
    }
    float row[TC]; /* fewer columns: lane by lane (a memcpy call costs more at these sizes) */
    store4(row, v0);
    store4(row + 4, v1);
    for (int q = 0; q < TC; q++)
        if (q < cols) c[q] = row[q];
}

/* C[r][0..cols) = scale · Σ_t A[r][t]·b_t[0..cols) for r < rows (1 or TR), b_t = b + t·b_step
 * (TC floats, readable even past cols). C rows are ldc apart, A rows lda apart. Returns the lane
 * sums of v − v over the stored values: 0 when every one is finite, NaN otherwise. */
static inline __attribute__((always_inline)) f32x4 tile(float *C, long ldc, const float *A, long lda, int rows,
                                                        const float *b, long b_step, int k, int cols, float scale)
{
    f32x4 check = {0};
    if (rows == TR) {
        const float *a0 = A, *a1 = A + lda, *a2 = A + 2 * lda, *a3 = A + 3 * lda;
        f32x4 t00 = {0}, t01 = {0}, t10 = {0}, t11 = {0}, t20 = {0}, t21 = {0}, t30 = {0}, t31 = {0};
        for (const float *end = a0 + k; a0 < end; a0++, a1++, a2++, a3++, b += b_step) {
            f32x4 b0 = load4(b), b1 = load4(b + 4);
            t00 += b0 * *a0; t01 += b1 * *a0;
            t10 += b0 * *a1; t11 += b1 * *a1;
            t20 += b0 * *a2; t21 += b1 * *a2;
            t30 += b0 * *a3; t31 += b1 * *a3;
        }
        store_row(C, t00, t01, cols, scale, &check);
        store_row(C + ldc, t10, t11, cols, scale, &check);
        store_row(C + 2 * ldc, t20, t21, cols, scale, &check);
        store_row(C + 3 * ldc, t30, t31, cols, scale, &check);
    } else {
        f32x4 t00 = {0}, t01 = {0};
        for (const float *a0 = A, *end = A + k; a0 < end; a0++, b += b_step) {
            t00 += load4(b) * *a0;
            t01 += load4(b + 4) * *a0;
        }
        store_row(C, t00, t01, cols, scale, &check);
    }
    return check;
}

/* The tile for a panel of at most 4 columns (a small head's, or the last of p % TC = 1..4):
 * one vector per row, half of tile()'s work, the same sums in the same order. b_t is 4 floats,
 * so a panel of exactly 4 columns can be read in place, B + j with b_step = p, without packing. */
static inline __attribute__((always_inline)) void store_row4(float *c, f32x4 v, int cols, float scale, f32x4 *check)
{
    v *= scale;
    *check += v - v;
    if (cols == 4) store4(c, v);
    else store_lanes(c, v, cols);
}
static inline __attribute__((always_inline)) f32x4 tile4(float *C, long ldc, const float *A, long lda, int rows,
                                                         const float *b, long b_step, int k, int cols, float scale)
{
    f32x4 check = {0};
    if (rows == TR) {
        const float *a0 = A, *a1 = A + lda, *a2 = A + 2 * lda, *a3 = A + 3 * lda;
        f32x4 t0 = {0}, t1 = {0}, t2 = {0}, t3 = {0};
        for (const float *end = a0 + k; a0 < end; a0++, a1++, a2++, a3++, b += b_step) {
            f32x4 b0 = load4(b);
            t0 += b0 * *a0; t1 += b0 * *a1; t2 += b0 * *a2; t3 += b0 * *a3;
        }
        store_row4(C, t0, cols, scale, &check);
        store_row4(C + ldc, t1, cols, scale, &check);
        store_row4(C + 2 * ldc, t2, cols, scale, &check);
        store_row4(C + 3 * ldc, t3, cols, scale, &check);
    } else {
        f32x4 t0 = {0};
        for (const float *a0 = A, *end = A + k; a0 < end; a0++, b += b_step) t0 += load4(b) * *a0;
        store_row4(C, t0, cols, scale, &check);
    }
    return check;
}

/* One tile of a product (no scale, no finite check): tile4 for a panel of at most 4 columns. */
static inline __attribute__((always_inline)) void product_tile(float *C, long ldc, const float *A, long lda, int rows,
                                                               const float *b, long b_step, int k, int cols)
{
    if (cols <= 4) tile4(C, ldc, A, lda, rows, b, b_step, k, cols, 1.0f);
    else tile(C, ldc, A, lda, rows, b, b_step, k, cols, 1.0f);
}

/* Columns j .. j+TC−1 of a row-major B [k, p] (zeros past p) as one contiguous [k, TC] panel,
 * so the tile reads consecutive floats instead of striding across B's rows. */
static void pack_panel(float *panel /* [k, TC] */, const float *B, int k, int p, int j)
{
    int cols = p - j < TC ? p - j : TC;
    for (int t = 0; t < k; t++) {
        const float *b_t = B + (long)t * p + j;
        float *panel_t = panel + (long)t * TC;
        f32x4 lo = {0}, hi = {0};
        if (cols >= 4) { /* lane by lane past a whole vector (a memcpy call costs more here) */
            lo = load4(b_t);
            if (cols == TC) hi = load4(b_t + 4);
            else for (int q = 4; q < cols; q++) hi[q - 4] = b_t[q];
        } else {
            for (int q = 0; q < cols; q++) lo[q] = b_t[q];
        }
        store4(panel_t, lo);
        store4(panel_t + 4, hi);
    }
}

/* C = A·B, with C [n, p], A [n, k], B [k, p], all row-major. One panel of TC columns of B at a
 * time (packed on the stack, at most 16 KB: it stays in the L1 cache) against every block of
 * rows of A. With causal != 0, A is causal (A[i][t] = 0 for t > i), so a block of rows
 * i..i+TR−1 sums only over t < i + TR. */
static void matmul(float *C, const float *A, const float *B, int n, int k, int p, int causal)
{
    float panel[ATTN_MAX_TOKENS * TC];
    for (int j = 0; j < p; j += TC) {
        int cols = p - j < TC ? p - j : TC;
        /* 4 columns are read from B in place; other widths from a packed panel */
        const float *b = cols == 4 ? B + j : panel;
        long b_step = cols == 4 ? p : TC;
        if (cols != 4) pack_panel(panel, B, k, p, j);
        for (int i = 0; i < n;) {
            int rows = n - i >= TR ? TR : 1;
            int k_end = causal && i + rows < k ? i + rows : k;
            product_tile(C + (long)i * p + j, p, A + (long)i * k, k, rows, b, b_step, k_end, cols);
            i += rows;
        }
    }
}

/* ---------------------------------------------------------------- scores: Kᵀ in panels
 * Q·Kᵀ reads K by columns. Instead of transposing K, its rows are packed in panels of TC keys:
 * panel P holds, for each c < dk, k_{TC·P}[c] ... k_{TC·P+TC−1}[c] side by side, so the tile
 * reads one contiguous run of TC floats per step. Kt [dk·m] holds the full panels; the last
 * m % TC keys go to `last` [dk, TC], a panel padded with zeros, built a vector at a time (the
 * tile reads it right after: vectors written as single floats would stall its loads). */
static void pack_keys(float *Kt /* [dk * m] */, float *last /* [dk, TC] */, const float *K, int m, int dk)
{
    for (int j = 0; j < m; j += TC) {
        int keys = m - j < TC ? m - j : TC;
        float *panel = keys == TC ? Kt + (long)j * dk : last;
        const float *K_j = K + (long)j * dk;
        for (int c = 0; c < dk; c++) { /* keys j .. j+7 of column c, a vector of 4 at a time */
            store4(panel + c * TC, load_lanes(K_j + c, dk, keys, 0.0f));
            store4(panel + c * TC + 4, keys > 4 ? load_lanes(K_j + 4 * dk + c, dk, keys - 4, 0.0f) : (f32x4){0});
        }
    }
}

/* S[r][j] = scale · q_r·k_j for the rows (1 or TR) of Q at Q_r, and the keys of panels
 * 0 .. ceil(keys / TC) − 1; S rows are lds apart. With pad != 0, the last panel is stored in
 * full (S has room for it); otherwise only its keys < m. Returns 0, or 1 when a score is
 * not finite (it passed FLT_MAX). */
static int scores(float *S, long lds, const float *Q_r, int rows, const float *Kt, const float *last, int keys,
                  int m, int dk, float scale, int pad)
{
    f32x4 check = {0};
    for (int j = 0; j < keys; j += TC) {
        int width = m - j < TC ? m - j : TC;
        const float *panel = width == TC ? Kt + (long)j * dk : last;
        check += tile(S + j, lds, Q_r, dk, rows, panel, TC, dk, pad ? TC : width, scale);
    }
    return hsum4(check) != 0.0f;
}

/* scores() without the check, where no score can pass FLT_MAX (scores_bounded): the fused form's
 * hot path, whose tiles then skip the two additions per value the check costs. Pads the last panel. */
static void scores_unchecked(float *S, long lds, const float *Q_r, int rows, const float *Kt, const float *last,
                             int keys, int m, int dk, float scale)
{
    for (int j = 0; j < keys; j += TC) {
        const float *panel = m - j < TC ? last : Kt + (long)j * dk;
        tile(S + j, lds, Q_r, dk, rows, panel, TC, dk, TC, scale);
    }
}

/* The largest |x[i]|, four lanes at a time (clearing the sign bit is the absolute value). */
static float max_abs(const float *x, long count)
{
    const i32x4 no_sign = {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff};
    f32x4 acc = {0};
    long i = 0;
    for (; i + 4 <= count; i += 4) acc = max4(acc, (f32x4)((i32x4)load4(x + i) & no_sign));
    float best = hmax4(acc);
    for (; i < count; i++) best = fabsf(x[i]) > best ? fabsf(x[i]) : best;
    return best;
}

/* 1 when no score scale·q_i·k_j can pass FLT_MAX, bounded by dk · max|q| · max|k| · scale
 * (each product, and so every partial sum, is within it). Then the fused form may skip the
 * scores the causal mask removes and still report an overflow exactly when the long form does. */
static int scores_bounded(const float *Q, const float *K, int n, int m, int dk, float scale)
{
    double bound = (double)dk * max_abs(Q, (long)n * dk) * max_abs(K, (long)m * dk) * (scale > 1.0f ? scale : 1.0f);
    return bound < FLT_MAX / 2;
}

/* exp(v) for v <= 0, four at a time, as float32 has it: subnormal from about -87.3 down to
 * about -103.97 (exp(-95) = 5.52e-42, as PyTorch gives), 0 below, and exactly 0 for -Infinity.
 * Softmax calls this for every weight, so it avoids calls and branches. It splits
 * v = k·ln2 + r with k = round(v·log2 e), |r| <= ln2/2, so exp(v) = 2^k · exp(r), takes exp(r)
 * from a degree-6 Taylor polynomial (error below 2e-7, about one float ulp) and builds 2^k from
 * its bits. The rounding is one add: x + 1.5·2²³ leaves round(x) in the low mantissa bits.
 * 2^k for k down to -150 is no normal float, so it comes in two factors: p·2^(k+64) is exact (a
 * normal float), and the one multiply by 2^-64 rounds it once, into the subnormals where it falls
 * there (for a normal result it is exact too). */
static f32x4 exp4_nonpositive(f32x4 v)
{
    const float log2e = 1.44269504f, ln2_hi = 0.693145752f, ln2_lo = 1.42860677e-6f, magic = 12582912.0f;
    const float two_minus_64 = 5.42101086e-20f; /* 2^-64, exact */
    const f32x4 floor_v = {-104.0f, -104.0f, -104.0f, -104.0f};
    v = max4(v, floor_v); /* -Infinity too: exp(-104) = 6.8e-46 rounds to 0 in float32, as every v below does */
    f32x4 shifted = v * log2e + magic;       /* v·log2 e in [-150.1, 0], rounded to a whole number */
    i32x4 k = (i32x4)shifted - (i32x4)(f32x4){magic, magic, magic, magic};
    f32x4 kf = shifted - magic;
    f32x4 r = (v - kf * ln2_hi) - kf * ln2_lo;
    f32x4 p = 1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 + r * (1.0f / 720))))));
    i32x4 two_k64 = (k + 64 + 127) << 23;    /* the float 2^(k+64), k + 64 in [-86, 64] */
    return (p * (f32x4)two_k64) * two_minus_64;
}

/* One query row of pass 3. s: the row of scaled scores S (finite); a: the row of weights A (may
 * be s itself); mask_i: the row of the additive mask, or NULL; keys j >= visible are removed
 * (the causal mask) and get a = 0 up to `width`. Only the visible keys are exponentiated.
 * Vector loops over 4 keys; the last visible % 4 keys stay in one vector (`tail`, padded with
 * -Infinity, whose exp is 0) from the mask to the division, filled and emptied lane by lane:
 * short rows (a small head's) then never go through memory between the steps.
 * Returns 0, or 1 when s + mask overflows (the row's weights are then meaningless: the caller
 * reports the error). That is known only at the end, by design: returning as soon as the max is
 * known made a small head's rows several times slower in V8 (softmax_rows4: 125 ns against 32). */
static int softmax_row(float *a /* [width] */, const float *s /* [visible] */, const float *mask_i /* [visible] */,
                       int visible, int width)
{
    f32x4 max_4 = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    int j = 0;
    for (; j + 4 <= visible; j += 4) {
        f32x4 z = load4(s + j);
        if (mask_i) z += load4(mask_i + j);
        store4(a + j, z);
        max_4 = max4(max_4, z);
    }
    int rest = visible - j; /* 0 to 3 keys, at j */
    f32x4 tail = load_lanes(s + j, 1, rest, -INFINITY);
    if (mask_i) tail += load_lanes(mask_i + j, 1, rest, 0.0f);
    float maxval = hmax4(max4(max_4, tail));
    for (j = visible; j < width; j++) a[j] = 0.0f;
    if (maxval == -INFINITY) {             /* every key masked: no distribution, weights are 0 */
        for (j = 0; j < visible; j++) a[j] = 0.0f;
        return 0;
    }
    /* Subtracting the row max changes nothing mathematically (it cancels in the ratio) but
     * keeps every exponent <= 0, so exp cannot overflow even for scores in the thousands. */
    f32x4 sum_4 = {0};
    for (j = 0; j + 4 <= visible; j += 4) {
        f32x4 e = exp4_nonpositive(load4(a + j) - maxval);
        store4(a + j, e);
        sum_4 += e;
    }
    if (rest) {
        tail = exp4_nonpositive(tail - maxval);
        sum_4 += tail;
    }
    float inv = 1.0f / hsum4(sum_4); /* the sum is >= 1: the max term is exp(0) */
    for (j = 0; j + 4 <= visible; j += 4) store4(a + j, load4(a + j) * inv);
    store_lanes(a + j, tail * inv, rest);
    return maxval == INFINITY; /* a finite score plus a finite mask passed FLT_MAX */
}

/* The 4×4 transpose of rows r0..r3: lane j of result r is lane r of row j (eight shuffles). */
static void transpose4(f32x4 out[4], f32x4 r0, f32x4 r1, f32x4 r2, f32x4 r3)
{
    f32x4 t0 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5), t1 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7);
    f32x4 t2 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5), t3 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
    out[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
    out[1] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
    out[2] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
    out[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}

/* softmax_row for TR rows at once that each see at most 4 keys (a small head's rows, or the
 * first rows of a causal one), with the rows side by side: lane r of z[j] is key j of row r.
 * The four rows' exp chains then run together instead of one after another, and every weight
 * comes out bit for bit as softmax_row computes it: the same max, exp4_nonpositive(z − max),
 * the sum (e0 + e1) + (e2 + e3) (hsum4 of softmax_row's four lanes), one division, a product.
 * Row r: a_r = a + r·lda [width], s_r = s + r·lds [visible[r]] (a may be s), mask_r = mask +
 * r·ldm or NULL. With readable != 0, 4 floats can be read at s_r and at mask_r (the rows are
 * that long): each row is then one vector load, its lanes past visible[r] set to -Infinity.
 * Returns 0, or 1 when s + mask overflows, checked at the end as softmax_row does. */
static int softmax_rows4(float *a, long lda, const float *s, long lds, const float *mask, long ldm,
                         const int visible[TR], int width, int readable)
{
    f32x4 row[TR], z[4], e[4], w[4];
    const i32x4 lane = {0, 1, 2, 3};
    for (int r = 0; r < TR; r++) {
        if (readable) {
            f32x4 v = load4(s + r * lds);
            if (mask) v += load4(mask + r * ldm);
            i32x4 keep = lane < visible[r], minus_inf = (i32x4)(f32x4){-INFINITY, -INFINITY, -INFINITY, -INFINITY};
            row[r] = (f32x4)((keep & (i32x4)v) | (~keep & minus_inf));
        } else {
            row[r] = load_lanes(s + r * lds, 1, visible[r], -INFINITY);
            if (mask) row[r] += load_lanes(mask + r * ldm, 1, visible[r], 0.0f);
        }
    }
    transpose4(z, row[0], row[1], row[2], row[3]);
    f32x4 maxval = max4(max4(z[0], z[1]), max4(z[2], z[3]));
    i32x4 over = maxval == INFINITY, none = maxval == -INFINITY; /* none: every key masked, weights 0 */
    for (int j = 0; j < 4; j++) e[j] = exp4_nonpositive(z[j] - maxval); /* exp(-Infinity) = 0 past a row's keys */
    f32x4 inv = 1.0f / ((e[0] + e[1]) + (e[2] + e[3]));
    for (int j = 0; j < 4; j++) e[j] = (f32x4)(~none & (i32x4)(e[j] * inv)); /* a row with no key: 0, not NaN */
    transpose4(w, e[0], e[1], e[2], e[3]);
    const f32x4 zero = {0};
    for (int r = 0; r < TR; r++) {
        float *a_r = a + r * lda;
        if (width >= 4) store4(a_r, w[r]);
        else store_lanes(a_r, w[r], width);
        for (int j = 4; j < width; j += 4) {
            if (width - j >= 4) store4(a_r + j, zero);
            else store_lanes(a_r + j, zero, width - j);
        }
    }
    return (over[0] | over[1] | over[2] | over[3]) != 0;
}

/* How many keys query i sees: all m, or with the causal mask keys 0..i (top-left aligned). */
static int visible_keys(int i, int m, int causal) { return causal ? (i + 1 < m ? i + 1 : m) : m; }
/* visible_keys of rows i .. i+TR−1, for softmax_rows4 */
static void visible_rows(int visible[TR], int i, int m, int causal)
{
    for (int r = 0; r < TR; r++) visible[r] = visible_keys(i + r, m, causal);
}

/* ---------------------------------------------------------------- public API */

void attn_matmul(float *C, const float *A, const float *B, int n, int k, int p)
{
    if (C && A && B && size_ok(n, ATTN_MAX_TOKENS) && size_ok(k, ATTN_MAX_TOKENS) && size_ok(p, ATTN_MAX_TOKENS))
        matmul(C, A, B, n, k, p, 0);
}

float attn_default_scale(int dk)
{
    /* A dot product of dk unit-variance terms has variance dk: dividing by sqrt(dk) brings the
     * scores back to standard deviation 1, so the softmax does not saturate for wide heads. */
    return dk >= 1 ? 1.0f / sqrtf((float)dk) : 0.0f;
}

attn_status attn_project(float *Q, float *K, float *V, const float *X, const float *Xkv,
                         const float *Wq, const float *Wk, const float *Wv,
                         int n, int m, int d, int dk, int dv)
{
    /* (no n×m buffer here: the fused form's limit; attn_sdpa refuses what the long form cannot hold) */
    if (!size_ok(n, ATTN_MAX_TOKENS_FUSED) || !size_ok(m, ATTN_MAX_TOKENS_FUSED) || !size_ok(d, ATTN_MAX_WIDTH) ||
        !size_ok(dk, ATTN_MAX_WIDTH) || !size_ok(dv, ATTN_MAX_WIDTH))
        return ATTN_ERR_SIZE;
    if (!Q || !K || !V || !X || !Xkv || !Wq || !Wk || !Wv) return ATTN_ERR_NULL;
    /* self-attention passes X as Xkv too: its values are checked once */
    if (!all_finite(X, (long)n * d) || (!(Xkv == X && m <= n) && !all_finite(Xkv, (long)m * d)) || !all_finite(Wq, (long)d * dk) ||
        !all_finite(Wk, (long)d * dk) || !all_finite(Wv, (long)d * dv))
        return ATTN_ERR_NONFINITE;

    /* pass 1: each token's query (what it looks for), key (what it offers), value (what it passes on) */
    matmul(Q, X, Wq, n, d, dk, 0);
    matmul(K, Xkv, Wk, m, d, dk, 0);
    matmul(V, Xkv, Wv, m, d, dv, 0);
    if (!all_finite(Q, (long)n * dk) || !all_finite(K, (long)m * dk) || !all_finite(V, (long)m * dv))
        return ATTN_ERR_OVERFLOW;
    return ATTN_OK;
}

attn_status attn_mask_build(float *M, const float *mask, int causal, int n, int m)
{
    if (!size_ok(n, ATTN_MAX_TOKENS) || !size_ok(m, ATTN_MAX_TOKENS)) return ATTN_ERR_SIZE;
    if (!M) return ATTN_ERR_NULL;
    if (mask && !mask_ok(mask, (long)n * m)) return ATTN_ERR_MASK;
    for (int i = 0; i < n; i++) {
        float *M_i = M + (long)i * m;
        /* causal: query i may not look at a key j that comes after it (top-left aligned) */
        int visible = visible_keys(i, m, causal);
        if (mask) memcpy(M_i, mask + (long)i * m, sizeof(float) * (size_t)visible);
        else memset(M_i, 0, sizeof(float) * (size_t)visible); /* all bits 0 is 0.0f */
        for (int j = visible; j < m; j++) M_i[j] = -INFINITY;
    }
    return ATTN_OK;
}

attn_status attn_sdpa(float *S, float *A, float *O, float *Kt, const float *Q, const float *K,
                      const float *V, const float *mask, int causal, float scale,
                      int n, int m, int dk, int dv)
{
    if (!size_ok(n, ATTN_MAX_TOKENS) || !size_ok(m, ATTN_MAX_TOKENS) || !size_ok(dk, ATTN_MAX_WIDTH) ||
        !size_ok(dv, ATTN_MAX_WIDTH))
        return ATTN_ERR_SIZE;
    if (!S || !A || !O || !Kt || !Q || !K || !V) return ATTN_ERR_NULL;
    if (!(scale > 0.0f) || scale == INFINITY) return ATTN_ERR_SCALE; /* also rejects NaN */
    if (!all_finite(Q, (long)n * dk) || !all_finite(K, (long)m * dk) || !all_finite(V, (long)m * dv))
        return ATTN_ERR_NONFINITE;
    if (mask && !mask_ok(mask, (long)n * m)) return ATTN_ERR_MASK;

    /* pass 2: scores, S = scale·Q·Kᵀ for every query and key (the explorer shows them all) */
    float last[ATTN_MAX_WIDTH * TC];
    pack_keys(Kt, last, K, m, dk);
    for (int i = 0; i < n;) {
        int rows = n - i >= TR ? TR : 1;
        if (scores(S + (long)i * m, m, Q + (long)i * dk, rows, Kt, last, m, m, dk, scale, 0)) return ATTN_ERR_OVERFLOW;
        i += rows;
    }

    /* pass 3: per query row, add the mask and take the softmax over the keys it sees */
    for (int i = 0; i < n;) {
        const float *mask_i = mask ? mask + (long)i * m : NULL;
        if (n - i >= TR && visible_keys(i + TR - 1, m, causal) <= 4) { /* four short rows at once */
            int visible[TR];
            visible_rows(visible, i, m, causal);
            if (softmax_rows4(A + (long)i * m, m, S + (long)i * m, m, mask_i, m, visible, m, m >= 4)) return ATTN_ERR_OVERFLOW;
            i += TR;
            continue;
        }
        if (softmax_row(A + (long)i * m, S + (long)i * m, mask_i, visible_keys(i, m, causal), m)) return ATTN_ERR_OVERFLOW;
        i++;
    }

    /* pass 3, mix: each output row is the weighted average of the value rows. A causal A is 0
     * above the diagonal, so a block of rows stops summing at its last row's last key. */
    matmul(O, A, V, n, m, dv, causal);
    return ATTN_OK;
}

/* The tiled form's online softmax for one tile of keys, for the `rows` query rows of a block.
 * W [rows, ldw] holds the tile's scaled scores on entry (keys past `keys` are padding); mask_r is
 * each row's additive mask at the tile's first key (NULL: none), ldm apart; seen[r] is how many of
 * the tile's keys row r sees (the causal mask; 0 .. keys). For each row, with z_j = W[r][j] +
 * mask[r][j] over the keys it sees:
 *   m_new = max(m_old, max_j z_j)       the running maximum
 *   alpha = exp(m_old − m_new)          how much the sums so far shrink (0 before any key, 1 when
 *                                       the maximum stays)
 *   p_j   = exp(z_j − m_new)
 *   l_new = alpha·l_old + Σ_j p_j       the running sum of the weights, unnormalised
 * The row's output so far is kept normalised (a weighted average of the values seen, so it never
 * grows past the largest |v|, as the long form's O does not): W[r][j] gets p_j / l_new (0 for a
 * key the row does not see) and rescale[r] = alpha·l_old / l_new, so that
 *   output = rescale·output + Σ_j W[r][j]·v_j
 * is the softmax-weighted average over every key seen so far. (l_new >= 1: the key of the largest
 * score adds exp(0) = 1.) Returns 0, or 1 when a score plus its mask passed FLT_MAX (the long
 * form's ATTN_ERR_OVERFLOW). */
static int online_softmax_tile(float *W, long ldw, float rescale[TR], float run_max[TR], float run_sum[TR],
                               const float *mask, long ldm, const int seen[TR], int rows, int keys)
{
    int over = 0;
    for (int r = 0; r < rows; r++) {
        float *w = W + r * ldw;
        const float *mask_r = mask ? mask + r * ldm : NULL;
        f32x4 max_4 = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
        int j = 0;
        if (mask_r)
            for (; j + 4 <= seen[r]; j += 4) { /* the keys it sees: z = score + mask, and their maximum */
                f32x4 z = load4(w + j) + load4(mask_r + j);
                store4(w + j, z);
                max_4 = max4(max_4, z);
            }
        else
            for (; j + 4 <= seen[r]; j += 4) max_4 = max4(max_4, load4(w + j)); /* z = the score */
        int rest = seen[r] - j;
        f32x4 tail = load_lanes(w + j, 1, rest, -INFINITY);
        if (mask_r) tail += load_lanes(mask_r + j, 1, rest, 0.0f);
        float tile_max = hmax4(max4(max_4, tail));
        over |= tile_max == INFINITY;
        float m_new = tile_max > run_max[r] ? tile_max : run_max[r];
        if (m_new == -INFINITY) { /* no key seen yet: nothing to add, nothing to rescale */
            rescale[r] = 1.0f;
            for (j = 0; j < keys; j++) w[j] = 0.0f;
            continue;
        }
        float alpha = exp4_nonpositive((f32x4){run_max[r] - m_new, 0, 0, 0})[0]; /* exp(−Infinity) = 0 */
        run_max[r] = m_new;
        f32x4 sum_4 = {0};
        for (j = 0; j + 4 <= seen[r]; j += 4) {
            f32x4 e = exp4_nonpositive(load4(w + j) - m_new);
            store4(w + j, e);
            sum_4 += e;
        }
        tail = exp4_nonpositive(tail - m_new);
        sum_4 += tail;
        float l_old = run_sum[r], l_new = alpha * l_old + hsum4(sum_4), inv = 1.0f / l_new;
        run_sum[r] = l_new;
        rescale[r] = alpha * l_old * inv;
        for (j = 0; j + 4 <= seen[r]; j += 4) store4(w + j, load4(w + j) * inv);
        store_lanes(w + j, tail * inv, rest);
        for (j = seen[r]; j < keys; j++) w[j] = 0.0f; /* keys the causal mask hides: weight 0 */
    }
    return over;
}

attn_status attn_sdpa_fused(float *O, float *work, const float *Q, const float *K, const float *V,
                            const float *mask, int causal, float scale, int n, int m, int dk, int dv)
{
    return attn_sdpa_fused_tiles(O, work, Q, K, V, mask, causal, scale, n, m, dk, dv, ATTN_TILE_KEYS);
}

attn_status attn_sdpa_fused_tiles(float *O, float *work, const float *Q, const float *K, const float *V,
                                  const float *mask, int causal, float scale, int n, int m, int dk, int dv, int tile_keys)
{
    if (!size_ok(n, ATTN_MAX_TOKENS_FUSED) || !size_ok(m, ATTN_MAX_TOKENS_FUSED) || !size_ok(dk, ATTN_MAX_WIDTH) ||
        !size_ok(dv, ATTN_MAX_WIDTH))
        return ATTN_ERR_SIZE;
    if (!O || !work || !Q || !K || !V) return ATTN_ERR_NULL;
    if (!(scale > 0.0f) || scale == INFINITY) return ATTN_ERR_SCALE; /* also rejects NaN */
    if (!all_finite(Q, (long)n * dk) || !all_finite(K, (long)m * dk) || !all_finite(V, (long)m * dv))
        return ATTN_ERR_NONFINITE;
    if (mask && !mask_ok(mask, (long)n * m)) return ATTN_ERR_MASK;
    if (!size_ok(tile_keys, ATTN_TILE_KEYS) || tile_keys % TC) return ATTN_ERR_SIZE;

    int dv_pad = (dv + TC - 1) / TC * TC;
    float *Kt = work;                    /* K in panels of TC keys (pack_keys): a copy of K */
    float *Vp = Kt + (long)dk * m;       /* V in panels of TC columns: panel j/TC is [m, TC] */
    float *W = Vp + (long)m * dv_pad;    /* [TR, tile_keys]: a tile's scores, then its weights p */
    float *acc = W + TR * ATTN_TILE_KEYS; /* [TR, dv_pad]: each row's output so far (a weighted average) */
    float *pv = acc + TR * dv_pad;       /* [TR, dv_pad]: the tile's p·V */
    float last[ATTN_MAX_WIDTH * TC];
    pack_keys(Kt, last, K, m, dk);
    for (int j = 0; j < dv; j += TC)
        if (dv - j != 4) pack_panel(Vp + (long)j * m, V, m, dv, j); /* 4 columns are read in place (tile4) */
    memset(pv, 0, sizeof(float) * TR * dv_pad); /* (the columns past dv stay 0: no tile writes them) */
    /* When no score can overflow, the tiles need no check, and the tiles the causal mask removes
     * can be skipped; otherwise they are computed too, only to report the overflow as the long
     * form does. */
    int bounded = scores_bounded(Q, K, n, m, dk, scale), skip = causal && bounded;

    for (int i = 0; i < n;) {
        int rows = n - i >= TR ? TR : 1;
        float run_max[TR] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY}, run_sum[TR] = {0}, rescale[TR];
        memset(acc, 0, sizeof(float) * TR * dv_pad);
        int end = skip ? visible_keys(i + rows - 1, m, 1) : m; /* past the block's last visible key: skipped */
        for (int j0 = 0; j0 < end; j0 += tile_keys) {
            int keys = end - j0 < tile_keys ? end - j0 : tile_keys;
            /* the tile's scores S[i..i+rows)[j0..j0+keys), in W */
            if (bounded) scores_unchecked(W, tile_keys, Q + (long)i * dk, rows, Kt + (long)j0 * dk, last, keys, m - j0, dk, scale);
            else if (scores(W, tile_keys, Q + (long)i * dk, rows, Kt + (long)j0 * dk, last, keys, m - j0, dk, scale, 1))
                return ATTN_ERR_OVERFLOW;
            int seen[TR];
            for (int r = 0; r < rows; r++) {
                int v = visible_keys(i + r, m, causal) - j0;
                seen[r] = v < 0 ? 0 : v > keys ? keys : v;
            }
            if (online_softmax_tile(W, tile_keys, rescale, run_max, run_sum, mask ? mask + (long)i * m + j0 : NULL, m, seen, rows, keys))
                return ATTN_ERR_OVERFLOW;
            /* pv = (p / l)·V over the tile's keys, then acc = rescale·acc + pv, row by row */
            for (int j = 0; j < dv; j += TC) {
                int cols = dv - j < TC ? dv - j : TC;
                const float *b = cols == 4 ? V + (long)j0 * dv + j : Vp + (long)j * m + (long)j0 * TC;
                product_tile(pv + j, dv_pad, W, tile_keys, rows, b, cols == 4 ? dv : TC, keys, cols);
            }
            for (int r = 0; r < rows; r++) {
                float *a_r = acc + (long)r * dv_pad, *p_r = pv + (long)r * dv_pad;
                for (int c = 0; c < dv; c += 4) store4(a_r + c, load4(a_r + c) * rescale[r] + load4(p_r + c));
            }
        }
        /* O = acc, the weighted average over every key (a row that saw no key: 0) */
        for (int r = 0; r < rows; r++) {
            const float *a_r = acc + (long)r * dv_pad;
            float *o_r = O + (long)(i + r) * dv;
            int c = 0;
            for (; c + 4 <= dv; c += 4) store4(o_r + c, load4(a_r + c));
            store_lanes(o_r + c, load4(a_r + c), dv - c);
        }
        i += rows;
    }
    return ATTN_OK;
}

/* ---------------------------------------------------------------- one tile, step by step (the lab)
 * The fused form's arithmetic for one tile, written out row by row for the FlashAttention lab
 * (web/labs/tiles.js), which calls it tile after tile in the order the core visits them and
 * shows every number it returns. The same steps as online_softmax_tile and the mix after it. */
attn_status attn_tile_step(float *run_max, float *run_sum, float *out, float *z, float *p, float *alpha,
                           float *rescale, const float *Q, const float *K, const float *V, const float *mask,
                           int causal, float scale, int n, int m, int dk, int dv, int q0, int bq, int k0, int bk)
{
    if (!size_ok(n, ATTN_MAX_TOKENS) || !size_ok(m, ATTN_MAX_TOKENS) || !size_ok(dk, ATTN_MAX_WIDTH) ||
        !size_ok(dv, ATTN_MAX_WIDTH) || !size_ok(bq, ATTN_TILE_KEYS) || !size_ok(bk, ATTN_TILE_KEYS) ||
        q0 < 0 || q0 >= n || k0 < 0 || k0 >= m)
        return ATTN_ERR_SIZE;
    if (!run_max || !run_sum || !out || !z || !p || !alpha || !rescale || !Q || !K || !V) return ATTN_ERR_NULL;
    if (!(scale > 0.0f) || scale == INFINITY) return ATTN_ERR_SCALE;
    int rows = n - q0 < bq ? n - q0 : bq, keys = m - k0 < bk ? m - k0 : bk;
    for (int r = 0; r < rows; r++) {
        int i = q0 + r;
        float *z_r = z + (long)r * bk, *p_r = p + (long)r * bk, *o_i = out + (long)i * dv;
        /* z = scale·q_i·k_j + mask[i][j] for the keys query i sees (−Infinity for the others) */
        float tile_max = -INFINITY;
        for (int j = 0; j < keys; j++) {
            int key = k0 + j;
            if (causal && key > i) { z_r[j] = -INFINITY; continue; }
            float dot = 0.0f;
            for (int c = 0; c < dk; c++) dot += Q[(long)i * dk + c] * K[(long)key * dk + c];
            z_r[j] = dot * scale + (mask ? mask[(long)i * m + key] : 0.0f);
            if (z_r[j] == INFINITY || z_r[j] != z_r[j]) return ATTN_ERR_OVERFLOW;
            tile_max = z_r[j] > tile_max ? z_r[j] : tile_max;
        }
        float m_new = tile_max > run_max[i] ? tile_max : run_max[i];
        if (m_new == -INFINITY) { /* no key seen yet */
            for (int j = 0; j < keys; j++) p_r[j] = 0.0f;
            alpha[r] = 1.0f, rescale[r] = 1.0f;
            continue;
        }
        /* alpha = exp(m_old − m_new); p_j = exp(z_j − m_new); l_new = alpha·l_old + Σ p_j */
        alpha[r] = exp4_nonpositive((f32x4){run_max[i] - m_new, 0, 0, 0})[0];
        float sum = 0.0f;
        for (int j = 0; j < keys; j++) {
            p_r[j] = exp4_nonpositive((f32x4){z_r[j] - m_new, 0, 0, 0})[0];
            sum += p_r[j];
        }
        float l_old = run_sum[i], l_new = alpha[r] * l_old + sum, inv = 1.0f / l_new;
        rescale[r] = alpha[r] * l_old * inv;
        /* the output so far stays the average over the keys seen: rescale it, add this tile's share */
        for (int c = 0; c < dv; c++) {
            float mix = 0.0f;
            for (int j = 0; j < keys; j++) mix += p_r[j] * inv * V[(long)(k0 + j) * dv + c];
            o_i[c] = o_i[c] * rescale[r] + mix;
        }
        run_max[i] = m_new, run_sum[i] = l_new;
    }
    return ATTN_OK;
}

/* ---------------------------------------------------------------- one softmax row (the labs) */

attn_status attn_softmax_stable(float *a, float *e, float *shift, float *sum, const float *s, int m)
{
    if (!size_ok(m, ATTN_MAX_TOKENS)) return ATTN_ERR_SIZE;
    if (!a || !s) return ATTN_ERR_NULL;
    if (!mask_ok(s, m)) return ATTN_ERR_NONFINITE; /* -Infinity (a removed key) is allowed */
    /* pass 1: the row max. Starting at -INFINITY means a row of removed keys keeps it there. */
    float maxval = -INFINITY;
    for (int j = 0; j < m; j++) maxval = s[j] > maxval ? s[j] : maxval;
    if (shift) *shift = maxval;
    if (maxval == -INFINITY) { /* every key removed: no distribution, weights are 0 */
        for (int j = 0; j < m; j++) { a[j] = 0.0f; if (e) e[j] = 0.0f; }
        if (sum) *sum = 0.0f;
        return ATTN_OK;
    }
    /* pass 2: the weights, by the very function every head uses. */
    softmax_row(a, s, NULL, m, m);
    if (!e && !sum) return ATTN_OK;
    /* pass 3 (for showing them): the terms exp(s − max). Every exponent is <= 0, so every term
     * is <= 1: nothing can overflow, however large the scores. exp(s − max) = exp(s)·exp(−max)
     * and the factor exp(−max) cancels in the ratio, so the weights equal exp(s)/Σexp(s). */
    float total = 0.0f;
    for (int j = 0; j < m; j += 4) {
        float four[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
        int len = m - j < 4 ? m - j : 4;
        memcpy(four, s + j, sizeof(float) * (size_t)len);
        f32x4 t = exp4_nonpositive(load4(four) - maxval);
        store4(four, t);
        for (int k = 0; k < len; k++) {
            if (e) e[j + k] = four[k];
            total += four[k];
        }
    }
    if (sum) *sum = total;
    return ATTN_OK;
}

attn_status attn_softmax_naive(float *a, float *e, float *sum, const float *s, int m)
{
    if (!size_ok(m, ATTN_MAX_TOKENS)) return ATTN_ERR_SIZE;
    if (!a || !s) return ATTN_ERR_NULL;
    if (!mask_ok(s, m)) return ATTN_ERR_NONFINITE; /* -Infinity (a removed key) is allowed */
    /* The textbook formula, on purpose without the max subtraction: expf(x) passes FLT_MAX
     * (about 3.4e38) for x above about 88.72 and becomes +Infinity; the sum is then +Infinity
     * and Infinity/Infinity is NaN. volatile keeps the compiler from rewriting the division. */
    float total = 0.0f;
    for (int j = 0; j < m; j++) { a[j] = expf(s[j]); total += a[j]; }
    if (e) for (int j = 0; j < m; j++) e[j] = a[j];
    if (sum) *sum = total;
    volatile float denom = total;
    for (int j = 0; j < m; j++) a[j] = a[j] / denom;
    return ATTN_OK;
}

attn_status attn_softmax_backward(float *ds, const float *a, const float *da, int m)
{
    if (!size_ok(m, ATTN_MAX_TOKENS)) return ATTN_ERR_SIZE;
    if (!ds || !a || !da) return ATTN_ERR_NULL;
    if (!all_finite(a, m) || !all_finite(da, m)) return ATTN_ERR_NONFINITE;
    /* forward: a[j] = exp(s[j]) / Σₖ exp(s[k])
     * so ∂a[j]/∂s[k] = a[j]·(δⱼₖ − a[k]) and ds[k] = Σⱼ da[j]·a[j]·(δⱼₖ − a[k])
     *                                             = a[k]·(da[k] − Σⱼ a[j]·da[j]).  */
    float dot = 0.0f;
    for (int j = 0; j < m; j++) dot += a[j] * da[j];
    for (int k = 0; k < m; k++) ds[k] = a[k] * (da[k] - dot);
    return ATTN_OK;
}

attn_status attn_softmax_stats(float *max_weight, float *entropy, float *grad_norm, const float *a, int m)
{
    if (!size_ok(m, ATTN_MAX_TOKENS)) return ATTN_ERR_SIZE;
    if (!max_weight || !entropy || !grad_norm || !a) return ATTN_ERR_NULL;
    if (!all_finite(a, m)) return ATTN_ERR_NONFINITE;
    /* The Jacobian J = diag(a) − a·aᵀ of the softmax has
     *   ‖J‖²_F = Σⱼ (a[j] − a[j]²)² + Σ_{j≠k} a[j]²a[k]² = Σ a² − 2·Σ a³ + (Σ a²)²,
     * which is 0 for a one-hot row (no gradient flows back to the scores) and largest for a
     * uniform one. Sums in double: the cancellation near one-hot would lose float's digits. */
    double mx = 0.0, h = 0.0, s2 = 0.0, s3 = 0.0;
    for (int j = 0; j < m; j++) {
        double p = a[j];
        mx = p > mx ? p : mx;
        if (p > 0.0) h -= p * log(p); /* 0·log 0 = 0: a weight of exactly 0 adds nothing */
        s2 += p * p;
        s3 += p * p * p;
    }
    double j2 = s2 - 2.0 * s3 + s2 * s2;
    *max_weight = (float)mx;
    *entropy = (float)h;
    *grad_norm = (float)sqrt(j2 > 0.0 ? j2 : 0.0);
    return ATTN_OK;
}
