// The explanation text of web/blocks/explain.js, word for word, for small heads whose numbers are worked
// out by hand in the comments: an explicit mask with a fully masked row, a float mask, scaling set
// and off, the direct form (the lesson's worked example), one token, wide values, every step's
// captions and notes, the legend, and what training did to a weight. tests/blocks/explain.test.mjs
// checks the presets; tests/explorer/sentences.test.mjs checks every sentence against written rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { parseConfig, forwardArgs, MATRICES } from '../../web/blocks/config.js';
import { PRESETS } from '../../web/blocks/presets.js';
import { fmt } from '../../web/blocks/format.js';
import {
  explainCell, tinyWeightNote, narration, followSentence, displayed, matrixInfo, formulaLine, legendInfo, fullyMaskedRows,
  sourceCopies, labeler, axisLabel, weightStory, forgetResult, STEP_MATRICES,
} from '../../web/blocks/explain.js';

const attn = await loadAttention();
function viewOf(cfg, step = null, mask) {
  const config = parseConfig(cfg);
  const args = forwardArgs(config);
  if (mask) args.mask = mask;
  return { config, r: attn.forward(args), raw: attn.forward({ ...args, scale: 1 }), step };
}
const at = (view, step) => ({ ...view, step });

// Three tokens a, b, c with features x, y: X = [[1, 0], [0, 1], [1, 1]], Wq = Wk = I, so
// Q = K = X, and Wv = [[1, 2], [0, 1]] gives V = [[1, 2], [0, 1], [1, 3]]. Q·Kᵀ = [[1, 0, 1],
// [0, 1, 1], [1, 1, 2]]. Not causal; the mask hides b from a and every key from b.
const SMALL = { tokens: ['a', 'b', 'c'], features: ['x', 'y'], X: [[1, 0], [0, 1], [1, 1]], Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv: [[1, 2], [0, 1]], causal: false };
const HOLES = [[true, false, true], [false, false, false], [true, true, true]];
// scale 0.5: S = [[0.5, 0, 0.5], [0, 0.5, 0.5], [0.5, 0.5, 1]]. Row a sees a and c, both 0.5:
// weights 0.5 and 0.5, O[a] = 0.5·[1, 2] + 0.5·[1, 3] = [1, 2.5]. Row c sees all three:
// exp(0.5) = 1.649 twice and exp(1) = 2.718, sum 6.016, so A[c][c] = 0.452 and O[c] =
// 0.274·[1, 2] + 0.274·[0, 1] + 0.452·[1, 3] = [0.726, 2.178].
const half = () => viewOf({ ...SMALL, scale: 0.5 }, null, HOLES);

test('matrixInfo: shapes, axis labels, captions and what each matrix is, in the lesson’s words', () => {
  const v = half();
  const info = (m) => { const { rows, cols, rowLabels, colLabels, axes, about, caption } = matrixInfo(v, m); return [rows, cols, rowLabels, colLabels, axes, about, caption]; };
  assert.deepEqual(info('X'), [3, 2, ['a', 'b', 'c'], ['x', 'y'], 'token × feature', 'input: one row per token', 'X: 3 × 2, token × feature']);
  assert.deepEqual(info('Wq'), [2, 2, ['x', 'y'], ['q1', 'q2'], 'feature × query dim', 'learned query projection', 'Wq: 2 × 2, feature × query dim']);
  assert.deepEqual(info('Wk'), [2, 2, ['x', 'y'], ['k1', 'k2'], 'feature × key dim', 'learned key projection', 'Wk: 2 × 2, feature × key dim']);
  assert.deepEqual(info('Wv'), [2, 2, ['x', 'y'], ['v1', 'v2'], 'feature × value dim', 'learned value projection', 'Wv: 2 × 2, feature × value dim']);
  assert.deepEqual(info('Q'), [3, 2, ['a', 'b', 'c'], ['q1', 'q2'], 'token × query dim', 'queries: what each token is looking for', 'Q: 3 × 2, token × query dim']);
  assert.deepEqual(info('K'), [3, 2, ['a', 'b', 'c'], ['k1', 'k2'], 'token × key dim', 'keys: what each token offers as a match', 'K: 3 × 2, token × key dim']);
  assert.deepEqual(info('V'), [3, 2, ['a', 'b', 'c'], ['v1', 'v2'], 'token × value dim', 'values: what each token passes on', 'V: 3 × 2, token × value dim']);
  assert.deepEqual(info('S'), [3, 3, ['a', 'b', 'c'], ['a', 'b', 'c'], 'query × key', 'scaled scores, masked entries −∞', 'S: 3 × 3, query × key']);
  assert.deepEqual(info('M'), [3, 3, ['a', 'b', 'c'], ['a', 'b', 'c'], 'query × key', 'mask: −∞ on 4 entries', 'M: 3 × 3, query × key']);
  assert.deepEqual(info('A'), [3, 3, ['a', 'b', 'c'], ['a', 'b', 'c'], 'query × key', 'weights: softmax of each row, rows add up to 1 (or are all 0)', 'A: 3 × 3, query × key']);
  assert.deepEqual(info('O'), [3, 2, ['a', 'b', 'c'], ['v1', 'v2'], 'token × value dim', 'output: weighted average of the value rows', 'O: 3 × 2, token × value dim']);
  assert.equal(matrixInfo(v, 'A').m, 'A');
  // no fully masked row: the weights' rows all add up to 1
  assert.equal(matrixInfo(viewOf(SMALL), 'A').about, 'weights: softmax of each row, rows add up to 1');
  // one masked entry: "entry", singular
  assert.equal(matrixInfo(viewOf(SMALL, null, [[true, false, true], [true, true, true], [true, true, true]]), 'M').about, 'mask: −∞ on 1 entry');
});

test('matrixInfo: the direct form has no features; a projection head without names gets f1, f2', () => {
  const we = viewOf(PRESETS['worked-example'].config);
  assert.deepEqual(matrixInfo(we, 'Wq').rowLabels, []);
  assert.deepEqual(matrixInfo(we, 'Q').colLabels, ['q1', 'q2']);
  assert.deepEqual(matrixInfo(we, 'V').colLabels, ['v1', 'v2']);
  assert.deepEqual(matrixInfo(we, 'Q').rowLabels, ['1', '2', '3']);
  const unnamed = { config: { X: [[1, 2, 3]], Wq: [[1], [0], [0]], Wk: [[1], [0], [0]], Wv: [[1], [0], [0]], tokens: ['t'] } };
  unnamed.r = attn.forward(forwardArgs(parseConfig(unnamed.config)));
  assert.deepEqual(matrixInfo(unnamed, 'X').colLabels, ['f1', 'f2', 'f3']);
  assert.deepEqual(matrixInfo(unnamed, 'Wv').rowLabels, ['f1', 'f2', 'f3']);
});

test('value dimensions carry the feature names only when Wv is square and diagonal', () => {
  const names = (Wv, extra = {}) => matrixInfo(viewOf({ ...SMALL, Wv, ...extra }), 'O').colLabels;
  assert.deepEqual(names([[2, 0], [0, 3]]), ['x', 'y']);
  assert.deepEqual(names([[1, 0], [0, 0]]), ['x', 'y'], 'zeros on the diagonal are still diagonal');
  assert.deepEqual(names([[1, 0.5], [0, 1]]), ['v1', 'v2'], 'above the diagonal');
  assert.deepEqual(names([[1, 0], [0.5, 1]]), ['v1', 'v2'], 'below the diagonal');
  assert.deepEqual(names([[1, 0, 0], [0, 1, 0]]), ['v1', 'v2', 'v3'], 'not square');
  assert.deepEqual(names([[1], [0]]), ['v1'], 'not square, narrower');
  assert.deepEqual(matrixInfo(viewOf({ ...SMALL, Wv: [[1, 0], [0, 1]] }), 'Wv').colLabels, ['x', 'y']);
  assert.deepEqual(matrixInfo(viewOf({ ...SMALL, Wv: [[1, 0], [0, 1]] }), 'V').colLabels, ['x', 'y']);
});

test('explicit mask: scores, mask cells and weights of hidden keys say the mask hides them, in a sentence', () => {
  const v = half();
  assert.deepEqual(explainCell(v, 'S', 0, 1), {
    title: 'S[1][2] = −∞',
    text: 'The mask does not let “a” (1) look at “b” (2), so the mask sets this score to −∞ and its weight in A to exactly 0. (Before the mask the score was 0.000.)',
    sources: [{ m: 'Q', row: 0 }, { m: 'K', row: 1 }, { m: 'M', row: 0, col: 1 }],
  });
  assert.deepEqual(explainCell(v, 'M', 0, 1), {
    title: 'M[1][2] = −∞',
    text: 'The mask does not let “a” (1) look at “b” (2), so −∞ is added to this score: its weight in A is exactly 0.',
    sources: [{ m: 'S', row: 0, col: 1 }, { m: 'A', row: 0, col: 1 }],
  });
  // a masked key before the query (not the future) under no causal mask is still the mask's doing
  assert.equal(explainCell(v, 'M', 1, 0).text, 'The mask does not let “b” (2) look at “a” (1), so −∞ is added to this score: its weight in A is exactly 0.');
  assert.deepEqual(explainCell(v, 'M', 0, 0), { title: 'M[1][1] = 0.000', text: '“a” (1) may look at itself, so 0 is added to the score.', sources: [{ m: 'S', row: 0, col: 0 }, { m: 'A', row: 0, col: 0 }] });
  assert.equal(explainCell(v, 'M', 2, 1).text, '“c” (3) may look at “b” (2), so 0 is added to the score.', 'not causal: no “(2 ≤ 3)”');
  assert.equal(explainCell(v, 'M', 0, 2).text, '“a” (1) may look at “c” (3), so 0 is added to the score.');
  assert.deepEqual(explainCell(v, 'A', 0, 1), {
    title: 'A[1][2] = 0.000',
    text: 'Exactly 0: the mask does not let “a” (1) look at “b” (2), so the score was masked to −∞, and exp(−∞) = 0.',
    sources: [{ m: 'S', row: 0 }, { m: 'M', row: 0 }],
  });
});

