// stability.js: the stability lab, pure (no DOM). Lesson: "Softmax implementations subtract the
// row maximum before exponentiating. Do the same if you write your own; large scores overflow
// otherwise." One row of scores grows to the hundreds and thousands; the core computes the
// softmax both ways (attn.softmaxSteps, naive and stable) and the lab shows what comes out,
// including the Infinity and NaN the naive formula really produces.

import { intParam } from './random.js';
import { count, list, noun, verb } from '../blocks/words.js';
import { fmtShort, parseNumber } from '../blocks/format.js';

export const MODE = 'stability-lab';
export const PATTERN = [1, 0.99, 0.5, 0]; // the row is top × PATTERN
export const TOPS = [1, 10, 50, 80, 88, 89, 100, 500, 1000, 5000];
export const MAX_SCORES = 8;
const LIMIT = 1e6; // scores the page accepts in its text box (float32 goes far beyond; no need)
/** @typedef {{ top: number, scores: number[] | null }} StabilityState */
/** @typedef {import('../../types/attention').SoftmaxSteps} Steps */
/** @typedef {ReturnType<typeof computeStability>} Stability */

/** @returns {StabilityState} */
export function defaultState() {
  return { top: 1000, scores: null };
}

/** scores=1000,990,500,0 (a custom row) wins over top=1000 (the top score of the pattern). @param {URLSearchParams} params @returns {StabilityState} */
export function readState(params) {
  const s = defaultState();
  const parsed = parseScores(params.get('scores') ?? '');
  return { top: intParam(params, 'top', -LIMIT, LIMIT, s.top), scores: parsed.ok ? parsed.scores : null };
}

/** @param {StabilityState} s */
export function writeState(s) {
  return s.scores ? { mode: MODE, scores: s.scores.join(',') } : { mode: MODE, top: s.top };
}

/** Parses "1000, 990, 500, 0" into numbers (2..8 of them, each within ±1e6). @param {unknown} text @returns {{ ok: true, scores: number[] } | { ok: false, error: string }} */
export function parseScores(text) {
  const parts = String(text).replace(/\u2212/g, '-').split(/[\s,;]/).filter(Boolean);
  if (parts.length < 2 || parts.length > MAX_SCORES) return { ok: false, error: `Give 2 to ${MAX_SCORES} scores separated by commas, like 1000, 990, 500, 0.` };
  const scores = parts.map(Number);
  const bad = scores.findIndex((x, k) => Number.isNaN(parseNumber(parts[k])) || Math.abs(x) > LIMIT); // 1e999 passes the pattern: Infinity > LIMIT
  if (bad >= 0) return { ok: false, error: `“${parts[bad]}” is not a number between −1000000 and 1000000.` };
  return { ok: true, scores };
}

/** @param {StabilityState} state @returns {number[]} */
export function rowOf(state) {
  return state.scores ? state.scores.slice() : PATTERN.map((p) => p * state.top);
}

const broken = (/** @type {number} */ x) => !Number.isFinite(x);

/** float32's largest finite number, and the score whose exp reaches it (ln of it, 88.72). */
export const F32_MAX = 3.4028234663852886e38;
export const OVERFLOW_SCORE = Math.log(F32_MAX);
/** float32's smallest normal number; below it a number keeps fewer significant bits. */
export const F32_MIN_NORMAL = 1.1754943508222875e-38;
/** expf rounds to 0 below about this score: half of the smallest float32, 2^−150 (−103.97). */
export const UNDERFLOW_SCORE = Math.log(2 ** -150);

/** The row, both softmaxes from the core, and what went wrong where (diagnose). @param {import('../../types/attention').Attention} attn @param {StabilityState} state */
export function computeStability(attn, state) {
  const scores = rowOf(state);
  const naive = attn.softmaxSteps(scores, { naive: true });
  const stable = attn.softmaxSteps(scores);
  const naiveSum = Array.from(naive.weights).reduce((t, w) => t + w, 0);
  const r = {
    scores, naive, stable, naiveSum,
    naiveBroken: broken(naive.sum) || broken(naiveSum), // a NaN or infinite weight makes naiveSum so
    stableSum: Array.from(stable.weights).reduce((t, w) => t + w, 0),
  };
  return { ...r, ...diagnose(r) };
}

