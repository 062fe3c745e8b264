// train-text.test.mjs: the words and numbers of "Watch a head learn" (web/train/words.js) pinned exactly,
// worked out by hand from the definitions: every note a bad link gets, the learning-rate schedule's
// grammar at its edges, the loss curve's and the small grid's geometry, the narration at the 0.9
// threshold on both sides, the read-out's explanation and the prediction bars. No Wasm, no timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  readTrainUrl, writeTrainUrl, parseSchedule, setLr, niceCeil, lossCurve, miniGrid, predict, narrate, curveCaption,
  trainedExtra, readoutInfo, explainReadout, predictionRow, predictionBars, focusQuery, MAX_STEPS,
} from '../../web/train/words.js';
import { ignoredText, outsideHead } from '../../web/explorer/state.js';
import { parseConfig } from '../../web/blocks/config.js';
import { PRESETS } from '../../web/blocks/presets.js';

test('a bad link gets one note per parameter it could not use, each saying what was used instead', () => {
  const s = readTrainUrl(`?mode=train&task=poetry&seed=-1&opt=rmsprop&lr=fast&steps=${MAX_STEPS + 1}&ex=x`);
  assert.deepEqual(s.notes, [
    'There is no task “poetry”; the tasks are find-the-noun and previous-token. Showing “find-the-noun”.',
    'seed=-1 is not a whole number from 0 to 4294967295; using 1.',
    'ex=x is not a whole number from 0 to 4294967295; using 0.',
    'opt=rmsprop is not an optimizer (adam or sgd); using adam.',
    'lr=fast is not a learning rate (a number above 0 and at most 10, or a schedule like 0.01,50:0.03); using 0.01.',
    'steps=20001 is not a whole number from 0 to 20000; starting at step 0.',
  ]);
  // a seed is a whole number: not 1.5, not 1e3, up to 2³² − 1 inclusive
  assert.deepEqual(readTrainUrl('?seed=1.5').notes, ['seed=1.5 is not a whole number from 0 to 4294967295; using 1.']);
  assert.equal(readTrainUrl('?seed=1e3').seed, 1);
  assert.deepEqual([readTrainUrl('?seed=4294967295').seed, readTrainUrl('?seed=4294967295').notes], [4294967295, []]);
  assert.equal(readTrainUrl('?ex=7').ex, 7);
  // steps: whole numbers up to 20,000 inclusive, nothing around them
  assert.deepEqual([readTrainUrl('?steps=20000').steps, readTrainUrl('?steps=20000').notes], [20000, []]);
  for (const bad of ['1.5', '12%20', '%2012', '1e3']) {
    const r = readTrainUrl(`?steps=${bad}`);
    assert.deepEqual([r.steps, r.notes], [0, [`steps=${decodeURIComponent(bad)} is not a whole number from 0 to 20000; starting at step 0.`]], bad);
  }
  // no query at all, or none and no hash: the defaults, without notes
  for (const s0 of [readTrainUrl(null), readTrainUrl(undefined, undefined), readTrainUrl('', null)]) {
    assert.deepEqual([s0.task, s0.seed, s0.steps, s0.step, s0.follow, s0.cell, s0.notes], ['find-the-noun', 1, 0, null, null, null, []]);
  }
  // the hash wins over the query
  assert.deepEqual([readTrainUrl('?seed=3&steps=9', '#seed=4').seed, readTrainUrl('?seed=3&steps=9', '#seed=4').steps], [4, 9]);
});

