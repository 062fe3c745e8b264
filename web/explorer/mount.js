// explorer/mount.js: mountExplorer, which puts one explorer on a root (the page's document, or a
// custom element's shadow root). It owns the state (web/explorer/state.js), the views, the one
// call into the core and the one scheduled redraw:
//
//   event -> action (state.js) -> Change -> apply(): schedule one requestAnimationFrame
//         -> render(): compute (attn.forward) if the numbers changed -> views draw (state, view)
//
// Several explorers on one page are independent: each mount has its own state and DOM.

import { THEME_KEY, rememberedTheme } from '../blocks/host-theme.js';
import { loadAttention } from '../core/attention.js';
import { forwardArgs, cloneConfig, readUrlState, isDirect } from '../blocks/config.js';
import { setMarkup } from '../blocks/trusted-types.js';
import { explainCell, forgetResult } from '../blocks/explain.js';
import { tourStop, leakReport, resetLabel } from './notes.js';
import { matrixCSV, matrixJSON, headJSON, heatmapSVG, viewSVG, paintPNG, pytorchScript } from './export.js';
import * as S from './state.js';
import { CONTROLS, shapeOf } from './state.js';
import { MARKUP } from './markup.js';
import { createPanelsView } from './panels-view.js';
import { createInspectorView } from './inspector-view.js';
import { createStepsView } from './steps-view.js';
import { createTokensView } from './tokens-view.js';
import { createControlsView } from './controls-view.js';
import { createLeakView } from './leak-view.js';
import { createLeadView } from './lead-view.js';
import { createGeometrySlot } from './geometry-slot.js';
import { createExports } from './exports.js';
import { wireEvents } from './events.js';

/** @typedef {import('../../types/attention').Attention} Attention */
/** @typedef {import('../../types/attention').ForwardResult} ForwardResult */
/** @template {import('../../types/attention').ResultArray} K @typedef {import('../../types/attention').SomeResult<K>} SomeResult */
/** Where an explorer is mounted: a document, a shadow root or an element. @typedef {Document | ShadowRoot | Element} Root */
/** @typedef {import('../../types/config').Config} Config */
/** @typedef {import('../../types/config').Step} Step */
/** @typedef {import('../../types/config').MatrixName} MatrixName */
/** @typedef {import('./state.js').State} State */
/** @typedef {import('./state.js').Change} Change */
/** @typedef {ReturnType<typeof tourStop>} TourStop */
/**
 * What the views draw: the head, the core's result for it, the unscaled scores (raw.S), with the
 * leak check on the O it is compared with (before), and serial, which counts computations.
 * @typedef {import('../../types/export').View & { raw: ForwardResult | SomeResult<'S'>, before: Float32Array | null, serial: number }} View
 */
/**
 * The markup's elements (./markup.js) that are more than an HTMLElement, by id.
 * @typedef {{ 'config-text': HTMLTextAreaElement, 'export-text': HTMLTextAreaElement, 'export-what': HTMLSelectElement,
 *   preset: HTMLSelectElement, 'edit-value': HTMLInputElement, 'leak-rows': HTMLTableSectionElement,
 *   'export-csv': HTMLButtonElement, 'add-token': HTMLButtonElement, 'tour-back': HTMLButtonElement }} Controls
 */
/** An element of the explorer's markup by its id (it is there: the markup is a constant). @typedef {<K extends string>(id: K) => K extends keyof Controls ? Controls[K] : HTMLElement} Lookup */
/** What must be redrawn at the next frame. @typedef {{ compute: boolean, values: boolean, url: boolean, rebuild: boolean, tokens: boolean, tour: boolean }} Dirty */
/**
 * @typedef {{ panels: ReturnType<typeof createPanelsView>, inspector: ReturnType<typeof createInspectorView>,
 *   steps: ReturnType<typeof createStepsView>, tokens: ReturnType<typeof createTokensView>,
 *   controls: ReturnType<typeof createControlsView>, leak: ReturnType<typeof createLeakView>, lead: ReturnType<typeof createLeadView>,
 *   geometry: ReturnType<typeof createGeometrySlot> }} Views
 */
