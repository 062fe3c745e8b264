// tests/core/input-checks.test.mjs: the input checks of web/core/attention.js (forward(), its options,
// multiHead(), the softmax rows) and of web/core/trainer.js (seeds, Trainer.set), each
// error pinned word for word: a message names the argument, where the bad value is, and what to
// give instead (the shape it expected, the range, the default). Each comparison is tested on
// both sides: the value just accepted and the one just refused. Accepted inputs are checked by
// their results, against the float64 reference (tests/reference.mjs) or values worked by hand.
//
//   node --test tests/core/input-checks.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, LIMITS } from '../../web/core/attention.js';
import { Trainer, checkSeed } from '../../web/core/trainer.js';
import { referenceHead, compare } from '../reference.mjs';

const attn = await loadAttention();

/** fn must throw an Error whose message is exactly `message`. */
function refuses(fn, message, label = message) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof Error, `${label}: threw ${String(e)}, not an Error`);
    assert.equal(e.message, message, label);
    return true;
  });
}

/** r's arrays named in `names` match the float64 reference head of cfg. */
function matchesReference(r, cfg, names = ['A', 'O']) {
  const ref = referenceHead(cfg);
  for (const name of names) {
    const c = compare(r[name], ref[name]);
    assert.ok(c.ok, `${name}: ${c.worst}`);
  }
}

const T = LIMITS.maxTokens, W = LIMITS.maxWidth, H = LIMITS.maxHeads;
const rows = (n, cols, v = 0.5) => Array.from({ length: n }, () => new Array(cols).fill(v));

// A small direct-form head: 3 queries, 4 keys, dk = 2, dv = 3.
const Q3 = [[1, 0], [0, 1], [0.5, -0.5]];
const K4 = [[1, 1], [0, 2], [-1, 0], [0.25, 0.5]];
const V4 = [[1, 0, 2], [0, 1, -1], [3, 0, 0], [0, 0, 1]];
const DIRECT = { Q: Q3, K: K4, V: V4 };
// A small projection-form head: X is 3 × 2, dk = 2, dv = 1.
const PROJ = { X: [[1, 0], [0, 1], [1, 1]], Wq: [[1, 0], [0, 1]], Wk: [[0.5, 0], [0, 0.5]], Wv: [[1], [-1]] };

// ---------------------------------------------------------------- forward(): the argument object

test('forward() refuses a non-object, an unknown input and a non-boolean causal, naming the inputs', () => {
  refuses(() => attn.forward(), 'forward needs an object: { X, Wq, Wk, Wv } or { Q, K, V }');
  refuses(() => attn.forward(null), 'forward needs an object: { X, Wq, Wk, Wv } or { Q, K, V }');
  refuses(() => attn.forward(5), 'forward needs an object: { X, Wq, Wk, Wv } or { Q, K, V }');
  refuses(() => attn.forward('Q'), 'forward needs an object: { X, Wq, Wk, Wv } or { Q, K, V }');
  refuses(() => attn.forward({ ...DIRECT, Wo: [[1]] }), 'forward got an unknown input "Wo": the inputs are X, Xkv, Wq, Wk, Wv, Q, K, V, mask, causal, scale');
  for (const causal of ['yes', 1, null, 0]) {
    const shown = causal === 'yes' ? '"yes"' : String(causal);
    refuses(() => attn.forward({ ...DIRECT, causal }), `causal is ${shown}: it must be true or false`);
  }
  // causal left out, false and true are all taken
  assert.equal(attn.forward({ ...DIRECT }).causal, false);
  assert.equal(attn.forward({ ...DIRECT, causal: false }).causal, false);
  const c = attn.forward({ ...DIRECT, causal: true });
  assert.equal(c.causal, true);
  matchesReference(c, { ...DIRECT, causal: true });
});

test('forward() names exactly the inputs that are missing, with "is" for one and "are" for several', () => {
  const need = 'forward needs X, Wq, Wk, Wv (projection form) or Q, K, V (direct form): ';
  refuses(() => attn.forward({}), `${need}X, Wq, Wk, Wv are missing`);
  // the direct form, from any one of Q, K, V
  refuses(() => attn.forward({ Q: Q3 }), `${need}K, V are missing`);
  refuses(() => attn.forward({ K: K4 }), `${need}Q, V are missing`);
  refuses(() => attn.forward({ V: V4 }), `${need}Q, K are missing`);
  refuses(() => attn.forward({ K: K4, V: V4 }), `${need}Q is missing`);
  refuses(() => attn.forward({ Q: Q3, V: V4 }), `${need}K is missing`);
  refuses(() => attn.forward({ Q: Q3, K: K4 }), `${need}V is missing`);
  refuses(() => attn.forward({ Q: Q3, K: null, V: V4 }), `${need}K is missing`);
  // the projection form
  for (const name of ['X', 'Wq', 'Wk', 'Wv']) {
    refuses(() => attn.forward({ ...PROJ, [name]: undefined }), `${need}${name} is missing`);
  }
  refuses(() => attn.forward({ X: PROJ.X, Wq: PROJ.Wq }), `${need}Wk, Wv are missing`);
  refuses(() => attn.forward({ Wv: PROJ.Wv, mask: [[true]] }), `${need}X, Wq, Wk are missing`);
});

test('forward() refuses both forms at once, naming the projection inputs given with Q, K, V', () => {
  for (const name of ['X', 'Xkv', 'Wq', 'Wk', 'Wv']) {
    refuses(() => attn.forward({ ...DIRECT, [name]: PROJ.X }), `give either Q, K, V or X, Wq, Wk, Wv, not both (${name} given with Q, K, V)`);
  }
  refuses(() => attn.forward({ ...DIRECT, ...PROJ }), 'give either Q, K, V or X, Wq, Wk, Wv, not both (X, Wq, Wk, Wv given with Q, K, V)');
  refuses(() => attn.forward({ ...DIRECT, X: PROJ.X, Xkv: PROJ.X }), 'give either Q, K, V or X, Wq, Wk, Wv, not both (X, Xkv given with Q, K, V)');
  // null projection inputs beside Q, K, V are left out, not "given"
  matchesReference(attn.forward({ ...DIRECT, X: null, Xkv: undefined, Wq: null }), DIRECT);
  // and a null Xkv in the projection form is self-attention
  const self = attn.forward({ ...PROJ, Xkv: null });
  matchesReference(self, PROJ);
  assert.equal(self.m, 3);
});

// ---------------------------------------------------------------- matrices: nested arrays

test('a matrix that is not an array of rows is refused with the form a matrix takes', () => {
  const form = 'must be a matrix: an array of rows, like [[1, 0], [0, 1]], or { shape: [rows, cols], data }';
  refuses(() => attn.forward({ ...DIRECT, Q: 7 }), `Q ${form}`);
  refuses(() => attn.forward({ ...DIRECT, K: 'ab' }), `K ${form}`);
  refuses(() => attn.forward({ ...DIRECT, V: { data: [1, 2, 3] } }), `V ${form}`);
  refuses(() => attn.forward({ ...PROJ, Wq: 5 }), `Wq ${form}`);
  refuses(() => attn.forward({ ...PROJ, Wk: true }), `Wk ${form}`);
  refuses(() => attn.forward({ ...PROJ, Wv: { shape: [2, 1] } }), 'Wv.data must be an array or Float32Array of 2×1 values');
  refuses(() => attn.forward({ ...PROJ, X: { shape: [3, 2], data: [1, 2] } }), 'X.data has 2 values but shape [3, 2] needs 6');
  refuses(() => attn.forward({ ...PROJ, Xkv: [[1, 2], [3]] }), 'Xkv is ragged: row 1 has 1 value but row 0 has 2; every row needs the same length');
  refuses(() => attn.forward({ ...DIRECT, Q: [] }), 'Q is empty: it needs at least one row and one column');
  refuses(() => attn.forward({ ...DIRECT, Q: [[], []] }), 'Q is empty: its rows have no numbers; it needs at least one column');
  refuses(() => attn.forward({ ...DIRECT, Q: [1, 0] }), 'Q must be an array of rows: Q[0] is 1, not an array or a typed array such as Float32Array');
  refuses(() => attn.forward({ ...PROJ, X: ['10', '01'] }), 'X must be an array of rows: X[0] is "10", not an array or a typed array such as Float32Array');
  refuses(() => attn.forward({ ...DIRECT, K: [[1, 1], null, [1, 0], [0, 0]] }), 'K[1] is null, not a row of numbers: every row of K must be an array');
  refuses(() => attn.forward({ ...DIRECT, K: [[1, 1], [0, 2], [1, 0], 'ab'] }), 'K[3] is "ab", not a row of numbers: every row of K must be an array');
});

test('a ragged matrix is refused naming the row, its length and the first row\'s ("1 value", "3 values")', () => {
  refuses(() => attn.forward({ ...DIRECT, Q: [[1, 0], [0], [1, 1]] }), 'Q is ragged: row 1 has 1 value but row 0 has 2; every row needs the same length');
  refuses(() => attn.forward({ ...DIRECT, K: [[1, 1], [0, 2], [-1, 0], [1, 2, 3]] }), 'K is ragged: row 3 has 3 values but row 0 has 2; every row needs the same length');
  refuses(() => attn.forward({ ...DIRECT, V: [[1], [2, 3], [4], [5]] }), 'V is ragged: row 1 has 2 values but row 0 has 1; every row needs the same length');
  refuses(() => attn.forward({ ...DIRECT, V: [[1, 2], [3, 4], [5, 6], []] }), 'V is ragged: row 3 has 0 values but row 0 has 2; every row needs the same length');
});

