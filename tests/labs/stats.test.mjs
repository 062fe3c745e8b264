// Node tests of the labs' pure modules (web/labs/*.js): statistics for fixed seeds, the naive
// softmax's real overflow, several heads against one-by-one heads, cross-attention against the
// float64 reference, predict-then-reveal scoring. Deterministic: every input is seeded.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { computeSqrtDk, sweep, readState as sqrtState, writeState as sqrtWrite } from '../../web/labs/sqrtdk.js';
import { computeStability, sweepTops, parseScores } from '../../web/labs/stability.js';
import { wrongAxis, diagonal, valuesMatter } from '../../web/labs/misconceptions.js';
import { computeMultiHead, headWeights } from '../../web/labs/multihead.js';
import { computeCross, crossArgs, PAIRS } from '../../web/labs/cross.js';
import { presetView, target, parseGuess, scoreGuess, explainTarget, exerciseAnswer, scoreExercise, EXERCISES, readState as predictState, writeState as predictWrite } from '../../web/labs/predict.js';
import { LABS, queryOf } from '../../web/labs/index.js';
import { referenceHead, compare, flat } from '../reference.mjs';

let attn;
before(async () => { attn = await loadAttention(); });

test('√dk lab at dk = 64 (n = 64, seed 3): raw std within 10% of 8, scaled within 10% of 1', () => {
  const r = computeSqrtDk(attn, { dk: 64, n: 64, seed: 3 });
  console.log(`dk 64: raw std ${r.raw.std.toFixed(3)}, scaled ${r.scaled.std.toFixed(3)} over ${r.samples} scores`);
  assert.equal(r.samples, 4096);
  assert.ok(Math.abs(r.raw.std - 8) < 0.8, `raw std ${r.raw.std}`);
  assert.ok(Math.abs(r.scaled.std - 1) < 0.1, `scaled std ${r.scaled.std}`);
  assert.ok(Math.abs(r.raw.std / r.scaled.std - 8) < 1e-3, 'scaling divides every score by exactly √dk');
  assert.equal(r.raw.hist.counts.reduce((a, b) => a + b, 0), 4096);
});

test('√dk lab: the std follows √dk for dk from 1 to 512, also past the core width (chunks)', () => {
  for (const dk of [1, 16, 256, 300, 512]) {
    const r = computeSqrtDk(attn, { dk, n: 64, seed: 5 }, { bins: 1 });
    assert.ok(Math.abs(r.raw.std / Math.sqrt(dk) - 1) < 0.1, `dk ${dk}: raw std ${r.raw.std}, √dk ${Math.sqrt(dk)}`);
    assert.ok(Math.abs(r.scaled.std - 1) < 0.1, `dk ${dk}: scaled std ${r.scaled.std}`);
  }
});

test('√dk lab: without scaling rows go nearly one-hot and the gradient vanishes as dk grows; scaled rows stay soft', () => {
  const sw = sweep(attn, { n: 32, seed: 1 });
  const at = (dk) => sw.find((x) => x.dk === dk);
  console.log(sw.map((x) => `dk ${x.dk}: max weight ${x.raw.maxWeight.toFixed(3)} / ${x.scaled.maxWeight.toFixed(3)}, median ‖J‖ ${x.raw.median.toFixed(3)} / ${x.scaled.median.toFixed(3)}`).join('\n'));
  assert.ok(at(512).raw.maxWeight > 0.9 && at(512).scaled.maxWeight < 0.3);
  assert.ok(at(512).raw.median < 0.05 && at(512).scaled.median > 0.15);
  assert.ok(at(512).raw.oneHot > 16 && at(512).scaled.oneHot === 0);
  assert.ok(at(1).raw.maxWeight === at(1).scaled.maxWeight, 'dk = 1: √dk = 1, nothing changes');
});

