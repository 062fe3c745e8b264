// attention-explorer.js: the <attention-explorer> custom element. Each element mounts its own
// explorer (web/explorer/index.js) in a Shadow DOM styled by one constructable stylesheet, so several
// elements on a page are independent, the host page's CSS cannot reach inside, and nothing needs
// 'unsafe-inline'. All elements share one loaded Wasm core.
//
//   <script type="module" src="attention-explorer.js"></script>
//   <attention-explorer preset="cat" step="softmax" follow="4"></attention-explorer>
//
// Attributes (all optional; each can also be set as a property):
//   preset    a name of web/blocks/presets.js (docs/embedding.md's table, the explorer's menu)
//   config    the head as JSON (the format of web/blocks/config.js); wins over preset
//   src       URL of a JSON config (same origin, or a server that allows it with CORS); the
//             latest src wins (older fetches are aborted), given up after SRC_TIMEOUT_MS
//   step      project | score | scale | mask | softmax | mix (absent = every step)
//   follow    0-based row of the token to follow
//   causal    "true" / "false": overrides the config's causal flag
//   controls  the control groups to show, e.g. "steps follow explain" ("classroom mode");
//             groups: CONTROLS of web/explorer/state.js (default: all)
//   layout    compact | full | auto (default auto: compact when the page gives the element less
//             height than the full layout needs; web/element/layout.js). Compact fits a 960 × 700 slide
//   theme     light | dark | auto (default: the reader's remembered choice, else the page's
//             color-scheme where it sets one, else the reader's prefers-color-scheme; web/blocks/host-theme.js)
//   mode      explorer (default) or geometry (the explorer with its geometry view open), a lab
//             (the modes of web/labs/catalog.js), train or induction (web/element/modes.js); more
//             with registerMode()
//   params    a lab's or train's state: the query string of its page without the mode,
//             e.g. mode="sqrt-dk-lab" params="dk=128&n=16&seed=3" (web/labs.html?mode=sqrt-dk-lab&dk=128...);
//             geometry's planes, params="geometry=2.0.0.1" (as the explorer page's link)
// Events (bubbling, composed; detail in brackets):
//   explorer-step [{ step }]   explorer-select [{ cell, follow }]   explorer-change [{ config }]
//   explorer-error [{ message }]   explorer-ready   explorer-state [{ mode, params }] (labs, train, geometry)
// el.ready resolves once drawn, or rejects with the explorer-error message (docs/embedding.md).
// Configs from attributes and src are untrusted: parsed strictly (config.js), size-checked
// before parsing, shown only as text.

import { mountExplorer, sharedCore, CONTROLS } from '../explorer/index.js';
import { EXPLORER_CSS } from '../gen/explorer-css.js';
import { STEPS, SRC_TIMEOUT_MS, clipMessage, readConfig, writePlanes } from '../blocks/config.js';
import { MODES as BUILT_IN_MODES, EXPLORER_MODES, isExplorerMode } from './modes.js';
import { resolveTheme, watchTheme } from '../blocks/host-theme.js';
import { attributeWhy, ignoredText, geometryParams, LIM } from '../explorer/state.js';
import { watchLayout } from './layout.js';
import { constructable, sheetOf } from '../blocks/sheets.js';

export { loadAttention, LIMITS } from '../core/attention.js';
export { mountExplorer, sharedCore };

/** @typedef {import('../../types/element').ModeApp} ModeApp @typedef {import('../../types/element').ModeContext} ModeContext */
/** @typedef {import('../explorer/mount.js').ExplorerApi} ExplorerApi @typedef {import('../../types/config').MatrixName} MatrixName */
/** A mode's mount. @typedef {(container: HTMLElement, element: AttentionExplorer, ctx: ModeContext) => ModeApp} Mount */
/** A mount's `ready`. @typedef {{ promise: Promise<void>, resolve: (v: void) => void, reject: (e: Error) => void, settled: boolean }} Ready */
/** What is mounted: the explorer's API or a mode's (the element calls what it has; train's has an explorer). @typedef {ModeApp & Partial<Omit<ExplorerApi, 'ready'>> & { explorer?: ExplorerApi }} App */

