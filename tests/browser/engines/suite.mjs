// The cross-engine suite: the smallest set of checks that covers what differs between browser
// engines, written once against the driver interface (driver.mjs) and run in Chromium, Firefox
// and WebKit by ../engine-<name>.test.mjs. Chromium also runs the full browser suite (../*.test.mjs);
// here the other two engines must show the same behaviour: the stylesheets, the explorer,
// training, the labs, the element (two instances under a strict CSP, dist/ and a part from file://), the
// exports and the Wasm build. Everything is real input (pointer and keys from the engine's own input system) on
// user-visible state: data-matrix/data-row/data-col cells, html[data-ready], the element's
// ready flag and events, the explanation, the narration. Deterministic: seeded inputs, every
// wait is for a condition, no timing asserts.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { launchEngine, PROBE } from './driver.mjs';
import { ROOT } from '../helpers.mjs';
import { CSP, pageWriter } from '../embed-helpers.mjs';
import { startServer } from '../../../tools/serve.mjs';
import { loadAttention } from '../../../web/core/attention.js';
import { parseConfig, forwardArgs } from '../../../web/blocks/config.js';
import { PRESETS, syntheticConfig } from '../../../web/blocks/presets.js';
import { fmt, fmtShort } from '../../../web/blocks/format.js';
import { LAB_MODES } from '../../../web/labs/index.js';

const MATS = ['X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A', 'O'];
const LABS = LAB_MODES; // every lab of web/labs/catalog.js
// A module with one function returning i8x16.splat(0): valid only where the engine has Wasm SIMD
// (written here independently of the product's own probe in web/core/attention.js).
const SIMD_MODULE = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11];

/** Every drawn cell of each matrix under `root` (a selector through shadow roots, or null: the page) as text. */
function cellTexts(page, root = null) {
  return page.eval(([root, mats], find) => {
    const at = root ? find(root).shadowRoot : document;
    const out = {};
    for (const m of mats) {
      const rows = [];
      for (const c of at.querySelectorAll(`[data-matrix="${m}"][data-row]`)) (rows[+c.dataset.row] ||= [])[+c.dataset.col] = c.textContent;
      if (rows.length) out[m] = rows;
    }
    return out;
  }, [root, MATS]);
}

/** What the page must show for `config`: every matrix as the core computes it (in Node), formatted as the page formats it. */
function expected(attn, config) {
  const r = attn.forward(forwardArgs(parseConfig(config)));
  const out = {};
  for (const m of MATS) {
    if (!r[m]) continue;
    const cols = { X: r.d, Wq: r.dk, Wk: r.dk, Wv: r.dv, Q: r.dk, K: r.dk, V: r.dv, O: r.dv }[m] ?? r.m;
    const rows = r[m].length / cols;
    out[m] = Array.from({ length: rows }, (_, i) =>
      Array.from({ length: cols }, (_, j) => {
        const k = i * cols + j;
        return m === 'S' && r.M[k] === -Infinity ? fmt(-Infinity) : m === 'M' ? fmtShort(r.M[k]) : fmt(r[m][k]);
      }),
    );
  }
  return { r, shown: out };
}

