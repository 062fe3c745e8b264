// The explorer's own sentences (web/explorer/notes.js), word for word: the preset note for each
// kind of change, the guided tour's stops on the cat preset and on heads that move its numbers
// (another query dimension, ties), and the leak report for each case it tells apart. The numbers
// a sentence quotes are worked out by hand here, or read from the core's O and "before" by their
// definition (the largest change of any entry of a row).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { readUrlState } from '../../web/blocks/config.js';
import { PRESETS } from '../../web/blocks/presets.js';
import { fmt } from '../../web/blocks/format.js';
import * as S from '../../web/explorer/state.js';
import { computeView } from '../../web/explorer/mount.js';
import { presetNote, tourStop, leakReport } from '../../web/explorer/notes.js';
import { grammar } from '../sentence-rules.mjs';

const attn = await loadAttention();
const fresh = (name = 'cat') => {
  const state = S.createState();
  S.setPreset(state, name);
  return state;
};
const own = (config) => {
  const state = S.createState();
  S.setConfig(state, config);
  return state;
};
const viewOf = (state) => computeView(attn, state.config, state.step, state.leak && state.leak.base);
const cat = PRESETS.cat.config;
const CAT = 'The preset “The cat sat on the”,';
const RESET = 'To go back, press “Reset to the preset”.';

// ------------------------------------------------------------------------------ the preset note

test('the preset note for each kind of change: scaling, a scale of its own, renamed tokens', () => {
  const s = fresh();
  S.setScaling(s, false);
  assert.equal(presetNote(s), `${CAT} with scaling off. To go back, turn scaling on again (key S), or press “Reset to the preset”.`);
  const renamed = fresh();
  S.renameToken(renamed, 1, 'dog');
  assert.equal(presetNote(renamed), `${CAT} with token 2 renamed. ${RESET}`);
  S.renameToken(renamed, 3, 'in');
  assert.equal(presetNote(renamed), `${CAT} with 2 tokens renamed. ${RESET}`);
  S.setValue(renamed, 'Wk', 0, 0, 1);
  S.setValue(renamed, 'Wv', 0, 0, 2);
  assert.equal(presetNote(renamed), `${CAT} with 2 tokens renamed and 1 value of Wk and 1 of Wv changed. ${RESET}`);
  // a link from the cat preset with a scale of its own: no key turns it back
  const scaled = S.createState();
  S.fromUrl(scaled, readUrlState('', '#config=' + encodeURIComponent(JSON.stringify({ ...cat, scale: 0.25 })) + '&from=cat'));
  assert.equal(presetNote(scaled), `${CAT} with the scale set to 0.250. ${RESET}`);
  const one = own({ X: [[1]], Wq: [[1]], Wk: [[1]], Wv: [[1]], scale: 1 });
  S.setScaling(one, true);
  assert.equal(presetNote(one), 'Your own head, loaded from a config, with scaling on. To go back to it as it was loaded, press “Reset to the config you loaded”.');
  for (const st of [s, renamed, scaled, one]) assert.deepEqual(grammar(presetNote(st)), []);
});

test('every preset scales by 1/√dk, so a preset changed in its scale goes back with “turn scaling on”', () => {
  for (const [name, p] of Object.entries(PRESETS)) assert.equal(p.config.scale ?? null, null, name);
});

test('a link from a preset with Q, K and V given directly: changed, with nothing to count (it said “with . To go back, , or press”); with other feature names, they are counted', () => {
  const direct = { tokens: cat.tokens, Q: cat.X, K: cat.X, V: cat.X, causal: true };
  const s = S.createState();
  S.fromUrl(s, readUrlState('', '#config=' + encodeURIComponent(JSON.stringify(direct)) + '&from=cat'));
  assert.deepEqual([s.preset, s.origin], [null, 'cat']);
  assert.equal(presetNote(s), 'A head changed from the preset “The cat sat on the”. To go back, press “Reset to the preset”.');
  // the features renamed, every one of them: counted like renamed tokens
  const renamed = S.createState();
  S.fromUrl(renamed, readUrlState('', '#config=' + encodeURIComponent(JSON.stringify({ ...cat, features: ['a', 'b', 'c', 'd'] })) + '&from=cat'));
  assert.equal(presetNote(renamed), 'The preset “The cat sat on the”, with 4 features renamed. To go back, press “Reset to the preset”.');
});

// ------------------------------------------------------------------------------ the tour

