// Browser tests of "Watch a head learn" (?mode=train) in headless Chromium. Deterministic:
// training is driven step by step (the Single step button, or the panel's step(k) that the
// button calls), never by the clock; every wait is for a redraw.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, open, settle, cellTexts, shot, shown, SHOTS } from './helpers.mjs';
import { axeViolations } from './axe.mjs';
import { fmt } from '../../web/blocks/format.js';
import { PLAY_EXPLORER_MS } from '../../web/train/panel.js';

let env;
before(async () => {
  env = await setup();
});
after(() => env.close());

const WEIGHTS = ['Wq', 'Wk', 'Wv'];
const cell = (page, m, i, j) => page.locator(`[data-matrix="${m}"][data-row="${i}"][data-col="${j}"]`);
const explanation = (page) => page.locator('[data-role="explanation"]').textContent();

async function openTrain(query = '?mode=train', opts) {
  const o = await open(env, query, opts);
  await o.page.waitForFunction(() => globalThis.__train);
  await redraw(o.page);
  return o;
}
/**
 * Installs the page's clock, paused, so that frames come only when the test runs it. Its
 * performance.now() starts again near 0, while the panel stamped its last handover to the
 * explorer in the page's real time: the clock first runs past that (idle frames), so the next
 * handover is PLAY_EXPLORER_MS away however long the page took to load.
 */
async function pauseClock(page) {
  const real = await page.evaluate(() => performance.now());
  await page.clock.install();
  // pauseAt may not go back in time, and the installed clock runs on until it is paused: a second
  // ahead leaves room for a busy machine between reading the time and pausing (10 ms did not).
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  await page.clock.runFor(Math.ceil(real) + PLAY_EXPLORER_MS);
}
/** Counts the heads handed to the explorer, in globalThis.__handed. */
function countHandovers(page) {
  return page.evaluate(() => {
    globalThis.__handed = 0;
    const show = __explorer.showHead.bind(__explorer);
    __explorer.showHead = (...a) => (globalThis.__handed++, show(...a));
  });
}
/** Pauses training with its button (on the paused clock): the explorer catches up with the trainer's weights. */
async function pauseAndCompare(page) {
  await page.click('#train-run');
  await page.clock.runFor(100);
  const wq = await page.evaluate(() => [__explorer.state.config.Wq, __train.trainer.example({ seed: __train.state.ex }).Wq]);
  assert.deepEqual(wq[0], wq[1], 'paused, the explorer shows the trainer’s weights');
}
/** Takes k steps as the Single step button does, then waits for the redraw. */
async function steps(page, k) {
  await page.evaluate((k) => __train.step(k), k);
  await redraw(page);
}
async function redraw(page) {
  await page.evaluate(() => __train.flush());
  await settle(page);
}
const stepShown = async (page) => Number((await page.locator('#train-steps').textContent()).replace('Step ', ''));
const lossShown = async (page) => Number((await page.locator('#train-loss').textContent()).replace('loss ', ''));
const matrices = async (page, list) => Object.fromEntries(await Promise.all(list.map(async (m) => [m, await cellTexts(page, m)])));

test('training in the page: the loss shown falls, A changes from step 0 and “the” learns to look at “cat”', async () => {
  const { page, context, log } = await openTrain('?mode=train&task=find-the-noun&seed=1');
  assert.equal(await stepShown(page), 0);
  assert.match(await page.locator('#train-says').textContent(), /^step 0: not trained yet/);
  const start = await matrices(page, ['A', ...WEIGHTS]);
  assert.deepEqual(await page.evaluate(() => __explorer.state.config.tokens), ['the', 'cat', 'sat', 'on', 'the']);
  await shot(page, 'train-start');

  for (let k = 0; k < 3; k++) await page.click('#train-step'); // the button itself
  await redraw(page);
  assert.equal(await stepShown(page), 3);
  const early = await lossShown(page);
  assert.ok(early > 1, `the untrained loss is about ln(10) per guess, shown ${early}`);

  await steps(page, 57);
  assert.equal(await stepShown(page), 60);
  await shot(page, 'train-mid');
  await steps(page, 240);
  assert.equal(await stepShown(page), 300);
  const late = await lossShown(page);
  assert.ok(late < early / 10, `loss fell from ${early} to ${late}`);

  const end = await matrices(page, ['A', ...WEIGHTS]);
  for (const m of ['A', ...WEIGHTS]) assert.notDeepEqual(end[m], start[m], `${m} changed`);
  const onCat = shown(end.A[4][1]);
  assert.ok(onCat > 0.8 && onCat > shown(start.A[4][1]), `“the” (5) puts ${onCat} on “cat”, was ${start.A[4][1]}`);
  assert.match(await page.locator('#train-says').textContent(), new RegExp(`^step 300: loss .*“the” \\(5\\) puts ${end.A[4][1]} of its attention on “cat” \\(2\\)`));
  // The loss curve is drawn with labelled axes, its line ending at the last step.
  assert.ok((await page.locator('#train-curve path.loss-line').getAttribute('d')).split('L').length > 100);
  assert.deepEqual(await page.locator('#train-curve .axis-title').allTextContents(), ['training step', 'loss']);
  await shot(page, 'train-trained');
  await page.locator('[data-panel="A"]').scrollIntoViewIfNeeded();
  await shot(page, 'train-trained-A');
  assert.deepEqual(log.errors, []);
  assert.deepEqual(log.foreign, []);
  await context.close();
});

