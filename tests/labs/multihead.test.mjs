// labs-multihead.test.mjs: the multi-head lab (web/labs/multihead.js) and the seeded numbers the
// labs draw (web/labs/random.js). The cat preset has n = 5 tokens of width d = 4, so each of h
// heads has dk = dv = 4 / h; every sentence of the shapes card is pinned for 1, 2 and 4 heads,
// with and without grouped-query attention.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { MODE, HEAD_CHOICES, defaultState, readState, writeState, headWeights, computeMultiHead, shapes } from '../../web/labs/multihead.js';
import { mulberry32, normals, intParam, oneOf } from '../../web/labs/random.js';

const attn = await loadAttention();
const q = (s) => new URLSearchParams(s);

test('multihead state: defaults, every parameter read (heads only 1, 2 or 4; seed up to 2³¹ − 1), written back', () => {
  assert.equal(MODE, 'multihead-lab');
  assert.deepEqual(HEAD_CHOICES, [1, 2, 4]);
  const d = { heads: 2, gqa: false, seed: 1, causal: true };
  assert.deepEqual(defaultState(), d);
  assert.deepEqual(readState(q('')), d);
  assert.deepEqual(readState(q('heads=4&gqa=1&seed=7&causal=0')), { heads: 4, gqa: true, seed: 7, causal: false });
  assert.deepEqual(readState(q('heads=1&gqa=0&causal=1')), { ...d, heads: 1 });
  assert.equal(readState(q('heads=3')).heads, 2, 'not a choice: the default');
  assert.equal(readState(q('heads=9')).heads, 4, 'clamped to 4');
  assert.equal(readState(q('gqa=yes')).gqa, false);
  assert.equal(readState(q('causal=no')).causal, true, 'only causal=0 turns the mask off');
  assert.equal(readState(q('seed=2147483647')).seed, 2147483647);
  assert.equal(readState(q('seed=99999999999')).seed, 2147483647);
  assert.equal(readState(q('seed=-5')).seed, 0);
  assert.deepEqual(writeState({ heads: 4, gqa: true, seed: 9, causal: false }), { mode: 'multihead-lab', heads: 4, gqa: 1, seed: 9, causal: 0 });
  assert.deepEqual(writeState(d), { mode: 'multihead-lab', heads: 2, gqa: 0, seed: 1, causal: 1 });
});

test('headWeights: half as many K/V heads with GQA (never fewer than one), dk = d / heads, drawn from mulberry32(seed·7919 + heads)', () => {
  const sizes = (s) => { const w = headWeights(s, 4); return [w.kvHeads, w.dk, w.Wq.length, w.Wk.length, w.Wv.length, w.Wq[0].length, w.Wq[0][0].length]; };
  assert.deepEqual(sizes({ heads: 1, gqa: true, seed: 1 }), [1, 4, 1, 1, 1, 4, 4]);
  assert.deepEqual(sizes({ heads: 2, gqa: true, seed: 1 }), [1, 2, 2, 1, 1, 4, 2]);
  assert.deepEqual(sizes({ heads: 2, gqa: false, seed: 1 }), [2, 2, 2, 2, 2, 4, 2]);
  assert.deepEqual(sizes({ heads: 4, gqa: true, seed: 1 }), [2, 1, 4, 2, 2, 4, 1]);
  // The recipe a seed in the URL stands for: 1.5 × standard normals, Wq of each head, then Wk, then Wv.
  const w = headWeights({ heads: 2, gqa: true, seed: 3 }, 4);
  const rand = mulberry32(3 * 7919 + 2);
  const draw = () => Array.from(normals(rand, 8), (x) => Math.fround(1.5 * x));
  const flat = (rows) => rows.flat();
  assert.deepEqual(flat(w.Wq[0]), draw());
  assert.deepEqual(flat(w.Wq[1]), draw());
  assert.deepEqual(flat(w.Wk[0]), draw());
  assert.deepEqual(flat(w.Wv[0]), draw());
  assert.notDeepEqual(headWeights({ heads: 2, gqa: true, seed: 4 }, 4).Wq, w.Wq, 'another seed, other weights');
});

test('computeMultiHead: the concatenated output is each head’s O side by side, and the core’s multiHead gives the same', () => {
  for (const [heads, gqa] of [[1, false], [2, false], [2, true], [4, true]]) {
    const x = computeMultiHead(attn, { heads, gqa, seed: 1, causal: true });
    assert.deepEqual([x.n, x.d, x.dk, x.dv, x.heads], [5, 4, 4 / heads, 4 / heads, heads]);
    assert.equal(x.group, x.heads / x.kvHeads);
    assert.deepEqual(x.perHead.map((p) => p.kv), Array.from({ length: heads }, (_, h) => Math.floor(h / x.group)));
    assert.equal(x.concatOneByOne.length, 5 * 4);
    for (let t = 0; t < 5; t++) {
      for (let h = 0; h < heads; h++) {
        for (let c = 0; c < x.dk; c++) {
          const o = x.perHead[h].r.O[t * x.dk + c]; // the head's long form
          assert.ok(Math.abs(x.concatOneByOne[t * 4 + h * x.dk + c] - o) < 1e-6, `token ${t + 1}, head ${h + 1}, column ${c + 1}`);
          // multiHead runs the fused form on every head: the heads' fused O side by side, bit for bit
          assert.equal(x.concat[t * 4 + h * x.dk + c], x.concatOneByOne[t * 4 + h * x.dk + c]);
        }
      }
    }
    assert.ok(x.concatOneByOne.some((v) => v !== 0));
    // heads of one group share K and V
    for (const p of x.perHead) assert.deepEqual(p.r.K, x.perHead[p.kv * x.group].r.K);
  }
  // with the mask the first token sees only itself: its output is its own value, in every head
  const x = computeMultiHead(attn, { heads: 2, gqa: false, seed: 1, causal: true });
  for (const p of x.perHead) assert.deepEqual(Array.from(p.r.O.subarray(0, 2)), Array.from(p.r.V.subarray(0, 2)));
  const free = computeMultiHead(attn, { heads: 2, gqa: false, seed: 1, causal: false });
  assert.ok(free.perHead.every((p) => !p.r.causal) && x.perHead.every((p) => p.r.causal));
});

