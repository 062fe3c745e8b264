// @ts-check
// config.js: the config format, its strict parser, and the page state in the URL.
//
// THE CONFIG FORMAT (one JSON object; the same for the URL, files, the embed and the CLI)
//
//   {
//     "tokens":   ["The", "cat", "sat", "on", "the"],   // n strings, shown literally (never as HTML)
//     "features": ["thing", "action", "small word", "first token"],   // d names of X's columns
//     "X":  [[...], ...],   // [n][d]  one row per token
//     "Wq": [[...], ...],   // [d][dk] query projection
//     "Wk": [[...], ...],   // [d][dk] key projection
//     "Wv": [[...], ...],   // [d][dv] value projection
//     "causal": true,       // optional, default true: token i may look only at tokens j <= i
//     "scale": null         // optional, default null = 1/sqrt(dk); a number > 0 replaces it
//   }                       //   (1 turns the scaling off)
//
// The text may also be tensors as PyTorch or NumPy print them ("Q = tensor([[1., 0.], ...])"):
// web/blocks/tensor-text.js reads them into this format.
//
// Direct form (the lesson's worked example): give "Q" [n][dk], "K" [n][dk] and "V" [n][dv]
// instead of X, Wq, Wk, Wv (and no "features"). "tokens" and "features" are optional: they
// default to "1", "2", ... and "f1", "f2", ....
//
// Rules: no other keys; every number finite; rows of one matrix the same length; shapes that
// fit together; n <= limits.maxTokens, d, dk, dv <= limits.maxWidth, token names at most
// MAX_NAME characters; the JSON text at most MAX_JSON characters (checked before parsing).

import { fromTensorText } from './tensor-text.js';
import { MAX_MESSAGE, clipMessage, count as countOf, list } from './words.js';

export const MAX_JSON = 4_000_000;
/** How long the element's src may take, in ms, before it gives up on it and says so. */
export const SRC_TIMEOUT_MS = 15000;
export const MAX_NAME = 40;
/** @typedef {{ maxTokens: number, maxWidth: number }} Limits */
/** @typedef {import('../../types/config').Config} Config */
/** @typedef {import('../../types/config').ProjectedConfig} ProjectedConfig */
/** @typedef {import('../../types/config').DirectConfig} DirectConfig */
/** @typedef {import('../../types/config').Step} Step */
/** @typedef {import('../../types/config').MatrixName} MatrixName */
/** @typedef {import('../../types/config').UrlState} UrlState */
/** @type {Limits} */
export const DEFAULT_LIMITS = { maxTokens: 256, maxWidth: 256 };
/** The names a config gets where it gives none: tokens "1", "2", ..., features "f1", "f2", .... */
export const UNNAMED = Object.freeze({ tokens: (/** @type {number} */ i) => String(i + 1), features: (/** @type {number} */ i) => 'f' + (i + 1) });
const KEYS = ['tokens', 'features', 'X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'causal', 'scale'];

// MAX_MESSAGE and clipMessage live in web/blocks/words.js (the labs page needs them without this module).
export { MAX_MESSAGE, clipMessage };

/**
 * A value from a config, named briefly: strings quoted and clipped, containers by their kind.
 * @param {unknown} v @returns {string}
 */
export function describeValue(v) {
  if (typeof v === 'string') return JSON.stringify(clipMessage(v, 24));
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'an object';
  return String(v);
}

export class ConfigError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(clipMessage(message));
  }
}
/** @param {string} msg @returns {never} */
function fail(msg) {
  throw new ConfigError(msg);
}

/**
 * obj[key] as a fresh matrix, checked: rows x cols where those are given, within the limits.
 * @param {Record<string, unknown>} obj @param {string} key @param {number | null} rows @param {number | null} cols
 * @param {Limits} limits @returns {number[][]}
 */
