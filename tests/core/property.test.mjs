// tests/core/property.test.mjs: property-based tests of the JS API (web/core/attention.js) with fast-check.
// Random shapes, masks, scales and values go through forward(), multiHead() and the trainer and
// are compared with the float64 reference (tests/reference.mjs); random hostile values must be
// refused with an Error that names the input, after which the module still gives right answers
// and its memory has not grown.
//
// The seed is fixed, so make test runs the same cases every time (a failure prints the seed and
// the path fast-check needs to replay it). make fuzz-long runs many more: PROPERTY_RUNS=20000.
//   node --test tests/core/property.test.mjs
//   PROPERTY_RUNS=5000 PROPERTY_SEED=7 node --test tests/core/property.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { loadAttention, LIMITS } from '../../web/core/attention.js';
import { referenceHead, compare } from '../reference.mjs';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261101);
fc.configureGlobal({ seed: SEED, numRuns: RUNS, endOnFailure: true });

const attn = await loadAttention();

// float32 core against the float64 reference on float32-rounded inputs of moderate size
const TOL = { atol: 1e-4, rtol: 1e-3 };

// ---------------------------------------------------------------- arbitraries

/** A float32 number in [-lim, lim], sometimes exactly 0, -0 or a tiny subnormal. */
const value = (lim = 4) =>
  fc.oneof(
    { weight: 20, arbitrary: fc.float({ min: -lim, max: lim, noNaN: true, noDefaultInfinity: true }) },
    { weight: 1, arbitrary: fc.constantFrom(0, -0, 1e-40, -1e-40) },
  ).map(Math.fround);

const matrix = (rows, cols, lim) => fc.array(fc.array(value(lim), { minLength: cols, maxLength: cols }), { minLength: rows, maxLength: rows });

/** An [n][m] mask: all booleans, or all numbers (finite or -Infinity). */
const mask = (n, m) =>
  fc.oneof(
    fc.array(fc.array(fc.boolean(), { minLength: m, maxLength: m }), { minLength: n, maxLength: n }),
    fc.array(fc.array(fc.oneof({ weight: 3, arbitrary: value(3) }, { weight: 1, arbitrary: fc.constant(-Infinity) }), { minLength: m, maxLength: m }), { minLength: n, maxLength: n }),
  );

const scale = fc.oneof(fc.constant(undefined), fc.constant(null), fc.float({ min: Math.fround(0.01), max: 4, noNaN: true }).map(Math.fround));

/** A direct-form head: Q [n][dk], K [m][dk], V [m][dv], with a mask, causal and scale. */
const directHead = fc
  .record({ n: fc.integer({ min: 1, max: 10 }), m: fc.integer({ min: 1, max: 10 }), dk: fc.integer({ min: 1, max: 9 }), dv: fc.integer({ min: 1, max: 9 }) })
  .chain(({ n, m, dk, dv }) =>
    fc.record({
      Q: matrix(n, dk), K: matrix(m, dk), V: matrix(m, dv),
      mask: fc.option(mask(n, m), { nil: undefined }), causal: fc.option(fc.boolean(), { nil: undefined }), scale,
    }),
  );

/** A projection-form head: X [n][d], weights, and sometimes Xkv [m][d] (cross-attention). */
const projectedHead = fc
  .record({ n: fc.integer({ min: 1, max: 8 }), m: fc.integer({ min: 1, max: 8 }), d: fc.integer({ min: 1, max: 8 }), dk: fc.integer({ min: 1, max: 6 }), dv: fc.integer({ min: 1, max: 6 }), cross: fc.boolean() })
  .chain(({ n, m, d, dk, dv, cross }) =>
    fc.record({
      X: matrix(n, d, 2), Wq: matrix(d, dk, 2), Wk: matrix(d, dk, 2), Wv: matrix(d, dv, 2),
      Xkv: cross ? matrix(m, d, 2) : fc.constant(undefined),
      mask: fc.option(mask(n, cross ? m : n), { nil: undefined }), causal: fc.option(fc.boolean(), { nil: undefined }), scale,
    }),
  );

