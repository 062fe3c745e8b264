/*
 * fuzz_exports.c: a libFuzzer target for every ae_* export of c/wasm_exports.c, the only door
 * web/core/attention.js has into the core, built natively with tests/c/wasm_shim.h standing in for
 * WebAssembly's memory (the arena grows the way memory.grow does, and a page past the grown
 * memory traps). Built and run by the Makefile's test-fuzz.
 *
 * The bytes are a program of calls as attention.js makes them, and some it never makes:
 * ae_prepare with valid and invalid sizes, inputs written through ae_buffer, ae_forward and
 * ae_sdpa with and without a mask, causal or not; trainers created past the 8 slots, freed
 * twice, used through invalid slot numbers; the lab row functions with valid and invalid
 * lengths. Checked:
 *   - ae_prepare: 0 for valid sizes, 1 (ATTN_ERR_SIZE) and the old layout kept otherwise; the
 *     buffers lie in the grown memory, 16-byte aligned, in arena order, none overlapping the
 *     next; the memory grows only for a larger layout than any before;
 *   - ae_forward, ae_sdpa, in both layouts (the long form, and the fused one that stores only
 *     O): the same status and bit-identical Q, K, V, O (and S, M, A) as calling c/attention.c
 *     directly on heap buffers of their own; every weight is in [0, 1] and every row sums to 1
 *     or is all 0; a mask the layout has no room for is refused; ae_buffer_floats gives each
 *     buffer's size in the layout;
 *   - ae_bench_matmul: C = A·B, and no forward pass runs on its arena;
 *   - trainers: at most 8 slots (the ninth is -TRAIN_ERR_MEMORY); every call on a free or
 *     invalid slot is refused (status, -1, NULL or 0) and changes no other trainer; a head's
 *     forward pass changes no trainer's weights; after an example its buffers and the weights'
 *     hold what their ids name (train_check_example);
 *   - induction models: at most 4 slots, a shape larger than a slot refused, every call on a
 *     free or invalid slot refused, steps, evaluation, examples and key splits as induction.h says;
 *     after an example every ae_ind_buffer holds what its id names (ind_check_example), and the
 *     key split adds up to K;
 *   - the lab functions give exactly what attn_softmax_* give on the same row;
 *   - the constants are the header's.
 */
#include "attention.h"
#include "induction.h"
#include "train.h"

#include <string.h>

#include "fuzz.h"
#include "wasm_exports.h"
#include "wasm_shim.h"

/* ---------------------------------------------------------------- the arena */

static int sz[6] = {-1, -1, -1, -1, -1, 0}; /* n, m, d, dk, dv, layout of the last successful ae_prepare */
static int gone;                             /* ae_bench_matmul took the arena since then */
static long largest;                    /* the largest layout prepared so far, in floats */

/* Floats of buffer b in layout s: the fused form has no n×m buffers and no Kᵀ but its work;
 * the mask has room only when the layout says one is given. */
static long count_of(int b, const int *s)
{
    long n = s[0], m = s[1], d = s[2], dk = s[3], dv = s[4];
    int fused = s[5] & L_FUSED;
    switch (b) {
    case B_X: return n * d;
    case B_XKV: return m * d;
    case B_WQ: case B_WK: return d * dk;
    case B_WV: return d * dv;
    case B_Q: return n * dk;
    case B_K: return m * dk;
    case B_V: return m * dv;
    case B_KT: return fused ? 0 : dk * m;
    case B_O: return n * dv;
    case B_WORK: return fused ? ATTN_FUSED_WORK(m, dk, dv) : 0;
    case B_MASK: return s[5] & L_MASK ? n * m : 0;
    default: return fused ? 0 : n * m; /* S, M, A */
    }
}

static int size_from(reader *r, int limit, int allow_zero)
{
    uint8_t b = take(r);
    if (b < 232) return allow_zero && b % 9 == 0 ? 0 : 1 + b % 8;
    switch (b % 8) {
    case 0: return 0;
    case 1: return -1;
    case 2: return limit + 1;
    case 3: return limit;
    case 4: return 1 << 30;
    case 5: return 64 + b % 5; /* a larger layout: grows the memory */
    default: return 9 + b % 7;
    }
}

static void op_prepare(reader *r)
{
    int s[6];
    s[0] = size_from(r, ATTN_MAX_TOKENS, 0);
    s[1] = size_from(r, ATTN_MAX_TOKENS, 0);
    s[2] = size_from(r, ATTN_MAX_WIDTH, 1); /* 0: the direct form */
    s[3] = size_from(r, ATTN_MAX_WIDTH, 0);
    s[4] = size_from(r, ATTN_MAX_WIDTH, 0);
    uint8_t lb = take(r);
    s[5] = lb < 250 ? lb % 4 : lb % 2 ? -1 : 4;
    /* keep a run fast under the sanitizers: at most one size at its limit, n·m small */
    if ((long)s[0] * s[1] > 4096 && s[0] <= ATTN_MAX_TOKENS && s[1] <= ATTN_MAX_TOKENS) s[1] = 4;
    int tokens = s[5] >= 0 && s[5] <= 3 && (s[5] & L_FUSED) ? ATTN_MAX_TOKENS_FUSED : ATTN_MAX_TOKENS; /* the fused form takes more */
    int ok = s[0] >= 1 && s[0] <= tokens && s[1] >= 1 && s[1] <= tokens && s[2] >= 0 &&
             s[2] <= ATTN_MAX_WIDTH && s[3] >= 1 && s[3] <= ATTN_MAX_WIDTH && s[4] >= 1 && s[4] <= ATTN_MAX_WIDTH && s[5] >= 0 && s[5] <= 3;
    float *before[B_COUNT];
    for (int b = 0; b < B_COUNT; b++) before[b] = ae_buffer(b);
    size_t grows = shim_grow_calls;
    int st = ae_prepare(s[0], s[1], s[2], s[3], s[4], s[5]);
    if (!ok) {
        REQUIRE(st == ATTN_ERR_SIZE, "ae_prepare: bad sizes but not ATTN_ERR_SIZE");
        for (int b = 0; b < B_COUNT; b++) REQUIRE(ae_buffer(b) == before[b], "ae_prepare: a refused call moved a buffer");
        return;
    }
    REQUIRE(st == ATTN_OK, "ae_prepare refused valid sizes");
    long total = 0;
    for (int b = 0; b < B_COUNT; b++) total += (count_of(b, s) + 3) & ~3L;
    if (total <= largest) REQUIRE(shim_grow_calls == grows, "ae_prepare grew the memory for a layout no larger than an earlier one");
    if (total > largest) largest = total;
    unsigned char *end = (unsigned char *)(shim_memory_size() * (size_t)65536);
    for (int b = 0; b < B_COUNT; b++) {
        unsigned char *p = (unsigned char *)ae_buffer(b);
        REQUIRE(p >= shim_heap_base && p + count_of(b, s) * sizeof(float) <= end, "a buffer lies outside the grown memory");
        REQUIRE((uintptr_t)p % 16 == 0, "a buffer is not 16-byte aligned");
        REQUIRE(ae_buffer_floats(b) == count_of(b, s), "ae_buffer_floats differs from the layout's size");
        if (b + 1 < B_COUNT) REQUIRE((unsigned char *)ae_buffer(b + 1) >= p + count_of(b, s) * sizeof(float), "a buffer overlaps the next");
    }
    REQUIRE(ae_buffer(-1) == NULL && ae_buffer(B_COUNT) == NULL, "ae_buffer: an invalid id gave a buffer");
    REQUIRE(ae_buffer_floats(-1) == 0 && ae_buffer_floats(B_COUNT) == 0, "ae_buffer_floats: an invalid id has floats");
    memcpy(sz, s, sizeof sz);
    gone = 0;
}

