// labs-words.test.mjs: what the labs say, pinned to what they compute (issue 15's corrections).
// Every narrative is a pure function of the lab's numbers; these tests check the corrected
// claims and that every number a narrative quotes is one the lab shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadAttention } from '../../web/core/attention.js';
import { fmt, fmtFine, fmtShort } from '../../web/blocks/format.js';
import { computeStability, explainStability, verdict, sweepTops, KIND_WORDS } from '../../web/labs/stability.js';
import { computeSqrtDk, sweep, explainSqrtDk, saturation } from '../../web/labs/sqrtdk.js';
import { computeCross, explainCross, shapesLine, PAIRS } from '../../web/labs/cross.js';
import { computeMultiHead, shapes as headShapes } from '../../web/labs/multihead.js';
import { diagonal, explainDiagonal, valuesMatter, explainValues, wrongAxis, explainWrongAxis, PRESET_CHOICES } from '../../web/labs/misconceptions.js';
import { presetView, target, explainTarget, EXERCISES, exerciseAnswer, fieldLine } from '../../web/labs/predict.js';
import { LABS } from '../../web/labs/index.js';

const attn = await loadAttention();
const fmtv = (v) => (Number.isNaN(v) ? 'NaN' : fmtFine(v));
const ROOT = new URL('../../', import.meta.url);

/** Every number with 3 decimals (or in short scientific form) a sentence quotes. */
const quoted = (text) => text.match(/−?\d+\.\d{3}(?!\d)|−?\d\.\d{2}e−?\d+/g) || [];

/** Asserts that each quoted number is among the shown ones (or the allowed constants). */
function quotesOnlyShown(text, shown, allowed = []) {
  const set = new Set([...shown, ...allowed]);
  for (const q of quoted(text)) assert.ok(set.has(q), `“${q}” is quoted but not shown: ${text}`);
}

// ---------------------------------------------------------------- 1. stability

const stab = (scores) => computeStability(attn, { top: 1000, scores });
const stabText = (r) => explainStability(r, fmtv).join(' ');
const stabShown = (r) => [r.naive.terms, r.naive.weights, r.stable.terms, r.stable.weights].flatMap((a) => Array.from(a, fmtv)).concat([r.naive.sum, r.naiveSum, r.stable.sum, r.stableSum, r.stable.shift].map(fmtv));

test('stability 1: scores 88.5, 88.5 — each term fits, the SUM overflows, and the weights become 0, not NaN', () => {
  const r = stab([88.5, 88.5]);
  assert.equal(r.kind, 'sum-overflow');
  assert.deepEqual(Array.from(r.naive.weights), [0, 0]);
  assert.ok(r.naive.terms.every(Number.isFinite));
  const text = stabText(r);
  assert.match(text, /^Each term fits in float32 \(the largest, exp\(88\.5\) = 2\.72e38, is below its largest number, 3\.40e38\), but their sum does not: it overflows to Infinity, and a finite term divided by Infinity is 0\. Both naive weights are 0, not NaN/);
  assert.doesNotMatch(text, /exp\(NaN\)|Infinity \/ Infinity|0 of 2|past about 88/);
  assert.equal(verdict(r), 'Naive: every weight is 0. Stable: correct.');
});

test('stability 1: scores −1000, −1000 — every term UNDERFLOWS to 0, the sum is 0 and 0/0 is NaN', () => {
  const r = stab([-1000, -1000]);
  assert.equal(r.kind, 'all-underflow');
  assert.deepEqual(Array.from(r.naive.terms), [0, 0]);
  const text = explainStability(r, fmtv)[0];
  assert.match(text, /^Every term underflows: exp\(−1000\) is closer to 0 than float32 can hold .* the sum is 0, and 0 \/ 0 is NaN .* Both naive weights are NaN/);
  assert.doesNotMatch(text, /past float32’s largest|Push the top score|overflow/);
  assert.equal(verdict(r), 'Naive: 2 NaN weights. Stable: correct.');
});

