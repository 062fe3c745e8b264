// The geometry view's numbers and words (web/explorer/geometry.js) and the state actions behind a
// drag (web/explorer/state.js setRow, setGeometry), in Node: every number comes from the core's
// result, a drag is an edit of the head like any other, and each teaching sentence says what it
// says only where the numbers make it true.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { loadAttention } from '../../web/core/attention.js';
import { computeView } from '../../web/explorer/mount.js';
import { parseConfig, forwardArgs, readUrlState, readPlanes, writePlanes } from '../../web/blocks/config.js';
import { PRESETS } from '../../web/blocks/presets.js';
import { fmt } from '../../web/blocks/format.js';
import * as S from '../../web/explorer/state.js';
import * as G from '../../web/explorer/geometry.js';
import { agreement, noBlanks, typography } from '../sentence-rules.mjs';

const attn = await loadAttention({ core: 'forward' });
const FIRST = { qk: [0, 1], v: [0, 1] };

/** The state of a preset with the geometry view open, and the picture of row i. */
function shown(preset) {
  const state = S.createState();
  S.setPreset(state, preset);
  S.setGeometry(state, true);
  return state;
}
/** @param {any} state @param {number} i */
function picture(state, i) {
  const view = computeView(attn, state.config, null);
  return G.geometryOf(view, i, G.fitPlanes(state.geometry ?? FIRST, view.r.dk, view.r.dv));
}
const direct = (Q, K, V, causal = false) => parseConfig({ tokens: Q.map((_, i) => String(i + 1)), Q, K, V, causal, scale: null });

test('the worked example reads as the lesson prints it: weights 0.401 0.198 0.401, O₁ = [1.604, 0.797], cos 45° for q₃·k₁', () => {
  const state = shown('worked-example');
  const g = picture(state, 0);
  assert.deepEqual(g.keys.map((k) => fmt(k.weight)), ['0.401', '0.198', '0.401']);
  assert.match(G.averagePrompt(g), /O₁ = 0\.401·v₁ \+ 0\.198·v₂ \+ 0\.401·v₃ = \[1\.604, 0\.797\]/);
  assert.match(G.querySentence(g, state.config.tokens), /largest weight is 0\.401, on k₁ and k₃ \(a tie\)/);
  const g3 = picture(state, 2);
  assert.match(G.explainArrow(g3, 'k', 0, state.config.tokens), /q₃·k₁ = \|q₃\| \|k₁\| cos θ = 1\.414 × 1\.000 × cos 45\.0° = 1\.000\. ÷ √2 gives the score S\[3\]\[1\] = 0\.707; after the softmax its weight is A\[3\]\[1\] = 0\.248/);
  assert.match(G.averagePrompt(g3), /\[1\.759, 1\.000\]/);
  // With the scaling switched off (key S), the score is q·k itself, and the words say so.
  S.toggleScaling(state);
  const off = picture(state, 2);
  assert.match(G.dotText(off, off.keys[0]), /= 1\.000\. × 1 \(the scaling is off\) gives the score S\[3\]\[1\] = 1\.000;/);
  assert.match(G.scalingPrompt(off), /^Scaling: scores are q·k × 1 \(the scaling is off\), so a longer q₃/);
  assert.match(G.planeSentences(g3).join(' '), /picture is exact/);
});

test('dragging k₂ to (0, 2) is one edit of K: the core’s S, A and O are forward() of the edited head, and the picture moves with them', () => {
  const state = shown('worked-example');
  const before = picture(state, 2);
  const e = G.dragEdit('k', 1, before.planes, { x: 0.04, y: 1.97 }, G.STEP); // a pointer lands near (0, 2): snapped
  assert.deepEqual(e, { m: 'K', i: 1, cols: [0, 1], values: [0, 2] });
  const change = S.setRow(state, e.m, e.i, e.cols, e.values);
  assert.equal(change.compute, true);
  assert.equal(change.url, true);
  assert.deepEqual(change.emit.map(([type]) => type), ['change']);
  assert.deepEqual(state.config.K, [[1, 0], [0, 2], [1, 1]]);
  assert.equal(state.preset, null);
  assert.match(S.urlOf(state), /geometry=on/);
  const view = computeView(attn, state.config, null);
  const ref = attn.forward(forwardArgs(direct([[1, 0], [0, 1], [1, 1]], [[1, 0], [0, 2], [1, 1]], [[1, 0], [0, 2], [3, 1]])));
  for (const m of ['S', 'A', 'O']) assert.deepEqual([...view.r[m]], [...ref[m]], m);
  const g = G.geometryOf(view, 2, before.planes);
  assert.deepEqual(g.keys[1].k, { x: 0, y: 2 });
  assert.equal(g.keys[1].dot, 2); // q₃·k₂ = [1, 1]·[0, 2]
  assert.ok(g.keys[1].weight > before.keys[1].weight);
  assert.equal(g.keys[1].weight, ref.A[2 * 3 + 1]);
  // Reset goes back to the preset, as after any edit.
  S.reset(state);
  assert.equal(state.preset, 'worked-example');
  assert.deepEqual(state.config.K, [[1, 0], [0, 1], [1, 1]]);
});

