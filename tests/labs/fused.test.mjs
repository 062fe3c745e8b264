// Node tests of the fused-form lab's pure module (web/labs/fused.js): the bytes each form needs
// (n² against n), that their O agree, the timing arithmetic (with a fake clock: speed itself is
// never asserted), the log–log plot's geometry and the sentences. Deterministic.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import {
  MODE, SWEEP, BLOCK, TILE, fusedScores, N_MIN, N_MAX, readState, writeState, defaultState, headArgs, compareForms, timePerCall, timeForms,
  plotGeometry, growth, explainFused, bytesText, timeText, doublingSentence, QUADRATIC_GROWTH, WIDTH, multiplications, squareShare,
} from '../../web/labs/fused.js';
import { mulberry32, normals } from '../../web/labs/random.js';
import { LABS, labOf, queryOf } from '../../web/labs/index.js';
import { referenceHead, compare } from '../reference.mjs';

let attn;
before(async () => { attn = await loadAttention(); });

/** A clock that moves by `us` microseconds every time `fn` is called (and not otherwise). */
function fakeClock(us) {
  let t = 0;
  return { now: () => t / 1000, tick: () => { t += us; } };
}

test('URL state: n is clamped to 8..512, causal defaults on, and the state round-trips', () => {
  assert.deepEqual(readState(new URLSearchParams('')), defaultState());
  assert.equal(readState(new URLSearchParams('n=3')).n, N_MIN);
  assert.equal(readState(new URLSearchParams('n=9999')).n, N_MAX);
  assert.equal(readState(new URLSearchParams('n=abc')).n, defaultState().n);
  assert.equal(readState(new URLSearchParams('seed=2147483647')).seed, 2 ** 31 - 1);
  assert.equal(readState(new URLSearchParams('seed=99999999999')).seed, 2 ** 31 - 1, 'seeds stop at 2³¹ − 1');
  assert.equal(readState(new URLSearchParams('causal=0')).causal, false);
  const s = { n: 300, causal: false, seed: 7 };
  assert.deepEqual(readState(new URLSearchParams(queryOf(writeState(s)))), s);
  assert.equal(queryOf(writeState(defaultState())), '?mode=fused-lab&n=128&causal=1');
  assert.equal(labOf(MODE).title, 'Fused form and n²');
  assert.ok(LABS.some((l) => l.mode === MODE));
});

test('the long form needs 3 × n² floats for S, M and A; the fused form none, only one tile of 4 × (at most TILE) scores', () => {
  for (const n of [8, 100, 256, 512]) {
    for (const causal of [true, false]) {
      const c = compareForms(attn, { n, causal, seed: 1 });
      assert.equal(c.scores, n * n);
      assert.equal(c.long.square, 3 * n * n * 4, `n ${n}: S, M and A`);
      assert.equal(c.fused.square, 0, `n ${n}: the fused form has no n × n buffer`);
      assert.equal(c.fused.tile, BLOCK * Math.min(n, TILE) * 4);
      assert.equal(c.fused.computed, fusedScores(n, causal));
      // from n = 64 on the fused form needs less in all (below, its packed Kᵀ and V outweigh S, M and A)
      if (n >= 64) assert.ok(c.fused.total < c.long.total, `n ${n}: fused ${c.fused.total} < long ${c.long.total}`);
    }
  }
  // doubling n: the long form's n × n part quadruples, the fused form's whole workspace about
  // doubles (all of it grows like n but the weights, 3 × WIDTH × WIDTH floats, and one tile's
  // scratch, BLOCK × TILE scores, which n does not change)
  const a = compareForms(attn, { n: 256, causal: true, seed: 1 }), b = compareForms(attn, { n: 512, causal: true, seed: 1 });
  assert.equal(b.long.square / a.long.square, 4);
  const fixed = 3 * WIDTH * WIDTH * 4 + BLOCK * TILE * 4, ratio = (b.fused.total - fixed) / (a.fused.total - fixed);
  assert.ok(ratio > 1.95 && ratio <= 2, `the fused workspace grew ${ratio} times`);
});

