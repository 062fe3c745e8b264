// train.test.mjs: training a head through the public API of web/core/attention.js (createTrainer).
// Deterministic: every trainer is seeded; no test depends on timing (speed is in
// bench/bench-train.mjs). The gradients themselves are checked against float64 central
// differences in tests/c/test_backward.c.
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { parseConfig, forwardArgs } from '../../web/blocks/config.js';

const attn = await loadAttention();

/**
 * A trainer that is disposed when the test ends, passed or failed: a failing assertion must not
 * keep one of the core's 8 trainer slots from the tests after it. The refusals make theirs with
 * it too (assert.throws(() => trainer(ctx, bad))), so options that are wrongly taken free theirs.
 * @param {import('node:test').TestContext} ctx
 */
function trainer(ctx, options, core = attn) {
  const t = core.createTrainer(options);
  ctx.after(() => t.dispose());
  return t;
}

// The targets the issue asks for, stated once: within STEPS steps of batch 16 at the default
// learning rate (Adam, 0.01), the held-out loss is below LOSS and at least ATTENTION of each
// query's attention is on its right key, on average over the held-out sequences.
const STEPS = 300, LOSS = 0.1, ATTENTION = 0.9;

function stepsToTarget(trainer, limit) {
  for (let s = 10; s <= limit; s += 10) {
    trainer.step(10);
    const e = trainer.evaluate();
    if (e.loss < LOSS && e.attentionOnRight >= ATTENTION) return { steps: s, ...e };
  }
  return null;
}

for (const task of ['previous-token', 'find-the-noun']) {
  test(`${task}: loss below ${LOSS} and >= ${ATTENTION} of the attention on the right key within ${STEPS} steps (seeds 1, 2, 3)`, () => {
    for (const seed of [1, 2, 3]) {
      const t = attn.createTrainer({ task, seed });
      try {
        const start = t.evaluate();
        assert.ok(start.attentionOnRight < 0.5, `seed ${seed}: the untrained head already puts ${start.attentionOnRight} on the right key`);
        const reached = stepsToTarget(t, STEPS);
        assert.ok(reached, `seed ${seed}: not reached in ${STEPS} steps; now ${JSON.stringify(t.evaluate())}`);
        console.log(`# ${task} seed ${seed}: ${reached.steps} steps, held-out loss ${reached.loss.toFixed(4)}, attention on the right key ${reached.attentionOnRight.toFixed(3)}, accuracy ${reached.accuracy}`);
      } finally {
        t.dispose();
      }
    }
  });
}

// The promise the page makes to a learner pressing "New random weights": every seed learns the
// pattern, not just a low loss. Measured in steps of 10 (docs/training.md's table comes from here).
const SEEDS = 100, WITHIN = 400;
for (const task of ['find-the-noun', 'previous-token']) {
  test(`${task}: all of ${SEEDS} seeds reach a held-out loss below ${LOSS} with >= ${ATTENTION} attention on the right key within ${WITHIN} steps`, () => {
    const reached = [], missed = [];
    for (let seed = 0; seed < SEEDS; seed++) {
      const t = attn.createTrainer({ task, seed });
      try {
        const r = stepsToTarget(t, WITHIN);
        if (r) reached.push(r.steps);
        else missed.push(`seed ${seed}: ${JSON.stringify(t.evaluate())}`);
      } finally {
        t.dispose();
      }
    }
    reached.sort((a, b) => a - b);
    console.log(`# ${task}: ${reached.length}/${SEEDS} seeds within ${WITHIN} steps; median ${reached[reached.length >> 1]}, slowest ${reached[reached.length - 1]}`);
    assert.deepEqual(missed, []);
  });
}

