// The induction page's own state (web/induction/state.js): the actions the panel's controls take,
// the request each hands the engine, every text the panel shows, the score split of one query and
// the head handed to the explorer. Pure: the updates come from the engine run on this thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { MODEL, LR_CHOICES, HEAD_CHOICES, MAX_STEPS, readInductionUrl, circuitAblation, headName } from '../../web/induction/words.js';
import * as S from '../../web/induction/state.js';
import { createEngine } from '../../web/induction/engine.js';

const attn = await loadAttention();

/** The engine's latest update after `steps` steps of seed 3 with head `head` open. */
function update({ steps = 30, head = 1, ablate = [], control = true, heads = 1 } = {}) {
  let last = null;
  const e = createEngine(attn, (m) => (last = m));
  e.handle({ type: 'init', settings: { seed: 3, lr: 0.02, heads, ex: 0, head, ablate, control }, steps });
  e.dispose();
  return last;
}

test('a panel starts from the link’s settings, its notes shown as the error, and its init request replays at most MAX_STEPS', () => {
  const initial = readInductionUrl('?mode=induction&seed=7&lr=0.01&steps=99999&head=2.1&ablate=1.1&control=0&lr=bogus');
  const st = S.createState(initial);
  assert.deepEqual([st.seed, st.head, st.ablate, st.control, st.playing, st.query], [7, initial.head, initial.ablate, false, false, null]);
  assert.equal(st.error, initial.notes.join(' '));
  assert.notEqual(st.ablate, initial.ablate, 'a copy: the panel’s changes never reach the link’s state');
  const init = S.initRequest(st, initial.steps);
  assert.equal(init.type, 'init');
  assert.ok(init.steps <= MAX_STEPS);
  assert.deepEqual(init.settings, { seed: st.seed, lr: st.lr, heads: st.heads, ex: st.ex, head: st.head, ablate: st.ablate, control: st.control });
});

test('play clears the error and runs; pause stops; an update says whether training runs; an error stops it and says why', () => {
  const st = S.createState(readInductionUrl('?steps=5&bogus=1'));
  assert.deepEqual(S.play(st), { type: 'run' });
  assert.deepEqual([st.playing, st.error], [true, '']);
  assert.deepEqual(S.pause(st), { type: 'pause' });
  assert.equal(st.playing, false);
  const u = update({ steps: 0 });
  assert.equal(S.receive(st, { ...u, running: true }).step, 0);
  assert.equal(st.playing, true);
  assert.equal(S.receive(st, { type: 'error', message: 'out of memory' }), null);
  assert.equal(st.playing, false);
  assert.match(st.error, /^Training stopped: out of memory\.$/);
});

test('the menus take only the choices they offer, and a new model clears the opened and ablated heads', () => {
  const st = S.createState(readInductionUrl('?head=2.1&ablate=1.1'));
  for (const lr of LR_CHOICES) assert.deepEqual(S.setLr(st, lr), { type: 'lr', lr });
  assert.equal(S.setLr(st, 0.123), null);
  assert.equal(st.lr, LR_CHOICES[LR_CHOICES.length - 1]);
  assert.equal(S.setHeads(st, st.heads), null, 'the same model: nothing to do');
  assert.equal(S.setHeads(st, 99), null);
  st.query = 4;
  const other = HEAD_CHOICES.find((h) => h !== st.heads);
  assert.deepEqual(S.setHeads(st, other), { type: 'heads', heads: other });
  assert.deepEqual([st.heads, st.head, st.ablate, st.query], [other, null, [], null]);
  assert.deepEqual(S.setControl(st, false), { type: 'control', on: false });
  assert.equal(st.control, false);
});

test('re-rolls are reproducible: the same seed always leads to the same next seed, another to another', () => {
  const a = S.createState(readInductionUrl('?seed=1')), b = S.createState(readInductionUrl('?seed=1'));
  const seen = new Set();
  for (let k = 0; k < 20; k++) {
    const r = S.reroll(a);
    assert.deepEqual(S.reroll(b), r);
    assert.ok(Number.isInteger(r.seed) && r.seed >= 0 && r.seed < 1000000);
    seen.add(r.seed);
  }
  assert.ok(seen.size > 15, 'the seeds differ');
});

test('opening, ablating and the next sequence change what is shown, never the training', () => {
  const st = S.createState(readInductionUrl(''));
  const shown = (r) => assert.deepEqual(r, { type: 'show', ex: st.ex, head: st.head, ablate: st.ablate });
  shown(S.toggleOpen(st, 1));
  assert.equal(st.head, 1);
  shown(S.toggleOpen(st, 1));
  assert.equal(st.head, null, 'a second click closes it');
  shown(S.toggleAblate(st, 0));
  shown(S.toggleAblate(st, 1));
  assert.deepEqual(st.ablate, [0, 1]);
  shown(S.toggleAblate(st, 0));
  assert.deepEqual(st.ablate, [1]);
  const ex = st.ex;
  shown(S.nextExample(st));
  assert.equal(st.ex, ex + 1);
  st.ex = 999;
  S.nextExample(st);
  assert.equal(st.ex, 0, 'the sequences wrap');
});