test('the explorer’s step, follow and cell in a training link are read as the explorer’s page reads them, and what cannot be is kept to be said', () => {
  const good = readTrainUrl('?mode=train&step=softmax&follow=4&cell=A.4.1');
  assert.deepEqual([good.step, good.follow, good.cell, good.ignored], ['softmax', 4, { m: 'A', i: 4, j: 1 }, []]);
  const bad = readTrainUrl('?mode=train&step=sofmax&follow=last&cell=Z.1.1&theme=dark');
  assert.deepEqual([bad.step, bad.follow, bad.cell, bad.notes], [null, null, null, []]);
  // theme is the explorer page's, not the training page's: not said to be ignored
  assert.deepEqual(bad.ignored.map((x) => x.name), ['step', 'follow', 'cell']);
  assert.equal(ignoredText(bad.ignored),
    'The link’s step=sofmax was ignored: the steps are project, score, scale, mask, softmax and mix. ' +
    'The link’s follow=last was ignored: follow is a row number, from 0 for the first token. ' +
    'The link’s cell=Z.1.1 was ignored: there is no matrix Z; the matrices are X, Wq, Wk, Wv, Q, K, V, S, M, A and O.');
  // a follow or cell past the head trained is read here and left out once the head is known
  const far = readTrainUrl('?follow=40&cell=O.40.0');
  assert.deepEqual([far.follow, far.cell, far.ignored], [40, { m: 'O', i: 40, j: 0 }, []]);
  const head = parseConfig(PRESETS.cat.config); // 5 tokens, dv 4
  assert.equal(ignoredText(outsideHead(head, far.follow, far.cell)),
    'The link’s follow=40 was ignored: this head has 5 tokens, rows 0 to 4. The link’s cell=O.40.0 was ignored: O has 5 rows.');
  assert.equal(ignoredText(outsideHead(head, 4, { m: 'O', i: 4, j: 4 })), 'The link’s cell=O.4.4 was ignored: O has 4 columns.');
  assert.deepEqual(outsideHead(head, 4, { m: 'A', i: 4, j: 4 }), []);
  assert.deepEqual(outsideHead(head, null, null), []);
});

test('the explorer\'s own parameters in a training link: step, follow and cell, each used only when well formed', () => {
  assert.equal(readTrainUrl('?step=softmax').step, 'softmax');
  assert.equal(readTrainUrl('?step=sideways').step, null);
  const follow = (v) => readTrainUrl(`?follow=${v}`).follow;
  // (a row past the head, 1234 here, is read and left out once the head is known: outsideHead)
  assert.deepEqual(['0', '7', '12', '999', '1234', 'x12', '12x', '', '-1'].map(follow), [0, 7, 12, 999, 1234, null, null, null, null]);
  // a follow that is not a row number is said to be ignored; an empty one is as if not given
  assert.deepEqual(['x12', '12x', '', '-1'].map((v) => readTrainUrl(`?follow=${v}`).ignored.length), [1, 1, 0, 1]);
  const cell = (v) => readTrainUrl(`?cell=${v}`).cell;
  assert.deepEqual(cell('Wq.2.7'), { m: 'Wq', i: 2, j: 7 });
  assert.deepEqual(cell('A.12.345'), { m: 'A', i: 12, j: 345 });
  assert.deepEqual(cell('Wq.1234.1'), { m: 'Wq', i: 1234, j: 1 });
  for (const bad of ['1Wq.2.7', '.Wq.2.7', 'Wq.2.7x', 'Wq.2.7.1', 'Nope.1.1', 'Wq.1']) {
    assert.deepEqual([cell(bad), readTrainUrl(`?cell=${bad}`).ignored.map((x) => x.name)], [null, ['cell']], bad);
  }
});

test('writeTrainUrl leaves out what is at its default, and keeps a follow of 0', () => {
  const base = { task: 'find-the-noun', seed: 1, optimizer: 'adam', schedule: [{ at: 0, lr: 0.01 }], steps: 0 };
  const bare = '?mode=train&task=find-the-noun&seed=1&opt=adam&lr=0.01&steps=0';
  assert.equal(writeTrainUrl(base), bare);
  assert.equal(writeTrainUrl({ ...base, ex: 0, speed: 1, step: null, follow: null, cell: null }), bare);
  assert.equal(writeTrainUrl({ ...base, follow: 0 }), `${bare}&follow=0`);
  assert.equal(writeTrainUrl({ ...base, speed: 2 }), `${bare}&speed=2`);
  assert.equal(writeTrainUrl({ ...base, ex: 1 }), `${bare}&ex=1`);
});