/** mountExplorer's options (see mountExplorer). @typedef {import('../../types/element').ExplorerOptions & { keysOn?: EventTarget }} MountOptions */
/** Adds a listener that destroy() removes. @typedef {<E extends Event>(target: EventTarget, type: string, fn: (ev: E) => void, opts?: AddEventListenerOptions | boolean) => void} Listen */
/**
 * What explorerApi needs of the mount.
 * @typedef {{ state: State, act: Act, panels: Views['panels'], controls: Views['controls'], host: HTMLElement, doc: Document,
 *   root: Root, useUrl: boolean, prefersDark: MediaQueryList, showError: (msg: string, why?: string) => void, render: () => void,
 *   view: () => View | null, destroy: () => void, cancelFrame: () => void }} ApiCtx
 */
/**
 * What start and the event wiring (events.js) get of the mount.
 * @typedef {{ state: State, act: Act, apply: (change: Change | null) => void, api: ExplorerApi, views: Views,
 *   exports: ReturnType<typeof createExports>, options: MountOptions, win: Window, doc: Document, root: Root, $: Lookup,
 *   listen: Listen, useUrl: boolean, writeUrl: () => void, fromUrl: () => void, prefersDark: MediaQueryList,
 *   reducedMotion: MediaQueryList, showError: (msg: string, why?: string) => void, setCore: (core: Attention) => void, gone: () => boolean }} Ctx
 */
/** Calls an action of state.js on this explorer's state and applies its Change. @typedef {(action: (state: State, ...args: any[]) => Change | null, ...args: unknown[]) => void} Act */

const PLAY_MS = 2600;
/** @type {(keyof Dirty)[]} */
const DIRTY = ['compute', 'values', 'url', 'rebuild', 'tokens', 'tour'];
const URL_DELAY = 250; // ms after the last change before the address bar is rewritten

// The one core all explorers on a page share: the Wasm instance is loaded once, on first use.
// forward() is synchronous and returns copies, so sharing it between explorers is safe.
// sharedCore() is the full core; sharedCore({ core: 'trainer' }) or ({ core: 'forward' }) a smaller
// one (web/core/attention.js loadAttention), unless one that does more is loaded already: a page asks
// first for the most it will need (the explorer page: 'forward'; the training page: 'trainer').
const CORES = ['forward', 'trainer', 'full']; // each does all that the ones before it do
/** @type {Partial<Record<string, Promise<Attention>>>} */
const cores = {};
/** @param {{ core?: 'forward' | 'trainer' | 'full' }} [options] @returns {Promise<Attention>} */
export function sharedCore({ core = 'full' } = {}) {
  for (let i = CORES.length - 1; i >= CORES.indexOf(core); i--) if (cores[CORES[i]]) return /** @type {Promise<Attention>} */ (cores[CORES[i]]);
  return (cores[core] = loadAttention({ core }));
}

/**
 * The head's numbers for a config: { config, r, raw, step, before, serial }, where r is the
 * core's result, raw the unscaled scores Q·Kᵀ of the Score step (only raw.S is read; explain.js),
 * before, with the leak check on, O for the inputs of `leakBase` under the same mask and scale,
 * and serial counts computations (a view can tell new numbers from old by it). The one place the
 * page calls the core. `previous` (the last view) hands its result back to forward as `into`
 * when the shapes are the same, so an edit reuses its arrays where the core can (issue 10).
 */
let serials = 0;
/** @param {Attention} attn @param {Config} config @param {Step | null} step @param {Config | null} [leakBase] @param {View | null} [previous] @returns {View} */
export function computeView(attn, config, step, leakBase = null, previous = null) {
  const shape = shapeOf(config);
  /** @param {ForwardResult | SomeResult<'S'> | null | undefined | false} r */
  const same = (r) => r && (r.X == null) === isDirect(config) && r.n === shape.n && r.dk === shape.dk && r.dv === shape.dv && (isDirect(config) || r.d === shape.d);
  /**
   * @template {ForwardResult | SomeResult<'S'>} R
   * @param {R | null | undefined | false} r @returns {{ into: R } | undefined}
   */
  const reuse = (r) => (r && same(r) ? (forgetResult(r), { into: r }) : undefined);
  const r = attn.forward(forwardArgs(config), reuse(previous && previous.r));
  const raw = config.scale === 1 ? r : attn.forward(forwardArgs(config, 1), { outputs: ['S'], ...reuse(previous && previous.raw !== previous.r && previous.raw) });
  /** @type {Float32Array | null} */
  let before = null;
  if (leakBase && shapeOf(leakBase).n === shape.n && shapeOf(leakBase).dv === shape.dv)
    before = attn.forward(forwardArgs({ ...leakBase, causal: config.causal, scale: config.scale }), { outputs: ['O'] }).O;
  return { config, r, raw, step, before, serial: ++serials };
}

