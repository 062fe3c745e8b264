// The explorer page's own sentences (web/explorer/notes.js): the preset note, the guided tour
// and the leak report, checked against the numbers and the sentence rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { parseConfig } from '../../web/blocks/config.js';
import { PRESETS } from '../../web/blocks/presets.js';
import { fmt } from '../../web/blocks/format.js';
import * as S from '../../web/explorer/state.js';
import { computeView } from '../../web/explorer/mount.js';
import { presetNote, ownHeadLabel, tourStop, leakReport } from '../../web/explorer/notes.js';
import { grammar, numbersFrom, shownNumbers } from '../sentence-rules.mjs';
import { displayed } from '../../web/blocks/explain.js';

const attn = await loadAttention();
const fresh = (name = 'cat') => {
  const state = S.createState();
  S.setPreset(state, name);
  return state;
};
const viewOf = (state) => computeView(attn, state.config, state.step, state.leak && state.leak.base);

test('the preset note: the preset’s own note, or exactly what changed and how to go back', () => {
  for (const name of Object.keys(PRESETS)) assert.equal(presetNote(fresh(name)), PRESETS[name].note);
  const s = fresh();
  S.setCausal(s, false);
  assert.equal(presetNote(s), 'The preset “The cat sat on the”, with the causal mask off. To go back, turn the causal mask on again (key M), or press “Reset to the preset”.');
  assert.equal(ownHeadLabel(s), 'The cat sat on the (changed)');
  S.setValue(s, 'X', 4, 0, 2);
  S.setValue(s, 'Wq', 0, 0, 1);
  S.setValue(s, 'Wq', 1, 1, 1);
  assert.equal(presetNote(s), 'The preset “The cat sat on the”, with the causal mask off and 1 value of X and 2 of Wq changed. To go back, press “Reset to the preset”.');
  S.renameToken(s, 1, 'dog');
  assert.match(presetNote(s), /with the causal mask off, 1 value of X and 2 of Wq changed|token 2 renamed/);
  S.addToken(s);
  assert.match(presetNote(s), /with the causal mask off and 6 tokens instead of 5\./);
  const w = fresh('worked-example');
  S.setCausal(w, true);
  S.setScaling(w, false);
  assert.equal(presetNote(w), 'The preset “The lesson’s worked example”, with the causal mask on and scaling off. To go back, turn the causal mask off again (key M) and turn scaling on again (key S), or press “Reset to the preset”.');
  const own = S.createState();
  S.setConfig(own, { X: [[1, 2]], Wq: [[1], [0]], Wk: [[1], [0]], Wv: [[1], [1]] });
  assert.equal(ownHeadLabel(own), '(your own head)');
  assert.match(presetNote(own), /^Your own head, loaded from a config\./);
  S.setValue(own, 'X', 0, 1, 3);
  assert.match(presetNote(own), /^Your own head, loaded from a config, with 1 value of X changed\./);
  for (const st of [s, w, own]) assert.deepEqual(grammar(presetNote(st)), []);
});

test('the tour’s four stops follow “Reading the matrices” with the cat preset’s own numbers', () => {
  const state = fresh();
  const view = viewOf(state);
  const shown = shownNumbers(view, displayed);
  const stops = [0, 1, 2, 3].map((k) => tourStop(view, k));
  for (const s of stops) {
    assert.deepEqual(grammar(s.text), [], s.text);
    assert.deepEqual(numbersFrom(s.text, shown), [], s.text);
    assert.ok(s.marks.length > 0 && s.cell);
  }
  assert.match(stops[0].text, /mostly “small word”\. Wq maps “small word” onto query dimension 1 \(Wq = 2\.000 there\), so its query says “I’m looking for a thing”: Q\[5\]\[1\] = 2\.000\./);
  assert.match(stops[1].text, /^Wk maps “thing” onto that same dimension 1, so “cat” \(2\) has the largest key number there: K\[2\]\[1\] = 1\.500\./);
  const a = fmt(view.r.A[4 * 5 + 1]);
  assert.match(stops[2].text, new RegExp(`q₅·k₂ = 3\\.000, is the largest score in the row\\. After scaling \\(S = 1\\.500\\), masking and softmax, “the” \\(5\\) gives ${a} of its attention to “cat” \\(2\\): about half\\.`));
  assert.match(stops[3].text, /^The output row of “the” \(5\) is \[0\.528, 0\.118, 0\.177, 0\.059\]\. Its largest component is “thing”, 0\.528: “cat” \(2\)’s value \[1\.000, 0\.000, 0\.000, 0\.000\] weighted by 0\.528/);
  assert.deepEqual(stops.map((s) => `${s.cell.m}${s.cell.i}${s.cell.j}`), ['Q40', 'K10', 'A41', 'O40']);
  assert.equal(S.tourAvailable(state), true);
  S.setCausal(state, false);
  assert.equal(S.tourAvailable(state), false, 'the tour needs the unchanged cat preset');
});

