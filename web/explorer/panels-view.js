// explorer/panels-view.js: the matrix panels (X, Wq, Wk, Wv, Q, K, V, S, M, A, O), each a
// heatmap (web/heatmap.js) with its caption and legend. Drawn from (state, view); the only things
// it keeps are the DOM it made and which layout that DOM is for.

import { createHeatmap } from '../heatmap.js';
import { fmt, fmtShort } from '../format.js';
import { matrixInfo, displayed, labeler, STEP_MATRICES } from '../explain.js';
import { scaleKind, maxAbsFinite, legendGradient, css, maskedRgb, cellRgb } from '../colors.js';
import { isDirect } from '../config.js';
import { editable, shownGroups, stepIndex, can, PRODUCED_AT, TOKEN_ROWS, MANY } from './state.js';
import { el } from './dom.js';

/** createPanelsView(doc, box): box is the element the panels go in (#matrices). */
export function createPanelsView(doc, box) {
  let panels = new Map(); // m -> { fig, hm, about, legend }
  let labelFns = new Map(); // m -> the cells' screen-reader labels, rebuilt with the panels
  let layout = '';

  // Everything the panels' structure depends on: a change rebuilds them.
  function layoutKey(state, view) {
    const c = state.config, r = view.r;
    return JSON.stringify([isDirect(c), r.n, r.d, r.dk, r.dv, c.tokens.length <= MANY && c.tokens, c.features, matrixInfo(view, 'O').colLabels, can(state, 'edit')]);
  }

  function build(state, view) {
    box.textContent = '';
    panels = new Map();
    labelFns = new Map();
    const edit = editable(state);
    const width = box.clientWidth || doc.documentElement.clientWidth - 56;
    const maxPx = Math.max(200, Math.min(520, width - 16));
    for (const [title, list] of shownGroups(state.config)) {
      const group = box.appendChild(el(doc, 'section', 'group'));
      group.appendChild(el(doc, 'h2', 'group-title', title));
      const row = group.appendChild(el(doc, 'div', 'group-row'));
      for (const m of list) {
        const info = matrixInfo(view, m);
        const fig = row.appendChild(el(doc, 'figure', 'panel'));
        fig.dataset.panel = m;
        const cap = fig.appendChild(el(doc, 'figcaption'));
        cap.appendChild(el(doc, 'span', 'pname', m));
        cap.appendChild(el(doc, 'span', 'shape', `${info.rows} × ${info.cols}, ${info.axes}`));
        const about = cap.appendChild(el(doc, 'span', 'about', info.about));
        const hm = createHeatmap(doc, {
          m, rows: info.rows, cols: info.cols, rowLabels: info.rowLabels, colLabels: info.colLabels,
          caption: info.caption, editable: edit.has(m), followable: TOKEN_ROWS.has(m), maxPx,
        });
        const scroller = fig.appendChild(el(doc, 'div', 'scroller'));
        scroller.appendChild(hm.el);
        const legend = fig.appendChild(el(doc, 'div', 'legend'));
        panels.set(m, { fig, hm, about, legend });
      }
    }
  }

  function swatch(parent, rgb, text) {
    const s = parent.appendChild(el(doc, 'span', 'swatch'));
    s.appendChild(el(doc, 'span', 'chip')).style.background = css(rgb);
    s.appendChild(doc.createTextNode(text));
  }

  function drawLegend(legend, theme, kind, maxAbs, hasMasked) {
    legend.textContent = '';
    if (kind === 'mask') {
      swatch(legend, cellRgb('mask', 0, 1, theme), '0 may look');
      swatch(legend, maskedRgb(theme), '−∞ masked');
      return;
    }
    legend.appendChild(el(doc, 'span', 'lo', kind === 'sequential' ? '0' : fmtShort(-maxAbs)));
    const bar = legend.appendChild(el(doc, 'span', 'bar'));
    bar.style.background = legendGradient(kind, theme);
    legend.appendChild(el(doc, 'span', 'hi', kind === 'sequential' ? '1' : fmtShort(maxAbs)));
    if (kind === 'diverging') legend.appendChild(el(doc, 'span', 'mid', 'centre 0'));
    if (hasMasked) swatch(legend, maskedRgb(theme), '−∞ masked');
  }

  function drawValues(state, view) {
    for (const [m, p] of panels) {
      const label = labelFns.get(m) || labelFns.set(m, labeler(view, m)).get(m);
      const values = displayed(view, m);
      const kind = scaleKind(m);
      const maxAbs = kind === 'diverging' ? maxAbsFinite(values) || 1 : 1;
      p.hm.update(values, { kind, maxAbs, theme: state.theme, format: m === 'M' ? fmtShort : fmt, label });
      drawLegend(p.legend, state.theme, kind, maxAbs, m === 'S' && values.some((v) => v === -Infinity));
    }
  }

  // Which panels this step produces (outlined) and which come later (dimmed).
  function drawStep(state, view) {
    const k = stepIndex(state);
    const current = new Set(state.step ? STEP_MATRICES[state.step] : []);
    for (const [m, p] of panels) {
      p.fig.classList.toggle('pending', m in PRODUCED_AT && PRODUCED_AT[m] > k);
      p.fig.classList.toggle('current', current.has(m));
      if (m === 'S') p.about.textContent = matrixInfo(view, 'S').about;
    }
  }

  /**
   * Draws the panels for (state, view). `values`: the numbers changed; `rebuild`: build the
   * panels afresh even if the layout looks the same. Returns true when the panels were rebuilt.
   */
  function draw(state, view, { values = false, rebuild = false } = {}) {
    const key = layoutKey(state, view);
    const fresh = rebuild || key !== layout;
    if (fresh) {
      layout = key;
      build(state, view);
    }
    if (values || fresh) drawValues(state, view);
    drawStep(state, view);
    return fresh;
  }

  /** Marks the cell explained (`active`), the cells that fed it (`ex.sources`) and the followed row. */
  function drawMarks(state, active, ex) {
    const src = new Map();
    for (const s of ex ? ex.sources : []) (src.get(s.m) || src.set(s.m, []).get(s.m)).push(s);
    const follow = state.follow;
    for (const [m, p] of panels) {
      p.hm.setMarks('src', src.get(m) || []);
      p.hm.setMarks('cur', active && active.m === m ? [{ row: active.i, col: active.j }] : []);
      p.hm.setMarks('follow', follow != null && TOKEN_ROWS.has(m) && m !== 'K' && m !== 'V' ? [{ row: follow }] : []);
      p.fig.classList.toggle('feeds', src.has(m));
    }
  }

  /** The cell if it is inside a drawn panel, else null. */
  function fits(cell) {
    const p = cell && panels.get(cell.m);
    return p && cell.i < p.hm.rows && cell.j < p.hm.cols ? cell : null;
  }

  /** The cell under a pointer event, or null. */
  function cellFromEvent(ev) {
    const fig = ev.target.closest && ev.target.closest('[data-panel]');
    if (!fig) return null;
    const p = panels.get(fig.dataset.panel);
    const c = p && p.hm.cellAt(ev);
    return c ? { m: fig.dataset.panel, i: c.i, j: c.j } : null;
  }

  return {
    draw,
    drawMarks,
    fits,
    cellFromEvent,
    /** The heatmap of matrix m (or undefined). */
    heatmap: (m) => panels.get(m)?.hm,
    figure: (m) => panels.get(m)?.fig,
    names: () => [...panels.keys()],
    /** Forget the layout: the next draw builds the panels afresh. */
    invalidate: () => (layout = ''),
  };
}
