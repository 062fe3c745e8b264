// @ts-nocheck: not typed yet (issue 12, point 3); remove this line once tsc passes on this file
// explorer/steps-view.js: the six-step bar (back, play, forward, one button per step, All) and
// the narration of the step shown.

import { STEPS } from '../config.js';
import { narration } from '../explain.js';
import { el, setText, setAttr } from './dom.js';

export function createStepsView(doc, $) {
  const pills = $('step-pills');
  STEPS.forEach((s, k) => {
    const b = pills.appendChild(el(doc, 'button', 'pill', `${k + 1} ${s[0].toUpperCase() + s.slice(1)}`));
    b.type = 'button';
    b.dataset.step = s;
  });

  function draw(state, view) {
    setText($('narration'), narration(view, state.step));
    for (const b of pills.children) setAttr(b, 'aria-pressed', String(b.dataset.step === state.step));
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
