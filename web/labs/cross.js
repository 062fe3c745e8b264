// cross.js: cross-attention, pure (no DOM). Lesson: "In cross-attention (translation, vision-
// language models) the queries come from one sequence and the keys and values from another;
// the formula is unchanged." Queries come from the translation being written, keys and values
// from the source sentence, through the core's forward({ X, Xkv, Wq, Wk, Wv }).

import { oneOf } from './random.js';

export const MODE = 'cross-lab';
export const CONCEPTS = ['article', 'cat', 'black', 'sleep', 'I', 'be/have', 'hungry'];
const C = Object.fromEntries(CONCEPTS.map((c, k) => [c, k]));

// Each word is a mix of concepts; a French word and its English match share them.
const WORDS = {
  the: { article: 1 }, cat: { cat: 1 }, black: { black: 1 }, sleeps: { sleep: 1 }, I: { I: 1 }, am: { 'be/have': 1 }, hungry: { hungry: 1 },
  le: { article: 1 }, chat: { cat: 1 }, noir: { black: 1 }, dort: { sleep: 1 }, 'j’ai': { I: 0.7, 'be/have': 0.7 }, faim: { hungry: 1 },
};

export const PAIRS = {
  'cat-sleeps': { source: ['the', 'cat', 'sleeps'], target: ['le', 'chat', 'dort'] },
  'black-cat': { source: ['the', 'black', 'cat', 'sleeps'], target: ['le', 'chat', 'noir', 'dort'] },
  hungry: { source: ['I', 'am', 'hungry'], target: ['j’ai', 'faim'] },
};

export function defaultState() {
  return { pair: 'black-cat', causal: false };
}
export function readState(params) {
  const d = defaultState();
  return { pair: oneOf(params, 'pair', Object.keys(PAIRS), d.pair), causal: params.get('causal') === '1' };
}
export function writeState(s) {
  return { mode: MODE, pair: s.pair, causal: s.causal ? 1 : 0 };
}

const embed = (word) => CONCEPTS.map((c) => WORDS[word][c] ?? 0);
const scaledIdentity = (k) => CONCEPTS.map((_, i) => CONCEPTS.map((_, j) => (i === j ? k : 0)));

/** The forward() arguments: X = the translation (queries), Xkv = the source (keys, values). */
export function crossArgs({ pair, causal }) {
  const p = PAIRS[pair];
  return {
    X: p.target.map(embed), Xkv: p.source.map(embed),
    Wq: scaledIdentity(3), Wk: scaledIdentity(3), Wv: scaledIdentity(1),
    causal,
  };
}

export function computeCross(attn, state) {
  const p = PAIRS[state.pair];
  const r = attn.forward(crossArgs(state));
  const bestOf = (A) => Array.from({ length: r.n }, (_, i) => {
    const row = Array.from(A.subarray(i * r.m, (i + 1) * r.m));
    const top = Math.max(...row);
    return top > 0 ? row.indexOf(top) : -1;
  });
  const free = state.causal ? attn.forward(crossArgs({ ...state, causal: false })) : r;
  // rows whose match (without the mask) lies after their own position: the causal mask hides it
  const matches = bestOf(free.A);
  const hidden = matches.map((j, i) => (j > i ? i : -1)).filter((i) => i >= 0);
  return { r, rowLabels: p.target, colLabels: p.source, concepts: CONCEPTS, best: bestOf(r.A), matches, hidden };
}

export function explainCross(x, state, fmtv) {
  const { r, rowLabels: tgt, colLabels: src, best } = x;
  const out = [`Queries come from the translation being written (${tgt.map((t) => `“${t}”`).join(' ')}, ${r.n} rows); keys and values from the source sentence (${src.map((t) => `“${t}”`).join(' ')}, ${r.m} columns). S and A are (${r.n}, ${r.m}): the two lengths need not match.`];
  const pairs = best.map((j, i) => (j >= 0 ? `“${tgt[i]}” → “${src[j]}” (${fmtv(r.A[i * r.m + j])})` : null)).filter(Boolean);
  out.push(`Each word of the translation reads most from: ${pairs.join(', ')}.`);
  if (state.causal) {
    const lost = x.hidden.map((i) => `“${tgt[i]}” cannot see “${src[x.matches[i]]}”`);
    out.push(`With the causal mask, translation word i may only see source words 1 to i. That rule exists so a token cannot read the future of its own sequence while that sequence is being generated. The source sentence is not being generated: all of it is known before the translation starts, so hiding part of it only removes information.${lost.length ? ' Here ' + lost.join(' and ') + ', the word it should translate: the two sentences do not line up position by position.' : ' Here the word orders happen to match, so nothing is lost, but with “the black cat sleeps” they do not.'}`);
  } else {
    out.push('No causal mask: the whole source sentence is known before the translation starts, so every query may read every source word. (Causal masking belongs to the translation’s own self-attention, where a word must not see the words after it.)');
  }
  return out;
}