static float value_from(uint8_t b, int wild)
{
    if (wild && b == 255) return NAN;
    if (wild && b == 254) return INFINITY;
    return ((float)b - 128.0f) / 32.0f;
}

static float *copy_of(const float *p, long count)
{
    float *q = fuzz_floats(count);
    memcpy(q, p, sizeof(float) * (size_t)count);
    return q;
}

/* Writes the inputs through ae_buffer, runs ae_forward or ae_sdpa, and compares everything
 * with c/attention.c called directly on private copies. */
static void op_forward(reader *r)
{
    if (sz[0] < 1) { /* nothing prepared yet (ae_bench_matmul may have taken the arena): both refuse */
        REQUIRE(ae_sdpa(0, 0, 1.0f) != ATTN_OK && ae_forward(0, 0, 0, 1.0f) != ATTN_OK, "a forward pass ran before ae_prepare");
        return;
    }
    uint8_t f = take(r);
    int direct = f & 1, has_mask = f & 2, causal = f & 4, cross = f & 8, wild = (f & 0x30) == 0x30;
    int fused = sz[5] & L_FUSED;
    if (gone) { /* ae_bench_matmul laid the arena out its own way: no forward pass until ae_prepare */
        REQUIRE(ae_sdpa(0, 0, 1.0f) != ATTN_OK && (sz[2] < 1 || ae_forward(0, 0, 0, 1.0f) != ATTN_OK), "a forward pass ran on ae_bench_matmul's arena");
        return;
    }
    if (has_mask && !(sz[5] & L_MASK)) { /* no room was laid out for a mask */
        REQUIRE(ae_sdpa(1, causal, 1.0f) == ATTN_ERR_NULL, "ae_sdpa used a mask the layout has no room for");
        return;
    }
    uint8_t sb = take(r);
    float scale = sb == 0 ? 0.0f : sb == 1 ? NAN : sb < 128 ? attn_default_scale(sz[3]) : (float)sb / 128.0f;
    int n = sz[0], m = sz[1], d = sz[2], dk = sz[3], dv = sz[4];
    if (!direct && d == 0) {
        REQUIRE(ae_forward(0, 0, 0, 1.0f) == ATTN_ERR_NULL, "ae_forward ran on a direct-form layout (d = 0)");
        return;
    }
    if (!direct && !cross && n != m) cross = 1; /* self-attention needs m = n: the JS never asks otherwise */
    int inputs[6] = {B_X, B_XKV, B_WQ, B_WK, B_WV, -1};
    if (direct) inputs[0] = B_Q, inputs[1] = B_K, inputs[2] = B_V, inputs[3] = -1;
    float *mine[B_COUNT] = {0};
    for (int k = 0; inputs[k] >= 0; k++) {
        int b = inputs[k];
        if (b == B_XKV && !cross) continue;
        float *p = ae_buffer(b);
        for (long e = 0; e < count_of(b, sz); e++) p[e] = value_from(take(r), wild);
        mine[b] = copy_of(p, count_of(b, sz));
    }
    if (has_mask) {
        float *p = ae_buffer(B_MASK);
        for (long e = 0; e < (long)n * m; e++) {
            uint8_t b = take(r);
            p[e] = b < 80 ? -INFINITY : wild && b == 255 ? NAN : value_from(b, 0);
        }
        mine[B_MASK] = copy_of(p, (long)n * m);
    }
    /* the direct calls, on buffers of their own */
    float *Q = direct ? mine[B_Q] : fuzz_floats((long)n * dk), *K = direct ? mine[B_K] : fuzz_floats((long)m * dk);
    float *V = direct ? mine[B_V] : fuzz_floats((long)m * dv);
    float *S = fuzz_floats((long)n * m), *M = fuzz_floats((long)n * m), *A = fuzz_floats((long)n * m);
    float *O = fuzz_floats((long)n * dv), *Kt = fuzz_floats((long)dk * m), *work = fuzz_floats(ATTN_FUSED_WORK(m, dk, dv));
    const float *mask = has_mask ? mine[B_MASK] : NULL;
    attn_status want = ATTN_OK;
    if (!direct) want = attn_project(Q, K, V, mine[B_X], cross ? mine[B_XKV] : mine[B_X], mine[B_WQ], mine[B_WK], mine[B_WV], n, m, d, dk, dv);
    if (want == ATTN_OK && fused) want = attn_sdpa_fused(O, work, Q, K, V, mask, causal, scale, n, m, dk, dv);
    if (want == ATTN_OK && !fused) want = attn_mask_build(M, mask, causal, n, m);
    if (want == ATTN_OK && !fused) want = attn_sdpa(S, A, O, Kt, Q, K, V, mask, causal, scale, n, m, dk, dv);

    int st = direct ? ae_sdpa(has_mask, causal, scale) : ae_forward(cross, has_mask, causal, scale);
    REQUIRE(st == (int)want, "an export's status differs from c/attention.c's on the same input");
    if (st == ATTN_OK) {
        int outs[] = {B_Q, B_K, B_V, B_O, B_S, B_M, B_A};
        const float *theirs[] = {Q, K, V, O, S, M, A};
        for (int k = 0; k < (fused ? 4 : 7); k++)
            REQUIRE(memcmp(ae_buffer(outs[k]), theirs[k], sizeof(float) * (size_t)count_of(outs[k], sz)) == 0, "an export's result differs from c/attention.c's");
        if (!fused)
            for (int i = 0; i < n; i++) require_weight_row(ae_buffer(B_A) + (long)i * m, m);
    }
    if (!direct) free(Q), free(K), free(V);
    for (int b = 0; b < B_COUNT; b++) free(mine[b]);
    free(S), free(M), free(A), free(O), free(Kt), free(work);
}

