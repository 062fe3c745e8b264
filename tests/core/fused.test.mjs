// tests/core/fused.test.mjs: the fused form (issues 10 and 29). forward(args, { outputs: ['O'] })
// and multiHead() run attn_sdpa_fused: a block of 4 queries against a tile of keys at a time,
// with an online softmax (FlashAttention's), and no n×m matrix. It must give the long form's O to
// float32 rounding (withinRounding: the bound tests/c/test_fused.c explains), match the float64
// reference (tests/reference.mjs) within the tolerance every other test uses, and give the same
// errors; it takes sequences up to LIMITS.maxTokensFused.
//
//   node --test tests/core/fused.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { loadAttention, LIMITS } from '../../web/core/attention.js';
import { TILE_KEYS } from '../../web/gen/wasm-exports.js';
import { mulberry32, randInt, randMatrix, randBoolMask, randFloatMask, referenceHead, compare } from '../reference.mjs';

const TOL = { atol: 1e-5, rtol: 1e-4 };
const builds = { simd: await loadAttention({ simd: true }), scalar: await loadAttention({ simd: false }) };
const attn = builds.simd;
const O_ONLY = { outputs: ['O'] };

/** The same bits: Object.is on every element (so -0 and 0 differ, NaN equals NaN). */
function assertSameBits(got, want, label) {
  assert.equal(got.length, want.length, `${label}: length`);
  for (let k = 0; k < want.length; k++) {
    if (!Object.is(got[k], want[k])) assert.fail(`${label}: element ${k} is ${got[k]} but ${want[k]}`);
  }
}

const EPS = 2 ** -23; // float32's epsilon
/**
 * The fused form's O against the long form's result `long` (which has S, M and V): within
 * eps·max|V|·(8·(1 + the widest row of visible z = S + M) + m). Both forms compute every score
 * alike; the fused one takes exp(z − a running maximum) and rescales later, so each weight may move
 * by about eps·|z − max|, and adds the m terms of each sum in another order
 * (tests/c/test_fused.c). Returns the largest difference.
 */
function assertWithinRounding(fusedO, long, label) {
  let spread = 0, vmax = 0, worst = 0;
  for (let i = 0; i < long.n; i++) {
    let lo = Infinity, hi = -Infinity;
    for (let j = 0; j < long.m; j++) {
      const z = long.S[i * long.m + j] + long.M[i * long.m + j];
      if (Number.isFinite(z)) (lo = Math.min(lo, z)), (hi = Math.max(hi, z));
    }
    if (hi > lo) spread = Math.max(spread, hi - lo);
  }
  for (const x of long.V) vmax = Math.max(vmax, Math.abs(x));
  const tol = EPS * Math.max(vmax, 2 ** -126) * (8 * (1 + spread) + long.m);
  assert.equal(fusedO.length, long.O.length, `${label}: length`);
  for (let k = 0; k < fusedO.length; k++) worst = Math.max(worst, Math.abs(fusedO[k] - long.O[k]));
  assert.ok(worst <= tol, `${label}: the fused O is ${worst} from the long form's, past float32 rounding (${tol})`);
  return worst;
}

function assertClose(got, want, label) {
  const c = compare(got, want, TOL);
  assert.ok(c.ok, `${label}: ${c.worst} (max |diff| ${c.maxAbs})`);
  return c.maxAbs;
}

// ---------------------------------------------------------------- the ONNX vectors, head by head

const DIR = new URL('../onnx-attention/', import.meta.url);
const VECTORS = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(new URL(f, DIR), 'utf8')));

