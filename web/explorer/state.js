// @ts-nocheck: not typed yet (issue 12, point 3); remove this line once tsc passes on this file
// explorer/state.js: the explorer's state, the actions that change it and the values derived
// from it. Plain data and pure functions: no DOM, no Wasm, no timers (tests/explorer-state.test.mjs
// runs it in Node). The shape follows TensorFlow Playground's state.ts: one record, named actions,
// serialize to the URL and back.
//
// Every action changes `state` in place and returns what the page must do about it (a Change), or
// null when nothing changed:
//   { compute?, values?, url?, rebuild?, tokens?, error?, emit?, scroll?, badConfig?, restoreCursor? }
//   compute   the head's numbers changed: run the core again
//   values    the drawn values changed without a new computation (step, theme)
//   url       the page's link changed
//   rebuild   the panels' layout may have changed (new head): build them afresh
//   tokens    the token chips and editor must be redrawn even if the names look the same
//   error     show this message ('' hides the message)
//   emit      [[type, detail], ...]: events for the host (mountExplorer's options.emit); a detail
//             that is a function is called to make it, only when there is a listener
//   scroll    a step whose matrix should scroll into view
//   badConfig config text that failed to parse, to put back in the config box
//   restoreCursor  the selected cell should get the keyboard cursor once drawn

import { list } from '../words.js';
import { LIMITS } from '../attention.js';
import { parseConfig, cloneConfig, isDirect, STEPS, MAX_NAME, writeUrlState } from '../config.js';
import { PRESETS, DEFAULT_PRESET } from '../presets.js';

export const LIM = Object.freeze({ maxTokens: Math.min(256, LIMITS.maxTokens), maxWidth: LIMITS.maxWidth });

/** The control groups a host can show or hide ("classroom mode"). `link` exists on the page only. */
export const CONTROLS = ['presets', 'theme', 'link', 'steps', 'follow', 'explain', 'edit', 'config', 'export'];

/**
 * The matrix panels in the lesson's order, in two rows: [title, panels, folded panels]. The
 * folded ones (the learned weights) sit in a strip that opens on demand.
 */
export const GROUPS = [
  ['Input → 1. Project', ['X', 'Q', 'K', 'V'], ['Wq', 'Wk', 'Wv']],
  ['2–6. Score, scale, mask, softmax, mix', ['S', 'M', 'A', 'O'], []],
];
/** The step (index in STEPS) at which each computed matrix first exists. */
export const PRODUCED_AT = { Q: 0, K: 0, V: 0, S: 1, M: 3, A: 4, O: 5 };
/** Matrices with one row per token: a row can be followed. */
export const TOKEN_ROWS = new Set(['X', 'Q', 'K', 'V', 'S', 'M', 'A', 'O']);
/** Above this many tokens, chips and the token editor give way to compact controls. */
export const MANY = 32;

const own = (obj, key) => key != null && Object.prototype.hasOwnProperty.call(obj, key);
export const hasPreset = (name) => own(PRESETS, name);
const noPreset = (name) => `There is no preset called “${name}”; the presets are ${list(Object.keys(PRESETS))}.`;

/** A new state: no head yet (a preset or config is loaded once the core is there). */
export function createState({ theme = 'light', reducedMotion = false } = {}) {
  return {
    preset: DEFAULT_PRESET, // name while the head is an unchanged preset, else null
    origin: null, // the preset the head started as (kept while the learner changes it), or null
    base: null, // the config "Reset" goes back to
    config: null,
    step: null, // null = all steps shown
    playing: false,
    follow: null,
    sel: null, // { m, i, j }: the selected (clicked, focused) cell
    hover: null,
    themeSetting: 'auto', // 'auto' follows prefers-color-scheme
    theme,
    controls: new Set(CONTROLS),
    extra: null, // showHead's extra for the cell explanations (a trained head's gradients)
    weightsOpen: false, // the learned weights Wq, Wk, Wv are folded into a strip until opened
    weightsChosen: false, // the learner opened or folded them (a trained head opens them otherwise)
    tour: null, // the guided tour's stop (0-3), or null
    leak: null, // the leak check: { base: the config its "before" is computed from }, or null
    reducedMotion, // the reader asked for reduced motion: play steps only on demand
    urlTheme: null, // the theme the link asked for (kept in the link), or null
    rev: 0, // counts changes of the config, so a view can tell the head changed without comparing it
  };
}

// ------------------------------------------------------------------------------ derived values

export const can = (state, group) => state.controls.has(group);

/** The matrices the learner may edit now (none without the "edit" controls). */
export function editable(state) {
  if (!can(state, 'edit') || !state.config) return new Set();
  return new Set(isDirect(state.config) ? ['Q', 'K', 'V'] : ['X', 'Wq', 'Wk', 'Wv']);
}

