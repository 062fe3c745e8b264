// tests/reference.mjs: an independent float64 reference of one attention head, plus seeded
// random inputs for the tests.
//
// Written straight from the maths (docs/api.md, c/attention.h), not from web/core/attention.js or the
// C core, so a shared mistake is unlikely. Plain nested arrays of float64 numbers throughout:
// slow and obvious on purpose.
//
//   Q = X·Wq  [n][dk]     K = Xkv·Wk  [m][dk]     V = Xkv·Wv  [m][dv]
//   S = scale·Q·Kᵀ  [n][m]        (before the mask; scale defaults to 1/sqrt(dk))
//   M = causal (-Infinity where j > i, top-left aligned) combined with the mask
//       (booleans: true = may attend; numbers: added to the scores)
//   A = softmax by row of S + M   (a row with every key at -Infinity is all 0)
//   O = A·V  [n][dv]
import { mulberry32 } from '../web/labs/random.js';

// ---------------------------------------------------------------- seeded random numbers

// mulberry32 is the labs' own seeded generator (web/labs/random.js): a PRNG, not maths under
// test, shared so that a seed means the same numbers in the tests and on the page.
export { mulberry32 };

/** An integer in [lo, hi] (both inclusive). */
export function randInt(rand, lo, hi) {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

/**
 * A [rows][cols] nested array of numbers uniform in [lo, hi), each rounded to float32 so that the
 * core (which works in float32) and the reference see exactly the same inputs.
 */
export function randMatrix(rand, rows, cols, lo = -1, hi = 1) {
  const out = [];
  for (let i = 0; i < rows; i++) {
    const row = [];
    for (let j = 0; j < cols; j++) row.push(Math.fround(lo + (hi - lo) * rand()));
    out.push(row);
  }
  return out;
}

/** A [rows][cols] boolean mask, each entry true (may attend) with probability pTrue. */
export function randBoolMask(rand, rows, cols, pTrue = 0.6) {
  return Array.from({ length: rows }, () => Array.from({ length: cols }, () => rand() < pTrue));
}

/**
 * A [rows][cols] float mask: -Infinity with probability pNegInf, otherwise a float32 number in
 * [lo, hi) that is added to the score.
 */
export function randFloatMask(rand, rows, cols, pNegInf = 0.3, lo = -2, hi = 2) {
  return Array.from({ length: rows }, () =>
    Array.from({ length: cols }, () =>
      rand() < pNegInf ? -Infinity : Math.fround(lo + (hi - lo) * rand()),
    ),
  );
}

/** A [rows][cols] identity-like matrix (ones on the diagonal). */
export function identity(rows, cols = rows) {
  return Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === j ? 1 : 0)));
}

// ---------------------------------------------------------------- small linear algebra

/** A·B for nested arrays: [r][k] · [k][c] -> [r][c], accumulated in float64. */
export function matmul(A, B) {
  const r = A.length;
  const k = B.length;
  const c = k ? B[0].length : 0;
  const out = [];
  for (let i = 0; i < r; i++) {
    const row = new Array(c).fill(0);
    for (let p = 0; p < k; p++) {
      const a = A[i][p];
      for (let j = 0; j < c; j++) row[j] += a * B[p][j];
    }
    out.push(row);
  }
  return out;
}

/** Flattens a nested array row-major (element [i][j] at i*cols + j). */
export function flat(rows) {
  return rows.flat();
}

// ---------------------------------------------------------------- the reference head

/**
 * One attention head in float64.
 * Either { X, Wq, Wk, Wv, Xkv? } (projection form) or { Q, K, V } (direct form), plus optional
 * causal, mask ([n][m] booleans or numbers) and scale. Returns nested arrays
 * { n, m, dk, dv, scale, Q, K, V, S, M, A, O }.
 */
