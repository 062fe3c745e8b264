// bench-train.mjs: `make bench`. Training steps per second through the public API
// (trainer.step(k), forward + backward + Adam over a batch of 16 sequences in Wasm) for the toy
// size of issue 6: 8 tokens, head width dk = dv = 8, batch 16. Target: >= 1,000 steps/s in Node,
// so the page can run several steps in every 60 fps frame. Median of 15 samples of 200 steps.
import { loadAttention } from '../web/core/attention.js';

const TARGET = 1000, SAMPLES = 15, STEPS = 200;

function stepsPerSecond(trainer) {
  trainer.step(STEPS); // warm up
  const rates = [];
  for (let s = 0; s < SAMPLES; s++) {
    const t0 = performance.now();
    trainer.step(STEPS);
    rates.push(STEPS / ((performance.now() - t0) / 1000));
  }
  return rates.sort((a, b) => a - b)[SAMPLES >> 1];
}

console.log(`training steps per second (batch 16, dk = dv = 8), median of ${SAMPLES}; Node ${process.version}`);
console.log(`${'task'.padEnd(16)}${'n'.padStart(4)}${'d'.padStart(4)}${'wasm-simd'.padStart(12)}${'wasm-scalar'.padStart(13)}`);
let worst = Infinity;
const builds = [await loadAttention({ simd: true }), await loadAttention({ simd: false })];
for (const task of ['previous-token', 'find-the-noun']) {
  const rates = builds.map((attn) => {
    const t = attn.createTrainer({ task, seed: 1, batch: 16, dk: 8, dv: 8 });
    const r = stepsPerSecond(t);
    t.dispose();
    return r;
  });
  const t = builds[0].createTrainer({ task });
  console.log(`${task.padEnd(16)}${String(t.n).padStart(4)}${String(t.d).padStart(4)}${rates.map((r, i) => Math.round(r).toString().padStart(i ? 13 : 12)).join('')}`);
  t.dispose();
  worst = Math.min(worst, ...rates);
}
console.log(`slowest: ${Math.round(worst)} steps/s (target >= ${TARGET}): ${worst >= TARGET ? 'met' : 'NOT MET'}`);
