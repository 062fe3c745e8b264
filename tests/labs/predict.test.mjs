// labs-predict.test.mjs: the predict-then-reveal lab (web/labs/predict.js) and the labs' URL
// notes (web/labs/mount.js's queryOf and paramNotes): the hidden values and their range, how a
// typed guess is read and scored (with every boundary of the verdict), the sentences after the
// reveal, and the lesson's three knowledge-check questions. The numbers are the lesson's
// (tests/lesson/lesson-LM3-T3.txt) or derived by hand from the presets in the comments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { fmt } from '../../web/blocks/format.js';
import { PRESETS } from '../../web/blocks/presets.js';
import { parseConfig, forwardArgs } from '../../web/blocks/config.js';
import { explainCell, followSentence } from '../../web/blocks/explain.js';
import {
  MODE, PRESET_CHOICES, HIDE_CHOICES, TARGETS, EXERCISE_CHOICES, defaultState, readState, writeState,
  presetView, target, parseGuess, guessRule, scoreGuess, explainTarget, EXERCISES, exerciseAnswer, fieldLine, scoreExercise,
} from '../../web/labs/predict.js';
import { paramNotes, queryOf, labOf } from '../../web/labs/index.js';
import { paramNotes as recordNotes } from '../../web/labs/mount.js';

const attn = await loadAttention();
const f3 = (xs) => Array.from(xs, fmt);
// Each preset's view, made on first use inside a test (not while the file loads).
const made = {};
const view = (preset) => (made[preset] ??= presetView(attn, preset));

// ---------------------------------------------------------------- URL state

test('predict state: defaults, every parameter read (and clamped), written back with only what it uses', () => {
  assert.equal(MODE, 'predict-lab');
  assert.deepEqual([PRESET_CHOICES, HIDE_CHOICES, TARGETS, EXERCISE_CHOICES], [Object.keys(PRESETS), ['A', 'S', 'O'], ['cell', 'row'], ['', 'q1', 'q2', 'q3']], 'every preset, in its module’s order');
  const d = { preset: 'cat', hide: 'A', target: 'cell', row: 4, col: 1, exercise: '' };
  assert.deepEqual(defaultState(), d);
  assert.deepEqual(readState(new URLSearchParams('')), d);
  assert.deepEqual(readState(new URLSearchParams('preset=worked-example&hide=S&target=row&row=2&col=0&exercise=q3')),
    { preset: 'worked-example', hide: 'S', target: 'row', row: 2, col: 0, exercise: 'q3' });
  assert.deepEqual(readState(new URLSearchParams('row=300&col=-1')), { ...d, row: 255, col: 0 });
  assert.deepEqual(readState(new URLSearchParams('hide=Q&target=column&exercise=q4')), d);
  assert.deepEqual(writeState({ ...d, exercise: 'q2' }), { mode: 'predict-lab', exercise: 'q2' });
  assert.deepEqual(writeState({ ...d, hide: 'O', row: 2, col: 3 }), { mode: 'predict-lab', preset: 'cat', hide: 'O', target: 'cell', row: 2, col: 3 });
  assert.deepEqual(writeState({ ...d, target: 'row', row: 2, col: 3 }), { mode: 'predict-lab', preset: 'cat', hide: 'A', target: 'row', row: 2 });
});

// ---------------------------------------------------------------- the hidden values

test('presetView: the head, and the unscaled Q·Kᵀ of the Score step (the lesson’s [[1, 0, 1], [0, 1, 1], [1, 1, 2]])', () => {
  const v = presetView(attn, 'worked-example');
  assert.deepEqual(v.config.tokens, ['1', '2', '3']);
  assert.equal(v.step, null);
  assert.deepEqual(f3(v.r.A), ['0.401', '0.198', '0.401', '0.198', '0.401', '0.401', '0.248', '0.248', '0.503']);
  assert.deepEqual(Array.from(v.raw.S), [1, 0, 1, 0, 1, 1, 1, 1, 2]);
  assert.equal(v.raw.A, null, 'only S is asked of the unscaled pass');
});