test('both forms give the same O to float32 rounding, and the fused form\'s matches the float64 reference', () => {
  for (const [n, causal] of [[8, true], [37, false], [128, true], [300, false]]) {
    const c = compareForms(attn, { n, causal, seed: 3 });
    assert.ok(c.maxDiff <= 1e-6, `n ${n}: the forms differ by ${c.maxDiff}`);
    assert.equal(c.outputs, n * WIDTH);
    const args = headArgs(n, { causal, seed: 3 });
    const nested = (m) => Array.from({ length: m.shape[0] }, (_, i) => Array.from(m.data.subarray(i * m.shape[1], (i + 1) * m.shape[1])));
    const ref = referenceHead({ X: nested(args.X), Wq: nested(args.Wq), Wk: nested(args.Wk), Wv: nested(args.Wv), causal });
    const fused = attn.forward(args, { outputs: ['O'] });
    assert.ok(compare(fused.O, ref.O).ok, `n ${n}: ${compare(fused.O, ref.O).worst}`);
  }
  // the same tokens at every n: n = 8 is the first 8 rows of n = 512
  assert.deepEqual(Array.from(headArgs(8, { seed: 1 }).X.data), Array.from(headArgs(512, { seed: 1 }).X.data.subarray(0, 8 * WIDTH)));
});

test('timePerCall: µs per call from the clock it is given, batches doubling, the fastest of the runs', () => {
  const clock = fakeClock(2.5);
  let calls = 0;
  const us = timePerCall(() => { calls++; clock.tick(); }, clock.now, { budgetMs: 3, runs: 3 });
  assert.ok(Math.abs(us - 2.5) < 1e-9, `${us} µs`);
  assert.ok(calls >= 3 * 400, `${calls} calls: each run lasts about 1 ms of the fake clock`);
  // one slow run (a pause) does not count: the fastest run wins
  const slow = fakeClock(1);
  let k = 0;
  const us2 = timePerCall(() => { k++; slow.tick(); if (k === 10) for (let i = 0; i < 5000; i++) slow.tick(); }, slow.now, { budgetMs: 3, runs: 3 });
  assert.ok(Math.abs(us2 - 1) < 1e-9, `${us2} µs`);
  // timeForms runs both forms through the public API
  const t = timeForms(attn, defaultState(), 16, fakeClock(0).now, { budgetMs: 0, runs: 1 });
  assert.equal(t.n, 16);
  assert.ok(Number.isFinite(t.long) && Number.isFinite(t.fused));
});

test('plot: log₂ n across, log₁₀ time up, decades as ticks, and the n² line has slope 2 through the long form at the largest n', () => {
  const points = SWEEP.map((n) => ({ n, long: 0.01 * n * n, fused: 0.005 * n * n + 3 }));
  const g = plotGeometry(points, { width: 480, height: 260, current: 128 });
  assert.deepEqual(g.xTicks.map((t) => t.label), SWEEP.map(String));
  const xs = g.xTicks.map((t) => t.x);
  for (let k = 1; k < xs.length; k++) assert.ok(Math.abs(xs[k] - xs[k - 1] - (xs[1] - xs[0])) < 0.02, 'equal steps per doubling');
  assert.equal(g.marker, g.xTicks[4].x);
  assert.deepEqual(g.yTicks.map((t) => t.label), ['0.1 µs', '1 µs', '10 µs', '100 µs', '1 ms', '10 ms']);
  const decade = g.yTicks[0].y - g.yTicks[1].y, doubling = xs[1] - xs[0];
  // the long form here is exactly c·n², so every point lies on the n² line
  const [[x1, y1], [x2, y2]] = g.square;
  const slope = (y1 - y2) / decade / ((x2 - x1) / doubling) / Math.log10(2); // decades per decade
  assert.ok(Math.abs(slope - 2) < 1e-3, `n² line slope ${slope}`);
  for (const [x, y] of g.long) assert.ok(Math.abs(y1 + (x - x1) * (y2 - y1) / (x2 - x1) - y) < 0.05, `(${x}, ${y}) is on the n² line`);
  assert.equal(g.long.length, 7);
  // nothing measured yet: axes but no lines
  const empty = plotGeometry([]);
  assert.deepEqual([empty.long, empty.fused, empty.square], [[], [], []]);
});

