// Chromium for the cross-engine suite: Debian's /usr/bin/chromium through playwright-core, the
// same launch as the Chromium-only tests (../helpers.mjs). One browser; a fresh context per page.
import { readFile } from 'node:fs/promises';
import { launch as launchChromium } from '../helpers.mjs';
import { ScriptedPage, PROBE } from './driver.mjs';

class ChromiumPage extends ScriptedPage {
  constructor(context, page) {
    super('chromium', page);
    this.context = context;
  }
  _close() { return this.context.close(); }
  async _download(action) {
    const [d] = await Promise.all([this.page.waitForEvent('download'), action()]);
    return { name: d.suggestedFilename(), bytes: await readFile(await d.path()) };
  }
}

export async function launch() {
  const browser = await launchChromium();
  return {
    name: 'chromium',
    version: browser.version(),
    async open(url, { width = 1280, height = 900, ready } = {}) {
      const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
      await context.addInitScript(PROBE);
      const page = new ChromiumPage(context, await context.newPage());
      await page.goto(url, ready);
      return page;
    },
    close: () => browser.close(),
  };
}
