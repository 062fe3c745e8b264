// tests/bad-input.test.mjs: every bad input of issue 2 throws an Error whose message names the
// input and says how to fix it, the module keeps working afterwards, and repeated calls do not
// grow the WebAssembly memory.
//
//   node --test tests/bad-input.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, LIMITS } from '../web/attention.js';
import { mulberry32, randMatrix, referenceHead, compare } from './reference.mjs';

const attn = await loadAttention();

const LESSON = { Q: [[1, 0], [0, 1], [1, 1]], K: [[1, 0], [0, 1], [1, 1]], V: [[1, 0], [0, 2], [3, 1]] };
const LESSON_REF = referenceHead(LESSON);

// A message "says the fix" when it tells the caller what the input must be, what it holds when
// valid, or what to do.
const FIX = /\b(must|needs?|use|give|at least|at most|should|holds?|the inputs are)\b/;

/** The lesson's example still gives the reference result: the module survived the bad call. */
function expectStillWorks(label) {
  const r = attn.forward(LESSON);
  const c = compare(r.A, LESSON_REF.A);
  assert.ok(c.ok, `after ${label}: the lesson's weights are wrong (${c.worst})`);
  assert.ok(compare(r.O, LESSON_REF.O).ok, `after ${label}: the lesson's outputs are wrong`);
}

/**
 * Runs fn, which must throw an Error (not a string, not a code) whose message matches every
 * pattern and names a fix; then checks that a valid call still works.
 */
function expectRefused(label, fn, patterns, { call = attn } = {}) {
  let error = null;
  try {
    fn(call);
  } catch (e) {
    error = e;
  }
  assert.ok(error !== null, `${label}: no error was thrown`);
  assert.ok(error instanceof Error, `${label}: threw ${String(error)}, not an Error`);
  for (const p of patterns) assert.match(error.message, p, `${label}: message "${error.message}" does not match ${p}`);
  assert.match(error.message, FIX, `${label}: message "${error.message}" does not say how to fix it`);
  assert.doesNotMatch(error.message, /please report/, `${label}: the core refused an input forward() should have caught: "${error.message}"`);
  expectStillWorks(label);
}

const word = (name) => new RegExp(`(^|[^A-Za-z])${name}([^A-Za-z]|$)`); // "X" but not "Xkv"

// A valid projection-form config of the given sizes, with small numbers.
function proj({ n = 4, m = n, d = 4, dk = 3, dv = 2, cross = m !== n } = {}) {
  const rand = mulberry32(n * 1000 + m * 100 + d * 10 + dk + dv);
  const cfg = { X: randMatrix(rand, n, d), Wq: randMatrix(rand, d, dk), Wk: randMatrix(rand, d, dk), Wv: randMatrix(rand, d, dv) };
  if (cross) cfg.Xkv = randMatrix(rand, m, d);
  return cfg;
}

// A valid direct-form config of the given sizes.
function direct({ n = 4, m = 5, dk = 3, dv = 2 } = {}) {
  const rand = mulberry32(n * 100 + m * 10 + dk + dv);
  return { Q: randMatrix(rand, n, dk), K: randMatrix(rand, m, dk), V: randMatrix(rand, m, dv) };
}

const filled = (rows, cols, v) => Array.from({ length: rows }, () => new Array(cols).fill(v));

// ---------------------------------------------------------------- shapes