const ATTRIBUTES = ['preset', 'config', 'src', 'step', 'follow', 'causal', 'controls', 'layout', 'theme', 'mode', 'params'];

// Modes: name -> { mount, css }, or { load } for one whose code is loaded the first time it is
// shown (load() gives its { mount, css }). "explorer" is built in; the labs, "train" and
// "induction" come from web/element/modes.js. mount(container, element, { doc, params, emit })
// returns { destroy(), ready?, params?(), redraw?(), setTheme?(theme), pause?() }; css is adopted
// on top of the explorer's stylesheet while the mode is shown.
/** A mode's code. @typedef {{ mount: Mount, css: string }} Mode */
/** @type {Map<string, Mode | { load: () => Promise<Mode> }>} */
const MODES = new Map(BUILT_IN_MODES);
/**
 * Adds a mode: registerMode('my-lab', (container, element, ctx) => ({ destroy() {} }), { css }).
 * @param {string} name @param {Mount} mount @param {{ css?: string }} [options]
 */
export function registerMode(name, mount, { css = '' } = {}) {
  if (!/^[a-z][a-z0-9-]*$/.test(name) || isExplorerMode(name)) throw new Error(`registerMode: “${name}” is not a free mode name (lower-case letters, digits and dashes)`);
  MODES.set(name, { mount, css });
}

/** @param {ShadowRoot} shadow @param {Document} doc */
function adoptStyles(shadow, doc, extra = '') {
  const texts = [EXPLORER_CSS, extra].filter(Boolean);
  if (constructable(shadow)) {
    shadow.adoptedStyleSheets = texts.map((text) => sheetOf(doc, text));
  } else {
    // Old browsers without constructable stylesheets (needs style-src 'unsafe-inline' under a CSP).
    for (const old of shadow.querySelectorAll('style')) old.remove();
    // (in the same order as the adopted sheets: the mode's CSS after the explorer's)
    shadow.prepend(...texts.map((text) => Object.assign(doc.createElement('style'), { textContent: text })));
  }
}

/** @typedef {string | null | undefined} Attr */
const parseCausal = (/** @type {Attr} */ v) => (v == null ? undefined : v === '' || v === 'true' ? true : v === 'false' ? false : undefined);
const parseFollow = (/** @type {Attr} */ v) => (v != null && /^\d+$/.test(v.trim()) ? Number(v.trim()) : null);
// (names that are no control group are dropped by the explorer: state.js setControls)
const parseControls = (/** @type {Attr} */ v) => /** @type {import('../../types/element').ControlGroup[]} */ (v == null ? CONTROLS : v.split(/[\s,]+/).filter(Boolean));
const stepOf = (/** @type {Attr} */ v) => /** @type {import('../../types/config').Step | null} */ (/** @type {readonly unknown[]} */ (STEPS).includes(v) ? v : null);

export { SRC_TIMEOUT_MS };

/**
 * Fetches a config's text, refusing anything past MAX_JSON characters (fetch-config.js, loaded
 * the first time it is needed). @type {typeof import('./fetch-config.js').fetchConfigText}
 */
export const fetchConfigText = (...args) => import('./fetch-config.js').then((m) => m.fetchConfigText(...args));

const Base = globalThis.HTMLElement || class {};

const PRESSABLE = 'button, summary, a[href], input, [role]'; // (a role of a widget: button, checkbox, tab, ...)
/**
 * Does the element act on this keydown, from `inside` (the element focused in its shadow root)?
 * A text field takes every key but Tab; a button, a checkbox, a summary or a link Space and Enter.
 * @param {KeyboardEvent} ev @param {Element} inside
 */
function keyIsTheElements(ev, inside) {
  if (ev.defaultPrevented) return true;
  if (!inside?.closest) return false;
  const input = /** @type {HTMLInputElement} */ (inside);
  if (inside.closest('textarea, select, [contenteditable]') || (input.tagName === 'INPUT' && !/^(button|checkbox|radio|reset|submit)$/.test(input.type))) return ev.key !== 'Tab';
  return (ev.key === ' ' || ev.key === 'Enter') && Boolean(inside.closest(PRESSABLE));
}

