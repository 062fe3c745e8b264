// predict.js: predict, then reveal. Pure (no DOM). The learner hides a matrix of a preset,
// types a guess for one cell or one row, and reveals: the score says how close the guess was and
// the explanation is the explorer's own (web/blocks/explain.js). The lesson's three knowledge-check
// questions are built-in exercises whose answers come from the core, with the lesson's
// explanations.

import { PRESETS } from '../blocks/presets.js';
import { parseConfig, forwardArgs } from '../blocks/config.js';
import { explainCell, followSentence, displayed, matrixInfo } from '../blocks/explain.js';
import { parseNumber, fmt } from '../blocks/format.js';
import { count as countWords, list } from '../blocks/words.js';
import { intParam, oneOf } from './random.js';
import { computeSqrtDk } from './sqrtdk.js';

/** @typedef {import('../../types/attention').Attention} Attention @typedef {import('../../types/export').View} View */
/** @typedef {import('./lab-types').PredictState} PredictState @typedef {import('./lab-types').Exercise} Exercise */

export const MODE = 'predict-lab';
/** Every preset, in the order of web/blocks/presets.js. @type {PredictState['preset'][]} */
export const PRESET_CHOICES = /** @type {PredictState['preset'][]} */ (Object.keys(PRESETS));
/** @type {PredictState['hide'][]} */
export const HIDE_CHOICES = ['A', 'S', 'O'];
/** @type {PredictState['target'][]} */
export const TARGETS = ['cell', 'row'];
/** @type {PredictState['exercise'][]} */
export const EXERCISE_CHOICES = ['', 'q1', 'q2', 'q3'];

/** @returns {PredictState} */
export function defaultState() {
  return { preset: 'cat', hide: 'A', target: 'cell', row: 4, col: 1, exercise: '' };
}
/** @param {URLSearchParams} params @returns {PredictState} */
export function readState(params) {
  const d = defaultState();
  return {
    preset: oneOf(params, 'preset', PRESET_CHOICES, d.preset),
    hide: oneOf(params, 'hide', HIDE_CHOICES, d.hide),
    target: oneOf(params, 'target', TARGETS, d.target),
    row: intParam(params, 'row', 0, 255, d.row),
    col: intParam(params, 'col', 0, 255, d.col),
    exercise: oneOf(params, 'exercise', EXERCISE_CHOICES, d.exercise),
  };
}
/** @param {PredictState} s */
export function writeState(s) {
  const o = { mode: MODE };
  if (s.exercise) return { ...o, exercise: s.exercise };
  return { ...o, preset: s.preset, hide: s.hide, target: s.target, row: s.row, ...(s.target === 'cell' ? { col: s.col } : {}) };
}

/** The preset's head and the explorer's view of it (as web/blocks/explain.js expects). @param {Attention} attn @param {PredictState['preset']} preset @returns {View} */
export function presetView(attn, preset) {
  const config = parseConfig(PRESETS[preset].config);
  const r = attn.forward(forwardArgs(config));
  const raw = attn.forward(forwardArgs(config, 1), { outputs: ['S'] }); // the Score step's unscaled Q·Kᵀ
  return { config, r, raw, step: null };
}

/** The hidden values: one cell or one row of the matrix as the explorer shows it. @param {View} view @param {PredictState} s */
export function target(view, { hide, target: kind, row, col }) {
  const info = matrixInfo(view, hide);
  const i = Math.min(row, info.rows - 1), j = Math.min(col, info.cols - 1);
  const all = displayed(view, hide);
  const values = kind === 'row' ? Array.from(all.subarray(i * info.cols, (i + 1) * info.cols)) : [all[i * info.cols + j]];
  let lo = Infinity, hi = -Infinity;
  for (const v of all) if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  return { m: hide, kind, i, j, values, info, range: hide === 'A' ? 1 : Math.max(hi - lo, 1e-6) };
}

/**
 * The rule parseGuess reads by, said next to the guess box: comma, semicolon and white space
 * separate numbers, "." is the decimal point (so "0,125" is two numbers, 0 and 125, never a
 * decimal 0.125 or a thousands separator).
 * @param {number} n how many numbers the box wants
 */
