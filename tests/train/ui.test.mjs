// train-ui.test.mjs: the pure module of "Watch a head learn" (web/train/words.js) and the trained-head
// explanations of web/blocks/explain.js, in Node. The training itself is tested in train.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  readTrainUrl, writeTrainUrl, parseSchedule, scheduleText, setLr, lrAt, replayPlan, lossCurve, niceCeil,
  narrate, focusQuery, attentionOnRight, predict, miniGrid, trainedExtra, curveCaption, DEFAULTS, MAX_STEPS, TASK_NAMES,
  readoutInfo, readoutLabel, explainReadout, predictionRow, predictionBars, predictionCaption,
} from '../../web/train/words.js';
import { explainCell } from '../../web/blocks/explain.js';
import { fmt } from '../../web/blocks/format.js';
import { loadAttention } from '../../web/core/attention.js';
import { parseConfig, forwardArgs } from '../../web/blocks/config.js';

test('a training link round-trips: task, seed, optimizer, lr schedule, steps, sentence and the explorer state', () => {
  const s = {
    task: 'previous-token', seed: 42, optimizer: 'sgd', schedule: [{ at: 0, lr: 0.01 }, { at: 50, lr: 0.03 }],
    steps: 120, ex: 3, speed: 5, step: 'softmax', follow: 4, cell: { m: 'Wq', i: 2, j: 7 },
  };
  const q = writeTrainUrl(s);
  assert.equal(q, '?mode=train&task=previous-token&seed=42&opt=sgd&lr=0.01,50:0.03&steps=120&ex=3&speed=5&step=softmax&follow=4&cell=Wq.2.7');
  const back = readTrainUrl(q);
  assert.deepEqual(back.notes, []);
  for (const k of Object.keys(s)) assert.deepEqual(back[k], s[k], k);
});

test('a bare ?mode=train gives the defaults: find-the-noun, seed 1, Adam at 0.01, step 0', () => {
  const s = readTrainUrl('?mode=train');
  assert.equal(s.task, DEFAULTS.task);
  assert.equal(s.seed, 1);
  assert.equal(s.optimizer, 'adam');
  assert.deepEqual(s.schedule, [{ at: 0, lr: 0.01 }]);
  assert.equal(s.steps, 0);
  assert.deepEqual(s.notes, []);
  assert.ok(TASK_NAMES.includes('previous-token') && TASK_NAMES.includes('find-the-noun'));
});

test('bad link parameters are not used, and each says why in words', () => {
  const s = readTrainUrl(`?mode=train&task=poetry&seed=-1&opt=rmsprop&lr=fast&steps=${MAX_STEPS + 1}&ex=x`);
  assert.equal(s.task, DEFAULTS.task);
  assert.equal(s.seed, 1);
  assert.equal(s.optimizer, 'adam');
  assert.deepEqual(s.schedule, [{ at: 0, lr: 0.01 }]);
  assert.equal(s.steps, 0);
  assert.equal(s.notes.length, 6);
  assert.match(s.notes.join(' '), /no task “poetry”/);
  assert.match(s.notes.join(' '), /steps=20001 is not a whole number from 0 to 20000/);
  assert.equal(readTrainUrl('?seed=4294967296').seed, 1);
});

test('learning-rate schedules: parse, print, change mid-run, and replay in segments', () => {
  assert.deepEqual(parseSchedule('0.01'), [{ at: 0, lr: 0.01 }]);
  assert.deepEqual(parseSchedule('0.01,50:0.1,80:1e-3'), [{ at: 0, lr: 0.01 }, { at: 50, lr: 0.1 }, { at: 80, lr: 0.001 }]);
  for (const bad of ['', '0', '-1', '11', '50:0.1', '0.01,50:0.1,40:0.2', 'NaN', '0.01,,']) assert.equal(parseSchedule(bad), null, bad);
  let sch = [{ at: 0, lr: 0.01 }];
  sch = setLr(sch, 50, 0.03);
  sch = setLr(sch, 50, 0.1); // a second change at the same step replaces the first
  assert.deepEqual(sch, [{ at: 0, lr: 0.01 }, { at: 50, lr: 0.1 }]);
  assert.deepEqual(setLr(sch, 70, 0.1), sch); // the same rate again adds nothing
  assert.deepEqual(setLr(sch, 0, 0.3), [{ at: 0, lr: 0.3 }]);
  assert.equal(scheduleText(sch), '0.01,50:0.1');
  assert.equal(lrAt(sch, 49), 0.01);
  assert.equal(lrAt(sch, 50), 0.1);
  assert.deepEqual(replayPlan(sch, 120), [{ lr: 0.01, count: 50 }, { lr: 0.1, count: 70 }]);
  assert.deepEqual(replayPlan(sch, 30), [{ lr: 0.01, count: 30 }]);
  assert.deepEqual(replayPlan(sch, 0), []);
});

