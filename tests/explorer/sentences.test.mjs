// Every sentence the explorer can say, checked against written rules (tests/sentence-rules.mjs):
// every cell of every matrix of every preset, causal and scaling on and off, every step and every
// followed row; then 200 seeded random heads (1-12 tokens, tokens that are numbers, duplicates,
// ties, masks with fully masked rows, scores large enough to overflow exp in float32).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadAttention } from '../../web/core/attention.js';
import { parseConfig, forwardArgs, STEPS } from '../../web/blocks/config.js';
import { PRESETS } from '../../web/blocks/presets.js';
import { fmt, fmtFine, tokenRef } from '../../web/blocks/format.js';
import { mulberry32 } from '../../web/labs/random.js';
import { explainCell, narration, followSentence, displayed, matrixInfo, formulaLine, legendInfo, fullyMaskedRows } from '../../web/blocks/explain.js';
import { scaleKind, maxAbsFinite } from '../../web/blocks/colors.js';
import { grammar, numbersFrom, shownNumbers, namesTheTie, decimals } from '../sentence-rules.mjs';

const attn = await loadAttention();
const MATS = ['X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A', 'O'];
const row = (a, i, cols) => Array.from(a.subarray(i * cols, i * cols + cols));

function viewOf(config, step = null, mask) {
  const args = forwardArgs(config);
  if (mask) args.mask = mask;
  return { config, r: attn.forward(args), raw: attn.forward({ ...args, scale: 1 }), step };
}

/** A number as a learner reads it off the page (rounded as fmt prints it). @param {number} v */
const printedOf = (v) => Number(fmt(v).replace(/\u2212/g, '-'));

// The numbers an explanation of cell (m, i, j) may quote besides the shown values: the terms it
// is built from, computed here independently of explain.js.
function derivedNumbers(view, m, i, j) {
  const { r } = view;
  const set = new Set();
  const add = (v) => set.add(fmt(v));
  if (m === 'A') {
    const live = [];
    for (let c = 0; c < r.m; c++) if (r.M[i * r.m + c] !== -Infinity) live.push(r.S[i * r.m + c] + r.M[i * r.m + c]);
    if (live.length) {
      const max = Math.max(...live);
      add(max);
      let plain = 0, shifted = 0;
      for (const s of live) add(Math.exp(s)), add(Math.exp(s - max)), add(s - max), (plain += Math.exp(s)), (shifted += Math.exp(s - max));
      add(plain);
      add(shifted);
      add(-max);
      add(Math.exp(-max));
      set.add(fmtFine(Math.exp(-max)));
      // what the printed terms add to, quoted when it differs from the sum (the rounding note)
      add(live.reduce((a, s) => a + printedOf(Math.exp(s)), 0));
      add(live.reduce((a, s) => a + printedOf(Math.exp(s - max)), 0));
    }
  }
  // a product of printed factors, and the printed terms' sum, quoted by the rounding note
  /** @param {number[]} a @param {number[]} b */
  const dot = (a, b) => {
    let printedSum = 0, productsSum = 0;
    a.forEach((x, k) => {
      add(printedOf(x) * printedOf(b[k]));
      printedSum += printedOf(x) * printedOf(b[k]);
      productsSum += printedOf(x * b[k]);
    });
    add(printedSum);
    add(productsSum);
  };
  const row = (M, at, cols) => Array.from(M.subarray(at * cols, at * cols + cols));
  const col = (M, at, rows, cols) => Array.from({ length: rows }, (_, k) => M[k * cols + at]);
  if (m === 'O') {
    for (let k = 0; k < r.m; k++) add(r.A[i * r.m + k] * r.V[k * r.dv + j]);
    const live = Array.from({ length: r.m }, (_, c) => c).filter((c) => r.M[i * r.m + c] !== -Infinity);
    dot(live.map((c) => r.A[i * r.m + c]), live.map((c) => r.V[c * r.dv + j]));
  }
  if (m === 'S') dot(row(r.Q, i, r.dk), row(r.K, j, r.dk));
  if ((m === 'Q' || m === 'K' || m === 'V') && r.X) dot(row(r.X, i, r.d), col(r['W' + m.toLowerCase()], j, r.d, m === 'V' ? r.dv : r.dk));
  return set;
}

