// The element's promises and its src (issue 11, points 2 and 3), in headless Chromium under the
// strict CSP: el.ready settles on every outcome (resolves when drawn, rejects with the message
// shown when it ends in an error, and explorer-error carries the same message); the latest src
// wins, older fetches are aborted, a loading line shows, a src that never answers times out
// after 15 s with a message, and removing the element aborts its fetch.
//
// A small server in front of make run's (tools/serve.mjs) adds the slow and broken answers on the
// same origin (the CSP allows no other): /api/slow.json?ms=N answers after N ms, /api/never.json
// never answers, /api/missing.json is a 404. It records which requests the browser gave up on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { launch, ROOT } from './helpers.mjs';
import { pageWriter, openEmbed, clean } from './embed-helpers.mjs';
import { startServer } from '../../tools/serve.mjs';
import { PRESETS } from '../../web/blocks/presets.js';
import { MAX_MESSAGE } from '../../web/blocks/config.js';
import { EXPLORER_MODES, MODES } from '../../web/element/modes.js';

// How the element lists its modes: every one of web/element/modes.js, whatever they are.
const MODES_SAID = `The modes are ${[...EXPLORER_MODES, ...MODES.keys()].map((m) => `“${m}”`).join(', ')}`;

let browser, files, front;
const aborted = []; // paths of /api/ requests the browser closed before the answer
const GOOD = JSON.stringify(PRESETS['worked-example'].config); // A row 1: 0.401 0.198 0.401
const SLOW = JSON.stringify(PRESETS.cat.config);

before(async () => {
  files = await startServer({ root: ROOT, port: 0 }); // with the strict CSP and nosniff
  front = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (!url.pathname.startsWith('/api/')) {
      // everything else from make run's server, headers and all
      const up = request({ host: '127.0.0.1', port: files.port, path: req.url, method: req.method }, (r) => {
        res.writeHead(r.statusCode, r.headers);
        r.pipe(res);
      });
      return up.end();
    }
    const json = (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    let done = false;
    res.on('finish', () => (done = true));
    req.socket.on('close', () => done || aborted.push(url.pathname + url.search));
    if (url.pathname === '/api/good.json') return json(GOOD);
    if (url.pathname === '/api/missing.json') return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    if (url.pathname === '/api/slow.json') return setTimeout(() => json(SLOW), Number(url.searchParams.get('ms')));
    if (url.pathname === '/api/never.json') return; // no answer, ever
    res.writeHead(404).end();
  });
  await new Promise((ok) => front.listen(0, '127.0.0.1', ok));
  browser = await launch();
});
after(async () => {
  await browser.close();
  front.closeAllConnections();
  await new Promise((ok) => front.close(ok));
  await files.close();
});

const base = () => `http://127.0.0.1:${front.address().port}/`;
const page = pageWriter('embed-ready');
const open = (name, body, opts) => openEmbed(browser, base() + page(name, body), opts);

/** The first row of A shown by element `host`, as text. */
const rowA = (p, host) => p.locator(`${host} [data-matrix="A"][data-row="0"]`).allTextContents();

/**
 * How element `id`'s ready settles, read in the page: ['resolved'] or ['rejected', message],
 * with the messages of its explorer-error events so far (recorded from the start, see below).
 */
function outcome(p, id, timeout = 20000) {
  return p.evaluate(([id, timeout]) => {
    const el = document.getElementById(id);
    return Promise.race([
      el.ready.then(() => ['resolved'], (e) => ['rejected', e instanceof Error ? e.message : String(e)]),
      new Promise((ok) => setTimeout(() => ok(['pending']), timeout)),
    ]).then((r) => [...r, window.__errors[id] || []]);
  }, [id, timeout]);
}