const defined = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

function expectMatches(r, ref, label) {
  for (const k of ['Q', 'K', 'V', 'S', 'A', 'O']) {
    const c = compare(r[k], ref[k], TOL);
    assert.ok(c.ok, `${label}: ${k} differs from the float64 reference: ${c.worst}`);
  }
  // the invariants every head keeps, whatever the reference says
  for (let i = 0; i < r.n; i++) {
    let sum = 0;
    for (let j = 0; j < r.m; j++) {
      const a = r.A[i * r.m + j];
      assert.ok(a >= 0 && a <= 1, `${label}: A[${i}][${j}] = ${a} is outside [0, 1]`);
      if (r.M[i * r.m + j] === -Infinity) assert.equal(a, 0, `${label}: a masked weight is not 0`);
      sum += a;
    }
    assert.ok(sum === 0 || Math.abs(sum - 1) < 1e-5, `${label}: row ${i} of A sums to ${sum}`);
  }
  assert.ok(!r.O.some(Number.isNaN), `${label}: NaN in O from finite input`);
}

// ---------------------------------------------------------------- forward

test('forward(), direct form: random shapes, masks, causal and scales match the float64 reference', () => {
  fc.assert(
    fc.property(directHead, (head) => {
      const args = defined(head);
      expectMatches(attn.forward(args), referenceHead(args), 'direct');
    }),
  );
});

test('forward(), projection and cross-attention form: the same against the reference', () => {
  fc.assert(
    fc.property(projectedHead, (head) => {
      const args = defined(head);
      const r = attn.forward(args);
      expectMatches(r, referenceHead(args), args.Xkv ? 'cross' : 'self');
      // the flat { shape, data } form gives bit-identical results
      const flatArgs = { ...args };
      for (const k of ['X', 'Xkv', 'Wq', 'Wk', 'Wv']) if (args[k]) flatArgs[k] = { shape: [args[k].length, args[k][0].length], data: Float32Array.from(args[k].flat()) };
      const f = attn.forward(flatArgs);
      assert.deepEqual(f.O, r.O, 'the flat form gives another O');
    }),
  );
});

// ---------------------------------------------------------------- multiHead

/** 4-D or 3-D tensors for `batch` × `heads` (a multiple of kvHeads) heads. */
const multiHeadCase = fc
  .record({
    rank: fc.constantFrom(3, 4), batch: fc.integer({ min: 1, max: 3 }), kvHeads: fc.integer({ min: 1, max: 3 }), group: fc.integer({ min: 1, max: 3 }),
    L: fc.integer({ min: 1, max: 6 }), S: fc.integer({ min: 1, max: 6 }), dk: fc.integer({ min: 1, max: 5 }), dv: fc.integer({ min: 1, max: 5 }),
    causal: fc.boolean(), maskKind: fc.constantFrom('none', '2d', '4d'),
  })
  .chain((c) => {
    const qHeads = c.kvHeads * c.group;
    const flat = (count) => fc.array(value(3), { minLength: count, maxLength: count });
    const maskShape = c.maskKind === '2d' ? [c.L, c.S] : [c.batch, 1, c.L, c.S];
    return fc.record({
      c: fc.constant({ ...c, qHeads }),
      q: flat(c.batch * qHeads * c.L * c.dk), k: flat(c.batch * c.kvHeads * c.S * c.dk), v: flat(c.batch * c.kvHeads * c.S * c.dv),
      mask: c.maskKind === 'none' ? fc.constant(null) : fc.array(fc.boolean(), { minLength: maskShape.reduce((a, b) => a * b), maxLength: maskShape.reduce((a, b) => a * b) }).map((data) => ({ shape: maskShape, data })),
      scale,
    });
  });

