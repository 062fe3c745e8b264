// Node tests of the fused-form lab's pure module (web/labs/fused.js): the bytes each form needs
// (n² against n), that their O agree, the timing arithmetic (with a fake clock: speed itself is
// never asserted), the log–log plot's geometry and the sentences. Deterministic.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../web/attention.js';
import {
  MODE, SWEEP, BLOCK, N_MIN, N_MAX, readState, writeState, defaultState, headArgs, compareForms, timePerCall, timeForms,
  plotGeometry, growth, explainFused, bytesText, timeText,
} from '../web/labs/fused.js';
import { LABS, labOf, queryOf } from '../web/labs/index.js';
import { referenceHead, compare } from './reference.mjs';

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
  const s = { n: 300, causal: false, seed: 7 };
  assert.deepEqual(readState(new URLSearchParams(queryOf(writeState(s)))), s);
  assert.equal(queryOf(writeState(defaultState())), '?mode=fused-lab&n=128&causal=1');
  assert.equal(labOf(MODE).title, 'Fused form and n²');
  assert.ok(LABS.some((l) => l.mode === MODE));
});

test('the long form needs 3 × n² floats for S, M and A; the fused form none, only a block of 4 × n scores', () => {
  for (const n of [8, 100, 256, 512]) {
    for (const causal of [true, false]) {
      const c = compareForms(attn, { n, causal, seed: 1 });
      assert.equal(c.scores, n * n);
      assert.equal(c.long.square, 3 * n * n * 4, `n ${n}: S, M and A`);
      assert.equal(c.fused.square, 0, `n ${n}: the fused form has no n × n buffer`);
      assert.equal(c.fused.block, BLOCK * n * 4);
      // from n = 64 on the fused form needs less in all (below, its packed Kᵀ and V outweigh S, M and A)
      if (n >= 64) assert.ok(c.fused.total < c.long.total, `n ${n}: fused ${c.fused.total} < long ${c.long.total}`);
    }
  }
  // doubling n: the long form's n × n part quadruples, the fused form's whole workspace about
  // doubles (all of it grows like n but the weights, 3 × 64 × 64 floats)
  const a = compareForms(attn, { n: 256, causal: true, seed: 1 }), b = compareForms(attn, { n: 512, causal: true, seed: 1 });
  assert.equal(b.long.square / a.long.square, 4);
  const weights = 3 * 64 * 64 * 4;
  assert.equal((b.fused.total - weights) / (a.fused.total - weights), 2);
});

test('both forms give the same O (to the last bit), and it matches the float64 reference', () => {
  for (const [n, causal] of [[8, true], [37, false], [128, true]]) {
    const c = compareForms(attn, { n, causal, seed: 3 });
    assert.equal(c.identical, true, `n ${n}`);
    assert.equal(c.maxDiff, 0);
    assert.equal(c.outputs, n * 64);
    const args = headArgs(n, { causal, seed: 3 });
    const nested = (m) => Array.from({ length: m.shape[0] }, (_, i) => Array.from(m.data.subarray(i * m.shape[1], (i + 1) * m.shape[1])));
    const ref = referenceHead({ X: nested(args.X), Wq: nested(args.Wq), Wk: nested(args.Wk), Wv: nested(args.Wv), causal });
    const fused = attn.forward(args, { outputs: ['O'] });
    assert.ok(compare(fused.O, ref.O).ok, `n ${n}: ${compare(fused.O, ref.O).worst}`);
  }
  // the same tokens at every n: n = 8 is the first 8 rows of n = 512
  assert.deepEqual(Array.from(headArgs(8, { seed: 1 }).X.data), Array.from(headArgs(512, { seed: 1 }).X.data.subarray(0, 8 * 64)));
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
  assert.match(all, /64 blocks of 4 queries, keeping one block’s 4 × 256 scores \(4\.0 KiB\)/);
  assert.match(all, /the largest difference between their 16,384 outputs is 0/);
  assert.match(all, /one call took 660 µs in the long form and 397 µs in the fused form, 1\.7 times faster/);
  assert.match(all, /Doubling n from 256 to 512 multiplies the scores by 4 \(65,536 → 262,144\) and the time of a call by 4\.0 in the long form and 4\.0 in the fused form/);
  assert.match(all, /S alone would take 4\.0 GiB for one head; one block of the fused form takes 512 KiB/);
  assert.doesNotMatch(all, /noise/);
  // no causal mask: nothing about skipping
  assert.doesNotMatch(explainFused(c, t, points, { n: 256, causal: false }).join(' '), /causal/);
  // n = 8: two blocks, said in the plural; one block is never "1 blocks"
  assert.match(explainFused(compareForms(attn, { n: 8, causal: true, seed: 1 }), null, [], { n: 8, causal: true })[0], /through 2 blocks of 4 queries/);
  // a time that falls as n doubles is noise, and said so
  const noisy = points.map((p) => (p.n === 64 ? { ...p, long: 1e4 } : p));
  assert.match(explainFused(c, t, noisy, { n: 256, causal: true }).join(' '), /The times fell as n doubled from 64 to 128, which only noise explains/);
  // units
  assert.deepEqual([bytesText(96), bytesText(1), bytesText(2048), bytesText(196608), bytesText(3 * 1024 ** 2)], ['96 bytes', '1 byte', '2.0 KiB', '192 KiB', '3.0 MiB']);
  assert.deepEqual([timeText(1.234), timeText(45.6), timeText(450), timeText(2310), timeText(12345), timeText(NaN)], ['1.2 µs', '46 µs', '450 µs', '2.31 ms', '12.3 ms', '—']);
});