test('find-the-noun: a distractor noun comes before the right one, so attention leaking onto it costs accuracy', (ctx) => {
  const t = trainer(ctx, { task: 'find-the-noun', seed: 1 });
  const nouns = new Set(['cat', 'dog', 'bird', 'fox']);
  let withDistractor = 0;
  for (let seed = 1; seed <= 200; seed++) {
    const { tokens } = t.example({ seed });
    const { right, target } = t.answers({ seed });
    const last = tokens.length - 1;
    assert.equal(tokens[last], 'the');
    const j = right[last];
    assert.ok(nouns.has(tokens[j]) && tokens[j - 1] === 'the' && target[last] === tokens[j], tokens.join(' '));
    const others = tokens.map((w, k) => (nouns.has(w) && k !== j ? k : -1)).filter((k) => k >= 0);
    assert.ok(others.length <= 1 && others.every((k) => k < j - 1 && tokens[k] !== tokens[j]), `a distractor is another noun before “the ${tokens[j]}”: ${tokens.join(' ')}`);
    withDistractor += others.length;
  }
  assert.ok(withDistractor > 100 && withDistractor < 200, `${withDistractor} of 200 sentences have a distractor`);
  assert.deepEqual(t.example({ seed: 0 }).tokens, ['the', 'cat', 'sat', 'on', 'the'], 'seed 0 is still the widget page’s sentence');
});

test('training is deterministic for a seed: the same losses and weights twice', (ctx) => {
  const a = trainer(ctx, { task: 'previous-token', seed: 7 });
  const b = trainer(ctx, { task: 'previous-token', seed: 7 });
  assert.deepEqual(a.step(40), b.step(40));
  assert.deepEqual(a.weights(), b.weights());
  assert.deepEqual(a.evaluate(), b.evaluate());
});

test('reset() returns the same initial weights and replays the same losses; reroll(seed) draws new ones', (ctx) => {
  const t = trainer(ctx, { task: 'find-the-noun', seed: 3 });
  const init = t.weights();
  const first = t.step(25);
  assert.notDeepEqual(t.weights(), init);
  assert.equal(t.steps, 25);
  t.reset();
  assert.equal(t.steps, 0);
  assert.ok(Number.isNaN(t.loss));
  assert.deepEqual(t.weights(), init);
  assert.deepEqual(t.step(25), first);
  t.reroll(4);
  assert.equal(t.seed, 4);
  assert.notDeepEqual(t.weights(), init);
  t.reroll(3);
  assert.deepEqual(t.weights(), init);
});

test('gradients() are the ones the step used: with SGD, W after = W before - lr·dW', (ctx) => {
  const lr = 0.05;
  const t = trainer(ctx, { task: 'previous-token', seed: 2, optimizer: 'sgd', lr });
  for (const g of Object.values(t.gradients())) assert.ok(g.every((x) => x === 0), 'gradients are 0 before the first step');
  t.step(3);
  const before = t.weights();
  t.step(1);
  const after = t.weights(), grad = t.gradients();
  let moved = 0;
  for (const name of ['Wq', 'Wk', 'Wv', 'Wout']) {
    const g = grad['d' + name];
    for (let e = 0; e < g.length; e++) {
      // Math.fround: the update is computed in float32
      assert.equal(after[name][e], Math.fround(before[name][e] - Math.fround(Math.fround(lr) * g[e])), `${name}[${e}]`);
      moved += g[e] !== 0;
    }
  }
  assert.ok(moved > 0, 'some gradient is non-zero');
});

test("example() is a config the page accepts, and forward() on it shows the trained head: the lesson's last \"the\" looks at \"cat\"", (ctx) => {
  const t = trainer(ctx, { task: 'find-the-noun', seed: 1 });
  t.step(1000); // past the target: "the" competes with the first "the", so give it time to sharpen
  const config = t.example();
  assert.deepEqual(config.tokens, ['the', 'cat', 'sat', 'on', 'the']);
  assert.deepEqual(t.answers(), { target: [null, null, null, null, 'cat'], right: [null, null, null, null, 1] });
  const parsed = parseConfig(JSON.stringify(config));
  assert.deepEqual(parsed.features, t.features);
  const r = attn.forward(forwardArgs(parsed));
  const n = config.tokens.length;
  assert.ok(r.A[4 * n + 1] >= ATTENTION, `A[the][cat] = ${r.A[4 * n + 1]}`);
});