test('replaying a link\'s schedule in segments gives the same weights as training through it live', async () => {
  const attn = await loadAttention();
  const sch = [{ at: 0, lr: 0.01 }, { at: 20, lr: 0.05 }];
  const live = attn.createTrainer({ task: 'previous-token', seed: 5 });
  live.step(20);
  live.set({ lr: 0.05 });
  live.step(15);
  const replay = attn.createTrainer({ task: 'previous-token', seed: 5 });
  for (const { lr, count } of replayPlan(sch, 35)) {
    replay.set({ lr });
    replay.step(count);
  }
  assert.deepEqual(replay.weights(), live.weights());
  live.dispose();
  replay.dispose();
});

test('niceCeil rounds up to 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten', () => {
  assert.deepEqual([0.7, 1, 1.2, 2.28, 3.5, 7, 9, 120, 0].map(niceCeil), [0.8, 1, 1.5, 2.5, 4, 8, 10, 150, 1]);
});

test('the loss curve: axes from 0, one point per step (or per pixel column), the last point marked', () => {
  const losses = Float32Array.from({ length: 60 }, (_, k) => 2 * Math.exp(-k / 20));
  const g = lossCurve(losses, { width: 360, height: 170 });
  assert.equal(g.xMax, 100);
  assert.equal(g.yMax, 2);
  assert.equal(g.path.split(/[ML]/).filter(Boolean).length, 60);
  assert.equal(g.yTicks[0].label, '0');
  assert.equal(g.yTicks[2].label, '2');
  assert.equal(g.yTicks[0].pos, g.plot.y + g.plot.h);
  assert.deepEqual(g.xTicks.map((t) => t.label), ['0', '25', '50', '75', '100']);
  // The line falls: its last point is lower on the plot (a larger y) than its first.
  const ys = g.path.split(/[ML]/).filter(Boolean).map((p) => Number(p.trim().split(' ')[1]));
  assert.ok(ys[ys.length - 1] > ys[0]);
  assert.equal(g.last.y, ys[ys.length - 1]);
  // Round tick labels: 150 steps in fives, a loss axis up to 2.5 in halves.
  const odd = lossCurve(new Float32Array(150).fill(2.3));
  assert.deepEqual(odd.xTicks.map((t) => t.label), ['0', '30', '60', '90', '120', '150']);
  assert.deepEqual(odd.yTicks.map((t) => t.label), ['0', '0.5', '1', '1.5', '2', '2.5']);
  // Many steps: at most one point per pixel column.
  const many = lossCurve(new Float32Array(5000).fill(1), { width: 360, height: 170 });
  assert.ok(many.path.split(/[ML]/).filter(Boolean).length <= many.plot.w);
  assert.equal(many.xMax, 5000);
  // No steps yet: no line, and the y axis can already span the first loss.
  const none = lossCurve([], { initialLoss: 1.8 });
  assert.equal(none.path, '');
  assert.equal(none.last, null);
  assert.equal(none.yMax, 2);
  // A diverged run ends the line at the first non-finite loss.
  assert.equal(lossCurve([1, 0.5, NaN, 0.2]).path.split(/[ML]/).filter(Boolean).length, 2);
});

test('narration: the step, the loss and where the focus token puts its attention', () => {
  const tokens = ['the', 'cat', 'sat', 'on', 'the'];
  const right = [null, null, null, null, 1];
  const A = new Float32Array(25);
  A[4 * 5 + 1] = 0.91;
  A[4 * 5 + 4] = 0.09;
  const s = narrate({ step: 120, loss: 0.0812, task: 'find-the-noun', tokens, A, m: 5, right, probOfTarget: 0.95, target: 'cat' });
  assert.equal(s, 'step 120: loss 0.081; “the” (5) puts 0.910 of its attention on “cat” (2), and predicts “cat” with probability 0.950. The pattern has emerged.');
  const s0 = narrate({ step: 0, loss: NaN, task: 'find-the-noun', tokens, A: new Float32Array(25).fill(0.2), m: 5, right });
  assert.equal(s0, 'step 0: not trained yet (random weights); “the” (5) puts 0.200 of its attention on “cat” (2).');
  assert.deepEqual(focusQuery(right), { i: 4, j: 1 });
  assert.equal(focusQuery([null, null]), null);
});

