// Your own head with the page's own controls (issue 25, point 3): features renamed, added and
// removed, dk and dv set, printed tensors pasted. Each action is checked on the core's numbers
// (a new feature or column of zeros changes exactly what the arithmetic says it does), and every
// sentence about it (the preset note, the config box's note, the reset button, the widths' note,
// the leak check) is checked where it holds and where it does not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { readConfig, parseConfig, readUrlState } from '../../web/blocks/config.js';
import { PRESETS, DEFAULT_PRESET } from '../../web/blocks/presets.js';
import * as S from '../../web/explorer/state.js';
import { computeView } from '../../web/explorer/mount.js';
import { presetNote, pasteNote, resetLabel, widthNote, leakReport } from '../../web/explorer/notes.js';
import { grammar } from '../sentence-rules.mjs';

const attn = await loadAttention();
const viewOf = (state) => computeView(attn, state.config, state.step, state.leak && state.leak.base);
const projected = Object.keys(PRESETS).filter((k) => parseConfig(PRESETS[k].config).X);
const direct = Object.keys(PRESETS).filter((k) => parseConfig(PRESETS[k].config).Q);
const fresh = (name) => {
  const state = S.createState();
  S.setPreset(state, name);
  return state;
};
/** Q, K and V (and X, W) of a config as PyTorch prints them, one per line, with extra lines. */
const printed = (c, extra = '') =>
  (c.X ? ['X', 'Wq', 'Wk', 'Wv'] : ['Q', 'K', 'V']).map((m) => `${m} = tensor(${JSON.stringify(c[m])})`).join('\n') + extra;

test('a feature added is 0 in X and in each W: every number the core computes stays the same, and the note counts it', () => {
  for (const name of projected) {
    const state = fresh(name);
    const before = viewOf(state).r;
    const d = state.config.features.length;
    const change = S.addFeature(state);
    assert.ok(change.rebuild && change.compute, `${name}: the panels are built anew`);
    assert.equal(state.config.features.length, d + 1);
    assert.ok(state.config.X.every((row) => row.length === d + 1 && row[d] === 0), `${name}: X's new column is 0`);
    for (const W of ['Wq', 'Wk', 'Wv']) assert.deepEqual(state.config[W][d], new Array(state.config[W][0].length).fill(0), `${name}: ${W}'s new row is 0`);
    const after = viewOf(state).r;
    for (const m of ['Q', 'K', 'V', 'S', 'A', 'O']) assert.deepEqual(after[m], before[m], `${name}: ${m} is unchanged`);
    assert.equal(new Set(state.config.features).size, d + 1, `${name}: the new name is not one already there`);
    assert.match(presetNote(state), new RegExp(`with ${d + 1} features instead of ${d}\\.`));
    assert.equal(state.preset, null);
    S.reset(state);
    assert.equal(state.preset, name, `${name}: Reset goes back to the preset`);
  }
});

test('a feature removed takes its column of X and its row of every W; the last one stays', () => {
  const state = fresh(projected[0]);
  const c0 = structuredClone(state.config);
  const d = c0.features.length;
  S.removeFeature(state, 1);
  assert.deepEqual(state.config.features, c0.features.filter((_, j) => j !== 1));
  assert.deepEqual(state.config.X, c0.X.map((row) => row.filter((_, j) => j !== 1)));
  for (const W of ['Wq', 'Wk', 'Wv']) assert.deepEqual(state.config[W], c0[W].filter((_, j) => j !== 1));
  // Q is X·Wq: without feature 1, Q[i][c] = Σ over the other features only
  const r = viewOf(state).r;
  for (let i = 0; i < r.n; i++)
    for (let c = 0; c < r.dk; c++) {
      const want = c0.X[i].reduce((acc, x, j) => (j === 1 ? acc : acc + x * c0.Wq[j][c]), 0);
      assert.ok(Math.abs(r.Q[i * r.dk + c] - want) < 1e-5, `Q[${i}][${c}]`);
    }
  for (let k = 1; k < d; k++) S.removeFeature(state, 0);
  assert.equal(state.config.features.length, 1);
  assert.equal(S.removeFeature(state, 0), null, 'a head keeps one feature');
  assert.equal(S.removeFeature(state, 5), null, 'a feature that is not there');
});