/** The groups drawn for a config: [[title, [m, ...], [folded m, ...]], ...] (no X or W in the direct form). */
export function shownGroups(config) {
  if (!isDirect(config)) return GROUPS;
  return [['1. Q, K and V, given directly', ['Q', 'K', 'V'], []], GROUPS[1]];
}

/** The matrices whose rows are the tokens' own inputs (edited together when a token is added). */
export const tokenInputs = (config) => (isDirect(config) ? ['Q', 'K', 'V'] : ['X']);

const sameCell = (a, b) => (a && b ? a.m === b.m && a.i === b.i && a.j === b.j : a === b);
export { sameCell };

const sameConfig = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What changed from `base` to `config`: { causal, scale } (the new value, or undefined when
 * unchanged), renamed (token indices), values ({ X: 2, Wq: 1 }: how many numbers of each input
 * changed), tokens ([before, after] when tokens were added or removed).
 */
export function changesOf(base, config) {
  const out = { causal: undefined, scale: undefined, renamed: [], values: {}, tokens: null };
  if (base.causal !== config.causal) out.causal = config.causal;
  if (base.scale !== config.scale) out.scale = config.scale;
  if (base.tokens.length !== config.tokens.length) {
    out.tokens = [base.tokens.length, config.tokens.length];
    return out;
  }
  base.tokens.forEach((t, i) => t !== config.tokens[i] && out.renamed.push(i));
  for (const m of ['X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V']) {
    if (!base[m] || !config[m]) continue;
    let k = 0;
    base[m].forEach((row, i) => row.forEach((v, j) => (k += v !== config[m][i][j])));
    if (k) out.values[m] = k;
  }
  return out;
}

/** The guided tour follows the widget page's walk through the cat preset: it needs that head. */
export const TOUR_STOPS = 4;
export const tourAvailable = (state) => state.preset === 'cat';

/** The name of the preset a config is exactly, or null. */
export function presetOf(config) {
  const key = JSON.stringify(config);
  return Object.keys(PRESETS).find((k) => JSON.stringify(parseConfig(PRESETS[k].config, LIM)) === key) || null;
}

/** The search + hash part of the page's link for this state. */
export function urlOf(state) {
  return writeUrlState({
    preset: state.preset, config: state.config, from: state.preset ? null : state.origin,
    step: state.step, follow: state.follow, cell: state.sel, theme: state.urlTheme,
  });
}

/** The step index the page is at (STEPS.length when every step is shown). */
export const stepIndex = (state) => (state.step ? STEPS.indexOf(state.step) : STEPS.length);

// ------------------------------------------------------------------------------ actions

// The 'change' event carries a copy of the config, made only if someone listens (a function
// detail is called when the event is emitted, with the config as it is at this action).
const changeEvent = (state) => {
  const config = state.config;
  return ['change', () => ({ config: cloneConfig(config) })];
};

/** A new head replaces the old one: nothing of the old selection is kept. */
function newHead(state) {
  state.rev++;
  state.playing = false;
  state.tour = null;
  if (state.leak) state.leak = { base: cloneConfig(state.config) };
  return { compute: true, url: true, rebuild: true, tokens: true, error: '', emit: [changeEvent(state)] };
}

function usePreset(state, name) {
  state.preset = state.origin = name;
  state.base = parseConfig(PRESETS[name].config, LIM);
  state.config = cloneConfig(state.base);
  state.follow = state.sel = state.hover = null;
}

// A config; `from` names the preset it was changed from (a link's from=), which "Reset" returns to.
function useConfig(state, cfg, from = null) {
  state.origin = hasPreset(from) ? from : null;
  state.base = state.origin ? parseConfig(PRESETS[from].config, LIM) : cfg;
  state.config = cloneConfig(cfg);
  state.preset = state.origin && sameConfig(state.config, state.base) ? state.origin : null;
  state.follow = state.sel = state.hover = null;
}

/** Loads a preset by name (throws for an unknown one). `fromStart` also shows every step again. */
export function setPreset(state, name, { fromStart = false } = {}) {
  if (!hasPreset(name)) throw new Error(noPreset(name));
  usePreset(state, name);
  if (fromStart) state.step = null;
  return newHead(state);
}

/** Loads a config (JSON text or object; untrusted: parsed strictly, throws ConfigError). */
export function setConfig(state, input) {
  const cfg = parseConfig(input, LIM);
  useConfig(state, cfg);
  return newHead(state);
}

/**
 * New numbers for the same head (a head that changes under the learner, e.g. while it trains):
 * the step, the followed row and the selected cell stay wherever they still fit. `extra` goes to
 * every cell explanation until the next showHead.
 */