test('a fully masked row: its weights, its output and its follow sentence are exactly 0, PyTorch’s rule', () => {
  const v = half();
  assert.deepEqual(fullyMaskedRows(v.r), [1]);
  assert.deepEqual(explainCell(v, 'A', 1, 0), {
    title: 'A[2][1] = 0.000',
    text: 'Exactly 0: every key of row 2 is masked, so “b” (2) has nothing to look at. PyTorch’s rule gives such a row weights of 0 and an output of 0.',
    sources: [{ m: 'S', row: 1 }, { m: 'M', row: 1 }],
  });
  assert.deepEqual(explainCell(v, 'O', 1, 0), {
    title: 'O[2][1] = 0.000',
    text: 'Dimension 1 of the output of “b” (2): exactly 0. Every key of row 2 is masked, so its weights are all 0 and so is its output (PyTorch’s rule).',
    sources: [{ m: 'A', row: 1 }, { m: 'V', col: 0 }],
  });
  assert.equal(followSentence(v, 1), '“b” (2) has no key it may look at (every key of its row is masked), so its weights and its output are all 0.');
  const numbered = viewOf({ ...SMALL, tokens: ['1', '2', '3'] }, null, HOLES);
  assert.equal(followSentence(numbered, 1), 'Token 2 has no key it may look at (every key of its row is masked), so its weights and its output are all 0.');
  assert.equal(explainCell(numbered, 'M', 2, 0).text, 'Token 3 may look at token 1, so 0 is added to the score.');
  // two fully masked rows: "Rows 1 and 2 have … their weights"
  const two = viewOf({ ...SMALL, scale: 0.5 }, null, [[false, false, false], [false, false, false], [true, true, true]]);
  assert.deepEqual(fullyMaskedRows(two.r), [0, 1]);
  assert.equal(narration(two, 'softmax'), '5. Softmax each row, turning scores into weights A that are non-negative (masked ones exactly 0) and add up to 1. Rows 1 and 2 have no key left: their weights are all 0.');
  assert.equal(narration(v, 'softmax'), '5. Softmax each row, turning scores into weights A that are non-negative (masked ones exactly 0) and add up to 1. Row 2 has no key left: its weights are all 0.');
  assert.equal(narration(viewOf(SMALL), 'softmax'), '5. Softmax each row, turning scores into weights A that are non-negative and add up to 1.');
});

test('fullyMaskedRows hands out a copy: changing it changes nothing for the next caller', () => {
  const v = half();
  const rows = fullyMaskedRows(v.r);
  rows.push(0, 2);
  assert.deepEqual(fullyMaskedRows(v.r), [1]);
  assert.equal(narration(v, 'softmax').endsWith(' Row 2 has no key left: its weights are all 0.'), true);
});

test('scale set in the config: the score, the narration and the formula say “× scale”', () => {
  const v = half();
  assert.deepEqual(explainCell(v, 'S', 0, 2), {
    title: 'S[1][3] = 0.500',
    text: 'How well the query of “a” (1) matches the key of “c” (3).\nS[1][3] = (q₁·k₃) × scale, with the scale set to 0.500\nq₁·k₃ = 1.000×1.000 + 0.000×1.000 = 1.000\n1.000 × 0.500 = 0.500',
    sources: [{ m: 'Q', row: 0 }, { m: 'K', row: 2 }, { m: 'M', row: 0, col: 2 }],
  });
  assert.equal(narration(v, 'scale'), '3. Scale. Every score is multiplied by the scale set in the config, 0.500, instead of the lesson’s 1/√dk = 0.707.');
  assert.equal(narration(v, 'mask'), '4. Mask. Set the 4 masked scores to −∞: those keys get weight 0.');
  assert.equal(formulaLine(v), 'Q = X·Wq, K = X·Wk, V = X·Wv (d = 2, dk = dv = 2); S = Q·Kᵀ × 0.500; mask; A = softmax by row; O = A·V.');
});

test('weights and outputs of a masked row: the visible keys only, with the masked ones counted', () => {
  const v = half();
  assert.deepEqual(explainCell(v, 'A', 0, 2), {
    title: 'A[1][3] = 0.500',
    text: 'The share of its attention “a” (1) gives to “c” (3): the softmax of row 1 of S.\n' +
      'A[1][3] = exp(S[1][3]) / Σₖ exp(S[1][k])\nexp(0.500) = 1.649\nΣ = 1.649 + 1.649 = 3.297 (the 1 masked key adds exp(−∞) = 0)\n' +
      '(Every number here is rounded to 3 decimals; the core computes with the unrounded ones, so the terms as printed add to 3.298, not 3.297.)\n' +
      'A[1][3] = 1.649 / 3.297 = 0.500\n' +
      'The core first subtracts the row’s largest score, 0.500, from every score: exp(0.500 − 0.500) / Σₖ exp(S[1][k] − 0.500) = 1.000 / 2.000. Both are the numbers above times exp(−0.500) = 0.607, so the ratio is the same, 0.500, and no term can be larger than 1, so nothing overflows.',
    sources: [{ m: 'S', row: 0 }, { m: 'M', row: 0 }],
  });
  assert.deepEqual(explainCell(v, 'O', 0, 1), {
    title: 'O[1][2] = 2.500',
    text: 'Dimension 2 of the output of “a” (1): the weighted average of column 2 of V, with row 1 of A as the weights.\n' +
      'O[1][2] = Σₖ A[1][k]·V[k][2] (the 1 masked key has weight 0)\n= 0.500×2.000 + 0.500×3.000\n= 1.000 + 1.500\n= 2.500',
    sources: [{ m: 'A', row: 0 }, { m: 'V', col: 1 }],
  });
  assert.equal(explainCell(v, 'O', 2, 0).text, 'Dimension 1 of the output of “c” (3): the weighted average of column 1 of V, with row 3 of A as the weights.\n' +
    'O[3][1] = Σₖ A[3][k]·V[k][1]\n= 0.274×1.000 + 0.274×0.000 + 0.452×1.000\n= 0.274 + 0.000 + 0.452\n= 0.726');
});

test('the follow sentence with an explicit mask: “may look at 2 tokens of 3”, and nothing masked in a full row', () => {
  const v = half();
  assert.equal(followSentence(v, 0), '“a” (1) gives 0.500 of its attention each to itself and “c” (3). It may look at 2 tokens of 3; the mask hides the other one. Its output (row 1 of O) is [1.000, 2.500]; its largest component is “v2”, 2.500.');
  assert.equal(followSentence(v, 2), '“c” (3) gives 0.452 of its attention to itself. Nothing is masked: it can see every token, itself included. Its output (row 3 of O) is [0.726, 2.178]; its largest component is “v2”, 2.178.');
  // a hides both b and c: "the other 2"
  const lone = viewOf({ ...SMALL, scale: 0.5 }, null, [[true, false, false], [true, true, true], [true, true, true]]);
  assert.equal(followSentence(lone, 0), '“a” (1) gives 1.000 of its attention to itself. It may look at 1 token of 3; the mask hides the other 2. Its output (row 1 of O) is [1.000, 2.000]; its largest component is “v2”, 2.000.');
});

test('the follow sentence says when a key it may look at got a weight of exactly 0 because exp(s − max) underflowed in float32, as the cell explanation does', () => {
  // scores 0 and −200: exp(−200) is far below float32's smallest positive number (about 1.4e−45)
  const under = viewOf({ tokens: ['a', 'b'], Q: [[1], [1]], K: [[0], [-200]], V: [[1], [2]], causal: false, scale: 1 });
  assert.deepEqual([under.r.A[1], under.r.M[1]], [0, 0], 'a weight of 0, not masked');
  assert.equal(followSentence(under, 0), '“a” (1) gives 1.000 of its attention to itself. Nothing is masked: it can see every token, itself included. '
    + 'The weight on “b” (2) is 0 though it is not masked: its score is 200.000 below the row’s largest, so its exp(s − max) = exp(−200.000) is too small for float32 and rounds to 0. '
    + 'Its output (row 1 of O) is [1.000]; its largest component is “v1”, 1.000.');
  assert.match(explainCell(under, 'A', 0, 1).text, /is exactly 0 though the key is not masked: exp\(−200\.000 − 0\.000\) = exp\(−200\.000\) is below half of float32’s smallest positive number \(2\^−149, about 1\.4e−45, which exp reaches about 103\.97 below the row’s largest\), so it rounds to 0\./);
  // two underflowed keys, one masked by the causal mask: each said once, the masked one not among them
  const two = viewOf({ tokens: ['a', 'b', 'c', 'd'], Q: [[1], [1], [1], [1]], K: [[0], [-200], [-300], [0]], V: [[1], [2], [3], [4]], causal: true, scale: 1 });
  assert.equal(followSentence(two, 2).split('. ').slice(1, 3).join('. '), 'It can see tokens 1 to 3, itself included; the causal mask hides the token after it. '
    + 'The weights on “b” (2) and “c” (3) are 0 though they are not masked: their scores are 200.000 to 300.000 below the row’s largest, so each exp(s − max) is too small for float32 and rounds to 0');
  // a row where nothing underflows says nothing of it
  assert.doesNotMatch(followSentence(two, 0), /rounds to 0/);
});

