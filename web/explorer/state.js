// explorer/state.js: the explorer's state, the actions that change it and the values derived
// from it. Plain data and pure functions: no DOM, no Wasm, no timers (tests/explorer/state.test.mjs
// runs it in Node). The shape follows TensorFlow Playground's state.ts: one record, named actions,
// serialize to the URL and back.
//
// Every action changes `state` in place and returns what the page must do about it (a Change), or
// null when nothing changed:
//   { compute?, values?, url?, rebuild?, tokens?, error?, seen?, emit?, scroll?, wholeHead?, badConfig?, restoreCursor?, focusTour? }
//   compute   the head's numbers changed: run the core again
//   values    the drawn values changed without a new computation (step, theme)
//   url       the page's link changed
//   rebuild   the panels' layout may have changed (new head): build them afresh
//   tokens    the token chips and editor must be redrawn even if the names look the same
//   error     show this message ('' hides the message)
//   seen      the learner acted on the head (an edit, a cell, a token, a step): a note goes
//   emit      [[type, detail], ...]: events for the host (mountExplorer's options.emit); a detail
//             that is a function is called to make it, only when there is a listener
//   scroll    a step whose matrix should scroll into view
//   wholeHead the weights opened: every matrix into view if the window holds them
//   badConfig config text that failed to parse, to put back in the config box
//   restoreCursor  the selected cell should get the keyboard cursor once drawn
//   focusTour the tour just started: its stop takes the focus once drawn (Next is a Tab away)

import { list, count as countOf } from '../blocks/words.js';
import { LIMITS } from '../core/attention.js';
import { parseConfig, readConfig, cloneConfig, isDirect, STEPS, MAX_NAME, UNNAMED, writeUrlState, readUrlState, writePlanes } from '../blocks/config.js';
import { PRESETS, DEFAULT_PRESET } from '../blocks/presets.js';

/** @typedef {import('../../types/config').Config} Config */
/** @typedef {import('../../types/config').ConfigInput} ConfigInput */
/** @typedef {import('../../types/config').Cell} Cell */
/** @typedef {import('../../types/config').Step} Step */
/** @typedef {import('../../types/config').MatrixName} MatrixName */
/** @typedef {import('../../types/config').UrlState} UrlState */
/** @typedef {import('../../types/presets').PresetName} PresetName */
/** @typedef {import('../blocks/colors.js').Theme} Theme */
/** @typedef {Theme | 'auto'} ThemeSetting */
/** A row of panels: [title, panels, folded panels]. @typedef {[string, MatrixName[], MatrixName[]]} Group */
/** An event for the host: [type, detail]; a function detail is called to make it. @typedef {[string, unknown]} Emit */
/**
 * What an action asks the page to do (the list at the top of this file).
 * @typedef {{ compute?: boolean, values?: boolean, url?: boolean, rebuild?: boolean, tokens?: boolean,
 *   tour?: boolean, error?: string, seen?: boolean, emit?: Emit[], scroll?: Step | null, wholeHead?: boolean, badConfig?: string | null,
 *   restoreCursor?: boolean, focusTour?: boolean }} Change
 */
/**
 * The element's start (fromOptions). A step is checked; a follow is a row number (one outside the
 * head is dropped) or the element's attribute text (checked, and said when it is left out).
 * `geometry`, the element's params in mode="geometry" ("geometry=2.0.0.1", or "" for the first
 * planes), opens the geometry view; planes it cannot read are said, as a link's are.
 * @typedef {{ preset?: string | null, config?: string | ConfigInput | null, causal?: boolean | null, step?: string | null, follow?: number | string | null,
 *   geometry?: string | null }} StartOptions
 */
/**
 * The explorer's state (createState). `config` and `base` are null only until the first head is
 * loaded (fromUrl, fromOptions, setPreset, setConfig); every other action runs after that.
 * @typedef {{
 *   preset: PresetName | null, origin: PresetName | null, base: Config | null, config: Config | null,
 *   step: Step | null, playing: boolean, follow: number | null, sel: Cell | null, hover: Cell | null,
 *   themeSetting: ThemeSetting, theme: Theme, controls: Set<string>, extra: import('../blocks/explain.js').Extra | null,
 *   weightsOpen: boolean, weightsChosen: boolean, tour: number | null, leak: { base: Config } | null,
 *   reducedMotion: boolean, urlTheme: Theme | null, rev: number, pasted: Pasted | null,
 *   geometry: import('../../types/config').Planes | null }} State
 */
/**
 * How the head in the config box was read when it was printed tensors: which settings the text
 * gave itself (else scaled_dot_product_attention's defaults: no causal mask, 1/√dk) and which
 * names it kept from the head shown before (a printout names neither tokens nor features).
 * @typedef {{ causal: boolean, scale: boolean, kept: ('tokens' | 'features')[] }} Pasted
 */

/** The head shown: there is one once the first head is loaded (see State). @param {State} state */
export const headOf = (state) => /** @type {Config} */ (state.config);
/** @param {unknown} x @returns {x is Step} */
const isStep = (x) => /** @type {readonly unknown[]} */ (STEPS).includes(x);
/** A config's matrices by name (the inputs and, in the direct form, Q, K and V). @param {Config} config */
const matricesOf = (config) => /** @type {Partial<Record<MatrixName, number[][]>>} */ (/** @type {unknown} */ (config));

