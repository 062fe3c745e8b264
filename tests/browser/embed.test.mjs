// Browser tests of the <attention-explorer> element and dist/ (headless Debian Chromium).
// Every page is served with the strict CSP of the issue, and every test checks that no CSP
// violation, console error, dialog or request to another origin happened. Deterministic: every
// wait is for a redraw or an event, never for a clock.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync } from 'node:fs';
import { launch, ROOT, shot, settle } from './helpers.mjs';
import { CSP, pageWriter, openEmbed, clean } from './embed-helpers.mjs';
import { axeViolations } from './axe.mjs';
import { startServer } from '../../tools/serve.mjs';
import { loadAttention } from '../../web/core/attention.js';
import { parseConfig, forwardArgs, MAX_JSON } from '../../web/blocks/config.js';
import { PRESETS } from '../../web/blocks/presets.js';
import { fmt } from '../../web/blocks/format.js';
import { EXPLORER_MODES, MODES } from '../../web/element/modes.js';

// How the element lists its modes: every one of web/element/modes.js, whatever they are.
const MODES_SAID = `The modes are ${[...EXPLORER_MODES, ...MODES.keys()].map((m) => `“${m}”`).join(', ')}`;

let browser, strict, other, otherCors, attn;

before(async () => {
  strict = await startServer({ root: ROOT, port: 0, headers: { 'content-security-policy': CSP } });
  // Other origins, serving pages without the CSP (so that CORS, not the CSP, decides a fetch).
  other = await startServer({ root: ROOT, port: 0, headers: { 'content-security-policy': null } }); // no CORS header
  otherCors = await startServer({ root: ROOT, port: 0, headers: { 'access-control-allow-origin': '*', 'content-security-policy': null } });
  browser = await launch();
  attn = await loadAttention();
});
after(async () => {
  await browser.close();
  await Promise.all([strict.close(), other.close(), otherCors.close()]);
});

const page = pageWriter('embed');
const open = (url, opts) => openEmbed(browser, url, opts);

/** The text of every cell of matrix m inside element `host` (Playwright's CSS pierces open shadow roots). */
function cells(p, host, m) {
  return p.locator(`${host} [data-matrix="${m}"][data-row]`).evaluateAll((els) => {
    const rows = [];
    for (const c of els) (rows[+c.dataset.row] ||= [])[+c.dataset.col] = c.textContent;
    return rows;
  });
}
const coreOf = (cfg) => attn.forward(forwardArgs(parseConfig(cfg)));
const shownA = (r) => Array.from({ length: r.n }, (_, i) => Array.from({ length: r.m }, (_, j) => fmt(r.A[i * r.m + j])));

test('the element renders in a plain page under the strict CSP: the core values, step and follow from attributes', async () => {
  const url = strict.url + page('plain', '<h1>A lesson</h1>\n<attention-explorer id="a" preset="cat" step="softmax" follow="4"></attention-explorer>');
  const { page: p, log, context } = await open(url);
  const r = coreOf(PRESETS.cat.config);
  assert.deepEqual(await cells(p, '#a', 'A'), shownA(r));
  assert.equal(await p.evaluate(() => document.getElementById('a').step), 'softmax');
  assert.equal(await p.evaluate(() => document.getElementById('a').follow), 4);
  assert.match(await p.locator('#a #follow-text').textContent(), /^“the” \(5\) gives 0\.528 of its attention to “cat” \(2\)/);
  assert.ok(await p.locator('#a figure[data-panel="A"]').evaluate((e) => e.classList.contains('current')));
  // the light DOM holds nothing of the explorer: it is all in the shadow root
  assert.equal(await p.evaluate(() => document.querySelectorAll('[data-matrix]').length), 0);
  assert.equal(await p.evaluate(() => document.getElementById('a').shadowRoot.adoptedStyleSheets.length), 1);
  await clean(p, log);
  await shot(p, 'embed-plain', { fullPage: true });
  await context.close();
});

test('the page itself (web/index.html) works under the strict CSP with no violation', async () => {
  const { page: p, log, context } = await open(strict.url + 'web/index.html?preset=cat&follow=4', { ready: 'html' });
  assert.deepEqual(await cells(p, 'html', 'A'), shownA(coreOf(PRESETS.cat.config)));
  await clean(p, log);
  await context.close();
});