test('a weight 87 to 104 below the largest is a float32 subnormal, said with its value; 0 only past about 103.97 (issue 26, error 3)', () => {
  const near = viewOf({ tokens: ['a', 'b'], Q: [[1], [1]], K: [[0], [-95]], V: [[1], [2]], causal: false, scale: 1 });
  assert.ok(near.r.A[1] > 0 && near.r.A[1] < 1e-40, `the core keeps exp(−95): ${near.r.A[1]}`);
  const text = explainCell(near, 'A', 0, 1).text;
  assert.match(text, /A\[1\]\[2\] is 5\.5\de−42, not 0, though it shows as 0\.000: exp\(−95\.000 − 0\.000\) = exp\(−95\.000\) is below float32’s smallest normal number .* keeps it as a subnormal number, as PyTorch does/);
  assert.doesNotMatch(text, /rounds to 0/);
  assert.doesNotMatch(followSentence(near, 0), /rounds to 0/, 'the follow sentence says no weight is 0');
  const past = viewOf({ tokens: ['a', 'b'], Q: [[1], [1]], K: [[0], [-104]], V: [[1], [2]], causal: false, scale: 1 });
  assert.equal(past.r.A[1], 0);
  assert.match(explainCell(past, 'A', 0, 1).text, /is exactly 0 though the key is not masked/);
  assert.doesNotMatch(explainCell(past, 'A', 0, 1).text, /subnormal/);
  assert.equal(tinyWeightNote('A[1][1]', 0.25, 'exp(0)'), '', 'a weight the decimals show needs no note');
});

test('the projection of a value and a query: the sum of X row × W column with the core’s total', () => {
  const v = half();
  assert.deepEqual(explainCell(v, 'V', 2, 1), {
    title: 'V[3][2] = 3.000',
    text: 'Dimension 2 of the value of “c” (3): what it passes on.\nV = X·Wv, so V[3][2] = Σₖ X[3][k]·Wv[k][2]\n= 1.000×2.000 + 1.000×1.000\n= 3.000',
    sources: [{ m: 'X', row: 2 }, { m: 'Wv', col: 1 }],
  });
  assert.equal(explainCell(v, 'Q', 1, 0).text, 'Dimension 1 of the query of “b” (2): what it is looking for.\nQ = X·Wq, so Q[2][1] = Σₖ X[2][k]·Wq[k][1]\n= 0.000×1.000 + 1.000×0.000\n= 0.000');
  assert.deepEqual(explainCell(v, 'K', 2, 0).sources, [{ m: 'X', row: 2 }, { m: 'Wk', col: 0 }]);
  // a value narrower than the keys: V[1][1] reads Wv's column with dv, not dk
  const narrow = viewOf({ ...SMALL, Wv: [[2], [5]] });
  assert.equal(explainCell(narrow, 'V', 2, 0).text, 'Dimension 1 of the value of “c” (3): what it passes on.\nV = X·Wv, so V[3][1] = Σₖ X[3][k]·Wv[k][1]\n= 1.000×2.000 + 1.000×5.000\n= 7.000');
  const wide = viewOf({ ...SMALL, Wv: [[1, 2, 3], [4, 5, 6]] });
  assert.equal(explainCell(wide, 'V', 1, 2).text.split('\n').slice(2).join('\n'), '= 0.000×3.000 + 1.000×6.000\n= 6.000');
});

test('inputs and weights: what a feature is, what it feeds, and the trained story', () => {
  const v = half();
  assert.deepEqual(explainCell(v, 'X', 2, 1), {
    title: 'X[3][2] = 1.000',
    text: 'Feature “y” of “c” (3). An input: select it, then type a number, drag sideways, or turn the scroll wheel with Alt held to change it. It feeds row 3 of Q, K and V.',
    sources: [{ m: 'Q', row: 2 }, { m: 'K', row: 2 }, { m: 'V', row: 2 }],
  });
  assert.equal(explainCell(v, 'X', 1, 0, { trained: { step: 3 } }).text, 'Feature “x” of “b” (2): 1 if the token (or its position) is “x”, else 0. The inputs are fixed; only the weights learn. It feeds row 2 of Q, K and V.');
  assert.equal(explainCell(v, 'X', 1, 0, {}).text.startsWith('Feature “x” of “b” (2). An input'), true, 'an extra without trained is the hand-set head');
  assert.deepEqual(explainCell(v, 'Wv', 1, 0), {
    title: 'Wv[2][1] = 0.000',
    text: 'How much feature “y” adds to value dimension 1. A learned weight (hand-picked here); you can edit it. It feeds column 1 of V.',
    sources: [{ m: 'X', col: 1 }, { m: 'V', col: 0 }],
  });
  assert.deepEqual(explainCell(v, 'Wq', 0, 1).sources, [{ m: 'X', col: 0 }, { m: 'Q', col: 1 }]);
  assert.equal(explainCell(v, 'Wk', 0, 1).text, 'How much feature “x” adds to key dimension 2. A learned weight (hand-picked here); you can edit it. It feeds column 2 of K.');
  // trained: the gradient and update of this weight, read at [i][j] of the flat arrays
  const g = { Wq: new Float32Array(4), Wk: new Float32Array(4), Wv: Float32Array.from([0.1, 0.2, -0.5, 0.4]) };
  const u = { Wq: new Float32Array(4), Wk: new Float32Array(4), Wv: Float32Array.from([0, 0, 0.25, 0]) };
  assert.equal(explainCell(v, 'Wv', 1, 0, { trained: { step: 7 }, gradients: g, update: u, optimizer: 'sgd', lr: 0.5 }).text,
    'How much feature “y” adds to value dimension 1. It feeds column 1 of V.\n' +
    'Learned by gradient descent: this is its value after step 7.\n' +
    '∂loss/∂Wv[2][1] = −0.500 on step 7’s batch (before its update): raising this weight by a small ε changes that batch’s loss by about −0.500·ε, so the gradient alone says raise it.\n' +
    'Step 7 moved it by +0.250 (up, against its gradient: downhill on this batch). SGD moves every weight by −lr × its gradient (lr = 0.5), always against it.');
  assert.equal(explainCell(v, 'Wv', 0, 1, { trained: { step: 7 }, gradients: g }).text,
    'How much feature “x” adds to value dimension 2. It feeds column 2 of V.\n' +
    'Learned by gradient descent: this is its value after step 7.\n' +
    '∂loss/∂Wv[1][2] = 0.200 on step 7’s batch (before its update): raising this weight by a small ε changes that batch’s loss by about 0.200·ε, so the gradient alone says lower it.');
  assert.equal(explainCell(v, 'Wq', 0, 0, { trained: { step: 2 }, gradients: null }).text,
    'How much feature “x” adds to query dimension 1. It feeds column 1 of Q.\nRandom at step 0: gradient descent has not changed it yet.');
});

test('weightStory: gradient sign, the step taken and which way, for SGD and Adam', () => {
  const base = { name: 'Wq[1][2]', step: 4 };
  const grad = (g) => `∂loss/∂Wq[1][2] = ${g} on step 4’s batch (before its update): raising this weight by a small ε changes that batch’s loss by about ${g}·ε, so the gradient alone says `;
  const first = 'Learned by gradient descent: this is its value after step 4.\n';
  const adam = 'Adam moves each weight by about lr times m̂/√v̂: a running average of its recent gradients divided by their typical size, so a weight can keep moving the way earlier steps pushed it, even uphill on this step’s batch.';
  assert.equal(weightStory({ ...base, step: 0, g: 0.3 }), 'Random at step 0: gradient descent has not changed it yet.');
  assert.equal(weightStory({ ...base, g: null }), 'Random at step 0: gradient descent has not changed it yet.');
  assert.equal(weightStory({ ...base, g: 0 }), first + grad('0.000') + 'leave it.');
  assert.equal(weightStory({ ...base, g: 0.25 }), first + grad('0.250') + 'lower it.');
  assert.equal(weightStory({ ...base, g: -0.25 }), first + grad('−0.250') + 'raise it.');
  assert.equal(weightStory({ ...base, g: 0.25, delta: -0.125 }), first + grad('0.250') + 'lower it.\nStep 4 moved it by −0.125 (down, against its gradient: downhill on this batch). ' + adam);
  assert.equal(weightStory({ ...base, g: 0.25, delta: 0.125, optimizer: 'adam' }), first + grad('0.250') + 'lower it.\nStep 4 moved it by +0.125 (up, the same way as its gradient: uphill on this batch). ' + adam);
  assert.equal(weightStory({ ...base, g: -0.25, delta: -0.125 }), first + grad('−0.250') + 'raise it.\nStep 4 moved it by −0.125 (down, the same way as its gradient: uphill on this batch). ' + adam);
  assert.equal(weightStory({ ...base, g: 0, delta: 0.125 }), first + grad('0.000') + 'leave it.\nStep 4 moved it by +0.125 (up, with no gradient to follow). ' + adam);
  assert.equal(weightStory({ ...base, g: 0.25, delta: 0 }), first + grad('0.250') + 'lower it.\nStep 4 did not move it. ' + adam);
  assert.equal(weightStory({ ...base, g: 0.25, delta: 0, optimizer: 'sgd' }), first + grad('0.250') + 'lower it.\nStep 4 did not move it. SGD moves every weight by −lr × its gradient, always against it.');
  assert.equal(weightStory({ ...base, g: 0.25, delta: -0.025, optimizer: 'sgd', lr: 0.1 }).split('\n')[2], 'Step 4 moved it by −0.025 (down, against its gradient: downhill on this batch). SGD moves every weight by −lr × its gradient (lr = 0.1), always against it.');
  assert.equal(weightStory({ ...base, g: 0.25, delta: 0, optimizer: 'rmsprop' }).split('\n')[2], 'Step 4 did not move it. ' + adam, 'an unknown optimizer is told as Adam');
});

