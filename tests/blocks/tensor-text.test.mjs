// Tensors pasted as PyTorch and NumPy print them (web/blocks/tensor-text.js), read into the config
// format and run. The printouts in tests/tensor-text/*.txt are real: written by torch 1.13 and
// NumPy 1.24 (tests/tensor-text/make-printouts.py), with the exact values behind them (and, for
// two of them, torch's own A and O) in expected.json.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fromTensorText, looksLikeTensorText, TensorTextError } from '../../web/blocks/tensor-text.js';
import { parseConfig, forwardArgs, ConfigError } from '../../web/blocks/config.js';
import { loadAttention } from '../../web/core/attention.js';

const DIR = new URL('../tensor-text/', import.meta.url);
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
  refuses('Q = [[1., 0.], [2.]]', /row 2 has 1 number but row 1 has 2: every row needs the same length\./);
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
  assert.throws(() => parseConfig('Q = [[1, 0]]\nK = [[1]]\nV = [[1]]'), (e) => e instanceof ConfigError && /"K" has 1 column but must have 2/.test(e.message));
});

// ----------------------------------------------------------------------------- every rule
// (written for the mutants of web/blocks/tensor-text.js that no test above noticed; make mutate-js)

test('what counts as pasted tensors, one rule at a time', () => {
  const cases = [
    ['import torch\nQ = torch.tensor( [[1.]])', true], // a printout anywhere in the text
    ['import torch\nQ = torch.tensor([[1.]])', true],
    ['import torch\nQ = torch.tensor(q)', false],
    ['[[1., 0.]]', true], ['[ [1]]', true], ['[1, 2]', false], ['{"Q": [[1]]}', false],
    ['Parameter containing:', true], ['tensor(q)', true], ['torch.Tensor(q)', true], ['numpy.array(q)', true],
    ['print(Q)', true], ['Q = 1', true], ['Q: x', true], ['a == b', false], ['j', false],
    ['Wq', true], ['w_k', true], ['q', true], ['Z', false], ['Query', false],
    ['>>>\nQ = [[1.]]', true], ['>>>Q = [[1.]]', true], ['  >>> Q', true], ['... Q = 1', true], ['# a note\n\n>>> V', true], ['', false], ['\n  \n# only a comment', false],
  ];
  for (const [text, want] of cases) assert.equal(looksLikeTensorText(text), want, JSON.stringify(text));
});

test('messages quote the line, trimmed and cut at 40 characters, and show what was expected', () => {
  refuses('   Q = [[1., x]]', /^Line 1 \(Q = \[\[1\., x\]\]\): expected a number, “\[” or “\]” where it says “x\]\]”\.$/);
  const long = 'Q = [[1., 2., 3., 4., 5., 6., 7., 8., 9., 10., oops]]';
  refuses(long, new RegExp(`^Line 1 \\(${long.slice(0, 40).replace(/[.[\]()]/g, '\\$&')}…\\): expected a number, “\\[” or “\\]” where it says “oops\\]\\]”`));
  refuses('Q = [[1., abcdefghijklmnopq]]', /where it says “abcdefghijkl”\./);
  const forty = 'Q = [[1., 2., 3., 4., 5., 6., x, 8., 9]]';
  assert.equal(forty.length, 40);
  refuses(forty, /^Line 1 \(Q = \[\[1\., 2\., 3\., 4\., 5\., 6\., x, 8\., 9\]\]\): /);
  refuses('Q = [[1., a\nb]]', /where it says “a”\./);
  refuses('Q = [[1., 0.]]\nK = Q\n\nV = [[2., 0.], x]', /^Line 4 /);
  const q = 'tensor([[1., 0.]])\n';
  refuses(q + q, /or named ones: Q = tensor\(\[\[1\., 0\.\], \[0\., 1\.\]\]\), then K = \.\.\. and V = \.\.\. on their own lines\.$/);
  refuses('is_causal=True', /^Found no tensors; expected printed tensors, like Q = tensor\(\[\[1\., 0\.\], \[0\., 1\.\]\]\)/);
});

