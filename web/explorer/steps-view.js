// explorer/steps-view.js: the six-step bar (back, play, forward, one button per step, All) and
// the narration of the step shown.

import { STEPS } from '../blocks/config.js';
import { narration } from '../blocks/explain.js';
import { el, setText, setAttr } from '../blocks/dom.js';

/** @typedef {import('./state.js').State} State */
/** @typedef {import('./mount.js').View} View */
/** @typedef {import('./mount.js').Lookup} Lookup */

/** @param {Document} doc @param {Lookup} $ */
export function createStepsView(doc, $) {
  const pills = $('step-pills');
  STEPS.forEach((s, k) => {
    const b = pills.appendChild(el(doc, 'button', 'pill', `${k + 1} ${s[0].toUpperCase() + s.slice(1)}`));
    b.type = 'button';
    b.dataset.step = s;
  });

  /** @param {State} state @param {View} view */
  function draw(state, view) {
    setText($('narration'), narration(view, state.step));
    for (const b of /** @type {HTMLCollectionOf<HTMLElement>} */ (pills.children)) setAttr(b, 'aria-pressed', String(b.dataset.step === state.step));
    setAttr($('all'), 'aria-pressed', String(state.step == null));
    // With reduced motion nothing moves by itself: the play button steps once per press.
    const play = $('play');
    const label = state.reducedMotion ? 'Next step' : state.playing ? 'Pause' : 'Play';
    setText(play, state.reducedMotion ? '▶ Next step' : state.playing ? '❚❚ Pause' : '▶ Play');
    setAttr(play, 'aria-label', label);
    play.title = state.reducedMotion ? 'One step forward (reduced motion: play does not run by itself)' : 'Play or pause (space)';
  }

  return { draw };
}
