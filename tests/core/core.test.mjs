// tests/core/core.test.mjs: the attention core through its public JS API (web/core/attention.js), checked
// against the lesson's worked example, an independent float64 reference (tests/reference.mjs)
// and the invariants of STYLE.md. Seeded, so every run sees the same numbers.
//
//   node --test tests/core/core.test.mjs

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadAttention, LIMITS } from '../../web/core/attention.js';
import {
  mulberry32,
  randInt,
  randMatrix,
  randBoolMask,
  randFloatMask,
  identity,
  flat,
  referenceHead,
  softmaxRows,
  compare,
} from '../reference.mjs';

const TOL = { atol: 1e-5, rtol: 1e-4 };
const attn = await loadAttention();

// The largest difference from the float64 reference seen in this file, printed at the end.
let worstOverall = 0;
after(() => console.log(`core.test.mjs: max |core - float64 reference| over all checks = ${worstOverall.toExponential(3)}`));

/** Asserts got ≈ expected (atol 1e-5, rtol 1e-4) and returns the max abs difference. */
function expectClose(got, expected, label) {
  const c = compare(got, expected, TOL);
  assert.ok(c.ok, `${label}: ${c.worst} (max |diff| ${c.maxAbs})`);
  if (c.maxAbs > worstOverall) worstOverall = c.maxAbs;
  return c.maxAbs;
}

/** Compares every intermediate of a result with the reference head; returns the max difference. */
function expectMatchesReference(r, ref, label) {
  assert.equal(r.n, ref.n, `${label}: n`);
  assert.equal(r.m, ref.m, `${label}: m`);
  assert.equal(r.dk, ref.dk, `${label}: dk`);
  assert.equal(r.dv, ref.dv, `${label}: dv`);
  let worst = 0;
  for (const key of ['Q', 'K', 'V', 'S', 'M', 'A', 'O']) {
    assert.ok(r[key] instanceof Float32Array, `${label}: r.${key} is a Float32Array`);
    worst = Math.max(worst, expectClose(r[key], ref[key], `${label} ${key}`));
  }
  // A checked once more against a softmax of the core's own S and M, so a score error cannot
  // hide a softmax error (or the other way round).
  worst = Math.max(worst, expectClose(r.A, softmaxRows(r.S, r.M, r.n, r.m), `${label} A from the core's own S`));
  return worst;
}

/**
 * The invariants of STYLE.md on one result:
 *   every weight is in [0, 1]; masked weights (M = -Infinity) are exactly 0;
 *   a row sums to 1, or is all exactly 0 (and its output all 0) when every key is masked;
 *   each output lies within the range of the value rows it mixes.
 */
function expectInvariants(r, label) {
  const { n, m, dv, A, M, O, V } = r;
  for (let i = 0; i < n; i++) {
    let sum = 0;
    let open = 0;
    for (let j = 0; j < m; j++) {
      const a = A[i * m + j];
      assert.ok(a >= 0 && a <= 1, `${label}: A[${i}][${j}] = ${a} is outside [0, 1]`);
      if (M[i * m + j] === -Infinity) assert.ok(a === 0, `${label}: masked A[${i}][${j}] = ${a}, not exactly 0`);
      else open++;
      sum += a;
    }
    if (open === 0) {
      assert.ok(sum === 0, `${label}: fully masked row ${i} of A sums to ${sum}, not 0`);
      for (let c = 0; c < dv; c++) assert.ok(O[i * dv + c] === 0, `${label}: O[${i}][${c}] of a fully masked row is ${O[i * dv + c]}`);
      continue;
    }
    assert.ok(Math.abs(sum - 1) <= 1e-5 + m * 2.4e-7, `${label}: row ${i} of A sums to ${sum}`);
    for (let c = 0; c < dv; c++) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let j = 0; j < m; j++) {
        if (A[i * m + j] === 0) continue;
        lo = Math.min(lo, V[j * dv + c]);
        hi = Math.max(hi, V[j * dv + c]);
      }
      const o = O[i * dv + c];
      const slack = 1e-5 + 1e-4 * Math.max(Math.abs(lo), Math.abs(hi));
      assert.ok(o >= lo - slack && o <= hi + slack, `${label}: O[${i}][${c}] = ${o} is outside [${lo}, ${hi}], the range of the value rows it mixes`);
    }
  }
}