test('stability 1: a term that overflows, a weight lost to underflow, tiny terms, and rows that fit — each said as it happened', () => {
  const over = stab([1000, 990, 500, 0]);
  assert.equal(over.kind, 'term-overflow');
  assert.match(stabText(over), /^exp\(1000\), exp\(990\) and exp\(500\) are past float32’s largest number \(3\.40e38, reached at exp\(88\.723\)\), so the naive terms of keys 1, 2 and 3 are Infinity, and so is the sum\. Infinity \/ Infinity is NaN \(“not a number”\), and a finite term divided by Infinity is 0 \(key 4\)\. 3 of 4 naive weights are NaN and 1 is 0/);
  assert.equal(verdict(over), 'Naive: 3 NaN weights and 1 zero weight. Stable: correct.');
  const one = stab([90, 1]);
  assert.match(stabText(one), /^exp\(90\) is past .* the naive term of key 1 is Infinity.* 1 of 2 naive weights is NaN and 1 is 0/);
  const lost = stab([-90, -110]);
  assert.equal(lost.kind, 'underflow');
  assert.match(stabText(lost), /exp\(−110\) underflows to 0 .* the naive weight of key 2 is 0, while the stable softmax gives 2\.06e−9 for key 2/);
  const tiny = stab([-100, -101]);
  assert.equal(tiny.kind, 'precision');
  assert.match(stabText(tiny), /below float32’s smallest normal number \(1\.18e−38\).* so the naive weights \(0\.730, 0\.270\) differ from the stable ones \(0\.731, 0\.269\) in the shown digits\./);
  const fits = stab([10, 9.9, 5, 0]);
  assert.equal(fits.kind, 'fits');
  assert.equal(verdict(fits), 'Both ways agree.');
  assert.match(stabText(fits), /^Every exp\(score\) fits in float32 \(the largest is exp\(10\) = 22026\.465\) and so does their sum/);
  for (const r of [over, one, lost, tiny, fits, stab([88.5, 88.5]), stab([-1000, -1000])]) quotesOnlyShown(stabText(r), stabShown(r), ['3.40e38', '1.18e−38', '88.723', '−103.972']);
  // The sweep table names what happened, row by row.
  const sw = sweepTops(attn);
  assert.equal(KIND_WORDS[sw.find((x) => x.top === 88).kind], 'fits');
  assert.equal(KIND_WORDS[sw.find((x) => x.top === 89).kind], 'a term overflows');
});

// ---------------------------------------------------------------- 7. √dk

test('√dk 7: at n = 64 the narrative follows its own sweep — larger ‖J‖_F unscaled at dk 16 and 64, collapse from 256, the Frobenius norm named', () => {
  const n = 64, seed = 1;
  const sw = sweep(attn, { n, seed });
  const at = (dk) => explainSqrtDk(computeSqrtDk(attn, { dk, n, seed }), sw, fmt).join(' ');
  const row = (dk) => sw.find((x) => x.dk === dk);
  assert.equal(fmt(row(16).raw.median), '0.330');
  assert.equal(fmt(row(16).scaled.median), '0.172');
  assert.equal(saturation(row(16).raw.median, row(16).scaled.median, fmt), 'not-yet');
  assert.equal(saturation(row(64).raw.median, row(64).scaled.median, fmt), 'not-yet');
  assert.equal(saturation(row(256).raw.median, row(256).scaled.median, fmt), 'bites');
  const t16 = at(16);
  assert.match(t16, /At dk = 16 the unscaled rows are more peaked but mostly not one-hot \(4 of 64\), and their median ‖J‖_F \(0\.330\) is larger than the scaled rows’ \(0\.172\): saturation has not taken the gradient away yet\./);
  assert.match(t16, /Frobenius norm of the softmax’s Jacobian/);
  assert.match(t16, /at dk = 4, 16 and 64 the unscaled median ‖J‖_F is at least the scaled one/);
  assert.match(t16, /at dk = 256 and 512 saturation bites/);
  assert.doesNotMatch(t16, /vanish|almost no gradient|spectral/i, 'no vanishing gradient where the numbers show none');
  assert.match(at(256), /At dk = 256 the median unscaled row is so close to one-hot that its ‖J‖_F is 0\.006, against 0\.177 with scaling: the gradient through the softmax has all but vanished\./);
  // The measure that does vanish: the gradient left for the other keys falls at every width.
  const others = sw.map((x) => x.raw.others);
  for (let k = 1; k < others.length; k++) assert.ok(others[k] < others[k - 1], `falls at dk = ${sw[k].dk}`);
  assert.match(t16, /Without scaling, the gradient left for the other keys falls with every width, from 0\.923 at dk = 1 to 0\.002 at dk = 512/);
  // A peaked row can have a larger Jacobian than a soft one: [0.9, 0.1] against 32 equal weights.
  const peaked = attn.softmaxStats([0.9, 0.1]).gradNorm, soft = attn.softmaxStats(new Array(32).fill(1 / 32)).gradNorm;
  assert.ok(peaked > soft, `${peaked} > ${soft}`);
});