function matrix(obj, key, rows, cols, limits) {
  const a = obj[key];
  if (!Array.isArray(a) || a.length === 0) fail(`"${key}" must be a non-empty array of rows, like [[1, 0], [0, 1]].`);
  const rowLimit = key.length === 1 ? limits.maxTokens : limits.maxWidth; // X, Q, K, V: a row per token
  if (a.length > rowLimit) fail(`"${key}" has ${a.length} rows; the limit is ${rowLimit}.`);
  if (rows != null && a.length !== rows) fail(`"${key}" has ${countOf(a.length, 'row')} but must have ${rows} (${rowsWhy(key)}).`);
  const c = Array.isArray(a[0]) ? a[0].length : 0;
  if (cols != null && c !== cols) fail(`"${key}" has ${countOf(c, 'column')} but must have ${cols} (${colsWhy(key)}).`);
  if (c > limits.maxWidth) fail(`"${key}" has ${c} columns; the limit is ${limits.maxWidth}.`);
  a.forEach((/** @type {unknown} */ row, i) => {
    if (!Array.isArray(row)) fail(`"${key}" row ${i + 1} is not an array of numbers.`);
    if (row.length === 0) fail(`"${key}" row ${i + 1} is empty.`);
    if (row.length !== c) fail(`"${key}" row ${i + 1} has ${countOf(row.length, 'number')} but row 1 has ${c}: every row needs the same length.`);
    row.forEach((/** @type {unknown} */ v, j) => {
      const at = `"${key}" row ${i + 1}, column ${j + 1}`;
      if (typeof v !== 'number' || Number.isNaN(v)) fail(`${at} is ${describeValue(v)}: every entry must be a finite number.`);
      // JSON has no Infinity: 1e999 parses to it. The core computes in float32, where 1e39 is already Infinity.
      if (!Number.isFinite(Math.fround(v)))
        fail(`${at} is ${Number.isFinite(v) ? v : v > 0 ? '1e999 or more' : '-1e999 or less'}, too large for float32: every entry must be a finite number within float32's range (about ±3.4e38).`);
    });
  });
  return a.map((/** @type {number[]} */ row) => row.slice());
}
/** @param {string} key */
function rowsWhy(key) {
  return key[0] === 'W' ? 'one row per column of X' : 'one per token';
}
/** @param {string} key */
function colsWhy(key) {
  return `keys and queries have the same width, the columns of ${key === 'Wk' ? 'Wq' : 'Q'}`; // Wk or K
}

/**
 * obj[key]: count names, or the made-up ones when it is left out. what: what each names, one and
 * several ('token', 'tokens').
 * @param {Record<string, unknown>} obj @param {string} key @param {number} count @param {[string, string]} what
 * @param {(i: number) => string} make @returns {string[]}
 */
function names(obj, key, count, [what, whats], make) {
  if (obj[key] === undefined) return Array.from({ length: count }, (_, i) => make(i));
  const a = obj[key];
  if (!Array.isArray(a)) fail(`"${key}" must be an array of strings, one per ${what}.`);
  if (a.length !== count) fail(`"${key}" has ${countOf(a.length, 'name')} but there ${count === 1 ? 'is' : 'are'} ${countOf(count, what, whats)}.`);
  return a.map((/** @type {unknown} */ t, i) => {
    if (typeof t !== 'string') fail(`"${key}" entry ${i + 1} must be a string.`);
    if (t.length > MAX_NAME) fail(`"${key}" entry ${i + 1} is ${t.length} characters long; the limit is ${MAX_NAME}.`);
    return t;
  });
}

/**
 * Parses and validates a config given as JSON text or as an object. Returns a new, normalised
 * config { tokens, features, X, Wq, Wk, Wv, causal, scale } or { tokens, Q, K, V, causal, scale }.
 * Throws ConfigError with a message that says what to fix.
 * @param {string | import('../../types/config').ConfigInput} input untrusted
 * @param {Limits} [limits]
 * @returns {Config}
 */
export function parseConfig(input, limits = DEFAULT_LIMITS) {
  return readConfig(input, limits).config;
}

