// Shared helpers for the browser tests and the frame benchmark: serve web/ with the project's
// static server on a free port, and drive Debian's Chromium through playwright-core (no downloads).
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../tools/serve.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SHOTS = fileURLToPath(new URL('../out/screenshots/', import.meta.url));

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

/** Starts the server and the browser; returns { url, browser, close }. */
export async function setup() {
  const server = await startServer({ root: ROOT + 'web', port: 0 });
  const browser = await launch();
  return {
    url: server.url,
    browser,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * Opens the page at `query` (e.g. "?preset=cat") and waits until it has drawn. Records every
 * request that leaves the server's origin, console errors and dialogs (which must never open).
 */
export async function open(env, query = '', { width = 1280, height = 900, colorScheme = 'light', reducedMotion = 'no-preference' } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height }, colorScheme, reducedMotion, hasTouch: width < 500 });
  const page = await context.newPage();
  const log = { foreign: [], errors: [], dialogs: [] };
  const origin = new URL(env.url).origin;
  page.on('request', (req) => {
    const u = req.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) log.foreign.push(u);
  });
  page.on('pageerror', (e) => log.errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && log.errors.push(m.text()));
  page.on('dialog', (d) => {
    log.dialogs.push(d.message());
    d.dismiss();
  });
  await page.goto(env.url + query);
  await page.waitForSelector('html[data-ready="true"]');
  await settle(page);
  return { page, context, log };
}

/** Waits for the page's pending requestAnimationFrame redraw (two frames). */
export function settle(page) {
  return page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
}

/** Every drawn cell of a matrix as a 2-D array of its text. */
export function cellTexts(page, m) {
  return page.evaluate((m) => {
    const rows = [];
    for (const c of document.querySelectorAll(`[data-matrix="${m}"][data-row]`)) {
      (rows[+c.dataset.row] ||= [])[+c.dataset.col] = c.textContent;
    }
    return rows;
  }, m);
}

/** Parses a shown value ("−0.500", "−∞") back to a number. */
export function shown(text) {
  const t = text.replace(/\u2212/g, '-');
  if (t === '-∞') return -Infinity;
  return Number(t);
}

export function shot(page, name, opts = {}) {
  mkdirSync(SHOTS, { recursive: true });
  return page.screenshot({ path: SHOTS + name + '.png', ...opts });
}
