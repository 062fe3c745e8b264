// explain.js: every sentence the page says about the numbers. Pure functions of a "view"
//   { config, r, raw, step }
// where r is attn.forward's result for the config and raw the result with scale 1 (the
// unscaled scores Q·Kᵀ). Values always come from r/raw; the only arithmetic done here is the
// display of the terms that make up a value (products, exp, sums), built from the same float32
// numbers and formatted by the one formatter. Counts, lists, ranges and "largest" go through
// words.js, so grammar and ties are handled in one place (tests/blocks/explain.test.mjs walks
// every sentence of every preset and of 200 random heads against written rules).

import { fmt, fmtFine, tokenRef, parseNumber, DECIMALS } from './format.js';
import { STEPS } from './config.js';
import { count, noun, verb, list, range, largest } from './words.js';

/** @typedef {import('../../types/export').View} View */
/** @typedef {import('../../types/attention').ForwardResult} ForwardResult */
/** @template {import('../../types/attention').ResultArray} K @typedef {import('../../types/attention').SomeResult<K>} SomeResult */
/** @typedef {import('../../types/config').MatrixName} MatrixName */
/** @typedef {import('../../types/config').Step} Step */
/** @typedef {import('./colors.js').ScaleKind} ScaleKind */
/**
 * A matrix's shape and axes (matrixInfo).
 * @typedef {{ m: MatrixName, rows: number, cols: number, rowLabels: string[], colLabels: string[], axes: string,
 *   about: string, caption: string }} MatrixInfo
 */
/**
 * What a legend says (legendInfo): lo and hi are null for the mask.
 * @typedef {{ kind: 'mask', lo: null, hi: null, centre: false, mayLook: boolean, masked: boolean }
 *   | { kind: 'diverging' | 'sequential', lo: number, hi: number, centre: boolean, mayLook: false, masked: boolean }} LegendInfo
 */
/** A result in the projection form: X and the weights are there. @typedef {ForwardResult & { X: Float32Array, Wq: Float32Array, Wk: Float32Array, Wv: Float32Array, d: number }} ProjectedResult */
/** A config's feature names (the projection form has them). @param {import('../../types/config').Config} c */
const featuresOf = (c) => /** @type {Partial<import('../../types/config').ProjectedConfig>} */ (c).features;
/** A cell that fed an explained cell: a whole row, a column or one cell of matrix m. @typedef {{ m: MatrixName, row?: number, col?: number }} Source */
/** What an explain* function says: the text and the cells it names. @typedef {{ text: string, sources: Source[] }} Said */
/** An explained cell (explainCell). @typedef {{ title: string, text: string, sources: Source[] }} Explanation */
/**
 * What a trained head adds to the explanations (web/train/words.js trainedExtra): the step, the parts X
 * is the sum of (a head inside a model), and the last step's ∂loss/∂W, flat and row-major.
 * With `update` (the change of each weight over the step), optimizer and lr, a weight's
 * explanation also says what the optimizer did.
 * @typedef {{ trained?: { step: number }, residual?: { name: string, data: Float32Array }[],
 *   gradients?: Weights | null, update?: Weights | null, optimizer?: string, lr?: number | null }} Extra
 */
/** @typedef {{ Wq: Float32Array, Wk: Float32Array, Wv: Float32Array }} Weights
 */

const MAX_TERMS = 8;
const F32_MAX = 3.4028234663852886e38; // float32's largest finite number
const F32_MIN_NORMAL = 1.1754943508222875e-38; // below this exp(s) loses precision, then becomes 0
/** @param {number} i */
const sub = (i) => String(i + 1).replace(/\d/g, (c) => '₀₁₂₃₄₅₆₇₈₉'[Number(c)]);
/** @param {number} v */
const p = (v) => (v < 0 ? '(' + fmt(v) + ')' : fmt(v)); // a factor inside a product
/** @param {string} s */
const opening = (s) => s[0].toUpperCase() + s.slice(1); // a sentence's first word ("token 2 …" → "Token 2 …")

/** What each token's row of Q, K and V is, in the lesson's words. */
export const ROLE = {
  Q: ['query', 'what it is looking for'],
  K: ['key', 'what it offers as a match'],
  V: ['value', 'what it passes on'],
};

/**
 * Shape and axes of each matrix: rows, cols, row/column labels and the caption.
 * @param {View} view @param {MatrixName} m @returns {MatrixInfo}
 */
export function matrixInfo(view, m) {
  const { r, config } = view;
  const tokens = config.tokens;
  /** @param {number} n @param {string} prefix */
  const dims = (n, prefix) => Array.from({ length: n }, (_, k) => prefix + (k + 1));
  const features = featuresOf(config) || dims(r.d || 0, 'f');
  const vd = valueDims(view, dims(r.dv, 'v'));
  const d = /** @type {number} */ (r.d); // null only in the direct form, which has no X or W panels
  /** @type {Record<MatrixName, [rows: number, cols: number, rowLabels: string[], colLabels: string[], axes: string, about: string]>} */
  const table = {
    X: [r.n, d, tokens, features, 'token × feature', 'input: one row per token'],
    Wq: [d, r.dk, features, dims(r.dk, 'q'), 'feature × query dim', 'learned query projection'],
    Wk: [d, r.dk, features, dims(r.dk, 'k'), 'feature × key dim', 'learned key projection'],
    Wv: [d, r.dv, features, vd, 'feature × value dim', 'learned value projection'],
    Q: [r.n, r.dk, tokens, dims(r.dk, 'q'), 'token × query dim', 'queries: ' + ROLE.Q[1].replace('it is', 'each token is')],
    K: [r.m, r.dk, tokens, dims(r.dk, 'k'), 'token × key dim', 'keys: ' + ROLE.K[1].replace('it', 'each token')],
    V: [r.m, r.dv, tokens, vd, 'token × value dim', 'values: ' + ROLE.V[1].replace('it', 'each token')],
    S: [r.n, r.m, tokens, tokens, 'query × key', scoreTitle(view)],
    M: [r.n, r.m, tokens, tokens, 'query × key', maskTitle(view)],
    A: [r.n, r.m, tokens, tokens, 'query × key', 'weights: softmax of each row, rows add up to 1' + (fullyMaskedRows(r).length ? ' (or are all 0)' : '')],
    O: [r.n, r.dv, tokens, vd, 'token × value dim', 'output: weighted average of the value rows'],
  };
  const info = table[m];
  const [rows, cols, rowLabels, colLabels, axes, about] = info;
  return { m, rows, cols, rowLabels, colLabels, axes, about, caption: `${m}: ${rows} × ${cols}, ${axes}` };
}

