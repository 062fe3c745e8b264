// explorer/inspector-view.js: the explanation panel: the explained cell's title and text (from
// explain.js) and, for an input cell, the value editor.

import { editable } from './state.js';

export const IDLE_TITLE = 'Hover, focus or tap any cell';
export const IDLE_TEXT = 'Each number says how it was computed, with the real numbers, and the cells that fed it light up. Click a token to follow its row.';

/** createInspectorView($, active): $ finds an element by id; active() is the focused element. */
export function createInspectorView($, active) {
  /** ex: explainCell's result for the explained cell (or null); sel: the selected cell if it is drawn. */
  function draw(state, ex, sel) {
    $('explain-title').textContent = ex ? ex.title : IDLE_TITLE;
    $('explanation').textContent = ex ? ex.text : IDLE_TEXT;
    const editor = $('editor');
    const canEdit = Boolean(sel && editable(state).has(sel.m));
    editor.hidden = !canEdit;
    if (canEdit) {
      const input = $('edit-value');
      if (active() !== input) input.value = String(state.config[sel.m][sel.i][sel.j]);
      input.setAttribute('aria-label', `Value of ${sel.m}[${sel.i + 1}][${sel.j + 1}]`);
    }
  }

  /** Opens the editor on the selected cell with `text` in it (a typed digit, or the value). */
  function edit(text, selectAll) {
    const input = $('edit-value');
    $('editor').hidden = false;
    input.value = text;
    input.focus();
    if (selectAll) input.select();
  }

  return { draw, edit };
}