/** Weights scaled like a real model's (about 1/sqrt(d)), so scores stay O(1) at any width. */
function weights(rand, d, cols) {
  const w = 1 / Math.sqrt(d);
  return randMatrix(rand, d, cols, -w, w);
}

/** A seeded random projection-form config. */
function randomProjection(rand, { n, m = n, d, dk, dv, cross = m !== n }) {
  const cfg = { X: randMatrix(rand, n, d), Wq: weights(rand, d, dk), Wk: weights(rand, d, dk), Wv: weights(rand, d, dv) };
  if (cross) cfg.Xkv = randMatrix(rand, m, d);
  return cfg;
}

const LESSON = {
  Q: [[1, 0], [0, 1], [1, 1]],
  K: [[1, 0], [0, 1], [1, 1]],
  V: [[1, 0], [0, 2], [3, 1]],
};
const LESSON_A = [[0.401, 0.198, 0.401], [0.198, 0.401, 0.401], [0.248, 0.248, 0.503]];
const LESSON_O = [[1.604, 0.797], [1.401, 1.203], [1.759, 1.0]];

const to3 = (x) => Math.round(x * 1000) / 1000;
const rows = (arr, cols) => Array.from({ length: arr.length / cols }, (_, i) => Array.from(arr.slice(i * cols, (i + 1) * cols)));

// ---------------------------------------------------------------- the lesson's worked example

test("forward() gives the lesson's worked-example weights to 3 decimals", () => {
  const r = attn.forward(LESSON);
  assert.deepEqual(rows(r.A, 3).map((row) => row.map(to3)), LESSON_A);
});

test("forward() gives the lesson's worked-example outputs to 3 decimals", () => {
  const r = attn.forward(LESSON);
  assert.deepEqual(rows(r.O, 2).map((row) => row.map(to3)), LESSON_O);
});

test("forward() in the direct form reports the lesson's sizes, scale 1/sqrt(2) and S = Q·Kᵀ/sqrt(2)", () => {
  const r = attn.forward(LESSON);
  assert.deepEqual([r.n, r.m, r.d, r.dk, r.dv], [3, 3, null, 2, 2]);
  assert.ok(Math.abs(r.scale - Math.SQRT1_2) < 1e-7, `scale ${r.scale}`);
  assert.equal(r.causal, false);
  const s = Math.SQRT1_2;
  expectClose(r.S, [s, 0, s, 0, s, s, s, s, 2 * s], 'lesson S');
  assert.deepEqual(Array.from(r.M), new Array(9).fill(0));
  expectMatchesReference(r, referenceHead(LESSON), 'lesson');
});

test("forward() from X = I and W* = the lesson's Q, K, V reproduces the lesson's table", () => {
  const r = attn.forward({ X: identity(3), Wq: LESSON.Q, Wk: LESSON.K, Wv: LESSON.V });
  assert.deepEqual([r.n, r.m, r.d, r.dk, r.dv], [3, 3, 3, 2, 2]);
  assert.deepEqual(Array.from(r.Q), flat(LESSON.Q));
  assert.deepEqual(Array.from(r.K), flat(LESSON.K));
  assert.deepEqual(Array.from(r.V), flat(LESSON.V));
  assert.deepEqual(rows(r.A, 3).map((row) => row.map(to3)), LESSON_A);
  assert.deepEqual(rows(r.O, 2).map((row) => row.map(to3)), LESSON_O);
  assert.deepEqual(Array.from(r.X), flat(identity(3)));
  assert.deepEqual(Array.from(r.Wq), flat(LESSON.Q));
  assert.deepEqual(Array.from(r.Wv), flat(LESSON.V));
});

// ---------------------------------------------------------------- against the float64 reference

test('forward() matches the float64 reference on 40 seeded random self-attention shapes', (t) => {
  const rand = mulberry32(1);
  let worst = 0;
  const shapes = [
    { n: 1, d: 1, dk: 1, dv: 1 },
    { n: 2, d: 3, dk: 5, dv: 7 },
    { n: 64, d: 64, dk: 64, dv: 64 },
    { n: 33, d: 17, dk: 9, dv: 13 },
  ];
  while (shapes.length < 40) {
    shapes.push({ n: randInt(rand, 1, 24), d: randInt(rand, 1, 20), dk: randInt(rand, 1, 20), dv: randInt(rand, 1, 20) });
  }
  for (const shape of shapes) {
    const cfg = randomProjection(rand, shape);
    const r = attn.forward(cfg);
    const label = `self n=${shape.n} d=${shape.d} dk=${shape.dk} dv=${shape.dv}`;
    assert.equal(r.d, shape.d, `${label}: d`);
    worst = Math.max(worst, expectMatchesReference(r, referenceHead(cfg), label));
    expectInvariants(r, label);
  }
  t.diagnostic(`max |diff| vs float64 reference: ${worst.toExponential(3)}`);
});