test('multiHead(): random batches, grouped-query heads, layouts and masks give each head what the reference gives it', () => {
  fc.assert(
    fc.property(multiHeadCase, ({ c, q, k, v, mask: m, scale: sc }) => {
      const { rank, batch, qHeads, kvHeads, L, S, dk, dv, causal } = c;
      // 4-D [b, h, t, size]; 3-D [b, t, h·size]
      const shape = (h, len, size) => (rank === 4 ? [batch, h, len, size] : [batch, len, h * size]);
      const at = (h, len, size) => (b, hh, t, x) => (rank === 4 ? ((b * h + hh) * len + t) * size + x : (b * len + t) * h * size + hh * size + x);
      const args = { Q: { shape: shape(qHeads, L, dk), data: q }, K: { shape: shape(kvHeads, S, dk), data: k }, V: { shape: shape(kvHeads, S, dv), data: v }, causal };
      if (rank === 3) Object.assign(args, { qHeads, kvHeads });
      if (m) args.mask = m;
      if (sc !== undefined) args.scale = sc;
      const y = attn.multiHead(args);
      const qi = at(qHeads, L, dk), ki = at(kvHeads, S, dk), vi = at(kvHeads, S, dv), yi = at(qHeads, L, dv);
      for (let b = 0; b < batch; b++) {
        for (let h = 0; h < qHeads; h++) {
          const kh = Math.floor(h / (qHeads / kvHeads));
          const rows = (data, idx, hh, len, size) => Array.from({ length: len }, (_, t) => Array.from({ length: size }, (_, x) => data[idx(b, hh, t, x)]));
          const maskRows = m && Array.from({ length: L }, (_, i) => Array.from({ length: S }, (_, j) => m.data[(m.shape.length === 2 ? 0 : b * L * S) + i * S + j]));
          const ref = referenceHead({ Q: rows(q, qi, h, L, dk), K: rows(k, ki, kh, S, dk), V: rows(v, vi, kh, S, dv), causal, mask: maskRows || null, scale: sc ?? null });
          const got = rows(y.data, yi, h, L, dv).flat();
          const cmp = compare(got, ref.O, TOL);
          assert.ok(cmp.ok, `head (${b}, ${h}): ${cmp.worst}`);
        }
      }
    }),
  );
});

// ---------------------------------------------------------------- hostile values

/** Values no matrix may hold, or that are not numbers at all. */
const hostile = fc.constantFrom(
  NaN, Infinity, -Infinity, 1e39, -1e39, Number.MAX_VALUE, '1', '', 'NaN', true, false, null, undefined, [1], [], {}, { valueOf: () => 1 },
  1n, Symbol('x'), () => 1, new Date(0), new Float32Array(1), new DataView(new ArrayBuffer(4)),
);

const LESSON = { Q: [[1, 0], [0, 1], [1, 1]], K: [[1, 0], [0, 1], [1, 1]], V: [[1, 0], [0, 2], [3, 1]] };
const LESSON_REF = referenceHead(LESSON);
const stillRight = () => {
  const r = attn.forward(LESSON);
  assert.ok(compare(r.O, LESSON_REF.O, TOL).ok, 'after a refused call, the lesson head is wrong');
};

/** Calls fn, which must throw an Error (never a TypeError from deep inside) naming one of `names`. */
function refused(fn, names, label) {
  let error = null;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof Error, `${label}: accepted, or threw a non-Error (${String(error)})`);
  assert.ok(!(error instanceof TypeError) && !(error instanceof RangeError), `${label}: a raw ${error.constructor.name}: ${error.message}`);
  assert.ok(names.some((n) => new RegExp(`(^|[^A-Za-z])${n}([^A-Za-z]|$)`).test(error.message)), `${label}: "${error.message}" names none of ${names.join(', ')}`);
  assert.doesNotMatch(error.message, /please report/, `${label}: the core had to refuse it: ${error.message}`);
  assert.ok(error.message.length <= 400, `${label}: a message of ${error.message.length} characters`);
}