test('previous-token: example() rows attend to the token before them once trained', (ctx) => {
  const t = trainer(ctx, { task: 'previous-token', seed: 1 });
  t.step(STEPS);
  const config = t.example({ seed: 5 });
  assert.equal(config.tokens.length, 8);
  assert.equal(config.X[0].length, 6 + 8, 'X is one-hot token (6) then one-hot position (8)');
  const r = attn.forward(forwardArgs(parseConfig(config)));
  const { right } = t.answers({ seed: 5 });
  for (let i = 1; i < 8; i++) assert.ok(r.A[i * 8 + right[i]] > 0.8, `row ${i}: ${r.A[i * 8 + right[i]]} on token ${right[i]}`);
});

test('bad options throw errors that name the option and the fix', (ctx) => {
  assert.throws(() => trainer(ctx, { task: 'copy' }), /task is "copy": the built-in tasks are "previous-token", "find-the-noun"/);
  assert.throws(() => trainer(ctx, { dk: 0 }), /dk is 0: .*from 1 to 16/);
  assert.throws(() => trainer(ctx, { lr: -1 }), /lr is -1: the learning rate must be a positive finite number/);
  assert.throws(() => trainer(ctx, { optimizer: 'rmsprop' }), /optimizer is "rmsprop": it must be "adam" or "sgd"/);
  assert.throws(() => trainer(ctx, { batch: 1000 }), /batch is 1000/);
  assert.throws(() => trainer(ctx, { seed: -1 }), /seed is -1/);
  assert.throws(() => trainer(ctx, { seed: 4294967296 }), { message: 'seed is 4294967296: it must be a whole number from 0 to 4294967295' });
  trainer(ctx, { seed: 4294967295 }).dispose(); // the largest seed is taken
  assert.throws(() => trainer(ctx, { steps: 3 }), /unknown option "steps"/);
  const t = trainer(ctx, {});
  assert.throws(() => t.step(1.5), /k is 1.5/);
  t.dispose();
  assert.throws(() => t.step(), /disposed/);
});

test('set() checks each setting it is given, naming it and the fix, and keeps the old settings when it refuses', (ctx) => {
  const t = trainer(ctx, { task: 'previous-token', seed: 1 });
  const before = [t.lr, t.optimizer, t.batch];
  assert.throws(() => t.set({ x: 1 }), { message: 'set got an unknown option "x": the options are lr, optimizer, batch' });
  assert.throws(() => t.set({ lr: '0.1' }), { message: 'lr is "0.1": the learning rate must be a positive finite number, like 0.01' });
  assert.throws(() => t.set({ lr: 0 }), /lr is 0: the learning rate must be a positive finite number/);
  for (const batch of [0, 1.5, 257]) assert.throws(() => t.set({ batch }), { message: `batch is ${batch}: it must be a whole number of sequences from 1 to 256` });
  assert.deepEqual([t.lr, t.optimizer, t.batch], before);
  t.set({ batch: 1 });
  assert.equal(t.batch, 1, 'one sequence a batch is allowed');
  t.set({ batch: 256 });
  assert.equal(t.batch, 256, 'so is the largest batch');
});

test('a learning rate far too high stops training with an error, and reset() recovers', (ctx) => {
  const t = trainer(ctx, { task: 'previous-token', seed: 1, optimizer: 'sgd', lr: 1e30 });
  assert.throws(() => t.step(20), /training stopped at step \d+: .*lower the learning rate/);
  t.set({ lr: 0.01, optimizer: 'adam' });
  t.reset();
  const losses = t.step(5);
  assert.ok(losses.every(Number.isFinite));
});

test('trainers live in 8 slots: the ninth throws until one is disposed; forward() still works beside them', async (ctx) => {
  const own = await loadAttention();
  const trainers = Array.from({ length: 8 }, (_, s) => trainer(ctx, { seed: s }, own));
  assert.throws(() => trainer(ctx, {}, own), (e) => /all 8 trainer slots are in use: call dispose\(\) on a trainer you no longer need/.test(e.message) && e.code === 'AE_TRAINER_SLOTS' && e.slots === 8);
  trainers[3].dispose();
  trainers[3] = trainer(ctx, { seed: 3 }, own);
  const r = own.forward({ X: [[1, 0], [0, 1]], Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv: [[1, 0], [0, 1]], causal: true });
  assert.deepEqual(Array.from(r.A.slice(0, 2)), [1, 0]);
  trainers[0].step(2);
});