test('learning-rate schedules at the edges of their grammar', () => {
  assert.deepEqual(parseSchedule('1e1'), [{ at: 0, lr: 10 }]);
  assert.deepEqual(parseSchedule('1e-10'), [{ at: 0, lr: 1e-10 }]);
  assert.deepEqual(parseSchedule('.5'), [{ at: 0, lr: 0.5 }]);
  assert.deepEqual(parseSchedule(' 0.01 , 50:0.03 '), [{ at: 0, lr: 0.01 }, { at: 50, lr: 0.03 }], 'spaces around a part are allowed');
  assert.deepEqual(parseSchedule('0.01,999999:0.03'), [{ at: 0, lr: 0.01 }, { at: 999999, lr: 0.03 }]);
  // a repeated rate adds no change, and the step after it must still come later than the last change
  assert.deepEqual(parseSchedule('0.01,50:0.01'), [{ at: 0, lr: 0.01 }]);
  assert.deepEqual(parseSchedule('0.01,50:0.01,60:0.02'), [{ at: 0, lr: 0.01 }, { at: 60, lr: 0.02 }]);
  assert.deepEqual(parseSchedule('0:0.01'), [{ at: 0, lr: 0.01 }], 'the first part may say its step, 0');
  for (const bad of ['0.01x', '0.01,50:0.1,50:0.2', '0.01,1234567:0.1', '1:0.01', '0.01,0:0.02', '1e+1', '10.5']) assert.equal(parseSchedule(bad), null, bad);
  // the learner's first change at step 0 replaces the rate; at a later step it is added
  assert.deepEqual(setLr([{ at: 0, lr: 0.01 }], 0, 0.01), [{ at: 0, lr: 0.01 }]);
  assert.deepEqual(setLr([{ at: 0, lr: 0.01 }, { at: 5, lr: 0.1 }], 3, 0.01), [{ at: 0, lr: 0.01 }]);
});

test('niceCeil: each round step on both sides, and 10 times the power after 8', () => {
  assert.deepEqual([8, 8.01, 9, 9.99, 10, 0.81, 0.095, 2.5, 2.51, 6, 6.01].map(niceCeil), [8, 10, 10, 10, 10, 1, 0.1, 2.5, 3, 6, 8]);
  assert.deepEqual([-1, NaN].map(niceCeil), [1, 1]);
  // a billionth above a round number is float noise, not a reason for the next one
  assert.deepEqual([1 / (1 - 1e-9), 2 / (1 - 1e-9), 2 / (1 - 1e-9) + 1e-8].map(niceCeil), [1, 2, 2.5]);
});

test('the loss curve, worked by hand: two steps on the default box', () => {
  // plot 264 × 118 px from (44, 8); x runs 0..100 steps (2.64 px each), y 0..2 (59 px per unit)
  const g = lossCurve([2, 1]);
  assert.deepEqual(g, {
    plot: { x: 44, y: 8, w: 264, h: 118 },
    path: 'M46.6 8 L49.3 67',
    xMax: 100,
    yMax: 2,
    xTicks: [0, 25, 50, 75, 100].map((v, k) => ({ pos: 44 + 66 * k, label: String(v) })),
    yTicks: [{ pos: 126, label: '0' }, { pos: 67, label: '1' }, { pos: 8, label: '2' }],
    last: { x: 49.3, y: 67 },
  });
  // a loss axis below 1: ticks in round hundredths, 0.25 in fifths
  assert.deepEqual(lossCurve([0.25, 0.2]).yTicks.map((t) => t.label), ['0', '0.05', '0.1', '0.15', '0.2', '0.25']);
  // the first loss alone sets the axis when it is the largest; later larger ones raise it
  assert.equal(lossCurve([0.5], { initialLoss: 1.2 }).yMax, 1.5);
  assert.equal(lossCurve([0.5, 3.2], { initialLoss: 1.2 }).yMax, 4);
  // a loss that is not a number does not set the axis: the finite ones do
  assert.equal(lossCurve([1.7, NaN]).yMax, 2);
  assert.equal(lossCurve([1.7, Infinity]).yMax, 2);
});