export function showHead(state, input, extra = null) {
  const cfg = parseConfig(input, LIM);
  state.rev++;
  state.preset = state.origin = null;
  state.tour = null;
  state.base = cfg;
  state.config = cloneConfig(cfg);
  // A head that changes under the learner (training) changes in its weights: show them, unless
  // the learner has folded them.
  if (!state.weightsChosen) state.weightsOpen = true;
  state.extra = extra;
  if (state.follow != null && state.follow >= cfg.tokens.length) state.follow = null;
  return { compute: true, url: true };
}

/** Back to where the head started (a preset, or the config that was loaded). */
export function reset(state) {
  state.rev++;
  state.config = cloneConfig(state.base);
  state.preset = state.origin || presetOf(state.base);
  state.origin = state.preset;
  state.sel = state.hover = null;
  state.tour = null;
  return { compute: true, url: true, tokens: true, error: '', emit: [changeEvent(state)] };
}

/** The head changed by an edit: an unchanged preset again only if the edit went back to it. */
function modified(state) {
  state.rev++;
  state.preset = state.origin && sameConfig(state.config, state.base) ? state.origin : null;
  state.tour = null;
  return { compute: true, url: true, emit: [changeEvent(state)] };
}

export function setCausal(state, on) {
  state.config.causal = Boolean(on);
  return modified(state);
}

export function setScaling(state, on) {
  state.config.scale = on ? null : 1;
  return modified(state);
}

/** The keys M and S: the causal mask and the scaling, on or off. */
export const toggleCausal = (state) => setCausal(state, !state.config.causal);
export const toggleScaling = (state) => setScaling(state, state.config.scale !== null);

/** Sets one input value (rounded to 6 decimals); ignored for a matrix that cannot be edited. */
export function setValue(state, m, i, j, v) {
  if (!Number.isFinite(v) || !editable(state).has(m)) return null;
  state.config[m][i][j] = Math.round(v * 1e6) / 1e6;
  return modified(state);
}

/** Adds delta to an input value (rounded to 3 decimals). */
export function nudge(state, cell, delta) {
  if (!cell || !editable(state).has(cell.m)) return null;
  return setValue(state, cell.m, cell.i, cell.j, Math.round((state.config[cell.m][cell.i][cell.j] + delta) * 1000) / 1000);
}

export function renameToken(state, k, name) {
  state.config.tokens[k] = String(name).slice(0, MAX_NAME);
  return modified(state);
}

export function addToken(state) {
  const c = state.config;
  if (c.tokens.length >= LIM.maxTokens) return { error: `A head can have at most ${LIM.maxTokens} tokens here.` };
  c.tokens.push('new');
  for (const m of tokenInputs(c)) c[m].push(new Array(c[m][0].length).fill(0));
  return modified(state);
}

export function removeToken(state, i) {
  const c = state.config;
  if (c.tokens.length <= 1) return null;
  c.tokens.splice(i, 1);
  for (const m of tokenInputs(c)) c[m].splice(i, 1);
  if (state.follow != null && state.follow >= c.tokens.length) state.follow = null;
  state.sel = state.hover = null;
  return modified(state);
}

/** Shows one step (a name from STEPS) or, with null, every step at once. */
export function setStep(state, step) {
  if (step !== null && !STEPS.includes(step)) return null;
  const changed = state.step !== step;
  state.step = step;
  return { values: true, url: true, emit: changed ? [['step', { step }]] : [], scroll: step };
}

/** One step back or forward (stops playing); past the last step every step is shown. */
export function stepBy(state, delta) {
  state.playing = false;
  const next = Math.max(0, Math.min(STEPS.length, stepIndex(state) + delta));
  return setStep(state, next === STEPS.length ? null : STEPS[next]);
}

export function stop(state) {
  if (!state.playing) return null;
  state.playing = false;
  return {};
}

/** Play or pause; with reduced motion, one step forward each press (nothing moves by itself). */
export function togglePlay(state) {
  if (state.playing) return stop(state);
  if (state.reducedMotion) return setStep(state, state.step == null ? 'project' : STEPS[STEPS.indexOf(state.step) + 1] ?? null);
  const change = !state.step || state.step === 'mix' ? setStep(state, 'project') : {};
  state.playing = true;
  return change;
}

/** One tick of play: the next step, or stop after the last. */
export function playTick(state) {
  const k = STEPS.indexOf(state.step);
  if (k >= STEPS.length - 1) return stop(state);
  return setStep(state, STEPS[k + 1]);
}

/** Follows token row i (null: no row); out-of-range rows follow nothing. */
export function setFollow(state, i) {
  const n = state.config ? state.config.tokens.length : 0;
  const f = i != null && Number.isInteger(i) && i >= 0 && i < n ? i : null;
  if (f === state.follow) return null;
  state.follow = f;
  return { url: true, emit: [['select', { follow: f, cell: state.sel && { ...state.sel } }]] };
}

