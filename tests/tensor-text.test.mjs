// Tensors pasted as PyTorch and NumPy print them (web/tensor-text.js), read into the config
// format and run. The printouts in tests/tensor-text/*.txt are real: written by torch 1.13 and
// NumPy 1.24 (tests/tensor-text/make-printouts.py), with the exact values behind them (and, for
// two of them, torch's own A and O) in expected.json.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fromTensorText, looksLikeTensorText, TensorTextError } from '../web/tensor-text.js';
import { parseConfig, forwardArgs, ConfigError } from '../web/config.js';
import { loadAttention } from '../web/attention.js';

const DIR = new URL('./tensor-text/', import.meta.url);
const printout = (name) => readFileSync(new URL(name + '.txt', DIR), 'utf8');
const EXPECTED = JSON.parse(readFileSync(new URL('expected.json', DIR), 'utf8'));
const read = (text) => fromTensorText(text);
const refuses = (text, re) => assert.throws(() => read(text), (e) => e instanceof TensorTextError && re.test(e.message), String(re));

// Printed to 4 decimals (or 4 in the mantissa): each number within half a unit of the last digit.
function near(got, want, label, tol = (w) => 5e-5 * Math.max(1, Math.abs(w))) {
  assert.equal(got.length, want.length, `${label}: ${got.length} rows, want ${want.length}`);
  got.forEach((row, i) => {
    assert.equal(row.length, want[i].length, `${label} row ${i + 1}: ${row.length} numbers, want ${want[i].length}`);
    row.forEach((v, j) => assert.ok(Math.abs(v - want[i][j]) <= tol(want[i][j]), `${label}[${i}][${j}] = ${v}, want ${want[i][j]}`));
  });
}

let attn;
before(async () => {
  attn = await loadAttention();
});

test('the lesson lab’s Q, K and V: named, unnamed in order, as a REPL echoes them, and as lists', () => {
  const want = EXPECTED['lesson-named'];
  for (const name of ['lesson-named', 'lesson-unnamed', 'lesson-repl', 'lists']) {
    const c = read(printout(name));
    assert.deepEqual(Object.keys(c).sort(), ['K', 'Q', 'V', 'causal'], name);
    assert.deepEqual(c.Q, want.Q, name);
    assert.deepEqual(c.K, want.K, name);
    assert.deepEqual(c.V, want.V, name);
    assert.equal(c.causal, false, `${name}: causal off, as scaled_dot_product_attention's default`);
  }
});

test('text → config → forward gives torch’s own weights and outputs for the lesson (the lesson’s 0.401 0.198 0.401)', () => {
  const r = attn.forward(forwardArgs(parseConfig(printout('lesson-named'))));
  const { A, O } = EXPECTED['lesson-named'];
  near([...r.A].map((_, k) => r.A[k]).reduce((rows, v, k) => (k % 3 ? rows[rows.length - 1].push(v) : rows.push([v]), rows), []), A, 'A', () => 1e-6);
  near([[r.O[0], r.O[1]], [r.O[2], r.O[3]], [r.O[4], r.O[5]]], O, 'O', () => 1e-6);
  assert.deepEqual([...r.A.slice(0, 3)].map((v) => v.toFixed(3)), ['0.401', '0.198', '0.401']);
  assert.equal(r.causal, false);
});

test('X, Wq, Wk, Wv with requires_grad=True and dtype=torch.float64, and an is_causal=True line: torch’s A and O', () => {
  const text = printout('projection-requires-grad');
  const c = read(text);
  const want = EXPECTED['projection-requires-grad'];
  for (const k of ['X', 'Wq', 'Wk', 'Wv']) near(c[k], want[k], k);
  assert.equal(c.causal, true);
  const r = attn.forward(forwardArgs(parseConfig(text)));
  const rows = (a, cols) => Array.from({ length: a.length / cols }, (_, i) => [...a.slice(i * cols, (i + 1) * cols)]);
  // the inputs were printed to 4 decimals, so the head agrees with torch's to about 1e-3
  near(rows(r.A, 5), want.A, 'A', () => 2e-3);
  near(rows(r.O, 2), want.O, 'O', () => 2e-3);
  assert.equal(r.A[1], 0, 'causal: query 1 does not see key 2');
});