test('target: the hidden cell or row, clamped to the matrix; the range is 1 for weights and max − min of the finite values otherwise', () => {
  const cat = view('cat');
  const cell = target(cat, { hide: 'A', target: 'cell', row: 9, col: 9 });
  assert.deepEqual([cell.m, cell.kind, cell.i, cell.j], ['A', 'cell', 4, 4]);
  assert.deepEqual(f3(cell.values), ['0.118'], 'the last “the”: 1 / (1 + e^1.5 + 1 + 1 + 1) = 1 / 8.482');
  assert.equal(cell.range, 1);
  const row = target(cat, { hide: 'A', target: 'row', row: 1, col: 0 });
  assert.deepEqual(f3(row.values), ['0.500', '0.500', '0.000', '0.000', '0.000']);
  // S of the cat head: 1.5 where a query meets the cat key, 0 elsewhere, −∞ above the diagonal
  const s = target(cat, { hide: 'S', target: 'row', row: 0, col: 0 });
  assert.deepEqual(f3(s.values), ['0.000', '−∞', '−∞', '−∞', '−∞']);
  assert.equal(s.range, 1.5);
  const o = target(cat, { hide: 'O', target: 'cell', row: 9, col: 9 });
  assert.deepEqual([o.i, o.j], [4, 3], 'O has 4 columns');
  // the worked example: A's own spread is 0.503 − 0.198, but weights are scored on [0, 1]
  assert.equal(target(view('worked-example'), { hide: 'A', target: 'cell', row: 0, col: 0 }).range, 1);
  // its O runs from 0.797 to 1.759 (the lesson's outputs): range 0.962
  const wo = target(view('worked-example'), { hide: 'O', target: 'row', row: 2, col: 0 });
  assert.deepEqual(f3(wo.values), ['1.759', '1.000']);
  assert.equal(fmt(wo.range), '0.962');
});

// ---------------------------------------------------------------- reading a guess

test('parseGuess: spaces, commas and semicolons separate numbers, “.” is the decimal point, whatever the digits after a comma', () => {
  const ok = (text, n) => { const g = parseGuess(text, n); assert.equal(g.ok, true, `${text}: ${g.error}`); return [g.values, g.read]; };
  assert.deepEqual(ok('0.5, 0.25 0.25', 3), [[0.5, 0.25, 0.25], 'Read as 3 numbers: 0.5, 0.25 and 0.25.']);
  assert.deepEqual(ok('0.5,0.25', 2), [[0.5, 0.25], 'Read as 2 numbers: 0.5 and 0.25.']);
  assert.deepEqual(ok('0.5;0.25', 2), [[0.5, 0.25], 'Read as 2 numbers: 0.5 and 0.25.']);
  assert.deepEqual(ok('0.5 , 0.25', 2), [[0.5, 0.25], 'Read as 2 numbers: 0.5 and 0.25.']);
  assert.deepEqual(ok('0.5,   0.25', 2), [[0.5, 0.25], 'Read as 2 numbers: 0.5 and 0.25.']);
  assert.deepEqual(ok('  0.5  ', 1), [[0.5], 'Read as 0.5.']);
  assert.deepEqual(ok('0.5,', 1), [[0.5], 'Read as 0.5.'], 'a separator at the end separates nothing');
  assert.deepEqual(ok('−0.5', 1), [[-0.5], 'Read as −0.5.']);
  assert.deepEqual(ok('-.125 1e3', 2), [[-0.125, 1000], 'Read as 2 numbers: −0.125 and 1000.'], 'what was read, in full');
  // "0,125" and "0,25" are read alike: two numbers each (the comma before three digits was once a decimal point)
  assert.deepEqual(ok('0,125', 2), [[0, 125], 'Read as 2 numbers: 0 and 125.']);
  assert.deepEqual(ok('0,25', 2), [[0, 25], 'Read as 2 numbers: 0 and 25.']);
  assert.deepEqual(ok('1,000', 2), [[1, 0], 'Read as 2 numbers: 1 and 0.'], 'no thousands separator either');
  for (const [typed, read] of [['0,125', '0 and 125'], ['0,25', '0 and 25']]) {
    const [a, b] = typed.split(',');
    assert.deepEqual(parseGuess(typed, 1), { ok: false, error: `Type one number: this reads as 2 numbers (${read}). “.” is the decimal point: type ${a}.${b}, not ${typed}.` });
  }
  assert.deepEqual(ok('0,5 0.25', 3), [[0, 5, 0.25], 'Read as 3 numbers: 0, 5 and 0.25.']);
  assert.deepEqual(parseGuess('0.5 0,25', 2), { ok: false, error: 'Type 2 numbers, separated by spaces, commas or semicolons: this reads as 3 numbers (0.5, 0 and 25). “.” is the decimal point: type 0.25, not 0,25.' });
});

