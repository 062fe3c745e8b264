// The geometry view (issue 30) in Chromium: q, k and v as arrows whose tips the pointer, a finger
// and the keyboard move; each move is an edit of the head, so the heatmaps show forward() of the
// edited head in the next frame, the link keeps it and "Reset to the preset" undoes it. The
// learner's two demonstrations, by dragging alone: doubling |q| sharpens the weights, and O stays
// inside the hull of the visible values. axe finds nothing, and nothing scrolls sideways at 320 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, open, settle, cellTexts, shown, launch, ROOT } from './helpers.mjs';
import { axeViolations } from './axe.mjs';
import { CSP, pageWriter, openEmbed, clean } from './embed-helpers.mjs';
import { startServer } from '../../tools/serve.mjs';
import { loadAttention } from '../../web/core/attention.js';
import { parseConfig, forwardArgs } from '../../web/blocks/config.js';
import { PRESETS } from '../../web/blocks/presets.js';
import { fmt } from '../../web/blocks/format.js';

let env, attn;
before(async () => {
  env = await setup();
  attn = await loadAttention({ core: 'forward' });
});
after(() => env.close());

/** The cells of S, A and O as the page must show them for config: fmt of the core's forward(). */
function expected(config) {
  const c = parseConfig(config);
  const r = attn.forward(forwardArgs(c));
  const n = c.tokens.length, dv = r.dv;
  const grid = (a, cols) => Array.from({ length: n }, (_, i) => Array.from({ length: cols }, (_, j) => fmt(a[i * cols + j])));
  return { S: grid(r.S, n), A: grid(r.A, n), O: grid(r.O, dv) };
}
const worked = (K, Q = PRESETS['worked-example'].config.Q) => ({ ...PRESETS['worked-example'].config, Q, K });
const handle = (page, name, root = '') => page.locator(`${root}.geo-handle[aria-label^="${name},"]`);
/** The centre of an arrow's tip on the screen. */
const tipAt = async (page, name) => {
  const b = await handle(page, name).boundingBox();
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
};
/** The origin of a plane on the screen, and its pixels per unit (read off k₁ = (1, 0) or v₁ = (1, 0)). */
async function planeScale(page, which, unitArrow) {
  const o = await page.evaluate((id) => {
    const svg = document.getElementById(id), m = svg.getScreenCTM();
    const p = new DOMPoint(150, 150).matrixTransform(m);
    return { x: p.x, y: p.y };
  }, which);
  const u = await tipAt(page, unitArrow);
  return { o, s: u.x - o.x };
}
/** open(), then the geometry view, which loads the first time it is shown (geometry-slot.js). */
async function openGeo(query, opts) {
  const got = await open(env, query, opts);
  await got.page.waitForSelector('.geo-handle');
  return got;
}
async function drag(page, from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let k = 1; k <= 4; k++) await page.mouse.move(from.x + ((to.x - from.x) * k) / 4, from.y + ((to.y - from.y) * k) / 4);
  await page.mouse.up();
  await settle(page);
}