test('Reset returns the same step-0 weights; New random weights draws others, and Reset keeps those', async () => {
  const { page, context } = await openTrain('?mode=train&task=previous-token&seed=3');
  const start = await matrices(page, ['A', ...WEIGHTS]);
  await steps(page, 80);
  assert.notDeepEqual((await matrices(page, ['A'])).A, start.A);
  await page.click('#train-reset');
  await redraw(page);
  assert.equal(await stepShown(page), 0);
  assert.deepEqual(await matrices(page, ['A', ...WEIGHTS]), start);
  assert.match(page.url(), /seed=3&.*steps=0/);

  await page.click('#train-reroll');
  await redraw(page);
  const seed = await page.evaluate(() => __train.state.seed);
  assert.notEqual(seed, 3);
  const rolled = await matrices(page, WEIGHTS);
  assert.notDeepEqual(rolled, { Wq: start.Wq, Wk: start.Wk, Wv: start.Wv });
  await steps(page, 20);
  await page.click('#train-reset');
  await redraw(page);
  assert.deepEqual(await matrices(page, WEIGHTS), rolled);
  assert.match(page.url(), new RegExp(`seed=${seed}&`));
  await context.close();
});

test('the URL of a step reopens the same weights, the same step, row and cell (with a learning-rate change on the way)', async () => {
  const { page, context } = await openTrain('?mode=train&task=find-the-noun&seed=2');
  await steps(page, 40);
  await page.selectOption('#train-lr', '0.03');
  await steps(page, 35);
  await page.click('[data-step="softmax"]');
  await page.click('#tokens [data-follow="4"]');
  await cell(page, 'A', 4, 1).click();
  await redraw(page);
  const url = page.url();
  assert.match(url, /task=find-the-noun&seed=2&opt=adam&lr=0.01,40:0.03&steps=75&step=softmax&follow=4&cell=A.4.1/);
  const before = await matrices(page, ['A', 'O', ...WEIGHTS]);
  const says = await page.locator('#train-says').textContent();

  const again = await openTrain(url.slice(env.url.length));
  assert.equal(await stepShown(again.page), 75);
  assert.deepEqual(await matrices(again.page, ['A', 'O', ...WEIGHTS]), before);
  assert.equal(await again.page.locator('#train-says').textContent(), says);
  const s = await again.page.evaluate(() => ({ step: __explorer.state.step, follow: __explorer.state.follow, sel: __explorer.state.sel }));
  assert.deepEqual(s, { step: 'softmax', follow: 4, sel: { m: 'A', i: 4, j: 1 } });
  assert.equal(await again.page.locator('#train-lr').inputValue(), '0.03');
  await again.context.close();
  await context.close();
});

test('hovering a weight cell shows its gradient ∂loss/∂W beside its value; stepping keeps the hover, follow and step', async () => {
  const { page, context } = await openTrain('?mode=train&task=find-the-noun&seed=1&step=softmax&follow=4');
  await cell(page, 'Wq', 0, 2).hover();
  await redraw(page);
  assert.match(await explanation(page), /Random at step 0/);
  await steps(page, 10); // the mouse stays on the cell
  const text = await explanation(page);
  const value = await cell(page, 'Wq', 0, 2).textContent();
  assert.equal(await page.locator('#explain-title').textContent(), `Wq[1][3] = ${value}`);
  assert.match(text, /value after step 10\./);
  const g = await page.evaluate(() => __train.trainer.gradients().dWq[0 * __train.trainer.dk + 2]);
  const m = /∂loss\/∂Wq\[1\]\[3\] = (\S+) on step 10’s batch/.exec(text);
  assert.ok(m, text);
  assert.ok(Math.abs(Number(m[1].replace(/\u2212/g, '-')) - g) <= Math.max(5e-4, Math.abs(g) * 5e-3), `${m[1]} vs ${g}`);
  const s = await page.evaluate(() => ({ step: __explorer.state.step, follow: __explorer.state.follow }));
  assert.deepEqual(s, { step: 'softmax', follow: 4 });
  await shot(page, 'train-gradient');
  await context.close();
});

