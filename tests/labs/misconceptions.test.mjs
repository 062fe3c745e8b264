// labs-misconceptions.test.mjs: the misconceptions lab (web/labs/misconceptions.js), word for word
// and number for number. Every expected number is derived by hand from the presets (worked
// in the comments) or quoted from the lesson (tests/lesson/lesson-LM3-T3.txt): the worked
// example's weights [0.401, 0.198, 0.401], [0.198, 0.401, 0.401], [0.248, 0.248, 0.503] and its
// outputs [1.604, 0.797], [1.401, 1.203], [1.759, 1.000].
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { fmt } from '../../web/blocks/format.js';
import { PRESETS } from '../../web/blocks/presets.js';
import {
  MODE, PRESET_CHOICES, VALUE_CHOICES, defaultState, readState, writeState, presetHead,
  wrongAxis, explainWrongAxis, who, diagonal, explainDiagonal, VALUE_ROW, valuesMatter, explainValues,
} from '../../web/labs/misconceptions.js';

const attn = await loadAttention();
const f3 = (xs) => Array.from(xs, fmt);
const rowsOf = (flat, n, m) => Array.from({ length: n }, (_, i) => f3(flat.subarray(i * m, (i + 1) * m)));

// A head the presets cannot give (a zero on the diagonal, two rows equally wrong): the lab's
// sentences are pure functions of the head, so a head with chosen numbers goes through the same
// code. The softmax is the core's.
const headOf = (r) => ({ forward: () => r, softmaxRow: (row) => attn.softmaxRow(row) });

// ---------------------------------------------------------------- URL state

test('misconceptions state: defaults, reading each parameter, and writing it back', () => {
  assert.equal(MODE, 'misconceptions-lab');
  // the menu offers every preset once, the lesson's worked example first (the lab opens on it)
  assert.deepEqual([...PRESET_CHOICES].sort(), Object.keys(PRESETS).sort());
  assert.equal(PRESET_CHOICES[0], 'worked-example');
  assert.deepEqual(VALUE_CHOICES, ['lesson', 'silent']);
  assert.deepEqual(defaultState(), { preset: 'worked-example', values: 'silent' });
  assert.deepEqual(readState(new URLSearchParams('')), { preset: 'worked-example', values: 'silent' });
  assert.deepEqual(readState(new URLSearchParams('preset=cat&values=lesson')), { preset: 'cat', values: 'lesson' });
  assert.deepEqual(readState(new URLSearchParams('preset=previous-token')), { preset: 'previous-token', values: 'silent' });
  assert.deepEqual(readState(new URLSearchParams('preset=no-such-preset&values=loud')), { preset: 'worked-example', values: 'silent' });
  assert.deepEqual(writeState({ preset: 'cat', values: 'lesson' }), { mode: 'misconceptions-lab', preset: 'cat', values: 'lesson' });
});

// ---------------------------------------------------------------- 1. softmax over the wrong axis

test('wrong axis, worked example: S is symmetric and unmasked, so the dim=0 weights are Aᵀ; rows sum to A’s column sums', () => {
  const w = wrongAxis(attn, 'worked-example');
  assert.deepEqual(w.config.tokens, ['1', '2', '3']);
  // The lesson's A, transposed.
  assert.deepEqual(rowsOf(w.wrong, 3, 3), [['0.401', '0.198', '0.248'], ['0.198', '0.401', '0.248'], ['0.401', '0.401', '0.503']]);
  assert.deepEqual(f3(w.colSums), ['1.000', '1.000', '1.000']);
  // 0.401 + 0.198 + 0.248 = 0.847 twice; 0.401 + 0.401 + 0.503 = 1.306 (1.305 from the rounded terms)
  assert.deepEqual(f3(w.rowSums), ['0.847', '0.847', '1.306']);
  assert.deepEqual(f3(w.rightRowSums), ['1.000', '1.000', '1.000']);
  assert.equal(w.worst, 2);
  assert.deepEqual(explainWrongAxis(w, fmt), [
    'softmax(S, dim=0) normalises each column: every column of these weights adds up to 1, and every weight still lies between 0 and 1, so nothing crashes and nothing looks odd.',
    'But a column is one key shared out among the queries. Row 3 (“3”) now adds up to 1.306, not 1, so its output O = A·V is no longer a weighted average of the value rows: it is scaled by 1.306 and can leave their range.',
    'The quick test from the lesson catches it: weights.sum(-1) should be all ones. Here it is [0.847, 0.847, 1.306]; with dim=-1 it is [1.000, 1.000, 1.000].',
  ]);
});