const withRows = (config, changes) => ({ ...structuredClone(config), ...changes });
/** Columns a and b of every row swapped. */
const swapCols = (m, a, b) => m.map((row) => row.map((_, c) => row[c === a ? b : c === b ? a : c]));

test('the tour on the cat preset: titles, the cell each stop explains, the marks, and stop 1 word for word', () => {
  const view = viewOf(fresh());
  const stops = [0, 1, 2, 3].map((k) => tourStop(view, k));
  assert.deepEqual(stops.map((s) => [s.title, s.k, s.of]), [
    ['The query of the last “the”', 0, 4], ['The key of “cat”', 1, 4], ['The score and the weight', 2, 4], ['The output', 3, 4],
  ]);
  assert.deepEqual(stops.map((s) => s.marks), [
    [{ m: 'X', row: 4 }, { m: 'Wq', row: 2, col: 0 }, { m: 'Q', row: 4, col: 0 }],
    [{ m: 'X', row: 1 }, { m: 'Wk', col: 0 }, { m: 'K', col: 0 }],
    [{ m: 'S', row: 4 }, { m: 'A', row: 4, col: 1 }],
    [{ m: 'V', row: 1 }, { m: 'O', row: 4 }],
  ]);
  assert.equal(stops[0].text, 'Follow the last “the”, “the” (5), through the steps. Its embedding (row 5 of X) is mostly “small word”. ' +
    'Wq maps “small word” onto query dimension 1 (Wq = 2.000 there), so its query says “I’m looking for a thing”: Q[5][1] = 2.000.');
  // A = e^1.5 / (e^1.5 + 4) = 0.528: scores 3/√4 = 1.5 for “cat”, 0 for the other four
  assert.equal(stops[2].text, 'Their dot product, q₅·k₂ = 3.000, is the largest score in the row. After scaling (S = 1.500), masking and softmax, “the” (5) gives 0.528 of its attention to “cat” (2): about half.');
});

test('the tour reads the query dimension the last token uses: the same head with dimensions 1 and 3 swapped', () => {
  const config = withRows(cat, { Wq: swapCols(cat.Wq, 0, 2), Wk: swapCols(cat.Wk, 0, 2) });
  const view = computeView(attn, S.headOf(own(config)), null);
  const stops = [0, 1, 2, 3].map((k) => tourStop(view, k));
  assert.match(stops[0].text, /Wq maps “small word” onto query dimension 3 \(Wq = 2\.000 there\), so its query says “I’m looking for a thing”: Q\[5\]\[3\] = 2\.000\.$/);
  assert.equal(stops[1].text, 'Wk maps “thing” onto that same dimension 3, so “cat” (2) has the largest key number there: K[2][3] = 1.500.');
  assert.deepEqual([stops[0].cell, stops[1].cell], [{ m: 'Q', i: 4, j: 2 }, { m: 'K', i: 1, j: 2 }]);
  assert.deepEqual(stops[0].marks[1], { m: 'Wq', row: 2, col: 2 });
  // the features in another order (“action” first): Wk's row for “thing” is row 2, not row 1
  const order = [1, 0, 2, 3];
  const reordered = withRows(cat, {
    features: order.map((f) => cat.features[f]), X: cat.X.map((row) => order.map((f) => row[f])),
    Wq: order.map((f) => cat.Wq[f]), Wk: order.map((f) => cat.Wk[f]), Wv: order.map((f) => cat.Wv[f]),
  });
  const key = tourStop(computeView(attn, S.headOf(own(reordered)), null), 1);
  assert.equal(key.text, 'Wk maps “thing” onto that same dimension 1, so “cat” (2) has the largest key number there: K[2][1] = 1.500.');
});

test('the tour’s score stop says so when the key it follows is not the largest score of the row', () => {
  // the last “the” also asks on dimension 3 (q = [2, 0, 1, 0]) and “sat” has a key of 4 there:
  // scores 0, 3 (“cat”, the largest key on dimension 1), 4 (“sat”), 0, 0
  const config = withRows(cat, { Wq: cat.Wq.map((row, f) => (f === 2 ? [2, 0, 1, 0] : row)), Wk: cat.Wk.map((row, f) => (f === 1 ? [0, 0, 4, 0] : row)) });
  const stop = tourStop(computeView(attn, S.headOf(own(config)), null), 2);
  assert.match(stop.text, /^Their dot product, q₅·k₂ = 3\.000, is below the largest score in the row, that of “sat” \(3\)\. After scaling \(S = 1\.500\)/);
  assert.deepEqual(grammar(stop.text), []);
});

