// The learner's path through the explorer (issue 9): captions and legends that follow the values,
// the whole head on the first screen, the lesson's order at phone width, focus never hidden under
// the explanation, the keyboard, the remembered theme, the tour and the leak check.
// Headless Debian Chromium; no timing asserts: every wait is for a redraw.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, open, settle, cellTexts, shot } from './helpers.mjs';
import { loadAttention } from '../../web/core/attention.js';
import { parseConfig, forwardArgs, STEPS } from '../../web/blocks/config.js';
import { PRESETS } from '../../web/blocks/presets.js';
import { fmt } from '../../web/blocks/format.js';

let env, attn;
before(async () => {
  env = await setup();
  attn = await loadAttention();
});
after(() => env.close());

const cell = (page, m, i, j) => page.locator(`[data-matrix="${m}"][data-row="${i}"][data-col="${j}"]`);
const PATH = ['X', 'Q', 'K', 'V', 'S', 'M', 'A', 'O'];

/** What the page says about M and S against what it shows, as problems (empty when they agree). */
function captionProblems(page) {
  return page.evaluate(() => {
    const out = [];
    const texts = (m) => [...document.querySelectorAll(`[data-matrix="${m}"][data-row]`)].map((c) => c.textContent);
    const about = (m) => document.querySelector(`[data-panel="${m}"] .about`).textContent;
    const legend = (m) => document.querySelector(`[data-panel="${m}"] .legend`).textContent;
    const mMasked = texts('M').includes('−∞'), sMasked = texts('S').includes('−∞');
    const causal = __explorer.state.config.causal;
    if (/causal/.test(about('M')) !== causal) out.push(`M caption “${about('M')}” with causal ${causal}`);
    if (/−∞/.test(about('M')) !== mMasked) out.push(`M caption “${about('M')}” with${mMasked ? '' : ' no'} −∞ in M`);
    if (/−∞ masked/.test(legend('M')) !== mMasked) out.push(`M legend “${legend('M')}” with${mMasked ? '' : ' no'} −∞ in M`);
    if (/−∞ masked/.test(legend('S')) !== sMasked) out.push(`S legend “${legend('S')}” with${sMasked ? '' : ' no'} −∞ in S`);
    if (/−∞/.test(about('S')) && !sMasked) out.push(`S caption “${about('S')}” but no −∞ in S`);
    const scaled = __explorer.state.config.scale == null;
    const formula = document.getElementById('formula').textContent;
    if (/S = Q·Kᵀ\/√dk/.test(formula) !== scaled) out.push(`formula “${formula}” with scaling ${scaled ? 'on' : 'off'}`);
    if (/causal mask/.test(formula) !== causal) out.push(`formula “${formula}” with causal ${causal}`);
    if (document.getElementById('causal').checked !== causal) out.push('the causal checkbox disagrees');
    if (document.getElementById('scaling').checked !== scaled) out.push('the scaling checkbox disagrees');
    return out;
  });
}

// Every preset, both masks, both scalings and every step are checked in Node against the same
// rules (tests/explorer/sentences.test.mjs: the captions, legends and formula come from
// web/blocks/explain.js); here the page keeps them in step with its toggles, keys and step buttons.
test('after every toggle and step, the captions, legends, formula and toggles match the values shown', async () => {
  const { page, context } = await open(env, '?preset=cat');
  for (const toggle of ['#causal', '#scaling', '#causal', '#scaling']) {
    await page.click(toggle);
    await settle(page);
    for (const step of [...STEPS, 'all']) {
      await page.click(step === 'all' ? '#all' : `[data-step="${step}"]`);
      await settle(page);
      assert.deepEqual(await captionProblems(page), [], `after ${toggle}, step ${step}`);
    }
  }
  // another preset, chosen in the menu, at every step shown
  const other = Object.keys(PRESETS).find((name) => name !== 'cat' && PRESETS[name].config.causal !== PRESETS.cat.config.causal) ?? Object.keys(PRESETS).find((name) => name !== 'cat');
  await page.selectOption('#preset', other);
  await settle(page);
  assert.deepEqual(await captionProblems(page), [], `${other}, every step`);
  await context.close();
});

