// When the explorer below the training panel gets the newest head: the decision of each frame
// (web/train/state.js frameShows, pure) and the clocks that feed it (web/train/handover.js),
// driven here with a fake clock and a fake explorer, never timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { frameShows, PLAY_EXPLORER_MS } from '../../web/train/state.js';
import { createHandover } from '../../web/train/handover.js';

test('a frame of training hands the explorer the newest head once PLAY_EXPLORER_MS have passed, and only when it is in sight', () => {
  const at = (o) => frameShows({ playing: true, answering: false, seen: true, ...o });
  assert.equal(at({ sinceHanded: 0 }), 'panel');
  assert.equal(at({ sinceHanded: PLAY_EXPLORER_MS - 1 }), 'panel');
  assert.equal(at({ sinceHanded: PLAY_EXPLORER_MS }), 'hand');
  assert.equal(at({ sinceHanded: Infinity }), 'hand');
  assert.equal(at({ sinceHanded: PLAY_EXPLORER_MS, seen: false }), 'catch-up', 'out of sight: the read-out and prediction catch up instead');
  assert.equal(at({ sinceHanded: Infinity, answering: true }), 'panel', 'the explorer answers the learner in this frame');
});

test('training that stopped on its own hands the head over at once, in sight or not', () => {
  for (const seen of [true, false]) {
    for (const answering of [true, false]) assert.equal(frameShows({ playing: false, answering, sinceHanded: 0, seen }), 'hand');
  }
});

/** A fake window (its clock moved by hand, frames run by hand) and explorer that counts heads. */
function fakes() {
  const frames = [];
  const win = { now: 0, performance: { now: () => win.now }, requestAnimationFrame: (f) => frames.push(f) };
  const explorer = { handed: [], flushes: 0, showHead(config) { this.handed.push(config); }, flush() { this.flushes++; }, view: null };
  const session = { shown: null, playing: true };
  const h = createHandover({ win, attn: null, explorer, session, watch: null });
  const runFrames = () => { for (const f of frames.splice(0)) f(); };
  return { win, explorer, session, h, runFrames };
}

test('hand() gives the explorer each new head once, and has it computed at once', () => {
  const { explorer, session, h } = fakes();
  h.hand();
  assert.equal(explorer.handed.length, 0, 'nothing on show yet');
  session.shown = { config: { tokens: ['a'] }, extra: {} };
  h.hand();
  h.hand();
  assert.deepEqual([explorer.handed.length, explorer.flushes], [1, 1]);
  assert.ok(h.current());
  session.shown = { config: { tokens: ['b'] }, extra: {} };
  assert.ok(!h.current());
  h.hand();
  assert.equal(explorer.handed.length, 2);
});

test('while training, a frame hands over only every PLAY_EXPLORER_MS; an action brings the next head in the frame after, at most that often', () => {
  const { win, session, h, runFrames } = fakes();
  session.shown = { config: { tokens: ['a'] }, extra: {} };
  assert.equal(h.afterTick(), 'hand', 'nothing handed yet');
  h.hand();
  win.now += PLAY_EXPLORER_MS / 2;
  assert.equal(h.afterTick(), 'panel');
  h.touched();
  assert.equal(h.afterTick(), 'panel', 'the explorer answers the learner in the coming frame');
  runFrames();
  assert.equal(h.afterTick(), 'hand', 'then gets the newest head in the frame after');
  h.hand();
  session.shown = { config: { tokens: ['b'] }, extra: {} };
  h.hand();
  win.now += 1;
  h.touched();
  runFrames();
  assert.equal(h.afterTick(), 'panel', 'a second action within PLAY_EXPLORER_MS waits its turn');
});
