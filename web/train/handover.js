// @ts-check
// train/handover.js: when the explorer below the training panel gets the head on show. Handing
// it over is the page's expensive part (a full refresh of its heatmaps), so while training
// plays the explorer gets the newest head at most every PLAY_EXPLORER_MS, none while it is out
// of sight, and the panel meanwhile computes the newest head itself (headOnShow). The decision
// of each frame is state.js frameShows (pure); this module keeps the clocks and the observer.

import { parseConfig, forwardArgs } from '../blocks/config.js';
import { frameShows, PLAY_EXPLORER_MS } from './state.js';

/** @typedef {import('./state.js').TrainSession} TrainSession */

/**
 * @param {{ win: Window, attn: import('../../types/attention').Attention, explorer: import('../explorer/mount.js').ExplorerApi,
 *   session: TrainSession, watch: Element | null }} o watch: the explorer's box (null: always in sight)
 */
export function createHandover({ win, attn, explorer, session: s, watch }) {
  /** @type {TrainSession['shown']} */
  let handed = null; // the head last handed to the explorer
  let handedAt = -Infinity; // when (performance.now())
  let forcedAt = -Infinity; // when an action of the learner last brought the newest head (touched)
  /** @type {{ shown: TrainSession['shown'], r: any } | null} the panel's own forward() of a head the explorer has not been handed yet */
  let own = null;
  let answering = false; // the explorer answers the learner in the coming frame: no refresh in it
  // Training hands no heads to an explorer out of sight (a refresh is 30-50 ms: docs/architecture.md)
  let seen = true;
  /** @type {TrainSession['shown']} */
  let caught = null; // the head the read-out and the prediction caught up with meanwhile
  const Watcher = /** @type {Window & typeof globalThis} */ (win).IntersectionObserver;
  const watcher = watch && typeof Watcher === 'function'
    ? new Watcher((entries) => {
      seen = entries[entries.length - 1].isIntersecting;
      if (seen) handedAt = -Infinity;
    })
    : null;
  if (watcher && watch) watcher.observe(watch);

  return {
    /** Hands the explorer the head on show, when it changed. */
    hand() {
      if (!s.shown || s.shown === handed) return;
      handed = s.shown; // first: showHead may call back (its emit, or a caller's wrapper of it)
      handedAt = win.performance.now();
      own = null;
      explorer.showHead(handed.config, handed.extra);
      // The explorer computes it now, not at its next frame: the panel's draw reads its result
      // (headOnShow) and may come first, in a frame asked for before (a pause while the explorer
      // was out of sight drew the untrained head's words and bars under the trained step's count).
      explorer.flush();
    },
    /**
     * After one frame of training: what it shows (state.js frameShows). Out of sight, the
     * read-out and the prediction catch up with the newest head instead of the explorer.
     */
    afterTick() {
      const now = win.performance.now();
      const shows = frameShows({ playing: s.playing, answering, sinceHanded: now - handedAt, seen });
      if (shows === 'catch-up') {
        handedAt = now;
        caught = s.shown;
      }
      return shows;
    },
    /** Whether the read-out and the prediction show the head on show already (handed or caught up with). */
    current: () => s.shown === handed || s.shown === caught,
    /**
     * The core's result for the head on show, and its tokens: the explorer's, read in place
     * (explorer.result would copy every array), or, while training runs ahead of the explorer
     * (PLAY_EXPLORER_MS), the panel's own forward() of the newest head.
     */
    headOnShow() {
      const shown = s.shown;
      if (shown && shown !== handed) {
        if (!own || own.shown !== shown) own = { shown, r: attn.forward(forwardArgs(parseConfig(shown.config))) };
        return { r: own.r, tokens: shown.config.tokens };
      }
      const view = explorer.view;
      return { r: view && view.r, tokens: view ? view.config.tokens : [] };
    },
    /**
     * The learner acted in the explorer while training runs: the explorer answers in the coming
     * frame with the head it shows, and gets the newest in the frame after (at most every
     * PLAY_EXPLORER_MS). This frame callback runs after the coming frame's tick.
     */
    touched() {
      answering = true;
      win.requestAnimationFrame(() => {
        answering = false;
        const now = win.performance.now();
        if (now - forcedAt < PLAY_EXPLORER_MS) return;
        forcedAt = now;
        handedAt = -Infinity;
      });
    },
    dispose() {
      watcher?.disconnect();
    },
  };
}