// Landmarks inside an element are named after it, so two elements on a page never offer a screen
// reader two regions both called "Steps" (axe's landmark-unique): "Steps (explorer 2)". Elements
// are numbered in the order the page made them, which no two share. A landmark drawn later (a
// new head's panel groups, a mode's panel) or renamed by its view is named again (#watchLandmarks).
const LANDMARKS = 'nav[aria-label], section[aria-label], aside[aria-label]';
let made = 0;

export class AttentionExplorer extends Base {
  static get observedAttributes() {
    return ATTRIBUTES;
  }

  /** @type {App | null} */
  #app = null; // the explorer's API (or a lab's), once mounted
  /** @type {App | null} */
  #modeApp = null; // the same when it is a mode's (a lab or train), else null
  #box; // the .ae wrapper inside the shadow root
  #srcToken = 0; // counts mounts: a mount that finds a newer one started stops
  #mounting = false;
  /** @type {AbortController | null} */
  #fetching = null; // the AbortController of the src fetch under way
  #started = false; // mounted (or mounting) since the last unmount
  /** @type {Ready} */
  #ready; // of the mount under way or last settled (set in the constructor)
  #number = ++made; // this element's number on the page, for its landmarks' names
  /** @type {{ update: () => void }} */
  #layout; // full or compact (layout.js), chosen again when the box or what it shows changes
  // The explorer reads its attributes once, when the core has loaded (#mount's start()): until
  // then a change waits for that read, and afterwards goes to the explorer as it comes.
  #live = false;
  /** @type {{ config: import('../../types/config').Config } | null} */
  #pendingConfig = null; // a config property set before the explorer read its start (parsed)