test('wrong axis, cat (causal): masked entries stay exactly 0 and each column shares its key among the queries that see it', () => {
  // Q: The, on, the = [2, 0, 0, 0]; sat = [0, 2, 0, 0]; cat = 0. K: only cat's is non-zero, [1.5, 1.5, 0, 0].
  // Scaled scores (÷ √4): 1.5 on the cat column for The, sat, on, the; 0 elsewhere.
  // Column The: rows 1–5 all 0 → 0.2 each. Column cat: rows 2–5 [0, 1.5, 1.5, 1.5] → e^1.5 = 4.482,
  // sum 14.445 → [0.069, 0.310, 0.310, 0.310]. Column sat: 1/3 each of rows 3–5. Column on: 0.5, 0.5. Column the: 1.
  const w = wrongAxis(attn, 'cat');
  assert.deepEqual(rowsOf(w.wrong, 5, 5), [
    ['0.200', '0.000', '0.000', '0.000', '0.000'],
    ['0.200', '0.069', '0.000', '0.000', '0.000'],
    ['0.200', '0.310', '0.333', '0.000', '0.000'],
    ['0.200', '0.310', '0.333', '0.500', '0.000'],
    ['0.200', '0.310', '0.333', '0.500', '1.000'],
  ]);
  for (let i = 0; i < 5; i++) for (let j = i + 1; j < 5; j++) assert.equal(w.wrong[i * 5 + j], 0, `masked (${i}, ${j})`);
  assert.deepEqual(f3(w.rowSums), ['0.200', '0.269', '0.844', '1.344', '2.344']);
  assert.deepEqual(f3(w.colSums), ['1.000', '1.000', '1.000', '1.000', '1.000']);
  assert.equal(w.worst, 4, 'row 5 (1.344 from 1) is farther than row 1 (0.800 from 1)');
  assert.equal(explainWrongAxis(w, fmt)[1], 'But a column is one key shared out among the queries. Row 5 (“the”) now adds up to 2.344, not 1, so its output O = A·V is no longer a weighted average of the value rows: it is scaled by 2.344 and can leave their range.');
  assert.equal(explainWrongAxis(w, fmt)[2], 'The quick test from the lesson catches it: weights.sum(-1) should be all ones. Here it is [0.200, 0.269, 0.844, 1.344, 2.344]; with dim=-1 it is [1.000, 1.000, 1.000, 1.000, 1.000].');
});

test('wrong axis, previous-token: the first row keeps only its share of the first column', () => {
  // Score 6/√6 = 2.449 from query p on key p − 1; column 1 is seen by all 6 rows, row 2 matches it:
  // row 1's weight (its only one) is 1 / (5 + e^2.449) = 1 / 16.58 = 0.060.
  const w = wrongAxis(attn, 'previous-token');
  assert.equal(fmt(w.rowSums[0]), '0.060');
  assert.equal(w.worst, 5);
  assert.equal(explainWrongAxis(w, fmt)[1], 'But a column is one key shared out among the queries. Row 6 (“was”) now adds up to 2.187, not 1, so its output O = A·V is no longer a weighted average of the value rows: it is scaled by 2.187 and can leave their range.');
});

test('wrong axis: the row named is the one farthest from 1, below as well as above, and the first of a tie', () => {
  // Two queries under the causal mask, all scores 0: column 1 is [0.5, 0.5], column 2 only row 2's, [0, 1].
  // The row sums 0.5 and 1.5 are exactly as far from 1: the first row is named.
  const two = wrongAxis(headOf({ n: 2, m: 2, S: new Float32Array(4), M: new Float32Array([0, -Infinity, 0, 0]), A: new Float32Array([1, 0, 0.5, 0.5]) }), 'worked-example');
  assert.deepEqual(Array.from(two.rowSums), [0.5, 1.5]);
  assert.equal(two.worst, 0);
  assert.match(explainWrongAxis(two, fmt)[1], /^But a column is one key shared out among the queries\. Row 1 \(“1”\) now adds up to 0\.500, not 1,/);
  // Three queries, the first far below 1: S column [−10, 0, 0] puts about 0 on row 1 and 0.5 on rows 2, 3.
  const S = new Float32Array([-10, -10, -10, 0, 0, 0, 0, 0, 0]);
  const low = wrongAxis(headOf({ n: 3, m: 3, S, M: new Float32Array(9), A: new Float32Array(9).fill(1 / 3) }), 'worked-example');
  assert.deepEqual(f3(low.rowSums), ['0.000', '1.500', '1.500']);
  assert.equal(low.worst, 0, 'row 1 is 1.000 from 1, rows 2 and 3 only 0.500');
});

