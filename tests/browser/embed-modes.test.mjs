// Browser tests of the <attention-explorer> element's modes: the six labs (mode="sqrt-dk-lab" ...)
// and "Watch a head learn" (mode="train"), in the shadow root, under the strict CSP of the embed
// issue, from the ES modules and from the one dist file. Every test checks that no CSP violation,
// console error, dialog or request to another origin happened. Deterministic: every wait is for a
// redraw, an element's data-ready or a click's result, never for a clock.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, ROOT, shot, settle } from './helpers.mjs';
import { CSP, pageWriter, openEmbed, clean } from './embed-helpers.mjs';
import { startServer } from '../../tools/serve.mjs';
import { LAB_MODES } from '../../web/labs/index.js';
import { CATALOG } from '../../web/labs/catalog.js';

// Host CSS that would wreck the labs if it reached them.
const HOSTILE = `* { font-size: 40px !important; color: red !important; text-transform: uppercase; letter-spacing: 3px; }
section, table, figure, h2, .lab, .train, svg { display: none !important; }
button, select, input { background: black !important; }
body { font-family: serif; line-height: 3; }`;
let browser, strict;

before(async () => {
  strict = await startServer({ root: ROOT, port: 0, headers: { 'content-security-policy': CSP } });
  browser = await launch();
});
after(async () => {
  await browser.close();
  await strict.close();
});

const page = pageWriter('embed-modes');
const open = (url, opts) => openEmbed(browser, url, opts);

const text = (p, sel) => p.locator(sel).first().textContent();
const rawStd = (p, host) => text(p, `${host} [data-side="raw"] [data-stat="measured std"]`);

test('every lab renders in its own element under the strict CSP and hostile host CSS, styled by its own sheet, on one core of each kind they need', async () => {
  const body = LAB_MODES.map((m) => `<h2>${m}</h2>\n<attention-explorer id="${m}" mode="${m}"></attention-explorer>`).join('\n');
  const { page: p, log, context } = await open(strict.url + page('labs', body, { css: HOSTILE }), { count: LAB_MODES.length, height: 1200 });
  const cores = new Set(CATALOG.map((lab) => lab.core)); // (the forward core, and a larger one for a lab that needs it)
  assert.equal(await p.evaluate(() => window.__instantiations), cores.size, `one core of each kind the labs need (${[...cores].join(', ')}), shared`);
  for (const m of LAB_MODES) {
    const lab = p.locator(`#${m} section.lab[data-lab="${m}"]`);
    assert.equal(await lab.count(), 1, `${m} is drawn`);
    assert.equal(await lab.isVisible(), true, `${m} is visible through the host's display: none`);
    // the labs' sheet applies in the shadow root (labs.css: .lab-title 1.25rem = 20px) and the host's does not
    const title = await p.locator(`#${m} .lab-title`).evaluate((e) => [getComputedStyle(e).fontSize, getComputedStyle(e).color, getComputedStyle(e).textTransform]);
    assert.deepEqual(title, ['20px', 'rgb(27, 31, 36)', 'none'], `${m}: its title keeps the labs' style`);
    assert.equal(await p.locator(`#${m}`).evaluate((e) => e.shadowRoot.adoptedStyleSheets.length), 2, `${m}: the explorer's and the labs' sheet`);
    assert.equal(await p.evaluate(() => document.querySelectorAll('.lab, [data-matrix]').length), 0, 'nothing of a lab in the light DOM');
    // its state is in the params property, without the mode
    assert.doesNotMatch(await p.locator(`#${m}`).evaluate((e) => e.params), /mode=/);
    await p.locator(`#${m}`).screenshot({ path: ROOT + `tests/out/screenshots/embed-mode-${m}.png` });
  }
  assert.ok(await p.locator('#misconceptions-lab [data-matrix="A-diag"][data-row]').count() > 0, 'the misconceptions lab draws its heatmaps');
  assert.match(await p.locator('#stability-lab .lab-table').first().textContent(), /NaN/, 'the stability lab shows the naive NaN');
  await clean(p, log);
  await context.close();
});