test('forward() with Xkv (cross-attention, n != m) matches the float64 reference', (t) => {
  const rand = mulberry32(2);
  let worst = 0;
  for (let k = 0; k < 30; k++) {
    const n = randInt(rand, 1, 20);
    let m = randInt(rand, 1, 20);
    if (m === n) m = n + 1;
    const shape = { n, m, d: randInt(rand, 1, 16), dk: randInt(rand, 1, 16), dv: randInt(rand, 1, 16) };
    const cfg = randomProjection(rand, shape);
    const r = attn.forward(cfg);
    const label = `cross n=${n} m=${m} d=${shape.d} dk=${shape.dk} dv=${shape.dv}`;
    assert.equal(r.Xkv.length, m * shape.d, `${label}: r.Xkv holds the key/value sequence`);
    worst = Math.max(worst, expectMatchesReference(r, referenceHead(cfg), label));
    expectInvariants(r, label);
  }
  t.diagnostic(`max |diff| vs float64 reference: ${worst.toExponential(3)}`);
});

test('forward() in the direct form (Q, K, V) with n != m matches the float64 reference', (t) => {
  const rand = mulberry32(3);
  let worst = 0;
  for (let k = 0; k < 30; k++) {
    const n = randInt(rand, 1, 20);
    const m = randInt(rand, 1, 20);
    const dk = randInt(rand, 1, 24);
    const dv = randInt(rand, 1, 24);
    const cfg = { Q: randMatrix(rand, n, dk, -2, 2), K: randMatrix(rand, m, dk, -2, 2), V: randMatrix(rand, m, dv, -3, 3) };
    const r = attn.forward(cfg);
    const label = `direct n=${n} m=${m} dk=${dk} dv=${dv}`;
    assert.equal(r.d, null, `${label}: r.d is null in the direct form`);
    worst = Math.max(worst, expectMatchesReference(r, referenceHead(cfg), label));
    expectInvariants(r, label);
  }
  t.diagnostic(`max |diff| vs float64 reference: ${worst.toExponential(3)}`);
});

test('forward() at the size limits (n = m = maxTokens, d = dk = dv = maxWidth) matches the float64 reference', (t) => {
  const rand = mulberry32(4);
  const shape = { n: LIMITS.maxTokens, d: LIMITS.maxWidth, dk: LIMITS.maxWidth, dv: LIMITS.maxWidth };
  const cfg = randomProjection(rand, shape);
  const r = attn.forward({ ...cfg, causal: true });
  const worst = expectMatchesReference(r, referenceHead({ ...cfg, causal: true }), 'at the limits');
  expectInvariants(r, 'at the limits');
  t.diagnostic(`max |diff| vs float64 reference: ${worst.toExponential(3)}`);
});

// ---------------------------------------------------------------- causal and masks

test('causal: query i sees keys j <= i, top-left aligned for n < m, n = m and n > m', (t) => {
  const rand = mulberry32(5);
  let worst = 0;
  for (const [n, m] of [[1, 5], [3, 7], [6, 6], [7, 4], [9, 1], [1, 1]]) {
    const cfg = randomProjection(rand, { n, m, d: 6, dk: 5, dv: 4, cross: true });
    const r = attn.forward({ ...cfg, causal: true });
    const label = `causal n=${n} m=${m}`;
    assert.equal(r.causal, true);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < m; j++) {
        if (j > i) {
          assert.equal(r.M[i * m + j], -Infinity, `${label}: M[${i}][${j}]`);
          assert.equal(r.A[i * m + j], 0, `${label}: A[${i}][${j}] is a future key but has weight ${r.A[i * m + j]}`);
        } else {
          assert.equal(r.M[i * m + j], 0, `${label}: M[${i}][${j}]`);
          assert.ok(r.A[i * m + j] > 0, `${label}: A[${i}][${j}] is a visible key but has weight 0`);
        }
      }
    }
    worst = Math.max(worst, expectMatchesReference(r, referenceHead({ ...cfg, causal: true }), label));
    expectInvariants(r, label);
  }
  t.diagnostic(`max |diff| vs float64 reference: ${worst.toExponential(3)}`);
});

