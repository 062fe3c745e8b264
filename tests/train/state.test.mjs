// train-state.test.mjs: the training panel's state module (web/train/state.js) in Node, with the
// real core: every path to a step ends in the same state, what the optimizer did is said as it
// happened, and the live region's pace. The words themselves are in train-ui.test.mjs.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { parseConfig, forwardArgs } from '../../web/blocks/config.js';
import { TrainSession, panelModel, readoutExplanation, announce, showable, ANNOUNCE_EVERY_MS } from '../../web/train/state.js';
import { readTrainUrl, lossLabel, seedLine, lossCurve, TASKS, MAX_STEPS } from '../../web/train/words.js';
import { explainCell } from '../../web/blocks/explain.js';
import { MARKUP } from '../../web/train/markup.js';

const attn = await loadAttention();

// Every trainer a test creates (its sessions', their scratch replays', its own) is freed after
// it, even when the test fails half-way: the core has 8 trainer slots, and a test that fails
// under a mutant must not leave the next tests without one.
const created = [];
const createTrainer = attn.createTrainer.bind(attn);
attn.createTrainer = (options) => {
  const t = createTrainer(options);
  created.push(t);
  return t;
};
afterEach(() => { for (const t of created.splice(0)) t.dispose(); });

/** A session from a link, as the page reads it. */
const fromLink = (query) => new TrainSession(attn, readTrainUrl(query));

/** What the page shows for a session: the explorer's result for the head on show, and the model. */
function screen(s) {
  const config = parseConfig(s.shown.config);
  const r = attn.forward(forwardArgs(config));
  const m = panelModel(s, { r, tokens: config.tokens, follow: null });
  return { steps: s.trainer.steps, losses: s.losses.slice(), shownStep: s.shown.step, config: s.shown.config, error: m.error, says: m.head.says, caption: m.curveCaption, loss: m.lossText, O: Array.from(r.O) };
}

test('a link replayed past a blow-up ends where stepping by hand does: same step, losses, last finite weights and words', () => {
  const link = '?mode=train&task=find-the-noun&seed=1&opt=sgd&lr=10&steps=60';
  const replayed = fromLink(link);
  while (!replayed.replayChunk(7)); // chunks of 7: the boundaries must not matter
  const byHand = fromLink(link.replace('&steps=60', ''));
  for (let k = 0; k < 60; k++) byHand.stepBy(1);
  const a = screen(replayed), b = screen(byHand);
  assert.deepEqual(a, b);
  assert.ok(a.steps < 60, `SGD at lr 10 blows up before step 60 (stopped at ${a.steps})`);
  assert.equal(a.shownStep, a.steps - 1, 'the weights shown are the last that were numbers');
  assert.equal(a.losses.length, a.steps, 'every step taken keeps its loss');
  assert.ok(a.losses.slice(0, 3).every(Number.isFinite));
  assert.match(a.caption, new RegExp(`^The loss of each step’s batch: ${a.losses[0].toFixed(3)} at step 1, `));
  assert.match(a.error, new RegExp(`^Training stopped at step ${a.steps}: the weights became NaN or Infinity; lower the learning rate \\(now 10\\) and press Reset\\. The matrices below show the weights after step ${a.steps - 1}, the last that were still numbers\\.$`));
  assert.match(a.says, new RegExp(`^step ${a.steps}: loss ∞; the weights after step ${a.steps - 1}, the last that were numbers; “the” \\(5\\) puts \\d\\.\\d{3} of its attention on “cat” \\(2\\)`));
  // The head shown is not the step-0 head (what the explorer held before the replay).
  assert.notDeepEqual(a.config.Wq, fromLink(link.replace('&steps=60', '')).shown.config.Wq);
  replayed.dispose();
  byHand.dispose();
});