/** Head (b, h) of an ONNX tensor as nested rows: 4-D [B, H, L, D] or 3-D [B, L, H·D]. */
function headRows(t, layout, heads, b, h) {
  const value = (x) => (x === '-inf' ? -Infinity : x);
  if (layout === '4d') {
    const [, H, L, D] = t.shape;
    return Array.from({ length: L }, (_, i) => Array.from({ length: D }, (_, c) => value(t.data[((b * H + h) * L + i) * D + c])));
  }
  const [, L, HD] = t.shape, D = HD / heads;
  return Array.from({ length: L }, (_, i) => Array.from({ length: D }, (_, c) => value(t.data[(b * L + i) * HD + h * D + c])));
}

/** The mask for head (b, h), broadcast numpy-style against [B, H, L, S], as nested rows. */
function headMask(t, b, h, L, S) {
  const shape = [...Array(4 - t.shape.length).fill(1), ...t.shape];
  const at = (i, j) => {
    const idx = [shape[0] === 1 ? 0 : b, shape[1] === 1 ? 0 : h, shape[2] === 1 ? 0 : i, shape[3] === 1 ? 0 : j];
    const x = t.data[((idx[0] * shape[1] + idx[1]) * shape[2] + idx[2]) * shape[3] + idx[3]];
    return x === '-inf' ? -Infinity : x;
  };
  return Array.from({ length: L }, (_, i) => Array.from({ length: S }, (_, j) => at(i, j)));
}

test('on every head of the 51 ONNX vectors the fused O is the long form\'s to float32 rounding and matches the float64 reference', (t) => {
  assert.equal(VECTORS.length, 51);
  let heads = 0, worst = 0, fromLong = 0;
  for (const v of VECTORS) {
    const { Q, K, V, attn_mask: mask } = v.inputs;
    const qh = v.attrs.q_num_heads, kvh = v.attrs.kv_num_heads, B = Q.shape[0];
    for (let b = 0; b < B; b++) {
      for (let h = 0; h < qh; h++) {
        const g = Math.floor(h / (qh / kvh));
        const args = { Q: headRows(Q, v.layout, qh, b, h), K: headRows(K, v.layout, kvh, b, g), V: headRows(V, v.layout, kvh, b, g), causal: v.attrs.is_causal, scale: v.attrs.scale };
        if (mask) args.mask = headMask(mask, b, h, args.Q.length, args.K.length);
        const label = `${v.name} batch ${b} head ${h}`;
        for (const [name, a] of Object.entries(builds)) {
          const long = a.forward(args), fused = a.forward(args, O_ONLY);
          fromLong = Math.max(fromLong, assertWithinRounding(fused.O, long, `${label} (${name})`));
          worst = Math.max(worst, assertClose(fused.O, referenceHead(args).O, `${label} (${name}) vs the float64 reference`));
        }
        heads++;
      }
    }
  }
  t.diagnostic(`${heads} heads, max |fused − long form| ${fromLong.toExponential(3)}, max |fused − float64 reference| ${worst.toExponential(3)}`);
});

test('multiHead() gives each ONNX head the O forward() gives it in the fused form, bit for bit, and the long form\'s to rounding', () => {
  const v = VECTORS.find((x) => x.name === 'variant_4d_gqa_diff_v_causal_scaled_pm2') ?? VECTORS[0];
  const tensor = (x) => ({ shape: x.shape, data: Float32Array.from(x.data) });
  const y = attn.multiHead({ Q: tensor(v.inputs.Q), K: tensor(v.inputs.K), V: tensor(v.inputs.V), causal: v.attrs.is_causal, scale: v.attrs.scale });
  const [B, H, L, dv] = y.shape, qh = v.attrs.q_num_heads, kvh = v.attrs.kv_num_heads;
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < H; h++) {
      const g = Math.floor(h / (qh / kvh));
      const args = { Q: headRows(v.inputs.Q, '4d', qh, b, h), K: headRows(v.inputs.K, '4d', kvh, b, g), V: headRows(v.inputs.V, '4d', kvh, b, g), causal: v.attrs.is_causal, scale: v.attrs.scale };
      const mine = y.data.subarray(((b * H + h) * L) * dv, ((b * H + h) * L + L) * dv);
      assertSameBits(mine, attn.forward(args, O_ONLY).O, `batch ${b} head ${h}`);
      assertWithinRounding(mine, attn.forward(args), `batch ${b} head ${h} against the long form`);
    }
  }
});