test('guessRule: the rule is said next to the box, for one number and for several', () => {
  assert.equal(guessRule(1), 'Type one number; “.” is the decimal point (a comma would start a second number).');
  assert.equal(guessRule(2), 'Type 2 numbers, separated by spaces, commas or semicolons; “.” is the decimal point.');
  assert.equal(guessRule(5), 'Type 5 numbers, separated by spaces, commas or semicolons; “.” is the decimal point.');
});

test('parseGuess: −∞ is typed as −∞, -inf or -Infinity; anything around it is not a number', () => {
  const inf = parseGuess('−∞ -inf -Infinity -INF', 4);
  assert.deepEqual([inf.values, inf.read], [[-Infinity, -Infinity, -Infinity, -Infinity], 'Read as 4 numbers: −∞, −∞, −∞ and −∞.']);
  for (const bad of ['x-inf', '-infx', '-xinf', 'inf']) assert.deepEqual(parseGuess(bad, 1), { ok: false, error: `“${bad}” is not a number.` }, bad);
});

test('parseGuess: the count is said in the learner’s words, singular and plural; the first bad word is named', () => {
  assert.deepEqual(parseGuess('0.5 0.5', 1), { ok: false, error: 'Type one number: this reads as 2 numbers (0.5 and 0.5).' });
  assert.deepEqual(parseGuess('1', 3), { ok: false, error: 'Type 3 numbers, separated by spaces, commas or semicolons: this reads as 1 number (1).' });
  assert.deepEqual(parseGuess('', 2), { ok: false, error: 'Type 2 numbers, separated by spaces, commas or semicolons: the box is empty.' });
  assert.deepEqual(parseGuess(' ,; ', 1), { ok: false, error: 'Type one number: the box is empty.' });
  assert.deepEqual(parseGuess('abc 1', 2), { ok: false, error: '“abc” is not a number.' });
  assert.deepEqual(parseGuess('1 abc', 2), { ok: false, error: '“abc” is not a number.' });
  assert.deepEqual(parseGuess('1 abc 2', 2), { ok: false, error: '“abc” is not a number.' }, 'a bad word is named before the count');
  assert.deepEqual(parseGuess('0.5', 1), { ok: true, values: [0.5], read: 'Read as 0.5.' });
});

// ---------------------------------------------------------------- scoring

test('scoreGuess: 100 points for exact, 0 at half the range; the verdict changes just past 2%, 10% and 30% of half the range', () => {
  // range 2: half of it is 1, so the error is the relative error
  const at = (e) => scoreGuess([0], [e], 2);
  assert.deepEqual(at(0), { error: 0, points: 100, verdict: 'spot on', errors: [0] });
  assert.deepEqual([at(0.02).verdict, at(0.02).points], ['spot on', 98]);
  assert.deepEqual([at(0.03).verdict, at(0.03).points], ['close', 97]);
  assert.equal(at(0.1).verdict, 'close');
  assert.equal(at(0.11).verdict, 'in the right area');
  assert.equal(at(0.3).verdict, 'in the right area');
  assert.deepEqual([at(0.31).verdict, at(0.31).points], ['off', 69]);
  assert.equal(at(0.5).points, 50);
  assert.equal(at(-1).points, 0);
  assert.equal(at(3).points, 0, 'never below 0');
  // the error is the mean over the cells: |0.5 − 0| and |0 − 0.1| → 0.3
  const two = scoreGuess([0, 0.1], [0.5, 0], 1);
  assert.equal(two.errors.length, 2);
  assert.equal(fmt(two.error), '0.300');
  assert.equal(two.points, 40);
});

test('scoreGuess: a −∞ cell counts 0 when guessed −∞ and the whole range otherwise', () => {
  assert.deepEqual(scoreGuess([-Infinity], [-Infinity], 1.5).errors, [0]);
  assert.deepEqual(scoreGuess([-Infinity], [0], 1.5).errors, [1.5]);
  assert.deepEqual(scoreGuess([0], [-Infinity], 1.5).errors, [1.5]);
  assert.deepEqual(scoreGuess([Infinity], [-Infinity], 1.5).errors, [1.5]);
  const mixed = scoreGuess([0, -Infinity], [0, -Infinity], 1.5);
  assert.deepEqual([mixed.error, mixed.points, mixed.verdict], [0, 100, 'spot on']);
});

// ---------------------------------------------------------------- the reveal's words

