// explorer/mount.js: mountExplorer, which puts one explorer on a root (the page's document, or a
// custom element's shadow root). It owns the state (web/explorer/state.js), the views, the one
// call into the core and the one scheduled redraw:
//
//   event -> action (state.js) -> Change -> apply(): schedule one requestAnimationFrame
//         -> render(): compute (attn.forward) if the numbers changed -> views draw (state, view)
//
// Several explorers on one page are independent: each mount has its own state and DOM.

import { loadAttention } from '../attention.js';
import { forwardArgs, cloneConfig, readUrlState } from '../config.js';
import { explainCell } from '../explain.js';
import { matrixCSV, matrixJSON, headJSON, heatmapSVG, viewSVG, paintPNG, pytorchScript } from '../export.js';
import * as S from './state.js';
import { CONTROLS } from './state.js';
import { MARKUP } from './markup.js';
import { createPanelsView } from './panels-view.js';
import { createInspectorView } from './inspector-view.js';
import { createStepsView } from './steps-view.js';
import { createTokensView } from './tokens-view.js';
import { createControlsView } from './controls-view.js';
import { createExports } from './exports.js';
import { wireEvents } from './events.js';

const PLAY_MS = 2600;

// The one core all explorers on a page share: the Wasm instance is loaded once, on first use.
// forward() is synchronous and returns copies, so sharing it between explorers is safe.
let corePromise = null;
export function sharedCore() {
  corePromise ||= loadAttention();
  return corePromise;
}

/**
 * The head's numbers for a config: { config, r, raw, step }, where r is the core's result and
 * raw the unscaled scores Q·Kᵀ of the Score step (only raw.S is read; explain.js). The one place
 * the page calls the core.
 */
export function computeView(attn, config, step) {
  const r = attn.forward(forwardArgs(config));
  const raw = config.scale === 1 ? r : attn.forward(forwardArgs(config, 1), { outputs: ['S'] });
  return { config, r, raw, step };
}