test('forward(): a hostile value anywhere (a cell, a row, a shape, scale, causal, mask) is refused by name, and the module keeps working', () => {
  const before = attn.memoryBytes();
  fc.assert(
    fc.property(directHead, hostile, fc.constantFrom('cell', 'row', 'scale', 'causal', 'mask-cell', 'shape', 'input'), fc.nat(), (head, bad, where, pick) => {
      const args = defined(head);
      const name = ['Q', 'K', 'V'][pick % 3];
      let names = [name];
      if (where === 'cell') {
        const M = args[name].map((r) => r.slice());
        M[pick % M.length][pick % M[0].length] = bad;
        args[name] = M;
      } else if (where === 'row') {
        // a row of finite numbers of the right length (any length when it is the only row) is valid
        const rowLike = Array.isArray(bad) || (ArrayBuffer.isView(bad) && !(bad instanceof DataView));
        if (rowLike && bad.length > 0 && Array.from(bad).every((x) => typeof x === 'number' && Number.isFinite(Math.fround(x))) && (args[name].length === 1 || bad.length === args[name][0].length)) return;
        args[name] = args[name].map((r, i) => (i === pick % args[name].length ? bad : r));
      } else if (where === 'scale') {
        if (bad === undefined || bad === null) return; // the default scale
        args.scale = bad;
        names = ['scale'];
      } else if (where === 'causal') {
        if (bad === undefined || typeof bad === 'boolean') return;
        args.causal = bad;
        names = ['causal'];
      } else if (where === 'mask-cell') {
        const n = args.Q.length, m = args.K.length;
        const M = args.mask ? args.mask.map((r) => r.slice()) : Array.from({ length: n }, () => new Array(m).fill(0));
        M[pick % n][pick % m] = bad;
        // still a valid mask: all booleans, or all numbers with no NaN and nothing rounding to +Infinity
        const cells = M.flat();
        if (cells.every((x) => typeof x === 'boolean') || cells.every((x) => typeof x === 'number' && !Number.isNaN(x) && Math.fround(x) !== Infinity)) return;
        args.mask = M;
        names = ['mask'];
      } else if (where === 'shape') {
        args[name] = { shape: [bad, 2], data: new Float32Array(4) };
      } else {
        if (bad === undefined || bad === null) return; // the same as leaving it out
        args[name] = bad;
      }
      refused(() => attn.forward(args), names, `${where} = ${typeof bad === 'symbol' ? 'Symbol' : String(bad)}`);
    }),
  );
  stillRight();
  assert.equal(attn.memoryBytes(), before, 'refused calls grew the Wasm memory');
});

test('multiHead(): a hostile value in data, shape, head counts, mask or scale is refused by name before any copy', () => {
  const t = (shape) => ({ shape, data: new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(0.5) });
  fc.assert(
    fc.property(hostile, fc.constantFrom('data', 'shape', 'qHeads', 'mask', 'scale', 'tensor'), fc.nat(), (bad, where, pick) => {
      const args = { Q: t([1, 2, 3, 2]), K: t([1, 1, 4, 2]), V: t([1, 1, 4, 3]) };
      const name = ['Q', 'K', 'V'][pick % 3];
      let names = [name];
      if (where === 'data') {
        const data = Array.from(args[name].data);
        data[pick % data.length] = bad;
        args[name] = { shape: args[name].shape, data };
      } else if (where === 'shape') {
        args[name] = { shape: args[name].shape.map((s, a) => (a === pick % 4 ? bad : s)), data: args[name].data };
      } else if (where === 'qHeads') {
        if (bad === undefined || bad === null) return;
        Object.assign(args, { Q: t([1, 3, 4]), K: t([1, 4, 2]), V: t([1, 4, 2]), qHeads: bad, kvHeads: 1 });
        names = ['qHeads'];
      } else if (where === 'mask') {
        if (bad === undefined || bad === null) return;
        args.mask = pick % 2 ? bad : { shape: [3, 4], data: Array.from({ length: 12 }, (_, i) => (i === pick % 12 ? bad : true)) };
        if (!(pick % 2) && typeof bad === 'boolean') return;
        names = ['mask'];
      } else if (where === 'scale') {
        if (bad === undefined || bad === null) return;
        args.scale = bad;
        names = ['scale'];
      } else {
        if (bad === undefined || bad === null) names = [name];
        args[name] = bad;
      }
      refused(() => attn.multiHead(args), [...names, 'multiHead'], `${where} = ${typeof bad === 'symbol' ? 'Symbol' : String(bad)}`);
    }),
  );
  stillRight();
});