test('explainTarget: a cell gets the explorer’s own explanation of it', () => {
  const t = target(view('cat'), { hide: 'A', target: 'cell', row: 4, col: 4 });
  const text = explainTarget(view('cat'), t);
  assert.equal(text, explainCell(view('cat'), 'A', 4, 4).text);
  assert.match(text, /^The share of its attention “the” \(5\) gives to itself: the softmax of row 5 of S\.\nA\[5\]\[5\] = /);
  assert.match(text, /\nA\[5\]\[5\] = 1\.000 \/ 8\.482 = 0\.118\n/);
});

test('explainTarget: a weight that is 0 because exp(s − max) underflowed in float32 is said to be so, once, never masked', () => {
  const head = (K, causal) => {
    const config = parseConfig({ tokens: ['a', 'b', 'c'], Q: [[1], [1], [1]], K, V: [[1], [2], [3]], causal, scale: 1 });
    const r = attn.forward(forwardArgs(config));
    return { config, r, raw: r, step: null };
  };
  // the row's own sentence, then the follow sentence, which says the underflow (explain.js followSentence)
  const rowText = (v, row) => explainTarget(v, target(v, { hide: 'A', target: 'row', row, col: 0 }));
  const once = (text) => assert.equal(text.split('is too small for float32 and rounds to 0').length, 2, text);
  const first = 'Row 1 of A is the softmax of row 1 of the scores, so its weights are non-negative and add up to 1. ';
  // scores of row 1: [0, 200, 199]; exp(0 − 200) is far below float32's 1.4e−45, so A[1][1] = 0; exp(−1) is not
  const one = head([[0], [200], [199]], false);
  assert.equal(one.r.A[0], 0);
  assert.equal(one.r.M[0], 0, 'not masked');
  assert.equal(rowText(one, 0), first + followSentence(one, 0));
  assert.match(rowText(one, 0), / The weight on “a” \(1\) is 0 though it is not masked: its score is 200\.000 below the row’s largest, so its exp\(s − max\) = exp\(−200\.000\) is too small for float32 and rounds to 0\. /);
  once(rowText(one, 0));
  const cell = explainTarget(one, target(one, { hide: 'A', target: 'cell', row: 0, col: 0 }));
  assert.match(cell, /\nA\[1\]\[1\] is exactly 0 though the key is not masked: exp\(0\.000 − 200\.000\) = exp\(−200\.000\) is below half of float32’s smallest positive number \(2\^−149, about 1\.4e−45, which exp reaches about 103\.97 below the row’s largest\), so it rounds to 0\.$/);
  assert.doesNotMatch(cell, /masked to −∞/);
  // two: scores [0, 200, 0.5], 200 and 199.5 below the largest
  const two = head([[0], [200], [0.5]], false);
  assert.match(rowText(two, 0), / The weights on “a” \(1\) and “c” \(3\) are 0 though they are not masked: their scores are 199\.500 to 200\.000 below the row’s largest, so each exp\(s − max\) is too small for float32 and rounds to 0\. /);
  once(rowText(two, 0));
  // the row of O says it too: it is the same token followed
  once(explainTarget(two, target(two, { hide: 'O', target: 'row', row: 0, col: 0 })));
  // causal: row 2 sees a and b (scores 200 and 0), c is masked; row 3 sees all, two tied 200 below
  const causal = head([[200], [0], [0]], true);
  assert.match(rowText(causal, 1), /^Row 2 of A is the softmax of row 2 of the scores, so its weights are non-negative and add up to 1; the masked one is exactly 0\. .* The weight on “b” \(2\) is 0 though it is not masked: its score is 200\.000 below the row’s largest, so its exp\(s − max\) = exp\(−200\.000\) is too small for float32 and rounds to 0\. /);
  assert.match(rowText(causal, 2), / The weights on “b” \(2\) and “c” \(3\) are 0 though they are not masked: their scores are 200\.000 below the row’s largest, so each exp\(s − max\) is too small for float32 and rounds to 0\. /);
  assert.match(rowText(causal, 0), /^Row 1 of A is the softmax of row 1 of the scores, so its weights are non-negative and add up to 1; the 2 masked ones are exactly 0\. /);
  assert.doesNotMatch(rowText(causal, 0), /underflow/);
});

