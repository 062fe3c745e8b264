// @ts-check
// heatmap.js: draws one matrix. Two modes:
//   "cells":  one element per cell carrying data-matrix, data-row, data-col, its shown value as
//             text and an aria-label; a roving tabindex makes every cell keyboard-reachable.
//   "canvas": one pixel per cell, scaled up with CSS, for matrices too big to print numbers in;
//             cellAt() maps a mouse position back to a cell so hovering still explains it.
// The renderer is given the document and sizes; it never reads globals or touches state.

import { cellRgb, css, textOn } from './colors.js';

/** @typedef {import('./colors.js').ScaleKind} ScaleKind */
/** @typedef {import('./colors.js').Theme} Theme */
/** @typedef {'cells' | 'canvas'} HeatmapMode */
/**
 * What createHeatmap draws: matrix `m` [rows][cols] with its labels. The cells mode reads every
 * option; the canvas mode reads m, rows, cols, caption and maxPx.
 * @typedef {{ m: string, rows: number, cols: number, rowLabels: readonly string[], colLabels: readonly string[],
 *   caption: string, editable?: boolean, followable?: boolean, maxPx?: number, minCol?: number, mode?: HeatmapMode }} HeatmapOptions
 */
/**
 * update's second argument: the colour scale, and for each cell its text and screen-reader label.
 * @typedef {{ kind: ScaleKind, maxAbs: number, theme: Theme, format: (v: number) => string,
 *   label: (i: number, j: number, v: number) => string }} UpdateOptions
 */
/** A mark covers a row ({ row }), a column ({ col }) or one cell ({ row, col }). @typedef {{ row?: number | null, col?: number | null }} Mark */
/** A cell of the grid, 0-based; j = -1 is the row's header button. @typedef {{ i: number, j: number }} Cursor */
/**
 * The interface both modes have.
 * @typedef {{ el: HTMLDivElement, m: string, rows: number, cols: number, mode: HeatmapMode,
 *   update: (values: ArrayLike<number>, options: UpdateOptions) => void,
 *   setMarks: (cls: string, specs: readonly Mark[]) => void, setCursor: (i: number, j: number) => void,
 *   setLabels: (rowLabels: readonly string[], colLabels: readonly string[]) => void,
 *   setFollowed: (row: number | null) => void, cellAt: (ev: MouseEvent) => Cursor | null,
 *   focusCursor: () => void, hideCursor: () => void, readonly cursor: Cursor,
 *   cell: (i: number, j: number) => HTMLElement | null }} Heatmap
 */

/** focus()'s option that shows the focus ring (not yet in TypeScript's DOM types). */
const FOCUS_VISIBLE = /** @type {FocusOptions & { focusVisible: boolean }} */ ({ focusVisible: true });

export const CELLS_MAX_ROWS = 24;
export const CELLS_MAX_COLS = 16;

/** @param {number} rows @param {number} cols @returns {HeatmapMode} */
export function chooseMode(rows, cols) {
  return rows <= CELLS_MAX_ROWS && cols <= CELLS_MAX_COLS ? 'cells' : 'canvas';
}

/**
 * createHeatmap(doc, { m, rows, cols, rowLabels, colLabels, caption, editable, followable, maxPx, minCol, mode })
 * returns { el, m, rows, cols, mode, update, setMarks, setCursor, setLabels, setFollowed, cursor,
 * cellAt, focusCursor, hideCursor, cell }. Both modes have the same interface. setLabels renames
 * the rows and columns in place (another sentence of the same length keeps every node).
 * @param {Document} doc @param {HeatmapOptions} opts @returns {Heatmap}
 */
export function createHeatmap(doc, opts) {
  const mode = opts.mode || chooseMode(opts.rows, opts.cols);
  return mode === 'cells' ? cellsHeatmap(doc, opts) : canvasHeatmap(doc, opts);
}

// Marks are { row }, { col } or { row, col }: the cells (i, j) a spec covers.
/** @param {Mark} s @param {number} i @param {number} j */
const covers = (s, i, j) => (s.row == null || s.row === i) && (s.col == null || s.col === j);
/** @param {number} rows @param {number} cols @param {number} i @param {number} j @returns {Cursor} */
const clampTo = (rows, cols, i, j) => ({ i: Math.max(0, Math.min(rows - 1, i)), j: Math.max(0, Math.min(cols - 1, j)) });