test('a toggle on a preset says what changed and how to go back; toggling back restores the preset', async () => {
  const { page, context } = await open(env, '?preset=cat');
  await page.keyboard.press('m'); // the causal mask, from the keyboard
  await settle(page);
  assert.equal(await page.locator('#preset-note').textContent(), 'The preset “The cat sat on the”, with the causal mask off. To go back, turn the causal mask on again (key M), or press “Reset to the preset”.');
  assert.equal(await page.locator('#preset option:checked').textContent(), 'The cat sat on the (changed)');
  await page.waitForFunction(() => /#config=.*&from=cat/.test(location.hash));
  await page.keyboard.press('s');
  await settle(page);
  assert.match(await page.locator('#preset-note').textContent(), /^The preset “The cat sat on the”, with the causal mask off and scaling off\. To go back, turn the causal mask on again \(key M\) and turn scaling on again \(key S\), or press “Reset to the preset”\.$/);
  // a link keeps where the head came from
  await page.waitForFunction(() => /%22scale%22%3A1/.test(location.hash));
  const again = await open(env, page.url().slice(env.url.length));
  assert.match(await again.page.locator('#preset-note').textContent(), /^The preset “The cat sat on the”, with the causal mask off and scaling off/);
  await again.context.close();
  await page.keyboard.press('m');
  await page.keyboard.press('s');
  await settle(page);
  assert.equal(await page.locator('#preset').inputValue(), 'cat');
  assert.equal(await page.locator('#preset-note').textContent(), PRESETS.cat.note);
  assert.match(page.url(), /\?preset=cat$/);
  await context.close();
});

// Where each matrix of the path is, in page coordinates.
function boxes(page) {
  return page.evaluate((path) => Object.fromEntries(path.map((m) => {
    const b = document.querySelector(`[data-panel="${m}"]`).getBoundingClientRect();
    return [m, { x: Math.round(b.left), y: Math.round(b.top + scrollY), bottom: Math.round(b.bottom + scrollY), right: Math.round(b.right) }];
  })), PATH);
}

// Legend items whose text spills out of their box, or that are squashed flat (another page's
// sheet once drew the M and S keys as 20 × 2 px lines, their words spilling over each other).
function legendProblems(page) {
  return page.evaluate(() => [...document.querySelectorAll('[data-panel] .legend > *')].flatMap((e) => {
    const b = e.getBoundingClientRect(), m = e.closest('[data-panel]').dataset.panel;
    if (!e.getClientRects().length) return []; // a folded panel (the weights)
    return e.scrollWidth > e.clientWidth + 1 || b.height < 9 ? [`${m} “${e.textContent}”: ${Math.round(b.width)} × ${Math.round(b.height)} px, text ${e.scrollWidth} px wide`] : [];
  }));
}

// Every panel of the path (and the open weights) within the window as it is scrolled now, as problems.
function offScreen(page, h) {
  return page.evaluate(([path, h]) => [...path, 'Wq', 'Wk', 'Wv'].flatMap((m) => {
    const e = document.querySelector(`[data-panel="${m}"]`);
    if (!e || !e.getClientRects().length) return [];
    const b = e.getBoundingClientRect();
    return b.top >= 0 && b.bottom <= h && b.left >= 0 && b.right <= innerWidth ? [] : [`${m} at ${Math.round(b.left)},${Math.round(b.top)}-${Math.round(b.right)},${Math.round(b.bottom)}`];
  }), [PATH, h]);
}


test('the whole head is on the first screen at 1280×800, 1024×768 and 960×768; two rows of four from 901 px; A and O positions at four sizes, light and dark (screenshots)', async () => {
  const lines = [];
  for (const [w, h] of [[1280, 800], [1024, 768], [960, 768], [901, 768], [360, 800]]) {
    for (const scheme of ['light', 'dark']) {
      const { page, context } = await open(env, '?preset=cat', { width: w, height: h, colorScheme: scheme });
      const b = await boxes(page);
      assert.deepEqual(await legendProblems(page), [], `legends at ${w} px ${scheme}`);
      await shot(page, `first-screen-${w}x${h}-${scheme}`);
      lines.push(`${w}×${h} ${scheme}: A at y = ${b.A.y} (bottom ${b.A.bottom}), O at y = ${b.O.y} (bottom ${b.O.bottom}), page ${await page.evaluate(() => document.documentElement.scrollHeight)} px`);
      // each toggle sits in the caption of the matrix it changes, at every size
      assert.deepEqual(await page.evaluate(() => ['#causal', '#scaling'].map((t) => document.querySelector(t).closest('[data-panel]').dataset.panel)), ['M', 'S']);
      if (w > 900) {
        // the lesson's flow: X → Q, K, V left to right, then S → M → A → O on the next row, with
        // room for a classic scrollbar (15 px; the tests' Chromium hides its scrollbars)
        assert.ok(b.X.x < b.Q.x && b.Q.x < b.K.x && b.K.x < b.V.x && b.X.y === b.Q.y && b.X.y === b.V.y, `first row X, Q, K, V at ${w} px`);
        assert.ok(b.S.x < b.M.x && b.M.x < b.A.x && b.A.x < b.O.x && b.S.y === b.O.y && b.S.y > b.Q.bottom - 5, `second row S, M, A, O at ${w} px`);
        const pad = await page.evaluate(() => parseFloat(getComputedStyle(document.body).paddingRight));
        for (const m of ['V', 'O']) assert.ok(b[m].right <= w - 15 - pad, `${m} ends at ${b[m].right}, leaving room for a 15 px scrollbar at ${w} px`);
      }
      if (w >= 960) {
        for (const m of PATH) assert.ok(b[m].x >= 0 && b[m].y >= 0 && b[m].bottom <= h && b[m].right <= w, `${m} is on the first screen at ${w}×${h}: ${JSON.stringify(b[m])}`);
        // the header and the play bar on one line each (at 960 px both used to wrap)
        const rows = await page.evaluate(() => ['header h1', 'header nav', '.playbar .controls', '.playbar .follow-box'].map((q) => Math.round(document.querySelector(q).getBoundingClientRect().bottom)));
        assert.ok(Math.abs(rows[0] - rows[1]) <= 8 && Math.abs(rows[2] - rows[3]) <= 8, `the title and the modes, the steps and the tokens side by side: bottoms ${rows}`);
      }
      if (w === 1024 || w === 960) {
        // no room beside the matrices: the explanation, idle, is one line over none of them; pointed
        // at a cell it floats over the matrices' edge away from that cell (right of S, left of O)
        const over = (p, m) => p.x < b[m].right && b[m].x < p.x + p.width && p.y < b[m].bottom && b[m].y < p.y + p.height;
        const idle = /** @type {{ x: number, y: number, width: number, height: number }} */ (await page.locator('#inspector').boundingBox());
        assert.deepEqual(PATH.filter((m) => over(idle, m)), [], `the idle explanation ${JSON.stringify(idle)} covers no panel`);
        for (const [m, i, j] of [['S', 4, 1], ['O', 4, 3]]) {
          const c = /** @type {{ x: number, y: number, width: number, height: number }} */ (await cell(page, m, i, j).boundingBox());
          await page.mouse.move(c.x + c.width / 2, c.y + c.height / 2, { steps: 8 });
          await settle(page);
          const p = /** @type {{ x: number, y: number, width: number, height: number }} */ (await page.locator('#inspector').boundingBox());
          assert.equal(await page.locator('#explain-title').textContent(), `${m}[${i + 1}][${j + 1}] = ${await cell(page, m, i, j).textContent()}`);
          assert.ok(p.x + p.width <= c.x || c.x + c.width <= p.x, `the explanation ${JSON.stringify(p)} beside the hovered ${m} cell ${JSON.stringify(c)}`);
        }
      }
      if (w === 1024 || w === 960) {
        // a token followed: its sentence above the matrices leaves O's legend on the screen
        await page.mouse.move(5, 5);
        await page.click('#tokens button:last-child');
        await settle(page);
        assert.match(await page.locator('#follow-text').textContent(), /^“the” \(5\) gives /);
        assert.deepEqual(await offScreen(page, h), [], `with a token followed at ${w}×${h}`);
        await page.click('#tokens button:last-child'); // followed no more
        await settle(page);
      }
      if (w === 1024) {
        // the tour (it follows the last “the” and narrates it)
        await page.click('#tour-start');
        await settle(page);
        assert.equal(await page.locator('#tour').isVisible(), true);
        assert.deepEqual(await offScreen(page, h), [], `on the tour at ${w}×${h}`);
        await shot(page, `tour-${w}x${h}-${scheme}`);
        await page.click('#tour-skip');
        // the learned weights opened from the keyboard: a third row of matrices, which with the words
        // above them cannot fit in 768 px, so the page scrolls to show every matrix (S to O too)
        await page.focus('#weights-toggle');
        await page.keyboard.press('Enter');
        await settle(page); // (the redraw that opens them scrolls, at once)
        assert.equal(await page.locator('[data-panel="Wq"]').isVisible(), true);
        assert.deepEqual(await offScreen(page, h), [], `with the weights open at ${w}×${h}`);
        assert.equal(await page.evaluate(() => document.activeElement.id), 'weights-toggle', 'the focus stays on the strip');
        await shot(page, `weights-${w}x${h}-${scheme}`);
        lines.push(`${w}×${h} ${scheme} weights open: scrolled ${await page.evaluate(() => scrollY)} px, O bottom ${await page.evaluate(() => Math.round(document.querySelector('[data-panel="O"]').getBoundingClientRect().bottom))}`);
      }
      if (w === 360) {
        // one column, in the lesson's order
        for (let k = 1; k < PATH.length; k++) assert.ok(b[PATH[k]].y > b[PATH[k - 1]].bottom - 2, `${PATH[k]} comes below ${PATH[k - 1]}`);
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360, 'no sideways scroll');
      }
      await context.close();
    }
  }
  console.log('  ' + lines.join('\n  '));
});

