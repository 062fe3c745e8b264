// A learner pastes what PyTorch printed in the lesson's lab into the explorer's config box
// (web/blocks/tensor-text.js through web/blocks/config.js): the page shows the lesson's numbers. The printouts
// are the real ones in tests/tensor-text/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setup, open, settle, cellTexts } from './helpers.mjs';
import { fmt } from '../../web/blocks/format.js';

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

test('pasted from the clipboard (Ctrl+V), the X and W form with requires_grad and a float64 dtype gives PyTorch’s own A and O, causal as printed', async () => {
  const { page, context, log } = await open(env, '?preset=cat');
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
  const text = printout('projection-requires-grad');
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.click('details.config summary');
  await page.locator('#config-text').fill('');
  await page.locator('#config-text').press('Control+v');
  assert.equal(await page.inputValue('#config-text'), text, 'the clipboard reached the box');
  await page.click('#apply-config');
  await settle(page);
  assert.equal(await page.locator('#error').isVisible(), false);
  const torch = JSON.parse(readFileSync(new URL('../tensor-text/expected.json', import.meta.url), 'utf8'))['projection-requires-grad'];
  const three = (m) => m.map((r) => r.map(fmt)); // PyTorch's float64 numbers, as the page writes a number
  assert.deepEqual(await cellTexts(page, 'A'), three(torch.A));
  assert.deepEqual(await cellTexts(page, 'O'), three(torch.O));
  assert.equal(await page.locator('#causal').isChecked(), true, 'is_causal=True');
  assert.equal(await page.locator('[data-panel="X"]').count(), 1, 'X and the weights, not the direct form');
  assert.deepEqual(log.errors, []);
  await context.close();
});
