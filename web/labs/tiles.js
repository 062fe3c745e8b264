// tiles.js: FlashAttention, tile by tile, pure (no DOM). The fused form of the core takes a block
// of queries against a tile of keys at a time and carries, for each query row, an online softmax:
// the largest score so far m, the sum l of exp(score − m), and the output so far, the average of
// the values seen. This lab steps through those tiles on a preset or a 64-token random head, with
// tile sizes the learner picks, every number from the core (attn.tileWalk: c/attention.c
// attn_tile_step, one call per tile), and says what each step did in the lesson's words.

import { PRESETS } from '../blocks/presets.js';
import { parseConfig, forwardArgs } from '../blocks/config.js';
import { fmt } from '../blocks/format.js';
import { count, range, bytesText, grouped } from '../blocks/words.js';
import { intParam, oneOf, mulberry32, normals } from './random.js';

export const MODE = 'tiles-lab';
/** The heads: every preset, and a seeded random one of RANDOM_N tokens (causal). */
export const RANDOM = 'random', RANDOM_N = 64, RANDOM_D = 8;
export const HEADS = [...Object.keys(PRESETS), RANDOM];
/** The tile sizes offered (queries per tile, keys per tile). */
export const QUERY_TILES = [1, 2, 4, 8, 16], KEY_TILES = [1, 2, 4, 8, 16, 64];

/** @typedef {{ head: string, q: number, k: number, step: number, seed: number }} TilesState */
/** @typedef {ReturnType<typeof computeTiles>} Tiles */
/** @typedef {import('../../types/attention').TileStep} TileStep */

/** @returns {TilesState} */
export function defaultState() {
  return { head: HEADS[0], q: 2, k: 2, step: 0, seed: 1 };
}
/** @param {URLSearchParams} params @returns {TilesState} */
export function readState(params) {
  const d = defaultState();
  const size = (/** @type {string} */ key, /** @type {number[]} */ sizes, /** @type {number} */ fallback) => {
    const v = intParam(params, key, 1, 1e6, fallback);
    return sizes.includes(v) ? v : fallback;
  };
  return {
    head: oneOf(params, 'head', HEADS, d.head), q: size('q', QUERY_TILES, d.q), k: size('k', KEY_TILES, d.k),
    step: intParam(params, 'step', 0, 1e6, d.step), seed: intParam(params, 'seed', 0, 2 ** 31 - 1, d.seed),
  };
}
/** @param {TilesState} s */
export function writeState(s) {
  return { mode: MODE, head: s.head, q: s.q, k: s.k, step: s.step, ...(s.head === RANDOM && s.seed !== 1 ? { seed: s.seed } : {}) };
}

/**
 * The head's forward() arguments and its tokens' names: a preset's config, or RANDOM_N seeded
 * tokens with Q, K and V of standard deviation 1 and the causal mask.
 * @param {TilesState} s
 */
export function headOf(s) {
  if (s.head !== RANDOM) {
    const preset = PRESETS[/** @type {import('../../types/presets').PresetName} */ (s.head)];
    const cfg = parseConfig(preset.config);
    return { args: forwardArgs(cfg), tokens: cfg.tokens, title: preset.title };
  }
  const rand = mulberry32(s.seed);
  const m = () => ({ shape: /** @type {[number, number]} */ ([RANDOM_N, RANDOM_D]), data: normals(rand, RANDOM_N * RANDOM_D) });
  const tokens = Array.from({ length: RANDOM_N }, (_, i) => `t${i + 1}`);
  return { args: { Q: m(), K: m(), V: m(), causal: true }, tokens, title: `${RANDOM_N} random tokens (seed ${s.seed})` };
}

/**
 * The walk on the state's head and tile sizes, and the long form on the same head. The learner
 * steps through the tiles the core computes (`order`, indices into walk.steps; the skipped ones
 * are only shown on the map): `pos` is the state's step clamped to them, `step` its index.
 * @param {import('../../types/attention').Attention} attn @param {TilesState} s
 */