test('an array with a "shape" property is still read as rows', () => {
  const Q = Q3.map((r) => r.slice());
  Object.assign(Q, { shape: [1, 6] });
  matchesReference(attn.forward({ ...DIRECT, Q }), DIRECT);
});

test('rows may be arrays or typed arrays of any kind, mixed; a DataView is not a row', () => {
  const Q = [Float32Array.from(Q3[0]), Float64Array.from(Q3[1]), Q3[2]];
  const K = [Int8Array.of(1, 1), K4[1], Float64Array.from(K4[2]), Float32Array.from(K4[3])];
  matchesReference(attn.forward({ Q, K, V: V4 }), DIRECT);
  refuses(() => attn.forward({ ...DIRECT, V: [new DataView(new ArrayBuffer(12)), ...V4.slice(1)] }),
    'V must be an array of rows: V[0] is a DataView, not an array or a typed array such as Float32Array');
});

// ---------------------------------------------------------------- matrices: { shape, data }

test('{ shape, data }: the shape must be [rows, cols] of whole numbers; longer shapes show their first 4 sizes and "…"', () => {
  const Q = (shape, data = [1, 0, 0, 1, 0.5, -0.5]) => attn.forward({ ...DIRECT, Q: { shape, data } });
  const msg = (got) => `Q.shape must be [rows, cols] with whole numbers, got ${got}`;
  refuses(() => Q([]), msg('[]'));
  refuses(() => Q([6]), msg('[6]'));
  refuses(() => Q([3, 2, 1]), msg('[3, 2, 1]'));
  refuses(() => Q([3, 2, 1, 1]), msg('[3, 2, 1, 1]'));
  refuses(() => Q([3, 2, 1, 1, 1]), msg('[3, 2, 1, 1, …]'));
  refuses(() => Q([1, 3, 2, 1, 1, 1]), msg('[1, 3, 2, 1, …]'));
  refuses(() => Q([3, 2.5]), msg('[3, 2.5]'));
  refuses(() => Q([NaN, 2]), msg('[NaN, 2]'));
  refuses(() => Q(['3', 2]), msg('["3", 2]'));
  refuses(() => Q([3, null]), msg('[3, null]'));
  refuses(() => Q([[3], 2]), msg('[an array, 2]'));
  refuses(() => Q('32'), msg('"32"'));
  refuses(() => Q({ 0: 3, 1: 2, length: 2 }), msg('an object'));
  refuses(() => Q(null), msg('null'));
  refuses(() => Q(undefined), msg('undefined'));
  refuses(() => Q(Int32Array.of(3, 2)), msg('an object'));
  // [3, 2] is the shape
  matchesReference(Q([3, 2]), DIRECT);
});

test('{ shape, data }: an empty shape, missing data or the wrong number of values is refused with the count it needs', () => {
  const M = (name, shape, data) => attn.forward({ ...DIRECT, [name]: { shape, data } });
  refuses(() => M('Q', [0, 2], []), 'Q is empty (shape [0, 2]): it needs at least one row and one column');
  refuses(() => M('Q', [3, 0], []), 'Q is empty (shape [3, 0]): it needs at least one row and one column');
  refuses(() => M('K', [-1, 2], [1, 2]), 'K is empty (shape [-1, 2]): it needs at least one row and one column');
  refuses(() => M('K', [4, -2], [1, 2]), 'K is empty (shape [4, -2]): it needs at least one row and one column');
  refuses(() => M('V', [4, 3], undefined), 'V.data must be an array or Float32Array of 4×3 values');
  refuses(() => M('V', [4, 3], null), 'V.data must be an array or Float32Array of 4×3 values');
  refuses(() => M('V', [4, 3], 12), 'V.data must be an array or Float32Array of 4×3 values');
  refuses(() => M('V', [4, 3], { length: '12' }), 'V.data must be an array or Float32Array of 4×3 values');
  refuses(() => attn.forward({ ...DIRECT, V: { shape: [4, 3] } }), 'V.data must be an array or Float32Array of 4×3 values');
  refuses(() => M('V', [4, 3], new Float32Array(11)), 'V.data has 11 values but shape [4, 3] needs 12');
  refuses(() => M('V', [4, 3], new Array(13).fill(0)), 'V.data has 13 values but shape [4, 3] needs 12');
  refuses(() => M('V', [4, 1], [1]), 'V.data has 1 value but shape [4, 1] needs 4');
  refuses(() => M('V', [4, 1], []), 'V.data has 0 values but shape [4, 1] needs 4');
  // a 1 × 1 shape is the smallest
  const one = attn.forward({ Q: { shape: [1, 1], data: [2] }, K: { shape: [1, 1], data: [3] }, V: { shape: [1, 1], data: [7] } });
  assert.deepEqual([...one.A], [1]);
  assert.deepEqual([...one.O], [7]);
});

test('{ shape, data } with data in a plain array, a Float32Array or a Float64Array gives the nested form\'s result', () => {
  const cfg = { Q: [[0.5, 1, -1], [2, 0, 1]], K: [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], V: [[1, 2], [3, 4], [5, 6], [7, 8]] };
  for (const Kind of [Array, Float32Array, Float64Array]) {
    // a different head first, so nothing of cfg is left in memory from a call before
    attn.forward(DIRECT);
    const flat = (m) => ({ shape: [m.length, m[0].length], data: Kind.from(m.flat()) });
    const r = attn.forward({ Q: flat(cfg.Q), K: flat(cfg.K), V: flat(cfg.V) });
    matchesReference(r, cfg, ['S', 'A', 'O']);
    assert.deepEqual([...r.Q], cfg.Q.flat(), `${Kind.name}: Q as given`);
    assert.deepEqual([...r.V], cfg.V.flat(), `${Kind.name}: V as given`);
  }
});

// ---------------------------------------------------------------- values

test('a value that is not a number is named by row and column, in nested rows and in flat data', () => {
  const bad = (x) => { const Q = Q3.map((r) => r.slice()); Q[2][1] = x; return Q; };
  refuses(() => attn.forward({ ...DIRECT, Q: bad('1') }), 'Q[2][1] is "1", not a number: every value of Q must be a number');
  refuses(() => attn.forward({ ...DIRECT, Q: bad(true) }), 'Q[2][1] is true, not a number: every value of Q must be a number');
  refuses(() => attn.forward({ ...DIRECT, Q: bad(null) }), 'Q[2][1] is null, not a number: every value of Q must be a number');
  refuses(() => attn.forward({ ...DIRECT, Q: bad(undefined) }), 'Q[2][1] is undefined, not a number: every value of Q must be a number');
  refuses(() => attn.forward({ ...DIRECT, Q: bad(1n) }), 'Q[2][1] is 1n (a BigInt), not a number: every value of Q must be a number');
  // flat data: index 5 of a 3 × 2 matrix is [2][1]; of a 2 × 3 matrix, [1][2]
  const flat = (shape, x) => ({ shape, data: [0, 1, 0, 1, 0, x] });
  refuses(() => attn.forward({ ...DIRECT, Q: flat([3, 2], '1') }), 'Q[2][1] is "1", not a number: every value of Q must be a number');
  refuses(() => attn.forward({ ...DIRECT, Q: flat([3, 2], true) }), 'Q[2][1] is true, not a number: every value of Q must be a number');
  refuses(() => attn.forward({ ...DIRECT, Q: flat([3, 2], null) }), 'Q[2][1] is null, not a number: every value of Q must be a number');
  refuses(() => attn.forward({ Q: flat([2, 3], [1]), K: [[1, 2, 3]], V: [[1]] }), 'Q[1][2] is an array, not a number: every value of Q must be a number');
  refuses(() => attn.forward({ ...PROJ, Wv: { shape: [2, 1], data: [1, false] } }), 'Wv[1][0] is false, not a number: every value of Wv must be a number');
});

test('NaN and ±Infinity are named by row and column in every form; numbers past float32\'s range are named as such', () => {
  const cases = [
    [NaN, 'is NaN: every value of K must be a finite number'],
    [Infinity, 'is Infinity: every value of K must be a finite number'],
    [-Infinity, 'is -Infinity: every value of K must be a finite number'],
    [1e39, 'is 1e+39, past float32\'s range: every value of K must lie within about ±3.4e38'],
    [-3.5e38, 'is -3.5e+38, past float32\'s range: every value of K must lie within about ±3.4e38'],
  ];
  for (const [x, says] of cases) {
    const nested = K4.map((r) => r.slice());
    nested[2][1] = x;
    refuses(() => attn.forward({ ...DIRECT, K: nested }), `K[2][1] ${says}`);
    refuses(() => attn.forward({ ...DIRECT, K: nested.map((r) => Float64Array.from(r)) }), `K[2][1] ${says}`, `Float64Array rows: ${x}`);
    refuses(() => attn.forward({ ...DIRECT, K: { shape: [4, 2], data: nested.flat() } }), `K[2][1] ${says}`, `flat array: ${x}`);
    refuses(() => attn.forward({ ...DIRECT, K: { shape: [4, 2], data: Float64Array.from(nested.flat()) } }), `K[2][1] ${says}`, `Float64Array: ${x}`);
  }
  // a Float32Array holds 1e39 as Infinity, and says so
  refuses(() => attn.forward({ ...DIRECT, K: { shape: [4, 2], data: Float32Array.of(1, 1, 0, 2, -1, 1e39, 0, 0) } }), 'K[2][1] is Infinity: every value of K must be a finite number');
  // the largest float32 is taken: 3.4028234e38 in V, with weights that keep it finite
  const big = 3.4028234e38;
  const r = attn.forward({ Q: [[0, 0]], K: [[0, 0], [0, 0]], V: [[big], [0]] });
  assert.deepEqual([...r.A], [0.5, 0.5]);
  assert.equal(r.O[0], Math.fround(big) / 2);
  // the first bad matrix in the order X, Wq, Wk, Wv is named
  refuses(() => attn.forward({ ...PROJ, Wk: [[NaN, 0], [0, 1]], Wv: [[Infinity], [0]] }), 'Wk[0][0] is NaN: every value of Wk must be a finite number');
  refuses(() => attn.forward({ ...PROJ, X: [[1, 0], [0, 1], [1, -Infinity]], Wv: [[Infinity], [0]] }), 'X[2][1] is -Infinity: every value of X must be a finite number');
});