test('a feature renamed is counted in the note and kept in the link; a head of Q, K and V has no features to change', () => {
  const state = fresh(projected[0]);
  S.renameFeature(state, 0, 'dog-ness');
  assert.equal(state.config.features[0], 'dog-ness');
  assert.match(presetNote(state), /with feature 1 renamed\./);
  S.renameFeature(state, 1, 'x');
  assert.match(presetNote(state), /with 2 features renamed\./);
  const back = S.createState();
  const [search, hash = ''] = S.urlOf(state).split('#');
  S.fromUrl(back, readUrlState(search, hash && '#' + hash));
  assert.deepEqual(back.config.features, state.config.features);
  const qkv = fresh(direct[0]);
  assert.equal(S.renameFeature(qkv, 0, 'a'), null);
  assert.equal(S.addFeature(qkv), null);
  assert.equal(S.removeFeature(qkv, 0), null);
});

test('dk wider: Q and K get columns of 0; with 1/√dk the scores shrink by exactly √(dk/dk′), with a fixed scale they stay', () => {
  for (const name of [...projected, ...direct]) {
    const state = fresh(name);
    const { dk } = S.shapeOf(state.config);
    const before = viewOf(state).r;
    S.setWidth(state, 'dk', dk + 2);
    assert.equal(S.shapeOf(state.config).dk, dk + 2, name);
    const r = viewOf(state).r;
    const ratio = Math.sqrt(dk / (dk + 2));
    for (let k = 0; k < r.S.length; k++)
      if (Number.isFinite(before.S[k])) assert.ok(Math.abs(r.S[k] - before.S[k] * ratio) <= 1e-5 * Math.max(1, Math.abs(before.S[k])), `${name}: S[${k}]`);
    assert.match(widthNote(state.config), /S still changes, since it is divided by √dk/);
    assert.match(presetNote(state), new RegExp(`dk = ${dk + 2} instead of ${dk}`));
    S.setScaling(state, false); // scale 1
    const fixed = viewOf(state).r;
    S.setWidth(state, 'dk', dk + 3);
    assert.deepEqual(viewOf(state).r.S, fixed.S, `${name}: a fixed scale and a column of 0 leave S alone`);
    assert.match(widthNote(state.config), /with this fixed scale S stays the same/);
  }
});

test('dv narrower: A is unchanged and O keeps its first columns, exactly', () => {
  for (const name of [...projected, ...direct]) {
    const state = fresh(name);
    const before = viewOf(state).r;
    if (before.dv < 2) continue;
    S.setWidth(state, 'dv', before.dv - 1);
    const r = viewOf(state).r;
    assert.deepEqual(r.A, before.A, `${name}: A`);
    for (let i = 0; i < r.n; i++) for (let c = 0; c < r.dv; c++) assert.equal(r.O[i * r.dv + c], before.O[i * before.dv + c], `${name}: O[${i}][${c}]`);
  }
});

test('a width outside 1 to the limit is refused with its range, and the head stays as it was', () => {
  const state = fresh(DEFAULT_PRESET);
  const c0 = structuredClone(state.config);
  for (const bad of [0, -1, 1.5, 'abc', '', S.LIM.maxWidth + 1]) {
    const change = S.setWidth(state, 'dk', bad);
    assert.match(change.error, new RegExp(`dk must be a whole number from 1 to ${S.LIM.maxWidth}; it stays ${S.shapeOf(c0).dk}\\.`), String(bad));
    assert.deepEqual(state.config, c0);
  }
  assert.equal(S.setWidth(state, 'dv', S.shapeOf(c0).dv), null, 'the same width changes nothing');
});