// Issue 11, point 9. Run in a child with --expose-gc, so the test can collect garbage itself.
test('trainers dropped without dispose() are reclaimed by the garbage collector (FinalizationRegistry, --expose-gc)', () => {
  const script = `
    import { loadAttention } from ${JSON.stringify(new URL('../../web/core/attention.js', import.meta.url).href)};
    const attn = await loadAttention();
    const tick = () => new Promise((ok) => setTimeout(ok, 0));
    async function collect(tries) {
      for (let k = 0; k < tries; k++) { globalThis.gc(); await tick(); }
    }
    const out = {};
    // A disposed trainer's slot goes to the next one; collecting the old object must not free it.
    let old = attn.createTrainer({ seed: 1 });
    old.dispose();
    const kept = attn.createTrainer({ seed: 2 });
    old = null;
    // Drop seven more without dispose(): all eight slots are taken until they are collected.
    (() => { for (let i = 0; i < 7; i++) attn.createTrainer({ seed: 10 + i }).step(1); })();
    try { attn.createTrainer(); out.ninthBeforeGc = 'created'; } catch (e) { out.ninthBeforeGc = e.code; }
    await collect(5);
    const fresh = [];
    try { for (let i = 0; i < 7; i++) fresh.push(attn.createTrainer({ seed: 20 + i })); } catch (e) { out.error = e.message; }
    out.createdAfterGc = fresh.length;
    try { attn.createTrainer(); out.ninthAfter = 'created'; } catch (e) { out.ninthAfter = e.code; }
    out.keptSteps = (kept.step(3), kept.steps);
    await collect(3);
    out.keptStillWorks = kept.evaluate().sequences;
    console.log(JSON.stringify(out));
  `;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { ninthBeforeGc: 'AE_TRAINER_SLOTS', createdAfterGc: 7, ninthAfter: 'AE_TRAINER_SLOTS', keptSteps: 3, keptStillWorks: 256 });
});

test('after attn.dispose() its trainers refuse every call with an error that says why and what to do', async (ctx) => {
  const own = await loadAttention();
  const t = trainer(ctx, { seed: 4 }, own);
  t.step(2);
  own.dispose();
  const disposed = /this trainer's Attention was disposed \(attn\.dispose\(\)\), and its trainers with it: load the core again with loadAttention\(\) and create a new trainer/;
  for (const [what, call] of [
    ['step', () => t.step(1)], ['loss', () => t.loss], ['steps', () => t.steps], ['evaluate', () => t.evaluate()],
    ['weights', () => t.weights()], ['gradients', () => t.gradients()], ['example', () => t.example()],
    ['answers', () => t.answers()], ['set', () => t.set({ lr: 0.1 })], ['reset', () => t.reset()], ['reroll', () => t.reroll(2)],
  ]) {
    assert.throws(call, disposed, what);
  }
  assert.throws(() => trainer(ctx, undefined, own), /this Attention was disposed: call loadAttention\(\) again/);
  t.dispose(); // still allowed: frees nothing that matters, throws nothing
});

test('a step that blows the read-out up throws; no step ever returns a NaN loss (SGD at lr 1e4)', () => {
  for (const [task, dv] of [['previous-token', 1], ['previous-token', 16], ['find-the-noun', 11]]) {
    const t = attn.createTrainer({ task, seed: 7, optimizer: 'sgd', lr: 1e4, batch: 4, dk: 6, dv });
    try {
      let stopped = null;
      for (let s = 0; s < 200 && !stopped; s++) {
        try {
          const [loss] = t.step(1);
          assert.ok(Number.isFinite(loss) && loss >= 0, `${task} dv ${dv}: step ${s} returned loss ${loss}`);
        } catch (e) {
          stopped = e;
        }
      }
      assert.match(String(stopped && stopped.message), /training stopped at step \d+: .*lower the learning rate/, `${task} dv ${dv}`);
    } finally {
      t.dispose();
    }
  }
});
