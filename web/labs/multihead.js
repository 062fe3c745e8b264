// multihead.js: several heads on the same tokens, pure (no DOM). Each head has its own seeded
// Wq, Wk, Wv, so its own pattern; with grouped-query attention (GQA) a group of query heads
// shares one key/value head (any number of them; in this lab, groups of two, half as many K/V
// heads; one K/V head for all query heads is multi-query attention). Every head runs through the core's forward(); the concatenated output
// comes from the core's multiHead() on the heads' Q, K and V, and must equal the heads' outputs
// (each head's O alone, by the fused form multiHead runs) put side by side.

import { PRESETS } from '../blocks/presets.js';
import { mulberry32, normals, intParam } from './random.js';
import { count } from '../blocks/words.js';
import { fmt } from '../blocks/format.js';

export const MODE = 'multihead-lab';
export const HEAD_CHOICES = [1, 2, 4];
/** @typedef {{ heads: number, gqa: boolean, seed: number, causal: boolean }} MultiHeadState */
/** @typedef {import('../../types/attention').ForwardResult} ForwardResult */

/** @returns {MultiHeadState} */
export function defaultState() {
  return { heads: 2, gqa: false, seed: 1, causal: true };
}
/** @param {URLSearchParams} params @returns {MultiHeadState} */
export function readState(params) {
  const d = defaultState();
  const h = intParam(params, 'heads', 1, 4, d.heads);
  return {
    heads: HEAD_CHOICES.includes(h) ? h : d.heads,
    gqa: params.get('gqa') === '1',
    seed: intParam(params, 'seed', 0, 2 ** 31 - 1, d.seed),
    causal: params.get('causal') !== '0',
  };
}
/** @param {MultiHeadState} s */
export function writeState(s) {
  return { mode: MODE, heads: s.heads, gqa: s.gqa ? 1 : 0, seed: s.seed, causal: s.causal ? 1 : 0 };
}

const toRows = (/** @type {Float32Array} */ flat, /** @type {number} */ rows, /** @type {number} */ cols) => Array.from({ length: rows }, (_, i) => Array.from(flat.subarray(i * cols, (i + 1) * cols)));

/** Seeded projections: heads × Wq [d][dk]; kvHeads × Wk, Wv [d][dk]. @param {MultiHeadState} state @param {number} d */
export function headWeights({ heads, gqa, seed }, d) {
  const kvHeads = gqa && heads > 1 ? heads / 2 : heads;
  const dk = d / heads;
  const rand = mulberry32(seed * 7919 + heads);
  const W = () => toRows(normals(rand, d * dk).map((x) => 1.5 * x), d, dk);
  return { kvHeads, dk, Wq: Array.from({ length: heads }, W), Wk: Array.from({ length: kvHeads }, W), Wv: Array.from({ length: kvHeads }, W) };
}

/** @param {import('../../types/attention').Attention} attn @param {MultiHeadState} state */
export function computeMultiHead(attn, state) {
  const cfg = /** @type {import('../../types/config').ProjectedConfig} */ (PRESETS.cat.config); // the cat preset is in the projection form
  const tokens = cfg.tokens, X = cfg.X, n = X.length, d = X[0].length;
  const { heads } = state;
  const { kvHeads, dk, Wq, Wk, Wv } = headWeights(state, d);
  const group = heads / kvHeads;
  /** @type {{ h: number, kv: number, r: ForwardResult }[]} */
  const perHead = [];
  for (let h = 0; h < heads; h++) {
    const g = Math.floor(h / group);
    const r = attn.forward({ X, Wq: Wq[h], Wk: Wk[g], Wv: Wv[g], causal: state.causal });
    perHead.push({ h, kv: g, r });
  }
  // [1, n, heads·dk] for Q and the output, [1, n, kvHeads·dk] for K and V
  const pack = (/** @type {Float32Array[]} */ parts, /** @type {number} */ width) => {
    const out = new Float32Array(n * parts.length * width);
    parts.forEach((p, k) => { for (let t = 0; t < n; t++) out.set(p.subarray(t * width, (t + 1) * width), (t * parts.length + k) * width); });
    return out;
  };
  const kvFirst = Array.from({ length: kvHeads }, (_, g) => perHead[g * group].r);
  const Q = { shape: [1, n, heads * dk], data: pack(perHead.map((p) => p.r.Q), dk) };
  const K = { shape: [1, n, kvHeads * dk], data: pack(kvFirst.map((r) => r.K), dk) };
  const V = { shape: [1, n, kvHeads * dk], data: pack(kvFirst.map((r) => r.V), dk) };
  const Y = attn.multiHead({ Q, K, V, qHeads: heads, kvHeads, causal: state.causal });
  // multiHead runs the fused form on each head: the heads' O alone by the same form, side by side
  const fusedO = perHead.map((p) => attn.forward({ X, Wq: Wq[p.h], Wk: Wk[p.kv], Wv: Wv[p.kv], causal: state.causal }, { outputs: ['O'] }).O);
  const concatOneByOne = pack(fusedO, dk);
  return { tokens, X, n, d, dk, dv: dk, heads, kvHeads, group, perHead, concat: Y.data, concatOneByOne, shapes: shapes({ n, d, dk, heads, kvHeads }) };
}

/**
 * The per-head shapes, written out (the shape confusion learners report most).
 * @param {{ n: number, d: number, dk: number, heads: number, kvHeads: number }} sizes
 */
export function shapes({ n, d, dk, heads, kvHeads }) {
  const group = heads / kvHeads;
  const lines = [
    `X: (n, d) = (${n}, ${d}): ${n} tokens, model width ${d}.`,
    `${count(heads, 'head')}, ${heads === 1 ? 'of' : 'each of'} width dk = dv = d / heads = ${d} / ${heads} = ${dk}.`,
    `Per head: Wq (d, dk) = (${d}, ${dk}); Q = X·Wq (n, dk) = (${n}, ${dk}).`,
    kvHeads === heads
      ? `Per head: Wk, Wv (${d}, ${dk}); K, V (${n}, ${dk}).`
      : `Grouped-query attention: ${count(kvHeads, 'key/value head')}, ${kvHeads === 1 ? '' : 'each '}shared by a group of ${group} query heads${kvHeads === 1 ? ' (one K/V head for every query head: the special case called multi-query attention)' : ''}: Wk, Wv (${d}, ${dk}); K, V (${n}, ${dk}).`,
    `Per head: scores S = Q·Kᵀ/√dk with √dk = √${dk} = ${fmt(Math.sqrt(dk))}, and weights A (n, n) = (${n}, ${n}); output O = A·V (n, dv) = (${n}, ${dk}).`,
    `Concatenated: (n, heads·dv) = (${n}, ${heads}·${dk}) = (${n}, ${heads * dk}); a learned output projection Wo (${heads * dk}, ${d}) then mixes the heads back to width d (not shown).`,
  ];
  return lines;
}