test('keyboard only: Tab reaches k₂’s tip, ten presses of ↑ take it to (0, 2), and S, A and O are forward() of the edited head in the next frame', async () => {
  const { page, context, log } = await open(env, '?preset=worked-example');
  await page.focus('#geometry-toggle');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.geo-handle');
  assert.equal(await page.getAttribute('#geometry-toggle', 'aria-pressed'), 'true');
  let tabs = 0;
  while (!(await page.evaluate(() => (document.activeElement.getAttribute('aria-label') || '').startsWith('k₂,'))) && tabs < 40) {
    await page.keyboard.press('Tab');
    tabs++;
  }
  assert.ok(tabs < 40, 'Tab reaches k₂');
  assert.match(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), /^k₂, key arrow, tip at \[0\.000, 1\.000\], weight 0\.248; arrow keys move it by 0\.1, with Shift by 0\.01; Enter shows S\[3\]\[2\]$/);
  for (let k = 0; k < 10; k++) await page.keyboard.press('ArrowUp');
  await page.evaluate(() => new Promise(requestAnimationFrame)); // one frame
  const want = expected(worked([[1, 0], [0, 2], [1, 1]]));
  const K = await cellTexts(page, 'K');
  assert.deepEqual(K[1], ['0.000', '2.000']);
  for (const m of ['S', 'A', 'O']) assert.deepEqual(await cellTexts(page, m), want[m], m);
  assert.match(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), /^k₂, key arrow, tip at \[0\.000, 2\.000\]/, 'the focus stays on k₂');
  assert.equal(await page.evaluate(() => document.activeElement.closest('#geometry') !== null), true);
  // Shift: a finer step; ← and → never step through the six steps from a tip.
  await page.keyboard.press('Shift+ArrowLeft');
  await page.keyboard.press('ArrowRight');
  await settle(page);
  assert.deepEqual((await cellTexts(page, 'K'))[1], ['0.090', '2.000']);
  assert.equal(await page.evaluate(() => window.__explorer.state.step), null);
  // Enter shows the arrow's own number in the matrices: k₂'s score with q₃, S[3][2], explained; space does not play.
  await page.keyboard.press('Enter');
  await page.keyboard.press(' ');
  await settle(page);
  assert.deepEqual(await page.evaluate(() => [window.__explorer.state.sel, window.__explorer.state.playing]), [{ m: 'S', i: 2, j: 1 }, false]);
  assert.match(await page.textContent('#explain-title'), /^S\[3\]\[2\] = /);
  // The link holds the edited head and the view; Reset goes back to the preset.
  await page.waitForFunction(() => location.hash.includes('geometry=on') && decodeURIComponent(location.hash).includes('"K":[[1,0],[0.09,2],[1,1]]'));
  await page.click('#reset');
  await settle(page);
  assert.deepEqual((await cellTexts(page, 'K'))[1], ['0.000', '1.000']);
  assert.match(await page.getAttribute(`.geo-handle[data-kind="k"][data-j="1"]`, 'aria-label'), /tip at \[0\.000, 1\.000\]/);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('by dragging alone: k₂ to (0, 2) gives forward()’s numbers; q₃ twice as long sharpens row 3 (0.503 → larger), and O₃ stays inside the hull', async () => {
  const { page, context, log } = await openGeo('?preset=worked-example&geometry=on&follow=2');
  let { o, s } = await planeScale(page, 'geo-qk', 'k₁');
  assert.ok(s > 20, `${s} px per unit`);
  await drag(page, await tipAt(page, 'k₂'), { x: o.x, y: o.y - 2 * s });
  const want = expected(worked([[1, 0], [0, 2], [1, 1]]));
  for (const m of ['S', 'A', 'O']) assert.deepEqual(await cellTexts(page, m), want[m], m);
  await page.click('#reset');
  await settle(page);
  const rowBefore = (await cellTexts(page, 'A'))[2].map(shown);
  assert.deepEqual(rowBefore, [0.248, 0.248, 0.503]);
  await handle(page, 'q₃').scrollIntoViewIfNeeded(); // Reset is further down the page
  ({ o, s } = await planeScale(page, 'geo-qk', 'k₁'));
  // q₃ = (1, 1) to (2, 2): its tip dragged twice as far from the origin (k₃ = q₃ shares the point: q is on top).
  const q = await tipAt(page, 'q₃');
  await drag(page, q, { x: o.x + 2 * (q.x - o.x), y: o.y + 2 * (q.y - o.y) });
  assert.deepEqual((await cellTexts(page, 'Q'))[2], ['2.000', '2.000']);
  const rowAfter = (await cellTexts(page, 'A'))[2].map(shown);
  assert.ok(Math.max(...rowAfter) > 0.503, `the largest weight of row 3: ${rowAfter}`);
  assert.deepEqual((await cellTexts(page, 'A'))[2], expected(worked(PRESETS['worked-example'].config.K, [[1, 0], [0, 1], [2, 2]])).A[2]);
  const prompts = await page.locator('#geo-prompts li').allTextContents();
  assert.match(prompts[0], new RegExp(`Since your last drag of q₃: \\|q₃\\| 1\\.414 → 2\\.828 \\(× 2\\.00\\), the largest weight 0\\.503 → ${fmt(Math.max(...rowAfter)).replace('.', '\\.')}`));
  // O stays inside the hull as the values move: drag v₂ far out, then v₃ to the other side.
  const v = await planeScale(page, 'geo-v', 'v₁');
  await drag(page, await tipAt(page, 'v₂'), { x: v.o.x - 1.5 * v.s, y: v.o.y - 2.5 * v.s });
  await drag(page, await tipAt(page, 'v₃'), { x: v.o.x + 2 * v.s, y: v.o.y - 1.5 * v.s });
  const V = (await cellTexts(page, 'V')).map((r) => r.map(shown));
  assert.deepEqual(V.slice(1), [[-1.5, 2.5], [2, 1.5]]);
  assert.match((await page.locator('#geo-prompts li').allTextContents())[2], /O₃ lies inside the shaded hull of the 3 visible values, however the arrows move\./);
  const O = (await cellTexts(page, 'O'))[2].map(shown);
  const A = (await cellTexts(page, 'A'))[2].map(shown);
  assert.ok(A.every((a) => a > 0) && Math.abs(A.reduce((x, y) => x + y) - 1) < 0.002, 'weights ≥ 0 summing to 1');
  for (const c of [0, 1]) assert.ok(O[c] >= Math.min(...V.map((r) => r[c])) - 1e-3 && O[c] <= Math.max(...V.map((r) => r[c])) + 1e-3, `O₃ within the values’ column ${c + 1}`);
  // Hovering an arrow explains it with its arithmetic; the angle in hand is drawn and explained too.
  await handle(page, 'q₃').scrollIntoViewIfNeeded();
  ({ o, s } = await planeScale(page, 'geo-qk', 'k₁'));
  await page.mouse.move(o.x + 0.6 * s, o.y); // on the arrow of k₁, half-way along
  assert.match(await page.textContent('#geo-explain'), /^k₁, the key of token 1, at \[1\.000, 0\.000\]\. q₃·k₁ = \|q₃\| \|k₁\| cos θ = 2\.828 × 1\.000 × cos 45\.0° = 2\.000\. ÷ √2 gives the score S\[3\]\[1\] = 1\.414/);
  const arc = await page.evaluate(() => {
    const p = document.querySelector('#geo-qk .geo-angle-hit'), m = p.getScreenCTM();
    const at = p.getPointAtLength(p.getTotalLength() / 2).matrixTransform(m);
    return { x: at.x, y: at.y };
  });
  await page.mouse.move(arc.x, arc.y);
  assert.match(await page.textContent('#geo-explain'), /^The angle θ between q₃ and k₁: q₃·k₁ = /);
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('a finger drags a tip too (touch), and a projected head (cat: dk = 4) says what its plane hides and offers no drag', async () => {
  const { page, context, log } = await openGeo('?preset=worked-example&geometry=on', { width: 390, height: 844 });
  await handle(page, 'v₁').scrollIntoViewIfNeeded();
  const cdp = await context.newCDPSession(page);
  const start = await tipAt(page, 'v₁'), origin = await planeScale(page, 'geo-v', 'v₁');
  const to = { x: origin.o.x + 0.5 * origin.s, y: origin.o.y - 1.5 * origin.s };
  const touch = (type, p) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: p ? [{ x: p.x, y: p.y }] : [] });
  await touch('touchStart', start);
  for (let k = 1; k <= 5; k++) await touch('touchMove', { x: start.x + ((to.x - start.x) * k) / 5, y: start.y + ((to.y - start.y) * k) / 5 });
  await touch('touchEnd', null);
  await settle(page);
  assert.deepEqual((await cellTexts(page, 'V'))[0], ['0.500', '1.500']);
  assert.equal(await page.evaluate(() => scrollX), 0, 'the page did not pan under the finger');
  // A finger elsewhere on the plane scrolls the page, as anywhere else.
  const box = await page.locator('#geo-v').boundingBox();
  const y0 = await page.evaluate(() => scrollY);
  const from = { x: box.x + 8, y: box.y + box.height - 8 };
  await touch('touchStart', from);
  for (let k = 1; k <= 5; k++) await touch('touchMove', { x: from.x, y: from.y - 40 * k });
  await touch('touchEnd', null);
  await page.waitForFunction((y0) => scrollY > y0 + 50, y0);
  assert.deepEqual((await cellTexts(page, 'V'))[0], ['0.500', '1.500'], 'nothing moved');
  await page.goto(env.url + '?preset=cat&geometry=2.0.1.3&follow=4');
  await page.waitForSelector('.geo-handle');
  assert.match(await page.textContent('#geo-planes'), /dk = 4 columns; the left plane shows dimensions 3 and 1, and the other 2 dimensions are not drawn/);
  assert.match(await page.textContent('#geo-planes'), /so they do not drag/);
  assert.equal(await page.locator('.geo-movable').count(), 0);
  assert.deepEqual(await page.locator('#geo-qk-dims select').evaluateAll((s) => s.map((e) => e.value)), ['2', '0']);
  await page.selectOption('#geo-qk-dims select >> nth=0', '1');
  await settle(page);
  await page.waitForFunction(() => location.search.includes('geometry=1.0.1.3'));
  assert.deepEqual(log.errors, []);
  await context.close();
});