/**
 * What happened in the naive softmax of this row, read from the core's per-term results:
 *   kind        'term-overflow'  some exp(s) is past float32's largest number (Infinity)
 *               'sum-overflow'   every term fits but their sum is Infinity (weights become 0)
 *               'all-underflow'  every term is 0, so is the sum, and 0/0 is NaN
 *               'underflow'      some terms are 0 where the stable weight is not: weights lost
 *               'precision'      tiny (subnormal) terms: the weights are off in the shown digits
 *               'differs'        every term fits, but a weight differs by more than AGREE_ULPS
 *                                float32 steps between the two ways (right: which is nearer float64)
 *               'fits'           both ways give the same weights, to within AGREE_ULPS steps
 *   overflow, underflow, nan, zero, lost  the keys (0-based) of each kind of term or weight
 *   (lost: naive weight 0 where the stable one is not); worst: the largest |naive − stable|.
 * @param {{ scores: number[], naive: Steps, stable: Steps }} r
 */
export function diagnose({ scores, naive, stable }) {
  const keys = scores.map((_, j) => j);
  const overflow = keys.filter((j) => naive.terms[j] === Infinity);
  const underflow = keys.filter((j) => naive.terms[j] === 0 && scores[j] !== -Infinity);
  const nan = keys.filter((j) => Number.isNaN(naive.weights[j]));
  const zero = keys.filter((j) => naive.weights[j] === 0);
  const lost = zero.filter((j) => stable.weights[j] > 0);
  const tiny = keys.filter((j) => naive.terms[j] > 0 && naive.terms[j] < F32_MIN_NORMAL);
  let worst = 0;
  for (const j of keys) if (Number.isFinite(naive.weights[j])) worst = Math.max(worst, Math.abs(naive.weights[j] - stable.weights[j]));
  let kind = 'fits';
  const differ = disagreeing(naive.weights, stable.weights);
  if (differ.length) kind = 'differs';
  if (overflow.length) kind = 'term-overflow';
  else if (naive.sum === Infinity) kind = 'sum-overflow';
  else if (naive.sum === 0 && underflow.length) kind = 'all-underflow';
  else if (lost.length) kind = 'underflow';
  else if (tiny.length && worst >= 0.0005) kind = 'precision';
  const right = differ.length ? closerToExact(scores, naive.weights, stable.weights) : null;
  return { kind, overflow, underflow, nan, zero, lost, tiny, worst, differ, right, overflowAt: overflow.length ? overflow[0] : -1, nanCount: nan.length };
}

/** Units in the last place two float32 weights may differ by and still be said to agree. */
export const AGREE_ULPS = 4;
/** The spacing of float32 numbers at x (2^-149 among the subnormals). @param {number} x */
const ulp32 = (x) => (Math.abs(x) < F32_MIN_NORMAL ? 2 ** -149 : 2 ** (Math.floor(Math.log2(Math.abs(x))) - 23));

/**
 * The keys whose two weights, both finite, differ by more than AGREE_ULPS float32 steps: where
 * "both ways agree" would be false. @param {ArrayLike<number>} a @param {ArrayLike<number>} b
 */
export function disagreeing(a, b) {
  const out = [];
  for (let j = 0; j < a.length; j++) {
    if (!Number.isFinite(a[j]) || !Number.isFinite(b[j])) continue;
    if (Math.abs(a[j] - b[j]) > AGREE_ULPS * ulp32(Math.max(Math.abs(a[j]), Math.abs(b[j])))) out.push(j);
  }
  return out;
}

/**
 * Which of two rows of weights is nearer the softmax in float64 (the max-shifted one, exact to
 * double precision): 'naive' or 'stable' ('stable' on a tie).
 * @param {number[]} scores @param {ArrayLike<number>} naive @param {ArrayLike<number>} stable
 */