test('at 1024×768 a cell clicked, the mouse moved away, then typed on takes the typed number (the floating explanation, only its title showing, opens its editor)', async () => {
  const { page, context } = await open(env, '?preset=cat', { width: 1024, height: 768 });
  await cell(page, 'X', 1, 0).click();
  await page.mouse.move(1000, 740);
  await settle(page);
  assert.equal(await page.locator('#inspector').evaluate((e) => e.classList.contains('compact')), true, 'clicked earlier, not pointed at: only the title shows');
  await page.keyboard.type('2.5');
  await page.keyboard.press('Enter');
  await settle(page);
  assert.equal(await cell(page, 'X', 1, 0).textContent(), '2.500');
  await context.close();
});

test('at 1024×768 on a touch screen (a tablet held sideways) a tapped cell opens its explanation in full, beside the cell', async () => {
  const touch = await env.browser.newContext({ viewport: { width: 1024, height: 768 }, hasTouch: true, isMobile: false });
  const tab = await touch.newPage();
  await tab.goto(env.url + '?preset=cat');
  await tab.waitForSelector('html[data-ready="true"]');
  for (const [m, i, j] of [['S', 4, 1], ['O', 4, 3]]) {
    await cell(tab, m, i, j).tap();
    await settle(tab);
    assert.equal(await tab.locator('#inspector').evaluate((e) => e.classList.contains('compact')), false, `tapped ${m}: the explanation is open, not only its title`);
    assert.equal(await tab.locator('#explain-title').textContent(), `${m}[${i + 1}][${j + 1}] = ${await cell(tab, m, i, j).textContent()}`);
    assert.ok(await tab.locator('#explanation').isVisible(), `tapped ${m}: its arithmetic shows`);
    const c = /** @type {{ x: number, y: number, width: number, height: number }} */ (await cell(tab, m, i, j).boundingBox());
    const p = /** @type {{ x: number, y: number, width: number, height: number }} */ (await tab.locator('#inspector').boundingBox());
    assert.ok(p.x + p.width <= c.x || c.x + c.width <= p.x, `the explanation ${JSON.stringify(p)} beside the tapped ${m} cell ${JSON.stringify(c)}`);
  }
  await touch.close();
});