export const LIM = Object.freeze({ maxTokens: Math.min(256, LIMITS.maxTokens), maxWidth: LIMITS.maxWidth });

/** The control groups a host can show or hide ("classroom mode"). `link` exists on the page only. */
export const CONTROLS = ['presets', 'theme', 'link', 'geometry', 'steps', 'follow', 'explain', 'edit', 'config', 'export'];

/**
 * The matrix panels in the lesson's order, in two rows: [title, panels, folded panels]. The
 * folded ones (the learned weights) sit in a strip that opens on demand.
 */
/** @type {Group[]} */
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

/** @param {object} obj @param {PropertyKey | null | undefined} key */
const own = (obj, key) => Object.prototype.hasOwnProperty.call(obj, String(key));
/** @param {string | null | undefined} name @returns {name is PresetName} */
export const hasPreset = (name) => own(PRESETS, name);
/** @param {unknown} name */
const noPreset = (name) => `There is no preset called “${name}”; the presets are ${list(Object.keys(PRESETS))}.`;

/**
 * A new state: no head yet (a preset or config is loaded once the core is there).
 * @param {{ theme?: Theme, reducedMotion?: boolean }} [options] @returns {State}
 */
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
    pasted: null, // how the config box's printed tensors were read (setConfig), until the next head
    geometry: null, // the geometry view's planes while it is shown (geometry.js), else null
  };
}

// ------------------------------------------------------------------------------ derived values

/** @param {State} state @param {string} group */
export const can = (state, group) => state.controls.has(group);

/**
 * The matrices the learner may edit now (none without the "edit" controls).
 * @param {State} state @returns {Set<string>}
 */
export function editable(state) {
  if (!can(state, 'edit') || !state.config) return new Set();
  return new Set(isDirect(state.config) ? ['Q', 'K', 'V'] : ['X', 'Wq', 'Wk', 'Wv']);
}

/**
 * The groups drawn for a config: [[title, [m, ...], [folded m, ...]], ...] (no X or W in the direct form).
 * @param {Config} config @returns {Group[]}
 */
export function shownGroups(config) {
  if (!isDirect(config)) return GROUPS;
  return [['1. Q, K and V, given directly', ['Q', 'K', 'V'], []], GROUPS[1]];
}

/**
 * The matrices whose rows are the tokens' own inputs (edited together when a token is added).
 * @param {Config} config @returns {MatrixName[]}
 */
export const tokenInputs = (config) => (isDirect(config) ? ['Q', 'K', 'V'] : ['X']);

/**
 * Whether i is a token row of a head with n tokens (a whole number from 0 to n - 1).
 * @param {unknown} i @param {number} n @returns {i is number}
 */
const isRow = (i, n) => Number.isInteger(i) && /** @type {number} */ (i) >= 0 && /** @type {number} */ (i) < n;

/** @param {Cell | null} a @param {Cell | null} b */
const sameCell = (a, b) => (a && b ? a.m === b.m && a.i === b.i && a.j === b.j : a === b);
export { sameCell };

/** @param {Config} a @param {Config} b */
const sameConfig = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What changed from `base` to `config`: { causal, scale } (the new value, or undefined when
 * unchanged), renamed (token indices, for the same number of tokens), features (renamed feature
 * indices, for the same number of features), values ({ X: 2, Wq: 1 }: how many numbers of each
 * input changed, for the same shape only), tokens ([before, after] when tokens were added or
 * removed), widths ({ d, dk, dv }: [before, after] for each width that changed).
 * @param {Config} base @param {Config} config
 */
export function changesOf(base, config) {
  /**
   * @type {{ causal: boolean | undefined, scale: number | null | undefined, renamed: number[],
   *   values: Partial<Record<MatrixName, number>>, tokens: [number, number] | null,
   *   widths: Partial<Record<'d' | 'dk' | 'dv', [number, number]>>, features: number[] }}
   */
  const out = { causal: undefined, scale: undefined, renamed: [], values: {}, tokens: null, widths: {}, features: [] };
  if (base.causal !== config.causal) out.causal = config.causal;
  if (base.scale !== config.scale) out.scale = config.scale;
  const was = shapeOf(base), now = shapeOf(config);
  if (isDirect(base) === isDirect(config))
    for (const w of /** @type {const} */ (['d', 'dk', 'dv'])) if (was[w] !== now[w]) out.widths[w] = [was[w], now[w]];
  if (base.tokens.length !== config.tokens.length) out.tokens = [base.tokens.length, config.tokens.length];
  if (!out.tokens) base.tokens.forEach((t, i) => t !== config.tokens[i] && out.renamed.push(i));
  if (!isDirect(base) && !isDirect(config) && !out.widths.d) base.features.forEach((f, j) => f !== config.features[j] && out.features.push(j));
  if (out.tokens || Object.keys(out.widths).length) return out; // values of other shapes are not compared
  const mb = matricesOf(base), mc = matricesOf(config);
  for (const m of /** @type {MatrixName[]} */ (['X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V'])) {
    const b = mb[m], c = mc[m];
    if (!b || !c) continue;
    let k = 0;
    b.forEach((row, i) => row.forEach((v, j) => (k += Number(v !== c[i][j]))));
    if (k) out.values[m] = k;
  }
  return out;
}