test('growth and the sentences follow the numbers: scores, blocks, bytes, agreement, doubling, and noise said as noise', () => {
  const points = SWEEP.map((n) => ({ n, long: 5 + 0.01 * n * n, fused: 4 + 0.006 * n * n }));
  const g = growth(points);
  assert.deepEqual(g.map((x) => x.to), [16, 32, 64, 128, 256, 512]);
  assert.ok(Math.abs(g[5].long - (5 + 0.01 * 512 ** 2) / (5 + 0.01 * 256 ** 2)) < 1e-12);
  const c = compareForms(attn, { n: 256, causal: true, seed: 1 });
  const t = points.find((p) => p.n === 256);
  const text = explainFused(c, t, points, { n: 256, causal: true });
  const all = text.join(' ');
  assert.match(all, /256 × 256 = 65,536 scores/);
  assert.match(all, /768 KiB of n × n matrices/);
  const against = (n) => (n <= TILE ? `all ${n} keys in one tile` : `the keys a tile of ${TILE} at a time \\(${Math.ceil(n / TILE)} tiles\\)`);
  assert.match(all, new RegExp(`it takes 64 blocks of 4 queries, each against ${against(256)}, and holds one tile’s 4 × ${Math.min(256, TILE)} scores \\(${bytesText(4 * Math.min(256, TILE) * 4).replace('.', '\\.')}\\)`));
  assert.match(all, new RegExp(`the largest difference between their ${(256 * WIDTH).toLocaleString('en-US')} outputs is ${c.identical ? '0' : c.maxDiff.toExponential(1)}`));
  assert.match(all, /one call took 660 µs in the long form and 397 µs in the fused form, 1\.7 times faster/);
  assert.match(all, /Doubling n from 256 to 512 multiplies the scores by 4 \(65,536 → 262,144\) and the multiplications of a call by 3\.83 \(at n = 512, 96% of them are in the n × n scores and the mix\); it multiplied the time of a call by 4\.0 in the long form and 4\.0 in the fused form, close to 4 in both: the quadratic cost the lesson means/);
  assert.match(all, new RegExp(`S alone would take 4\\.0 GiB for one head; the fused form holds one tile’s 4 × ${TILE} scores \\(${bytesText(4 * TILE * 4).replace('.', '\\.')}\\) whatever n is`));
  assert.match(all, /The fused form also skips 49% of the scores, those the causal mask removes past each block’s last row/);
  assert.doesNotMatch(all, /noise/);
  // no causal mask: nothing about skipping
  assert.doesNotMatch(explainFused(c, t, points, { n: 256, causal: false }).join(' '), /causal/);
  // n = 8: two blocks, said in the plural, against one tile of all 8 keys; one tile is never "1 tiles"
  assert.match(explainFused(compareForms(attn, { n: 8, causal: true, seed: 1 }), null, [], { n: 8, causal: true })[0], /takes 2 blocks of 4 queries, each against all 8 keys in one tile, and holds one tile’s 4 × 8 scores/);
  // two tiles, said in the plural: past the lab's N_MAX when a tile is longer, so the sentence is
  // asked of a comparison whose n says so (only n counts the tiles)
  const wide = TILE + 1;
  const twoTiles = { ...compareForms(attn, { n: Math.min(wide, N_MAX), causal: true, seed: 1 }), n: wide };
  assert.match(explainFused(twoTiles, null, [], { n: wide, causal: true })[0], new RegExp(`the keys a tile of ${TILE} at a time \\(2 tiles\\)`));
  // a time that falls as n doubles is noise, and said so
  const noisy = points.map((p) => (p.n === 64 ? { ...p, long: 1e4 } : p));
  assert.match(explainFused(c, t, noisy, { n: 256, causal: true }).join(' '), /The times fell as n doubled from 64 to 128, which only noise explains/);
  // units
  assert.deepEqual([bytesText(96), bytesText(1), bytesText(2048), bytesText(196608), bytesText(3 * 1024 ** 2)], ['96 bytes', '1 byte', '2.0 KiB', '192 KiB', '3.0 MiB']);
  assert.deepEqual([timeText(1.234), timeText(45.6), timeText(450), timeText(2310), timeText(12345), timeText(NaN)], ['1.2 µs', '46 µs', '450 µs', '2.31 ms', '12.3 ms', '—']);
});

// ---------------------------------------------------------------- exact values, worked by hand

/**
 * A stand-in for the core that returns the given O and workspaces and records how it was called,
 * so the comparison and the byte counts are checked against numbers chosen here.
 */
function fakeCore({ longO, fusedO, longBuffers, fusedBuffers, longTotal, fusedTotal }) {
  const calls = [];
  let last = null;
  return {
    calls,
    forward(args, options) {
      calls.push({ n: args.X.shape[0], causal: args.causal, options });
      last = options && options.outputs ? 'fused' : 'long';
      return { O: Float32Array.from(last === 'fused' ? fusedO : longO) };
    },
    workspace() {
      return last === 'fused' ? { total: fusedTotal, buffers: fusedBuffers } : { total: longTotal, buffers: longBuffers };
    },
  };
}

