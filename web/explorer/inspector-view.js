// explorer/inspector-view.js: the explanation panel: the guided tour's stop (when the tour is
// on), the explained cell's title and text (explain.js), small copies of the cells that fed it
// (so nothing has to be scrolled to), and, for an input cell, the value editor. On a narrow
// screen the panel sits at the bottom of the window: keepClear() scrolls the focused cell out
// from under it (WCAG 2.4.11, focus not obscured).

import { fmt, fmtShort } from '../blocks/format.js';
import { sourceCopies } from '../blocks/explain.js';
import { scaleKind, maxAbsFinite, cellRgb, css, textOn } from '../blocks/colors.js';
import { editable, headOf, TOUR_STOPS } from './state.js';
import { el, setText, setAttr } from '../blocks/dom.js';

/** @typedef {import('./state.js').State} State */
/** @typedef {import('./mount.js').View} View */
/** @typedef {import('./mount.js').Lookup} Lookup */
/** @typedef {import('../../types/config').Cell} Cell */
/** @typedef {NonNullable<ReturnType<typeof import('../blocks/explain.js').explainCell>>} Explanation */
/** @typedef {ReturnType<typeof import('./notes.js').tourStop>} TourStop */

export const IDLE_TITLE = 'Hover, focus or tap any cell';
export const IDLE_TEXT = 'Each number says how it was computed, with the real numbers, and the cells that fed it light up. Click a token to follow its row.';

/** Whether two boxes share any area. @param {DOMRect} a @param {DOMRect} b */
const covers = (a, b) => a.width > 0 && a.height > 0 && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * createInspectorView(doc, $, active): $ finds an element by id; active() is the focused element.
 * @param {Document} doc @param {Lookup} $ @param {() => Element | null} active
 */
export function createInspectorView(doc, $, active) {
  let copiesKey = '';

  /** @param {State} state @param {View} view @param {Explanation | null} ex */
  function drawCopies(state, view, ex) {
    const box = $('sources');
    const copies = ex ? sourceCopies(view, ex.sources) : [];
    const key = JSON.stringify([state.theme, copies]);
    if (key === copiesKey) return;
    copiesKey = key;
    box.textContent = '';
    for (const c of copies) {
      const kind = scaleKind(c.m);
      const maxAbs = kind === 'diverging' ? maxAbsFinite(view.r[/** @type {import('../../types/config').MatrixName} */ (c.m)] || c.values) || 1 : 1;
      const table = box.appendChild(el(doc, 'table', 'copy'));
      table.appendChild(el(doc, 'caption', null, c.title));
      const head = table.appendChild(el(doc, 'tr'));
      const vals = table.appendChild(el(doc, 'tr'));
      c.labels.forEach((label, k) => {
        head.appendChild(el(doc, 'th', null, label)).scope = 'col';
        const rgb = cellRgb(kind, c.values[k], maxAbs, state.theme);
        const td = vals.appendChild(el(doc, 'td', null, c.m === 'M' ? fmtShort(c.values[k]) : fmt(c.values[k])));
        td.style.background = css(rgb);
        td.style.color = textOn(rgb);
      });
    }
  }

  /** @param {TourStop | null} stop */
  function drawTour(stop) {
    $('tour').hidden = !stop;
    if (!stop) return;
    setText($('tour-count'), `Stop ${stop.k + 1} of ${TOUR_STOPS}:`);
    setText($('tour-title'), stop.title);
    setText($('tour-text'), stop.text);
    $('tour-back').disabled = stop.k === 0;
    setText($('tour-next'), stop.k === TOUR_STOPS - 1 ? 'Finish' : 'Next');
  }

  /**
   * ex: explainCell's result for the explained cell (or null); sel: the selected cell if it is drawn; stop: the tour's stop or null.
   * @param {State} state @param {View} view @param {Explanation | null} ex @param {Cell | null} sel @param {TourStop | null} stop
   */
  function draw(state, view, ex, sel, stop) {
    drawTour(stop);
    $('inspector').classList.toggle('idle', !ex && !stop); // docked on a narrow screen, an idle panel is one line
    setText($('explain-title'), ex ? ex.title : IDLE_TITLE);
    setText($('explanation'), ex ? ex.text : IDLE_TEXT);
    drawCopies(state, view, ex);
    const editor = $('editor');
    const canEdit = Boolean(sel && editable(state).has(sel.m));
    editor.hidden = !canEdit;
    if (sel && canEdit) {
      const input = $('edit-value');
      if (active() !== input) input.value = String(/** @type {Record<string, number[][]>} */ (/** @type {unknown} */ (headOf(state)))[sel.m][sel.i][sel.j]);
      setAttr(input, 'aria-label', `Value of ${sel.m}[${sel.i + 1}][${sel.j + 1}]`);
    }
  }

  /**
   * Opens the editor on the selected cell with `text` in it (a typed digit, or the value).
   * @param {string} text @param {boolean} [selectAll]
   */
  function edit(text, selectAll) {
    const input = $('edit-value');
    $('inspector').classList.remove('compact'); // a floating panel showing only its title hides the editor (place)
    $('editor').hidden = false;
    input.value = text;
    input.focus();
    if (selectAll) input.select();
  }

  /**
   * When the panel covers the bottom of the window (a narrow screen) and `target` is under it,
   * scroll the page until the target sits above the panel; also when it is above the window
   * (unless `dockedOnly`: then nothing happens when the panel is beside the matrices).
   * @param {Window} win @param {Element | null} target @param {{ dockedOnly?: boolean }} [options]
   */
  function keepClear(win, target, { dockedOnly = false } = {}) {
    const panel = $('inspector');
    if (!target || !panel || panel.hidden) return;
    // A docked panel can only stick once the page has scrolled into its grid, so scrolling
    // moves it too: measure again after each scroll (twice is enough in practice).
    for (let k = 0; k < 3; k++) {
      const p = panel.getBoundingClientRect(), t = target.getBoundingClientRect();
      const style = win.getComputedStyle(panel);
      const docked = style.position === 'sticky' && style.top === 'auto' && p.top > 0 && p.top < win.innerHeight;
      if (dockedOnly && !docked) return;
      const limit = docked ? Math.min(p.top, win.innerHeight) - 8 : win.innerHeight;
      if (t.bottom > limit + 0.5) win.scrollBy(0, t.bottom - limit);
      else if (t.top < 0) win.scrollBy(0, t.top - 8);
      else return;
    }
  }

  /**
   * Floats the panel (901-1279 px) off `target`, the cell in hand; with none, only its title
   * shows. The side is chosen from where the target is, then checked: a panel that would still
   * cover the target goes to the other side, and if both cover it, shrinks to its title.
   * @param {Element | null} target @param {Element} box
   */
  function place(target, box) {
    const panel = $('inspector');
    const t = target && target.getBoundingClientRect();
    panel.classList.toggle('compact', !t);
    panel.classList.toggle('on-left', Boolean(t) && /** @type {DOMRect} */ (t).right > box.getBoundingClientRect().right - panel.offsetWidth);
    const style = doc.defaultView?.getComputedStyle(panel);
    if (!t || !style || style.top === 'auto' || !covers(panel.getBoundingClientRect(), t)) return; // docked at the bottom: keepClear scrolls instead
    panel.classList.toggle('on-left');
    if (covers(panel.getBoundingClientRect(), t)) panel.classList.add('compact');
  }

  return { draw, edit, keepClear, place };
}
