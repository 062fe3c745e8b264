// The WebAssembly exports (c/wasm_exports.c) called directly, the way only web/core/attention.js
// calls them: each refuses what attention.js never sends (bad sizes, a call before ae_prepare,
// a slot that does not exist, a step count past the loss buffer) with its status code, so a
// missing check in attention.js shows up as an error, never as a write outside a buffer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, LIMITS } from '../../web/core/attention.js';
import { BUFFERS, LAB_BUFFERS, TRAIN_BUFFERS, TRAIN_INFO, TRAIN_SLOTS } from '../../web/gen/wasm-exports.js';

const SIZE = 1, NULL = 2, TRAIN_ERR_TASK = 16, TRAIN_ERR_SHAPE = 17, TRAIN_ERR_MEMORY = 18, TRAIN_ERR_LR = 19;
const I_STEP = TRAIN_INFO.indexOf('step');

test('the head exports: nothing runs before ae_prepare, which refuses every size and layout out of range', async () => {
  const x = (await loadAttention()).exports;
  assert.equal(x.ae_sdpa(0, 0, 1), NULL, 'ae_sdpa before any ae_prepare');
  assert.equal(x.ae_forward(0, 0, 0, 1), NULL, 'ae_forward before any ae_prepare');
  const T = LIMITS.maxTokens, W = LIMITS.maxWidth;
  const good = [2, 3, 4, 5, 6, 0];
  const limit = [T, T, W, W, W, 3];
  for (let k = 0; k < 6; k++) {
    for (const bad of [k === 2 || k === 5 ? -1 : 0, limit[k] + 1]) {
      const args = good.slice();
      args[k] = bad;
      assert.equal(x.ae_prepare(...args), SIZE, `ae_prepare(${args})`);
    }
    const edge = good.slice();
    edge[k] = limit[k];
    assert.equal(x.ae_prepare(...edge), 0, `ae_prepare(${edge}) at the limit`);
  }
  assert.equal(x.ae_prepare(2, 3, 0, 5, 6, 0), 0, 'd = 0: the direct form');
  assert.equal(x.ae_forward(0, 0, 0, 1), NULL, 'ae_forward needs a d of at least 1');
  assert.equal(x.ae_prepare(2, 3, 4, 5, 6, 0), 0);
  assert.equal(x.ae_sdpa(1, 0, 1), NULL, 'a mask in a layout without room for one');
  assert.equal(x.ae_buffer(-1), 0);
  assert.equal(x.ae_buffer(BUFFERS.length), 0);
  assert.equal(x.ae_buffer_floats(-1), 0);
  assert.equal(x.ae_buffer_floats(BUFFERS.length), 0);
  // the buffers lie one after another, 16-byte aligned, each as long as its matrix
  // (n 2, m 3, d 4, dk 5, dv 6; the long form with a mask, then the fused form without one)
  const long = { X: 8, Xkv: 12, Wq: 20, Wk: 20, Wv: 24, Q: 10, K: 15, V: 18, S: 6, M: 6, A: 6, O: 12, mask: 6, Kt: 15, work: 0 };
  for (const [layout, floats] of [[2, long], [1, { ...long, S: 0, M: 0, A: 0, mask: 0, Kt: 0, work: null }]]) {
    assert.equal(x.ae_prepare(2, 3, 4, 5, 6, layout), 0);
    const starts = BUFFERS.map((_, b) => x.ae_buffer(b));
    BUFFERS.forEach((name, b) => {
      const n = floats[name];
      assert.ok(n !== undefined, `buffer ${name} (c/wasm_exports.def) has no expected size in this test: add it`);
      assert.equal(starts[b] % 16, 0, `layout ${layout}: buffer ${name} is 16-byte aligned`);
      if (n === null) return assert.ok(Number(x.ae_buffer_floats(b)) > 0, 'the fused form has work space');
      assert.equal(Number(x.ae_buffer_floats(b)), n, `layout ${layout}: buffer ${name} holds ${n} floats`);
      if (b + 1 < BUFFERS.length) assert.equal(starts[b + 1] - starts[b], Math.ceil(n / 4) * 16, `layout ${layout}: buffer ${name} takes ${n} floats`);
    });
  }
});