export function computeTiles(attn, s) {
  const { args, tokens, title } = headOf(s);
  const walk = attn.tileWalk(args, { queryTile: s.q, keyTile: s.k });
  const long = attn.forward(args);
  const order = walk.steps.flatMap((t, i) => (t.skipped ? [] : [i]));
  const pos = Math.min(s.step, order.length - 1);
  const diff = (/** @type {Float32Array} */ a, /** @type {Float32Array} */ b) => a.reduce((d, x, i) => Math.max(d, Math.abs(x - b[i])), 0);
  return {
    walk, long, tokens, title, order, pos, step: order[pos], run: order.length, skipped: walk.steps.length - order.length,
    fromLong: diff(walk.O, long.O), fromFused: diff(walk.O, walk.fusedO),
  };
}

/** @typedef {import('../../types/attention').TileState} TileState */
/** @typedef {Omit<TileStep, 'before' | 'after' | 'z' | 'p' | 'alpha' | 'rescale'> & { before: TileState, after: TileState, z: Float32Array, p: Float32Array, alpha: Float32Array, rescale: Float32Array }} ComputedTile */

/**
 * The tile on show: always one the core computes, since computeTiles steps over the tiles the
 * causal mask hides wholly (the map shows those, and summary counts them).
 * @param {Tiles} x @returns {ComputedTile}
 */
export function shownTile(x) {
  const t = x.walk.steps[x.step];
  if (t.skipped) throw new Error(`tiles lab: step ${x.step} is a tile the core skips, which computeTiles never shows`);
  return /** @type {ComputedTile} */ (t);
}

const quote = (/** @type {string} */ t) => `“${t}”`;
/** "queries 1 and 2 (“The”, “cat”)" @param {string[]} tokens @param {number} first @param {number} n @param {string} what */
function rowsText(tokens, first, n, what) {
  const names = n <= 4 ? ` (${tokens.slice(first, first + n).map(quote).join(', ')})` : '';
  return range(first + 1, first + n, what, what === 'query' ? 'queries' : what + 's') + names;
}

/** Where the walk is: "Tile 2 of 9: queries 1 and 2 (…) against keys 3 and 4 (…)." @param {Tiles} x */
export function whereSentence(x) {
  const t = shownTile(x);
  return `Tile ${x.pos + 1} of the ${x.run} the core computes: ${rowsText(x.tokens, t.q0, t.rows, 'query')} against ${rowsText(x.tokens, t.k0, t.keys, 'key')}.`;
}

/**
 * What the tile did to each of its rows, in words: the running maximum, alpha, the sum and the rescale.
 * @param {Tiles} x @returns {string[]}
 */
export function rowSentences(x) {
  const t = shownTile(x);
  const out = [];
  for (let r = 0; r < t.rows; r++) {
    const name = `Row ${t.q0 + r + 1} (${quote(x.tokens[t.q0 + r])})`;
    const m0 = t.before.max[r], m1 = t.after.max[r];
    const seen = Array.from(t.z.subarray(r * t.keys, (r + 1) * t.keys)).filter((v) => v !== -Infinity).length;
    if (seen === 0) {
      out.push(`${name} sees none of these keys: m, l and its output stay as they were.`);
      continue;
    }
    const maxText = m0 === -Infinity
      ? `its first keys: the largest score m is ${fmt(m1)}, l = ${fmt(t.after.sum[r])}, and its output so far is this tile’s average of ${count(seen, 'value')}`
      : m1 > m0
        ? `a larger score arrives: m goes from ${fmt(m0)} to ${fmt(m1)}, so α = exp(${fmt(m0)} − ${fmt(m1)}) = ${fmt(t.alpha[r])} shrinks what it had; l goes from ${fmt(t.before.sum[r])} to ${fmt(t.after.sum[r])}, and the output so far is multiplied by α·l_old ÷ l_new = ${fmt(t.rescale[r])} before this tile’s share is added`
        : `m stays ${fmt(m1)} (α = 1); l grows from ${fmt(t.before.sum[r])} to ${fmt(t.after.sum[r])}, and the output so far is multiplied by l_old ÷ l_new = ${fmt(t.rescale[r])} before this tile’s share is added`;
    out.push(`${name}: ${maxText}.`);
  }
  return out;
}

