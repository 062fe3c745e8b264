// fused.js: the long form against the fused form, pure (no DOM). Lesson: "Use the fused function in
// practice: torch.nn.functional.scaled_dot_product_attention computes the same result with
// optimised kernels that avoid storing the full n × n matrix" and "Quadratic cost. Doubling the
// sequence length quadruples the scores."
//
// One seeded head, d = dk = dv = WIDTH (16), n tokens, run by the core both ways:
//   long form   forward(args, { into })            stores S, M and A, n × n each, and O
//   fused form  forward(args, { outputs: ['O'] })  a block of 4 queries against a tile of keys at
//                                                  a time, with an online softmax (FlashAttention's), only O
// The bytes each needs come from the core (attn.workspace()), the times from the clock the
// caller gives (performance.now on the page, a fake one in the tests), and the two O are compared.

import { intParam, mulberry32, normals } from './random.js';
import { count, bytesText, grouped } from '../blocks/words.js';

export { bytesText }; // (the labs' one way to say bytes: blocks/words.js)
import { TILE_KEYS } from '../gen/wasm-exports.js';

export const MODE = 'fused-lab';
// d = dk = dv = WIDTH. Narrow enough that the n × n work leads within the sweep: at n = 512 the
// scores and the mix are 96% of a call's multiplications (at 64 they were 84%), so the time of a
// doubling near the top can show the growth by close to 4 the lesson means.
export const N_MIN = 8, N_MAX = 512, WIDTH = 16;
export const SWEEP = [8, 16, 32, 64, 128, 256, 512];
/** A time that grows by this much or more when n doubles is "close to 4": the n² part leads. */
export const QUADRATIC_GROWTH = 3.2;
export const BLOCK = 4; // queries per block in the fused form (c/attention.c, TR)
export const TILE = TILE_KEYS; // keys per tile in the fused form (c/attention.h ATTN_TILE_KEYS)

/**
 * The scores the fused form computes at n, as the core goes: blocks of BLOCK queries (the last
 * n % BLOCK one at a time), each against the keys its last row sees (all n without the causal
 * mask: then nothing is skipped).
 * @param {number} n @param {boolean} causal
 */
export function fusedScores(n, causal) {
  let scores = 0;
  for (let i = 0; i < n;) {
    const rows = n - i >= BLOCK ? BLOCK : 1;
    scores += rows * (causal ? Math.min(i + rows, n) : n);
    i += rows;
  }
  return scores;
}

/** @typedef {{ n: number, causal: boolean, seed: number }} FusedState */
/** @typedef {{ n: number, long: number, fused: number }} Timing µs per call of each form at n */
/** @typedef {import('../../types/attention').Attention} Attention */

/** @returns {FusedState} */
export function defaultState() {
  return { n: 128, causal: true, seed: 1 };
}

/** @param {URLSearchParams} params @returns {FusedState} */
export function readState(params) {
  const d = defaultState();
  return { n: intParam(params, 'n', N_MIN, N_MAX, d.n), causal: params.get('causal') !== '0', seed: intParam(params, 'seed', 0, 2 ** 31 - 1, d.seed) };
}

/** @param {FusedState} s */
export function writeState(s) {
  return { mode: MODE, n: s.n, causal: s.causal ? 1 : 0, ...(s.seed !== 1 ? { seed: s.seed } : {}) };
}

/**
 * The head's inputs for n tokens: seeded X [n, WIDTH] and weights [WIDTH, WIDTH] of standard deviation 1/√WIDTH.
 * @param {number} n @param {{ causal: boolean, seed: number }} s
 */
export function headArgs(n, { causal, seed }) {
  const rand = mulberry32(seed);
  const matrix = (/** @type {number} */ rows, /** @type {number} */ scale) => {
    return { shape: /** @type {[number, number]} */ ([rows, WIDTH]), data: normals(rand, rows * WIDTH).map((v) => v * scale) };
  };
  const X = matrix(N_MAX, 1); // the same tokens at every n: n = 8 is the first 8 of n = 512
  X.shape = [n, WIDTH];
  X.data = X.data.subarray(0, n * WIDTH);
  const w = 1 / Math.sqrt(WIDTH);
  return { X, Wq: matrix(WIDTH, w), Wk: matrix(WIDTH, w), Wv: matrix(WIDTH, w), causal };
}

/**
 * Both forms once at the state's n: their O, how much they differ, and the bytes of working
 * memory the core laid out for each (attn.workspace()).
 * @param {Attention} attn @param {FusedState} state
 */