/* ---------------------------------------------------------------- trainers */

static int live[TRAIN_SLOTS]; /* which slots this input holds */

static int slot_from(reader *r)
{
    uint8_t b = take(r);
    if (b < 200) return b % TRAIN_SLOTS;
    return b % 2 ? -1 - b % 3 : TRAIN_SLOTS + b % 5;
}

/* After ae_train_example(slot) gave n: the example's buffers and the weights hold what their ids
 * name (train.h): the right key is at or before its query and the target is its token (or -1
 * with no right key); X is the one-hot token (and, with positions, the one-hot position, so
 * d = vocab + positions); Wq, Wk, Wv, Wout lie one after the other in one block, and dWq ...
 * dWout at the same distances (views of the gradient block in the same order). */
static void train_check_example(int slot, int n, const int *tokens)
{
    int d = ae_train_info(slot, I_D), dk = ae_train_info(slot, I_DK), dv = ae_train_info(slot, I_DV);
    int vocab = ae_train_info(slot, I_VOCAB), positions = ae_train_info(slot, I_POSITIONS);
    REQUIRE((positions == 0 || positions == ae_train_info(slot, I_N)) && d == vocab + positions, "I_POSITIONS: not 0 or n, or d is not vocab + positions");
    const int *targets = ae_train_buffer(slot, T_EX_TARGETS), *right = ae_train_buffer(slot, T_EX_RIGHT);
    const float *X = ae_train_buffer(slot, T_EX_X);
    for (int i = 0; i < n; i++) {
        REQUIRE(right[i] >= -1 && right[i] <= i, "T_EX_RIGHT: a key after its query");
        REQUIRE(targets[i] == (right[i] >= 0 ? tokens[right[i]] : -1), "T_EX_TARGETS: not the token of the right key (or -1 where there is none)");
        for (int c = 0; c < d; c++)
            REQUIRE(X[(long)i * d + c] == (c == tokens[i] || (positions && c == vocab + i) ? 1.0f : 0.0f), "T_EX_X: not the one-hot token and position");
    }
    const float *w[4], *g[4];
    for (int k = 0; k < 4; k++) w[k] = ae_train_buffer(slot, T_WQ + k), g[k] = ae_train_buffer(slot, T_DWQ + k);
    const long size[3] = {(long)d * dk, (long)d * dk, (long)d * dv};
    for (int k = 0; k < 3; k++)
        REQUIRE(w[k + 1] - w[k] >= size[k] && g[k + 1] - g[k] == w[k + 1] - w[k], "T_WQ ... T_DWOUT: not Wq, Wk, Wv, Wout in order, with their gradients alike");
}

static void snapshot_weights(float *out, int slot)
{
    int d = ae_train_info(slot, I_D), dk = ae_train_info(slot, I_DK);
    memcpy(out, ae_train_buffer(slot, T_WQ), sizeof(float) * (size_t)(d * dk));
}

static void op_train(reader *r)
{
    uint8_t what = take(r) % 13;
    int slot = slot_from(r);
    int ok = slot >= 0 && slot < TRAIN_SLOTS && live[slot];
    /* another live trainer, whose weights must not change */
    int other = -1;
    for (int s = 0; s < TRAIN_SLOTS; s++)
        if (live[s] && s != slot) other = s;
    static float before[TRAIN_MAX_D * TRAIN_MAX_HEAD], after[TRAIN_MAX_D * TRAIN_MAX_HEAD];
    if (other >= 0) snapshot_weights(before, other);

    switch (what) {
    case 0: case 1: { /* create */
        int used = 0;
        for (int s = 0; s < TRAIN_SLOTS; s++) used += live[s];
        uint8_t b = take(r);
        int task = b % 7 == 6 ? TRAIN_TASK_COUNT : b % TRAIN_TASK_COUNT, dk = 1 + take(r) % 4, dv = 1 + take(r) % 4;
        if (take(r) == 255) dk = TRAIN_MAX_HEAD + 1;
        int got = ae_train_create(task, dk, dv, take_u32(r));
        /* a full house is said first: the arguments are checked in the slot it would take */
        if (used == TRAIN_SLOTS) REQUIRE(got == -TRAIN_ERR_MEMORY, "ae_train_create: a ninth trainer but not -TRAIN_ERR_MEMORY");
        else if (task >= TRAIN_TASK_COUNT) REQUIRE(got == -TRAIN_ERR_TASK, "ae_train_create: bad task but not -TRAIN_ERR_TASK");
        else if (dk > TRAIN_MAX_HEAD) REQUIRE(got == -TRAIN_ERR_SHAPE, "ae_train_create: bad dk but not -TRAIN_ERR_SHAPE");
        else {
            REQUIRE(got >= 0 && got < TRAIN_SLOTS && !live[got], "ae_train_create: not a free slot");
            live[got] = 1;
            REQUIRE(ae_train_info(got, I_STEP) == 0 && ae_train_info(got, I_DK) == dk && ae_train_info(got, I_DV) == dv, "a new trainer's info is wrong");
        }
        break;
    }
    case 2: ae_train_free(slot); if (ok) live[slot] = 0; other = -1; break;
    case 3: {
        static const float lrs[] = {0.01f, 0.1f, 1.0f, 0.0f, NAN, 1e30f};
        float lr = lrs[take(r) % 6];
        int opt = take(r) % 3, batch = take(r) % 6;
        int st = ae_train_set(slot, lr, opt, batch);
        if (!ok) REQUIRE(st == ATTN_ERR_NULL, "ae_train_set on a free slot not refused");
        else REQUIRE(st == (!(lr > 0.0f) || lr == INFINITY ? TRAIN_ERR_LR : batch < 1 || opt > 1 ? TRAIN_ERR_SHAPE : ATTN_OK), "ae_train_set: wrong status");
        break;
    }
    case 4: {
        uint8_t b = take(r);
        int k = b == 255 ? ae_train_loss_chunk() + 1 : b == 254 ? -1 : b % 3;
        if (ok && ae_train_info(slot, I_BATCH) > 4) ae_train_set(slot, 0.01f, 1, 2); /* keep a run fast */
        int st = ae_train_steps(slot, k);
        if (!ok) REQUIRE(st == ATTN_ERR_NULL, "ae_train_steps on a free slot not refused");
        else if (k < 0 || k > ae_train_loss_chunk()) REQUIRE(st == TRAIN_ERR_SHAPE, "ae_train_steps: k out of range but not TRAIN_ERR_SHAPE");
        else if (st == ATTN_OK && k > 0) {
            const float *losses = ae_train_buffer(slot, T_LOSSES);
            REQUIRE(losses[k - 1] == ae_train_loss(slot), "the last loss in the buffer is not ae_train_loss");
        }
        break;
    }
    case 5: ae_train_reset(slot); if (ok) REQUIRE(ae_train_info(slot, I_STEP) == 0, "reset left steps"); break;
    case 6: ae_train_reroll(slot, take_u32(r)); if (ok) REQUIRE(ae_train_info(slot, I_STEP) == 0, "reroll left steps"); break;
    case 7: {
        int st = ae_train_evaluate(slot);
        if (!ok) REQUIRE(st == ATTN_ERR_NULL, "ae_train_evaluate on a free slot not refused");
        else if (st == ATTN_OK) {
            const float *e = ae_train_buffer(slot, T_EVAL);
            REQUIRE(isfinite(e[0]) && e[1] >= 0.0f && e[1] <= 1.0f + 1e-6f && e[2] >= 0.0f && e[2] <= 1.0f, "ae_train_evaluate: values out of range");
        }
        break;
    }
    case 8: {
        int n = ae_train_example(slot, take_u32(r) % 3);
        if (!ok) REQUIRE(n == -ATTN_ERR_NULL, "ae_train_example on a free slot not refused");
        else {
            REQUIRE(n >= 1 && n <= ae_train_info(slot, I_N), "ae_train_example: a length outside 1..n");
            const int *tokens = ae_train_buffer(slot, T_EX_TOKENS);
            for (int i = 0; i < n; i++) REQUIRE(tokens[i] >= 0 && tokens[i] < ae_train_info(slot, I_VOCAB), "an example token outside the vocabulary");
            train_check_example(slot, n, tokens);
        }
        break;
    }
    case 9: {
        int which = take(r) % (I_COUNT + 2) - 1;
        int v = ae_train_info(slot, which);
        if (!ok || which < 0 || which >= I_COUNT) REQUIRE(v == -1, "ae_train_info: an invalid slot or id gave a value");
        else REQUIRE(v >= 0, "ae_train_info: a negative value");
        if (!ok) REQUIRE(ae_train_loss(slot) == 0.0f, "ae_train_loss on a free slot is not 0");
        break;
    }
    case 10: { /* every slot taken, then a ninth */
        for (int s = 0; s < TRAIN_SLOTS; s++) {
            if (live[s]) continue;
            int got = ae_train_create(s % TRAIN_TASK_COUNT, 1 + s % 3, 2, (unsigned)s);
            REQUIRE(got >= 0 && got < TRAIN_SLOTS && !live[got], "ae_train_create refused with a slot free");
            live[got] = 1;
        }
        for (int s = 0; s < TRAIN_SLOTS; s++) REQUIRE(live[s], "a slot is still free after eight creates");
        REQUIRE(ae_train_create(0, 2, 2, 1) == -TRAIN_ERR_MEMORY, "a ninth trainer but not -TRAIN_ERR_MEMORY");
        other = -1;
        break;
    }
    default: {
        int which = take(r) % (T_COUNT + 2) - 1;
        void *p = ae_train_buffer(slot, which);
        REQUIRE((p != NULL) == (ok && which >= 0 && which < T_COUNT), "ae_train_buffer: a buffer for an invalid slot or id, or none for a valid one");
        break;
    }
    }
    if (other >= 0 && live[other] && what != 2) {
        snapshot_weights(after, other);
        int d = ae_train_info(other, I_D), dk = ae_train_info(other, I_DK);
        REQUIRE(memcmp(before, after, sizeof(float) * (size_t)(d * dk)) == 0, "a call on one trainer changed another's weights");
    }
}