// Elements removed before they are ready (issue 27, bug 7): a lab and the induction page removed
// in the task that added them (their code still loading), and a src that never answers removed
// after 100 ms. Each one's ready, as the page saw it.
writeFileSync(
  ROOT + 'tests/out/embed-ready/remove-early.js',
  "window.__early = {};\n" +
    "const settle = (p) => p.then(() => 'resolved', (e) => 'rejected ' + e.name + ': ' + e.message);\n" +
    "for (const mode of ['fused-lab', 'induction']) {\n" +
    "  const el = document.body.appendChild(Object.assign(document.createElement('attention-explorer'), { id: mode }));\n" +
    "  el.setAttribute('mode', mode);\n" +
    "  window.__early[mode] = settle(el.ready);\n" +
    "  el.remove();\n" +
    "}\n" +
    "const slow = document.body.appendChild(Object.assign(document.createElement('attention-explorer'), { id: 'slow' }));\n" +
    "slow.setAttribute('src', '/api/never.json?slow');\n" +
    "window.__early.slow = settle(slow.ready);\n" +
    "setTimeout(() => slow.remove(), 100);\n",
);

// Every page records the explorer-error events of every element from the start.
const RECORD = `<script src="record-errors.js"></script>`;
// A mode whose start fails (as mode="train" did with task=__proto__ before issue 11), added
// after registering it.
writeFileSync(
  ROOT + 'tests/out/embed-ready/broken-mode.js',
  "import { registerMode } from '/web/element/attention-explorer.js';\n" +
    "registerMode('broken-lab', () => ({ ready: Promise.reject(new Error('its params do not work')), destroy() {} }));\n" +
    "document.body.append(Object.assign(document.createElement('attention-explorer'), { id: 'broken' }));\n" +
    "document.getElementById('broken').setAttribute('mode', 'broken-lab');\n",
);
writeFileSync(
  ROOT + 'tests/out/embed-ready/record-errors.js',
  "window.__errors = {};\ndocument.addEventListener('explorer-error', (e) => (window.__errors[e.target.id] ||= []).push(e.detail.message));\n",
);

test('ready resolves when the head is drawn, and rejects with the shown message for an unknown mode, an unknown preset and values that overflow', async () => {
  const overflow = JSON.stringify({ Q: [[1e30, 1e30]], K: [[1e30, 1e30]], V: [[1, 2]] });
  const attr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const { page: p, log, context } = await open('settles', [
    RECORD,
    '<attention-explorer id="good" preset="cat"></attention-explorer>',
    '<attention-explorer id="mode" mode="nope"></attention-explorer>',
    '<attention-explorer id="proto" preset="__proto__"></attention-explorer>',
    `<attention-explorer id="big" config="${attr(overflow)}"></attention-explorer>`,
    `<attention-explorer id="long" config="${attr(JSON.stringify({ ['k'.repeat(50000)]: 1 }))}"></attention-explorer>`,
    '<script type="module" src="broken-mode.js"></script>',
  ].join('\n'), { count: 6 });
  assert.deepEqual(await outcome(p, 'good'), ['resolved', []]);
  const [mode, modeMsg, modeErrors] = await outcome(p, 'mode');
  assert.equal(mode, 'rejected');
  assert.ok(modeMsg.includes(`there is no mode “nope” in this version. ${MODES_SAID}; leave mode out for the explorer.`), modeMsg);
  assert.deepEqual(modeErrors, [modeMsg], 'explorer-error carries the message ready rejects with');
  assert.equal(await p.locator('#mode .error').textContent(), modeMsg);
  const [proto, protoMsg] = await outcome(p, 'proto');
  assert.equal(proto, 'rejected');
  assert.match(protoMsg, /There is no preset called “__proto__”/);
  assert.equal((await rowA(p, '#proto')).length, 5, 'the cat preset is shown under the message');
  const [big, bigMsg, bigErrors] = await outcome(p, 'big');
  assert.equal(big, 'rejected');
  assert.match(bigMsg, /This head cannot be computed: the values are too large/);
  assert.deepEqual(bigErrors, [bigMsg]);
  const [broken, brokenMsg, brokenErrors] = await outcome(p, 'broken');
  assert.equal(broken, 'rejected');
  assert.equal(brokenMsg, '<attention-explorer>: the broken-lab mode could not start: its params do not work');
  assert.deepEqual(brokenErrors, [brokenMsg]);
  const [long, longMsg] = await outcome(p, 'long');
  assert.equal(long, 'rejected');
  assert.ok(longMsg.length <= MAX_MESSAGE + 40, `a message of ${longMsg.length} characters`);
  const shown = await p.locator('#long #error').textContent();
  assert.ok(shown.length <= MAX_MESSAGE + 40, `${shown.length} characters shown`);
  await clean(p, log);
  await context.close();
});

