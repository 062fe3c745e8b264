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

test('the page downloads only the Wasm build its engine runs (SIMD in Chromium)', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const wasm = [];
  page.on('request', (r) => /attention-wasm-/.test(r.url()) && wasm.push(new URL(r.url()).pathname));
  await page.goto(env.url + '?preset=cat');
  await page.waitForSelector('html[data-ready="true"]');
  await page.waitForSelector('[data-matrix="A"]');
  assert.deepEqual(wasm, ['/gen/attention-wasm-simd.js']);
  await context.close();
});
