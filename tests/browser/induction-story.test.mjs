// Browser tests of the induction page's story (issues 25.8 and 26): what the explorer below shows
// before and after a head is opened, the control's heads named apart from the model's, the copy
// side of the induction head shown with its numbers, and the split of an ablated model. The
// worker is driven by step counts, never by a clock.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, open, settle } from './helpers.mjs';
import { PRESETS, DEFAULT_PRESET } from '../../web/blocks/presets.js';
import { splitTable } from '../../web/induction/state.js';
import { explainSplit } from '../../web/induction/words.js';

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
const text = (page, sel) => page.locator(sel).textContent();

test('until a head is opened the explorer is labelled as its own example, not the model; opening head 2.1 relabels it and shows the model’s tokens', async () => {
  const { page, context, log } = await openInduction('?mode=induction&seed=1&steps=300');
  const label = page.locator('#ind-explorer-label');
  assert.ok(await label.isVisible());
  assert.match(await label.textContent(), new RegExp(`its own example, the “${PRESETS[DEFAULT_PRESET].title}” head of the lesson, not the model: click a head above`));
  // the label sits right above the explorer
  const [lab, exp] = await page.evaluate(() => [document.getElementById('ind-explorer-label').getBoundingClientRect().bottom, document.getElementById('explorer').getBoundingClientRect().top]);
  assert.ok(exp - lab < 60, `the label is just above the explorer (${exp - lab} px)`);
  await page.locator('.ind-head[data-model="model"][data-head="1"] .ind-open').click();
  await page.waitForFunction(() => __induction.last.view.head && __induction.last.view.head.index === 1);
  await redraw(page);
  assert.equal(await label.textContent(), 'The explorer below shows head 2.1 of the model at step 300, on sequence 1.');
  const tokens = await page.evaluate(() => __induction.last.view.tokens);
  assert.ok(await page.locator('#explorer').getByText(tokens[1], { exact: true }).first().isVisible(), 'the explorer shows the model’s sequence');
  // the control's head has a name of its own
  assert.deepEqual(await page.locator('.ind-head[data-model="control"] .ind-name').allTextContents(), ['Head C.1']);
  assert.match(await page.locator('.ind-head[data-model="control"] .ind-open').getAttribute('aria-label'), /^Head C\.1 of the one-layer control: /);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the copy side is shown with the real numbers: head 2.1’s output alone raises the next word most, and head 1.1 is described by position', async () => {
  const { page, context, log } = await openInduction('?mode=induction&seed=1&steps=300', { width: 390, height: 844 });
  const copy = await text(page, '#ind-copy');
  const want = await page.evaluate(() => {
    const v = __induction.last.view, r = v.full.copy[1];
    return { hits: r.hits, total: r.total, top: v.full.names[r.at.top], target: v.full.names[r.at.target], logit: r.at.topLogit.toFixed(3) };
  });
  assert.equal(want.top, want.target, 'at step 300 seed 1 copies the next word');
  assert.ok(copy.includes(`it raises “${want.top}” most, by ${want.logit} (the next word;`), copy);
  assert.ok(copy.includes(`at ${want.hits} of the ${want.total} queries`), copy);
  assert.match(copy, /^On this sequence head 1\.1 puts .* on the previous token at tokens 3 to \d+, .* on BOS at .*attention sink/);
  assert.match(copy, /head 2\.1 puts 0\.\d{3} of its attention, on average, on the key right after the nearest earlier copy/);
  // the narration judges head 1.1 where head 2.1 reads, and credits the drop to the circuit, not the early fall
  const says = await text(page, '#ind-says');
  assert.match(says, /Where head 2\.1 reads .* head 1\.1 is a previous-token head/);
  assert.match(says, /Before step \d+ the repeated part fell only as far as the control’s/);
  assert.match(says, /mostly unpredictable .* is 2\.96\)/);
  assert.doesNotMatch(says, /cannot be predicted|started working together/);
  // no sideways scroll on a phone from the new text
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('with head 1.1 ablated, head 2.1’s split gives head 1.1 a share of 0 and the explanation’s shares add up to S as shown', async () => {
  const { page, context } = await openInduction('?mode=induction&seed=1&steps=300&head=2.1&ablate=1.1');
  await page.waitForFunction(() => !document.getElementById('ind-split-box').hidden);
  const got = await page.evaluate(() => {
    const v = __induction.last.view, hv = v.head;
    const plain = (a) => Array.from(a);
    return { tokens: v.tokens, hv: { Q: plain(hv.Q), S: plain(hv.S), split: hv.split.map(plain) }, says: document.getElementById('ind-split-says').textContent };
  });
  const hv = { Q: Float32Array.from(got.hv.Q), S: Float32Array.from(got.hv.S), split: got.hv.split.map((a) => Float32Array.from(a)) };
  const i = got.tokens.length - 1, t = splitTable(hv, got.tokens, i, 1);
  for (let j = 0; j <= i; j++) assert.equal(t.parts[1][j], 0, `key ${j}: the ablated head’s share`);
  const ex = explainSplit({ tokens: got.tokens, i, j: i - 3, p: 2, sources: t.sources, parts: t.parts, total: t.total, scale: t.scale });
  const m = /: (\S+) \(the token embedding and position\) \+ (\S+) \(head 1\.1\) = (\S+?)\.(?:\s|$)/.exec(ex.text);
  assert.ok(m, ex.text);
  assert.equal(m[2], '0.000');
  assert.equal(m[1], m[3], 'the shares add up to S as shown');
  assert.match(got.says, /^Head 2\.1, query/);
  await context.close();
});