test('a step or follow attribute the element cannot use is said in its message, at the start and when it changes, worded for an attribute', async () => {
  const { page: p, log, context } = await open('ignored', [
    RECORD,
    '<attention-explorer id="fine" preset="cat" step="softmax" follow="4"></attention-explorer>',
    '<attention-explorer id="far" preset="cat" follow="9"></attention-explorer>',
    '<attention-explorer id="both" preset="worked-example" step="sofmax" follow="two"></attention-explorer>',
  ].join('\n'), { count: 3 });
  assert.deepEqual(await outcome(p, 'fine'), ['resolved', []]);
  const far = 'The follow="9" attribute was ignored: this head has 5 tokens, rows 0 to 4.';
  assert.deepEqual(await outcome(p, 'far'), ['rejected', far, [far]], 'ready rejects with the message shown, as for an unknown preset');
  assert.equal(await p.locator('#far #error').textContent(), far);
  assert.equal((await rowA(p, '#far')).length, 5, 'the head is shown under the message, following no row');
  assert.equal(await p.evaluate(() => document.getElementById('far').follow), null);
  const both = 'The step="sofmax" attribute was ignored: the steps are project, score, scale, mask, softmax and mix. '
    + 'The follow="two" attribute was ignored: follow is a row number, from 0 for the first token.';
  assert.deepEqual(await outcome(p, 'both'), ['rejected', both, [both]]);
  // later changes: through the attribute and the property
  await p.evaluate(() => document.getElementById('fine').setAttribute('follow', '12'));
  const twelve = 'The follow="12" attribute was ignored: this head has 5 tokens, rows 0 to 4.';
  assert.equal(await p.locator('#fine #error').textContent(), twelve);
  assert.equal(await p.locator('#fine #error').isVisible(), true);
  await p.evaluate(() => (document.getElementById('fine').step = 'nope'));
  const nope = 'The step="nope" attribute was ignored: the steps are project, score, scale, mask, softmax and mix.';
  assert.equal(await p.locator('#fine #error').textContent(), nope);
  assert.deepEqual(await p.evaluate(() => window.__errors.fine), [twelve, nope], 'each is an explorer-error too');
  await p.evaluate(() => (document.getElementById('fine').follow = 2));
  assert.deepEqual(await p.evaluate(() => window.__errors.fine), [twelve, nope], 'a usable follow says nothing');
  await clean(p, log);
  await context.close();
});