// ---------------------------------------------------------------- sizes

test('forward(): every size is checked against LIMITS, the limit itself taken, one past it refused with the fix', () => {
  const at = (k) => `but at most ${k} are supported`;
  const orO = `use a shorter sequence, or ask for O alone (outputs: ['O']), which takes up to ${LIMITS.maxTokensFused}`; // the long form's fix
  const x = (n, d) => rows(n, d, 0.01);
  refuses(() => attn.forward({ X: x(T + 1, 1), Wq: x(1, 1), Wk: x(1, 1), Wv: x(1, 1) }), `X has ${T + 1} rows (tokens) ${at(T)}: ${orO}`);
  refuses(() => attn.forward({ X: x(1, W + 1), Wq: x(W + 1, 1), Wk: x(W + 1, 1), Wv: x(W + 1, 1) }), `X has ${W + 1} columns (features, d) ${at(W)}: use a narrower model`);
  refuses(() => attn.forward({ X: x(1, 1), Xkv: x(T + 1, 1), Wq: x(1, 1), Wk: x(1, 1), Wv: x(1, 1) }), `Xkv has ${T + 1} rows (tokens) ${at(T)}: ${orO}`);
  refuses(() => attn.forward({ X: x(1, 1), Wq: x(1, W + 1), Wk: x(1, W + 1), Wv: x(1, 1) }), `Wq has ${W + 1} columns (dk) ${at(W)}: use a narrower head`);
  refuses(() => attn.forward({ X: x(1, 1), Wq: x(1, 1), Wk: x(1, 1), Wv: x(1, W + 1) }), `Wv has ${W + 1} columns (dv) ${at(W)}: use a narrower head`);
  refuses(() => attn.forward({ Q: x(T + 1, 1), K: x(1, 1), V: x(1, 1) }), `Q has ${T + 1} rows (queries) ${at(T)}: ${orO}`);
  refuses(() => attn.forward({ Q: x(1, 1), K: x(T + 1, 1), V: x(T + 1, 1) }), `K has ${T + 1} rows (keys) ${at(T)}: ${orO}`);
  refuses(() => attn.forward({ Q: x(1, W + 1), K: x(1, W + 1), V: x(1, 1) }), `Q has ${W + 1} columns (dk) ${at(W)}: use a narrower head`);
  refuses(() => attn.forward({ Q: x(1, 1), K: x(1, 1), V: x(1, W + 1) }), `V has ${W + 1} columns (dv) ${at(W)}: use a narrower head`);
  // at the limits, one size at a time: T queries cross-attending to T keys; a model W wide; dk = dv = W
  const long = attn.forward({ X: x(T, 1), Xkv: x(T, 1), Wq: x(1, 1), Wk: x(1, 1), Wv: [[2]] }, { outputs: ['O'] });
  assert.equal(long.O.length, T);
  assert.ok(Math.abs(long.O[T - 1] - 0.02) < 1e-6, `O[T - 1] = ${long.O[T - 1]}`);
  const wide = attn.forward({ X: x(1, W), Wq: x(W, 1), Wk: x(W, 1), Wv: x(W, 1) });
  assert.equal(wide.d, W);
  assert.ok(Math.abs(wide.O[0] - 0.01 * 0.01 * W) < 1e-6, `O[0] = ${wide.O[0]}`);
  const heads = attn.forward({ X: x(1, 1), Wq: x(1, W), Wk: x(1, W), Wv: x(1, W) });
  assert.deepEqual([heads.dk, heads.dv], [W, W]);
  assert.deepEqual([...heads.A], [1]);
});

test('forward(): shapes that do not fit name both sizes and the shape each matrix needs', () => {
  refuses(() => attn.forward({ ...PROJ, Wq: rows(3, 2) }), 'Wq has 3 rows but X has 2 columns: Wq must be [d][dk] with d = 2, the width of X');
  refuses(() => attn.forward({ ...PROJ, Wk: rows(1, 2) }), 'Wk has 1 row but X has 2 columns: Wk must be [d][dk] with d = 2, the width of X');
  refuses(() => attn.forward({ X: [[1], [2]], Wq: [[1]], Wk: [[1]], Wv: rows(2, 1) }), 'Wv has 2 rows but X has 1 column: Wv must be [d][dv] with d = 1, the width of X');
  refuses(() => attn.forward({ ...PROJ, Wk: rows(2, 1) }), 'Wk has 1 column but Wq has 2: queries and keys need the same width dk so their dot products are defined');
  refuses(() => attn.forward({ ...PROJ, Xkv: rows(4, 1) }), 'Xkv has 1 column but X has 2: Xkv must be [m][d] with the same width d = 2');
  refuses(() => attn.forward({ ...DIRECT, K: rows(4, 1) }), 'K has 1 column but Q has 2: queries and keys need the same width dk so their dot products are defined');
  refuses(() => attn.forward({ ...DIRECT, V: rows(1, 3) }), 'V has 1 row but K has 4: V needs one row per key (m = 4)');
  refuses(() => attn.forward({ ...PROJ, Wv: rows(3, 1) }), 'Wv has 3 rows but X has 2 columns: Wv must be [d][dv] with d = 2, the width of X');
  refuses(() => attn.forward({ ...PROJ, Wk: rows(2, 3) }), 'Wk has 3 columns but Wq has 2: queries and keys need the same width dk so their dot products are defined');
  refuses(() => attn.forward({ ...PROJ, Xkv: rows(4, 3) }), 'Xkv has 3 columns but X has 2: Xkv must be [m][d] with the same width d = 2');
  refuses(() => attn.forward({ ...DIRECT, K: rows(4, 3) }), 'K has 3 columns but Q has 2: queries and keys need the same width dk so their dot products are defined');
  refuses(() => attn.forward({ ...DIRECT, V: rows(3, 3) }), 'V has 3 rows but K has 4: V needs one row per key (m = 4)');
  // cross-attention: Xkv has its own number of rows
  const cross = { ...PROJ, Xkv: [[1, 2], [0, -1], [0.5, 0.5], [2, 0], [1, 1]] };
  const r = attn.forward(cross);
  assert.deepEqual([r.n, r.m, r.d, r.dk, r.dv], [3, 5, 2, 2, 1]);
  matchesReference(r, cross);
});

// ---------------------------------------------------------------- masks

const MASK_NUMBERS = 'a mask\'s numbers are added to the scores, so they must be finite within float32\'s range (about ±3.4e38) or -Infinity (which removes the key)';

test('a boolean mask removes the keys marked false; a numeric one is added to the scores, -Infinity removing a key', () => {
  const bools = [[true, false, true, true], [false, false, false, true], [true, true, true, true]];
  const rb = attn.forward({ ...DIRECT, mask: bools });
  matchesReference(rb, { ...DIRECT, mask: bools });
  assert.deepEqual([rb.A[1], rb.A[4], rb.A[5], rb.A[6], rb.A[7]], [0, 0, 0, 0, 1]);
  const nums = [[0, -Infinity, 0.5, 0], [-1, 2, 0, -Infinity], [0, 0, 0, 0]];
  const rn = attn.forward({ ...DIRECT, mask: nums });
  matchesReference(rn, { ...DIRECT, mask: nums });
  assert.equal(rn.A[1], 0);
  // the same masks as { shape, data }, in a plain array, a Float32Array and a Float64Array
  for (const data of [nums.flat(), Float32Array.from(nums.flat()), Float64Array.from(nums.flat())]) {
    attn.forward(DIRECT); // no mask left in memory from the call before
    assert.deepEqual([...attn.forward({ ...DIRECT, mask: { shape: [3, 4], data } }).A], [...rn.A]);
  }
  assert.deepEqual([...attn.forward({ ...DIRECT, mask: { shape: [3, 4], data: bools.flat() } }).A], [...rb.A]);
  // null and undefined are no mask
  const none = attn.forward(DIRECT);
  assert.deepEqual([...attn.forward({ ...DIRECT, mask: null }).A], [...none.A]);
  assert.deepEqual([...attn.forward({ ...DIRECT, mask: undefined }).A], [...none.A]);
  // the float32 extremes: the largest float32 is a score like any other, -1e39 is -Infinity in float32
  const big = attn.forward({ ...DIRECT, mask: [[0, 0, 0, 0], [3.4028234e38, 0, 0, 0], [0, 0, 0, -1e39]] });
  assert.deepEqual([...big.A.subarray(4, 8)], [1, 0, 0, 0]);
  assert.equal(big.A[11], 0);
});

