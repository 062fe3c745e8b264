// bench.mjs: `make bench`. Times one causal self-attention head, forward() through the public
// API, for the sizes of the issue, in: the Wasm SIMD build, the Wasm scalar build, the same C
// built natively with -O2 (build/bench_native) and plain JS (bench/plain.js); the SIMD build
// also with forward(args, { outputs: ['O'] }), which like onnxruntime-web hands back only the
// output instead of copying out every intermediate (about 1 MB at n = 256). Prints a table
// with GFLOP/s and ratios from this one run. Medians of 31 samples of about 10 ms each.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../web/attention.js';
import { plainHead } from './plain.js';

const SIZES = [[5, 4, 4], [64, 64, 64], [256, 64, 64], [512, 128, 64]];
// The FLOP count the onnxruntime-web anchor (../shared/anchors) uses, so GFLOP/s compare.
const flops = (n, d, dk, dv) => 2 * n * d * (2 * dk + dv) + 2 * n * n * dk + 2 * n * n * dv + 6 * n * n;

let seed = 12345;
const rnd = () => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return (seed >>> 8) / 16777216 * 2 - 1; };
const rand = (len, s = 1) => Float32Array.from({ length: len }, () => rnd() * s);

function median(fn) {
  for (let i = 0; i < 20; i++) fn();
  let inner = 1;
  for (;;) {
    const t0 = performance.now();
    for (let r = 0; r < inner; r++) fn();
    if (performance.now() - t0 > 10 || inner > 1 << 22) break;
    inner *= 2;
  }
  const ts = [];
  for (let b = 0; b < 31; b++) {
    const t0 = performance.now();
    for (let r = 0; r < inner; r++) fn();
    ts.push((performance.now() - t0) / inner * 1000);
  }
  return ts.sort((a, b) => a - b)[15];
}

const simd = await loadAttention({ simd: true });
const scalar = await loadAttention({ simd: false });
const nativeBin = fileURLToPath(new URL('../build/bench_native', import.meta.url));
const native = new Map(execFileSync(nativeBin, { encoding: 'utf8' }).trim().split('\n').map((line) => {
  const [, n, d, dk, us] = line.split(' ');
  return [`${n},${d},${dk}`, Number(us)];
}));

const rows = [];
for (const [n, d, dk] of SIZES) {
  const dv = dk;
  const X = rand(n * d), Wq = rand(d * dk, 1 / Math.sqrt(d)), Wk = rand(d * dk, 1 / Math.sqrt(d)), Wv = rand(d * dv, 1 / Math.sqrt(d));
  const args = { X: { shape: [n, d], data: X }, Wq: { shape: [d, dk], data: Wq }, Wk: { shape: [d, dk], data: Wk }, Wv: { shape: [d, dv], data: Wv }, causal: true };
  const us = {
    'wasm-simd': median(() => simd.forward(args)),
    'simd, O only': median(() => simd.forward(args, { outputs: ['O'] })),
    'wasm-scalar': median(() => scalar.forward(args)),
    'native-O2': native.get(`${n},${d},${dk}`),
    'plain-js': median(() => plainHead(X, Wq, Wk, Wv, n, d, dk, dv)),
  };
  rows.push({ n, d, dk, dv, us });
}

const f = (x, w) => String(x).padStart(w);
console.log(`forward() per call, median (µs), and GFLOP/s; ${simd.simd ? 'SIMD' : 'no SIMD'} available; Node ${process.version}`);
console.log(`${'(n,d,dk)'.padEnd(14)}${f('wasm-simd', 18)}${f('simd, O only', 18)}${f('wasm-scalar', 18)}${f('native -O2', 18)}${f('plain JS', 18)}${f('js/simd', 9)}${f('scalar/simd', 12)}`);
for (const { n, d, dk, dv, us } of rows) {
  const g = (t) => (flops(n, d, dk, dv) / (t * 1e3)).toFixed(1);
  const cell = (t) => f(`${t.toFixed(t < 10 ? 2 : 0)} ${g(t)}`, 18);
  console.log(`${`(${n},${d},${dk})`.padEnd(14)}${cell(us['wasm-simd'])}${cell(us['simd, O only'])}${cell(us['wasm-scalar'])}${cell(us['native-O2'])}${cell(us['plain-js'])}` +
    `${f((us['plain-js'] / us['wasm-simd']).toFixed(1) + '×', 9)}${f((us['wasm-scalar'] / us['wasm-simd']).toFixed(1) + '×', 12)}`);
}
console.log('Anchor: run ../shared/anchors/run.sh right after this and compare ratios from the same machine state.');