test('compareForms: the largest difference of the two O, whether they agree bit for bit, and the n × n bytes of each', () => {
  const core = fakeCore({
    longO: [1, -2, 0.5, 3], fusedO: [1, -2.25, 0.5, 3.125],
    longBuffers: { S: 100, M: 20, A: 3, work: 7 }, fusedBuffers: { S: 0, M: 0, A: 0, work: 40 },
    longTotal: 1000, fusedTotal: 300,
  });
  const c = compareForms(core, { n: 10, causal: false, seed: 2 });
  assert.deepEqual(c, {
    n: 10, scores: 100, outputs: 4, maxDiff: 0.25, identical: false,
    long: { total: 1000, square: 123 }, fused: { total: 300, square: 0, tile: 160, computed: 100 },
  });
  // the long form first, then the fused form asked for O alone, both on the state's n tokens
  assert.deepEqual(core.calls.map((k) => [k.n, k.causal, k.options]), [[10, false, undefined], [10, false, { outputs: ['O'] }]]);
  // the difference of the first element that differs counts as much as the last one's
  const first = compareForms(fakeCore({ longO: [0, 1, 1], fusedO: [0.5, 1, 1], longBuffers: { S: 1, M: 1, A: 1 }, fusedBuffers: { S: 2, M: 3, A: 4 }, longTotal: 9, fusedTotal: 9 }), { n: 8, causal: true, seed: 1 });
  assert.deepEqual([first.maxDiff, first.identical, first.fused.square, first.fused.tile, first.fused.computed], [0.5, false, 9, 128, 48]);
  // −0 and 0 are the same number but not the same bits: not identical, difference 0
  const zero = compareForms(fakeCore({ longO: [0, 2], fusedO: [-0, 2], longBuffers: { S: 1, M: 1, A: 1 }, fusedBuffers: { S: 0, M: 0, A: 0 }, longTotal: 9, fusedTotal: 9 }), { n: 8, causal: true, seed: 1 });
  assert.deepEqual([zero.maxDiff, zero.identical], [0, false]);
  const same = compareForms(fakeCore({ longO: [1, 2], fusedO: [1, 2], longBuffers: { S: 1, M: 1, A: 1 }, fusedBuffers: { S: 0, M: 0, A: 0 }, longTotal: 9, fusedTotal: 9 }), { n: 8, causal: true, seed: 1 });
  assert.deepEqual([same.maxDiff, same.identical], [0, true]);
});

test('headArgs: X is the seed’s first standard normals, the weights a further 3 × WIDTH × WIDTH of them scaled by 1/√WIDTH', () => {
  const a = headArgs(16, { causal: false, seed: 9 });
  const w = WIDTH;
  assert.deepEqual(a.X.shape, [16, w]);
  assert.equal(a.X.data.length, 16 * w);
  for (const m of ['Wq', 'Wk', 'Wv']) assert.deepEqual(a[m].shape, [w, w]);
  assert.equal(a.causal, false);
  const draws = normals(mulberry32(9), 512 * w + 3 * w * w);
  assert.deepEqual(Array.from(a.X.data), Array.from(draws.subarray(0, 16 * w)));
  let at = 512 * w;
  for (const m of ['Wq', 'Wk', 'Wv']) {
    const want = Array.from(draws.subarray(at, at + w * w), (v) => Math.fround(v / Math.sqrt(w)));
    assert.deepEqual(Array.from(a[m].data), want, m);
    at += w * w;
  }
});

test('timePerCall: one warm-up call, then per run batches of 1, 2, 4, … until the run lasts budget / runs', () => {
  // a clock in whole milliseconds that moves 1 ms per call
  let t = 0, calls = 0;
  const fn = () => { calls++; t++; };
  // budget 3 ms in one run: batches 1 then 2 (3 ms): 1000 µs per call, 1 + 3 calls
  assert.equal(timePerCall(fn, () => t, { budgetMs: 3, runs: 1 }), 1000);
  assert.equal(calls, 4);
  // two runs of 3 ms each: 1 + 3 + 3 calls
  calls = 0;
  assert.equal(timePerCall(fn, () => t, { budgetMs: 6, runs: 2 }), 1000);
  assert.equal(calls, 7);
  // defaults: 3 runs of 5 ms: batches 1, 2, 4 (7 ms) each
  calls = 0;
  assert.equal(timePerCall(fn, () => t), 1000);
  assert.equal(calls, 1 + 3 * 7);
  // a clock that never moves: batches double up to 65,536 and a run ends at 1,048,576 calls or more
  calls = 0;
  assert.equal(timePerCall(() => { calls++; }, () => 0, { budgetMs: 1, runs: 1 }), 0);
  assert.equal(calls, 1 + 65535 + 16 * 65536);
});

