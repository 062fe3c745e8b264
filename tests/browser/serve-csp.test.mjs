// `make run` serves every page under the strict CSP of docs/embedding.md (tools/serve.mjs): the
// explorer, the labs and the training panel must work under it, with no violation at all.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './helpers.mjs';
import { CSP } from '../../tools/serve.mjs';
import { LAB_MODES } from '../../web/labs/index.js';

let env;
before(async () => { env = await setup(); }); // the server of `make run`, with its default headers
after(() => env.close());

const PAGES = [
  ['', '#explorer [data-matrix="A"]'],
  ['index.html?preset=cat&step=softmax&follow=4', '#explorer [data-matrix="A"]'],
  ['index.html?mode=train&task=find-the-noun&steps=20', '#train-a rect'],
  ...LAB_MODES.map((m) => [`labs.html?mode=${m}`, `[data-lab="${m}"]`]),
];

for (const [query, drawn] of PAGES) {
  test(`/${query} works under the server's CSP with no violation`, async () => {
    const context = await env.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.addInitScript(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
    });
    const res = await page.goto(env.url + query);
    assert.equal(res.headers()['content-security-policy'], CSP);
    assert.equal(res.headers()['x-content-type-options'], 'nosniff');
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true' || document.querySelector('#explorer [data-matrix]') || document.querySelector('.error'));
    await page.waitForSelector(drawn);
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
    // Interact a little: hover a cell, press a button, so lazily made styles run too.
    const cell = page.locator('[data-matrix="A"][data-row]').first();
    if (await cell.count()) await cell.hover();
    assert.deepEqual(await page.evaluate(() => window.__violations), [], 'no CSP violation');
    assert.deepEqual(errors, [], 'no console error');
    assert.equal(await page.locator('.error:not([hidden])').count(), 0, 'no error shown');
    await context.close();
  });
}