test('narration of the previous-token task reports the mean over every token too', () => {
  const n = 4, right = [null, 0, 1, 2];
  const A = new Float32Array(n * n);
  A[0] = 1;
  for (let i = 1; i < n; i++) A[i * n + i - 1] = 0.5, (A[i * n + i] = 0.5);
  assert.equal(attentionOnRight(A, n, right), 0.5);
  const s = narrate({ step: 10, loss: 1.234, task: 'previous-token', tokens: ['A', 'B', 'C', 'D'], A, m: n, right });
  assert.equal(s, 'step 10: loss 1.234; “D” (4) puts 0.500 of its attention on “C” (3), the token before it (every token: 0.500 on its previous token, on average).');
  const ten = [2, 1.9, 1.8, 1.7, 1.6, 1.5, 1.4, 1.3, 1.25, 1.234];
  assert.match(curveCaption(10, ten, 'previous-token'), /2\.000 at step 1, 1\.234 at step 10\. Lower is better: the model is less surprised by the right previous token\.$/);
  assert.equal(curveCaption(1, [2.28]), 'The loss of each step’s batch: 2.280 at step 1. Lower is better: the model is less surprised by the right noun.');
});

test('predict: the read-out softmax(O·Wout) of one row sums to 1 and favours the larger logit', () => {
  const O = Float32Array.from([1, 0, 0, 2]); // two rows, dv = 2
  const Wout = Float32Array.from([1, 0, 0, 0, 1, 0]); // dv = 2 × vocab = 3
  const p = predict(O, 2, Wout, 3, 1);
  assert.ok(Math.abs(p.reduce((a, b) => a + b) - 1) < 1e-12);
  assert.ok(p[1] > p[0] && p[0] === p[2]);
  assert.ok(Math.abs(p[1] - Math.exp(2) / (Math.exp(2) + 2)) < 1e-12);
});

test('the small copy of A: one cell per weight, masked cells above the diagonal, the right keys outlined', () => {
  const A = new Float32Array(9).fill(0.5);
  const g = miniGrid(A, 3, 3, ['a', 'bb', 'a very long token'], [null, 0, 1], { size: 20, label: 40 });
  assert.equal(g.cells.length, 9);
  assert.deepEqual(g.cells.filter((c) => c.masked).map((c) => [c.i, c.j]), [[0, 1], [0, 2], [1, 2]]);
  assert.deepEqual(g.targets, [{ x: 40, y: 60, size: 20 }, { x: 60, y: 80, size: 20 }]);
  assert.equal(g.rowLabels[2].text, 'a ve…');
  assert.equal(g.width, 40 + 60 + 2);
});

test('hovering a trained weight explains its gradient ∂loss/∂W beside its value; at step 0 it is random', async () => {
  const attn = await loadAttention();
  const t = attn.createTrainer({ task: 'find-the-noun', seed: 1 });
  const view0 = () => {
    const config = parseConfig(t.example());
    return { config, r: attn.forward(forwardArgs(config)), raw: attn.forward(forwardArgs(config, 1)), step: null };
  };
  let ex = explainCell(view0(), 'Wk', 1, 2, trainedExtra(0, t.gradients()));
  assert.match(ex.text, /Random at step 0/);
  t.step(5);
  const grads = t.gradients();
  const view = view0();
  ex = explainCell(view, 'Wk', 1, 2, trainedExtra(5, grads));
  const g = grads.dWk[1 * t.dk + 2];
  assert.ok(g !== 0);
  assert.match(ex.text, /Learned by gradient descent: this is its value after step 5\./);
  assert.match(ex.text, /∂loss\/∂Wk\[2\]\[3\] = /);
  assert.match(ex.text, g > 0 ? /the gradient alone says lower it/ : /the gradient alone says raise it/);
  const shownG = /∂loss\/∂Wk\[2\]\[3\] = (\S+)/.exec(ex.text)[1].replace(/\u2212/g, '-');
  assert.ok(Math.abs(Number(shownG) - g) <= Math.max(5e-4, Math.abs(g) * 5e-3), `${shownG} vs ${g}`);
  assert.ok(ex.title.startsWith('Wk[2][3] = '));
  assert.match(explainCell(view, 'X', 0, 0, trainedExtra(5, grads)).text, /The inputs are fixed; only the weights learn/);
  // Without the extra, the explorer's own words are unchanged.
  assert.match(explainCell(view, 'Wk', 1, 2).text, /hand-picked here/);
  t.dispose();
});

