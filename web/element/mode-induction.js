// element-mode-induction.js: "Watch an induction head form" (web/induction/panel.js) as
// mode="induction" of the <attention-explorer> element (web/element/modes.js loads this module the
// first time an element shows it). It needs the full core, the only one with the induction models.

import { mountExplorer } from '../explorer/index.js';
import { INDUCTION_CSS } from '../gen/induction-css.js';
import { readInductionUrl } from '../induction/words.js';
import { mountInductionPanel } from '../induction/panel.js';
import { paramsOf, stateEmitter, panelModeMethods, panelLayout } from './modes.js';

/** @typedef {import('./attention-explorer.js').Mount} Mount */

/** mode="induction": the induction panel (trained in a Web Worker) above an explorer that opens its heads. @type {Mount} */
function mountInduction(container, element, { doc, params, emit }) {
  const initial = readInductionUrl('?' + (params || ''), '');
  const { section, box } = panelLayout(container, doc, 'induction', 'Watch an induction head form');
  /** @type {ReturnType<typeof mountInductionPanel> | null} */
  let panel = null;
  let gone = false;
  let now = params || '';
  const changed = stateEmitter('induction', emit, null);
  const explorer = mountExplorer(/** @type {ShadowRoot} */ (container.getRootNode()), { // the element's shadow root
    doc, container: box, host: element, url: false, scroll: false,
    controls: ['theme', 'steps', 'follow', 'explain', 'export'],
    initial: { theme: /** @type {import('../../types/element').ThemeSetting} */ (element.getAttribute('theme') || 'auto') }, // any other text is auto (startTheme)
    emit: (/** @type {string} */ type, /** @type {unknown} */ detail) => {
      if (type !== 'ready') emit(type, detail); // the mode is ready once the panel is drawn
    },
  });
  const api = {
    explorer,
    get panel() { return panel; },
    ready: (async () => {
      await explorer.ready;
      if (gone) return;
      panel = mountInductionPanel(section, { doc, explorer, initial, onUrl: (/** @type {string} */ q) => changed((now = paramsOf(q))) });
      const link = /** @type {HTMLElement | null} */ (section.querySelector('#ind-link'));
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