/* ---------------------------------------------------------------- induction models */

static int ind_live[IND_SLOTS];

/* got against a sum of float32 products whose absolute terms add up to mag (skipped when the
 * weights have blown up past float32: then the model itself says so with a status) */
static void ind_near(float got, double want, double mag, const char *what)
{
    if (!isfinite(want) || !isfinite(mag) || mag > 1e30) return;
    REQUIRE(fabs((double)got - want) <= 1e-4 * (1.0 + mag), what);
}

/* out [n, cols] = in [n, rows] · W [rows, cols], as the buffers of slot hold them */
static void ind_check_product(const float *out, const float *in, const float *W, int n, int rows, int cols, const char *what)
{
    for (int i = 0; i < n; i++)
        for (int c = 0; c < cols; c++) {
            double want = 0.0, mag = 0.0;
            for (int k = 0; k < rows; k++) {
                double term = (double)in[(long)i * rows + k] * W[(long)k * cols + c];
                want += term, mag += fabs(term);
            }
            ind_near(out[(long)i * cols + c], want, mag, what);
        }
}

/* A view w of `size` floats into the parameters (and its gradient dw at the same offset). */
static void ind_check_view(const float *params, const float *grads, long n_params, const float *w, const float *dw, long size, const char *what)
{
    REQUIRE(w && w >= params && w - params + size <= n_params, what);
    if (dw) REQUIRE(dw - grads == w - params, what);
}

/* After ae_ind_example(slot) gave n: every buffer of ae_ind_buffer holds what its name says, as
 * induction.h describes the forward pass: the sequence and its targets, X0 = E[tokens] + P, each
 * head's Q, K, V = X_l·Wq, Wk, Wv, causal weights A with rows summing to 1, O = A·V, C = O·Wo,
 * X_{l+1} = X_l + the C of every head not ablated, probabilities whose rows sum to 1; weights and
 * gradients are views into params and grads at the same offsets; ids and heads out of range give
 * NULL. (A buffer handed out under the wrong id fails one of these.) */