test('√dk lab: the same seed gives the same numbers, another seed other ones; URL state round-trips', () => {
  const a = computeSqrtDk(attn, { dk: 8, n: 8, seed: 2 }), b = computeSqrtDk(attn, { dk: 8, n: 8, seed: 2 }), c = computeSqrtDk(attn, { dk: 8, n: 8, seed: 3 });
  assert.deepEqual(a.raw.S, b.raw.S);
  assert.notDeepEqual(a.raw.S, c.raw.S);
  const s = { dk: 100, n: 16, seed: 9, row: 3 };
  assert.deepEqual(sqrtState(new URLSearchParams(queryOf(sqrtWrite(s)))), s);
  assert.deepEqual(sqrtState(new URLSearchParams('dk=9999&n=1&seed=x')), { dk: 512, n: 2, seed: 1, row: 0 });
});

test('stability lab: the naive softmax really gives Infinity and NaN past 88.7 where the stable one is correct', () => {
  const r = computeStability(attn, { top: 1000, scores: null });
  assert.deepEqual(Array.from(r.naive.terms.slice(0, 3)), [Infinity, Infinity, Infinity]);
  assert.equal(r.naive.sum, Infinity);
  assert.ok(Number.isNaN(r.naive.weights[0]) && r.nanCount === 3);
  assert.ok(Array.from(r.stable.weights).every(Number.isFinite));
  assert.ok(Math.abs(r.stable.weights[0] - 1 / (1 + Math.exp(-10))) < 1e-6);
  const edge = sweepTops(attn);
  assert.equal(edge.find((x) => x.top === 88).naiveOk, true);
  assert.equal(edge.find((x) => x.top === 89).naiveOk, false);
  const small = computeStability(attn, { top: 10, scores: null });
  assert.equal(small.naiveBroken, false);
  for (let j = 0; j < 4; j++) assert.ok(Math.abs(small.naive.weights[j] - small.stable.weights[j]) < 1e-6);
  assert.deepEqual(parseScores('1000, 990 -5').scores, [1000, 990, -5]);
  assert.equal(parseScores('1, x').ok, false);
});

test('misconceptions: softmax over dim=0 gives columns summing to 1 and rows that do not; the diagonal is not 0; a zero value moves nothing', () => {
  const w = wrongAxis(attn, 'cat');
  for (const s of w.colSums) assert.ok(Math.abs(s - 1) < 1e-5);
  for (const s of w.rightRowSums) assert.ok(Math.abs(s - 1) < 1e-5);
  assert.ok(w.rowSums.some((s) => Math.abs(s - 1) > 0.5));
  const d = diagonal(attn, 'worked-example');
  assert.deepEqual(d.diag.map((x) => x.toFixed(3)), ['0.401', '0.401', '0.503']);
  const v = valuesMatter(attn, 'silent');
  assert.ok(v.contributions[2].weight > 0.5 && v.contributions[2].size === 0);
});

test('several heads: the concatenated output of multiHead equals the heads computed one by one (and the float64 reference)', () => {
  for (const state of [{ heads: 1, gqa: false }, { heads: 2, gqa: false }, { heads: 4, gqa: false }, { heads: 2, gqa: true }, { heads: 4, gqa: true }]) {
    const x = computeMultiHead(attn, { ...state, seed: 7, causal: true });
    let diff = 0;
    for (let k = 0; k < x.concat.length; k++) diff = Math.max(diff, Math.abs(x.concat[k] - x.concatOneByOne[k]));
    assert.equal(diff, 0, `heads ${state.heads} gqa ${state.gqa}`);
    const W = headWeights({ ...state, seed: 7 }, x.d);
    for (const p of x.perHead) {
      const ref = referenceHead({ X: x.X, Wq: W.Wq[p.h], Wk: W.Wk[p.kv], Wv: W.Wv[p.kv], causal: true });
      const c = compare(p.r.O, flat(ref.O));
      assert.ok(c.ok, `head ${p.h}: ${c.worst}`);
    }
    assert.equal(x.kvHeads, state.gqa && state.heads > 1 ? state.heads / 2 : state.heads);
  }
});