test('replaying a link in chunks of any size gives the weights and losses of one go and of pressing Train', () => {
  const link = '?mode=train&task=previous-token&seed=4&lr=0.01,30:0.03&steps=95';
  const oneGo = fromLink(link);
  oneGo.replayChunk(1e6);
  const chunked = fromLink(link);
  let chunks = 0;
  while (!chunked.replayChunk(13)) chunks++;
  assert.equal(chunks, Math.ceil(95 / 13) - 1);
  const played = fromLink(link.replace('&steps=95', ''));
  played.setSpeed(5);
  played.play();
  while (played.trainer.steps < 95) played.tick();
  for (const other of [chunked, played]) {
    assert.equal(other.trainer.steps, 95);
    assert.deepEqual(other.trainer.weights(), oneGo.trainer.weights());
    assert.deepEqual(other.losses, oneGo.losses);
  }
  assert.equal(oneGo.replay, null);
  assert.equal(oneGo.replayChunk(10), true, 'nothing left to replay');
  for (const s of [oneGo, chunked, played]) s.dispose();
});

test('any action during a replay ends it at the step reached', () => {
  const s = fromLink('?mode=train&task=find-the-noun&seed=1&steps=500');
  s.replayChunk(40);
  assert.equal(s.trainer.steps, 40);
  s.stepBy(1);
  assert.equal(s.replay, null);
  assert.equal(s.replayChunk(100), true);
  assert.equal(s.trainer.steps, 41);
  s.dispose();
});

test('what the optimizer did: Adam moves some weights the same way as their gradient, and the words say so; SGD never does', () => {
  const s = fromLink('?mode=train&task=find-the-noun&seed=1&steps=120');
  s.replayChunk(1e6);
  const g = s.shown.grads, u = s.shown.update;
  let withGradient = 0, total = 0;
  for (const [m, gm] of [['Wq', 'dWq'], ['Wk', 'dWk'], ['Wv', 'dWv'], ['Wout', 'dWout']]) {
    for (let e = 0; e < u[m].length; e++) {
      total++;
      if (u[m][e] * g[gm][e] > 0) withGradient++;
    }
  }
  console.log(`# step 120, find-the-noun seed 1, Adam: ${withGradient} of ${total} weights moved the same way as their gradient`);
  assert.ok(withGradient > 0, 'Adam follows running averages, so some weight goes with this step’s gradient');
  // A weight of Wq that moved with its gradient: its explanation says so, beside the step taken.
  const config = parseConfig(s.shown.config);
  const view = { config, r: attn.forward(forwardArgs(config)), raw: attn.forward(forwardArgs(config, 1)), step: null };
  const dk = s.trainer.dk;
  const e = u.Wq.findIndex((d, k) => d * g.dWq[k] > 0);
  assert.ok(e >= 0);
  const text = explainCell(view, 'Wq', Math.floor(e / dk), e % dk, s.shown.extra).text;
  assert.match(text, /Step 120 moved it by [+−][\d.e−]+ \((up|down), the same way as its gradient: uphill on this batch\)\. Adam moves each weight/);
  assert.doesNotMatch(text, /pushes it/);
  const shownDelta = /moved it by ([+−][\d.e−]+)/.exec(text)[1].replace(/\u2212/g, '-');
  assert.ok(Math.abs(Number(shownDelta) - u.Wq[e]) <= Math.max(5e-4, Math.abs(u.Wq[e]) * 5e-3), `${shownDelta} vs ${u.Wq[e]}`);
  // The read-out says the same kind of thing for its weights.
  const V = s.trainer.vocab.length;
  const o = u.Wout.findIndex((d, k) => d * g.dWout[k] < 0);
  assert.match(readoutExplanation(s, Math.floor(o / V), o % V).text, /against its gradient: downhill on this batch\)\. Adam moves each weight/);
  s.dispose();

  const sgd = fromLink('?mode=train&task=find-the-noun&seed=1&opt=sgd&lr=0.1&steps=20');
  sgd.replayChunk(1e6);
  const sg = sgd.shown.grads, su = sgd.shown.update;
  for (let k = 0; k < su.Wq.length; k++) {
    if (sg.dWq[k] === 0) continue;
    assert.ok(su.Wq[k] * sg.dWq[k] < 0, `SGD moved Wq[${k}] against its gradient`);
    assert.ok(Math.abs(su.Wq[k] + 0.1 * sg.dWq[k]) <= 1e-6 + 1e-3 * Math.abs(su.Wq[k]), `Δ = −lr·g at ${k}`);
  }
  const text2 = explainCell({ config: parseConfig(sgd.shown.config), r: attn.forward(forwardArgs(parseConfig(sgd.shown.config))), raw: null, step: null }, 'Wq', 0, 0, sgd.shown.extra).text;
  assert.match(text2, /SGD moves every weight by −lr × its gradient \(lr = 0\.1\), always against it/);
  sgd.dispose();
});