/**
 * Reads a config as parseConfig does, and says how it was written: `pasted` is null for JSON
 * text or an object; for tensors as PyTorch or NumPy print them it says which settings the
 * text gave itself ({ causal, scale }: true where a line set it; elsewhere the defaults of
 * scaled_dot_product_attention apply: no causal mask, scale 1/√dk).
 * @param {string | import('../../types/config').ConfigInput} input untrusted
 * @param {Limits} [limits]
 * @returns {{ config: Config, pasted: { causal: boolean, scale: boolean } | null }}
 */
export function readConfig(input, limits = DEFAULT_LIMITS) {
  /** @type {import('./tensor-text.js').Given} */
  const given = {};
  const obj = objectOf(input, given);
  const pasted = given.causal === undefined ? null : { causal: Boolean(given.causal), scale: Boolean(given.scale) };
  return { config: validate(obj, limits), pasted };
}

/**
 * The object a config's text stands for: JSON, or printed tensors (fromTensorText, which fills
 * `given`). An object is returned as it is.
 * @param {string | import('../../types/config').ConfigInput} input @param {import('./tensor-text.js').Given} given
 * @returns {Record<string, unknown>}
 */
function objectOf(input, given) {
  /** @type {Record<string, unknown>} */
  let obj = /** @type {any} */ (input); // untrusted: every key is checked by validate
  if (typeof input === 'string') {
    if (input.length > MAX_JSON) fail(`The config is ${input.length} characters long; the limit is ${MAX_JSON}.`);
    // JSON first when it is a JSON object: a token such as "array([" must not make it tensor text
    let json = null;
    if (input.trimStart().startsWith('{')) {
      try {
        json = JSON.parse(input);
      } catch (e) {
        fail(`The config is not valid JSON (${/** @type {Error} */ (e).message}). Check quotes, commas and brackets.`);
      }
    }
    // else tensors as PyTorch or NumPy print them (web/blocks/tensor-text.js), or null
    obj = json ?? /** @type {any} */ (fromTensorText(input, fail, given));
    if (obj === null) {
      try {
        obj = JSON.parse(input);
      } catch (e) {
        fail(`The config is not valid JSON (${/** @type {Error} */ (e).message}). Check quotes, commas and brackets.`);
      }
    }
  }
  return obj;
}

/**
 * Checks a config object (untrusted: every key) and returns it normalised.
 * @param {Record<string, unknown>} obj @param {Limits} limits @returns {Config}
 */
function validate(obj, limits) {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) fail('The config must be a JSON object like {"X": [[...]], "Wq": [[...]], ...}.');
  const unknown = Object.keys(obj).filter((k) => !KEYS.includes(k));
  if (unknown.length) fail(`Unknown key${unknown.length > 1 ? 's' : ''} ${unknown.slice(0, 5).map(describeValue).join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}: the allowed keys are ${KEYS.join(', ')}.`);
  if (obj.causal !== undefined && typeof obj.causal !== 'boolean') fail('"causal" must be true or false.');
  if (obj.scale !== undefined && obj.scale !== null && !(typeof obj.scale === 'number' && Number.isFinite(Math.fround(obj.scale)) && obj.scale > 0))
    fail('"scale" must be null (meaning 1/√dk) or a number greater than 0 within float32\'s range (about 3.4e38).');
  const causal = obj.causal ?? true;
  const scale = obj.scale ?? null;
  const direct = obj.Q !== undefined || obj.K !== undefined || obj.V !== undefined;
  if (direct) {
    const mixed = ['X', 'Wq', 'Wk', 'Wv', 'features'].filter((k) => obj[k] !== undefined);
    if (mixed.length) fail(`Give either Q, K and V (direct form) or X, Wq, Wk and Wv, not both: remove ${mixed.join(', ')}.`);
    for (const k of ['Q', 'K', 'V']) if (obj[k] === undefined) fail(`The direct form needs "Q", "K" and "V": "${k}" is missing.`);
    const Q = matrix(obj, 'Q', null, null, limits);
    const K = matrix(obj, 'K', Q.length, Q[0].length, limits);
    const V = matrix(obj, 'V', Q.length, null, limits);
    const tokens = names(obj, 'tokens', Q.length, ['token', 'tokens'], UNNAMED.tokens);
    return { tokens, Q, K, V, causal, scale };
  }
  for (const k of ['X', 'Wq', 'Wk', 'Wv']) if (obj[k] === undefined) fail(`"${k}" is missing: give X, Wq, Wk and Wv (or Q, K and V for the direct form).`);
  const X = matrix(obj, 'X', null, null, limits);
  const d = X[0].length;
  const Wq = matrix(obj, 'Wq', d, null, limits);
  const Wk = matrix(obj, 'Wk', d, Wq[0].length, limits);
  const Wv = matrix(obj, 'Wv', d, null, limits);
  const tokens = names(obj, 'tokens', X.length, ['token', 'tokens'], UNNAMED.tokens);
  const features = names(obj, 'features', d, ['feature (column of X)', 'features (columns of X)'], UNNAMED.features);
  return { tokens, features, X, Wq, Wk, Wv, causal, scale };
}

