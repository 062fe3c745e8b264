import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { parseConfig, forwardArgs, STEPS } from '../../web/blocks/config.js';
import { PRESETS, syntheticConfig } from '../../web/blocks/presets.js';
import { fmt } from '../../web/blocks/format.js';
import { explainCell, narration, followSentence, displayed, matrixInfo, cellLabel, sourceCopies, forgetResult } from '../../web/blocks/explain.js';

const attn = await loadAttention();
function viewOf(cfg, step = null) {
  const config = parseConfig(cfg);
  return { config, r: attn.forward(forwardArgs(config)), raw: attn.forward(forwardArgs(config, 1)), step };
}
const rows = (a, cols) => Array.from({ length: a.length / cols }, (_, i) => Array.from(a.slice(i * cols, i * cols + cols), fmt));

test("the worked-example preset shows the lesson's weights and outputs to 3 decimals", () => {
  const { r } = viewOf(PRESETS['worked-example'].config);
  assert.deepEqual(rows(r.A, 3), [['0.401', '0.198', '0.401'], ['0.198', '0.401', '0.401'], ['0.248', '0.248', '0.503']]);
  assert.deepEqual(rows(r.O, 2), [['1.604', '0.797'], ['1.401', '1.203'], ['1.759', '1.000']]);
});

test('the cat preset: the last “the” gives about half its attention to “cat”, and the largest component of its output is thing', () => {
  const v = viewOf(PRESETS.cat.config);
  const a = v.r.A.slice(4 * 5, 5 * 5);
  assert.ok(a[1] >= 0.45 && a[1] <= 0.6, String(a[1]));
  assert.equal(Math.max(...a), a[1]);
  const o = Array.from(v.r.O.slice(4 * 4, 5 * 4));
  assert.equal(o.indexOf(Math.max(...o)), 0, 'output dimension 1 (thing) is the largest');
  assert.equal(matrixInfo(v, 'O').colLabels[0], 'thing');
  const s = followSentence(v, 4);
  assert.match(s, /^“the” \(5\) gives 0\.5\d\d of its attention to “cat” \(2\)\./);
  assert.match(s, /Its output \(row 5 of O\) is \[0\.528, 0\.118, 0\.177, 0\.059\]; its largest component is “thing”, 0\.528\.$/);
});

test('the previous-token preset: every token after the first attends most to the one before it', () => {
  const v = viewOf(PRESETS['previous-token'].config);
  const n = v.r.n;
  for (let i = 1; i < n; i++) {
    const row = Array.from(v.r.A.slice(i * n, i * n + n));
    assert.equal(row.indexOf(Math.max(...row)), i - 1, `row ${i}`);
  }
});

test('Q[i][j] is explained as the sum of X[i][k]×Wq[k][j] terms with the core’s total', () => {
  const v = viewOf(PRESETS.cat.config);
  const e = explainCell(v, 'Q', 4, 0);
  const terms = Array.from({ length: 4 }, (_, k) => `${fmt(v.r.X[16 + k])}×${fmt(v.r.Wq[k * 4])}`).join(' + ');
  assert.ok(e.text.includes('= ' + terms + '\n= ' + fmt(v.r.Q[16])), e.text);
  assert.deepEqual(e.sources, [{ m: 'X', row: 4 }, { m: 'Wq', col: 0 }]);
  assert.equal(e.title, `Q[5][1] = ${fmt(v.r.Q[16])}`);
});

test('S[i][j] shows the dot product, the scale and the core’s scaled score; masked cells say why', () => {
  const v = viewOf(PRESETS.cat.config);
  const e = explainCell(v, 'S', 4, 1);
  assert.match(e.text, /S\[5\]\[2\] = \(q₅·k₂\) \/ √dk, with dk = 4\nq₅·k₂ = .* = 3\.000\n3\.000 \/ √4 = 3\.000 \/ 2\.000 = 3\.000 × 0\.500 = 1\.500$/);
  assert.deepEqual(e.sources.slice(0, 2), [{ m: 'Q', row: 4 }, { m: 'K', row: 1 }]);
  const masked = explainCell(v, 'S', 1, 2);
  assert.equal(masked.title, 'S[2][3] = \u2212\u221e');
  assert.match(masked.text, /“sat” \(3\) comes after “cat” \(2\): a token cannot see the future/);
  // during the "score" step S is the unscaled Q·Kᵀ
  const vs = { ...v, step: 'score' };
  assert.equal(displayed(vs, 'S')[4 * 5 + 1], v.raw.S[4 * 5 + 1]);
  assert.match(explainCell(vs, 'S', 4, 1).title, /= 3\.000$/);
});