test('the live region speaks at most once every 2 s while training runs, and at once when it stops', () => {
  let last = { text: '', at: -Infinity };
  const said = [];
  for (let t = 0; t <= 10000; t += 16) { // a minute of frames at 60 Hz, each with a new sentence
    const next = announce(last, { text: `step ${t}`, running: true, now: t });
    if (next !== last) said.push(t);
    last = next;
  }
  assert.ok(said.length <= 1 + 10000 / ANNOUNCE_EVERY_MS, `${said.length} announcements in 10 s`);
  for (let k = 1; k < said.length; k++) assert.ok(said[k] - said[k - 1] >= ANNOUNCE_EVERY_MS);
  const paused = announce(last, { text: 'step 10001', running: false, now: last.at + 1 });
  assert.equal(paused.text, 'step 10001', 'a pause is said at once');
  assert.equal(announce(paused, { text: 'step 10001', running: false, now: paused.at + 5 }), paused, 'the same words are not said twice');
});

test('losses go through the one formatter: the same digits everywhere, a diverging loss in short form', () => {
  assert.equal(lossLabel(0, NaN), '');
  assert.equal(lossLabel(5, 0.0163), 'loss 0.016');
  assert.equal(lossLabel(37, 3.082097850087805e36), 'loss 3.08e36');
  assert.equal(lossLabel(39, NaN), 'loss not a number');
  const g = lossCurve([3.082097850087805e36, 2e37]);
  for (const t of g.yTicks) assert.doesNotMatch(t.label, /e\+|\d{6}/, t.label);
  const s = fromLink('?mode=train&task=find-the-noun&seed=1&steps=30');
  s.replayChunk(1e6);
  const config = parseConfig(s.shown.config);
  const m = panelModel(s, { r: attn.forward(forwardArgs(config)), tokens: config.tokens, follow: null });
  const shown = m.lossText.replace('loss ', '');
  assert.ok(m.head.says.includes(`loss ${shown};`), 'the narration quotes the counter’s loss');
  assert.ok(m.curveCaption.includes(`${shown} at step 30`), 'so does the curve’s caption');
  s.dispose();
});

test('the previous-token task is described by what it predicts: the token before, never the next one', () => {
  const s = fromLink('?mode=train&task=previous-token&seed=1&steps=40');
  s.replayChunk(1e6);
  const config = parseConfig(s.shown.config);
  const r = attn.forward(forwardArgs(config));
  for (const follow of [null, 3, 7]) {
    const m = panelModel(s, { r, tokens: config.tokens, follow });
    const words = [m.goal, m.curveCaption, m.head.says, m.head.prediction.caption].join(' ');
    assert.doesNotMatch(words, /next (word|token)/i, words);
    assert.match(m.head.prediction.caption, /^What “.+” \(\d\) says came before it: softmax of its scores\. The right answer is “[A-F]”\.$/);
  }
  assert.match(panelModel(s, { r, tokens: config.tokens, follow: null }).curveCaption, /less surprised by the right previous token\.$/);
  assert.doesNotMatch(MARKUP, /next (word|token)/i, 'the panel’s fixed intro fits both tasks');
  assert.match(TASKS['find-the-noun'].goal, /widget page’s “the cat sat on the”/);
  s.dispose();
});