// ---------------------------------------------------------------- 2. the diagonal

test('diagonal, worked example: every diagonal weight is above 0; token 3 leads its row, tokens 1 and 2 tie with token 3', () => {
  const d = diagonal(attn, 'worked-example');
  assert.deepEqual(f3(d.diag), ['0.401', '0.401', '0.503']);
  assert.deepEqual(d.tops, [[0, 2], [1, 2], [2]]);
  assert.deepEqual(explainDiagonal(d, fmt), [
    'A token also attends to itself: 3 of 3 diagonal weights are above 0 (0.401, 0.401, 0.503).',
    'For token 3 the largest weight of the row is on the token itself.',
    'Token 1 gives 0.401 to itself and the same to token 3: a tie for the largest weight of its row, with no single winner.',
    'Token 2 gives 0.401 to itself and the same to token 3: a tie for the largest weight of its row, with no single winner.',
  ]);
});

test('diagonal, cat and previous-token (causal): the first token sees only itself, and the causal sentence says so', () => {
  // cat's A: row 1 is 1; row 2 (“cat”) sees The and cat with score 0 each: 0.500, a tie; rows sat, on, the
  // see the cat key at 1.5 (e^1.5 = 4.482) and 2, 3, 4 others at 0: their diagonals are 1/6.482, 1/7.482, 1/8.482.
  assert.deepEqual(explainDiagonal(diagonal(attn, 'cat'), fmt), [
    'A token also attends to itself: 5 of 5 diagonal weights are above 0 (1.000, 0.500, 0.154, 0.134, 0.118).',
    'For “The” (1) the largest weight of the row is on the token itself.',
    '“cat” (2) gives 0.500 to itself and the same to “The” (1): a tie for the largest weight of its row, with no single winner.',
    'With the causal mask the first token can only see itself, so its diagonal weight is exactly 1.',
  ]);
  // previous-token: row p (p ≥ 2) sees p keys, key p − 1 with e^2.449 = 11.58: its diagonal is 1 / (p − 1 + 11.58).
  const d = diagonal(attn, 'previous-token');
  assert.deepEqual(f3(d.diag), ['1.000', '0.079', '0.074', '0.069', '0.064', '0.060']);
  assert.deepEqual(d.tops, [[0], [0], [1], [2], [3], [4]]);
  assert.deepEqual(explainDiagonal(d, fmt), [
    'A token also attends to itself: 6 of 6 diagonal weights are above 0 (1.000, 0.079, 0.074, 0.069, 0.064, 0.060).',
    'For “once” (1) the largest weight of the row is on the token itself.',
    'With the causal mask the first token can only see itself, so its diagonal weight is exactly 1.',
  ]);
});

test('diagonal: a zero on it is counted out, one weight takes “is”, and a head with no self-led row names none', () => {
  const one = diagonal(headOf({ n: 2, m: 2, A: new Float32Array([0, 1, 0.3, 0.7]), causal: false }), 'worked-example');
  assert.deepEqual(one.tops, [[1], [1]]);
  assert.deepEqual(explainDiagonal(one, fmt), [
    'A token also attends to itself: 1 of 2 diagonal weights is above 0 (0.000, 0.700).',
    'For token 2 the largest weight of the row is on the token itself.',
  ]);
  const none = diagonal(headOf({ n: 2, m: 2, A: new Float32Array([0, 1, 1, 0]), causal: false }), 'cat');
  assert.deepEqual(explainDiagonal(none, fmt), ['A token also attends to itself: 0 of 2 diagonal weights are above 0 (0.000, 0.000).']);
  // a tie that does not include the token itself is not the diagonal's tie
  const other = diagonal(headOf({ n: 3, m: 3, A: new Float32Array([0.2, 0.4, 0.4, 0.1, 0.8, 0.1, 0.1, 0.1, 0.8]), causal: false }), 'worked-example');
  assert.deepEqual(explainDiagonal(other, fmt), [
    'A token also attends to itself: 3 of 3 diagonal weights are above 0 (0.200, 0.800, 0.800).',
    'For token 2 and token 3 the largest weight of the row is on the token itself.',
  ]);
});