test('shapes that do not fit are refused with both sizes named, e.g. "Wq has 3 rows but X has 4 columns"', () => {
  const base = proj({ n: 5, d: 4, dk: 3, dv: 2 });
  expectRefused('Wq with 3 rows', (a) => a.forward({ ...base, Wq: filled(3, 3, 0.5) }), [/Wq has 3 rows but X has 4 columns/]);
  expectRefused('Wk with 5 rows', (a) => a.forward({ ...base, Wk: filled(5, 3, 0.5) }), [/Wk has 5 rows but X has 4 columns/]);
  expectRefused('Wv with 2 rows', (a) => a.forward({ ...base, Wv: filled(2, 2, 0.5) }), [/Wv has 2 rows but X has 4 columns/]);
  expectRefused('Wk narrower than Wq', (a) => a.forward({ ...base, Wk: filled(4, 2, 0.5) }), [/Wk has 2 columns/, word('Wq'), /\bdk\b/]);
  expectRefused('Xkv narrower than X', (a) => a.forward({ ...base, Xkv: filled(6, 3, 0.5) }), [/Xkv has 3 columns/, /\b4\b/]);
  const dir = direct({ n: 3, m: 5, dk: 4, dv: 2 });
  expectRefused('K narrower than Q', (a) => a.forward({ ...dir, K: filled(5, 3, 0.5) }), [/K has 3 columns/, word('Q'), /\b4\b/]);
  expectRefused('V with fewer rows than K', (a) => a.forward({ ...dir, V: filled(4, 2, 0.5) }), [/V has 4 rows/, word('K'), /\b5\b/]);
});

test('a missing input, or both forms at once, is refused with the inputs each form needs', () => {
  const base = proj();
  const { Wv, ...noWv } = base;
  void Wv;
  expectRefused('no Wv', (a) => a.forward(noWv), [word('Wv'), /missing/]);
  const { V, ...noV } = direct();
  void V;
  expectRefused('no V', (a) => a.forward(noV), [word('V'), /missing/]);
  expectRefused('an empty object', (a) => a.forward({}), [word('X'), word('Q')]);
  expectRefused('X with Q', (a) => a.forward({ ...direct(), X: base.X }), [word('X'), word('Q')]);
});

test('ragged, empty or non-matrix inputs are refused with the input named', () => {
  const base = proj({ n: 3, d: 2, dk: 2, dv: 2 });
  expectRefused('ragged X', (a) => a.forward({ ...base, X: [[1, 2], [3], [4, 5]] }), [word('X'), /ragged|row 1/]);
  expectRefused('ragged Wk', (a) => a.forward({ ...base, Wk: [[1, 2], [3, 4, 5]] }), [word('Wk'), /ragged|row 1/]);
  expectRefused('ragged Q', (a) => a.forward({ ...direct(), Q: [[1, 2, 3], [4, 5]] }), [word('Q'), /ragged|row 1/]);
  expectRefused('X = []', (a) => a.forward({ ...base, X: [] }), [word('X'), /empty/]);
  expectRefused('X = [[]]', (a) => a.forward({ ...base, X: [[]] }), [word('X'), /empty/]);
  expectRefused('V = [[], []]', (a) => a.forward({ ...direct(), V: [[], [], [], [], []] }), [word('V'), /empty/]);
  expectRefused('Xkv = []', (a) => a.forward({ ...base, Xkv: [] }), [word('Xkv'), /empty/]);
  expectRefused('X shape [0, 2]', (a) => a.forward({ ...base, X: { shape: [0, 2], data: [] } }), [word('X'), /empty/]);
  expectRefused('X a flat array', (a) => a.forward({ ...base, X: [1, 2, 3, 4, 5, 6] }), [word('X'), /rows/]);
  expectRefused('X a number', (a) => a.forward({ ...base, X: 7 }), [word('X'), /matrix|rows/]);
  expectRefused('X data too short', (a) => a.forward({ ...base, X: { shape: [3, 2], data: new Float32Array(5) } }), [word('X'), /\b5\b/, /\b6\b/]);
  expectRefused('X shape not 2-D', (a) => a.forward({ ...base, X: { shape: [6], data: new Float32Array(6) } }), [word('X'), /shape/]);
  expectRefused('a string in X', (a) => a.forward({ ...base, X: [[1, 'a'], [2, 3], [4, 5]] }), [word('X'), /not a number/]);
  expectRefused('a row of X that is not an array', (a) => a.forward({ ...base, X: [[1, 2], 3, [4, 5]] }), [word('X'), /row|\[1\]/]);
});

// ---------------------------------------------------------------- non-finite values