test('a mask of the wrong shape is refused with the scores\' shape it needs', () => {
  refuses(() => attn.forward({ ...DIRECT, mask: rows(3, 3, true) }), 'mask is 3 × 3 but the scores are 3 × 4 (queries × keys): give one entry per query and key');
  refuses(() => attn.forward({ ...DIRECT, mask: rows(2, 4, true) }), 'mask is 2 × 4 but the scores are 3 × 4 (queries × keys): give one entry per query and key');
  refuses(() => attn.forward({ ...DIRECT, mask: { shape: [4, 3], data: new Float32Array(12) } }), 'mask is 4 × 3 but the scores are 3 × 4 (queries × keys): give one entry per query and key');
  refuses(() => attn.forward({ ...DIRECT, mask: [[true, true, true, true], [true], [true, true, true, true]] }), 'mask is ragged: row 1 has 1 value but row 0 has 4; every row needs the same length');
  refuses(() => attn.forward({ ...DIRECT, mask: true }), 'mask must be a matrix: an array of rows, like [[1, 0], [0, 1]], or { shape: [rows, cols], data }');
});

test('a mask holds booleans or numbers, not both and nothing else; the entry is named by row and column', () => {
  const m = (x, at = [0, 0], fill = true) => { const k = rows(3, 4, fill); k[at[0]][at[1]] = x; return k; };
  refuses(() => attn.forward({ ...DIRECT, mask: m('yes') }), 'mask[0][0] is "yes": a mask holds booleans (true = may attend) or numbers added to the scores');
  refuses(() => attn.forward({ ...DIRECT, mask: m(null) }), 'mask[0][0] is null: a mask holds booleans (true = may attend) or numbers added to the scores');
  refuses(() => attn.forward({ ...DIRECT, mask: { shape: [3, 4], data: ['1', ...new Array(11).fill(0)] } }), 'mask[0][0] is "1": a mask holds booleans (true = may attend) or numbers added to the scores');
  refuses(() => attn.forward({ ...DIRECT, mask: m(0, [0, 1]) }), 'mask mixes booleans and numbers (mask[0][1] is 0): use all booleans (true = may attend) or all numbers');
  refuses(() => attn.forward({ ...DIRECT, mask: m(false, [2, 3], 0) }), 'mask mixes booleans and numbers (mask[2][3] is false): use all booleans (true = may attend) or all numbers');
  refuses(() => attn.forward({ ...DIRECT, mask: m('0', [1, 2], 0) }), 'mask mixes booleans and numbers (mask[1][2] is "0"): use all booleans (true = may attend) or all numbers');
  const flat = new Array(12).fill(0);
  flat[11] = true;
  refuses(() => attn.forward({ ...DIRECT, mask: { shape: [3, 4], data: flat } }), 'mask mixes booleans and numbers (mask[2][3] is true): use all booleans (true = may attend) or all numbers');
});

test('NaN, +Infinity and numbers past float32\'s range in a mask are named by row and column, in every form', () => {
  for (const [x, shown] of [[NaN, 'NaN'], [Infinity, 'Infinity'], [1e39, '1e+39'], [3.5e38, '3.5e+38']]) {
    const nested = rows(3, 4, 0);
    nested[1][3] = x;
    refuses(() => attn.forward({ ...DIRECT, mask: nested }), `mask[1][3] is ${shown}: ${MASK_NUMBERS}`);
    refuses(() => attn.forward({ ...DIRECT, mask: nested.map((r) => Float64Array.from(r)) }), `mask[1][3] is ${shown}: ${MASK_NUMBERS}`, `Float64Array rows: ${shown}`);
    refuses(() => attn.forward({ ...DIRECT, mask: { shape: [3, 4], data: nested.flat() } }), `mask[1][3] is ${shown}: ${MASK_NUMBERS}`, `flat array: ${shown}`);
    refuses(() => attn.forward({ ...DIRECT, mask: { shape: [3, 4], data: Float64Array.from(nested.flat()) } }), `mask[1][3] is ${shown}: ${MASK_NUMBERS}`, `Float64Array: ${shown}`);
    const f32 = Float32Array.from(nested.flat());
    refuses(() => attn.forward({ ...DIRECT, mask: { shape: [3, 4], data: f32 } }), `mask[1][3] is ${Number.isNaN(x) ? 'NaN' : 'Infinity'}: ${MASK_NUMBERS}`, `Float32Array: ${shown}`);
  }
  // the first bad entry is named: [2][1] comes after [1][3]
  const two = new Float32Array(12);
  two[9] = NaN;
  two[7] = Infinity;
  refuses(() => attn.forward({ ...DIRECT, mask: { shape: [3, 4], data: two } }), `mask[1][3] is Infinity: ${MASK_NUMBERS}`);
  two[7] = 0;
  refuses(() => attn.forward({ ...DIRECT, mask: { shape: [3, 4], data: two } }), `mask[2][1] is NaN: ${MASK_NUMBERS}`);
});

// ---------------------------------------------------------------- scale

test('scale: null or left out is 1/√dk; anything but a positive float32 number is refused with that default named', () => {
  assert.equal(attn.forward(DIRECT).scale, 1 / Math.sqrt(2));
  assert.equal(attn.forward({ ...DIRECT, scale: null }).scale, 1 / Math.sqrt(2));
  assert.equal(attn.forward({ ...DIRECT, scale: undefined }).scale, 1 / Math.sqrt(2));
  const says = (shown, dflt) => `scale is ${shown}: it must be a positive finite number within float32's range (about 1.2e-38 to 3.4e38), or null for the default 1/√dk = ${dflt}`;
  for (const [scale, shown] of [[0, '0'], [-0.5, '-0.5'], [NaN, 'NaN'], [Infinity, 'Infinity'], [-Infinity, '-Infinity'], ['0.5', '"0.5"'], [1e39, '1e+39'], [3.5e38, '3.5e+38'], [1e-46, '1e-46'], [true, 'true']]) {
    refuses(() => attn.forward({ ...DIRECT, scale }), says(shown, '0.7071'));
  }
  // dk = 4: the default 1/√4
  const four = { Q: rows(2, 4), K: rows(3, 4), V: rows(3, 1) };
  refuses(() => attn.forward({ ...four, scale: 0 }), says('0', '0.5000'));
  // the float32 extremes are taken: the smallest denormal and the largest float32
  const tiny = attn.forward({ ...DIRECT, scale: 1e-45 });
  assert.equal(tiny.scale, 1e-45);
  assert.ok([...tiny.A].every((a) => a === 0.25));
  const huge = attn.forward({ Q: [[0, 0]], K: [[0, 0], [0, 0]], V: [[1], [2]], scale: 3.4028234e38 });
  assert.deepEqual([...huge.A], [0.5, 0.5]);
  // a given scale is used
  const two = attn.forward({ ...DIRECT, scale: 2 });
  assert.equal(two.scale, 2);
  matchesReference(two, { ...DIRECT, scale: 2 });
});

// ---------------------------------------------------------------- forward()'s options

test('forward()\'s options: null or left out is every array; anything else but { outputs, into } is refused', () => {
  for (const opts of [undefined, null, {}, { outputs: null }, { into: null }, { outputs: undefined, into: undefined }]) {
    const r = attn.forward(DIRECT, opts);
    for (const name of ['Q', 'K', 'V', 'S', 'M', 'A', 'O']) assert.ok(r[name] instanceof Float32Array, `${JSON.stringify(opts)}: ${name}`);
    matchesReference(r, DIRECT);
  }
  refuses(() => attn.forward(DIRECT, 5), 'forward\'s second argument is 5: it must be an object like { outputs: [\'O\'] } or { into: previousResult }');
  refuses(() => attn.forward(DIRECT, 'O'), 'forward\'s second argument is "O": it must be an object like { outputs: [\'O\'] } or { into: previousResult }');
  refuses(() => attn.forward(DIRECT, true), 'forward\'s second argument is true: it must be an object like { outputs: [\'O\'] } or { into: previousResult }');
  refuses(() => attn.forward(DIRECT, { fused: true }), 'forward got an unknown option "fused": the options are outputs and into');
  const names = 'outputs must be an array of names from X, Xkv, Wq, Wk, Wv, Q, K, V, S, M, A, O, or left out for all of them';
  for (const outputs of ['O', 5, { 0: 'O', length: 1 }, ['O', 'Z'], [''], ['o'], ['A', 'O', null]]) {
    refuses(() => attn.forward(DIRECT, { outputs }), names, `outputs ${JSON.stringify(outputs)}`);
  }
  const copy = { ...attn.forward(DIRECT) };
  refuses(() => attn.forward(DIRECT, { into: copy }), 'into is an object: it must be a result an earlier forward() returned, whose arrays this call may overwrite');
  refuses(() => attn.forward(DIRECT, { into: 5 }), 'into is 5: it must be a result an earlier forward() returned, whose arrays this call may overwrite');
});

