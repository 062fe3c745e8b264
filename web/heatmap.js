// heatmap.js: draws one matrix. Two modes:
//   "cells":  one element per cell carrying data-matrix, data-row, data-col, its shown value as
//             text and an aria-label; a roving tabindex makes every cell keyboard-reachable.
//   "canvas": one pixel per cell, scaled up with CSS, for matrices too big to print numbers in;
//             cellAt() maps a mouse position back to a cell so hovering still explains it.
// The renderer is given the document and sizes; it never reads globals or touches state.

import { cellRgb, css, textOn } from './colors.js';

export const CELLS_MAX_ROWS = 24;
export const CELLS_MAX_COLS = 16;

export function chooseMode(rows, cols) {
  return rows <= CELLS_MAX_ROWS && cols <= CELLS_MAX_COLS ? 'cells' : 'canvas';
}

/**
 * createHeatmap(doc, { m, rows, cols, rowLabels, colLabels, caption, editable, followable, maxPx })
 * returns { el, mode, update, setMarks, setCursor, cursor, cellAt, focusCursor }.
 */
export function createHeatmap(doc, opts) {
  const { m, rows, cols, rowLabels, colLabels, caption, editable = false, followable = false, maxPx = 480 } = opts;
  const mode = opts.mode || chooseMode(rows, cols);
  const el = doc.createElement('div');
  el.className = 'hm hm-' + mode;
  const marks = new Map(); // class -> elements (cells mode) or overlay divs (canvas mode)
  let cursor = { i: 0, j: 0 };
  let cells = null, canvas = null, ctx = null, img = null, cw = 0, ch = 0, cursorBox = null;

  if (mode === 'cells') {
    el.setAttribute('role', 'grid');
    el.setAttribute('aria-label', caption);
    el.style.gridTemplateColumns = `auto repeat(${cols}, minmax(3.6em, max-content))`;
    const head = doc.createElement('div');
    head.setAttribute('role', 'row');
    head.className = 'hm-r';
    head.appendChild(doc.createElement('span')).className = 'hm-corner';
    for (let j = 0; j < cols; j++) {
      const h = head.appendChild(doc.createElement('span'));
      h.setAttribute('role', 'columnheader');
      h.className = 'hm-lab hm-col';
      h.textContent = colLabels[j];
      h.title = colLabels[j];
    }
    el.appendChild(head);
    cells = new Array(rows * cols);
    for (let i = 0; i < rows; i++) {
      const row = doc.createElement('div');
      row.setAttribute('role', 'row');
      row.className = 'hm-r';
      const lab = row.appendChild(doc.createElement(followable ? 'button' : 'span'));
      lab.setAttribute('role', 'rowheader');
      lab.className = 'hm-lab hm-rowlab';
      lab.textContent = rowLabels[i];
      lab.title = rowLabels[i];
      if (followable) {
        lab.type = 'button';
        lab.dataset.follow = String(i);
        lab.tabIndex = -1;
      }
      for (let j = 0; j < cols; j++) {
        const c = row.appendChild(doc.createElement('span'));
        c.setAttribute('role', 'gridcell');
        c.className = editable ? 'cell editable' : 'cell';
        c.dataset.matrix = m;
        c.dataset.row = String(i);
        c.dataset.col = String(j);
        c.tabIndex = i === 0 && j === 0 ? 0 : -1;
        cells[i * cols + j] = c;
      }
      el.appendChild(row);
    }
  } else {
    cw = Math.max(2, Math.min(28, Math.floor(maxPx / cols)));
    ch = Math.max(2, Math.min(28, Math.floor(maxPx / rows)));
    canvas = el.appendChild(doc.createElement('canvas'));
    canvas.width = cols;
    canvas.height = rows;
    canvas.style.width = cols * cw + 'px';
    canvas.style.height = rows * ch + 'px';
    canvas.tabIndex = 0;
    canvas.setAttribute('role', 'img');
    canvas.dataset.matrixCanvas = m;
    ctx = canvas.getContext('2d');
    img = ctx.createImageData(cols, rows);
    el.style.width = cols * cw + 'px';
    cursorBox = overlay('hl-cursor');
    cursorBox.hidden = true;
  }

  function overlay(cls) {
    const d = el.appendChild(doc.createElement('div'));
    d.className = 'hl ' + cls;
    return d;
  }
  function place(d, i0, j0, nr, nc) {
    d.style.top = i0 * ch + 'px';
    d.style.left = j0 * cw + 'px';
    d.style.height = nr * ch + 'px';
    d.style.width = nc * cw + 'px';
  }

  /**
   * update(values, { kind, maxAbs, theme, format, label }): values is a Float32Array [rows*cols];
   * format(v) gives the cell text, label(i, j, v) the screen-reader label.
   */
  function update(values, { kind, maxAbs, theme, format, label }) {
    if (mode === 'cells') {
      // Only cells whose value (or whose colour scale) changed are touched: an edit of one
      // input changes a few rows, and the DOM work is most of a redraw.
      const same = prev && prev.kind === kind && prev.maxAbs === maxAbs && prev.theme === theme && prev.label === label;
      for (let k = 0; k < cells.length; k++) {
        const v = values[k], c = cells[k];
        if (same && Object.is(prev.values[k], v)) continue;
        const rgb = cellRgb(kind, v, maxAbs, theme);
        c.textContent = format(v);
        c.style.background = css(rgb);
        c.style.color = textOn(rgb);
        c.classList.toggle('masked', v === -Infinity);
        c.setAttribute('aria-label', label(Math.floor(k / cols), k % cols, v));
      }
      prev = { values: Float32Array.from(values), kind, maxAbs, theme, label };
    } else {
      const data = img.data;
      for (let k = 0; k < values.length; k++) {
        const rgb = cellRgb(kind, values[k], maxAbs, theme);
        data[4 * k] = rgb[0];
        data[4 * k + 1] = rgb[1];
        data[4 * k + 2] = rgb[2];
        data[4 * k + 3] = 255;
      }
      ctx.putImageData(img, 0, 0);
      canvas.setAttribute('aria-label', `${caption}. Arrow keys move the cursor; now at ` + label(cursor.i, cursor.j, values[cursor.i * cols + cursor.j]));
      lastLabel = label;
      lastValues = values;
    }
  }
  let prev = null;
  let lastLabel = null, lastValues = null;

  /** Marks cells with a class: specs are { row }, { col } or { row, col }. Replaces earlier marks of that class. */
  function setMarks(cls, specs) {
    const old = marks.get(cls) || [];
    if (mode === 'cells') {
      for (const c of old) c.classList.remove(cls);
      const now = [];
      for (const s of specs) {
        for (let i = 0; i < rows; i++) {
          if (s.row != null && s.row !== i) continue;
          for (let j = 0; j < cols; j++) {
            if (s.col != null && s.col !== j) continue;
            const c = cells[i * cols + j];
            c.classList.add(cls);
            now.push(c);
          }
        }
      }
      marks.set(cls, now);
    } else {
      for (const d of old) d.remove();
      marks.set(
        cls,
        specs.map((s) => {
          const d = overlay('hl-' + cls);
          place(d, s.row ?? 0, s.col ?? 0, s.row != null ? 1 : rows, s.col != null ? 1 : cols);
          return d;
        }),
      );
    }
  }

  /** Moves the keyboard cursor (roving tabindex / canvas cursor box). */
  function setCursor(i, j) {
    i = Math.max(0, Math.min(rows - 1, i));
    j = Math.max(0, Math.min(cols - 1, j));
    if (mode === 'cells') {
      cells[cursor.i * cols + cursor.j].tabIndex = -1;
      cells[i * cols + j].tabIndex = 0;
    } else {
      cursorBox.hidden = false;
      place(cursorBox, i, j, 1, 1);
      el.appendChild(cursorBox);
      if (lastLabel) canvas.setAttribute('aria-label', `${caption}. Arrow keys move the cursor; now at ` + lastLabel(i, j, lastValues[i * cols + j]));
    }
    cursor = { i, j };
  }
  // Called when a key moved the cursor: the focus ring must show. Engines disagree on whether
  // a focus() from a key handler is "visible" after a mouse click (WebKit: no), so say so.
  function focusCursor() {
    (mode === 'cells' ? cells[cursor.i * cols + cursor.j] : canvas).focus({ focusVisible: true });
  }
  function hideCursor() {
    if (cursorBox) cursorBox.hidden = true;
  }

  /** The cell under a pointer event (or null). */
  function cellAt(ev) {
    if (mode === 'cells') {
      const c = ev.target.closest && ev.target.closest('.cell');
      return c && el.contains(c) ? { i: +c.dataset.row, j: +c.dataset.col } : null;
    }
    const b = canvas.getBoundingClientRect();
    const j = Math.floor(((ev.clientX - b.left) / b.width) * cols);
    const i = Math.floor(((ev.clientY - b.top) / b.height) * rows);
    return i >= 0 && i < rows && j >= 0 && j < cols ? { i, j } : null;
  }

  return { el, m, rows, cols, mode, update, setMarks, setCursor, focusCursor, hideCursor, cellAt, get cursor() { return cursor; }, cell: (i, j) => (cells ? cells[i * cols + j] : null) };
}
