// tests/core/reentrancy.test.mjs: issue 11, point 1. User code can run while a call reads its arguments
// (a getter on a row, a Proxy, a getter on an options object). If that code calls the same
// instance again, the inner call must not corrupt the outer one: the outer result is right,
// and the inner call is either refused with a ReentrancyError or runs on memory of its own.
//
//   node --test tests/core/reentrancy.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { mulberry32, randMatrix } from '../reference.mjs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const attn = await loadAttention();

// The reproduction of the issue: X = I, Wq = Wk = I, Wv = [[1, 2], [3, 4]] gives
// A = [[0.67, 0.33], [0.33, 0.67]] and O = [1.66, 2.66, 2.34, 3.34].
const Wv = [[1, 2], [3, 4]];
const EXPECTED_O = [1.6605, 2.6605, 2.3395, 3.3395];
const big = () => {
  const rand = mulberry32(5);
  return { X: randMatrix(rand, 300, 16), Wq: randMatrix(rand, 16, 8), Wk: randMatrix(rand, 16, 8), Wv: randMatrix(rand, 16, 8), causal: true };
};

/** Makes array[index] a getter that first runs `inner` (pushing what it throws to `seen`), then gives value. */
function trap(array, index, value, inner, seen) {
  Object.defineProperty(array, index, {
    enumerable: true,
    get() {
      try {
        inner();
      } catch (e) {
        seen.push(e);
      }
      return value;
    },
  });
  return array;
}

/** X = I whose second row is such a getter. */
const trappedX = (inner, seen) => trap([[1, 0]], 1, [0, 1], inner, seen);

const near = (got, want, label) => {
  assert.equal(got.length, want.length, label);
  for (let k = 0; k < want.length; k++) assert.ok(Math.abs(got[k] - want[k]) < 1e-3, `${label}[${k}] = ${got[k]}, expected ${want[k]}`);
};

test('forward(): a getter in X that calls forward() at another size leaves the outer result right', () => {
  const seen = [];
  const r = attn.forward({ X: trappedX(() => attn.forward(big()), seen), Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv });
  near(r.O, EXPECTED_O, 'O');
  for (let i = 0; i < 2; i++) assert.ok(Math.abs(r.A[i * 2] + r.A[i * 2 + 1] - 1) < 1e-6, `row ${i} of A sums to ${r.A[i * 2] + r.A[i * 2 + 1]}`);
  assert.ok(seen.length > 0, 'the getter ran');
  for (const e of seen) {
    assert.equal(e.name, 'ReentrancyError');
    assert.match(e.message, /forward\(\) was called while forward\(\) was still running/);
  }
  // and the instance works afterwards, at both sizes
  near(attn.forward({ X: [[1, 0], [0, 1]], Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv }).O, EXPECTED_O, 'next call');
  assert.equal(attn.forward(big()).n, 300);
});

test("forward(args, { outputs: ['O'] }) and { into }: a re-entrant getter leaves the outer result right", () => {
  for (const options of [{ outputs: ['O'] }, { outputs: ['A', 'O'] }, { into: attn.forward({ X: [[1, 0], [0, 1]], Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv }) }]) {
    const seen = [];
    const r = attn.forward({ X: trappedX(() => attn.forward(big(), { outputs: ['O'] }), seen), Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv }, options);
    near(r.O, EXPECTED_O, `O with ${JSON.stringify(Object.keys(options))}`);
    assert.ok(seen.length > 0 && seen.every((e) => e.name === 'ReentrancyError'), String(seen));
  }
});

test('forward(): an uncaught re-entrant call fails the outer call with the ReentrancyError, and nothing is left busy', () => {
  const X = [[1, 0]];
  Object.defineProperty(X, 1, { enumerable: true, get: () => (attn.forward(big()), [0, 1]) });
  assert.throws(() => attn.forward({ X, Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv }), { name: 'ReentrancyError' });
  near(attn.forward({ X: [[1, 0], [0, 1]], Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv }).O, EXPECTED_O, 'next call');
});

test('dispose() from a getter during a call is refused, and the outer result is right', async () => {
  const own = await loadAttention();
  const seen = [];
  const r = own.forward({ X: trappedX(() => own.dispose(), seen), Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv });
  near(r.O, EXPECTED_O, 'O');
  assert.deepEqual(seen.map((e) => e.name), ['ReentrancyError']);
  assert.match(seen[0].message, /dispose\(\) was called while forward\(\) was still running/);
  assert.equal(own.core, 'full');
  own.dispose(); // and afterwards it works
  assert.throws(() => own.forward({ Q: [[1]], K: [[1]], V: [[1]] }), { message: 'this Attention was disposed: call loadAttention() again' });
  assert.equal(own.core, null, 'docs/api.md: a disposed instance has no core');
});

test('multiHead(): a getter in its data that calls forward() leaves the output right', () => {
  const plain = { Q: { shape: [1, 1, 2, 2], data: [1, 0, 0, 1] }, K: { shape: [1, 1, 2, 2], data: [1, 0, 0, 1] }, V: { shape: [1, 1, 2, 2], data: [1, 2, 3, 4] } };
  near(attn.multiHead(plain).data, EXPECTED_O, 'plain');
  const seen = [];
  const data = trap([1, 0, 0], 3, 1, () => {
    try {
      attn.forward(big());
    } finally {
      attn.multiHead({ ...plain, V: { shape: [1, 1, 2, 2], data: [9, 9, 9, 9] } });
    }
  }, seen);
  near(attn.multiHead({ ...plain, Q: { shape: [1, 1, 2, 2], data } }).data, EXPECTED_O, 'with the getter');
  assert.ok(seen.length > 0 && seen.every((e) => e.name === 'ReentrancyError'), String(seen));
});