// Scaling off (scale 1) and a float mask: S = Q·Kᵀ = [[1, 0, 1], [0, 1, 1], [1, 1, 2]]; the
// mask adds −1 to a→b and removes a→c. Row a: exp(1) = 2.718 and exp(0 − 1) = 0.368, sum 3.086,
// so A[a][a] = 0.881 and A[a][b] = 0.119; shifted by the max 1: 1.000 + 0.135 = 1.135.
const FLOAT_MASK = [[0, -1, -Infinity], [0, 0, 0], [0, 0, 0]];
const off = (step = null) => viewOf({ ...SMALL, scale: 1 }, step, FLOAT_MASK);

test('scaling off: the score says the lesson would divide by √dk, the captions say “scaling off”', () => {
  const v = off();
  assert.deepEqual(explainCell(v, 'S', 0, 0), {
    title: 'S[1][1] = 1.000',
    text: 'How well the query of “a” (1) matches the key of “a” (1).\nS[1][1] = q₁·k₁ (scaling is off; the lesson divides by √dk = √2 = 1.414)\nq₁·k₁ = 1.000×1.000 + 0.000×0.000 = 1.000',
    sources: [{ m: 'Q', row: 0 }, { m: 'K', row: 0 }, { m: 'M', row: 0, col: 0 }],
  });
  assert.equal(matrixInfo(v, 'S').about, 'scores (scaling off), masked entries −∞');
  assert.equal(matrixInfo(at(v, 'scale'), 'S').about, 'scores (scaling off), not masked yet');
  assert.equal(matrixInfo(at(v, 'score'), 'S').about, 'scores Q·Kᵀ, not scaled yet');
  assert.equal(matrixInfo(viewOf({ ...SMALL, scale: 1 }), 'S').about, 'scores (scaling off) (nothing masked)');
  assert.equal(matrixInfo(viewOf(SMALL), 'S').about, 'scaled scores (nothing masked)');
  assert.equal(matrixInfo(at(viewOf(SMALL), 'scale'), 'S').about, 'scaled scores, not masked yet');
  assert.equal(matrixInfo(at(viewOf(SMALL), 'mask'), 'S').about, 'scaled scores (nothing masked)');
  assert.equal(formulaLine(v), 'Q = X·Wq, K = X·Wk, V = X·Wv (d = 2, dk = dv = 2); S = Q·Kᵀ (scaling off; √dk = 1.414); mask; A = softmax by row; O = A·V.');
  assert.equal(narration(v, 'scale'), '3. Scale. Scaling is off: the scores are used as they are, so with wide heads the softmax saturates (one weight near 1, the rest near 0). The lesson divides by √dk = √2 = 1.414.');
  assert.equal(narration(v, 'mask'), '4. Mask. Set the 1 masked score to −∞: those keys get weight 0.');
});

test('a float mask: “The mask adds −1.000”, and a row where it added something is the softmax of S + M, every term named so', () => {
  const v = off();
  assert.deepEqual(explainCell(v, 'M', 0, 1), { title: 'M[1][2] = −1.000', text: 'The mask adds −1.000 to this score.', sources: [{ m: 'S', row: 0, col: 1 }, { m: 'A', row: 0, col: 1 }] });
  assert.equal(explainCell(v, 'M', 0, 2).text, 'The mask does not let “a” (1) look at “c” (3), so −∞ is added to this score: its weight in A is exactly 0.');
  assert.equal(explainCell(v, 'M', 1, 2).text, '“b” (2) may look at “c” (3), so 0 is added to the score.');
  const tail = 'Σ = 2.718 + 0.368 = 3.086 (the 1 masked key adds exp(−∞) = 0)\n';
  assert.equal(explainCell(v, 'A', 0, 0).text,
    'The share of its attention “a” (1) gives to itself: the softmax of row 1 of S + M (the mask adds a number to some of its scores).\n' +
    'A[1][1] = exp((S + M)[1][1]) / Σₖ exp((S + M)[1][k])\nexp(1.000) = 2.718\n' + tail + 'A[1][1] = 2.718 / 3.086 = 0.881\n' +
    'The core first subtracts the row’s largest score, 1.000, from every score: exp(1.000 − 1.000) / Σₖ exp((S + M)[1][k] − 1.000) = 1.000 / 1.135. Both are the numbers above times exp(−1.000) = 0.368, so the ratio is the same, 0.881, and no term can be larger than 1, so nothing overflows.');
  assert.equal(explainCell(v, 'A', 0, 1).text,
    'The share of its attention “a” (1) gives to “b” (2): the softmax of row 1 of S + M (the mask adds a number to some of its scores).\n' +
    'A[1][2] = exp((S + M)[1][2]) / Σₖ exp((S + M)[1][k])\nexp(−1.000) = 0.368\n' + tail + 'A[1][2] = 0.368 / 3.086 = 0.119\n' +
    'The core first subtracts the row’s largest score, 1.000, from every score: exp(−1.000 − 1.000) / Σₖ exp((S + M)[1][k] − 1.000) = 0.135 / 1.135. Both are the numbers above times exp(−1.000) = 0.368, so the ratio is the same, 0.119, and no term can be larger than 1, so nothing overflows.');
  // row c has no mask entry: every name is plain S, and no masked key is counted
  assert.match(explainCell(v, 'A', 2, 2).text, /: the softmax of row 3 of S\.\nA\[3\]\[3\] = exp\(S\[3\]\[3\]\) \/ Σₖ exp\(S\[3\]\[k\]\)\nexp\(2\.000\) = 7\.389\nΣ = 2\.718 \+ 2\.718 \+ 7\.389 = 12\.826\n\(Every number here is rounded to 3 decimals; the core computes with the unrounded ones, so the terms as printed add to 12\.825, not 12\.826\.\)\nA\[3\]\[3\] = 7\.389 \/ 12\.826 = 0\.576\n/);
});

test('before the mask step, A and O say which scores they come from, and the S panel shows the unmasked ones', () => {
  const note = (step, m) => explainCell(off(step), m, 2, 0).text.split('\n')[0];
  assert.equal(note('score', 'A'), '(A comes at step 5, from the masked scores: S shows step 2’s scores now.)');
  assert.equal(note('scale', 'A'), '(A comes at step 5, from the masked scores: S shows step 3’s scores now.)');
  assert.equal(note('score', 'O'), '(O comes at step 6, from the masked scores: S shows step 2’s scores now.)');
  assert.equal(note('scale', 'O'), '(O comes at step 6, from the masked scores: S shows step 3’s scores now.)');
  const scaled = (step, m) => explainCell(viewOf(SMALL, step, HOLES), m, 2, 0).text.split('\n')[0];
  assert.equal(scaled('scale', 'A'), '(A comes at step 5, from the scaled, masked scores: S shows step 3’s scores now.)');
  assert.equal(scaled('score', 'O'), '(O comes at step 6, from the scaled, masked scores: S shows step 2’s scores now.)');
  // no mask at all (causal off, no explicit mask): the scores are not "masked" (issue 26, minor)
  const open = (step, m, cfg) => explainCell(viewOf(cfg, step), m, 1, 0).text.split('\n')[0];
  const unmasked = { ...PRESETS.cat.config, causal: false };
  assert.equal(open('scale', 'A', unmasked), '(A comes at step 5, from the scaled scores: S shows step 3’s scores now.)');
  assert.equal(open('score', 'O', { ...unmasked, scale: 1 }), '(O comes at step 6, from the scores: S shows step 2’s scores now.)');
  for (const step of [null, 'project', 'mask', 'softmax', 'mix']) {
    assert.equal(explainCell(off(step), 'A', 2, 0).text.startsWith('The share of its attention “c” (3) gives to “a” (1)'), true, String(step));
    assert.equal(explainCell(off(step), 'O', 2, 0).text.startsWith('Dimension 1 of the output of “c” (3): the weighted'), true, String(step));
  }
  // a masked score at steps 2 and 3 is still explained as a score (the mask comes at step 4)
  const masked = viewOf({ ...SMALL, scale: 0.5 }, 'scale', HOLES);
  assert.equal(explainCell(masked, 'S', 0, 1).text, 'How well the query of “a” (1) matches the key of “b” (2).\nS[1][2] = (q₁·k₂) × scale, with the scale set to 0.500\nq₁·k₂ = 1.000×0.000 + 0.000×1.000 = 0.000\n0.000 × 0.500 = 0.000');
  assert.equal(explainCell(at(masked, 'score'), 'S', 0, 1).text, 'How well the query of “a” (1) matches the key of “b” (2).\nS = Q·Kᵀ (not scaled yet): q₁·k₂ = 1.000×0.000 + 0.000×1.000 = 0.000');
  assert.equal(explainCell(at(masked, 'mask'), 'S', 0, 1).title, 'S[1][2] = −∞');
});