/**
 * What every view needs beyond (state, view): the explained cell, the tour's stop, the leak report.
 * `pointer` is 'coarse' on a touch screen: an input is changed otherwise there (explain.js howToChange).
 * @param {State} state @param {View} view @param {Views['panels']} panels @param {'fine' | 'coarse'} pointer
 */
function derive(state, view, panels, pointer) {
  const stop = state.tour != null ? tourStop(view, state.tour) : null;
  const active = panels.fits(state.hover) || (stop && panels.fits(stop.cell)) || panels.fits(state.sel);
  const ex = active ? explainCell(view, active.m, active.i, active.j, state.extra, pointer) : null;
  const leak = state.leak ? leakReport(view, state.leak.base, resetLabel(state)) : null;
  return { stop, active, ex, leak };
}

/**
 * Every view draws its region from (state, view); `dirty` says what changed since the last frame.
 * @param {Views} views @param {State} state @param {View} view @param {Dirty} dirty @param {'fine' | 'coarse'} pointer
 */
function drawViews({ panels, steps, inspector, tokens, controls, leak, lead, geometry }, state, view, dirty, pointer) {
  panels.draw(state, view, { values: dirty.values || dirty.compute, rebuild: dirty.rebuild });
  geometry.draw(state, view);
  steps.draw(state, view);
  lead.draw(state, view);
  const d = derive(state, view, panels, pointer);
  panels.drawMarks(state, { active: d.active, sources: d.ex ? d.ex.sources : [], tour: d.stop ? d.stop.marks : [], leakRows: d.leak ? d.leak.rows : [] });
  inspector.draw(state, view, d.ex, panels.fits(state.sel), d.stop);
  tokens.draw(state, view, { force: dirty.tokens });
  controls.draw(state, view, panels.names());
  leak.draw(d.leak, S.headOf(state).tokens);
  return d;
}

/**
 * mountExplorer(root, options): draws an explorer inside `root` (a Document, ShadowRoot or
 * Element that holds MARKUP; pass `container` to have MARKUP put into it) and returns its API.
 * options:
 *   doc        the Document (default root.ownerDocument or root)
 *   container  an element to fill with MARKUP (default: root must already hold it)
 *   host       the element that carries data-theme and data-ready (default doc.documentElement)
 *   url        true: read and write the state in the page's URL (the page); false: the embed
 *   keysOn     where the global keys ([, ], space) listen (default root)
 *   scroll     scroll the step's matrix into view (default true)
 *   initial    { preset, config, step, follow, theme } used when url is false, or a function that
 *              gives it, called once the core has loaded (state.js fromOptions:
 *              a follow given as text, the element's attribute, is checked and one left out said)
 *   controls   the control groups to show (default all of CONTROLS)
 *   core       a promise of the core (default sharedCore())
 *   emit(type, detail)  called on 'step', 'select', 'change', 'error' and 'ready'
 * @param {Root} root @param {MountOptions} [options]
 */