export function compareForms(attn, state) {
  const args = headArgs(state.n, state);
  const long = attn.forward(args);
  const longSpace = attn.workspace();
  const fused = attn.forward(args, { outputs: ['O'] });
  const fusedSpace = attn.workspace();
  let maxDiff = 0, identical = true;
  for (let k = 0; k < long.O.length; k++) {
    maxDiff = Math.max(maxDiff, Math.abs(long.O[k] - fused.O[k]));
    if (!Object.is(long.O[k], fused.O[k])) identical = false;
  }
  const b = (/** @type {ReturnType<Attention['workspace']>} */ space) => space.buffers.S + space.buffers.M + space.buffers.A;
  const n = state.n;
  return {
    n, scores: n * n, outputs: long.O.length, maxDiff, identical,
    long: { total: longSpace.total, square: b(longSpace) },
    fused: { total: fusedSpace.total, square: b(fusedSpace), tile: BLOCK * Math.min(n, TILE) * 4, computed: fusedScores(n, state.causal) },
  };
}

/**
 * µs per call of fn: `runs` runs of about budgetMs / runs each, calls doubling until the run is
 * long enough to time with a coarse clock; the fastest run counts (a pause by the garbage
 * collector or another tab only slows a run down).
 * @param {() => unknown} fn @param {() => number} now @param {{ budgetMs?: number, runs?: number }} [o]
 */
export function timePerCall(fn, now, { budgetMs = 15, runs = 3 } = {}) {
  fn(); // the first call may lay out memory
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    let calls = 0, batch = 1;
    const t0 = now();
    let t = t0;
    for (;;) {
      for (let i = 0; i < batch; i++) fn();
      calls += batch;
      t = now();
      if (t - t0 >= budgetMs / runs || calls >= 1 << 20) break;
      batch = Math.min(batch * 2, 1 << 16);
    }
    best = Math.min(best, ((t - t0) * 1000) / calls);
  }
  return best;
}

/**
 * The time per call of both forms at n (the long form refilling one result with into).
 * @param {Attention} attn @param {{ causal: boolean, seed: number }} state @param {number} n
 * @param {() => number} now @param {{ budgetMs?: number, runs?: number }} [options] @returns {Timing}
 */
export function timeForms(attn, state, n, now, options) {
  const args = headArgs(n, state);
  let kept = attn.forward(args);
  return {
    n,
    long: timePerCall(() => { kept = attn.forward(args, { into: kept }); }, now, options),
    fused: timePerCall(() => attn.forward(args, { outputs: ['O'] }), now, options),
  };
}

// ---------------------------------------------------------------- the plot: time against n, log axes

const log2 = Math.log2, log10 = Math.log10;

/** @param {number} us */
function timeLabel(us) {
  if (us >= 1000) return `${us / 1000} ms`;
  return `${us} µs`;
}

/**
 * Geometry of the plot, in SVG units: x = log₂ n from N_MIN to N_MAX, y = log₁₀ time with a
 * decade per tick. points: [{ n, long, fused }] (µs; missing ones are skipped). The n² line goes
 * through the long form's time at the largest n measured: t(n) = t(n_max) · (n / n_max)².
 * @param {Timing[]} points @param {{ width?: number, height?: number, current?: number | null }} [o]
 */
export function plotGeometry(points, { width = 480, height = 260, current = null } = {}) {
  const pad = { left: 54, right: 12, top: 10, bottom: 34 };
  const done = points.filter((p) => p.long > 0 && p.fused > 0).sort((a, b) => a.n - b.n);
  const anchor = done.length ? done[done.length - 1] : null;
  const square = anchor ? [N_MIN, N_MAX].map((n) => ({ n, t: anchor.long * (n / anchor.n) ** 2 })) : [];
  const times = [...done.flatMap((p) => [p.long, p.fused]), ...square.map((s) => s.t)];
  const lo = times.length ? Math.floor(log10(Math.min(...times))) : 0;
  // the n² line alone spans 512² / 8² = 4096 times, so there are always several decades
  const hi = times.length ? Math.ceil(log10(Math.max(...times))) : 3;
  const x = (/** @type {number} */ n) => pad.left + ((log2(n) - log2(N_MIN)) / (log2(N_MAX) - log2(N_MIN))) * (width - pad.left - pad.right);
  const y = (/** @type {number} */ t) => height - pad.bottom - ((log10(t) - lo) / (hi - lo)) * (height - pad.top - pad.bottom);
  const xy = (/** @type {number} */ n, /** @type {number} */ t) => [+x(n).toFixed(2), +y(t).toFixed(2)];
  const yTicks = [];
  for (let e = lo; e <= hi; e++) yTicks.push({ y: +y(10 ** e).toFixed(2), label: timeLabel(Number((10 ** e).toPrecision(1))) }); // 1e-4, not 0.00009999…
  return {
    width, height, pad,
    xTicks: SWEEP.map((n) => ({ x: +x(n).toFixed(2), label: String(n) })),
    yTicks,
    long: done.map((p) => xy(p.n, p.long)),
    fused: done.map((p) => xy(p.n, p.fused)),
    square: square.map((s) => xy(s.n, s.t)),
    marker: current == null ? null : +x(current).toFixed(2),
  };
}

