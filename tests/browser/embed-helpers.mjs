// Shared by the element's browser tests (embed.test.mjs, embed-modes.test.mjs): the strict CSP
// of the embed issue, pages written to tests/out/, and a page opener that records every CSP
// violation, console error, dialog and request to another origin, for clean() to assert.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { ROOT, settle } from './helpers.mjs';

// The same policy `make run` sends (tools/serve.mjs).
export { CSP } from '../../tools/serve.mjs';

/**
 * Returns page(name, body, { css, script, classic }): writes tests/out/DIR/NAME.html with the
 * element's script (a module unless `classic`), optional host CSS, then `body`; returns its path
 * from the repository root, to append to a server's URL.
 */
export function pageWriter(dir) {
  const at = ROOT + 'tests/out/' + dir + '/';
  mkdirSync(at, { recursive: true });
  return (name, body, { css = '', script = '/web/element/attention-explorer.js', classic = false } = {}) => {
    if (css) writeFileSync(at + name + '.css', css);
    writeFileSync(
      at + name + '.html',
      `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${name}</title><link rel="icon" href="/web/favicon.svg">\n` +
        (css ? `<link rel="stylesheet" href="${name}.css">\n` : '') +
        `<script${classic ? '' : ' type="module"'} src="${script}"></script></head>\n<body>\n${body}\n</body></html>\n`,
    );
    return `tests/out/${dir}/${name}.html`;
  };
}

/**
 * Opens `url` in a new context and waits until `count` elements matching `ready` have data-ready
 * (ready = null: no wait). Records CSP violations, console errors, dialogs, requests (all, and
 * those leaving the origin), Wasm instantiations (every element on a page shares one core) and
 * the elements' explorer-state events.
 */
export async function openEmbed(browser, url, { width = 1100, height = 900, colorScheme = 'light', ready = 'attention-explorer', count = 1 } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme, acceptDownloads: true });
  const p = await context.newPage();
  const log = { foreign: [], errors: [], dialogs: [], requests: [] };
  const origin = url.startsWith('file:') ? 'file://' : new URL(url).origin;
  p.on('request', (req) => {
    const u = req.url();
    log.requests.push(u);
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) log.foreign.push(u);
  });
  p.on('pageerror', (e) => log.errors.push(String(e)));
  p.on('console', (m) => m.type() === 'error' && log.errors.push(m.text()));
  p.on('dialog', (d) => (log.dialogs.push(d.message()), d.dismiss()));
  await p.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    window.__instantiations = 0;
    const inst = WebAssembly.instantiate;
    WebAssembly.instantiate = function (...args) {
      window.__instantiations++;
      return inst.apply(this, args);
    };
    window.__states = [];
    document.addEventListener('explorer-state', (e) => window.__states.push([e.target.id, e.detail.mode, e.detail.params]));
  });
  await p.goto(url);
  if (ready) await p.waitForFunction(([sel, n]) => [...document.querySelectorAll(sel)].filter((e) => e.dataset.ready).length >= n, [ready, count]);
  await settle(p);
  return { page: p, context, log };
}

/** Asserts that nothing a strict page forbids happened. */
export async function clean(p, log, what = '') {
  assert.deepEqual(await p.evaluate(() => window.__violations), [], `no CSP violation ${what}`);
  assert.deepEqual(log.errors, [], `no console error ${what}`);
  assert.deepEqual(log.dialogs, [], `no dialog ${what}`);
  assert.deepEqual(log.foreign, [], `no request leaves the origin ${what}`);
}