test('the seed line gives the scale as √dk with its value', () => {
  assert.equal(seedLine({ seed: 1, ex: 0, batch: 16, dk: 8 }), 'Initial weights from seed 1; sentence 1 of the task; batches of 16 sequences. The head has dk = 8, so the scores are divided by √dk = √8 = 2.828.');
  assert.match(seedLine({ seed: 1, ex: 0, batch: 1, dk: 4 }), /batches of 1 sequence\. .*√dk = √4 = 2\.000\./);
});

test('the buttons and selects: play, tick, pause, speed, learning rate, next sentence, settings', () => {
  const s = fromLink('?mode=train&task=previous-token&seed=7');
  const lr0 = s.schedule[0].lr;
  assert.equal(s.tick(), false, 'a frame does nothing while paused');
  assert.equal(s.trainer.steps, 0);
  s.setSpeed(3);
  assert.equal(s.speed, 1, '3 is not one of the speeds');
  s.setSpeed(5);
  assert.equal(s.speed, 5);
  s.error = 'a note from the link';
  s.play();
  assert.equal(s.playing, true);
  assert.equal(s.error, '', 'playing clears the error line');
  assert.equal(s.tick(), true);
  assert.deepEqual([s.trainer.steps, s.losses.length, s.shown.step], [5, 5, 5]);
  s.pause();
  assert.equal(s.playing, false);
  assert.equal(s.tick(), false);
  assert.equal(s.trainer.steps, 5);
  for (const bad of [0, -1, NaN]) s.setLr(bad);
  assert.deepEqual(s.schedule, [{ at: 0, lr: lr0 }], 'a rate that is not positive is ignored');
  s.replay = { target: 40 };
  s.setLr(0.05);
  assert.deepEqual(s.schedule, [{ at: 0, lr: lr0 }, { at: 5, lr: 0.05 }]);
  assert.equal(s.replay, null, 'a new rate ends a replay');
  s.stepBy(1);
  assert.equal(s.trainer.lr, 0.05);
  assert.deepEqual(s.settings, { task: 'previous-token', seed: 7, optimizer: 'adam', schedule: [{ at: 0, lr: lr0 }, { at: 5, lr: 0.05 }], ex: 0, speed: 5, steps: 6 });
  const first = s.shown.config;
  s.nextExample();
  assert.deepEqual([s.ex, s.shown.ex, s.shown.step], [1, 1, 6]);
  assert.deepEqual(s.shown.config, s.trainer.example({ seed: 1 }));
  assert.notDeepEqual(s.shown.config.tokens, first.tokens);
  s.ex = 999;
  s.nextExample();
  assert.equal(s.ex, 0, 'sentence 1000 is followed by sentence 1 again');
  s.dispose();
});

test('Reset, re-roll, a new task or optimizer start again at step 0 with the rate in force', () => {
  const s = fromLink('?mode=train&task=previous-token&seed=7&lr=0.01,3:0.02');
  s.stepBy(4);
  s.error = 'old';
  s.play();
  s.restart();
  assert.deepEqual([s.trainer.steps, s.losses.length, s.playing, s.error, s.initialLoss, s.update, s.stopped, s.shown.step], [0, 0, false, '', null, null, null, 0]);
  assert.deepEqual(s.schedule, [{ at: 0, lr: 0.02 }], 'the rate in force at step 4, from step 0');
  assert.equal(s.trainer.lr, 0.02);
  const fresh = fromLink('?mode=train&task=previous-token&seed=7&lr=0.02');
  assert.deepEqual(s.trainer.weights(), fresh.trainer.weights());
  fresh.dispose();

  const seed = (Math.imul(7 ^ 0x9e3779b9, 0x85ebca6b) >>> 0) % 1000000;
  s.stepBy(2);
  s.reroll();
  assert.equal(s.seed, seed);
  assert.equal(s.trainer.steps, 0);
  const rerolled = fromLink(`?mode=train&task=previous-token&seed=${seed}&lr=0.02`);
  assert.deepEqual(s.trainer.weights(), rerolled.trainer.weights());
  rerolled.dispose();

  s.setTask('no-such-task');
  assert.equal(s.task, 'previous-token');
  s.stepBy(3);
  s.ex = 4;
  s.setTask('find-the-noun');
  assert.deepEqual([s.task, s.ex, s.trainer.steps], ['find-the-noun', 0, 0]);
  const noun = fromLink(`?mode=train&task=find-the-noun&seed=${seed}&lr=0.02`);
  assert.deepEqual(s.shown.config, noun.shown.config);
  noun.dispose();

  s.setOptimizer('rmsprop');
  assert.equal(s.optimizer, 'adam');
  s.stepBy(2);
  s.setOptimizer('sgd');
  assert.deepEqual([s.optimizer, s.trainer.optimizer, s.trainer.steps], ['sgd', 'sgd', 0]);
  s.dispose();
});

