// bench-refresh.mjs: `make bench`. What one refresh of the explorer costs while a head trains
// (?mode=induction with head 2.1 open, once a second; ?mode=train, every frame): the heads the
// panel hands the explorer while it trains are recorded, training is paused, and each is shown
// again in its own animation frame (showHead + the render it schedules). Measured from Chromium's
// trace: the page thread's CPU time from that frame to 150 ms later (its style, layout and paint
// included; an idle window of the same length is printed beside it), median of N refreshes.
// CPU time depends much less on the machine's load than wall time. Not a test: nothing asserted.
// WEBROOTS=dirA,dirB compares two copies of web/ (e.g. one from `git archive` of another commit).
import { launch, ROOT } from '../tests/browser/helpers.mjs';
import { startServer } from '../tools/serve.mjs';
import { loadavg } from 'node:os';

const med = (xs) => { xs = xs.slice().sort((a, b) => a - b); return xs.length ? xs[xs.length >> 1] : NaN; };
const N = Number(process.env.N || 15);
const roots = (process.env.WEBROOTS || ROOT + 'web').split(',');
const queries = ['?mode=induction&seed=1&head=2.1', '?mode=train&task=find-the-noun&seed=1', '?mode=train&task=previous-token&seed=1'];
console.log(`refresh: load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const browser = await launch();
try {
  for (const query of queries) {
    for (const root of roots) {
      const server = await startServer({ root, port: 0 });
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(server.url + query);
      const g = query.includes('induction') ? '__induction' : '__train';
      await page.waitForFunction((g) => globalThis[g] && (g !== '__induction' || globalThis[g].last), g, { timeout: 120000 });
      await page.locator('[data-panel="A"]').scrollIntoViewIfNeeded(); // training hands heads only to an explorer in sight
      // record N + 1 heads while it trains
      await page.evaluate(({ g, N }) => new Promise((done) => {
        const heads = (window.__heads = []);
        const show = __explorer.showHead.bind(__explorer);
        __explorer.showHead = (cfg, extra) => {
          heads.push([structuredClone(cfg), extra]);
          show(cfg, extra);
          if (heads.length > N) { __explorer.showHead = show; globalThis[g].pause(); done(); }
        };
        globalThis[g].play();
      }), { g, N });
      await page.waitForTimeout(500);
      await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] });
      await page.evaluate(async () => {
        const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));
        for (const head of window.__heads) {
          await wait(150);
          performance.mark('idle');
          await wait(150);
          await new Promise((ok) => requestAnimationFrame(() => {
            performance.mark('refresh');
            __explorer.showHead(...head);
            __explorer.flush();
            ok();
          }));
        }
        await wait(150);
        performance.mark('idle');
      });
      const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
      const names = new Map();
      for (const e of events) if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
      const marks = events.filter((e) => (e.name === 'refresh' || e.name === 'idle') && e.ph !== 'X').sort((a, b) => a.ts - b.ts);
      const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.tdur != null && names.get(`${e.pid}:${e.tid}`) === 'CrRendererMain');
      const windows = { refresh: [], idle: [] };
      for (let i = 0; i + 1 < marks.length; i++) {
        const a = marks[i].ts - 2000, b = marks[i + 1].ts - 2000;
        windows[marks[i].name].push(tasks.filter((t) => t.ts >= a && t.ts < b).reduce((x, t) => x + t.tdur, 0) / 1000);
      }
      const cpu = windows.refresh.slice(1); // the first refresh of a page warms it up
      console.log(`${query}${roots.length > 1 ? ' ' + root : ''}: one refresh of the explorer ${med(cpu).toFixed(1)} ms of the page thread's CPU (median of ${cpu.length}; min ${Math.min(...cpu).toFixed(1)}; idle ${med(windows.idle).toFixed(1)})`);
      await context.close();
      await server.close();
    }
  }
} finally {
  await browser.close();
}
