// induction-sweep.mjs: a measurement harness for issue 16's ablation target (not run by make).
// Trains the product's own Wasm induction model in Node for each seed and reports, per seed:
// the step the circuit formed (web/induction/words.js's criteria, evaluated every 10 steps), the rise
// of the held-out repeated-part loss when the strongest layer-2 induction head is ablated at the
// end, and the one-layer control's lowest repeated-part loss.
//
// A model with fewer heads in layer 2 than in layer 1 is emulated with the product's ablation:
// head 2.2 (and up) is ablated from step 0, so it writes nothing, gets no gradient and is drawn
// last at initialisation: the same numbers as a model without it (it still costs its forward).
//
// usage: node bench/induction-sweep.mjs '{"heads":2,"l2":1,"dh":16,"lr":0.02,"seeds":[1,10]}'
import { loadAttention } from '../web/core/attention.js';
import { MODEL, CRITERIA } from '../web/induction/words.js';

const cfg = { heads: 2, l2: 2, dh: 16, lr: 0.02, weightDecay: 0.01, batch: 16, steps: 600, seeds: [1, 10], control: true, ...JSON.parse(process.argv[2] ?? '{}') };
const attn = await loadAttention({ simd: true });
const H = cfg.heads, dead = []; // heads of layer 2 left out from the start
for (let h = cfg.l2; h < H; h++) dead.push(H + h);
const live = (/** @type {number[]} */ ind) => { let best = null; for (let h = H; h < H + cfg.l2; h++) if (!best || ind[h] > best.score) best = { head: h, score: ind[h] }; return best; };
const rows = [];
for (let seed = cfg.seeds[0]; seed <= cfg.seeds[1]; seed++) {
  const m = attn.createInduction({ ...MODEL, heads: H, dh: cfg.dh, seed, lr: cfg.lr, weightDecay: cfg.weightDecay, batch: cfg.batch });
  m.ablate(dead);
  let at = null;
  const t0 = performance.now();
  for (let s = 0; s < cfg.steps; s += 10) {
    m.step(10);
    if (at == null) {
      const e = m.evaluate(), b = live(e.induction);
      if (b.score > CRITERIA.induction && e.lossRepeat < CRITERIA.loss) at = s + 10;
    }
  }
  const ms = performance.now() - t0;
  const full = m.evaluate(), best = live(full.induction);
  m.ablate([...dead, best.head]);
  const without = m.evaluate();
  m.ablate([...dead, ...Array.from({ length: cfg.l2 }, (_, h) => H + h)]);
  const noL2 = m.evaluate();
  m.dispose();
  let ctl = null;
  if (cfg.control) {
    const c = attn.createInduction({ ...MODEL, layers: 1, heads: H, dh: cfg.dh, seed, lr: cfg.lr, weightDecay: cfg.weightDecay, batch: cfg.batch });
    ctl = Infinity;
    for (let s = 0; s < cfg.steps; s += 10) { c.step(10); ctl = Math.min(ctl, c.evaluate().lossRepeat); }
    c.dispose();
  }
  const r = { seed, at, rep: full.lossRepeat, ind: full.induction.slice(H, H + cfg.l2).map((x) => +x.toFixed(2)), delta: without.lossRepeat - full.lossRepeat, deltaAll: noL2.lossRepeat - full.lossRepeat, ctl, ms };
  rows.push(r);
  console.log(`seed ${seed}: formed ${at ?? '-'}  rep ${r.rep.toFixed(3)}  L2 ind ${r.ind.join('/')}  ablate strongest +${r.delta.toFixed(2)}  all L2 +${r.deltaAll.toFixed(2)}  control min ${ctl == null ? '-' : ctl.toFixed(2)}  ${(cfg.steps * 1000 / ms).toFixed(0)} steps/s (with evals)`);
}
const formed = rows.filter((r) => r.at != null);
const pass = formed.filter((r) => r.delta > 1);
const ctlPass = rows.filter((r) => r.ctl == null || r.ctl > 1);
console.log(`SUMMARY ${JSON.stringify(cfg)}: formed ${formed.length}/${rows.length}, ablation>1 ${pass.length}/${formed.length} of formed, control>1 ${ctlPass.length}/${rows.length}, formed at ${formed.map((r) => r.at).join(',')}`);