test('sizes past the limits are refused from the shape, whatever the data', () => {
  fc.assert(
    fc.property(fc.integer({ min: LIMITS.maxTokens + 1, max: 2 ** 31 }), fc.integer({ min: LIMITS.maxWidth + 1, max: 2 ** 31 }), (rows, cols) => {
      const data = { length: 0 }; // never read
      refused(() => attn.forward({ Q: { shape: [rows, 2], data }, K: [[1, 0]], V: [[1]] }), ['Q'], `Q of ${rows} rows`);
      refused(() => attn.multiHead({ Q: { shape: [1, 1, rows, 2], data: [] }, K: { shape: [1, 1, 1, 2], data: [1, 0] }, V: { shape: [1, 1, 1, 1], data: [1] } }), ['Q'], `multiHead Q of ${rows} rows`);
      refused(() => attn.multiHead({ Q: { shape: [1, 1, 1, cols], data: [] }, K: { shape: [1, 1, 1, 2], data: [1, 0] }, V: { shape: [1, 1, 1, 1], data: [1] } }), ['Q'], `multiHead Q ${cols} wide`);
    }),
    { numRuns: Math.min(RUNS, 50) },
  );
});

// ---------------------------------------------------------------- the trainer

const trainerOptions = fc.record(
  {
    task: fc.constantFrom('previous-token', 'find-the-noun'),
    seed: fc.nat({ max: 0xffffffff }),
    lr: fc.constantFrom(0.001, 0.01, 0.03, 0.1),
    optimizer: fc.constantFrom('adam', 'sgd'),
    batch: fc.integer({ min: 1, max: 8 }),
    dk: fc.integer({ min: 1, max: 16 }),
    dv: fc.integer({ min: 1, max: 16 }),
  },
  { requiredKeys: ['task', 'seed'] },
);

test('the trainer: random settings train deterministically, and its example is a head forward() and the reference agree on', () => {
  fc.assert(
    fc.property(trainerOptions, fc.integer({ min: 1, max: 4 }), fc.nat(1000), (options, steps, ex) => {
      const a = attn.createTrainer(options), b = attn.createTrainer(options);
      try {
        const la = a.step(steps), lb = b.step(steps);
        assert.deepEqual(la, lb, 'the same settings gave other losses');
        for (const l of la) assert.ok(Number.isFinite(l) && l >= 0, `a loss of ${l}`);
        const e = a.evaluate();
        assert.ok(e.attentionOnRight >= 0 && e.attentionOnRight <= 1 + 1e-6 && e.accuracy >= 0 && e.accuracy <= 1, 'evaluation outside [0, 1]');
        const config = a.example({ seed: ex });
        const args = { X: config.X, Wq: config.Wq, Wk: config.Wk, Wv: config.Wv, causal: true };
        expectMatches(attn.forward(args), referenceHead(args), 'trained head');
        assert.deepEqual(a.weights(), b.weights(), 'the same settings gave other weights');
      } finally {
        a.dispose();
        b.dispose();
      }
    }),
    { numRuns: Math.max(10, Math.floor(RUNS / 5)) },
  );
});

test('the trainer: hostile options are refused by name, and no slot is lost to a refused one', () => {
  fc.assert(
    fc.property(fc.constantFrom('task', 'seed', 'lr', 'optimizer', 'batch', 'dk', 'dv'), hostile, (key, bad) => {
      if (bad === undefined) return; // the default
      refused(() => attn.createTrainer({ [key]: bad }), [key], `${key} = ${typeof bad === 'symbol' ? 'Symbol' : String(bad)}`);
    }),
  );
  // every slot is still free
  const all = Array.from({ length: 8 }, (_, s) => attn.createTrainer({ seed: s }));
  for (const t of all) t.dispose();
});