// The numbers a follow sentence may quote besides the shown values: how far each visible key's
// score lies below its row's largest (said of a weight that underflowed to 0).
function followNumbers(view, i) {
  const { r } = view;
  const live = [];
  for (let c = 0; c < r.m; c++) if (r.M[i * r.m + c] !== -Infinity) live.push(r.S[i * r.m + c] + r.M[i * r.m + c]);
  const max = Math.max(...live);
  return new Set(live.flatMap((s) => [fmt(max - s), fmt(s - max)]));
}

let checked = 0; // sentences checked so far (the figure each test reports)

/** The problems of one view's sentences (an empty list when every rule holds). */
function problemsOf(view, where) {
  const problems = [];
  const { r } = view;
  const shown = shownNumbers(view, displayed);
  const check = (what, text, extra = null) => {
    checked++;
    const allowed = extra ? new Set([...shown, ...extra]) : shown;
    for (const p of [...grammar(text), ...numbersFrom(text, allowed)]) problems.push(`${where} ${what}: ${p}\n    ${text.replace(/\n/g, '\n    ')}`);
  };
  check('narration', narration(view, view.step));
  check('formula', formulaLine(view));
  // the formula says what the head does: S scaled by 1/√dk or not, the causal mask or not
  const formula = formulaLine(view);
  if (/S = Q·Kᵀ\/√dk/.test(formula) !== (view.config.scale == null)) problems.push(`${where} formula “${formula}” with scale ${view.config.scale}`);
  if (/causal mask/.test(formula) !== r.causal) problems.push(`${where} formula “${formula}” with causal ${r.causal}`);
  const masked = Array.from(r.M).some((v) => v === -Infinity);
  for (const m of MATS) {
    if (!r[m]) continue;
    const info = matrixInfo(view, m);
    check(`${m} caption`, info.about);
    // captions and legends say what the values show
    const values = displayed(view, m);
    const kind = scaleKind(m);
    const legend = legendInfo(m, values, kind, kind === 'diverging' ? maxAbsFinite(values) || 1 : 1);
    if (legend.masked !== values.some((v) => v === -Infinity)) problems.push(`${where} ${m} legend: masked swatch ${legend.masked} against the values`);
    if (m === 'M' && /causal/.test(info.about) !== r.causal) problems.push(`${where} M caption “${info.about}” with causal ${r.causal}`);
    if (m === 'M' && /−∞/.test(info.about) !== masked) problems.push(`${where} M caption “${info.about}” with ${masked ? 'masked' : 'no masked'} entries`);
    if (m === 'S' && /−∞/.test(info.about) && !values.some((v) => v === -Infinity)) problems.push(`${where} S caption “${info.about}” but no −∞ shown`);
    if (m === 'S' && /not scaled yet/.test(info.about) !== (view.step === 'score')) problems.push(`${where} S caption “${info.about}” at step ${view.step}`);
    for (let i = 0; i < info.rows; i++) {
      for (let j = 0; j < info.cols; j++) {
        const ex = explainCell(view, m, i, j);
        const v = values[i * info.cols + j];
        if (ex.title !== `${m}[${i + 1}][${j + 1}] = ${fmt(v)}`) problems.push(`${where} ${m}[${i}][${j}] title “${ex.title}” against the cell ${fmt(v)}`);
        check(`${m}[${i + 1}][${j + 1}]`, ex.text, derivedNumbers(view, m, i, j));
        cellRules(view, m, i, j, ex.text, (p) => problems.push(`${where} ${m}[${i + 1}][${j + 1}]: ${p}\n    ${ex.text.replace(/\n/g, '\n    ')}`));
      }
    }
  }
  for (let i = 0; i < r.n; i++) {
    const s = followSentence(view, i);
    check(`follow ${i + 1}`, s, followNumbers(view, i));
    followRules(view, i, s, (p) => problems.push(`${where} follow ${i + 1}: ${p}\n    ${s}`));
  }
  return problems;
}

