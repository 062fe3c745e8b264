// stability.js: the stability lab, pure (no DOM). Lesson: "Softmax implementations subtract the
// row maximum before exponentiating. Do the same if you write your own; large scores overflow
// otherwise." One row of scores grows to the hundreds and thousands; the core computes the
// softmax both ways (attn.softmaxSteps, naive and stable) and the lab shows what comes out,
// including the Infinity and NaN the naive formula really produces.

import { intParam } from './random.js';

export const MODE = 'stability-lab';
export const PATTERN = [1, 0.99, 0.5, 0]; // the row is top × PATTERN
export const TOPS = [1, 10, 50, 80, 88, 89, 100, 500, 1000, 5000];
export const MAX_SCORES = 8;
const LIMIT = 1e6; // scores the page accepts in its text box (float32 goes far beyond; no need)

export function defaultState() {
  return { top: 1000, scores: null };
}

/** scores=1000,990,500,0 (a custom row) wins over top=1000 (the top score of the pattern). */
export function readState(params) {
  const s = defaultState();
  const parsed = parseScores(params.get('scores') ?? '');
  return { top: intParam(params, 'top', -LIMIT, LIMIT, s.top), scores: parsed.ok ? parsed.scores : null };
}

export function writeState(s) {
  return s.scores ? { mode: MODE, scores: s.scores.join(',') } : { mode: MODE, top: s.top };
}

/** Parses "1000, 990, 500, 0" into numbers (2..8 of them, each within ±1e6). */
export function parseScores(text) {
  const parts = String(text).replace(/\u2212/g, '-').split(/[\s,;]+/).filter(Boolean);
  if (parts.length < 2 || parts.length > MAX_SCORES) return { ok: false, error: `Give 2 to ${MAX_SCORES} scores separated by commas, like 1000, 990, 500, 0.` };
  const scores = parts.map(Number);
  const bad = scores.findIndex((x, k) => !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(parts[k]) || !Number.isFinite(x) || Math.abs(x) > LIMIT);
  if (bad >= 0) return { ok: false, error: `“${parts[bad]}” is not a number between −1000000 and 1000000.` };
  return { ok: true, scores };
}

export function rowOf(state) {
  return state.scores ? state.scores.slice() : PATTERN.map((p) => p * state.top);
}

const broken = (x) => !Number.isFinite(x);

/** The row, both softmaxes from the core, and what went wrong where. */
export function computeStability(attn, state) {
  const scores = rowOf(state);
  const naive = attn.softmaxSteps(scores, { naive: true });
  const stable = attn.softmaxSteps(scores);
  const naiveBroken = Array.from(naive.weights).some(broken) || broken(naive.sum);
  const overflowAt = Array.from(naive.terms).findIndex((t) => t === Infinity);
  return {
    scores, naive, stable, naiveBroken, overflowAt,
    nanCount: Array.from(naive.weights).filter(Number.isNaN).length,
    stableSum: Array.from(stable.weights).reduce((t, w) => t + w, 0),
  };
}

/** For each top score of TOPS: does the naive softmax of the pattern still give finite weights? */
export function sweepTops(attn) {
  return TOPS.map((top) => {
    const r = computeStability(attn, { top, scores: null });
    return { top, naiveOk: !r.naiveBroken, largestTerm: r.naive.terms[0], stableMax: r.stable.weights[0] };
  });
}

/** The sentences under the table. */
export function explainStability(r, fmtv) {
  const out = [];
  const top = Math.max(...r.scores);
  if (r.naiveBroken) {
    const s = r.scores[r.overflowAt];
    out.push(`exp(${fmtv(s)}) is past float32’s largest number (about 3.4 × 10³⁸, reached near exp(88.7)), so the naive formula gets Infinity; the sum is Infinity too, and Infinity / Infinity is NaN (“not a number”). ${r.nanCount} of ${r.scores.length} naive weights are NaN: the row no longer sums to 1, and a NaN spreads to everything computed from it.`);
  } else {
    out.push(`Every exp(score) still fits in float32 (the largest is exp(${fmtv(top)}) = ${fmtv(r.naive.terms[r.scores.indexOf(top)])}), so both ways agree. Push the top score past about 88.7 and the naive one breaks.`);
  }
  out.push(`The stable softmax subtracts the row maximum (${fmtv(r.stable.shift)}) first. Every exponent is then 0 or below, so every term is at most exp(0) = 1 and nothing can overflow. The weights are the same, because exp(s − max) = exp(s) · exp(−max) and the factor exp(−max) cancels between the top and the bottom of the fraction. Its weights sum to ${fmtv(r.stableSum)}.`);
  return out;
}