test('outputs naming O alone (once or more, with or without into) runs the fused form; any other array the long form', () => {
  const full = attn.forward(DIRECT);
  const fusedRan = () => attn.workspace().buffers.S === 0 && attn.workspace().buffers.A === 0;
  const only = (outputs, into = null) => {
    attn.forward(PROJ); // the long form's layout first
    const r = attn.forward(DIRECT, { outputs, into });
    return { r, fused: fusedRan() };
  };
  for (const outputs of [['O'], ['O', 'O']]) {
    const { r, fused } = only(outputs);
    assert.ok(fused, `${outputs}: fused`);
    assert.deepEqual([...r.O], [...attn.forward(DIRECT, { outputs: ['O'] }).O]);
    for (let k = 0; k < full.O.length; k++) assert.ok(Math.abs(r.O[k] - full.O[k]) <= 1e-6, `${outputs}: O[${k}] is the long form's to rounding`);
    assert.equal(r.A, null);
  }
  const into = attn.forward(DIRECT, { outputs: ['O'] });
  const again = only(['O'], into);
  assert.ok(again.fused, '[\'O\'] into a result: fused');
  assert.equal(again.r, into);
  for (let k = 0; k < full.O.length; k++) assert.ok(Math.abs(into.O[k] - full.O[k]) <= 1e-6, `into: O[${k}]`);
  for (const outputs of [['O', 'A'], ['A', 'O'], ['A', 'S'], ['Q']]) {
    const { r, fused } = only(outputs);
    assert.ok(!fused, `${outputs}: the long form`);
    for (const name of ['Q', 'S', 'A', 'O']) {
      if (outputs.includes(name)) assert.deepEqual([...r[name]], [...full[name]], `${outputs}: ${name}`);
      else assert.equal(r[name], null, `${outputs}: no ${name}`);
    }
  }
  // nothing asked for: nothing returned
  const none = attn.forward(DIRECT, { outputs: [] });
  assert.deepEqual(['Q', 'K', 'V', 'S', 'M', 'A', 'O'].map((k) => none[k]), [null, null, null, null, null, null, null]);
});

test('outputs is read once: the names checked are the names returned', () => {
  let reads = 0;
  const outputs = ['A', 'O'];
  Object.defineProperty(outputs, 0, { get: () => (reads++ === 0 ? 'A' : 'S'), enumerable: true });
  const r = attn.forward(DIRECT, { outputs });
  assert.equal(reads, 1);
  assert.ok(r.A instanceof Float32Array);
  assert.equal(r.S, null);
});

// ---------------------------------------------------------------- one softmax row

const ROW_VALUES = 'every value must be a finite number within float32\'s range (about ±3.4e38)';

test('softmax rows: anything but 1..512 numbers is refused, naming the row and the entry', () => {
  for (const [x, shown] of [['abc', '"abc"'], [5, '5'], [null, 'null'], [undefined, 'undefined'], [{}, 'an object'], [{ length: '2' }, 'an object'], [true, 'true']]) {
    refuses(() => attn.softmaxRow(x), `scores must be an array of numbers, got ${shown}`);
  }
  refuses(() => attn.softmaxStats('ab'), 'weights must be an array of numbers, got "ab"');
  refuses(() => attn.softmaxRow([]), 'scores is empty: give at least one number');
  refuses(() => attn.softmaxRow(new Float32Array(0)), 'scores is empty: give at least one number');
  refuses(() => attn.softmaxStats([]), 'weights is empty: give at least one number');
  refuses(() => attn.softmaxRow(new Array(T + 1).fill(0)), `scores has ${T + 1} values but at most ${T} are supported: use a shorter row`);
  assert.equal(attn.softmaxRow(new Array(T).fill(0))[T - 1], 1 / T);
  assert.deepEqual([...attn.softmaxRow([3])], [1]);
  assert.deepEqual([...attn.softmaxRow({ length: 2, 0: 0, 1: 0 })], [0.5, 0.5]);
  for (const [x, shown] of [[NaN, 'NaN'], [Infinity, 'Infinity'], [1e39, '1e+39'], [-1e39, '-1e+39'], ['1', '"1"'], [null, 'null'], [undefined, 'undefined']]) {
    refuses(() => attn.softmaxRow([0, x]), `scores[1] is ${shown}: ${ROW_VALUES} or -Infinity (a removed key)`);
    refuses(() => attn.softmaxStats([x, 1]), `weights[0] is ${shown}: ${ROW_VALUES}`);
  }
  // -Infinity removes a key from scores, and is not a weight
  assert.deepEqual([...attn.softmaxRow([0, -Infinity])], [1, 0]);
  assert.deepEqual([...attn.softmaxSteps([-Infinity, 2, 2]).weights], [0, 0.5, 0.5]);
  refuses(() => attn.softmaxStats([-Infinity, 1]), `weights[0] is -Infinity: ${ROW_VALUES}`);
  refuses(() => attn.softmaxBackward([0.5, 0.5], [1, -Infinity]), `grad[1] is -Infinity: ${ROW_VALUES}`);
  refuses(() => attn.softmaxBackward([0.5, 0.5], [1, 2, 3]), 'grad must hold one number per weight (2), got 3');
  refuses(() => attn.softmaxBackward([0.5, 0.5], null), 'grad must hold one number per weight (2), got null');
  refuses(() => attn.softmaxBackward([0.5, 0.5], 'ab'), 'grad must be an array of numbers, got "ab"');
  // the largest float32 is a score like any other
  assert.deepEqual([...attn.softmaxRow([3.4028234e38, 0])], [1, 0]);
});

test('softmaxStats(): weights lie in [0, 1] and add up to 1 within 0.001 (or are all 0), both ends taken', () => {
  assert.deepEqual(attn.softmaxStats([1, 0]), { maxWeight: 1, entropy: 0, gradNorm: 0 });
  assert.deepEqual(attn.softmaxStats([0, 1]), { maxWeight: 1, entropy: 0, gradNorm: 0 });
  assert.deepEqual(attn.softmaxStats([0, 0]), { maxWeight: 0, entropy: 0, gradNorm: 0 });
  const lie = 'softmax weights lie between 0 and 1; give the softmax of a row (attn.softmaxRow(scores)), not its scores';
  refuses(() => attn.softmaxStats([1.0000001, 0]), `weights[0] is 1.0000001: ${lie}`);
  refuses(() => attn.softmaxStats([1, -1e-7]), `weights[1] is -1e-7: ${lie}`);
  const sum = (s) => `the weights add up to ${s}, not 1: a row of softmax weights must add up to 1 (within 0.001), or be all 0 when every key is removed`;
  refuses(() => attn.softmaxStats([0.5, 0.5011]), sum('1.00110'));
  refuses(() => attn.softmaxStats([0.5, 0.4989]), sum('0.998900'));
  assert.equal(attn.softmaxStats([0.5, 0.5009]).maxWeight, Math.fround(0.5009));
  assert.equal(attn.softmaxStats([0.5, 0.4991]).maxWeight, 0.5);
});

// ---------------------------------------------------------------- multiHead()

// A 4-D tensor of the given shape with seeded values in [-1, 1).
function t4(shape, seed = 1) {
  let s = seed;
  const data = Float32Array.from({ length: shape.reduce((p, q) => p * q, 1) }, () => ((s = (s * 16807) % 2147483647) / 2147483647) * 2 - 1);
  return { shape, data };
}
// Head (b, h) of a 4-D tensor as rows.
const head4 = (t, b, h) => {
  const [, H, L, D] = t.shape;
  return Array.from({ length: L }, (_, i) => Array.from(t.data.subarray(((b * H + h) * L + i) * D, ((b * H + h) * L + i + 1) * D)));
};
// Query head h of batch b, through forward()'s fused form (O alone), which multiHead runs on each head: its expected output, head by head.
function expectedHeads({ Q, K, V, mask = null, causal = false, scale = null }, maskOf = () => null) {
  const [B, QH, L] = Q.shape, KH = K.shape[1], DV = V.shape[3];
  const out = new Float32Array(B * QH * L * DV);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < QH; h++) {
      const kv = Math.floor(h / (QH / KH));
      const r = attn.forward({ Q: head4(Q, b, h), K: head4(K, b, kv), V: head4(V, b, kv), mask: mask && maskOf(b, h), causal, scale }, { outputs: ['O'] });
      out.set(r.O, (b * QH + h) * L * DV);
    }
  }
  return out;
}
const MH = { Q: t4([2, 4, 3, 2], 1), K: t4([2, 2, 5, 2], 2), V: t4([2, 2, 5, 3], 3) };

test('multiHead() refuses anything but an object of known inputs, naming them', () => {
  const needs = 'multiHead needs an object { Q, K, V } of tensors { shape, data } (with optional qHeads, kvHeads, mask, causal, scale), got';
  for (const [x, shown] of [[42, '42'], [null, 'null'], [undefined, 'undefined'], [[MH.Q, MH.K, MH.V], 'an array'], ['Q', '"Q"'], [() => MH, 'a function']]) {
    refuses(() => attn.multiHead(x), `${needs} ${shown}`);
  }
  refuses(() => attn.multiHead({ ...MH, Wo: 1 }), 'multiHead got an unknown input "Wo": the inputs are Q, K, V, qHeads, kvHeads, mask, causal, scale');
  const tensor = 'it must be a tensor { shape: [...], data } with data in row-major order';
  refuses(() => attn.multiHead({ K: MH.K, V: MH.V }), `Q is undefined: ${tensor}`);
  refuses(() => attn.multiHead({ ...MH, Q: null }), `Q is null: ${tensor}`);
  refuses(() => attn.multiHead({ ...MH, Q: 5 }), `Q is 5: ${tensor}`);
  refuses(() => attn.multiHead({ ...MH, K: [[1, 2]] }), `K is an array: ${tensor}`);
  refuses(() => attn.multiHead({ ...MH, K: { shape: [2, 2, 5, 2] } }), `K is an object: ${tensor}`);
  refuses(() => attn.multiHead({ ...MH, V: { data: MH.V.data } }), `V is an object: ${tensor}`);
  refuses(() => attn.multiHead({ ...MH, mask: [[true]] }), `mask is an array: ${tensor}`);
  refuses(() => attn.multiHead({ ...MH, mask: true }), `mask is true: ${tensor}`);
  // a null or left-out mask is none
  const plain = expectedHeads(MH);
  assert.deepEqual([...attn.multiHead({ ...MH, mask: null }).data], [...plain]);
  assert.deepEqual([...attn.multiHead({ ...MH, mask: undefined }).data], [...plain]);
});