test('who: a token named by its number is “token k”; any other is quoted with its position', () => {
  assert.equal(who(['1', '2', '3'], 1), 'token 2');
  assert.equal(who(['The', 'cat'], 1), '“cat” (2)');
  assert.equal(who(['3', '1'], 0), '“3” (token 1)');
});

// ---------------------------------------------------------------- 3. the values matter

test('values, as in the lesson: row 3 of O is 0.248·[1, 0] + 0.248·[0, 2] + 0.503·[3, 1] = [1.759, 1.000], mostly token 3', () => {
  const v = valuesMatter(attn, 'lesson');
  assert.equal(VALUE_ROW, 2);
  assert.equal(v.row, 2);
  assert.equal(v.values, 'lesson');
  assert.deepEqual(rowsOf(v.r.V, 3, 2), [['1.000', '0.000'], ['0.000', '2.000'], ['3.000', '1.000']]);
  assert.deepEqual(rowsOf(v.r.O, 3, 2), [['1.604', '0.797'], ['1.401', '1.203'], ['1.759', '1.000']]);
  assert.deepEqual(v.contributions.map((c) => [c.j, fmt(c.weight), f3(c.value), f3(c.part), fmt(c.size)]), [
    [0, '0.248', ['1.000', '0.000'], ['0.248', '0.000'], '0.248'],
    [1, '0.248', ['0.000', '2.000'], ['0.000', '0.497'], '0.497'],
    // 0.5035·3 = 1.510, 0.5035·1 = 0.503; |[1.510, 0.503]| = 1.592
    [2, '0.503', ['3.000', '1.000'], ['1.510', '0.503'], '1.592'],
  ]);
  assert.deepEqual(explainValues(v, fmt), [
    'Token 3 puts its largest weight, 0.503, on token 3.',
    'Here its value [3.000, 1.000] also contributes most to the output. Switch to “token 3’s value is zero” to see a large weight that moves nothing.',
    'The weights say how the output at one position mixes the values of the others. They are one part of the computation, not a full explanation: the values (and later layers) matter too.',
  ]);
});

test('values, token 3 silent: the same weights, but the 0.503 on token 3 moves nothing; the output [0.248, 0.497] is mostly token 2', () => {
  const v = valuesMatter(attn, 'silent');
  assert.deepEqual(rowsOf(v.r.A, 3, 3)[2], ['0.248', '0.248', '0.503']);
  assert.deepEqual(rowsOf(v.r.V, 3, 2), [['1.000', '0.000'], ['0.000', '2.000'], ['0.000', '0.000']]);
  // O = A·V with V row 3 zero: row 3 = 0.248·[1, 0] + 0.248·[0, 2] = [0.248, 0.497]
  assert.deepEqual(rowsOf(v.r.O, 3, 2)[2], ['0.248', '0.497']);
  assert.deepEqual(v.contributions.map((c) => [fmt(c.weight), f3(c.part), fmt(c.size)]), [
    ['0.248', ['0.248', '0.000'], '0.248'], ['0.248', ['0.000', '0.497'], '0.497'], ['0.503', ['0.000', '0.000'], '0.000'],
  ]);
  assert.deepEqual(explainValues(v, fmt), [
    'Token 3 puts its largest weight, 0.503, on token 3.',
    'Yet token 3’s value is [0.000, 0.000], so it adds [0.000, 0.000] to the output: nothing. The output [0.248, 0.497] comes mostly from token 2 (weight 0.248).',
    'The weights say how the output at one position mixes the values of the others. They are one part of the computation, not a full explanation: the values (and later layers) matter too.',
  ]);
  // The lesson's value rows are not changed by the silent case.
  assert.deepEqual(rowsOf(valuesMatter(attn, 'lesson').r.V, 3, 2)[2], ['3.000', '1.000']);
});

test('presetHead: the preset’s config and the core’s forward pass of it', () => {
  const { config, r } = presetHead(attn, 'worked-example');
  assert.deepEqual(config.tokens, ['1', '2', '3']);
  assert.equal(config.causal, false);
  assert.deepEqual(rowsOf(r.A, 3, 3), [['0.401', '0.198', '0.401'], ['0.198', '0.401', '0.401'], ['0.248', '0.248', '0.503']]);
});
