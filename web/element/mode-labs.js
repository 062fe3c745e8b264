// element-mode-labs.js: the labs (web/labs/) as modes of the <attention-explorer> element,
// mode="sqrt-dk-lab" and the others of web/labs/catalog.js (web/element/modes.js loads this module
// the first time an element shows a lab). The labs need only the forward core.

import { sharedCore } from '../explorer/index.js';
import { CATALOG } from '../labs/catalog.js';
import { mountLabRecord, queryOf } from '../labs/mount.js';
import { LABS_CSS } from '../gen/labs-css.js';
import { paramsOf, stateEmitter } from './modes.js';

/** @typedef {import('./attention-explorer.js').Mount} Mount */

/** The mode { css, mount } of lab `mode`. @param {string} mode */
export function labMode(mode) {
  return { css: LABS_CSS, mount: mountOf(mode) };
}

/** Lab `mode` of the catalog. @param {string} mode */
function entryOf(mode) {
  const entry = CATALOG.find((e) => e.mode === mode);
  if (!entry) throw new Error(`unknown lab "${mode}": the labs are ${CATALOG.map((e) => e.mode).join(', ')}`);
  return entry;
}

/** @param {string} mode @returns {Mount} */
function mountOf(mode) {
  return function mount(container, element, { doc, params, emit }) {
    /** @type {import('../labs/mount.js').LabApi | null} */
    let lab = null;
    let gone = false;
    let now = params || '';
    const changed = stateEmitter(mode, emit, null);
    const api = {
      // the lab's own modules load beside the core (web/labs/catalog.js; modes.js has a mode for each lab of it)
      ready: Promise.all([sharedCore({ core: entryOf(mode).core }), entryOf(mode).load()]).then(([attn, record]) => {
        if (gone) return;
        lab = mountLabRecord(record, container, {
          attn, doc, params: new URLSearchParams(params || ''),
          onState: (/** @type {Record<string, unknown>} */ s) => changed((now = paramsOf(queryOf(s)))),
        });
        now = paramsOf(queryOf(record.state.writeState(lab.state)));
        changed(now);
      }),
      params: () => now,
      redraw: () => lab && lab.redraw(),
      destroy() {
        gone = true;
        if (lab) lab.destroy();
      },
    };
    return api;
  };
}
