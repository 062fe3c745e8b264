// labs-sqrtdk.test.mjs: the √dk lab's pure module (web/labs/sqrtdk.js), piece by piece: its URL
// state, the statistics it counts (mean, std, histogram, median, the gradient left for the other
// keys, the histogram's range), the scores it gets from the core (also past the core's width of
// 256, in chunks), and every sentence of its narrative for hand-made numbers, one branch at a time.
// Fast: the cores' runs here use a few queries and keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { fmt } from '../../web/blocks/format.js';
import {
  readState, writeState, defaultState, randomQK, meanStd, histogram, otherKeysGradient, niceCeil,
  computeSqrtDk, sweep, saturation, explainSqrtDk, SWEEP_DKS, MODE,
} from '../../web/labs/sqrtdk.js';

const attn = await loadAttention();
const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} against ${b}`);

// ---------------------------------------------------------------- URL state

test('√dk state: dk 1..512, n 2..256, row within n, seed 0..2³¹ − 1; row 0 is left out of the URL', () => {
  const read = (q) => readState(new URLSearchParams(q));
  assert.deepEqual(defaultState(), { dk: 64, n: 32, seed: 1, row: 0 });
  assert.deepEqual(read(''), { dk: 64, n: 32, seed: 1, row: 0 });
  assert.deepEqual(read('dk=300&n=4&seed=2147483647&row=3'), { dk: 300, n: 4, seed: 2147483647, row: 3 });
  assert.deepEqual(read('dk=0&n=300&seed=3000000000&row=999'), { dk: 1, n: 256, seed: 2147483647, row: 255 });
  assert.deepEqual(read('n=4&row=4&seed=-1'), { dk: 64, n: 4, seed: 0, row: 3 });
  assert.deepEqual(writeState({ dk: 8, n: 16, seed: 2, row: 0 }), { mode: MODE, dk: 8, n: 16, seed: 2 });
  assert.deepEqual(writeState({ dk: 8, n: 16, seed: 2, row: 5 }), { mode: 'sqrt-dk-lab', dk: 8, n: 16, seed: 2, row: 5 });
});

// ---------------------------------------------------------------- statistics counted in the page

test('meanStd: the mean and the population standard deviation', () => {
  assert.deepEqual(meanStd([1, 2, 3, 4]), { average: 2.5, std: Math.sqrt(1.25) });
  assert.deepEqual(meanStd([-1, 1]), { average: 0, std: 1 });
  assert.deepEqual(meanStd(Float32Array.of(5)), { average: 5, std: 0 });
  assert.deepEqual(meanStd([2, 2, 2, 10]), { average: 4, std: Math.sqrt(12) });
});

test('histogram: equal bins over [lo, hi], each bin holding its left edge, values outside in the end bins', () => {
  // bins of width 0.5 over [−1, 1]: [−1, −0.5), [−0.5, 0), [0, 0.5), [0.5, 1]
  const h = histogram([-1, -0.5, 0, 0.49, 0.5, 1, 2, -3], -1, 1, 4);
  assert.deepEqual(h, { lo: -1, hi: 1, bins: 4, width: 0.5, counts: [2, 1, 2, 3] });
  assert.deepEqual(histogram([3, 7, 9.99, 10, 0], 2, 10, 2).counts, [2, 3]);
  assert.deepEqual(histogram([0.1, 0.9], 0, 1, 1), { lo: 0, hi: 1, bins: 1, width: 1, counts: [2] });
  assert.deepEqual(histogram([], -4, 4, 3).counts, [0, 0, 0]);
});

test('otherKeysGradient: Σ a_j(1 − a_j) over every key but the top one, wherever the top one is', () => {
  assert.equal(otherKeysGradient([1, 0, 0]), 0, 'one-hot: no gradient left');
  near(otherKeysGradient([0.5, 0.3, 0.2]), 0.3 * 0.7 + 0.2 * 0.8, 1e-15, 'top first');
  near(otherKeysGradient([0.2, 0.5, 0.3]), 0.2 * 0.8 + 0.3 * 0.7, 1e-15, 'top in the middle');
  near(otherKeysGradient([0.1, 0.2, 0.7]), 0.1 * 0.9 + 0.2 * 0.8, 1e-15, 'top last');
  assert.equal(otherKeysGradient(Float32Array.of(0.5, 0.25, 0.25)), 0.375);
  assert.equal(otherKeysGradient([0.25, 0.25, 0.25, 0.25]), 3 * 0.1875, 'a tie: one of the tied keys is the top one');
  assert.equal(otherKeysGradient([0.5, 0.5]), 0.25);
});

test('niceCeil: the histogram range rounds up to 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 or 10 × a power of 10', () => {
  for (const [x, want] of [[1, 1], [1.2, 1.5], [2, 2], [2.01, 2.5], [2.6, 3], [3.5, 4], [4.5, 5], [5.5, 6], [7, 8], [8.5, 10], [10, 10],
    [30, 30], [31, 40], [250, 250], [599, 600], [0.07, 0.08], [0.9, 1], [0.15, 0.15]]) {
    near(niceCeil(x), want, want * 1e-12, `niceCeil(${x})`);
  }
  for (const x of [0, -5, NaN]) assert.equal(niceCeil(x), 1, `niceCeil(${x}): a range of ±1`);
});

// ---------------------------------------------------------------- the scores and rows from the core

/** q·k in float64 from the lab's own seeded Q and K [n, dk]. */
function dot(Q, K, dk, i, j) {
  let s = 0;
  for (let c = 0; c < dk; c++) s += Q[i * dk + c] * K[j * dk + c];
  return s;
}

test('√dk scores: raw = Q·Kᵀ and scaled = Q·Kᵀ/√dk, also past the core’s width of 256 (two chunks of columns added)', () => {
  for (const [dk, n, seed] of [[1, 2, 3], [4, 3, 1], [256, 3, 2], [257, 2, 5], [300, 3, 7], [512, 2, 1]]) {
    const { Q, K } = randomQK(dk, n, seed);
    const r = computeSqrtDk(attn, { dk, n, seed });
    assert.equal(r.raw.S.length, n * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const want = dot(Q, K, dk, i, j);
        near(r.raw.S[i * n + j], want, 1e-4 * Math.sqrt(dk), `dk ${dk}: raw S[${i}][${j}]`);
        near(r.scaled.S[i * n + j], want / Math.sqrt(dk), 1e-4, `dk ${dk}: scaled S[${i}][${j}]`);
      }
    }
  }
});

test('√dk rows: each row’s softmax and statistics, their means, medians (odd and even n) and one-hot count', () => {
  for (const [dk, n, seed] of [[64, 3, 1], [64, 4, 2], [512, 5, 3], [16, 6, 4]]) {
    const r = computeSqrtDk(attn, { dk, n, seed });
    assert.equal(r.dk, dk);
    assert.equal(r.n, n);
    assert.equal(r.seed, seed);
    assert.equal(r.sqrtDk, Math.sqrt(dk));
    assert.equal(r.samples, n * n);
    assert.equal(r.maxEntropy, Math.log(n));
    assert.equal(r.uniformGradNorm, Math.sqrt(n - 1) / n);
    for (const side of [r.raw, r.scaled]) {
      assert.equal(side.weights.length, n);
      assert.equal(side.stats.length, n);
      for (let i = 0; i < n; i++) {
        const a = side.weights[i], S = side.S.subarray(i * n, (i + 1) * n);
        near(a.reduce((t, x) => t + x, 0), 1, 1e-5, 'a row of weights sums to 1');
        assert.equal(a.indexOf(Math.max(...a)), S.indexOf(Math.max(...S)), 'the largest weight is at the largest score');
        const st = side.stats[i];
        assert.equal(st.maxWeight, Math.max(...a));
        assert.equal(st.others, otherKeysGradient(a));
        near(st.entropy, -a.reduce((t, x) => t + (x > 0 ? x * Math.log(x) : 0), 0), 1e-5, 'entropy in nats');
      }
      const mean = (key) => side.stats.reduce((t, s) => t + s[key], 0) / n;
      assert.deepEqual(side.mean, { maxWeight: mean('maxWeight'), entropy: mean('entropy'), gradNorm: mean('gradNorm') });
      const med = (key) => {
        const g = side.stats.map((s) => s[key]).sort((p, q) => p - q);
        return n % 2 === 1 ? g[(n - 1) / 2] : (g[n / 2 - 1] + g[n / 2]) / 2;
      };
      assert.equal(side.medianGradNorm, med('gradNorm'));
      assert.equal(side.medianOthers, med('others'));
      assert.equal(side.oneHot, side.stats.filter((s) => s.maxWeight > 0.9).length);
      const { average, std } = meanStd(side.S);
      assert.equal(side.average, average);
      assert.equal(side.std, std);
    }
    // One range for both histograms: the larger of the raw and scaled scores' largest |score|, rounded up.
    let top = 0;
    for (const x of [...r.raw.S, ...r.scaled.S]) top = Math.max(top, Math.abs(x));
    assert.equal(r.raw.hist.hi, niceCeil(top));
    assert.ok(r.raw.hist.hi >= top && r.raw.hist.hi < 1.5 * top, `range ${r.raw.hist.hi} for a largest |score| of ${top}`);
    assert.equal(r.raw.hist.lo, -r.raw.hist.hi);
    assert.deepEqual([r.scaled.hist.lo, r.scaled.hist.hi, r.raw.hist.bins], [r.raw.hist.lo, r.raw.hist.hi, 31]);
    assert.equal(r.raw.hist.counts.reduce((t, c) => t + c, 0), n * n);
  }
  // A median of an even count is the mean of the two middle values: pinned on a case where they differ.
  const r4 = computeSqrtDk(attn, { dk: 64, n: 4, seed: 2 });
  const g = r4.raw.stats.map((s) => s.gradNorm).sort((p, q) => p - q);
  assert.ok(g[1] !== g[2] && r4.raw.medianGradNorm > g[1] && r4.raw.medianGradNorm < g[2]);
  assert.equal(computeSqrtDk(attn, { dk: 4, n: 3, seed: 1 }, { bins: 5 }).raw.hist.counts.length, 5);
});

test('√dk at dk = 512, n = 8: most unscaled rows are one-hot (largest weight above 0.9), no scaled row is', () => {
  const r = computeSqrtDk(attn, { dk: 512, n: 8, seed: 1 });
  assert.ok(r.raw.oneHot >= 5, `${r.raw.oneHot} of 8`);
  assert.equal(r.scaled.oneHot, 0);
  assert.ok(r.raw.mean.maxWeight > 0.9 && r.scaled.mean.maxWeight < 0.6);
  assert.ok(r.raw.medianOthers < r.scaled.medianOthers / 10);
});

test('√dk sweep: one line per width with the means, medians and one-hot counts of computeSqrtDk', () => {
  const n = 4, seed = 3;
  const sw = sweep(attn, { n, seed });
  assert.deepEqual(sw.map((x) => x.dk), SWEEP_DKS);
  assert.deepEqual(SWEEP_DKS, [1, 4, 16, 64, 256, 512]);
  const two = sweep(attn, { n, seed }, [1, 300]);
  assert.deepEqual(two.map((x) => x.dk), [1, 300]);
  for (const x of [...sw, ...two]) {
    const r = computeSqrtDk(attn, { dk: x.dk, n, seed });
    const side = (s) => ({ ...s.mean, median: s.medianGradNorm, others: s.medianOthers, oneHot: s.oneHot });
    assert.deepEqual(x, { dk: x.dk, raw: side(r.raw), scaled: side(r.scaled), rawStd: r.raw.std, scaledStd: r.scaled.std });
  }
  assert.deepEqual(sw[0].raw, sw[0].scaled, 'dk = 1: √dk = 1, scaling changes nothing');
});

// ---------------------------------------------------------------- saturation

test('saturation: compared on the shown digits; at least as large → not-yet, below → starting, below a tenth → bites', () => {
  for (const [raw, scaled, want] of [
    [0.33, 0.172, 'not-yet'], [0.2, 0.2, 'not-yet'], [0.3304, 0.3296, 'not-yet'], // equal on the shown digits: 0.330
    [0.171, 0.172, 'starting'], [0.3, 0.5, 'starting'], [0.1, 0.5, 'starting'],
    [0.05, 0.5, 'starting'], // exactly a tenth is not below a tenth
    [0.049, 0.5, 'bites'], [0, 0.2, 'bites'], [0.006, 0.177, 'bites'],
    [0.0496, 0.4999, 'starting'], // shown 0.050 and 0.500: a tenth on the page, though 0.0496 < 0.04999
  ]) assert.equal(saturation(raw, scaled, fmt), want, `${raw} against ${scaled}`);
});

// ---------------------------------------------------------------- the narrative, for hand-made numbers

const side = (std, oneHot, maxWeight, medianGradNorm, medianOthers) => ({ std, oneHot, mean: { maxWeight }, medianGradNorm, medianOthers });
const lab = (dk, n, raw, scaled) => ({ dk, n, sqrtDk: Math.sqrt(dk), uniformGradNorm: Math.sqrt(n - 1) / n, raw, scaled });
const line = (dk, raw, scaled) => ({ dk, raw, scaled });
const cell = (maxWeight, median, others, oneHot = 0) => ({ maxWeight, median, others, oneHot });

// n = 8: flat at dk 1, peaked at 4, starting at 16, biting at 64 and 256; largest weight rising, gradient falling.
const SW1 = [
  line(1, cell(0.4, 0.3, 0.9), cell(0.4, 0.3, 0.9)),
  line(4, cell(0.5, 0.32, 0.7), cell(0.35, 0.25, 0.85)),
  line(16, cell(0.7, 0.2, 0.4, 1), cell(0.36, 0.25, 0.8)),
  line(64, cell(0.9, 0.02, 0.1, 5), cell(0.37, 0.24, 0.82)),
  line(256, cell(0.95, 0.01, 0.05, 7), cell(0.38, 0.26, 0.83)),
];
const SW1_TEXT = 'In the table (n = 8): without scaling the mean largest weight grows with every width, from 0.400 at dk = 1 to 0.950 at dk = 256; '
  + 'at dk = 4 the unscaled median ‖J‖_F is at least the scaled one (0.320 against 0.250): the rows are peaked, not yet saturated; '
  + 'at dk = 16 the unscaled median ‖J‖_F is smaller than the scaled one (0.200 against 0.250); '
  + 'at dk = 64 and 256 saturation bites: below a tenth of the scaled one (0.020 against 0.240 and 0.010 against 0.260), with 5 of 8 and 7 of 8 rows nearly one-hot. '
  + 'Without scaling, the gradient left for the other keys falls with every width, from 0.900 at dk = 1 to 0.050 at dk = 256; with scaling it stays between 0.800 and 0.900.';

test('√dk narrative: every sentence at dk = 16, n = 8, where the unscaled rows are peaked but ‖J‖_F is larger', () => {
  const r = lab(16, 8, side(4.1, 1, 0.62, 0.35, 0.3), side(1.02, 0, 0.31, 0.2, 0.6));
  assert.deepEqual(explainSqrtDk(r, SW1, fmt), [
    'At dk = 16 the raw scores have a standard deviation of 4.100 (√dk = √16 = 4.000); dividing by √dk brings it to 1.020.',
    'Without scaling, 1 of 8 rows is nearly one-hot (largest weight above 0.9) and the mean largest weight is 0.620; with scaling, 0 and 0.310.',
    '‖J‖_F is the Frobenius norm of the softmax’s Jacobian J = diag(a) − a·aᵀ, the square root of the sum of its squared entries: how much the weights can change when the scores do. '
      + 'It is 0 only when the largest weight is 1, 0.500 for a row split evenly between two keys, and √(n − 1)/n = 0.331 for a row spread evenly over all 8 keys, so a soft row over many keys has a small ‖J‖_F too.',
    'At dk = 16 the unscaled rows are more peaked but mostly not one-hot (1 of 8), and their median ‖J‖_F (0.350) is larger than the scaled rows’ (0.200): saturation has not taken the gradient away yet.',
    'What falls steadily as rows saturate is the gradient left for the other keys: the sum over every key but the top one of a_j(1 − a_j), how much each of their weights moves when its own score does (at most 1 − the largest weight). '
      + 'Its median is 0.300 without scaling and 0.600 with.',
    SW1_TEXT,
  ]);
});

test('√dk narrative: the one-hot count agrees with 1 and n, and “mostly not one-hot” only below half of the rows', () => {
  const at = (oneHot, n, jr = 0.35, js = 0.2) => explainSqrtDk(lab(16, n, side(4, oneHot, 0.7, jr, 0.3), side(1, 0, 0.3, js, 0.6)), SW1, fmt);
  assert.match(at(2, 8)[1], /^Without scaling, 2 of 8 rows are nearly one-hot/);
  assert.match(at(0, 8)[1], /^Without scaling, 0 of 8 rows are nearly one-hot .*; with scaling, 0 and 0\.300\.$/);
  assert.equal(at(3, 8)[3].split(',')[0], 'At dk = 16 the unscaled rows are more peaked but mostly not one-hot (3 of 8)');
  assert.equal(at(4, 8)[3].split(',')[0], 'At dk = 16 the unscaled rows are more peaked (4 of 8 nearly one-hot)', 'half is not “mostly not”');
  assert.equal(at(5, 8)[3].split(',')[0], 'At dk = 16 the unscaled rows are more peaked (5 of 8 nearly one-hot)');
  assert.equal(at(1, 2)[3].split(',')[0], 'At dk = 16 the unscaled rows are more peaked (1 of 2 nearly one-hot)');
  assert.equal(at(1, 3)[3].split(',')[0], 'At dk = 16 the unscaled rows are more peaked but mostly not one-hot (1 of 3)');
  assert.match(at(1, 8, 0.2003, 0.1996)[3], /their median ‖J‖_F \(0\.200\) is the same as the scaled rows’ \(0\.200\): saturation has not taken/);
  assert.match(at(1, 8, 0.25, 0.2)[3], /their median ‖J‖_F \(0\.250\) is larger than the scaled rows’ \(0\.200\)/);
});

test('√dk narrative: dk = 1 (nothing changes), saturation starting, and saturation biting', () => {
  const one = explainSqrtDk(lab(1, 4, side(0.9, 0, 0.5, 0.41, 0.5), side(0.9, 0, 0.5, 0.41, 0.5)), SW1, fmt);
  assert.equal(one[0], 'At dk = 1 the raw scores have a standard deviation of 0.900 (√dk = √1 = 1.000); dividing by √dk brings it to 0.900.');
  assert.equal(one[3], 'At dk = 1, √dk = 1: scaling changes nothing, and both medians of ‖J‖_F are 0.410.');
  assert.equal(one.length, 6);
  const starting = explainSqrtDk(lab(32, 8, side(5.7, 2, 0.7, 0.15, 0.2), side(1, 0, 0.3, 0.2, 0.6)), SW1, fmt);
  assert.equal(starting[3], 'At dk = 32 the median unscaled ‖J‖_F is 0.150, below the scaled rows’ 0.200: saturation is starting to take the gradient away.');
  const bites = explainSqrtDk(lab(256, 64, side(16, 50, 0.95, 0.006, 0.01), side(1, 0, 0.2, 0.177, 0.7)), SW1, fmt);
  assert.equal(bites[1], 'Without scaling, 50 of 64 rows are nearly one-hot (largest weight above 0.9) and the mean largest weight is 0.950; with scaling, 0 and 0.200.');
  assert.equal(bites[3], 'At dk = 256 the median unscaled row is so close to one-hot that its ‖J‖_F is 0.006, against 0.177 with scaling: the gradient through the softmax has all but vanished.');
  assert.match(bites[2], /√\(n − 1\)\/n = 0\.124 for a row spread evenly over all 64 keys/);
});

test('√dk table sentence: widths where saturation has not bitten, a largest weight that does not rise at every width, ties on the shown digits', () => {
  const flat = [
    line(1, cell(0.4, 0.3, 0.9), cell(0.4, 0.3, 0.9)),
    line(4, cell(0.6, 0.35, 0.7), cell(0.3, 0.3, 0.88)),
    line(16, cell(0.55, 0.36, 0.75), cell(0.31, 0.31, 0.87)),
  ];
  const r = lab(16, 8, side(4, 0, 0.55, 0.36, 0.75), side(1, 0, 0.31, 0.31, 0.87));
  assert.equal(explainSqrtDk(r, flat, fmt)[5], 'In the table (n = 8): without scaling the mean largest weight grows, from 0.400 at dk = 1 to 0.550 at dk = 16; '
    + 'at dk = 4 and 16 the unscaled median ‖J‖_F is at least the scaled one (0.350 against 0.300 and 0.360 against 0.310): the rows are peaked, not yet saturated; '
    + 'at none of these widths does the unscaled median fall below a tenth of the scaled one. '
    + 'Without scaling, the gradient left for the other keys falls, from 0.900 at dk = 1 to 0.750 at dk = 16; with scaling it stays between 0.870 and 0.900.');
  // Equal on the shown digits is equal (0.6004 and 0.5996 both show 0.600): it stays, it does not grow.
  const ties = [
    line(1, cell(0.6004, 0.4, 0.3996), cell(0.6004, 0.4, 0.4)),
    line(4, cell(0.5996, 0.4, 0.4004), cell(0.3, 0.4, 0.45)),
  ];
  assert.equal(explainSqrtDk(lab(4, 2, side(2, 0, 0.6, 0.4, 0.4), side(1, 0, 0.3, 0.4, 0.45)), ties, fmt)[5],
    'In the table (n = 2): without scaling the mean largest weight stays at 0.600 from dk = 1 to dk = 4; '
    + 'at dk = 4 the unscaled median ‖J‖_F is at least the scaled one (0.400 against 0.400): the rows are peaked, not yet saturated; '
    + 'at none of these widths does the unscaled median fall below a tenth of the scaled one. '
    + 'Without scaling, the gradient left for the other keys stays at 0.400 from dk = 1 to dk = 4; with scaling it stays between 0.400 and 0.450.');
  // Only saturation starting, then only biting.
  const start = [line(1, cell(0.4, 0.3, 0.9), cell(0.4, 0.3, 0.9)), line(64, cell(0.8, 0.1, 0.3, 3), cell(0.3, 0.2, 0.8))];
  assert.match(explainSqrtDk(r, start, fmt)[5], /from 0\.400 at dk = 1 to 0\.800 at dk = 64; at dk = 64 the unscaled median ‖J‖_F is smaller than the scaled one \(0\.100 against 0\.200\); at none of these widths does the unscaled median fall below a tenth of the scaled one\. /);
  const bite = [line(1, cell(0.4, 0.3, 0.9), cell(0.4, 0.3, 0.9)), line(512, cell(0.97, 0.004, 0.01, 2), cell(0.3, 0.2, 0.8))];
  assert.match(explainSqrtDk(r, bite, fmt)[5], /from 0\.400 at dk = 1 to 0\.970 at dk = 512; at dk = 512 saturation bites: below a tenth of the scaled one \(0\.004 against 0\.200\), with 2 of 8 rows nearly one-hot\. Without scaling, the gradient left for the other keys falls with every width, from 0\.900 at dk = 1 to 0\.010 at dk = 512; with scaling it stays between 0\.800 and 0\.900\.$/);
});

test('√dk table sentence: a column that grows, stays, shrinks, or comes back, said from its first and last shown values', () => {
  const r = lab(16, 8, side(4, 0, 0.55, 0.36, 0.75), side(1, 0, 0.31, 0.31, 0.87));
  // the mean largest weight (first) and the gradient left for the other keys (third) of each width
  const table = (weights, others) => weights.map((w, k) => line(4 ** k, cell(w, 0.3, others[k]), cell(0.3, 0.25, 0.8)));
  const say = (weights, others) => {
    const s = explainSqrtDk(r, table(weights, others), fmt)[5];
    return [/largest weight (.*?); at /.exec(s)[1], /other keys (.*?); with scaling/.exec(s)[1]];
  };
  assert.deepEqual(say([0.4, 0.6, 0.9], [0.9, 0.5, 0.1]), ['grows with every width, from 0.400 at dk = 1 to 0.900 at dk = 16', 'falls with every width, from 0.900 at dk = 1 to 0.100 at dk = 16']);
  assert.deepEqual(say([0.4, 0.4, 0.9], [0.9, 0.9, 0.1]), ['grows, from 0.400 at dk = 1 to 0.900 at dk = 16', 'falls, from 0.900 at dk = 1 to 0.100 at dk = 16'], 'a step that stays is not “every width”');
  assert.deepEqual(say([0.5, 0.5, 0.5], [0.3, 0.3, 0.3]), ['stays at 0.500 from dk = 1 to dk = 16', 'stays at 0.300 from dk = 1 to dk = 16']);
  assert.deepEqual(say([0.9, 0.6, 0.4], [0.1, 0.5, 0.9]), ['shrinks with every width, from 0.900 at dk = 1 to 0.400 at dk = 16', 'rises with every width, from 0.100 at dk = 1 to 0.900 at dk = 16']);
  assert.deepEqual(say([0.9, 0.95, 0.4], [0.1, 0.05, 0.9]), ['shrinks, from 0.900 at dk = 1 to 0.400 at dk = 16', 'rises, from 0.100 at dk = 1 to 0.900 at dk = 16']);
  assert.deepEqual(say([0.5, 0.7, 0.5], [0.3, 0.1, 0.3]), ['is 0.500 at dk = 1 and again at dk = 16', 'is 0.300 at dk = 1 and again at dk = 16'], 'back where it started');
  assert.deepEqual(say([0.5], [0.3]), ['is 0.500 at dk = 1', 'is 0.300 at dk = 1'], 'one width');
});

test('√dk narrative from the core at n = 8: the sentences quote the lab’s own numbers', () => {
  const n = 8, seed = 2, sw = sweep(attn, { n, seed });
  const r = computeSqrtDk(attn, { dk: 64, n, seed });
  const text = explainSqrtDk(r, sw, fmt);
  assert.equal(text.length, 6);
  assert.equal(text[0], `At dk = 64 the raw scores have a standard deviation of ${fmt(r.raw.std)} (√dk = √64 = 8.000); dividing by √dk brings it to ${fmt(r.scaled.std)}.`);
  assert.ok(Math.abs(r.raw.std / r.scaled.std - 8) < 1e-3, 'scaling divides every score by exactly √dk = 8');
  assert.match(text[5], /^In the table \(n = 8\): without scaling the mean largest weight grows(?: with every width)?, from 0\.\d{3} at dk = 1 to 0\.\d{3} at dk = 512; /);
});
