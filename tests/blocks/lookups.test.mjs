// Names from a URL, an attribute or the command line are looked up as own properties only, and
// a name that is not there falls back with a note that says so (issue 11, point 6): __proto__,
// constructor, toString and hasOwnProperty are no task, optimizer, preset, lab or lab value.
// The browser side (the page, the labs page, the element) is tests/browser/fallbacks.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readTrainUrl, DEFAULTS } from '../../web/train/words.js';
import { paramNotes, labOf, LABS, mountLab } from '../../web/labs/index.js';
import { MAX_MESSAGE } from '../../web/blocks/config.js';
import { list } from '../../web/blocks/words.js';

const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

test('training links: task and opt named after Object.prototype fall back to the defaults with a note', () => {
  for (const name of PROTO_NAMES) {
    const s = readTrainUrl(`?mode=train&task=${name}&opt=${name}`);
    assert.equal(s.task, DEFAULTS.task, `task=${name}`);
    assert.equal(s.optimizer, DEFAULTS.optimizer, `opt=${name}`);
    assert.deepEqual(s.notes, [
      `There is no task “${name}”; the tasks are find-the-noun and previous-token. Showing “find-the-noun”.`,
      `opt=${name} is not an optimizer (adam or sgd); using adam.`,
    ]);
  }
});

test('training links: notes stay short however long the parameter', () => {
  const s = readTrainUrl(`?task=${'t'.repeat(100000)}&opt=${'o'.repeat(100000)}&lr=${'1'.repeat(100000)}`);
  assert.equal(s.notes.length, 3);
  for (const n of s.notes) assert.ok(n.length < 300, `${n.length} characters`);
});

test('labs: a parameter the lab cannot use gets a note naming the value it shows (dk=1e9&n=1e9)', () => {
  const notes = (mode, q) => paramNotes(mode, new URLSearchParams(q));
  assert.deepEqual(notes('sqrt-dk-lab', 'dk=1e9&n=1e9'), [
    'dk=1e9 is not a value this lab can use; it shows dk=64.',
    'n=1e9 is not a value this lab can use; it shows n=32.',
  ]);
  assert.deepEqual(notes('sqrt-dk-lab', 'dk=100000&row=99&colour=red'), [
    'dk=100000 is not a value this lab can use; it shows dk=512.',
    'row=99 is not a value this lab can use; it shows row=31.',
    'colour=red is not a setting of this lab (its settings are dk, n, seed, row); it was left out.',
  ]);
  assert.deepEqual(notes('sqrt-dk-lab', 'mode=sqrt-dk-lab&dk=128&n=16&seed=3&row=2&theme=dark'), [], 'a valid link has no note');
  assert.deepEqual(notes('stability-lab', 'scores=1000, 990,%E2%88%925'), [], 'spaces and − are fine');
  for (const name of PROTO_NAMES) {
    assert.deepEqual(notes('predict-lab', `preset=${name}`), [`preset=${name} is not a value this lab can use; it shows preset=cat.`]);
    assert.deepEqual(notes('cross-lab', `pair=${name}`), [`pair=${name} is not a value this lab can use; it shows pair=black-cat.`]);
    assert.equal(labOf(name), null, `no lab called ${name}`);
    assert.match(notes('sqrt-dk-lab', `${name}=1`)[0], new RegExp(`^${name}=1 is not a setting of this lab`));
  }
  // every lab's own link round-trips without a note
  for (const lab of LABS) {
    const q = new URLSearchParams(Object.entries(lab.state.writeState(lab.state.defaultState())).map(([k, v]) => [k, String(v)]));
    assert.deepEqual(paramNotes(lab.mode, q), [], lab.mode);
  }
  assert.ok(notes('sqrt-dk-lab', `dk=${'9'.repeat(5000)}`)[0].length < MAX_MESSAGE);
});

test("every lab of the catalog (web/labs/catalog.js, the one list of the labs) loads its state module, whose MODE is its mode, and its view's mount; web/labs/index.js holds them all, in its order", async () => {
  const { CATALOG } = await import('../../web/labs/catalog.js');
  assert.deepEqual(LABS.map((l) => [l.mode, l.title]), CATALOG.map((l) => [l.mode, l.title]));
  for (const entry of CATALOG) {
    const lab = await entry.load();
    assert.equal(lab.state.MODE, entry.mode);
    assert.equal(typeof lab.mount, 'function', `${entry.mode}: its view's mount`);
    assert.equal(lab.state, labOf(entry.mode).state, `${entry.mode}: the same state module`);
  }
});

test('mountLab refuses a lab it does not know before touching the page, naming every lab', () => {
  assert.throws(() => mountLab('x'.repeat(50), null), {
    message: `unknown lab "${'x'.repeat(39)}…": the labs are ${list(LABS.map((l) => l.mode))}`,
  });
  assert.equal(labOf('nope'), null);
});