test('timeForms: the long form refills one result with into, the fused form asks for O alone', () => {
  const calls = [];
  const kept = { O: new Float32Array(4) };
  const core = { forward(args, options) { calls.push([args.X.shape[0], options]); return kept; } };
  const t = timeForms(core, { causal: true, seed: 1 }, 32, () => 0, { budgetMs: 0, runs: 1 });
  assert.deepEqual(t, { n: 32, long: 0, fused: 0 });
  // the first call lays out the result; each timed long call (a warm-up and one run) refills it
  assert.deepEqual(calls, [[32, undefined], [32, { into: kept }], [32, { into: kept }], [32, { outputs: ['O'] }], [32, { outputs: ['O'] }]]);
});

test('plot geometry, worked by hand: x = 54 + 69 per doubling, y = 226 − 54 per decade over 10⁰..10⁴ µs', () => {
  // unsorted, with points not measured yet (0 or missing) that must be left out
  const points = [
    { n: 128, long: 400, fused: 40 }, { n: 32, long: 0, fused: 7 }, { n: 64, long: 100, fused: 10 },
    { n: 16, long: 5 }, { n: 256, long: 9, fused: 0 },
  ];
  const g = plotGeometry(points, { current: 256 });
  assert.deepEqual([g.width, g.height, g.pad], [480, 260, { left: 54, right: 12, top: 10, bottom: 34 }]);
  assert.deepEqual(g.xTicks, SWEEP.map((n, k) => ({ x: 54 + 69 * k, label: String(n) })));
  // times 10..400 µs and the n² line through (128, 400 µs): 400 / 256 = 1.5625 µs at 8, 6,400 µs at 512
  assert.deepEqual(g.yTicks, [{ y: 226, label: '1 µs' }, { y: 172, label: '10 µs' }, { y: 118, label: '100 µs' }, { y: 64, label: '1 ms' }, { y: 10, label: '10 ms' }]);
  assert.deepEqual(g.long, [[261, 118], [330, 85.49]]); // 226 − 54 · log₁₀ 400 = 85.489
  assert.deepEqual(g.fused, [[261, 172], [330, 139.49]]); // 226 − 54 · log₁₀ 40 = 139.489
  assert.deepEqual(g.square, [[54, 215.53], [468, 20.47]]); // 226 − 54 · log₁₀ 1.5625, 226 − 54 · log₁₀ 6400
  assert.equal(g.marker, 399);
  assert.equal(plotGeometry(points).marker, null);
  assert.equal(plotGeometry(points, { current: 8 }).marker, 54);
  // another box: 240 × 130 with the same padding
  const small = plotGeometry([{ n: 512, long: 1000, fused: 100 }], { width: 240, height: 130 });
  // x = 54 + (log₂ n − 3) / 6 · 174; times 0.244 µs (the n² line at 8) .. 1,000 µs: decades −1..3, 86 px / 4 each
  assert.deepEqual(small.xTicks.map((t) => t.x), [54, 83, 112, 141, 170, 199, 228]);
  assert.deepEqual(small.yTicks, [{ y: 96, label: '0.1 µs' }, { y: 74.5, label: '1 µs' }, { y: 53, label: '10 µs' }, { y: 31.5, label: '100 µs' }, { y: 10, label: '1 ms' }]);
  assert.deepEqual(small.long, [[228, 10]]);
  assert.deepEqual(small.fused, [[228, 31.5]]);
  // a fused time below the n² line's lowest point widens the axis down to its decade
  const fast = plotGeometry([{ n: 512, long: 1000, fused: 0.05 }]);
  assert.deepEqual(fast.yTicks.map((t) => t.label), ['0.01 µs', '0.1 µs', '1 µs', '10 µs', '100 µs', '1 ms']);
  // and a time at small n above the line's highest point (2 ms at 512) widens it up: 20 ms -> 100 ms
  const slow = plotGeometry([{ n: 8, long: 20000, fused: 4000 }, { n: 512, long: 2000, fused: 1000 }]);
  assert.deepEqual([slow.yTicks[0].label, slow.yTicks[slow.yTicks.length - 1].label], ['0.1 µs', '100 ms']);
  // nothing measured: the axes span 1 µs to 1 ms
  const empty = plotGeometry([]);
  assert.deepEqual(empty.yTicks, [{ y: 226, label: '1 µs' }, { y: 154, label: '10 µs' }, { y: 82, label: '100 µs' }, { y: 10, label: '1 ms' }]);
  assert.equal(empty.marker, null);
  // sub-microsecond decades are labelled with one digit: 0.0001 µs, not 0.00009999999999999999 µs
  const tiny = plotGeometry([{ n: 512, long: 0.01, fused: 0.001 }]);
  assert.deepEqual(tiny.yTicks.map((t) => t.label), ['0.000001 µs', '0.00001 µs', '0.0001 µs', '0.001 µs', '0.01 µs']);
});

