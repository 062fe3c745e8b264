// explorer/tokens-view.js: the token chips ("Follow a token"), the follow sentence and the token
// editor (rename, add, remove). Rebuilt only when the number of tokens changes (new names of
// the same count rename them in place), and never while the learner is typing in one of its fields.

import { followSentence } from '../blocks/explain.js';
import { MAX_NAME } from '../blocks/config.js';
import { MANY, headOf } from './state.js';
import { el, setText, setAttr } from '../blocks/dom.js';

/** @typedef {import('./state.js').State} State */
/** @typedef {import('./mount.js').View} View */
/** @typedef {import('./mount.js').Lookup} Lookup */

/** @param {Document} doc @param {Lookup} $ @param {() => Element | null} active */
export function createTokensView(doc, $, active) {
  let drawn = ''; // the token names the chips and editor show

  /** @param {readonly string[]} tokens */
  function chips(tokens) {
    const box = $('tokens');
    const now = /** @type {HTMLCollectionOf<HTMLElement>} */ (box.children);
    if (tokens.length <= MANY && now.length === tokens.length && tokens.every((_, i) => now[i].dataset.follow === String(i))) {
      tokens.forEach((t, i) => setText(now[i], t)); // the same chips, renamed (focus stays where it is)
      return;
    }
    box.textContent = '';
    if (tokens.length <= MANY) {
      tokens.forEach((t, i) => {
        const b = box.appendChild(el(doc, 'button', 'chip-token', t));
        b.type = 'button';
        b.dataset.follow = String(i);
        b.title = `Follow token ${i + 1}`;
        b.tabIndex = i === 0 ? 0 : -1;
      });
      return;
    }
    const label = box.appendChild(el(doc, 'label', null, `token number (1–${tokens.length}) `));
    const input = label.appendChild(el(doc, 'input'));
    input.type = 'number';
    input.min = '1';
    input.max = String(tokens.length);
    input.id = 'follow-number';
  }

  /** @param {readonly string[]} tokens */
  function editor(tokens) {
    const list = $('token-list');
    const focused = active();
    if (focused && list.contains(focused)) return false; // don't pull the field from under the typist
    const inputs = /** @type {NodeListOf<HTMLInputElement>} */ (list.querySelectorAll('input[data-token]'));
    if (tokens.length <= MANY && inputs.length === tokens.length) {
      tokens.forEach((t, i) => { if (inputs[i].value !== t) inputs[i].value = t; });
      return true;
    }
    list.textContent = '';
    if (tokens.length > MANY) {
      list.appendChild(el(doc, 'li', 'note', `${tokens.length} tokens: rename them in the config JSON.`));
      return true;
    }
    tokens.forEach((t, i) => {
      const li = list.appendChild(el(doc, 'li'));
      const input = li.appendChild(el(doc, 'input'));
      input.value = t;
      input.maxLength = MAX_NAME;
      input.dataset.token = String(i);
      input.setAttribute('aria-label', `Token ${i + 1}`);
      const rm = li.appendChild(el(doc, 'button', 'remove', '×'));
      rm.type = 'button';
      rm.dataset.remove = String(i);
      rm.setAttribute('aria-label', `Remove token ${i + 1}`);
      rm.disabled = tokens.length === 1;
    });
    return true;
  }

  /**
   * force: redraw the chips and editor even if the names are the same.
   * @param {State} state @param {View} view @param {{ force?: boolean }} [options]
   */
  function draw(state, view, { force = false } = {}) {
    const tokens = headOf(state).tokens;
    const key = JSON.stringify(tokens);
    if (force || key !== drawn) {
      drawn = key;
      chips(tokens);
      editor(tokens);
    }
    const follow = state.follow;
    setText($('follow-text'), follow != null ? followSentence(view, follow) : '');
    // A toolbar: one chip is in the Tab order (the followed one, else the first); arrows move on.
    const chipsNow = [.../** @type {NodeListOf<HTMLElement>} */ ($('tokens').querySelectorAll('[data-follow]'))];
    const inChips = chipsNow.includes(/** @type {HTMLElement} */ (active()));
    for (const b of chipsNow) {
      setAttr(b, 'aria-pressed', String(Number(b.dataset.follow) === follow));
      if (!inChips && follow != null) b.tabIndex = Number(b.dataset.follow) === follow ? 0 : -1;
    }
  }

  return { draw };
}