/** A click on a token: follow it, or stop following it. */
export const toggleFollow = (state, i) => setFollow(state, state.follow === i ? null : i);

export function select(state, cell) {
  const changed = !sameCell(cell, state.sel);
  state.sel = cell;
  return { url: true, emit: changed ? [['select', { follow: state.follow, cell: cell && { ...cell } }]] : [] };
}

export function setHover(state, cell) {
  if (sameCell(cell, state.hover)) return null;
  state.hover = cell;
  return {};
}

export function setTheme(state, setting, systemDark) {
  state.themeSetting = setting === 'dark' || setting === 'light' ? setting : 'auto';
  return applySystemTheme(state, systemDark);
}

/** The theme in effect, after the setting or (with "auto") the system's preference. */
export function applySystemTheme(state, systemDark) {
  const was = state.theme;
  state.theme = state.themeSetting === 'auto' ? (systemDark ? 'dark' : 'light') : state.themeSetting;
  return was !== state.theme ? { values: true } : {};
}

export function setControls(state, list, { page }) {
  state.controls = new Set(list.filter((c) => CONTROLS.includes(c)));
  if (!page) state.controls.delete('link');
  if (!can(state, 'steps')) state.playing = false;
  return { values: true };
}

/** Opens or folds the strip of learned weights (Wq, Wk, Wv). */
export function toggleWeights(state) {
  state.weightsOpen = !state.weightsOpen;
  state.weightsChosen = true;
  return {};
}

/** The guided tour: start at stop 0 (following the last “the”), move, or end it. */
export function startTour(state) {
  if (!tourAvailable(state)) return null;
  state.tour = 0;
  state.playing = false;
  state.step = null;
  state.follow = state.config.tokens.length - 1;
  state.hover = null;
  return { values: true, url: true, tour: true, emit: [['select', { follow: state.follow, cell: state.sel && { ...state.sel } }]] };
}
export function tourTo(state, k) {
  if (state.tour == null) return null;
  state.tour = k >= 0 && k < TOUR_STOPS ? k : null;
  return { tour: true };
}
export const endTour = (state) => tourTo(state, -1);

/** The leak check: on, it compares O with O as it was when it was turned on (or the head was replaced). */
export function toggleLeak(state) {
  state.leak = state.leak ? null : { base: cloneConfig(state.config) };
  return { compute: true };
}

/** A link that named a theme keeps naming the one the reader picked. */
export function setUrlTheme(state, theme) {
  state.urlTheme = theme;
  return { url: true };
}

/**
 * The theme setting to start with: the link's theme=, else the element's attribute (light or
 * dark), else the reader's remembered choice, else "auto".
 */
export function startTheme({ url = null, attribute = null, stored = null } = {}) {
  for (const t of [url, attribute, stored]) if (t === 'light' || t === 'dark') return t;
  return 'auto';
}

// The first head: a config if there is one (throws ConfigError), else the preset named, else the
// default preset. Returns a note when a preset was named that does not exist.
function startWith(state, config, preset, from = null) {
  if (config != null) return useConfig(state, parseConfig(config, LIM), from), '';
  if (hasPreset(preset)) return usePreset(state, preset), '';
  usePreset(state, DEFAULT_PRESET);
  return preset ? `${noPreset(preset).slice(0, -1)}. Showing “${DEFAULT_PRESET}”.` : '';
}

/** The page's start from its link (readUrlState's result). Never throws: a bad link says why. */
export function fromUrl(state, u) {
  let error = '', badConfig = null;
  try {
    error = startWith(state, u.configText, u.preset, u.from);
  } catch (e) {
    error = `The config in the link was not used: ${e.message} Showing the “${DEFAULT_PRESET}” preset instead; fix the config below and press Apply.`;
    usePreset(state, DEFAULT_PRESET);
    badConfig = u.configText;
  }
  state.step = u.step;
  const n = state.config.tokens.length;
  state.follow = u.follow != null && u.follow < n ? u.follow : null;
  state.sel = u.cell;
  state.urlTheme = u.theme;
  state.rev++;
  return { compute: true, rebuild: true, tokens: true, error, badConfig, restoreCursor: Boolean(state.sel) };
}

/** The element's start: preset or config from the host's attributes. Never throws. */
export function fromOptions(state, init) {
  let error = '';
  try {
    error = startWith(state, init.config, init.preset);
  } catch (e) {
    error = `The config was not used: ${e.message}`;
    usePreset(state, DEFAULT_PRESET);
  }
  if (typeof init.causal === 'boolean') state.config.causal = init.causal;
  state.rev++;
  state.step = STEPS.includes(init.step) ? init.step : null;
  const n = state.config.tokens.length;
  state.follow = Number.isInteger(init.follow) && init.follow >= 0 && init.follow < n ? init.follow : null;
  return { compute: true, error };
}