// Per-cell rules: the result line quotes the cell's own value; counts of masked keys are right.
function cellRules(view, m, i, j, whole, fail) {
  const { r } = view;
  // the result line comes last, before the note on rounding, when there is one
  const text = whole.replace(/\n\(Every number here is rounded to \d decimals; [^\n]*\)$/, '');
  const live = Array.from({ length: r.m }, (_, c) => c).filter((c) => r.M[i * r.m + c] !== -Infinity);
  const hidden = r.m - live.length;
  if ((m === 'A' && live.includes(j)) || (m === 'O' && live.length)) {
    const n = /the (\d+|masked key) masked key|the (\d+) masked keys/.exec(text);
    const said = /the masked key (adds|has)/.test(text) ? 1 : n ? Number(n[2] ?? n[1]) : 0;
    if (said !== hidden) fail(`says ${said} masked keys, the row has ${hidden}`);
  }
  if (m === 'A' && live.includes(j) && !text.includes(`A[${i + 1}][${j + 1}] = `) ) fail('no result line');
  // a visible key's weight of exactly 0 is float32's underflow, never the mask's
  if (m === 'A' && live.includes(j) && (r.A[i * r.m + j] === 0) !== /rounds to 0\./.test(text)) fail(`weight ${r.A[i * r.m + j]}: the underflow is ${r.A[i * r.m + j] === 0 ? 'not said' : 'said wrongly'}`);
  if (m === 'A' && live.includes(j) && /masked to −∞/.test(text)) fail('a visible key is said to be masked');
  if (m === 'A' && live.includes(j)) {
    const last = [...text.matchAll(/A\[\d+\]\[\d+\] = [^\n]*= ([^\n=]+)$/gm)].map((x) => x[1].trim());
    if (!last.includes(fmt(r.A[i * r.m + j]))) fail(`the result is not the shown ${fmt(r.A[i * r.m + j])}`);
  }
  if (m === 'O' && live.length && !text.endsWith('= ' + fmt(r.O[i * r.dv + j]))) fail(`does not end with = ${fmt(r.O[i * r.dv + j])}`);
  if ((m === 'Q' || m === 'K' || m === 'V') && r.X && !text.endsWith('= ' + fmt(r[m][i * (m === 'V' ? r.dv : r.dk) + j]))) fail('does not end with its value');
  if (m === 'S' && view.step !== 'score' && r.M[i * r.m + j] !== -Infinity && !text.endsWith(fmt(r.S[i * r.m + j]))) fail(`does not end with S = ${fmt(r.S[i * r.m + j])}`);
}

