// Node tests of web/explorer/export.js: CSV and JSON read back to the core's values, the SVG carries the
// numbers and only escaped text, and "copy as PyTorch" gives a script whose arithmetic, re-run
// here from its own text with the float64 reference, prints what the page shows.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { parseConfig, forwardArgs } from '../../web/blocks/config.js';
import { PRESETS, syntheticConfig } from '../../web/blocks/presets.js';
import { matrixCSV, matrixJSON, headJSON, heatmapSVG, viewSVG, pytorchScript, layoutView } from '../../web/explorer/export.js';
import { displayed, matrixInfo } from '../../web/blocks/explain.js';
import { fmt } from '../../web/blocks/format.js';
import { referenceHead, compare, mulberry32, randMatrix } from '../reference.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

let attn;
before(async () => {
  attn = await loadAttention();
});

function viewOf(cfgIn, step = null) {
  const config = parseConfig(cfgIn);
  const r = attn.forward(forwardArgs(config));
  const raw = attn.forward(forwardArgs(config, 1));
  return { config, r, raw, step };
}

// A small CSV reader: quoted fields with doubled quotes, CRLF rows.
function readCSV(text) {
  const rows = [];
  for (const line of text.trim().split('\r\n')) {
    const cells = [];
    let k = 0;
    while (k <= line.length) {
      if (line[k] === '"') {
        let s = '';
        k++;
        for (;;) {
          if (line[k] === '"' && line[k + 1] === '"') (s += '"'), (k += 2);
          else if (line[k] === '"') { k++; break; }
          else s += line[k++];
        }
        cells.push(s);
        k++;
      } else {
        const end = line.indexOf(',', k) === -1 ? line.length : line.indexOf(',', k);
        cells.push(line.slice(k, end));
        k = end + 1;
      }
    }
    rows.push(cells);
  }
  return rows;
}

test('CSV of every matrix reads back to exactly the values its panel shows, labels quoted', () => {
  for (const name of Object.keys(PRESETS)) {
    for (const step of [null, 'score', 'softmax']) {
      const view = viewOf(PRESETS[name].config, step);
      for (const m of ['X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A', 'O']) {
        if (!view.r[m]) continue;
        const rows = readCSV(matrixCSV(view, m));
        const want = displayed(view, m);
        const cols = rows[0].length - 1;
        assert.equal(rows[0][0], m);
        assert.equal((rows.length - 1) * cols, want.length, `${name} ${m} size`);
        rows.slice(1).forEach((row, i) => {
          assert.equal(row[0], matrixInfo(view, m).rowLabels[i]);
          row.slice(1).forEach((t, j) => assert.ok(Object.is(Number(t), want[i * cols + j]), `${name} ${m}[${i}][${j}]: ${t}`));
        });
      }
    }
  }
});

test('CSV defuses spreadsheet formulas and quotes in token names', () => {
  const cfg = { ...PRESETS.cat.config, tokens: ['=HYPERLINK("x")', '+1', 'say "hi"', '@a', 'ok'] };
  const rows = readCSV(matrixCSV(viewOf(cfg), 'A'));
  assert.deepEqual(rows[0].slice(1), ["'=HYPERLINK(\"x\")", "'+1", 'say "hi"', "'@a", 'ok']);
});

test('JSON of a matrix gives the core values, masked entries as null with a note', () => {
  const view = viewOf(PRESETS.cat.config);
  const a = JSON.parse(matrixJSON(view, 'A'));
  assert.deepEqual(a.shape, [5, 5]);
  assert.deepEqual(a.rows, PRESETS.cat.config.tokens);
  assert.deepEqual(a.values.flat(), Array.from(view.r.A));
  const s = JSON.parse(matrixJSON(view, 'S'));
  assert.equal(s.null_means, '-Infinity (masked)');
  s.values.flat().forEach((v, k) => assert.ok(view.r.M[k] === -Infinity ? v === null : v === view.r.S[k]));
  const all = JSON.parse(headJSON(view));
  assert.deepEqual(Object.keys(all.matrices), ['X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A', 'O']);
  assert.deepEqual(all.matrices.O.values.flat(), Array.from(view.r.O));
  assert.deepEqual(all.config, view.config);
  assert.throws(() => matrixJSON(view, 'Z'), /no matrix “Z”/);
});

