// @ts-check
// induction-worker.js: the Web Worker that trains the induction model (web/induction-engine.js),
// so the page never waits for a training step. It loads its own copy of the core.
import { loadAttention } from './attention.js';
import { createEngine } from './induction-engine.js';

/** Messages that came before the core was loaded. @type {unknown[]} */
const queue = [];
/** @type {ReturnType<typeof createEngine> | null} */
let engine = null;
loadAttention().then(
  (attn) => {
    engine = createEngine(attn, (msg) => self.postMessage(msg));
    for (const m of queue.splice(0)) engine.handle(m);
  },
  (e) => self.postMessage({ type: 'error', message: 'the worker could not load the core: ' + e.message }),
);
self.onmessage = (ev) => (engine ? engine.handle(ev.data) : queue.push(ev.data));