static void ind_check_example(int slot, int n)
{
    int L = ae_ind_info(slot, IND_I_LAYERS), H = ae_ind_info(slot, IND_I_HEADS), d = ae_ind_info(slot, IND_I_D);
    int dh = ae_ind_info(slot, IND_I_DH), vocab = ae_ind_info(slot, IND_I_VOCAB), ablated = ae_ind_info(slot, IND_I_ABLATED);
    long np = ae_ind_info(slot, IND_I_PARAMS);
    const int *tok = ae_ind_buffer(slot, IND_B_TOKENS, 0), *tgt = ae_ind_buffer(slot, IND_B_TARGETS, 0);
    const int *part = ae_ind_buffer(slot, IND_B_PART, 0), *ind = ae_ind_buffer(slot, IND_B_INDUCT, 0);
    for (int i = 0; i < n; i++) {
        REQUIRE(tok[i] >= 0 && tok[i] < vocab, "IND_B_TOKENS: a token outside the vocabulary");
        REQUIRE(i + 1 < n ? tgt[i] == -1 || tgt[i] == tok[i + 1] : tgt[i] == -1, "IND_B_TARGETS: a target that is not the next token");
        REQUIRE(part[i] == IND_NONE || part[i] == IND_FIRST || part[i] == IND_REPEAT, "IND_B_PART: not a part");
        REQUIRE(ind[i] >= -1 && ind[i] <= i, "IND_B_INDUCT: a key after the query");
    }
    const float *params = ae_ind_buffer(slot, IND_B_PARAMS, 0), *grads = ae_ind_buffer(slot, IND_B_GRADS, 0);
    const float *E = ae_ind_buffer(slot, IND_B_E, 0), *P = ae_ind_buffer(slot, IND_B_P, 0);
    REQUIRE(np > 0 && params && grads && P, "a model without params, grads or positions");
    ind_check_view(params, grads, np, E, NULL, (long)vocab * d, "IND_B_E: not inside the parameters");
    const float *X0 = ae_ind_buffer(slot, IND_B_X, 0);
    for (long e = 0; e < (long)n * d; e++)
        REQUIRE(X0[e] == E[(long)tok[e / d] * d + e % d] + P[e], "IND_B_X 0 is not E[tokens] + P");
    for (int l = 0; l < L; l++) {
        const float *X = ae_ind_buffer(slot, IND_B_X, l), *next = ae_ind_buffer(slot, IND_B_X, l + 1);
        for (int h = 0; h < H; h++) {
            int lh = l * H + h;
            const float *Wq = ae_ind_buffer(slot, IND_B_WQ, lh), *Wk = ae_ind_buffer(slot, IND_B_WK, lh);
            const float *Wv = ae_ind_buffer(slot, IND_B_WV, lh), *Wo = ae_ind_buffer(slot, IND_B_WO, lh);
            ind_check_view(params, grads, np, Wq, ae_ind_buffer(slot, IND_B_DWQ, lh), (long)d * dh, "IND_B_WQ, IND_B_DWQ: not a view of params, grads");
            ind_check_view(params, grads, np, Wk, ae_ind_buffer(slot, IND_B_DWK, lh), (long)d * dh, "IND_B_WK, IND_B_DWK: not a view of params, grads");
            ind_check_view(params, grads, np, Wv, ae_ind_buffer(slot, IND_B_DWV, lh), (long)d * dh, "IND_B_WV, IND_B_DWV: not a view of params, grads");
            ind_check_view(params, grads, np, Wo, ae_ind_buffer(slot, IND_B_DWO, lh), (long)dh * d, "IND_B_WO, IND_B_DWO: not a view of params, grads");
            REQUIRE(Wq != Wk && Wk != Wv && Wv != Wo && Wq != Wo, "two weights of a head are one buffer");
            const float *Q = ae_ind_buffer(slot, IND_B_Q, lh), *K = ae_ind_buffer(slot, IND_B_K, lh);
            const float *V = ae_ind_buffer(slot, IND_B_V, lh), *A = ae_ind_buffer(slot, IND_B_A, lh);
            const float *O = ae_ind_buffer(slot, IND_B_O, lh), *C = ae_ind_buffer(slot, IND_B_C, lh);
            const float *S = ae_ind_buffer(slot, IND_B_S, lh);
            ind_check_product(Q, X, Wq, n, d, dh, "IND_B_Q is not X_l·Wq");
            ind_check_product(K, X, Wk, n, d, dh, "IND_B_K is not X_l·Wk");
            ind_check_product(V, X, Wv, n, d, dh, "IND_B_V is not X_l·Wv");
            for (int i = 0; i < n; i++) {
                double sum = 0.0;
                for (int j = 0; j < n; j++) {
                    float a = A[(long)i * n + j];
                    REQUIRE(a >= 0.0f && a <= 1.0f && (j <= i || a == 0.0f), "IND_B_A: a weight outside [0, 1], or on a later key");
                    sum += a;
                    /* A = softmax(S) over keys 0..i: a_ij / a_i0 = exp(s_ij - s_i0) */
                    if (j <= i && A[(long)i * n] > 1e-6f && a > 1e-6f)
                        REQUIRE(fabs(log((double)a / A[(long)i * n]) - ((double)S[(long)i * n + j] - S[(long)i * n])) <= 1e-3 * (1.0 + fabs(S[(long)i * n + j]) + fabs(S[(long)i * n])),
                                "IND_B_A is not the softmax of IND_B_S");
                }
                REQUIRE(fabs(sum - 1.0) <= 1e-5 + n * 2.4e-7, "IND_B_A: a causal row that does not sum to 1");
            }
            ind_check_product(O, A, V, n, n, dh, "IND_B_O is not A·V");
            ind_check_product(C, O, Wo, n, dh, d, "IND_B_C is not O·Wo");
        }
        for (long e = 0; e < (long)n * d; e++) {
            double want = X[e], mag = fabs(X[e]);
            for (int h = 0; h < H; h++)
                if (!(ablated >> (l * H + h) & 1)) {
                    float c = ((const float *)ae_ind_buffer(slot, IND_B_C, l * H + h))[e];
                    want += c, mag += fabs(c);
                }
            ind_near(next[e], want, mag, "IND_B_X l+1 is not X_l plus the C of every head not ablated");
        }
    }
    const float *probs = ae_ind_buffer(slot, IND_B_PROBS, 0);
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int v = 0; v < vocab; v++) {
            float p = probs[(long)i * vocab + v];
            REQUIRE(p >= 0.0f && p <= 1.0f, "IND_B_PROBS: a probability outside [0, 1]");
            sum += p;
        }
        REQUIRE(tgt[i] < 0 ? sum == 0.0 : fabs(sum - 1.0) <= 1e-5 + vocab * 2.4e-7, "IND_B_PROBS: a row that is neither a distribution nor 0 (no target)");
    }
    for (int which = IND_B_WQ; which < IND_B_COUNT; which++) {
        if (which == IND_B_P || which == IND_B_PROBS) continue; /* one buffer each, not per head */
        int last = which == IND_B_X ? L : L * H - 1;
        REQUIRE(ae_ind_buffer(slot, which, -1) == NULL && ae_ind_buffer(slot, which, last + 1) == NULL, "ae_ind_buffer: a head or layer out of range gave a buffer");
        REQUIRE(ae_ind_buffer(slot, which, last) != NULL, "ae_ind_buffer: the last head or layer gave none");
    }
}

