// Browser tests of the labs (web/labs.html), headless Debian Chromium via playwright-core.
// Deterministic: seeded inputs, no timing asserts; every wait is for a redraw.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, open, shot } from './helpers.mjs';
import { axeViolations } from './axe.mjs';
import { LAB_MODES } from '../../web/labs/index.js';

let env;
before(async () => { env = await setup(); });
after(() => env.close());

const text = (page, sel) => page.locator(sel).first().textContent();
const urlParams = (page) => new URL(page.url()).searchParams;
const MODES = LAB_MODES; // every lab of web/labs/catalog.js

for (const mode of MODES) {
  test(`${mode} renders with no errors, no foreign request and nothing axe-core finds, light, dark and at 360 px`, async () => {
    for (const [opts, name] of [[{}, mode], [{ colorScheme: 'dark' }, mode + '-dark'], [{ width: 360, height: 780 }, mode + '-360']]) {
      const { page, log, context } = await open(env, `labs.html?mode=${mode}`, opts);
      assert.equal(await page.locator(`[data-lab="${mode}"]`).count(), 1);
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.foreign, []);
      assert.deepEqual(await axeViolations(page), [], `axe-core on ${name}`);
      if (opts.width === 360) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow} px at 360 px`);
      }
      await shot(page, 'lab-' + name, { fullPage: true });
      await context.close();
    }
  });
}

test('sqrt-dk lab: dk = 64 shows a raw std near 8 and a scaled one near 1; dk and re-roll change the numbers and the URL', async () => {
  const { page, context } = await open(env, 'labs.html?mode=sqrt-dk-lab&dk=64&n=64&seed=3');
  const std = async (side) => Number((await text(page, `[data-side="${side}"] [data-stat="measured std"]`)).replace('\u2212', '-'));
  const raw = await std('raw'), scaled = await std('scaled');
  assert.ok(Math.abs(raw - 8) < 0.8, `raw std ${raw}`);
  assert.ok(Math.abs(scaled - 1) < 0.1, `scaled std ${scaled}`);
  await page.fill('[data-control="dk"]', '256');
  await page.press('[data-control="dk"]', 'Enter');
  await page.locator('[data-control="dk"]').blur();
  const raw256 = await std('raw');
  assert.ok(Math.abs(raw256 - 16) < 1.6, `raw std at dk = 256: ${raw256}`);
  assert.equal(urlParams(page).get('dk'), '256');
  const before = await text(page, '[data-side="raw"] [data-stat="measured std"]');
  await page.click('[data-control="reroll"]');
  assert.equal(urlParams(page).get('seed'), '4');
  assert.notEqual(await text(page, '[data-side="raw"] [data-stat="measured std"]'), before);
  // the URL reopens the same numbers
  const again = await open(env, 'labs.html' + new URL(page.url()).search);
  assert.equal(await text(again.page, '[data-side="raw"] [data-stat="measured std"]'), await text(page, '[data-side="raw"] [data-stat="measured std"]'));
  await again.context.close();
  await context.close();
});

test('stability lab: at 1000 the naive column shows NaN and Infinity, the stable one does not; the selector and own scores change it', async () => {
  const { page, context } = await open(env, 'labs.html?mode=stability-lab&top=1000');
  const table = await page.locator('.lab-table').first().textContent();
  assert.match(table, /NaN/);
  assert.match(table, /∞/);
  assert.match(await text(page, '[data-role="verdict"]'), /NaN/);
  await page.selectOption('[data-control="top"]', '10');
  assert.equal(await text(page, '[data-role="verdict"]'), 'Both ways agree.');
  assert.equal(urlParams(page).get('top'), '10');
  await page.fill('[data-control="scores"]', '90, 1');
  await page.click('[data-control="apply"]');
  assert.match(await text(page, '[data-role="verdict"]'), /1 NaN weight/);
  assert.equal(urlParams(page).get('scores'), '90,1');
  await page.fill('[data-control="scores"]', '90, x');
  await page.click('[data-control="apply"]');
  assert.match(await text(page, '[data-role="scores-error"]'), /not a number/);
  await context.close();
});

test('misconceptions lab: dim=0 columns sum to 1 and rows do not; the value switch changes the output', async () => {
  const { page, context } = await open(env, 'labs.html?mode=misconceptions-lab&preset=cat&values=lesson');
  const nums = (t) => t.replace(/\u2212/g, '-').trim().split(/\s+/).filter(Boolean).map(Number);
  const cols = nums((await text(page, '[data-role="wrong-col-sums"]')).replace('column sums', ''));
  assert.ok(cols.length === 5 && cols.every((c) => Math.abs(c - 1) < 0.002), `column sums ${cols}`);
  const rows = nums((await text(page, '[data-role="wrong-row-sums"]')).replace('row sums', ''));
  assert.ok(rows.some((r) => Math.abs(r - 1) > 0.1), `row sums ${rows}`);
  const o = await page.locator('[data-matrix="O-values"][data-row="2"][data-col="0"]').textContent();
  await page.selectOption('[data-control="values"]', 'silent');
  assert.notEqual(await page.locator('[data-matrix="O-values"][data-row="2"][data-col="0"]').textContent(), o);
  assert.equal(urlParams(page).get('values'), 'silent');
  await context.close();
});

test('predict lab: a guess for a hidden weight is scored and explained; the lesson questions take answers', async () => {
  const { page, context } = await open(env, 'labs.html?mode=predict-lab&preset=cat&hide=A&target=cell&row=4&col=1');
  assert.equal(await page.locator('[data-matrix="hidden"][data-row="4"][data-col="1"]').textContent(), '?');
  await page.fill('[data-control="guess"]', '0.5');
  await page.click('[data-control="reveal"]');
  assert.match(await text(page, '[data-role="points"]'), /^9\d \/ 100$/);
  assert.equal(await page.locator('[data-matrix="hidden"][data-row="4"][data-col="1"]').textContent(), '0.528');
  assert.match(await text(page, '[data-role="result"]'), /0\.528/);
  // what was read is shown, and the rule next to the box: a comma separates, "." is the decimal point
  assert.equal(await text(page, '[data-role="guess-read"]'), 'Read as 0.5.');
  assert.equal(await text(page, '[data-role="guess-rule"]'), 'Type one number; “.” is the decimal point (a comma would start a second number).');
  await page.fill('[data-control="guess"]', '0,5');
  await page.click('[data-control="reveal"]');
  assert.equal(await text(page, '[data-role="guess-error"]'), 'Type one number: this reads as 2 numbers (0 and 5). “.” is the decimal point: type 0.5, not 0,5.');
  await page.fill('[data-control="guess"]', '0');
  await page.click('[data-control="reveal"]');
  assert.match(await text(page, '[data-role="points"]'), /^\d \/ 100$/);
  // a lesson question
  await page.selectOption('[data-control="exercise"]', 'q2');
  assert.equal(urlParams(page).get('exercise'), 'q2');
  await page.fill('[data-control="field-0"]', '0.47');
  await page.fill('[data-control="field-1"]', '0.47');
  await page.fill('[data-control="field-2"]', '0.06');
  await page.click('[data-control="reveal"]');
  assert.equal(await text(page, '[data-role="points"]'), '100 / 100');
  assert.match(await text(page, '[data-role="lesson-answer"]'), /0\.468, 0\.468, 0\.063/);
  await shot(page, 'lab-predict-q2-revealed', { fullPage: true });
  await context.close();
});

test('multihead lab: heads and grouped-query attention change the panels and the shapes', async () => {
  const { page, context } = await open(env, 'labs.html?mode=multihead-lab&heads=2&seed=1');
  assert.equal(await page.locator('[data-head]').count(), 2);
  assert.match(await text(page, '[data-role="shapes"]'), /\(4, 2\)/);
  await page.selectOption('[data-control="heads"]', '4');
  assert.equal(await page.locator('[data-head]').count(), 4);
  assert.match(await text(page, '[data-role="shapes"]'), /\(5, 1\)/);
  await page.check('[data-control="gqa"]');
  assert.match(await text(page, '[data-role="shapes"]'), /Grouped-query attention: 2 key\/value heads, each shared by a group of 2 query heads/);
  assert.equal(urlParams(page).get('gqa'), '1');
  await context.close();
});

test('cross lab: rows are the translation, columns the source; causal hides a match', async () => {
  const { page, context } = await open(env, 'labs.html?mode=cross-lab&pair=black-cat');
  const cols = await page.locator('[data-figure="A-cross"] .hm-col').allTextContents();
  const rows = await page.locator('[data-figure="A-cross"] .hm-rowlab').allTextContents();
  assert.deepEqual(cols, ['the', 'black', 'cat', 'sleeps']);
  assert.deepEqual(rows, ['le', 'chat', 'noir', 'dort']);
  const before = await page.locator('[data-matrix="A-cross"][data-row="1"][data-col="2"]').textContent();
  await page.check('[data-control="causal"]');
  assert.notEqual(await page.locator('[data-matrix="A-cross"][data-row="1"][data-col="2"]').textContent(), before);
  assert.match(await text(page, '.lab-text'), /“chat” cannot see “cat”/);
  assert.equal(urlParams(page).get('causal'), '1');
  await context.close();
});

test('tiles lab: Next steps through every tile the cat preset’s head computes, to its O; hovering and focusing a number explain it with the core’s values; the URL keeps the step', async () => {
  const { page, log, context } = await open(env, 'labs.html?mode=tiles-lab&head=cat&q=2&k=2');
  const where = () => text(page, '[data-role="where"]');
  assert.match(await where(), /^Tile 1 of the 6 the core computes: queries 1 and 2/);
  assert.equal(await page.locator('.lab-tilecell.skipped').count(), 3, 'the tiles the causal mask hides are shown as skipped');
  const seen = [await where()];
  for (let k = 1; k < 6; k++) {
    await page.click('[data-control="next"]');
    seen.push(await where());
    assert.equal(urlParams(page).get('step'), String(k));
  }
  assert.equal(new Set(seen).size, 6, 'each Next shows another tile');
  assert.match(await text(page, '.lab-text'), /That was the last tile: every row has seen every key it may see/);
  // the last tile (queries 5, keys 5): hover a score, then focus a number of the table, by keyboard
  await page.locator('[data-matrix="tile-z"][data-row="0"][data-col="0"]').hover();
  assert.match(await text(page, '[data-role="explain"]'), /^z\[5\]\[5\] = q5·k5 × scale = .* \(S\[5\]\[5\] = [\d.]+ in the long form\)\.$/);
  await page.locator('.lab-num[data-what="out"]').first().focus();
  assert.match(await text(page, '[data-role="explain"]'), /^out\[5\]\[1\] = rescale × out_old \+ Σ \(p ÷ l\)·v = .*; O\[5\]\[1\] = [\d.]+ in the long form\.$/);
  // a map cell jumps back to that tile
  await page.click('.lab-tilecell[data-step="0"]');
  assert.match(await where(), /^Tile 1 of the 6/);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('at 360 px a table wider than the screen is a keyboard stop that scrolls, with a cue at each cut edge', async () => {
  const { page, context } = await open(env, 'labs.html?mode=stability-lab&top=1000', { width: 360, height: 780 });
  const wrap = page.locator('.lab-scroll-wrap').first();
  const scroller = wrap.locator('.lab-scroll');
  assert.equal(await wrap.getAttribute('data-cut-right'), 'true', 'columns are cut on the right');
  assert.equal(await wrap.getAttribute('data-cut-left'), 'false');
  assert.equal(await scroller.getAttribute('tabindex'), '0');
  assert.equal(await scroller.getAttribute('role'), 'region');
  assert.match(await scroller.getAttribute('aria-label'), /^Scores \[1000, 990, 500, 0\], float32, from the core \(table, scrolls sideways\)$/);
  // The cue is drawn: an arrow over a fade at the cut edge.
  assert.equal(await wrap.evaluate((el) => getComputedStyle(el, '::after').content), '"›"');
  assert.equal(await wrap.evaluate((el) => getComputedStyle(el, '::after').display), 'flex');
  // Reached with Tab from the control before it, and scrolled with the arrow keys.
  await page.focus('[data-control="apply"]');
  let hops = 0;
  while (!(await page.evaluate(() => document.activeElement.classList.contains('lab-scroll'))) && hops++ < 5) await page.keyboard.press('Tab');
  assert.ok(hops <= 5, 'the table is among the next tab stops');
  await shot(page, 'lab-table-scroll-360-focus');
  for (let k = 0; k < 12; k++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.activeElement.scrollLeft > 0);
  await page.waitForFunction(() => document.activeElement.parentElement.dataset.cutLeft === 'true');
  await shot(page, 'lab-table-scroll-360-scrolled');
  // A table that fits is no tab stop.
  const wide = await open(env, 'labs.html?mode=stability-lab&top=1000', { width: 1280 });
  assert.equal(await wide.page.locator('.lab-scroll').first().getAttribute('tabindex'), null);
  assert.equal(await wide.page.locator('.lab-scroll-wrap').first().getAttribute('data-cut-right'), 'false');
  await wide.context.close();
  await context.close();
});

test('keyboard: a number typed in a lab field, then Enter, is kept and the focus stays there; a select changed with the arrows keeps the focus', async () => {
  const { page, context, log } = await open(env, 'labs.html?mode=predict-lab&preset=cat&hide=A&target=cell&row=4&col=1');
  const focused = () => page.evaluate(() => document.activeElement.dataset.control || document.activeElement.tagName);
  await page.focus('[data-control="guess"]');
  await page.keyboard.press('1');
  await page.keyboard.press('Enter');
  assert.match(await text(page, '[data-role="points"]'), /^\d+ \/ 100$/, 'Enter reveals');
  assert.equal(await focused(), 'guess', 'the rebuilt field has the focus again');
  assert.equal(await page.inputValue('[data-control="guess"]'), '1');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('0.5');
  await page.keyboard.press('Enter');
  assert.match(await text(page, '[data-role="result"]'), /You guessed 0\.500;/, 'typing goes on in the same field');
  // a select inside the lab's output, changed from the keyboard (Chromium changes a closed select with ↓)
  await page.focus('[data-control="hide"]');
  await page.keyboard.press('ArrowDown');
  assert.equal(urlParams(page).get('hide'), 'S');
  assert.equal(await focused(), 'hide');
  await page.keyboard.press('ArrowDown');
  assert.equal(urlParams(page).get('hide'), 'O', 'a second arrow reaches the same select');
  // a lesson question's fields: Enter in any of them reveals, and the focus stays in that field
  await page.selectOption('[data-control="exercise"]', 'q2');
  for (const [k, v] of [[0, '0.47'], [1, '0.47'], [2, '0.06']]) await page.fill(`[data-control="field-${k}"]`, v);
  await page.focus('[data-control="field-1"]');
  await page.keyboard.press('Enter');
  assert.equal(await text(page, '[data-role="points"]'), '100 / 100');
  assert.equal(await focused(), 'field-1');
  assert.equal(await page.inputValue('[data-control="field-2"]'), '0.06', 'the answers stay in their fields');
  // the √dk lab's number box: a digit, then Enter
  const dk = await open(env, 'labs.html?mode=sqrt-dk-lab');
  await dk.page.focus('[data-control="dk"]');
  await dk.page.keyboard.press('Control+a');
  await dk.page.keyboard.press('8');
  await dk.page.keyboard.press('Enter');
  assert.equal(new URL(dk.page.url()).searchParams.get('dk'), '8');
  assert.equal(await dk.page.evaluate(() => document.activeElement.dataset.control), 'dk');
  assert.deepEqual([...log.errors, ...dk.log.errors], []);
  await dk.context.close();
  await context.close();
});