test('only a head given as Q, K and V drags: a projected head’s q is x·Wq, and no setRow edits Q, K or V there', () => {
  const state = shown('cat');
  assert.equal(S.editable(state).has('Q'), false);
  assert.equal(S.setRow(state, 'Q', 0, [0, 1], [1, 1]), null);
  const we = shown('worked-example');
  assert.equal(S.setRow(we, 'K', 0, [0, 1], [NaN, 1]), null);
  assert.equal(S.setRow(we, 'K', 0, [0, 5], [1, 1]), null, 'a column outside the head');
  assert.equal(S.setRow(we, 'K', 0, [0, 1], [1, 0]), null, 'the same numbers are no edit');
  const g = picture(state, 4);
  assert.match(G.scalingPrompt(g, null, false), /Make q₅ longer \(larger numbers in X or Wq\)/);
  assert.doesNotMatch(G.arrowLabel(g, 'q', 4, false), /arrow keys/);
  assert.match(G.arrowLabel(picture(we, 0), 'k', 1, true), /^k₂, key arrow, tip at \[0\.000, 1\.000\], weight 0\.198; arrow keys move it by 0\.1, with Shift by 0\.01; Enter shows S\[1\]\[2\]$/);
});

test('a plane of two of dk dimensions says what it hides, and a key’s q·k splits into the part drawn and the rest', () => {
  const state = shown('cat');
  const g = picture(state, 4);
  assert.equal(g.exact.qk, false);
  const said = G.planeSentences(g).join(' ');
  assert.match(said, /dk = 4 columns; the left plane shows dimensions 1 and 2, and the other 2 dimensions are not drawn/);
  assert.match(said, /dv = 4 columns/);
  for (const k of g.keys) {
    const text = G.dotText(g, k);
    assert.match(text, new RegExp(`Of it, ${fmt(k.shown)} comes from the two dimensions drawn and ${fmt(k.dot - k.shown)} from the other 2 dimensions`));
  }
  // dk = 3: one hidden dimension, in the singular; another pair of dimensions drawn.
  const three = direct([[1, 0, 2], [0, 1, 0]], [[1, 1, 1], [0, 2, 1]], [[1, 0, 0], [0, 1, 0]]);
  const view = computeView(attn, three, null);
  const g3 = G.geometryOf(view, 1, G.fitPlanes({ qk: [2, 0], v: [0, 1] }, 3, 3));
  assert.deepEqual(g3.q, { x: 0, y: 0 });
  assert.deepEqual(g3.keys[0].k, { x: 1, y: 1 });
  assert.match(G.planeSentences(g3)[0], /dimensions 3 and 1, and the other 1 dimension is not drawn/);
});

test('planes outside the head fall back to the first two dimensions; a width of 1 is a line', () => {
  assert.deepEqual(G.fitPlanes({ qk: [5, 1], v: [2, 2] }, 4, 4), FIRST);
  assert.deepEqual(G.fitPlanes({ qk: [3, 1], v: [0, 1] }, 4, 1), { qk: [3, 1], v: [0, -1] });
  const line = direct([[2], [1]], [[1], [-1]], [[3], [1]]);
  const view = computeView(attn, line, null);
  const g = G.geometryOf(view, 1, G.fitPlanes(FIRST, 1, 1));
  assert.deepEqual(g.q, { x: 1, y: 0 });
  assert.match(G.explainArrow(g, 'v', 0, line.tokens), /at \[3\.000\]/);
  assert.deepEqual(G.dragEdit('v', 0, g.planes, { x: 1.234, y: 9 }, G.FINE), { m: 'V', i: 0, cols: [0], values: [1.23] });
});

