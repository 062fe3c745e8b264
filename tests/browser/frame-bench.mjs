// frame-bench.mjs: how long the page takes to react, measured in headless Chromium.
// Not a test (nothing is asserted); `make bench` runs it:  node tests/browser/frame-bench.mjs
//
//   edit  n = 8, 64:  set one value of X, then recompute (attn.forward) + redraw every matrix
//                     + style and layout, i.e. everything before paint.
//   hover n = 256:    a pointermove over the A canvas, then explanation, highlights + layout.
//   replay:           ?mode=train&steps=20000: the longest main-thread task while it replays
//                     (CPU time from Chrome's trace), beside the same steps in one task.
// Each figure is the median of many runs, in milliseconds. The target is one 16 ms frame.
import { setup, open } from './helpers.mjs';
import { readFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticConfig } from '../../web/blocks/presets.js';

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
    // A training link of 20000 steps: the page replays it in chunks (web/train/panel.js). The
    // longest main-thread task while it replays, in CPU time of that thread (Chrome's trace
    // "tdur", which a busy machine inflates less than wall time), against the same 20000 steps
    // run in one task, as the page did before; and how late a 10 ms timer fired (wall time).
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const trace = join(tmpdir(), `ae-replay-${process.pid}.json`);
    await env.browser.startTracing(page, { path: trace, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    await page.goto(env.url + '?mode=train&task=find-the-noun&seed=1&steps=20000');
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
    const lag = await page.evaluate(() => (clearInterval(globalThis.__tick), globalThis.__lag));
    await page.evaluate(() => new Promise((ok) => setTimeout(ok, 50)));
    await page.evaluate(async () => {
      const { loadAttention } = await import('./core/attention.js');
      const t = (await loadAttention()).createTrainer({ task: 'find-the-noun', seed: 1 });
      t.step(20000);
      t.dispose();
    });
    await env.browser.stopTracing();
    const events = JSON.parse(readFileSync(trace, 'utf8')).traceEvents;
    unlinkSync(trace);
    const names = {};
    for (const e of events) if (e.name === 'thread_name') names[e.pid + ':' + e.tid] = e.args.name;
    const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && names[e.pid + ':' + e.tid] === 'CrRendererMain');
    const byThread = new Map();
    for (const t of tasks) byThread.set(t.pid + ':' + t.tid, [...(byThread.get(t.pid + ':' + t.tid) || []), t]);
    const busy = (ts) => ts.reduce((sum, t) => sum + (t.tdur || 0), 0); // the page's renderer: the busiest one
    const main = [...byThread.values()].sort((a, b) => busy(b) - busy(a))[0].sort((a, b) => a.ts - b.ts);
    const oneGo = main.reduce((b, t) => ((t.tdur || 0) > (b.tdur || 0) ? t : b));
    const before = main.filter((t) => t !== oneGo && t.ts < oneGo.ts); // page load and the replay
    const cpu = (t) => (t.tdur || 0) / 1000;
    results.push(['replay of a 20000-step link: longest task while it loads and replays (CPU)', Math.max(...before.map(cpu))]);
    results.push(['  the same 20000 steps in one task (the page before), CPU time', cpu(oneGo)]);
    results.push(['  ... wall time of that task', oneGo.dur / 1000]);
    results.push(['  longest a 10 ms timer waited during the replay (wall)', lag]);
    await context.close();
  }
  console.log(`page frame times (median of ${RUNS} runs, headless Chromium, before paint):`);
  for (const [what, ms] of results) console.log(`  ${what.padEnd(62)} ${ms.toFixed(2)} ms`);
} finally {
  await env.close();
}