export function mountExplorer(root, options = {}) {
  const doc = options.doc || root.ownerDocument || /** @type {Document} */ (root);
  const win = /** @type {Window} */ (doc.defaultView);
  if (options.container) {
    const t = doc.createElement('template');
    setMarkup(t, MARKUP); // a constant: never user text
    options.container.appendChild(t.content);
  }
  const host = options.host || doc.documentElement;
  const useUrl = Boolean(options.url);
  const emit = options.emit || (() => {});
  const $ = /** @type {Lookup} */ (/** @type {unknown} */ ((/** @type {string} */ id) => root.querySelector('#' + id)));
  const active = () => /** @type {Partial<DocumentOrShadowRoot>} */ (root).activeElement ?? doc.activeElement;
  const prefersDark = win.matchMedia('(prefers-color-scheme: dark)');
  const reducedMotion = win.matchMedia('(prefers-reduced-motion: reduce)');
  const coarse = win.matchMedia('(pointer: coarse)');

  const state = S.createState({ theme: prefersDark.matches ? 'dark' : 'light', reducedMotion: reducedMotion.matches });
  const views = {
    panels: createPanelsView(doc, $('matrices')),
    inspector: createInspectorView(doc, $, active),
    steps: createStepsView(doc, $),
    tokens: createTokensView(doc, $, active),
    controls: createControlsView(doc, $, active),
    leak: createLeakView(doc, $),
    lead: createLeadView($),
    geometry: createGeometrySlot(doc, $),
  };
  const { panels, inspector, controls } = views;
  const exports = createExports(doc, root, $, win);

  /** @type {Attention | null} */
  let attn = null;
  /** @type {View | null} */
  let view = null; // computeView's result for the config now shown
  let frame = 0;
  let timer = 0;
  let focusTour = false; // the tour started: focus its stop once drawn
  let destroyed = false;
  /** @type {Dirty} */
  const dirty = { compute: false, values: false, url: false, rebuild: false, tokens: false, tour: false };
  /** @type {(() => void)[]} */
  const cleanups = [];
  /** @type {Listen} */
  const listen = (target, type, fn, opts) => {
    const f = /** @type {EventListener} */ (fn);
    target.addEventListener(type, f, opts);
    cleanups.push(() => target.removeEventListener(type, f, opts));
  };

  // A 'note' (something left out or not used) goes once the learner acts on the head (Change.seen);
  // 'compute' and 'core' (no head to show) stay while that holds.
  let kind = '';
  let wholeHead = false;
  /** @param {string} msg @param {string} [why] */
  function showError(msg, why = 'note') {
    const e = $('error');
    e.textContent = msg;
    e.hidden = !msg;
    kind = msg ? why : '';
    if (msg) emit('error', { message: msg });
  }
  /** @param {string} was */
  const clearError = (was) => kind === was && showError('');

  // Play is state (state.playing); the interval that ticks it follows the state.
  function syncTimer() {
    if (state.playing && !timer) timer = win.setInterval(() => act(S.playTick), PLAY_MS);
    if (!state.playing && timer) win.clearInterval(timer), (timer = 0);
  }

  /** Carries out what an action says must happen (see state.js), then schedules the redraw. */
  /** @param {Change | null} change */
  function apply(change) {
    syncTimer();
    if (!change) return;
    for (const k of DIRTY) dirty[k] = dirty[k] || Boolean(change[k]);
    if (change.seen) clearError('note');
    if (change.wholeHead && options.scroll !== false) wholeHead = true;
    if (change.focusTour) focusTour = true;
    sideEffects(change, { win, state, panels, controls, showError, scroll: options.scroll !== false });
    if (!frame && !destroyed) frame = win.requestAnimationFrame(render);
    if (options.emit) for (const [type, detail] of change.emit || []) emit(type, typeof detail === 'function' ? detail() : detail);
  }
  /** @type {Act} */
  const act = (action, ...args) => apply(action(state, ...args));

  const { writeUrl, writeUrlSoon, cancelUrl } = createUrlWriter(win, state, useUrl);

  function render() {
    frame = 0;
    if (!attn || !state.config || destroyed) return;
    if (dirty.compute) {
      try {
        view = computeView(attn, state.config, state.step, state.leak && state.leak.base, view);
        clearError('compute');
      } catch (e) {
        showError('This head cannot be computed: ' + /** @type {Error} */ (e).message, 'compute');
      }
    }
    if (!view) return;
    view = { ...view, config: state.config, step: state.step };
    const inTour = $('tour').contains(active()); // a tour that ends takes the focus with it: give it back
    const d = drawViews(views, state, view, dirty, coarse.matches ? 'coarse' : 'fine');
    // The weights opened: every matrix in view if the window holds them (1024×768), in the frame
    // that shows them, so nothing is measured half-way through a scroll.
    const box = $('matrices');
    if (wholeHead && box.getBoundingClientRect().height <= win.innerHeight) box.scrollIntoView({ block: 'nearest' });
    wholeHead = false;
    if (dirty.url) (state.preset ? writeUrl() : writeUrlSoon()); // a short ?preset= link at once
    placeInspector({ $, win, state, panels, inspector, active }, d.stop, dirty.tour);
    moveTourFocus($, state, inTour, focusTour); // once placed: a floating panel shows its tour
    focusTour = false;
    for (const k of DIRTY) dirty[k] = false;
    if (host.dataset.ready !== 'true') {
      host.dataset.ready = 'true';
      emit('ready', {});
    }
  }

  function fromUrl() {
    act(S.fromUrl, readUrlState(win.location.search, win.location.hash));
  }

  const api = explorerApi({ state, act, panels, controls, host, doc, root, useUrl, prefersDark, showError, render,
    view: () => view, destroy() {
      destroyed = true;
      cancelUrl();
      state.playing = false;
      syncTimer();
      if (frame) win.cancelAnimationFrame(frame);
      frame = 0;
      for (const f of cleanups) f();
    },
    cancelFrame() {
      if (frame) win.cancelAnimationFrame(frame);
      frame = 0;
    },
  });

  api.ready = start({ state, act, apply, api, views, exports, options, win, doc, root, $, listen, useUrl, writeUrl, fromUrl, prefersDark, reducedMotion, showError,
    setCore: (/** @type {Attention} */ core) => (attn = core), gone: () => destroyed });
  return api;
}