/**
 * Bytes held now against the long form's n × n: every row's m and l and its output so far, and
 * one tile's z and p. @param {Tiles} x
 */
export function memory(x) {
  const { n, m, dv } = x.walk;
  const state = n * (2 + dv), tile = 2 * x.walk.queryTile * x.walk.keyTile;
  return { state, tile, held: (state + tile) * 4, square: n * m * 4 };
}
/** @param {Tiles} x */
export function memorySentence(x) {
  const k = memory(x);
  return `Held now: every row’s m, l and output so far (${x.walk.n} × (2 + ${x.walk.dv}) = ${grouped(k.state)} numbers) and one tile’s z and p (2 × ${x.walk.queryTile} × ${x.walk.keyTile} = ${grouped(k.tile)}): ${bytesText(k.held)}. The long form keeps S alone as ${x.walk.n} × ${x.walk.m} = ${grouped(x.walk.n * x.walk.m)} numbers (${bytesText(k.square)}), and as many again in M and A.`;
}

/** The end of the walk: its O against the long form's and the fused form's. @param {Tiles} x */
export function endSentence(x) {
  const last = x.pos === x.run - 1;
  const same = (/** @type {number} */ d) => (d === 0 ? '0, the same to the last bit' : d.toExponential(1));
  const start = last
    ? `That was the last tile: every row has seen every key it may see, and its output so far is its row of O.`
    : `After all ${count(x.run, 'tile')} the core computes${x.skipped ? ` (and the ${x.skipped} it skips)` : ''}, each row’s output is its row of O.`;
  const why = x.fromLong === 0 && x.fromFused === 0 ? 'The sums run in another order, yet here they round alike.' : 'The sums run in another order, so they agree to float32 rounding.';
  return `${start} The walk’s O against the long form’s (S, A, then A·V): largest difference ${same(x.fromLong)}; against the core’s fused form (tiles of 4 queries and more keys): ${same(x.fromFused)}. ${why}`;
}

/**
 * A number of the current tile, explained with its arithmetic (the explorer's style): what is
 * z, p, m, l, α, rescale or out at row r (of the tile) and key or column j.
 * @param {Tiles} x @param {'z' | 'p' | 'm' | 'l' | 'alpha' | 'rescale' | 'out'} what @param {number} r @param {number} j
 */
