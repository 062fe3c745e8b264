// explorer/lead-view.js: the lead at the top of the explorer, what a newcomer reads first: the key
// idea in the widget page's words, this head's example of it (whom the followed token, else the
// last one, listens to most, with the core's weight), and one first thing to press: the tour
// where the head has one, else the six steps from the first. The preset's note and the formula,
// for those who want them, are folded under one summary that says what they hold.

import { KEY_IDEA, leadSentence } from '../blocks/explain.js';
import { setText } from '../blocks/dom.js';
import { can, tourAvailable } from './state.js';

/** @typedef {import('./state.js').State} State */
/** @typedef {import('./mount.js').View} View */
/** @typedef {import('./mount.js').Lookup} Lookup */

/**
 * The token the lead speaks of: the one followed, else the last (the widget page follows the
 * last “the”). @param {State} state @param {View} view
 */
export const leadToken = (state, view) => (state.follow != null && state.follow < view.r.n ? state.follow : view.r.n - 1);

/**
 * What the folded note on the head (#about-head) holds, said on its summary: a preset's note, or
 * what changed in it and how to go back, or the learner's own head.
 * @param {State} state
 */
export const aboutSummary = (state) =>
  state.preset ? 'About this preset' : state.origin ? 'Changed: how to go back' : 'About your own head';

/** @param {Lookup} $ */
export function createLeadView($) {
  setText($('lead-idea'), KEY_IDEA);
  /** @param {State} state @param {View} view */
  function draw(state, view) {
    setText($('lead-example'), leadSentence(view, leadToken(state, view)));
    $('lead-step').hidden = !can(state, 'steps') || tourAvailable(state);
    setText($('about-summary'), aboutSummary(state));
  }
  return { draw };
}