/** The guided tour follows the widget page's walk through the cat preset: it needs that head. */
export const TOUR_STOPS = 4;
/** @param {State} state */
export const tourAvailable = (state) => state.preset === 'cat';

/**
 * The name of the preset a config is exactly, or null.
 * @param {Config} config @returns {PresetName | null}
 */
export function presetOf(config) {
  const key = JSON.stringify(config);
  const names = /** @type {PresetName[]} */ (Object.keys(PRESETS));
  return names.find((k) => JSON.stringify(parseConfig(PRESETS[k].config, LIM)) === key) || null;
}

/** The search + hash part of the page's link for this state. @param {State} state */
export function urlOf(state) {
  return writeUrlState({
    preset: state.preset, config: headOf(state), from: state.preset ? null : state.origin,
    step: state.step, follow: state.follow, cell: state.sel, theme: state.urlTheme, geometry: state.geometry,
  });
}

/**
 * The step index the page is at (STEPS.length when every step is shown).
 * @param {State} state
 */
export const stepIndex = (state) => (state.step ? STEPS.indexOf(state.step) : STEPS.length);
/** A step's index in STEPS, and -1 for null (every step shown: the next one is the first). @param {Step | null} step */
const indexOf = (step) => /** @type {readonly (Step | null)[]} */ (STEPS).indexOf(step);

// ------------------------------------------------------------------------------ actions

// The 'change' event carries a copy of the config, made only if someone listens (a function
// detail is called when the event is emitted, with the config as it is at this action).
/** @param {State} state @returns {Emit} */
const changeEvent = (state) => {
  const config = headOf(state);
  return ['change', () => ({ config: cloneConfig(config) })];
};

/**
 * A new head replaces the old one: nothing of the old selection is kept.
 * @param {State} state @returns {Change}
 */
function newHead(state) {
  state.rev++;
  state.pasted = null;
  state.playing = false;
  state.tour = null;
  if (state.leak) state.leak = { base: cloneConfig(headOf(state)) };
  return { compute: true, url: true, rebuild: true, tokens: true, error: '', emit: [changeEvent(state)] };
}

/** @param {State} state @param {PresetName} name */
function usePreset(state, name) {
  state.preset = state.origin = name;
  state.pasted = null;
  state.base = parseConfig(PRESETS[name].config, LIM);
  state.config = cloneConfig(/** @type {Config} */ (state.base));
  state.follow = state.sel = state.hover = null;
}

// A config; `from` names the preset it was changed from (a link's from=), which "Reset" returns to.
/** @param {State} state @param {Config} cfg @param {string | null} [from] */
function useConfig(state, cfg, from = null) {
  state.origin = hasPreset(from) ? from : null;
  state.pasted = null;
  state.base = state.origin ? parseConfig(PRESETS[state.origin].config, LIM) : cfg;
  state.config = cloneConfig(cfg);
  state.preset = state.origin && sameConfig(headOf(state), /** @type {Config} */ (state.base)) ? state.origin : null;
  state.follow = state.sel = state.hover = null;
}

/**
 * Loads a preset by name (throws for an unknown one). `fromStart` also shows every step again.
 * @param {State} state @param {string} name @param {{ fromStart?: boolean }} [options] @returns {Change}
 */
export function setPreset(state, name, { fromStart = false } = {}) {
  if (!hasPreset(name)) throw new Error(noPreset(name));
  usePreset(state, name);
  if (fromStart) state.step = null;
  return newHead(state);
}

/**
 * Loads a config (JSON text or object; untrusted: parsed strictly, throws ConfigError).
 * @param {State} state @param {string | ConfigInput} input @returns {Change}
 */
export function setConfig(state, input) {
  const { config: cfg, pasted } = readConfig(input, LIM);
  const kept = pasted && state.config ? keepNames(cfg, state.config) : [];
  useConfig(state, cfg);
  const change = newHead(state);
  state.pasted = pasted && { ...pasted, kept };
  return change;
}

/**
 * Printed tensors carry no names: where the head shown has as many tokens (or features), named
 * by the learner or a preset, the pasted head takes those names instead of 1, 2, ... (f1, f2,
 * ...). Returns what it kept.
 * @param {Config} cfg the pasted head (changed in place) @param {Config} shown
 * @returns {('tokens' | 'features')[]}
 */
function keepNames(cfg, shown) {
  /** @type {('tokens' | 'features')[]} */
  const kept = [];
  const named = (/** @type {readonly string[]} */ names, /** @type {(i: number) => string} */ unnamed) => names.some((t, i) => t !== unnamed(i));
  if (shown.tokens.length === cfg.tokens.length && named(shown.tokens, UNNAMED.tokens)) {
    cfg.tokens = [...shown.tokens];
    kept.push('tokens');
  }
  if (!isDirect(cfg) && !isDirect(shown) && shown.features.length === cfg.features.length && named(shown.features, UNNAMED.features)) {
    cfg.features = [...shown.features];
    kept.push('features');
  }
  return kept;
}

/**
 * New numbers for the same head (a head that changes under the learner, e.g. while it trains):
 * the step, the followed row and the selected cell stay wherever they still fit. `extra` goes to
 * every cell explanation until the next showHead.
 * @param {State} state @param {string | ConfigInput} input @param {import('../blocks/explain.js').Extra | null} [extra] @returns {Change}
 */
