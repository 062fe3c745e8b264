// make bench: how long a learner waits for the first numbers. Each page of the site
// (tools/site-pages.mjs: the explorer's modes and every lab), three cold loads in Chromium on a
// slow link (1.6 Mbps, 150 ms round trip: tests/browser/load.mjs), the median time from
// navigation start until the first matrix shows numbers, when the last byte it needed arrived
// (the network's share: the rest is the CPU's, which a busy machine stretches), and the bytes
// transferred until then.
// Once from the production build (site/, compressed: what make run serves) and once from the
// readable modules of web/ (make dev).
// Budgets (issue 24): the explorer <= 1.0 s, training, induction and each lab <= 1.5 s.
// Usage: node bench/first-numbers.mjs [--runs=3] [--only=site|dev] [--pages=explorer,train]
import { existsSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startServer } from '../tools/serve.mjs';
import { sitePages } from '../tools/site-pages.mjs';
import { launch } from '../tests/browser/helpers.mjs';
import { measureLoad, median, SLOW_LINK } from '../tests/browser/load.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt;
const RUNS = Number(arg('runs', 3));
const only = arg('only', '');
const wanted = arg('pages', '').split(',').filter(Boolean);
const BUDGET_MS = (name) => (name === 'explorer' ? 1000 : 1500);

const servers = [
  { name: 'production (site/, make run)', key: 'site', options: { root: ROOT + 'site', production: true } },
  { name: 'readable modules (web/, make dev)', key: 'dev', options: { root: ROOT + 'web' } },
].filter((s) => !only || s.key === only);
if (servers.some((s) => s.key === 'site') && !existsSync(ROOT + 'site/index.html')) {
  console.error('first-numbers: site/ is not built; run make site (make bench does)');
  process.exit(2);
}
const pages = sitePages().filter((p) => !wanted.length || wanted.includes(p.name));
const kb = (b) => (b / 1024).toFixed(0) + ' KB';

const browser = await launch();
let over = 0;
// Times are the CPU's too: on a machine busy with other work they say little (the bytes still do).
const busy = () => loadavg()[0] > cpus().length ? `  (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs: the machine is busy, times are stretched)` : '';
try {
  for (const s of servers) {
    const server = await startServer({ ...s.options, port: 0 });
    console.log(`\nFirst numbers, ${s.name}: median of ${RUNS} cold loads at 1.6 Mbps, 150 ms RTT${busy()}`);
    console.log('page                 first numbers   budget   last byte   transferred   requests');
    try {
      for (const p of pages) {
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await measureLoad(browser, server.url + p.path, { link: SLOW_LINK }));
        const errors = runs.flatMap((r) => r.errors);
        const ms = median(runs.map((r) => r.ms));
        const mid = runs.find((r) => r.ms === ms);
        const fits = ms <= BUDGET_MS(p.name);
        if (s.key === 'site' && !fits) over++;
        const last = median(runs.map((r) => r.lastByte));
        console.log(`${p.name.padEnd(20)} ${(ms / 1000).toFixed(2).padStart(8)} s ${(BUDGET_MS(p.name) / 1000).toFixed(1).padStart(8)} s ${fits ? ' ' : '!'}${(last / 1000).toFixed(2).padStart(9)} s ${kb(mid.bytes).padStart(11)} ${String(mid.requests).padStart(10)}`
          + (errors.length ? `   errors: ${errors[0]}` : ''));
      }
    } finally {
      await server.close();
    }
  }
} finally {
  await browser.close();
}
if (over) console.log(`\n${over} page(s) of the production build over budget (marked !)`);
