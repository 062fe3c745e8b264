// misconceptions.js: three of the lesson's misconceptions, each shown with numbers from the core.
// Pure (no DOM).
//   1. "Normalising over the wrong axis (dim=0) is a classic bug that still runs and still gives
//      numbers between 0 and 1": the columns of S + M go through the core's softmax.
//   2. "A token attends only to other tokens": the diagonal of A.
//   3. "The attention weights say which tokens are important": V and O beside A.

import { PRESETS } from '../blocks/presets.js';
import { parseConfig, forwardArgs } from '../blocks/config.js';
import { oneOf } from './random.js';
import { largest, list, noun, verb } from '../blocks/words.js';
import { tokenRef } from '../blocks/format.js';

/** @typedef {import('../../types/attention').Attention} Attention @typedef {import('../../types/presets').PresetName} PresetName */
/** @typedef {import('./lab-types').MisconceptionsState} MisState @typedef {(v: number) => string} Fmt */

export const MODE = 'misconceptions-lab';
// The lab opens on the lesson's worked example; its menu offers every preset, that one first.
/** @type {PresetName} */
const FIRST = 'worked-example';
/** @type {PresetName[]} */
export const PRESET_CHOICES = [FIRST, .../** @type {PresetName[]} */ (Object.keys(PRESETS)).filter((p) => p !== FIRST)];
/** @type {MisState['values'][]} */
export const VALUE_CHOICES = ['lesson', 'silent'];

/** @returns {MisState} */
export function defaultState() {
  return { preset: FIRST, values: 'silent' };
}
/** @param {URLSearchParams} params @returns {MisState} */
export function readState(params) {
  const d = defaultState();
  return { preset: oneOf(params, 'preset', PRESET_CHOICES, d.preset), values: oneOf(params, 'values', VALUE_CHOICES, d.values) };
}
/** @param {MisState} s */
export function writeState(s) {
  return { mode: MODE, preset: s.preset, values: s.values };
}

/** @param {Attention} attn @param {PresetName} preset */
export function presetHead(attn, preset) {
  const config = parseConfig(PRESETS[preset].config);
  return { config, r: attn.forward(forwardArgs(config)) };
}

/** @param {ArrayLike<number>} M @param {number} rows @param {number} cols @param {boolean} byRow */
const sums = (M, rows, cols, byRow) => {
  const out = new Array(byRow ? rows : cols).fill(0);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[byRow ? i : j] += M[i * cols + j];
  return out;
};

/**
 * Softmax over dim=0: each COLUMN of S + M (the masked scores) through the core's softmax.
 * Returns the wrong weights, their column and row sums, and the right weights' row sums.
 * @param {Attention} attn @param {PresetName} preset
 */
export function wrongAxis(attn, preset) {
  const { config, r } = presetHead(attn, preset);
  const { n, m } = r;
  const wrong = new Float32Array(n * m);
  for (let j = 0; j < m; j++) {
    // column j of S + M (M is 0 or −∞), through the core's softmax
    const a = attn.softmaxRow(Float32Array.from({ length: n }, (_, i) => r.S[i * m + j] + r.M[i * m + j]));
    a.forEach((w, i) => { wrong[i * m + j] = w; });
  }
  const rowSums = sums(wrong, n, m, true);
  const worst = rowSums.reduce((b, s, i) => (Math.abs(s - 1) > Math.abs(rowSums[b] - 1) ? i : b), 0);
  return {
    config, r, wrong, colSums: sums(wrong, n, m, false), rowSums, rightRowSums: sums(r.A, n, m, true), worst,
  };
}

/** @param {ReturnType<typeof wrongAxis>} w @param {Fmt} fmtv */
export function explainWrongAxis(w, fmtv) {
  const t = w.config.tokens, i = w.worst;
  return [
    `softmax(S, dim=0) normalises each column: every column of these weights adds up to 1, and every weight still lies between 0 and 1, so nothing crashes and nothing looks odd.`,
    `But a column is one key shared out among the queries. Row ${i + 1} (“${t[i]}”) now adds up to ${fmtv(w.rowSums[i])}, not 1, so its output O = A·V is no longer a weighted average of the value rows: it is scaled by ${fmtv(w.rowSums[i])} and can leave their range.`,
    `The quick test from the lesson catches it: weights.sum(-1) should be all ones. Here it is [${w.rowSums.map(fmtv).join(', ')}]; with dim=-1 it is [${w.rightRowSums.map(fmtv).join(', ')}].`,
  ];
}

