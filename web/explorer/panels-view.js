// explorer/panels-view.js: the matrix panels (X, Wq, Wk, Wv, Q, K, V, S, M, A, O), each a
// heatmap (web/blocks/heatmap.js) with its caption and legend, in the lesson's order: X → Q, K, V on
// one row (the learned weights folded into a strip that opens on demand), S → M → A → O on the
// next. The scaling toggle sits in S's caption, the causal toggle in M's, the leak check in O's.
// Drawn from (state, view); it keeps only the DOM it made and which layout and names it is for.
// Captions and legends are redrawn from the values every frame they could change.

import { createHeatmap } from '../blocks/heatmap.js';
import { fmt, fmtShort } from '../blocks/format.js';
import { matrixInfo, displayed, labeler, legendInfo, STEP_MATRICES } from '../blocks/explain.js';
import { scaleKind, maxAbsFinite, legendGradient, css, maskedRgb, cellRgb } from '../blocks/colors.js';
import { isDirect, STEPS } from '../blocks/config.js';
import { editable, shownGroups, stepIndex, can, headOf, PRODUCED_AT, TOKEN_ROWS } from './state.js';
import { el, setText, setAttr } from '../blocks/dom.js';

/** @typedef {import('./state.js').State} State */
/** @typedef {import('./mount.js').View} View */
/** @typedef {import('../../types/config').Cell} Cell */
/** @typedef {import('../../types/config').MatrixName} MatrixName */
/** A mark on matrix m's panel (heatmap.js's Mark). @typedef {import('../blocks/heatmap.js').Mark & { m: string }} PanelMark */
/**
 * One matrix's figure.
 * @typedef {{ fig: HTMLElement, hm: import('../blocks/heatmap.js').Heatmap, about: HTMLElement, later: HTMLElement,
 *   legend: HTMLElement, legendKey: string }} Panel
 */

/** @param {number} k */
const STEP_NAME = (k) => `${k + 1} ${STEPS[k][0].toUpperCase() + STEPS[k].slice(1)}`;

// A checkbox or toggle button in a caption (only when the head can be edited).
/** @param {Document} doc @param {HTMLElement} cap @param {MatrixName} m */
function captionToggle(doc, cap, m) {
  if (m === 'S' || m === 'M') {
    const label = cap.appendChild(el(doc, 'label', 'cap-toggle'));
    const box = label.appendChild(el(doc, 'input'));
    box.type = 'checkbox';
    box.id = m === 'S' ? 'scaling' : 'causal';
    label.appendChild(doc.createTextNode(m === 'S' ? ' scale by 1/√dk (S)' : ' causal mask (M)'));
    label.title = m === 'S' ? 'Divide the scores by √dk (key S)' : 'A token cannot see the future (key M)';
  } else if (m === 'O') {
    const b = cap.appendChild(el(doc, 'button', 'cap-toggle', 'Leak check'));
    b.type = 'button';
    b.id = 'leak-toggle';
    b.setAttribute('aria-pressed', 'false');
    b.title = 'Edit a later token and see which rows of O change';
  }
}

// One matrix's figure: caption (name, shape, toggle, what it is), heatmap, legend.
/** @param {Document} doc @param {HTMLElement} parent @param {State} state @param {View} view @param {MatrixName} m @param {number} maxPx @returns {Panel} */
function buildPanel(doc, parent, state, view, m, maxPx) {
  const info = matrixInfo(view, m);
  const fig = parent.appendChild(el(doc, 'figure', 'panel'));
  fig.dataset.panel = m;
  const cap = fig.appendChild(el(doc, 'figcaption'));
  cap.appendChild(el(doc, 'span', 'pname', m));
  cap.appendChild(el(doc, 'span', 'shape', `${info.rows} × ${info.cols}, ${info.axes}`));
  if (can(state, 'edit')) captionToggle(doc, cap, m);
  const about = cap.appendChild(el(doc, 'span', 'about', info.about));
  const later = cap.appendChild(el(doc, 'span', 'later'));
  const hm = createHeatmap(doc, {
    m, rows: info.rows, cols: info.cols, rowLabels: info.rowLabels, colLabels: info.colLabels,
    caption: info.caption, editable: editable(state).has(m), followable: TOKEN_ROWS.has(m), maxPx,
    minCol: m === 'M' ? 2.4 : 3.2,
  });
  fig.appendChild(el(doc, 'div', 'scroller')).appendChild(hm.el);
  const legend = fig.appendChild(el(doc, 'div', 'legend'));
  return { fig, hm, about, later, legend, legendKey: '' };
}