test('hovering a score shows copies of the query and key rows that fed it, with their numbers, in the explanation panel', async () => {
  const { page, context } = await open(env, '?preset=cat');
  await cell(page, 'S', 4, 1).hover();
  await settle(page);
  const copies = await page.locator('#sources table').evaluateAll((ts) => ts.map((t) => [t.caption.textContent, [...t.rows[1].cells].map((c) => c.textContent)]));
  const r = attn.forward(forwardArgs(parseConfig(PRESETS.cat.config)));
  const row = (a, i, cols) => Array.from(a.slice(i * cols, i * cols + cols), fmt);
  assert.deepEqual(copies, [
    ['Q row 5 (the)', row(r.Q, 4, 4)],
    ['K row 2 (cat)', row(r.K, 1, 4)],
    ['M[5][2]', ['0']],
  ]);
  await context.close();
});

test('at 360 px the explanation never covers the focused cell (WCAG 2.4.11): arrows through every row of A and O', async () => {
  const { page, context } = await open(env, '?preset=cat', { width: 360, height: 800 });
  let checked = 0;
  for (const m of ['X', 'S', 'A', 'O']) {
    await cell(page, m, 0, 0).focus();
    await settle(page);
    for (let k = 0; k < 5; k++) {
      for (let j = 0; j < 3; j++) {
        const r = await page.evaluate(() => {
          const a = document.activeElement.getBoundingClientRect(), p = document.getElementById('inspector').getBoundingClientRect();
          return { top: a.top, bottom: a.bottom, panelTop: p.top, label: document.activeElement.getAttribute('aria-label') };
        });
        assert.ok(r.bottom <= r.panelTop && r.top >= 0, `${r.label}: cell ${r.top}–${r.bottom}, panel from ${r.panelTop}`);
        checked++;
        await page.keyboard.press('ArrowRight');
        await settle(page);
      }
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowDown');
      await settle(page);
    }
  }
  assert.equal(checked, 60);
  await shot(page, 'phone-360-focus-clear');
  await context.close();
});

