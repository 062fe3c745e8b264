// tests/core/into.test.mjs: forward(args, { into: previousResult }) (issue 10, point 3). It reuses the
// arrays of an earlier result instead of allocating new ones, and returns that same object.
// The rule that goes with it: a result never changes unless the caller passes it back as `into`.
//
//   node --test tests/core/into.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { mulberry32, randMatrix, randBoolMask } from '../reference.mjs';

const attn = await loadAttention();
const NAMES = ['X', 'Xkv', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A', 'O'];
const SCALARS = ['n', 'm', 'd', 'dk', 'dv', 'scale', 'causal'];

function config(seed, { n = 5, m = n, d = 4, dk = 3, dv = 2, cross = m !== n, causal = true, mask = false } = {}) {
  const rand = mulberry32(seed);
  const cfg = { X: randMatrix(rand, n, d), Wq: randMatrix(rand, d, dk), Wk: randMatrix(rand, d, dk), Wv: randMatrix(rand, d, dv), causal };
  if (cross) cfg.Xkv = randMatrix(rand, m, d);
  if (mask) cfg.mask = randBoolMask(rand, n, m, 0.7);
  return cfg;
}

const snapshot = (r) => Object.fromEntries([...SCALARS.map((k) => [k, r[k]]), ...NAMES.map((k) => [k, r[k] && Array.from(r[k])])]);

/** r holds exactly what a fresh forward(cfg, options) gives. */
function assertLikeFresh(r, cfg, options, label) {
  assert.deepEqual(snapshot(r), snapshot(attn.forward(cfg, options)), label);
  if (r.d !== null && r.Xkv !== null && !cfg.Xkv) assert.equal(r.Xkv, r.X, `${label}: self-attention shares X as Xkv`);
}

test('into: the same object comes back, with the values of a fresh call, in the same arrays', () => {
  const first = attn.forward(config(1));
  const arrays = NAMES.map((k) => first[k]);
  const r = attn.forward(config(2), { into: first });
  assert.equal(r, first);
  NAMES.forEach((k, i) => assert.equal(r[k], arrays[i], `r.${k} is the same array`));
  assertLikeFresh(r, config(2), undefined, 'after into');
  // many times over
  for (let s = 3; s < 8; s++) assertLikeFresh(attn.forward(config(s), { into: r }), config(s), undefined, `seed ${s}`);
});

test('a result never changes unless it is passed back as into', () => {
  const kept = attn.forward(config(10, { mask: true }));
  const saved = snapshot(kept);
  let reused = attn.forward(config(11, { mask: true }));
  for (let s = 12; s < 40; s++) {
    reused = attn.forward(config(s, { n: 3 + (s % 5), mask: s % 2 === 0 }), { into: reused });
    attn.forward(config(s), { outputs: ['O'] });
    attn.forward(config(s, { n: 40, d: 16, dk: 16, dv: 16 })); // fresh results, some growing memory
  }
  assert.deepEqual(snapshot(kept), saved);
});

test('into with other shapes: arrays of the wrong length are replaced, the others overwritten; every value right', () => {
  const r = attn.forward(config(20, { n: 5 }));
  const Wq = r.Wq, S = r.S;
  attn.forward(config(21, { n: 7 }), { into: r }); // n changes: X, Q, K, V, S, M, A, O change length; the weights do not
  assertLikeFresh(r, config(21, { n: 7 }), undefined, 'n = 7');
  assert.equal(r.Wq, Wq, 'Wq ([d][dk], the same shape) is reused');
  assert.notEqual(r.S, S, 'S (now 7 × 7) is a new array');
  // self -> cross -> self, projection -> direct -> projection
  const steps = [config(22, { n: 4, m: 6 }), config(23, { n: 4 }), { Q: [[1, 0], [0, 1]], K: [[1, 0], [0, 1], [1, 1]], V: [[1], [2], [3]] }, config(24, { n: 4, m: 5 }), config(25, { n: 4 })];
  for (const [i, cfg] of steps.entries()) assertLikeFresh(attn.forward(cfg, { into: r }), cfg, undefined, `step ${i}`);
  assert.equal(r.d, 4);
});

test('into with outputs: only the arrays asked for are filled (in place where they fit), the others are null', () => {
  const r = attn.forward(config(30));
  const A = r.A, O = r.O;
  attn.forward(config(31), { into: r, outputs: ['A', 'O'] });
  assertLikeFresh(r, config(31), { outputs: ['A', 'O'] }, 'A and O');
  assert.equal(r.A, A);
  assert.equal(r.O, O);
  attn.forward(config(32), { into: r, outputs: ['O'] }); // the fused form
  assertLikeFresh(r, config(32), { outputs: ['O'] }, 'fused');
  assert.equal(r.O, O);
  attn.forward(config(33), { into: r }); // every array again
  assertLikeFresh(r, config(33), undefined, 'all again');
});

test('into never writes an array the caller put in the result, nor one array twice', () => {
  const r = attn.forward(config(40));
  const mine = new Float32Array(r.A.length).fill(7);
  r.A = mine;
  attn.forward(config(41), { into: r });
  assert.ok(mine.every((x) => x === 7), 'the caller\'s array was written');
  assertLikeFresh(r, config(41), undefined, 'after replacing A');
  // two names pointing at one array: each must still get its own values
  r.S = r.M;
  attn.forward(config(42), { into: r });
  assert.notEqual(r.S, r.M);
  assertLikeFresh(r, config(42), undefined, 'after aliasing S and M');
});

test('into refuses what forward() did not return, and a transferred result is refilled with new arrays', () => {
  assert.throws(() => attn.forward(config(50), { into: {} }), /into is an object: it must be a result an earlier forward\(\) returned/);
  assert.throws(() => attn.forward(config(50), { into: { ...attn.forward(config(50)) } }), /into is an object/);
  assert.throws(() => attn.forward(config(50), { into: 3 }), /into is 3/);
  assert.throws(() => attn.forward(config(50), { outputs: ['O'], intoo: 1 }), /unknown option "intoo": the options are outputs and into/);
  const big = attn.forward(config(51, { n: 64, d: 8, dk: 8, dv: 8 })); // large enough for its own ArrayBuffer
  structuredClone(big.A.buffer, { transfer: [big.A.buffer] }); // detaches every array of the result
  assert.equal(big.A.length, 0);
  attn.forward(config(52, { n: 64, d: 8, dk: 8, dv: 8 }), { into: big });
  assertLikeFresh(big, config(52, { n: 64, d: 8, dk: 8, dv: 8 }), undefined, 'after a transfer');
});

test('into at the same sizes with another scale or causal: the result takes the new ones', () => {
  let r = attn.forward(config(50));
  for (const [causal, scale] of [[false, undefined], [false, 0.25], [true, 0.25], [true, undefined], [true, 2]]) {
    const cfg = { ...config(51), causal, scale };
    r = attn.forward(cfg, { into: r });
    assertLikeFresh(r, cfg, undefined, `causal ${causal}, scale ${scale}`);
    assert.equal(r.causal, causal);
    assert.equal(r.scale, scale ?? 1 / Math.sqrt(3));
  }
});

// Issue 27, bug 9: a frozen result took the new O but kept its old scale before the TypeError.
test('a frozen into is refused by name before anything in it is written', () => {
  const cfg = config(3);
  const r = Object.freeze(attn.forward(cfg, { outputs: ['O'] }));
  const before = snapshot(r);
  assert.throws(() => attn.forward({ ...cfg, scale: 0.25 }, { outputs: ['O'], into: r }), /into is a frozen result \(Object\.freeze\): forward\(\) cannot refill it/);
  assert.deepEqual(snapshot(r), before, 'neither O nor scale changed');
});

// Issue 27, risk: transferring one small result's buffer (docs/api.md warns against it) detaches
// the shared slab; the calls after it threw TypeError for a whole slab's worth of results.
test('after a caller detaches a small result’s buffer, the next forward() calls still work', () => {
  const cfg = config(4);
  const r = attn.forward(cfg);
  structuredClone(r.A.buffer, { transfer: [r.A.buffer] }); // as postMessage's transfer list does
  assert.equal(r.A.length, 0, 'the transfer detached it');
  for (let k = 0; k < 3; k++) assertLikeFresh(attn.forward(cfg), cfg, undefined, `call ${k + 1} after the transfer`);
  assertLikeFresh(attn.forward(cfg, { outputs: ['O'] }), cfg, { outputs: ['O'] }, 'O only');
});

// Issue 27, bug 6: X as a length-tracking view of a resizable buffer, resized by a getter on a
// later argument, gave r.X = [1, 0, 5, 5]: the last two values were the previous call's.
test('a resizable buffer resized while forward() reads its arguments is refused by name, not read half', () => {
  attn.forward({ X: [[5, 5], [5, 5]], Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv: [[1, 0], [0, 1]] }); // the last call's values
  const rab = new ArrayBuffer(16, { maxByteLength: 64 });
  new Float32Array(rab).set([1, 0, 0, 1]);
  const Wq = [[1, 0], [0, 1]];
  Object.defineProperty(Wq, 1, { get: () => (rab.resize(8), [0, 1]) });
  assert.throws(() => attn.forward({ X: { shape: [2, 2], data: new Float32Array(rab) }, Wq, Wk: [[1, 0], [0, 1]], Wv: [[1, 0], [0, 1]] }),
    /X changed length while forward\(\) read its arguments \(4 values when checked, 2 when copied/);
  const row = new ArrayBuffer(8, { maxByteLength: 64 });
  new Float32Array(row).set([0, 1]);
  const X = [[1, 0], new Float32Array(row)];
  const Wk = [[1, 0], [0, 1]];
  Object.defineProperty(Wk, 0, { get: () => (row.resize(4), [1, 0]) });
  assert.throws(() => attn.forward({ X, Wq: [[1, 0], [0, 1]], Wk, Wv: [[1, 0], [0, 1]] }), /X\[1\] changed length/);
});