// ---------------------------------------------------------------- words

const TIME_UNITS = ['µs', 'ms', 's'];

/**
 * µs -> "3.2 µs", "46 µs", "450 µs", "2.31 ms", "12.3 ms", "123 ms", "1.23 s": two significant
 * figures below 100 µs, three from there on, in whichever unit keeps the number under 1000. A
 * value is rounded first and its unit chosen after, so one that rounds up to the next unit is
 * said in it (999.5 µs is "1.00 ms", not "1.00e+3 µs"; 99.97 µs is "100 µs").
 * @param {number} us
 */
export function timeText(us) {
  if (!(us > 0)) return '—';
  const figures = us < 99.5 ? 2 : 3;
  let e = Math.floor(Math.log10(us)) - figures + 1; // us ≈ r × 10^e, r a whole number of `figures` digits
  let r = Math.round(us / 10 ** e);
  if (r >= 10 ** figures) (r = Math.round(r / 10)), e++; // the rounding carried (999.5 -> 1000)
  const k = Math.min(TIME_UNITS.length - 1, Math.max(0, Math.floor((e + figures - 1) / 3))); // 1000^k µs holds the first digit
  const decimals = 3 * k - e;
  return `${decimals > 0 ? (r / 10 ** decimals).toFixed(decimals) : String(r * 10 ** -decimals)} ${TIME_UNITS[k]}`;
}


/** How much longer a call got from one n to the next power of two, for each pair measured. @param {Timing[]} points */
export function growth(points) {
  const done = points.filter((p) => p.long > 0 && p.fused > 0).sort((a, b) => a.n - b.n);
  const out = [];
  for (let k = 1; k < done.length; k++) {
    const a = done[k - 1], b = done[k];
    if (b.n !== 2 * a.n) continue;
    out.push({ from: a.n, to: b.n, long: b.long / a.long, fused: b.fused / a.fused });
  }
  return out;
}

/**
 * The multiplications of one call at n tokens: 2·n²·WIDTH for the scores Q·Kᵀ and the mix A·V
 * (the n × n part), 3·n·WIDTH² for the projections (the part that grows only with n).
 * @param {number} n @returns {{ square: number, linear: number, total: number }}
 */
export function multiplications(n) {
  const square = 2 * n * n * WIDTH, linear = 3 * n * WIDTH * WIDTH;
  return { square, linear, total: square + linear };
}

/** The n × n part's share of a call's multiplications at n. @param {number} n */
export const squareShare = (n) => multiplications(n).square / multiplications(n).total;

/**
 * What one doubling of n did to the time of a call, in words that follow the measured ratios: the
 * n² cost the lesson means when both forms grew by QUADRATIC_GROWTH or more, otherwise why not yet.
 * Beside it, the growth counted in multiplications (multiplications()): from 256 to 512 that is
 * 3.83, with the n × n part 96% of the work at 512, so a clean measurement is close to 4 at the top
 * of the sweep and well under it at small n.
 * @param {{ from: number, to: number, long: number, fused: number }} last @param {{ causal: boolean }} state
 */