test('the read-out Wout is labelled in plain words: output dims down, words across, its shape written out', () => {
  const info = readoutInfo(3, ['A', 'B']);
  assert.deepEqual([info.rows, info.cols], [3, 2]);
  assert.deepEqual(info.rowLabels, ['v1', 'v2', 'v3']);
  assert.deepEqual(info.colLabels, ['A', 'B']);
  assert.equal(info.shape, '3 × 2, output dim × word');
  assert.match(info.about, /turns each output row .* into a score for every word; the softmax of those scores is the prediction/);
  assert.equal(readoutLabel(3, ['A', 'B'])(2, 1, -0.5), 'Wout, output dim 3, word 2 “B”: \u22120.500'); // “v3” is not said after 3
});

test('a read-out cell explains its value, and after a step the trainer’s gradient ∂loss/∂Wout with its direction', async () => {
  const attn = await loadAttention();
  const t = attn.createTrainer({ task: 'find-the-noun', seed: 1 });
  const V = t.vocab.length;
  const cat = t.vocab.indexOf('cat');
  let ex = explainReadout({ Wout: t.weights().Wout, dWout: null, step: 0, dv: t.dv, vocab: t.vocab, i: 2, j: cat });
  assert.equal(ex.title, `Wout[3][${cat + 1}] = ${fmt(t.weights().Wout[2 * V + cat])}`);
  assert.match(ex.text, /output dimension v3 adds to the score of “cat”/);
  assert.match(ex.text, /Random at step 0/);
  assert.doesNotMatch(ex.text, /∂loss/);
  t.step(5);
  const g = t.gradients().dWout[2 * V + cat];
  assert.ok(g !== 0);
  ex = explainReadout({ Wout: t.weights().Wout, dWout: t.gradients().dWout, step: 5, dv: t.dv, vocab: t.vocab, i: 2, j: cat });
  assert.match(ex.text, /value after step 5\./);
  assert.match(ex.text, g > 0 ? /the gradient alone says lower it/ : /the gradient alone says raise it/);
  const shownG = new RegExp(`∂loss/∂Wout\\[3\\]\\[${cat + 1}\\] = (\\S+) on step 5`).exec(ex.text)[1].replace(/\u2212/g, '-');
  assert.ok(Math.abs(Number(shownG) - g) <= Math.max(5e-4, Math.abs(g) * 5e-3), `${shownG} vs ${g}`);
  t.dispose();
});

test('the prediction bars: the followed row, else the focus query, else the last; one bar per word in vocabulary order', () => {
  assert.equal(predictionRow(1, [null, null, 0, null], 4), 1);
  assert.equal(predictionRow(null, [null, null, 0, null], 4), 2);
  assert.equal(predictionRow(9, [null, null, 0, null], 4), 2, 'a follow past the sentence is ignored');
  assert.equal(predictionRow(null, [null, null], 2), 1);
  const bars = predictionBars([0.1, 0.7, 0.2], ['A', 'B', 'C'], 'C');
  assert.deepEqual(bars.map((b) => b.word), ['A', 'B', 'C']);
  assert.deepEqual(bars.map((b) => b.text), ['0.100', '0.700', '0.200']);
  assert.deepEqual(bars.map((b) => [b.top, b.target]), [[false, false], [true, false], [false, true]]);
  assert.equal(bars[1].frac, 0.7);
  assert.equal(predictionCaption(['the', 'cat'], 0, 'cat'), 'Next word after “the” (1): softmax of its scores. The right answer is “cat”.');
  assert.match(predictionCaption(['the', 'cat'], 1, null), /no target/);
});