test('two instances stay independent: attributes, properties, learner clicks and events', async () => {
  const url = strict.url + page('two', '<attention-explorer id="one" preset="cat"></attention-explorer>\n<attention-explorer id="two" preset="worked-example" step="mix"></attention-explorer>');
  const { page: p, log, context } = await open(url, { count: 2 });
  assert.equal(await p.evaluate(() => window.__instantiations), 1, 'one core for both elements');
  await p.evaluate(() => {
    window.__events = [];
    for (const id of ['one', 'two']) {
      for (const t of ['explorer-step', 'explorer-select', 'explorer-change']) document.getElementById(id).addEventListener(t, (e) => window.__events.push([id, t, JSON.stringify(e.detail)]));
    }
  });
  assert.deepEqual(await cells(p, '#one', 'A'), shownA(coreOf(PRESETS.cat.config)));
  assert.deepEqual(await cells(p, '#two', 'A'), [['0.401', '0.198', '0.401'], ['0.198', '0.401', '0.401'], ['0.248', '0.248', '0.503']]);
  // a learner clicks step 2 in the first one: only it moves, and it says so
  await p.locator('#one [data-step="score"]').click();
  await p.locator('#one [data-follow="2"]').first().click();
  await settle(p);
  assert.deepEqual(await p.evaluate(() => [one.step, two.step, one.follow, two.follow]), ['score', 'mix', 2, null]);
  // a learner edits a value in the second one
  await p.locator('#two [data-matrix="Q"][data-row="0"][data-col="0"]').click();
  await p.locator('#two #edit-value').fill('2');
  await settle(p);
  assert.equal(await p.evaluate(() => two.config.Q[0][0]), 2);
  assert.equal(await p.evaluate(() => one.config.X[0][0]), 0);
  const ev = await p.evaluate(() => window.__events);
  assert.deepEqual(ev.filter((e) => e[1] === 'explorer-step'), [['one', 'explorer-step', '{"step":"score"}']]);
  assert.ok(ev.some((e) => e[0] === 'one' && e[1] === 'explorer-select' && JSON.parse(e[2]).follow === 2));
  assert.ok(ev.some((e) => e[0] === 'two' && e[1] === 'explorer-change' && JSON.parse(e[2]).config.Q[0][0] === 2));
  assert.ok(!ev.some((e) => e[0] === 'one' && e[1] === 'explorer-change'));
  // properties from JS: causal, preset, config, step, theme
  await p.evaluate(() => {
    one.causal = false;
    two.theme = 'dark';
    two.step = null;
  });
  await settle(p);
  const r = coreOf({ ...PRESETS.cat.config, causal: false });
  assert.deepEqual(await cells(p, '#one', 'A'), shownA(r));
  assert.deepEqual(await p.evaluate(() => [one.theme, two.theme, two.step, one.causal, two.causal]), ['light', 'dark', null, false, false]);
  await p.evaluate(() => (one.config = { tokens: ['x', 'y'], Q: [[1, 0], [0, 1]], K: [[1, 0], [0, 1]], V: [[1, 2], [3, 4]], causal: false }));
  await settle(p);
  assert.equal((await cells(p, '#one', 'A')).length, 2);
  assert.equal((await cells(p, '#two', 'A')).length, 3);
  await p.evaluate(() => (one.preset = 'previous-token'));
  await settle(p);
  assert.equal((await cells(p, '#one', 'A')).length, 6);
  await clean(p, log);
  await shot(p, 'embed-two', { fullPage: true });
  await context.close();
});

test('an element removed from the page is freed; one moved within the page keeps its state', async () => {
  const url = strict.url + page('remove-move', '<attention-explorer id="a" preset="cat" follow="4"></attention-explorer><div id="box"></div>');
  const { page: p, log, context } = await open(url);
  const moved = await p.evaluate(async () => {
    const el = document.getElementById('a');
    el.setAttribute('data-probe', '1');
    document.getElementById('box').append(el); // a move: disconnected and connected in one task
    await Promise.resolve();
    return [el.dataset.ready, el.shadowRoot.querySelectorAll('[data-matrix="A"]').length];
  });
  assert.deepEqual(moved, ['true', 25]);
  const removed = await p.evaluate(async () => {
    const el = (window.__el = document.getElementById('a'));
    el.remove();
    await Promise.resolve();
    return [el.dataset.ready ?? null, el.shadowRoot.querySelectorAll('[data-matrix]').length];
  });
  assert.deepEqual(removed, [null, 0]);
  // put back, it mounts afresh from its attributes
  await p.evaluate(() => document.body.append(window.__el));
  await p.waitForFunction(() => window.__el.dataset.ready === 'true');
  assert.equal(await p.evaluate(() => window.__el.shadowRoot.querySelectorAll('[data-matrix="A"]').length), 25);
  await clean(p, log);
  await context.close();
});