// The strip that stands for the folded learned weights between X and Q.
/** @param {Document} doc @param {HTMLElement} row @param {readonly string[]} folded */
function buildStrip(doc, row, folded) {
  const strip = row.appendChild(el(doc, 'button', 'weights-strip'));
  strip.type = 'button';
  strip.id = 'weights-toggle';
  strip.setAttribute('aria-controls', 'weights-row');
  for (const w of folded) strip.appendChild(el(doc, 'span', 'ws-name', '·' + w));
  strip.appendChild(el(doc, 'span', 'ws-what', 'learned weights'));
  strip.appendChild(el(doc, 'span', 'ws-state'));
  return strip;
}

/**
 * Builds every panel for (state, view) in `box`: { panels: Map m -> panel, strip, weightsRow }.
 * @param {Document} doc @param {HTMLElement} box @param {State} state @param {View} view
 */
function buildPanels(doc, box, state, view) {
  box.textContent = '';
  /** @type {Map<MatrixName, Panel>} */
  const panels = new Map();
  /** @type {HTMLButtonElement | null} */
  let strip = null;
  /** @type {HTMLDivElement | null} */
  let weightsRow = null;
  const width = box.clientWidth || doc.documentElement.clientWidth - 56;
  const maxPx = Math.max(200, Math.min(520, width - 16));
  for (const [title, list, folded] of shownGroups(headOf(state))) {
    const group = box.appendChild(el(doc, 'section', 'group'));
    group.setAttribute('aria-label', title);
    group.appendChild(el(doc, 'h2', 'group-title', title));
    const row = group.appendChild(el(doc, 'div', 'group-row'));
    // a row with a panel that can wait for a later step keeps room above it for that panel's
    // "(computed at step …)" tab, at every step, so the tab never covers the group's title
    const waits = list.some((m) => (PRODUCED_AT[/** @type {keyof typeof PRODUCED_AT} */ (m)] ?? 0) > 0);
    row.classList.toggle('has-later', waits);
    for (const m of list) {
      if (m === 'Q' && folded.length) strip = buildStrip(doc, row, folded);
      panels.set(m, buildPanel(doc, row, state, view, m, maxPx));
    }
    if (folded.length) {
      const wr = (weightsRow = group.appendChild(el(doc, 'div', 'group-row weights-row')));
      wr.id = 'weights-row';
      for (const m of folded) panels.set(m, buildPanel(doc, wr, state, view, m, maxPx));
    }
  }
  return { panels, strip, weightsRow };
}

// The legend says what the panel's values show (legendInfo). Its spans are built when what it
// shows changes (the theme, the scale, a mask); new ends of the scale, which every step of
// training brings, only change the texts of the two ends, and only when they read differently.
/** @param {Document} doc @param {Panel} p @param {import('../blocks/colors.js').Theme} theme @param {ReturnType<typeof legendInfo>} info */
function drawLegend(doc, p, theme, info) {
  const key = JSON.stringify([theme, info.kind, info.centre, info.mayLook, info.masked]);
  const legend = p.legend;
  if (key === p.legendKey) {
    if (info.kind !== 'mask') {
      setText(/** @type {Element} */ (legend.querySelector('.lo')), fmtShort(info.lo));
      setText(/** @type {Element} */ (legend.querySelector('.hi')), fmtShort(info.hi));
    }
    return;
  }
  p.legendKey = key;
  legend.textContent = '';
  /** @param {import('../blocks/colors.js').Rgb} rgb @param {string} text */
  const swatch = (rgb, text) => {
    const s = legend.appendChild(el(doc, 'span', 'legend-key'));
    s.appendChild(el(doc, 'span', 'legend-chip')).style.background = css(rgb);
    s.appendChild(doc.createTextNode(text));
  };
  if (info.kind === 'mask') {
    if (info.mayLook) swatch(cellRgb('mask', 0, 1, theme), '0 may look');
  } else {
    legend.appendChild(el(doc, 'span', 'lo', fmtShort(info.lo)));
    const bar = legend.appendChild(el(doc, 'span', 'bar'));
    bar.style.background = legendGradient(info.kind, theme);
    legend.appendChild(el(doc, 'span', 'hi', fmtShort(info.hi)));
    if (info.centre) legend.appendChild(el(doc, 'span', 'mid', 'centre 0'));
  }
  if (info.masked) swatch(maskedRgb(theme), '−∞ masked');
}