test('NaN, Infinity or -Infinity in X, Xkv, Wq, Wk or Wv is refused with the input and its position named', () => {
  const base = proj({ n: 3, m: 4, d: 3, dk: 2, dv: 2 });
  for (const name of ['X', 'Xkv', 'Wq', 'Wk', 'Wv']) {
    for (const bad of [NaN, Infinity, -Infinity]) {
      const cfg = structuredClone(base);
      cfg[name][1][1] = bad;
      expectRefused(`${bad} in ${name}`, (a) => a.forward(cfg), [word(name), /\[1\]\[1\]/, new RegExp(String(bad).replace('+', '\\+')), /finite/]);
    }
  }
});

test('NaN, Infinity or -Infinity in Q, K or V is refused with the input and its position named', () => {
  const base = direct({ n: 3, m: 4, dk: 2, dv: 3 });
  for (const name of ['Q', 'K', 'V']) {
    for (const bad of [NaN, Infinity, -Infinity]) {
      const cfg = structuredClone(base);
      cfg[name][2][0] = bad;
      expectRefused(`${bad} in ${name}`, (a) => a.forward(cfg), [word(name), /\[2\]\[0\]/, /finite/]);
      // The same value in { shape, data } form.
      const flatCfg = { ...base, [name]: { shape: [cfg[name].length, cfg[name][0].length], data: Float32Array.from(cfg[name].flat()) } };
      expectRefused(`${bad} in ${name} data`, (a) => a.forward(flatCfg), [word(name), /finite/]);
    }
  }
});

test('numbers past float32 range (|x| > 3.4e38) are refused by forward() itself, naming the input', () => {
  // JS numbers like 1e39 are finite, but become Infinity when the core stores them as float32.
  expectRefused('1e39 in X', (a) => a.forward({ ...proj({ n: 2, d: 2 }), X: [[1, 2], [1e39, 0]] }), [word('X')]);
  expectRefused('-1e39 in V', (a) => a.forward({ ...direct({ n: 2, m: 2 }), V: [[1, 2], [-1e39, 0]] }), [word('V')]);
  expectRefused('1e39 in the mask', (a) => a.forward({ ...direct({ n: 2, m: 2 }), mask: [[0, 0], [1e39, 0]] }), [/mask/]);
  expectRefused('scale 1e39', (a) => a.forward({ ...direct(), scale: 1e39 }), [/scale/]);
  expectRefused('scale 1e-50 (0 in float32)', (a) => a.forward({ ...direct(), scale: 1e-50 }), [/scale/]);
});

test('scores or projections that overflow float32 are refused, never returned as NaN', () => {
  // Each input is finite in float32, but scale·Q·Kᵀ (or X·Wq) is not.
  expectRefused('Q·Kᵀ past 3.4e38', (a) => a.forward({ Q: [[1e20]], K: [[1e20], [1]], V: [[1], [2]] }), [/Q|K|scale/, /overflow|too large|large/i]);
  expectRefused('scale·Q·Kᵀ past 3.4e38', (a) => a.forward({ Q: [[1e10]], K: [[1e10], [1]], V: [[1], [2]], scale: 1e30 }), [/Q|K|scale/, /overflow|too large|large/i]);
  expectRefused('X·Wq past 3.4e38', (a) => a.forward({ X: [[1e30]], Wq: [[1e30]], Wk: [[1]], Wv: [[1]] }), [/X|Wq/, /overflow|too large|large/i]);
});

// ---------------------------------------------------------------- masks

test('a mask holding NaN or +Infinity is refused (only -Infinity may mask a key)', () => {
  const base = direct({ n: 3, m: 4 });
  for (const bad of [NaN, Infinity]) {
    const mask = filled(3, 4, 0);
    mask[1][3] = bad;
    expectRefused(`${bad} in the mask`, (a) => a.forward({ ...base, mask }), [/mask/, /\[1\]\[3\]/, /-Infinity/]);
    expectRefused(`${bad} in mask data`, (a) => a.forward({ ...base, mask: { shape: [3, 4], data: Float32Array.from(mask.flat()) } }), [/mask/, /-Infinity/]);
  }
  // -Infinity itself is fine.
  const ok = filled(3, 4, 0);
  ok[1][3] = -Infinity;
  assert.equal(attn.forward({ ...base, mask: ok }).A[1 * 4 + 3], 0);
});

