// labs-cross.test.mjs: the cross-attention lab (web/labs/cross.js), word for word and number for
// number. Each word embeds as its concepts; Wq = Wk = 3·I, Wv = I, dk = 7. A word and its
// translation share a concept: score 3·3/√7 = 3.402, e^3.402 = 30.02; any other pair scores 0
// (e^0 = 1), except “j’ai” = 0.7·I + 0.7·be/have against “I” or “am”: 0.7·9/√7 = 2.381, e^2.381 = 10.82.
// So a matched word among k source words it sees gets 30.02 / (30.02 + k − 1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { fmt } from '../../web/blocks/format.js';
import { MODE, CONCEPTS, PAIRS, defaultState, readState, writeState, crossArgs, computeCross, explainCross, shapesLine } from '../../web/labs/cross.js';

const attn = await loadAttention();
const rowsOf = (flat, n, m) => Array.from({ length: n }, (_, i) => Array.from(flat.subarray(i * m, (i + 1) * m), fmt));
const say = (pair, causal) => explainCross(computeCross(attn, { pair, causal }), { pair, causal }, fmt);

const NO_MASK = 'No causal mask: the whole source sentence is known before the translation starts, so every query may read every source word. (Causal masking belongs to the translation’s own self-attention, where a word must not see the words after it.)';
const MASK = 'With the causal mask, translation word i may only see source words 1 to i. That rule exists so a token cannot read the future of its own sequence while that sequence is being generated. The source sentence is not being generated: all of it is known before the translation starts, so hiding part of it only removes information.';

test('cross state: defaults, each parameter read, and written back', () => {
  assert.equal(MODE, 'cross-lab');
  assert.deepEqual(defaultState(), { pair: 'black-cat', causal: false });
  assert.deepEqual(readState(new URLSearchParams('')), { pair: 'black-cat', causal: false });
  assert.deepEqual(readState(new URLSearchParams('pair=hungry&causal=1')), { pair: 'hungry', causal: true });
  assert.deepEqual(readState(new URLSearchParams('pair=cat-sleeps&causal=0')), { pair: 'cat-sleeps', causal: false });
  assert.deepEqual(readState(new URLSearchParams('pair=dog&causal=yes')), { pair: 'black-cat', causal: false });
  assert.deepEqual(writeState({ pair: 'hungry', causal: true }), { mode: 'cross-lab', pair: 'hungry', causal: 1 });
  assert.deepEqual(writeState({ pair: 'cat-sleeps', causal: false }), { mode: 'cross-lab', pair: 'cat-sleeps', causal: 0 });
});

test('crossArgs: queries embed the translation, keys and values the source; Wq = Wk = 3·I, Wv = I', () => {
  const a = crossArgs({ pair: 'hungry', causal: true });
  assert.deepEqual(CONCEPTS, ['article', 'cat', 'black', 'sleep', 'I', 'be/have', 'hungry']);
  assert.deepEqual(a.X, [[0, 0, 0, 0, 0.7, 0.7, 0], [0, 0, 0, 0, 0, 0, 1]]);
  assert.deepEqual(a.Xkv, [[0, 0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 0, 1]]);
  const I = (k) => CONCEPTS.map((_, i) => CONCEPTS.map((_, j) => (i === j ? k : 0)));
  assert.deepEqual(a.Wq, I(3));
  assert.deepEqual(a.Wk, I(3));
  assert.deepEqual(a.Wv, I(1));
  assert.equal(a.causal, true);
  assert.equal(crossArgs({ pair: 'black-cat', causal: false }).causal, false);
});

test('cross, no mask: each translation word reads its match, 30.02 / (30.02 + k − 1) of the k source words', () => {
  const x = computeCross(attn, { pair: 'black-cat', causal: false });
  // 30.02 / 33.02 = 0.909 on the match, 1 / 33.02 = 0.030 elsewhere
  assert.deepEqual(rowsOf(x.r.A, 4, 4), [
    ['0.909', '0.030', '0.030', '0.030'],
    ['0.030', '0.030', '0.909', '0.030'],
    ['0.030', '0.909', '0.030', '0.030'],
    ['0.030', '0.030', '0.030', '0.909'],
  ]);
  assert.deepEqual(x.best, [[0], [2], [1], [3]]);
  assert.deepEqual(x.matches, x.best);
  assert.deepEqual(x.rowLabels, ['le', 'chat', 'noir', 'dort']);
  assert.deepEqual(x.colLabels, ['the', 'black', 'cat', 'sleeps']);
  assert.deepEqual(say('black-cat', false), [
    'Queries come from the translation being written (“le” “chat” “noir” “dort”, 4 rows); keys and values from the source sentence (“the” “black” “cat” “sleeps”, 4 columns). S and A are (4, 4): the two lengths need not match.',
    'Each word of the translation reads most from: “le” → “the” (0.909); “chat” → “cat” (0.909); “noir” → “black” (0.909); “dort” → “sleeps” (0.909).',
    NO_MASK,
  ]);
  assert.deepEqual(say('cat-sleeps', false), [
    'Queries come from the translation being written (“le” “chat” “dort”, 3 rows); keys and values from the source sentence (“the” “cat” “sleeps”, 3 columns). S and A are (3, 3): the two lengths need not match.',
    'Each word of the translation reads most from: “le” → “the” (0.938); “chat” → “cat” (0.938); “dort” → “sleeps” (0.938).',
    NO_MASK,
  ]);
  // j’ai: 10.82 / (2·10.82 + 1) = 0.478 on “I” and “am” each; faim: 30.02 / 32.02 = 0.938
  assert.deepEqual(say('hungry', false), [
    'Queries come from the translation being written (“j’ai” “faim”, 2 rows); keys and values from the source sentence (“I” “am” “hungry”, 3 columns). S and A are (2, 3): the two lengths need not match.',
    'Each word of the translation reads most from: “j’ai” → “I” and “am” (0.478 each, a tie); “faim” → “hungry” (0.938).',
    NO_MASK,
  ]);
});