test('the link keeps the view and its planes; a geometry= it cannot read is said and left out', () => {
  assert.equal(writePlanes(FIRST), 'on');
  assert.equal(writePlanes({ qk: [2, 0], v: [1, 3] }), '2.0.1.3');
  assert.deepEqual(readPlanes('2.0.1.3'), { planes: { qk: [2, 0], v: [1, 3] } });
  assert.deepEqual(readPlanes('2.0'), { planes: { qk: [2, 0], v: [0, 1] } });
  assert.match(readPlanes('1.1').why, /two different dimensions/);
  assert.match(readPlanes('yes please').why, /counted from 0, as 0\.1\.0\.1/);
  const u = readUrlState('?preset=cat&geometry=2.0.1.3', '');
  assert.deepEqual(u.geometry, { qk: [2, 0], v: [1, 3] });
  const state = S.createState();
  S.fromUrl(state, u);
  assert.deepEqual(state.geometry, { qk: [2, 0], v: [1, 3] });
  assert.equal(S.urlOf(state), '?preset=cat&geometry=2.0.1.3');
  const bad = S.createState();
  const change = S.fromUrl(bad, readUrlState('?preset=cat&geometry=x', ''));
  assert.equal(bad.geometry, null);
  assert.match(change.error, /The link’s geometry=x was ignored: geometry is “on”/);
  // The planes menu: two different dimensions; the button shows and hides the view, and hosts hear it.
  assert.equal(S.setPlane(state, 'qk', [1, 1]), null);
  const moved = S.setPlane(state, 'qk', [3, 1]);
  assert.deepEqual(moved.emit, [['state', { params: 'geometry=3.1.1.3' }]]);
  assert.deepEqual(S.toggleGeometry(state).emit, [['state', { params: '' }]]);
  assert.equal(state.geometry, null);
  assert.equal(S.urlOf(state), '?preset=cat');
});

// Random heads given as Q, K and V (dk = dv = 2, numbers on a 0.1 grid, often a small whole
// number, so ties, zero queries and keys along one line come up), causal or not, and a row.
const coord = fc.oneof(fc.integer({ min: -30, max: 30 }), fc.constantFrom(0, 10, -10));
const rows = (n) => fc.array(fc.tuple(coord, coord), { minLength: n, maxLength: n });
const arbHead = fc.integer({ min: 1, max: 6 }).chain((n) => fc.record({
  Q: rows(n), K: rows(n), V: rows(n), causal: fc.boolean(), i: fc.integer({ min: 0, max: n - 1 }),
}));
const tenth = (rows) => rows.map((r) => r.map((v) => v / 10));
const headOf = (h) => direct(tenth(h.Q), tenth(h.K), tenth(h.V), h.causal);

test('O stays inside the hull of the visible values, and the sentence says where only because it is so', () => {
  fc.assert(fc.property(arbHead, (h) => {
    const config = headOf(h);
    const g = G.geometryOf(computeView(attn, config, null), h.i, FIRST);
    assert.ok(g.inside, 'O in the hull');
    assert.equal(g.visible.length, h.causal ? h.i + 1 : config.tokens.length);
    const last = g.chain[g.chain.length - 1];
    assert.ok(Math.hypot(last.x - g.o.x, last.y - g.o.y) < 1e-5 * (1 + Math.abs(g.o.x) + Math.abs(g.o.y)), 'the construction ends at the core’s O');
    const said = G.averagePrompt(g);
    assert.doesNotMatch(said, /report/);
    if (g.visible.length === 1) assert.match(said, /is v. itself/);
    else assert.match(said, g.hull.length <= 2 ? /on the segment/ : /inside the shaded hull of the \d+ visible values/);
  }), { seed: 30, numRuns: 300 });
});