test('a stopped run does not play again, and playing stops at the step limit a link can replay', () => {
  const s = fromLink('?mode=train&task=find-the-noun&seed=1&opt=sgd&lr=10&steps=60');
  while (!s.replayChunk(60));
  assert.ok(s.stopped);
  s.play();
  assert.equal(s.playing, false, 'Play does nothing after a blow-up: Reset first');
  s.restart();
  s.play();
  assert.equal(s.playing, true, 'after Reset it plays');
  const real = s.trainer;
  s.setSpeed(20);
  s.trainer = { steps: MAX_STEPS - 19, dispose() {} }; // a run 19 steps from the limit
  assert.equal(s.tick(), false);
  assert.equal(s.playing, false);
  assert.equal(s.error, `Stopped at step ${MAX_STEPS - 19}: a link can replay at most ${MAX_STEPS} steps. Press Reset to start again.`);
  s.trainer = real;
  s.dispose();
});

// ---------------------------------------------------------------- edges, one by one

/**
 * A trainer that stands in for the core's at a given step count: each step's loss is 0.5 (or it
 * throws `fail`), and the head it shows is the real trainer's, so the panel can draw it.
 */
function standIn(real, steps, fail = null) {
  return {
    steps, lr: real.lr, batch: real.batch, dk: real.dk, dv: real.dv, vocab: real.vocab, loss: 0.5,
    set({ lr }) { this.lr = lr; },
    step(k) {
      if (fail) throw fail;
      this.steps += k;
      return new Float32Array(k).fill(0.5);
    },
    weights: () => real.weights(), gradients: () => real.gradients(), example: (o) => real.example(o), answers: (o) => real.answers(o),
    dispose() {},
  };
}

test('showable: true for a head the explorer can draw, false (not just falsy) for one it cannot', () => {
  const t = attn.createTrainer({ task: 'find-the-noun', seed: 1 });
  const config = t.example();
  assert.equal(showable(attn, config), true);
  assert.equal(showable(attn, { ...config, Wq: config.Wq.map((row) => row.map(() => NaN)) }), false);
  const huge = (m) => m.map((row) => row.map(() => 1e20));
  assert.equal(showable(attn, { ...config, Wq: huge(config.Wq), Wk: huge(config.Wk) }), false, 'scores of about 1e40 overflow float32');
  t.dispose();
});

test('the notes of a link with two bad parameters are one error line, a space between them', () => {
  const s = fromLink('?mode=train&opt=rmsprop&speed=3&ex=x');
  assert.equal(s.error, 'ex=x is not a whole number from 0 to 4294967295; using 0. opt=rmsprop is not an optimizer (adam or sgd); using adam.');
  assert.equal(s.errorText, s.error);
  s.dispose();
});

