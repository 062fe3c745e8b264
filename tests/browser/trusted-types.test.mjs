// The element on a page that enforces Trusted Types (Content-Security-Policy:
// require-trusted-types-for 'script'), headless Debian Chromium. Such a page refuses plain strings
// at innerHTML, a script's src and new Worker; the element blesses its own strings with its one
// policy, "attention-explorer" (web/blocks/trusted-types.js). Checked from web/ and from dist/: every
// mode starts with no violation and shows the core's numbers, the induction mode trains in its
// worker; on a page whose trusted-types directive leaves the name out, the element says what to
// add and `ready` rejects with that.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, ROOT, settle } from './helpers.mjs';
import { CSP, pageWriter, openEmbed, clean } from './embed-helpers.mjs';
import { startServer } from '../../tools/serve.mjs';
import { loadAttention } from '../../web/core/attention.js';
import { parseConfig, forwardArgs } from '../../web/blocks/config.js';
import { PRESETS } from '../../web/blocks/presets.js';
import { fmt } from '../../web/blocks/format.js';

const ENFORCED = `${CSP}; require-trusted-types-for 'script'`;
let browser, allowed, refused, attn;

before(async () => {
  allowed = await startServer({ root: ROOT, port: 0, headers: { 'content-security-policy': `${ENFORCED}; trusted-types attention-explorer` } });
  refused = await startServer({ root: ROOT, port: 0, headers: { 'content-security-policy': `${ENFORCED}; trusted-types another-library` } });
  browser = await launch();
  attn = await loadAttention();
});
after(async () => {
  await browser.close();
  await Promise.all([allowed.close(), refused.close()]);
});

const page = pageWriter('trusted-types');
const SCRIPTS = { web: { script: '/web/element/attention-explorer.js' }, dist: { script: '/dist/attention-explorer.js', classic: true } };
const A = (p) => p.locator('#a [data-matrix="A"][data-row]').allTextContents();

test('the explorer, from web/ and from dist/, shows the core’s A on a page that enforces Trusted Types, with no violation', async () => {
  const r = attn.forward(forwardArgs(parseConfig(PRESETS.cat.config)));
  const want = Array.from(r.A, (v) => fmt(v));
  for (const [from, opts] of Object.entries(SCRIPTS)) {
    const { page: p, log, context } = await openEmbed(browser, allowed.url + page(`explorer-${from}`, '<attention-explorer id="a" preset="cat"></attention-explorer>', opts));
    assert.deepEqual(await A(p), want, `A from ${from}/`);
    await p.locator('#a [data-matrix="A"][data-row="4"][data-col="1"]').hover();
    await settle(p);
    assert.match(await p.locator('#a #explanation').textContent(), /4\.482 \/ 8\.482 = 0\.528/);
    await clean(p, log, `(explorer from ${from}/)`);
    await context.close();
  }
});

test('the train, induction and lab modes start on such a page: dist/ loads its parts by <script>, the induction mode trains in its Web Worker', async () => {
  for (const [from, opts] of Object.entries(SCRIPTS)) {
    const body = ['<attention-explorer id="t" mode="train"></attention-explorer>', '<attention-explorer id="i" mode="induction" params="seed=1&amp;steps=5"></attention-explorer>', '<attention-explorer id="l" mode="sqrt-dk-lab"></attention-explorer>'].join('\n');
    const { page: p, log, context } = await openEmbed(browser, allowed.url + page(`modes-${from}`, body, opts), { count: 3, height: 1400 });
    await p.click('#t #train-step');
    await settle(p);
    assert.equal(await p.locator('#t #train-steps').textContent(), 'Step 1', `a training step from ${from}/`);
    await p.waitForFunction(() => /^Step 5/.test(document.querySelector('#i').shadowRoot.querySelector('#ind-status').textContent));
    const where = await p.evaluate(() => document.querySelector('#i').shadowRoot.querySelector('#ind-where').textContent);
    // dist/ has no worker file to offer (web/induction/worker-url-inline.js): it trains on the page
    assert.match(where, from === 'web' ? /training in a Web Worker/ : /training in this page/, `where the induction mode trains, from ${from}/`);
    assert.ok(await p.locator('#l input[type="range"]').count() > 0, `the lab's controls, from ${from}/`);
    if (from === 'dist') assert.ok(log.requests.some((u) => u.endsWith('/dist/attention-explorer.labs.js')), 'the labs part came by <script>');
    await clean(p, log, `(modes from ${from}/)`);
    await context.close();
  }
});

test('a page whose trusted-types directive leaves out "attention-explorer": the element says what to add to it, and ready rejects with that', async () => {
  for (const [from, opts] of Object.entries(SCRIPTS)) {
    const body = '<attention-explorer id="a" preset="cat"></attention-explorer>\n<attention-explorer id="t" mode="train"></attention-explorer>';
    const { page: p, context } = await openEmbed(browser, refused.url + page(`refused-${from}`, body, opts), { count: 2 });
    for (const id of ['a', 't']) {
      const shown = await p.locator(`#${id} .error`).textContent();
      assert.match(shown, /this page enforces Trusted Types and its Content-Security-Policy does not allow the policy “attention-explorer”: add attention-explorer to its trusted-types directive/, `#${id} from ${from}/`);
      assert.equal(await p.evaluate((id) => document.getElementById(id).ready.then(() => 'resolved', (e) => e.message), id), shown);
    }
    assert.equal(await p.locator('#a [data-matrix]').count(), 0, 'no half-built explorer');
    await context.close();
  }
});