test('a mask of the wrong shape is refused with the shape it needs', () => {
  const base = direct({ n: 3, m: 4 });
  expectRefused('3×3 mask for 3×4 scores', (a) => a.forward({ ...base, mask: filled(3, 3, true) }), [/mask/, /\b3\b/, /\b4\b/]);
  expectRefused('4×4 mask for 3×4 scores', (a) => a.forward({ ...base, mask: filled(4, 4, 0) }), [/mask/, /\b3\b/, /\b4\b/]);
  expectRefused('mask shape [4, 3]', (a) => a.forward({ ...base, mask: { shape: [4, 3], data: new Float32Array(12) } }), [/mask/, /\b3\b/, /\b4\b/]);
  expectRefused('ragged mask', (a) => a.forward({ ...base, mask: [[true, true, true, true], [true], [true, true, true, true]] }), [/mask/]);
  expectRefused('a mask of strings', (a) => a.forward({ ...base, mask: filled(3, 4, 'yes') }), [/mask/, /boolean|number/]);
  expectRefused('a mask mixing booleans and numbers', (a) => a.forward({ ...base, mask: [[true, 0, true, true], ...filled(2, 4, true)] }), [/mask/, /boolean|number/]);
});

// ---------------------------------------------------------------- scale

test('a zero, negative or non-finite scale is refused with the default named', () => {
  for (const scale of [0, -0.5, -Infinity, Infinity, NaN, '0.5']) {
    expectRefused(`scale ${String(scale)}`, (a) => a.forward({ ...direct(), scale }), [/scale/, /positive/]);
  }
});

// ---------------------------------------------------------------- limits

test(`sizes past LIMITS (${LIMITS.maxTokens} tokens, ${LIMITS.maxWidth} wide) are refused with the limit named`, () => {
  const T = LIMITS.maxTokens + 1;
  const W = LIMITS.maxWidth + 1;
  const t = String(LIMITS.maxTokens);
  const w = String(LIMITS.maxWidth);
  expectRefused('n past the limit', (a) => a.forward(proj({ n: T, d: 2, dk: 2, dv: 2 })), [word('X'), new RegExp(t)]);
  expectRefused('m past the limit (Xkv)', (a) => a.forward(proj({ n: 2, m: T, d: 2, dk: 2, dv: 2 })), [word('Xkv'), new RegExp(t)]);
  expectRefused('d past the limit', (a) => a.forward(proj({ n: 2, d: W, dk: 2, dv: 2 })), [word('X'), new RegExp(w)]);
  expectRefused('dk past the limit', (a) => a.forward(proj({ n: 2, d: 2, dk: W, dv: 2 })), [/Wq|dk/, new RegExp(w)]);
  expectRefused('dv past the limit', (a) => a.forward(proj({ n: 2, d: 2, dk: 2, dv: W })), [/Wv|dv/, new RegExp(w)]);
  expectRefused('Q with too many rows', (a) => a.forward(direct({ n: T, m: 2 })), [word('Q'), new RegExp(t)]);
  expectRefused('K with too many rows', (a) => a.forward(direct({ n: 2, m: T })), [word('K'), new RegExp(t)]);
  expectRefused('Q too wide', (a) => a.forward(direct({ n: 2, m: 2, dk: W })), [word('Q'), new RegExp(w)]);
  expectRefused('V too wide', (a) => a.forward(direct({ n: 2, m: 2, dv: W })), [word('V'), new RegExp(w)]);
  // Exactly at the limit is fine.
  const r = attn.forward(direct({ n: LIMITS.maxTokens, m: LIMITS.maxTokens, dk: LIMITS.maxWidth, dv: LIMITS.maxWidth }));
  assert.equal(r.A.length, LIMITS.maxTokens * LIMITS.maxTokens);
});

