// @ts-check
// train/readout-view.js: the read-out Wout as a heatmap (the explorer's renderer and formatter),
// its legend and the explanation of the cell under the pointer or the keyboard cursor. It owns
// the heatmap (rebuilt when the task changes its shape); which cell is explained is the
// wiring's (web/train/panel.js).
import { createHeatmap } from '../blocks/heatmap.js';
import { legendGradient, maxAbsFinite } from '../blocks/colors.js';
import { fmt, fmtShort } from '../blocks/format.js';
import { readoutLabel } from './words.js';

/**
 * @param {{ box: HTMLElement, shape: HTMLElement, about: HTMLElement, legend: HTMLElement, title: HTMLElement, explain: HTMLElement }} parts
 */
export function createReadoutView(parts) {
  const doc = parts.box.ownerDocument;
  /** @type {any} */
  let hm = null;
  let key = '';
  /** @type {(key: 'hover' | 'focus', c: { i: number, j: number } | null) => void} */
  let report = () => {};

  /**
   * A new heatmap when the shape or the words changed; returns true when it was rebuilt.
   * @param {any} info readoutInfo() @param {string[]} vocab
   */
  function build(info, vocab) {
    const k = `${info.rows}×${info.cols}\n${vocab.join('\n')}`;
    if (hm && k === key) return false;
    parts.box.textContent = '';
    hm = createHeatmap(doc, { m: 'Wout', rows: info.rows, cols: info.cols, rowLabels: info.rowLabels, colLabels: info.colLabels, caption: info.caption, mode: 'cells' });
    hm.label = readoutLabel(info.rows, vocab);
    key = k;
    parts.box.appendChild(hm.el);
    parts.shape.textContent = info.shape;
    parts.about.textContent = info.about;
    return true;
  }

  /** @param {number} maxAbs @param {import('../blocks/colors.js').Theme} theme */
  function legend(maxAbs, theme) {
    const L = parts.legend;
    L.textContent = '';
    /** @param {string} cls @param {string} text */
    const span = (cls, text) => Object.assign(L.appendChild(doc.createElement('span')), { className: cls, textContent: text });
    span('lo', fmtShort(-maxAbs));
    span('bar', '').style.background = legendGradient('diverging', theme);
    span('hi', fmtShort(maxAbs));
    span('mid', 'centre 0');
  }

  return {
    build,
    /**
     * @param {{ Wout: Float32Array, info: any }} readout @param {string[]} vocab @param {import('../blocks/colors.js').Theme} theme
     * @param {{ i: number, j: number } | null} cursor the cell to explain
     * @param {(i: number, j: number) => { title: string, text: string }} explain
     */
    draw(readout, vocab, theme, cursor, explain) {
      if (build(readout.info, vocab) && cursor) {
        cursor = null; // a new shape (another task): the old cell may not exist
        report('hover', null);
        report('focus', null);
      }
      const maxAbs = maxAbsFinite(readout.Wout) || 1;
      hm.update(readout.Wout, { kind: 'diverging', maxAbs, theme, format: fmt, label: hm.label });
      legend(maxAbs, theme);
      hm.setMarks('cur', cursor ? [{ row: cursor.i, col: cursor.j }] : []);
      const e = cursor ? explain(cursor.i, cursor.j) : { title: '', text: 'Hover or focus a cell of Wout (arrow keys move) to see what it does and, after a step, its gradient and the step the optimizer took.' };
      parts.title.textContent = e.title;
      parts.title.hidden = !e.title;
      parts.explain.textContent = e.text;
    },
    /**
     * Reports the cell under the pointer (key 'hover') and the one the keyboard or a click
     * chose (key 'focus') to onCursor(key, { i, j } | null). Arrows, Home and End move the
     * keyboard cursor inside Wout and no further (the explorer's arrows step its own steps).
     * @param {(key: 'hover' | 'focus', c: { i: number, j: number } | null) => void} onCursor
     */
    listen(onCursor) {
      report = onCursor;
      const box = parts.box;
      box.addEventListener('pointermove', (ev) => {
        if (/** @type {PointerEvent} */ (ev).pointerType !== 'touch' && hm) onCursor('hover', hm.cellAt(ev));
      });
      box.addEventListener('pointerleave', () => onCursor('hover', null));
      box.addEventListener('click', (ev) => {
        const c = hm && hm.cellAt(ev);
        if (c) hm.setCursor(c.i, c.j), onCursor('focus', c);
      });
      box.addEventListener('focusin', (ev) => {
        const t = /** @type {HTMLElement} */ (ev.target);
        if (!hm || !t.classList.contains('cell')) return;
        const c = { i: +(t.dataset.row ?? 0), j: +(t.dataset.col ?? 0) };
        hm.setCursor(c.i, c.j);
        onCursor('focus', c);
      });
      box.addEventListener('keydown', (ev) => {
        /** @type {Record<string, number[]>} */
        const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1], Home: [0, -1e9], End: [0, 1e9] };
        const t = /** @type {HTMLElement} */ (ev.target);
        if (!hm || !moves[ev.key] || !t.classList.contains('cell')) return;
        ev.preventDefault();
        ev.stopPropagation();
        const { i, j } = hm.cursor;
        hm.setCursor(i + moves[ev.key][0], j + moves[ev.key][1]);
        hm.focusCursor(); // focusin reports it
      });
    },
  };
}