test('a replay refreshes the head after each chunk unless told not to, and always after the last', () => {
  const s = fromLink('?mode=train&task=find-the-noun&seed=1&steps=30');
  assert.equal(s.replayChunk(10), false);
  assert.deepEqual([s.trainer.steps, s.shown.step], [10, 10]);
  assert.equal(s.replayChunk(10, { refresh: false }), false);
  assert.deepEqual([s.trainer.steps, s.shown.step], [20, 10], 'the head on show stays at step 10');
  const config = parseConfig(s.shown.config);
  const m = panelModel(s, { r: attn.forward(forwardArgs(config)), tokens: config.tokens, follow: null });
  assert.deepEqual(m.replay, { at: 20, of: 30 });
  assert.equal(s.replayChunk(50, { refresh: false }), true);
  assert.deepEqual([s.trainer.steps, s.shown.step, s.replay], [30, 30, null], 'the last chunk refreshes it anyway');
  assert.equal(panelModel(s, { r: attn.forward(forwardArgs(config)), tokens: config.tokens, follow: null }).replay, null);
  s.dispose();
});

test('after a blow-up stepped into by hand, the next sentence shows the last finite weights on that sentence', () => {
  const s = fromLink('?mode=train&task=find-the-noun&seed=1&opt=sgd&lr=10');
  while (!s.stopped) s.stepBy(1);
  const at = s.trainer.steps;
  assert.deepEqual([s.shown.step, s.shown.ex], [at - 1, 0]);
  s.nextExample();
  assert.deepEqual([s.trainer.steps, s.shown.step, s.shown.ex], [at, at - 1, 1]);
  // the same head a fresh run stepped to that step shows on sentence 2
  const fresh = fromLink(`?mode=train&task=find-the-noun&seed=1&opt=sgd&lr=10&ex=1&steps=${at - 1}`);
  fresh.replayChunk(1e6);
  assert.deepEqual(s.shown.config, fresh.shown.config);
  fresh.dispose();
  s.dispose();
});

test('Play reaches exactly the step limit a link can replay, then stops and says so', () => {
  const s = fromLink('?mode=train&task=find-the-noun&seed=1');
  const real = s.trainer;
  s.trainer = standIn(real, MAX_STEPS - 20);
  s.setSpeed(20);
  s.play();
  assert.equal(s.tick(), true, 'steps 19,981..20,000 are allowed');
  assert.deepEqual([s.trainer.steps, s.error, s.playing], [MAX_STEPS, '', true]);
  assert.equal(s.tick(), false);
  assert.equal(s.error, `Stopped at step ${MAX_STEPS}: a link can replay at most ${MAX_STEPS} steps. Press Reset to start again.`);
  // Single step at the limit takes no step, and nothing went wrong
  assert.equal(s.stepBy(1), true);
  assert.deepEqual([s.trainer.steps, s.stopped], [MAX_STEPS, null]);
  s.trainer = real;
  s.dispose();
});

test('a step that fails without losses of its own keeps the losses so far and says why it stopped', () => {
  const s = fromLink('?mode=train&task=find-the-noun&seed=1');
  s.stepBy(2);
  const real = s.trainer, losses = s.losses.slice();
  s.trainer = standIn(real, 2, new Error('training stopped at step 3: something broke and reset()'));
  assert.equal(s.stepBy(1), false);
  assert.deepEqual(s.losses, losses);
  assert.deepEqual(s.stopped, { at: 2, reason: 'something broke and press Reset' });
  assert.equal(s.errorText, 'Training stopped at step 2: something broke and press Reset.');
  s.trainer = real;
  s.dispose();
});

test('a read-out cell with no head on show explains nothing', () => {
  const s = fromLink('?mode=train&task=find-the-noun&seed=1');
  s.shown = null;
  assert.deepEqual(readoutExplanation(s, 0, 0), { title: '', text: '' });
  s.dispose();
});

test('the live region at 2 s exactly: 1,999 ms after the last words is too soon, 2,000 ms is not', () => {
  const last = { text: 'step 1', at: 5000 };
  assert.equal(announce(last, { text: 'step 2', running: true, now: 6999 }), last);
  assert.deepEqual(announce(last, { text: 'step 2', running: true, now: 7000 }), { text: 'step 2', at: 7000 });
  assert.deepEqual(announce(last, { text: 'step 2', running: false, now: 5001 }), { text: 'step 2', at: 5001 });
  assert.equal(announce(last, { text: 'step 1', running: false, now: 9000 }), last);
});

