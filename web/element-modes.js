// element-modes.js: the labs (web/labs/) and "Watch a head learn" (web/train-panel.js) as modes of
// the <attention-explorer> element: mode="sqrt-dk-lab", ..., mode="train". web/attention-explorer.js
// registers every entry of MODES. A mode's state is the element's `params` attribute, the same
// query string as the page's URL without its mode (params="dk=128&n=16&seed=3"), and its changes
// come back through ctx.emit('state', { mode, params }).
//
// A mode is { css, mount(container, element, ctx) }: css is adopted in the shadow root on top
// of the explorer's; ctx = { doc, params, emit(type, detail) }. mount returns
// { ready, destroy(), params(), redraw(), setTheme?(t) }; ready resolves once it is drawn.

import { mountExplorer, sharedCore } from './explorer.js';
import { LABS, labOf, mountLab, queryOf } from './labs/index.js';
import { mountTrainPanel, EXPLORER_CONTROLS } from './train-panel.js';
import { readTrainUrl } from './train.js';
import { LABS_CSS } from './gen/labs-css.js';
import { TRAIN_CSS } from './gen/train-css.js';
import { INDUCTION_CSS } from './gen/induction-css.js';
import { readInductionUrl } from './induction.js';
import { mountInductionPanel } from './induction-panel.js';

/** @typedef {import('../types/element').ModeContext} ModeContext @typedef {import('../types/element').ModeApp} ModeApp */
/** A mode's mount (attention-explorer.js). @typedef {(container: HTMLElement, element: HTMLElement, ctx: ModeContext) => ModeApp} Mount */

/** "?mode=x&dk=64" -> "dk=64": the element's params, without the mode its attribute gives. */
/** @param {string} query */
function paramsOf(query) {
  const p = new URLSearchParams(query);
  p.delete('mode');
  return p.toString();
}

/** Emits 'state' only when the params really changed (a redraw may report the same state). */
/** @param {string} mode @param {ModeContext['emit']} emit @param {string | null} first */
function stateEmitter(mode, emit, first) {
  let last = first;
  return (/** @type {string} */ params) => {
    if (params === last) return;
    last = params;
    emit('state', { mode, params });
  };
}

/** @param {string} mode @returns {Mount} */
function labMode(mode) {
  return function mount(container, element, { doc, params, emit }) {
    /** @type {ReturnType<typeof mountLab> | null} */
    let lab = null, gone = false;
    let now = params || '';
    const changed = stateEmitter(mode, emit, null);
    const api = {
      ready: sharedCore().then((attn) => {
        if (gone) return;
        lab = mountLab(mode, container, {
          attn, doc, params: new URLSearchParams(params || ''),
          onState: (s) => changed((now = paramsOf(queryOf(s)))),
        });
        now = paramsOf(queryOf(/** @type {import('./labs/mount.js').Lab} */ (labOf(mode)).state.writeState(lab.state))); // mountLab found it
        changed(now);
      }),
      params: () => now,
      redraw: () => lab && lab.redraw(),
      destroy() {
        gone = true;
        if (lab) lab.destroy();
      },
    };
    return api;
  };
}

// The theme attribute (anything but light and dark counts as auto: explorer/state.js setTheme).
const themeOf = (/** @type {HTMLElement} */ element) => /** @type {import('../types/element').ThemeSetting} */ (element.getAttribute('theme') || 'auto');