test('Train and Pause from the keyboard; the task, speed and optimizer controls; the other task', async () => {
  const { page, context } = await openTrain('?mode=train&task=previous-token&seed=1');
  assert.match(await page.locator('#train-goal').textContent(), /previous-token head/);
  await page.selectOption('#train-speed', '5');
  await page.focus('#train-run');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => __train.trainer.steps >= 20); // waits for frames, asserts no timing
  assert.equal(await page.locator('#train-run').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator('#train-run').textContent(), '❚❚ Pause');
  await page.keyboard.press('Enter');
  await redraw(page);
  assert.equal(await page.locator('#train-run').getAttribute('aria-pressed'), 'false');
  const n = await stepShown(page);
  assert.equal(n % 5, 0, 'five steps a frame');
  await settle(page);
  assert.equal(await stepShown(page), n, 'paused: no more steps');
  assert.match(page.url(), new RegExp(`steps=${n}&speed=5`));

  await page.selectOption('#train-opt', 'sgd');
  await redraw(page);
  assert.equal(await stepShown(page), 0, 'a new optimizer starts again at step 0');
  await page.selectOption('#train-task', 'find-the-noun');
  await redraw(page);
  assert.match(await page.locator('#train-goal').textContent(), /last “the”/);
  assert.match(page.url(), /task=find-the-noun&seed=1&opt=sgd/);
  await context.close();
});

