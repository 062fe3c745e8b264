// axe-core (the npm package, injected by tests/browser/axe.mjs) on the explorer: one preset at
// every step, light and dark, 1280 and 360 px wide, and every other preset in full in each theme;
// and on a page with the element, under the strict CSP. Tags wcag2a, wcag2aa, wcag21aa, wcag22aa and best-practice; no rule is off.
// The target is 0 violations.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, open, settle, launch, ROOT } from './helpers.mjs';
import { axeViolations } from './axe.mjs';
import { CSP, pageWriter, openEmbed, clean } from './embed-helpers.mjs';
import { startServer } from '../../tools/serve.mjs';
import { STEPS } from '../../web/blocks/config.js';
import { PRESETS } from '../../web/blocks/presets.js';

let env;
before(async () => (env = await setup()));
after(() => env.close());

/** axe on the open page, after a cell of A is explained too (the explanation and its copies of the inputs). */
async function withExplained(page, where, found) {
  for (const v of await axeViolations(page)) found.push(`${where}: ${v}`);
  await page.locator('[data-matrix="A"][data-row="1"][data-col="0"]').click();
  await settle(page);
  for (const v of await axeViolations(page)) found.push(`${where}, A[2][1] explained: ${v}`);
}

// Every step, both widths and both themes on the page's first preset: what is shown, and how it
// is laid out, is the same for every preset (the renderers are one), so the other presets are
// checked once per theme, each theme at one width. The colours of cell text on every colour of
// both scales are checked in Node (tests/blocks/colors.test.mjs), for every value a preset can show.
const [FIRST, ...OTHERS] = Object.keys(PRESETS);

test(`axe: the explorer with the ${FIRST} preset, light and dark, 1280 and 360 px, at every step and with a cell explained: 0 violations`, async () => {
  const found = [];
  for (const width of [1280, 360]) {
    for (const colorScheme of ['light', 'dark']) {
      const { page, context } = await open(env, `?preset=${FIRST}&follow=1`, { width, height: 800, colorScheme });
      for (const step of STEPS) {
        await page.evaluate((s) => __explorer.setStep(s), step);
        await settle(page);
        for (const v of await axeViolations(page)) found.push(`${width}px ${colorScheme} step ${step}: ${v}`);
      }
      await page.evaluate(() => __explorer.setStep(null));
      await settle(page);
      await withExplained(page, `${width}px ${colorScheme} every step`, found);
      await context.close();
    }
  }
  assert.deepEqual(found, [], found.slice(0, 20).join('\n'));
});

test('axe: every other preset, every step shown and with a cell explained, light at 1280 px and dark at 360 px: 0 violations', async () => {
  const found = [];
  for (const name of OTHERS) {
    for (const [width, colorScheme] of [[1280, 'light'], [360, 'dark']]) {
      const { page, context } = await open(env, `?preset=${name}&follow=1`, { width, height: 800, colorScheme });
      await withExplained(page, `${name} ${width}px ${colorScheme}`, found);
      await context.close();
    }
  }
  assert.deepEqual(found, [], found.slice(0, 20).join('\n'));
});

test('axe: the tour, the leak check and the open weights: 0 violations', async () => {
  const { page, context } = await open(env, '?preset=cat');
  await page.click('#tour-start');
  await settle(page);
  const found = (await axeViolations(page)).map((v) => 'tour: ' + v);
  await page.click('#tour-skip');
  await page.click('#leak-toggle');
  await page.click('#weights-toggle');
  await page.locator('[data-matrix="X"][data-row="4"][data-col="0"]').click();
  await page.fill('#edit-value', '2');
  await settle(page);
  found.push(...(await axeViolations(page)).map((v) => 'leak check and weights: ' + v));
  assert.deepEqual(found, [], found.join('\n'));
  await context.close();
});

test('axe: a page with the <attention-explorer> element, under the strict CSP, light and dark: 0 violations', async () => {
  const strict = await startServer({ root: ROOT, port: 0, headers: { 'content-security-policy': CSP } });
  const browser = await launch();
  try {
    const page = pageWriter('axe');
    const url = strict.url + page('element', '<main>\n<h1>A lesson</h1>\n<attention-explorer preset="cat" follow="4"></attention-explorer>\n</main>');
    const found = [];
    for (const colorScheme of ['light', 'dark']) {
      for (const width of [1280, 360]) {
        const { page: p, context, log } = await openEmbed(browser, url, { width, colorScheme });
        // follow="4" marks its chip pressed from the first render
        assert.equal(await p.locator('attention-explorer #tokens [data-follow="4"]').getAttribute('aria-pressed'), 'true');
        for (const v of await axeViolations(p)) found.push(`${width}px ${colorScheme}: ${v}`);
        await p.locator('attention-explorer [data-step="softmax"]').click();
        await settle(p);
        for (const v of await axeViolations(p)) found.push(`${width}px ${colorScheme} softmax: ${v}`);
        await clean(p, log, 'on the axe page');
        await context.close();
      }
    }
    assert.deepEqual(found, [], found.join('\n'));
  } finally {
    await browser.close();
    await strict.close();
  }
});

test('the element: its theme attribute wins over the reader’s remembered choice; without one, the remembered choice is used', async () => {
  const strict = await startServer({ root: ROOT, port: 0, headers: { 'content-security-policy': CSP } });
  const browser = await launch();
  try {
    const url = strict.url + pageWriter('axe')('themes', '<main>\n<attention-explorer id="light" theme="light" preset="cat"></attention-explorer>\n<attention-explorer id="plain" preset="worked-example"></attention-explorer>\n</main>');
    const context = await browser.newContext({ colorScheme: 'light' });
    await context.addInitScript(() => localStorage.setItem('attention-explorer-theme', 'dark'));
    const p = await context.newPage();
    await p.goto(url);
    await p.waitForFunction(() => [...document.querySelectorAll('attention-explorer')].every((e) => e.dataset.ready));
    assert.deepEqual(await p.evaluate(() => [light.dataset.theme, plain.dataset.theme]), ['light', 'dark']);
    await context.close();
  } finally {
    await browser.close();
    await strict.close();
  }
});
