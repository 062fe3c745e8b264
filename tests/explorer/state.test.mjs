// The explorer's state module (web/explorer/state.js) in Node, without a DOM: every action
// changes the plain state record and says what the page must do about it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../web/explorer/state.js';
import { readUrlState, STEPS, parseConfig } from '../../web/blocks/config.js';
import { PRESETS, DEFAULT_PRESET } from '../../web/blocks/presets.js';
import { list } from '../../web/blocks/words.js';

// A name no preset will ever have, and what the page says for it: the name, every preset of
// PRESETS (whatever they are), and the one shown instead.
const NO_SUCH = 'no-such-preset';
const noSuchSaid = `There is no preset called “${NO_SUCH}”; the presets are ${list(Object.keys(PRESETS))}. Showing “${DEFAULT_PRESET}”.`;

const fresh = (preset = 'cat') => {
  const state = S.createState();
  S.setPreset(state, preset);
  return state;
};

test('a preset loads as an unchanged preset; an edit makes it the learner’s own head and asks for a recompute', () => {
  const state = fresh();
  assert.equal(state.preset, 'cat');
  assert.deepEqual(state.config.tokens, PRESETS.cat.config.tokens);
  const change = S.setValue(state, 'X', 4, 0, 2);
  assert.equal(state.config.X[4][0], 2);
  assert.equal(state.preset, null);
  assert.equal(change.compute, true);
  assert.equal(change.url, true);
  assert.deepEqual(change.emit.map((e) => e[0]), ['change']);
  const detail = change.emit[0][1](); // made only when someone listens
  assert.equal(detail.config.X[4][0], 2, 'the event carries a copy of the config');
  detail.config.X[4][0] = 9;
  assert.equal(state.config.X[4][0], 2, '… a copy, not the state itself');
});

test('only input matrices can be edited, and only with the "edit" controls shown', () => {
  const state = fresh();
  assert.deepEqual([...S.editable(state)], ['X', 'Wq', 'Wk', 'Wv']);
  assert.equal(S.setValue(state, 'A', 0, 0, 1), null, 'A is computed, not an input');
  assert.equal(S.setValue(state, 'X', 0, 0, NaN), null);
  const direct = fresh('worked-example');
  assert.deepEqual([...S.editable(direct)], ['Q', 'K', 'V']);
  S.setControls(direct, ['steps', 'explain'], { page: true });
  assert.deepEqual([...S.editable(direct)], []);
  assert.equal(S.setValue(direct, 'Q', 0, 0, 5), null);
});

test('nudge rounds to 3 decimals; setValue to 6', () => {
  const state = fresh();
  S.nudge(state, { m: 'Wq', i: 2, j: 0 }, 0.1);
  assert.equal(state.config.Wq[2][0], 2.1);
  S.setValue(state, 'Wq', 2, 0, 1 / 3);
  assert.equal(state.config.Wq[2][0], 0.333333);
});

test('reset goes back to the preset and names it again', () => {
  const state = fresh();
  S.setCausal(state, false);
  S.renameToken(state, 1, 'dog');
  assert.equal(state.preset, null);
  const change = S.reset(state);
  assert.equal(state.preset, 'cat');
  assert.equal(state.config.causal, true);
  assert.equal(state.config.tokens[1], 'cat');
  assert.equal(change.error, '', 'reset clears an error message');
});

test('steps: stepBy clamps and passes "every step" after the last; play ticks through and stops', () => {
  const state = fresh();
  assert.equal(S.stepIndex(state), STEPS.length);
  S.stepBy(state, 1);
  assert.equal(state.step, null, 'past the last step every step is shown');
  S.stepBy(state, -1);
  assert.equal(state.step, 'mix');
  for (let k = 0; k < 10; k++) S.stepBy(state, -1);
  assert.equal(state.step, 'project');
  assert.equal(S.setStep(state, 'nonsense'), null);

  S.setStep(state, null);
  const start = S.togglePlay(state);
  assert.equal(state.playing, true);
  assert.equal(state.step, 'project');
  assert.deepEqual(start.emit, [['step', { step: 'project' }]]);
  for (let k = 1; k < STEPS.length; k++) {
    S.playTick(state);
    assert.equal(state.step, STEPS[k]);
  }
  S.playTick(state);
  assert.equal(state.playing, false, 'play stops after the last step');
  assert.equal(state.step, 'mix');
  S.togglePlay(state);
  assert.equal(state.step, 'project', 'play from the end starts again');
  S.stepBy(state, 1);
  assert.equal(state.playing, false, 'a step by hand stops play');
});

test('setStep emits "step" only when the step changes', () => {
  const state = fresh();
  assert.deepEqual(S.setStep(state, 'score').emit, [['step', { step: 'score' }]]);
  assert.deepEqual(S.setStep(state, 'score').emit, []);
});

test('follow: out-of-range rows follow nothing; toggling the followed token stops following', () => {
  const state = fresh();
  assert.equal(S.setFollow(state, 7), null);
  assert.equal(state.follow, null);
  const c = S.setFollow(state, 4);
  assert.equal(state.follow, 4);
  assert.deepEqual(c.emit, [['select', { follow: 4, cell: null }]]);
  S.toggleFollow(state, 4);
  assert.equal(state.follow, null);
  S.setFollow(state, 2.5);
  assert.equal(state.follow, null);
});

test('select emits only for a new cell; hover changes only for a new cell', () => {
  const state = fresh();
  assert.equal(S.select(state, { m: 'A', i: 1, j: 0 }).emit.length, 1);
  assert.equal(S.select(state, { m: 'A', i: 1, j: 0 }).emit.length, 0);
  assert.deepEqual(S.setHover(state, { m: 'S', i: 0, j: 0 }), {});
  assert.equal(S.setHover(state, { m: 'S', i: 0, j: 0 }), null);
});