test('A[i][j] is explained by the row softmax with the lesson’s unshifted exp terms, their sum and the core’s weight', () => {
  const v = viewOf(PRESETS['worked-example'].config);
  const e = explainCell(v, 'A', 0, 0);
  assert.match(e.text, /Σ = 2\.028 \+ 1\.000 \+ 2\.028 = 5\.056\nA\[1\]\[1\] = 2\.028 \/ 5\.056 = 0\.401\n/);
  assert.match(e.text, /subtracts the row’s largest score, 0\.707, .*= 1\.000 \/ 2\.493\. Both are the numbers above times exp\(−0\.707\) = 0\.493, so the ratio is the same, 0\.401,/);
  const c = viewOf(PRESETS.cat.config);
  assert.match(explainCell(c, 'A', 1, 3).text, /Exactly 0: .*masked to −∞/);
  assert.match(explainCell(c, 'A', 1, 0).text, /3 masked keys add exp\(−∞\) = 0/);
  assert.match(explainCell(c, 'A', 3, 0).text, /the 1 masked key adds exp\(−∞\) = 0/);
});

test('O[i][j] is the weighted sum of a V column with an A row, masked keys left out', () => {
  const v = viewOf(PRESETS['worked-example'].config);
  const e = explainCell(v, 'O', 0, 0);
  assert.match(e.text, /= 0\.401×1\.000 \+ 0\.198×0\.000 \+ 0\.401×3\.000\n= 0\.401 \+ 0\.000 \+ 1\.203\n= 1\.604$/);
  assert.deepEqual(e.sources, [{ m: 'A', row: 0 }, { m: 'V', col: 0 }]);
  const c = viewOf(PRESETS.cat.config);
  assert.match(explainCell(c, 'O', 0, 2).text, /\(the 4 masked keys have weight 0\)/);
});

test('long sums are shortened to the largest terms but keep the total', () => {
  const v = viewOf(syntheticConfig(64, 8));
  const e = explainCell(v, 'O', 63, 0);
  assert.match(e.text, /… \(56 smaller terms\)\n= /);
  assert.ok(e.text.includes(`\n= ${fmt(v.r.O[63 * 8])}`), 'the total');
  assert.doesNotMatch(e.text, /terms as printed add/, 'no claim about the sum of terms it does not print');
});

test('narration follows the lesson, one sentence per step, with this head’s numbers', () => {
  const v = viewOf(PRESETS.cat.config);
  const words = { project: /Q = X·Wq, each token’s query, what it is looking for/, score: /dot product of every query with every key/, scale: /Divide by √dk, where dk = 4 .*√4 = 2\.000, so every score is multiplied by 0\.500/, mask: /can’t see the future/, softmax: /weights A that are non-negative \(masked ones exactly 0\) and add up to 1/, mix: /weighted average of the value rows/ };
  for (const s of STEPS) assert.match(narration(v, s), words[s]);
  const we = viewOf(PRESETS['worked-example'].config);
  assert.match(narration(we, 'mask'), /mask is off/);
  assert.match(narration(viewOf({ ...PRESETS.cat.config, scale: 1 }), 'scale'), /Scaling is off.*saturates.*The lesson divides by √dk = √4 = 2\.000\./);
  assert.doesNotMatch(Object.values(words).map((re, k) => narration(v, STEPS[k])).join(' '), /√d\b|√d[^k]|positive/);
});

test('keys are what a token offers as a match (the lesson’s words), queries what it is looking for', () => {
  const v = viewOf(PRESETS.cat.config);
  assert.match(explainCell(v, 'K', 1, 0).text, /^Dimension 1 of the key of “cat” \(2\): what it offers as a match\./);
  assert.match(explainCell(v, 'Q', 4, 0).text, /^Dimension 1 of the query of “the” \(5\): what it is looking for\./);
  assert.equal(matrixInfo(v, 'K').about, 'keys: what each token offers as a match');
});

test('tokens named by numbers never read as positions: token 2, or “7” (token 2)', () => {
  const v = viewOf(PRESETS['worked-example'].config);
  assert.match(followSentence(v, 0), /^Token 1 gives 0\.401 of its attention each to itself and token 3\./);
  const seven = viewOf({ ...PRESETS['worked-example'].config, tokens: ['a', '7', 'b'] });
  assert.match(explainCell(seven, 'A', 1, 0).text, /“7” \(token 2\) gives to “a” \(1\)/);
});