test('the training exports refuse slots that do not exist, step counts past the loss buffer, a trainer past the last slot', async () => {
  const x = (await loadAttention()).exports;
  assert.equal(x.ae_train_create(x.ae_train_task_count(), 4, 4, 1), -TRAIN_ERR_TASK);
  assert.equal(x.ae_train_create(0, 0, 4, 1), -TRAIN_ERR_SHAPE);
  const slots = Array.from({ length: TRAIN_SLOTS }, (_, k) => x.ae_train_create(k % 2, 4, 4, k));
  assert.deepEqual([...slots].sort((a, b) => a - b), Array.from({ length: TRAIN_SLOTS }, (_, k) => k));
  assert.equal(x.ae_train_create(0, 4, 4, 9), -TRAIN_ERR_MEMORY, 'every slot is taken');
  x.ae_train_free(3);
  x.ae_train_free(-1);
  x.ae_train_free(TRAIN_SLOTS);
  assert.equal(x.ae_train_create(1, 2, 2, 9), 3, 'a freed slot is used again');
  for (const bad of [-1, TRAIN_SLOTS, 99]) {
    assert.equal(x.ae_train_set(bad, 0.01, 0, 4), NULL);
    assert.equal(x.ae_train_steps(bad, 1), NULL);
    assert.equal(x.ae_train_evaluate(bad), NULL);
    assert.equal(x.ae_train_example(bad, 0), -NULL);
    assert.equal(x.ae_train_loss(bad), 0);
    assert.equal(x.ae_train_info(bad, 0), -1);
    TRAIN_BUFFERS.forEach((name, b) => assert.equal(x.ae_train_buffer(bad, b), 0, `slot ${bad}, buffer ${name}`));
    x.ae_train_reset(bad);
    x.ae_train_reroll(bad, 5);
  }
  x.ae_train_free(5);
  assert.equal(x.ae_train_steps(5, 1), NULL, 'a freed slot is gone');
  assert.equal(x.ae_train_set(0, 0, 0, 4), TRAIN_ERR_LR);
  assert.equal(x.ae_train_steps(0, -1), TRAIN_ERR_SHAPE);
  assert.equal(x.ae_train_steps(0, x.ae_train_loss_chunk() + 1), TRAIN_ERR_SHAPE);
  assert.equal(x.ae_train_steps(0, 0), 0);
  assert.equal(x.ae_train_set(0, 0.01, 0, 1), 0);
  assert.equal(x.ae_train_steps(0, x.ae_train_loss_chunk()), 0, 'as many steps as the loss buffer holds');
  x.ae_train_reset(0);
  assert.equal(x.ae_train_info(0, 99), -1);
  assert.equal(x.ae_train_info(0, I_STEP), 0, 'I_STEP: no step yet');
  assert.equal(x.ae_train_steps(0, 2), 0);
  assert.equal(x.ae_train_info(0, I_STEP), 2, 'I_STEP');
  x.ae_train_reset(0);
  assert.equal(x.ae_train_info(0, I_STEP), 0, 'reset clears the step count');
  assert.equal(x.ae_train_buffer(0, TRAIN_BUFFERS.length), 0);
  const bufs = TRAIN_BUFFERS.map((_, b) => x.ae_train_buffer(0, b));
  assert.equal(new Set(bufs).size, TRAIN_BUFFERS.length, 'every training buffer has its own place');
  assert.ok(bufs.every((p) => p > 0));
});

