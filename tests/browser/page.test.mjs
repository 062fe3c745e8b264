// Browser tests of the explorer page (headless Debian Chromium via playwright-core).
// Deterministic: no timing asserts; every wait is for a redraw, never for a clock.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, open, settle, cellTexts, shot, shown } from './helpers.mjs';
import { loadAttention } from '../../web/core/attention.js';
import { parseConfig, forwardArgs, STEPS } from '../../web/blocks/config.js';
import { PRESETS, syntheticConfig } from '../../web/blocks/presets.js';
import { fmt, fmtShort } from '../../web/blocks/format.js';

let env, attn;
before(async () => {
  env = await setup();
  attn = await loadAttention();
});
after(() => env.close());

const MATS = ['X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A', 'O'];

/** Checks every drawn cell against attn.forward run in Node on the page's current config. */
async function assertMatchesCore(page) {
  const config = await page.evaluate(() => JSON.parse(JSON.stringify(__explorer.state.config)));
  const r = attn.forward(forwardArgs(parseConfig(config)));
  let checked = 0;
  for (const m of MATS) {
    if (!r[m]) continue;
    const texts = await cellTexts(page, m);
    assert.ok(texts.length > 0, `${m} is drawn`);
    const cols = texts[0].length;
    texts.forEach((row, i) =>
      row.forEach((t, j) => {
        const k = i * cols + j;
        const want = m === 'S' && r.M[k] === -Infinity ? fmt(-Infinity) : m === 'M' ? fmtShort(r.M[k]) : fmt(r[m][k]);
        assert.equal(t, want, `${m}[${i}][${j}]`);
        checked++;
      }),
    );
  }
  return checked;
}
const explanation = (page) => page.locator('[data-role="explanation"]').textContent();
const cell = (page, m, i, j) => page.locator(`[data-matrix="${m}"][data-row="${i}"][data-col="${j}"]`);

for (const name of Object.keys(PRESETS)) {
  test(`preset ${name} renders every matrix with the core's values and no foreign request`, async () => {
    const { page, log, context } = await open(env, `?preset=${name}`);
    const n = await assertMatchesCore(page);
    assert.ok(n > 30);
    assert.deepEqual(log.foreign, []);
    assert.deepEqual(log.errors, []);
    await shot(page, `preset-${name}`, { fullPage: true });
    await context.close();
  });
}

test("the worked example shows the lesson's table of weights and outputs", async () => {
  const { page, context } = await open(env, '?preset=worked-example');
  assert.deepEqual(await cellTexts(page, 'A'), [['0.401', '0.198', '0.401'], ['0.198', '0.401', '0.401'], ['0.248', '0.248', '0.503']]);
  assert.deepEqual(await cellTexts(page, 'O'), [['1.604', '0.797'], ['1.401', '1.203'], ['1.759', '1.000']]);
  await context.close();
});

test('masked scores show −∞, distinct from small numbers', async () => {
  const { page, context } = await open(env, '?preset=cat');
  const s = cell(page, 'S', 0, 1);
  assert.equal(await s.textContent(), '\u2212\u221e');
  assert.ok(await s.evaluate((e) => e.classList.contains('masked')));
  assert.equal(await cell(page, 'M', 0, 1).textContent(), '\u2212\u221e');
  assert.equal(await cell(page, 'A', 0, 1).textContent(), '0.000');
  await context.close();
});

test('hovering a cell explains it with its numbers and lights up the cells that fed it', async () => {
  const { page, context } = await open(env, '?preset=cat');
  await cell(page, 'A', 4, 1).hover();
  await settle(page);
  const text = await explanation(page);
  const a = await cell(page, 'A', 4, 1).textContent();
  assert.match(text, /softmax of row 5 of S/);
  assert.ok(text.includes(`A[5][2] = 4.482 / 8.482 = ${a}\n`), text);
  assert.ok(await cell(page, 'S', 4, 3).evaluate((e) => e.classList.contains('src')));
  assert.ok(!(await cell(page, 'S', 3, 3).evaluate((e) => e.classList.contains('src'))));
  await page.click('#weights-toggle'); // the learned weights open from their strip
  await cell(page, 'Q', 4, 0).hover();
  await settle(page);
  assert.match(await explanation(page), /Q\[5\]\[1\] = Σₖ X\[5\]\[k\]·Wq\[k\]\[1\]\n= 0\.000×0\.000 \+ 0\.000×0\.000 \+ 1\.000×2\.000 \+ 0\.000×0\.000\n= 2\.000/);
  assert.ok(await cell(page, 'X', 4, 2).evaluate((e) => e.classList.contains('src')));
  assert.ok(await cell(page, 'Wq', 2, 0).evaluate((e) => e.classList.contains('src')));
  await cell(page, 'S', 1, 2).hover();
  await settle(page);
  assert.match(await explanation(page), /a token cannot see the future/);
  await shot(page, 'hover-cat-S-masked');
  await context.close();
});