test('growth: only measured points, in order of n, and only pairs one doubling apart', () => {
  const points = [
    { n: 64, long: 40, fused: 20 }, { n: 16, long: 4, fused: 3 }, { n: 32, long: 10, fused: 6 },
    { n: 8, long: 0, fused: 1 }, { n: 128, long: 160, fused: 0 }, { n: 256, long: 640, fused: 320 }, { n: 512 },
  ];
  assert.deepEqual(growth(points), [{ from: 16, to: 32, long: 2.5, fused: 2 }, { from: 32, to: 64, long: 4, fused: 20 / 6 }]);
  assert.deepEqual(growth([{ n: 8, long: 1, fused: 1 }, { n: 32, long: 16, fused: 16 }]), [], '8 to 32 is two doublings');
  assert.deepEqual(growth([]), []);
});

test('fusedScores: each block of 4 queries (the last n % 4 one at a time) against the keys its last row sees', () => {
  assert.equal(fusedScores(8, false), 64);
  assert.equal(fusedScores(8, true), 4 * 4 + 4 * 8); // rows 0-3 see 4 keys, rows 4-7 see 8
  assert.equal(fusedScores(6, true), 4 * 4 + 1 * 5 + 1 * 6); // then rows 4 and 5 one at a time
  for (const n of [1, 5, 64, 129, 512]) assert.ok(fusedScores(n, true) >= (n * (n + 1)) / 2 && fusedScores(n, true) <= n * n, `n ${n}`);
});

