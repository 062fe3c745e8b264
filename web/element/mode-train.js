// element-mode-train.js: "Watch a head learn" (web/train/panel.js) as mode="train" of the
// <attention-explorer> element (web/element/modes.js loads this module the first time an element
// shows it). The panel and the explorer under it share the trainer core, as on the training page.

import { mountExplorer, sharedCore } from '../explorer/index.js';
import { mountTrainPanel, EXPLORER_CONTROLS } from '../train/panel.js';
import { readTrainUrl } from '../train/words.js';
import { TRAIN_CSS } from '../gen/train-css.js';
import { paramsOf, stateEmitter, panelModeMethods, panelLayout } from './modes.js';
import { ignoredAttributes, ignoredText } from '../explorer/state.js';
import { STEPS } from '../blocks/config.js';

/** @typedef {import('./attention-explorer.js').Mount} Mount */

/** mode="train": the training panel above an explorer that shows the head being trained. @type {Mount} */
function mountTrain(container, element, { doc, params, emit }) {
  const initial = readTrainUrl('?' + (params || ''), '');
  // The element's step and follow attributes win over params' (docs/embedding.md); one it
  // cannot use is left out and said, in the explorer mode's words, once the trained head is shown.
  const stepAttr = () => /** @type {import('../../types/config').Step | null} */ (element.getAttribute('step'));
  if (STEPS.includes(/** @type {import('../../types/config').Step} */ (stepAttr()))) initial.step = stepAttr();
  const { section, box } = panelLayout(container, doc, 'train', 'Watch a head learn');
  /** @type {ReturnType<typeof mountTrainPanel> | null} */
  let panel = null;
  let gone = false;
  let now = params || '';
  const changed = stateEmitter('train', emit, null);
  const core = sharedCore({ core: 'trainer' }); // the panel trains a head, and needs no induction model
  const explorer = mountExplorer(/** @type {ShadowRoot} */ (container.getRootNode()), { // the element's shadow root
    doc, container: box, host: element, url: false, scroll: false, core,
    controls: EXPLORER_CONTROLS,
    initial: { step: initial.step, follow: initial.follow, theme: /** @type {import('../../types/element').ThemeSetting} */ (element.getAttribute('theme') || 'auto') }, // any other text is auto (startTheme)
    emit: (/** @type {string} */ type, /** @type {unknown} */ detail) => {
      if (type === 'ready') return; // the mode is ready once the panel is drawn
      if ((type === 'step' || type === 'select') && panel) {
        panel.touched(); // while training, the explorer catches up with the newest head
        panel.writeUrl();
      }
      emit(type, detail);
    },
  });
  const api = {
    explorer,
    get panel() { return panel; },
    ready: (async () => {
      await explorer.ready;
      const attn = await core;
      if (gone) return;
      panel = mountTrainPanel(section, { doc, attn, explorer, initial, watch: box, onUrl: (/** @type {string} */ q) => changed((now = paramsOf(q))) });
      // The element has no address bar to copy: its state comes out as the explorer-state event.
      const link = /** @type {HTMLElement | null} */ (section.querySelector('#train-link'));
      if (link) link.hidden = true;
      // (read again: a change while the code loaded counts, see attention-explorer.js #modeAttribute)
      const n = explorer.state.config?.tokens.length ?? 0;
      const ignored = ignoredAttributes({ step: element.getAttribute('step'), follow: element.getAttribute('follow') }, n);
      if (STEPS.includes(/** @type {import('../../types/config').Step} */ (stepAttr())) && stepAttr() !== explorer.state.step) explorer.setStep(stepAttr());
      const follow = element.getAttribute('follow')?.trim(); // (the element trims a follow)
      if (follow && !ignored.some((x) => x.name === 'follow')) initial.follow = Number(follow);
      if (initial.follow != null) explorer.setFollow(initial.follow);
      if (initial.cell) explorer.select(initial.cell);
      // (the explorer says it and fires explorer-error; the element's ready rejects with it; after
      // the follow and the cell, which would clear it as the learner's own choice does)
      if (ignored.length) explorer.showError(ignoredText(ignored, { attribute: true }));
      await panel.ready;
      if (gone) return;
      panel.flush();
    })(),
    params: () => now,
    ...panelModeMethods(explorer, () => panel, () => (gone = true)),
  };
  return api;
}

/** The mode { css, mount }. */
export const TRAIN_MODE = { css: TRAIN_CSS, mount: mountTrain };
