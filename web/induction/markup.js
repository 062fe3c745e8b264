// @ts-check
// induction/markup.js: the induction panel's constant markup (no user text ever goes through
// innerHTML: web/induction/panel.js fills every element with textContent).

export const MARKUP = `
<h2 class="ind-title">Watch an induction head form</h2>
<p class="note">A model with two layers of attention heads learns to predict the next word of sequences like
  <q>BOS K F Q K F Q K F…</q>: some random words, then the same words again. The first time through, the next word is mostly
  unknown. After that it can be known, if one head looks at the previous token and a head in layer 2 uses that to find where
  the current word appeared before and copy the word that came next: an <em>induction head</em>. Press Train and watch
  the repeated part’s loss drop when they start working together.</p>
<div class="ind-controls">
  <div class="ind-buttons" role="group" aria-label="Training">
    <button type="button" id="ind-run" aria-pressed="false">▶ Train</button>
    <button type="button" id="ind-step">Single step</button>
    <button type="button" id="ind-reset" title="Back to step 0: the same initial weights and the same training sequences">Reset</button>
    <button type="button" id="ind-reroll" title="Different random initial weights and sequences (a new seed)">New random weights</button>
  </div>
  <div class="ind-buttons">
    <label>Learning rate <select id="ind-lr"></select></label>
    <label>Model <select id="ind-heads" title="Changing it starts a new run from step 0"></select></label>
    <label><input type="checkbox" id="ind-control"> Train a one-layer control alongside</label>
    <button type="button" id="ind-example" title="Show the heads on another sequence">Another sequence</button>
    <button type="button" id="ind-link">Copy link to this step</button>
  </div>
  <p class="ind-count"><span id="ind-status">Step 0</span> <span id="ind-where" class="note"></span></p>
</div>
<p id="ind-says" class="ind-says" aria-live="polite"></p>
<div class="ind-charts">
  <figure class="ind-chart">
    <svg id="ind-curve" role="img" aria-labelledby="ind-curve-title ind-curve-cap"><title id="ind-curve-title">Loss curves</title></svg>
    <ul id="ind-curve-legend" class="ind-legend">
      <li><span class="swatch repeat"></span>repeated part</li>
      <li><span class="swatch first"></span>first part</li>
      <li class="control"><span class="swatch control"></span>one-layer control, repeated part</li>
    </ul>
    <figcaption id="ind-curve-cap" class="note"></figcaption>
  </figure>
  <figure class="ind-chart" id="ind-kcomp-box">
    <svg id="ind-kcomp" role="img" aria-labelledby="ind-kcomp-title ind-kcomp-cap"><title id="ind-kcomp-title">K-composition over training</title></svg>
    <ul id="ind-kcomp-legend" class="ind-legend"></ul>
    <figcaption id="ind-kcomp-cap" class="note"></figcaption>
  </figure>
</div>
<h3 class="ind-h">Every head on <span id="ind-seq-name">the sequence</span></h3>
<p id="ind-seq" class="ind-seq"></p>
<p class="note">Each square is a head’s attention A: a row per query, a column per key (darker = more weight). A previous-token
  head is a line just below the diagonal; an induction head lines k − 1, 2k − 1, … below it, where k is the period, the number of
  different words (a token’s earlier copies are k, 2k, … back). The small chart under each head shows its previous-token score (how
  much attention goes to the token just before) and its induction score (how much goes to the tokens after the earlier copies) over
  training. The one-layer control’s heads are named C.1, C.2. Click a head to open it in the explorer below.</p>
<div id="ind-grid" class="ind-grid"></div>
<p class="ind-circuit"><button type="button" id="ind-ablate-circuit" aria-pressed="false" hidden></button></p>
<p id="ind-ablation" class="ind-ablation" aria-live="polite"></p>
<h3 class="ind-h" id="ind-copy-h">What the induction head reads and writes</h3>
<p id="ind-copy" class="note"></p>
<section id="ind-split-box" class="ind-split" aria-labelledby="ind-split-h" hidden>
  <h3 id="ind-split-h" class="ind-h">Why it works: where a layer-2 key’s score comes from</h3>
  <p class="note">A layer-2 head reads the residual stream, the sum of the embeddings and of what every layer-1 head wrote. Its keys
    K = X·Wk are therefore a sum too, and so is each score q·k. The rows below split one query’s scores by source. Hover a cell.</p>
  <label>Query <select id="ind-query"></select></label>
  <div id="ind-split" class="scroller"></div>
  <p id="ind-split-says" class="note"></p>
  <p id="ind-split-title" class="explain-title"></p>
  <p id="ind-split-explain" class="note"></p>
</section>
<div id="ind-error" class="error" role="alert" hidden></div>
<p id="ind-explorer-label" class="ind-explorer-label"></p>`;