/** A token in a sentence: “cat” (2), or “token 2” when its name is its number (the worked example). */
export const who = tokenRef;

/** The diagonal of A: how much each token attends to itself, and each row's largest weights (ties kept). @param {Attention} attn @param {PresetName} preset */
export function diagonal(attn, preset) {
  const { config, r } = presetHead(attn, preset);
  const diag = [], tops = /** @type {number[][]} */ ([]);
  for (let i = 0; i < r.n; i++) { // a preset is self-attention: A is square
    const row = r.A.subarray(i * r.m, (i + 1) * r.m);
    diag.push(row[i]);
    tops.push(largest(row));
  }
  return { config, r, diag, tops };
}

/** @param {ReturnType<typeof diagonal>} d @param {Fmt} fmtv */
export function explainDiagonal(d, fmtv) {
  const t = d.config.tokens, k = d.diag.length;
  const nonzero = d.diag.filter((w) => w > 0).length;
  const out = [`A token also attends to itself: ${nonzero} of ${k} diagonal ${noun(k, 'weight')} ${verb(nonzero, 'is', 'are')} above 0 (${d.diag.map(fmtv).join(', ')}).`];
  const alone = d.tops.flatMap((js, i) => (js.length === 1 && js[0] === i ? [who(t, i)] : []));
  if (alone.length) out.push(`For ${list(alone)} the largest weight of the row is on the token itself.`);
  const cap = (/** @type {string} */ x) => x[0].toUpperCase() + x.slice(1);
  d.tops.forEach((js, i) => {
    if (js.length > 1 && js.includes(i)) out.push(`${cap(who(t, i))} gives ${fmtv(d.diag[i])} to itself and the same to ${list(js.filter((j) => j !== i).map((j) => who(t, j)))}: a tie for the largest weight of its row, with no single winner.`);
  });
  if (d.r.causal) out.push('With the causal mask the first token can only see itself, so its diagonal weight is exactly 1.');
  return out;
}

// The lesson's worked example; "silent" gives token 3 a value of zero.
const WORKED = { Q: [[1, 0], [0, 1], [1, 1]], V: [[1, 0], [0, 2], [3, 1]] };
export const VALUE_ROW = 2; // the query whose row is taken apart (token 3)

/** A, V and O of the worked example, and row VALUE_ROW's contributions A[i][j]·V[j]. @param {Attention} attn @param {MisState['values']} values */
export function valuesMatter(attn, values) {
  const V = WORKED.V.map((row, j) => (values === 'silent' && j === 2 ? [0, 0] : row));
  const r = attn.forward({ Q: WORKED.Q, K: WORKED.Q, V });
  const i = VALUE_ROW;
  const contributions = [];
  for (let j = 0; j < r.m; j++) {
    const w = r.A[i * r.m + j];
    const v = Array.from(r.V.subarray(j * r.dv, (j + 1) * r.dv));
    contributions.push({ j, weight: w, value: v, part: v.map((x) => w * x), size: Math.hypot(...v.map((x) => w * x)) });
  }
  return { r, row: i, contributions, values };
}

/** @param {ReturnType<typeof valuesMatter>} v @param {Fmt} fmtv */
export function explainValues(v, fmtv) {
  const c = v.contributions;
  // Row 3 of the worked example's A is [0.248, 0.248, 0.503] whatever the values: one largest weight.
  const top = c[largest(c.map((x) => x.weight))[0]];
  const most = c[largest(c.map((x) => x.size))[0]];
  const out = [`Token ${v.row + 1} puts its largest weight, ${fmtv(top.weight)}, on token ${top.j + 1}.`];
  if (top.j !== most.j) {
    out.push(`Yet token ${top.j + 1}’s value is [${top.value.map(fmtv).join(', ')}], so it adds [${top.part.map(fmtv).join(', ')}] to the output: nothing. The output [${Array.from(v.r.O.subarray(v.row * v.r.dv, (v.row + 1) * v.r.dv)).map(fmtv).join(', ')}] comes mostly from token ${most.j + 1} (weight ${fmtv(most.weight)}).`);
  } else {
    out.push(`Here its value [${top.value.map(fmtv).join(', ')}] also contributes most to the output. Switch to “token 3’s value is zero” to see a large weight that moves nothing.`);
  }
  out.push('The weights say how the output at one position mixes the values of the others. They are one part of the computation, not a full explanation: the values (and later layers) matter too.');
  return out;
}