test('causal: the first query of a self-attention head puts all its weight on key 0', () => {
  const rand = mulberry32(6);
  const r = attn.forward({ ...randomProjection(rand, { n: 5, d: 4, dk: 4, dv: 3 }), causal: true });
  assert.equal(r.A[0], 1);
  assert.deepEqual(Array.from(r.O.slice(0, 3)), Array.from(r.V.slice(0, 3)));
});

test('a boolean mask (true = may attend) gives masked weights exactly 0 and matches the float64 reference', (t) => {
  const rand = mulberry32(7);
  let worst = 0;
  for (let k = 0; k < 25; k++) {
    const n = randInt(rand, 1, 12);
    const m = randInt(rand, 1, 12);
    const mask = randBoolMask(rand, n, m, 0.6);
    const cfg = { ...randomProjection(rand, { n, m, d: randInt(rand, 1, 8), dk: randInt(rand, 1, 8), dv: randInt(rand, 1, 8), cross: true }), mask };
    const causal = k % 3 === 0;
    const r = attn.forward({ ...cfg, causal });
    const label = `bool mask n=${n} m=${m} causal=${causal}`;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < m; j++) {
        const open = mask[i][j] && !(causal && j > i);
        assert.equal(r.M[i * m + j], open ? 0 : -Infinity, `${label}: M[${i}][${j}]`);
      }
    }
    worst = Math.max(worst, expectMatchesReference(r, referenceHead({ ...cfg, causal }), label));
    expectInvariants(r, label);
  }
  t.diagnostic(`max |diff| vs float64 reference: ${worst.toExponential(3)}`);
});

test('a float mask with -Infinity entries is added to the scores and matches the float64 reference', (t) => {
  const rand = mulberry32(8);
  let worst = 0;
  for (let k = 0; k < 25; k++) {
    const n = randInt(rand, 1, 12);
    const m = randInt(rand, 1, 12);
    const dk = randInt(rand, 1, 10);
    const dv = randInt(rand, 1, 10);
    const mask = randFloatMask(rand, n, m, 0.3, -3, 3);
    const cfg = { Q: randMatrix(rand, n, dk), K: randMatrix(rand, m, dk), V: randMatrix(rand, m, dv), mask };
    const r = attn.forward(cfg);
    const label = `float mask n=${n} m=${m}`;
    assert.deepEqual(Array.from(r.M), flat(mask), `${label}: r.M is the mask as given`);
    worst = Math.max(worst, expectMatchesReference(r, referenceHead(cfg), label));
    expectInvariants(r, label);
  }
  t.diagnostic(`max |diff| vs float64 reference: ${worst.toExponential(3)}`);
});

test('a mask given as { shape, data } gives the same result as the nested-array mask', () => {
  const rand = mulberry32(9);
  const cfg = randomProjection(rand, { n: 4, m: 6, d: 3, dk: 3, dv: 2 });
  const fmask = randFloatMask(rand, 4, 6);
  const bmask = randBoolMask(rand, 4, 6);
  const a = attn.forward({ ...cfg, mask: fmask });
  const b = attn.forward({ ...cfg, mask: { shape: [4, 6], data: Float32Array.from(flat(fmask)) } });
  assert.deepEqual(Array.from(b.A), Array.from(a.A));
  const c = attn.forward({ ...cfg, mask: bmask });
  const d = attn.forward({ ...cfg, mask: { shape: [4, 6], data: flat(bmask) } });
  assert.deepEqual(Array.from(d.A), Array.from(c.A));
});