// When Wv is square and diagonal, value dimension k carries feature k: name it so the output
// can be read ("largest in thing").
/** @param {View} view @param {string[]} fallback */
function valueDims(view, fallback) {
  const { r, config } = view;
  if (!r.Wv || !featuresOf(config) || r.d !== r.dv) return fallback;
  for (let i = 0; i < r.d; i++) for (let j = 0; j < r.dv; j++) if (i !== j && r.Wv[i * r.dv + j] !== 0) return fallback;
  return /** @type {string[]} */ (featuresOf(config));
}

// Facts about a result's mask, counted once per result (captions ask for them every frame).
/** @type {WeakMap<Float32Array, { masked: number, full: number[] }>} */
const MASK_FACTS = new WeakMap();
/** @param {ForwardResult} r @returns {{ masked: number, full: number[] }} */
function maskFacts(r) {
  let f = MASK_FACTS.get(r.M);
  if (!f) {
    let masked = 0;
    const full = [];
    for (let i = 0; i < r.n; i++) {
      let open = 0;
      for (let j = 0; j < r.m; j++) r.M[i * r.m + j] === -Infinity ? masked++ : open++;
      if (!open) full.push(i);
    }
    f = { masked, full };
    MASK_FACTS.set(r.M, f);
  }
  return f;
}
/** @param {ForwardResult} r */
const maskedCount = (r) => maskFacts(r).masked;
/** @param {ForwardResult} r */
const hasMask = (r) => maskFacts(r).masked > 0;

/** @param {View} view */
function scoreTitle(view) {
  if (view.step === 'score') return 'scores Q·Kᵀ, not scaled yet';
  if (view.step === 'scale') return scaleOn(view) ? 'scaled scores, not masked yet' : 'scores (scaling off), not masked yet';
  const what = scaleOn(view) ? 'scaled scores' : 'scores (scaling off)';
  return hasMask(view.r) ? `${what}, masked entries −∞` : `${what} (nothing masked)`;
}

/** @param {View} view */
function maskTitle(view) {
  const { r } = view;
  const k = maskedCount(r);
  if (r.causal) return k ? 'causal mask: −∞ above the diagonal' : 'causal mask: nothing above the diagonal to mask';
  return k ? `mask: −∞ on ${count(k, 'entry', 'entries')}` : 'mask off: all 0, every token may look at every token';
}

/** @param {View} view */
const scaleOn = (view) => view.config.scale !== 1;
/** @param {Step | null} step */
const stepIndex = (step) => (step ? STEPS.indexOf(step) : STEPS.length);

/**
 * The values a matrix panel shows at the current step (S changes meaning as the steps go).
 * @param {View} view @param {MatrixName} m @returns {Float32Array}
 */
export function displayed(view, m) {
  const { r, raw, step } = view;
  if (m !== 'S') return /** @type {Float32Array} */ (r[m]); // (only a direct-form head lacks X and W, and it draws no panel for them)
  if (step === 'score') return raw.S;
  if (stepIndex(step) < STEPS.indexOf('mask') && step !== 'project') return r.S;
  let out = MASKED_S.get(r.S);
  if (!out) {
    out = new Float32Array(r.S.length);
    for (let k = 0; k < out.length; k++) out[k] = r.M[k] === -Infinity ? -Infinity : r.S[k];
    MASKED_S.set(r.S, out);
  }
  return out;
}
/** @type {WeakMap<Float32Array, Float32Array>} */
const MASKED_S = new WeakMap(); // a result's S with its masked entries at −∞, made once (read only)

/**
 * Forgets what was worked out once for result r, before its arrays are reused (forward's `into`).
 * @param {ForwardResult | SomeResult<"S"> | null | undefined} r
 */
export function forgetResult(r) {
  if (!r) return;
  if (r.M) MASK_FACTS.delete(r.M);
  MASKED_S.delete(r.S);
}

/**
 * What a panel's legend says, from the values it shows: { kind, lo, hi, centre, mayLook, masked }
 * (lo/hi the ends of the colour bar, null for the mask; masked: whether −∞ is shown).
 * @param {MatrixName} m @param {Float32Array} values @param {ScaleKind} kind @param {number} maxAbs @returns {LegendInfo}
 */
export function legendInfo(m, values, kind, maxAbs) {
  const masked = values.some((v) => v === -Infinity);
  if (kind === 'mask') return { kind, lo: null, hi: null, centre: false, mayLook: values.some((v) => v !== -Infinity), masked };
  const seq = kind === 'sequential';
  return { kind, lo: seq ? 0 : -maxAbs, hi: seq ? 1 : maxAbs, centre: !seq, mayLook: false, masked };
}

/** @param {View} view @param {MatrixName} m @param {number} i @param {number} j @param {number} value */
export function cellLabel(view, m, i, j, value) {
  return labeler(view, m)(i, j, value);
}

/** What a cell's number is, for the matrices whose numbers have a name in the lesson. */
const VALUE_WORD = /** @type {Partial<Record<MatrixName, string>>} */ ({ S: 'score', A: 'weight' });

/**
 * One axis of a cell, for a screen reader: its axis word, its number and its name, without
 * saying a number twice: “key 2 “cat””, but “query dim 1” (not “query dim 1 q1”) and, for
 * tokens that are numbers, “token 3” (not “token 3 3”).
 * @param {string} axis @param {number} k 0-based @param {string} name
 */
export function axisLabel(axis, k, name) {
  const n = String(k + 1);
  const digits = /^\s*[a-z]*\s*(\d+)\s*$/i.exec(String(name));
  return digits && digits[1] === n ? `${axis} ${n}` : `${axis} ${n} \u201c${name}\u201d`;
}

/**
 * The screen-reader label function of one matrix (its axis names looked up once): the cell and
 * its number, short, in the lesson's words: “A, query 1 “The”, key 2 “cat”: weight 0.198”. The
 * long story of the cell is the explanation panel's (a key away: e).
 * @param {View} view @param {MatrixName} m @returns {(i: number, j: number, value: number) => string}
 */
export function labeler(view, m) {
  const { rowLabels, colLabels, axes } = matrixInfo(view, m);
  const [rowAxis, colAxis] = axes.split(' × ');
  const word = VALUE_WORD[m];
  /** @type {(v: number) => string} */
  const said = m === 'M' ? (v) => (v === -Infinity ? 'masked, −∞' : 'may look, 0') : (v) => (word ? `${word} ${fmt(v)}` : fmt(v));
  return (i, j, value) => `${m}, ${axisLabel(rowAxis, i, rowLabels[i])}, ${axisLabel(colAxis, j, colLabels[j])}: ${said(value)}`;
}

