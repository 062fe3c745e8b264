// Node tests of the tile lab's pure module (web/labs/tiles.js) and of the core's walk under it
// (attn.tileWalk, c/attention.c attn_tile_step): the walk's O is the long form's and the fused
// form's, every step keeps each row's running state, and every sentence follows the numbers.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import {
  MODE, HEADS, RANDOM, RANDOM_N, RANDOM_D, QUERY_TILES, KEY_TILES, defaultState, readState, writeState, headOf, computeTiles,
  shownTile, whereSentence, rowSentences, memory, memorySentence, endSentence, explainTileCell, tileMap, summary,
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
  assert.match(memorySentence(big), new RegExp(`The long form keeps S alone as ${RANDOM_N} × ${RANDOM_N} = ${(RANDOM_N * RANDOM_N).toLocaleString('en-US')} numbers`));
});

test('the walk needs the trainer or full core, and says so; tile sizes past the core’s are refused with the range', async () => {
  const forward = await loadAttention({ core: 'forward' });
  const { args } = headOf(defaultState());
  assert.throws(() => forward.tileWalk(args, { queryTile: 2, keyTile: 2 }), /needs the trainer or the full core: loadAttention\(\{ core: 'trainer' \}\)/);
  assert.throws(() => attn.tileWalk(args, { queryTile: 0, keyTile: 2 }), /queryTile is 0: it must be a whole number from 1 to \d+/);
  assert.throws(() => attn.tileWalk(args, { queryTile: 2, keyTile: 1e6 }), /keyTile is 1000000: it must be a whole number from 1 to \d+/);
  forward.dispose();
});

// ---------------------------------------------------------------- the exact words, from the numbers

const fmtRow = (t, what, r) => fmt(t[what][r]);

test('the exact sentences of a tile in which one row sees none of its keys and the other keeps its maximum (cat, 2 queries × 1 key, the second tile)', () => {
  const x = computeTiles(attn, { head: 'cat', q: 2, k: 1, step: 1, seed: 1 });
  const t = shownTile(x);
  assert.deepEqual([t.q0, t.rows, t.k0, t.keys], [0, 2, 1, 1]);
  assert.equal(summary(x), `The cat sat on the: 5 queries against 5 keys, in tiles of 2 queries × 1 key: ${x.walk.steps.length} tiles, of which the core computes ${x.run} and skips ${x.skipped}, wholly hidden by the causal mask.`);
  assert.equal(whereSentence(x), `Tile 2 of the ${x.run} the core computes: queries 1 and 2 (“The”, “cat”) against key 2 (“cat”).`);
  assert.deepEqual(rowSentences(x), [
    'Row 1 (“The”) sees none of these keys: m, l and its output stay as they were.',
    `Row 2 (“cat”): m stays ${fmt(t.after.max[1])} (α = 1); l grows from ${fmt(t.before.sum[1])} to ${fmt(t.after.sum[1])}, and the output so far is multiplied by l_old ÷ l_new = ${fmt(t.rescale[1])} before this tile’s share is added.`,
  ]);
  assert.equal(t.after.max[1], t.before.max[1]);
  const dv = x.walk.dv, state = 5 * (2 + dv), held = (state + 2 * 2 * 1) * 4;
  assert.equal(memorySentence(x), `Held now: every row’s m, l and output so far (5 × (2 + ${dv}) = ${state} numbers) and one tile’s z and p (2 × 2 × 1 = 4): ${held} bytes. The long form keeps S alone as 5 × 5 = 25 numbers (100 bytes), and as many again in M and A.`);
  // a hidden key, for z and p alike; the row's m, l, α and rescale unchanged by a tile it does not see
  for (const what of ['z', 'p']) assert.equal(explainTileCell(x, what, 0, 0), `${what}[1][2]: key 2 (“cat”) comes after query 1: the causal mask hides it (z = −∞, p = exp(−∞) = 0).`);
  assert.equal(explainTileCell(x, 'm', 0), `m of row 1 (“The”) = max(m before, this tile’s largest z) = max(${fmt(t.before.max[0])}, −∞) = ${fmt(t.after.max[0])}.`);
  assert.equal(explainTileCell(x, 'alpha', 0), `α of row 1 (“The”) = exp(m_old − m_new) = exp(${fmt(t.before.max[0])} − ${fmt(t.after.max[0])}) = 1.000: the largest score stayed, nothing shrinks.`);
  assert.equal(explainTileCell(x, 'l', 0), `l of row 1 (“The”) = α × l_old + Σ p = 1.000 × ${fmt(t.before.sum[0])} + 0.000 = ${fmt(t.after.sum[0])}.`);
  assert.equal(explainTileCell(x, 'rescale', 0), `The output so far of row 1 (“The”) is multiplied by α × l_old ÷ l_new = 1.000 × ${fmt(t.before.sum[0])} ÷ ${fmt(t.after.sum[0])} = ${fmt(t.rescale[0])}, so that it stays an average once this tile’s keys join.`);
  // the second row's own key: z is q·k × scale, the long form's S
  const L = x.long, z = t.z[1], terms = Array.from({ length: Math.min(L.dk, 4) }, (_, c) => `${fmt(L.Q[L.dk + c])}×${fmt(L.K[L.dk + c])}`).join(' + ') + (L.dk > 4 ? ' + …' : '');
  assert.equal(explainTileCell(x, 'z', 1, 0), `z[2][2] = q2·k2 × scale = (${terms}) × ${fmt(L.scale)} = ${fmt(z)} (S[2][2] = ${fmt(L.S[L.m + 1])} in the long form).`);
  assert.equal(explainTileCell(x, 'p', 1, 0), `p[2][2] = exp(z − m) = exp(${fmt(z)} − ${fmt(t.after.max[1])}) = ${fmt(t.p[1])}: this key’s weight before it is divided by l = ${fmt(t.after.sum[1])}, which gives ${fmt(t.p[1] / t.after.sum[1])} of this tile’s share.`);
  assert.throws(() => shownTile({ ...x, step: x.walk.steps.findIndex((s) => s.skipped) }), /a tile the core skips, which computeTiles never shows/);
});