test('too high a learning rate stops training with a message, and no NaN reaches the matrices', async () => {
  // SGD at 10 on find-the-noun, seed 1: step 36's update makes the weights NaN (deterministic).
  const { page, context, log } = await openTrain('?mode=train&task=find-the-noun&seed=1&opt=sgd&lr=10');
  await steps(page, 100);
  assert.equal(await stepShown(page), 36);
  assert.match(await page.locator('#train-error').textContent(), /^Training stopped at step 36: the weights became NaN or Infinity; lower the learning rate \(now 10\) and press Reset\. The matrices below show the weights after step 35, the last that were still numbers\./);
  const texts = await matrices(page, ['Q', 'K', 'V', 'O', ...WEIGHTS]);
  for (const m in texts) for (const row of texts[m]) for (const t of row) assert.ok(Number.isFinite(shown(t)), `${m}: ${t}`);
  await page.selectOption('#train-lr', '0.1');
  await page.click('#train-reset');
  await redraw(page);
  assert.equal(await stepShown(page), 0);
  assert.ok(!(await page.locator('#train-error').isVisible()));
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('bad link parameters are reported and the defaults are used', async () => {
  const { page, context, log } = await openTrain('?mode=train&task=poetry&steps=abc');
  assert.match(await page.locator('#train-error').textContent(), /no task “poetry”.*steps=abc/);
  assert.equal(await page.locator('#train-task').inputValue(), 'find-the-noun');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the explorer’s step, follow and cell in a training link: a good one is used, one that cannot be is left out and said', async () => {
  const good = await openTrain('?mode=train&step=softmax&follow=2&cell=A.2.1');
  assert.deepEqual(await good.page.evaluate(() => [__explorer.state.step, __explorer.state.follow, __explorer.state.sel]), ['softmax', 2, { m: 'A', i: 2, j: 1 }]);
  assert.equal(await good.page.locator('#error').textContent(), '');
  await good.context.close();
  const { page, context, log } = await openTrain('?mode=train&step=sofmax&follow=40&cell=O.40.0');
  const n = await page.evaluate(() => __explorer.state.config.tokens.length);
  assert.equal(await page.locator('#error').textContent(),
    'The link’s step=sofmax was ignored: the steps are project, score, scale, mask, softmax and mix. ' +
    `The link’s follow=40 was ignored: this head has ${n} tokens, rows 0 to ${n - 1}. The link’s cell=O.40.0 was ignored: O has ${n} rows.`);
  assert.deepEqual(await page.evaluate(() => [__explorer.state.step, __explorer.state.follow, __explorer.state.sel]), [null, null, null]);
  assert.deepEqual(log.errors, []);
  await context.close();
});

/** The read-out's cells as numbers, and the trainer's own Wout [dv × vocab] (flat). */
const readoutShown = async (page) => (await cellTexts(page, 'Wout')).map((row) => row.map(shown));
const readoutTrainer = (page) => page.evaluate(() => Array.from(__train.trainer.weights().Wout));
function assertShowsValues(cells, flat, what) {
  const cols = cells[0].length;
  assert.equal(cells.length * cols, flat.length, `${what}: one cell per weight`);
  let worst = 0;
  cells.forEach((row, i) => row.forEach((v, j) => (worst = Math.max(worst, Math.abs(v - flat[i * cols + j])))));
  assert.ok(worst <= 5e-4, `${what}: cells differ from the trainer's Wout by up to ${worst}`);
}

test('the read-out Wout is drawn with the trainer’s values, changes with training and returns to step 0 on Reset', async () => {
  const { page, context, log } = await openTrain('?mode=train&task=find-the-noun&seed=1');
  const vocab = await page.evaluate(() => __train.trainer.vocab);
  const dv = await page.evaluate(() => __train.trainer.dv);
  assert.equal(await page.locator('#train-wout-shape').textContent(), `${dv} × ${vocab.length}, output dim × word`);
  assert.match(await page.locator('#train-wout-about').textContent(), /turns each output row .* into a score for every word; the softmax of those scores is the prediction/);
  assert.deepEqual(await page.locator('#train-wout [role="columnheader"]').allTextContents(), vocab);
  assert.deepEqual(await page.locator('#train-wout [role="rowheader"]').allTextContents(), Array.from({ length: dv }, (_, k) => `v${k + 1}`));
  const start = await readoutShown(page);
  assertShowsValues(start, await readoutTrainer(page), 'step 0');

  // The bars: the followed/last token's probabilities, one per word, adding up to 1.
  const bars = async () => (await page.locator('#train-pred li .p').allTextContents()).map(shown);
  const p0 = await bars();
  assert.equal(p0.length, vocab.length);
  assert.ok(Math.abs(p0.reduce((a, b) => a + b) - 1) < 0.01);
  assert.match(await page.locator('#train-pred-cap').textContent(), /after “the” \(5\).*right answer is “cat”/);

  await steps(page, 150);
  const trained = await readoutShown(page);
  assert.notDeepEqual(trained, start);
  assertShowsValues(trained, await readoutTrainer(page), 'step 150');
  const p1 = await bars();
  const cat = vocab.indexOf('cat');
  assert.ok(p1[cat] > 0.5 && p1[cat] > p0[cat], `P(cat) ${p0[cat]} -> ${p1[cat]}`);
  // The bar list and the narration say the same probability of “cat”.
  assert.match(await page.locator('#train-says').textContent(), new RegExp(`predicts “cat” with probability ${(await page.locator('#train-pred li .p').nth(cat).textContent())}`));
  await shot(page, 'train-readout');

  // Following another token moves the bars to its row.
  await page.click('#tokens [data-follow="1"]');
  await redraw(page);
  assert.match(await page.locator('#train-pred-cap').textContent(), /after “cat” \(2\).*no target/);

  await page.click('#train-reset');
  await redraw(page);
  assert.deepEqual(await readoutShown(page), start);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('hovering or focusing a read-out cell explains it: its value, and after a step its gradient ∂loss/∂Wout', async () => {
  const { page, context } = await openTrain('?mode=train&task=find-the-noun&seed=1');
  const wcell = (i, j) => page.locator(`#train-wout [data-matrix="Wout"][data-row="${i}"][data-col="${j}"]`);
  const title = () => page.locator('#train-wout-title').textContent();
  const text = () => page.locator('#train-wout-explain').textContent();
  await wcell(2, 1).hover();
  await redraw(page);
  assert.equal(await title(), `Wout[3][2] = ${await wcell(2, 1).textContent()}`);
  assert.match(await text(), /output dimension v3 adds to the score of “cat”/);
  assert.match(await text(), /Random at step 0/);
  await steps(page, 10); // the mouse stays on the cell
  assert.equal(await title(), `Wout[3][2] = ${await wcell(2, 1).textContent()}`);
  const vocab = await page.evaluate(() => __train.trainer.vocab.length);
  const g = await page.evaluate((V) => __train.trainer.gradients().dWout[2 * V + 1], vocab);
  const m = /∂loss\/∂Wout\[3\]\[2\] = (\S+) on step 10’s batch/.exec(await text());
  assert.ok(m, await text());
  assert.ok(Math.abs(shown(m[1].replace(/e\u2212/, 'e-')) - g) <= Math.max(5e-4, Math.abs(g) * 5e-3), `${m[1]} vs ${g}`);
  assert.match(await wcell(2, 1).getAttribute('class'), /\bcur\b/);

  // The keyboard: focus a cell, the arrows move (and the explorer's step stays where it was).
  await page.mouse.move(0, 0);
  const stepBefore = await page.evaluate(() => __explorer.state.step);
  await wcell(0, 0).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await redraw(page);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.row + ',' + document.activeElement.dataset.col), '1,1');
  assert.match(await title(), /^Wout\[2\]\[2\] = /);
  assert.equal(await page.evaluate(() => __explorer.state.step), stepBefore);
  assert.match(await wcell(1, 1).getAttribute('aria-label'), /^Wout, output dim 2, word 2 “cat”: /);
  await page.locator('.train-readout').scrollIntoViewIfNeeded();
  await shot(page, 'train-readout-focus');
  await context.close();
});

test('a phone (360 px) and the dark theme: the panel fits and reads', async () => {
  const phone = await openTrain('?mode=train&task=find-the-noun&seed=1&steps=60', { width: 360, height: 800 });
  const over = await phone.page.evaluate(() => document.querySelector('.train').scrollWidth - document.querySelector('.train').clientWidth);
  assert.ok(over <= 0, `the training panel overflows by ${over}px`);
  await shot(phone.page, 'train-360', { fullPage: false });
  await phone.page.locator('.train-readout').scrollIntoViewIfNeeded();
  await shot(phone.page, 'train-readout-360', { fullPage: false });
  await phone.context.close();
  const dark = await openTrain('?mode=train&task=previous-token&seed=1&steps=150', { colorScheme: 'dark' });
  assert.equal(await dark.page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await shot(dark.page, 'train-dark');
  await dark.page.locator('.train-readout').screenshot({ path: SHOTS + 'train-readout-dark.png' });
  await dark.context.close();
});

test('a link past a blow-up shows what stepping there shows: the step, the losses, the last finite weights and the words', async () => {
  const link = '?mode=train&task=find-the-noun&seed=1&opt=sgd&lr=10';
  const replayed = await openTrain(link + '&steps=60');
  const byHand = await openTrain(link);
  for (let k = 0; k < 60; k++) await byHand.page.evaluate(() => __train.step(1));
  await redraw(byHand.page);
  const screen = async (page) => ({
    step: await stepShown(page),
    loss: await page.locator('#train-loss').textContent(),
    says: await page.locator('#train-says').textContent(),
    error: await page.locator('#train-error').textContent(),
    caption: await page.locator('#train-curve-cap').textContent(),
    curve: await page.locator('#train-curve path.loss-line').getAttribute('d'),
    matrices: await matrices(page, ['A', 'O', ...WEIGHTS]),
    readout: await cellTexts(page, 'Wout'),
  });
  const a = await screen(replayed.page), b = await screen(byHand.page);
  assert.deepEqual(a, b);
  assert.equal(a.step, 36);
  assert.match(a.error, /The matrices below show the weights after step 35, the last that were still numbers\./);
  assert.match(a.caption, /^The loss of each step’s batch: 2\.\d{3} at step 1, /);
  assert.doesNotMatch(a.says, /0\.528/, 'not the cat preset’s numbers');
  assert.deepEqual(replayed.log.errors, []);
  await replayed.context.close();
  await byHand.context.close();
});

test('a 20000-step link replays in chunks: the page answers throughout and shows its progress', async () => {
  const { page, context, log } = await open(env, '?mode=train&task=find-the-noun&seed=1&steps=20000');
  // The longest task while it replays (a figure for the report, not an assertion: no timing asserts).
  await page.evaluate(() => {
    globalThis.__longest = 0;
    new PerformanceObserver((l) => { for (const e of l.getEntries()) globalThis.__longest = Math.max(globalThis.__longest, e.duration); }).observe({ type: 'longtask', buffered: true });
  });
  const seen = [];
  for (let k = 0; k < 400 && !(await page.evaluate(() => Boolean(globalThis.__train))); k++) {
    // Each evaluate runs a script in the page: it only returns when the page is free to run it.
    const p = await page.evaluate(() => ({ at: +document.querySelector('#train-replay-bar').value, of: +document.querySelector('#train-replay-bar').max, text: document.querySelector('#train-replay-text').textContent, shown: !document.querySelector('#train-replay').hidden }));
    if (p.shown && p.at > 0 && p.at < 20000) seen.push(p);
  }
  assert.ok(new Set(seen.map((p) => p.at)).size >= 3, `the page answered during the replay at ${seen.length} points: ${seen.map((p) => p.at).join(', ')}`);
  assert.ok(seen.every((p) => p.of === 20000 && p.text === `step ${p.at} of 20000`));
  await page.waitForFunction(() => globalThis.__train);
  await redraw(page);
  assert.equal(await stepShown(page), 20000);
  assert.ok(await page.locator('#train-replay').isHidden(), 'the progress goes away when the replay is done');
  const longest = await page.evaluate(() => globalThis.__longest);
  console.log(`# replay of 20000 steps: answered at ${seen.length} points; longest task ${Math.round(longest)} ms (0 = none over 50 ms)`);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the live region speaks at most once every 2 s while training runs, and at once on pause', async () => {
  const { page, context } = await openTrain('?mode=train&task=previous-token&seed=1');
  await page.clock.install();
  await page.evaluate(() => {
    globalThis.__said = [];
    new MutationObserver(() => globalThis.__said.push({ at: performance.now(), text: document.querySelector('#train-says').textContent }))
      .observe(document.querySelector('#train-says'), { childList: true, characterData: true, subtree: true });
  });
  await page.click('#train-run');
  await page.clock.runFor(10000);
  const during = await page.evaluate(() => ({ said: globalThis.__said.slice(), steps: __train.trainer.steps }));
  assert.ok(during.steps >= 300, `training ran (${during.steps} steps in 10 s of frames)`);
  assert.ok(during.said.length >= 2 && during.said.length <= 6, `${during.said.length} announcements in 10 s`);
  for (let k = 1; k < during.said.length; k++) assert.ok(during.said[k].at - during.said[k - 1].at >= 2000, JSON.stringify(during.said));
  // The visible sentence (hidden from screen readers, which hear #train-says) follows every frame.
  const seen = await page.evaluate(() => ({ text: document.querySelector('#train-narration').textContent, steps: __train.trainer.steps, hidden: document.querySelector('#train-narration').getAttribute('aria-hidden') }));
  assert.equal(seen.hidden, 'true');
  const at = Number(/^step (\d+):/.exec(seen.text)[1]);
  assert.ok(at >= seen.steps - 1 && at <= seen.steps, `the visible sentence is at step ${at}, training at ${seen.steps}`);
  await page.click('#train-run'); // pause
  await page.clock.runFor(100);
  const after = await page.evaluate(() => ({ last: globalThis.__said.at(-1), steps: __train.trainer.steps }));
  assert.match(after.last.text, new RegExp(`^step ${after.steps}: `), 'the pause is said at once, at the step it stopped');
  await context.close();
});

test('while training runs the explorer gets a head at most every PLAY_EXPLORER_MS; paused, every number shown is the step’s', async () => {
  const { page, context, log } = await openTrain('?mode=train&task=find-the-noun&seed=1');
  await pauseClock(page); // frames come from the page's clock, run by the test: nothing here depends on the machine's speed
  await countHandovers(page);
  // The trainer's current example on its current weights, through a fresh forward() of the core.
  const fresh = () => page.evaluate(() => {
    const cfg = __train.trainer.example({ seed: __train.state.ex });
    const r = __train.state.attn.forward({ X: cfg.X, Wq: cfg.Wq, Wk: cfg.Wk, Wv: cfg.Wv, causal: cfg.causal, scale: cfg.scale ?? undefined });
    return { steps: __train.trainer.steps, A: Array.from(r.A), Wq: cfg.Wq, Wout: Array.from(__train.trainer.weights().Wout) };
  });
  const explorerHead = () => page.evaluate(() => ({ A: Array.from(__explorer.result.A), Wq: __explorer.state.config.Wq }));
  await page.click('#train-run');
  await page.locator('[data-panel="A"]').scrollIntoViewIfNeeded(); // in sight: it gets heads while training runs
  await page.clock.runFor(2000);
  // one evaluate, so no frame can run between what it reads
  const during = await page.evaluate(() => ({ handed: globalThis.__handed, steps: __train.trainer.steps, said: document.querySelector('#train-narration')?.textContent ?? '' }));
  assert.ok(during.steps >= 100, `training ran (${during.steps} steps in 2 s of frames)`);
  assert.ok(during.handed >= 2 && during.handed <= 2000 / PLAY_EXPLORER_MS + 1, `${during.handed} heads handed to the explorer in 2 s of frames`);
  // The panel follows every frame: its sentence is at the trainer's step, from the panel's own forward().
  assert.match(during.said, new RegExp(`^step (${during.steps}|${during.steps - 1}):`));
  // Training moves on past the head last handed over (as between two refreshes): the session
  // steps without the panel's frame, so the explorer surely shows an earlier head when it pauses.
  // (the step, the trainer's weights and the explorer's, read in one evaluate)
  const ahead = await page.evaluate(() => {
    __train.state.tick();
    return { trainer: __train.trainer.example({ seed: __train.state.ex }).Wq, explorer: __explorer.state.config.Wq };
  });
  assert.notDeepEqual(ahead.explorer, ahead.trainer, 'while it plays, the explorer shows an earlier head');

  await page.click('#train-run'); // pause
  await page.clock.runFor(100);
  const now = await fresh();
  const head = await explorerHead();
  assert.deepEqual(head.Wq, now.Wq, 'paused: the explorer shows the trainer’s current weights');
  assert.deepEqual(head.A, now.A, 'paused: the explorer’s A is a fresh forward() of them');
  const n = Math.sqrt(now.A.length);
  assert.deepEqual(await cellTexts(page, 'A'), Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => fmt(now.A[i * n + j]))), 'paused: the A cells on screen are this step’s');
  assertShowsValues(await readoutShown(page), now.Wout, 'paused: the read-out');
  assert.equal(await stepShown(page), now.steps);
  assert.match(await page.locator('#train-narration').textContent(), new RegExp(`^step ${now.steps}:`));
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('while training runs, an action brings the newest head in the frame after, and a held arrow key no more often than PLAY_EXPLORER_MS', async () => {
  const { page, context, log } = await openTrain('?mode=train&task=find-the-noun&seed=1');
  // the page's clock, paused: only runFor moves it, so frames and handovers come when the test says
  await pauseClock(page);
  await countHandovers(page);
  const handed = () => page.evaluate(() => globalThis.__handed);
  await page.click('#train-run');
  await page.locator('[data-panel="A"]').scrollIntoViewIfNeeded(); // in sight: it gets heads while training runs
  await page.clock.runFor(1000);
  // right after a handover the next is PLAY_EXPLORER_MS away; a click on an A cell then brings
  // the newest head within three frames
  const before = await handed();
  while ((await handed()) === before) await page.clock.runFor(16);
  const after = await handed();
  await page.locator('[data-matrix="A"][data-row="0"][data-col="0"]').click();
  await page.clock.runFor(48);
  assert.equal(await handed(), after + 1, 'the click brought the newest head');
  // the arrow key held for a second, a repeat every 33 ms, each moving the focus and selecting a cell
  const start = await handed();
  for (let k = 0; k < 30; k++) {
    await page.keyboard.press(k % 2 ? 'ArrowLeft' : 'ArrowRight');
    await page.clock.runFor(33);
  }
  const held = await page.evaluate(() => ({ handed: globalThis.__handed, sel: __explorer.state.sel }));
  assert.deepEqual(held.sel, { m: 'A', i: 0, j: 0 }, 'every key moved the selection (30 moves, back where it started)');
  const count = held.handed - start;
  assert.ok(count >= 2 && count <= Math.ceil(990 / PLAY_EXPLORER_MS) + 1, `${count} heads handed to the explorer in 30 repeats over 990 ms`);
  await pauseAndCompare(page);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('while training runs with the explorer out of sight it gets no heads, the read-out still follows; back in sight it gets the newest head at once', async () => {
  const { page, context, log } = await openTrain('?mode=train&task=find-the-noun&seed=1'); // 1280×900: the explorer is below the panel
  const inSight = () => page.evaluate(() => { const b = document.querySelector('[data-panel="A"]').getBoundingClientRect(); return b.bottom > 0 && b.top < innerHeight; });
  assert.equal(await inSight(), false, 'A starts out of sight');
  await pauseClock(page);
  await countHandovers(page);
  const read = () => page.evaluate(() => ({ handed: globalThis.__handed, steps: __train.trainer.steps, readout: document.querySelector('#train-wout').textContent }));
  await page.click('#train-run');
  await page.clock.runFor(1000);
  const away = await read();
  await page.clock.runFor(500);
  const later = await read();
  assert.ok(later.steps > away.steps && away.steps >= 30, `training ran (${away.steps}, then ${later.steps} steps)`);
  assert.equal(later.handed, 0, 'no head handed to an explorer out of sight');
  assert.notEqual(later.readout, away.readout, 'the read-out (Wout) caught up meanwhile');
  // scrolled into sight, it gets the newest head within a few frames, then one every PLAY_EXPLORER_MS.
  // The browser says "in sight" after a real frame: an observer of the test's own, made after the
  // panel's, hears it after the panel does.
  await page.evaluate(() => {
    globalThis.__inSight = false;
    new IntersectionObserver((es) => { globalThis.__inSight = es[es.length - 1].isIntersecting; }).observe(document.getElementById('explorer'));
  });
  await page.locator('[data-panel="A"]').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => globalThis.__inSight, null, { polling: 50 });
  for (let k = 0; k < 10 && (await read()).handed === 0; k++) await page.clock.runFor(16);
  assert.equal((await read()).handed, 1, 'back in sight: the newest head');
  await page.clock.runFor(1000);
  const back = (await read()).handed;
  assert.ok(back >= 1 + 3 && back <= 1 + Math.ceil(1000 / PLAY_EXPLORER_MS) + 1, `${back - 1} more heads in a second in sight`);
  await pauseAndCompare(page);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('paused with the explorer out of sight, every word and bar of the panel is the paused head’s', async () => {
  const { page, context, log } = await openTrain('?mode=train&task=find-the-noun&seed=1'); // 1280×900: the explorer is below the panel
  await pauseClock(page);
  await page.click('#train-run');
  await page.clock.runFor(1500);
  await page.click('#train-run');
  await page.clock.runFor(100);
  const read = () => page.evaluate(() => ({
    steps: __train.trainer.steps,
    says: document.getElementById('train-narration').textContent,
    prediction: document.getElementById('train-pred').textContent,
    A: document.getElementById('train-a').innerHTML, // the small A's cells
  }));
  const paused = await read();
  assert.ok(paused.steps >= 30, `training ran (${paused.steps} steps)`);
  assert.match(paused.says, new RegExp(`^step ${paused.steps}:`));
  // The panel drawn afresh from the paused head (flush: the explorer computes, then the panel draws).
  await page.evaluate(() => __train.flush());
  assert.deepEqual(await read(), paused, 'the panel after the pause already showed the paused head');
  await page.clock.runFor(4000);
  assert.deepEqual(await read(), paused, 'and still does seconds later');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('axe-core finds nothing on ?mode=train, before and during training, at 1280 and 360 px', async () => {
  const found = [];
  for (const opts of [{ width: 1280 }, { width: 360, height: 800 }]) {
    const { page, context } = await openTrain('?mode=train&task=find-the-noun&seed=1', opts);
    const check = async (when) => {
      for (const v of await axeViolations(page, { include: '.train' })) found.push(`${opts.width} ${when}, panel: ${v}`);
      for (const v of await axeViolations(page)) found.push(`${opts.width} ${when}, page: ${v}`);
    };
    await check('before');
    await page.click('#train-run');
    await page.waitForFunction(() => __train.trainer.steps >= 30); // waits for frames, asserts no timing
    await check('during');
    await page.click('#train-run');
    await context.close();
  }
  assert.deepEqual(found, []);
});

test('Copy link to this step copies the address of this step and says so; where the clipboard is refused it asks for the address bar', async () => {
  const { page, context, log } = await openTrain('?mode=train&task=find-the-noun&seed=1');
  await steps(page, 3);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await page.click('#train-link');
  await page.waitForFunction(() => document.getElementById('train-link').textContent === 'Link copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, page.url());
  assert.match(copied, /[?&]steps=3\b/);
  await context.clearPermissions();
  await page.evaluate(() => { navigator.clipboard.writeText = () => Promise.reject(new Error('refused')); });
  await page.click('#train-link');
  await page.waitForFunction(() => document.getElementById('train-link').textContent === 'Copy the address bar');
  assert.deepEqual(log.errors, []);
  await context.close();
});