// The terms of a long sum, shortened to the largest MAX_TERMS (by size) when there are more.
/** @template T @param {T[]} terms @param {(t: T) => number} size */
function shorten(terms, size) {
  if (terms.length <= MAX_TERMS) return { shown: terms, note: '' };
  const keep = new Set(terms.map((t, k) => k).sort((a, b) => size(terms[b]) - size(terms[a])).slice(0, MAX_TERMS));
  const left = terms.length - MAX_TERMS;
  return { shown: terms.filter((t, k) => keep.has(k)), note: ` + … (${count(left, 'smaller term')})` };
}

// A learner checks these lines by hand, with the numbers as printed (rounded to DECIMALS places)
// while the core works with the unrounded ones. Where the printed numbers do not give the printed
// result, the line says so and why. `products`: factor pairs whose printed product differs from
// the printed value of their product; `sum`: the printed terms of a sum and its printed total.
const printed = (/** @type {string} */ t) => parseNumber(t.replace(/[()]/g, ''));
/** @param {{ products?: [number, number][], terms?: (string | number)[], total?: string }} shown terms: printed, or exact numbers (products of printed factors) */
function roundingNote({ products = [], terms = [], total = '' }) {
  /** @type {string[]} */
  const why = [];
  const off = products.find(([a, b]) => fmt(printed(p(a)) * printed(p(b))) !== fmt(a * b));
  if (off) why.push(`${p(off[0])}×${p(off[1])} shows as ${fmt(off[0] * off[1])}, not ${fmt(printed(p(off[0])) * printed(p(off[1])))}`);
  if (terms.length > 1 && total) {
    const sum = terms.reduce((/** @type {number} */ acc, t) => acc + (typeof t === 'number' ? t : printed(t)), 0);
    if (Number.isFinite(sum) && Number.isFinite(printed(total)) && fmt(sum) !== total)
      why.push(`${terms.some((t) => typeof t === 'number') ? 'the products of the factors as printed' : 'the terms as printed'} add to ${fmt(sum)}, not ${total}`);
  }
  return why.length ? `\n(Every number here is rounded to ${DECIMALS} decimals; the core computes with the unrounded ones, so ${list(why)}.)` : '';
}

// a×b + c×d + … = total for pairs [a, b] (sep before the total); with `values`, also the line of
// the products; and the rounding note when the printed numbers do not give the printed total.
/** @param {[number, number][]} pairs @param {number} total @param {{ values?: boolean, sep?: string }} [options] */
function sumOfProducts(pairs, total, { values = false, sep = '\n= ' } = {}) {
  const { shown, note } = shorten(pairs, ([a, b]) => Math.abs(a * b));
  const line = shown.map(([a, b]) => p(a) + '×' + p(b)).join(' + ') + note;
  const all = !note; // every term is shown: the sum can be checked by hand
  if (!values || pairs.length === 1) {
    const terms = all ? shown.map(([a, b]) => printed(p(a)) * printed(p(b))) : [];
    return line + sep + fmt(total) + roundingNote({ terms, total: fmt(total) });
  }
  const products = shown.map(([a, b]) => fmt(a * b));
  return line + '\n= ' + products.join(' + ') + note + sep + fmt(total) +
    roundingNote({ products: shown, terms: all ? products : [], total: fmt(total) });
}

// Σ = a + b + c = total; one term alone is its own sum.
/** @param {string[]} terms @param {number} total */
const sumLine = (terms, total) => (terms.length === 1 ? `Σ = ${terms[0]}` : `Σ = ${terms.join(' + ')} = ${fmt(total)}`);
// The rounding note of a sumLine whose every term is shown.
/** @param {string[]} terms @param {number} total */
const sumNote = (terms, total) => (terms.some((t) => t.startsWith('…')) ? '' : roundingNote({ terms, total: fmt(total) }));

/** @param {Float32Array} a @param {number} i @param {number} cols */
const rowOf = (a, i, cols) => Array.from(a.subarray(i * cols, i * cols + cols));
/** @param {Float32Array} a @param {number} j @param {number} rows @param {number} cols */
const colOf = (a, j, rows, cols) => Array.from({ length: rows }, (_, k) => a[k * cols + j]);

/**
 * The rows whose every key is masked (A and O are 0 there, PyTorch's rule).
 * @param {ForwardResult} r @returns {number[]}
 */
export const fullyMaskedRows = (r) => maskFacts(r).full.slice();
/** @param {ForwardResult} r @param {number} i */
function visibleKeys(r, i) {
  /** @type {number[]} */
  const out = [];
  for (let j = 0; j < r.m; j++) if (r.M[i * r.m + j] !== -Infinity) out.push(j);
  return out;
}

// The score of key c in row i as the softmax sees it: S plus M (0 for a visible key, or a float
// mask's number).
/** @param {ForwardResult} r @param {number} i @param {number} c */
const softmaxScore = (r, i, c) => r.S[i * r.m + c] + r.M[i * r.m + c];

/**
 * The keys row i may look at whose weight is still exactly 0: their score is so far below the
 * row's largest (about 103.97) that exp(s − max) rounds to 0 in float32. Not masked: the sentences about
 * masks must not count them. { keys, gaps } with gaps[k] = max − s of keys[k].
 * @param {ForwardResult} r @param {number} i
 */
function underflowedKeys(r, i) {
  const live = visibleKeys(r, i);
  let max = -Infinity;
  for (const c of live) max = Math.max(max, softmaxScore(r, i, c));
  const keys = live.filter((c) => r.A[i * r.m + c] === 0);
  return { keys, gaps: keys.map((c) => max - softmaxScore(r, i, c)) };
}

/**
 * What float32 does with a weight too small for the three decimals, as a line ('' for a weight
 * the decimals show): a visible key's weight is exactly 0 only when exp(s − max) is below half of
 * float32's smallest positive number (2^−149, about 1.4e−45: about 103.97 below the row's
 * largest); from about 87.3 below down to there it is a subnormal float32, kept as PyTorch keeps
 * it, and shown as 0.000. `exp` names the term: "exp(−95.000 − 0.000) = exp(−95.000)".
 * @param {string} at @param {number} a @param {string} exp
 */
export function tinyWeightNote(at, a, exp) {
  if (a === 0) return `\n${at} is exactly 0 though the key is not masked: ${exp} is below half of float32’s smallest positive number (2^−149, about 1.4e−45, which exp reaches about 103.97 below the row’s largest), so it rounds to 0.`;
  if (a < F32_MIN_NORMAL) return `\n${at} is ${a.toExponential(2).replace('-', '−')}, not 0, though it shows as 0.000: ${exp} is below float32’s smallest normal number (about 1.18e−38) but float32 keeps it as a subnormal number, as PyTorch does; exactly 0 comes only past about 103.97 below the row’s largest.`;
  return '';
}