// Specs grouped by matrix: [{ m, row, col }] -> Map m -> specs.
/** @param {readonly PanelMark[]} specs */
function byMatrix(specs) {
  /** @type {Map<string, PanelMark[]>} */
  const map = new Map();
  for (const s of specs) {
    const list = map.get(s.m);
    if (list) list.push(s);
    else map.set(s.m, [s]);
  }
  return map;
}

// Everything the panels' structure depends on: a change rebuilds them. The names of the
// tokens, features and value dims do not: another sentence of the same length (a training
// page's next example, the induction page's next sequence) renames them in place.
/** @param {State} state @param {View} view */
function layoutKey(state, view) {
  const c = headOf(state), r = view.r;
  return JSON.stringify([isDirect(c), r.n, r.d, r.dk, r.dv, can(state, 'edit')]);
}
/** @param {State} state @param {View} view */
function namesKey(state, view) {
  const c = headOf(state);
  return JSON.stringify([c.tokens, isDirect(c) ? undefined : c.features, matrixInfo(view, 'O').colLabels]);
}

/**
 * The toggles among the panels (causal, scaling, the leak check) and the weights strip, from the state.
 * @param {HTMLElement} box @param {State} state @param {HTMLButtonElement | null} strip @param {HTMLDivElement | null} weightsRow
 */
function drawToggles(box, state, strip, weightsRow) {
  const causal = /** @type {HTMLInputElement | null} */ (box.querySelector('#causal')), scaling = /** @type {HTMLInputElement | null} */ (box.querySelector('#scaling'));
  const leak = box.querySelector('#leak-toggle');
  if (causal) causal.checked = headOf(state).causal;
  if (scaling) scaling.checked = headOf(state).scale == null;
  if (leak) setAttr(leak, 'aria-pressed', String(Boolean(state.leak)));
  if (strip) {
    setAttr(strip, 'aria-expanded', String(state.weightsOpen));
    setText(/** @type {Element} */ (strip.lastChild), state.weightsOpen ? 'hide ▴' : 'show ▾');
    strip.title = state.weightsOpen ? 'Fold the learned weights Wq, Wk, Wv' : 'Show the learned weights Wq, Wk, Wv';
    if (weightsRow) weightsRow.hidden = !state.weightsOpen;
  }
}

/**
 * createPanelsView(doc, box): box is the element the panels go in (#matrices).
 * @param {Document} doc @param {HTMLElement} box
 */
