// sqrtdk.js: the √dk lab, pure (no DOM). Lesson: "Why divide by √dk? If the components of a
// query and a key are independent with mean 0 and variance 1, their dot product ... has variance
// dk and standard deviation √dk ... A softmax of numbers that far apart is almost one-hot ...
// and the gradient through the softmax almost vanishes. Dividing by √dk restores a standard
// deviation of 1 whatever the width."
//
// Seeded unit-variance Q and K [n, dk]; the scores come from the core's forward() in the direct
// form with scale 1 (raw) and with the default 1/√dk (scaled); each row's weights, largest
// weight, entropy and ‖J‖_F come from the core's softmax functions. Counted here, from those
// numbers: the histogram bins, means, medians and standard deviations, and each row's gradient
// left for the other keys.
//
// What the data shows, and the narrative (explainSqrtDk) follows: saturation grows with dk; the
// Frobenius norm ‖J‖_F of the softmax's Jacobian goes to 0 only as the largest weight goes to 1,
// and at moderate dk a peaked row can have a LARGER ‖J‖_F than a soft one spread over many keys;
// what falls steadily is the gradient left for the keys other than the top one.

import { mulberry32, normals, intParam } from './random.js';
import { list, verb } from '../blocks/words.js';

export const MODE = 'sqrt-dk-lab';
export const DK_MAX = 512;
export const N_CHOICES = [4, 8, 16, 32, 64, 128, 256];
export const SWEEP_DKS = [1, 4, 16, 64, 256, 512];
export const ONE_HOT = 0.9; // a row counts as nearly one-hot when its largest weight is above this
const CHUNK = 256; // the core's head-width limit (LIMITS.maxWidth)
/** @typedef {import('../../types/attention').Attention} Attention */
/** @typedef {{ dk: number, n: number, seed: number, row: number }} SqrtDkState */
/** @typedef {ReturnType<typeof computeSqrtDk>} SqrtDk */
/** @typedef {ReturnType<typeof sweep>[number]} SweepLine */
/** @typedef {(v: number) => string} Fmt */

/** @returns {SqrtDkState} */
export function defaultState() {
  return { dk: 64, n: 32, seed: 1, row: 0 };
}

/** @param {URLSearchParams} params @returns {SqrtDkState} */
export function readState(params) {
  const d = defaultState();
  const n = intParam(params, 'n', 2, 256, d.n);
  return { dk: intParam(params, 'dk', 1, DK_MAX, d.dk), n, seed: intParam(params, 'seed', 0, 2 ** 31 - 1, d.seed), row: intParam(params, 'row', 0, n - 1, d.row) };
}

/** @param {SqrtDkState} s */
export function writeState(s) {
  return { mode: MODE, dk: s.dk, n: s.n, seed: s.seed, ...(s.row ? { row: s.row } : {}) };
}

/** Seeded queries and keys: Float32Arrays [n*dk], every component N(0, 1). @param {number} dk @param {number} n @param {number} seed */
export function randomQK(dk, n, seed) {
  const rand = mulberry32(seed);
  return { Q: normals(rand, n * dk), K: normals(rand, n * dk) };
}

// scale·Q·Kᵀ [n*n] from the core, in chunks of at most 256 columns (the core's head-width limit)
// whose dot products are added: Q·Kᵀ = Σ over chunks of Q_c·K_cᵀ (a single chunk up to dk = 256).
/** @param {Attention} attn @param {Float32Array} Q @param {Float32Array} K @param {number} n @param {number} dk @param {number} scale */
function scores(attn, Q, K, n, dk, scale) {
  const V = { shape: /** @type {[number, number]} */ ([n, 1]), data: new Float32Array(n) };
  const S = new Float32Array(n * n);
  for (let c0 = 0; c0 < dk; c0 += CHUNK) {
    const w = Math.min(CHUNK, dk - c0);
    // columns c0 .. c0 + w − 1 of M [n, dk], as [n, w]
    const part = (/** @type {Float32Array} */ M) => ({ shape: /** @type {[number, number]} */ ([n, w]), data: Float32Array.from({ length: n * w }, (_, k) => M[Math.floor(k / w) * dk + c0 + k % w]) });
    attn.forward({ Q: part(Q), K: part(K), V, scale }).S.forEach((v, k) => { S[k] += v; });
  }
  return S;
}

