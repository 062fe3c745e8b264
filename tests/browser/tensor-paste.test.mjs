// A learner pastes what PyTorch printed in the lesson's lab into the explorer's config box
// (web/tensor-text.js through web/config.js): the page shows the lesson's numbers. The printouts
// are the real ones in tests/tensor-text/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setup, open, settle, cellTexts } from './helpers.mjs';

const printout = (name) => readFileSync(new URL(`../tensor-text/${name}.txt`, import.meta.url), 'utf8');

let env;
before(async () => {
  env = await setup();
});
after(() => env.close());

async function paste(page, text) {
  await page.click('details.config summary');
  await page.fill('#config-text', text);
  await page.click('#apply-config');
  await settle(page);
}

test('pasting the lab’s printed Q, K and V shows the lesson’s weights and outputs, causal off as in PyTorch', async () => {
  const { page, context, log } = await open(env, '?preset=cat');
  await paste(page, printout('lesson-named'));
  assert.equal(await page.locator('#error').isVisible(), false);
  assert.deepEqual(await cellTexts(page, 'A'), [
    ['0.401', '0.198', '0.401'],
    ['0.198', '0.401', '0.401'],
    ['0.248', '0.248', '0.503'],
  ]);
  assert.deepEqual(await cellTexts(page, 'O'), [['1.604', '0.797'], ['1.401', '1.203'], ['1.759', '1.000']]);
  assert.equal(await page.locator('#causal').isChecked(), false);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('a printout the explorer cannot use is refused with what was expected, and the head stays', async () => {
  const { page, context } = await open(env, '?preset=cat');
  await paste(page, printout('shortened'));
  assert.match(await page.locator('#error').textContent(), /The config was not applied: Line 1 .*shortened with “\.\.\.”/);
  assert.equal((await cellTexts(page, 'A')).length, 5, 'the cat head is still shown');
  await context.close();
});