// Follow-sentence rules: ties named in full, the visible tokens counted right, the output's largest component(s).
function followRules(view, i, s, fail) {
  const { r, config } = view;
  const t = config.tokens;
  const live = Array.from({ length: r.m }, (_, c) => c).filter((c) => r.M[i * r.m + c] !== -Infinity);
  if (!live.length) {
    if (!/no key it may look at/.test(s)) fail('a fully masked row is not said to have no key');
    return;
  }
  const gives = /gives .*? of its attention.*?\.(?= )/.exec(s);
  if (!gives) fail('does not say where its attention goes');
  else for (const p of namesTheTie(gives[0], row(r.A, i, r.m), live, (k) => (k === i ? 'itself' : tokenRef(t, k)))) fail(p);
  const out = /largest components? (?:is|are) (.*)$/.exec(s) || /the largest (?:is|are) (.*)$/.exec(s);
  const names = matrixInfo(view, 'O').colLabels;
  if (!out) fail('does not name the largest component of its output as the largest');
  else for (const p of namesTheTie(out[0], row(r.O, i, r.dv), null, (k) => `“${names[k]}”`)) fail(p);
  // what hides what: the causal mask every key after the query, an explicit mask the rest
  const later = r.causal ? Math.max(0, r.m - i - 1) : 0;
  const byMask = r.m - live.length - later;
  const after = /the causal mask hides (?:the token|the (\d+) tokens) after it/.exec(s);
  const saidLater = after ? (after[1] ? Number(after[1]) : 1) : 0;
  if (saidLater !== later) fail(`says the causal mask hides ${saidLater} tokens after it, it hides ${later}`);
  const mask = /the mask hides (?:the other (one|\d+)|(\d+) tokens?)/.exec(s);
  const saidMask = mask ? (mask[1] === 'one' ? 1 : Number(mask[1] ?? mask[2])) : 0;
  if (saidMask !== byMask) fail(`says the mask hides ${saidMask} tokens, it hides ${byMask}`);
  // a visible key's weight of exactly 0 is float32's underflow, and said so, as in the cell's explanation
  const zero = live.some((c) => r.A[i * r.m + c] === 0);
  if (zero !== /rounds to 0\./.test(s)) fail(`the underflow of a visible key's weight to 0 is ${zero ? 'not said' : 'said wrongly'}`);
}

