// explorer/leak-view.js: the leak check's report under the matrices: one sentence (notes.js
// leakReport) and a row-by-row table of how much each row of O moved since the check began.

import { fmt } from '../blocks/format.js';
import { el, setText } from '../blocks/dom.js';

/** @typedef {import('./mount.js').Lookup} Lookup */

/** @param {Document} doc @param {Lookup} $ */
export function createLeakView(doc, $) {
  let drawn = '';
  /**
   * report: leakReport's result, or null when the check is off.
   * @param {import('./notes.js').LeakReport | null} report @param {readonly string[]} tokens
   */
  function draw(report, tokens) {
    $('leak').hidden = !report;
    const key = JSON.stringify(report && [report, tokens]);
    if (!report || key === drawn) return;
    drawn = key;
    setText($('leak-text'), report.text);
    const body = $('leak-rows');
    body.textContent = '';
    for (const x of report.rows) {
      const tr = body.appendChild(el(doc, 'tr', x.same ? 'same' : 'changed'));
      tr.appendChild(el(doc, 'th', null, `${x.i + 1} “${tokens[x.i]}”`)).scope = 'row';
      tr.appendChild(el(doc, 'td', null, x.same ? '0 (exactly)' : x.diff < 0.0005 ? `less than 0.001 (${x.diff.toExponential(1).replace('-', '\u2212')})` : fmt(x.diff)));
      tr.appendChild(el(doc, 'td', null, x.same ? 'unchanged' : 'changed'));
    }
  }
  return { draw };
}
