// Firefox for the cross-engine suite: Debian's /usr/bin/firefox-esr, headless, through
// puppeteer-core over WebDriver BiDi (no CDP, no downloaded browser). One browser; a fresh
// browser context per page, with its own download folder.
import puppeteer from 'puppeteer-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedPage, PROBE, downloadInto, needs } from './driver.mjs';
import { WATCHDOG } from './processes.mjs';

const BINARY = process.env.FIREFOX || '/usr/bin/firefox-esr';

class FirefoxPage extends ScriptedPage {
  constructor(context, page, dir) {
    super('firefox', page);
    Object.assign(this, { context, dir });
  }
  async _close() {
    await this.context.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
  // Firefox saves into the context's folder (WebDriver BiDi browser.setDownloadBehavior), first as NAME.part.
  _download(action) { return downloadInto('firefox', this.dir, action, /\.part$/); }
}

export async function launch() {
  // Started through watchdog.sh, so that Firefox ends with this process even when it is killed
  // (puppeteer stops it on exit and on signals, but cannot on SIGKILL).
  const browser = await puppeteer.launch({
    browser: 'firefox', protocol: 'webDriverBiDi', headless: true,
    executablePath: WATCHDOG, env: { ...process.env, WATCHDOG_EXEC: needs(BINARY, 'firefox-esr') },
  });
  return {
    name: 'firefox',
    version: (await browser.version()).replace('firefox/', ''),
    async open(url, { width = 1280, height = 900, ready } = {}) {
      const dir = mkdtempSync(join(tmpdir(), 'ae-firefox-dl-'));
      const context = await browser.createBrowserContext({ downloadBehavior: { policy: 'allow', downloadPath: dir } });
      const page = await context.newPage();
      await page.setViewport({ width, height });
      await page.evaluateOnNewDocument(PROBE);
      const p = new FirefoxPage(context, page, dir);
      await p.goto(url, ready);
      return p;
    },
    close: () => browser.close(),
  };
}