// The grid's rows: a header row of column labels, then per row its header (a follow button when
// `followable`) and its cells. Returns the cells (row-major) and the rows' buttons.
/** @param {Document} doc @param {HTMLElement} el @param {Omit<HeatmapOptions, 'caption'>} opts */
function buildGrid(doc, el, { m, rows, cols, rowLabels, colLabels, editable, followable }) {
  const head = el.appendChild(doc.createElement('div'));
  head.setAttribute('role', 'row');
  head.className = 'hm-r';
  head.appendChild(doc.createElement('span')).className = 'hm-corner';
  /** @type {HTMLSpanElement[]} */
  const colHeads = [];
  for (let j = 0; j < cols; j++) {
    const h = head.appendChild(doc.createElement('span'));
    h.setAttribute('role', 'columnheader');
    h.className = 'hm-lab hm-col';
    h.textContent = colLabels[j];
    h.title = colLabels[j];
    colHeads.push(h);
  }
  /** @type {HTMLSpanElement[]} */
  const rowHeads = [];
  /** @type {HTMLSpanElement[]} */
  const cells = new Array(rows * cols);
  /** @type {(HTMLButtonElement | undefined)[]} */
  const heads = new Array(rows); // the row headers' buttons (followable) or null
  for (let i = 0; i < rows; i++) {
    const row = el.appendChild(doc.createElement('div'));
    row.setAttribute('role', 'row');
    row.className = 'hm-r';
    const lab = row.appendChild(doc.createElement('span'));
    lab.setAttribute('role', 'rowheader');
    lab.className = 'hm-lab hm-rowlab';
    lab.title = rowLabels[i];
    rowHeads.push(lab);
    if (followable) {
      const b = lab.appendChild(doc.createElement('button'));
      b.type = 'button';
      b.className = 'hm-follow';
      b.textContent = rowLabels[i];
      b.dataset.follow = String(i);
      b.dataset.labelOf = m;
      b.tabIndex = -1;
      b.setAttribute('aria-pressed', 'false');
      heads[i] = b;
    } else lab.textContent = rowLabels[i];
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
  }
  return { cells, heads, colHeads, rowHeads };
}

/**
 * What writeCells last wrote into a grid's cells: the values and scale, and each cell's text,
 * colours and label as written (null: not yet).
 * @typedef {{ values: Float32Array, kind: ScaleKind, maxAbs: number, theme: Theme, label: UpdateOptions['label'],
 *   texts: (string | null)[], backs: (string | null)[], fores: (string | null)[], arias: (string | null)[] }} Written
 */

/**
 * Writes `values` into the cells of a grid of `cols` columns: each cell's text, colours and
 * screen-reader label, only what changed since `prev` (the last write, or null). Returns what
 * it wrote, the next call's `prev`.
 * @param {HTMLElement[]} cells @param {number} cols @param {Written | null} prev
 * @param {ArrayLike<number>} values @param {UpdateOptions} options @returns {Written}
 */
function writeCells(cells, cols, prev, values, { kind, maxAbs, theme, format, label }) {
  // Only what changed is written: a cell's text (which costs a layout) only when the text it
  // shows changed, its colours when its value or the colour scale changed. An edit of one
  // input changes a few rows, and the DOM work is most of a redraw.
  // A changed text goes into the cell's one text node (its data), which lays out that line
  // again; replacing the node (textContent) would also rebuild its layout object. The same
  // for the colours: a style is written only when its value changed.
  const scale = prev && prev.kind === kind && prev.maxAbs === maxAbs && prev.theme === theme;
  const labels = prev && prev.label === label;
  const texts = prev ? prev.texts : new Array(cells.length).fill(null);
  const backs = prev ? prev.backs : new Array(cells.length).fill(null);
  const fores = prev ? prev.fores : new Array(cells.length).fill(null);
  const arias = prev ? prev.arias : new Array(cells.length).fill(null);
  for (let k = 0; k < cells.length; k++) {
    const v = values[k], c = cells[k];
    const same = prev && Object.is(prev.values[k], v);
    if (same && scale && labels) continue;
    if (!same || !scale) {
      const rgb = cellRgb(kind, v, maxAbs, theme);
      const back = css(rgb), fore = textOn(rgb);
      if (back !== backs[k]) { c.style.background = back; backs[k] = back; }
      if (fore !== fores[k]) { c.style.color = fore; fores[k] = fore; }
    }
    if (same && labels) continue;
    const text = format(v);
    if (text !== texts[k]) {
      const node = c.firstChild;
      if (node !== null && node.nodeType === 3 && node.nextSibling === null && text !== '') /** @type {Text} */ (node).data = text;
      else c.textContent = text;
      texts[k] = text;
      c.classList.toggle('masked', v === -Infinity);
    }
    // a label is written only when it reads differently (a new value often shows the same)
    const aria = label(Math.floor(k / cols), k % cols, v);
    if (aria !== arias[k]) {
      c.setAttribute('aria-label', aria);
      arias[k] = aria;
    }
  }
  return { values: Float32Array.from(values), kind, maxAbs, theme, label, texts, backs, fores, arias };
}