/**
 * Why the weights of row i's underflowed keys are 0, as a clause ('' when none): "the weight on
 * “a” (1) is 0 though it is not masked: its score is 200.000 below the row’s largest, so its
 * exp(s − max) = exp(−200.000) is too small for float32 and rounds to 0".
 * @param {View} view @param {number} i
 */
function underflowClause(view, i) {
  const { keys, gaps } = underflowedKeys(view.r, i);
  if (!keys.length) return '';
  const t = view.config.tokens;
  const refs = list(keys.map((c) => tokenRef(t, c)));
  if (keys.length === 1)
    return `the weight on ${refs} is 0 though it is not masked: its score is ${fmt(gaps[0])} below the row’s largest, so its exp(s − max) = exp(${fmt(-gaps[0])}) is too small for float32 and rounds to 0`;
  const lo = Math.min(...gaps), hi = Math.max(...gaps);
  const by = fmt(lo) === fmt(hi) ? fmt(lo) : `${fmt(lo)} to ${fmt(hi)}`;
  return `the weights on ${refs} are 0 though they are not masked: their scores are ${by} below the row’s largest, so each exp(s − max) is too small for float32 and rounds to 0`;
}

// Why key j is masked for query i: the causal mask (j is in the future) or an explicit mask.
/** @param {View} view @param {number} i @param {number} j */
function maskedWhy(view, i, j) {
  const t = view.config.tokens;
  if (view.r.causal && j > i) return `${tokenRef(t, j)} comes after ${tokenRef(t, i)}: a token cannot see the future`;
  return `the mask does not let ${tokenRef(t, i)} look at ${i === j ? 'itself' : tokenRef(t, j)}`;
}

// Before steps 4-5 the S panel shows scores that A and O do not use yet: say which they use.
/** @param {View} view @param {MatrixName} m */
function laterNote(view, m) {
  if (view.step !== 'score' && view.step !== 'scale') return '';
  // "masked" only where a mask is: a causal or explicit mask leaves a −∞ or a number in M
  const masked = view.r.causal || view.r.M.some((x) => x !== 0);
  const which = [scaleOn(view) ? 'scaled' : '', masked ? 'masked' : ''].filter(Boolean).join(', ');
  return `(${m} comes at step ${m === 'A' ? 5 : 6}, from the ${which ? which + ' ' : ''}scores: S shows step ${view.step === 'score' ? 2 : 3}’s scores now.)\n`;
}

/**
 * Explains one cell: { title, text, sources } where sources lists the cells that fed it (or,
 * for an input, the cells it feeds) as { m, row } (a whole row), { m, col } or { m, row, col }.
 * extra (optional), for a head being trained (web/train/words.js trainedExtra): { trained: { step },
 * residual?: [{ name, data }] (a head inside a model: X as the sum of those parts),
 * gradients: { Wq, Wk, Wv } | null } with the last step's ∂loss/∂W, flat and row-major.
 * pointer: 'coarse' on a touch screen, where an input is changed otherwise (howToChange).
 * @param {View} view @param {MatrixName} m @param {number} i @param {number} j @param {Extra | null} [extra] @param {'fine' | 'coarse'} [pointer] @returns {Explanation}
 */
export function explainCell(view, m, i, j, extra = null, pointer = 'fine') {
  const v = displayed(view, m)[i * matrixInfo(view, m).cols + j];
  const title = `${m}[${i + 1}][${j + 1}] = ${fmt(v)}`;
  const explain = { X: explainInput, Wq: explainWeight, Wk: explainWeight, Wv: explainWeight, Q: explainProjection, K: explainProjection, V: explainProjection, S: explainScore, M: explainMask, A: explainWeightA, O: explainOutput }[m];
  const { text, sources } = explain(view, m, i, j, extra, pointer);
  return { title, text, sources };
}

/**
 * How an input cell is changed, said for the input at hand: a mouse drags, or turns its wheel
 * with Alt held (a bare wheel scrolls the page, as everywhere else: events.js); a touch screen (pointer: coarse) has no wheel, and a finger's drag scrolls the page (events.js
 * starts no drag on touch), so there the explanation's −0.1 and +0.1 buttons do it.
 * @param {'fine' | 'coarse'} pointer
 */
export const howToChange = (pointer) => (pointer === 'coarse' ? 'tap it, then type a number or press −0.1 and +0.1' : 'select it, then type a number, drag sideways, or turn the scroll wheel with Alt held');

/** @param {View} view @param {MatrixName} m @param {number} i @param {number} j @param {Extra | null} extra @param {'fine' | 'coarse'} [pointer] @returns {Said} */
function explainInput(view, m, i, j, extra, pointer = 'fine') {
  if (extra && extra.residual) return residualCell(view, i, j, extra.residual);
  const { config } = view;
  const f = /** @type {string[]} */ (featuresOf(config))[j], who = tokenRef(config.tokens, i);
  /** @type {Source[]} */
  const sources = [{ m: 'Q', row: i }, { m: 'K', row: i }, { m: 'V', row: i }];
  if (extra && extra.trained)
    return { text: `Feature “${f}” of ${who}: 1 if the token (or its position) is “${f}”, else 0. The inputs are fixed; only the weights learn. It feeds row ${i + 1} of Q, K and V.`, sources };
  return { text: `Feature “${f}” of ${who}. An input: ${howToChange(pointer)} to change it. It feeds row ${i + 1} of Q, K and V.`, sources };
}

/** @param {View} view @param {MatrixName} m @param {number} i @param {number} j @param {Extra | null} extra @returns {Said} */
function explainWeight(view, m, i, j, extra) {
  const out = /** @type {'Q' | 'K' | 'V'} */ ({ Wq: 'Q', Wk: 'K', Wv: 'V' }[/** @type {'Wq' | 'Wk' | 'Wv'} */ (m)]);
  const kind = ROLE[out][0];
  const f = /** @type {string[]} */ (featuresOf(view.config))[i];
  const text = extra && extra.trained
    ? `How much feature “${f}” adds to ${kind} dimension ${j + 1}. It feeds column ${j + 1} of ${out}.\n${trainedWeight(extra, /** @type {'Wq' | 'Wk' | 'Wv'} */ (m), i, j, matrixInfo(view, m).cols)}`
    : `How much feature “${f}” adds to ${kind} dimension ${j + 1}. A learned weight (hand-picked here); you can edit it. It feeds column ${j + 1} of ${out}.`;
  return { text, sources: [{ m: 'X', col: i }, { m: out, col: j }] };
}