test('grad_fn tails, wrapped wide rows, scientific notation and negative zeros', () => {
  for (const name of ['grad-fn', 'wide-sci-negzero', 'scientific']) {
    const c = read(printout(name));
    for (const k of ['Q', 'K', 'V']) near(c[k], EXPECTED[name][k], `${name} ${k}`);
  }
  const sci = read(printout('scientific'));
  assert.equal(sci.Q[0][2], -2.5e6);
  assert.equal(sci.Q[1][0], 3e-8);
  const z = read(printout('wide-sci-negzero')).V;
  assert.ok(Object.is(z[0][0], -0) && Object.is(z[2][1], 0), 'negative zero read as -0');
  assert.equal(read(printout('wide-sci-negzero')).Q[0].length, 12, 'a row wrapped over two lines is one row');
});

test('a batch of one is taken as its matrix; integer and float16 tensors', () => {
  const c = read(printout('batch-int-half'));
  assert.deepEqual(c.Q, [[-0.4468, 0.452], [-0.9759, 0.7112], [-0.7582, -0.6436]]);
  assert.deepEqual(c.K, [[1, 0], [0, 1], [2, -3]]);
  assert.deepEqual(c.V, [[0.5, -1.25], [3, 0.125], [1, 2]]);
});

test('NumPy: the repr with dtype=float32, and print()’s form without commas (four unnamed: X, Wq, Wk, Wv)', () => {
  const r = read(printout('numpy-repr'));
  for (const k of ['Q', 'K', 'V']) assert.deepEqual(r[k], EXPECTED['numpy-repr'][k]);
  const p = read(printout('numpy-print'));
  assert.deepEqual(Object.keys(p).sort(), ['Wk', 'Wq', 'Wv', 'X', 'causal']);
  for (const k of ['X', 'Wq', 'Wk', 'Wv']) near(p[k], EXPECTED['numpy-print'][k], k, (w) => 1e-7 * Math.max(Math.abs(w), 1e-6));
  const cfg = parseConfig(printout('numpy-print'));
  assert.deepEqual(cfg.tokens, ['1', '2', '3', '4']);
  assert.deepEqual(cfg.features, ['f1', 'f2', 'f3', 'f4', 'f5', 'f6']);
});

test('nn.Linear weights: “Parameter containing:” is read; [out][in] is refused with the fix (paste .T), and .T is accepted', () => {
  const text = printout('linear-weight');
  assert.throws(() => read(text), /Wq is 3 × 4 but X has 4 columns: Wq must be \[d\]\[dk\].*paste Wq\.T/);
  const t = read(printout('linear-weight-t'));
  near(t.Wq, EXPECTED['linear-weight-t'].W, 'Wq');
  assert.deepEqual(t.Wq, t.Wv);
});