/**
 * The address bar follows the state, a moment after the last change: replaceState with a
 * long #config= link costs more than the rest of a frame, so edits in a row write it once.
 * writeUrl() writes it now, writeUrlSoon() URL_DELAY after the last call; nothing without useUrl.
 * @param {Window} win @param {State} state @param {boolean} useUrl
 */
function createUrlWriter(win, state, useUrl) {
  let urlTimer = 0;
  let lastUrl = '';
  function writeUrl() {
    win.clearTimeout(urlTimer);
    urlTimer = 0;
    if (!useUrl) return;
    const url = S.urlOf(state);
    if (url === lastUrl) return;
    lastUrl = url;
    win.history.replaceState(null, '', win.location.pathname + url);
  }
  return {
    writeUrl,
    writeUrlSoon() {
      win.clearTimeout(urlTimer);
      urlTimer = useUrl ? win.setTimeout(writeUrl, URL_DELAY) : 0;
    },
    cancelUrl: () => win.clearTimeout(urlTimer),
  };
}

/**
 * Where the explanation goes after a redraw: the focused cell (or the tour's) never hides under
 * it, and a floating explanation keeps off the cell in hand (the tour's, hovered, keyboard's,
 * or on a touch screen, which has no hover, the cell last tapped).
 * @param {{ $: Lookup, win: Window, state: State, panels: Views['panels'], inspector: Views['inspector'], active: () => Element | null | undefined }} x
 * @param {TourStop | null | undefined} stop the tour's stop on show @param {boolean} tour the tour moved
 */
function placeInspector({ $, win, state, panels, inspector, active }, stop, tour) {
  const focus = active();
  const inMatrices = focus && $('matrices').contains(focus) ? focus : null;
  const target = inMatrices || (stop && tour ? panels.heatmap(stop.cell.m)?.cell(stop.cell.i, stop.cell.j) : null);
  if (target) inspector.keepClear(win, target);
  /** @param {import('../../types/config').Cell} c */
  const cellEl = (c) => panels.heatmap(c.m)?.cell(c.i, c.j) || panels.figure(c.m) || null;
  const hovered = panels.fits(state.hover);
  const tapped = $('matrices').dataset.pointer === 'touch' && state.sel ? cellEl(state.sel) : null;
  inspector.place(stop ? cellEl(stop.cell) : hovered ? cellEl(hovered) : inMatrices?.matches(':focus-visible') ? inMatrices : tapped, $('matrices'));
}

