// The page's modes: a link with ?mode=<lab> on the explorer page opens that lab with its
// parameters, and the page names where the learner is.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, open } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env.close(); });

test('index.html?mode=sqrt-dk-lab&dk=16 opens the √dk lab at dk = 16 on the labs page', async () => {
  const { page, context, log } = await open(env, '?mode=sqrt-dk-lab&dk=16&n=32&seed=2');
  assert.match(page.url(), /labs\.html\?mode=sqrt-dk-lab&dk=16&n=32&seed=2/);
  assert.equal(await page.inputValue('[data-control="dk"]'), '16');
  const raw = Number((await page.textContent('[data-side="raw"] [data-stat="measured std"]')).replace('\u2212', '-'));
  assert.ok(Math.abs(raw - 4) < 0.6, `raw std at dk = 16: ${raw}`);
  assert.deepEqual(log.errors, []);
  assert.deepEqual(log.foreign, []);
  await context.close();
});

test('the explorer page links to training and the labs and marks the current mode', async () => {
  const { page, context } = await open(env, '?preset=cat');
  const links = await page.$$eval('.page-modes a', (as) => as.map((a) => [a.textContent.trim(), a.getAttribute('href'), a.getAttribute('aria-current')]));
  assert.deepEqual(links, [
    ['Explore a head', './', 'page'],
    ['Watch a head learn', '?mode=train', null],
    ['Watch an induction head form', '?mode=induction', null],
    ['Labs: test the lesson’s claims', 'labs.html', null],
  ]);
  await context.close();
});

test('each page downloads one Wasm build: the one its engine runs (SIMD in Chromium), of the smallest core that does what the page does', async () => {
  for (const [path, ready, want] of [
    ['?preset=cat', '[data-matrix="A"]', '/gen/attention-wasm-forward-simd.js'],
    ['?mode=train', '[data-matrix="Wq"]', '/gen/attention-wasm-trainer-simd.js'],
    ['labs.html?mode=fused-lab', '#lab-root > *', '/gen/attention-wasm-forward-simd.js'],
  ]) {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const wasm = [];
    page.on('request', (r) => /attention-wasm-/.test(r.url()) && wasm.push(new URL(r.url()).pathname));
    await page.goto(env.url + path, { waitUntil: 'networkidle' });
    await page.waitForSelector('html[data-ready="true"]');
    await page.waitForSelector(ready);
    await page.waitForLoadState('networkidle');
    assert.deepEqual(wasm, [want], path);
    await context.close();
  }
});

test('at 320 px, the width WCAG’s reflow asks for, no page scrolls sideways: every preset, training, induction, every lab', async () => {
  const { PRESETS } = await import('../../web/blocks/presets.js');
  const { CATALOG } = await import('../../web/labs/catalog.js');
  const paths = [...Object.keys(PRESETS).map((p) => `?preset=${p}`), '?mode=train', '?mode=induction', ...CATALOG.map((l) => `labs.html?mode=${l.mode}`)];
  const wide = [];
  for (const path of paths) {
    const { page, context, log } = await open(env, path, { width: 320, height: 800 });
    // what sticks out of the page: anything past its right edge that no scrolling box holds
    const out = await page.evaluate(() => {
      const W = document.documentElement.clientWidth, past = [];
      for (const e of document.querySelectorAll('body *')) {
        const r = e.getBoundingClientRect();
        if (!r.width || r.right <= W + 0.5) continue;
        let a = e.parentElement;
        while (a && getComputedStyle(a).overflowX === 'visible') a = a.parentElement;
        if (!a || a === document.documentElement || a === document.body) past.push(`${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} to ${Math.round(r.right)} px`);
      }
      return { scroll: document.documentElement.scrollWidth, past: past.slice(0, 3) };
    });
    if (out.scroll > 320 || out.past.length) wide.push(`${path}: ${out.scroll} px wide (${out.past.join(', ')})`);
    assert.deepEqual(log.errors, [], path);
    await context.close();
  }
  assert.deepEqual(wide, []);
});

test('the labs page downloads only the lab it shows', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const labs = [];
  page.on('request', (r) => /\/labs\/[a-z]+(-view)?\.js$/.test(r.url()) && labs.push(new URL(r.url()).pathname.replace('/labs/', '')));
  await page.goto(env.url + 'labs.html?mode=cross-lab', { waitUntil: 'networkidle' });
  await page.waitForSelector('html[data-ready="true"]');
  await page.waitForSelector('#lab-root > *');
  await page.waitForLoadState('networkidle');
  // the page's own modules, the lab's two, and the labs' shared helpers it imports
  assert.deepEqual(labs.filter((f) => !['labs-page.js', 'catalog.js', 'mount.js', 'ui.js', 'random.js'].includes(f)).sort(), ['cross-view.js', 'cross.js']);
  await context.close();
});

// Page weight (issue 24's decision): a learner downloads the production build (site/, make run),
// minified and compressed, whose explorer's first load has its budget there
// (tests/browser/site.test.mjs), and its first numbers their times (make bench). The readable
// modules of web/ (make dev) have no byte budget, so their comments stay. This file held their
// budgets from issue 12 to stop 24 (explorer 128 KB, training 166, labs 70, gzipped per response).
