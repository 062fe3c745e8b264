// element-modes.js: the labs (web/labs/), "Watch a head learn" (web/train/panel.js) and "Watch an
// induction head form" (web/induction/panel.js) as modes of the <attention-explorer> element:
// mode="sqrt-dk-lab", ..., mode="train", mode="induction". web/element/attention-explorer.js registers
// every entry of MODES. A mode's state is the element's `params` attribute, the same query string
// as the page's URL without its mode (params="dk=128&n=16&seed=3"), and its changes come back
// through ctx.emit('state', { mode, params }).
//
// Each mode's code is a module of its own (element-mode-labs.js, element-mode-train.js,
// element-mode-induction.js), loaded with import() the first time an element shows that mode: a
// page with only the explorer downloads none of them. The build of dist/ (tools/build-dist.mjs)
// turns each of those import()s into a load of a part beside dist/attention-explorer.js.
//
// A mode is { css, mount(container, element, ctx) }: css is adopted in the shadow root on top
// of the explorer's; ctx = { doc, params, emit(type, detail) }. mount returns
// { ready, destroy(), params(), redraw(), setTheme?(t) }; ready resolves once it is drawn.
// Here each is { load() }, a promise of that { css, mount }.

import { CATALOG } from '../labs/catalog.js';

/**
 * The modes that are the explorer itself, each with how it starts: "explorer", and "geometry",
 * the explorer with its geometry view open (web/explorer/geometry-view.js; its params are the
 * page's link's geometry=, e.g. params="geometry=0.2.0.1"). They take the explorer's attributes
 * (preset, config, src, step, follow, ...) and API.
 */
export const EXPLORER_MODES = /** @type {const} */ (['explorer', 'geometry']);
/** @param {string} mode @returns {mode is typeof EXPLORER_MODES[number]} */
export const isExplorerMode = (mode) => /** @type {readonly string[]} */ (EXPLORER_MODES).includes(mode);

/** @typedef {import('./attention-explorer.js').Mode} Mode @typedef {import('../../types/element').ModeContext} ModeContext */

/** "?mode=x&dk=64" -> "dk=64": the element's params, without the mode its attribute gives. @param {string} query */
export function paramsOf(query) {
  const p = new URLSearchParams(query);
  p.delete('mode');
  return p.toString();
}

/** Emits 'state' only when the params really changed (a redraw may report the same state). @param {string} mode @param {ModeContext['emit']} emit @param {string | null} first */
export function stateEmitter(mode, emit, first) {
  let last = first;
  return (/** @type {string} */ params) => {
    if (params === last) return;
    last = params;
    emit('state', { mode, params });
  };
}

/**
 * A panel mode's layout in the element: its panel's section (class and label given) above a box
 * for the explorer that shows the panel's head.
 * @param {Node} container @param {Document} doc @param {string} className @param {string} label
 */
export function panelLayout(container, doc, className, label) {
  const section = container.appendChild(doc.createElement('section'));
  section.className = className;
  section.setAttribute('aria-label', label);
  const box = container.appendChild(doc.createElement('div'));
  return { section, box };
}

/**
 * The methods a panel mode (train, induction) shares: the theme goes to its explorer, a redraw
 * or pause to its panel once there is one, destroy takes both down. `panel()` gives the panel or
 * null; `gone()` marks the mode destroyed, so a mount still loading stops.
 * @param {import('../explorer/mount.js').ExplorerApi} explorer @param {() => { flush(): void, pause(): void, destroy(): void } | null} panel
 * @param {() => void} gone
 */
export function panelModeMethods(explorer, panel, gone) {
  return {
    setTheme(/** @type {import('../../types/element').ThemeSetting} */ t) {
      explorer.setTheme(t);
      panel()?.flush();
    },
    redraw: () => panel()?.flush(),
    pause: () => panel()?.pause(),
    destroy() {
      gone();
      panel()?.destroy();
      explorer.destroy();
    },
  };
}

// One promise per module, so the elements waiting for it start in the order they asked (a page's
// training panels take the core's trainer slots in document order), not in whatever order the
// engine settles several import()s of one module.
/** @template T @param {() => Promise<T>} load @returns {() => Promise<T>} */
const once = (load) => {
  /** @type {Promise<T> | null} */
  let p = null;
  return () => (p ||= load().catch((e) => { p = null; throw e; }));
};
const labs = once(() => import('./mode-labs.js'));
const train = once(() => import('./mode-train.js'));
const induction = once(() => import('./mode-induction.js'));

// And across modules: each load settles after every load asked for before it, so elements of
// different modes also start in document order. The first asks for its core first: a training
// panel above a lab loads the trainer core and the lab shares it (the lab alone would take the
// smaller forward core, and a trainer asked for after it would be a second download).
/** @type {Promise<unknown>} */
let queue = Promise.resolve();
/** @template T @param {() => Promise<T>} load @returns {() => Promise<T>} */
const inOrder = (load) => () => {
  const p = queue.then(load);
  queue = p.catch(() => {});
  return p;
};

/** name -> { load }: every lab, then "train" and "induction"; load() gives the mode's { css, mount }. @type {Map<string, { load: () => Promise<Mode> }>} */
export const MODES = new Map([
  ...CATALOG.map((l) => /** @type {const} */ ([l.mode, { load: inOrder(() => labs().then((m) => m.labMode(l.mode))) }])),
  ['train', { load: inOrder(() => train().then((m) => m.TRAIN_MODE)) }],
  ['induction', { load: inOrder(() => induction().then((m) => m.INDUCTION_MODE)) }],
]);