test('the tour names ties: two keys, two scores (no longer about half), two largest components', () => {
  // “on” is a thing too: its key equals that of “cat”, so the scores of row 5 are 0, 1.5, 0, 1.5, 0
  const twoThings = withRows(cat, { X: cat.X.map((row, i) => (i === 3 ? [1, 0, 0, 0] : row)) });
  const view = computeView(attn, S.headOf(own(twoThings)), null);
  const stops = [0, 1, 2, 3].map((k) => tourStop(view, k));
  assert.equal(stops[1].text, 'Wk maps “thing” onto that same dimension 1, so “cat” (2) and “on” (4) have the largest key number there: K[2][1] = 1.500.');
  // A = e^1.5 / (2 e^1.5 + 3) = 4.4817 / 11.9634 = 0.375; each other token 1 / 11.9634 = 0.0836
  assert.equal(stops[2].text, 'Their dot product, q₅·k₂ = 3.000, ties for the largest score in the row with “on” (4). After scaling (S = 1.500), masking and softmax, “the” (5) gives 0.375 of its attention to “cat” (2).');
  // O = 2 × 0.375 × [1, 0, 0, 0] + 0.0836 × ([0, 0, 0.5, 0.5] + [0, 1, 0, 0] + [0, 0, 0.5, 0])
  assert.match(stops[3].text, /^The output row of “the” \(5\) is \[0\.749, 0\.084, 0\.084, 0\.042\]\. Its largest component is “thing”, 0\.749: “cat” \(2\)’s value \[1\.000, 0\.000, 0\.000, 0\.000\] weighted by 0\.375,/);
  // “thing” also writes the second component, “action” writes nothing: O = [0.528, 0.528, 0.177, 0.059]
  // (“The”, “on” and “the” add 0.5 × 0.118 each to the third; the output's columns are no longer the features)
  const both = withRows(cat, { Wv: [[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0.5, 0], [0, 0, 0, 0.5]] });
  const out = tourStop(computeView(attn, S.headOf(own(both)), null), 3);
  assert.match(out.text, /^The output row of “the” \(5\) is \[0\.528, 0\.528, 0\.177, 0\.059\]\. Its largest components are “v1” and “v2”, 0\.528: “cat” \(2\)’s value \[1\.000, 1\.000, 0\.000, 0\.000\] weighted by 0\.528,/);
  assert.deepEqual(out.cell, { m: 'O', i: 4, j: 0 });
  for (const s of [...stops, out]) assert.deepEqual(grammar(s.text), [], s.text);
});

// ------------------------------------------------------------------------------ the leak report

/** The largest change of any entry of O's row i against "before": the leak report's "by up to". */
const rowChange = (view, i) => {
  let d = 0;
  for (let c = 0; c < view.r.dv; c++) d = Math.max(d, Math.abs(view.r.O[i * view.r.dv + c] - view.before[i * view.r.dv + c]));
  return d;
};
const upTo = (view, rows) => fmt(Math.max(...rows.map((i) => rowChange(view, i))));
/** A head with Q, K and V given, the leak check on, then the edits [m, i, j, v]. */
const leakOn = (config, edits) => {
  const state = own(config);
  S.toggleLeak(state);
  for (const [m, i, j, v] of edits) S.setValue(state, m, i, j, v);
  const view = viewOf(state);
  return { view, report: leakReport(view, state.leak.base) };
};
const abc = (q, k, v, causal) => ({ tokens: ['a', 'b', 'c'], Q: q, K: k, V: v, causal });

test('the leak report: an edit that moves nothing (equal keys keep the weights at one half) says so, with and without the mask', () => {
  const twins = { tokens: ['a', 'b'], Q: [[1, 0], [1, 0]], K: [[1, 0], [1, 0]], V: [[1, 0], [0, 1]] };
  const masked = leakOn({ ...twins, causal: true }, [['Q', 1, 0, 3]]);
  assert.equal(masked.report.text, 'You changed “b” (2). Row 1 of O is unchanged: every entry is exactly as before, a difference of 0, because the causal mask gives the later token a weight of exactly 0 in that row. Nothing leaks backwards.');
  assert.deepEqual(masked.report.rows, [{ i: 0, same: true, diff: 0 }, { i: 1, same: true, diff: 0 }]);
  const open = leakOn({ ...twins, causal: false }, [['Q', 1, 0, 3]]);
  assert.equal(open.report.text, 'You changed “b” (2). Row 1 of O is unchanged: every entry is exactly as before, a difference of 0. Nothing leaks backwards.');
});