test('at 360 px Tab reaches every control and none hides under the docked explanation, even at its tallest (WCAG 2.4.11)', async () => {
  const { page, context } = await open(env, '?preset=cat', { width: 360, height: 800 });
  await cell(page, 'A', 2, 1).click(); // an explanation with copies of its inputs: the panel at 40% of the window
  await settle(page);
  await page.evaluate(() => scrollTo(0, 0));
  const seen = [], hidden = [], tall = [];
  for (let k = 0; k < 120; k++) {
    await page.keyboard.press('Tab');
    await settle(page);
    const r = await page.evaluate(() => {
      const a = document.activeElement, panel = document.getElementById('inspector');
      if (!a || a === document.body || panel.contains(a)) return null;
      const b = a.getBoundingClientRect(), p = panel.getBoundingClientRect();
      const name = a.id || a.getAttribute('aria-label') || a.textContent.trim().slice(0, 30);
      return { name, clear: b.top >= 0 && b.bottom <= Math.min(p.top, innerHeight) + 0.5, at: `${Math.round(b.top)}–${Math.round(b.bottom)}, panel from ${Math.round(p.top)}`, tall: p.height };
    });
    if (!r) continue;
    if (seen.includes(r.name)) break; // round the page once
    seen.push(r.name);
    if (!r.clear) hidden.push(`${r.name}: ${r.at}`);
    tall.push(Math.round(r.tall));
  }
  for (const name of ['causal', 'scaling', 'leak-toggle', 'weights-toggle', 'reset', 'Token 5', 'add-token']) assert.ok(seen.includes(name), `Tab reaches ${name}`);
  assert.deepEqual(hidden, []);
  console.log(`  ${seen.length} tab stops at 360 px, none under the explanation (${Math.min(...tall)} to ${Math.max(...tall)} px tall)`);
  await context.close();
});