test('a longer q sharpens the weights: doubling q_i never lowers its largest weight, and raises it where the visible scores differ', () => {
  fc.assert(fc.property(arbHead, (h) => {
    const state = S.createState();
    S.setConfig(state, headOf(h));
    const before = G.geometryOf(computeView(attn, state.config, null), h.i, FIRST);
    const q = state.config.Q[h.i];
    S.setRow(state, 'Q', h.i, [0, 1], [q[0] * 2, q[1] * 2]);
    const after = G.geometryOf(computeView(attn, state.config, null), h.i, FIRST);
    const top = (g) => Math.max(...g.visible.map((k) => k.weight));
    assert.ok(top(after) >= top(before) - 1e-6, `${top(before)} → ${top(after)}`);
    const scores = before.visible.map((k) => k.score);
    const differ = scores.some((s) => fmt(s) !== fmt(scores[0]));
    const said = G.scalingPrompt(after, { qLen: before.qLen, top: top(before) });
    if (before.visible.length === 1) assert.match(said, /sees one key/);
    else if (differ) {
      assert.match(said, /the softmax sharpens/);
      if (top(before) < 0.99) assert.ok(top(after) > top(before), 'strictly sharper');
      if (before.qLen > 0) assert.match(said, new RegExp(`\\|q${G.sub(h.i)}\\| ${fmt(before.qLen)} → ${fmt(after.qLen)} \\(× 2\\.00\\)`));
    } else assert.match(said, /changes no weight/);
  }), { seed: 31, numRuns: 300 });
});

test('the mask sentence names the greyed keys with one verb for one key and another for several, and says when nothing is hidden', () => {
  const four = direct([[1, 0], [0, 1], [1, 1], [1, -1]], [[1, 0], [0, 1], [1, 1], [1, -1]], [[1, 0], [0, 1], [1, 1], [1, -1]], true);
  const view = computeView(attn, four, null);
  const at = (i) => G.maskPrompt(G.geometryOf(view, i, FIRST));
  assert.match(at(0), /k₂, k₃ and k₄ come after q₁’s token, so the causal mask greys them out: their weights are 0/);
  assert.match(at(2), /k₄ comes after q₃’s token, so the causal mask greys it out: its weight is 0/);
  assert.match(at(3), /q₄ is the last query, so the causal mask hides nothing/);
  const g = G.geometryOf(view, 0, FIRST);
  assert.match(G.explainArrow(g, 'k', 2, four.tokens), /but k₃ is masked for q₁ \(it comes later\), so its weight is 0\.$/);
  assert.match(G.explainArrow(g, 'v', 2, four.tokens), /It is masked for q₁: it adds nothing to O₁\.$/);
  assert.match(G.arrowLabel(g, 'k', 2, true), /tip at \[1\.000, 1\.000\], masked;/);
  assert.match(G.maskPrompt(picture(shown('worked-example'), 0)), /Mask: off, so q₁ sees all 3 keys/);
});

test('a query at right angles to every key scores them all 0: a longer one changes no weight, and the sentence says so', () => {
  const view = computeView(attn, direct([[0, 1], [0, 0], [0, 0]], [[1, 0], [2, 0], [-1, 0]], [[1, 0], [0, 1], [1, 1]]), null);
  const g = G.geometryOf(view, 0, FIRST);
  assert.deepEqual(g.keys.map((k) => fmt(k.weight)), ['0.333', '0.333', '0.333']);
  assert.match(G.scalingPrompt(g), /Every visible key scores 0\.000 for q₁, so lengthening q₁ changes no weight: turn it towards one key first\./);
  assert.match(G.explainArrow(g, 'k', 0, ['1', '2', '3']), /cos 90\.0° = 0\.000/);
  const zero = G.geometryOf(view, 1, FIRST);
  assert.match(G.explainArrow(zero, 'k', 0, ['1', '2', '3']), /q₂·k₁ = 0\.000 \(a zero-length arrow has no angle\)\./);
});

test('a row with every key masked has weights and O of 0, and the words say so (PyTorch’s rule)', () => {
  const view = computeView(attn, direct([[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1, 2], [3, 4]]), null);
  const r = { ...view.r, M: new Float32Array([-Infinity, -Infinity, 0, 0]), A: new Float32Array([0, 0, 0.5, 0.5]), O: new Float32Array([0, 0, 2, 3]) };
  const g = G.geometryOf({ ...view, r }, 0, FIRST);
  assert.equal(g.visible.length, 0);
  assert.equal(g.inside, false);
  assert.match(G.averagePrompt(g), /no value is visible to q₁, so O₁ = 0/);
  assert.match(G.scalingPrompt(g), /every key is masked for q₁/);
  assert.match(G.querySentence(g, ['1', '2']), /Every key is masked for it, so its weights and O₁ are 0/);
});