test('displayed: S is Q·Kᵀ at step 2, scaled at step 3, masked from step 4 on and when every step is shown', () => {
  const v = viewOf({ ...SMALL, scale: 0.5 }, null, HOLES);
  const S = (step) => Array.from(displayed(at(v, step), 'S'));
  const I = -Infinity;
  assert.deepEqual(S('score'), [1, 0, 1, 0, 1, 1, 1, 1, 2]);
  assert.deepEqual(S('scale'), [0.5, 0, 0.5, 0, 0.5, 0.5, 0.5, 0.5, 1]);
  for (const step of [null, 'project', 'mask', 'softmax', 'mix']) assert.deepEqual(S(step), [0.5, I, 0.5, I, I, I, 0.5, 0.5, 1], String(step));
  assert.equal(displayed(v, 'A'), v.r.A);
  assert.equal(displayed(v, 'S'), displayed(at(v, 'mix'), 'S'), 'the masked copy is made once per result');
  // the core's own S is left alone
  assert.deepEqual(Array.from(v.r.S), [0.5, 0, 0.5, 0, 0.5, 0.5, 0.5, 0.5, 1]);
});

test('legendInfo: diverging around 0, sequential from 0 to 1, the mask with or without −∞', () => {
  const I = -Infinity;
  assert.deepEqual(legendInfo('S', Float32Array.from([0.5, I, -2]), 'diverging', 2), { kind: 'diverging', lo: -2, hi: 2, centre: true, mayLook: false, masked: true });
  assert.deepEqual(legendInfo('Q', Float32Array.from([0.5, -2]), 'diverging', 3), { kind: 'diverging', lo: -3, hi: 3, centre: true, mayLook: false, masked: false });
  assert.deepEqual(legendInfo('A', Float32Array.from([0.25, 0.75]), 'sequential', 7), { kind: 'sequential', lo: 0, hi: 1, centre: false, mayLook: false, masked: false });
  assert.deepEqual(legendInfo('M', Float32Array.from([0, I]), 'mask', 1), { kind: 'mask', lo: null, hi: null, centre: false, mayLook: true, masked: true });
  assert.deepEqual(legendInfo('M', Float32Array.from([0, 0]), 'mask', 1), { kind: 'mask', lo: null, hi: null, centre: false, mayLook: true, masked: false });
  assert.deepEqual(legendInfo('M', Float32Array.from([I, I]), 'mask', 1), { kind: 'mask', lo: null, hi: null, centre: false, mayLook: false, masked: true });
});

test('the lesson’s worked example (direct form): given Q, K and V, the lesson’s scale, no mask', () => {
  const we = viewOf(PRESETS['worked-example'].config);
  assert.equal(formulaLine(we), 'Q, K, V given (dk = dv = 2); S = Q·Kᵀ/√dk = Q·Kᵀ/1.414; no mask; A = softmax by row; O = A·V.');
  assert.equal(narration(we, 'project'), '1. Project. Here Q, K and V are given directly, as in the lesson’s worked example: Q is what each token is looking for, K what each token offers as a match, V what each token passes on. In a real layer they come from X·Wq, X·Wk and X·Wv.');
  assert.equal(narration(we, 'mask'), '4. Mask. The mask is off here (as in the lesson’s worked example): every token may look at every token.');
  assert.equal(narration(we, 'scale'), '3. Scale. Divide by √dk, where dk = 2 is the width of each query and key: √2 = 1.414, so every score is multiplied by 0.707. This keeps the softmax from saturating.');
  assert.equal(narration(we, null), 'All six steps at once: project, score, scale, mask, softmax, mix. Press play to go through them one by one.');
  assert.equal(narration(we, 'score'), '2. Score. S = Q·Kᵀ: the dot product of every query with every key. Entry (i, j) says how well token i’s query matches token j’s key.');
  assert.equal(narration(we, 'mix'), '6. Mix. O = A·V: each token’s output is the weighted average of the value rows.');
  assert.equal(matrixInfo(we, 'M').about, 'mask off: all 0, every token may look at every token');
  assert.deepEqual(explainCell(we, 'Q', 0, 1), { title: 'Q[1][2] = 0.000', text: 'Dimension 2 of the query of token 1: what it is looking for. Given directly, as in the lesson’s worked example (in a real layer it comes from X·Wq); you can edit it.', sources: [{ m: 'S', row: 0 }] });
  assert.deepEqual(explainCell(we, 'K', 2, 0), { title: 'K[3][1] = 1.000', text: 'Dimension 1 of the key of token 3: what it offers as a match. Given directly, as in the lesson’s worked example (in a real layer it comes from X·Wk); you can edit it.', sources: [{ m: 'S', col: 2 }] });
  assert.deepEqual(explainCell(we, 'V', 1, 1), { title: 'V[2][2] = 2.000', text: 'Dimension 2 of the value of token 2: what it passes on. Given directly, as in the lesson’s worked example (in a real layer it comes from X·Wv); you can edit it.', sources: [{ m: 'O', col: 1 }] });
  assert.deepEqual(explainCell(we, 'M', 0, 1), { title: 'M[1][2] = 0.000', text: 'The mask is off (causal: false): every token may look at every token, as in the lesson’s worked example, so 0 is added to every score.', sources: [{ m: 'S', row: 0, col: 1 }, { m: 'A', row: 0, col: 1 }] });
  // the lesson: S[3][3] = 2 / √2 = 1.414; weights of row 3 [0.248, 0.248, 0.503]; O row 3 [1.759, 1.000]
  assert.equal(explainCell(we, 'S', 2, 2).text, 'How well the query of token 3 matches the key of token 3.\nS[3][3] = (q₃·k₃) / √dk, with dk = 2\nq₃·k₃ = 1.000×1.000 + 1.000×1.000 = 2.000\n2.000 / √2 = 2.000 / 1.414 = 2.000 × 0.707 = 1.414');
  assert.equal(explainCell(we, 'O', 2, 1).text, 'Dimension 2 of the output of token 3: the weighted average of column 2 of V, with row 3 of A as the weights.\nO[3][2] = Σₖ A[3][k]·V[k][2]\n= 0.248×0.000 + 0.248×2.000 + 0.503×1.000\n= 0.000 + 0.497 + 0.503\n= 1.000\n(Every number here is rounded to 3 decimals; the core computes with the unrounded ones, so 0.248×2.000 shows as 0.497, not 0.496.)');
  assert.equal(followSentence(we, 2), 'Token 3 gives 0.503 of its attention to itself. Nothing is masked: it can see every token, itself included. Its output (row 3 of O) is [1.759, 1.000]; its largest component is “v1”, 1.759.');
  assert.equal(explainCell(we, 'A', 2, 0).text.split('\n').slice(1, 5).join('\n'), 'A[3][1] = exp(S[3][1]) / Σₖ exp(S[3][k])\nexp(0.707) = 2.028\nΣ = 2.028 + 2.028 + 4.113 = 8.169\nA[3][1] = 2.028 / 8.169 = 0.248');
});

test('one token, and values wider than six: “the only token”, and the output told by its size', () => {
  const one = viewOf({ tokens: ['solo'], Q: [[2]], K: [[3]], V: [[1, 2, 3, 4, 5, 6, 7]] });
  assert.equal(followSentence(one, 0), '“solo” (1) gives 1.000 of its attention to itself. It is the only token. Its output (row 1 of O) has 7 components; the largest is “v7”, 7.000.');
  assert.equal(formulaLine(one), 'Q, K, V given (dk = 1, dv = 7); S = Q·Kᵀ/√dk = Q·Kᵀ/1.000; causal mask; A = softmax by row; O = A·V.');
  const six = viewOf({ tokens: ['solo'], Q: [[2]], K: [[3]], V: [[6, 2, 3, 4, 5, 6]] });
  assert.equal(followSentence(six, 0), '“solo” (1) gives 1.000 of its attention to itself. It is the only token. Its output (row 1 of O) is [6.000, 2.000, 3.000, 4.000, 5.000, 6.000]; its largest components are “v1” and “v6”, 6.000 each.');
  const tiedWide = viewOf({ tokens: ['solo'], Q: [[2]], K: [[3]], V: [[7, 2, 3, 4, 5, 6, 7]] });
  assert.equal(followSentence(tiedWide, 0).split('. ').pop(), 'Its output (row 1 of O) has 7 components; the largest are “v1” and “v7”, 7.000 each.');
  const alone = viewOf({ tokens: ['solo'], Q: [[2]], K: [[3]], V: [[1]], causal: false });
  assert.equal(followSentence(alone, 0), '“solo” (1) gives 1.000 of its attention to itself. It is the only token. Its output (row 1 of O) is [1.000]; its largest component is “v1”, 1.000.');
});