test('keyboard: skip links, arrows between token chips (not steps), row headers reached with ←, keys M and S', async () => {
  const { page, context } = await open(env, '?preset=cat&follow=4');
  // aria-pressed on the followed chip and row headers from the first render
  assert.equal(await page.locator('#tokens [data-follow="4"]').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator('[data-label-of="A"][data-follow="4"]').getAttribute('aria-pressed'), 'true');
  // the first Tab reaches the skip link; Enter lands on the first cell of X
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to the matrices');
  await page.keyboard.press('Enter');
  await settle(page);
  assert.deepEqual(await page.evaluate(() => [document.activeElement.dataset.matrix, document.activeElement.dataset.row]), ['X', '0']);
  // ← from the first column reaches the row's header: a button, at least 24×24, inside a rowheader
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowLeft');
  const head = await page.evaluate(() => {
    const e = document.activeElement, b = e.getBoundingClientRect();
    return [e.tagName, e.textContent, e.parentElement.getAttribute('role'), b.width >= 24 && b.height >= 24];
  });
  assert.deepEqual(head, ['BUTTON', 'cat', 'rowheader', true]);
  await page.keyboard.press('Enter');
  await settle(page);
  assert.equal(await page.evaluate(() => __explorer.state.follow), 1);
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await page.evaluate(() => [document.activeElement.dataset.matrix, document.activeElement.dataset.row, document.activeElement.dataset.col]), ['X', '1', '0']);
  // arrows between chips move focus and leave the step alone
  await page.locator('#tokens [data-follow="1"]').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.follow), '3');
  assert.equal(await page.evaluate(() => __explorer.state.step), null);
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.follow), '4');
  // elsewhere ← and → still step
  await page.locator('#narration').click(); // (a place that takes no keys)
  await page.keyboard.press('ArrowLeft');
  await settle(page);
  assert.equal(await page.evaluate(() => __explorer.state.step), 'mix');
  // m and s switch the mask and the scaling
  await page.keyboard.press('m');
  await page.keyboard.press('s');
  await settle(page);
  assert.deepEqual(await page.evaluate(() => [__explorer.state.config.causal, __explorer.state.config.scale]), [false, 1]);
  // the second skip link lands in the explanation
  await page.evaluate(() => document.querySelector('[data-skip="inspector"]').click());
  assert.equal(await page.evaluate(() => document.activeElement.id), 'inspector');
  await context.close();
});

test('the dark theme is remembered on reload; a link’s theme= and the element’s attribute come first', async () => {
  const { page, context } = await open(env, '?preset=cat');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  await page.click('#theme');
  await settle(page);
  assert.equal(await page.locator('#theme').getAttribute('aria-pressed'), 'true');
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark', 'remembered');
  await page.goto(env.url + '?preset=cat&theme=light');
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light', 'theme= wins');
  await page.click('#theme');
  await settle(page);
  assert.match(page.url(), /theme=dark/, 'the link follows the reader’s choice');
  await context.close();
});

test('the token editor: no number runs into the × button before it, at 1280 px', async () => {
  const { page, context } = await open(env, '?preset=previous-token');
  const overlaps = await page.evaluate(() => {
    const items = [...document.querySelectorAll('#token-list li')];
    const out = [];
    items.forEach((li, k) => {
      if (!k) return;
      const prev = items[k - 1].querySelector('.remove').getBoundingClientRect();
      const mine = li.getBoundingClientRect(); // the li holds its own number (::before)
      if (mine.top < prev.bottom && mine.left < prev.right && mine.right > prev.left && mine.bottom > prev.top) out.push(k + 1);
    });
    return out;
  });
  assert.deepEqual(overlaps, []);
  await context.close();
});