test('mode="train": a step or follow attribute it cannot use is said as in the explorer mode, at the start (ready rejects with it) and when it changes', async () => {
  const { page: p, log, context } = await open('train-ignored', [
    RECORD,
    '<attention-explorer id="tfine" mode="train" params="task=previous-token" step="softmax" follow="2"></attention-explorer>',
    '<attention-explorer id="tbad" mode="train" params="task=previous-token" step="sofmax" follow="two"></attention-explorer>',
    '<attention-explorer id="tfar" mode="train" params="task=previous-token&step=mix&follow=1" follow="40"></attention-explorer>',
  ].join('\n'), { count: 3 });
  assert.deepEqual(await outcome(p, 'tfine'), ['resolved', []]);
  // the attributes reach the explorer under the panel
  assert.equal(await p.locator('#tfine [data-step="softmax"]').getAttribute('aria-pressed'), 'true');
  assert.equal(await p.locator('#tfine #follow-text').textContent().then((t) => /^\S.* \(3\) gives /.test(t)), true, 'it follows row 2 (token 3)');
  const both = 'The step="sofmax" attribute was ignored: the steps are project, score, scale, mask, softmax and mix. '
    + 'The follow="two" attribute was ignored: follow is a row number, from 0 for the first token.';
  assert.deepEqual(await outcome(p, 'tbad'), ['rejected', both, [both]], 'ready rejects with the message shown, and explorer-error carries it');
  assert.equal(await p.locator('#tbad #error').textContent(), both);
  assert.equal(await p.locator('#tbad #error').isVisible(), true);
  assert.equal(await p.locator('#tbad .train').count(), 1, 'the panel is there: only the attributes were left out');
  assert.equal(await p.locator('#tbad p.error').count(), 0, 'no “could not start” message (the element’s own, attention-explorer.js #message)');
  // a row past the trained head's tokens (not the placeholder head's before it): the params' follow stays
  const n = (await rowA(p, '#tfar')).length;
  assert.equal(n, 8, 'the previous-token task’s sentence (the cat preset shown before it has 5 tokens)');
  const far = `The follow="40" attribute was ignored: this head has ${n} tokens, rows 0 to ${n - 1}.`;
  assert.deepEqual(await outcome(p, 'tfar'), ['rejected', far, [far]]);
  assert.equal(await p.locator('#tfar [data-step="mix"]').getAttribute('aria-pressed'), 'true', 'the params’ step is kept');
  // later changes, through the attribute and the property, as in the explorer mode
  await p.evaluate(() => document.getElementById('tfine').setAttribute('follow', '40'));
  assert.equal(await p.locator('#tfine #error').textContent(), far);
  await p.evaluate(() => (document.getElementById('tfine').step = 'nope'));
  const nope = 'The step="nope" attribute was ignored: the steps are project, score, scale, mask, softmax and mix.';
  assert.equal(await p.locator('#tfine #error').textContent(), nope);
  assert.deepEqual(await p.evaluate(() => window.__errors.tfine), [far, nope], 'each is an explorer-error too');
  await p.evaluate(() => (document.getElementById('tfine').step = 'score'));
  await p.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))); // its redraw
  assert.equal(await p.locator('#tfine [data-step="score"]').getAttribute('aria-pressed'), 'true');
  assert.deepEqual(await p.evaluate(() => window.__errors.tfine), [far, nope], 'a usable step says nothing');
  await clean(p, log);
  await context.close();
});

test('a ninth training element rejects ready with what a reader can do, and starts with Try again once another has left the page', async () => {
  const body = [RECORD, ...Array.from({ length: 9 }, (_, i) => `<attention-explorer id="t${i}" mode="train" params="task=previous-token&seed=${i}"></attention-explorer>`)].join('\n');
  const { page: p, log, context } = await open('nine', body, { count: 9, height: 600 });
  for (let i = 0; i < 8; i++) assert.deepEqual(await outcome(p, 't' + i), ['resolved', []], `t${i}`);
  const [state, message, errors] = await outcome(p, 't8');
  assert.equal(state, 'rejected');
  assert.match(message, /the page already runs 8 training panels, the most one page can run at once\. It starts once another one has left the page: then press Try again/);
  assert.doesNotMatch(message, /dispose\(\)/, 'nothing a reader cannot do');
  assert.deepEqual(errors, [message]);
  await p.evaluate(() => document.getElementById('t0').remove()); // frees its trainer (next microtask)
  await p.locator('#t8 button.retry').click();
  assert.deepEqual(await outcome(p, 't8'), ['resolved', [message]], 'a new ready, resolved once it trains');
  assert.equal(await p.locator('#t8 .error:not([hidden])').count(), 0);
  await p.locator('#t8 #train-step').click();
  await p.waitForFunction(() => /Step 1\b/.test(document.getElementById('t8').shadowRoot.querySelector('#train-steps').textContent));
  await clean(p, log);
  await context.close();
});

