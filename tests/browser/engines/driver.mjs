// The small driver interface the cross-engine suite (suite.mjs) is written against, once, with
// one implementation per engine, each driving a Debian browser (nothing is downloaded):
//
//   chromium.mjs  /usr/bin/chromium through playwright-core (the DevTools protocol)
//   firefox.mjs   /usr/bin/firefox-esr through puppeteer-core over WebDriver BiDi
//   webkit.mjs    WebKitGTK's MiniBrowser through WebKitWebDriver and selenium-webdriver (WebDriver
//                 classic), in a virtual X display of its own (processes.mjs)
//
// An engine module exports launch() -> Browser:
//   Browser  { name, version, open(url, { width, height, ready }) -> Page, close() }
//   Page     the class below; an engine implements its primitives:
//     _run(expr)           evaluates a JS expression in the page, awaits it, returns its JSON value
//     _goto(url)           navigates and waits for the load event
//     _move(x, y), _down(), _up()   the mouse, in viewport pixels
//     _keyDown(key), _keyUp(key)    one key by its KeyboardEvent.key ("ArrowDown", "Control", "+", "2")
//     _url(), _shot(path), _close()
//     _download(action)    runs action() (a click) and resolves to { name, bytes } of the file
//                          the browser saved
// Everything else (waiting, finding elements through shadow roots, clicking, reading text) is
// written here once, on top of those primitives: a test never branches on the engine.
//
// Waits are for a condition in the page (polled), never for a clock; the deadline only turns a
// hang into a failure that says what it was waiting for.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ENGINES = ['chromium', 'firefox', 'webkit'];
export const SHOTS = fileURLToPath(new URL('../../out/screenshots/engines/', import.meta.url));
const WAIT_MS = 30000;

/** Throws, saying what to install, when a browser's program is not at `path`. */
export function needs(path, pkg) {
  if (!existsSync(path)) throw new Error(`${path} is missing: install Debian's ${pkg} (make setup-test does it as root: apt-get install -y ${pkg})`);
  return path;
}

/** Launches `name` (one of ENGINES). */
export async function launchEngine(name) {
  if (!ENGINES.includes(name)) throw new Error(`no engine “${name}”: the engines are ${ENGINES.join(', ')}`);
  const { launch } = await import(`./${name}.mjs`);
  return launch();
}

// Installed before the page's own scripts where the driver can (Chromium, Firefox), right after
// the load otherwise (WebKitWebDriver has no preload scripts); the suite's own pages also load
// it as their first script (probe.js), so there it runs first in every engine. It records
// uncaught errors, rejected promises, console.error calls and CSP violations.
export const PROBE = `(() => {
  if (window.__probe) return;
  const p = (window.__probe = { errors: [], violations: [] });
  addEventListener('error', (e) => p.errors.push('error: ' + e.message));
  addEventListener('unhandledrejection', (e) => p.errors.push('unhandled rejection: ' + ((e.reason && e.reason.message) || e.reason)));
  document.addEventListener('securitypolicyviolation', (e) => p.violations.push(e.violatedDirective + ' ' + e.blockedURI));
  const ce = console.error;
  console.error = function (...a) { p.errors.push('console.error: ' + a.join(' ')); return ce.apply(this, a); };
})()`;

// Finds an element by a CSS selector; " >>> " steps into the shadow root of what matched so far
// ("#one >>> [data-matrix=A]"). Sent along with every call that takes a target.
const FIND = `(sel) => {
  let at = document, el = null;
  for (const part of sel.split(' >>> ')) {
    el = at.querySelector(part);
    if (!el) return null;
    at = el.shadowRoot || el;
  }
  return el;
}`;

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

export class Page {
  constructor(engine) {
    this.engine = engine;
    this.nativeErrors = []; // console errors and page errors the driver reports itself
  }

  /** Runs fn(arg, find) in the page (fn must not close over anything); resolves to its JSON value. */
  eval(fn, arg) {
    return this._run(`(${fn})(${arg === undefined ? 'undefined' : JSON.stringify(arg)}, ${FIND})`);
  }

  /** Polls fn(arg, find) in the page until it returns something truthy, and returns that. */
  async waitFor(fn, arg, what, ms = WAIT_MS) {
    const end = Date.now() + ms;
    for (;;) {
      const v = await this.eval(fn, arg);
      if (v) return v;
      if (Date.now() > end) throw new Error(`${this.engine}: gave up waiting for ${what || fn}`);
      await sleep(40);
    }
  }

  /** Navigates and waits until `ready` (a CSS selector through shadow roots) matches. */
  async goto(url, ready = 'html[data-ready="true"]') {
    await this._goto(url);
    await this._run(PROBE);
    if (ready) {
      try {
        await this.waitFor((sel, find) => Boolean(find(sel)), ready, `${ready} on ${url}`);
      } catch (e) {
        const { errors, violations } = await this.problems();
        throw new Error(`${e.message}; the page reported: ${JSON.stringify([...errors, ...violations])}`);
      }
    }
    await this.settle();
  }

