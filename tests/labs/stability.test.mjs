// labs-stability.test.mjs: the stability lab's pure module (web/labs/stability.js): its URL state,
// the scores box's parser and its messages, the diagnosis of a naive softmax read from the core's
// per-term results (with its boundaries on hand-made rows), the verdict and every sentence under
// the table, word for word, for rows the core really computes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { fmtFine } from '../../web/blocks/format.js';
import {
  disagreeing,
  readState, writeState, defaultState, parseScores, rowOf, computeStability, diagnose, sweepTops, verdict, explainStability,
  MODE, PATTERN, TOPS, MAX_SCORES, F32_MAX, F32_MIN_NORMAL, OVERFLOW_SCORE, UNDERFLOW_SCORE, KIND_WORDS,
} from '../../web/labs/stability.js';

const attn = await loadAttention();
const fmtv = (v) => (Number.isNaN(v) ? 'NaN' : fmtFine(v)); // the view's formatter
const stab = (scores) => computeStability(attn, { top: 1000, scores });
const say = (scores) => explainStability(stab(scores), fmtv);

// The closing sentence, the same for every row but for the shift and the sum.
const stable = (shift, sum) => `The stable softmax subtracts the row maximum (${shift}) first. Every exponent is then 0 or below, so every term is at most exp(0) = 1 and nothing can overflow; the largest term is exactly 1, so the sum is at least 1 and never 0. The weights are the same, because exp(s − max) = exp(s) · exp(−max) and the factor exp(−max) cancels between the top and the bottom of the fraction. Its weights sum to ${sum}.`;
const BREAKS = 'The naive formula breaks when a term passes float32’s largest number (a score above about 88.723), when the sum does, or when every term underflows to 0 (every score below about −103.972).';
const LIMIT_WORDS = 'float32’s largest number (3.40e38, reached at exp(88.723))';

// ---------------------------------------------------------------- URL state and the scores box

test('stability state: top within ±1e6, a custom row of scores wins, and each goes back into the URL', () => {
  const read = (q) => readState(new URLSearchParams(q));
  assert.deepEqual(defaultState(), { top: 1000, scores: null });
  assert.deepEqual(read(''), { top: 1000, scores: null });
  assert.deepEqual(read('top=50'), { top: 50, scores: null });
  assert.deepEqual(read('top=2000000'), { top: 1000000, scores: null });
  assert.deepEqual(read('top=-2000000'), { top: -1000000, scores: null });
  assert.deepEqual(read('scores=1,2'), { top: 1000, scores: [1, 2] });
  assert.deepEqual(read('top=88&scores=1000,%E2%88%92990,5'), { top: 88, scores: [1000, -990, 5] });
  assert.deepEqual(read('scores=1'), { top: 1000, scores: null }, 'one score is not a row: the pattern instead');
  assert.deepEqual(read('scores=1,x'), { top: 1000, scores: null });
  assert.deepEqual(writeState({ top: 88, scores: null }), { mode: MODE, top: 88 });
  assert.deepEqual(writeState({ top: 88, scores: [1, -2.5] }), { mode: 'stability-lab', scores: '1,-2.5' });
});

test('parseScores: 2 to 8 numbers separated by commas, semicolons or spaces, − or -, decimals and exponents', () => {
  for (const [text, want] of [
    ['1000, 990, 500, 0', [1000, 990, 500, 0]], [' 1,2 ', [1, 2]], ['1;2', [1, 2]], ['1\t2\n3', [1, 2, 3]], [',1,,2,', [1, 2]],
    ['−5, 5', [-5, 5]], ['12.5, .25, 1., +3', [12.5, 0.25, 1, 3]], ['1e5, 1e-5, 2.5E-10, 1e+2', [1e5, 1e-5, 2.5e-10, 100]],
    ['1000000, -1000000', [1e6, -1e6]], ['1 2 3 4 5 6 7 8', [1, 2, 3, 4, 5, 6, 7, 8]],
  ]) assert.deepEqual(parseScores(text), { ok: true, scores: want }, text);
  assert.equal(MAX_SCORES, 8);
  const count = { ok: false, error: 'Give 2 to 8 scores separated by commas, like 1000, 990, 500, 0.' };
  for (const text of ['', '1', ' , ', '1 2 3 4 5 6 7 8 9']) assert.deepEqual(parseScores(text), count, JSON.stringify(text));
  for (const [text, word] of [
    ['x, 1', 'x'], ['1, x, y', 'x'], ['1, 0x10', '0x10'], ['0b11, 1', '0b11'], ['1, 1000001', '1000001'], ['1, -2000000', '-2000000'],
    ['1, 1e7', '1e7'], ['1, 1e999', '1e999'], ['1, Infinity', 'Infinity'], ['1, 1e', '1e'], ['1, .', '.'], ['1, 1.2.3', '1.2.3'], ['1, -', '-'], ['1, NaN', 'NaN'],
  ]) assert.deepEqual(parseScores(text), { ok: false, error: `“${word}” is not a number between −1000000 and 1000000.` }, text);
});