test('√dk 7: every number the narrative quotes is one the lab shows, for several widths, lengths and seeds', () => {
  for (const [n, seed] of [[32, 1], [64, 3], [8, 2]]) {
    const sw = sweep(attn, { n, seed });
    const tableShown = sw.flatMap((x) => [x.rawStd, x.scaledStd, x.raw.maxWeight, x.scaled.maxWeight, x.raw.median, x.scaled.median, x.raw.others, x.scaled.others].map(fmt));
    for (const dk of [1, 16, 64, 300]) {
      const r = computeSqrtDk(attn, { dk, n, seed });
      const side = (s) => [s.std, s.mean.maxWeight, s.mean.entropy, s.medianGradNorm, s.medianOthers].map(fmt);
      quotesOnlyShown(explainSqrtDk(r, sw, fmt).join(' '), [...tableShown, ...side(r.raw), ...side(r.scaled), fmt(r.sqrtDk), fmt(r.maxEntropy)], [fmt(0.5), fmt(r.uniformGradNorm)]);
    }
  }
});

// ---------------------------------------------------------------- 9. grouped-query attention

test('multihead 9: grouped-query attention is a group of any size sharing one K/V head; one for all is multi-query; never “pairs”', () => {
  const lede = LABS.find((l) => l.mode === 'multihead-lab');
  assert.ok(lede);
  const src = readFileSync(new URL('web/labs/multihead-view.js', ROOT), 'utf8') + readFileSync(new URL('web/labs/multihead.js', ROOT), 'utf8');
  assert.doesNotMatch(src, /pairs of query heads/);
  assert.match(src, /one K\/V head for all query heads is multi-query attention/);
  const two = computeMultiHead(attn, { heads: 2, gqa: true, seed: 1, causal: true });
  assert.match(two.shapes.join(' '), /Grouped-query attention: 1 key\/value head, shared by a group of 2 query heads \(one K\/V head for every query head: the special case called multi-query attention\)/);
  const four = computeMultiHead(attn, { heads: 4, gqa: true, seed: 1, causal: true });
  assert.match(four.shapes.join(' '), /Grouped-query attention: 2 key\/value heads, each shared by a group of 2 query heads:/);
  assert.doesNotMatch(four.shapes.join(' '), /multi-query/);
  assert.match(headShapes({ n: 5, d: 8, dk: 8, heads: 1, kvHeads: 1 }).join(' '), /^X: .* 1 head, of width dk = dv = d \/ heads = 8 \/ 1 = 8\./);
});

// ---------------------------------------------------------------- 10. cross-attention ties

test('cross 10: a tie names every word of it, with and without the mask', () => {
  const say = (pair, causal) => explainCross(computeCross(attn, { pair, causal }), { pair, causal }, fmt).join(' ');
  assert.match(say('hungry', false), /“j’ai” → “I” and “am” \(0\.478 each, a tie\)/);
  assert.match(say('black-cat', true), /“chat” → “the” and “black” \(0\.500 each, a tie\)/);
  assert.match(say('hungry', true), /“faim” → “I” and “am” \(0\.500 each, a tie\)/);
  assert.match(say('hungry', true), /Here “j’ai” cannot see “am” and “faim” cannot see “hungry”, words they should translate/);
  assert.match(say('black-cat', true), /Here “chat” cannot see “cat”, the word it should translate/);
  for (const pair of Object.keys(PAIRS)) {
    for (const causal of [false, true]) {
      const x = computeCross(attn, { pair, causal });
      quotesOnlyShown(say(pair, causal), Array.from(x.r.A, fmt));
      // the words named for a row are exactly the keys whose shown weight is the row's largest
      x.best.forEach((js, i) => {
        const row = Array.from(x.r.A.subarray(i * x.r.m, (i + 1) * x.r.m), fmt);
        const top = row.reduce((b, v) => (Number(v) > Number(b) ? v : b));
        assert.deepEqual(js, row.map((v, j) => (v === top ? j : -1)).filter((j) => j >= 0));
      });
    }
  }
});

// ---------------------------------------------------------------- 4. docs/labs.md, cross-attention's direction

test('4: docs/labs.md says cross-attention takes its queries from the translation and its keys and values from the source, as the lab does', () => {
  const readme = readFileSync(new URL('docs/labs.md', ROOT), 'utf8');
  const row = readme.split('\n').find((l) => l.startsWith('| Cross-attention |'));
  assert.match(row, /queries from the translation being written, keys and values from the source sentence/);
  assert.doesNotMatch(readme, /queries from one sentence, keys and values from its translation/);
  const x = computeCross(attn, { pair: 'black-cat', causal: false });
  assert.deepEqual(x.rowLabels, PAIRS['black-cat'].target, 'rows (queries) are the translation');
  assert.deepEqual(x.colLabels, PAIRS['black-cat'].source, 'columns (keys) are the source');
});