test('the latest src wins: a slow src replaced after 300 ms shows the new one at once, and the slow fetch is aborted', async () => {
  aborted.length = 0;
  const { page: p, log, context } = await open('latest', `${RECORD}\n<attention-explorer id="e" src="/api/slow.json?ms=8000"></attention-explorer>`, { ready: null });
  await p.waitForSelector('#e p.note[role="status"]');
  assert.match(await p.locator('#e p[role="status"]').textContent(), /^Loading the config from “http:\/\/127\.0\.0\.1:\d+\/api\/slow\.json\?ms=8000”…$/);
  await p.waitForTimeout(300);
  const started = Date.now();
  await p.evaluate(() => document.getElementById('e').setAttribute('src', '/api/good.json'));
  assert.deepEqual(await outcome(p, 'e'), ['resolved', []]);
  assert.ok(Date.now() - started < 4000, `ready after ${Date.now() - started} ms, not after the slow answer`);
  assert.deepEqual(await rowA(p, '#e'), ['0.401', '0.198', '0.401'], 'the worked example of good.json, not the cat of slow.json');
  assert.equal(await p.locator('#e p[role="status"]').count(), 0, 'the loading line is gone');
  for (let k = 0; k < 50 && !aborted.includes('/api/slow.json?ms=8000'); k++) await p.waitForTimeout(100);
  assert.deepEqual(aborted, ['/api/slow.json?ms=8000'], 'the slow request was cancelled by the browser');
  await p.waitForTimeout(300);
  assert.deepEqual(await rowA(p, '#e'), ['0.401', '0.198', '0.401']);
  // the same through the property, twice in one task: good, then a 404 at once
  await p.evaluate(() => {
    const e = document.getElementById('e');
    e.src = '/api/good.json';
    e.src = '/api/missing.json';
  });
  const [state, message, errors] = await outcome(p, 'e');
  assert.equal(state, 'rejected');
  assert.match(message, /^Could not load the config from “http:\/\/127\.0\.0\.1:\d+\/api\/missing\.json”: the server answered 404/);
  assert.deepEqual(errors, [message]);
  assert.equal(await p.locator('#e #error').textContent(), message);
  assert.equal((await rowA(p, '#e')).length, 5, 'the default preset under the message, not good.json');
  await clean(p, log.errors.length ? { ...log, errors: log.errors.filter((e) => !/404/.test(e)) } : log);
  await context.close();
});

test('an element removed before it is ready settles its ready (AbortError): a lab and the induction page removed at once, a slow src after 100 ms', async () => {
  const { page: p, log, context } = await open('remove-early', `${RECORD}\n<script type="module" src="remove-early.js"></script>`, { ready: null, count: 0 });
  const settled = await p.evaluate(() => Promise.race([
    Promise.all(Object.entries(window.__early).map(([id, r]) => r.then((v) => [id, v]))),
    new Promise((ok) => setTimeout(() => ok('still pending after 10 s'), 10000)),
  ]));
  assert.ok(Array.isArray(settled), String(settled));
  for (const [id, v] of settled) assert.match(v, /^rejected AbortError: <attention-explorer> was removed from the page before it was ready/, id);
  await clean(p, log);
  await context.close();
});

test('removing the element while its src loads aborts the fetch; a src that never answers times out after 15 s and says so', async () => {
  aborted.length = 0;
  const { page: p, log, context } = await open('never', [
    RECORD,
    '<attention-explorer id="gone" src="/api/never.json?gone"></attention-explorer>',
    '<attention-explorer id="wait" src="/api/never.json?wait"></attention-explorer>',
  ].join('\n'), { ready: null });
  await p.waitForSelector('#gone p[role="status"]');
  await p.evaluate(() => {
    const el = document.getElementById('gone');
    window.__goneReady = el.ready.then(() => 'resolved', (e) => 'rejected: ' + e.message);
    el.remove();
  });
  for (let k = 0; k < 50 && !aborted.includes('/api/never.json?gone'); k++) await p.waitForTimeout(100);
  assert.deepEqual(aborted, ['/api/never.json?gone'], 'removal cancelled the request');
  assert.match(await p.evaluate(() => window.__goneReady), /^rejected: <attention-explorer> was removed from the page before it was ready/, 'ready settled at the removal');
  const started = Date.now();
  const [state, message, errors] = await outcome(p, 'wait', 30000);
  const took = Date.now() - started;
  assert.equal(state, 'rejected');
  assert.match(message, /^The config at “http:\/\/127\.0\.0\.1:\d+\/api\/never\.json\?wait” did not arrive within 15 seconds, so it was not loaded\. Check that the address is right and the server answers, or put the JSON in the config attribute instead\.$/);
  assert.deepEqual(errors, [message]);
  assert.ok(took > 10000 && took < 25000, `timed out after about 15 s (${took} ms from the removal)`);
  assert.equal(await p.locator('#wait p[role="status"]').count(), 0, 'the loading line is gone');
  assert.equal(await p.locator('#wait #error').textContent(), message);
  assert.ok(aborted.includes('/api/never.json?wait'), 'the timed-out request was cancelled too');
  await clean(p, log);
  await context.close();
});
