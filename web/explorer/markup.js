// explorer/markup.js: the explorer's markup. Constant text (no user data ever goes through
// innerHTML), no inline styles or scripts, so it runs under a strict Content-Security-Policy.
// Every part that depends on the state is filled in by a view (web/explorer/*-view.js); the preset
// menu's options come from web/blocks/presets.js (controls-view.js), never copied here.
//
// Layout: the lead (the key idea, this head's example of it, and the one first thing to press),
// the controls across the top, then the matrices in the lesson's order (X → Q, K, V on one
// row, S → M → A → O on the next) with the explanation beside them (docked below on a narrow screen).

export const MARKUP = `
<nav class="skips" aria-label="Skip links">
  <button type="button" class="skip" data-skip="matrices">Skip to the matrices</button>
  <button type="button" class="skip" data-skip="inspector">Skip to the explanation</button>
</nav>
<p class="lead" data-control="explain"><strong id="lead-idea" class="lead-idea"></strong> <span id="lead-example"></span></p>
<div class="bar">
  <button type="button" id="tour-start" class="primary" data-control="steps" title="The widget page’s “Reading the matrices”: four stops that follow the last “the”">Start the tour</button>
  <button type="button" id="lead-step" class="primary" data-control="steps" title="Go through the six steps one at a time, from 1 Project">Start at step 1</button>
  <label data-control="presets">Preset
    <select id="preset">
      <option value="" id="own-head" disabled>(your own head)</option>
    </select>
  </label>
  <button type="button" id="theme" data-control="theme" aria-pressed="false">Dark theme</button>
  <button type="button" id="copy-link" data-control="link">Copy link</button>
  <button type="button" id="geometry-toggle" data-control="geometry" aria-pressed="false" aria-controls="geometry" title="See q, k and v as arrows you can drag">Arrows</button>
  <details id="about-head" class="about-head">
    <summary id="about-summary">About this head: its features and formula</summary>
    <p id="preset-note" class="note" data-control="presets"></p>
    <p id="formula" class="formula"></p>
  </details>
</div>
<div id="error" class="error" role="alert" hidden></div>

<div class="playbar">
<section class="controls" aria-label="Steps">
  <div class="steps" role="group" aria-label="Play the six steps" data-control="steps">
    <button type="button" id="back" aria-label="Step back" title="Step back (←)">◀</button>
    <button type="button" id="play" aria-label="Play" title="Play or pause (space)">▶ Play</button>
    <button type="button" id="fwd" aria-label="Step forward" title="Step forward (→)">▶▶</button>
    <span id="step-pills" class="pills"></span>
    <button type="button" id="all" class="pill">All</button>
  </div>
</section>
<section class="follow-box" aria-label="Follow a token">
  <div data-control="follow"><span class="label" id="follow-label">Follow a token:</span> <span id="tokens" class="chips" role="toolbar" aria-labelledby="follow-label"></span></div>
</section>
</div>
<p id="narration" class="narration" aria-live="polite"></p>
<p id="follow-text" class="follow-text" aria-live="polite"></p>

<section id="geometry" class="geometry" aria-labelledby="geo-title" hidden>
  <h2 id="geo-title">Attention as geometry: <span id="geo-query"></span></h2>
  <p id="geo-crowded" class="note"></p>
  <div id="geo-body"></div>
</section>
<div class="ex-grid">
<div class="ex-main">
<section id="matrices" class="matrices" aria-label="The matrices of the head" tabindex="-1"></section>
<section id="leak" class="leak" aria-label="Leak check" hidden>
  <h2 class="leak-title">Leak check: O now against O before your edits</h2>
  <p id="leak-text" class="leak-text" aria-live="polite"></p>
  <table class="leak-table"><thead><tr><th scope="col">Row of O</th><th scope="col">Largest change</th><th scope="col">Verdict</th></tr></thead><tbody id="leak-rows"></tbody></table>
</section>

<details class="exports" data-control="export">
  <summary>Export pictures and numbers</summary>
  <div class="export-row">
    <label>What <select id="export-what"><option value="">the whole view</option></select></label>
    <button type="button" id="export-png">PNG</button>
    <button type="button" id="export-svg">SVG</button>
    <button type="button" id="export-csv" title="CSV holds one matrix: choose it under “What”">CSV</button>
    <button type="button" id="export-json">JSON</button>
    <button type="button" id="export-torch">Copy as PyTorch</button>
  </div>
  <p id="export-note" class="note" aria-live="polite"></p>
  <textarea id="export-text" class="export-text" rows="12" readonly spellcheck="false" aria-label="Exported text" hidden></textarea>
</details>

<section class="edit" aria-label="Change the head" data-control="edit">
  <h2>Change the head</h2>
  <p class="note">The causal mask is switched beside M (key M), the scaling beside S (key S), the leak check beside O.</p>
  <div class="toggles">
    <button type="button" id="reset">Reset to the preset</button>
  </div>
  <fieldset class="token-editor">
    <legend>Tokens</legend>
    <ol id="token-list"></ol>
    <button type="button" id="add-token">Add a token</button>
  </fieldset>
  <fieldset class="token-editor" id="feature-editor">
    <legend>Features</legend>
    <p class="note">The columns of X, and the rows of Wq, Wk and Wv. A new feature is 0 everywhere, so nothing changes until you give it numbers.</p>
    <ol id="feature-list"></ol>
    <button type="button" id="add-feature">Add a feature</button>
  </fieldset>
  <fieldset class="token-editor widths">
    <legend>Widths</legend>
    <label>dk, the columns of Q and K <input id="width-dk" type="number" min="1" step="1" inputmode="numeric"></label>
    <label>dv, the columns of V and O <input id="width-dv" type="number" min="1" step="1" inputmode="numeric"></label>
    <p id="width-note" class="note"></p>
  </fieldset>
  <details class="config" data-control="config">
    <summary>Config: JSON or printed tensors (paste your own head)</summary>
    <textarea id="config-text" rows="10" spellcheck="false" aria-label="Config: JSON or printed tensors"></textarea>
    <p><button type="button" id="apply-config">Apply</button></p>
    <p id="config-note" class="note" aria-live="polite"></p>
    <p class="note">JSON: {"tokens": [...], "features": [...], "X": [[...]], "Wq": [[...]], "Wk": [[...]], "Wv": [[...]], "causal": true, "scale": null},
      or "Q", "K", "V" instead of X and the W matrices (the direct form).</p>
    <p class="note">Or tensors as PyTorch or NumPy print them, one per line: Q = tensor([[1., 0.], [0., 1.]]), then K = … and V = … (or X, Wq, Wk and Wv).
      As in scaled_dot_product_attention, the causal mask is then off unless a line says is_causal=True.</p>
  </details>
  <p class="note keys">Keyboard: arrow keys move inside a matrix (← from the first column reaches the row’s token); Enter edits an input cell, or type its new number straight away, “-” first for a negative one (Enter keeps it and returns to the cell); + and _ nudge it up and down by 0.1;
    f follows the cell’s token; e reads its explanation (Escape comes back to the cell); m and s switch the mask and the scaling; space plays or pauses; [ and ] step back and forward.</p>
</section>
</div>

<section id="inspector" class="inspector" aria-label="Explanation" data-control="explain" tabindex="0">
  <section id="tour" class="tour" aria-label="Guided tour" tabindex="-1" hidden>
    <p class="tour-head"><span id="tour-count" class="tour-count"></span> <strong id="tour-title"></strong></p>
    <p id="tour-text" class="tour-text" aria-live="polite"></p>
    <div class="tour-buttons">
      <button type="button" id="tour-back">Back</button>
      <button type="button" id="tour-next">Next</button>
      <button type="button" id="tour-skip">Skip the tour</button>
    </div>
  </section>
  <h2 id="explain-title" class="explain-title">Hover, focus or tap any cell</h2>
  <p id="explanation" class="explanation" data-role="explanation" tabindex="-1">Each number below says how it was computed, with the real numbers. The cells that fed it light up.</p>
  <div id="sources" class="sources"></div>
  <div id="editor" class="editor" hidden>
    <label>Value <input id="edit-value" type="text" inputmode="decimal" autocomplete="off" spellcheck="false"></label>
    <button type="button" id="edit-minus" aria-label="Decrease by 0.1">−0.1</button>
    <button type="button" id="edit-plus" aria-label="Increase by 0.1">+0.1</button>
  </div>
</section>
</div>`;