/** @param {View} view @param {MatrixName} m @param {number} i @param {number} j @returns {Said} */
function explainProjection(view, m, i, j) {
  const { r, config } = view;
  const [kind, what] = ROLE[/** @type {'Q' | 'K' | 'V'} */ (m)];
  const W = /** @type {'Wq' | 'Wk' | 'Wv'} */ ('W' + m.toLowerCase());
  const cols = m === 'V' ? r.dv : r.dk;
  const who = `Dimension ${j + 1} of the ${kind} of ${tokenRef(config.tokens, i)}: ${what}.`;
  if (r.X == null) {
    /** @type {Source[]} */
    const feeds = m === 'Q' ? [{ m: 'S', row: i }] : m === 'K' ? [{ m: 'S', col: i }] : [{ m: 'O', col: j }];
    return { text: `${who} Given directly, as in the lesson’s worked example (in a real layer it comes from X·${W}); you can edit it.`, sources: feeds };
  }
  const pr = /** @type {ProjectedResult} */ (r);
  const x = rowOf(pr.X, i, pr.d), w = colOf(pr[W], j, pr.d, cols);
  return {
    text:
      `${who}\n${m} = X·${W}, so ${m}[${i + 1}][${j + 1}] = Σₖ X[${i + 1}][k]·${W}[k][${j + 1}]\n` +
      `= ${sumOfProducts(x.map((a, k) => [a, w[k]]), /** @type {Float32Array} */ (r[m])[i * cols + j])}`,
    sources: [{ m: 'X', row: i }, { m: W, col: j }],
  };
}

/** @param {View} view @param {MatrixName} m @param {number} i @param {number} j @returns {Said} */
function explainScore(view, m, i, j) {
  const { r, raw, config } = view;
  const t = config.tokens;
  const k = i * r.m + j;
  /** @type {Source[]} */
  const sources = [{ m: 'Q', row: i }, { m: 'K', row: j }, { m: 'M', row: i, col: j }];
  if (r.M[k] === -Infinity && view.step !== 'score' && view.step !== 'scale')
    return { text: `${opening(maskedWhy(view, i, j))}, so the mask sets this score to −∞ and its weight in A to exactly 0. (Before the mask the score was ${fmt(r.S[k])}.)`, sources };
  const q = rowOf(r.Q, i, r.dk), kk = rowOf(r.K, j, r.dk);
  const dot = `q${sub(i)}·k${sub(j)} = ${sumOfProducts(q.map((a, c) => [a, kk[c]]), raw.S[k], { sep: ' = ' })}`;
  const match = `How well the query of ${tokenRef(t, i)} matches the key of ${tokenRef(t, j)}.`;
  if (view.step === 'score') return { text: `${match}\nS = Q·Kᵀ (not scaled yet): ${dot}`, sources };
  return { text: `${match}\n${scaledScore(view, i, j, dot)}`, sources };
}

// The dot product, then the scale, ending in the core's S[i][j].
/** @param {View} view @param {number} i @param {number} j @param {string} dot */
function scaledScore(view, i, j, dot) {
  const { r, raw, config } = view;
  const k = i * r.m + j, s = fmt(r.S[k]), d = fmt(raw.S[k]);
  const at = `S[${i + 1}][${j + 1}]`;
  if (config.scale == null)
    return `${at} = (q${sub(i)}·k${sub(j)}) / √dk, with dk = ${r.dk}\n${dot}\n${d} / √${r.dk} = ${d} / ${fmt(Math.sqrt(r.dk))} = ${d} × ${fmt(r.scale)} = ${s}`;
  if (config.scale === 1)
    return `${at} = q${sub(i)}·k${sub(j)} (scaling is off; the lesson divides by √dk = √${r.dk} = ${fmt(Math.sqrt(r.dk))})\n${dot}`;
  return `${at} = (q${sub(i)}·k${sub(j)}) × scale, with the scale set to ${fmt(r.scale)}\n${dot}\n${d} × ${fmt(r.scale)} = ${s}`;
}

/** @param {View} view @param {MatrixName} m @param {number} i @param {number} j @returns {Said} */
function explainMask(view, m, i, j) {
  const { r, config } = view;
  const t = config.tokens;
  const v = r.M[i * r.m + j];
  /** @type {Source[]} */
  const sources = [{ m: 'S', row: i, col: j }, { m: 'A', row: i, col: j }];
  if (v === -Infinity) return { text: `${opening(maskedWhy(view, i, j))}, so −∞ is added to this score: its weight in A is exactly 0.`, sources };
  if (v !== 0) return { text: `The mask adds ${fmt(v)} to this score.`, sources };
  if (!hasMask(r) && !r.causal)
    return { text: `The mask is off (causal: false): every token may look at every token${r.X == null ? ', as in the lesson’s worked example' : ''}, so 0 is added to every score.`, sources };
  const target = i === j ? 'itself' : tokenRef(t, j);
  const why = r.causal && j < i ? ` (${j + 1} ≤ ${i + 1})` : '';
  return { text: `${opening(tokenRef(t, i))} may look at ${target}${why}, so 0 is added to the score.`, sources };
}

/** @param {View} view @param {MatrixName} m @param {number} i @param {number} j @returns {Said} */
function explainWeightA(view, m, i, j) {
  const { r, config } = view;
  const t = config.tokens;
  /** @type {Source[]} */
  const sources = [{ m: 'S', row: i }, { m: 'M', row: i }];
  const live = visibleKeys(r, i);
  if (!live.length)
    return { text: `Exactly 0: every key of row ${i + 1} is masked, so ${tokenRef(t, i)} has nothing to look at. PyTorch’s rule gives such a row weights of 0 and an output of 0.`, sources };
  if (r.M[i * r.m + j] === -Infinity)
    return { text: `Exactly 0: ${maskedWhy(view, i, j)}, so the score was masked to −∞, and exp(−∞) = 0.`, sources };
  // a float mask that adds a number to a visible key's score: the softmax is of S + M
  const adds = live.some((c) => r.M[i * r.m + c] !== 0);
  const head = `${laterNote(view, 'A')}The share of its attention ${tokenRef(t, i)} gives to ${i === j ? 'itself' : tokenRef(t, j)}: the softmax of row ${i + 1} of ${adds ? 'S + M (the mask adds a number to some of its scores)' : 'S'}.\n`;
  return { text: head + softmaxArithmetic(view, i, j, live, adds ? '(S + M)' : 'S'), sources };
}

/**
 * The arithmetic of A[i][j] over the visible keys `live`. The lesson's way, exp(s) / Σ exp(s) with
 * the real terms, when every term and the sum fit in float32; otherwise the core's way, with the
 * row's largest score subtracted first, and why. scores: what the terms are named, S, or (S + M)
 * where a float mask adds a number to a visible key of the row.
 * @param {View} view @param {number} i @param {number} j @param {number[]} live @param {string} scores
 */