static void op_ind(reader *r)
{
    uint8_t what = take(r) % 10;
    uint8_t sb = take(r);
    int slot = sb < 220 ? sb % IND_SLOTS : sb % 2 ? -1 : IND_SLOTS + sb % 3;
    int ok = slot >= 0 && slot < IND_SLOTS && ind_live[slot];
    switch (what) {
    case 0: case 1: { /* create: a small shape, sometimes a bad or an oversized one */
        int used = 0;
        for (int k = 0; k < IND_SLOTS; k++) used += ind_live[k];
        int layers = 1 + take(r) % 2, heads = 1 + take(r) % 2, d = 2 * (1 + take(r) % 4), dh = 1 + take(r) % 4, n = 5 + take(r) % 4;
        int vocab = (n - 1) / 2 + 1 + take(r) % 3;
        uint8_t edge = take(r);
        int bad = edge == 255, huge = edge == 254;
        if (bad) d = 3;
        if (huge) layers = 2, heads = IND_MAX_HEADS, d = IND_MAX_D, dh = IND_MAX_HEAD_D, n = IND_MAX_TOKENS, vocab = IND_MAX_VOCAB;
        int need = ae_ind_memory_bytes(layers, heads, d, dh, n, vocab);
        REQUIRE(bad ? need == 0 : need > 0, "ae_ind_memory_bytes: 0 for a valid shape, or not 0 for a bad one");
        int got = ae_ind_create(layers, heads, d, dh, n, vocab, take_u32(r));
        if (used == IND_SLOTS) REQUIRE(got == -IND_ERR_MEMORY, "ae_ind_create: a fifth model but not -IND_ERR_MEMORY");
        else if (bad) REQUIRE(got == -IND_ERR_SHAPE, "ae_ind_create: a bad shape but not -IND_ERR_SHAPE");
        else if (need > ae_ind_slot_bytes()) REQUIRE(got == -IND_ERR_MEMORY, "ae_ind_create: a shape larger than a slot but not -IND_ERR_MEMORY");
        else {
            REQUIRE(got >= 0 && got < IND_SLOTS && !ind_live[got], "ae_ind_create: not a free slot");
            ind_live[got] = 1;
            REQUIRE(ae_ind_info(got, IND_I_N) == n && ae_ind_info(got, IND_I_STEP) == 0, "a new model's info is wrong");
            REQUIRE(ae_ind_set(got, 0.01f, 0.01f, 1) == ATTN_OK, "ae_ind_set refused ordinary settings"); /* quick steps */
        }
        break;
    }
    case 2: ae_ind_free(slot); if (ok) ind_live[slot] = 0; break;
    case 3: {
        static const float lrs[] = {0.01f, 0.1f, 1.0f, 2.0f, 0.0f, NAN};
        float lr = lrs[take(r) % 6];
        int batch = take(r) % 4;
        int st = ae_ind_set(slot, lr, 0.01f, batch);
        if (!ok) REQUIRE(st == ATTN_ERR_NULL, "ae_ind_set on a free slot not refused");
        else REQUIRE(st == (!(lr > 0.0f) || lr > 1.0f ? IND_ERR_LR : batch < 1 ? IND_ERR_SHAPE : ATTN_OK), "ae_ind_set: wrong status");
        break;
    }
    case 4: {
        uint8_t b = take(r);
        int k = b == 255 ? ae_ind_loss_chunk() + 1 : b == 254 ? -1 : b % 3;
        if (ok && ae_ind_info(slot, IND_I_BATCH) > 2) ae_ind_set(slot, 0.01f, 0.01f, 1);
        int st = ae_ind_steps(slot, k);
        if (!ok) REQUIRE(st == ATTN_ERR_NULL, "ae_ind_steps on a free slot not refused");
        else if (k < 0 || k > ae_ind_loss_chunk()) REQUIRE(st == IND_ERR_SHAPE, "ae_ind_steps: k out of range but not IND_ERR_SHAPE");
        else if (st == ATTN_OK && k > 0) {
            const float *losses = ae_ind_buffer(slot, IND_B_LOSSES, 0);
            REQUIRE(isfinite(losses[2 * k - 1]) && losses[2 * k - 1] == ae_ind_loss(slot, 2), "the last repeated-part loss is not ae_ind_loss(slot, 2)");
        }
        break;
    }
    case 5: {
        int st = ae_ind_ablate(slot, take(r));
        REQUIRE(st == (ok ? ATTN_OK : ATTN_ERR_NULL), "ae_ind_ablate: wrong status");
        if (take(r) % 2) ae_ind_reset(slot);
        else ae_ind_reroll(slot, take_u32(r));
        if (ok) REQUIRE(ae_ind_info(slot, IND_I_STEP) == 0, "reset or reroll left steps");
        break;
    }
    case 6: {
        int e = ae_ind_evaluate(slot), c = ae_ind_composition(slot);
        if (!ok) REQUIRE(e == ATTN_ERR_NULL && c == ATTN_ERR_NULL, "evaluate or composition on a free slot not refused");
        if (ok && e == ATTN_OK) {
            const float *out = ae_ind_buffer(slot, IND_B_EVAL, 0);
            REQUIRE(isfinite(out[0]) && isfinite(out[1]) && out[2] >= 0.0f && out[2] <= 1.0f, "ae_ind_evaluate: values out of range");
        }
        if (ok && c == ATTN_OK && ae_ind_info(slot, IND_I_LAYERS) == 2) {
            /* ||W_QK·W_OVᵀ||_F <= ||W_QK||_F·||W_OV||_F: every K-composition score is in [0, 1] */
            const float *k = ae_ind_buffer(slot, IND_B_COMPOSITION, 0);
            int H = ae_ind_info(slot, IND_I_HEADS);
            for (int ab = 0; ab < H * H; ab++) REQUIRE(k[ab] >= 0.0f && k[ab] <= 1.0f + 1e-5f, "IND_B_COMPOSITION: a score outside [0, 1]");
        }
        break;
    }
    case 7: {
        int n = ae_ind_example(slot, take(r));
        if (!ok) {
            REQUIRE(n == -ATTN_ERR_NULL, "ae_ind_example on a free slot not refused");
            REQUIRE(ae_ind_key_split(slot, 0, 0) == -ATTN_ERR_NULL, "ae_ind_key_split on a free slot not refused");
            break;
        }
        if (n < 0) break; /* weights blown up */
        REQUIRE(n == ae_ind_info(slot, IND_I_N), "ae_ind_example: not n tokens");
        const int *tokens = ae_ind_buffer(slot, IND_B_TOKENS, 0);
        REQUIRE(tokens[0] == IND_BOS && ae_ind_token_name(tokens[1]) != NULL, "ae_ind_example: no BOS, or a token without a name");
        ind_check_example(slot, n);
        int layer = take(r) % 3, head = take(r) % 3;
        int parts = ae_ind_key_split(slot, layer, head);
        int H = ae_ind_info(slot, IND_I_HEADS), valid = layer < ae_ind_info(slot, IND_I_LAYERS) && head < H;
        REQUIRE(valid ? parts == 1 + layer * H : parts == -IND_ERR_SHAPE, "ae_ind_key_split: wrong count or status");
        if (valid) { /* the parts of the key add up to K: the embedding's share and each earlier head's */
            int d = ae_ind_info(slot, IND_I_D), dh = ae_ind_info(slot, IND_I_DH);
            long size = (long)n * dh;
            const float *split = ae_ind_buffer(slot, IND_B_SPLIT, 0), *K = ae_ind_buffer(slot, IND_B_K, layer * H + head);
            const float *Wk = ae_ind_buffer(slot, IND_B_WK, layer * H + head);
            for (long e = 0; e < size; e++) {
                double want = 0.0, mag = 0.0; /* mag: every product's size, for float32's rounding */
                for (int p = 0; p < parts; p++) {
                    const float *in = p == 0 ? ae_ind_buffer(slot, IND_B_X, 0) : ae_ind_buffer(slot, IND_B_C, p - 1);
                    want += split[p * size + e];
                    for (int k = 0; k < d; k++) mag += fabs((double)in[e / dh * d + k] * Wk[(long)k * dh + e % dh]);
                }
                ind_near(K[e], want, mag, "IND_B_SPLIT: the parts of the key do not add up to K");
            }
        }
        break;
    }
    case 8: {
        int which = take(r) % (IND_I_COUNT + 2) - 1;
        int v = ae_ind_info(slot, which);
        if (!ok || which < 0 || which >= IND_I_COUNT) REQUIRE(v == -1, "ae_ind_info: an invalid slot or id gave a value");
        else REQUIRE(v >= 0, "ae_ind_info: a negative value");
        if (!ok) REQUIRE(ae_ind_loss(slot, 0) == 0.0f, "ae_ind_loss on a free slot is not 0");
        break;
    }
    default: {
        int which = take(r) % (IND_B_COUNT + 2) - 1, index = take(r) % 6 - 1;
        void *p = ae_ind_buffer(slot, which, index);
        if (!ok || which < 0 || which >= IND_B_COUNT) REQUIRE(p == NULL, "ae_ind_buffer: a buffer for an invalid slot or id");
        break;
    }
    }
}