test('the exact sentences of a row’s first tile and of a larger score arriving; a tile of more than 4 rows names no tokens; the last tile quotes O', () => {
  const w = computeTiles(attn, { head: 'worked-example', q: 1, k: 1, step: 0, seed: 1 });
  const t = shownTile(w);
  assert.equal(summary(w), 'The lesson’s worked example: 3 queries against 3 keys, in tiles of 1 query × 1 key: 9 tiles, every one computed.');
  assert.equal(whereSentence(w), 'Tile 1 of the 9 the core computes: query 1 (“1”) against key 1 (“1”).');
  assert.deepEqual(rowSentences(w), [`Row 1 (“1”): its first keys: the largest score m is ${fmt(t.after.max[0])}, l = 1.000, and its output so far is this tile’s average of 1 value.`]);
  assert.equal(explainTileCell(w, 'alpha', 0), `α of row 1 (“1”) = exp(m_old − m_new) = exp(−∞ − ${fmt(t.after.max[0])}) = 0.000: nothing was there before.`);
  assert.equal(explainTileCell(w, 'out', 0, 1), `out[1][2] = rescale × out_old + Σ (p ÷ l)·v = 0.000 × 0.000 + ${fmt(w.long.V[1])} = ${fmt(t.after.out[1])}.`);
  assert.equal(endSentence(w), 'After all 9 tiles the core computes, each row’s output is its row of O. The walk’s O against the long form’s (S, A, then A·V): largest difference 0, the same to the last bit; against the core’s fused form (tiles of 4 queries and more keys): 0, the same to the last bit. The sums run in another order, yet here they round alike.');
  const last = computeTiles(attn, { head: 'worked-example', q: 1, k: 1, step: 8, seed: 1 }), lt = shownTile(last);
  for (const c of [0, 1]) {
    const dv = last.long.dv;
    assert.equal(explainTileCell(last, 'out', 0, c), `out[3][${c + 1}] = rescale × out_old + Σ (p ÷ l)·v = ${fmt(lt.rescale[0])} × ${fmt(lt.before.out[c])} + ${fmt((lt.p[0] / lt.after.sum[0]) * last.long.V[2 * dv + c])} = ${fmt(lt.after.out[c])}; O[3][${c + 1}] = ${fmt(last.long.O[2 * dv + c])} in the long form.`);
  }

  // the random head in tiles of 8 × 8: the third tile computed is queries 9 to 16 against keys 9 to 16
  const x = computeTiles(attn, { head: RANDOM, q: 8, k: 8, step: 2, seed: 1 }), r8 = shownTile(x);
  assert.equal(whereSentence(x), `Tile 3 of the ${x.run} the core computes: queries 9 to 16 against keys 9 to 16.`);
  const larger = rowSentences(x).map((line, r) => [line, r]).filter(([, r]) => r8.after.max[r] > r8.before.max[r]);
  assert.ok(larger.length > 0, 'a larger score arrives in some row');
  for (const [line, r] of larger) {
    assert.equal(line, `Row ${9 + r} (“t${9 + r}”): a larger score arrives: m goes from ${fmtRow(r8.before, 'max', r)} to ${fmtRow(r8.after, 'max', r)}, so α = exp(${fmtRow(r8.before, 'max', r)} − ${fmtRow(r8.after, 'max', r)}) = ${fmt(r8.alpha[r])} shrinks what it had; l goes from ${fmtRow(r8.before, 'sum', r)} to ${fmtRow(r8.after, 'sum', r)}, and the output so far is multiplied by α·l_old ÷ l_new = ${fmt(r8.rescale[r])} before this tile’s share is added.`);
    assert.equal(explainTileCell(x, 'alpha', r), `α of row ${9 + r} (“t${9 + r}”) = exp(m_old − m_new) = exp(${fmtRow(r8.before, 'max', r)} − ${fmtRow(r8.after, 'max', r)}) = ${fmt(r8.alpha[r])}: what the row had is scaled down to the new largest score.`);
    const zs = r8.z.subarray(r * 8, r * 8 + 8);
    assert.equal(explainTileCell(x, 'm', r), `m of row ${9 + r} (“t${9 + r}”) = max(m before, this tile’s largest z) = max(${fmtRow(r8.before, 'max', r)}, ${fmt(Math.max(...zs))}) = ${fmtRow(r8.after, 'max', r)}.`);
    const sum = Array.from(r8.p.subarray(r * 8, r * 8 + 8)).reduce((s, v) => s + v, 0);
    assert.equal(explainTileCell(x, 'l', r), `l of row ${9 + r} (“t${9 + r}”) = α × l_old + Σ p = ${fmt(r8.alpha[r])} × ${fmtRow(r8.before, 'sum', r)} + ${fmt(sum)} = ${fmtRow(r8.after, 'sum', r)}.`);
  }
  // the random head: its tokens, its size and its seed
  const head = headOf({ head: RANDOM, q: 8, k: 8, step: 0, seed: 5 });
  assert.deepEqual([head.tokens[0], head.tokens[RANDOM_N - 1], head.tokens.length], ['t1', `t${RANDOM_N}`, RANDOM_N]);
  assert.equal(head.title, `${RANDOM_N} random tokens (seed 5)`);
  assert.deepEqual(head.args.Q.shape, [RANDOM_N, RANDOM_D]);
  assert.equal(head.args.causal, true);
  assert.notDeepEqual(head.args.Q.data, headOf({ head: RANDOM, q: 8, k: 8, step: 0, seed: 6 }).args.Q.data);
  assert.deepEqual(writeState({ head: RANDOM, q: 8, k: 8, step: 0, seed: 5 }).seed, 5);
  assert.equal('seed' in writeState({ head: RANDOM, q: 8, k: 8, step: 0, seed: 1 }), false, 'the default seed is left out of the link');
  assert.equal(readState(new URLSearchParams(`head=${RANDOM}&seed=${2 ** 31 - 1}`)).seed, 2 ** 31 - 1);
});

