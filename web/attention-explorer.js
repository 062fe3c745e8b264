// attention-explorer.js: the <attention-explorer> custom element. Each element mounts its own
// explorer (web/explorer.js) in a Shadow DOM styled by one constructable stylesheet, so several
// elements on a page are independent, the host page's CSS cannot reach inside, and nothing needs
// 'unsafe-inline'. All elements share one loaded Wasm core.
//
//   <script type="module" src="attention-explorer.js"></script>
//   <attention-explorer preset="cat" step="softmax" follow="4"></attention-explorer>
//
// Attributes (all optional; each can also be set as a property):
//   preset    cat | worked-example | previous-token
//   config    the head as JSON (the format of web/config.js); wins over preset
//   src       URL of a JSON config (same origin, or a server that allows it with CORS)
//   step      project | score | scale | mask | softmax | mix (absent = every step)
//   follow    0-based row of the token to follow
//   causal    "true" / "false": overrides the config's causal flag
//   controls  the control groups to show, e.g. "steps follow explain" ("classroom mode");
//             groups: presets theme steps follow explain edit config export (default: all)
//   theme     light | dark | auto (default: the reader's prefers-color-scheme)
//   mode      explorer (default), a lab (sqrt-dk-lab stability-lab misconceptions-lab predict-lab
//             multihead-lab cross-lab fused-lab) or train (web/element-modes.js); more with registerMode()
//   params    a lab's or train's state: the query string of its page without the mode,
//             e.g. mode="sqrt-dk-lab" params="dk=128&n=16&seed=3" (web/labs.html?mode=sqrt-dk-lab&dk=128...)
// Events (bubbling, composed; detail in brackets):
//   explorer-step [{ step }]   explorer-select [{ cell, follow }]   explorer-change [{ config }]
//   explorer-error [{ message }]   explorer-ready   explorer-state [{ mode, params }] (labs, train)
// Configs from attributes and src are untrusted: parsed strictly (config.js), size-checked
// before parsing, shown only as text.

import { mountExplorer, sharedCore, CONTROLS } from './explorer.js';
import { EXPLORER_CSS } from './gen/explorer-css.js';
import { MAX_JSON, STEPS } from './config.js';
import { MODES as BUILT_IN_MODES } from './element-modes.js';

export { loadAttention, LIMITS } from './attention.js';
export { mountExplorer, sharedCore };

const ATTRIBUTES = ['preset', 'config', 'src', 'step', 'follow', 'causal', 'controls', 'theme', 'mode', 'params'];

// Modes: name -> { mount, css }. "explorer" is built in; the labs and "train" come from
// web/element-modes.js. mount(container, element, { doc, params, emit }) returns
// { destroy(), ready?, params?(), redraw?(), setTheme?(theme), pause?() }; css is adopted on top
// of the explorer's stylesheet while the mode is shown.
const MODES = new Map();
/** Adds a mode: registerMode('my-lab', (container, element, ctx) => ({ destroy() {} }), { css }). */
export function registerMode(name, mount, { css = '' } = {}) {
  if (!/^[a-z][a-z0-9-]*$/.test(name) || name === 'explorer') throw new Error(`registerMode: “${name}” is not a free mode name (lower-case letters, digits and dashes)`);
  MODES.set(name, { mount, css });
}
for (const [name, m] of BUILT_IN_MODES) registerMode(name, m.mount, { css: m.css });

// One stylesheet per document and CSS text, shared by every element in it.
const SHEETS = new WeakMap();
const constructable = (shadow) => 'adoptedStyleSheets' in shadow && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype;
function adoptStyles(shadow, doc, extra = '') {
  const texts = [EXPLORER_CSS, extra].filter(Boolean);
  if (constructable(shadow)) {
    if (!SHEETS.has(doc)) SHEETS.set(doc, new Map());
    const cache = SHEETS.get(doc);
    shadow.adoptedStyleSheets = texts.map((text) => {
      if (!cache.has(text)) {
        const sheet = new doc.defaultView.CSSStyleSheet();
        sheet.replaceSync(text);
        cache.set(text, sheet);
      }
      return cache.get(text);
    });
  } else {
    // Old browsers without constructable stylesheets (needs style-src 'unsafe-inline' under a CSP).
    for (const old of shadow.querySelectorAll('style')) old.remove();
    for (const text of texts) shadow.prepend(doc.createElement('style')).textContent = text;
  }
}

const parseCausal = (v) => (v == null ? undefined : v === '' || v === 'true' ? true : v === 'false' ? false : undefined);
const parseFollow = (v) => (v != null && /^\d+$/.test(v.trim()) ? Number(v.trim()) : null);
const parseControls = (v) => (v == null ? CONTROLS : v.split(/[\s,]+/).filter(Boolean));