test('tokens: add appends a zero input row; remove drops it and a follow past the end', () => {
  const state = fresh();
  S.setFollow(state, 4);
  S.addToken(state);
  assert.equal(state.config.tokens.length, 6);
  assert.deepEqual(state.config.X[5], [0, 0, 0, 0]);
  S.removeToken(state, 0);
  S.removeToken(state, 0);
  assert.equal(state.follow, null);
  assert.equal(state.config.X.length, 4);
  const one = S.createState();
  S.setConfig(one, { X: [[1]], Wq: [[1]], Wk: [[1]], Wv: [[1]] });
  assert.equal(S.removeToken(one, 0), null, 'the last token stays');
  const direct = fresh('worked-example');
  S.addToken(direct);
  assert.deepEqual([direct.config.Q.length, direct.config.K.length, direct.config.V.length], [4, 4, 4]);
});

test('a token name is cut to the longest name the config allows', () => {
  const state = fresh();
  S.renameToken(state, 0, 'x'.repeat(100));
  assert.equal(state.config.tokens[0].length, 40);
});

test('the link: an unchanged preset is ?preset=, anything else #config=; both read back', () => {
  const state = fresh();
  S.setStep(state, 'softmax');
  S.setFollow(state, 4);
  S.select(state, { m: 'A', i: 4, j: 1 });
  const link = S.urlOf(state);
  assert.equal(link, '?preset=cat&step=softmax&follow=4&cell=A.4.1');
  const back = S.createState();
  S.fromUrl(back, readUrlState(link, ''));
  assert.deepEqual([back.preset, back.step, back.follow, back.sel], ['cat', 'softmax', 4, { m: 'A', i: 4, j: 1 }]);

  S.setValue(state, 'X', 1, 1, 0.7);
  const own = S.urlOf(state);
  assert.match(own, /^#config=/);
  const again = S.createState();
  S.fromUrl(again, readUrlState('', own));
  assert.equal(again.config.X[1][1], 0.7);
  assert.equal(again.preset, null);
});

test('a bad link shows the default preset and says why, keeping the bad text to fix', () => {
  const state = S.createState();
  const change = S.fromUrl(state, readUrlState('', '#config=' + encodeURIComponent('{"X": [[1,')));
  assert.equal(state.preset, 'cat');
  assert.match(change.error, /The config in the link was not used: .*not valid JSON/);
  assert.equal(change.badConfig, '{"X": [[1,');
  const unknown = S.fromUrl(S.createState(), readUrlState(`?preset=${NO_SUCH}`, ''));
  assert.equal(unknown.error, noSuchSaid);
  for (const name of Object.keys(PRESETS)) assert.ok(unknown.error.includes(name), `the message names the preset “${name}”`);
});

test('the element’s start: attributes pick the head, causal overrides it, a bad follow is ignored', () => {
  const state = S.createState();
  const change = S.fromOptions(state, { preset: 'worked-example', causal: true, step: 'mix', follow: 9 });
  assert.equal(change.error, '');
  assert.equal(state.preset, 'worked-example');
  assert.equal(state.config.causal, true);
  assert.equal(state.step, 'mix');
  assert.equal(state.follow, null);
  assert.match(S.fromOptions(S.createState(), { config: '{' }).error, /The config was not used/);
});

test('the element’s start says which step or follow attribute it left out and why, worded for an attribute', () => {
  const start = (init) => {
    const state = S.createState();
    const { error } = S.fromOptions(state, { preset: 'cat', ...init });
    return [error, state.step, state.follow];
  };
  assert.deepEqual(start({ step: 'softmax', follow: '4' }), ['', 'softmax', 4]);
  assert.deepEqual(start({ follow: ' 2 ' }), ['', null, 2], 'the element trims a follow');
  assert.deepEqual(start({ step: '', follow: '' }), ['', null, null], 'an empty attribute is no attribute');
  assert.deepEqual(start({ follow: '9' }), ['The follow="9" attribute was ignored: this head has 5 tokens, rows 0 to 4.', null, null]);
  assert.deepEqual(start({ follow: 'two' }), ['The follow="two" attribute was ignored: follow is a row number, from 0 for the first token.', null, null]);
  assert.deepEqual(start({ follow: '-1' }), ['The follow="-1" attribute was ignored: follow is a row number, from 0 for the first token.', null, null]);
  assert.deepEqual(start({ step: 'sofmax', follow: '5' }), [
    'The step="sofmax" attribute was ignored: the steps are project, score, scale, mask, softmax and mix. The follow="5" attribute was ignored: this head has 5 tokens, rows 0 to 4.', null, null]);
  const one = S.fromOptions(S.createState(), { config: { X: [[1]], Wq: [[1]], Wk: [[1]], Wv: [[1]] }, follow: '1' });
  assert.equal(one.error, 'The follow="1" attribute was ignored: this head has 1 token, row 0.');
  const bad = S.fromOptions(S.createState(), { config: '{', follow: '7' });
  assert.match(bad.error, /^The config was not used: .* The follow="7" attribute was ignored: this head has 5 tokens, rows 0 to 4\.$/, 'checked against the head shown');
  assert.equal(start({ follow: 'x'.repeat(60) })[0], `The follow="${'x'.repeat(39)}…" attribute was ignored: follow is a row number, from 0 for the first token.`);
  // a row number (train's link, read already) is dropped quietly, as before
  assert.deepEqual(start({ follow: 9 }), ['', null, null]);
  // the element's later attribute changes (attention-explorer.js) use the same check
  assert.equal(S.attributeWhy('follow', '4', 5), '');
  assert.equal(S.attributeWhy('follow', null, 5), '');
  assert.equal(S.attributeWhy('step', null, 5), '');
  assert.equal(S.attributeWhy('step', 'mix', 5), '');
  assert.equal(S.attributeWhy('step', ' mix', 5), 'the steps are project, score, scale, mask, softmax and mix');
  assert.equal(S.attributeWhy('follow', '4', 2), 'this head has 2 tokens, rows 0 to 1');
  assert.equal(S.ignoredText([{ name: 'follow', value: '9', why: 'this head has 5 tokens, rows 0 to 4' }], { attribute: true }),
    'The follow="9" attribute was ignored: this head has 5 tokens, rows 0 to 4.');
});

test('setPreset refuses an unknown name (also one inherited from Object.prototype)', () => {
  assert.throws(() => S.setPreset(S.createState(), 'toString'), /There is no preset called “toString”/);
});

test('showHead keeps the step, the follow when it still fits, and hands on the explanation extra', () => {
  const state = fresh();
  S.setStep(state, 'softmax');
  S.setFollow(state, 4);
  const extra = { trained: { step: 3 }, gradients: null };
  S.showHead(state, { ...PRESETS.cat.config, tokens: ['a', 'b', 'c', 'd', 'e'] }, extra);
  assert.deepEqual([state.step, state.follow, state.extra], ['softmax', 4, extra]);
  S.showHead(state, { X: [[1]], Wq: [[1]], Wk: [[1]], Wv: [[1]] });
  assert.equal(state.follow, null);
});

test('theme: "auto" follows the system, a setting wins; a change asks for a redraw of the values', () => {
  const state = S.createState();
  assert.deepEqual(S.setTheme(state, 'auto', true), { values: true });
  assert.equal(state.theme, 'dark');
  S.setTheme(state, 'light', true);
  assert.equal(state.theme, 'light');
  assert.deepEqual(S.setTheme(state, 'nonsense', false), {});
  assert.equal(state.themeSetting, 'auto');
});

test('an edit that goes back to the preset makes it the unchanged preset again; the link keeps where it came from', () => {
  const state = fresh();
  S.toggleCausal(state);
  assert.deepEqual([state.preset, state.origin], [null, 'cat']);
  assert.match(S.urlOf(state), /^#config=.*&from=cat$/);
  const back = S.createState();
  S.fromUrl(back, readUrlState('', S.urlOf(state)));
  assert.deepEqual([back.preset, back.origin, back.config.causal], [null, 'cat', false]);
  S.reset(back);
  assert.deepEqual([back.preset, back.config.causal], ['cat', true], 'Reset goes back to the preset it came from');
  S.toggleCausal(state);
  assert.equal(state.preset, 'cat');
  assert.equal(S.urlOf(state), '?preset=cat');
});

test('changesOf lists what differs from the preset', () => {
  const state = fresh();
  S.setScaling(state, false);
  S.setValue(state, 'X', 0, 0, 5);
  S.renameToken(state, 2, 'ran');
  assert.deepEqual(S.changesOf(state.base, state.config), { causal: undefined, scale: 1, renamed: [2], values: { X: 1 }, tokens: null, widths: {}, features: [] });
});

test('keys M and S flip the mask and the scaling', () => {
  const state = fresh();
  S.toggleCausal(state);
  S.toggleScaling(state);
  assert.deepEqual([state.config.causal, state.config.scale], [false, 1]);
  S.toggleScaling(state);
  assert.equal(state.config.scale, null);
});

test('with reduced motion, play is one step per press and never starts a timer', () => {
  const state = S.createState({ reducedMotion: true });
  S.setPreset(state, 'cat');
  S.togglePlay(state);
  assert.deepEqual([state.step, state.playing], ['project', false]);
  S.togglePlay(state);
  assert.deepEqual([state.step, state.playing], ['score', false]);
  S.setStep(state, 'mix');
  S.togglePlay(state);
  assert.deepEqual([state.step, state.playing], [null, false], 'past the last step: every step');
});

test('the tour: only on the unchanged cat preset; it follows the last token; an edit ends it', () => {
  const state = fresh();
  S.setStep(state, 'score');
  const c = S.startTour(state);
  assert.deepEqual([state.tour, state.follow, state.step, c.tour], [0, 4, null, true]);
  S.tourTo(state, 3);
  assert.equal(state.tour, 3);
  S.tourTo(state, 4);
  assert.equal(state.tour, null, 'past the last stop the tour ends');
  S.startTour(state);
  S.endTour(state);
  assert.equal(state.tour, null);
  S.startTour(state);
  S.setValue(state, 'X', 0, 0, 1);
  assert.equal(state.tour, null);
  assert.equal(S.startTour(fresh('worked-example')), null);
});

test('the leak check keeps its “before” and takes the new head as its “before” when the head is replaced', () => {
  const state = fresh();
  S.toggleLeak(state);
  S.setValue(state, 'X', 4, 0, 2);
  assert.equal(state.leak.base.X[4][0], 0);
  S.setPreset(state, 'previous-token');
  assert.deepEqual(state.leak.base, state.config);
  // a head shown from outside (a trained head, another head of the induction model) too, even of another size
  S.showHead(state, { X: [[1, 0], [0, 1]], Wq: [[1], [0]], Wk: [[1], [0]], Wv: [[0], [1]] });
  assert.deepEqual(state.leak.base, state.config);
  assert.equal(state.leak.base.X.length, 2);
  S.toggleLeak(state);
  assert.equal(state.leak, null);
  S.showHead(state, PRESETS.cat.config);
  assert.equal(state.leak, null, 'off stays off');
});

test('the weights start folded; a trained head (showHead) opens them unless the learner folded them', () => {
  const state = fresh();
  assert.equal(state.weightsOpen, false);
  S.showHead(state, PRESETS.cat.config);
  assert.equal(state.weightsOpen, true);
  assert.deepEqual(S.toggleWeights(state), { wholeHead: false }, 'folding them asks for no scroll');
  S.showHead(state, PRESETS.cat.config);
  assert.equal(state.weightsOpen, false);
  assert.deepEqual(S.toggleWeights(state), { wholeHead: true }, 'opening them asks for every matrix in view (mount.js)');
});

test('the theme to start with: the link, then the element’s attribute, then the remembered choice', () => {
  assert.equal(S.startTheme({ url: 'light', attribute: 'dark', stored: 'dark' }), 'light');
  assert.equal(S.startTheme({ attribute: 'dark', stored: 'light' }), 'dark');
  assert.equal(S.startTheme({ attribute: 'auto', stored: 'dark' }), 'dark');
  assert.equal(S.startTheme({ stored: 'nonsense' }), 'auto');
  const state = fresh();
  S.fromUrl(state, readUrlState('?preset=cat&theme=dark', ''));
  assert.equal(state.urlTheme, 'dark');
  assert.match(S.urlOf(state), /theme=dark/);
});

test('the panels drawn: X and the weights for a projection head, Q, K and V given directly otherwise', () => {
  assert.deepEqual(S.shownGroups(fresh('cat').config), S.GROUPS);
  assert.deepEqual(S.shownGroups(fresh('worked-example').config), [['1. Q, K and V, given directly', ['Q', 'K', 'V'], []], S.GROUPS[1]]);
});

test('presetOf names the preset a config is exactly, and nothing once a value differs', () => {
  const state = fresh('cat');
  assert.equal(S.presetOf(state.config), 'cat');
  assert.equal(S.presetOf(fresh('worked-example').config), 'worked-example');
  S.setValue(state, 'X', 0, 0, state.config.X[0][0] + 1);
  assert.equal(S.presetOf(state.config), null);
});

test('a theme the link named stays in the link: setUrlTheme', () => {
  const state = fresh('cat');
  assert.deepEqual(S.setUrlTheme(state, 'dark'), { url: true });
  assert.equal(state.urlTheme, 'dark');
  assert.equal(S.urlOf(state), '?preset=cat&theme=dark');
  S.setUrlTheme(state, null);
  assert.equal(S.urlOf(state), '?preset=cat');
});

// ------------------------------------------------------------------ each action's Change, exactly

const names = (change) => ({ ...change, emit: change.emit && change.emit.map(([type, detail]) => [type, typeof detail === 'function' ? detail() : detail]) });

test('a new state: the cat preset to come, every step shown, light theme until told, nothing playing', () => {
  const state = S.createState();
  assert.deepEqual(
    [state.preset, state.config, state.step, state.playing, state.follow, state.sel, state.themeSetting, state.theme, state.tour, state.leak, state.rev],
    ['cat', null, null, false, null, null, 'auto', 'light', null, null, 0]);
  assert.deepEqual([...state.controls], S.CONTROLS);
  assert.equal(S.createState({ theme: 'dark' }).theme, 'dark');
});

test('a new head (setPreset, setConfig) asks for everything: compute, link, layout, tokens, a cleared error and a change event', () => {
  const state = S.createState();
  const change = names(S.setPreset(state, 'worked-example'));
  assert.deepEqual(change, { compute: true, url: true, rebuild: true, tokens: true, error: '', emit: [['change', { config: PRESETS['worked-example'].config }]] });
  assert.equal(state.rev, 1);
  S.setConfig(state, { X: [[1]], Wq: [[1]], Wk: [[1]], Wv: [[1]] });
  assert.equal(state.rev, 2, 'rev counts every change of the config');
  S.setValue(state, 'X', 0, 0, 2);
  assert.equal(state.rev, 3);
  S.showHead(state, { X: [[1]], Wq: [[1]], Wk: [[1]], Wv: [[1]] });
  assert.equal(state.rev, 4);
  S.reset(state);
  assert.equal(state.rev, 5);
});

test('setPreset keeps the step shown unless fromStart asks for every step again', () => {
  const state = fresh();
  S.setStep(state, 'mask');
  S.setPreset(state, 'previous-token');
  assert.equal(state.step, 'mask');
  S.setPreset(state, 'cat', { fromStart: true });
  assert.equal(state.step, null);
});

test('showHead asks for a recompute and a new link only; a follow on the last row of a shorter head is dropped', () => {
  const state = fresh();
  S.setFollow(state, 4);
  assert.deepEqual(S.showHead(state, { ...PRESETS.cat.config }), { compute: true, url: true });
  assert.equal(state.follow, 4, 'row 5 of 5 still fits');
  const four = { ...PRESETS.cat.config, tokens: ['a', 'b', 'c', 'd'], X: PRESETS.cat.config.X.slice(0, 4) };
  S.showHead(state, four);
  assert.equal(state.follow, null, 'row 5 of 4 does not');
});

test('reset: the exact Change, and a config loaded that is exactly a preset is that preset after Reset', () => {
  const state = S.createState();
  S.setConfig(state, PRESETS.cat.config);
  assert.equal(state.preset, null, 'a pasted config is the learner’s own until Reset compares it');
  S.setValue(state, 'X', 0, 0, 3);
  assert.deepEqual(names(S.reset(state)), { compute: true, url: true, tokens: true, error: '', emit: [['change', { config: PRESETS.cat.config }]] });
  assert.deepEqual([state.preset, state.origin], ['cat', 'cat']);
});

test('nudge: no cell or a computed matrix changes nothing', () => {
  const state = fresh();
  assert.equal(S.nudge(state, null, 0.1), null);
  assert.equal(S.nudge(state, { m: 'A', i: 0, j: 0 }, 0.1), null);
  assert.equal(state.rev, 1);
  assert.equal(state.preset, 'cat');
});

test('addToken: a token called “new”, up to the limit of 256 tokens, then an error naming the limit', () => {
  const state = fresh();
  S.addToken(state);
  assert.equal(state.config.tokens[5], 'new');
  const n = S.LIM.maxTokens;
  assert.equal(n, 256);
  S.setConfig(state, { X: Array.from({ length: n - 1 }, () => [1]), Wq: [[1]], Wk: [[1]], Wv: [[1]] });
  const last = S.addToken(state);
  assert.equal(last.compute, true);
  assert.equal(state.config.tokens.length, n);
  assert.deepEqual(S.addToken(state), { error: 'A head can have at most 256 tokens here.' });
  assert.equal(state.config.tokens.length, n);
});

test('removeToken keeps a follow that still fits and clears the selection', () => {
  const state = fresh();
  S.setFollow(state, 1);
  S.select(state, { m: 'A', i: 1, j: 1 });
  S.removeToken(state, 3);
  assert.deepEqual([state.follow, state.sel, state.config.tokens], [1, null, ['The', 'cat', 'sat', 'the']]);
  S.setFollow(state, 3);
  S.removeToken(state, 0);
  assert.equal(state.follow, null, 'row 4 of 3 is gone');
});

test('seen: what the learner does to the head (an edit, a cell, a token, a step, the tour) says so, so the page’s note on its link or attributes goes; hovering, play’s ticks after the first step, a trained head, the theme and the weights do not', () => {
  const state = fresh();
  const seen = (change) => Boolean(change && change.seen);
  assert.equal(seen(S.setValue(state, 'X', 0, 0, 1)), true, 'an edit');
  assert.equal(seen(S.nudge(state, { m: 'X', i: 0, j: 0 }, 0.1)), true);
  assert.equal(seen(S.toggleCausal(state)), true);
  assert.equal(seen(S.renameToken(state, 0, 'A')), true);
  assert.equal(seen(S.addToken(state)), true);
  assert.equal(seen(S.removeToken(state, 5)), true);
  assert.equal(seen(S.select(state, { m: 'A', i: 1, j: 0 })), true, 'a new cell');
  assert.equal(seen(S.select(state, { m: 'A', i: 1, j: 0 })), false, 'the same cell again');
  assert.equal(seen(S.setFollow(state, 2)), true, 'a token followed');
  assert.equal(seen(S.setStep(state, 'score')), true, 'a step chosen');
  assert.equal(seen(S.setStep(state, 'score')), false, 'the same step again');
  assert.equal(seen(S.setHover(state, { m: 'S', i: 0, j: 0 })), false, 'hovering reads, it does not act');
  assert.equal(seen(S.setTheme(state, 'dark', false)), false);
  assert.equal(seen(S.toggleWeights(state)), false);
  assert.equal(seen(S.showHead(state, PRESETS.cat.config)), false, 'a head handed over by training');
  const cat = fresh();
  assert.equal(seen(S.startTour(cat)), true);
  // a new head clears every message anyway
  assert.equal(S.setPreset(cat, 'cat').error, '');
});

test('setStep and stepBy: the exact Change; one step past “mix” shows every step', () => {
  const state = fresh();
  assert.deepEqual(S.setStep(state, 'softmax'), { values: true, url: true, seen: true, emit: [['step', { step: 'softmax' }]], scroll: 'softmax' });
  S.setStep(state, 'mix');
  assert.deepEqual(S.stepBy(state, 1), { values: true, url: true, seen: true, emit: [['step', { step: null }]], scroll: null });
  assert.equal(state.step, null);
});

test('play: a second press pauses; stop does nothing when nothing plays; play from a middle step goes on from there', () => {
  const state = fresh();
  assert.equal(S.stop(state), null);
  S.setStep(state, 'score');
  assert.deepEqual(S.togglePlay(state), {});
  assert.deepEqual([state.step, state.playing], ['score', true]);
  assert.deepEqual(S.togglePlay(state), {});
  assert.equal(state.playing, false);
  S.setStep(state, null);
  S.playTick(state);
  assert.equal(state.step, 'project', 'a tick from every step shown starts at the first');
});

test('follow: row 0 and the last row can be followed; -1 and n cannot; toggling another row moves the follow; the event carries the selection', () => {
  const state = fresh();
  S.select(state, { m: 'S', i: 2, j: 1 });
  assert.deepEqual(S.setFollow(state, 0), { url: true, seen: true, emit: [['select', { follow: 0, cell: { m: 'S', i: 2, j: 1 } }]] });
  assert.equal(S.setFollow(state, 0), null, 'the same row again changes nothing');
  S.setFollow(state, 4);
  assert.equal(state.follow, 4);
  S.setFollow(state, 5);
  assert.equal(state.follow, null);
  S.setFollow(state, 2);
  S.setFollow(state, -1);
  assert.equal(state.follow, null);
  S.setFollow(state, 2);
  S.toggleFollow(state, 3);
  assert.equal(state.follow, 3);
  S.setFollow(state, null);
  assert.equal(state.follow, null);
});

test('select: the exact Change, a copy of the cell in the event; a cell differing in m, i or j alone is new; null twice is no change', () => {
  const state = fresh();
  S.setFollow(state, 2);
  const cell = { m: 'A', i: 1, j: 0 };
  const c = S.select(state, cell);
  assert.deepEqual(c, { url: true, seen: true, emit: [['select', { follow: 2, cell: { m: 'A', i: 1, j: 0 } }]] });
  assert.notEqual(c.emit[0][1].cell, cell, 'a copy');
  for (const other of [{ m: 'S', i: 1, j: 0 }, { m: 'S', i: 2, j: 0 }, { m: 'S', i: 2, j: 1 }]) assert.equal(S.select(state, other).emit.length, 1, JSON.stringify(other));
  assert.deepEqual(S.select(state, null), { url: true, seen: true, emit: [['select', { follow: 2, cell: null }]] });
  assert.deepEqual(S.select(state, null), { url: true, seen: false, emit: [] });
  assert.equal(S.sameCell(null, null), true);
  assert.equal(S.sameCell({ m: 'A', i: 0, j: 0 }, null), false);
});

test('theme: “dark” is a setting of its own', () => {
  const state = S.createState();
  assert.deepEqual(S.setTheme(state, 'dark', false), { values: true });
  assert.deepEqual([state.themeSetting, state.theme], ['dark', 'dark']);
});

test('setControls keeps only known groups, drops the link off the page, and stops play when the steps are hidden', () => {
  const state = fresh();
  S.togglePlay(state);
  assert.deepEqual(S.setControls(state, ['link', 'steps', 'bogus'], { page: true }), { values: true });
  assert.deepEqual([...state.controls], ['link', 'steps']);
  assert.equal(state.playing, true, 'the steps are still there');
  S.setControls(state, ['link', 'explain'], { page: false });
  assert.deepEqual([...state.controls], ['explain'], 'an element has no link');
  assert.equal(state.playing, false);
});

test('the tour: the exact Change at its start (play stops, the selection goes with the event, its stop takes the focus); stop 0 is a stop; no tour, no move', () => {
  const state = fresh();
  assert.equal(S.tourTo(state, 1), null);
  S.select(state, { m: 'A', i: 4, j: 1 });
  S.togglePlay(state);
  assert.deepEqual(S.startTour(state), { values: true, url: true, tour: true, seen: true, focusTour: true, emit: [['select', { follow: 4, cell: { m: 'A', i: 4, j: 1 } }]] });
  assert.equal(state.playing, false);
  S.tourTo(state, 2);
  assert.deepEqual(S.tourTo(state, 0), { tour: true });
  assert.equal(state.tour, 0);
  S.select(state, null);
  S.endTour(state);
  assert.deepEqual(S.startTour(state).emit, [['select', { follow: 4, cell: null }]]);
});

test('the leak check asks for a recompute both ways', () => {
  const state = fresh();
  assert.deepEqual(S.toggleLeak(state), { compute: true });
  assert.deepEqual(S.toggleLeak(state), { compute: true });
});

test('changesOf counts changed values in every input matrix, each form; a head of the other form has no values to compare', () => {
  const cat = parseConfig(PRESETS.cat.config);
  const edited = structuredClone(cat);
  edited.Wk[0][0] = 9; edited.Wv[1][1] = 9; edited.Wv[2][2] = 9;
  assert.deepEqual(S.changesOf(cat, edited).values, { Wk: 1, Wv: 2 });
  const we = parseConfig(PRESETS['worked-example'].config);
  const qkv = structuredClone(we);
  qkv.Q[0][0] = 5; qkv.K[1][1] = 5; qkv.V[2][0] = 5; qkv.V[2][1] = 5;
  assert.deepEqual(S.changesOf(we, qkv).values, { Q: 1, K: 1, V: 2 });
  const direct5 = parseConfig({ tokens: cat.tokens, Q: [[1], [1], [1], [1], [1]], K: [[1], [1], [1], [1], [1]], V: [[1], [1], [1], [1], [1]], causal: false });
  assert.deepEqual(S.changesOf(cat, direct5), { causal: false, scale: undefined, renamed: [], values: {}, tokens: null, widths: {}, features: [] });
});

// ------------------------------------------------------------------ the link: round trip and bad parameters

const reopen = (link) => {
  const state = S.createState();
  const [search, hash] = link.startsWith('#') ? ['', link] : [link, ''];
  const change = S.fromUrl(state, readUrlState(search, hash));
  return { state, change };
};

test('a shared link reopens the same view: preset or own head, step, follow, cell and theme', () => {
  const state = fresh('previous-token');
  S.setStep(state, 'mask');
  S.setFollow(state, 0);
  S.select(state, { m: 'M', i: 5, j: 4 });
  S.setUrlTheme(state, 'light');
  const link = S.urlOf(state);
  assert.equal(link, '?preset=previous-token&step=mask&follow=0&cell=M.5.4&theme=light');
  const { state: back, change } = reopen(link);
  assert.deepEqual(change, { compute: true, rebuild: true, tokens: true, error: '', badConfig: null, restoreCursor: true });
  assert.deepEqual([back.preset, back.step, back.follow, back.sel, back.urlTheme, back.rev], ['previous-token', 'mask', 0, { m: 'M', i: 5, j: 4 }, 'light', 1]);
  assert.equal(S.urlOf(back), link);

  const own = S.createState();
  S.setConfig(own, { tokens: ['a', 'b'], Q: [[1, 0], [0, 1]], K: [[1, 0], [0, 1]], V: [[2], [3]], causal: true, scale: 0.5 });
  S.setFollow(own, 1);
  const ownLink = S.urlOf(own);
  const again = reopen(ownLink);
  assert.deepEqual(again.state.config, own.config);
  assert.deepEqual([again.state.preset, again.state.origin, again.state.follow, again.change.error, again.change.restoreCursor], [null, null, 1, '', false]);
  assert.equal(S.urlOf(again.state), ownLink);
});

test('a link with from= and the preset’s exact config opens as that unchanged preset', () => {
  const { state } = reopen('#config=' + encodeURIComponent(JSON.stringify(PRESETS.cat.config)) + '&from=cat');
  assert.deepEqual([state.preset, state.origin], ['cat', 'cat']);
  assert.equal(S.urlOf(state), '?preset=cat');
  const unknown = reopen('#config=' + encodeURIComponent(JSON.stringify(PRESETS.cat.config)) + `&from=${NO_SUCH}`);
  assert.deepEqual([unknown.state.preset, unknown.state.origin, unknown.change.error], [null, null, ''], 'an unknown from= is dropped without a word');
});

test('malformed or out-of-range parameters: the learner sees the rest of the link, with the default in their place, and is told which was ignored and why', () => {
  const cases = [
    // [search, what the state shows: step, follow, sel, urlTheme, and the message]
    ['?preset=cat&step=nonsense', null, null, null, null, 'The link’s step=nonsense was ignored: the steps are project, score, scale, mask, softmax and mix.'],
    ['?preset=cat&step=SCORE', null, null, null, null, 'The link’s step=SCORE was ignored: the steps are project, score, scale, mask, softmax and mix.'],
    ['?preset=cat&follow=5', null, null, null, null, 'The link’s follow=5 was ignored: this head has 5 tokens, rows 0 to 4.'], // 5 tokens: rows 0 to 4
    ['?preset=cat&follow=4', null, 4, null, null, ''],
    ['?preset=cat&follow=0', null, 0, null, null, ''],
    ['?preset=cat&follow=-1', null, null, null, null, 'The link’s follow=-1 was ignored: follow is a row number, from 0 for the first token.'],
    ['?preset=cat&follow=2.5', null, null, null, null, 'The link’s follow=2.5 was ignored: follow is a row number, from 0 for the first token.'],
    ['?preset=cat&follow=two', null, null, null, null, 'The link’s follow=two was ignored: follow is a row number, from 0 for the first token.'],
    ['?preset=cat&cell=Z.1.1', null, null, null, null, 'The link’s cell=Z.1.1 was ignored: there is no matrix Z; the matrices are X, Wq, Wk, Wv, Q, K, V, S, M, A and O.'],
    ['?preset=cat&cell=A.1', null, null, null, null, 'The link’s cell=A.1 was ignored: a cell is written matrix.row.column, counted from 0, as A.4.1.'],
    ['?preset=cat&cell=A.-1.0', null, null, null, null, 'The link’s cell=A.-1.0 was ignored: a cell is written matrix.row.column, counted from 0, as A.4.1.'],
    ['?preset=cat&cell=O.40.0', null, null, null, null, 'The link’s cell=O.40.0 was ignored: O has 5 rows.'],
    ['?preset=cat&cell=O.4.4', null, null, null, null, 'The link’s cell=O.4.4 was ignored: O has 4 columns.'],
    ['?preset=cat&cell=S.5.5', null, null, null, null, 'The link’s cell=S.5.5 was ignored: S has 5 rows and 5 columns.'],
    ['?preset=worked-example&cell=Wq.0.0', null, null, null, null, 'The link’s cell=Wq.0.0 was ignored: this head is given as Q, K and V, so it has no Wq.'],
    ['?preset=cat&theme=blue', null, null, null, null, 'The link’s theme=blue was ignored: the theme is light or dark.'],
    ['?preset=cat&step=&follow=&cell=&theme=', null, null, null, null, ''], // empty: absent, nothing to say
    ['?preset=cat&step=mix&follow=99&cell=O.4.0&theme=dark', 'mix', null, { m: 'O', i: 4, j: 0 }, 'dark', 'The link’s follow=99 was ignored: this head has 5 tokens, rows 0 to 4.'],
    // several: one sentence each, in the link's own order (step, follow, cell, theme)
    ['?preset=cat&theme=blue&cell=O.40.7&follow=9&step=sofmax', null, null, null, null,
      'The link’s step=sofmax was ignored: the steps are project, score, scale, mask, softmax and mix. The link’s follow=9 was ignored: this head has 5 tokens, rows 0 to 4. '
      + 'The link’s cell=O.40.7 was ignored: O has 5 rows and 4 columns. The link’s theme=blue was ignored: the theme is light or dark.'],
  ];
  for (const [search, step, follow, sel, theme, said] of cases) {
    const state = S.createState();
    const change = S.fromUrl(state, readUrlState(search, ''));
    assert.deepEqual([state.preset ?? state.origin, state.step, state.follow, state.sel, state.urlTheme, change.error], [/preset=([^&]*)/.exec(search)?.[1] ?? DEFAULT_PRESET, step, follow, sel, theme, said], search);
  }
  // one token: "1 token, row 0"; a bad preset's message comes first, the parameters' after it
  const one = S.createState();
  S.setConfig(one, { tokens: ['a'], Q: [[1]], K: [[1]], V: [[1]] });
  assert.equal(S.fromUrl(S.createState(), readUrlState('', S.urlOf(one) + '&follow=1')).error, 'The link’s follow=1 was ignored: this head has 1 token, row 0.');
  assert.equal(reopen(`?preset=${NO_SUCH}&cell=O.9.0`).change.error, `${noSuchSaid} The link’s cell=O.9.0 was ignored: O has 5 rows.`);
  // a long value is clipped, and stays text
  assert.equal(reopen('?preset=cat&theme=' + 'x'.repeat(60)).change.error, `The link’s theme=${'x'.repeat(39)}… was ignored: the theme is light or dark.`);
  assert.equal(S.ignoredText([]), '');
  const empty = reopen('');
  assert.deepEqual([empty.state.preset, empty.change.error, empty.change.badConfig], ['cat', '', null], 'no link: the default preset, no message');
});

test('a bad preset or config in the link: the default preset, and a message that says what to fix', () => {
  const unknown = reopen(`?preset=${NO_SUCH}&step=score`);
  assert.equal(unknown.change.error, noSuchSaid);
  assert.deepEqual([unknown.state.preset, unknown.state.step, unknown.change.badConfig], [DEFAULT_PRESET, 'score', null]);
  const big = reopen('#config=' + encodeURIComponent(JSON.stringify({ X: [[1, 2]], Wq: [[1]], Wk: [[1]], Wv: [[1]] })));
  assert.match(big.change.error, /^The config in the link was not used: .+ Showing the preset “The cat sat on the” instead; fix the config below and press Apply\.$/);
  assert.equal(big.state.preset, 'cat');
  assert.equal(big.change.badConfig, JSON.stringify({ X: [[1, 2]], Wq: [[1]], Wk: [[1]], Wv: [[1]] }));
});

test('the element’s start: no preset named is the default without a word; a config is used as given; follow must be a whole row number in range', () => {
  const state = S.createState();
  assert.deepEqual(S.fromOptions(state, {}), { compute: true, error: '' });
  assert.deepEqual([state.preset, state.config.causal, state.rev, state.step], ['cat', true, 1, null]);
  const own = S.createState();
  assert.deepEqual(S.fromOptions(own, { config: { X: [[1]], Wq: [[1]], Wk: [[1]], Wv: [[1]] }, step: 'nonsense' }),
    { compute: true, error: 'The step="nonsense" attribute was ignored: the steps are project, score, scale, mask, softmax and mix.' });
  assert.deepEqual([own.preset, own.config.X, own.step], [null, [[1]], null]);
  assert.equal(S.fromOptions(S.createState(), { preset: NO_SUCH }).error, noSuchSaid);
  for (const [follow, want] of [[0, 0], [4, 4], [5, null], [-1, null], [2.5, null], ['2', 2], ['2.5', null], ['5', null], [null, null], [undefined, null]]) {
    const s = S.createState();
    S.fromOptions(s, { preset: 'cat', follow });
    assert.equal(s.follow, want, String(follow));
  }
  const off = S.createState();
  S.fromOptions(off, { preset: 'cat', causal: false });
  assert.equal(off.config.causal, false);
});

test('a config in the link that must be fixed: the message names the entry or key, what it is, and what it must be', () => {
  const head = { Wq: [[1]], Wk: [[1]], Wv: [[1]] };
  const cases = [
    [{ X: [[1, null]], ...head }, '"X" row 1, column 2 is null: every entry must be a finite number.'],
    [{ X: [[1], [{}]], ...head }, '"X" row 2, column 1 is an object: every entry must be a finite number.'],
    [{ X: [[[1]]], ...head }, '"X" row 1, column 1 is an array: every entry must be a finite number.'],
    [{ X: [[true]], ...head }, '"X" row 1, column 1 is true: every entry must be a finite number.'],
    [{ X: [['x'.repeat(30)]], ...head }, `"X" row 1, column 1 is "${'x'.repeat(23)}…": every entry must be a finite number.`],
    [{ X: [[1]], Wq: [[1]], Wk: [[1, 2]], Wv: [[1]] }, '"Wk" has 2 columns but must have 1 (keys and queries have the same width, the columns of Wq).'],
    [{ Q: [[1]], K: [[1, 2]], V: [[1]] }, '"K" has 2 columns but must have 1 (keys and queries have the same width, the columns of Q).'],
    [{ X: [[1]], ...head, a: 1, b: 1, c: 1, d: 1 }, 'Unknown keys "a", "b", "c", "d": the allowed keys are tokens, features, X, Wq, Wk, Wv, Q, K, V, causal, scale.'],
    [{ X: [[1]], ...head, a: 1, b: 1, c: 1, d: 1, e: 1 }, 'Unknown keys "a", "b", "c", "d", "e": the allowed keys are tokens, features, X, Wq, Wk, Wv, Q, K, V, causal, scale.'],
    [{ X: [[1]], ...head, a: 1, b: 1, c: 1, d: 1, e: 1, f: 1 }, 'Unknown keys "a", "b", "c", "d", "e" and 1 more: the allowed keys are tokens, features, X, Wq, Wk, Wv, Q, K, V, causal, scale.'],
  ];
  for (const [config, why] of cases) {
    const text = JSON.stringify(config);
    const { state, change } = reopen('#config=' + encodeURIComponent(text) + '&step=score');
    assert.equal(change.error, `The config in the link was not used: ${why} Showing the preset “The cat sat on the” instead; fix the config below and press Apply.`);
    assert.deepEqual([state.preset, state.step, change.badConfig], ['cat', 'score', text], 'the rest of the link still applies');
  }
});

test('readUrlState drops only a leading “#” of the hash', () => {
  assert.equal(readUrlState('', '#step=mix').step, 'mix');
  assert.equal(readUrlState('', 'step=mix').step, 'mix');
  assert.equal(readUrlState('', 'step=mix#').step, null, '“mix#” is no step');
});

test('a cell in a link must lie in its matrix of this head: the last row and column are in, one past either is dropped', () => {
  // cat: X 5 × 4 (tokens × features), Wq, Wk, Wv 4 × 4, Q, K, V 5 × 4, S, M, A 5 × 5, O 5 × 4
  const cat = parseConfig(PRESETS.cat.config);
  const catShapes = { X: [5, 4], Wq: [4, 4], Wk: [4, 4], Wv: [4, 4], Q: [5, 4], K: [5, 4], V: [5, 4], S: [5, 5], M: [5, 5], A: [5, 5], O: [5, 4] };
  // the worked example, given as Q, K, V: 3 × 2 each, S, M, A 3 × 3, O 3 × 2, and no X or weights
  const worked = parseConfig(PRESETS['worked-example'].config);
  const workedShapes = { X: null, Wq: null, Wk: null, Wv: null, Q: [3, 2], K: [3, 2], V: [3, 2], S: [3, 3], M: [3, 3], A: [3, 3], O: [3, 2] };
  for (const [head, shapes] of [[cat, catShapes], [worked, workedShapes]]) {
    for (const [m, shape] of Object.entries(shapes)) {
      if (!shape) { assert.equal(S.cellIn(head, { m, i: 0, j: 0 }), false, `${m}: this head has none`); continue; }
      const [rows, cols] = shape;
      assert.equal(S.cellIn(head, { m, i: rows - 1, j: cols - 1 }), true, `${m}: last cell`);
      assert.equal(S.cellIn(head, { m, i: rows, j: 0 }), false, `${m}: one row past`);
      assert.equal(S.cellIn(head, { m, i: 0, j: cols }), false, `${m}: one column past`);
    }
  }
  // dk ≠ dv, given directly: Q and K 2 × 1, V 2 × 3
  const wide = parseConfig({ Q: [[1], [2]], K: [[1], [0]], V: [[1, 0, 1], [0, 1, 1]] });
  assert.deepEqual(['Q', 'K', 'V', 'O', 'S'].map((m) => S.cellIn(wide, { m, i: 1, j: 2 })), [false, false, true, true, false]);
  assert.deepEqual(['Q', 'K', 'V', 'O', 'S'].map((m) => S.cellIn(wide, { m, i: 1, j: 0 })), [true, true, true, true, true]);
  // d = 3, dk = 2, dv = 1 from X and weights: X 2 × 3, Wq and Wk 3 × 2, Wv 3 × 1, Q and K 2 × 2, V and O 2 × 1
  const proj = parseConfig({ X: [[1, 0, 0], [0, 1, 0]], Wq: [[1, 0], [0, 1], [0, 0]], Wk: [[1, 0], [0, 1], [0, 0]], Wv: [[1], [0], [0]] });
  const edge = (m) => [[0, 0], [1, 0], [2, 0], [0, 1], [0, 2]].filter(([i, j]) => S.cellIn(proj, { m, i, j })).length;
  assert.deepEqual(['X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'O', 'S'].map(edge), [4, 4, 4, 3, 3, 3, 2, 2, 3]);
  // from a link: the cell outside is dropped, and the cursor is not asked for
  const out = reopen('?preset=cat&cell=O.40.0');
  assert.deepEqual([out.state.sel, out.change.restoreCursor, S.urlOf(out.state)], [null, false, '?preset=cat']);
  const wq = reopen('?preset=worked-example&cell=Wq.0.0');
  assert.deepEqual([wq.state.sel, S.urlOf(wq.state)], [null, '?preset=worked-example']);
  const inside = reopen('?preset=worked-example&cell=A.2.2');
  assert.deepEqual([inside.state.sel, inside.change.restoreCursor], [{ m: 'A', i: 2, j: 2 }, true]);
});
