// Issue 27: every reader of text a link, an attribute or a paste can hand the page (the config as
// JSON or tensor text, the training page's learning-rate schedule, numbers typed in a lab) works
// in steps linear in its input, so a crafted link cannot freeze the tab, and refuses what it
// cannot read with its own error, never a RangeError from deep recursion.
//
// Linear by construction: no pattern that reads numbers may split a run of digits between two
// digit groups (the old "\d+\.?\d*", which took 52 s on 100,000 digits and an "x"). Checked on
// the source, then each reader is run on 100 KB inputs of the shapes that were slow; and a
// property test: any matrix printed as PyTorch or NumPy prints it reads back the same, and any
// edit of such a printout is read or refused with a ConfigError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseConfig, ConfigError } from '../../web/blocks/config.js';
import { parseSchedule } from '../../web/train/words.js';
import { parseScores } from '../../web/labs/stability.js';
import { parseNumber } from '../../web/blocks/format.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const files = (dir) => readdirSync(dir).flatMap((f) => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? (f === 'gen' ? [] : files(p)) : p.endsWith('.js') || p.endsWith('.mjs') ? [p] : [];
});

test('no pattern in web/ or tools/ reads digits in two groups a run can be split between (the quadratic shape)', () => {
  // \d+ or \d* then an optional single character then \d* or \d+: a run of digits with no such
  // character matches both groups in n ways, and a failing match tries them all
  const quadratic = /\\d[+*]\\?\.\?\\d[+*]|\\d[+*]\.\?\\d[+*]/;
  const found = [...files(ROOT + 'web'), ...files(ROOT + 'tools')].flatMap((f) =>
    readFileSync(f, 'utf8').split('\n').map((line, k) => [f.slice(ROOT.length) + ':' + (k + 1), line]).filter(([, line]) => quadratic.test(line) && !line.trim().startsWith('*') && !line.trim().startsWith('//')));
  assert.deepEqual(found, []);
});

const KB100 = 100_000;
const refused = (fn, label) => assert.throws(fn, (e) => e instanceof ConfigError, label);

test('100 KB inputs of the shapes that froze the page are refused with the reader’s own error', () => {
  const digits = '1'.repeat(KB100);
  refused(() => parseConfig(`[[${digits}x]]`), 'digits then a letter');
  refused(() => parseConfig(`[[1.${digits}x]]`), 'a decimal then a letter');
  refused(() => parseConfig(`Q = tensor([[${digits}e]])`), 'digits then an exponent with no digits');
  refused(() => parseConfig('['.repeat(KB100)), 'brackets nested 100,000 deep');
  refused(() => parseConfig(`{"tokens": [${'['.repeat(KB100)}`), 'JSON nested 100,000 deep');
  refused(() => parseConfig(`scale = ${digits}x`), 'a scale of digits then a letter');
  assert.equal(parseSchedule(`${digits}x`), null);
  assert.equal(parseSchedule(`0.01,50:${digits}.${digits}x`), null);
  assert.equal(parseScores(`1, ${digits}x`).ok, false);
  assert.ok(Number.isNaN(parseNumber(`${digits}.${digits}x`)));
});

test('a JSON object is read as JSON even when a token looks like tensor text', () => {
  const cfg = parseConfig(JSON.stringify({ tokens: ['array([', 'tensor(['], Q: [[1], [0]], K: [[1], [0]], V: [[1], [0]] }));
  assert.deepEqual(cfg.tokens, ['array([', 'tensor([']);
});

test('tensor text: numbers that run together, mixed separators, an unknown dtype and a name left without its printout are refused', () => {
  const says = (text, re) => assert.throws(() => parseConfig(text), (e) => e instanceof ConfigError && re.test(e.message), text);
  says('[[1-2]]\n[[1]]\n[[1]]', /“1” runs into “-”: put a comma or a space between two numbers/);
  says('[[1, 2 3]]\n[[1]]\n[[1]]', /commas in one place and only spaces in another/);
  says('Q = tensor([[1.0]], dtype=float1..)', /dtype float1\.\. is not a dtype PyTorch or NumPy prints/);
  says('>>> Q\n>>> K\ntensor([[1.]])', /“Q” is not followed by its printout: the next line names “K”/);
  // what PyTorch and NumPy print still reads
  assert.deepEqual(parseConfig('Q = tensor([[1.0, -2.0]], dtype=torch.float32)\nK = tensor([[1.0, 0.0]])\nV = tensor([[3.0]])').Q, [[1, -2]]);
  assert.deepEqual(parseConfig('Q = np.array([[1., -2.]], dtype=np.float64)\nK = array([[1. 0.]])\nV = array([[3]])').K, [[1, 0]]);
});

// a matrix as PyTorch prints it (commas) or NumPy (spaces)
const printed = (name, M, style) => style === 'torch'
  ? `${name} = tensor([${M.map((r) => `[${r.map((x) => x.toFixed(4)).join(', ')}]`).join(',\n        ')}])`
  : `${name} = array([${M.map((r) => `[${r.map((x) => x.toFixed(4)).join(' ')}]`).join('\n       ')}])`;
const matrix = (rows, cols) => fc.array(fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: cols, maxLength: cols }), { minLength: rows, maxLength: rows });
const head = fc.record({ n: fc.integer({ min: 1, max: 4 }), dk: fc.integer({ min: 1, max: 3 }), dv: fc.integer({ min: 1, max: 3 }), style: fc.constantFrom('torch', 'numpy') })
  .chain(({ n, dk, dv, style }) => fc.record({ Q: matrix(n, dk), K: matrix(n, dk), V: matrix(n, dv), style: fc.constant(style) }));
const text = ({ Q, K, V, style }) => [printed('Q', Q, style), printed('K', K, style), printed('V', V, style)].join('\n');
const runs = Number(process.env.PROPERTY_RUNS) || 200;

test('property: a head printed as PyTorch or NumPy prints it reads back to the printed numbers', () => {
  fc.assert(fc.property(head, (h) => {
    const cfg = parseConfig(text(h));
    for (const k of ['Q', 'K', 'V']) assert.deepEqual(cfg[k], h[k].map((r) => r.map((x) => Number(x.toFixed(4)))));
  }), { numRuns: runs, seed: 27 });
});

test('property: any edit of a printout is read or refused with a ConfigError, never another error', () => {
  const edit = fc.record({ at: fc.nat(), cut: fc.nat({ max: 6 }), put: fc.string({ unit: fc.constantFrom(...'[](),.-+e 1x\n#>=:'.split('')), maxLength: 6 }) });
  fc.assert(fc.property(head, edit, (h, { at, cut, put }) => {
    const t = text(h), i = at % (t.length + 1);
    try {
      parseConfig(t.slice(0, i) + put + t.slice(i + cut));
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
    }
  }), { numRuns: runs * 5, seed: 2027 });
});