test('the map marks each tile done, current, still to come or skipped, in the core’s order, and a step button goes to its place in the walk', () => {
  const x = computeTiles(attn, { head: 'cat', q: 2, k: 2, step: 2, seed: 1 });
  const map = tileMap(x), cells = map.flat();
  assert.deepEqual(cells.map((c) => c.step), x.walk.steps.map((_, s) => s));
  assert.deepEqual(map.map((row) => row[0].k0), map.map(() => 0), 'each row of the map starts at key 0');
  for (const c of cells) {
    const t = x.walk.steps[c.step];
    assert.deepEqual([c.q0, c.k0, c.rows, c.keys], [t.q0, t.k0, t.rows, t.keys]);
    assert.equal(c.kind, t.skipped ? 'skipped' : c.step === x.step ? 'current' : c.step < x.step ? 'done' : 'todo');
    assert.equal(c.pos, t.skipped ? -1 : x.order.indexOf(c.step));
  }
  assert.deepEqual(['done', 'current', 'todo', 'skipped'].map((k) => cells.some((c) => c.kind === k)), [true, true, true, true]);
});

test('every number of a tile is explained at its own row, key and column (not only the first), with dk past 4 cut to “…”, a mask added when there is one, and the walk’s differences its largest', () => {
  const x = computeTiles(attn, { head: RANDOM, q: 8, k: 8, step: 2, seed: 1 }), t = shownTile(x), L = x.long, dk = L.dk, dv = L.dv;
  for (const [r, j] of [[1, 3], [3, 1], [6, 4], [7, 5], [7, 0]]) { // (the tile is on the diagonal: the first is hidden)
    const i = t.q0 + r, key = t.k0 + j, z = t.z[r * t.keys + j];
    if (z === -Infinity) {
      assert.match(explainTileCell(x, 'z', r, j), new RegExp(`^z\\[${i + 1}\\]\\[${key + 1}\\]: key ${key + 1} \\(“t${key + 1}”\\) comes after query ${i + 1}`));
      continue;
    }
    const terms = Array.from({ length: 4 }, (_, c) => `${fmt(L.Q[i * dk + c])}×${fmt(L.K[key * dk + c])}`).join(' + ');
    assert.equal(explainTileCell(x, 'z', r, j), `z[${i + 1}][${key + 1}] = q${i + 1}·k${key + 1} × scale = (${terms} + …) × ${fmt(L.scale)} = ${fmt(z)} (S[${i + 1}][${key + 1}] = ${fmt(L.S[i * L.m + key])} in the long form).`);
    assert.equal(explainTileCell(x, 'p', r, j), `p[${i + 1}][${key + 1}] = exp(z − m) = exp(${fmt(z)} − ${fmt(t.after.max[r])}) = ${fmt(t.p[r * t.keys + j])}: this key’s weight before it is divided by l = ${fmt(t.after.sum[r])}, which gives ${fmt(t.p[r * t.keys + j] / t.after.sum[r])} of this tile’s share.`);
    const share = Array.from({ length: t.keys }, (_, k) => (t.p[r * t.keys + k] / t.after.sum[r]) * L.V[(t.k0 + k) * dv + 2]).reduce((a, v) => a + v, 0);
    assert.equal(explainTileCell(x, 'out', r, 2), `out[${i + 1}][3] = rescale × out_old + Σ (p ÷ l)·v = ${fmt(t.rescale[r])} × ${fmt(t.before.out[r * dv + 2])} + ${fmt(share)} = ${fmt(t.after.out[r * dv + 2])}.`);
    assert.equal(explainTileCell(x, 'm', r), `m of row ${i + 1} (“t${i + 1}”) = max(m before, this tile’s largest z) = max(${fmt(t.before.max[r])}, ${fmt(Math.max(...t.z.subarray(r * t.keys, (r + 1) * t.keys)))}) = ${fmt(t.after.max[r])}.`);
    const sum = Array.from(t.p.subarray(r * t.keys, (r + 1) * t.keys)).reduce((a, v) => a + v, 0);
    assert.equal(explainTileCell(x, 'l', r), `l of row ${i + 1} (“t${i + 1}”) = α × l_old + Σ p = ${fmt(t.alpha[r])} × ${fmt(t.before.sum[r])} + ${fmt(sum)} = ${fmt(t.after.sum[r])}.`);
  }
  // a mask other than the causal one (no head of the lab has one yet): its value is added in words too
  const r = 1, j = 0, i = t.q0 + r, key = t.k0 + j, M = new Float32Array(L.M);
  M[i * L.m + key] = 0.5;
  assert.match(explainTileCell({ ...x, long: { ...L, M } }, 'z', r, j), new RegExp(`^z\\[${i + 1}\\]\\[${key + 1}\\] = q${i + 1}·k${key + 1} × scale \\+ mask = \\(.* \\+ …\\) × ${fmt(L.scale)} \\+ 0\\.500 = `));
  // the differences are the largest over every output
  assert.equal(x.fromLong, maxDiff(x.walk.O, x.long.O));
  assert.equal(x.fromFused, maxDiff(x.walk.O, x.walk.fusedO));
  assert.match(endSentence({ ...x, fromLong: 0, fromFused: 2e-8 }), /largest difference 0, the same to the last bit; .*: 2\.0e-8\. The sums run in another order, so they agree to float32 rounding\.$/);
  // four rows are named, five are not
  const four = computeTiles(attn, { head: 'cat', q: 4, k: 4, step: 0, seed: 1 });
  assert.equal(whereSentence(four), `Tile 1 of the ${four.run} the core computes: queries 1 to 4 (“The”, “cat”, “sat”, “on”) against keys 1 to 4 (“The”, “cat”, “sat”, “on”).`);
  // a seed past 2³¹ − 1 is brought back to it
  assert.equal(readState(new URLSearchParams(`head=${RANDOM}&seed=${2 ** 31}`)).seed, 2 ** 31 - 1);
});