test('REPL prompts: >>> and ... at the start of a line are skipped, nowhere else; “...,” is a shortened printout', () => {
  const c = read('  >>> print( Wq )\ntensor([[1.]])\n>>> print(X)\n[[2.]]\n>>> Wk = [[3.],\n...       ]\nWv = [[4.]]\n>>>');
  assert.deepEqual(c, { Wq: [[1]], X: [[2]], Wk: [[3]], Wv: [[4]], causal: false });
  refuses('Q = [[1., >>> 2.]]', /expected a number, “\[” or “\]” where it says “>>> 2\.\]\]”/);
  refuses('Q = tensor([[1., 2.],\n        ...,\n        [3., 4.]])', /^Line 2 \(\.\.\.,\): the printout is shortened with “\.\.\.”/);
  refuses('Q = tensor([[1., 2., ...]])', /shortened/);
  refuses('Q = [[1., ... , 2.]]', /shortened/);
  refuses('>>> Q', /^Line 1 \(>>> Q\): “Q” is not followed by its printout\.$/);
  refuses('Q', /“Q” is not followed by its printout/);
});

test('settings: is_causal and causal take True or False (or true, false); scale a number or None', () => {
  const base = 'Q = [[1.]]\nK = Q\nV = Q\n';
  assert.equal(read(base + 'is_causal=True').causal, true);
  assert.equal(read(base + 'causal: true').causal, true);
  assert.equal(read(base + 'causal = False').causal, false);
  assert.equal(read(base + 'is_causal=false').causal, false);
  assert.equal('scale' in read(base), false);
  for (const [text, want] of [['0.5', 0.5], ['+2', 2], ['12.5', 12.5], ['.25', 0.25], ['1e-1', 0.1], ['1e2', 100], ['1e10', 1e10], ['2.5E+1', 25], ['None', null]]) assert.equal(read(base + 'scale = ' + text).scale, want, text);
  refuses(base + 'scale = big', /^Line 4 \(scale = big\): expected a number or None after scale = where it says “big”\.$/);
  refuses(base + 'causal = yes', /expected True or False after causal = where it says “yes”/);
  refuses(base + 'not_causal = True', /“not_causal” is not a tensor the explorer takes/);
  refuses(base + 'causality = True', /“causality” is not a tensor the explorer takes/);
});

test('values: Parameter containing:, constructors as typed, copies by name, and what is not a tensor', () => {
  const c = read('X = [[1., 2.]]\nWq = Parameter containing:\ntensor([[1.], [2.]], requires_grad=True)\nWk = Wq.clone().detach()\nWv = Wq.detach()');
  assert.deepEqual(c.Wq, [[1], [2]]);
  assert.deepEqual(c.Wk, [[1], [2]]);
  c.Wk[0][0] = 9;
  assert.equal(c.Wq[0][0], 1, 'a copy by name is a copy');
  for (const ctor of ['tensor', 'torch.tensor', 'torch.Tensor', 'array', 'np.array', 'numpy.array']) {
    assert.deepEqual(read(`Q = ${ctor}([[1.]])\nK = Q\nV = Q`).Q, [[1]], ctor);
  }
  refuses('Q = [[1.]]\nK = Q.T', /expected a printed tensor: tensor\(\[\[\.\.\.\]\]\), array\(\[\[\.\.\.\]\]\) or a list \[\[\.\.\.\]\]/);
  refuses('Q = (1, 2)', /expected a printed tensor/);
  refuses('Q = 3.0', /expected a printed tensor/);
  refuses('K = Qx', /“Qx” is not a tensor the explorer takes/);
  refuses('Q = tensor(5.)', /expected “\[” where it says “5\.\)”/);
});

test('what may follow the numbers of a printout: each keyword, a trailing comma, and nothing else', () => {
  const one = (tail) => read(`Q = tensor([[1.]]${tail})\nK = Q\nV = Q`).Q;
  for (const tail of [',', ', requires_grad=False', ", device='cuda:0'", ', device="cpu"', ', device=cuda:0', ', dtype=torch.int64', ', dtype=float32',
    ', grad_fn=<AddmmBackward0>', ', dtype = torch.float32', ', dtype=torch.float64, requires_grad=True,']) assert.deepEqual(one(tail), [[1]], tail);
  refuses('Q = tensor([[1.]], 5)', /expected a keyword like requires_grad=True or dtype=torch\.float32 where it says “5\)”/);
  refuses('Q = tensor([[1.]], requires_grad=yes)', /expected True or False where it says “yes\)”/);
  refuses('Q = tensor([[1.]], grad_fn=Mm)', /expected grad_fn=<\.\.\.> where it says “Mm\)”/);
  refuses("Q = tensor([[1.]], device=')", /expected a device like 'cpu' where it says/);
  refuses('Q = tensor([[1.]], dtype=)', /expected a dtype like torch\.float32 where it says “\)”/);
  for (const t of ['torch.bool', 'torch.complex128', "'<U5'", '"float32"', 'object']) refuses(`Q = array([[1.]], dtype=${t})`, /the explorer takes real numbers/);
});