export function showHead(state, input, extra = null) {
  const cfg = parseConfig(input, LIM);
  state.rev++;
  state.preset = state.origin = null;
  state.tour = null;
  state.base = cfg;
  state.config = cloneConfig(cfg);
  state.pasted = null;
  // A head that changes under the learner (training) changes in its weights: show them, unless
  // the learner has folded them.
  if (!state.weightsChosen) state.weightsOpen = true;
  state.extra = extra;
  if (!isRow(state.follow, cfg.tokens.length)) state.follow = null;
  if (state.leak) state.leak = { base: cloneConfig(cfg) }; // the leak check compares with the head shown now
  return { compute: true, url: true };
}

/**
 * Back to where the head started (a preset, or the config that was loaded).
 * @param {State} state @returns {Change}
 */
export function reset(state) {
  state.rev++;
  state.config = cloneConfig(/** @type {Config} */ (state.base));
  state.preset = state.origin || presetOf(/** @type {Config} */ (state.base));
  state.origin = state.preset;
  state.sel = state.hover = null;
  state.tour = null;
  return { compute: true, url: true, tokens: true, error: '', emit: [changeEvent(state)] };
}

/**
 * The head changed by an edit: an unchanged preset again only if the edit went back to it.
 * @param {State} state @returns {Change}
 */
function modified(state) {
  state.rev++;
  state.preset = state.origin && sameConfig(headOf(state), /** @type {Config} */ (state.base)) ? state.origin : null;
  state.tour = null;
  return { compute: true, url: true, seen: true, emit: [changeEvent(state)] };
}

/** @param {State} state @param {unknown} on @returns {Change} */
export function setCausal(state, on) {
  headOf(state).causal = Boolean(on);
  return modified(state);
}

/** @param {State} state @param {unknown} on @returns {Change} */
export function setScaling(state, on) {
  headOf(state).scale = on ? null : 1;
  return modified(state);
}

/**
 * The keys M and S: the causal mask and the scaling, on or off.
 * @param {State} state
 */
export const toggleCausal = (state) => setCausal(state, !headOf(state).causal);
/** @param {State} state */
export const toggleScaling = (state) => setScaling(state, headOf(state).scale !== null);

/**
 * Sets one input value (rounded to 6 decimals); ignored for a matrix that cannot be edited.
 * @param {State} state @param {string} m @param {number} i @param {number} j @param {number} v @returns {Change | null}
 */
export function setValue(state, m, i, j, v) {
  if (!Number.isFinite(v) || !editable(state).has(m)) return null;
  /** @type {number[][]} */ (matricesOf(headOf(state))[/** @type {MatrixName} */ (m)])[i][j] = Math.round(v * 1e6) / 1e6;
  return modified(state);
}

/**
 * Sets some columns of one row of an input at once (a tip dragged in the geometry view moves two
 * numbers in one edit), each rounded to 6 decimals; ignored for a matrix that cannot be edited.
 * @param {State} state @param {string} m @param {number} i @param {readonly number[]} cols @param {readonly number[]} values @returns {Change | null}
 */
export function setRow(state, m, i, cols, values) {
  if (!editable(state).has(m) || cols.length !== values.length || !values.every(Number.isFinite)) return null;
  const row = /** @type {number[][]} */ (matricesOf(headOf(state))[/** @type {MatrixName} */ (m)])[i];
  if (!row || cols.some((c) => !(c >= 0 && c < row.length))) return null;
  const next = values.map((v) => Math.round(v * 1e6) / 1e6);
  if (cols.every((c, k) => row[c] === next[k])) return null;
  cols.forEach((c, k) => (row[c] = next[k]));
  return modified(state);
}

/** The geometry view's first planes: the first two dimensions of q and k, and of v. @returns {import('../../types/config').Planes} */
const FIRST_PLANES = () => ({ qk: [0, 1], v: [0, 1] });

/**
 * The geometry view's planes in an element's params ("geometry=2.0.0.1"; none: the first
 * planes), and, when they cannot be read, the attribute left out and why (ignoredText's form).
 * @param {string} params @returns {{ planes: import('../../types/config').Planes, ignored: import('../../types/config').IgnoredParam[] }}
 */
export function geometryParams(params) {
  const u = readUrlState('?' + params, '');
  const bad = u.ignored.find((x) => x.name === 'geometry');
  return { planes: u.geometry || FIRST_PLANES(), ignored: bad ? [{ name: 'params', value: `geometry=${bad.value}`, why: bad.why }] : [] };
}

/**
 * Shows the geometry view with these planes (true: the first two dimensions of each), or hides
 * it (null). Hosts hear 'state' with the link's form of it (the element's params).
 * @param {State} state @param {import('../../types/config').Planes | true | null} planes @returns {Change | null}
 */
export function setGeometry(state, planes) {
  const next = planes === true ? FIRST_PLANES() : planes;
  if (JSON.stringify(next) === JSON.stringify(state.geometry)) return null;
  state.geometry = next && { qk: [next.qk[0], next.qk[1]], v: [next.v[0], next.v[1]] };
  const params = state.geometry ? 'geometry=' + writePlanes(state.geometry) : '';
  return { url: true, seen: true, values: true, emit: [['state', { params }]] };
}

