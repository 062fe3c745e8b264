// explorer/exports.js: the export buttons: which matrix is chosen, file names, downloads and the
// copyable text box. The files themselves come from web/explorer/export.js (pure functions of the view).

import { EXPORTABLE } from './export.js';
import { el } from '../blocks/dom.js';

/** @typedef {import('./mount.js').Lookup} Lookup */
/** @typedef {import('../../types/config').MatrixName} MatrixName */

/** @param {string} v @returns {v is MatrixName} */
const isExportable = (v) => /** @type {readonly string[]} */ (EXPORTABLE).includes(v);

/** @param {Document} doc @param {ParentNode} root @param {Lookup} $ @param {Window} win */
export function createExports(doc, root, $, win) {
  /**
   * The matrix chosen under "What" if it can be exported on its own, else null (the whole view).
   * @param {readonly string[]} shown @returns {MatrixName | null}
   */
  function what(shown) {
    const v = $('export-what').value;
    return isExportable(v) && shown.includes(v) ? v : null;
  }
  /** @param {string | null} preset @param {string | null} m */
  const fileBase = (preset, m) => (preset || 'head') + (m ? '-' + m : '');

  /** @param {string} name @param {Blob} blob */
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

  /** @param {string} text @param {string} note */
  function showText(text, note) {
    const ta = $('export-text');
    ta.hidden = false;
    ta.value = text;
    $('export-note').textContent = note;
  }

  return { what, fileBase, download, showText };
}
