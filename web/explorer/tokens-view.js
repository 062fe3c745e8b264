// explorer/tokens-view.js: the token chips ("Follow a token"), the follow sentence, the token
// and feature editors (rename, add, remove) and the widths dk and dv. Rebuilt only when the number of tokens changes (new names of
// the same count rename them in place), and never while the learner is typing in one of its fields.

import { followSentence } from '../blocks/explain.js';
import { MAX_NAME } from '../blocks/config.js';
import { isDirect } from '../blocks/config.js';
import { MANY, LIM, headOf, shapeOf } from './state.js';
import { widthNote } from './notes.js';
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

  /**
   * A list of names with a field and a remove button each: the tokens (data-token, data-remove)
   * or the features (data-feature, data-remove-feature).
   * @param {HTMLElement} list @param {readonly string[]} given @param {'token' | 'feature'} kind
   */
  function names(list, given, kind) {
    const focused = active();
    if (focused && list.contains(focused)) return false; // don't pull the field from under the typist
    const field = kind, remove = kind === 'token' ? 'remove' : 'removeFeature';
    const inputs = /** @type {NodeListOf<HTMLInputElement>} */ (list.querySelectorAll(`input[data-${field}]`));
    if (given.length <= MANY && inputs.length === given.length) {
      given.forEach((t, i) => { if (inputs[i].value !== t) inputs[i].value = t; });
      return true;
    }
    list.textContent = '';
    if (given.length > MANY) {
      list.appendChild(el(doc, 'li', 'note', `${given.length} ${kind}s: rename them in the config JSON.`));
      return true;
    }
    const Kind = kind[0].toUpperCase() + kind.slice(1);
    given.forEach((t, i) => {
      const li = list.appendChild(el(doc, 'li'));
      const input = li.appendChild(el(doc, 'input'));
      input.value = t;
      input.maxLength = MAX_NAME;
      input.dataset[field] = String(i);
      input.setAttribute('aria-label', `${Kind} ${i + 1}`);
      const rm = li.appendChild(el(doc, 'button', 'remove', '×'));
      rm.type = 'button';
      rm.dataset[remove] = String(i);
      rm.setAttribute('aria-label', `Remove ${kind} ${i + 1}`);
      rm.disabled = given.length === 1;
    });
    return true;
  }

  /**
   * The features (the projection form only: a head of Q, K and V has no X) and the widths dk and
   * dv, with a note that says what a new column does.
   * @param {State} state
   */
  function shape(state) {
    const c = headOf(state);
    const direct = isDirect(c);
    $('feature-editor').hidden = direct;
    if (!direct) names($('feature-list'), c.features, 'feature');
    const { dk, dv } = shapeOf(c);
    for (const [id, w] of /** @type {const} */ ([['width-dk', dk], ['width-dv', dv]])) {
      const input = /** @type {HTMLInputElement} */ ($(id));
      input.max = String(LIM.maxWidth);
      if (active() !== input && input.value !== String(w)) input.value = String(w);
    }
    setText($('width-note'), widthNote(c));
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
      names($('token-list'), tokens, 'token');
    }
    shape(state);
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