test('causal heads: the mask cell says “(1 ≤ 2)” for an earlier key, and the future is masked', () => {
  const cat = viewOf(PRESETS.cat.config);
  assert.equal(explainCell(cat, 'M', 1, 0).text, '“cat” (2) may look at “The” (1) (1 ≤ 2), so 0 is added to the score.');
  assert.equal(explainCell(cat, 'M', 1, 1).text, '“cat” (2) may look at itself, so 0 is added to the score.');
  assert.equal(explainCell(cat, 'M', 1, 2).text, '“sat” (3) comes after “cat” (2): a token cannot see the future, so −∞ is added to this score: its weight in A is exactly 0.');
  assert.equal(formulaLine(cat), 'Q = X·Wq, K = X·Wk, V = X·Wv (d = 4, dk = dv = 4); S = Q·Kᵀ/√dk = Q·Kᵀ/2.000; causal mask; A = softmax by row; O = A·V.');
  assert.equal(narration(cat, 'mask'), '4. Mask. Set every score where j comes after i to −∞, so tokens can’t see the future.');
  assert.equal(matrixInfo(cat, 'M').about, 'causal mask: −∞ above the diagonal');
  const one = viewOf({ tokens: ['solo'], Q: [[2]], K: [[3]], V: [[1]] });
  assert.equal(matrixInfo(one, 'M').about, 'causal mask: nothing above the diagonal to mask');
  assert.equal(explainCell(one, 'M', 0, 0).text, '“solo” (1) may look at itself, so 0 is added to the score.');
  // a causal head with an explicit mask too: the future is the causal mask's, an earlier key the mask's
  const both = viewOf({ ...SMALL, causal: true }, null, [[true, true, true], [false, true, true], [true, true, true]]);
  assert.equal(explainCell(both, 'M', 1, 0).text, 'The mask does not let “b” (2) look at “a” (1), so −∞ is added to this score: its weight in A is exactly 0.');
  assert.equal(explainCell(both, 'M', 0, 1).text, '“b” (2) comes after “a” (1): a token cannot see the future, so −∞ is added to this score: its weight in A is exactly 0.');
  assert.equal(followSentence(both, 1), '“b” (2) gives 1.000 of its attention to itself. It may look at 1 token of 3; the mask hides 1 token and the causal mask hides the token after it. Its output (row 2 of O) is [0.000, 1.000]; its largest component is “v2”, 1.000.');
  assert.equal(followSentence(both, 2).split('. ')[1], 'It can see every token, itself included');
  assert.equal(narration(both, 'mask'), '4. Mask. Set every score where j comes after i to −∞, so tokens can’t see the future.');
});

test('the steps each highlight the matrices they make', () => {
  assert.deepEqual(STEP_MATRICES, { project: ['Q', 'K', 'V'], score: ['S'], scale: ['S'], mask: ['M', 'S'], softmax: ['A'], mix: ['O'] });
});

// Two tokens p, q with one query width: S = Q·Kᵀ with scaling off (scale 1).
const pair = (Q, K) => viewOf({ tokens: ['p', 'q'], Q, K, V: [[1], [2]], causal: false, scale: 1 });
const shiftedWay = 'so this row is worked out the way the core does it: subtract the row’s largest score';

test('exp past float32: the weight is worked out the core’s way, with the max subtracted, and says why', () => {
  // row p scores 100 and 99: exp(100) = 2.7e43 does not fit; exp(99 − 100) = 0.368, Σ = 1.368
  assert.equal(explainCell(pair([[1], [1]], [[100], [99]]), 'A', 0, 1).text,
    'The share of its attention “p” (1) gives to “q” (2): the softmax of row 1 of S.\n' +
    `Here exp(100.000) is past float32’s largest number (about 3.40e38), ${shiftedWay}, 100.000, from every score first. Multiplying every term by the same exp(−max) leaves the ratio unchanged.\n` +
    'A[1][2] = exp(S[1][2] − max) / Σₖ exp(S[1][k] − max)\nexp(99.000 − 100.000) = 0.368\nΣ = 1.000 + 0.368 = 1.368\nA[1][2] = 0.368 / 1.368 = 0.269');
  // 88.5 twice: exp(88.5) = 2.7e38 fits, the sum 5.4e38 does not
  assert.equal(explainCell(pair([[88.5], [88.5]], [[1], [1]]), 'A', 0, 0).text.split('\n').slice(1).join('\n'),
    `Here the sum of the exp terms is past float32’s largest number (about 3.40e38), though each term fits, ${shiftedWay}, 88.500, from every score first. Multiplying every term by the same exp(−max) leaves the ratio unchanged.\n` +
    'A[1][1] = exp(S[1][1] − max) / Σₖ exp(S[1][k] − max)\nexp(88.500 − 88.500) = 1.000\nΣ = 1.000 + 1.000 = 2.000\nA[1][1] = 1.000 / 2.000 = 0.500');
  // 88 twice: exp(88) = 1.65e38, the sum 3.3e38 still fits: the lesson's way
  assert.match(explainCell(pair([[88], [88]], [[1], [1]]), 'A', 0, 0).text, /\nA\[1\]\[1\] = exp\(S\[1\]\[1\]\) \/ Σₖ exp\(S\[1\]\[k\]\)\nexp\(88\.000\) = 1\.65e\+?38\n/);
  // −100 and −101: exp(−100) = 3.7e−44 is below float32's smallest normal number
  assert.equal(explainCell(pair([[1], [1]], [[-100], [-101]]), 'A', 0, 0).text.split('\n').slice(1).join('\n'),
    `Here every exp term is below float32’s smallest normal number (about 1.18e−38) and rounds towards 0, ${shiftedWay}, −100.000, from every score first. Multiplying every term by the same exp(−max) leaves the ratio unchanged.\n` +
    'A[1][1] = exp(S[1][1] − max) / Σₖ exp(S[1][k] − max)\nexp(−100.000 − (−100.000)) = 1.000\nΣ = 1.000 + 0.368 = 1.368\nA[1][1] = 1.000 / 1.368 = 0.731');
  // −80 and −81: exp(−80) = 1.8e−35 is small but normal: the lesson's way
  assert.match(explainCell(pair([[1], [1]], [[-80], [-81]]), 'A', 0, 0).text, /\nA\[1\]\[1\] = exp\(S\[1\]\[1\]\) \/ Σₖ exp\(S\[1\]\[k\]\)\n/);
});

// n tokens a, b, …, all scores 0 (weights 1/n) and V = [1, 2, …, n]: O[1][1] = (n + 1) / 2.
const even = (n) => viewOf({ tokens: 'abcdefghij'.slice(0, n).split(''), Q: Array.from({ length: n }, () => [0]), K: Array.from({ length: n }, () => [0]), V: Array.from({ length: n }, (_, k) => [k + 1]), causal: false });

test('sums of up to 8 terms are written out; from 9 on, the largest 8 in their order and “… (1 smaller term)”', () => {
  assert.equal(explainCell(even(8), 'A', 0, 0).text.split('\n')[3], 'Σ = 1.000 + 1.000 + 1.000 + 1.000 + 1.000 + 1.000 + 1.000 + 1.000 = 8.000');
  assert.equal(explainCell(even(9), 'A', 0, 0).text.split('\n')[3], 'Σ = 1.000 + 1.000 + 1.000 + 1.000 + 1.000 + 1.000 + 1.000 + 1.000 + … (1 more term) = 9.000');
  assert.equal(explainCell(even(9), 'A', 0, 0).text.split('\n')[4], 'A[1][1] = 1.000 / 9.000 = 0.111');
  assert.equal(explainCell(even(8), 'O', 0, 0).text.split('\n').slice(2).join('\n'),
    '= 0.125×1.000 + 0.125×2.000 + 0.125×3.000 + 0.125×4.000 + 0.125×5.000 + 0.125×6.000 + 0.125×7.000 + 0.125×8.000\n' +
    '= 0.125 + 0.250 + 0.375 + 0.500 + 0.625 + 0.750 + 0.875 + 1.000\n= 4.500');
  // the smallest product, 0.111×1, is the one left out
  assert.equal(explainCell(even(9), 'O', 0, 0).text.split('\n').slice(2).join('\n'),
    '= 0.111×2.000 + 0.111×3.000 + 0.111×4.000 + 0.111×5.000 + 0.111×6.000 + 0.111×7.000 + 0.111×8.000 + 0.111×9.000 + … (1 smaller term)\n' +
    '= 0.222 + 0.333 + 0.444 + 0.556 + 0.667 + 0.778 + 0.889 + 1.000 + … (1 smaller term)\n= 5.000\n(Every number here is rounded to 3 decimals; the core computes with the unrounded ones, so 0.111×5.000 shows as 0.556, not 0.555.)');
  // a dot product of 9 terms: 2 × 0.25 = 0.5 is the smallest product (not the smallest factor or ratio), kept order
  const dot = viewOf({ tokens: ['w'], Q: [[9, 2, 3, 4, 5, 6, 7, 8, 1.5]], K: [[1, 0.25, 1, 1, 1, 1, 1, 1, 1]], V: [[1]] }, 'score');
  assert.equal(explainCell(dot, 'S', 0, 0).text, 'How well the query of “w” (1) matches the key of “w” (1).\nS = Q·Kᵀ (not scaled yet): q₁·k₁ = 9.000×1.000 + 3.000×1.000 + 4.000×1.000 + 5.000×1.000 + 6.000×1.000 + 7.000×1.000 + 8.000×1.000 + 1.500×1.000 + … (1 smaller term) = 44.000');
});