test('explainFused, word for word: bytes, blocks, rounding, speed-up at its 1.05 threshold, the causal mask, small n and noise', () => {
  const c = {
    n: 8, scores: 64, outputs: 512, maxDiff: 2.384185791015625e-7, identical: false,
    long: { total: 40000, square: 768 }, fused: { total: 20000, square: 0, tile: 128, computed: 40 },
  };
  const flat = { causal: false }, causal = { causal: true };
  const memory = `The memory matters at the lengths models use. At n = 32,768 tokens, S alone would take 4.0 GiB for one head; the fused form holds one tile’s 4 × ${TILE} scores (${bytesText(4 * TILE * 4)}) whatever n is, and besides the inputs and O only K and V packed: its memory grows with n, not with n².`;
  const first = 'With n = 8 tokens there are 8 × 8 = 64 scores. The long form stores all of them in S, and as many masks in M and weights in A: 768 bytes of n × n matrices out of 39 KiB in all. The fused form stores none: it takes 2 blocks of 4 queries, each against all 8 keys in one tile, and holds one tile’s 4 × 8 scores (128 bytes) and, for each of the block’s rows, the running maximum m of its scores, the running sum l of their exponentials and its output so far, an average of the values seen: 20 KiB in all with the inputs, K and V packed, and O.';
  const rounding = 'Both give the same O up to rounding: the largest difference between their 512 outputs is 2.4e-7. The fused form builds each row’s average tile by tile: a tile’s weights are exp(score − m) ÷ l with the running m and l, and what it had is rescaled by α·l_old ÷ l_new, where α = exp(m_old − m_new) is below 1 when the tile brings a larger score: the same numbers, rounded in another order.';
  assert.deepEqual(explainFused(c, null, [], flat), [first, rounding, memory]);
  // 105 / 100 = 1.05: said as faster; 104 / 100 is not
  assert.deepEqual(explainFused(c, { n: 8, long: 105, fused: 100 }, [], flat), [first, rounding, 'At n = 8 one call took 105 µs in the long form and 100 µs in the fused form, 1.1 times faster.', memory]);
  assert.equal(explainFused(c, { n: 8, long: 104, fused: 100 }, [], flat)[2], 'At n = 8 one call took 104 µs in the long form and 100 µs in the fused form.');
  assert.equal(explainFused(c, { n: 8, long: 104, fused: 100 }, [], causal)[2], 'At n = 8 one call took 104 µs in the long form and 100 µs in the fused form. The fused form also skips 38% of the scores, those the causal mask removes past each block’s last row; the long form computes them all, because S shows them.');
  // nothing skipped (every score computed): nothing said about skipping, even with the mask
  assert.equal(explainFused({ ...c, fused: { ...c.fused, computed: 64 } }, { n: 8, long: 104, fused: 100 }, [], causal)[2], 'At n = 8 one call took 104 µs in the long form and 100 µs in the fused form.');
  // one doubling measured, growing by under 3 times: not yet the n² cost, and the fixed cost is said too
  const doubled = [{ n: 16, long: 290, fused: 250 }, { n: 8, long: 100, fused: 100 }];
  // counted at WIDTH 16: 2·n²·16 + 3·n·256 multiplications, 14,336 at n = 8 and 20,480 + ... at 16
  const counted = ((2 * 16 * 16 * WIDTH + 3 * 16 * WIDTH * WIDTH) / (2 * 8 * 8 * WIDTH + 3 * 8 * WIDTH * WIDTH)).toFixed(2);
  const share = Math.round((100 * 2 * 16 * 16 * WIDTH) / (2 * 16 * 16 * WIDTH + 3 * 16 * WIDTH * WIDTH));
  const notYet = `Doubling n from 8 to 16 multiplies the scores by 4 (64 → 256) and the multiplications of a call by ${counted} (at n = 16, ${share}% of them are in the n × n scores and the mix); it multiplied the time of a call by 2.9 in the long form and 2.5 in the fused form: less than 4 in both. At n = 16 the work that grows only with n (projecting every token, n × ${WIDTH} × ${WIDTH} multiplications for each of Q, K and V) and the fixed cost of a call still count beside the n × n scores; the quadratic cost the lesson means takes over as n grows, up to the 512 tokens of this sweep.`;
  assert.deepEqual(explainFused(c, null, doubled, causal).slice(2), [
    notYet,
    'At small n (from 8 to 16) a call grows by only 2.9 times: its fixed cost (checking and copying the inputs, starting the core) is larger than the n² part. On the log–log plot the n² line is the slope the curves approach as n grows.',
    memory,
  ]);
  assert.deepEqual(explainFused(c, null, doubled, flat).slice(2), [notYet, explainFused(c, null, doubled, causal)[3], memory]);
  // exactly 3 times is not "only"
  const three = explainFused(c, null, [{ n: 8, long: 100, fused: 100 }, { n: 16, long: 300, fused: 250 }], flat);
  assert.equal(three.length, 4);
  assert.match(three[2], /by 3\.0 in the long form and 2\.5 in the fused form/);
  // the same time at both n did not fall; a time below the one before did, in either form
  const still = explainFused(c, null, [{ n: 8, long: 100, fused: 100 }, { n: 16, long: 100, fused: 100 }], flat);
  assert.match(still[2], /^Doubling n from 8 to 16 multiplies the scores by 4 \(64 → 256\) and the multiplications of a call by [\d.]+ \(.*\); it multiplied the time of a call by 1\.0 in the long form and 1\.0 in the fused form/);
  assert.match(still[3], /^At small n \(from 8 to 16\) a call grows by only 1\.0 times/);
  const noise = 'The times fell as n doubled from 8 to 16, which only noise explains: something else was using the computer. Press “Time every n again”.';
  assert.deepEqual(explainFused(c, null, [{ n: 8, long: 100, fused: 100 }, { n: 16, long: 150, fused: 99 }], flat).slice(2), [noise, memory]);
  assert.deepEqual(explainFused(c, null, [{ n: 8, long: 100, fused: 100 }, { n: 16, long: 99, fused: 150 }], flat).slice(2), [noise, memory]);
  // identical results: said as exactly 0
  assert.equal(explainFused({ ...c, identical: true, maxDiff: 0 }, null, [], flat)[1], 'Both give the same O: the largest difference between their 512 outputs is 0.');
});