/** @type {(config: Config) => config is DirectConfig} */
export const isDirect = (config) => /** @type {DirectConfig} */ (config).Q !== undefined;

/**
 * The argument of attn.forward for a parsed config (scaleOverride replaces its scale).
 * @param {Config} config @param {number | null} [scaleOverride]
 * @returns {import('../../types/attention').ForwardArgs}
 */
export function forwardArgs(config, scaleOverride) {
  const scale = scaleOverride ?? config.scale ?? undefined;
  return isDirect(config)
    ? { Q: config.Q, K: config.K, V: config.V, causal: config.causal, scale }
    : { X: config.X, Wq: config.Wq, Wk: config.Wk, Wv: config.Wv, causal: config.causal, scale };
}

/**
 * A deep copy that serialises back to the config format.
 * @template {Config} C @param {C} config @returns {C}
 */
export function cloneConfig(config) {
  return JSON.parse(JSON.stringify(config));
}

// ---------------------------------------------------------------------------------------------
// URL state.
//   ?preset=cat&step=softmax&follow=4&cell=A.4.1       an unchanged preset
//   #config=<URI-encoded JSON>&from=cat&step=mix&follow=2&cell=O.2.0   anything else
// step is one of STEPS (absent = every step shown), follow a 0-based token row, cell
// "<matrix>.<row>.<col>" (0-based) the selected cell, from the preset a changed head started
// as (so "Reset" still goes back to it), theme light or dark (absent = the reader's own
// choice). Parameters are read from both the query and the hash (the hash wins), so either
// place works in a hand-written link.

/** @type {Step[]} */
export const STEPS = ['project', 'score', 'scale', 'mask', 'softmax', 'mix'];
/** @type {MatrixName[]} */
export const MATRICES = ['X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A', 'O'];
/** @type {('light' | 'dark')[]} */
const THEMES = ['light', 'dark'];

/**
 * Reads { preset, configText, from, step, follow, cell, theme } from location.search and location.hash.
 * A step, follow, cell or theme that cannot be read is left out and listed in `ignored` with why
 * ({ name, value, why }), so the page can say so; an empty one is simply absent. Whether a
 * follow or cell lies inside this head is for the explorer to check (state.js fromUrl).
 * @param {string | null | undefined} search @param {string | null | undefined} hash @returns {UrlState}
 */
