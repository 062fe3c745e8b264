// sqrtdk.js: the √dk lab, pure (no DOM). Lesson: "Why divide by √dk? If the components of a
// query and a key are independent with mean 0 and variance 1, their dot product ... has variance
// dk and standard deviation √dk ... A softmax of numbers that far apart is almost one-hot ...
// and the gradient through the softmax almost vanishes. Dividing by √dk restores a standard
// deviation of 1 whatever the width."
//
// Seeded unit-variance Q and K [n, dk]; the scores come from the core's forward() in the direct
// form with scale 1 (raw) and with the default 1/√dk (scaled); each row's weights, largest
// weight, entropy and gradient size come from the core's softmax functions. Only the histogram
// bins, means and standard deviations are counted here.

import { mulberry32, normals, intParam } from './random.js';

export const MODE = 'sqrt-dk-lab';
export const DK_MAX = 512;
export const N_CHOICES = [4, 8, 16, 32, 64, 128, 256];
export const SWEEP_DKS = [1, 4, 16, 64, 256, 512];
export const ONE_HOT = 0.9; // a row counts as nearly one-hot when its largest weight is above this
const CHUNK = 256; // the core's head-width limit (LIMITS.maxWidth)

export function defaultState() {
  return { dk: 64, n: 32, seed: 1, row: 0 };
}

export function readState(params) {
  const d = defaultState();
  const n = intParam(params, 'n', 2, 256, d.n);
  return { dk: intParam(params, 'dk', 1, DK_MAX, d.dk), n, seed: intParam(params, 'seed', 0, 2 ** 31 - 1, d.seed), row: intParam(params, 'row', 0, n - 1, d.row) };
}

export function writeState(s) {
  return { mode: MODE, dk: s.dk, n: s.n, seed: s.seed, ...(s.row ? { row: s.row } : {}) };
}

/** Seeded queries and keys: Float32Arrays [n*dk], every component N(0, 1). */
export function randomQK(dk, n, seed) {
  const rand = mulberry32(seed);
  return { Q: normals(rand, n * dk), K: normals(rand, n * dk) };
}

// scale·Q·Kᵀ [n*n] from the core. Widths above the core's limit (256) go in chunks of 256
// columns whose dot products are added: Q·Kᵀ = Σ over chunks of Q_c·K_cᵀ.
function scores(attn, Q, K, n, dk, scale) {
  const V = { shape: [n, 1], data: new Float32Array(n) };
  if (dk <= CHUNK) return attn.forward({ Q: { shape: [n, dk], data: Q }, K: { shape: [n, dk], data: K }, V, scale }).S;
  const S = new Float32Array(n * n);
  for (let c0 = 0; c0 < dk; c0 += CHUNK) {
    const w = Math.min(CHUNK, dk - c0);
    const part = (M) => {
      const out = new Float32Array(n * w);
      for (let i = 0; i < n; i++) out.set(M.subarray(i * dk + c0, i * dk + c0 + w), i * w);
      return { shape: [n, w], data: out };
    };
    const r = attn.forward({ Q: part(Q), K: part(K), V, scale });
    for (let k = 0; k < n * n; k++) S[k] += r.S[k];
  }
  return S;
}

export function meanStd(x) {
  let s = 0;
  for (let k = 0; k < x.length; k++) s += x[k];
  const mean = s / x.length;
  let v = 0;
  for (let k = 0; k < x.length; k++) v += (x[k] - mean) ** 2;
  return { average: mean, std: Math.sqrt(v / x.length) };
}

/** Counts of x in `bins` equal bins over [lo, hi] (values outside go to the end bins). */
export function histogram(x, lo, hi, bins) {
  const counts = new Array(bins).fill(0);
  const w = (hi - lo) / bins;
  for (let k = 0; k < x.length; k++) counts[Math.min(bins - 1, Math.max(0, Math.floor((x[k] - lo) / w)))]++;
  return { lo, hi, bins, width: w, counts };
}

// The softmax of every row and its statistics, from the core.
function rows(attn, S, n) {
  const weights = [], stats = [];
  for (let i = 0; i < n; i++) {
    const a = attn.softmaxRow(S.subarray(i * n, (i + 1) * n));
    weights.push(a);
    stats.push(attn.softmaxStats(a));
  }
  const avg = (key) => stats.reduce((t, s) => t + s[key], 0) / n;
  const g = stats.map((s) => s.gradNorm).sort((x, y) => x - y);
  return {
    weights, stats,
    mean: { maxWeight: avg('maxWeight'), entropy: avg('entropy'), gradNorm: avg('gradNorm') },
    medianGradNorm: n % 2 ? g[n >> 1] : (g[n / 2 - 1] + g[n / 2]) / 2,
    oneHot: stats.filter((s) => s.maxWeight > ONE_HOT).length, // rows whose largest weight is above 0.9
  };
}

/**
 * Everything the lab shows for { dk, n, seed }: raw and scaled scores with their mean, std and
 * histograms (shared range), and each row's weights and statistics, unscaled and scaled.
 */
export function computeSqrtDk(attn, { dk, n, seed }, { bins = 31 } = {}) {
  const { Q, K } = randomQK(dk, n, seed);
  const raw = scores(attn, Q, K, n, dk, 1);
  const scaled = scores(attn, Q, K, n, dk, 1 / Math.sqrt(dk));
  let range = 0;
  for (let k = 0; k < raw.length; k++) range = Math.max(range, Math.abs(raw[k]), Math.abs(scaled[k]));
  range = niceCeil(range);
  const side = (S) => ({ S, ...meanStd(S), hist: histogram(S, -range, range, bins), ...rows(attn, S, n) });
  return {
    dk, n, seed, sqrtDk: Math.sqrt(dk), samples: n * n, maxEntropy: Math.log(n), uniformGradNorm: Math.sqrt(n - 1) / n,
    raw: side(raw), scaled: side(scaled),
  };
}

function niceCeil(x) {
  if (!(x > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const f of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (f * p >= x) return f * p;
  return 10 * p;
}

/** The largest weight, entropy and gradient size averaged over rows, for several widths. */
export function sweep(attn, { n, seed }, dks = SWEEP_DKS) {
  return dks.map((dk) => {
    const r = computeSqrtDk(attn, { dk, n, seed }, { bins: 1 });
    return { dk, raw: { ...r.raw.mean, median: r.raw.medianGradNorm, oneHot: r.raw.oneHot }, scaled: { ...r.scaled.mean, median: r.scaled.medianGradNorm, oneHot: r.scaled.oneHot }, rawStd: r.raw.std, scaledStd: r.scaled.std };
  });
}