test('the causal mask greys out the later keys of the query in hand, and the sentence names them', async () => {
  const { page, context } = await openGeo('?preset=worked-example&geometry=on&follow=0');
  await page.keyboard.press('m');
  await settle(page);
  assert.deepEqual(await page.locator('#geo-qk .geo-k.geo-masked').evaluateAll((g) => g.map((e) => e.dataset.j)), ['1', '2']);
  assert.match((await page.locator('#geo-prompts li').allTextContents())[1], /^Mask: k₂ and k₃ come after q₁’s token, so the causal mask greys them out/);
  assert.match((await page.locator('#geo-prompts li').allTextContents())[2], /O₁ is v₁ itself\./);
  await context.close();
});

test('axe finds nothing in the geometry view, light at 1280 px and dark at 320 px, with an arrow explained; nothing scrolls sideways at 320 px', async () => {
  for (const [query, opts] of [['?preset=worked-example&geometry=on', {}], ['?preset=cat&geometry=on&follow=4', { width: 320, height: 700, colorScheme: 'dark' }]]) {
    const { page, context } = await openGeo(query, opts);
    await handle(page, query.includes('cat') ? 'k₂' : 'q₃').focus();
    await settle(page);
    assert.deepEqual(await axeViolations(page), [], `${query} ${JSON.stringify(opts)}`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll');
    await context.close();
  }
});

test('mode="geometry" on the element: the explorer with its view open, under the strict CSP; a key moves a tip, params choose the planes and follow them', async () => {
  const strict = await startServer({ root: ROOT, port: 0, headers: { 'content-security-policy': CSP } });
  const browser = await launch();
  try {
    const url = strict.url + pageWriter('geometry')('mode', '<main>\n<h1>Attention as geometry</h1>\n<attention-explorer id="g" mode="geometry" preset="worked-example" follow="2"></attention-explorer>\n<attention-explorer id="c" mode="geometry" preset="cat" params="geometry=2.0"></attention-explorer>\n</main>');
    const { page, context, log } = await openEmbed(browser, url, { count: 2 });
    const g = '#g >> ';
    await page.waitForSelector(g + '.geo-handle');
    await page.waitForSelector('#c >> .geo-handle');
    assert.equal(await page.locator(g + '#geometry').isVisible(), true);
    await page.locator(g + '.geo-handle[data-kind="k"][data-j="1"]').focus();
    await page.keyboard.press('ArrowUp');
    await settle(page);
    assert.deepEqual((await page.locator('#g').evaluate((e) => e.config.K)), [[1, 0], [0, 1.1], [1, 1]]);
    assert.match(await page.locator(g + '#geo-explain').textContent(), /^k₂, the key of token 2, at \[0\.000, 1\.100\]/);
    assert.equal(await page.locator('#c').evaluate((e) => e.params), 'geometry=2.0.0.1');
    await page.locator('#c >> #geo-v-dims select >> nth=1').selectOption('3');
    await settle(page);
    assert.deepEqual(await page.evaluate(() => window.__states), [['c', 'geometry', 'geometry=2.0.0.3']]);
    await page.locator('#c').evaluate((e) => e.setAttribute('params', 'geometry=1.3'));
    await settle(page);
    assert.match(await page.locator('#c >> #geo-planes').textContent(), /shows dimensions 2 and 4/);
    assert.deepEqual(await axeViolations(page), []);
    await clean(page, log);
    await context.close();
  } finally {
    await browser.close();
    await strict.close();
  }
});