test('numbers as Python prints them, separated by commas or spaces; anything else in a list is refused', () => {
  assert.deepEqual(read('Q = [[1e5, -1.5E-3, .5, +2, 5., -0., .25]]\nK = Q\nV = Q').Q, [[1e5, -1.5e-3, 0.5, 2, 5, -0, 0.25]]);
  refuses('Q = [[, 1.]]', /where it says “, 1\.\]\]”/);
  assert.deepEqual(read('Q = [[1 2]\n [3 4]]\nK = Q\nV = Q').Q, [[1, 2], [3, 4]]);
  assert.deepEqual(read('Q = [[1., 2.,], [3., 4.],]\nK = Q\nV = Q').Q, [[1, 2], [3, 4]], 'trailing commas, as Python allows');
  refuses('Q = [[1., inf]]', /row 1, column 2 is inf: every entry/);
  refuses('Q = [[+inf]]', /row 1, column 1 is inf:/);
  refuses('Q = [[-nan]]', /row 1, column 1 is nan:/);
  refuses('Q = [[1.2.3]]', /expected a number, “\[” or “\]” where it says “1\.2\.3\]\]”/);
  refuses('Q = [[1x]]', /where it says “1x\]\]”/);
  refuses('Q = [[1,, 2]]', /where it says “, 2\]\]”/);
  refuses('Q = [[True]]', /True\/False/);
});

test('shapes: empty, one number, leading dimensions of one dropped, ragged rows, a list where a number goes', () => {
  refuses('Q = [[]]', /the tensor is empty; expected a matrix/);
  refuses('Q = tensor([])', /the tensor is empty/);
  refuses('Q = tensor([5.])', /the tensor is one-dimensional \(1 number\); expected a matrix, one row per token \(or per feature for a weight\), like \[\[1\., 0\.\], \[0\., 1\.\]\]\./);
  assert.deepEqual(read('Q = [[[[1., 2.], [3., 4.]]]]\nK = Q\nV = Q').Q, [[1, 2], [3, 4]]);
  refuses('Q = [[[1.], [2.]], [[3.], [4.]]]', /the tensor is 2 × 2 × 1;/);
  refuses('Q = [[1., 2.], 3.]', /row 2 is a single number, not a row like row 1\./);
  refuses('Q = [[1., 2.], [3., 4., 5.]]', /row 2 has 3 numbers but row 1 has 2/);
  refuses('Q = [[1., [2.]]]', /row 1, column 2 is a list; expected a matrix of numbers\./);
});

test('weights pasted the nn.Linear way round are caught for Wk and Wv too, and only when their transpose would fit', () => {
  const X = 'X = [[1., 2., 3.]]\n';
  const W = (rows, cols) => '[' + Array.from({ length: rows }, () => '[' + Array(cols).fill('1.').join(', ') + ']').join(', ') + ']';
  refuses(X + `Wq = ${W(3, 2)}\nWk = ${W(2, 3)}\nWv = ${W(3, 1)}`, /^Wk is 2 × 3 but X has 3 columns: Wk must be \[d\]\[dk\], one row per column of X \(Q = X·Wq\)\. .*paste Wk\.T \(layer\.weight\.T\)\.$/);
  refuses(X + `Wq = ${W(3, 2)}\nWk = ${W(3, 2)}\nWv = ${W(1, 3)}`, /^Wv is 1 × 3 but X has 3 columns: Wv must be \[d\]\[dv\]/);
  // neither way round fits: parseConfig says what is wrong
  assert.throws(() => parseConfig(X + `Wq = ${W(2, 2)}\nWk = ${W(3, 2)}\nWv = ${W(3, 2)}`), /"Wq" has 2 rows but must have 3 \(one row per column of X\)/);
});
