// Browser tests of "Watch an induction head form" (?mode=induction, and mode="induction" on the
// element) in headless Chromium. Training runs in the page's Web Worker; the tests drive it by
// step counts (the panel's step(k), as the Single step button does) and wait for the worker's
// answer, never for a clock. Determinism across engines: the worker's weights after a replayed
// link hash to the same value as the same run in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, open, settle, shot, launch, ROOT } from './helpers.mjs';
import { CSP, pageWriter, openEmbed, clean } from './embed-helpers.mjs';
import { axeViolations } from './axe.mjs';
import { startServer } from '../../tools/serve.mjs';
import { loadAttention } from '../../web/core/attention.js';
import { createEngine } from '../../web/induction/engine.js';
import { formedAt } from '../../web/induction/words.js';

let env;
before(async () => {
  env = await setup();
});
after(() => env.close());

async function openInduction(query, opts) {
  const o = await open(env, query, opts);
  await o.page.waitForFunction(() => globalThis.__induction && globalThis.__induction.last, null, { timeout: 120000 });
  await redraw(o.page);
  return o;
}
async function redraw(page) {
  await page.evaluate(() => __induction.flush());
  await settle(page);
}
/** k steps in the worker (the Single step button's message), then the redraw. */
async function steps(page, k) {
  await page.evaluate((k) => __induction.step(k), k);
  await redraw(page);
}
const status = (page) => page.locator('#ind-status').textContent();

/** The same run in Node: the engine the worker runs, on Node's instance of the core (the page's
 * default model, one head a layer, with head 2.1 open). */
async function nodeRun(steps) {
  const attn = await loadAttention();
  let last = null;
  const e = createEngine(attn, (m) => (last = m));
  e.handle({ type: 'init', settings: { seed: 1, lr: 0.02, heads: 1, ex: 0, head: 1, ablate: [], control: true }, steps });
  e.dispose();
  return last;
}

test('the mode opens from its URL, trains in a Web Worker, and shows the two loss curves, the drop and the grid of heads', async () => {
  const { page, context, log } = await openInduction('?mode=induction&seed=1');
  assert.equal(await page.evaluate(() => __induction.runner), 'worker');
  assert.match(await status(page), /^Step 0$/);
  assert.match(await page.locator('#ind-says').textContent(), /^Step 0: random weights\./);
  assert.match(await page.locator('#ind-where').textContent(), /training in a Web Worker/);
  assert.equal(await page.locator('.ind-head').count(), 3, 'one head a layer: two heads and the control’s one');
  assert.deepEqual(await page.locator('#ind-heads option').allTextContents(), ['1 head a layer', '2 heads a layer (the anchor’s size)']);
  assert.equal(await page.locator('#ind-heads').inputValue(), '1');
  await shot(page, 'induction-start');

  await page.click('#ind-step'); // the button itself: one step in the worker
  await page.waitForFunction(() => __induction.last.step === 1);
  await redraw(page);
  assert.match(await status(page), /^Step 1 · batch loss: repeated part \d\.\d\d, first part \d\.\d\d nats$/);

  await steps(page, 399);
  const last = await page.evaluate(() => ({ step: __induction.last.step, evals: __induction.last.evals }));
  assert.equal(last.step, 400);
  const at = formedAt(last.evals);
  assert.ok(at != null && at <= 400, `the circuit formed at step ${at}`);
  // two lines (and the control's), the drop marked, the legend and the caption say which is which
  for (const cls of ['repeat', 'first', 'control']) assert.ok((await page.locator(`#ind-curve path.ind-line.${cls}`).getAttribute('d')).split('L').length > 50, `${cls} line`);
  assert.match(await page.locator('#ind-curve .ind-drop-label').textContent(), /^drop: step \d+$/);
  assert.match(await page.locator('#ind-curve-cap').textContent(), /The repeated part drops at step \d+\. 400 steps so far\.$/);
  assert.match(await page.locator('#ind-says').textContent(), /is an induction head/);
  assert.match(await page.locator('#ind-where').textContent(), new RegExp(`the circuit formed .* at step ${at}\\.`));
  // every head: its pattern, its scores over training, its label
  const labels = await page.locator('.ind-head[data-model="model"] .ind-open').evaluateAll((b) => b.map((x) => x.getAttribute('aria-label')));
  assert.equal(labels.length, 2);
  for (const l of labels) assert.match(l, /^Head [12]\.1: previous-token \d\.\d{3}, induction \d\.\d{3}\. Open it in the explorer$/);
  assert.ok(await page.locator('.ind-head .ind-spark path.ind-line.induct').count() >= 3);
  assert.deepEqual(await page.locator('#ind-kcomp-legend li').allTextContents(), [await page.evaluate(() => `1.1 → 2.1: ${__induction.last.evals.at(-1).composition[0][0].toFixed(3)}`)], 'K-composition of the layer-1 head with the layer-2 head');
  assert.equal(await page.locator('#ind-ablate-circuit').textContent(), 'Ablate the induction head, 2.1');
  await shot(page, 'induction-trained');
  // the anchor's size, 2 heads a layer: a new run from step 0, four heads and the control's two
  await page.locator('#ind-heads').selectOption('2');
  await page.waitForFunction(() => __induction.last.settings.heads === 2);
  await redraw(page);
  assert.match(await status(page), /^Step 0$/);
  assert.equal(await page.locator('.ind-head').count(), 6, 'four heads and the control’s two');
  assert.deepEqual(await page.locator('.ind-head[data-model="model"] .ind-name').allTextContents(), ['Head 1.1', 'Head 1.2', 'Head 2.1', 'Head 2.2']);
  assert.equal(await page.locator('#ind-kcomp-legend li').count(), 4, 'K-composition of every layer-1 head with every layer-2 head');
  assert.match(page.url(), /\?mode=induction&seed=1&lr=0\.02&heads=2&steps=0$/);
  assert.deepEqual(log.errors, []);
  assert.deepEqual(log.foreign, []);
  await context.close();
});