/** The geometry button: shows the view, or hides it. @param {State} state */
export const toggleGeometry = (state) => setGeometry(state, state.geometry ? null : true);

/**
 * The geometry view's plane of q and k ('qk') or of v ('v'): two different dimensions.
 * @param {State} state @param {'qk' | 'v'} which @param {[number, number]} dims @returns {Change | null}
 */
export function setPlane(state, which, dims) {
  if (!state.geometry || dims[0] === dims[1] || !dims.every((d) => Number.isInteger(d) && d >= -1)) return null;
  return setGeometry(state, { ...state.geometry, [which]: [dims[0], dims[1]] });
}

/**
 * Adds delta to an input value (rounded to 3 decimals).
 * @param {State} state @param {Cell | null} cell @param {number} delta
 */
export function nudge(state, cell, delta) {
  if (!cell || !editable(state).has(cell.m)) return null;
  return setValue(state, cell.m, cell.i, cell.j, Math.round((/** @type {number[][]} */ (matricesOf(headOf(state))[cell.m])[cell.i][cell.j] + delta) * 1000) / 1000);
}

/** @param {State} state @param {number} k @param {unknown} name */
export function renameToken(state, k, name) {
  headOf(state).tokens[k] = String(name).slice(0, MAX_NAME);
  return modified(state);
}

/** @param {State} state @returns {Change} */
export function addToken(state) {
  const c = headOf(state);
  if (c.tokens.length >= LIM.maxTokens) return { error: `A head can have at most ${LIM.maxTokens} tokens here.` };
  c.tokens.push('new');
  const mats = /** @type {Record<MatrixName, number[][]>} */ (matricesOf(c));
  for (const m of tokenInputs(c)) mats[m].push(new Array(mats[m][0].length).fill(0));
  return modified(state);
}

/** @param {State} state @param {number} i */
export function removeToken(state, i) {
  const c = headOf(state);
  if (c.tokens.length <= 1) return null;
  c.tokens.splice(i, 1);
  const mats = /** @type {Record<MatrixName, number[][]>} */ (matricesOf(c));
  for (const m of tokenInputs(c)) mats[m].splice(i, 1);
  if (!isRow(state.follow, c.tokens.length)) state.follow = null;
  state.sel = state.hover = null;
  return modified(state);
}

// ------------------------------------------------------------------------------ the head's shape

/**
 * A config's sizes: n tokens, d features (0 in the direct form, which has no X), dk and dv.
 * @param {Config} c @returns {{ n: number, d: number, dk: number, dv: number }}
 */
export function shapeOf(c) {
  return isDirect(c)
    ? { n: c.tokens.length, d: 0, dk: c.Q[0].length, dv: c.V[0].length }
    : { n: c.tokens.length, d: c.X[0].length, dk: c.Wq[0].length, dv: c.Wv[0].length };
}

/** The widths a learner can set, each with the matrices whose columns it counts. */
export const WIDTHS = /** @type {const} */ ({
  dk: { projected: ['Wq', 'Wk'], direct: ['Q', 'K'] },
  dv: { projected: ['Wv'], direct: ['V'] },
});
/** @typedef {keyof typeof WIDTHS} Width */

/** A name not yet in `names`: f1, f2, ... as the config format names unnamed features (UNNAMED). @param {readonly string[]} names */
const freshFeature = (names) => {
  let k = names.length;
  while (names.includes(UNNAMED.features(k))) k++;
  return UNNAMED.features(k);
};

/**
 * The head's shape changed: its panels are built anew, and a selected or hovered cell that no
 * longer exists is dropped.
 * @param {State} state @returns {Change}
 */
function reshaped(state) {
  const c = headOf(state);
  /** @param {Cell | null} cell */
  const fits = (cell) => (cell && cellIn(c, cell) ? cell : null);
  state.sel = fits(state.sel);
  state.hover = fits(state.hover);
  return { ...modified(state), rebuild: true, tokens: true };
}

/** Renames feature j (a column of X; the direct form has none). @param {State} state @param {number} j @param {unknown} name */
export function renameFeature(state, j, name) {
  const c = headOf(state);
  if (isDirect(c) || !isRow(j, c.features.length)) return null;
  c.features[j] = String(name).slice(0, MAX_NAME);
  return modified(state);
}

/**
 * Adds a feature: a column of X and a row of each of Wq, Wk and Wv, all 0, so the head computes
 * the same numbers until the learner gives the new feature values.
 * @param {State} state @returns {Change | null}
 */
export function addFeature(state) {
  const c = headOf(state);
  if (isDirect(c)) return null;
  if (c.features.length >= LIM.maxWidth) return { error: `X can have at most ${LIM.maxWidth} features here.` };
  c.features.push(freshFeature(c.features));
  for (const row of c.X) row.push(0);
  for (const W of [c.Wq, c.Wk, c.Wv]) W.push(new Array(W[0].length).fill(0));
  return reshaped(state);
}

/**
 * Removes feature j: its column of X and its row of each W (a head keeps at least one).
 * @param {State} state @param {number} j @returns {Change | null}
 */