// ---------------------------------------------------------------- 300 seeded shapes

/** A seeded config: projection or direct form, self or cross, masks of every kind, n != m. */
function randomConfig(rand, k) {
  const n = k < 4 ? [1, 1, 9, LIMITS.maxTokens][k] : randInt(rand, 1, 48);
  const m = k < 4 ? [1, 9, 1, 40][k] : rand() < 0.5 ? n : randInt(rand, 1, 48);
  const dk = randInt(rand, 1, 33), dv = randInt(rand, 1, 33);
  let cfg;
  if (rand() < 0.5) {
    const d = randInt(rand, 1, 24), w = 1 / Math.sqrt(d);
    cfg = { X: randMatrix(rand, n, d), Wq: randMatrix(rand, d, dk, -w, w), Wk: randMatrix(rand, d, dk, -w, w), Wv: randMatrix(rand, d, dv, -w, w) };
    if (m !== n || rand() < 0.2) cfg.Xkv = randMatrix(rand, m, d);
  } else {
    const spread = rand() < 0.1 ? 60 : 1.5; // sometimes scores in the thousands
    cfg = { Q: randMatrix(rand, n, dk, -spread, spread), K: randMatrix(rand, m, dk, -spread, spread), V: randMatrix(rand, m, dv) };
  }
  const kind = rand();
  if (kind < 0.25) cfg.mask = randBoolMask(rand, n, m, 0.6);
  else if (kind < 0.5) cfg.mask = randFloatMask(rand, n, m, 0.3);
  if (cfg.mask && rand() < 0.3) cfg.mask[randInt(rand, 0, n - 1)].fill(typeof cfg.mask[0][0] === 'boolean' ? false : -Infinity); // a fully masked row
  cfg.causal = rand() < 0.5;
  if (rand() < 0.2) cfg.scale = Math.fround(0.05 + rand());
  return cfg;
}