/**
 * The tour and the keyboard: once started (from its button), its stop has the focus, so Next is
 * one Tab away (two from stop 2 on, after Back); when it ends with the focus in it (Finish, Skip,
 * Escape on its buttons), the focus goes back to the button that started it, not to the page's top.
 * @param {Lookup} $ @param {State} state @param {boolean} hadFocus the focus was in the tour before this frame
 * @param {boolean} started the tour has just started
 */
function moveTourFocus($, state, hadFocus, started) {
  if (started && state.tour != null) $('tour').focus();
  else if (hadFocus && state.tour == null) $('tour-start').focus();
}

/** The matrix each step produces. @type {Record<Step, import('../../types/config').MatrixName>} */
const STEP_MATRIX = { project: 'Q', score: 'S', scale: 'S', mask: 'M', softmax: 'A', mix: 'O' };

// What a Change asks for besides the redraw: a message, the config box, a scroll, the cursor.
/** @param {Change} change @param {{ win: Window, state: State, panels: Views['panels'], controls: Views['controls'], showError: (msg: string, why?: string) => void, scroll: boolean }} ctx */
function sideEffects(change, { win, state, panels, controls, showError, scroll }) {
  if (change.error != null) showError(change.error);
  if (change.badConfig != null) controls.showBadConfig(change.badConfig);
  const step = change.scroll;
  if (step && scroll) {
    // Bring the matrix this step produces into view (instantly when motion is reduced).
    win.requestAnimationFrame(() => {
      const fig = panels.figure(STEP_MATRIX[step]);
      if (fig) fig.scrollIntoView({ block: 'nearest', behavior: state.reducedMotion ? 'auto' : 'smooth' });
    });
  }
  if (change.restoreCursor) win.requestAnimationFrame(() => win.requestAnimationFrame(() => {
    const cell = panels.fits(state.sel);
    if (cell) panels.heatmap(cell.m)?.setCursor(cell.i, cell.j);
  }));
}

// The explorer's start: controls, theme (a link's, the element's, the remembered one), events,
// the core, then the first head (from the link, or the element's attributes).
/** @param {Ctx} x */
async function start(x) {
  const { state, act, api, views, options, win, useUrl } = x;
  api.setControls(options.controls || CONTROLS);
  const url = useUrl ? readUrlState(win.location.search, win.location.hash) : null;
  // (an initial given as a function is read once the core has loaded; its host applies its theme itself)
  const early = typeof options.initial === 'function' ? undefined : options.initial;
  api.setTheme(S.startTheme({ url: url?.theme, attribute: early?.theme, stored: storedTheme(win) }));
  wireEvents({
    ...x, panels: views.panels, inspector: views.inspector, keysOn: options.keysOn,
    chooseTheme(t) {
      // The reader's own choice: remembered for the next visit, and kept in a link that set one.
      api.setTheme(t);
      rememberTheme(win, t);
      if (state.urlTheme) act(S.setUrlTheme, t);
    },
  });
  try {
    x.setCore(await (options.core || sharedCore()));
  } catch (e) {
    x.showError('The attention core (WebAssembly) could not load: ' + /** @type {Error} */ (e).message + '. The explorer needs a browser with WebAssembly.', 'core');
    return;
  }
  if (x.gone()) return;
  if (useUrl) x.fromUrl();
  else act(S.fromOptions, (typeof options.initial === 'function' ? options.initial() : options.initial) || {});
}

// The reader's theme choice, remembered across visits (a sandboxed frame may refuse storage).
const storedTheme = rememberedTheme;
/** @param {Window} win @param {string} theme */
function rememberTheme(win, theme) {
  try {
    win.localStorage.setItem(THEME_KEY, theme);
  } catch {}
}

// A result with its arrays copied (the numbers stay; the page's own arrays are reused by forward's `into`).
/** @param {ForwardResult} r @returns {ForwardResult} */
function copyResult(r) {
  const out = /** @type {Record<string, unknown>} */ ({ ...r });
  for (const k in out) {
    const a = out[k];
    if (ArrayBuffer.isView(a)) out[k] = /** @type {Float32Array} */ (a).slice();
  }
  return /** @type {ForwardResult} */ (/** @type {unknown} */ (out));
}