/** Fetches a config's text, refusing anything past MAX_JSON characters before reading it all. */
export async function fetchConfigText(url, fetchFn = globalThis.fetch) {
  let res;
  try {
    res = await fetchFn(url, { credentials: 'omit', mode: 'cors' });
  } catch (e) {
    throw new Error(`Could not load the config from “${url}”. A config on another site loads only if that site allows it (CORS: Access-Control-Allow-Origin), and a page opened from file:// cannot load files at all: put the JSON in the config attribute instead. (The browser said: ${e.message})`);
  }
  if (!res.ok) throw new Error(`Could not load the config from “${url}”: the server answered ${res.status} ${res.statusText}.`);
  const declared = Number(res.headers.get('content-length'));
  if (declared > MAX_JSON) throw new Error(`The config at “${url}” is ${declared} bytes; the limit is ${MAX_JSON}. It was not loaded.`);
  if (!res.body || !res.body.getReader) return res.text();
  const reader = res.body.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_JSON) {
      reader.cancel();
      throw new Error(`The config at “${url}” is more than ${MAX_JSON} bytes; the limit is ${MAX_JSON}. It was not loaded.`);
    }
    parts.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) all.set(p, at), (at += p.length);
  return new TextDecoder().decode(all);
}

const Base = globalThis.HTMLElement || class {};

export class AttentionExplorer extends Base {
  static get observedAttributes() {
    return ATTRIBUTES;
  }

  #app = null; // the explorer's API (or a lab's), once mounted
  #modeApp = null; // the same when it is a mode's (a lab or train), else null
  #box = null; // the .ae wrapper inside the shadow root
  #srcToken = 0;
  #mounting = false;

  constructor() {
    super();
    const shadow = this.attachShadow({ mode: 'open' });
    adoptStyles(shadow, this.ownerDocument);
    this.#box = shadow.appendChild(this.ownerDocument.createElement('div'));
    this.#box.className = 'ae';
  }