test('cross-attention equals the float64 reference for every sentence pair, with and without the causal mask', () => {
  for (const pair of Object.keys(PAIRS)) {
    for (const causal of [false, true]) {
      const x = computeCross(attn, { pair, causal });
      const ref = referenceHead(crossArgs({ pair, causal }));
      const dA = compare(x.r.A, flat(ref.A)), dO = compare(x.r.O, flat(ref.O));
      assert.ok(dA.ok && dO.ok, `${pair} causal ${causal}: ${dA.worst ?? dO.worst}`);
      assert.equal(x.r.n, PAIRS[pair].target.length);
      assert.equal(x.r.m, PAIRS[pair].source.length);
      if (pair === 'black-cat' && !causal) console.log(`cross-attention max |A − ref| ${dA.maxAbs.toExponential(1)}, |O − ref| ${dO.maxAbs.toExponential(1)}`);
    }
  }
  const x = computeCross(attn, { pair: 'black-cat', causal: false });
  assert.deepEqual(x.best, [[0], [2], [1], [3]], 'le→the, chat→cat, noir→black, dort→sleeps');
  assert.deepEqual(computeCross(attn, { pair: 'black-cat', causal: true }).hidden, [{ i: 1, keys: [2] }]);
});

test('predict then reveal: a guess is scored by its distance and explained in the explorer’s words', () => {
  const view = presetView(attn, 'cat');
  const t = target(view, { hide: 'A', target: 'cell', row: 4, col: 1 });
  assert.equal(t.values[0].toFixed(3), '0.528');
  assert.equal(scoreGuess(t.values, t.values, t.range).points, 100);
  assert.equal(scoreGuess(t.values, [0.5], t.range).verdict, 'close');
  assert.equal(scoreGuess(t.values, [0], t.range).points, 0);
  assert.match(explainTarget(view, t), /0\.528/);
  const row = target(view, { hide: 'A', target: 'row', row: 4, col: 0 });
  assert.equal(row.values.length, 5);
  assert.match(explainTarget(view, row), /non-negative and add up to 1/);
  const masked = target(presetView(attn, 'cat'), { hide: 'S', target: 'cell', row: 0, col: 3 });
  assert.equal(masked.values[0], -Infinity);
  assert.equal(scoreGuess(masked.values, parseGuess('-inf', 1).values, masked.range).points, 100);
  assert.deepEqual(parseGuess('0.5, 0.25 0.25', 3).values, [0.5, 0.25, 0.25]);
  assert.equal(parseGuess('0.5', 2).ok, false);
  const s = { preset: 'previous-token', hide: 'O', target: 'cell', row: 2, col: 1, exercise: '' };
  assert.deepEqual(predictState(new URLSearchParams(queryOf(predictWrite(s)))), s);
});

test('the lesson’s three knowledge-check questions: the core’s answers match the lesson’s', () => {
  const q1 = exerciseAnswer(attn, 'q1');
  assert.deepEqual(q1.values, [5, 5, 5, 5, 1]);
  assert.equal(scoreExercise(q1, [5, 5, 5, 5, 1]).points, 100);
  const q2 = exerciseAnswer(attn, 'q2');
  assert.deepEqual(q2.values.map((v) => v.toFixed(3)), ['0.468', '0.468', '0.063']);
  assert.equal(scoreExercise(q2, [0.47, 0.47, 0.06]).points, 100);
  assert.equal(scoreExercise(q2, [0.33, 0.33, 0.33]).count, 0);
  const q3 = exerciseAnswer(attn, 'q3');
  assert.ok(Math.abs(q3.values[0] - 8) < 0.8 && Math.abs(q3.values[1] - 1) < 0.1);
  assert.equal(scoreExercise(q3, [8, 1]).points, 100);
  assert.match(EXERCISES.q2.explanation, /\[0\.468, 0\.468, 0\.063\]/);
});

test('every lab has a mode, a title, and URL state that survives a round trip of its defaults', () => {
  assert.equal(new Set(LABS.map((l) => l.mode)).size, LABS.length, 'no two labs share a mode');
  for (const lab of LABS) {
    const d = lab.state.defaultState();
    const params = new URLSearchParams(queryOf(lab.state.writeState(d)));
    assert.equal(params.get('mode'), lab.mode);
    assert.deepEqual(lab.state.writeState(lab.state.readState(params)), lab.state.writeState(d), lab.mode);
  }
});