test('keyboard: arrow keys move within a matrix, cells carry labels with values, the explanation follows focus', async () => {
  const { page, context } = await open(env, '?preset=cat');
  await cell(page, 'O', 0, 0).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await settle(page);
  const focused = await page.evaluate(() => [document.activeElement.dataset.matrix, document.activeElement.dataset.row, document.activeElement.dataset.col, document.activeElement.getAttribute('aria-label')]);
  assert.deepEqual(focused.slice(0, 3), ['O', '1', '1']);
  assert.equal(focused[3], `O, token 2 “cat”, value dim 2 “action”: ${await cell(page, 'O', 1, 1).textContent()}`);
  assert.match(await explanation(page), /^Dimension 2 .* of “cat” \(2\)/);
  // the long explanation is not a live region (a polite readout at every landing): the cell's short label is read
  assert.equal(await page.locator('[data-role="explanation"]').getAttribute('aria-live'), null);
  // Focus that lands on a cell some other way (a screen reader, a script) moves on from there.
  await cell(page, 'A', 4, 1).focus();
  await page.keyboard.press('ArrowRight');
  const moved = await page.evaluate(() => [document.activeElement.dataset.matrix, document.activeElement.dataset.row, document.activeElement.dataset.col]);
  assert.deepEqual(moved, ['A', '4', '2']);
  await context.close();
});

test('play and the step buttons go through the six steps with the lesson’s narration', async () => {
  const { page, context } = await open(env, '?preset=cat');
  await page.click('#play');
  await settle(page);
  assert.equal(await page.evaluate(() => __explorer.state.step), 'project');
  assert.equal(await page.locator('#play').textContent(), '❚❚ Pause');
  await page.click('#play');
  await settle(page);
  assert.equal(await page.evaluate(() => __explorer.state.playing), false);
  const expect = { project: /^1\. Project/, score: /^2\. Score/, scale: /^3\. Scale/, mask: /^4\. Mask/, softmax: /^5\. Softmax/, mix: /^6\. Mix/ };
  for (const [k, s] of STEPS.entries()) {
    assert.equal(await page.evaluate(() => __explorer.state.step), s);
    assert.match(await page.locator('#narration').textContent(), expect[s]);
    assert.match(page.url(), new RegExp('step=' + s));
    await shot(page, `step-${k + 1}-${s}`, { fullPage: true });
    if (s === 'score') assert.equal(await cell(page, 'S', 4, 1).textContent(), '3.000', 'unscaled Q·Kᵀ');
    if (s === 'scale') assert.equal(await cell(page, 'S', 4, 1).textContent(), '1.500');
    if (s === 'scale') assert.equal(await cell(page, 'S', 0, 1).textContent(), '1.500', 'not masked yet');
    if (s === 'mask') assert.equal(await cell(page, 'S', 0, 1).textContent(), '\u2212\u221e');
    const pending = await page.evaluate(() => [...document.querySelectorAll('.panel.pending')].map((e) => e.dataset.panel));
    if (s === 'project') assert.deepEqual(pending, ['S', 'M', 'A', 'O']);
    if (s === 'mix') assert.deepEqual(pending, []);
    await page.click('#fwd');
    await settle(page);
  }
  assert.equal(await page.evaluate(() => __explorer.state.step), null);
  await page.click('#back');
  await page.keyboard.press('[');
  await settle(page);
  assert.equal(await page.evaluate(() => __explorer.state.step), 'softmax');
  await context.close();
});