function softmaxArithmetic(view, i, j, live, scores) {
  const { r } = view;
  const at = `A[${i + 1}][${j + 1}]`;
  const s = (/** @type {number} */ c) => softmaxScore(r, i, c); // M adds 0 to a visible key (or a float mask's value)
  const sName = `${scores}[${i + 1}][${j + 1}]`, sAll = `${scores}[${i + 1}][k]`;
  let max = -Infinity;
  for (const c of live) max = Math.max(max, s(c));
  const plain = live.map((c) => Math.exp(s(c)));
  const sumPlain = plain.reduce((a, b) => a + b, 0);
  const shifted = (/** @type {number} */ c) => Math.exp(s(c) - max);
  const sumShifted = live.reduce((acc, c) => acc + shifted(c), 0);
  const hidden = r.m - live.length;
  const maskedNote = hidden ? ` (the ${count(hidden, 'masked key')} ${verb(hidden, 'adds', 'add')} exp(−∞) = 0)` : '';
  const terms = (/** @type {(c: number) => number} */ f) => {
    const all = live.map((c) => fmt(f(c)));
    return all.length > MAX_TERMS ? all.slice(0, MAX_TERMS).concat(`… (${count(all.length - MAX_TERMS, 'more term')})`) : all;
  };
  const weight = fmt(r.A[i * r.m + j]);
  const plainTerms = terms((/** @type {number} */ c) => Math.exp(s(c))), shiftedTerms = terms(shifted);
  const under = tinyWeightNote(at, r.A[i * r.m + j], `exp(${fmt(s(j))} − ${p(max)}) = exp(${fmt(s(j) - max)})`);
  const tooBig = plain.find((x) => !(x <= F32_MAX));
  const why = tooBig !== undefined
    ? `exp(${fmt(Math.max(...live.map(s)))}) is past float32’s largest number (about 3.40e38)`
    : sumPlain > F32_MAX
      ? `the sum of the exp terms is past float32’s largest number (about 3.40e38), though each term fits`
      : sumPlain < F32_MIN_NORMAL
        ? `every exp term is below float32’s smallest normal number (about 1.18e−38) and rounds towards 0`
        : '';
  if (!why)
    return (
      `${at} = exp(${sName}) / Σₖ exp(${sAll})\n` +
      `exp(${fmt(s(j))}) = ${fmt(Math.exp(s(j)))}\n` +
      `${sumLine(plainTerms, sumPlain)}${maskedNote}${sumNote(plainTerms, sumPlain)}\n` +
      `${at} = ${fmt(Math.exp(s(j)))} / ${fmt(sumPlain)} = ${weight}\n` +
      `The core first subtracts the row’s largest score, ${fmt(max)}, from every score: exp(${fmt(s(j))} − ${p(max)}) / Σₖ exp(${sAll} − ${p(max)}) = ${fmt(shifted(j))} / ${fmt(sumShifted)}. Both are the numbers above times exp(${fmt(-max)}) = ${fmtFine(Math.exp(-max))}, so the ratio is the same, ${weight}, and no term can be larger than 1, so nothing overflows.` +
      under
    );
  return (
    `Here ${why}, so this row is worked out the way the core does it: subtract the row’s largest score, ${fmt(max)}, from every score first. Multiplying every term by the same exp(−max) leaves the ratio unchanged.\n` +
    `${at} = exp(${sName} − max) / Σₖ exp(${sAll} − max)\n` +
    `exp(${fmt(s(j))} − ${p(max)}) = ${fmt(shifted(j))}\n` +
    `${sumLine(shiftedTerms, sumShifted)}${maskedNote}${sumNote(shiftedTerms, sumShifted)}\n` +
    `${at} = ${fmt(shifted(j))} / ${fmt(sumShifted)} = ${weight}` +
    under
  );
}

/** @param {View} view @param {MatrixName} m @param {number} i @param {number} j @returns {Said} */
function explainOutput(view, m, i, j) {
  const { r, config } = view;
  const t = config.tokens;
  /** @type {Source[]} */
  const sources = [{ m: 'A', row: i }, { m: 'V', col: j }];
  const name = matrixInfo(view, 'O').colLabels[j];
  const dim = `Dimension ${j + 1}${name === `v${j + 1}` ? '' : ` (“${name}”)`} of the output of ${tokenRef(t, i)}`; // named unless it is just vj
  const live = visibleKeys(r, i);
  if (!live.length)
    return { text: `${dim}: exactly 0. Every key of row ${i + 1} is masked, so its weights are all 0 and so is its output (PyTorch’s rule).`, sources };
  const a = rowOf(r.A, i, r.m), vv = colOf(r.V, j, r.m, r.dv);
  const left = r.m - live.length;
  return {
    text:
      `${laterNote(view, 'O')}${dim}: the weighted average of column ${j + 1} of V, with row ${i + 1} of A as the weights.\n` +
      `O[${i + 1}][${j + 1}] = Σₖ A[${i + 1}][k]·V[k][${j + 1}]` +
      (left ? ` (the ${count(left, 'masked key')} ${verb(left, 'has', 'have')} weight 0)` : '') +
      `\n= ${sumOfProducts(live.map((k) => [a[k], vv[k]]), r.O[i * r.dv + j], { values: true })}`,
    sources,
  };
}

// A head inside a model reads the residual stream: X is a sum of parts (the embedding, and what
// earlier heads wrote), each given as { name, data [n·d] } in extra.residual.
/** @param {View} view @param {number} i @param {number} j @param {{ name: string, data: Float32Array }[]} parts @returns {Said} */
function residualCell(view, i, j, parts) {
  const { r, config } = view;
  const d = /** @type {number} */ (r.d);
  const terms = parts.map((part) => `${p(part.data[i * d + j])} (${part.name})`);
  return {
    text: `Dimension “${/** @type {string[]} */ (featuresOf(config))[j]}” of the residual stream at ${tokenRef(config.tokens, i)}: what this head reads. Every earlier part of the model adds to the stream, so it is ${terms.join(' + ')}. It feeds row ${i + 1} of Q, K and V.`,
    sources: [{ m: 'Q', row: i }, { m: 'K', row: i }, { m: 'V', row: i }],
  };
}

// A trained weight: where it came from and, after a step, its gradient beside the step the
// optimizer took (the words are weightStory below, shared with the training panel's read-out).
/** @param {Extra} extra @param {'Wq' | 'Wk' | 'Wv'} m @param {number} i @param {number} j @param {number} cols */
function trainedWeight(extra, m, i, j, cols) {
  const { step } = /** @type {{ step: number }} */ (extra.trained);
  const g = extra.gradients && extra.gradients[m];
  const u = extra.update && extra.update[m];
  return weightStory({ name: `${m}[${i + 1}][${j + 1}]`, step, g: g ? g[i * cols + j] : null, delta: u ? u[i * cols + j] : null, optimizer: extra.optimizer, lr: extra.lr });
}