const pngSize = (bytes) => {
  assert.deepEqual([...bytes.slice(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'a PNG signature');
  const dv = new DataView(Uint8Array.from(bytes).buffer);
  return [dv.getUint32(16), dv.getUint32(20)];
};

/**
 * The style rules of a CSS file as [{ at, selector, decls: [[property, value]] }] in order (at:
 * the enclosing @media or @supports, or null). A small reader for the project's own plain CSS:
 * comments, rules and conditional groups; other at-rules (@keyframes, @font-face) are passed over.
 */
function styleRules(text) {
  const out = [];
  const walk = (src, at) => {
    for (let i = 0; ; ) {
      const open = src.indexOf('{', i);
      if (open < 0) return;
      let depth = 1, j = open + 1;
      for (; depth && j < src.length; j++) depth += src[j] === '{' ? 1 : src[j] === '}' ? -1 : 0;
      const head = src.slice(i, open).trim(), body = src.slice(open + 1, j - 1);
      if (/^@(media|supports)\b/.test(head)) walk(body, head);
      else if (!head.startsWith('@')) {
        const decls = body.split(';').map((d) => d.trim()).filter(Boolean);
        out.push({ at, selector: head, decls: decls.map((d) => [d.slice(0, d.indexOf(':')).trim().toLowerCase(), d.slice(d.indexOf(':') + 1).replace(/!important\s*$/, '').trim()]) });
      }
      i = j;
    }
  };
  walk(text.replace(/\/\*[\s\S]*?\*\//g, ''), null);
  return out;
}
const CSS_FILES = readdirSync(ROOT + 'web', { recursive: true }).filter((f) => f.endsWith('.css')).sort();

/** Runs the suite in `engine` (one of driver.mjs ENGINES). */
export function crossEngineSuite(engine) {
  describe(`cross-engine suite in ${engine}`, () => {
    let browser, server, attn;
    const writePage = pageWriter('engines');
    // The suite's own pages load the probe as their first script, before the element's module.
    writeFileSync(ROOT + 'tests/out/engines/probe.js', PROBE + ';\n');
    const elementPage = (name, body) => writePage(name, '<script src="probe.js"></script>\n' + body);
    const ELEMENT = { ready: 'attention-explorer[data-ready]' };

    before(async () => {
      server = await startServer({ root: ROOT, port: 0, headers: { 'content-security-policy': CSP } });
      attn = await loadAttention();
      browser = await launchEngine(engine);
      console.log(`# ${engine} ${browser.version}`);
    });
    after(async () => {
      await browser?.close();
      await server?.close();
    });

    /** Opens `path` on the strict-CSP server (or a file:// URL), runs fn(page), checks the page stayed clean, closes it. */
    async function withPage(path, fn, opts) {
      const page = await browser.open(path.startsWith('file:') ? path : server.url + path, opts);
      try {
        await fn(page);
        assert.deepEqual(await page.problems(), { errors: [], violations: [] }, 'no error, no CSP violation');
      } catch (e) {
        await page.shot('failed-' + e.message.slice(0, 40).replace(/\W+/g, '-')).catch(() => {});
        throw e;
      } finally {
        await page.close();
      }
    }
    const cell = (m, i, j, root = '') => `${root ? root + ' >>> ' : ''}[data-matrix="${m}"][data-row="${i}"][data-col="${j}"]`;
    const explanation = (page, root = '') => page.text(`${root ? root + ' >>> ' : ''}[data-role="explanation"]`);

    test('explorer: the cat preset shows every number the core computes, under the strict CSP; step 6 scrolls O into view', () =>
      withPage('web/index.html?preset=cat', async (page) => {
        const want = expected(attn, PRESETS.cat.config).shown;
        assert.deepEqual(await cellTexts(page), want);
        assert.equal(Object.values(want).flat(2).length, 223);
        // Step 6 brings the matrix it makes, O, into view (scrollIntoView, smooth where motion is
        // allowed); the window is 480 px high, so that O starts below the fold.
        const below = await page.eval(() => document.querySelector('[data-panel="O"]').getBoundingClientRect().bottom - innerHeight);
        assert.ok(below > 0, `O starts below the fold (${below} px)`);
        await page.click('[data-step="mix"]');
        await page.waitFor(() => /^6\. Mix/.test(document.getElementById('narration').textContent), undefined, 'the narration of step 6');
        await page.waitFor(() => {
          const r = document.querySelector('[data-panel="O"]').getBoundingClientRect();
          return r.top >= 0 && r.bottom <= innerHeight + 1; // + 1: sub-pixel layout (WebKit ends a third of a pixel past the fold)
        }, undefined, 'the O panel scrolled into view');
      }, { height: 480 }));

    test(`stylesheets: the engine keeps every rule and declaration of ${CSS_FILES.join(', ')}`, () =>
      withPage('web/index.html?preset=cat', async (page) => {
        for (const file of CSS_FILES) {
          const text = readFileSync(ROOT + 'web/' + file, 'utf8');
          // A rule whose selector the engine's parser does not know, or a declaration it does not
          // support (CSS.supports(property, value)), is dropped, silently, from that engine's
          // page: say which.
          const lost = await page.eval(([text, rules]) => {
            const sheet = new CSSStyleSheet();
            sheet.replaceSync(text);
            const kept = [];
            const walk = (list) => {
              for (const r of list) {
                if (r.cssRules && r.conditionText !== undefined) walk(r.cssRules);
                else if (r.selectorText !== undefined) kept.push({ selector: r.selectorText });
              }
            };
            walk(sheet.cssRules);
            const key = (s) => s.replace(/[\s"']/g, '').toLowerCase();
            const lost = [];
            let k = 0;
            for (const rule of rules) {
              const got = kept[k];
              if (!got || key(got.selector) !== key(rule.selector)) {
                lost.push(`the rule ${rule.selector}`);
                continue;
              }
              k++;
              const unsupported = rule.at && rule.at.startsWith('@supports') && !CSS.supports(rule.at.slice(9).trim());
              if (unsupported) continue; // a feature test that says no: its declarations may well be unknown
              for (const [p, v] of rule.decls) {
                // A vendor-prefixed declaration is for the engines that know it; an unprefixed
                // one is covered where the same rule has a prefixed form the engine knows.
                if (/^-[a-z]/.test(p)) continue;
                const prefixed = rule.decls.some(([q, w]) => q.replace(/^-[a-z]+-/, '') === p && q !== p && CSS.supports(q, w));
                if (!CSS.supports(p, v) && !prefixed) lost.push(`${rule.selector} { ${p}: ${v} }${rule.at ? ' in ' + rule.at : ''}`);
              }
            }
            return lost;
          }, [text, styleRules(text)]);
          assert.deepEqual(lost, [], `${file}: ${engine} drops ${lost.join('; ')}`);
        }
      }));

    test('explorer: hovering A[5][2] explains it with its own number, and a move by arrow keys shows and explains the focused cell', () =>
      withPage('web/index.html?preset=cat', async (page) => {
        const a = fmt(expected(attn, PRESETS.cat.config).r.A[4 * 5 + 1]);
        assert.equal(a, '0.528');
        await page.hover(cell('A', 4, 1));
        const text = await page.waitFor((a) => {
          const t = document.querySelector('[data-role="explanation"]').textContent;
          return t.includes('= ' + a + '\n') && t; // the result line, then the line on the max subtraction
        }, a, 'the explanation of A[5][2]');
        assert.match(text, /softmax of row 5 of S/);
        assert.ok(await page.eval((sel, find) => find(sel).classList.contains('src'), cell('S', 4, 3)), 'the scores that fed it light up');

        // A click on a cell, then the arrow keys: the focus moves, the learner sees where it is.
        await page.click(cell('O', 0, 0));
        await page.hover('#explain-title'); // the pointer leaves the matrices: the explanation follows the focus
        await page.press('ArrowDown', 'ArrowRight');
        await page.settle();
        const focused = await page.eval(() => {
          const e = document.activeElement;
          return [e.dataset.matrix, e.dataset.row, e.dataset.col, e.getAttribute('aria-label'), e.matches(':focus-visible')];
        });
        assert.deepEqual(focused, ['O', '1', '1', `O, token 2 “cat”, value dim 2 “action”: ${fmt(expected(attn, PRESETS.cat.config).r.O[1 * 4 + 1])}`, true]);
        assert.match(await explanation(page), /^Dimension 2 .* of “cat” \(2\)/);
      }));

    // 901-1279 px (style.css): the words above the matrices are tight enough that at 1024×768 the
    // whole head fits with a token followed too, and opening the weights scrolls all eleven matrices
    // into view. Line heights and text widths differ between engines: each must fit.
    test('explorer at 1024×768: the header on one line, every matrix on the first screen with a token followed, all eleven once the weights open from the keyboard', () =>
      withPage('web/index.html?preset=cat', async (page) => {
        const off = () => page.eval((mats) => mats.flatMap((m) => {
          const e = document.querySelector(`[data-panel="${m}"]`);
          if (!e || !e.getClientRects().length) return [];
          const b = e.getBoundingClientRect();
          return b.top >= 0 && b.bottom <= innerHeight + 1 && b.left >= 0 && b.right <= innerWidth ? [] : [`${m} at ${Math.round(b.left)},${Math.round(b.top)}-${Math.round(b.right)},${Math.round(b.bottom)} in ${innerWidth}×${innerHeight}`];
        }), MATS);
        assert.deepEqual(await off(), [], 'every matrix on the first screen');
        const bottoms = await page.eval(() => ['header h1', 'header nav'].map((q) => Math.round(document.querySelector(q).getBoundingClientRect().bottom)));
        assert.ok(Math.abs(bottoms[0] - bottoms[1]) <= 8, `the title and the modes on one line: bottoms ${bottoms}`);
        await page.click('#tokens button:last-child');
        await page.waitFor(() => /^“the” \(5\) gives /.test(document.getElementById('follow-text').textContent), undefined, 'the follow sentence');
        await page.eval(() => scrollTo(0, 0));
        await page.settle();
        assert.deepEqual(await off(), [], 'with a token followed');
        await page.eval(() => document.getElementById('weights-toggle').focus());
        await page.press('Enter');
        await page.waitFor(() => !document.getElementById('weights-row').hidden, undefined, 'the weights to open');
        await page.settle();
        assert.deepEqual(await off(), [], 'with the weights open');
        await page.shot('weights-1024x768');
      }, { width: 1024, height: 768 }));

    // A matrix of more than 24 rows is one canvas: a click focuses the canvas without a focus
    // ring in every engine (:focus-visible), and Firefox keeps it without one when keys follow
    // (focus() on the element that has the focus changes nothing there; Chromium's heuristic
    // rings it at the first key). The learner needs the cell marked, not the canvas: it is.
    test('explorer: a clicked cell of a canvas (40 tokens) is outlined, and the outline follows the arrow keys', () => {
      const config = syntheticConfig(40, 8);
      const A = expected(attn, config).r.A;
      return withPage('web/index.html#config=' + encodeURIComponent(JSON.stringify(config)), async (page) => {
        const canvas = 'canvas[data-matrix-canvas="A"]';
        const { x, y } = await page.point(canvas);
        await page.drag(x + 6, y + 6, x + 6, y + 6); // a click inside row 21, column 21 (13 px cells)
        await page.hover('#explain-title'); // the pointer leaves: the marks and words follow the selection
        await page.settle();
        const marks = () => page.eval((sel, find) => {
          const c = find(sel), px = c.getBoundingClientRect().width / 40;
          return [...c.parentElement.querySelectorAll('.hl-cur, .hl-cursor')].filter((d) => !d.hidden).map((d) => {
            const s = getComputedStyle(d);
            return `${d.classList[1]} at row ${Math.round(d.offsetTop / px) + 1}, column ${Math.round(d.offsetLeft / px) + 1}: ${s.outlineStyle} ${s.outlineWidth}`;
          }).sort();
        }, canvas);
        assert.deepEqual(await marks(), ['hl-cur at row 21, column 21: solid 2px', 'hl-cursor at row 21, column 21: solid 2px']);
        assert.equal(await page.eval((sel, find) => document.activeElement === find(sel), canvas), true, 'the canvas has the focus');
        await page.press('ArrowRight');
        await page.settle();
        assert.deepEqual(await marks(), ['hl-cur at row 21, column 22: solid 2px', 'hl-cursor at row 21, column 22: solid 2px']);
        assert.equal(await page.text('#explain-title'), `A[21][22] = ${fmt(A[20 * 40 + 21])}`);
      });
    });

    test('explorer: a value typed into a cell and one dragged recompute every matrix; Copy link copies a link that reopens the same view', async () => {
      const config = structuredClone(PRESETS.cat.config);
      config.X[4][0] = 2.5;
      config.Wq[2][0] = 2.5; // 2, dragged 50 px right at 0.01 a pixel
      const want = expected(attn, config).shown;
      let link;
      await withPage('web/index.html?preset=cat&step=softmax&follow=4', async (page) => {
        await page.click(cell('X', 4, 0));
        await page.type('2'); // a digit on an input cell opens the editor with it
        await page.waitFor(() => document.activeElement && document.activeElement.id === 'edit-value', undefined, 'the value editor to take the focus');
        await page.type('.5');
        await page.press('Enter');
        await page.settle();
        assert.equal(await page.text(cell('X', 4, 0)), '2.500');
        // A drag across an input cell nudges it, and selects no text on the way (the learned
        // weights open from their strip first).
        await page.click('#weights-toggle');
        await page.waitFor(() => !document.getElementById('weights-row').hidden, undefined, 'the weights to open');
        const { x, y } = await page.point(cell('Wq', 2, 0));
        await page.drag(x, y, x + 50, y);
        await page.settle();
        assert.equal(await page.text(cell('Wq', 2, 0)), '2.500');
        assert.equal(await page.eval(() => String(getSelection())), '', 'no text selected by the drag');
        const shown = await cellTexts(page);
        for (const m of ['X', 'Wq', 'Q', 'K', 'V', 'A', 'O']) assert.deepEqual(shown[m], want[m], m);
        // "Copy link" puts the page's address on the clipboard: paste it (the real clipboard,
        // with the platform's keys) into a text box of the page to read it back.
        await page.click('#copy-link');
        assert.equal(await page.waitFor(() => document.getElementById('copy-link').textContent !== 'Copy link' && document.getElementById('copy-link').textContent, undefined, 'Copy link to answer'), 'Link copied');
        await page.click('details.config summary');
        await page.click('#config-text');
        await page.press('Control+a', 'Control+v');
        link = await page.waitFor(() => /^http/.test(document.getElementById('config-text').value) && document.getElementById('config-text').value, undefined, 'the link pasted from the clipboard');
        assert.equal(link, await page.url());
        assert.match(link, /#config=.*&step=softmax&follow=4&cell=Wq\.2\.0$/);
      });
      await withPage(link.slice(server.url.length), async (page) => {
        const shown = await cellTexts(page);
        for (const m of ['X', 'Wq', 'Q', 'K', 'V', 'A', 'O']) assert.deepEqual(shown[m], want[m], m);
        assert.match(await page.text('#narration'), /^5\. Softmax/);
        assert.match(await page.text('#follow-text'), /^“the” \(5\) gives /);
        assert.match(await page.text('#explain-title'), /^Wq\[3\]\[1\] = 2\.500/);
      });
    });

    // Pauses from the keyboard, as a learner can: the focused button takes Enter wherever the
    // layout has moved while training. A driver's input can return before the page has handled
    // it, or be lost while the page trains at full speed on a busy machine (WebKitGTK on a
    // 2-core CI machine lost a click): the button saying it is paused is the page's own word
    // that the pause happened, and Enter is pressed again only while it still says playing.
    async function pauseTraining(page) {
      const paused = () => page.eval(() => document.getElementById('train-run').getAttribute('aria-pressed') === 'false');
      for (let tries = 1; !(await paused()); tries++) {
        await page.eval(() => document.getElementById('train-run').focus());
        await page.press('Enter');
        try {
          await page.waitFor(() => document.getElementById('train-run').getAttribute('aria-pressed') === 'false', undefined, 'the Train button to show the pause', 10000);
        } catch (e) {
          if (tries === 3) throw e;
        }
      }
    }

    test('training: Single step and Train take steps, and the loss shown falls', () =>
      withPage('web/index.html?mode=train&task=find-the-noun&seed=1&speed=20', async (page) => {
        const steps = () => page.eval(() => Number(document.getElementById('train-steps').textContent.replace('Step ', '')));
        const loss = () => page.eval(() => Number(document.getElementById('train-loss').textContent.replace('loss ', '')));
        const before = await cellTexts(page);
        for (let k = 0; k < 3; k++) await page.click('#train-step');
        await page.waitFor(() => document.getElementById('train-steps').textContent === 'Step 3', undefined, 'step 3');
        const early = await loss();
        assert.ok(early > 1, `the untrained loss is about ln(10) per guess, shown ${early}`);
        await page.click('#train-run');
        await page.waitFor(() => Number(document.getElementById('train-steps').textContent.replace('Step ', '')) >= 300, undefined, 'step 300');
        await pauseTraining(page);
        await page.settle();
        const n = await steps();
        const late = await loss();
        assert.ok(late < early / 10, `the loss fell from ${early} to ${late} in ${n} steps`);
        assert.notDeepEqual((await cellTexts(page)).A, before.A, 'A changed');
        assert.equal(await steps(), n, 'Train pauses');
      }));

    test('labs: each lab renders its first figure', () =>
      withPage(`web/labs.html?mode=${LABS[0]}`, async (page) => {
        for (const lab of LABS) {
          if (lab !== LABS[0]) await page.goto(`${server.url}web/labs.html?mode=${lab}`);
          const fig = await page.waitFor((lab) => {
            const el = document.querySelector(`[data-lab="${lab}"]`)?.querySelector('figure, table');
            if (!el) return null;
            const box = el.getBoundingClientRect();
            const numbers = [...el.querySelectorAll('[data-row], td')].map((c) => c.textContent).filter((t) => /^[−-]?(\d|∞|NaN|\?)/.test(t.trim()));
            const marks = [...el.querySelectorAll('svg rect, svg path')].filter((r) => r.getBBox().width > 0 && r.getBBox().height > 0);
            return { w: box.width, h: box.height, numbers: numbers.length, marks: marks.length };
          }, lab, `the first figure of ${lab}`);
          assert.ok(fig.w > 100 && fig.h > 50, `${lab}: the figure has a size (${fig.w}×${fig.h})`);
          assert.ok(fig.numbers + fig.marks > 0, `${lab}: the figure shows numbers or marks (${JSON.stringify(fig)})`);
        }
      }));

    test('element: two instances under the strict CSP stay independent; a click and typing reach inside each', () =>
      withPage(
        elementPage('two', '<attention-explorer id="one" preset="cat"></attention-explorer>\n<attention-explorer id="two" preset="worked-example" step="mix"></attention-explorer>'),
        async (page) => {
          await page.waitFor(() => [...document.querySelectorAll('attention-explorer')].every((e) => e.dataset.ready), undefined, 'both elements ready');
          await page.eval(() => {
            window.__events = [];
            for (const e of document.querySelectorAll('attention-explorer')) e.addEventListener('explorer-step', (ev) => window.__events.push([e.id, ev.detail.step]));
          });
          assert.deepEqual((await cellTexts(page, '#one')).A, expected(attn, PRESETS.cat.config).shown.A);
          assert.deepEqual((await cellTexts(page, '#two')).A, [['0.401', '0.198', '0.401'], ['0.198', '0.401', '0.401'], ['0.248', '0.248', '0.503']]);
          await page.click('#one >>> [data-step="score"]');
          await page.waitFor(() => document.getElementById('one').step === 'score', undefined, 'the first element at step score');
          await page.click(cell('Q', 0, 0, '#two'));
          await page.type('2.5');
          await page.press('Enter');
          await page.settle();
          assert.deepEqual(await page.eval(() => [one.step, two.step, one.config.X[0][0], two.config.Q[0][0], window.__events]), ['score', 'mix', 0, 2.5, [['one', 'score']]]);
          assert.equal(await page.text(cell('Q', 0, 0, '#two')), '2.500');
        },
        ELEMENT,
      ));

    // Issue 28, point 1: whatever a host sets, whenever, counts. before.js runs before the element
    // is defined (a property set then must survive the upgrade); after.js right after (the module
    // defined it): attributes and properties set in the task that inserted each element.
    writeFileSync(ROOT + 'tests/out/engines/lifecycle-before.js', [
      `window.__life = {}; window.__lifeErrors = {};`,
      `document.addEventListener('explorer-error', (e) => (window.__lifeErrors[e.target.id] ||= []).push(e.detail.message));`,
      `const early = document.body.appendChild(document.createElement('attention-explorer'));`,
      `early.id = 'early';`,
      `early.config = ${JSON.stringify(PRESETS['worked-example'].config)};`,
    ].join('\n') + '\n');
    writeFileSync(ROOT + 'tests/out/engines/worked.json', JSON.stringify(PRESETS['worked-example'].config));
    writeFileSync(ROOT + 'tests/out/engines/lifecycle-after.js', [
      `import '/web/element/attention-explorer.js';`,
      `const WORKED = ${JSON.stringify(JSON.stringify(PRESETS['worked-example'].config))};`,
      `const CAT = ${JSON.stringify(JSON.stringify(PRESETS.cat.config))};`,
      `const outcome = (el) => el.ready.then(() => 'resolved', (e) => 'rejected: ' + e.message);`,
      `const make = (id, set) => { const el = document.body.appendChild(document.createElement('attention-explorer')); el.id = id; set(el); window.__life[id] = outcome(el); return el; };`,
      `window.__life.early = outcome(document.getElementById('early'));`,
      `make('attrs', (el) => { el.setAttribute('preset', 'cat'); el.setAttribute('follow', '2'); el.setAttribute('step', 'softmax'); });`,
      `make('prop', (el) => { el.config = WORKED; el.setAttribute('follow', '1'); });`,
      `make('attr-then-prop', (el) => { el.setAttribute('config', CAT); el.config = WORKED; });`,
      `make('prop-then-attr', (el) => { el.config = WORKED; el.setAttribute('config', CAT); });`,
      `make('bad-follow', (el) => el.setAttribute('follow', '9'));`,
      `make('train', (el) => { el.setAttribute('mode', 'train'); el.setAttribute('follow', '2'); });`,
      `make('src', (el) => el.setAttribute('src', 'worked.json'));`,
      `try { make('bad-config', (el) => { el.config = '{ not json'; }); } catch (e) { window.__badEarly = e.message; }`,
    ].join('\n') + '\n');

    test('element: attributes and properties set at once after inserting it (or before it is defined) are applied, in order, with the errors they give later', () =>
      withPage(
        elementPage('lifecycle', '<script src="lifecycle-before.js"></script>\n<script type="module" src="lifecycle-after.js"></script>'),
        async (page) => {
          const ids = ['early', 'attrs', 'prop', 'attr-then-prop', 'prop-then-attr', 'bad-follow', 'train', 'src'];
          const settled = await page.waitFor(async (ids) => {
            if (!window.__life || ids.some((id) => !(id in window.__life))) return null;
            return Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await window.__life[id]])));
          }, ids, 'every element settled');
          const worked = [['0.401', '0.198', '0.401'], ['0.198', '0.401', '0.401'], ['0.248', '0.248', '0.503']];
          const catA = expected(attn, PRESETS.cat.config).shown.A;
          // one that ends in an error says the same as when it is set later (checked just below)
          const later = (id, fn) => page.eval(fn, id);
          assert.deepEqual(Object.fromEntries(Object.entries(settled).filter(([id]) => id !== 'bad-follow')),
            Object.fromEntries(ids.filter((id) => id !== 'bad-follow').map((id) => [id, 'resolved'])), 'each ready resolves');
          assert.deepEqual((await cellTexts(page, '#early')).A, worked, 'a config property set before the element was defined survives the upgrade');
          assert.deepEqual(await page.eval(() => [attrs.follow, attrs.step, attrs.preset]), [2, 'softmax', 'cat'], 'follow, step and preset set right after append');
          assert.deepEqual((await cellTexts(page, '#attrs')).A, catA);
          assert.deepEqual([(await cellTexts(page, '#prop')).A, await page.eval(() => document.getElementById('prop').follow)], [worked, 1], 'a config property and a follow set right after append');
          assert.deepEqual((await cellTexts(page, '#attr-then-prop')).A, worked, 'the property set after the attribute wins');
          assert.deepEqual((await cellTexts(page, '#prop-then-attr')).A, catA, 'the attribute set after the property wins');
          assert.equal(await page.eval(() => document.getElementById('train').follow), 2, 'train mode takes a follow set right after append');
          assert.deepEqual((await cellTexts(page, '#src')).A, worked, 'a src set right after append is loaded');
          // The same errors as later: a follow out of range, and a config that is no JSON.
          const laterFollow = await later('attrs', (id) => new Promise((ok) => {
            const el = document.getElementById(id);
            el.addEventListener('explorer-error', (e) => ok(e.detail.message), { once: true });
            el.setAttribute('follow', '9');
          }));
          assert.match(laterFollow, /follow="9".*5 tokens/, 'a follow past the head, set later, is said');
          assert.equal(settled['bad-follow'], 'rejected: ' + laterFollow, 'set at once, ready rejects with the same message');
          const laterConfig = await later('prop', (id) => { try { document.getElementById(id).config = '{ not json'; } catch (e) { return e.message; } return null; });
          assert.ok(laterConfig, 'a config that is no JSON throws when set later');
          assert.equal(await page.eval(() => window.__badEarly), laterConfig, 'and throws the same error when set at once');
          assert.deepEqual(await page.eval(() => Object.keys(window.__lifeErrors)), ['bad-follow', 'attrs'], 'no other element said an error');
        },
        { ready: null },
      ));

    // Issue 28, point 2: a key the element acts on never reaches the page (a slide deck would
    // turn the slide); a key it does not use still does. Each press is judged by what it did:
    // the element's state or focus changed, or it pressed a button (a click), or neither.
    writeFileSync(ROOT + 'tests/out/engines/keys-host.js',
      `window.__seen = []; window.__clicks = 0;\n` +
      `for (const t of ['keydown', 'keyup']) document.addEventListener(t, (e) => window.__seen.push(t + ' ' + e.key));\n` +
      `document.addEventListener('click', () => window.__clicks++);\n`);
    test('element: the compact layout, asked for and chosen by a short box, fits a 960 × 700 slide', () =>
      withPage(
        writePage('compact', '<script src="probe.js"></script>\n<attention-explorer id="slide" preset="cat" follow="3" controls="steps follow explain" layout="compact"></attention-explorer>\n<attention-explorer id="short" preset="worked-example"></attention-explorer>',
          { css: 'body { margin: 0 } #short { display: block; height: 480px; overflow: auto }' }),
        async (page) => {
          const got = await page.waitFor(() => {
            const slide = document.getElementById('slide'), short = document.getElementById('short');
            if (!slide.dataset.ready || !short.dataset.ready || short.dataset.layout !== 'compact') return null;
            const r = slide.shadowRoot, shown = (sel) => getComputedStyle(r.querySelector(sel)).display !== 'none';
            return { layout: slide.dataset.layout, lead: shown('.lead'), bar: shown('.bar'), about: shown('.about'), height: Math.round(slide.getBoundingClientRect().height) };
          }, null, 'both elements compact');
          assert.deepEqual({ ...got, height: got.height <= 600 }, { layout: 'compact', lead: false, bar: false, about: false, height: true }, `the compact cat head is ${got.height} px tall`);
        },
        { width: 960, height: 700, ...ELEMENT },
      ));

    test('geometry: ↑ on k₂’s tip and a drag of q₃ edit the worked example; S, A and O are the core’s for the edited head; hovering k₁ explains its angle', () =>
      withPage('web/index.html?preset=worked-example&geometry=on&follow=2', async (page) => {
        const WE = PRESETS['worked-example'].config;
        await page.waitFor((sel, find) => Boolean(find(sel)), '.geo-handle', 'the geometry view, loaded on first show');
        await page.eval((sel, find) => find(sel).focus(), '.geo-handle[data-kind="k"][data-j="1"]');
        await page.press(...Array(10).fill('ArrowUp'));
        await page.settle();
        let want = expected(attn, { ...WE, K: [[1, 0], [0, 2], [1, 1]] }).shown, got = await cellTexts(page);
        for (const m of ['K', 'S', 'A', 'O']) assert.deepEqual(got[m], want[m], `${m} after ↑ ×10 on k₂`);
        assert.equal(await page.eval(() => window.__explorer.state.step), null, 'the arrow keys moved the tip, not the step');
        const tip = await page.point('.geo-handle[data-kind="q"]');
        const o = await page.eval(() => {
          const p = new DOMPoint(150, 150).matrixTransform(document.getElementById('geo-qk').getScreenCTM());
          return { x: p.x, y: p.y };
        });
        await page.drag(tip.x, tip.y, Math.round(o.x + 2 * (tip.x - o.x)), Math.round(o.y + 2 * (tip.y - o.y)));
        await page.settle();
        want = expected(attn, { ...WE, Q: [[1, 0], [0, 1], [2, 2]], K: [[1, 0], [0, 2], [1, 1]] }).shown;
        got = await cellTexts(page);
        for (const m of ['Q', 'S', 'A', 'O']) assert.deepEqual(got[m], want[m], `${m} after q₃ dragged to (2, 2)`);
        const k1 = await page.point('.geo-handle[data-kind="k"][data-j="0"]');
        await page.drag(k1.x, k1.y, k1.x, k1.y); // a press and release in place moves nothing
        await page.settle();
        assert.match(await page.text('#geo-explain'), /^k₁, the key of token 1, at \[1\.000, 0\.000\]\. q₃·k₁ = \|q₃\| \|k₁\| cos θ = 2\.828 × 1\.000 × cos 45\.0° = 2\.000/);
      }));

    test('element: keys it acts on stay inside it, keys it does not use reach the page', () =>
      withPage(
        elementPage('keys', '<script src="keys-host.js"></script>\n<attention-explorer preset="cat"></attention-explorer>'),
        async (page) => {
          const snapshot = () => page.eval(() => {
            const el = document.querySelector('attention-explorer'), a = el.shadowRoot.activeElement;
            return JSON.stringify([el.step, el.follow, el.causal, el.theme, JSON.stringify(el.config), el.shadowRoot.getElementById('play').getAttribute('aria-label'),
              a && [a.id, a.dataset.step, a.dataset.matrix, a.dataset.row, a.dataset.col, a.dataset.follow, a.value, a.selectionStart]]);
          });
          const presses = [
            ['[data-step="score"]', ['ArrowRight', ' ', 'Enter', 'q', ']', 'PageDown']],
            ['[data-matrix="A"][data-row="1"][data-col="0"]', ['ArrowDown', 'f', 'q', '[', 'm', 'm', ' ', ' ']],
            ['#tokens [data-follow="0"]', ['ArrowRight', 'x']],
            ['#config-text', ['a', 'ArrowLeft', ' ', 'ArrowRight', 'ArrowRight']],
            ['#theme', [' ', 'Enter', 'w']],
          ];
          const acted = [], passed = [];
          for (const [target, keys] of presses) {
            for (const key of keys) {
              await page.eval((sel, find) => {
                const e = find('attention-explorer >>> ' + sel);
                e.closest('details')?.setAttribute('open', ''); // the config box starts closed
                e.focus();
              }, target);
              const before = await snapshot();
              await page.eval(() => ((window.__seen = []), (window.__clicks = 0)));
              await page.press(key);
              await page.settle();
              // (a text field takes every key but Tab, even one that cannot move its caret further)
              const did = target === '#config-text' || (await snapshot()) !== before || (await page.eval(() => window.__clicks)) > 0;
              const seen = await page.eval(() => window.__seen);
              const what = `${JSON.stringify(key)} on ${target}`;
              if (did) assert.deepEqual(seen, [], `${what} acted, so the page never saw it`);
              else assert.deepEqual(seen, [`keydown ${key}`, `keyup ${key}`], `${what} did nothing in the element, so the page saw it`);
              (did ? acted : passed).push(what);
            }
          }
          assert.ok(acted.length > 0 && passed.length > 0, `some keys acted (${acted.length}) and some passed (${passed.length})`);
        },
        ELEMENT,
      ));

    test('element: dist/index.html works from file://', () =>
      withPage(`file://${ROOT}dist/index.html`, async (page) => {
        assert.deepEqual((await cellTexts(page, 'attention-explorer')).A, expected(attn, PRESETS.cat.config).shown.A);
        await page.click('attention-explorer >>> [data-step="mix"]');
        await page.waitFor((_, find) => /^6\. Mix/.test(find('attention-explorer >>> #narration').textContent), undefined, 'the narration of step 6');
        assert.equal(await page.eval(() => document.querySelector('attention-explorer').step), 'mix');
      }, ELEMENT));

    test('element: dist/lab.html works from file://, its lab loaded from the part beside the main file', () =>
      withPage(`file://${ROOT}dist/lab.html`, async (page) => {
        assert.equal(await page.eval(() => document.querySelector('attention-explorer').shadowRoot.querySelectorAll('section.lab[data-lab="sqrt-dk-lab"]').length), 1);
        assert.equal(await page.eval(() => document.querySelectorAll('script[src$="attention-explorer.labs.js"]').length), 1, 'the part came by a <script> element');
      }, ELEMENT));

    test('exports: the element makes a PNG and an SVG of A, and its buttons download them', () =>
      withPage(elementPage('exports', '<attention-explorer id="e" preset="cat"></attention-explorer>'), async (page) => {
        const r = expected(attn, PRESETS.cat.config).r;
        const made = await page.eval(async () => {
          const png = await e.exportPNG('A');
          return { png: Array.from(new Uint8Array(await png.arrayBuffer())), type: png.type, svg: e.exportSVG('A') };
        });
        assert.equal(made.type, 'image/png');
        const [w, h] = pngSize(made.png);
        assert.ok(w >= 200 && h >= 150, `PNG of A: ${w}×${h}`);
        for (let k = 0; k < r.A.length; k++) assert.ok(made.svg.includes(`>${fmt(r.A[k])}</text>`), `the SVG shows A value ${k}`);

        await page.click('#e >>> details.exports summary');
        await page.eval(() => {
          const s = e.shadowRoot.getElementById('export-what');
          s.value = 'A';
          s.dispatchEvent(new Event('change', { bubbles: true }));
        });
        const png = await page.download(() => page.click('#e >>> #export-png'));
        assert.equal(png.name, 'cat-A.png');
        assert.deepEqual(pngSize(png.bytes), [w, h]);
        const svg = await page.download(() => page.click('#e >>> #export-svg'));
        assert.equal(svg.name, 'cat-A.svg');
        assert.equal(svg.bytes.toString('utf8'), made.svg);
      }, ELEMENT));

    test('the Wasm build loaded is the SIMD one exactly where the engine validates SIMD', () =>
      withPage(elementPage('wasm', '<attention-explorer preset="cat"></attention-explorer>'), async (page) => {
        const [validates, loaded] = await page.eval(async (bytes) => {
          const { sharedCore } = await import('/web/element/attention-explorer.js');
          return [WebAssembly.validate(new Uint8Array(bytes)), (await sharedCore()).simd];
        }, SIMD_MODULE);
        console.log(`# ${engine}: Wasm SIMD ${validates ? 'validates' : 'does not validate'}; the ${loaded ? 'SIMD' : 'scalar'} build is loaded`);
        assert.equal(loaded, validates);
      }, ELEMENT));
  });
}