test('the guided tour: four stops from “Reading the matrices”, each marking its cells, skippable', async () => {
  const { page, context } = await open(env, '?preset=cat');
  await page.click('#tour-start');
  await settle(page);
  const seen = [];
  for (let k = 0; k < 4; k++) {
    const stop = await page.evaluate(() => ({
      count: document.getElementById('tour-count').textContent,
      text: document.getElementById('tour-text').textContent,
      title: document.getElementById('explain-title').textContent,
      marked: [...document.querySelectorAll('.cell.tour')].map((c) => c.dataset.matrix),
    }));
    seen.push(stop);
    assert.equal(stop.count, `Stop ${k + 1} of 4:`);
    assert.ok(stop.marked.length > 0, `stop ${k + 1} marks cells`);
    await shot(page, `tour-stop-${k + 1}`);
    if (k < 3) await page.click('#tour-next');
    await settle(page);
  }
  assert.match(seen[0].text, /mostly “small word”/);
  assert.match(seen[1].text, /“cat” \(2\) has the largest key number there: K\[2\]\[1\] = 1\.500/);
  const a = await cell(page, 'A', 4, 1).textContent();
  assert.match(seen[2].text, new RegExp(`gives ${a} of its attention to “cat” \\(2\\): about half`));
  assert.match(seen[3].text, /largest component is “thing”, 0\.528/);
  assert.equal(seen[2].title, `A[5][2] = ${a}`, 'the explanation shows the stop’s cell');
  assert.equal(await page.evaluate(() => __explorer.state.follow), 4, 'the tour follows the last “the”');
  await page.click('#tour-back');
  await page.keyboard.press('Escape');
  await settle(page);
  assert.ok(await page.locator('#tour').isHidden());
  await page.click('#tour-start');
  await page.click('#tour-skip');
  await settle(page);
  assert.ok(await page.locator('#tour').isHidden());
  assert.equal(await page.locator('.cell.tour').count(), 0);
  await context.close();
});

