// cross.js: cross-attention, pure (no DOM). Lesson: "In cross-attention (translation, vision-
// language models) the queries come from one sequence and the keys and values from another;
// the formula is unchanged." Queries come from the translation being written, keys and values
// from the source sentence, through the core's forward({ X, Xkv, Wq, Wk, Wv }).

import { oneOf } from './random.js';
import { largest, list } from '../blocks/words.js';
import { fmt } from '../blocks/format.js';

export const MODE = 'cross-lab';
/** @typedef {{ pair: string, causal: boolean }} CrossState */
/** @typedef {ReturnType<typeof computeCross>} Cross */
export const CONCEPTS = ['article', 'cat', 'black', 'sleep', 'I', 'be/have', 'hungry'];
const C = Object.fromEntries(CONCEPTS.map((c, k) => [c, k]));

// Each word is a mix of concepts; a French word and its English match share them.
/** @type {Record<string, Record<string, number>>} */
const WORDS = {
  the: { article: 1 }, cat: { cat: 1 }, black: { black: 1 }, sleeps: { sleep: 1 }, I: { I: 1 }, am: { 'be/have': 1 }, hungry: { hungry: 1 },
  le: { article: 1 }, chat: { cat: 1 }, noir: { black: 1 }, dort: { sleep: 1 }, 'j’ai': { I: 0.7, 'be/have': 0.7 }, faim: { hungry: 1 },
};

/** @type {Record<string, { source: string[], target: string[] }>} */
export const PAIRS = {
  'cat-sleeps': { source: ['the', 'cat', 'sleeps'], target: ['le', 'chat', 'dort'] },
  'black-cat': { source: ['the', 'black', 'cat', 'sleeps'], target: ['le', 'chat', 'noir', 'dort'] },
  hungry: { source: ['I', 'am', 'hungry'], target: ['j’ai', 'faim'] },
};

/** @returns {CrossState} */
export function defaultState() {
  return { pair: 'black-cat', causal: false };
}
/** @param {URLSearchParams} params @returns {CrossState} */
export function readState(params) {
  const d = defaultState();
  return { pair: oneOf(params, 'pair', Object.keys(PAIRS), d.pair), causal: params.get('causal') === '1' };
}
/** @param {CrossState} s */
export function writeState(s) {
  return { mode: MODE, pair: s.pair, causal: s.causal ? 1 : 0 };
}

const embed = (/** @type {string} */ word) => CONCEPTS.map((c) => WORDS[word][c] ?? 0);
const scaledIdentity = (/** @type {number} */ k) => CONCEPTS.map((_, i) => CONCEPTS.map((_, j) => (i === j ? k : 0)));

/** The forward() arguments: X = the translation (queries), Xkv = the source (keys, values). @param {CrossState} state */
export function crossArgs({ pair, causal }) {
  const p = PAIRS[pair];
  return {
    X: p.target.map(embed), Xkv: p.source.map(embed),
    Wq: scaledIdentity(3), Wk: scaledIdentity(3), Wv: scaledIdentity(1),
    causal,
  };
}

/** @param {import('../../types/attention').Attention} attn @param {CrossState} state */
export function computeCross(attn, state) {
  const p = PAIRS[state.pair];
  const r = attn.forward(crossArgs(state));
  // Each row's largest weight, ties kept (every key whose weight reads the same as the largest).
  // Never none: even under the causal mask each row sees the first source word.
  const bestOf = (/** @type {Float32Array} */ A) => Array.from({ length: r.n }, (_, i) => largest(A.subarray(i * r.m, (i + 1) * r.m)));
  const free = state.causal ? attn.forward(crossArgs({ ...state, causal: false })) : r;
  // the match of each row without the mask; the keys of it after the row's own position are the
  // ones the causal mask hides
  const matches = bestOf(free.A);
  const hidden = matches.map((/** @type {number[]} */ js, i) => ({ i, keys: js.filter((j) => j > i) })).filter((h) => h.keys.length);
  return { r, rowLabels: p.target, colLabels: p.source, concepts: CONCEPTS, best: bestOf(r.A), matches, hidden };
}

/** @param {Cross} x @param {CrossState} state @param {(v: number) => string} fmtv */
export function explainCross(x, state, fmtv) {
  const { r, rowLabels: tgt, colLabels: src, best } = x;
  const out = [`Queries come from the translation being written (${tgt.map((t) => `“${t}”`).join(' ')}, ${r.n} rows); keys and values from the source sentence (${src.map((t) => `“${t}”`).join(' ')}, ${r.m} columns). S and A are (${r.n}, ${r.m}): the two lengths need not match.`];
  const words = (/** @type {number[]} */ js) => list(js.map((j) => `“${src[j]}”`));
  const pairs = best.map((js, i) => `“${tgt[i]}” → ${words(js)} (${fmtv(r.A[i * r.m + js[0]])}${js.length > 1 ? ' each, a tie' : ''})`);
  out.push(`Each word of the translation reads most from: ${pairs.join('; ')}.`);
  if (state.causal) {
    const lost = x.hidden.map(({ i, keys }) => `“${tgt[i]}” cannot see ${words(keys)}`);
    out.push(`With the causal mask, translation word i may only see source words 1 to i. That rule exists so a token cannot read the future of its own sequence while that sequence is being generated. The source sentence is not being generated: all of it is known before the translation starts, so hiding part of it only removes information.${lost.length ? ` Here ${list(lost)}, ${lost.length > 1 ? 'words they should translate' : x.hidden[0].keys.length > 1 ? 'words it should translate' : 'the word it should translate'}: the two sentences do not line up position by position.` : ' Here the word orders happen to match, so nothing is lost, but with “the black cat sleeps” they do not.'}`);
  } else {
    out.push('No causal mask: the whole source sentence is known before the translation starts, so every query may read every source word. (Causal masking belongs to the translation’s own self-attention, where a word must not see the words after it.)');
  }
  return out;
}

/** The shapes under the matrices, with the scale as √dk and its value. @param {import('../../types/attention').ForwardResult} r @param {string[]} concepts */
export function shapesLine(r, concepts) {
  return `Shapes: X (translation) (${r.n}, ${r.d}), Xkv (source) (${r.m}, ${r.d}); Q = X·Wq (${r.n}, ${r.dk}); K = Xkv·Wk and V = Xkv·Wv (${r.m}, ${r.dk}); S = Q·Kᵀ/√dk with √dk = √${r.dk} = ${fmt(Math.sqrt(r.dk))}, and A (${r.n}, ${r.m}); O (${r.n}, ${r.dv}). Each word is a mix of the concepts ${concepts.join(', ')}; Wq = Wk = 3·I and Wv = I, so a word matches the source word with the same meaning.`;
}
