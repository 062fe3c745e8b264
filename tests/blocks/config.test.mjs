import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig, ConfigError, readUrlState, writeUrlState, forwardArgs, cloneConfig, MAX_JSON, MAX_MESSAGE } from '../../web/blocks/config.js';
import { PRESETS } from '../../web/blocks/presets.js';

const good = () => JSON.parse(JSON.stringify(PRESETS.cat.config));
const rejects = (cfg, re) => assert.throws(() => parseConfig(cfg), (e) => e instanceof ConfigError && re.test(e.message), String(re));

test('every preset parses, and parsing is idempotent', () => {
  for (const [name, p] of Object.entries(PRESETS)) {
    const c = parseConfig(p.config);
    assert.deepEqual(parseConfig(JSON.stringify(c)), c, name);
  }
});

test('defaults: causal true, scale null, tokens and features numbered', () => {
  const c = parseConfig({ X: [[1, 2]], Wq: [[1], [0]], Wk: [[1], [0]], Wv: [[1], [1]] });
  assert.equal(c.causal, true);
  assert.equal(c.scale, null);
  assert.deepEqual(c.tokens, ['1']);
  assert.deepEqual(c.features, ['f1', 'f2']);
});

test('unknown keys are rejected with the allowed list', () => rejects({ ...good(), colour: 'red' }, /Unknown key "colour".*allowed keys are tokens/));
test('not JSON says so', () => rejects('{"X": [[1,]]}', /not valid JSON/));
test('a non-object is rejected', () => rejects('[1,2]', /must be a JSON object/));
test('non-finite numbers are rejected with their place', () => {
  const c = good();
  c.X[1][2] = 'NaN';
  rejects(c, /"X" row 2, column 3 is "NaN": every entry must be a finite number/);
  rejects('{"X": [[1e999]], "Wq": [[1]], "Wk": [[1]], "Wv": [[1]]}', /"X" row 1, column 1 is null|finite/);
});
test('ragged rows are rejected', () => {
  const c = good();
  c.X[3] = [1, 2];
  rejects(c, /"X" row 4 has 2 numbers but row 1 has 4/);
  c.X[3] = [1];
  rejects(c, /"X" row 4 has 1 number but row 1 has 4/);
});
test('shapes must fit: Wq rows = X columns, Wk columns = Wq columns', () => {
  const c = good();
  c.Wq = c.Wq.slice(0, 3);
  rejects(c, /"Wq" has 3 rows but must have 4 \(one row per column of X\)/);
  const d = good();
  d.Wk = d.Wk.map((r) => r.slice(0, 2));
  rejects(d, /"Wk" has 2 columns but must have 4 \(keys and queries have the same width/);
});
test('token names: one per row of X, strings, bounded length', () => {
  rejects({ ...good(), tokens: ['a'] }, /"tokens" has 1 name but there are 5 tokens\./);
  rejects({ ...good(), X: [[1, 0, 0, 0]], tokens: ['a', 'b'] }, /"tokens" has 2 names but there is 1 token\./);
  rejects({ ...good(), tokens: ['a', 'b', 'c', 'd', 5] }, /"tokens" entry 5 must be a string/);
  rejects({ ...good(), tokens: ['a', 'b', 'c', 'd', 'x'.repeat(41)] }, /limit is 40/);
});
test('causal and scale are type-checked', () => {
  rejects({ ...good(), causal: 'yes' }, /"causal" must be true or false/);
  rejects({ ...good(), scale: -1 }, /"scale" must be null/);
  rejects({ ...good(), scale: 0 }, /"scale" must be null/);
});
test('direct form: Q, K, V together, not mixed with X', () => {
  const we = PRESETS['worked-example'].config;
  rejects({ ...we, X: [[1]] }, /either Q, K and V.*remove X/);
  rejects({ Q: we.Q, V: we.V }, /"K" is missing/);
  rejects({ ...we, K: [[1, 0]] }, /"K" has 1 row but must have 3/);
});
test('size limits: tokens and widths, and the JSON length before parsing', () => {
  const X = Array.from({ length: 9 }, () => [1]);
  assert.throws(() => parseConfig({ X, Wq: [[1]], Wk: [[1]], Wv: [[1]] }, { maxTokens: 8, maxWidth: 8 }), /"X" has 9 rows; the limit is 8/);
  assert.throws(() => parseConfig({ X: [[1, 1, 1]], Wq: [[1], [1], [1]], Wk: [[1], [1], [1]], Wv: [[1], [1], [1]] }, { maxTokens: 8, maxWidth: 2 }), /limit is 2/);
  assert.throws(() => parseConfig(' '.repeat(MAX_JSON + 1)), /characters long; the limit/);
});

test('forwardArgs passes the config form and the scale override', () => {
  const c = parseConfig(PRESETS.cat.config);
  const a = forwardArgs(c);
  assert.deepEqual(Object.keys(a).sort(), ['Wk', 'Wq', 'Wv', 'X', 'causal', 'scale']);
  assert.equal(a.scale, undefined);
  assert.equal(forwardArgs(c, 1).scale, 1);
  assert.deepEqual(Object.keys(forwardArgs(parseConfig(PRESETS['worked-example'].config))).sort(), ['K', 'Q', 'V', 'causal', 'scale']);
});

test('URL state round-trips for a preset and for a custom config', () => {
  const s1 = { preset: 'cat', step: 'softmax', follow: 4, cell: { m: 'A', i: 4, j: 1 } };
  const u1 = writeUrlState(s1);
  assert.equal(u1, '?preset=cat&step=softmax&follow=4&cell=A.4.1');
  const r1 = readUrlState(u1, '');
  assert.deepEqual({ preset: r1.preset, step: r1.step, follow: r1.follow, cell: r1.cell }, s1);

  const config = parseConfig({ ...good(), tokens: ['<img src=x onerror=alert(1)>', 'a&b', '#', '%', '+ "q"'] });
  const u2 = writeUrlState({ preset: null, config, step: 'mask', follow: 0, cell: null });
  assert.ok(u2.startsWith('#config='));
  const r2 = readUrlState('', u2);
  assert.deepEqual(parseConfig(r2.configText), config);
  assert.equal(r2.step, 'mask');
  assert.equal(r2.follow, 0);
});

test('URL state ignores unknown steps and malformed cells; the hash wins over the query', () => {
  const r = readUrlState('?preset=cat&step=dance&cell=Z.1.1', '#follow=x');
  assert.equal(r.step, null);
  assert.equal(r.cell, null);
  assert.equal(r.follow, null);
  assert.equal(readUrlState('?step=mix', '#step=mask').step, 'mask');
  // what it could not read is listed with why, the value as given (the hash's, when both have it)
  assert.deepEqual(r.ignored, [
    { name: 'step', value: 'dance', why: 'the steps are project, score, scale, mask, softmax and mix' },
    { name: 'follow', value: 'x', why: 'follow is a row number, from 0 for the first token' },
    { name: 'cell', value: 'Z.1.1', why: 'there is no matrix Z; the matrices are X, Wq, Wk, Wv, Q, K, V, S, M, A and O' },
  ]);
  assert.deepEqual(readUrlState('?theme=blue&step=mix', '#theme=dark').ignored, [], 'the hash’s good theme wins over the query’s bad one');
  assert.deepEqual(readUrlState('?cell=A.4&theme=Dark', '').ignored.map((x) => x.name + '=' + x.value), ['cell=A.4', 'theme=Dark']);
});

// Issue 11, point 7: a message stays readable whatever the input; 1e999 is named for what it is.
const messageOf = (cfg) => {
  try {
    parseConfig(cfg);
  } catch (e) {
    assert.ok(e instanceof ConfigError, `a ConfigError, not ${e.constructor.name}: ${e.message.slice(0, 80)}`);
    return e.message;
  }
  assert.fail('the config was accepted');
};

test('every config message is at most MAX_MESSAGE (400) characters: 10,000-deep arrays, huge keys, huge names', () => {
  assert.equal(MAX_MESSAGE, 400);
  const deep = (depth) => '['.repeat(depth) + '0' + ']'.repeat(depth);
  const cases = [
    ['10,000 deep in a cell', `{"X": [[${deep(10000)}]], "Wq": [[1]], "Wk": [[1]], "Wv": [[1]]}`, /"X" row 1, column 1 is an array: every entry must be a finite number/],
    ['1,000 deep in a cell', `{"X": [[${deep(1000)}]], "Wq": [[1]], "Wk": [[1]], "Wv": [[1]]}`, /"X" row 1, column 1 is an array/],
    ['10,000 deep as X', `{"X": ${deep(10000)}, "Wq": [[1]], "Wk": [[1]], "Wv": [[1]]}`, /"X" row 1, column 1 is an array/],
    ['a 100,000-character key', `{"${'k'.repeat(100000)}": 1}`, /Unknown key "k{23}…": the allowed keys are/],
    ['200 unknown keys', JSON.stringify(Object.fromEntries(Array.from({ length: 200 }, (_, i) => ['key' + i, i]))), /Unknown keys "key0", "key1", "key2", "key3", "key4" and 195 more/],
    ['a 10,000-character string as a value', JSON.stringify({ ...good(), scale: 'x'.repeat(10000) }), /"scale" must be null/],
    ['a long string in a cell', `{"X": [["${'s'.repeat(5000)}"]], "Wq": [[1]], "Wk": [[1]], "Wv": [[1]]}`, /is "s{23}…": every entry must be a finite number/],
    ['a long invalid JSON text', '{"X": [[' + '1,'.repeat(100000) + ']]', /not valid JSON/],
  ];
  for (const [what, text, re] of cases) {
    const m = messageOf(text);
    assert.ok(m.length <= MAX_MESSAGE, `${what}: ${m.length} characters`);
    assert.match(m, re, what);
  }
});

test('1e999 and 1e39 are named too large for float32, not "null"', () => {
  const cell = (v) => `{"X": [[1, ${v}]], "Wq": [[1], [1]], "Wk": [[1], [1]], "Wv": [[1], [1]]}`;
  assert.match(messageOf(cell('1e999')), /"X" row 1, column 2 is 1e999 or more, too large for float32: every entry must be a finite number within float32's range \(about ±3\.4e38\)/);
  assert.match(messageOf(cell('-1e999')), /is -1e999 or less, too large for float32/);
  assert.match(messageOf(cell('1e39')), /is 1e\+39, too large for float32/);
  assert.doesNotMatch(messageOf(cell('1e999')), /null/);
  assert.match(messageOf(JSON.stringify({ ...good(), scale: 1e39 })), /"scale" must be null .* within float32's range/);
  assert.equal(parseConfig(cell('3.4e38')).X[0][1], 3.4e38, 'the largest float32 values are fine');
});

// ----------------------------------------------------------------------------- every check
// (each test below was written for a mutant of config.js that no test noticed; make mutate-js)

const qkv = () => JSON.parse(JSON.stringify(PRESETS['worked-example'].config));
const small = { maxTokens: 2, maxWidth: 3 };

test('the default limits are 256 tokens and 256 columns, both inclusive', () => {
  const rows = (n, c) => Array.from({ length: n }, () => Array(c).fill(1));
  assert.equal(parseConfig({ Q: rows(256, 1), K: rows(256, 1), V: rows(256, 1) }).Q.length, 256);
  rejects({ Q: rows(257, 1), K: rows(257, 1), V: rows(257, 1) }, /"Q" has 257 rows; the limit is 256\./);
  assert.equal(parseConfig({ Q: rows(1, 256), K: rows(1, 256), V: rows(1, 1) }).Q[0].length, 256);
  rejects({ Q: rows(1, 257), K: rows(1, 257), V: rows(1, 1) }, /"Q" has 257 columns; the limit is 256\./);
});

test('rows of X, Q, K and V are tokens (maxTokens); rows of the W matrices are features (maxWidth)', () => {
  const lim = (cfg, re) => assert.throws(() => parseConfig(cfg, small), (e) => e instanceof ConfigError && re.test(e.message), String(re));
  lim({ X: [[1], [1], [1]], Wq: [[1]], Wk: [[1]], Wv: [[1]] }, /"X" has 3 rows; the limit is 2\./);
  lim({ Q: [[1], [1], [1]], K: [[1], [1], [1]], V: [[1], [1], [1]] }, /"Q" has 3 rows; the limit is 2\./);
  lim({ Q: [[1]], K: [[1], [1], [1]], V: [[1]] }, /"K" has 3 rows; the limit is 2\./);
  lim({ X: [[1, 1]], Wq: [[1], [1], [1], [1]], Wk: [[1]], Wv: [[1]] }, /"Wq" has 4 rows; the limit is 3\./);
  lim({ X: [[1, 1, 1, 1]], Wq: [[1]], Wk: [[1]], Wv: [[1]] }, /"X" has 4 columns; the limit is 3\./);
  // exactly at the limits: accepted (3 rows of Wq is over maxTokens but within maxWidth)
  const ok = parseConfig({ X: [[1, 1, 1], [0, 0, 0]], Wq: [[1, 1, 1], [1, 1, 1], [1, 1, 1]], Wk: [[1, 1, 1], [1, 1, 1], [1, 1, 1]], Wv: [[1], [1], [1]] }, small);
  assert.equal(ok.Wq.length, 3);
  assert.equal(ok.X.length, 2);
});

test('a matrix must be a non-empty array of non-empty rows of finite numbers', () => {
  rejects({ ...good(), X: [] }, /"X" must be a non-empty array of rows, like \[\[1, 0\], \[0, 1\]\]\./);
  rejects({ ...good(), X: 'abc' }, /"X" must be a non-empty array of rows/);
  rejects({ ...good(), Wv: [[1], 5, [1], [1]] }, /"Wv" row 2 is not an array of numbers\./);
  rejects({ X: [[]], Wq: [[1]], Wk: [[1]], Wv: [[1]] }, /"X" row 1 is empty\./);
  rejects({ ...qkv(), V: [[1, 0], [0, 2], [3, '1']] }, /"V" row 3, column 2 is "1": every entry must be a finite number\./);
  rejects({ ...qkv(), V: [[1, 0], [0, 2], [3, Infinity]] }, /"V" row 3, column 2 is 1e999 or more, too large for float32: every entry must be a finite number/);
});

test('every shape mismatch names both sizes and why', () => {
  const c = good();
  rejects({ ...c, Wk: c.Wk.slice(1) }, /"Wk" has 3 rows but must have 4 \(one row per column of X\)\./);
  rejects({ ...c, Wv: c.Wv.slice(1) }, /"Wv" has 3 rows but must have 4 \(one row per column of X\)\./);
  const we = qkv();
  rejects({ ...we, K: we.K.slice(1) }, /"K" has 2 rows? but must have 3 \(one per token\)\./);
  rejects({ ...we, V: we.V.slice(1) }, /"V" has 2 rows? but must have 3 \(one per token\)\./);
  rejects({ ...we, K: we.K.map((r) => [...r, 1]) }, /"K" has 3 columns but must have 2 \(keys and queries have the same width, the columns of Q\)\./);
});

test('the parsed config is a copy: changing it leaves the input alone', () => {
  const input = good();
  const c = parseConfig(input);
  c.X[0][0] = 99;
  c.Wq[1][1] = 99;
  assert.notEqual(input.X[0][0], 99);
  assert.notEqual(input.Wq[1][1], 99);
  const clone = cloneConfig(c);
  assert.deepEqual(clone, c);
  clone.X[0][0] = -1;
  assert.equal(c.X[0][0], 99);
});

test('token and feature names: arrays of strings, one each, at most 40 characters (40 is fine)', () => {
  rejects({ ...good(), tokens: 'cat' }, /"tokens" must be an array of strings, one per token\./);
  rejects({ ...good(), features: ['a'] }, /^"features" has 1 name but there are 4 features \(columns of X\)\.$/);
  rejects({ ...good(), X: [[1], [0], [1], [0], [1]], Wq: [[1]], Wk: [[1]], Wv: [[1]], features: ['a', 'b'] }, /^"features" has 2 names but there is 1 feature \(column of X\)\.$/);
  rejects({ ...good(), tokens: ['a', 'b', 'c', 'd', 'x'.repeat(41)] }, /"tokens" entry 5 is 41 characters long; the limit is 40\./);
  assert.equal(parseConfig({ ...good(), tokens: ['a', 'b', 'c', 'd', 'x'.repeat(40)] }).tokens[4].length, 40);
  const we = qkv();
  delete we.tokens;
  assert.deepEqual(parseConfig(we).tokens, ['1', '2', '3']);
  rejects({ ...qkv(), tokens: ['a'] }, /^"tokens" has 1 name but there are 3 tokens\.$/);
  rejects({ Q: [[1]], K: [[1]], V: [[1]], tokens: ['a', 'b'] }, /^"tokens" has 2 names but there is 1 token\.$/);
});

test('the JSON text may be MAX_JSON characters long, not one more', () => {
  const text = JSON.stringify(PRESETS['worked-example'].config);
  const padded = text + ' '.repeat(MAX_JSON - text.length);
  assert.equal(padded.length, MAX_JSON);
  assert.deepEqual(parseConfig(padded).Q, PRESETS['worked-example'].config.Q);
  rejects(padded + ' ', new RegExp(`The config is ${MAX_JSON + 1} characters long; the limit is ${MAX_JSON}\\.`));
});

test('null, numbers and strings are not configs; several unknown keys are all named', () => {
  for (const bad of ['null', '5', '"Q"', null, 5, 'x'.length]) rejects(bad, /The config must be a JSON object like \{"X": \[\[\.\.\.\]\], "Wq": \[\[\.\.\.\]\], \.\.\.\}\./);
  rejects({ ...good(), colour: 'red', size: 2 }, /Unknown keys "colour", "size": the allowed keys are tokens, features, X, Wq, Wk, Wv, Q, K, V, causal, scale\./);
  rejects({ ...good(), colour: 'red' }, /Unknown key "colour":/);
});

test('scale: null or a positive finite number, kept as given', () => {
  for (const bad of ['1', Infinity, NaN, true]) rejects({ ...good(), scale: bad }, /"scale" must be null \(meaning 1\/√dk\) or a number greater than 0 within float32's range/);
  assert.equal(parseConfig({ ...good(), scale: 0.25 }).scale, 0.25);
  assert.equal(parseConfig({ ...good(), scale: null }).scale, null);
  assert.equal(parseConfig({ ...good(), causal: false }).causal, false);
});

test('any one of Q, K or V makes the direct form, and the rest must come with it', () => {
  const we = qkv();
  for (const k of ['Q', 'K', 'V']) rejects({ [k]: we[k] }, /The direct form needs "Q", "K" and "V": "[QKV]" is missing\./);
  rejects({ Q: we.Q, K: we.K }, /"V" is missing/);
  for (const k of ['X', 'Wq', 'Wk', 'Wv', 'features']) rejects({ ...we, [k]: [[1]] }, new RegExp(`not both: remove ${k}\\.`));
  rejects({ ...we, X: [[1]], Wv: [[1]] }, /remove X, Wv\./);
});

test('the projection form needs each of X, Wq, Wk and Wv', () => {
  const c = good();
  for (const k of ['X', 'Wq', 'Wk', 'Wv']) {
    const d = { ...c };
    delete d[k];
    rejects(d, new RegExp(`"${k}" is missing: give X, Wq, Wk and Wv \\(or Q, K and V for the direct form\\)\\.`));
  }
});

test('a cell of any matrix round-trips through the URL; steps, follow and cell are read strictly', () => {
  for (const m of ['X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A', 'O']) {
    const cell = { m, i: 12, j: 10 };
    assert.deepEqual(readUrlState(writeUrlState({ preset: 'cat', cell }), '').cell, cell, m);
  }
  assert.equal(readUrlState('?cell=Z.1.1', '').cell, null);
  for (const bad of ['xA.1.1', '1A.1.1', '.A.1.1', 'A.1.1x', 'A.1', 'A.-1.1']) assert.equal(readUrlState(`?cell=${bad}`, '').cell, null, bad);
  assert.equal(readUrlState('?follow=12', '').follow, 12);
  for (const bad of ['x2', '2x', '-1', '1.5']) assert.equal(readUrlState(`?follow=${bad}`, '').follow, null, bad);
  assert.equal(readUrlState('?preset=cat', '#preset=worked-example').preset, 'worked-example');
  assert.deepEqual(readUrlState(undefined, undefined), { preset: null, configText: null, from: null, step: null, follow: null, cell: null, theme: null, geometry: null, ignored: [] });
});

test('a link holds only what is set', () => {
  assert.equal(writeUrlState({ preset: 'cat' }), '?preset=cat');
  assert.equal(writeUrlState({ preset: 'cat', step: null, follow: null, cell: null }), '?preset=cat');
  assert.equal(writeUrlState({ preset: 'cat', follow: 0 }), '?preset=cat&follow=0');
  const config = parseConfig(PRESETS['worked-example'].config);
  assert.equal(writeUrlState({ preset: null, config }), '#config=' + encodeURIComponent(JSON.stringify(config)));
  assert.equal(writeUrlState({ preset: null, config, step: 'mix' }), '#config=' + encodeURIComponent(JSON.stringify(config)) + '&step=mix');
});