test('the follow sentence: ties name every token and every component, with “each”; the range of visible tokens is never “1 to 1”', () => {
  const v = viewOf(PRESETS.cat.config);
  assert.equal(followSentence(v, 0), '“The” (1) gives 1.000 of its attention to itself. It can see only itself; the causal mask hides the 4 tokens after it. Its output (row 1 of O) is [0.000, 0.000, 0.500, 0.500]; its largest components are “small word” and “first token”, 0.500 each.');
  assert.match(followSentence(v, 1), /^“cat” \(2\) gives 0\.500 of its attention each to “The” \(1\) and itself\. It can see tokens 1 and 2, itself included; the causal mask hides the 3 tokens after it\./);
  assert.match(followSentence(v, 3), /It can see tokens 1 to 4, itself included; the causal mask hides the token after it\./);
});

test('cell labels for screen readers name the matrix, the query and key (the lesson’s words) and the weight', () => {
  const v = viewOf(PRESETS.cat.config);
  assert.equal(cellLabel(v, 'A', 4, 1, v.r.A[21]), `A, query 5 “the”, key 2 “cat”: weight ${fmt(v.r.A[21])}`);
});

test('sourceCopies: one cell, a row read across, a column down, and at most max values, saying so', () => {
  const v = viewOf(PRESETS.cat.config);
  const A = displayed(v, 'A');
  assert.deepEqual(sourceCopies(v, [{ m: 'A', row: 4, col: 1 }, { m: 'V', row: 1 }, { m: 'K', col: 0 }]), [
    { m: 'A', title: 'A[5][2]', labels: ['the → cat'], values: [A[4 * 5 + 1]] },
    { m: 'V', title: 'V row 2 (cat)', labels: ['thing', 'action', 'small word', 'first token'], values: Array.from(v.r.V.slice(4, 8)) },
    { m: 'K', title: 'K column 1 (k1)', labels: ['The', 'cat', 'sat', 'on', 'the'], values: [0, 1, 2, 3, 4].map((i) => v.r.K[i * v.r.dk]) },
  ]);
  assert.deepEqual(sourceCopies(v, [{ m: 'A', row: 4 }], 3), [
    { m: 'A', title: 'A row 5 (the), the first 3 of 5', labels: ['The', 'cat', 'sat'], values: Array.from(A.slice(20, 23)) },
  ]);
  assert.equal(sourceCopies(v, [{ m: 'A', row: 4 }], 5)[0].title, 'A row 5 (the)', 'exactly max values: nothing left out');
  assert.equal(sourceCopies(v, [{ m: 'A', row: 4 }])[0].values.length, 5, 'up to 12 by default');
});

test('a head inside a model: an X cell is the sum of the residual stream’s parts, named', () => {
  const v = viewOf(PRESETS.cat.config);
  const { n, d } = v.r;
  const embedding = Float32Array.from({ length: n * d }, (_, k) => k / 10);
  const head = Float32Array.from({ length: n * d }, (_, k) => -k / 100);
  assert.deepEqual(explainCell(v, 'X', 2, 1, { residual: [{ name: 'embedding', data: embedding }, { name: 'head 1', data: head }] }), {
    title: 'X[3][2] = 1.000',
    text: 'Dimension “action” of the residual stream at “sat” (3): what this head reads. Every earlier part of the model adds to the stream, so it is 0.900 (embedding) + (−0.090) (head 1). It feeds row 3 of Q, K and V.',
    sources: [{ m: 'Q', row: 2 }, { m: 'K', row: 2 }, { m: 'V', row: 2 }],
  });
});

test('forgetResult: a result reused with { into } is described by its new values, not what was worked out before', () => {
  const causal = parseConfig(PRESETS.cat.config);
  const open = parseConfig({ ...PRESETS.cat.config, causal: false });
  const r = attn.forward(forwardArgs(causal));
  const v = { config: causal, r, raw: null, step: null };
  assert.equal(matrixInfo(v, 'M').about, 'causal mask: −∞ above the diagonal');
  assert.equal(displayed(v, 'S')[1], -Infinity);
  attn.forward(forwardArgs(open), { into: r });
  forgetResult(r);
  const v2 = { config: open, r, raw: null, step: null };
  assert.equal(matrixInfo(v2, 'M').about, 'mask off: all 0, every token may look at every token');
  assert.equal(matrixInfo(v2, 'S').about, 'scaled scores (nothing masked)');
  assert.deepEqual(displayed(v2, 'S'), r.S);
  forgetResult(null); // nothing to forget
  forgetResult(undefined);
});
