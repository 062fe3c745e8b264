// Measures one cold page load in Chromium: the time from navigation start until the page says it
// has drawn its numbers (html[data-ready="true"], which the explorer sets after its first draw and
// the labs page after its lab's), and what went over the wire until then. Used by make bench
// (bench/first-numbers.mjs, on a throttled connection) and tests/browser/site.test.mjs (unthrottled,
// for the byte budget).

/** The profile of issue 24: 1.6 Mbps both ways (200,000 bytes/s), 150 ms round trip. */
export const SLOW_LINK = Object.freeze({ offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 200_000 });

// Runs in the page before its own scripts: notes when data-ready turns "true".
// (The <html> element may not exist yet: the whole document is watched.)
const WATCH_READY = () => {
  new MutationObserver(() => {
    if (document.documentElement?.dataset.ready === 'true' && globalThis.__readyAt === undefined) globalThis.__readyAt = performance.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready'] });
};

/**
 * Opens `url` in a fresh context of `browser` (an empty cache, the cache disabled too), with the
 * connection `link` (CDP Network.emulateNetworkConditions; none: unthrottled).
 * Returns { ms, lastByte, bytes, requests, files, asked, errors }: ms from navigation start to ready;
 * lastByte when the last of the requests before ready ended (the network's share); bytes is what
 * was transferred (headers and the body as sent, compressed or not) by the page and every request
 * that ended before ready; files lists those requests' { url, bytes, encoding }; asked, the URLs of
 * the page's script and modulepreload elements when it was ready.
 * @param {import('playwright-core').Browser} browser @param {string} url
 * @param {{ link?: typeof SLOW_LINK, timeout?: number }} [options]
 */
export async function measureLoad(browser, url, { link, timeout = 60_000 } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const encodings = new Map();
    page.on('response', (res) => encodings.set(res.url(), res.headers()['content-encoding'] || ''));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (link) await cdp.send('Network.emulateNetworkConditions', link);
    await page.addInitScript(WATCH_READY);
    await page.goto(url, { waitUntil: 'commit', timeout });
    await page.waitForFunction(() => globalThis.__readyAt !== undefined, null, { timeout, polling: 50 });
    const got = await page.evaluate(() => {
      const ready = /** @type {number} */ (globalThis.__readyAt);
      const nav = /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]);
      const done = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType('resource')).filter((r) => r.responseEnd <= ready);
      const shown = [...document.querySelectorAll('.error, [role="alert"]')].filter((e) => !e.hidden && e.textContent?.trim()).map((e) => e.textContent);
      // the scripts the page asked for by name (its HTML, and links added before its modules ran)
      const asked = [...document.querySelectorAll('script[src], link[rel="modulepreload"]')].map((e) => new URL(e.getAttribute('src') ?? e.getAttribute('href') ?? '', location.href).href);
      return { ready, asked, lastByte: Math.max(...[nav, ...done].map((r) => r.responseEnd)), files: [nav, ...done].map((r) => ({ url: r.name, bytes: r.transferSize })), shown };
    });
    if (got.shown.length) errors.push(...got.shown);
    const files = got.files.map((f) => ({ ...f, encoding: encodings.get(f.url) ?? '' }));
    return { ms: got.ready, lastByte: got.lastByte, bytes: files.reduce((s, f) => s + f.bytes, 0), requests: files.length, files, asked: got.asked, errors };
  } finally {
    await context.close();
  }
}

/** The middle value. @param {number[]} xs */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