export function removeFeature(state, j) {
  const c = headOf(state);
  if (isDirect(c) || c.features.length <= 1 || !isRow(j, c.features.length)) return null;
  c.features.splice(j, 1);
  for (const row of c.X) row.splice(j, 1);
  for (const W of [c.Wq, c.Wk, c.Wv]) W.splice(j, 1);
  return reshaped(state);
}

/**
 * Sets dk (the columns of Q and K, through Wq and Wk) or dv (of V and O, through Wv) to `width`:
 * columns past it are dropped, new ones are 0. A width outside 1 to the limit is refused with a
 * message that says the range.
 * @param {State} state @param {Width} which @param {unknown} width @returns {Change | null}
 */
export function setWidth(state, which, width) {
  const c = headOf(state);
  const w = Number(width);
  if (!Number.isInteger(w) || w < 1 || w > LIM.maxWidth) return { error: `${which} must be a whole number from 1 to ${LIM.maxWidth}; it stays ${shapeOf(c)[which]}.` };
  if (w === shapeOf(c)[which]) return null;
  const mats = /** @type {Record<string, number[][]>} */ (matricesOf(c));
  for (const m of WIDTHS[which][isDirect(c) ? 'direct' : 'projected']) {
    for (const row of mats[m]) {
      if (row.length > w) row.length = w;
      while (row.length < w) row.push(0);
    }
  }
  return reshaped(state);
}

/**
 * Shows one step (a name from STEPS) or, with null, every step at once.
 * @param {State} state @param {Step | null} step @returns {Change | null}
 */
export function setStep(state, step) {
  if (step !== null && !STEPS.includes(step)) return null;
  const changed = state.step !== step;
  state.step = step;
  return { values: true, url: true, seen: changed, emit: changed ? [['step', { step }]] : [], scroll: step };
}

/**
 * One step back or forward (stops playing); past the last step every step is shown.
 * @param {State} state @param {number} delta
 */
export function stepBy(state, delta) {
  state.playing = false;
  const next = Math.max(0, Math.min(STEPS.length, stepIndex(state) + delta));
  return setStep(state, next === STEPS.length ? null : STEPS[next]);
}

/** @param {State} state @returns {Change | null} */
export function stop(state) {
  if (!state.playing) return null;
  state.playing = false;
  return {};
}

/**
 * Play or pause; with reduced motion, one step forward each press (nothing moves by itself).
 * @param {State} state
 */
export function togglePlay(state) {
  if (state.playing) return stop(state);
  if (state.reducedMotion) return setStep(state, STEPS[indexOf(state.step) + 1] ?? null);
  const change = !state.step || state.step === 'mix' ? setStep(state, 'project') : {};
  state.playing = true;
  return change;
}

/** One tick of play: the next step, or stop after the last. @param {State} state */
export function playTick(state) {
  const k = indexOf(state.step);
  if (k >= STEPS.length - 1) return stop(state);
  return setStep(state, STEPS[k + 1]);
}

/**
 * Follows token row i (null: no row); out-of-range rows follow nothing.
 * @param {State} state @param {number | null} i @returns {Change | null}
 */
export function setFollow(state, i) {
  const n = state.config ? state.config.tokens.length : 0;
  const f = isRow(i, n) ? i : null;
  if (f === state.follow) return null;
  state.follow = f;
  return { url: true, seen: true, emit: [['select', { follow: f, cell: state.sel && { ...state.sel } }]] };
}

/**
 * A click on a token: follow it, or stop following it.
 * @param {State} state @param {number} i
 */
export const toggleFollow = (state, i) => setFollow(state, state.follow === i ? null : i);

/** @param {State} state @param {Cell | null} cell @returns {Change} */
export function select(state, cell) {
  const changed = !sameCell(cell, state.sel);
  state.sel = cell;
  return { url: true, seen: changed, emit: changed ? [['select', { follow: state.follow, cell: cell && { ...cell } }]] : [] };
}

/** @param {State} state @param {Cell | null} cell @returns {Change | null} */
export function setHover(state, cell) {
  if (sameCell(cell, state.hover)) return null;
  state.hover = cell;
  return {};
}

/** @param {State} state @param {string} setting @param {boolean} systemDark */
export function setTheme(state, setting, systemDark) {
  state.themeSetting = setting === 'dark' || setting === 'light' ? setting : 'auto';
  return applySystemTheme(state, systemDark);
}

/**
 * The theme in effect, after the setting or (with "auto") the system's preference.
 * @param {State} state @param {boolean} systemDark @returns {Change}
 */
export function applySystemTheme(state, systemDark) {
  const was = state.theme;
  state.theme = state.themeSetting === 'auto' ? (systemDark ? 'dark' : 'light') : state.themeSetting;
  return was !== state.theme ? { values: true } : {};
}

/** @param {State} state @param {readonly string[]} list @param {{ page: boolean }} where @returns {Change} */
export function setControls(state, list, { page }) {
  state.controls = new Set(list.filter((c) => CONTROLS.includes(c)));
  if (!page) state.controls.delete('link');
  if (!can(state, 'steps')) state.playing = false;
  return { values: true };
}

/**
 * Opens or folds the strip of learned weights (Wq, Wk, Wv).
 * @param {State} state @returns {Change}
 */
export function toggleWeights(state) {
  state.weightsOpen = !state.weightsOpen;
  state.weightsChosen = true;
  return { wholeHead: state.weightsOpen };
}