export function createPanelsView(doc, box) {
  /** @type {Map<MatrixName, Panel>} */
  let panels = new Map(); // m -> { fig, hm, about, later, legend, legendKey }
  /** @type {Map<MatrixName, ReturnType<typeof labeler>>} */
  let labelFns = new Map(); // m -> the cells' screen-reader labels, rebuilt with the panels
  let layout = '';
  /** @type {HTMLButtonElement | null} */
  let strip = null; // the weights strip's button, and the row it opens
  /** @type {HTMLDivElement | null} */
  let weightsRow = null;

  let named = ''; // the names the rows and columns were given
  /** Every panel's rows and columns renamed from the view; the cells' labels follow. @param {View} view */
  function rename(view) {
    labelFns = new Map();
    for (const [m, p] of panels) {
      const info = matrixInfo(view, m);
      p.hm.setLabels(info.rowLabels, info.colLabels);
    }
  }

  /** @param {State} state @param {View} view */
  function drawValues(state, view) {
    for (const [m, p] of panels) {
      let label = labelFns.get(m);
      if (!label) labelFns.set(m, (label = labeler(view, m)));
      const values = displayed(view, m);
      const kind = scaleKind(m);
      const maxAbs = kind === 'diverging' ? maxAbsFinite(values) || 1 : 1;
      p.hm.update(values, { kind, maxAbs, theme: state.theme, format: m === 'M' ? fmtShort : fmt, label });
      drawLegend(doc, p, state.theme, legendInfo(m, values, kind, maxAbs));
    }
  }

  // Captions, the step's highlights (current outlined, later ones greyed but readable), toggles.
  /** @type {[number, string | null, number | null] | null} */
  let captioned = null; // the (computation, step, scale) the captions were written for
  /** @param {State} state @param {View} view */
  function drawCaptions(state, view) {
    const k = stepIndex(state);
    const fresh = !captioned || captioned[0] !== view.serial || captioned[1] !== state.step || captioned[2] !== headOf(state).scale;
    captioned = [view.serial, state.step, headOf(state).scale];
    const current = new Set(state.step ? STEP_MATRICES[state.step] : []);
    for (const [m, p] of panels) {
      const at = PRODUCED_AT[/** @type {keyof typeof PRODUCED_AT} */ (m)];
      const pending = at !== undefined && at > k;
      p.fig.classList.toggle('pending', pending);
      p.fig.classList.toggle('current', current.has(m));
      if (fresh) setText(p.about, matrixInfo(view, m).about);
      const later = pending ? `(computed at step ${STEP_NAME(at)})` : '';
      setText(p.later, later);
    }
    drawToggles(box, state, strip, weightsRow);
  }

  /**
   * Draws the panels for (state, view). `values`: the numbers changed; `rebuild`: build the
   * panels afresh even if the layout looks the same. Returns true when the panels were rebuilt.
   * @param {State} state @param {View} view @param {{ values?: boolean, rebuild?: boolean }} [what]
   */
  function draw(state, view, { values = false, rebuild = false } = {}) {
    const key = layoutKey(state, view), names = namesKey(state, view);
    const fresh = rebuild || key !== layout;
    const renamed = !fresh && names !== named;
    named = names;
    if (fresh) {
      layout = key;
      labelFns = new Map();
      ({ panels, strip, weightsRow } = buildPanels(doc, box, state, view));
      captioned = null;
    } else if (renamed) rename(view);
    if (values || fresh || renamed) drawValues(state, view);
    drawCaptions(state, view);
    return fresh;
  }

  /**
   * Marks the cell explained (`active`), the cells that fed it (`sources`), the followed row, the
   * tour's cells and the leak check's rows of O ({ i, same } each).
   * @param {State} state @param {{ active: Cell | null, sources?: readonly PanelMark[], tour?: readonly PanelMark[], leakRows?: readonly { i: number, same: boolean }[] }} marks
   */
  function drawMarks(state, { active, sources = [], tour = [], leakRows = [] }) {
    const src = byMatrix(sources), tours = byMatrix(tour);
    const follow = state.follow;
    for (const [m, p] of panels) {
      p.hm.setMarks('src', src.get(m) || []);
      p.hm.setMarks('cur', active && active.m === m ? [{ row: active.i, col: active.j }] : []);
      p.hm.setMarks('follow', follow != null && TOKEN_ROWS.has(m) && m !== 'K' && m !== 'V' ? [{ row: follow }] : []);
      p.hm.setMarks('tour', tours.get(m) || []);
      p.hm.setFollowed(follow);
      p.fig.classList.toggle('feeds', src.has(m));
      if (m === 'O') {
        p.hm.setMarks('same', leakRows.filter((x) => x.same).map((x) => ({ row: x.i })));
        p.hm.setMarks('changed', leakRows.filter((x) => !x.same).map((x) => ({ row: x.i })));
      }
    }
    if (strip) strip.classList.toggle('feeds', ['Wq', 'Wk', 'Wv'].some((m) => src.has(m) || tours.has(m)));
  }

  /**
   * The cell if it is inside a drawn panel, else null.
   * @param {Cell | null} cell @returns {Cell | null}
   */
  function fits(cell) {
    const p = cell && panels.get(cell.m);
    return p && cell.i >= 0 && cell.j >= 0 && cell.i < p.hm.rows && cell.j < p.hm.cols ? cell : null;
  }

  /**
   * The cell under a pointer event, or null.
   * @param {MouseEvent} ev @returns {Cell | null}
   */
  function cellFromEvent(ev) {
    const t = /** @type {Partial<Element> | null} */ (ev.target);
    const fig = /** @type {HTMLElement | null} */ (t && t.closest && t.closest('[data-panel]'));
    if (!fig) return null;
    const m = /** @type {MatrixName} */ (fig.dataset.panel);
    const p = panels.get(m);
    const c = p && p.hm.cellAt(ev);
    return c ? { m, i: c.i, j: c.j } : null;
  }

  return {
    draw,
    drawMarks,
    fits,
    cellFromEvent,
    /** The heatmap of matrix m (or undefined). */
    heatmap: (/** @type {MatrixName} */ m) => panels.get(m)?.hm,
    figure: (/** @type {MatrixName} */ m) => panels.get(m)?.fig,
    names: () => [...panels.keys()],
    /** Whether matrix m is on screen now (not folded away). */
    visible: (/** @type {MatrixName} */ m) => {
      const p = panels.get(m);
      return Boolean(p) && !(weightsRow && weightsRow.hidden && p && weightsRow.contains(p.fig));
    },
    /** Forget the layout: the next draw builds the panels afresh. */
    invalidate: () => { layout = ''; },
  };
}