/**
 * A word's width in the label font, in `ch` of the numbers' monospace font, estimated letter by
 * letter from Chromium's system-ui at 11 px against its monospace: m and w run about 1.6 ch,
 * other capitals 1.2 to 1.45, i, l and j 0.46, t, f and r 0.66, punctuation 0.5, the rest 1.02.
 * @param {string} word
 */
export function labelWidth(word) {
  let w = 0;
  for (const ch of word) w += /[mw]/.test(ch) ? 1.6 : /[MW]/.test(ch) ? 1.45 : /[A-Z]/.test(ch) ? 1.2 : /[ilj]/.test(ch) ? 0.46 : /[tfr]/.test(ch) ? 0.66 : /[.,:;'’!|()\-]/.test(ch) ? 0.5 : 1.02;
  return w;
}

/**
 * One element per cell, in an ARIA grid with a roving tabindex. With `followable`, each row's
 * header holds a button (data-follow) that the arrow keys reach: ← from the first column.
 * `minCol` is the narrowest column, in em (3.6 by default; a mask's 0 and −∞ need less).
 * @param {Document} doc @param {HeatmapOptions} opts @returns {Heatmap}
 */
function cellsHeatmap(doc, { m, rows, cols, rowLabels, colLabels, caption, editable = false, followable = false, minCol = 3.6 }) {
  const el = doc.createElement('div');
  el.className = 'hm hm-cells';
  el.setAttribute('role', 'grid');
  el.setAttribute('aria-label', caption);
  // Columns as wide as the longest number shown (monospace: `ch` per character) or the longest
  // word of a column label, set when that changes, so an edit relays out the cells it changed
  // instead of measuring every cell again. A word's width in `ch` is estimated letter by letter
  // (labelWidth), so a long word such as "homework" fits whole and is never broken or cut.
  /** @param {readonly string[]} labels */
  // (the 6 px beside the `ch` hold about 0.8 ch of the word)
  const longestWord = (labels) => Math.max(1, Math.ceil(Math.max(0, ...labels.flatMap((l) => String(l).split(/\s+/).map(labelWidth))) - 0.8));
  let labelWord = longestWord(colLabels);
  let widest = 0, longestText = 1;
  const fitColumns = (/** @type {number} */ len) => {
    longestText = len;
    len = Math.max(len, labelWord);
    if (len === widest) return;
    widest = len;
    el.style.gridTemplateColumns = `auto repeat(${cols}, max(${minCol}em, calc(${len}ch + 6px)))`;
  };
  fitColumns(1);
  el.style.gridTemplateRows = `auto repeat(${rows}, 24px)`; // the header's labels, then rows of one line
  const { cells, heads, colHeads, rowHeads } = buildGrid(doc, el, { m, rows, cols, rowLabels, colLabels, editable, followable });
  /** @type {Map<string, Set<HTMLElement>>} */
  const marks = new Map(); // class -> the cells that carry it
  let cursor = { i: 0, j: 0 }; // j = -1: the row's header button
  /** @type {Written | null} */
  let prev = null;
  // (j is -1 only when the rows are followable: then every row has its button)
  /** @param {Cursor} c @returns {HTMLElement} */
  const at = (c) => (c.j < 0 ? /** @type {HTMLButtonElement} */ (heads[c.i]) : cells[c.i * cols + c.j]);

  /**
   * update(values, { kind, maxAbs, theme, format, label }): values is a Float32Array [rows*cols];
   * format(v) gives the cell text, label(i, j, v) the screen-reader label.
   * @param {ArrayLike<number>} values @param {UpdateOptions} options
   */
  function update(values, options) {
    prev = writeCells(cells, cols, prev, values, options);
    let len = 1;
    for (const t of prev.texts) if (t !== null && t.length > len) len = t.length;
    fitColumns(len);
  }

  /**
   * Marks cells with a class. Replaces earlier marks of that class (touching only the cells that change).
   * @param {string} cls @param {readonly Mark[]} specs
   */
  function setMarks(cls, specs) {
    const old = marks.get(cls) || new Set();
    const now = new Set();
    for (const s of specs) {
      for (let i = 0; i < rows; i++) {
        if (s.row != null && s.row !== i) continue;
        for (let j = 0; j < cols; j++) if (covers(s, i, j)) now.add(cells[i * cols + j]);
      }
    }
    for (const c of old) if (!now.has(c)) c.classList.remove(cls);
    for (const c of now) if (!old.has(c)) c.classList.add(cls);
    marks.set(cls, now);
  }

  /**
   * New names for the rows and columns (as many as before): the headers' text and titles, and
   * the columns' width if a longer word needs it. The cells' labels come with the next update.
   * @param {readonly string[]} newRows @param {readonly string[]} newCols
   */
  function setLabels(newRows, newCols) {
    colHeads.forEach((h, j) => {
      if (h.title === newCols[j]) return;
      h.textContent = newCols[j];
      h.title = newCols[j];
    });
    rowHeads.forEach((lab, i) => {
      if (lab.title === newRows[i]) return;
      lab.title = newRows[i];
      const b = heads[i];
      if (b) b.textContent = newRows[i];
      else lab.textContent = newRows[i];
    });
    labelWord = longestWord(newCols);
    fitColumns(longestText);
  }

  /**
   * Moves the keyboard cursor (the roving tabindex); column −1 is the row header, when it is a button.
   * @param {number} i @param {number} j
   */
  function setCursor(i, j) {
    const to = clampTo(rows, cols, i, j);
    if (j < 0 && followable) to.j = -1;
    at(cursor).tabIndex = -1;
    at(to).tabIndex = 0;
    cursor = to;
  }

  /** Marks the followed row's header button as pressed (null: none). */
  /** @type {number | null} */
  let followed = null;
  /** @param {number | null} row */
  function setFollowed(row) {
    if (row === followed) return;
    for (const i of [followed, row]) if (i != null) heads[i]?.setAttribute('aria-pressed', String(i === row));
    followed = row;
  }

  /** The cell under a pointer event (or null). @param {Event} ev @returns {Cursor | null} */
  function cellAt(ev) {
    const t = /** @type {Partial<Element> | null} */ (ev.target);
    const c = /** @type {HTMLElement | null} */ (t && t.closest && t.closest('.cell'));
    return c && el.contains(c) ? { i: +(c.dataset.row ?? NaN), j: +(c.dataset.col ?? NaN) } : null;
  }

  return {
    el, m, rows, cols, mode: 'cells', update, setMarks, setCursor, setLabels, setFollowed, cellAt,
    // Called when a key moved the cursor: the focus ring must show. Engines disagree on whether
    // a focus() from a key handler is "visible" after a mouse click (WebKit: no), so say so.
    focusCursor: () => at(cursor).focus(FOCUS_VISIBLE),
    hideCursor() {},
    get cursor() { return cursor; },
    cell: (/** @type {number} */ i, /** @type {number} */ j) => cells[i * cols + j],
  };
}

/**
 * One pixel per cell, scaled up; overlays mark cells, and a live line reads out the cursor's cell.
 * @param {Document} doc @param {HeatmapOptions} opts @returns {Heatmap}
 */
function canvasHeatmap(doc, { m, rows, cols, caption, maxPx = 480 }) {
  const el = doc.createElement('div');
  el.className = 'hm hm-canvas';
  const cw = Math.max(2, Math.min(28, Math.floor(maxPx / cols)));
  const ch = Math.max(2, Math.min(28, Math.floor(maxPx / rows)));
  const canvas = el.appendChild(doc.createElement('canvas'));
  canvas.width = cols;
  canvas.height = rows;
  canvas.style.width = cols * cw + 'px';
  canvas.style.height = rows * ch + 'px';
  canvas.tabIndex = 0;
  // Operated with keys, so not an image: an application region whose name says how, and a
  // polite live line (below) that reads out the cell the cursor lands on, short.
  canvas.setAttribute('role', 'application');
  canvas.setAttribute('aria-roledescription', 'heatmap');
  canvas.setAttribute('aria-label', `${caption}: ${rows} × ${cols} cells. Arrow keys move a cursor over them and read out each cell; Home and End go to the row’s ends.`);
  canvas.dataset.matrixCanvas = m;
  const live = el.appendChild(doc.createElement('span'));
  live.className = 'hm-live';
  live.setAttribute('aria-live', 'polite');
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  const img = ctx.createImageData(cols, rows);
  el.style.width = cols * cw + 'px';
  /** @type {Map<string, HTMLDivElement[]>} */
  const marks = new Map(); // class -> overlay divs
  /** @type {Map<string, string>} */
  const keys = new Map(); // class -> the specs its overlays were made for
  let cursor = { i: 0, j: 0 };
  /** @type {UpdateOptions['label'] | null} */
  let lastLabel = null;
  /** @type {ArrayLike<number>} */
  let lastValues = [];

  /** @param {string} cls */
  function overlay(cls) {
    const d = el.appendChild(doc.createElement('div'));
    d.className = 'hl ' + cls;
    return d;
  }
  /** @param {HTMLElement} d @param {number} i0 @param {number} j0 @param {number} nr @param {number} nc */
  function place(d, i0, j0, nr, nc) {
    d.style.top = i0 * ch + 'px';
    d.style.left = j0 * cw + 'px';
    d.style.height = nr * ch + 'px';
    d.style.width = nc * cw + 'px';
  }
  const cursorBox = overlay('hl-cursor');
  cursorBox.hidden = true;
  // The cell under the cursor, said once each time the cursor is on show (setCursor) and its
  // value or label changed: a redraw that changes nothing says nothing.
  const describe = () => {
    if (!lastLabel || cursorBox.hidden) return;
    const text = lastLabel(cursor.i, cursor.j, lastValues[cursor.i * cols + cursor.j]);
    if (text !== live.textContent) live.textContent = text;
  };

  /** @type {{ values: Float32Array, kind: ScaleKind, maxAbs: number, theme: Theme } | null} */
  let prev = null;
  /** @param {ArrayLike<number>} values @param {UpdateOptions} options */
  function update(values, { kind, maxAbs, theme, label }) {
    const data = img.data;
    // The image keeps its pixels: only values that changed (or all, for a new scale) are coloured.
    const same = prev && prev.kind === kind && prev.maxAbs === maxAbs && prev.theme === theme;
    let painted = 0;
    for (let k = 0; k < values.length; k++) {
      if (same && prev && Object.is(prev.values[k], values[k])) continue;
      const rgb = cellRgb(kind, values[k], maxAbs, theme);
      data[4 * k] = rgb[0];
      data[4 * k + 1] = rgb[1];
      data[4 * k + 2] = rgb[2];
      data[4 * k + 3] = 255;
      painted++;
    }
    if (painted) ctx.putImageData(img, 0, 0); // nothing changed (the mask while a head trains): the canvas stays
    if (!prev || painted) prev = { values: Float32Array.from(values), kind, maxAbs, theme };
    lastLabel = label;
    lastValues = values; // said at the next move, not at every redraw (a head in training redraws often)
  }

  /** @param {string} cls @param {readonly Mark[]} specs */
  function setMarks(cls, specs) {
    const key = JSON.stringify(specs);
    if (keys.get(cls) === key) return; // the same marks: keep the overlays
    keys.set(cls, key);
    for (const d of marks.get(cls) || []) d.remove();
    marks.set(
      cls,
      specs.map((s) => {
        const d = overlay('hl-' + cls);
        place(d, s.row ?? 0, s.col ?? 0, s.row != null ? 1 : rows, s.col != null ? 1 : cols);
        return d;
      }),
    );
  }

  /** @param {number} i @param {number} j */
  function setCursor(i, j) {
    cursor = clampTo(rows, cols, i, j);
    cursorBox.hidden = false;
    place(cursorBox, cursor.i, cursor.j, 1, 1);
    el.appendChild(cursorBox);
    describe();
  }

  /** @param {MouseEvent} ev */
  function cellAt(ev) {
    const b = canvas.getBoundingClientRect();
    const j = Math.floor(((ev.clientX - b.left) / b.width) * cols);
    const i = Math.floor(((ev.clientY - b.top) / b.height) * rows);
    return i >= 0 && i < rows && j >= 0 && j < cols ? { i, j } : null;
  }

  return {
    el, m, rows, cols, mode: 'canvas', update, setMarks, setCursor, cellAt, setFollowed() {},
    setLabels() {}, // a canvas shows no names: its cells' labels come with the next update
    focusCursor: () => canvas.focus(FOCUS_VISIBLE), // (see the cells' focusCursor)
    hideCursor() {
      cursorBox.hidden = true;
      live.textContent = '';
    },
    get cursor() { return cursor; },
    cell: () => null,
  };
}