/* ---------------------------------------------------------------- the labs' rows */

static void op_lab(reader *r)
{
    uint8_t b = take(r);
    int m = b < 240 ? 1 + b % 10 : b % 3 == 0 ? 0 : b % 3 == 1 ? ATTN_MAX_TOKENS + 1 : ATTN_MAX_TOKENS;
    REQUIRE(ae_lab_buffer(-1) == NULL && ae_lab_buffer(LAB_COUNT) == NULL, "ae_lab_buffer: an invalid id gave a buffer");
    float *in = ae_lab_buffer(LAB_IN), *grad = ae_lab_buffer(LAB_GRAD);
    int fill = m >= 1 && m <= ATTN_MAX_TOKENS ? m : 1;
    for (int j = 0; j < fill; j++) {
        uint8_t v = take(r);
        in[j] = v >= 250 ? -INFINITY : v == 249 ? NAN : ((float)v - 100.0f) / 10.0f;
        grad[j] = ((float)take(r) - 128.0f) / 32.0f;
    }
    float *row = copy_of(in, fill), *g = copy_of(grad, fill);
    float a[ATTN_MAX_TOKENS], e[ATTN_MAX_TOKENS], x[3];
    switch (take(r) % 4) {
    case 0: {
        int st = ae_softmax_stable(m);
        REQUIRE(st == (int)attn_softmax_stable(a, e, &x[0], &x[1], row, m), "ae_softmax_stable: another status");
        if (st == ATTN_OK) {
            REQUIRE(memcmp(ae_lab_buffer(LAB_OUT), a, sizeof(float) * (size_t)m) == 0 && memcmp(ae_lab_buffer(LAB_TERMS), e, sizeof(float) * (size_t)m) == 0, "ae_softmax_stable: other weights or terms");
            require_weight_row(ae_lab_buffer(LAB_OUT), m);
        }
        break;
    }
    case 1: {
        int st = ae_softmax_naive(m);
        REQUIRE(st == (int)attn_softmax_naive(a, e, &x[1], row, m), "ae_softmax_naive: another status");
        if (st == ATTN_OK) REQUIRE(memcmp(ae_lab_buffer(LAB_TERMS), e, sizeof(float) * (size_t)m) == 0, "ae_softmax_naive: other terms");
        break;
    }
    case 2: {
        int st = ae_softmax_backward(m);
        float ds[ATTN_MAX_TOKENS];
        REQUIRE(st == (int)attn_softmax_backward(ds, row, g, m), "ae_softmax_backward: another status");
        if (st == ATTN_OK) REQUIRE(memcmp(ae_lab_buffer(LAB_OUT), ds, sizeof(float) * (size_t)m) == 0, "ae_softmax_backward: another ds");
        break;
    }
    default: {
        int st = ae_softmax_stats(m);
        REQUIRE(st == (int)attn_softmax_stats(&x[0], &x[1], &x[2], row, m), "ae_softmax_stats: another status");
        if (st == ATTN_OK) REQUIRE(memcmp(ae_lab_buffer(LAB_SCALARS), x, sizeof x) == 0, "ae_softmax_stats: other numbers");
        break;
    }
    }
    free(row), free(g);
}

/* ae_bench_matmul (make bench only): C = A·B with the head's kernel, on fixed small numbers;
 * afterwards the forward layout is gone until the next ae_prepare. */
/* The tile lab's walk (ae_tile_reset, ae_tile_step) on the head the last ae_prepare laid out:
 * each step against attn_tile_step called directly on copies of the running state, with the
 * arena's own Q, K, V (and mask); tiles out of range refused. */