export function closerToExact(scores, naive, stable) {
  const max = Math.max(...scores);
  const terms = scores.map((x) => Math.exp(x - max)), sum = terms.reduce((t, x) => t + x, 0);
  let dn = 0, ds = 0;
  terms.forEach((t, j) => { dn += Math.abs(naive[j] - t / sum); ds += Math.abs(stable[j] - t / sum); });
  return dn < ds ? 'naive' : 'stable';
}

/** For each top score of TOPS: what the naive softmax of the pattern does. @param {import('../../types/attention').Attention} attn */
export function sweepTops(attn) {
  return TOPS.map((top) => {
    const r = computeStability(attn, { top, scores: null });
    return { top, naiveOk: !r.naiveBroken, kind: r.kind, largestTerm: r.naive.terms[0], stableMax: r.stable.weights[0] };
  });
}

/** The sweep table's words for a kind. @type {Record<string, string>} */
export const KIND_WORDS = {
  'term-overflow': 'a term overflows', 'sum-overflow': 'the sum overflows', 'all-underflow': 'every term underflows', differs: 'the weights differ',
  underflow: 'a term underflows', precision: 'tiny terms lose digits', fits: 'fits',
};

const all = (/** @type {number} */ n) => (n === 2 ? 'Both' : `All ${n}`);
const keyWords = (/** @type {number[]} */ ks) => (ks.length === 1 ? `key ${ks[0] + 1}` : `keys ${list(ks.map((j) => j + 1))}`);
const exps = (/** @type {Stability} */ r, /** @type {number[]} */ ks) => list(uniqueScores(r, ks).map((s) => `exp(${fmtShort(s)})`));
const uniqueScores = (/** @type {Stability} */ r, /** @type {number[]} */ ks) => [...new Set(ks.map((j) => r.scores[j]))];

/** The verdict above the table, from the diagnosis. @param {Stability} r */
export function verdict(r) {
  const { kind, nan, zero, lost } = r;
  if (kind === 'fits') return 'Both ways agree.';
  if (kind === 'differs') return r.right === 'naive' ? `Naive: correct. Stable: ${count(r.differ.length, 'weight')} off.` : `Naive: ${count(r.differ.length, 'weight')} off. Stable: correct.`;
  if (kind === 'precision') return 'Naive: off in the shown digits. Stable: correct.';
  if (kind === 'sum-overflow') return 'Naive: every weight is 0. Stable: correct.'; // a finite term over an infinite sum is 0
  if (kind === 'underflow') return `Naive: ${count(lost.length, 'weight')} lost to underflow. Stable: correct.`;
  const parts = [count(nan.length, 'NaN weight')];
  if (zero.length) parts.push(count(zero.length, 'zero weight'));
  return `Naive: ${list(parts)}. Stable: correct.`;
}