/** @param {ArrayLike<number>} x */
export function meanStd(x) {
  let s = 0;
  for (let k = 0; k < x.length; k++) s += x[k];
  const mean = s / x.length;
  let v = 0;
  for (let k = 0; k < x.length; k++) v += (x[k] - mean) ** 2;
  return { average: mean, std: Math.sqrt(v / x.length) };
}

/** Counts of x in `bins` equal bins over [lo, hi] (values outside go to the end bins). @param {ArrayLike<number>} x @param {number} lo @param {number} hi @param {number} bins */
export function histogram(x, lo, hi, bins) {
  const counts = new Array(bins).fill(0);
  const w = (hi - lo) / bins;
  for (let k = 0; k < x.length; k++) counts[Math.min(bins - 1, Math.max(0, Math.floor((x[k] - lo) / w)))]++;
  return { lo, hi, bins, width: w, counts };
}

/**
 * The gradient left for the other keys of a row of weights a: Σ over every key j but the top one
 * of ∂a_j/∂s_j = a_j(1 − a_j), how much each of their weights moves when its own score does.
 * It is at most their total weight, 1 − the largest weight, so it goes to 0 as the row saturates.
 * @param {ArrayLike<number>} a
 */
export function otherKeysGradient(a) {
  const w = Array.from(a), top = w.indexOf(Math.max(...w));
  return w.reduce((sum, x, j) => (j === top ? sum : sum + x * (1 - x)), 0);
}

const median = (/** @type {number[]} */ x) => {
  const g = Array.from(x).sort((p, q) => p - q), n = g.length;
  return n % 2 ? g[n >> 1] : (g[n / 2 - 1] + g[n / 2]) / 2;
};

// The softmax of every row and its statistics, from the core.
/** @param {Attention} attn @param {Float32Array} S @param {number} n */
function rows(attn, S, n) {
  /** @type {Float32Array[]} */
  const weights = [];
  /** @type {(import('../../types/attention').SoftmaxStats & { others: number })[]} */
  const stats = [];
  for (let i = 0; i < n; i++) {
    const a = attn.softmaxRow(S.subarray(i * n, (i + 1) * n));
    weights.push(a);
    stats.push({ ...attn.softmaxStats(a), others: otherKeysGradient(a) });
  }
  const avg = (/** @type {'maxWeight' | 'entropy' | 'gradNorm'} */ key) => stats.reduce((t, s) => t + s[key], 0) / n;
  return {
    weights, stats,
    mean: { maxWeight: avg('maxWeight'), entropy: avg('entropy'), gradNorm: avg('gradNorm') },
    medianGradNorm: median(stats.map((s) => s.gradNorm)),
    medianOthers: median(stats.map((s) => s.others)),
    oneHot: stats.filter((s) => s.maxWeight > ONE_HOT).length, // rows whose largest weight is above 0.9
  };
}

/**
 * Everything the lab shows for { dk, n, seed }: raw and scaled scores with their mean, std and
 * histograms (shared range), and each row's weights and statistics, unscaled and scaled.
 * @param {Attention} attn @param {{ dk: number, n: number, seed: number }} state @param {{ bins?: number }} [options]
 */
export function computeSqrtDk(attn, { dk, n, seed }, { bins = 31 } = {}) {
  const { Q, K } = randomQK(dk, n, seed);
  const raw = scores(attn, Q, K, n, dk, 1);
  const scaled = scores(attn, Q, K, n, dk, 1 / Math.sqrt(dk));
  let range = 0;
  for (let k = 0; k < raw.length; k++) range = Math.max(range, Math.abs(raw[k]), Math.abs(scaled[k]));
  range = niceCeil(range);
  const side = (/** @type {Float32Array} */ S) => ({ S, ...meanStd(S), hist: histogram(S, -range, range, bins), ...rows(attn, S, n) });
  return {
    dk, n, seed, sqrtDk: Math.sqrt(dk), samples: n * n, maxEntropy: Math.log(n), uniformGradNorm: Math.sqrt(n - 1) / n,
    raw: side(raw), scaled: side(scaled),
  };
}