test('the hull: duplicates, points on a line and a point in the middle; inside within float32 rounding only', () => {
  const square = G.convexHull([{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 2, y: 2 }, { x: 0, y: 2 }, { x: 1, y: 1 }, { x: 2, y: 0 }, { x: 1, y: 0 }]);
  assert.equal(square.length, 4);
  assert.ok(G.insideHull({ x: 1, y: 1.999999 }, square));
  assert.ok(!G.insideHull({ x: 1, y: 2.01 }, square));
  const line = G.convexHull([{ x: 0, y: 0 }, { x: 1, y: 1 }, { x: 3, y: 3 }]);
  assert.deepEqual(line, [{ x: 0, y: 0 }, { x: 3, y: 3 }]);
  assert.ok(G.insideHull({ x: 2, y: 2 }, line));
  assert.ok(!G.insideHull({ x: 2, y: 2.1 }, line));
  assert.ok(G.insideHull({ x: 1, y: 1 }, [{ x: 1, y: 1 }]));
});

test('every sentence of the view keeps the sentence rules, for every preset and row, and for random heads', () => {
  const check = (g, tokens, where) => {
    const texts = [G.querySentence(g, tokens), G.scalingPrompt(g), G.maskPrompt(g), G.averagePrompt(g), ...G.planeSentences(g)];
    for (const k of g.keys) texts.push(G.explainArrow(g, 'k', k.j, tokens), G.explainArrow(g, 'v', k.j, tokens), G.arrowLabel(g, 'k', k.j, true));
    texts.push(G.explainArrow(g, 'q', g.i, tokens), G.explainArrow(g, 'o', g.i, tokens));
    for (const t of texts) {
      const problems = [...agreement(t), ...noBlanks(t), ...typography(t)];
      assert.deepEqual(problems, [], `${where}: ${t}`);
    }
  };
  for (const name of Object.keys(PRESETS)) {
    const state = shown(name);
    for (let i = 0; i < state.config.tokens.length; i++) check(picture(state, i), state.config.tokens, `${name} row ${i + 1}`);
  }
  fc.assert(fc.property(arbHead, (h) => {
    const config = headOf(h);
    check(G.geometryOf(computeView(attn, config, null), h.i, FIRST), config.tokens, JSON.stringify(h));
  }), { seed: 32, numRuns: 100 });
});

// Exact words and edges, one by one (each assertion here was added for a change of the module that
// no other test noticed: StrykerJS's survivors, make mutate-js).
test('the words of each arrow, exactly: a query, a value, the output, a key of a vector longer than 1, and their accessible names', () => {
  const state = shown('worked-example');
  const g = picture(state, 2);
  const t = state.config.tokens;
  assert.equal(G.querySentence(g, t), 'q₃, the query of token 3: |q₃| = 1.414. Its largest weight is 0.503, on k₃.');
  assert.equal(G.explainArrow(g, 'q', 2, t), 'q₃, the query of token 3, at [1.000, 1.000]: |q₃| = 1.414. ' + G.querySentence(g, t));
  assert.equal(G.explainArrow(g, 'o', 2, t), 'O₃, the output of token 3, at [1.759, 1.000]: the sum of the weighted values, drawn tip to tail. ' + G.averagePrompt(g));
  assert.equal(G.explainArrow(g, 'v', 1, t), 'v₂, the value of token 2, at [0.000, 2.000]. q₃ gives it weight 0.248, so it adds 0.248 × [0.000, 2.000] = [0.000, 0.497] to O₃.');
  assert.equal(G.explainArrow(g, 'k', 0, t), 'k₁, the key of token 1, at [1.000, 0.000]. q₃·k₁ = |q₃| |k₁| cos θ = 1.414 × 1.000 × cos 45.0° = 1.000. ÷ √2 gives the score S[3][1] = 0.707; after the softmax its weight is A[3][1] = 0.248, the share of v₁ in O₃.');
  assert.equal(G.arrowLabel(g, 'q', 2, true), 'q₃, query arrow, tip at [1.000, 1.000]; arrow keys move it by 0.1, with Shift by 0.01; Enter shows Q[3][1]');
  assert.equal(G.arrowLabel(g, 'v', 0, false), 'v₁, value arrow, tip at [1.000, 0.000], weight 0.248; Enter shows A[3][1]');
  assert.equal(G.arrowLabel(g, 'o', 2, false), 'O₃, output arrow, tip at [1.759, 1.000]; Enter shows O[3][1]');
  assert.equal(G.scalingPrompt(g), 'Scaling: scores are q·k ÷ √2, so a longer q₃ multiplies every score of its row. Drag q₃ longer and the softmax sharpens (largest weight now 0.503); shorter and it flattens towards 0.333 each.');
  assert.deepEqual(G.planeSentences(g), ['Q, K and V have two columns each here, so every arrow is the whole vector and the picture is exact.']);
  // |k₂| = 2: cos θ divides q·k by both lengths.
  S.setRow(state, 'K', 1, [0, 1], [0, 2]);
  assert.match(G.dotText(picture(state, 2), picture(state, 2).keys[1]), /^q₃·k₂ = \|q₃\| \|k₂\| cos θ = 1\.414 × 2\.000 × cos 45\.0° = 2\.000\./);
});

