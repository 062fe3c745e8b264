// app.js: the one file that wires events. Events only change `state`; schedule() batches one
// requestAnimationFrame that recomputes (attn.forward) when the config changed and redraws.
// Data flows one way: config -> core -> result -> pure renderers (heatmap, explain) -> DOM.

import { loadAttention, LIMITS } from './attention.js';
import { fmt, fmtShort, parseNumber } from './format.js';
import { parseConfig, forwardArgs, isDirect, cloneConfig, readUrlState, writeUrlState, STEPS, MAX_NAME } from './config.js';
import { PRESETS, DEFAULT_PRESET } from './presets.js';
import { createHeatmap } from './heatmap.js';
import { explainCell, narration, followSentence, matrixInfo, displayed, labeler, STEP_MATRICES } from './explain.js';
import { scaleKind, maxAbsFinite, legendGradient, css, maskedRgb, cellRgb } from './colors.js';

const doc = document;
const byId = (id) => doc.getElementById(id);
const LIM = { maxTokens: Math.min(256, LIMITS.maxTokens), maxWidth: LIMITS.maxWidth };
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

const state = {
  preset: DEFAULT_PRESET, // name while the head is an unchanged preset, else null
  base: null, // the config "Reset" goes back to
  config: null,
  step: null, // null = all steps shown
  playing: false,
  follow: null,
  sel: null, // { m, i, j }: the selected (clicked, focused) cell
  hover: null,
  theme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
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
const dirty = { compute: false, values: false, url: false };

function schedule(flags = {}) {
  for (const k in flags) dirty[k] = dirty[k] || flags[k];
  if (!frame) frame = requestAnimationFrame(render);
}

// ------------------------------------------------------------------ errors and loading

function showError(msg) {
  const e = byId('error');
  e.textContent = msg;
  e.hidden = !msg;
}

function loadPreset(name) {
  state.preset = name;
  state.base = parseConfig(PRESETS[name].config, LIM);
  state.config = cloneConfig(state.base);
  state.follow = state.sel = state.hover = null;
}

function loadConfigText(text) {
  const cfg = parseConfig(text, LIM); // throws ConfigError with the fix
  state.preset = null;
  state.base = cfg;
  state.config = cloneConfig(cfg);
  state.follow = state.sel = state.hover = null;
}

function modified() {
  state.preset = null;
  schedule({ compute: true, url: true });
}

function compute() {
  try {
    const r = attn.forward(forwardArgs(state.config));
    const raw = state.config.scale === 1 ? r : attn.forward(forwardArgs(state.config, 1));
    view = { config: state.config, r, raw, step: state.step };
  } catch (e) {
    showError('This head cannot be computed: ' + e.message);
  }
}

// ------------------------------------------------------------------ drawing

function el(tag, cls, text) {
  const e = doc.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function editableSet() {
  return new Set(isDirect(state.config) ? ['Q', 'K', 'V'] : ['X', 'Wq', 'Wk', 'Wv']);
}

function buildPanels() {
  const root = byId('matrices');
  root.textContent = '';
  panels = new Map();
  const direct = isDirect(state.config);
  const editable = editableSet();
  const maxPx = Math.max(200, Math.min(520, doc.documentElement.clientWidth - 56));
  for (const [title, ms] of GROUPS) {
    const list = ms.filter((m) => !(direct && m[0] === 'X') && !(direct && m[0] === 'W'));
    if (!list.length) continue;
    const group = root.appendChild(el('section', 'group'));
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
  byId('narration').textContent = narration(view, state.step);
  for (const b of byId('step-pills').children) b.setAttribute('aria-pressed', String(b.dataset.step === state.step));
  byId('all').setAttribute('aria-pressed', String(state.step == null));
  const play = byId('play');
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
  const active = valid(state.hover) || valid(state.sel);
  const ex = active ? explainCell(view, active.m, active.i, active.j) : null;
  const src = groupSpecs(ex ? ex.sources : []);
  const follow = state.follow;
  for (const [m, p] of panels) {
    p.hm.setMarks('src', src.get(m) || []);
    p.hm.setMarks('cur', active && active.m === m ? [{ row: active.i, col: active.j }] : []);
    p.hm.setMarks('follow', follow != null && TOKEN_ROWS.has(m) && m !== 'K' && m !== 'V' ? [{ row: follow }] : []);
    p.fig.classList.toggle('feeds', src.has(m));
  }
  byId('explain-title').textContent = ex ? ex.title : 'Hover, focus or tap any cell';
  byId('explanation').textContent = ex
    ? ex.text
    : 'Each number says how it was computed, with the real numbers, and the cells that fed it light up. Click a token to follow its row.';
  byId('follow-text').textContent = follow != null ? followSentence(view, follow) : '';
  for (const b of byId('tokens').querySelectorAll('[data-follow]')) b.setAttribute('aria-pressed', String(+b.dataset.follow === follow));

  const sel = valid(state.sel);
  const editor = byId('editor');
  const editable = sel && editableSet().has(sel.m);
  editor.hidden = !editable;
  if (editable) {
    const input = byId('edit-value');
    if (doc.activeElement !== input) input.value = String(state.config[sel.m][sel.i][sel.j]);
    input.setAttribute('aria-label', `Value of ${sel.m}[${sel.i + 1}][${sel.j + 1}]`);
  }
}

function drawTokens() {
  const key = JSON.stringify(state.config.tokens);
  if (key === tokensKey) return;
  tokensKey = key;
  const tokens = state.config.tokens;
  const chips = byId('tokens');
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
  const list = byId('token-list');
  if (doc.activeElement && list.contains(doc.activeElement)) return; // don't pull the field from under the typist
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
  byId('causal').checked = state.config.causal;
  byId('scaling').checked = state.config.scale == null;
  byId('scaling').disabled = false;
  const sel = byId('preset');
  sel.value = state.preset || '';
  const name = state.preset;
  byId('preset-note').textContent = name ? PRESETS[name].note : 'Your own head: changed from a preset or loaded from a config. “Reset” goes back to where it started.';
  const ta = byId('config-text');
  if (ta.closest('details').open && doc.activeElement !== ta && !ta.dataset.bad) ta.value = JSON.stringify(state.config);
}

function writeUrl() {
  const url = writeUrlState({ preset: state.preset, config: state.config, step: state.step, follow: state.follow, cell: state.sel });
  if (url === lastUrl) return;
  lastUrl = url;
  history.replaceState(null, '', location.pathname + url);
}

function render() {
  frame = 0;
  if (!attn || !state.config) return;
  if (dirty.compute) compute();
  if (!view) return;
  view = { ...view, config: state.config, step: state.step };
  const c = state.config;
  const key = JSON.stringify([isDirect(c), view.r.n, view.r.d, view.r.dk, view.r.dv, c.tokens.length <= MANY && c.tokens, c.features, matrixInfo(view, 'O').colLabels]);
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
  doc.documentElement.dataset.ready = 'true';
}

// ------------------------------------------------------------------ state changes

function setStep(step) {
  state.step = step;
  schedule({ values: true, url: true });
  // Bring the matrix this step produces into view (instantly when motion is reduced).
  if (step) requestAnimationFrame(() => {
    const p = panels.get(STEP_MATRICES[step][0]);
    const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches;
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
  clearInterval(timer);
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
  timer = setInterval(() => {
    const k = STEPS.indexOf(state.step);
    if (k >= STEPS.length - 1) return stopPlay();
    setStep(STEPS[k + 1]);
  }, PLAY_MS);
  schedule();
}

function setFollow(i) {
  state.follow = state.follow === i ? null : i;
  schedule({ url: true });
}

function setValue(m, i, j, v) {
  if (!Number.isFinite(v)) return;
  state.config[m][i][j] = Math.round(v * 1e6) / 1e6;
  modified();
}

function nudge(cell, delta) {
  if (!cell || !editableSet().has(cell.m)) return;
  setValue(cell.m, cell.i, cell.j, Math.round((state.config[cell.m][cell.i][cell.j] + delta) * 1000) / 1000);
}

function select(cell) {
  state.sel = cell;
  schedule({ url: true });
}

function tokenRows() {
  const c = state.config;
  return isDirect(c) ? ['Q', 'K', 'V'] : ['X'];
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

// ------------------------------------------------------------------ events

function cellFromEvent(ev) {
  const fig = ev.target.closest && ev.target.closest('[data-panel]');
  if (!fig) return null;
  const p = panels.get(fig.dataset.panel);
  const c = p && p.hm.cellAt(ev);
  return c ? { m: fig.dataset.panel, i: c.i, j: c.j } : null;
}
const same = (a, b) => (a && b ? a.m === b.m && a.i === b.i && a.j === b.j : a === b);

function wire() {
  const root = byId('matrices');
  let drag = null;

  root.addEventListener('pointermove', (ev) => {
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
  root.addEventListener('pointerleave', () => {
    if (state.hover) {
      state.hover = null;
      schedule();
    }
  });
  root.addEventListener('pointerdown', (ev) => {
    const cell = ev.target.closest('.cell.editable');
    if (!cell || ev.pointerType === 'touch' || ev.button !== 0) return;
    const m = cell.dataset.matrix, i = +cell.dataset.row, j = +cell.dataset.col;
    drag = { id: ev.pointerId, m, i, j, x: ev.clientX, v0: state.config[m][i][j], moved: false };
    cell.setPointerCapture(ev.pointerId);
  });
  const endDrag = () => (drag = null);
  root.addEventListener('pointerup', endDrag);
  root.addEventListener('pointercancel', endDrag);
  root.addEventListener('click', (ev) => {
    const f = ev.target.closest('[data-follow]');
    if (f) return setFollow(+f.dataset.follow);
    const c = cellFromEvent(ev);
    if (!c) return;
    const p = panels.get(c.m);
    p.hm.setCursor(c.i, c.j);
    if (p.hm.mode === 'canvas') p.hm.focusCursor();
    select(c);
  });
  root.addEventListener('focusin', (ev) => {
    const t = ev.target;
    if (t.classList.contains('cell')) select({ m: t.dataset.matrix, i: +t.dataset.row, j: +t.dataset.col });
    else if (t.dataset.matrixCanvas) {
      const p = panels.get(t.dataset.matrixCanvas);
      p.hm.setCursor(p.hm.cursor.i, p.hm.cursor.j);
      select({ m: p.hm.m, ...p.hm.cursor });
    }
  });
  root.addEventListener('focusout', (ev) => {
    if (ev.target.dataset && ev.target.dataset.matrixCanvas) panels.get(ev.target.dataset.matrixCanvas)?.hm.hideCursor();
  });
  root.addEventListener('keydown', (ev) => {
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
      const input = byId('edit-value');
      byId('editor').hidden = false;
      input.value = /^[0-9.]$/.test(ev.key) ? ev.key : String(state.config[m][i][j]);
      input.focus();
      if (ev.key === 'Enter' || ev.key === 'F2') input.select();
    }
  });
  root.addEventListener(
    'wheel',
    (ev) => {
      const c = cellFromEvent(ev);
      if (!c || !same(c, state.sel) || !editableSet().has(c.m)) return;
      ev.preventDefault();
      nudge(c, (ev.deltaY < 0 ? 1 : -1) * (ev.shiftKey ? 0.01 : 0.1));
    },
    { passive: false },
  );

  const input = byId('edit-value');
  input.addEventListener('input', () => {
    const v = parseNumber(input.value);
    input.setAttribute('aria-invalid', String(!Number.isFinite(v)));
    if (Number.isFinite(v) && state.sel) setValue(state.sel.m, state.sel.i, state.sel.j, v);
  });
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' || ev.key === 'Escape') {
      ev.preventDefault();
      const p = state.sel && panels.get(state.sel.m);
      if (p) p.hm.focusCursor();
    }
  });
  byId('edit-minus').addEventListener('click', () => nudge(valid(state.sel), -0.1));
  byId('edit-plus').addEventListener('click', () => nudge(valid(state.sel), 0.1));

  // Steps
  const pills = byId('step-pills');
  STEPS.forEach((s, k) => {
    const b = pills.appendChild(el('button', 'pill', `${k + 1} ${s[0].toUpperCase() + s.slice(1)}`));
    b.type = 'button';
    b.dataset.step = s;
  });
  pills.addEventListener('click', (ev) => {
    const b = ev.target.closest('[data-step]');
    if (b) stopPlay(), setStep(b.dataset.step);
  });
  byId('all').addEventListener('click', () => (stopPlay(), setStep(null)));
  byId('back').addEventListener('click', () => stepBy(-1));
  byId('fwd').addEventListener('click', () => stepBy(1));
  byId('play').addEventListener('click', togglePlay);
  doc.addEventListener('keydown', (ev) => {
    const t = ev.target;
    if (t.closest && t.closest('input, textarea, select')) return;
    if (ev.key === '[' || (ev.key === 'ArrowLeft' && !t.closest('[data-panel]'))) return stepBy(-1);
    if (ev.key === ']' || (ev.key === 'ArrowRight' && !t.closest('[data-panel]'))) return stepBy(1);
    if (ev.key === ' ' && !t.closest('button, [data-panel]')) {
      ev.preventDefault();
      togglePlay();
    }
  });

  // Following
  byId('tokens').addEventListener('click', (ev) => {
    const b = ev.target.closest('[data-follow]');
    if (b) setFollow(+b.dataset.follow);
  });
  byId('tokens').addEventListener('change', (ev) => {
    if (ev.target.id !== 'follow-number') return;
    const k = Math.round(Number(ev.target.value)) - 1;
    if (k >= 0 && k < state.config.tokens.length) (state.follow = k), schedule({ url: true });
  });

  // Editing the head
  byId('causal').addEventListener('change', (ev) => {
    state.config.causal = ev.target.checked;
    modified();
  });
  byId('scaling').addEventListener('change', (ev) => {
    state.config.scale = ev.target.checked ? null : 1;
    modified();
  });
  byId('reset').addEventListener('click', () => {
    state.config = cloneConfig(state.base);
    const name = Object.keys(PRESETS).find((k) => JSON.stringify(parseConfig(PRESETS[k].config, LIM)) === JSON.stringify(state.base));
    state.preset = name || null;
    state.sel = state.hover = null;
    tokensKey = '';
    showError('');
    schedule({ compute: true, url: true });
  });
  byId('token-list').addEventListener('input', (ev) => {
    const k = ev.target.dataset.token;
    if (k == null) return;
    state.config.tokens[+k] = ev.target.value.slice(0, MAX_NAME);
    modified();
  });
  byId('token-list').addEventListener('click', (ev) => {
    const b = ev.target.closest('[data-remove]');
    if (b) removeToken(+b.dataset.remove);
  });
  byId('add-token').addEventListener('click', addToken);
  byId('preset').addEventListener('change', (ev) => {
    if (!PRESETS[ev.target.value]) return;
    stopPlay();
    loadPreset(ev.target.value);
    state.step = null;
    tokensKey = '';
    showError('');
    schedule({ compute: true, url: true });
  });
  const ta = byId('config-text');
  ta.addEventListener('input', () => (ta.dataset.bad = '1'));
  ta.closest('details').addEventListener('toggle', () => schedule());
  byId('apply-config').addEventListener('click', () => {
    try {
      loadConfigText(ta.value);
      delete ta.dataset.bad;
      tokensKey = '';
      showError('');
      schedule({ compute: true, url: true });
    } catch (e) {
      showError('The config was not applied: ' + e.message);
    }
  });
  byId('copy-link').addEventListener('click', async () => {
    writeUrl();
    try {
      await navigator.clipboard.writeText(location.href);
      byId('copy-link').textContent = 'Link copied';
    } catch {
      byId('copy-link').textContent = 'Copy the address bar';
    }
    setTimeout(() => (byId('copy-link').textContent = 'Copy link'), 2000);
  });
  byId('theme').addEventListener('click', () => {
    state.theme = state.theme === 'dark' ? 'light' : 'dark';
    applyTheme();
    schedule({ values: true });
  });
  addEventListener('hashchange', () => fromUrl());
}

function applyTheme() {
  doc.documentElement.dataset.theme = state.theme;
  const b = byId('theme');
  b.setAttribute('aria-pressed', String(state.theme === 'dark'));
  b.textContent = state.theme === 'dark' ? 'Light theme' : 'Dark theme';
}

function fromUrl() {
  const u = readUrlState(location.search, location.hash);
  let note = '';
  try {
    if (u.configText != null) loadConfigText(u.configText);
    else if (u.preset && PRESETS[u.preset]) loadPreset(u.preset);
    else {
      if (u.preset) note = `There is no preset called “${u.preset}”; the presets are ${Object.keys(PRESETS).join(', ')}. Showing “${DEFAULT_PRESET}”.`;
      loadPreset(DEFAULT_PRESET);
    }
  } catch (e) {
    note = `The config in the link was not used: ${e.message} Showing the “${DEFAULT_PRESET}” preset instead; fix the config below and press Apply.`;
    loadPreset(DEFAULT_PRESET);
    const ta = byId('config-text');
    ta.value = u.configText;
    ta.dataset.bad = '1';
    byId('config-text').closest('details').open = true;
  }
  showError(note);
  state.step = u.step;
  const n = state.config.tokens.length;
  state.follow = u.follow != null && u.follow < n ? u.follow : null;
  state.sel = u.cell;
  tokensKey = '';
  layoutKey = '';
  schedule({ compute: true });
  if (state.sel) requestAnimationFrame(() => requestAnimationFrame(() => { const p = valid(state.sel) && panels.get(state.sel.m); if (p) p.hm.setCursor(state.sel.i, state.sel.j); }));
}

async function main() {
  applyTheme();
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', (e) => {
    state.theme = e.matches ? 'dark' : 'light';
    applyTheme();
    schedule({ values: true });
  });
  wire();
  try {
    attn = await loadAttention();
  } catch (e) {
    showError('The attention core (WebAssembly) could not load: ' + e.message + '. The page needs a browser with WebAssembly.');
    return;
  }
  fromUrl();
}

// Exposed for the browser tests and the frame benchmark (read-only use).
globalThis.__explorer = {
  state,
  get view() { return view; },
  setValue: (m, i, j, v) => setValue(m, i, j, v),
  /** Runs the pending redraw now instead of at the next frame (for timing it). */
  flush() {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    render();
  },
};

main();