export function referenceHead({ X, Xkv, Wq, Wk, Wv, Q, K, V, causal = false, mask = null, scale = null }) {
  if (X) {
    const src = Xkv ?? X;
    Q = matmul(X, Wq);
    K = matmul(src, Wk);
    V = matmul(src, Wv);
  }
  const n = Q.length;
  const m = K.length;
  const dk = Q[0].length;
  const dv = V[0].length;
  const s = scale ?? 1 / Math.sqrt(dk);

  // Scores before the mask: S[i][j] = scale * (q_i · k_j).
  const S = [];
  for (let i = 0; i < n; i++) {
    const row = [];
    for (let j = 0; j < m; j++) {
      let dot = 0;
      for (let c = 0; c < dk; c++) dot += Q[i][c] * K[j][c];
      row.push(s * dot);
    }
    S.push(row);
  }

  // The additive mask: 0 = may look, -Infinity = masked, other numbers shift the score.
  const M = [];
  for (let i = 0; i < n; i++) {
    const row = [];
    for (let j = 0; j < m; j++) {
      let v = 0;
      if (mask) {
        const e = mask[i][j];
        v = typeof e === 'boolean' ? (e ? 0 : -Infinity) : e;
      }
      if (causal && j > i) v = -Infinity;
      row.push(v);
    }
    M.push(row);
  }

  // Softmax by row with the maximum subtracted (so scores in the thousands do not overflow).
  // Masked keys get weight exactly 0; a row with no key left is all 0 rather than 0/0.
  const A = [];
  for (let i = 0; i < n; i++) {
    const z = S[i].map((v, j) => v + M[i][j]);
    let max = -Infinity;
    for (const v of z) if (v > max) max = v;
    const row = new Array(m).fill(0);
    if (max !== -Infinity) {
      let sum = 0;
      for (let j = 0; j < m; j++) {
        if (z[j] === -Infinity) continue;
        row[j] = Math.exp(z[j] - max);
        sum += row[j];
      }
      for (let j = 0; j < m; j++) row[j] /= sum;
    }
    A.push(row);
  }

  const O = matmul(A, V);
  return { n, m, dk, dv, scale: s, Q, K, V, S, M, A, O };
}

/** Softmax by row of S + M in float64, for checking the core's A against the core's own S. */
export function softmaxRows(S, M, n, m) {
  const A = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    for (let j = 0; j < m; j++) max = Math.max(max, S[i * m + j] + M[i * m + j]);
    if (max === -Infinity) continue;
    let sum = 0;
    for (let j = 0; j < m; j++) {
      const z = S[i * m + j] + M[i * m + j];
      const e = z === -Infinity ? 0 : Math.exp(z - max);
      A[i * m + j] = e;
      sum += e;
    }
    for (let j = 0; j < m; j++) A[i * m + j] /= sum;
  }
  return A;
}

// ---------------------------------------------------------------- comparison

/**
 * Compares a flat array against a flat (or nested) expected one with
 * |got - expected| <= atol + rtol*|expected|. Infinities must match exactly.
 * Returns { ok, maxAbs, worst } where worst describes the first failing element (or null).
 */
export function compare(got, expected, { atol = 1e-5, rtol = 1e-4 } = {}) {
  const exp = Array.isArray(expected) && Array.isArray(expected[0]) ? expected.flat() : expected;
  if (got.length !== exp.length) {
    return { ok: false, maxAbs: Infinity, worst: `length ${got.length}, expected ${exp.length}` };
  }
  let maxAbs = 0;
  let worst = null;
  for (let k = 0; k < exp.length; k++) {
    const g = got[k];
    const e = exp[k];
    if (!Number.isFinite(e) || !Number.isFinite(g)) {
      if (g !== e && worst === null) worst = `element ${k}: got ${g}, expected ${e}`;
      if (g !== e) maxAbs = Infinity;
      continue;
    }
    const diff = Math.abs(g - e);
    if (diff > maxAbs) maxAbs = diff;
    if (diff > atol + rtol * Math.abs(e) && worst === null) worst = `element ${k}: got ${g}, expected ${e}`;
  }
  return { ok: worst === null, maxAbs, worst };
}
