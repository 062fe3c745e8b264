// Node tests of the tile lab's pure module (web/labs/tiles.js) and of the core's walk under it
// (attn.tileWalk, c/attention.c attn_tile_step): the walk's O is the long form's and the fused
// form's, every step keeps each row's running state, and every sentence follows the numbers.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import {
  MODE, HEADS, RANDOM, RANDOM_N, QUERY_TILES, KEY_TILES, defaultState, readState, writeState, headOf, computeTiles,
  whereSentence, rowSentences, memory, memorySentence, endSentence, explainTileCell, tileMap, summary,
} from '../../web/labs/tiles.js';
import { queryOf } from '../../web/labs/mount.js';
import { fmt } from '../../web/blocks/format.js';

let attn;
before(async () => { attn = await loadAttention({ core: 'trainer' }); });

const maxDiff = (a, b) => a.reduce((d, x, i) => Math.max(d, Math.abs(x - b[i])), 0);

test('URL state: head, tile sizes, step and seed round-trip; a value the lab does not offer falls back', () => {
  const s = { head: RANDOM, q: 4, k: 16, step: 7, seed: 9 };
  assert.deepEqual(readState(new URLSearchParams(queryOf(writeState(s)))), s);
  const d = defaultState();
  for (const q of ['q=3', 'q=abc', 'q=1e9', 'q=99']) assert.equal(readState(new URLSearchParams(q)).q, d.q, q);
  assert.equal(readState(new URLSearchParams('head=no-such-head-here')).head, d.head);
  assert.equal(writeState(d).mode, MODE);
  assert.equal('seed' in writeState({ ...d, seed: 5 }), false, 'a preset has no seed');
});

test('on every head, with every tile size, the walk’s O is the long form’s and the fused form’s to float32 rounding; the core computes every tile a row needs and skips only those the causal mask hides wholly', () => {
  for (const head of HEADS) {
    for (const q of QUERY_TILES) {
      for (const k of KEY_TILES) {
        if (head === RANDOM && q * k < 16) continue; // (thousands of tiles: the larger sizes cover the random head)
        const x = computeTiles(attn, { head, q, k, step: 0, seed: 1 });
        const label = `${head}, ${q} × ${k}`;
        assert.ok(x.fromLong <= 1e-6 && x.fromFused <= 1e-6, `${label}: ${x.fromLong}, ${x.fromFused}`);
        const { args } = headOf({ head, q, k, step: 0, seed: 1 });
        for (const t of x.walk.steps) {
          const lastRow = t.q0 + t.rows - 1;
          assert.equal(t.skipped, Boolean(args.causal) && t.k0 > lastRow, `${label}: tile ${t.q0}, ${t.k0}`);
          if (t.skipped) continue;
          for (const part of [t.before, t.after]) assert.deepEqual([part.max.length, part.sum.length, part.out.length], [t.rows, t.rows, t.rows * x.walk.dv]);
          assert.deepEqual([t.z.length, t.p.length, t.alpha.length], [t.rows * t.keys, t.rows * t.keys, t.rows]);
        }
      }
    }
  }
});

test('each step’s numbers are the online softmax’s: m is the running maximum, α = exp(m_old − m_new), l = α·l_old + Σ p, p = exp(z − m), and z is the long form’s S plus its mask', () => {
  const x = computeTiles(attn, { head: RANDOM, q: 4, k: 8, step: 0, seed: 3 });
  const { long } = x;
  for (const t of x.walk.steps.filter((s) => !s.skipped)) {
    for (let r = 0; r < t.rows; r++) {
      const i = t.q0 + r, z = Array.from(t.z.subarray(r * t.keys, (r + 1) * t.keys));
      assert.equal(t.after.max[r], Math.max(t.before.max[r], ...z));
      if (t.before.max[r] !== -Infinity) assert.ok(Math.abs(t.alpha[r] - Math.exp(t.before.max[r] - t.after.max[r])) <= 1e-6);
      const sum = Array.from(t.p.subarray(r * t.keys, (r + 1) * t.keys)).reduce((a, v) => a + v, 0);
      assert.ok(Math.abs(t.after.sum[r] - (t.alpha[r] * t.before.sum[r] + sum)) <= 1e-5 * t.after.sum[r]);
      for (let j = 0; j < t.keys; j++) {
        const key = t.k0 + j, S = long.S[i * long.m + key] + long.M[i * long.m + key];
        assert.ok(z[j] === S || Math.abs(z[j] - S) <= 1e-6 * (1 + Math.abs(S)), `z[${i}][${key}] ${z[j]} against S + M ${S}`);
        if (z[j] !== -Infinity) assert.ok(Math.abs(t.p[r * t.keys + j] - Math.exp(z[j] - t.after.max[r])) <= 1e-6);
      }
    }
  }
});