test('SVG of a heatmap holds every shown number, and token text only escaped', () => {
  const cfg = { ...PRESETS.cat.config, tokens: ['<script>x</script>', 'a&b', '"q"', 'on', 'the'] };
  const view = viewOf(cfg);
  const svg = heatmapSVG(view, 'A');
  assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
  for (const v of view.r.A) assert.ok(svg.includes('>' + fmt(v) + '</text>'), fmt(v));
  assert.ok(!svg.includes('<script'), 'no markup from token names');
  assert.ok(svg.includes('&lt;script&gt;') && svg.includes('a&amp;b'));
  const whole = viewSVG(view, { theme: 'dark' });
  for (const m of ['X', 'Q', 'S', 'A', 'O']) assert.ok(whole.includes(`>${m}: `), m);
  assert.ok(whole.includes('#14171c'), 'dark background');
  // big matrices: colour only, still one rect per cell
  const big = viewOf(syntheticConfig(40, 4));
  assert.equal((heatmapSVG(big, 'A').match(/<rect /g) || []).length, 40 * 40 + 1);
  assert.ok(layoutView(big).w > 0);
});

// ---------------------------------------------------------------- copy as PyTorch

/** Reads `name = torch.tensor([[...]])` back out of the script text (Python floats like "2."). */
function tensorFromScript(script, name) {
  const m = new RegExp(`^${name} = torch\\.tensor\\((\\[[\\s\\S]*?\\]\\])\\)`, 'm').exec(script);
  if (!m) return null;
  return JSON.parse(m[1].replace(/(\d)\.(?=[,\]\s])/g, '$1.0'));
}
/** The printed comment of `print('A', r3(A))  # [[...]]`, with -inf as -Infinity. */
function printed(script, name) {
  const m = new RegExp(`^print\\('${name}', r3\\(${name}\\)\\)  # (.*)$`, 'm').exec(script);
  return JSON.parse(m[1].replace(/-inf/g, '"-inf"')).map((row) => row.map((v) => (v === '-inf' ? -Infinity : v)));
}

