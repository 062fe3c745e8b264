// @ts-nocheck: not typed yet (issue 12, point 3); remove this line once tsc passes on this file
// explorer/exports.js: the export buttons: which matrix is chosen, file names, downloads and the
// copyable text box. The files themselves come from web/export.js (pure functions of the view).

import { EXPORTABLE } from '../export.js';
import { el } from './dom.js';

export function createExports(doc, root, $, win) {
  /** The matrix chosen under "What" if it can be exported on its own, else null (the whole view). */
  function what(shown) {
    const v = $('export-what').value;
    return EXPORTABLE.includes(v) && shown.includes(v) ? v : null;
  }
  const fileBase = (preset, m) => (preset || 'head') + (m ? '-' + m : '');

  function download(name, blob) {
    const a = el(doc, 'a');
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

  return { what, fileBase, download, showText };
}