test('the loss curve with more steps than pixel columns: each point is the mean of its steps, at their centre', () => {
  // a 10 × 10 px plot (the smallest), 25 steps: 3 per column; x = 44 + 0.4 · step, y = 18 − 5 · loss
  const losses = Array.from({ length: 25 }, (_, q) => (q < 12 ? 2 : 1));
  const g = lossCurve(losses, { width: 57, height: 40, minSteps: 0 });
  assert.deepEqual(g.plot, { x: 44, y: 8, w: 10, h: 10 });
  assert.equal(g.xMax, 25);
  assert.equal(g.path, 'M44.8 8 L46 8 L47.2 8 L48.4 8 L49.6 13 L50.8 13 L52 13 L53.2 13 L54 13');
  assert.deepEqual(g.last, { x: 54, y: 13 });
  assert.deepEqual(g.xTicks.map((t) => [t.pos, t.label]), [[44, '0'], [46, '5'], [48, '10'], [50, '15'], [52, '20'], [54, '25']]);
  // a column that mixes the two losses shows their mean: steps 10..12 of 2, 2, 1
  const mixed = lossCurve(Array.from({ length: 25 }, (_, q) => (q < 11 ? 2 : 1)), { width: 57, height: 40, minSteps: 0 });
  assert.equal(mixed.path.split(' L')[3], '48.4 9.7');
});

test('the small copy of A: each cell where its row and column put it, labels cut at 5 letters', () => {
  const A = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]; // 2 queries × 3 keys
  const g = miniGrid(A, 2, 3, ['ab', 'abcde', 'abcdef', 'unused'], [null, 2], { size: 20, label: 40 });
  const cell = (x, y, i, j, v, masked) => ({ x, y, size: 20, i, j, v, masked });
  assert.deepEqual(g, {
    width: 102,
    height: 82,
    cells: [cell(40, 40, 0, 0, 0.1, false), cell(60, 40, 0, 1, 0.2, true), cell(80, 40, 0, 2, 0.3, true),
      cell(40, 60, 1, 0, 0.4, false), cell(60, 60, 1, 1, 0.5, false), cell(80, 60, 1, 2, 0.6, true)],
    targets: [{ x: 80, y: 60, size: 20 }],
    rowLabels: [{ x: 36, y: 50, text: 'ab' }, { x: 36, y: 70, text: 'abcde' }],
    colLabels: [{ x: 50, y: 34, text: 'ab' }, { x: 70, y: 34, text: 'abcde' }, { x: 90, y: 34, text: 'abcd…' }],
  });
});

test('predict: a logit of 1000 does not overflow the softmax', () => {
  // dv = 1, vocab of 2: logits 1000 and 0
  assert.deepEqual(predict([1000], 1, [1, 0], 2, 0), [1, 0]);
  // row 1 of O, with a third word
  const p = predict([0, 0, 0, 1], 2, [0, 0, 0, 0, Math.log(2), Math.log(3)], 3, 1); // Wout row 2: 0, ln 2, ln 3
  assert.deepEqual(p.map((x) => Math.round(x * 1e12) / 1e12), [1 / 6, 2 / 6, 3 / 6].map((x) => Math.round(x * 1e12) / 1e12));
});