test('explainTarget: a row of A says it adds up to 1 and how many weights the mask zeroes (none, one, several), then follows the token', () => {
  const say = (preset, hide, row) => explainTarget(view(preset), target(view(preset), { hide, target: 'row', row, col: 0 }));
  // cat row 4 (“on”) sees 4 of 5 tokens: one masked; row 2 sees 2: three masked
  assert.equal(say('cat', 'A', 3), `Row 4 of A is the softmax of row 4 of the scores, so its weights are non-negative and add up to 1; the masked one is exactly 0. ${followSentence(view('cat'), 3)}`);
  assert.match(say('cat', 'A', 3), /exactly 0\. “on” \(4\) gives 0\.599 of its attention to “cat” \(2\)\./);
  assert.equal(say('cat', 'A', 1), `Row 2 of A is the softmax of row 2 of the scores, so its weights are non-negative and add up to 1; the 3 masked ones are exactly 0. ${followSentence(view('cat'), 1)}`);
  assert.equal(say('worked-example', 'A', 0), `Row 1 of A is the softmax of row 1 of the scores, so its weights are non-negative and add up to 1. ${followSentence(view('worked-example'), 0)}`);
  // S and O rows: only the token's own sentence
  assert.equal(say('cat', 'S', 1), followSentence(view('cat'), 1));
  assert.equal(say('worked-example', 'O', 2), followSentence(view('worked-example'), 2));
  assert.match(say('worked-example', 'O', 2), /Its output \(row 3 of O\) is \[1\.759, 1\.000\]/);
});

// ---------------------------------------------------------------- the lesson's knowledge check

test('question 1: shapes (5, 5) and rows summing to 1, on a fixed head whose row sums the note quotes', () => {
  const a = exerciseAnswer(attn, 'q1');
  assert.deepEqual(a.values, [5, 5, 5, 5, 1]);
  assert.deepEqual(a.tolerance, [0, 0, 0, 0, 0.01]);
  // the head's inputs: Q, K, V of shape (5, 16), entry (i, c) of the k-th is sin(1 + 16i + c + 97k)
  const h = a.head;
  assert.deepEqual([h.n, h.m, h.dk, h.dv], [5, 5, 16, 16]);
  for (const [name, k] of [['Q', 0], ['K', 1], ['V', 2]]) {
    for (const [i, c] of [[0, 0], [0, 1], [1, 0], [4, 15]]) assert.equal(h[name][i * 16 + c], Math.fround(Math.sin(1 + 16 * i + c + 97 * k)), `${name}[${i}][${c}]`);
  }
  let worst = 0;
  for (let i = 0; i < 5; i++) worst = Math.max(worst, Math.abs(Array.from(h.A.subarray(i * 5, i * 5 + 5)).reduce((x, y) => x + y) - 1));
  assert.ok(worst > 0 && worst < 1e-6, `float32 rows sum to 1 within ${worst}`);
  assert.equal(a.note, `The core ran a head with Q and K of shape (5, 16): S and A came out (5, 5); its rows of A sum to 1 within ${worst.toExponential(1)}.`);
  assert.match(a.note, /within \d\.\de−?-?\d+\.$/);
});

test('question 2: the core’s softmax of [2, 2, 0] is the lesson’s [0.468, 0.468, 0.063]', () => {
  const a = exerciseAnswer(attn, 'q2');
  // e² = 7.389; 7.389 / (2·7.389 + 1) = 0.468, 1 / 15.78 = 0.063
  assert.deepEqual(f3(a.values), ['0.468', '0.468', '0.063']);
  assert.deepEqual(a.tolerance, [0.05, 0.05, 0.05]);
  assert.equal(a.note, 'The core’s softmax of [2, 2, 0].');
});

test('question 3: dk = 64 gives a raw std near √64 = 8 and a scaled one near 1, over 64 × 64 dot products', () => {
  const a = exerciseAnswer(attn, 'q3');
  assert.ok(Math.abs(a.values[0] - 8) < 0.5 && Math.abs(a.values[1] - 1) < 0.06, String(a.values));
  assert.ok(Math.abs(a.values[0] / a.values[1] - 8) < 1e-4, 'scaling divides by √64 = 8 exactly');
  assert.deepEqual(a.tolerance, [1, 0.15]);
  assert.equal(a.note, 'Measured by the core on 64 random unit-variance queries and keys (4096 dot products, seed 1).');
});