test('one term: its own sum, and a single product has no line of products', () => {
  // S = 2 × 3 / √1 = 6, exp(6) = 403.429
  const solo = viewOf({ tokens: ['solo'], Q: [[2]], K: [[3]], V: [[6]] });
  assert.equal(explainCell(solo, 'A', 0, 0).text, 'The share of its attention “solo” (1) gives to itself: the softmax of row 1 of S.\n' +
    'A[1][1] = exp(S[1][1]) / Σₖ exp(S[1][k])\nexp(6.000) = 403.429\nΣ = 403.429\nA[1][1] = 403.429 / 403.429 = 1.000\n' +
    'The core first subtracts the row’s largest score, 6.000, from every score: exp(6.000 − 6.000) / Σₖ exp(S[1][k] − 6.000) = 1.000 / 1.000. Both are the numbers above times exp(−6.000) = 0.002, so the ratio is the same, 1.000, and no term can be larger than 1, so nothing overflows.');
  assert.equal(explainCell(solo, 'O', 0, 0).text, 'Dimension 1 of the output of “solo” (1): the weighted average of column 1 of V, with row 1 of A as the weights.\nO[1][1] = Σₖ A[1][k]·V[k][1]\n= 1.000×6.000\n= 6.000');
  assert.equal(explainCell(solo, 'S', 0, 0).text, 'How well the query of “solo” (1) matches the key of “solo” (1).\nS[1][1] = (q₁·k₁) / √dk, with dk = 1\nq₁·k₁ = 2.000×3.000 = 6.000\n6.000 / √1 = 6.000 / 1.000 = 6.000 × 1.000 = 6.000');
  // a causal head with masked keys: one visible key, O's line says the others have weight 0
  const cat = viewOf(PRESETS.cat.config);
  assert.equal(explainCell(cat, 'O', 0, 2).text.split('\n').slice(1).join('\n'), 'O[1][3] = Σₖ A[1][k]·V[k][3] (the 4 masked keys have weight 0)\n= 1.000×0.500\n= 0.500');
  assert.equal(explainCell(cat, 'O', 3, 2).text.split('\n')[1], 'O[4][3] = Σₖ A[4][k]·V[k][3] (the 1 masked key has weight 0)');
});

test('the output dimension is named when it carries a feature, and not when its name is just its number (v1 for dimension 1)', () => {
  const cat = viewOf(PRESETS.cat.config);
  assert.equal(explainCell(cat, 'O', 4, 0).text.split('\n')[0], 'Dimension 1 (“thing”) of the output of “the” (5): the weighted average of column 1 of V, with row 5 of A as the weights.');
  // a feature named v1 in dimension 1 says nothing new; v22 in dimension 2 or v2 in dimension 1 does
  const vnamed = viewOf({ ...SMALL, features: ['v1', 'v22'], Wv: [[1, 0], [0, 1]] });
  assert.equal(explainCell(vnamed, 'O', 0, 0).text.split('\n')[0], 'Dimension 1 of the output of “a” (1): the weighted average of column 1 of V, with row 1 of A as the weights.');
  assert.equal(explainCell(vnamed, 'O', 0, 1).text.split('\n')[0], 'Dimension 2 (“v22”) of the output of “a” (1): the weighted average of column 2 of V, with row 1 of A as the weights.');
  for (const f of ['xv1', 'v1x', 'v', 'vx', 'v2']) {
    const named = viewOf({ ...SMALL, features: [f, 'y'], Wv: [[1, 0], [0, 1]] });
    assert.equal(explainCell(named, 'O', 0, 0).text.split('\n')[0], `Dimension 1 (“${f}”) of the output of “a” (1): the weighted average of column 1 of V, with row 1 of A as the weights.`, f);
  }
});

test('sourceCopies: a column read down with its title, copies that never alias the head’s own labels', () => {
  const v = half();
  const [col] = sourceCopies(v, [{ m: 'V', col: 1 }]);
  assert.deepEqual(col, { m: 'V', title: 'V column 2 (v2)', labels: ['a', 'b', 'c'], values: [2, 1, 3] });
  col.labels.push('changed');
  const [row] = sourceCopies(v, [{ m: 'S', row: 0 }]);
  assert.deepEqual(row, { m: 'S', title: 'S row 1 (a)', labels: ['a', 'b', 'c'], values: [0.5, -Infinity, 0.5] });
  row.labels.push('changed');
  assert.deepEqual(v.config.tokens, ['a', 'b', 'c']);
  assert.deepEqual(matrixInfo(v, 'V').rowLabels, ['a', 'b', 'c']);
  assert.deepEqual(sourceCopies(v, [{ m: 'Wv', col: 0 }, { m: 'X', row: 2 }]), [
    { m: 'Wv', title: 'Wv column 1 (v1)', labels: ['x', 'y'], values: [1, 0] },
    { m: 'X', title: 'X row 3 (c)', labels: ['x', 'y'], values: [1, 1] },
  ]);
  assert.deepEqual(v.config.features, ['x', 'y']);
  assert.deepEqual(sourceCopies(v, [{ m: 'K', col: 0 }], 2), [{ m: 'K', title: 'K column 1 (k1), the first 2 of 3', labels: ['a', 'b'], values: [1, 0] }]);
});

test('cell labels for screen readers: the matrix, the query/key or token and its name, then the number, in the lesson’s words', () => {
  const v = half();
  assert.equal(labeler(v, 'Wv')(1, 0, 0), 'Wv, feature 2 “y”, value dim 1: 0.000');
  assert.equal(labeler(v, 'O')(2, 1, 2.178), 'O, token 3 “c”, value dim 2: 2.178');
  assert.equal(labeler(v, 'S')(0, 1, -Infinity), 'S, query 1 “a”, key 2 “b”: score −∞');
  assert.equal(labeler(v, 'A')(0, 1, 0.198), 'A, query 1 “a”, key 2 “b”: weight 0.198');
  assert.equal(labeler(v, 'M')(0, 1, -Infinity), 'M, query 1 “a”, key 2 “b”: masked, −∞');
  assert.equal(labeler(v, 'M')(1, 0, 0), 'M, query 2 “b”, key 1 “a”: may look, 0');
});

test('cell labels never say a number twice: a numbered name (“q1”, “t3”, “3”) is said once', () => {
  for (const [axis, k, name, want] of [
    ['key', 1, 'cat', 'key 2 “cat”'],
    ['query dim', 0, 'q1', 'query dim 1'],
    ['token', 2, '3', 'token 3'],
    ['token', 2, 't3', 'token 3'],
    ['token', 2, '4', 'token 3 “4”'], // a name that is another number is said
    ['feature', 0, 'f12', 'feature 1 “f12”'],
  ]) assert.equal(axisLabel(axis, k, name), want);
  // and over every preset's matrices: no label has “N … N” for the same number twice in a row
  for (const [name, preset] of Object.entries(PRESETS)) {
    const pv = viewOf(preset.config);
    for (const m of MATRICES.filter((m) => pv.r[m] || m === 'M')) {
      const { rows, cols } = matrixInfo(pv, m);
      const label = labeler(pv, m);
      for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) {
        const text = label(i, j, 0.5);
        assert.doesNotMatch(text, /\b(\d+) “?[a-z]*\1”?[,:]/i, `${name} ${m}: ${text}`);
      }
    }
  }
});

test('forgetResult: after a result is reused for a masked head, its mask, captions and S are worked out anew', () => {
  const open = parseConfig({ ...SMALL, scale: 0.5 });
  const r = attn.forward(forwardArgs(open));
  const v = { config: open, r, raw: null, step: null };
  assert.equal(matrixInfo(v, 'M').about, 'mask off: all 0, every token may look at every token');
  assert.deepEqual(fullyMaskedRows(r), []);
  assert.equal(displayed(v, 'S')[1], 0);
  attn.forward({ ...forwardArgs(open), mask: HOLES }, { into: r });
  forgetResult(r);
  assert.equal(matrixInfo(v, 'M').about, 'mask: −∞ on 4 entries');
  assert.deepEqual(fullyMaskedRows(r), [1]);
  assert.equal(displayed(v, 'S')[1], -Infinity);
  assert.equal(narration(v, 'mask'), '4. Mask. Set the 4 masked scores to −∞: those keys get weight 0.');
});