/** The sentences under the table: what happened in this row, then what the stable softmax does. @param {Stability} r @param {(v: number) => string} fmtv */
export function explainStability(r, fmtv) {
  const out = [];
  const n = r.scores.length;
  const top = r.scores.indexOf(Math.max(...r.scores));
  const limit = `float32’s largest number (${fmtv(F32_MAX)}, reached at exp(${fmtShort(OVERFLOW_SCORE)}))`;
  const sumsTo = `the row sums to ${fmtv(r.naiveSum)}, not 1`;
  if (r.kind === 'term-overflow') {
    const others = r.scores.map((_, j) => j).filter((j) => !r.overflow.includes(j));
    out.push(`${exps(r, r.overflow)} ${verb(uniqueScores(r, r.overflow).length, 'is', 'are')} past ${limit}, so the naive ${noun(r.overflow.length, 'term')} of ${keyWords(r.overflow)} ${verb(r.overflow.length, 'is', 'are')} Infinity, and so is the sum. Infinity / Infinity is NaN (“not a number”)${others.length ? `, and a finite term divided by Infinity is 0 (${keyWords(others)})` : ''}. ${r.nan.length === n ? `${all(n)} naive weights are` : `${r.nan.length} of ${n} naive ${noun(n, 'weight')} ${verb(r.nan.length, 'is', 'are')}`} NaN${r.zero.length ? ` and ${r.zero.length} ${verb(r.zero.length, 'is', 'are')} 0` : ''}: ${sumsTo}, and a NaN spreads to everything computed from it.`);
  } else if (r.kind === 'sum-overflow') {
    out.push(`Each term fits in float32 (the largest, exp(${fmtShort(r.scores[top])}) = ${fmtv(r.naive.terms[top])}, is below its largest number, ${fmtv(F32_MAX)}), but their sum does not: it overflows to Infinity, and a finite term divided by Infinity is 0. ${all(n)} naive weights are 0, not NaN: ${sumsTo}.`);
  } else if (r.kind === 'all-underflow') {
    out.push(`Every term underflows: ${exps(r, r.underflow)} ${verb(uniqueScores(r, r.underflow).length, 'is', 'are')} closer to 0 than float32 can hold (exp(s) rounds to 0 for s below about ${fmtShort(UNDERFLOW_SCORE)}), so every term is 0, the sum is 0, and 0 / 0 is NaN (“not a number”). ${all(n)} naive weights are NaN: the row no longer sums to 1.`);
  } else if (r.kind === 'underflow') {
    const shown = r.lost.map((j) => `${fmtv(r.stable.weights[j])} for key ${j + 1}`);
    out.push(`${exps(r, r.lost)} ${verb(uniqueScores(r, r.lost).length, 'underflows', 'underflow')} to 0 in float32 (exp(s) rounds to 0 for s below about ${fmtShort(UNDERFLOW_SCORE)}), so the naive ${noun(r.lost.length, 'weight')} of ${keyWords(r.lost)} ${verb(r.lost.length, 'is', 'are')} 0, while the stable softmax gives ${list(shown)}: a weight lost without any warning.`);
  } else if (r.kind === 'precision') {
    out.push(`${exps(r, r.tiny)} ${verb(uniqueScores(r, r.tiny).length, 'is', 'are')} below float32’s smallest normal number (${fmtv(F32_MIN_NORMAL)}), where a number keeps only a few significant bits, so the naive weights (${r.scores.map((_, j) => fmtv(r.naive.weights[j])).join(', ')}) differ from the stable ones (${r.scores.map((_, j) => fmtv(r.stable.weights[j])).join(', ')}) in the shown digits.`);
  } else if (r.kind === 'differs') {
    const wrong = r.right === 'naive' ? 'stable' : 'naive';
    const at = r.differ.map((j) => `key ${j + 1}: naive ${fmtv(r.naive.weights[j])}, stable ${fmtv(r.stable.weights[j])}`);
    const why = wrong === 'stable'
      ? 'its exp(s − max) fell below float32’s smallest normal number, where a number keeps fewer significant bits, while the naive exp(s) did not'
      : 'its terms or their sum lost bits that the max-shifted terms keep';
    out.push(`Every exp(score) fits in float32, but the two ways give different weights (${at.join('; ')}): more than ${AGREE_ULPS} steps of float32 apart. Worked out in float64, the ${r.right} one is right: ${why}.`);
  } else {
    const sure = r.underflow.length ? ` ${exps(r, r.underflow)} ${verb(uniqueScores(r, r.underflow).length, 'underflows', 'underflow')} to 0, but the true weight is below float32’s range too, so both ways give 0 there.` : '';
    out.push(`Every exp(score) fits in float32 (the largest is exp(${fmtShort(r.scores[top])}) = ${fmtv(r.naive.terms[top])}) and so does their sum (${fmtv(r.naive.sum)}), so both ways agree.${sure} The naive formula breaks when a term passes float32’s largest number (a score above about ${fmtShort(OVERFLOW_SCORE)}), when the sum does, or when every term underflows to 0 (every score below about ${fmtShort(UNDERFLOW_SCORE)}).`);
  }
  out.push(`The stable softmax subtracts the row maximum (${fmtv(r.stable.shift)}) first. Every exponent is then 0 or below, so every term is at most exp(0) = 1 and nothing can overflow; the largest term is exactly 1, so the sum is at least 1 and never 0. The weights are the same, because exp(s − max) = exp(s) · exp(−max) and the factor exp(−max) cancels between the top and the bottom of the fraction. Its weights sum to ${fmtv(r.stableSum)}.`);
  return out;
}