/**
 * The guided tour: start at stop 0 (following the last “the”), move, or end it.
 * @param {State} state @returns {Change | null}
 */
export function startTour(state) {
  if (!tourAvailable(state)) return null;
  state.tour = 0;
  state.playing = false;
  state.step = null;
  state.follow = headOf(state).tokens.length - 1;
  state.hover = null;
  return { values: true, url: true, tour: true, seen: true, focusTour: true, emit: [['select', { follow: state.follow, cell: state.sel && { ...state.sel } }]] };
}
/** @param {State} state @param {number} k @returns {Change | null} */
export function tourTo(state, k) {
  if (state.tour == null) return null;
  state.tour = k >= 0 && k < TOUR_STOPS ? k : null;
  return { tour: true };
}
/** @param {State} state */
export const endTour = (state) => tourTo(state, -1);

/**
 * The leak check: on, it compares O with O as it was when it was turned on (or the head was replaced).
 * @param {State} state @returns {Change}
 */
export function toggleLeak(state) {
  state.leak = state.leak ? null : { base: cloneConfig(headOf(state)) };
  return { compute: true };
}

/**
 * A link that named a theme keeps naming the one the reader picked.
 * @param {State} state @param {Theme | null} theme @returns {Change}
 */
export function setUrlTheme(state, theme) {
  state.urlTheme = theme;
  return { url: true };
}

/**
 * The theme setting to start with: the link's theme=, else the element's attribute (light or
 * dark), else the reader's remembered choice, else "auto".
 * @param {{ url?: string | null, attribute?: string | null, stored?: string | null }} [sources] @returns {ThemeSetting}
 */
export function startTheme({ url = null, attribute = null, stored = null } = {}) {
  for (const t of [url, attribute, stored]) if (t === 'light' || t === 'dark') return t;
  return 'auto';
}

// The first head: a config if there is one (throws ConfigError), else the preset named, else the
// default preset. Returns a note when a preset was named that does not exist.
/** @param {State} state @param {string | ConfigInput | null | undefined} config @param {string | null | undefined} preset @param {string | null} [from] @returns {string} */
function startWith(state, config, preset, from = null) {
  if (config != null) return useConfig(state, parseConfig(config, LIM), from), '';
  if (hasPreset(preset)) return usePreset(state, preset), '';
  usePreset(state, DEFAULT_PRESET);
  return preset ? `${noPreset(preset).slice(0, -1)}. Showing “${DEFAULT_PRESET}”.` : '';
}

/**
 * The shape [rows, columns] of matrix m in this head, or null when the head has no such matrix
 * (a weight of a head given as Q, K and V).
 * @param {Config} c @param {MatrixName} m @returns {[number, number] | null}
 */
function shapeIn(c, m) {
  const { n, d, dk, dv } = shapeOf(c); // one row per token, as query and as key (parseConfig)
  /** @type {Record<string, [number, number] | undefined>} */
  const shapes = { Q: [n, dk], K: [n, dk], V: [n, dv], S: [n, n], M: [n, n], A: [n, n], O: [n, dv] };
  if (!isDirect(c)) Object.assign(shapes, { X: [n, d], Wq: [d, dk], Wk: [d, dk], Wv: [d, dv] });
  return shapes[m] ?? null;
}

/**
 * Whether cell is inside its matrix in this head (a link may name a cell of another head, or a
 * weight of a head given as Q, K and V, which has none).
 * @param {Config} c @param {Cell} cell
 */
export function cellIn(c, cell) {
  return !cellOutside(c, cell);
}

/**
 * Why cell is not in this head ('' when it is): "O has 5 rows", "O has 4 columns", "O has 5 rows
 * and 4 columns", "this head is given as Q, K and V, so it has no Wq".
 * @param {Config} c @param {Cell} cell @returns {string}
 */
function cellOutside(c, { m, i, j }) {
  const shape = shapeIn(c, m);
  if (!shape) return `this head is given as Q, K and V, so it has no ${m}`;
  const [rows, cols] = shape;
  const out = [i >= rows ? countOf(rows, 'row') : '', j >= cols ? countOf(cols, 'column') : ''].filter(Boolean);
  return out.length ? `${m} has ${list(out)}` : '';
}

/** Why a follow outside a head of n tokens is left out (a phrase). @param {number} n */
const followOutside = (n) => `this head has ${countOf(n, 'token')}, ${n === 1 ? 'row 0' : `rows 0 to ${n - 1}`}`;

/**
 * Why the element leaves out its step or follow attribute (a phrase), or '' when it uses it (an
 * absent or empty one too). The reasons are the link's own (config.js readUrlState), and a follow
 * must also be a row of this head of n tokens.
 * @param {'step' | 'follow'} name @param {string | null | undefined} value @param {number} n
 */
export function attributeWhy(name, value, n) {
  const text = name === 'follow' ? (value ?? '').trim() : value ?? ''; // the element trims a follow (attention-explorer.js)
  const why = readUrlState('?' + new URLSearchParams({ [name]: text }), '').ignored[0]?.why;
  if (why || !text || name === 'step') return why ?? '';
  return isRow(Number(text), n) ? '' : followOutside(n);
}

