// @ts-check
// induction/runner.js: where the engine (web/induction/engine.js) runs: a Web Worker, or the page's
// thread when no worker can be had. The same messages either way.

import { sharedCore } from '../explorer/index.js';
import { createEngine } from './engine.js';
import { workerUrl } from './worker-url.js';
import { scriptUrl } from '../blocks/trusted-types.js';

/** @typedef {import('./types').EngineMessage} EngineMessage @typedef {import('./types').EngineRequest} EngineRequest */

/**
 * Starts the engine in a Web Worker, or on this thread when no worker can be had (a page opened
 * from file://, dist/'s bundle, a policy that forbids it): { kind, post(msg), dispose() }.
 * @param {Window & typeof globalThis} win @param {(msg: EngineMessage) => void} onMessage @param {{ worker?: boolean }} [options]
 */
export function startRunner(win, onMessage, { worker = true } = {}) {
  /** @type {ReturnType<typeof createEngine> | null} */
  let local = null;
  /** @type {EngineRequest[]} */
  let queue = [];
  /** @type {Worker | null} */
  let w = null;
  let heard = false;
  const runLocal = async () => {
    const attn = await sharedCore();
    // short slices on the page's thread, so input is answered between them
    local = createEngine(attn, (/** @type {EngineMessage} */ m) => onMessage(m), { sliceMs: 12 });
    for (const m of queue.splice(0)) local.handle(m);
  };
  /** @type {import('./types').Runner} */
  const runner = {
    kind: 'page',
    post(msg) {
      if (w) {
        if (!heard) queue.push(msg);
        w.postMessage(msg);
      } else if (local) local.handle(msg);
      else queue.push(msg);
    },
    dispose() {
      if (w) w.terminate();
      if (local) local.dispose();
      w = local = null;
    },
  };
  const url = worker && typeof win.Worker === 'function' ? workerUrl() : null;
  if (url) {
    try {
      w = new win.Worker(scriptUrl(url), { type: 'module' });
      runner.kind = 'worker';
      w.onmessage = (ev) => {
        heard = true;
        queue = [];
        onMessage(ev.data);
      };
      w.onerror = (ev) => {
        if (heard) return onMessage({ type: 'error', message: ev.message || 'the training worker stopped' });
        ev.preventDefault();
        /** @type {Worker} */ (w).terminate(); // the worker that failed
        w = null;
        runner.kind = 'page';
        runLocal(); // replays what was sent to the worker
      };
    } catch {
      w = null;
    }
  }
  if (!w) runLocal();
  return runner;
}