// The first problem of each kind (kinds told apart by their words, without the numbers).
function report(problems) {
  const kinds = new Map();
  for (const p of problems) {
    const kind = p.split('\n')[0].replace(/^.*?: (?=[A-Z]\w*\[|[A-Z]\w* |follow|narration|formula)/, '').replace(/\d+(\.\d+)?/g, '#').replace(/“[^”]*”/g, '“…”');
    if (!kinds.has(kind)) kinds.set(kind, p);
  }
  return `${problems.length} problems of ${kinds.size} kinds, one of each:\n` + [...kinds.values()].slice(0, 12).join('\n');
}

test('every sentence of every preset keeps the rules: every cell, causal and scaling on and off, every step and follow row', () => {
  let views = 0;
  const problems = [];
  const from = checked;
  for (const name of Object.keys(PRESETS)) {
    for (const causal of [true, false]) {
      for (const scale of [null, 1]) {
        const config = parseConfig({ ...PRESETS[name].config, causal, scale });
        for (const step of [null, ...STEPS]) {
          problems.push(...problemsOf(viewOf(config, step), `${name} causal=${causal} scale=${scale} step=${step}:`));
          views++;
        }
      }
    }
  }
  assert.equal(views, Object.keys(PRESETS).length * 2 * 2 * (STEPS.length + 1), 'every preset, both masks, both scalings, every step and all of them');
  assert.equal(problems.length, 0, report(problems));
  console.log(`  ${checked - from} sentences in ${views} views of the presets, each checked against the rules`);
});

// A random head: sizes, names and values drawn so that ties, duplicates, numeric tokens,
// fully masked rows and overflowing scores all turn up.
function randomHead(seed) {
  const rnd = mulberry32(seed);
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = (xs) => xs[int(0, xs.length - 1)];
  const n = int(1, 12), dk = int(1, 6), dv = int(1, 6), d = int(1, 5);
  const big = rnd() < 0.1 ? 40 : 1; // scores in the thousands: exp overflows float32
  const value = () => big * pick([-2, -1, -0.5, 0, 0, 0.5, 1, 1, 2, Math.round((rnd() * 4 - 2) * 100) / 100]);
  const mat = (rows, cols) => Array.from({ length: rows }, () => Array.from({ length: cols }, value));
  const names = ['the', 'cat', 'sat', 'on', 'a', 'mat', '7', '0', '12', 'x y', ''];
  const tokens = Array.from({ length: n }, (_, i) => (rnd() < 0.3 ? String(i + 1) : pick(names)));
  const kind = pick(['causal', 'mask', 'none']);
  const scale = pick([null, null, 1, 0.25]);
  let config;
  if (rnd() < 0.5) {
    const Q = mat(n, dk);
    const K = rnd() < 0.3 ? Q.map((r) => r.slice()) : mat(n, dk); // equal rows make tied scores
    config = { tokens, Q, K, V: mat(n, dv), causal: kind === 'causal', scale };
  } else {
    const features = Array.from({ length: d }, (_, k) => pick(['thing', 'action', 'f' + (k + 1), 'pos ' + (k + 1)]));
    config = { tokens, features, X: mat(n, d), Wq: mat(d, dk), Wk: mat(d, dk), Wv: mat(d, dv), causal: kind === 'causal', scale };
  }
  let mask;
  if (kind === 'mask') {
    mask = Array.from({ length: n }, () => Array.from({ length: n }, () => rnd() < 0.6));
    if (n > 1) mask[int(0, n - 1)] = new Array(n).fill(false); // a fully masked row
  }
  return { config: parseConfig(config, { maxTokens: 256, maxWidth: 256 }), mask, step: pick([null, ...STEPS]) };
}

test('200 seeded random heads keep the rules too (numbers as tokens, duplicates, ties, fully masked rows, overflow)', () => {
  const problems = [];
  const seen = { fullyMasked: 0, ties: 0, numericTokens: 0, overflow: 0, underflow: 0 };
  const from = checked;
  for (let seed = 1; seed <= 200; seed++) {
    const { config, mask, step } = randomHead(seed);
    const view = viewOf(config, step, mask);
    problems.push(...problemsOf(view, `seed ${seed} step=${step}:`));
    // the same explicit mask under the causal mask too: each hides its own keys
    if (mask) problems.push(...problemsOf(viewOf({ ...config, causal: true }, step, mask), `seed ${seed} causal and mask step=${step}:`));
    const r = view.r;
    seen.fullyMasked += fullyMaskedRows(r).length > 0;
    seen.numericTokens += config.tokens.some((t) => /^\d+$/.test(t));
    for (let i = 0; i < r.n; i++) {
      const a = row(r.A, i, r.m).filter((x) => x > 0).map(fmt);
      if (new Set(a).size < a.length) { seen.ties++; break; }
    }
    seen.overflow += Array.from(r.S).some((s) => Math.exp(s) > 3.4e38);
    seen.underflow += r.A.some((a, k) => a === 0 && r.M[k] !== -Infinity); // a visible key's weight 0: exp(s − max) underflowed
  }
  assert.equal(problems.length, 0, report(problems));
  // the draw really covers the hard cases
  assert.ok(seen.fullyMasked >= 20 && seen.ties >= 20 && seen.numericTokens >= 50 && seen.overflow >= 3 && seen.underflow >= 3, JSON.stringify(seen));
  console.log(`  ${checked - from} sentences of 200 random heads checked; heads with ${JSON.stringify(seen)}`);
});

// The worked example of the lesson, as the lesson prints it (tests/lesson/ holds a copy).
const LESSON = readFileSync(new URL('../lesson/lesson-LM3-T3.txt', import.meta.url), 'utf8');

test("every number of the lesson's worked example appears in some explanation of that preset", () => {
  const start = LESSON.indexOf('A worked example: three tokens, width two');
  const end = LESSON.indexOf('Attention result for the toy example');
  assert.ok(start > 0 && end > start, 'the worked example is in the lesson text');
  const section = LESSON.slice(start, end);
  const numbers = [...section.matchAll(/\d+(?:\.\d+)?/g)].map((m) => m[0]);
  const wanted = [...new Set(numbers.map((x) => fmt(Number(x))))];
  // the lesson's own arithmetic, quoted: scores, exp terms, sums, weights and outputs
  for (const x of ['0.707', '1.414', '2.028', '5.056', '4.113', '8.169', '0.401', '0.198', '0.248', '0.503', '1.203', '0.396', '1.604', '0.797', '1.401', '1.759']) assert.ok(wanted.includes(x), x);
  const config = parseConfig(PRESETS['worked-example'].config);
  const texts = [];
  for (const step of [null, ...STEPS]) {
    const view = viewOf(config, step);
    texts.push(narration(view, step), formulaLine(view));
    for (const m of MATS) {
      if (!view.r[m]) continue;
      const { rows, cols } = matrixInfo(view, m);
      for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) texts.push(explainCell(view, m, i, j).text);
    }
  }
  const quoted = new Set(texts.flatMap(decimals));
  const missing = wanted.filter((x) => !quoted.has(x));
  assert.deepEqual(missing, [], `numbers of the lesson's worked example that no explanation shows: ${missing.join(', ')}`);
  console.log(`  ${wanted.length} distinct numbers of the worked example, each found in an explanation`);
});