export function explainTileCell(x, what, r, j = 0) {
  const t = shownTile(x);
  const i = t.q0 + r, key = t.k0 + j, L = x.long, dk = L.dk, dv = L.dv;
  const row = `row ${i + 1} (${quote(x.tokens[i])})`;
  if (what === 'z' || what === 'p') {
    const z = t.z[r * t.keys + j];
    if (z === -Infinity) return `${what}[${i + 1}][${key + 1}]: key ${key + 1} (${quote(x.tokens[key])}) comes after query ${i + 1}: the causal mask hides it (z = −∞, p = exp(−∞) = 0).`;
    if (what === 'p') return `p[${i + 1}][${key + 1}] = exp(z − m) = exp(${fmt(z)} − ${fmt(t.after.max[r])}) = ${fmt(t.p[r * t.keys + j])}: this key’s weight before it is divided by l = ${fmt(t.after.sum[r])}, which gives ${fmt(t.p[r * t.keys + j] / t.after.sum[r])} of this tile’s share.`;
    const terms = Array.from({ length: Math.min(dk, 4) }, (_, c) => `${fmt(L.Q[i * dk + c])}×${fmt(L.K[key * dk + c])}`).join(' + ') + (dk > 4 ? ' + …' : '');
    const mask = L.M[i * L.m + key];
    return `z[${i + 1}][${key + 1}] = q${i + 1}·k${key + 1} × scale${mask !== 0 ? ' + mask' : ''} = (${terms}) × ${fmt(L.scale)}${mask !== 0 ? ` + ${fmt(mask)}` : ''} = ${fmt(z)} (S[${i + 1}][${key + 1}] = ${fmt(L.S[i * L.m + key])} in the long form).`;
  }
  if (what === 'm') return `m of ${row} = max(m before, this tile’s largest z) = max(${fmt(t.before.max[r])}, ${fmt(Math.max(...t.z.subarray(r * t.keys, (r + 1) * t.keys)))}) = ${fmt(t.after.max[r])}.`;
  if (what === 'alpha') return `α of ${row} = exp(m_old − m_new) = exp(${fmt(t.before.max[r])} − ${fmt(t.after.max[r])}) = ${fmt(t.alpha[r])}: ${t.alpha[r] === 1 ? 'the largest score stayed, nothing shrinks' : t.before.max[r] === -Infinity ? 'nothing was there before' : 'what the row had is scaled down to the new largest score'}.`;
  if (what === 'l') {
    const sum = t.p.subarray(r * t.keys, (r + 1) * t.keys).reduce((a, v) => a + v, 0);
    return `l of ${row} = α × l_old + Σ p = ${fmt(t.alpha[r])} × ${fmt(t.before.sum[r])} + ${fmt(sum)} = ${fmt(t.after.sum[r])}.`;
  }
  if (what === 'rescale') return `The output so far of ${row} is multiplied by α × l_old ÷ l_new = ${fmt(t.alpha[r])} × ${fmt(t.before.sum[r])} ÷ ${fmt(t.after.sum[r])} = ${fmt(t.rescale[r])}, so that it stays an average once this tile’s keys join.`;
  const c = j, p = t.p, after = t.after;
  const share = Array.from({ length: t.keys }, (_, k) => p[r * t.keys + k] / after.sum[r] * L.V[(t.k0 + k) * dv + c]).reduce((a, v) => a + v, 0);
  return `out[${i + 1}][${c + 1}] = rescale × out_old + Σ (p ÷ l)·v = ${fmt(t.rescale[r])} × ${fmt(t.before.out[r * dv + c])} + ${fmt(share)} = ${fmt(t.after.out[r * dv + c])}${x.step === x.walk.steps.length - 1 ? `; O[${i + 1}][${c + 1}] = ${fmt(L.O[i * dv + c])} in the long form` : ''}.`;
}

/** The tile map: for each query tile a row of key tiles, each 'done', 'current', 'todo' or 'skipped'. @param {Tiles} x */
export function tileMap(x) {
  const { steps } = x.walk;
  /** @type {{ step: number, pos: number, q0: number, k0: number, rows: number, keys: number, kind: 'done' | 'current' | 'todo' | 'skipped' }[][]} */
  const rows = [];
  for (let s = 0; s < steps.length; s++) {
    const t = steps[s];
    if (t.k0 === 0) rows.push([]);
    rows[rows.length - 1].push({ step: s, pos: x.order.indexOf(s), q0: t.q0, k0: t.k0, rows: t.rows, keys: t.keys, kind: t.skipped ? 'skipped' : s === x.step ? 'current' : s < x.step ? 'done' : 'todo' });
  }
  return rows;
}

/** The lede's numbers, from the state: which head, its size, the tiles. @param {Tiles} x */
export function summary(x) {
  const { n, m, queryTile: bq, keyTile: bk } = x.walk;
  return `${x.title}: ${count(n, 'query', 'queries')} against ${count(m, 'key')}, in tiles of ${count(bq, 'query', 'queries')} × ${count(bk, 'key')}: ${count(x.walk.steps.length, 'tile')}, ${x.skipped ? `of which the core computes ${x.run} and skips ${x.skipped}, wholly hidden by the causal mask` : 'every one computed'}.`;
}

