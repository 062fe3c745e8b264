// Keyboard and screen readers on the explorer and the element (issue 25, point 7): the tour
// takes the focus and gives it back, a cell reached with Tab is explained exactly as a hovered
// one and never hidden under the floating explanation, a cell's name is short and in the
// lesson's words, the long explanation is read on demand, a heatmap drawn on a canvas says it
// is operated with keys, and two elements on one page leave axe nothing to report.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, open, settle, launch, ROOT } from './helpers.mjs';
import { axeViolations } from './axe.mjs';
import { CSP, pageWriter, openEmbed, clean } from './embed-helpers.mjs';
import { startServer } from '../../tools/serve.mjs';
import { syntheticConfig } from '../../web/blocks/presets.js';

let env;
before(async () => (env = await setup()));
after(() => env.close());

const cell = (page, m, i, j) => page.locator(`[data-matrix="${m}"][data-row="${i}"][data-col="${j}"]`);
const activeId = (page) => page.evaluate(() => document.activeElement.id || document.activeElement.getAttribute('aria-label') || document.activeElement.tagName);

/** How many Tab presses from the focus to the element with id `id` (at most `max`; null: not reached). */
async function tabsTo(page, id, max = 6) {
  for (let k = 0; k <= max; k++) {
    if ((await activeId(page)) === id) return k;
    await page.keyboard.press('Tab');
  }
  return null;
}

for (const [width, height] of [[1280, 800], [1024, 768], [390, 844]]) {
  test(`the tour at ${width}×${height}: started from its button, Next is at most 2 Tabs away at every stop; Finish and Skip give the focus back to the button`, async () => {
    const { page, context } = await open(env, '?preset=cat', { width, height });
    await page.focus('#tour-start');
    await page.keyboard.press('Enter');
    await settle(page);
    assert.equal(await activeId(page), 'tour', 'the tour’s stop has the focus');
    let stops = 0;
    while (!(await page.locator('#tour').isHidden())) {
      const tabs = await tabsTo(page, 'tour-next');
      assert.ok(tabs != null && tabs <= 2, `stop ${stops + 1}: Next is ${tabs ?? 'more than 6'} Tabs away`);
      await page.keyboard.press('Enter');
      await settle(page);
      stops++;
      if (!(await page.locator('#tour').isHidden())) assert.equal(await activeId(page), 'tour-next', 'Next keeps the focus');
    }
    assert.ok(stops > 1);
    assert.equal(await activeId(page), 'tour-start', 'Finish: the focus is back on the Tour button, not the top of the page');
    // Skip, and Escape on the tour's buttons, do the same
    await page.keyboard.press('Enter');
    await settle(page);
    assert.equal(await tabsTo(page, 'tour-skip'), 2);
    await page.keyboard.press('Enter');
    await settle(page);
    assert.equal(await activeId(page), 'tour-start');
    await page.keyboard.press('Enter');
    await settle(page);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await settle(page);
    assert.ok(await page.locator('#tour').isHidden());
    assert.equal(await activeId(page), 'tour-start');
    await context.close();
  });
}

test('at 1024×768 a cell reached with Tab is explained as if hovered (even with the mouse resting on another) and the floating explanation never covers it', async () => {
  const { page, context } = await open(env, '?preset=cat', { width: 1024, height: 768 });
  await cell(page, 'X', 0, 0).click(); // the mouse stays over X[1][1]
  await settle(page);
  const seen = [];
  for (let k = 0; k < 30; k++) {
    await page.keyboard.press('Tab');
    await settle(page);
    const at = await page.evaluate(() => {
      const a = document.activeElement;
      if (!a.closest('#matrices')) return null;
      const c = a.getBoundingClientRect(), p = document.querySelector('#inspector').getBoundingClientRect();
      const covered = p.left < c.right && c.left < p.right && p.top < c.bottom && c.top < p.bottom;
      return { cell: a.dataset.matrix ? `${a.dataset.matrix}[${+a.dataset.row + 1}][${+a.dataset.col + 1}]` : null, name: a.textContent.trim() || a.id, title: document.querySelector('#explain-title').textContent, covered };
    });
    if (!at) { if (seen.length) break; else continue; }
    seen.push(at);
    assert.ok(!at.covered, `${at.cell || at.name} is under the explanation`);
    if (at.cell) assert.ok(at.title.startsWith(at.cell + ' = '), `Tab onto ${at.cell}: the explanation shows “${at.title}”`);
  }
  assert.ok(seen.some((s) => s.cell && s.cell.startsWith('O')), 'Tab reached O');
  assert.ok(seen.some((s) => s.name.includes('Leak check')), 'Tab reached the leak check');
  // the arrow keys move the explanation too, and it keeps off the cell
  await cell(page, 'O', 0, 0).focus();
  for (const key of ['ArrowDown', 'ArrowRight']) {
    await page.keyboard.press(key);
    await settle(page);
  }
  assert.equal(await page.locator('#explain-title').textContent(), `O[2][2] = ${await cell(page, 'O', 1, 1).textContent()}`);
  await context.close();
});

