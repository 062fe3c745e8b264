// explorer/steps-view.js: the six-step bar (back, play, forward, one button per step, All) and
// the narration of the step shown.

import { STEPS } from '../config.js';
import { narration } from '../explain.js';
import { el } from './dom.js';

export function createStepsView(doc, $) {
  const pills = $('step-pills');
  STEPS.forEach((s, k) => {
    const b = pills.appendChild(el(doc, 'button', 'pill', `${k + 1} ${s[0].toUpperCase() + s.slice(1)}`));
    b.type = 'button';
    b.dataset.step = s;
  });

  function draw(state, view) {
    $('narration').textContent = narration(view, state.step);
    for (const b of pills.children) b.setAttribute('aria-pressed', String(b.dataset.step === state.step));
    $('all').setAttribute('aria-pressed', String(state.step == null));
    const play = $('play');
    play.textContent = state.playing ? '❚❚ Pause' : '▶ Play';
    play.setAttribute('aria-label', state.playing ? 'Pause' : 'Play');
  }

  return { draw };
}