static void op_tile(reader *r)
{
    REQUIRE(ae_tile_buffer(-1) == NULL && ae_tile_buffer(TILE_COUNT) == NULL, "ae_tile_buffer answered an id out of range");
    for (int b = 0; b < TILE_COUNT; b++) REQUIRE(ae_tile_buffer(b) != NULL, "ae_tile_buffer of an id in range is NULL");
    if (sz[0] < 1 || gone) return; /* no head laid out, or ae_bench_matmul took the arena */
    int n = sz[0], m = sz[1], dv = sz[4];
    int st = ae_tile_reset();
    if (n > ATTN_MAX_TOKENS || m > ATTN_MAX_TOKENS) {
        REQUIRE(st == ATTN_ERR_SIZE, "ae_tile_reset took a head past ATTN_MAX_TOKENS");
        return;
    }
    REQUIRE(st == ATTN_OK, "ae_tile_reset refused a head within the limits");
    float *mx = ae_tile_buffer(TILE_MAX), *sum = ae_tile_buffer(TILE_SUM), *out = ae_tile_buffer(TILE_OUT);
    for (int i = 0; i < n; i++) REQUIRE(mx[i] == -INFINITY && sum[i] == 0.0f, "ae_tile_reset left a row's state");
    for (int steps = 1 + take(r) % 4; steps > 0 && r->left; steps--) {
        uint8_t f = take(r);
        int q0 = take(r) % (n + 1), k0 = take(r) % (m + 1), bq = take(r) % (TILE_ROWS + 2), bk = take(r) % 17;
        int has_mask = (f & 1) && (sz[5] & L_MASK), causal = (f & 2) != 0;
        float scale = f & 4 ? attn_default_scale(sz[3]) : 0.5f;
        float *mx2 = copy_of(mx, n), *sum2 = copy_of(sum, n), *out2 = copy_of(out, (long)n * dv);
        /* exactly the tile's z and p (bq <= TILE_ROWS rows of bk keys), so a write past them is caught */
        float *z = fuzz_floats((long)TILE_ROWS * (bk ? bk : 1)), *p = fuzz_floats((long)TILE_ROWS * (bk ? bk : 1));
        float alpha[TILE_ROWS + 2], rescale[TILE_ROWS + 2];
        attn_status want = bq > TILE_ROWS ? ATTN_ERR_SIZE
                                          : attn_tile_step(mx2, sum2, out2, z, p, alpha, rescale, ae_buffer(B_Q), ae_buffer(B_K), ae_buffer(B_V),
                                                           has_mask ? ae_buffer(B_MASK) : NULL, causal, scale, n, m, sz[3], dv, q0, bq, k0, bk);
        int got = ae_tile_step(has_mask, causal, scale, q0, bq, k0, bk);
        REQUIRE(got == (int)want, "ae_tile_step's status differs from attn_tile_step's");
        if (got == ATTN_OK) {
            REQUIRE(memcmp(mx, mx2, sizeof(float) * (size_t)n) == 0 && memcmp(sum, sum2, sizeof(float) * (size_t)n) == 0 &&
                        memcmp(out, out2, sizeof(float) * (size_t)n * dv) == 0,
                    "ae_tile_step's running state differs from attn_tile_step's");
            int rows = n - q0 < bq ? n - q0 : bq;
            REQUIRE(memcmp(ae_tile_buffer(TILE_ALPHA), alpha, sizeof(float) * (size_t)rows) == 0, "ae_tile_step's alpha differs");
        }
        free(mx2), free(sum2), free(out2), free(z), free(p);
        if (got != ATTN_OK) return; /* (a refused step may have left the state half done: start again next time) */
    }
}

static void op_bench(reader *r)
{
    uint8_t b = take(r);
    int n = 1 + take(r) % 12, k = 1 + take(r) % 12, p = 1 + take(r) % 12;
    if (b >= 250) n = b % 2 ? 0 : ATTN_MAX_TOKENS + 1;
    int st = ae_bench_matmul(n, k, p, 1 + b % 2);
    if (n < 1 || n > ATTN_MAX_TOKENS) {
        REQUIRE(st == ATTN_ERR_SIZE, "ae_bench_matmul: bad size but not ATTN_ERR_SIZE");
        return;
    }
    REQUIRE(st == ATTN_OK, "ae_bench_matmul refused small sizes");
    gone = 1;
    /* the arena (at __heap_base, which the shim aligns to a page) holds A [n, k], B [k, p], C [n, p] */
    const float *A = (const float *)shim_heap_base, *B = A + (long)n * k, *C = B + (long)k * p;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < p; j++) {
            double want = 0, size = 0;
            for (int t = 0; t < k; t++) {
                double x = (double)A[(long)i * k + t] * B[(long)t * p + j];
                want += x, size += fabs(x);
            }
            if (!isfinite(size)) continue; /* left-over forward data may hold -Infinity */
            REQUIRE(fabs(C[(long)i * p + j] - want) <= 1e-6 * (1 + size), "ae_bench_matmul: C is not A·B");
        }
    /* A and B are not checked for its fixed numbers: it refills them only when the shape changes,
     * so after a forward pass on the same instance (which bench.mjs never makes) they hold the
     * forward's data. C = A·B holds either way. */
}

static void check_constants(void)
{
    REQUIRE(ae_max_tokens() == ATTN_MAX_TOKENS && ae_max_width() == ATTN_MAX_WIDTH, "the size limits differ from attention.h");
    REQUIRE(ae_default_scale(4) == 0.5f && ae_default_scale(0) == 0.0f, "ae_default_scale is not 1/sqrt(dk)");
    REQUIRE(ae_train_task_count() == TRAIN_TASK_COUNT && ae_train_max_head() == TRAIN_MAX_HEAD && ae_train_max_batch() == TRAIN_MAX_BATCH, "training limits differ from train.h");
    REQUIRE(ae_train_eval_sequences() == TRAIN_EVAL_SEQUENCES && ae_train_loss_chunk() >= 1, "training constants are wrong");
    for (int t = -1; t <= TRAIN_TASK_COUNT; t++) {
        REQUIRE((ae_train_task_name(t) != NULL) == (t >= 0 && t < TRAIN_TASK_COUNT), "ae_train_task_name out of range");
        REQUIRE(ae_train_token_name(t, -1) == NULL, "ae_train_token_name(-1) has a name");
    }
    REQUIRE(ae_train_token_name(0, 0) != NULL, "ae_train_token_name(0, 0) has no name");
    REQUIRE(ae_ind_token_name(IND_BOS) != NULL && ae_ind_token_name(-1) == NULL, "ae_ind_token_name out of range");
    REQUIRE(ae_ind_loss_chunk() >= 1 && ae_ind_eval_sequences() == IND_EVAL_SEQUENCES && ae_ind_slot_bytes() > 0, "induction constants are wrong");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    for (int s = -1; s <= TRAIN_SLOTS; s++) ae_train_free(s), ae_ind_free(s); /* every input starts with free slots */
    memset(live, 0, sizeof live);
    memset(ind_live, 0, sizeof ind_live);
    check_constants();
    for (int op = 0; op < 40 && r.left; op++) {
        uint8_t op = take(&r);
        if (op == 255) {
            op_bench(&r);
            continue;
        }
        switch (op % 8) {
        case 0: op_prepare(&r); break;
        case 1: case 2: op_forward(&r); break;
        case 3: case 4: op_train(&r); break;
        case 5: op_ind(&r); break;
        case 6: op_tile(&r); break;
        default: op_lab(&r); break;
        }
    }
    return 0;
}