test('rowOf: the pattern top × [1, 0.99, 0.5, 0], or a copy of the custom row', () => {
  assert.deepEqual(PATTERN, [1, 0.99, 0.5, 0]);
  assert.deepEqual(rowOf({ top: 100, scores: null }), [100, 99, 50, 0]);
  assert.deepEqual(rowOf({ top: -10, scores: null }), [-10, -9.9, -5, -0]);
  const state = { top: 100, scores: [3, 1] };
  const row = rowOf(state);
  assert.deepEqual(row, [3, 1]);
  row.push(7);
  assert.deepEqual(state.scores, [3, 1], 'the state’s row is not the one handed out');
});

// ---------------------------------------------------------------- the diagnosis

test('computeStability: the sums of both rows of weights and whether the naive one broke, for every kind', () => {
  const fits = stab([1, 2]);
  assert.equal(fits.kind, 'fits');
  assert.equal(fits.naiveBroken, false);
  assert.ok(Math.abs(fits.naiveSum - 1) < 1e-6 && Math.abs(fits.stableSum - 1) < 1e-6, `${fits.naiveSum}, ${fits.stableSum}`);
  assert.ok(fits.worst < 1e-6, `worst ${fits.worst}`);
  assert.deepEqual([fits.overflowAt, fits.nanCount, fits.overflow, fits.underflow, fits.nan, fits.zero, fits.lost, fits.tiny], [-1, 0, [], [], [], [], [], []]);
  const sum = stab([88.5, 88.5, 88.5]);
  assert.deepEqual([sum.kind, sum.naiveBroken, sum.naiveSum, sum.zero, sum.lost, sum.nanCount], ['sum-overflow', true, 0, [0, 1, 2], [0, 1, 2], 0]);
  assert.ok(Math.abs(sum.worst - 1 / 3) < 1e-6, 'a weight of 1/3 lost');
  const over = stab([1000, 0, 0]);
  assert.deepEqual([over.kind, over.naiveBroken, over.overflow, over.overflowAt, over.nan, over.nanCount, over.zero, over.lost], ['term-overflow', true, [0], 0, [0], 1, [1, 2], []]);
  assert.ok(Number.isNaN(over.naiveSum));
  assert.equal(over.worst, 0, 'NaN weights are left out of the worst difference; the zeros are right (exp(−1000) is 0 in float32 too)');
  const second = stab([1, 90]);
  assert.deepEqual([second.overflow, second.overflowAt, second.nan], [[1], 1, [1]]);
  const under = stab([-1000, -2000]);
  assert.deepEqual([under.kind, under.naiveBroken, under.underflow, under.nanCount], ['all-underflow', true, [0, 1], 2]);
  assert.ok(Number.isNaN(under.naiveSum) && under.stableSum === 1);
  const lost = stab([-90, -110, -120]);
  assert.deepEqual([lost.kind, lost.naiveBroken, lost.underflow, lost.zero, lost.lost, lost.tiny], ['underflow', false, [1, 2], [1, 2], [1, 2], [0]]);
  const tiny = stab([-100, -101]);
  assert.deepEqual([tiny.kind, tiny.tiny, tiny.lost], ['precision', [0, 1], []]);
  assert.ok(tiny.worst > 0.001 && tiny.worst < 0.002, `worst ${tiny.worst}`);
});

test('diagnose: a score of −∞ (a removed key) is not an underflow; a 0 that is 0 both ways is not lost; a tiny term alone is not an error', () => {
  const masked = stab([0, -Infinity]);
  assert.deepEqual([masked.kind, masked.underflow, masked.zero, masked.lost, masked.tiny], ['fits', [], [1], [], []]);
  const both = stab([0, -200]);
  assert.deepEqual([both.kind, both.underflow, both.zero, both.lost, both.tiny], ['fits', [1], [1], [], []]);
  const small = stab([0, -100]); // exp(−100) is a subnormal float32, 3.78e−44, but its weight is right to the shown digits
  assert.deepEqual([small.kind, small.tiny, small.underflow], ['fits', [1], []]);
});