test('a causal head whose mask also hides a token from itself: “look at itself”, and what it can still see', () => {
  // b may not look at itself (the mask) nor at c (the future): it sees a only, O[b] = V[a] = [1, 2]
  const v = viewOf({ ...SMALL, causal: true }, null, [[true, true, true], [true, false, true], [true, true, true]]);
  assert.equal(explainCell(v, 'M', 1, 1).text, 'The mask does not let “b” (2) look at itself, so −∞ is added to this score: its weight in A is exactly 0.');
  assert.equal(explainCell(v, 'A', 1, 1).text, 'Exactly 0: the mask does not let “b” (2) look at itself, so the score was masked to −∞, and exp(−∞) = 0.');
  assert.equal(followSentence(v, 1), '“b” (2) gives 1.000 of its attention to “a” (1). It may look at 1 token of 3; the mask hides 1 token and the causal mask hides the token after it. Its output (row 2 of O) is [1.000, 2.000]; its largest component is “v2”, 2.000.');
  assert.equal(followSentence(v, 0).split('. ')[1], 'It can see only itself; the causal mask hides the 2 tokens after it');
  assert.equal(followSentence(v, 2).split('. ')[1], 'It can see every token, itself included');
});

test('a query wider than the values: Q is read with its own width', () => {
  // dk = 2, dv = 1: Q[3][2] = X[3]·Wq column 2 = 1×0 + 1×1
  const narrow = viewOf({ ...SMALL, Wv: [[2], [5]] });
  assert.equal(explainCell(narrow, 'Q', 2, 1).text, 'Dimension 2 of the query of “c” (3): what it is looking for.\nQ = X·Wq, so Q[3][2] = Σₖ X[3][k]·Wq[k][2]\n= 1.000×0.000 + 1.000×1.000\n= 1.000');
  assert.equal(formulaLine(narrow), 'Q = X·Wq, K = X·Wk, V = X·Wv (d = 2, dk = 2, dv = 1); S = Q·Kᵀ/√dk = Q·Kᵀ/1.414; no mask; A = softmax by row; O = A·V.');
});

test('a head given without feature names (not through parseConfig) numbers its value dimensions v1, v2', () => {
  const config = { tokens: ['s', 't'], X: [[1, 0], [0, 1]], Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv: [[2, 0], [0, 3]], causal: true, scale: null };
  const v = { config, r: attn.forward(forwardArgs(config)), raw: null, step: null };
  assert.deepEqual(matrixInfo(v, 'X').colLabels, ['f1', 'f2']);
  assert.deepEqual(matrixInfo(v, 'O').colLabels, ['v1', 'v2']);
  assert.deepEqual(matrixInfo(v, 'Wv').colLabels, ['v1', 'v2']);
});

test('a step against no gradient at all is said so, whichever way it went', () => {
  const story = (delta) => weightStory({ name: 'Wk[2][1]', step: 1, g: 0, delta, optimizer: 'adam' }).split('\n')[2].split('. ')[0];
  assert.equal(story(-0.125), 'Step 1 moved it by −0.125 (down, with no gradient to follow)');
  assert.equal(story(0.125), 'Step 1 moved it by +0.125 (up, with no gradient to follow)');
});

test('ten keys: the weight of key 10 names S[1][10] and sums over S[1][k]', () => {
  assert.equal(explainCell(even(10), 'A', 0, 9).text.split('\n').slice(1, 4).join('\n'),
    'A[1][10] = exp(S[1][10]) / Σₖ exp(S[1][k])\nexp(0.000) = 1.000\nΣ = 1.000 + 1.000 + 1.000 + 1.000 + 1.000 + 1.000 + 1.000 + 1.000 + … (2 more terms) = 10.000');
});

test('follow sentence: what hides what, the causal mask (later keys) and an explicit mask each with its own count', () => {
  // four tokens, every score 1 (Q = K = [1]); V = 1, 2, 3, 4
  const FOUR = { tokens: ['a', 'b', 'c', 'd'], Q: [[1], [1], [1], [1]], K: [[1], [1], [1], [1]], V: [[1], [2], [3], [4]] };
  const seen = (v, i) => followSentence(v, i).split('. ')[1];
  // causal only: the causal mask hides every later key, 1, 2 or 3 of them
  const causal = viewOf({ ...FOUR, causal: true });
  assert.equal(seen(causal, 0), 'It can see only itself; the causal mask hides the 3 tokens after it');
  assert.equal(seen(causal, 1), 'It can see tokens 1 and 2, itself included; the causal mask hides the 2 tokens after it');
  assert.equal(seen(causal, 2), 'It can see tokens 1 to 3, itself included; the causal mask hides the token after it');
  assert.equal(seen(causal, 3), 'It can see every token, itself included');
  // explicit mask only: the mask hides them all
  const T = true, F = false;
  const rows = [[T, F, F, F], [T, T, F, T], [F, F, F, T], [T, T, T, T]];
  const mask = viewOf({ ...FOUR, causal: false }, null, rows);
  assert.equal(seen(mask, 0), 'It may look at 1 token of 4; the mask hides the other 3');
  assert.equal(seen(mask, 1), 'It may look at 3 tokens of 4; the mask hides the other one');
  assert.equal(seen(mask, 2), 'It may look at 1 token of 4; the mask hides the other 3');
  assert.equal(seen(mask, 3), 'Nothing is masked: it can see every token, itself included');
  // both: the causal mask's later keys are not counted as the mask's
  const both = viewOf({ ...FOUR, causal: true }, null, [[T, F, F, F], [F, T, T, T], [F, F, T, T], [T, F, T, T]]);
  assert.equal(seen(both, 0), 'It can see only itself; the causal mask hides the 3 tokens after it', 'the mask hides nothing the causal mask does not');
  assert.equal(seen(both, 1), 'It may look at 1 token of 4; the mask hides 1 token and the causal mask hides the 2 tokens after it');
  assert.equal(seen(both, 2), 'It may look at 1 token of 4; the mask hides 2 tokens and the causal mask hides the token after it');
  assert.equal(seen(both, 3), 'It may look at 3 tokens of 4; the mask hides the other one', 'no key after the last');
});

// A learner checks the arithmetic by hand with the numbers as printed. Every sum the explanation
// writes out either adds up as printed, or the explanation says what the printed terms add to;
// every product of two printed factors either gives the printed product, or the explanation says so.
test('every written-out sum and product either checks by hand as printed or says why it does not', () => {
  const num = (t) => Number(t.replace(/[()]/g, '').replace(/\u2212/g, '-'));
  let notes = 0, checked = 0;
  for (const [name, preset] of Object.entries(PRESETS)) {
    for (const step of [null, 'score']) {
      const v = viewOf(preset.config, step);
      for (const m of ['Q', 'K', 'V', 'S', 'A', 'O']) {
        const cols = m === 'S' || m === 'A' ? v.r.m : m === 'V' || m === 'O' ? v.r.dv : v.r.dk;
        const rows = m === 'S' || m === 'A' ? v.r.n : m === 'K' || m === 'V' ? v.r.m : v.r.n;
        for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) {
          const text = explainCell(v, m, i, j).text;
          if (text.includes('…')) continue;
          const where = `${name} ${m}[${i + 1}][${j + 1}]`;
          // a line of terms, "= a + b + c" or "Σ = a + b + c = t", and its total
          for (const [, terms, total] of text.matchAll(/(?:^|\n)(?:= |Σ = )([^\n=×]+ \+ [^\n=×]+?)(?: = |\n= )([−\d.]+)(?=\n|$| \()/g)) {
            checked++;
            const sum = terms.split(' + ').reduce((a, t) => a + num(t), 0);
            if (fmt(sum) === total) continue;
            notes++;
            assert.ok(text.includes(`the terms as printed add to ${fmt(sum)}, not ${total}`), `${where}: ${terms} = ${total} without a word on rounding:\n${text}`);
          }
          // a line of products and the line of their values
          for (const [, products, values] of text.matchAll(/\n= ([^\n]*×[^\n]*)\n= ([^\n×]+ \+ [^\n×]+)\n/g)) {
            const ps = products.split(' + '), vs = values.split(' + ');
            ps.forEach((pr, k) => {
              const [a, b] = pr.split('×').map(num);
              checked++;
              if (fmt(a * b) === vs[k]) return;
              notes++;
              assert.match(text, /\(Every number here is rounded to 3 decimals; the core computes with the unrounded ones, so .*shows as /, `${where}: ${pr} = ${vs[k]} without a word on rounding`);
            });
          }
        }
      }
    }
  }
  assert.ok(checked > 100 && notes > 0, `the presets exercise both cases (${checked} checked, ${notes} with a note)`);
});

test('a sum and products that check by hand as printed carry no note on rounding', () => {
  const v = viewOf({ tokens: ['a', 'b'], Q: [[1, 2], [3, -1]], K: [[2, 0.5], [1, 1]], V: [[2, 4], [6, 8]], scale: 1, causal: false });
  for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) {
    const text = explainCell(v, 'S', i, j).text;
    assert.match(text, /×.* = /, 'a dot product written out');
    assert.doesNotMatch(text, /rounded to 3 decimals/, `S[${i + 1}][${j + 1}]: ${text}`);
  }
});

test('a head with its mask off is likened to the lesson’s worked example only when it is given Q, K and V as that example is', () => {
  const cat = viewOf({ ...PRESETS.cat.config, causal: false }, 'mask');
  assert.equal(narration(cat, 'mask'), '4. Mask. The mask is off here: every token may look at every token.');
  assert.equal(explainCell(cat, 'M', 0, 2).text, 'The mask is off (causal: false): every token may look at every token, so 0 is added to every score.');
  const we = viewOf(PRESETS['worked-example'].config, 'mask');
  assert.match(explainCell(we, 'M', 0, 1).text, /every token may look at every token, as in the lesson’s worked example, so 0 is added/);
});
