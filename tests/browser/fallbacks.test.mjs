// Unknown names in a link fall back with a visible note, never silently and never through the
// prototype (issue 11, point 6): the page's ?mode, the labs page's ?mode and a lab's parameters,
// ?mode=train's task and opt, and the element's lab params. Served by make run's server (strict CSP).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, open, ROOT } from './helpers.mjs';
import { CATALOG } from '../../web/labs/catalog.js';
import { list } from '../../web/blocks/words.js';
import { startServer } from '../../tools/serve.mjs';
import { pageWriter, openEmbed, clean } from './embed-helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(() => env.close());

const alert = (page) => page.locator('p.error[role="alert"]:not([hidden]), .error:not([hidden])').allTextContents();

test('?mode=unknown on the page says there is no such mode and shows the explorer', async () => {
  const { page, log, context } = await open(env, '?mode=unknown');
  assert.deepEqual(await alert(page), ['There is no mode “unknown”: use mode=train to watch a head learn, or open a lab from the Labs page (mode=sqrt-dk-lab and others). Showing the explorer.']);
  assert.ok(await page.locator('#explorer [data-matrix="A"][data-row]').count() > 0);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('labs.html?mode=unknown says there is no such lab and shows the first; dk=1e9&n=1e9 says what the lab shows instead', async () => {
  let { page, log, context } = await open(env, 'labs.html?mode=unknown');
  assert.deepEqual(await alert(page), [`There is no lab “unknown”; the labs are ${list(CATALOG.map((l) => l.mode))}. Showing “${CATALOG[0].title}”.`]);
  assert.equal(await page.locator(`[data-lab="${CATALOG[0].mode}"]`).count(), 1);
  assert.deepEqual(log.errors, []);
  await context.close();
  ({ page, log, context } = await open(env, 'labs.html?mode=sqrt-dk-lab&dk=1e9&n=1e9'));
  assert.deepEqual(await alert(page), ['dk=1e9 is not a value this lab can use; it shows dk=64. n=1e9 is not a value this lab can use; it shows n=32.']);
  assert.equal(await page.locator('[data-control="dk"]').first().inputValue(), '64');
  assert.deepEqual(log.errors, []);
  await context.close();
  ({ page, log, context } = await open(env, 'labs.html?mode=predict-lab&preset=__proto__'));
  assert.deepEqual(await alert(page), ['preset=__proto__ is not a value this lab can use; it shows preset=cat.']);
  await context.close();
});

for (const query of ['task=__proto__', 'task=constructor', 'task=toString', 'opt=__proto__', 'opt=toString']) {
  test(`?mode=train&${query} falls back with a note and trains`, async () => {
    const { page, log, context } = await open(env, `?mode=train&${query}`);
    await page.waitForSelector('#train-a rect');
    const [key, name] = query.split('=');
    const note = key === 'task' ? `There is no task “${name}”; the tasks are find-the-noun and previous-token. Showing “find-the-noun”.` : `opt=${name} is not an optimizer (adam or sgd); using adam.`;
    assert.equal(await page.locator('#train-error').textContent(), note);
    await page.click('#train-step');
    await page.waitForFunction(() => /^Step 1\b/.test(document.getElementById('train-steps').textContent));
    assert.deepEqual(log.errors, []);
    await context.close();
  });
}

test('the element: lab params it cannot use get the same note; mode="train" with task=__proto__ trains', async () => {
  const server = await startServer({ root: ROOT, port: 0 });
  try {
    const url = server.url + pageWriter('fallbacks')('element', [
      '<attention-explorer id="lab" mode="sqrt-dk-lab" params="dk=1e9&n=1e9"></attention-explorer>',
      '<attention-explorer id="train" mode="train" params="task=__proto__&opt=toString"></attention-explorer>',
    ].join('\n'));
    const { page: p, log, context } = await openEmbed(env.browser, url, { count: 2 });
    assert.equal(await p.locator('#lab p.lab-notes').textContent(), 'dk=1e9 is not a value this lab can use; it shows dk=64. n=1e9 is not a value this lab can use; it shows n=32.');
    assert.equal(await p.evaluate(() => document.getElementById('lab').params), 'dk=64&n=32&seed=1');
    assert.equal(await p.locator('#train #train-error').textContent(), 'There is no task “__proto__”; the tasks are find-the-noun and previous-token. Showing “find-the-noun”. opt=toString is not an optimizer (adam or sgd); using adam.');
    await p.locator('#train #train-step').click();
    await p.waitForFunction(() => /^Step 1\b/.test(document.getElementById('train').shadowRoot.getElementById('train-steps').textContent));
    assert.deepEqual(await p.evaluate(() => Promise.all(['lab', 'train'].map((id) => document.getElementById(id).ready.then(() => 'resolved')))), ['resolved', 'resolved']);
    await clean(p, log);
    await context.close();
  } finally {
    await server.close();
  }
});

test('the element works without constructable stylesheets: its CSS goes in <style> elements, the explorer\'s before a mode\'s', async () => {
  const { EXPLORER_CSS } = await import('../../web/gen/explorer-css.js');
  const { LABS_CSS } = await import('../../web/gen/labs-css.js');
  // Without the CSP: such an engine needs style-src 'unsafe-inline' (web/element/attention-explorer.js).
  const server = await startServer({ root: ROOT + 'web', port: 0, headers: { 'content-security-policy': null } });
  const context = await env.browser.newContext();
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(() => {
      delete ShadowRoot.prototype.adoptedStyleSheets;
      delete Document.prototype.adoptedStyleSheets;
    });
    const body = '<!doctype html><script type="module" src="element/attention-explorer.js"></script>' +
      '<attention-explorer id="a" preset="cat"></attention-explorer><attention-explorer id="b" mode="cross-lab"></attention-explorer>';
    await page.route(server.url + 'no-sheets.html', (route) => route.fulfill({ contentType: 'text/html', body }));
    await page.goto(server.url + 'no-sheets.html');
    await page.waitForFunction(() => ['a', 'b'].every((id) => document.getElementById(id).dataset.ready === 'true'));
    const styles = await page.evaluate(() => ['a', 'b'].map((id) => {
      const root = document.getElementById(id).shadowRoot;
      return { sheets: 'adoptedStyleSheets' in root, css: [...root.querySelectorAll('style')].map((s) => s.textContent) };
    }));
    assert.deepEqual(styles, [{ sheets: false, css: [EXPLORER_CSS] }, { sheets: false, css: [EXPLORER_CSS, LABS_CSS] }]);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await server.close();
  }
});