test('a row whose keys are all masked gives A = 0 and O = 0 exactly (bool, float, causal + mask)', () => {
  const rand = mulberry32(10);
  const n = 4;
  const m = 5;
  const cfg = randomProjection(rand, { n, m, d: 3, dk: 4, dv: 3 });
  const boolMask = randBoolMask(rand, n, m, 1);
  boolMask[1] = new Array(m).fill(false);
  const floatMask = randFloatMask(rand, n, m, 0);
  floatMask[2] = new Array(m).fill(-Infinity);
  const causalMask = randBoolMask(rand, n, m, 1);
  causalMask[0][0] = false; // query 0 sees only key 0 under causal; hiding it empties the row
  const cases = [
    ['bool row 1', { mask: boolMask }, [1]],
    ['float row 2', { mask: floatMask }, [2]],
    ['causal + mask row 0', { mask: causalMask, causal: true }, [0]],
    ['every row', { mask: Array.from({ length: n }, () => new Array(m).fill(false)) }, [0, 1, 2, 3]],
  ];
  for (const [label, extra, empty] of cases) {
    const r = attn.forward({ ...cfg, ...extra });
    for (const i of empty) {
      for (let j = 0; j < m; j++) assert.ok(r.A[i * m + j] === 0, `${label}: A[${i}][${j}] = ${r.A[i * m + j]}, not 0`);
      for (let c = 0; c < r.dv; c++) assert.ok(r.O[i * r.dv + c] === 0, `${label}: O[${i}][${c}] = ${r.O[i * r.dv + c]}, not 0`);
    }
    expectInvariants(r, label);
    expectMatchesReference(r, referenceHead({ ...cfg, ...extra }), label);
    assert.ok(!r.A.some(Number.isNaN) && !r.O.some(Number.isNaN), `${label}: no NaN`);
  }
});

// ---------------------------------------------------------------- large scores and the scale

test('scores in the thousands give finite weights that match the float64 reference (no NaN)', (t) => {
  // Integer Q and K with dk = 4 (scale 0.5): every score is exact in float32, so the comparison
  // tests the softmax alone. Scores reach about ±7000, far past exp()'s float32 range (~88).
  const rand = mulberry32(11);
  let worst = 0;
  for (let k = 0; k < 20; k++) {
    const n = randInt(rand, 1, 10);
    const m = randInt(rand, 1, 10);
    const intMatrix = (r, c) => Array.from({ length: r }, () => Array.from({ length: c }, () => randInt(rand, -60, 60)));
    const cfg = { Q: intMatrix(n, 4), K: intMatrix(m, 4), V: randMatrix(rand, m, 3, -5, 5) };
    if (k % 2) cfg.mask = randFloatMask(rand, n, m, 0.2, -1000, 1000);
    const r = attn.forward(cfg);
    const label = `large scores n=${n} m=${m}`;
    assert.ok(r.S.some((s) => Math.abs(s) >= 1000), `${label}: scores reach the thousands`);
    for (const key of ['S', 'A', 'O']) assert.ok(!r[key].some(Number.isNaN), `${label}: ${key} holds NaN`);
    worst = Math.max(worst, expectMatchesReference(r, referenceHead(cfg), label));
    expectInvariants(r, label);
  }
  t.diagnostic(`max |diff| vs float64 reference: ${worst.toExponential(3)}`);
});

test('a row whose scores are all -7000 or below still sums to 1 (the max is subtracted)', () => {
  // Without subtracting the row max every exp() would underflow to 0 and the row would be 0/0.
  const r = attn.forward({ Q: [[100, 0]], K: [[-70, 0], [-80, 0], [-90, 0]], V: [[1, 0], [0, 1], [2, 2]], scale: 1 });
  assert.deepEqual(Array.from(r.S), [-7000, -8000, -9000]);
  assert.deepEqual(Array.from(r.A), [1, 0, 0]);
  assert.deepEqual(Array.from(r.O), [1, 0]);
  expectInvariants(r, 'scores of -7000 and below');
});

test('an explicit scale multiplies Q·Kᵀ once and is reported in r.scale', (t) => {
  const rand = mulberry32(12);
  let worst = 0;
  for (const scale of [0.01, 0.125, 0.5, 1, 3.5, 40]) {
    const cfg = { ...randomProjection(rand, { n: 5, m: 7, d: 6, dk: 8, dv: 3 }), scale };
    const r = attn.forward(cfg);
    assert.ok(Math.abs(r.scale - scale) <= 1e-7 * scale, `r.scale ${r.scale}, expected ${scale}`);
    worst = Math.max(worst, expectMatchesReference(r, referenceHead(cfg), `scale ${scale}`));
    expectInvariants(r, `scale ${scale}`);
  }
  t.diagnostic(`max |diff| vs float64 reference: ${worst.toExponential(3)}`);
});