test('the circuit button ablates every induction head and restores them, keeping the other ablated heads', () => {
  const st = S.createState(readInductionUrl(''));
  assert.equal(S.toggleCircuit(st, null), null, 'no update yet');
  const last = update({ steps: 0 });
  const circuit = circuitAblation(last.evals[last.evals.length - 1].induction, st.ablate);
  if (!circuit) assert.equal(S.toggleCircuit(st, last), null, 'no induction head at step 0: nothing to press');
  // a made-up evaluation with a strong induction head in layer 2
  const induction = last.evals[0].induction.map((_, h) => (h >= MODEL.heads ? 0.9 : 0.1));
  const formed = { ...last, evals: [{ ...last.evals[0], induction }] };
  const other = 0;
  st.ablate = [other];
  const on = circuitAblation(induction, st.ablate);
  assert.ok(on && !on.pressed);
  S.toggleCircuit(st, formed);
  assert.deepEqual(st.ablate.slice().sort(), [other, ...on.heads].sort());
  S.toggleCircuit(st, formed);
  assert.deepEqual(st.ablate, [other]);
});

test('the panel’s texts: the buttons before any update; then the step, the seed, where it trains, the sequence, the circuit', () => {
  const st = S.createState(readInductionUrl(''));
  const before = S.panelText(st, null, 'worker');
  assert.equal(before.model, null);
  assert.match(before.run, /Train/);
  st.playing = true;
  assert.match(S.panelText(st, null, 'worker').run, /Pause/);
  assert.equal(S.panelText(st, null, 'worker').live, 'off', 'no announcements while training');
  st.playing = false;
  const last = update({ steps: 20 });
  const { model } = S.panelText(st, last, 'worker');
  assert.match(model.where, /^Seed 3; training in a Web Worker/);
  assert.match(S.panelText(st, last, 'page').model.where, /this page \(no worker here\)/);
  assert.match(model.status, /20/);
  assert.equal(model.seq, last.view.tokens.join(' '));
  assert.match(model.seqName, new RegExp(`^sequence ${last.settings.ex + 1} \\(k = ${last.view.k}\\)$`));
  for (const k of ['says', 'curveCaption', 'ablation']) assert.ok(model[k].length > 0, k);
});

test('the split of a layer-2 head’s scores: the parts add up to the core’s score of every key the query sees, the heatmap’s last row is that score', () => {
  const last = update({ steps: 40, head: MODEL.heads }); // head 2.1
  const hv = last.view.head;
  assert.ok(hv.split, `head ${headName(MODEL.heads)} is in layer 2`);
  for (const i of [0, 5, MODEL.n - 1]) {
    const t = S.splitTable(hv, last.view.tokens, i, last.settings.heads);
    assert.equal(t.keys, i + 1);
    assert.equal(t.rows.length, t.parts.length + 1);
    assert.equal(t.colLabels.length, t.keys);
    let worst = 0;
    for (let j = 0; j < MODEL.n; j++) {
      if (j > i) {
        for (const p of t.parts) assert.ok(Number.isNaN(p[j]), 'a key the query cannot see has no share');
        continue;
      }
      const sum = t.parts.reduce((s, p) => s + p[j], 0);
      worst = Math.max(worst, Math.abs(sum - t.total[j]));
      assert.equal(t.data[t.parts.length * t.keys + j], t.total[j]);
    }
    assert.ok(worst < 1e-4, `query ${i}: the parts add up to S (max difference ${worst})`);
  }
  assert.equal(S.queryOf(null, MODEL.n), MODEL.n - 1, 'the last token unless one is chosen');
  assert.equal(S.queryOf(3, MODEL.n), 3);
  assert.equal(S.queryOf(MODEL.n + 4, MODEL.n), MODEL.n - 1, 'a query of a longer sequence');
});

test('with head 1.1 ablated, head 2.1’s split gives head 1.1 a share of 0 and the shares add up to the S shown (issue 26: they once summed to the unablated score)', () => {
  const last = update({ steps: 300, head: 1, ablate: [0] });
  const hv = last.view.head;
  const i = MODEL.n - 1, t = S.splitTable(hv, last.view.tokens, i, 1);
  let worst = 0;
  for (let j = 0; j <= i; j++) {
    assert.equal(t.parts[1][j], 0, `key ${j}: the ablated head writes nothing`);
    worst = Math.max(worst, Math.abs(t.parts[0][j] + t.parts[1][j] - t.total[j]));
  }
  assert.ok(worst < 1e-4, `the shares add up to S (max difference ${worst})`);
  // the story still describes the whole model: its copy readout and A are the unablated ones
  const full = update({ steps: 300, head: 1 });
  assert.deepEqual(last.view.full.A[1], full.view.full.A[1]);
  assert.notDeepEqual(last.view.A[1], full.view.A[1], 'the grid shows the ablated model');
  const text = S.panelText(S.createState(readInductionUrl('?head=2.1&ablate=1.1')), last, 'worker').model;
  assert.match(text.copy, /What head 2\.1 writes/);
  assert.match(text.explorer, /^The explorer below shows head 2\.1 of the model at step 300/);
  assert.match(text.ablation, /Without head 1\.1, .*because head 1\.1 is the previous-token head the induction head reads its keys from/);
});

test('the explorer is handed the opened head’s residual stream and weights, and the key changes with its step', () => {
  assert.equal(S.headKey(update({ head: null })), null);
  const a = update({ steps: 10 }), b = update({ steps: 20 });
  assert.notEqual(S.headKey(a), S.headKey(b));
  assert.equal(S.headKey(a), S.headKey(update({ steps: 10 })));
  const { config, extra } = S.explorerHead(b);
  assert.equal(config.X.length, MODEL.n);
  assert.equal(config.X[0].length, MODEL.d);
  assert.deepEqual([config.Wq.length, config.Wq[0].length], [MODEL.d, MODEL.dh]);
  assert.equal(config.tokens, b.view.tokens);
  assert.ok(config.causal);
  assert.deepEqual(extra.trained, { step: 20 });
  assert.ok(extra.gradients, 'a trained head has gradients');
  assert.equal(S.explorerHead(update({ steps: 0 })).extra.gradients, null, 'step 0 has none');
});