/**
 * The element's step and follow attributes it leaves out, each with why (attributeWhy), for a head
 * of n tokens; a value that is not text (absent, or already a row number) is not checked here.
 * @param {{ step?: unknown, follow?: unknown }} attrs @param {number} n
 * @returns {import('../../types/config').IgnoredParam[]}
 */
export function ignoredAttributes(attrs, n) {
  return /** @type {const} */ (['step', 'follow']).flatMap((name) => {
    const value = attrs[name], why = typeof value === 'string' ? attributeWhy(name, value, n) : '';
    return why ? [{ name, value: /** @type {string} */ (value), why }] : [];
  });
}

/**
 * A link's follow and cell that lie outside head c, each with why (readUrlState has read them;
 * the explorer page and the training page leave them out and say so with ignoredText).
 * @param {Config} c @param {number | null} follow @param {Cell | null} cell
 * @returns {import('../../types/config').IgnoredParam[]}
 */
export function outsideHead(c, follow, cell) {
  const n = c.tokens.length, out = [];
  if (follow != null && !isRow(follow, n)) out.push({ name: 'follow', value: String(follow), why: followOutside(n) });
  const why = cell ? cellOutside(c, cell) : '';
  if (cell && why) out.push({ name: 'cell', value: `${cell.m}.${cell.i}.${cell.j}`, why });
  return out;
}

// The order the link writes its parameters in (config.js writeUrlState), and its notes say them in.
const LINK_ORDER = ['step', 'follow', 'cell', 'theme', 'geometry'];

/**
 * What the page says of the link's parameters it left out (readUrlState's `ignored`, and a follow
 * or cell outside this head): one sentence each, "The link’s cell=O.40.0 was ignored: O has 5
 * rows." ('' when none). With `attribute`, what the element says of its attributes instead:
 * "The follow="9" attribute was ignored: this head has 5 tokens, rows 0 to 4."
 * @param {import('../../types/config').IgnoredParam[]} ignored @param {{ attribute?: boolean }} [options]
 */
export function ignoredText(ignored, { attribute = false } = {}) {
  const clip = (/** @type {string} */ v) => (v.length > 40 ? v.slice(0, 39) + '…' : v);
  const order = (/** @type {string} */ name) => LINK_ORDER.indexOf(name);
  const say = attribute
    ? (/** @type {import('../../types/config').IgnoredParam} */ x) => `The ${x.name}="${clip(x.value)}" attribute was ignored: ${x.why}.`
    : (/** @type {import('../../types/config').IgnoredParam} */ x) => `The link’s ${x.name}=${clip(x.value)} was ignored: ${x.why}.`;
  return [...ignored].sort((a, b) => order(a.name) - order(b.name)).map(say).join(' ');
}

/**
 * The page's start from its link (readUrlState's result). Never throws: a bad link says why,
 * and so does each parameter it leaves out (a step, follow, cell or theme it cannot read, a
 * follow or cell outside this head), in the same message.
 * @param {State} state @param {UrlState} u @returns {Change}
 */
export function fromUrl(state, u) {
  let error, badConfig = null;
  try {
    error = startWith(state, u.configText, u.preset, u.from);
  } catch (e) {
    error = `The config in the link was not used: ${/** @type {Error} */ (e).message} Showing the preset “${PRESETS[DEFAULT_PRESET].title}” instead; fix the config below and press Apply.`;
    usePreset(state, DEFAULT_PRESET);
    badConfig = u.configText;
  }
  const outside = outsideHead(headOf(state), u.follow, u.cell);
  const ignored = [...(u.ignored ?? []), ...outside];
  state.step = u.step;
  state.follow = outside.some((x) => x.name === 'follow') ? null : u.follow;
  state.sel = outside.some((x) => x.name === 'cell') ? null : u.cell; // a cell of another head is dropped
  state.urlTheme = u.theme;
  if (u.geometry) state.geometry = u.geometry;
  state.rev++;
  error = [error, ignoredText(ignored)].filter(Boolean).join(' ');
  return { compute: true, rebuild: true, tokens: true, error, badConfig, restoreCursor: Boolean(state.sel) };
}

/**
 * The element's start: preset or config from the host's attributes. Never throws: a step or
 * follow attribute it cannot use is left out, and the message says which and why.
 * @param {State} state @param {StartOptions} init @returns {Change}
 */
export function fromOptions(state, init) {
  let error;
  try {
    error = startWith(state, init.config, init.preset);
  } catch (e) {
    error = `The config was not used: ${/** @type {Error} */ (e).message}`;
    usePreset(state, DEFAULT_PRESET);
  }
  if (typeof init.causal === 'boolean') headOf(state).causal = init.causal;
  state.rev++;
  const n = headOf(state).tokens.length;
  const step = init.step ?? null, follow = init.follow ?? null;
  const ignored = ignoredAttributes({ step, follow }, n);
  if (init.geometry != null) {
    const g = geometryParams(init.geometry);
    state.geometry = g.planes;
    ignored.push(...g.ignored);
  }
  state.step = isStep(step) ? step : null;
  const row = typeof follow === 'string' ? (/^\d+$/.test(follow.trim()) ? Number(follow.trim()) : null) : follow;
  state.follow = isRow(row, n) ? row : null;
  error = [error, ignoredText(ignored, { attribute: true })].filter(Boolean).join(' ');
  return { compute: true, error };
}