test('fieldLine: whole numbers stay whole only for question 1; a missing guess is “(nothing)”', () => {
  assert.equal(fieldLine(EXERCISES.q1, 2, 5.5, 5, false), 'rows of the softmax output: you said 5.500, the core gives 5 ✗');
  assert.equal(fieldLine(EXERCISES.q2, 0, 1, 0.468, false), 'weight of token 1: you said 1.000, the core gives 0.468 ✗');
  assert.equal(fieldLine(EXERCISES.q3, 1, NaN, 0.978, false), 'std after dividing by √dk: you said (nothing), the core gives 0.978 ✗');
  assert.equal(fieldLine(EXERCISES.q3, 0, 8, 7.821, true), 'std of the raw dot products: you said 8.000, the core gives 7.821 ✓');
  // typed but not one number (a decimal comma): the line shows what was typed, not “(nothing)”
  assert.equal(fieldLine(EXERCISES.q3, 1, null, 0.978, false, ' 0,9 '), 'std after dividing by √dk: you typed “0,9”, which is not one number, the core gives 0.978 ✗');
  assert.equal(fieldLine(EXERCISES.q3, 1, null, 0.978, false, '  '), 'std after dividing by √dk: you said (nothing), the core gives 0.978 ✗');
});

test('scoreExercise: a field is right within its tolerance (at the edge too), and points are the share right', () => {
  const answer = { values: [0, 0, 1], tolerance: [0.5, 0, 0.01] };
  assert.deepEqual(scoreExercise(answer, [0.5 + 1e-9, 1e-9, 1.01]), { right: [true, true, true], count: 3, points: 100 });
  assert.deepEqual(scoreExercise(answer, [0.5 + 3e-9, 3e-9, 1.02]), { right: [false, false, false], count: 0, points: 0 });
  assert.deepEqual(scoreExercise(answer, [-0.4, 1, 1]), { right: [true, false, true], count: 2, points: 67 });
  assert.equal(scoreExercise(answer, [9, 9, 1]).points, 33);
});

// ---------------------------------------------------------------- the labs' URL notes (mount.js)

test('queryOf: a lab’s state as its query string', () => {
  assert.equal(queryOf({ mode: 'cross-lab', pair: 'hungry', causal: 1 }), '?mode=cross-lab&pair=hungry&causal=1');
  assert.equal(queryOf({ mode: 'predict-lab', exercise: 'q2' }), '?mode=predict-lab&exercise=q2');
  assert.equal(queryOf({}), '?');
});

test('paramNotes: a value the lab reads as written, however it is spelled, gets no note; one it cannot use is named with what it shows', () => {
  const notes = (mode, q) => paramNotes(mode, new URLSearchParams(q));
  assert.deepEqual(notes('no-such-lab', 'x=1'), [], 'no lab, no notes');
  assert.deepEqual(recordNotes(null, new URLSearchParams('x=1')), []);
  assert.deepEqual(notes('predict-lab', 'row=04&col=%201%20'), [], '04 is 4; spaces around a number are fine');
  assert.deepEqual(notes('predict-lab', 'row=4.0&col=+1'), [], '4.0 is the 4 it shows, +1 the 1');
  assert.deepEqual(notes('cross-lab', 'mode=predict-lab&theme=dark&pair=hungry&causal=1'), [], 'mode and theme are the page’s');
  assert.deepEqual(notes('cross-lab', 'causal='), ['causal= is not a value this lab can use; it shows causal=0.']);
  assert.deepEqual(notes('cross-lab', 'causal=%20'), ['causal=  is not a value this lab can use; it shows causal=0.']);
  assert.deepEqual(notes('cross-lab', 'causal=2&colour=red'), [
    'causal=2 is not a value this lab can use; it shows causal=0.',
    'colour=red is not a setting of this lab (its settings are pair, causal); it was left out.',
  ]);
  assert.deepEqual(notes('predict-lab', 'row=999'), ['row=999 is not a value this lab can use; it shows row=255.']);
  // a setting the lab leaves empty (stability's unreadable scores, which it reports itself) gets no second note
  assert.equal(labOf('stability-lab').state.readState(new URLSearchParams('scores=abc')).scores, null);
  assert.deepEqual(notes('stability-lab', 'scores=abc'), []);
});

test('mountLab: a known lab goes on to be mounted in the root’s document; an unknown one is refused by name', async () => {
  const { mountLab } = await import('../../web/labs/index.js');
  const doc = { createElement: (tag) => { throw new Error(`mounting: createElement(${tag})`); } };
  assert.throws(() => mountLab('predict-lab', { ownerDocument: doc }, { attn }), /^Error: mounting: createElement\(/);
  assert.throws(() => mountLab('predict', { ownerDocument: doc }, { attn }), /^Error: unknown lab "predict": the labs are sqrt-dk-lab, /);
});