/** mode="train": the training panel above an explorer that shows the head being trained. @type {Mount} */
function mountTrain(container, element, { doc, params, emit }) {
  const initial = readTrainUrl('?' + (params || ''), '');
  const section = container.appendChild(doc.createElement('section'));
  section.className = 'train';
  section.setAttribute('aria-label', 'Watch a head learn');
  const box = container.appendChild(doc.createElement('div'));
  /** @type {ReturnType<typeof mountTrainPanel> | null} */
  let panel = null, gone = false;
  let now = params || '';
  const changed = stateEmitter('train', emit, null);
  const explorer = mountExplorer(/** @type {ShadowRoot} */ (container.getRootNode()), { // the element's
    doc, container: box, host: element, url: false, scroll: false,
    controls: EXPLORER_CONTROLS,
    initial: { step: initial.step, follow: initial.follow, theme: themeOf(element) },
    emit: (type, detail) => {
      if (type === 'ready') return; // the mode is ready once the panel is drawn
      if ((type === 'step' || type === 'select') && panel) panel.writeUrl();
      emit(type, detail);
    },
  });
  const api = {
    explorer,
    get panel() { return panel; },
    ready: (async () => {
      await explorer.ready;
      const attn = await sharedCore();
      if (gone) return;
      panel = mountTrainPanel(section, { doc, attn, explorer, initial, onUrl: (q) => changed((now = paramsOf(q))) });
      // The element has no address bar to copy: its state comes out as the explorer-state event.
      const link = /** @type {HTMLElement | null} */ (section.querySelector('#train-link'));
      if (link) link.hidden = true;
      if (initial.follow != null) explorer.setFollow(initial.follow);
      if (initial.cell) explorer.select(initial.cell);
      await panel.ready;
      if (gone) return;
      panel.flush();
    })(),
    params: () => now,
    /** @param {import('../types/element').ThemeSetting} t */
    setTheme(t) {
      explorer.setTheme(t);
      if (panel) panel.flush();
    },
    redraw: () => panel && panel.flush(),
    pause: () => panel && panel.pause(),
    destroy() {
      gone = true;
      if (panel) panel.destroy();
      explorer.destroy();
    },
  };
  return api;
}

/** mode="induction": the induction panel (trained in a Web Worker) above an explorer that opens its heads. @type {Mount} */
function mountInduction(container, element, { doc, params, emit }) {
  const initial = readInductionUrl('?' + (params || ''), '');
  const section = container.appendChild(doc.createElement('section'));
  section.className = 'induction';
  section.setAttribute('aria-label', 'Watch an induction head form');
  const box = container.appendChild(doc.createElement('div'));
  /** @type {ReturnType<typeof mountInductionPanel> | null} */
  let panel = null, gone = false;
  let now = params || '';
  const changed = stateEmitter('induction', emit, null);
  const explorer = mountExplorer(/** @type {ShadowRoot} */ (container.getRootNode()), { // the element's
    doc, container: box, host: element, url: false, scroll: false,
    controls: ['theme', 'steps', 'follow', 'explain', 'export'],
    initial: { theme: themeOf(element) },
    emit: (type, detail) => {
      if (type !== 'ready') emit(type, detail); // the mode is ready once the panel is drawn
    },
  });
  const api = {
    explorer,
    get panel() { return panel; },
    ready: (async () => {
      await explorer.ready;
      if (gone) return;
      panel = mountInductionPanel(section, { doc, explorer, initial, onUrl: (/** @type {string} */ q) => changed((now = paramsOf(q))) });
      const link = /** @type {HTMLElement | null} */ (section.querySelector('#ind-link'));
      if (link) link.hidden = true; // no address bar: the state comes out as the explorer-state event
      await panel.whenIdle();
      panel.flush();
    })(),
    params: () => now,
    /** @param {import('../types/element').ThemeSetting} t */
    setTheme(t) {
      explorer.setTheme(t);
      if (panel) panel.flush();
    },
    redraw: () => panel && panel.flush(),
    pause: () => panel && panel.pause(),
    destroy() {
      gone = true;
      if (panel) panel.destroy();
      explorer.destroy();
    },
  };
  return api;
}

/** name -> { css, mount }: every lab, then "train" and "induction". @type {Map<string, { css: string, mount: Mount }>} */
export const MODES = new Map([
  ...LABS.map((l) => /** @type {const} */ ([l.mode, { css: LABS_CSS, mount: labMode(l.mode) }])),
  ['train', { css: TRAIN_CSS, mount: mountTrain }],
  ['induction', { css: INDUCTION_CSS, mount: mountInduction }],
]);