test('forward() refuses a non-object, an unknown input and a non-boolean causal', () => {
  expectRefused('no argument', (a) => a.forward(), [/forward/, word('Q')]);
  expectRefused('an unknown input', (a) => a.forward({ ...direct(), Wo: [[1]] }), [/Wo/]);
  expectRefused('causal = "yes"', (a) => a.forward({ ...direct(), causal: 'yes' }), [/causal/, /true or false/]);
});

// ---------------------------------------------------------------- several heads

test('multiHead() refuses heads that do not group, masks that do not broadcast and too many heads', () => {
  const t4 = (shape) => ({ shape, data: new Float32Array(shape.reduce((p, q) => p * q)).fill(0.5) });
  const ok = { Q: t4([1, 4, 3, 2]), K: t4([1, 2, 5, 2]), V: t4([1, 2, 5, 2]) };
  expectRefused('qHeads not a multiple of kvHeads', (a) => a.multiHead({ ...ok, K: t4([1, 3, 5, 2]), V: t4([1, 3, 5, 2]) }), [/qHeads|heads/, /kvHeads|multiple/]);
  expectRefused('a mask that does not broadcast', (a) => a.multiHead({ ...ok, mask: t4([3, 4]) }), [/mask/, /broadcast/]);
  expectRefused('too many heads', (a) => a.multiHead({ Q: t4([1, LIMITS.maxHeads + 1, 2, 2]), K: t4([1, 1, 2, 2]), V: t4([1, 1, 2, 2]) }), [new RegExp(String(LIMITS.maxHeads))]);
  expectRefused('3-D without head counts', (a) => a.multiHead({ Q: t4([1, 3, 4]), K: t4([1, 3, 4]), V: t4([1, 3, 4]) }), [/qHeads/]);
  expectRefused('K head size differs from Q', (a) => a.multiHead({ ...ok, K: t4([1, 2, 5, 3]) }), [word('K'), word('Q')]);
  expectRefused('NaN in a head', (a) => a.multiHead({ ...ok, V: { shape: [1, 2, 5, 2], data: new Float32Array(20).fill(NaN) } }), [word('V'), /finite/]);
});

// ---------------------------------------------------------------- memory

test('10,000 forward() calls, some of them refused, do not grow the Wasm memory', () => {
  assert.equal(typeof attn.memoryBytes, 'function', 'attn.memoryBytes() is needed to read the Wasm memory size');
  const rand = mulberry32(42);
  const shapes = [proj({ n: 64, d: 32, dk: 32, dv: 32 }), proj({ n: 5, d: 4, dk: 4, dv: 4 }), proj({ n: 7, m: 3, d: 5, dk: 2, dv: 6 }), direct({ n: 9, m: 11, dk: 8, dv: 3 })];
  for (const cfg of shapes) attn.forward(cfg); // the largest first: later calls reuse its buffers
  const before = attn.memoryBytes();
  let refused = 0;
  for (let k = 0; k < 10000; k++) {
    const cfg = shapes[k % shapes.length];
    if (k % 50 === 49) {
      try {
        attn.forward({ ...cfg, scale: -1 });
      } catch {
        refused++;
      }
      continue;
    }
    const r = attn.forward({ ...cfg, causal: rand() < 0.5 });
    if (k % 1000 === 0) assert.ok(!r.A.some(Number.isNaN));
  }
  assert.equal(refused, 200);
  assert.equal(attn.memoryBytes(), before, `Wasm memory grew from ${before} to ${attn.memoryBytes()} bytes`);
  expectStillWorks('10,000 calls');
});

test('1,000 multiHead() calls do not grow the Wasm memory', () => {
  const t4 = (shape, seed) => ({ shape, data: Float32Array.from(randMatrix(mulberry32(seed), 1, shape.reduce((p, q) => p * q)).flat()) });
  const args = { Q: t4([2, 4, 6, 8], 1), K: t4([2, 2, 7, 8], 2), V: t4([2, 2, 7, 5], 3), causal: true };
  attn.multiHead(args);
  const before = attn.memoryBytes();
  for (let k = 0; k < 1000; k++) attn.multiHead(args);
  assert.equal(attn.memoryBytes(), before);
});
