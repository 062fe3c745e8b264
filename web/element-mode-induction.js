// @ts-nocheck: not typed yet (issue 12, point 3); remove this line once tsc passes on this file
// element-mode-induction.js: "Watch an induction head form" (web/induction-panel.js) as
// mode="induction" of the <attention-explorer> element (web/element-modes.js loads this module the
// first time an element shows it). It needs the full core, the only one with the induction models.

import { mountExplorer } from './explorer.js';
import { INDUCTION_CSS } from './gen/induction-css.js';
import { readInductionUrl } from './induction.js';
import { mountInductionPanel } from './induction-panel.js';
import { paramsOf, stateEmitter, panelModeMethods } from './element-modes.js';

/** mode="induction": the induction panel (trained in a Web Worker) above an explorer that opens its heads. */
function mountInduction(container, element, { doc, params, emit }) {
  const initial = readInductionUrl('?' + (params || ''), '');
  const section = container.appendChild(doc.createElement('section'));
  section.className = 'induction';
  section.setAttribute('aria-label', 'Watch an induction head form');
  const box = container.appendChild(doc.createElement('div'));
  let panel = null, gone = false;
  let now = params || '';
  const changed = stateEmitter('induction', emit, null);
  const explorer = mountExplorer(container.getRootNode(), {
    doc, container: box, host: element, url: false, scroll: false,
    controls: ['theme', 'steps', 'follow', 'explain', 'export'],
    initial: { theme: element.getAttribute('theme') || 'auto' },
    emit: (type, detail) => {
      if (type !== 'ready') emit(type, detail); // the mode is ready once the panel is drawn
    },
  });
  const api = {
    explorer,
    get panel() { return panel; },
    ready: (async () => {
      await explorer.ready;
      if (gone) return;
      panel = mountInductionPanel(section, { doc, explorer, initial, onUrl: (q) => changed((now = paramsOf(q))) });
      const link = section.querySelector('#ind-link');
      if (link) link.hidden = true; // no address bar: the state comes out as the explorer-state event
      await panel.whenIdle();
      panel.flush();
    })(),
    params: () => now,
    ...panelModeMethods(explorer, () => panel, () => (gone = true)),
  };
  return api;
}

/** The mode { css, mount }. */
export const INDUCTION_MODE = { css: INDUCTION_CSS, mount: mountInduction };