test('refused with what was expected: -inf, a shortened printout, booleans, a vector, a batch of two', () => {
  refuses(printout('minus-inf'), /^Line 4 \(K = tensor\(\[\[0\., -inf\],\): row 1, column 2 is -inf: every entry must be a finite number\.$/);
  refuses(printout('shortened'), /shortened with “\.\.\.”.*set_printoptions/);
  refuses(printout('bool'), /^Line 7 .*True\/False: the explorer takes numbers/);
  refuses(printout('vector'), /^Line 1 .*one-dimensional \(2 numbers\); expected a matrix/);
  refuses(printout('batch-of-two'), /the tensor is 2 × 3 × 2; expected a matrix/);
});

test('refused: the wrong number of unnamed printouts, names mixed with none, twice the same name, unknown names and lines', () => {
  const q = 'tensor([[1., 0.]])\n';
  refuses(q + q, /^Found 2 unnamed printouts; expected three \(Q, K and V, in that order\) or four \(X, Wq, Wk and Wv\)/);
  refuses(q, /^Found 1 unnamed printout;/);
  refuses('Q = ' + q + q + q, /^Line 2 .*this printout has no name, but others do/);
  refuses('Q = ' + q + 'K = ' + q + 'q = ' + q, /^Line 3 .*Q is given twice \(also on line 1\)/);
  refuses('scores = ' + q, /“scores” is not a tensor the explorer takes: name them Q, K and V, or X, Wq, Wk and Wv/);
  refuses('Q = ' + q + 'import torch\n', /^Line 2 \(import torch\): expected a printed tensor/);
  refuses('Q = tensor([[1., 0.]], names=None)', /“names=” is not part of a tensor printout/);
  refuses('Q = tensor([[1., 0.]]', /expected “\)” to close tensor\( but the text ends/);
  refuses('Q = [[1., 0.], [2.]]', /row 2 has 1 numbers but row 1 has 2/);
  refuses('Q = [[1., 0.], [2., x]]', /expected a number, “\[” or “\]” where it says “x\]\]”/);
  refuses('Q = [[1., 0.]', /the “\[” here is never closed/);
  refuses('Q = tensor([[1.]], dtype=torch.complex64)', /dtype torch\.complex64: the explorer takes real numbers/);
  refuses('Q = tensor([], size=(0, 2))', /the tensor is empty/);
  refuses('K = Q', /Q is used before it is given/);
  refuses('>>> Q\n', /“Q” is not followed by its printout/);
  refuses('is_causal=True\n', /^Found no tensors/);
  refuses('is_causal=maybe\nQ = [[1]]', /expected True or False after is_causal =/);
});

test('named forms: “:”, W_q and friends, K = Q.clone(), torch.tensor(...) as typed, >>> prompts, comments, scale=', () => {
  const text = [
    '# from the lab',
    '>>> X = torch.tensor([[1., 0.],',
    '...                   [0., 1.]])',
    'W_q: np.array([[1., 2.], [3., 4.]], dtype=float32)',
    'wk = W_q.clone()',
    '>>> print(WV)',
    'tensor([[0.5], [1.5]], device=\'cpu\')',
    'scale = 0.5',
    'causal: False',
  ].join('\n');
  const c = read(text);
  assert.deepEqual(c, { X: [[1, 0], [0, 1]], Wq: [[1, 2], [3, 4]], Wk: [[1, 2], [3, 4]], Wv: [[0.5], [1.5]], causal: false, scale: 0.5 });
  assert.notEqual(c.Wk, c.Wq, 'a clone is a copy');
  assert.equal(read('Q = [[1]]\nK = Q\nV = Q\nscale = None').scale, null);
});

test('parseConfig routes: JSON stays JSON, tensors go to the tensor reader, anything else is not valid JSON', () => {
  assert.equal(looksLikeTensorText('{"Q": [[1]]}'), false);
  assert.equal(looksLikeTensorText('j'), false);
  assert.equal(looksLikeTensorText('\n  # a comment\n>>> Q'), true);
  assert.equal(looksLikeTensorText('[[1, 2]]'), true);
  assert.equal(looksLikeTensorText('[1, 2]'), false, 'a JSON array is told it is not an object');
  assert.equal(fromTensorText('{"Q": [[1]]}'), null);
  assert.deepEqual(parseConfig('{"Q": [[1]], "K": [[1]], "V": [[1]]}').Q, [[1]]);
  assert.throws(() => parseConfig('j'), /not valid JSON/);
  // errors from the tensor reader are ConfigErrors, the page's one kind of input error
  assert.throws(() => parseConfig('Q = tensor([[1., nan]])\nK = Q\nV = Q'), (e) => e instanceof ConfigError && /is nan: every entry must be a finite number/.test(e.message));
  // and the shapes are checked as for any config
  assert.throws(() => parseConfig('Q = [[1, 0]]\nK = [[1]]\nV = [[1]]'), (e) => e instanceof ConfigError && /"K" has 1 columns but must have 2/.test(e.message));
});