test('narration at the 0.9 threshold: the focus weight for find-the-noun, the mean over every token for previous-token', () => {
  const tokens = ['A', 'B', 'C'], right = [null, 0, 1];
  const rows = (r1, r2) => [1, 0, 0, ...r1, ...r2];
  const say = (task, A, o = {}) => narrate({ step: 10, loss: 0.5, task, tokens, A, m: 3, right, ...o });
  const before = 'the token before it (every token:';
  // previous-token: mean (1 + 0.8) / 2 = 0.9 counts, though the focus weight is 0.8
  assert.equal(say('previous-token', rows([1, 0, 0], [0.2, 0.8, 0])), `step 10: loss 0.500; “C” (3) puts 0.800 of its attention on “B” (2), ${before} 0.900 on its previous token, on average). The pattern has emerged.`);
  // previous-token: a focus weight of 0.95 with a mean of 0.725 does not
  assert.equal(say('previous-token', rows([0.5, 0.5, 0], [0.05, 0.95, 0])), `step 10: loss 0.500; “C” (3) puts 0.950 of its attention on “B” (2), ${before} 0.725 on its previous token, on average).`);
  // find-the-noun: the focus weight alone, 0.9 exactly, whatever the other rows hold
  assert.equal(say('find-the-noun', rows([0.1, 0.9, 0], [0.1, 0.9, 0])), 'step 10: loss 0.500; “C” (3) puts 0.900 of its attention on “B” (2). The pattern has emerged.');
  assert.equal(say('find-the-noun', rows([1, 0, 0], [0.2, 0.8, 0])), 'step 10: loss 0.500; “C” (3) puts 0.800 of its attention on “B” (2).');
  // random weights never "emerged", nor weights from step 0 shown after a blow-up
  assert.equal(say('find-the-noun', rows([1, 0, 0], [0.05, 0.95, 0]), { step: 0 }), 'step 0: not trained yet (random weights); “C” (3) puts 0.950 of its attention on “B” (2).');
  assert.equal(say('find-the-noun', rows([1, 0, 0], [0.05, 0.95, 0]), { step: 4, shownStep: 0, loss: Infinity }), 'step 4: loss ∞; the weights after step 0, the last that were numbers; “C” (3) puts 0.950 of its attention on “B” (2).');
  // the prediction is said only with both its word and its probability
  const A = rows([1, 0, 0], [0.2, 0.8, 0]);
  assert.doesNotMatch(say('find-the-noun', A, { probOfTarget: 0.7 }), /predicts/);
  assert.doesNotMatch(say('find-the-noun', A, { target: 'B' }), /predicts/);
  assert.match(say('find-the-noun', A, { probOfTarget: 0.7, target: 'B' }), /\(2\), and predicts “B” with probability 0\.700\.$/);
  // no query with a right key: the head line alone
  assert.equal(narrate({ step: 3, loss: 0.5, task: 'find-the-noun', tokens: ['a', 'b'], A: [1, 0, 0, 1], m: 2, right: [null, null] }), 'step 3: loss 0.500.');
  assert.equal(curveCaption(0, []), 'No steps yet: press Train or Single step. The curve shows the loss of each step’s batch of sequences.');
});

test('trainedExtra hands the explorer the gradients of Wq, Wk and Wv only after a step', () => {
  const grads = { dWq: [1], dWk: [2], dWv: [3], dWout: [4] };
  assert.deepEqual(trainedExtra(2, grads), { trained: { step: 2 }, gradients: { Wq: [1], Wk: [2], Wv: [3] } });
  assert.deepEqual(trainedExtra(0, grads), { trained: { step: 0 }, gradients: null });
  assert.deepEqual(trainedExtra(2, null), { trained: { step: 2 }, gradients: null });
});