  /** Waits for the page's pending redraws: two animation frames. */
  settle() {
    return this.eval(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(true)))));
  }

  /** The viewport point at the middle of `target`, scrolled into view first. */
  async point(target) {
    const p = await this.eval((sel, find) => {
      const el = find(sel);
      if (!el) return null;
      el.scrollIntoView({ block: 'center', inline: 'center' });
      const r = el.getBoundingClientRect();
      return { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2), w: r.width, h: r.height };
    }, target);
    if (!p) throw new Error(`${this.engine}: nothing matches ${target}`);
    if (!(p.w > 0 && p.h > 0)) throw new Error(`${this.engine}: ${target} is not shown (${p.w}×${p.h})`);
    return p;
  }

  /** Moves the mouse over `target` (real pointer events from the engine's input system). */
  async hover(target) {
    const { x, y } = await this.point(target);
    await this._move(x, y);
  }

  async click(target) {
    await this.hover(target);
    await this._down();
    await this._up();
  }

  /**
   * Presses keys one after another, each by its KeyboardEvent.key; "Control+v" holds the first
   * key down while pressing the second (the platform's shortcut key on Linux is Control).
   */
  async press(...keys) {
    for (const k of keys) {
      const [mod, key] = k.length > 1 && k.includes('+') ? k.split('+') : [null, k];
      if (mod) await this._keyDown(mod);
      await this._keyDown(key);
      await this._keyUp(key);
      if (mod) await this._keyUp(mod);
    }
  }

  /** Presses the mouse button at (x0, y0), moves to (x1, y1) and lets go. */
  async drag(x0, y0, x1, y1) {
    await this._move(x0, y0);
    await this._down();
    await this._move(x1, y1);
    await this._up();
  }

  /** Types text key by key into whatever has the focus. */
  async type(text) {
    await this.press(...text);
  }

  text(target) {
    return this.eval((sel, find) => (find(sel) ? find(sel).textContent : null), target);
  }

  url() {
    return this._url();
  }

  /** Runs action() (e.g. a click on a download button); resolves to { name, bytes } of the download. */
  download(action) {
    return this._download(action);
  }

  /** What went wrong in the page: uncaught errors, console errors, CSP violations. */
  async problems() {
    const p = (await this.eval(() => window.__probe || { errors: [], violations: [] })) || { errors: [], violations: [] };
    return { errors: [...this.nativeErrors, ...p.errors], violations: p.violations };
  }

  async shot(name) {
    mkdirSync(SHOTS, { recursive: true });
    await this._shot(`${SHOTS}${this.engine}-${name}.png`);
  }

  close() {
    return this._close();
  }
}

/**
 * For engines that save downloads into a folder: runs action() and resolves to { name, bytes }
 * of the new file there, once no file is left with an in-progress name (`partial`) and its size
 * held still over two looks.
 */
export async function downloadInto(engine, dir, action, partial) {
  const before = new Set(readdirSync(dir));
  await action();
  const end = Date.now() + WAIT_MS;
  let last = null;
  for (;;) {
    const fresh = readdirSync(dir).filter((f) => !before.has(f) && statSync(join(dir, f)).isFile());
    const name = fresh.length === 1 && !partial.test(fresh[0]) ? fresh[0] : null;
    const size = name && statSync(join(dir, name)).size;
    if (size && last === `${name} ${size}`) return { name, bytes: readFileSync(join(dir, name)) };
    last = name && `${name} ${size}`;
    if (Date.now() > end) throw new Error(`${engine}: no download arrived in ${dir} (there: ${fresh.join(', ') || 'nothing new'})`);
    await sleep(40);
  }
}

/**
 * The primitives for a Playwright or a Puppeteer page (the two have the same shape for these):
 * chromium.mjs and firefox.mjs add only how a context closes and how a download is taken.
 */
export class ScriptedPage extends Page {
  constructor(engine, page) {
    super(engine);
    this.page = page;
    page.on('pageerror', (e) => this.nativeErrors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && this.nativeErrors.push(m.text()));
  }
  _run(expr) { return this.page.evaluate(expr); }
  _goto(url) { return this.page.goto(url, { waitUntil: 'load' }); }
  _move(x, y) { return this.page.mouse.move(x, y); }
  _down() { return this.page.mouse.down(); }
  _up() { return this.page.mouse.up(); }
  _keyDown(key) { return this.page.keyboard.down(key); }
  _keyUp(key) { return this.page.keyboard.up(key); }
  _url() { return this.page.url(); }
  _shot(path) { return this.page.screenshot({ path }); }
}