test('multiHead(): shapes of 1 to 4 whole sizes >= 1, data an array or typed array; rank 3 or 4 for Q, K and V alike', () => {
  const sizes = 'it must be an array of 1 to 4 sizes, like [batch, heads, len, size]';
  refuses(() => attn.multiHead({ ...MH, Q: { shape: 5, data: [] } }), `Q.shape is 5: ${sizes}`);
  refuses(() => attn.multiHead({ ...MH, Q: { shape: [], data: [] } }), `Q.shape is an array: ${sizes}`);
  refuses(() => attn.multiHead({ ...MH, K: { shape: [1, 1, 1, 1, 1], data: [1] } }), `K.shape is an array: ${sizes}`);
  refuses(() => attn.multiHead({ ...MH, V: { shape: Int32Array.of(2, 2, 5, 3), data: MH.V.data } }), `V.shape is an object: ${sizes}`);
  refuses(() => attn.multiHead({ ...MH, mask: { shape: [1, 1, 1, 3, 5], data: [] } }), `mask.shape is an array: ${sizes}`);
  const whole = 'every size must be a whole number >= 1';
  for (const [x, shown] of [[0, '0'], [-1, '-1'], [2.5, '2.5'], ['5', '"5"'], [NaN, 'NaN'], [2 ** 53, '9007199254740992'], [null, 'null']]) {
    refuses(() => attn.multiHead({ ...MH, K: { shape: [2, 2, x, 2], data: MH.K.data } }), `K.shape[2] is ${shown}: ${whole}`);
  }
  refuses(() => attn.multiHead({ ...MH, mask: { shape: [0, 5], data: [] } }), `mask.shape[0] is 0: ${whole}`);
  const data = 'it must be an array or a typed array (such as Float32Array) of numbers';
  refuses(() => attn.multiHead({ ...MH, Q: { shape: [2, 4, 3, 2], data: 5 } }), `Q.data is 5: ${data}`);
  refuses(() => attn.multiHead({ ...MH, Q: { shape: [2, 4, 3, 2], data: null } }), `Q.data is null: ${data}`);
  refuses(() => attn.multiHead({ ...MH, Q: { shape: [2, 4, 3, 2], data: 'abcd' } }), `Q.data is "abcd": ${data}`);
  refuses(() => attn.multiHead({ ...MH, Q: { shape: [2, 4, 3, 2], data: { length: 24 } } }), `Q.data is an object: ${data}`);
  refuses(() => attn.multiHead({ ...MH, Q: { shape: [2, 4, 3, 2], data: new DataView(new ArrayBuffer(96)) } }), `Q.data is a DataView: ${data}`);
  const ranks = 'multiHead takes 4-D [batch, heads, len, size] or 3-D [batch, len, heads·size] tensors';
  refuses(() => attn.multiHead({ Q: { shape: [6], data: [] }, K: { shape: [6], data: [] }, V: { shape: [6], data: [] } }), `Q has rank 1: ${ranks}`);
  refuses(() => attn.multiHead({ Q: { shape: [3, 2], data: [] }, K: { shape: [5, 2], data: [] }, V: { shape: [5, 2], data: [] } }), `Q has rank 2: ${ranks}`);
  refuses(() => attn.multiHead({ ...MH, K: { shape: [2, 5, 4], data: [] } }), 'Q, K and V must have the same rank (got 4, 3, 4)');
  refuses(() => attn.multiHead({ ...MH, V: { shape: [2, 5, 6], data: [] } }), 'Q, K and V must have the same rank (got 4, 4, 3)');
  refuses(() => attn.multiHead({ ...MH, V: { shape: [2, 2, 5, 3, 1], data: [] } }), `V.shape is an array: ${sizes}`);
  // the right number of values, and the rank-1 mask the broadcast rule cannot place
  refuses(() => attn.multiHead({ ...MH, Q: { shape: [2, 4, 3, 2], data: new Float32Array(47) } }), 'Q.data has 47 values but shape [2, 4, 3, 2] needs 48');
  refuses(() => attn.multiHead({ ...MH, K: { shape: [2, 2, 5, 2], data: new Array(41).fill(0) } }), 'K.data has 41 values but shape [2, 2, 5, 2] needs 40');
  refuses(() => attn.multiHead({ Q: t4([1, 1, 1, 1]), K: t4([1, 1, 1, 1]), V: { shape: [1, 1, 1, 2], data: [1] } }), 'V.data has 1 value but shape [1, 1, 1, 2] needs 2');
  refuses(() => attn.multiHead({ ...MH, mask: { shape: [5], data: new Array(5).fill(true) } }), 'mask has rank 1: it must be 2-D [qLen, kvLen], 3-D [heads, qLen, kvLen] or 4-D');
  refuses(() => attn.multiHead({ ...MH, mask: { shape: [3, 5], data: new Array(14).fill(true) } }), 'mask.data has 14 values but shape [3, 5] needs 15');
  refuses(() => attn.multiHead({ ...MH, mask: { shape: [1, 1], data: [] } }), 'mask.data has 0 values but shape [1, 1] needs 1');
  // 1 is a size
  const one = attn.multiHead({ Q: { shape: [1, 1, 1, 1], data: [2] }, K: { shape: [1, 1, 1, 1], data: [3] }, V: { shape: [1, 1, 1, 1], data: [-4] } });
  assert.deepEqual(one, { shape: [1, 1, 1, 1], data: Float32Array.of(-4) });
});

test('multiHead(): head counts, 3-D splits and causal are checked with the fix named', () => {
  const t3 = (shape) => ({ shape, data: new Float32Array(shape.reduce((p, q) => p * q, 1)) });
  const three = { Q: t3([1, 2, 8]), K: t3([1, 3, 4]), V: t3([1, 3, 6]) };
  const split = '3-D tensors need qHeads and kvHeads (whole numbers >= 1) to split the hidden axis into heads';
  refuses(() => attn.multiHead(three), `${split}: qHeads and kvHeads are missing`);
  refuses(() => attn.multiHead({ ...three, qHeads: null, kvHeads: undefined }), `${split}: qHeads and kvHeads are missing`);
  refuses(() => attn.multiHead({ ...three, kvHeads: 0 }), `${split}: qHeads is missing`, 'a missing count is named before a bad one');
  refuses(() => attn.multiHead({ ...three, kvHeads: 2 }), `${split}: qHeads is missing`);
  refuses(() => attn.multiHead({ ...three, qHeads: 4 }), `${split}: kvHeads is missing`);
  refuses(() => attn.multiHead({ ...three, qHeads: 4, kvHeads: null }), `${split}: kvHeads is missing`);
  for (const [h, shown] of [[0, '0'], [-1, '-1'], [1.5, '1.5'], ['2', '"2"'], [NaN, 'NaN'], [true, 'true'], [2 ** 53, '9007199254740992']]) {
    refuses(() => attn.multiHead({ ...three, qHeads: h, kvHeads: 2 }), `qHeads is ${shown}: it must be a whole number of heads >= 1`);
    refuses(() => attn.multiHead({ ...three, qHeads: 4, kvHeads: h }), `kvHeads is ${shown}: it must be a whole number of heads >= 1`);
    refuses(() => attn.multiHead({ ...MH, qHeads: h }), `qHeads is ${shown}: it must be a whole number of heads >= 1`, `4-D, qHeads ${shown}`);
  }
  refuses(() => attn.multiHead({ ...three, qHeads: 3, kvHeads: 2 }), 'Q\'s hidden size does not divide by its head count (Q.shape[2] / qHeads = 2.6666666666666665): the hidden sizes must be whole multiples of qHeads and kvHeads');
  refuses(() => attn.multiHead({ ...three, qHeads: 4, kvHeads: 3 }), 'K\'s hidden size does not divide by its head count (K.shape[2] / kvHeads = 1.3333333333333333): the hidden sizes must be whole multiples of qHeads and kvHeads');
  refuses(() => attn.multiHead({ ...three, K: t3([1, 3, 8]), qHeads: 4, kvHeads: 4 }), 'V\'s hidden size does not divide by its head count (V.shape[2] / kvHeads = 1.5): the hidden sizes must be whole multiples of qHeads and kvHeads');
  // 4-D: head counts, when given, agree with the shapes
  refuses(() => attn.multiHead({ ...MH, qHeads: 2 }), 'qHeads is 2 but Q has 4 heads (Q.shape[1]): leave qHeads out for 4-D tensors, or make them agree');
  refuses(() => attn.multiHead({ ...MH, kvHeads: 4 }), 'kvHeads is 4 but K has 2 heads (K.shape[1]): leave kvHeads out for 4-D tensors, or make them agree');
  refuses(() => attn.multiHead({ Q: t4([1, 1, 2, 2]), K: t4([1, 1, 2, 2]), V: t4([1, 1, 2, 2]), kvHeads: 2 }), 'kvHeads is 2 but K has 1 head (K.shape[1]): leave kvHeads out for 4-D tensors, or make them agree');
  // Q, K and V must fit together: head sizes, K's and V's heads and lengths, the batch, the groups
  refuses(() => attn.multiHead({ ...MH, K: t4([2, 2, 5, 3]) }), 'K\'s head size is 3 but Q\'s is 2: they must match');
  refuses(() => attn.multiHead({ ...MH, V: t4([2, 1, 5, 3]) }), 'V is [2,1,5,3] but K is [2,2,5,2]: V needs the same batch, heads and length as K');
  refuses(() => attn.multiHead({ ...MH, V: t4([2, 2, 4, 3]) }), 'V is [2,2,4,3] but K is [2,2,5,2]: V needs the same batch, heads and length as K');
  refuses(() => attn.multiHead({ ...MH, K: t4([1, 2, 5, 2]), V: t4([1, 2, 5, 3]) }), 'Q, K and V need the same batch size (got 2, 1, 1)');
  refuses(() => attn.multiHead({ ...MH, K: t4([2, 3, 5, 2]), V: t4([2, 3, 5, 3]) }), 'qHeads (4) must be a multiple of kvHeads (3) for grouped-query attention');
  refuses(() => attn.multiHead({ ...three, qHeads: 4, kvHeads: 1 }), 'K\'s head size is 4 but Q\'s is 2: they must match');
  refuses(() => attn.multiHead({ ...three, V: t3([1, 2, 6]), qHeads: 4, kvHeads: 2 }), 'V has length 2 but K has 3: V needs one row per key');
  refuses(() => attn.multiHead({ ...three, V: t3([2, 3, 6]), qHeads: 4, kvHeads: 2 }), 'Q, K and V need the same batch size (got 1, 1, 2)');
  refuses(() => attn.multiHead({ Q: t3([1, 2, 6]), K: t3([1, 3, 4]), V: t3([1, 3, 4]), qHeads: 3, kvHeads: 2 }), 'qHeads (3) must be a multiple of kvHeads (2) for grouped-query attention');
  const expected = [...expectedHeads(MH)];
  assert.deepEqual([...attn.multiHead({ ...MH, qHeads: 4, kvHeads: 2 }).data], expected);
  assert.deepEqual([...attn.multiHead({ ...MH, qHeads: null, kvHeads: null }).data], expected);
  for (const [c, shown] of [[1, '1'], ['true', '"true"'], [null, 'null']]) {
    refuses(() => attn.multiHead({ ...MH, causal: c }), `causal is ${shown}: it must be true or false`);
  }
  assert.deepEqual([...attn.multiHead({ ...MH, causal: true }).data], [...expectedHeads({ ...MH, causal: true })]);
  assert.deepEqual([...attn.multiHead({ ...MH, causal: false }).data], expected);
});