test('softmax helpers: a getter in the scores that calls forward() (growing memory) or another softmax leaves the outer result right', () => {
  const want = Array.from(attn.softmaxRow([1, 2, 3, 4]));
  for (const inner of [() => attn.forward({ ...big(), X: randMatrix(mulberry32(9), 512, 64), Wq: randMatrix(mulberry32(1), 64, 64), Wk: randMatrix(mulberry32(2), 64, 64), Wv: randMatrix(mulberry32(3), 64, 64) }), () => attn.softmaxRow([5, 5, 5, 5, 5, 5, 5])]) {
    const seen = [];
    const scores = trap([1, 2, 3], 3, 4, inner, seen);
    assert.deepEqual(Array.from(attn.softmaxRow(scores)), want);
    const steps = attn.softmaxSteps(scores);
    assert.deepEqual(Array.from(steps.weights), want);
    assert.equal(steps.shift, 4);
    assert.ok(seen.length > 0 && seen.every((e) => e.name === 'ReentrancyError'), String(seen));
  }
  // softmaxBackward and softmaxStats with a getter in their second / only argument
  const a = attn.softmaxRow([0, 1]);
  const refused = [];
  const grad = trap([1], 1, 0, () => attn.softmaxBackward([0.5, 0.5], [3, 3]), refused);
  const ds = attn.softmaxBackward(a, grad);
  assert.ok(Math.abs(ds[0] - a[0] * (1 - a[0])) < 1e-6 && Math.abs(ds[0] + ds[1]) < 1e-6, `ds = ${Array.from(ds)}`);
  const w = trap([0.25, 0.25, 0.25], 3, 0.25, () => attn.softmaxStats([1]), refused);
  const st = attn.softmaxStats(w);
  assert.ok(Math.abs(st.entropy - Math.log(4)) < 1e-6 && st.maxWeight === 0.25, JSON.stringify(st));
  assert.deepEqual(refused.map((e) => e.name), ['ReentrancyError', 'ReentrancyError']);
});

test('trainer: getters in its options that call forward() (growing memory) change nothing it computes', () => {
  const plain = attn.createTrainer({ task: 'previous-token', seed: 3 });
  const lossesPlain = Array.from(plain.step(5));
  const wPlain = plain.weights();
  plain.dispose();
  const grow = () => attn.forward({ X: randMatrix(mulberry32(4), 512, 128), Wq: randMatrix(mulberry32(5), 128, 128), Wk: randMatrix(mulberry32(6), 128, 128), Wv: randMatrix(mulberry32(7), 128, 128) });
  const t = attn.createTrainer({ task: 'previous-token', get seed() { grow(); return 3; } });
  t.set({ get lr() { grow(); return 0.01; } });
  assert.deepEqual(Array.from(t.step(5)), lossesPlain);
  const w = t.weights();
  for (const k of ['Wq', 'Wk', 'Wv', 'Wout']) assert.deepEqual(Array.from(w[k]), Array.from(wPlain[k]), k);
  const ex = t.example({ get seed() { grow(); return 0; } });
  assert.equal(ex.tokens.length, t.n);
  t.dispose();
});

// forward() reads its arguments into a plan of the instance's own that every call refills
// (planForward): a call on a second instance from inside a getter has its own plan.
test('forward(): a getter that calls forward() on a second instance leaves both results right', async () => {
  const other = await loadAttention();
  for (const options of [undefined, { outputs: ['O'] }, { into: attn.forward({ X: [[1, 0], [0, 1]], Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv }) }]) {
    let inner = null;
    const r = attn.forward({ X: trappedX(() => { inner = other.forward(big(), options && options.outputs ? options : undefined); }, []), Wq: [[1, 0], [0, 1]], Wk: [[1, 0], [0, 1]], Wv }, options);
    near(r.O, EXPECTED_O, `outer O with ${JSON.stringify(options && Object.keys(options))}`);
    const alone = other.forward(big(), options && options.outputs ? options : undefined); // (the same form)
    assert.ok(inner && inner.n === 300, 'the inner call ran');
    assert.deepEqual(Array.from(inner.O), Array.from(alone.O), 'the inner O is the same as the call made alone');
  }
  other.dispose();
});

test("forward() keeps nothing of the caller's arguments once they return", async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const keep = attn.forward(big());
  const calls = {
    'forward()': (a) => attn.forward(a),
    "outputs: ['O']": (a) => attn.forward(a, { outputs: ['O'] }),
    into: (a) => attn.forward(a, { into: keep }),
  };
  for (const [what, fn] of Object.entries(calls)) {
    const refs = [];
    (() => { // the arguments are reachable only from inside this function
      const args = big();
      refs.push(new WeakRef(args.X[0]), new WeakRef(args.Wv[0])); // (a plan would hold rows: its own copy of the list of rows)
      fn(args);
    })();
    await new Promise((resolve) => setTimeout(resolve, 0)); // a WeakRef holds its target until the job ends
    gc();
    assert.ok(refs.every((r) => r.deref() === undefined), `${what}: its arguments were not collected`);
  }
});