test('a lab control changes the numbers in its shadow root and fires explorer-state; two labs stay independent', async () => {
  const url = strict.url + page('two-labs', '<attention-explorer id="a" mode="sqrt-dk-lab" params="dk=64&amp;n=64&amp;seed=3"></attention-explorer>\n<attention-explorer id="b" mode="sqrt-dk-lab" params="dk=64&amp;n=64&amp;seed=3"></attention-explorer>');
  const { page: p, log, context } = await open(url, { count: 2 });
  const a0 = await rawStd(p, '#a');
  assert.equal(await rawStd(p, '#b'), a0, 'the same params give the same numbers');
  assert.ok(Math.abs(Number(a0) - 8) < 0.8, `raw std at dk = 64 is near 8: ${a0}`);
  assert.equal(await p.locator('#a').evaluate((e) => e.params), 'dk=64&n=64&seed=3');
  await p.evaluate(() => (window.__states.length = 0));

  await p.fill('#a [data-control="dk"]', '256');
  await p.press('#a [data-control="dk"]', 'Enter');
  const a1 = await rawStd(p, '#a');
  assert.ok(Math.abs(Number(a1) - 16) < 1.6, `raw std at dk = 256 is near 16: ${a1}`);
  assert.equal(await rawStd(p, '#b'), a0, 'the other lab did not move');
  assert.equal(await p.locator('#b [data-control="dk"]').inputValue(), '64');
  assert.deepEqual(await p.evaluate(() => window.__states), [['a', 'sqrt-dk-lab', 'dk=256&n=64&seed=3']]);
  assert.equal(await p.locator('#a').evaluate((e) => e.params), 'dk=256&n=64&seed=3', 'the params property is the live state');
  assert.equal(await p.locator('#a').getAttribute('params'), 'dk=64&n=64&seed=3', 'the attribute stays the author’s');

  await p.click('#b [data-control="reroll"]');
  assert.notEqual(await rawStd(p, '#b'), a0, 're-roll changes the other lab');
  assert.equal(await rawStd(p, '#a'), a1);
  assert.deepEqual((await p.evaluate(() => window.__states)).at(-1), ['b', 'sqrt-dk-lab', 'dk=64&n=64&seed=4']);

  // setting params from JS restarts the lab at that state; so does a new mode
  await p.evaluate(() => (document.getElementById('a').params = 'dk=16&n=64&seed=3'));
  await p.waitForFunction(() => document.getElementById('a').dataset.ready);
  assert.equal(await p.locator('#a [data-control="dk"]').inputValue(), '16');
  await p.evaluate(() => (document.getElementById('b').mode = 'stability-lab'));
  await p.waitForFunction(() => document.getElementById('b').dataset.ready);
  assert.equal(await p.locator('#b section.lab[data-lab="stability-lab"]').count(), 1);
  assert.equal(await p.locator('#b section.lab[data-lab="sqrt-dk-lab"]').count(), 0);
  await clean(p, log);
  await context.close();
});

test('theme="dark" colours a lab dark, heatmaps included; changing the attribute recolours it', async () => {
  const url = strict.url + page('lab-themes', '<attention-explorer id="l" mode="misconceptions-lab" theme="light"></attention-explorer>\n<attention-explorer id="d" mode="misconceptions-lab" theme="dark"></attention-explorer>');
  const { page: p, log, context } = await open(url, { count: 2 });
  const look = (id) => p.locator('#' + id).evaluate((e) => {
    const cell = e.shadowRoot.querySelector('[data-matrix="A-diag"][data-row="0"][data-col="1"]');
    return [getComputedStyle(e.shadowRoot.querySelector('.ae')).backgroundColor, getComputedStyle(cell).backgroundColor, e.dataset.theme];
  });
  const light = await look('l'), dark = await look('d');
  assert.equal(dark[0], 'rgb(20, 23, 28)');
  assert.equal(dark[2], 'dark');
  assert.notEqual(light[0], dark[0]);
  assert.notEqual(light[1], dark[1], 'the heatmap cells follow the theme');
  await p.locator('#d').screenshot({ path: ROOT + 'tests/out/screenshots/embed-mode-dark-lab.png' });
  await p.evaluate(() => (document.getElementById('d').theme = 'light'));
  await settle(p);
  assert.deepEqual(await look('d'), light);
  await clean(p, log);
  await context.close();
});