test('multiHead(): every size is checked against LIMITS before any data is read; the limits themselves are taken', () => {
  const e = (shape) => ({ shape, data: [] }); // no data: the sizes are refused first
  const ok = e([1, 1, 2, 2]);
  const at = (k) => `but at most ${k} are supported`;
  const F = LIMITS.maxTokensFused; // every head runs the fused form
  refuses(() => attn.multiHead({ Q: e([1, 1, F + 1, 2]), K: ok, V: ok }), `Q has ${F + 1} queries (len) ${at(F)}: use a shorter sequence`);
  refuses(() => attn.multiHead({ Q: ok, K: e([1, 1, F + 1, 2]), V: ok }), `K has ${F + 1} keys (len) ${at(F)}: use a shorter sequence`);
  refuses(() => attn.multiHead({ Q: ok, K: ok, V: e([1, 1, F + 1, 2]) }), `V has ${F + 1} keys (len) ${at(F)}: use a shorter sequence`);
  refuses(() => attn.multiHead({ Q: e([1, 1, 2, W + 1]), K: ok, V: ok }), `Q has ${W + 1} values per head (head size) ${at(W)}: use a narrower head`);
  refuses(() => attn.multiHead({ Q: ok, K: e([1, 1, 2, W + 1]), V: ok }), `K has ${W + 1} values per head (head size) ${at(W)}: use a narrower head`);
  refuses(() => attn.multiHead({ Q: ok, K: ok, V: e([1, 1, 2, W + 1]) }), `V has ${W + 1} values per head (head size) ${at(W)}: use a narrower head`);
  // heads in all: batch × heads, each tensor's own heads times Q's batch
  refuses(() => attn.multiHead({ Q: e([5, 13, 2, 2]), K: e([5, 1, 2, 2]), V: e([5, 1, 2, 2]) }), `Q has 65 heads in all (batch × heads) ${at(H)}: split the batch`);
  refuses(() => attn.multiHead({ Q: e([5, 1, 2, 2]), K: e([5, 13, 2, 2]), V: e([5, 1, 2, 2]) }), `K has 65 heads in all (batch × heads) ${at(H)}: split the batch`);
  refuses(() => attn.multiHead({ Q: e([5, 1, 2, 2]), K: e([5, 1, 2, 2]), V: e([5, 13, 2, 2]) }), `V has 65 heads in all (batch × heads) ${at(H)}: split the batch`);
  // 3-D: the head size is the hidden size over the head count
  refuses(() => attn.multiHead({ Q: e([1, 2, 2 * (W + 1)]), K: e([1, 2, 2]), V: e([1, 2, 2]), qHeads: 2, kvHeads: 1 }), `Q has ${W + 1} values per head (head size) ${at(W)}: use a narrower head`);
  refuses(() => attn.multiHead({ Q: e([1, 2, 65]), K: e([1, 2, 65]), V: e([1, 2, 65]), qHeads: 65, kvHeads: 65 }), `Q has 65 heads in all (batch × heads) ${at(H)}: split the batch`);
  // at the limits: 512 queries and keys; heads 256 wide; 64 heads in all (4 × 16)
  const long = { Q: t4([1, 1, T, 1], 4), K: t4([1, 1, T, 1], 5), V: t4([1, 1, T, 1], 6) };
  assert.deepEqual([...attn.multiHead(long).data], [...expectedHeads(long)]);
  const wide = { Q: t4([1, 1, 2, W], 4), K: t4([1, 1, 2, W], 5), V: t4([1, 1, 2, W], 6) };
  assert.deepEqual([...attn.multiHead(wide).data], [...expectedHeads(wide)]);
  const many = { Q: t4([4, 16, 2, 2], 7), K: t4([4, 16, 3, 2], 8), V: t4([4, 16, 3, 1], 9) };
  assert.deepEqual([...attn.multiHead(many).data], [...expectedHeads(many)]);
});

test('multiHead(): values and masks are checked entry by entry, named by their index in data', () => {
  const withV = (x, k = 1) => { const data = Array.from(MH.V.data); data[k] = x; return { ...MH, V: { shape: MH.V.shape, data } }; };
  refuses(() => attn.multiHead(withV('1')), 'V.data[1] is "1", not a number: every value of V must be a number');
  refuses(() => attn.multiHead(withV(true, 0)), 'V.data[0] is true, not a number: every value of V must be a number');
  refuses(() => attn.multiHead(withV(NaN)), 'V.data[1] is NaN: every value of V must be a finite number');
  refuses(() => attn.multiHead(withV(Infinity, 59)), 'V.data[59] is Infinity: every value of V must be a finite number');
  refuses(() => attn.multiHead(withV(-Infinity)), 'V.data[1] is -Infinity: every value of V must be a finite number');
  refuses(() => attn.multiHead(withV(1e39)), 'V.data[1] is 1e+39, past float32\'s range: every value of V must lie within about ±3.4e38');
  refuses(() => attn.multiHead(withV(-3.5e38)), 'V.data[1] is -3.5e+38, past float32\'s range: every value of V must lie within about ±3.4e38');
  const m = (data) => ({ ...MH, mask: { shape: [3, 5], data } });
  const bools = () => new Array(15).fill(true);
  refuses(() => attn.multiHead(m(['yes', ...bools().slice(1)])), 'mask.data[0] is "yes": a mask holds booleans (true = may attend) or numbers added to the scores');
  refuses(() => attn.multiHead(m([null, ...bools().slice(1)])), 'mask.data[0] is null: a mask holds booleans (true = may attend) or numbers added to the scores');
  refuses(() => attn.multiHead(m([true, true, 0, ...bools().slice(3)])), 'mask mixes booleans and numbers (mask.data[2] is 0): use all booleans (true = may attend) or all numbers');
  refuses(() => attn.multiHead(m([0, ...new Array(13).fill(0), false])), 'mask mixes booleans and numbers (mask.data[14] is false): use all booleans (true = may attend) or all numbers');
  for (const [x, shown] of [[NaN, 'NaN'], [Infinity, 'Infinity'], [1e39, '1e+39']]) {
    refuses(() => attn.multiHead(m([0, x, ...new Array(13).fill(0)])), `mask.data[1] is ${shown}: ${MASK_NUMBERS}`);
  }
  // -Infinity, and -1e39 (-Infinity in float32), remove a key; the largest float32 is a score
  const numeric = [0, -Infinity, 0, 0, 3.4028234e38, ...new Array(5).fill(0), -1e39, 0, 0, 0, 0];
  const r = attn.multiHead(m(numeric));
  const rows3 = [numeric.slice(0, 5), numeric.slice(5, 10), numeric.slice(10, 15)];
  assert.deepEqual([...r.data], [...expectedHeads({ ...MH, mask: true }, () => rows3)]);
});

