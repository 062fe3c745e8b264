// The explorer's state module (web/explorer/state.js) in Node, without a DOM: every action
// changes the plain state record and says what the page must do about it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../web/explorer/state.js';
import { readUrlState, STEPS } from '../web/config.js';
import { PRESETS } from '../web/presets.js';

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
  const unknown = S.fromUrl(S.createState(), readUrlState('?preset=dog', ''));
  assert.match(unknown.error, /There is no preset called “dog”; the presets are cat, worked-example and previous-token\. Showing “cat”\./);
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
  assert.deepEqual(S.changesOf(state.base, state.config), { causal: undefined, scale: 1, renamed: [2], values: { X: 1 }, tokens: null });
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
  S.toggleLeak(state);
  assert.equal(state.leak, null);
});

test('the weights start folded; a trained head (showHead) opens them unless the learner folded them', () => {
  const state = fresh();
  assert.equal(state.weightsOpen, false);
  S.showHead(state, PRESETS.cat.config);
  assert.equal(state.weightsOpen, true);
  S.toggleWeights(state);
  S.showHead(state, PRESETS.cat.config);
  assert.equal(state.weightsOpen, false);
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
