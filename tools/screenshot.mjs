// @ts-check
// The README's picture, taken from the real page so it never goes stale (`make screenshot`):
//   node tools/screenshot.mjs [out.png]       default docs/explorer.png
// It serves web/ with tools/serve.mjs on a free port, opens the explorer in Debian's Chromium
// through playwright-core (CHROMIUM= to use another binary; nothing is downloaded), follows a
// token at the softmax step with one weight's explanation open, and writes a PNG of the page's
// first screen, in 256 colours (tools/png-palette.mjs: a third of the size, the same to the eye).
// Needs `make all` first (the page imports web/gen/).
import { chromium } from 'playwright-core';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer } from './serve.mjs';
import { palettePng, readPng } from './png-palette.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** What the picture shows: a link to the page, as a reader would open it. */
export const SCREENSHOT_QUERY = '?preset=cat&step=softmax&follow=4&cell=A.4.1';
/** The window, in CSS pixels, and the device scale; the PNG is width × height × scale. */
export const SCREENSHOT_VIEW = { width: 1280, height: 800, scale: 1 };

/**
 * Writes the PNG and returns its path and size in bytes.
 * @param {string} out the PNG's path
 * @returns {Promise<{ out: string, bytes: number }>}
 */
export async function screenshot(out = ROOT + 'docs/explorer.png') {
  if (!existsSync(ROOT + 'web/gen/wasm-source.js')) {
    throw new Error('web/gen/ is missing: run `make all` first, then `make screenshot` again');
  }
  const server = await startServer({ root: ROOT + 'web', port: 0 });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const { width, height, scale } = SCREENSHOT_VIEW;
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: scale, colorScheme: 'light', reducedMotion: 'reduce' });
    const page = await context.newPage();
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url + SCREENSHOT_QUERY);
    await page.waitForSelector('html[data-ready="true"]', { timeout: 30000 });
    // Two frames: the page's one scheduled redraw has run.
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
    if (errors.length) throw new Error(`the page reported an error, so no picture was taken: ${errors[0]}`);
    writeFileSync(out, palettePng(readPng(await page.screenshot({ type: 'png' }))));
    return { out, bytes: statSync(out).size };
  } finally {
    await browser.close();
    await server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  screenshot(process.argv[2]).then(
    ({ out, bytes }) => console.log(`wrote ${out} (${(bytes / 1024).toFixed(0)} KB)`),
    (e) => {
      console.error(`screenshot: ${e.message}`);
      process.exit(1);
    },
  );
}
