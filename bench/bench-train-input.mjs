// bench-train-input.mjs: `make bench`. How the training page (?mode=train) answers while a head
// trains, with the explorer's A in view (1280×900):
//   busy   the page thread's share of 5 s of training: CPU time of its tasks (Chromium's trace)
//          over the window, with the number of tasks of 50 ms or more and the frames drawn;
//   click  from a click on a cell of A (the input event's timeStamp) to the explanation naming
//          that cell in the DOM, and the click's Event Timing duration (its input to the next
//          frame presented after its handlers ran: the frame with the answer, as INP counts it);
//          median of 10 clicks, 400 ms apart, on 10 cells, training all along.
// Not a test: nothing is asserted. WEBROOTS=dirA,dirB compares two copies of web/ (e.g. one from
// `git archive` of another commit, with web/gen copied in), as bench/bench-refresh.mjs does.
import { launch, ROOT } from '../tests/browser/helpers.mjs';
import { startServer } from '../tools/serve.mjs';
import { loadavg } from 'node:os';

const med = (xs) => { xs = xs.slice().sort((a, b) => a - b); return xs.length ? xs[xs.length >> 1] : NaN; };
const roots = (process.env.WEBROOTS || ROOT + 'web').split(',');
const QUERY = '?mode=train&task=find-the-noun&seed=1';
const WINDOW_MS = 5000;
const CELLS = [[4, 1], [2, 0], [3, 3], [1, 0], [4, 4], [3, 1], [2, 2], [4, 0], [3, 2], [2, 1]];
console.log(`train page while training: load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const browser = await launch();
try {
  for (const root of roots) {
    const server = await startServer({ root, port: 0 });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(server.url + QUERY);
    await page.waitForFunction(() => globalThis.__train);
    await page.locator('[data-panel="A"]').scrollIntoViewIfNeeded();
    await page.evaluate(() => __train.play());
    await page.waitForTimeout(1000); // warm up

    // busy: 5 s of training in Chromium's trace
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] });
    const frames = await page.evaluate((ms) => new Promise((done) => {
      performance.mark('busy-start');
      let n = 0;
      const t0 = performance.now();
      const count = () => (performance.now() - t0 < ms ? (n++, requestAnimationFrame(count)) : (performance.mark('busy-end'), done(n)));
      requestAnimationFrame(count);
    }), WINDOW_MS);
    const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
    const names = new Map();
    for (const e of events) if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
    const mark = (name) => events.find((e) => e.name === name && e.ph !== 'X').ts;
    const a = mark('busy-start'), b = mark('busy-end');
    const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.tdur != null && e.ts >= a && e.ts < b && names.get(`${e.pid}:${e.tid}`) === 'CrRendererMain');
    const cpu = tasks.reduce((x, t) => x + t.tdur, 0) / 1000, wall = tasks.reduce((x, t) => x + t.dur, 0) / 1000;
    const span = (b - a) / 1000;
    const long = tasks.filter((t) => t.dur >= 50000).length;
    const big = tasks.filter((t) => t.tdur >= 2000).map((t) => t.tdur / 1000).sort((x, y) => x - y);

    // click: 10 cells of A, clicked while it trains
    await page.evaluate(() => {
      const g = /** @type {any} */ (globalThis);
      g.__clicks = [];
      const title = document.getElementById('explain-title');
      let pending = null;
      window.addEventListener('pointerdown', (ev) => {
        const c = /** @type {HTMLElement} */ (ev.target).closest('[data-matrix]');
        if (c) pending = { t0: ev.timeStamp, want: `${c.dataset.matrix}.${c.dataset.row}.${c.dataset.col}` };
      }, true);
      new MutationObserver(() => {
        const sel = __explorer.state.sel;
        if (!pending || !sel || `${sel.m}.${sel.i}.${sel.j}` !== pending.want) return;
        const p = pending;
        pending = null;
        const dom = performance.now() - p.t0;
        g.__clicks.push({ dom, text: title.textContent });
      }).observe(title, { childList: true, characterData: true, subtree: true });
      // the browser's own figure: from the click's input to the next frame presented after its handlers (Event Timing)
      g.__painted = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.name === 'click') g.__painted.push(e.duration); })
        .observe({ type: 'event', durationThreshold: 16 });
    });
    for (const [i, j] of CELLS) {
      const box = await page.locator(`[data-matrix="A"][data-row="${i}"][data-col="${j}"]`).boundingBox();
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForTimeout(400);
    }
    await page.waitForTimeout(200);
    const clicks = await page.evaluate(() => globalThis.__clicks);
    const painted = await page.evaluate(() => globalThis.__painted);
    const steps = await page.evaluate(() => (__train.pause(), __train.trainer.steps));
    console.log(`${roots.length > 1 ? root + ': ' : ''}busy ${(100 * cpu / span).toFixed(0)}% CPU (${(100 * wall / span).toFixed(0)}% wall) of ${span.toFixed(0)} ms training, ${long} tasks >= 50 ms, tasks >= 2 ms of CPU: median ${med(big).toFixed(0)} ms, longest ${big.at(-1).toFixed(0)} ms; ${frames} frames (${(frames / span * 1000).toFixed(0)}/s); ` +
      `click to explanation: ${med(clicks.map((c) => c.dom)).toFixed(0)} ms in the DOM, ${med(painted).toFixed(0)} ms to the next paint (Event Timing; median of ${clicks.length} and ${painted.length} clicks of 16 ms or more; max ${Math.max(...painted).toFixed(0)}); ${steps} steps`);
    await context.close();
    await server.close();
  }
} finally {
  await browser.close();
}