test('the read-out: its caption, labels that are a copy, and one cell explained word for word', () => {
  const vocab = ['cat', 'dog', 'fox'];
  const info = readoutInfo(2, vocab);
  assert.equal(info.caption, 'Wout: 2 × 3, output dim × word');
  info.colLabels.push('owl');
  assert.deepEqual(vocab, ['cat', 'dog', 'fox'], 'the labels are the panel’s own copy');
  // Wout is 2 × 3, row-major: cell (1, 2) is the 6th number
  const Wout = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], dWout = [0, 0, 0, 0, 0, -0.25], update = [0, 0, 0, 0, 0, 0.025];
  const ex = explainReadout({ Wout, dWout, update, optimizer: 'sgd', lr: 0.1, step: 7, dv: 2, vocab, i: 1, j: 2 });
  assert.equal(ex.title, 'Wout[2][3] = 0.600');
  assert.equal(ex.text, [
    'How much output dimension v2 adds to the score of “fox”: a token’s score for “fox” is its row of O times column 3 of Wout, so this weight multiplies the token’s v2 (column 2 of O). A higher score makes the prediction “fox” more likely.',
    'Learned by gradient descent: this is its value after step 7.',
    '∂loss/∂Wout[2][3] = \u22120.250 on step 7’s batch (before its update): raising this weight by a small ε changes that batch’s loss by about \u22120.250·ε, so the gradient alone says raise it.',
    'Step 7 moved it by +0.025 (up, against its gradient: downhill on this batch). SGD moves every weight by −lr × its gradient (lr = 0.1), always against it.',
  ].join('\n'));
  // the optimizer left out is Adam
  assert.match(explainReadout({ Wout, dWout, update, step: 7, dv: 2, vocab, i: 1, j: 2 }).text, /\. Adam moves each weight by about lr times/);
  // at step 0 there is no gradient even if one is passed; after a step without one, none is made up
  assert.match(explainReadout({ Wout, dWout, step: 0, dv: 2, vocab, i: 1, j: 2 }).text, /\nRandom at step 0: gradient descent has not changed it yet\.$/);
  assert.doesNotMatch(explainReadout({ Wout, dWout: null, step: 3, dv: 2, vocab, i: 1, j: 2 }).text, /∂loss/);
  // cell (0, 1): the 2nd number
  assert.equal(explainReadout({ Wout, step: 0, dv: 2, vocab, i: 0, j: 1 }).title, 'Wout[1][2] = 0.200');
});

test('focusQuery: the last query with a right key, the first one included', () => {
  assert.deepEqual(focusQuery([0, null, null]), { i: 0, j: 0 });
  assert.deepEqual(focusQuery([null, 0, 1, null]), { i: 2, j: 1 });
  assert.equal(focusQuery([]), null);
});

test('the prediction row and bars at their edges', () => {
  const right = [null, 0, null];
  assert.deepEqual([0, 2, -1, 3, null].map((f) => predictionRow(f, right, 3)), [0, 2, 1, 1, 1]);
  assert.equal(predictionRow(-1, [null, null, null], 3), 2);
  // a tie: the first of the largest is the top bar; bars are clamped to 0..1
  const bars = predictionBars([0.4, 0.4, 0.2], ['a', 'b', 'c']);
  assert.deepEqual(bars.map((b) => [b.top, b.target]), [[true, false], [false, false], [false, false]]);
  assert.deepEqual(predictionBars([1.5, -0.5], ['a', 'b'], 'b').map((b) => [b.frac, b.top, b.target]), [[1, true, false], [0, false, true]]);
});

// Issue 26, minor: the intro said "gradient descent changes them … in the direction that lowers
// the loss" while Adam, the default, can take a step uphill on a batch. It names the default the
// panel starts with (DEFAULTS.optimizer) and does not promise every step goes downhill.
test('the training intro names the default optimizer and does not say every step lowers the loss', async () => {
  const { MARKUP } = await import('../../web/train/markup.js');
  const { DEFAULTS } = await import('../../web/train/words.js');
  const intro = MARKUP.replace(/\s+/g, ' ');
  assert.equal(DEFAULTS.optimizer, 'adam', 'the intro below is written for Adam as the default: change it with the default');
  assert.match(intro, /Adam, the default, scales each weight’s step by its history, so a single step can go uphill on that batch/);
  assert.doesNotMatch(intro, /in the direction that lowers the loss/);
});