test('a cell’s accessible name is short and in the lesson’s words (query, key, weight), with no number said twice; the long explanation is one key away and not read at every landing', async () => {
  const { page, context } = await open(env, '?preset=cat');
  const weight = await cell(page, 'A', 4, 1).textContent();
  const byName = page.getByRole('gridcell', { name: `A, query 5 “the”, key 2 “cat”: weight ${weight}`, exact: true });
  assert.equal(await byName.count(), 1);
  assert.equal(await page.getByRole('gridcell', { name: /^Q, token 1 “The”, query dim 1: /, exact: true }).count(), 1, '“query dim 1”, not “column 1 q1”');
  assert.equal(await page.locator('#explanation').getAttribute('aria-live'), null, 'the explanation is not a live region');
  assert.equal(await page.locator('#matrices [aria-live]').count(), 0);
  // e: the explanation has the focus (its text is read); Escape: back to the cell
  await byName.focus();
  await page.keyboard.press('e');
  await settle(page);
  assert.equal(await activeId(page), 'explanation');
  assert.match(await page.locator('#explanation').textContent(), /“the” \(5\) gives to “cat” \(2\)/);
  await page.keyboard.press('Escape');
  assert.equal(await activeId(page), `A, query 5 “the”, key 2 “cat”: weight ${weight}`);
  await context.close();
});

test('a heatmap drawn on a canvas is operated with keys and says so; the cell the cursor lands on is read out, short', async () => {
  const cfg = syntheticConfig(32, 4);
  const { page, context } = await open(env, '#config=' + encodeURIComponent(JSON.stringify(cfg)));
  const canvas = page.locator('canvas[data-matrix-canvas="A"]');
  assert.equal(await canvas.getAttribute('role'), 'application');
  assert.match(await canvas.getAttribute('aria-label'), /Arrow keys move a cursor/);
  await canvas.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await settle(page);
  const said = await page.locator('canvas[data-matrix-canvas="A"] ~ [aria-live="polite"]').textContent();
  assert.match(said, /^A, query 2, key 2: weight [0-9.]+$/);
  assert.equal(await page.locator('#explain-title').textContent(), 'A[2][2] = ' + said.split('weight ')[1]);
  await context.close();
});

test('axe: a page with two <attention-explorer> elements (the same preset, and another), light and dark, 1280 and 390 px: 0 violations, landmarks named apart', async () => {
  const strict = await startServer({ root: ROOT, port: 0, headers: { 'content-security-policy': CSP } });
  const browser = await launch();
  try {
    const url = strict.url + pageWriter('a11y')('two', '<main>\n<h1>A lesson</h1>\n<attention-explorer preset="cat"></attention-explorer>\n<p>Between.</p>\n<attention-explorer preset="cat" step="softmax"></attention-explorer>\n<attention-explorer preset="worked-example"></attention-explorer>\n</main>');
    const found = [];
    for (const colorScheme of ['light', 'dark']) {
      for (const width of [1280, 390]) {
        const { page: p, context, log } = await openEmbed(browser, url, { width, colorScheme, count: 3 });
        const names = () => p.evaluate(() => [...document.querySelectorAll('attention-explorer')].flatMap((e) => [...e.shadowRoot.querySelectorAll('nav[aria-label], section[aria-label], aside[aria-label]')].map((l) => l.getAttribute('aria-label'))));
        for (const v of await axeViolations(p)) found.push(`${width}px ${colorScheme}: ${v}`);
        // every landmark's name is its own on the page
        const first = await names();
        assert.equal(new Set(first).size, first.length, first.join(' | '));
        // and stays its own when the heads are drawn anew (new panel groups), each with another preset
        await p.evaluate(() => document.querySelectorAll('attention-explorer').forEach((e) => e.setAttribute('preset', e.getAttribute('preset') === 'cat' ? 'worked-example' : 'cat')));
        await settle(p);
        await settle(p);
        const again = await names();
        assert.equal(new Set(again).size, again.length, again.join(' | '));
        for (const v of await axeViolations(p)) found.push(`${width}px ${colorScheme}, a new preset: ${v}`);
        await clean(p, log, 'on the page with two elements');
        await context.close();
      }
    }
    assert.deepEqual(found, [], found.join('\n'));
  } finally {
    await browser.close();
    await strict.close();
  }
});