test('cross, causal mask: row i sees source words 1 to i; what it hides is said, with its grammar', () => {
  const bc = computeCross(attn, { pair: 'black-cat', causal: true });
  // le: 1 word → 1; chat: the, black at 0 → 0.5 each; noir: 30.02 / 32.02; dort: 30.02 / 33.02
  assert.deepEqual(rowsOf(bc.r.A, 4, 4), [
    ['1.000', '0.000', '0.000', '0.000'],
    ['0.500', '0.500', '0.000', '0.000'],
    ['0.031', '0.938', '0.031', '0.000'],
    ['0.030', '0.030', '0.030', '0.909'],
  ]);
  assert.deepEqual(bc.best, [[0], [0, 1], [1], [3]]);
  assert.deepEqual(bc.matches, [[0], [2], [1], [3]], 'the matches are those of the head without the mask');
  assert.deepEqual(bc.hidden, [{ i: 1, keys: [2] }]);
  assert.deepEqual(say('black-cat', true), [
    'Queries come from the translation being written (“le” “chat” “noir” “dort”, 4 rows); keys and values from the source sentence (“the” “black” “cat” “sleeps”, 4 columns). S and A are (4, 4): the two lengths need not match.',
    'Each word of the translation reads most from: “le” → “the” (1.000); “chat” → “the” and “black” (0.500 each, a tie); “noir” → “black” (0.938); “dort” → “sleeps” (0.909).',
    `${MASK} Here “chat” cannot see “cat”, the word it should translate: the two sentences do not line up position by position.`,
  ]);
  // cat-sleeps: the orders match; chat sees 2 words: 30.02 / 31.02 = 0.968
  const cs = computeCross(attn, { pair: 'cat-sleeps', causal: true });
  assert.deepEqual(cs.hidden, []);
  assert.deepEqual(say('cat-sleeps', true).slice(1), [
    'Each word of the translation reads most from: “le” → “the” (1.000); “chat” → “cat” (0.968); “dort” → “sleeps” (0.938).',
    `${MASK} Here the word orders happen to match, so nothing is lost, but with “the black cat sleeps” they do not.`,
  ]);
  const hu = computeCross(attn, { pair: 'hungry', causal: true });
  assert.deepEqual(hu.hidden, [{ i: 0, keys: [1] }, { i: 1, keys: [2] }]);
  assert.deepEqual(say('hungry', true).slice(1), [
    'Each word of the translation reads most from: “j’ai” → “I” (1.000); “faim” → “I” and “am” (0.500 each, a tie).',
    `${MASK} Here “j’ai” cannot see “am” and “faim” cannot see “hungry”, words they should translate: the two sentences do not line up position by position.`,
  ]);
});

test('cross: one translation word that cannot see two of its source words is “words it should translate”', () => {
  const r = { n: 1, m: 3, A: new Float32Array([1, 0, 0]) };
  const x = { r, rowLabels: ['j’ai'], colLabels: ['x', 'I', 'am'], best: [[0]], hidden: [{ i: 0, keys: [1, 2] }] };
  assert.equal(explainCross(x, { pair: 'hungry', causal: true }, fmt)[2], `${MASK} Here “j’ai” cannot see “I” and “am”, words it should translate: the two sentences do not line up position by position.`);
});

test('cross shapes line: the sizes of each matrix, √dk = √7 and the concepts', () => {
  const x = computeCross(attn, { pair: 'hungry', causal: false });
  assert.equal(shapesLine(x.r, x.concepts), 'Shapes: X (translation) (2, 7), Xkv (source) (3, 7); Q = X·Wq (2, 7); K = Xkv·Wk and V = Xkv·Wv (3, 7); S = Q·Kᵀ/√dk with √dk = √7 = 2.646, and A (2, 3); O (2, 7). Each word is a mix of the concepts article, cat, black, sleep, I, be/have, hungry; Wq = Wk = 3·I and Wv = I, so a word matches the source word with the same meaning.');
  assert.deepEqual(Object.keys(PAIRS), ['cat-sleeps', 'black-cat', 'hungry']);
});