test('bytesText and timeText at their unit boundaries', () => {
  assert.deepEqual([0, 1, 2, 1023, 1024, 10239, 10240, 1024 ** 2 - 1, 1024 ** 2, 1024 ** 3 - 1, 1024 ** 3, 10 * 1024 ** 3].map(bytesText),
    ['0 bytes', '1 byte', '2 bytes', '1023 bytes', '1.0 KiB', '10 KiB', '10 KiB', '1.0 MiB', '1.0 MiB', '1.0 GiB', '1.0 GiB', '10 GiB']);
  // every unit at both of its edges: one decimal up to 9.9, whole from 10 (never "10.0"), and a
  // value that rounds to 1024 is said in the next unit (1023.5 KiB was "1024 KiB")
  const K = 1024, M = 1024 ** 2, G = 1024 ** 3;
  for (const [u, name] of [[K, 'KiB'], [M, 'MiB'], [G, 'GiB']]) {
    assert.equal(bytesText(9.94 * u), `9.9 ${name}`);
    assert.equal(bytesText(9.96 * u), `10 ${name}`);
    assert.equal(bytesText(1023.49 * u), `1023 ${name}`);
  }
  for (const [u, name, next] of [[K, 'KiB', 'MiB'], [M, 'MiB', 'GiB']]) {
    assert.equal(bytesText(1023.5 * u), `1.0 ${next}`, `1023.5 ${name}`);
    assert.equal(bytesText(1023.9 * u), `1.0 ${next}`, `1023.9 ${name}`);
  }
  // GiB is the last unit: it keeps counting
  assert.deepEqual([1023.9 * G, 1024 * G, 4096 * G].map(bytesText), ['1024 GiB', '1024 GiB', '4096 GiB']);
  // each form up to where its rounding would carry over: 99.97 µs was once "1.0e+2 µs"
  assert.deepEqual([0, -3, 0.05, 99.49, 99.5, 99.97, 100, 999.49, 999.5, 999.97, 1000, 9994.9, 9995, 9999, 10000].map(timeText),
    ['—', '—', '0.050 µs', '99 µs', '99.5 µs', '100 µs', '100 µs', '999 µs', '1.00 ms', '1.00 ms', '1.00 ms', '9.99 ms', '10.0 ms', '10.0 ms', '10.0 ms']);
  // two significant figures below 100 µs, three from there on in every unit (123456 µs was "123.5 ms"),
  // each unit at both of its edges and each decade inside it
  const times = [
    [1.234, '1.2 µs'], [9.94, '9.9 µs'], [9.96, '10 µs'], [45.6, '46 µs'], [123.4, '123 µs'],
    [1234, '1.23 ms'], [12345, '12.3 ms'], [99949, '99.9 ms'], [99950, '100 ms'], [123456, '123 ms'], [999499, '999 ms'],
    [999500, '1.00 s'], [1234567, '1.23 s'], [9995000, '10.0 s'], [12345678, '12.3 s'], [123456789, '123 s'], [999499999, '999 s'],
    [999500000, '1000 s'], [1234567890, '1230 s'], // s is the last unit: it keeps counting
  ];
  for (const [us, want] of times) assert.equal(timeText(us), want, `${us} µs`);
});

test('a doubling is called the quadratic cost only when both forms grew by close to 4; otherwise the sentence says which did not and why', () => {
  const at = (long, fused, to = N_MAX) => doublingSentence({ from: to / 2, to, long, fused }, { causal: false });
  for (const [long, fused] of [[QUADRATIC_GROWTH, QUADRATIC_GROWTH], [3.9, 4.1], [4, 3.2]]) {
    assert.match(at(long, fused), /, close to 4 in both: the quadratic cost the lesson means\. Neither form escapes it/, `${long}, ${fused}`);
  }
  // the three runs (1.3 and 1.9, then 2.9, then 2.1): none is the n² cost
  for (const [long, fused, which] of [[1.3, 1.9, 'both'], [2.9, 3.5, 'the long form'], [3.6, 2.1, 'the fused form'], [3.1, 3.1, 'both']]) {
    const s = at(long, fused);
    assert.match(s, new RegExp(`: less than 4 in ${which}\\. At n = ${N_MAX} the work that grows only with n`), `${long}, ${fused}`);
    assert.doesNotMatch(s, /close to 4|Neither form escapes/);
    assert.match(s, /“Time every n again” measures anew\.$/, 'at the top of the sweep: nothing further to point to but a new measurement');
  }
  assert.match(at(1.3, 1.9, 64), /takes over as n grows, up to the 512 tokens of this sweep\.$/);
  assert.match(doublingSentence({ from: 8, to: 16, long: 4, fused: 4 }, { causal: true }), /\(and, with the causal mask, half the work\)\.$/);
});

test('counted in multiplications, the n × n part leads at the top of the sweep: a call there grows by close to 4 per doubling', () => {
  // by hand at WIDTH 16: n = 512 does 2·512²·16 = 8,388,608 for the scores and the mix and
  // 3·512·16² = 393,216 for the projections; n = 256 does 2,097,152 and 196,608
  if (WIDTH === 16) {
    assert.deepEqual(multiplications(512), { square: 8388608, linear: 393216, total: 8781824 });
    assert.equal((multiplications(512).total / multiplications(256).total).toFixed(2), '3.83');
    assert.equal(Math.round(100 * squareShare(512)), 96);
  }
  // the share grows with n, and the top of the sweep is where the n² term dominates
  for (let k = 1; k < SWEEP.length; k++) assert.ok(squareShare(SWEEP[k]) > squareShare(SWEEP[k - 1]));
  assert.ok(squareShare(N_MAX) >= 0.9, `at n = ${N_MAX} the n × n work is ${squareShare(N_MAX)} of a call`);
  assert.ok(multiplications(N_MAX).total / multiplications(N_MAX / 2).total >= 3.5);
  // and below it the projections still count: the doubling ratio is well under 4 at small n
  assert.ok(multiplications(16).total / multiplications(8).total < 3);
});
