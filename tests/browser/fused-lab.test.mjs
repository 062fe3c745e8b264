// Browser test of the fused-form lab (labs.html?mode=fused-lab), headless Debian Chromium via
// playwright-core. Deterministic: every wait is for the page's own signal (the status line once
// every n is timed), and no time is asserted, only that one was measured and drawn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, open, shot } from './helpers.mjs';
import { axeViolations } from './axe.mjs';
import { WIDTH } from '../../web/labs/fused.js';

const grouped = (x) => x.toLocaleString('en-US');

let env;
before(async () => { env = await setup(); });
after(() => env.close());

const text = (page, sel) => page.locator(sel).first().textContent();
const urlParams = (page) => new URL(page.url()).searchParams;
const timedAll = (page) => page.waitForFunction(() => /fastest of three runs of about 5 ms, in this browser/.test(document.querySelector('[data-role="status"]')?.textContent ?? ''), null, { timeout: 60000 });

test('fused lab: both forms timed and plotted against n on log axes with the n² line; same O; memory n² against n', async () => {
  const { page, log, context } = await open(env, 'labs.html?mode=fused-lab&n=64');
  assert.equal(await page.locator('[data-lab="fused-lab"]').count(), 1);
  assert.match(await text(page, '[data-role="agree"]'), new RegExp(`^Same O(: largest difference 0| to rounding: largest difference \\d\\.\\de-\\d+) over ${grouped(64 * WIDTH)} outputs$`));
  const caption = await text(page, '.lab-table caption');
  assert.match(caption, new RegExp(`n = 64, d = dk = dv = ${WIDTH}, causal`));
  const rows = await page.locator('.lab-table tbody tr').allTextContents();
  assert.match(rows[2], /^of it n × n48 KiB0 bytes$/);
  assert.match(rows[3], /S, M and A \(64 × 64 each\), then O4 × 64 scores of one tile, and m, l and the output so far of 4 rows, at a time; then O/);

  await timedAll(page);
  assert.match((await page.locator('.lab-table tbody tr').allTextContents())[0], /^time per call[\d.]+ (µs|ms|s)[\d.]+ (µs|ms|s)$/);
  for (const series of ['long', 'fused']) {
    const pts = await page.locator(`[data-role="plot"] polyline[data-series="${series}"]`).getAttribute('points');
    assert.equal(pts.trim().split(' ').length, 7, `${series}: one point per n from 8 to 512`);
  }
  assert.equal(await page.locator('[data-role="plot"] polyline[data-series="n2"]').count(), 1);
  assert.equal(await page.locator('[data-role="plot"] line[data-series="current"]').count(), 1);
  const ticks = await page.locator('[data-role="plot"] text.tick').allTextContents();
  for (const t of ['8', '64', '512', '1 ms', 'tokens n (log scale)']) assert.ok(ticks.includes(t), `tick ${t} in ${ticks}`);
  assert.match(await page.locator('[data-role="plot"]').getAttribute('aria-label'), /n 512: long [\d.]+ (µs|ms|s), fused [\d.]+ (µs|ms|s)/);
  assert.match(await text(page, '.lab-text'), /Doubling n from 256 to 512 multiplies the scores by 4 \(65,536 → 262,144\)|only noise explains/);
  assert.deepEqual(await axeViolations(page), []);
  await shot(page, 'lab-fused', { fullPage: true });

  // n = 512 through the number box: the URL, the bytes (n² against n) and the sentences follow
  await page.fill('[data-control="n"]', '512');
  await page.press('[data-control="n"]', 'Enter');
  await page.locator('[data-control="n"]').blur();
  assert.equal(urlParams(page).get('n'), '512');
  assert.match((await page.locator('.lab-table tbody tr').allTextContents())[2], /^of it n × n3\.0 MiB0 bytes$/);
  assert.match(await text(page, '.lab-text'), /512 × 512 = 262,144 scores.*768 KiB|512 × 512 = 262,144 scores/);
  assert.match(await text(page, '.lab-text'), /takes 128 blocks of 4 queries, each against (all 512 keys in one tile|the keys a tile of \d+ at a time \(\d+ tiles\)), and holds one tile’s 4 × \d+ scores/);
  assert.match(await text(page, '[data-role="agree"]'), new RegExp(`largest difference (0|\\d\\.\\de-\\d+) over ${grouped(512 * WIDTH)} outputs`));
  // causal off: the URL says so and the sentence about skipping goes
  await page.uncheck('[data-control="causal"]');
  assert.equal(urlParams(page).get('causal'), '0');
  assert.doesNotMatch(await text(page, '.lab-text'), /causal mask removes/);
  assert.deepEqual(log.errors, []);
  assert.deepEqual(log.foreign, []);
  await context.close();
});

test('fused lab: dark theme and 360 px render without errors or sideways scrolling; the slider is reachable by keyboard', async () => {
  for (const [opts, name] of [[{ colorScheme: 'dark' }, 'lab-fused-dark'], [{ width: 360, height: 780 }, 'lab-fused-360']]) {
    const { page, log, context } = await open(env, 'labs.html?mode=fused-lab&n=32', opts);
    await timedAll(page);
    if (opts.width === 360) {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow} px at 360 px`);
    }
    await page.focus('[data-control="n-range"]');
    await page.keyboard.press('ArrowRight');
    assert.equal(urlParams(page).get('n'), '33');
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(log.errors, []);
    await shot(page, name, { fullPage: true });
    await context.close();
  }
});