test('multiHead(): a mask broadcasts to [batch, heads, len, kvLen] when each axis is 1 or matches', () => {
  // MH: batch 2, 4 query heads, 3 queries, 5 keys
  const bool = (shape, seed) => { let s = seed; return { shape, data: Array.from({ length: shape.reduce((p, q) => p * q, 1) }, () => (s = (s * 48271) % 2147483647) % 3 !== 0) }; };
  const pick = (mask, b, h) => {
    const sh = [...new Array(4 - mask.shape.length).fill(1), ...mask.shape];
    const [B, Hh, L, S] = sh;
    const bb = B === 1 ? 0 : b, hh = Hh === 1 ? 0 : h;
    return Array.from({ length: 3 }, (_, i) => Array.from({ length: 5 }, (_, j) => mask.data[((bb * Hh + hh) * L + (L === 1 ? 0 : i)) * S + (S === 1 ? 0 : j)]));
  };
  for (const shape of [[3, 5], [1, 5], [3, 1], [1, 1], [4, 3, 5], [1, 3, 5], [2, 4, 3, 5], [2, 1, 1, 5], [1, 4, 1, 1]]) {
    const mask = bool(shape, shape.length * 7 + shape[0]);
    assert.deepEqual([...attn.multiHead({ ...MH, mask }).data], [...expectedHeads({ ...MH, mask: true }, (b, h) => pick(mask, b, h))], `mask [${shape}]`);
  }
  const scores = 'each axis must be 1 or match';
  for (const [shape, shown] of [[[3, 4], '3, 4'], [[2, 5], '2, 5'], [[2, 3, 5], '2, 3, 5'], [[3, 4, 3, 5], '3, 4, 3, 5'], [[2, 2, 3, 5], '2, 2, 3, 5'], [[5, 3], '5, 3']]) {
    const n = shape.reduce((p, q) => p * q, 1);
    refuses(() => attn.multiHead({ ...MH, mask: { shape, data: new Array(n).fill(true) } }), `mask shape [${shown}] does not broadcast to the scores [2, 4, 3, 5]: ${scores}`);
  }
});

test('multiHead(): scale is checked as forward() checks it, with the head size\'s default', () => {
  const says = (shown, dflt) => `scale is ${shown}: it must be a positive finite number within float32's range (about 1.2e-38 to 3.4e38), or null for the default 1/√dk = ${dflt}`;
  refuses(() => attn.multiHead({ ...MH, scale: 0 }), says('0', '0.7071'));
  refuses(() => attn.multiHead({ ...MH, scale: -1 }), says('-1', '0.7071'));
  refuses(() => attn.multiHead({ ...MH, scale: '1' }), says('"1"', '0.7071'));
  const three = { Q: { shape: [1, 2, 8], data: new Float32Array(16) }, K: { shape: [1, 2, 8], data: new Float32Array(16) }, V: { shape: [1, 2, 2], data: new Float32Array(4) }, qHeads: 2, kvHeads: 2 };
  refuses(() => attn.multiHead({ ...three, scale: 0 }), says('0', '0.5000'));
  assert.deepEqual([...attn.multiHead({ ...MH, scale: 3 }).data], [...expectedHeads({ ...MH, scale: 3 })]);
  assert.deepEqual([...attn.multiHead({ ...MH, scale: null }).data], [...expectedHeads(MH)]);
});

test('multiHead() checks types and shapes before any value: causal and a rank-1 mask are refused before a NaN in V', () => {
  const nanV = { shape: MH.V.shape, data: new Float32Array(MH.V.data.length).fill(NaN) };
  refuses(() => attn.multiHead({ ...MH, V: nanV }), 'V.data[0] is NaN: every value of V must be a finite number');
  refuses(() => attn.multiHead({ ...MH, V: nanV, causal: 1 }), 'causal is 1: it must be true or false');
  refuses(() => attn.multiHead({ ...MH, V: nanV, mask: { shape: [5], data: new Array(5).fill(true) } }), 'mask has rank 1: it must be 2-D [qLen, kvLen], 3-D [heads, qLen, kvLen] or 4-D');
  refuses(() => attn.multiHead({ ...MH, mask: { shape: [5], data: [NaN, 0, 0, 0, 0] } }), 'mask has rank 1: it must be 2-D [qLen, kvLen], 3-D [heads, qLen, kvLen] or 4-D');
  refuses(() => attn.multiHead({ ...MH, V: nanV, scale: 0 }), 'scale is 0: it must be a positive finite number within float32\'s range (about 1.2e-38 to 3.4e38), or null for the default 1/√dk = 0.7071');
});

test('multiHead() reads each value once: the value checked is the value used', () => {
  let reads = 0;
  const data = Array.from(MH.Q.data);
  const first = data[0];
  Object.defineProperty(data, 0, { get: () => (reads++ === 0 ? first : 'changed'), enumerable: true });
  const r = attn.multiHead({ ...MH, Q: { shape: MH.Q.shape, data } });
  assert.equal(reads, 1);
  assert.deepEqual([...r.data], [...expectedHeads(MH)]);
});

// ---------------------------------------------------------------- training: seeds and settings

// make() must throw `message`; a trainer it made anyway is disposed, so a failure here does not
// hold one of the 8 Wasm slots the other tests need.
function refusesTrainer(make, message) {
  let made = null;
  try {
    refuses(() => { made = make(); }, message);
  } finally {
    made?.dispose();
  }
}

test('seeds are whole numbers from 0 to 2³² − 1, both ends taken, wherever a seed is given', () => {
  assert.equal(checkSeed(0), 0);
  assert.equal(checkSeed(4294967295), 4294967295);
  const says = (shown) => `seed is ${shown}: it must be a whole number from 0 to 4294967295`;
  for (const [seed, shown] of [[-1, '-1'], [4294967296, '4294967296'], [1.5, '1.5'], [NaN, 'NaN'], [Infinity, 'Infinity'], ['5', '"5"'], [null, 'null'], [5n, '5n (a BigInt)']]) {
    refuses(() => checkSeed(seed), says(shown));
  }
  refusesTrainer(() => attn.createTrainer({ seed: -1 }), says('-1'));
  const t = attn.createTrainer({ seed: 4294967295 });
  try {
    assert.equal(t.seed, 4294967295);
    refuses(() => t.reroll(4294967296), says('4294967296'));
    refuses(() => t.example({ seed: 0.5 }), says('0.5'));
    assert.equal(t.seed, 4294967295, 'a refused reroll keeps the seed');
    t.reroll(0);
    assert.equal(t.seed, 0);
  } finally {
    t.dispose();
  }
});

test('Trainer.set(): lr, optimizer and batch each checked, both ends taken; a refused call changes nothing', () => {
  const t = attn.createTrainer({ seed: 3 });
  try {
    assert.deepEqual([t.lr, t.optimizer, t.batch], [0.01, 'adam', 16]);
    const lr = (shown) => `lr is ${shown}: the learning rate must be a positive finite number, like 0.01`;
    for (const [x, shown] of [[0, '0'], [-0.01, '-0.01'], [NaN, 'NaN'], [Infinity, 'Infinity'], [1e-46, '1e-46'], [1e39, '1e+39'], ['0.1', '"0.1"'], [null, 'null']]) {
      refuses(() => t.set({ lr: x }), lr(shown));
    }
    for (const [x, shown] of [['rmsprop', '"rmsprop"'], ['Adam', '"Adam"'], [null, 'null'], [1, '1']]) {
      refuses(() => t.set({ optimizer: x }), `optimizer is ${shown}: it must be "adam" or "sgd"`);
    }
    for (const [x, shown] of [[0, '0'], [257, '257'], [1.5, '1.5'], ['16', '"16"'], [NaN, 'NaN'], [null, 'null']]) {
      refuses(() => t.set({ batch: x }), `batch is ${shown}: it must be a whole number of sequences from 1 to 256`);
    }
    refuses(() => t.set({ momentum: 0.9 }), 'set got an unknown option "momentum": the options are lr, optimizer, batch');
    refuses(() => t.set({ lr: 0.5, batch: 0 }), 'batch is 0: it must be a whole number of sequences from 1 to 256');
    assert.deepEqual([t.lr, t.optimizer, t.batch], [0.01, 'adam', 16], 'nothing changed');
    // the ends: the smallest float32 above 0, the largest float32; batch 1 and 256
    t.set({ lr: 1e-45, batch: 1 });
    assert.deepEqual([t.lr, t.optimizer, t.batch], [1e-45, 'adam', 1]);
    t.set({ lr: 3.4028234e38, optimizer: 'sgd', batch: 256 });
    assert.deepEqual([t.lr, t.optimizer, t.batch], [3.4028234e38, 'sgd', 256]);
    t.set();
    t.set({});
    assert.deepEqual([t.lr, t.optimizer, t.batch], [3.4028234e38, 'sgd', 256], 'set() keeps every setting');
    t.set({ optimizer: 'adam' });
    assert.deepEqual([t.lr, t.optimizer, t.batch], [3.4028234e38, 'adam', 256]);
  } finally {
    t.dispose();
  }
});

// The core refuses settings only if it and set()'s checks disagree (c/train.c train_set checks
// the same ranges). To reach that error, a trainer is made over the real core with ae_train_set
// answering a status: the constructor must say which, and give its Wasm slot back.
test('settings the core refuses are named by its status, and the new trainer\'s slot is given back', () => {
  const refusing = (status) => ({ ...attn.exports, ae_train_set: () => status });
  refusesTrainer(() => new Trainer(refusing(19), { seed: 1 }, null), 'the trainer refused the settings (the learning rate is not a positive finite number)');
  refusesTrainer(() => new Trainer(refusing(17), { seed: 1 }, null), 'the trainer refused the settings (dk, dv or batch is out of range)');
  refusesTrainer(() => new Trainer(refusing(99), { seed: 1 }, null), 'the trainer refused the settings (status 99)');
  // every slot is free again: all 8 can be taken
  const all = [];
  try {
    for (let k = 0; k < 8; k++) all.push(attn.createTrainer({ seed: k }));
  } finally {
    for (const t of all) t.dispose();
  }
  assert.equal(all.length, 8);
});
