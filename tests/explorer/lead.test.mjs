// The explorer's lead (web/explorer/lead-view.js): the key idea, and the sentence that says whom a
// token listens to most, checked against the core's weights for every preset and every row, and
// over the shapes a row can take: one winner, a tie of two or more, every visible key tied (two
// and more), one visible key, none. Also the folded note's summary and the input wording by pointer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/core/attention.js';
import { parseConfig, forwardArgs } from '../../web/blocks/config.js';
import { PRESETS } from '../../web/blocks/presets.js';
import { fmt, tokenRef } from '../../web/blocks/format.js';
import { largest } from '../../web/blocks/words.js';
import { KEY_IDEA, leadSentence, explainCell, howToChange } from '../../web/blocks/explain.js';
import { leadToken, aboutSummary } from '../../web/explorer/lead-view.js';

const attn = await loadAttention();
function viewOf(cfg, mask) {
  const config = parseConfig(cfg);
  const args = forwardArgs(config);
  if (mask) args.mask = mask;
  return { config, r: attn.forward(args), raw: attn.forward({ ...args, scale: 1 }), step: null };
}
// A direct head whose scores are Q·Kᵀ/√1 = q_i·k_j: K = 1 for every key, so row i's scores are
// its query times the keys, and a key of 0 gives a score that ties with any other 0.
const direct = (tokens, Q, K, causal = false) => viewOf({ tokens, Q, K, V: tokens.map((_, i) => [i]), causal, scale: 1 });
const quoted = (t, i) => `“${t}” (${i + 1})`;

test('the key idea is the widget page’s picture: a query says what a token looks for, a key what it offers, listening in proportion, the output a weighted average of the values', () => {
  for (const words of ['query (what it looks for)', 'key (what they offer)', 'in proportion', 'weighted average of their values']) assert.ok(KEY_IDEA.includes(words), words);
});

test('for every preset and every row, the lead names exactly the tokens the core gives the row’s largest weight, with that weight', () => {
  for (const [name, preset] of Object.entries(PRESETS)) {
    const view = viewOf(preset.config);
    const { r, config } = view;
    for (let i = 0; i < r.n; i++) {
      const row = Array.from(r.A.subarray(i * r.m, (i + 1) * r.m));
      const live = row.map((_, j) => j).filter((j) => r.M[i * r.m + j] !== -Infinity);
      const s = leadSentence(view, i);
      const top = largest(row, live);
      assert.ok(s.includes(`${fmt(row[top[0]])} `), `${name} row ${i + 1}: “${s}” has the weight ${fmt(row[top[0]])}`);
      const first = tokenRef(config.tokens, i);
      assert.ok(s.startsWith(first[0].toUpperCase() + first.slice(1)), `${name} row ${i + 1}: “${s}” starts with its token`);
      if (top.length < live.length) for (let j = 0; j < r.m; j++) {
        const named = s.includes(j === i ? 'itself' : ` ${tokenRef(config.tokens, j)}`);
        assert.equal(named, top.includes(j), `${name} row ${i + 1}: “${s}” ${top.includes(j) ? 'names' : 'does not name'} token ${j + 1}`);
      }
    }
  }
});

test('one winner, a tie, every visible key tied, one key and none: each said in its own words', () => {
  // row 1 sees three keys with scores 2, 2, 0: a tie of two, "each"
  const tie = direct(['a', 'b', 'c'], [[1], [0], [0]], [[2], [2], [0]]);
  assert.match(leadSentence(tie, 0), /^“a” \(1\) listens most to itself and “b” \(2\): 0\.\d{3} of its attention each in A\.$/);
  // row 2 has query 0: every score 0, all three tied
  assert.equal(leadSentence(tie, 1), `“b” (2) listens to all 3 tokens equally: ${fmt(1 / 3)} of its attention each in A.`);
  // two tokens, both tied
  const two = direct(['a', 'b'], [[0], [0]], [[1], [2]]);
  assert.equal(leadSentence(two, 0), '“a” (1) listens to both tokens equally: 0.500 of its attention each in A.');
  // one winner, no "each"
  const one = direct(['a', 'b'], [[1], [1]], [[0], [3]]);
  assert.match(leadSentence(one, 0), /^“a” \(1\) listens most to “b” \(2\): 0\.\d{3} of its attention in A\.$/);
  // causal: the first token sees only itself
  const causal = direct(['a', 'b'], [[1], [1]], [[0], [3]], true);
  assert.equal(leadSentence(causal, 0), '“a” (1) can see only itself, so it gives itself all of its attention: 1.000 in A.');
  // an explicit mask: row 1 sees only "b"; row 2 sees nothing; row 3 sees two of three, tied
  const masked = viewOf({ tokens: ['a', 'b', 'c'], Q: [[0], [0], [0]], K: [[1], [1], [1]], V: [[0], [1], [2]], causal: false, scale: 1 }, [[false, true, false], [false, false, false], [true, true, false]]);
  assert.equal(leadSentence(masked, 0), '“a” (1) can see only “b” (2), so it gives it all of its attention: 1.000 in A.');
  assert.equal(leadSentence(masked, 1), '“b” (2) has no token it may listen to (every key of row 2 is masked), so its weights are all 0.');
  assert.equal(leadSentence(masked, 2), '“c” (3) listens to the 2 tokens it can see equally: 0.500 of its attention each in A.');
});

test('the lead speaks of the followed token, else the last one', () => {
  const view = viewOf(PRESETS.cat.config);
  assert.equal(leadToken({ follow: null }, view), view.r.n - 1);
  assert.equal(leadToken({ follow: 1 }, view), 1);
  assert.equal(leadToken({ follow: view.r.n + 3 }, view), view.r.n - 1, 'a follow past the head (a stale one) falls back to the last token');
});

test('the folded note’s summary says what it holds: a preset, a changed preset, one’s own head', () => {
  assert.match(aboutSummary({ preset: 'cat', origin: 'cat' }), /preset/);
  assert.match(aboutSummary({ preset: null, origin: 'cat' }), /how to go back/);
  assert.match(aboutSummary({ preset: null, origin: null }), /own head/);
});

test('an input cell says how to change it with the input at hand: no scroll wheel on a touch screen', () => {
  const view = viewOf(PRESETS.cat.config);
  const fine = explainCell(view, 'X', 0, 0).text, coarse = explainCell(view, 'X', 0, 0, null, 'coarse').text;
  assert.match(fine, /scroll wheel/);
  assert.doesNotMatch(coarse, /wheel|drag/);
  assert.match(coarse, /tap it.*−0\.1 and \+0\.1/);
  for (const p of /** @type {const} */ (['fine', 'coarse'])) assert.ok(explainCell(view, 'X', 0, 0, null, p).text.includes(howToChange(p)));
});