export function guessRule(n) {
  return `${n > 1 ? `Type ${n} numbers, separated by spaces, commas or semicolons` : 'Type one number'}; “.” is the decimal point${n > 1 ? '' : ' (a comma would start a second number)'}.`;
}

/** A number as it was read, in full (not rounded to the page's 3 decimals): −0.125, 1000, −∞. @param {number} v */
const asRead = (v) => (v === -Infinity ? '−∞' : String(v).replace('-', '−'));

/**
 * Reads a guess of `count` numbers by guessRule: "0.5, 0.25 0.25", "0.5;0.25"; "−∞" or "-inf" for
 * a masked score. `read` says what was read ("Read as 2 numbers: 0 and 25."), so a learner who
 * meant a decimal comma sees it; a count that does not match says the same and, for a comma
 * between digits, how to type the decimal.
 * @param {string} text @param {number} count
 * @returns {{ ok: true, values: number[], read: string } | { ok: false, error: string }}
 */
export function parseGuess(text, count) {
  const parts = String(text).split(/[\s,;]+/).filter(Boolean);
  const values = parts.map((p) => (/^[-−](∞|inf(inity)?)$/i.test(p) ? -Infinity : parseNumber(p)));
  const bad = values.findIndex(Number.isNaN);
  if (bad >= 0) return { ok: false, error: `“${parts[bad]}” is not a number.` };
  const shown = list(values.map(asRead));
  if (parts.length !== count) {
    const comma = /(\d+),(\d+)/.exec(String(text));
    const hint = comma ? ` “.” is the decimal point: type ${comma[1]}.${comma[2]}, not ${comma[0]}.` : '';
    const want = count > 1 ? `Type ${count} numbers, separated by spaces, commas or semicolons` : 'Type one number';
    return { ok: false, error: `${want}: ${parts.length ? `this reads as ${countWords(parts.length, 'number')} (${shown})` : 'the box is empty'}.${hint}` };
  }
  return { ok: true, values, read: count > 1 ? `Read as ${countWords(count, 'number')}: ${shown}.` : `Read as ${shown}.` };
}

/**
 * How close a guess is. error: mean |guess − truth| over the cells (a −∞ cell counts 0 when
 * guessed −∞ and the whole range otherwise); points: 100 for exact, falling linearly to 0 at
 * an error of half the range of the hidden matrix (half of 1 for weights).
 * @param {number[]} truth @param {number[]} guess @param {number} range
 */
export function scoreGuess(truth, guess, range) {
  const tol = range / 2;
  const errs = truth.map((t, k) => {
    const g = guess[k];
    if (t === -Infinity || g === -Infinity) return t === g ? 0 : range;
    return Math.abs(g - t);
  });
  const error = errs.reduce((a, b) => a + b, 0) / errs.length;
  const rel = error / tol;
  const points = Math.max(0, Math.round(100 * (1 - rel)));
  const verdict = rel <= 0.02 ? 'spot on' : rel <= 0.1 ? 'close' : rel <= 0.3 ? 'in the right area' : 'off';
  return { error, points, verdict, errors: errs };
}

/** The explanation shown after the reveal (the explorer's own words for that cell or row). @param {View} view @param {ReturnType<typeof target>} t */
export function explainTarget(view, t) {
  if (t.kind === 'cell') return explainCell(view, t.m, t.i, t.j).text;
  const sentences = [];
  if (t.m === 'A') {
    // masked: −∞ in M (a visible key's weight that underflowed to 0 is followSentence's to say)
    const { r } = view;
    let masked = 0;
    for (let j = 0; j < r.m; j++) masked += r.M[t.i * r.m + j] === -Infinity ? 1 : 0;
    sentences.push(`Row ${t.i + 1} of A is the softmax of row ${t.i + 1} of the scores, so its weights are non-negative and add up to 1${masked ? `; ${masked === 1 ? 'the masked one is' : `the ${masked} masked ones are`} exactly 0` : ''}.`);
  }
  sentences.push(followSentence(view, t.i));
  return sentences.join(' ');
}

// ---------------------------------------------------------------- the lesson's knowledge check