test('the sentences follow the numbers: where the walk is, a row’s first keys, a larger score arriving (α < 1), a maximum that stays (α = 1), skipped tiles, ties with the long form', () => {
  // the worked example (3 tokens, no causal mask) in tiles of 2 × 2: every tile computed
  const w = (step) => computeTiles(attn, { head: 'worked-example', q: 2, k: 2, step, seed: 1 });
  const first = w(0);
  assert.match(summary(first), /3 queries against 3 keys, in tiles of 2 queries × 2 keys: 4 tiles, every one computed\./);
  assert.match(whereSentence(first), /^Tile 1 of the 4 the core computes: queries 1 and 2 \(“1”, “2”\) against keys 1 and 2 \(“1”, “2”\)\.$/);
  assert.match(rowSentences(first)[0], /^Row 1 \(“1”\): its first keys: the largest score m is /);
  // every row sentence says α from the step's own numbers
  for (let step = 0; step < first.run; step++) {
    const x = w(step), t = x.walk.steps[x.step];
    rowSentences(x).forEach((line, r) => {
      if (t.before.max[r] === -Infinity) assert.match(line, /its first keys/);
      else if (t.after.max[r] > t.before.max[r]) assert.match(line, new RegExp(`a larger score arrives: m goes from ${fmt(t.before.max[r])} to ${fmt(t.after.max[r])}, so α = exp\\(.*\\) = ${fmt(t.alpha[r])}`));
      else assert.match(line, new RegExp(`m stays ${fmt(t.after.max[r])} \\(α = 1\\)`));
    });
  }
  // both kinds happen on this head
  const lines = Array.from({ length: first.run }, (_, s) => rowSentences(w(s))).flat().join(' ');
  assert.match(lines, /a larger score arrives/);
  // cat, causal: the summary counts the skipped tiles, the map shows them, and stepping never lands on one
  const cat = computeTiles(attn, { head: 'cat', q: 2, k: 2, step: 99, seed: 1 });
  assert.match(summary(cat), /9 tiles, of which the core computes 6 and skips 3, wholly hidden by the causal mask/);
  assert.equal(cat.pos, cat.run - 1, 'a step past the end is the last tile');
  assert.equal(cat.walk.steps[cat.step].skipped, false);
  assert.equal(tileMap(cat).flat().filter((c) => c.kind === 'skipped').length, cat.skipped);
  assert.match(endSentence(cat), /^That was the last tile/);
  assert.match(endSentence({ ...cat, pos: 0 }), /^After all 6 tiles the core computes \(and the 3 it skips\)/);
  assert.match(endSentence({ ...cat, fromLong: 0, fromFused: 0 }), /largest difference 0, the same to the last bit; .*: 0, the same to the last bit\. The sums run in another order, yet here they round alike\.$/);
  assert.match(endSentence({ ...cat, fromLong: 1.5e-8, fromFused: 0 }), /largest difference 1\.5e-8; .* so they agree to float32 rounding\.$/);
});

test('hovering a number says its arithmetic with the core’s values; the memory held is the running state and one tile, far below n × n', () => {
  const x = computeTiles(attn, { head: 'cat', q: 2, k: 2, step: 3, seed: 1 });
  const t = x.walk.steps[x.step];
  assert.match(explainTileCell(x, 'z', 0, 0), new RegExp(`= ${fmt(t.z[0])} \\(S\\[${t.q0 + 1}\\]\\[${t.k0 + 1}\\] = ${fmt(x.long.S[t.q0 * x.long.m + t.k0])} in the long form\\)\\.$`));
  assert.match(explainTileCell(x, 'p', 0, 0), new RegExp(`= exp\\(${fmt(t.z[0])} − ${fmt(t.after.max[0])}\\) = ${fmt(t.p[0])}`));
  assert.match(explainTileCell(x, 'l', 1), new RegExp(`= ${fmt(t.after.sum[1])}\\.$`));
  assert.match(explainTileCell(x, 'alpha', 0), new RegExp(`= ${fmt(t.alpha[0])}: `));
  assert.match(explainTileCell(x, 'out', 1, 0), new RegExp(`= ${fmt(t.after.out[x.walk.dv])}`));
  const hidden = computeTiles(attn, { head: 'cat', q: 2, k: 2, step: 0, seed: 1 }); // key 2 comes after query 1
  assert.match(explainTileCell(hidden, 'z', 0, 1), /comes after query 1: the causal mask hides it/);
  const big = computeTiles(attn, { head: RANDOM, q: 4, k: 8, step: 0, seed: 1 });
  const k = memory(big);
  assert.equal(k.held, (RANDOM_N * (2 + big.walk.dv) + 2 * 4 * 8) * 4);
  assert.ok(k.held < k.square, `${k.held} held against ${k.square} for S`);
  assert.match(memorySentence(big), new RegExp(`The long form keeps S alone as ${RANDOM_N} × ${RANDOM_N} = ${RANDOM_N * RANDOM_N} numbers`));
});

test('the walk needs the trainer or full core, and says so; tile sizes past the core’s are refused with the range', async () => {
  const forward = await loadAttention({ core: 'forward' });
  const { args } = headOf(defaultState());
  assert.throws(() => forward.tileWalk(args, { queryTile: 2, keyTile: 2 }), /needs the trainer or the full core: loadAttention\(\{ core: 'trainer' \}\)/);
  assert.throws(() => attn.tileWalk(args, { queryTile: 0, keyTile: 2 }), /queryTile is 0: it must be a whole number from 1 to \d+/);
  assert.throws(() => attn.tileWalk(args, { queryTile: 2, keyTile: 1e6 }), /keyTile is 1000000: it must be a whole number from 1 to \d+/);
  forward.dispose();
});