test('mode="train": Single step trains in the shadow root, the loss shown changes, the explorer under it shows the head', async () => {
  const url = strict.url + page('train', '<attention-explorer id="t" mode="train" theme="dark"></attention-explorer>\n<attention-explorer id="u" mode="sqrt-dk-lab"></attention-explorer>', { css: HOSTILE });
  const { page: p, log, context } = await open(url, { count: 2, height: 1400 });
  assert.equal(await p.evaluate(() => window.__instantiations), 1, 'the trainer and the lab share one core');
  assert.equal(await text(p, '#t #train-steps'), 'Step 0');
  assert.equal(await p.locator('#t #train-link').isVisible(), false, 'no "copy link": the element has no address bar');
  assert.equal(await p.locator('#t .train').isVisible(), true);
  assert.equal(await p.locator('#t .train').evaluate((e) => getComputedStyle(e).borderTopStyle), 'solid', 'train.css applies');
  const A0 = await p.locator('#t [data-matrix="A"][data-row]').allTextContents();
  assert.ok(A0.length > 0, 'the explorer shows A');
  await p.click('#t #train-step');
  await settle(p);
  assert.equal(await text(p, '#t #train-steps'), 'Step 1');
  const loss1 = await text(p, '#t #train-loss');
  assert.match(loss1, /^loss \d+\.\d{3}$/);
  for (let k = 0; k < 4; k++) await p.click('#t #train-step');
  await settle(p);
  assert.equal(await text(p, '#t #train-steps'), 'Step 5');
  const loss5 = await text(p, '#t #train-loss');
  assert.notEqual(loss5, loss1, 'the loss shown changes');
  assert.notDeepEqual(await p.locator('#t [data-matrix="A"][data-row]').allTextContents(), A0, 'A changes as the weights learn');
  const params = await p.locator('#t').evaluate((e) => e.params);
  assert.match(params, /(^|&)steps=5(&|$)/);
  assert.deepEqual((await p.evaluate(() => window.__states)).filter((s) => s[0] === 't').at(-1), ['t', 'train', params]);
  assert.equal(await p.locator('#t').evaluate((e) => getComputedStyle(e.shadowRoot.querySelector('.ae')).backgroundColor), 'rgb(20, 23, 28)', 'dark theme');
  assert.equal(await p.locator('#u #train-steps').count(), 0, 'the lab beside it has no training panel');
  await p.locator('#t').screenshot({ path: ROOT + 'tests/out/screenshots/embed-mode-train.png' });

  // its params reopen the same step: a second element replays to the same loss
  await p.evaluate((q) => {
    const e = document.createElement('attention-explorer');
    e.id = 'r';
    e.setAttribute('mode', 'train');
    e.setAttribute('params', q);
    document.body.append(e);
  }, params);
  await p.waitForFunction(() => document.getElementById('r').dataset.ready);
  await settle(p);
  assert.equal(await text(p, '#r #train-steps'), 'Step 5');
  assert.equal(await text(p, '#r #train-loss'), loss5);
  await clean(p, log);
  await context.close();
});

test('the dist file shows a lab from file:// (dist/lab.html): it loads the labs\' part from beside itself, and makes no other request', async () => {
  const { page: p, log, context } = await open('file://' + ROOT + 'dist/lab.html');
  assert.deepEqual(log.requests.map((u) => u.replace('file://' + ROOT, '')), ['dist/lab.html', 'dist/attention-explorer.js', 'dist/attention-explorer.labs.js']);
  assert.equal(await p.locator('attention-explorer section.lab[data-lab="sqrt-dk-lab"]').count(), 1);
  const before = await rawStd(p, 'attention-explorer');
  await p.click('attention-explorer [data-control="reroll"]');
  assert.notEqual(await rawStd(p, 'attention-explorer'), before, 're-roll works in the bundle');
  await clean(p, log);
  await shot(p, 'embed-mode-dist-lab', { fullPage: true });
  await context.close();
});

test('the dist file runs mode="train" under the strict CSP, with the parts it needs: the mode, the trainers and the trainer core', async () => {
  const url = strict.url + page('dist-train', '<attention-explorer id="t" mode="train"></attention-explorer>', { script: '/dist/attention-explorer.js', classic: true });
  const { page: p, log, context } = await open(url, { height: 1400 });
  assert.deepEqual(log.requests.filter((u) => u.includes('/dist/')).map((u) => u.replace(/^.*\/dist\//, '')).sort(),
    ['attention-explorer.js', 'attention-explorer.train.js', 'attention-explorer.trainer-simd.js', 'attention-explorer.trainers.js']);
  await p.click('#t #train-step');
  await settle(p);
  assert.equal(await text(p, '#t #train-steps'), 'Step 1');
  assert.match(await text(p, '#t #train-loss'), /^loss \d+\.\d{3}$/);
  await clean(p, log);
  await context.close();
});

test('360 px wide: a lab and the training panel lay themselves out for the element’s width, with no horizontal scroll of the page', async () => {
  const url = strict.url + page('narrow-modes', '<attention-explorer id="m" mode="multihead-lab"></attention-explorer>\n<attention-explorer id="t" mode="train"></attention-explorer>');
  const { page: p, log, context } = await open(url, { width: 360, height: 760, count: 2 });
  const w = await p.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(w <= 360, `scrollWidth ${w}`);
  // train.css's narrow layout (@media (max-width: 700px) -> @container): one column
  assert.equal(await p.locator('#t .train-grid').evaluate((e) => getComputedStyle(e).gridTemplateColumns.split(' ').length), 1);
  await clean(p, log);
  await p.locator('#m').screenshot({ path: ROOT + 'tests/out/screenshots/embed-mode-360-multihead-lab.png' });
  await p.locator('#t').screenshot({ path: ROOT + 'tests/out/screenshots/embed-mode-360-train.png' });
  await context.close();
});