test('the leak report: with the mask, rows before an edited token are unchanged (difference exactly 0); without it they change', () => {
  const state = fresh();
  S.toggleLeak(state);
  assert.match(leakReport(viewOf(state), state.leak.base).text, /^Leak check on\. Now change a later token: a number in its row of X\./);
  S.setValue(state, 'X', 4, 0, 2);
  let r = leakReport(viewOf(state), state.leak.base);
  assert.deepEqual(r.rows.map((x) => x.same), [true, true, true, true, false]);
  assert.deepEqual(r.rows.slice(0, 4).map((x) => x.diff), [0, 0, 0, 0]);
  assert.match(r.text, /^You changed “the” \(5\)\. Rows 1 to 4 of O are unchanged: every entry is exactly as before, a difference of 0, because the causal mask gives the later token a weight of exactly 0 in those rows\. Nothing leaks backwards\. Row 5 changed, by up to /);
  S.setCausal(state, false);
  r = leakReport(viewOf(state), state.leak.base);
  assert.ok(r.rows.slice(0, 4).every((x) => !x.same && x.diff > 0));
  assert.match(r.text, /^You changed “the” \(5\), and all of rows 1 to 4 changed too, by up to \d\.\d{3}: without the causal mask, earlier tokens look at the later one, so its change leaks backwards\./);
  assert.deepEqual(grammar(r.text), []);
  // an edit of token 2 with the mask: only row 1 is before it
  const two = fresh();
  S.toggleLeak(two);
  S.setValue(two, 'X', 1, 1, 1);
  assert.match(leakReport(viewOf(two), two.leak.base).text, /Row 1 of O is unchanged/);
  // the first token: nothing comes before it
  const first = fresh();
  S.toggleLeak(first);
  S.setValue(first, 'X', 0, 0, 1);
  assert.match(leakReport(viewOf(first), first.leak.base).text, /no row of O comes before it/);
  // a weight: every row may change
  const wq = fresh();
  S.toggleLeak(wq);
  S.setValue(wq, 'Wq', 0, 0, 1);
  assert.match(leakReport(viewOf(wq), wq.leak.base).text, /^You changed a learned weight, which every token uses/);
  // tokens added: no row-by-row before
  const added = fresh();
  S.toggleLeak(added);
  S.addToken(added);
  assert.match(leakReport(viewOf(added), added.leak.base).text, /^Tokens were added or removed/);
  // the direct form: editing a later token's row of V
  const we = fresh('worked-example');
  S.setCausal(we, true);
  S.toggleLeak(we);
  S.setValue(we, 'V', 2, 0, 5);
  assert.match(leakReport(viewOf(we), we.leak.base).text, /^You changed token 3\. Rows 1 and 2 of O are unchanged/);
});

test('clipMessage: a text of exactly max characters stays whole; one more is cut to max with “…”', async () => {
  const { clipMessage, MAX_MESSAGE } = await import('../../web/blocks/words.js');
  assert.equal(clipMessage('abcdef', 6), 'abcdef');
  assert.equal(clipMessage('abcdefg', 6), 'abcde…');
  assert.equal(clipMessage('x'.repeat(MAX_MESSAGE)), 'x'.repeat(400));
  assert.equal(clipMessage('x'.repeat(401)), 'x'.repeat(399) + '…');
  assert.equal(clipMessage(12345, 3), '12…');
});