const HOSTILE_CSS = `
* { all: unset !important; font-size: 40px !important; color: red !important; }
html, body { display: block !important; }
div, span, section, button, figure, p { display: none !important; }
attention-explorer { font: italic 30px/3 serif; color: red; text-transform: uppercase; letter-spacing: 9px; text-align: right; }
:root { --bg: red; --fg: lime; --line: red; --panel: red; }
`;

test('host CSS cannot break it: hostile selectors and inherited styles stop at the shadow root', async () => {
  const read = (p) =>
    p.locator('attention-explorer').evaluate((host) => {
      const c = host.shadowRoot.querySelector('[data-matrix="A"][data-row="4"][data-col="1"]');
      const s = getComputedStyle(c);
      const ex = getComputedStyle(host.shadowRoot.querySelector('#explanation'));
      const box = c.getBoundingClientRect();
      // the narration's size and the page's columns come from the @container rules, which measure
      // .ae-frame inside the shadow root: 'all: unset' on the host cannot unset that container
      const sizes = ['#explanation', 'h2', '.pname', '.legend', '.narration'].map((q) => getComputedStyle(host.shadowRoot.querySelector(q)).fontSize).join(' ');
      const columns = getComputedStyle(host.shadowRoot.querySelector('.ex-grid')).gridTemplateColumns.split(' ').length; // (the host page's margins differ)
      return { text: c.textContent, font: s.fontFamily + ' ' + s.fontSize + ' ' + s.fontStyle, tt: ex.textTransform, ls: ex.letterSpacing, color: ex.color, bg: s.backgroundColor, w: Math.round(box.width), h: Math.round(box.height), display: s.display, sizes, columns };
    });
  const body = '<attention-explorer preset="cat"></attention-explorer>';
  const a = await open(strict.url + page('host-plain', body));
  const b = await open(strict.url + page('host-hostile', body, { css: HOSTILE_CSS }));
  const want = await read(a.page);
  const got = await read(b.page);
  assert.deepEqual(got, want);
  assert.equal(got.text, '0.528');
  await clean(b.page, b.log);
  await shot(b.page, 'embed-hostile-css');
  await a.context.close();
  await b.context.close();
});

test('classroom mode hides the controls it is not given and refuses edits; the dark theme; unknown modes say so', async () => {
  const url = strict.url + page('classroom', [
    '<attention-explorer id="c" preset="cat" step="softmax" follow="4" controls="steps follow explain"></attention-explorer>',
    '<attention-explorer id="d" preset="worked-example" theme="dark" controls="steps explain export"></attention-explorer>',
    '<attention-explorer id="lab" mode="no-such-lab"></attention-explorer>',
  ].join('\n'));
  const { page: p, log, context } = await open(url, { count: 3 });
  for (const sel of ['#c #preset', '#c #theme', '#c #copy-link', '#c .edit', '#c .exports']) assert.equal(await p.locator(sel).isVisible(), false, sel);
  for (const sel of ['#c #play', '#c [data-follow="0"] >> nth=0', '#c .inspector']) assert.equal(await p.locator(sel).isVisible(), true, sel);
  assert.equal(await p.locator('#c .cell.editable').count(), 0, 'no editable cells');
  await p.locator('#c [data-matrix="X"][data-row="0"][data-col="0"]').click();
  await p.keyboard.press('+');
  await settle(p);
  assert.equal(await p.evaluate(() => c.config.X[0][0]), 0, 'keys do not edit');
  assert.equal(await p.locator('#c #editor').isVisible(), false);
  assert.equal(await p.evaluate(() => getComputedStyle(d.shadowRoot.querySelector('.ae')).backgroundColor), 'rgb(20, 23, 28)');
  assert.equal(await p.evaluate(() => d.dataset.theme), 'dark');
  assert.ok((await p.locator('#lab .error').textContent()).includes(`there is no mode “no-such-lab” in this version. ${MODES_SAID}; leave mode out for the explorer.`));
  await clean(p, log, '(an unknown mode is a message, not an error)');
  await shot(p, 'embed-classroom', { fullPage: true });
  await p.locator('#d').screenshot({ path: ROOT + 'tests/out/screenshots/embed-dark.png' });
  await context.close();
});