test('diagnose on hand-made rows: the smallest normal float32 and a worst difference of 0.0005 are the boundaries', () => {
  const row = (terms, weights, stableWeights, sum = 1) => diagnose({ scores: terms.map(() => 0), naive: { terms, weights, sum }, stable: { weights: stableWeights } });
  assert.deepEqual(row([1, F32_MIN_NORMAL], [1, 0], [1, 0]).tiny, [], 'the smallest normal number is not tiny');
  assert.deepEqual(row([1, F32_MIN_NORMAL / 2], [1, 0], [1, 0]).tiny, [1]);
  assert.deepEqual(row([1, 0], [1, 0], [1, 0]).tiny, [], '0 is not a tiny term');
  const at = row([1, 1e-40], [1, 0.0005], [1, 0]);
  assert.deepEqual([at.kind, at.worst, at.tiny], ['precision', 0.0005, [1]]);
  assert.equal(row([1, 1e-40], [1, 0.0004999], [1, 0]).kind, 'differs', 'below the precision case, but not the same weights: not “both ways agree”');
  assert.equal(row([1, 1e-30], [1, 0.001], [1, 0]).kind, 'differs', 'off by 0.001 without a tiny term: not the precision case, and not agreeing');
  assert.equal(row([1, 1e-30], [1, 1e-30], [1, 1e-30]).kind, 'fits');
  assert.equal(row([1, 0], [1, 0], [1, 1e-9]).kind, 'underflow');
  assert.equal(row([1, 0], [1, 0], [1, 1e-9], 0).kind, 'all-underflow');
  assert.equal(row([1, 1], [0, 0], [0.5, 0.5], Infinity).kind, 'sum-overflow');
  assert.deepEqual(row([Infinity, 1], [NaN, 0], [1, 0], Infinity).overflowAt, 0);
});

// Issue 26, error 4: "Both ways agree" was said at top = 88 and for scores 0, −95, where the core's
// stable exp flushed exp(−88) and exp(−95) to 0 and the naive one did not. "Agree" is now a
// condition on the numbers (disagreeing: more than AGREE_ULPS float32 steps apart).
test('“both ways agree” is said exactly when every weight agrees to within a few float32 steps; otherwise which one is right and why', () => {
  for (const st of [...TOPS.map((top) => ({ top, scores: null })), ...[[0, -88], [0, -95], [0, -100], [0, -103.9], [0, -104], [3, 2, -90]].map((scores) => ({ top: 0, scores }))]) {
    const r = computeStability(attn, st);
    const agree = disagreeing(r.naive.weights, r.stable.weights).length === 0 && !r.naiveBroken;
    const said = explainStability(r, fmtv)[0].includes('both ways agree');
    assert.equal(said, agree && r.kind === 'fits', `${JSON.stringify(st)}: ${r.kind}, naive ${Array.from(r.naive.weights)}, stable ${Array.from(r.stable.weights)}`);
    assert.equal(verdict(r) === 'Both ways agree.', said);
  }
  // the two rows, with the core's exp now following float32: the same weights both ways
  for (const st of [{ top: 88, scores: null }, { top: 0, scores: [0, -95] }]) {
    const r = computeStability(attn, st);
    assert.equal(r.kind, 'fits', JSON.stringify(st));
    assert.ok(r.stable.weights[r.stable.weights.length - 1] > 0, 'the stable weight is float32’s subnormal, not 0');
  }
  // a hand-made row where the stable way lost its tiny weight (as the old core did at −95)
  const lostStable = diagnose({ scores: [0, -95], naive: { terms: [1, 5.52e-42], weights: [1, 5.52e-42], sum: 1 }, stable: { weights: [1, 0] } });
  assert.deepEqual([lostStable.kind, lostStable.differ, lostStable.right], ['differs', [1], 'naive']);
  const both = { scores: [0, -95], naive: { terms: [1, 5.52e-42], weights: [1, 5.52e-42], sum: 1 }, stable: { weights: [1, 0], shift: 0 }, naiveSum: 1, stableSum: 1, naiveBroken: false };
  const r = /** @type {any} */ ({ ...both, ...lostStable });
  assert.equal(verdict(r), 'Naive: correct. Stable: 1 weight off.');
  assert.match(explainStability(r, fmtv)[0], /^Every exp\(score\) fits in float32, but the two ways give different weights \(key 2: naive 5\.52e−42, stable 0\.000\): more than 4 steps of float32 apart\. Worked out in float64, the naive one is right: its exp\(s − max\) fell below/);
  // and the other way round
  const lostNaive = diagnose({ scores: [0, 0], naive: { terms: [1, 1], weights: [0.5, 0.4], sum: 2 }, stable: { weights: [0.5, 0.5] } });
  assert.deepEqual([lostNaive.kind, lostNaive.right], ['differs', 'stable']);
  assert.equal(verdict(/** @type {any} */ (lostNaive)), 'Naive: 1 weight off. Stable: correct.');
});