/**
 * The head's formula with its sizes: the line under the page's title.
 * @param {View} view @returns {string}
 */
export function formulaLine(view) {
  const { r, config } = view;
  const sizes = r.dk === r.dv ? `dk = dv = ${r.dk}` : `dk = ${r.dk}, dv = ${r.dv}`;
  const proj = r.X == null ? `Q, K, V given (${sizes})` : `Q = X·Wq, K = X·Wk, V = X·Wv (d = ${r.d}, ${sizes})`;
  const score = config.scale == null
    ? `S = Q·Kᵀ/√dk = Q·Kᵀ/${fmt(Math.sqrt(r.dk))}`
    : config.scale === 1 ? `S = Q·Kᵀ (scaling off; √dk = ${fmt(Math.sqrt(r.dk))})` : `S = Q·Kᵀ × ${fmt(r.scale)}`;
  const mask = r.causal ? 'causal mask' : hasMask(r) ? 'mask' : 'no mask';
  return `${proj}; ${score}; ${mask}; A = softmax by row; O = A·V.`;
}

/**
 * One sentence per step, in the lesson's words, with this head's numbers.
 * @param {View} view @param {Step | null} step @returns {string}
 */
export function narration(view, step) {
  const { r, config } = view;
  switch (step) {
    case 'project':
      return r.X == null
        ? `1. Project. Here Q, K and V are given directly, as in the lesson’s worked example: Q is ${ROLE.Q[1].replace('it is', 'each token is')}, K ${ROLE.K[1].replace('it', 'each token')}, V ${ROLE.V[1].replace('it', 'each token')}. In a real layer they come from X·Wq, X·Wk and X·Wv.`
        : `1. Project. Multiply X by three learned matrices: Q = X·Wq, each token’s query, ${ROLE.Q[1]}; K = X·Wk, each token’s key, ${ROLE.K[1]}; V = X·Wv, each token’s value, ${ROLE.V[1]}.`;
    case 'score':
      return '2. Score. S = Q·Kᵀ: the dot product of every query with every key. Entry (i, j) says how well token i’s query matches token j’s key.';
    case 'scale':
      if (config.scale === 1)
        return `3. Scale. Scaling is off: the scores are used as they are, so with wide heads the softmax saturates (one weight near 1, the rest near 0). The lesson divides by √dk = √${r.dk} = ${fmt(Math.sqrt(r.dk))}.`;
      if (config.scale != null) return `3. Scale. Every score is multiplied by the scale set in the config, ${fmt(r.scale)}, instead of the lesson’s 1/√dk = ${fmt(1 / Math.sqrt(r.dk))}.`;
      return `3. Scale. Divide by √dk, where dk = ${r.dk} is the width of each query and key: √${r.dk} = ${fmt(Math.sqrt(r.dk))}, so every score is multiplied by ${fmt(r.scale)}. This keeps the softmax from saturating.`;
    case 'mask': {
      if (r.causal) return '4. Mask. Set every score where j comes after i to −∞, so tokens can’t see the future.';
      if (hasMask(r)) return `4. Mask. Set the ${count(maskedCount(r), 'masked score')} to −∞: those keys get weight 0.`;
      return `4. Mask. The mask is off here${r.X == null ? ' (as in the lesson’s worked example)' : ''}: every token may look at every token.`;
    }
    case 'softmax': {
      const dead = fullyMaskedRows(r);
      const rows = dead.length ? ` ${dead.length === 1 ? 'Row' : 'Rows'} ${list(dead.map((i) => i + 1))} ${verb(dead.length, 'has', 'have')} no key left: ${verb(dead.length, 'its', 'their')} weights are all 0.` : '';
      return `5. Softmax each row, turning scores into weights A that are non-negative${hasMask(r) ? ' (masked ones exactly 0)' : ''} and add up to 1.${rows}`;
    }
    case 'mix':
      return '6. Mix. O = A·V: each token’s output is the weighted average of the value rows.';
  }
  return 'All six steps at once: project, score, scale, mask, softmax, mix. Press play to go through them one by one.';
}

/** Which matrices each step produces (the panels it highlights). */
export const STEP_MATRICES = {
  project: ['Q', 'K', 'V'],
  score: ['S'],
  scale: ['S'],
  mask: ['M', 'S'],
  softmax: ['A'],
  mix: ['O'],
};

/**
 * “the” (5) gives 0.528 of its attention to “cat” (2). … Ties name every token (and every dimension);
 * a weight that underflowed to 0 in float32 is said to be so (underflowClause).
 * @param {View} view @param {number} i @returns {string}
 */
export function followSentence(view, i) {
  const { r, config } = view;
  const t = config.tokens;
  const live = visibleKeys(r, i);
  if (!live.length) return `${opening(tokenRef(t, i))} has no key it may look at (every key of its row is masked), so its weights and its output are all 0.`;
  const a = rowOf(r.A, i, r.m);
  const tops = largest(a, live);
  const each = tops.length > 1 ? ' each' : '';
  let s = `${opening(tokenRef(t, i))} gives ${fmt(a[tops[0]])} of its attention${each} to ${list(tops.map((j) => (j === i ? 'itself' : tokenRef(t, j))))}.`;
  s += ' ' + visibility(view, i, live);
  const under = underflowClause(view, i); // a visible key whose weight is still 0
  if (under) s += ` ${opening(under)}.`;
  const o = rowOf(r.O, i, r.dv);
  const names = matrixInfo(view, 'O').colLabels;
  const big = largest(o);
  const top = `${list(big.map((j) => `“${names[j]}”`))}, ${fmt(o[big[0]])}${big.length > 1 ? ' each' : ''}`;
  s += r.dv <= 6
    ? ` Its output (row ${i + 1} of O) is [${o.map(fmt).join(', ')}]; its largest ${noun(big.length, 'component is', 'components are')} ${top}.`
    : ` Its output (row ${i + 1} of O) has ${r.dv} components; the largest ${verb(big.length, 'is', 'are')} ${top}.`;
  return s;
}

/**
 * The explorer's key idea, in the widget page's words (its room of people: a card saying what
 * each looks for, a badge saying what each offers, listening in proportion), said once for all
 * heads: the first sentence of the page's lead.
 */
export const KEY_IDEA = 'Each token listens to the tokens it can see, in proportion to how well its query (what it looks for) matches their key (what they offer); its output is the weighted average of their values.';