/** @typedef {ReturnType<typeof explorerApi>} ExplorerApi */

/**
 * The API mountExplorer returns (the element, the training panel and the labs drive it).
 * @param {ApiCtx} x
 */
function explorerApi(x) {
  const { state, act, panels, controls, host, doc, root, useUrl, prefersDark } = x;
  // The exports run once a head is drawn.
  const shown = () => /** @type {View} */ (x.view());
  return {
    state,
    get view() { return x.view(); },
    /** The core's result for the head shown, as copies: the page reuses its own arrays on the next edit. */
    get result() { return x.view() && copyResult(shown().r); },
    setValue: (/** @type {string} */ m, /** @type {number} */ i, /** @type {number} */ j, /** @type {number} */ v) => act(S.setValue, m, i, j, v),
    setStep: (/** @type {Step | null | undefined} */ s) => (act(S.stop), act(S.setStep, s ?? null)),
    setFollow: (/** @type {number | null} */ i) => act(S.setFollow, i),
    /** Shows the geometry view with these planes (true: the first two dimensions of each), or hides it (null). */
    setGeometry: (/** @type {import('../../types/config').Planes | true | null} */ planes) => act(S.setGeometry, planes),
    select: (/** @type {import('../../types/config').Cell | null} */ cell) => act(S.select, cell),
    setPreset: (/** @type {string} */ name) => act(S.setPreset, name),
    /** Untrusted input: JSON text or an object, parsed strictly; throws ConfigError. */
    setConfig: (/** @type {string | import('../../types/config').ConfigInput} */ input) => act(S.setConfig, input),
    /**
     * New numbers for the head (a config, parsed strictly; throws ConfigError) that keep the
     * step, the followed row and the selected or hovered cell wherever they still fit: for a head
     * that changes under the learner, e.g. while it trains (web/train/panel.js). `extra` goes to
     * every cell explanation (explain.js explainCell's fifth argument) until the next showHead.
     */
    showHead: (/** @type {string | import('../../types/config').ConfigInput} */ input, /** @type {import('../blocks/explain.js').Extra | null} */ extra = null) => act(S.showHead, input, extra),
    /** @param {boolean} on */
    setCausal(on) {
      if (state.config && state.config.causal !== Boolean(on)) act(S.setCausal, on);
    },
    /** @param {string} setting */
    setTheme(setting) {
      act(S.setTheme, setting, prefersDark.matches);
      controls.drawTheme(state, host);
    },
    /** @param {readonly string[]} list */
    setControls(list) {
      act(S.setControls, list, { page: useUrl });
      for (const e of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-control]'))) e.hidden = !state.controls.has(e.dataset.control ?? '');
    },
    showError: x.showError,
    /** The whole config as the config format (a copy). */
    config: () => cloneConfig(S.headOf(state)),
    exportCSV: (/** @type {MatrixName} */ m) => matrixCSV(shown(), m),
    exportJSON: (/** @type {MatrixName | null | undefined} */ m) => (m ? matrixJSON(shown(), m) : headJSON(shown())),
    exportSVG: (/** @type {MatrixName | null | undefined} */ m) => (m ? heatmapSVG(shown(), m, { theme: state.theme }) : viewSVG(shown(), { theme: state.theme, matrices: panels.names() })),
    /** A PNG Blob of one heatmap or the whole view (drawn on a canvas from the same layout as the SVG). */
    exportPNG: (/** @type {MatrixName | null | undefined} */ m) => paintPNG(doc, shown(), { theme: state.theme, m, matrices: panels.names() }),
    exportPyTorch: () => pytorchScript(S.headOf(state), shown().r),
    /** Resolves once the core is loaded and the first head drawn (set by mountExplorer). @type {Promise<void> | undefined} */
    ready: undefined,
    /** Stops timers, removes listeners and the drawing. */
    destroy: x.destroy,
    /** Runs the pending redraw now instead of at the next frame (for timing it). */
    flush() {
      x.cancelFrame();
      x.render();
    },
  };
}
