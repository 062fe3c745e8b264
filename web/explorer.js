// explorer.js: one explorer, mounted on a root (the page's document, or a custom element's shadow
// root). Every piece of state lives in the closure of mountExplorer, so several explorers on one
// page are independent. Events only change `state`; schedule() batches one requestAnimationFrame
// that recomputes (attn.forward) when the config changed and redraws.
// Data flows one way: config -> core -> result -> pure renderers (heatmap, explain) -> DOM.

import { loadAttention, LIMITS } from './attention.js';
import { fmt, fmtShort, parseNumber } from './format.js';
import { parseConfig, forwardArgs, isDirect, cloneConfig, readUrlState, writeUrlState, STEPS, MAX_NAME } from './config.js';
import { PRESETS, DEFAULT_PRESET } from './presets.js';
import { createHeatmap } from './heatmap.js';
import { explainCell, narration, followSentence, matrixInfo, displayed, labeler, STEP_MATRICES } from './explain.js';
import { scaleKind, maxAbsFinite, legendGradient, css, maskedRgb, cellRgb } from './colors.js';
import { matrixCSV, matrixJSON, headJSON, heatmapSVG, viewSVG, paintPNG, pytorchScript, EXPORTABLE } from './export.js';

export const LIM = Object.freeze({ maxTokens: Math.min(256, LIMITS.maxTokens), maxWidth: LIMITS.maxWidth });
const GROUPS = [
  ['Input and learned weights', ['X', 'Wq', 'Wk', 'Wv']],
  ['1. Project', ['Q', 'K', 'V']],
  ['2–4. Score, scale, mask', ['S', 'M']],
  ['5–6. Softmax and mix', ['A', 'O']],
];
const PRODUCED_AT = { Q: 0, K: 0, V: 0, S: 1, M: 3, A: 4, O: 5 };
const TOKEN_ROWS = new Set(['X', 'Q', 'K', 'V', 'S', 'M', 'A', 'O']);
const PLAY_MS = 2600;
const MANY = 32; // above this many tokens, chips and the token editor give way to compact controls

/** The control groups a host can show or hide ("classroom mode"). `link` exists on the page only. */
export const CONTROLS = ['presets', 'theme', 'link', 'steps', 'follow', 'explain', 'edit', 'config', 'export'];

// The one core all explorers on a page share: the Wasm instance is loaded once, on first use.
// forward() is synchronous and returns copies, so sharing it between explorers is safe.
let corePromise = null;
export function sharedCore() {
  corePromise ||= loadAttention();
  return corePromise;
}