export function doublingSentence(last, { causal }) {
  const counted = multiplications(last.to).total / multiplications(last.from).total;
  const share = Math.round(100 * squareShare(last.to));
  const head = `Doubling n from ${last.from} to ${last.to} multiplies the scores by 4 (${grouped(last.from ** 2)} → ${grouped(last.to ** 2)}) and the multiplications of a call by ${counted.toFixed(2)} (at n = ${last.to}, ${share}% of them are in the n × n scores and the mix); it multiplied the time of a call by ${last.long.toFixed(1)} in the long form and ${last.fused.toFixed(1)} in the fused form`;
  const close = (/** @type {number} */ x) => Number(x.toFixed(1)) >= QUADRATIC_GROWTH;
  if (close(last.long) && close(last.fused))
    return `${head}, close to 4 in both: the quadratic cost the lesson means. Neither form escapes it; what the fused form saves is the memory for n × n numbers${causal ? ' (and, with the causal mask, half the work)' : ''}.`;
  const slow = [close(last.long) ? '' : 'the long form', close(last.fused) ? '' : 'the fused form'].filter(Boolean);
  const which = slow.length === 2 ? 'both' : slow[0];
  return `${head}: less than 4 in ${which}. At n = ${last.to} the work that grows only with n (projecting every token, n × ${WIDTH} × ${WIDTH} multiplications for each of Q, K and V) and the fixed cost of a call still count beside the n × n scores; the quadratic cost the lesson means takes over as n grows${last.to < N_MAX ? `, up to the ${N_MAX} tokens of this sweep` : ''}.${last.to === N_MAX ? ' A busy computer also blurs a measurement: “Time every n again” measures anew.' : ''}`;
}

/**
 * The sentences under the numbers. c: compareForms(); t: timeForms() at n (or null); points: the sweep so far.
 * @param {ReturnType<typeof compareForms>} c @param {Timing | null} t @param {Timing[]} points @param {{ causal: boolean }} state
 */
export function explainFused(c, t, points, state) {
  const n = c.n, out = [], keys = Math.min(n, TILE), tiles = Math.ceil(n / TILE);
  const against = tiles === 1 ? `all ${n} keys in one tile` : `the keys a tile of ${TILE} at a time (${count(tiles, 'tile')})`;
  out.push(`With n = ${n} tokens there are ${n} × ${n} = ${grouped(c.scores)} scores. The long form stores all of them in S, and as many masks in M and weights in A: ${bytesText(c.long.square)} of n × n matrices out of ${bytesText(c.long.total)} in all. The fused form stores none: it takes ${count(Math.ceil(n / BLOCK), 'block')} of ${BLOCK} queries, each against ${against}, and holds one tile’s ${BLOCK} × ${keys} scores (${bytesText(c.fused.tile)}) and, for each of the block’s rows, the running maximum m of its scores, the running sum l of their exponentials and its output so far, an average of the values seen: ${bytesText(c.fused.total)} in all with the inputs, K and V packed, and O.`);
  out.push(c.identical
    ? `Both give the same O: the largest difference between their ${grouped(c.outputs)} outputs is 0.`
    : `Both give the same O up to rounding: the largest difference between their ${grouped(c.outputs)} outputs is ${c.maxDiff.toExponential(1)}. The fused form builds each row’s average tile by tile: a tile’s weights are exp(score − m) ÷ l with the running m and l, and what it had is rescaled by α·l_old ÷ l_new, where α = exp(m_old − m_new) is below 1 when the tile brings a larger score: the same numbers, rounded in another order.`);
  if (t) {
    const faster = t.long / t.fused;
    out.push(`At n = ${n} one call took ${timeText(t.long)} in the long form and ${timeText(t.fused)} in the fused form${faster >= 1.05 ? `, ${faster.toFixed(1)} times faster` : ''}.${state.causal && c.fused.computed < c.scores ? ` The fused form also skips ${Math.round((100 * (c.scores - c.fused.computed)) / c.scores)}% of the scores, those the causal mask removes past each block’s last row; the long form computes them all, because S shows them.` : ''}`);
  }
  const g = growth(points);
  const last = g[g.length - 1], fell = g.find((x) => x.long < 1 || x.fused < 1);
  if (fell) {
    out.push(`The times fell as n doubled from ${fell.from} to ${fell.to}, which only noise explains: something else was using the computer. Press “Time every n again”.`);
  } else if (last) {
    out.push(doublingSentence(last, state));
    const first = g[0];
    if (first && first.long < 3) out.push(`At small n (from ${first.from} to ${first.to}) a call grows by only ${first.long.toFixed(1)} times: its fixed cost (checking and copying the inputs, starting the core) is larger than the n² part. On the log–log plot the n² line is the slope the curves approach as n grows.`);
  }
  const context = 32768;
  out.push(`The memory matters at the lengths models use. At n = ${grouped(context)} tokens, S alone would take ${bytesText(context * context * 4)} for one head; the fused form holds one tile’s ${BLOCK} × ${TILE} scores (${bytesText(BLOCK * TILE * 4)}) whatever n is, and besides the inputs and O only K and V packed: its memory grows with n, not with n².`);
  return out;
}