test('with reduced motion, play never runs by itself: each press is one step', async () => {
  const { page, context } = await open(env, '?preset=cat', { reducedMotion: 'reduce' });
  assert.equal(await page.locator('#play').textContent(), '▶ Next step');
  await page.click('#play');
  await settle(page);
  assert.deepEqual(await page.evaluate(() => [__explorer.state.step, __explorer.state.playing]), ['project', false]);
  await page.click('#play');
  await settle(page);
  assert.deepEqual(await page.evaluate(() => [__explorer.state.step, __explorer.state.playing]), ['score', false]);
  await page.keyboard.press(' ');
  await settle(page);
  assert.equal(await page.evaluate(() => __explorer.state.step), 'scale');
  // the page's help says "space plays or pauses": from a focused cell too
  await cell(page, 'A', 1, 1).focus();
  await page.keyboard.press(' ');
  await settle(page);
  assert.equal(await page.evaluate(() => __explorer.state.step), 'mask', 'space from a cell');
  await context.close();
});

test('clicking a token follows its row through Q, S, A and O with a sentence', async () => {
  const { page, context } = await open(env, '?preset=cat');
  await page.locator('#tokens [data-follow="4"]').click();
  await settle(page);
  const a = await cell(page, 'A', 4, 1).textContent();
  assert.match(await page.locator('#follow-text').textContent(), new RegExp(`^“the” \\(5\\) gives ${a} of its attention to “cat” \\(2\\)`));
  for (const m of ['Q', 'S', 'A', 'O']) assert.ok(await cell(page, m, 4, 0).evaluate((e) => e.classList.contains('follow')), m);
  assert.match(page.url(), /follow=4/);
  await shot(page, 'follow-the');
  await context.close();
});