/** @type {Record<'q1' | 'q2' | 'q3', Exercise>} */
export const EXERCISES = {
  q1: {
    title: 'Question 1',
    question: 'For n = 5 tokens and dk = 16, what are the shapes of Q Kᵀ and of the softmax output, and what does each row of the latter sum to?',
    fields: ['rows of Q Kᵀ', 'columns of Q Kᵀ', 'rows of the softmax output', 'columns of the softmax output', 'each row of the softmax output sums to'],
    explanation: 'Both have shape (5, 5). Each row of the softmax output sums to 1.',
    whole: true, // sizes and a sum: shown as 5 and 1, not 5.000
  },
  q2: {
    title: 'Question 2',
    question: 'Scores for one query are [2, 2, 0]. Without computing exp exactly, which token gets the largest weight and which gets the smallest? Compute the weights approximately (e² ≈ 7.39).',
    fields: ['weight of token 1', 'weight of token 2', 'weight of token 3'],
    explanation: 'Tokens 1 and 2 tie for the largest weight and token 3 gets the smallest. exp: 7.39, 7.39, 1; the sum is 15.78, so the weights are about [0.468, 0.468, 0.063].',
  },
  q3: {
    title: 'Question 3',
    question: 'A head has dk = 64. Roughly how large is the standard deviation of a raw dot product of random unit-variance vectors, and what does scaling do to it?',
    fields: ['std of the raw dot products', 'std after dividing by √dk'],
    explanation: 'About √64 = 8. Dividing by √64 brings the standard deviation back to about 1, which keeps the softmax from saturating.',
  },
};

/**
 * The true answers of an exercise, measured by the core, and a note on where they came from.
 * @param {Attention} attn @param {string} id
 * @returns {{ values: number[], note: string, tolerance: number[], head?: import('../../types/attention').ForwardResult }}
 */
export function exerciseAnswer(attn, id) {
  if (id === 'q1') {
    const rand = (/** @type {number} */ k) => Array.from({ length: 5 }, (_, i) => Array.from({ length: 16 }, (_, c) => Math.sin(1 + i * 16 + c + k * 97)));
    const r = attn.forward({ Q: rand(0), K: rand(1), V: rand(2) });
    let worst = 0; // the largest |row sum − 1|
    for (let i = 0; i < r.n; i++) {
      let s = 0;
      for (let j = 0; j < r.m; j++) s += r.A[i * r.m + j];
      worst = Math.max(worst, Math.abs(s - 1));
    }
    return { values: [r.n, r.m, r.n, r.m, 1], note: `The core ran a head with Q and K of shape (5, 16): S and A came out (${r.n}, ${r.m}); its rows of A sum to 1 within ${worst.toExponential(1)}.`, tolerance: [0, 0, 0, 0, 0.01], head: r };
  }
  if (id === 'q2') {
    const a = attn.softmaxRow([2, 2, 0]);
    return { values: Array.from(a), note: 'The core’s softmax of [2, 2, 0].', tolerance: [0.05, 0.05, 0.05] };
  }
  const r = computeSqrtDk(attn, { dk: 64, n: 64, seed: 1 }, { bins: 1 });
  return { values: [r.raw.std, r.scaled.std], note: `Measured by the core on 64 random unit-variance queries and keys (${r.samples} dot products, seed 1).`, tolerance: [1, 0.15] };
}

/**
 * One line of an exercise's result: what the learner said (or typed, when it is not one number
 * by guessRule) and what the core gives.
 * @param {Exercise} ex @param {number} k @param {number | null} guess @param {number} value @param {boolean} right @param {string} [typed]
 */
export function fieldLine(ex, k, guess, value, right, typed = '') {
  const f = (/** @type {number} */ v) => (ex.whole && Number.isInteger(v) ? String(v) : fmt(v));
  const unread = guess == null || Number.isNaN(guess);
  const said = !unread ? `you said ${f(guess)}` : typed.trim() ? `you typed “${typed.trim()}”, which is not one number` : 'you said (nothing)';
  return `${ex.fields[k]}: ${said}, the core gives ${f(value)} ${right ? '✓' : '✗'}`;
}

/** Scores an exercise: each field is right when within its tolerance. @param {{ values: number[], tolerance: number[] }} answer @param {number[]} guess */
export function scoreExercise(answer, guess) {
  const right = answer.values.map((v, k) => Math.abs(guess[k] - v) <= answer.tolerance[k] + 1e-9);
  const count = right.filter(Boolean).length;
  return { right, count, points: Math.round((100 * count) / right.length) };
}