test('a link replays to its step in the worker, to the same weights bit for bit as the same run in Node', async () => {
  const node = await nodeRun(120);
  const { page, context } = await openInduction('?mode=induction&seed=1&lr=0.02&steps=120&head=2.1');
  assert.equal(await page.evaluate(() => __induction.last.settings.heads), 1, 'the default model');
  const web = await page.evaluate(() => ({ step: __induction.last.step, hash: __induction.last.weightsHash, evals: __induction.last.evals }));
  assert.equal(web.step, 120);
  console.log(`    weights after 120 steps: Node ${node.weightsHash}, Chromium worker ${web.hash}`);
  assert.equal(web.hash, node.weightsHash);
  assert.deepEqual(web.evals, node.evals, 'every held-out number on the way, too');
  assert.match(page.url(), /\?mode=induction&seed=1&lr=0\.02&steps=120&head=2\.1$/);
  await context.close();
});

test('click a head: the explorer opens it (X is the residual stream it reads) and explains its cells; the split shows K-composition', async () => {
  const { page, context, log } = await openInduction('?mode=induction&seed=1&steps=300');
  await page.locator('.ind-head[data-model="model"][data-head="1"] .ind-open').click();
  await page.waitForFunction(() => __induction.last.view.head && __induction.last.view.head.index === 1);
  await redraw(page);
  assert.equal(await page.locator('.ind-head[data-model="model"][data-head="1"] .ind-open').getAttribute('aria-pressed'), 'true');
  assert.match(page.url(), /head=2\.1/);
  // the explorer shows X [32 × 32], Wq, Wk, Wv [32 × 16], Q, K, V, S, A and O of head 2.1
  const ex = await page.evaluate(() => ({ tokens: __explorer.state.config.tokens, d: __explorer.result.d, dk: __explorer.result.dk, n: __explorer.result.n }));
  assert.deepEqual([ex.n, ex.d, ex.dk], [32, 32, 16]);
  assert.equal(ex.tokens[0], 'BOS');
  // its A is the model's A for that head, bit for bit (the explorer recomputed it with the core)
  const same = await page.evaluate(() => {
    const a = __explorer.result.A, b = __induction.last.view.A[1];
    return a.length === b.length && a.every((v, k) => v === b[k]);
  });
  assert.ok(same, 'the explorer’s A is the model’s');
  const explain = () => page.locator('[data-role="explanation"]').textContent();
  await page.locator('[data-panel="X"]').scrollIntoViewIfNeeded();
  await page.locator('[data-panel="X"] canvas, [data-panel="X"] [data-row="5"][data-col="2"]').first().hover({ position: { x: 12, y: 30 } });
  await settle(page);
  assert.match(await explain(), /of the residual stream at .*: what this head reads\. Every earlier part of the model adds to the stream, so it is .* \(token embedding \+ position\) \+ .* \(head 1\.1’s output\)/);
  assert.doesNotMatch(await explain(), /head 1\.2/);
  await page.locator('[data-panel="A"]').scrollIntoViewIfNeeded();
  await page.locator('[data-panel="A"] canvas, [data-panel="A"] [data-row="20"][data-col="10"]').first().hover({ position: { x: 60, y: 100 } });
  await settle(page);
  assert.match(await explain(), /softmax|weight/i);
  await page.locator('[data-panel="Wk"]').scrollIntoViewIfNeeded();
  await page.locator('[data-panel="Wk"] canvas, [data-panel="Wk"] [data-row="3"][data-col="3"]').first().hover({ position: { x: 20, y: 20 } });
  await settle(page);
  assert.match(await explain(), /Learned by gradient descent: this is its value after step 300\./);
  // the K-composition split for the last query: its right keys, and the share written by a layer-1 head
  assert.equal(await page.locator('#ind-split-box').isHidden(), false);
  assert.match(await page.locator('#ind-split-says').textContent(), /^Head 2\.1, query “.*” \(32\): the keys to find are/);
  await page.locator('#ind-split [data-row="2"][data-col="5"]').hover();
  await settle(page);
  assert.match(await page.locator('#ind-split-explain').textContent(), /so the score is the sum of one share per source: [-\d.]+ \(the token embedding and position\) \+ [-\d.]+ \(head 1\.1\) = /);
  await page.locator('#ind-split-box').scrollIntoViewIfNeeded();
  await shot(page, 'induction-split');
  const axe = await axeViolations(page, { include: 'section.induction' });
  assert.deepEqual(axe, [], 'axe finds nothing in the induction panel');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('“Another sequence” redraws the explorer, the token chips and the split in place: the same nodes, new tokens and numbers', async () => {
  const { page, context, log } = await openInduction('?mode=induction&seed=1&steps=60&head=2.1');
  await page.waitForFunction(() => __induction.last.view.head && __induction.last.view.head.index === 1);
  await redraw(page);
  // mark every node the redraw must keep: the explorer's figures and canvases, the chips, the split's grid and headers
  const KEEP = '#matrices [data-panel], #matrices [data-panel] canvas, #tokens [data-follow], #ind-split .hm, #ind-split [role="columnheader"], #ind-query option';
  const marked = () => page.evaluate((sel) => [...document.querySelectorAll(sel)].map((e) => e.__mark ?? null), KEEP);
  const count = await page.evaluate((sel) => {
    const nodes = [...document.querySelectorAll(sel)];
    nodes.forEach((e, k) => (e.__mark = k));
    return nodes.length;
  }, KEEP);
  assert.ok(count > 11 + 10 + 32 + 1 + 32 + 32, `${count} nodes marked`);
  const numbers = () => page.evaluate(() => {
    const r = __explorer.view.r;
    const pixels = (m) => {
      const c = document.querySelector(`#matrices canvas[data-matrix-canvas="${m}"]`);
      return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data.slice(0, 4 * c.width * 8)).join(',');
    };
    return {
      tokens: __explorer.state.config.tokens.slice(), chips: [...document.querySelectorAll('#tokens [data-follow]')].map((b) => b.textContent),
      X: Array.from(r.X), A: Array.from(r.A), pixelsX: pixels('X'), pixelsA: pixels('A'),
      split: [...document.querySelectorAll('#ind-split [role="columnheader"]')].map((h) => h.textContent), splitSays: document.querySelector('#ind-split-says').textContent,
    };
  });
  const before = await numbers();
  await page.click('#ind-example');
  await page.waitForFunction(() => __induction.last.settings.ex === 1);
  await redraw(page);
  const after = await numbers();
  const seq = await page.evaluate(() => __induction.last.view.tokens);
  assert.notDeepEqual(after.tokens, before.tokens, 'another sequence');
  assert.deepEqual(after.tokens, seq, 'the explorer shows the new sequence');
  assert.deepEqual(after.chips, seq, 'its chips are renamed');
  assert.deepEqual(after.split, seq.map((t, j) => `${t} ${j + 1}`), 'the split’s columns are the new tokens');
  assert.notDeepEqual(after.X, before.X, 'new numbers in X');
  assert.notDeepEqual(after.A, before.A, 'and in A');
  assert.notEqual(after.pixelsX, before.pixelsX, 'X’s canvas was redrawn');
  assert.notEqual(after.pixelsA, before.pixelsA, 'A’s canvas was redrawn');
  assert.notEqual(after.splitSays, before.splitSays);
  assert.deepEqual(await marked(), Array.from({ length: count }, (_, k) => k), 'every marked node is still there, in order, and no new one');
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('2 heads a layer (heads=2), seed 1 grows two induction heads: the circuit button ablates both together, the loss jumps back up, and restores them', async () => {
  const { page, context } = await openInduction('?mode=induction&seed=1&heads=2&steps=400');
  assert.equal(await page.locator('#ind-heads').inputValue(), '2');
  const e = await page.evaluate(() => __induction.last.evals.at(-1));
  const heads = e.induction.map((v, h) => (h >= 2 && v >= 0.5 ? h : -1)).filter((h) => h >= 0);
  assert.deepEqual(heads, [2, 3], `induction scores ${e.induction}`);
  const button = page.locator('#ind-ablate-circuit');
  assert.equal(await button.textContent(), 'Ablate both induction heads, 2.1 and 2.2');
  assert.equal(await button.getAttribute('aria-pressed'), 'false');
  await button.click();
  await page.waitForFunction(() => __induction.last.view.without);
  await redraw(page);
  const without = await page.evaluate(() => __induction.last.view.without.lossRepeat);
  assert.ok(without - e.lossRepeat > 1, `+${without - e.lossRepeat}`);
  assert.match(await page.locator('#ind-ablation').textContent(), /The loss jumps back up because heads 2\.1 and 2\.2 are the induction heads: without them the circuit is broken\.$/);
  assert.equal(await button.getAttribute('aria-pressed'), 'true');
  assert.equal(await button.textContent(), 'Restore both induction heads, 2.1 and 2.2');
  assert.match(page.url(), /ablate=2\.1,2\.2/);
  await button.click();
  await page.waitForFunction(() => !__induction.last.view.without);
  await redraw(page);
  assert.match(await page.locator('#ind-ablation').textContent(), /^Ablate a head to measure what it does/);
  assert.equal(await button.getAttribute('aria-pressed'), 'false');
  await context.close();
});

test('ablating the previous-token head raises the repeated part’s loss and the page says why; restoring it restores it', async () => {
  const { page, context } = await openInduction('?mode=induction&seed=2&steps=400');
  const e = await page.evaluate(() => __induction.last.evals.at(-1));
  const prev = 0; // the one head of layer 1
  await page.locator(`.ind-head[data-model="model"][data-head="${prev}"] .ind-ablate`).click();
  await page.waitForFunction(() => __induction.last.view.without);
  await redraw(page);
  const without = await page.evaluate(() => __induction.last.view.without.lossRepeat);
  assert.ok(without - e.lossRepeat > 1, `+${without - e.lossRepeat}`);
  assert.match(await page.locator('#ind-ablation').textContent(), new RegExp(`^Without head 1\\.${prev + 1}, the repeated part costs .* The loss jumps back up because head 1\\.${prev + 1} is the previous-token head the induction head reads its keys from: without it the circuit is broken\\.$`));
  assert.equal(await page.locator(`.ind-head[data-model="model"][data-head="${prev}"] .ind-ablate`).getAttribute('aria-pressed'), 'true');
  assert.match(page.url(), new RegExp(`ablate=1\\.${prev + 1}`));
  await page.locator(`.ind-head[data-model="model"][data-head="${prev}"] .ind-ablate`).click();
  await page.waitForFunction(() => !__induction.last.view.without);
  await redraw(page);
  assert.match(await page.locator('#ind-ablation').textContent(), /^Ablate a head to measure what it does/);
  await context.close();
});

test('mode="induction" on the element works under the strict CSP, training in a worker, with no violation', async () => {
  const strict = await startServer({ root: ROOT, port: 0, headers: { 'content-security-policy': CSP } });
  const browser = await launch();
  try {
    const page = pageWriter('embed-induction');
    const url = strict.url + page('induction', '<attention-explorer id="ind" mode="induction" params="seed=1&amp;heads=2&amp;steps=60&amp;head=2.2"></attention-explorer>');
    const { page: p, log, context } = await openEmbed(browser, url, { height: 1400 });
    const panel = () => p.evaluate(() => document.querySelector('#ind').shadowRoot.querySelector('#ind-status').textContent);
    await p.waitForFunction(() => /^Step 60/.test(document.querySelector('#ind').shadowRoot.querySelector('#ind-status').textContent));
    assert.match(await panel(), /^Step 60 · batch loss/);
    const where = await p.evaluate(() => document.querySelector('#ind').shadowRoot.querySelector('#ind-where').textContent);
    assert.match(where, /training in a Web Worker/);
    assert.equal(await p.evaluate(() => document.querySelector('#ind').shadowRoot.querySelectorAll('.ind-head').length), 6);
    assert.equal(await p.evaluate(() => document.querySelector('#ind').shadowRoot.querySelector('#ind-link').hidden), true, 'no link button: the state comes out as an event');
    // one step from the element's own button; its state comes out as explorer-state
    await p.evaluate(() => document.querySelector('#ind').shadowRoot.querySelector('#ind-step').click());
    await p.waitForFunction(() => /^Step 61/.test(document.querySelector('#ind').shadowRoot.querySelector('#ind-status').textContent));
    await p.waitForFunction(() => window.__states.some(([id, mode, params]) => id === 'ind' && mode === 'induction' && /heads=2&steps=61&head=2\.2/.test(params)));
    await p.locator('#ind').screenshot({ path: ROOT + 'tests/out/screenshots/embed-mode-induction.png' });
    await clean(p, log);
    await context.close();
  } finally {
    await browser.close();
    await strict.close();
  }
});

test('where no worker may run (a policy with worker-src none), the page trains on its own thread in short slices, to the same weights', async () => {
  const server = await startServer({ root: ROOT + 'web', port: 0, headers: { 'content-security-policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'none'" } });
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url + '?mode=induction&seed=1&steps=40');
    await page.waitForFunction(() => globalThis.__induction && globalThis.__induction.last && __induction.last.step === 40, null, { timeout: 120000 });
    assert.equal(await page.evaluate(() => __induction.runner), 'page');
    await page.evaluate(() => __induction.flush());
    assert.match(await page.locator('#ind-where').textContent(), /training in this page \(no worker here\)/);
    const node = await nodeRun(40);
    assert.equal(await page.evaluate(() => __induction.last.weightsHash), node.weightsHash);
    // Train runs in slices that yield: a click is answered while it trains
    await page.evaluate(() => __induction.play());
    await page.click('#ind-example');
    await page.waitForFunction(() => __induction.last.settings.ex === 1);
    await page.evaluate(() => __induction.pause());
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
});

test('mode="induction" from the dist file (a classic script, no worker file) loads its parts and trains on the page’s thread under the strict CSP', async () => {
  const strict = await startServer({ root: ROOT, port: 0, headers: { 'content-security-policy': CSP } });
  const browser = await launch();
  try {
    const page = pageWriter('embed-induction');
    const url = strict.url + page('induction-dist', '<attention-explorer id="ind" mode="induction" params="seed=1&amp;steps=30"></attention-explorer>', { script: '/dist/attention-explorer.js', classic: true });
    const { page: p, log, context } = await openEmbed(browser, url, { height: 1400 });
    assert.deepEqual(log.requests.filter((u) => u.includes('/dist/')).map((u) => u.replace(/^.*\/dist\//, '')).sort(),
      ['attention-explorer.full-simd.js', 'attention-explorer.induction.js', 'attention-explorer.js', 'attention-explorer.trainers.js']);
    await p.waitForFunction(() => /^Step 30/.test(document.querySelector('#ind').shadowRoot.querySelector('#ind-status').textContent));
    assert.match(await p.evaluate(() => document.querySelector('#ind').shadowRoot.querySelector('#ind-where').textContent), /training in this page \(no worker here\)/);
    await p.evaluate(() => document.querySelector('#ind').shadowRoot.querySelector('#ind-step').click());
    await p.waitForFunction(() => /^Step 31/.test(document.querySelector('#ind').shadowRoot.querySelector('#ind-status').textContent));
    await clean(p, log);
    await context.close();
  } finally {
    await browser.close();
    await strict.close();
  }
});