test('the lab exports: one row buffer for each lab id, and the naive softmax says it subtracted nothing', async () => {
  const a = await loadAttention();
  const x = a.exports;
  assert.equal(x.ae_lab_buffer(-1), 0);
  assert.equal(x.ae_lab_buffer(LAB_BUFFERS.length), 0);
  const rows = LAB_BUFFERS.map((_, b) => x.ae_lab_buffer(b));
  rows.slice(1).forEach((p, b) => assert.equal(p - rows[b], LIMITS.maxTokens * 4, `lab buffer ${b} holds ${LIMITS.maxTokens} floats`));
  const stable = a.softmaxSteps([3, 1], { naive: false });
  assert.equal(stable.shift, 3, 'the stable softmax subtracts the row max');
  assert.ok(Math.abs(stable.sum - (1 + Math.exp(-2))) < 1e-6, `sum ${stable.sum}`);
  const naive = a.softmaxSteps([3, 1], { naive: true });
  assert.equal(naive.shift, 0, 'the stable call before left its shift of 3 behind');
});

test('ae_bench_matmul (make bench times it) computes C = A·B of the inputs it fills, at every size up to the limit', async () => {
  const x = (await loadAttention()).exports;
  const T = LIMITS.maxTokens;
  assert.equal(x.ae_prepare(1, 1, 0, 1, 1, 0), 0);
  const arena = x.ae_buffer(0); // the direct form's X has no floats: the arena's start
  for (const [n, k, p] of [[3, 5, 2], [T, 1, 1], [1, T, 1], [1, 1, T], [2, 7, 9]]) {
    assert.equal(x.ae_bench_matmul(n, k, p, 2), 0, `ae_bench_matmul(${n}, ${k}, ${p})`);
    const f = new Float32Array(x.memory.buffer, arena, n * k + k * p + n * p);
    const A = f.subarray(0, n * k), B = f.subarray(n * k, n * k + k * p), C = f.subarray(n * k + k * p);
    for (let e = 0; e < n * k; e++) assert.equal(A[e], (e % 7) * 0.125 - 0.375, `A[${e}]`);
    for (let e = 0; e < k * p; e++) assert.equal(B[e], (e % 5) * 0.25 - 0.5, `B[${e}]`);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < p; j++) {
        let sum = 0; // multiples of 1/32 below 2^10: every partial sum is exact in float32
        for (let t = 0; t < k; t++) sum += A[i * k + t] * B[t * p + j];
        assert.equal(C[i * p + j], sum, `C[${i}, ${j}] of ${n}×${k}·${k}×${p}`);
      }
  }
  for (const bad of [[0, 1, 1], [1, 0, 1], [1, 1, 0], [T + 1, 1, 1], [1, T + 1, 1], [1, 1, T + 1]])
    assert.equal(x.ae_bench_matmul(...bad, 1), SIZE, `ae_bench_matmul(${bad})`);
});

test('ae_ind_steps: a slot that does not exist is NULL whatever the step count; a real one refuses counts past the loss buffer', async () => {
  const x = (await loadAttention()).exports;
  const IND_ERR_SHAPE = 32, chunk = x.ae_ind_loss_chunk();
  const slot = x.ae_ind_create(2, 2, 6, 3, 8, 7, 1);
  assert.ok(slot >= 0, `ae_ind_create: ${slot}`);
  const freed = x.ae_ind_create(1, 1, 4, 2, 6, 6, 2);
  x.ae_ind_free(freed);
  for (const bad of [-1, freed, 4, 99])
    for (const k of [1, -1, chunk + 1]) assert.equal(x.ae_ind_steps(bad, k), NULL, `ae_ind_steps(${bad}, ${k})`);
  // the trainer slot one past the last, with an induction model in use
  assert.equal(x.ae_train_steps(TRAIN_SLOTS, 1), NULL);
  assert.equal(x.ae_train_info(TRAIN_SLOTS, 0), -1);
  assert.equal(x.ae_train_evaluate(TRAIN_SLOTS), NULL);
  assert.equal(x.ae_ind_steps(slot, -1), IND_ERR_SHAPE);
  assert.equal(x.ae_ind_steps(slot, chunk + 1), IND_ERR_SHAPE);
  assert.equal(x.ae_ind_steps(slot, 2), 0);
  x.ae_ind_free(slot);
});