  constructor() {
    super();
    const shadow = this.attachShadow({ mode: 'open' });
    adoptStyles(shadow, this.ownerDocument);
    // .ae-frame is the container the layout's @container rules measure; it lives in the shadow
    // root, so no host style reaches it (a host's `all: unset` once unset the container-type
    // when it sat on :host)
    const frame = shadow.appendChild(this.ownerDocument.createElement('div'));
    frame.className = 'ae-frame';
    this.#box = frame.appendChild(this.ownerDocument.createElement('div'));
    this.#box.className = 'ae';
    this.#layout = watchLayout(this, frame);
    this.#ready = this.#pendingReady();
    this.#watchLandmarks();
    // (a keydown a listener inside stopped never bubbles to the host: noted on the way in, kept)
    this.addEventListener('keydown', (ev) => this.#keptKeys.add(/** @type {KeyboardEvent} */ (ev).code || /** @type {KeyboardEvent} */ (ev).key), { capture: true });
    for (const type of ['keydown', 'keypress', 'keyup']) this.addEventListener(type, (ev) => this.#containKey(/** @type {KeyboardEvent} */ (ev)));
  }

  // Keys the element acts on stay in it: a slide deck (reveal.js), an LMS or any page with its own
  // shortcuts never sees them. Listened on the host, so every listener inside has run: a key is
  // the element's when a listener there marked it handled (preventDefault), when it is typed in a
  // field (all but Tab), or when it presses a button, a checkbox, a summary or a link (Space,
  // Enter). Its keyup and keypress go with it. Every other key reaches the page as before.
  /** @type {Set<string>} */
  #keptKeys = new Set();
  /** @param {KeyboardEvent} ev */
  #containKey(ev) {
    const inside = /** @type {Element} */ (ev.composedPath()[0]);
    const id = ev.code || ev.key;
    const keep = ev.type === 'keydown' ? keyIsTheElements(ev, inside) : this.#keptKeys.has(id);
    if (ev.type === 'keyup' || (ev.type === 'keydown' && !keep)) this.#keptKeys.delete(id);
    if (keep) ev.stopPropagation();
  }

  // `ready` is one promise per mount that settles exactly once: resolved when the element shows
  // what its attributes ask for, rejected with an Error (the message the element shows) when it
  // ends in an error instead. A promise a host already holds stays pending across remounts (a
  // new src) until one of them settles.
  #pendingReady() {
    if (this.#ready && !this.#ready.settled) return this.#ready;
    const r = /** @type {Ready} */ ({ settled: false }); // and the rest just below
    r.promise = new Promise((ok, fail) => ((r.resolve = ok), (r.reject = fail)));
    r.promise.catch(() => {}); // a host that never reads ready sees no unhandled rejection
    return (this.#ready = r);
  }
  /** @param {number} token @param {string} [message] */
  #settle(token, message) {
    if (token !== this.#srcToken) return; // a newer mount settles it
    const r = this.#pendingReady();
    if (message) {
      r.settled = true;
      r.reject(new Error(message));
    } else if (!r.settled) {
      r.settled = true;
      r.resolve();
    }
  }

  // The shadow root the constructor attached (open, so this.shadowRoot is it).
  get #shadow() { return /** @type {ShadowRoot} */ (this.shadowRoot); }
  // The explorer's API, for what only it has (the exports). Before the head is drawn, or in a mode
  // that shows no single head, an export says what to do instead of failing on a null.
  /** @param {string} what */
  #api(what) {
    const app = /** @type {ExplorerApi | null} */ (this.#app);
    const explorer = app && typeof app.exportCSV === 'function';
    if (explorer && app.view) return app; // a head is drawn (result would copy it)
    throw new Error(app && !explorer
      ? `attention-explorer: ${what}() belongs to the explorer; mode="${this.getAttribute('mode')}" has no exports (leave out mode for the explorer)`
      : `attention-explorer: ${what}() needs the head drawn first: await el.ready, then export`);
  }

  connectedCallback() {
    this.#upgradeProperties();
    if (!this.#started) this.#mount();
    // In a frame, the frame's height goes to the page around it (frame-height.js)
    const win = this.ownerDocument.defaultView;
    if (win && win.parent !== win) import('./frame-height.js').then((m) => m.reportFrameHeight(win), () => {});
  }

  // A property set on the element before its definition loaded (a framework that renders first)
  // is an own property of the instance that hides the class's setter: take it and set it again.
  #upgradeProperties() {
    const self = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (this));
    for (const name of ATTRIBUTES) {
      if (!Object.prototype.hasOwnProperty.call(this, name)) continue;
      const value = self[name];
      delete self[name];
      self[name] = value;
    }
  }

  disconnectedCallback() {
    if (this.#app && this.#app.setStep && this.#app.state?.playing) this.#app.setStep(this.#app.state.step); // stops play
    else if (this.#app && this.#app.pause) this.#app.pause(); // stops training
    // Removed for good: free it (its listeners would keep it alive). A move within the page
    // (disconnected, then connected again in the same task) keeps its state; re-inserting a
    // removed element mounts it afresh from its attributes.
    queueMicrotask(() => {
      if (!this.isConnected) this.#unmount();
    });
  }

  /** @param {string} type @param {unknown} [detail] */
  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent('explorer-' + type, { detail, bubbles: true, composed: true }));
  }

  // Each landmark's own name, then this element's number (once: a name that has it is left alone).
  #nameLandmarks() {
    const which = ` (explorer ${this.#number})`;
    for (const e of this.#shadow.querySelectorAll(LANDMARKS)) {
      const own = e.getAttribute('aria-label') ?? '';
      if (!own.endsWith(which)) e.setAttribute('aria-label', own + which);
    }
  }