// ---------------------------------------------------------------- 3. √dk with its value; 11. non-negative

test('3 and 11: the labs write the scale as √dk with its value, never √d, and call weights non-negative, never positive', () => {
  const texts = [];
  for (const pair of Object.keys(PAIRS)) {
    const x = computeCross(attn, { pair, causal: true });
    texts.push(shapesLine(x.r, x.concepts), ...explainCross(x, { pair, causal: true }, fmt));
  }
  for (const [heads, gqa] of [[1, false], [2, true], [4, false]]) texts.push(...computeMultiHead(attn, { heads, gqa, seed: 1, causal: true }).shapes);
  const r = computeSqrtDk(attn, { dk: 64, n: 32, seed: 1 });
  texts.push(...explainSqrtDk(r, sweep(attn, { n: 32, seed: 1 }), fmt));
  for (const preset of PRESET_CHOICES) {
    texts.push(...explainDiagonal(diagonal(attn, preset), fmt), ...explainWrongAxis(wrongAxis(attn, preset), fmt));
    const view = presetView(attn, preset);
    for (let row = 0; row < view.r.n; row++) texts.push(explainTarget(view, target(view, { hide: 'A', target: 'row', row, col: 0 })));
  }
  const all = texts.join('\n');
  assert.doesNotMatch(all, /√d(?!k)/, 'a bare √d');
  assert.doesNotMatch(all, /\bpositive\b/);
  assert.match(all, /√dk = √7 = 2\.646/, 'the cross lab’s scale (dk = 7)');
  assert.match(all, /√dk = √4 = 2\.000/, 'a head of the multihead lab');
  assert.match(all, /√dk = √64 = 8\.000/);
  // A causal row of A: its masked weights are exactly 0, and the words say so.
  const cat = presetView(attn, 'cat');
  assert.match(explainTarget(cat, target(cat, { hide: 'A', target: 'row', row: 1, col: 0 })), /its weights are non-negative and add up to 1; the 3 masked ones are exactly 0\./);
});

// ---------------------------------------------------------------- ties in the misconceptions lab

test('misconceptions: a tie on the diagonal is never called a single winner', () => {
  const we = explainDiagonal(diagonal(attn, 'worked-example'), fmt).join(' ');
  assert.match(we, /For token 3 the largest weight of the row is on the token itself\./);
  assert.match(we, /Token 1 gives 0\.401 to itself and the same to token 3: a tie for the largest weight of its row, with no single winner\./);
  assert.match(we, /Token 2 gives 0\.401 to itself and the same to token 3: a tie/);
  assert.doesNotMatch(we, /For .*token 1.* the largest weight of the row is on the token itself/);
  const cat = explainDiagonal(diagonal(attn, 'cat'), fmt).join(' ');
  assert.match(cat, /“cat” \(2\) gives 0\.500 to itself and the same to “The” \(1\): a tie/);
  assert.match(explainDiagonal(diagonal(attn, 'previous-token'), fmt)[0], /^A token also attends to itself: 6 of 6 diagonal weights are above 0/);
  for (const values of ['lesson', 'silent']) {
    const v = valuesMatter(attn, values);
    quotesOnlyShown(explainValues(v, fmt).join(' '), [...Array.from(v.r.A, fmt), ...Array.from(v.r.V, fmt), ...Array.from(v.r.O, fmt), ...v.contributions.flatMap((c) => c.part.map(fmt))]);
  }
});

// ---------------------------------------------------------------- minor: question 1's shapes

test('the lesson’s question 1 shows shapes as whole numbers, not 5.000', () => {
  const ex = EXERCISES.q1;
  const ans = exerciseAnswer(attn, 'q1');
  assert.equal(fieldLine(ex, 0, 5, ans.values[0], true), 'rows of Q Kᵀ: you said 5, the core gives 5 ✓');
  assert.equal(fieldLine(ex, 4, 1, ans.values[4], true), 'each row of the softmax output sums to: you said 1, the core gives 1 ✓');
  assert.equal(fieldLine(ex, 1, null, ans.values[1], false), 'columns of Q Kᵀ: you said (nothing), the core gives 5 ✗');
  assert.match(fieldLine(EXERCISES.q2, 0, 0.5, 0.468, true), /you said 0\.500, the core gives 0\.468/);
  assert.equal(fmtShort(5), '5');
});