test('only a closing “and reset()” in the trainer’s message becomes “and press Reset”', () => {
  const s = fromLink('?mode=train&task=find-the-noun&seed=1');
  const real = s.trainer;
  s.trainer = standIn(real, 0, new Error('training stopped at step 1: undo and reset() are not it and reset()'));
  assert.equal(s.stepBy(1), false);
  assert.equal(s.stopped.reason, 'undo and reset() are not it and press Reset');
  s.stopped = null;
  s.trainer = standIn(real, 0, new Error('the core said: training stopped at step 1: boom'));
  s.stepBy(1);
  assert.equal(s.stopped.reason, 'the core said: training stopped at step 1: boom', 'only a leading “training stopped at step n: ” is cut');
  s.trainer = real;
  s.dispose();
});

test('the replay that finds the last finite head frees its trainer, and with no slot free the head on show stays', () => {
  const s = fromLink('?mode=train&task=find-the-noun&seed=1&opt=sgd&lr=10');
  while (!s.stopped) s.stepBy(1);
  s.nextExample(); // replays the run on a scratch trainer
  const others = Array.from({ length: 7 }, () => attn.createTrainer({ task: 'previous-token', seed: 1 }));
  assert.equal(others.length, 7, 'the session holds one of the 8 slots, the scratch replay none');
  // all 8 slots taken: the next sentence cannot be replayed, and the head on show stays
  const before = s.shown;
  s.nextExample();
  assert.equal(s.ex, 2);
  assert.equal(s.shown, before);
  for (const t of others) t.dispose();
  s.dispose();
});

test('the panel draws the head only for the result of the sentence on show, with that sentence’s answers', () => {
  const s = fromLink('?mode=train&task=find-the-noun&seed=1&ex=3&steps=5');
  s.replayChunk(1e6);
  const config = parseConfig(s.shown.config);
  const r = attn.forward(forwardArgs(config));
  assert.equal(panelModel(s, { r: null, tokens: config.tokens, follow: null }).head, null);
  assert.equal(panelModel(s, { r, tokens: config.tokens.slice(1), follow: null }).head, null, 'a result for other tokens');
  // find-the-noun: the last “the” should attend to the last noun before it
  const tokens = config.tokens;
  const the = tokens.lastIndexOf('the');
  const noun = Math.max(...['cat', 'dog', 'bird', 'fox'].map((w) => tokens.lastIndexOf(w, the)));
  assert.ok(noun >= 0 && noun < the);
  const m = panelModel(s, { r, tokens, follow: null });
  assert.match(m.head.says, new RegExp(`“the” \\(${the + 1}\\) puts \\d\\.\\d{3} of its attention on “${tokens[noun]}” \\(${noun + 1}\\), and predicts “${tokens[noun]}” with probability \\d\\.\\d{3}\\.`));
  assert.equal(m.head.prediction.caption, `Next word after “the” (${the + 1}): softmax of its scores. The right answer is “${tokens[noun]}”.`);
  s.dispose();
});

test('a sentence with no right key anywhere: the narration says the step alone, the bars show the last token without a target', () => {
  const s = fromLink('?mode=train&task=find-the-noun&seed=1');
  const real = s.trainer;
  const config = parseConfig(s.shown.config);
  const n = config.tokens.length;
  s.trainer = { ...standIn(real, 0), answers: () => ({ right: new Array(n).fill(null), target: new Array(n).fill(null) }) };
  const m = panelModel(s, { r: attn.forward(forwardArgs(config)), tokens: config.tokens, follow: null });
  assert.equal(m.head.says, 'step 0: not trained yet (random weights).');
  assert.equal(m.head.prediction.caption, `Next word after “${config.tokens[n - 1]}” (${n}): softmax of its scores (this position has no target in the task).`);
  assert.ok(m.head.prediction.bars.every((b) => !b.target));
  // a query with a right key but no word to predict: its attention is said, no prediction
  s.trainer = { ...standIn(real, 0), answers: () => ({ right: [...new Array(n - 1).fill(null), 0], target: new Array(n).fill(null) }) };
  const m2 = panelModel(s, { r: attn.forward(forwardArgs(config)), tokens: config.tokens, follow: null });
  assert.match(m2.head.says, new RegExp(`^step 0: not trained yet \\(random weights\\); “${config.tokens[n - 1]}” \\(${n}\\) puts \\d\\.\\d{3} of its attention on “${config.tokens[0]}” \\(1\\)\\.$`));
  s.trainer = real;
  s.dispose();
});