test('the leak report with Q, K and V given: a query moves its own row only; two edited rows are named in order', () => {
  const q = [[1, 0], [0, 1], [1, 1]], k = [[1, 0], [0, 1], [1, 1]], v = [[1, 0], [0, 2], [3, 1]];
  const query = leakOn(abc(q, k, v, true), [['Q', 1, 0, 2]]);
  assert.deepEqual(query.report.rows.map((x) => x.same), [true, false, true]);
  assert.equal(query.report.text, `You changed “b” (2). Row 1 of O is unchanged: every entry is exactly as before, a difference of 0, because the causal mask gives the later token a weight of exactly 0 in that row. Nothing leaks backwards. Row 2 changed, by up to ${upTo(query.view, [1])}.`);
  // Q of “c” first, then K of “b”: the rows are named in token order
  const two = leakOn(abc(q, k, v, true), [['Q', 2, 0, 2], ['K', 1, 1, 3]]);
  assert.equal(two.report.text, `You changed “b” (2) and “c” (3). Row 1 of O is unchanged: every entry is exactly as before, a difference of 0, because the causal mask gives the later token a weight of exactly 0 in that row. Nothing leaks backwards. Rows 2 and 3 changed, by up to ${upTo(two.view, [1, 2])}.`);
  assert.notEqual(fmt(rowChange(two.view, 1)), fmt(rowChange(two.view, 2)), 'the two rows change by different amounts: “up to” is the larger');
});

test('the leak report without the mask: only the rows whose query sees the changed key move; row 1 alone is “row 1”', () => {
  // K of “c” gets a first component: rows 1 and 3 (query [1, 0]) see it, row 2 (query [0, 1]) does not
  const partial = leakOn(abc([[1, 0], [0, 1], [2, 0]], [[1, 0], [0, 1], [0, 0]], [[1, 0], [0, 1], [0, 0]], false), [['K', 2, 0, 1]]);
  assert.deepEqual(partial.report.rows.map((x) => x.same), [false, true, false]);
  // row 1 before: scores [1, 0, 0]/√2, weights 2.0281/4.0281 and 1/4.0281: O = [0.5035, 0.2483];
  // after [1, 0, 1]/√2: weights 2.0281/5.0562 and 1/5.0562: O = [0.4011, 0.1978]: up to 0.102
  assert.equal(partial.report.text, `You changed “c” (3), and row 1 changed too, by up to 0.102: without the causal mask, earlier tokens look at the later one, so its change leaks backwards. Row 3 changed, by up to ${upTo(partial.view, [2])}.`);
  const cat2 = fresh();
  S.setCausal(cat2, false);
  S.toggleLeak(cat2);
  S.setValue(cat2, 'X', 1, 1, 1);
  const view = viewOf(cat2);
  assert.equal(leakReport(view, cat2.leak.base).text, `You changed “cat” (2), and row 1 changed too, by up to ${upTo(view, [0])}: without the causal mask, earlier tokens look at the later one, so its change leaks backwards. Rows 2, 3, 4 and 5 changed, by up to ${upTo(view, [1, 2, 3, 4])}.`);
});

test('the leak report: a changed weight (Wk, Wv), tokens added, and a head of Q, K and V shown over a projection head', () => {
  const weight = 'You changed a learned weight, which every token uses, so every row of O may change. To see the mask at work, press “Reset to the preset”, then, with the check on, change one later token’s row of X.';
  for (const m of ['Wk', 'Wv']) {
    const s = fresh();
    S.toggleLeak(s);
    S.setValue(s, m, 3, 3, 1);
    assert.equal(leakReport(viewOf(s), s.leak.base).text, weight, m);
  }
  const added = fresh();
  S.toggleLeak(added);
  S.addToken(added);
  assert.deepEqual(leakReport(viewOf(added), added.leak.base), { text: 'Tokens were added or removed since the leak check started, so there is no row-by-row “before”. Turn the check off and on again to compare from here.', rows: [] });
  // a trained head replaces the numbers (showHead) while the check is on: the forms differ, no row counts as edited
  const shown = fresh();
  S.toggleLeak(shown);
  S.showHead(shown, { tokens: cat.tokens, Q: cat.X, K: cat.X, V: cat.X });
  assert.equal(leakReport(viewOf(shown), shown.leak.base).text, 'Leak check on. Now change a later token: a number in its row of Q, K or V. Each row of O is then compared with O as it is now.');
});