  // Names the landmarks again when elements are added (not for text that changes, which a head
  // in training does every frame) or a landmark is renamed; naming them changes no name twice.
  #watchLandmarks() {
    const win = this.ownerDocument.defaultView;
    if (!win || !win.MutationObserver) return;
    const added = (/** @type {MutationRecord} */ r) => r.type === 'attributes' || [...r.addedNodes].some((n) => n.nodeType === 1);
    new win.MutationObserver((records) => records.some(added) && this.#nameLandmarks())
      .observe(this.#box, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
  }

  #unmount() {
    this.#started = false;
    this.#live = false;
    this.#srcToken++; // a mount still under way (a src loading, a mode's code) stops where it is
    // and its ready settles now: a host awaiting it must not wait for ever (docs/embedding.md)
    if (!this.#ready.settled) {
      this.#ready.settled = true;
      this.#ready.reject(Object.assign(new Error('<attention-explorer> was removed from the page before it was ready: await the ready of the element you put back (or of a new one)'), { name: 'AbortError' }));
    }
    if (this.#fetching) this.#fetching.abort();
    this.#fetching = null;
    if (this.#app) this.#app.destroy();
    this.#app = null;
    this.#modeApp = null;
    this.#box.textContent = '';
    delete this.dataset.ready;
    if (this.#stopTheme) this.#stopTheme();
    this.#stopTheme = null;
  }

  // The theme: the theme attribute, or with "auto" the page's color-scheme or the reader's system
  // setting (web/blocks/host-theme.js), followed live: a change of either re-applies it, and only then,
  // so a learner's own press of the theme button stays until the page's theme changes. A lab
  // only gets data-theme; the explorer and train modes draw the theme themselves.
  /** @type {(() => void) | null} */
  #stopTheme = null;
  /** @type {string | null} */
  #theme = null; // the theme last applied
  #applyTheme() {
    this.#stopTheme ||= watchTheme(this, () => resolveTheme(this.getAttribute('theme'), this) !== this.#theme && this.#applyTheme());
    const t = (this.#theme = resolveTheme(this.getAttribute('theme'), this));
    if (this.#modeApp && !this.#modeApp.setTheme) {
      this.dataset.theme = t;
      this.#modeApp.redraw?.();
    } else this.#app?.setTheme?.(t);
  }

  /** Ends a mount in an error: shown, fired as explorer-error, and ready rejects with it. @param {number} token @param {string} text */
  #message(token, text, { retry = false } = {}) {
    const message = clipMessage(text);
    const p = this.#box.appendChild(this.ownerDocument.createElement('p'));
    p.className = 'error';
    p.setAttribute('role', 'alert');
    p.textContent = message;
    if (retry) {
      const b = p.appendChild(this.ownerDocument.createElement('button'));
      b.type = 'button';
      b.className = 'retry';
      b.textContent = 'Try again';
      b.addEventListener('click', () => this.#mount());
    }
    this.dataset.ready = 'true';
    this.#emit('error', { message });
    this.#settle(token, message);
  }

  /** A line saying what is under way (loading a src); returns it, to remove. @param {string} text */
  #status(text) {
    const p = this.#box.appendChild(this.ownerDocument.createElement('p'));
    p.className = 'note';
    p.setAttribute('role', 'status');
    p.textContent = clipMessage(text);
    return p;
  }

  async #mount() {
    this.#unmount();
    this.#started = true;
    const token = ++this.#srcToken;
    this.#pendingReady();
    const mode = this.getAttribute('mode') || 'explorer';
    if (!isExplorerMode(mode)) {
      const entry = MODES.get(mode); // a Map: "__proto__" or "constructor" are no modes
      if (!entry) {
        adoptStyles(this.#shadow, this.ownerDocument);
        const known = [...EXPLORER_MODES, ...MODES.keys()].map((m) => `“${m}”`).join(', ');
        return this.#message(token, `<attention-explorer>: there is no mode “${clipMessage(mode, 40)}” in this version. The modes are ${known}; leave mode out for the explorer.`);
      }
      let app, firstError = '';
      try {
        const lab = 'load' in entry ? await entry.load() : entry;
        if (token !== this.#srcToken || !this.#started) return; // remounted or removed while its code loaded
        adoptStyles(this.#shadow, this.ownerDocument, lab.css);
        app = lab.mount(this.#box, this, {
          doc: this.ownerDocument,
          params: this.getAttribute('params') || '',
          emit: (type, detail) => {
            // an error said while it starts (train: a step or follow attribute left out): ready rejects with it
            if (type === 'error' && !this.#ready.settled && token === this.#srcToken) firstError ||= /** @type {{ message: string }} */ (detail).message;
            this.#emit(type, detail);
          },
        });
        this.#app = this.#modeApp = app;
        this.#applyTheme();
        await app.ready;
      } catch (thrown) {
        if (token !== this.#srcToken) return;
        const e = /** @type {{ code?: unknown, slots?: number, message?: string } | null | undefined} */ (thrown);
        if (e && e.code === 'AE_TRAINER_SLOTS') {
          return this.#message(token, `This training panel cannot start: the page already runs ${e.slots ?? 8} training panels, the most one page can run at once. It starts once another one has left the page: then press Try again.`, { retry: true });
        }
        return this.#message(token, `<attention-explorer>: the ${mode} mode could not start: ${e && e.message}`);
      }
      if (token !== this.#srcToken || this.#app !== app) return; // remounted meanwhile
      this.dataset.ready = 'true';
      this.#emit('ready', { mode });
      this.#settle(token, firstError);
      return;
    }
    adoptStyles(this.#shadow, this.ownerDocument);
    this.#mounting = true;
    let srcError = '', srcText = null;
    const src = this.getAttribute('src');
    if (src && this.getAttribute('config') == null) {
      // The latest src wins: a new src (or the element's removal) aborts this fetch (#unmount).
      const fetching = (this.#fetching = new AbortController());
      let url = src;
      try {
        url = new URL(src, this.ownerDocument.baseURI).href;
      } catch {}
      const loading = this.#status(`Loading the config from “${clipMessage(url, 120)}”…`);
      try {
        srcText = await fetchConfigText(url, undefined, { signal: fetching.signal });
      } catch (e) {
        srcError = /** @type {Error} */ (e).message;
      }
      if (token !== this.#srcToken || fetching.signal.aborted) return; // a newer mount started meanwhile
      this.#fetching = null;
      loading.remove();
    }
    this.#mounting = false;
    // The explorer reads the attributes once its core has loaded, so whatever a host set since
    // (attributes right after inserting the element, a framework's config property) counts, as it
    // would later; from then on each change goes to the explorer as it comes (#live).
    const initial = () => {
      this.#live = true;
      const pending = this.#pendingConfig;
      this.#pendingConfig = null;
      return {
        preset: this.getAttribute('preset'),
        config: pending ? pending.config : srcText ?? this.getAttribute('config'),
        step: /** @type {import('../../types/config').Step | null} */ (this.getAttribute('step')), // checked by the explorer (state.js fromOptions)
        follow: this.getAttribute('follow'), // the text: one the explorer cannot use, it says so (state.js fromOptions)
        causal: parseCausal(this.getAttribute('causal')),
        geometry: mode === 'geometry' ? this.getAttribute('params') || '' : null, // (state.js fromOptions reads it, and says a bad one)
      };
    };
    let firstError = ''; // the first error of this mount: ready rejects with it
    let app;
    try {
      app = this.#app = mountExplorer(this.#shadow, {
        doc: this.ownerDocument,
        container: this.#box,
        host: this,
        url: false,
        scroll: false,
        core: sharedCore({ core: 'forward' }), // the explorer never trains: the forward core is enough
        initial,
        controls: parseControls(this.getAttribute('controls')),
        emit: (/** @type {string} */ type, /** @type {any} */ detail) => { // detail: each event's own (types/element.d.ts)
          if (type === 'error' && detail.message && !this.#ready.settled && token === this.#srcToken) firstError ||= detail.message;
          this.#emit(type, type === 'state' ? { mode, ...detail } : detail); // the geometry view's planes: { mode, params }
          if (type === 'ready') this.#settle(token, firstError);
        },
      });
    } catch (e) {
      return this.#message(token, `<attention-explorer>: the explorer could not start: ${/** @type {Error} */ (e).message}`);
    }
    this.#applyTheme(); // starts following the page's theme
    await app.ready;
    if (token !== this.#srcToken) return;
    if (srcError) app.showError(srcError);
    // The explorer draws on the next frame; if that draw found no head to show (values that
    // overflow float32, a core that did not load), it said why and will not be ready: settle.
    const win = /** @type {Window} */ (this.ownerDocument.defaultView); // connected, so in a window
    win.requestAnimationFrame(() => {
      if (token === this.#srcToken && !this.#ready.settled && firstError) {
        this.dataset.ready = 'true';
        this.#settle(token, firstError);
      }
    });
  }

  /** @param {string} name @param {string | null} old @param {string | null} value */
  attributeChangedCallback(name, old, value) {
    const app = /** @type {ExplorerApi | null} */ (this.#app); // a mode's goes to #modeAttribute below
    if (name === 'config') this.#pendingConfig = null; // the attribute set last wins over a property set before
    if (name === 'mode') return this.isConnected && old !== value && this.#mount();
    if (name === 'layout') return this.#layout.update();
    // A new src (or a config, which wins over it) while a src is loading: start again with it.
    if (this.#mounting && (name === 'src' || name === 'config') && old !== value && this.isConnected) return this.#mount();
    // A src set at any time, even before the explorer has read its attributes, loads it (config wins).
    if (name === 'src' && value && old !== value && this.#started && !this.#modeApp && this.getAttribute('config') == null && !this.#pendingConfig) return this.#mount();
    if (this.#modeApp) return this.#modeAttribute(name, old, value);
    if (!app || !app.setPreset || this.#mounting || !this.#live) return; // the mount reads every attribute
    if (name === 'params' && this.mode === 'geometry' && old !== value && value !== this.params) {
      const g = geometryParams(value ?? '');
      if (g.ignored.length) return app.showError(ignoredText(g.ignored, { attribute: true }));
      return app.setGeometry(g.planes);
    }
    try {
      switch (name) {
        case 'preset':
          if (value && this.getAttribute('config') == null) app.setPreset(value);
          break;
        case 'config':
          if (value != null) app.setConfig(value);
          break;
        case 'step':
          app.setStep(stepOf(value));
          this.#noteIgnored(app, name, value);
          break;
        case 'follow':
          app.setFollow(parseFollow(value));
          this.#noteIgnored(app, name, value);
          break;
        case 'causal': {
          const causal = parseCausal(value);
          if (causal !== undefined) app.setCausal(causal);
          break;
        }
        case 'controls':
          app.setControls(parseControls(value));
          break;
        case 'theme':
          this.#applyTheme();
          break;
      }
    } catch (e) {
      app.showError(`The ${name} attribute was not used: ${/** @type {Error} */ (e).message}`);
    }
  }

  /**
   * Says when a new step or follow was left out, as the start does (state.js fromOptions): "The
   * follow="9" attribute was ignored: this head has 5 tokens, rows 0 to 4." Like the page's notes
   * on its link, the message stays until the learner does something to the head (mount.js showError).
   * @param {ExplorerApi} app @param {'step' | 'follow'} name @param {string | null} value
   */
  #noteIgnored(app, name, value) {
    const why = attributeWhy(name, value, app.state.config?.tokens.length ?? 0);
    if (why) app.showError(ignoredText([{ name, value: value ?? '', why }], { attribute: true }));
  }

  /** A lab's or train's attribute: params restarts it, theme recolours it, train passes step and follow on. */
  /** @param {string} name @param {string | null} old @param {string | null} value */
  #modeAttribute(name, old, value) {
    const app = /** @type {App} */ (this.#modeApp);
    if (name === 'params') {
      if (old !== value && value !== app.params?.()) this.#mount();
    } else if (name === 'theme') {
      this.#applyTheme();
    } else if (app.explorer && (name === 'step' || name === 'follow')) {
      if ('panel' in app && !app.panel) return; // train reads both once its head is shown (mode-train.js)
      if (name === 'step') app.explorer.setStep(stepOf(value));
      else app.explorer.setFollow(parseFollow(value));
      if (this.#ready.settled) this.#noteIgnored(app.explorer, name, value); // (before, train's mount says it)
    }
  }

  // Properties. Simple ones reflect to their attribute; reading gives the live state (what the
  // learner sees now), which may have moved on from the attribute.
  get preset() { return this.#app?.state?.preset ?? this.getAttribute('preset'); }
  set preset(v) { this.setAttribute('preset', String(v)); }
  get step() { return this.#app?.state ? this.#app.state.step : this.getAttribute('step'); }
  set step(v) { v == null ? this.removeAttribute('step') : this.setAttribute('step', String(v)); if (v == null) this.#app?.setStep?.(null); }
  get follow() { return this.#app?.state ? this.#app.state.follow : parseFollow(this.getAttribute('follow')); }
  set follow(v) { v == null ? this.removeAttribute('follow') : this.setAttribute('follow', String(v)); if (v == null) this.#app?.setFollow?.(null); }
  get causal() { return this.#app?.state?.config ? this.#app.state.config.causal : parseCausal(this.getAttribute('causal')); }
  set causal(v) { this.setAttribute('causal', v ? 'true' : 'false'); }
  get controls() { return this.#app?.state ? [...this.#app.state.controls] : parseControls(this.getAttribute('controls')); }
  set controls(v) { this.setAttribute('controls', Array.isArray(v) ? v.join(' ') : String(v)); }
  /** The layout asked for (the attribute; "auto" when absent). The one shown is data-layout. */
  get layout() { return this.getAttribute('layout') || 'auto'; }
  set layout(v) { this.setAttribute('layout', String(v)); }
  get theme() { return this.#app?.state ? this.#app.state.theme : this.getAttribute('theme'); }
  set theme(v) { this.setAttribute('theme', String(v)); }
  get mode() { return this.getAttribute('mode') || 'explorer'; }
  set mode(v) { this.setAttribute('mode', String(v)); }
  get src() { return this.getAttribute('src'); }
  /** A lab's or train's state now, as the params attribute takes it ("dk=64&n=32&seed=1"). */
  get params() {
    if (this.#modeApp?.params) return this.#modeApp.params();
    const planes = this.mode === 'geometry' && this.#app?.state?.geometry;
    return planes ? `geometry=${writePlanes(planes)}` : this.getAttribute('params') || '';
  }
  set params(v) { this.setAttribute('params', String(v)); }
  set src(v) { this.setAttribute('src', String(v)); }
  /** The head as the config format (a copy); setting takes an object or JSON text (untrusted: parsed strictly, throws on error). */
  /** @returns {import('../../types/config').Config | null} */
  get config() {
    if (isExplorerMode(this.mode) && !this.#live) return this.#pendingConfig ? structuredClone(this.#pendingConfig.config) : null;
    return this.#app?.config ? this.#app.config() : null;
  }
  /**
   * Before the explorer has started (a framework sets properties as it renders), the config is
   * checked now, throwing the same error as later, and shown when the explorer starts.
   * @param {import('../../types/config').ConfigInput | string} v
   */
  set config(v) {
    if (!isExplorerMode(this.mode)) throw new Error(`<attention-explorer>: config belongs to the explorer; mode="${this.mode}" shows no single head (leave out mode for the explorer)`);
    if (this.#app?.setConfig && this.#live) this.#app.setConfig(v);
    else this.#pendingConfig = { config: readConfig(v, LIM).config };
  }
  /**
   * Settles once the element has started: resolves when the head (or the mode) is drawn as the
   * attributes ask; rejects with an Error whose message is the one the element shows when it
   * ended in an error instead (an unknown mode or preset, a config or src that could not be used,
   * values that overflow, a mode that could not start). The explorer-error event carries the
   * same message. A new src or mode gives a new promise.
   */
  get ready() { return this.#ready.promise; }
  /** The core's result for the head now shown: { n, m, Q, K, V, S, M, A, O, ... } (copies). */
  get result() { return this.#app?.result ?? null; }

  // Exports: m is a matrix name (X Wq Wk Wv Q K V S M A O) or null for the whole view.
  /** @param {MatrixName} m */
  exportCSV(m) { return this.#api('exportCSV').exportCSV(m); }
  /** @param {MatrixName | null} m */
  exportJSON(m = null) { return this.#api('exportJSON').exportJSON(m); }
  /** @param {MatrixName | null} m */
  exportSVG(m = null) { return this.#api('exportSVG').exportSVG(m); }
  /** @param {MatrixName | null} m */
  exportPNG(m = null) { return this.#api('exportPNG').exportPNG(m); }
  exportPyTorch() { return this.#api('exportPyTorch').exportPyTorch(); }
}

if (globalThis.customElements && !customElements.get('attention-explorer')) customElements.define('attention-explorer', AttentionExplorer);