test('a replay chunk that blows up mid-chunk replays the run to find the last finite head, as stepping by hand does', () => {
  const link = '?mode=train&task=find-the-noun&seed=1&opt=sgd&lr=10&steps=60';
  const replayed = fromLink(link);
  while (!replayed.replayChunk(8)); // chunk ends 8, 16, ..., 32, then the blow-up inside the next
  const byHand = fromLink(link.replace('&steps=60', ''));
  while (!byHand.stopped) byHand.stepBy(1);
  assert.ok(replayed.stopped && replayed.trainer.steps % 8 > 1, `the blow-up (step ${replayed.trainer.steps}) is not just after a chunk's end`);
  assert.deepEqual([replayed.trainer.steps, replayed.shown.step], [byHand.trainer.steps, byHand.trainer.steps - 1]);
  assert.deepEqual(replayed.shown.config, byHand.shown.config);
  // disposing twice is harmless
  replayed.dispose();
  replayed.dispose();
  byHand.dispose();
});

test('the first batch’s loss, the rate of the step shown, the speed and no notes from a session made in code', () => {
  const s = new TrainSession(attn, { task: 'previous-token', seed: 7, optimizer: 'adam', schedule: [{ at: 0, lr: 0.01 }, { at: 3, lr: 0.05 }], speed: 5 });
  assert.deepEqual([s.speed, s.error, s.initialLoss], [5, '', null]);
  s.stepBy(3);
  assert.equal(s.initialLoss, s.losses[0]);
  assert.equal(s.shown.extra.lr, 0.01, 'step 3 was taken at the rate before the change');
  s.stepBy(1);
  assert.deepEqual([s.initialLoss, s.shown.extra.lr], [s.losses[0], 0.05]);
  // Reset after Reset after Reset: each frees the trainer it replaces (8 slots in all)
  for (let k = 0; k < 10; k++) s.restart();
  assert.equal(s.trainer.steps, 0);
  s.dispose();
});

test('the panel model: counter, seed line, curve box, read-out, and the loss of the step on show', () => {
  const s = fromLink('?mode=train&task=find-the-noun&seed=7&ex=2&steps=30');
  s.replayChunk(10);
  s.replayChunk(10, { refresh: false }); // at step 20, showing step 10
  const config = parseConfig(s.shown.config);
  const m = panelModel(s, { r: attn.forward(forwardArgs(config)), tokens: config.tokens, follow: null });
  assert.equal(m.stepText, 'Step 20');
  assert.match(m.seedText, /^Initial weights from seed 7; sentence 3 of the task; batches of \d+ sequences\. The head has dk = \d+, /);
  assert.deepEqual(m.curve.plot, { x: 44, y: 8, w: 304, h: 128 });
  assert.equal(m.head.readout.Wout, s.shown.Wout);
  assert.equal(m.head.readout.info.caption, `Wout: ${s.trainer.dv} × ${s.trainer.vocab.length}, output dim × word`);
  assert.notEqual(lossLabel(1, s.losses[9]), lossLabel(1, s.trainer.loss), 'the losses at steps 10 and 20 read differently');
  assert.ok(m.head.says.startsWith(`step 10: ${lossLabel(1, s.losses[9])};`), m.head.says);
  s.dispose();
});