test('the default scale is 1/sqrt(dk), also when scale is null', () => {
  const rand = mulberry32(13);
  for (const dk of [1, 2, 3, 16, 64]) {
    const cfg = randomProjection(rand, { n: 3, d: 4, dk, dv: 2 });
    for (const r of [attn.forward(cfg), attn.forward({ ...cfg, scale: null }), attn.forward({ ...cfg, scale: undefined })]) {
      assert.ok(Math.abs(r.scale - 1 / Math.sqrt(dk)) < 1e-7, `dk ${dk}: scale ${r.scale}`);
    }
  }
});

// ---------------------------------------------------------------- invariants

test('the STYLE.md invariants hold on 60 seeded random configs with masks and causal', () => {
  const rand = mulberry32(14);
  for (let k = 0; k < 60; k++) {
    const n = randInt(rand, 1, 16);
    const m = randInt(rand, 1, 16);
    const cfg = randomProjection(rand, { n, m, d: randInt(rand, 1, 12), dk: randInt(rand, 1, 12), dv: randInt(rand, 1, 12), cross: true });
    const pick = k % 4;
    if (pick === 1) cfg.mask = randBoolMask(rand, n, m, 0.5);
    if (pick === 2) cfg.mask = randFloatMask(rand, n, m, 0.4, -4, 4);
    if (pick !== 0) cfg.causal = rand() < 0.5;
    expectInvariants(attn.forward(cfg), `config ${k}`);
  }
});

test('shifting a row of scores by a constant (via a float mask) leaves A unchanged and S untouched', (t) => {
  const rand = mulberry32(15);
  let worst = 0;
  for (let k = 0; k < 10; k++) {
    const n = randInt(rand, 1, 10);
    const m = randInt(rand, 1, 10);
    const cfg = randomProjection(rand, { n, m, d: 5, dk: 6, dv: 4, cross: true });
    const base = attn.forward(cfg);
    const shifts = Array.from({ length: n }, () => [-37.5, -3.25, 0.5, 12, 60][randInt(rand, 0, 4)]);
    const mask = shifts.map((c) => new Array(m).fill(c));
    const shifted = attn.forward({ ...cfg, mask });
    assert.deepEqual(Array.from(shifted.S), Array.from(base.S), 'S is taken before the mask');
    assert.deepEqual(Array.from(shifted.M), flat(mask));
    worst = Math.max(worst, expectClose(shifted.A, base.A, `shifted rows by ${shifts}`));
    worst = Math.max(worst, expectClose(shifted.O, base.O, `outputs with rows shifted by ${shifts}`));
  }
  t.diagnostic(`max |A(shifted) - A|: ${worst.toExponential(3)}`);
});

// ---------------------------------------------------------------- what forward() hands out