// The explorer's markup: constant text (no user data ever goes through innerHTML), no inline
// styles or scripts, so it runs under a strict Content-Security-Policy.
export const MARKUP = `
<div class="bar">
  <label data-control="presets">Preset
    <select id="preset">
      <option value="cat">The cat sat on the</option>
      <option value="worked-example">The lesson’s worked example</option>
      <option value="previous-token">A previous-token head</option>
      <option value="" disabled>(your own head)</option>
    </select>
  </label>
  <button type="button" id="theme" data-control="theme" aria-pressed="false">Dark theme</button>
  <button type="button" id="copy-link" data-control="link">Copy link</button>
</div>
<p id="preset-note" class="note" data-control="presets"></p>
<div id="error" class="error" role="alert" hidden></div>

<section class="controls" aria-label="Steps">
  <div class="steps" role="group" aria-label="Play the six steps" data-control="steps">
    <button type="button" id="back" aria-label="Step back" title="Step back (←)">◀</button>
    <button type="button" id="play" aria-label="Play" title="Play or pause (space)">▶ Play</button>
    <button type="button" id="fwd" aria-label="Step forward" title="Step forward (→)">▶▶</button>
    <span id="step-pills" class="pills"></span>
    <button type="button" id="all" class="pill">All</button>
  </div>
  <p id="narration" class="narration" aria-live="polite"></p>
</section>

<section class="follow-box" aria-label="Follow a token">
  <div data-control="follow"><span class="label">Follow a token:</span> <span id="tokens" class="chips"></span></div>
  <p id="follow-text" class="follow-text" aria-live="polite"></p>
</section>

<div class="layout">
  <div id="matrices" class="matrices" aria-label="The matrices of the head"></div>
  <aside class="inspector" aria-label="Explanation" data-control="explain">
    <h2 id="explain-title" class="explain-title">Hover, focus or tap any cell</h2>
    <p id="explanation" class="explanation" data-role="explanation" aria-live="polite">Each number below says how it was computed, with the real numbers. The cells that fed it light up.</p>
    <div id="editor" class="editor" hidden>
      <label>Value <input id="edit-value" type="text" inputmode="decimal" autocomplete="off" spellcheck="false"></label>
      <button type="button" id="edit-minus" aria-label="Decrease by 0.1">−0.1</button>
      <button type="button" id="edit-plus" aria-label="Increase by 0.1">+0.1</button>
    </div>
  </aside>
</div>

<details class="exports" data-control="export">
  <summary>Export pictures and numbers</summary>
  <div class="export-row">
    <label>What <select id="export-what"><option value="">the whole view</option></select></label>
    <button type="button" id="export-png">PNG</button>
    <button type="button" id="export-svg">SVG</button>
    <button type="button" id="export-csv" title="CSV holds one matrix: choose it under “What”">CSV</button>
    <button type="button" id="export-json">JSON</button>
    <button type="button" id="export-torch">Copy as PyTorch</button>
  </div>
  <p id="export-note" class="note" aria-live="polite"></p>
  <textarea id="export-text" class="export-text" rows="12" readonly spellcheck="false" aria-label="Exported text" hidden></textarea>
</details>

<section class="edit" aria-label="Change the head" data-control="edit">
  <h2>Change the head</h2>
  <div class="toggles">
    <label><input type="checkbox" id="causal"> Causal mask (a token cannot see the future)</label>
    <label><input type="checkbox" id="scaling"> Scale the scores by 1/√d</label>
    <button type="button" id="reset">Reset to the preset</button>
  </div>
  <fieldset class="token-editor">
    <legend>Tokens</legend>
    <ol id="token-list"></ol>
    <button type="button" id="add-token">Add a token</button>
  </fieldset>
  <details class="config" data-control="config">
    <summary>Config JSON (paste your own head)</summary>
    <textarea id="config-text" rows="10" spellcheck="false" aria-label="Config JSON"></textarea>
    <p><button type="button" id="apply-config">Apply</button></p>
    <p class="note">Format: {"tokens": [...], "features": [...], "X": [[...]], "Wq": [[...]], "Wk": [[...]], "Wv": [[...]], "causal": true, "scale": null},
      or "Q", "K", "V" instead of X and the W matrices (the direct form).</p>
  </details>
  <p class="note keys">Keyboard: arrow keys move inside a matrix; Enter edits an input cell; + and − nudge it;
    f follows the cell’s token; space plays or pauses; [ and ] step back and forward.</p>
</section>`;

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

  const state = {
    preset: DEFAULT_PRESET, // name while the head is an unchanged preset, else null
    base: null, // the config "Reset" goes back to
    config: null,
    step: null, // null = all steps shown
    playing: false,
    follow: null,
    sel: null, // { m, i, j }: the selected (clicked, focused) cell
    hover: null,
    themeSetting: 'auto', // 'auto' follows prefers-color-scheme
    theme: prefersDark.matches ? 'dark' : 'light',
    controls: new Set(CONTROLS),
  };

  let attn = null;
  let view = null; // { config, r, raw, step }
  let panels = new Map(); // m -> { fig, hm, about, legend }
  let layoutKey = '';
  let labelFns = new Map(); // m -> label function, rebuilt with the panels
  let tokensKey = '';
  let frame = 0;
  let timer = 0;
  let lastUrl = '';
  let cellExtra = null; // showHead's extra for the cell explanations (a trained head's gradients)
  let destroyed = false;
  const dirty = { compute: false, values: false, url: false };
  const cleanups = [];
  const listen = (target, type, fn, opts) => {
    target.addEventListener(type, fn, opts);
    cleanups.push(() => target.removeEventListener(type, fn, opts));
  };

  function schedule(flags = {}) {
    for (const k in flags) dirty[k] = dirty[k] || flags[k];
    if (!frame && !destroyed) frame = win.requestAnimationFrame(render);
  }

  // ---------------------------------------------------------------- errors and loading

  function showError(msg) {
    const e = $('error');
    e.textContent = msg;
    e.hidden = !msg;
    if (msg) emit('error', { message: msg });
  }

  function loadPreset(name) {
    state.preset = name;
    state.base = parseConfig(PRESETS[name].config, LIM);
    state.config = cloneConfig(state.base);
    state.follow = state.sel = state.hover = null;
  }

  function loadConfig(input) {
    const cfg = parseConfig(input, LIM); // throws ConfigError with the fix
    state.preset = null;
    state.base = cfg;
    state.config = cloneConfig(cfg);
    state.follow = state.sel = state.hover = null;
  }

  function modified() {
    state.preset = null;
    schedule({ compute: true, url: true });
    emit('change', { config: cloneConfig(state.config) });
  }

  function compute() {
    try {
      const r = attn.forward(forwardArgs(state.config));
      // the unscaled Q·Kᵀ of the Score step, from the core: only its S is read (explain.js)
      const raw = state.config.scale === 1 ? r : attn.forward(forwardArgs(state.config, 1), { outputs: ['S'] });
      view = { config: state.config, r, raw, step: state.step };
    } catch (e) {
      showError('This head cannot be computed: ' + e.message);
    }
  }

  // ---------------------------------------------------------------- drawing

  function el(tag, cls, text) {
    const e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  const can = (group) => state.controls.has(group);

  function editableSet() {
    if (!can('edit')) return new Set();
    return new Set(isDirect(state.config) ? ['Q', 'K', 'V'] : ['X', 'Wq', 'Wk', 'Wv']);
  }

  function buildPanels() {
    const box = $('matrices');
    box.textContent = '';
    panels = new Map();
    const direct = isDirect(state.config);
    const editable = editableSet();
    const width = box.clientWidth || doc.documentElement.clientWidth - 56;
    const maxPx = Math.max(200, Math.min(520, width - 16));
    for (const [title, ms] of GROUPS) {
      const list = ms.filter((m) => !(direct && m[0] === 'X') && !(direct && m[0] === 'W'));
      if (!list.length) continue;
      const group = box.appendChild(el('section', 'group'));
      group.appendChild(el('h2', 'group-title', direct && title === '1. Project' ? '1. Q, K and V, given directly' : title));
      const row = group.appendChild(el('div', 'group-row'));
      for (const m of list) {
        const info = matrixInfo(view, m);
        const fig = row.appendChild(el('figure', 'panel'));
        fig.dataset.panel = m;
        const cap = fig.appendChild(el('figcaption'));
        cap.appendChild(el('span', 'pname', m));
        cap.appendChild(el('span', 'shape', `${info.rows} × ${info.cols}, ${info.axes}`));
        const about = cap.appendChild(el('span', 'about', info.about));
        const hm = createHeatmap(doc, {
          m, rows: info.rows, cols: info.cols, rowLabels: info.rowLabels, colLabels: info.colLabels,
          caption: info.caption, editable: editable.has(m), followable: TOKEN_ROWS.has(m), maxPx,
        });
        const scroller = fig.appendChild(el('div', 'scroller'));
        scroller.appendChild(hm.el);
        const legend = fig.appendChild(el('div', 'legend'));
        panels.set(m, { fig, hm, about, legend });
      }
    }
  }

  function drawLegend(legend, kind, maxAbs, hasMasked) {
    legend.textContent = '';
    if (kind === 'mask') {
      swatch(legend, cellRgb('mask', 0, 1, state.theme), '0 may look');
      swatch(legend, maskedRgb(state.theme), '−∞ masked');
      return;
    }
    legend.appendChild(el('span', 'lo', kind === 'sequential' ? '0' : fmtShort(-maxAbs)));
    const bar = legend.appendChild(el('span', 'bar'));
    bar.style.background = legendGradient(kind, state.theme);
    legend.appendChild(el('span', 'hi', kind === 'sequential' ? '1' : fmtShort(maxAbs)));
    if (kind === 'diverging') legend.appendChild(el('span', 'mid', 'centre 0'));
    if (hasMasked) swatch(legend, maskedRgb(state.theme), '−∞ masked');
  }
  function swatch(parent, rgb, text) {
    const s = parent.appendChild(el('span', 'swatch'));
    s.appendChild(el('span', 'chip')).style.background = css(rgb);
    s.appendChild(doc.createTextNode(text));
  }

  function drawValues() {
    for (const [m, p] of panels) {
      const label = labelFns.get(m) || labelFns.set(m, labeler(view, m)).get(m);
      const values = displayed(view, m);
      const kind = scaleKind(m);
      const maxAbs = kind === 'diverging' ? maxAbsFinite(values) || 1 : 1;
      p.hm.update(values, {
        kind, maxAbs, theme: state.theme,
        format: m === 'M' ? fmtShort : fmt,
        label,
      });
      drawLegend(p.legend, kind, maxAbs, m === 'S' && values.some((v) => v === -Infinity));
    }
  }

  function drawStep() {
    const k = state.step ? STEPS.indexOf(state.step) : STEPS.length;
    const current = new Set(state.step ? STEP_MATRICES[state.step] : []);
    for (const [m, p] of panels) {
      p.fig.classList.toggle('pending', m in PRODUCED_AT && PRODUCED_AT[m] > k);
      p.fig.classList.toggle('current', current.has(m));
      if (m === 'S') p.about.textContent = matrixInfo(view, 'S').about;
    }
    $('narration').textContent = narration(view, state.step);
    for (const b of $('step-pills').children) b.setAttribute('aria-pressed', String(b.dataset.step === state.step));
    $('all').setAttribute('aria-pressed', String(state.step == null));
    const play = $('play');
    play.textContent = state.playing ? '❚❚ Pause' : '▶ Play';
    play.setAttribute('aria-label', state.playing ? 'Pause' : 'Play');
  }

  function groupSpecs(specs) {
    const by = new Map();
    for (const s of specs) {
      if (!by.has(s.m)) by.set(s.m, []);
      by.get(s.m).push(s);
    }
    return by;
  }

  function valid(cell) {
    const p = cell && panels.get(cell.m);
    return p && cell.i < p.hm.rows && cell.j < p.hm.cols ? cell : null;
  }

  function drawMarksAndText() {
    const activeCell = valid(state.hover) || valid(state.sel);
    const ex = activeCell ? explainCell(view, activeCell.m, activeCell.i, activeCell.j, cellExtra) : null;
    const src = groupSpecs(ex ? ex.sources : []);
    const follow = state.follow;
    for (const [m, p] of panels) {
      p.hm.setMarks('src', src.get(m) || []);
      p.hm.setMarks('cur', activeCell && activeCell.m === m ? [{ row: activeCell.i, col: activeCell.j }] : []);
      p.hm.setMarks('follow', follow != null && TOKEN_ROWS.has(m) && m !== 'K' && m !== 'V' ? [{ row: follow }] : []);
      p.fig.classList.toggle('feeds', src.has(m));
    }
    $('explain-title').textContent = ex ? ex.title : 'Hover, focus or tap any cell';
    $('explanation').textContent = ex
      ? ex.text
      : 'Each number says how it was computed, with the real numbers, and the cells that fed it light up. Click a token to follow its row.';
    $('follow-text').textContent = follow != null ? followSentence(view, follow) : '';
    for (const b of $('tokens').querySelectorAll('[data-follow]')) b.setAttribute('aria-pressed', String(+b.dataset.follow === follow));

    const sel = valid(state.sel);
    const editor = $('editor');
    const editable = sel && editableSet().has(sel.m);
    editor.hidden = !editable;
    if (editable) {
      const input = $('edit-value');
      if (active() !== input) input.value = String(state.config[sel.m][sel.i][sel.j]);
      input.setAttribute('aria-label', `Value of ${sel.m}[${sel.i + 1}][${sel.j + 1}]`);
    }
  }

  function drawTokens() {
    const key = JSON.stringify(state.config.tokens);
    if (key === tokensKey) return;
    tokensKey = key;
    const tokens = state.config.tokens;
    const chips = $('tokens');
    chips.textContent = '';
    if (tokens.length <= MANY) {
      tokens.forEach((t, i) => {
        const b = chips.appendChild(el('button', 'chip-token', t));
        b.type = 'button';
        b.dataset.follow = String(i);
        b.title = `Follow token ${i + 1}`;
      });
    } else {
      const label = chips.appendChild(el('label', null, `token number (1–${tokens.length}) `));
      const input = label.appendChild(el('input'));
      input.type = 'number';
      input.min = '1';
      input.max = String(tokens.length);
      input.id = 'follow-number';
    }
    const list = $('token-list');
    if (active() && list.contains(active())) return; // don't pull the field from under the typist
    list.textContent = '';
    if (tokens.length > MANY) {
      list.appendChild(el('li', 'note', `${tokens.length} tokens: rename them in the config JSON.`));
      return;
    }
    tokens.forEach((t, i) => {
      const li = list.appendChild(el('li'));
      const input = li.appendChild(el('input'));
      input.value = t;
      input.maxLength = MAX_NAME;
      input.dataset.token = String(i);
      input.setAttribute('aria-label', `Token ${i + 1}`);
      const rm = li.appendChild(el('button', 'remove', '×'));
      rm.type = 'button';
      rm.dataset.remove = String(i);
      rm.setAttribute('aria-label', `Remove token ${i + 1}`);
      rm.disabled = tokens.length === 1;
    });
  }

  function syncControls() {
    $('causal').checked = state.config.causal;
    $('scaling').checked = state.config.scale == null;
    $('scaling').disabled = false;
    const sel = $('preset');
    sel.value = state.preset || '';
    const name = state.preset;
    $('preset-note').textContent = name ? PRESETS[name].note : 'Your own head: changed from a preset or loaded from a config. “Reset” goes back to where it started.';
    const ta = $('config-text');
    if (ta.closest('details').open && active() !== ta && !ta.dataset.bad) ta.value = JSON.stringify(state.config);
    const what = $('export-what');
    const names = [...panels.keys()];
    if (what.options.length !== names.length + 1 || names.some((m, k) => what.options[k + 1].value !== m)) {
      const keep = what.value;
      while (what.options.length > 1) what.remove(1);
      for (const m of names) {
        const o = what.appendChild(el('option', null, 'matrix ' + m));
        o.value = m;
      }
      what.value = names.includes(keep) ? keep : '';
    }
    $('export-csv').disabled = !what.value;
  }

  function writeUrl() {
    if (!useUrl) return;
    const url = writeUrlState({ preset: state.preset, config: state.config, step: state.step, follow: state.follow, cell: state.sel });
    if (url === lastUrl) return;
    lastUrl = url;
    win.history.replaceState(null, '', win.location.pathname + url);
  }

  function render() {
    frame = 0;
    if (!attn || !state.config || destroyed) return;
    if (dirty.compute) compute();
    if (!view) return;
    view = { ...view, config: state.config, step: state.step };
    const c = state.config;
    const key = JSON.stringify([isDirect(c), view.r.n, view.r.d, view.r.dk, view.r.dv, c.tokens.length <= MANY && c.tokens, c.features, matrixInfo(view, 'O').colLabels, can('edit')]);
    if (key !== layoutKey) {
      layoutKey = key;
      labelFns = new Map();
      buildPanels();
      dirty.values = true;
    }
    if (dirty.values || dirty.compute) drawValues();
    drawStep();
    drawMarksAndText();
    drawTokens();
    syncControls();
    if (dirty.url) writeUrl();
    dirty.compute = dirty.values = dirty.url = false;
    if (host.dataset.ready !== 'true') {
      host.dataset.ready = 'true';
      emit('ready', {});
    }
  }

  // ---------------------------------------------------------------- state changes

  function setStep(step) {
    if (step !== null && !STEPS.includes(step)) return;
    const changed = state.step !== step;
    state.step = step;
    schedule({ values: true, url: true });
    if (changed) emit('step', { step });
    // Bring the matrix this step produces into view (instantly when motion is reduced).
    if (step && options.scroll !== false) win.requestAnimationFrame(() => {
      const p = panels.get(STEP_MATRICES[step][0]);
      const smooth = !win.matchMedia('(prefers-reduced-motion: reduce)').matches;
      if (p) p.fig.scrollIntoView({ block: 'nearest', behavior: smooth ? 'smooth' : 'auto' });
    });
  }

  function stepBy(delta) {
    stopPlay();
    const k = state.step ? STEPS.indexOf(state.step) : STEPS.length;
    const next = Math.max(0, Math.min(STEPS.length, k + delta));
    setStep(next === STEPS.length ? null : STEPS[next]);
  }

  function stopPlay() {
    win.clearInterval(timer);
    timer = 0;
    if (state.playing) {
      state.playing = false;
      schedule();
    }
  }

  function togglePlay() {
    if (state.playing) return stopPlay();
    if (!state.step || state.step === 'mix') setStep('project');
    state.playing = true;
    timer = win.setInterval(() => {
      const k = STEPS.indexOf(state.step);
      if (k >= STEPS.length - 1) return stopPlay();
      setStep(STEPS[k + 1]);
    }, PLAY_MS);
    schedule();
  }

  function setFollowTo(i) {
    const n = state.config ? state.config.tokens.length : 0;
    const f = i != null && Number.isInteger(i) && i >= 0 && i < n ? i : null;
    if (f === state.follow) return;
    state.follow = f;
    schedule({ url: true });
    emit('select', { follow: f, cell: state.sel && { ...state.sel } });
  }
  const setFollow = (i) => setFollowTo(state.follow === i ? null : i);

  function setValue(m, i, j, v) {
    if (!Number.isFinite(v) || !editableSet().has(m)) return;
    state.config[m][i][j] = Math.round(v * 1e6) / 1e6;
    modified();
  }

  function nudge(cell, delta) {
    if (!cell || !editableSet().has(cell.m)) return;
    setValue(cell.m, cell.i, cell.j, Math.round((state.config[cell.m][cell.i][cell.j] + delta) * 1000) / 1000);
  }

  function select(cell) {
    const same = (a, b) => (a && b ? a.m === b.m && a.i === b.i && a.j === b.j : a === b);
    const changed = !same(cell, state.sel);
    state.sel = cell;
    schedule({ url: true });
    if (changed) emit('select', { follow: state.follow, cell: cell && { ...cell } });
  }

  function tokenRows() {
    return isDirect(state.config) ? ['Q', 'K', 'V'] : ['X'];
  }

  function addToken() {
    const c = state.config;
    if (c.tokens.length >= LIM.maxTokens) return showError(`A head can have at most ${LIM.maxTokens} tokens here.`);
    c.tokens.push('new');
    for (const m of tokenRows()) c[m].push(new Array(c[m][0].length).fill(0));
    modified();
  }

  function removeToken(i) {
    const c = state.config;
    if (c.tokens.length <= 1) return;
    c.tokens.splice(i, 1);
    for (const m of tokenRows()) c[m].splice(i, 1);
    if (state.follow != null && state.follow >= c.tokens.length) state.follow = null;
    state.sel = state.hover = null;
    modified();
  }

  /** A new head (preset name or config), keeping nothing of the old one's selection. */
  function replaceHead(apply) {
    stopPlay();
    apply();
    tokensKey = '';
    layoutKey = '';
    showError('');
    schedule({ compute: true, url: true });
    emit('change', { config: cloneConfig(state.config) });
  }

  // ---------------------------------------------------------------- exports

  function exportWhat() {
    const v = $('export-what').value;
    return EXPORTABLE.includes(v) && panels.has(v) ? v : null;
  }
  const fileBase = () => (state.preset || 'head') + (exportWhat() ? '-' + exportWhat() : '');

  function download(name, blob) {
    const a = el('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    a.hidden = true;
    root.appendChild(a).click();
    a.remove();
    win.setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    $('export-note').textContent = `Downloaded ${name}. (Nothing happened? A sandboxed frame may block downloads: use the text below.)`;
  }
  function showText(text, note) {
    const ta = $('export-text');
    ta.hidden = false;
    ta.value = text;
    $('export-note').textContent = note;
  }

  const api = {
    state,
    get view() { return view; },
    get result() { return view && view.r; },
    setValue: (m, i, j, v) => setValue(m, i, j, v),
    setStep: (s) => (stopPlay(), setStep(s ?? null)),
    setFollow: (i) => setFollowTo(i),
    select: (cell) => select(cell),
    setPreset(name) {
      if (!Object.prototype.hasOwnProperty.call(PRESETS, name)) throw new Error(`There is no preset called “${name}”; the presets are ${Object.keys(PRESETS).join(', ')}.`);
      replaceHead(() => loadPreset(name));
    },
    /** Untrusted input: JSON text or an object, parsed strictly; throws ConfigError. */
    setConfig(input) {
      const cfg = parseConfig(input, LIM);
      replaceHead(() => loadConfig(cfg));
    },
    /**
     * New numbers for the head (a config, parsed strictly; throws ConfigError) that keep the
     * step, the followed row and the selected or hovered cell wherever they still fit: for a head
     * that changes under the learner, e.g. while it trains (web/train-panel.js). `extra` goes to
     * every cell explanation (explain.js explainCell's fifth argument) until the next showHead.
     */
    showHead(input, extra = null) {
      const cfg = parseConfig(input, LIM);
      state.preset = null;
      state.base = cfg;
      state.config = cloneConfig(cfg);
      cellExtra = extra;
      if (state.follow != null && state.follow >= cfg.tokens.length) state.follow = null;
      schedule({ compute: true, url: true });
    },
    setCausal(on) {
      if (!state.config || state.config.causal === Boolean(on)) return;
      state.config.causal = Boolean(on);
      modified();
    },
    setTheme(setting) {
      state.themeSetting = setting === 'dark' || setting === 'light' ? setting : 'auto';
      applyTheme();
    },
    setControls(list) {
      state.controls = new Set(list.filter((c) => CONTROLS.includes(c)));
      if (!useUrl) state.controls.delete('link');
      for (const e of root.querySelectorAll('[data-control]')) e.hidden = !state.controls.has(e.dataset.control);
      if (!can('steps')) stopPlay();
      schedule({ values: true });
    },
    showError,
    /** The whole config as the config format (a copy). */
    config: () => cloneConfig(state.config),
    exportCSV: (m) => matrixCSV(view, m),
    exportJSON: (m) => (m ? matrixJSON(view, m) : headJSON(view)),
    exportSVG: (m) => (m ? heatmapSVG(view, m, { theme: state.theme }) : viewSVG(view, { theme: state.theme, matrices: [...panels.keys()] })),
    /** A PNG Blob of one heatmap or the whole view (drawn on a canvas from the same layout as the SVG). */
    exportPNG: (m) => paintPNG(doc, view, { theme: state.theme, m, matrices: [...panels.keys()] }),
    exportPyTorch: () => pytorchScript(state.config, view.r),
    /** Stops timers, removes listeners and the drawing. */
    destroy() {
      destroyed = true;
      stopPlay();
      if (frame) win.cancelAnimationFrame(frame);
      for (const f of cleanups) f();
    },
    /** Runs the pending redraw now instead of at the next frame (for timing it). */
    flush() {
      if (frame) win.cancelAnimationFrame(frame);
      frame = 0;
      render();
    },
  };

  // ---------------------------------------------------------------- events

  function cellFromEvent(ev) {
    const fig = ev.target.closest && ev.target.closest('[data-panel]');
    if (!fig) return null;
    const p = panels.get(fig.dataset.panel);
    const c = p && p.hm.cellAt(ev);
    return c ? { m: fig.dataset.panel, i: c.i, j: c.j } : null;
  }
  const same = (a, b) => (a && b ? a.m === b.m && a.i === b.i && a.j === b.j : a === b);

  function wire() {
    const box = $('matrices');
    let drag = null;

    listen(box, 'pointermove', (ev) => {
      if (drag && ev.pointerId === drag.id) {
        const dx = ev.clientX - drag.x;
        if (Math.abs(dx) > 3) drag.moved = true;
        if (drag.moved) setValue(drag.m, drag.i, drag.j, Math.round((drag.v0 + dx * 0.01) * 100) / 100);
        return;
      }
      if (ev.pointerType === 'touch') return;
      const c = cellFromEvent(ev);
      if (!same(c, state.hover)) {
        state.hover = c;
        schedule();
      }
    });
    listen(box, 'pointerleave', () => {
      if (state.hover) {
        state.hover = null;
        schedule();
      }
    });
    listen(box, 'pointerdown', (ev) => {
      const cell = ev.target.closest('.cell.editable');
      if (!cell || ev.pointerType === 'touch' || ev.button !== 0) return;
      const m = cell.dataset.matrix, i = +cell.dataset.row, j = +cell.dataset.col;
      drag = { id: ev.pointerId, m, i, j, x: ev.clientX, v0: state.config[m][i][j], moved: false };
      cell.setPointerCapture(ev.pointerId);
    });
    const endDrag = () => (drag = null);
    listen(box, 'pointerup', endDrag);
    listen(box, 'pointercancel', endDrag);
    listen(box, 'click', (ev) => {
      const f = ev.target.closest('[data-follow]');
      if (f) return setFollow(+f.dataset.follow);
      const c = cellFromEvent(ev);
      if (!c) return;
      const p = panels.get(c.m);
      p.hm.setCursor(c.i, c.j);
      if (p.hm.mode === 'canvas') p.hm.focusCursor();
      select(c);
    });
    listen(box, 'focusin', (ev) => {
      const t = ev.target;
      if (t.classList.contains('cell')) {
        // Focus can land on any cell (a screen reader's cursor, a script): the arrow keys
        // move on from the cell that has focus, not from the last one they visited.
        panels.get(t.dataset.matrix)?.hm.setCursor(+t.dataset.row, +t.dataset.col);
        select({ m: t.dataset.matrix, i: +t.dataset.row, j: +t.dataset.col });
      }
      else if (t.dataset.matrixCanvas) {
        const p = panels.get(t.dataset.matrixCanvas);
        p.hm.setCursor(p.hm.cursor.i, p.hm.cursor.j);
        select({ m: p.hm.m, ...p.hm.cursor });
      }
    });
    listen(box, 'focusout', (ev) => {
      if (ev.target.dataset && ev.target.dataset.matrixCanvas) panels.get(ev.target.dataset.matrixCanvas)?.hm.hideCursor();
    });
    listen(box, 'keydown', (ev) => {
      const t = ev.target;
      const m = t.dataset.matrix || t.dataset.matrixCanvas;
      if (!m) return;
      const p = panels.get(m);
      const { i, j } = p.hm.cursor;
      const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1], Home: [0, -1e9], End: [0, 1e9] };
      if (moves[ev.key]) {
        ev.preventDefault();
        ev.stopPropagation();
        p.hm.setCursor(i + moves[ev.key][0], j + moves[ev.key][1]);
        p.hm.focusCursor();
        select({ m, ...p.hm.cursor });
        return;
      }
      const cell = { m, i, j };
      if (ev.key === 'f' && TOKEN_ROWS.has(m)) return setFollow(i);
      if (!editableSet().has(m)) return;
      if (ev.key === '+' || ev.key === '=') return ev.preventDefault(), nudge(cell, 0.1);
      if (ev.key === '-') return ev.preventDefault(), nudge(cell, -0.1);
      if (ev.key === 'Enter' || ev.key === 'F2' || /^[0-9.]$/.test(ev.key)) {
        ev.preventDefault();
        select(cell);
        const input = $('edit-value');
        $('editor').hidden = false;
        input.value = /^[0-9.]$/.test(ev.key) ? ev.key : String(state.config[m][i][j]);
        input.focus();
        if (ev.key === 'Enter' || ev.key === 'F2') input.select();
      }
    });
    listen(
      box,
      'wheel',
      (ev) => {
        const c = cellFromEvent(ev);
        if (!c || !same(c, state.sel) || !editableSet().has(c.m)) return;
        ev.preventDefault();
        nudge(c, (ev.deltaY < 0 ? 1 : -1) * (ev.shiftKey ? 0.01 : 0.1));
      },
      { passive: false },
    );

    const input = $('edit-value');
    listen(input, 'input', () => {
      const v = parseNumber(input.value);
      input.setAttribute('aria-invalid', String(!Number.isFinite(v)));
      if (Number.isFinite(v) && state.sel) setValue(state.sel.m, state.sel.i, state.sel.j, v);
    });
    listen(input, 'keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === 'Escape') {
        ev.preventDefault();
        const p = state.sel && panels.get(state.sel.m);
        if (p) p.hm.focusCursor();
      }
    });
    listen($('edit-minus'), 'click', () => nudge(valid(state.sel), -0.1));
    listen($('edit-plus'), 'click', () => nudge(valid(state.sel), 0.1));

    // Steps
    const pills = $('step-pills');
    STEPS.forEach((s, k) => {
      const b = pills.appendChild(el('button', 'pill', `${k + 1} ${s[0].toUpperCase() + s.slice(1)}`));
      b.type = 'button';
      b.dataset.step = s;
    });
    listen(pills, 'click', (ev) => {
      const b = ev.target.closest('[data-step]');
      if (b) stopPlay(), setStep(b.dataset.step);
    });
    listen($('all'), 'click', () => (stopPlay(), setStep(null)));
    listen($('back'), 'click', () => stepBy(-1));
    listen($('fwd'), 'click', () => stepBy(1));
    listen($('play'), 'click', togglePlay);
    listen(options.keysOn || root, 'keydown', (ev) => {
      const t = ev.composedPath ? ev.composedPath()[0] : ev.target;
      if (!can('steps') || (t.closest && t.closest('input, textarea, select'))) return;
      const inPanel = t.closest && t.closest('[data-panel]');
      if (ev.key === '[' || (ev.key === 'ArrowLeft' && !inPanel)) return stepBy(-1);
      if (ev.key === ']' || (ev.key === 'ArrowRight' && !inPanel)) return stepBy(1);
      if (ev.key === ' ' && !(t.closest && t.closest('button, summary, [data-panel]'))) {
        ev.preventDefault();
        togglePlay();
      }
    });

    // Following
    listen($('tokens'), 'click', (ev) => {
      const b = ev.target.closest('[data-follow]');
      if (b) setFollow(+b.dataset.follow);
    });
    listen($('tokens'), 'change', (ev) => {
      if (ev.target.id !== 'follow-number') return;
      setFollowTo(Math.round(Number(ev.target.value)) - 1);
    });

    // Editing the head
    listen($('causal'), 'change', (ev) => {
      state.config.causal = ev.target.checked;
      modified();
    });
    listen($('scaling'), 'change', (ev) => {
      state.config.scale = ev.target.checked ? null : 1;
      modified();
    });
    listen($('reset'), 'click', () => {
      state.config = cloneConfig(state.base);
      const name = Object.keys(PRESETS).find((k) => JSON.stringify(parseConfig(PRESETS[k].config, LIM)) === JSON.stringify(state.base));
      state.preset = name || null;
      state.sel = state.hover = null;
      tokensKey = '';
      showError('');
      schedule({ compute: true, url: true });
      emit('change', { config: cloneConfig(state.config) });
    });
    listen($('token-list'), 'input', (ev) => {
      const k = ev.target.dataset.token;
      if (k == null) return;
      state.config.tokens[+k] = ev.target.value.slice(0, MAX_NAME);
      modified();
    });
    listen($('token-list'), 'click', (ev) => {
      const b = ev.target.closest('[data-remove]');
      if (b) removeToken(+b.dataset.remove);
    });
    listen($('add-token'), 'click', addToken);
    listen($('preset'), 'change', (ev) => {
      if (!Object.prototype.hasOwnProperty.call(PRESETS, ev.target.value)) return;
      replaceHead(() => {
        loadPreset(ev.target.value);
        state.step = null;
      });
    });
    const ta = $('config-text');
    listen(ta, 'input', () => (ta.dataset.bad = '1'));
    listen(ta.closest('details'), 'toggle', () => schedule());
    listen($('apply-config'), 'click', () => {
      try {
        const cfg = parseConfig(ta.value, LIM);
        delete ta.dataset.bad;
        replaceHead(() => loadConfig(cfg));
      } catch (e) {
        showError('The config was not applied: ' + e.message);
      }
    });
    listen($('copy-link'), 'click', async () => {
      writeUrl();
      try {
        await win.navigator.clipboard.writeText(win.location.href);
        $('copy-link').textContent = 'Link copied';
      } catch {
        $('copy-link').textContent = 'Copy the address bar';
      }
      win.setTimeout(() => ($('copy-link').textContent = 'Copy link'), 2000);
    });
    listen($('theme'), 'click', () => api.setTheme(state.theme === 'dark' ? 'light' : 'dark'));
    listen(prefersDark, 'change', () => applyTheme());

    // Exports
    listen($('export-what'), 'change', () => ($('export-csv').disabled = !exportWhat()));
    listen($('export-png'), 'click', async () => download(fileBase() + '.png', await api.exportPNG(exportWhat())));
    listen($('export-svg'), 'click', () => download(fileBase() + '.svg', new Blob([api.exportSVG(exportWhat())], { type: 'image/svg+xml' })));
    listen($('export-csv'), 'click', () => exportWhat() && download(fileBase() + '.csv', new Blob([api.exportCSV(exportWhat())], { type: 'text/csv' })));
    listen($('export-json'), 'click', () => download(fileBase() + '.json', new Blob([api.exportJSON(exportWhat())], { type: 'application/json' })));
    listen($('export-torch'), 'click', async () => {
      const text = api.exportPyTorch();
      let copied = false;
      try {
        await win.navigator.clipboard.writeText(text);
        copied = true;
      } catch {}
      showText(text, copied ? 'Copied: paste it into a Python file or notebook cell. It prints the same Q, K, V, S, A and O.' : 'Select the script below and copy it (the browser did not allow copying from here).');
    });

    if (useUrl) listen(win, 'hashchange', () => fromUrl());
  }

  function applyTheme() {
    const was = state.theme;
    state.theme = state.themeSetting === 'auto' ? (prefersDark.matches ? 'dark' : 'light') : state.themeSetting;
    host.dataset.theme = state.theme;
    const b = $('theme');
    b.setAttribute('aria-pressed', String(state.theme === 'dark'));
    b.textContent = state.theme === 'dark' ? 'Light theme' : 'Dark theme';
    if (was !== state.theme) schedule({ values: true });
  }

  function fromUrl() {
    const u = readUrlState(win.location.search, win.location.hash);
    let note = '';
    try {
      if (u.configText != null) loadConfig(u.configText);
      else if (u.preset && Object.prototype.hasOwnProperty.call(PRESETS, u.preset)) loadPreset(u.preset);
      else {
        if (u.preset) note = `There is no preset called “${u.preset}”; the presets are ${Object.keys(PRESETS).join(', ')}. Showing “${DEFAULT_PRESET}”.`;
        loadPreset(DEFAULT_PRESET);
      }
    } catch (e) {
      note = `The config in the link was not used: ${e.message} Showing the “${DEFAULT_PRESET}” preset instead; fix the config below and press Apply.`;
      loadPreset(DEFAULT_PRESET);
      const ta = $('config-text');
      ta.value = u.configText;
      ta.dataset.bad = '1';
      ta.closest('details').open = true;
    }
    showError(note);
    state.step = u.step;
    const n = state.config.tokens.length;
    state.follow = u.follow != null && u.follow < n ? u.follow : null;
    state.sel = u.cell;
    tokensKey = '';
    layoutKey = '';
    schedule({ compute: true });
    if (state.sel) win.requestAnimationFrame(() => win.requestAnimationFrame(() => { const p = valid(state.sel) && panels.get(state.sel.m); if (p) p.hm.setCursor(state.sel.i, state.sel.j); }));
  }

  /** The embed's start: preset or config from the host (already checked by the caller or here). */
  function fromOptions(init) {
    let note = '';
    try {
      if (init.config != null) loadConfig(init.config);
      else if (init.preset && Object.prototype.hasOwnProperty.call(PRESETS, init.preset)) loadPreset(init.preset);
      else {
        if (init.preset) note = `There is no preset called “${init.preset}”; the presets are ${Object.keys(PRESETS).join(', ')}. Showing “${DEFAULT_PRESET}”.`;
        loadPreset(DEFAULT_PRESET);
      }
    } catch (e) {
      note = `The config was not used: ${e.message}`;
      loadPreset(DEFAULT_PRESET);
    }
    if (typeof init.causal === 'boolean') state.config.causal = init.causal;
    state.step = STEPS.includes(init.step) ? init.step : null;
    const n = state.config.tokens.length;
    state.follow = Number.isInteger(init.follow) && init.follow >= 0 && init.follow < n ? init.follow : null;
    showError(note);
    schedule({ compute: true });
  }

  async function start() {
    api.setControls(options.controls || CONTROLS);
    api.setTheme(options.initial?.theme || 'auto');
    wire();
    try {
      attn = await (options.core || sharedCore());
    } catch (e) {
      showError('The attention core (WebAssembly) could not load: ' + e.message + '. The explorer needs a browser with WebAssembly.');
      return;
    }
    if (destroyed) return;
    if (useUrl) fromUrl();
    else fromOptions(options.initial || {});
  }

  api.ready = start();
  return api;
}
