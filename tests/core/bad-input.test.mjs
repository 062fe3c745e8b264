// tests/core/bad-input.test.mjs: every bad input of issue 2 throws an Error whose message names the
// input and says how to fix it, the module keeps working afterwards, and repeated calls do not
// grow the WebAssembly memory.
//
//   node --test tests/core/bad-input.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, LIMITS } from '../../web/core/attention.js';
import { mulberry32, randMatrix, referenceHead, compare } from '../reference.mjs';

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

// Issue 11, point 11: the property test found forward() throwing "Do not know how to serialize a
// BigInt" (a raw TypeError from JSON.stringify) for a BigInt in a matrix's shape.
test('forward() names a BigInt, a Symbol or a string in a { shape, data } matrix\'s shape', () => {
  const Q = (shape) => ({ ...direct({ n: 2, m: 2, dk: 2, dv: 2 }), Q: { shape, data: [1, 0, 0, 1] } });
  expectRefused('a BigInt in a shape', (a) => a.forward(Q([2, 2n])), [/Q\.shape must be \[rows, cols\]/, /2n \(a BigInt\)/]);
  expectRefused('a Symbol in a shape', (a) => a.forward(Q([Symbol('rows'), 2])), [/Q\.shape must be \[rows, cols\]/, /Symbol/]);
  expectRefused('a string in a shape', (a) => a.forward(Q(['2', 2])), [/Q\.shape must be \[rows, cols\]/, /"2"/]);
  expectRefused('a BigInt shape', (a) => a.forward(Q(4n)), [/Q\.shape must be \[rows, cols\]/, /4n \(a BigInt\)/]);
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

test('multiHead() checks types as forward() does: strings, booleans, null, arrays and BigInts in data are refused by name', () => {
  const ok = (data) => ({ Q: { shape: [1, 1, 2, 2], data }, K: { shape: [1, 1, 2, 2], data: [1, 0, 0, 1] }, V: { shape: [1, 1, 2, 2], data: [1, 2, 3, 4] } });
  // forward() refuses the same values with the same words
  expectRefused('forward with "1"', (a) => a.forward({ Q: [['1', 0], [0, 1]], K: [[1, 0], [0, 1]], V: [[1, 2], [3, 4]] }), [/Q\[0\]\[0\] is "1", not a number: every value of Q must be a number/]);
  expectRefused('strings', (a) => a.multiHead(ok(['1', '0', '0', '1'])), [/Q\.data\[0\] is "1", not a number: every value of Q must be a number/]);
  expectRefused('true', (a) => a.multiHead(ok([true, null, '', [1]])), [/Q\.data\[0\] is true, not a number/]);
  expectRefused('null', (a) => a.multiHead(ok([1, null, 0, 1])), [/Q\.data\[1\] is null, not a number/]);
  expectRefused('empty string', (a) => a.multiHead(ok([1, 0, '', 1])), [/Q\.data\[2\] is "", not a number/]);
  expectRefused('an array in data', (a) => a.multiHead(ok([1, 0, 0, [1]])), [/Q\.data\[3\] is an array, not a number/]);
  expectRefused('BigInt values', (a) => a.multiHead(ok([1n, 0n, 0n, 1n])), [/Q\.data\[0\] is 1n \(a BigInt\), not a number/]);
  expectRefused('a BigInt64Array', (a) => a.multiHead(ok(new BigInt64Array(4))), [/Q\.data\[0\] is 0n \(a BigInt\), not a number/]);
  expectRefused('1e39 in V', (a) => a.multiHead({ ...ok([1, 0, 0, 1]), V: { shape: [1, 1, 2, 2], data: [1, 1e39, 0, 0] } }), [/V\.data\[1\] is 1e\+39, past float32's range/]);
  expectRefused('a string in a mask', (a) => a.multiHead({ ...ok([1, 0, 0, 1]), mask: { shape: [2, 2], data: [true, 'false', true, true] } }), [/mask mixes booleans and numbers \(mask\.data\[1\] is "false"\)/]);
  expectRefused('NaN in a mask', (a) => a.multiHead({ ...ok([1, 0, 0, 1]), mask: { shape: [2, 2], data: [0, NaN, 0, 0] } }), [/mask\.data\[1\] is NaN/]);
  expectRefused('a DataView as data', (a) => a.multiHead(ok(new DataView(new ArrayBuffer(16)))), [/Q\.data is a DataView: it must be an array or a typed array/]);
});

test('multiHead() names null, a Symbol in a shape, scale: Symbol() and non-number head counts instead of throwing TypeErrors', () => {
  const t = (shape) => ({ shape, data: new Float32Array(shape.reduce((p, q) => p * q, 1)) });
  expectRefused('multiHead(null)', (a) => a.multiHead(null), [/multiHead needs an object \{ Q, K, V \}/, /got null/]);
  expectRefused('multiHead()', (a) => a.multiHead(), [/multiHead needs an object/, /got undefined/]);
  expectRefused('multiHead(42)', (a) => a.multiHead(42), [/multiHead needs an object/]);
  expectRefused('Q missing', (a) => a.multiHead({ K: t([1, 1, 2, 2]), V: t([1, 1, 2, 2]) }), [/Q is undefined: it must be a tensor \{ shape: \[\.\.\.\], data \}/]);
  expectRefused('a Symbol in a shape', (a) => a.multiHead({ Q: { shape: [1, Symbol('h'), 2, 2], data: [1, 2, 3, 4] }, K: t([1, 1, 2, 2]), V: t([1, 1, 2, 2]) }), [/Q\.shape\[1\] is a Symbol: every size must be a whole number >= 1/]);
  expectRefused('a BigInt in a shape', (a) => a.multiHead({ Q: { shape: [1, 1n, 2, 2], data: [1, 2, 3, 4] }, K: t([1, 1, 2, 2]), V: t([1, 1, 2, 2]) }), [/Q\.shape\[1\] is 1n \(a BigInt\)/]);
  expectRefused('2.5 in a shape', (a) => a.multiHead({ Q: t([1, 1, 2, 2]), K: { shape: [1, 1, 2.5, 2], data: [1, 2, 3, 4, 5] }, V: t([1, 1, 2, 2]) }), [/K\.shape\[2\] is 2\.5/]);
  expectRefused('scale: Symbol()', (a) => a.multiHead({ Q: t([1, 1, 2, 2]), K: t([1, 1, 2, 2]), V: t([1, 1, 2, 2]), scale: Symbol() }), [/scale is a Symbol: it must be a positive finite number/]);
  expectRefused('scale: 1n', (a) => a.multiHead({ Q: t([1, 1, 2, 2]), K: t([1, 1, 2, 2]), V: t([1, 1, 2, 2]), scale: 1n }), [/scale is 1n \(a BigInt\)/]);
  expectRefused('forward scale: Symbol()', (a) => a.forward({ ...LESSON, scale: Symbol() }), [/scale is a Symbol: it must be a positive finite number/]);
  expectRefused('qHeads: "2"', (a) => a.multiHead({ Q: t([1, 2, 4]), K: t([1, 2, 4]), V: t([1, 2, 4]), qHeads: '2', kvHeads: 2 }), [/qHeads is "2": it must be a whole number of heads >= 1/]);
  expectRefused('causal: 1', (a) => a.multiHead({ Q: t([1, 1, 2, 2]), K: t([1, 1, 2, 2]), V: t([1, 1, 2, 2]), causal: 1 }), [/causal is 1: it must be true or false/]);
  expectRefused('an unknown input', (a) => a.multiHead({ Q: t([1, 1, 2, 2]), K: t([1, 1, 2, 2]), V: t([1, 1, 2, 2]), Wo: 1 }), [/unknown input "Wo": the inputs are Q, K, V/]);
});

test('multiHead() refuses a shape past the limits before reading or copying any data ([1, 1, 4e8, 1] at once)', () => {
  // A 4e8-long array whose every read is counted: the refusal must come from the shape alone.
  let reads = 0;
  const huge = new Proxy(new Array(4e8), { get: (arr, key) => (/^\d+$/.test(String(key)) && reads++, Reflect.get(arr, key)) });
  const small = { shape: [1, 1, 2, 1], data: [1, 2] };
  expectRefused('[1, 1, 4e8, 1]', (a) => a.multiHead({ Q: { shape: [1, 1, 4e8, 1], data: huge }, K: small, V: small }), [new RegExp(`Q has 400000000 queries \\(len\\) but at most ${LIMITS.maxTokensFused} are supported: use a shorter sequence`)]);
  expectRefused('K [1, 1, 4e8, 1]', (a) => a.multiHead({ Q: small, K: { shape: [1, 1, 4e8, 1], data: huge }, V: small }), [/K has 400000000 keys/]);
  expectRefused('a 3-D hidden axis of 4e8', (a) => a.multiHead({ Q: { shape: [1, 1, 4e8], data: huge }, K: small, V: small, qHeads: 1, kvHeads: 1 }), [/rank|same rank/]);
  expectRefused('3-D, 4e8 wide', (a) => a.multiHead({ Q: { shape: [1, 1, 4e8], data: huge }, K: { shape: [1, 1, 1], data: [1] }, V: { shape: [1, 1, 1], data: [1] }, qHeads: 1, kvHeads: 1 }), [/Q has 400000000 values per head \(head size\) but at most 256/]);
  expectRefused('a 2^53 shape', (a) => a.multiHead({ Q: { shape: [2 ** 53, 1, 1, 1], data: huge }, K: small, V: small }), [/Q\.shape\[0\] is 9007199254740992: every size must be a whole number >= 1|heads in all/]);
  assert.equal(reads, 0, 'no value of the huge tensor was read');
});

test('forward() names DataView rows in the direct form instead of "core refused… please report this"', () => {
  const row = () => new DataView(new ArrayBuffer(8));
  expectRefused('Q of DataViews', (a) => a.forward({ Q: [row(), row()], K: [[1, 0], [0, 1]], V: [[1], [2]] }), [/Q must be an array of rows: Q\[0\] is a DataView, not an array or a typed array/]);
  expectRefused('K with a DataView row', (a) => a.forward({ Q: [[1, 0], [0, 1]], K: [[1, 0], row()], V: [[1], [2]] }), [/K\[1\] is a DataView, not a row of numbers/]);
  expectRefused('X of DataViews', (a) => a.forward({ X: [row()], Wq: [[1]], Wk: [[1]], Wv: [[1]] }), [/X\[0\] is a DataView/]);
  // typed-array rows are fine
  const r = attn.forward({ Q: [Float32Array.of(1, 0), Float64Array.of(0, 1)], K: [Int8Array.of(1, 0), Float32Array.of(0, 1)], V: [[1], [2]] });
  assert.equal(r.O.length, 2);
});

test('softmaxStats() refuses weights outside [0, 1] and rows that do not add up to 1 (within 0.001); an all-0 row is a removed row', () => {
  expectRefused('[2, -1]', (a) => a.softmaxStats([2, -1]), [/weights\[0\] is 2: softmax weights lie between 0 and 1/]);
  expectRefused('[0.5, -0.5, 1]', (a) => a.softmaxStats([0.5, -0.5, 1]), [/weights\[1\] is -0\.5/]);
  expectRefused('[0.5, 0.6]', (a) => a.softmaxStats([0.5, 0.6]), [/add up to 1\.10000, not 1/, /within 0\.001/]);
  expectRefused('[0.2, 0.2]', (a) => a.softmaxStats([0.2, 0.2]), [/add up to 0\.400000, not 1/]);
  expectRefused('a NaN weight', (a) => a.softmaxStats([NaN, 1]), [/weights\[0\] is NaN/]);
  assert.deepEqual(attn.softmaxStats([0, 0, 0]), { maxWeight: 0, entropy: 0, gradNorm: 0 });
  const third = attn.softmaxStats([0.333, 0.333, 0.334]);
  assert.ok(Math.abs(third.entropy - Math.log(3)) < 1e-3, `entropy ${third.entropy}`);
  const soft = attn.softmaxRow(Float32Array.from({ length: 512 }, (_, j) => Math.sin(j)));
  assert.ok(attn.softmaxStats(soft).maxWeight > 0, 'a real softmax row of 512 passes');
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