test('on 300 seeded shapes (masks, causal with n != m, both forms, scores in the thousands) fused ≈ long form to float32 rounding, ≈ float64 reference', (t) => {
  const rand = mulberry32(1010);
  let worst = 0;
  for (let k = 0; k < 300; k++) {
    const cfg = randomConfig(rand, k);
    const a = k % 3 === 2 ? builds.scalar : builds.simd;
    const long = a.forward(cfg), fused = a.forward(cfg, O_ONLY);
    const label = `config ${k} (n ${long.n}, m ${long.m}, dk ${long.dk}, dv ${long.dv}${cfg.causal ? ', causal' : ''}${cfg.mask ? ', mask' : ''}, ${a.simd ? 'SIMD' : 'scalar'})`;
    assertWithinRounding(fused.O, long, label);
    worst = Math.max(worst, assertClose(fused.O, referenceHead(cfg).O, `${label} vs the float64 reference`));
    for (const key of ['X', 'Xkv', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A']) assert.equal(fused[key], null, `${label}: ${key}`);
    assert.deepEqual([fused.n, fused.m, fused.d, fused.dk, fused.dv, fused.scale, fused.causal], [long.n, long.m, long.d, long.dk, long.dv, long.scale, long.causal], label);
  }
  t.diagnostic(`max |fused − float64 reference| ${worst.toExponential(3)}`);
});

test('fully masked rows give O = 0 exactly in the fused form (bool mask, float mask, causal with n > m and a mask)', () => {
  const Q = [[1, 0], [0, 1], [1, 1]], K = [[1, 0], [0, 1]], V = [[1, 2], [3, 4]];
  const cases = [
    { Q, K, V, mask: [[true, true], [false, false], [true, false]] },
    { Q, K, V, mask: [[0, 0], [-Infinity, -Infinity], [1, -Infinity]] },
    { Q, K, V, causal: true, mask: [[false, true], [true, true], [true, true]] }, // row 0 sees key 0 only, and the mask removes it
  ];
  for (const cfg of cases) {
    const r = attn.forward(cfg, O_ONLY);
    const zeroRow = cfg.causal ? 0 : 1;
    assert.ok(r.O[zeroRow * 2] === 0 && r.O[zeroRow * 2 + 1] === 0, `row ${zeroRow}: ${Array.from(r.O)}`);
    assertWithinRounding(r.O, attn.forward(cfg), JSON.stringify(cfg.mask));
  }
});

test('the fused form reports the long form\'s errors: overflow (also of a score the causal mask removes), bad values, bad masks', () => {
  const tooLarge = /the values are too large/;
  // q0·k2 = 1e40 passes float32 although causal removes key 2 for query 0: the long form stores S whole and refuses
  const hidden = { Q: [[1e20, 0], [0, 1], [0, 1]], K: [[0, 1], [0, 1], [1e20, 0]], V: [[1], [2], [3]], causal: true };
  assert.throws(() => attn.forward(hidden), tooLarge);
  assert.throws(() => attn.forward(hidden, O_ONLY), tooLarge);
  // a score plus a finite mask past float32
  const masked = { Q: [[1e19]], K: [[1e19]], V: [[1]], mask: [[3e38]] };
  assert.throws(() => attn.forward(masked), tooLarge);
  assert.throws(() => attn.forward(masked, O_ONLY), tooLarge);
  // projections past float32
  const proj = { X: [[1e30]], Wq: [[1e30]], Wk: [[1]], Wv: [[1]] };
  assert.throws(() => attn.forward(proj, O_ONLY), tooLarge);
  assert.throws(() => attn.forward({ Q: [[1, NaN]], K: [[1, 0]], V: [[1]] }, O_ONLY), /Q\[0\]\[1\] is NaN/);
  assert.throws(() => attn.forward({ Q: [[1]], K: [[1]], V: [[1e39]] }, O_ONLY), /V\[0\]\[0\] is 1e\+39, past float32's range/);
  assert.throws(() => attn.forward({ Q: [[1]], K: [[1]], V: [[1]], mask: { shape: [1, 1], data: new Float32Array([NaN]) } }, O_ONLY), /mask\[0\]\[0\] is NaN/);
  // and the instance keeps working
  assert.equal(attn.forward({ Q: [[1]], K: [[1]], V: [[2]] }, O_ONLY).O[0], 2);
});

// ---------------------------------------------------------------- memory

test('memoryBytes(): a fused call at n = m = 512 needs no n×m buffer; the long form needs S, M and A', async () => {
  const n = LIMITS.maxTokens, dk = 8, nm = n * n * 4;
  const rand = mulberry32(77);
  const args = { Q: { shape: [n, dk], data: Float32Array.from(randMatrix(rand, n, dk).flat()) }, K: { shape: [n, dk], data: Float32Array.from(randMatrix(rand, n, dk).flat()) }, V: { shape: [n, dk], data: Float32Array.from(randMatrix(rand, n, dk).flat()) }, causal: true };
  const fusedOnly = await loadAttention();
  const before = fusedOnly.memoryBytes();
  fusedOnly.forward(args, O_ONLY);
  const fusedGrowth = fusedOnly.memoryBytes() - before;
  const ws = fusedOnly.workspace();
  assert.ok(fusedGrowth < nm / 2, `a fused call grew memory by ${fusedGrowth} bytes; one ${n}×${n} float matrix is ${nm}`);
  assert.ok(ws.total < nm / 2, `the fused call laid out ${ws.total} bytes`);
  for (const k of ['S', 'M', 'A', 'mask', 'Kt']) assert.equal(ws.buffers[k], 0, `fused: buffer ${k}`);
  // scratch: K and V packed (about n × (dk + 8) floats) and one tile of 4 × TILE_KEYS scores, however large n is
  assert.ok(ws.buffers.work <= (n * dk + (n + 8) * 8 + 4 * TILE_KEYS) * 4, `fused scratch: ${ws.buffers.work} bytes`);
  const long = await loadAttention(); // a fresh instance too: the same memory to start from
  assert.equal(long.memoryBytes(), before);
  long.forward(args);
  assert.ok(long.memoryBytes() - fusedOnly.memoryBytes() >= 2 * nm, `after one call: long form ${long.memoryBytes()} bytes, fused ${fusedOnly.memoryBytes()}`);
  const lws = long.workspace();
  for (const k of ['S', 'M', 'A']) assert.equal(lws.buffers[k], nm, `long: buffer ${k}`);
  // repeated fused calls never grow memory
  const after = fusedOnly.memoryBytes();
  for (let i = 0; i < 5; i++) fusedOnly.forward(args, O_ONLY);
  assert.equal(fusedOnly.memoryBytes(), after);
});

// ---------------------------------------------------------------- long sequences (issue 29)

test('sequences past the long form\'s limit: the fused form takes n = m = LIMITS.maxTokensFused and matches a float64 reference on sampled rows; the long form says where to go', (t) => {
  const n = LIMITS.maxTokensFused, dk = 16, dv = 8, rand = mulberry32(8192);
  const tensor = (rows, cols) => ({ shape: [rows, cols], data: Float32Array.from({ length: rows * cols }, () => rand() * 2 - 1) });
  const Q = tensor(n, dk), K = tensor(n, dk), V = tensor(n, dv);
  const O = attn.forward({ Q, K, V, causal: true }, O_ONLY).O;
  let worst = 0;
  for (const i of [0, 1, 63, 64, 65, 1000, 4096, n - 1]) { // rows that see one key, a tile's edge, thousands
    const row = (T, r, w) => Array.from(T.data.subarray(r * w, (r + 1) * w));
    const ref = referenceHead({ Q: [row(Q, i, dk)], K: Array.from({ length: i + 1 }, (_, j) => row(K, j, dk)), V: Array.from({ length: i + 1 }, (_, j) => row(V, j, dv)) }).O;
    worst = Math.max(worst, assertClose(O.subarray(i * dv, (i + 1) * dv), ref, `row ${i}`));
  }
  t.diagnostic(`n = m = ${n}: max |fused − float64 reference| over the sampled rows ${worst.toExponential(3)}`);
  const past = LIMITS.maxTokens + 1, small = tensor(past, 4);
  assert.throws(() => attn.forward({ Q: small, K: small, V: small }), { message: `Q has ${past} rows (queries) but at most ${LIMITS.maxTokens} are supported: use a shorter sequence, or ask for O alone (outputs: ['O']), which takes up to ${LIMITS.maxTokensFused}` });
  const over = tensor(LIMITS.maxTokensFused + 1, 2), one = tensor(1, 2);
  assert.throws(() => attn.forward({ Q: over, K: one, V: one }, O_ONLY), { message: `Q has ${LIMITS.maxTokensFused + 1} rows (queries) but at most ${LIMITS.maxTokensFused} are supported: use a shorter sequence` });
  // a mask of n × m is an n×m input: past the core's memory it says what to use instead
  const big = 4096, mask = { shape: [big, big], data: new Float32Array(big * big) }, q = tensor(big, 2);
  assert.throws(() => attn.forward({ Q: q, K: q, V: q, mask }, O_ONLY), /a mask of 4096 × 4096 takes 64 MB, more than the core's memory can hold: for a causal mask give causal: true instead/);
  assert.equal(attn.forward({ Q: [[1]], K: [[1]], V: [[3]] }, O_ONLY).O[0], 3, 'and the instance keeps working');
});
