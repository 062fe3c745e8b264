// frame-bench.mjs: how long the page takes to react, measured in headless Chromium.
// Not a test (nothing is asserted); `make bench` runs it:  node tests/browser/frame-bench.mjs
//
//   edit  n = 8, 64:  set one value of X, then recompute (attn.forward) + redraw every matrix
//                     + style and layout, i.e. everything before paint.
//   hover n = 256:    a pointermove over the A canvas, then explanation, highlights + layout.
//   replay:           ?mode=train&steps=20000: the longest a 10 ms timer waits while it replays.
// Each figure is the median of many runs, in milliseconds. The target is one 16 ms frame.
import { setup, open } from './helpers.mjs';
import { syntheticConfig } from '../../web/presets.js';

const RUNS = Number(process.env.RUNS || 60);
const env = await setup();
try {
  const results = [];
  for (const n of [8, 64]) {
    const { page, context } = await open(env, '#config=' + encodeURIComponent(JSON.stringify(syntheticConfig(n, 16))));
    const ms = await page.evaluate((runs) => {
      const times = [];
      for (let k = 0; k < runs + 5; k++) {
        const t0 = performance.now();
        __explorer.setValue('X', k % 8, 0, (k % 10) / 10);
        __explorer.flush();
        document.body.getBoundingClientRect(); // force style + layout
        if (k >= 5) times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      return times[times.length >> 1];
    }, RUNS);
    results.push([`edit -> recompute + redraw, n = ${n} (d = dk = dv = 16)`, ms]);
    await context.close();
  }
  {
    const { page, context } = await open(env, '#config=' + encodeURIComponent(JSON.stringify(syntheticConfig(256, 16))));
    await page.locator('canvas[data-matrix-canvas="A"]').scrollIntoViewIfNeeded();
    const ms = await page.evaluate((runs) => {
      const canvas = document.querySelector('canvas[data-matrix-canvas="A"]');
      const b = canvas.getBoundingClientRect();
      const times = [];
      for (let k = 0; k < runs + 5; k++) {
        const t0 = performance.now();
        const x = b.left + ((k * 37) % 256 + 0.5) * (b.width / 256);
        const y = b.top + ((k * 91) % 256 + 0.5) * (b.height / 256);
        canvas.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, clientX: x, clientY: y, pointerType: 'mouse' }));
        __explorer.flush();
        document.body.getBoundingClientRect();
        if (k >= 5) times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      return times[times.length >> 1];
    }, RUNS);
    results.push(['hover -> explanation + highlights, n = 256 (d = dk = dv = 16)', ms]);
    await context.close();
  }
  {
    // A training link of 20000 steps: the page replays it in chunks (web/train-panel.js). How
    // late does a 10 ms timer fire while it does (the longest the page takes to answer), against
    // the whole replay run in one go, as the page did before.
    const { page, context } = await open(env, '?mode=train&task=find-the-noun&seed=1&steps=20000');
    await page.evaluate(() => {
      globalThis.__lag = 0;
      let last = performance.now();
      globalThis.__tick = setInterval(() => {
        const t = performance.now();
        globalThis.__lag = Math.max(globalThis.__lag, t - last - 10);
        last = t;
      }, 10);
    });
    await page.waitForFunction(() => globalThis.__train, null, { timeout: 300000 });
    const r = await page.evaluate(async () => {
      clearInterval(globalThis.__tick);
      const { loadAttention } = await import('./attention.js');
      const t = (await loadAttention()).createTrainer({ task: 'find-the-noun', seed: 1 });
      const t0 = performance.now();
      t.step(20000);
      const blocked = performance.now() - t0;
      t.dispose();
      return { lag: globalThis.__lag, blocked };
    });
    results.push(['replay of a 20000-step link: longest the page takes to answer', r.lag]);
    results.push(['  the same 20000 steps in one go (how long the page blocked before)', r.blocked]);
    await context.close();
  }
  console.log(`page frame times (median of ${RUNS} runs, headless Chromium, before paint):`);
  for (const [what, ms] of results) console.log(`  ${what.padEnd(62)} ${ms.toFixed(2)} ms`);
} finally {
  await env.close();
}