test('every result is a copy: later calls, even ones that grow memory, never change it', () => {
  const rand = mulberry32(16);
  const keys = ['X', 'Xkv', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A', 'O'];
  const first = attn.forward({ ...randomProjection(rand, { n: 4, m: 6, d: 5, dk: 3, dv: 2 }), causal: true });
  const saved = Object.fromEntries(keys.map((k) => [k, Array.from(first[k])]));
  // Same sizes, different numbers (would overwrite a reused buffer) ...
  attn.forward({ ...randomProjection(rand, { n: 4, m: 6, d: 5, dk: 3, dv: 2 }) });
  // ... and the largest call (would detach views into a grown Wasm memory).
  attn.forward(randomProjection(rand, { n: LIMITS.maxTokens, d: LIMITS.maxWidth, dk: LIMITS.maxWidth, dv: LIMITS.maxWidth }));
  for (const k of keys) assert.deepEqual(Array.from(first[k]), saved[k], `r.${k} changed after later calls`);
});

test('writing into a result does not change the next result', () => {
  const cfg = { ...LESSON, causal: true };
  const a = attn.forward(cfg);
  const expected = Array.from(a.A);
  for (const k of ['Q', 'K', 'V', 'S', 'M', 'A', 'O']) a[k].fill(123);
  const b = attn.forward(cfg);
  assert.deepEqual(Array.from(b.A), expected);
  // Small results may share one ArrayBuffer (a slab), but never the same bytes.
  const start = (x) => x.byteOffset, end = (x) => x.byteOffset + x.byteLength;
  if (b.A.buffer === a.A.buffer) {
    const bStart = start(b.X ?? b.Q), bEnd = end(b.O);
    for (const k of ['Q', 'K', 'V', 'S', 'M', 'A', 'O']) {
      assert.ok(end(a[k]) <= bStart || bEnd <= start(a[k]), `the next result overlaps a.${k}`);
    }
  }
});

test('forward() accepts { shape, data } with Float32Array or number[] data and gives the nested-array result', () => {
  const rand = mulberry32(17);
  const cfg = randomProjection(rand, { n: 3, m: 5, d: 4, dk: 2, dv: 3 });
  const asShape = (rows2, Type) => ({ shape: [rows2.length, rows2[0].length], data: Type === Array ? flat(rows2) : Type.from(flat(rows2)) });
  const nested = attn.forward(cfg);
  for (const Type of [Float32Array, Array]) {
    const r = attn.forward(Object.fromEntries(Object.entries(cfg).map(([k, v]) => [k, asShape(v, Type)])));
    for (const k of ['Q', 'K', 'V', 'S', 'A', 'O']) assert.deepEqual(Array.from(r[k]), Array.from(nested[k]), `${Type.name} data: r.${k}`);
  }
});

test('LIMITS matches the limits in c/attention.h', () => {
  const header = readFileSync(new URL('../../c/attention.h', import.meta.url), 'utf8');
  const define = (name) => Number(header.match(new RegExp(`#define\\s+${name}\\s+(\\d+)`))[1]);
  assert.equal(LIMITS.maxTokens, define('ATTN_MAX_TOKENS'));
  assert.equal(LIMITS.maxWidth, define('ATTN_MAX_WIDTH'));
  assert.equal(typeof LIMITS.maxHeads, 'number');
});

// ---------------------------------------------------------------- several heads

test('multiHead() gives each head what forward() gives it, with grouped-query KV heads repeated', () => {
  const rand = mulberry32(18);
  const [b, hq, hkv, n, m, dk, dv] = [2, 4, 2, 3, 5, 4, 3];
  const tensor = (shape) => ({ shape, data: Float32Array.from(randMatrix(rand, 1, shape.reduce((p, q) => p * q)).flat()) });
  const Q = tensor([b, hq, n, dk]);
  const K = tensor([b, hkv, m, dk]);
  const V = tensor([b, hkv, m, dv]);
  const maskRows = randBoolMask(rand, n, m, 0.7);
  const y = attn.multiHead({ Q, K, V, mask: { shape: [n, m], data: flat(maskRows) }, scale: 0.3 });
  assert.deepEqual(y.shape, [b, hq, n, dv]);
  const slice = (t2, bi, h, heads, len, size) => {
    const start = ((bi * heads + h) * len) * size;
    return { shape: [len, size], data: t2.data.slice(start, start + len * size) };
  };
  for (let bi = 0; bi < b; bi++) {
    for (let h = 0; h < hq; h++) {
      const g = Math.floor(h / (hq / hkv)); // query heads 0,1 use KV head 0; 2,3 use KV head 1
      const r = attn.forward({ Q: slice(Q, bi, h, hq, n, dk), K: slice(K, bi, g, hkv, m, dk), V: slice(V, bi, g, hkv, m, dv), mask: maskRows, scale: 0.3 });
      const start = ((bi * hq + h) * n) * dv;
      expectClose(y.data.slice(start, start + n * dv), r.O, `batch ${bi} head ${h}`);
    }
  }
});

// ---------------------------------------------------------------- the two builds

test('the SIMD and scalar builds give the same results within tolerance', async (t) => {
  const simd = await loadAttention({ simd: true });
  const scalar = await loadAttention({ simd: false });
  assert.equal(simd.simd, true);
  assert.equal(scalar.simd, false);
  const rand = mulberry32(19);
  let worstBetween = 0;
  const shapes = [{ n: 1, m: 1, d: 1, dk: 1, dv: 1 }, { n: 64, m: 64, d: 64, dk: 64, dv: 64 }, { n: 37, m: 29, d: 19, dk: 7, dv: 5 }];
  while (shapes.length < 30) {
    shapes.push({ n: randInt(rand, 1, 40), m: randInt(rand, 1, 40), d: randInt(rand, 1, 33), dk: randInt(rand, 1, 33), dv: randInt(rand, 1, 33) });
  }
  for (const shape of shapes) {
    const cfg = randomProjection(rand, { ...shape, cross: true });
    if (rand() < 0.5) cfg.mask = randFloatMask(rand, shape.n, shape.m, 0.3);
    cfg.causal = rand() < 0.3;
    const label = `n=${shape.n} m=${shape.m} d=${shape.d} dk=${shape.dk} dv=${shape.dv}`;
    const a = simd.forward(cfg);
    const c = scalar.forward(cfg);
    const ref = referenceHead(cfg);
    expectMatchesReference(a, ref, `SIMD ${label}`);
    expectMatchesReference(c, ref, `scalar ${label}`);
    for (const k of ['Q', 'K', 'V', 'S', 'A', 'O']) worstBetween = Math.max(worstBetween, expectClose(a[k], c[k], `SIMD vs scalar ${label} ${k}`));
  }
  t.diagnostic(`max |SIMD - scalar|: ${worstBetween.toExponential(3)}`);
});

test("forward(args, { outputs: ['A', 'O'] }) copies out only A and O, with the same values as a full call", () => {
  const cfg = { ...LESSON, causal: true };
  const full = attn.forward(cfg);
  const some = attn.forward(cfg, { outputs: ['A', 'O'] });
  assert.deepEqual(Array.from(some.A), Array.from(full.A));
  assert.deepEqual(Array.from(some.O), Array.from(full.O));
  for (const k of ['X', 'Xkv', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M']) assert.equal(some[k], null, `${k} was copied`);
  assert.equal(some.n, 3);
  assert.throws(() => attn.forward(cfg, { outputs: ['Z'] }), /outputs must be an array of names from X, Xkv/);
  assert.deepEqual(Array.from(attn.forward(cfg).A), Array.from(full.A)); // the next call copies everything again
});

// Small results are carved one after another from a 256 KB slab, and a new slab is taken when one
// is full: across many slabs, every result keeps its own values, with its arrays where they belong.
test('fresh and O-only results over many slabs keep their values', () => {
  const rand = mulberry32(23);
  const kept = [];
  for (let call = 0; call < 2400; call++) {
    const cfg = randomProjection(rand, { n: 5, m: 5, d: 4, dk: 4, dv: 4 });
    const r = call % 3 === 2 ? attn.forward(cfg, { outputs: ['O'] }) : attn.forward(cfg);
    if (call % 97 === 0 || call % 400 > 396) kept.push([r, cfg, call % 3 === 2]);
  }
  for (const [r, cfg, onlyO] of kept) {
    const again = onlyO ? attn.forward(cfg, { outputs: ['O'] }) : attn.forward(cfg); // (each form again: the same bits)
    for (const k of onlyO ? ['O'] : ['X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A', 'O']) {
      assert.deepEqual(Array.from(r[k]), Array.from(again[k]), `r.${k}`);
    }
  }
  const buffers = new Set(kept.map(([r]) => r.O.buffer));
  assert.ok(buffers.size >= 3, `the results span ${buffers.size} slabs`);
});

// Issue 26, error 3: the core's exp flushed to 0 below -87, where float32 (and PyTorch) still
// have subnormal numbers: Q = [[1]], K = [[0], [-95]], scale 1 gave A = [1, 0], not [1, 5.52e-42].
test('a weight 87 to 104 below the row’s largest is float32’s subnormal, as PyTorch gives, in both builds; 0 from 104', async () => {
  const f32 = (x) => Math.fround(x);
  for (const simd of [true, false]) {
    const attn = await loadAttention({ simd });
    for (const g of [87, 95, 100, 103.9, 104, 120]) {
      const r = attn.forward({ Q: [[1]], K: [[0], [-g]], V: [[0], [1]], scale: 1 });
      const e = Math.exp(-Math.fround(g)), want = f32(e / (1 + e));
      const step = want < 1.1754943508222875e-38 ? 2 ** -149 : want * 2 ** -23;
      assert.ok(Math.abs(r.A[1] - want) <= step, `${simd ? 'SIMD' : 'scalar'}, gap ${g}: A[1] = ${r.A[1]}, float32 has ${want} (float64 ${e / (1 + e)})`);
      assert.equal(r.O[0], r.A[1], 'O = A·V carries it');
      if (g === 95) assert.ok(Math.abs(r.A[1] - 5.52e-42) < 1e-44, `gap 95: ${r.A[1]}`);
      if (g >= 104) assert.equal(r.A[1], 0, `gap ${g}: float32 rounds exp to 0`);
      else assert.ok(r.A[1] > 0, `gap ${g}: not 0`);
    }
  }
});