  connectedCallback() {
    if (!this.#app && !this.#mounting) this.#mount();
  }

  disconnectedCallback() {
    if (this.#app && this.#app.setStep && this.#app.state.playing) this.#app.setStep(this.#app.state.step); // stops play
    else if (this.#app && this.#app.pause) this.#app.pause(); // stops training
    // Removed for good: free it (its listeners would keep it alive). A move within the page
    // (disconnected, then connected again in the same task) keeps its state; re-inserting a
    // removed element mounts it afresh from its attributes.
    queueMicrotask(() => {
      if (!this.isConnected) this.#unmount();
    });
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent('explorer-' + type, { detail, bubbles: true, composed: true }));
  }

  #unmount() {
    if (this.#app) this.#app.destroy();
    this.#app = null;
    this.#modeApp = null;
    this.#box.textContent = '';
    delete this.dataset.ready;
    if (this.#darkQuery) this.#darkQuery.removeEventListener('change', this.#onDark);
    this.#darkQuery = null;
  }

  // A lab's theme: the theme attribute, or with "auto" the reader's system setting (followed live).
  // The explorer and train modes set data-theme themselves.
  #darkQuery = null;
  #onDark = () => this.#labTheme();
  #labTheme() {
    const t = this.getAttribute('theme');
    if (t !== 'light' && t !== 'dark' && !this.#darkQuery) {
      this.#darkQuery = this.ownerDocument.defaultView.matchMedia('(prefers-color-scheme: dark)');
      this.#darkQuery.addEventListener('change', this.#onDark);
    }
    this.dataset.theme = t === 'light' || t === 'dark' ? t : this.#darkQuery.matches ? 'dark' : 'light';
    this.#modeApp?.redraw?.();
  }

  #message(text) {
    const p = this.#box.appendChild(this.ownerDocument.createElement('p'));
    p.className = 'error';
    p.setAttribute('role', 'alert');
    p.textContent = text;
    this.dataset.ready = 'true';
    this.#emit('error', { message: text });
  }

  async #mount() {
    this.#unmount();
    const mode = this.getAttribute('mode') || 'explorer';
    if (mode !== 'explorer') {
      const lab = MODES.get(mode);
      adoptStyles(this.shadowRoot, this.ownerDocument, lab ? lab.css : '');
      if (!lab) {
        const known = ['explorer', ...MODES.keys()].map((m) => `“${m}”`).join(', ');
        return this.#message(`<attention-explorer>: there is no mode “${mode}” in this version. The modes are ${known}; leave mode out for the explorer.`);
      }
      const token = ++this.#srcToken;
      const app = lab.mount(this.#box, this, {
        doc: this.ownerDocument,
        params: this.getAttribute('params') || '',
        emit: (type, detail) => this.#emit(type, detail),
      });
      this.#app = this.#modeApp = app;
      if (!app.setTheme) this.#labTheme();
      try {
        await app.ready;
      } catch (e) {
        if (token === this.#srcToken) this.#message(`<attention-explorer>: the ${mode} mode could not start: ${e.message}`);
        return;
      }
      if (token !== this.#srcToken || this.#app !== app) return; // remounted meanwhile
      this.dataset.ready = 'true';
      this.#emit('ready', { mode });
      return;
    }
    adoptStyles(this.shadowRoot, this.ownerDocument);
    this.#mounting = true;
    const token = ++this.#srcToken;
    const initial = {
      preset: this.getAttribute('preset'),
      config: this.getAttribute('config'),
      step: this.getAttribute('step'),
      follow: parseFollow(this.getAttribute('follow')),
      causal: parseCausal(this.getAttribute('causal')),
      theme: this.getAttribute('theme') || 'auto',
    };
    let srcError = '';
    const src = this.getAttribute('src');
    if (src && initial.config == null) {
      try {
        initial.config = await fetchConfigText(new URL(src, this.ownerDocument.baseURI).href);
      } catch (e) {
        srcError = e.message;
      }
      if (token !== this.#srcToken) return; // a newer mount started meanwhile
    }
    this.#mounting = false;
    this.#app = mountExplorer(this.shadowRoot, {
      doc: this.ownerDocument,
      container: this.#box,
      host: this,
      url: false,
      scroll: false,
      initial,
      controls: parseControls(this.getAttribute('controls')),
      emit: (type, detail) => this.#emit(type, detail),
    });
    await this.#app.ready;
    if (srcError && this.#app) this.#app.showError(srcError);
  }

  attributeChangedCallback(name, old, value) {
    const app = this.#app;
    if (name === 'mode') return this.isConnected && old !== value && this.#mount();
    if (this.#modeApp) return this.#modeAttribute(name, old, value);
    if (!app || !app.setPreset || this.#mounting) return; // the mount reads every attribute
    try {
      switch (name) {
        case 'preset':
          if (value && this.getAttribute('config') == null) app.setPreset(value);
          break;
        case 'config':
          if (value != null) app.setConfig(value);
          break;
        case 'src':
          if (value && this.getAttribute('config') == null) this.#mount();
          break;
        case 'step':
          app.setStep(STEPS.includes(value) ? value : null);
          break;
        case 'follow':
          app.setFollow(parseFollow(value));
          break;
        case 'causal':
          if (parseCausal(value) !== undefined) app.setCausal(parseCausal(value));
          break;
        case 'controls':
          app.setControls(parseControls(value));
          break;
        case 'theme':
          app.setTheme(value);
          break;
      }
    } catch (e) {
      app.showError(`The ${name} attribute was not used: ${e.message}`);
    }
  }

  /** A lab's or train's attribute: params restarts it, theme recolours it, train passes step and follow on. */
  #modeAttribute(name, old, value) {
    const app = this.#modeApp;
    if (name === 'params') {
      if (old !== value && value !== app.params?.()) this.#mount();
    } else if (name === 'theme') {
      if (app.setTheme) app.setTheme(value);
      else this.#labTheme();
    } else if (app.explorer && name === 'step') app.explorer.setStep(STEPS.includes(value) ? value : null);
    else if (app.explorer && name === 'follow') app.explorer.setFollow(parseFollow(value));
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
  get theme() { return this.#app?.state ? this.#app.state.theme : this.getAttribute('theme'); }
  set theme(v) { this.setAttribute('theme', String(v)); }
  get mode() { return this.getAttribute('mode') || 'explorer'; }
  set mode(v) { this.setAttribute('mode', String(v)); }
  get src() { return this.getAttribute('src'); }
  /** A lab's or train's state now, as the params attribute takes it ("dk=64&n=32&seed=1"). */
  get params() { return this.#modeApp?.params ? this.#modeApp.params() : this.getAttribute('params') || ''; }
  set params(v) { this.setAttribute('params', String(v)); }
  set src(v) { this.setAttribute('src', String(v)); }
  /** The head as the config format (a copy); setting takes an object or JSON text (untrusted: parsed strictly, throws on error). */
  get config() { return this.#app?.config ? this.#app.config() : null; }
  set config(v) {
    if (!this.#app?.setConfig) throw new Error('<attention-explorer> is not ready yet: await element.ready');
    this.#app.setConfig(v);
  }
  /** Resolves when the core has loaded and the head is set up. */
  get ready() { return customElements.whenDefined('attention-explorer').then(() => new Promise((ok) => (this.dataset.ready ? ok() : this.addEventListener('explorer-ready', () => ok(), { once: true })))); }
  /** The core's result for the head now shown: { n, m, Q, K, V, S, M, A, O, ... } (copies). */
  get result() { return this.#app?.result ?? null; }

  // Exports: m is a matrix name (X Wq Wk Wv Q K V S M A O) or null for the whole view.
  exportCSV(m) { return this.#app.exportCSV(m); }
  exportJSON(m = null) { return this.#app.exportJSON(m); }
  exportSVG(m = null) { return this.#app.exportSVG(m); }
  exportPNG(m = null) { return this.#app.exportPNG(m); }
  exportPyTorch() { return this.#app.exportPyTorch(); }
}

if (globalThis.customElements && !customElements.get('attention-explorer')) customElements.define('attention-explorer', AttentionExplorer);
