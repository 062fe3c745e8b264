// @ts-check
// induction/events.js: the induction panel's wiring. Turns the learner's clicks and choices into
// the actions of web/induction/state.js and posts the engine request each returns; nothing here
// draws (panel.js schedules the one redraw).

import { LR_CHOICES, HEAD_CHOICES, headsLabel } from './words.js';
import * as S from './state.js';
import { copyLinkTo } from '../blocks/copy-link.js';

/**
 * @typedef {{ st: S.PanelState, doc: Document, win: Window & typeof globalThis, $: import('./types').Lookup,
 *   last: () => import('./types').InductionUpdate | null, send: (msg: import('./types').EngineRequest | null) => void,
 *   schedule: () => void, writeUrl: () => void, split: ReturnType<typeof import('./split-view.js').createSplitView> }} EventsCtx
 */

/** @param {HTMLSelectElement} sel @param {string} value @param {string} text */
function addOption(sel, value, text) {
  const o = sel.appendChild(/** @type {Document} */ (sel.ownerDocument).createElement('option'));
  o.value = value;
  o.textContent = text;
}

/** Copies the link to this step, and says so on the button for two seconds. @param {EventsCtx} ctx */
function copyLink({ win, $, writeUrl }) {
  return copyLinkTo(win, $('ind-link'), writeUrl, 'Copy link to this step');
}

/** The split's cells: hovering or focusing one explains its arithmetic. @param {EventsCtx} ctx */
function wireSplit({ $, split, schedule }) {
  const box = $('ind-split');
  const pick = (/** @type {import('../blocks/heatmap.js').Cursor | null} */ c) => split.pick(c) && schedule();
  box.addEventListener('pointermove', (ev) => pick(split.cellAt(ev)));
  box.addEventListener('focusin', (ev) => {
    const tg = /** @type {HTMLElement} */ (ev.target); // focus goes to elements
    if (tg.classList && tg.classList.contains('cell')) pick({ i: Number(tg.dataset.row), j: Number(tg.dataset.col) });
  });
}

/**
 * Fills the menus and listens to every control of the panel.
 * @param {EventsCtx} ctx
 */
export function wireEvents(ctx) {
  const { st, $, send, schedule, last } = ctx;
  for (const lr of LR_CHOICES) addOption($('ind-lr'), String(lr), String(lr));
  for (const h of HEAD_CHOICES) addOption($('ind-heads'), String(h), headsLabel(h));
  const on = (/** @type {string} */ id, /** @type {string} */ type, /** @type {(ev: Event) => void} */ fn) => $(id).addEventListener(type, fn);
  on('ind-run', 'click', () => {
    send(st.playing ? S.pause(st) : S.play(st));
    schedule();
  });
  on('ind-step', 'click', () => send({ type: 'step', k: 1 }));
  on('ind-reset', 'click', () => send({ type: 'reset' }));
  on('ind-reroll', 'click', () => send(S.reroll(st)));
  on('ind-lr', 'change', () => send(S.setLr(st, Number($('ind-lr').value))));
  on('ind-heads', 'change', () => send(S.setHeads(st, Number($('ind-heads').value))));
  on('ind-control', 'change', () => send(S.setControl(st, $('ind-control').checked)));
  on('ind-example', 'click', () => send(S.nextExample(st)));
  on('ind-query', 'change', () => {
    st.query = Number($('ind-query').value);
    schedule();
  });
  on('ind-grid', 'click', (ev) => {
    const t = /** @type {Element} */ (ev.target); // a click's target is an element
    const b = /** @type {HTMLButtonElement | null} */ (t.closest && t.closest('button[data-action]'));
    if (!b) return;
    const h = Number(/** @type {HTMLElement} */ (b.closest('.ind-head')).dataset.head); // the buttons are in the cards
    send(b.dataset.action === 'open' ? S.toggleOpen(st, h) : S.toggleAblate(st, h));
  });
  on('ind-ablate-circuit', 'click', () => send(S.toggleCircuit(st, last())));
  on('ind-link', 'click', () => copyLink(ctx));
  wireSplit(ctx);
}