test('the worked example explains a weight the lesson’s way: unshifted exp terms and their sum, then one line on the max subtraction', () => {
  const v = viewOf(parseConfig(PRESETS['worked-example'].config));
  const e = explainCell(v, 'A', 0, 0).text;
  assert.match(e, /exp\(0\.707\) = 2\.028\nΣ = 2\.028 \+ 1\.000 \+ 2\.028 = 5\.056\nA\[1\]\[1\] = 2\.028 \/ 5\.056 = 0\.401\n/);
  assert.match(e, /The core first subtracts the row’s largest score, 0\.707, .* = 1\.000 \/ 2\.493\. Both are the numbers above times exp\(−0\.707\) = 0\.493, so the ratio is the same, 0\.401,/);
  const e3 = explainCell(v, 'A', 2, 2).text;
  assert.match(e3, /exp\(1\.414\) = 4\.113\nΣ = 2\.028 \+ 2\.028 \+ 4\.113 = 8\.169\nA\[3\]\[3\] = 4\.113 \/ 8\.169 = 0\.503/);
  assert.match(explainCell(v, 'O', 0, 0).text, /= 0\.401×1\.000 \+ 0\.198×0\.000 \+ 0\.401×3\.000\n= 0\.401 \+ 0\.000 \+ 1\.203\n= 1\.604$/);
  assert.match(explainCell(v, 'O', 0, 1).text, /= 0\.000 \+ 0\.396 \+ 0\.401\n= 0\.797$/);
});

test('when exp would overflow float32 the weight is explained the shifted way, and says why', () => {
  // scores 100 and 90: exp(100) = 2.7e43 is past float32's largest number
  const v = viewOf(parseConfig({ Q: [[10], [10]], K: [[10], [9]], V: [[1], [2]], causal: false, scale: 1 }));
  const e = explainCell(v, 'A', 0, 0).text;
  assert.match(e, /exp\(100\.000\) is past float32’s largest number \(about 3\.40e38\), so this row is worked out the way the core does it: subtract the row’s largest score, 100\.000/);
  assert.match(e, /exp\(100\.000 − 100\.000\) = 1\.000\nΣ = 1\.000 \+ 0\.000 = 1\.000\nA\[1\]\[1\] = 1\.000 \/ 1\.000 = 1\.000$/);
  // each term fits but the sum does not: 88.5 twice (2.7e38 each, the sum 5.4e38)
  const s = viewOf(parseConfig({ Q: [[88.5]], K: [[1]], V: [[1]], causal: false, scale: 1 }), null);
  const two = viewOf(parseConfig({ Q: [[88.5], [88.5]], K: [[1], [1]], V: [[1], [2]], causal: false, scale: 1 }));
  assert.match(explainCell(two, 'A', 0, 0).text, /the sum of the exp terms is past float32’s largest number \(about 3\.40e38\), though each term fits/);
  assert.match(explainCell(s, 'A', 0, 0).text, /^The share .*\nA\[1\]\[1\] = exp\(S\[1\]\[1\]\)/, 'one term of 2.7e38 fits: the lesson’s way');
  // every term underflows: scores of −1000
  const low = viewOf(parseConfig({ Q: [[-100], [-100]], K: [[10], [10]], V: [[1], [2]], causal: false, scale: 1 }));
  assert.match(explainCell(low, 'A', 0, 0).text, /every exp term is below float32’s smallest normal number/);
});