test('editing a value, the mask, the scaling and the tokens recomputes everything', async () => {
  const { page, context } = await open(env, '?preset=cat');
  // type a value
  await cell(page, 'X', 4, 0).click();
  await page.fill('#edit-value', '2');
  await settle(page);
  assert.equal(await cell(page, 'X', 4, 0).textContent(), '2.000');
  await assertMatchesCore(page);
  // drag to nudge (mouse), and the scroll wheel with Alt on the selected cell
  await page.click('#weights-toggle');
  const box = await cell(page, 'Wq', 2, 0).boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 50, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await settle(page);
  assert.equal(await cell(page, 'Wq', 2, 0).textContent(), '2.500');
  await cell(page, 'Wq', 2, 0).click();
  // a bare wheel scrolls the page and leaves the number alone; with Alt held it nudges
  await page.mouse.wheel(0, -100);
  await settle(page);
  assert.equal(await cell(page, 'Wq', 2, 0).textContent(), '2.500');
  const again = await cell(page, 'Wq', 2, 0).boundingBox();
  await page.mouse.move(again.x + again.width / 2, again.y + again.height / 2);
  await page.keyboard.down('Alt');
  await page.mouse.wheel(0, -100);
  await page.keyboard.up('Alt');
  await settle(page);
  assert.equal(await cell(page, 'Wq', 2, 0).textContent(), '2.600');
  await assertMatchesCore(page);
  // keyboard nudge
  await cell(page, 'Wk', 0, 0).focus();
  await page.keyboard.press('+');
  await settle(page);
  assert.equal(await cell(page, 'Wk', 0, 0).textContent(), '1.600');
  // causal off: no −∞ anywhere
  await page.click('#causal');
  await settle(page);
  assert.equal(await page.locator('[data-matrix="S"]', { hasText: '\u221e' }).count(), 0);
  await assertMatchesCore(page);
  // scaling off: S equals Q·Kᵀ
  await page.click('#scaling');
  await settle(page);
  assert.equal(await page.evaluate(() => __explorer.state.config.scale), 1);
  await assertMatchesCore(page);
  // rename, add, remove tokens
  await page.fill('#token-list [data-token="1"]', 'dog');
  await settle(page);
  assert.equal(await page.locator('#tokens [data-follow="1"]').textContent(), 'dog');
  await page.click('#add-token');
  await settle(page);
  assert.equal((await cellTexts(page, 'A')).length, 6);
  await assertMatchesCore(page);
  await page.click('#token-list [data-remove="0"]');
  await settle(page);
  assert.equal((await cellTexts(page, 'A')).length, 5);
  assert.equal(await page.locator('#tokens [data-follow="0"]').textContent(), 'dog');
  await assertMatchesCore(page);
  await page.waitForFunction(() => location.hash.startsWith('#config=')); // a changed head's link is written a moment after the edit
  assert.match(page.url(), /#config=/);
  // reset
  await page.click('#reset');
  await settle(page);
  assert.match(page.url(), /\?preset=cat/);
  await assertMatchesCore(page);
  assert.equal(await cell(page, 'A', 4, 1).textContent(), fmt(attn.forward(forwardArgs(parseConfig(PRESETS.cat.config))).A[21]));
  await context.close();
});

test('the URL holds head, step and selection: a copied link reopens the same view', async () => {
  const { page, context } = await open(env, '?preset=cat&step=softmax&follow=4&cell=A.4.1');
  assert.deepEqual(await page.evaluate(() => [__explorer.state.step, __explorer.state.follow, __explorer.state.sel]), ['softmax', 4, { m: 'A', i: 4, j: 1 }]);
  assert.match(await explanation(page), /A\[5\]\[2\]/);
  await cell(page, 'X', 1, 1).click();
  await page.fill('#edit-value', '0.7');
  await settle(page);
  await page.waitForFunction(() => /&cell=X\.1\.1$/.test(location.hash));
  const link = page.url();
  assert.match(link, /#config=.*&step=softmax&follow=4&cell=X\.1\.1$/);
  const before = await cellTexts(page, 'O');
  const second = await open(env, link.slice(env.url.length));
  assert.deepEqual(await cellTexts(second.page, 'O'), before);
  assert.deepEqual(await second.page.evaluate(() => [__explorer.state.step, __explorer.state.follow, __explorer.state.sel]), ['softmax', 4, { m: 'X', i: 1, j: 1 }]);
  assert.equal(await cell(second.page, 'X', 1, 1).textContent(), '0.700');
  // a cell outside its matrix is dropped, and the page's message says which and why
  await second.page.evaluate(() => { location.hash = '#cell=O.40.0'; });
  await second.page.waitForFunction(() => !document.querySelector('#error').hidden);
  assert.equal(await second.page.locator('#error').textContent(), 'The link’s cell=O.40.0 was ignored: O has 5 rows.');
  await second.context.close();
  await context.close();
});

test('the note on a link’s ignored parameter stays while the learner reads and looks around, and goes once they do something to the head; “cannot be computed” stays until the head can be', async () => {
  const { page, context } = await open(env, '?preset=cat&cell=O.40.0');
  const note = 'The link’s cell=O.40.0 was ignored: O has 5 rows.';
  const error = () => page.evaluate(() => { const e = document.getElementById('error'); return e.hidden ? null : e.textContent; });
  assert.equal(await error(), note);
  // reading: the pointer over cells (their explanations open), a theme change, the weights opened, frames passing
  for (const [m, i, j] of [['S', 4, 1], ['A', 2, 2], ['X', 0, 0]]) await cell(page, m, i, j).hover();
  await page.click('#theme');
  await page.click('#weights-toggle');
  for (let k = 0; k < 5; k++) await settle(page);
  assert.equal(await error(), note, 'still there to be read');
  // a cell chosen: gone
  await cell(page, 'A', 2, 1).click();
  await settle(page);
  assert.equal(await error(), null, 'gone once the learner chose a cell');
  // again, through the hash: an edit from the keyboard (M flips the causal mask) clears it too, and so does a step
  for (const [hash, act] of [['#preset=cat&cell=O.40.0', () => page.keyboard.press('m')], ['#preset=cat&step=sofmax', () => page.click('[data-step="mask"]')]]) {
    await page.evaluate((h) => { location.hash = h; }, hash);
    await page.waitForFunction(() => !document.getElementById('error').hidden);
    await page.mouse.click(5, 5); // off the matrices: nothing chosen
    await settle(page);
    assert.match(await error(), /^The link’s (cell|step)=/);
    await act();
    await settle(page);
    assert.equal(await error(), null, hash);
  }
  // a value too large to compute: said, kept while the learner looks at another cell, gone once a value fits again
  await cell(page, 'X', 1, 0).click(); // “cat”, thing: Wk's row 1.5 makes K overflow float32
  await page.fill('#edit-value', '3e38');
  await settle(page);
  assert.match(await error(), /^This head cannot be computed: /);
  await cell(page, 'Q', 1, 1).click();
  await settle(page);
  assert.match(await error(), /^This head cannot be computed: /, 'a cell chosen does not make the head computable');
  await cell(page, 'X', 1, 0).click();
  await page.fill('#edit-value', '1');
  await settle(page);
  assert.equal(await error(), null);
  await context.close();
});

const BAD = [
  ['not JSON', '{"X": [[1,', /not valid JSON/],
  ['an unknown key', JSON.stringify({ ...PRESETS.cat.config, colour: 1 }), /Unknown key "colour"/],
  ['mismatched shapes', JSON.stringify({ ...PRESETS.cat.config, Wq: [[1]] }), /"Wq" has 1 row but must have 4/],
  ['a non-finite number', '{"X": [[1e999]], "Wq": [[1]], "Wk": [[1]], "Wv": [[1]]}', /finite number/],
];
for (const [what, text, re] of BAD) {
  test(`a config with ${what} shows its message and the page still shows a head`, async () => {
    const { page, log, context } = await open(env, '#config=' + encodeURIComponent(text));
    const err = page.locator('#error');
    assert.ok(await err.isVisible());
    assert.match(await err.textContent(), re);
    assert.ok((await cellTexts(page, 'A')).length > 0, 'the page is not blank');
    assert.deepEqual(log.errors, []);
    if (what === 'an unknown key') await shot(page, 'bad-config');
    await context.close();
  });
}

test('a bad config pasted into the editor is refused with its message, the head stays', async () => {
  const { page, context } = await open(env, '?preset=cat');
  await page.click('details.config summary');
  await page.fill('#config-text', '{"tokens": ["a"], "X": [[1, 2]], "Wq": [[1]], "Wk": [[1]], "Wv": [[1]]}');
  await page.click('#apply-config');
  await settle(page);
  assert.match(await page.locator('#error').textContent(), /"Wq" has 1 row but must have 2/);
  assert.equal((await cellTexts(page, 'A')).length, 5);
  await context.close();
});

test('“My dog ate my homework” from the page’s own controls: tokens and features renamed, a feature added, dk set, tensors pasted; every cell is the core’s and every header whole', async () => {
  const { page, context } = await open(env, '?preset=cat');
  const words = ['My', 'dog', 'ate', 'my', 'homework'];
  for (const [i, w] of words.entries()) await page.fill(`#token-list input[data-token="${i}"]`, w);
  await page.fill('#feature-list input[data-feature="0"]', 'dog-ness');
  await page.click('#add-feature');
  await page.fill('#width-dk', '3');
  await page.press('#width-dk', 'Tab'); // a number field changes when it is left (or on Enter)
  await settle(page);
  const config = await page.evaluate(() => __explorer.state.config);
  assert.deepEqual(config.tokens, words);
  assert.equal(config.features[0], 'dog-ness');
  assert.equal(config.X[0].length, 5);
  assert.equal((await cellTexts(page, 'Q'))[0].length, 3);
  await assertMatchesCore(page);
  // a column header is one word on one line, never cut or broken inside the word
  const cut = await page.evaluate(() => [...document.querySelectorAll('.hm-col')].filter((h) => {
    const r = document.createRange();
    r.selectNodeContents(h);
    return h.scrollWidth > h.clientWidth + 1 || (!/\s/.test(h.textContent) && r.getClientRects().length > 1);
  }).map((h) => h.textContent));
  assert.deepEqual(cut, []);
  assert.match(await page.locator('#preset-note').textContent(), /with 5 tokens renamed, 5 features instead of 4 and dk = 3 instead of 4\./);
  assert.equal(await page.locator('#reset').textContent(), 'Reset to the preset');
  // printed tensors of the same shape keep the names; the box says the mask is off, and why
  const printout = ['X', 'Wq', 'Wk', 'Wv'].map((m) => `${m} = tensor(${JSON.stringify(config[m])})`).join('\n');
  await page.click('details.config summary');
  await page.fill('#config-text', printout);
  await page.click('#apply-config');
  await settle(page);
  assert.deepEqual(await page.evaluate(() => __explorer.state.config.tokens), words);
  assert.match(await page.locator('#config-note').textContent(), /The causal mask is off, as in scaled_dot_product_attention without is_causal=True/);
  assert.equal(await page.locator('#reset').textContent(), 'Reset to the config you loaded');
  assert.equal(await page.locator('#causal').isChecked(), false);
  await page.keyboard.press('Escape');
  await page.click('#causal');
  await settle(page);
  assert.doesNotMatch(await page.locator('#config-note').textContent(), /mask is off/);
  await assertMatchesCore(page);
  await context.close();
});

test('hostile token text stays text and runs nothing', async () => {
  const evil = '<img src=x onerror=alert(1)>';
  const cfg = { ...PRESETS.cat.config, tokens: [evil, '<script>alert(2)</script>', '"><b>x', 'on', '&amp;'] };
  const { page, log, context } = await open(env, '#config=' + encodeURIComponent(JSON.stringify(cfg)));
  await page.locator('#tokens [data-follow="0"]').click();
  await cell(page, 'A', 0, 0).hover();
  await settle(page);
  assert.equal(await page.locator('#tokens [data-follow="0"]').textContent(), evil);
  assert.equal(await page.locator('#tokens [data-follow="4"]').textContent(), '&amp;');
  assert.ok((await page.locator('#follow-text').textContent()).startsWith(`“${evil}” (1)`));
  assert.equal(await page.locator('body img, body script:not([src]), body b').count(), 0);
  assert.deepEqual(log.dialogs, []);
  assert.deepEqual(log.errors, []);
  assert.ok(log.foreign.length === 0 && !(await page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/x')))));
  await context.close();
});

test('256 tokens draw on canvas and hovering still explains any cell', async () => {
  const cfg = syntheticConfig(256, 8);
  const { page, context } = await open(env, '#config=' + encodeURIComponent(JSON.stringify(cfg)));
  assert.equal(await page.locator('canvas[data-matrix-canvas="A"]').count(), 1);
  await page.locator('canvas[data-matrix-canvas="A"]').scrollIntoViewIfNeeded();
  const box = await page.locator('canvas[data-matrix-canvas="A"]').boundingBox();
  // the cell under (row 200, col 10)
  await page.mouse.move(box.x + (10.5 * box.width) / 256, box.y + (200.5 * box.height) / 256);
  await settle(page);
  const r = attn.forward(forwardArgs(parseConfig(cfg)));
  assert.equal(await page.locator('#explain-title').textContent(), `A[201][11] = ${fmt(r.A[200 * 256 + 10])}`);
  assert.match(await explanation(page), /A\[201\]\[11\] = [0-9.]+ \/ [0-9.]+ = [0-9.]+\n/);
  // keyboard on the canvas
  await page.locator('canvas[data-matrix-canvas="O"]').focus();
  await page.keyboard.press('ArrowDown');
  await settle(page);
  // operated with keys, so not an image; a live line reads out the cell the cursor landed on
  assert.equal(await page.locator('canvas[data-matrix-canvas="O"]').getAttribute('role'), 'application');
  assert.match(await page.locator('canvas[data-matrix-canvas="O"] ~ [aria-live="polite"]').textContent(), /^O, token 2, value dim 1: /);
  await shot(page, 'n256');
  await context.close();
});

test('phone width (360 px, touch) and the dark theme render and explain on tap', async () => {
  const phone = await open(env, '?preset=cat&follow=4', { width: 360, height: 740 });
  const w = await phone.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(w <= 360, `no horizontal page scroll at 360 px (scrollWidth ${w})`);
  await cell(phone.page, 'A', 4, 1).tap();
  await settle(phone.page);
  assert.match(await explanation(phone.page), /softmax of row 5/);
  await shot(phone.page, 'phone-360');
  await phone.context.close();

  const dark = await open(env, '?preset=cat&step=softmax&follow=4', { colorScheme: 'dark' });
  assert.equal(await dark.page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await shot(dark.page, 'dark-softmax', { fullPage: true });
  await dark.page.click('#theme');
  await settle(dark.page);
  assert.equal(await dark.page.evaluate(() => document.documentElement.dataset.theme), 'light');
  await dark.context.close();
});
