// @ts-check
// train/markup.js: the training panel's constant markup. No user text ever goes through
// innerHTML: every word that depends on the state is set with textContent by the views.

export const MARKUP = `
<h2 class="train-title">Watch a head learn</h2>
<p class="note">Wq, Wk and Wv below start random. At every step the optimizer changes them a little, guided by
  the gradient of the loss (how surprised the model is by the right answers of the task) on one batch: plain
  gradient descent steps straight downhill; Adam, the default, scales each weight’s step by its history, so a
  single step can go uphill on that batch, while the loss falls over many. Press Train and
  watch the pattern appear in A; pause at any step and hover any cell.</p>
<div class="train-grid">
  <div class="train-controls">
    <label>Task <select id="train-task"></select></label>
    <p id="train-goal" class="train-goal"></p>
    <div class="train-buttons" role="group" aria-label="Training">
      <button type="button" id="train-run" aria-pressed="false">▶ Train</button>
      <button type="button" id="train-step">Single step</button>
      <button type="button" id="train-reset" title="Back to step 0: the same initial weights and the same training sequences">Reset</button>
      <button type="button" id="train-reroll" title="Different random initial weights (a new seed)">New random weights</button>
    </div>
    <div class="train-settings">
      <label>Learning rate <select id="train-lr"></select></label>
      <label>Speed <select id="train-speed"></select></label>
      <label>Optimizer <select id="train-opt"></select></label>
    </div>
    <div class="train-buttons">
      <button type="button" id="train-example" title="Show the head on another sequence of the task">Another sentence</button>
      <button type="button" id="train-link">Copy link to this step</button>
    </div>
    <p id="train-seed" class="note"></p>
  </div>
  <div class="train-status">
    <p class="train-count"><span id="train-steps">Step 0</span> <span id="train-loss" class="train-loss"></span></p>
    <p id="train-replay" class="train-replay" hidden><label for="train-replay-bar">Replaying the link</label>
      <progress id="train-replay-bar" max="1" value="0"></progress> <span id="train-replay-text"></span></p>
    <svg id="train-curve" class="train-curve" role="img" aria-labelledby="train-curve-title train-curve-cap"><title id="train-curve-title">Loss curve</title></svg>
    <p id="train-curve-cap" class="note"></p>
  </div>
  <figure class="train-mini">
    <svg id="train-a" class="train-a" role="img" aria-labelledby="train-a-cap"></svg>
    <figcaption id="train-a-cap" class="note">A for the sentence below: each row is a token’s attention. Outlined: where it should go.</figcaption>
  </figure>
</div>
<p id="train-narration" class="train-says" aria-hidden="true"></p>
<p id="train-says" class="train-sr" aria-live="polite"></p>
<div class="train-readout">
  <figure class="train-wout">
    <figcaption><span class="pname">Wout</span><span id="train-wout-shape" class="shape"></span><span id="train-wout-about" class="about"></span></figcaption>
    <div id="train-wout" class="scroller"></div>
    <div id="train-wout-legend" class="legend"></div>
    <p id="train-wout-title" class="explain-title"></p>
    <p id="train-wout-explain" class="train-explain note"></p>
  </figure>
  <figure class="train-pred">
    <figcaption id="train-pred-cap" class="note"></figcaption>
    <ol id="train-pred" class="train-probs"></ol>
  </figure>
</div>
<div id="train-error" class="error" role="alert" hidden></div>`;