test('the scaling sentence: a drag that did not change |q| adds nothing, nor one from a zero-length q; a custom scale is said as a factor', () => {
  const g = picture(shown('worked-example'), 2);
  assert.doesNotMatch(G.scalingPrompt(g, { qLen: g.qLen, top: 0.4 }), /Since/);
  assert.doesNotMatch(G.scalingPrompt(g, { qLen: 0, top: 0.333 }), /Since/);
  assert.match(G.scalingPrompt(g, { qLen: g.qLen / 2, top: 0.4 }), /Since your last drag of q₃: \|q₃\| 0\.707 → 1\.414 \(× 2\.00\), the largest weight 0\.400 → 0\.503\.$/);
  const custom = parseConfig({ ...PRESETS['worked-example'].config, scale: 0.25 });
  const gc = G.geometryOf(computeView(attn, custom, null), 2, FIRST);
  assert.match(G.scalingPrompt(gc), /^Scaling: scores are q·k × 0\.250, so/);
});

test('Enter on a tip selects the cell the arrow stands for: q its row of Q, a key its score, a value its weight, O its row of O', () => {
  const g = picture(shown('cat'), 4);
  const gp = { ...g, planes: G.fitPlanes({ qk: [2, 0], v: [3, 1] }, 4, 4) };
  assert.deepEqual(G.cellOf(gp, 'q', 4), { m: 'Q', i: 4, j: 2 });
  assert.deepEqual(G.cellOf(gp, 'k', 1), { m: 'S', i: 4, j: 1 });
  assert.deepEqual(G.cellOf(gp, 'v', 3), { m: 'A', i: 4, j: 3 });
  assert.deepEqual(G.cellOf(gp, 'o', 4), { m: 'O', i: 4, j: 3 });
});