test('the leak check: with the mask, editing the last token leaves rows 1 to 4 of O exactly as they were; without it, they change by what the core says', async () => {
  const { page, context } = await open(env, '?preset=cat');
  await page.click('#leak-toggle');
  await settle(page);
  assert.match(await page.locator('#leak-text').textContent(), /Now change a later token/);
  const before = await cellTexts(page, 'O');
  await cell(page, 'X', 4, 0).click();
  await page.fill('#edit-value', '2');
  await settle(page);
  const text = await page.locator('#leak-text').textContent();
  assert.match(text, /^You changed “the” \(5\)\. Rows 1 to 4 of O are unchanged: every entry is exactly as before, a difference of 0, because the causal mask/);
  const rows = await page.locator('#leak-rows tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  for (let i = 0; i < 4; i++) assert.deepEqual(rows[i].slice(1), ['0 (exactly)', 'unchanged'], `row ${i + 1}`);
  assert.equal(rows[4][2], 'changed');
  assert.deepEqual((await cellTexts(page, 'O')).slice(0, 4), before.slice(0, 4));
  assert.ok(await cell(page, 'O', 0, 0).evaluate((e) => e.classList.contains('same')));
  // the same edit without the mask: earlier rows move, by exactly what the core gives
  await page.click('#causal');
  await settle(page);
  const base = parseConfig({ ...PRESETS.cat.config, causal: false });
  const edited = parseConfig({ ...PRESETS.cat.config, causal: false, X: PRESETS.cat.config.X.map((r, i) => (i === 4 ? [2, ...r.slice(1)] : r)) });
  const o0 = attn.forward(forwardArgs(base)).O, o1 = attn.forward(forwardArgs(edited)).O;
  const diff = (i) => Math.max(...[0, 1, 2, 3].map((c) => Math.abs(o1[i * 4 + c] - o0[i * 4 + c])));
  const after = await page.locator('#leak-rows tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  for (let i = 0; i < 4; i++) {
    assert.equal(after[i][2], 'changed', `row ${i + 1} without the mask`);
    assert.equal(after[i][1], fmt(diff(i)), `row ${i + 1}: by how much`);
  }
  assert.match(await page.locator('#leak-text').textContent(), /without the causal mask, earlier tokens look at the later one, so its change leaks backwards/);
  await shot(page, 'leak-check-mask-off', { fullPage: true });
  await context.close();
});

test('keyboard: a digit typed on a cell, then Enter, is the cell’s new value; every field keeps its number and the focus after Enter', async () => {
  const { page, context, log } = await open(env, '?preset=cat');
  const x = (i, j) => page.evaluate(([i, j]) => __explorer.state.config.X[i][j], [i, j]);
  const focused = () => page.evaluate(() => document.activeElement.id || document.activeElement.getAttribute('aria-label'));
  // one digit, then Enter (the lost edit: the field showed 5 but X kept its 0)
  await cell(page, 'X', 0, 0).focus();
  await page.keyboard.press('5');
  await settle(page);
  assert.equal(await focused(), 'edit-value');
  assert.equal(await x(0, 0), 5, 'the typed digit is the value at once');
  await page.keyboard.press('Enter');
  await settle(page);
  assert.equal(await x(0, 0), 5);
  assert.equal(await cell(page, 'X', 0, 0).textContent(), fmt(5));
  assert.match(await focused(), /^X, token 1 “The”, feature 1 “thing”: 5\.000$/, 'Enter returns to the cell');
  // two digits, then Enter; then the arrows move on from that cell and do not step
  await page.keyboard.press('7');
  await page.keyboard.press('2');
  await page.keyboard.press('Enter');
  await settle(page);
  assert.equal(await x(0, 0), 72);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  assert.match(await focused(), /^X, token 2 “cat”, feature 2 “action”: /);
  assert.equal(await page.evaluate(() => __explorer.state.step), null, 'arrows in a matrix do not step');
  // “.”, then a digit, then Enter: 0.5
  await page.keyboard.press('.');
  await page.keyboard.press('5');
  await page.keyboard.press('Enter');
  await settle(page);
  assert.equal(await x(1, 1), 0.5);
  // “-” starts a negative number as a digit starts a number (it used to nudge down by 0.1, and
  // the digits after it then gave 0.5 here, not −0.5); “-” alone is no number yet: X keeps 0.5
  await page.keyboard.press('-');
  await settle(page);
  assert.equal(await focused(), 'edit-value');
  assert.equal(await page.locator('#edit-value').inputValue(), '-');
  assert.equal(await x(1, 1), 0.5);
  await page.keyboard.type('0.5');
  await page.keyboard.press('Enter');
  await settle(page);
  assert.equal(await x(1, 1), -0.5);
  // _ and + (or =) nudge down and up by 0.1, the cell keeping the focus
  await page.keyboard.press('_');
  await settle(page);
  assert.equal(await x(1, 1), -0.6);
  await page.keyboard.press('+');
  await page.keyboard.press('=');
  await settle(page);
  assert.equal(await x(1, 1), -0.4);
  assert.match(await focused(), /^X, token 2 “cat”, feature 2 “action”: /);
  assert.match(await page.locator('.note.keys').textContent(), /“-” first for a negative one .*\+ and _ nudge it up and down by 0\.1/);
  // Enter (or F2) opens the editor on the value; a digit replaces it; Escape leaves it as typed
  await page.keyboard.press('Enter');
  await page.keyboard.press('3');
  await page.keyboard.press('Escape');
  await settle(page);
  assert.equal(await x(1, 1), 3);
  assert.match(await focused(), /^X, token 2 “cat”, feature 2 “action”: /);
  // a digit in a token's name field, then Enter: the name is the digit and the head redraws with it
  await page.locator('[data-token="2"]').fill('');
  await page.locator('[data-token="2"]').press('4');
  await page.keyboard.press('Enter');
  await settle(page);
  assert.equal(await page.evaluate(() => __explorer.state.config.tokens[2]), '4');
  assert.equal(await focused(), 'Token 3');
  assert.equal(await page.locator('#tokens [data-follow="2"]').textContent(), '4');
  assert.deepEqual(log.errors, []);
  await context.close();
  // past 32 tokens the chips become a number field: a digit then Enter follows that token
  const tokens = Array.from({ length: 40 }, (_, i) => 't' + (i + 1));
  const big = { tokens, X: tokens.map((_, i) => [i % 3, 1]), Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv: [[1, 0], [0, 1]] };
  const many = await open(env, '#config=' + encodeURIComponent(JSON.stringify(big)));
  await many.page.locator('#follow-number').focus();
  await many.page.keyboard.press('7');
  await many.page.keyboard.press('Enter');
  await settle(many.page);
  assert.equal(await many.page.evaluate(() => __explorer.state.follow), 6);
  assert.equal(await many.page.evaluate(() => [document.activeElement.id, __explorer.state.step]).then((r) => r.join()), 'follow-number,');
  await many.context.close();
});