function checkScript(cfgIn) {
  const config = parseConfig(cfgIn);
  const r = attn.forward(forwardArgs(config));
  const py = pytorchScript(config, r);
  // structure, as in the lesson
  assert.match(py, /^import torch$/m);
  assert.match(py, /^A = torch\.softmax\(S, dim=-1\)/m);
  assert.match(py, /^O = A @ V/m);
  // PyTorch's fused version only where it exists (2.0 and later), else the long form again
  assert.match(py, /^sdpa = getattr\(torch\.nn\.functional, 'scaled_dot_product_attention', None\)$/m);
  assert.match(py, /^if sdpa is not None: .*\n    (ref = sdpa\(Q, K, V|try:)/m);
  assert.match(py, /^else: .*\n    E = torch\.exp\(S - S\.max\(dim=-1, keepdim=True\)\.values\)\n    ref = E \/ E\.sum\(dim=-1, keepdim=True\) @ V$/m);
  assert.doesNotMatch(py, /torch\.nn\.functional\.scaled_dot_product_attention\(/, 'never called unguarded');
  assert.match(py, /^print\(torch\.allclose\(O, ref, atol=1e-6\)\)/m);
  assert.equal(/masked_fill\(future, float\('-inf'\)\)/.test(py), config.causal, 'causal mask line iff causal');
  assert.equal(/is_causal=True/.test(py), config.causal);
  assert.equal(/scale=.*\n    except TypeError:/.test(py), config.scale != null, 'scale= (PyTorch 2.1) falls back to scaling Q (2.0)');
  assert.equal(/^S = Q @ K\.T \/ dk \*\* 0\.5/m.test(py), config.scale == null);
  // every tensor line is a float tensor (no integer literals that would make int64 tensors)
  for (const line of py.split('\n').filter((l) => l.includes('torch.tensor('))) assert.doesNotMatch(line, /[[,\s]-?\d+[,\]]/, line);
  // rebuild the head from the script's own numbers and recompute it with the float64 reference
  const direct = /^Q = torch\.tensor/m.test(py);
  const inputs = direct
    ? { Q: tensorFromScript(py, 'Q'), K: tensorFromScript(py, 'K'), V: tensorFromScript(py, 'V') }
    : { X: tensorFromScript(py, 'X'), Wq: tensorFromScript(py, 'Wq'), Wk: tensorFromScript(py, 'Wk'), Wv: tensorFromScript(py, 'Wv') };
  const scaleMatch = /^S = Q @ K\.T \* ([0-9.e+-]+)/m.exec(py);
  const ref = referenceHead({ ...inputs, causal: /masked_fill/.test(py), scale: scaleMatch ? Number(scaleMatch[1]) : null });
  let worst = 0;
  for (const m of ['Q', 'K', 'V', 'A', 'O']) {
    const c = compare(r[m], ref[m], { atol: 1e-5, rtol: 1e-4 });
    assert.ok(c.ok, `${m}: ${c.worst}`);
    worst = Math.max(worst, c.maxAbs);
    // what the script says it prints is the core's value to 3 decimals
    const want = printed(py, m);
    want.flat().forEach((v, k) => assert.ok(Math.abs(v - ref[m].flat()[k]) <= 0.0005 + 1e-9, `${m} printed ${v} vs ${ref[m].flat()[k]}`));
  }
  const S = printed(py, 'S').flat();
  S.forEach((v, k) => assert.ok(r.M[k] === -Infinity ? v === -Infinity : Math.abs(v - ref.S.flat()[k]) <= 0.0005 + 1e-9, `S[${k}]`));
  return worst;
}

test('copy as PyTorch: the script rebuilds each preset, and its arithmetic gives the core values', () => {
  for (const name of Object.keys(PRESETS)) {
    const worst = checkScript(PRESETS[name].config);
    console.log(`  ${name}: max |core - script's head in float64| = ${worst.toExponential(2)}`);
  }
});

test('copy as PyTorch: scaling off, no mask, direct form and seeded random heads', () => {
  const rand = mulberry32(4);
  checkScript({ ...PRESETS.cat.config, scale: 1, causal: false });
  checkScript({ ...PRESETS['worked-example'].config, scale: 0.25, causal: true });
  for (let t = 0; t < 5; t++) {
    const n = 2 + t, d = 3, dk = 2 + (t % 3), dv = 3;
    checkScript({ X: randMatrix(rand, n, d), Wq: randMatrix(rand, d, dk), Wk: randMatrix(rand, d, dk), Wv: randMatrix(rand, d, dv), causal: t % 2 === 0 });
  }
});

test('copy as PyTorch: token names stay inside Python string literals', () => {
  const cfg = { ...PRESETS.cat.config, tokens: ['a"\nimport os', "b'", 'c\\', '\u2028', 'ok'] };
  const config = parseConfig(cfg);
  const py = pytorchScript(config, attn.forward(forwardArgs(config)));
  const line = py.split('\n').find((l) => l.startsWith('tokens = '));
  assert.equal(line.replace(/  #.*/, ''), 'tokens = ["a\\"\\nimport os", "b\'", "c\\\\", "\\u2028", "ok"]');
  assert.equal(py.split('\n').filter((l) => l.startsWith('import')).length, 1);
});

// ---------------------------------------------------------------- the script, run by Python
// PYTHON=/usr/bin/python3 picks a Python that has the real PyTorch (Debian's python3-torch is
// 1.13): the scripts then also run on it. Without one, the stand-in of tests/fake-torch is used.

const PYTHON = spawnSync(process.env.PYTHON || 'python3', ['--version']).status === 0 ? process.env.PYTHON || 'python3' : null;
const REAL_TORCH = PYTHON && spawnSync(PYTHON, ['-c', 'import torch'], { stdio: 'ignore' }).status === 0;
const FAKE = fileURLToPath(new URL('../fake-torch', import.meta.url));

/** Runs a script under Python (with the stand-in torch of tests/fake-torch at `version`, or the real one). */
function runPython(script, version) {
  const dir = mkdtempSync(join(tmpdir(), 'ae-py-'));
  writeFileSync(join(dir, 'head.py'), script);
  const env = version ? { ...process.env, PYTHONPATH: FAKE, FAKE_TORCH: version } : process.env;
  return execFileSync(PYTHON, [join(dir, 'head.py')], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

test('copy as PyTorch runs to the end on PyTorch 1.13, 2.0 and 2.1: the page’s numbers, then True from the fused or the long form', { skip: PYTHON ? false : 'no python3 (Debian’s emscripten brings it)' }, () => {
  const cases = [];
  for (const name of Object.keys(PRESETS)) cases.push(PRESETS[name].config);
  cases.push({ ...PRESETS['worked-example'].config, scale: 0.25, causal: true }, { ...PRESETS.cat.config, scale: 1, causal: false });
  const versions = ['1.13', '2.0', '2.1', ...(REAL_TORCH ? [null] : [])];
  for (const cfg of cases) {
    const config = parseConfig(cfg);
    const py = pytorchScript(config, attn.forward(forwardArgs(config)));
    for (const version of versions) {
      const out = runPython(py, version).trim().split('\n');
      assert.equal(out[out.length - 1], 'True', `PyTorch ${version ?? 'installed'}: ${out.join(' | ')}`);
      for (const m of ['Q', 'K', 'V', 'S', 'A', 'O']) {
        const line = out.find((l) => l.startsWith(m + ' '));
        const got = JSON.parse(line.slice(2).replace(/-inf/g, '"-inf"')).flat();
        const want = printed(py, m).flat();
        got.forEach((v, k) => assert.ok(v === '-inf' ? want[k] === -Infinity : Math.abs(v - want[k]) <= 0.001 + 1e-9, `${m}[${k}] printed ${v}, the page shows ${want[k]} (PyTorch ${version ?? 'installed'})`));
      }
    }
  }
  console.log(`  ran ${cases.length} scripts on the stand-in PyTorch 1.13, 2.0 and 2.1${REAL_TORCH ? ' and on the installed PyTorch' : ''}`);
});