test('a selected cell that a narrower head no longer has is dropped; one that is still there stays', () => {
  const state = fresh(DEFAULT_PRESET);
  const { dk } = S.shapeOf(state.config);
  S.select(state, { m: 'Q', i: 0, j: dk - 1 });
  S.setWidth(state, 'dk', dk + 1);
  assert.deepEqual(state.sel, { m: 'Q', i: 0, j: dk - 1 });
  S.setWidth(state, 'dk', dk - 1);
  assert.equal(state.sel, null);
  S.select(state, { m: 'A', i: 1, j: 0 });
  S.setWidth(state, 'dv', 1);
  assert.deepEqual(state.sel, { m: 'A', i: 1, j: 0 });
});

test('readConfig says how a config was written: JSON and objects are not pasted; printed tensors say which settings they gave', () => {
  const c = PRESETS[DEFAULT_PRESET].config;
  assert.equal(readConfig(JSON.stringify(c)).pasted, null);
  assert.equal(readConfig(c).pasted, null);
  assert.deepEqual(readConfig(printed(c)).pasted, { causal: false, scale: false });
  assert.deepEqual(readConfig(printed(c, '\nis_causal=True\nscale=0.5')).pasted, { causal: true, scale: true });
  assert.equal(readConfig(printed(c)).config.causal, false, 'scaled_dot_product_attention’s default');
});

test('pasted tensors: the note says the mask is off while it is, and where the names came from, for 1, 2 and n names', () => {
  const state = fresh(DEFAULT_PRESET);
  const shown = structuredClone(state.config);
  S.setConfig(state, printed(shown));
  assert.deepEqual(state.config.tokens, shown.tokens, 'the head’s token names are kept');
  if (shown.features) assert.deepEqual(state.config.features, shown.features);
  let note = pasteNote(state);
  assert.match(note, /The causal mask is off, as in scaled_dot_product_attention without is_causal=True/);
  assert.match(note, shown.features ? /the tokens and features keep the names they had/ : /the tokens keep the names they had/);
  S.toggleCausal(state);
  assert.doesNotMatch(pasteNote(state), /mask is off/, 'turned on: nothing stale');
  assert.equal(resetLabel(state), 'Reset to the config you loaded');
  assert.match(presetNote(state), /“Reset to the config you loaded”/);
  S.reset(state);
  assert.match(pasteNote(state), /mask is off/, 'back to the config as it was pasted');
  // one, two and many tokens with no names to keep (another count than the head shown)
  for (const [n, named] of [[1, /the token is named 1 \(rename it under “Tokens”\)/], [2, /the tokens are named 1 and 2 \(rename them/], [4, /the tokens are named 1 to 4 \(rename them/]]) {
    const s = S.createState();
    S.setPreset(s, DEFAULT_PRESET);
    const Q = Array.from({ length: n }, (_, i) => [i, 1]);
    S.setConfig(s, printed({ Q, K: Q, V: Q }, '\nis_causal=True'));
    note = pasteNote(s);
    assert.match(note, named, String(n));
    assert.doesNotMatch(note, /mask is off/, 'is_causal=True was given');
    grammar(note);
    S.renameToken(s, 0, 'dog');
    assert.doesNotMatch(pasteNote(s), /named 1/, 'renamed: the note no longer says they are numbered');
  }
  // JSON says nothing of the kind, and a preset has its own reset
  const json = S.createState();
  S.setConfig(json, JSON.stringify(PRESETS[DEFAULT_PRESET].config));
  assert.equal(pasteNote(json), '');
  assert.equal(resetLabel(fresh(DEFAULT_PRESET)), 'Reset to the preset');
});

test('the leak check after a reshape: a dv change has no row-by-row before; a feature added reads as a changed weight', () => {
  const state = fresh(projected[0]);
  S.toggleLeak(state);
  S.setWidth(state, 'dv', S.shapeOf(state.config).dv + 1);
  let report = leakReport(viewOf(state), state.leak.base, resetLabel(state));
  assert.match(report.text, /^dv \(the columns of O\) changed since the leak check started/);
  S.reset(state);
  S.toggleLeak(state);
  S.toggleLeak(state);
  S.addFeature(state);
  report = leakReport(viewOf(state), state.leak.base, resetLabel(state));
  assert.match(report.text, /^You changed a learned weight/);
  assert.ok(report.rows.every((x) => x.same), 'a feature of zeros leaves every row of O exactly as it was');
});
