// WebKit for the cross-engine suite: WebKitGTK's MiniBrowser (Debian's libwebkit2gtk-4.1-0,
// the engine of Safari) through WebKitWebDriver (webkit2gtk-driver) and selenium-webdriver, in
// its own Xvfb display. WebKitWebDriver holds one session at a time, with one window, so one
// page is open at a time (open() refuses a second). HOME and the XDG folders point into a
// temporary folder, removed at the end: a download lands there, and nothing the browser keeps
// outlives the run.
import { Builder, Key, Origin } from 'selenium-webdriver';
import { createServer } from 'node:net';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Page, downloadInto, needs } from './driver.mjs';
import { startXvfb, track } from './processes.mjs';

const DRIVER = process.env.WEBKIT_WEBDRIVER || '/usr/bin/WebKitWebDriver';
// The MiniBrowser lives under the machine's multiarch folder (x86_64-linux-gnu, aarch64-linux-gnu, ...).
const BROWSER =
  process.env.WEBKIT_BROWSER ||
  readdirSync('/usr/lib').map((d) => `/usr/lib/${d}/webkit2gtk-4.1/MiniBrowser`).find((f) => existsSync(f)) ||
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const KEYS = { ArrowDown: Key.ARROW_DOWN, ArrowUp: Key.ARROW_UP, ArrowLeft: Key.ARROW_LEFT, ArrowRight: Key.ARROW_RIGHT, Enter: Key.ENTER, Escape: Key.ESCAPE, Tab: Key.TAB, Backspace: Key.BACK_SPACE, Control: Key.CONTROL, Shift: Key.SHIFT, PageDown: Key.PAGE_DOWN, PageUp: Key.PAGE_UP, Home: Key.HOME, End: Key.END };
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer().once('error', fail).listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

async function untilUp(url, child) {
  const end = Date.now() + 30000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${child.exitCode}`);
    try {
      if ((await fetch(url + '/status')).ok) return;
    } catch {}
    if (Date.now() > end) throw new Error('WebKitWebDriver did not answer on ' + url);
    await sleep(50);
  }
}

class WebKitPage extends Page {
  constructor(driver, home, done) {
    super('webkit');
    Object.assign(this, { driver, home, done });
  }
  async _run(expr) {
    const r = await this.driver.executeAsyncScript(
      `const done = arguments[arguments.length - 1];
       Promise.resolve().then(() => ${expr}).then((v) => done({ v: v === undefined ? null : v }), (e) => done({ e: String((e && e.stack) || e) }));`,
    );
    if (r && 'e' in r) throw new Error('webkit: ' + r.e);
    return r.v;
  }
  _goto(url) { return this.driver.get(url); }
  _move(x, y) { return this.driver.actions().move({ x, y, origin: Origin.VIEWPORT, duration: 0 }).perform(); }
  _down() { return this.driver.actions().press().perform(); }
  _up() { return this.driver.actions().release().perform(); }
  _keyDown(key) { return this.driver.actions().keyDown(KEYS[key] || key).perform(); }
  _keyUp(key) { return this.driver.actions().keyUp(KEYS[key] || key).perform(); }
  _url() { return this.driver.getCurrentUrl(); }
  async _shot(path) {
    writeFileSync(path, Buffer.from(await this.driver.takeScreenshot(), 'base64'));
  }
  async _close() {
    let ok = false;
    try {
      if (this.driver) await this.driver.get('about:blank');
      ok = true;
    } finally {
      await this.done(ok);
    }
  }
  // MiniBrowser saves a download straight into its home folder.
  _download(action) { return downloadInto('webkit', this.home, action, /\.(wkdownload|download|part)$/); }
}

export async function launch() {
  needs(DRIVER, 'webkit2gtk-driver');
  needs(BROWSER, 'webkit2gtk-driver');
  const x = await startXvfb();
  const port = await freePort();
  const server = `http://127.0.0.1:${port}`;
  const home = mkdtempSync(join(tmpdir(), 'ae-webkit-'));
  for (const d of ['.config', '.cache', '.local/share']) mkdirSync(join(home, d), { recursive: true });
  const env = { ...process.env, DISPLAY: x.display, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache'), XDG_DATA_HOME: join(home, '.local/share') };
  const child = track(DRIVER, ['--port=' + port], { stdio: ['ignore', 'ignore', 'ignore'], env });
  const stop = async () => {
    await child.stop();
    await x.stop();
    rmSync(home, { recursive: true, force: true });
  };
  let version;
  try {
    await untilUp(server, child);
    version = execFileSync(BROWSER, ['--version'], { env, encoding: 'utf8' }).trim().replace(/^WebKitGTK /, '');
  } catch (e) {
    await stop();
    throw e;
  }
  // One session (one MiniBrowser) serves page after page: a page is closed by leaving it for
  // about:blank, and the next one opens in the same window. A page that fails to close ends the
  // session, and the next page starts a fresh one.
  let session = null, open = null;
  const endSession = async () => {
    const d = session;
    session = null;
    if (d) await d.quit().catch(() => {});
  };
  const browser = {
    name: 'webkit',
    version,
    async open(url, { width = 1280, height = 900, ready } = {}) {
      if (open) throw new Error(`webkit: close the page on ${open} first (WebKitWebDriver holds one session, one window)`);
      open = url;
      const page = new WebKitPage(null, home, async (ok) => {
        open = null;
        if (!ok) await endSession();
      });
      try {
        session ||= await new Builder()
          .usingServer(server)
          .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: BROWSER, args: ['--automation'] } })
          .build();
        page.driver = session;
        // width × height is the viewport, as in the other engines: the window is larger by
        // MiniBrowser's own bars (38 px of toolbar: a 1024 × 768 window showed 1024 × 730)
        // (each resize lands a moment later: wait for the window to have it before measuring)
        const resize = async (w, h) => {
          await session.manage().window().setRect({ width: w, height: h });
          for (let k = 0; k < 100; k++) {
            const [, , ow, oh] = await session.executeScript('return [innerWidth, innerHeight, outerWidth, outerHeight]');
            if (ow === w && oh === h) break;
            await new Promise((ok) => setTimeout(ok, 20));
          }
          return session.executeScript('return [innerWidth, innerHeight]');
        };
        const [w, h] = await resize(width, height);
        if (w !== width || h !== height) await resize(2 * width - w, 2 * height - h);
        await page.goto(url, ready);
      } catch (e) {
        await page.close();
        throw e;
      }
      return page;
    },
    async close() {
      await endSession();
      await stop();
    },
  };
  return browser;
}