/** Every view draws its region from (state, view); `dirty` says what changed since the last frame. */
function drawViews({ panels, steps, inspector, tokens, controls }, state, view, dirty) {
  panels.draw(state, view, { values: dirty.values || dirty.compute, rebuild: dirty.rebuild });
  steps.draw(state, view);
  const activeCell = panels.fits(state.hover) || panels.fits(state.sel);
  const ex = activeCell ? explainCell(view, activeCell.m, activeCell.i, activeCell.j, state.extra) : null;
  panels.drawMarks(state, activeCell, ex);
  inspector.draw(state, ex, panels.fits(state.sel));
  tokens.draw(state, view, { force: dirty.tokens });
  controls.draw(state, panels.names());
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
 *   initial    { preset, config, step, follow, theme } used when url is false
 *   controls   the control groups to show (default all of CONTROLS)
 *   core       a promise of the core (default sharedCore())
 *   emit(type, detail)  called on 'step', 'select', 'change', 'error' and 'ready'
 */
export function mountExplorer(root, options = {}) {
  const doc = options.doc || root.ownerDocument || root;
  const win = doc.defaultView;
  if (options.container) {
    const t = doc.createElement('template');
    t.innerHTML = MARKUP; // a constant: never user text
    options.container.appendChild(t.content);
  }
  const host = options.host || doc.documentElement;
  const useUrl = Boolean(options.url);
  const emit = options.emit || (() => {});
  const $ = (id) => root.querySelector('#' + id);
  const active = () => root.activeElement ?? doc.activeElement;
  const prefersDark = win.matchMedia('(prefers-color-scheme: dark)');

  const state = S.createState({ theme: prefersDark.matches ? 'dark' : 'light' });
  const views = {
    panels: createPanelsView(doc, $('matrices')),
    inspector: createInspectorView($, active),
    steps: createStepsView(doc, $),
    tokens: createTokensView(doc, $, active),
    controls: createControlsView(doc, $, active),
  };
  const { panels, inspector, controls } = views;
  const exports = createExports(doc, root, $, win);

  let attn = null;
  let view = null; // computeView's result for the config now shown
  let frame = 0;
  let timer = 0;
  let lastUrl = '';
  let destroyed = false;
  const dirty = { compute: false, values: false, url: false, rebuild: false, tokens: false };
  const cleanups = [];
  const listen = (target, type, fn, opts) => {
    target.addEventListener(type, fn, opts);
    cleanups.push(() => target.removeEventListener(type, fn, opts));
  };

  function showError(msg) {
    const e = $('error');
    e.textContent = msg;
    e.hidden = !msg;
    if (msg) emit('error', { message: msg });
  }

  // Play is state (state.playing); the interval that ticks it follows the state.
  function syncTimer() {
    if (state.playing && !timer) timer = win.setInterval(() => act(S.playTick), PLAY_MS);
    if (!state.playing && timer) win.clearInterval(timer), (timer = 0);
  }

  function scrollToStep(step) {
    // Bring the matrix this step produces into view (instantly when motion is reduced).
    win.requestAnimationFrame(() => {
      const fig = panels.figure({ project: 'Q', score: 'S', scale: 'S', mask: 'M', softmax: 'A', mix: 'O' }[step]);
      const smooth = !win.matchMedia('(prefers-reduced-motion: reduce)').matches;
      if (fig) fig.scrollIntoView({ block: 'nearest', behavior: smooth ? 'smooth' : 'auto' });
    });
  }

  /** Carries out what an action says must happen (see state.js), then schedules the redraw. */
  function apply(change) {
    syncTimer();
    if (!change) return;
    for (const k in dirty) dirty[k] = dirty[k] || Boolean(change[k]);
    if (change.error != null) showError(change.error);
    if (change.badConfig != null) controls.showBadConfig(change.badConfig);
    if (change.scroll && options.scroll !== false) scrollToStep(change.scroll);
    if (change.restoreCursor) win.requestAnimationFrame(() => win.requestAnimationFrame(() => {
      const cell = panels.fits(state.sel);
      if (cell) panels.heatmap(cell.m).setCursor(cell.i, cell.j);
    }));
    if (!frame && !destroyed) frame = win.requestAnimationFrame(render);
    for (const [type, detail] of change.emit || []) emit(type, detail);
  }
  const act = (action, ...args) => apply(action(state, ...args));

  function writeUrl() {
    if (!useUrl) return;
    const url = S.urlOf(state);
    if (url === lastUrl) return;
    lastUrl = url;
    win.history.replaceState(null, '', win.location.pathname + url);
  }

  function render() {
    frame = 0;
    if (!attn || !state.config || destroyed) return;
    if (dirty.compute) {
      try {
        view = computeView(attn, state.config, state.step);
      } catch (e) {
        showError('This head cannot be computed: ' + e.message);
      }
    }
    if (!view) return;
    view = { ...view, config: state.config, step: state.step };
    drawViews(views, state, view, dirty);
    if (dirty.url) writeUrl();
    for (const k in dirty) dirty[k] = false;
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

  async function start() {
    api.setControls(options.controls || CONTROLS);
    api.setTheme(options.initial?.theme || 'auto');
    wireEvents({
      state, act, apply, panels, inspector, exports, api, $, root, doc, win, keysOn: options.keysOn, listen,
      useUrl, writeUrl, fromUrl, prefersDark,
    });
    try {
      attn = await (options.core || sharedCore());
    } catch (e) {
      showError('The attention core (WebAssembly) could not load: ' + e.message + '. The explorer needs a browser with WebAssembly.');
      return;
    }
    if (destroyed) return;
    if (useUrl) fromUrl();
    else act(S.fromOptions, options.initial || {});
  }

  api.ready = start();
  return api;
}

/** The API mountExplorer returns (the element, the training panel and the labs drive it). */
function explorerApi(x) {
  const { state, act, panels, controls, host, doc, root, useUrl, prefersDark } = x;
  return {
    state,
    get view() { return x.view(); },
    get result() { return x.view() && x.view().r; },
    setValue: (m, i, j, v) => act(S.setValue, m, i, j, v),
    setStep: (s) => (act(S.stop), act(S.setStep, s ?? null)),
    setFollow: (i) => act(S.setFollow, i),
    select: (cell) => act(S.select, cell),
    setPreset: (name) => act(S.setPreset, name),
    /** Untrusted input: JSON text or an object, parsed strictly; throws ConfigError. */
    setConfig: (input) => act(S.setConfig, input),
    /**
     * New numbers for the head (a config, parsed strictly; throws ConfigError) that keep the
     * step, the followed row and the selected or hovered cell wherever they still fit: for a head
     * that changes under the learner, e.g. while it trains (web/train-panel.js). `extra` goes to
     * every cell explanation (explain.js explainCell's fifth argument) until the next showHead.
     */
    showHead: (input, extra = null) => act(S.showHead, input, extra),
    setCausal(on) {
      if (state.config && state.config.causal !== Boolean(on)) act(S.setCausal, on);
    },
    setTheme(setting) {
      act(S.setTheme, setting, prefersDark.matches);
      controls.drawTheme(state, host);
    },
    setControls(list) {
      act(S.setControls, list, { page: useUrl });
      for (const e of root.querySelectorAll('[data-control]')) e.hidden = !state.controls.has(e.dataset.control);
    },
    showError: x.showError,
    /** The whole config as the config format (a copy). */
    config: () => cloneConfig(state.config),
    exportCSV: (m) => matrixCSV(x.view(), m),
    exportJSON: (m) => (m ? matrixJSON(x.view(), m) : headJSON(x.view())),
    exportSVG: (m) => (m ? heatmapSVG(x.view(), m, { theme: state.theme }) : viewSVG(x.view(), { theme: state.theme, matrices: panels.names() })),
    /** A PNG Blob of one heatmap or the whole view (drawn on a canvas from the same layout as the SVG). */
    exportPNG: (m) => paintPNG(doc, x.view(), { theme: state.theme, m, matrices: panels.names() }),
    exportPyTorch: () => pytorchScript(state.config, x.view().r),
    /** Stops timers, removes listeners and the drawing. */
    destroy: x.destroy,
    /** Runs the pending redraw now instead of at the next frame (for timing it). */
    flush() {
      x.cancelFrame();
      x.render();
    },
  };
}