test('sweepTops: one line per top score of the pattern; the naive softmax fits up to 88 and breaks from 89', () => {
  const sw = sweepTops(attn);
  assert.deepEqual(TOPS, [1, 10, 50, 80, 88, 89, 100, 500, 1000, 5000]);
  assert.deepEqual(sw.map((x) => x.top), TOPS);
  assert.deepEqual(sw.map((x) => x.naiveOk), [true, true, true, true, true, false, false, false, false, false]);
  assert.deepEqual(sw.map((x) => KIND_WORDS[x.kind]), ['fits', 'fits', 'fits', 'fits', 'fits', 'a term overflows', 'a term overflows', 'a term overflows', 'a term overflows', 'a term overflows']);
  const at = (top) => sw.find((x) => x.top === top);
  assert.equal(fmtv(at(10).largestTerm), '22026.465');
  assert.equal(at(100).largestTerm, Infinity);
  assert.ok(Math.abs(at(1000).stableMax - 1 / (1 + Math.exp(-10))) < 1e-6);
});

// ---------------------------------------------------------------- verdicts and sentences

test('stability words: a row that fits, with and without an exp that underflows to a true 0', () => {
  assert.equal(verdict(stab([1, 2])), 'Both ways agree.');
  assert.deepEqual(say([1, 2]), [
    `Every exp(score) fits in float32 (the largest is exp(2) = 7.389) and so does their sum (10.107), so both ways agree. ${BREAKS}`,
    stable('2.000', '1.000'),
  ]);
  assert.equal(say([0, -200])[0], `Every exp(score) fits in float32 (the largest is exp(0) = 1.000) and so does their sum (1.000), so both ways agree. exp(−200) underflows to 0, but the true weight is below float32’s range too, so both ways give 0 there. ${BREAKS}`);
  assert.match(say([0, -200, -300])[0], / exp\(−200\) and exp\(−300\) underflow to 0, but the true weight is below float32’s range too/);
  assert.equal(say([0, -Infinity])[0], `Every exp(score) fits in float32 (the largest is exp(0) = 1.000) and so does their sum (1.000), so both ways agree. ${BREAKS}`);
  assert.match(say([-5, 3, 1])[0], /^Every exp\(score\) fits in float32 \(the largest is exp\(3\) = 20\.086\) and so does their sum \(22\.811\)/);
});

test('stability words: terms past float32’s largest number, for one and several keys and scores', () => {
  const two = stab([1000, 1000]);
  assert.equal(verdict(two), 'Naive: 2 NaN weights. Stable: correct.');
  assert.deepEqual(explainStability(two, fmtv), [
    `exp(1000) is past ${LIMIT_WORDS}, so the naive terms of keys 1 and 2 are Infinity, and so is the sum. Infinity / Infinity is NaN (“not a number”). Both naive weights are NaN: the row sums to NaN, not 1, and a NaN spreads to everything computed from it.`,
    stable('1000.000', '1.000'),
  ]);
  const one = stab([1000, 0, 0]);
  assert.equal(verdict(one), 'Naive: 1 NaN weight and 2 zero weights. Stable: correct.');
  assert.equal(explainStability(one, fmtv)[0], `exp(1000) is past ${LIMIT_WORDS}, so the naive term of key 1 is Infinity, and so is the sum. Infinity / Infinity is NaN (“not a number”), and a finite term divided by Infinity is 0 (keys 2 and 3). 1 of 3 naive weights is NaN and 2 are 0: the row sums to NaN, not 1, and a NaN spreads to everything computed from it.`);
  assert.match(say([1000, 500, 100])[0], /^exp\(1000\), exp\(500\) and exp\(100\) are past .*, so the naive terms of keys 1, 2 and 3 are Infinity, and so is the sum\. Infinity \/ Infinity is NaN \(“not a number”\)\. All 3 naive weights are NaN: the row sums to NaN, not 1,/);
  assert.match(say([100, 90, 1])[0], /^exp\(100\) and exp\(90\) are past .*, so the naive terms of keys 1 and 2 are Infinity, .* is 0 \(key 3\)\. 2 of 3 naive weights are NaN and 1 is 0: /);
});