/** The histogram's half-range: the smallest of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 × a power of 10 that is at least x (1 when x is not above 0). @param {number} x */
export function niceCeil(x) {
  if (!(x > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  return p * /** @type {number} */ ([1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].find((f) => f * p >= x));
}

/** The largest weight, entropy and gradient size averaged over rows, for several widths. @param {Attention} attn @param {{ n: number, seed: number }} state @param {number[]} [dks] */
export function sweep(attn, { n, seed }, dks = SWEEP_DKS) {
  return dks.map((dk) => {
    const r = computeSqrtDk(attn, { dk, n, seed });
    const side = (/** @type {SqrtDk['raw']} */ x) => ({ ...x.mean, median: x.medianGradNorm, others: x.medianOthers, oneHot: x.oneHot });
    return { dk, raw: side(r.raw), scaled: side(r.scaled), rawStd: r.raw.std, scaledStd: r.scaled.std };
  });
}

/**
 * How the unscaled rows' median ‖J‖_F compares with the scaled ones', on the shown digits (fmt):
 * 'not-yet' (at least as large: peaked, not saturated), 'starting' (smaller) or 'bites' (below a
 * tenth of it: the gradient through the softmax has all but vanished).
 * @param {number} rawMedian @param {number} scaledMedian @param {Fmt} fmtv
 */
export function saturation(rawMedian, scaledMedian, fmtv) {
  const r = Number(fmtv(rawMedian)), s = Number(fmtv(scaledMedian));
  if (r >= s) return 'not-yet';
  return r < s / 10 ? 'bites' : 'starting';
}

/**
 * The narrative under the lab, built from the numbers it shows: r = computeSqrtDk(...) at the
 * chosen dk, sw = sweep(...) (the table), fmtv = the page's formatter. Every number quoted is one
 * the page shows, formatted the same way.
 * @param {SqrtDk} r @param {SweepLine[]} sw @param {Fmt} fmtv
 */
export function explainSqrtDk(r, sw, fmtv) {
  const { dk, n } = r;
  const raw = r.raw, sc = r.scaled;
  const out = [
    `At dk = ${dk} the raw scores have a standard deviation of ${fmtv(raw.std)} (√dk = √${dk} = ${fmtv(r.sqrtDk)}); dividing by √dk brings it to ${fmtv(sc.std)}.`,
    `Without scaling, ${raw.oneHot} of ${n} rows ${verb(raw.oneHot, 'is', 'are')} nearly one-hot (largest weight above ${ONE_HOT}) and the mean largest weight is ${fmtv(raw.mean.maxWeight)}; with scaling, ${sc.oneHot} and ${fmtv(sc.mean.maxWeight)}.`,
    `‖J‖_F is the Frobenius norm of the softmax’s Jacobian J = diag(a) − a·aᵀ, the square root of the sum of its squared entries: how much the weights can change when the scores do. It is 0 only when the largest weight is 1, ${fmtv(0.5)} for a row split evenly between two keys, and √(n − 1)/n = ${fmtv(r.uniformGradNorm)} for a row spread evenly over all ${n} keys, so a soft row over many keys has a small ‖J‖_F too.`,
  ];
  const jr = fmtv(raw.medianGradNorm), js = fmtv(sc.medianGradNorm);
  const here = saturation(raw.medianGradNorm, sc.medianGradNorm, fmtv);
  if (dk === 1) out.push(`At dk = 1, √dk = 1: scaling changes nothing, and both medians of ‖J‖_F are ${jr}.`);
  else if (here === 'not-yet') out.push(`At dk = ${dk} the unscaled rows are more peaked${2 * raw.oneHot < n ? ` but mostly not one-hot (${raw.oneHot} of ${n})` : ` (${raw.oneHot} of ${n} nearly one-hot)`}, and their median ‖J‖_F (${jr}) is ${jr === js ? 'the same as' : 'larger than'} the scaled rows’ (${js}): saturation has not taken the gradient away yet.`);
  else if (here === 'starting') out.push(`At dk = ${dk} the median unscaled ‖J‖_F is ${jr}, below the scaled rows’ ${js}: saturation is starting to take the gradient away.`);
  else out.push(`At dk = ${dk} the median unscaled row is so close to one-hot that its ‖J‖_F is ${jr}, against ${js} with scaling: the gradient through the softmax has all but vanished.`);
  out.push(`What falls steadily as rows saturate is the gradient left for the other keys: the sum over every key but the top one of a_j(1 − a_j), how much each of their weights moves when its own score does (at most 1 − the largest weight). Its median is ${fmtv(raw.medianOthers)} without scaling and ${fmtv(sc.medianOthers)} with.`);
  out.push(sweepSentence(sw, n, fmtv));
  return out;
}

/** The sweep table, in one sentence: where saturation bites, where it does not yet. @param {SweepLine[]} sw @param {number} n @param {Fmt} fmtv */
function sweepSentence(sw, n, fmtv) {
  const wide = sw.filter((x) => x.dk > 1);
  const by = (/** @type {string} */ kind) => wide.filter((x) => saturation(x.raw.median, x.scaled.median, fmtv) === kind);
  const dks = (/** @type {SweepLine[]} */ xs) => `dk = ${list(xs.map((x) => x.dk))}`;
  const notYet = by('not-yet'), starting = by('starting'), bites = by('bites');
  const parts = [];
  if (notYet.length) parts.push(`at ${dks(notYet)} the unscaled median ‖J‖_F is at least the scaled one (${list(notYet.map((x) => `${fmtv(x.raw.median)} against ${fmtv(x.scaled.median)}`))}): the rows are peaked, not yet saturated`);
  if (starting.length) parts.push(`at ${dks(starting)} the unscaled median ‖J‖_F is smaller than the scaled one (${list(starting.map((x) => `${fmtv(x.raw.median)} against ${fmtv(x.scaled.median)}`))})`);
  if (bites.length) parts.push(`at ${dks(bites)} saturation bites: below a tenth of the scaled one (${list(bites.map((x) => `${fmtv(x.raw.median)} against ${fmtv(x.scaled.median)}`))}), with ${list(bites.map((x) => `${x.raw.oneHot} of ${n}`))} rows nearly one-hot`);
  else parts.push(`at none of these widths does the unscaled median fall below a tenth of the scaled one`);
  const peaks = `without scaling the mean largest weight ${course(sw, (x) => x.raw.maxWeight, fmtv, 'grows', 'shrinks')}`;
  const others = `Without scaling, the gradient left for the other keys ${course(sw, (x) => x.raw.others, fmtv, 'rises', 'falls')}; with scaling it stays between ${fmtv(Math.min(...sw.map((x) => x.scaled.others)))} and ${fmtv(Math.max(...sw.map((x) => x.scaled.others)))}.`;
  return `In the table (n = ${n}): ${peaks}; ${parts.join('; ')}. ${others}`;
}

/**
 * How one column of the table moves from its first width to its last, on the shown digits:
 * "grows with every width, from 0.400 at dk = 1 to 0.950 at dk = 256" (up at each step), "grows,
 * from …" (up overall), the same with `down`, "stays at 0.600 from dk = 1 to dk = 4" (every width
 * the same), or "is 0.600 at dk = 1 and again at dk = 16" (back where it started).
 * @param {SweepLine[]} sw @param {(x: SweepLine) => number} valueOf @param {Fmt} fmtv @param {string} up @param {string} down
 */
function course(sw, valueOf, fmtv, up, down) {
  const shown = sw.map((x) => fmtv(valueOf(x)));
  const v = shown.map(Number);
  const first = sw[0], last = sw[sw.length - 1], k = v.length - 1;
  if (!k) return `is ${shown[0]} at dk = ${first.dk}`;
  if (v.every((x) => x === v[0])) return `stays at ${shown[0]} from dk = ${first.dk} to dk = ${last.dk}`;
  if (v[k] === v[0]) return `is ${shown[0]} at dk = ${first.dk} and again at dk = ${last.dk}`;
  const rising = v[k] > v[0];
  const everyStep = v.every((x, j) => j === 0 || (rising ? x > v[j - 1] : x < v[j - 1]));
  return `${rising ? up : down}${everyStep ? ' with every width' : ''}, from ${shown[0]} at dk = ${first.dk} to ${shown[k]} at dk = ${last.dk}`;
}