test('planes: every edge of fitPlanes, a plane drawn the other way round ([1, 0]), a width of 1, and the drag of a value in its own plane', () => {
  for (const bad of [[-1, 1], [1, -1], [4, 1], [1, 4], [2, 2]]) assert.deepEqual(G.fitPlanes({ qk: bad, v: [0, 1] }, 4, 4).qk, [0, 1], String(bad));
  assert.deepEqual(G.fitPlanes({ qk: [3, 0], v: [1, 0] }, 4, 2), { qk: [3, 0], v: [1, 0] });
  assert.deepEqual(G.fitPlanes({ qk: [0, 3], v: [0, 1] }, 4, 2).qk, [0, 3]);
  const three = direct([[1, 2, 3], [0, 1, 0]], [[2, 1, 1], [0, 2, 1]], [[1, 2], [3, 4]]);
  const view = computeView(attn, three, null);
  const g = G.geometryOf(view, 0, G.fitPlanes({ qk: [0, 1], v: [1, 0] }, 3, 2));
  assert.match(G.dotText(g, g.keys[0]), /q₁·k₁ = .* = 7\.000\. Of it, 4\.000 comes from the two dimensions drawn and 3\.000 from the other 1 dimension\./);
  assert.equal(G.explainArrow(g, 'v', 1, three.tokens).slice(0, 40), 'v₂, the value of token 2, at [4.000, 3.0');
  assert.deepEqual(G.dragEdit('v', 1, g.planes, { x: 1.26, y: -0.04 }, G.STEP), { m: 'V', i: 1, cols: [1, 0], values: [1.3, 0] });
  assert.ok(Object.is(G.dragEdit('q', 0, g.planes, { x: -0.04, y: 0 }, G.STEP).values[0], 0), 'no −0 in the head');
  assert.deepEqual(G.dragEdit('q', 0, g.planes, { x: 1, y: 2 }, G.STEP).cols, [0, 1], 'q moves in the plane of q and k');
  // Each arrow's name gives the coordinates of its own plane, and says a masked value is masked.
  assert.equal(G.arrowLabel(g, 'k', 0, false), 'k₁, key arrow, tip at [2.000, 1.000], weight 0.500; Enter shows S[1][1]');
  assert.equal(G.arrowLabel(g, 'q', 0, false), 'q₁, query arrow, tip at [1.000, 2.000]; Enter shows Q[1][1]');
  assert.equal(G.arrowLabel(g, 'v', 0, false), 'v₁, value arrow, tip at [2.000, 1.000], weight 0.500; Enter shows A[1][1]');
  const causal = G.geometryOf(computeView(attn, { ...three, causal: true }, null), 0, g.planes);
  assert.equal(G.arrowLabel(causal, 'v', 1, false), 'v₂, value arrow, tip at [4.000, 3.000], masked; Enter shows A[1][2]');
  // dk = 3 and dv = 2: the plane of q and k says what it hides, the plane of v does not, and nothing says “exact”.
  assert.equal(G.planeSentences(g).length, 1);
  assert.match(G.planeSentences(g)[0], /^Q and K have dk = 3 columns/);
  assert.match(G.explainArrow(g, 'q', 0, three.tokens), /^q₁, the query of token 1, at \[1\.000, 2\.000\] in dimensions 1 and 2: \|q₁\| = 3\.742\./);
  const wide = direct([[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1, 2, 3], [4, 5, 6]]);
  assert.deepEqual(G.planeSentences(G.geometryOf(computeView(attn, wide, null), 0, FIRST)).map((t) => t.slice(0, 30)), ['V and O have dv = 3 columns; t']);
  const thin = direct([[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1], [2]]);
  const gt = G.geometryOf(computeView(attn, thin, null), 0, G.fitPlanes(FIRST, 2, 1));
  assert.match(G.planeSentences(gt)[0], /have at most two columns here/);
  assert.equal(G.arrowLabel(gt, 'q', 0, false), 'q₁, query arrow, tip at [1.000, 0.000]; Enter shows Q[1][1]', 'q in its plane of two, though v’s is a line');
  assert.equal(G.arrowLabel(gt, 'v', 0, false), 'v₁, value arrow, tip at [1.000], weight 0.670; Enter shows A[1][1]');
  const narrow = direct([[1], [2]], [[1], [1]], [[1, 0], [0, 1]]);
  const gn = G.geometryOf(computeView(attn, narrow, null), 1, G.fitPlanes(FIRST, 1, 2));
  assert.deepEqual(G.planeSentences(gn), ['Q, K and V have at most two columns here, so every arrow is the whole vector and the picture is exact.']);
  assert.equal(G.arrowLabel(gn, 'k', 0, false), 'k₁, key arrow, tip at [1.000], weight 0.500; Enter shows S[2][1]');
});