/**
 * The lead's second sentence: whom token i listens to most, with the core's weight (row i of A).
 * “the” (5) listens most to “cat” (2): 0.528 of its attention in A. Ties name every token ("… to
 * “a” (1) and “b” (2): 0.500 of its attention each in A"); a row with every visible key tied, one
 * visible key, or none is said as such.
 * @param {View} view @param {number} i @returns {string}
 */
export function leadSentence(view, i) {
  const { r, config } = view;
  const t = config.tokens;
  const who = tokenRef(t, i);
  const ref = (/** @type {number} */ j) => (j === i ? 'itself' : tokenRef(t, j));
  const live = visibleKeys(r, i);
  if (!live.length) return `${opening(who)} has no token it may listen to (every key of row ${i + 1} is masked), so its weights are all 0.`;
  const a = rowOf(r.A, i, r.m);
  if (live.length === 1) return `${opening(who)} can see only ${ref(live[0])}, so it gives ${live[0] === i ? 'itself' : 'it'} all of its attention: ${fmt(a[live[0]])} in A.`;
  const tops = largest(a, live);
  if (tops.length === live.length) {
    const all = live.length < r.m ? `the ${live.length} tokens it can see` : live.length === 2 ? 'both tokens' : `all ${live.length} tokens`;
    return `${opening(who)} listens to ${all} equally: ${fmt(a[tops[0]])} of its attention each in A.`;
  }
  const each = tops.length > 1 ? ' each' : '';
  return `${opening(who)} listens most to ${list(tops.map(ref))}: ${fmt(a[tops[0]])} of its attention${each} in A.`;
}

// Which keys row i may look at, said in as few words as are true, naming what hides what: the
// causal mask hides every key after the query (top-left aligned, as the core builds M), an
// explicit mask the other hidden keys.
/** @param {View} view @param {number} i @param {number[]} live */
function visibility(view, i, live) {
  const { r } = view;
  const hidden = r.m - live.length;
  if (!hidden) return r.causal && r.m > 1 ? 'It can see every token, itself included.' : r.m === 1 ? 'It is the only token.' : 'Nothing is masked: it can see every token, itself included.';
  const later = r.causal ? Math.max(0, r.m - i - 1) : 0; // every one of them is −∞ in M
  const byMask = hidden - later;
  const after = later === 1 ? 'the token after it' : `the ${later} tokens after it`;
  if (!byMask) { // (causal: the keys it sees are 1 to i + 1, so these are all of them)
    const seen = i === 0 ? 'only itself' : `${range(1, i + 1, 'token')}, itself included`;
    return `It can see ${seen}; the causal mask hides ${after}.`;
  }
  const look = `It may look at ${count(live.length, 'token')} of ${r.m}`;
  if (!later) return `${look}; the mask hides ${byMask === 1 ? 'the other one' : `the other ${byMask}`}.`;
  return `${look}; the mask hides ${count(byMask, 'token')} and the causal mask hides ${after}.`;
}

/**
 * Small copies of the cells that fed an explained cell (its `sources`), so the learner sees the
 * inputs without scrolling: [{ m, title, labels, values, kind }] with at most `max` values each
 * (title says when some are left out). A row is read across, a column down, one cell alone.
 * @param {View} view @param {readonly Source[]} sources @param {number} [max] @returns {{ m: MatrixName, title: string, labels: string[], values: number[] }[]}
 */
export function sourceCopies(view, sources, max = 12) {
  const out = [];
  for (const s of sources) {
    const info = matrixInfo(view, s.m);
    const vals = displayed(view, s.m);
    let title, labels, values;
    if (s.row != null && s.col != null) {
      title = `${s.m}[${s.row + 1}][${s.col + 1}]`;
      labels = [`${info.rowLabels[s.row]} → ${info.colLabels[s.col]}`];
      values = [vals[s.row * info.cols + s.col]];
    } else if (s.row != null) {
      title = `${s.m} row ${s.row + 1} (${info.rowLabels[s.row]})`;
      labels = info.colLabels.slice();
      values = Array.from(vals.subarray(s.row * info.cols, (s.row + 1) * info.cols));
    } else {
      const col = /** @type {number} */ (s.col);
      title = `${s.m} column ${col + 1} (${info.colLabels[col]})`;
      labels = info.rowLabels.slice();
      values = Array.from({ length: info.rows }, (_, k) => vals[k * info.cols + col]);
    }
    if (values.length > max) {
      title += `, the first ${max} of ${values.length}`;
      labels = labels.slice(0, max);
      values = values.slice(0, max);
    }
    out.push({ m: s.m, title, labels, values });
  }
  return out;
}

// ------------------------------------------------------------------ what training did to a weight

/** @type {Record<string, (lr: number | null) => string>} */
const OPTIMIZER_WAYS = {
  sgd: (lr) => `SGD moves every weight by −lr × its gradient${lr != null ? ` (lr = ${lr})` : ''}, always against it`,
  adam: () => 'Adam moves each weight by about lr times m̂/√v̂: a running average of its recent gradients divided by their typical size, so a weight can keep moving the way earlier steps pushed it, even uphill on this step’s batch',
};

/**
 * What training did to one weight, for its explanation: its gradient on the last step's batch
 * and the step the optimizer really took, side by side. Under Adam the step follows a running
 * average of gradients, so it can go the same way as this step's gradient (uphill on this
 * batch); the sentence says which it was. name: "Wq[1][3]"; g: ∂loss/∂w; delta: the change of
 * w over the step (null when unknown); lr: the learning rate of that step.
 * @param {{ name: string, step: number, g: number | null, delta?: number | null, optimizer?: string, lr?: number | null }} what
 * @returns {string}
 */
export function weightStory({ name, step, g, delta = null, optimizer = 'adam', lr = null }) {
  if (!step || g == null) return 'Random at step 0: gradient descent has not changed it yet.';
  const gs = fmtFine(g);
  const lines = [
    `Learned by gradient descent: this is its value after step ${step}.`,
    `∂loss/∂${name} = ${gs} on step ${step}’s batch (before its update): raising this weight by a small ε changes that batch’s loss by about ${gs}·ε, so the gradient alone says ${g > 0 ? 'lower it' : g < 0 ? 'raise it' : 'leave it'}.`,
  ];
  if (delta != null) {
    const ds = (delta > 0 ? '+' : '') + fmtFine(delta);
    const way = delta === 0 ? 'did not move it' : `moved it by ${ds} (${delta > 0 ? 'up' : 'down'}, ${delta * g < 0 ? 'against its gradient: downhill on this batch' : delta * g > 0 ? 'the same way as its gradient: uphill on this batch' : 'with no gradient to follow'})`;
    lines.push(`Step ${step} ${way}. ${(OPTIMIZER_WAYS[optimizer] || OPTIMIZER_WAYS.adam)(lr)}.`);
  }
  return lines.join('\n');
}