test('360 px wide: no horizontal scroll of the page, the element lays itself out for its own width', async () => {
  const url = strict.url + page('narrow', '<attention-explorer preset="cat" step="softmax" follow="4"></attention-explorer>');
  const { page: p, log, context } = await open(url, { width: 360, height: 760 });
  const w = await p.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(w <= 360, `scrollWidth ${w}`);
  await clean(p, log);
  await shot(p, 'embed-360', { fullPage: true });
  await context.close();
});

test('dist/index.html works from file:// with no request but its own two files (the explorer needs no part)', async () => {
  const { page: p, log, context } = await open('file://' + ROOT + 'dist/index.html');
  assert.deepEqual(await cells(p, 'attention-explorer', 'A'), shownA(coreOf(PRESETS.cat.config)));
  assert.deepEqual(log.requests.map((u) => u.replace('file://' + ROOT, '')), ['dist/index.html', 'dist/attention-explorer.js']);
  await p.locator('attention-explorer [data-step="mix"]').click();
  await settle(p);
  assert.equal(await p.evaluate(() => document.querySelector('attention-explorer').step), 'mix');
  await clean(p, log);
  await context.close();
});

test('dist/ from file:// in an engine without Wasm SIMD: the explorer loads the scalar build of its core from beside the main file', async () => {
  const context = await browser.newContext();
  const p = await context.newPage();
  // An engine without SIMD: WebAssembly.validate refuses the SIMD probe (web/core/attention.js), and only it.
  await p.addInitScript(() => {
    const validate = WebAssembly.validate;
    WebAssembly.validate = (bytes) => (new Uint8Array(bytes).includes(0xfd) ? false : validate(bytes));
  });
  const requests = [];
  p.on('request', (r) => requests.push(r.url().replace('file://' + ROOT, '')));
  const errors = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  p.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await p.goto('file://' + ROOT + 'dist/index.html');
  await p.waitForSelector('attention-explorer[data-ready]');
  assert.deepEqual(await cells(p, 'attention-explorer', 'A'), shownA(coreOf(PRESETS.cat.config)));
  assert.deepEqual(requests, ['dist/index.html', 'dist/attention-explorer.js', 'dist/attention-explorer.forward-scalar.js']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('dist/attention-explorer.js also works as a module (a lab\'s part then comes by import()), and inside <iframe sandbox="allow-scripts">', async () => {
  const mod = strict.url + page('dist-module', '<attention-explorer preset="worked-example"></attention-explorer>\n<attention-explorer id="lab" mode="stability-lab"></attention-explorer>', { script: '/dist/attention-explorer.js' });
  const a = await open(mod, { count: 2 });
  assert.deepEqual(await cells(a.page, 'attention-explorer', 'A'), [['0.401', '0.198', '0.401'], ['0.198', '0.401', '0.401'], ['0.248', '0.248', '0.503']]);
  assert.match(await a.page.locator('#lab .lab-table').first().textContent(), /NaN/, 'the lab is drawn');
  assert.deepEqual(a.log.requests.filter((u) => u.includes('/dist/')).map((u) => u.replace(/^.*\/dist\//, '')), ['attention-explorer.js', 'attention-explorer.labs.js']);
  await clean(a.page, a.log);
  await a.context.close();

  const url = strict.url + page('sandbox', '<iframe sandbox="allow-scripts" src="/dist/index.html" width="1000" height="700" title="Attention Explorer"></iframe>');
  const { page: p, log, context } = await open(url, { ready: null });
  const frame = p.frameLocator('iframe');
  await frame.locator('attention-explorer[data-ready]').waitFor();
  const texts = await frame.locator('attention-explorer [data-matrix="A"][data-row="4"]').allTextContents();
  assert.deepEqual(texts, shownA(coreOf(PRESETS.cat.config))[4]);
  assert.equal(await p.frames()[1].evaluate(() => origin), 'null', 'the frame really is sandboxed');
  await frame.locator('attention-explorer [data-step="score"]').click();
  // the redraw after the click comes in a later frame: wait for it (a timeout fails the test)
  await frame.locator('attention-explorer #narration', { hasText: /^2\. Score\./ }).waitFor();
  await clean(p, log);
  await context.close();
});

/** PNG header: signature, then IHDR width and height (big-endian). */
function pngSize(bytes) {
  const sig = [137, 80, 78, 71, 13, 10, 26, 10];
  assert.deepEqual(Array.from(bytes.slice(0, 8)), sig, 'PNG signature');
  const dv = new DataView(Uint8Array.from(bytes).buffer);
  return [dv.getUint32(16), dv.getUint32(20)];
}

test('exports: PNG, SVG, CSV and JSON hold the right content, and the buttons download them', async () => {
  const url = strict.url + page('exports', '<attention-explorer id="e" preset="cat"></attention-explorer>');
  const { page: p, log, context } = await open(url);
  const r = coreOf(PRESETS.cat.config);
  const got = await p.evaluate(async () => {
    const bytes = async (b) => Array.from(new Uint8Array(await b.arrayBuffer()));
    const pngA = await e.exportPNG('A');
    const pngAll = await e.exportPNG();
    return { pngA: await bytes(pngA), typeA: pngA.type, pngAll: await bytes(pngAll), svgA: e.exportSVG('A'), svgAll: e.exportSVG(), csvA: e.exportCSV('A'), jsonO: e.exportJSON('O'), json: e.exportJSON() };
  });
  assert.equal(got.typeA, 'image/png');
  const [wa, ha] = pngSize(got.pngA);
  const [wv, hv] = pngSize(got.pngAll);
  assert.ok(wa >= 200 && ha >= 150 && wv > wa && hv > ha, `PNG sizes ${wa}×${ha}, ${wv}×${hv}`);
  for (let k = 0; k < r.A.length; k++) assert.ok(got.svgA.includes(`>${fmt(r.A[k])}</text>`));
  for (const m of ['X', 'Wq', 'Q', 'S', 'M', 'A', 'O']) assert.ok(got.svgAll.includes(`>${m}: `), m);
  const csv = got.csvA.trim().split('\r\n').slice(1).map((l) => l.split(',').slice(1).map(Number));
  assert.deepEqual(csv.flat(), Array.from(r.A));
  assert.deepEqual(JSON.parse(got.jsonO).values.flat(), Array.from(r.O));
  assert.deepEqual(JSON.parse(got.json).matrices.A.values.flat(), Array.from(r.A));
  // Before the head is drawn, and in a mode that is not the explorer, an export says what to do.
  const early = await p.evaluate(async () => {
    const tryIt = (el, f) => { try { el[f]('A'); return 'no error'; } catch (err) { return `${err.constructor.name}: ${err.message}`; } };
    const fresh = document.createElement('attention-explorer');
    fresh.setAttribute('preset', 'cat');
    document.body.append(fresh);
    const before = ['exportCSV', 'exportJSON', 'exportSVG', 'exportPyTorch'].map((f) => tryIt(fresh, f));
    await fresh.ready;
    const after = tryIt(fresh, 'exportCSV');
    const lab = document.createElement('attention-explorer');
    lab.setAttribute('mode', 'sqrt-dk-lab');
    document.body.append(lab);
    await lab.ready;
    const inLab = tryIt(lab, 'exportPNG');
    fresh.remove(); lab.remove();
    return { before, after, inLab };
  });
  assert.deepEqual(early.before, ['exportCSV', 'exportJSON', 'exportSVG', 'exportPyTorch'].map((f) => `Error: attention-explorer: ${f}() needs the head drawn first: await el.ready, then export`));
  assert.equal(early.after, 'no error');
  assert.equal(early.inLab, 'Error: attention-explorer: exportPNG() belongs to the explorer; mode="sqrt-dk-lab" has no exports (leave out mode for the explorer)');

  // The buttons: choose A, download CSV and PNG; copy as PyTorch shows the script.
  await p.locator('#e details.exports summary').click();
  await p.locator('#e #export-what').selectOption('A');
  const [csvDl] = await Promise.all([p.waitForEvent('download'), p.locator('#e #export-csv').click()]);
  assert.equal(csvDl.suggestedFilename(), 'cat-A.csv');
  assert.equal(readFileSync(await csvDl.path(), 'utf8'), got.csvA);
  const [pngDl] = await Promise.all([p.waitForEvent('download'), p.locator('#e #export-png').click()]);
  assert.deepEqual(pngSize(readFileSync(await pngDl.path())), [wa, ha]);
  await p.locator('#e #export-what').selectOption('');
  const [svgDl] = await Promise.all([p.waitForEvent('download'), p.locator('#e #export-svg').click()]);
  assert.equal(svgDl.suggestedFilename(), 'cat.svg');
  await p.locator('#e #export-torch').click();
  await p.locator('#e #export-text').waitFor();
  const py = await p.locator('#e #export-text').inputValue();
  assert.match(py, /^A = torch\.softmax\(S, dim=-1\)/m);
  assert.match(py, /print\('A', r3\(A\)\)  # \[\[1\.0, 0\.0, 0\.0, 0\.0, 0\.0\], \[0\.5, 0\.5,/);
  await clean(p, log);
  await shot(p, 'embed-exports');
  await context.close();
});

test('hostile configs show their errors and run nothing; src loads same-origin and CORS-allowed configs, and says why it cannot load others', async () => {
  const evil = '<img src=x onerror=alert(1)>';
  const attr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const tokensEvil = JSON.stringify({ ...PRESETS.cat.config, tokens: [evil, '<script>alert(2)</script>', '"><b>x', 'on', '&amp;'] });
  writeFileSync(ROOT + 'tests/out/embed/good.json', JSON.stringify(PRESETS['worked-example'].config));
  writeFileSync(ROOT + 'tests/out/embed/huge.json', '{"X": [' + '[0],'.repeat(MAX_JSON / 4) + '[0]]}');
  const body = [
    `<attention-explorer id="t" config="${attr(tokensEvil)}"></attention-explorer>`,
    `<attention-explorer id="k" config="${attr(JSON.stringify({ ...PRESETS.cat.config, constructor: 1 }))}"></attention-explorer>`,
    `<attention-explorer id="j" config="${attr('{"X": [[1,')}"></attention-explorer>`,
    `<attention-explorer id="big" config="${attr(JSON.stringify(PRESETS.cat.config) + ' '.repeat(MAX_JSON))}"></attention-explorer>`,
    `<attention-explorer id="same" src="good.json"></attention-explorer>`,
    `<attention-explorer id="huge" src="huge.json"></attention-explorer>`,
    `<attention-explorer id="p" preset="__proto__"></attention-explorer>`,
  ].join('\n');
  const { page: p, log, context } = await open(strict.url + page('hostile', body), { count: 7 });
  const err = (id) => p.locator(`#${id} #error`).textContent();
  assert.equal(await p.locator('#t [data-follow="0"]').first().textContent(), evil);
  assert.equal(await p.evaluate(() => t.shadowRoot.querySelectorAll('img, script, b').length), 0);
  assert.match(await err('k'), /Unknown key "constructor"/);
  assert.match(await err('j'), /not valid JSON/);
  assert.match(await err('big'), new RegExp(`characters long; the limit is ${MAX_JSON}`));
  assert.deepEqual(await cells(p, '#same', 'A'), [['0.401', '0.198', '0.401'], ['0.198', '0.401', '0.401'], ['0.248', '0.248', '0.503']]);
  assert.match(await err('huge'), new RegExp(`bytes; the limit is ${MAX_JSON}\\. It was not loaded`));
  assert.match(await err('p'), /There is no preset called “__proto__”/);
  // a config set from JS is checked the same way
  assert.match(await p.evaluate(() => { try { t.config = '{"X": [[NaN]]}'; } catch (e) { return e.message; } }), /not valid JSON/);
  await clean(p, log);
  await context.close();

  // Cross-origin src, on a page without CSP (so that CORS, not the CSP, decides).
  const o = other.url.replace('127.0.0.1', 'localhost'); // a different origin from the page
  const c = otherCors.url.replace('127.0.0.1', 'localhost');
  const url = other.url + page('cors', [
    `<attention-explorer id="denied" src="${o}tests/out/embed/good.json"></attention-explorer>`,
    `<attention-explorer id="allowed" src="${c}tests/out/embed/good.json"></attention-explorer>`,
  ].join('\n'));
  const q = await open(url, { count: 2 });
  assert.match(await q.page.locator('#denied #error').textContent(), /Could not load the config from “http:\/\/localhost:\d+\/tests\/out\/embed\/good\.json”\. A config on another site loads only if that site allows it \(CORS/);
  assert.deepEqual(await cells(q.page, '#allowed', 'A'), [['0.401', '0.198', '0.401'], ['0.198', '0.401', '0.401'], ['0.248', '0.248', '0.503']]);
  assert.deepEqual(q.log.dialogs, []);
  await q.context.close();
});

test('the compact layout: at 960 × 700 under a heading, every matrix with its axes and legend and the follow row fit without scrolling; a short box chooses it by itself', async () => {
  const url = strict.url + page('compact', [
    '<main><h1>Which token does “on” listen to?</h1>',
    '<attention-explorer id="slide" preset="cat" follow="3" controls="steps follow explain" layout="compact"></attention-explorer>',
    '<attention-explorer id="short" preset="worked-example"></attention-explorer></main>',
  ].join('\n'), { css: 'body { margin: 0 } h1 { margin: 8px 0; font-size: 40px } #short { height: 480px; overflow: auto }' });
  const { page: p, log, context } = await open(url, { width: 960, height: 700, count: 2 });
  const layout = (id) => p.locator('#' + id).evaluate((e) => e.dataset.layout);
  assert.equal(await layout('slide'), 'compact');
  // The last row and legend of O, the lowest things the element shows, end inside the slide
  const bottom = await p.locator('#slide').evaluate((host) => {
    const r = host.shadowRoot;
    const lowest = [...r.querySelectorAll('[data-panel] .legend, [data-matrix] .cell, [data-matrix].cell')].map((e) => e.getBoundingClientRect().bottom);
    return { lowest: Math.max(...lowest), host: host.getBoundingClientRect().bottom, matrices: [...new Set([...r.querySelectorAll('[data-matrix]')].map((c) => c.dataset.matrix))].sort().join(' ') };
  });
  assert.ok(bottom.host <= 700 && bottom.lowest <= 700, `the element ends at ${bottom.host} px and its last cell or legend at ${bottom.lowest} px, inside 700`);
  for (const m of ['Q', 'K', 'V', 'S', 'A', 'O']) assert.ok(bottom.matrices.split(' ').includes(m), `${m} is shown (${bottom.matrices})`);
  // ... and it still explains a hover with the core's number
  await p.locator('#slide [data-matrix="A"][data-row="3"][data-col="1"]').hover();
  await settle(p);
  assert.match(await p.locator('#slide #explanation').textContent(), /0\.599/);
  assert.deepEqual(await axeViolations(p), [], 'axe finds nothing in the compact layout (its buttons and cells keep their target size)');
  // A box shorter than the full layout makes it compact by itself, and full again once it has room
  assert.equal(await layout('short'), 'compact', 'the page gave it 480 px');
  await p.locator('#short').evaluate((e) => (e.style.height = 'auto'));
  await p.waitForFunction(() => document.querySelector('#short').dataset.layout === 'full');
  await p.locator('#short').evaluate((e) => (e.style.height = ''));
  await p.waitForFunction(() => document.querySelector('#short').dataset.layout === 'compact');
  // The attribute (and property) wins over the box
  await p.locator('#short').evaluate((e) => (e.layout = 'full'));
  assert.equal(await layout('short'), 'full');
  assert.equal(await p.locator('#short').evaluate((e) => e.getAttribute('layout')), 'full');
  await p.locator('#slide').evaluate((e) => e.removeAttribute('layout'));
  assert.equal(await layout('slide'), 'full', 'the slide element has the height it needs, so auto is full');
  await p.locator('#slide').evaluate((e) => (e.layout = 'compact'));
  await settle(p);
  await shot(p, 'embed-compact-960x700');
  await clean(p, log);
  await context.close();
});