test('the hull’s own edges: its order, a far point of a one-point or two-point hull, and the float32 tolerance, which grows with the hull', () => {
  assert.deepEqual(G.convexHull([{ x: 0, y: 2 }, { x: 2, y: 2 }, { x: 0, y: 0 }, { x: 2, y: 0 }]), [{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 2, y: 2 }, { x: 0, y: 2 }]);
  assert.deepEqual(G.convexHull([{ x: 1, y: 1 }, { x: 0, y: 0 }]), [{ x: 0, y: 0 }, { x: 1, y: 1 }]);
  assert.ok(!G.insideHull({ x: 5, y: 5 }, [{ x: 1, y: 1 }]));
  assert.ok(!G.insideHull({ x: 4, y: 4 }, [{ x: 0, y: 0 }, { x: 3, y: 3 }]), 'on the line, past the segment');
  const big = G.convexHull([{ x: 1e4, y: 1e4 }, { x: 2e4, y: 1e4 }, { x: 2e4, y: 2e4 }, { x: 1e4, y: 2e4 }]);
  assert.ok(G.insideHull({ x: 1.5e4, y: 2e4 + 0.15 }, big), 'within 1e-5 of the largest coordinate (0.2)');
  assert.ok(!G.insideHull({ x: 1.5e4, y: 2e4 + 0.3 }, big));
  assert.ok(!G.insideHull({ x: 2e4 + 0.3, y: 1.5e4 }, big));
  const flat = G.convexHull([{ x: 1e4, y: 0 }, { x: 2e4, y: 0 }, { x: 2e4, y: 1 }, { x: 1e4, y: 1 }]);
  assert.ok(G.insideHull({ x: 1.5e4, y: 1.15 }, flat), 'the tolerance follows the largest coordinate of any corner, here x');
  assert.ok(!G.insideHull({ x: 0, y: 0 }, []), 'an empty hull holds nothing');
  // An O the hull does not hold (a result made by hand) is said as a fault to report, never as inside.
  const view = computeView(attn, direct([[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1, 0], [0, 1]]), null);
  const g = G.geometryOf({ ...view, r: { ...view.r, O: new Float32Array([3, 3, 0, 0]) } }, 0, FIRST);
  assert.match(G.averagePrompt(g), /O₁ should lie in the hull of the visible values but is outside it by more than float32 rounding: please report this head\.$/);
});

test('the words beside the planes: how the tips move, or why they do not; the arrow in hand, else the query; a head too crowded to draw', () => {
  assert.match(G.dragSentence(true, true), /^Drag the tip of any q, k or v, or focus it \(Tab\) and use the arrow keys/);
  assert.match(G.dragSentence(false, true), /so they do not drag\. Edit X, Wq, Wk or Wv below, or paste a head as Q, K and V to drag it\. Follow another token/);
  assert.match(G.dragSentence(false, false), /so they do not drag\. Follow another token above to take its query\.$/, 'without the edit controls, no advice to edit');
  assert.match(G.crowdedSentence(40), /^This head has 40 tokens: the arrows are drawn for heads of up to 16\./);
  const state = shown('worked-example');
  const g = picture(state, 2), t = state.config.tokens;
  assert.equal(G.activeText(g, null, t), G.querySentence(g, t) + ' Hover or focus an arrow, or the angle θ, for its arithmetic.');
  assert.equal(G.activeText(g, { kind: 'k', j: 7 }, t), G.activeText(g, null, t), 'a key no longer in the head: the query again');
  assert.equal(G.activeText(g, { kind: 'angle', j: 0 }, t), 'The angle θ between q₃ and k₁: ' + G.dotText(g, g.keys[0]));
  assert.equal(G.activeText(g, { kind: 'o', j: 0 }, t), G.explainArrow(g, 'o', 2, t), 'O is the query’s own');
  assert.equal(G.activeText(g, { kind: 'v', j: 1 }, t), G.explainArrow(g, 'v', 1, t));
});

test('the element’s mode="geometry" starts from its params: the planes given, the first ones for none, and a bad one said and left out', () => {
  const start = (geometry) => { const state = S.createState(); const change = S.fromOptions(state, { preset: 'cat', geometry }); return { state, change }; };
  assert.deepEqual(start('').state.geometry, FIRST);
  assert.deepEqual(start('geometry=2.0.1.3').state.geometry, { qk: [2, 0], v: [1, 3] });
  assert.equal(start(null).state.geometry, null, 'the explorer mode starts without it');
  const bad = start('geometry=1.1');
  assert.deepEqual(bad.state.geometry, FIRST);
  assert.equal(bad.change.error, 'The params="geometry=1.1" attribute was ignored: a plane needs two different dimensions.');
  assert.deepEqual(S.geometryParams('geometry=3.1'), { planes: { qk: [3, 1], v: [0, 1] }, ignored: [] });
});