test('shapes: every line for 1, 2 and 4 heads, with and without grouped-query attention', () => {
  assert.deepEqual(computeMultiHead(attn, { heads: 2, gqa: false, seed: 1, causal: true }).shapes, [
    'X: (n, d) = (5, 4): 5 tokens, model width 4.',
    '2 heads, each of width dk = dv = d / heads = 4 / 2 = 2.',
    'Per head: Wq (d, dk) = (4, 2); Q = X·Wq (n, dk) = (5, 2).',
    'Per head: Wk, Wv (4, 2); K, V (5, 2).',
    'Per head: scores S = Q·Kᵀ/√dk with √dk = √2 = 1.414, and weights A (n, n) = (5, 5); output O = A·V (n, dv) = (5, 2).',
    'Concatenated: (n, heads·dv) = (5, 2·2) = (5, 4); a learned output projection Wo (4, 4) then mixes the heads back to width d (not shown).',
  ]);
  assert.deepEqual(shapes({ n: 5, d: 4, dk: 4, heads: 1, kvHeads: 1 }).slice(1, 4), [
    '1 head, of width dk = dv = d / heads = 4 / 1 = 4.',
    'Per head: Wq (d, dk) = (4, 4); Q = X·Wq (n, dk) = (5, 4).',
    'Per head: Wk, Wv (4, 4); K, V (5, 4).',
  ]);
  assert.deepEqual(shapes({ n: 5, d: 4, dk: 1, heads: 4, kvHeads: 2 }).slice(3), [
    'Grouped-query attention: 2 key/value heads, each shared by a group of 2 query heads: Wk, Wv (4, 1); K, V (5, 1).',
    'Per head: scores S = Q·Kᵀ/√dk with √dk = √1 = 1.000, and weights A (n, n) = (5, 5); output O = A·V (n, dv) = (5, 1).',
    'Concatenated: (n, heads·dv) = (5, 4·1) = (5, 4); a learned output projection Wo (4, 4) then mixes the heads back to width d (not shown).',
  ]);
  assert.equal(shapes({ n: 5, d: 4, dk: 2, heads: 2, kvHeads: 1 })[3], 'Grouped-query attention: 1 key/value head, shared by a group of 2 query heads (one K/V head for every query head: the special case called multi-query attention): Wk, Wv (4, 2); K, V (5, 2).');
  assert.equal(shapes({ n: 3, d: 8, dk: 2, heads: 4, kvHeads: 1 })[3], 'Grouped-query attention: 1 key/value head, shared by a group of 4 query heads (one K/V head for every query head: the special case called multi-query attention): Wk, Wv (8, 2); K, V (3, 2).');
});

// ---------------------------------------------------------------- random.js

test('mulberry32 and normals: reproducible, count numbers from count draws (rounded up to even), mean 0 and variance 1', () => {
  const a = mulberry32(42), b = mulberry32(42);
  const first = Array.from({ length: 6 }, () => b());
  assert.ok(first.every((u) => u >= 0 && u < 1));
  assert.equal(normals(a, 4).length, 4);
  assert.equal(a(), first[4], 'four normals take four draws');
  const c = mulberry32(42);
  assert.equal(normals(c, 3).length, 3);
  assert.equal(c(), first[4], 'three normals take four draws too (a pair at a time)');
  // Box–Muller from the first pair: √(−2 ln(1 − u)) · cos(2πv), and · sin(2πv) for the second
  const [u, v] = first;
  const n = normals(mulberry32(42), 2);
  const r = Math.sqrt(-2 * Math.log(1 - u));
  assert.equal(n[0], Math.fround(r * Math.cos(2 * Math.PI * v)));
  assert.equal(n[1], Math.fround(r * Math.sin(2 * Math.PI * v)));
  const big = normals(mulberry32(7), 20001);
  for (const part of [big.filter((_, k) => k % 2 === 0), big.filter((_, k) => k % 2 === 1)]) {
    const mean = part.reduce((s, x) => s + x, 0) / part.length;
    const variance = part.reduce((s, x) => s + (x - mean) ** 2, 0) / part.length;
    assert.ok(Math.abs(mean) < 0.05 && Math.abs(variance - 1) < 0.05, `mean ${mean}, variance ${variance}`);
  }
  assert.ok(Number.isFinite(big[20000]));
});

test('intParam and oneOf: a whole number within bounds, a choice, or the fallback', () => {
  assert.equal(intParam(q(''), 'k', 0, 9, 5), 5);
  assert.equal(intParam(q('k=null'), 'k', 0, 9, 5), 5);
  assert.equal(intParam(q('k=7'), 'k', 0, 9, 5), 7);
  assert.equal(intParam(q('k=-3'), 'k', -5, 9, 5), -3);
  assert.equal(intParam(q('k=12'), 'k', 0, 9, 5), 9);
  assert.equal(intParam(q('k=1.5'), 'k', 0, 9, 5), 5);
  assert.equal(oneOf(q('k=b'), 'k', ['a', 'b'], 'a'), 'b');
  assert.equal(oneOf(q('k=c'), 'k', ['a', 'b'], 'a'), 'a');
  assert.equal(oneOf(q(''), 'k', ['a', 'b'], 'b'), 'b');
});