export function readUrlState(search, hash) {
  const p = new URLSearchParams(search || '');
  const h = new URLSearchParams((hash || '').replace(/^#/, ''));
  /** @param {string} k */
  const get = (k) => (h.has(k) ? h.get(k) : p.get(k));
  /** @type {UrlState} */
  const out = { preset: get('preset'), configText: get('config'), from: get('from'), step: null, follow: null, cell: null, theme: null, geometry: null, ignored: [] };
  /** @param {string} name @param {string} value @param {string} why */
  const ignore = (name, value, why) => { out.ignored.push({ name, value, why }); };
  const step = get('step');
  if (STEPS.includes(/** @type {Step} */ (step))) out.step = /** @type {Step} */ (step);
  else if (step) ignore('step', step, `the steps are ${list(STEPS)}`);
  const follow = get('follow');
  if (follow !== null && /^\d+$/.test(follow)) out.follow = Number(follow);
  else if (follow) ignore('follow', follow, 'follow is a row number, from 0 for the first token');
  const cellText = get('cell');
  const cell = /^([A-Za-z]+)\.(\d+)\.(\d+)$/.exec(cellText || '');
  if (cell && MATRICES.includes(/** @type {MatrixName} */ (cell[1]))) out.cell = { m: /** @type {MatrixName} */ (cell[1]), i: Number(cell[2]), j: Number(cell[3]) };
  else if (cell) ignore('cell', /** @type {string} */ (cellText), `there is no matrix ${cell[1]}; the matrices are ${list(MATRICES)}`);
  else if (cellText) ignore('cell', cellText, 'a cell is written matrix.row.column, counted from 0, as A.4.1');
  const theme = get('theme');
  if (THEMES.includes(/** @type {'light' | 'dark'} */ (theme))) out.theme = /** @type {'light' | 'dark'} */ (theme);
  else if (theme) ignore('theme', theme, 'the theme is light or dark');
  const geometry = get('geometry');
  if (geometry !== null) {
    const g = readPlanes(geometry);
    if ('planes' in g) out.geometry = g.planes;
    else ignore('geometry', geometry, g.why);
  }
  return out;
}

// The geometry view's planes in a link (web/explorer/geometry.js): which two dimensions of q and k,
// and of v, it draws.
/** The link's form of the planes: "on" for the first two dimensions of each, else "a.b.c.d". @param {import('../../types/config').Planes} p */
export function writePlanes(p) {
  const same = (/** @type {readonly number[]} */ d) => d[0] === 0 && d[1] === 1;
  return same(p.qk) && same(p.v) ? 'on' : [...p.qk, ...p.v].join('.');
}

/**
 * Reads the link's geometry= (writePlanes's form): the planes, or why it could not.
 * @param {string} text @returns {{ planes: import('../../types/config').Planes } | { why: string }}
 */
export function readPlanes(text) {
  if (text === 'on' || text === '') return { planes: { qk: [0, 1], v: [0, 1] } };
  const m = /^(\d{1,3})\.(\d{1,3})(?:\.(\d{1,3})\.(\d{1,3}))?$/.exec(text);
  if (!m) return { why: 'geometry is “on”, or the two dimensions of q and k and then of v, counted from 0, as 0.1.0.1' };
  const n = m.slice(1).map(Number);
  if (n[0] === n[1] || (m[3] != null && n[2] === n[3])) return { why: 'a plane needs two different dimensions' };
  return { planes: { qk: [n[0], n[1]], v: m[3] != null ? [n[2], n[3]] : [0, 1] } };
}

/**
 * The search + hash part of a link for a state (the inverse of readUrlState).
 * @param {Parameters<typeof import('../../types/config').writeUrlState>[0]} state
 * @returns {string}
 */
export function writeUrlState({ preset, config, from = null, step, follow, cell, theme = null, geometry = null }) {
  const rest = new URLSearchParams();
  if (step) rest.set('step', step);
  if (follow != null) rest.set('follow', String(follow));
  if (cell) rest.set('cell', `${cell.m}.${cell.i}.${cell.j}`);
  if (theme) rest.set('theme', theme);
  if (geometry) rest.set('geometry', writePlanes(geometry));
  const tail = rest.toString();
  if (preset) return '?preset=' + encodeURIComponent(preset) + (tail ? '&' + tail : '');
  return '#config=' + encodeURIComponent(JSON.stringify(config)) + (from ? '&from=' + encodeURIComponent(from) : '') + (tail ? '&' + tail : '');
}