test('stability words: each term fits but the sum overflows; every weight is 0', () => {
  const r = stab([88.5, 88.5, 88.5]);
  assert.equal(verdict(r), 'Naive: every weight is 0. Stable: correct.');
  assert.deepEqual(explainStability(r, fmtv), [
    'Each term fits in float32 (the largest, exp(88.5) = 2.72e38, is below its largest number, 3.40e38), but their sum does not: it overflows to Infinity, and a finite term divided by Infinity is 0. All 3 naive weights are 0, not NaN: the row sums to 0.000, not 1.',
    stable('88.500', '1.000'),
  ]);
  assert.match(say([88, 88.6])[0], /^Each term fits in float32 \(the largest, exp\(88\.6\) = 3\.\d\de38, is below .* Both naive weights are 0, not NaN: the row sums to 0\.000, not 1\.$/);
});

test('stability words: every term underflows, the sum is 0 and 0/0 is NaN', () => {
  const r = stab([-1000, -2000]);
  assert.equal(verdict(r), 'Naive: 2 NaN weights. Stable: correct.');
  assert.deepEqual(explainStability(r, fmtv), [
    'Every term underflows: exp(−1000) and exp(−2000) are closer to 0 than float32 can hold (exp(s) rounds to 0 for s below about −103.972), so every term is 0, the sum is 0, and 0 / 0 is NaN (“not a number”). Both naive weights are NaN: the row no longer sums to 1.',
    stable('−1000.000', '1.000'),
  ]);
  assert.match(say([-1000, -1000, -1000])[0], /^Every term underflows: exp\(−1000\) is closer to 0 .* All 3 naive weights are NaN: the row no longer sums to 1\.$/);
  assert.equal(verdict(stab([-1000, -1000, -1000])), 'Naive: 3 NaN weights. Stable: correct.');
});

test('stability words: weights lost to underflow, one and two of them, agreeing in number', () => {
  const one = stab([-90, -110]);
  assert.equal(verdict(one), 'Naive: 1 weight lost to underflow. Stable: correct.');
  assert.equal(explainStability(one, fmtv)[0], 'exp(−110) underflows to 0 in float32 (exp(s) rounds to 0 for s below about −103.972), so the naive weight of key 2 is 0, while the stable softmax gives 2.06e−9 for key 2: a weight lost without any warning.');
  const two = stab([-90, -110, -120]);
  assert.equal(verdict(two), 'Naive: 2 weights lost to underflow. Stable: correct.');
  assert.equal(explainStability(two, fmtv)[0], 'exp(−110) and exp(−120) underflow to 0 in float32 (exp(s) rounds to 0 for s below about −103.972), so the naive weights of keys 2 and 3 are 0, while the stable softmax gives 2.06e−9 for key 2 and 9.36e−14 for key 3: a weight lost without any warning.');
  assert.match(say([-90, -110, -110])[0], /^exp\(−110\) underflows to 0 in float32 .* the naive weights of keys 2 and 3 are 0, while the stable softmax gives 2\.06e−9 for key 2 and 2\.06e−9 for key 3:/);
  assert.equal(explainStability(one, fmtv)[1], stable('−90.000', '1.000'));
});

test('stability words: tiny (subnormal) terms that put the weights off in the shown digits', () => {
  const r = stab([-100, -101]);
  assert.equal(verdict(r), 'Naive: off in the shown digits. Stable: correct.');
  assert.equal(explainStability(r, fmtv)[0], 'exp(−100) and exp(−101) are below float32’s smallest normal number (1.18e−38), where a number keeps only a few significant bits, so the naive weights (0.730, 0.270) differ from the stable ones (0.731, 0.269) in the shown digits.');
  // One tiny score (of two keys that share it): “is”.
  assert.match(explainStability({ ...r, tiny: [1] }, fmtv)[0], /^exp\(−101\) is below float32’s smallest normal number/);
});

test('stability constants: float32’s limits and the scores where exp reaches them', () => {
  assert.equal(F32_MAX, 2 ** 128 - 2 ** 104);
  assert.equal(F32_MIN_NORMAL, 2 ** -126);
  assert.ok(Math.abs(OVERFLOW_SCORE - 88.7228) < 1e-4);
  assert.ok(Math.abs(UNDERFLOW_SCORE - -150 * Math.LN2) < 1e-12);
});
